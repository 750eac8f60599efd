/* type_expr: the types that type expressions denote (types.md §13), as in
 * `convert(x, list(string))` and config and output type labels.
 *
 * A type expression is read from its AST: the names `string`, `bool`,
 * `number`, `int` and `any`, and the calls list/set/map/optional(T),
 * tuple([T...]) and object({k = T...}).  Anything else is reported at its
 * span and denotes dynamic. */
#ifndef PCLC_TYPE_EXPR_H
#define PCLC_TYPE_EXPR_H

#include "bind/bind.h"
#include "front/ast.h"
#include "types/ty.h"

/* Returns the type the type expression e denotes; problems are reported to
 * c's diagnostics and give dynamic where they are. */
const ty *type_expr_read(bind_ctx *c, const ast_node *e);

#endif
