/* test_str.c: strings and Unicode: NFC normalisation on creation (with the
 * ASCII fast path), grapheme-cluster lengths of combining sequences and
 * emoji, rejection (or lossy replacement) of invalid UTF-8, embedded NULs,
 * concatenation across a combining seam, byte ordering and the string
 * builder used by templates. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "pcl_gen.h"
#include "value/pcl_internal.h"
#include "value_check.h"

/* Returns whether the string v holds exactly the bytes want. */
static bool bytes_are(const pcl_value *v, const char *want) {
  return pcl_str_len(v) == strlen(want) && memcmp(pcl_str_data(v), want, strlen(want)) == 0;
}

static void test_nfc(void) {
  LEAK_BEGIN;
  pcl_error *err = NULL;
  /* e + COMBINING ACUTE -> U+00E9. */
  pcl_value *s = pcl_str_new("caf" "e\xCC\x81", 6, &err);
  CU_ASSERT_TRUE(bytes_are(s, "caf\xC3\xA9"));
  CU_ASSERT_FALSE(s->flags & PCL_F_ASCII);
  pcl_value *pre = str("caf\xC3\xA9");
  CU_ASSERT_TRUE(pcl_equal(s, pre));
  pcl_release(pre);
  pcl_release(s);
  /* Hangul jamo L V T compose into one syllable (U+D55C). */
  s = str("\xE1\x84\x92\xE1\x85\xA1\xE1\x86\xAB");
  CU_ASSERT_TRUE(bytes_are(s, "\xED\x95\x9C"));
  pcl_release(s);
  /* Canonical reordering: a + dot below + dot above (reversed input). */
  s = str("a\xCC\x87\xCC\xA3");
  CU_ASSERT_TRUE(bytes_are(s, "\xE1\xBA\xA1\xCC\x87"));
  pcl_release(s);
  /* Compatibility characters are not folded (NFC, not NFKC): U+FB01. */
  s = str("\xEF\xAC\x81");
  CU_ASSERT_TRUE(bytes_are(s, "\xEF\xAC\x81"));
  pcl_release(s);
  /* ASCII takes the fast path and is flagged. */
  s = str("plain ascii");
  CU_ASSERT_TRUE(s->flags & PCL_F_ASCII);
  pcl_release(s);
  LEAK_END;
}

/* Returns the grapheme count of the bytes s. */
static size_t graphemes(const char *s) {
  pcl_value *v = str(s);
  size_t n = pcl_str_graphemes(v);
  pcl_release(v);
  return n;
}

static void test_graphemes(void) {
  LEAK_BEGIN;
  CU_ASSERT_EQUAL(graphemes(""), 0);
  CU_ASSERT_EQUAL(graphemes("hello"), 5);
  CU_ASSERT_EQUAL(graphemes("a\r\nb"), 3);
  CU_ASSERT_EQUAL(graphemes("\r\r\n\n"), 3);
  CU_ASSERT_EQUAL(graphemes("h\xC3\xA9llo"), 5);
  /* A base with two combining marks that have no precomposed form. */
  CU_ASSERT_EQUAL(graphemes("q\xCC\x81\xCC\xA3x"), 2);
  /* Family: man ZWJ woman ZWJ girl. */
  CU_ASSERT_EQUAL(graphemes("\xF0\x9F\x91\xA8\xE2\x80\x8D\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x91\xA7"), 1);
  /* Flag of France: two regional indicators; two flags are two clusters. */
  CU_ASSERT_EQUAL(graphemes("\xF0\x9F\x87\xAB\xF0\x9F\x87\xB7"), 1);
  CU_ASSERT_EQUAL(graphemes("\xF0\x9F\x87\xAB\xF0\x9F\x87\xB7\xF0\x9F\x87\xA9\xF0\x9F\x87\xAA"), 2);
  /* Thumbs up with a skin tone modifier. */
  CU_ASSERT_EQUAL(graphemes("\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD!"), 2);
  /* Hangul syllable made of jamo that do not all compose (L V V). */
  CU_ASSERT_EQUAL(graphemes("\xE1\x84\x80\xE1\x85\xA1"), 1);
  LEAK_END;
}

static void test_invalid_utf8(void) {
  LEAK_BEGIN;
  const char *bad[] = {
      "\xFF",             /* Never valid. */
      "ab\xC3",           /* Truncated sequence. */
      "\xC0\x80",         /* Overlong NUL. */
      "\xE0\x80\xAF",     /* Overlong slash. */
      "\xED\xA0\x80",     /* A UTF-16 surrogate. */
      "\xF4\x90\x80\x80", /* Beyond U+10FFFF. */
      "\x80",             /* Lone continuation byte. */
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    pcl_error *err = NULL;
    pcl_value *v = pcl_str_new(bad[i], strlen(bad[i]), &err);
    CHECK_ERROR(v, err, "invalid UTF-8");
  }
  pcl_error *err = NULL;
  pcl_value *v = pcl_str_new("ok\xFF", 3, &err);
  CHECK_ERROR(v, err, "invalid UTF-8 in string at byte 2");
  /* The lossy constructor replaces each bad byte by U+FFFD. */
  v = pcl_str_new_lossy("a\xFF" "b\xC3", 4);
  CU_ASSERT_TRUE(bytes_are(v, "a\xEF\xBF\xBD" "b\xEF\xBF\xBD"));
  pcl_release(v);
  LEAK_END;
}

