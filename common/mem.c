/* mem: exhaustion and array growth shared by pclc, libpclrt and the
 * language host (see mem.h). */
#include "mem.h"

#include <stdint.h>
#include <stdlib.h>

/* The capacity, in elements, of an array's first allocation. */
enum { GROW_MIN = 8 };

void *pcl__grow(void *items, size_t *cap, size_t n, size_t size) {
  size_t ncap = *cap > 0 ? *cap : GROW_MIN;
  while (ncap < n) {
    ncap = ncap <= SIZE_MAX / 2 ? 2 * ncap : n;
  }
  if (size > 0 && ncap > SIZE_MAX / size) {
    /* Doubling may overshoot what fits when n itself does: n is the need. */
    if (n > SIZE_MAX / size) {
      pcl__out_of_memory(SIZE_MAX);
    }
    ncap = SIZE_MAX / size;
  }
  items = realloc(items, ncap * size == 0 ? 1 : ncap * size);
  if (items == NULL) {
    pcl__out_of_memory(ncap * size);
  }
  *cap = ncap;
  return items;
}
