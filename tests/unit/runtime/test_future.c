/* test_future.c: futures and their combinators, driven the way emitted C
 * drives them: create futures, register callbacks, run the loop, inspect
 * the settled results.  Checks deferred callbacks, apply/all combinations,
 * unknown short-circuits, secret and dependency propagation, flattening,
 * rejection and deep awaits. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "pcl_gen.h"

/* Counts callback invocations into an int. */
static void count_cb(pcl_future *f, void *data) {
  (void)f;
  (*(int *)data)++;
}

static void test_then_deferred(void) {
  int calls = 0;
  pcl_future *f = pcl_future_resolved(PCL_OUTPUT, pcl_bool(true), 0, NULL);
  pcl_future_then(f, count_cb, &calls);
  CU_ASSERT_EQUAL(calls, 0); /* Already resolved, yet not called inline. */
  pcl_future *g = pcl_future_new(PCL_OUTPUT, NULL);
  pcl_future_then(g, count_cb, &calls);
  pcl_future_resolve(g, pcl_null(), 0, NULL);
  CU_ASSERT_EQUAL(calls, 0); /* Settling does not call back inline either. */
  CU_ASSERT_EQUAL(pcl_sched_run(), 2);
  CU_ASSERT_EQUAL(calls, 2);
  pcl_future_release(f);
  pcl_future_release(g);
  CU_ASSERT_EQUAL(pcl_sched_live_futures(), 0);
}

/* Records the order callbacks ran in. */
static char order[16];
static void order_cb(pcl_future *f, void *data) {
  (void)f;
  size_t n = strlen(order);
  order[n] = *(const char *)data;
  order[n + 1] = 0;
}

static void test_fifo_order(void) {
  order[0] = 0;
  pcl_future *a = pcl_future_new(PCL_OUTPUT, NULL);
  pcl_future *b = pcl_future_new(PCL_OUTPUT, NULL);
  static char c1 = '1', c2 = '2', c3 = '3';
  pcl_future_then(a, order_cb, &c1);
  pcl_future_then(b, order_cb, &c2);
  pcl_future_then(a, order_cb, &c3);
  pcl_future_resolve(b, pcl_null(), 0, NULL);
  pcl_future_resolve(a, pcl_null(), 0, NULL);
  pcl_sched_run();
  CU_ASSERT_STRING_EQUAL(order, "213");
  pcl_future_release(a);
  pcl_future_release(b);
}

/* Adds two ints. */
static pcl_value *add_fn(pcl_value *const *args, size_t n, void *data, pcl_error **err) {
  (void)data;
  CU_ASSERT_EQUAL(n, 2);
  return pcl_op_add(args[0], args[1], err);
}

static int64_t int_of(const pcl_value *v) {
  int64_t i = -1;
  CU_ASSERT_FATAL(v != NULL && pcl_kind_of(v) == PCL_T_INT);
  CU_ASSERT(pcl_int_get_i64(v, &i));
  return i;
}

static void test_apply_combines(void) {
  pcl_value *one = pcl_int_new(1), *two = pcl_int_new(2);
  pcl_deps *da = pcl_deps_one("urn:a"), *db = pcl_deps_one("urn:b");
  pcl_future *a = pcl_future_new(PCL_OUTPUT, NULL);
  pcl_future *b = pcl_future_new(PCL_PROMISE, NULL);
  pcl_future *fs[] = {a, b};
  pcl_future *r = pcl_apply(fs, 2, add_fn, NULL, NULL, 0);
  CU_ASSERT_EQUAL(pcl_future_kind_of(r), PCL_OUTPUT);
  pcl_future_resolve(a, one, PCL_FUT_SECRET, da);
  pcl_sched_run();
  CU_ASSERT_EQUAL(pcl_future_state_of(r), PCL_FUTURE_PENDING);
  pcl_future_resolve(b, two, 0, db);
  pcl_sched_run();
  CU_ASSERT_EQUAL(pcl_future_state_of(r), PCL_FUTURE_RESOLVED);
  CU_ASSERT_EQUAL(int_of(pcl_future_value(r)), 3);
  CU_ASSERT_EQUAL(pcl_future_bits(r), PCL_FUT_SECRET);
  CU_ASSERT_EQUAL(pcl_deps_count(pcl_future_deps(r)), 2);
  CU_ASSERT(pcl_deps_has(pcl_future_deps(r), "urn:a"));
  CU_ASSERT(pcl_deps_has(pcl_future_deps(r), "urn:b"));
  const char *sorted[2];
  pcl_deps_sorted(pcl_future_deps(r), sorted);
  CU_ASSERT_STRING_EQUAL(sorted[0], "urn:a");
  CU_ASSERT_STRING_EQUAL(sorted[1], "urn:b");
  pcl_future_release(a);
  pcl_future_release(b);
  pcl_future_release(r);
  pcl_deps_release(da);
  pcl_deps_release(db);
  pcl_release(one);
  pcl_release(two);
}

