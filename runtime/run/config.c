/* config.c: config values (program.md §6, DECISIONS.md D3).
 *
 * Takes the raw text of a config value and the declared type; produces the
 * typed value: strings as they are, bools as Go's ParseBool spells them,
 * ints exactly from their decimal text, numbers as the nearest double, and
 * lists, maps and objects from JSON text checked (and converted where PCL
 * converts) against the element types (any nesting depth, walked without
 * recursion).  Every error names the config key, the value that does not
 * convert and its JSON path; the text of a secret value shows as [secret]
 * (the caller opens a redaction scope, pcl__redact_enter).
 *
 * Also the raw config of a run (pcl__config_set): the entries of
 * PULUMI_CONFIG, config files and flags in order, each JSON document
 * checked against docs/program-cli.md (input.c's document checks), keys
 * checked as the engine would check them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "value/pcl_internal.h"
#include "semver.h"

const pcl_type pcl_type_any = {PCL_TY_ANY, NULL, NULL, 0};
const pcl_type pcl_type_bool = {PCL_TY_BOOL, NULL, NULL, 0};
const pcl_type pcl_type_int = {PCL_TY_INT, NULL, NULL, 0};
const pcl_type pcl_type_number = {PCL_TY_NUMBER, NULL, NULL, 0};
const pcl_type pcl_type_string = {PCL_TY_STRING, NULL, NULL, 0};

/* Returns the bool text's value in *out; false when it is not one of Go's
 * ParseBool spellings. */
static bool parse_bool(const char *s, bool *out) {
  static const char *const t[] = {"1", "t", "T", "TRUE", "true", "True"};
  static const char *const f[] = {"0", "f", "F", "FALSE", "false", "False"};
  for (size_t i = 0; i < 6; i++) {
    if (strcmp(s, t[i]) == 0) {
      *out = true;
      return true;
    }
    if (strcmp(s, f[i]) == 0) {
      *out = false;
      return true;
    }
  }
  return false;
}

static const pcl_type *strip_optional(const pcl_type *t) {
  while (t->kind == PCL_TY_OPTIONAL) {
    t = t->elem;
  }
  return t;
}

/* Returns NULL with *err saying that v is not a `type` value: "cannot
 * convert <v> to <type>: <why>", as the value layer's conversions say it. */
static pcl_value *kind_error(const pcl_value *v, const char *type, const char *why,
                             pcl_error **err) {
  pcl_kind k = pcl_kind_of(v);
  char *r = k == PCL_T_LIST || k == PCL_T_MAP ? pcl_xstrdup(pcl_kind_name(k))
                                              : pcl_value_repr(v, 64);
  *err = pcl_error_new("cannot convert %s to %s: %s", r, type, why);
  free(r);
  return NULL;
}

/* Returns the double nearest to the INT or NUMBER n (stolen), the value of
 * the config value v, as a NUMBER: a number-typed value is a double
 * (DECISIONS.md D3), whatever digits its text had.  NULL and *err naming v
 * when it is beyond the double range. */
static pcl_value *as_double(pcl_value *n, const pcl_value *v, pcl_error **err) {
  if (pcl_kind_of(n) == PCL_T_NUMBER) {
    return n;
  }
  double d = pcl_num_to_double(n);
  pcl_release(n);
  if (isinf(d)) {
    return kind_error(v, "number", "out of the range of a double", err);
  }
  return pcl_number_new(d);
}

/* The state of a conform rewrite. */
typedef struct conform_state {
  const pcl_type *type; /* The type of the whole value. */
  pcl_error *err;       /* Why the value does not conform (owned), or NULL. */
  pcl_strbuf where;     /* The JSON path of the part that does not. */
} conform_state;

/* The pcl__value_rewrite step of conform: the type of s->v is the whole
 * value's at the top, else its container's (the step's parent_ctx)
 * element type, or for an object the type of the property named by its
 * key (any type for an undeclared property).  Scalars are converted where
 * PCL converts; lists, maps and objects are entered with their type as the
 * context of their parts. */
