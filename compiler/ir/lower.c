/* lower: the bound program to the typed IR (see lower.h).
 *
 * Every expression tree goes through two passes, each recursive as the
 * expression nests (the stack guard of base/stack.h stops an expression
 * too deep for the stack with a located error):
 *
 *  1. build: the IR of each bound expression, bottom-up.  Conversions to
 *     schema and declared types become CONVERT nodes, special forms get
 *     their operations, and every IR expression gets its *stand type*: the
 *     type of its value if it is computed where it stands, derived from the
 *     types of its children rather than taken from the checker.  That
 *     matters where the run-time representation is more eventual than the
 *     checker's view: a component's config is fed by its parent (often with
 *     outputs), an untyped resource is a future typed `dynamic`, and an
 *     operation on such a value must be an apply too.
 *
 *  2. applies (lowering.md 2.2): an expression that needs the resolved
 *     value of one of its operands (an eventual one at the top, or one
 *     holding eventual values when the operation reads it deeply) becomes
 *     an APPLY.  Its body is the expression itself, in which every eventual
 *     sub-expression becomes a PARAM of the apply and its argument is
 *     lowered where it stands (so an apply feeding an outer one is a nested
 *     apply).  Constructors keep their eventual elements (minimal wrapping);
 *     the branches of a conditional and the bodies of for, splat and the
 *     special forms are lowered where they stand, since they run on their
 *     own.  A static traversal through eventual values becomes a PATH,
 *     which the runtime follows through futures step by step, as one
 *     argument: that keeps a sibling's secret or unknown out of the result,
 *     where cutting the traversal at its first eventual part (as
 *     lowering.md describes for SDKs) would apply the rest to a resolved
 *     object with all its marks.  Equal traversals share one argument.
 *
 * Component programs are lowered into their own modules, from a work list. */
#include "ir/lower.h"

#include <gmp.h>
#include <stdlib.h>
#include <string.h>

#include "base/ptrmap.h"
#include "base/stack.h"
#include "base/util.h"
#include "bind/check.h"
#include "buf.h"
#include "schema/schema.h"

/* ------------------------------------------------------------------- state */

/* The state of lowering one program. */
typedef struct lw {
  lower_ctx *L;         /* The compilation's context. */
  ty_ctx *T;            /* Its types. */
  const bnd_program *p; /* The program being lowered. */
  ir_module *m;         /* Its module. */
  uint32_t *pos;        /* Position in the module of each bound node, by index. */
  const ty **node_type; /* Type of references to each node, by position. */
  ptrmap slots;         /* bnd_var -> its slot + 1 (as a pointer-sized integer). */
  const ty **slot_type; /* Type of each slot's variable. */
  size_t capslots;      /* Slots allocated in slot_type. */
  uint32_t next_slot;   /* The next free variable slot of the module. */
} lw;

/* ------------------------------------------------------------------ helpers */

/* Returns true when the stack has no room to go deeper into the expression
 * at span: "expression nested too deeply" is then reported there (once),
 * and the caller returns its expression as it is (the compilation
 * fails). */
static bool too_deep(lw *w, pcl_span span) {
  return stack_too_deep(&w->L->too_deep, w->L->diag, span);
}

/* Returns a new expression op with n children to fill, located as the bound
 * expression e (when not NULL), with e's type as its type until it is
 * computed. */
static ir_expr *mk(lw *w, ir_op op, const bnd_expr *e, size_t n) {
  ir_expr *x = ir_new_expr(w->L->arena, op);
  if (e) {
    x->span = e->span;
    x->type = e->type;
    x->bound_type = e->type;
  }
  x->n = n;
  x->kids = ARENA_NEW_ARRAY(w->L->arena, ir_expr *, n);
  return x;
}

/* Returns the STRING constant s[0..len) located at span. */
static ir_expr *mk_string(lw *w, pcl_span span, const char *s, size_t len) {
  ir_expr *x = mk(w, IR_CONST, NULL, 0);
  x->span = span;
  x->ck = IR_K_STRING;
  x->text = s;
  x->len = len;
  x->type = ty_string(w->T);
  return x;
}

/* Returns the null constant located at span. */
static ir_expr *mk_null(lw *w, pcl_span span) {
  ir_expr *x = mk(w, IR_CONST, NULL, 0);
  x->span = span;
  x->ck = IR_K_NULL;
  x->type = ty_none(w->T);
  return x;
}

/* Gives v a fresh slot of type t and returns it. */
static uint32_t bind_var(lw *w, const bnd_var *v, const ty *t) {
  uint32_t slot = w->next_slot++;
  PCL__GROW(w->slot_type, w->capslots, slot + 1);
  w->slot_type[slot] = t;
  if (v)
    ptrmap_put(&w->slots, v, (void *)(uintptr_t)(slot + 1));
  return slot;
}

/* Sets the type of the variable of slot. */
static void set_slot_type(lw *w, uint32_t slot, const ty *t) { w->slot_type[slot] = t; }

/* The slot of the bound variable v. */
static uint32_t var_slot(const lw *w, const bnd_var *v) {
  uintptr_t s = (uintptr_t)ptrmap_get(&w->slots, v);
  if (s == 0)
    ice("variable '%s' has no slot", v->name);
  return (uint32_t)(s - 1);
}

/* Returns t with every output and promise removed at every level. */
static const ty *resolved(lw *w, const ty *t) {
  return ty_resolve_outputs(w->T, ty_resolve_promises(w->T, t));
}

/* Whether t is a component's object type (a component's value is a future). */
static bool is_component_type(const lw *w, const ty *t) {
  return ptrmap_get(&w->L->component_types, t) != NULL;
}

/* Whether a value of type t may be eventual at the top at run time: an
 * output, a promise, a union with such a member, a resource (whose value is
 * the future of its registration) or a component object. */
static bool ev_top(const lw *w, const ty *t) {
  if (t == NULL)
    return false;
  switch (t->kind) {
  case TY_OUTPUT:
  case TY_PROMISE:
    return true;
  case TY_UNION:
    /* Members of a canonical union are not unions: one level. */
    for (size_t i = 0; i < t->elems.count; i++) {
      if (ev_top(w, t->elems.items[i]))
        return true;
    }
    return false;
  case TY_OBJECT: {
    const char *tok = t->object.token;
    size_t n = tok ? strlen(tok) : 0;
    return (n > 9 && strcmp(tok + n - 9, "$resource") == 0) || is_component_type(w, t);
  }
  case TY_BOOL:
  case TY_INT:
  case TY_NUMBER:
  case TY_STRING:
  case TY_ID:
  case TY_DYNAMIC:
  case TY_NONE:
  case TY_OPAQUE:
  case TY_LIST:
  case TY_MAP:
  case TY_SET:
  case TY_TUPLE:
  case TY_CONST:
  case TY_ENUM:
    return false;
  }
  return false;
}

/* Whether a value of type t may hold an eventual value anywhere (resources
 * and components count: their attributes are outputs). */
static bool ev_any(const lw *w, const ty *t) {
  return t != NULL && (ev_top(w, t) || ty_contains_eventuals(t, NULL, NULL));
}

/* Returns t without the eventual layer at its top: the element of an
 * output or promise, a union's members without it. */
static const ty *strip_top(lw *w, const ty *t) {
  if (t->kind == TY_OUTPUT || t->kind == TY_PROMISE)
    return t->elem;
  if (t->kind == TY_UNION)
    return ty_value_target(w->T, t) == t ? ty_resolve_outputs(w->T, t) : ty_value_target(w->T, t);
  return t;
}

/* Returns t as the value of an eventual computation: output(t), collapsing
 * an eventual t. */
static const ty *eventual_of(lw *w, const ty *t) {
  return ty_output(w->T, ev_top(w, t) ? strip_top(w, t) : t);
}

/* Whether x is a constant STRING. */
static bool is_string_const(const ir_expr *x) { return x->op == IR_CONST && x->ck == IR_K_STRING; }

/* ------------------------------------------------------------- conversions */

/* The primitive a value of type t converts to, or -1 when t is not a
 * primitive type. */
static int convert_target(const ty *t) {
  switch (t->kind) {
  case TY_STRING:
  case TY_ID:
    return IR_C_STRING;
  case TY_NUMBER:
    return IR_C_NUMBER;
  case TY_INT:
    return IR_C_INT;
  case TY_BOOL:
    return IR_C_BOOL;
  case TY_CONST:
    return convert_target(t->cnst.base);
  case TY_ENUM:
    return convert_target(t->enm.base);
  case TY_DYNAMIC:
  case TY_NONE:
  case TY_OPAQUE:
  case TY_LIST:
  case TY_MAP:
  case TY_SET:
  case TY_TUPLE:
  case TY_OBJECT:
  case TY_UNION:
  case TY_OUTPUT:
  case TY_PROMISE:
    return -1;
  }
  return -1;
}

/* Returns the primitive conversion target of t seen through eventual and
 * optional layers: a union whose members all are (eventual or optional
 * forms of) one primitive, as InputType(bool) is, gives that primitive. */
static int primitive_of(const ty *t) {
  t = ty_strip_eventual(t);
  if (t->kind != TY_UNION)
    return convert_target(t);
  int found = -1;
  for (size_t i = 0; i < t->elems.count; i++) {
    const ty *m = ty_strip_eventual(t->elems.items[i]);
    if (m->kind == TY_NONE)
      continue;
    int k = convert_target(m);
    if (k < 0 || (found >= 0 && k != found))
      return -1;
    found = k;
  }
  return found;
}

/* The plain type of conversion target k. */
static const ty *convert_type(lw *w, int k) {
  switch ((ir_convert)k) {
  case IR_C_STRING:
    return ty_string(w->T);
  case IR_C_NUMBER:
    return ty_number(w->T);
  case IR_C_INT:
    return ty_int(w->T);
  case IR_C_BOOL:
    return ty_bool(w->T);
  }
  return ty_dynamic(w->T);
}