/* Bytes from outside that are not UTF-8 pass through pcl_str_from_bytes
 * unchanged, while the valid runs between them are still NFC; concatenation
 * keeps them, JSON writes them as \ufffd and a template rejects them. */
static void test_raw_bytes(void) {
  LEAK_BEGIN;
  /* The bytes of the l2-raw-string-bytes conformance case. */
  static const char raw[] = "\0hello \x80\xFE\xFF world\xF0(";
  pcl_value *v = pcl_str_from_bytes(raw, sizeof raw - 1);
  CU_ASSERT_EQUAL(pcl_str_len(v), sizeof raw - 1);
  CU_ASSERT_TRUE(memcmp(pcl_str_data(v), raw, sizeof raw - 1) == 0);
  /* e + U+0301 composes to U+00E9 on both sides of a bad byte. */
  pcl_value *w = pcl_str_from_bytes("e\xCC\x81\xFF" "e\xCC\x81", 7);
  CU_ASSERT_TRUE(bytes_are(w, "\xC3\xA9\xFF\xC3\xA9"));
  /* Valid text is what pcl_str_new makes of it. */
  pcl_value *ok = pcl_str_from_bytes("e\xCC\x81", 3);
  CU_ASSERT_TRUE(bytes_are(ok, "\xC3\xA9"));
  pcl_value *cat = pcl_str_concat(w, ok);
  CU_ASSERT_TRUE(bytes_are(cat, "\xC3\xA9\xFF\xC3\xA9\xC3\xA9"));
  pcl_error *err = NULL;
  char *json = pcl_json_encode(w, 0, NULL, &err);
  CU_ASSERT_STRING_EQUAL(json, "\"\xC3\xA9\\ufffd\xC3\xA9\"");
  free(json);
  pcl_strbuf b = PCL_STRBUF_INIT;
  CU_ASSERT_TRUE(pcl_strbuf_append_value(&b, w, &err));
  pcl_value *t = pcl_strbuf_finish(&b, &err);
  CHECK_ERROR(t, err, "invalid UTF-8 in string at byte 2");
  pcl_release(cat);
  pcl_release(ok);
  pcl_release(w);
  pcl_release(v);
  LEAK_END;
}

static void test_nul_and_order(void) {
  LEAK_BEGIN;
  pcl_error *err = NULL;
  pcl_value *a = pcl_str_new("a\0b", 3, &err);
  CU_ASSERT_EQUAL(pcl_str_len(a), 3);
  CU_ASSERT_EQUAL(pcl_str_data(a)[3], '\0');
  CU_ASSERT_EQUAL(pcl_str_graphemes(a), 3);
  /* Normalisation goes through a NUL without stopping there. */
  pcl_value *n = pcl_str_new("e\xCC\x81\0b", 5, &err);
  CU_ASSERT_EQUAL(pcl_str_len(n), 4);
  CU_ASSERT_EQUAL(memcmp(pcl_str_data(n), "\xC3\xA9\0b", 4), 0);
  CU_ASSERT_EQUAL(pcl_str_graphemes(n), 3);
  pcl_release(n);
  pcl_value *b = str("a");
  CU_ASSERT_FALSE(pcl_equal(a, b));
  CU_ASSERT_TRUE(pcl_compare(b, a) < 0);
  CU_ASSERT_TRUE(pcl_str_eq_cstr(b, "a"));
  CU_ASSERT_FALSE(pcl_str_eq_cstr(a, "a"));
  /* Byte order: "Z" < "a" < "\u00e9". */
  pcl_value *z = str("Z"), *e = str("\xC3\xA9");
  CU_ASSERT_TRUE(pcl_compare(z, b) < 0);
  CU_ASSERT_TRUE(pcl_compare(b, e) < 0);
  pcl_release(a);
  pcl_release(b);
  pcl_release(z);
  pcl_release(e);
  LEAK_END;
}

static void test_concat(void) {
  LEAK_BEGIN;
  pcl_value *e = str("e"), *acute = str("\xCC\x81"), *x = str("x"), *empty = str("");
  pcl_value *c = pcl_str_concat(e, acute);
  CU_ASSERT_TRUE(bytes_are(c, "\xC3\xA9"));
  pcl_release(c);
  c = pcl_str_concat(e, x);
  CU_ASSERT_TRUE(bytes_are(c, "ex"));
  CU_ASSERT_TRUE(c->flags & PCL_F_ASCII);
  pcl_release(c);
  c = pcl_str_concat(x, empty);
  CU_ASSERT_PTR_EQUAL(c, x);
  pcl_release(c);
  pcl_release(e);
  pcl_release(acute);
  pcl_release(x);
  pcl_release(empty);
  LEAK_END;
}

