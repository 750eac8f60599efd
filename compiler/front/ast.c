/* ast: node allocation, the name tables generated from ast_kinds.h, and the
 * stable text form printed by `pclc --dump-ast`.
 *
 * Dump format (golden tests compare it byte for byte):
 *   file "PATH"
 *     KIND LINE:COL-LINE:COL FIELD=VALUE ...
 *       ROLE: KIND ...
 * One node per line, two spaces of indentation per level.  The span is the
 * node's start and its (exclusive) end, 1-based, columns in code points.
 * Children that play a named part are prefixed with the role (`lhs:`,
 * `cond:`); list elements (body items, template parts, arguments, tuple and
 * object items) are not.  Strings are printed in double quotes with C
 * escapes; bytes outside printable ASCII appear as \uXXXX / \UXXXXXXXX for
 * characters and as octal escapes for control bytes, so the output is ASCII.
 * Absent optional names are omitted; absent optional children are omitted.
 * Block labels print as `label` lines before the body.  Nodes more than 64
 * levels deep are indented 64 levels and their line starts with `@DEPTH `,
 * so that the dump stays linear in the size of the tree however deep it is
 * (the dump recurses as the tree nests; a tree too deep for the stack is
 * reported instead). */
#include "front/ast.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/stack.h"
#include "base/util.h"

#if PCLC_ASAN
#include <sanitizer/asan_interface.h>
#endif

/* The bytes of a node whose kind uses the union member m. */
#define NODE_SIZE(m) (offsetof(ast_node, m) + sizeof(((ast_node *)NULL)->m))

/* Returns the bytes a node of kind k uses: its header and its own member of
 * the union.  Nodes are allocated that size, not sizeof(ast_node) (the size
 * of the largest member, a block's): a program has about thirty nodes per
 * resource, most of them names, literals and attributes a third that size. */
static size_t node_size(ast_kind k) {
  switch (k) {
  case AST_ATTRIBUTE:
    return NODE_SIZE(attribute);
  case AST_BLOCK:
    return NODE_SIZE(block);
  case AST_NUMBER:
    return NODE_SIZE(number);
  case AST_BOOL:
    return NODE_SIZE(boolean);
  case AST_NULL:
  case AST_SPLAT_ITEM:
    return offsetof(ast_node, variable);
  case AST_VARIABLE:
    return NODE_SIZE(variable);
  case AST_TEMPLATE:
    return NODE_SIZE(template);
  case AST_TEMPLATE_LITERAL:
    return NODE_SIZE(literal);
  case AST_TEMPLATE_IF:
    return NODE_SIZE(tif);
  case AST_TEMPLATE_FOR:
    return NODE_SIZE(tfor);
  case AST_GET_ATTR:
    return NODE_SIZE(get_attr);
  case AST_INDEX:
    return NODE_SIZE(index);
  case AST_SPLAT:
    return NODE_SIZE(splat);
  case AST_CALL:
    return NODE_SIZE(call);
  case AST_TUPLE:
    return NODE_SIZE(tuple);
  case AST_OBJECT:
    return NODE_SIZE(object);
  case AST_OBJECT_ITEM:
    return NODE_SIZE(item);
  case AST_FOR:
    return NODE_SIZE(for_expr);
  case AST_UNARY:
    return NODE_SIZE(unary);
  case AST_BINARY:
    return NODE_SIZE(binary);
  case AST_CONDITIONAL:
    return NODE_SIZE(cond);
  case AST_PAREN:
    return NODE_SIZE(paren);
  }
  ice("bad AST kind %d", (int)k);
}

ast_node *ast_new(arena *a, ast_kind kind, pcl_span span) {
  size_t size = node_size(kind);
#if PCLC_ASAN
  ast_node *n = ARENA_NEW(a, ast_node);
  ASAN_POISON_MEMORY_REGION((char *)n + size, sizeof *n - size);
#else
  ast_node *n = arena_zalloc(a, size);
#endif
  n->kind = kind;
  n->span = span;
  return n;
}

const char *ast_kind_name(ast_kind k) {
  switch (k) {
#define X(name, text)                                                            \
  case AST_##name:                                                               \
    return text;
    AST_KINDS(X)
#undef X
  }
  ice("bad AST kind %d", (int)k);
}

/* Calls visit on kid when it is present. */
static void each(const ast_node *kid, void (*visit)(void *arg, const ast_node *kid), void *arg) {
  if (kid)
    visit(arg, kid);
}

/* Calls visit on each node of l. */
static void each_in(ast_list l, void (*visit)(void *arg, const ast_node *kid), void *arg) {
  for (size_t i = 0; i < l.count; i++)
    visit(arg, l.items[i]);
}

