/* lower: the bound program to the typed IR (see lower.h).
 *
 * Two mutually recursive walks: `lower` lowers an expression where it
 * stands (wrapping it in an APPLY when it observes an eventual value), and
 * `lower_body` lowers the inside of an APPLY's body, turning each eventual
 * sub-expression into a parameter of the enclosing apply (the sub-expression
 * itself, lowered by `lower`, becomes the argument; so an apply feeding an
 * outer eventual computation is a nested apply).  `structural` builds the
 * IR node of one bound expression from its lowered children and is shared
 * by both. */
#include "lower.h"

#include <gmp.h>
#include <stdlib.h>
#include <string.h>

#include "schema.h"
#include "util.h"

/* The arguments an APPLY collects while its body is lowered. */
typedef struct actx {
  ir_expr **args;            /* The arguments, lowered where they stand. */
  const char **keys;         /* Deduplication key per argument, or NULL. */
  size_t n, cap;             /* Arguments used and allocated. */
  ir_expr **params;          /* Every PARAM made, to patch their slots. */
  size_t nparams, capparams; /* PARAMs used and allocated. */
} actx;

/* A variable in scope and its slot. */
typedef struct scoped {
  const bnd_var *var; /* The bound variable. */
  uint32_t slot;      /* Its slot in the module. */
} scoped;

/* The state of lowering one program. */
typedef struct lw {
  lower_ctx *L;          /* The compilation's context. */
  const bnd_program *p;  /* The program being lowered. */
  uint32_t *pos;         /* Position in the module of each bound node, by index. */
  scoped *vars;          /* The variables in scope, innermost last. */
  size_t nvars, capvars; /* Variables in scope and allocated. */
  uint32_t next_slot;    /* The next free variable slot of the module. */
} lw;

static ir_expr *lower(lw *w, const bnd_expr *e);
static ir_expr *lower_body(lw *w, const bnd_expr *e, actx *A);
static ir_expr *convert_to(lw *w, ir_expr *x, const ty *from, const ty *to);

/* ------------------------------------------------------------------ helpers */

/* Returns a new expression op with n children to fill, typed and located as
 * the bound expression e (when not NULL). */
static ir_expr *mk(lw *w, ir_op op, const bnd_expr *e, size_t n) {
  ir_expr *x = ARENA_NEW(w->L->arena, ir_expr);
  x->op = op;
  x->type = e ? e->type : NULL;
  if (e)
    x->span = e->span;
  x->n = n;
  x->kids = n ? ARENA_NEW_ARRAY(w->L->arena, ir_expr *, n) : NULL;
  return x;
}

/* Returns the STRING constant s[0..len), located at `at` (when not NULL). */
static ir_expr *mk_string(lw *w, const bnd_expr *at, const char *s, size_t len) {
  ir_expr *x = mk(w, IR_CONST, at, 0);
  x->ck = IR_K_STRING;
  x->text = s;
  x->len = len;
  x->type = ty_string(w->L->ty);
  return x;
}

/* Brings v into scope with a fresh slot, which it returns. */
static uint32_t push_var(lw *w, const bnd_var *v) {
  if (w->nvars == w->capvars) {
    w->capvars = w->capvars ? 2 * w->capvars : 16;
    w->vars = xrealloc(w->vars, w->capvars * sizeof *w->vars);
  }
  uint32_t slot = w->next_slot++;
  w->vars[w->nvars++] = (scoped){v, slot};
  return slot;
}

/* Ends the scope of the variables pushed since there were `to`. */
static void pop_vars(lw *w, size_t to) { w->nvars = to; }

/* The slot of v, the innermost binding in scope (scopes are a few deep). */
static uint32_t var_slot(const lw *w, const bnd_var *v) {
  for (size_t i = w->nvars; i-- > 0;) {
    if (w->vars[i].var == v)
      return w->vars[i].slot;
  }
  ice("variable '%s' is not in scope", v->name);
}

/* Whether t is eventual at the top (an output, a promise, or a union with
 * such a member). */
static bool is_ev(const ty *t) {
  if (t == NULL)
    return false;
  if (t->kind == TY_OUTPUT || t->kind == TY_PROMISE)
    return true;
  if (t->kind == TY_UNION) {
    for (size_t i = 0; i < t->elems.count; i++) {
      if (t->elems.items[i]->kind == TY_OUTPUT || t->elems.items[i]->kind == TY_PROMISE)
        return true;
    }
  }
  return false;
}

/* Whether t holds an eventual anywhere. */
static bool has_ev(const ty *t) { return t && ty_contains_eventuals(t, NULL, NULL); }

/* The operation of a built-in call: SECRET and UNSECRET for secret() and
 * unsecret(), which take an eventual argument as it is, else CALL. */
static ir_op builtin_op(const bnd_expr *e) {
  if (strcmp(e->call.name, "secret") == 0)
    return IR_SECRET;
  if (strcmp(e->call.name, "unsecret") == 0)
    return IR_UNSECRET;
  return IR_CALL;
}

