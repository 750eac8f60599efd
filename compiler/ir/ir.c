/* ir: operation names, expression allocation and the --dump-ir printer
 * (see ir.h).
 *
 * The dump is one line per node and per expression, children indented by
 * two spaces: `op details : type @line:col`.  It depends only on the
 * program, never on pointers or allocation order, so it is stable enough
 * for golden tests, and it walks with explicit stacks, so any nesting
 * depth is safe. */
#include "ir/ir.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

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

static const char *const unary_op_names[] = {
#define X(name, text) text,
    IR_UNARY_OPS(X)
#undef X
};

const char *ir_unary_op_name(ir_unary_op op) { return unary_op_names[op]; }

static const char *const binary_op_names[] = {
#define X(name, text) text,
    IR_BINARY_OPS(X)
#undef X
};

const char *ir_binary_op_name(ir_binary_op op) { return binary_op_names[op]; }

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
    fprintf(out, " %s%s", e->s, e->sub ? " expand" : "");
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
  case IR_AND:
  case IR_OR:
  case IR_TRY:
  case IR_CAN:
    break;
  }
}

/* An expression waiting to be printed. */
typedef struct dump_item {
  const ir_expr *e;  /* The expression. */
  int depth;         /* Its indentation. */
  const char *label; /* Its role in its parent ("body", an argument), or NULL. */
  uint32_t arg;      /* The parameter slot when labelled as an argument. */
} dump_item;

/* Writes e and its descendants, one line each, from depth on, depth first
 * with an explicit stack so that any nesting is safe. */
static void dump_expr(FILE *out, src_set *src, const ir_module *m, const ir_expr *root,
                      int depth, const char *label) {
  size_t n = 0, cap = 64;
  dump_item *stack = xmalloc(cap * sizeof *stack);
  stack[n++] = (dump_item){root, depth, label, 0};
  while (n > 0) {
    dump_item it = stack[--n];
    const ir_expr *e = it.e;
    indent(out, it.depth);
    if (it.label && strcmp(it.label, "arg") == 0)
      fprintf(out, "arg $%u: ", (unsigned)it.arg);
    else if (it.label)
      fprintf(out, "%s: ", it.label);
    fputs(ir_op_name(e->op), out);
    details(out, m, e);
    src_pos p = src_position(src, e->span.file, e->span.start);
    fprintf(out, " : %s @%zu:%zu\n", e->type ? ty_to_string(e->type) : "?", p.line, p.column);
    /* Children are pushed last first, so they print in order. */
    for (size_t i = e->n; i-- > 0;) {
      if (n == cap) {
        cap *= 2;
        stack = xrealloc(stack, cap * sizeof *stack);
      }
      const char *l = NULL;
      if (e->op == IR_APPLY)
        l = i + 1 == e->n ? "body" : "arg";
      stack[n++] = (dump_item){e->kids[i], it.depth + 1, l, e->a + (uint32_t)i};
    }
  }
  free(stack);
}

/* The dump names of the node kinds. */
static const char *const node_kind_names[] = {
#define X(name, text) text,
    IR_NODE_KINDS(X)
#undef X
};

const char *ir_node_kind_name(ir_node_kind k) { return node_kind_names[k]; }

/* Writes module m's nodes. */
static void dump_module(FILE *out, src_set *src, const ir_module *m) {
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
      dump_expr(out, src, m, n->range, 2, l);
    }
    if (n->value)
      dump_expr(out, src, m, n->value, 2,
                n->kind == IR_N_READ     ? "id"
                : n->kind == IR_N_CONFIG ? "default"
                                         : "value");
    if (n->inputs)
      dump_expr(out, src, m, n->inputs, 2, "inputs");
    if (n->options)
      dump_expr(out, src, m, n->options, 2, "options");
  }
}

/* Writes every module: m, then the component modules in module order (a
 * breadth-first walk, which is the order lowering numbered them in). */
void ir_dump(FILE *out, src_set *src, const ir_module *m) {
  size_t n = 0, cap = 8, next = 0;
  const ir_module **queue = xmalloc(cap * sizeof *queue);
  queue[n++] = m;
  while (next < n) {
    const ir_module *cur = queue[next++];
    dump_module(out, src, cur);
    for (size_t i = 0; i < cur->count; i++) {
      if (!cur->nodes[i].component)
        continue;
      if (n == cap) {
        cap *= 2;
        queue = xrealloc(queue, cap * sizeof *queue);
      }
      queue[n++] = cur->nodes[i].component;
    }
  }
  free(queue);
}
