/* ty: the PCL type system (../shared/spec/types.md, with DECISIONS.md D3/D4).
 *
 * Types are immutable and interned (hash-consed) in a ty_ctx: two types that
 * are equal in the sense of types.md §1.2 are the same pointer, so compare
 * them with `==`.  Every constructor applies the canonical construction rules
 * of §1.1 (union flattening, sorting and deduplication, a one-element union is
 * its element, optional(T) = union(T, none), output/promise collapsing).
 * Types, their strings and property arrays live in the arena the context
 * borrows; names are interned in the compilation's intern table, so property
 * names compare by pointer with AST names.
 *
 * Two deliberate representation choices:
 *  - Schema object types may be *named* (ty_object_declare/ty_object_define):
 *    a named object is identified by its token, which makes recursive schema
 *    types possible.  Anonymous objects (constructors, type expressions) are
 *    structural.  A named and an anonymous object with the same properties
 *    are distinct types, but they convert safely into each other (the
 *    reference compares objects structurally, so it would call them equal;
 *    unification and assignability of same-shaped named objects can differ
 *    from the reference for that reason).  InputType and ResolveOutputs of a
 *    named object that needs rewriting are named objects too, with the
 *    token suffixed by `$input` and `$resolved` (`$nopromise` for
 *    ResolvePromises); resolving the input form of X gives X back.
 *  - Enums are identified by token only (§1.2), so the first definition of a
 *    token wins.
 *
 * Besides construction the module answers every type-level question of the
 * checker: assignability (§3), conversion kinds with reasons (§4),
 * unification (§5), traversal (§6), iteration (§7), literal typing (§8 + D3),
 * operator typing (§10 + D3), lifting (§9, §11) and InputType (§12), and
 * formats the diagnostics of §16.  It knows nothing of the syntax: type
 * expressions (§13) are read by the binder (bind/type_expr.h). */
#ifndef PCLC_TY_H
#define PCLC_TY_H

#include <gmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/intern.h"
#include "base/ptrmap.h"
#include "base/src.h"
#include "buf.h"
#include "types/ty_kinds.h"

typedef enum ty_kind {
#define X(name, text) TY_##name,
  TY_KINDS(X)
#undef X
} ty_kind;

/* Conversion kinds, ordered: min combines "all must convert", max combines
 * "some alternative converts" (§2). */
typedef enum ty_conv {
  TY_CONV_NONE = 0,   /* No conversion exists. */
  TY_CONV_UNSAFE = 1, /* May fail or lose information at run time. */
  TY_CONV_SAFE = 2,   /* Never fails. */
} ty_conv;

typedef struct ty ty;

/* One property of an object type. */
typedef struct ty_prop {
  const char *name; /* Interned property name. */
  const ty *type;   /* Property type; optional properties are union(T, none). */
} ty_prop;

struct ty {
  ty_kind kind;    /* Selects the member of the union below. */
  uint32_t hash;   /* Hash of the identity key (internal). */
  /* Canonical String form, kept when the type is made if it is short; NULL
     for a longer one (a type nested deep), which ty_to_string computes and
     keeps on first use (internal: use ty_to_string). */
  const char *str;
  struct ty_ctx *ctx; /* The context that made the type (internal). */
  const unsigned char *key; /* Identity key bytes (internal). */
  size_t key_len;           /* Length of key (internal). */
  unsigned flags;           /* TYF_* facts cached at construction (internal). */
  const ty *origin;         /* Named object this one is the InputType of (ty_object_set_origin). */
  union {
    /* TY_LIST, TY_MAP, TY_SET, TY_OUTPUT, TY_PROMISE: the element type. */
    const ty *elem;
    /* TY_TUPLE (in order) and TY_UNION (sorted by String form, no duplicates, no
       nested unions, at least two elements). */
    struct {
      const ty *const *items; /* The element types. */
      size_t count;           /* Number of elements. */
    } elems;
    /* TY_OBJECT: properties sorted by name (strcmp).  token is NULL for an
       anonymous object and the schema token for a named one; defined is false
       for a named object declared but not yet defined; strict is false for
       lenient schema objects (unknown properties are warnings). */
    struct {
      const ty_prop *props; /* The properties. */
      size_t count;         /* Number of properties. */
      const char *token;    /* Interned schema token, or NULL. */
      bool defined;         /* Properties are known. */
      bool strict;          /* Unknown properties are errors, not warnings. */
    } object;
    /* TY_OPAQUE: the interned name (`Asset`, `Archive`, a token, ...). */
    const char *name;
    /* TY_CONST: base is bool, int, number, string or none and selects the
       field that holds the value (null has no value field). */
    struct {
      const ty *base;   /* The underlying primitive type. */
      bool boolean;     /* TY_BOOL base. */
      mpz_t integer;    /* TY_INT base: the exact value. */
      double number;    /* TY_NUMBER base: an IEEE double (D3). */
      const char *text; /* TY_STRING base: the bytes (NUL-terminated). */
      size_t len;       /* TY_STRING base: byte length of text. */
    } cnst;
    /* TY_ENUM: token (identity), underlying primitive type and the member
       values as const types, in schema order. */
    struct {
      const char *token;       /* Interned schema token. */
      const ty *base;          /* Underlying primitive type. */
      const ty *const *values; /* Member values (const types). */
      size_t count;            /* Number of members. */
    } enm;
  };
};