void ast_each_child(const ast_node *n, void (*visit)(void *arg, const ast_node *kid), void *arg) {
  switch (n->kind) {
  case AST_ATTRIBUTE:
    each(n->attribute.value, visit, arg);
    return;
  case AST_BLOCK:
    each_in(n->block.body, visit, arg);
    return;
  case AST_NUMBER:
  case AST_BOOL:
  case AST_NULL:
  case AST_VARIABLE:
  case AST_TEMPLATE_LITERAL:
  case AST_SPLAT_ITEM:
    return;
  case AST_TEMPLATE:
    each_in(n->template.parts, visit, arg);
    return;
  case AST_TEMPLATE_IF:
    each(n->tif.cond, visit, arg);
    each(n->tif.then, visit, arg);
    each(n->tif.else_, visit, arg);
    return;
  case AST_TEMPLATE_FOR:
    each(n->tfor.collection, visit, arg);
    each(n->tfor.body, visit, arg);
    return;
  case AST_GET_ATTR:
    each(n->get_attr.object, visit, arg);
    return;
  case AST_INDEX:
    each(n->index.collection, visit, arg);
    each(n->index.key, visit, arg);
    return;
  case AST_SPLAT:
    each(n->splat.source, visit, arg);
    each(n->splat.each, visit, arg);
    return;
  case AST_CALL:
    each_in(n->call.args, visit, arg);
    return;
  case AST_TUPLE:
    each_in(n->tuple.items, visit, arg);
    return;
  case AST_OBJECT:
    each_in(n->object.items, visit, arg);
    return;
  case AST_OBJECT_ITEM:
    each(n->item.key, visit, arg);
    each(n->item.value, visit, arg);
    return;
  case AST_FOR:
    each(n->for_expr.collection, visit, arg);
    each(n->for_expr.key, visit, arg);
    each(n->for_expr.value, visit, arg);
    each(n->for_expr.cond, visit, arg);
    return;
  case AST_UNARY:
    each(n->unary.operand, visit, arg);
    return;
  case AST_BINARY:
    each(n->binary.lhs, visit, arg);
    each(n->binary.rhs, visit, arg);
    return;
  case AST_CONDITIONAL:
    each(n->cond.cond, visit, arg);
    each(n->cond.then, visit, arg);
    each(n->cond.else_, visit, arg);
    return;
  case AST_PAREN:
    each(n->paren.inner, visit, arg);
    return;
  }
}

/* Returns the spelling of an operator ("&&"). */
static const char *ast_unary_op_name(ast_unary_op op) {
  switch (op) {
#define X(name, text)                                                            \
  case AST_OP_##name:                                                            \
    return text;
    AST_UNARY_OPS(X)
#undef X
  }
  ice("bad unary operator %d", (int)op);
}

static const char *ast_binary_op_name(ast_binary_op op) {
  switch (op) {
#define X(name, text)                                                            \
  case AST_OP_##name:                                                            \
    return text;
    AST_BINARY_OPS(X)
#undef X
  }
  ice("bad binary operator %d", (int)op);
}

/* ------------------------------------------------------------------ dumper */

typedef struct dumper {
  FILE *out;
  src_set *src;
  diag_list *diag; /* Where a tree too deep for the stack is reported. */
  bool too_deep;   /* It was. */
} dumper;

/* Prints s (n bytes) as a C string literal that is pure ASCII. */
static void put_string(FILE *out, const char *s, size_t n) {
  fputc('"', out);
  for (size_t i = 0; i < n;) {
    unsigned char c = (unsigned char)s[i];
    switch (c) {
    case '\a':
      fputs("\\a", out);
      break;
    case '\b':
      fputs("\\b", out);
      break;
    case '\f':
      fputs("\\f", out);
      break;
    case '\n':
      fputs("\\n", out);
      break;
    case '\r':
      fputs("\\r", out);
      break;
    case '\t':
      fputs("\\t", out);
      break;
    case '\v':
      fputs("\\v", out);
      break;
    case '\\':
      fputs("\\\\", out);
      break;
    case '"':
      fputs("\\\"", out);
      break;
    default:
      if (c >= 0x20 && c < 0x7F) {
        fputc(c, out);
      } else if (c >= 0xC2 && c <= 0xF4) {
        /* A well-formed multi-byte character (the front end only produces
           valid UTF-8) prints as its code point. */
        size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
        uint32_t cp = c & (len == 2 ? 0x1F : len == 3 ? 0x0F : 0x07);
        bool ok = i + len <= n;
        for (size_t k = 1; ok && k < len; k++) {
          unsigned char cc = (unsigned char)s[i + k];
          ok = (cc & 0xC0) == 0x80;
          cp = (cp << 6) | (cc & 0x3F);
        }
        if (ok) {
          fprintf(out, cp > 0xFFFF ? "\\U%08X" : "\\u%04X", (unsigned)cp);
          i += len;
          continue;
        }
        fprintf(out, "\\%03o", c);
      } else {
        fprintf(out, "\\%03o", c);
      }
      break;
    }
    i++;
  }
  fputc('"', out);
}

