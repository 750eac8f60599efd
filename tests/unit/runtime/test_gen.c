/* test_gen.c: the core operations of generated code (runtime/gen/gen.c):
 * environments and their references, error locations, applies (bodies run
 * later, always; deep normalisation of the arguments, secrets, unknowns,
 * rejections, flattening), && and || with a deciding side that wins over
 * errors and unknowns, the truth of conditions, operands captured with
 * their failures, and the ABI check of pcl_gen_main.  The functions here
 * play the part of generated code: their rows are static arrays, their
 * constants PCL_STATIC_* values. */
#include "gen_check.h"

/* ------------------------------------------------------------ the program */

static pcl_value K[] = {
    PCL_STATIC_INT(10),        /* 0 */
    PCL_STATIC_ASCII("boom"),  /* 1 */
    PCL_STATIC_ASCII("label"), /* 2 */
};
static const pcl_gen_loc L[] = {
    {0, 0},     /* 0: no location */
    {3, 5},     /* 1 */
    {7, 2},     /* 2 */
};
/* The files of the locations: runs starting at a location. */
static const pcl_gen_loc_run LR[] = {
    {0, 0},
    {2, 1},
};
static const char *const F[] = {"main.pp", "lib.pp"};
/* Rows: 0 the adder's (constant 0), 1 the failing body's (constant 1,
 * location 2). */
static const uint32_t ROWS[] = {0, 1, 2};

static pcl_value *null_node(pcl_gen_env *e) {
  (void)e;
  return pcl_null();
}
static const pcl_gen_node_desc NODES[] = {{null_node, 0}, {null_node, 0}};
static const pcl_gen_module M = {NODES, 2};
static const pcl_gen_program P = {PCL_GEN_ABI, &PCL_GEN_ABI_SYMBOL, "pclc test", "gen", NULL, 0, &M,
                                  ROWS, K, L, LR, 2, F, NULL, 0};

/* ------------------------------------------------------ environments */

static void test_envs(void) {
  GFX_BEGIN(&P, false);
  pcl_value *s = pcl_str_from_cstr("captured");
  pcl_value *vals[] = {s, &K[0]};
  pcl_gen_env *c = pcl_gen_env_new(&e, ROWS + 1, 2, vals);
  CU_ASSERT_EQUAL(c->refs, 1);
  CU_ASSERT_PTR_EQUAL(c->f, x.f);
  CU_ASSERT_EQUAL(x.f->refs, 2);
  CU_ASSERT_PTR_EQUAL(c->r, ROWS + 1);
  CU_ASSERT_EQUAL(c->n, 2);
  CU_ASSERT_PTR_EQUAL(c->v[0], s);
  pcl_release(s);
  CU_ASSERT_STRING_EQUAL(pcl_str_data(c->v[0]), "captured");
  /* A closure made from a closure shares the frame. */
  pcl_gen_env *c2 = pcl_gen_env_new(c, ROWS, 1, c->v);
  CU_ASSERT_EQUAL(x.f->refs, 3);
  pcl_gen_env_release(c);
  pcl_gen_env_release(c2);
  /* Stack environments and NULL are left alone. */
  pcl_gen_env_release(&e);
  pcl_gen_env_release(NULL);
  /* Node values.  A node not evaluated yet (a component read by one before
   * it) reads as a future, the same one each time, which the module walk
   * resolves with the node's value (test_gen_node). */
  pcl_value *later = pcl_gen_node(&e, 1);
  CU_ASSERT_PTR_NOT_NULL_FATAL(pcl_value_future(later));
  CU_ASSERT_EQUAL(pcl_future_state_of(pcl_value_future(later)), PCL_FUTURE_PENDING);
  CU_ASSERT_PTR_EQUAL(pcl_gen_node(&e, 1), later);
  pcl_future_resolve(pcl_value_future(later), NULL, 0, NULL);
  x.f->slots[0] = pcl_int_new(7);
  CU_ASSERT_EQUAL(pcl_kind_of(pcl_gen_node(&e, 0)), PCL_T_INT);
  CU_ASSERT_PTR_EQUAL(pcl_gen_run(&e), &x.run);
  gfx_done(&x);
}

/* ------------------------------------------------------------ errors */