/* Whether the call's special form takes eventual arguments as they are. */
static bool call_accepts_eventuals(const bnd_expr *e) {
  switch (e->call.kind) {
  case BND_CALL_BUILTIN:
    return builtin_op(e) != IR_CALL;
  case BND_CALL_TRY:
  case BND_CALL_CAN:
  case BND_CALL_RECOVER:
  case BND_CALL_INVOKE:
  case BND_CALL_METHOD:
    return true;
  case BND_CALL_CONVERT:
  case BND_CALL_UNKNOWN:
    return false;
  }
  return false;
}

/* lowering.md 2.2, observesEventualValues. */
static bool observes(const bnd_expr *e) {
  if (!is_ev(e->type))
    return false;
  switch (e->kind) {
  case BND_E_CONDITIONAL:
    return has_ev(e->cond.cond->type);
  case BND_E_FOR:
    return is_ev(e->for_expr.collection->type);
  case BND_E_CALL:
    if (call_accepts_eventuals(e))
      return false;
    for (size_t i = 0; i < e->call.nargs; i++) {
      if (e->call.args[i]->kind != BND_E_TYPE && has_ev(e->call.args[i]->type))
        return true;
    }
    return false;
  case BND_E_INDEX:
    return is_ev(e->index.collection->type) || has_ev(e->index.key->type);
  case BND_E_GET_ATTR:
    return is_ev(e->get_attr.object->type);
  case BND_E_SPLAT:
    return is_ev(e->splat.source->type);
  case BND_E_NODE_REF:
  case BND_E_VAR_REF:
  case BND_E_NUMBER:
  case BND_E_BOOL:
  case BND_E_NULL:
  case BND_E_STRING:
  case BND_E_PROPERTY:
  case BND_E_TYPE:
  case BND_E_TUPLE:
  case BND_E_OBJECT:
    return false;
  case BND_E_TEMPLATE:
  case BND_E_TEMPLATE_IF:
  case BND_E_TEMPLATE_FOR:
  case BND_E_UNARY:
  case BND_E_BINARY:
    return true;
  }
  return false;
}

/* Whether e is a literal index key (part of a static traversal). */
static bool literal_key(const bnd_expr *k) {
  return k->kind == BND_E_STRING || (k->kind == BND_E_NUMBER && k->number.integral);
}

/* The longest static traversal lower_body cuts; a longer one is lowered as
 * a whole argument. */
enum { TRAVERSAL_MAX = 64 };

/* Collects the traversal parts of e from its root outwards into
 * parts[0..TRAVERSAL_MAX); returns the count, or 0 when e is not a static
 * traversal. */
static size_t traversal(const bnd_expr *e, const bnd_expr **parts) {
  size_t n = 0;
  const bnd_expr *stack[TRAVERSAL_MAX];
  for (;;) {
    if (n == TRAVERSAL_MAX)
      return 0;
    stack[n++] = e;
    if (e->kind == BND_E_GET_ATTR) {
      e = e->get_attr.object;
    } else if (e->kind == BND_E_INDEX && literal_key(e->index.key)) {
      e = e->index.collection;
    } else if (e->kind == BND_E_NODE_REF || e->kind == BND_E_VAR_REF) {
      break;
    } else {
      return 0;
    }
  }
  for (size_t i = 0; i < n; i++)
    parts[i] = stack[n - 1 - i];
  return n;
}

/* The deduplication key of the traversal parts[0..j]. */
static const char *traversal_key(lw *w, const bnd_expr *const *parts, size_t j) {
  const bnd_expr *root = parts[0];
  char *k = root->kind == BND_E_NODE_REF
                ? arena_printf(w->L->arena, "n%u", (unsigned)w->pos[root->node_ref.node->index])
                : arena_printf(w->L->arena, "v%u", (unsigned)var_slot(w, root->var_ref.var));
  for (size_t i = 1; i <= j; i++) {
    const bnd_expr *p = parts[i];
    if (p->kind == BND_E_GET_ATTR) {
      k = arena_printf(w->L->arena, "%s.%s", k, p->get_attr.name);
    } else if (p->index.key->kind == BND_E_STRING) {
      k = arena_printf(w->L->arena, "%s[\"%.*s\"]", k, (int)p->index.key->string.len,
                       p->index.key->string.text);
    } else {
      k = arena_printf(w->L->arena, "%s[%s]", k, p->index.key->number.digits);
    }
  }
  return k;
}

/* Adds an argument to A (reusing an equal traversal) and returns a PARAM
 * for it. */
static ir_expr *add_arg(lw *w, actx *A, const bnd_expr *at, ir_expr *arg, const char *key) {
  size_t i = 0;
  for (; key && i < A->n; i++) {
    if (A->keys[i] && strcmp(A->keys[i], key) == 0)
      break;
  }
  if (!key || i == A->n) {
    if (A->n == A->cap) {
      A->cap = A->cap ? 2 * A->cap : 4;
      A->args = xrealloc(A->args, A->cap * sizeof *A->args);
      A->keys = xrealloc(A->keys, A->cap * sizeof *A->keys);
    }
    i = A->n++;
    A->args[i] = arg;
    A->keys[i] = key;
  }
  ir_expr *p = mk(w, IR_PARAM, at, 0);
  p->type = ty_resolve_outputs(w->L->ty, ty_resolve_promises(w->L->ty, arg->type));
  p->a = (uint32_t)i; /* Patched into a slot when the apply is built. */
  if (A->nparams == A->capparams) {
    A->capparams = A->capparams ? 2 * A->capparams : 4;
    A->params = xrealloc(A->params, A->capparams * sizeof *A->params);
  }
  A->params[A->nparams++] = p;
  return p;
}

