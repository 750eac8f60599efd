/* program: the evaluator of the static program descriptions pclc emits
 * (pcl_gen.h, "Program support").
 *
 * A module is evaluated by one synchronous walk over its nodes in order.
 * Every expression evaluates to an owned value that may hold futures
 * (EVENTUAL values), so nothing ever waits: an operation that needs the
 * resolved value of an operand that is still eventual (or secret or unknown
 * at the top) is lifted through pcl_apply, and the callback repeats the
 * operation with the resolved values from the scheduler loop.  Operations
 * that only build values (lists, objects, resource inputs) keep their
 * eventual parts as they are (minimal wrapping, lowering.md 2.3).
 *
 * Errors never escape synchronously: a failing operation evaluates to an
 * EVENTUAL holding a rejected future whose error carries the location of the
 * expression, so the failure reaches whatever consumes it (a resource input,
 * an output, or the loop's unhandled-error check).
 *
 * Ownership: frames and variable environments are refcounted; every pending
 * callback holds a reference to the frame and environment it evaluates
 * in. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pcl_gen.h"
#include "pcl_internal.h"

/* ------------------------------------------------------------------ frames */

/* The evaluation state of one module instance (the program, or one
 * component instance). */
typedef struct frame {
  unsigned refs;       /* References: the module walk and pending callbacks. */
  pcl_run *run;        /* The run it registers resources in (borrowed). */
  const pcl_module *m; /* The module evaluated (static, borrowed). */
  pcl_value **slots;   /* Node values by node index (owned). */
  char *prefix;        /* Name prefix of a component's children, or NULL. */
  pcl_value *parent;   /* The component's resource value, or NULL. */
  pcl_value *inputs;   /* The component's inputs (MAP), or NULL. */
  pcl_mapbuf outputs;  /* A component's outputs as they are evaluated. */
} frame;

/* A chain of variable bindings. */
typedef struct env {
  unsigned refs;   /* References: inner bindings, evaluations, callbacks. */
  struct env *up;  /* The enclosing bindings (owned reference), or NULL. */
  uint32_t slot;   /* The variable slot bound here. */
  pcl_value *v;    /* Its value (owned). */
} env;

/* Where an expression is evaluated. */
typedef struct ctx {
  frame *f; /* The module instance (borrowed). */
  env *e;   /* The variables in scope (borrowed; NULL: none). */
} ctx;

/* Returns f with one more reference. */
static frame *frame_retain(frame *f) {
  f->refs++;
  return f;
}

/* Drops a reference to f, freeing it with its node values at the last. */
static void frame_release(frame *f) {
  if (f == NULL || --f->refs > 0) {
    return;
  }
  for (size_t i = 0; i < f->m->nnodes; i++) {
    pcl_release(f->slots[i]);
  }
  free(f->slots);
  free(f->prefix);
  pcl_release(f->parent);
  pcl_release(f->inputs);
  pcl_mapbuf_free(&f->outputs);
  free(f);
}

/* Returns e (may be NULL) with one more reference. */
static env *env_retain(env *e) {
  if (e != NULL) {
    e->refs++;
  }
  return e;
}

/* Drops a reference to e, freeing the bindings no one else holds. */
static void env_release(env *e) {
  while (e != NULL && --e->refs == 0) {
    env *up = e->up;
    pcl_release(e->v);
    free(e);
    e = up;
  }
}

/* Returns e extended with slot = v (v retained); the result is owned. */
static env *env_bind(env *e, uint32_t slot, pcl_value *v) {
  env *n = pcl_xmalloc(sizeof *n);
  n->refs = 1;
  n->up = env_retain(e);
  n->slot = slot;
  n->v = pcl_retain(v);
  return n;
}

/* Returns the value bound to slot in e (borrowed), or NULL.  The chain is
 * as deep as the bindings nested around the expression (a few). */
static pcl_value *env_get(const env *e, uint32_t slot) {
  for (; e != NULL; e = e->up) {
    if (e->slot == slot) {
      return e->v;
    }
  }
  return NULL;
}

/* ------------------------------------------------------------------ helpers */

/* The descriptor of expression x. */
static const pcl_expr *X(const ctx *c, uint32_t x) { return &c->f->m->exprs[x]; }

/* The expression index of child i of x. */
static uint32_t kid(const ctx *c, uint32_t x, uint32_t i) {
  return c->f->m->kids[X(c, x)->kids + i];
}

/* Attaches x's location to err. */
static void locate(const ctx *c, uint32_t x, pcl_error *err) {
  const pcl_expr *e = X(c, x);
  if (e->line != 0 && c->f->m->files[e->file] != NULL) {
    pcl_error_set_location(err, c->f->m->files[e->file], e->line, e->col);
  }
}

/* Returns an EVENTUAL holding a future rejected with err (stolen), located at x. */
static pcl_value *fail(const ctx *c, uint32_t x, pcl_error *err) {
  locate(c, x, err);
  pcl_future *r = pcl_future_rejected(err);
  pcl_error_free(err);
  pcl_value *v = pcl_future_to_value(r);
  pcl_future_release(r);
  return v;
}

/* Returns an owned EVENTUAL holding f (stolen). */
static pcl_value *fut_value_take(pcl_future *f) {
  pcl_value *v = pcl_future_to_value(f);
  pcl_future_release(f);
  return v;
}

/* Settles the future of `located_take` from the one it follows. */
typedef struct relay {
  pcl_future *result; /* The future returned (owned). */
  const char *file;   /* The location added to a rejection (borrowed from
                       * the module's file table, static for the run). */
  unsigned line, col; /* Its line and column. */
} relay;

/* Settles r->result as f settled, adding the location to a rejection. */
static void relay_cb(pcl_future *f, void *data) {
  relay *r = data;
  if (pcl_future_state_of(f) == PCL_FUTURE_REJECTED) {
    pcl_error *err = pcl_error_copy(pcl_future_error(f));
    pcl_error_set_location(err, r->file, r->line, r->col);
    pcl_future_reject_take(r->result, err);
  } else {
    pcl_future_resolve(r->result, pcl_future_value(f), pcl_future_bits(f), pcl_future_deps(f));
  }
  pcl_future_release(r->result);
  pcl_future_release(f);
  free(r);
}

/* Returns an EVENTUAL following f (stolen) whose rejection carries x's
 * location (engine failures of invokes and calls, projections of failed
 * futures). */
static pcl_value *located_take(const ctx *c, uint32_t x, pcl_future *f) {
  const pcl_expr *e = X(c, x);
  if (e->line == 0 || c->f->m->files[e->file] == NULL) {
    return fut_value_take(f);
  }
  relay *r = pcl_xmalloc(sizeof *r);
  r->result = pcl_future_new(pcl_future_kind_of(f), NULL);
  r->file = c->f->m->files[e->file];
  r->line = e->line;
  r->col = e->col;
  pcl_value *v = pcl_future_to_value(r->result);
  pcl_future_then(f, relay_cb, r);
  return v;
}

/* Returns whether an operation must wait for v before reading it: v is
 * eventual, secret or unknown at the top, or (deep) holds a future. */
static bool needs_wait(const pcl_value *v, bool deep) {
  pcl_kind k = pcl_kind_of(v);
  if (k == PCL_T_EVENTUAL || k == PCL_T_SECRET || k == PCL_T_UNKNOWN) {
    return true;
  }
  return deep && pcl__value_contains_kind(v, PCL_T_EVENTUAL);
}

/* Returns the future (owned) an operation waits on for v: deep resolves
 * nested futures too. */
static pcl_future *wait_future(pcl_value *v, bool deep) {
  return deep ? pcl_future_await_deep(v) : pcl_future_of_value(v);
}

static pcl_value *ev(const ctx *c, uint32_t x);
static pcl_value *with_parent(const frame *f, pcl_value *opts);

/* --------------------------------------------------------- lifted operations */

/* What a lifted callback needs: where to evaluate and which expression. */
typedef struct lift {
  frame *f;    /* The frame (owned reference). */
  env *e;      /* The variables in scope (owned reference). */
  uint32_t x;  /* The expression. */
  void *extra; /* Operation-specific state (FOR), or NULL. */
} lift;

/* Returns the callback data (owned) for evaluating x in c later. */
static lift *lift_new(const ctx *c, uint32_t x) {
  lift *l = pcl_xmalloc(sizeof *l);
  l->f = frame_retain(c->f);
  l->e = env_retain(c->e);
  l->x = x;
  l->extra = NULL;
  return l;
}

/* Frees a lift (and, through the first member, a range_lift). */
static void lift_free(void *data) {
  lift *l = data;
  frame_release(l->f);
  env_release(l->e);
  free(l);
}

