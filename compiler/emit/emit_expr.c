/* emit_expr: the code of an expression (see emit_fn.h).
 *
 * An expression's code is its operands' code, then one runtime call of its
 * own, whose result is a new temporary (docs/codegen.md §4.3): em_expr()
 * recurses over the expression as the table of operations reads.  An
 * operand that is a constant, a node, a variable or a parameter needs no
 * code: it is read where it is used.  Operands that run apart (an apply's
 * body, a loop's body, the alternatives of try, ...) are closures, created
 * with their environment where the expression stands; a conditional's
 * branches are written in the two blocks of an `if`.  A call that can fail
 * is followed by its check, which jumps to the function's failure code or,
 * in a captured scope (em_expr_captured), to the scope's. */
#include <stdlib.h>
#include <string.h>

#include "pcl_abi.h"
#include "base/stack.h"
#include "base/util.h"
#include "emit/emit_fn.h"

/* ----------------------------------------------------------------- calls */

/* How the runtime takes the arguments of a built-in: the shape column of
 * its row of PCL__BUILTINS (common/pcl_builtins.h). */
typedef enum callform {
  CF_ARGS,     /* pcl_fn_<name>(a0, ..., err), optional ones NULL. */
  CF_FILE,     /* pcl_fn_<name>(NULL, a0, ..., err): relative to the working directory. */
  CF_VAR,      /* pcl_fn_<name>(args, n, err). */
  CF_RUN,      /* A value of the run: pcl_run_<id>(run). */
  /* Lowered to operations of their own, never to a CALL: */
  CF_EVENTUAL,
  CF_LAZY,
  CF_INTRINSIC
} callform;

/* Each built-in's calling form, ID and number of parameters, by its id. */
static const struct {
  callform form;
  const char *id; /* Its ID, which names the run accessor of a RUN built-in. */
  size_t max;     /* The arguments it takes (ARGS and FILE: its parameters). */
} builtins[] = {
#define ROW(id, name, shape, min, max, params, varargs) {CF_##shape, #id, max},
    PCL__BUILTINS(ROW)
#undef ROW
};

/* Writes to buf the run accessor of a RUN built-in: pcl_run_ then its ID in
 * lower case (CWD gives pcl_run_cwd, ROOT_DIRECTORY pcl_run_root_directory). */
static void run_accessor(char *buf, size_t size, const char *id) {
  static const char prefix[] = "pcl_run_";
  size_t n = strlen(prefix);
  if (n + strlen(id) >= size)
    ice("built-in ID %s is too long for a run accessor", id);
  memcpy(buf, prefix, n);
  for (const char *c = id; *c; c++)
    buf[n++] = *c >= 'A' && *c <= 'Z' ? (char)(*c - 'A' + 'a') : *c;
  buf[n] = 0;
}

/* Writes the call of built-in x on the operands k; returns its value. */
static em_opnd call(em_writer *w, const ir_expr *x, em_opnd *k) {
  pcl__builtin_id id = (pcl__builtin_id)x->a;
  const char *name = ir_builtin_name(id);
  int t = em_temp_new(w);
  if (x->sub) {
    /* f(xs...): the runtime spreads the last argument. */
    em_place_all(w, k, x->n);
    em_stmt(w, "t%d = pcl_gen_call_expanded(\"%s\", %a, %zu, err);", t, name, k, x->n, x->n);
  } else {
    switch (builtins[id].form) {
    case CF_RUN: {
      char run[64];
      run_accessor(run, sizeof run, builtins[id].id);
      em_stmt(w, "t%d = %s(pcl_gen_run(e));", t, run);
      return em_temp(t);
    }
    case CF_VAR:
      em_place_all(w, k, x->n);
      em_stmt(w, "t%d = pcl_fn_%s(%a, %zu, err);", t, name, k, x->n, x->n);
      break;
    case CF_ARGS:
    case CF_FILE:
      /* One argument per parameter, an optional one left out NULL. */
      em_place_all(w, k, x->n);
      em_stmt(w, "t%d = pcl_fn_%s(", t, name);
      if (builtins[id].form == CF_FILE)
        em_stmt_more(w, "NULL, ");
      for (size_t i = 0; i < builtins[id].max; i++)
        em_stmt_more(w, "%o, ", i < x->n ? k[i] : em_operand(OPND_NULL, 0));
      em_stmt_more(w, "err);");
      break;
    case CF_EVENTUAL:
    case CF_LAZY:
    case CF_INTRINSIC:
      ice("built-in '%s' is not called as a function", name);
    }
  }
  em_drop_all(w, k, x->n);
  em_check(w, t, em_row_loc(w, x->span));
  return em_temp(t);
}

