/* fuzz_stackref: libFuzzer target for stack-reference files (the
 * --stack-reference flag, docs/program-cli.md) and getOutput.
 *
 * Each input is written to a scratch file and read as a --stack-reference
 * file is (pcl__read_json_file in the snapshot encoding, then
 * pcl__stack_ref_check); the raw document is also handed to the embedded
 * engine as its stack references, which checks them again.  When it loads,
 * a pulumi:pulumi:StackReference of it is registered, and every output of
 * the answer is read with pcl_stack_reference_output.  Besides the
 * sanitizers, the target checks that a refused file comes with a message,
 * that both checks agree, and that every output the reference names in
 * secretOutputNames reads back secret.  Built and run by `make fuzz`. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/engine.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Aborts with a message naming the broken promise. */
static void fail(const char *what) {
  fprintf(stderr, "fuzz_stackref: %s\n", what);
  abort();
}

/* The scratch file the reference is written to. */
static char path[64];

/* Checks the answer of the StackReference registration. */
static void ref_done(void *data, const pcl_resource_result *res, const pcl_error *err) {
  (void)data;
  if (res == NULL) {
    if (err == NULL) {
      fail("a registration failed without an error");
    }
    return;
  }
  const pcl_value *outs = pcl_map_get_cstr(res->outputs, "outputs");
  const pcl_value *names = pcl_map_get_cstr(res->outputs, "secretOutputNames");
  if (outs == NULL || pcl_kind_of(outs) != PCL_T_MAP || names == NULL ||
      pcl_kind_of(names) != PCL_T_LIST) {
    fail("a stack reference answered without outputs and secretOutputNames");
  }
  for (size_t i = 0; i < pcl_len(outs); i++) {
    pcl_error *e = NULL;
    pcl_value *v = pcl_stack_reference_output(res->outputs, pcl_map_key_at(outs, i), &e);
    if (v == NULL) {
      fail("getOutput failed on an output the reference has");
    }
    bool listed = false;
    for (size_t j = 0; j < pcl_len(names); j++) {
      listed = listed || pcl_equal(pcl_list_at(names, j), pcl_map_key_at(outs, i));
    }
    if (listed && pcl_kind_of(v) != PCL_T_SECRET) {
      fail("an output named secret reads back in clear");
    }
    pcl_release(v);
  }
}

/* Removes the scratch file when the fuzzer exits. */
static void cleanup(void) { remove(path); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (path[0] == '\0') {
    snprintf(path, sizeof path, "/tmp/pclc-fuzz-stackref-%ld.json", (long)getpid());
    atexit(cleanup);
  }
  FILE *f = fopen(path, "wb");
  if (f == NULL || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
    fail("cannot write the scratch file");
  }
  pcl_error *err = NULL;
  pcl_value *raw = pcl__read_json_file(path, PCL_JSON_SNAPSHOT, &err);
  if (raw == NULL) {
    if (err == NULL || strstr(pcl_error_message(err), path) == NULL) {
      fail("a refused file has no message naming it");
    }
    pcl_error_free(err);
    return 0;
  }
  pcl__doc d = PCL__DOC_INIT(path);
  pcl_value *ref = pcl__stack_ref_check(&d, raw, true);
  err = pcl__doc_finish(&d);
  if ((ref == NULL) != (err != NULL)) {
    fail("the check's result disagrees with its error");
  }
  pcl_error_free(err);
  err = NULL;
  pcl_value *k = pcl_str_from_cstr("o/p/s");
  pcl_value *refs = pcl_map_of(&k, &raw, 1);
  pcl_embedded_config cfg = {"p", "s", NULL, false, NULL, NULL, refs, NULL};
  pcl_engine *e = pcl_engine_embedded_new(&cfg, &err);
  if ((e == NULL) != (ref == NULL)) {
    fail("the engine's check disagrees with pcl__stack_ref_check");
  }
  if (e != NULL) {
    pcl_value *k_name = pcl_str_from_cstr("name");
    pcl_value *in = pcl_map_of(&k_name, &k, 1);
    pcl_resource_request req = {.type = "pulumi:pulumi:StackReference", .name = "ref",
                                .kind = PCL_RES_CUSTOM, .inputs = in};
    e->ops->register_resource(e, &req, ref_done, NULL);
    pcl_sched_run();
    e->ops->destroy(e);
    pcl_release(in);
    pcl_release(k_name);
  } else {
    pcl_error_free(err);
  }
  pcl_release(refs);
  pcl_release(k);
  pcl_release(ref);
  pcl_release(raw);
  return 0;
}
