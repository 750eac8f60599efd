/* alloc.c: the allocation of values and of the runtime's memory: the
 * allocators that never return NULL (memory that runs out ends the program
 * with status 2 and a message), GMP's allocation hooks, the counters
 * of live values and bytes, reference counts, and freeing (iterative, so
 * that a deeply nested value cannot overflow the C stack).
 *
 * Invariants: a heap value is one block (struct plus payload) with refs >= 1;
 * static values have refs == 0 and are never freed.  Every heap block and
 * every GMP block is counted in live_bytes, so a program that released
 * everything reads zero.  Like the rest of the runtime, this is
 * single-threaded: reference counts and the counters are not atomic. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "value/pcl_internal.h"

static size_t live_values;
static size_t live_bytes;

/* ------------------------------------------------------------ allocation
 * Memory that runs out ends the program with status 2 and a message, as an
 * I/O error does, never an abort: pcl_main installs a handler that writes
 * the snapshot first (pcl__oom_prepare), with the memory of a reserve it
 * made for that, given back when memory runs out. */

static void (*oom_handler)(size_t n); /* What pcl_main does first, or NULL. */
static void *oom_reserve;              /* Memory kept for the handler, or NULL. */
static bool oom_handling;              /* The handler is running. */

void pcl__oom_prepare(void (*handler)(size_t n), size_t reserve) {
  oom_handler = handler;
  free(oom_reserve);
  /* Never touched, so it costs address space only until it is needed. */
  oom_reserve = reserve > 0 ? malloc(reserve) : NULL;
}

/* libpclrt's definition of common/'s hook (mem.h). */
_Noreturn void pcl__out_of_memory(size_t n) {
  if (oom_handler != NULL && !oom_handling) {
    oom_handling = true;
    free(oom_reserve);
    oom_reserve = NULL;
    oom_handler(n);
    _exit(2);
  }
  fprintf(stderr, "error: out of memory allocating %zu bytes%s\n", n,
          oom_handling ? " while writing the snapshot" : "");
  _exit(2);
}

void *pcl_xmalloc(size_t n) {
  void *p = malloc(n == 0 ? 1 : n);
  if (p == NULL) {
    pcl__out_of_memory(n);
  }
  return p;
}

void *pcl_xcalloc(size_t count, size_t size) {
  void *p = calloc(count == 0 ? 1 : count, size == 0 ? 1 : size);
  if (p == NULL) {
    size_t n;
    pcl__out_of_memory(__builtin_mul_overflow(count, size, &n) ? SIZE_MAX : n);
  }
  return p;
}

void *pcl_xrealloc(void *p, size_t n) {
  void *q = realloc(p, n == 0 ? 1 : n);
  if (q == NULL) {
    pcl__out_of_memory(n);
  }
  return q;
}

char *pcl_xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *p = pcl_xmalloc(n);
  memcpy(p, s, n);
  return p;
}

/* Adds delta (which may be negative) to the counted live bytes. */
static void pcl__count_bytes(long long delta) {
  live_bytes = (size_t)((long long)live_bytes + delta);
}

/* GMP's allocation hooks: the same allocator, with the bytes counted. */
static void *gmp_alloc(size_t n) {
  pcl__count_bytes((long long)n);
  return pcl_xmalloc(n);
}

static void *gmp_realloc(void *p, size_t old_size, size_t new_size) {
  pcl__count_bytes((long long)new_size - (long long)old_size);
  return pcl_xrealloc(p, new_size);
}

static void gmp_free(void *p, size_t n) {
  pcl__count_bytes(-(long long)n);
  free(p);
}

static bool gmp_hooked;

void pcl_values_init(void) {
  if (!gmp_hooked) {
    gmp_hooked = true;
    mp_set_memory_functions(gmp_alloc, gmp_realloc, gmp_free);
  }
}

/* Hooks GMP before main so that no GMP block escapes the count. */
static void values_constructor(void) __attribute__((constructor));
static void values_constructor(void) { pcl_values_init(); }

size_t pcl_rt_live_values(void) { return live_values; }
size_t pcl_rt_live_bytes(void) { return live_bytes; }

bool pcl_values_check_leaks(FILE *f) {
  if (live_values == 0 && live_bytes == 0) {
    return true;
  }
  if (f != NULL) {
    fprintf(f, "pcl: %zu values (%zu bytes) still alive at shutdown\n", live_values,
            live_bytes);
  }
  return false;
}

pcl_value *pcl__value_alloc(pcl_kind kind, size_t extra) {
  size_t n = sizeof(pcl_value) + extra;
  pcl_value *v = pcl__pool_alloc(n);
  memset(v, 0, sizeof *v);
  v->refs = 1;
  v->kind = (uint8_t)kind;
  live_values++;
  live_bytes += n;
  return v;
}