/* Returns the collection or object type that t accepts (seen through
 * eventual, optional and InputType union layers), or NULL.  The layers are
 * few, so the loop over union members does not nest deeply. */
static const ty *structure_of(const ty *t) {
  t = ty_strip_eventual(t);
  if (t->kind == TY_UNION) {
    for (size_t i = 0; i < t->elems.count; i++) {
      const ty *m = ty_strip_eventual(t->elems.items[i]);
      if (m->kind == TY_LIST || m->kind == TY_SET || m->kind == TY_MAP || m->kind == TY_OBJECT)
        return m;
    }
    return NULL;
  }
  return t->kind == TY_LIST || t->kind == TY_SET || t->kind == TY_MAP || t->kind == TY_OBJECT
             ? t
             : NULL;
}

static const ty *retype_convert(lw *w, const ir_expr *x);

/* Wraps x in the explicit conversion to the primitive type `to` when the
 * primitives of x's type and `to` differ (a string going to a bool input, a
 * number to a string, ...); int to number needs none.  List and object
 * constructors are converted element by element, one level (the build pass
 * converts nested constructors as their own targets say). */
static ir_expr *convert_to(lw *w, ir_expr *x, const ty *to) {
  if (to == NULL || x->type == NULL || too_deep(w, x->span))
    return x;
  if (x->op == IR_LIST || x->op == IR_OBJECT) {
    const ty *st = structure_of(to);
    if (st == NULL)
      return x;
    if (x->op == IR_LIST && (st->kind == TY_LIST || st->kind == TY_SET)) {
      for (size_t i = 0; i < x->n; i++)
        x->kids[i] = convert_to(w, x->kids[i], st->elem);
    } else if (x->op == IR_OBJECT && (st->kind == TY_MAP || st->kind == TY_OBJECT)) {
      for (size_t i = 0; i + 1 < x->n; i += 2) {
        const ir_expr *k = x->kids[i];
        const ty *elem = st->kind == TY_MAP ? st->elem : NULL;
        if (st->kind == TY_OBJECT && is_string_const(k))
          elem = ty_object_get(st, k->text);
        if (elem)
          x->kids[i + 1] = convert_to(w, x->kids[i + 1], elem);
      }
    }
    return x;
  }
  int target = primitive_of(to);
  int source = primitive_of(x->type);
  if (target < 0 || source < 0 || target == source)
    return x;
  if (target == IR_C_NUMBER && source == IR_C_INT)
    return x;
  if (x->op == IR_CONVERT && (int)x->sub == target)
    return x;
  ir_expr *c = mk(w, IR_CONVERT, NULL, 1);
  c->span = x->span;
  c->sub = (unsigned)target;
  c->kids[0] = x;
  c->type = retype_convert(w, c);
  return c;
}

/* ------------------------------------------------------------------ typing */

/* The type of CONVERT x: its target, eventual when its operand is. */
static const ty *retype_convert(lw *w, const ir_expr *x) {
  const ty *t = convert_type(w, (int)x->sub);
  return ev_any(w, x->kids[0]->type) ? eventual_of(w, t) : t;
}

/* Returns the traverser of the literal or computed key k. */
static ty_traverser key_traverser(lw *w, const ir_expr *k) {
  ty_traverser tr = {0};
  if (k->op == IR_CONST && k->ck == IR_K_STRING) {
    tr.kind = TY_TRAV_STRING;
    tr.text = k->text;
    tr.len = k->len;
  } else if (k->op == IR_CONST && (k->ck == IR_K_INT || k->ck == IR_K_NUMBER)) {
    tr.kind = TY_TRAV_NUMBER;
    tr.text = k->text;
    tr.len = strlen(k->text);
  } else if (k->op == IR_CONST && k->ck == IR_K_BOOL) {
    tr.kind = TY_TRAV_BOOL;
    tr.boolean = k->boolean;
  } else {
    tr.kind = TY_TRAV_DYNAMIC;
    tr.key_type = resolved(w, k->type);
  }
  return tr;
}

/* Whether the object type t (seen through eventual layers) declares the
 * attribute or key name. */
static bool declares(lw *w, const ty *t, const char *name) {
  t = strip_top(w, t);
  return t->kind == TY_OBJECT && t->object.defined && ty_object_get(t, name) != NULL;
}

/* Returns the type of traversing a value of type recv with tr: the element
 * type, eventual when recv is eventual at the top. */
static const ty *traverse(lw *w, const ty *recv, const ty_traverser *tr, pcl_span span) {
  const ty *t = ty_traverse(w->T, strip_top(w, recv), tr, NULL, span, NULL);
  return ev_top(w, recv) ? eventual_of(w, t) : t;
}

/* Whether t is the type ty_object makes of the properties of the object
 * constructor x with constant keys: an anonymous object with exactly x's
 * keys, each of its value's type.  Types are interned, so when it is, t
 * is that type itself and the constructor need not be typed again. */
static bool object_type_is(const ty *t, const ir_expr *x) {
  if (t == NULL || t->kind != TY_OBJECT || t->object.token || !t->object.defined ||
      !t->object.strict || t->object.count != x->n / 2)
    return false;
  for (size_t i = 0; i < x->n; i += 2) {
    if (ty_object_get(t, x->kids[i]->text) != x->kids[i + 1]->type)
      return false;
  }
  return true;
}

/* Whether t is the tuple of the types of the list constructor x's items
 * (the type ty_tuple makes of them, as object_type_is says of objects). */
static bool tuple_type_is(const ty *t, const ir_expr *x) {
  if (t == NULL || t->kind != TY_TUPLE || t->elems.count != x->n)
    return false;
  for (size_t i = 0; i < x->n; i++) {
    if (t->elems.items[i] != x->kids[i]->type)
      return false;
  }
  return true;
}

/* The source's operator of each operator of the IR: the lists name them
 * alike, and the type rules are written for the source's. */
static const ast_unary_op unary_source[] = {
#define X(name, text) [IR_U_##name] = AST_OP_##name,
    IR_UNARY_OPS(X)
#undef X
};
static const ast_binary_op binary_source[] = {
#define X(name, text) [IR_B_##name] = AST_OP_##name,
    IR_BINARY_OPS(X)
#undef X
};

/* Computes the stand type of x from its children's types (see the file
 * header): the type of the value x computes where it stands. */
static const ty *retype(lw *w, ir_expr *x) {
  ty_ctx *T = w->T;
  switch (x->op) {
  case IR_CONST:
  case IR_NODE:
  case IR_VAR:
  case IR_PARAM:
  case IR_PATH:
  case IR_APPLY:
  case IR_FAIL:
    return x->type;
  case IR_INVOKE:
  case IR_METHOD:
    /* The engine answers later, whatever the schema says of the result. */
    return eventual_of(w, resolved(w, x->bound_type));
  case IR_ATTR: {
    ty_traverser tr = {TY_TRAV_ATTR, x->s, strlen(x->s), false, NULL};
    x->declared = declares(w, x->kids[0]->type, x->s);
    return traverse(w, x->kids[0]->type, &tr, x->span);
  }
  case IR_INDEX: {
    ty_traverser tr = key_traverser(w, x->kids[1]);
    x->declared = is_string_const(x->kids[1]) && declares(w, x->kids[0]->type, x->kids[1]->text);
    const ty *t = traverse(w, x->kids[0]->type, &tr, x->span);
    return ev_top(w, x->kids[1]->type) ? eventual_of(w, t) : t;
  }
  case IR_LIST: {
    /* Most constructors keep the type they were given. */
    if (tuple_type_is(x->type, x))
      return x->type;
    if (tuple_type_is(x->bound_type, x))
      return x->bound_type;
    const ty **items = xmalloc((x->n ? x->n : 1) * sizeof *items);
    for (size_t i = 0; i < x->n; i++)
      items[i] = x->kids[i]->type;
    const ty *t = ty_tuple(T, x->n, items);
    free(items);
    return t;
  }
  case IR_OBJECT: {
    size_t n = x->n / 2;
    bool literal = true;
    for (size_t i = 0; i < n; i++)
      literal = literal && is_string_const(x->kids[2 * i]);
    const ty *t;
    if (literal && object_type_is(x->type, x)) {
      t = x->type;
    } else if (literal && object_type_is(x->bound_type, x)) {
      t = x->bound_type;
    } else if (literal) {
      ty_prop *props = xmalloc((n ? n : 1) * sizeof *props);
      for (size_t i = 0; i < n; i++)
        props[i] = (ty_prop){x->kids[2 * i]->text, x->kids[2 * i + 1]->type};
      t = ty_object(T, n, props);
      free(props);
    } else {
      const ty **vals = xmalloc((n ? n : 1) * sizeof *vals);
      for (size_t i = 0; i < n; i++)
        vals[i] = x->kids[2 * i + 1]->type;
      t = ty_map(T, ty_unify_safe(T, n, vals));
      free(vals);
    }
    for (size_t i = 0; i < n; i++) {
      if (ev_any(w, x->kids[2 * i]->type))
        return eventual_of(w, t);
    }
    return t;
  }
  case IR_TEMPLATE:
    for (size_t i = 0; i < x->n; i++) {
      if (ev_any(w, x->kids[i]->type))
        return ty_output(T, ty_string(T));
    }
    return ty_string(T);
  case IR_UNARY:
    return ty_operation(T, check_unary_operator(unary_source[x->sub]), 1, &x->kids[0]->type,
                        NULL);
  case IR_BINARY: {
    const ty *operands[2] = {x->kids[0]->type, x->kids[1]->type};
    return ty_operation(T, check_binary_operator(binary_source[x->sub]), 2, operands, NULL);
  }
  case IR_AND:
  case IR_OR: {
    const ty *operands[2] = {x->kids[0]->type, x->kids[1]->type};
    return ty_operation(T, TY_OP_LOGIC, 2, operands, NULL);
  }
  case IR_COND: {
    const ty *branches[2] = {x->kids[1]->type, x->kids[2]->type};
    const ty *t = ty_unify_safe(T, 2, branches);
    return ev_any(w, x->kids[0]->type) ? eventual_of(w, t) : t;
  }
  case IR_CALL: {
    const ty *t = resolved(w, x->bound_type);
    for (size_t i = 0; i < x->n; i++) {
      if (ev_any(w, x->kids[i]->type))
        return eventual_of(w, t);
    }
    return t;
  }
  case IR_CONVERT:
    return retype_convert(w, x);
  case IR_FOR: {
    const ty *v = x->kids[1]->type;
    const ty *t;
    if (x->sub & IR_F_CONCAT)
      t = ty_string(T);
    else if (x->sub & IR_F_GROUP)
      t = ty_map(T, ty_list(T, v));
    else if (x->sub & IR_F_OBJECT)
      t = ty_map(T, v);
    else
      t = ty_list(T, v);
    bool waits = (x->sub & IR_F_CONCAT) && ev_any(w, v);
    for (size_t i = 2; i < x->n; i++)
      waits = waits || ev_any(w, x->kids[i]->type);
    if (waits || ev_top(w, x->kids[0]->type))
      return eventual_of(w, t);
    return t;
  }
  case IR_SPLAT: {
    const ty *t = ty_list(T, x->kids[1]->type);
    return ev_top(w, x->kids[0]->type) ? eventual_of(w, t) : t;
  }
  case IR_SECRET:
  case IR_UNSECRET:
    return ty_output(T, resolved(w, x->kids[0]->type));
  case IR_GET_OUTPUT:
  case IR_RESOURCE_EXISTS:
  case IR_TRY:
  case IR_CAN:
  case IR_RECOVER:
    return ty_output(T, resolved(w, x->bound_type));
  }
  return x->type;
}

