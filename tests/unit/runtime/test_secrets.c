/* test_secrets.c: no message shows a secret in clear.
 *
 * Every case below makes the runtime fail on an operand that is secret: in
 * an apply callback whose input is secret (the callback sees the value
 * unwrapped), in an operator, conversion or built-in given a SECRET, in the
 * config of a secret key (a flag, PULUMI_CONFIG_SECRET_KEYS, a config file
 * wrapper, a declaration saying secret), and in a stack reference's secret
 * output.  The secret is a canary text; each case runs a whole program
 * through pcl_main with --snapshot, and the scanner checks that the canary
 * appears in no error message: neither on stderr nor in the snapshot's
 * "error", while "[secret]" stands where the value would be.  The direct
 * calls at the end check the same of the messages the operations return. */
#include <CUnit/CUnit.h>

#include "engine/engine.h"
#include "run_check.h"

/* The secret text; no message may contain it. */
#define CANARY "s3cr3t-canary-42"
/* The secret as an int, for the arithmetic cases. */
#define CANARY_INT "987654321"

/* The case the program runs (see start). */
static int current_case;

/* An apply callback that fails with a message showing its argument, as a
 * careless callback would. */
static pcl_value *show_arg(pcl_value *const *args, size_t n, void *data, pcl_error **err) {
  (void)n;
  (void)data;
  char *r = pcl_value_repr(args[0], 64);
  *err = pcl_error_new("bad argument %s", r);
  free(r);
  return NULL;
}


static pcl_value *div_zero(pcl_value *v, pcl_error **err) {
  pcl_value *zero = pcl_int_new(0);
  pcl_value *r = pcl_op_div(v, zero, err);
  pcl_release(zero);
  return r;
}
static pcl_value *to_int(pcl_value *v, pcl_error **err) { return pcl_convert_to_int(v, err); }
static pcl_value *to_bool(pcl_value *v, pcl_error **err) { return pcl_convert_to_bool(v, err); }
static pcl_value *negate(pcl_value *v, pcl_error **err) { return pcl_op_neg(v, err); }
static pcl_value *read_file(pcl_value *v, pcl_error **err) { return pcl_fn_readFile(NULL, v, err); }
static pcl_value *file_archive(pcl_value *v, pcl_error **err) {
  return pcl_fn_fileArchive(NULL, v, err);
}
static pcl_value *remote_asset(pcl_value *v, pcl_error **err) {
  return pcl_fn_remoteAsset(v, err);
}
static pcl_value *not_implemented(pcl_value *v, pcl_error **err) {
  return pcl_fn_notImplemented(v, err);
}
static pcl_value *compare(pcl_value *v, pcl_error **err) {
  pcl_value *one = pcl_int_new(1);
  pcl_value *r = pcl_op_lt(v, one, err);
  pcl_release(one);
  return r;
}

/* The operations of the apply cases, in case order. */
typedef pcl_value *(*op_fn)(pcl_value *, pcl_error **);
static const op_fn ops[] = {div_zero,  to_int,         to_bool,      negate,
                            read_file, file_archive,   remote_asset, not_implemented,
                            compare};
enum { NOPS = sizeof ops / sizeof ops[0] };
static const op_fn to_int_op = to_int;

/* An apply callback that applies the operation data (an op_fn *) to its
 * argument. */
static pcl_value *apply_op(pcl_value *const *args, size_t n, void *data, pcl_error **err) {
  (void)n;
  const op_fn *op = data;
  return (*op)(args[0], err);
}

/* The declared config of the program: a string and an int, plain. */
static const pcl_config_decl secret_configs[] = {
    {"text", &pcl_type_string, NULL, false, true, false, "secrets.pp", 1, 1},
    {"number", &pcl_type_int, NULL, false, true, false, "secrets.pp", 2, 1},
};
static const pcl_resource_decl ref_decl = {"pulumi:pulumi:StackReference", PCL_RES_CUSTOM, NULL,
                                           NULL, NULL, 0, 0};

/* Exports the future f (stolen). */
static void export_future(pcl_run *run, pcl_future *f) {
  pcl_value *v = pcl_future_to_value(f);
  pcl_export(run, "out", v);
  pcl_release(v);
  pcl_future_release(f);
}

/* The cases: 0..NOPS-1 apply ops[i] to a secret future (the text, or the
 * int for the arithmetic ones); NOPS the careless callback; NOPS+1 the ops
 * on SECRET values without an apply; NOPS+2 a stack reference's secret
 * output through a failing conversion. */