/* Whether operand i of x must be awaited deeply. */
static bool deep_operand(const ctx *c, uint32_t x, size_t i) {
  const pcl_expr *e = X(c, x);
  switch ((pcl_xop)e->op) {
  case PCL_X_CALL:
    return true;
  case PCL_X_BINARY:
    return e->sub == PCL_XB_EQ || e->sub == PCL_XB_NE;
  case PCL_X_INDEX:
    return i == 1;
  case PCL_X_CONST:
  case PCL_X_NODE:
  case PCL_X_VAR:
  case PCL_X_PARAM:
  case PCL_X_ATTR:
  case PCL_X_LIST:
  case PCL_X_OBJECT:
  case PCL_X_TEMPLATE:
  case PCL_X_UNARY:
  case PCL_X_COND:
  case PCL_X_CONVERT:
  case PCL_X_FOR:
  case PCL_X_SPLAT:
  case PCL_X_APPLY:
  case PCL_X_SECRET:
  case PCL_X_UNSECRET:
  case PCL_X_INVOKE:
  case PCL_X_METHOD:
  case PCL_X_TRY:
  case PCL_X_CAN:
  case PCL_X_RECOVER:
    return false;
  }
  return false;
}

static pcl_value *compute(const ctx *c, uint32_t x, pcl_value *const *v, size_t n,
                          pcl_error **err);
static pcl_value *strict(const ctx *c, uint32_t x, pcl_value **v, size_t n);

/* Computes a lifted strict operation on its resolved operands, lifting it
 * again while a deeply read operand still holds futures. */
static pcl_value *strict_cb(pcl_value *const *args, size_t n, void *data, pcl_error **err) {
  lift *l = data;
  ctx c = {l->f, l->e};
  /* The apply resolved the top of every operand; an operand read deeply
   * may still hold futures further in. */
  bool again = false;
  for (size_t i = 0; i < n && !again; i++) {
    pcl_kind k = pcl_kind_of(args[i]);
    again = k == PCL_T_EVENTUAL || k == PCL_T_SECRET ||
            (deep_operand(&c, l->x, i) && pcl__value_contains_kind(args[i], PCL_T_EVENTUAL));
  }
  if (!again) {
    pcl_value *r = compute(&c, l->x, args, n, err);
    if (r == NULL) {
      locate(&c, l->x, *err);
    }
    return r;
  }
  pcl_value **v = pcl_xmalloc((n ? n : 1) * sizeof *v);
  for (size_t i = 0; i < n; i++) {
    v[i] = pcl_retain(args[i]);
  }
  pcl_value *r = strict(&c, l->x, v, n);
  free(v);
  return r;
}

/* Applies x's operation to the operand values v[0..n) (stolen): at once
 * when they are all resolved, else through pcl_apply.  Returns an owned
 * value (an EVENTUAL when lifted or failed). */
static pcl_value *strict(const ctx *c, uint32_t x, pcl_value **v, size_t n) {
  bool wait = false;
  for (size_t i = 0; i < n && !wait; i++) {
    wait = needs_wait(v[i], deep_operand(c, x, i));
  }
  if (!wait) {
    pcl_error *err = NULL;
    pcl_value *r = compute(c, x, v, n, &err);
    for (size_t i = 0; i < n; i++) {
      pcl_release(v[i]);
    }
    return r ? r : fail(c, x, err);
  }
  pcl_future **fs = pcl_xmalloc(n * sizeof *fs);
  for (size_t i = 0; i < n; i++) {
    fs[i] = wait_future(v[i], deep_operand(c, x, i));
  }
  pcl_future *r = pcl_apply(fs, n, strict_cb, lift_new(c, x), lift_free, 0);
  for (size_t i = 0; i < n; i++) {
    pcl_future_release(fs[i]);
    pcl_release(v[i]);
  }
  free(fs);
  return fut_value_take(r);
}

/* Evaluates every child of x and applies x's operation. */
static pcl_value *strict_kids(const ctx *c, uint32_t x) {
  size_t n = X(c, x)->n;
  pcl_value **v = pcl_xmalloc((n ? n : 1) * sizeof *v);
  for (size_t i = 0; i < n; i++) {
    v[i] = ev(c, kid(c, x, (uint32_t)i));
  }
  pcl_value *r = strict(c, x, v, n);
  free(v);
  return r;
}

/* ------------------------------------------------------------- computations */

/* o.key.  During a preview a property missing from a resource object (a
 * provider may leave out outputs it does not know yet) is unknown, as the
 * reference fills missing schema outputs (program.md 3.6); otherwise a
 * missing property is null. */
static pcl_value *get_attr(const pcl_value *o, const pcl_value *key, bool preview,
                           pcl_error **err) {
  const char *name = pcl_str_data(key);
  switch (pcl_kind_of(o)) {
  case PCL_T_MAP: {
    pcl_value *v = pcl_map_get(o, name, pcl_str_len(key));
    if (v == NULL && preview && pcl_map_get_cstr(o, "__type") != NULL) {
      return pcl_unknown();
    }
    return pcl_retain(v ? v : pcl_null());
  }
  case PCL_T_RESOURCE:
    if (strcmp(name, "urn") == 0) {
      return pcl_retain(pcl_resource_urn(o));
    }
    if (strcmp(name, "id") == 0) {
      return pcl_retain(pcl_resource_id(o));
    }
    break;
  case PCL_T_NULL:
    *err = pcl_error_new("attempt to get attribute \"%s\" from null value", name);
    return NULL;
  case PCL_T_BOOL:
  case PCL_T_INT:
  case PCL_T_NUMBER:
  case PCL_T_STRING:
  case PCL_T_LIST:
  case PCL_T_SET:
  case PCL_T_ASSET:
  case PCL_T_ARCHIVE:
  case PCL_T_UNKNOWN:
  case PCL_T_SECRET:
  case PCL_T_EVENTUAL:
    break;
  }
  *err = pcl_error_new("unsupported attribute \"%s\" on a value of type %s", name,
                       pcl_kind_name(pcl_kind_of(o)));
  return NULL;
}

/* coll[key]: a list index (converted to int) or a map key (converted to
 * string); out of range or missing is an error. */
static pcl_value *get_index(const pcl_value *coll, const pcl_value *key, pcl_error **err) {
  pcl_kind k = pcl_kind_of(coll);
  if (k == PCL_T_LIST) {
    pcl_value *iv = pcl_convert_to_int(key, err);
    if (iv == NULL) {
      return NULL;
    }
    int64_t i = 0;
    bool ok = pcl_kind_of(iv) == PCL_T_INT && pcl_int_get_i64(iv, &i);
    pcl_release(iv);
    if (!ok || i < 0 || (uint64_t)i >= pcl_len(coll)) {
      char *r = pcl_value_repr(key, 40);
      *err = pcl_error_new("invalid index: %s is out of range for a list of %zu elements", r,
                           pcl_len(coll));
      free(r);
      return NULL;
    }
    return pcl_retain(pcl_list_at(coll, (size_t)i));
  }
  if (k == PCL_T_MAP) {
    pcl_value *s = pcl_convert_to_string(key, err);
    if (s == NULL) {
      return NULL;
    }
    pcl_value *v = pcl_kind_of(s) == PCL_T_STRING ? pcl_map_get(coll, pcl_str_data(s), pcl_str_len(s))
                                                   : NULL;
    if (v == NULL) {
      char *r = pcl_value_repr(key, 40);
      *err = pcl_error_new("invalid index: the key %s does not identify an element", r);
      free(r);
      pcl_release(s);
      return NULL;
    }
    pcl_release(s);
    return pcl_retain(v);
  }
  *err = pcl_error_new("cannot index a value of type %s", pcl_kind_name(k));
  return NULL;
}

/* Applies the binary operator op to resolved operands (an operand of && or
 * || may be pcl_unknown()). */
static pcl_value *binary(pcl_xbinary op, pcl_value *a, pcl_value *b, pcl_error **err) {
  switch (op) {
  case PCL_XB_OR:
    return pcl_op_or(a, b, err);
  case PCL_XB_AND:
    return pcl_op_and(a, b, err);
  case PCL_XB_EQ:
    return pcl_op_eq(a, b);
  case PCL_XB_NE:
    return pcl_op_ne(a, b);
  case PCL_XB_LT:
    return pcl_op_lt(a, b, err);
  case PCL_XB_LE:
    return pcl_op_le(a, b, err);
  case PCL_XB_GT:
    return pcl_op_gt(a, b, err);
  case PCL_XB_GE:
    return pcl_op_ge(a, b, err);
  case PCL_XB_ADD:
    return pcl_op_add(a, b, err);
  case PCL_XB_SUB:
    return pcl_op_sub(a, b, err);
  case PCL_XB_MUL:
    return pcl_op_mul(a, b, err);
  case PCL_XB_DIV:
    return pcl_op_div(a, b, err);
  case PCL_XB_MOD:
    return pcl_op_mod(a, b, err);
  }
  *err = pcl_error_new("unknown binary operator %u", (unsigned)op);
  return NULL;
}

/* getOutput(reference, name): the named output of a stack reference
 * (functions.md), secret when the reference lists it as secret. */
