/* emit: IR to C as static tables (see emit.h).
 *
 * Sections are written into separate cw buffers and concatenated in
 * dependency order: constants, files, the modules (components first, so
 * that a module can point at its components), config types and
 * declarations, then the program descriptor and main.  Constants are shared
 * by every module and deduplicated by kind and bytes; names, tokens and
 * resource types are STRING constants referred to by index from the packed
 * tables. */
#include "emit.h"

#include <gmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "cw.h"
#include "intern.h"
#include "ptrmap.h"
#include "schema.h"
#include "util.h"

/* The state of one emission. */
typedef struct em {
  src_set *src;    /* The sources, for the line and column of locations. */
  cw consts;       /* Entries of the constant array pclg_v. */
  cw limbs;        /* Limb arrays of big ints (written before the constants). */
  size_t nconsts;  /* Entries in consts. */
  size_t nlimbs;   /* Limb arrays written (numbers pclg_l<n>). */
  arena keys;      /* Holds the interned constant keys and the stored indexes. */
  intern_table key_names; /* Interns each constant's key (kind and bytes). */
  ptrmap key_index;       /* Interned key -> its size_t index in consts. */
  cw modules;      /* Module tables. */
  cw types;        /* Config types. */
  size_t ntypes;   /* Config types written (numbers pclg_t<n>). */
} em;

/* ---------------------------------------------------------------- constants */

/* Writes the constant entry of the integer literal digits: PCL_STATIC_INT
 * when it fits an int64_t, else PCL_STATIC_BIGINT over a limb array. */
static void emit_int(em *e, const char *digits) {
  mpz_t z;
  if (mpz_init_set_str(z, digits[0] == '+' ? digits + 1 : digits, 10) != 0)
    ice("bad integer literal '%s'", digits);
  if (mpz_cmp_si(z, INT64_MAX) <= 0 && mpz_cmp_si(z, -INT64_MAX) >= 0) {
    char *s = mpz_get_str(NULL, 10, z);
    cw_printf(&e->consts, "    PCL_STATIC_INT(%s),\n", s);
    free(s);
  } else if (mpz_cmp_si(z, INT64_MIN) == 0) {
    cw_puts(&e->consts, "    PCL_STATIC_INT(-9223372036854775807 - 1),\n");
  } else {
    size_t count = 0;
    uint64_t *limbs = mpz_export(NULL, &count, -1, 8, 0, 0, z);
    size_t l = e->nlimbs++;
    cw_printf(&e->limbs, "static const uint64_t pclg_l%zu[] = {", l);
    for (size_t i = 0; i < count; i++)
      cw_printf(&e->limbs, "%s0x%016llxu", i ? ", " : "", (unsigned long long)limbs[i]);
    cw_puts(&e->limbs, "};\n");
    cw_printf(&e->consts, "    PCL_STATIC_BIGINT(pclg_l%zu, %s%zu),\n", l,
              mpz_sgn(z) < 0 ? "-" : "", count);
    free(limbs);
  }
  mpz_clear(z);
}

/* Returns the index of the constant of x in the constant table. */
static size_t constant(em *e, const ir_expr *x) {
  cw key = CW_INIT;
  switch (x->ck) {
  case IR_K_NULL:
    cw_puts(&key, "n");
    break;
  case IR_K_BOOL:
    cw_puts(&key, x->boolean ? "t" : "f");
    break;
  case IR_K_INT:
    cw_printf(&key, "i%s", x->text);
    break;
  case IR_K_NUMBER:
    cw_printf(&key, "d%.17g", x->number);
    break;
  case IR_K_STRING:
    cw_puts(&key, "s");
    cw_cstring(&key, x->text, x->len);
    break;
  }
  const char *name = intern_n(&e->key_names, key.data, key.len);
  cw_free(&key);
  const size_t *found = ptrmap_get(&e->key_index, name);
  if (found)
    return *found;
  size_t *index = ARENA_NEW(&e->keys, size_t);
  *index = e->nconsts;
  ptrmap_put(&e->key_index, name, index);
  switch (x->ck) {
  case IR_K_NULL:
    cw_puts(&e->consts, "    PCL_STATIC_NULL,\n");
    break;
  case IR_K_BOOL:
    cw_printf(&e->consts, "    PCL_STATIC_BOOL(%d),\n", x->boolean ? 1 : 0);
    break;
  case IR_K_INT:
    emit_int(e, x->text);
    break;
  case IR_K_NUMBER:
    cw_printf(&e->consts, "    PCL_STATIC_NUMBER(%.17g),\n", x->number);
    break;
  case IR_K_STRING: {
    bool ascii = true, nul = false;
    for (size_t i = 0; i < x->len; i++) {
      ascii = ascii && (unsigned char)x->text[i] < 0x80;
      nul = nul || x->text[i] == '\0';
    }
    cw_puts(&e->consts, "    ");
    if (nul) {
      cw_puts(&e->consts, "PCL_STATIC_STRING_N(");
      cw_cstring(&e->consts, x->text, x->len);
      cw_printf(&e->consts, ", %zu),\n", x->len);
    } else {
      cw_puts(&e->consts, ascii ? "PCL_STATIC_ASCII(" : "PCL_STATIC_STRING(");
      cw_cstring(&e->consts, x->text, x->len);
      cw_puts(&e->consts, "),\n");
    }
    break;
  }
  }
  return e->nconsts++;
}

