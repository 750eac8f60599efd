/* snapshot.c: the JSON encoding of values in snapshots, stack-output
 * printing and mocks files (docs/snapshot.md; the JSON decoder reads it
 * back with PCL_JSON_SNAPSHOT), and Go duration parsing for customTimeouts.
 *
 * Takes values with nested SECRET, UNKNOWN, RESOURCE, ASSET and ARCHIVE
 * kinds; produces deterministic JSON text: map keys in byte order (maps are
 * kept sorted by the value layer), ints with all their digits, numbers in
 * the shortest round-trip form without exponent.  The encoder walks with an
 * explicit stack, so any nesting depth is safe. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "engine/engine.h"
#include "value/pcl_internal.h"

/* Indents are levels of nesting in pretty output, -1 in compact output;
 * past PCL__PRETTY_DEPTH levels the output is compact (deeper). */

/* Starts a new line at indent; nothing for compact output. */
static void newline(pcl_strbuf *b, int indent) {
  if (indent < 0) {
    return;
  }
  pcl_strbuf_append_char(b, '\n');
  for (int i = 0; i < indent; i++) {
    pcl_strbuf_append(b, "  ", 2);
  }
}

/* Returns whether s[0..len) is valid UTF-8. */
static bool valid_utf8(const char *s, size_t len) {
  for (size_t i = 0; i < len;) {
    if ((unsigned char)s[i] < 0x80) {
      i++;
      continue;
    }
    utf8proc_int32_t cp;
    utf8proc_ssize_t k =
        utf8proc_iterate((const utf8proc_uint8_t *)s + i, (utf8proc_ssize_t)(len - i), &cp);
    if (k <= 0) {
      return false;
    }
    i += (size_t)k;
  }
  return true;
}

/* Writes s[0..len) as a JSON string.  A string that is not UTF-8 (made by
 * pcl_str_from_bytes) keeps its bytes: those that are not UTF-8 are written
 * as they are (a reader decodes the file with surrogate escapes), the rest
 * escaped as pcl__json_quote does. */
static void snap_quote(pcl_strbuf *b, const char *s, size_t len) {
  if (valid_utf8(s, len)) {
    pcl__json_quote(b, s, len, false);
    return;
  }
  pcl_strbuf tmp = PCL_STRBUF_INIT;
  pcl_strbuf_append_char(b, '"');
  for (size_t i = 0; i < len;) {
    size_t j = i;
    /* The longest valid run from i, then the invalid bytes after it. */
    while (j < len) {
      if ((unsigned char)s[j] < 0x80) {
        j++;
        continue;
      }
      utf8proc_int32_t cp;
      utf8proc_ssize_t k =
          utf8proc_iterate((const utf8proc_uint8_t *)s + j, (utf8proc_ssize_t)(len - j), &cp);
      if (k <= 0) {
        break;
      }
      j += (size_t)k;
    }
    if (j > i) {
      tmp.len = 0;
      pcl__json_quote(&tmp, s + i, j - i, false);
      pcl_strbuf_append(b, tmp.data + 1, tmp.len - 2);
    }
    i = j;
    while (i < len && (unsigned char)s[i] >= 0x80) {
      utf8proc_int32_t cp;
      if (utf8proc_iterate((const utf8proc_uint8_t *)s + i, (utf8proc_ssize_t)(len - i), &cp) > 0) {
        break;
      }
      pcl_strbuf_append_char(b, s[i++]);
    }
  }
  pcl_strbuf_append_char(b, '"');
  pcl_strbuf_free(&tmp);
}

/* Writes the key of a member at indent (the member's own). */
static void put_key(pcl_strbuf *b, const char *k, size_t len, int indent) {
  snap_quote(b, k, len);
  pcl_strbuf_append(b, indent >= 0 ? ": " : ":", indent >= 0 ? 2 : 1);
}

/* Returns the indent of what is nested k levels inside indent: -1, compact,
 * inside compact output or past PCL__PRETTY_DEPTH levels. */
static int deeper(int indent, int k) {
  return indent >= 0 && indent + k <= PCL__PRETTY_DEPTH ? indent + k : -1;
}

/* Starts the line of the closing bracket of a container at indent k levels
 * inside indent, when its parts were on lines of their own. */
static void close_line(pcl_strbuf *b, int indent, int k) {
  if (deeper(indent, k + 1) >= 0) {
    newline(b, deeper(indent, k));
  }
}

