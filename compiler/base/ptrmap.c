/* ptrmap: pointer-keyed hash map (see ptrmap.h).
 *
 * Invariant: count * 2 <= cap whenever cap > 0, so every probe sequence
 * reaches an empty slot and lookups of absent keys terminate. */
#include "base/ptrmap.h"

#include <stdint.h>
#include <stdlib.h>

#include "base/util.h"

/* Mixes the bits of a pointer: the low ones are always zero for aligned
   objects, so the address alone would crowd the first slots. */
static size_t ptr_hash(const void *p) {
  uint64_t h = (uint64_t)(uintptr_t)p;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdu;
  h ^= h >> 33;
  return (size_t)h;
}

void *ptrmap_get(const ptrmap *m, const void *key) {
  if (!m->cap)
    return NULL;
  for (size_t i = ptr_hash(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
    if (!m->keys[i])
      return NULL;
    if (m->keys[i] == key)
      return m->vals[i];
  }
}

/* Moves every entry into arrays of twice the size. */
static void grow(ptrmap *m) {
  size_t ncap = m->cap ? m->cap * 2 : 64;
  const void **nkeys = xcalloc(ncap, sizeof *nkeys);
  void **nvals = xcalloc(ncap, sizeof *nvals);
  for (size_t i = 0; i < m->cap; i++) {
    if (!m->keys[i])
      continue;
    size_t j = ptr_hash(m->keys[i]) & (ncap - 1);
    while (nkeys[j])
      j = (j + 1) & (ncap - 1);
    nkeys[j] = m->keys[i];
    nvals[j] = m->vals[i];
  }
  free(m->keys);
  free(m->vals);
  m->keys = nkeys;
  m->vals = nvals;
  m->cap = ncap;
}

void ptrmap_put(ptrmap *m, const void *key, void *val) {
  if ((m->count + 1) * 2 > m->cap)
    grow(m);
  size_t i = ptr_hash(key) & (m->cap - 1);
  while (m->keys[i] && m->keys[i] != key)
    i = (i + 1) & (m->cap - 1);
  if (!m->keys[i])
    m->count++;
  m->keys[i] = key;
  m->vals[i] = val;
}

void ptrmap_free(ptrmap *m) {
  free(m->keys);
  free(m->vals);
  *m = (ptrmap){0};
}