/* -------------------------------------------------------------- expressions */

/* One row of an expression table while a module is emitted. */
typedef struct row {
  const ir_expr *x; /* The expression. */
  uint32_t a;       /* x->a, except: CONST, the constant; ATTR, its name's constant. */
  uint32_t kids;    /* Index of x's first child in the module's child table. */
  uint32_t s;       /* 0, or 1 + the STRING constant of x->s. */
} row;

/* The expression and child tables of the module being emitted. */
typedef struct mod {
  row *rows;             /* Expressions in the order put() numbered them. */
  size_t nrows, caprows; /* Rows used and allocated. */
  uint32_t *kids;        /* Child table: row indexes, each row's children contiguous. */
  size_t nkids, capkids; /* Entries used and allocated. */
} mod;

/* The numbering of runtime/pcl_gen.h that the packed form uses.  IR operations
 * are numbered as PCL_X_* (ir_ops.h lists them in the same order), and the
 * ast operators as PCL_XU_* and PCL_XB_*; test_backend checks both. */
enum {
  PK_N_LOCAL, PK_N_CONFIG, PK_N_RESOURCE, PK_N_READ, PK_N_COMPONENT, PK_N_OUTPUT, PK_N_PULUMI
};
enum { PK_RANGE_NONE, PK_RANGE_BOOL, PK_RANGE_COUNT, PK_RANGE_LIST, PK_RANGE_MAP };
enum { PK_RES_CUSTOM, PK_RES_COMPONENT, PK_RES_REMOTE };

/* Writes v as a packed number (runtime/pcl_gen.h, pcl_packed_module). */
static void pk(cw *w, uint32_t v) {
  char digits[8];
  int n = 0;
  do {
    digits[n++] = (char)(v & 15);
    v >>= 4;
  } while (v != 0);
  char buf[9];
  int k = 0;
  for (int i = n - 1; i > 0; i--)
    buf[k++] = (char)('g' + digits[i]);
  buf[k++] = digits[0] < 10 ? (char)('0' + digits[0]) : (char)('A' + digits[0] - 10);
  buf[k] = '\0';
  cw_puts(w, buf);
}

/* Writes an optional index: 0 for none, else 1 + the index. */
static void pk_opt(cw *w, uint32_t v) { pk(w, v == UINT32_MAX ? 0 : v + 1); }

/* Returns the index of the STRING constant s. */
static uint32_t string_const(em *e, const char *s) {
  ir_expr x = {0};
  x.op = IR_CONST;
  x.ck = IR_K_STRING;
  x.text = s;
  x.len = strlen(s);
  return (uint32_t)constant(e, &x);
}