/* --------------------------------------------------------------- operators */

/* The runtime function of a unary operator. */
static const char *unary_fn(ir_unary_op op) {
  switch (op) {
  case IR_U_NEG:
    return "pcl_op_neg";
  case IR_U_NOT:
    return "pcl_op_not";
  }
  ice("unary operator %d has no function", (int)op);
}

/* The runtime function of a binary operator. */
static const char *binary_fn(ir_binary_op op) {
  switch (op) {
  case IR_B_EQ:
    return "pcl_op_eq";
  case IR_B_NE:
    return "pcl_op_ne";
  case IR_B_LT:
    return "pcl_op_lt";
  case IR_B_LE:
    return "pcl_op_le";
  case IR_B_GT:
    return "pcl_op_gt";
  case IR_B_GE:
    return "pcl_op_ge";
  case IR_B_ADD:
    return "pcl_op_add";
  case IR_B_SUB:
    return "pcl_op_sub";
  case IR_B_MUL:
    return "pcl_op_mul";
  case IR_B_DIV:
    return "pcl_op_div";
  case IR_B_MOD:
    return "pcl_op_mod";
  }
  ice("binary operator %d has no function", (int)op);
}

/* The runtime conversion function of a CONVERT. */
static const char *convert_fn(ir_convert to) {
  switch (to) {
  case IR_C_STRING:
    return "pcl_convert_to_string";
  case IR_C_NUMBER:
    return "pcl_convert_to_number";
  case IR_C_INT:
    return "pcl_convert_to_int";
  case IR_C_BOOL:
    return "pcl_convert_to_bool";
  }
  ice("conversion %d has no function", (int)to);
}

/* Writes `a && b` or `a || b`, whose inline operands are k: an operand
 * that can fail is a thunk, run at once by pcl_gen_capture, which makes
 * its failure a value, so that pcl_gen_logic can let the side that decides
 * win over it. */
static em_opnd logic(em_writer *w, const ir_expr *x, em_opnd *k) {
  em_opnd sides[2];
  for (size_t i = 0; i < 2; i++) {
    size_t fi = em_closure_of(&w->c->thunk_fn, x->kids[i]);
    if (fi == SIZE_MAX) {
      sides[i] = em_place(w, k[i]);
      continue;
    }
    int s = em_temp_new(w);
    em_envref env = em_closure_env(w, fi);
    em_stmt(w, "t%d = pcl_gen_capture(%c, %f, r[%u]);", s, env, w->c->fns[fi].id,
         em_row_loc(w, x->kids[i]->span));
    sides[i] = em_temp(s);
  }
  int t = em_temp_new(w);
  uint32_t at = em_row_loc(w, x->span);
  em_stmt(w, "t%d = pcl_gen_logic(e, %s, %o, %o, r[%u], err);", t,
       x->op == IR_AND ? "true" : "false", sides[0], sides[1], at);
  em_drop_all(w, sides, 2);
  em_check(w, t, at);
  return em_temp(t);
}

/* ------------------------------------------------------------ constructors */

/* Writes the list of the operands k; a list of constants is a constant. */
static em_opnd list(em_writer *w, const ir_expr *x, em_opnd *k) {
  em *e = w->c->e;
  bool constant = true;
  for (size_t i = 0; i < x->n; i++)
    constant = constant && k[i].kind == OPND_CONST;
  if (constant) {
    uint32_t *items = xmalloc((x->n ? x->n : 1) * sizeof *items);
    for (size_t i = 0; i < x->n; i++)
      items[i] = k[i].n;
    uint32_t c = em_static_list(e, items, x->n);
    free(items);
    return em_operand(OPND_CONST, c);
  }
  int t = em_temp_new(w);
  em_place_all(w, k, x->n);
  em_stmt(w, "t%d = pcl_list_of(%a, %zu);", t, k, x->n, x->n);
  em_drop_all(w, k, x->n);
  return em_temp(t);
}