/* ------------------------------------------------------------------- build */

/* The operation of a built-in call: SECRET and UNSECRET for secret() and
 * unsecret(), GET_OUTPUT for getOutput(), RESOURCE_EXISTS for
 * resourceExists(), which take eventual arguments as they are, else CALL. */
static ir_op builtin_op(const bnd_expr *e) {
  pcl__builtin_id id = e->call.builtin;
  if (id == PCL__B_SECRET && e->call.nargs == 1)
    return IR_SECRET;
  if (id == PCL__B_UNSECRET && e->call.nargs == 1)
    return IR_UNSECRET;
  if (id == PCL__B_GET_OUTPUT && e->call.nargs == 2)
    return IR_GET_OUTPUT;
  if (id == PCL__B_RESOURCE_EXISTS)
    return IR_RESOURCE_EXISTS;
  return IR_CALL;
}

/* Returns the IR of the leaf e (a literal or a reference), or NULL when e
 * has children. */
static ir_expr *build_leaf(lw *w, const bnd_expr *e) {
  ir_expr *x;
  switch (e->kind) {
  case BND_E_NUMBER:
    x = mk(w, IR_CONST, e, 0);
    if (e->number.integral) {
      x->ck = IR_K_INT;
      x->text = e->number.digits;
    } else {
      x->ck = IR_K_NUMBER;
      x->text = e->number.text;
      x->number = e->number.value;
    }
    return x;
  case BND_E_BOOL:
    x = mk(w, IR_CONST, e, 0);
    x->ck = IR_K_BOOL;
    x->boolean = e->boolean;
    return x;
  case BND_E_NULL:
  case BND_E_TYPE:
    x = mk(w, IR_CONST, e, 0);
    x->ck = IR_K_NULL;
    return x;
  case BND_E_STRING:
    x = mk_string(w, e->span, e->string.text, e->string.len);
    x->type = e->type;
    return x;
  case BND_E_PROPERTY:
    return mk_string(w, e->span, e->property.path, strlen(e->property.path));
  case BND_E_TEMPLATE:
    if (e->tmpl.count == 1 && e->tmpl.parts[0]->kind == BND_E_STRING)
      return mk_string(w, e->span, e->tmpl.parts[0]->string.text, e->tmpl.parts[0]->string.len);
    return NULL;
  case BND_E_NODE_REF:
    x = mk(w, IR_NODE, e, 0);
    x->a = w->pos[e->node_ref.node->index];
    x->type = w->node_type[x->a];
    return x;
  case BND_E_VAR_REF:
    x = mk(w, IR_VAR, e, 0);
    x->a = var_slot(w, e->var_ref.var);
    x->type = w->slot_type[x->a];
    return x;
  case BND_E_FAIL:
    /* A FAIL fails with its message where the checker located it. */
    x = mk(w, IR_FAIL, e, 0);
    x->span = e->fail.where;
    x->ck = IR_K_STRING;
    x->text = e->fail.message;
    x->len = strlen(e->fail.message);
    return x;
  case BND_E_TEMPLATE_IF:
  case BND_E_TEMPLATE_FOR:
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
    return NULL;
  }
  return NULL;
}

/* Returns the IR node of e, whose children are filled in as they are
 * built; slots of the variables e binds are allocated here. */
static ir_expr *build_start(lw *w, const bnd_expr *e) {
  ir_expr *x;
  switch (e->kind) {
  case BND_E_TEMPLATE:
    return mk(w, IR_TEMPLATE, e, e->tmpl.count);
  case BND_E_TEMPLATE_IF:
    x = mk(w, IR_COND, e, 3);
    x->kids[2] = mk_string(w, e->span, "", 0);
    return x;
  case BND_E_TEMPLATE_FOR:
    x = mk(w, IR_FOR, e, 2);
    x->sub = IR_F_CONCAT;
    if (e->tfor.key) {
      x->sub |= IR_F_KEYVAR;
      x->a = bind_var(w, e->tfor.key, ty_dynamic(w->T));
    }
    x->b = bind_var(w, e->tfor.value, ty_dynamic(w->T));
    return x;
  case BND_E_GET_ATTR:
    x = mk(w, IR_ATTR, e, 1);
    x->s = e->get_attr.name;
    return x;
  case BND_E_INDEX:
    return mk(w, IR_INDEX, e, 2);
  case BND_E_SPLAT:
    x = mk(w, IR_SPLAT, e, 2);
    x->a = bind_var(w, e->splat.item, ty_dynamic(w->T));
    return x;
  case BND_E_CALL:
    switch (e->call.kind) {
    case BND_CALL_BUILTIN: {
      ir_op op = builtin_op(e);
      x = mk(w, op, e, e->call.nargs);
      if (op == IR_CALL) {
        x->a = (uint32_t)e->call.builtin;
        x->sub = e->call.expand_final ? 1u : 0u;
      }
      return x;
    }
    case BND_CALL_TRY:
      return mk(w, IR_TRY, e, e->call.nargs);
    case BND_CALL_CAN:
      return mk(w, IR_CAN, e, e->call.nargs);
    case BND_CALL_RECOVER:
      x = mk(w, IR_RECOVER, e, 2);
      x->a = bind_var(w, e->call.error_var, ty_string(w->T));
      return x;
    case BND_CALL_INVOKE: {
      /* invoke(token, args[, options]); the inputs of a multi-argument
         function written positionally become the arguments object. */
      size_t n = e->call.nargs, np = e->call.npositional;
      size_t opt = np ? 1 + np : 2;
      x = mk(w, IR_INVOKE, e, n > opt ? 2 : 1);
      const schema_function *fn = e->call.function;
      x->s = fn ? fn->token : e->call.token;
      /* A function with a non-object return answers {name: value}; the
         invoke's value is that one value. */
      x->sub = fn && fn->has_return && !fn->returns_object ? 1u : 0u;
      if (np) {
        ir_expr *o = mk(w, IR_OBJECT, e, 2 * np);
        for (size_t i = 0; i < np; i++) {
          const char *name = e->call.positional[i];
          pcl_span at = 1 + i < n ? e->call.args[1 + i]->span : e->span;
          o->kids[2 * i] = mk_string(w, at, name, strlen(name));
          o->kids[2 * i + 1] = mk_null(w, at);
        }
        x->kids[0] = o;
      } else {
        x->kids[0] = mk(w, IR_OBJECT, e, 0);
        x->kids[0]->type = ty_object(w->T, 0, NULL);
      }
      return x;
    }
    case BND_CALL_METHOD: {
      x = mk(w, IR_METHOD, e, 2);
      x->s = e->call.function ? e->call.function->token : e->call.token;
      /* As for an invoke: a method with a non-object return answers
         {name: value}, and the call's value is that one value. */
      const schema_function *fn = e->call.function;
      x->sub = fn && fn->has_return && !fn->returns_object ? 1u : 0u;
      x->kids[1] = mk(w, IR_OBJECT, e, 0);
      x->kids[1]->type = ty_object(w->T, 0, NULL);
      return x;
    }
    case BND_CALL_CONVERT:
      return mk(w, IR_CONVERT, e, 1);
    case BND_CALL_UNKNOWN:
      break;
    }
    ice("call of unknown function '%s' after a successful bind", e->call.name);
  case BND_E_TUPLE:
    return mk(w, IR_LIST, e, e->tuple.count);
  case BND_E_OBJECT:
    return mk(w, IR_OBJECT, e, 2 * e->object.count);
  case BND_E_FOR: {
    const bool obj = e->for_expr.is_object, cond = e->for_expr.cond != NULL;
    x = mk(w, IR_FOR, e, 2 + (obj ? 1u : 0u) + (cond ? 1u : 0u));
    if (e->for_expr.key_var) {
      x->sub |= IR_F_KEYVAR;
      x->a = bind_var(w, e->for_expr.key_var, ty_dynamic(w->T));
    }
    x->b = bind_var(w, e->for_expr.value_var, ty_dynamic(w->T));
    if (obj) {
      x->sub |= IR_F_OBJECT | IR_F_KEY;
      if (e->for_expr.grouping)
        x->sub |= IR_F_GROUP;
    }
    if (cond)
      x->sub |= IR_F_COND;
    return x;
  }
  case BND_E_UNARY:
    x = mk(w, IR_UNARY, e, 1);
    switch (e->unary.op) {
#define X(name, text)                                                                        \
  case AST_OP_##name:                                                                        \
    x->sub = IR_U_##name;                                                                    \
    break;
      IR_UNARY_OPS(X)
#undef X
    }
    return x;
  case BND_E_BINARY:
    switch (e->binary.op) {
    case AST_OP_AND:
      return mk(w, IR_AND, e, 2);
    case AST_OP_OR:
      return mk(w, IR_OR, e, 2);
#define X(name, text)                                                                        \
  case AST_OP_##name:                                                                        \
    x = mk(w, IR_BINARY, e, 2);                                                              \
    x->sub = IR_B_##name;                                                                    \
    return x;
      IR_BINARY_OPS(X)
#undef X
    }
    ice("binary operator %d has no IR operation", (int)e->binary.op);
  case BND_E_CONDITIONAL:
    return mk(w, IR_COND, e, 3);
  case BND_E_NUMBER:
  case BND_E_BOOL:
  case BND_E_NULL:
  case BND_E_STRING:
  case BND_E_PROPERTY:
  case BND_E_TYPE:
  case BND_E_NODE_REF:
  case BND_E_VAR_REF:
  case BND_E_FAIL:
    break;
  }
  ice("bound expression kind %d has no children", (int)e->kind);
}