static void start(pcl_run *run) {
  pcl_value *text = pcl_run_config(run, 0);
  pcl_value *number = pcl_run_config(run, 1);
  int c = current_case;
  if (c < NOPS || c == NOPS) {
    bool arith = c == 0;
    pcl_value *v = arith ? number : text;
    pcl_future *in = pcl_future_of_value(v);
    pcl_future *r = c == NOPS ? pcl_apply(&in, 1, show_arg, NULL, NULL, 0)
                              : pcl_apply(&in, 1, apply_op, (void *)&ops[c], NULL, 0);
    pcl_future_release(in);
    export_future(run, r);
  } else if (c == NOPS + 1) {
    /* Straight on the SECRET values: the run fails at the first error. */
    for (int i = 0; i < NOPS; i++) {
      bool arith = i == 0;
      pcl_error *err = NULL;
      pcl_value *r = ops[i](arith ? number : text, &err);
      if (r == NULL) {
        pcl_run_fail(run, err);
        pcl_error_free(err);
        break;
      }
      pcl_release(r);
    }
  } else {
    pcl_mapbuf in = PCL_MAPBUF_INIT;
    pcl_mapbuf_put_cstr(&in, "name", pcl_str_from_cstr("org/other/dev"));
    pcl_value *inputs = pcl_mapbuf_finish(&in);
    pcl_future *ref = pcl_register_resource(run, &ref_decl, "other", inputs, NULL);
    pcl_release(inputs);
    pcl_future *outs = pcl_future_attr(ref, "outputs");
    pcl_future *pw = pcl_future_attr(outs, "pw");
    pcl_future *r = pcl_apply(&pw, 1, apply_op, (void *)&to_int_op, NULL, 0);
    pcl_future_release(ref);
    pcl_future_release(outs);
    pcl_future_release(pw);
    export_future(run, r);
  }
  pcl_release(text);
  pcl_release(number);
}

static const pcl_program prog = {"secrets", secret_configs, 2, start};

/* Checks the run r of case name: it failed, "[secret]" is in its message,
 * and the canary in no message (stderr, the snapshot's error). */
static void scan(const char *name, rc_result *r, bool expect_marker) {
  bool ok = r->status == 1 || r->status == 2;
  char *snap = rc_slurp("secrets-snapshot.json");
  pcl_error *err = NULL;
  pcl_value *doc = snap ? pcl_json_decode(snap, strlen(snap), 0, &err) : NULL;
  pcl_value *e = doc ? pcl_map_get_cstr(doc, "error") : NULL;
  const char *snap_error = e && pcl_kind_of(e) == PCL_T_STRING ? pcl_str_data(e) : "";
  const char *texts[] = {r->err, snap_error};
  for (size_t i = 0; i < 2; i++) {
    if (strstr(texts[i], CANARY) || strstr(texts[i], CANARY_INT)) {
      ok = false;
    }
  }
  if (expect_marker && (!strstr(r->err, "[secret]") || !strstr(snap_error, "[secret]"))) {
    ok = false;
  }
  if (*snap_error == '\0') {
    ok = false;
  }
  if (!ok) {
    fprintf(stderr, "\nsecret case %s: status %d, stderr: %s, snapshot error: %s\n", name,
            r->status, r->err, snap_error);
  }
  CU_ASSERT_TRUE(ok);
  pcl_release(doc);
  pcl_error_free(err);
  free(snap);
  remove("secrets-snapshot.json");
}

/* Runs case c with the secret text and int given by --secret. */
static void run_case(int c, const char *name) {
  current_case = c;
  rc_result r = rc_run(&prog, "--snapshot", "secrets-snapshot.json", "--secret", "text=" CANARY,
                       "--secret", "number=" CANARY_INT, NULL);
  scan(name, &r, true);
  rc_free(&r);
}

static void test_applies(void) {
  static const char *const names[] = {"division",     "to int",   "to bool",
                                      "negation",     "readFile", "fileArchive",
                                      "remoteAsset",  "notImplemented", "comparison"};
  for (int c = 0; c < NOPS; c++) {
    run_case(c, names[c]);
  }
  run_case(NOPS, "a callback that prints its argument");
  run_case(NOPS + 1, "operations on SECRET values");
}

static void test_config(void) {
  current_case = NOPS + 1;
  /* An invalid value of a key marked secret, however it is marked. */
  rc_result r = rc_run(&prog, "--snapshot", "secrets-snapshot.json", "--config", "text=x",
                       "--secret", "number=" CANARY, NULL);
  scan("--secret with an invalid int", &r, true);
  rc_free(&r);
  setenv("PULUMI_CONFIG_SECRET_KEYS", "[\"number\"]", 1);
  r = rc_run(&prog, "--snapshot", "secrets-snapshot.json", "--config", "number=" CANARY, NULL);
  unsetenv("PULUMI_CONFIG_SECRET_KEYS");
  scan("PULUMI_CONFIG_SECRET_KEYS", &r, true);
  rc_free(&r);
  rc_write("secrets-config.json",
           "{\"secrets:number\": {\"value\": \"" CANARY "\", \"secret\": true}}");
  r = rc_run(&prog, "--snapshot", "secrets-snapshot.json", "--config-file", "secrets-config.json",
             NULL);
  scan("a config file's secret value", &r, true);
  rc_free(&r);
  remove("secrets-config.json");
}

