/* emit_closure: the functions of a node (see emit_fn.h).
 *
 * A node's node function computes its value; a ranged node's instance
 * function registers one instance.  Every part of the node that runs on
 * its own becomes a function too, created as a closure where the code
 * reaches it: the body of an APPLY (run once its arguments are known), of
 * a FOR or SPLAT (once per element), each alternative of TRY, the argument
 * of CAN, the value and recovery of RECOVER (run lazily, in order), and an
 * operand of AND or OR that can fail at once (run at once, its failure
 * captured as a value so that the other side can still decide).
 *
 * A function captures the variables its code reads, and those its own
 * closures capture, that it does not bind itself (an apply body binds its
 * parameters, a loop body its key and value, a recovery `error`, an
 * instance function `range`, a hook's command `args`). */
#include <stdlib.h>

#include "base/stack.h"
#include "base/util.h"
#include "emit/emit_fn.h"

/* Adds a function of kind kind computing x, created by function parent,
 * and returns its index. */
static size_t add_fn(em_nodectx *c, em_fkind kind, const ir_expr *x, size_t parent) {
  PCL__GROW(c->fns, c->capfns, c->nfns + 1);
  c->fns[c->nfns] = (em_nodefn){kind, x, parent, 0, 0, UINT32_MAX, UINT32_MAX, {0}, {0}, 0, 0};
  return c->nfns++;
}

size_t em_closure_of(const ptrmap *map, const ir_expr *x) {
  uintptr_t v = (uintptr_t)ptrmap_get(map, x);
  return v ? (size_t)(v - 1) : SIZE_MAX;
}

/* ---------------------------------------------------------- failing at once */

/* Whether x's own operation can fail when it runs (as opposed to failing
 * through a future later, or not at all). */
static bool own_fallible(const ir_expr *x) {
  switch (x->op) {
  case IR_CONST:
  case IR_NODE:
  case IR_VAR:
  case IR_PARAM:
  case IR_LIST:
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
    return false;
  case IR_OBJECT:
    /* Computed keys are checked to be strings. */
    for (size_t i = 0; i < x->n; i += 2) {
      if (x->kids[i]->op != IR_CONST || x->kids[i]->ck != IR_K_STRING)
        return true;
    }
    return false;
  case IR_BINARY:
    return x->sub != IR_B_EQ && x->sub != IR_B_NE;
  case IR_AND:
  case IR_OR:
  case IR_PATH:
  case IR_ATTR:
  case IR_INDEX:
  case IR_TEMPLATE:
  case IR_UNARY:
  case IR_COND:
  case IR_CALL:
  case IR_CONVERT:
  case IR_FOR:
  case IR_SPLAT:
  case IR_FAIL:
    return true;
  }
  return true;
}

size_t em_sync_kids(const ir_expr *x) {
  switch (x->op) {
  case IR_APPLY:
    return x->n - 1;
  case IR_FOR:
  case IR_SPLAT:
    return 1;
  case IR_TRY:
  case IR_CAN:
  case IR_RECOVER:
  case IR_AND:
  case IR_OR:
    return 0;
  case IR_CONST:
  case IR_NODE:
  case IR_VAR:
  case IR_PARAM:
  case IR_PATH:
  case IR_ATTR:
  case IR_INDEX:
  case IR_LIST:
  case IR_OBJECT:
  case IR_TEMPLATE:
  case IR_UNARY:
  case IR_BINARY:
  case IR_COND:
  case IR_CALL:
  case IR_CONVERT:
  case IR_SECRET:
  case IR_UNSECRET:
  case IR_GET_OUTPUT:
  case IR_RESOURCE_EXISTS:
  case IR_INVOKE:
  case IR_METHOD:
  case IR_FAIL:
    return x->n;
  }
  return x->n;
}

/* Whether computing x can fail at once: its own operation can, or one of
 * the children it computes in the same call.  Memoised.  (An answer after
 * the stack guard refused x does not matter: the node is abandoned.) */
static bool fallible(em_nodectx *c, const ir_expr *x) {
  if (stack_too_deep(&c->e->too_deep, c->e->diag, x->span))
    return true;
  uintptr_t known = (uintptr_t)ptrmap_get(&c->fallible, x);
  if (known)
    return known == 1;
  bool fails = own_fallible(x);
  for (size_t i = 0; i < em_sync_kids(x); i++)
    fails = fallible(c, x->kids[i]) || fails;
  ptrmap_put(&c->fallible, x, (void *)(uintptr_t)(fails ? 1 : 2));
  return fails;
}

/* ------------------------------------------------------------- collection */

/* Finds the functions in expression x, computed by function f: records the
 * variables f's code reads and maps every closure's root to its function. */
