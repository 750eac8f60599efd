/* gen.c: the core of what the C that pclc generates calls (pcl_gen.h,
 * "generated code"): the ABI symbol and the program entry point, module
 * frames and the environments generated functions run in, error locations,
 * applies and the logic operators.
 *
 * A program runs as one synchronous walk over the nodes of its module
 * (pcl__gen_module_run); every node function returns at once with a value
 * that may hold futures, and whatever must wait for a future is a callback
 * that the scheduler loop runs later (pcl_gen_apply and the other
 * operations that return EVENTUALs), never inline.
 *
 * Applies keep the plainness invariant of pcl_gen.h: the body sees only
 * values with no EVENTUAL, SECRET or UNKNOWN inside.  The arguments are
 * awaited deeply, their nested secrets are stripped (the result is made
 * secret instead) and a nested unknown makes the argument unknown, which
 * skips the body.
 *
 * Ownership: frames and environments are refcounted; every pending
 * callback holds a reference to the environment it will run in, which
 * holds one to its frame, so a frame lives until the last callback of its
 * module instance ran. */
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "gen/gen_internal.h"

const int PCL_GEN_ABI_SYMBOL = PCL_GEN_ABI;

/* ------------------------------------------------------------------ frames */

pcl_gen_frame *pcl__gen_frame_retain(pcl_gen_frame *f) {
  f->refs++;
  return f;
}

void pcl__gen_frame_release(pcl_gen_frame *f) {
  if (f == NULL || --f->refs > 0) {
    return;
  }
  for (size_t i = 0; i < f->module->nnodes; i++) {
    pcl_release(f->slots[i]);
  }
  free(f->slots);
  free(f->prefix);
  free(f->urn);
  pcl_release(f->parent);
  pcl_release(f->inputs);
  pcl_mapbuf_free(&f->outputs);
  free(f);
}

pcl_value *pcl__gen_module_run(pcl_run *run, const pcl_gen_program *prog, const pcl_gen_module *m,
                               const char *prefix, pcl_value *parent, const char *urn,
                               pcl_value *inputs) {
  pcl_gen_frame *f = pcl_xcalloc(1, sizeof *f);
  f->refs = 1;
  f->run = run;
  f->prog = prog;
  f->module = m;
  f->slots = pcl_xcalloc(m->nnodes ? m->nnodes : 1, sizeof *f->slots);
  f->prefix = prefix ? pcl_xstrdup(prefix) : NULL;
  f->parent = pcl_retain(parent);
  f->urn = urn ? pcl_xstrdup(urn) : NULL;
  f->inputs = pcl_retain(inputs);
  for (size_t i = 0; i < m->nnodes; i++) {
    /* A node reads only its row and the frame: its environment captures
     * nothing and lives on the stack. */
    pcl_gen_env e = {0, f, prog->rows + m->nodes[i].row, 0};
    pcl_value *v = m->nodes[i].fn(&e);
    /* A node whose value is a failure at once is the first failure of the
     * run when the run fails: a later node that reads it where its type
     * promised a plain value fails with a message of its own, which must
     * not be the one the user sees.  The failure stays the node's value
     * for its readers, and the run goes on as it does after any failure
     * that is still to reach it. */
    pcl_future *nf = pcl_value_future(v);
    if (nf != NULL && pcl_future_state_of(nf) == PCL_FUTURE_REJECTED) {
      pcl__run_note_failure(run, pcl_future_error(nf));
    }
    pcl_value *placeholder = f->slots[i];
    if (placeholder != NULL) {
      /* A node before this one read it (pcl_gen_node). */
      pcl_future_resolve(pcl_value_future(placeholder), v, 0, NULL);
      pcl_release(placeholder);
    }
    f->slots[i] = v;
  }
  pcl_value *outs = prefix != NULL ? pcl_mapbuf_finish(&f->outputs) : NULL;
  pcl__gen_frame_release(f);
  return outs;
}

/* ------------------------------------------------------------ environments */