/* A container being written: a list or map, or a wrapper object around
 * one value ({"secret": v}, {"asset": {"hash": ..., "path": v}}). */
typedef struct snap_frame {
  const pcl_value *v;    /* The list or map; NULL for a wrapper. */
  const pcl_value *only; /* A wrapper's value. */
  size_t next;           /* The next part to write. */
  size_t n;              /* The number of parts. */
  int indent;            /* The indent of the container itself. */
  int closes;            /* A wrapper's levels of braces to close. */
} snap_frame;

/* The state of one encoding. */
typedef struct snap_enc {
  pcl_strbuf *b;      /* The output. */
  bool mask;          /* Write "[secret]" for secrets. */
  snap_frame *frames; /* The containers entered, outermost first. */
  size_t n, cap;      /* Entries used and allocated. */
} snap_enc;

/* Enters a container: pushes its frame. */
static void snap_push(snap_enc *e, snap_frame f) {
  PCL__GROW(e->frames, e->cap, e->n + 1);
  e->frames[e->n++] = f;
}

/* Writes {"key": and enters the wrapper whose value v follows. */
static void wrap(snap_enc *e, const char *key, const pcl_value *v, int indent) {
  pcl_strbuf_append_char(e->b, '{');
  newline(e->b, deeper(indent, 1));
  put_key(e->b, key, strlen(key), deeper(indent, 1));
  snap_push(e, (snap_frame){NULL, v, 0, 1, indent, 1});
}

/* Writes {"<wrapper>": {"hash"?: hash, "<field>": and enters the wrapper
 * whose payload follows; hash (64 hex digits) may be NULL. */
static void payload_obj(snap_enc *e, const char *wrapper, const char *field,
                        const pcl_value *payload, const char *hash, int indent) {
  int in = deeper(indent, 1), in2 = deeper(indent, 2);
  pcl_strbuf_append_char(e->b, '{');
  newline(e->b, in);
  put_key(e->b, wrapper, strlen(wrapper), in);
  pcl_strbuf_append_char(e->b, '{');
  if (hash) {
    newline(e->b, in2);
    put_key(e->b, "hash", 4, in2);
    pcl__json_quote(e->b, hash, 64, false);
    pcl_strbuf_append_char(e->b, ',');
  }
  newline(e->b, in2);
  put_key(e->b, field, strlen(field), in2);
  snap_push(e, (snap_frame){NULL, payload, 0, 1, indent, 2});
}

/* Writes v at indent: a scalar whole, a container's opening (entering it). */
static void snap_open(snap_enc *e, const pcl_value *v, int indent) {
  pcl_strbuf *b = e->b;
  switch (pcl_kind_of(v)) {
  case PCL_T_NULL:
    pcl_strbuf_append_cstr(b, "null");
    return;
  case PCL_T_BOOL:
    pcl_strbuf_append_cstr(b, pcl_bool_get(v) ? "true" : "false");
    return;
  case PCL_T_INT:
    pcl_int_format(b, v);
    return;
  case PCL_T_NUMBER:
    if (isinf(pcl_number_get(v))) {
      /* JSON has no infinity; keep the value readable. */
      pcl_strbuf_append_cstr(b, pcl_number_get(v) > 0 ? "\"+Inf\"" : "\"-Inf\"");
    } else {
      pcl_number_format(b, pcl_number_get(v));
    }
    return;
  case PCL_T_STRING:
    snap_quote(b, pcl_str_data(v), pcl_str_len(v));
    return;
  case PCL_T_LIST:
  case PCL_T_SET:
  case PCL_T_MAP:
    if (pcl_len(v) == 0) {
      pcl_strbuf_append_cstr(b, pcl_kind_of(v) == PCL_T_MAP ? "{}" : "[]");
      return;
    }
    pcl_strbuf_append_char(b, pcl_kind_of(v) == PCL_T_MAP ? '{' : '[');
    snap_push(e, (snap_frame){v, NULL, 0, pcl_len(v), indent, 0});
    return;
  case PCL_T_RESOURCE: {
    /* A reference holds only its urn and id: the nesting is bounded, so
     * the recursive call is too. */
    pcl_mapbuf mb = PCL_MAPBUF_INIT;
    pcl_mapbuf_put_cstr(&mb, "urn", pcl_retain(pcl_resource_urn(v)));
    pcl_value *id = pcl_resource_id(v);
    pcl_mapbuf_put_cstr(&mb, "id", pcl_retain(id ? id : pcl_null()));
    pcl_value *m = pcl_mapbuf_finish(&mb);
    pcl_strbuf_append_char(b, '{');
    newline(b, deeper(indent, 1));
    put_key(b, "resource_ref", 12, deeper(indent, 1));
    pcl__snap_encode(b, m, deeper(indent, 1), e->mask);
    close_line(b, indent, 0);
    pcl_strbuf_append_char(b, '}');
    pcl_release(m);
    return;
  }
  case PCL_T_ASSET: {
    static const char *const fields[] = {"path", "text", "uri"};
    char hex[65];
    bool hashed = pcl__asset_hash(v, hex);
    payload_obj(e, "asset", fields[pcl_asset_kind_of(v)], pcl_asset_payload(v),
                hashed ? hex : NULL, indent);
    return;
  }
  case PCL_T_ARCHIVE: {
    static const char *const fields[] = {"path", "uri", "assets"};
    char hex[65];
    bool hashed = pcl__archive_hash(v, hex);
    payload_obj(e, "archive", fields[pcl_archive_kind_of(v)], pcl_asset_payload(v),
                hashed ? hex : NULL, indent);
    return;
  }
  case PCL_T_UNKNOWN:
  case PCL_T_EVENTUAL:
    wrap(e, "unknown", pcl_bool(true), indent);
    return;
  case PCL_T_SECRET:
    if (e->mask) {
      pcl_strbuf_append_cstr(b, "\"[secret]\"");
    } else {
      wrap(e, "secret", pcl_secret_inner(v), indent);
    }
    return;
  }
}

