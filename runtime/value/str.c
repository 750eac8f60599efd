/* str.c: string values and the string builder.
 *
 * Every string value is in Unicode NFC (DECISIONS.md D9): the constructors
 * validate and normalise through utf8proc, except that pure ASCII text,
 * which is always NFC, is copied without calling it.  Strings are valid
 * UTF-8, with one exception: pcl_str_from_bytes keeps the bytes that are not
 * UTF-8 of text that comes from outside (a provider's output), so that they
 * pass through unchanged as the reference passes them; its valid runs are
 * NFC all the same.  A heap
 * string keeps its bytes, NUL-terminated, in the value's own block; the
 * length is explicit, so a string may contain NUL.  Strings compare by
 * bytes; length counts extended grapheme clusters. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "nfc.h"
#include "value/pcl_internal.h"

bool pcl__is_ascii(const char *s, size_t len) {
  /* Eight bytes at a time: every string made is checked. */
  uint64_t high = 0;
  size_t i = 0;
  for (; i + 8 <= len; i += 8) {
    uint64_t w;
    memcpy(&w, s + i, 8);
    high |= w;
  }
  for (; i < len; i++) {
    high |= (unsigned char)s[i];
  }
  return (high & 0x8080808080808080u) == 0;
}

pcl_value *pcl__str_raw(const char *s, size_t len, bool ascii) {
  pcl_value *v = pcl__value_alloc(PCL_T_STRING, len + 1);
  char *p = (char *)(v + 1);
  if (len > 0) {
    memcpy(p, s, len);
  }
  p[len] = '\0';
  v->flags = ascii ? PCL_F_ASCII : 0;
  v->u.str.len = len;
  v->u.str.ptr = p;
  return v;
}

/* Returns the NFC string of valid UTF-8, or NULL when the bytes are not
 * valid UTF-8. */
static pcl_value *str_nfc(const char *s, size_t len) {
  size_t n = 0;
  char *out = pcl__nfc(s, len, pcl_xmalloc, &n);
  if (out == NULL) {
    return pcl__is_ascii(s, len) ? pcl__str_raw(s, len, true) : NULL;
  }
  pcl_value *v = pcl__str_raw(out, n, false);
  free(out);
  return v;
}

/* Returns the length of the longest prefix of s[0..len) that is valid
 * UTF-8, i.e. the offset of the first byte that does not start a valid
 * sequence (len when there is none). */
static size_t valid_prefix(const char *s, size_t len) {
  size_t i = 0;
  while (i < len) {
    utf8proc_int32_t cp;
    utf8proc_ssize_t k =
        utf8proc_iterate((const utf8proc_uint8_t *)s + i, (utf8proc_ssize_t)(len - i), &cp);
    if (k <= 0) {
      break;
    }
    i += (size_t)k;
  }
  return i;
}

pcl_value *pcl_str_new(const char *s, size_t len, pcl_error **err) {
  if (pcl__is_ascii(s, len)) {
    return pcl__str_raw(s, len, true);
  }
  pcl_value *v = str_nfc(s, len);
  if (v == NULL) {
    *err = pcl_error_new("invalid UTF-8 in string at byte %zu", valid_prefix(s, len));
  }
  return v;
}

/* Returns the string of s[0..len), which is not valid UTF-8: each valid run
 * normalised to NFC on its own, and each byte that does not start a valid
 * sequence replaced by U+FFFD (lossy) or kept as it is.  Both a bad byte and
 * U+FFFD separate the runs: neither composes with its neighbours, so this is
 * also the NFC of the whole (as in Go's norm). */
static pcl_value *str_mend(const char *s, size_t len, bool lossy) {
  pcl_strbuf b = PCL_STRBUF_INIT;
  size_t i = 0;
  while (i < len) {
    size_t k = valid_prefix(s + i, len - i);
    if (k > 0) {
      pcl_value *run = str_nfc(s + i, k);
      pcl_strbuf_append(&b, run->u.str.ptr, run->u.str.len);
      pcl_release(run);
      i += k;
    }
    if (i < len) {
      pcl_strbuf_append(&b, lossy ? "\xEF\xBF\xBD" : s + i, lossy ? 3 : 1);
      i++;
    }
  }
  pcl_value *v = pcl__str_raw(b.data, b.len, false);
  pcl_strbuf_free(&b);
  return v;
}

