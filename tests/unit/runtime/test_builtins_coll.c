/* test_builtins_coll.c: the collection built-ins (element, entries, length,
 * lookup, join, split, range, singleOrNone, min, max): the examples of
 * functions.md and the conformance programs, wrap-around and int64 edges,
 * grapheme clusters, byte-ordered keys, exact int comparison, marks
 * (secret, unknown) and every error message, word for word. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "builtins_check.h"

#define WHOLE "value must be a whole number, between -9223372036854775808 and 9223372036854775807"

static void test_element(void) {
  BLEAK_BEGIN;
  const char *abc = "[\"a\",\"b\",\"c\"]";
  T2(pcl_fn_element, abc, "0", "\"a\"");
  T2(pcl_fn_element, abc, "1", "\"b\"");
  T2(pcl_fn_element, abc, "2", "\"c\"");
  /* The index wraps modulo the length, and negative indices count from the
   * end (functions.md's examples). */
  T2(pcl_fn_element, abc, "3", "\"a\"");
  T2(pcl_fn_element, abc, "4", "\"b\"");
  T2(pcl_fn_element, abc, "-1", "\"c\"");
  T2(pcl_fn_element, abc, "-3", "\"a\"");
  T2(pcl_fn_element, abc, "-4", "\"c\"");
  /* The int64 extremes reduce without overflow. */
  T2(pcl_fn_element, abc, "9223372036854775807", "\"b\"");
  T2(pcl_fn_element, abc, "-9223372036854775808", "\"b\"");
  /* Elements of any kind come back as they are. */
  T2(pcl_fn_element, "[{\"k\":[1]},2]", "0", "{\"k\":[1]}");
  /* A whole number of kind number, and a numeric string, are indices. */
  V2(pcl_fn_element, J(abc), pcl_number_new(2.0), "\"c\"");
  T2(pcl_fn_element, abc, "\"1\"", "\"b\"");
  BLEAK_END;
}

static void test_element_errors(void) {
  BLEAK_BEGIN;
  const char *abc = "[\"a\",\"b\",\"c\"]";
  F2(pcl_fn_element, "[]", "0", "cannot use element function with an empty list");
  VF2(pcl_fn_element, J(abc), pcl_number_new(1.5), "invalid index: cannot use 1.5: " WHOLE);
  F2(pcl_fn_element, abc, "9223372036854775808",
     "invalid index: cannot use 9223372036854775808: " WHOLE);
  F2(pcl_fn_element, abc, "-1e30",
     "invalid index: cannot use -1000000000000000000000000000000: " WHOLE);
  F2(pcl_fn_element, abc, "\"x\"",
     "element: invalid value for \"index\" parameter: cannot convert \"x\" to number: a number "
     "is required");
  F2(pcl_fn_element, abc, "true",
     "element: invalid value for \"index\" parameter: cannot convert true to number: number "
     "required");
  F2(pcl_fn_element, abc, "null",
     "element: invalid value for \"index\" parameter: argument must not be null");
  F2(pcl_fn_element, "null", "0",
     "element: invalid value for \"list\" parameter: argument must not be null");
  F2(pcl_fn_element, "\"abc\"", "0", "cannot read elements from string");
  F2(pcl_fn_element, "{\"a\":1}", "0", "cannot read elements from map");
  F2(pcl_fn_element, "7", "0", "cannot read elements from number");
  pcl_value *items[1] = {S("a")};
  VF2(pcl_fn_element, pcl_set_of_take(items, 1), J("0"), "cannot read elements from set");
  BLEAK_END;
}

static void test_element_marks(void) {
  BLEAK_BEGIN;
  /* A secret list makes the element secret. */
  V2(pcl_fn_element, SECRET_TAKE(J("[\"a\",\"b\"]")), J("1"), "secret(\"b\")");
  /* A secret element stays secret; its neighbours do not taint others. */
  pcl_value *mixed = LIST2(SECRET_TAKE(S("x")), S("y"));
  V2(pcl_fn_element, pcl_retain(mixed), J("0"), "secret(\"x\")");
  V2(pcl_fn_element, pcl_retain(mixed), J("1"), "\"y\"");
  pcl_release(mixed);
  /* An unknown list or index gives an unknown element; an unknown element
   * is handed back as it is. */
  V2(pcl_fn_element, pcl_unknown(), J("0"), "unknown");
  V2(pcl_fn_element, J("[1]"), pcl_unknown(), "unknown");
  V2(pcl_fn_element, LIST2(pcl_unknown(), J("2")), J("1"), "2");
  /* A secret index marks the result too. */
  V2(pcl_fn_element, J("[1,2]"), SECRET_TAKE(J("0")), "secret(1)");
  BLEAK_END;
}