static void test_promises_stay_promises(void) {
  pcl_future *a = pcl_future_resolved(PCL_PROMISE, pcl_bool(true), 0, NULL);
  pcl_future *r = pcl_future_all(&a, 1);
  CU_ASSERT_EQUAL(pcl_future_kind_of(r), PCL_PROMISE);
  pcl_sched_run();
  CU_ASSERT_EQUAL(pcl_len(pcl_future_value(r)), 1);
  pcl_future_release(a);
  pcl_future_release(r);
}

static int fn_calls;
static pcl_value *counting_fn(pcl_value *const *args, size_t n, void *data, pcl_error **err) {
  (void)args;
  (void)n;
  (void)data;
  (void)err;
  fn_calls++;
  return pcl_bool(true);
}

static void test_unknown_short_circuit(void) {
  fn_calls = 0;
  pcl_deps *d = pcl_deps_one("urn:x");
  pcl_future *u = pcl_future_resolved(PCL_OUTPUT, pcl_unknown(), PCL_FUT_SECRET, d);
  pcl_future *k = pcl_future_resolved(PCL_OUTPUT, pcl_bool(false), 0, NULL);
  pcl_future *fs[] = {k, u};
  pcl_future *r = pcl_apply(fs, 2, counting_fn, NULL, NULL, 0);
  pcl_sched_run();
  CU_ASSERT_EQUAL(fn_calls, 0);
  CU_ASSERT_EQUAL(pcl_future_bits(r), PCL_FUT_UNKNOWN | PCL_FUT_SECRET);
  CU_ASSERT_PTR_NULL(pcl_future_value(r));
  CU_ASSERT(pcl_deps_has(pcl_future_deps(r), "urn:x"));
  /* With PCL_APPLY_UNKNOWNS the callback sees the unknown and decides. */
  pcl_future *r2 = pcl_apply(fs, 2, counting_fn, NULL, NULL, PCL_APPLY_UNKNOWNS);
  pcl_sched_run();
  CU_ASSERT_EQUAL(fn_calls, 1);
  CU_ASSERT_EQUAL(pcl_future_bits(r2), PCL_FUT_SECRET);
  CU_ASSERT_PTR_EQUAL(pcl_future_value(r2), pcl_bool(true));
  pcl_future_release(u);
  pcl_future_release(k);
  pcl_future_release(r);
  pcl_future_release(r2);
  pcl_deps_release(d);
}

/* Returns a future (as an EVENTUAL value) passed in data: flattening. */
static pcl_value *nested_fn(pcl_value *const *args, size_t n, void *data, pcl_error **err) {
  (void)args;
  (void)n;
  (void)err;
  return pcl_future_to_value(data);
}

static void test_flattening(void) {
  pcl_deps *d1 = pcl_deps_one("urn:outer"), *d2 = pcl_deps_one("urn:inner");
  pcl_future *outer = pcl_future_resolved(PCL_OUTPUT, pcl_bool(true), 0, d1);
  pcl_future *inner = pcl_future_new(PCL_OUTPUT, NULL);
  pcl_future *r = pcl_apply(&outer, 1, nested_fn, inner, NULL, 0);
  pcl_sched_run();
  CU_ASSERT_EQUAL(pcl_future_state_of(r), PCL_FUTURE_PENDING);
  pcl_value *s = pcl_str_from_cstr("deep");
  pcl_future_resolve(inner, s, PCL_FUT_SECRET, d2);
  pcl_sched_run();
  CU_ASSERT_EQUAL(pcl_future_state_of(r), PCL_FUTURE_RESOLVED);
  CU_ASSERT(pcl_str_eq_cstr(pcl_future_value(r), "deep"));
  CU_ASSERT_EQUAL(pcl_future_bits(r), PCL_FUT_SECRET);
  CU_ASSERT_EQUAL(pcl_deps_count(pcl_future_deps(r)), 2);
  pcl_release(s);
  pcl_future_release(outer);
  pcl_future_release(inner);
  pcl_future_release(r);
  pcl_deps_release(d1);
  pcl_deps_release(d2);
}

static pcl_value *failing_fn(pcl_value *const *args, size_t n, void *data, pcl_error **err) {
  (void)args;
  (void)n;
  (void)data;
  *err = pcl_error_new("boom");
  return NULL;
}

static int freed;
static void free_counter(void *data) {
  (void)data;
  freed++;
}

