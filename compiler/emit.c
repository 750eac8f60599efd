/* emit: IR to C as static tables (see emit.h).
 *
 * Sections are written into separate cw buffers and concatenated in
 * dependency order: constants, files, resource declarations, the modules
 * (components first, so that a node can point at its component's module),
 * config types and declarations, then the program descriptor and main.
 * Constants are shared by every module and deduplicated by kind and bytes;
 * resource declarations are per node (they carry its location). */
#include "emit.h"

#include <gmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cw.h"
#include "util.h"

/* A string-keyed table of indexes (deduplication). */
typedef struct dedup {
  char **keys;
  size_t *vals;
  size_t *lens;
  size_t cap, count;
} dedup;

static uint64_t hash_bytes(const char *s, size_t n) {
  uint64_t h = 1469598103934665603u;
  for (size_t i = 0; i < n; i++) {
    h ^= (unsigned char)s[i];
    h *= 1099511628211u;
  }
  return h;
}

/* Returns the index stored under key[0..len), or stores `fresh` and returns
 * SIZE_MAX. */
static size_t dedup_find_or_add(dedup *d, const char *key, size_t len, size_t fresh) {
  if (2 * (d->count + 1) > d->cap) {
    size_t cap = d->cap ? 2 * d->cap : 64;
    char **keys = xcalloc(cap, sizeof *keys);
    size_t *vals = xcalloc(cap, sizeof *vals);
    size_t *lens = xcalloc(cap, sizeof *lens);
    for (size_t i = 0; i < d->cap; i++) {
      if (!d->keys[i])
        continue;
      size_t j = hash_bytes(d->keys[i], d->lens[i]) & (cap - 1);
      while (keys[j])
        j = (j + 1) & (cap - 1);
      keys[j] = d->keys[i];
      vals[j] = d->vals[i];
      lens[j] = d->lens[i];
    }
    free(d->keys);
    free(d->vals);
    free(d->lens);
    d->keys = keys;
    d->vals = vals;
    d->lens = lens;
    d->cap = cap;
  }
  size_t j = hash_bytes(key, len) & (d->cap - 1);
  while (d->keys[j]) {
    if (d->lens[j] == len && memcmp(d->keys[j], key, len) == 0)
      return d->vals[j];
    j = (j + 1) & (d->cap - 1);
  }
  d->keys[j] = xmalloc(len + 1);
  memcpy(d->keys[j], key, len);
  d->keys[j][len] = '\0';
  d->lens[j] = len;
  d->vals[j] = fresh;
  d->count++;
  return SIZE_MAX;
}

static void dedup_free(dedup *d) {
  for (size_t i = 0; i < d->cap; i++)
    free(d->keys[i]);
  free(d->keys);
  free(d->vals);
  free(d->lens);
}

/* The state of one emission. */
typedef struct em {
  src_set *src;
  cw consts;   /* Static values. */
  cw ctable;   /* Entries of the constant table. */
  size_t nconsts;
  dedup cdedup;
  cw decls; /* Resource declarations. */
  size_t ndecls;
  cw modules; /* Module tables. */
  cw types;   /* Config types. */
  size_t ntypes;
  size_t nlimbs;
} em;

/* ---------------------------------------------------------------- constants */

