/* nfc: the NFC form of UTF-8 text (see nfc.h).  utf8proc_map would
 * allocate with malloc and report running out of memory as an error; the
 * same two steps with the caller's allocator keep that out of every
 * caller: the decomposition is measured, made into a buffer large enough
 * for the result, then composed and encoded in place. */
#include "nfc.h"

#include <stdlib.h>
#include <utf8proc.h>

char *pcl__nfc(const char *s, size_t len, void *(*xmalloc)(size_t), size_t *out_len) {
  size_t i = 0;
  while (i < len && (unsigned char)s[i] < 0x80) {
    i++;
  }
  if (i == len) {
    return NULL;
  }
  const utf8proc_option_t opts = UTF8PROC_STABLE | UTF8PROC_COMPOSE;
  const utf8proc_uint8_t *in = (const utf8proc_uint8_t *)s;
  utf8proc_ssize_t n = utf8proc_decompose(in, (utf8proc_ssize_t)len, NULL, 0, opts);
  if (n < 0) {
    return NULL;
  }
  /* Code points of 4 bytes each, which also holds the UTF-8 result and its
     NUL, as utf8proc_reencode needs. */
  utf8proc_int32_t *buf = xmalloc((size_t)n * sizeof *buf + 1);
  n = utf8proc_decompose(in, (utf8proc_ssize_t)len, buf, n, opts);
  if (n >= 0) {
    n = utf8proc_reencode(buf, n, opts);
  }
  if (n < 0) {
    free(buf);
    return NULL;
  }
  *out_len = (size_t)n;
  return (char *)buf;
}
