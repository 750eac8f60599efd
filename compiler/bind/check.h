/* check: typing of every expression form (types.md §8–§11, functions.md).
 *
 * check_expr binds one AST expression in a scope chain (bind.h) and returns
 * its bound, typed tree (bound.h): names resolve to top-level nodes or to
 * scoped variables, every node gets a type, and the diagnostics of
 * types.md §16 and program.md §14.3 go to the context's list.  An erroneous
 * expression is marked `error` with type dynamic; expressions built on it do
 * not report again, so one mistake gives one diagnostic.
 *
 * try and can never reject a program (functions.md §6): inside their
 * arguments, at any depth, a failure the checker proves (diag_fail: a
 * conversion, traversal, iteration or builtin argument that cannot succeed)
 * is a warning, and the smallest expression it concerns becomes a FAIL that
 * fails at run time with the same message, so that `can` is false and `try`
 * moves on.  Other errors (names, arity, syntax of special forms) stay
 * errors everywhere. */
#ifndef PCLC_CHECK_H
#define PCLC_CHECK_H

#include <stdbool.h>

#include "front/ast.h"
#include "bind/bind.h"
#include "bind/bound.h"
#include "types/ty.h"

/* Binds and types the expression e in scope s (NULL for the root scope).
 * The result lives in c->arena. */
bnd_expr *check_expr(bind_ctx *c, const bind_scope *s, const ast_node *e);

/* Checks that the bound expression e converts to InputType(to) and reports
 * the §16 failure at e's span (diag_fail) when it does not.  Erroneous
 * expressions are accepted silently.  Returns false if it reported. */
bool check_input(bind_ctx *c, const bnd_expr *e, const ty *to);


/* Reports "cannot convert X to int: not an integer" (diag_fail) when e is a
 * non-integral number literal and `to` accepts ints but not numbers
 * (DECISIONS.md D3).  Returns false if it reported. */
bool check_int_literal(bind_ctx *c, const bnd_expr *e, const ty *to);

/* Records in e (and in the constructors nested in it) the schema type it
 * flows into (bnd_expr.target), given the expected type `to` of its
 * location: input shapes and optional layers are removed, and a union of
 * object types is narrowed to the one whose constant (discriminator)
 * properties the object constructor matches (program.md §3.2,
 * resolveInputUnions). */
void check_annotate(bind_ctx *c, bnd_expr *e, const ty *to);

/* Parses the text of a type label (a config or output type such as
 * "list(string)") as a type expression and returns the type; problems are
 * reported at the label's span and give dynamic. */
const ty *check_type_label(bind_ctx *c, const ast_label *label);

/* Returns true if e is a quoted string without interpolation (not
 * parenthesised) and sets *text and *len to its bytes, which belong to the
 * AST; returns false and sets nothing otherwise. */
bool check_literal_string(const ast_node *e, const char **text, size_t *len);

/* Returns the text of an object key that names its property literally (a
 * bare name, true, false, null, or a quoted string without interpolation)
 * and sets *len to its length; returns NULL for any other key. */
const char *check_key_name(const ast_node *k, size_t *len);

/* Returns true if e is the literal null (possibly parenthesised). */
bool check_is_null_literal(const ast_node *e);

/* Returns the rule of types.md §10 that types the operator op. */
ty_operator check_unary_operator(ast_unary_op op);
ty_operator check_binary_operator(ast_binary_op op);

/* Returns true when a type operation ran out of stack since the last call
 * (ty_take_too_deep), after reporting "expression nested too deeply" at
 * span (once per compilation, with the checker's own guard). */
bool check_too_deep(bind_ctx *c, pcl_span span);

#endif