static void emit_int(em *e, const char *digits) {
  mpz_t z;
  if (mpz_init_set_str(z, digits[0] == '+' ? digits + 1 : digits, 10) != 0)
    ice("bad integer literal '%s'", digits);
  if (mpz_cmp_si(z, INT64_MAX) <= 0 && mpz_cmp_si(z, -INT64_MAX) >= 0) {
    char *s = mpz_get_str(NULL, 10, z);
    cw_printf(&e->consts, "static pcl_value pclg_c%zu = PCL_STATIC_INT(%s);\n", e->nconsts, s);
    free(s);
  } else if (mpz_cmp_si(z, INT64_MIN) == 0) {
    cw_printf(&e->consts,
              "static pcl_value pclg_c%zu = PCL_STATIC_INT(-9223372036854775807 - 1);\n",
              e->nconsts);
  } else {
    size_t count = 0;
    uint64_t *limbs = mpz_export(NULL, &count, -1, 8, 0, 0, z);
    size_t l = e->nlimbs++;
    cw_printf(&e->consts, "static const uint64_t pclg_l%zu[] = {", l);
    for (size_t i = 0; i < count; i++)
      cw_printf(&e->consts, "%s0x%016llxu", i ? ", " : "", (unsigned long long)limbs[i]);
    cw_printf(&e->consts, "};\nstatic pcl_value pclg_c%zu = PCL_STATIC_BIGINT(pclg_l%zu, %s%zu);\n",
              e->nconsts, l, mpz_sgn(z) < 0 ? "-" : "", count);
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
  size_t found = dedup_find_or_add(&e->cdedup, key.data, key.len, e->nconsts);
  cw_free(&key);
  if (found != SIZE_MAX)
    return found;
  switch (x->ck) {
  case IR_K_NULL:
    cw_printf(&e->consts, "static pcl_value pclg_c%zu = PCL_STATIC_NULL;\n", e->nconsts);
    break;
  case IR_K_BOOL:
    cw_printf(&e->consts, "static pcl_value pclg_c%zu = PCL_STATIC_BOOL(%d);\n", e->nconsts,
              x->boolean ? 1 : 0);
    break;
  case IR_K_INT:
    emit_int(e, x->text);
    break;
  case IR_K_NUMBER:
    cw_printf(&e->consts, "static pcl_value pclg_c%zu = PCL_STATIC_NUMBER(%.17g);\n", e->nconsts,
              x->number);
    break;
  case IR_K_STRING: {
    bool ascii = true, nul = false;
    for (size_t i = 0; i < x->len; i++) {
      ascii = ascii && (unsigned char)x->text[i] < 0x80;
      nul = nul || x->text[i] == '\0';
    }
    cw_printf(&e->consts, "static pcl_value pclg_c%zu = ", e->nconsts);
    if (nul) {
      cw_puts(&e->consts, "PCL_STATIC_STRING_N(");
      cw_cstring(&e->consts, x->text, x->len);
      cw_printf(&e->consts, ", %zu);\n", x->len);
    } else {
      cw_puts(&e->consts, ascii ? "PCL_STATIC_ASCII(" : "PCL_STATIC_STRING(");
      cw_cstring(&e->consts, x->text, x->len);
      cw_puts(&e->consts, ");\n");
    }
    break;
  }
  }
  cw_printf(&e->ctable, "    &pclg_c%zu,\n", e->nconsts);
  return e->nconsts++;
}

/* -------------------------------------------------------------- expressions */

/* One row of an expression table while a module is emitted. */
typedef struct row {
  const ir_expr *x;
  uint32_t a, kids;
} row;

typedef struct mod {
  row *rows;
  size_t nrows, caprows;
  uint32_t *kids;
  size_t nkids, capkids;
} mod;

static const char *const xop_names[] = {
#define X(name, text) "PCL_X_" #name,
    IR_OPS(X)
#undef X
};

static const char *const binop_names[] = {"PCL_XB_OR",  "PCL_XB_AND", "PCL_XB_EQ",  "PCL_XB_NE",
                                          "PCL_XB_LT",  "PCL_XB_LE",  "PCL_XB_GT",  "PCL_XB_GE",
                                          "PCL_XB_ADD", "PCL_XB_SUB", "PCL_XB_MUL", "PCL_XB_DIV",
                                          "PCL_XB_MOD"};

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

static void row_sub(cw *w, const ir_expr *x) {
  switch (x->op) {
  case IR_UNARY:
    cw_puts(w, x->sub == 0 ? "PCL_XU_NEG" : "PCL_XU_NOT");
    return;
  case IR_BINARY:
    cw_puts(w, binop_names[x->sub]);
    return;
  case IR_CONST:
  case IR_NODE:
  case IR_VAR:
  case IR_PARAM:
  case IR_ATTR:
  case IR_INDEX:
  case IR_LIST:
  case IR_OBJECT:
  case IR_TEMPLATE:
  case IR_COND:
  case IR_CALL:
  case IR_CONVERT:
  case IR_FOR:
  case IR_SPLAT:
  case IR_APPLY:
  case IR_SECRET:
  case IR_UNSECRET:
  case IR_INVOKE:
  case IR_METHOD:
  case IR_TRY:
  case IR_CAN:
  case IR_RECOVER:
    cw_printf(w, "%u", x->sub);
    return;
  }
}

static void loc(em *e, cw *w, pcl_span span) {
  src_pos p = src_position(e->src, span.file, span.start);
  cw_printf(w, "%u, %zu, %zu", (unsigned)span.file, p.line, p.column);
}

/* ------------------------------------------------------------- declarations */

/* components:index:<DeclarationName> of a component source directory. */
static char *component_type(const char *source) {
  const char *base = source;
  size_t len = strlen(source);
  while (len > 1 && source[len - 1] == '/')
    len--;
  for (size_t i = 0; i < len; i++) {
    if (source[i] == '/')
      base = source + i + 1;
  }
  size_t blen = (size_t)(source + len - base);
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

/* Emits the declaration of node b's resource type (one per node, since it
 * carries the node's location) and returns its number. */
static size_t decl(em *e, const char *token, const char *kind, const bnd_node *b) {
  const char *file = e->src->files[b->span.file].path;
  src_pos p = src_position(e->src, b->span.file, b->span.start);
  cw_printf(&e->decls, "static const pcl_resource_decl pclg_d%zu = {", e->ndecls);
  cw_cstring(&e->decls, token, strlen(token));
  cw_printf(&e->decls, ", %s, NULL, NULL, ", kind);
  cw_cstring(&e->decls, file, strlen(file));
  cw_printf(&e->decls, ", %zu, %zu};\n", p.line, p.column);
  return e->ndecls++;
}

static const char *range_kind(bnd_range_kind k) {
  switch (k) {
  case BND_RANGE_NONE:
    return "PCL_RANGE_NONE";
  case BND_RANGE_BOOL:
    return "PCL_RANGE_BOOL";
  case BND_RANGE_COUNT:
    return "PCL_RANGE_COUNT";
  case BND_RANGE_LIST:
    return "PCL_RANGE_LIST";
  case BND_RANGE_MAP:
    return "PCL_RANGE_MAP";
  }
  return "PCL_RANGE_NONE";
}

/* ------------------------------------------------------------------ modules */

static void emit_module(em *e, const ir_module *im, size_t *nconfigs) {
  for (size_t i = 0; i < im->count; i++) {
    if (im->nodes[i].component)
      emit_module(e, im->nodes[i].component, nconfigs);
  }
  mod m = {0};
  cw nodes = CW_INIT;
  size_t k = im->index;
  for (size_t i = 0; i < im->count; i++) {
    const ir_node *n = &im->nodes[i];
    const bnd_node *b = n->b;
    const char *kind = "PCL_N_LOCAL";
    const char *range = "PCL_RANGE_NONE";
    size_t config = 0;
    bool secret = false;
    long d = -1;
    switch (b->kind) {
    case BND_LOCAL:
      break;
    case BND_CONFIG:
      kind = "PCL_N_CONFIG";
      secret = b->config.secret;
      if (im->index == 0)
        config = (*nconfigs)++;
      break;
    case BND_OUTPUT:
      kind = "PCL_N_OUTPUT";
      break;
    case BND_RESOURCE:
    case BND_READ:
      kind = b->kind == BND_READ ? "PCL_N_READ" : "PCL_N_RESOURCE";
      range = range_kind(b->resource.range);
      d = (long)decl(e, b->resource.canonical,
                     b->resource.is_component ? "PCL_RES_REMOTE" : "PCL_RES_CUSTOM", b);
      break;
    case BND_COMPONENT: {
      kind = "PCL_N_COMPONENT";
      range = range_kind(b->component.range);
      if (b->component.source) {
        char *t = component_type(b->component.source);
        d = (long)decl(e, t, "PCL_RES_COMPONENT", b);
        free(t);
      } else {
        d = (long)decl(e, b->component.token ? b->component.token : "", "PCL_RES_COMPONENT", b);
      }
      break;
    }
    case BND_PULUMI:
    case BND_HOOK:
      continue;
    }
    uint32_t value = n->value ? put(e, &m, n->value) : UINT32_MAX;
    uint32_t inputs = n->inputs ? put(e, &m, n->inputs) : UINT32_MAX;
    uint32_t options = n->options ? put(e, &m, n->options) : UINT32_MAX;
    uint32_t rexpr = n->range ? put(e, &m, n->range) : UINT32_MAX;
    cw_printf(&nodes, "    {%s, %s, %d, %zu, ", kind, range, secret ? 1 : 0, config);
    cw_cstring(&nodes, b->logical_name, strlen(b->logical_name));
#define IDX(v) ((v) == UINT32_MAX ? "PCL_XNONE" : "")
    cw_printf(&nodes, ", ");
    if (value == UINT32_MAX)
      cw_puts(&nodes, "PCL_XNONE");
    else
      cw_printf(&nodes, "%u", (unsigned)value);
    cw_printf(&nodes, ", ");
    if (inputs == UINT32_MAX)
      cw_puts(&nodes, "PCL_XNONE");
    else
      cw_printf(&nodes, "%u", (unsigned)inputs);
    cw_printf(&nodes, ", ");
    if (options == UINT32_MAX)
      cw_puts(&nodes, "PCL_XNONE");
    else
      cw_printf(&nodes, "%u", (unsigned)options);
    cw_printf(&nodes, ", ");
    if (rexpr == UINT32_MAX)
      cw_puts(&nodes, "PCL_XNONE");
    else
      cw_printf(&nodes, "%u", (unsigned)rexpr);
#undef IDX
    cw_printf(&nodes, ", %u, ", (unsigned)n->range_slot);
    if (d >= 0)
      cw_printf(&nodes, "&pclg_d%ld, ", d);
    else
      cw_puts(&nodes, "NULL, ");
    if (n->component)
      cw_printf(&nodes, "&pclg_m%zu, ", n->component->index);
    else
      cw_puts(&nodes, "NULL, ");
    loc(e, &nodes, b->span);
    cw_puts(&nodes, "},\n");
  }

  cw *w = &e->modules;
  cw_printf(w, "\n/* Module %zu: ", k);
  cw_puts(w, im->program->dir);
  cw_puts(w, " */\nstatic const pcl_expr pclg_x");
  cw_printf(w, "%zu[] = {\n", k);
  for (size_t i = 0; i < m.nrows; i++) {
    const row *r = &m.rows[i];
    const ir_expr *x = r->x;
    cw_printf(w, "    {%s, ", xop_names[x->op]);
    row_sub(w, x);
    cw_printf(w, ", %u, %u, %u, %zu, ", (unsigned)r->a, (unsigned)x->b, (unsigned)r->kids, x->n);
    if (x->s)
      cw_cstring(w, x->s, strlen(x->s));
    else
      cw_puts(w, "NULL");
    cw_puts(w, ", ");
    loc(e, w, x->span);
    cw_puts(w, "},\n");
  }
  if (m.nrows == 0)
    cw_puts(w, "    {0, 0, 0, 0, 0, 0, NULL, 0, 0, 0},\n");
  cw_printf(w, "};\nstatic const uint32_t pclg_k%zu[] = {", k);
  for (size_t i = 0; i < m.nkids; i++)
    cw_printf(w, "%s%u", i == 0 ? "\n    " : i % 16 ? ", " : ",\n    ", (unsigned)m.kids[i]);
  if (m.nkids == 0)
    cw_puts(w, "\n    0");
  cw_printf(w, "\n};\nstatic const pcl_node_desc pclg_n%zu[] = {\n", k);
  cw_append(w, &nodes);
  if (im->count == 0)
    cw_puts(w, "    {0, 0, 0, 0, NULL, 0, 0, 0, 0, 0, NULL, NULL, 0, 0, 0},\n");
  cw_printf(w,
            "};\nstatic const pcl_module pclg_m%zu = {pclg_x%zu, pclg_k%zu, pclg_v, pclg_n%zu, "
            "%zu, %u, pclg_f};\n",
            k, k, k, k, im->count, (unsigned)im->nslots);
  cw_free(&nodes);
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

static char *program_name(const char *input) {
  size_t len = strlen(input);
  while (len > 1 && input[len - 1] == '/')
    len--;
  const char *base = input;
  for (size_t i = 0; i < len; i++) {
    if (input[i] == '/')
      base = input + i + 1;
  }
  size_t blen = (size_t)(input + len - base);
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
  /* The path is written without comment terminators. */
  for (const char *p = input; *p; p++) {
    if (p[0] == '*' && p[1] == '/')
      cw_puts(&o, "*\\");
    else
      cw_printf(&o, "%c", *p);
  }
  cw_puts(&o, "; do not edit. */\n#include \"pcl.h\"\n\n/* Constants. */\n");
  cw_append(&o, &e.consts);
  cw_puts(&o, "static pcl_value *const pclg_v[] = {\n");
  cw_append(&o, &e.ctable);
  if (e.nconsts == 0)
    cw_puts(&o, "    NULL,\n");
  cw_puts(&o, "};\n\n/* Source files. */\nstatic const char *const pclg_f[] = {\n");
  for (size_t i = 0; i < src->count; i++) {
    cw_puts(&o, "    ");
    cw_cstring(&o, src->files[i].path, strlen(src->files[i].path));
    cw_puts(&o, ",\n");
  }
  if (src->count == 0)
    cw_puts(&o, "    NULL,\n");
  cw_puts(&o, "};\n\n/* Resource declarations. */\n");
  cw_append(&o, &e.decls);
  cw_append(&o, &e.modules);
  cw_puts(&o, "\n/* Configuration. */\n");
  cw_append(&o, &e.types);
  cw_puts(&o, "static const pcl_config_decl pclg_cfg[] = {\n");
  cw_append(&o, &cfg);
  if (nconfigs == 0)
    cw_puts(&o, "    {NULL, NULL, NULL, 0, 0, 0},\n");
  char *name = program_name(input);
  cw_puts(&o, "};\n\nstatic void pclg_start(pcl_run *run) { pcl_module_start(run, &pclg_m0); }\n\n"
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
  cw_free(&e.ctable);
  cw_free(&e.decls);
  cw_free(&e.modules);
  cw_free(&e.types);
  dedup_free(&e.cdedup);
  return ok;
}
