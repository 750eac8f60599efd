/* ptrmap: a hash map from pointers to pointers, compared by address.
 *
 * The compiler interns names and types, so a table keyed by those pointers
 * answers "what is declared under this name" or "what was cached for this
 * type" in constant time.  The map uses open addressing with linear probing
 * and doubles before it becomes half full.  Keys and values are borrowed
 * (never freed); only the two arrays are owned.  NULL is neither a valid key
 * nor a distinguishable value.  Iteration is not offered, so table order can
 * never reach the output. */
#ifndef PCLC_PTRMAP_H
#define PCLC_PTRMAP_H

#include <stddef.h>

/* A map; a zero-initialised ptrmap is empty and ready to use. */
typedef struct ptrmap {
  const void **keys; /* Keys by slot; NULL marks an empty slot (owned array). */
  void **vals;       /* The value of the key in the same slot (owned array). */
  size_t cap;        /* Number of slots: zero or a power of two. */
  size_t count;      /* Number of keys stored. */
} ptrmap;

/* Returns the value stored for key (not NULL), or NULL when there is none. */
void *ptrmap_get(const ptrmap *m, const void *key);
/* Stores val for key (neither is copied), replacing any earlier value. */
void ptrmap_put(ptrmap *m, const void *key, void *val);
/* Frees the arrays of m and leaves it empty; keys and values are untouched. */
void ptrmap_free(ptrmap *m);

#endif
