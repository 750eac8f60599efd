/* json.c: JSON text to values and back, with exact ints in both directions.
 *
 * Encoding follows the reference's toJSON (cty's json.Marshal over Go's
 * encoding/json): map keys in ascending byte order (maps are kept sorted),
 * compact output, strings escaped the Go way (\" \\ \n \r \t, other control
 * characters as \u00xx, U+2028/U+2029 always, < > & with
 * PCL_JSON_HTML_ESCAPE), numbers as the shortest round-trip decimal without
 * exponent, ints with all their digits.  PCL_JSON_PRETTY indents by two
 * spaces a level, down to PCL__PRETTY_DEPTH levels (deeper ones compact).
 *
 * Decoding is a small strict RFC 8259 parser of our own rather than
 * jansson or json-c: both hold integers in 64 bits only, and DECISIONS.md D3
 * and D8 require ints of any length to survive JSON (config, mocks,
 * snapshots).  Every number's text goes through pcl_num_literal, so integral
 * numbers become exact ints and the others correctly rounded doubles.
 *
 * PCL_JSON_WIRE maps the values JSON has no form for onto Pulumi's wire
 * encoding (lowering.md 6): unknown as the unknown sentinel string, secrets,
 * resource references, assets and archives as signature-keyed objects.
 * PCL_JSON_SNAPSHOT decodes the snapshot encoding of docs/snapshot.md
 * instead ({"secret": v}, {"unknown": true}, {"resource_ref": {...}}).
 *
 * Both directions walk with an explicit stack of the containers entered, so
 * that any nesting depth works in time linear in the size of the text, and
 * both stop at the value size limit (pcl_value_limit): a text, string or
 * collection that would grow past it is an error, not an exhausted
 * memory. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "value/pcl_internal.h"

#define SIG_KEY PCL__SIG_KEY
#define SIG_SECRET PCL__SIG_SECRET
#define SIG_RESOURCE PCL__SIG_RESOURCE
#define SIG_ASSET PCL__SIG_ASSET
#define SIG_ARCHIVE PCL__SIG_ARCHIVE
#define UNKNOWN_SENTINEL PCL__UNKNOWN_SENTINEL

/* -------------------------------------------------------------- encoding */

void pcl__json_quote(pcl_strbuf *b, const char *s, size_t len, bool html) {
  static const char hex[] = "0123456789abcdef";
  pcl_strbuf_append_char(b, '"');
  size_t start = 0;
  for (size_t i = 0; i < len;) {
    unsigned char c = (unsigned char)s[i];
    const char *esc = NULL;
    char ubuf[7];
    size_t skip = 1;
    if (c == '"') {
      esc = "\\\"";
    } else if (c == '\\') {
      esc = "\\\\";
    } else if (c == '\n') {
      esc = "\\n";
    } else if (c == '\r') {
      esc = "\\r";
    } else if (c == '\t') {
      esc = "\\t";
    } else if (c < 0x20 || (html && (c == '<' || c == '>' || c == '&'))) {
      ubuf[0] = '\\';
      ubuf[1] = 'u';
      ubuf[2] = '0';
      ubuf[3] = '0';
      ubuf[4] = hex[c >> 4];
      ubuf[5] = hex[c & 0xF];
      ubuf[6] = '\0';
      esc = ubuf;
    } else if (c == 0xE2 && i + 2 < len && (unsigned char)s[i + 1] == 0x80 &&
               ((unsigned char)s[i + 2] == 0xA8 || (unsigned char)s[i + 2] == 0xA9)) {
      esc = (unsigned char)s[i + 2] == 0xA8 ? "\\u2028" : "\\u2029";
      skip = 3;
    } else if (c >= 0x80) {
      /* Keep valid sequences; an invalid byte becomes U+FFFD as in Go. */
      utf8proc_int32_t cp;
      utf8proc_ssize_t k =
          utf8proc_iterate((const utf8proc_uint8_t *)s + i, (utf8proc_ssize_t)(len - i), &cp);
      if (k > 0) {
        i += (size_t)k;
        continue;
      }
      esc = "\\ufffd";
    }
    if (esc == NULL) {
      i++;
      continue;
    }
    pcl_strbuf_append(b, s + start, i - start);
    pcl_strbuf_append_cstr(b, esc);
    i += skip;
    start = i;
  }
  pcl_strbuf_append(b, s + start, len - start);
  pcl_strbuf_append_char(b, '"');
}

