/* test_json.c: JSON encoding (sorted keys, Go escaping, numbers without
 * exponent, exact ints, the pretty snapshot form, the wire forms) and
 * decoding (exact big ints, escapes and surrogates, NFC, duplicate keys,
 * errors with offsets, depth limit), and round trips. */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pcl_gen.h"
#include "value_check.h"

/* Asserts that v (borrowed) encodes to want with flags. */
#define CHECK_JSON(v, flags, want) check_json_at((v), (flags), (want), __LINE__)
static void check_json_at(const pcl_value *v, unsigned flags, const char *want, int line) {
  pcl_error *err = NULL;
  size_t len = 0;
  char *got = pcl_json_encode(v, flags, &len, &err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(got);
  if (strcmp(got, want) != 0) {
    fprintf(stderr, "\nline %d: got %s, want %s\n", line, got, want);
  }
  CU_ASSERT_STRING_EQUAL(got, want);
  CU_ASSERT_EQUAL(len, strlen(want));
  free(got);
}

/* Returns the decoded value of text (asserting success). */
static pcl_value *decode(const char *text, unsigned flags) {
  pcl_error *err = NULL;
  pcl_value *v = pcl_json_decode(text, strlen(text), flags, &err);
  if (v == NULL) {
    fprintf(stderr, "\ndecode %s: %s\n", text, pcl_error_message(err));
    pcl_error_free(err);
  }
  CU_ASSERT_PTR_NOT_NULL(v);
  return v != NULL ? v : pcl_null();
}

static void test_encode_basic(void) {
  LEAK_BEGIN;
  pcl_mapbuf b = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_cstr(&b, "zeta", pcl_int_new(1));
  pcl_mapbuf_put_cstr(&b, "alpha", pcl_list_of((pcl_value *[]){pcl_bool(true), pcl_null()}, 2));
  pcl_mapbuf_put_cstr(&b, "Mid", pcl_number_new(0.5));
  pcl_mapbuf_put_cstr(&b, "big", lit("-123456789012345678901234567890"));
  pcl_mapbuf_put_cstr(&b, "e", pcl_map_of(NULL, NULL, 0));
  pcl_mapbuf_put_cstr(&b, "n", pcl_number_new(1e21));
  pcl_mapbuf_put_cstr(&b, "s", pcl_number_new(1e-7));
  pcl_value *m = pcl_mapbuf_finish(&b);
  CHECK_JSON(m, 0,
             "{\"Mid\":0.5,\"alpha\":[true,null],\"big\":-123456789012345678901234567890,"
             "\"e\":{},\"n\":1000000000000000000000,\"s\":0.0000001,\"zeta\":1}");
  CHECK_JSON(m, PCL_JSON_PRETTY,
             "{\n  \"Mid\": 0.5,\n  \"alpha\": [\n    true,\n    null\n  ],\n"
             "  \"big\": -123456789012345678901234567890,\n  \"e\": {},\n"
             "  \"n\": 1000000000000000000000,\n  \"s\": 0.0000001,\n  \"zeta\": 1\n}");
  pcl_value *empty = pcl_list_of(NULL, 0);
  CHECK_JSON(empty, PCL_JSON_PRETTY, "[]");
  pcl_release(empty);
  /* Negative zero is written "-0", as Go writes it. */
  pcl_value *negz = pcl_number_new(-0.0);
  CHECK_JSON(negz, 0, "-0");
  pcl_release(negz);

  /* The JSON string value that toJSON returns. */
  pcl_error *err = NULL;
  pcl_value *s = pcl_json_to_string(m, PCL_JSON_HTML_ESCAPE, &err);
  CU_ASSERT_EQUAL(pcl_kind_of(s), PCL_T_STRING);
  CU_ASSERT_TRUE(pcl_str_eq_cstr(s, "{\"Mid\":0.5,\"alpha\":[true,null],\"big\":-123456789012345678901234567890,"
                                    "\"e\":{},\"n\":1000000000000000000000,\"s\":0.0000001,\"zeta\":1}"));
  pcl_release(s);
  pcl_release(m);
  LEAK_END;
}

static void test_escaping(void) {
  LEAK_BEGIN;
  pcl_error *err = NULL;
  pcl_value *s = pcl_str_from_cstr("<a href=\"x\">&</a>\n\t\r\\\x01\x1f\x7f/ \xC3\xA9 \xE2\x80\xA8\xE2\x80\xA9");
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  CHECK_JSON(s, PCL_JSON_HTML_ESCAPE,
             "\"\\u003ca href=\\\"x\\\"\\u003e\\u0026\\u003c/a\\u003e\\n\\t\\r\\\\\\u0001\\u001f\x7f/ "
             "\xC3\xA9 \\u2028\\u2029\"");
  CHECK_JSON(s, 0,
             "\"<a href=\\\"x\\\">&</a>\\n\\t\\r\\\\\\u0001\\u001f\x7f/ \xC3\xA9 \\u2028\\u2029\"");
  pcl_release(s);
  /* Backspace and form feed are \u escapes, as the reference writes them;
   * a NUL inside a string survives. */
  s = pcl_str_new("\b\f\0", 3, &err);
  CHECK_JSON(s, 0, "\"\\u0008\\u000c\\u0000\"");
  pcl_release(s);
  /* Keys are escaped too. */
  pcl_value *k = str("<k>");
  pcl_value *m = pcl_map_of(&k, &k, 1);
  CHECK_JSON(m, PCL_JSON_HTML_ESCAPE, "{\"\\u003ck\\u003e\":\"\\u003ck\\u003e\"}");
  pcl_release(m);
  pcl_release(k);
  LEAK_END;
}

static void test_encode_errors(void) {
  LEAK_BEGIN;
  pcl_error *err = NULL;
  pcl_value *inf = pcl_number_new(HUGE_VAL);
  pcl_value *l = pcl_list_of(&inf, 1);
  char *t = pcl_json_encode(l, 0, NULL, &err);
  CU_ASSERT_PTR_NULL(t);
  CHECK_ERROR(NULL, err, "cannot serialize infinity as JSON");
  pcl_release(l);
  pcl_release(inf);
  err = NULL;
  t = pcl_json_encode(pcl_unknown(), 0, NULL, &err);
  CU_ASSERT_PTR_NULL(t);
  CHECK_ERROR(NULL, err, "cannot serialize an unknown value as JSON");
  err = NULL;
  pcl_value *p = str("f.txt");
  pcl_value *a = pcl_asset_new(PCL_ASSET_FILE, p);
  t = pcl_json_encode(a, 0, NULL, &err);
  CU_ASSERT_PTR_NULL(t);
  CHECK_ERROR(NULL, err, "cannot serialize an asset as JSON");
  pcl_release(a);
  pcl_release(p);
  /* Secrets are written as their value (the caller marks the result). */
  pcl_value *sec = pcl_secret_new(pcl_int_new(3));
  CHECK_JSON(sec, 0, "3");
  pcl_release(sec);
  LEAK_END;
}

static void test_decode(void) {
  LEAK_BEGIN;
  pcl_value *v = decode(" [123456789012345678901234567890, 1.5, 1e400, -0, 2.50, 1E2, -1.5e-3, "
                        "9223372036854775807, -9223372036854775808, 18446744073709551616] ",
                        0);
  CU_ASSERT_EQUAL(pcl_len(v), 10);
  CHECK_VALUE(pcl_retain(pcl_list_at(v, 0)), PCL_T_INT, "123456789012345678901234567890");
  CHECK_VALUE(pcl_retain(pcl_list_at(v, 1)), PCL_T_NUMBER, "1.5");
  CU_ASSERT_EQUAL(pcl_kind_of(pcl_list_at(v, 2)), PCL_T_INT);
  CHECK_VALUE(pcl_retain(pcl_list_at(v, 3)), PCL_T_INT, "0");
  CHECK_VALUE(pcl_retain(pcl_list_at(v, 4)), PCL_T_NUMBER, "2.5");
  CHECK_VALUE(pcl_retain(pcl_list_at(v, 5)), PCL_T_INT, "100");
  CHECK_VALUE(pcl_retain(pcl_list_at(v, 6)), PCL_T_NUMBER, "-0.0015");
  CHECK_VALUE(pcl_retain(pcl_list_at(v, 7)), PCL_T_INT, "9223372036854775807");
  CHECK_VALUE(pcl_retain(pcl_list_at(v, 8)), PCL_T_INT, "-9223372036854775808");
  CHECK_VALUE(pcl_retain(pcl_list_at(v, 9)), PCL_T_INT, "18446744073709551616");
  pcl_release(v);

  v = decode("{\"b\": \"x\\u00e9\\ud83d\\ude00\\n\\\"\\/\", \"a\": {\"k\": [true, false, null]}, "
             "\"b\": \"last\", \"lone\": \"\\ud800x\", \"nfc\": \"e\\u0301\", \"nul\": \"\\u0000\"}",
             0);
  CU_ASSERT_EQUAL(pcl_len(v), 5);
  CHECK_VALUE(pcl_retain(pcl_map_get_cstr(v, "b")), PCL_T_STRING, "last");
  CHECK_VALUE(pcl_retain(pcl_map_get_cstr(v, "lone")), PCL_T_STRING, "\xEF\xBF\xBDx");
  CHECK_VALUE(pcl_retain(pcl_map_get_cstr(v, "nfc")), PCL_T_STRING, "\xC3\xA9");
  CU_ASSERT_EQUAL(pcl_str_len(pcl_map_get_cstr(v, "nul")), 1);
  pcl_value *k = pcl_map_get_cstr(pcl_map_get_cstr(v, "a"), "k");
  CU_ASSERT_EQUAL(pcl_len(k), 3);
  CU_ASSERT_PTR_EQUAL(pcl_list_at(k, 2), pcl_null());
  pcl_release(v);

  /* Keys are NFC too: a decomposed key and its composed form are one key
   * (the later pair wins), sorted by its NFC bytes, after "f". */
  v = decode("{\"e\\u0301\": 1, \"f\": 2, \"\xC3\xA9\": 3, \"cafe\xCC\x81\": 4}", 0);
  CU_ASSERT_EQUAL(pcl_len(v), 3);
  CHECK_VALUE(pcl_retain(pcl_map_key_at(v, 1)), PCL_T_STRING, "f");
  CHECK_VALUE(pcl_retain(pcl_map_key_at(v, 2)), PCL_T_STRING, "\xC3\xA9");
  CHECK_VALUE(pcl_retain(pcl_map_get_cstr(v, "\xC3\xA9")), PCL_T_INT, "3");
  CHECK_VALUE(pcl_retain(pcl_map_get_cstr(v, "caf\xC3\xA9")), PCL_T_INT, "4");
  pcl_release(v);

  v = decode("{\"s\": \"x\\u00e9\\ud83d\\ude00\\n\\\"\\/\"}", 0);
  CHECK_VALUE(pcl_retain(pcl_map_get_cstr(v, "s")), PCL_T_STRING,
              "x\xC3\xA9\xF0\x9F\x98\x80\n\"/");
  pcl_release(v);
  LEAK_END;
}

static void test_decode_errors(void) {
  LEAK_BEGIN;
  struct {
    const char *text;
    const char *message;
  } cases[] = {
      {"", "invalid JSON at byte 0: unexpected end of input"},
      {"[1,]", "invalid JSON at byte 3: unexpected character"},
      {"{\"a\" 1}", "invalid JSON at byte 5: expected ':'"},
      {"{1: 2}", "expected a string key"},
      {"01", "invalid number"},
      {"1.", "invalid number"},
      {"-", "invalid number"},
      {"1e", "invalid number"},
      {"+1", "unexpected character"},
      {"\"\\x\"", "invalid escape"},
      {"\"\\u12\"", "invalid \\u escape"},
      {"\"abc", "unterminated string"},
      {"\"a\nb\"", "control character in string"},
      {"[1] x", "invalid JSON at byte 4: unexpected text after the value"},
      {"[1 2]", "expected ',' or ']'"},
      {"{\"a\":1 \"b\":2}", "expected ',' or '}'"},
      {"tru", "unexpected character"},
      {"\"\xFF\"", "invalid UTF-8"},
      {"NaN", "unexpected character"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    pcl_error *err = NULL;
    pcl_value *v = pcl_json_decode(cases[i].text, strlen(cases[i].text), 0, &err);
    CHECK_ERROR(v, err, cases[i].message);
  }
  /* A nonzero number that rounds to 0 is refused, not made 0. */
  pcl_error *err = NULL;
  pcl_value *v = pcl_json_decode("[1e-400]", 8, 0, &err);
  CHECK_ERROR(v, err, "invalid JSON at byte 1: the number \"1e-400\" is out of range: it rounds to 0");
  LEAK_END;
}

/* A number of 2^53 or more that is not an integer is written as the
 * shortest decimal that reads back as the same double, which has no
 * fraction: read again, it is that exact int (D3), and from there the text
 * is a fixed point (found by fuzz_json, whose round-trip check now starts
 * from the second round). */
static void test_large_number_round_trip(void) {
  LEAK_BEGIN;
  static const char *const texts[] = {"11937088493319370884259.6789", "123456789012345678.5",
                                      "-5555555555555555555555555.555"};
  for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
    pcl_error *err = NULL;
    pcl_value *v = decode(texts[i], 0);
    CU_ASSERT_EQUAL(pcl_kind_of(v), PCL_T_NUMBER);
    char *t1 = pcl_json_encode(v, 0, NULL, &err);
    pcl_value *back = decode(t1, 0);
    CU_ASSERT_EQUAL(pcl_kind_of(back), PCL_T_INT);
    CU_ASSERT_EQUAL(pcl_num_to_double(back), pcl_number_get(v));
    char *t2 = pcl_json_encode(back, 0, NULL, &err);
    CU_ASSERT_STRING_EQUAL(t1, t2);
    pcl_value *back2 = decode(t2, 0);
    CU_ASSERT_TRUE(pcl_equal(back, back2));
    free(t1);
    free(t2);
    pcl_release(back2);
    pcl_release(back);
    pcl_release(v);
  }
  LEAK_END;
}

static void test_round_trip(void) {
  LEAK_BEGIN;
  const char *texts[] = {
      "{\"a\":[1,2.5,\"x\",{\"b\":null}],\"c\":true,\"d\":-170141183460469231731687303715884105728}",
      "[0.1,0.30000000000000004,1000000000000000000000,0.0000001,-0.5]",
      "\"caf\xC3\xA9 \\u003c\\u2028\"",
      "[]",
      "{}",
  };
  for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
    pcl_value *v = decode(texts[i], 0);
    CHECK_JSON(v, PCL_JSON_HTML_ESCAPE, texts[i]);
    /* Pretty output decodes to the same value. */
    pcl_error *err = NULL;
    size_t len;
    char *pretty = pcl_json_encode(v, PCL_JSON_PRETTY, &len, &err);
    pcl_value *w = decode(pretty, 0);
    CU_ASSERT_TRUE(pcl_equal(v, w));
    free(pretty);
    pcl_release(w);
    pcl_release(v);
  }
  LEAK_END;
}

