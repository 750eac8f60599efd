/* emit: the IR to one C translation unit (see emit.h).
 *
 * The modules are walked once, each node handed to emit_func.c, which
 * writes its functions and rows and fills the tables of constants,
 * locations and declarations (emit_const.c).  This module then assembles the file in the
 * order C needs: the tables every function reads, the rows, the node
 * tables and module descriptors (after prototypes of the node functions),
 * the functions, the config declarations, the parameterized packages and
 * the program descriptor with `main`.  With #line directives on, the C lines between functions are
 * given back to the C file (`#line <n> "<output>"`), so that a diagnostic
 * about the tables points at the C text. */
#include "emit/emit.h"

#include <stdlib.h>
#include <string.h>

#include "pcl_abi.h"
#include "base/stack.h"
#include "base/util.h"
#include "emit/emit_internal.h"

/* ------------------------------------------------------------------- config */

/* Returns the C expression of the runtime type of a config's declared type
 * (arena text), writing the descriptors it needs; the type is that of the
 * config at span, where one nested too deeply for the stack is reported.
 * Config types are written on the command line's terms (a list of objects
 * at most), so the nesting this walks is that of a type label. */
static const char *type_ref(em *e, const ty *t, pcl_span span) {
  if (stack_too_deep(&e->too_deep, e->diag, span))
    return "&pcl_type_any";
  while (t->kind == TY_OUTPUT || t->kind == TY_PROMISE)
    t = t->elem;
  switch (t->kind) {
  case TY_BOOL:
    return "&pcl_type_bool";
  case TY_INT:
    return "&pcl_type_int";
  case TY_NUMBER:
    return "&pcl_type_number";
  case TY_STRING:
  case TY_ID:
    return "&pcl_type_string";
  case TY_CONST:
    return type_ref(e, t->cnst.base, span);
  case TY_ENUM:
    return type_ref(e, t->enm.base, span);
  case TY_LIST:
  case TY_SET:
  case TY_MAP: {
    const char *elem = type_ref(e, t->elem, span);
    size_t n = e->ntypes++;
    pcl__buf_printf(&e->types, "static const pcl_type pclg_t%zu = {.kind = %s, .elem = %s};\n", n,
                    t->kind == TY_MAP ? "PCL_TY_MAP" : "PCL_TY_LIST", elem);
    return arena_printf(&e->keys, "&pclg_t%zu", n);
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
    if (!optional || others != 1)
      return "&pcl_type_any";
    const char *elem = type_ref(e, other, span);
    size_t n = e->ntypes++;
    pcl__buf_printf(&e->types,
                    "static const pcl_type pclg_t%zu = {.kind = PCL_TY_OPTIONAL, "
                    ".elem = %s};\n",
                    n, elem);
    return arena_printf(&e->keys, "&pclg_t%zu", n);
  }
  case TY_OBJECT: {
    size_t count = t->object.count;
    const char **fields = xcalloc(count ? count : 1, sizeof *fields);
    for (size_t i = 0; i < count; i++)
      fields[i] = type_ref(e, t->object.props[i].type, span);
    size_t n = e->ntypes++;
    if (count) {
      pcl__buf_printf(&e->types, "static const pcl_type_field pclg_tf%zu[] = {", n);
      for (size_t i = 0; i < count; i++) {
        pcl__buf_puts(&e->types, i ? ", {" : "{");
        cw_cstring(&e->types, t->object.props[i].name, strlen(t->object.props[i].name));
        pcl__buf_printf(&e->types, ", %s}", fields[i]);
      }
      pcl__buf_puts(&e->types, "};\n");
      pcl__buf_printf(
          &e->types,
          "static const pcl_type pclg_t%zu = {.kind = PCL_TY_OBJECT, .fields = pclg_tf%zu, "
          ".nfields = %zu};\n",
          n, n, count);
    } else {
      pcl__buf_printf(&e->types, "static const pcl_type pclg_t%zu = {.kind = PCL_TY_OBJECT};\n", n);
    }
    free(fields);
    return arena_printf(&e->keys, "&pclg_t%zu", n);
  }
  case TY_DYNAMIC:
  case TY_NONE:
  case TY_OPAQUE:
  case TY_TUPLE:
  case TY_OUTPUT:
  case TY_PROMISE:
    return "&pcl_type_any";
  }
  return "&pcl_type_any";
}