void pcl__snap_encode(pcl_strbuf *b, const pcl_value *v, int indent, bool mask) {
  snap_enc e = {b, mask, NULL, 0, 0};
  snap_open(&e, v, indent);
  while (e.n > 0) {
    snap_frame *f = &e.frames[e.n - 1];
    int in = deeper(f->indent, 1);
    if (f->next == f->n) {
      if (f->v != NULL) {
        close_line(b, f->indent, 0);
        pcl_strbuf_append_char(b, pcl_kind_of(f->v) == PCL_T_MAP ? '}' : ']');
      } else {
        for (int k = f->closes - 1; k >= 0; k--) {
          close_line(b, f->indent, k);
          pcl_strbuf_append_char(b, '}');
        }
      }
      e.n--;
      continue;
    }
    size_t i = f->next++;
    const pcl_value *part;
    int at = in;
    if (f->v == NULL) {
      part = f->only;
      at = deeper(f->indent, f->closes);
    } else {
      if (i > 0) {
        pcl_strbuf_append_char(b, ',');
      }
      newline(b, in);
      if (pcl_kind_of(f->v) == PCL_T_MAP) {
        const pcl_value *k = pcl_map_key_at(f->v, i);
        put_key(b, pcl_str_data(k), pcl_str_len(k), in);
        part = pcl_map_val_at(f->v, i);
      } else {
        part = pcl_list_at(f->v, i);
      }
    }
    snap_open(&e, part, at);
  }
  free(e.frames);
}

pcl_value *pcl__str_fast(const char *s) {
  size_t len = strlen(s);
  if (pcl__is_ascii(s, len)) {
    return pcl__str_raw(s, len, true);
  }
  return pcl_str_new_lossy(s, len);
}

bool pcl__parse_duration(const char *s, double *seconds) {
  static const struct {
    const char *unit;
    double scale;
  } units[] = {{"ns", 1e-9}, {"us", 1e-6}, {"\xc2\xb5s", 1e-6}, {"ms", 1e-3},
               {"s", 1.0},   {"m", 60.0},  {"h", 3600.0}};
  double total = 0;
  bool neg = false;
  if (*s == '-' || *s == '+') {
    neg = *s == '-';
    s++;
  }
  if (*s == 0) {
    return false;
  }
  if (strcmp(s, "0") == 0) {
    *seconds = 0;
    return true;
  }
  while (*s) {
    char *end;
    if (!((*s >= '0' && *s <= '9') || *s == '.')) {
      return false;
    }
    double x = strtod(s, &end);
    if (end == s) {
      return false;
    }
    s = end;
    size_t best = 0;
    double scale = 0;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
      size_t l = strlen(units[i].unit);
      if (strncmp(s, units[i].unit, l) == 0 && l > best) {
        best = l;
        scale = units[i].scale;
      }
    }
    if (best == 0) {
      return false;
    }
    s += best;
    total += x * scale;
  }
  *seconds = neg ? -total : total;
  return true;
}
