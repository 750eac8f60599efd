/* emit_const: the constant table of the emitted C (see emit_internal.h).
 *
 * Every constant of the program is one entry of `pclg_k`, an array of
 * immortal values written with the PCL_STATIC_* initialisers, deduplicated
 * by kind and bytes; rows refer to constants by index.  Strings are stored
 * in NFC (DECISIONS.md D9: every string value is NFC, whatever produced
 * it).  Lists and objects made only of constants are constants too: their
 * elements are pointers into `pclg_k`, kept in `pclg_p`.  Big ints get a
 * limb array `pclg_l<n>`.  Source locations (`pclg_loc`) are deduplicated
 * the same way, and so are resource declarations (`pclg_decl`). */
#include <gmp.h>
#include <stdlib.h>
#include <string.h>

#include "pcl_abi.h"
#include "emit/emit_internal.h"
#include "base/util.h"
#include "nfc.h"

const char *em_intern(em *e, const char *s, size_t len) { return intern_n(&e->names, s, len); }

/* Returns the index stored for the interned key k in map, or -1. */
static long lookup(const ptrmap *map, const char *k) {
  uintptr_t v = (uintptr_t)ptrmap_get(map, k);
  return v ? (long)(v - 1) : -1;
}

/* Stores index i for the interned key k in map. */
static void store(ptrmap *map, const char *k, size_t i) {
  ptrmap_put(map, k, (void *)(uintptr_t)(i + 1));
}

/* Returns the bytes of the string constant at index i (binary search: the
 * strings are kept by increasing index). */
static const em_str *string_at(const em *e, uint32_t i) {
  size_t lo = 0, hi = e->nstrings;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (e->strings[mid].index < i)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == e->nstrings || e->strings[lo].index != i)
    ice("constant %u is not a string", (unsigned)i);
  return &e->strings[lo];
}

/* Writes the constant entry of the integer literal digits: PCL_STATIC_INT
 * when it fits an int64_t, else PCL_STATIC_BIGINT over a limb array. */
static void write_int(em *e, const char *digits) {
  mpz_t z;
  if (mpz_init_set_str(z, digits[0] == '+' ? digits + 1 : digits, 10) != 0)
    ice("bad integer literal '%s'", digits);
  if (mpz_cmp_si(z, INT64_MAX) <= 0 && mpz_cmp_si(z, -INT64_MAX) >= 0) {
    char *s = mpz_get_str(NULL, 10, z);
    pcl__buf_printf(&e->consts, "PCL_STATIC_INT(%s)", s);
    free(s);
  } else if (mpz_cmp_si(z, INT64_MIN) == 0) {
    pcl__buf_puts(&e->consts, "PCL_STATIC_INT(-9223372036854775807 - 1)");
  } else {
    size_t count = 0;
    uint64_t *limbs = mpz_export(NULL, &count, -1, 8, 0, 0, z);
    size_t l = e->nlimbs++;
    pcl__buf_printf(&e->limbs, "static const uint64_t pclg_l%zu[] = {", l);
    for (size_t i = 0; i < count; i++)
      pcl__buf_printf(&e->limbs, "%s0x%016llxu", i ? ", " : "", (unsigned long long)limbs[i]);
    pcl__buf_puts(&e->limbs, "};\n");
    pcl__buf_printf(&e->consts, "PCL_STATIC_BIGINT(pclg_l%zu, %s%zu)", l, mpz_sgn(z) < 0 ? "-" : "",
                    count);
    free(limbs);
  }
  mpz_clear(z);
}

/* Writes a double as a C literal that reads back as the same value: with a
 * decimal point or exponent, so that -0 stays a negative zero. */
static void write_double(cw *w, double d) {
  char buf[40];
  snprintf(buf, sizeof buf, "%.17g", d);
  pcl__buf_puts(w, buf);
  if (strpbrk(buf, ".e") == NULL)
    pcl__buf_puts(w, ".0");
}

/* The longest text of a constant that a row's comment shows, in bytes. */
enum { SHOWN = 24 };

/* Records show as the text a row's comment shows for constant i. */
static void shown(em *e, size_t i, const char *show) {
  PCL__GROW(e->shown, e->capshown, i + 1);
  e->shown[i] = show;
}

/* Returns the text a row's comment shows for the string s[0..len): quoted,
 * with `"`, `\` and control bytes escaped, cut after SHOWN bytes (at a
 * character's start) with "...". */