/* Writes the config declarations of the top module m into w. */
static size_t write_configs(em *e, const ir_module *m, cw *w) {
  size_t n = 0;
  for (size_t i = 0; i < m->count; i++) {
    const ir_node *c = &m->nodes[i];
    if (c->kind != IR_N_CONFIG)
      continue;
    const char *t = type_ref(e, c->config_type, c->span);
    /* The default, when there is one, is computed by the config's node:
       default_value stays NULL. */
    pcl__buf_puts(w, "    {.name = ");
    cw_cstring(w, c->logical, strlen(c->logical));
    pcl__buf_printf(w, ", .type = %s, ", t);
    if (c->value)
      pcl__buf_puts(w, ".has_default_expr = true, ");
    if (c->nullable)
      pcl__buf_puts(w, ".nullable = true, ");
    if (c->secret)
      pcl__buf_puts(w, ".secret = true, ");
    /* Where the declaration is: a bad or missing value is reported there. */
    const char *path = src_get(e->src, c->span.file)->path;
    src_pos pos = src_position(e->src, c->span.file, c->span.start);
    pcl__buf_puts(w, ".file = ");
    cw_cstring(w, path, strlen(path));
    pcl__buf_printf(w, ", .line = %zu, .col = %zu},\n", pos.line, pos.column);
    n++;
  }
  return n;
}

/* ----------------------------------------------------------------- packages */

/* Writes `, .<field> = "<s>"` when s is not NULL. */
static void string_field(cw *w, const char *field, const char *s) {
  if (s == NULL)
    return;
  pcl__buf_printf(w, ", .%s = ", field);
  cw_cstring(w, s, strlen(s));
}

/* Writes into w the entries of pclg_packages for the parameterized packages
 * of module m that no module before it defined (a package is defined alike
 * by every program that defines it: bind_package.c), counting them in *n;
 * seen holds the interned names written so far. */
static void write_packages(em *e, const ir_module *m, cw *w, ptrmap *seen, size_t *n) {
  for (size_t i = 0; i < m->npackages; i++) {
    const ir_package *p = &m->packages[i];
    const char *name = em_intern(e, p->name, strlen(p->name));
    if (ptrmap_get(seen, name))
      continue;
    ptrmap_put(seen, name, (void *)1);
    pcl__buf_puts(w, "    {.base_name = ");
    cw_cstring(w, p->base_name, strlen(p->base_name));
    string_field(w, "base_version", p->base_version);
    string_field(w, "download_url", p->download_url);
    string_field(w, "name", p->name);
    string_field(w, "version", p->version);
    pcl__buf_puts(w, ", .value = ");
    cw_cstring(w, p->value, p->value_len);
    pcl__buf_printf(w, ", .value_len = %zu", p->value_len);
    if (p->extension)
      pcl__buf_puts(w, ", .extension = true");
    pcl__buf_puts(w, "},\n");
    (*n)++;
  }
}

/* ------------------------------------------------------------------ modules */

/* The node function and row offset of each node of the program, modules
 * in order. */
typedef struct node_entry {
  uint32_t fn;  /* The node's function (emit_shape.c). */
  uint32_t row; /* The offset of its row in pclg_r. */
} node_entry;

/* Hands every node of every module to emit_func.c, which writes its
 * functions and rows, and returns the modules, in the breadth-first order
 * from the top in which lowering numbered them (their number in *nmods),
 * and in *entries the function and row of each of their nodes.  Writes into
 * packages the entries of pclg_packages (their number in *npackages).
 * Stops at a node nested too deeply for the stack (e->too_deep). */
