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
 * The first slabs are small, from malloc, so that a small program stays
 * small.  Past HUGE_AFTER bytes, a slab is a 2 MiB region mapped on its own
 * and marked for transparent huge pages where the system offers them
 * (Linux's madvise): a large run then faults its memory in 2 MiB at a
 * time, where faults of 4 KiB pages took a fifth of its time.
 *
 * Memory given to the pool stays with it for the life of the process (it
 * is reused, not returned): the malloc'd slabs are chained from a static
 * list, so leak checkers see them as reachable.  Larger blocks go to
 * malloc and free.
 * A build with AddressSanitizer passes every block to malloc and free, so
 * that a use after free or an overflow is still caught.
 *
 * Like the rest of the runtime, the pool is single-threaded. */
/* madvise and MADV_HUGEPAGE are not POSIX. */
#define _DEFAULT_SOURCE

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "value/pcl_internal.h"

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
/* The sizes of the slabs new blocks are cut from: small ones first, huge
 * ones (where the system has them) once the pool holds HUGE_AFTER bytes. */
#define SLAB_SIZE ((size_t)64 * 1024)
#define HUGE_SLAB ((size_t)2 * 1024 * 1024)
#define HUGE_AFTER ((size_t)4 * 1024 * 1024)

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
static size_t pooled;                        /* Bytes of slabs made so far. */

/* Returns the class of a block of size bytes (1..POOL_MAX). */
static size_t size_class(size_t size) { return (size - 1) / POOL_STEP; }

/* Returns a region of HUGE_SLAB bytes aligned to its size, marked for
 * huge pages, or NULL where there are none or mapping fails. */
static unsigned char *huge_slab(void) {
#ifdef MADV_HUGEPAGE
  /* Twice the size is mapped, and what lies outside the aligned middle is
   * unmapped again. */
  unsigned char *m =
      mmap(NULL, 2 * HUGE_SLAB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) {
    return NULL;
  }
  uintptr_t start = ((uintptr_t)m + HUGE_SLAB - 1) & ~(uintptr_t)(HUGE_SLAB - 1);
  unsigned char *p = m + (start - (uintptr_t)m);
  if (p > m) {
    munmap(m, (size_t)(p - m));
  }
  if (p + HUGE_SLAB < m + 2 * HUGE_SLAB) {
    munmap(p + HUGE_SLAB, (size_t)(m + 2 * HUGE_SLAB - (p + HUGE_SLAB)));
  }
  /* Only advice: without transparent huge pages the region is used as it
   * is. */
  madvise(p, HUGE_SLAB, MADV_HUGEPAGE);
  return p;
#else
  return NULL;
#endif
}

/* Returns a new block of class c, cut from the newest slab or a new one. */
static void *cut_block(size_t c) {
  size_t size = (c + 1) * POOL_STEP;
  if ((size_t)(cut_end - cut) < size) {
    /* The rest of the old slab, smaller than one block, is left unused. */
    unsigned char *huge = pooled >= HUGE_AFTER ? huge_slab() : NULL;
    if (huge != NULL) {
      cut = huge;
      cut_end = huge + HUGE_SLAB;
      pooled += HUGE_SLAB;
    } else {
      slab *s = pcl_xmalloc(sizeof *s + SLAB_SIZE);
      s->prev = slabs;
      slabs = s;
      cut = s->mem;
      cut_end = s->mem + SLAB_SIZE;
      pooled += SLAB_SIZE;
    }
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