static void test_wire_forms(void) {
  LEAK_BEGIN;
  pcl_value *urn = str("urn:pulumi:dev::p::t:m:R::r"), *id = str("r-1"), *path = str("a.txt");
  pcl_value *res = pcl_resource_new(urn, id, NULL);
  pcl_value *asset = pcl_asset_new(PCL_ASSET_FILE, path);
  pcl_value *text = pcl_asset_new(PCL_ASSET_STRING, urn);
  pcl_value *assets = pcl_map_of((pcl_value *[]){path}, (pcl_value *[]){text}, 1);
  pcl_value *archive = pcl_archive_new(PCL_ARCHIVE_ASSETS, assets);
  pcl_value *sec = pcl_secret_new(id);
  pcl_value *l = pcl_list_of((pcl_value *[]){pcl_unknown(), sec, res, asset, archive}, 5);
  CHECK_JSON(l, PCL_JSON_WIRE,
             "[\"04da6b54-80e4-46f7-96ec-b56ff0331ba9\","
             "{\"4dabf18193072939515e22adb298388d\":\"1b47061264138c4ac30d75fd1eb44270\",\"value\":\"r-1\"},"
             "{\"4dabf18193072939515e22adb298388d\":\"5cf8f73096256a8f31e491e813e4eb8e\",\"id\":\"r-1\","
             "\"urn\":\"urn:pulumi:dev::p::t:m:R::r\"},"
             "{\"4dabf18193072939515e22adb298388d\":\"c44067f5952c0a294b673a41bacd8c17\",\"path\":\"a.txt\"},"
             "{\"4dabf18193072939515e22adb298388d\":\"0def7320c3a5731c473e5ecbe6d01bc7\",\"assets\":"
             "{\"a.txt\":{\"4dabf18193072939515e22adb298388d\":\"c44067f5952c0a294b673a41bacd8c17\","
             "\"text\":\"urn:pulumi:dev::p::t:m:R::r\"}}}]");
  pcl_error *err = NULL;
  char *t = pcl_json_encode(l, PCL_JSON_WIRE, NULL, &err);
  pcl_value *back = decode(t, PCL_JSON_WIRE);
  CU_ASSERT_TRUE(pcl_equal(back, l));
  CU_ASSERT_EQUAL(pcl_kind_of(pcl_list_at(back, 0)), PCL_T_UNKNOWN);
  CU_ASSERT_EQUAL(pcl_kind_of(pcl_list_at(back, 1)), PCL_T_SECRET);
  CU_ASSERT_EQUAL(pcl_kind_of(pcl_list_at(back, 4)), PCL_T_ARCHIVE);
  pcl_release(back);
  /* Without the flag the same text is plain data. */
  back = decode(t, 0);
  CU_ASSERT_EQUAL(pcl_kind_of(pcl_list_at(back, 0)), PCL_T_STRING);
  CU_ASSERT_EQUAL(pcl_kind_of(pcl_list_at(back, 1)), PCL_T_MAP);
  pcl_release(back);
  free(t);
  /* A signature object without its payload is an error. */
  const char *bad = "{\"4dabf18193072939515e22adb298388d\":\"c44067f5952c0a294b673a41bacd8c17\"}";
  pcl_value *v = pcl_json_decode(bad, strlen(bad), PCL_JSON_WIRE, &err);
  CHECK_ERROR(v, err, "malformed signature object");
  pcl_value *values[] = {urn, id, path, res, asset, text, assets, archive, sec, l};
  for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
    pcl_release(values[i]);
  }
  LEAK_END;
}

