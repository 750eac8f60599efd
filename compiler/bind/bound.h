/* bound: the bound and typed program, the contract between the binder/checker
 * and the IR lowering.
 *
 * The binder (bind.c) turns an ast_program into a bnd_program: one bnd_node
 * per top-level construct (locals, config, resources, reads, components,
 * outputs, the pulumi block, hooks), with every name resolved, the
 * dependency graph between nodes, and a stable topological evaluation order.
 * The checker (check.c) gives every expression a type: bound expressions form
 * a tree in which every node has a `const ty *` and references point to the
 * declarations they name (a bnd_node for top-level names, a bnd_var for
 * for-expression, range, splat and other scoped variables).
 *
 * Everything here lives in the compilation's arena and is immutable once
 * bind_program has returned.  Names are interned.  Invariants after a
 * successful bind (no errors): every expression has a non-NULL type; no
 * expression has `error` set; FAIL expressions occur only inside the
 * arguments of try and can; `order` lists every node of `nodes` exactly
 * once, dependencies first. */
#ifndef PCLC_BOUND_H
#define PCLC_BOUND_H

#include <stdbool.h>
#include <stddef.h>

#include "front/ast.h"
#include "bind/bound_kinds.h"
#include "pcl_builtins.h"
#include "base/src.h"
#include "types/ty.h"

typedef enum bnd_node_kind {
#define X(name, text) BND_##name,
  BND_NODE_KINDS(X)
#undef X
} bnd_node_kind;

typedef enum bnd_expr_kind {
#define X(name, text) BND_E_##name,
  BND_EXPR_KINDS(X)
#undef X
} bnd_expr_kind;

typedef enum bnd_option {
#define X(name, text, path) BND_OPT_##name,
  BND_OPTIONS(X)
#undef X
  BND_OPT_COUNT
} bnd_option;

/* What a call expression calls. */
typedef enum bnd_call_kind {
  BND_CALL_BUILTIN, /* An ordinary builtin of functions.md. */
  BND_CALL_TRY,     /* try(e...): lazy, error-capturing special form. */
  BND_CALL_CAN,     /* can(e): lazy special form. */
  BND_CALL_RECOVER, /* recover(v, r): r sees the variable `error`. */
  BND_CALL_INVOKE,  /* invoke(token, args[, options]). */
  BND_CALL_METHOD,  /* call(self, method, args). */
  BND_CALL_CONVERT, /* convert(value, TYPE): explicit conversion. */
  BND_CALL_UNKNOWN  /* Unknown function (only after an error). */
} bnd_call_kind;

/* How a resource's `range` option shapes it (program.md §3.5). */
typedef enum bnd_range_kind {
  BND_RANGE_NONE,  /* No range: a single resource. */
  BND_RANGE_BOOL,  /* 0 or 1 instance; the name is optional(R). */
  BND_RANGE_COUNT, /* n instances; range.value is int; the name is list(R). */
  BND_RANGE_LIST,  /* One per list element; range.key is int; list(R). */
  BND_RANGE_MAP    /* One per map entry; range.key is string; map(R). */
} bnd_range_kind;

/* Where a scoped variable comes from. */
typedef enum bnd_var_kind {
  BND_VAR_FOR_KEY,       /* Key variable of a for expression / %{for}. */
  BND_VAR_FOR_VALUE,     /* Value variable of a for expression / %{for}. */
  BND_VAR_SPLAT_ITEM,    /* The anonymous element of a splat. */
  BND_VAR_RANGE,         /* `range` inside a ranged resource or component. */
  BND_VAR_RECOVER_ERROR, /* `error` in the second argument of recover(). */
  BND_VAR_HOOK_ARGS      /* `args` in a hook's command. */
} bnd_var_kind;

typedef struct bnd_node bnd_node;
typedef struct bnd_expr bnd_expr;
typedef struct bnd_program bnd_program;

/* A variable introduced by a nested scope (program.md §10.3). */
typedef struct bnd_var {
  bnd_var_kind kind; /* What introduces it. */
  const char *name; /* Interned; "" for a splat item. */
  pcl_span span;    /* Where it is introduced. */
  const ty *type;   /* Its type. */
} bnd_var;

/* One `name = value` attribute of a block body. */
typedef struct bnd_attr {
  const char *name; /* Interned attribute name. */
  pcl_span span;    /* The whole attribute. */
  pcl_span name_span; /* The attribute name. */
  bnd_expr *value;    /* The bound value. */
  const ty *expected; /* The type the value must convert to, or NULL. */
  /* The input property of the schema's resource that a resource's
     attribute sets (secret, default), or NULL (untyped, a read, a component). */
  const struct schema_property *property;
  bool deferred;      /* An input of a component with a program that reads a
                         component evaluated after it (program.md 10.4): the
                         component is registered without waiting for it
                         (set by bind_check_deferred_outputs). */
} bnd_attr;

/* A counted array of attributes (arena-allocated), in source order. */
typedef struct bnd_attrs {
  bnd_attr *items; /* The attributes. */
  size_t count;    /* Number of attributes. */
} bnd_attrs;