/* --------------------------------------------------------------- structure */

/* Lowers child c of an expression: inside an apply body when A is set. */
static ir_expr *sub(lw *w, const bnd_expr *c, actx *A) {
  return A ? lower_body(w, c, A) : lower(w, c);
}

/* The primitive a value of type t converts to (IR_C_NONE when t is not a
 * primitive type). */
static ir_convert convert_target(const ty *t) {
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
    return IR_C_NONE;
  }
  return IR_C_NONE;
}

/* Returns the primitive conversion target of t seen through eventual and
 * optional layers: a union whose members all are (eventual or optional
 * forms of) one primitive, as InputType(bool) is, gives that primitive. */
static ir_convert primitive_of(const ty *t) {
  t = ty_strip_eventual(t);
  if (t->kind != TY_UNION)
    return convert_target(t);
  ir_convert found = IR_C_NONE;
  for (size_t i = 0; i < t->elems.count; i++) {
    const ty *m = ty_strip_eventual(t->elems.items[i]);
    if (m->kind == TY_NONE)
      continue;
    ir_convert k = convert_target(m);
    if (k == IR_C_NONE || (found != IR_C_NONE && k != found))
      return IR_C_NONE;
    found = k;
  }
  return found;
}

/* Returns the collection or object type that t accepts (seen through
 * eventual, optional and InputType union layers), or NULL. */
static const ty *structure_of(const ty *t) {
  t = ty_strip_eventual(t);
  if (t->kind == TY_UNION) {
    for (size_t i = 0; i < t->elems.count; i++) {
      const ty *m = structure_of(t->elems.items[i]);
      if (m)
        return m;
    }
    return NULL;
  }
  switch (t->kind) {
  case TY_LIST:
  case TY_SET:
  case TY_MAP:
  case TY_OBJECT:
    return t;
  case TY_BOOL:
  case TY_INT:
  case TY_NUMBER:
  case TY_STRING:
  case TY_ID:
  case TY_DYNAMIC:
  case TY_NONE:
  case TY_OPAQUE:
  case TY_TUPLE:
  case TY_UNION:
  case TY_OUTPUT:
  case TY_PROMISE:
  case TY_CONST:
  case TY_ENUM:
    return NULL;
  }
  return NULL;
}

/* Converts the elements of a list constructor or the values of an object
 * constructor to the element or property types of `to` (RewriteConversions
 * recursing structurally, lowering.md 3). */
static void convert_structure(lw *w, ir_expr *x, const ty *to) {
  const ty *st = structure_of(to);
  if (st == NULL)
    return;
  if (x->op == IR_LIST && (st->kind == TY_LIST || st->kind == TY_SET)) {
    for (size_t i = 0; i < x->n; i++)
      x->kids[i] = convert_to(w, x->kids[i], x->kids[i]->type, st->elem);
  } else if (x->op == IR_OBJECT && (st->kind == TY_MAP || st->kind == TY_OBJECT)) {
    for (size_t i = 0; i + 1 < x->n; i += 2) {
      const ir_expr *k = x->kids[i];
      const ty *elem = st->kind == TY_MAP ? st->elem : NULL;
      if (st->kind == TY_OBJECT && k->op == IR_CONST && k->ck == IR_K_STRING)
        elem = ty_object_get(st, k->text);
      if (elem)
        x->kids[i + 1] = convert_to(w, x->kids[i + 1], x->kids[i + 1]->type, elem);
    }
  }
}

/* Wraps x, a value of type from, in the explicit conversion to the
 * primitive type `to` when the two primitives differ (a string going to a
 * bool input, a number to a string, ...); int to number needs none.  List
 * and object constructors are converted element by element. */
static ir_expr *convert_to(lw *w, ir_expr *x, const ty *from, const ty *to) {
  if (to == NULL || from == NULL)
    return x;
  if (x->op == IR_LIST || x->op == IR_OBJECT) {
    convert_structure(w, x, to);
    return x;
  }
  ir_convert target = primitive_of(to);
  ir_convert source = primitive_of(from);
  if (target == IR_C_NONE || source == IR_C_NONE || target == source)
    return x;
  if (target == IR_C_NUMBER && source == IR_C_INT)
    return x;
  if (x->op == IR_CONVERT && x->sub == target)
    return x;
  ir_expr *c = mk(w, IR_CONVERT, NULL, 1);
  c->span = x->span;
  c->type = to;
  c->sub = target;
  c->kids[0] = x;
  return c;
}

/* Returns invoke x with the option name = value (a string) added to its
 * options object unless the program sets that option itself. */