static pcl__rw_action conform_step(pcl__rw_step *s, void *data) {
  conform_state *st = data;
  const pcl_type *t = st->type;
  const pcl_type *pt = s->parent_ctx;
  if (pt != NULL && pt->kind == PCL_TY_OBJECT) {
    t = &pcl_type_any;
    for (size_t j = 0; j < pt->nfields; j++) {
      if (pcl_str_eq_cstr(s->key, pt->fields[j].name)) {
        t = pt->fields[j].type;
      }
    }
  } else if (pt != NULL) {
    t = pt->elem;
  }
  t = strip_optional(t);
  pcl_value *v = (pcl_value *)s->v;
  if (pcl_kind_of(v) == PCL_T_NULL) {
    /* Object properties of configs are optional (program.md §6), and JSON
     * null elsewhere is passed on as null too. */
    s->out = pcl_null();
    return PCL__RW_DONE;
  }
  pcl_error **err = &st->err;
  pcl_value *r = NULL;
  switch (t->kind) {
  case PCL_TY_ANY:
    r = pcl_retain(v);
    break;
  case PCL_TY_BOOL:
    r = pcl_kind_of(v) == PCL_T_BOOL || pcl_kind_of(v) == PCL_T_STRING
            ? pcl_convert_to_bool(v, err)
            : kind_error(v, "bool", "a bool is required", err);
    break;
  case PCL_TY_INT:
    r = pcl_kind_of(v) == PCL_T_STRING || pcl_is_numeric(v)
            ? pcl_convert_to_int(v, err)
            : kind_error(v, "int", "an integer is required", err);
    break;
  case PCL_TY_NUMBER:
    if (pcl_kind_of(v) != PCL_T_STRING && !pcl_is_numeric(v)) {
      r = kind_error(v, "number", "a number is required", err);
    } else {
      pcl_value *n = pcl_convert_to_number(v, err);
      r = n ? as_double(n, v, err) : NULL;
    }
    break;
  case PCL_TY_STRING:
    r = pcl_kind_of(v) == PCL_T_STRING || pcl_is_numeric(v) || pcl_kind_of(v) == PCL_T_BOOL
            ? pcl_convert_to_string(v, err)
            : kind_error(v, "string", "a string is required", err);
    break;
  case PCL_TY_LIST:
    if (pcl_kind_of(v) == PCL_T_LIST) {
      s->ctx = t;
      return PCL__RW_ENTER;
    }
    r = kind_error(v, "list", "a list is required", err);
    break;
  case PCL_TY_MAP:
  case PCL_TY_OBJECT:
    if (pcl_kind_of(v) == PCL_T_MAP) {
      s->ctx = t;
      return PCL__RW_ENTER;
    }
    r = t->kind == PCL_TY_MAP ? kind_error(v, "map", "a map is required", err)
                              : kind_error(v, "object", "an object is required", err);
    break;
  case PCL_TY_OPTIONAL:
    r = kind_error(v, "the declared type", "unsupported type", err);
    break;
  }
  if (r == NULL) {
    pcl__rw_path(s, &st->where);
    return PCL__RW_FAIL;
  }
  s->out = r;
  return PCL__RW_DONE;
}

/* Checks the decoded JSON value v against type t and returns the converted
 * value (owned), or NULL with *err naming the value that does not conform
 * and, inside v, its JSON path.  Any nesting depth is safe. */
static pcl_value *conform(pcl_value *v, const pcl_type *t, pcl_error **err) {
  conform_state st = {t, NULL, PCL_STRBUF_INIT};
  pcl_value *r = pcl__value_rewrite(v, NULL, conform_step, &st);
  if (r == NULL) {
    *err = st.err;
    if (st.where.len > 0) {
      pcl_error_prefix(*err, "%s", st.where.data);
    }
  }
  pcl_strbuf_free(&st.where);
  return r;
}

