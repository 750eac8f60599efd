/* cw: a small C writer for the emitter.
 *
 * A cw is a growable text buffer: the emitter writes each section of the
 * translation unit into its own buffer and concatenates them at the end, so
 * that tables can be filled in one pass and printed in dependency order.
 * cw_cstring writes bytes as a C string literal that any C11 compiler reads
 * back byte for byte (printable ASCII as is, everything else as three-digit
 * octal escapes, `?` escaped against trigraphs).
 *
 * Generated identifiers are never derived from PCL names: user names only
 * ever appear inside string literals of the static tables, and every C
 * identifier the emitter makes is `pclg_<section><n>`, so no name mangling is
 * needed and no generated name can collide with the runtime's (`pcl_`) or
 * start with an underscore. */
#ifndef PCLC_CW_H
#define PCLC_CW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* A text buffer; CW_INIT (all zero) is empty. */
typedef struct cw {
  char *data; /* The text (owned, NUL-terminated once anything was written). */
  size_t len; /* Bytes used. */
  size_t cap; /* Bytes allocated. */
} cw;

/* The empty buffer. */
#define CW_INIT {NULL, 0, 0}

/* Appends printf-formatted text. */
void cw_printf(cw *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends the NUL-terminated s. */
void cw_puts(cw *w, const char *s);
/* Appends v in decimal. */
void cw_uint(cw *w, unsigned long long v);
/* Appends the bytes s[0..len) as they are. */
void cw_bytes(cw *w, const char *s, size_t len);
/* Appends s[0..len) as a C string literal (with the quotes). */
void cw_cstring(cw *w, const char *s, size_t len);
/* Appends the contents of other. */
void cw_append(cw *w, const cw *other);
/* Frees the buffer and empties it. */
void cw_free(cw *w);

#endif
