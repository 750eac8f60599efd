/* fuzz_json: libFuzzer target for the runtime's JSON reader and writer.
 *
 * Each input is decoded three ways (plain, Pulumi's wire form, the snapshot
 * encoding).  Besides the sanitizers, the target checks the promises of the
 * JSON layer and aborts when one is broken: a decoding that fails gives an
 * error with a message; what decodes encodes again (plain and wire through
 * pcl_json_encode, the snapshot encoding through pcl__snap_encode), the text
 * decodes back, and from there encoding and decoding are a fixed point: the
 * second round gives the same text and an equal value.  (The first round
 * may change a value: a number of 2^53 or more that is not an integer, such
 * as 11937088493319370884259.6789, is written as the shortest decimal that
 * reads back as the same double, 11937088493319371000000, which reads back
 * as that exact int, as DECISIONS.md D3 wants; fuzz_json found it.)  The
 * printable form and stripping the secrets work on anything decoded.
 * Built and run by `make fuzz`. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Aborts with a message naming the broken promise. */
static void fail(const char *what) {
  fprintf(stderr, "fuzz_json: %s\n", what);
  abort();
}

/* Returns the encoding of v (owned), pretty-printed or compact: the
 * snapshot encoding for PCL_JSON_SNAPSHOT, else pcl_json_encode with flags;
 * *len its length. */
static char *encode(const pcl_value *v, unsigned flags, bool pretty, size_t *len) {
  if (flags == PCL_JSON_SNAPSHOT) {
    pcl_strbuf b = PCL_STRBUF_INIT;
    pcl__snap_encode(&b, v, pretty ? 0 : -1, false);
    if (b.data == NULL) {
      pcl_strbuf_append(&b, "", 0);
    }
    *len = b.len;
    return b.data;
  }
  pcl_error *err = NULL;
  char *text = pcl_json_encode(v, flags | (pretty ? PCL_JSON_PRETTY : 0), len, &err);
  if (text == NULL) {
    fail("a decoded value does not encode again");
  }
  return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const unsigned flags[] = {0, PCL_JSON_WIRE, PCL_JSON_SNAPSHOT};
  for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++) {
    pcl_error *err = NULL;
    pcl_value *v = pcl_json_decode((const char *)data, size, flags[i], &err);
    if (v == NULL) {
      if (err == NULL || pcl_error_message(err)[0] == '\0') {
        fail("a decoding failed without a message");
      }
      pcl_error_free(err);
      continue;
    }
    /* The input's length picks the layout, so both are fuzzed. */
    bool pretty = size % 2 == 1;
    size_t len;
    char *text = encode(v, flags[i], pretty, &len);
    pcl_value *back = pcl_json_decode(text, len, flags[i], &err);
    if (back == NULL) {
      fprintf(stderr, "fuzz_json: %s\n", pcl_error_message(err));
      fail("an encoded text does not decode");
    }
    size_t len2;
    char *again = encode(back, flags[i], pretty, &len2);
    pcl_value *back2 = pcl_json_decode(again, len2, flags[i], &err);
    if (back2 == NULL) {
      fprintf(stderr, "fuzz_json: %s\n", pcl_error_message(err));
      fail("a re-encoded text does not decode");
    }
    if (!pcl_equal(back, back2)) {
      fail("a value does not survive a second encoding and decoding");
    }
    size_t len3;
    char *third = encode(back2, flags[i], pretty, &len3);
    if (len3 != len2 || memcmp(third, again, len2) != 0) {
      fail("encoding is not a fixed point after one round");
    }
    free(third);
    pcl_release(back2);
    char *r = pcl_value_repr(v, 64);
    free(r);
    pcl_value *plain = pcl_strip_secrets(v);
    if (pcl_has_secret(plain)) {
      fail("a secret is left after pcl_strip_secrets");
    }
    pcl_release(plain);
    free(again);
    free(text);
    pcl_release(back);
    pcl_release(v);
  }
  return 0;
}