static void test_errors(void) {
  GFX_BEGIN(&P, false);
  CHECK_ERR(pcl_gen_locate(&e, pcl_error_new("bad"), 1), "main.pp:3:5: error: bad");
  CHECK_ERR(pcl_gen_locate(&e, pcl_error_new("bad"), 2), "lib.pp:7:2: error: bad");
  /* Location 0 is none, and a location already attached stays. */
  CHECK_ERR(pcl_gen_locate(&e, pcl_error_new("bad"), 0), "error: bad");
  CHECK_ERR(pcl_gen_locate(&e, pcl_gen_locate(&e, pcl_error_new("bad"), 2), 1),
            "lib.pp:7:2: error: bad");
  pcl_value *v = pcl_gen_failed(&e, pcl_error_new("node failed"), 1);
  CHECK_REJECTED(v, "main.pp:3:5: error: node failed");
  pcl_error *err = NULL;
  CU_ASSERT_PTR_NULL(pcl_gen_fail(&e, &K[1], 2, &err));
  CHECK_ERR(err, "lib.pp:7:2: error: boom");
  gfx_done(&x);
}

/* ------------------------------------------------------------ applies */

/* Returns whether v is a mark that an apply body must never see. */
static bool is_mark(const pcl_value *v) {
  pcl_kind k = pcl_kind_of(v);
  return k == PCL_T_SECRET || k == PCL_T_UNKNOWN || k == PCL_T_EVENTUAL;
}

static int body_calls;

/* An apply body: p[0] + the row's constant, after checking that every
 * argument is plain. */
static pcl_value *add_body(pcl_gen_env *e, pcl_value *const *p, pcl_error **err) {
  body_calls++;
  CU_ASSERT_FALSE(pcl__value_any(p[0], is_mark));
  return pcl_op_add(p[0], &K[e->r[0]], err);
}

/* An apply body: the snapshot JSON of its arguments, after checking that
 * they are plain. */
static pcl_value *json_body(pcl_gen_env *e, pcl_value *const *p, pcl_error **err) {
  (void)err;
  body_calls++;
  pcl_strbuf b = PCL_STRBUF_INIT;
  for (size_t i = 0; i < e->n; i++) {
    CU_ASSERT_FALSE(pcl__value_any(p[i], is_mark));
    pcl__snap_encode(&b, p[i], -1, false);
    pcl_strbuf_append_char(&b, ';');
  }
  pcl_value *s = pcl_str_from_cstr(b.data);
  pcl_strbuf_free(&b);
  return s;
}

/* An apply body that fails with the row's message at the row's location. */
static pcl_value *fail_body(pcl_gen_env *e, pcl_value *const *p, pcl_error **err) {
  (void)p;
  body_calls++;
  return pcl_gen_fail(e, &K[e->r[0]], e->r[1], err);
}

/* An apply body whose result is its captured value (an EVENTUAL). */
static pcl_value *captured_body(pcl_gen_env *e, pcl_value *const *p, pcl_error **err) {
  (void)p;
  (void)err;
  body_calls++;
  return pcl_retain(e->v[0]);
}

/* Returns a closure of e for a body whose row is r, capturing nothing. */
static pcl_gen_env *closure(const pcl_gen_env *e, const uint32_t *r) {
  return pcl_gen_env_new(e, r, 0, NULL);
}

/* Returns a closure whose captured values are vals[0..n) (json_body prints
 * that many arguments). */
static pcl_gen_env *closure_n(const pcl_gen_env *e, size_t n, pcl_value *const *vals) {
  return pcl_gen_env_new(e, ROWS, n, vals);
}

static void test_apply_deferred(void) {
  GFX_BEGIN(&P, false);
  body_calls = 0;
  /* Plain arguments: nothing to wait for, the body runs in the call and
   * its result is the apply's value. */
  pcl_value *one = pcl_int_new(1);
  pcl_value *r = pcl_gen_apply(closure(&e, ROWS), add_body, &one, 1);
  CU_ASSERT_EQUAL(body_calls, 1);
  CU_ASSERT_EQUAL(pcl_kind_of(r), PCL_T_INT);
  CHECK_JSON(r, "11");
  /* A future argument: the body waits for it; secret and dependencies carry
   * over to the result. */
  pcl_value *ev;
  pcl_future *f = pending(&ev);
  r = pcl_gen_apply(closure(&e, ROWS), add_body, &ev, 1);
  pcl_sched_run();
  CU_ASSERT_EQUAL(body_calls, 1);
  pcl_deps *d = pcl_deps_one("urn:a");
  pcl_future_resolve(f, one, PCL_FUT_SECRET, d);
  pcl_sched_run();
  CU_ASSERT_EQUAL(body_calls, 2);
  CU_ASSERT(pcl_deps_has(deps_of(r), "urn:a"));
  CHECK_JSON(r, "{\"secret\":11}");
  pcl_future_release(f);
  pcl_release(ev);
  pcl_deps_release(d);
  pcl_release(one);
  gfx_done(&x);
}

