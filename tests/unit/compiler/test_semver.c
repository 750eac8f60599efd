/* Unit tests of the shared semver module (common/semver.c): the three
 * dialects, every problem it reports, and semver.org's precedence rules. */
#include <CUnit/CUnit.h>
#include <string.h>

#include "semver.h"
#include "base/util.h"

/* Parses s in the given dialect; returns the problem or NULL. */
static const char *parse(const char *s, unsigned flags, pcl__semver *v) {
  return pcl__semver_parse(s, strlen(s), flags, v);
}

/* Asserts that s is a version in the dialect with these parts and
   pre-release text. */
static void expect_version(const char *s, unsigned flags, unsigned long long major,
                           unsigned long long minor, unsigned long long patch, const char *pre) {
  pcl__semver v;
  const char *why = parse(s, flags, &v);
  CU_ASSERT_PTR_NULL(why);
  if (why) {
    fprintf(stderr, "\n%s: %s\n", s, why);
    return;
  }
  CU_ASSERT_EQUAL(v.part[0], major);
  CU_ASSERT_EQUAL(v.part[1], minor);
  CU_ASSERT_EQUAL(v.part[2], patch);
  CU_ASSERT_EQUAL(v.pre_len, strlen(pre));
  CU_ASSERT_EQUAL(memcmp(v.pre, pre, v.pre_len), 0);
  CU_ASSERT_EQUAL(v.wild, 3);
}

/* Asserts that s is not a version in the dialect, for the given reason. */
static void expect_problem(const char *s, unsigned flags, const char *reason) {
  pcl__semver v;
  const char *why = parse(s, flags, &v);
  CU_ASSERT_PTR_NOT_NULL(why);
  if (!why) {
    fprintf(stderr, "\n%s parsed\n", s);
    return;
  }
  CU_ASSERT_STRING_EQUAL(why, reason);
}

static void test_strict(void) {
  expect_version("1.2.3", 0, 1, 2, 3, "");
  expect_version("0.0.0", 0, 0, 0, 0, "");
  expect_version("10.20.30", 0, 10, 20, 30, "");
  expect_version("1.0.0-alpha.1", 0, 1, 0, 0, "alpha.1");
  expect_version("1.0.0-x-y.0.beta", 0, 1, 0, 0, "x-y.0.beta");
  expect_version("1.0.0+exp.sha.5114f85", 0, 1, 0, 0, "");
  expect_version("3.0.0-alpha.1.internal+exp.sha.12345678", 0, 3, 0, 0, "alpha.1.internal");
  expect_version("18446744073709551615.0.0", 0, 18446744073709551615ull, 0, 0, "");
  expect_problem("", 0, "expected MAJOR.MINOR.PATCH");
  expect_problem("1", 0, "expected MAJOR.MINOR.PATCH");
  expect_problem("1.2", 0, "expected MAJOR.MINOR.PATCH");
  expect_problem("0.1", 0, "expected MAJOR.MINOR.PATCH");
  expect_problem("1..2", 0, "expected MAJOR.MINOR.PATCH");
  expect_problem("2.x", 0, "expected MAJOR.MINOR.PATCH");
  expect_problem("v1.2.3", 0, "expected MAJOR.MINOR.PATCH");
  expect_problem("01.2.3", 0, "leading zeros are not allowed");
  expect_problem("1.02.3", 0, "leading zeros are not allowed");
  expect_problem("1.2.03", 0, "leading zeros are not allowed");
  expect_problem("1.2.3-01", 0, "leading zeros are not allowed");
  expect_problem("1.2.3-", 0, "empty pre-release or build part");
  expect_problem("1.2.3+", 0, "empty pre-release or build part");
  expect_problem("1.2.3-a..b", 0, "empty pre-release or build part");
  expect_problem("1.2.3-a.", 0, "empty pre-release or build part");
  expect_problem("1.2.3-+b", 0, "empty pre-release or build part");
  expect_problem("1.2.3-a_b", 0, "invalid character in pre-release or build part");
  expect_problem("1.2.3+a+b", 0, "invalid character in pre-release or build part");
  expect_problem("1.2.3.4", 0, "unexpected text after the version");
  expect_problem("1.2.3 ", 0, "unexpected text after the version");
  expect_problem("18446744073709551616.0.0", 0, "version number too large");
  /* The length given is the version: what follows is not read. */
  pcl__semver v;
  CU_ASSERT_PTR_NULL(pcl__semver_parse("1.2.3-rc.1.json", 10, 0, &v));
  CU_ASSERT_EQUAL(v.pre_len, 4);
}

