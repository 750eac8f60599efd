/* test_depth.c: values nested 10,000 and more levels deep through every
 * walk of the runtime that used to recurse: JSON encoding and decoding,
 * pcl_equal and pcl_compare, pcl_value_repr, the snapshot encoding and its
 * decoding, config conformance, pcl_strip_secrets, the deep await, and a
 * whole run that exports a deep value.  None may overflow the C stack, and
 * the time must grow linearly with the depth (checked with CPU time on a
 * depth 8 times larger, with a wide margin). */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/engine.h"
#include "value/pcl_internal.h"
#include "run_check.h"
#include "value_check.h"

enum { DEPTH = 10000 };

/* Returns [[...[leaf]...]] with depth lists (leaf is borrowed). */
static pcl_value *nested_list(size_t depth, pcl_value *leaf) {
  pcl_value *v = pcl_retain(leaf);
  for (size_t i = 0; i < depth; i++) {
    pcl_value *l = pcl_list_of(&v, 1);
    pcl_release(v);
    v = l;
  }
  return v;
}

/* Returns a value depth levels deep that alternates lists, maps {"k": ...}
 * and secrets around leaf (borrowed). */
static pcl_value *nested_mix(size_t depth, pcl_value *leaf) {
  pcl_value *v = pcl_retain(leaf);
  pcl_value *key = pcl_str_from_cstr("k");
  for (size_t i = 0; i < depth; i++) {
    pcl_value *w;
    switch (i % 3) {
    case 0:
      w = pcl_list_of(&v, 1);
      break;
    case 1:
      w = pcl_map_of(&key, &v, 1);
      break;
    default:
      w = pcl_secret_new(v);
      break;
    }
    pcl_release(v);
    v = w;
  }
  pcl_release(key);
  return v;
}