static void test_write(void) {
  LEAK_BEGIN;
  char *buf = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&buf, &size);
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  pcl_value *m = decode("{\"b\":[1,2],\"a\":1e30}", 0);
  pcl_error *err = NULL;
  CU_ASSERT_TRUE(pcl_json_write(f, m, PCL_JSON_PRETTY, &err));
  pcl_value *inf = pcl_number_new(-HUGE_VAL);
  CU_ASSERT_FALSE(pcl_json_write(f, inf, 0, &err));
  CHECK_ERROR(NULL, err, "infinity");
  fclose(f);
  CU_ASSERT_STRING_EQUAL(buf, "{\n  \"a\": 1000000000000000000000000000000,\n  \"b\": [\n    1,\n    2\n  ]\n}");
  free(buf);
  pcl_release(inf);
  pcl_release(m);
  LEAK_END;
}

static void test_append_and_quote(void) {
  LEAK_BEGIN;
  pcl_strbuf b = PCL_STRBUF_INIT;
  pcl_strbuf_append_cstr(&b, "{\n  \"k\": ");
  pcl_value *v = decode("{\"x\":[1]}", 0);
  pcl_error *err = NULL;
  CU_ASSERT_TRUE(pcl_json_append(&b, v, PCL_JSON_PRETTY, 1, &err));
  pcl_strbuf_append_cstr(&b, ",\n  \"q\": ");
  pcl_json_quote(&b, "<\"\xE2\x80\xA8", 5, PCL_JSON_HTML_ESCAPE);
  CU_ASSERT_STRING_EQUAL(b.data, "{\n  \"k\": {\n    \"x\": [\n      1\n    ]\n  },\n  \"q\": "
                                 "\"\\u003c\\\"\\u2028\"");
  /* A failed append leaves the buffer as it was. */
  size_t len = b.len;
  pcl_value *bad = pcl_list_of((pcl_value *[]){pcl_int_new(1), pcl_unknown()}, 2);
  CU_ASSERT_FALSE(pcl_json_append(&b, bad, 0, 0, &err));
  CHECK_ERROR(NULL, err, "unknown");
  CU_ASSERT_EQUAL(b.len, len);
  CU_ASSERT_EQUAL(strlen(b.data), len);
  pcl_release(bad);
  pcl_release(v);
  pcl_strbuf_free(&b);
  LEAK_END;
}

void register_json_tests(void);
void register_json_tests(void) {
  CU_pSuite s = CU_add_suite("json", NULL, NULL);
  CU_add_test(s, "encoding", test_encode_basic);
  CU_add_test(s, "escaping", test_escaping);
  CU_add_test(s, "encoding errors", test_encode_errors);
  CU_add_test(s, "decoding", test_decode);
  CU_add_test(s, "decoding errors", test_decode_errors);
  CU_add_test(s, "large numbers across a round trip", test_large_number_round_trip);
  CU_add_test(s, "round trips", test_round_trip);
  CU_add_test(s, "wire forms", test_wire_forms);
  CU_add_test(s, "writing to a file", test_write);
  CU_add_test(s, "appending and quoting", test_append_and_quote);
}