static pcl_value *get_output(const pcl_value *ref, const pcl_value *name, pcl_error **err) {
  if (pcl_kind_of(ref) == PCL_T_NULL) {
    return pcl_unknown();
  }
  if (pcl_kind_of(ref) != PCL_T_MAP || pcl_kind_of(name) != PCL_T_STRING) {
    *err = pcl_error_new("getOutput needs a stack reference and an output name");
    return NULL;
  }
  pcl_value *outs = pcl_map_get_cstr(ref, "outputs");
  pcl_value *v = outs && pcl_kind_of(outs) == PCL_T_MAP
                     ? pcl_map_get(outs, pcl_str_data(name), pcl_str_len(name))
                     : NULL;
  if (v == NULL) {
    return pcl_null();
  }
  pcl_value *secrets = pcl_map_get_cstr(ref, "secretOutputNames");
  if (secrets && (pcl_kind_of(secrets) == PCL_T_LIST || pcl_kind_of(secrets) == PCL_T_SET)) {
    for (size_t i = 0; i < pcl_len(secrets); i++) {
      pcl_value *s = pcl_list_at(secrets, i);
      if (pcl_kind_of(s) == PCL_T_STRING && pcl_equal(s, name)) {
        return pcl_secret_new(v);
      }
    }
  }
  return pcl_retain(v);
}

/* Calls the built-in of a CALL expression. */
static pcl_value *call_builtin(const ctx *c, const pcl_expr *e, pcl_value *const *v, size_t n,
                               pcl_error **err) {
  const char *name = e->s;
  pcl_run *run = c->f->run;
  if (n == 0) {
    if (strcmp(name, "stack") == 0) {
      return pcl_run_stack(run);
    }
    if (strcmp(name, "project") == 0) {
      return pcl_run_project(run);
    }
    if (strcmp(name, "organization") == 0) {
      return pcl_run_organization(run);
    }
    if (strcmp(name, "cwd") == 0) {
      return pcl_run_cwd(run);
    }
    if (strcmp(name, "rootDirectory") == 0) {
      return pcl_run_root_directory(run);
    }
  }
  if (strcmp(name, "getOutput") == 0 && n == 2) {
    return get_output(v[0], v[1], err);
  }
  const pcl_builtin *b = e->builtin;
  if (b == NULL) {
    *err = pcl_error_new("call to unsupported function %s", name);
    return NULL;
  }
  if (e->sub == 0 || n == 0) {
    return pcl_builtin_call(b, NULL, v, n, err);
  }
  /* f(xs...): the final argument's elements are the trailing arguments. */
  const pcl_value *last = v[n - 1];
  if (pcl_kind_of(last) != PCL_T_LIST && pcl_kind_of(last) != PCL_T_SET) {
    *err = pcl_error_new("%s: the expanded argument must be a list", name);
    return NULL;
  }
  size_t m = n - 1 + pcl_len(last);
  pcl_value **all = pcl_xmalloc((m ? m : 1) * sizeof *all);
  for (size_t i = 0; i + 1 < n; i++) {
    all[i] = v[i];
  }
  for (size_t i = 0; i < pcl_len(last); i++) {
    all[n - 1 + i] = pcl_list_at(last, i);
  }
  pcl_value *r = pcl_builtin_call(b, NULL, all, m, err);
  free(all);
  return r;
}

/* Applies a strict operation to resolved operands. */
static pcl_value *compute(const ctx *c, uint32_t x, pcl_value *const *v, size_t n,
                          pcl_error **err) {
  const pcl_expr *e = X(c, x);
  switch ((pcl_xop)e->op) {
  case PCL_X_ATTR:
    return get_attr(v[0], &c->f->m->consts[e->a], pcl_run_preview(c->f->run), err);
  case PCL_X_INDEX:
    return get_index(v[0], v[1], err);
  case PCL_X_OBJECT: {
    pcl_mapbuf b = PCL_MAPBUF_INIT;
    for (size_t i = 0; i + 1 < n; i += 2) {
      pcl_value *k = pcl_kind_of(v[i]) == PCL_T_STRING ? pcl_retain(v[i])
                                                       : pcl_convert_to_string(v[i], err);
      if (k == NULL || pcl_kind_of(k) != PCL_T_STRING) {
        if (k != NULL) {
          pcl_release(k);
          *err = pcl_error_new("object keys must be strings");
        }
        pcl_mapbuf_free(&b);
        return NULL;
      }
      pcl_mapbuf_put_take(&b, k, pcl_retain(v[i + 1]));
    }
    return pcl_mapbuf_finish(&b);
  }
  case PCL_X_TEMPLATE: {
    pcl_strbuf b = PCL_STRBUF_INIT;
    for (size_t i = 0; i < n; i++) {
      if (!pcl_strbuf_append_value(&b, v[i], err)) {
        pcl_strbuf_free(&b);
        return NULL;
      }
    }
    return pcl_strbuf_finish(&b, err);
  }
  case PCL_X_UNARY:
    if (e->sub == PCL_XU_NEG) {
      return pcl_op_neg(v[0], err);
    }
    return pcl_op_not(v[0], err);
  case PCL_X_BINARY:
    return binary((pcl_xbinary)e->sub, v[0], v[1], err);
  case PCL_X_CALL:
    return call_builtin(c, e, v, n, err);
  case PCL_X_CONVERT:
    switch ((pcl_xconvert)e->sub) {
    case PCL_XC_STRING:
      return pcl_convert_to_string(v[0], err);
    case PCL_XC_NUMBER:
      return pcl_convert_to_number(v[0], err);
    case PCL_XC_INT:
      return pcl_convert_to_int(v[0], err);
    case PCL_XC_BOOL:
      return pcl_convert_to_bool(v[0], err);
    case PCL_XC_NONE:
      return pcl_retain(v[0]);
    }
    break;
  case PCL_X_CONST:
  case PCL_X_NODE:
  case PCL_X_VAR:
  case PCL_X_PARAM:
  case PCL_X_LIST:
  case PCL_X_COND:
  case PCL_X_FOR:
  case PCL_X_SPLAT:
  case PCL_X_APPLY:
  case PCL_X_SECRET:
  case PCL_X_UNSECRET:
  case PCL_X_INVOKE:
  case PCL_X_METHOD:
  case PCL_X_TRY:
  case PCL_X_CAN:
  case PCL_X_RECOVER:
    break;
  }
  *err = pcl_error_new("internal error: operation %u is not strict", (unsigned)e->op);
  return NULL;
}

/* ----------------------------------------------------------------- && and || */

/* An && or || waiting for both operands to settle.  Unlike a strict
 * operation it also runs when an operand failed: the side that decides the
 * result wins over an error or unknown on the other side (types.md 10:
 * `false && X` is false even when X failed), which pcl_apply, rejecting on
 * the first failed input, cannot express. */
typedef struct logic logic;

/* One operand of a logic: what its settle callback receives. */
typedef struct logic_side {
  logic *l;   /* The logic it belongs to. */
  unsigned i; /* 0 for the left operand, 1 for the right. */
} logic_side;

struct logic {
  frame *f;              /* The frame, for the expression's location. */
  uint32_t x;            /* The BINARY expression. */
  pcl_future *sides[2];  /* The operands' futures (owned). */
  logic_side side[2];    /* Callback data of each operand. */
  unsigned pending;      /* Operands not settled yet. */
  pcl_future *result;    /* The expression's value (owned). */
};

/* Settles l->result from the settled operands and frees l. */
static void logic_decide(logic *l) {
  ctx c = {l->f, NULL};
  const pcl_expr *e = X(&c, l->x);
  pcl_value *v[2];
  unsigned bits = 0;
  pcl_deps *deps = NULL;
  const pcl_error *failed = NULL;
  for (unsigned i = 0; i < 2; i++) {
    pcl_future *f = l->sides[i];
    if (pcl_future_state_of(f) == PCL_FUTURE_REJECTED) {
      /* A failed side counts as unknown: it does not matter when the
       * other side decides the result. */
      failed = failed ? failed : pcl_future_error(f);
      v[i] = pcl_unknown();
      continue;
    }
    bits |= pcl_future_bits(f) & PCL_FUT_SECRET;
    pcl_deps *u = pcl_deps_union(deps, pcl_future_deps(f));
    pcl_deps_release(deps);
    deps = u;
    pcl_value *known = pcl_future_value(f);
    v[i] = (pcl_future_bits(f) & PCL_FUT_UNKNOWN) ? pcl_unknown()
                                                   : pcl_retain(known ? known : pcl_null());
  }
  pcl_error *err = NULL;
  pcl_value *r = binary((pcl_xbinary)e->sub, v[0], v[1], &err);
  if (r != NULL && (failed == NULL || pcl_kind_of(r) == PCL_T_BOOL)) {
    pcl_future_resolve(l->result, r, bits, deps);
  } else if (failed != NULL) {
    pcl_future_reject(l->result, failed);
  } else {
    locate(&c, l->x, err);
    pcl_future_reject_take(l->result, err);
    err = NULL;
  }
  pcl_release(r);
  pcl_error_free(err);
  for (unsigned i = 0; i < 2; i++) {
    pcl_release(v[i]);
    pcl_future_release(l->sides[i]);
  }
  pcl_deps_release(deps);
  pcl_future_release(l->result);
  frame_release(l->f);
  free(l);
}

static void logic_cb(pcl_future *f, void *data) {
  logic_side *sd = data;
  (void)f;
  if (--sd->l->pending == 0) {
    logic_decide(sd->l);
  }
}