/* Adds x and, after it, its subtrees to m's tables; returns x's row. */
static uint32_t put(em *e, mod *m, const ir_expr *x) {
  if (m->nrows == m->caprows) {
    m->caprows = m->caprows ? 2 * m->caprows : 64;
    m->rows = xrealloc(m->rows, m->caprows * sizeof *m->rows);
  }
  size_t idx = m->nrows++;
  m->rows[idx].x = x;
  m->rows[idx].a = x->a;
  if (x->op == IR_CONST)
    m->rows[idx].a = (uint32_t)constant(e, x);
  m->rows[idx].s = x->s ? string_const(e, x->s) + 1 : 0;
  if (x->op == IR_ATTR)
    m->rows[idx].a = m->rows[idx].s - 1;
  uint32_t *tmp = x->n ? xmalloc(x->n * sizeof *tmp) : NULL;
  for (size_t i = 0; i < x->n; i++)
    tmp[i] = put(e, m, x->kids[i]);
  if (m->nkids + x->n > m->capkids) {
    while (m->nkids + x->n > m->capkids)
      m->capkids = m->capkids ? 2 * m->capkids : 64;
    m->kids = xrealloc(m->kids, m->capkids * sizeof *m->kids);
  }
  m->rows[idx].kids = (uint32_t)m->nkids;
  for (size_t i = 0; i < x->n; i++)
    m->kids[m->nkids++] = tmp[i];
  free(tmp);
  return (uint32_t)idx;
}

/* Writes file, line and column of span. */
static void pk_loc(em *e, cw *w, pcl_span span) {
  src_pos p = src_position(e->src, span.file, span.start);
  pk(w, span.file);
  pk(w, (uint32_t)p.line);
  pk(w, (uint32_t)p.column);
}

/* ------------------------------------------------------------------- paths */

/* Returns the last component of path, trailing slashes ignored; *len gets
 * its length (the component is not NUL-terminated where slashes follow). */
static const char *path_base(const char *path, size_t *len) {
  size_t end = strlen(path);
  while (end > 1 && path[end - 1] == '/')
    end--;
  const char *base = path;
  for (size_t i = 0; i < end; i++) {
    if (path[i] == '/')
      base = path + i + 1;
  }
  *len = (size_t)(path + end - base);
  return base;
}

/* Appends s as the text of a C comment: a `*` followed by `/` would end the
 * comment, so it is written `*\`. */
static void comment_text(cw *w, const char *s) {
  for (const char *p = s; *p; p++) {
    if (p[0] == '*' && p[1] == '/')
      cw_puts(w, "*\\");
    else
      cw_printf(w, "%c", *p);
  }
}

/* ------------------------------------------------------------- declarations */

/* components:index:<DeclarationName> of a component source directory. */
static char *component_type(const char *source) {
  size_t blen;
  const char *base = path_base(source, &blen);
  cw w = CW_INIT;
  cw_puts(&w, "components:index:");
  bool up = true;
  for (size_t i = 0; i < blen; i++) {
    char c = base[i];
    if (c == '-' || c == '.' || c == ' ') {
      up = true;
      continue;
    }
    if (up && c >= 'a' && c <= 'z')
      c = (char)(c - 'a' + 'A');
    up = false;
    cw_printf(&w, "%c", c);
  }
  return w.data;
}

/* The packed number of a range kind (PCL_RANGE_* in runtime/pcl_gen.h). */
static uint32_t range_kind(bnd_range_kind k) {
  switch (k) {
  case BND_RANGE_NONE:
    return PK_RANGE_NONE;
  case BND_RANGE_BOOL:
    return PK_RANGE_BOOL;
  case BND_RANGE_COUNT:
    return PK_RANGE_COUNT;
  case BND_RANGE_LIST:
    return PK_RANGE_LIST;
  case BND_RANGE_MAP:
    return PK_RANGE_MAP;
  }
  return PK_RANGE_NONE;
}

/* ------------------------------------------------------------------ modules */

/* Writes the packed code as string literals of at most CHUNK_MAX bytes
 * (ISO C compilers need to support only 4095), one per array element; a
 * chunk holds whole lines, each line one row of a table. */
enum { CHUNK_MAX = 4000 };

typedef struct chunker {
  cw *w;
  size_t used; /* Bytes in the chunk being written (0: none open). */
} chunker;

/* Ends the chunk being written: a comma after its last line. */
static void chunk_close(chunker *ch) {
  ch->w->len--; /* The newline after the last line. */
  cw_puts(ch->w, ",\n");
  ch->used = 0;
}

/* Writes line (and empties it) as the next line of the packed code. */
static void chunk_line(chunker *ch, cw *line) {
  if (ch->used > 0 && ch->used + line->len > CHUNK_MAX)
    chunk_close(ch);
  cw_puts(ch->w, "    \"");
  if (line->len)
    cw_puts(ch->w, line->data);
  cw_puts(ch->w, "\"\n");
  ch->used += line->len + 1;
  line->len = 0;
  if (line->data)
    line->data[0] = '\0';
}

