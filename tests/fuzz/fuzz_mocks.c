/* fuzz_mocks: libFuzzer target for mocks files (docs/mocks.md) and the
 * embedded engine answering from them.
 *
 * Each input is written to a scratch file and given to the embedded engine
 * as its mocks file, in a preview or an update (by the input's length).
 * When it loads, every resource key of the input is registered (a
 * "type::name" key under that name), every invoke and call token invoked
 * and called, and every stack reference read, through the engine's
 * functions; requests a mock leaves hanging are cancelled.  Besides the
 * sanitizers, the target checks that a refused file comes with a message
 * naming it, and that the snapshot the engine writes afterwards is JSON
 * that reads back in the snapshot encoding.  Built and run by `make fuzz`. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/engine.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Aborts with a message naming the broken promise. */
static void fail(const char *what) {
  fprintf(stderr, "fuzz_mocks: %s\n", what);
  abort();
}

/* The scratch file the mocks are written to. */
static char path[64];

/* Completions: the answers are only counted. */
static size_t answers;
static void resource_done(void *data, const pcl_resource_result *res, const pcl_error *err) {
  (void)data;
  if ((res == NULL) == (err == NULL)) {
    fail("a registration completed with both or neither of a result and an error");
  }
  answers++;
}
static void other_done(void *data, pcl_value *result, const pcl_error *err) {
  (void)data;
  if ((result == NULL) == (err == NULL)) {
    fail("an invoke completed with both or neither of a result and an error");
  }
  answers++;
}

/* Registers a resource of type with the name and inputs. */
static void reg(pcl_engine *e, const char *type, const char *name, pcl_value *inputs) {
  pcl_resource_request req = {.type = type, .name = name, .kind = PCL_RES_CUSTOM,
                              .inputs = inputs};
  e->ops->register_resource(e, &req, resource_done, NULL);
}

/* Sends a request for every key of the section key of doc (a MAP). */
static void exercise(pcl_engine *e, const pcl_value *doc, const char *key) {
  const pcl_value *sec = pcl_map_get_cstr(doc, key);
  if (sec == NULL || pcl_kind_of(sec) != PCL_T_MAP) {
    return;
  }
  pcl_value *one = pcl_int_new(1);
  pcl_value *k_in = pcl_str_from_cstr("in");
  pcl_value *inputs = pcl_map_of(&k_in, &one, 1);
  for (size_t i = 0; i < pcl_len(sec); i++) {
    const char *token = pcl_str_data(pcl_map_key_at(sec, i));
    char name[32];
    snprintf(name, sizeof name, "r%zu", i);
    if (strcmp(key, "resources") == 0) {
      const char *sep = strstr(token, "::");
      if (sep != NULL) {
        char *type = strndup(token, (size_t)(sep - token));
        reg(e, type, sep + 2, inputs);
        free(type);
      } else {
        reg(e, token, name, inputs);
      }
    } else if (strcmp(key, "stackReferences") == 0) {
      pcl_value *k_name = pcl_str_from_cstr("name");
      pcl_value *v_name = pcl_str_from_cstr(token);
      pcl_value *in = pcl_map_of(&k_name, &v_name, 1);
      reg(e, "pulumi:pulumi:StackReference", name, in);
      pcl_release(in);
      pcl_release(v_name);
      pcl_release(k_name);
    } else {
      /* The arguments of the first entry, when it has any, so that it can
       * match. */
      const pcl_value *entries = pcl_map_val_at(sec, i);
      const pcl_value *first =
          pcl_kind_of(entries) == PCL_T_LIST && pcl_len(entries) > 0 ? pcl_list_at(entries, 0)
                                                                      : entries;
      pcl_value *args = pcl_kind_of(first) == PCL_T_MAP ? pcl_map_get_cstr(first, "args") : NULL;
      pcl_invoke_request req = {.token = token, .args = args ? args : inputs};
      if (strcmp(key, "calls") == 0) {
        e->ops->call(e, &req, other_done, NULL);
      } else {
        e->ops->invoke(e, &req, other_done, NULL);
      }
    }
  }
  pcl_release(inputs);
  pcl_release(k_in);
  pcl_release(one);
}

/* Removes the scratch file when the fuzzer exits. */
static void cleanup(void) { remove(path); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (path[0] == '\0') {
    snprintf(path, sizeof path, "/tmp/pclc-fuzz-mocks-%ld.json", (long)getpid());
    atexit(cleanup);
  }
  FILE *f = fopen(path, "wb");
  if (f == NULL || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
    fail("cannot write the scratch file");
  }
  pcl_embedded_config cfg = {"p", "s", NULL, size % 2 == 1, NULL, path, NULL, NULL};
  pcl_error *err = NULL;
  pcl_engine *e = pcl_engine_embedded_new(&cfg, &err);
  if (e == NULL) {
    if (err == NULL || strstr(pcl_error_message(err), path) == NULL) {
      fail("a refused mocks file has no message naming it");
    }
    pcl_error_free(err);
    return 0;
  }
  pcl_value *doc = pcl_json_decode((const char *)data, size, PCL_JSON_SNAPSHOT, &err);
  if (doc == NULL) {
    fail("a mocks file loaded that does not decode");
  }
  exercise(e, doc, "resources");
  exercise(e, doc, "invokes");
  exercise(e, doc, "calls");
  exercise(e, doc, "stackReferences");
  pcl_sched_run();
  pcl_error *stop = pcl_error_new("the fuzz run ends");
  e->ops->cancel(e, stop);
  pcl_sched_run();
  pcl_error_free(stop);
  char *snap = pcl_engine_embedded_snapshot(e, NULL);
  pcl_value *back = pcl_json_decode(snap, strlen(snap), PCL_JSON_SNAPSHOT, &err);
  if (back == NULL) {
    fprintf(stderr, "fuzz_mocks: %s\n", pcl_error_message(err));
    fail("the snapshot does not read back");
  }
  pcl_release(back);
  free(snap);
  pcl_release(doc);
  e->ops->destroy(e);
  return 0;
}
