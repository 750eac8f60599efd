/* check: typing of every expression form.
 *
 * Input: AST expressions and a scope chain; output: the typed bound tree of
 * bound.h.  The rules are those of types.md §8–§11 (with DECISIONS.md D3 for
 * literals and arithmetic) and the special forms of functions.md §6, §8, §9
 * (try, can, recover, invoke, call) plus convert(value, TYPE).  Ordinary
 * builtins are typed through funcs.h.
 *
 * Invariants: every returned expression has a type; an expression marked
 * `error` has type dynamic and its consumers report nothing more about it;
 * a failure reported with diag_fail inside a try or can argument (a
 * warning then) becomes a FAIL expression in the step that reported it
 * (poison), so no caught failure outlives check_expr; diagnostics use the
 * exact texts of types.md §16 and program.md §14. */
#include "bind/check.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/stack.h"
#include "base/util.h"
#include "bind/funcs.h"
#include "bind/type_expr.h"
#include "front/parse.h"
#include "schema/schema.h"
#include "nfc.h"
#include "suggest.h"

/* ------------------------------------------------------------ helpers */

/* Returns a fresh arena expression of kind k at span; the caller sets its
   type and fields. */
static bnd_expr *mk(bind_ctx *c, bnd_expr_kind k, pcl_span span) {
  bnd_expr *e = ARENA_NEW(c->arena, bnd_expr);
  e->kind = k;
  e->span = span;
  return e;
}

/* Ends the checking of e, which cannot be typed: after a failure caught
   inside try or can (diag_fail), e becomes a FAIL with that failure's
   message, which its consumers treat as a dynamic value; otherwise e is
   erroneous (an error was reported about it or about a part of it): type
   dynamic, no follow-on diagnostics.  A step that reports a failure calls
   this before it finishes, so that the failure becomes its expression's. */
static bnd_expr *poison(bind_ctx *c, bnd_expr *e) {
  e->type = ty_dynamic(c->ty);
  const diag *caught = diag_take_caught(c->diag);
  if (caught) {
    e->kind = BND_E_FAIL;
    e->fail.message = arena_strdup(c->arena, caught->message);
    e->fail.where = caught->span;
    return e;
  }
  e->error = true;
  return e;
}

/* Returns an arena array of n expression pointers (NULL for none). */
static bnd_expr **new_exprs(bind_ctx *c, size_t n) {
  return n ? ARENA_NEW_ARRAY(c->arena, bnd_expr *, n) : NULL;
}

/* Parentheses do not hide a null literal. */
bool check_is_null_literal(const ast_node *e) {
  while (e && e->kind == AST_PAREN) {
    e = e->paren.inner;
  }
  return e && e->kind == AST_NULL;
}

/* A quoted string without interpolation is a template of one literal
   piece. */
bool check_literal_string(const ast_node *e, const char **text, size_t *len) {
  if (e->kind != AST_TEMPLATE || e->template.parts.count != 1) {
    return false;
  }
  const ast_node *p = e->template.parts.items[0];
  if (p->kind != AST_TEMPLATE_LITERAL) {
    return false;
  }
  *text = p->literal.text;
  *len = p->literal.len;
  return true;
}

const char *check_key_name(const ast_node *k, size_t *len) {
  const char *text;
  if (k->kind == AST_VARIABLE) {
    *len = strlen(k->variable.name);
    return k->variable.name;
  }
  if (k->kind == AST_BOOL) {
    *len = k->boolean.value ? 4 : 5;
    return k->boolean.value ? "true" : "false";
  }
  if (k->kind == AST_NULL) {
    *len = 4;
    return "null";
  }
  return check_literal_string(k, &text, len) ? text : NULL;
}

/* Returns the types of the n expressions es, as an arena array. */
static const ty *const *types_of(bind_ctx *c, bnd_expr *const *es, size_t n) {
  const ty **ts = n ? ARENA_NEW_ARRAY(c->arena, const ty *, n) : NULL;
  for (size_t i = 0; i < n; i++) {
    ts[i] = es[i]->type;
  }
  return ts;
}

/* The test: `to` accepts an int safely but a number only unsafely. */
bool check_int_literal(bind_ctx *c, const bnd_expr *e, const ty *to) {
  if (e->error || e->kind != BND_E_NUMBER || e->number.integral) {
    return true;
  }
  if (ty_conversion(c->ty, to, ty_int(c->ty)) == TY_CONV_SAFE &&
      ty_conversion(c->ty, to, ty_number(c->ty)) == TY_CONV_UNSAFE) {
    diag_fail(c->diag, e->span, "cannot convert %s to int: not an integer", e->number.text);
    return false;
  }
  return true;
}

/* Unsafe conversions are accepted (they are checked at run time), except
   for a fractional literal that can only become an int. */
static bool check_assign(bind_ctx *c, const bnd_expr *e, const ty *to) {
  if (e->error) {
    return true;
  }
  ty_conv k = ty_conversion(c->ty, to, e->type);
  if (check_too_deep(c, e->span)) {
    return false;
  }
  if (k == TY_CONV_UNSAFE) {
    return check_int_literal(c, e, to);
  }
  if (k != TY_CONV_NONE) {
    return true;
  }
  ty_report_not_convertible(c->ty, c->diag, e->span, to, e->type);
  return false;
}

/* Every typed location accepts outputs of its type (types.md §12). */
bool check_input(bind_ctx *c, const bnd_expr *e, const ty *to) {
  return check_assign(c, e, ty_input(c->ty, to));
}

/* ----------------------------------------------------------- literals */

/* Returns the exact decimal value of the const(int) type t (sign included)
   as an arena string. */
static const char *int_digits(bind_ctx *c, const ty *t) {
  char *buf = arena_alloc(c->arena, mpz_sizeinbase(t->cnst.integer, 10) + 2);
  mpz_get_str(buf, 10, t->cnst.integer);
  return buf;
}

/* Binds a number literal (negated when negate is set). */
static bnd_expr *number_literal(bind_ctx *c, pcl_span span, const char *text, bool negate) {
  bnd_expr *e = mk(c, BND_E_NUMBER, span);
  e->number.text = negate ? arena_printf(c->arena, "-%s", text) : text;
  const ty *t = ty_number_literal(c->ty, text, negate);
  if (!t) {
    diag_error(c->diag, span, "number literal %s%s is out of range", negate ? "-" : "",
               text);
    return poison(c, e);
  }
  e->type = t;
  /* A literal of at most 15 plain digits is an integer below 2^53: its
     double is exact, and its decimal value is its text without leading
     zeros, so neither strtod nor GMP is needed. */
  size_t n = 0;
  uint64_t u = 0;
  while (n <= 15 && text[n] >= '0' && text[n] <= '9')
    u = u * 10 + (uint64_t)(text[n++] - '0');
  if (n > 0 && n <= 15 && text[n] == '\0') {
    double v = (double)u;
    e->number.value = negate ? -v : v;
    e->number.integral = true;
    const char *digits = text;
    while (digits[0] == '0' && digits[1] != '\0')
      digits++;
    if (negate && u != 0)
      e->number.digits = digits == text ? e->number.text : arena_printf(c->arena, "-%s", digits);
    else
      e->number.digits = digits;
    return e;
  }
  double v = strtod(text, NULL);
  e->number.value = negate ? -v : v;
  if (t->kind == TY_CONST && t->cnst.base->kind == TY_INT) {
    e->number.integral = true;
    e->number.digits = int_digits(c, t);
  }
  return e;
}

/* Returns a STRING expression for len bytes of text (type string, not a
   constant: types.md §8). */
static bnd_expr *string_literal(bind_ctx *c, pcl_span span, const char *text, size_t len) {
  bnd_expr *e = mk(c, BND_E_STRING, span);
  e->string.text = text;
  e->string.len = len;
  e->type = ty_string(c->ty);
  return e;
}

/* ------------------------------------------------------------- scopes */

static bind_scope var_scope(const bind_scope *parent, bnd_var *v) {
  bind_scope s = {0};
  s.parent = parent;
  s.var = v;
  return s;
}

/* Returns a new scoped variable. */
static bnd_var *new_var(bind_ctx *c, bnd_var_kind k, const char *name, pcl_span span,
                        const ty *t) {
  bnd_var *v = ARENA_NEW(c->arena, bnd_var);
  v->kind = k;
  v->name = name;
  v->span = span;
  v->type = t;
  return v;
}