/* Gives the variables a for expression binds the key and value types of
 * iterating over its collection, now that the collection is built. */
static void type_loop_vars(lw *w, const ir_expr *x) {
  const ty *k, *v;
  const ty *coll = x->kids[0]->type;
  ty_collection_types(w->T, ev_top(w, coll) ? strip_top(w, coll) : coll, &k, &v, NULL,
                      x->span, true);
  if (x->sub & IR_F_KEYVAR)
    set_slot_type(w, x->a, k);
  set_slot_type(w, x->b, v);
}

static ir_expr *build(lw *w, const bnd_expr *e);

/* Builds the arguments of the call e into its IR x: every argument of a
 * built-in, try, can and recover; an invoke's arguments object (or its
 * positional inputs, as the properties of the object build_start made) and
 * options; a method call's receiver and arguments object; the value of a
 * convert. */
static void build_call_args(lw *w, const bnd_expr *e, ir_expr *x) {
  size_t n = e->call.nargs;
  switch (e->call.kind) {
  case BND_CALL_BUILTIN:
  case BND_CALL_TRY:
  case BND_CALL_CAN:
  case BND_CALL_RECOVER:
    for (size_t i = 0; i < x->n; i++)
      x->kids[i] = build(w, e->call.args[i]);
    return;
  case BND_CALL_INVOKE: {
    size_t np = e->call.npositional;
    if (np) {
      for (size_t i = 0; i < np; i++)
        x->kids[0]->kids[2 * i + 1] = build(w, e->call.args[1 + i]);
    } else if (n >= 2) {
      x->kids[0] = build(w, e->call.args[1]);
    }
    size_t options = np ? 1 + np : 2;
    if (n > options)
      x->kids[1] = build(w, e->call.args[options]);
    return;
  }
  case BND_CALL_METHOD:
    x->kids[0] = build(w, e->call.args[0]);
    if (n >= 3)
      x->kids[1] = build(w, e->call.args[2]);
    return;
  case BND_CALL_CONVERT:
    x->kids[0] = build(w, e->call.args[0]);
    return;
  case BND_CALL_UNKNOWN:
    return;
  }
}

/* Builds the children of e into its IR x, in source order; the variables
 * the later children see get their types once what they range over is
 * built. */
static void build_children(lw *w, const bnd_expr *e, ir_expr *x) {
  switch (e->kind) {
  case BND_E_TEMPLATE:
    for (size_t i = 0; i < e->tmpl.count; i++)
      x->kids[i] = build(w, e->tmpl.parts[i]);
    return;
  case BND_E_TEMPLATE_IF:
    x->kids[0] = build(w, e->tif.cond);
    x->kids[1] = build(w, e->tif.then);
    if (e->tif.else_)
      x->kids[2] = build(w, e->tif.else_);
    return;
  case BND_E_TEMPLATE_FOR:
    x->kids[0] = build(w, e->tfor.collection);
    type_loop_vars(w, x);
    x->kids[1] = build(w, e->tfor.body);
    return;
  case BND_E_GET_ATTR:
    x->kids[0] = build(w, e->get_attr.object);
    return;
  case BND_E_INDEX:
    x->kids[0] = build(w, e->index.collection);
    x->kids[1] = build(w, e->index.key);
    return;
  case BND_E_SPLAT:
    x->kids[0] = build(w, e->splat.source);
    set_slot_type(w, x->a, ty_splat_item(w->T, x->kids[0]->type));
    x->kids[1] = build(w, e->splat.each);
    return;
  case BND_E_CALL:
    build_call_args(w, e, x);
    return;
  case BND_E_TUPLE:
    for (size_t i = 0; i < e->tuple.count; i++)
      x->kids[i] = build(w, e->tuple.items[i]);
    return;
  case BND_E_OBJECT:
    /* The key expression, not `literal`: a quoted key may hold NUL bytes. */
    for (size_t i = 0; i < e->object.count; i++) {
      x->kids[2 * i] = build(w, e->object.items[i].key);
      x->kids[2 * i + 1] = build(w, e->object.items[i].value);
    }
    return;
  case BND_E_FOR: {
    x->kids[0] = build(w, e->for_expr.collection);
    type_loop_vars(w, x);
    x->kids[1] = build(w, e->for_expr.value);
    const bnd_expr *rest[2] = {e->for_expr.is_object ? e->for_expr.key : e->for_expr.cond,
                               e->for_expr.is_object ? e->for_expr.cond : NULL};
    for (size_t i = 0; i < 2 && rest[i]; i++)
      x->kids[2 + i] = build(w, rest[i]);
    return;
  }
  case BND_E_UNARY:
    x->kids[0] = build(w, e->unary.operand);
    return;
  case BND_E_BINARY:
    x->kids[0] = build(w, e->binary.lhs);
    x->kids[1] = build(w, e->binary.rhs);
    return;
  case BND_E_CONDITIONAL:
    x->kids[0] = build(w, e->cond.cond);
    x->kids[1] = build(w, e->cond.then);
    x->kids[2] = build(w, e->cond.else_);
    return;
  case BND_E_NUMBER:
  case BND_E_BOOL:
  case BND_E_NULL:
  case BND_E_STRING:
  case BND_E_PROPERTY:
  case BND_E_TYPE:
  case BND_E_NODE_REF:
  case BND_E_VAR_REF:
  case BND_E_FAIL:
    return;
  }
}

/* Returns invoke x with the option name = value (a string) added to its
 * options object unless the program sets that option itself.  Options
 * written as something other than an object literal are left as they are. */
static void invoke_option(lw *w, ir_expr *x, const char *name, const char *value) {
  ir_expr *opts = x->n > 1 ? x->kids[1] : NULL;
  if (opts && opts->op != IR_OBJECT)
    return;
  for (size_t i = 0; opts && i + 1 < opts->n; i += 2) {
    if (is_string_const(opts->kids[i]) && strcmp(opts->kids[i]->text, name) == 0)
      return;
  }
  size_t n = opts ? opts->n : 0;
  ir_expr *o = mk(w, IR_OBJECT, NULL, n + 2);
  o->span = opts ? opts->span : x->span;
  for (size_t i = 0; i < n; i++)
    o->kids[i] = opts->kids[i];
  o->kids[n] = mk_string(w, x->span, name, strlen(name));
  o->kids[n + 1] = mk_string(w, x->span, value, strlen(value));
  o->type = retype(w, o);
  if (x->n < 2) {
    ir_expr **kids = ARENA_NEW_ARRAY(w->L->arena, ir_expr *, 2);
    kids[0] = x->kids[0];
    x->kids = kids;
    x->n = 2;
  }
  x->kids[1] = o;
}

static ir_expr *const_of(lw *w, const ty *t, pcl_span span);

/* Returns the arguments object args of an invoke of fn with the schema
 * defaults of the inputs it leaves out appended, in schema order, as a
 * resource's inputs get theirs (program.md 3.7). */
static ir_expr *invoke_defaults(lw *w, ir_expr *args, const schema_function *fn) {
  size_t nextra = 0;
  ir_expr **extra = xcalloc(fn->ninputs ? fn->ninputs : 1, sizeof *extra);
  for (size_t i = 0; i < fn->ninputs; i++) {
    const char *name = fn->inputs[i].name;
    bool given = false;
    for (size_t k = 0; k + 1 < args->n && !given; k += 2) {
      const ir_expr *key = args->kids[k];
      given = key->op == IR_CONST && key->ck == IR_K_STRING && key->len == strlen(name) &&
              memcmp(key->text, name, key->len) == 0;
    }
    if (!given && (extra[i] = const_of(w, fn->inputs[i].default_value, args->span)))
      nextra++;
  }
  if (nextra > 0) {
    ir_expr **kids = ARENA_NEW_ARRAY(w->L->arena, ir_expr *, args->n + 2 * nextra);
    memcpy(kids, args->kids, args->n * sizeof *kids);
    size_t k = args->n;
    for (size_t i = 0; i < fn->ninputs; i++) {
      if (extra[i]) {
        const char *name = fn->inputs[i].name;
        kids[k++] = mk_string(w, args->span, name, strlen(name));
        kids[k++] = extra[i];
      }
    }
    args->kids = kids;
    args->n = k;
  }
  free(extra);
  return args;
}

/* Completes x, the IR of e, once its children are built: its type, and the
 * special cases that need them. */