/* Evaluates an && or || (both operands, as HCL does). */
static pcl_value *ev_logic(const ctx *c, uint32_t x) {
  pcl_value *v[2] = {ev(c, kid(c, x, 0)), ev(c, kid(c, x, 1))};
  if (!needs_wait(v[0], false) && !needs_wait(v[1], false)) {
    return strict(c, x, v, 2);
  }
  logic *l = pcl_xmalloc(sizeof *l);
  l->f = frame_retain(c->f);
  l->x = x;
  l->pending = 2;
  for (unsigned i = 0; i < 2; i++) {
    l->sides[i] = pcl_future_of_value(v[i]);
    l->side[i] = (logic_side){l, i};
    pcl_release(v[i]);
  }
  bool output = pcl_future_kind_of(l->sides[0]) == PCL_OUTPUT ||
                pcl_future_kind_of(l->sides[1]) == PCL_OUTPUT;
  l->result = pcl_future_new(output ? PCL_OUTPUT : PCL_PROMISE, NULL);
  pcl_value *r = pcl_future_to_value(l->result);
  for (unsigned i = 0; i < 2; i++) {
    pcl_future_then(l->sides[i], logic_cb, &l->side[i]);
  }
  return r;
}

/* ------------------------------------------------------------------ objects */

/* An object constructor waits only for its keys; its values stay as they
 * are (they may be eventual: minimal wrapping). */
static pcl_value *object_cb(pcl_value *const *args, size_t n, void *data, pcl_error **err) {
  lift *l = data;
  ctx c = {l->f, l->e};
  pcl_value *vals = l->extra;
  pcl_value **kv = pcl_xmalloc((n > 0 ? 2 * n : 1) * sizeof *kv);
  for (size_t i = 0; i < n; i++) {
    kv[2 * i] = args[i];
    kv[2 * i + 1] = pcl_list_at(vals, i);
  }
  pcl_value *r = compute(&c, l->x, kv, 2 * n, err);
  free(kv);
  if (r == NULL) {
    locate(&c, l->x, *err);
  }
  return r;
}

/* Frees an object lift and the values it kept. */
static void object_lift_free(void *data) {
  lift *l = data;
  pcl_release(l->extra);
  lift_free(l);
}

/* Evaluates an object constructor: its keys must be known, its values may
 * stay eventual. */
static pcl_value *ev_object(const ctx *c, uint32_t x) {
  size_t n = X(c, x)->n;
  pcl_value **v = pcl_xmalloc((n ? n : 1) * sizeof *v);
  bool wait = false;
  for (size_t i = 0; i < n; i++) {
    v[i] = ev(c, kid(c, x, (uint32_t)i));
    if (i % 2 == 0) {
      wait = wait || needs_wait(v[i], false);
    }
  }
  pcl_value *r;
  if (!wait) {
    pcl_error *err = NULL;
    r = compute(c, x, v, n, &err);
    if (r == NULL) {
      r = fail(c, x, err);
    }
  } else {
    size_t m = n / 2;
    pcl_future **fs = pcl_xmalloc((m ? m : 1) * sizeof *fs);
    pcl_value *vals = pcl_list_new(m);
    for (size_t i = 0; i < m; i++) {
      fs[i] = pcl_future_of_value(v[2 * i]);
      pcl_list_init_take(vals, i, pcl_retain(v[2 * i + 1]));
    }
    lift *l = lift_new(c, x);
    l->extra = vals;
    r = fut_value_take(pcl_apply(fs, m, object_cb, l, object_lift_free, 0));
    for (size_t i = 0; i < m; i++) {
      pcl_future_release(fs[i]);
    }
    free(fs);
  }
  for (size_t i = 0; i < n; i++) {
    pcl_release(v[i]);
  }
  free(v);
  return r;
}

/* ------------------------------------------------------------ conditionals */

/* Evaluates the branch of conditional x that the resolved condition cv
 * chooses; only that branch runs. */
static pcl_value *cond_choose(const ctx *c, uint32_t x, const pcl_value *cv, pcl_error **err) {
  bool truth;
  if (!pcl_condition_get(cv, &truth, err)) {
    return NULL;
  }
  return ev(c, kid(c, x, truth ? 1 : 2));
}

/* ---------------------------------------------------------------- iteration */

/* The per-element results of a for expression before assembly. */
typedef struct for_parts {
  size_t count;
  pcl_value **conds; /* Per element, or NULL without a condition. */
  pcl_value **keys;  /* Per element, or NULL for the tuple form. */
  pcl_value **vals;
} for_parts;

/* Frees p and the values it holds. */
static void for_parts_free(for_parts *p) {
  for (size_t i = 0; i < p->count; i++) {
    if (p->conds) {
      pcl_release(p->conds[i]);
    }
    if (p->keys) {
      pcl_release(p->keys[i]);
    }
    pcl_release(p->vals[i]);
  }
  free(p->conds);
  free(p->keys);
  free(p->vals);
  free(p);
}

/* One key/value pair of a grouping for expression, with its element
 * position (borrowed from the pairs being grouped). */
typedef struct group_pair {
  pcl_value *key; /* A STRING. */
  pcl_value *val; /* The element's value. */
  size_t pos;     /* The element's position. */
} group_pair;

/* Orders two STRING keys by their bytes. */
static int key_cmp(const pcl_value *a, const pcl_value *b) {
  size_t la = pcl_str_len(a), lb = pcl_str_len(b);
  int c = memcmp(pcl_str_data(a), pcl_str_data(b), la < lb ? la : lb);
  return c != 0 ? c : (la > lb) - (la < lb);
}

/* qsort order of group pairs: by key, then by position. */
static int group_pair_cmp(const void *pa, const void *pb) {
  const group_pair *a = pa, *b = pb;
  int c = key_cmp(a->key, b->key);
  return c != 0 ? c : (a->pos > b->pos) - (a->pos < b->pos);
}

/* Builds the result of a for expression from resolved conditions and keys. */
static pcl_value *for_assemble(uint16_t flags, const for_parts *p, pcl_error **err) {
  if (flags & PCL_XF_CONCAT) {
    pcl_strbuf b = PCL_STRBUF_INIT;
    for (size_t i = 0; i < p->count; i++) {
      if (!pcl_strbuf_append_value(&b, p->vals[i], err)) {
        pcl_strbuf_free(&b);
        return NULL;
      }
    }
    return pcl_strbuf_finish(&b, err);
  }
  if (!(flags & PCL_XF_OBJECT)) {
    pcl_value *out = pcl_list_new(0);
    size_t m = 0;
    pcl_value **items = pcl_xmalloc((p->count ? p->count : 1) * sizeof *items);
    for (size_t i = 0; i < p->count; i++) {
      bool keep = true;
      if (p->conds && !pcl_condition_get(p->conds[i], &keep, err)) {
        free(items);
        pcl_release(out);
        return NULL;
      }
      if (!keep) {
        continue;
      }
      items[m++] = p->vals[i];
    }
    pcl_release(out);
    out = pcl_list_of(items, m);
    free(items);
    return out;
  }
  /* Object form: later keys win, or group into lists. */
  pcl_mapbuf b = PCL_MAPBUF_INIT;
  for (size_t i = 0; i < p->count; i++) {
    bool keep = true;
    if (p->conds && !pcl_condition_get(p->conds[i], &keep, err)) {
      pcl_mapbuf_free(&b);
      return NULL;
    }
    if (!keep) {
      continue;
    }
    pcl_value *k = pcl_convert_to_string(p->keys[i], err);
    if (k == NULL || pcl_kind_of(k) != PCL_T_STRING) {
      if (k) {
        pcl_release(k);
        *err = pcl_error_new("for expression keys must be strings");
      }
      pcl_mapbuf_free(&b);
      return NULL;
    }
    pcl_mapbuf_put_take(&b, k, pcl_retain(p->vals[i]));
  }
  if (!(flags & PCL_XF_GROUP)) {
    return pcl_mapbuf_finish(&b);
  }
  /* Grouping: sort the pairs by key, then element order (which each group
   * keeps), and make each run of equal keys one list: n log n, where
   * matching every key against the others would be quadratic. */
  group_pair *pairs = pcl_xmalloc((b.n ? b.n : 1) * sizeof *pairs);
  for (size_t i = 0; i < b.n; i++) {
    pairs[i] = (group_pair){b.keys[i], b.vals[i], i};
  }
  qsort(pairs, b.n, sizeof *pairs, group_pair_cmp);
  pcl_mapbuf g = PCL_MAPBUF_INIT;
  pcl_value **items = pcl_xmalloc((b.n ? b.n : 1) * sizeof *items);
  for (size_t i = 0; i < b.n;) {
    size_t m = 0;
    size_t j = i;
    for (; j < b.n && key_cmp(pairs[j].key, pairs[i].key) == 0; j++) {
      items[m++] = pairs[j].val;
    }
    pcl_mapbuf_put_take(&g, pcl_retain(pairs[i].key), pcl_list_of(items, m));
    i = j;
  }
  free(items);
  free(pairs);
  pcl_mapbuf_free(&b);
  return pcl_mapbuf_finish(&g);
}

/* Assembles a for expression once its eventual conditions, keys (and, for
 * %{for}, values) resolved: args hold them in element order. */