/* Returns true if name is an input of the property scope s. */
static bool property_name(const bind_scope *s, const char *name, const ty **type) {
  if (s->props_type && s->props_type->kind == TY_OBJECT) {
    const ty *t = ty_object_get(s->props_type, name);
    if (t) {
      *type = t;
      return true;
    }
    return false;
  }
  if (s->props_attrs) {
    for (size_t i = 0; i < s->props_attrs->count; i++) {
      if (s->props_attrs->items[i].name == name) {
        *type = s->props_attrs->items[i].value ? s->props_attrs->items[i].value->type : NULL;
        return true;
      }
    }
  }
  return false;
}

/* Adds "did you mean" to g, the error about the undefined variable name,
   when a variable in scope or a node of the program is a small edit away;
   the note points at its declaration. */
static void suggest_variable(bind_ctx *c, diag *g, const bind_scope *s, const char *name) {
  if (!diag_last_shown(c->diag)) {
    return;
  }
  pcl__suggest sg;
  pcl__suggest_init(&sg, name, strlen(name));
  pcl_span at = g->span;
  for (const bind_scope *p = s; p; p = p->parent) {
    if (p->var) {
      pcl__suggest_offer(&sg, p->var->name, strlen(p->var->name));
      if (pcl__suggest_best(&sg, NULL) == p->var->name) {
        at = p->var->span;
      }
    }
  }
  const bnd_node *node = bind_suggest_node(c, &sg);
  if (node) {
    at = node->name_span;
  }
  size_t len;
  const char *best = pcl__suggest_best(&sg, &len);
  if (best) {
    diag_note_suggestion(g, at, best, len);
  }
}

/* Resolves a bare name: scoped variables and property paths from the
   innermost scope outwards, then the root scope (definitions, then
   outputs).  A node whose type is not known yet is part of a cycle, which
   was reported already: the reference is erroneous without a message. */
static bnd_expr *variable(bind_ctx *c, const bind_scope *s, const ast_node *n) {
  const char *name = n->variable.name;
  for (const bind_scope *p = s; p; p = p->parent) {
    if (p->var && p->var->name == name) {
      bnd_expr *e = mk(c, BND_E_VAR_REF, n->span);
      e->var_ref.var = p->var;
      e->type = p->var->type;
      return e;
    }
    const ty *pt = NULL;
    if (p->properties && property_name(p, name, &pt)) {
      bnd_expr *e = mk(c, BND_E_PROPERTY, n->span);
      e->property.path = name;
      e->property.prop_type = pt ? pt : ty_dynamic(c->ty);
      e->type = ty_opaque(c->ty, "Property");
      return e;
    }
  }
  bnd_node *node = bind_lookup(c, name);
  bnd_expr *e = mk(c, BND_E_NODE_REF, n->span);
  if (!node) {
    suggest_variable(c, diag_error(c->diag, n->span, "undefined variable %s", name), s, name);
    return poison(c, e);
  }
  e->node_ref.node = node;
  if (!node->type) {
    /* The node is part of a cycle (already reported): no type yet. */
    return poison(c, e);
  }
  e->type = node->type;
  return e;
}

/* ------------------------------------------------------ the checker

   Each expression form is checked by a function that reads like its rule
   in types.md: the children first, in the order the rules read them (so
   diagnostics come out in that order), then the form's own typing.  The
   recursion is as deep as the expression, which may be as deep as the
   input (10,000 nested brackets, chains of 100,000 operators): expr asks
   the stack guard (base/stack.h) before it enters a compound expression,
   and checks after it whether a type operation ran out of stack. */

static bnd_expr *expr(bind_ctx *c, const bind_scope *s, const ast_node *n);

/* Returns a new scope in the arena: parent extended with v. */
static const bind_scope *scope_with(bind_ctx *c, const bind_scope *parent, bnd_var *v) {
  bind_scope *sc = ARENA_NEW(c->arena, bind_scope);
  *sc = var_scope(parent, v);
  return sc;
}

/* Resolves the anonymous splat item to the innermost splat's variable. */
static bnd_expr *splat_item(bind_ctx *c, const bind_scope *s, const ast_node *n) {
  for (const bind_scope *p = s; p; p = p->parent) {
    if (p->var && p->var->kind == BND_VAR_SPLAT_ITEM) {
      bnd_expr *e = mk(c, BND_E_VAR_REF, n->span);
      e->var_ref.var = p->var;
      e->type = p->var->type;
      return e;
    }
  }
  ice("splat item outside a splat");
}

/* Checks the leaf n if it is one (names, literals, "${e}" and literal-only
   templates are resolved here), else returns NULL and sets *n to the
   compound expression to check (parentheses and "${e}" wrappers removed). */
static bnd_expr *leaf(bind_ctx *c, const bind_scope *s, const ast_node **np) {
  for (;;) {
    const ast_node *n = *np;
    switch (n->kind) {
    case AST_NUMBER:
      return number_literal(c, n->span, n->number.text, false);
    case AST_BOOL: {
      bnd_expr *e = mk(c, BND_E_BOOL, n->span);
      e->boolean = n->boolean.value;
      e->type = ty_const_bool(c->ty, n->boolean.value);
      return e;
    }
    case AST_NULL: {
      bnd_expr *e = mk(c, BND_E_NULL, n->span);
      e->type = ty_const_null(c->ty);
      return e;
    }
    case AST_VARIABLE:
      return variable(c, s, n);
    case AST_SPLAT_ITEM:
      return splat_item(c, s, n);
    case AST_TEMPLATE_LITERAL:
      return string_literal(c, n->span, n->literal.text, n->literal.len);
    case AST_PAREN:
      *np = n->paren.inner;
      continue;
    case AST_UNARY:
      if (n->unary.op == AST_OP_NEG && n->unary.operand->kind == AST_NUMBER) {
        return number_literal(c, n->span, n->unary.operand->number.text, true);
      }
      return NULL;
    case AST_TEMPLATE: {
      const ast_list *parts = &n->template.parts;
      if (parts->count != 1) {
        return NULL;
      }
      const ast_node *p = parts->items[0];
      if (p->kind == AST_TEMPLATE_LITERAL) {
        return string_literal(c, n->span, p->literal.text, p->literal.len);
      }
      if (p->kind == AST_TEMPLATE_IF || p->kind == AST_TEMPLATE_FOR) {
        return NULL;
      }
      /* "${e}" is e itself (types.md §8). */
      *np = p;
      continue;
    }
    case AST_TEMPLATE_IF:
    case AST_TEMPLATE_FOR:
    case AST_GET_ATTR:
    case AST_INDEX:
    case AST_SPLAT:
    case AST_CALL:
    case AST_TUPLE:
    case AST_OBJECT:
    case AST_FOR:
    case AST_BINARY:
    case AST_CONDITIONAL:
      return NULL;
    case AST_ATTRIBUTE:
    case AST_BLOCK:
    case AST_OBJECT_ITEM:
      break;
    }
    ice("check_expr on a %s node", ast_kind_name(n->kind));
  }
}

/* ---------------------------------------------------------- templates */

/* A template of several parts (one literal or "${e}" are leaves): the parts
   in order, then a TEMPLATE of type lift(string, parts). */
static bnd_expr *template(bind_ctx *c, const bind_scope *s, const ast_node *n) {
  const ast_list *parts = &n->template.parts;
  bnd_expr *e = mk(c, BND_E_TEMPLATE, n->span);
  e->tmpl.count = parts->count;
  e->tmpl.parts = new_exprs(c, parts->count);
  for (size_t i = 0; i < parts->count; i++) {
    e->tmpl.parts[i] = expr(c, s, parts->items[i]);
    if (e->tmpl.parts[i]->error) {
      e->error = true;
    }
  }
  e->type = ty_lift(c->ty, ty_string(c->ty), e->tmpl.count, types_of(c, e->tmpl.parts, e->tmpl.count));
  return e;
}

/* %{if cond}then%{else}else_%{endif}: the condition must be a bool (checked
   after both branches, as the reference does). */