/* Returns the payload bytes of v's block beyond the struct (used to free). */
static size_t pcl__value_extra(const pcl_value *v) {
  switch ((pcl_kind)v->kind) {
  case PCL_T_INT:
    if (v->flags & PCL_F_BIGINT) {
      int64_t size = v->u.big.size;
      return (size_t)(size < 0 ? -size : size) * sizeof(uint64_t);
    }
    return 0;
  case PCL_T_STRING:
    return v->u.str.len + 1;
  case PCL_T_LIST:
  case PCL_T_SET:
    return v->u.list.n * sizeof(pcl_value *);
  case PCL_T_MAP:
    return 2 * v->u.map.n * sizeof(pcl_value *);
  case PCL_T_NULL:
  case PCL_T_BOOL:
  case PCL_T_NUMBER:
  case PCL_T_RESOURCE:
  case PCL_T_ASSET:
  case PCL_T_ARCHIVE:
  case PCL_T_UNKNOWN:
  case PCL_T_SECRET:
  case PCL_T_EVENTUAL:
    return 0;
  }
  return 0;
}

void *pcl__grow_array(void *p, const void *fixed, size_t *cap, size_t elem) {
  size_t old = *cap;
  if (p != fixed) {
    return pcl__grow(p, cap, old + 1, elem);
  }
  void *q = pcl__grow(NULL, cap, old + 1, elem);
  memcpy(q, p, old * elem);
  return q;
}

/* Freeing is iterative so that a deeply nested value cannot overflow the C
 * stack: while one free is in progress, a child whose count drops to zero
 * (pcl_release calls back into pcl__value_free) is pushed here instead of
 * being freed by a nested call, and the outermost call drains the stack.
 * Most values fit the inline slots; a wider or deeper one spills to a heap
 * array that is released when the drain ends. */
#define FREE_INLINE 64
static pcl_value *free_inline[FREE_INLINE]; /* The first pending values. */
static pcl_value **free_stack = free_inline; /* Pending values to free. */
static size_t free_n;                        /* Entries used. */
static size_t free_cap = FREE_INLINE;        /* Entries allocated. */
static bool freeing;                         /* Whether a drain is running. */

/* Adds v to the values the running drain still has to free. */
static void free_push(pcl_value *v) {
  if (free_n == free_cap) {
    free_stack = pcl__grow_array(free_stack, free_inline, &free_cap, sizeof *free_stack);
  }
  free_stack[free_n++] = v;
}

/* Drops v's references to its children, then frees v's block. */
static void free_one(pcl_value *v) {
  switch ((pcl_kind)v->kind) {
  case PCL_T_LIST:
  case PCL_T_SET:
    for (size_t i = 0; i < v->u.list.n; i++) {
      pcl_release(v->u.list.items[i]);
    }
    break;
  case PCL_T_MAP:
    for (size_t i = 0; i < v->u.map.n; i++) {
      pcl_release(v->u.map.keys[i]);
      pcl_release(v->u.map.vals[i]);
    }
    break;
  case PCL_T_RESOURCE:
  case PCL_T_ASSET:
  case PCL_T_ARCHIVE:
  case PCL_T_SECRET:
    pcl_release(v->u.ref.a);
    pcl_release(v->u.ref.b);
    pcl_release(v->u.ref.c);
    break;
  case PCL_T_EVENTUAL:
    v->u.ev.ops->release(v->u.ev.ptr);
    break;
  case PCL_T_NULL:
  case PCL_T_BOOL:
  case PCL_T_INT:
  case PCL_T_NUMBER:
  case PCL_T_STRING:
  case PCL_T_UNKNOWN:
    break;
  }
  size_t n = sizeof(pcl_value) + pcl__value_extra(v);
  live_values--;
  live_bytes -= n;
  pcl__pool_free(v, n);
}

void pcl__value_free(pcl_value *v) {
  if (freeing) {
    free_push(v);
    return;
  }
  freeing = true;
  free_one(v);
  while (free_n > 0) {
    free_one(free_stack[--free_n]);
  }
  if (free_stack != free_inline) {
    free(free_stack);
    free_stack = free_inline;
    free_cap = FREE_INLINE;
  }
  freeing = false;
}

pcl_value *pcl_retain(pcl_value *v) {
  if (v != NULL && v->refs != 0) {
    v->refs++;
  }
  return v;
}

void pcl_release(pcl_value *v) {
  if (v != NULL && v->refs != 0 && --v->refs == 0) {
    pcl__value_free(v);
  }
}