static ir_expr *with_option(lw *w, ir_expr *x, const bnd_expr *e, const char *name,
                            const char *value) {
  ir_expr *opts = x->n > 1 ? x->kids[1] : NULL;
  if (opts && opts->op != IR_OBJECT)
    return x;
  for (size_t i = 0; opts && i + 1 < opts->n; i += 2) {
    const ir_expr *k = opts->kids[i];
    if (k->op == IR_CONST && k->ck == IR_K_STRING && strcmp(k->text, name) == 0)
      return x;
  }
  size_t n = opts ? opts->n : 0;
  ir_expr *o = mk(w, IR_OBJECT, e, n + 2);
  if (opts) {
    o->span = opts->span;
    o->type = opts->type;
  }
  for (size_t i = 0; i < n; i++)
    o->kids[i] = opts->kids[i];
  o->kids[n] = mk_string(w, e, name, strlen(name));
  o->kids[n + 1] = mk_string(w, e, value, strlen(value));
  ir_expr *y = mk(w, IR_INVOKE, e, 2);
  y->s = x->s;
  y->sub = x->sub;
  y->kids[0] = x->kids[0];
  y->kids[1] = o;
  return y;
}

/* Lowers a call: built-ins (secret and unsecret have operations of their
 * own), the special forms, invoke, method calls and conversions.  Only the
 * arguments of built-ins and conversions may become apply parameters; the
 * special forms take their arguments as they are (eventual or not). */
static ir_expr *lower_call(lw *w, const bnd_expr *e, actx *A) {
  size_t n = e->call.nargs;
  switch (e->call.kind) {
  case BND_CALL_BUILTIN: {
    ir_op op = builtin_op(e);
    if (op != IR_CALL && n == 1) {
      ir_expr *x = mk(w, op, e, 1);
      x->kids[0] = lower(w, e->call.args[0]);
      return x;
    }
    ir_expr *x = mk(w, IR_CALL, e, n);
    x->s = e->call.name;
    x->sub = e->call.expand_final ? 1u : 0u;
    for (size_t i = 0; i < n; i++)
      x->kids[i] = sub(w, e->call.args[i], A);
    return x;
  }
  case BND_CALL_TRY:
  case BND_CALL_CAN: {
    ir_expr *x = mk(w, e->call.kind == BND_CALL_TRY ? IR_TRY : IR_CAN, e, n);
    for (size_t i = 0; i < n; i++)
      x->kids[i] = lower(w, e->call.args[i]);
    return x;
  }
  case BND_CALL_RECOVER: {
    ir_expr *x = mk(w, IR_RECOVER, e, 2);
    x->kids[0] = lower(w, e->call.args[0]);
    size_t mark = w->nvars;
    x->a = push_var(w, e->call.error_var);
    x->kids[1] = lower(w, e->call.args[1]);
    pop_vars(w, mark);
    return x;
  }
  case BND_CALL_INVOKE: {
    /* invoke(token, args[, options]); a multi-argument function's inputs
       written positionally become the arguments object. */
    size_t np = e->call.npositional;
    size_t opt = np ? 1 + np : 2;
    ir_expr *x = mk(w, IR_INVOKE, e, n > opt ? 2 : 1);
    x->s = e->call.function ? e->call.function->token : e->call.token;
    /* A function with a non-object return answers {name: value}; the
       invoke's value is that one value. */
    const schema_function *fn = e->call.function;
    x->sub = fn && fn->has_return && !fn->returns_object ? 1u : 0u;
    if (np) {
      ir_expr *o = mk(w, IR_OBJECT, e, 2 * np);
      for (size_t i = 0; i < np && 1 + i < n; i++) {
        const char *name = e->call.positional[i];
        o->kids[2 * i] = mk_string(w, e->call.args[1 + i], name, strlen(name));
        o->kids[2 * i + 1] = lower(w, e->call.args[1 + i]);
      }
      x->kids[0] = o;
    } else if (n >= 2) {
      x->kids[0] = lower(w, e->call.args[1]);
    } else {
      x->kids[0] = mk(w, IR_OBJECT, e, 0);
    }
    if (n > opt)
      x->kids[1] = lower(w, e->call.args[opt]);
    /* The package version and download URL pick the default provider, as
       for resources. */
    const char *version = fn && fn->pkg ? fn->pkg->version : NULL;
    if (version)
      x = with_option(w, x, e, "version", version);
    const char *url = fn && fn->pkg ? fn->pkg->plugin_download_url : NULL;
    if (url)
      x = with_option(w, x, e, "pluginDownloadUrl", url);
    return x;
  }
  case BND_CALL_METHOD: {
    ir_expr *x = mk(w, IR_METHOD, e, 2);
    x->s = e->call.function ? e->call.function->token : e->call.token;
    /* As for an invoke: a method with a non-object return answers
       {name: value}, and the call's value is that one value. */
    const schema_function *fn = e->call.function;
    x->sub = fn && fn->has_return && !fn->returns_object ? 1u : 0u;
    x->kids[0] = lower(w, e->call.args[0]);
    x->kids[1] = n >= 3 ? lower(w, e->call.args[2]) : mk(w, IR_OBJECT, e, 0);
    return x;
  }
  case BND_CALL_CONVERT: {
    ir_expr *x = mk(w, IR_CONVERT, e, 1);
    x->kids[0] = sub(w, e->call.args[0], A);
    const ty *to = n >= 2 && e->call.args[1]->kind == BND_E_TYPE
                       ? e->call.args[1]->type_expr.denoted
                       : e->type;
    x->sub = convert_target(ty_strip_eventual(to));
    return x;
  }
  case BND_CALL_UNKNOWN:
    break;
  }
  ice("call of unknown function '%s' after a successful bind", e->call.name);
}

