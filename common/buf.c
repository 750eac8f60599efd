/* buf: the byte buffer and the formatter (see buf.h). */
#include "buf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"

/* The first allocation of a buffer: most hold a name, a key or a short
 * message, which then fit without growing. */
enum { BUF_MIN = 64 };

char *pcl__buf_grow(pcl__buf *b, size_t more) {
  if (more >= SIZE_MAX - b->len) {
    pcl__out_of_memory(SIZE_MAX);
  }
  size_t need = b->len + more + 1;
  if (need > b->cap) {
    b->data = pcl__grow(b->data, &b->cap, need < BUF_MIN ? BUF_MIN : need, 1);
    b->data[b->len] = '\0';
  }
  return b->data;
}

void pcl__buf_vprintf(pcl__buf *b, const char *fmt, va_list ap) {
  /* Formatted straight into the free space, and once more after growing
     when it did not fit: most texts fit, so most are formatted once. */
  va_list again;
  va_copy(again, ap);
  char *data = pcl__buf_reserve(b, 0);
  size_t room = b->cap - b->len;
  int n = vsnprintf(data + b->len, room, fmt, ap);
  if (n < 0) {
    /* With formats checked at compile time, vsnprintf fails only for a
       text longer than INT_MAX bytes: more than any buffer may hold. */
    pcl__out_of_memory(SIZE_MAX);
  }
  if ((size_t)n >= room) {
    data = pcl__buf_reserve(b, (size_t)n);
    vsnprintf(data + b->len, (size_t)n + 1, fmt, again);
  }
  va_end(again);
  b->len += (size_t)n;
}

void pcl__buf_printf(pcl__buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  pcl__buf_vprintf(b, fmt, ap);
  va_end(ap);
}

char *pcl__buf_take(pcl__buf *b) {
  char *s = pcl__buf_reserve(b, 0);
  *b = (pcl__buf)PCL__BUF_INIT;
  return s;
}

void pcl__buf_free(pcl__buf *b) {
  free(b->data);
  *b = (pcl__buf)PCL__BUF_INIT;
}

char *pcl__vformat(const char *fmt, va_list ap) {
  pcl__buf b = PCL__BUF_INIT;
  pcl__buf_vprintf(&b, fmt, ap);
  return pcl__buf_take(&b);
}

char *pcl__format(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = pcl__vformat(fmt, ap);
  va_end(ap);
  return s;
}
