/* test_builtins_encoding.c: toJSON (key order, Go escaping, exact ints,
 * numbers without exponent, marks, unserialisable kinds), toBase64 and
 * fromBase64 (the conformance examples, padding, line breaks, and the byte
 * offsets of Go's errors), and sha1 (known digests, NFC input). */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "builtins_check.h"

/* Asserts that toJSON of v (stolen) is the string whose bytes are want. */
#define TOJSON(v, want) tojson_at((v), (want), sizeof(want) - 1, __LINE__)
static void tojson_at(pcl_value *v, const char *want, size_t want_len, int line) {
  pcl_error *err = NULL;
  pcl_value *r = pcl_fn_toJSON(v, &err);
  pcl_release(v);
  if (r == NULL) {
    fprintf(stderr, "\nline %d: toJSON failed: %s\n", line, pcl_error_message(err));
    pcl_error_free(err);
    CU_FAIL("toJSON failed");
    return;
  }
  CU_ASSERT_EQUAL_FATAL(pcl_kind_of(r), PCL_T_STRING);
  bool same = pcl_str_len(r) == want_len && memcmp(pcl_str_data(r), want, want_len) == 0;
  if (!same) {
    fprintf(stderr, "\nline %d: toJSON gave %s, want %s\n", line, pcl_str_data(r), want);
  }
  CU_ASSERT_TRUE(same);
  pcl_release(r);
}

static void test_tojson(void) {
  BLEAK_BEGIN;
  /* Keys in ascending byte order, compact, every scalar kind. */
  TOJSON(J("{\"b\":1,\"a\":[1,2.5,\"x\",true,false,null]}"),
         "{\"a\":[1,2.5,\"x\",true,false,null],\"b\":1}");
  TOJSON(J("{\"b\":1,\"B\":2,\"a\":{\"z\":{},\"y\":[]}}"), "{\"B\":2,\"a\":{\"y\":[],\"z\":{}},\"b\":1}");
  /* The conformance program l1-component-sourceless. */
  TOJSON(J("{\"key\":\"value\"}"), "{\"key\":\"value\"}");
  TOJSON(J("null"), "null");
  TOJSON(J("\"x\""), "\"x\"");
  TOJSON(J("[]"), "[]");
  /* Go's escaping: HTML characters, quotes, backslashes, control
   * characters, the line and paragraph separators; other text is kept. */
  TOJSON(S("<a href=\"x\">&amp;</a>"),
         "\"\\u003ca href=\\\"x\\\"\\u003e\\u0026amp;\\u003c/a\\u003e\"");
  TOJSON(S("a\\b\n\r\t\x01\x1f"), "\"a\\\\b\\n\\r\\t\\u0001\\u001f\"");
  TOJSON(S("\xE2\x80\xA8|\xE2\x80\xA9"), "\"\\u2028|\\u2029\"");
  TOJSON(S("caf\xC3\xA9 \xF0\x9F\x91\xBE"), "\"caf\xC3\xA9 \xF0\x9F\x91\xBE\"");
  TOJSON(J("{\"<k>\":1}"), "{\"\\u003ck\\u003e\":1}");
  /* Numbers: exact ints of any size, shortest decimals, never an exponent. */
  TOJSON(J("[123456789012345678901234567890,-9223372036854775809,0]"),
         "[123456789012345678901234567890,-9223372036854775809,0]");
  TOJSON(pcl_number_new(1e21), "1000000000000000000000");
  TOJSON(pcl_number_new(1e-7), "0.0000001");
  TOJSON(pcl_number_new(0.1), "0.1");
  TOJSON(pcl_number_new(-2.5), "-2.5");
  BLEAK_END;
}

static void test_tojson_marks(void) {
  BLEAK_BEGIN;
  /* A secret anywhere inside makes the whole text secret. */
  V1(pcl_fn_toJSON, LIST2(S("a"), SECRET_TAKE(S("b"))), "secret(\"[\\\"a\\\",\\\"b\\\"]\")");
  V1(pcl_fn_toJSON, SECRET_TAKE(J("1")), "secret(\"1\")");
  /* An unknown anywhere inside makes it unknown (and secret if also). */
  V1(pcl_fn_toJSON, LIST2(S("a"), pcl_unknown()), "unknown");
  V1(pcl_fn_toJSON, LIST2(SECRET_TAKE(S("a")), pcl_unknown()), "secret(unknown)");
  V1(pcl_fn_toJSON, pcl_unknown(), "unknown");
  BLEAK_END;
}