/* A container being written: a list or set, a map, or a wire object (its
 * signature member written, then up to three named members). */
typedef struct enc_frame {
  const pcl_value *v;       /* The list, set or map; NULL for a wire object. */
  size_t next;              /* The next part to write. */
  size_t n;                 /* Its number of parts. */
  int depth;                /* Its nesting depth. */
  const char *keys[3];      /* A wire object's member names. */
  const pcl_value *vals[3]; /* A wire object's member values. */
} enc_frame;

/* The state of one encoding. */
typedef struct encoder {
  pcl_strbuf out;    /* The text so far. */
  unsigned flags;    /* PCL_JSON_* flags. */
  pcl_error *err;    /* The first error, if any. */
  enc_frame *frames; /* The containers entered, outermost first. */
  size_t n, cap;     /* Entries used and allocated. */
} encoder;

/* Returns whether what stands at depth is pretty-printed: on a line of its
 * own (PCL_JSON_PRETTY, no deeper than PCL__PRETTY_DEPTH). */
static bool pretty_at(const encoder *e, int depth) {
  return (e->flags & PCL_JSON_PRETTY) && depth <= PCL__PRETTY_DEPTH;
}

/* Starts a new line indented for depth when what stands there is
 * pretty-printed. */
static void newline(encoder *e, int depth) {
  if (pretty_at(e, depth)) {
    pcl_strbuf_append_char(&e->out, '\n');
    for (int i = 0; i < depth; i++) {
      pcl_strbuf_append(&e->out, "  ", 2);
    }
  }
}

/* Writes the key of a member of an object at depth (with the separator
 * before it unless first). */
static void member_key(encoder *e, const char *key, size_t len, bool first, int depth) {
  if (!first) {
    pcl_strbuf_append_char(&e->out, ',');
  }
  newline(e, depth + 1);
  pcl__json_quote(&e->out, key, len, (e->flags & PCL_JSON_HTML_ESCAPE) != 0);
  bool pretty = pretty_at(e, depth + 1);
  pcl_strbuf_append(&e->out, pretty ? ": " : ":", pretty ? 2 : 1);
}

/* Reports that v cannot be written as JSON. */
static void cannot(encoder *e, const char *what) {
  if (e->err == NULL) {
    e->err = pcl_error_new("cannot serialize %s as JSON", what);
  }
}

/* Enters a container at depth: pushes its frame. */
static enc_frame *push(encoder *e, const pcl_value *v, size_t n, int depth) {
  PCL__GROW(e->frames, e->cap, e->n + 1);
  enc_frame *f = &e->frames[e->n++];
  *f = (enc_frame){v, 0, n, depth, {NULL, NULL, NULL}, {NULL, NULL, NULL}};
  return f;
}

/* Writes a wire object's opening and signature member and enters it with
 * the named members (in ascending key order; NULL values are skipped). */
static void wire_object(encoder *e, const char *sig, int depth, const char *k1,
                        const pcl_value *v1, const char *k2, const pcl_value *v2, const char *k3,
                        const pcl_value *v3) {
  pcl_strbuf_append_char(&e->out, '{');
  member_key(e, SIG_KEY, strlen(SIG_KEY), true, depth);
  pcl__json_quote(&e->out, sig, strlen(sig), false);
  enc_frame *f = push(e, NULL, 0, depth);
  const char *keys[] = {k1, k2, k3};
  const pcl_value *vals[] = {v1, v2, v3};
  for (int i = 0; i < 3; i++) {
    if (keys[i] != NULL && vals[i] != NULL) {
      f->keys[f->n] = keys[i];
      f->vals[f->n++] = vals[i];
    }
  }
}

/* Writes v at depth: a scalar whole, a container's opening (entering it).
 * A secret without PCL_JSON_WIRE is written as its payload. */
