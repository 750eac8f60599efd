/* test_main.c: pcl_main end to end with small hand-written program
 * descriptors, written the way pclc's emitted C drives the runtime: config
 * declarations, a resource whose input depends on another's output through
 * an apply, options, stack outputs (plain, secret, whole resource), the
 * snapshot text, the printed outputs and the exit statuses. */
#include <CUnit/CUnit.h>

#include "run_check.h"

static const pcl_resource_decl simple_decl = {"simple:index:Resource", PCL_RES_CUSTOM, "2.0.0",
                                              NULL, NULL, 0, 0};
static pcl_value default_count = PCL_STATIC_INT(3);
static const pcl_config_decl demo_configs[] = {
    {"name", &pcl_type_string, NULL, false, false, false, "demo.pp", 1, 1},
    {"count", &pcl_type_int, &default_count, false, false, false, "demo.pp", 2, 1},
    {"token", &pcl_type_string, NULL, false, true, true, "demo.pp", 3, 1},
};

/* "${id}-b": the apply callback of b's text input. */
static pcl_value *suffix_fn(pcl_value *const *args, size_t n, void *data, pcl_error **err) {
  (void)n;
  (void)data;
  pcl_strbuf b = PCL_STRBUF_INIT;
  if (!pcl_strbuf_append_value(&b, args[0], err)) {
    pcl_strbuf_free(&b);
    return NULL;
  }
  pcl_strbuf_append_cstr(&b, "-b");
  return pcl_strbuf_finish(&b, err);
}

static void demo_start(pcl_run *run) {
  pcl_value *name = pcl_run_config(run, 0);
  pcl_mapbuf in = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_cstr(&in, "value", pcl_bool(true));
  pcl_mapbuf_put_cstr(&in, "label", pcl_retain(name));
  pcl_value *ain = pcl_mapbuf_finish(&in);
  pcl_future *a = pcl_register_resource(run, &simple_decl, "a", ain, NULL);
  pcl_release(ain);

  pcl_future *aid = pcl_future_attr(a, "id");
  pcl_future *text = pcl_apply(&aid, 1, suffix_fn, NULL, NULL, 0);
  pcl_mapbuf bin = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_cstr(&bin, "text", pcl_future_to_value(text));
  pcl_value *binv = pcl_mapbuf_finish(&bin);
  pcl_mapbuf ob = PCL_MAPBUF_INIT;
  pcl_value *aval = pcl_future_to_value(a);
  pcl_mapbuf_put_cstr(&ob, "dependsOn", pcl_list_of(&aval, 1));
  pcl_mapbuf_put_cstr(&ob, "protect", pcl_bool(true));
  pcl_value *timeouts[1];
  pcl_mapbuf tb = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_cstr(&tb, "create", pcl_str_from_cstr("1m30s"));
  timeouts[0] = pcl_mapbuf_finish(&tb);
  pcl_mapbuf_put_cstr(&ob, "customTimeouts", timeouts[0]);
  pcl_value *opts = pcl_mapbuf_finish(&ob);
  pcl_future *b = pcl_register_resource(run, &simple_decl, "b", binv, opts);
  pcl_release(binv);
  pcl_release(opts);

  pcl_future *btext = pcl_future_attr(b, "text");
  pcl_value *v = pcl_future_to_value(btext);
  pcl_export(run, "text", v);
  pcl_release(v);
  pcl_value *count = pcl_run_config(run, 1);
  pcl_export(run, "count", count);
  pcl_release(count);
  pcl_value *token = pcl_run_config(run, 2);
  pcl_export(run, "token", token);
  pcl_release(token);
  pcl_value *whole = pcl_future_to_value(a);
  pcl_export(run, "a", whole);
  pcl_release(whole);

  pcl_release(aval);
  pcl_release(name);
  pcl_future_release(a);
  pcl_future_release(aid);
  pcl_future_release(text);
  pcl_future_release(b);
  pcl_future_release(btext);
}

static const pcl_program demo = {"demo", demo_configs, 3, demo_start};