/* The intern table (internal). */
typedef struct ty_table {
  const ty **slots;  /* Open-addressing table of interned types. */
  size_t cap, count; /* Slots (a power of two) and types stored. */
} ty_table;

/* The type context of one compilation.  Every field is internal: use the
 * functions below. */
typedef struct ty_ctx {
  arena *arena;         /* Where types live (borrowed). */
  intern_table *names;  /* Interns property names and tokens (borrowed). */
  ty_table table;       /* Every interned type (owned index). */
  const ty **mpz_owners; /* Const-int types whose mpz must be cleared (owned). */
  size_t nmpz, capmpz;   /* Entries used and allocated in mpz_owners. */
  const ty *prim[TY_NONE + 1]; /* bool, int, number, string, id, dynamic, none. */
  struct ty_pair *busy;        /* Pairs of types under comparison (recursion guard). */
  size_t nbusy, capbusy;       /* Entries used and allocated in busy. */
  bool too_deep;               /* An operation ran out of stack (ty_take_too_deep). */
  struct ty_memo *memo;        /* Cached conversion and unification results (owned). */
  size_t nmemo, capmemo;       /* Entries used and slots in memo. */
  /* The type of each number literal read so far, keyed by its text interned
     in names, one map for plain and one for negated literals (owned maps;
     the types are the context's). */
  ptrmap literals, negated_literals;
  pcl__buf key; /* The identity key of the type being made (owned scratch). */
} ty_ctx;

/* ------------------------------------------------------------ context */

/* Initialises c; types are allocated from a and names interned in names
 * (both borrowed, and both must outlive c). */
void ty_ctx_init(ty_ctx *c, arena *a, intern_table *names);
/* Frees what c owns (index tables, GMP integers); the arena keeps the rest. */
void ty_ctx_free(ty_ctx *c);
/* Returns true, and forgets it, when an operation of c ran out of stack
 * since the last call.  The operations recurse over the types they are
 * given, which nest as deep as the input; one that finds the stack low
 * (base/stack.h) stops and gives an answer that reports nothing (the types
 * convert, unify to the first one, print cut short).  Its caller, which
 * knows what it was checking, asks this and reports "expression nested too
 * deeply" there. */
bool ty_take_too_deep(ty_ctx *c);

/* ------------------------------------------------------- construction */
/* Every constructor returns the unique interned type, owned by the context;
 * array arguments are borrowed (copied when needed). */

/* Returns the primitive type bool / int / number / string / id. */
const ty *ty_bool(ty_ctx *c);
const ty *ty_int(ty_ctx *c);
const ty *ty_number(ty_ctx *c);
const ty *ty_string(ty_ctx *c);
const ty *ty_id(ty_ctx *c);
/* Returns dynamic (the unknown type, `any` in type expressions). */
const ty *ty_dynamic(ty_ctx *c);
/* Returns none, the type of null. */
const ty *ty_none(ty_ctx *c);
/* Returns the opaque type named name (`Asset`, `Archive`, a schema token). */
const ty *ty_opaque(ty_ctx *c, const char *name);
/* Returns list(elem), map(elem), set(elem). */
const ty *ty_list(ty_ctx *c, const ty *elem);
const ty *ty_map(ty_ctx *c, const ty *elem);
const ty *ty_set(ty_ctx *c, const ty *elem);
/* Returns output(elem) with every nested output and promise removed from elem. */
const ty *ty_output(ty_ctx *c, const ty *elem);
/* Returns promise(elem) with every nested promise removed from elem. */
const ty *ty_promise(ty_ctx *c, const ty *elem);
/* Returns tuple(elems[0], ..., elems[n-1]). */
const ty *ty_tuple(ty_ctx *c, size_t n, const ty *const *elems);
/* Returns the anonymous object with the n given properties; names are
 * interned by the context and a later duplicate name overwrites an earlier. */
