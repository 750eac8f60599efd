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
static void ret(em_writer *w, em_opnd v) {
  em_stmt(w, "return %t;", em_place(w, v));
  if (v.kind == OPND_TEMP)
    em_temp_free(w, (int)v.n);
}

/* Writes the registration of node n (one instance) named name; returns
 * its value. */
static em_opnd registration(em_writer *w, const ir_node *n, em_opnd name) {
  em *e = w->c->e;
  em_opnd id = em_operand(OPND_NULL, 0);
  if (n->kind == IR_N_READ)
    id = em_expr_captured(w, n->value);
  em_opnd in = em_expr_captured(w, n->inputs);
  em_opnd opts = n->options ? em_expr_captured(w, n->options) : em_operand(OPND_NULL, 0);
  /* The inputs a component's registration leaves out (program.md §10.4). */
  em_opnd held = n->deferred_inputs ? em_expr_captured(w, n->deferred_inputs)
                                    : em_operand(OPND_NULL, 0);
  em_at_line(w, n->span);
  name = em_place(w, name);
  uint32_t d = em_row(w, em_decl(e, n));
  id = em_place(w, id);
  in = em_place(w, in);
  opts = em_place(w, opts);
  held = em_place(w, held);
  uint32_t l = em_row_loc(w, n->span);
  int t = em_temp_new(w);
  if (n->kind == IR_N_READ) {
    em_stmt(w, "t%d = pcl_gen_read(e, &pclg_decl[r[%u]], %o, %o, %o, %o, r[%u]);", t, d, name, id,
         in, opts, l);
  } else if (n->kind == IR_N_COMPONENT && n->component && n->deferred_inputs) {
    uint32_t mod = em_row(w, (uint32_t)n->component->index);
    em_stmt(w,
            "t%d = pcl_gen_component_deferred(e, &pclg_decl[r[%u]], %o, %o, %o, %o, r[%u], "
            "&pclg_modules[r[%u]]);",
            t, d, name, in, held, opts, l, mod);
  } else if (n->kind == IR_N_COMPONENT && n->component) {
    uint32_t mod = em_row(w, (uint32_t)n->component->index);
    em_stmt(w,
         "t%d = pcl_gen_component(e, &pclg_decl[r[%u]], %o, %o, %o, r[%u], "
         "&pclg_modules[r[%u]]);",
         t, d, name, in, opts, l, mod);
  } else {
    em_stmt(w, "t%d = pcl_gen_register(e, &pclg_decl[r[%u]], %o, %o, %o, r[%u]);", t, d, name, in,
         opts, l);
  }
  em_drop(w, id);
  em_drop(w, in);
  em_drop(w, opts);
  em_drop(w, held);
  return em_temp(t);
}