pcl_value *pcl__str_new_unnormalised(const char *s, size_t len, pcl_error **err) {
  bool ascii = pcl__is_ascii(s, len);
  if (!ascii && valid_prefix(s, len) != len) {
    *err = pcl_error_new("invalid UTF-8 in string at byte %zu", valid_prefix(s, len));
    return NULL;
  }
  return pcl__str_raw(s, len, ascii);
}

pcl_value *pcl_str_new_lossy(const char *s, size_t len) {
  if (pcl__is_ascii(s, len)) {
    return pcl__str_raw(s, len, true);
  }
  pcl_value *v = str_nfc(s, len);
  return v != NULL ? v : str_mend(s, len, true);
}

pcl_value *pcl_str_from_bytes(const char *s, size_t len) {
  if (pcl__is_ascii(s, len)) {
    return pcl__str_raw(s, len, true);
  }
  pcl_value *v = str_nfc(s, len);
  return v != NULL ? v : str_mend(s, len, false);
}

pcl_value *pcl_str_from_cstr(const char *s) { return pcl_str_new_lossy(s, strlen(s)); }

/* Returns v without its SECRET marks. */
static const pcl_value *unmarked_str(const pcl_value *v) {
  while (v->kind == PCL_T_SECRET) {
    v = v->u.ref.a;
  }
  return v;
}

pcl_value *pcl__str_join(pcl_value *const *parts, size_t n, pcl_error **err) {
  size_t len = 0;
  bool ascii = true;
  for (size_t i = 0; i < n; i++) {
    const pcl_value *s = unmarked_str(parts[i]);
    len += s->u.str.len;
    ascii = ascii && (s->flags & PCL_F_ASCII);
  }
  if (!pcl__value_fits(len, "the string", err)) {
    return NULL;
  }
  /* The bytes go straight into the value's block; only text that is not
   * known to be ASCII is checked, and normalised when it is not (a
   * combining mark at the start of a part may compose with the part
   * before). */
  pcl_value *v = pcl__value_alloc(PCL_T_STRING, len + 1);
  char *p = (char *)(v + 1);
  size_t at = 0;
  for (size_t i = 0; i < n; i++) {
    const pcl_value *s = unmarked_str(parts[i]);
    memcpy(p + at, s->u.str.ptr, s->u.str.len);
    at += s->u.str.len;
  }
  p[len] = '\0';
  v->u.str.len = len;
  v->u.str.ptr = p;
  if (ascii || pcl__is_ascii(p, len)) {
    v->flags = PCL_F_ASCII;
    return v;
  }
  pcl_value *nfc = pcl_str_new(p, len, err);
  pcl_release(v);
  return nfc;
}

pcl_value *pcl_str_concat(const pcl_value *a, const pcl_value *b) {
  if (b->u.str.len == 0) {
    return pcl_retain((pcl_value *)a);
  }
  if (a->u.str.len == 0) {
    return pcl_retain((pcl_value *)b);
  }
  pcl_strbuf buf = PCL_STRBUF_INIT;
  pcl_strbuf_append(&buf, a->u.str.ptr, a->u.str.len);
  pcl_strbuf_append(&buf, b->u.str.ptr, b->u.str.len);
  pcl_value *v;
  if ((a->flags & PCL_F_ASCII) && (b->flags & PCL_F_ASCII)) {
    v = pcl__str_raw(buf.data, buf.len, true);
  } else {
    /* Only NFC may change at the seam (a combining mark at the start of
     * b); bytes that are not UTF-8 (pcl_str_from_bytes) are kept. */
    v = pcl_str_from_bytes(buf.data, buf.len);
  }
  pcl_strbuf_free(&buf);
  return v;
}

bool pcl_str_eq_cstr(const pcl_value *v, const char *s) {
  size_t n = strlen(s);
  return v->u.str.len == n && memcmp(v->u.str.ptr, s, n) == 0;
}