const ty *ty_object(ty_ctx *c, size_t n, const ty_prop *props);
/* Returns the named object for token, declaring it (undefined, with the given
 * strictness) on first use; later calls return the same type. */
const ty *ty_object_declare(ty_ctx *c, const char *token, bool strict);
/* Gives a declared named object its properties (copied, sorted; duplicates
 * as in ty_object); the object must not be defined already. */
void ty_object_define(ty_ctx *c, const ty *obj, size_t n, const ty_prop *props);
/* Records that the named object input is the InputType of the named object
 * origin (both interned types), so that resolving the outputs of input
 * gives origin back; setting the same origin again is allowed, another one
 * is an internal error. */
void ty_object_set_origin(const ty *input, const ty *origin);
/* Returns the property type of name in object t, or NULL if absent. */
const ty *ty_object_get(const ty *t, const char *name);
/* Returns the property types of object t in order, in a new array of at
 * least one slot that the caller frees. */
const ty **ty_object_types(const ty *t);
/* Returns the canonical union of the n types (§1.1); n == 0 gives none. */
const ty *ty_union(ty_ctx *c, size_t n, const ty *const *elems);
/* Returns the canonical union of a and b. */
const ty *ty_union2(ty_ctx *c, const ty *a, const ty *b);
/* Returns optional(t) = union(t, none). */
const ty *ty_optional(ty_ctx *c, const ty *t);
/* Returns const(bool v). */
const ty *ty_const_bool(ty_ctx *c, bool v);
/* Returns const(none null), the type of the literal null. */
const ty *ty_const_null(ty_ctx *c);
/* Returns const(int v) for the exact integer v (borrowed). */
const ty *ty_const_int(ty_ctx *c, const mpz_t v);
/* Returns const(int v) for a machine integer. */
const ty *ty_const_int_si(ty_ctx *c, long v);
/* Returns const(number v); v must be finite. */
const ty *ty_const_number(ty_ctx *c, double v);
/* Returns const(string s) for the len bytes at s (copied). */
const ty *ty_const_string(ty_ctx *c, const char *s, size_t len);
/* The kind of a constant's value, the kind of its base type: a const type's
 * base is bool, int, number, string or none. */
typedef enum ty_value_kind {
  TY_V_BOOL,
  TY_V_INT,
  TY_V_NUMBER,
  TY_V_STRING,
  TY_V_NULL,
} ty_value_kind;
/* Returns the kind of the value of the const type k. */
ty_value_kind ty_value_kind_of(const ty *k);
/* Returns the enum for token with underlying primitive base and the n member
 * values (const types, borrowed array); if token is already an enum, returns
 * that one unchanged (enums are identified by token). */
const ty *ty_enum(ty_ctx *c, const char *token, const ty *base, size_t n,
                  const ty *const *values);

/* ------------------------------------------------------------ queries */

/* Returns true if t is a union that contains none (the optional test of §8,
 * with const(none) normalised to none as the spec recommends). */
bool ty_is_optional(const ty *t);
/* Returns t without its none (and const(none)) members; t itself if none. */
const ty *ty_strip_optional(ty_ctx *c, const ty *t);
/* Returns true if t contains an output (*outputs) or a promise (*promises)
 * anywhere inside; either pointer may be NULL. */
bool ty_contains_eventuals(const ty *t, bool *outputs, bool *promises);
/* Returns t with every output and promise removed at every level. */
const ty *ty_resolve_outputs(ty_ctx *c, const ty *t);
/* Returns t with every promise removed at every level (outputs kept). */
const ty *ty_resolve_promises(ty_ctx *c, const ty *t);
/* Returns the value type of t after stripping outer output/promise layers. */
const ty *ty_strip_eventual(const ty *t);
/* Returns the plain value type expected where t is expected: output and
 * promise layers, and the output, promise and none members of unions, are
 * removed, so `union(T, output(T))` and `optional(T)` give T; a union that
 * has only such members is returned unchanged. */
const ty *ty_value_target(ty_ctx *c, const ty *t);
/* Returns InputType(t) (§12): the type of values acceptable where t is
 * expected, allowing outputs at every level. */
