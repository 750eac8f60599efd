/* intern: a table that maps byte strings to unique arena copies, so that
 * interned strings (identifiers, property names) compare by pointer. */
#ifndef PCLC_INTERN_H
#define PCLC_INTERN_H

#include <stddef.h>

#include "base/arena.h"

typedef struct intern_table {
  arena *arena;          /* Where the strings live (borrowed). */
  const char **slots;    /* Open-addressing table of interned strings. */
  size_t *lengths;       /* Byte length of each slot's string. */
  size_t cap, count;     /* Slot count (a power of two) and strings stored. */
} intern_table;

/* Initialises an empty table whose strings are allocated from a. */
void intern_init(intern_table *t, arena *a);
/* Frees the table's index; the strings stay in the arena. */
void intern_free(intern_table *t);
/* Returns the unique NUL-terminated copy of the n bytes at s. */
const char *intern_n(intern_table *t, const char *s, size_t n);
/* Returns the unique copy of the NUL-terminated string s. */
const char *intern(intern_table *t, const char *s);

#endif