static void test_rejection(void) {
  freed = 0;
  fn_calls = 0;
  pcl_future *ok = pcl_future_resolved(PCL_OUTPUT, pcl_null(), 0, NULL);
  pcl_future *r = pcl_apply(&ok, 1, failing_fn, NULL, free_counter, 0);
  pcl_future *fs[] = {ok, r};
  pcl_future *r2 = pcl_apply(fs, 2, counting_fn, NULL, free_counter, 0);
  pcl_sched_run();
  CU_ASSERT_EQUAL(pcl_future_state_of(r), PCL_FUTURE_REJECTED);
  CU_ASSERT_STRING_EQUAL(pcl_error_message(pcl_future_error(r)), "boom");
  CU_ASSERT_EQUAL(pcl_future_state_of(r2), PCL_FUTURE_REJECTED);
  CU_ASSERT_STRING_EQUAL(pcl_error_message(pcl_future_error(r2)), "boom");
  CU_ASSERT_EQUAL(fn_calls, 0);
  CU_ASSERT_EQUAL(freed, 2);
  pcl_future_release(ok);
  pcl_future_release(r);
  CU_ASSERT_PTR_NULL(pcl_sched_take_unhandled());
  /* r2 was never observed: dropping it records its error as unhandled. */
  pcl_future_release(r2);
  pcl_error *e = pcl_sched_take_unhandled();
  CU_ASSERT_PTR_NOT_NULL_FATAL(e);
  CU_ASSERT_STRING_EQUAL(pcl_error_message(e), "boom");
  pcl_error_free(e);
}

static void test_secret_unsecret_attr(void) {
  pcl_value *inner = pcl_str_from_cstr("pw");
  pcl_value *sec = pcl_secret_new(inner);
  pcl_mapbuf mb = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_cstr(&mb, "hidden", pcl_retain(sec));
  pcl_mapbuf_put_cstr(&mb, "plain", pcl_int_new(7));
  pcl_mapbuf_put_cstr(&mb, "later", pcl_unknown());
  pcl_value *m = pcl_mapbuf_finish(&mb);
  pcl_future *f = pcl_future_resolved(PCL_OUTPUT, m, 0, NULL);
  pcl_future *h = pcl_future_attr(f, "hidden");
  pcl_future *p = pcl_future_attr(f, "plain");
  pcl_future *l = pcl_future_attr(f, "later");
  pcl_future *missing = pcl_future_attr(f, "nope");
  pcl_future *ps = pcl_future_secret(p);
  pcl_future *hu = pcl_future_unsecret(h);
  pcl_future *bad = pcl_future_attr(p, "x");
  pcl_sched_run();
  CU_ASSERT_EQUAL(pcl_future_bits(h), PCL_FUT_SECRET);
  CU_ASSERT(pcl_str_eq_cstr(pcl_future_value(h), "pw"));
  CU_ASSERT_EQUAL(pcl_future_bits(p), 0);
  CU_ASSERT_EQUAL(pcl_future_bits(l), PCL_FUT_UNKNOWN);
  CU_ASSERT_EQUAL(pcl_kind_of(pcl_future_value(missing)), PCL_T_NULL);
  CU_ASSERT_EQUAL(pcl_future_bits(ps), PCL_FUT_SECRET);
  CU_ASSERT_EQUAL(int_of(pcl_future_value(ps)), 7);
  CU_ASSERT_EQUAL(pcl_future_bits(hu), 0);
  CU_ASSERT_EQUAL(pcl_future_state_of(bad), PCL_FUTURE_REJECTED);
  pcl_future *all[] = {f, h, p, l, missing, ps, hu, bad};
  for (size_t i = 0; i < 8; i++) {
    pcl_future_release(all[i]);
  }
  pcl_release(m);
  pcl_release(sec);
  pcl_release(inner);
}