static void test_entries(void) {
  BLEAK_BEGIN;
  T1(pcl_fn_entries, "{\"b\":2,\"a\":1}", "[{\"key\":\"a\",\"value\":1},{\"key\":\"b\",\"value\":2}]");
  /* The conformance program l1-builtin-object: ascending key order. */
  T1(pcl_fn_entries,
     "{\"keyPresent\":\"value\",\"alpha\":\"a\",\"delta\":\"d\",\"omega\":\"o\",\"tango\":\"t\","
     "\"zebra\":\"z\"}",
     "[{\"key\":\"alpha\",\"value\":\"a\"},{\"key\":\"delta\",\"value\":\"d\"},"
     "{\"key\":\"keyPresent\",\"value\":\"value\"},{\"key\":\"omega\",\"value\":\"o\"},"
     "{\"key\":\"tango\",\"value\":\"t\"},{\"key\":\"zebra\",\"value\":\"z\"}]");
  /* Byte order: upper case sorts before lower case, and "a" before "a-b". */
  T1(pcl_fn_entries, "{\"b\":1,\"B\":2,\"a-b\":3,\"a\":4}",
     "[{\"key\":\"B\",\"value\":2},{\"key\":\"a\",\"value\":4},{\"key\":\"a-b\",\"value\":3},"
     "{\"key\":\"b\",\"value\":1}]");
  /* Heterogeneous values and empty collections are fine. */
  T1(pcl_fn_entries, "{\"n\":null,\"l\":[1]}",
     "[{\"key\":\"l\",\"value\":[1]},{\"key\":\"n\",\"value\":null}]");
  T1(pcl_fn_entries, "{}", "[]");
  T1(pcl_fn_entries, "[]", "[]");
  /* Lists give their indices as keys. */
  T1(pcl_fn_entries, "[\"x\",\"y\"]", "[{\"key\":0,\"value\":\"x\"},{\"key\":1,\"value\":\"y\"}]");
  /* Marks. */
  V1(pcl_fn_entries, SECRET_TAKE(J("{\"a\":1}")), "secret([{\"key\":\"a\",\"value\":1}])");
  V1(pcl_fn_entries, pcl_unknown(), "unknown");
  /* A secret value stays secret inside its entry; the list is not. */
  pcl_value *k = S("pw"), *sv = SECRET_TAKE(S("hunter2"));
  V1(pcl_fn_entries, pcl_map_of(&k, &sv, 1), "[{\"key\":\"pw\",\"value\":secret(\"hunter2\")}]");
  pcl_release(k);
  pcl_release(sv);
  /* A set enumerates in its order. */
  pcl_value *items[2] = {S("b"), S("a")};
  V1(pcl_fn_entries, pcl_set_of_take(items, 2), "[{\"key\":0,\"value\":\"a\"},{\"key\":1,\"value\":\"b\"}]");
  /* Errors. */
  F1(pcl_fn_entries, "\"str\"", "entries argument must be a collection, was string");
  F1(pcl_fn_entries, "5", "entries argument must be a collection, was number");
  F1(pcl_fn_entries, "true", "entries argument must be a collection, was bool");
  F1(pcl_fn_entries, "null", "entries argument must be a collection, was null");
  BLEAK_END;
}