static const ir_module **walk_modules(em *e, const ir_module *top, size_t *nmods,
                                      node_entry **entries, cw *packages, size_t *npackages) {
  size_t n = 0, cap = 8, next = 0, nentries = 0, capentries = 64;
  const ir_module **queue = xmalloc(cap * sizeof *queue);
  node_entry *ents = xmalloc(capentries * sizeof *ents);
  queue[n++] = top;
  ptrmap seen = {0};
  while (next < n && !e->too_deep) {
    const ir_module *m = queue[next++];
    if (m->index != next - 1)
      ice("module %zu is not in lowering order", m->index);
    write_packages(e, m, packages, &seen, npackages);
    for (size_t i = 0; i < m->count && !e->too_deep; i++) {
      const ir_node *node = &m->nodes[i];
      PCL__GROW(ents, capentries, nentries + 1);
      node_entry *ne = &ents[nentries++];
      em_node(e, node, &ne->fn, &ne->row);
      if (node->component) {
        PCL__GROW(queue, cap, n + 1);
        queue[n++] = node->component;
      }
    }
  }
  ptrmap_free(&seen);
  *nmods = n;
  *entries = ents;
  return queue;
}

/* Writes the node table of each of the modules mods[0..n), whose nodes'
 * functions and rows are entries (in order), and the module table. */
static void write_modules(em *e, const ir_module **mods, size_t n, const node_entry *entries,
                          cw *tables) {
  cw descs = PCL__BUF_INIT;
  for (size_t k = 0; k < n; k++) {
    const ir_module *m = mods[k];
    if (m->count == 0) {
      pcl__buf_printf(&descs, "    {NULL, 0},\n");
      continue;
    }
    pcl__buf_printf(tables, "\n/* Module %zu: ", m->index);
    cw_comment(tables, m->dir);
    pcl__buf_printf(tables, " */\nstatic const pcl_gen_node_desc pclg_nodes%zu[] = {\n", m->index);
    for (size_t i = 0; i < m->count; i++, entries++) {
      pcl__buf_printf(tables, "    {%s, %u}, /* ", em_func_name(e, entries->fn),
                      (unsigned)entries->row);
      cw_comment(tables, m->nodes[i].logical);
      pcl__buf_puts(tables, " */\n");
    }
    pcl__buf_puts(tables, "};\n");
    pcl__buf_printf(&descs, "    {pclg_nodes%zu, %zu},\n", m->index, m->count);
  }
  pcl__buf_puts(tables, "\nstatic const pcl_gen_module pclg_modules[] = {\n");
  pcl__buf_append(tables, descs.data, descs.len);
  pcl__buf_puts(tables, "};\n");
  pcl__buf_free(&descs);
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

/* The C file being written.  Its sections are written one after another
 * (they are not copied into one buffer first), and each `#line
 * PCLG_C_LINE` line is replaced by the directive that gives the following
 * lines back to the C file (named output) at their real line numbers. */
typedef struct sink {
  FILE *out;   /* The file. */
  cw name;     /* The output's name as a C string literal. */
  size_t line; /* The number of the line being written. */
  bool bol;    /* At the start of that line. */
  bool ok;     /* No write failed. */
} sink;

/* Writes the n bytes at p. */
static void sink_write(sink *s, const char *p, size_t n) {
  static const char marker[] = "#line PCLG_C_LINE\n";
  if (n == 0)
    return; /* An empty section's text may be NULL. */
  const char *end = p + n;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t len = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);
    if (s->bol && len == sizeof marker - 1 && memcmp(p, marker, len) == 0)
      s->ok = fprintf(s->out, "#line %zu %s\n", s->line + 1, s->name.data) > 0 && s->ok;
    else
      s->ok = fwrite(p, 1, len, s->out) == len && s->ok;
    s->bol = nl != NULL;
    s->line += nl != NULL;
    p += len;
  }
}

/* Writes the text gathered in o, then the section (when not NULL), and
 * empties o for the text that follows. */
static void put(sink *s, cw *o, const cw *section) {
  sink_write(s, o->data, o->len);
  o->len = 0;
  if (section)
    sink_write(s, section->data, section->len);
}

/* The parts of the file that the walk over the program makes, besides
 * the tables of em. */
typedef struct parts {
  cw tables;        /* The node tables and the module table. */
  cw configs;       /* The entries of pclg_config. */
  size_t nconfigs;  /* Their number. */
  cw packages;      /* The entries of pclg_packages. */
  size_t npackages; /* Their number. */
} parts;

/* Writes the C file of the program walked into e and p to out.  Returns
 * false when a write failed. */