static pcl_value *for_cb(pcl_value *const *args, size_t n, void *data, pcl_error **err) {
  lift *l = data;
  ctx c = {l->f, l->e};
  for_parts *p = l->extra;
  uint16_t flags = X(&c, l->x)->sub;
  size_t k = 0;
  for (size_t i = 0; i < p->count && k <= n; i++) {
    if (p->conds) {
      pcl_release(p->conds[i]);
      p->conds[i] = pcl_retain(args[k++]);
    }
    if (p->keys) {
      pcl_release(p->keys[i]);
      p->keys[i] = pcl_retain(args[k++]);
    }
    if (flags & PCL_XF_CONCAT) {
      pcl_release(p->vals[i]);
      p->vals[i] = pcl_retain(args[k++]);
    }
  }
  pcl_value *r = for_assemble(flags, p, err);
  if (r == NULL) {
    locate(&c, l->x, *err);
  }
  return r;
}

/* Frees a for lift and its parts. */
static void for_lift_free(void *data) {
  lift *l = data;
  for_parts_free(l->extra);
  lift_free(l);
}

/* Evaluates the body of a for expression over the resolved collection. */
static pcl_value *for_run(const ctx *c, uint32_t x, const pcl_value *coll, pcl_error **err) {
  const pcl_expr *e = X(c, x);
  pcl_kind k = pcl_kind_of(coll);
  if (k != PCL_T_LIST && k != PCL_T_SET && k != PCL_T_MAP) {
    *err = pcl_error_new("cannot iterate over a value of type %s", pcl_kind_name(k));
    return NULL;
  }
  size_t count = pcl_len(coll);
  for_parts *p = pcl_xcalloc(1, sizeof *p);
  p->count = count;
  p->vals = pcl_xcalloc(count ? count : 1, sizeof *p->vals);
  if (e->sub & PCL_XF_COND) {
    p->conds = pcl_xcalloc(count ? count : 1, sizeof *p->conds);
  }
  if (e->sub & PCL_XF_KEY) {
    p->keys = pcl_xcalloc(count ? count : 1, sizeof *p->keys);
  }
  uint32_t next = 2;
  uint32_t key_kid = (e->sub & PCL_XF_KEY) ? next++ : PCL_XNONE;
  uint32_t cond_kid = (e->sub & PCL_XF_COND) ? next++ : PCL_XNONE;
  bool wait = false;
  for (size_t i = 0; i < count; i++) {
    pcl_value *kv = k == PCL_T_MAP ? pcl_retain(pcl_map_key_at(coll, i)) : pcl_int_new((int64_t)i);
    pcl_value *vv = k == PCL_T_MAP ? pcl_map_val_at(coll, i) : pcl_list_at(coll, i);
    env *e1 = c->e;
    env *owned = NULL;
    if (e->sub & PCL_XF_KEYVAR) {
      owned = env_bind(e1, e->a, kv);
      e1 = owned;
    }
    env *e2 = env_bind(e1, e->b, vv);
    ctx c2 = {c->f, e2};
    if (p->conds) {
      p->conds[i] = ev(&c2, kid(c, x, cond_kid));
      wait = wait || needs_wait(p->conds[i], false);
    }
    if (p->keys) {
      p->keys[i] = ev(&c2, kid(c, x, key_kid));
      wait = wait || needs_wait(p->keys[i], false);
    }
    p->vals[i] = ev(&c2, kid(c, x, 1));
    if (e->sub & PCL_XF_CONCAT) {
      wait = wait || needs_wait(p->vals[i], false);
    }
    env_release(e2);
    env_release(owned);
    pcl_release(kv);
  }
  if (!wait) {
    pcl_value *r = for_assemble(e->sub, p, err);
    for_parts_free(p);
    return r;
  }
  size_t per = (p->conds ? 1u : 0u) + (p->keys ? 1u : 0u) + ((e->sub & PCL_XF_CONCAT) ? 1u : 0u);
  size_t n = per * count;
  pcl_future **fs = pcl_xmalloc(n * sizeof *fs);
  size_t j = 0;
  for (size_t i = 0; i < count; i++) {
    if (p->conds) {
      fs[j++] = pcl_future_of_value(p->conds[i]);
    }
    if (p->keys) {
      fs[j++] = pcl_future_of_value(p->keys[i]);
    }
    if (e->sub & PCL_XF_CONCAT) {
      fs[j++] = pcl_future_of_value(p->vals[i]);
    }
  }
  lift *l = lift_new(c, x);
  l->extra = p;
  pcl_future *r = pcl_apply(fs, n, for_cb, l, for_lift_free, 0);
  for (size_t i = 0; i < n; i++) {
    pcl_future_release(fs[i]);
  }
  free(fs);
  return fut_value_take(r);
}

/* Evaluates splat x over the resolved source src: each element (src itself
 * when it is not a list, nothing when it is null) bound to the item slot. */
static pcl_value *splat_run(const ctx *c, uint32_t x, pcl_value *src, pcl_error **err) {
  const pcl_expr *e = X(c, x);
  (void)err;
  pcl_kind k = pcl_kind_of(src);
  if (k == PCL_T_NULL) {
    return pcl_list_new(0);
  }
  bool many = k == PCL_T_LIST || k == PCL_T_SET;
  size_t count = many ? pcl_len(src) : 1;
  pcl_value *out = pcl_list_new(count);
  for (size_t i = 0; i < count; i++) {
    env *e2 = env_bind(c->e, e->a, many ? pcl_list_at(src, i) : src);
    ctx c2 = {c->f, e2};
    pcl_list_init_take(out, i, ev(&c2, kid(c, x, 1)));
    env_release(e2);
  }
  return out;
}

/* ------------------------------------------------------------------- gates */

/* COND, FOR and SPLAT first need the value of their first child (the
 * condition, the collection, the source); the rest of them is evaluated
 * once it is known.  gate_run runs that rest on the resolved value v. */
static pcl_value *gate_run(const ctx *c, uint32_t x, pcl_value *v, pcl_error **err) {
  return X(c, x)->op == PCL_X_COND  ? cond_choose(c, x, v, err)
         : X(c, x)->op == PCL_X_FOR ? for_run(c, x, v, err)
                                    : splat_run(c, x, v, err);
}

static pcl_value *gate_cb(pcl_value *const *args, size_t n, void *data, pcl_error **err) {
  lift *l = data;
  ctx c = {l->f, l->e};
  (void)n;
  pcl_value *r = gate_run(&c, l->x, args[0], err);
  if (r == NULL) {
    locate(&c, l->x, *err);
  }
  return r;
}

/* Evaluates a COND, FOR or SPLAT: at once when its first child is
 * resolved, else from a callback once it is. */
static pcl_value *ev_gate(const ctx *c, uint32_t x) {
  pcl_value *v = ev(c, kid(c, x, 0));
  if (needs_wait(v, false)) {
    pcl_future *f = pcl_future_of_value(v);
    pcl_release(v);
    pcl_future *r = pcl_apply(&f, 1, gate_cb, lift_new(c, x), lift_free, 0);
    pcl_future_release(f);
    return fut_value_take(r);
  }
  pcl_error *err = NULL;
  pcl_value *r = gate_run(c, x, v, &err);
  pcl_release(v);
  return r ? r : fail(c, x, err);
}

/* ------------------------------------------------------------------ applies */

/* Evaluates the body of apply x with its parameters bound to args[0..n). */
static pcl_value *apply_body(const ctx *c, uint32_t x, pcl_value *const *args, size_t n) {
  const pcl_expr *e = X(c, x);
  env *en = env_retain(c->e);
  for (size_t i = 0; i < n; i++) {
    env *next = env_bind(en, e->a + (uint32_t)i, args[i]);
    env_release(en);
    en = next;
  }
  ctx c2 = {c->f, en};
  pcl_value *r = ev(&c2, kid(c, x, e->n - 1));
  env_release(en);
  return r;
}

/* The callback of a lifted apply: its body on the resolved arguments. */
static pcl_value *apply_cb(pcl_value *const *args, size_t n, void *data, pcl_error **err) {
  lift *l = data;
  ctx c = {l->f, l->e};
  (void)err;
  return apply_body(&c, l->x, args, n);
}

/* Evaluates an APPLY: its arguments, then its body, at once when they are
 * all resolved, else from a callback once they are. */
static pcl_value *ev_apply(const ctx *c, uint32_t x) {
  size_t n = X(c, x)->n - 1;
  pcl_value **v = pcl_xmalloc((n ? n : 1) * sizeof *v);
  bool wait = false;
  for (size_t i = 0; i < n; i++) {
    v[i] = ev(c, kid(c, x, (uint32_t)i));
    wait = wait || needs_wait(v[i], false);
  }
  pcl_value *r;
  if (!wait) {
    r = apply_body(c, x, v, n);
  } else {
    pcl_future **fs = pcl_xmalloc(n * sizeof *fs);
    for (size_t i = 0; i < n; i++) {
      fs[i] = pcl_future_of_value(v[i]);
    }
    r = fut_value_take(pcl_apply(fs, n, apply_cb, lift_new(c, x), lift_free, 0));
    for (size_t i = 0; i < n; i++) {
      pcl_future_release(fs[i]);
    }
    free(fs);
  }
  for (size_t i = 0; i < n; i++) {
    pcl_release(v[i]);
  }
  free(v);
  return r;
}