/* Converts the text of a scalar config value of kind t (BOOL, INT or
 * NUMBER) as the value layer converts the string it is, so that an error
 * names the value: "cannot convert \"2.5\" to int: not an integer". */
static pcl_value *scalar(const char *text, size_t len, const pcl_type *t, pcl_error **err) {
  pcl_value *s = pcl_str_new(text, len, err);
  if (s == NULL) {
    return NULL;
  }
  pcl_value *v = NULL;
  if (t->kind == PCL_TY_BOOL) {
    bool b;
    v = parse_bool(text, &b) ? pcl_bool(b) : pcl_convert_to_bool(s, err);
  } else {
    v = conform(s, t, err);
  }
  pcl_release(s);
  return v;
}

pcl_value *pcl_config_parse(const char *key, const char *text, const pcl_type *type,
                            pcl_error **err) {
  const pcl_type *t = strip_optional(type);
  size_t len = strlen(text);
  pcl_value *v = NULL;
  switch (t->kind) {
  case PCL_TY_STRING:
    v = pcl_str_new(text, len, err);
    break;
  case PCL_TY_BOOL:
  case PCL_TY_INT:
  case PCL_TY_NUMBER:
    v = scalar(text, len, t, err);
    break;
  case PCL_TY_ANY: {
    pcl_error *e = NULL;
    v = pcl_json_decode(text, len, 0, &e);
    if (v == NULL) {
      pcl_error_free(e);
      v = pcl_str_new(text, len, err);
    }
    break;
  }
  case PCL_TY_LIST:
  case PCL_TY_MAP:
  case PCL_TY_OBJECT: {
    pcl_error *e = NULL;
    pcl_value *raw = pcl_json_decode(text, len, 0, &e);
    if (raw == NULL) {
      *err = pcl_error_new("invalid JSON value \"%s\": %s", pcl__redact_text(text),
                           pcl_error_message(e));
      pcl_error_free(e);
      break;
    }
    v = conform(raw, t, err);
    pcl_release(raw);
    if (v == NULL) {
      pcl_error_prefix(*err, "invalid JSON value \"%s\"", pcl__redact_text(text));
    }
    break;
  }
  case PCL_TY_OPTIONAL:
    *err = pcl_error_new("unsupported type");
    break;
  }
  if (v == NULL) {
    pcl_error_prefix(*err, "configuration variable '%s'", key);
  }
  return v;
}

/* -- The raw config of a run: every source's entries, in order.  Lookups
 * go through the index cs->order, sorted once after the entries changed:
 * a config of n keys is read in time n log n, where a search through the
 * entries for each key would take n^2. */

void pcl__config_put(pcl__config_set *cs, const char *key, const char *text, bool secret) {
  PCL__GROW(cs->items, cs->cap, cs->n + 1);
  pcl__config_entry *c = &cs->items[cs->n++];
  c->key = pcl_xstrdup(key);
  c->text = pcl_xstrdup(text);
  c->secret = secret;
  free(cs->order);
  cs->order = NULL;
}

/* The entries qsort orders by index (sort_entries). */
static const pcl__config_entry *sorting;

/* qsort order of entry indices: by key, then by position. */
static int cmp_entries(const void *pa, const void *pb) {
  size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
  int c = strcmp(sorting[a].key, sorting[b].key);
  return c != 0 ? c : (a > b) - (a < b);
}

/* Makes cs->order when it is out of date. */
static void index_entries(pcl__config_set *cs) {
  if (cs->order != NULL || cs->n == 0) {
    return;
  }
  cs->order = pcl_xmalloc(cs->n * sizeof *cs->order);
  for (size_t i = 0; i < cs->n; i++) {
    cs->order[i] = i;
  }
  sorting = cs->items;
  qsort(cs->order, cs->n, sizeof *cs->order, cmp_entries);
  sorting = NULL;
}

/* Returns the first position in cs->order of an entry whose key is not
 * before key (cs->n when none); *end gets the position after the entries
 * of key. */