static bnd_expr *template_if(bind_ctx *c, const bind_scope *s, const ast_node *p) {
  bnd_expr *e = mk(c, BND_E_TEMPLATE_IF, p->span);
  e->tif.cond = expr(c, s, p->tif.cond);
  e->tif.then = expr(c, s, p->tif.then);
  e->tif.else_ = p->tif.else_ ? expr(c, s, p->tif.else_) : NULL;
  if (!check_input(c, e->tif.cond, ty_bool(c->ty))) {
    return poison(c, e);
  }
  const ty *ts[2] = {e->tif.then->type, e->tif.else_ ? e->tif.else_->type : ty_string(c->ty)};
  const ty *u = ty_unify_safe(c->ty, 2, ts);
  e->type = ty_lift(c->ty, u, 1, &e->tif.cond->type);
  if (e->tif.cond->error || e->tif.then->error || (e->tif.else_ && e->tif.else_->error)) {
    e->error = true;
  }
  return e;
}

/* %{for key, value in collection}body%{endfor}: the variables are typed by
   iterating the collection. */
static bnd_expr *template_for(bind_ctx *c, const bind_scope *s, const ast_node *p) {
  bnd_expr *e = mk(c, BND_E_TEMPLATE_FOR, p->span);
  e->tfor.collection = expr(c, s, p->tfor.collection);
  const ty *kt = ty_dynamic(c->ty), *vt = ty_dynamic(c->ty);
  bool bad = !e->tfor.collection->error &&
             !ty_collection_types(c->ty, e->tfor.collection->type, &kt, &vt, c->diag,
                                  p->tfor.collection->span, false);
  const bind_scope *inner = s;
  if (p->tfor.key.text) {
    e->tfor.key = new_var(c, BND_VAR_FOR_KEY, p->tfor.key.text, p->tfor.key.span, kt);
    inner = scope_with(c, inner, e->tfor.key);
  }
  e->tfor.value = new_var(c, BND_VAR_FOR_VALUE, p->tfor.value.text, p->tfor.value.span, vt);
  e->tfor.body = expr(c, scope_with(c, inner, e->tfor.value), p->tfor.body);
  if (bad) {
    return poison(c, e);
  }
  const ty *ts[2] = {e->tfor.collection->type, e->tfor.body->type};
  e->type = ty_lift(c->ty, ty_string(c->ty), 2, ts);
  e->error = e->tfor.collection->error || e->tfor.body->error;
  return e;
}

/* --------------------------------------------------------- traversals */

/* Counts errors so a step can tell whether it reported one. */
static size_t nerrors(bind_ctx *c) {
  return c->diag->errors;
}

/* Whether the step reported an error since there were `before` of them, or
   a failure caught inside try or can (not taken by poison yet). */
static bool failed_since(bind_ctx *c, size_t before) {
  return nerrors(c) != before || c->diag->caught != NULL;
}

/* Applies one static traversal step to the bound receiver recv. */
static bnd_expr *traverse_step(bind_ctx *c, bnd_expr *e, bnd_expr *recv,
                               const ty_traverser *key, pcl_span where) {
  if (recv->error) {
    return poison(c, e);
  }
  if (recv->kind == BND_E_BOOL || recv->kind == BND_E_NULL) {
    diag_error(c->diag, recv->span, "'%s' is a keyword and cannot be traversed",
               recv->kind == BND_E_NULL ? "null" : recv->boolean ? "true" : "false");
    return poison(c, e);
  }
  if (recv->kind == BND_E_NODE_REF) {
    bnd_node *node = recv->node_ref.node;
    if (node->kind == BND_PULUMI) {
      diag_error(c->diag, where, "pulumi blocks cannot be traversed");
      return poison(c, e);
    }
    if (node->kind == BND_HOOK) {
      e->type = ty_dynamic(c->ty);
      return e;
    }
  }
  size_t before = nerrors(c);
  const ty *t = ty_traverse(c->ty, recv->type, key, c->diag, where, NULL);
  if (failed_since(c, before)) {
    return poison(c, e);
  }
  e->type = t;
  return e;
}

/* Appends a property-path step to a property reference. */
static bnd_expr *property_step(bind_ctx *c, bnd_expr *e, bnd_expr *recv, const ty_traverser *key,
                               pcl_span where, const char *suffix) {
  e->kind = BND_E_PROPERTY;
  e->property.path = arena_printf(c->arena, "%s%s", recv->property.path, suffix);
  size_t before = nerrors(c);
  const ty *t = ty_traverse(c->ty, recv->property.prop_type, key, c->diag, where, NULL);
  if (failed_since(c, before)) {
    return poison(c, e);
  }
  e->property.prop_type = t;
  e->type = recv->type;
  return e;
}

/* Renders a string key as the runtime prints property paths: `["k"]`. */
static const char *quote_key(bind_ctx *c, const char *text, size_t len) {
  size_t cap = len * 2 + 5, n = 0;
  char *buf = arena_alloc(c->arena, cap);
  buf[n++] = '[';
  buf[n++] = '"';
  for (size_t i = 0; i < len; i++) {
    if (text[i] == '"' || text[i] == '\\') {
      buf[n++] = '\\';
    }
    buf[n++] = text[i];
  }
  buf[n++] = '"';
  buf[n++] = ']';
  buf[n] = '\0';
  return buf;
}

/* `object.name`. */
static bnd_expr *get_attr(bind_ctx *c, const bind_scope *s, const ast_node *n) {
  bnd_expr *e = mk(c, BND_E_GET_ATTR, n->span);
  bnd_expr *recv = e->get_attr.object = expr(c, s, n->get_attr.object);
  e->get_attr.name = n->get_attr.name.text;
  ty_traverser key = {.kind = TY_TRAV_ATTR,
                      .text = n->get_attr.name.text,
                      .len = strlen(n->get_attr.name.text)};
  if (recv->kind == BND_E_PROPERTY && !recv->error) {
    return property_step(c, e, recv, &key, n->get_attr.name.span,
                         arena_printf(c->arena, ".%s", key.text));
  }
  return traverse_step(c, e, recv, &key, n->get_attr.name.span);
}

/* `collection[key]` with a literal key (a number, also `.N`, a bool or a
   single-literal string): a static traversal step (§6). */
static bnd_expr *literal_index(bind_ctx *c, const bind_scope *s, bnd_expr *e,
                               const ast_node *kn, ty_traverser key) {
  bnd_expr *recv = e->index.collection;
  if (key.kind == TY_TRAV_NUMBER) {
    e->index.key = number_literal(c, kn->span, kn->number.text, false);
  } else if (key.kind == TY_TRAV_BOOL) {
    const ast_node *b = kn;
    e->index.key = leaf(c, s, &b);
  } else {
    e->index.key = string_literal(c, kn->span, key.text, key.len);
  }
  if (e->index.key->error) {
    return poison(c, e);
  }
  if (recv->kind == BND_E_PROPERTY && !recv->error) {
    const char *suffix = key.kind == TY_TRAV_STRING ? quote_key(c, key.text, key.len)
                         : key.kind == TY_TRAV_NUMBER
                             ? arena_printf(c->arena, "[%s]", key.text)
                             : arena_printf(c->arena, "[%s]", key.boolean ? "true" : "false");
    return property_step(c, e, recv, &key, kn->span, suffix);
  }
  return traverse_step(c, e, recv, &key, kn->span);
}

/* `collection[key]`: a literal key is a static traversal step (§6), any
   other key is typed by iteration (§9, `coll[k]`). */
static bnd_expr *index_expr(bind_ctx *c, const bind_scope *s, const ast_node *n) {
  bnd_expr *e = mk(c, BND_E_INDEX, n->span);
  bnd_expr *recv = e->index.collection = expr(c, s, n->index.collection);
  const ast_node *kn = n->index.key;
  const char *text;
  size_t len;
  if (kn->kind == AST_NUMBER) {
    return literal_index(c, s, e, kn,
                         (ty_traverser){.kind = TY_TRAV_NUMBER,
                                        .text = kn->number.text,
                                        .len = strlen(kn->number.text)});
  }
  if (kn->kind == AST_BOOL) {
    return literal_index(c, s, e, kn,
                         (ty_traverser){.kind = TY_TRAV_BOOL, .boolean = kn->boolean.value});
  }
  if (check_literal_string(kn, &text, &len)) {
    return literal_index(c, s, e, kn,
                         (ty_traverser){.kind = TY_TRAV_STRING, .text = text, .len = len});
  }
  /* A computed key (types.md §9, `coll[k]`). */
  bnd_expr *kx = e->index.key = expr(c, s, kn);
  if (recv->error || kx->error) {
    return poison(c, e);
  }
  if (recv->kind == BND_E_PROPERTY) {
    diag_error(c->diag, kn->span, "property paths must use literal keys");
    return poison(c, e);
  }
  const ty *kt, *vt;
  if (!ty_collection_types(c->ty, recv->type, &kt, &vt, c->diag, n->index.collection->span,
                           false) ||
      !check_input(c, kx, kt)) {
    return poison(c, e);
  }
  e->type = ty_lift(c->ty, ty_wrap_iterable(c->ty, recv->type, vt), 1, &kx->type);
  return e;
}