/* ------------------------------------------------------ try, can, recover */

/* The state of a try, can or recover in progress. */
typedef struct attempt {
  frame *f;          /* The frame (owned reference). */
  env *e;            /* The variables in scope (owned reference). */
  uint32_t x;        /* The TRY, CAN or RECOVER expression. */
  uint32_t next;     /* TRY: the next alternative. */
  pcl_try t;         /* TRY: the failures so far. */
  pcl_future *result; /* The expression's value (owned). */
} attempt;

/* Frees a with its references. */
static void attempt_free(attempt *a) {
  pcl_try_dispose(&a->t);
  pcl_future_release(a->result);
  frame_release(a->f);
  env_release(a->e);
  free(a);
}

static void attempt_step(attempt *a);

/* Takes the outcome f of the alternative just evaluated: TRY moves on to
 * the next one after a failure, CAN answers whether it failed, RECOVER
 * evaluates the recovery after a failure. */
static void attempt_cb(pcl_future *f, void *data) {
  attempt *a = data;
  ctx c = {a->f, a->e};
  const pcl_expr *e = X(&c, a->x);
  if (e->op == PCL_X_TRY) {
    if (pcl_future_state_of(f) == PCL_FUTURE_REJECTED) {
      pcl_try_fail_take(&a->t, pcl_error_copy(pcl_future_error(f)));
      pcl_future_release(f);
      attempt_step(a);
      return;
    }
    pcl_value *v = pcl_future_value(f);
    pcl_value *r = pcl_try_success(&a->t, v ? v : pcl_unknown());
    pcl_future_resolve(a->result, r, pcl_future_bits(f), pcl_future_deps(f));
    pcl_release(r);
  } else if (e->op == PCL_X_CAN) {
    pcl_value *r;
    if (pcl_future_state_of(f) == PCL_FUTURE_REJECTED) {
      r = pcl_can_result(NULL, pcl_error_copy(pcl_future_error(f)));
      pcl_future_resolve(a->result, r, 0, NULL);
    } else {
      pcl_value *v = pcl_future_value(f);
      pcl_value *inner = v ? pcl_retain(v) : pcl_unknown();
      if (pcl_future_bits(f) & PCL_FUT_SECRET) {
        pcl_value *s = pcl_secret_new(inner);
        pcl_release(inner);
        inner = s;
      }
      r = pcl_can_result(inner, NULL);
      pcl_release(inner);
      pcl_future_resolve(a->result, r, pcl_future_bits(f) & PCL_FUT_UNKNOWN, pcl_future_deps(f));
    }
    pcl_release(r);
  } else {
    /* RECOVER. */
    if (pcl_future_state_of(f) == PCL_FUTURE_REJECTED) {
      pcl_value *msg = pcl_str_from_cstr(pcl_error_message(pcl_future_error(f)));
      env *e2 = env_bind(a->e, e->a, msg);
      pcl_release(msg);
      ctx c2 = {a->f, e2};
      pcl_value *r = ev(&c2, kid(&c, a->x, 1));
      env_release(e2);
      pcl_future_resolve(a->result, r, 0, NULL);
      pcl_release(r);
    } else {
      pcl_future_resolve(a->result, pcl_future_value(f), pcl_future_bits(f), pcl_future_deps(f));
    }
  }
  pcl_future_release(f);
  attempt_free(a);
}

/* Evaluates the next alternative and waits for its outcome. */
static void attempt_step(attempt *a) {
  ctx c = {a->f, a->e};
  const pcl_expr *e = X(&c, a->x);
  if (e->op == PCL_X_TRY && a->next >= e->n) {
    pcl_error *err = pcl_try_error(&a->t);
    locate(&c, a->x, err);
    pcl_future_reject_take(a->result, err);
    attempt_free(a);
    return;
  }
  pcl_value *v = ev(&c, kid(&c, a->x, a->next++));
  pcl_future *f = pcl_future_await_deep(v);
  pcl_release(v);
  pcl_future_then(f, attempt_cb, a);
}

/* Evaluates a TRY, CAN or RECOVER: always an EVENTUAL, settled once the
 * alternatives' outcomes are known. */
static pcl_value *ev_attempt(const ctx *c, uint32_t x) {
  attempt *a = pcl_xcalloc(1, sizeof *a);
  a->f = frame_retain(c->f);
  a->e = env_retain(c->e);
  a->x = x;
  a->t = (pcl_try)PCL_TRY_INIT;
  a->result = pcl_future_new(PCL_OUTPUT, NULL);
  pcl_value *r = pcl_future_to_value(a->result);
  attempt_step(a);
  return r;
}

/* ------------------------------------------------------------- evaluation */

/* Evaluates expression x in c; returns an owned value, which may be or hold
 * an EVENTUAL (never NULL: failures are rejected EVENTUALs). */
static pcl_value *ev(const ctx *c, uint32_t x) {
  const pcl_expr *e = X(c, x);
  switch ((pcl_xop)e->op) {
  case PCL_X_CONST:
    return pcl_retain(&c->f->m->consts[e->a]);
  case PCL_X_NODE: {
    pcl_value *v = c->f->slots[e->a];
    return pcl_retain(v ? v : pcl_null());
  }
  case PCL_X_VAR:
  case PCL_X_PARAM: {
    pcl_value *v = env_get(c->e, e->a);
    return pcl_retain(v ? v : pcl_null());
  }
  case PCL_X_ATTR: {
    pcl_value *o = ev(c, kid(c, x, 0));
    if (pcl_kind_of(o) == PCL_T_EVENTUAL && !pcl_run_preview(c->f->run) &&
        strlen(e->s) == pcl_str_len(&c->f->m->consts[e->a])) {
      /* r.attr on a future: project without a callback. */
      pcl_future *r = pcl_future_attr(pcl_value_future(o), e->s);
      pcl_release(o);
      return located_take(c, x, r);
    }
    return strict(c, x, &o, 1);
  }
  case PCL_X_LIST: {
    pcl_value *l = pcl_list_new(e->n);
    for (uint32_t i = 0; i < e->n; i++) {
      pcl_list_init_take(l, i, ev(c, kid(c, x, i)));
    }
    return l;
  }
  case PCL_X_OBJECT:
    return ev_object(c, x);
  case PCL_X_BINARY:
    if (e->sub == PCL_XB_AND || e->sub == PCL_XB_OR) {
      return ev_logic(c, x);
    }
    return strict_kids(c, x);
  case PCL_X_INDEX:
  case PCL_X_TEMPLATE:
  case PCL_X_UNARY:
  case PCL_X_CALL:
  case PCL_X_CONVERT:
    return strict_kids(c, x);
  case PCL_X_COND:
  case PCL_X_FOR:
  case PCL_X_SPLAT:
    return ev_gate(c, x);
  case PCL_X_APPLY:
    return ev_apply(c, x);
  case PCL_X_SECRET:
  case PCL_X_UNSECRET: {
    pcl_value *v = ev(c, kid(c, x, 0));
    pcl_value *r;
    if (pcl_kind_of(v) == PCL_T_EVENTUAL) {
      pcl_future *f = pcl_value_future(v);
      r = fut_value_take(e->op == PCL_X_SECRET ? pcl_future_secret(f) : pcl_future_unsecret(f));
    } else {
      pcl_error *err = NULL;
      r = e->op == PCL_X_SECRET ? pcl_fn_secret(v, &err) : pcl_fn_unsecret(v, &err);
      if (r == NULL) {
        r = fail(c, x, err);
      }
    }
    pcl_release(v);
    return r;
  }
  case PCL_X_INVOKE: {
    pcl_value *args = ev(c, kid(c, x, 0));
    pcl_value *opts = with_parent(c->f, e->n > 1 ? ev(c, kid(c, x, 1)) : NULL);
    pcl_value *r;
    if (pcl_kind_of(args) != PCL_T_MAP || (opts && pcl_kind_of(opts) != PCL_T_MAP)) {
      r = fail(c, x, pcl_error_new("invoke of '%s': the arguments and options must be objects",
                                   e->s));
    } else if (e->sub == 1) {
      pcl_future *f = pcl_invoke(c->f->run, e->s, args, opts);
      r = located_take(c, x, pcl_single_result(f));
      pcl_future_release(f);
    } else {
      r = located_take(c, x, pcl_invoke(c->f->run, e->s, args, opts));
    }
    pcl_release(args);
    pcl_release(opts);
    return r;
  }
  case PCL_X_METHOD: {
    pcl_value *self = ev(c, kid(c, x, 0));
    pcl_value *args = ev(c, kid(c, x, 1));
    pcl_value *r;
    if (pcl_kind_of(args) != PCL_T_MAP) {
      r = fail(c, x, pcl_error_new("call of '%s': the arguments must be an object", e->s));
    } else if (e->sub == 1) {
      pcl_future *f = pcl_call(c->f->run, e->s, self, args, NULL);
      r = located_take(c, x, pcl_single_result(f));
      pcl_future_release(f);
    } else {
      r = located_take(c, x, pcl_call(c->f->run, e->s, self, args, NULL));
    }
    pcl_release(self);
    pcl_release(args);
    return r;
  }
  case PCL_X_TRY:
  case PCL_X_CAN:
  case PCL_X_RECOVER:
    return ev_attempt(c, x);
  }
  return fail(c, x, pcl_error_new("internal error: unknown operation %u", (unsigned)e->op));
}