/* One item of an object constructor. */
typedef struct bnd_item {
  bnd_expr *key;       /* The key expression (a STRING for bare names). */
  const char *literal; /* The key as a string when it is a literal, else NULL. */
  bnd_expr *value;     /* The bound value. */
} bnd_item;

struct bnd_expr {
  bnd_expr_kind kind; /* Selects the member of the union below. */
  pcl_span span;      /* The source expression. */
  const ty *type; /* Never NULL after checking. */
  bool error;     /* The expression is erroneous; its type is dynamic and no
                     further diagnostics are reported about its uses. */
  /* The schema type this value flows into (resource, component and invoke
     inputs, and the constructors nested in them), with input shapes
     (`union(T, output(T))`) and optional layers removed and discriminated
     unions narrowed to the member the value selects; NULL elsewhere.  The
     lowering converts the value to it. */
  const ty *target;
  union {
    /* NUMBER: the literal; `integral` literals are exact ints whose decimal
       value is `digits` (sign included, any size); others are doubles. */
    struct {
      const char *text; /* As written. */
      bool integral;
      const char *digits; /* Exact decimal value when integral. */
      double value;       /* Value as a double (rounded for big ints). */
    } number;
    /* BOOL. */
    bool boolean;
    /* STRING: a literal piece of text (may contain NUL bytes). */
    struct {
      const char *text;
      size_t len;
    } string;
    /* TEMPLATE: parts in order (STRING pieces and interpolations). */
    struct {
      bnd_expr **parts;
      size_t count;
    } tmpl;
    /* TEMPLATE_IF: branches are TEMPLATE nodes; else_ may be NULL. */
    struct {
      bnd_expr *cond, *then, *else_;
    } tif;
    /* TEMPLATE_FOR: `%{for key, value in coll}body%{endfor}`; key may be NULL. */
    struct {
      bnd_var *key, *value;
      bnd_expr *collection, *body;
    } tfor;
    /* NODE_REF: a reference to a top-level node. */
    struct {
      bnd_node *node;
    } node_ref;
    /* VAR_REF: a reference to a scoped variable. */
    struct {
      bnd_var *var;
    } var_ref;
    /* GET_ATTR: `object.name`. */
    struct {
      bnd_expr *object;
      const char *name; /* Interned. */
    } get_attr;
    /* INDEX: `collection[key]`. */
    struct {
      bnd_expr *collection, *key;
    } index;
    /* SPLAT: `source[*]each`; each is built on a VAR_REF to item. */
    struct {
      bnd_expr *source, *each;
      bnd_var *item;
    } splat;
    /* CALL: builtins and special forms.  For CONVERT the second argument is
       a TYPE expression.  For INVOKE, token is the token literal. */
    struct {
      bnd_call_kind kind;
      /* The built-in it names (common/pcl_builtins.h), or PCL__B_COUNT for
         an unknown function; beside kind, where it costs no space. */
      pcl__builtin_id builtin;
      const char *name; /* Interned function name as written. */
      bnd_expr **args;
      size_t nargs;
      bool expand_final; /* `f(xs...)`. */
      bnd_var *error_var; /* RECOVER: the `error` variable. */
      const char *token;  /* INVOKE: the function token as written; METHOD: the
                             method name. */
      /* INVOKE, METHOD: the schema function (canonical token, inputs,
         secrets), or NULL when the package has no schema. */
      const struct schema_function *function;
      /* INVOKE of a function with multi-argument inputs written
         positionally: the input name of each argument after the token
         (`npositional` of them; an extra last argument is the options). */
      const char *const *positional;
      size_t npositional;
    } call;
    /* TUPLE. */
    struct {
      bnd_expr **items;
      size_t count;
    } tuple;
    /* OBJECT: items in source order (later duplicate keys win). */
    struct {
      bnd_item *items;
      size_t count;
    } object;
    /* FOR: `[for k, v in c : value if cond]` or the object form with key;
       key_var may be NULL; key is NULL for the tuple form; cond may be NULL. */
    struct {
      bnd_var *key_var, *value_var;
      bnd_expr *collection, *key, *value, *cond;
      bool is_object, grouping;
    } for_expr;
    /* UNARY. */
    struct {
      ast_unary_op op;
      bnd_expr *operand;
    } unary;
    /* BINARY. */
    struct {
      ast_binary_op op;
      bnd_expr *lhs, *rhs;
    } binary;
    /* CONDITIONAL. */
    struct {
      bnd_expr *cond, *then, *else_;
    } cond;
    /* PROPERTY: a property path rendered as the runtime sends it
       (`details[0].key`, `tags["env"]`). */
    struct {
      const char *path;
      const ty *prop_type; /* Type of the property it names (dynamic if unknown). */
    } property;
    /* TYPE: a type expression; the denoted type is `denoted` (the node's own
       type is dynamic). */
    struct {
      const ty *denoted;
    } type_expr;
    /* FAIL: an expression inside an argument of try or can that fails
       whenever it runs (its failure was reported as a warning); it fails
       with message, located at where.  Its type is dynamic and it has no
       children: what it would have computed is never needed. */
    struct {
      const char *message; /* Arena string. */
      pcl_span where;      /* The failing part (the warning's location). */
    } fail;
  };
};