/* `source[*]each`: each is bound with the splat item in scope; the result
   is a list of each's type, wrapped in the source's eventual layers when
   the source is a collection (types.md §9 splat quirk). */
static bnd_expr *splat(bind_ctx *c, const bind_scope *s, const ast_node *n) {
  bnd_expr *e = mk(c, BND_E_SPLAT, n->span);
  bnd_expr *src = e->splat.source = expr(c, s, n->splat.source);
  const ty *item = src->error ? ty_dynamic(c->ty) : ty_splat_item(c->ty, src->type);
  e->splat.item = new_var(c, BND_VAR_SPLAT_ITEM, "", n->splat.item->span, item);
  e->splat.each = expr(c, scope_with(c, s, e->splat.item), n->splat.each);
  if (src->error || e->splat.each->error) {
    return poison(c, e);
  }
  /* A non-collection source is a one-element list of itself, without its
     eventual layers. */
  const ty *base = ty_strip_optional(c->ty, ty_strip_eventual(src->type));
  const ty *list = ty_list(c->ty, e->splat.each->type);
  switch (base->kind) {
  case TY_LIST:
  case TY_SET:
  case TY_TUPLE:
  case TY_DYNAMIC:
    e->type = ty_wrap_iterable(c->ty, src->type, list);
    break;
  case TY_BOOL:
  case TY_INT:
  case TY_NUMBER:
  case TY_STRING:
  case TY_ID:
  case TY_NONE:
  case TY_OPAQUE:
  case TY_MAP:
  case TY_OBJECT:
  case TY_UNION:
  case TY_OUTPUT:
  case TY_PROMISE:
  case TY_CONST:
  case TY_ENUM:
    e->type = list;
    break;
  }
  return e;
}

/* ------------------------------------------------------- constructors */

static bnd_expr *tuple(bind_ctx *c, const bind_scope *s, const ast_node *n) {
  size_t cnt = n->tuple.items.count;
  bnd_expr *e = mk(c, BND_E_TUPLE, n->span);
  e->tuple.count = cnt;
  e->tuple.items = new_exprs(c, cnt);
  for (size_t i = 0; i < cnt; i++) {
    e->tuple.items[i] = expr(c, s, n->tuple.items.items[i]);
  }
  e->type = ty_tuple(c->ty, cnt, types_of(c, e->tuple.items, cnt));
  return e;
}

/* Classifies an object key (syntax.md §5.4): returns the literal key text, or
 * NULL for a computed key (then *computed is the expression to bind). */
static const char *object_key(bind_ctx *c, const ast_node *k, const ast_node **computed,
                              size_t *len) {
  *computed = NULL;
  const char *name = check_key_name(k, len);
  if (name && k->kind == AST_VARIABLE) {
    /* A bare key is a string like a quoted one, so it is NFC too. */
    char *nfc = pcl__nfc(name, *len, xmalloc, len);
    if (nfc == NULL) {
      return name;
    }
    const char *key = arena_strndup(c->arena, nfc, *len);
    free(nfc);
    return key;
  }
  if (name) {
    return name;
  }
  if (k->kind == AST_NUMBER) {
    const ty *t = ty_number_literal(c->ty, k->number.text, false);
    if (t && t->kind == TY_CONST && t->cnst.base->kind == TY_INT) {
      const char *digits = int_digits(c, t);
      *len = strlen(digits);
      return digits;
    }
    *len = strlen(k->number.text);
    return k->number.text;
  }
  *computed = k->kind == AST_PAREN ? k->paren.inner : k;
  return NULL;
}

/* Binds the key of an object item (a literal key, or a computed one that
   must then be a string); returns false when a computed key is not. */
static bool object_item_key(bind_ctx *c, const bind_scope *s, const ast_node *key,
                            bnd_item *bi) {
  const ast_node *computed;
  size_t len = 0;
  const char *lit = object_key(c, key, &computed, &len);
  if (!computed) {
    bi->literal = intern_n(c->names, lit, len);
    bi->key = string_literal(c, key->span, bi->literal, len);
    return true;
  }
  /* A key that is not a bare name is an expression, a traversal such as
     `a.b` included: HCL's parser accepts it and the reference binder gives
     it the value it refers to (HCL's own evaluator would reject it as
     ambiguous, but PCL is not evaluated by it). */
  bi->key = expr(c, s, computed);
  return bi->key->error || ty_check_object_key(c->ty, c->diag, bi->key->span, bi->key->type);
}

/* An object constructor (types.md §9): each item's key (literal, or
   computed and then checked to be a string), then its value.  Literal keys
   give an object type, any computed key a map of the unified value types; a
   later duplicate literal key overwrites an earlier one in the type; the
   result is lifted over the key types only. */
static bnd_expr *object(bind_ctx *c, const bind_scope *s, const ast_node *n) {
  size_t cnt = n->object.items.count;
  bnd_expr *e = mk(c, BND_E_OBJECT, n->span);
  e->object.count = cnt;
  e->object.items = cnt ? ARENA_NEW_ARRAY(c->arena, bnd_item, cnt) : NULL;
  bool bad = false;
  for (size_t i = 0; i < cnt; i++) {
    const ast_node *it = n->object.items.items[i];
    bnd_item *bi = &e->object.items[i];
    bad = !object_item_key(c, s, it->item.key, bi) || bad;
    bi->value = expr(c, s, it->item.value);
  }
  if (bad) {
    return poison(c, e);
  }
  bool all_literal = true;
  const ty **keys = cnt ? ARENA_NEW_ARRAY(c->arena, const ty *, cnt) : NULL;
  const ty **vals = cnt ? ARENA_NEW_ARRAY(c->arena, const ty *, cnt) : NULL;
  ty_prop *props = cnt ? ARENA_NEW_ARRAY(c->arena, ty_prop, cnt) : NULL;
  for (size_t i = 0; i < cnt; i++) {
    const bnd_item *bi = &e->object.items[i];
    all_literal = all_literal && bi->literal;
    keys[i] = bi->key->type;
    vals[i] = bi->value->type;
    props[i].name = bi->literal;
    props[i].type = bi->value->type;
  }
  const ty *t = all_literal ? ty_object(c->ty, cnt, props)
                            : ty_map(c->ty, ty_unify_safe(c->ty, cnt, vals));
  e->type = ty_lift(c->ty, t, cnt, keys);
  return e;
}

/* A for expression: the variables are typed by iterating the collection
   (types.md §7); the result is a list or map, wrapped in the collection's
   eventual layers and lifted over the key and condition.  The key, value
   and condition are checked in that order, then the condition's and the
   key's types. */
static bnd_expr *for_expr(bind_ctx *c, const bind_scope *s, const ast_node *n) {
  bnd_expr *e = mk(c, BND_E_FOR, n->span);
  e->for_expr.is_object = n->for_expr.is_object;
  e->for_expr.grouping = n->for_expr.grouping;
  bnd_expr *coll = e->for_expr.collection = expr(c, s, n->for_expr.collection);
  const ty *kt = ty_dynamic(c->ty), *vt = ty_dynamic(c->ty);
  bool bad = coll->error || !ty_collection_types(c->ty, coll->type, &kt, &vt, c->diag,
                                                 n->for_expr.collection->span, false);
  const bind_scope *inner = s;
  if (n->for_expr.key_var.text) {
    e->for_expr.key_var =
        new_var(c, BND_VAR_FOR_KEY, n->for_expr.key_var.text, n->for_expr.key_var.span, kt);
    inner = scope_with(c, inner, e->for_expr.key_var);
    if (n->for_expr.key_var.text == n->for_expr.value_var.text) {
      diag_error(c->diag, n->for_expr.value_var.span, "name %s already defined",
                 n->for_expr.value_var.text);
      bad = true;
    }
  }
  e->for_expr.value_var = new_var(c, BND_VAR_FOR_VALUE, n->for_expr.value_var.text,
                                  n->for_expr.value_var.span, vt);
  inner = scope_with(c, inner, e->for_expr.value_var);
  e->for_expr.key = n->for_expr.key ? expr(c, inner, n->for_expr.key) : NULL;
  e->for_expr.value = expr(c, inner, n->for_expr.value);
  e->for_expr.cond = n->for_expr.cond ? expr(c, inner, n->for_expr.cond) : NULL;
  if (e->for_expr.cond && !check_input(c, e->for_expr.cond, ty_bool(c->ty))) {
    bad = true;
  }
  if (e->for_expr.key && !check_input(c, e->for_expr.key, ty_string(c->ty))) {
    bad = true;
  }
  if (bad) {
    return poison(c, e);
  }
  const ty *lifts[2];
  size_t nl = 0;
  const ty *r;
  if (e->for_expr.is_object) {
    const ty *v = e->for_expr.value->type;
    r = ty_map(c->ty, e->for_expr.grouping ? ty_list(c->ty, v) : v);
    if (e->for_expr.key) {
      lifts[nl++] = e->for_expr.key->type;
    }
  } else {
    r = ty_list(c->ty, e->for_expr.value->type);
  }
  if (e->for_expr.cond) {
    lifts[nl++] = e->for_expr.cond->type;
  }
  e->type = ty_lift(c->ty, ty_wrap_iterable(c->ty, coll->type, r), nl, lifts);
  return e;
}