/* ------------------------------------------------------------------- nodes */

static pcl_value *module_run(pcl_run *run, const pcl_module *m, const char *prefix,
                             pcl_value *parent, pcl_value *inputs, bool top);

/* Returns opts (stolen; NULL for none) with the frame's component as the
 * parent unless opts names one: the children and invokes of a component
 * are parented to it (program.md 5). */
static pcl_value *with_parent(const frame *f, pcl_value *opts) {
  if (f->parent == NULL || (opts != NULL && (pcl_kind_of(opts) != PCL_T_MAP ||
                                             pcl_map_get_cstr(opts, "parent") != NULL))) {
    return opts;
  }
  pcl_mapbuf b = PCL_MAPBUF_INIT;
  for (size_t i = 0; opts && i < pcl_len(opts); i++) {
    pcl_mapbuf_put_take(&b, pcl_retain(pcl_map_key_at(opts, i)), pcl_retain(pcl_map_val_at(opts, i)));
  }
  pcl_mapbuf_put_cstr(&b, "parent", pcl_retain(f->parent));
  pcl_release(opts);
  return pcl_mapbuf_finish(&b);
}

/* Returns the inputs map v (stolen) without its entries that are plainly
 * null: an input set to null is not sent (the reference drops them). */
static pcl_value *drop_nulls(pcl_value *v) {
  if (pcl_kind_of(v) != PCL_T_MAP) {
    return v;
  }
  size_t n = pcl_len(v), keep = 0;
  for (size_t i = 0; i < n; i++) {
    keep += pcl_kind_of(pcl_map_val_at(v, i)) != PCL_T_NULL;
  }
  if (keep == n) {
    return v;
  }
  pcl_mapbuf b = PCL_MAPBUF_INIT;
  for (size_t i = 0; i < n; i++) {
    if (pcl_kind_of(pcl_map_val_at(v, i)) != PCL_T_NULL) {
      pcl_mapbuf_put_take(&b, pcl_retain(pcl_map_key_at(v, i)), pcl_retain(pcl_map_val_at(v, i)));
    }
  }
  pcl_release(v);
  return pcl_mapbuf_finish(&b);
}

/* Registers one instance of a resource, read or component node. */
static pcl_value *register_one(const ctx *c, const pcl_node_desc *nd, const char *name) {
  frame *f = c->f;
  pcl_strbuf full = PCL_STRBUF_INIT;
  if (f->prefix) {
    pcl_strbuf_append_cstr(&full, f->prefix);
  }
  pcl_strbuf_append_cstr(&full, name);
  pcl_value *inputs = drop_nulls(ev(c, nd->inputs));
  pcl_value *opts = with_parent(f, nd->options != PCL_XNONE ? ev(c, nd->options) : NULL);
  pcl_value *r = NULL;
  if (pcl_kind_of(inputs) != PCL_T_MAP || (opts && pcl_kind_of(opts) != PCL_T_MAP)) {
    r = fail(c, nd->inputs, pcl_error_new("the inputs and options of %s must be objects", name));
  } else if (nd->kind == PCL_N_READ) {
    pcl_value *id = ev(c, nd->value);
    r = fut_value_take(pcl_read_resource(f->run, nd->decl, full.data, id, inputs, opts));
    pcl_release(id);
  } else if (nd->kind == PCL_N_COMPONENT && nd->component != NULL) {

    pcl_value *comp =
        fut_value_take(pcl_register_resource(f->run, nd->decl, full.data, inputs, opts));
    pcl_strbuf_append_char(&full, '-');
    pcl_value *outs = module_run(f->run, nd->component, full.data, comp, inputs, false);
    r = fut_value_take(pcl_register_component_outputs(f->run, pcl_value_future(comp), outs));
    pcl_release(outs);
    pcl_release(comp);
  } else {
    r = fut_value_take(pcl_register_resource(f->run, nd->decl, full.data, inputs, opts));
  }
  pcl_strbuf_free(&full);
  pcl_release(inputs);
  pcl_release(opts);
  return r;
}

/* Registers the instances of a ranged node for the resolved range value. */
static pcl_value *register_range(const ctx *c, const pcl_node_desc *nd, const pcl_value *rv,
                                 pcl_error **err) {
  pcl_kind k = pcl_kind_of(rv);
  pcl_strbuf name = PCL_STRBUF_INIT;
  if (k == PCL_T_BOOL) {
    return pcl_bool_get(rv) ? register_one(c, nd, nd->name) : pcl_null();
  }
  if (k == PCL_T_INT || k == PCL_T_NUMBER) {
    double d = pcl_num_to_double(rv);
    int64_t count = d > 0 ? (int64_t)d : 0;
    if (count > PCL_RANGE_MAX) {
      *err = pcl_error_new("range of resource %s is too large", nd->name);
      return NULL;
    }
    pcl_value *out = pcl_list_new((size_t)count);
    for (int64_t i = 0; i < count; i++) {
      pcl_value *iv = pcl_int_new(i);
      pcl_mapbuf rb = PCL_MAPBUF_INIT;
      pcl_mapbuf_put_cstr(&rb, "value", iv);
      pcl_value *rr = pcl_mapbuf_finish(&rb);
      env *e2 = env_bind(c->e, nd->range_slot, rr);
      pcl_release(rr);
      ctx c2 = {c->f, e2};
      pcl_strbuf_appendf(&name, "%s-%lld", nd->name, (long long)i);
      pcl_list_init_take(out, (size_t)i, register_one(&c2, nd, name.data));
      pcl_strbuf_free(&name);
      env_release(e2);
    }
    return out;
  }
  if (k == PCL_T_LIST || k == PCL_T_SET || k == PCL_T_MAP) {
    size_t count = pcl_len(rv);
    pcl_mapbuf mb = PCL_MAPBUF_INIT;
    pcl_value *out = k == PCL_T_MAP ? NULL : pcl_list_new(count);
    for (size_t i = 0; i < count; i++) {
      pcl_value *kv = k == PCL_T_MAP ? pcl_retain(pcl_map_key_at(rv, i)) : pcl_int_new((int64_t)i);
      pcl_value *vv = k == PCL_T_MAP ? pcl_map_val_at(rv, i) : pcl_list_at(rv, i);
      pcl_mapbuf rb = PCL_MAPBUF_INIT;
      pcl_mapbuf_put_cstr(&rb, "key", pcl_retain(kv));
      pcl_mapbuf_put_cstr(&rb, "value", pcl_retain(vv));
      pcl_value *rr = pcl_mapbuf_finish(&rb);
      env *e2 = env_bind(c->e, nd->range_slot, rr);
      pcl_release(rr);
      ctx c2 = {c->f, e2};
      if (k == PCL_T_MAP) {
        pcl_strbuf_appendf(&name, "%s-%s", nd->name, pcl_str_data(kv));
        pcl_mapbuf_put_take(&mb, pcl_retain(kv), register_one(&c2, nd, name.data));
      } else {
        pcl_strbuf_appendf(&name, "%s-%zu", nd->name, i);
        pcl_list_init_take(out, i, register_one(&c2, nd, name.data));
      }
      pcl_strbuf_free(&name);
      env_release(e2);
      pcl_release(kv);
    }
    return k == PCL_T_MAP ? pcl_mapbuf_finish(&mb) : out;
  }
  *err = pcl_error_new("unsupported range type for resource %s", nd->name);
  return NULL;
}

/* What a range callback needs besides the lift: the node. */
typedef struct range_lift {
  lift l;                  /* The frame and scope; first, so lift_free frees it. */
  const pcl_node_desc *nd; /* The ranged node (static). */
} range_lift;

/* Registers the instances of a ranged node once its range resolved. */
static pcl_value *range_cb(pcl_value *const *args, size_t n, void *data, pcl_error **err) {
  range_lift *rl = data;
  ctx c = {rl->l.f, rl->l.e};
  (void)n;
  pcl_value *r = register_range(&c, rl->nd, args[0], err);
  if (r == NULL) {
    locate(&c, rl->nd->range_expr, *err);
  }
  return r;
}

