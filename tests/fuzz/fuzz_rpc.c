/* fuzz_rpc: libFuzzer target for the decoding of the engine's answers
 * (runtime/engine/rpc_value.c): the protobuf messages of every call and the
 * property values inside them.
 *
 * The first byte of an input chooses the call (modulo the number of calls),
 * the rest is the packed answer.  Besides the sanitizers, the target checks
 * the decoder's promises and aborts when one is broken:
 *   - an answer that decodes carries a MAP where the call has a value;
 *   - that value, encoded again (pcl__rpc_struct_pack, every kind kept,
 *     byte strings too), either is refused with an error (a map key that is
 *     not UTF-8, which has no byte-string form) or decodes to an equal
 *     value: nothing is lost or invented on the way;
 *   - no value outlives the input (the runtime's live-value count returns
 *     to where it was).
 * Seeds are answers built with @pulumi/pulumi's generated code
 * (tests/fuzz/rpc_seeds.js).  Build and run it with `make fuzz`. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "engine/rpc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok, const char *what) {
  if (!ok) {
    fprintf(stderr, "fuzz_rpc: broken promise: %s\n", what);
    abort();
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) {
    return 0;
  }
  size_t live = pcl_rt_live_values();
  pcl__rpc_method m = (pcl__rpc_method)(data[0] % PCL__RPC_NMETHODS);
  pcl__rpc_answer a;
  pcl_error *err = NULL;
  if (!pcl__rpc_answer_decode(m, data + 1, size - 1, &a, &err)) {
    check(err != NULL, "a refused answer comes with an error");
    pcl_error_free(err);
  } else {
    check(err == NULL, "an answer that decodes comes without an error");
    bool has_value =
        m == PCL__RPC_REGISTER || m == PCL__RPC_READ || m == PCL__RPC_INVOKE || m == PCL__RPC_CALL;
    check(!has_value || (a.value && pcl_kind_of(a.value) == PCL_T_MAP),
          "the value of an answer is a map");
    if (a.value) {
      pcl__rpc_enc enc = {.secrets = true, .resources = true, .byte_strings = true};
      size_t len = 0;
      uint8_t *again = pcl__rpc_struct_pack(a.value, &enc, &len);
      if (again == NULL) {
        check(enc.err != NULL, "a value that cannot be encoded comes with an error");
      } else {
        pcl_value *back = pcl__rpc_struct_unpack(again, len, &err);
        check(back != NULL, "an encoded value decodes");
        check(pcl_equal(back, a.value), "a value survives encoding and decoding");
        check(pcl_has_secret(back) == pcl_has_secret(a.value), "secrets survive as secrets");
        pcl_release(back);
        free(again);
      }
      pcl__rpc_enc_clear(&enc);
    }
    pcl__rpc_answer_free(&a);
  }
  check(pcl_rt_live_values() == live, "no value outlives the input");
  return 0;
}