/* ---------------------------------------------------------- operators */

ty_operator check_unary_operator(ast_unary_op op) {
  switch (op) {
  case AST_OP_NEG:
    return TY_OP_NEGATION;
  case AST_OP_NOT:
    return TY_OP_NOT;
  }
  ice("bad unary operator %d", (int)op);
}

ty_operator check_binary_operator(ast_binary_op op) {
  switch (op) {
  case AST_OP_ADD:
  case AST_OP_SUB:
  case AST_OP_MUL:
  case AST_OP_MOD:
    return TY_OP_ARITHMETIC;
  case AST_OP_DIV:
    return TY_OP_DIVISION;
  case AST_OP_LT:
  case AST_OP_LE:
  case AST_OP_GT:
  case AST_OP_GE:
    return TY_OP_ORDER;
  case AST_OP_EQ:
  case AST_OP_NE:
    return TY_OP_EQUALITY;
  case AST_OP_AND:
  case AST_OP_OR:
    return TY_OP_LOGIC;
  }
  ice("bad binary operator %d", (int)op);
}

/* A unary operation (a negated number literal is a leaf). */
static bnd_expr *unary(bind_ctx *c, const bind_scope *s, const ast_node *n) {
  bnd_expr *e = mk(c, BND_E_UNARY, n->span);
  e->unary.op = n->unary.op;
  bnd_expr *operand = e->unary.operand = expr(c, s, n->unary.operand);
  if (operand->error) {
    return poison(c, e);
  }
  const ty *param;
  const ty *r =
      ty_operation(c->ty, check_unary_operator(n->unary.op), 1, &operand->type, &param);
  if (!check_assign(c, operand, param)) {
    return poison(c, e);
  }
  e->type = r;
  return e;
}

/* A binary operation; ty_operation gives the result type and the
   (input-shaped) parameter type the operands must convert to. */
static bnd_expr *binary(bind_ctx *c, const bind_scope *s, const ast_node *n) {
  bnd_expr *e = mk(c, BND_E_BINARY, n->span);
  e->binary.op = n->binary.op;
  bnd_expr *lhs = e->binary.lhs = expr(c, s, n->binary.lhs);
  bnd_expr *rhs = e->binary.rhs = expr(c, s, n->binary.rhs);
  if (lhs->error || rhs->error) {
    return poison(c, e);
  }
  const ty *param;
  const ty *operands[2] = {lhs->type, rhs->type};
  const ty *r =
      ty_operation(c->ty, check_binary_operator(n->binary.op), 2, operands, &param);
  bool ok = check_assign(c, lhs, param);
  ok = check_assign(c, rhs, param) && ok;
  if (!ok) {
    return poison(c, e);
  }
  e->type = r;
  return e;
}

/* `cond ? then : else_`: the condition must be a bool, the result is the
   unified branch type lifted over the condition. */
static bnd_expr *conditional(bind_ctx *c, const bind_scope *s, const ast_node *n) {
  bnd_expr *e = mk(c, BND_E_CONDITIONAL, n->span);
  e->cond.cond = expr(c, s, n->cond.cond);
  e->cond.then = expr(c, s, n->cond.then);
  e->cond.else_ = expr(c, s, n->cond.else_);
  bool ok = check_input(c, e->cond.cond, ty_bool(c->ty));
  if (!ok || e->cond.cond->error || e->cond.then->error || e->cond.else_->error) {
    return poison(c, e);
  }
  const ty *ts[2] = {e->cond.then->type, e->cond.else_->type};
  const ty *u = ty_unify_safe(c->ty, 2, ts);
  /* The branch chosen is converted to the type both unify to, as the
     reference unifies the branch values at run time (types.md 10: c ? 1 :
     "a" is "1" when c holds). */
  check_annotate(c, e->cond.then, u);
  check_annotate(c, e->cond.else_, u);
  e->type = ty_lift(c->ty, u, 1, &e->cond.cond->type);
  return e;
}

/* -------------------------------------------------------------- calls */

/* Returns true if some argument of the call e is erroneous. */
static bool any_error(const bnd_expr *e) {
  for (size_t i = 0; i < e->call.nargs; i++) {
    if (e->call.args[i]->error) {
      return true;
    }
  }
  return false;
}

/* The end of a call's span, for "missing argument" style diagnostics. */
static pcl_span call_span(const ast_node *n) {
  return n->span;
}

/* Binds try(e...) (functions.md §6): the unified argument type, as an
   output when an argument is eventual, output(dynamic) when one is dynamic.
   An argument that always fails (a FAIL) yields no value and so takes no
   part; when all do, the try fails at run time and its type is dynamic. */
static bnd_expr *finish_try(bind_ctx *c, const ast_node *n, bnd_expr *e) {
  if (e->call.nargs == 0) {
    diag_error(c->diag, call_span(n), "'try' expects at least one argument");
    return poison(c, e);
  }
  if (any_error(e)) {
    return poison(c, e);
  }
  const ty **ts = ARENA_NEW_ARRAY(c->arena, const ty *, e->call.nargs);
  size_t nts = 0;
  for (size_t i = 0; i < e->call.nargs; i++) {
    if (e->call.args[i]->kind != BND_E_FAIL) {
      ts[nts++] = e->call.args[i]->type;
    }
  }
  if (nts == 0) {
    e->type = ty_dynamic(c->ty);
    return e;
  }
  const ty *u = ty_unify_safe(c->ty, nts, ts);
  bool eventual = false, dyn = false;
  for (size_t i = 0; i < nts; i++) {
    if (ty_contains_eventuals(ts[i], NULL, NULL)) {
      eventual = true;
    }
    if (ts[i]->kind == TY_DYNAMIC) {
      dyn = true;
    }
  }
  if (dyn) {
    e->type = ty_output(c->ty, ty_dynamic(c->ty));
  } else if (eventual) {
    e->type = ty_output(c->ty, u);
  } else {
    e->type = u;
  }
  return e;
}

/* Returns true if t is an output or a union with an output member. */
static bool is_output_like(const ty *t) {
  if (t->kind == TY_OUTPUT) {
    return true;
  }
  if (t->kind == TY_UNION) {
    for (size_t i = 0; i < t->elems.count; i++) {
      if (t->elems.items[i]->kind == TY_OUTPUT) {
        return true;
      }
    }
  }
  return false;
}

/* Binds can(e): bool, or output(bool) for an output-like or dynamic e; a
   plain false for an e that always fails. */
static bnd_expr *finish_can(bind_ctx *c, const ast_node *n, bnd_expr *e) {
  if (e->call.nargs != 1) {
    diag_error(c->diag, call_span(n), "'can' expects exactly one argument");
    return poison(c, e);
  }
  if (any_error(e)) {
    return poison(c, e);
  }
  const ty *t = e->call.args[0]->type;
  bool fails = e->call.args[0]->kind == BND_E_FAIL;
  e->type = !fails && (is_output_like(t) || t->kind == TY_DYNAMIC)
                ? ty_output(c->ty, ty_bool(c->ty))
                : ty_bool(c->ty);
  return e;
}

