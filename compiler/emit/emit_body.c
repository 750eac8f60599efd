/* emit_body: the code of each kind of function (see emit_fn.h).
 *
 * A node function computes its node's value by the node's kind
 * (docs/codegen.md §4.9): a local returns its value, a config reads the
 * run's value or computes its default, an output hands its value to the
 * run, a resource (read, component) registers itself, or, ranged, one
 * instance per element of its range through its instance function.  The
 * root expressions of a registration or an output are captured scopes,
 * whose failure becomes their value.  A closure computes its expression:
 * an apply body the apply's body, a thunk or recovery its expression, a
 * loop body the value, key and condition of one element. */
#include <string.h>

#include "emit/emit_fn.h"
#include "base/util.h"

/* Writes `return <v>;` of a function returning an owned value. */
static void ret(fctx *w, opnd v) {
  stmt(w, "return %t;", place(w, v));
  if (v.kind == O_TEMP)
    temp_free(w, (int)v.n);
}

/* Writes the registration of node n (one instance) named name; returns
 * its value. */
static opnd registration(fctx *w, const ir_node *n, opnd name) {
  em *e = w->c->e;
  opnd id = operand(O_NULL, 0);
  if (n->kind == IR_N_READ)
    id = expr_captured(w, n->value);
  opnd in = expr_captured(w, n->inputs);
  opnd opts = n->options ? expr_captured(w, n->options) : operand(O_NULL, 0);
  at_line(w, n->span);
  name = place(w, name);
  uint32_t d = row_add(w, em_decl(e, n));
  id = place(w, id);
  in = place(w, in);
  opts = place(w, opts);
  uint32_t l = row_loc(w, n->span);
  int t = temp_new(w);
  if (n->kind == IR_N_READ) {
    stmt(w, "t%d = pcl_gen_read(e, &pclg_decl[r[%u]], %o, %o, %o, %o, r[%u]);", t, d, name, id,
         in, opts, l);
  } else if (n->kind == IR_N_COMPONENT && n->component) {
    uint32_t mod = row_add(w, (uint32_t)n->component->index);
    stmt(w,
         "t%d = pcl_gen_component(e, &pclg_decl[r[%u]], %o, %o, %o, r[%u], "
         "&pclg_modules[r[%u]]);",
         t, d, name, in, opts, l, mod);
  } else {
    stmt(w, "t%d = pcl_gen_register(e, &pclg_decl[r[%u]], %o, %o, %o, r[%u]);", t, d, name, in,
         opts, l);
  }
  drop(w, id);
  drop(w, in);
  drop(w, opts);
  return temp(t);
}

/* Writes the code of the node function of node n. */
static void node(fctx *w, const ir_node *n) {
  em *e = w->c->e;
  switch (n->kind) {
  case IR_N_LOCAL:
  case IR_N_HOOK:
    ret(w, expr(w, n->value));
    return;
  case IR_N_PULUMI:
  case IR_N_OUTPUT: {
    opnd v = expr_captured(w, n->value);
    at_line(w, n->span);
    v = place(w, v);
    int t = temp_new(w);
    if (n->kind == IR_N_PULUMI) {
      stmt(w, "t%d = pcl_gen_pulumi(e, %o);", t, v);
    } else {
      uint32_t name = row_const(w, em_string(e, n->logical, strlen(n->logical)));
      stmt(w, "t%d = pcl_gen_output(e, &pclg_k[r[%u]], %o);", t, name, v);
    }
    drop(w, v);
    ret(w, temp(t));
    return;
  }
  case IR_N_CONFIG: {
    /* The run's value, else the default. */
    at_line(w, n->span);
    uint32_t ci = row_add(w, n->config_index);
    uint32_t name = row_const(w, em_string(e, n->logical, strlen(n->logical)));
    int t = temp_new(w);
    stmt(w, "t%d = pcl_gen_config(e, r[%u], &pclg_k[r[%u]]);", t, ci, name);
    stmt(w, "if (t%d == NULL) {", t);
    w->indent++;
    opnd d = n->value ? expr(w, n->value) : operand(O_PCL_NULL, 0);
    at_line(w, n->span);
    d = place(w, d);
    stmt(w, "t%d = pcl_gen_config_default(%s, %t);", t, n->secret ? "true" : "false", d);
    moved(w, d);
    w->indent--;
    stmt(w, "}");
    ret(w, temp(t));
    return;
  }
  case IR_N_RESOURCE:
  case IR_N_READ:
  case IR_N_COMPONENT:
    if (n->range) {
      /* One instance per element of the range, each registered by the
         instance function (the node's second function). */
      opnd range = expr_captured(w, n->range);
      at_line(w, n->span);
      range = place(w, range);
      uint32_t name = row_const(w, em_string(e, n->logical, strlen(n->logical)));
      const fn *inst = &w->c->fns[1];
      uint32_t back = row_add(w, row_back(w, inst));
      uint32_t l = row_loc(w, n->span);
      int t = temp_new(w);
      stmt(w, "t%d = pcl_gen_range(e, %o, &pclg_k[r[%u]], %f, r - r[%u], r[%u]);", t, range,
           name, inst->id, back, l);
      drop(w, range);
      ret(w, temp(t));
      return;
    }
    ret(w, registration(w, n, operand(O_CONST, em_string(e, n->logical, strlen(n->logical)))));
    return;
  }
}

/* Writes the code of a loop body: the value, key and condition of one
 * element, all computed before any is stored, so that a failure leaves
 * out empty. */
static void each(fctx *w, const ir_expr *x) {
  bool has_key = x->op == IR_FOR && (x->sub & IR_F_KEY);
  bool has_cond = x->op == IR_FOR && (x->sub & IR_F_COND);
  opnd v = expr(w, x->kids[1]), k = v, cond = v;
  if (has_key)
    k = expr(w, x->kids[2]);
  if (has_cond)
    cond = expr(w, x->kids[has_key ? 3 : 2]);
  stmt(w, "out[PCL_GEN_OUT_VALUE] = %t;", place(w, v));
  moved(w, v);
  if (has_key) {
    stmt(w, "out[PCL_GEN_OUT_KEY] = %t;", place(w, k));
    moved(w, k);
  }
  if (has_cond) {
    stmt(w, "out[PCL_GEN_OUT_COND] = %t;", place(w, cond));
    moved(w, cond);
  }
  stmt(w, "return true;");
}

void body(fctx *w) {
  const fn *f = w->f;
  switch (f->kind) {
  case FK_NODE:
    node(w, w->c->n);
    return;
  case FK_INSTANCE:
    ret(w, registration(w, w->c->n, operand(O_NAME, 0)));
    return;
  case FK_APPLY:
    ret(w, expr(w, f->x->kids[f->x->n - 1]));
    return;
  case FK_THUNK:
  case FK_RECOVERY:
    ret(w, expr(w, f->x));
    return;
  case FK_EACH:
    each(w, f->x);
    return;
  }
}