/* Sorts idx[0..n) (positions in keys) by key, stably, with a bottom-up
 * merge sort through tmp (n entries): an object may have a hundred
 * thousand constant keys. */
static void merge_sort_keys(em *e, const em_opnd *keys, size_t *idx, size_t *tmp, size_t n) {
  for (size_t width = 1; width < n; width *= 2) {
    for (size_t lo = 0; lo < n; lo += 2 * width) {
      size_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
      size_t a = lo, b = mid, o = lo;
      while (a < mid && b < hi)
        tmp[o++] = em_string_cmp(e, keys[idx[b]].n, keys[idx[a]].n) < 0 ? idx[b++] : idx[a++];
      while (a < mid)
        tmp[o++] = idx[a++];
      while (b < hi)
        tmp[o++] = idx[b++];
    }
    memcpy(idx, tmp, n * sizeof *idx);
  }
}

/* Orders the pairs keys[i] -> vals[i] of an object constructor with
 * constant keys as the map will hold them, so that it is built without
 * sorting; when two keys are equal the written order stays (the runtime
 * keeps the last). */
static void sort_keys(em *e, em_opnd *keys, em_opnd *vals, size_t n) {
  size_t *idx = xmalloc((n ? n : 1) * sizeof *idx), *tmp = xmalloc((n ? n : 1) * sizeof *tmp);
  for (size_t i = 0; i < n; i++)
    idx[i] = i;
  merge_sort_keys(e, keys, idx, tmp, n);
  bool equal = false;
  for (size_t i = 1; i < n && !equal; i++)
    equal = em_string_cmp(e, keys[idx[i - 1]].n, keys[idx[i]].n) == 0;
  if (!equal) {
    em_opnd *k = xmalloc((n ? n : 1) * sizeof *k), *v = xmalloc((n ? n : 1) * sizeof *v);
    for (size_t i = 0; i < n; i++) {
      k[i] = keys[idx[i]];
      v[i] = vals[idx[i]];
    }
    memcpy(keys, k, n * sizeof *keys);
    memcpy(vals, v, n * sizeof *vals);
    free(k);
    free(v);
  }
  free(idx);
  free(tmp);
}

/* Writes the object of the operands k (key0, value0, key1, ...).  With
 * string constants for keys (a literal object), the keys are part of the
 * code, in map order, and an object of constants is a constant; computed
 * keys are checked at run time. */
static em_opnd object(em_writer *w, const ir_expr *x, em_opnd *k) {
  em *e = w->c->e;
  size_t n = x->n / 2;
  bool literal = true, constant = true;
  for (size_t i = 0; i < n; i++) {
    literal = literal && x->kids[2 * i]->op == IR_CONST && x->kids[2 * i]->ck == IR_K_STRING;
    constant = constant && k[2 * i + 1].kind == OPND_CONST;
  }
  em_opnd *keys = xmalloc((n ? n : 1) * sizeof *keys), *vals = xmalloc((n ? n : 1) * sizeof *vals);
  for (size_t i = 0; i < n; i++) {
    keys[i] = k[2 * i];
    vals[i] = k[2 * i + 1];
  }
  em_opnd r;
  if (literal && constant) {
    uint32_t *ki = xmalloc((n ? n : 1) * sizeof *ki), *vi = xmalloc((n ? n : 1) * sizeof *vi);
    for (size_t i = 0; i < n; i++) {
      ki[i] = keys[i].n;
      vi[i] = vals[i].n;
    }
    r = em_operand(OPND_CONST, em_static_map(e, ki, vi, n));
    free(ki);
    free(vi);
  } else {
    if (literal) {
      for (size_t i = 0; i < n; i++)
        keys[i].kind = OPND_FIXED;
      sort_keys(e, keys, vals, n);
    }
    int t = em_temp_new(w);
    em_place_all(w, keys, n);
    em_place_all(w, vals, n);
    if (literal)
      em_stmt(w, "t%d = pcl_map_of(%a, %a, %zu);", t, keys, n, vals, n, n);
    else
      em_stmt(w, "t%d = pcl_gen_object(%a, %a, %zu, err);", t, keys, n, vals, n, n);
    em_drop_all(w, k, x->n);
    if (!literal)
      em_check(w, t, em_row_loc(w, x->span));
    r = em_temp(t);
  }
  free(keys);
  free(vals);
  return r;
}

