/* test_ptrmap.c: the pointer-keyed hash map (compiler/base/ptrmap.h).
 *
 * Keys are the addresses of array elements, as interned names and types
 * are in the compiler; enough of them are stored to make the table grow
 * several times, and every lookup is checked after each growth. */
#include <CUnit/CUnit.h>

#include "base/ptrmap.h"

enum { NKEYS = 1000 };

/* Distinct addresses to use as keys and values. */
static char keys[NKEYS], vals[NKEYS];

/* An empty map finds nothing; stored keys are found after growth; a second
   put replaces; free leaves the map empty and reusable. */
static void test_put_get_replace(void) {
  ptrmap m = {0};
  CU_ASSERT_PTR_NULL(ptrmap_get(&m, &keys[0]));
  for (size_t i = 0; i < NKEYS; i++) {
    ptrmap_put(&m, &keys[i], &vals[i]);
    CU_ASSERT_EQUAL(m.count, i + 1);
    CU_ASSERT(m.count * 2 <= m.cap);
  }
  size_t found = 0;
  for (size_t i = 0; i < NKEYS; i++)
    found += ptrmap_get(&m, &keys[i]) == &vals[i];
  CU_ASSERT_EQUAL(found, NKEYS);
  CU_ASSERT_PTR_NULL(ptrmap_get(&m, &vals[0]));
  ptrmap_put(&m, &keys[7], &vals[8]);
  CU_ASSERT_EQUAL(m.count, NKEYS);
  CU_ASSERT_PTR_EQUAL(ptrmap_get(&m, &keys[7]), &vals[8]);
  ptrmap_free(&m);
  CU_ASSERT_EQUAL(m.count, 0);
  CU_ASSERT_PTR_NULL(ptrmap_get(&m, &keys[7]));
  ptrmap_put(&m, &keys[1], &vals[1]);
  CU_ASSERT_PTR_EQUAL(ptrmap_get(&m, &keys[1]), &vals[1]);
  ptrmap_free(&m);
}

void register_ptrmap_tests(void);
void register_ptrmap_tests(void) {
  CU_pSuite s = CU_add_suite("ptrmap", NULL, NULL);
  CU_add_test(s, "put, get, replace, free", test_put_get_replace);
}
