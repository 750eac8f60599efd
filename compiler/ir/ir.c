/* ir: operation names, expression allocation and the --dump-ir printer
 * (see ir.h).
 *
 * The dump is one line per node and per expression, children indented by
 * two spaces: `op details : type @line:col`.  It depends only on the
 * program, never on pointers or allocation order, so it is stable enough
 * for golden tests.  It recurses as expressions nest; past 64 levels the
 * indentation stops growing and a line starts with `@DEPTH `, and a type
 * longer than 1,024 bytes is cut with `...`, so that the dump of a tree
 * nested deep stays linear in its size. */
#include "ir/ir.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/stack.h"
#include "base/util.h"

#if PCLC_ASAN
#include <sanitizer/asan_interface.h>
#endif

ir_expr *ir_new_expr(arena *a, ir_op op) {
  /* Constants are a third of a program's expressions; the others leave out
     the constant's fields, but for FAIL, whose message is a constant. */
  size_t size = op == IR_CONST || op == IR_FAIL ? sizeof(ir_expr) : offsetof(ir_expr, text);
#if PCLC_ASAN
  ir_expr *x = ARENA_NEW(a, ir_expr);
  ASAN_POISON_MEMORY_REGION((char *)x + size, sizeof *x - size);
#else
  ir_expr *x = arena_zalloc(a, size);
#endif
  x->op = op;
  return x;
}

static const char *const op_names[] = {
#define X(name, text) text,
    IR_OPS(X)
#undef X
};

const char *ir_op_name(ir_op op) { return op_names[op]; }

static const char *const builtin_names[] = {
#define X(id, name, shape, min, max, params, varargs) #name,
    PCL__BUILTINS(X)
#undef X
};

const char *ir_builtin_name(pcl__builtin_id id) { return builtin_names[id]; }

static const char *const unary_op_names[] = {
#define X(name, text) text,
    IR_UNARY_OPS(X)
#undef X
};

static const char *ir_unary_op_name(ir_unary_op op) { return unary_op_names[op]; }

static const char *const binary_op_names[] = {
#define X(name, text) text,
    IR_BINARY_OPS(X)
#undef X
};

static const char *ir_binary_op_name(ir_binary_op op) { return binary_op_names[op]; }

/* Writes the indentation of depth. */
static void indent(FILE *out, int depth) {
  for (int i = 0; i < depth; i++)
    fputs("  ", out);
}

/* Prints bytes as a quoted string with C-like escapes. */
static void quoted(FILE *out, const char *s, size_t len) {
  fputc('"', out);
  for (size_t i = 0; i < len; i++) {
    unsigned char ch = (unsigned char)s[i];
    if (ch == '"' || ch == '\\')
      fprintf(out, "\\%c", ch);
    else if (ch == '\n')
      fputs("\\n", out);
    else if (ch == '\t')
      fputs("\\t", out);
    else if (ch < 0x20 || ch == 0x7f)
      fprintf(out, "\\x%02x", ch);
    else
      fputc(ch, out);
  }
  fputc('"', out);
}

/* The dump name of a CONVERT target. */
static const char *convert_name(ir_convert target) {
  switch (target) {
  case IR_C_STRING:
    return "string";
  case IR_C_NUMBER:
    return "number";
  case IR_C_INT:
    return "int";
  case IR_C_BOOL:
    return "bool";
  }
  return "?";
}

/* Writes constant c's value. */
static void constant(FILE *out, const ir_expr *c) {
  switch (c->ck) {
  case IR_K_NULL:
    fputs("null", out);
    break;
  case IR_K_BOOL:
    fputs(c->boolean ? "true" : "false", out);
    break;
  case IR_K_INT:
    fprintf(out, "int %s", c->text);
    break;
  case IR_K_NUMBER:
    fprintf(out, "number %s", c->text);
    break;
  case IR_K_STRING:
    quoted(out, c->text, c->len);
    break;
  }
}

