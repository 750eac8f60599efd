/* type_expr: reading type expressions (see type_expr.h).
 *
 * The reader recurses as type expressions nest, each function the rule of
 * §13 for one form; arguments are read in source order, so diagnostics
 * come out in that order. */
#include "bind/type_expr.h"

#include <stdlib.h>
#include <string.h>

#include "bind/check.h"
#include "base/stack.h"
#include "base/util.h"

/* Describes a node that is not a type, for "expected a type" errors. */
static const char *describe(const ast_node *e) {
  switch (e->kind) {
  case AST_NUMBER:
    return "a number literal";
  case AST_BOOL:
    return "a bool literal";
  case AST_NULL:
    return "null";
  case AST_TEMPLATE:
  case AST_TEMPLATE_LITERAL:
  case AST_TEMPLATE_IF:
  case AST_TEMPLATE_FOR:
    return "a string";
  case AST_GET_ATTR:
  case AST_INDEX:
  case AST_SPLAT:
  case AST_SPLAT_ITEM:
    return "a traversal";
  case AST_TUPLE:
    return "a tuple constructor";
  case AST_OBJECT:
  case AST_OBJECT_ITEM:
    return "an object constructor";
  case AST_FOR:
    return "a for expression";
  case AST_UNARY:
  case AST_BINARY:
    return "an operator expression";
  case AST_CONDITIONAL:
    return "a conditional expression";
  case AST_ATTRIBUTE:
  case AST_BLOCK:
  case AST_VARIABLE:
  case AST_CALL:
  case AST_PAREN:
    break;
  }
  return "an expression";
}

/* The property name of an object-type item key, or NULL (reported). */
static const char *item_name(const ast_node *key, diag_list *d, size_t *len) {
  const char *name = check_key_name(key, len);
  if (!name) {
    diag_error(d, key->span, "object type attribute names must be names or quoted strings");
  }
  return name;
}

/* Checks the arity of list/set/map(T); reports and returns false if wrong. */
static bool one_element_type(const ast_node *e, diag_list *d) {
  size_t n = e->call.args.count;
  if (n == 0) {
    diag_error(d, e->span, "missing required parameter 'elementType'");
    return false;
  }
  if (n > 1) {
    diag_error(d, e->call.args.items[1]->span, "too many arguments to call: expected 1, got %zu",
               n);
    return false;
  }
  return true;
}

static const ty *denoted(bind_ctx *c, const ast_node *e);

/* A type named by a bare name. */
static const ty *named_type(bind_ctx *c, const ast_node *e) {
  const char *n = e->variable.name;
  if (!strcmp(n, "string"))
    return ty_string(c->ty);
  if (!strcmp(n, "number"))
    return ty_number(c->ty);
  if (!strcmp(n, "int"))
    return ty_int(c->ty);
  if (!strcmp(n, "bool"))
    return ty_bool(c->ty);
  if (!strcmp(n, "any"))
    return ty_dynamic(c->ty);
  diag_error(c->diag, e->span, "undefined variable %s", n);
  return ty_dynamic(c->ty);
}

/* object({k = T...}): each property's name, then its type; a name that is
   not valid makes the whole type dynamic. */
static const ty *object_type(bind_ctx *c, const ast_node *obj) {
  const ast_list *items = &obj->object.items;
  ty_prop *props = xmalloc((items->count ? items->count : 1) * sizeof *props);
  bool ok = true;
  for (size_t i = 0; i < items->count; i++) {
    const ast_node *item = items->items[i];
    size_t len = 0;
    const char *name = item_name(item->item.key, c->diag, &len);
    props[i].type = denoted(c, item->item.value);
    if (!name) {
      ok = false;
    } else if (memchr(name, '\0', len)) {
      diag_error(c->diag, item->item.key->span, "object type attribute names must not contain NUL");
      ok = false;
    } else {
      props[i].name = intern_n(c->names, name, len);
    }
  }
  const ty *t = ok ? ty_object(c->ty, items->count, props) : ty_dynamic(c->ty);
  free(props);
  return t;
}

/* tuple([T...]): each element's type in order. */
static const ty *tuple_type(bind_ctx *c, const ast_node *tup) {
  const ast_list *items = &tup->tuple.items;
  const ty **elems = xmalloc((items->count ? items->count : 1) * sizeof *elems);
  for (size_t i = 0; i < items->count; i++)
    elems[i] = denoted(c, items->items[i]);
  const ty *t = ty_tuple(c->ty, items->count, elems);
  free(elems);
  return t;
}

/* A type function: list, set, map or optional of one type, object or
   tuple; the checks that need no argument's type first. */
static const ty *type_call(bind_ctx *c, const ast_node *e) {
  const char *f = e->call.name.text;
  const ast_list *args = &e->call.args;
  if (e->call.expand_final) {
    diag_error(c->diag, e->span, "argument expansion ('...') is not allowed in a type expression");
  } else if (!strcmp(f, "list") || !strcmp(f, "set") || !strcmp(f, "map")) {
    if (one_element_type(e, c->diag)) {
      const ty *elem = denoted(c, args->items[0]);
      return f[0] == 'l' ? ty_list(c->ty, elem)
             : f[0] == 's' ? ty_set(c->ty, elem)
                           : ty_map(c->ty, elem);
    }
  } else if (!strcmp(f, "optional")) {
    if (args->count == 1)
      return ty_optional(c->ty, denoted(c, args->items[0]));
    diag_error(c->diag, e->span, "optional() requires exactly one argument");
  } else if (!strcmp(f, "object")) {
    if (args->count == 1 && args->items[0]->kind == AST_OBJECT)
      return object_type(c, args->items[0]);
    diag_error(c->diag, args->count ? args->items[0]->span : e->span,
               "the argument to object() must be an object type");
  } else if (!strcmp(f, "tuple")) {
    if (args->count == 1 && args->items[0]->kind == AST_TUPLE)
      return tuple_type(c, args->items[0]);
    diag_error(c->diag, args->count ? args->items[0]->span : e->span,
               "the argument to tuple() must be an tuple type");
  } else {
    diag_error(c->diag, e->call.name.span, "unknown function '%s'", f);
  }
  return ty_dynamic(c->ty);
}

/* The type the type expression e denotes (parentheses do not matter). */
static const ty *denoted(bind_ctx *c, const ast_node *e) {
  while (e->kind == AST_PAREN)
    e = e->paren.inner;
  if (stack_too_deep(&c->too_deep, c->diag, e->span))
    return ty_dynamic(c->ty);
  switch (e->kind) {
  case AST_VARIABLE:
    return named_type(c, e);
  case AST_CALL:
    return type_call(c, e);
  case AST_ATTRIBUTE:
  case AST_BLOCK:
  case AST_NUMBER:
  case AST_BOOL:
  case AST_NULL:
  case AST_TEMPLATE:
  case AST_TEMPLATE_LITERAL:
  case AST_TEMPLATE_IF:
  case AST_TEMPLATE_FOR:
  case AST_GET_ATTR:
  case AST_INDEX:
  case AST_SPLAT:
  case AST_SPLAT_ITEM:
  case AST_TUPLE:
  case AST_OBJECT:
  case AST_OBJECT_ITEM:
  case AST_FOR:
  case AST_UNARY:
  case AST_BINARY:
  case AST_CONDITIONAL:
  case AST_PAREN:
    break;
  }
  diag_error(c->diag, e->span, "expected a type, found %s", describe(e));
  return ty_dynamic(c->ty);
}

const ty *type_expr_read(bind_ctx *c, const ast_node *e) { return denoted(c, e); }