static size_t key_range(pcl__config_set *cs, const char *key, size_t *end) {
  index_entries(cs);
  size_t lo = 0, hi = cs->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (strcmp(cs->items[cs->order[mid]].key, key) < 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  size_t e = lo;
  while (e < cs->n && strcmp(cs->items[cs->order[e]].key, key) == 0) {
    e++;
  }
  *end = e;
  return lo;
}

const pcl__config_entry *pcl__config_get(pcl__config_set *cs, const char *key) {
  size_t end;
  size_t start = key_range(cs, key, &end);
  return end > start ? &cs->items[cs->order[end - 1]] : NULL;
}

const char *pcl__config_key_problem(const char *key) {
  const char *colon = strchr(key, ':');
  if (*key == '\0') {
    return "the configuration key is empty";
  }
  if (colon == key) {
    return "the configuration key has an empty namespace";
  }
  if (colon != NULL && colon[1] == '\0') {
    return "the configuration key has an empty name";
  }
  return NULL;
}

/* Adds the entry key = the JSON value v of the document d: a string is the
 * raw text; an object with "value" or "secret" is the wrapper form, whose
 * keys may be "value" (required: the text), "secret" and "object" (bools);
 * any other value is passed as its JSON text.  False after recording the
 * error in d. */
static bool add_json_entry(pcl__config_set *cs, pcl__doc *d, const char *key, const pcl_value *v) {
  const char *why = pcl__config_key_problem(key);
  if (why != NULL) {
    return pcl__doc_fail(d, "%s", why);
  }
  bool secret = false;
  if (pcl_kind_of(v) == PCL_T_MAP &&
      (pcl_map_get_cstr(v, "value") != NULL || pcl_map_get_cstr(v, "secret") != NULL)) {
    static const char *const keys[] = {"object", "secret", "value"};
    if (!pcl__doc_keys(d, v, keys, 3)) {
      return false;
    }
    for (size_t i = 0; i < 2; i++) {
      const pcl_value *flag = pcl_map_get_cstr(v, keys[i]);
      if (flag != NULL) {
        size_t mark = pcl__doc_key(d, keys[i], strlen(keys[i]));
        bool ok = pcl__doc_is(d, flag, PCL_T_BOOL, "true or false");
        pcl__doc_leave(d, mark);
        if (!ok) {
          return false;
        }
      }
    }
    const pcl_value *s = pcl_map_get_cstr(v, "secret");
    secret = s != NULL && pcl_bool_get(s);
    v = pcl_map_get_cstr(v, "value");
    if (v == NULL) {
      return pcl__doc_fail(d, "expected an object with \"value\" (the text of the value)");
    }
  }
  if (pcl_kind_of(v) == PCL_T_STRING) {
    pcl__config_put(cs, key, pcl_str_data(v), secret);
    return true;
  }
  pcl_error *e = NULL;
  char *text = pcl_json_encode(v, 0, NULL, &e);
  if (text == NULL) {
    pcl__doc_fail(d, "%s", pcl_error_message(e));
    pcl_error_free(e);
    return false;
  }
  pcl__config_put(cs, key, text, secret);
  free(text);
  return true;
}

bool pcl__config_add_json(pcl__config_set *cs, const pcl_value *doc, const char *name,
                          pcl_error **err) {
  pcl__doc d = PCL__DOC_INIT(name);
  bool ok = pcl__doc_is(&d, doc, PCL_T_MAP, "an object");
  for (size_t i = 0; ok && i < pcl_len(doc); i++) {
    const pcl_value *k = pcl_map_key_at(doc, i);
    size_t mark = pcl__doc_key(&d, pcl_str_data(k), pcl_str_len(k));
    /* A document read as raw text (PCL_JSON_RAW_TEXT) keeps its keys as
     * they are written; a key is a name, compared in NFC. */
    pcl_value *key = pcl_str_from_bytes(pcl_str_data(k), pcl_str_len(k));
    ok = add_json_entry(cs, &d, pcl_str_data(key), pcl_map_val_at(doc, i));
    pcl_release(key);
    pcl__doc_leave(&d, mark);
  }
  *err = pcl__doc_finish(&d);
  return ok;
}

pcl_value *pcl__config_secret_keys(const pcl_value *doc, const char *name, pcl_error **err) {
  pcl__doc d = PCL__DOC_INIT(name);
  bool ok = pcl__doc_is(&d, doc, PCL_T_LIST, "a list of configuration keys");
  for (size_t i = 0; ok && i < pcl_len(doc); i++) {
    const pcl_value *k = pcl_list_at(doc, i);
    size_t mark = pcl__doc_index(&d, i);
    ok = pcl__doc_is(&d, k, PCL_T_STRING, "a configuration key (a string)");
    const char *why = ok ? pcl__config_key_problem(pcl_str_data(k)) : NULL;
    if (why != NULL) {
      ok = pcl__doc_fail(&d, "%s", why);
    }
    pcl__doc_leave(&d, mark);
  }
  *err = pcl__doc_finish(&d);
  return ok ? pcl_retain((pcl_value *)doc) : NULL;
}

/* Returns key qualified with project when it has no namespace (owned). */
static char *qualified(const char *key, const char *project) {
  if (strchr(key, ':') != NULL) {
    return pcl_xstrdup(key);
  }
  pcl_strbuf b = PCL_STRBUF_INIT;
  pcl_strbuf_appendf(&b, "%s:%s", project, key);
  return b.data;
}

void pcl__config_qualify(pcl__config_set *cs, const char *project) {
  for (size_t i = 0; i < cs->n; i++) {
    char *k = qualified(cs->items[i].key, project);
    free(cs->items[i].key);
    cs->items[i].key = k;
  }
  free(cs->order);
  cs->order = NULL;
}

void pcl__config_mark_secret(pcl__config_set *cs, const pcl_value *keys, const char *project) {
  for (size_t i = 0; keys != NULL && i < pcl_len(keys); i++) {
    char *k = qualified(pcl_str_data(pcl_list_at(keys, i)), project);
    size_t end;
    for (size_t j = key_range(cs, k, &end); j < end; j++) {
      cs->items[cs->order[j]].secret = true;
    }
    free(k);
  }
}

pcl_value *pcl__config_map(pcl__config_set *cs) {
  index_entries(cs);
  /* The last entry of each key, in key order (so the map sorts nothing). */
  pcl_mapbuf mb = PCL_MAPBUF_INIT;
  for (size_t i = 0; i < cs->n; i++) {
    const pcl__config_entry *c = &cs->items[cs->order[i]];
    if (i + 1 < cs->n && strcmp(cs->items[cs->order[i + 1]].key, c->key) == 0) {
      continue;
    }
    pcl_value *v = pcl_str_from_cstr(c->text);
    if (c->secret) {
      pcl_value *sv = pcl_secret_new(v);
      pcl_release(v);
      v = sv;
    }
    pcl_mapbuf_put_take(&mb, pcl_str_from_cstr(c->key), v);
  }
  return pcl_mapbuf_finish(&mb);
}

void pcl__config_set_free(pcl__config_set *cs) {
  for (size_t i = 0; i < cs->n; i++) {
    free(cs->items[i].key);
    free(cs->items[i].text);
  }
  free(cs->items);
  free(cs->order);
  *cs = (pcl__config_set){NULL, 0, 0, NULL};
}

/* -- requiredVersionRange (blang/semver ranges, as the engine parses them). */

/* Returns whether cur satisfies the comparator tok[0..n) ("<op><version>");
 * *ok is cleared when the comparator does not parse. */
static bool comparator_holds(const pcl__semver *cur, const char *tok, size_t n, bool *ok) {
  static const char *const ops[] = {">=", "<=", "==", "!=", ">", "<", "="};
  const char *op = "=";
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
    size_t l = strlen(ops[i]);
    if (n >= l && strncmp(tok, ops[i], l) == 0) {
      op = ops[i];
      tok += l;
      n -= l;
      break;
    }
  }
  pcl__semver v;
  if (pcl__semver_parse(tok, n, PCL__SEMVER_WILDCARD, &v) != NULL ||
      (v.wild < 3 && strcmp(op, "!=") == 0)) {
    *ok = false;
    return false;
  }
  if (v.wild < 3) {
    /* A wildcard is the range [lo, hi): 3.x is [3.0.0, 4.0.0), x all. */
    pcl__semver hi = v;
    bool unbounded = v.wild == 0;
    if (!unbounded) {
      hi.part[v.wild - 1]++;
      for (int i = v.wild; i < 3; i++) {
        hi.part[i] = 0;
      }
    }
    bool below_lo = pcl__semver_cmp(cur, &v) < 0;
    bool below_hi = unbounded || pcl__semver_cmp(cur, &hi) < 0;
    if (strcmp(op, ">") == 0) {
      return !below_hi;
    }
    if (strcmp(op, ">=") == 0) {
      return !below_lo;
    }
    if (strcmp(op, "<") == 0) {
      return below_lo;
    }
    if (strcmp(op, "<=") == 0) {
      return below_hi;
    }
    return !below_lo && below_hi;
  }
  int c = pcl__semver_cmp(cur, &v);
  if (strcmp(op, ">=") == 0) {
    return c >= 0;
  }
  if (strcmp(op, "<=") == 0) {
    return c <= 0;
  }
  if (strcmp(op, ">") == 0) {
    return c > 0;
  }
  if (strcmp(op, "<") == 0) {
    return c < 0;
  }
  if (strcmp(op, "!=") == 0) {
    return c != 0;
  }
  return c == 0;
}

