/* jscan: the validating JSON scan that indexes object members (see
 * jscan.h).  A recursive descent over the text, at most JSCAN_MAX_DEPTH
 * levels deep; only the first problem is kept, later ones being its
 * consequences. */
#include "schema/jscan.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

void jscan_members_free(jscan_members *m) {
  for (size_t i = 0; i < m->count; i++) {
    if (m->items[i].json)
      json_decref(m->items[i].json);
  }
  free(m->items);
  ptrmap_free(&m->index);
  m->items = NULL;
  m->count = m->cap = 0;
}

jscan_member *jscan_find(const jscan_members *m, const char *key) {
  uintptr_t i = (uintptr_t)ptrmap_get(&m->index, key);
  return i ? &m->items[i - 1] : NULL;
}

/* Records a member; a duplicate key replaces the earlier value. */
static void member_add(jscan_members *m, const char *key, uint32_t start, uint32_t end,
                       char kind) {
  jscan_member *e = jscan_find(m, key);
  if (!e) {
    PCL__GROW(m->items, m->cap, m->count + 1);
    e = &m->items[m->count++];
    ptrmap_put(&m->index, key, (void *)(uintptr_t)m->count);
  }
  *e = (jscan_member){key, start, end, kind, false, NULL};
}

/* A validating scanner over JSON text (RFC 8259 structure, strings,
 * escapes, numbers, literals; UTF-8 is left to jansson), which records the
 * members of the objects it is asked to. */
typedef struct jscan {
  intern_table *names;  /* Interns keys (borrowed). */
  const char *base, *p, *end; /* The text, the scan position and the end. */
  const char *err;      /* First error: a static description, or NULL. */
  const char *err_at;   /* Where it is. */
  bool err_char;        /* The description is followed by the character at err_at. */
  int depth;            /* Current nesting. */
  size_t nsections;     /* Section members recorded besides the top level: */
  const char *const *section_names; /* their interned keys */
  jscan_members *const *sections;   /* and where their members go. */
} jscan;

/* Records the first error only (later ones are consequences) and returns
 * false, so that scanners can `return scan_fail(...)`. */
static bool scan_fail(jscan *j, const char *at, const char *msg, bool show_char) {
  if (!j->err) {
    j->err = msg;
    j->err_at = at;
    j->err_char = show_char && at < j->end;
  }
  return false;
}

static void scan_ws(jscan *j) {
  while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r'))
    j->p++;
}

static bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

