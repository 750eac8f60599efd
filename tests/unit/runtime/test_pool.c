/* test_pool.c: the free lists of small blocks: blocks of every size up to
 * and past the pooled ones, live together in numbers that take new slabs
 * (the huge ones included), keep their contents apart, and blocks given
 * back are used again without disturbing the live ones. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "value/pcl_internal.h"

/* Blocks live at once: enough for several megabytes in all. */
enum { NBLOCKS = 40000 };

/* The size of block i: every size from 1 to 300 bytes in turn. */
static size_t block_size(size_t i) { return i % 300 + 1; }

/* Fills block i with a byte pattern of its own. */
static void fill(unsigned char *p, size_t i) {
  memset(p, (int)(i * 31 % 251), block_size(i));
}

/* Returns whether block i still holds its pattern. */
static bool intact(const unsigned char *p, size_t i) {
  for (size_t k = 0; k < block_size(i); k++) {
    if (p[k] != (unsigned char)(i * 31 % 251)) {
      return false;
    }
  }
  return true;
}

static void test_blocks(void) {
  unsigned char **blocks = malloc(NBLOCKS * sizeof *blocks);
  CU_ASSERT_PTR_NOT_NULL_FATAL(blocks);
  for (size_t i = 0; i < NBLOCKS; i++) {
    blocks[i] = pcl__pool_alloc(block_size(i));
    fill(blocks[i], i);
  }
  /* Every other block is given back, then taken again for new contents. */
  for (size_t i = 0; i < NBLOCKS; i += 2) {
    pcl__pool_free(blocks[i], block_size(i));
  }
  for (size_t i = 0; i < NBLOCKS; i += 2) {
    blocks[i] = pcl__pool_alloc(block_size(i));
    fill(blocks[i], i);
  }
  size_t bad = 0;
  for (size_t i = 0; i < NBLOCKS; i++) {
    bad += !intact(blocks[i], i);
  }
  CU_ASSERT_EQUAL(bad, 0);
  for (size_t i = 0; i < NBLOCKS; i++) {
    pcl__pool_free(blocks[i], block_size(i));
  }
  pcl__pool_free(NULL, 40);
  free(blocks);
}

void register_pool_tests(void);
void register_pool_tests(void) {
  CU_pSuite s = CU_add_suite("pool", NULL, NULL);
  CU_add_test(s, "blocks of every size", test_blocks);
}
