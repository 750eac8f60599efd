/* ir: the typed intermediate representation between the bound program and
 * the C emitter.
 *
 * lower.c builds one ir_module per program (and one per component program)
 * from a bnd_program.  The IR is self-contained: the emitter reads nothing
 * else (no bound tree, no schema).  Nodes keep the binder's evaluation
 * order.  Every expression is an ir_expr tree whose operations are those of
 * ir_ops.h, and its type is the type of the value it computes at run time:
 *   * an expression whose type holds no output or promise computes a plain
 *     value (no future, secret or unknown anywhere inside); `dynamic` is a
 *     plain value of a shape known only at run time;
 *   * every expression that needs the resolved value of an eventual one is
 *     an APPLY whose first n-1 children are the eventual arguments and whose
 *     last child is the body, in which PARAM $k stands for the resolved
 *     argument; the body's types are the resolved ones;
 *   * a static traversal through eventual values (`r.a.b`, `rs[0].id`) is a
 *     PATH, which the runtime follows through futures step by step;
 *   * conversions are CONVERT nodes; template %{if} is a COND, %{for} a FOR
 *     that concatenates; special forms (try, can, recover, secret, unsecret,
 *     getOutput, invoke, method calls) have their own operations;
 *   * variables have slots, unique within the module: every binding (for,
 *     splat, range and recover variables, apply parameters) has its own.
 * Types may be more eventual than the value turns out to be at run time
 * (an eventual value may be plain when it is computed), never less.
 * Everything lives in the compilation's arena. */
#ifndef PCLC_IR_H
#define PCLC_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ir/ir_ops.h"
#include "pcl_builtins.h"
#include "base/diag.h"
#include "base/src.h"
#include "front/ast.h" /* UNARY and BINARY carry the AST's operators (sub). */
#include "types/ty.h"

typedef enum ir_op {
#define X(name, text) IR_##name,
  IR_OPS(X)
#undef X
} ir_op;

/* Operators of UNARY and BINARY (ir_expr.sub). */
typedef enum ir_unary_op {
#define X(name, text) IR_U_##name,
  IR_UNARY_OPS(X)
#undef X
} ir_unary_op;

typedef enum ir_binary_op {
#define X(name, text) IR_B_##name,
  IR_BINARY_OPS(X)
#undef X
} ir_binary_op;

/* Kinds of constants (ir_expr.ck). */
typedef enum ir_const_kind { IR_K_NULL, IR_K_BOOL, IR_K_INT, IR_K_NUMBER, IR_K_STRING } ir_const_kind;

/* Flags of FOR (ir_expr.sub). */
enum {
  IR_F_OBJECT = 1,  /* {for ...: k => v}. */
  IR_F_GROUP = 2,   /* k => v... (grouping). */
  IR_F_KEY = 4,     /* A key expression follows the value. */
  IR_F_COND = 8,    /* A condition follows. */
  IR_F_CONCAT = 16, /* %{for}: the values concatenated into a string. */
  IR_F_KEYVAR = 32, /* The key variable (slot a) is bound. */
};

/* Conversion targets of CONVERT, kept in ir_expr.sub. */
typedef enum ir_convert { IR_C_STRING, IR_C_NUMBER, IR_C_INT, IR_C_BOOL } ir_convert;

typedef struct ir_expr ir_expr;

/* One step of a PATH. */
typedef struct ir_step {
  ir_expr *key;  /* A CONST: the attribute name or string key (STRING) or the
                    list index (INT); for a keyed step the key expression,
                    also the PATH's child 1 + (its rank among keyed steps). */
  bool index;    /* An index step (`[k]`), else an attribute (`.k`). */
  bool keyed;    /* An index step whose key is computed: a plain static
                    traversal (`family[range.value]`). */
  bool declared; /* The step's name is declared by the static type (a schema
                    output, an optional attribute): a missing one reads null. */
  /* When the value stepped from is one of the objects of a discriminated
     union, only some of which declare the name: the discriminator property
     and the discriminator values of the members that declare it.  A
     missing name is declared when the value's discriminator is one of
     them (or is not known yet). */
  const char *disc;           /* The discriminator property, or NULL. */
  const char *const *members; /* The values (NUL-terminated strings). */
  size_t nmembers;            /* Their number. */
} ir_step;

