/* cw: a small C writer for the emitter.
 *
 * A cw is common/'s growable text buffer (buf.h): the emitter writes each section of the
 * translation unit into its own buffer and concatenates them at the end, so
 * that tables can be filled in one pass and printed in dependency order.
 * The writer knows what C text must respect: cw_cstring writes bytes as a
 * C string literal that any C11 compiler reads back byte for byte
 * (printable ASCII as is, everything else as three-digit octal escapes, `?`
 * escaped against trigraphs); cw_comment writes text that can neither end
 * the comment it is in nor open one; cw_mangle makes a C identifier of a
 * name of the program, one to one (STYLE.md §11): the emitter prefixes it
 * with `pclu_`, so that it can collide neither with the runtime's `pcl_`
 * names nor with the compiler's own `pclg_` ones, and never starts with an
 * underscore. */
#ifndef PCLC_CW_H
#define PCLC_CW_H

#include <stddef.h>

#include "buf.h"

/* The text being written: common/'s byte buffer, PCL__BUF_INIT when empty,
 * written with pcl__buf_puts, pcl__buf_printf and the functions below. */
typedef pcl__buf cw;

/* Appends v in decimal. */
void cw_uint(cw *w, unsigned long long v);
/* Appends s[0..len) as a C string literal (with the quotes). */
void cw_cstring(cw *w, const char *s, size_t len);
/* Appends the name s as the rest of a C identifier, one to one: letters
 * and digits as they are, `_` as `__`, `-` as `_d`, any other byte as
 * `_x<two hex digits>` (`my-key` is `my_dkey`). */
void cw_mangle(cw *w, const char *s);
/* Appends s, or the byte c, as comment text: a `/` after a `*` or a `*`
 * after a `/` gets a backslash between them. */
void cw_comment(cw *w, const char *s);
void cw_comment_char(cw *w, char c);

#endif