static void encode_open(encoder *e, const pcl_value *v, int depth) {
  bool wire = (e->flags & PCL_JSON_WIRE) != 0;
  while (!wire && v->kind == PCL_T_SECRET) {
    v = v->u.ref.a;
  }
  switch (pcl_kind_of(v)) {
  case PCL_T_NULL:
    pcl_strbuf_append_cstr(&e->out, "null");
    return;
  case PCL_T_BOOL:
    pcl_strbuf_append_cstr(&e->out, v->u.b ? "true" : "false");
    return;
  case PCL_T_INT:
    if (!pcl__value_fits(e->out.len + pcl__int_text_bound(v), "the JSON text", &e->err)) {
      return;
    }
    pcl_int_format(&e->out, v);
    return;
  case PCL_T_NUMBER:
    if (isinf(v->u.d)) {
      cannot(e, "infinity");
      return;
    }
    pcl_number_format(&e->out, v->u.d);
    return;
  case PCL_T_STRING:
    /* The quoted form is longer than the string: refuse before quoting. */
    if (!pcl__value_fits(e->out.len + v->u.str.len, "the JSON text", &e->err)) {
      return;
    }
    pcl__json_quote(&e->out, v->u.str.ptr, v->u.str.len, (e->flags & PCL_JSON_HTML_ESCAPE) != 0);
    return;
  case PCL_T_LIST:
  case PCL_T_SET:
    pcl_strbuf_append_char(&e->out, '[');
    push(e, v, v->u.list.n, depth);
    return;
  case PCL_T_MAP:
    pcl_strbuf_append_char(&e->out, '{');
    push(e, v, v->u.map.n, depth);
    return;
  case PCL_T_SECRET:
    wire_object(e, SIG_SECRET, depth, "value", v->u.ref.a, NULL, NULL, NULL, NULL);
    return;
  case PCL_T_UNKNOWN:
    if (wire) {
      pcl__json_quote(&e->out, UNKNOWN_SENTINEL, strlen(UNKNOWN_SENTINEL), false);
    } else {
      cannot(e, "an unknown value");
    }
    return;
  case PCL_T_RESOURCE:
    if (wire) {
      const pcl_value *id = v->u.ref.b->kind == PCL_T_NULL ? NULL : v->u.ref.b;
      const pcl_value *ver = v->u.ref.c->kind == PCL_T_NULL ? NULL : v->u.ref.c;
      wire_object(e, SIG_RESOURCE, depth, "id", id, "packageVersion", ver, "urn", v->u.ref.a);
    } else {
      cannot(e, "a resource reference");
    }
    return;
  case PCL_T_ASSET:
    if (wire) {
      const char *key = v->sub == PCL_ASSET_FILE ? "path" : v->sub == PCL_ASSET_STRING ? "text" : "uri";
      wire_object(e, SIG_ASSET, depth, key, v->u.ref.a, NULL, NULL, NULL, NULL);
    } else {
      cannot(e, "an asset");
    }
    return;
  case PCL_T_ARCHIVE:
    if (wire) {
      const char *key = v->sub == PCL_ARCHIVE_FILE     ? "path"
                        : v->sub == PCL_ARCHIVE_ASSETS ? "assets"
                                                       : "uri";
      wire_object(e, SIG_ARCHIVE, depth, key, v->u.ref.a, NULL, NULL, NULL, NULL);
    } else {
      cannot(e, "an archive");
    }
    return;
  case PCL_T_EVENTUAL:
    cannot(e, "an eventual value");
    return;
  }
}

/* Appends the JSON text of v, which stands at nesting depth depth. */
static void encode(encoder *e, const pcl_value *v, int depth) {
  size_t base = e->n;
  encode_open(e, v, depth);
  while (e->err == NULL && e->n > base) {
    if (e->out.len > pcl_value_limit()) {
      pcl__value_fits(e->out.len, "the JSON text", &e->err);
      break;
    }
    enc_frame *f = &e->frames[e->n - 1];
    bool wire = f->v == NULL;
    bool map = wire || f->v->kind == PCL_T_MAP;
    if (f->next == f->n) {
      /* A wire object always has its signature member inside.  The closing
       * bracket is on a line of its own when the parts were. */
      if ((f->n > 0 || wire) && pretty_at(e, f->depth + 1)) {
        newline(e, f->depth);
      }
      pcl_strbuf_append_char(&e->out, map ? '}' : ']');
      e->n--;
      continue;
    }
    size_t i = f->next++;
    int depth_in = f->depth + 1;
    const pcl_value *part;
    if (wire) {
      member_key(e, f->keys[i], strlen(f->keys[i]), false, f->depth);
      part = f->vals[i];
    } else if (map) {
      const pcl_value *k = f->v->u.map.keys[i];
      member_key(e, k->u.str.ptr, k->u.str.len, i == 0, f->depth);
      part = f->v->u.map.vals[i];
    } else {
      if (i > 0) {
        pcl_strbuf_append_char(&e->out, ',');
      }
      newline(e, depth_in);
      part = f->v->u.list.items[i];
    }
    encode_open(e, part, depth_in);
  }
  if (e->err == NULL && e->out.len > pcl_value_limit()) {
    pcl__value_fits(e->out.len, "the JSON text", &e->err);
  }
  e->n = base;
}