/* Writes what follows e's operation name on its line: its operands. */
static void details(FILE *out, const ir_module *m, const ir_expr *e) {
  switch (e->op) {
  case IR_CONST:
  case IR_FAIL:
    fputc(' ', out);
    constant(out, e);
    break;
  case IR_NODE:
    fprintf(out, " %s #%u", m->nodes[e->a].name, (unsigned)e->a);
    break;
  case IR_VAR:
  case IR_PARAM:
    fprintf(out, " $%u", (unsigned)e->a);
    break;
  case IR_PATH:
    for (size_t i = 0; i < e->nsteps; i++) {
      const ir_step *s = &e->steps[i];
      if (s->keyed) {
        fputs(" [key]", out);
      } else if (s->index) {
        fputs(" [", out);
        constant(out, s->key);
        fputc(']', out);
      } else {
        fputs(" .", out);
        fwrite(s->key->text, 1, s->key->len, out);
      }
      if (s->disc) {
        fprintf(out, "(declared when %s is", s->disc);
        for (size_t j = 0; j < s->nmembers; j++)
          fprintf(out, "%s \"%s\"", j ? "," : "", s->members[j]);
        fputc(')', out);
      } else if (!s->declared) {
        fputs("(undeclared)", out);
      }
    }
    break;
  case IR_ATTR:
    fputc(' ', out);
    quoted(out, e->s, strlen(e->s));
    if (e->declared)
      fputs(" declared", out);
    break;
  case IR_INDEX:
    if (e->declared)
      fputs(" declared", out);
    break;
  case IR_UNARY:
    fprintf(out, " %s", ir_unary_op_name((ir_unary_op)e->sub));
    break;
  case IR_BINARY:
    fprintf(out, " %s", ir_binary_op_name((ir_binary_op)e->sub));
    break;
  case IR_CALL:
    fprintf(out, " %s%s", ir_builtin_name((pcl__builtin_id)e->a), e->sub ? " expand" : "");
    break;
  case IR_CONVERT:
    fprintf(out, " %s", convert_name((ir_convert)e->sub));
    break;
  case IR_FOR:
    if (e->sub & IR_F_KEYVAR)
      fprintf(out, " key=$%u", (unsigned)e->a);
    fprintf(out, " value=$%u", (unsigned)e->b);
    if (e->sub & IR_F_OBJECT)
      fputs(" object", out);
    if (e->sub & IR_F_GROUP)
      fputs(" group", out);
    if (e->sub & IR_F_CONCAT)
      fputs(" concat", out);
    break;
  case IR_SPLAT:
    fprintf(out, " item=$%u", (unsigned)e->a);
    break;
  case IR_APPLY:
    fprintf(out, " params=$%u..$%u", (unsigned)e->a, (unsigned)(e->a + e->n - 2));
    break;
  case IR_INVOKE:
    fprintf(out, " %s%s", e->s, e->sub ? " single" : "");
    break;
  case IR_METHOD:
    fprintf(out, " %s", e->s);
    break;
  case IR_RECOVER:
    fprintf(out, " error=$%u", (unsigned)e->a);
    break;
  case IR_LIST:
  case IR_OBJECT:
  case IR_TEMPLATE:
  case IR_COND:
  case IR_SECRET:
  case IR_UNSECRET:
  case IR_GET_OUTPUT:
  case IR_RESOURCE_EXISTS:
  case IR_AND:
  case IR_OR:
  case IR_TRY:
  case IR_CAN:
    break;
  }
}

/* Lines deeper than this are indented this much and carry their depth,
   and types longer than TYPE_MAX bytes are cut, so that the dump of a tree
   nested deep stays linear in its size. */
enum { MAX_INDENT = 64, TYPE_MAX = 1024 };

/* The state of one dump. */
typedef struct dumper {
  FILE *out;
  src_set *src;
  const ir_module *m; /* The module being written. */
  diag_list *diag;    /* Where an expression too deep for the stack is reported. */
  bool too_deep;      /* It was. */
} dumper;

/* Writes e and its descendants, one line each, from depth on; label is its
   role in its parent ("body", "arg" with the parameter slot arg), or NULL. */