/* --------------------------------------------------------------- traversal */

/* Writes the path x from its root k[0]: each step is row entries, its key
 * (a constant, or the rank of a computed key among k[1..]) and its flags,
 * then for a step that only some members of a union declare, the
 * discriminator and the values of the members that declare it. */
static em_opnd path(em_writer *w, const ir_expr *x, em_opnd *k) {
  em *e = w->c->e;
  em_opnd root = em_place(w, k[0]);
  uint32_t first = (uint32_t)w->row.n;
  uint32_t keyed = 0; /* Keyed steps so far. */
  for (size_t i = 0; i < x->nsteps; i++) {
    const ir_step *s = &x->steps[i];
    if (s->keyed)
      em_row(w, keyed++);
    else
      em_row_const(w, em_const(e, s->key));
    em_row(w, (s->index ? PCL_GEN_STEP_INDEX : 0u) | (s->declared ? PCL_GEN_DECLARED : 0u) |
                   (s->disc ? PCL_GEN_STEP_BY_MEMBER : 0u) | (s->keyed ? PCL_GEN_STEP_KEYED : 0u));
    if (s->disc) {
      uint32_t *values = xmalloc((s->nmembers ? s->nmembers : 1) * sizeof *values);
      for (size_t j = 0; j < s->nmembers; j++)
        values[j] = em_string(e, s->members[j], strlen(s->members[j]));
      em_row_const(w, em_string(e, s->disc, strlen(s->disc)));
      em_row_const(w, em_static_list(e, values, s->nmembers));
      free(values);
    }
  }
  uint32_t l = em_row_loc(w, x->span);
  int t = em_temp_new(w);
  if (keyed == 0) {
    em_stmt(w, "t%d = pcl_gen_path(e, %o, r + %u, %u, r[%u], err);", t, root, first, x->nsteps, l);
  } else {
    em_place_all(w, k + 1, x->n - 1);
    em_stmt(w, "t%d = pcl_gen_path_keys(e, %o, %a, %zu, r + %u, %u, r[%u], err);", t, root, k + 1,
         x->n - 1, x->n - 1, first, x->nsteps, l);
  }
  em_drop_all(w, k, x->n);
  em_check(w, t, l);
  return em_temp(t);
}

/* ----------------------------------------------------------------- closures */

/* The C flags of a FOR: the runtime's PCL_GEN_FOR_* (pcl_abi.h) of the
 * IR's flags of the same names. */