/* Returns whether version satisfies range; *ok is cleared when the range
 * does not parse. */
static bool range_holds(const char *version, const char *range, bool *ok) {
  pcl__semver cur;
  *ok = pcl__semver_parse(version, strlen(version), 0, &cur) == NULL;
  bool any = false, seen_alt = false;
  const char *p = range;
  while (*ok) {
    const char *bar = strstr(p, "||");
    const char *end = bar ? bar : p + strlen(p);
    bool all = true, seen = false;
    const char *q = p;
    while (q < end) {
      while (q < end && (*q == ' ' || *q == '\t')) {
        q++;
      }
      const char *t = q;
      while (q < end && *q != ' ' && *q != '\t') {
        q++;
      }
      if (q > t) {
        seen = true;
        /* "> 3.0.0": an operator alone takes the next word. */
        if (strspn(t, "<>=!") == (size_t)(q - t) && q < end) {
          while (q < end && (*q == ' ' || *q == '\t')) {
            q++;
          }
          while (q < end && *q != ' ' && *q != '\t') {
            q++;
          }
        }
        char tok[128];
        size_t k = 0;
        for (const char *c = t; c < q && k + 1 < sizeof tok; c++) {
          if (*c != ' ' && *c != '\t') {
            tok[k++] = *c;
          }
        }
        tok[k] = 0;
        all = comparator_holds(&cur, tok, k, ok) && all;
      }
    }
    if (!seen) {
      *ok = false;
    }
    any = any || all;
    seen_alt = true;
    if (bar == NULL) {
      break;
    }
    p = bar + 2;
  }
  return *ok && seen_alt && any;
}