/* Binds recover(value, recovery): value must be an output (or, inside try
   or can, an expression that always fails, an error recover passes on);
   recovery sees the variable `error`; the result is the output of the
   unified types. */
static bnd_expr *finish_recover(bind_ctx *c, const ast_node *n, bnd_expr *e) {
  if (n->call.args.count != 2) {
    diag_error(c->diag, call_span(n), "'recover' expects exactly two arguments");
    return poison(c, e);
  }
  if (any_error(e)) {
    return poison(c, e);
  }
  if (e->call.args[0]->type->kind != TY_OUTPUT && e->call.args[0]->kind != BND_E_FAIL) {
    diag_error(c->diag, e->call.args[0]->span, "the first argument to 'recover' must be an output");
    return poison(c, e);
  }
  const ty *ts[2] = {ty_resolve_outputs(c->ty, e->call.args[0]->type),
                     ty_resolve_outputs(c->ty, e->call.args[1]->type)};
  e->type = ty_output(c->ty, ty_unify_safe(c->ty, 2, ts));
  return e;
}

/* The InvokeOptions object type of functions.md §8. */
static const ty *invoke_options_type(bind_ctx *c) {
  ty_ctx *t = c->ty;
  ty_prop props[5] = {
      {intern(c->names, "provider"), ty_optional(t, ty_dynamic(t))},
      {intern(c->names, "parent"), ty_optional(t, ty_dynamic(t))},
      {intern(c->names, "version"), ty_optional(t, ty_string(t))},
      {intern(c->names, "pluginDownloadUrl"), ty_optional(t, ty_string(t))},
      {intern(c->names, "dependsOn"), ty_optional(t, ty_list(t, ty_dynamic(t)))},
  };
  return ty_object(t, 5, props);
}

/* Binds invoke(token, args[, options]) (functions.md §8): the token must
   be a literal; with a schema the arguments are checked against the
   function's inputs (positionally for multi-argument inputs) and the
   result is output(return); without one the call is untyped, with a
   warning. */
static bnd_expr *finish_invoke(bind_ctx *c, const ast_node *n, bnd_expr *e) {
  const char *token;
  size_t len;
  if (n->call.args.count == 0 || !check_literal_string(n->call.args.items[0], &token, &len)) {
    diag_error(c->diag, n->call.args.count ? n->call.args.items[0]->span : n->span,
               "invoke token must be a string literal");
    return poison(c, e);
  }
  e->call.token = intern_n(c->names, token, len);
  pcl_span tspan = n->call.args.items[0]->span;
  if (any_error(e)) {
    return poison(c, e);
  }
  schema_function *fn = NULL;
  schema_status st = SCHEMA_NO_PACKAGE;
  if (c->schemas) {
    st = schema_find_function(c->schemas, e->call.token, NULL, tspan, &fn);
  } else if (!strchr(e->call.token, ':')) {
    diag_error(c->diag, tspan,
               "malformed token '%s': expected 'pkg:module:member' or 'pkg:member'",
               e->call.token);
    st = SCHEMA_ERROR;
  }
  if (st == SCHEMA_ERROR) {
    return poison(c, e);
  }
  if (e->call.nargs < 2) {
    diag_error(c->diag, call_span(n), "missing second arg");
    return poison(c, e);
  }
  const ty *opts = ty_optional(c->ty, invoke_options_type(c));
  if (st == SCHEMA_NO_PACKAGE) {
    const char *pkg = c->schemas ? schema_token_package(c->schemas, e->call.token) : NULL;
    if (!pkg) {
      size_t plen = strcspn(e->call.token, ":");
      pkg = intern_n(c->names, e->call.token, plen);
    }
    diag_warning_once(c->diag, arena_printf(c->arena, "unknown package %s", pkg), tspan,
                      "unknown package '%s'", pkg);
    if (e->call.nargs > 3) {
      diag_error(c->diag, e->call.args[3]->span, "too many arguments to call: expected 3, got %zu",
                 e->call.nargs);
      return poison(c, e);
    }
    if (e->call.nargs == 3 && !check_input(c, e->call.args[2], opts)) {
      return poison(c, e);
    }
    e->type = ty_dynamic(c->ty);
    return e;
  }
  e->call.function = fn;
  /* Typed invoke: the output form (the language host prefers it) when the
     function has a return type, else the plain form. */
  /* The output form is what the language host binds with
     (PreferOutputVersionedInvokes); functions without a return type have
     only the plain form. */
  bool output_form = fn->has_return;
  const ty *args_t = schema_function_args_type(c->schemas, fn, output_form);
  const ty *ret = schema_function_return_type(c->schemas, fn);
  ret = output_form ? ty_output(c->ty, ret) : ty_promise(c->ty, ret);
  if (fn->nmulti_args > 0) {
    /* A single object argument is the (rejected) object form, unless the
       function has only one input. */
    if (e->call.nargs == 2 && n->call.args.items[1]->kind == AST_OBJECT &&
        !(fn->nmulti_args == 1)) {
      diag_error(c->diag, e->call.args[1]->span,
                 "function \"%s\" is declared with multi-argument inputs and must be invoked "
                 "with positional arguments, e.g. invoke(\"%s\", arg1, arg2), not a single "
                 "object argument",
                 e->call.token, e->call.token);
      return poison(c, e);
    }
    /* Positional arguments: one per multi-argument input, then options. */
    size_t npos = e->call.nargs - 1;
    e->call.positional = fn->multi_args;
    e->call.npositional = npos < fn->nmulti_args ? npos : fn->nmulti_args;
    bool ok = true;
    for (size_t i = 0; i < npos; i++) {
      bnd_expr *a = e->call.args[1 + i];
      if (i < fn->nmulti_args) {
        const ty *pt = args_t->kind == TY_OBJECT
                           ? ty_object_get(args_t, intern(c->names, fn->multi_args[i]))
                           : NULL;
        if (pt) {
          ok = check_input(c, a, pt) && ok;
          check_annotate(c, a, pt);
        }
      } else if (i == fn->nmulti_args) {
        ok = check_input(c, a, opts) && ok;
      } else {
        diag_error(c->diag, a->span, "too many arguments to call: expected %zu, got %zu",
                   fn->nmulti_args + 2, e->call.nargs);
        ok = false;
      }
    }
    if (!ok) {
      return poison(c, e);
    }
    e->type = ret;
    return e;
  }
  if (e->call.nargs > 3) {
    diag_error(c->diag, e->call.args[3]->span, "too many arguments to call: expected 3, got %zu",
               e->call.nargs);
    return poison(c, e);
  }
  bool ok = check_input(c, e->call.args[1], args_t);
  if (e->call.nargs == 3) {
    ok = check_input(c, e->call.args[2], opts) && ok;
  }
  if (!ok) {
    return poison(c, e);
  }
  check_annotate(c, e->call.args[1], args_t);
  const ty *params[3] = {ty_string(c->ty), args_t, opts};
  e->type = ty_lift_call(c->ty, ret, e->call.nargs, params,
                         types_of(c, e->call.args, e->call.nargs));
  return e;
}

/* Binds call(self, method, args) (functions.md §9): self must be a typed
   resource that has the method; args are checked against its inputs. */