static const char demo_snapshot[] =
    "{\n"
    "  \"version\": 1,\n"
    "  \"project\": \"demo\",\n"
    "  \"stack\": \"test\",\n"
    "  \"organization\": \"organization\",\n"
    "  \"preview\": false,\n"
    "  \"error\": null,\n"
    "  \"outputs\": {\n"
    "    \"a\": {\n"
    "      \"resource_ref\": {\n"
    "        \"id\": \"a_id\",\n"
    "        \"urn\": \"urn:pulumi:test::demo::simple:index:Resource::a\"\n"
    "      }\n"
    "    },\n"
    "    \"count\": 123456789012345678901234567890,\n"
    "    \"text\": \"a_id-b\",\n"
    "    \"token\": {\n"
    "      \"secret\": \"s3cr3t\"\n"
    "    }\n"
    "  },\n"
    "  \"resources\": [\n"
    "    {\n"
    "      \"urn\": \"urn:pulumi:test::demo::pulumi:pulumi:Stack::demo-test\",\n"
    "      \"type\": \"pulumi:pulumi:Stack\",\n"
    "      \"name\": \"demo-test\",\n"
    "      \"custom\": false,\n"
    "      \"remote\": false,\n"
    "      \"id\": null,\n"
    "      \"parent\": null,\n"
    "      \"provider\": null,\n"
    "      \"inputs\": {},\n"
    "      \"outputs\": {\n"
    "        \"a\": {\n"
    "          \"resource_ref\": {\n"
    "            \"id\": \"a_id\",\n"
    "            \"urn\": \"urn:pulumi:test::demo::simple:index:Resource::a\"\n"
    "          }\n"
    "        },\n"
    "        \"count\": 123456789012345678901234567890,\n"
    "        \"text\": \"a_id-b\",\n"
    "        \"token\": {\n"
    "          \"secret\": \"s3cr3t\"\n"
    "        }\n"
    "      },\n"
    "      \"dependencies\": [],\n"
    "      \"propertyDependencies\": {},\n"
    "      \"options\": {\n"
    "        \"additionalSecretOutputs\": [],\n"
    "        \"aliases\": [],\n"
    "        \"customTimeouts\": {},\n"
    "        \"deleteBeforeReplace\": false,\n"
    "        \"deletedWith\": \"\",\n"
    "        \"external\": false,\n"
    "        \"hideDiffs\": [],\n"
    "        \"ignoreChanges\": [],\n"
    "        \"importID\": \"\",\n"
    "        \"protect\": false,\n"
    "        \"replaceOnChanges\": [],\n"
    "        \"replaceWith\": [],\n"
    "        \"replacementTrigger\": null,\n"
    "        \"retainOnDelete\": false\n"
    "      }\n"
    "    },\n";

static void test_demo_run(void) {
  rc_result r = rc_run(&demo, "--stack", "test", "--config", "name=widget", "--config", "count=123456789012345678901234567890", "--secret", "token=s3cr3t", "--snapshot", "demo-snapshot.json", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_STRING_EQUAL(r.err, "");
  /* Printed outputs: compact sorted JSON, the secret masked. */
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"token\": \"[secret]\""));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"text\": \"a_id-b\""));
  char *snap = rc_slurp("demo-snapshot.json");
  CU_ASSERT_PTR_NOT_NULL_FATAL(snap);
  CU_ASSERT_NSTRING_EQUAL(snap, demo_snapshot, strlen(demo_snapshot));
  /* The default provider comes before the first resource that needs it. */
  const char *prov = strstr(snap, "\"name\": \"default_2_0_0\"");
  const char *a = strstr(snap, "{\n      \"urn\": \"urn:pulumi:test::demo::simple:index:Resource::a\"");
  const char *b = strstr(snap, "{\n      \"urn\": \"urn:pulumi:test::demo::simple:index:Resource::b\"");
  CU_ASSERT(prov && a && b && prov < a && a < b);
  /* b depends on a through its input and through dependsOn. */
  CU_ASSERT(b && strstr(b, "\"text\": [\n          "
                                         "\"urn:pulumi:test::demo::simple:index:Resource::a\""));
  CU_ASSERT(b && strstr(b, "\"create\": 90"));
  CU_ASSERT(b && strstr(b, "\"protect\": true"));
  CU_ASSERT(
      a && strstr(a, "\"provider\": \"urn:pulumi:test::demo::pulumi:providers:simple::"
                     "default_2_0_0::00000000-0000-4000-8000-000000000001\""));
  free(snap);
  if (getenv("KEEP_SNAPSHOT") == NULL) {
    remove("demo-snapshot.json");
  }
  rc_free(&r);
}

