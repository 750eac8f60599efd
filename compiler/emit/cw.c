/* cw: the C writer's numbers, string literals, comments and names over
 * common/'s buffer (see cw.h). */
#include "emit/cw.h"

void cw_uint(cw *w, unsigned long long v) {
  char buf[24];
  size_t i = sizeof buf;
  do {
    buf[--i] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  pcl__buf_append(w, buf + i, sizeof buf - i);
}

void cw_cstring(cw *w, const char *s, size_t len) {
  char *p = pcl__buf_reserve(w, 4 * len + 2) + w->len;
  *p++ = '"';
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\' || c == '?') {
      *p++ = '\\';
      *p++ = (char)c;
    } else if (c >= 0x20 && c < 0x7f) {
      *p++ = (char)c;
    } else {
      *p++ = '\\';
      *p++ = (char)('0' + ((c >> 6) & 7));
      *p++ = (char)('0' + ((c >> 3) & 7));
      *p++ = (char)('0' + (c & 7));
    }
  }
  *p++ = '"';
  *p = '\0';
  w->len = (size_t)(p - w->data);
}

void cw_mangle(cw *w, const char *s) {
  static const char hex[] = "0123456789abcdef";
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')) {
      pcl__buf_append(w, (const char *)p, 1);
    } else if (*p == '_') {
      pcl__buf_append(w, "__", 2);
    } else if (*p == '-') {
      pcl__buf_append(w, "_d", 2);
    } else {
      char esc[4] = {'_', 'x', hex[*p >> 4], hex[*p & 15]};
      pcl__buf_append(w, esc, 4);
    }
  }
}

void cw_comment_char(cw *w, char c) {
  char prev = w->len ? w->data[w->len - 1] : '\0';
  if ((c == '/' && prev == '*') || (c == '*' && prev == '/'))
    pcl__buf_append(w, "\\", 1);
  pcl__buf_append(w, &c, 1);
}

void cw_comment(cw *w, const char *s) {
  for (const char *p = s; *p; p++)
    cw_comment_char(w, *p);
}
