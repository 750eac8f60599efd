/* test_builtins_misc.c: notImplemented, pulumiResourceType and
 * pulumiResourceName (resource objects and resource references), the
 * helpers behind try, can and recover (outcomes, marks, the combined error
 * text), and the by-name table (lookup, arity messages, dispatch of every
 * calling shape). */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "builtins_check.h"

static void test_not_implemented(void) {
  BLEAK_BEGIN;
  F1(pcl_fn_notImplemented, "\"tls settings are not supported\"", "tls settings are not supported");
  F1(pcl_fn_notImplemented, "\"\"", "");
  /* The call fails even before its message is known. */
  VF1(pcl_fn_notImplemented, pcl_unknown(), "not implemented");
  F1(pcl_fn_notImplemented, "null",
     "notImplemented: invalid value for \"errorMessage\" parameter: argument must not be null");
  BLEAK_END;
}

static void test_secret_unsecret(void) {
  BLEAK_BEGIN;
  T1(pcl_fn_secret, "\"pw\"", "secret(\"pw\")");
  V1(pcl_fn_secret, SECRET_TAKE(S("pw")), "secret(\"pw\")");
  V1(pcl_fn_unsecret, SECRET_TAKE(S("pw")), "\"pw\"");
  T1(pcl_fn_unsecret, "[1]", "[1]");
  /* Only the top-level mark goes (functions.md §5). */
  V1(pcl_fn_unsecret, LIST2(SECRET_TAKE(S("a")), S("b")), "[secret(\"a\"),\"b\"]");
  V1(pcl_fn_unsecret, pcl_unknown(), "unknown");
  BLEAK_END;
}

static void test_resource_type_name(void) {
  BLEAK_BEGIN;
  /* A resource object carries __type and __name. */
  const char *obj = "{\"__name\":\"res1-0\",\"__type\":\"simple:index:Resource\",\"id\":\"x\","
                    "\"urn\":\"urn:pulumi:test::p::simple:index:Resource::res1-0\"}";
  T1(pcl_fn_pulumiResourceType, obj, "\"simple:index:Resource\"");
  T1(pcl_fn_pulumiResourceName, obj, "\"res1-0\"");
  /* A resource reference: from its URN, past parent types and with a name
   * that itself holds "::". */
  pcl_value *urn = S("urn:pulumi:dev::proj::my:comp:Comp$aws:s3/bucket:Bucket::comp-b::x");
  V1(pcl_fn_pulumiResourceType, pcl_resource_new(urn, NULL, NULL), "\"aws:s3/bucket:Bucket\"");
  V1(pcl_fn_pulumiResourceName, pcl_resource_new(urn, NULL, NULL), "\"comp-b::x\"");
  pcl_release(urn);
  urn = S("urn:pulumi:test::p::pulumi:providers:aws::default");
  V1(pcl_fn_pulumiResourceType, pcl_resource_new(urn, NULL, NULL), "\"pulumi:providers:aws\"");
  V1(pcl_fn_pulumiResourceName, pcl_resource_new(urn, NULL, NULL), "\"default\"");
  pcl_release(urn);
  /* Marks. */
  V1(pcl_fn_pulumiResourceName, SECRET_TAKE(J(obj)), "secret(\"res1-0\")");
  V1(pcl_fn_pulumiResourceType, pcl_unknown(), "unknown");
  /* Errors. */
  F1(pcl_fn_pulumiResourceType, "[]", "pulumiResourceType argument must be a single resource");
  F1(pcl_fn_pulumiResourceName, "{\"id\":\"x\"}", "pulumiResourceName argument must be a single resource");
  F1(pcl_fn_pulumiResourceName, "\"urn:pulumi:a::b::c::d\"",
     "pulumiResourceName argument must be a single resource");
  urn = S("not-a-urn");
  VF1(pcl_fn_pulumiResourceType, pcl_resource_new(urn, NULL, NULL),
      "pulumiResourceType argument must be a single resource");
  pcl_release(urn);
  BLEAK_END;
}