static bnd_expr *finish_method(bind_ctx *c, const ast_node *n, bnd_expr *e) {
  if (e->call.nargs < 3) {
    diag_error(c->diag, call_span(n),
               "call must be passed a receiver, method name, and arguments object");
    return poison(c, e);
  }
  size_t max = funcs_get(FUNCS_CALL)->max_args;
  if (e->call.nargs > max) {
    diag_error(c->diag, e->call.args[max]->span, "too many arguments to call: expected %zu, got %zu",
               max, e->call.nargs);
    return poison(c, e);
  }
  if (any_error(e)) {
    return poison(c, e);
  }
  bnd_expr *self = e->call.args[0];
  const char *method;
  size_t len;
  if (!check_literal_string(n->call.args.items[1], &method, &len)) {
    diag_error(c->diag, e->call.args[1]->span, "call's method name must be a string literal");
    return poison(c, e);
  }
  e->call.token = intern_n(c->names, method, len);
  /* The receiver: a single resource whose type a schema gave. */
  const ty *st = ty_strip_eventual(self->type);
  if (self->kind == BND_E_NODE_REF &&
      (self->node_ref.node->kind == BND_RESOURCE || self->node_ref.node->kind == BND_READ) &&
      !self->node_ref.node->resource.typed && self->node_ref.node->resource.range == BND_RANGE_NONE) {
    diag_error(c->diag, self->span, "call's receiver must be a typed resource");
    return poison(c, e);
  }
  if (st->kind != TY_OBJECT) {
    diag_error(c->diag, self->span, "call's receiver must be a single resource");
    return poison(c, e);
  }
  schema_resource *res = c->schemas ? schema_resource_of_type(c->schemas, st) : NULL;
  if (!res) {
    diag_error(c->diag, self->span, "call's receiver must be a typed resource");
    return poison(c, e);
  }
  schema_function *fn = schema_resource_method(c->schemas, res, e->call.token);
  if (!fn) {
    diag_error(c->diag, e->call.args[1]->span, "resource type \"%s\" has no method \"%s\"",
               res->token, e->call.token);
    return poison(c, e);
  }
  if (!fn->is_method) {
    diag_error(c->diag, e->call.args[1]->span, "method \"%s\" has no __self__ input",
               e->call.token);
    return poison(c, e);
  }
  e->call.function = fn;
  const ty *args_t = schema_function_args_type(c->schemas, fn, true);
  if (!check_input(c, e->call.args[2], args_t)) {
    return poison(c, e);
  }
  check_annotate(c, e->call.args[2], args_t);
  const ty *ret = schema_function_return_type(c->schemas, fn);
  e->type = fn->return_plain ? ret : ty_output(c->ty, ret);
  return e;
}

/* Binds convert(value, TYPE) once the value is bound: the second argument
   is a type expression; the value must convert to that type, which is the
   result (lifted). */
static bnd_expr *finish_convert(bind_ctx *c, const ast_node *n, bnd_expr *e) {
  size_t cnt = n->call.args.count;
  const funcs_builtin *b = funcs_get(FUNCS_CONVERT);
  if (cnt < b->min_args) {
    diag_error(c->diag, call_span(n), "missing required parameter '%s'", b->params[cnt]);
    return poison(c, e);
  }
  /* The second argument is a type whatever the count, so that a call with
     too many arguments is not also told its type is an undefined variable. */
  bnd_expr *te = mk(c, BND_E_TYPE, n->call.args.items[1]->span);
  size_t before = nerrors(c);
  te->type_expr.denoted = type_expr_read(c, n->call.args.items[1]);
  te->type = ty_dynamic(c->ty);
  if (nerrors(c) != before) {
    te->error = true;
  }
  e->call.args[1] = te;
  if (cnt > b->max_args) {
    diag_error(c->diag, e->call.args[b->max_args]->span,
               "too many arguments to call: expected %zu, got %zu", b->max_args, cnt);
    return poison(c, e);
  }
  if (any_error(e)) {
    return poison(c, e);
  }
  const ty *to = te->type_expr.denoted;
  if (!check_input(c, e->call.args[0], to)) {
    return poison(c, e);
  }
  e->type = ty_lift_call(c->ty, to, 1, &to, &e->call.args[0]->type);
  return e;
}

/* Binds a call of an ordinary or generic builtin through funcs.h. */
static bnd_expr *finish_builtin(bind_ctx *c, const ast_node *n, bnd_expr *e) {
  const funcs_builtin *fn =
      e->call.builtin < PCL__B_COUNT ? funcs_get((funcs_id)e->call.builtin) : NULL;
  if (!fn) {
    diag *g = diag_error(c->diag, n->call.name.span, "unknown function '%s'", e->call.name);
    pcl__suggest sg;
    pcl__suggest_init(&sg, e->call.name, strlen(e->call.name));
    for (int id = 0; id < FUNCS_COUNT && diag_last_shown(c->diag); id++) {
      const char *known = funcs_get((funcs_id)id)->name;
      pcl__suggest_offer(&sg, known, strlen(known));
    }
    size_t len;
    const char *best = pcl__suggest_best(&sg, &len);
    if (best) {
      diag_note_suggestion(g, n->call.name.span, best, len);
    }
    e->call.kind = BND_CALL_UNKNOWN;
    return poison(c, e);
  }
  if (any_error(e)) {
    return poison(c, e);
  }
  funcs_call call = {0};
  call.nargs = e->call.nargs;
  call.args = types_of(c, e->call.args, e->call.nargs);
  pcl_span *spans = ARENA_NEW_ARRAY(c->arena, pcl_span, e->call.nargs + 1);
  for (size_t i = 0; i < e->call.nargs; i++) {
    spans[i] = e->call.args[i]->span;
  }
  call.arg_spans = spans;
  call.span = n->span;
  call.expand_final = e->call.expand_final;
  call.params = ARENA_NEW_ARRAY(c->arena, const ty *, e->call.nargs + 1);
  const ty *t = funcs_check_call(c->ty, c->diag, fn, &call);
  if (!t) {
    return poison(c, e);
  }
  /* funcs accepts unsafe conversions; a fractional literal passed where
     only an int fits (`range(1.5)`) can never convert. */
  bool ok = true;
  for (size_t i = 0; i < e->call.nargs; i++) {
    if (call.params[i]) {
      ok = check_int_literal(c, e->call.args[i], call.params[i]) && ok;
    }
  }
  if (!ok) {
    return poison(c, e);
  }
  e->type = t;
  return e;
}

/* Returns the kind of a call of the built-in id. */
static bnd_call_kind call_kind(pcl__builtin_id id) {
  return id == PCL__B_TRY       ? BND_CALL_TRY
         : id == PCL__B_CAN     ? BND_CALL_CAN
         : id == PCL__B_RECOVER ? BND_CALL_RECOVER
         : id == PCL__B_INVOKE  ? BND_CALL_INVOKE
         : id == PCL__B_CALL    ? BND_CALL_METHOD
         : id == PCL__B_CONVERT ? BND_CALL_CONVERT
                                : BND_CALL_BUILTIN;
}

/* Binds the arguments of the call n into e in order (inside try and can,
   with their failures caught there).  recover(v, r) binds r with the
   variable `error` in scope; convert(v, T, ...) binds all but T, a type
   expression. */
static void call_args(bind_ctx *c, const bind_scope *s, const ast_node *n, bnd_expr *e) {
  size_t cnt = n->call.args.count;
  bool catches = e->call.kind == BND_CALL_TRY || e->call.kind == BND_CALL_CAN;
  if (catches) {
    diag_catch *dc = ARENA_NEW(c->arena, diag_catch);
    dc->span = n->call.name.span;
    dc->note = e->call.kind == BND_CALL_TRY
                   ? "'try' moves on to its next argument when this fails"
                   : "'can' is false when this fails";
    dc->outer = c->diag->catching;
    c->diag->catching = dc;
  }
  const bind_scope *inner = s;
  for (size_t i = 0; i < cnt; i++) {
    if (e->call.kind == BND_CALL_CONVERT && i == 1) {
      continue; /* a type, read by finish_convert */
    }
    if (e->call.kind == BND_CALL_RECOVER && cnt == 2 && i == 1) {
      e->call.error_var = new_var(c, BND_VAR_RECOVER_ERROR, intern(c->names, "error"),
                                  n->call.args.items[1]->span, ty_string(c->ty));
      inner = scope_with(c, s, e->call.error_var);
    }
    e->call.args[i] = expr(c, inner, n->call.args.items[i]);
  }
  if (catches) {
    c->diag->catching = c->diag->catching->outer;
  }
}

/* A call: its arguments in order, then its special form or builtin. */
static bnd_expr *call(bind_ctx *c, const bind_scope *s, const ast_node *n) {
  bnd_expr *e = mk(c, BND_E_CALL, n->span);
  e->call.name = n->call.name.text;
  const funcs_builtin *b = funcs_lookup(e->call.name);
  e->call.builtin = b ? (pcl__builtin_id)b->id : PCL__B_COUNT;
  e->call.expand_final = n->call.expand_final;
  e->call.kind = call_kind(e->call.builtin);
  e->call.nargs = n->call.args.count;
  e->call.args = new_exprs(c, e->call.nargs);
  call_args(c, s, n, e);
  /* The special forms and the values of the run take their arguments as
     written: a list's elements cannot stand for them. */
  if (e->call.expand_final && b && !b->expandable) {
    diag_error(c->diag, n->call.args.items[e->call.nargs - 1]->span,
               "the arguments of '%s' cannot be expanded from a list with '...'; write them out",
               e->call.name);
    return poison(c, e);
  }
  switch (e->call.kind) {
  case BND_CALL_TRY:
    return finish_try(c, n, e);
  case BND_CALL_CAN:
    return finish_can(c, n, e);
  case BND_CALL_RECOVER:
    return finish_recover(c, n, e);
  case BND_CALL_INVOKE:
    return finish_invoke(c, n, e);
  case BND_CALL_METHOD:
    return finish_method(c, n, e);
  case BND_CALL_CONVERT:
    return finish_convert(c, n, e);
  case BND_CALL_BUILTIN:
  case BND_CALL_UNKNOWN:
    return finish_builtin(c, n, e);
  }
  ice("bad call kind %d", (int)e->call.kind);
}

