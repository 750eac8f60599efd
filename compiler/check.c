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
 * diagnostics use the exact texts of types.md §16 and program.md §14. */
#include "check.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "funcs.h"
#include "parse.h"
#include "schema.h"
#include "util.h"

/* ------------------------------------------------------------ helpers */

/* Returns a fresh arena expression of kind k at span; the caller sets its
   type and fields. */
static bnd_expr *mk(bind_ctx *c, bnd_expr_kind k, pcl_span span) {
  bnd_expr *e = ARENA_NEW(c->arena, bnd_expr);
  e->kind = k;
  e->span = span;
  return e;
}

/* Marks e erroneous: type dynamic, no follow-on diagnostics. */
static bnd_expr *poison(bind_ctx *c, bnd_expr *e) {
  e->error = true;
  e->type = ty_dynamic(c->ty);
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
    diag_error(c->diag, e->span, "cannot convert %s to int: not an integer", e->number.text);
    return false;
  }
  return true;
}

/* Unsafe conversions are accepted (they are checked at run time), except
   for a fractional literal that can only become an int. */
bool check_assign(bind_ctx *c, const bnd_expr *e, const ty *to) {
  if (e->error) {
    return true;
  }
  ty_conv k = ty_conversion(c->ty, to, e->type);
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
    diag_error(c->diag, n->span, "undefined variable %s", name);
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

/* ---------------------------------------------------------- templates */

static bnd_expr *template(bind_ctx *c, const bind_scope *s, const ast_node *n);

/* Binds one part of a template: literal text, %{if}, %{for} or an
   interpolated expression. */
static bnd_expr *template_part(bind_ctx *c, const bind_scope *s, const ast_node *p) {
  switch (p->kind) {
  case AST_TEMPLATE_LITERAL:
    return string_literal(c, p->span, p->literal.text, p->literal.len);
  case AST_TEMPLATE_IF: {
    bnd_expr *e = mk(c, BND_E_TEMPLATE_IF, p->span);
    e->tif.cond = check_expr(c, s, p->tif.cond);
    e->tif.then = template(c, s, p->tif.then);
    e->tif.else_ = p->tif.else_ ? template(c, s, p->tif.else_) : NULL;
    check_input(c, e->tif.cond, ty_bool(c->ty));
    const ty *ts[2] = {e->tif.then->type,
                       e->tif.else_ ? e->tif.else_->type : ty_string(c->ty)};
    const ty *u = ty_unify_safe(c->ty, 2, ts);
    e->type = ty_lift(c->ty, u, 1, &e->tif.cond->type);
    if (e->tif.cond->error || e->tif.then->error || (e->tif.else_ && e->tif.else_->error)) {
      e->error = true;
    }
    return e;
  }
  case AST_TEMPLATE_FOR: {
    bnd_expr *e = mk(c, BND_E_TEMPLATE_FOR, p->span);
    e->tfor.collection = check_expr(c, s, p->tfor.collection);
    const ty *kt = ty_dynamic(c->ty), *vt = ty_dynamic(c->ty);
    if (!e->tfor.collection->error) {
      ty_collection_types(c->ty, e->tfor.collection->type, &kt, &vt, c->diag,
                          p->tfor.collection->span, false);
    }
    bind_scope ks = {0}, vs;
    const bind_scope *inner = s;
    if (p->tfor.key.text) {
      e->tfor.key = new_var(c, BND_VAR_FOR_KEY, p->tfor.key.text, p->tfor.key.span, kt);
      ks = var_scope(s, e->tfor.key);
      inner = &ks;
    }
    e->tfor.value = new_var(c, BND_VAR_FOR_VALUE, p->tfor.value.text, p->tfor.value.span, vt);
    vs = var_scope(inner, e->tfor.value);
    e->tfor.body = template(c, &vs, p->tfor.body);
    const ty *ts[2] = {e->tfor.collection->type, e->tfor.body->type};
    e->type = ty_lift(c->ty, ty_string(c->ty), 2, ts);
    e->error = e->tfor.collection->error || e->tfor.body->error;
    return e;
  }
  case AST_ATTRIBUTE:
  case AST_BLOCK:
  case AST_NUMBER:
  case AST_BOOL:
  case AST_NULL:
  case AST_VARIABLE:
  case AST_TEMPLATE:
  case AST_GET_ATTR:
  case AST_INDEX:
  case AST_SPLAT:
  case AST_SPLAT_ITEM:
  case AST_CALL:
  case AST_TUPLE:
  case AST_OBJECT:
  case AST_OBJECT_ITEM:
  case AST_FOR:
  case AST_UNARY:
  case AST_BINARY:
  case AST_CONDITIONAL:
  case AST_PAREN:
    return check_expr(c, s, p);
  }
  ice("bad template part kind %d", (int)p->kind);
}

/* Binds a template: one literal gives a string, one interpolation gives the
   interpolated expression itself, anything else a TEMPLATE of type
   lift(string, parts). */
static bnd_expr *template(bind_ctx *c, const bind_scope *s, const ast_node *n) {
  const ast_list *parts = &n->template.parts;
  /* "${e}" is e itself (types.md §8). */
  if (parts->count == 1 && parts->items[0]->kind != AST_TEMPLATE_LITERAL &&
      parts->items[0]->kind != AST_TEMPLATE_IF && parts->items[0]->kind != AST_TEMPLATE_FOR) {
    return check_expr(c, s, parts->items[0]);
  }
  if (parts->count == 1 && parts->items[0]->kind == AST_TEMPLATE_LITERAL) {
    const ast_node *p = parts->items[0];
    return string_literal(c, n->span, p->literal.text, p->literal.len);
  }
  bnd_expr *e = mk(c, BND_E_TEMPLATE, n->span);
  e->tmpl.count = parts->count;
  e->tmpl.parts = new_exprs(c, parts->count);
  for (size_t i = 0; i < parts->count; i++) {
    e->tmpl.parts[i] = template_part(c, s, parts->items[i]);
    if (e->tmpl.parts[i]->error) {
      e->error = true;
    }
  }
  e->type = ty_lift(c->ty, ty_string(c->ty), e->tmpl.count, types_of(c, e->tmpl.parts, e->tmpl.count));
  return e;
}

/* --------------------------------------------------------- traversals */

/* Counts errors so a step can tell whether it reported one. */
static size_t nerrors(bind_ctx *c) {
  return c->diag->errors;
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
  if (nerrors(c) != before) {
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
  if (nerrors(c) != before) {
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

/* Binds `object.name`. */
static bnd_expr *get_attr(bind_ctx *c, const bind_scope *s, const ast_node *n) {
  bnd_expr *e = mk(c, BND_E_GET_ATTR, n->span);
  bnd_expr *recv = check_expr(c, s, n->get_attr.object);
  e->get_attr.object = recv;
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

/* Binds `collection[key]`: a literal key is a static traversal step (§6),
   any other key is typed by iteration (§9, `coll[k]`). */
static bnd_expr *index_expr(bind_ctx *c, const bind_scope *s, const ast_node *n) {
  bnd_expr *e = mk(c, BND_E_INDEX, n->span);
  bnd_expr *recv = check_expr(c, s, n->index.collection);
  e->index.collection = recv;
  const ast_node *k = n->index.key;
  /* Literal keys: numbers (also `.N`), bools and single-literal strings. */
  ty_traverser key = {0};
  bool literal = true;
  const char *text;
  size_t len;
  if (k->kind == AST_NUMBER) {
    key.kind = TY_TRAV_NUMBER;
    key.text = k->number.text;
    key.len = strlen(k->number.text);
    e->index.key = number_literal(c, k->span, k->number.text, false);
  } else if (k->kind == AST_BOOL) {
    key.kind = TY_TRAV_BOOL;
    key.boolean = k->boolean.value;
    e->index.key = check_expr(c, s, k);
  } else if (check_literal_string(k, &text, &len)) {
    key.kind = TY_TRAV_STRING;
    key.text = text;
    key.len = len;
    e->index.key = string_literal(c, k->span, text, len);
  } else {
    literal = false;
  }
  if (literal) {
    if (e->index.key->error) {
      return poison(c, e);
    }
    if (recv->kind == BND_E_PROPERTY && !recv->error) {
      const char *suffix = key.kind == TY_TRAV_STRING ? quote_key(c, key.text, key.len)
                           : key.kind == TY_TRAV_NUMBER
                               ? arena_printf(c->arena, "[%s]", key.text)
                               : arena_printf(c->arena, "[%s]", key.boolean ? "true" : "false");
      return property_step(c, e, recv, &key, k->span, suffix);
    }
    return traverse_step(c, e, recv, &key, k->span);
  }
  /* A computed key (types.md §9, `coll[k]`). */
  bnd_expr *kx = check_expr(c, s, k);
  e->index.key = kx;
  if (recv->error || kx->error) {
    return poison(c, e);
  }
  if (recv->kind == BND_E_PROPERTY) {
    diag_error(c->diag, k->span, "property paths must use literal keys");
    return poison(c, e);
  }
  const ty *kt, *vt;
  if (!ty_collection_types(c->ty, recv->type, &kt, &vt, c->diag, n->index.collection->span,
                           false)) {
    return poison(c, e);
  }
  if (!check_input(c, kx, kt)) {
    return poison(c, e);
  }
  e->type = ty_lift(c->ty, ty_wrap_iterable(c->ty, recv->type, vt), 1, &kx->type);
  return e;
}

/* Binds `source[*]each`: each is bound with the splat item in scope; the
   result is a list of each's type, wrapped in the source's eventual
   layers when the source is a collection (types.md §9 splat quirk). */
static bnd_expr *splat(bind_ctx *c, const bind_scope *s, const ast_node *n) {
  bnd_expr *e = mk(c, BND_E_SPLAT, n->span);
  bnd_expr *src = check_expr(c, s, n->splat.source);
  e->splat.source = src;
  const ty *item = src->error ? ty_dynamic(c->ty) : ty_splat_item(c->ty, src->type);
  e->splat.item = new_var(c, BND_VAR_SPLAT_ITEM, "", n->splat.item->span, item);
  bind_scope is = var_scope(s, e->splat.item);
  e->splat.each = check_expr(c, &is, n->splat.each);
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

/* ------------------------------------------------------- constructors */

static bnd_expr *tuple(bind_ctx *c, const bind_scope *s, const ast_node *n) {
  bnd_expr *e = mk(c, BND_E_TUPLE, n->span);
  size_t cnt = n->tuple.items.count;
  e->tuple.count = cnt;
  e->tuple.items = new_exprs(c, cnt);
  for (size_t i = 0; i < cnt; i++) {
    e->tuple.items[i] = check_expr(c, s, n->tuple.items.items[i]);
  }
  e->type = ty_tuple(c->ty, cnt, types_of(c, e->tuple.items, cnt));
  return e;
}

/* Classifies an object key (syntax.md §5.4): returns the literal key text, or
 * NULL for a computed key (then *computed is the expression to bind). */
static const char *object_key(bind_ctx *c, const ast_node *k, const ast_node **computed,
                              size_t *len) {
  const char *text;
  *computed = NULL;
  switch (k->kind) {
  case AST_VARIABLE: {
    /* A bare key is a string like a quoted one, so it is NFC too. */
    *len = strlen(k->variable.name);
    char *nfc = util_nfc(k->variable.name, *len, len);
    if (nfc == NULL) {
      return k->variable.name;
    }
    const char *key = arena_strndup(c->arena, nfc, *len);
    free(nfc);
    return key;
  }
  case AST_BOOL:
    *len = k->boolean.value ? 4 : 5;
    return k->boolean.value ? "true" : "false";
  case AST_NULL:
    *len = 4;
    return "null";
  case AST_TEMPLATE:
    if (check_literal_string(k, &text, len)) {
      return text;
    }
    *computed = k;
    return NULL;
  case AST_NUMBER: {
    const ty *t = ty_number_literal(c->ty, k->number.text, false);
    if (t && t->kind == TY_CONST && t->cnst.base->kind == TY_INT) {
      const char *digits = int_digits(c, t);
      *len = strlen(digits);
      return digits;
    }
    *len = strlen(k->number.text);
    return k->number.text;
  }
  case AST_PAREN:
    *computed = k->paren.inner;
    return NULL;
  case AST_ATTRIBUTE:
  case AST_BLOCK:
  case AST_TEMPLATE_LITERAL:
  case AST_TEMPLATE_IF:
  case AST_TEMPLATE_FOR:
  case AST_GET_ATTR:
  case AST_INDEX:
  case AST_SPLAT:
  case AST_SPLAT_ITEM:
  case AST_CALL:
  case AST_TUPLE:
  case AST_OBJECT:
  case AST_OBJECT_ITEM:
  case AST_FOR:
  case AST_UNARY:
  case AST_BINARY:
  case AST_CONDITIONAL:
    *computed = k;
    return NULL;
  }
  ice("bad object key kind %d", (int)k->kind);
}

/* Binds an object constructor (types.md §9): literal keys give an object
   type, any computed key a map of the unified value types; the result is
   lifted over the key types only. */
static bnd_expr *object(bind_ctx *c, const bind_scope *s, const ast_node *n) {
  bnd_expr *e = mk(c, BND_E_OBJECT, n->span);
  size_t cnt = n->object.items.count;
  e->object.count = cnt;
  e->object.items = cnt ? ARENA_NEW_ARRAY(c->arena, bnd_item, cnt) : NULL;
  bool all_literal = true;
  const ty **keys = cnt ? ARENA_NEW_ARRAY(c->arena, const ty *, cnt) : NULL;
  const ty **vals = cnt ? ARENA_NEW_ARRAY(c->arena, const ty *, cnt) : NULL;
  ty_prop *props = cnt ? ARENA_NEW_ARRAY(c->arena, ty_prop, cnt) : NULL;
  /* Keys first (their kind decides object or map), then values; a later
     duplicate literal key overwrites an earlier one in the type. */
  for (size_t i = 0; i < cnt; i++) {
    const ast_node *it = n->object.items.items[i];
    bnd_item *bi = &e->object.items[i];
    const ast_node *computed;
    size_t len = 0;
    const char *lit = object_key(c, it->item.key, &computed, &len);
    if (lit) {
      bi->literal = intern_n(c->names, lit, len);
      bi->key = string_literal(c, it->item.key->span, bi->literal, len);
    } else {
      const ast_node *k = it->item.key;
      if (k->kind == AST_GET_ATTR || k->kind == AST_INDEX || k->kind == AST_SPLAT) {
        diag_error(c->diag, k->span, "Ambiguous attribute key");
        bi->key = poison(c, mk(c, BND_E_STRING, k->span));
      } else {
        bi->key = check_expr(c, s, computed);
        if (!bi->key->error) {
          ty_check_object_key(c->ty, c->diag, bi->key->span, bi->key->type);
        }
      }
      all_literal = false;
    }
    bi->value = check_expr(c, s, it->item.value);
    keys[i] = bi->key->type;
    vals[i] = bi->value->type;
    props[i].name = bi->literal;
    props[i].type = bi->value->type;
  }
  const ty *t;
  if (all_literal) {
    t = ty_object(c->ty, cnt, props);
  } else {
    t = ty_map(c->ty, ty_unify_safe(c->ty, cnt, vals));
  }
  e->type = ty_lift(c->ty, t, cnt, keys);
  return e;
}

/* Binds a for expression: the variables are typed by iterating the
   collection (types.md §7); the result is a list or map, wrapped in the
   collection's eventual layers and lifted over the key and condition. */
static bnd_expr *for_expr(bind_ctx *c, const bind_scope *s, const ast_node *n) {
  bnd_expr *e = mk(c, BND_E_FOR, n->span);
  e->for_expr.is_object = n->for_expr.is_object;
  e->for_expr.grouping = n->for_expr.grouping;
  bnd_expr *coll = check_expr(c, s, n->for_expr.collection);
  e->for_expr.collection = coll;
  const ty *kt = ty_dynamic(c->ty), *vt = ty_dynamic(c->ty);
  bool bad = coll->error;
  if (!coll->error &&
      !ty_collection_types(c->ty, coll->type, &kt, &vt, c->diag, n->for_expr.collection->span,
                           false)) {
    bad = true;
  }
  bind_scope ks = {0}, vs;
  const bind_scope *inner = s;
  if (n->for_expr.key_var.text) {
    e->for_expr.key_var =
        new_var(c, BND_VAR_FOR_KEY, n->for_expr.key_var.text, n->for_expr.key_var.span, kt);
    ks = var_scope(s, e->for_expr.key_var);
    inner = &ks;
    if (n->for_expr.key_var.text == n->for_expr.value_var.text) {
      diag_error(c->diag, n->for_expr.value_var.span, "name %s already defined",
                 n->for_expr.value_var.text);
      bad = true;
    }
  }
  e->for_expr.value_var = new_var(c, BND_VAR_FOR_VALUE, n->for_expr.value_var.text,
                                  n->for_expr.value_var.span, vt);
  vs = var_scope(inner, e->for_expr.value_var);
  if (n->for_expr.key) {
    e->for_expr.key = check_expr(c, &vs, n->for_expr.key);
  }
  e->for_expr.value = check_expr(c, &vs, n->for_expr.value);
  if (n->for_expr.cond) {
    e->for_expr.cond = check_expr(c, &vs, n->for_expr.cond);
    check_input(c, e->for_expr.cond, ty_bool(c->ty));
  }
  if (e->for_expr.key) {
    check_input(c, e->for_expr.key, ty_string(c->ty));
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

static bnd_expr *unary(bind_ctx *c, const bind_scope *s, const ast_node *n) {
  const ast_node *inner = n->unary.operand;
  if (n->unary.op == AST_OP_NEG && inner->kind == AST_NUMBER) {
    return number_literal(c, n->span, inner->number.text, true);
  }
  bnd_expr *e = mk(c, BND_E_UNARY, n->span);
  e->unary.op = n->unary.op;
  e->unary.operand = check_expr(c, s, inner);
  if (e->unary.operand->error) {
    return poison(c, e);
  }
  const ty *param;
  const ty *r = ty_unary_op(c->ty, n->unary.op, e->unary.operand->type, &param);
  if (!check_assign(c, e->unary.operand, param)) {
    return poison(c, e);
  }
  e->type = r;
  return e;
}

/* Binds a binary operation; ty_binary_op gives the result type and the
   (input-shaped) parameter types the operands must convert to. */
static bnd_expr *binary(bind_ctx *c, const bind_scope *s, const ast_node *n) {
  bnd_expr *e = mk(c, BND_E_BINARY, n->span);
  e->binary.op = n->binary.op;
  e->binary.lhs = check_expr(c, s, n->binary.lhs);
  e->binary.rhs = check_expr(c, s, n->binary.rhs);
  if (e->binary.lhs->error || e->binary.rhs->error) {
    return poison(c, e);
  }
  const ty *lp, *rp;
  const ty *r = ty_binary_op(c->ty, n->binary.op, e->binary.lhs->type, e->binary.rhs->type,
                             &lp, &rp);
  bool ok = check_assign(c, e->binary.lhs, lp);
  ok = check_assign(c, e->binary.rhs, rp) && ok;
  if (!ok) {
    return poison(c, e);
  }
  e->type = r;
  return e;
}

/* Binds `cond ? then : else_`: the condition must be a bool, the result
   is the unified branch type lifted over the condition. */
static bnd_expr *conditional(bind_ctx *c, const bind_scope *s, const ast_node *n) {
  bnd_expr *e = mk(c, BND_E_CONDITIONAL, n->span);
  e->cond.cond = check_expr(c, s, n->cond.cond);
  e->cond.then = check_expr(c, s, n->cond.then);
  e->cond.else_ = check_expr(c, s, n->cond.else_);
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

/* Binds the arguments of a call in scope s. */
static void bind_args(bind_ctx *c, const bind_scope *s, const ast_node *n, bnd_expr *e) {
  size_t cnt = n->call.args.count;
  e->call.nargs = cnt;
  e->call.args = new_exprs(c, cnt);
  for (size_t i = 0; i < cnt; i++) {
    e->call.args[i] = check_expr(c, s, n->call.args.items[i]);
  }
}

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
   output when an argument is eventual, output(dynamic) when one is dynamic. */
static bnd_expr *call_try(bind_ctx *c, const bind_scope *s, const ast_node *n, bnd_expr *e) {
  e->call.kind = BND_CALL_TRY;
  bind_args(c, s, n, e);
  if (e->call.nargs == 0) {
    diag_error(c->diag, call_span(n), "'try' expects at least one argument");
    return poison(c, e);
  }
  if (any_error(e)) {
    return poison(c, e);
  }
  const ty *const *ts = types_of(c, e->call.args, e->call.nargs);
  const ty *u = ty_unify_safe(c->ty, e->call.nargs, ts);
  bool eventual = false, dyn = false;
  for (size_t i = 0; i < e->call.nargs; i++) {
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

/* Binds can(e): bool, or output(bool) for an output-like or dynamic e. */
static bnd_expr *call_can(bind_ctx *c, const bind_scope *s, const ast_node *n, bnd_expr *e) {
  e->call.kind = BND_CALL_CAN;
  bind_args(c, s, n, e);
  if (e->call.nargs != 1) {
    diag_error(c->diag, call_span(n), "'can' expects exactly one argument");
    return poison(c, e);
  }
  if (any_error(e)) {
    return poison(c, e);
  }
  const ty *t = e->call.args[0]->type;
  e->type = is_output_like(t) || t->kind == TY_DYNAMIC ? ty_output(c->ty, ty_bool(c->ty))
                                                       : ty_bool(c->ty);
  return e;
}

/* Binds recover(value, recovery): value must be an output; recovery sees
   the variable `error`; the result is the output of the unified types. */
static bnd_expr *call_recover(bind_ctx *c, const bind_scope *s, const ast_node *n,
                              bnd_expr *e) {
  e->call.kind = BND_CALL_RECOVER;
  size_t cnt = n->call.args.count;
  if (cnt != 2) {
    bind_args(c, s, n, e);
    diag_error(c->diag, call_span(n), "'recover' expects exactly two arguments");
    return poison(c, e);
  }
  e->call.nargs = 2;
  e->call.args = new_exprs(c, 2);
  e->call.args[0] = check_expr(c, s, n->call.args.items[0]);
  e->call.error_var = new_var(c, BND_VAR_RECOVER_ERROR, intern(c->names, "error"),
                              n->call.args.items[1]->span, ty_string(c->ty));
  bind_scope es = var_scope(s, e->call.error_var);
  e->call.args[1] = check_expr(c, &es, n->call.args.items[1]);
  if (any_error(e)) {
    return poison(c, e);
  }
  if (e->call.args[0]->type->kind != TY_OUTPUT) {
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
static bnd_expr *call_invoke(bind_ctx *c, const bind_scope *s, const ast_node *n,
                             bnd_expr *e) {
  e->call.kind = BND_CALL_INVOKE;
  bind_args(c, s, n, e);
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
static bnd_expr *call_method(bind_ctx *c, const bind_scope *s, const ast_node *n,
                             bnd_expr *e) {
  e->call.kind = BND_CALL_METHOD;
  bind_args(c, s, n, e);
  if (e->call.nargs < 3) {
    diag_error(c->diag, call_span(n),
               "call must be passed a receiver, method name, and arguments object");
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

/* Binds convert(value, TYPE): the second argument is a type expression;
   the value must convert to that type, which is the result (lifted). */
static bnd_expr *call_convert(bind_ctx *c, const bind_scope *s, const ast_node *n,
                              bnd_expr *e) {
  e->call.kind = BND_CALL_CONVERT;
  size_t cnt = n->call.args.count;
  if (cnt != 2) {
    bind_args(c, s, n, e);
    if (cnt < 2) {
      diag_error(c->diag, call_span(n), "missing required parameter '%s'",
                 cnt == 0 ? "value" : "type");
    } else {
      diag_error(c->diag, e->call.args[2]->span,
                 "too many arguments to call: expected 2, got %zu", cnt);
    }
    return poison(c, e);
  }
  e->call.nargs = 2;
  e->call.args = new_exprs(c, 2);
  e->call.args[0] = check_expr(c, s, n->call.args.items[0]);
  bnd_expr *te = mk(c, BND_E_TYPE, n->call.args.items[1]->span);
  size_t before = nerrors(c);
  te->type_expr.denoted = ty_from_type_expr(c->ty, n->call.args.items[1], c->diag);
  te->type = ty_dynamic(c->ty);
  if (nerrors(c) != before) {
    te->error = true;
  }
  e->call.args[1] = te;
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
static bnd_expr *call_builtin(bind_ctx *c, const bind_scope *s, const ast_node *n,
                              bnd_expr *e) {
  e->call.kind = BND_CALL_BUILTIN;
  bind_args(c, s, n, e);
  const funcs_builtin *fn = funcs_lookup(e->call.name);
  if (!fn) {
    diag_error(c->diag, n->call.name.span, "unknown function '%s'", e->call.name);
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

/* Dispatches a call to its special form or to the builtin table. */
static bnd_expr *call(bind_ctx *c, const bind_scope *s, const ast_node *n) {
  bnd_expr *e = mk(c, BND_E_CALL, n->span);
  const char *name = n->call.name.text;
  e->call.name = name;
  e->call.expand_final = n->call.expand_final;
  if (strcmp(name, "try") == 0) {
    return call_try(c, s, n, e);
  }
  if (strcmp(name, "can") == 0) {
    return call_can(c, s, n, e);
  }
  if (strcmp(name, "recover") == 0) {
    return call_recover(c, s, n, e);
  }
  if (strcmp(name, "invoke") == 0) {
    return call_invoke(c, s, n, e);
  }
  if (strcmp(name, "call") == 0) {
    return call_method(c, s, n, e);
  }
  if (strcmp(name, "convert") == 0) {
    return call_convert(c, s, n, e);
  }
  return call_builtin(c, s, n, e);
}

/* --------------------------------------------------------- dispatcher */

bnd_expr *check_expr(bind_ctx *c, const bind_scope *s, const ast_node *n) {
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
  case AST_TEMPLATE:
    return template(c, s, n);
  case AST_TEMPLATE_LITERAL:
  case AST_TEMPLATE_IF:
  case AST_TEMPLATE_FOR:
    return template_part(c, s, n);
  case AST_GET_ATTR:
    return get_attr(c, s, n);
  case AST_INDEX:
    return index_expr(c, s, n);
  case AST_SPLAT:
    return splat(c, s, n);
  case AST_SPLAT_ITEM:
    return splat_item(c, s, n);
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
  case AST_PAREN:
    return check_expr(c, s, n->paren.inner);
  case AST_ATTRIBUTE:
  case AST_BLOCK:
  case AST_OBJECT_ITEM:
    break;
  }
  ice("check_expr on a %s node", ast_kind_name(n->kind));
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

/* Object constructors and tuples pass the narrowed target on to their
   items. */
void check_annotate(bind_ctx *c, bnd_expr *e, const ty *to) {
  if (!to || e->error) {
    return;
  }
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
  e->target = t;
  switch (e->kind) {
  case BND_E_OBJECT:
    for (size_t i = 0; i < e->object.count; i++) {
      bnd_item *it = &e->object.items[i];
      if (t->kind == TY_MAP) {
        check_annotate(c, it->value, t->elem);
      } else if (t->kind == TY_OBJECT && it->literal) {
        check_annotate(c, it->value, ty_object_get(t, it->literal));
      }
    }
    return;
  case BND_E_TUPLE:
    for (size_t i = 0; i < e->tuple.count; i++) {
      if (t->kind == TY_LIST || t->kind == TY_SET) {
        check_annotate(c, e->tuple.items[i], t->elem);
      } else if (t->kind == TY_TUPLE && i < t->elems.count) {
        check_annotate(c, e->tuple.items[i], t->elems.items[i]);
      }
    }
    return;
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
    return;
  }
}

/* ------------------------------------------------------- type labels */

const ty *check_type_label(bind_ctx *c, const ast_label *label) {
  parse_env env = {c->arena, c->names, c->src, c->diag};
  size_t before = nerrors(c);
  const ast_node *e = parse_expression_text(&env, label->text, strlen(label->text), label->span);
  if (!e) {
    if (nerrors(c) == before) {
      diag_error(c->diag, label->span, "invalid type expression \"%s\"", label->text);
    }
    return ty_dynamic(c->ty);
  }
  return ty_from_type_expr(c->ty, e, c->diag);
}
