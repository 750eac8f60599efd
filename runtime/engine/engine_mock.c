/* engine_mock.c: JSON mocks for the embedded engine (docs/mocks.md).
 *
 * Reads a mocks file once into decoded values (snapshot wrappers such as
 * {"secret": v} become SECRET values), checks every entry against the
 * documented shape (an unknown key, a "hang" that is not a bool or an "id"
 * that is not a string is an error naming its JSON path, never ignored), and
 * answers lookups: the entry for a resource type or "type::name", and the
 * first matching entry for an invoke or call token.  C mocks (pcl_mocks in
 * pcl_engine.h) are called directly by the embedded engine and need nothing
 * here.
 *
 * Invariant: every value handed out is borrowed from the table, which lives
 * as long as the engine. */
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "value/pcl_internal.h"

/* An argument that an entry of an invoke or call requires: its name and
 * value, and the entry's position in the token's list. */
typedef struct keyed_entry {
  const pcl_value *name; /* The argument's name (borrowed from the entries). */
  pcl_value *value;      /* Its value, secrets stripped as matching compares
                            them (owned). */
  size_t pos;            /* The entry's position in the token's list. */
} keyed_entry;

/* The entries of one token indexed for the first match.  Each entry with
 * args is filed under one of its arguments, the one the fewest entries of
 * the token require with the same value; an invoke looks each of its own
 * arguments up by a binary search and tries only the entries filed under
 * it, in order.  Trying every entry in turn, invoked once per entry, takes
 * time quadratic in the entries; filing under the first argument alone
 * would do the same for entries that share their first argument and differ
 * in another, and entries whose first arguments all have different names
 * would still be tried one name at a time. */
typedef struct entry_index {
  size_t first_any;   /* The position of the first entry without args (or
                         with empty args), which matches anything; SIZE_MAX
                         when none. */
  keyed_entry *keys;  /* One per other entry, sorted by name, value, then
                         position (cmp_keyed). */
  size_t nkeys;       /* Their number. */
} entry_index;

struct pcl__json_mocks {
  pcl_value *resources;  /* MAP key -> entry object (decoded), or NULL. */
  pcl_value *invokes;    /* MAP token -> LIST of entries, or NULL. */
  pcl_value *calls;      /* MAP token -> LIST of entries, or NULL. */
  entry_index *invoke_index; /* Per token of invokes, in map order, or NULL. */
  entry_index *call_index;   /* Per token of calls, in map order, or NULL. */
  pcl_value *stack_refs; /* MAP name -> {outputs, secretOutputNames}, or NULL. */
  bool named;            /* Some resource key is "type::name": only then is a
                            registration's own key looked up. */
};

/* Checks the entry e of a resource (invoke false) or of an invoke or call
 * against docs/mocks.md; false after recording the error in d. */
static bool check_entry(pcl__doc *d, const pcl_value *e, bool invoke) {
  static const char *const resource_keys[] = {"error", "hang", "id", "merge", "outputs"};
  static const char *const invoke_keys[] = {"args", "error", "hang", "result"};
  if (!pcl__doc_is(d, e, PCL_T_MAP, "an object") ||
      !pcl__doc_keys(d, e, invoke ? invoke_keys : resource_keys, invoke ? 4 : 5)) {
    return false;
  }
  for (size_t i = 0; i < pcl_len(e); i++) {
    const pcl_value *k = pcl_map_key_at(e, i);
    const pcl_value *v = pcl_map_val_at(e, i);
    size_t mark = pcl__doc_key(d, pcl_str_data(k), pcl_str_len(k));
    bool ok;
    if (pcl_str_eq_cstr(k, "hang") || pcl_str_eq_cstr(k, "merge")) {
      ok = pcl__doc_is(d, v, PCL_T_BOOL, "true or false");
    } else if (pcl_str_eq_cstr(k, "error") || pcl_str_eq_cstr(k, "id")) {
      ok = pcl__doc_is(d, v, PCL_T_STRING, "a string");
    } else {
      ok = pcl__doc_is(d, v, PCL_T_MAP, "an object");
    }
    pcl__doc_leave(d, mark);
    if (!ok) {
      return false;
    }
  }
  return true;
}

/* What a section of the mocks file holds. */
typedef enum section_kind {
  SEC_RESOURCES,  /* Resource entries. */
  SEC_INVOKES,    /* Invoke or call entries, or lists of them. */
  SEC_STACK_REFS, /* Stack references. */
} section_kind;

