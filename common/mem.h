/* mem: what common/ code does when memory runs out, and the one growth rule
 * of every array in pclc, libpclrt and the language host.
 *
 * Exhaustion is not reported to callers: each program that links common/
 * defines pcl__out_of_memory once (pclc in base/util.c, libpclrt in
 * value/alloc.c, the language host in util.c), with the message and exit
 * that program owes its user, and common/ calls it.  A size whose byte
 * count would not fit a size_t is exhaustion too, so no multiplication
 * wraps.  Names have the runtime's internal prefix because libpclrt.a
 * links this module. */
#ifndef PCL_COMMON_MEM_H
#define PCL_COMMON_MEM_H

#include <stddef.h>

/* Ends the program because n bytes (SIZE_MAX: more than fit a size_t) could
 * not be allocated.  Defined by each program, never by common/. */
_Noreturn void pcl__out_of_memory(size_t n);

/* Returns items (cap elements of size bytes, NULL when cap is 0) resized so
 * that it holds at least n elements, and the new capacity in *cap: the
 * capacity doubles (from 8 elements), so that appending costs amortised
 * constant time; a byte count that would not fit a size_t is exhaustion. */
void *pcl__grow(void *items, size_t *cap, size_t n, size_t size);

/* Makes the array items (of capacity cap, a size_t lvalue) hold at least n
 * elements, growing it with pcl__grow when it is too small:
 *   PCL__GROW(v->items, v->cap, v->n + 1);
 *   v->items[v->n++] = x; */
#define PCL__GROW(items, cap, n)                                                                   \
  ((size_t)(n) > (cap)                                                                             \
       ? (void)((items) = pcl__grow((items), &(cap), (size_t)(n), sizeof *(items)))               \
       : (void)0)

#endif