const ty *ty_input(ty_ctx *c, const ty *t);
/* Returns lift(result, args) (§9): output(result) if some args[i] contains an
 * output, else promise(result) if some contains a promise, else result. */
const ty *ty_lift(ty_ctx *c, const ty *result, size_t n, const ty *const *args);
/* Returns the type of a call (§11 rule 4): ret, lifted over every argument
 * when some args[i] is not assignable to params[i] (the parameter type for
 * that argument position, varargs included). */
const ty *ty_lift_call(ty_ctx *c, const ty *ret, size_t n, const ty *const *params,
                       const ty *const *args);
/* Rewrites a config type as makeObjectPropertiesOptional does (program.md
 * §6): properties of a top-level object, or of the element object of a
 * list/map of objects, become optional. */
const ty *ty_config_optional_properties(ty_ctx *c, const ty *t);

/* ----------------------------------------- assignability and conversion */

/* Returns true if `to` is assignable from `from` (§3). */
bool ty_assignable(ty_ctx *c, const ty *to, const ty *from);
/* Returns the conversion kind to `to` from `from` (§4, not unifying). */
ty_conv ty_conversion(ty_ctx *c, const ty *to, const ty *from);
/* Like ty_conversion; when the result is none and the engine has a specific
 * reason (§16), *reason is set to it (arena string), else to NULL. */
ty_conv ty_conversion_why(ty_ctx *c, const ty *to, const ty *from, const char **reason);
/* Returns the conversion kind as computed during unification (§4.3). */
ty_conv ty_conversion_unifying(ty_ctx *c, const ty *to, const ty *from);
/* Returns the name of a conversion kind ("safe", "unsafe", "none"). */
const char *ty_conv_name(ty_conv k);
/* Returns the §16 message for a value of type `from` that cannot be
 * converted to `to`: the specific reason if any, else "cannot assign
 * expression of type S to location of type T: " (arena string). */
const char *ty_not_convertible_message(ty_ctx *c, const ty *to, const ty *from);
/* Reports ty_not_convertible_message at span as a run-time failure
 * (diag_fail: an error unless caught); returns it. */
diag *ty_report_not_convertible(ty_ctx *c, diag_list *d, pcl_span span, const ty *to,
                                const ty *from);
/* Checks that an expression of type `from` converts to InputType(to); reports
 * the §16 failure at span (diag_fail) and returns false if it does not. */
bool ty_check_input(ty_ctx *c, diag_list *d, pcl_span span, const ty *to, const ty *from);

/* Checks that an object-constructor key of type `key` converts to
 * InputType(string); otherwise reports "object keys must be strings: cannot
 * assign expression of type K to location of type string" (§9) at span as a
 * failure (diag_fail) and returns false. */
bool ty_check_object_key(ty_ctx *c, diag_list *d, pcl_span span, const ty *key);

/* -------------------------------------------------------- unification */

/* Returns unify(a, b) (§5.1) and stores its conversion kind in *kind
 * (kind may be NULL). */
const ty *ty_unify(ty_ctx *c, const ty *a, const ty *b, ty_conv *kind);
/* Computes UnifyTypes(types) (§5.2): the safe and the unsafe fold (either
 * output pointer may be NULL); no types gives none. */
void ty_unify_types(ty_ctx *c, size_t n, const ty *const *types, const ty **safe,
                    const ty **unsafe);
/* Returns the safe result of UnifyTypes(types), the one the checker uses. */
const ty *ty_unify_safe(ty_ctx *c, size_t n, const ty *const *types);

/* ------------------------------------------------ traversal, iteration */

typedef enum ty_traverser_kind {
  TY_TRAV_ATTR,   /* `.name`: key type string. */
  TY_TRAV_STRING, /* `["text"]`: a literal string key. */
  TY_TRAV_NUMBER, /* `[3]`, `.3`: a literal number key, given as written. */
  TY_TRAV_BOOL,   /* `[true]`: a literal bool key. */
  TY_TRAV_DYNAMIC /* `[e]`: a key known only by its type. */
} ty_traverser_kind;

/* One traversal step (§6). */
typedef struct ty_traverser {
  ty_traverser_kind kind; /* The form of the step. */
  const char *text;     /* ATTR: the name; STRING: the bytes; NUMBER: the literal text. */
  size_t len;           /* Byte length of text. */
  bool boolean;         /* BOOL: the value. */
  const ty *key_type;   /* DYNAMIC: the type of the key expression. */
} ty_traverser;

