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

struct pcl__json_mocks {
  pcl_value *resources;  /* MAP key -> entry object (decoded), or NULL. */
  pcl_value *invokes;    /* MAP token -> LIST of entries, or NULL. */
  pcl_value *calls;      /* MAP token -> LIST of entries, or NULL. */
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
  return m;
}

void pcl__json_mocks_free(pcl__json_mocks *m) {
  if (m == NULL) {
    return;
  }
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

pcl__mock_answer pcl__json_mocks_invoke(const pcl__json_mocks *m, const char *token,
                                        pcl_value *args, bool is_call) {
  pcl__mock_answer a = {0};
  pcl_value *sec = m ? (is_call ? m->calls : m->invokes) : NULL;
  pcl_value *list = sec ? pcl_map_get_cstr(sec, token) : NULL;
  for (size_t i = 0; list && i < pcl_len(list); i++) {
    pcl_value *e = pcl_list_at(list, i);
    pcl_value *want = pcl_map_get_cstr(e, "args");
    if (args_match(want, args)) {
      answer_from(&a, e, "result");
      a.merge = false;
      return a;
    }
  }
  return a;
}

pcl_value *pcl__json_mocks_stack_refs(const pcl__json_mocks *m) {
  return m ? m->stack_refs : NULL;
}
