/* ir: the typed intermediate representation between the bound program and
 * the C emitter.
 *
 * lower.c builds one ir_module per program (and one per component program)
 * from a bnd_program.  Nodes keep the binder's evaluation order.  Every
 * expression is an ir_expr tree whose operations are those of ir_ops.h; the
 * IR makes explicit what the bound tree leaves implicit:
 *   * every expression that observes an eventual (output or promise) value
 *     is an APPLY whose first n-1 children are the eventual arguments,
 *     deduplicated by (definition, traversal path), and whose last child is
 *     the body, in which PARAM i stands for the resolved argument i;
 *   * conversions are CONVERT nodes;
 *   * template %{if} is a COND, %{for} a FOR that concatenates;
 *   * special forms (try, can, recover, secret, unsecret, invoke, call) have
 *     their own operations;
 *   * variables have slots (VAR a): every binding (for, splat, range and
 *     recover variables, apply parameters) has its own slot number, unique
 *     within its module, so the runtime finds a variable by number in its
 *     chain of bindings.
 * Everything lives in the compilation's arena. */
#ifndef PCLC_IR_H
#define PCLC_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bound.h"
#include "ir_ops.h"
#include "src.h"
#include "ty.h"

typedef enum ir_op {
#define X(name, text) IR_##name,
  IR_OPS(X)
#undef X
} ir_op;

/* Kinds of constants (ir_expr.ck). */
typedef enum ir_const_kind { IR_K_NULL, IR_K_BOOL, IR_K_INT, IR_K_NUMBER, IR_K_STRING } ir_const_kind;

/* Flags of FOR (the same bits as PCL_XF_* in runtime/pcl.h). */
enum {
  IR_F_OBJECT = 1,
  IR_F_GROUP = 2,
  IR_F_KEY = 4,
  IR_F_COND = 8,
  IR_F_CONCAT = 16,
  IR_F_KEYVAR = 32,
};

/* Conversion targets of CONVERT, kept in ir_expr.sub (the same numbers as
 * PCL_XC_* in runtime/pcl.h); IR_C_NONE leaves the value as it is. */
typedef enum ir_convert { IR_C_NONE, IR_C_STRING, IR_C_NUMBER, IR_C_INT, IR_C_BOOL } ir_convert;

/* One expression: an operation, its children and its operands. */
typedef struct ir_expr ir_expr;
struct ir_expr {
  ir_op op;       /* The operation. */
  unsigned sub;   /* UNARY/BINARY: the ast operator; CONVERT: IR_C_*; FOR:
                     IR_F_*; CALL: 1 for f(xs...). */
  const ty *type; /* The type of the value (after resolution inside bodies). */
  pcl_span span;  /* Source location. */
  ir_expr **kids; /* Children (see ir_ops.h and runtime/pcl.h PCL_XOPS). */
  size_t n;       /* Number of children. */
  const char *s;  /* ATTR: name; CALL: function; INVOKE, METHOD: token. */
  uint32_t a, b;  /* NODE: node position; VAR, PARAM: slot; FOR: key and
                     value slots; SPLAT: item slot; APPLY: first parameter
                     slot; RECOVER: error slot. */
  /* CONST. */
  ir_const_kind ck; /* Which constant. */
  bool boolean;     /* BOOL: the value. */
  const char *text; /* INT: decimal digits; NUMBER: literal text; STRING: bytes. */
  size_t len;       /* STRING: byte length. */
  double number;    /* NUMBER: the value. */
  const bnd_node *node; /* NODE: the node referenced. */
};

/* One top-level node. */
typedef struct ir_node {
  const bnd_node *b;        /* The bound node. */
  ir_expr *value;           /* LOCAL, OUTPUT: value; CONFIG: default; READ: id. */
  ir_expr *inputs;          /* RESOURCE, READ, COMPONENT: OBJECT of inputs. */
  ir_expr *options;         /* OBJECT of options, or NULL. */
  ir_expr *range;           /* The range expression, or NULL. */
  uint32_t range_slot;      /* Slot of `range`. */
  struct ir_module *component; /* COMPONENT with a source: its program. */
} ir_node;

/* The IR of one program (the top-level one or a component's). */
typedef struct ir_module {
  const bnd_program *program; /* The bound program it was lowered from. */
  ir_node *nodes; /* In evaluation order. */
  size_t count;
  uint32_t nslots; /* Variable slots used. */
  size_t index;    /* Position among the compilation's modules (0: top). */
} ir_module;

/* Returns the dump name of an operation. */
const char *ir_op_name(ir_op op);

/* Prints module m (and its component modules) in the stable text form of
 * --dump-ir. */
void ir_dump(FILE *out, src_set *src, const ir_module *m);

#endif