bool pcl_json_append(pcl_strbuf *b, const pcl_value *v, unsigned flags, unsigned depth,
                     pcl_error **err) {
  size_t mark = b->len;
  encoder e = {*b, flags, NULL, NULL, 0, 0};
  encode(&e, v, (int)depth);
  free(e.frames);
  *b = e.out;
  if (e.err != NULL) {
    b->len = mark;
    if (b->data != NULL) {
      b->data[mark] = '\0';
    }
    *err = e.err;
    return false;
  }
  return true;
}

void pcl_json_quote(pcl_strbuf *b, const char *s, size_t len, unsigned flags) {
  pcl__json_quote(b, s, len, (flags & PCL_JSON_HTML_ESCAPE) != 0);
}

char *pcl_json_encode(const pcl_value *v, unsigned flags, size_t *len, pcl_error **err) {
  encoder e = {PCL_STRBUF_INIT, flags, NULL, NULL, 0, 0};
  encode(&e, v, 0);
  free(e.frames);
  if (e.err != NULL) {
    pcl_strbuf_free(&e.out);
    *err = e.err;
    return NULL;
  }
  if (e.out.data == NULL) {
    pcl_strbuf_append(&e.out, "", 0);
  }
  if (len != NULL) {
    *len = e.out.len;
  }
  return e.out.data;
}

pcl_value *pcl_json_to_string(const pcl_value *v, unsigned flags, pcl_error **err) {
  size_t len;
  char *s = pcl_json_encode(v, flags, &len, err);
  if (s == NULL) {
    return NULL;
  }
  /* The text is valid UTF-8 but not always NFC though every string in it
   * is: a combining mark after an escape (`\t` then U+0308) composes with
   * the escape's letter.  Like every string value, it is put in NFC (D9). */
  pcl_value *r = pcl_str_new(s, len, err);
  free(s);
  return r;
}

bool pcl_json_write(FILE *f, const pcl_value *v, unsigned flags, pcl_error **err) {
  size_t len;
  char *s = pcl_json_encode(v, flags, &len, err);
  if (s == NULL) {
    return false;
  }
  bool ok = fwrite(s, 1, len, f) == len;
  free(s);
  if (!ok) {
    *err = pcl_error_new("cannot write JSON: output error");
  }
  return ok;
}

/* -------------------------------------------------------------- decoding */

/* An array or object being read. */
typedef struct dec_frame {
  bool object;      /* An object (else an array). */
  pcl_mapbuf map;   /* An object's members so far. */
  pcl_value *key;   /* An object's key of the member being read (owned). */
  pcl_value **items; /* An array's elements so far (owned). */
  size_t n, cap;    /* An array's elements used and allocated. */
} dec_frame;

/* The state of one decoding. */
typedef struct decoder {
  const char *s;     /* The text. */
  size_t len;        /* Its length. */
  size_t pos;        /* The next byte to read. */
  unsigned flags;    /* PCL_JSON_* flags. */
  pcl_error *err;    /* The first error, if any. */
  dec_frame *frames; /* The containers being read, outermost first. */
  size_t n, cap;     /* Entries used and allocated. */
} decoder;

/* Records the error e (stolen) unless an earlier one is recorded. */
static void fail_take(decoder *d, pcl_error *e) {
  if (d->err == NULL) {
    d->err = e;
  } else {
    pcl_error_free(e);
  }
}

/* Records "invalid JSON at byte <pos>: <what>" unless an earlier error is. */
static void fail(decoder *d, const char *what) {
  if (d->err == NULL) {
    d->err = pcl_error_new("invalid JSON at byte %zu: %s", d->pos, what);
  }
}

/* Appends the JSON path of the value being read (its container's members
 * and elements; nothing at the top). */
static void path_of(const decoder *d, pcl_strbuf *b) {
  size_t start = b->len;
  for (size_t i = 0; i < d->n; i++) {
    const dec_frame *f = &d->frames[i];
    if (f->object && f->key != NULL) {
      if (b->len > start) {
        pcl_strbuf_append_char(b, '.');
      }
      pcl__path_key(b, pcl_str_data(f->key), pcl_str_len(f->key));
    } else if (!f->object) {
      pcl_strbuf_appendf(b, "[%zu]", f->n);
    }
  }
}