/* One expression: an operation, its children and its operands.  The fields
 * are ordered so that the struct has no padding holes: a program has
 * several IR expressions per source line. */
struct ir_expr {
  ir_op op;       /* The operation. */
  unsigned sub;   /* UNARY: ir_unary_op; BINARY: ir_binary_op; CONVERT: ir_convert;
                     FOR: IR_F_*; CALL: 1 for f(xs...); INVOKE, METHOD: 1
                     when the result is the one value of the result object. */
  const ty *type; /* The type of the value computed (see the header). */
  const ty *bound_type; /* The checker's type of the source expression, or
                           NULL for what the lowering made. */
  pcl_span span;  /* Source location. */
  uint32_t a, b;  /* NODE: node position; VAR, PARAM: slot; FOR: key and
                     value slots; SPLAT: item slot; APPLY: first parameter
                     slot; RECOVER: error slot; CALL: the built-in
                     (pcl__builtin_id of common/pcl_builtins.h). */
  ir_const_kind ck; /* CONST: which constant (FAIL: the message is a STRING
                       constant). */
  ir_expr **kids; /* Children (see below). */
  size_t n;       /* Number of children. */
  const char *s;  /* ATTR: name; INVOKE, METHOD: token. */
  ir_step *steps; /* PATH: the steps after the root (kid 0). */
  uint32_t nsteps; /* PATH: their number. */
  bool declared;  /* ATTR, INDEX: the key is declared by the static type. */
  bool boolean;     /* CONST BOOL: the value. */
  /* Only a CONST and a FAIL have the fields from here on (see ir_new_expr). */
  const char *text; /* CONST INT: decimal digits; NUMBER: literal text;
                       STRING: bytes. */
  size_t len;       /* CONST STRING: byte length. */
  double number;    /* CONST NUMBER: the value. */
};
/* Children by operation: ATTR (object), INDEX (collection, key), LIST
 * (items), OBJECT (key0, value0, key1, ...), TEMPLATE (parts), UNARY (1),
 * BINARY, AND and OR (2), COND (condition, then, else), CALL (arguments), CONVERT (1),
 * FOR (collection, value, then key with IR_F_KEY, then condition with
 * IR_F_COND), SPLAT (source, each), APPLY (arguments, then the body),
 * SECRET and UNSECRET (1), GET_OUTPUT (reference, name), RESOURCE_EXISTS
 * (type, id, then the state when given), INVOKE (arguments
 * object, options object or none), METHOD (self, arguments object), TRY
 * (alternatives), CAN (1), RECOVER (value, recovery), PATH (root, then the
 * keys of its keyed steps), FAIL (message); CONST, NODE, VAR and PARAM have
 * none. */

/* Kinds of top-level nodes: X(NAME, "dump name"). */
#define IR_NODE_KINDS(X)                                                                 \
  X(LOCAL, "local")                                                                      \
  X(CONFIG, "config")                                                                    \
  X(OUTPUT, "output")                                                                    \
  X(RESOURCE, "resource")                                                                \
  X(READ, "read")                                                                        \
  X(COMPONENT, "component")                                                              \
  X(PULUMI, "pulumi")                                                                    \
  X(HOOK, "hook")

typedef enum ir_node_kind {
#define X(name, text) IR_N_##name,
  IR_NODE_KINDS(X)
#undef X
} ir_node_kind;

/* What a resource, read or component node registers. */
typedef enum ir_res_kind {
  IR_RES_CUSTOM,    /* A custom resource (or a provider). */
  IR_RES_COMPONENT, /* A local component. */
  IR_RES_REMOTE,    /* A component a provider constructs. */
} ir_res_kind;

typedef struct ir_module ir_module;