pcl_gen_env *pcl_gen_env_new(const pcl_gen_env *e, const uint32_t *r, size_t n,
                             pcl_value *const *vals) {
  pcl_gen_env *c = pcl__pool_alloc(sizeof *c + n * sizeof c->v[0]);
  c->refs = 1;
  c->f = pcl__gen_frame_retain(e->f);
  c->r = r;
  c->n = n;
  for (size_t i = 0; i < n; i++) {
    c->v[i] = pcl_retain(vals[i]);
  }
  return c;
}

void pcl_gen_env_release(pcl_gen_env *e) {
  if (e == NULL || e->refs == 0 || --e->refs > 0) {
    return;
  }
  for (size_t i = 0; i < e->n; i++) {
    pcl_release(e->v[i]);
  }
  pcl__gen_frame_release(e->f);
  pcl__pool_free(e, sizeof *e + e->n * sizeof e->v[0]);
}

pcl_value *pcl_gen_node(const pcl_gen_env *e, uint32_t i) {
  pcl_gen_frame *f = e->f;
  if (f->slots[i] == NULL) {
    pcl_future *later = pcl_future_new(PCL_OUTPUT, "the value of a component declared later");
    f->slots[i] = pcl_future_to_value(later);
    pcl_future_release(later);
  }
  return f->slots[i];
}

pcl_run *pcl_gen_run(const pcl_gen_env *e) { return e->f->run; }

/* ------------------------------------------------------------------ errors */

/* Returns the name of the file of location loc of prog (NULL: none). */
static const char *loc_file(const pcl_gen_program *prog, uint32_t loc) {
  /* The last run starting at or before loc. */
  size_t lo = 0, hi = prog->nloc_runs;
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (prog->loc_runs[mid].first <= loc) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return prog->files[prog->loc_runs[lo].file];
}

const char *pcl__gen_loc_where(const pcl_gen_program *prog, uint32_t loc, unsigned *line,
                               unsigned *column) {
  const pcl_gen_loc *l = &prog->locs[loc];
  const char *file = l->line != 0 ? loc_file(prog, loc) : NULL;
  *line = file != NULL ? l->line : 0;
  *column = file != NULL ? l->col : 0;
  return file;
}

pcl_error *pcl__gen_locate(const pcl_gen_program *prog, pcl_error *err, uint32_t loc) {
  const pcl_gen_loc *l = &prog->locs[loc];
  /* pcl_error_set_location keeps a location the error already has, and
   * ignores a NULL file. */
  if (l->line != 0) {
    pcl_error_set_location(err, loc_file(prog, loc), l->line, l->col);
  }
  return err;
}

pcl_value *pcl__gen_future_value_take(pcl_future *fut) {
  pcl_value *v = pcl_future_to_value(fut);
  pcl_future_release(fut);
  return v;
}

pcl_value *pcl__gen_rejected(const pcl_gen_program *prog, pcl_error *err, uint32_t loc) {
  pcl_future *r = pcl_future_new(PCL_OUTPUT, NULL);
  pcl_future_reject_take(r, pcl__gen_locate(prog, err, loc));
  return pcl__gen_future_value_take(r);
}

pcl_value *pcl__gen_apply_take(pcl_future *const *fs, size_t n, pcl_apply_fn fn, void *data,
                               void (*free_data)(void *data)) {
  pcl_future *r = pcl_apply(fs, n, fn, data, free_data, 0);
  for (size_t i = 0; i < n; i++) {
    pcl_future_release(fs[i]);
  }
  return pcl__gen_future_value_take(r);
}

/* The state of pcl__gen_located_take: the future returned and where a
 * rejection is located. */
typedef struct relay {
  pcl_future *result;           /* The future returned (owned). */
  const pcl_gen_program *prog;  /* The program (static). */
  uint32_t loc;                 /* The location given to a rejection. */
} relay;