static void test_apply_normalises(void) {
  GFX_BEGIN(&P, false);
  body_calls = 0;
  /* A list holding a future and a nested secret: the body sees the list
   * with the future's value and no secret; the result is secret. */
  pcl_value *ev;
  pcl_future *f = pending(&ev);
  pcl_value *s = pcl_str_from_cstr("s");
  pcl_value *sec = pcl_secret_new(s);
  pcl_value *inner = pcl_list_of((pcl_value *[]){sec, &K[0]}, 2);
  pcl_value *arg = pcl_list_of((pcl_value *[]){ev, inner}, 2);
  pcl_value *r = pcl_gen_apply(closure_n(&e, 1, &arg), json_body, &arg, 1);
  pcl_value *two = pcl_int_new(2);
  pcl_future_resolve(f, two, 0, NULL);
  pcl_sched_run();
  CHECK_JSON(r, "{\"secret\":\"[2,[\\\"s\\\",10]];\"}");
  /* A nested unknown skips the body: the result is unknown, and secret when
   * an argument held a secret. */
  pcl_value *unk = pcl_list_of((pcl_value *[]){pcl_unknown()}, 1);
  pcl_value *args[] = {unk, inner};
  r = pcl_gen_apply(closure_n(&e, 2, args), json_body, args, 2);
  pcl_sched_run();
  CU_ASSERT_EQUAL(body_calls, 1);
  CHECK_JSON(r, "{\"secret\":{\"unknown\":true}}");
  /* A future whose value holds another future: the body waits for both. */
  pcl_value *ev2;
  pcl_future *f2 = pending(&ev2);
  pcl_value *holder = pcl_list_of(&ev2, 1);
  pcl_value *ev3;
  pcl_future *f3 = pending(&ev3);
  r = pcl_gen_apply(closure_n(&e, 1, &ev3), json_body, &ev3, 1);
  pcl_future_resolve(f3, holder, 0, NULL);
  pcl_sched_run();
  CU_ASSERT_EQUAL(body_calls, 1);
  pcl_future_resolve(f2, &K[2], 0, NULL);
  pcl_sched_run();
  CU_ASSERT_EQUAL(body_calls, 2);
  CHECK_JSON(r, "\"[\\\"label\\\"];\"");
  /* More arguments than the small arrays hold. */
  pcl_value *many[12];
  for (size_t i = 0; i < 12; i++) {
    many[i] = i % 3 == 0 ? pcl_future_to_value(f) : pcl_int_new((int64_t)i);
  }
  r = pcl_gen_apply(closure_n(&e, 12, many), json_body, many, 12);
  pcl_sched_run();
  CHECK_JSON(r, "\"2;1;2;2;4;5;2;7;8;2;10;11;\"");
  for (size_t i = 0; i < 12; i++) {
    pcl_release(many[i]);
  }
  RELEASE_FUTURES(f, f2, f3);
  RELEASE(ev, s, sec, inner, arg, two, unk, ev2, holder, ev3);
  gfx_done(&x);
}

