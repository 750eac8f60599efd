/* intern: open addressing with linear probing and a multiplicative hash
 * that reads eight bytes at a time.  The table's iteration order is never
 * exposed, so it cannot leak into output. */
#include "intern.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Hashes s[0..n): each eight-byte word (the last one padded with zeros) is
 * mixed in with a multiplication, and a final avalanche spreads every input
 * bit over the low bits that choose the slot.  Strings interned here are
 * names, constants and the emitter's keys of whole shapes, some hundreds of
 * bytes long, so a byte at a time would cost several instructions a byte. */
static uint64_t hash_bytes(const char *s, size_t n) {
  const uint64_t k = 0x9E3779B97F4A7C15u;
  uint64_t h = k ^ n;
  size_t i = 0;
  for (; n - i >= 8; i += 8) {
    uint64_t w;
    memcpy(&w, s + i, sizeof w);
    h = (h ^ w) * k;
    h ^= h >> 32;
  }
  uint64_t w = 0;
  for (size_t j = 0; i + j < n; j++)
    w |= (uint64_t)(unsigned char)s[i + j] << (8 * j);
  h = (h ^ w) * k;
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9u;
  h ^= h >> 32;
  return h;
}

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
    size_t j = hash_bytes(t->slots[i], t->lengths[i]) & (cap - 1);
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
  size_t j = hash_bytes(s, n) & (t->cap - 1);
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