/* Records "<path>: <msg>" about the object just read (or "<msg>" at the
 * top), for a snapshot-encoded value of the wrong shape. */
static void fail_at(decoder *d, const char *msg) {
  if (d->err != NULL) {
    return;
  }
  pcl_strbuf b = PCL_STRBUF_INIT;
  path_of(d, &b);
  if (b.len > 0) {
    pcl_strbuf_append_cstr(&b, ": ");
  }
  pcl_strbuf_append_cstr(&b, msg);
  d->err = pcl_error_new("%s", b.data);
  pcl_strbuf_free(&b);
}

/* Skips JSON whitespace. */
static void skip_ws(decoder *d) {
  while (d->pos < d->len) {
    char c = d->s[d->pos];
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
      break;
    }
    d->pos++;
  }
}

/* Consumes word when the text continues with it. */
static bool literal(decoder *d, const char *word) {
  size_t n = strlen(word);
  if (d->len - d->pos >= n && memcmp(d->s + d->pos, word, n) == 0) {
    d->pos += n;
    return true;
  }
  return false;
}

/* Reads 4 hex digits; returns -1 when they are not hex. */
static long hex4(decoder *d) {
  if (d->len - d->pos < 4) {
    return -1;
  }
  long v = 0;
  for (int i = 0; i < 4; i++) {
    char c = d->s[d->pos + (size_t)i];
    int h = c >= '0' && c <= '9'   ? c - '0'
            : c >= 'a' && c <= 'f' ? c - 'a' + 10
            : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                   : -1;
    if (h < 0) {
      return -1;
    }
    v = v * 16 + h;
  }
  d->pos += 4;
  return v;
}
/* Decodes a string token (at the opening quote) into a string value. */
static pcl_value *decode_string(decoder *d) {
  d->pos++;
  pcl_strbuf b = PCL_STRBUF_INIT;
  size_t start = d->pos;
  for (;;) {
    if (d->pos >= d->len) {
      fail(d, "unterminated string");
      pcl_strbuf_free(&b);
      return NULL;
    }
    unsigned char c = (unsigned char)d->s[d->pos];
    if (c == '"') {
      break;
    }
    if (c < 0x20) {
      fail(d, "control character in string");
      pcl_strbuf_free(&b);
      return NULL;
    }
    if (c != '\\') {
      d->pos++;
      continue;
    }
    pcl_strbuf_append(&b, d->s + start, d->pos - start);
    d->pos++;
    char e = d->pos < d->len ? d->s[d->pos++] : '\0';
    const char *simple = NULL;
    switch (e) {
    case '"':
      simple = "\"";
      break;
    case '\\':
      simple = "\\";
      break;
    case '/':
      simple = "/";
      break;
    case 'b':
      simple = "\b";
      break;
    case 'f':
      simple = "\f";
      break;
    case 'n':
      simple = "\n";
      break;
    case 'r':
      simple = "\r";
      break;
    case 't':
      simple = "\t";
      break;
    case 'u': {
      long cp = hex4(d);
      if (cp < 0) {
        fail(d, "invalid \\u escape");
        pcl_strbuf_free(&b);
        return NULL;
      }
      if (cp >= 0xD800 && cp <= 0xDBFF && d->len - d->pos >= 6 && d->s[d->pos] == '\\' &&
          d->s[d->pos + 1] == 'u') {
        size_t save = d->pos;
        d->pos += 2;
        long lo = hex4(d);
        if (lo >= 0xDC00 && lo <= 0xDFFF) {
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        } else {
          d->pos = save;
        }
      }
      if (cp >= 0xD800 && cp <= 0xDFFF) {
        cp = 0xFFFD; /* A lone surrogate, replaced as Go does. */
      }
      utf8proc_uint8_t enc[4];
      utf8proc_ssize_t n = utf8proc_encode_char((utf8proc_int32_t)cp, enc);
      pcl_strbuf_append(&b, (const char *)enc, (size_t)n);
      break;
    }
    default:
      d->pos--;
      fail(d, "invalid escape in string");
      pcl_strbuf_free(&b);
      return NULL;
    }
    if (simple != NULL) {
      pcl_strbuf_append_char(&b, simple[0]);
    }
    start = d->pos;
  }
  pcl_strbuf_append(&b, d->s + start, d->pos - start);
  d->pos++;
  pcl_error *err = NULL;
  pcl_value *v = NULL;
  if (!(d->flags & PCL_JSON_RAW_TEXT)) {
    v = pcl_strbuf_finish(&b, &err);
  } else {
    if (pcl__value_fits(b.len, "the string", &err)) {
      v = pcl__str_new_unnormalised(b.data != NULL ? b.data : "", b.len, &err);
    }
    pcl_strbuf_free(&b);
  }
  if (v == NULL) {
    fail_take(d, err);
  }
  return v;
}