/* Builds the IR of e from its lowered children: inside an apply body when A
 * is set (eventual children become parameters), else where it stands.
 * Bodies evaluated per element or per branch (for, splat, conditional
 * branches) are lowered where they stand: they run later, on their own. */
static ir_expr *structural(lw *w, const bnd_expr *e, actx *A) {
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
    x = mk(w, IR_CONST, e, 0);
    x->ck = IR_K_NULL;
    return x;
  case BND_E_STRING:
    return mk_string(w, e, e->string.text, e->string.len);
  case BND_E_PROPERTY:
    return mk_string(w, e, e->property.path, strlen(e->property.path));
  case BND_E_TYPE:
    x = mk(w, IR_CONST, e, 0);
    x->ck = IR_K_NULL;
    return x;
  case BND_E_TEMPLATE:
    if (e->tmpl.count == 1 && e->tmpl.parts[0]->kind == BND_E_STRING)
      return mk_string(w, e, e->tmpl.parts[0]->string.text, e->tmpl.parts[0]->string.len);
    x = mk(w, IR_TEMPLATE, e, e->tmpl.count);
    for (size_t i = 0; i < e->tmpl.count; i++)
      x->kids[i] = sub(w, e->tmpl.parts[i], A);
    return x;
  case BND_E_TEMPLATE_IF:
    x = mk(w, IR_COND, e, 3);
    x->kids[0] = sub(w, e->tif.cond, A);
    x->kids[1] = lower(w, e->tif.then);
    x->kids[2] = e->tif.else_ ? lower(w, e->tif.else_) : mk_string(w, e, "", 0);
    return x;
  case BND_E_TEMPLATE_FOR: {
    x = mk(w, IR_FOR, e, 2);
    x->sub = IR_F_CONCAT;
    x->kids[0] = sub(w, e->tfor.collection, A);
    size_t mark = w->nvars;
    if (e->tfor.key) {
      x->sub |= IR_F_KEYVAR;
      x->a = push_var(w, e->tfor.key);
    }
    x->b = push_var(w, e->tfor.value);
    x->kids[1] = lower(w, e->tfor.body);
    pop_vars(w, mark);
    return x;
  }
  case BND_E_NODE_REF:
    x = mk(w, IR_NODE, e, 0);
    x->node = e->node_ref.node;
    x->a = w->pos[e->node_ref.node->index];
    return x;
  case BND_E_VAR_REF:
    x = mk(w, IR_VAR, e, 0);
    x->a = var_slot(w, e->var_ref.var);
    return x;
  case BND_E_GET_ATTR:
    x = mk(w, IR_ATTR, e, 1);
    x->s = e->get_attr.name;
    x->kids[0] = sub(w, e->get_attr.object, A);
    return x;
  case BND_E_INDEX:
    x = mk(w, IR_INDEX, e, 2);
    x->kids[0] = sub(w, e->index.collection, A);
    x->kids[1] = sub(w, e->index.key, A);
    return x;
  case BND_E_SPLAT: {
    x = mk(w, IR_SPLAT, e, 2);
    x->kids[0] = sub(w, e->splat.source, A);
    size_t mark = w->nvars;
    x->a = push_var(w, e->splat.item);
    x->kids[1] = lower(w, e->splat.each);
    pop_vars(w, mark);
    return x;
  }
  case BND_E_CALL:
    return lower_call(w, e, A);
  case BND_E_TUPLE:
    x = mk(w, IR_LIST, e, e->tuple.count);
    for (size_t i = 0; i < e->tuple.count; i++)
      x->kids[i] = sub(w, e->tuple.items[i], A);
    return x;
  case BND_E_OBJECT:
    x = mk(w, IR_OBJECT, e, 2 * e->object.count);
    for (size_t i = 0; i < e->object.count; i++) {
      const bnd_item *it = &e->object.items[i];
      /* The key expression, not `literal`: a quoted key may hold NUL bytes. */
      x->kids[2 * i] = sub(w, it->key, A);
      x->kids[2 * i + 1] = sub(w, it->value, A);
    }
    return x;
  case BND_E_FOR: {
    const bool obj = e->for_expr.is_object;
    const bool cond = e->for_expr.cond != NULL;
    x = mk(w, IR_FOR, e, 2 + (obj ? 1u : 0u) + (cond ? 1u : 0u));
    x->kids[0] = sub(w, e->for_expr.collection, A);
    size_t mark = w->nvars;
    if (e->for_expr.key_var) {
      x->sub |= IR_F_KEYVAR;
      x->a = push_var(w, e->for_expr.key_var);
    }
    x->b = push_var(w, e->for_expr.value_var);
    x->kids[1] = lower(w, e->for_expr.value);
    size_t k = 2;
    if (obj) {
      x->sub |= IR_F_OBJECT | IR_F_KEY;
      if (e->for_expr.grouping)
        x->sub |= IR_F_GROUP;
      x->kids[k++] = lower(w, e->for_expr.key);
    }
    if (cond) {
      x->sub |= IR_F_COND;
      x->kids[k++] = lower(w, e->for_expr.cond);
    }
    pop_vars(w, mark);
    return x;
  }
  case BND_E_UNARY:
    x = mk(w, IR_UNARY, e, 1);
    x->sub = e->unary.op;
    x->kids[0] = sub(w, e->unary.operand, A);
    return x;
  case BND_E_BINARY:
    x = mk(w, IR_BINARY, e, 2);
    x->sub = e->binary.op;
    x->kids[0] = sub(w, e->binary.lhs, A);
    x->kids[1] = sub(w, e->binary.rhs, A);
    return x;
  case BND_E_CONDITIONAL:
    x = mk(w, IR_COND, e, 3);
    x->kids[0] = sub(w, e->cond.cond, A);
    x->kids[1] = lower(w, e->cond.then);
    x->kids[2] = lower(w, e->cond.else_);
    return x;
  }
  ice("unknown bound expression kind %d", (int)e->kind);
}