static void test_show_secrets_and_env(void) {
  setenv("PULUMI_PROJECT", "envproj", 1);
  setenv("PULUMI_STACK", "envstack", 1);
  setenv("PULUMI_CONFIG", "{\"envproj:name\": \"from-env\", \"envproj:token\": \"tok\"}", 1);
  setenv("PULUMI_CONFIG_SECRET_KEYS", "[\"envproj:name\"]", 1);
  rc_result r = rc_run(&demo, "--show-secrets", "--config", "token=flag", NULL);
  unsetenv("PULUMI_PROJECT");
  unsetenv("PULUMI_STACK");
  unsetenv("PULUMI_CONFIG");
  unsetenv("PULUMI_CONFIG_SECRET_KEYS");
  CU_ASSERT_EQUAL(r.status, 0);
  /* The flag wins over the environment; secrets are shown in clear. */
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"token\": {\n    \"secret\": \"flag\""));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"count\": 3"));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "urn:pulumi:envstack::envproj::simple:index:Resource::a"));
  rc_free(&r);
}

static void test_exit_statuses(void) {
  rc_result r = rc_run(&demo, NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CU_ASSERT_STRING_EQUAL(r.err, "demo.pp:1:1: error: missing required configuration value \"name\"\n");
  rc_free(&r);
  r = rc_run(&demo, "--config", "name=x", "--config", "count=1.5", NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CU_ASSERT_STRING_EQUAL(r.err, "demo.pp:2:1: error: configuration variable 'count': cannot "
                                "convert \"1.5\" to int: not an integer\n");
  rc_free(&r);
  r = rc_run(&demo, "--frobnicate", NULL);
  CU_ASSERT_EQUAL(r.status, 2);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "unknown option '--frobnicate'"));
  rc_free(&r);
  r = rc_run(&demo, "--help", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "--snapshot FILE"));
  rc_free(&r);
}

/* PULUMI_CONFIG_SECRET_KEYS marks a key secret whatever set it, a flag
 * included. */
static void test_secret_keys_from_flags(void) {
  setenv("PULUMI_CONFIG_SECRET_KEYS", "[\"demo:name\"]", 1);
  rc_result r = rc_run(&demo, "--snapshot", "keys-snapshot.json", "--config", "name=hidden",
                       "--config", "token=t", NULL);
  unsetenv("PULUMI_CONFIG_SECRET_KEYS");
  CU_ASSERT_EQUAL(r.status, 0);
  char *snap = rc_slurp("keys-snapshot.json");
  CU_ASSERT(snap && strstr(snap, "\"label\": {\n          \"secret\": \"hidden\""));
  free(snap);
  rc_free(&r);
  r = rc_run(&demo, "--snapshot", "keys-snapshot2.json", "--config", "name=plain", "--config",
             "token=t", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  snap = rc_slurp("keys-snapshot2.json");
  CU_ASSERT(snap && strstr(snap, "\"label\": \"plain\""));
  free(snap);
  if (getenv("KEEP_SNAPSHOT") == NULL) {
    remove("keys-snapshot.json");
    remove("keys-snapshot2.json");
  }
  rc_free(&r);
}

/* A program that keeps a value of the run alive past its end. */
static pcl_value *kept;
static void leaky_start(pcl_run *run) { kept = pcl_run_project(run); }
static const pcl_program leaky = {"leaky", NULL, 0, leaky_start};

/* pcl_main fails a run that leaves values alive (debug builds check by
 * default; PCL_CHECK_LEAKS=0 turns it off). */
static void test_leak_check(void) {
  rc_result r = rc_run(&leaky, NULL);
  pcl_release(kept);
  kept = NULL;
#ifndef NDEBUG
  CU_ASSERT_EQUAL(r.status, 1);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "pcl: 1 values"));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "the run leaked values"));