static void test_loose(void) {
  expect_version("v1.10.0", PCL__SEMVER_LOOSE, 1, 10, 0, "");
  expect_version("01.002.3", PCL__SEMVER_LOOSE, 1, 2, 3, "");
  expect_version("1.2.3-01", PCL__SEMVER_LOOSE, 1, 2, 3, "01");
  expect_problem("vv1.2.3", PCL__SEMVER_LOOSE, "expected MAJOR.MINOR.PATCH");
  expect_problem("1.2.x", PCL__SEMVER_LOOSE, "expected MAJOR.MINOR.PATCH");
}

static void test_wildcard(void) {
  pcl__semver v;
  CU_ASSERT_PTR_NULL(parse("3.x", PCL__SEMVER_WILDCARD, &v));
  CU_ASSERT_EQUAL(v.wild, 1);
  CU_ASSERT_EQUAL(v.part[0], 3);
  CU_ASSERT_PTR_NULL(parse("3.1.X", PCL__SEMVER_WILDCARD, &v));
  CU_ASSERT_EQUAL(v.wild, 2);
  CU_ASSERT_PTR_NULL(parse("3.*.x", PCL__SEMVER_WILDCARD, &v));
  CU_ASSERT_EQUAL(v.wild, 1);
  CU_ASSERT_PTR_NULL(parse("*", PCL__SEMVER_WILDCARD, &v));
  CU_ASSERT_EQUAL(v.wild, 0);
  expect_version("3.1.2", PCL__SEMVER_WILDCARD, 3, 1, 2, "");
  expect_problem("3.x.1", PCL__SEMVER_WILDCARD, "expected MAJOR.MINOR.PATCH");
  expect_problem("3.x.x.x", PCL__SEMVER_WILDCARD, "unexpected text after the version");
  expect_problem("3.1.x-beta", PCL__SEMVER_WILDCARD, "unexpected text after the version");
}

/* semver.org §11: each version is lower than the next. */
static void test_precedence(void) {
  static const char *const order[] = {
      "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2",
      "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0", "2.0.0", "2.1.0", "2.1.1", "10.0.0"};
  for (size_t i = 0; i < ARRAY_LEN(order); i++) {
    for (size_t j = 0; j < ARRAY_LEN(order); j++) {
      pcl__semver a, b;
      CU_ASSERT_PTR_NULL(parse(order[i], 0, &a));
      CU_ASSERT_PTR_NULL(parse(order[j], 0, &b));
      int want = i < j ? -1 : i > j;
      CU_ASSERT_EQUAL(pcl__semver_cmp(&a, &b), want);
    }
  }
  /* Build metadata does not count; numeric identifiers compare by value. */
  pcl__semver a, b;
  CU_ASSERT_PTR_NULL(parse("1.0.0+a", 0, &a));
  CU_ASSERT_PTR_NULL(parse("1.0.0+b", 0, &b));
  CU_ASSERT_EQUAL(pcl__semver_cmp(&a, &b), 0);
  CU_ASSERT_PTR_NULL(parse("1.0.0-007", PCL__SEMVER_LOOSE, &a));
  CU_ASSERT_PTR_NULL(parse("1.0.0-7", 0, &b));
  CU_ASSERT_EQUAL(pcl__semver_cmp(&a, &b), 0);
  CU_ASSERT(pcl__semver_same("v1.2.3", "1.2.3"));
  CU_ASSERT(pcl__semver_same("1.2.3+x", "1.2.3"));
  CU_ASSERT(!pcl__semver_same("1.2.3", "1.2.4"));
  CU_ASSERT(!pcl__semver_same("1.2.3-rc", "1.2.3"));
  /* Text that is not a version compares as text. */
  CU_ASSERT(pcl__semver_same("latest", "latest"));
  CU_ASSERT(!pcl__semver_same("latest", "1.2.3"));
}

void register_semver_tests(void);
void register_semver_tests(void) {
  CU_pSuite s = CU_add_suite("semver", NULL, NULL);
  CU_add_test(s, "strict", test_strict);
  CU_add_test(s, "loose", test_loose);
  CU_add_test(s, "wildcard", test_wildcard);
  CU_add_test(s, "precedence", test_precedence);
}