static void test_await_deep(void) {
  pcl_deps *d = pcl_deps_one("urn:r");
  pcl_future *known = pcl_future_new(PCL_OUTPUT, NULL);
  pcl_future *secret = pcl_future_new(PCL_OUTPUT, NULL);
  pcl_future *unknown = pcl_future_new(PCL_OUTPUT, NULL);
  pcl_value *items[3] = {pcl_future_to_value(known), pcl_future_to_value(secret),
                         pcl_future_to_value(unknown)};
  pcl_value *list = pcl_list_of_take(items, 3);
  pcl_mapbuf mb = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_cstr(&mb, "xs", list);
  pcl_mapbuf_put_cstr(&mb, "k", pcl_bool(true));
  pcl_value *m = pcl_mapbuf_finish(&mb);
  pcl_future *r = pcl_future_await_deep(m);
  pcl_value *one = pcl_int_new(1);
  pcl_future_resolve(known, one, 0, d);
  pcl_future_resolve(secret, one, PCL_FUT_SECRET, NULL);
  pcl_future_resolve(unknown, NULL, PCL_FUT_UNKNOWN, NULL);
  pcl_sched_run();
  CU_ASSERT_EQUAL_FATAL(pcl_future_state_of(r), PCL_FUTURE_RESOLVED);
  CU_ASSERT_EQUAL(pcl_future_bits(r), 0); /* Known parts stay known. */
  CU_ASSERT(pcl_deps_has(pcl_future_deps(r), "urn:r"));
  pcl_value *xs = pcl_map_get_cstr(pcl_future_value(r), "xs");
  CU_ASSERT_EQUAL(int_of(pcl_list_at(xs, 0)), 1);
  CU_ASSERT_EQUAL(pcl_kind_of(pcl_list_at(xs, 1)), PCL_T_SECRET);
  CU_ASSERT_EQUAL(pcl_kind_of(pcl_list_at(xs, 2)), PCL_T_UNKNOWN);
  pcl_release(one);
  pcl_release(m);
  pcl_future_release(known);
  pcl_future_release(secret);
  pcl_future_release(unknown);
  pcl_future_release(r);
  pcl_deps_release(d);
}

/* A future nested a million lists deep is awaited without recursion: the
 * lists are rebuilt around its value. */
static void test_await_very_deep(void) {
  pcl_future *f = pcl_future_new(PCL_OUTPUT, NULL);
  pcl_value *v = pcl_future_to_value(f);
  for (int i = 0; i < 1000000; i++) {
    pcl_value *wrap = pcl_list_of_take(&v, 1);
    v = wrap;
  }
  pcl_future *r = pcl_future_await_deep(v);
  pcl_value *one = pcl_int_new(1);
  pcl_future_resolve(f, one, PCL_FUT_SECRET, NULL);
  pcl_sched_run();
  CU_ASSERT_EQUAL_FATAL(pcl_future_state_of(r), PCL_FUTURE_RESOLVED);
  const pcl_value *x = pcl_future_value(r);
  size_t depth = 0;
  while (pcl_kind_of(x) == PCL_T_LIST) {
    x = pcl_list_at(x, 0);
    depth++;
  }
  CU_ASSERT_EQUAL(depth, 1000000);
  CU_ASSERT_EQUAL(pcl_kind_of(x), PCL_T_SECRET);
  CU_ASSERT_EQUAL(int_of(pcl_secret_inner(x)), 1);
  pcl_release(one);
  pcl_release(v);
  pcl_future_release(f);
  pcl_future_release(r);
}

static void test_value_future_roundtrip(void) {
  pcl_future *f = pcl_future_new(PCL_OUTPUT, NULL);
  pcl_value *v = pcl_future_to_value(f);
  CU_ASSERT_PTR_EQUAL(pcl_value_future(v), f);
  pcl_future *g = pcl_future_of_value(v);
  CU_ASSERT_PTR_EQUAL(g, f);
  pcl_value *s = pcl_str_from_cstr("x");
  pcl_value *sec = pcl_secret_new(s);
  pcl_future *h = pcl_future_of_value(sec);
  CU_ASSERT_EQUAL(pcl_future_bits(h), PCL_FUT_SECRET);
  pcl_future_resolve(f, pcl_null(), 0, NULL);
  pcl_release(v);
  pcl_release(s);
  pcl_release(sec);
  pcl_future_release(f);
  pcl_future_release(g);
  pcl_future_release(h);
  CU_ASSERT_EQUAL(pcl_sched_live_futures(), 0);
}

static int cleanup(void) {
  pcl_sched_run();
  pcl_error_free(pcl_sched_take_unhandled());
  return pcl_sched_live_futures() == 0 && pcl_sched_pending() == 0 ? 0 : 1;
}

void register_future_tests(void);
void register_future_tests(void) {
  CU_pSuite s = CU_add_suite("future", NULL, cleanup);
  CU_add_test(s, "callbacks are deferred", test_then_deferred);
  CU_add_test(s, "callbacks run in FIFO order", test_fifo_order);
  CU_add_test(s, "apply combines secret, deps, kind", test_apply_combines);
  CU_add_test(s, "promises stay promises", test_promises_stay_promises);
  CU_add_test(s, "unknown short-circuits", test_unknown_short_circuit);
  CU_add_test(s, "apply flattens returned futures", test_flattening);
  CU_add_test(s, "rejection propagates", test_rejection);
  CU_add_test(s, "secret, unsecret, attr", test_secret_unsecret_attr);
  CU_add_test(s, "deep await keeps nested marks", test_await_deep);
  CU_add_test(s, "deep await of a very deep value", test_await_very_deep);
  CU_add_test(s, "futures in values", test_value_future_roundtrip);
}