/* Emits module im (its component modules first) as pclg_p<index>. */
static void emit_module(em *e, const ir_module *im, size_t *nconfigs) {
  for (size_t i = 0; i < im->count; i++) {
    if (im->nodes[i].component)
      emit_module(e, im->nodes[i].component, nconfigs);
  }
  mod m = {0};
  /* One packed line per node, written once its expressions have rows. */
  cw *node_lines = xcalloc(im->count ? im->count : 1, sizeof *node_lines);
  size_t k = im->index;
  cw comps = CW_INIT;
  uint32_t ncomps = 0;
  size_t count = 0;
  for (size_t i = 0; i < im->count; i++) {
    const ir_node *n = &im->nodes[i];
    const bnd_node *b = n->b;
    uint32_t kind = PK_N_LOCAL, range = PK_RANGE_NONE, rkind = PK_RES_CUSTOM;
    uint32_t config = 0, type = 0, comp = 0, version = 0, url = 0;
    bool secret = false;
    switch (b->kind) {
    case BND_LOCAL:
      break;
    case BND_CONFIG:
      kind = PK_N_CONFIG;
      secret = b->config.secret;
      if (im->index == 0)
        config = (uint32_t)(*nconfigs)++;
      break;
    case BND_OUTPUT:
      kind = PK_N_OUTPUT;
      break;
    case BND_RESOURCE:
    case BND_READ:
      kind = b->kind == BND_READ ? PK_N_READ : PK_N_RESOURCE;
      range = range_kind(b->resource.range);
      rkind = b->resource.is_component ? PK_RES_REMOTE : PK_RES_CUSTOM;
      type = string_const(e, b->resource.canonical) + 1;
      if (b->resource.schema && b->resource.schema->pkg && b->resource.schema->pkg->version)
        version = string_const(e, b->resource.schema->pkg->version) + 1;
      if (b->resource.schema && b->resource.schema->pkg &&
          b->resource.schema->pkg->plugin_download_url)
        url = string_const(e, b->resource.schema->pkg->plugin_download_url) + 1;
      break;
    case BND_COMPONENT:
      kind = PK_N_COMPONENT;
      range = range_kind(b->component.range);
      rkind = PK_RES_COMPONENT;
      if (b->component.source) {
        char *t = component_type(b->component.source);
        type = string_const(e, t) + 1;
        free(t);
      } else {
        type = string_const(e, b->component.token ? b->component.token : "") + 1;
      }
      if (n->component) {
        cw_printf(&comps, "    &pclg_p%zu,\n", n->component->index);
        comp = ++ncomps;
      }
      break;
    case BND_HOOK:
      break;
    case BND_PULUMI:
      kind = PK_N_PULUMI;
      break;
    }
    cw *nodes = &node_lines[count++];
    uint32_t value = n->value ? put(e, &m, n->value) : UINT32_MAX;
    uint32_t inputs = n->inputs ? put(e, &m, n->inputs) : UINT32_MAX;
    uint32_t options = n->options ? put(e, &m, n->options) : UINT32_MAX;
    uint32_t rexpr = n->range ? put(e, &m, n->range) : UINT32_MAX;
    pk(nodes, kind);
    pk(nodes, range);
    pk(nodes, secret ? 1 : 0);
    pk(nodes, config);
    pk(nodes, string_const(e, b->logical_name));
    pk_opt(nodes, value);
    pk_opt(nodes, inputs);
    pk_opt(nodes, options);
    pk_opt(nodes, rexpr);
    pk(nodes, n->range_slot);
    pk(nodes, type);
    pk(nodes, rkind);
    pk(nodes, version);
    pk(nodes, url);
    pk(nodes, comp);
    pk_loc(e, nodes, b->span);
  }

  cw *w = &e->modules;
  cw_printf(w, "\n/* Module %zu: ", k);
  comment_text(w, im->program->dir);
  cw_printf(w, " */\nstatic const pcl_packed_module *const pclg_s%zu[] = {\n", k);
  cw_append(w, &comps);
  if (ncomps == 0)
    cw_puts(w, "    NULL,\n");
  cw_printf(w, "};\nstatic const char *const pclg_b%zu[] = {\n", k);
  chunker ch = {w, 0};
  cw line = CW_INIT;
  pk(&line, im->nslots);
  pk(&line, (uint32_t)m.nrows);
  pk(&line, (uint32_t)m.nkids);
  pk(&line, (uint32_t)count);
  chunk_line(&ch, &line);
  for (size_t i = 0; i < m.nrows; i++) {
    const row *r = &m.rows[i];
    const ir_expr *x = r->x;
    pk(&line, (uint32_t)x->op);
    pk(&line, x->sub);
    pk(&line, r->a);
    pk(&line, x->b);
    pk(&line, r->kids);
    pk(&line, (uint32_t)x->n);
    pk(&line, r->s);
    pk_loc(e, &line, x->span);
    chunk_line(&ch, &line);
  }
  for (size_t i = 0; i < m.nkids; i++) {
    pk(&line, m.kids[i]);
    if (i % 32 == 31 || i + 1 == m.nkids)
      chunk_line(&ch, &line);
  }
  for (size_t i = 0; i < count; i++) {
    chunk_line(&ch, &node_lines[i]);
    cw_free(&node_lines[i]);
  }
  if (ch.used)
    chunk_close(&ch);
  cw_free(&line);
  cw_printf(w, "    NULL,\n};\nstatic const pcl_packed_module pclg_p%zu = {pclg_b%zu, pclg_v, pclg_f, pclg_s%zu};\n",
            k, k, k);
  free(node_lines);
  cw_free(&comps);
  free(m.rows);
  free(m.kids);
}