static ir_expr *build_finish(lw *w, const bnd_expr *e, ir_expr *x) {
  if (e->kind == BND_E_CALL && e->call.kind == BND_CALL_CONVERT) {
    const ty *to = e->call.nargs >= 2 && e->call.args[1]->kind == BND_E_TYPE
                       ? e->call.args[1]->type_expr.denoted
                       : e->type;
    int target = convert_target(ty_strip_eventual(to));
    if (target < 0)
      return x->kids[0]; /* A conversion to a structure: the value as it is. */
    x->sub = (unsigned)target;
  }
  if (e->kind == BND_E_CALL && e->call.kind == BND_CALL_INVOKE) {
    const schema_function *fn = e->call.function;
    if (fn && x->kids[0]->op == IR_OBJECT)
      invoke_defaults(w, x->kids[0], fn);
    if (x->kids[0]->op == IR_OBJECT)
      x->kids[0]->type = retype(w, x->kids[0]);
    /* The package version and download URL pick the default provider, as
       for resources. */
    if (fn && fn->pkg && fn->pkg->version)
      invoke_option(w, x, "version", fn->pkg->version);
    if (fn && fn->pkg && fn->pkg->plugin_download_url)
      invoke_option(w, x, "pluginDownloadUrl", fn->pkg->plugin_download_url);
  }
  x->type = retype(w, x);
  return e->target ? convert_to(w, x, e->target) : x;
}

/* Returns the IR of e with stand types (pass 1 of the file header). */
static ir_expr *build(lw *w, const bnd_expr *e) {
  ir_expr *x = build_leaf(w, e);
  if (!x) {
    if (too_deep(w, e->span))
      return mk_null(w, e->span);
    x = build_start(w, e);
    build_children(w, e, x);
    return build_finish(w, e, x);
  }
  return e->target ? convert_to(w, x, e->target) : x;
}

/* ----------------------------------------------------------------- applies */

/* How an operation needs the value of one of its children. */
typedef enum need {
  NEED_NONE,  /* Kept as it is (a constructor's element): eventual is fine. */
  NEED_TOP,   /* Read at the top: must not be eventual there. */
  NEED_DEEP,  /* Read through: must hold no eventual value anywhere. */
  NEED_STAND, /* Lowered where it stands (runs on its own or takes futures). */
} need;

/* How x needs child i; `inherited` is what x's own parent needs of x
 * (constructors pass it on to their elements). */
static need child_need(const ir_expr *x, size_t i, need inherited) {
  switch (x->op) {
  case IR_ATTR:
  case IR_INDEX:
  case IR_TEMPLATE:
  case IR_UNARY:
  case IR_CONVERT:
    return NEED_TOP;
  case IR_LIST:
    return inherited == NEED_STAND ? NEED_NONE : inherited;
  case IR_OBJECT:
    return i % 2 == 0 ? NEED_TOP : inherited == NEED_STAND ? NEED_NONE : inherited;
  case IR_BINARY:
    switch ((ir_binary_op)x->sub) {
    case IR_B_EQ:
    case IR_B_NE:
      return NEED_DEEP;
    case IR_B_LT:
    case IR_B_LE:
    case IR_B_GT:
    case IR_B_GE:
    case IR_B_ADD:
    case IR_B_SUB:
    case IR_B_MUL:
    case IR_B_DIV:
    case IR_B_MOD:
      return NEED_TOP;
    }
    return NEED_TOP;
  case IR_AND:
  case IR_OR:
    /* && and || take their operands as they are (pcl_gen_logic), so that
       the deciding side wins over a failure of the other. */
    return NEED_STAND;
  case IR_COND:
  case IR_FOR:
  case IR_SPLAT:
    return i == 0 ? NEED_TOP : NEED_STAND;
  case IR_CALL:
    return NEED_DEEP;
  case IR_APPLY:
  case IR_SECRET:
  case IR_UNSECRET:
  case IR_GET_OUTPUT:
  case IR_RESOURCE_EXISTS:
  case IR_INVOKE:
  case IR_METHOD:
  case IR_TRY:
  case IR_CAN:
  case IR_RECOVER:
  case IR_CONST:
  case IR_NODE:
  case IR_VAR:
  case IR_PARAM:
  case IR_PATH:
  case IR_FAIL:
    return NEED_STAND;
  }
  return NEED_STAND;
}

/* Whether a child of type t that is needed as n must be resolved first. */
static bool must_resolve(const lw *w, need n, const ir_expr *c) {
  switch (n) {
  case NEED_TOP:
    return ev_top(w, c->type);
  case NEED_DEEP:
    return ev_any(w, c->type);
  case NEED_NONE:
  case NEED_STAND:
    return false;
  }
  return false;
}

/* Whether x, lowered where it stands, observes an eventual value: one of
 * its children must be resolved before x's operation can run. */
static bool observes(const lw *w, const ir_expr *x) {
  for (size_t i = 0; i < x->n; i++) {
    if (must_resolve(w, child_need(x, i, NEED_STAND), x->kids[i]))
      return true;
  }
  return false;
}

/* Whether x is a literal index key of a static traversal. */
static bool path_key(const ir_expr *k) {
  return k->op == IR_CONST && (k->ck == IR_K_STRING || k->ck == IR_K_INT);
}

/* Whether k can be the computed key of a traversal step: a static
 * traversal (a node or variable, then attributes and literal indexes) with
 * nothing eventual on it, such as `range.value` or a for expression's key.
 * Such a key is at hand where the traversal stands, so the traversal is
 * followed step by step as one with literal keys is: indexing a family of
 * resources waits for the instance reached, not for all of them. */
static bool path_keyed(const lw *w, const ir_expr *k) {
  for (const ir_expr *y = k;; y = y->kids[0]) {
    if (ev_any(w, y->type))
      return false;
    if (y->op == IR_NODE || y->op == IR_VAR)
      return true;
    if (y->op != IR_ATTR && !(y->op == IR_INDEX && path_key(y->kids[1])))
      return false;
  }
}

/* Whether x is an index step of a static traversal. */
static bool path_index(const lw *w, const ir_expr *x) {
  return x->op == IR_INDEX && (path_key(x->kids[1]) || path_keyed(w, x->kids[1]));
}

/* Returns the number of steps of the static traversal x (attributes and
 * indexes by literal or computed keys, see path_keyed, down to a node or
 * variable) when something on it may be eventual, else 0. */
static size_t path_steps(const lw *w, const ir_expr *x) {
  size_t n = 0;
  bool ev = false;
  const ir_expr *y = x;
  for (;;) {
    ev = ev || ev_top(w, y->type);
    if (y->op == IR_ATTR || path_index(w, y)) {
      n++;
      y = y->kids[0];
    } else if (y->op == IR_NODE || y->op == IR_VAR) {
      return ev ? n : 0;
    } else {
      return 0;
    }
  }
}

/* Appends the deduplication text of one traversal step to k: `.` for an
 * attribute, `[` for an index, then a string key length-prefixed or an int
 * key's digits. */
static void key_step(pcl__buf *k, bool index, const char *text, size_t len, bool string) {
  if (string) {
    pcl__buf_printf(k, "%c%zu:", index ? '[' : '.', len);
    pcl__buf_append(k, text, len);
  } else {
    pcl__buf_printf(k, "[%s", text);
  }
}

/* Returns the deduplication key of the reference or static traversal x
 * (interned: the root, then each step), or NULL when the stack has no room
 * for the traversals in its keys. */
static const char *ref_key(lw *w, const ir_expr *x) {
  if (too_deep(w, x->span))
    return NULL;
  /* The steps are met from the last to the first: collect, then write. */
  size_t n = 0;
  const ir_expr *y = x;
  for (; y->op == IR_ATTR || y->op == IR_INDEX || y->op == IR_PATH; y = y->kids[0])
    n += y->op == IR_PATH ? y->nsteps : 1;
  pcl__buf k = PCL__BUF_INIT;
  pcl__buf_printf(&k, "%c%u", y->op == IR_NODE ? 'n' : 'v', (unsigned)y->a);
  const ir_expr **at = xmalloc((n ? n : 1) * sizeof *at);
  size_t *step = xmalloc((n ? n : 1) * sizeof *step);
  size_t i = n;
  for (y = x; y->op == IR_ATTR || y->op == IR_INDEX || y->op == IR_PATH; y = y->kids[0]) {
    size_t m = y->op == IR_PATH ? y->nsteps : 1;
    for (size_t j = m; j-- > 0;) {
      at[--i] = y;
      step[i] = j;
    }
  }
  const char *inner = "";
  for (i = 0; i < n && inner; i++) {
    const ir_expr *s = at[i];
    if (s->op == IR_ATTR) {
      key_step(&k, false, s->s, strlen(s->s), true);
    } else {
      const ir_expr *key = s->op == IR_PATH ? s->steps[step[i]].key : s->kids[1];
      bool index = s->op == IR_PATH ? s->steps[step[i]].index : true;
      if (path_key(key)) {
        key_step(&k, index, key->text, key->ck == IR_K_STRING ? key->len : 0,
                 key->ck == IR_K_STRING);
      } else {
        inner = ref_key(w, key); /* A computed key (path_keyed). */
        if (inner)
          pcl__buf_printf(&k, "[{%s}", inner);
      }
    }
  }
  free(at);
  free(step);
  const char *r = inner ? intern_n(w->L->names, k.data ? k.data : "", k.len) : NULL;
  pcl__buf_free(&k);
  return r;
}

/* Returns the PATH of the static traversal x of nsteps steps. */
/* Returns the discriminator of the object types objs[0..n): a property
 * that every one of them has, typed with a distinct string constant in
 * each; NULL when there is none. */
static const char *discriminator(const ty *const *objs, size_t n) {
  for (size_t p = 0; n > 1 && p < objs[0]->object.count; p++) {
    const char *name = objs[0]->object.props[p].name;
    bool ok = true;
    for (size_t i = 0; ok && i < n; i++) {
      const ty *v = ty_object_get(objs[i], name);
      ok = v && v->kind == TY_CONST && v->cnst.base->kind == TY_STRING;
      for (size_t j = 0; ok && j < i; j++)
        ok = strcmp(ty_object_get(objs[j], name)->cnst.text, v->cnst.text) != 0;
    }
    if (ok)
      return name;
  }
  return NULL;
}