/* ------------------------------------------------------------------ applies */

static ir_expr *lower_plain(lw *w, const bnd_expr *e);

/* Lowers e where it stands and converts it to the schema type it flows into
 * (bnd_expr.target), if any. */
static ir_expr *lower(lw *w, const bnd_expr *e) {
  ir_expr *x = lower_plain(w, e);
  return e->target ? convert_to(w, x, e->type, e->target) : x;
}

/* Lowers e where it stands: an APPLY when e observes an eventual value and
 * some of its parts became parameters, else e's own operation. */
static ir_expr *lower_plain(lw *w, const bnd_expr *e) {
  if (!observes(e))
    return structural(w, e, NULL);
  actx A = {0};
  ir_expr *body = structural(w, e, &A);
  ir_expr *x = body;
  if (A.n > 0) {
    x = mk(w, IR_APPLY, e, A.n + 1);
    for (size_t i = 0; i < A.n; i++)
      x->kids[i] = A.args[i];
    x->kids[A.n] = body;
    x->a = w->next_slot;
    w->next_slot += (uint32_t)A.n;
    for (size_t i = 0; i < A.nparams; i++)
      A.params[i]->a += x->a;
  }
  free(A.args);
  free(A.keys);
  free(A.params);
  return x;
}

/* Lowers e inside the body of the apply collecting A: an eventual e becomes
 * a parameter (a static traversal is cut at its first eventual part, the
 * rest applied to the parameter), anything else is lowered structurally. */
static ir_expr *lower_body(lw *w, const bnd_expr *e, actx *A) {
  if (!is_ev(e->type))
    return structural(w, e, A);
  const bnd_expr *parts[TRAVERSAL_MAX];
  size_t n = traversal(e, parts);
  if (n == 0)
    return add_arg(w, A, e, lower(w, e), NULL);
  size_t j = 0;
  while (j < n && !is_ev(parts[j]->type))
    j++;
  if (j == n)
    j = n - 1;
  ir_expr *x = add_arg(w, A, parts[j], lower(w, parts[j]), traversal_key(w, parts, j));
  for (size_t i = j + 1; i < n; i++) {
    const bnd_expr *p = parts[i];
    ir_expr *y;
    if (p->kind == BND_E_GET_ATTR) {
      y = mk(w, IR_ATTR, p, 1);
      y->s = p->get_attr.name;
      y->kids[0] = x;
    } else {
      y = mk(w, IR_INDEX, p, 2);
      y->kids[0] = x;
      y->kids[1] = structural(w, p->index.key, NULL);
    }
    y->type = ty_resolve_outputs(w->L->ty, ty_resolve_promises(w->L->ty, p->type));
    x = y;
  }
  return x;
}

/* -------------------------------------------------------------------- nodes */

/* Returns the constant of a const type (a schema default), or NULL. */
static ir_expr *const_of(lw *w, const ty *t, pcl_span span) {
  if (t == NULL || t->kind != TY_CONST)
    return NULL;
  ir_expr *x = mk(w, IR_CONST, NULL, 0);
  x->span = span;
  x->type = t;
  switch (t->cnst.base->kind) {
  case TY_BOOL:
    x->ck = IR_K_BOOL;
    x->boolean = t->cnst.boolean;
    return x;
  case TY_INT: {
    char *digits = mpz_get_str(NULL, 10, t->cnst.integer);
    x->ck = IR_K_INT;
    x->text = arena_strdup(w->L->arena, digits);
    free(digits);
    return x;
  }
  case TY_NUMBER:
    x->ck = IR_K_NUMBER;
    x->number = t->cnst.number;
    x->text = arena_printf(w->L->arena, "%.17g", t->cnst.number);
    return x;
  case TY_STRING:
    x->ck = IR_K_STRING;
    x->text = t->cnst.text;
    x->len = t->cnst.len;
    return x;
  case TY_NONE:
    x->ck = IR_K_NULL;
    return x;
  case TY_ID:
  case TY_DYNAMIC:
  case TY_OPAQUE:
  case TY_LIST:
  case TY_MAP:
  case TY_SET:
  case TY_TUPLE:
  case TY_OBJECT:
  case TY_UNION:
  case TY_OUTPUT:
  case TY_PROMISE:
  case TY_CONST:
  case TY_ENUM:
    return NULL;
  }
  return NULL;
}