static const char *show_string(em *e, const char *s, size_t len) {
  cw t = PCL__BUF_INIT;
  pcl__buf_append(&t, "\"", 1);
  size_t i = 0;
  for (; i < len && (i < SHOWN || ((unsigned char)s[i] & 0xc0) == 0x80); i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\') {
      pcl__buf_append(&t, "\\", 1);
      pcl__buf_append(&t, s + i, 1);
    } else if (c < 0x20 || c == 0x7f) {
      pcl__buf_printf(&t, "\\x%02x", c);
    } else {
      pcl__buf_append(&t, s + i, 1);
    }
  }
  if (i < len)
    pcl__buf_puts(&t, "...");
  pcl__buf_append(&t, "\"", 1);
  const char *show = arena_strndup(&e->keys, t.data, t.len);
  pcl__buf_free(&t);
  return show;
}

/* Returns the text a row's comment shows for a number written text: as it
 * is, cut after SHOWN bytes with "...". */
static const char *show_number(em *e, const char *text) {
  size_t len = strlen(text);
  if (len <= SHOWN)
    return text;
  return arena_printf(&e->keys, "%.*s...", (int)SHOWN, text);
}

const char *em_const_shown(const em *e, uint32_t k) { return e->shown[k]; }

/* Opens the entry of the next constant: its index as a comment, so that a
 * reader can find `pclg_k[42]`. */
static size_t begin_entry(em *e) {
  /* Every tenth entry is numbered, which is enough to find an index
     without making the table grow faster than the program. */
  if (e->nconsts % 10 == 0) {
    pcl__buf_append(&e->consts, "    /* ", 7);
    cw_uint(&e->consts, e->nconsts);
    pcl__buf_append(&e->consts, " */ ", 4);
  } else {
    pcl__buf_append(&e->consts, "    ", 4);
  }
  return e->nconsts++;
}

uint32_t em_string(em *e, const char *s, size_t len) {
  /* The lexer gives NFC text already; constants the compiler makes (names,
     tokens from schemas) are normalised here. */
  size_t nlen = 0;
  char *nfc = pcl__nfc(s, len, xmalloc, &nlen);
  const char *bytes = nfc ? nfc : s;
  size_t blen = nfc ? nlen : len;
  cw *key = &e->key;
  key->len = 0;
  pcl__buf_append(key, "s", 1);
  pcl__buf_append(key, bytes, blen);
  const char *k = em_intern(e, key->data, key->len);
  long found = lookup(&e->const_index, k);
  if (found >= 0) {
    free(nfc);
    return (uint32_t)found;
  }
  size_t i = begin_entry(e);
  store(&e->const_index, k, i);
  shown(e, i, show_string(e, bytes, blen));
  bool nul = memchr(bytes, '\0', blen) != NULL, ascii = true;
  for (size_t j = 0; j < blen && ascii; j++)
    ascii = (unsigned char)bytes[j] < 0x80;
  if (nul) {
    pcl__buf_puts(&e->consts, "PCL_STATIC_STRING_N(");
    cw_cstring(&e->consts, bytes, blen);
    pcl__buf_printf(&e->consts, ", %zu),\n", blen);
  } else {
    pcl__buf_puts(&e->consts, ascii ? "PCL_STATIC_ASCII(" : "PCL_STATIC_STRING(");
    cw_cstring(&e->consts, bytes, blen);
    pcl__buf_puts(&e->consts, "),\n");
  }
  PCL__GROW(e->strings, e->capstrings, e->nstrings + 1);
  /* Indexes only grow, so the array stays sorted by index. */
  e->strings[e->nstrings++] = (em_str){(uint32_t)i, k + 1, blen};
  free(nfc);
  return (uint32_t)i;
}

uint32_t em_const(em *e, const ir_expr *c) {
  if (c->ck == IR_K_STRING)
    return em_string(e, c->text, c->len);
  cw *key = &e->key;
  key->len = 0;
  switch (c->ck) {
  case IR_K_NULL:
    pcl__buf_puts(key, "n");
    break;
  case IR_K_BOOL:
    pcl__buf_puts(key, c->boolean ? "t" : "f");
    break;
  case IR_K_INT:
    pcl__buf_puts(key, "i");
    pcl__buf_puts(key, c->text);
    break;
  case IR_K_NUMBER:
    pcl__buf_puts(key, "d");
    pcl__buf_append(key, (const char *)&c->number, sizeof c->number);
    break;
  case IR_K_STRING:
    break;
  }
  const char *k = em_intern(e, key->data, key->len);
  long found = lookup(&e->const_index, k);
  if (found >= 0)
    return (uint32_t)found;
  size_t i = begin_entry(e);
  store(&e->const_index, k, i);
  switch (c->ck) {
  case IR_K_NULL:
    shown(e, i, "null");
    pcl__buf_puts(&e->consts, "PCL_STATIC_NULL,\n");
    break;
  case IR_K_BOOL:
    shown(e, i, c->boolean ? "true" : "false");
    pcl__buf_printf(&e->consts, "PCL_STATIC_BOOL(%d),\n", c->boolean ? 1 : 0);
    break;
  case IR_K_INT:
    shown(e, i, show_number(e, c->text));
    write_int(e, c->text);
    pcl__buf_puts(&e->consts, ",\n");
    break;
  case IR_K_NUMBER:
    shown(e, i, show_number(e, c->text));
    pcl__buf_puts(&e->consts, "PCL_STATIC_NUMBER(");
    write_double(&e->consts, c->number);
    pcl__buf_puts(&e->consts, "),\n");
    break;
  case IR_K_STRING:
    break;
  }
  return (uint32_t)i;
}