/* Fills s's discriminated-union fields (see ir_step) when a value of type t
 * is one of the objects of a discriminated union and name is declared by
 * some of them: which one it is, and so whether a missing name is null or
 * an error, is known only from the value (its discriminator). */
static void declared_by_member(lw *w, const ty *t, const char *name, ir_step *s) {
  t = strip_top(w, t);
  if (t->kind != TY_UNION)
    return;
  const ty **objs = xmalloc(t->elems.count * sizeof *objs);
  size_t n = 0;
  for (size_t i = 0; i < t->elems.count; i++) {
    const ty *m = t->elems.items[i];
    if (m->kind == TY_OBJECT && m->object.defined) {
      objs[n++] = m;
    } else if (m->kind != TY_NONE && !(m->kind == TY_CONST && m->cnst.base->kind == TY_NONE)) {
      n = 0;
      break;
    }
  }
  const char *disc = n > 1 ? discriminator(objs, n) : NULL;
  if (disc) {
    const char **members = ARENA_NEW_ARRAY(w->L->arena, const char *, n);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
      if (ty_object_get(objs[i], name))
        members[k++] = ty_object_get(objs[i], disc)->cnst.text;
    }
    if (k == n) {
      s->declared = true;
    } else {
      s->disc = disc;
      s->members = members;
      s->nmembers = k;
    }
  }
  free(objs);
}

static ir_expr *make_path(lw *w, ir_expr *x, size_t nsteps) {
  size_t nkeyed = 0;
  ir_expr *y = x;
  for (size_t i = nsteps; i-- > 0; y = y->kids[0])
    nkeyed += y->op == IR_INDEX && !path_key(y->kids[1]);
  ir_expr *p = mk(w, IR_PATH, NULL, 1 + nkeyed);
  p->span = x->span;
  p->bound_type = x->bound_type;
  p->steps = ARENA_NEW_ARRAY(w->L->arena, ir_step, nsteps);
  p->nsteps = nsteps;
  y = x;
  for (size_t i = nsteps; i-- > 0; y = y->kids[0]) {
    ir_step *s = &p->steps[i];
    s->index = y->op == IR_INDEX;
    s->keyed = s->index && !path_key(y->kids[1]);
    if (s->keyed)
      p->kids[nkeyed--] = y->kids[1]; /* Keys are children in step order. */
    s->key = s->index ? y->kids[1] : mk_string(w, y->span, y->s, strlen(y->s));
    s->declared = y->declared;
    if (!s->declared && is_string_const(s->key))
      declared_by_member(w, y->kids[0]->type, s->key->text, s);
  }
  p->kids[0] = y;
  /* The value at the end, eventual when anything on the way is. */
  bool ev = false;
  for (y = x; y != p->kids[0]; y = y->kids[0])
    ev = ev || ev_top(w, y->type);
  ev = ev || ev_top(w, p->kids[0]->type);
  const ty *end = x->type;
  p->type = ev ? eventual_of(w, ev_top(w, end) ? strip_top(w, end) : end) : end;
  return p;
}

/* The arguments an APPLY collects while its body is lowered. */
typedef struct actx {
  ir_expr **args;   /* The arguments, lowered where they stand. */
  size_t n, cap;    /* Arguments used and allocated. */
  ptrmap by_key;    /* Interned deduplication key -> argument index + 1. */
  ir_expr **params; /* Every PARAM made, to number their slots. */
  size_t np, capp;  /* PARAMs used and allocated. */
} actx;

/* Returns a PARAM of A for arg (reusing the argument of an equal key). */
static ir_expr *param(lw *w, actx *A, ir_expr *arg, const char *key, pcl_span span) {
  size_t i = key ? (size_t)(uintptr_t)ptrmap_get(&A->by_key, key) : 0;
  if (i == 0) {
    PCL__GROW(A->args, A->cap, A->n + 1);
    A->args[A->n++] = arg;
    i = A->n;
    if (key)
      ptrmap_put(&A->by_key, key, (void *)(uintptr_t)i);
  }
  ir_expr *p = mk(w, IR_PARAM, NULL, 0);
  p->span = span;
  p->a = (uint32_t)(i - 1); /* Numbered into a slot when the apply is made. */
  p->type = resolved(w, A->args[i - 1]->type);
  PCL__GROW(A->params, A->capp, A->np + 1);
  A->params[A->np++] = p;
  return p;
}

/* Returns body wrapped in the APPLY of the arguments A collected (body
 * itself when there are none) and frees A. */
static ir_expr *wrap(lw *w, actx *A, ir_expr *body) {
  ir_expr *x = body;
  if (A->n > 0) {
    x = mk(w, IR_APPLY, NULL, A->n + 1);
    x->span = body->span;
    x->bound_type = body->bound_type;
    /* An output when some argument is one (lowering.md 2.1), else a
       promise. */
    bool output = false;
    for (size_t i = 0; i < A->n; i++) {
      const ty *t = A->args[i]->type;
      bool o = false;
      ty_contains_eventuals(t, &o, NULL);
      output = output || o || (ev_top(w, t) && t->kind != TY_PROMISE);
      x->kids[i] = A->args[i];
    }
    x->kids[A->n] = body;
    x->a = w->next_slot;
    for (size_t i = 0; i < A->n; i++)
      bind_var(w, NULL, resolved(w, A->args[i]->type));
    for (size_t i = 0; i < A->np; i++)
      A->params[i]->a += x->a;
    const ty *r = ev_top(w, body->type) ? strip_top(w, body->type) : body->type;
    x->type = output ? ty_output(w->T, r) : ty_promise(w->T, r);
  }
  free(A->args);
  free(A->params);
  ptrmap_free(&A->by_key);
  free(A);
  return x;
}

static ir_expr *applies(lw *w, ir_expr *x);

/* Lowers x inside the body of the apply A, its parent needing it as
 * inherited: each child by what x needs of it. */
static ir_expr *inside(lw *w, actx *A, ir_expr *x, need inherited);

/* Lowers child c of an expression inside the body of the apply A, the
 * expression needing it as n: where it stands when it runs on its own or
 * stays eventual (a constructor's eventual element), as a PARAM of A when
 * it must be resolved first (a static traversal through eventual values as
 * its PATH), else inside the body. */
static ir_expr *inside_child(lw *w, actx *A, ir_expr *c, need n) {
  if (n == NEED_STAND)
    return applies(w, c);
  size_t steps = path_steps(w, c);
  if (steps > 0 && n != NEED_NONE)
    return param(w, A, make_path(w, c, steps), ref_key(w, c), c->span);
  if (n == NEED_NONE && ev_top(w, c->type))
    return applies(w, c);
  bool constructor = c->op == IR_LIST || c->op == IR_OBJECT;
  if (ev_top(w, c->type) || (n == NEED_DEEP && ev_any(w, c->type) && !constructor)) {
    const char *key = c->op == IR_NODE || c->op == IR_VAR ? ref_key(w, c) : NULL;
    return param(w, A, applies(w, c), key, c->span);
  }
  return inside(w, A, c, n);
}

static ir_expr *inside(lw *w, actx *A, ir_expr *x, need inherited) {
  if (too_deep(w, x->span))
    return x;
  for (size_t i = 0; i < x->n; i++)
    x->kids[i] = inside_child(w, A, x->kids[i], child_need(x, i, inherited));
  x->type = retype(w, x);
  return x;
}

/* Lowers x where it stands (pass 2 of the file header): a static traversal
 * through eventual values is a PATH; an expression that observes an
 * eventual value is the body of an APPLY; any other has its children
 * lowered where they stand. */
static ir_expr *applies(lw *w, ir_expr *x) {
  if (too_deep(w, x->span))
    return x;
  size_t steps = path_steps(w, x);
  if (steps > 0)
    return make_path(w, x, steps);
  if (observes(w, x)) {
    actx *A = xcalloc(1, sizeof *A);
    return wrap(w, A, inside(w, A, x, NEED_STAND));
  }
  for (size_t i = 0; i < x->n; i++)
    x->kids[i] = applies(w, x->kids[i]);
  x->type = retype(w, x);
  return x;
}

/* Lowers the bound expression e where it stands: built, then applies. */
static ir_expr *lower(lw *w, const bnd_expr *e) { return applies(w, build(w, e)); }

/* -------------------------------------------------------------------- nodes */

/* Returns the constant of a const type (a schema default), or NULL. */
static ir_expr *const_of(lw *w, const ty *t, pcl_span span) {
  if (t == NULL || t->kind != TY_CONST)
    return NULL;
  ir_expr *x = mk(w, IR_CONST, NULL, 0);
  x->span = span;
  x->type = t;
  switch (ty_value_kind_of(t)) {
  case TY_V_BOOL:
    x->ck = IR_K_BOOL;
    x->boolean = t->cnst.boolean;
    return x;
  case TY_V_INT: {
    char *digits = mpz_get_str(NULL, 10, t->cnst.integer);
    x->ck = IR_K_INT;
    x->text = arena_strdup(w->L->arena, digits);
    free(digits);
    return x;
  }
  case TY_V_NUMBER:
    x->ck = IR_K_NUMBER;
    x->number = t->cnst.number;
    x->text = arena_printf(w->L->arena, "%.17g", t->cnst.number);
    return x;
  case TY_V_STRING:
    x->ck = IR_K_STRING;
    x->text = t->cnst.text;
    x->len = t->cnst.len;
    return x;
  case TY_V_NULL:
    x->ck = IR_K_NULL;
    return x;
  }
  return NULL;
}

/* Returns the OBJECT of the attributes but the one at omit (SIZE_MAX for
 * none), with the constructor's type.  With a schema (program.md 3.7):
 * secret inputs are marked secret, and inputs with a schema default that
 * the program leaves out get the default, after the attributes in schema
 * order.  Each attribute names the schema property it sets (the binder
 * found it), so the cost is attributes plus schema inputs. */