static void test_try(void) {
  BLEAK_BEGIN;
  /* The first alternative that succeeds wins; earlier failures are dropped. */
  pcl_try t = PCL_TRY_INIT;
  pcl_try_fail_take(&t, pcl_error_new("first"));
  CU_ASSERT_EQUAL(t.failures, 1);
  pcl_value *fallback = S("fallback");
  CHECK_SHOW(pcl_try_success(&t, fallback), NULL, "\"fallback\"");
  CU_ASSERT_EQUAL(t.failures, 0);
  /* Null is a success; a value holding an unknown makes the result unknown;
   * a secret stays what it is. */
  pcl_try t2 = PCL_TRY_INIT;
  CHECK_SHOW(pcl_try_success(&t2, pcl_null()), NULL, "null");
  pcl_value *partly = LIST2(S("a"), pcl_unknown());
  CHECK_SHOW(pcl_try_success(&t2, partly), NULL, "unknown");
  pcl_value *secret = SECRET_TAKE(S("s"));
  CHECK_SHOW(pcl_try_success(&t2, secret), NULL, "secret(\"s\")");
  /* When every alternative failed: HCL's combined message. */
  pcl_try t3 = PCL_TRY_INIT;
  pcl_error *e1 = pcl_error_new("cannot use element function with an empty list");
  pcl_error_set_location(e1, "main.pp", 3, 13);
  pcl_try_fail_take(&t3, e1);
  pcl_try_fail_take(&t3, pcl_error_new("key \"b\" not found"));
  pcl_error *all = pcl_try_error(&t3);
  CU_ASSERT_STRING_EQUAL(pcl_error_message(all),
                         "no expression succeeded:\n"
                         "- cannot use element function with an empty list (at main.pp:3,13)\n"
                         "- key \"b\" not found\n"
                         "\n"
                         "At least one expression must produce a successful result");
  CU_ASSERT_PTR_NULL(pcl_error_file(all));
  CU_ASSERT_EQUAL(t3.failures, 0);
  pcl_error_free(all);
  /* An abandoned try frees what it recorded. */
  pcl_try t4 = PCL_TRY_INIT;
  pcl_try_fail_take(&t4, pcl_error_new("x"));
  pcl_try_dispose(&t4);
  CU_ASSERT_EQUAL(t4.failures, 0);
  CU_ASSERT_PTR_NULL(t4.text.data);
  pcl_release(fallback);
  pcl_release(partly);
  pcl_release(secret);
  BLEAK_END;
}

static void test_can_recover(void) {
  BLEAK_BEGIN;
  pcl_value *v = J("{\"a\":1}");
  CHECK_SHOW(pcl_can_result(v, NULL), NULL, "true");
  CHECK_SHOW(pcl_can_result(NULL, pcl_error_new("boom")), NULL, "false");
  CHECK_SHOW(pcl_can_result(pcl_null(), NULL), NULL, "true");
  pcl_value *partly = LIST2(S("a"), pcl_unknown());
  CHECK_SHOW(pcl_can_result(partly, NULL), NULL, "unknown");
  pcl_value *secret = pcl_secret_new(v);
  CHECK_SHOW(pcl_can_result(secret, NULL), NULL, "secret(true)");
  CHECK_SHOW(pcl_recover_error_value("bucket"), NULL, "\"poisoned value from resource bucket\"");
  pcl_release(v);
  pcl_release(partly);
  pcl_release(secret);
  BLEAK_END;
}

/* An EVENTUAL whose object needs no memory management. */
static void no_ref(void *ptr) { (void)ptr; }
static const pcl_eventual_ops fake_ops = {"output", no_ref, no_ref};