/* Settles r->result as f settled, adding the location to a rejection. */
static void relay_cb(pcl_future *f, void *data) {
  relay *r = data;
  if (pcl_future_state_of(f) == PCL_FUTURE_REJECTED) {
    pcl_error *err = pcl_error_copy(pcl_future_error(f));
    pcl_future_reject_take(r->result, pcl__gen_locate(r->prog, err, r->loc));
  } else {
    pcl_future_resolve(r->result, pcl_future_value(f), pcl_future_bits(f), pcl_future_deps(f));
  }
  pcl_future_release(r->result);
  pcl_future_release(f);
  free(r);
}

pcl_value *pcl__gen_located_take(const pcl_gen_program *prog, uint32_t loc, pcl_future *fut) {
  relay *r = pcl_xmalloc(sizeof *r);
  r->result = pcl_future_new(pcl_future_kind_of(fut), NULL);
  r->prog = prog;
  r->loc = loc;
  pcl_value *v = pcl_future_to_value(r->result);
  /* The relay keeps the reference the caller gave, dropped once it ran. */
  pcl_future_then(fut, relay_cb, r);
  return v;
}

pcl_error *pcl_gen_locate(const pcl_gen_env *e, pcl_error *err, uint32_t loc) {
  return pcl__gen_locate(e->f->prog, err, loc);
}

pcl_value *pcl_gen_failed(const pcl_gen_env *e, pcl_error *err, uint32_t loc) {
  return pcl__gen_rejected(e->f->prog, err, loc);
}

pcl_value *pcl_gen_fail(const pcl_gen_env *e, const pcl_value *message, uint32_t loc,
                        pcl_error **err) {
  *err = pcl_gen_locate(e, pcl_error_new("%s", pcl_str_data(message)), loc);
  return NULL;
}

/* --------------------------------------------------------------- operands */

bool pcl__gen_unsettled(const pcl_value *v) {
  pcl_kind k = pcl_kind_of(v);
  return k == PCL_T_EVENTUAL || k == PCL_T_SECRET || k == PCL_T_UNKNOWN;
}

pcl_value *pcl_gen_truth(const pcl_value *v, pcl_error **err) {
  bool t;
  return pcl_condition_get(v, &t, err) ? pcl_bool(t) : NULL;
}

pcl_value *pcl_gen_capture(pcl_gen_env *closure, pcl_gen_thunk_fn thunk, uint32_t loc) {
  pcl_error *err = NULL;
  pcl_value *v = thunk(closure, &err);
  pcl_value *r = v != NULL ? v : pcl__gen_rejected(closure->f->prog, err, loc);
  pcl_gen_env_release(closure);
  return r;
}

/* ------------------------------------------------------------------ applies */

/* The values plain_of looks for: a SECRET or an UNKNOWN. */
static bool is_mark(const pcl_value *v) {
  return pcl_kind_of(v) == PCL_T_SECRET || pcl_kind_of(v) == PCL_T_UNKNOWN;
}

/* Returns v made plain (owned): its SECRETs stripped, noted in *secret.
 * An UNKNOWN anywhere inside sets *unknown, and v itself is returned (the
 * caller does not use it).  v holds no EVENTUAL. */
static pcl_value *plain_of(pcl_value *v, bool *secret, bool *unknown) {
  /* The flags say at once that most values hold no mark: a large value
   * handed to an apply once per element is not walked each time. */
  if (!pcl__may_hold_mark(v) || !pcl__value_any(v, is_mark)) {
    return pcl_retain(v);
  }
  bool s = pcl_has_secret(v);
  *secret = *secret || s;
  if (pcl__value_contains_kind(v, PCL_T_UNKNOWN)) {
    *unknown = true;
    return pcl_retain(v);
  }
  return s ? pcl_strip_secrets(v) : pcl_retain(v);
}

/* Returns v (stolen) made secret: a SECRET value, or for an EVENTUAL a
 * future made secret. */
static pcl_value *secret_take(pcl_value *v) {
  pcl_value *s = pcl_gen_secret(v);
  pcl_release(v);
  return s;
}

/* Runs body on args[0..n) (plain at the top, holding no EVENTUAL) made
 * plain: skipped with an UNKNOWN result when one is unknown, its result made
 * secret when one held a secret.  Returns the result (owned) or NULL with
 * *err. */