/* Returns the index in pclg_p of the element pointers to the constants
 * idx[0..n), written there. */
static size_t write_items(em *e, const uint32_t *idx, size_t n) {
  size_t first = e->nitems;
  for (size_t i = 0; i < n; i++)
    pcl__buf_printf(&e->items, "    &pclg_k[%u],\n", (unsigned)idx[i]);
  e->nitems += n;
  return first;
}

uint32_t em_static_list(em *e, const uint32_t *items, size_t n) {
  /* The key is "L" and the items' indexes as bytes. */
  cw *key = &e->key;
  key->len = 0;
  pcl__buf_puts(key, "L");
  pcl__buf_append(key, (const char *)items, n * sizeof *items);
  const char *k = em_intern(e, key->data, key->len);
  long found = lookup(&e->const_index, k);
  if (found >= 0)
    return (uint32_t)found;
  size_t p = n ? write_items(e, items, n) : 0;
  size_t i = begin_entry(e);
  store(&e->const_index, k, i);
  shown(e, i, n ? "[...]" : "[]");
  if (n)
    pcl__buf_printf(&e->consts, "PCL_STATIC_LIST(&pclg_p[%zu], %zu),\n", p, n);
  else
    pcl__buf_puts(&e->consts, "PCL_STATIC_LIST(NULL, 0),\n");
  return (uint32_t)i;
}

int em_string_cmp(const em *e, uint32_t a, uint32_t b) {
  const em_str *x = string_at(e, a), *y = string_at(e, b);
  size_t n = x->len < y->len ? x->len : y->len;
  int c = memcmp(x->text, y->text, n);
  return c != 0 ? c : (x->len > y->len) - (x->len < y->len);
}

/* A key/value pair of a static map being sorted. */
typedef struct pair {
  const em_str *key; /* The key's bytes. */
  uint32_t val;         /* The value's constant. */
  size_t pos;           /* Position in the constructor (later wins). */
} pair;

/* qsort order: key bytes, then position. */
static int pair_cmp(const void *pa, const void *pb) {
  const pair *a = pa, *b = pb;
  size_t n = a->key->len < b->key->len ? a->key->len : b->key->len;
  int c = memcmp(a->key->text, b->key->text, n);
  if (c == 0)
    c = (a->key->len > b->key->len) - (a->key->len < b->key->len);
  return c != 0 ? c : (a->pos > b->pos) - (a->pos < b->pos);
}

uint32_t em_static_map(em *e, const uint32_t *keys, const uint32_t *vals, size_t n) {
  pair *pairs = xmalloc((n ? n : 1) * sizeof *pairs);
  for (size_t i = 0; i < n; i++)
    pairs[i] = (pair){string_at(e, keys[i]), vals[i], i};
  qsort(pairs, n, sizeof *pairs, pair_cmp);
  /* Of equal keys the last written wins: keep the last of each run. */
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    if (m > 0 && pairs[m - 1].key == pairs[i].key)
      m--;
    pairs[m++] = pairs[i];
  }
  uint32_t *kv = xmalloc((m ? 2 * m : 1) * sizeof *kv);
  for (size_t i = 0; i < m; i++) {
    kv[i] = pairs[i].key->index;
    kv[m + i] = pairs[i].val;
  }
  free(pairs);
  /* The key is "M" and the keys' then the values' indexes as bytes. */
  cw *key = &e->key;
  key->len = 0;
  pcl__buf_puts(key, "M");
  pcl__buf_append(key, (const char *)kv, 2 * m * sizeof *kv);
  const char *k = em_intern(e, key->data, key->len);
  long found = lookup(&e->const_index, k);
  if (found >= 0) {
    free(kv);
    return (uint32_t)found;
  }
  size_t p = m ? write_items(e, kv, 2 * m) : 0;
  free(kv);
  size_t i = begin_entry(e);
  store(&e->const_index, k, i);
  shown(e, i, m ? "{...}" : "{}");
  if (m)
    pcl__buf_printf(&e->consts, "PCL_STATIC_MAP(&pclg_p[%zu], &pclg_p[%zu], %zu),\n", p, p + m, m);
  else
    pcl__buf_puts(&e->consts, "PCL_STATIC_MAP(NULL, NULL, 0),\n");
  return (uint32_t)i;
}

