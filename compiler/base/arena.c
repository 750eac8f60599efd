/* arena: bump allocation in chunks that grow geometrically up to a cap;
 * oversized requests get a chunk of their own. */
#include "base/arena.h"

#include <stdalign.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "buf.h"

struct arena_chunk {
  arena_chunk *next; /* Older chunk. */
  size_t size;       /* Usable bytes in data. */
  size_t pos;        /* Bytes already handed out. */
  alignas(max_align_t) unsigned char data[];
};

enum { FIRST_CHUNK = 16 * 1024, MAX_CHUNK = 4 * 1024 * 1024 };

/* The alignment of every block (see arena.h); chunks start at max_align_t
   alignment, and the sizes handed out are rounded up to multiples of it. */
enum { ARENA_ALIGN = 8 };
_Static_assert(alignof(void *) <= ARENA_ALIGN && alignof(double) <= ARENA_ALIGN &&
                   alignof(uint64_t) <= ARENA_ALIGN && alignof(size_t) <= ARENA_ALIGN,
               "arena blocks must suit pointers, doubles and 64-bit integers");

void arena_init(arena *a) {
  a->chunks = NULL;
  a->used = 0;
}

void arena_free(arena *a) {
  arena_chunk *c = a->chunks;
  while (c) {
    arena_chunk *next = c->next;
    free(c);
    c = next;
  }
  arena_init(a);
}

static arena_chunk *new_chunk(arena *a, size_t need) {
  size_t size = a->chunks ? a->chunks->size * 2 : FIRST_CHUNK;
  if (size > MAX_CHUNK)
    size = MAX_CHUNK;
  if (size < need)
    size = need;
  arena_chunk *c = xmalloc(sizeof *c + size);
  c->size = size;
  c->pos = 0;
  /* A chunk made for one huge request goes behind the current one so the
     current chunk's free space is not wasted. */
  if (a->chunks && need > MAX_CHUNK / 2) {
    c->next = a->chunks->next;
    a->chunks->next = c;
  } else {
    c->next = a->chunks;
    a->chunks = c;
  }
  return c;
}

void *arena_alloc(arena *a, size_t n) {
  n = (n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
  arena_chunk *c = a->chunks;
  if (!c || c->size - c->pos < n) {
    c = new_chunk(a, n);
    if (c != a->chunks) {
      c->pos = n;
      a->used += n;
      return c->data;
    }
  }
  void *p = c->data + c->pos;
  c->pos += n;
  a->used += n;
  return p;
}

void *arena_zalloc(arena *a, size_t n) {
  return memset(arena_alloc(a, n), 0, n);
}

char *arena_strndup(arena *a, const char *s, size_t n) {
  char *p = arena_alloc(a, n + 1);
  if (n)
    memcpy(p, s, n);
  p[n] = '\0';
  return p;
}

char *arena_strdup(arena *a, const char *s) {
  return arena_strndup(a, s, strlen(s));
}

char *arena_printf(arena *a, const char *fmt, ...) {
  pcl__buf b = PCL__BUF_INIT;
  va_list ap;
  va_start(ap, fmt);
  pcl__buf_vprintf(&b, fmt, ap);
  va_end(ap);
  char *p = arena_strndup(a, b.data, b.len);
  pcl__buf_free(&b);
  return p;
}