static ir_expr *lower_attrs(lw *w, const bnd_attrs *attrs, size_t omit, pcl_span span,
                            const schema_resource *res) {
  size_t ninputs = res ? res->ninputs : 0;
  bool *given = xcalloc(ninputs ? ninputs : 1, sizeof *given);
  for (size_t i = 0; i < attrs->count; i++) {
    const schema_property *p = attrs->items[i].property;
    if (i != omit && res && p)
      given[p - res->inputs] = true;
  }
  ir_expr **defaults = xcalloc(ninputs ? ninputs : 1, sizeof *defaults);
  size_t ndefaults = 0;
  for (size_t i = 0; i < ninputs; i++) {
    defaults[i] = given[i] ? NULL : const_of(w, res->inputs[i].default_value, span);
    ndefaults += defaults[i] != NULL;
  }
  ir_expr *x = mk(w, IR_OBJECT, NULL, 2 * (attrs->count - (omit < attrs->count) + ndefaults));
  x->span = span;
  size_t k = 0;
  for (size_t i = 0; i < attrs->count; i++) {
    if (i == omit)
      continue;
    const bnd_attr *a = &attrs->items[i];
    ir_expr *v = applies(w, convert_to(w, build(w, a->value), a->expected));
    if (res && a->property && a->property->secret) {
      ir_expr *sv = mk(w, IR_SECRET, a->value, 1);
      sv->kids[0] = v;
      sv->type = retype(w, sv);
      v = sv;
    }
    x->kids[k] = mk_string(w, a->name_span, a->name, strlen(a->name));
    x->kids[k + 1] = v;
    k += 2;
  }
  for (size_t i = 0; i < ninputs; i++) {
    if (defaults[i]) {
      const char *name = res->inputs[i].name;
      x->kids[k++] = mk_string(w, span, name, strlen(name));
      x->kids[k++] = defaults[i];
    }
  }
  x->type = retype(w, x);
  free(defaults);
  free(given);
  return x;
}

/* Returns the OBJECT of a block's options (all but range, which the node
 * keeps apart), or NULL when the block has no options block. */
static ir_expr *lower_options(lw *w, const bnd_options *o) {
  if (!o->present)
    return NULL;
  size_t n = 0;
  for (int i = 0; i < BND_OPT_COUNT; i++)
    n += o->opt[i] && i != BND_OPT_RANGE;
  ir_expr *x = mk(w, IR_OBJECT, NULL, 2 * n);
  x->span = o->span;
  size_t k = 0;
  for (int i = 0; i < BND_OPT_COUNT; i++) {
    if (!o->opt[i] || i == BND_OPT_RANGE)
      continue;
    const char *name = bnd_option_name((bnd_option)i);
    x->kids[k++] = mk_string(w, o->opt_span[i], name, strlen(name));
    x->kids[k++] = lower(w, o->opt[i]);
  }
  x->type = retype(w, x);
  return x;
}

/* Returns the options object opts (NULL for none) with the string values
 * values[0..n) appended to its list option name (created when absent),
 * each unless the list holds it already.  An option written as something
 * other than a list literal is left as it is.  The object and the list are
 * typed once, whatever n is. */
static ir_expr *append_option(lw *w, ir_expr *opts, const char *name, const char *const *values,
                              size_t n, pcl_span span) {
  if (n == 0)
    return opts;
  size_t nopts = opts ? opts->n : 0, at = nopts;
  const ir_expr *old = NULL;
  for (size_t i = 0; i + 1 < nopts; i += 2) {
    const ir_expr *k = opts->kids[i];
    if (is_string_const(k) && strcmp(k->text, name) == 0) {
      old = opts->kids[i + 1];
      at = i;
      break;
    }
  }
  if (old && old->op != IR_LIST)
    return opts;
  size_t have = old ? old->n : 0;
  ir_expr *l = mk(w, IR_LIST, NULL, have + n);
  l->span = old ? old->span : span;
  l->n = 0;
  for (size_t j = 0; j < have; j++)
    l->kids[l->n++] = old->kids[j];
  /* The strings of the list so far, by interned text, so that each value
     is looked up once. */
  ptrmap listed = {0};
  for (size_t j = 0; j < l->n; j++) {
    if (is_string_const(l->kids[j]))
      ptrmap_put(&listed, intern(w->L->names, l->kids[j]->text), l->kids[j]);
  }
  for (size_t i = 0; i < n; i++) {
    const char *v = intern(w->L->names, values[i]);
    if (!ptrmap_get(&listed, v)) {
      l->kids[l->n] = mk_string(w, span, values[i], strlen(values[i]));
      ptrmap_put(&listed, v, l->kids[l->n++]);
    }
  }
  ptrmap_free(&listed);
  if (l->n == have)
    return opts;
  l->type = retype(w, l);
  ir_expr *o = mk(w, IR_OBJECT, NULL, at < nopts ? nopts : nopts + 2);
  o->span = opts ? opts->span : span;
  for (size_t i = 0; i < nopts; i++)
    o->kids[i] = opts->kids[i];
  if (at == nopts)
    o->kids[at] = mk_string(w, span, name, strlen(name));
  o->kids[at + 1] = l;
  o->type = retype(w, o);
  return o;
}

/* Returns the LIST of the names of the deferred inputs among attrs (the
 * inputs of a component that read components evaluated after it, which its
 * registration leaves out: program.md 10.4), located at span, or NULL when
 * there are none. */
static ir_expr *deferred_inputs(lw *w, const bnd_attrs *attrs, pcl_span span) {
  size_t n = 0;
  for (size_t i = 0; i < attrs->count; i++)
    n += attrs->items[i].deferred;
  if (n == 0)
    return NULL;
  ir_expr *l = mk(w, IR_LIST, NULL, n);
  l->span = span;
  l->n = 0;
  for (size_t i = 0; i < attrs->count; i++) {
    const bnd_attr *a = &attrs->items[i];
    if (a->deferred)
      l->kids[l->n++] = mk_string(w, a->name_span, a->name, strlen(a->name));
  }
  l->type = retype(w, l);
  return l;
}

/* The type of the `range` variable for the lowered range expression r.
 * The instances are made once the range has settled at the top only, so
 * the elements of a range that stands eventual stand eventual too: the
 * value an apply computed may still hold the futures, secrets or unknowns
 * of its elements (a for expression over a config whose body reads an
 * output), which its type, resolved to the elements, does not show. */
static const ty *range_var_type(lw *w, const ir_expr *r, bnd_range_kind kind) {
  ty_ctx *T = w->T;
  if (kind == BND_RANGE_COUNT) {
    ty_prop p = {intern(w->L->names, "value"), ty_int(T)};
    return ty_object(T, 1, &p);
  }
  const ty *k, *v;
  bool ev = ev_top(w, r->type);
  ty_collection_types(T, ev ? strip_top(w, r->type) : r->type, &k, &v, NULL, r->span, true);
  if (ev)
    v = eventual_of(w, v);
  ty_prop p[2] = {{intern(w->L->names, "key"), k}, {intern(w->L->names, "value"), v}};
  return ty_object(T, 2, p);
}

/* The type of references to a resource-like node of instance type r and
 * range kind, whose range expression (lowered) is range: an untyped
 * instance is a future typed dynamic, so it is output(dynamic) here. */
static const ty *instance_ref_type(lw *w, const ty *r, bnd_range_kind kind, const ir_expr *range) {
  ty_ctx *T = w->T;
  if (r->kind == TY_DYNAMIC)
    r = ty_output(T, r);
  const ty *t = r;
  switch (kind) {
  case BND_RANGE_NONE:
    return r;
  case BND_RANGE_BOOL:
    t = ty_optional(T, r);
    break;
  case BND_RANGE_COUNT:
  case BND_RANGE_LIST:
    t = ty_list(T, r);
    break;
  case BND_RANGE_MAP:
    t = ty_map(T, r);
    break;
  }
  return range && ev_top(w, range->type) ? ty_output(T, t) : t;
}

/* Lowers the registration of a resource, read or component node n. */
static void lower_registration(lw *w, ir_node *n, const bnd_attrs *inputs,
                               const bnd_options *opts, const bnd_var *range_var,
                               bnd_range_kind kind, bool read, const schema_resource *res) {
  if (opts->opt[BND_OPT_RANGE]) {
    n->range = lower(w, opts->opt[BND_OPT_RANGE]);
    n->range_slot = bind_var(w, range_var, range_var ? range_var_type(w, n->range, kind)
                                                     : ty_dynamic(w->T));
  }
  /* A read's id is its value, the other attributes its inputs; the binder
     made sure it has one. */
  size_t id = SIZE_MAX;
  for (size_t i = 0; read && i < inputs->count && id == SIZE_MAX; i++) {
    if (strcmp(inputs->items[i].name, "id") == 0)
      id = i;
  }
  if (id != SIZE_MAX)
    n->value = lower(w, inputs->items[id].value);
  n->inputs = lower_attrs(w, inputs, id, n->span, res);
  n->options = lower_options(w, opts);
  if (res) {
    /* program.md 3.7 step 4: the schema's secret outputs and
       replaceOnChanges inputs are appended to the options. */
    size_t most = res->noutputs > res->ninputs ? res->noutputs : res->ninputs, m = 0;
    const char **names = xmalloc((most ? most : 1) * sizeof *names);
    for (size_t i = 0; i < res->noutputs; i++) {
      if (res->outputs[i].secret)
        names[m++] = res->outputs[i].name;
    }
    n->options = append_option(w, n->options, "additionalSecretOutputs", names, m, n->span);
    m = 0;
    for (size_t i = 0; i < res->ninputs; i++) {
      if (res->inputs[i].replace_on_changes)
        names[m++] = res->inputs[i].name;
    }
    n->options = append_option(w, n->options, "replaceOnChanges", names, m, n->span);
    free(names);
  }
}

