/* pool.c: free lists of small blocks for the objects a run makes by the
 * hundred thousand: values, futures, joins, waiters, environments.
 *
 * A run of a large program allocates and frees several small blocks per
 * resource, of a handful of sizes, and keeps most of them until the end.
 * malloc keeps only a few freed blocks of each size at hand; past them a
 * free goes to its bins, where sorting and coalescing cost more than the
 * allocation did, and the next block of that size comes from somewhere
 * else in memory.  Here a freed block goes on the free list of its size
 * class (16-byte steps up to POOL_MAX bytes) and the next allocation of
 * that class takes it back, the most recently freed first, while its
 * memory is still in the cache; new blocks are cut from slabs, in the
 * order they are asked for.
 *
 * Memory given to the pool stays with it for the life of the process (it
 * is reused, not returned): the slabs are chained from a static list, so
 * leak checkers see it as reachable.  Larger blocks go to malloc and free.
 * A build with AddressSanitizer passes every block to malloc and free, so
 * that a use after free or an overflow is still caught.
 *
 * Like the rest of the runtime, the pool is single-threaded. */
#include <stdlib.h>

#include "pcl_internal.h"

#if defined(__SANITIZE_ADDRESS__)
#define POOLED 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define POOLED 0
#endif
#endif
#ifndef POOLED
#define POOLED 1
#endif

/* Blocks up to this many bytes are pooled, in classes of POOL_STEP. */
enum { POOL_STEP = 16, POOL_MAX = 256, POOL_CLASSES = POOL_MAX / POOL_STEP };
/* The size of a slab, which new blocks are cut from. */
enum { SLAB_SIZE = 64 * 1024 };

/* A free block: the next free block of its class. */
typedef struct free_block {
  struct free_block *next;
} free_block;

/* A slab: the previous slab, then the blocks cut from it. */
typedef struct slab {
  struct slab *prev;              /* The slab made before this one. */
  _Alignas(16) unsigned char mem[]; /* The blocks. */
} slab;

static free_block *free_lists[POOL_CLASSES]; /* Free blocks by class. */
static slab *slabs;                          /* The newest slab. */
static unsigned char *cut;                   /* Where the next new block starts. */
static unsigned char *cut_end;               /* The end of the newest slab. */

/* Returns the class of a block of size bytes (1..POOL_MAX). */
static size_t size_class(size_t size) { return (size - 1) / POOL_STEP; }

/* Returns a new block of class c, cut from the newest slab or a new one. */
static void *cut_block(size_t c) {
  size_t size = (c + 1) * POOL_STEP;
  if ((size_t)(cut_end - cut) < size) {
    /* The rest of the old slab, smaller than one block, is left unused. */
    slab *s = pcl_xmalloc(sizeof *s + SLAB_SIZE);
    s->prev = slabs;
    slabs = s;
    cut = s->mem;
    cut_end = s->mem + SLAB_SIZE;
  }
  void *p = cut;
  cut += size;
  return p;
}

void *pcl__pool_alloc(size_t size) {
  if (!POOLED || size == 0 || size > POOL_MAX) {
    return pcl_xmalloc(size);
  }
  size_t c = size_class(size);
  free_block *b = free_lists[c];
  if (b == NULL) {
    return cut_block(c);
  }
  free_lists[c] = b->next;
  return b;
}

void pcl__pool_free(void *p, size_t size) {
  if (!POOLED || size == 0 || size > POOL_MAX) {
    free(p);
    return;
  }
  if (p == NULL) {
    return;
  }
  size_t c = size_class(size);
  free_block *b = p;
  b->next = free_lists[c];
  free_lists[c] = b;
}
