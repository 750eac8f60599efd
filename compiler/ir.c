/* ir: operation names and the --dump-ir printer (see ir.h).
 *
 * The dump is one line per node and per expression, children indented by
 * two spaces: `op details : type @line:col`.  It depends only on the
 * program, never on pointers or allocation order, so it is stable enough
 * for golden tests. */
#include "ir.h"

#include <string.h>

#include "ast.h"

static const char *const op_names[] = {
#define X(name, text) text,
    IR_OPS(X)
#undef X
};

const char *ir_op_name(ir_op op) { return op_names[op]; }

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
  case IR_C_NONE:
    return "none";
  case IR_C_STRING:
    return "string";
  case IR_C_NUMBER:
    return "number";
  case IR_C_INT:
    return "int";
  case IR_C_BOOL:
    return "bool";
  }
  return "none";
}

static void dump_expr(FILE *out, src_set *src, const ir_expr *e, int depth, const char *label);

/* Writes what follows e's operation name on its line: its operands. */
static void details(FILE *out, const ir_expr *e) {
  switch (e->op) {
  case IR_CONST:
    switch (e->ck) {
    case IR_K_NULL:
      fputs(" null", out);
      break;
    case IR_K_BOOL:
      fputs(e->boolean ? " true" : " false", out);
      break;
    case IR_K_INT:
      fprintf(out, " int %s", e->text);
      break;
    case IR_K_NUMBER:
      fprintf(out, " number %s", e->text);
      break;
    case IR_K_STRING:
      fputc(' ', out);
      quoted(out, e->text, e->len);
      break;
    }
    break;
  case IR_NODE:
    fprintf(out, " %s #%u", e->node->name, (unsigned)e->a);
    break;
  case IR_VAR:
  case IR_PARAM:
    fprintf(out, " $%u", (unsigned)e->a);
    break;
  case IR_ATTR:
    fputc(' ', out);
    quoted(out, e->s, strlen(e->s));
    break;
  case IR_UNARY:
    fprintf(out, " %s", ast_unary_op_name((ast_unary_op)e->sub));
    break;
  case IR_BINARY:
    fprintf(out, " %s", ast_binary_op_name((ast_binary_op)e->sub));
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
  case IR_METHOD:
    fprintf(out, " %s", e->s);
    break;
  case IR_RECOVER:
    fprintf(out, " error=$%u", (unsigned)e->a);
    break;
  case IR_INDEX:
  case IR_LIST:
  case IR_OBJECT:
  case IR_TEMPLATE:
  case IR_COND:
  case IR_SECRET:
  case IR_UNSECRET:
  case IR_TRY:
  case IR_CAN:
    break;
  }
}

/* Writes e and its children, one line each, at depth; label (or NULL) names
 * e's role in its parent. */
static void dump_expr(FILE *out, src_set *src, const ir_expr *e, int depth, const char *label) {
  indent(out, depth);
  if (label)
    fprintf(out, "%s: ", label);
  fputs(ir_op_name(e->op), out);
  details(out, e);
  src_pos p = src_position(src, e->span.file, e->span.start);
  fprintf(out, " : %s @%zu:%zu\n", e->type ? ty_to_string(e->type) : "?", p.line, p.column);
  for (size_t i = 0; i < e->n; i++) {
    char buf[32];
    const char *l = NULL;
    if (e->op == IR_APPLY) {
      if (i + 1 == e->n) {
        l = "body";
      } else {
        snprintf(buf, sizeof buf, "arg $%u", (unsigned)(e->a + i));
        l = buf;
      }
    }
    dump_expr(out, src, e->kids[i], depth + 1, l);
  }
}

/* The dump name of a range kind. */
static const char *range_name(bnd_range_kind k) {
  switch (k) {
  case BND_RANGE_NONE:
    return "none";
  case BND_RANGE_BOOL:
    return "bool";
  case BND_RANGE_COUNT:
    return "count";
  case BND_RANGE_LIST:
    return "list";
  case BND_RANGE_MAP:
    return "map";
  }
  return "?";
}

/* Writes module m's nodes, then its component modules. */
static void dump_module(FILE *out, src_set *src, const ir_module *m) {
  fprintf(out, "module %zu %s slots=%u\n", m->index, m->program->dir, (unsigned)m->nslots);
  for (size_t i = 0; i < m->count; i++) {
    const ir_node *n = &m->nodes[i];
    const bnd_node *b = n->b;
    fprintf(out, "  #%zu %s %s", i, bnd_node_kind_name(b->kind), b->logical_name);
    if (b->kind == BND_RESOURCE || b->kind == BND_READ)
      fprintf(out, " %s", b->resource.canonical);
    if (b->kind == BND_COMPONENT && n->component)
      fprintf(out, " module %zu", n->component->index);
    if (b->kind == BND_COMPONENT && !n->component && b->component.token)
      fprintf(out, " %s", b->component.token);
    fputc('\n', out);
    if (n->range) {
      bnd_range_kind rk = b->kind == BND_COMPONENT ? b->component.range : b->resource.range;
      char l[64];
      snprintf(l, sizeof l, "range %s $%u", range_name(rk), (unsigned)n->range_slot);
      dump_expr(out, src, n->range, 2, l);
    }
    if (n->value)
      dump_expr(out, src, n->value, 2, b->kind == BND_READ ? "id" : b->kind == BND_CONFIG ? "default" : "value");
    if (n->inputs)
      dump_expr(out, src, n->inputs, 2, "inputs");
    if (n->options)
      dump_expr(out, src, n->options, 2, "options");
  }
  for (size_t i = 0; i < m->count; i++) {
    if (m->nodes[i].component)
      dump_module(out, src, m->nodes[i].component);
  }
}

void ir_dump(FILE *out, src_set *src, const ir_module *m) { dump_module(out, src, m); }