size_t pcl_str_graphemes(const pcl_value *v) {
  const char *s = v->u.str.ptr;
  size_t len = v->u.str.len;
  if ((v->flags & PCL_F_ASCII) || pcl__is_ascii(s, len)) {
    /* In ASCII only CR LF joins two characters into one cluster. */
    size_t count = len;
    for (size_t i = 0; i + 1 < len; i++) {
      if (s[i] == '\r' && s[i + 1] == '\n') {
        count--;
      }
    }
    return count;
  }
  size_t count = 0, i = 0;
  utf8proc_int32_t prev = -1, state = 0;
  while (i < len) {
    utf8proc_int32_t cp;
    utf8proc_ssize_t k =
        utf8proc_iterate((const utf8proc_uint8_t *)s + i, (utf8proc_ssize_t)(len - i), &cp);
    if (k <= 0) {
      /* A byte that is not UTF-8 (pcl_str_from_bytes) counts on its own. */
      count++;
      i++;
      prev = -1;
      continue;
    }
    if (prev < 0 || utf8proc_grapheme_break_stateful(prev, cp, &state)) {
      count++;
    }
    prev = cp;
    i += (size_t)k;
  }
  return count;
}

/* ---------------------------------------------------------------- strbuf */

void pcl_strbuf_init(pcl_strbuf *b) { *b = (pcl_strbuf)PCL_STRBUF_INIT; }

/* The public buffer's operations are common/'s buffer (buf.h), whose fields
 * pcl_strbuf repeats in pcl.h: the fields are moved into a pcl__buf for the
 * operation and back, so that the two structs never alias. */
static pcl__buf to_common(const pcl_strbuf *b) { return (pcl__buf){b->data, b->len, b->cap}; }

static void from_common(pcl_strbuf *b, const pcl__buf *c) {
  b->data = c->data;
  b->len = c->len;
  b->cap = c->cap;
}

void pcl_strbuf_append(pcl_strbuf *b, const char *s, size_t n) {
  pcl__buf c = to_common(b);
  pcl__buf_append(&c, s, n);
  from_common(b, &c);
}

void pcl_strbuf_append_cstr(pcl_strbuf *b, const char *s) { pcl_strbuf_append(b, s, strlen(s)); }

void pcl_strbuf_append_char(pcl_strbuf *b, char c) { pcl_strbuf_append(b, &c, 1); }

void pcl_strbuf_appendf(pcl_strbuf *b, const char *fmt, ...) {
  pcl__buf c = to_common(b);
  va_list ap;
  va_start(ap, fmt);
  pcl__buf_vprintf(&c, fmt, ap);
  va_end(ap);
  from_common(b, &c);
}

bool pcl_strbuf_append_value(pcl_strbuf *b, const pcl_value *v, pcl_error **err) {
  while (v->kind == PCL_T_SECRET) {
    v = v->u.ref.a;
  }
  switch (pcl_kind_of(v)) {
  case PCL_T_STRING:
    if (!pcl__value_fits(b->len + v->u.str.len, "the string", err)) {
      return false;
    }
    pcl_strbuf_append(b, v->u.str.ptr, v->u.str.len);
    return true;
  case PCL_T_INT:
    if (!pcl__value_fits(b->len + pcl__int_text_bound(v), "the string", err)) {
      return false;
    }
    pcl_int_format(b, v);
    return true;
  case PCL_T_NUMBER:
    pcl_number_format(b, v->u.d);
    return true;
  case PCL_T_BOOL:
    pcl_strbuf_append_cstr(b, v->u.b ? "true" : "false");
    return true;
  case PCL_T_NULL:
    *err = pcl_error_new("invalid template interpolation value: the expression result is null");
    return false;
  case PCL_T_UNKNOWN:
  case PCL_T_EVENTUAL:
    *err = pcl_error_new("invalid template interpolation value: the value is not known");
    return false;
  case PCL_T_LIST:
  case PCL_T_MAP:
  case PCL_T_SET:
  case PCL_T_RESOURCE:
  case PCL_T_ASSET:
  case PCL_T_ARCHIVE:
  case PCL_T_SECRET:
    break;
  }
  *err = pcl_error_new("invalid template interpolation value: cannot include a %s in a string",
                       pcl_kind_name(pcl_kind_of(v)));
  return false;
}

pcl_value *pcl_strbuf_finish(pcl_strbuf *b, pcl_error **err) {
  if (!pcl__value_fits(b->len, "the string", err)) {
    pcl_strbuf_free(b);
    return NULL;
  }
  pcl_value *v = pcl_str_new(b->data != NULL ? b->data : "", b->len, err);
  pcl_strbuf_free(b);
  return v;
}

void pcl_strbuf_free(pcl_strbuf *b) {
  free(b->data);
  *b = (pcl_strbuf)PCL_STRBUF_INIT;
}