#endif
  rc_free(&r);
  setenv("PCL_CHECK_LEAKS", "0", 1);
  r = rc_run(&leaky, NULL);
  pcl_release(kept);
  kept = NULL;
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_STRING_EQUAL(r.err, "");
  rc_free(&r);
  setenv("PCL_CHECK_LEAKS", "1", 1);
  r = rc_run(&leaky, NULL);
  pcl_release(kept);
  kept = NULL;
  unsetenv("PCL_CHECK_LEAKS");
  CU_ASSERT_EQUAL(r.status, 1);
  rc_free(&r);
  /* A program that frees what it made passes the check. */
  r = rc_run(&demo, "--config", "name=n", "--config", "token=t", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  rc_free(&r);
}

/* A program whose apply fails with a located error (D11). */
static pcl_value *fail_fn(pcl_value *const *args, size_t n, void *data, pcl_error **err) {
  (void)args;
  (void)n;
  (void)data;
  *err = pcl_error_new("cannot convert 2.5 to int: not an integer");
  pcl_error_set_location(*err, "main.pp", 12, 5);
  return NULL;
}

static void failing_start(pcl_run *run) {
  pcl_future *x = pcl_future_resolved(PCL_OUTPUT, pcl_null(), 0, NULL);
  pcl_future *y = pcl_apply(&x, 1, fail_fn, NULL, NULL, 0);
  pcl_mapbuf in = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_cstr(&in, "value", pcl_future_to_value(y));
  pcl_value *inputs = pcl_mapbuf_finish(&in);
  pcl_future *r = pcl_register_resource(run, &simple_decl, "r", inputs, NULL);
  pcl_release(inputs);
  pcl_future_release(x);
  pcl_future_release(y);
  pcl_future_release(r);
}

static const pcl_program failing = {"failing", NULL, 0, failing_start};