static void test_unresolved_eventual(void) {
  BLEAK_BEGIN;
  /* A built-in that must read a value reports an unresolved future instead
   * of guessing; the caller should have awaited it. */
  static int object;
  pcl_value *ev = pcl_eventual_new_take(&object, &fake_ops);
  pcl_error *err = NULL;
  CHECK_FAILS(pcl_fn_length(ev, &err), err,
              "length: invalid value for \"value\" parameter: the value is an unresolved output");
  err = NULL;
  CHECK_FAILS(pcl_fn_entries(ev, &err), err,
              "entries: invalid value for \"collection\" parameter: the value is an unresolved output");
  pcl_value *list = LIST2(S("a"), pcl_retain(ev));
  err = NULL;
  CHECK_FAILS(pcl_fn_toJSON(list, &err), err, "cannot serialize an eventual value as JSON");
  pcl_value *sep = S(",");
  err = NULL;
  CHECK_FAILS(pcl_fn_join(sep, list, &err), err,
              "join: invalid value for \"strings\" parameter: the value is an unresolved output");
  pcl_release(sep);
  pcl_release(list);
  pcl_release(ev);
  BLEAK_END;
}

/* Calls the built-in name through the table with the JSON array's elements
 * and the directory "." (or checks the failure when want starts with "!"). */
static void check_table(const char *name, const char *args_json, const char *want, int line) {
  const pcl_builtin *b = pcl_builtin_find(name);
  CU_ASSERT_PTR_NOT_NULL_FATAL(b);
  CU_ASSERT_STRING_EQUAL(b->name, name);
  pcl_value *args = J(args_json);
  pcl_error *err = NULL;
  pcl_value *r = pcl_builtin_call(b, ".", args->u.list.items, pcl_len(args), &err);
  if (want[0] == '!') {
    check_fails_at(r, err, want + 1, line);
  } else {
    check_show_at(r, err, want, line);
  }
  pcl_release(args);
}
#define TABLE(name, args, want) check_table((name), (args), (want), __LINE__)

static void test_table(void) {
  BLEAK_BEGIN;
  CU_ASSERT_PTR_NULL(pcl_builtin_find("cidrsubnet"));
  CU_ASSERT_PTR_NULL(pcl_builtin_find(""));
  TABLE("mimeType", "[\"a.svg\"]", "\"image/svg+xml\"");
  /* Every shape of call. */
  TABLE("element", "[[1,2],3]", "2");
  TABLE("length", "[\"abc\"]", "3");
  TABLE("range", "[2]", "[0,1]");
  TABLE("range", "[1,3]", "[1,2]");
  TABLE("lookup", "[{\"a\":1},\"a\",0]", "1");
  TABLE("max", "[1,5,3]", "5");
  TABLE("min", "[]", "!missing required parameter 'first'");
  TABLE("toJSON", "[{\"b\":[1],\"a\":null}]", "\"{\\\"a\\\":null,\\\"b\\\":[1]}\"");
  TABLE("readFile", "[\"no such file\"]", "!readFile: open no such file: no such file or directory");
  TABLE("sha1", "[\"hello world\"]", "\"2aae6c35c94fcfb415dbe95f408b9ce91ee846ed\"");
  TABLE("notImplemented", "[\"later\"]", "!later");
  /* The binder's arity messages. */
  TABLE("element", "[[1]]", "!missing required parameter 'index'");
  TABLE("element", "[[1],0,1]", "!too many arguments to call: expected 2, got 3");
  TABLE("entries", "[[],1]", "!too many arguments to call: expected 1, got 2");
  TABLE("range", "[]", "!missing required parameter 'fromOrTo'");
  /* lookup's two-argument form reaches the function, which refuses it as
   * the reference does. */
  TABLE("lookup", "[{\"a\":1},\"a\"]",
        "!Not enough function arguments: function \"lookup\" expects 3 argument(s); missing "
        "value for \"default\"");
  BLEAK_END;
}

/* A pcl_apply_fn calling the built-in of data with the resolved values. */
static pcl_value *call_builtin(pcl_value *const *args, size_t n, void *data, pcl_error **err) {
  return pcl_builtin_call(data, NULL, args, n, err);
}

/* A built-in lifted over futures with pcl_apply: the result carries the
 * inputs' secret bit, and a failure rejects it. */