static void test_length(void) {
  BLEAK_BEGIN;
  T1(pcl_fn_length, "\"\"", "0");
  T1(pcl_fn_length, "\"hello\"", "5");
  T1(pcl_fn_length, "\"foo-bar-baz\"", "11");
  /* Conformance l1-builtin-string: café-thé (8), alien + joystick with a
   * variation selector (3), a ZWJ family (1 cluster) in 10. */
  T1(pcl_fn_length, "\"caf\\u00e9-th\\u00e9\"", "8");
  T1(pcl_fn_length, "\"\\ud83d\\udc7e-\\ud83d\\udd79\\ufe0f\"", "3");
  T1(pcl_fn_length,
     "\"\\ud83d\\udc68\\u200d\\ud83d\\udc69\\u200d\\ud83d\\udc67\\u200d\\ud83d\\udc66-family-"
     "\\ud83d\\udc76\"",
     "10");
  /* A combining mark joins its base (whether or not NFC composes it). */
  T1(pcl_fn_length, "\"cafe\\u0301\"", "4");
  T1(pcl_fn_length, "\"q\\u0307\\u0323\"", "1");
  /* Regional indicators pair into flags; CR LF is one cluster. */
  T1(pcl_fn_length, "\"\\ud83c\\uddeb\\ud83c\\uddf7\\ud83c\\udde9\\ud83c\\uddea\"", "2");
  T1(pcl_fn_length, "\"a\\r\\nb\"", "3");
  /* A skin-tone modifier joins the emoji before it. */
  T1(pcl_fn_length, "\"\\ud83d\\udc4d\\ud83c\\udffd!\"", "2");
  /* Collections count elements or entries. */
  T1(pcl_fn_length, "[1,2,3]", "3");
  T1(pcl_fn_length, "[]", "0");
  T1(pcl_fn_length, "{\"a\":1,\"b\":2}", "2");
  T1(pcl_fn_length, "{}", "0");
  /* A list of unknowns has a known length; a secret string a secret one. */
  V1(pcl_fn_length, LIST2(pcl_unknown(), pcl_unknown()), "2");
  V1(pcl_fn_length, SECRET_TAKE(S("abc")), "secret(3)");
  V1(pcl_fn_length, pcl_unknown(), "unknown");
  /* Errors. */
  F1(pcl_fn_length, "5", "collection must be a list, a map or a tuple");
  F1(pcl_fn_length, "true", "collection must be a list, a map or a tuple");
  F1(pcl_fn_length, "null", "length: invalid value for \"value\" parameter: argument must not be null");
  BLEAK_END;
}

/* lookup with three JSON arguments. */
#define LOOKUP(m, k, d, want)                                    \
  do {                                                           \
    pcl_error *e_ = NULL;                                        \
    pcl_value *m_ = J(m), *k_ = J(k), *d_ = J(d);                \
    pcl_value *r_ = pcl_fn_lookup(m_, k_, d_, &e_);              \
    pcl_release(m_);                                             \
    pcl_release(k_);                                             \
    pcl_release(d_);                                             \
    if (want[0] == '!') {                                        \
      check_fails_at(r_, e_, (want) + 1, __LINE__);              \
    } else {                                                     \
      check_show_at(r_, e_, want, __LINE__);                     \
    }                                                            \
  } while (0)

