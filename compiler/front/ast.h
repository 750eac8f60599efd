/* ast: the abstract syntax tree of PCL source (HCL native syntax).
 *
 * The parser builds it, the binder reads it, nothing else sees it.  Every
 * node carries the byte-offset span of the source it came from.  Nodes,
 * lists and strings live in the compilation's arena; identifiers and
 * attribute names are interned (compare them by pointer).  The tree is
 * purely syntactic: templates keep their parts as written (strip markers and
 * `<<-` indentation already applied to literal pieces, escapes decoded),
 * object keys keep their syntactic form, and no name is resolved. */
#ifndef PCLC_AST_H
#define PCLC_AST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base/arena.h"
#include "base/diag.h"
#include "front/ast_kinds.h"
#include "base/src.h"

typedef enum ast_kind {
#define X(name, text) AST_##name,
  AST_KINDS(X)
#undef X
} ast_kind;

typedef enum ast_unary_op {
#define X(name, text) AST_OP_##name,
  AST_UNARY_OPS(X)
#undef X
} ast_unary_op;

typedef enum ast_binary_op {
#define X(name, text) AST_OP_##name,
  AST_BINARY_OPS(X)
#undef X
} ast_binary_op;

typedef struct ast_node ast_node;

/* A counted array of nodes (arena-allocated). */
typedef struct ast_list {
  ast_node **items;
  size_t count;
} ast_list;

/* A name written in the source, with its own span. */
typedef struct ast_name {
  const char *text; /* Interned identifier. */
  pcl_span span;
} ast_name;

/* A block label: a bare identifier or a quoted literal string. */
typedef struct ast_label {
  const char *text; /* Decoded label text (interned). */
  pcl_span span;    /* The label as written, quotes included. */
  bool quoted;      /* Written as "..." rather than a bare identifier. */
} ast_label;

struct ast_node {
  ast_kind kind;
  pcl_span span; /* The whole construct as written. */
  union {
    /* AST_ATTRIBUTE: `name = value` in a body. */
    struct {
      ast_name name;
      ast_node *value;
    } attribute;
    /* AST_BLOCK: `type label... { body }`.  body holds ATTRIBUTE and BLOCK
       nodes in source order; one_line is true for `type { a = 1 }`. */
    struct {
      ast_name type;
      ast_label *labels;
      size_t nlabels;
      ast_list body;
      pcl_span open_brace, close_brace;
      bool one_line;
    } block;
    /* AST_NUMBER: the literal exactly as written (`1.5e3`, `007`). */
    struct {
      const char *text;
    } number;
    /* AST_BOOL. */
    struct {
      bool value;
    } boolean;
    /* AST_VARIABLE: a bare name in expression position. */
    struct {
      const char *name; /* Interned. */
    } variable;
    /* AST_TEMPLATE: a quoted string or heredoc.  parts holds
       TEMPLATE_LITERAL, TEMPLATE_IF, TEMPLATE_FOR and interpolated
       expressions in order; an empty template has one empty literal. */
    struct {
      ast_list parts;
      bool heredoc; /* Written as <<ID or <<-ID. */
      bool flush;   /* Written as <<-ID. */
    } template;
    /* AST_TEMPLATE_LITERAL: decoded literal text; may contain NUL bytes. */
    struct {
      const char *text;
      size_t len;
    } literal;
    /* AST_TEMPLATE_IF: `%{if cond}then%{else}else_%{endif}`; the branches are
       TEMPLATE nodes; else_ is NULL when there is no else clause. */
    struct {
      ast_node *cond, *then, *else_;
    } tif;
    /* AST_TEMPLATE_FOR: `%{for key, value in collection}body%{endfor}`;
       key.text is NULL with a single name. body is a TEMPLATE node. */
    struct {
      ast_name key, value;
      ast_node *collection, *body;
    } tfor;
    /* AST_GET_ATTR: `object.name`. */
    struct {
      ast_node *object;
      ast_name name;
    } get_attr;
    /* AST_INDEX: `collection[key]`, or `collection.N` when legacy is true
       (key is then a NUMBER node). */
    struct {
      ast_node *collection, *key;
      bool legacy;
    } index;
    /* AST_SPLAT: `source[*]rest` (full) or `source.*rest` (attribute-only).
       each is the traversal applied to every element, built on the
       SPLAT_ITEM node `item` (each == item when there is no rest). */
    struct {
      ast_node *source, *each, *item;
      bool full;
    } splat;
    /* AST_CALL: `name(args...)`; name is `ns::fn` for namespaced calls;
       expand_final is true when the last argument is followed by `...`. */
    struct {
      ast_name name;
      ast_list args;
      bool expand_final;
    } call;
    /* AST_TUPLE: `[a, b]`. */
    struct {
      ast_list items;
    } tuple;
    /* AST_OBJECT: `{k = v, ...}`; items are OBJECT_ITEM nodes. */
    struct {
      ast_list items;
    } object;
    /* AST_OBJECT_ITEM: key is the key expression as written: a VARIABLE for
       a bare name (or BOOL/NULL for true/false/null), a PAREN for `(expr)`,
       anything else otherwise.  colon is true when written with `:`. */
    struct {
      ast_node *key, *value;
      bool colon;
    } item;
    /* AST_FOR: `[for k, v in coll : value if cond]` or
       `{for k, v in coll : key => value... if cond}`.  key_var.text is NULL
       with one name; key is NULL for tuples; cond may be NULL. */
    struct {
      ast_name key_var, value_var;
      ast_node *collection, *key, *value, *cond;
      bool is_object, grouping;
    } for_expr;
    /* AST_UNARY. */
    struct {
      ast_unary_op op;
      ast_node *operand;
    } unary;
    /* AST_BINARY. */
    struct {
      ast_binary_op op;
      ast_node *lhs, *rhs;
      pcl_span op_span;
    } binary;
    /* AST_CONDITIONAL: `cond ? then : else_`. */
    struct {
      ast_node *cond, *then, *else_;
    } cond;
    /* AST_PAREN: `(inner)`. */
    struct {
      ast_node *inner;
    } paren;
  };
};

/* One parsed source file. */
typedef struct ast_file {
  uint32_t file; /* Source id in the compilation's src_set. */
  ast_list body; /* ATTRIBUTE and BLOCK nodes in source order. */
} ast_file;

/* A program: every file of one directory (or one file), in sorted order. */
typedef struct ast_program {
  ast_file *files;
  size_t count;
} ast_program;

/* Returns a new zeroed node of the given kind and span, allocated in a.
 * Only the union member of its kind is allocated: never read or copy a
 * whole node other than a BLOCK (the largest). */
ast_node *ast_new(arena *a, ast_kind kind, pcl_span span);
/* Returns the dump name of a kind ("get-attr"). */
const char *ast_kind_name(ast_kind k);
/* Calls visit(arg, kid) on each child of n in source order: the value of an
 * attribute, the body of a block, the parts, operands and items of an
 * expression (an object item's key too, whatever its form).  A child that
 * is absent (a for expression's key or condition, a template if's else)
 * is skipped; a leaf has none. */
void ast_each_child(const ast_node *n, void (*visit)(void *arg, const ast_node *kid), void *arg);
/* Writes the stable text form of the program used by --dump-ast.  Returns
 * false when a tree is too deep for the stack: "expression nested too
 * deeply" is then reported to diags, and what was written is cut short. */
bool ast_dump(FILE *out, src_set *src, const ast_program *prog, diag_list *diags);

#endif
