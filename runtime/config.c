/* config.c: config values (program.md §6, DECISIONS.md D3).
 *
 * Takes the raw text of a config value and the declared type; produces the
 * typed value: strings as they are, bools as Go's ParseBool spells them,
 * ints exactly from their decimal text, numbers as the nearest double, and
 * lists, maps and objects from JSON text checked (and converted where PCL
 * converts) against the element types.  Every error names the config key
 * and the value that does not convert. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
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

/* Checks the decoded JSON value v against type t and returns the converted
 * value (owned), or NULL with *err naming the value that does not
 * conform. */
static pcl_value *conform(pcl_value *v, const pcl_type *t, pcl_error **err) {
  t = strip_optional(t);
  if (pcl_kind_of(v) == PCL_T_NULL) {
    /* Object properties of configs are optional (program.md §6), and JSON
     * null elsewhere is passed on as null too. */
    return pcl_null();
  }
  switch (t->kind) {
  case PCL_TY_ANY:
    return pcl_retain(v);
  case PCL_TY_BOOL:
    return pcl_kind_of(v) == PCL_T_BOOL || pcl_kind_of(v) == PCL_T_STRING
               ? pcl_convert_to_bool(v, err)
               : kind_error(v, "bool", "a bool is required", err);
  case PCL_TY_INT:
    return pcl_kind_of(v) == PCL_T_STRING || pcl_is_numeric(v)
               ? pcl_convert_to_int(v, err)
               : kind_error(v, "int", "an integer is required", err);
  case PCL_TY_NUMBER: {
    if (pcl_kind_of(v) != PCL_T_STRING && !pcl_is_numeric(v)) {
      return kind_error(v, "number", "a number is required", err);
    }
    pcl_value *n = pcl_convert_to_number(v, err);
    return n ? as_double(n, v, err) : NULL;
  }
  case PCL_TY_STRING:
    return pcl_kind_of(v) == PCL_T_STRING || pcl_is_numeric(v) || pcl_kind_of(v) == PCL_T_BOOL
               ? pcl_convert_to_string(v, err)
               : kind_error(v, "string", "a string is required", err);
  case PCL_TY_LIST: {
    if (pcl_kind_of(v) != PCL_T_LIST) {
      return kind_error(v, "list", "a list is required", err);
    }
    pcl_value *r = pcl_list_new(pcl_len(v));
    bool ok = true;
    for (size_t i = 0; i < pcl_len(v); i++) {
      pcl_value *e = ok ? conform(pcl_list_at(v, i), t->elem, err) : NULL;
      ok = ok && e != NULL;
      pcl_list_init_take(r, i, e ? e : pcl_null());
    }
    if (!ok) {
      pcl_release(r);
      return NULL;
    }
    return r;
  }
  case PCL_TY_MAP:
  case PCL_TY_OBJECT: {
    if (pcl_kind_of(v) != PCL_T_MAP) {
      return t->kind == PCL_TY_MAP ? kind_error(v, "map", "a map is required", err)
                                   : kind_error(v, "object", "an object is required", err);
    }
    pcl_mapbuf mb = PCL_MAPBUF_INIT;
    for (size_t i = 0; i < pcl_len(v); i++) {
      const pcl_type *et = t->elem;
      if (t->kind == PCL_TY_OBJECT) {
        et = &pcl_type_any;
        for (size_t j = 0; j < t->nfields; j++) {
          if (pcl_str_eq_cstr(pcl_map_key_at(v, i), t->fields[j].name)) {
            et = t->fields[j].type;
          }
        }
      }
      pcl_value *e = conform(pcl_map_val_at(v, i), et, err);
      if (e == NULL) {
        pcl_mapbuf_free(&mb);
        return NULL;
      }
      pcl_mapbuf_put_take(&mb, pcl_retain(pcl_map_key_at(v, i)), e);
    }
    return pcl_mapbuf_finish(&mb);
  }
  case PCL_TY_OPTIONAL:
    break;
  }
  return kind_error(v, "the declared type", "unsupported type", err);
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
      *err = pcl_error_new("invalid JSON value \"%s\": %s", text, pcl_error_message(e));
      pcl_error_free(e);
      break;
    }
    v = conform(raw, t, err);
    pcl_release(raw);
    if (v == NULL) {
      pcl_error_prefix(*err, "invalid JSON value \"%s\"", text);
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
    *err = ok ? pcl_error_new("Pulumi CLI version %s does not satisfy the version range \"%s\"",
                              PCL_CLI_VERSION, pcl_str_data(r))
              : pcl_error_new("failed to parse required version range \"%s\"", pcl_str_data(r));
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