static void test_lookup(void) {
  BLEAK_BEGIN;
  const char *m = "{\"keyPresent\":\"value\",\"alpha\":\"a\"}";
  LOOKUP(m, "\"keyPresent\"", "\"default\"", "\"value\"");
  LOOKUP(m, "\"keyMissing\"", "\"default\"", "\"default\"");
  /* Values and defaults of any kind; an object is a map. */
  LOOKUP("{\"a\":[1,2]}", "\"a\"", "[]", "[1,2]");
  LOOKUP("{\"a\":null}", "\"a\"", "1", "null");
  LOOKUP("{}", "\"a\"", "{\"x\":1}", "{\"x\":1}");
  /* The key is converted to a string. */
  LOOKUP("{\"1\":\"one\"}", "1", "\"d\"", "\"one\"");
  /* Errors. */
  LOOKUP("[1]", "\"a\"", "1", "!lookup() requires a map as the first argument");
  LOOKUP("\"s\"", "\"a\"", "1", "!lookup() requires a map as the first argument");
  LOOKUP("null", "\"a\"", "1", "!lookup: invalid value for \"map\" parameter: argument must not be null");
  LOOKUP(m, "null", "1", "!lookup: invalid value for \"key\" parameter: argument must not be null");
  LOOKUP(m, "[\"a\"]", "1", "!lookup: invalid value for \"key\" parameter: cannot convert list to string: string required");
  LOOKUP(m, "\"alpha\"", "null",
         "!lookup: invalid value for \"default\" parameter: argument must not be null");
  /* As in the reference, the default is required at run time. */
  pcl_error *err = NULL;
  pcl_value *map = J(m), *key = S("alpha");
  CHECK_FAILS(pcl_fn_lookup(map, key, NULL, &err), err,
              "Not enough function arguments: function \"lookup\" expects 3 argument(s); missing "
              "value for \"default\"");
  /* Marks: a secret map or key marks the result; the default keeps its own
   * marks; an unknown map gives unknown. */
  pcl_value *smap = pcl_secret_new(map), *skey = pcl_secret_new(key), *one = J("1");
  err = NULL;
  CHECK_SHOW(pcl_fn_lookup(smap, key, one, &err), err, "secret(\"a\")");
  err = NULL;
  CHECK_SHOW(pcl_fn_lookup(map, skey, one, &err), err, "secret(\"a\")");
  pcl_value *sone = pcl_secret_new(one), *missing = S("nope");
  err = NULL;
  CHECK_SHOW(pcl_fn_lookup(map, missing, sone, &err), err, "secret(1)");
  err = NULL;
  CHECK_SHOW(pcl_fn_lookup(pcl_unknown(), missing, one, &err), err, "unknown");
  err = NULL;
  CHECK_SHOW(pcl_fn_lookup(map, missing, pcl_unknown(), &err), err, "unknown");
  err = NULL;
  CHECK_SHOW(pcl_fn_lookup(map, key, pcl_unknown(), &err), err, "\"a\"");
  pcl_release(map);
  pcl_release(key);
  pcl_release(smap);
  pcl_release(skey);
  pcl_release(one);
  pcl_release(sone);
  pcl_release(missing);
  BLEAK_END;
}

static void test_join(void) {
  BLEAK_BEGIN;
  T2(pcl_fn_join, "\"|\"", "[\"foo\",\"bar\",\"baz\"]", "\"foo|bar|baz\"");
  T2(pcl_fn_join, "\"\"", "[\"a\",\"b\"]", "\"ab\"");
  T2(pcl_fn_join, "\", \"", "[\"x\"]", "\"x\"");
  T2(pcl_fn_join, "\",\"", "[]", "\"\"");
  T2(pcl_fn_join, "\",\"", "[\"\",\"\"]", "\",\"");
  /* Numbers and bools join in their string form; ints exactly. */
  T2(pcl_fn_join, "\",\"", "[1,true,2.5,123456789012345678901234567890]",
     "\"1,true,2.5,123456789012345678901234567890\"");
  /* The result is NFC even across a seam: e + U+0301 compose. */
  T2(pcl_fn_join, "\"\"", "[\"e\",\"\\u0301\"]", "\"\xC3\xA9\"");
  /* A set joins in its order. */
  pcl_value *items[2] = {S("y"), S("x")};
  V2(pcl_fn_join, S("+"), pcl_set_of_take(items, 2), "\"x+y\"");
  /* A number separator is converted too. */
  T2(pcl_fn_join, "0", "[\"a\",\"b\"]", "\"a0b\"");
  /* Errors. */
  F2(pcl_fn_join, "\",\"", "[\"a\",null]", "element 1 is null; cannot concatenate null values");
  F2(pcl_fn_join, "\",\"", "[null]", "element 0 is null; cannot concatenate null values");
  F2(pcl_fn_join, "\",\"", "[\"a\",[\"b\"]]",
     "join: invalid value for \"strings\" parameter: cannot convert list to string: string "
     "required");
  F2(pcl_fn_join, "\",\"", "\"abc\"",
     "join: invalid value for \"strings\" parameter: list of string required");
  F2(pcl_fn_join, "null", "[]", "join: invalid value for \"separator\" parameter: argument must not be null");
  /* Marks: an unknown element makes the result unknown, a secret one secret. */
  V2(pcl_fn_join, S(","), LIST2(S("a"), pcl_unknown()), "unknown");
  V2(pcl_fn_join, S(","), LIST2(SECRET_TAKE(S("a")), S("b")), "secret(\"a,b\")");
  V2(pcl_fn_join, SECRET_TAKE(S("-")), LIST2(S("a"), S("b")), "secret(\"a-b\")");
  BLEAK_END;
}