static bool write_file(em *e, FILE *out, const emit_options *opt, const parts *p) {
  const src_set *src = e->src;
  sink snk = {out, PCL__BUF_INIT, 1, true, true};
  const char *output = strcmp(opt->output, "-") == 0 ? "<stdout>" : opt->output;
  cw_cstring(&snk.name, output, strlen(output));
  cw o = PCL__BUF_INIT;
  pcl__buf_puts(&o, "/* Generated by ");
  cw_comment(&o, opt->generator);
  pcl__buf_puts(&o, " from ");
  cw_comment(&o, opt->input);
  pcl__buf_puts(&o, "; do not edit. */\n#include \"pcl_gen.h\"\n\n");
  pcl__buf_printf(
      &o,
      "#if !defined(PCL_GEN_ABI) || PCL_GEN_ABI != %d\n"
      "#error \"generated by %s for the generated-code ABI %d of libpclrt, which this "
      "pcl_gen.h does not describe: use the libpclrt of that pclc, or regenerate this file "
      "with the pclc of this libpclrt\"\n"
      "#endif\n",
      PCL_GEN_ABI, opt->generator, PCL_GEN_ABI);

  pcl__buf_puts(&o, "\n/* Constants, by index, every tenth numbered (rows refer to them as\n"
                    " * pclg_k[r[i]]). */\n");
  put(&snk, &o, &e->limbs);
  size_t nconsts = e->nconsts ? e->nconsts : 1;
  if (e->nitems) {
    pcl__buf_printf(&o, "static pcl_value pclg_k[%zu];\n", nconsts);
    pcl__buf_puts(&o, "static pcl_value *const pclg_p[] = {\n");
    put(&snk, &o, &e->items);
    pcl__buf_puts(&o, "};\n");
  }
  pcl__buf_printf(&o, "static pcl_value pclg_k[%zu] = {\n", nconsts);
  put(&snk, &o, &e->consts);
  if (e->nconsts == 0)
    pcl__buf_puts(&o, "    PCL_STATIC_NULL,\n");
  pcl__buf_puts(&o, "};\n\n/* Source files (NULL for package schemas). */\n"
                    "static const char *const pclg_files[] = {\n");
  for (size_t i = 0; i < src->count; i++) {
    const char *path = src->files[i].path;
    size_t len = strlen(path);
    if (len > 3 && strcmp(path + len - 3, ".pp") == 0) {
      pcl__buf_puts(&o, "    ");
      cw_cstring(&o, path, len);
      pcl__buf_puts(&o, ",\n");
    } else {
      pcl__buf_puts(&o, "    NULL,\n");
    }
  }
  if (src->count == 0)
    pcl__buf_puts(&o, "    NULL,\n");
  pcl__buf_puts(&o, "};\n\n/* Source locations: line, column. */\n"
                    "static const pcl_gen_loc pclg_loc[] = {\n");
  put(&snk, &o, &e->locs);
  if (e->nlocs == 0)
    pcl__buf_puts(&o, "    {0, 0},\n");
  pcl__buf_puts(&o, "};\n\n/* Their files: the first location in each, and the file's index. */\n"
                    "static const pcl_gen_loc_run pclg_loc_runs[] = {\n");
  put(&snk, &o, &e->loc_runs);
  if (e->nloc_runs == 0)
    pcl__buf_puts(&o, "    {0, 0},\n");
  pcl__buf_puts(&o, "};\n");
  if (e->ndecls) {
    pcl__buf_puts(&o, "\n/* Resource declarations. */\n"
                      "static const pcl_resource_decl pclg_decl[] = {\n");
    put(&snk, &o, &e->decls);
    pcl__buf_puts(&o, "};\n");
  }
  pcl__buf_puts(&o, "\n/* Rows: what differs between the uses of one function, in the order its\n"
                    " * code reads them, one line per use, named after its node, with the\n"
                    " * constants it reads.  A row refers to the row of a closure it creates\n"
                    " * by how many entries before it that row starts (r - r[i]). */\n"
                    "static const uint32_t pclg_r[] = {\n");
  put(&snk, &o, &e->rows);
  pcl__buf_puts(&o, "    0,\n};\n");
  pcl__buf_puts(&o, "\n/* Node functions. */\n");
  cw protos = PCL__BUF_INIT, code = PCL__BUF_INIT;
  em_funcs_print(e, &protos, &code);
  put(&snk, &o, &protos);
  put(&snk, &o, &p->tables);
  put(&snk, &o, &code);
  pcl__buf_free(&protos);
  pcl__buf_free(&code);
  pcl__buf_puts(&o, "\n/* Configuration. */\n");
  put(&snk, &o, &e->types);
  if (p->nconfigs) {
    pcl__buf_puts(&o, "static const pcl_config_decl pclg_config[] = {\n");
    put(&snk, &o, &p->configs);
    pcl__buf_puts(&o, "};\n");
  }
  if (p->npackages) {
    pcl__buf_puts(&o,
                  "\n/* Parameterized packages: the base provider's name, version and download\n"
                  " * URL, the package's name and version, its parameter (decoded) with its\n"
                  " * length, and whether it extends the base provider. */\n"
                  "static const pcl_package pclg_packages[] = {\n");
    put(&snk, &o, &p->packages);
    pcl__buf_puts(&o, "};\n");
  }
  char *name = program_name(opt->input);
  pcl__buf_printf(&o,
                  "\nstatic const pcl_gen_program pclg_program = {\n"
                  "    .abi = %d,\n    .abi_symbol = &pcl_gen_abi_%d,\n    .generator = ",
                  PCL_GEN_ABI, PCL_GEN_ABI);
  cw_cstring(&o, opt->generator, strlen(opt->generator));
  pcl__buf_puts(&o, ",\n    .name = ");
  cw_cstring(&o, name, strlen(name));
  pcl__buf_printf(
      &o,
      ",\n    .configs = %s,\n    .nconfigs = %zu,\n    .main = &pclg_modules[0],\n"
      "    .rows = pclg_r,\n    .consts = pclg_k,\n    .locs = pclg_loc,\n"
      "    .loc_runs = pclg_loc_runs,\n    .nloc_runs = %zu,\n    .files = pclg_files,\n"
      "    .packages = %s,\n    .npackages = %zu,\n};\n\n"
      "int main(int argc, char **argv) { return pcl_gen_main(argc, argv, &pclg_program); }\n",
      p->nconfigs ? "pclg_config" : "NULL", p->nconfigs, e->nloc_runs ? e->nloc_runs : 1,
      p->npackages ? "pclg_packages" : "NULL", p->npackages);
  free(name);

  put(&snk, &o, NULL);
  pcl__buf_free(&snk.name);
  pcl__buf_free(&o);
  return snk.ok;
}