static void test_apply(void) {
  BLEAK_BEGIN;
  pcl_value *sep = S("-"), *parts = J("[\"a\",\"b\"]");
  pcl_future *fs[2] = {pcl_future_resolved(PCL_OUTPUT, sep, 0, NULL),
                       pcl_future_resolved(PCL_OUTPUT, parts, PCL_FUT_SECRET, NULL)};
  pcl_future *r = pcl_apply(fs, 2, call_builtin, (void *)pcl_builtin_find("join"), NULL, 0);
  pcl_sched_run();
  CU_ASSERT_EQUAL_FATAL(pcl_future_state_of(r), PCL_FUTURE_RESOLVED);
  CU_ASSERT_TRUE(pcl_future_bits(r) & PCL_FUT_SECRET);
  CU_ASSERT_TRUE(pcl_str_eq_cstr(pcl_future_value(r), "a-b"));
  pcl_future_release(r);
  /* An error of the built-in rejects the result. */
  r = pcl_apply(&fs[1], 1, call_builtin, (void *)pcl_builtin_find("singleOrNone"), NULL, 0);
  pcl_sched_run();
  CU_ASSERT_EQUAL_FATAL(pcl_future_state_of(r), PCL_FUTURE_REJECTED);
  CU_ASSERT_STRING_EQUAL(pcl_error_message(pcl_future_error(r)),
                         "expected list to have at most one element, got 2");
  pcl_future_mark_handled(r);
  pcl_future_release(r);
  pcl_future_release(fs[0]);
  pcl_future_release(fs[1]);
  pcl_release(sep);
  pcl_release(parts);
  CU_ASSERT_EQUAL(pcl_sched_live_futures(), 0);
  BLEAK_END;
}

/* Every PCL built-in of functions.md §1 that is a plain function has a
 * table entry, and the others none (secret, unsecret, try, can, recover,
 * getOutput, invoke, call and the values of the run live elsewhere). */
static void test_table_complete(void) {
  static const char *const names[] = {
      "element",    "entries",     "length",        "lookup",         "join",
      "split",      "range",       "singleOrNone",  "min",            "max",
      "toJSON",     "toBase64",    "fromBase64",    "sha1",           "readFile",
      "filebase64", "filebase64sha256", "fileAsset", "stringAsset",   "remoteAsset",
      "fileArchive", "remoteArchive", "assetArchive", "notImplemented", "readDir",
      "mimeType", "pulumiResourceType", "pulumiResourceName"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    const pcl_builtin *b = pcl_builtin_find(names[i]);
    CU_ASSERT_PTR_NOT_NULL(b);
    if (b == NULL) {
      fprintf(stderr, "\nno table entry for %s\n", names[i]);
    }
  }
  static const char *const elsewhere[] = {"secret", "unsecret", "try", "can", "recover",
                                          "getOutput", "invoke", "call", "convert", "stack",
                                          "project", "organization", "cwd", "rootDirectory"};
  for (size_t i = 0; i < sizeof elsewhere / sizeof elsewhere[0]; i++) {
    CU_ASSERT_PTR_NULL(pcl_builtin_find(elsewhere[i]));
  }
}

void register_builtins_misc_tests(void);
void register_builtins_misc_tests(void) {
  CU_pSuite s = CU_add_suite("builtins_misc", NULL, NULL);
  CU_add_test(s, "notImplemented", test_not_implemented);
  CU_add_test(s, "secret and unsecret on plain values", test_secret_unsecret);
  CU_add_test(s, "pulumiResourceType and pulumiResourceName", test_resource_type_name);
  CU_add_test(s, "try", test_try);
  CU_add_test(s, "can and recover", test_can_recover);
  CU_add_test(s, "unresolved eventual arguments", test_unresolved_eventual);
  CU_add_test(s, "table", test_table);
  CU_add_test(s, "lifted over futures", test_apply);
  CU_add_test(s, "table completeness", test_table_complete);
}