/* Checks the section named key of top (absent, or an object whose values
 * are entries of the kind what) and stores it in *out (owned; NULL when
 * absent): an invokes or calls section with each value made a LIST of
 * entries, a stackReferences section with each reference as
 * pcl__stack_ref_check returns it.  False after recording the error in d. */
static bool section(pcl__doc *d, const pcl_value *top, const char *key, section_kind what,
                    pcl_value **out) {
  *out = NULL;
  const pcl_value *sec = pcl_map_get_cstr(top, key);
  if (sec == NULL) {
    return true;
  }
  size_t mark = pcl__doc_key(d, key, strlen(key));
  bool ok = pcl__doc_is(d, sec, PCL_T_MAP, "an object");
  pcl_mapbuf mb = PCL_MAPBUF_INIT;
  for (size_t i = 0; ok && i < pcl_len(sec); i++) {
    const pcl_value *k = pcl_map_key_at(sec, i);
    pcl_value *e = pcl_map_val_at(sec, i);
    size_t m2 = pcl__doc_key(d, pcl_str_data(k), pcl_str_len(k));
    pcl_value *checked = NULL;
    if (what == SEC_RESOURCES) {
      ok = check_entry(d, e, false);
      checked = ok ? pcl_retain(e) : NULL;
    } else if (what == SEC_STACK_REFS) {
      const char *why = pcl__stack_name_problem(pcl_str_data(k), pcl_str_len(k));
      checked = why == NULL ? pcl__stack_ref_check(d, e, false) : NULL;
      ok = checked != NULL || pcl__doc_fail(d, "the stack name %s", why);
    } else if (pcl_kind_of(e) == PCL_T_LIST) {
      for (size_t j = 0; ok && j < pcl_len(e); j++) {
        size_t m3 = pcl__doc_index(d, j);
        ok = check_entry(d, pcl_list_at(e, j), true);
        pcl__doc_leave(d, m3);
      }
      checked = ok ? pcl_retain(e) : NULL;
    } else {
      ok = check_entry(d, e, true);
      checked = ok ? pcl_list_of(&e, 1) : NULL;
    }
    pcl__doc_leave(d, m2);
    if (ok) {
      pcl_mapbuf_put_take(&mb, pcl_retain((pcl_value *)k), checked);
    }
  }
  pcl__doc_leave(d, mark);
  if (!ok) {
    pcl_mapbuf_free(&mb);
    return false;
  }
  *out = pcl_mapbuf_finish(&mb);
  return true;
}

/* The order of keyed entries by name and value, the positions aside. */
static int cmp_arg(const keyed_entry *a, const keyed_entry *b) {
  int c = pcl_compare(a->name, b->name);
  return c != 0 ? c : pcl_compare(a->value, b->value);
}

/* qsort order of keyed entries: by name, value, then position. */
static int cmp_keyed(const void *pa, const void *pb) {
  const keyed_entry *a = pa, *b = pb;
  int c = cmp_arg(a, b);
  return c != 0 ? c : (a->pos > b->pos) - (a->pos < b->pos);
}

/* Returns the index of the LIST of entries list (checked): every argument
 * of every entry is sorted once to count how many entries require each
 * name and value, and each entry is filed under its rarest one. */
