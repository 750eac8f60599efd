/* Unit tests of the shared suggestion module (common/suggest.c): the edit
 * distance with transpositions, gcc's cutoff, the first of equally close
 * candidates, and the names too short or too long for a suggestion. */
#include <CUnit/CUnit.h>
#include <string.h>

#include "suggest.h"

static size_t distance(const char *a, const char *b) {
  return pcl__edit_distance(a, strlen(a), b, strlen(b), PCL__SUGGEST_MAX_LEN);
}

/* Returns the suggestion for goal among the NULL-terminated candidates,
 * or "" when there is none. */
static const char *suggest(const char *goal, const char *const *cands) {
  pcl__suggest sg;
  pcl__suggest_init(&sg, goal, strlen(goal));
  for (size_t i = 0; cands[i]; i++)
    pcl__suggest_offer(&sg, cands[i], strlen(cands[i]));
  const char *best = pcl__suggest_best(&sg, NULL);
  return best ? best : "";
}

static void test_distance(void) {
  CU_ASSERT_EQUAL(distance("bucket", "bucket"), 0);
  CU_ASSERT_EQUAL(distance("bucket", "buckt"), 1);   /* A deletion. */
  CU_ASSERT_EQUAL(distance("bucket", "buckets"), 1); /* An insertion. */
  CU_ASSERT_EQUAL(distance("bucket", "bucker"), 1);  /* A substitution. */
  CU_ASSERT_EQUAL(distance("bucket", "bukcet"), 1);  /* A transposition. */
  CU_ASSERT_EQUAL(distance("", "abc"), 3);
  CU_ASSERT_EQUAL(distance("kitten", "sitting"), 3);
  /* Past max the answer only says so. */
  CU_ASSERT(pcl__edit_distance("abcdef", 6, "uvwxyz", 6, 2) > 2);
}

static void test_suggestions(void) {
  static const char *const names[] = {"bucket", "bucketName", "length", "item", "b", NULL};
  CU_ASSERT_STRING_EQUAL(suggest("buckt", names), "bucket");
  CU_ASSERT_STRING_EQUAL(suggest("bucketNmae", names), "bucketName");
  CU_ASSERT_STRING_EQUAL(suggest("lenght", names), "length");
  CU_ASSERT_STRING_EQUAL(suggest("itme", names), "item");
  /* Too far: a third of the longer name is the cutoff. */
  CU_ASSERT_STRING_EQUAL(suggest("nope", names), "");
  CU_ASSERT_STRING_EQUAL(suggest("totallyDifferent", names), "");
  /* One-letter names get no suggestion, and the name itself is none. */
  CU_ASSERT_STRING_EQUAL(suggest("a", names), "");
  static const char *const same[] = {"bucket", NULL};
  CU_ASSERT_STRING_EQUAL(suggest("bucket", same), "");
  /* The closest wins; among equals the first offered. */
  static const char *const close[] = {"abcd", "abce", "abc", NULL};
  CU_ASSERT_STRING_EQUAL(suggest("abcx", close), "abcd");
  static const char *const closer[] = {"abxy", "abcd", NULL};
  CU_ASSERT_STRING_EQUAL(suggest("abcdx", closer), "abcd");
  /* Names longer than PCL__SUGGEST_MAX_LEN are not compared. */
  char longer[PCL__SUGGEST_MAX_LEN + 2];
  memset(longer, 'a', sizeof longer - 1);
  longer[sizeof longer - 1] = 0;
  const char *const one[] = {longer, NULL};
  char goal[sizeof longer];
  memcpy(goal, longer, sizeof longer);
  goal[0] = 'b';
  CU_ASSERT_STRING_EQUAL(suggest(goal, one), "");
}

void register_suggest_tests(void);
void register_suggest_tests(void) {
  CU_pSuite s = CU_add_suite("suggest", NULL, NULL);
  CU_add_test(s, "edit distance", test_distance);
  CU_add_test(s, "suggestions", test_suggestions);
}