static void test_split(void) {
  BLEAK_BEGIN;
  T2(pcl_fn_split, "\"-\"", "\"foo-bar-baz\"", "[\"foo\",\"bar\",\"baz\"]");
  T2(pcl_fn_split, "\"-\"", "\"hello\"", "[\"hello\"]");
  /* Go's strings.Split (functions.md's examples). */
  T2(pcl_fn_split, "\",\"", "\"a,,b\"", "[\"a\",\"\",\"b\"]");
  T2(pcl_fn_split, "\",\"", "\"\"", "[\"\"]");
  T2(pcl_fn_split, "\"\"", "\"abc\"", "[\"a\",\"b\",\"c\"]");
  T2(pcl_fn_split, "\"\"", "\"\"", "[]");
  T2(pcl_fn_split, "\",\"", "\",\"", "[\"\",\"\"]");
  T2(pcl_fn_split, "\"ab\"", "\"xabyabz\"", "[\"x\",\"y\",\"z\"]");
  T2(pcl_fn_split, "\"aa\"", "\"aaa\"", "[\"\",\"a\"]");
  /* Multi-byte text: an empty separator splits per code point. */
  T2(pcl_fn_split, "\"\"", "\"\\u00e9\\ud83d\\udc7e\"", "[\"\xC3\xA9\",\"\xF0\x9F\x91\xBE\"]");
  T2(pcl_fn_split, "\"-\"",
     "\"\\ud83d\\udc68\\u200d\\ud83d\\udc69\\u200d\\ud83d\\udc67\\u200d\\ud83d\\udc66-family-"
     "\\ud83d\\udc76\"",
     "[\"\xF0\x9F\x91\xA8\xE2\x80\x8D\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x91\xA7\xE2\x80\x8D"
     "\xF0\x9F\x91\xA6\",\"family\",\"\xF0\x9F\x91\xB6\"]");
  /* A number is converted to its string form. */
  T2(pcl_fn_split, "1", "\"a1b\"", "[\"a\",\"b\"]");
  /* Marks and errors. */
  V2(pcl_fn_split, S(","), SECRET_TAKE(S("a,b")), "secret([\"a\",\"b\"])");
  V2(pcl_fn_split, S(","), pcl_unknown(), "unknown");
  F2(pcl_fn_split, "\",\"", "null", "split: invalid value for \"string\" parameter: argument must not be null");
  F2(pcl_fn_split, "[]", "\"a\"", 
     "split: invalid value for \"separator\" parameter: cannot convert list to string: string "
     "required");
  BLEAK_END;
}

static pcl_value *range1(pcl_value *n, pcl_error **err) { return pcl_fn_range(n, NULL, err); }

static void test_range(void) {
  BLEAK_BEGIN;
  T1(range1, "3", "[0,1,2]");
  T1(range1, "1", "[0]");
  T1(range1, "0", "[]");
  T1(range1, "-2", "[]");
  T1(range1, "\"3\"", "[0,1,2]");
  T2(pcl_fn_range, "2", "5", "[2,3,4]");
  T2(pcl_fn_range, "-2", "1", "[-2,-1,0]");
  T2(pcl_fn_range, "5", "2", "[]");
  T2(pcl_fn_range, "5", "5", "[]");
  T2(pcl_fn_range, "9223372036854775806", "9223372036854775807", "[9223372036854775806]");
  V1(range1, pcl_number_new(2.0), "[0,1]");
  V1(range1, pcl_unknown(), "unknown");
  BLEAK_END;
}