static void put_cstring(FILE *out, const char *s) {
  put_string(out, s, strlen(s));
}

/* Lines deeper than this are indented this much and carry their depth. */
enum { MAX_INDENT = 64 };

/* Starts a node line: indentation, role, kind and span.  Past MAX_INDENT
   levels the indentation stops growing, so that the dump of a chain of
   100,000 operators stays linear in size, and the line starts with `@N `
   instead, N being its depth. */
static void begin_line(dumper *d, size_t depth, const char *role, const char *kind,
                       pcl_span span) {
  for (size_t i = 0; i < depth && i < MAX_INDENT; i++)
    fputs("  ", d->out);
  if (depth > MAX_INDENT)
    fprintf(d->out, "@%zu ", depth);
  if (role)
    fprintf(d->out, "%s: ", role);
  src_pos a = src_position(d->src, span.file, span.start);
  src_pos b = src_position(d->src, span.file, span.end);
  fprintf(d->out, "%s %zu:%zu-%zu:%zu", kind, a.line, a.column, b.line, b.column);
}

static void put_field_string(dumper *d, const char *name, const char *value) {
  fprintf(d->out, " %s=", name);
  put_cstring(d->out, value);
}

static void put_field_bool(dumper *d, const char *name, bool value) {
  fprintf(d->out, " %s=%s", name, value ? "true" : "false");
}

static void dump_node(dumper *d, const ast_node *n, size_t depth, const char *role);

/* Prints a child (optional ones only when present). */
static void dump_child(dumper *d, const ast_node *n, size_t depth, const char *role,
                       bool optional) {
  if (n || !optional)
    dump_node(d, n, depth, role);
}

/* Prints the elements of a list, in order. */
static void dump_list(dumper *d, ast_list l, size_t depth) {
  for (size_t i = 0; i < l.count; i++)
    dump_node(d, l.items[i], depth, NULL);
}

/* Prints a block label. */
static void dump_label(dumper *d, const ast_label *label, size_t depth) {
  begin_line(d, depth, NULL, "label", label->span);
  put_field_string(d, "text", label->text);
  put_field_bool(d, "quoted", label->quoted);
  fputc('\n', d->out);
}

/* Prints the line of node n (or of an absent child, n NULL), then its
   children, in order. */