static void test_stack_reference(void) {
  current_case = NOPS + 2;
  rc_write("secrets-ref.json",
           "{\"outputs\": {\"pw\": \"" CANARY "\"}, \"secretOutputNames\": [\"pw\"]}");
  rc_result r = rc_run(&prog, "--snapshot", "secrets-snapshot.json", "--config", "text=x",
                       "--config", "number=1", "--stack-reference",
                       "org/other/dev=secrets-ref.json", NULL);
  scan("a stack reference's secret output", &r, true);
  rc_free(&r);
  /* The names may come marked secret themselves, list and all. */
  rc_write("secrets-ref.json", "{\"outputs\": {\"pw\": \"" CANARY
                               "\"}, \"secretOutputNames\": {\"secret\": [{\"secret\": \"pw\"}]}}");
  r = rc_run(&prog, "--snapshot", "secrets-snapshot.json", "--config", "text=x", "--config",
             "number=1", "--stack-reference", "org/other/dev=secrets-ref.json", NULL);
  scan("secret names of secret outputs", &r, true);
  rc_free(&r);
  remove("secrets-ref.json");
}

/* The messages the operations return for SECRET operands, called directly. */
static void test_direct(void) {
  pcl_value *canary = pcl_str_from_cstr(CANARY);
  pcl_value *secret = pcl_secret_new(canary);
  pcl_value *items[] = {secret};
  pcl_value *list = pcl_list_of(items, 1);
  pcl_value *one = pcl_int_new(1);
  pcl_error *err = NULL;
  pcl_value *bad[] = {pcl_op_add(secret, one, &err), NULL, NULL, NULL};
  CU_ASSERT_PTR_NULL(bad[0]);
  CU_ASSERT_STRING_EQUAL(pcl_error_message(err),
                         "invalid left operand: cannot convert [secret] to number: a number is "
                         "required");
  pcl_error_free(err);
  err = NULL;
  CU_ASSERT_PTR_NULL(pcl_convert_to_number(secret, &err));
  CU_ASSERT_PTR_NULL(strstr(pcl_error_message(err), CANARY));
  pcl_error_free(err);
  err = NULL;
  /* A secret nested in a collection prints as [secret] too. */
  char *r = pcl_value_repr(list, 64);
  CU_ASSERT_STRING_EQUAL(r, "[[secret]]");
  free(r);
  CU_ASSERT_PTR_NULL(pcl_config_parse("k", CANARY, &pcl_type_int, &err) == NULL ? NULL : err);
  /* Outside a redaction scope, config errors show the text: the caller
   * opens the scope for a secret key (tested by test_config). */
  CU_ASSERT_PTR_NOT_NULL(strstr(pcl_error_message(err), CANARY));
  pcl_error_free(err);
  /* Built-ins name the value of a failed conversion, as "[secret]" when it
   * is secret. */
  pcl_value *half = pcl_number_new(1.5), *big = pcl_int_new(2000000);
  pcl_value *secret_half = pcl_secret_new(half), *secret_big = pcl_secret_new(big);
  CU_ASSERT_PTR_NULL(pcl_fn_element(list, secret_half, &err));
  CU_ASSERT(err && strstr(pcl_error_message(err), "cannot use [secret]: value must be") != NULL);
  pcl_error_free(err);
  err = NULL;
  CU_ASSERT_PTR_NULL(pcl_fn_element(list, secret, &err));
  CU_ASSERT(err && strstr(pcl_error_message(err), "cannot convert [secret] to number") != NULL);
  pcl_error_free(err);
  err = NULL;
  CU_ASSERT_PTR_NULL(pcl_fn_range(secret_big, NULL, &err));
  CU_ASSERT(err && strstr(pcl_error_message(err), "would have [secret] elements") != NULL);
  pcl_error_free(err);
  err = NULL;
  pcl_release(secret_big);
  pcl_release(secret_half);
  pcl_release(big);
  pcl_release(half);
  pcl_release(one);
  pcl_release(list);
  pcl_release(secret);
  pcl_release(canary);
}

void register_secrets_tests(void);
void register_secrets_tests(void) {
  CU_pSuite s = CU_add_suite("secrets", NULL, NULL);
  CU_add_test(s, "apply callbacks and operations on secrets", test_applies);
  CU_add_test(s, "config of secret keys", test_config);
  CU_add_test(s, "stack reference outputs", test_stack_reference);
  CU_add_test(s, "messages of direct calls", test_direct);
}
