/* intern: open addressing with linear probing over util_hash.  The table's
 * iteration order is never exposed, so it cannot leak into output. */
#include "base/intern.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

void intern_init(intern_table *t, arena *a) {
  t->arena = a;
  t->cap = 1024;
  t->count = 0;
  t->slots = xcalloc(t->cap, sizeof *t->slots);
  t->lengths = xcalloc(t->cap, sizeof *t->lengths);
}

void intern_free(intern_table *t) {
  free(t->slots);
  free(t->lengths);
  t->slots = NULL;
  t->lengths = NULL;
  t->cap = t->count = 0;
}

static void grow(intern_table *t) {
  size_t cap = t->cap * 2;
  const char **slots = xcalloc(cap, sizeof *slots);
  size_t *lengths = xcalloc(cap, sizeof *lengths);
  for (size_t i = 0; i < t->cap; i++) {
    if (!t->slots[i])
      continue;
    size_t j = util_hash(t->slots[i], t->lengths[i]) & (cap - 1);
    while (slots[j])
      j = (j + 1) & (cap - 1);
    slots[j] = t->slots[i];
    lengths[j] = t->lengths[i];
  }
  free(t->slots);
  free(t->lengths);
  t->slots = slots;
  t->lengths = lengths;
  t->cap = cap;
}

const char *intern_n(intern_table *t, const char *s, size_t n) {
  if (2 * (t->count + 1) > t->cap)
    grow(t);
  size_t j = util_hash(s, n) & (t->cap - 1);
  while (t->slots[j]) {
    if (t->lengths[j] == n && memcmp(t->slots[j], s, n) == 0)
      return t->slots[j];
    j = (j + 1) & (t->cap - 1);
  }
  t->slots[j] = arena_strndup(t->arena, s, n);
  t->lengths[j] = n;
  t->count++;
  return t->slots[j];
}

const char *intern(intern_table *t, const char *s) {
  return intern_n(t, s, strlen(s));
}