/* The schema input property called name, or NULL. */
static const schema_property *schema_input(const schema_resource *res, const char *name) {
  for (size_t i = 0; res && i < res->ninputs; i++) {
    if (strcmp(res->inputs[i].name, name) == 0)
      return &res->inputs[i];
  }
  return NULL;
}

/* Lowers the body attributes (from skip on) into an OBJECT of inputs.  With
 * a schema (program.md 3.7): secret inputs are marked secret, and inputs
 * with a schema default that the program leaves out get the default, after
 * the attributes in schema order.  Each attribute is looked up in the schema
 * once, so the cost is attributes times schema inputs. */
static ir_expr *lower_attrs(lw *w, const bnd_attrs *attrs, size_t skip, pcl_span span,
                            const schema_resource *res) {
  size_t ninputs = res ? res->ninputs : 0;
  bool *given = xcalloc(ninputs ? ninputs : 1, sizeof *given);
  const schema_property **props = xcalloc(attrs->count ? attrs->count : 1, sizeof *props);
  for (size_t i = skip; i < attrs->count; i++) {
    props[i] = schema_input(res, attrs->items[i].name);
    if (props[i])
      given[props[i] - res->inputs] = true;
  }
  ir_expr **defaults = xcalloc(ninputs ? ninputs : 1, sizeof *defaults);
  size_t ndefaults = 0;
  for (size_t i = 0; i < ninputs; i++) {
    defaults[i] = given[i] ? NULL : const_of(w, res->inputs[i].default_value, span);
    ndefaults += defaults[i] != NULL;
  }
  ir_expr *x = mk(w, IR_OBJECT, NULL, 2 * (attrs->count - skip + ndefaults));
  x->span = span;
  size_t k = 0;
  for (size_t i = skip; i < attrs->count; i++) {
    const bnd_attr *a = &attrs->items[i];
    ir_expr *key = mk_string(w, NULL, a->name, strlen(a->name));
    key->span = a->name_span;
    ir_expr *v = convert_to(w, lower(w, a->value), a->value->type, a->expected);
    if (props[i] && props[i]->secret) {
      ir_expr *sv = mk(w, IR_SECRET, a->value, 1);
      sv->kids[0] = v;
      v = sv;
    }
    x->kids[k++] = key;
    x->kids[k++] = v;
  }
  for (size_t i = 0; i < ninputs; i++) {
    if (defaults[i]) {
      const char *name = res->inputs[i].name;
      x->kids[k] = mk_string(w, NULL, name, strlen(name));
      x->kids[k++]->span = span;
      x->kids[k++] = defaults[i];
    }
  }
  free(defaults);
  free(props);
  free(given);
  return x;
}

/* Lowers a block's options (all but range, which the node keeps apart) into
 * an OBJECT, or returns NULL when the block has no options block. */
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
    ir_expr *key = mk_string(w, NULL, name, strlen(name));
    key->span = o->opt_span[i];
    x->kids[k++] = key;
    x->kids[k++] = lower(w, o->opt[i]);
  }
  return x;
}

/* Returns the options object opts (NULL for none) with the string value
 * appended to its list option name (created when absent).  An option
 * written as something other than a list literal is left as it is. */
static ir_expr *append_option(lw *w, ir_expr *opts, const char *name, const char *value,
                              pcl_span span) {
  size_t n = opts ? opts->n : 0;
  for (size_t i = 0; opts && i + 1 < n; i += 2) {
    const ir_expr *k = opts->kids[i];
    if (k->op != IR_CONST || k->ck != IR_K_STRING || strcmp(k->text, name) != 0)
      continue;
    ir_expr *list = opts->kids[i + 1];
    if (list->op != IR_LIST)
      return opts;
    for (size_t j = 0; j < list->n; j++) {
      const ir_expr *v = list->kids[j];
      if (v->op == IR_CONST && v->ck == IR_K_STRING && strcmp(v->text, value) == 0)
        return opts;
    }
    ir_expr *l = mk(w, IR_LIST, NULL, list->n + 1);
    l->span = list->span;
    l->type = list->type;
    for (size_t j = 0; j < list->n; j++)
      l->kids[j] = list->kids[j];
    l->kids[list->n] = mk_string(w, NULL, value, strlen(value));
    l->kids[list->n]->span = span;
    opts->kids[i + 1] = l;
    return opts;
  }
  ir_expr *o = mk(w, IR_OBJECT, NULL, n + 2);
  o->span = opts ? opts->span : span;
  for (size_t i = 0; i < n; i++)
    o->kids[i] = opts->kids[i];
  o->kids[n] = mk_string(w, NULL, name, strlen(name));
  o->kids[n]->span = span;
  ir_expr *l = mk(w, IR_LIST, NULL, 1);
  l->span = span;
  l->kids[0] = mk_string(w, NULL, value, strlen(value));
  l->kids[0]->span = span;
  o->kids[n + 1] = l;
  return o;
}