void em_const_free(em *e) {
  pcl__buf_free(&e->consts);
  pcl__buf_free(&e->limbs);
  pcl__buf_free(&e->items);
  ptrmap_free(&e->const_index);
  free(e->strings);
  e->strings = NULL;
  free(e->shown);
  e->shown = NULL;
  e->nstrings = e->capstrings = 0;
}

/* ---------------------------------------------------------------- locations */

uint32_t em_loc(em *e, pcl_span span) {
  const src_file *f = &e->src->files[span.file];
  if (span.start > f->len)
    ice("location %u is beyond the end of %s", (unsigned)span.start, f->path);
  /* Every position has an address of its own in its file's text. */
  const char *k = f->text + span.start;
  long found = lookup(&e->loc_index, k);
  if (found >= 0)
    return (uint32_t)found;
  src_pos p = src_position(e->src, span.file, span.start);
  if (e->nlocs == 0 || span.file != e->loc_file) {
    /* A run of locations in another file starts here. */
    pcl__buf_append(&e->loc_runs, "    {", 5);
    cw_uint(&e->loc_runs, e->nlocs);
    pcl__buf_append(&e->loc_runs, ", ", 2);
    cw_uint(&e->loc_runs, span.file);
    pcl__buf_append(&e->loc_runs, "},\n", 3);
    e->nloc_runs++;
    e->loc_file = span.file;
  }
  pcl__buf_append(&e->locs, "    {", 5);
  cw_uint(&e->locs, p.line);
  pcl__buf_append(&e->locs, ", ", 2);
  cw_uint(&e->locs, p.column);
  pcl__buf_append(&e->locs, "},\n", 3);
  size_t i = e->nlocs++;
  store(&e->loc_index, k, i);
  return (uint32_t)i;
}

/* ------------------------------------------------------------- declarations */

uint32_t em_decl(em *e, const ir_node *n) {
  static const char *const kinds[] = {
#define X(name) "PCL_RES_" #name,
      PCL_RESOURCE_KINDS(X)
#undef X
  };
  cw *key = &e->key;
  key->len = 0;
  pcl__buf_printf(key, "%s|%d|%s|%s", n->token, (int)n->res_kind, n->version ? n->version : "",
                  n->plugin_download_url ? n->plugin_download_url : "");
  const char *k = em_intern(e, key->data, key->len);
  long found = lookup(&e->decl_index, k);
  if (found >= 0)
    return (uint32_t)found;
  size_t i = e->ndecls++;
  store(&e->decl_index, k, i);
  /* The node's location travels in its row, not here. */
  pcl__buf_puts(&e->decls, "    {.type = ");
  cw_cstring(&e->decls, n->token, strlen(n->token));
  pcl__buf_printf(&e->decls, ", .kind = %s", kinds[n->res_kind]);
  if (n->version) {
    pcl__buf_puts(&e->decls, ", .version = ");
    cw_cstring(&e->decls, n->version, strlen(n->version));
  }
  if (n->plugin_download_url) {
    pcl__buf_puts(&e->decls, ", .plugin_download_url = ");
    cw_cstring(&e->decls, n->plugin_download_url, strlen(n->plugin_download_url));
  }
  pcl__buf_puts(&e->decls, "},\n");
  return (uint32_t)i;
}

/* ----------------------------------------------------------------- comments */

void em_comment_source(em *e, cw *w, pcl_span span, size_t max) {
  const src_file *f = &e->src->files[span.file];
  size_t start = span.start, end = span.end > f->len ? f->len : span.end;
  size_t n = 0;
  bool cut = false, space = false;
  for (size_t i = start; i < end; i++) {
    char c = f->text[i];
    if (c == '\n' || c == '\r' || c == '\t' || c == ' ') {
      space = n > 0;
      continue;
    }
    if (n >= max) {
      cut = true;
      break;
    }
    if (space) {
      pcl__buf_append(w, " ", 1);
      n++;
      space = false;
    }
    cw_comment_char(w, c);
    n++;
  }
  if (cut)
    pcl__buf_puts(w, " ...");
}

void em_where(em *e, cw *w, pcl_span span) {
  src_pos p = src_position(e->src, span.file, span.start);
  cw_comment(w, e->src->files[span.file].path);
  pcl__buf_printf(w, ":%zu:%zu", p.line, p.column);
}
