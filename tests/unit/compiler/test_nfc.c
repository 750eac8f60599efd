/* Tests of common/nfc.c: the NFC form both sides give string values. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "nfc.h"

/* Checks the NFC form of s: want, or NULL when s is kept as it is. */
static void check(const char *s, size_t len, const char *want) {
  size_t n = 0;
  char *got = pcl__nfc(s, len, xmalloc, &n);
  if (want == NULL) {
    CU_ASSERT_PTR_NULL(got);
  } else {
    CU_ASSERT_PTR_NOT_NULL_FATAL(got);
    CU_ASSERT_EQUAL(n, strlen(want));
    CU_ASSERT_EQUAL(memcmp(got, want, n), 0);
    CU_ASSERT_EQUAL(got[n], '\0');
  }
  free(got);
}

static void test_nfc(void) {
  /* e + COMBINING ACUTE ACCENT composes to U+00E9. */
  check("caf" "e\xCC\x81", 6, "caf\xC3\xA9");
  /* Already composed text comes back equal; Hangul jamo compose. */
  check("\xC3\xA9t\xC3\xA9", 5, "\xC3\xA9t\xC3\xA9");
  check("\xE1\x84\x80\xE1\x85\xA1", 6, "\xEA\xB0\x80");
  /* ASCII is NFC already: kept as it is, with a NUL inside too. */
  check("plain", 5, NULL);
  check("a\0b", 3, NULL);
  /* Bytes that are not UTF-8 are the caller's to report or mend. */
  check("a\xFF", 2, NULL);
  check("\xC3", 1, NULL);
}

void register_nfc_tests(void);
void register_nfc_tests(void) {
  CU_pSuite s = CU_add_suite("nfc", NULL, NULL);
  CU_add_test(s, "NFC of UTF-8 text", test_nfc);
}