static pcl_value *run_body(pcl_gen_env *closure, pcl_gen_apply_fn body, pcl_value *const *args,
                           size_t n, pcl_error **err) {
  pcl_value *small[8] = {NULL};
  pcl_value **p = n <= 8 ? small : pcl_xmalloc(n * sizeof *p);
  bool secret = false, unknown = false;
  for (size_t i = 0; i < n; i++) {
    p[i] = plain_of(args[i], &secret, &unknown);
  }
  /* The body sees the arguments without their secrets: a message it makes
   * must not show them (pcl_value_repr prints "[secret]" in the scope). */
  if (secret) {
    pcl__redact_enter();
  }
  pcl_value *r = unknown ? pcl_unknown() : body(closure, p, err);
  if (secret) {
    pcl__redact_leave();
  }
  for (size_t i = 0; i < n; i++) {
    pcl_release(p[i]);
  }
  if (p != small) {
    free(p);
  }
  return r != NULL && secret ? secret_take(r) : r;
}

/* A pending apply: its closure and body, and the arguments that needed no
 * waiting. */
typedef struct gen_apply {
  pcl_gen_env *closure;   /* The body's environment (owned). */
  pcl_gen_apply_fn body;  /* The body. */
  size_t n;               /* Number of arguments. */
  pcl_value *plain[];     /* Per argument: its value when it needed no
                             waiting (owned), else NULL: the value comes
                             from the next awaited future. */
} gen_apply;

static void gen_apply_free(void *data) {
  gen_apply *a = data;
  for (size_t i = 0; i < a->n; i++) {
    pcl_release(a->plain[i]);
  }
  pcl_gen_env_release(a->closure);
  pcl__pool_free(a, sizeof *a + a->n * sizeof a->plain[0]);
}

/* The apply's callback: the awaited values are vals[0..m), in argument
 * order.  A value read from a future at the top may still hold futures
 * further in: the body then waits again, through a new apply. */
static pcl_value *gen_apply_cb(pcl_value *const *vals, size_t m, void *data, pcl_error **err) {
  gen_apply *a = data;
  (void)m;
  pcl_value *small[8];
  pcl_value **args = a->n <= 8 ? small : pcl_xmalloc(a->n * sizeof *args);
  bool again = false;
  size_t k = 0;
  for (size_t i = 0; i < a->n; i++) {
    args[i] = a->plain[i] != NULL ? a->plain[i] : vals[k++];
    again = again || (a->plain[i] == NULL && pcl__value_contains_kind(args[i], PCL_T_EVENTUAL));
  }
  pcl_value *r;
  if (again) {
    a->closure->refs++;
    r = pcl_gen_apply(a->closure, a->body, args, a->n);
  } else {
    r = run_body(a->closure, a->body, args, a->n, err);
  }
  if (args != small) {
    free(args);
  }
  return r;
}

/* Whether the apply argument v must be waited for: a future at its top or
 * anywhere inside. */
static bool pending_arg(const pcl_value *v) {
  return pcl_value_future(v) != NULL || pcl__value_contains_kind(v, PCL_T_EVENTUAL);
}

/* Runs body at once on the settled args (borrowed), consuming closure: as
 * the operation would run outside an apply, not a turn of the loop later,
 * so that the order of registrations does not depend on how fast the
 * engine answers.  A failure (located by the body) is a rejected future. */
static pcl_value *apply_now(pcl_gen_env *closure, pcl_gen_apply_fn body, pcl_value *const *args,
                            size_t n) {
  pcl_error *err = NULL;
  pcl_value *r = run_body(closure, body, args, n, &err);
  pcl_gen_env_release(closure);
  if (r == NULL) {
    pcl_future *f = pcl_future_new(PCL_OUTPUT, NULL);
    pcl_future_reject_take(f, err);
    r = pcl__gen_future_value_take(f);
  }
  return r;
}

