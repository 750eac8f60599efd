/* nfc: the Unicode NFC form of UTF-8 text, the one normaliser that the
 * compiler and the runtime share (HCL makes every string value NFC,
 * DECISIONS.md D9), through utf8proc (D8).
 *
 * The caller passes its allocator, which never returns NULL (pclc's and
 * libpclrt's each end the process with their own message when memory runs
 * out), so that the module needs no error path of its own.  Its names have
 * the runtime's internal prefix because it is linked into libpclrt.a; it
 * is not part of the installed API. */
#ifndef PCL_COMMON_NFC_H
#define PCL_COMMON_NFC_H

#include <stddef.h>

/* Returns the NFC form of the UTF-8 text s[0..len) as a new NUL-terminated
 * block from xmalloc (to free()), storing its length in *out_len; or NULL
 * when s is to be kept as it is: pure ASCII (always NFC) or bytes that are
 * not valid UTF-8, which the caller tells apart when it matters. */
char *pcl__nfc(const char *s, size_t len, void *(*xmalloc)(size_t), size_t *out_len);

#endif