static void collect(em_nodectx *c, const ir_expr *x, size_t f) {
  if (stack_too_deep(&c->e->too_deep, c->e->diag, x->span))
    return;
  switch (x->op) {
  case IR_VAR:
  case IR_PARAM:
    em_words_add(&c->fns[f].refs, x->a);
    return;
  case IR_APPLY: {
    /* The arguments are computed where the apply stands, the body apart. */
    size_t a = add_fn(c, FK_APPLY, x, f);
    c->fns[a].lo = x->a;
    c->fns[a].hi = x->a + (uint32_t)(x->n - 1);
    ptrmap_put(&c->body_fn, x, (void *)(uintptr_t)(a + 1));
    for (size_t i = 0; i + 1 < x->n; i++)
      collect(c, x->kids[i], f);
    collect(c, x->kids[x->n - 1], a);
    return;
  }
  case IR_FOR:
  case IR_SPLAT: {
    /* The collection is computed where the loop stands, the rest per
       element. */
    size_t a = add_fn(c, FK_EACH, x, f);
    if (x->op == IR_FOR) {
      c->fns[a].key = (x->sub & IR_F_KEYVAR) ? x->a : UINT32_MAX;
      c->fns[a].value = x->b;
    } else {
      c->fns[a].value = x->a;
    }
    ptrmap_put(&c->body_fn, x, (void *)(uintptr_t)(a + 1));
    collect(c, x->kids[0], f);
    for (size_t i = 1; i < x->n; i++)
      collect(c, x->kids[i], a);
    return;
  }
  case IR_TRY:
  case IR_CAN:
  case IR_RECOVER:
  case IR_AND:
  case IR_OR: {
    /* Each operand is a function of its own, but an operand of && or ||
       that cannot fail, which is computed where the operator stands.  The
       functions are made last operand first. */
    size_t *fs = xmalloc(x->n * sizeof *fs);
    for (size_t i = x->n; i-- > 0;) {
      const ir_expr *k = x->kids[i];
      if ((x->op == IR_AND || x->op == IR_OR) && !fallible(c, k)) {
        fs[i] = f;
        continue;
      }
      bool recovery = x->op == IR_RECOVER && i == 1;
      fs[i] = add_fn(c, recovery ? FK_RECOVERY : FK_THUNK, k, f);
      if (recovery)
        c->fns[fs[i]].value = x->a;
      ptrmap_put(&c->thunk_fn, k, (void *)(uintptr_t)(fs[i] + 1));
    }
    for (size_t i = 0; i < x->n; i++)
      collect(c, x->kids[i], fs[i]);
    free(fs);
    return;
  }
  case IR_CONST:
  case IR_NODE:
  case IR_PATH:
  case IR_ATTR:
  case IR_INDEX:
  case IR_LIST:
  case IR_OBJECT:
  case IR_TEMPLATE:
  case IR_UNARY:
  case IR_BINARY:
  case IR_COND:
  case IR_CALL:
  case IR_CONVERT:
  case IR_SECRET:
  case IR_UNSECRET:
  case IR_GET_OUTPUT:
  case IR_RESOURCE_EXISTS:
  case IR_INVOKE:
  case IR_METHOD:
  case IR_FAIL:
    for (size_t i = 0; i < x->n; i++)
      collect(c, x->kids[i], f);
    return;
  }
}

/* Whether slot s is bound by function f itself. */
static bool binds(const em_nodefn *f, uint32_t s) {
  switch (f->kind) {
  case FK_APPLY:
    return s >= f->lo && s < f->hi;
  case FK_EACH:
    return s == f->key || s == f->value;
  case FK_RECOVERY:
  case FK_INSTANCE:
  case FK_COMMAND:
    return s == f->value;
  case FK_NODE:
  case FK_THUNK:
    return false;
  }
  return false;
}

/* qsort order of slots. */
static int slot_cmp(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

/* Computes every function's captures: what its code and its closures read
 * that it does not bind.  Children come after their parents, so a reverse
 * walk sees every child before its parent. */
static void captures(em_nodectx *c) {
  for (size_t i = c->nfns; i-- > 0;) {
    em_nodefn *f = &c->fns[i];
    if (f->refs.n > 1)
      qsort(f->refs.items, f->refs.n, sizeof *f->refs.items, slot_cmp);
    for (size_t j = 0; j < f->refs.n; j++) {
      uint32_t s = f->refs.items[j];
      if ((j > 0 && f->refs.items[j - 1] == s) || binds(f, s))
        continue;
      em_words_add(&f->caps, s);
    }
    if (f->parent != SIZE_MAX) {
      for (size_t j = 0; j < f->caps.n; j++)
        em_words_add(&c->fns[f->parent].refs, f->caps.items[j]);
    }
  }
}

void em_closures_find(em_nodectx *c) {
  const ir_node *n = c->n;
  size_t root = add_fn(c, FK_NODE, NULL, SIZE_MAX);
  /* A ranged node's value, inputs and options are its instances'. */
  size_t em_body = root;
  if (n->range) {
    em_body = add_fn(c, FK_INSTANCE, NULL, root);
    c->fns[em_body].value = n->range_slot;
    collect(c, n->range, root);
  }
  if (n->options)
    collect(c, n->options, em_body);
  if (n->inputs)
    collect(c, n->inputs, em_body);
  if (n->kind == IR_N_HOOK) {
    /* A hook's command runs each time the engine runs the hook. */
    em_body = add_fn(c, FK_COMMAND, NULL, root);
    c->fns[em_body].value = n->args_slot;
  }
  if (n->value)
    collect(c, n->value, em_body);
  captures(c);
}

void em_closures_free(em_nodectx *c) {
  for (size_t i = 0; i < c->nfns; i++) {
    free(c->fns[i].refs.items);
    free(c->fns[i].caps.items);
  }
  free(c->fns);
  ptrmap_free(&c->body_fn);
  ptrmap_free(&c->thunk_fn);
  ptrmap_free(&c->fallible);
}
