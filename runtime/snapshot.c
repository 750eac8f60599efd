/* snapshot.c: the JSON encoding of values in snapshots, stack-output
 * printing and mocks files (docs/snapshot.md), its decoder, and Go duration
 * parsing for customTimeouts.
 *
 * Takes values with nested SECRET, UNKNOWN, RESOURCE, ASSET and ARCHIVE
 * kinds; produces deterministic JSON text: map keys in byte order (maps are
 * kept sorted by the value layer), ints with all their digits, numbers in
 * the shortest round-trip form without exponent. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "engine.h"
#include "pcl_internal.h"

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

static void put_key(pcl_strbuf *b, const char *k, size_t len, int indent) {
  snap_quote(b, k, len);
  pcl_strbuf_append(b, indent >= 0 ? ": " : ":", indent >= 0 ? 2 : 1);
}

/* Writes {"key": <v>} with v encoded at the next depth. */
static void wrap(pcl_strbuf *b, const char *key, const pcl_value *v, int indent, bool mask) {
  int in = indent >= 0 ? indent + 1 : -1;
  pcl_strbuf_append_char(b, '{');
  newline(b, in);
  put_key(b, key, strlen(key), indent);
  pcl__snap_encode(b, v, in, mask);
  newline(b, indent);
  pcl_strbuf_append_char(b, '}');
}

/* Writes {"<wrapper>": {"hash"?: hash, "<field>": payload}}; hash (64 hex
 * digits) may be NULL. */
static void payload_obj(pcl_strbuf *b, const char *wrapper, const char *field,
                        const pcl_value *payload, const char *hash, int indent, bool mask) {
  int in = indent >= 0 ? indent + 1 : -1;
  int in2 = indent >= 0 ? indent + 2 : -1;
  pcl_strbuf_append_char(b, '{');
  newline(b, in);
  put_key(b, wrapper, strlen(wrapper), indent);
  pcl_strbuf_append_char(b, '{');
  if (hash) {
    newline(b, in2);
    put_key(b, "hash", 4, indent);
    pcl__json_quote(b, hash, 64, false);
    pcl_strbuf_append_char(b, ',');
  }
  newline(b, in2);
  put_key(b, field, strlen(field), indent);
  pcl__snap_encode(b, payload, in2, mask);
  newline(b, in);
  pcl_strbuf_append_char(b, '}');
  newline(b, indent);
  pcl_strbuf_append_char(b, '}');
}

void pcl__snap_encode(pcl_strbuf *b, const pcl_value *v, int indent, bool mask) {
  int in = indent >= 0 ? indent + 1 : -1;
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
    if (pcl_len(v) == 0) {
      pcl_strbuf_append_cstr(b, "[]");
      return;
    }
    pcl_strbuf_append_char(b, '[');
    for (size_t i = 0; i < pcl_len(v); i++) {
      if (i) {
        pcl_strbuf_append_char(b, ',');
      }
      newline(b, in);
      pcl__snap_encode(b, pcl_list_at(v, i), in, mask);
    }
    newline(b, indent);
    pcl_strbuf_append_char(b, ']');
    return;
  case PCL_T_MAP:
    if (pcl_len(v) == 0) {
      pcl_strbuf_append_cstr(b, "{}");
      return;
    }
    pcl_strbuf_append_char(b, '{');
    for (size_t i = 0; i < pcl_len(v); i++) {
      if (i) {
        pcl_strbuf_append_char(b, ',');
      }
      newline(b, in);
      const pcl_value *k = pcl_map_key_at(v, i);
      put_key(b, pcl_str_data(k), pcl_str_len(k), indent);
      pcl__snap_encode(b, pcl_map_val_at(v, i), in, mask);
    }
    newline(b, indent);
    pcl_strbuf_append_char(b, '}');
    return;
  case PCL_T_RESOURCE: {
    pcl_mapbuf mb = PCL_MAPBUF_INIT;
    pcl_mapbuf_put_cstr(&mb, "urn", pcl_retain(pcl_resource_urn(v)));
    pcl_value *id = pcl_resource_id(v);
    pcl_mapbuf_put_cstr(&mb, "id", pcl_retain(id ? id : pcl_null()));
    pcl_value *m = pcl_mapbuf_finish(&mb);
    wrap(b, "resource_ref", m, indent, mask);
    pcl_release(m);
    return;
  }
  case PCL_T_ASSET: {
    static const char *const fields[] = {"path", "text", "uri"};
    char hex[65];
    bool hashed = pcl__asset_hash(v, hex);
    payload_obj(b, "asset", fields[pcl_asset_kind_of(v)], pcl_asset_payload(v),
                hashed ? hex : NULL, indent, mask);
    return;
  }
  case PCL_T_ARCHIVE: {
    static const char *const fields[] = {"path", "uri", "assets"};
    char hex[65];
    bool hashed = pcl__archive_hash(v, hex);
    payload_obj(b, "archive", fields[pcl_archive_kind_of(v)], pcl_asset_payload(v),
                hashed ? hex : NULL, indent, mask);
    return;
  }
  case PCL_T_UNKNOWN:
  case PCL_T_EVENTUAL:
    wrap(b, "unknown", pcl_bool(true), indent, mask);
    return;
  case PCL_T_SECRET:
    if (mask) {
      pcl_strbuf_append_cstr(b, "\"[secret]\"");
    } else {
      wrap(b, "secret", pcl_secret_inner(v), indent, mask);
    }
    return;
  }
}