/* Joining strings (templates of strings) gives what pcl_str_new makes of
 * their bytes: ASCII marked as such, NFC across a seam, secrets' text,
 * and the same error for bytes that are not UTF-8. */
static void test_join(void) {
  LEAK_BEGIN;
  pcl_error *err = NULL;
  pcl_value *e = str("e"), *acute = str("\xCC\x81"), *x = str("x"), *empty = str("");
  pcl_value *sx = pcl_secret_new(x);
  pcl_value *j = pcl__str_join((pcl_value *[]){x, empty, sx}, 3, &err);
  CU_ASSERT_TRUE(bytes_are(j, "xx"));
  CU_ASSERT_TRUE(j->flags & PCL_F_ASCII);
  pcl_release(j);
  j = pcl__str_join((pcl_value *[]){x, e, acute, e}, 4, &err);
  CU_ASSERT_TRUE(bytes_are(j, "x\xC3\xA9" "e"));
  CU_ASSERT_FALSE(j->flags & PCL_F_ASCII);
  pcl_release(j);
  j = pcl__str_join(NULL, 0, &err);
  CU_ASSERT_TRUE(bytes_are(j, ""));
  pcl_release(j);
  pcl_value *bad = pcl_str_from_bytes("a\xFF", 2);
  CU_ASSERT_PTR_NULL(pcl__str_join((pcl_value *[]){x, bad}, 2, &err));
  CU_ASSERT_PTR_NOT_NULL_FATAL(err);
  CU_ASSERT_STRING_EQUAL(pcl_error_message(err), "invalid UTF-8 in string at byte 2");
  pcl_error_free(err);
  pcl_value *values[] = {e, acute, x, empty, sx, bad};
  for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
    pcl_release(values[i]);
  }
  LEAK_END;
}

static void test_strbuf(void) {
  LEAK_BEGIN;
  pcl_error *err = NULL;
  pcl_strbuf b = PCL_STRBUF_INIT;
  pcl_strbuf_append_cstr(&b, "n=");
  pcl_value *big = lit("1e30");
  CU_ASSERT_TRUE(pcl_strbuf_append_value(&b, big, &err));
  pcl_release(big);
  pcl_strbuf_append_char(&b, ' ');
  pcl_value *num = pcl_number_new(0.25);
  CU_ASSERT_TRUE(pcl_strbuf_append_value(&b, num, &err));
  pcl_release(num);
  pcl_strbuf_appendf(&b, " %s-%d ", "x", 7);
  CU_ASSERT_TRUE(pcl_strbuf_append_value(&b, pcl_bool(false), &err));
  pcl_value *part = str("e");
  CU_ASSERT_TRUE(pcl_strbuf_append_value(&b, part, &err));
  pcl_release(part);
  /* A combining mark appended after "e" composes when the string is made. */
  pcl_strbuf_append(&b, "\xCC\x81", 2);
  CHECK_VALUE(pcl_strbuf_finish(&b, &err), PCL_T_STRING,
              "n=1000000000000000000000000000000 0.25 x-7 false\xC3\xA9");
  CU_ASSERT_EQUAL(b.len, 0);
  CU_ASSERT_PTR_NULL(b.data);

  /* Interpolating null, unknown or a list fails. */
  CU_ASSERT_FALSE(pcl_strbuf_append_value(&b, pcl_null(), &err));
  CHECK_ERROR(NULL, err, "the expression result is null");
  err = NULL;
  CU_ASSERT_FALSE(pcl_strbuf_append_value(&b, pcl_unknown(), &err));
  CHECK_ERROR(NULL, err, "not known");
  err = NULL;
  pcl_value *l = pcl_list_of(NULL, 0);
  CU_ASSERT_FALSE(pcl_strbuf_append_value(&b, l, &err));
  CHECK_ERROR(NULL, err, "cannot include a list in a string");
  pcl_release(l);

  /* Invalid bytes are caught when the string is made. */
  err = NULL;
  pcl_strbuf_append(&b, "\xFF", 1);
  pcl_value *v = pcl_strbuf_finish(&b, &err);
  CHECK_ERROR(v, err, "invalid UTF-8");
  /* An empty builder makes the empty string. */
  CHECK_VALUE(pcl_strbuf_finish(&b, &err), PCL_T_STRING, "");
  pcl_strbuf_free(&b);
  LEAK_END;
}

void register_str_tests(void);
void register_str_tests(void) {
  CU_pSuite s = CU_add_suite("str", NULL, NULL);
  CU_add_test(s, "NFC on creation", test_nfc);
  CU_add_test(s, "grapheme clusters", test_graphemes);
  CU_add_test(s, "invalid UTF-8", test_invalid_utf8);
  CU_add_test(s, "raw bytes from outside", test_raw_bytes);
  CU_add_test(s, "embedded NUL and byte order", test_nul_and_order);
  CU_add_test(s, "concatenation", test_concat);
  CU_add_test(s, "joining strings", test_join);
  CU_add_test(s, "string builder", test_strbuf);
}