static entry_index index_entries(const pcl_value *list) {
  entry_index x = {SIZE_MAX, NULL, 0};
  size_t n = pcl_len(list), nargs = 0;
  for (size_t i = 0; i < n; i++) {
    pcl_value *args = pcl_map_get_cstr(pcl_list_at(list, i), "args");
    nargs += args ? pcl_len(args) : 0;
  }
  keyed_entry *all = pcl_xmalloc((nargs ? nargs : 1) * sizeof *all);
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    pcl_value *args = pcl_map_get_cstr(pcl_list_at(list, i), "args");
    if ((args == NULL || pcl_len(args) == 0) && x.first_any == SIZE_MAX) {
      x.first_any = i;
    }
    for (size_t j = 0; args != NULL && j < pcl_len(args); j++) {
      all[k++] = (keyed_entry){pcl_map_key_at(args, j), pcl_strip_secrets(pcl_map_val_at(args, j)),
                               i};
    }
  }
  qsort(all, nargs, sizeof *all, cmp_keyed);
  /* rarest[i]: the argument of entry i required by the fewest entries. */
  size_t *rarest = pcl_xmalloc((n ? n : 1) * sizeof *rarest);
  size_t *rarest_count = pcl_xmalloc((n ? n : 1) * sizeof *rarest_count);
  for (size_t i = 0; i < n; i++) {
    rarest[i] = SIZE_MAX;
  }
  for (size_t a = 0; a < nargs;) {
    size_t b = a + 1;
    while (b < nargs && cmp_arg(&all[a], &all[b]) == 0) {
      b++;
    }
    for (size_t i = a; i < b; i++) {
      size_t pos = all[i].pos;
      if (rarest[pos] == SIZE_MAX || b - a < rarest_count[pos]) {
        rarest[pos] = i;
        rarest_count[pos] = b - a;
      }
    }
    a = b;
  }
  x.keys = pcl_xmalloc((n ? n : 1) * sizeof *x.keys);
  for (size_t i = 0; i < n; i++) {
    if (rarest[i] != SIZE_MAX) {
      keyed_entry *e = &all[rarest[i]];
      x.keys[x.nkeys++] = (keyed_entry){e->name, pcl_retain(e->value), e->pos};
    }
  }
  qsort(x.keys, x.nkeys, sizeof *x.keys, cmp_keyed);
  for (size_t i = 0; i < nargs; i++) {
    pcl_release(all[i].value);
  }
  free(all);
  free(rarest);
  free(rarest_count);
  return x;
}

/* Returns the indexes of the tokens of section (a MAP token -> LIST), or
 * NULL for none. */
static entry_index *index_section(const pcl_value *section) {
  if (section == NULL) {
    return NULL;
  }
  size_t n = pcl_len(section);
  entry_index *xs = pcl_xmalloc((n ? n : 1) * sizeof *xs);
  for (size_t i = 0; i < n; i++) {
    xs[i] = index_entries(pcl_map_val_at(section, i));
  }
  return xs;
}

static void free_indexes(entry_index *xs, const pcl_value *section) {
  for (size_t i = 0; xs != NULL && i < pcl_len(section); i++) {
    for (size_t k = 0; k < xs[i].nkeys; k++) {
      pcl_release(xs[i].keys[k].value);
    }
    free(xs[i].keys);
  }
  free(xs);
}

pcl__json_mocks *pcl__json_mocks_load(const char *path, pcl_error **err) {
  pcl_value *top = pcl__read_json_file(path, PCL_JSON_SNAPSHOT, err);
  if (top == NULL) {
    return NULL;
  }
  pcl__doc d = PCL__DOC_INIT(path);
  static const char *const known[] = {"calls", "invokes", "resources", "stackReferences"};
  pcl__json_mocks *m = pcl_xcalloc(1, sizeof *m);
  bool ok = pcl__doc_is(&d, top, PCL_T_MAP, "an object") && pcl__doc_keys(&d, top, known, 4) &&
            section(&d, top, "resources", SEC_RESOURCES, &m->resources) &&
            section(&d, top, "invokes", SEC_INVOKES, &m->invokes) &&
            section(&d, top, "calls", SEC_INVOKES, &m->calls) &&
            section(&d, top, "stackReferences", SEC_STACK_REFS, &m->stack_refs);
  for (size_t i = 0; ok && m->resources != NULL && i < pcl_len(m->resources); i++) {
    m->named = m->named || strstr(pcl_str_data(pcl_map_key_at(m->resources, i)), "::") != NULL;
  }
  pcl_release(top);
  *err = pcl__doc_finish(&d);
  if (!ok) {
    pcl__json_mocks_free(m);
    return NULL;
  }
  m->invoke_index = index_section(m->invokes);
  m->call_index = index_section(m->calls);
  return m;
}

void pcl__json_mocks_free(pcl__json_mocks *m) {
  if (m == NULL) {
    return;
  }
  free_indexes(m->invoke_index, m->invokes);
  free_indexes(m->call_index, m->calls);
  pcl_release(m->resources);
  pcl_release(m->invokes);
  pcl_release(m->calls);
  pcl_release(m->stack_refs);
  free(m);
}

/* Fills a from the entry object e (checked by check_entry). */
static void answer_from(pcl__mock_answer *a, pcl_value *e, const char *outputs_key) {
  a->found = true;
  a->merge = true;
  pcl_value *v;
  if ((v = pcl_map_get_cstr(e, "hang"))) {
    a->hang = pcl_bool_get(v);
  }
  if ((v = pcl_map_get_cstr(e, "error"))) {
    a->error = pcl_str_data(v);
  }
  if ((v = pcl_map_get_cstr(e, "id"))) {
    a->id = v;
  }
  if ((v = pcl_map_get_cstr(e, outputs_key))) {
    a->outputs = v;
  }
  if ((v = pcl_map_get_cstr(e, "merge"))) {
    a->merge = pcl_bool_get(v);
  }
}