static void test_apply_outcomes(void) {
  GFX_BEGIN(&P, false);
  body_calls = 0;
  /* A rejected argument rejects the result without running the body. */
  pcl_value *bad = pcl_gen_failed(&e, pcl_error_new("upstream"), 2);
  pcl_value *r = pcl_gen_apply(closure(&e, ROWS), add_body, &bad, 1);
  pcl_sched_run();
  CU_ASSERT_EQUAL(body_calls, 0);
  CHECK_REJECTED(r, "lib.pp:7:2: error: upstream");
  /* A failing body rejects the result with its own located error. */
  pcl_value *one = pcl_int_new(1);
  r = pcl_gen_apply(closure(&e, ROWS + 1), fail_body, &one, 1);
  pcl_sched_run();
  CHECK_REJECTED(r, "lib.pp:7:2: error: boom");
  /* An EVENTUAL result is followed, with its own marks. */
  pcl_value *ev;
  pcl_future *f = pending(&ev);
  r = pcl_gen_apply(closure_n(&e, 1, &ev), captured_body, &one, 1);
  pcl_sched_run();
  CU_ASSERT_EQUAL(pcl_future_state_of(pcl_value_future(r)), PCL_FUTURE_PENDING);
  pcl_future_resolve(f, &K[2], PCL_FUT_SECRET, NULL);
  pcl_sched_run();
  CHECK_JSON(r, "{\"secret\":\"label\"}");
  pcl_future_release(f);
  RELEASE(ev, one, bad);
  gfx_done(&x);
}

/* Arguments that hold secrets or unknowns but no future: the body still
 * runs from the loop, on the plain values. */
static void test_apply_marks(void) {
  GFX_BEGIN(&P, false);
  body_calls = 0;
  /* A secret at the top is stripped for the body; the result is secret. */
  pcl_value *one = pcl_int_new(1);
  pcl_value *sec = pcl_secret_new(one);
  pcl_value *r = pcl_gen_apply(closure(&e, ROWS), add_body, &sec, 1);
  CU_ASSERT_EQUAL(body_calls, 1);
  CU_ASSERT_EQUAL(pcl_kind_of(r), PCL_T_SECRET);
  CHECK_JSON(r, "{\"secret\":11}");
  /* An unknown at the top skips the body: the result is unknown. */
  r = pcl_gen_apply(closure(&e, ROWS), add_body, (pcl_value *[]){pcl_unknown()}, 1);
  pcl_sched_run();
  CU_ASSERT_EQUAL(body_calls, 1);
  CHECK_JSON(r, "{\"unknown\":true}");
  /* A secret and an unknown: unknown, and secret. */
  r = pcl_gen_apply(closure_n(&e, 2, (pcl_value *[]){sec, pcl_unknown()}), json_body,
                    (pcl_value *[]){sec, pcl_unknown()}, 2);
  pcl_sched_run();
  CU_ASSERT_EQUAL(body_calls, 1);
  CHECK_JSON(r, "{\"secret\":{\"unknown\":true}}");
  /* A body failing on a secret argument rejects the result. */
  r = pcl_gen_apply(closure(&e, ROWS + 1), fail_body, &sec, 1);
  pcl_sched_run();
  CU_ASSERT_EQUAL(body_calls, 2);
  CHECK_REJECTED(r, "lib.pp:7:2: error: boom");
  RELEASE(sec, one);
  gfx_done(&x);
}

/* ------------------------------------------------------------ && and || */

static void test_logic_plain(void) {
  GFX_BEGIN(&P, false);
  pcl_error *err = NULL;
  pcl_value *t = pcl_bool(true), *fl = pcl_bool(false);
  CU_ASSERT_PTR_EQUAL(pcl_gen_logic(&e, true, t, t, 1, &err), t);
  CU_ASSERT_PTR_EQUAL(pcl_gen_logic(&e, true, t, fl, 1, &err), fl);
  CU_ASSERT_PTR_EQUAL(pcl_gen_logic(&e, true, fl, t, 1, &err), fl);
  CU_ASSERT_PTR_EQUAL(pcl_gen_logic(&e, false, fl, fl, 1, &err), fl);
  CU_ASSERT_PTR_EQUAL(pcl_gen_logic(&e, false, fl, t, 1, &err), t);
  /* The strings "true", "1", "false" and "0" convert (types.md 10). */
  pcl_value *s1 = pcl_str_from_cstr("1"), *sf = pcl_str_from_cstr("false");
  CU_ASSERT_PTR_EQUAL(pcl_gen_logic(&e, true, s1, t, 1, &err), t);
  CU_ASSERT_PTR_EQUAL(pcl_gen_logic(&e, false, sf, fl, 1, &err), fl);
  CU_ASSERT_PTR_NULL(err);
  /* Other operands fail at once, located at the operator. */
  pcl_value *n = pcl_int_new(3);
  CU_ASSERT_PTR_NULL(pcl_gen_logic(&e, true, t, n, 1, &err));
  CHECK_ERR(err, "main.pp:3:5: error: invalid right operand: cannot convert 3 to bool: a bool "
                 "is required");
  err = NULL;
  CU_ASSERT_PTR_NULL(pcl_gen_logic(&e, false, pcl_null(), t, 1, &err));
  CHECK_ERR(err, "main.pp:3:5: error: invalid left operand null: a bool is required");
  RELEASE(s1, sf, n);
  gfx_done(&x);
}