/* Returns the single key of a one-entry MAP, or NULL. */
static const char *only_key(const pcl_value *v) {
  if (pcl_kind_of(v) != PCL_T_MAP || pcl_len(v) != 1) {
    return NULL;
  }
  return pcl_str_data(pcl_map_key_at(v, 0));
}

pcl_value *pcl__snap_decode(pcl_value *v) {
  const char *k = only_key(v);
  if (k) {
    pcl_value *inner = pcl_map_val_at(v, 0);
    if (strcmp(k, "secret") == 0) {
      pcl_value *d = pcl__snap_decode(inner);
      pcl_value *s = pcl_secret_new(d);
      pcl_release(d);
      return s;
    }
    if (strcmp(k, "unknown") == 0 && pcl_kind_of(inner) == PCL_T_BOOL && pcl_bool_get(inner)) {
      return pcl_unknown();
    }
    if (strcmp(k, "resource_ref") == 0 && pcl_kind_of(inner) == PCL_T_MAP) {
      pcl_value *urn = pcl_map_get_cstr(inner, "urn");
      pcl_value *id = pcl_map_get_cstr(inner, "id");
      if (urn && pcl_kind_of(urn) == PCL_T_STRING) {
        return pcl_resource_new(urn, id, NULL);
      }
    }
  }
  switch (pcl_kind_of(v)) {
  case PCL_T_LIST: {
    size_t n = pcl_len(v);
    pcl_value *r = pcl_list_new(n);
    for (size_t i = 0; i < n; i++) {
      pcl_list_init_take(r, i, pcl__snap_decode(pcl_list_at(v, i)));
    }
    return r;
  }
  case PCL_T_MAP: {
    pcl_mapbuf mb = PCL_MAPBUF_INIT;
    for (size_t i = 0; i < pcl_len(v); i++) {
      pcl_mapbuf_put_take(&mb, pcl_retain(pcl_map_key_at(v, i)),
                          pcl__snap_decode(pcl_map_val_at(v, i)));
    }
    return pcl_mapbuf_finish(&mb);
  }
  case PCL_T_NULL:
  case PCL_T_BOOL:
  case PCL_T_INT:
  case PCL_T_NUMBER:
  case PCL_T_STRING:
  case PCL_T_SET:
  case PCL_T_RESOURCE:
  case PCL_T_ASSET:
  case PCL_T_ARCHIVE:
  case PCL_T_UNKNOWN:
  case PCL_T_SECRET:
  case PCL_T_EVENTUAL:
    break;
  }
  return pcl_retain(v);
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
