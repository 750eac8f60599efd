/* util: allocation that never fails, hashing, Unicode normalisation, paths
 * and internal-error reporting. */
#include "base/util.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gmp.h>
#include <jansson.h>

/* The temporary output file to remove if pclc runs out of memory, or NULL. */
static const char *temp_file;

void util_set_temp_file(const char *path) { temp_file = path; }

/* Running out of memory is an error of the run, not a bug: pclc says so and
 * exits with status 2, as for an input it cannot read, leaving no partial
 * output file behind.  This is pclc's definition of common/'s hook. */
_Noreturn void pcl__out_of_memory(size_t n) {
  fprintf(stderr, "pclc: error: out of memory (allocating %zu bytes)\n", n);
  if (temp_file)
    unlink(temp_file);
  exit(2);
}

void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p)
    pcl__out_of_memory(n);
  return p;
}

void *xcalloc(size_t count, size_t size) {
  if (size && count > SIZE_MAX / size)
    pcl__out_of_memory(SIZE_MAX);
  void *p = calloc(count ? count : 1, size ? size : 1);
  if (!p)
    pcl__out_of_memory(count * size);
  return p;
}

void *xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q)
    pcl__out_of_memory(n);
  return q;
}

/* The allocation functions of GMP and jansson, which report a failure to
   their caller (jansson) or abort (GMP) by themselves. */
static void *gmp_alloc(size_t n) { return xmalloc(n); }
static void *gmp_realloc(void *p, size_t old, size_t n) {
  (void)old;
  return xrealloc(p, n);
}
static void gmp_free(void *p, size_t n) {
  (void)n;
  free(p);
}

void util_route_allocations(void) {
  mp_set_memory_functions(gmp_alloc, gmp_realloc, gmp_free);
  json_set_alloc_funcs(xmalloc, free);
}

char *xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  return memcpy(xmalloc(n), s, n);
}

/* Each eight-byte word (the last one padded with zeros) is mixed in with a
 * multiplication, and a final avalanche spreads every input bit over the low
 * bits that choose a slot.  Keys hashed here are names, constants, type keys
 * and the emitter's keys of whole shapes (some hundreds of bytes), so a byte
 * at a time would cost several instructions a byte. */
uint64_t util_hash(const void *s, size_t n) {
  const unsigned char *b = s;
  const uint64_t k = 0x9E3779B97F4A7C15u;
  uint64_t h = k ^ n;
  size_t i = 0;
  for (; n - i >= 8; i += 8) {
    uint64_t w;
    memcpy(&w, b + i, sizeof w);
    h = (h ^ w) * k;
    h ^= h >> 32;
  }
  uint64_t w = 0;
  for (size_t j = 0; i + j < n; j++)
    w |= (uint64_t)b[i + j] << (8 * j);
  h = (h ^ w) * k;
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9u;
  h ^= h >> 32;
  return h;
}

void util_ice(const char *file, int line, const char *fmt, ...) {
  fprintf(stderr, "internal compiler error at %s:%d: ", file, line);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  abort();
}

const char *path_base(const char *path, size_t *len) {
  size_t end = strlen(path);
  while (end > 1 && path[end - 1] == '/')
    end--;
  const char *base = path;
  for (size_t i = 0; i < end; i++) {
    if (path[i] == '/')
      base = path + i + 1;
  }
  *len = (size_t)(path + end - base);
  return base;
}