/* Lowers a resource, read or component node. */
static void lower_registration(lw *w, ir_node *n, const bnd_attrs *inputs,
                               const bnd_options *opts, const bnd_var *range_var, bool read,
                               const schema_resource *res) {
  size_t mark = w->nvars;
  if (opts->opt[BND_OPT_RANGE]) {
    n->range = lower(w, opts->opt[BND_OPT_RANGE]);
    if (range_var) {
      n->range_slot = push_var(w, range_var);
    } else {
      n->range_slot = w->next_slot++;
    }
  }
  size_t skip = 0;
  if (read && inputs->count > 0 && strcmp(inputs->items[0].name, "id") == 0) {
    n->value = lower(w, inputs->items[0].value);
    skip = 1;
  }
  n->inputs = lower_attrs(w, inputs, skip, n->b->span, res);
  n->options = lower_options(w, opts);
  if (res) {
    /* program.md 3.7 step 4: the schema's secret outputs and
       replaceOnChanges inputs are appended to the options. */
    for (size_t i = 0; i < res->noutputs; i++) {
      if (res->outputs[i].secret)
        n->options = append_option(w, n->options, "additionalSecretOutputs",
                                   res->outputs[i].name, n->b->span);
    }
    for (size_t i = 0; i < res->ninputs; i++) {
      if (res->inputs[i].replace_on_changes)
        n->options = append_option(w, n->options, "replaceOnChanges", res->inputs[i].name,
                                   n->b->span);
    }
  }
  pop_vars(w, mark);
}

ir_module *lower_program(lower_ctx *L, const bnd_program *p) {
  ir_module *m = ARENA_NEW(L->arena, ir_module);
  m->program = p;
  m->index = L->nmodules++;
  lw w = {0};
  w.L = L;
  w.p = p;
  w.pos = xcalloc(p->count ? p->count : 1, sizeof *w.pos);
  size_t count = 0;
  for (size_t i = 0; i < p->count; i++) {
    const bnd_node *b = p->order[i];
    if (b->kind == BND_PULUMI && b->pulumi_version == NULL)
      continue;
    w.pos[b->index] = (uint32_t)count++;
  }
  m->nodes = ARENA_NEW_ARRAY(L->arena, ir_node, count ? count : 1);
  m->count = count;
  size_t k = 0;
  for (size_t i = 0; i < p->count; i++) {
    const bnd_node *b = p->order[i];
    ir_node *n;
    switch (b->kind) {
    case BND_PULUMI:
      /* The version gate: its range is checked when the node runs, first in
         the evaluation order (bind.c's compute_order). */
      if (b->pulumi_version == NULL)
        continue;
      n = &m->nodes[k++];
      n->b = b;
      n->value = lower(&w, b->pulumi_version);
      break;
    case BND_HOOK:
      /* A hook is referenced by name from the `hooks` option; the runtime
         does not run hooks, so its value is that name. */
      n = &m->nodes[k++];
      n->b = b;
      n->value = mk_string(&w, NULL, b->logical_name, strlen(b->logical_name));
      n->value->span = b->span;
      break;
    case BND_LOCAL:
      n = &m->nodes[k++];
      n->b = b;
      n->value = lower(&w, b->local);
      break;
    case BND_CONFIG:
      n = &m->nodes[k++];
      n->b = b;
      n->value = b->config.default_ ? convert_to(&w, lower(&w, b->config.default_),
                                                 b->config.default_->type, b->config.value_type)
                                    : NULL;
      break;
    case BND_OUTPUT:
      n = &m->nodes[k++];
      n->b = b;
      if (b->output.value) {
        n->value = convert_to(&w, lower(&w, b->output.value), b->output.value->type,
                              b->output.decl_type);
      } else {
        ir_expr *x = mk(&w, IR_CONST, NULL, 0);
        x->span = b->span;
        x->ck = IR_K_NULL;
        n->value = x;
      }
      break;
    case BND_RESOURCE:
    case BND_READ:
      n = &m->nodes[k++];
      n->b = b;
      lower_registration(&w, n, &b->resource.inputs, &b->resource.options, b->resource.range_var,
                         b->kind == BND_READ, b->kind == BND_READ ? NULL : b->resource.schema);
      break;
    case BND_COMPONENT:
      n = &m->nodes[k++];
      n->b = b;
      lower_registration(&w, n, &b->component.inputs, &b->component.options,
                         b->component.range_var, false, NULL);
      if (b->component.program)
        n->component = lower_program(L, b->component.program);
      break;
    }
  }
  m->nslots = w.next_slot;
  free(w.pos);
  free(w.vars);
  return m;
}