static const char *for_flags(em *e, unsigned sub) {
  cw t = PCL__BUF_INIT;
#define X(name, bit)                                                                               \
  if (sub & IR_F_##name)                                                                           \
    pcl__buf_puts(&t, " | PCL_GEN_FOR_" #name);
  PCL_GEN_FOR_FLAGS(X)
#undef X
  const char *s = t.len ? em_intern(e, t.data + 3, t.len - 3) : "0";
  pcl__buf_free(&t);
  return s;
}

/* Writes the loop x over the collection k[0]: its body is a closure that
 * the runtime calls per element. */
static em_opnd loop(em_writer *w, const ir_expr *x, em_opnd *k) {
  size_t fi = em_closure_of(&w->c->body_fn, x);
  em_opnd coll = em_place(w, k[0]);
  em_envref env = em_closure_env(w, fi);
  int t = em_temp_new(w);
  uint32_t l = em_row_loc(w, x->span);
  uint32_t em_body = w->c->fns[fi].id;
  if (x->op == IR_FOR)
    em_stmt(w, "t%d = pcl_gen_for(%c, %f, %s, %o, r[%u], err);", t, env, em_body,
         for_flags(w->c->e, x->sub), coll, l);
  else
    em_stmt(w, "t%d = pcl_gen_splat(%c, %f, %o, err);", t, env, em_body, coll);
  em_drop(w, k[0]);
  em_check(w, t, l);
  return em_temp(t);
}

/* Writes the apply x of the arguments k: its body is a closure that the
 * runtime calls once they are known. */
static em_opnd apply(em_writer *w, const ir_expr *x, em_opnd *k) {
  size_t fi = em_closure_of(&w->c->body_fn, x);
  em_place_all(w, k, x->n - 1);
  em_envref env = em_closure_env(w, fi);
  int t = em_temp_new(w);
  em_stmt(w, "t%d = pcl_gen_apply(%c, %f, %a, %zu);", t, env, w->c->fns[fi].id, k, x->n - 1,
       x->n - 1);
  em_drop_all(w, k, x->n - 1);
  return em_temp(t);
}

/* Writes try, can or recover x: one closure per alternative (or argument,
 * value and recovery), each with its own row and captures, which the
 * runtime runs lazily and in order. */
static em_opnd lazy(em_writer *w, const ir_expr *x) {
  em_envref *envs = xmalloc(x->n * sizeof *envs);
  uint32_t *fns = xmalloc(x->n * sizeof *fns);
  for (size_t i = 0; i < x->n; i++) {
    size_t fi = em_closure_of(&w->c->thunk_fn, x->kids[i]);
    fns[i] = w->c->fns[fi].id;
    envs[i] = em_closure_env(w, fi);
  }
  int t = em_temp_new(w);
  if (x->op == IR_TRY) {
    uint32_t l = em_row_loc(w, x->span);
    em_stmt(w, "t%d = pcl_gen_try((pcl_gen_env *[]){", t);
    for (size_t i = 0; i < x->n; i++)
      em_stmt_more(w, i ? ", %c" : "%c", envs[i]);
    em_stmt_more(w, "}, (const pcl_gen_thunk_fn[]){");
    for (size_t i = 0; i < x->n; i++)
      em_stmt_more(w, i ? ", %f" : "%f", fns[i]);
    em_stmt_more(w, "}, %zu, r[%u]);", x->n, l);
  } else if (x->op == IR_CAN) {
    em_stmt(w, "t%d = pcl_gen_can(%c, %f);", t, envs[0], fns[0]);
  } else {
    em_stmt(w, "t%d = pcl_gen_recover(%c, %f, %c, %f);", t, envs[0], fns[0], envs[1], fns[1]);
  }
  free(envs);
  free(fns);
  return em_temp(t);
}

/* ------------------------------------------------------------ conditionals */

/* Writes a branch of a conditional, which assigns its value to the
 * temporary result. */
static void branch(em_writer *w, int result, const ir_expr *x) {
  em_opnd v = em_place(w, em_expr(w, x));
  em_stmt(w, "t%d = %t;", result, v);
  em_moved(w, v);
}

/* Writes `c ? a : b`: the condition, then only the branch it chooses
 * (DECISIONS.md D10), each written in a block of an if statement. */
static em_opnd cond(em_writer *w, const ir_expr *x) {
  em_opnd c = em_expr(w, x->kids[0]);
  em_at_line(w, x->span);
  c = em_place(w, c);
  uint32_t l = em_row_loc(w, x->span);
  int truth = em_temp_new(w);
  em_stmt(w, "t%d = pcl_gen_truth(%o, err);", truth, c);
  em_drop(w, c);
  em_check(w, truth, l);
  int result = em_temp_new(w);
  /* The truth value is a static bool: its temporary needs no release. */
  em_at_line(w, x->span);
  em_stmt(w, "if (pcl_bool_get(t%d)) {", truth);
  em_temp_free(w, truth);
  w->indent++;
  branch(w, result, x->kids[1]);
  w->indent--;
  em_stmt(w, "} else {");
  w->indent++;
  branch(w, result, x->kids[2]);
  w->indent--;
  em_stmt(w, "}");
  return em_temp(result);
}

/* ------------------------------------------------------------- expressions */

/* Whether child i of x is computed by x's function, before x: one that
 * runs in the same call, but a conditional's branches, which are written
 * in the blocks of an if, and an operand of && or || that is a thunk. */
static bool inline_kid(const em_nodectx *c, const ir_expr *x, size_t i) {
  if (x->op == IR_COND)
    return i == 0;
  if (x->op == IR_AND || x->op == IR_OR)
    return em_closure_of(&c->thunk_fn, x->kids[i]) == SIZE_MAX;
  return i < em_sync_kids(x);
}

/* Writes the operation x, whose inline children's values are k. */
static em_opnd operation(em_writer *w, const ir_expr *x, em_opnd *k) {
  em *e = w->c->e;
  int t;
  switch (x->op) {
  case IR_PATH:
    return path(w, x, k);
  case IR_ATTR: {
    em_opnd obj = em_place(w, k[0]);
    uint32_t name = em_row_const(w, em_string(e, x->s, strlen(x->s)));
    t = em_temp_new(w);
    em_stmt(w, "t%d = pcl_gen_attr(e, %o, &pclg_k[r[%u]], %s, err);", t, obj, name,
         x->declared ? "PCL_GEN_DECLARED" : "0");
    em_drop(w, k[0]);
    em_check(w, t, em_row_loc(w, x->span));
    return em_temp(t);
  }
  case IR_INDEX:
    em_place_all(w, k, 2);
    t = em_temp_new(w);
    em_stmt(w, "t%d = pcl_gen_index(%o, %o, %s, err);", t, k[0], k[1],
         x->declared ? "PCL_GEN_DECLARED" : "0");
    em_drop_all(w, k, 2);
    em_check(w, t, em_row_loc(w, x->span));
    return em_temp(t);
  case IR_LIST:
    return list(w, x, k);
  case IR_OBJECT:
    return object(w, x, k);
  case IR_TEMPLATE:
    em_place_all(w, k, x->n);
    t = em_temp_new(w);
    em_stmt(w, "t%d = pcl_gen_template(%a, %zu, err);", t, k, x->n, x->n);
    em_drop_all(w, k, x->n);
    em_check(w, t, em_row_loc(w, x->span));
    return em_temp(t);
  case IR_UNARY:
  case IR_CONVERT:
    k[0] = em_place(w, k[0]);
    t = em_temp_new(w);
    em_stmt(w, "t%d = %s(%o, err);", t,
         x->op == IR_UNARY ? unary_fn((ir_unary_op)x->sub) : convert_fn((ir_convert)x->sub),
         k[0]);
    em_drop(w, k[0]);
    em_check(w, t, em_row_loc(w, x->span));
    return em_temp(t);
  case IR_BINARY:
    em_place_all(w, k, 2);
    t = em_temp_new(w);
    if (x->sub == IR_B_EQ || x->sub == IR_B_NE) {
      /* Equality cannot fail. */
      em_stmt(w, "t%d = %s(%o, %o);", t, binary_fn((ir_binary_op)x->sub), k[0], k[1]);
      em_drop_all(w, k, 2);
      return em_temp(t);
    }
    em_stmt(w, "t%d = %s(%o, %o, err);", t, binary_fn((ir_binary_op)x->sub), k[0], k[1]);
    em_drop_all(w, k, 2);
    em_check(w, t, em_row_loc(w, x->span));
    return em_temp(t);
  case IR_AND:
  case IR_OR:
    return logic(w, x, k);
  case IR_CALL:
    return call(w, x, k);
  case IR_FOR:
  case IR_SPLAT:
    return loop(w, x, k);
  case IR_APPLY:
    return apply(w, x, k);
  case IR_SECRET:
  case IR_UNSECRET:
    k[0] = em_place(w, k[0]);
    t = em_temp_new(w);
    em_stmt(w, "t%d = %s(%o);", t, x->op == IR_SECRET ? "pcl_gen_secret" : "pcl_gen_unsecret", k[0]);
    em_drop(w, k[0]);
    return em_temp(t);
  case IR_GET_OUTPUT: {
    em_place_all(w, k, 2);
    t = em_temp_new(w);
    uint32_t l = em_row_loc(w, x->span);
    em_stmt(w, "t%d = pcl_gen_get_output(e, %o, %o, r[%u]);", t, k[0], k[1], l);
    em_drop_all(w, k, 2);
    return em_temp(t);
  }
  case IR_RESOURCE_EXISTS: {
    /* resourceExists(type, id[, state]): NULL for a state not given. */
    em_place_all(w, k, x->n);
    em_opnd state = x->n > 2 ? k[2] : em_operand(OPND_NULL, 0);
    t = em_temp_new(w);
    uint32_t l = em_row_loc(w, x->span);
    em_stmt(w, "t%d = pcl_gen_resource_exists(e, %o, %o, %o, r[%u]);", t, k[0], k[1], state, l);
    em_drop_all(w, k, x->n);
    return em_temp(t);
  }
  case IR_INVOKE:
  case IR_METHOD: {
    /* An invoke's arguments and options, a method's receiver and
       arguments. */
    uint32_t tok = em_row_const(w, em_string(e, x->s, strlen(x->s)));
    em_opnd a = em_place(w, k[0]);
    em_opnd b = x->n > 1 ? em_place(w, k[1]) : em_operand(OPND_NULL, 0);
    t = em_temp_new(w);
    uint32_t l = em_row_loc(w, x->span);
    em_stmt(w, "t%d = %s(e, &pclg_k[r[%u]], %o, %o, %s, r[%u]);", t,
         x->op == IR_INVOKE ? "pcl_gen_invoke" : "pcl_gen_method", tok, a, b,
         x->sub ? "true" : "false", l);
    em_drop_all(w, k, x->n);
    return em_temp(t);
  }
  case IR_TRY:
  case IR_CAN:
  case IR_RECOVER:
    return lazy(w, x);
  case IR_FAIL: {
    uint32_t msg = em_row_const(w, em_const(e, x));
    uint32_t l = em_row_loc(w, x->span);
    t = em_temp_new(w);
    em_stmt(w, "t%d = pcl_gen_fail(e, &pclg_k[r[%u]], r[%u], err);", t, msg, l);
    em_check(w, t, l);
    return em_temp(t);
  }
  case IR_CONST:
  case IR_NODE:
  case IR_VAR:
  case IR_PARAM:
  case IR_COND:
    break;
  }
  ice("operation %s is not written by operation()", ir_op_name(x->op));
}

em_opnd em_expr(em_writer *w, const ir_expr *x) {
  em *e = w->c->e;
  if (stack_too_deep(&e->too_deep, e->diag, x->span))
    return em_operand(OPND_NULL, 0);
  switch (x->op) {
  case IR_CONST:
    return em_operand(OPND_CONST, em_const(e, x));
  case IR_NODE:
    return em_operand(OPND_NODE, x->a);
  case IR_VAR:
  case IR_PARAM:
    return em_var(w, x->a);
  case IR_COND:
    return cond(w, x);
  case IR_PATH:
  case IR_ATTR:
  case IR_INDEX:
  case IR_LIST:
  case IR_OBJECT:
  case IR_TEMPLATE:
  case IR_UNARY:
  case IR_BINARY:
  case IR_AND:
  case IR_OR:
  case IR_CALL:
  case IR_CONVERT:
  case IR_FOR:
  case IR_SPLAT:
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
  case IR_FAIL:
    break;
  }
  /* The operands the operation computes first, in order; the others are
     closures (NULL here). */
  em_opnd few[4] = {{OPND_NULL, 0}}, *k = x->n <= 4 ? few : xmalloc(x->n * sizeof *k);
  for (size_t i = 0; i < x->n; i++)
    k[i] = inline_kid(w->c, x, i) ? em_expr(w, x->kids[i]) : em_operand(OPND_NULL, 0);
  em_at_line(w, x->span);
  em_opnd v = operation(w, x, k);
  if (k != few)
    free(k);
  return v;
}

em_opnd em_expr_captured(em_writer *w, const ir_expr *x) {
  int scope = ++w->nscopes;
  /* The temporaries in use before the scope survive its failure. */
  bool *before = xcalloc((size_t)w->ntemps + 1, sizeof *before);
  int nbefore = w->ntemps;
  for (int i = 0; i < w->ntemps; i++)
    before[i] = true;
  for (size_t i = 0; i < w->free_temps.n; i++)
    before[w->free_temps.items[i]] = false;
  w->scope = scope;
  w->scope_fails = false;
  em_opnd v = em_expr(w, x);
  w->scope = 0;
  if (!w->scope_fails) {
    free(before);
    return v;
  }
  int t = v.kind == OPND_TEMP ? (int)v.n : em_temp_new(w);
  if (v.kind != OPND_TEMP)
    em_stmt(w, "t%d = %t;", t, em_place(w, v));
  em_stmt(w, "done%d:;", scope);
  w->uses_error = true;
  /* The failure block: it releases the temporaries the scope may hold and
     makes the failure the scope's value. */
  em_fail_line(w, 0, "fail%d:", scope);
  for (int i = 0; i < w->ntemps; i++) {
    if (i < nbefore && before[i])
      continue;
    em_fail_line(w, 1, "pcl_release(t%d);", i);
  }
  em_fail_line(w, 1, "t%d = pcl_gen_failed(e, error, at);", t);
  em_fail_line(w, 1, "error = NULL;");
  em_fail_line(w, 1, "goto done%d;", scope);
  free(before);
  return em_temp(t);
}