static void dump_node(dumper *d, const ast_node *n, size_t depth, const char *role) {
  if (!n) {
    for (size_t i = 0; i < depth && i < MAX_INDENT; i++)
      fputs("  ", d->out);
    if (depth > MAX_INDENT)
      fprintf(d->out, "@%zu ", depth);
    fprintf(d->out, "%s: (none)\n", role ? role : "node");
    return;
  }
  if (stack_too_deep(&d->too_deep, d->diag, n->span))
    return;
  begin_line(d, depth, role, ast_kind_name(n->kind), n->span);
  size_t c = depth + 1;
  switch (n->kind) {
  case AST_ATTRIBUTE:
    put_field_string(d, "name", n->attribute.name.text);
    fputc('\n', d->out);
    dump_child(d, n->attribute.value, c, "value", false);
    return;
  case AST_BLOCK:
    put_field_string(d, "type", n->block.type.text);
    put_field_bool(d, "one-line", n->block.one_line);
    fputc('\n', d->out);
    for (size_t i = 0; i < n->block.nlabels; i++)
      dump_label(d, &n->block.labels[i], c);
    dump_list(d, n->block.body, c);
    return;
  case AST_NUMBER:
    put_field_string(d, "text", n->number.text);
    fputc('\n', d->out);
    return;
  case AST_BOOL:
    put_field_bool(d, "value", n->boolean.value);
    fputc('\n', d->out);
    return;
  case AST_NULL:
  case AST_SPLAT_ITEM:
    fputc('\n', d->out);
    return;
  case AST_VARIABLE:
    put_field_string(d, "name", n->variable.name);
    fputc('\n', d->out);
    return;
  case AST_TEMPLATE:
    put_field_bool(d, "heredoc", n->template.heredoc);
    put_field_bool(d, "flush", n->template.flush);
    fputc('\n', d->out);
    dump_list(d, n->template.parts, c);
    return;
  case AST_TEMPLATE_LITERAL:
    fputs(" text=", d->out);
    put_string(d->out, n->literal.text, n->literal.len);
    fputc('\n', d->out);
    return;
  case AST_TEMPLATE_IF:
    fputc('\n', d->out);
    dump_child(d, n->tif.cond, c, "cond", false);
    dump_child(d, n->tif.then, c, "then", false);
    dump_child(d, n->tif.else_, c, "else", true);
    return;
  case AST_TEMPLATE_FOR:
    if (n->tfor.key.text)
      put_field_string(d, "key", n->tfor.key.text);
    put_field_string(d, "value", n->tfor.value.text ? n->tfor.value.text : "");
    fputc('\n', d->out);
    dump_child(d, n->tfor.collection, c, "collection", false);
    dump_child(d, n->tfor.body, c, "body", false);
    return;
  case AST_GET_ATTR:
    put_field_string(d, "name", n->get_attr.name.text);
    fputc('\n', d->out);
    dump_child(d, n->get_attr.object, c, "object", false);
    return;
  case AST_INDEX:
    put_field_bool(d, "legacy", n->index.legacy);
    fputc('\n', d->out);
    dump_child(d, n->index.collection, c, "collection", false);
    dump_child(d, n->index.key, c, "key", false);
    return;
  case AST_SPLAT:
    put_field_bool(d, "full", n->splat.full);
    fputc('\n', d->out);
    dump_child(d, n->splat.source, c, "source", false);
    dump_child(d, n->splat.each, c, "each", false);
    return;
  case AST_CALL:
    put_field_string(d, "name", n->call.name.text);
    put_field_bool(d, "expand-final", n->call.expand_final);
    fputc('\n', d->out);
    dump_list(d, n->call.args, c);
    return;
  case AST_TUPLE:
    fputc('\n', d->out);
    dump_list(d, n->tuple.items, c);
    return;
  case AST_OBJECT:
    fputc('\n', d->out);
    dump_list(d, n->object.items, c);
    return;
  case AST_OBJECT_ITEM:
    put_field_bool(d, "colon", n->item.colon);
    fputc('\n', d->out);
    dump_child(d, n->item.key, c, "key", false);
    dump_child(d, n->item.value, c, "value", false);
    return;
  case AST_FOR:
    put_field_bool(d, "object", n->for_expr.is_object);
    if (n->for_expr.key_var.text)
      put_field_string(d, "key-var", n->for_expr.key_var.text);
    put_field_string(d, "value-var", n->for_expr.value_var.text ? n->for_expr.value_var.text : "");
    put_field_bool(d, "grouping", n->for_expr.grouping);
    fputc('\n', d->out);
    dump_child(d, n->for_expr.collection, c, "collection", false);
    dump_child(d, n->for_expr.key, c, "key", true);
    dump_child(d, n->for_expr.value, c, "value", false);
    dump_child(d, n->for_expr.cond, c, "cond", true);
    return;
  case AST_UNARY:
    put_field_string(d, "op", ast_unary_op_name(n->unary.op));
    fputc('\n', d->out);
    dump_child(d, n->unary.operand, c, "operand", false);
    return;
  case AST_BINARY:
    put_field_string(d, "op", ast_binary_op_name(n->binary.op));
    fputc('\n', d->out);
    dump_child(d, n->binary.lhs, c, "lhs", false);
    dump_child(d, n->binary.rhs, c, "rhs", false);
    return;
  case AST_CONDITIONAL:
    fputc('\n', d->out);
    dump_child(d, n->cond.cond, c, "cond", false);
    dump_child(d, n->cond.then, c, "then", false);
    dump_child(d, n->cond.else_, c, "else", false);
    return;
  case AST_PAREN:
    fputc('\n', d->out);
    dump_child(d, n->paren.inner, c, "inner", false);
    return;
  }
  ice("bad AST kind %d", (int)n->kind);
}

bool ast_dump(FILE *out, src_set *src, const ast_program *prog, diag_list *diags) {
  dumper d = {out, src, diags, false};
  for (size_t i = 0; i < prog->count; i++) {
    const ast_file *f = &prog->files[i];
    fputs("file ", out);
    put_cstring(out, src_get(src, f->file)->path);
    fputc('\n', out);
    dump_list(&d, f->body, 1);
  }
  return !d.too_deep;
}