/* Evaluates node nd of c's frame; returns its value (owned). */
static pcl_value *eval_node(const ctx *c, const pcl_node_desc *nd) {
  frame *f = c->f;
  switch ((pcl_node_kind)nd->kind) {
  case PCL_N_LOCAL:
    return ev(c, nd->value);
  case PCL_N_OUTPUT: {
    pcl_value *v = ev(c, nd->value);
    if (f->prefix == NULL) {
      pcl_export(f->run, nd->name, v);
    } else {
      pcl_mapbuf_put_cstr(&f->outputs, nd->name, pcl_retain(v));
    }
    return v;
  }
  case PCL_N_CONFIG: {
    pcl_value *v = NULL;
    if (f->inputs) {
      v = pcl_map_get_cstr(f->inputs, nd->name);
      v = pcl_retain(v);
    } else if (f->prefix == NULL) {
      v = pcl_run_config(f->run, nd->config);
    }
    if (v == NULL) {
      v = nd->value != PCL_XNONE ? ev(c, nd->value) : pcl_null();
      if (nd->secret) {
        /* A secret config's default is secret too. */
        pcl_value *s;
        if (pcl_kind_of(v) == PCL_T_EVENTUAL) {
          s = fut_value_take(pcl_future_secret(pcl_value_future(v)));
        } else {
          pcl_error *err = NULL;
          s = pcl_fn_secret(v, &err);
        }
        pcl_release(v);
        v = s;
      }
    }
    return v;
  }
  case PCL_N_RESOURCE:
  case PCL_N_READ:
  case PCL_N_COMPONENT: {
    if (nd->range == PCL_RANGE_NONE) {
      return register_one(c, nd, nd->name);
    }
    pcl_value *rv = ev(c, nd->range_expr);
    if (needs_wait(rv, false)) {
      pcl_future *rf = pcl_future_of_value(rv);
      pcl_release(rv);
      range_lift *rl = pcl_xmalloc(sizeof *rl);
      rl->l.f = frame_retain(c->f);
      rl->l.e = env_retain(c->e);
      rl->l.x = nd->range_expr;
      rl->l.extra = NULL;
      rl->nd = nd;
      pcl_future *r = pcl_apply(&rf, 1, range_cb, rl, lift_free, 0);
      pcl_future_release(rf);
      return fut_value_take(r);
    }
    pcl_error *err = NULL;
    pcl_value *r = register_range(c, nd, rv, &err);
    pcl_release(rv);
    return r ? r : fail(c, nd->range_expr, err);
  }
  case PCL_N_PULUMI: {
    /* A known range fails the run here, before anything is registered. */
    pcl_value *range = ev(c, nd->value);
    pcl_value *r = fut_value_take(pcl_require_pulumi_version(f->run, range));
    pcl_release(range);
    return r;
  }
  }
  return pcl_null();
}

/* Runs the nodes of m; returns the outputs MAP of a component (owned) or
 * NULL for the top-level program. */
static pcl_value *module_run(pcl_run *run, const pcl_module *m, const char *prefix,
                             pcl_value *parent, pcl_value *inputs, bool top) {
  frame *f = pcl_xcalloc(1, sizeof *f);
  f->refs = 1;
  f->run = run;
  f->m = m;
  f->slots = pcl_xcalloc(m->nnodes ? m->nnodes : 1, sizeof *f->slots);
  f->prefix = prefix ? pcl_xstrdup(prefix) : NULL;
  f->parent = pcl_retain(parent);
  f->inputs = pcl_retain(inputs);
  ctx c = {f, NULL};
  for (size_t i = 0; i < m->nnodes; i++) {
    f->slots[i] = eval_node(&c, &m->nodes[i]);
  }
  pcl_value *outs = top ? NULL : pcl_mapbuf_finish(&f->outputs);
  frame_release(f);
  return outs;
}

void pcl_module_start(pcl_run *run, const pcl_module *m) {
  module_run(run, m, NULL, NULL, NULL, true);
}

/* ------------------------------------------------------------ packed form */

/* Every module unpacked so far, freed at exit. */
typedef struct unpacked {
  struct unpacked *next;           /* The module unpacked before. */
  const pcl_packed_module *packed; /* What was unpacked (static). */
  pcl_module m;                    /* The tables (owned arrays). */
  pcl_resource_decl *decls;        /* The nodes' declarations (owned). */
} unpacked;

static unpacked *unpacked_list;

/* Frees every unpacked module (registered with atexit). */
static void unpacked_free_all(void) {
  while (unpacked_list != NULL) {
    unpacked *u = unpacked_list;
    unpacked_list = u->next;
    free((void *)u->m.exprs);
    free((void *)u->m.kids);
    free((void *)u->m.nodes);
    free(u->decls);
    free(u);
  }
}

/* A reading position in packed code: the chunk and the byte within it. */
typedef struct reader {
  const char *const *chunk; /* The chunk being read. */
  const char *p;            /* The next byte in it. */
} reader;

/* Reports a byte of packed code that no number may hold, and aborts. */
static _Noreturn __attribute__((cold, noinline)) void packed_corrupt(void) {
  fprintf(stderr, "pcl: corrupt packed program\n");
  abort();
}

/* Reads one packed number (see pcl_gen.h), moving to the next chunk at the end
 * of one.  Most numbers are a single final digit, which is tested first; the
 * error path is out of line so that the decoding loop of unpack inlines
 * this. */
static inline uint32_t rd(reader *r) {
  while (*r->p == '\0' && r->chunk[0] != NULL && r->chunk[1] != NULL) {
    r->chunk++;
    r->p = r->chunk[0];
  }
  uint32_t v = 0;
  for (;;) {
    uint32_t ch = (unsigned char)*r->p++;
    if (ch - '0' <= 9u) {
      return (v << 4) | (ch - '0');
    }
    if (ch - 'g' <= 15u) {
      v = (v << 4) | (ch - 'g');
    } else if (ch - 'A' <= 5u) {
      return (v << 4) | (ch - 'A' + 10);
    } else {
      packed_corrupt();
    }
  }
}

/* Returns the STRING constant i - 1 as a C string, NULL for 0. */
static const char *rd_str(const pcl_packed_module *pm, uint32_t i) {
  return i == 0 ? NULL : pcl_str_data(&pm->consts[i - 1]);
}

/* Reads an optional index: PCL_XNONE for 0, else the number minus one. */
static uint32_t rd_opt(reader *p) {
  uint32_t v = rd(p);
  return v == 0 ? PCL_XNONE : v - 1;
}

/* Returns the unpacked tables of pm (and, recursively, of its components),
 * unpacking it the first time.  Modules are a handful per program, so the
 * list is searched linearly. */
static const pcl_module *unpack(const pcl_packed_module *pm) {
  for (unpacked *u = unpacked_list; u != NULL; u = u->next) {
    if (u->packed == pm) {
      return &u->m;
    }
  }
  if (unpacked_list == NULL) {
    atexit(unpacked_free_all);
  }
  unpacked *u = pcl_xcalloc(1, sizeof *u);
  u->packed = pm;
  u->next = unpacked_list;
  unpacked_list = u;
  reader rp = {pm->code, pm->code[0] ? pm->code[0] : ""};
  reader *p = &rp;
  u->m.nslots = rd(p);
  size_t nexprs = rd(p), nkids = rd(p), nnodes = rd(p);
  pcl_expr *exprs = pcl_xcalloc(nexprs ? nexprs : 1, sizeof *exprs);
  for (size_t i = 0; i < nexprs; i++) {
    pcl_expr *e = &exprs[i];
    e->op = (uint16_t)rd(p);
    e->sub = (uint16_t)rd(p);
    e->a = rd(p);
    e->b = rd(p);
    e->kids = rd(p);
    e->n = rd(p);
    e->s = rd_str(pm, rd(p));
    e->builtin = e->op == PCL_X_CALL ? pcl_builtin_find(e->s) : NULL;
    e->file = rd(p);
    e->line = rd(p);
    e->col = rd(p);
  }
  uint32_t *kids = pcl_xcalloc(nkids ? nkids : 1, sizeof *kids);
  for (size_t i = 0; i < nkids; i++) {
    kids[i] = rd(p);
  }
  pcl_node_desc *nodes = pcl_xcalloc(nnodes ? nnodes : 1, sizeof *nodes);
  u->decls = pcl_xcalloc(nnodes ? nnodes : 1, sizeof *u->decls);
  for (size_t i = 0; i < nnodes; i++) {
    pcl_node_desc *n = &nodes[i];
    n->kind = (uint8_t)rd(p);
    n->range = (uint8_t)rd(p);
    n->secret = (uint8_t)rd(p);
    n->config = rd(p);
    n->name = rd_str(pm, rd(p) + 1);
    n->value = rd_opt(p);
    n->inputs = rd_opt(p);
    n->options = rd_opt(p);
    n->range_expr = rd_opt(p);
    n->range_slot = rd(p);
    const char *type = rd_str(pm, rd(p));
    uint32_t rkind = rd(p);
    const char *version = rd_str(pm, rd(p));
    const char *url = rd_str(pm, rd(p));
    uint32_t comp = rd(p);
    n->file = rd(p);
    n->line = rd(p);
    n->col = rd(p);
    if (type != NULL) {
      pcl_resource_decl *d = &u->decls[i];
      d->type = type;
      d->kind = (pcl_resource_kind)rkind;
      d->version = version;
      d->plugin_download_url = url;
      d->file = pm->files[n->file];
      d->line = n->line;
      d->column = n->col;
      n->decl = d;
    }
    n->component = comp == 0 ? NULL : unpack(pm->components[comp - 1]);
  }
  u->m.exprs = exprs;
  u->m.kids = kids;
  u->m.consts = pm->consts;
  u->m.nodes = nodes;
  u->m.nnodes = nnodes;
  u->m.files = pm->files;
  return &u->m;
}

void pcl_packed_start(pcl_run *run, const pcl_packed_module *m) {
  pcl_module_start(run, unpack(m));
}