static void test_tojson_errors(void) {
  BLEAK_BEGIN;
  VF1(pcl_fn_toJSON, pcl_number_new(1.0 / 0.0), "cannot serialize infinity as JSON");
  VF1(pcl_fn_toJSON, LIST2(J("1"), pcl_number_new(-1.0 / 0.0)), "cannot serialize infinity as JSON");
  pcl_value *text = S("x");
  VF1(pcl_fn_toJSON, pcl_asset_new(PCL_ASSET_STRING, text), "cannot serialize an asset as JSON");
  VF1(pcl_fn_toJSON, pcl_archive_new(PCL_ARCHIVE_REMOTE, text), "cannot serialize an archive as JSON");
  pcl_value *urn = S("urn:pulumi:test::p::a:b:C::r");
  VF1(pcl_fn_toJSON, pcl_resource_new(urn, NULL, NULL), "cannot serialize a resource reference as JSON");
  pcl_release(text);
  pcl_release(urn);
  BLEAK_END;
}

/* toJSON(toJSON(...)) 100 deep doubles the text at each level: it ends in
 * the size-limit error (a small limit here, to keep the test light), and a
 * split that would make too many pieces does too. */
static void test_size_limit(void) {
  BLEAK_BEGIN;
  size_t old = pcl_value_limit();
  pcl_set_value_limit((size_t)4 << 20);
  pcl_value *v = S("quote \" and backslash \\");
  pcl_error *err = NULL;
  int level = 0;
  for (; level < 100 && v != NULL; level++) {
    pcl_value *next = pcl_fn_toJSON(v, &err);
    pcl_release(v);
    v = next;
  }
  CU_ASSERT_PTR_NULL(v);
  CU_ASSERT_TRUE(level < 30);
  CU_ASSERT_PTR_NOT_NULL_FATAL(err);
  CU_ASSERT_STRING_EQUAL(pcl_error_message(err),
                         "the JSON text would take more than the limit of 4194304 bytes "
                         "(--max-value-size)");
  pcl_error_free(err);
  err = NULL;
  pcl_set_value_limit(64);
  pcl_value *sep = S("");
  pcl_value *text = S("abcdefghijklmnopqrstuvwxyz");
  CU_ASSERT_PTR_NULL(pcl_fn_split(sep, text, &err));
  CU_ASSERT_STRING_EQUAL(pcl_error_message(err),
                         "the list would take more than the limit of 64 bytes (--max-value-size)");
  pcl_error_free(err);
  err = NULL;
  /* Every builder checks the size it knows before it builds: join (the
   * strings and separators counted first), base64, a template or %{for}
   * growing past the limit, toJSON and a string of a huge int, and an
   * int product whose size is the sum of its operands'. */
  pcl_value *items[] = {text, text, text};
  pcl_value *three = pcl_list_of(items, 3);
  pcl_value *comma = S(",");
  CU_ASSERT_PTR_NULL(pcl_fn_join(comma, three, &err));
  CU_ASSERT(err && strcmp(pcl_error_message(err), "the string would take more than the limit of "
                                                  "64 bytes (--max-value-size)") == 0);
  pcl_error_free(err);
  err = NULL;
  pcl_value *two = pcl_list_of(items, 2);
  pcl_value *joined = pcl_fn_join(comma, two, &err);
  CU_ASSERT(joined != NULL && pcl_str_len(joined) == 53);
  pcl_release(joined);
  CU_ASSERT_PTR_NULL(pcl_fn_toBase64(joined = pcl_fn_join(sep, two, &err), &err));
  CU_ASSERT(err && strcmp(pcl_error_message(err), "the base64 text would take more than the "
                                                  "limit of 64 bytes (--max-value-size)") == 0);
  pcl_error_free(err);
  err = NULL;
  pcl_release(joined);
  pcl_strbuf b = PCL_STRBUF_INIT;
  CU_ASSERT_TRUE(pcl_strbuf_append_value(&b, text, &err));
  CU_ASSERT_TRUE(pcl_strbuf_append_value(&b, text, &err));
  CU_ASSERT_FALSE(pcl_strbuf_append_value(&b, text, &err));
  CU_ASSERT_EQUAL(b.len, 52);
  pcl_strbuf_free(&b);
  pcl_error_free(err);
  err = NULL;
  pcl_set_value_limit(4096);
  pcl_value *big = pcl_int_parse("1234567890123456789012345678901234567890", 40, &err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(big);
  pcl_value *p = pcl_retain(big);
  for (int i = 0; i < 20 && p != NULL; i++) {
    pcl_value *q = pcl_op_mul(p, p, &err);
    pcl_release(p);
    p = q;
  }
  CU_ASSERT_PTR_NULL(p);
  CU_ASSERT(err && strstr(pcl_error_message(err), "...: the int would take more than the limit "
                                                  "of 4096 bytes (--max-value-size)") != NULL);
  CU_ASSERT(err && strncmp(pcl_error_message(err), "cannot compute ", 15) == 0);
  pcl_error_free(err);
  err = NULL;
  /* 2^(8 * 3000) fits in limbs but not as text: its string and its JSON
   * are refused before they are written. */
  pcl_value *pow = pcl_int_new(1);
  pcl_value *factor = pcl_int_new(256);
  for (int i = 0; i < 3000; i++) {
    pcl_value *q = pcl_op_mul(pow, factor, &err);
    pcl_release(pow);
    pow = q;
  }
  CU_ASSERT_PTR_NOT_NULL_FATAL(pow);
  CU_ASSERT_PTR_NULL(pcl_convert_to_string(pow, &err));
  CU_ASSERT(err && strcmp(pcl_error_message(err), "the string would take more than the limit of "
                                                  "4096 bytes (--max-value-size)") == 0);
  pcl_error_free(err);
  err = NULL;
  CU_ASSERT_PTR_NULL(pcl_fn_toJSON(pow, &err));
  CU_ASSERT(err && strstr(pcl_error_message(err), "the JSON text would take more") != NULL);
  pcl_error_free(err);
  err = NULL;
  /* A message shows such an int shortened, without writing it whole. */
  char *r = pcl_value_repr(pow, 20);
  CU_ASSERT_STRING_EQUAL(r, "52468172239218879061...");
  free(r);
  pcl_release(pow);
  pcl_release(factor);
  pcl_release(big);
  pcl_release(two);
  pcl_release(three);
  pcl_release(comma);
  pcl_release(sep);
  pcl_release(text);
  pcl_set_value_limit(old);
  BLEAK_END;
}

static void test_base64(void) {
  BLEAK_BEGIN;
  /* The conformance examples, both ways. */
  T1(pcl_fn_toBase64, "\"hello world\"", "\"aGVsbG8gd29ybGQ=\"");
  T1(pcl_fn_toBase64, "\"goodbye world\"", "\"Z29vZGJ5ZSB3b3JsZA==\"");
  T1(pcl_fn_fromBase64, "\"aGVsbG8gd29ybGQ=\"", "\"hello world\"");
  T1(pcl_fn_fromBase64, "\"Z29vZGJ5ZSB3b3JsZA==\"", "\"goodbye world\"");
  /* Padding of every length, the empty string, UTF-8 input. */
  T1(pcl_fn_toBase64, "\"\"", "\"\"");
  T1(pcl_fn_toBase64, "\"a\"", "\"YQ==\"");
  T1(pcl_fn_toBase64, "\"ab\"", "\"YWI=\"");
  T1(pcl_fn_toBase64, "\"abc\"", "\"YWJj\"");
  T1(pcl_fn_toBase64, "\"\\u00e9\"", "\"w6k=\"");
  /* Input is NFC first: e + U+0301 encodes as U+00E9 does. */
  T1(pcl_fn_toBase64, "\"e\\u0301\"", "\"w6k=\"");
  T1(pcl_fn_toBase64, "12", "\"MTI=\"");
  T1(pcl_fn_fromBase64, "\"\"", "\"\"");
  T1(pcl_fn_fromBase64, "\"YQ==\"", "\"a\"");
  T1(pcl_fn_fromBase64, "\"YWI=\"", "\"ab\"");
  T1(pcl_fn_fromBase64, "\"YWJj\"", "\"abc\"");
  T1(pcl_fn_fromBase64, "\"w6k=\"", "\"\xC3\xA9\"");
  /* Go ignores non-zero bits after the last byte (not strict mode). */
  T1(pcl_fn_fromBase64, "\"YR==\"", "\"a\"");
  T1(pcl_fn_fromBase64, "\"YWJ=\"", "\"ab\"");
  T1(pcl_fn_fromBase64, "\"YR=\\n=\"", "\"a\"");
  /* Line breaks are skipped anywhere, also around the padding. */
  T1(pcl_fn_fromBase64, "\"YWJj\\nZGVm\"", "\"abcdef\"");
  T1(pcl_fn_fromBase64, "\"YW\\r\\nI=\"", "\"ab\"");
  T1(pcl_fn_fromBase64, "\"YQ=\\n=\\n\"", "\"a\"");
  T1(pcl_fn_fromBase64, "\"YWJj\\n\"", "\"abc\"");
  /* Bytes that are not UTF-8 become U+FFFD. */
  T1(pcl_fn_fromBase64, "\"gA==\"", "\"\xEF\xBF\xBD\"");
  /* Marks. */
  V1(pcl_fn_toBase64, SECRET_TAKE(S("a")), "secret(\"YQ==\")");
  V1(pcl_fn_fromBase64, SECRET_TAKE(S("YQ==")), "secret(\"a\")");
  V1(pcl_fn_fromBase64, pcl_unknown(), "unknown");
  BLEAK_END;
}

static void test_base64_raw_bytes(void) {
  BLEAK_BEGIN;
  /* The 21 bytes of conformance l2-raw-string-bytes: valid base64 whose
   * bytes are not UTF-8; the text survives up to the first bad byte. */
  pcl_error *err = NULL;
  pcl_value *in = S("AGhlbGxvIID+/yB3b3JsZPAo");
  pcl_value *r = pcl_fn_fromBase64(in, &err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(r);
  CU_ASSERT_TRUE(pcl_str_len(r) > 7 && memcmp(pcl_str_data(r), "\0hello \xEF\xBF\xBD", 10) == 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(pcl_str_data(r) + 1, " world"));
  pcl_release(r);
  pcl_release(in);
  BLEAK_END;
}

#define B64ERR(text, offset) \
  F1(pcl_fn_fromBase64, text, "invalid base64 data: illegal base64 data at input byte " offset)

static void test_base64_errors(void) {
  BLEAK_BEGIN;
  /* Offsets as Go's decoder reports them. */
  B64ERR("\"YQ\"", "0");        /* A quantum cut short at the end. */
  B64ERR("\"YWJjZA\"", "4");    /* The same in the second quantum. */
  B64ERR("\"YQ=\"", "3");       /* "==" expected, the text ends. */
  B64ERR("\"YQ=x\"", "2");      /* "==" expected, something else follows. */
  B64ERR("\"Y===\"", "1");      /* Padding after one character. */
  B64ERR("\"=\"", "0");         /* Padding first. */
  B64ERR("\"YQ==YQ==\"", "4");  /* Data after the padding. */
  B64ERR("\"YQ==\\nx\"", "5");  /* The same after a line break. */
  B64ERR("\"aGVsbG8*\"", "7");  /* A character outside the alphabet. */
  B64ERR("\"aGVs bG8=\"", "4"); /* Spaces are not skipped. */
  B64ERR("\"aGVsbG8_\"", "7");  /* The URL alphabet is not accepted. */
  F1(pcl_fn_fromBase64, "null", "fromBase64: invalid value for \"value\" parameter: argument must not be null");
  F1(pcl_fn_toBase64, "[1]", "toBase64: invalid value for \"value\" parameter: cannot convert list to string: "
     "string required");
  BLEAK_END;
}

static void test_sha1(void) {
  BLEAK_BEGIN;
  /* The conformance examples and the empty string. */
  T1(pcl_fn_sha1, "\"hello world\"", "\"2aae6c35c94fcfb415dbe95f408b9ce91ee846ed\"");
  T1(pcl_fn_sha1, "\"goodbye world\"", "\"0078bb8e5c9d8abf7f1e4e14c87d9023235b6230\"");
  T1(pcl_fn_sha1, "\"\"", "\"da39a3ee5e6b4b0d3255bfef95601890afd80709\"");
  T1(pcl_fn_sha1, "\"content\"", "\"040f06fd774092478d450774f5ba30c5da78acc8\"");
  /* The UTF-8 bytes of the NFC form. */
  T1(pcl_fn_sha1, "\"\\u00e9\"", "\"bf15be717ac1b080b4f1c456692825891ff5073d\"");
  T1(pcl_fn_sha1, "\"e\\u0301\"", "\"bf15be717ac1b080b4f1c456692825891ff5073d\"");
  V1(pcl_fn_sha1, SECRET_TAKE(S("")), "secret(\"da39a3ee5e6b4b0d3255bfef95601890afd80709\")");
  F1(pcl_fn_sha1, "null", "sha1: invalid value for \"input\" parameter: argument must not be null");
  F1(pcl_fn_sha1, "{}", "sha1: invalid value for \"input\" parameter: cannot convert map to string: "
     "string required");
  BLEAK_END;
}

void register_builtins_encoding_tests(void);
void register_builtins_encoding_tests(void) {
  CU_pSuite s = CU_add_suite("builtins_encoding", NULL, NULL);
  CU_add_test(s, "toJSON", test_tojson);
  CU_add_test(s, "toJSON marks", test_tojson_marks);
  CU_add_test(s, "toJSON errors", test_tojson_errors);
  CU_add_test(s, "the value size limit", test_size_limit);
  CU_add_test(s, "base64", test_base64);
  CU_add_test(s, "base64 raw bytes", test_base64_raw_bytes);
  CU_add_test(s, "base64 errors", test_base64_errors);
  CU_add_test(s, "sha1", test_sha1);
}