/* ------------------------------------------------------- expressions */

/* Checks the compound expression n by its form. */
static bnd_expr *compound(bind_ctx *c, const bind_scope *s, const ast_node *n) {
  switch (n->kind) {
  case AST_TEMPLATE:
    return template(c, s, n);
  case AST_TEMPLATE_IF:
    return template_if(c, s, n);
  case AST_TEMPLATE_FOR:
    return template_for(c, s, n);
  case AST_GET_ATTR:
    return get_attr(c, s, n);
  case AST_INDEX:
    return index_expr(c, s, n);
  case AST_SPLAT:
    return splat(c, s, n);
  case AST_CALL:
    return call(c, s, n);
  case AST_TUPLE:
    return tuple(c, s, n);
  case AST_OBJECT:
    return object(c, s, n);
  case AST_FOR:
    return for_expr(c, s, n);
  case AST_UNARY:
    return unary(c, s, n);
  case AST_BINARY:
    return binary(c, s, n);
  case AST_CONDITIONAL:
    return conditional(c, s, n);
  case AST_NUMBER:
  case AST_BOOL:
  case AST_NULL:
  case AST_VARIABLE:
  case AST_TEMPLATE_LITERAL:
  case AST_SPLAT_ITEM:
  case AST_PAREN:
  case AST_ATTRIBUTE:
  case AST_BLOCK:
  case AST_OBJECT_ITEM:
    break;
  }
  ice("no rule for a %s node", ast_kind_name(n->kind));
}

bool check_too_deep(bind_ctx *c, pcl_span span) {
  if (!ty_take_too_deep(c->ty)) {
    return false;
  }
  stack_report_too_deep(&c->too_deep, c->diag, span);
  return true;
}

/* Checks n in scope s: a leaf at once, a compound expression by its rule
   when the stack has room for it. */
static bnd_expr *expr(bind_ctx *c, const bind_scope *s, const ast_node *n) {
  bnd_expr *e = leaf(c, s, &n);
  if (e) {
    return e;
  }
  if (stack_too_deep(&c->too_deep, c->diag, n->span)) {
    return poison(c, mk(c, BND_E_NULL, n->span));
  }
  e = compound(c, s, n);
  return check_too_deep(c, n->span) ? poison(c, e) : e;
}

bnd_expr *check_expr(bind_ctx *c, const bind_scope *s, const ast_node *n) {
  bnd_expr *result = expr(c, s, n);
  if (c->diag->caught) {
    ice("a failure caught inside try or can was not made an expression's");
  }
  return result;
}

/* ----------------------------------------------------- target types */


/* Returns the const type of a literal expression, or NULL. */
static const ty *literal_type(const bnd_expr *e) {
  switch (e->kind) {
  case BND_E_NUMBER:
  case BND_E_BOOL:
    return e->type;
  case BND_E_NULL:
  case BND_E_STRING:
  case BND_E_TEMPLATE:
  case BND_E_TEMPLATE_IF:
  case BND_E_TEMPLATE_FOR:
  case BND_E_NODE_REF:
  case BND_E_VAR_REF:
  case BND_E_GET_ATTR:
  case BND_E_INDEX:
  case BND_E_SPLAT:
  case BND_E_CALL:
  case BND_E_TUPLE:
  case BND_E_OBJECT:
  case BND_E_FOR:
  case BND_E_UNARY:
  case BND_E_BINARY:
  case BND_E_CONDITIONAL:
  case BND_E_PROPERTY:
  case BND_E_TYPE:
  case BND_E_FAIL:
    return NULL;
  }
  return NULL;
}

/* Returns true if the object constructor e is compatible with the constant
   properties of object type o (every constant property that e writes as a
   literal has that constant's value). */
static bool matches_consts(bind_ctx *c, const bnd_expr *e, const ty *o) {
  for (size_t i = 0; i < o->object.count; i++) {
    const ty *pt = ty_value_target(c->ty, o->object.props[i].type);
    if (pt->kind != TY_CONST) {
      continue;
    }
    for (size_t k = 0; k < e->object.count; k++) {
      const bnd_item *it = &e->object.items[k];
      if (it->literal != o->object.props[i].name) {
        continue;
      }
      const ty *lt = it->value->kind == BND_E_STRING
                         ? ty_const_string(c->ty, it->value->string.text, it->value->string.len)
                         : literal_type(it->value);
      if (lt && lt != pt) {
        return false;
      }
    }
  }
  return true;
}

/* Narrows `to` for e (see check_annotate) without looking inside e. */
static const ty *annotation(bind_ctx *c, const bnd_expr *e, const ty *to) {
  const ty *t = ty_value_target(c->ty, to);
  if (e->kind == BND_E_OBJECT && t->kind == TY_UNION) {
    /* Narrow a union to the one object type the constructor selects. */
    const ty *pick = NULL, *map = NULL;
    size_t objects = 0;
    for (size_t i = 0; i < t->elems.count; i++) {
      const ty *m = t->elems.items[i];
      if (m->kind == TY_MAP) {
        map = m;
      }
      if (m->kind != TY_OBJECT) {
        continue;
      }
      if (matches_consts(c, e, m)) {
        pick = objects++ == 0 ? m : NULL;
      }
    }
    if (objects == 1 && pick) {
      t = pick;
    } else if (objects == 0 && map) {
      t = map;
    }
  }
  return t;
}

/* Object constructors and tuples pass the narrowed target on to their
   items. */
void check_annotate(bind_ctx *c, bnd_expr *e, const ty *to) {
  if (!to || e->error || stack_too_deep(&c->too_deep, c->diag, e->span)) {
    return;
  }
  const ty *t = annotation(c, e, to);
  e->target = t;
  switch (e->kind) {
  case BND_E_OBJECT:
    for (size_t i = 0; i < e->object.count; i++) {
      bnd_item *item = &e->object.items[i];
      if (t->kind == TY_MAP) {
        check_annotate(c, item->value, t->elem);
      } else if (t->kind == TY_OBJECT && item->literal) {
        check_annotate(c, item->value, ty_object_get(t, item->literal));
      }
    }
    break;
  case BND_E_TUPLE:
    for (size_t i = 0; i < e->tuple.count; i++) {
      if (t->kind == TY_LIST || t->kind == TY_SET) {
        check_annotate(c, e->tuple.items[i], t->elem);
      } else if (t->kind == TY_TUPLE && i < t->elems.count) {
        check_annotate(c, e->tuple.items[i], t->elems.items[i]);
      }
    }
    break;
  case BND_E_NUMBER:
  case BND_E_BOOL:
  case BND_E_NULL:
  case BND_E_STRING:
  case BND_E_TEMPLATE:
  case BND_E_TEMPLATE_IF:
  case BND_E_TEMPLATE_FOR:
  case BND_E_NODE_REF:
  case BND_E_VAR_REF:
  case BND_E_GET_ATTR:
  case BND_E_INDEX:
  case BND_E_SPLAT:
  case BND_E_CALL:
  case BND_E_FOR:
  case BND_E_UNARY:
  case BND_E_BINARY:
  case BND_E_CONDITIONAL:
  case BND_E_PROPERTY:
  case BND_E_TYPE:
  case BND_E_FAIL:
    break;
  }
  check_too_deep(c, e->span);
}

/* ------------------------------------------------------- type labels */

const ty *check_type_label(bind_ctx *c, const ast_label *label) {
  parse_env env = {c->arena, c->names, c->src, c->diag, 0};
  size_t before = nerrors(c);
  const ast_node *e = parse_expression_text(&env, label->text, strlen(label->text), label->span);
  if (!e) {
    if (nerrors(c) == before) {
      diag_error(c->diag, label->span, "invalid type expression \"%s\"", label->text);
    }
    return ty_dynamic(c->ty);
  }
  return type_expr_read(c, e);
}
