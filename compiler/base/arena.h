/* arena: bump allocation for everything that lives as long as a compilation.
 *
 * AST, type and IR nodes and interned strings are allocated from an arena and
 * never freed one by one; arena_free releases a whole arena at once.  Blocks
 * are aligned to 8 bytes, which suits everything the compiler allocates
 * (pointers, sizes, doubles, 64-bit integers), not to max_align_t's 16:
 * most blocks are small (nodes, strings, child arrays), and rounding each
 * to 16 bytes would waste several megabytes on a large program.  Nothing
 * that needs more (long double, vector types) may be allocated here. */
#ifndef PCLC_ARENA_H
#define PCLC_ARENA_H

#include <stddef.h>

typedef struct arena_chunk arena_chunk;

typedef struct arena {
  arena_chunk *chunks; /* Most recent chunk first; allocation happens in the first. */
  size_t used;         /* Total bytes handed out, for statistics. */
} arena;

/* Initialises an empty arena; no memory is taken until the first allocation. */
void arena_init(arena *a);
/* Releases every block of the arena; the arena may be reused afterwards. */
void arena_free(arena *a);
/* Returns n uninitialised bytes owned by the arena. */
void *arena_alloc(arena *a, size_t n);
/* Returns n zeroed bytes owned by the arena. */
void *arena_zalloc(arena *a, size_t n);
/* Returns an arena copy of the n bytes at s, followed by a NUL byte. */
char *arena_strndup(arena *a, const char *s, size_t n);
/* Returns an arena copy of the NUL-terminated string s. */
char *arena_strdup(arena *a, const char *s);
/* Returns an arena string formatted as by printf. */
char *arena_printf(arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Allocates one zeroed object of type T, or n of them. */
#define ARENA_NEW(a, T) ((T *)arena_zalloc((a), sizeof(T)))
#define ARENA_NEW_ARRAY(a, T, n) ((T *)arena_zalloc((a), sizeof(T) * (n)))

#endif