bool pcl__version_satisfies(const char *version, const char *range, bool *ok) {
  return range_holds(version, range, ok);
}

/* pcl_apply callback of pcl_require_pulumi_version. */
static pcl_value *check_version(pcl_value *const *args, size_t n, void *data, pcl_error **err) {
  (void)n;
  (void)data;
  pcl_value *r = args[0];
  while (pcl_kind_of(r) == PCL_T_SECRET) {
    r = pcl_secret_inner(r);
  }
  if (pcl_kind_of(r) != PCL_T_STRING) {
    *err = pcl_error_new("requiredVersion must be a string");
    return NULL;
  }
  bool ok = true;
  if (!range_holds(PCL_CLI_VERSION, pcl_str_data(r), &ok)) {
    /* The range as messages show values: quoted, "[secret]" when secret. */
    char *shown = pcl_value_repr(args[0], 64);
    *err = ok ? pcl_error_new("Pulumi CLI version %s does not satisfy the version range %s",
                              PCL_CLI_VERSION, shown)
              : pcl_error_new("failed to parse required version range %s", shown);
    free(shown);
    return NULL;
  }
  return pcl_null();
}

/* Fails the run when the check was rejected. */
static void version_checked(pcl_future *f, void *data) {
  if (pcl_future_state_of(f) == PCL_FUTURE_REJECTED) {
    pcl_run_fail(data, pcl_future_error(f));
  }
}