static void test_logic_failed(void) {
  GFX_BEGIN(&P, false);
  pcl_error *err = NULL;
  pcl_value *t = pcl_bool(true), *fl = pcl_bool(false);
  pcl_value *bad = pcl_gen_failed(&e, pcl_error_new("missing key"), 2);
  /* A failed operand and a plain one are decided at once: the deciding
   * side wins over the failure, either way round; otherwise the failure is
   * the result. */
  CU_ASSERT_PTR_EQUAL(pcl_gen_logic(&e, true, fl, bad, 1, &err), fl);
  CU_ASSERT_PTR_EQUAL(pcl_gen_logic(&e, false, bad, t, 1, &err), t);
  CU_ASSERT_PTR_NULL(err);
  CU_ASSERT_PTR_NULL(pcl_gen_logic(&e, true, t, bad, 1, &err));
  CHECK_ERR(err, "lib.pp:7:2: error: missing key");
  err = NULL;
  CU_ASSERT_PTR_NULL(pcl_gen_logic(&e, false, bad, fl, 1, &err));
  CHECK_ERR(err, "lib.pp:7:2: error: missing key");
  err = NULL;
  CU_ASSERT_PTR_NULL(pcl_gen_logic(&e, true, bad, bad, 1, &err));
  CHECK_ERR(err, "lib.pp:7:2: error: missing key");
  err = NULL;
  /* The failure was handled: dropping it leaves no unobserved rejection. */
  pcl_release(bad);
  pcl_error *unhandled = pcl_sched_take_unhandled();
  CU_ASSERT_PTR_NULL(unhandled);
  pcl_error_free(unhandled);
  /* With an operand still eventual, the result waits for it and decides in
   * the same way. */
  bad = pcl_gen_failed(&e, pcl_error_new("missing key"), 2);
  pcl_value *ev, *ev2;
  pcl_future *f = pending(&ev), *f2 = pending(&ev2);
  pcl_value *r1 = pcl_gen_logic(&e, true, ev, bad, 1, &err);
  pcl_value *r2 = pcl_gen_logic(&e, true, bad, ev2, 1, &err);
  CU_ASSERT_EQUAL(pcl_kind_of(r1), PCL_T_EVENTUAL);
  CU_ASSERT_EQUAL(pcl_kind_of(r2), PCL_T_EVENTUAL);
  pcl_future_resolve(f, fl, 0, NULL);
  pcl_future_resolve(f2, t, 0, NULL);
  pcl_sched_run();
  CHECK_JSON(r1, "false");
  CHECK_REJECTED(r2, "lib.pp:7:2: error: missing key");
  CU_ASSERT_PTR_NULL(err);
  RELEASE_FUTURES(f, f2);
  RELEASE(bad, ev, ev2);
  gfx_done(&x);
}

static void test_logic_eventual(void) {
  GFX_BEGIN(&P, false);
  pcl_error *err = NULL;
  pcl_value *t = pcl_bool(true), *fl = pcl_bool(false);
  /* Unknowns: decided by the known side, else unknown; secrets and
   * dependencies of both sides carry over. */
  pcl_value *ev;
  pcl_future *f = pending(&ev);
  pcl_value *r5 = pcl_gen_logic(&e, true, ev, fl, 1, &err);
  pcl_value *r6 = pcl_gen_logic(&e, true, ev, t, 1, &err);
  pcl_value *r7 = pcl_gen_logic(&e, false, pcl_unknown(), t, 1, &err);
  pcl_value *sec = pcl_secret_new(t);
  pcl_value *r8 = pcl_gen_logic(&e, true, sec, t, 1, &err);
  pcl_sched_run();
  CU_ASSERT_EQUAL(pcl_future_state_of(pcl_value_future(r5)), PCL_FUTURE_PENDING);
  pcl_deps *d = pcl_deps_one("urn:u");
  pcl_future_resolve(f, NULL, PCL_FUT_UNKNOWN, d);
  pcl_sched_run();
  CU_ASSERT(pcl_deps_has(deps_of(r5), "urn:u"));
  CHECK_JSON(r5, "false");
  CHECK_JSON(r6, "{\"unknown\":true}");
  CHECK_JSON(r7, "true");
  CHECK_JSON(r8, "{\"secret\":true}");
  /* A settled operand that is no bool fails at the operator. */
  pcl_value *n = pcl_int_new(3);
  pcl_value *sn = pcl_secret_new(n);
  pcl_value *r9 = pcl_gen_logic(&e, true, sn, t, 1, &err);
  pcl_sched_run();
  CHECK_REJECTED(r9, "main.pp:3:5: error: invalid left operand: cannot convert 3 to bool: a "
                     "bool is required");
  CU_ASSERT_PTR_NULL(err);
  pcl_future_release(f);
  pcl_deps_release(d);
  RELEASE(ev, sec, n, sn);
  gfx_done(&x);
}