/* The options block of a resource, read or component.  Unset options are
   NULL; opt_span is the attribute's span for set ones. */
typedef struct bnd_options {
  bool present;       /* An options block was written. */
  pcl_span span;      /* The options block. */
  bnd_expr *opt[BND_OPT_COUNT];
  pcl_span opt_span[BND_OPT_COUNT];
} bnd_options;

/* A resource or read block. */
typedef struct bnd_resource {
  const char *token;     /* Type token as written. */
  const char *canonical; /* Canonical token (the schema's when known). */
  const char *package;   /* Package name (provider package for providers). */
  bool typed;            /* A schema described the resource. */
  /* The schema resource (inputs, outputs, secrets, defaults,
     replaceOnChanges), or NULL when untyped. */
  const struct schema_resource *schema;
  bool is_provider;      /* pulumi:providers:<pkg>. */
  bool is_component;     /* The schema marks it as a (remote) component. */
  const ty *input_type;  /* object of the accepted inputs, or NULL when untyped. */
  const ty *output_type; /* R: the object type of one instance. */
  bnd_attrs inputs;      /* Body attributes (inputs; `id` first for reads). */
  bnd_options options;
  bnd_range_kind range;
  bnd_var *range_var; /* The `range` variable, or NULL. */
} bnd_resource;

/* A component block. */
typedef struct bnd_component {
  const char *source;     /* Source directory as written, or NULL (sourceless). */
  const char *token;      /* Sourceless: the `token` attribute. */
  bnd_program *program;   /* The bound component program (NULL if sourceless). */
  const ty *output_type;  /* One instance: object of its outputs. */
  bnd_attrs inputs;       /* Inputs (configs of the component program). */
  bnd_options options;
  bnd_range_kind range;
  bnd_var *range_var;
} bnd_component;

/* A config block. */
typedef struct bnd_config {
  const ty *decl_type;   /* The declared type (after optional/secret rules),
                            dynamic when untyped. */
  const ty *value_type;  /* Declared type without the secret output wrapper. */
  const char *type_text; /* The type label as written, or NULL. */
  bnd_expr *default_;    /* May be NULL. */
  const char *description;
  bool nullable, secret;
} bnd_config;

/* An output block. */
typedef struct bnd_output {
  const ty *decl_type; /* Declared type label, or NULL. */
  const char *type_text;
  bnd_expr *value; /* NULL only after an error. */
} bnd_output;

/* A hook block. */
typedef struct bnd_hook {
  bool error_hook; /* `hook error` rather than `hook resource`. */
  bnd_var *args;   /* The `args` variable visible in command. */
  bnd_expr *command, *on_dry_run, *ignore_errors;
} bnd_hook;

struct bnd_node {
  bnd_node_kind kind;
  const char *name;         /* Lexical name (interned). */
  const char *logical_name; /* Name towards the engine (__logicalName). */
  pcl_span span;            /* The whole block or attribute. */
  pcl_span name_span;       /* The name label or attribute name. */
  const ast_node *syntax;   /* The block or attribute. */
  size_t index;             /* Position in bnd_program.nodes. */
  const ty *type;           /* Type of a reference to the node. */
  bnd_node **deps;          /* Nodes this one depends on, by index, unique. */
  size_t ndeps;
  union {
    bnd_expr *local; /* LOCAL: the value. */
    bnd_config config;
    bnd_resource resource; /* RESOURCE and READ. */
    bnd_component component;
    bnd_output output;
    bnd_expr *pulumi_version; /* PULUMI: requiredVersionRange, or NULL. */
    bnd_hook hook;
  };
  bool invalid; /* Malformed (reported); its references are not checked. */
  /* Binding state (internal to the binder). */
  int state;
};

/* A `package` block (program.md §9). */
typedef struct bnd_package {
  const char *name;
  const char *version;      /* baseProviderVersion, or NULL. */
  const char *download_url; /* baseProviderDownloadUrl, or NULL. */
  const char *param_name, *param_version, *param_value; /* parameterization. */
  /* The parameterization's value decoded from its base64 (bytes that may
     hold NULs, then a NUL), or NULL when it has none; param_len bytes. */
  const unsigned char *param_bytes;
  size_t param_len;
  bool extension; /* Parameterized, and its schema says it extends the base provider. */
  pcl_span span;
} bnd_package;

struct bnd_program {
  const char *dir;      /* Directory of the program ("." for a lone file's dir). */
  bnd_node **nodes;     /* Every node in declaration order. */
  size_t count;
  /* Topological evaluation order: dependencies first, otherwise source
     order; the pulumi block (the version gate of program.md §10.5) and
     what it needs come first.  Nodes of a cycle (an error) appear once. */
  bnd_node **order;
  bnd_package *packages;
  size_t npackages;
  bool has_errors;      /* Binding reported errors for this program. */
};

/* Returns the dump name of a node kind. */
const char *bnd_node_kind_name(bnd_node_kind k);
/* Returns the source spelling of an option. */
const char *bnd_option_name(bnd_option o);

#endif