static void test_json(void) {
  LEAK_BEGIN;
  pcl_value *one = pcl_int_new(1);
  pcl_value *v = nested_mix(DEPTH, one);
  pcl_error *err = NULL;
  size_t len;
  char *text = pcl_json_encode(v, 0, &len, &err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(text);
  pcl_value *back = pcl_json_decode(text, len, 0, &err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(back);
  /* Secrets are encoded as their payload: equality ignores the marks. */
  CU_ASSERT_TRUE(pcl_equal(v, back));
  char *again = pcl_json_encode(back, PCL_JSON_PRETTY, NULL, &err);
  CU_ASSERT_PTR_NOT_NULL(again);
  free(again);
  /* The wire form keeps the secrets and reads them back. */
  char *wire = pcl_json_encode(v, PCL_JSON_WIRE, &len, &err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(wire);
  pcl_value *wback = pcl_json_decode(wire, len, PCL_JSON_WIRE, &err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(wback);
  CU_ASSERT_TRUE(pcl_equal(v, wback));
  CU_ASSERT_TRUE(pcl_has_secret(wback));
  free(wire);
  free(text);
  pcl_release(wback);
  pcl_release(back);
  pcl_release(v);
  pcl_release(one);
  LEAK_END;
}

static void test_compare_and_repr(void) {
  LEAK_BEGIN;
  pcl_value *one = pcl_int_new(1), *two = pcl_int_new(2);
  pcl_value *a = nested_list(DEPTH, one), *b = nested_list(DEPTH, two);
  pcl_value *c = nested_list(DEPTH, one);
  CU_ASSERT_TRUE(pcl_compare(a, b) < 0);
  CU_ASSERT_TRUE(pcl_compare(b, a) > 0);
  CU_ASSERT_TRUE(pcl_equal(a, c));
  CU_ASSERT_FALSE(pcl_equal(a, b));
  /* A set of deep values is ordered and deduplicated by the same walk. */
  pcl_value *items[] = {b, a, c};
  pcl_value *set = pcl_set_of(items, 3);
  CU_ASSERT_EQUAL(pcl_len(set), 2);
  CU_ASSERT_TRUE(pcl_list_at(set, 0) == a || pcl_list_at(set, 0) == c);
  char *r = pcl_value_repr(a, 40);
  CU_ASSERT_STRING_EQUAL(r, "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[...");
  free(r);
  pcl_value *m = nested_mix(DEPTH, one);
  r = pcl_value_repr(m, 20);
  CU_ASSERT_STRING_EQUAL(r, "[[secret]]");
  free(r);
  pcl_release(m);
  pcl_release(set);
  pcl_release(a);
  pcl_release(b);
  pcl_release(c);
  pcl_release(one);
  pcl_release(two);
  LEAK_END;
}

static void test_snapshot_and_strip(void) {
  LEAK_BEGIN;
  pcl_value *leaf = pcl_str_from_cstr("leaf");
  pcl_value *v = nested_mix(DEPTH, leaf);
  pcl_strbuf b = PCL_STRBUF_INIT;
  pcl__snap_encode(&b, v, -1, false);
  pcl_error *err = NULL;
  pcl_value *back = pcl_json_decode(b.data, b.len, PCL_JSON_SNAPSHOT, &err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(back);
  CU_ASSERT_TRUE(pcl_equal(v, back));
  pcl_strbuf pretty = PCL_STRBUF_INIT;
  pcl__snap_encode(&pretty, back, 0, true);
  CU_ASSERT_PTR_NOT_NULL(strstr(pretty.data, "\"[secret]\""));
  CU_ASSERT_PTR_NULL(strstr(pretty.data, "leaf"));
  pcl_value *plain = pcl_strip_secrets(back);
  CU_ASSERT_FALSE(pcl_has_secret(plain));
  CU_ASSERT_TRUE(pcl_equal(plain, v));
  pcl_release(plain);
  pcl_strbuf_free(&pretty);
  pcl_strbuf_free(&b);
  pcl_release(back);
  pcl_release(v);
  pcl_release(leaf);
  LEAK_END;
}

static void test_config(void) {
  LEAK_BEGIN;
  /* list(list(...(int)...)), DEPTH levels. */
  pcl_type *types = calloc(DEPTH + 1, sizeof *types);
  types[DEPTH] = pcl_type_int;
  for (size_t i = DEPTH; i-- > 0;) {
    types[i] = (pcl_type){PCL_TY_LIST, &types[i + 1], NULL, 0};
  }
  char *text = malloc(2 * DEPTH + 4);
  memset(text, '[', DEPTH);
  memcpy(text + DEPTH, "\"7\"", 3);
  memset(text + DEPTH + 3, ']', DEPTH);
  text[2 * DEPTH + 3] = '\0';
  pcl_error *err = NULL;
  pcl_value *v = pcl_config_parse("deep", text, &types[0], &err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(v);
  pcl_value *seven = pcl_int_new(7);
  pcl_value *want = nested_list(DEPTH, seven);
  CU_ASSERT_TRUE(pcl_equal(v, want));
  pcl_release(want);
  pcl_release(v);
  /* One level short: the error names the path of the part that does not
   * conform. */
  text[DEPTH - 1] = ' ';
  text[DEPTH + 3] = ' ';
  v = pcl_config_parse("deep", text, &types[0], &err);
  CU_ASSERT_PTR_NULL(v);
  CU_ASSERT_PTR_NOT_NULL_FATAL(err);
  CU_ASSERT_PTR_NOT_NULL(strstr(pcl_error_message(err), "[0][0][0]"));
  CU_ASSERT_PTR_NOT_NULL(strstr(pcl_error_message(err), ": a list is required"));
  pcl_error_free(err);
  pcl_release(seven);
  free(text);
  free(types);
  LEAK_END;
}

/* Resolves the future data with 5 (a loop task). */
static void resolve_five(pcl_future *f, void *data) {
  (void)f;
  pcl_value *five = pcl_int_new(5);
  pcl_future_resolve(data, five, PCL_FUT_SECRET, NULL);
  pcl_release(five);
}

static void test_deep_await(void) {
  LEAK_BEGIN;
  pcl_future *f = pcl_future_new(PCL_OUTPUT, "deep");
  pcl_value *ev = pcl_future_to_value(f);
  pcl_value *v = nested_mix(DEPTH, ev);
  pcl_future *all = pcl_future_await_deep(v);
  pcl_sched_post(resolve_five, f);
  pcl_sched_run();
  CU_ASSERT_EQUAL(pcl_future_state_of(all), PCL_FUTURE_RESOLVED);
  pcl_value *five = pcl_int_new(5);
  pcl_value *secret_five = pcl_secret_new(five);
  pcl_value *want = nested_mix(DEPTH, secret_five);
  CU_ASSERT_TRUE(pcl_equal(pcl_future_value(all), want));
  pcl_release(want);
  pcl_release(secret_five);
  pcl_release(five);
  pcl_future_release(all);
  pcl_release(v);
  pcl_release(ev);
  pcl_future_release(f);
  LEAK_END;
}

/* A program that exports a deep value: the stack outputs are collapsed,
 * encoded into the snapshot and printed. */
static void deep_start(pcl_run *run) {
  pcl_value *leaf = pcl_str_from_cstr("bottom");
  pcl_value *v = nested_mix(DEPTH, leaf);
  pcl_export(run, "deep", v);
  pcl_release(v);
  pcl_release(leaf);
}

static const pcl_program deep_prog = {"deep", NULL, 0, deep_start};

static void test_deep_run(void) {
  rc_result r = rc_run(&deep_prog, "--snapshot", "deep-snapshot.json", "--show-secrets", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"bottom\""));
  char *snap = rc_slurp("deep-snapshot.json");
  CU_ASSERT(snap != NULL && strstr(snap, "\"bottom\"") != NULL);
  /* Printed and in the snapshot (where it is twice: the stack outputs and
   * the stack's outputs), the deep value takes about its compact size: only
   * its first levels are on lines of their own. */
  pcl_value *leaf = pcl_str_from_cstr("bottom");
  pcl_value *v = nested_mix(DEPTH, leaf);
  pcl_strbuf compact = PCL_STRBUF_INIT;
  pcl__snap_encode(&compact, v, -1, false);
  CU_ASSERT(strlen(r.out) < compact.len + 1000);
  CU_ASSERT(snap != NULL && strlen(snap) < 2 * compact.len + 3000);
  pcl_strbuf_free(&compact);
  pcl_release(v);
  pcl_release(leaf);
  free(snap);
  remove("deep-snapshot.json");
  rc_free(&r);
}

/* Returns the pretty text of [[...[1]...]], depth lists deep, as both
 * encoders must write it: the lists of the first PCL__PRETTY_DEPTH levels
 * with their parts on lines of their own, the deeper ones compact. */
static char *pretty_lists(size_t depth) {
  pcl_strbuf b = PCL_STRBUF_INIT;
  size_t lines = depth < PCL__PRETTY_DEPTH ? depth : PCL__PRETTY_DEPTH;
  for (size_t k = 0; k < lines; k++) {
    pcl_strbuf_appendf(&b, "[\n%*s", (int)(2 * (k + 1)), "");
  }
  for (size_t k = lines; k < depth; k++) {
    pcl_strbuf_append_char(&b, '[');
  }
  pcl_strbuf_append_char(&b, '1');
  for (size_t k = lines; k < depth; k++) {
    pcl_strbuf_append_char(&b, ']');
  }
  for (size_t k = lines; k-- > 0;) {
    pcl_strbuf_appendf(&b, "\n%*s]", (int)(2 * k), "");
  }
  return b.data;
}

static void test_pretty_depth(void) {
  LEAK_BEGIN;
  pcl_value *one = pcl_int_new(1);
  static const size_t depths[] = {3, PCL__PRETTY_DEPTH, PCL__PRETTY_DEPTH + 1,
                                  PCL__PRETTY_DEPTH + 5};
  for (size_t i = 0; i < sizeof depths / sizeof depths[0]; i++) {
    pcl_value *v = nested_list(depths[i], one);
    char *want = pretty_lists(depths[i]);
    pcl_error *err = NULL;
    char *got = pcl_json_encode(v, PCL_JSON_PRETTY, NULL, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(got);
    CU_ASSERT_STRING_EQUAL(got, want);
    pcl_strbuf b = PCL_STRBUF_INIT;
    pcl__snap_encode(&b, v, 0, false);
    CU_ASSERT_STRING_EQUAL(b.data, want);
    pcl_strbuf_free(&b);
    free(got);
    free(want);
    pcl_release(v);
  }
  /* Past the last pretty level, members and wrappers are compact too. */
  pcl_value *key = pcl_str_from_cstr("k");
  pcl_value *secret = pcl_secret_new(one);
  pcl_value *m = pcl_map_of(&key, &secret, 1);
  pcl_value *v = nested_list(PCL__PRETTY_DEPTH, m);
  pcl_strbuf b = PCL_STRBUF_INIT;
  pcl__snap_encode(&b, v, 0, false);
  CU_ASSERT_PTR_NOT_NULL(strstr(b.data, "{\"k\":{\"secret\":1}}"));
  pcl_strbuf_free(&b);
  pcl_release(v);
  pcl_release(m);
  pcl_release(secret);
  pcl_release(key);
  /* A million levels: the pretty text is the compact text but for the
   * first levels' line breaks; a wide value at the last pretty level takes
   * at most 2 * PCL__PRETTY_DEPTH + 3 times its compact size. */
  v = nested_mix(100 * DEPTH, one);
  pcl_error *err = NULL;
  size_t compact_len, pretty_len;
  char *compact = pcl_json_encode(v, 0, &compact_len, &err);
  char *pretty = pcl_json_encode(v, PCL_JSON_PRETTY, &pretty_len, &err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(compact);
  CU_ASSERT_PTR_NOT_NULL_FATAL(pretty);
  CU_ASSERT(pretty_len < compact_len + 1000);
  pcl_strbuf sc = PCL_STRBUF_INIT, sp = PCL_STRBUF_INIT;
  pcl__snap_encode(&sc, v, -1, false);
  pcl__snap_encode(&sp, v, 0, false);
  CU_ASSERT(sp.len < sc.len + 1000);
  pcl_strbuf_free(&sc);
  pcl_strbuf_free(&sp);
  free(compact);
  free(pretty);
  pcl_release(v);
  pcl_value *ones[1000];
  for (size_t i = 0; i < 1000; i++) {
    ones[i] = one;
  }
  pcl_value *wide = pcl_list_of(ones, 1000);
  v = nested_list(PCL__PRETTY_DEPTH - 1, wide);
  compact = pcl_json_encode(v, 0, &compact_len, &err);
  pretty = pcl_json_encode(v, PCL_JSON_PRETTY, &pretty_len, &err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(pretty);
  CU_ASSERT(pretty_len > 10 * compact_len);
  CU_ASSERT(pretty_len <= (2 * PCL__PRETTY_DEPTH + 3) * compact_len);
  free(compact);
  free(pretty);
  pcl_release(v);
  pcl_release(wide);
  pcl_release(one);
  LEAK_END;
}

/* Returns the CPU seconds of one JSON round trip and compare of a value
 * depth levels deep, repeated until it took a measurable time. */
static double round_trip_seconds(size_t depth) {
  pcl_value *one = pcl_int_new(1);
  pcl_value *v = nested_mix(depth, one);
  size_t runs = 0;
  clock_t start = clock(), now;
  do {
    pcl_error *err = NULL;
    size_t len;
    char *text = pcl_json_encode(v, 0, &len, &err);
    pcl_value *back = pcl_json_decode(text, len, 0, &err);
    CU_ASSERT_TRUE(pcl_equal(v, back));
    pcl_strbuf b = PCL_STRBUF_INIT;
    pcl__snap_encode(&b, back, 0, false);
    pcl_strbuf_free(&b);
    pcl_release(back);
    free(text);
    runs++;
    now = clock();
  } while ((double)(now - start) < 0.2 * CLOCKS_PER_SEC);
  pcl_release(v);
  pcl_release(one);
  return (double)(now - start) / CLOCKS_PER_SEC / (double)runs;
}

static void test_linear_time(void) {
  double small = round_trip_seconds(DEPTH);
  double large = round_trip_seconds(8 * DEPTH);
  /* Linear: about 8 times longer; quadratic would be about 64. */
  if (large > 24 * small) {
    fprintf(stderr, "\ndepth %d: %.6f s, depth %d: %.6f s\n", DEPTH, small, 8 * DEPTH, large);
  }
  CU_ASSERT_TRUE(large <= 24 * small);
}

void register_depth_tests(void);
void register_depth_tests(void) {
  CU_pSuite s = CU_add_suite("depth", NULL, NULL);
  CU_add_test(s, "JSON encoding and decoding", test_json);
  CU_add_test(s, "compare, equal, sets and repr", test_compare_and_repr);
  CU_add_test(s, "snapshot encoding, decoding and stripping secrets", test_snapshot_and_strip);
  CU_add_test(s, "config conformance", test_config);
  CU_add_test(s, "deep await", test_deep_await);
  CU_add_test(s, "a run that exports a deep value", test_deep_run);
  CU_add_test(s, "pretty output of deep values", test_pretty_depth);
  CU_add_test(s, "time linear in the depth", test_linear_time);
}