/* One top-level node. */
typedef struct ir_node {
  ir_node_kind kind;    /* What the node is. */
  const char *name;     /* Its name in the program (interned). */
  const char *logical;  /* Its name towards the engine and in outputs. */
  pcl_span span;        /* The whole block or attribute. */
  const ty *type;       /* The type of references to the node. */
  ir_expr *value;       /* LOCAL, OUTPUT: value; CONFIG: default or NULL;
                           READ: id; PULUMI: the required version range. */
  ir_expr *inputs;      /* RESOURCE, READ, COMPONENT: OBJECT of inputs. */
  ir_expr *options;     /* OBJECT of options, or NULL. */
  ir_expr *deferred_inputs; /* COMPONENT with a program: LIST of the names of
                               the inputs its registration leaves out, as they
                               read components evaluated after it
                               (program.md 10.4), or NULL when none do. */
  ir_expr *range;       /* The range expression, or NULL. */
  uint32_t range_slot;  /* Slot of `range`. */
  /* HOOK: value is the command, inputs the OBJECT {onDryRun, ignoreErrors}. */
  uint32_t args_slot;   /* Slot of `args`, bound by the command. */
  bool error_hook;      /* An error hook rather than a resource hook. */
  /* RESOURCE, READ, COMPONENT. */
  const char *token;    /* Type token (a component's is made from its source). */
  ir_res_kind res_kind; /* Custom, local or remote component. */
  const char *version;  /* Package version from the schema, or NULL. */
  const char *plugin_download_url; /* From the schema, or NULL. */
  ir_module *component; /* COMPONENT with a source: its program. */
  /* CONFIG. */
  uint32_t config_index; /* Position among the module's configs. */
  const ty *config_type; /* The declared type, without the secret wrapper. */
  bool nullable;         /* A missing value is null, not an error. */
  bool secret;           /* The value is secret. */
} ir_node;

/* A parameterized package a program defines (a `package` block with a
 * parameterization, program.md §9): the package named by the
 * parameterization, served by the base provider's plugin. */
typedef struct ir_package {
  const char *base_name;    /* baseProviderName. */
  const char *base_version; /* baseProviderVersion, or NULL. */
  const char *download_url; /* baseProviderDownloadUrl, or NULL. */
  const char *name;         /* The parameterization's name: the package's. */
  const char *version;      /* The parameterization's version, or NULL. */
  const char *value;        /* The parameterization's value, decoded from its base64
                               (bytes that may hold NULs, then a NUL). */
  size_t value_len;         /* The number of bytes. */
  bool extension;           /* Its schema says it extends the base provider. */
} ir_package;

/* The IR of one program (the top-level one or a component's). */
struct ir_module {
  const char *dir;  /* The program's directory, as bound. */
  const ir_package *packages; /* Its parameterized packages, in definition order. */
  size_t npackages;           /* Their number. */
  ir_node *nodes;   /* In evaluation order. */
  size_t count;     /* Number of nodes. */
  size_t nconfigs;  /* Number of CONFIG nodes. */
  uint32_t nslots;  /* Variable slots used. */
  size_t index;     /* Position among the compilation's modules (0: top). */
};

/* Returns a new zeroed expression of operation op, allocated in a.  Only a
 * CONST is allocated with the fields from `text` on: never read them on
 * another operation, nor copy a whole expression. */
ir_expr *ir_new_expr(arena *a, ir_op op);

/* Returns the dump name of an operation. */
const char *ir_op_name(ir_op op);
/* Returns the PCL name of a built-in (its row of common/pcl_builtins.h),
 * which its runtime function pcl_fn_<name> is named after. */
const char *ir_builtin_name(pcl__builtin_id id);

/* Prints module m (and its component modules) in the stable text form of
 * --dump-ir.  Returns false when an expression is too deep for the stack:
 * "expression nested too deeply" is then reported to diag, and what was
 * written is cut short. */
bool ir_dump(FILE *out, src_set *src, const ir_module *m, diag_list *diags);

#endif