pcl_value *pcl_gen_apply(pcl_gen_env *closure, pcl_gen_apply_fn body, pcl_value *const *args,
                         size_t n) {
  size_t waits = 0;
  for (size_t i = 0; i < n; i++) {
    waits += pending_arg(args[i]);
  }
  if (waits == 0) {
    /* Every argument is settled (a config's value, say). */
    return apply_now(closure, body, args, n);
  }
  gen_apply *a = pcl__pool_alloc(sizeof *a + n * sizeof a->plain[0]);
  a->closure = closure;
  a->body = body;
  a->n = n;
  pcl_future *small[8];
  pcl_future **fs = waits <= 8 ? small : pcl_xmalloc(waits * sizeof *fs);
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    a->plain[i] = NULL;
    pcl_future *top = pcl_value_future(args[i]);
    if (top != NULL) {
      /* A future at the top is awaited as it is (the common case: no join
       * of its own); the callback awaits what its value still holds. */
      fs[k++] = pcl_future_retain(top);
    } else if (pcl__value_contains_kind(args[i], PCL_T_EVENTUAL)) {
      fs[k++] = pcl_future_await_deep(args[i]);
    } else {
      a->plain[i] = pcl_retain(args[i]);
    }
  }
  pcl_value *r = pcl__gen_apply_take(fs, waits, gen_apply_cb, a, gen_apply_free);
  if (fs != small) {
    free(fs);
  }
  return r;
}

/* -------------------------------------------------------------- && and || */

/* a && b (decider false) or a || b (decider true) on plain operands, each
 * possibly UNKNOWN (types.md 10, pcl_op_and and pcl_op_or).  Returns NULL
 * with *err when an operand does not convert to a bool. */
static pcl_value *logic_value(bool decider, const pcl_value *a, const pcl_value *b,
                              pcl_error **err) {
  return decider ? pcl_op_or(a, b, err) : pcl_op_and(a, b, err);
}

/* Returns whether the operand v (plain, or UNKNOWN) decides a logic
 * operator whose deciding value is decider on its own. */
static bool decides(const pcl_value *v, bool decider) {
  bool t;
  pcl_error *err = NULL;
  if (pcl_kind_of(v) == PCL_T_UNKNOWN) {
    return false;
  }
  if (!pcl_condition_get(v, &t, &err)) {
    pcl_error_free(err);
    return false;
  }
  return t == decider;
}

/* An && or || waiting for both operands to settle.  Unlike an apply it also
 * decides when an operand failed: the side that decides the result wins
 * over an error on the other side (`false && X` is false even when X
 * failed), which pcl_apply, rejecting on the first failed input, cannot
 * express. */
typedef struct logic {
  const pcl_gen_program *prog; /* For the location of the operator's errors. */
  uint32_t loc;                /* That location. */
  bool decider;                /* true for ||, false for &&. */
  unsigned pending;            /* Operands not settled yet. */
  pcl_future *sides[2];        /* The operands' futures (owned). */
  pcl_future *result;          /* The expression's value (owned). */
} logic;

/* Settles l->result from the settled operands and frees l. */
static void logic_decide(logic *l) {
  pcl_value *v[2];
  unsigned bits = 0;
  pcl_deps *deps = NULL;
  const pcl_error *failed = NULL;
  bool decided = false;
  for (unsigned i = 0; i < 2; i++) {
    pcl_future *f = l->sides[i];
    if (pcl_future_state_of(f) == PCL_FUTURE_REJECTED) {
      failed = failed != NULL ? failed : pcl_future_error(f);
      v[i] = NULL;
      continue;
    }
    bits |= pcl_future_bits(f) & PCL_FUT_SECRET;
    pcl_deps *u = pcl_deps_union(deps, pcl_future_deps(f));
    pcl_deps_release(deps);
    deps = u;
    v[i] = (pcl_future_bits(f) & PCL_FUT_UNKNOWN) ? pcl_unknown() : pcl_future_value(f);
    decided = decided || decides(v[i], l->decider);
  }
  if (failed != NULL && !decided) {
    pcl_future_reject(l->result, failed);
  } else {
    pcl_error *err = NULL;
    pcl_value *r = failed != NULL ? pcl_bool(l->decider) : logic_value(l->decider, v[0], v[1], &err);
    if (r == NULL) {
      pcl_future_reject_take(l->result, pcl__gen_locate(l->prog, err, l->loc));
    } else {
      pcl_future_resolve(l->result, r, bits, deps);
    }
  }
  for (unsigned i = 0; i < 2; i++) {
    pcl_future_release(l->sides[i]);
  }
  pcl_deps_release(deps);
  pcl_future_release(l->result);
  free(l);
}