bool emit_program(FILE *out, const emit_options *opt, src_set *src, diag_list *diags,
                  const ir_module *top) {
  em e = {0};
  e.src = src;
  e.diag = diags;
  e.input = opt->input;
  e.lines = opt->line_directives;
  arena_init(&e.keys);
  intern_init(&e.names, &e.keys);

  parts p = {PCL__BUF_INIT, PCL__BUF_INIT, 0, PCL__BUF_INIT, 0};
  size_t nmods = 0;
  node_entry *entries = NULL;
  const ir_module **mods = walk_modules(&e, top, &nmods, &entries, &p.packages, &p.npackages);
  if (!e.too_deep) {
    /* Every function is made: a node function's name says whether nodes
       share it. */
    em_funcs_name(&e);
    write_modules(&e, mods, nmods, entries, &p.tables);
    p.nconfigs = write_configs(&e, top, &p.configs);
  }
  free(mods);
  free(entries);
  bool written = !e.too_deep && write_file(&e, out, opt, &p);

  pcl__buf_free(&p.configs);
  pcl__buf_free(&p.tables);
  pcl__buf_free(&p.packages);
  em_const_free(&e);
  pcl__buf_free(&e.locs);
  pcl__buf_free(&e.decls);
  pcl__buf_free(&e.rows);
  pcl__buf_free(&e.types);
  ptrmap_free(&e.loc_index);
  ptrmap_free(&e.decl_index);
  em_funcs_free(&e);
  pcl__buf_free(&e.key);
  pcl__buf_free(&e.loc_runs);
  intern_free(&e.names);
  arena_free(&e.keys);
  return written;
}