static void test_range_errors(void) {
  BLEAK_BEGIN;
  VF1(range1, pcl_number_new(2.5),
      "range: invalid value for \"fromOrTo\" parameter: cannot use 2.5: " WHOLE);
  F1(range1, "100000000000000000000000000000",
     "range: invalid value for \"fromOrTo\" parameter: cannot use "
     "100000000000000000000000000000: " WHOLE);
  F2(pcl_fn_range, "0", "1.5", "range: invalid value for \"to\" parameter: cannot use 1.5: " WHOLE);
  F1(range1, "\"x\"",
     "range: invalid value for \"fromOrTo\" parameter: cannot convert \"x\" to number: a "
     "number is required");
  F1(range1, "null", "range: invalid value for \"fromOrTo\" parameter: argument must not be null");
  F2(pcl_fn_range, "0", "1048577", "range: the list would have 1048577 elements, more than 1048576");
  /* The limit itself is allowed. */
  pcl_error *err = NULL;
  pcl_value *lo = pcl_int_new(-5), *hi = pcl_int_new(PCL_RANGE_MAX - 5);
  pcl_value *all = pcl_fn_range(lo, hi, &err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(all);
  CU_ASSERT_EQUAL(pcl_len(all), (size_t)PCL_RANGE_MAX);
  int64_t last = 0;
  CU_ASSERT_TRUE(pcl_int_get_i64(pcl_list_at(all, pcl_len(all) - 1), &last));
  CU_ASSERT_EQUAL(last, PCL_RANGE_MAX - 6);
  pcl_release(all);
  pcl_release(lo);
  pcl_release(hi);
  /* The span of the whole int64 range does not overflow the check. */
  F2(pcl_fn_range, "-9223372036854775808", "9223372036854775807",
     "range: the list would have 18446744073709551615 elements, more than 1048576");
  BLEAK_END;
}

static void test_single_or_none(void) {
  BLEAK_BEGIN;
  T1(pcl_fn_singleOrNone, "[]", "null");
  T1(pcl_fn_singleOrNone, "[\"single\"]", "\"single\"");
  T1(pcl_fn_singleOrNone, "[1]", "1");
  T1(pcl_fn_singleOrNone, "[[1,2]]", "[1,2]");
  F1(pcl_fn_singleOrNone, "[\"a\",\"b\"]", "expected list to have at most one element, got 2");
  F1(pcl_fn_singleOrNone, "[1,2,3]", "expected list to have at most one element, got 3");
  F1(pcl_fn_singleOrNone, "\"x\"", "singleOrNone: invalid value for \"value\" parameter: list required");
  F1(pcl_fn_singleOrNone, "null",
     "singleOrNone: invalid value for \"value\" parameter: argument must not be null");
  V1(pcl_fn_singleOrNone, SECRET_TAKE(J("[\"a\"]")), "secret(\"a\")");
  V1(pcl_fn_singleOrNone, pcl_unknown(), "unknown");
  BLEAK_END;
}

/* Calls fn on the JSON array's elements and checks the result's form and
 * kind (want_kind < 0: do not check), or the failure (want starting "!"). */
static void check_minmax(pcl_value *(*fn)(pcl_value *const *, size_t, pcl_error **),
                         const char *args_json, const char *want, int want_kind, int line) {
  pcl_value *args = J(args_json);
  pcl_error *err = NULL;
  pcl_value *r = fn(args->u.list.items, pcl_len(args), &err);
  if (want[0] == '!') {
    check_fails_at(r, err, want + 1, line);
  } else {
    if (r != NULL && want_kind >= 0) {
      CU_ASSERT_EQUAL((int)pcl_kind_of(r), want_kind);
    }
    check_show_at(r, err, want, line);
  }
  pcl_release(args);
}
#define MINMAX(fn, args, want, kind) check_minmax((fn), (args), (want), (kind), __LINE__)

static void test_min_max(void) {
  BLEAK_BEGIN;
  MINMAX(pcl_fn_max, "[1,2.5]", "2.5", PCL_T_NUMBER);
  MINMAX(pcl_fn_min, "[1,2.5]", "1", PCL_T_INT);
  MINMAX(pcl_fn_min, "[-5,2,-7]", "-7", PCL_T_INT);
  MINMAX(pcl_fn_max, "[42]", "42", PCL_T_INT);
  /* Exact on ints beyond 2^53 and 2^64. */
  MINMAX(pcl_fn_max, "[18446744073709551616,18446744073709551617,18446744073709551615]",
         "18446744073709551617", PCL_T_INT);
  MINMAX(pcl_fn_min, "[18446744073709551616,18446744073709551617,18446744073709551615]",
         "18446744073709551615", PCL_T_INT);
  MINMAX(pcl_fn_max, "[-100000000000000000000000000001,-100000000000000000000000000000]",
         "-100000000000000000000000000000", PCL_T_INT);
  /* Strings are converted to numbers. */
  MINMAX(pcl_fn_max, "[\"5\",3]", "5", PCL_T_INT);
  /* Errors, word for word. */
  MINMAX(pcl_fn_max, "[]", "!max requires at least one argument", -1);
  MINMAX(pcl_fn_min, "[]", "!min requires at least one argument", -1);
  MINMAX(pcl_fn_max, "[1,\"x\"]", "!max: invalid value for \"numbers\" parameter: cannot convert \"x\" to number: a "
         "number is required", -1);
  MINMAX(pcl_fn_min, "[true]", "!min: invalid value for \"numbers\" parameter: cannot convert true to number: "
         "number required", -1);
  MINMAX(pcl_fn_max, "[null]", "!max: invalid value for \"numbers\" parameter: argument must not be null", -1);
  MINMAX(pcl_fn_max, "[[1]]", "!max: invalid value for \"numbers\" parameter: cannot convert list to number: "
         "number required", -1);
  BLEAK_END;
}

static void test_min_max_exact(void) {
  BLEAK_BEGIN;
  pcl_error *err = NULL;
  /* 2^53 + 1 as an int beats the double 2^53, which it would equal if the
   * int were converted to a double first. */
  pcl_value *big = J("9007199254740993");
  pcl_value *dbl = pcl_number_new(9007199254740992.0);
  pcl_value *args[2] = {dbl, big};
  CHECK_SHOW(pcl_fn_max(args, 2, &err), err, "9007199254740993");
  err = NULL;
  CHECK_SHOW(pcl_fn_min(args, 2, &err), err, "9007199254740992");
  /* Ties keep the first argument: 3.0 (number) before 3 (int). */
  pcl_value *three_d = pcl_number_new(3.0), *three_i = pcl_int_new(3);
  pcl_value *tie[2] = {three_d, three_i};
  err = NULL;
  pcl_value *r = pcl_fn_max(tie, 2, &err);
  CU_ASSERT_PTR_EQUAL(r, three_d);
  pcl_release(r);
  tie[0] = three_i;
  tie[1] = three_d;
  r = pcl_fn_min(tie, 2, &err);
  CU_ASSERT_PTR_EQUAL(r, three_i);
  pcl_release(r);
  /* Infinity is a number like any other. */
  pcl_value *inf = pcl_number_new(1.0 / 0.0);
  pcl_value *with_inf[2] = {three_i, inf};
  err = NULL;
  CHECK_SHOW(pcl_fn_max(with_inf, 2, &err), err, "+Inf");
  /* Marks. */
  pcl_value *secret_big = pcl_secret_new(big);
  pcl_value *marked[2] = {three_i, secret_big};
  err = NULL;
  CHECK_SHOW(pcl_fn_min(marked, 2, &err), err, "secret(3)");
  pcl_value *unknown[2] = {three_i, pcl_unknown()};
  err = NULL;
  CHECK_SHOW(pcl_fn_max(unknown, 2, &err), err, "unknown");
  pcl_release(big);
  pcl_release(dbl);
  pcl_release(three_d);
  pcl_release(three_i);
  pcl_release(inf);
  pcl_release(secret_big);
  BLEAK_END;
}

void register_builtins_coll_tests(void);
void register_builtins_coll_tests(void) {
  CU_pSuite s = CU_add_suite("builtins_coll", NULL, NULL);
  CU_add_test(s, "element", test_element);
  CU_add_test(s, "element errors", test_element_errors);
  CU_add_test(s, "element marks", test_element_marks);
  CU_add_test(s, "entries", test_entries);
  CU_add_test(s, "length", test_length);
  CU_add_test(s, "lookup", test_lookup);
  CU_add_test(s, "join", test_join);
  CU_add_test(s, "split", test_split);
  CU_add_test(s, "range", test_range);
  CU_add_test(s, "range errors", test_range_errors);
  CU_add_test(s, "singleOrNone", test_single_or_none);
  CU_add_test(s, "min and max", test_min_max);
  CU_add_test(s, "min and max exactness", test_min_max_exact);
}
