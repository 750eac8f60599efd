/* buf: the one growable byte buffer and the one printf-style formatter of
 * pclc, libpclrt and the language host.
 *
 * A pcl__buf holds len bytes in data, followed by a NUL once anything was
 * reserved, so that its text reads as a C string; PCL__BUF_INIT (all zero)
 * is empty and owns nothing.  The compiler's C writer, its type keys,
 * lowering's keys, the runtime's pcl_strbuf and error messages, and the
 * host's buffers are all built on it.  Memory that runs out, or a length
 * that would not fit a size_t, ends the program through
 * pcl__out_of_memory (mem.h).  pcl__buf_vprintf is the only caller of
 * vsnprintf in the tree: every formatted string is made here. */
#ifndef PCL_COMMON_BUF_H
#define PCL_COMMON_BUF_H

#include <stdarg.h>
#include <stddef.h>
#include <string.h>

typedef struct pcl__buf {
  char *data; /* The bytes (owned), NULL until the first reserve. */
  size_t len; /* Bytes used, without the terminating NUL. */
  size_t cap; /* Bytes allocated. */
} pcl__buf;

#define PCL__BUF_INIT {NULL, 0, 0}

/* Grows b to hold more bytes after the len used plus a NUL and returns
 * b->data; pcl__buf_reserve's slow path. */
char *pcl__buf_grow(pcl__buf *b, size_t more);

/* Makes room for more bytes after the len used plus a NUL, and returns
 * b->data (never NULL), whose len bytes are unchanged.  Inline, as are the
 * appends: the C writer makes millions of them, and most fit. */
static inline char *pcl__buf_reserve(pcl__buf *b, size_t more) {
  return more < b->cap - b->len ? b->data : pcl__buf_grow(b, more);
}

/* Appends the n bytes at s (which may be NULL when n is 0). */
static inline void pcl__buf_append(pcl__buf *b, const void *s, size_t n) {
  char *data = pcl__buf_reserve(b, n);
  if (n > 0) {
    memcpy(data + b->len, s, n);
  }
  b->len += n;
  data[b->len] = '\0';
}

/* Appends the NUL-terminated s. */
static inline void pcl__buf_puts(pcl__buf *b, const char *s) { pcl__buf_append(b, s, strlen(s)); }

/* Appends the byte c. */
static inline void pcl__buf_putc(pcl__buf *b, char c) { pcl__buf_append(b, &c, 1); }
/* Appends printf-formatted text. */
void pcl__buf_printf(pcl__buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void pcl__buf_vprintf(pcl__buf *b, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
/* Returns the text (NUL-terminated, owned by the caller, never NULL) and
 * empties b. */
char *pcl__buf_take(pcl__buf *b);
/* Frees the bytes and empties b. */
void pcl__buf_free(pcl__buf *b);

/* Returns a new string formatted as printf does; the caller frees it. */
char *pcl__format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *pcl__vformat(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

#endif