static bool is_hex(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* Scans a string starting at its opening quote. */
static bool scan_string(jscan *j) {
  /* Bytes that end the fast path: the quote, the backslash and controls. */
  static const bool special[256] = {
      [0] = 1,  [1] = 1,  [2] = 1,  [3] = 1,  [4] = 1,  [5] = 1,   [6] = 1,   [7] = 1,  [8] = 1,
      [9] = 1,  [10] = 1, [11] = 1, [12] = 1, [13] = 1, [14] = 1,  [15] = 1,  [16] = 1, [17] = 1,
      [18] = 1, [19] = 1, [20] = 1, [21] = 1, [22] = 1, [23] = 1,  [24] = 1,  [25] = 1, [26] = 1,
      [27] = 1, [28] = 1, [29] = 1, [30] = 1, [31] = 1, ['"'] = 1, ['\\'] = 1};
  const char *p = j->p + 1;
  for (;;) {
    while (p < j->end && !special[(unsigned char)*p])
      p++;
    if (p >= j->end)
      return scan_fail(j, j->p, "unterminated string", false);
    unsigned char c = (unsigned char)*p;
    if (c == '"') {
      j->p = p + 1;
      return true;
    }
    if (c < 0x20)
      return scan_fail(j, p, "control character in string", false);
    if (c == '\\') {
      if (p + 1 >= j->end)
        return scan_fail(j, j->p, "unterminated string", false);
      char e = p[1];
      if (e == 'u') {
        for (int k = 2; k < 6; k++) {
          if (p + k >= j->end || !is_hex(p[k]))
            return scan_fail(j, p, "invalid \\u escape in string", false);
        }
        p += 6;
        continue;
      }
      if (!e || !strchr("\"\\/bfnrt", e))
        return scan_fail(j, p, "invalid escape in string", false);
      p += 2;
      continue;
    }
    p++;
  }
}

/* Scans a number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static bool scan_number(jscan *j) {
  const char *p = j->p;
  if (*p == '-')
    p++;
  if (p >= j->end || !is_digit(*p))
    return scan_fail(j, j->p, "invalid number", false);
  if (*p == '0')
    p++;
  else
    while (p < j->end && is_digit(*p))
      p++;
  if (p < j->end && *p == '.') {
    p++;
    if (p >= j->end || !is_digit(*p))
      return scan_fail(j, j->p, "invalid number", false);
    while (p < j->end && is_digit(*p))
      p++;
  }
  if (p < j->end && (*p == 'e' || *p == 'E')) {
    p++;
    if (p < j->end && (*p == '+' || *p == '-'))
      p++;
    if (p >= j->end || !is_digit(*p))
      return scan_fail(j, j->p, "invalid number", false);
    while (p < j->end && is_digit(*p))
      p++;
  }
  j->p = p;
  return true;
}

/* Scans one of the literals true, false and null. */
static bool scan_literal(jscan *j, const char *word) {
  size_t n = strlen(word);
  if ((size_t)(j->end - j->p) < n || memcmp(j->p, word, n) != 0)
    return scan_fail(j, j->p, "unexpected character", true);
  j->p += n;
  return true;
}

static bool scan_value(jscan *j);

/* Returns the interned key of the string token [q, end) (quotes included). */
static const char *scan_key(jscan *j, const char *q, const char *end) {
  if (!memchr(q, '\\', (size_t)(end - q)))
    return intern_n(j->names, q + 1, (size_t)(end - q - 2));
  json_error_t err;
  json_t *v = json_loadb(q, (size_t)(end - q), JSON_DECODE_ANY, &err);
  const char *key = json_is_string(v)
                        ? intern_n(j->names, json_string_value(v), json_string_length(v))
                        : intern_n(j->names, q + 1, (size_t)(end - q - 2));
  if (v)
    json_decref(v);
  return key;
}

/* Consumes the closing bracket `close` of the object or array being
 * scanned and leaves its nesting level; returns false, consuming nothing,
 * when the next character is something else. */
static bool scan_close(jscan *j, char close) {
  if (j->p >= j->end || *j->p != close)
    return false;
  j->p++;
  j->depth--;
  return true;
}

/* Scans an object; its members are recorded in rec when rec is not NULL,
 * and, at the top level, the members of the section objects too. */
static bool scan_object(jscan *j, jscan_members *rec, bool top) {
  if (++j->depth > JSCAN_MAX_DEPTH)
    return scan_fail(j, j->p, "nesting too deep", false);
  j->p++;
  scan_ws(j);
  if (scan_close(j, '}'))
    return true;
  for (;;) {
    scan_ws(j);
    if (j->p >= j->end || *j->p != '"')
      return scan_fail(j, j->p, j->p >= j->end ? "unexpected end of file" : "expected a string key",
                       false);
    const char *q = j->p;
    if (!scan_string(j))
      return false;
    const char *key = rec ? scan_key(j, q, j->p) : NULL;
    scan_ws(j);
    if (j->p >= j->end || *j->p != ':')
      return scan_fail(j, j->p, "expected ':'", false);
    j->p++;
    scan_ws(j);
    const char *v = j->p;
    jscan_members *sub = NULL;
    if (top && v < j->end && *v == '{') {
      for (size_t i = 0; i < j->nsections && !sub; i++) {
        if (key == j->section_names[i])
          sub = j->sections[i];
      }
    }
    if (!(sub ? scan_object(j, sub, false) : scan_value(j)))
      return false;
    if (rec)
      member_add(rec, key, (uint32_t)(v - j->base), (uint32_t)(j->p - j->base), v < j->end ? *v : 0);
    scan_ws(j);
    if (j->p < j->end && *j->p == ',') {
      j->p++;
      continue;
    }
    if (scan_close(j, '}'))
      return true;
    return scan_fail(j, j->p, j->p >= j->end ? "unexpected end of file" : "expected ',' or '}'",
                     false);
  }
}

/* Scans an array starting at its `[`. */
static bool scan_array(jscan *j) {
  if (++j->depth > JSCAN_MAX_DEPTH)
    return scan_fail(j, j->p, "nesting too deep", false);
  j->p++;
  scan_ws(j);
  if (scan_close(j, ']'))
    return true;
  for (;;) {
    if (!scan_value(j))
      return false;
    scan_ws(j);
    if (j->p < j->end && *j->p == ',') {
      j->p++;
      continue;
    }
    if (scan_close(j, ']'))
      return true;
    return scan_fail(j, j->p, j->p >= j->end ? "unexpected end of file" : "expected ',' or ']'",
                     false);
  }
}

/* Scans any value after optional white space. */
static bool scan_value(jscan *j) {
  scan_ws(j);
  if (j->p >= j->end)
    return scan_fail(j, j->p, "unexpected end of file", false);
  switch (*j->p) {
  case '{':
    return scan_object(j, NULL, false);
  case '[':
    return scan_array(j);
  case '"':
    return scan_string(j);
  case 't':
    return scan_literal(j, "true");
  case 'f':
    return scan_literal(j, "false");
  case 'n':
    return scan_literal(j, "null");
  default:
    if (*j->p == '-' || is_digit(*j->p))
      return scan_number(j);
    return scan_fail(j, j->p, "unexpected character", true);
  }
}

bool jscan_index(const char *text, size_t len, intern_table *names, jscan_members *top,
                 size_t nsections, const char *const *section_names,
                 jscan_members *const *sections, bool *object, jscan_error *err) {
  const char **interned = xmalloc((nsections ? nsections : 1) * sizeof *interned);
  for (size_t i = 0; i < nsections; i++)
    interned[i] = intern(names, section_names[i]);
  jscan j = {names, text, text, text + len, NULL, NULL, false, 0, nsections, interned, sections};
  scan_ws(&j);
  *object = j.p < j.end && *j.p == '{';
  bool ok = *object ? scan_object(&j, top, true) : scan_value(&j);
  if (ok) {
    scan_ws(&j);
    if (j.p < j.end)
      ok = scan_fail(&j, j.p, "end of file expected", false);
  }
  free(interned);
  if (!ok)
    *err = (jscan_error){j.err, (size_t)(j.err_at - text), j.err_char};
  return ok;
}