static void logic_cb(pcl_future *f, void *data) {
  logic *l = data;
  (void)f;
  if (--l->pending == 0) {
    logic_decide(l);
  }
}

const pcl_error *pcl__gen_failure(const pcl_value *v) {
  pcl_future *f = pcl_value_future(v);
  if (f == NULL || pcl_future_state_of(f) != PCL_FUTURE_REJECTED) {
    return NULL;
  }
  pcl_future_mark_handled(f);
  return pcl_future_error(f);
}

pcl_value *pcl_gen_logic(const pcl_gen_env *e, bool and, pcl_value *a, pcl_value *b,
                         uint32_t loc, pcl_error **err) {
  const pcl_error *fa = pcl__gen_failure(a), *fb = pcl__gen_failure(b);
  if ((fa != NULL || !pcl__gen_unsettled(a)) && (fb != NULL || !pcl__gen_unsettled(b))) {
    /* Both operands are settled: decided at once, so that plain operands
       give a plain bool or a failure, as the expression's static type says,
       even when one of them failed. */
    if (fa != NULL || fb != NULL) {
      if ((fa == NULL && decides(a, !and)) || (fb == NULL && decides(b, !and))) {
        return pcl_bool(!and);
      }
      *err = pcl_error_copy(fa != NULL ? fa : fb);
      return NULL;
    }
    pcl_value *r = logic_value(!and, a, b, err);
    if (r == NULL) {
      *err = pcl_gen_locate(e, *err, loc);
    }
    return r;
  }
  logic *l = pcl_xmalloc(sizeof *l);
  l->prog = e->f->prog;
  l->loc = loc;
  l->decider = !and;
  l->pending = 2;
  l->sides[0] = pcl_future_of_value(a);
  l->sides[1] = pcl_future_of_value(b);
  bool output = pcl_future_kind_of(l->sides[0]) == PCL_OUTPUT ||
                pcl_future_kind_of(l->sides[1]) == PCL_OUTPUT;
  l->result = pcl_future_new(output ? PCL_OUTPUT : PCL_PROMISE, NULL);
  pcl_value *r = pcl_future_to_value(l->result);
  pcl_future_then(l->sides[0], logic_cb, l);
  pcl_future_then(l->sides[1], logic_cb, l);
  return r;
}

/* ------------------------------------------------------------- entry point */

/* The program pcl_gen_main runs, for its start function (pcl_main runs one
 * program at a time and its start function takes no data). */
static const pcl_gen_program *running;

static void gen_start(pcl_run *run) {
  run->packages = running->packages;
  run->npackages = running->npackages;
  pcl__gen_module_run(run, running, running->main, NULL, NULL, NULL, NULL);
}

int pcl_gen_main(int argc, char **argv, const pcl_gen_program *p) {
  if (p->abi != PCL_GEN_ABI) {
    fprintf(stderr,
            "error: %s: this program was generated by %s for the libpclrt ABI %u, but it is "
            "linked with a libpclrt of ABI %d; compile it again with the pclc that came with "
            "this libpclrt\n",
            argc > 0 ? argv[0] : "program", p->generator ? p->generator : "an unknown pclc",
            p->abi, PCL_GEN_ABI);
    return 2;
  }
  const pcl_program prog = {p->name, p->configs, p->nconfigs, gen_start};
  running = p;
  int status = pcl_main(argc, argv, &prog);
  running = NULL;
  return status;
}