pcl__mock_answer pcl__json_mocks_resource(const pcl__json_mocks *m, const char *type,
                                          const char *name) {
  pcl__mock_answer a = {0};
  if (m == NULL || m->resources == NULL) {
    return a;
  }
  pcl_value *e = NULL;
  if (m->named) {
    pcl_strbuf key = PCL_STRBUF_INIT;
    /* Appends rather than a format: this runs for every registration. */
    pcl_strbuf_append_cstr(&key, type);
    pcl_strbuf_append_cstr(&key, "::");
    pcl_strbuf_append_cstr(&key, name);
    e = pcl_map_get_cstr(m->resources, key.data);
    pcl_strbuf_free(&key);
  }
  if (e == NULL) {
    e = pcl_map_get_cstr(m->resources, type);
  }
  if (e) {
    answer_from(&a, e, "outputs");
  }
  return a;
}

/* Returns whether every entry of want (a MAP, or NULL: anything matches)
 * equals args' entry of the same key. */
static bool args_match(pcl_value *want, pcl_value *args) {
  if (want == NULL) {
    return true;
  }
  if (args == NULL || pcl_kind_of(args) != PCL_T_MAP) {
    return false;
  }
  for (size_t i = 0; i < pcl_len(want); i++) {
    const pcl_value *k = pcl_map_key_at(want, i);
    pcl_value *got = pcl_map_get(args, pcl_str_data(k), pcl_str_len(k));
    if (got == NULL) {
      return false;
    }
    pcl_value *plain_got = pcl_strip_secrets(got);
    pcl_value *plain_want = pcl_strip_secrets(pcl_map_val_at(want, i));
    bool eq = pcl_is_wholly_known(plain_got) && pcl_equal(plain_got, plain_want);
    pcl_release(plain_got);
    pcl_release(plain_want);
    if (!eq) {
      return false;
    }
  }
  return true;
}

/* Returns the position of the first entry of list (indexed by x) whose
 * args match args, or SIZE_MAX: of the entries filed under one of the
 * arguments args hold (found by a binary search for each), the first that
 * matches whole, unless an entry without args comes before. */
static size_t first_match(const entry_index *x, const pcl_value *list, pcl_value *args) {
  size_t best = x->first_any;
  for (size_t j = 0; args != NULL && pcl_kind_of(args) == PCL_T_MAP && j < pcl_len(args); j++) {
    keyed_entry want = {pcl_map_key_at(args, j), pcl_strip_secrets(pcl_map_val_at(args, j)), 0};
    if (pcl_is_wholly_known(want.value)) {
      /* The first entry filed under an argument not below this one. */
      size_t lo = 0, hi = x->nkeys;
      while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cmp_arg(&x->keys[mid], &want) < 0) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      for (size_t k = lo; k < x->nkeys && x->keys[k].pos < best && cmp_arg(&x->keys[k], &want) == 0;
           k++) {
        pcl_value *required = pcl_map_get_cstr(pcl_list_at(list, x->keys[k].pos), "args");
        if (args_match(required, args)) {
          best = x->keys[k].pos;
        }
      }
    }
    pcl_release(want.value);
  }
  return best;
}

pcl__mock_answer pcl__json_mocks_invoke(const pcl__json_mocks *m, const char *token,
                                        pcl_value *args, bool is_call) {
  pcl__mock_answer a = {0};
  pcl_value *sec = m ? (is_call ? m->calls : m->invokes) : NULL;
  size_t t = sec ? pcl__map_find(sec, token, strlen(token)) : SIZE_MAX;
  if (t == SIZE_MAX) {
    return a;
  }
  pcl_value *list = pcl_map_val_at(sec, t);
  size_t i = first_match(&(is_call ? m->call_index : m->invoke_index)[t], list, args);
  if (i != SIZE_MAX) {
    answer_from(&a, pcl_list_at(list, i), "result");
    a.merge = false;
  }
  return a;
}

pcl_value *pcl__json_mocks_stack_refs(const pcl__json_mocks *m) {
  return m ? m->stack_refs : NULL;
}