/* Writes the code of the node function of node n. */
static void node(em_writer *w, const ir_node *n) {
  em *e = w->c->e;
  switch (n->kind) {
  case IR_N_LOCAL:
    ret(w, em_expr(w, n->value));
    return;
  case IR_N_HOOK: {
    /* Registered with its settings; the command is the node's second
       function, which the runtime calls each time the engine runs it. */
    em_opnd settings = em_expr_captured(w, n->inputs);
    em_at_line(w, n->span);
    settings = em_place(w, settings);
    uint32_t name = em_row_const(w, em_string(e, n->logical, strlen(n->logical)));
    const em_nodefn *cmd = &w->c->fns[1];
    uint32_t back = em_row(w, em_row_back(w, cmd));
    uint32_t l = em_row_loc(w, n->span);
    int t = em_temp_new(w);
    em_stmt(w, "t%d = pcl_gen_hook(e, &pclg_k[r[%u]], %s, %o, %f, r - r[%u], r[%u]);", t, name,
            n->error_hook ? "true" : "false", settings, cmd->id, back, l);
    em_drop(w, settings);
    ret(w, em_temp(t));
    return;
  }
  case IR_N_PULUMI:
  case IR_N_OUTPUT: {
    em_opnd v = em_expr_captured(w, n->value);
    em_at_line(w, n->span);
    v = em_place(w, v);
    int t = em_temp_new(w);
    if (n->kind == IR_N_PULUMI) {
      em_stmt(w, "t%d = pcl_gen_pulumi(e, %o);", t, v);
    } else {
      uint32_t name = em_row_const(w, em_string(e, n->logical, strlen(n->logical)));
      em_stmt(w, "t%d = pcl_gen_output(e, &pclg_k[r[%u]], %o);", t, name, v);
    }
    em_drop(w, v);
    ret(w, em_temp(t));
    return;
  }
  case IR_N_CONFIG: {
    /* The run's value, else the default. */
    em_at_line(w, n->span);
    uint32_t ci = em_row(w, n->config_index);
    uint32_t name = em_row_const(w, em_string(e, n->logical, strlen(n->logical)));
    int t = em_temp_new(w);
    em_stmt(w, "t%d = pcl_gen_config(e, r[%u], &pclg_k[r[%u]]);", t, ci, name);
    em_stmt(w, "if (t%d == NULL) {", t);
    w->indent++;
    em_opnd d = n->value ? em_expr(w, n->value) : em_operand(OPND_PCL_NULL, 0);
    em_at_line(w, n->span);
    d = em_place(w, d);
    em_stmt(w, "t%d = pcl_gen_config_default(%s, %t);", t, n->secret ? "true" : "false", d);
    em_moved(w, d);
    w->indent--;
    em_stmt(w, "}");
    ret(w, em_temp(t));
    return;
  }
  case IR_N_RESOURCE:
  case IR_N_READ:
  case IR_N_COMPONENT:
    if (n->range) {
      /* One instance per element of the range, each registered by the
         instance function (the node's second function). */
      em_opnd range = em_expr_captured(w, n->range);
      em_at_line(w, n->span);
      range = em_place(w, range);
      uint32_t name = em_row_const(w, em_string(e, n->logical, strlen(n->logical)));
      const em_nodefn *inst = &w->c->fns[1];
      uint32_t back = em_row(w, em_row_back(w, inst));
      uint32_t l = em_row_loc(w, n->span);
      int t = em_temp_new(w);
      em_stmt(w, "t%d = pcl_gen_range(e, %o, &pclg_k[r[%u]], %f, r - r[%u], r[%u]);", t, range,
           name, inst->id, back, l);
      em_drop(w, range);
      ret(w, em_temp(t));
      return;
    }
    ret(w, registration(w, n, em_operand(OPND_CONST, em_string(e, n->logical, strlen(n->logical)))));
    return;
  }
}

/* Writes the code of a loop body: the value, key and condition of one
 * element, all computed before any is stored, so that a failure leaves
 * out empty. */
static void each(em_writer *w, const ir_expr *x) {
  bool has_key = x->op == IR_FOR && (x->sub & IR_F_KEY);
  bool has_cond = x->op == IR_FOR && (x->sub & IR_F_COND);
  em_opnd v = em_expr(w, x->kids[1]), k = v, cond = v;
  if (has_key)
    k = em_expr(w, x->kids[2]);
  if (has_cond)
    cond = em_expr(w, x->kids[has_key ? 3 : 2]);
  em_stmt(w, "out[PCL_GEN_OUT_VALUE] = %t;", em_place(w, v));
  em_moved(w, v);
  if (has_key) {
    em_stmt(w, "out[PCL_GEN_OUT_KEY] = %t;", em_place(w, k));
    em_moved(w, k);
  }
  if (has_cond) {
    em_stmt(w, "out[PCL_GEN_OUT_COND] = %t;", em_place(w, cond));
    em_moved(w, cond);
  }
  em_stmt(w, "return true;");
}

void em_body(em_writer *w) {
  const em_nodefn *f = w->f;
  switch (f->kind) {
  case FK_NODE:
    node(w, w->c->n);
    return;
  case FK_INSTANCE:
    ret(w, registration(w, w->c->n, em_operand(OPND_NAME, 0)));
    return;
  case FK_APPLY:
    ret(w, em_expr(w, f->x->kids[f->x->n - 1]));
    return;
  case FK_THUNK:
  case FK_RECOVERY:
    ret(w, em_expr(w, f->x));
    return;
  case FK_COMMAND:
    ret(w, em_expr(w, w->c->n->value));
    return;
  case FK_EACH:
    each(w, f->x);
    return;
  }
}