/* components:index:<DeclarationName> of a component source directory. */
static const char *component_token(lw *w, const char *source) {
  size_t blen;
  const char *base = path_base(source, &blen);
  pcl__buf t = PCL__BUF_INIT;
  pcl__buf_puts(&t, "components:index:");
  bool up = true;
  for (size_t i = 0; i < blen; i++) {
    char c = base[i];
    if (c == '-' || c == '.' || c == ' ') {
      up = true;
      continue;
    }
    if (up && c >= 'a' && c <= 'z')
      c = (char)(c - 'a' + 'A');
    up = false;
    pcl__buf_putc(&t, c);
  }
  const char *r = arena_strndup(w->L->arena, t.data, t.len);
  pcl__buf_free(&t);
  return r;
}

/* A component program waiting to be lowered into its module. */
typedef struct pending {
  const bnd_program *p; /* The program. */
  ir_module *m;         /* Its module, allocated when it was met. */
} pending;

/* The component programs waiting to be lowered. */
typedef struct worklist {
  pending *items; /* In the order they were met. */
  size_t n, cap;  /* Used and allocated. */
  size_t next;    /* The next one to lower. */
} worklist;

/* Returns a new module for component program p, queued in q. */
static ir_module *queue_module(lower_ctx *L, worklist *q, const bnd_program *p) {
  ir_module *m = ARENA_NEW(L->arena, ir_module);
  m->index = L->nmodules++;
  PCL__GROW(q->items, q->cap, q->n + 1);
  q->items[q->n++] = (pending){p, m};
  return m;
}

/* Returns the bool setting e of a hook (NULL: false), converted to bool. */
static ir_expr *hook_setting(lw *w, const bnd_expr *e, pcl_span span) {
  if (e)
    return applies(w, convert_to(w, build(w, e), ty_bool(w->T)));
  ir_expr *x = mk(w, IR_CONST, NULL, 0);
  x->span = span;
  x->ck = IR_K_BOOL;
  x->boolean = false;
  x->type = ty_bool(w->T);
  return x;
}

/* Lowers hook block b into n: its value is command, a function of the
 * `args` variable (slot args_slot) that the runtime calls each time the
 * engine runs the hook; its inputs are {onDryRun, ignoreErrors}, computed
 * once where the node runs.  References to the hook are its name, which
 * the node's value becomes once the hook is registered. */
static void lower_hook(lw *w, ir_node *n, const bnd_node *b) {
  n->kind = IR_N_HOOK;
  n->error_hook = b->hook.error_hook;
  n->args_slot = bind_var(w, b->hook.args, b->hook.args->type);
  n->value = applies(w, convert_to(w, build(w, b->hook.command),
                                   ty_list(w->T, ty_string(w->T))));
  ir_expr *o = mk(w, IR_OBJECT, NULL, 4);
  o->span = b->span;
  o->kids[0] = mk_string(w, b->span, "onDryRun", 8);
  o->kids[1] = hook_setting(w, b->hook.on_dry_run, b->span);
  o->kids[2] = mk_string(w, b->span, "ignoreErrors", 12);
  o->kids[3] = hook_setting(w, b->hook.ignore_errors, b->span);
  o->type = retype(w, o);
  n->inputs = o;
  n->type = ty_output(w->T, ty_string(w->T));
}

/* Lowers node b into n. */
static void lower_node(lw *w, worklist *q, ir_node *n, const bnd_node *b) {
  n->name = b->name;
  n->logical = b->logical_name;
  n->span = b->span;
  n->type = b->type;
  switch (b->kind) {
  case BND_PULUMI:
    /* The version gate: its range is checked when the node runs, first in
       the evaluation order (bind.c's compute_order). */
    n->kind = IR_N_PULUMI;
    n->value = lower(w, b->pulumi_version);
    return;
  case BND_HOOK:
    lower_hook(w, n, b);
    return;
  case BND_LOCAL:
    n->kind = IR_N_LOCAL;
    n->value = lower(w, b->local);
    n->type = n->value->type;
    return;
  case BND_CONFIG:
    n->kind = IR_N_CONFIG;
    n->config_index = (uint32_t)w->m->nconfigs++;
    n->config_type = b->config.value_type ? b->config.value_type : b->config.decl_type;
    n->nullable = b->config.nullable;
    n->secret = b->config.secret;
    n->value = b->config.default_ ? applies(w, convert_to(w, build(w, b->config.default_),
                                                           b->config.value_type))
                                  : NULL;
    /* A config stands eventual: a component's is fed by its parent's
       inputs, which may be eventual, and any other may be made secret by
       the run's secret keys (program.md 6), which the checker's type
       cannot know.  Code reading a config thus meets a secret only through
       an apply, as it meets every other mark. */
    n->type = eventual_of(w, b->type);
    return;
  case BND_OUTPUT:
    n->kind = IR_N_OUTPUT;
    n->value = b->output.value ? applies(w, convert_to(w, build(w, b->output.value),
                                                        b->output.decl_type))
                               : mk_null(w, b->span);
    return;
  case BND_RESOURCE:
  case BND_READ: {
    const bnd_resource *r = &b->resource;
    n->kind = b->kind == BND_READ ? IR_N_READ : IR_N_RESOURCE;
    n->token = r->canonical;
    n->res_kind = r->is_component ? IR_RES_REMOTE : IR_RES_CUSTOM;
    if (r->schema && r->schema->pkg) {
      n->version = r->schema->pkg->version;
      n->plugin_download_url = r->schema->pkg->plugin_download_url;
    }
    lower_registration(w, n, &r->inputs, &r->options, r->range_var, r->range,
                       b->kind == BND_READ, b->kind == BND_READ ? NULL : r->schema);
    n->type = instance_ref_type(w, r->output_type, r->range, n->range);
    return;
  }
  case BND_COMPONENT: {
    const bnd_component *c = &b->component;
    n->kind = IR_N_COMPONENT;
    n->res_kind = IR_RES_COMPONENT;
    n->token = c->source ? component_token(w, c->source) : c->token ? c->token : "";
    lower_registration(w, n, &c->inputs, &c->options, c->range_var, c->range, false, NULL);
    if (c->program) {
      n->component = queue_module(w->L, q, c->program);
      n->deferred_inputs = deferred_inputs(w, &c->inputs, n->span);
    }
    n->type = instance_ref_type(w, c->output_type, c->range, n->range);
    return;
  }
  }
}

/* Gives module m the parameterized packages of its program p, with the
 * parameter bytes the binder decoded. */
static void lower_packages(lower_ctx *L, const bnd_program *p, ir_module *m) {
  size_t n = 0;
  for (size_t i = 0; i < p->npackages; i++)
    n += p->packages[i].param_name != NULL;
  ir_package *out = ARENA_NEW_ARRAY(L->arena, ir_package, n ? n : 1);
  m->packages = out;
  m->npackages = n;
  for (size_t i = 0; i < p->npackages; i++) {
    const bnd_package *b = &p->packages[i];
    if (b->param_name == NULL)
      continue;
    *out++ = (ir_package){.base_name = b->name,
                          .base_version = b->version,
                          .download_url = b->download_url,
                          .name = b->param_name,
                          .version = b->param_version,
                          .value = b->param_bytes ? (const char *)b->param_bytes : "",
                          .value_len = b->param_len,
                          .extension = b->extension};
  }
}

/* Lowers program p into module m, queueing its component programs. */
static void lower_module(lower_ctx *L, worklist *q, const bnd_program *p, ir_module *m) {
  m->dir = p->dir;
  lower_packages(L, p, m);
  lw w = {0};
  w.L = L;
  w.T = L->ty;
  w.p = p;
  w.m = m;
  w.pos = xcalloc(p->count ? p->count : 1, sizeof *w.pos);
  size_t count = 0;
  for (size_t i = 0; i < p->count; i++) {
    const bnd_node *b = p->order[i];
    if (b->kind == BND_PULUMI && b->pulumi_version == NULL)
      continue;
    w.pos[b->index] = (uint32_t)count++;
    if (b->kind == BND_COMPONENT && b->component.output_type->kind == TY_OBJECT)
      ptrmap_put(&L->component_types, b->component.output_type, (void *)1);
  }
  w.node_type = xcalloc(count ? count : 1, sizeof *w.node_type);
  /* Components may read each other (program.md 10.4): a component read
     before it is evaluated is a future (pcl_gen_node) of its type. */
  for (size_t i = 0; i < p->count; i++) {
    const bnd_node *b = p->order[i];
    if (b->kind == BND_COMPONENT)
      w.node_type[w.pos[b->index]] =
          eventual_of(&w, instance_ref_type(&w, b->component.output_type, b->component.range, NULL));
  }
  m->nodes = ARENA_NEW_ARRAY(L->arena, ir_node, count ? count : 1);
  m->count = count;
  size_t k = 0;
  for (size_t i = 0; i < p->count; i++) {
    const bnd_node *b = p->order[i];
    if (b->kind == BND_PULUMI && b->pulumi_version == NULL)
      continue;
    ir_node *n = &m->nodes[k];
    lower_node(&w, q, n, b);
    /* A type operation that ran out of stack is reported at the node. */
    if (ty_take_too_deep(L->ty))
      stack_report_too_deep(&L->too_deep, L->diag, b->name_span);
    w.node_type[k++] = n->type;
  }
  m->nslots = w.next_slot;
  free(w.pos);
  free(w.node_type);
  free(w.slot_type);
  ptrmap_free(&w.slots);
}

ir_module *lower_program(lower_ctx *L, const bnd_program *p) {
  ir_module *top = ARENA_NEW(L->arena, ir_module);
  top->index = L->nmodules++;
  worklist q = {0};
  lower_module(L, &q, p, top);
  while (q.next < q.n) {
    pending c = q.items[q.next++];
    lower_module(L, &q, c.p, c.m);
  }
  free(q.items);
  return top;
}