/* Returns the type of traversing a value of type recv with key (§6).
 * Diagnostics go to d at span (d may be NULL to discard them), the errors as
 * failures (diag_fail); *clean (may be NULL) is set to true when the step
 * produced no diagnostic at all. */
const ty *ty_traverse(ty_ctx *c, const ty *recv, const ty_traverser *key, diag_list *d,
                      pcl_span span, bool *clean);
/* Computes the key and value types of iterating over coll (§7).  Returns
 * false and reports "cannot iterate over a value of type T" at span (as a
 * warning if warn is true, else as a failure, diag_fail; d may be NULL) when
 * coll is not iterable; the types are then dynamic. */
bool ty_collection_types(ty_ctx *c, const ty *coll, const ty **key, const ty **value,
                         diag_list *d, pcl_span span, bool warn);
/* Wraps result in the output/promise layers around coll (§7,
 * wrapIterableResultType). */
const ty *ty_wrap_iterable(ty_ctx *c, const ty *coll, const ty *result);
/* Returns the item type of a splat over src (§9): the element of a list or
 * set, the safe unification of a tuple's elements, dynamic for dynamic, and
 * src itself for a non-collection (after stripping eventual and optional
 * layers). */
const ty *ty_splat_item(ty_ctx *c, const ty *src);

/* ------------------------------------------------- literals, operators */

/* Returns the type of a number literal written as text (§8 with D3):
 * const(int) for an integral value of any size (`42`, `1.0`, `1e3`, `1e40`),
 * else const(number) (the nearest double); negate folds a unary minus into
 * the literal.  Returns NULL if text is not an HCL number literal, if a
 * non-integral value overflows a double or underflows to 0 (`1e-400`), or
 * if an integral value would have more than about 100000 digits (decimal
 * exponent above 100000). */
const ty *ty_number_literal(ty_ctx *c, const char *text, bool negate);
/* The operators of §10 (with D3), by the rule that types them. */
typedef enum ty_operator {
  TY_OP_ARITHMETIC, /* `+ - * %`: int for two int-like operands, else number. */
  TY_OP_DIVISION,   /* `/`: real division, always number. */
  TY_OP_ORDER,      /* `< <= > >=`: bool, comparing ints or numbers. */
  TY_OP_EQUALITY,   /* `== !=`: bool, comparing anything. */
  TY_OP_LOGIC,      /* `&& ||`: bool, on bools. */
  TY_OP_NEGATION,   /* Unary `-`: int for an int-like operand, else number. */
  TY_OP_NOT,        /* Unary `!`: bool. */
} ty_operator;
/* Types an operation of op (one operand for TY_OP_NEGATION and TY_OP_NOT,
 * else two) on operands of the given types: returns the result type
 * (lifted over the operands) and stores in *param, when param is not NULL,
 * the type every operand must convert to (InputType already applied). */
const ty *ty_operation(ty_ctx *c, ty_operator op, size_t n, const ty *const *operands,
                       const ty **param);
/* Returns true if t is int-like for D3 arithmetic: int, const(int), or a
 * union of int-like types, after stripping output/promise layers. */
bool ty_is_int_like(const ty *t);

/* ------------------------------------------------------------ printing */

/* Returns the canonical String form (`union(int, string)`,
 * `object({a = string})`, `const(int 42)`); owned by the type (computed on
 * first use for a type too long to keep eagerly). */
const char *ty_to_string(const ty *t);
/* Orders a and b by their canonical String forms (strcmp's order), without
 * building whole the forms that types do not keep: prefixes of them are
 * compared, longer and longer, so the cost is about the length of their
 * common prefix. */
int ty_cmp_string(const ty *a, const ty *b);
/* The longest pretty form, in bytes, before it is cut. */
enum { TY_PRETTY_MAX = 8192 };
/* Returns the pretty form used in messages (§1.3): `int | string`,
 * `string?`, `{ a: string }`, `"foo"`; arena string.  A form longer than
 * TY_PRETTY_MAX bytes is cut there (at a character boundary) and ends with
 * `...`. */
const char *ty_pretty(ty_ctx *c, const ty *t);
/* Writes the canonical String form of t to out, without keeping it. */
void ty_print(FILE *out, const ty *t);
/* Writes the canonical String form of t to out, cut after max bytes (at a
 * character boundary) and ended with `...` when it is longer; the cost is
 * about max, however large t is. */
void ty_print_cut(FILE *out, const ty *t, size_t max);

#endif