static void test_located_error(void) {
  rc_result r = rc_run(&failing, "--snapshot", "failing.json", NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CU_ASSERT_STRING_EQUAL(r.err, "main.pp:12:5: error: cannot convert 2.5 to int: not an integer\n");
  CU_ASSERT_STRING_EQUAL(r.out, "");
  char *snap = rc_slurp("failing.json");
  CU_ASSERT_PTR_NOT_NULL_FATAL(snap);
  /* The snapshot is written after an error too, with the error in it. */
  CU_ASSERT_PTR_NOT_NULL(
      strstr(snap, "\"error\": \"main.pp:12:5: error: cannot convert 2.5 to int: not an integer\""));
  CU_ASSERT_PTR_NOT_NULL(strstr(snap, "pulumi:pulumi:Stack::failing-dev"));
  CU_ASSERT_PTR_NULL(strstr(snap, "simple:index:Resource::r"));
  free(snap);
  remove("failing.json");
  rc_free(&r);
}

/* A local whose computation fails, though nothing uses it, fails the run. */
static void unused_start(pcl_run *run) {
  (void)run;
  pcl_future *x = pcl_future_resolved(PCL_OUTPUT, pcl_null(), 0, NULL);
  pcl_future *y = pcl_apply(&x, 1, fail_fn, NULL, NULL, 0);
  pcl_future_release(x);
  pcl_future_release(y);
}

static const pcl_program unused = {"unused", NULL, 0, unused_start};

static void test_unobserved_error(void) {
  rc_result r = rc_run(&unused, NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CU_ASSERT_STRING_EQUAL(r.err, "main.pp:12:5: error: cannot convert 2.5 to int: not an integer\n");
  rc_free(&r);
}

/* A program waiting on a promise nobody resolves. */
static void stuck_start(pcl_run *run) {
  pcl_future *never = pcl_future_new(PCL_PROMISE, "promise 'never'");
  pcl_mapbuf in = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_cstr(&in, "value", pcl_future_to_value(never));
  pcl_value *inputs = pcl_mapbuf_finish(&in);
  pcl_future *r = pcl_register_resource(run, &simple_decl, "waiting", inputs, NULL);
  pcl_export(run, "out", inputs);
  pcl_release(inputs);
  pcl_future_release(never);
  pcl_future_release(r);
}

static const pcl_program stuck = {"stuck", NULL, 0, stuck_start};

static void test_stall(void) {
  rc_result r = rc_run(&stuck, NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CU_ASSERT_STRING_EQUAL(r.err,
                         "error: the program cannot finish: still waiting for promise 'never', "
                         "resource 'waiting' (simple:index:Resource), registration of the "
                         "stack outputs\n");
  rc_free(&r);
}

static void test_preview(void) {
  rc_result r = rc_run(&demo, "--preview", "--config", "name=n", "--snapshot", "preview.json", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  char *snap = rc_slurp("preview.json");
  CU_ASSERT_PTR_NOT_NULL_FATAL(snap);
  CU_ASSERT_PTR_NOT_NULL(strstr(snap, "\"preview\": true"));
  /* The id of a new resource is unknown, and so is b's text derived from it;
   * the output built from it is unknown as well. */
  const char *a = strstr(snap, "simple:index:Resource::a\",");
  CU_ASSERT(a && strstr(a, "\"id\": {\n        \"unknown\": true\n      }"));
  CU_ASSERT_PTR_NOT_NULL(strstr(snap, "\"text\": {\n      \"unknown\": true\n    }"));
  free(snap);
  remove("preview.json");
  rc_free(&r);
}

static void logging_start(pcl_run *run) {
  pcl_run_log(run, PCL_LOG_WARNING, NULL, "int above 2^53 rounded");
  pcl_run_log(run, PCL_LOG_DEBUG, NULL, "not shown");
  pcl_value *v = pcl_run_project(run);
  pcl_value *s = pcl_run_stack(run);
  pcl_value *o = pcl_run_organization(run);
  pcl_value *root = pcl_run_root_directory(run);
  pcl_export(run, "project", v);
  pcl_export(run, "stack", s);
  pcl_export(run, "org", o);
  pcl_export(run, "root", root);
  CU_ASSERT_PTR_EQUAL(pcl_run_current(), run);
  CU_ASSERT_FALSE(pcl_run_preview(run));
  pcl_release(v);
  pcl_release(s);
  pcl_release(o);
  pcl_release(root);
}

static const pcl_program logging = {"logging", NULL, 0, logging_start};

static void test_log_and_info(void) {
  rc_result r = rc_run(&logging, "--organization", "acme", "--root-directory", "/proj", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_STRING_EQUAL(r.err, "warning: int above 2^53 rounded\n");
  CU_ASSERT_STRING_EQUAL(r.out, "{\n"
                                "  \"org\": \"acme\",\n"
                                "  \"project\": \"logging\",\n"
                                "  \"root\": \"/proj\",\n"
                                "  \"stack\": \"dev\"\n"
                                "}\n");
  CU_ASSERT_PTR_NULL(pcl_run_current());
  rc_free(&r);
}

void register_main_tests(void);
void register_main_tests(void) {
  CU_pSuite s = CU_add_suite("main", NULL, NULL);
  CU_add_test(s, "demo program end to end", test_demo_run);
  CU_add_test(s, "environment, flags, --show-secrets", test_show_secrets_and_env);
  CU_add_test(s, "exit statuses and messages", test_exit_statuses);
  CU_add_test(s, "located program error keeps the snapshot", test_located_error);
  CU_add_test(s, "a stalled program names what it waits for", test_stall);
  CU_add_test(s, "an error nobody observes still fails the run", test_unobserved_error);
  CU_add_test(s, "preview leaves new outputs unknown", test_preview);
  CU_add_test(s, "log messages and run information", test_log_and_info);
  CU_add_test(s, "PULUMI_CONFIG_SECRET_KEYS marks keys set by flags", test_secret_keys_from_flags);
  CU_add_test(s, "a run that leaks values fails", test_leak_check);
}