/* Skips the character at the decoder's position when it is one of set;
 * returns whether it did. */
static bool skip_one_of(decoder *d, const char *set) {
  if (d->pos < d->len && d->s[d->pos] != '\0' && strchr(set, d->s[d->pos]) != NULL) {
    d->pos++;
    return true;
  }
  return false;
}

/* Skips the decimal digits at the decoder's position; returns how many. */
static size_t skip_digits(decoder *d) {
  size_t start = d->pos;
  while (d->pos < d->len && d->s[d->pos] >= '0' && d->s[d->pos] <= '9') {
    d->pos++;
  }
  return d->pos - start;
}

/* Decodes a number token: an exact int when integral, else a number. */
static pcl_value *decode_number(decoder *d) {
  size_t start = d->pos;
  /* JSON's grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
  skip_one_of(d, "-");
  size_t int_start = d->pos;
  size_t nint = skip_digits(d);
  bool ok = nint > 0 && !(nint > 1 && d->s[int_start] == '0');
  if (ok && skip_one_of(d, ".")) {
    ok = skip_digits(d) > 0;
  }
  if (ok && skip_one_of(d, "eE")) {
    skip_one_of(d, "+-");
    ok = skip_digits(d) > 0;
  }
  if (!ok) {
    fail(d, "invalid number");
    return NULL;
  }
  pcl_error *err = NULL;
  pcl_value *v = pcl_num_literal(d->s + start, d->pos - start, &err);
  if (v == NULL) {
    size_t at = d->pos;
    d->pos = start;
    fail(d, pcl_error_message(err));
    d->pos = at;
    pcl_error_free(err);
  }
  return v;
}

/* Turns a decoded wire object into the value it stands for (map is
 * stolen); NULL with an error when a signature object is malformed. */
static pcl_value *from_wire(decoder *d, pcl_value *map) {
  pcl_value *sig = pcl_map_get_cstr(map, SIG_KEY);
  if (sig == NULL || sig->kind != PCL_T_STRING) {
    return map;
  }
  pcl_value *r = NULL;
  if (pcl_str_eq_cstr(sig, SIG_SECRET)) {
    pcl_value *inner = pcl_map_get_cstr(map, "value");
    r = pcl_secret_new(inner != NULL ? inner : pcl_null());
  } else if (pcl_str_eq_cstr(sig, SIG_RESOURCE)) {
    pcl_value *urn = pcl_map_get_cstr(map, "urn");
    if (urn != NULL && urn->kind == PCL_T_STRING) {
      r = pcl_resource_new(urn, pcl_map_get_cstr(map, "id"), pcl_map_get_cstr(map, "packageVersion"));
    }
  } else if (pcl_str_eq_cstr(sig, SIG_ASSET)) {
    static const char *const keys[] = {"path", "text", "uri"};
    static const pcl_asset_kind kinds[] = {PCL_ASSET_FILE, PCL_ASSET_STRING, PCL_ASSET_REMOTE};
    for (int i = 0; i < 3 && r == NULL; i++) {
      pcl_value *p = pcl_map_get_cstr(map, keys[i]);
      if (p != NULL && p->kind == PCL_T_STRING) {
        r = pcl_asset_new(kinds[i], p);
      }
    }
  } else if (pcl_str_eq_cstr(sig, SIG_ARCHIVE)) {
    static const char *const keys[] = {"path", "assets", "uri"};
    static const pcl_archive_kind kinds[] = {PCL_ARCHIVE_FILE, PCL_ARCHIVE_ASSETS,
                                             PCL_ARCHIVE_REMOTE};
    for (int i = 0; i < 3 && r == NULL; i++) {
      pcl_value *p = pcl_map_get_cstr(map, keys[i]);
      if (p != NULL && p->kind == (i == 1 ? PCL_T_MAP : PCL_T_STRING)) {
        r = pcl_archive_new(kinds[i], p);
      }
    }
  } else {
    return map;
  }
  pcl_release(map);
  if (r == NULL) {
    fail(d, "malformed signature object");
  }
  return r;
}

/* Turns a decoded object of the snapshot encoding (docs/snapshot.md) into
 * the value it stands for (map is stolen): {"secret": v} a SECRET,
 * {"unknown": true} UNKNOWN, {"resource_ref": {"urn": ..., "id": ...}} a
 * RESOURCE; any other object is a map.  NULL with an error naming the path
 * when a wrapper's payload has the wrong shape. */
static pcl_value *from_snapshot(decoder *d, pcl_value *map) {
  if (pcl_len(map) != 1) {
    return map;
  }
  const pcl_value *k = pcl_map_key_at(map, 0);
  pcl_value *inner = pcl_map_val_at(map, 0);
  pcl_value *r = map;
  if (pcl_str_eq_cstr(k, "secret")) {
    r = pcl_secret_new(inner);
  } else if (pcl_str_eq_cstr(k, "unknown")) {
    if (pcl_kind_of(inner) != PCL_T_BOOL || !pcl_bool_get(inner)) {
      fail_at(d, "an unknown value is written {\"unknown\": true}");
      r = NULL;
    } else {
      r = pcl_unknown();
    }
  } else if (pcl_str_eq_cstr(k, "resource_ref")) {
    pcl_value *urn = pcl_kind_of(inner) == PCL_T_MAP ? pcl_map_get_cstr(inner, "urn") : NULL;
    pcl_value *id = pcl_kind_of(inner) == PCL_T_MAP ? pcl_map_get_cstr(inner, "id") : NULL;
    size_t known = (size_t)(urn != NULL) + (size_t)(id != NULL);
    if (urn == NULL || pcl_kind_of(urn) != PCL_T_STRING || known != pcl_len(inner) ||
        (id != NULL && pcl_kind_of(id) != PCL_T_STRING && pcl_kind_of(id) != PCL_T_NULL &&
         pcl_kind_of(id) != PCL_T_UNKNOWN)) {
      fail_at(d, "a resource reference is written {\"resource_ref\": {\"urn\": string, "
                 "\"id\": string}}");
      r = NULL;
    } else if (pcl_str_len(urn) == 0) {
      fail_at(d, "a resource reference's \"urn\" is empty");
      r = NULL;
    } else {
      r = pcl_resource_new(urn, id, NULL);
    }
  }
  if (r != map) {
    pcl_release(map);
  }
  return r;
}

/* Enters an array or object: pushes its frame. */
static dec_frame *enter(decoder *d, bool object) {
  PCL__GROW(d->frames, d->cap, d->n + 1);
  dec_frame *f = &d->frames[d->n++];
  *f = (dec_frame){object, PCL_MAPBUF_INIT, NULL, NULL, 0, 0};
  return f;
}

/* Reads an object member's key and the ':' after it into f; false after an
 * error. */
static bool read_key(decoder *d, dec_frame *f) {
  skip_ws(d);
  if (d->pos >= d->len || d->s[d->pos] != '"') {
    fail(d, "expected a string key");
    return false;
  }
  f->key = decode_string(d);
  if (f->key == NULL) {
    return false;
  }
  skip_ws(d);
  if (d->pos >= d->len || d->s[d->pos] != ':') {
    fail(d, "expected ':'");
    return false;
  }
  d->pos++;
  return true;
}

/* Returns the finished container of the innermost frame (popping it), or
 * NULL after an error. */
static pcl_value *leave(decoder *d) {
  dec_frame *f = &d->frames[d->n - 1];
  pcl_value *v;
  if (f->object) {
    v = pcl_mapbuf_finish(&f->map);
  } else {
    v = pcl_list_of_take(f->items, f->n);
    free(f->items);
  }
  d->n--;
  if (f->object && (d->flags & PCL_JSON_WIRE)) {
    v = from_wire(d, v);
  } else if (f->object && (d->flags & PCL_JSON_SNAPSHOT)) {
    v = from_snapshot(d, v);
  }
  return v;
}

/* Adds v (stolen) to the innermost container; false after an error (the
 * container is over the size limit). */
static bool add(decoder *d, pcl_value *v) {
  dec_frame *f = &d->frames[d->n - 1];
  pcl_error *e = NULL;
  if (f->object) {
    pcl_mapbuf_put_take(&f->map, f->key, v);
    f->key = NULL;
    if (!pcl__value_fits(2 * f->map.n * sizeof(pcl_value *), "an object", &e)) {
      fail_take(d, e);
      return false;
    }
    return true;
  }
  PCL__GROW(f->items, f->cap, f->n + 1);
  f->items[f->n++] = v;
  if (!pcl__value_fits(f->n * sizeof(pcl_value *), "an array", &e)) {
    fail_take(d, e);
    return false;
  }
  return true;
}

/* Reads the scalar at the current position, or enters the array or object
 * there: returns NULL and sets *entered to its frame.  NULL with an error
 * (and *entered NULL) otherwise. */
static pcl_value *open_value(decoder *d, dec_frame **entered) {
  *entered = NULL;
  skip_ws(d);
  if (d->pos >= d->len) {
    fail(d, "unexpected end of input");
    return NULL;
  }
  char c = d->s[d->pos];
  switch (c) {
  case '{':
  case '[':
    d->pos++;
    *entered = enter(d, c == '{');
    return NULL;
  case '"': {
    pcl_value *s = decode_string(d);
    if (s != NULL && (d->flags & PCL_JSON_WIRE) && pcl_str_eq_cstr(s, UNKNOWN_SENTINEL)) {
      pcl_release(s);
      return pcl_unknown();
    }
    return s;
  }
  case 't':
    if (literal(d, "true")) {
      return pcl_bool(true);
    }
    break;
  case 'f':
    if (literal(d, "false")) {
      return pcl_bool(false);
    }
    break;
  case 'n':
    if (literal(d, "null")) {
      return pcl_null();
    }
    break;
  default:
    if (c == '-' || (c >= '0' && c <= '9')) {
      return decode_number(d);
    }
    break;
  }
  fail(d, "unexpected character");
  return NULL;
}

/* Decodes the value at the current position: a loop over the text with an
 * explicit stack of the containers open, each value read handed to the
 * innermost one, each container finished handed to the one around it. */
static pcl_value *decode_value(decoder *d) {
  for (;;) {
    dec_frame *opened;
    pcl_value *v = open_value(d, &opened);
    if (v == NULL && opened == NULL) {
      return NULL;
    }
    if (v == NULL) {
      /* An array or object was entered: it may be empty. */
      skip_ws(d);
      if (d->pos < d->len && d->s[d->pos] == (opened->object ? '}' : ']')) {
        d->pos++;
        v = leave(d);
      } else if (opened->object && !read_key(d, opened)) {
        return NULL;
      } else {
        continue;
      }
    }
    /* Hand v to the containers, closing each one that ends here. */
    for (;;) {
      if (v == NULL) {
        return NULL;
      }
      if (d->n == 0) {
        return v;
      }
      if (!add(d, v)) {
        return NULL;
      }
      dec_frame *f = &d->frames[d->n - 1];
      skip_ws(d);
      if (d->pos < d->len && d->s[d->pos] == ',') {
        d->pos++;
        if (f->object && !read_key(d, f)) {
          return NULL;
        }
        break;
      }
      if (d->pos < d->len && d->s[d->pos] == (f->object ? '}' : ']')) {
        d->pos++;
        v = leave(d);
        continue;
      }
      fail(d, f->object ? "expected ',' or '}'" : "expected ',' or ']'");
      return NULL;
    }
  }
}

pcl_value *pcl_json_decode(const char *text, size_t len, unsigned flags, pcl_error **err) {
  decoder d = {text, len, 0, flags, NULL, NULL, 0, 0};
  pcl_error *e = NULL;
  if (!pcl__value_fits(len, "the JSON text", &e)) {
    *err = e;
    return NULL;
  }
  pcl_value *v = decode_value(&d);
  if (v != NULL) {
    skip_ws(&d);
    if (d.pos != d.len) {
      fail(&d, "unexpected text after the value");
      pcl_release(v);
      v = NULL;
    }
  }
  /* After an error, release what the open containers hold. */
  while (d.n > 0) {
    dec_frame *f = &d.frames[--d.n];
    pcl_mapbuf_free(&f->map);
    pcl_release(f->key);
    for (size_t i = 0; i < f->n; i++) {
      pcl_release(f->items[i]);
    }
    free(f->items);
  }
  free(d.frames);
  if (v == NULL) {
    *err = d.err != NULL ? d.err : pcl_error_new("invalid JSON");
  }
  return v;
}
