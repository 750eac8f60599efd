/* engine_mock.c: JSON mocks for the embedded engine (docs/mocks.md).
 *
 * Reads a mocks file once into decoded values (snapshot wrappers such as
 * {"secret": v} become SECRET values) and answers lookups: the entry for a
 * resource type or "type::name", and the first matching entry for an invoke
 * or call token.  C mocks (pcl_mocks in pcl_engine.h) are called directly by the
 * embedded engine and need nothing here.
 *
 * Invariant: every value handed out is borrowed from the table, which lives
 * as long as the engine. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

struct pcl__json_mocks {
  pcl_value *resources;  /* MAP key -> entry object (decoded), or NULL. */
  pcl_value *invokes;    /* MAP token -> LIST of entries, or NULL. */
  pcl_value *calls;      /* MAP token -> LIST of entries, or NULL. */
  pcl_value *stack_refs; /* MAP name -> {outputs, secretOutputNames}, or NULL. */
  bool named;            /* Some resource key is "type::name": only then is a
                            registration's own key looked up. */
};

/* Reads the whole file; NULL and *err on failure. */
static char *read_file(const char *path, size_t *len, pcl_error **err) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    *err = pcl_error_new("cannot read mocks file '%s': %s", path, strerror(errno));
    return NULL;
  }
  pcl_strbuf b = PCL_STRBUF_INIT;
  char chunk[4096];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
    pcl_strbuf_append(&b, chunk, n);
  }
  fclose(f);
  *len = b.len;
  if (b.data == NULL) {
    pcl_strbuf_append(&b, "", 0);
    pcl_strbuf_append_char(&b, 0);
    b.len = 0;
  }
  return b.data;
}

/* Checks that the section key of top is absent or a MAP; returns it
 * (borrowed) or NULL. */
static bool section(pcl_value *top, const char *key, pcl_value **out, const char *path,
                    pcl_error **err) {
  pcl_value *v = pcl_map_get_cstr(top, key);
  *out = NULL;
  if (v == NULL || pcl_kind_of(v) == PCL_T_NULL) {
    return true;
  }
  if (pcl_kind_of(v) != PCL_T_MAP) {
    *err = pcl_error_new("mocks file '%s': \"%s\" must be an object", path, key);
    return false;
  }
  *out = v;
  return true;
}

/* Returns the MAP of token -> LIST of entries for an invokes/calls section,
 * wrapping single entries into one-element lists. */
static pcl_value *listify(pcl_value *sec) {
  if (sec == NULL) {
    return NULL;
  }
  pcl_mapbuf mb = PCL_MAPBUF_INIT;
  for (size_t i = 0; i < pcl_len(sec); i++) {
    pcl_value *e = pcl_map_val_at(sec, i);
    pcl_value *l = pcl_kind_of(e) == PCL_T_LIST ? pcl_retain(e) : pcl_list_of(&e, 1);
    pcl_mapbuf_put_take(&mb, pcl_retain(pcl_map_key_at(sec, i)), l);
  }
  return pcl_mapbuf_finish(&mb);
}

pcl__json_mocks *pcl__json_mocks_load(const char *path, pcl_error **err) {
  size_t len;
  char *text = read_file(path, &len, err);
  if (text == NULL) {
    return NULL;
  }
  pcl_value *raw = pcl_json_decode(text, len, 0, err);
  free(text);
  if (raw == NULL) {
    pcl_error_prefix(*err, "mocks file '%s'", path);
    return NULL;
  }
  if (pcl_kind_of(raw) != PCL_T_MAP) {
    pcl_release(raw);
    *err = pcl_error_new("mocks file '%s': the top level must be an object", path);
    return NULL;
  }
  pcl_value *top = pcl__snap_decode(raw);
  pcl_release(raw);
  pcl_value *res, *inv, *calls, *refs;
  static const char *const known[] = {"resources", "invokes", "calls", "stackReferences"};
  for (size_t i = 0; i < pcl_len(top); i++) {
    const char *k = pcl_str_data(pcl_map_key_at(top, i));
    bool ok = false;
    for (size_t j = 0; j < 4; j++) {
      ok = ok || strcmp(k, known[j]) == 0;
    }
    if (!ok) {
      *err = pcl_error_new("mocks file '%s': unknown section \"%s\" (expected resources, "
                           "invokes, calls or stackReferences)", path, k);
      pcl_release(top);
      return NULL;
    }
  }
  if (!section(top, "resources", &res, path, err) || !section(top, "invokes", &inv, path, err) ||
      !section(top, "calls", &calls, path, err) ||
      !section(top, "stackReferences", &refs, path, err)) {
    pcl_release(top);
    return NULL;
  }
  pcl__json_mocks *m = pcl_xcalloc(1, sizeof *m);
  m->resources = pcl_retain(res);
  for (size_t i = 0; res != NULL && i < pcl_len(res); i++) {
    m->named = m->named || strstr(pcl_str_data(pcl_map_key_at(res, i)), "::") != NULL;
  }
  m->invokes = listify(inv);
  m->calls = listify(calls);
  m->stack_refs = pcl_retain(refs);
  pcl_release(top);
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

/* Fills a from the entry object e. */
static void answer_from(pcl__mock_answer *a, pcl_value *e, const char *outputs_key) {
  a->found = true;
  a->merge = true;
  if (pcl_kind_of(e) != PCL_T_MAP) {
    a->outputs = e;
    return;
  }
  pcl_value *v;
  if ((v = pcl_map_get_cstr(e, "hang")) && pcl_kind_of(v) == PCL_T_BOOL) {
    a->hang = pcl_bool_get(v);
  }
  if ((v = pcl_map_get_cstr(e, "error")) && pcl_kind_of(v) == PCL_T_STRING) {
    a->error = pcl_str_data(v);
  }
  if ((v = pcl_map_get_cstr(e, "id"))) {
    a->id = v;
  }
  if ((v = pcl_map_get_cstr(e, outputs_key))) {
    a->outputs = v;
  }
  if ((v = pcl_map_get_cstr(e, "merge")) && pcl_kind_of(v) == PCL_T_BOOL) {
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

/* Returns whether every entry of want equals args' entry of the same key. */
static bool args_match(pcl_value *want, pcl_value *args) {
  if (want == NULL) {
    return true;
  }
  if (pcl_kind_of(want) != PCL_T_MAP || args == NULL || pcl_kind_of(args) != PCL_T_MAP) {
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
    pcl_value *want = pcl_kind_of(e) == PCL_T_MAP ? pcl_map_get_cstr(e, "args") : NULL;
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