/* ------------------------------------------------------ conditions */

static void test_truth(void) {
  live_counts before = live_now();
  pcl_error *err = NULL;
  pcl_value *t = pcl_bool(true), *fl = pcl_bool(false);
  CU_ASSERT_PTR_EQUAL(pcl_gen_truth(t, &err), t);
  CU_ASSERT_PTR_EQUAL(pcl_gen_truth(fl, &err), fl);
  /* The strings "true", "1", "false" and "0" convert (types.md 4.5, 10). */
  const char *yes[] = {"true", "1"}, *no[] = {"false", "0"};
  for (size_t i = 0; i < 2; i++) {
    pcl_value *y = pcl_str_from_cstr(yes[i]), *n = pcl_str_from_cstr(no[i]);
    CU_ASSERT_PTR_EQUAL(pcl_gen_truth(y, &err), t);
    CU_ASSERT_PTR_EQUAL(pcl_gen_truth(n, &err), fl);
    RELEASE(y, n);
  }
  CU_ASSERT_PTR_NULL(err);
  /* Null and everything else fail. */
  CU_ASSERT_PTR_NULL(pcl_gen_truth(pcl_null(), &err));
  CHECK_ERR(err, "error: invalid condition null: a bool is required");
  pcl_value *one = pcl_int_new(1);
  CU_ASSERT_PTR_NULL(pcl_gen_truth(one, &err));
  CHECK_ERR(err, "error: invalid condition: cannot convert 1 to bool: a bool is required");
  pcl_value *upper = pcl_str_from_cstr("True");
  CU_ASSERT_PTR_NULL(pcl_gen_truth(upper, &err));
  CHECK_ERR(err, "error: invalid condition: cannot convert \"True\" to bool: a bool is "
                 "required; to convert from string, use lowercase \"true\"");
  pcl_value *yes_word = pcl_str_from_cstr("yes");
  CU_ASSERT_PTR_NULL(pcl_gen_truth(yes_word, &err));
  CHECK_ERR(err, "error: invalid condition: cannot convert \"yes\" to bool: a bool is "
                 "required");
  pcl_value *l = pcl_list_of(&t, 1);
  CU_ASSERT_PTR_NULL(pcl_gen_truth(l, &err));
  CHECK_ERR(err, "error: invalid condition: cannot convert list to bool: a bool is required");
  RELEASE(one, upper, yes_word, l);
  CHECK_NO_LEAK(before);
}

/* A thunk whose value is its captured value. */
static pcl_value *thunk_value(pcl_gen_env *e, pcl_error **err) {
  (void)err;
  return pcl_retain(e->v[0]);
}

/* A thunk failing with an error that has no location yet. */
static pcl_value *thunk_unlocated(pcl_gen_env *e, pcl_error **err) {
  (void)e;
  *err = pcl_error_new("missing key");
  return NULL;
}

/* A thunk failing with the row's message at the row's location. */
static pcl_value *thunk_located(pcl_gen_env *e, pcl_error **err) {
  return pcl_gen_fail(e, &K[e->r[0]], e->r[1], err);
}