/* ------------------------------------------------------------------- config */

/* Returns the C expression of the runtime type of a config's declared type. */
static char *type_ref(em *e, const ty *t) {
  cw r = CW_INIT;
  while (t->kind == TY_OUTPUT || t->kind == TY_PROMISE)
    t = t->elem;
  switch (t->kind) {
  case TY_BOOL:
    cw_puts(&r, "&pcl_type_bool");
    break;
  case TY_INT:
    cw_puts(&r, "&pcl_type_int");
    break;
  case TY_NUMBER:
    cw_puts(&r, "&pcl_type_number");
    break;
  case TY_STRING:
  case TY_ID:
    cw_puts(&r, "&pcl_type_string");
    break;
  case TY_CONST:
    return type_ref(e, t->cnst.base);
  case TY_ENUM:
    return type_ref(e, t->enm.base);
  case TY_LIST:
  case TY_SET:
  case TY_MAP: {
    char *elem = type_ref(e, t->elem);
    size_t n = e->ntypes++;
    cw_printf(&e->types, "static const pcl_type pclg_t%zu = {%s, %s, NULL, 0};\n", n,
              t->kind == TY_MAP ? "PCL_TY_MAP" : "PCL_TY_LIST", elem);
    free(elem);
    cw_printf(&r, "&pclg_t%zu", n);
    break;
  }
  case TY_UNION: {
    const ty *other = NULL;
    bool optional = false;
    size_t others = 0;
    for (size_t i = 0; i < t->elems.count; i++) {
      if (t->elems.items[i]->kind == TY_NONE) {
        optional = true;
      } else {
        other = t->elems.items[i];
        others++;
      }
    }
    if (optional && others == 1) {
      char *elem = type_ref(e, other);
      size_t n = e->ntypes++;
      cw_printf(&e->types, "static const pcl_type pclg_t%zu = {PCL_TY_OPTIONAL, %s, NULL, 0};\n",
                n, elem);
      free(elem);
      cw_printf(&r, "&pclg_t%zu", n);
    } else {
      cw_puts(&r, "&pcl_type_any");
    }
    break;
  }
  case TY_OBJECT: {
    size_t count = t->object.count;
    char **fields = xcalloc(count ? count : 1, sizeof *fields);
    for (size_t i = 0; i < count; i++)
      fields[i] = type_ref(e, t->object.props[i].type);
    size_t n = e->ntypes++;
    if (count) {
      cw_printf(&e->types, "static const pcl_type_field pclg_tf%zu[] = {", n);
      for (size_t i = 0; i < count; i++) {
        cw_puts(&e->types, i ? ", {" : "{");
        cw_cstring(&e->types, t->object.props[i].name, strlen(t->object.props[i].name));
        cw_printf(&e->types, ", %s}", fields[i]);
        free(fields[i]);
      }
      cw_puts(&e->types, "};\n");
      cw_printf(&e->types,
                "static const pcl_type pclg_t%zu = {PCL_TY_OBJECT, NULL, pclg_tf%zu, %zu};\n", n,
                n, count);
    } else {
      cw_printf(&e->types, "static const pcl_type pclg_t%zu = {PCL_TY_OBJECT, NULL, NULL, 0};\n",
                n);
    }
    free(fields);
    cw_printf(&r, "&pclg_t%zu", n);
    break;
  }
  case TY_DYNAMIC:
  case TY_NONE:
  case TY_OPAQUE:
  case TY_TUPLE:
  case TY_OUTPUT:
  case TY_PROMISE:
    cw_puts(&r, "&pcl_type_any");
    break;
  }
  return r.data;
}