static void dump_expr(dumper *d, const ir_expr *e, int depth, const char *label, uint32_t arg) {
  if (stack_too_deep(&d->too_deep, d->diag, e->span))
    return;
  FILE *out = d->out;
  indent(out, depth < MAX_INDENT ? depth : MAX_INDENT);
  if (depth > MAX_INDENT)
    fprintf(out, "@%d ", depth);
  if (label && strcmp(label, "arg") == 0)
    fprintf(out, "arg $%u: ", (unsigned)arg);
  else if (label)
    fprintf(out, "%s: ", label);
  fputs(ir_op_name(e->op), out);
  details(out, d->m, e);
  fputs(" : ", out);
  if (e->type)
    ty_print_cut(out, e->type, TYPE_MAX);
  else
    fputc('?', out);
  src_pos p = src_position(d->src, e->span.file, e->span.start);
  fprintf(out, " @%zu:%zu\n", p.line, p.column);
  for (size_t i = 0; i < e->n; i++) {
    const char *l = NULL;
    if (e->op == IR_APPLY)
      l = i + 1 == e->n ? "body" : "arg";
    dump_expr(d, e->kids[i], depth + 1, l, e->a + (uint32_t)i);
  }
}

/* The dump names of the node kinds. */
static const char *const node_kind_names[] = {
#define X(name, text) text,
    IR_NODE_KINDS(X)
#undef X
};

/* Returns the dump name of a node kind. */
static const char *ir_node_kind_name(ir_node_kind k) { return node_kind_names[k]; }

/* Writes module m's nodes. */
static void dump_module(dumper *d, const ir_module *m) {
  FILE *out = d->out;
  d->m = m;
  fprintf(out, "module %zu %s slots=%u\n", m->index, m->dir, (unsigned)m->nslots);
  for (size_t i = 0; i < m->npackages; i++) {
    const ir_package *p = &m->packages[i];
    fprintf(out, "  package %s %s of %s %s", p->name, p->version ? p->version : "-", p->base_name,
            p->base_version ? p->base_version : "-");
    if (p->download_url)
      fprintf(out, " from %s", p->download_url);
    fputs(" value ", out);
    quoted(out, p->value, p->value_len);
    fputc('\n', out);
  }
  for (size_t i = 0; i < m->count; i++) {
    const ir_node *n = &m->nodes[i];
    fprintf(out, "  #%zu %s %s", i, ir_node_kind_name(n->kind), n->logical);
    if (n->token)
      fprintf(out, " %s", n->token);
    if (n->component)
      fprintf(out, " module %zu", n->component->index);
    if (n->kind == IR_N_CONFIG)
      fprintf(out, " %s%s%s", ty_to_string(n->config_type), n->secret ? " secret" : "",
              n->nullable ? " nullable" : "");
    fprintf(out, " : %s\n", n->type ? ty_to_string(n->type) : "?");
    if (n->range) {
      char l[64];
      snprintf(l, sizeof l, "range $%u", (unsigned)n->range_slot);
      dump_expr(d, n->range, 2, l, 0);
    }
    char cmd[64];
    snprintf(cmd, sizeof cmd, "%s command args $%u", n->error_hook ? "error" : "resource",
             (unsigned)n->args_slot);
    if (n->value)
      dump_expr(d, n->value, 2,
                n->kind == IR_N_READ     ? "id"
                : n->kind == IR_N_CONFIG ? "default"
                : n->kind == IR_N_HOOK   ? cmd
                                         : "value",
                0);
    if (n->inputs)
      dump_expr(d, n->inputs, 2, "inputs", 0);
    if (n->options)
      dump_expr(d, n->options, 2, "options", 0);
    if (n->deferred_inputs)
      dump_expr(d, n->deferred_inputs, 2, "deferred inputs", 0);
  }
}

/* Writes every module: m, then the component modules in module order (a
 * breadth-first walk, which is the order lowering numbered them in). */
bool ir_dump(FILE *out, src_set *src, const ir_module *m, diag_list *diags) {
  dumper d = {out, src, m, diags, false};
  size_t n = 0, cap = 8, next = 0;
  const ir_module **queue = xmalloc(cap * sizeof *queue);
  queue[n++] = m;
  while (next < n) {
    const ir_module *cur = queue[next++];
    dump_module(&d, cur);
    for (size_t i = 0; i < cur->count; i++) {
      if (!cur->nodes[i].component)
        continue;
      PCL__GROW(queue, cap, n + 1);
      queue[n++] = cur->nodes[i].component;
    }
  }
  free(queue);
  return !d.too_deep;
}