/* A version check the engine answers (pcl_engine_ops.require_version). */
typedef struct engine_check {
  pcl_run *run;       /* The run. */
  pcl_future *range;  /* The range, awaited (owned). */
  pcl_future *result; /* The check's future (owned). */
} engine_check;

static void engine_check_end(engine_check *c, const pcl_error *err) {
  if (err) {
    pcl_run_fail(c->run, err);
    pcl_future_mark_handled(c->result);
    pcl_future_reject(c->result, err);
  } else {
    pcl_future_resolve(c->result, pcl_null(), 0, NULL);
  }
  pcl_future_release(c->range);
  pcl_future_release(c->result);
  free(c);
}

static void engine_checked(void *data, pcl_value *result, const pcl_error *err) {
  (void)result;
  engine_check *c = data;
  c->run->inflight--;
  engine_check_end(c, err);
}

static void range_settled(pcl_future *f, void *data) {
  engine_check *c = data;
  if (pcl_future_state_of(f) == PCL_FUTURE_REJECTED) {
    engine_check_end(c, pcl_future_error(f));
    return;
  }
  pcl_value *r = pcl_future_value(f);
  while (r && pcl_kind_of(r) == PCL_T_SECRET) {
    r = pcl_secret_inner(r);
  }
  if (r == NULL || pcl_kind_of(r) != PCL_T_STRING) {
    pcl_error *err = pcl_error_new("requiredVersion must be a string");
    engine_check_end(c, err);
    pcl_error_free(err);
    return;
  }
  c->run->inflight++;
  c->run->engine->ops->require_version(c->run->engine, pcl_str_data(r), engine_checked, c);
}

pcl_future *pcl_require_pulumi_version(pcl_run *run, pcl_value *range) {
  if (run->engine->ops->require_version) {
    /* The engine that hosts the run knows its own version. */
    engine_check *c = pcl_xmalloc(sizeof *c);
    c->run = run;
    c->range = pcl_future_await_deep(range);
    c->result = pcl_future_new(PCL_OUTPUT, "the Pulumi version check");
    pcl_future *res = pcl_future_retain(c->result);
    pcl_future_then(c->range, range_settled, c);
    return res;
  }
  if (pcl_kind_of(range) != PCL_T_EVENTUAL && pcl_kind_of(range) != PCL_T_SECRET) {
    /* A known range is checked at once, before anything is registered. */
    pcl_error *err = NULL;
    pcl_value *ok = check_version(&range, 1, NULL, &err);
    if (ok == NULL) {
      pcl_run_fail(run, err);
      pcl_future *f = pcl_future_rejected(err);
      pcl_future_mark_handled(f);
      pcl_error_free(err);
      return f;
    }
    return pcl_future_resolved(PCL_OUTPUT, ok, 0, NULL);
  }
  pcl_future *in = pcl_future_await_deep(range);
  pcl_future *res = pcl_apply(&in, 1, check_version, NULL, NULL, 0);
  pcl_future_release(in);
  pcl_future_mark_handled(res);
  pcl_future_then(res, version_checked, run);
  return res;
}