/* ------------------------------------------------------------------ program */

/* The program's name: the input's last path component without `.pp`. */
static char *program_name(const char *input) {
  size_t blen;
  const char *base = path_base(input, &blen);
  if (blen > 3 && memcmp(base + blen - 3, ".pp", 3) == 0)
    blen -= 3;
  char *s = xmalloc(blen + 1);
  memcpy(s, base, blen);
  s[blen] = '\0';
  return s;
}

bool emit_program(FILE *out, const char *input, src_set *src, const ir_module *top) {
  em e = {0};
  e.src = src;
  arena_init(&e.keys);
  intern_init(&e.key_names, &e.keys);
  size_t nconfigs = 0;
  emit_module(&e, top, &nconfigs);

  cw cfg = CW_INIT;
  for (size_t i = 0; i < top->count; i++) {
    const bnd_node *b = top->nodes[i].b;
    if (b->kind != BND_CONFIG)
      continue;
    char *t = type_ref(&e, b->config.value_type ? b->config.value_type : b->config.decl_type);
    cw_puts(&cfg, "    {");
    cw_cstring(&cfg, b->logical_name, strlen(b->logical_name));
    cw_printf(&cfg, ", %s, NULL, %d, %d, %d},\n", t, b->config.default_ ? 1 : 0,
              b->config.nullable ? 1 : 0, b->config.secret ? 1 : 0);
    free(t);
  }

  cw o = CW_INIT;
  cw_puts(&o, "/* Generated by pclc from ");
  comment_text(&o, input);
  cw_puts(&o, "; do not edit. */\n#include \"pcl_gen.h\"\n\n/* Constants. */\n");
  cw_append(&o, &e.limbs);
  cw_puts(&o, "static pcl_value pclg_v[] = {\n");
  cw_append(&o, &e.consts);
  if (e.nconsts == 0)
    cw_puts(&o, "    PCL_STATIC_NULL,\n");
  cw_puts(&o, "};\n\n/* Source files. */\nstatic const char *const pclg_f[] = {\n");
  /* Only program sources are named: the compilation also read schema
   * files, which no expression points into. */
  for (size_t i = 0; i < src->count; i++) {
    const char *path = src->files[i].path;
    size_t len = strlen(path);
    if (len > 3 && strcmp(path + len - 3, ".pp") == 0) {
      cw_puts(&o, "    ");
      cw_cstring(&o, path, len);
      cw_puts(&o, ",\n");
    } else {
      cw_puts(&o, "    NULL,\n");
    }
  }
  if (src->count == 0)
    cw_puts(&o, "    NULL,\n");
  cw_puts(&o, "};\n");
  cw_append(&o, &e.modules);
  cw_puts(&o, "\n/* Configuration. */\n");
  cw_append(&o, &e.types);
  cw_puts(&o, "static const pcl_config_decl pclg_cfg[] = {\n");
  cw_append(&o, &cfg);
  if (nconfigs == 0)
    cw_puts(&o, "    {NULL, NULL, NULL, 0, 0, 0},\n");
  char *name = program_name(input);
  cw_puts(&o, "};\n\nstatic void pclg_start(pcl_run *run) { pcl_packed_start(run, &pclg_p0); }\n\n"
              "static const pcl_program pclg_program = {");
  cw_cstring(&o, name, strlen(name));
  cw_printf(&o, ", pclg_cfg, %zu, pclg_start};\n\n"
                "int main(int argc, char **argv) { return pcl_main(argc, argv, &pclg_program); }\n",
            nconfigs);
  free(name);
  bool ok = cw_write(&o, out);
  cw_free(&o);
  cw_free(&cfg);
  cw_free(&e.consts);
  cw_free(&e.limbs);
  cw_free(&e.modules);
  cw_free(&e.types);
  ptrmap_free(&e.key_index);
  intern_free(&e.key_names);
  arena_free(&e.keys);
  return ok;
}