static void test_capture(void) {
  GFX_BEGIN(&P, false);
  /* A value passes through as it is, plain or eventual. */
  pcl_value *s = pcl_str_from_cstr("kept");
  pcl_value *r = pcl_gen_capture(closure_n(&e, 1, &s), thunk_value, 1);
  CU_ASSERT_PTR_EQUAL(r, s);
  pcl_release(r);
  CU_ASSERT_EQUAL(x.f->refs, 1);
  pcl_value *ev;
  pcl_future *f = pending(&ev);
  r = pcl_gen_capture(closure_n(&e, 1, &ev), thunk_value, 1);
  CU_ASSERT_PTR_EQUAL(r, ev);
  pcl_release(r);
  /* A failure becomes a rejected EVENTUAL located at loc, unless it has a
   * location of its own. */
  r = pcl_gen_capture(closure(&e, ROWS), thunk_unlocated, 1);
  CU_ASSERT_EQUAL(pcl_kind_of(r), PCL_T_EVENTUAL);
  CHECK_REJECTED(r, "main.pp:3:5: error: missing key");
  CHECK_REJECTED(pcl_gen_capture(closure(&e, ROWS + 1), thunk_located, 1),
                 "lib.pp:7:2: error: boom");
  CU_ASSERT_EQUAL(x.f->refs, 1);
  /* What the capture is for: the operand of && or || that decides wins
   * over the captured failure of the other. */
  pcl_value *bad = pcl_gen_capture(closure(&e, ROWS), thunk_unlocated, 2);
  pcl_error *err = NULL;
  CU_ASSERT_PTR_EQUAL(pcl_gen_logic(&e, true, pcl_bool(false), bad, 1, &err), pcl_bool(false));
  CU_ASSERT_PTR_EQUAL(pcl_gen_logic(&e, false, bad, pcl_bool(true), 1, &err), pcl_bool(true));
  CU_ASSERT_PTR_NULL(pcl_gen_logic(&e, true, pcl_bool(true), bad, 1, &err));
  CHECK_ERR(err, "lib.pp:7:2: error: missing key");
  pcl_future_release(f);
  RELEASE(s, ev, bad);
  gfx_done(&x);
}

/* ------------------------------------------------------------ entry point */

static void test_abi(void) {
  CU_ASSERT_EQUAL(PCL_GEN_ABI_SYMBOL, PCL_GEN_ABI);
  /* A program generated for another ABI does not start. */
  static const pcl_gen_program old = {PCL_GEN_ABI + 1, &PCL_GEN_ABI_SYMBOL, "pclc 0.0.1", "old",
                                      NULL, 0, &M, ROWS, K, L, LR, 2, F, NULL, 0};
  live_counts before = live_now();
  rc_result r = rc_run_gen(&old, NULL);
  CU_ASSERT_EQUAL(r.status, 2);
  CU_ASSERT_STRING_EQUAL(r.out, "");
  char want[512];
  snprintf(want, sizeof want,
           "error: old: this program was generated by pclc 0.0.1 for the libpclrt ABI %d, but "
           "it is linked with a libpclrt of ABI %d; compile it again with the pclc that came "
           "with this libpclrt\n",
           PCL_GEN_ABI + 1, PCL_GEN_ABI);
  CU_ASSERT_STRING_EQUAL(r.err, want);
  rc_free(&r);
  /* The same program for this ABI runs (its nodes are null). */
  r = rc_run_gen(&P, NULL);
  CHECK_NO_LEAK(before);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_STRING_EQUAL(r.out, "{}\n");
  CU_ASSERT_STRING_EQUAL(r.err, "");
  rc_free(&r);
}

void register_gen_tests(void);
void register_gen_tests(void) {
  CU_pSuite s = CU_add_suite("gen", NULL, NULL);
  CU_add_test(s, "environments", test_envs);
  CU_add_test(s, "error locations", test_errors);
  CU_add_test(s, "applies wait only for what is pending", test_apply_deferred);
  CU_add_test(s, "applies normalise their arguments", test_apply_normalises);
  CU_add_test(s, "apply rejections and results", test_apply_outcomes);
  CU_add_test(s, "applies on secrets and unknowns", test_apply_marks);
  CU_add_test(s, "logic on plain operands", test_logic_plain);
  CU_add_test(s, "logic on failed operands", test_logic_failed);
  CU_add_test(s, "logic on eventual operands", test_logic_eventual);
  CU_add_test(s, "truth of conditions", test_truth);
  CU_add_test(s, "captured operands", test_capture);
  CU_add_test(s, "ABI check", test_abi);
}
