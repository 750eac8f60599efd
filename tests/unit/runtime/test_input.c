/* test_input.c: the input documents of a compiled program, each checked
 * against its documented shape with an error naming the document and the
 * JSON path: mocks files (every kind of entry, the entries that used to be
 * ignored: an unknown key, "hang": "yes", an id that is not a string),
 * stack references (mocks and --stack-reference files, the shapes that used
 * to crash), config documents (PULUMI_CONFIG, config files,
 * PULUMI_CONFIG_SECRET_KEYS), file reading (the system's reason, the size
 * limit); and the names, keys and values pcl_main refuses as the engine
 * would, with the exit status and the snapshot written after each error. */
#include <CUnit/CUnit.h>

#include "engine/engine.h"
#include "run_check.h"

/* Asserts that two strings are equal, printing the actual one otherwise. */
#define EXPECT_STR(actual, expected)                                                               \
  do {                                                                                             \
    const char *got_ = (actual);                                                                   \
    if (strcmp(got_, (expected)) != 0)                                                             \
      fprintf(stderr, "\n%s:%d: got: %s\n", __FILE__, __LINE__, got_);                             \
    CU_ASSERT_STRING_EQUAL(got_, (expected));                                                      \
  } while (0)

/* Loads text as the mocks file mocks.json; returns the error message
 * (owned) or NULL when it loads. */
static char *mocks_error(const char *text) {
  rc_write("mocks.json", text);
  pcl_error *err = NULL;
  pcl__json_mocks *m = pcl__json_mocks_load("mocks.json", &err);
  remove("mocks.json");
  if (m != NULL) {
    pcl__json_mocks_free(m);
    return NULL;
  }
  char *msg = pcl_xstrdup(err ? pcl_error_message(err) : "(no error)");
  pcl_error_free(err);
  return msg;
}

static void test_mocks(void) {
  static const struct {
    const char *text, *message;
  } cases[] = {
      {"{\"resources\": {\"aws:s3:Bucket\": {\"error\": 5}}}",
       "mocks.json: resources.\"aws:s3:Bucket\".error: expected a string, got 5"},
      {"{\"resources\": {\"a:b:C\": {\"hang\": \"yes\"}}}",
       "mocks.json: resources.\"a:b:C\".hang: expected true or false, got \"yes\""},
      {"{\"resources\": {\"a:b:C\": {\"id\": 5}}}",
       "mocks.json: resources.\"a:b:C\".id: expected a string, got 5"},
      {"{\"resources\": {\"a:b:C\": {\"outputz\": {}}}}",
       "mocks.json: resources.\"a:b:C\".outputz: unknown key (expected error, hang, id, merge or "
       "outputs)"},
      {"{\"resources\": {\"a:b:C\": {\"outputs\": [1]}}}",
       "mocks.json: resources.\"a:b:C\".outputs: expected an object, got [1]"},
      {"{\"resources\": {\"a:b:C\": {\"merge\": null}}}",
       "mocks.json: resources.\"a:b:C\".merge: expected true or false, got null"},
      {"{\"resources\": {\"a:b:C\": 7}}", "mocks.json: resources.\"a:b:C\": expected an object, got 7"},
      {"{\"resources\": []}", "mocks.json: resources: expected an object, got []"},
      {"{\"invokes\": {\"a:b:f\": [{\"result\": {}}, 3]}}",
       "mocks.json: invokes.\"a:b:f\"[1]: expected an object, got 3"},
      {"{\"invokes\": {\"a:b:f\": {\"args\": \"x\"}}}",
       "mocks.json: invokes.\"a:b:f\".args: expected an object, got \"x\""},
      {"{\"calls\": {\"a:b:C/m\": {\"result\": 1}}}",
       "mocks.json: calls.\"a:b:C/m\".result: expected an object, got 1"},
      {"{\"invokes\": {\"a:b:f\": {\"id\": \"x\"}}}",
       "mocks.json: invokes.\"a:b:f\".id: unknown key (expected args, error, hang or result)"},
      {"{\"stackReferences\": {\"o/p/s\": 5}}",
       "mocks.json: stackReferences.\"o/p/s\": expected an object, got 5"},
      {"{\"stackReferences\": {\"o/p/s\": {\"outputs\": {}, \"secretOutputNames\": \"pw\"}}}",
       "mocks.json: stackReferences.\"o/p/s\".secretOutputNames: expected a list of output names, "
       "got \"pw\""},
      {"{\"stackReferences\": {\"o/p/s\": {\"outputs\": 3}}}",
       "mocks.json: stackReferences.\"o/p/s\".outputs: expected an object, got 3"},
      {"{\"stackReferences\": {\"o/p/s\": {\"outputs\": {}, \"secretOutputNames\": [\"a\", 1]}}}",
       "mocks.json: stackReferences.\"o/p/s\".secretOutputNames[1]: expected an output name (a "
       "string), got 1"},
      {"{\"stackReferences\": {\"o/p/s\": {\"secretOutputNames\": []}}}",
       "mocks.json: stackReferences.\"o/p/s\": expected an object with \"outputs\""},
      {"{\"stackReferences\": {\"o/p/s\": {\"outputs\": {}, \"extra\": 1}}}",
       "mocks.json: stackReferences.\"o/p/s\".extra: unknown key (expected outputs or "
       "secretOutputNames)"},
      {"[]", "mocks.json: expected an object, got []"},
      {"{\"resources\": {\"a:b:C\": {\"outputs\": {\"x\": {\"unknown\": 1}}}}}",
       "mocks.json: resources.\"a:b:C\".outputs.x: an unknown value is written {\"unknown\": "
       "true}"},
      {"{\"resources\": {\"a:b:C\": {\"outputs\": {\"n\": 1e-400}}}}",
       "mocks.json: invalid JSON at byte 42: the number \"1e-400\" is out of range: it rounds to 0"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char *msg = mocks_error(cases[i].text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(msg);
    EXPECT_STR(msg, cases[i].message);
    free(msg);
  }
  /* The documented forms load. */
  CU_ASSERT_PTR_NULL(mocks_error(
      "{\"resources\": {\"a:b:C\": {\"id\": \"x\", \"outputs\": {\"s\": {\"secret\": 1}}, "
      "\"merge\": false, \"error\": \"e\", \"hang\": false}}, \"invokes\": {\"a:b:f\": "
      "[{\"args\": {\"v\": 1}, \"result\": {}}, {\"error\": \"no\"}]}, \"calls\": {}, "
      "\"stackReferences\": {\"o/p/s\": {\"outputs\": {\"pw\": 1}, \"secretOutputNames\": "
      "{\"secret\": [\"pw\"]}}}}"));
  /* A file that cannot be read gives the system's reason. */
  pcl_error *err = NULL;
  CU_ASSERT_PTR_NULL(pcl__json_mocks_load("no-such-mocks.json", &err));
  EXPECT_STR(pcl_error_message(err), "no-such-mocks.json: No such file or directory");
  pcl_error_free(err);
  err = NULL;
  CU_ASSERT_PTR_NULL(pcl__json_mocks_load(".", &err));
  EXPECT_STR(pcl_error_message(err), ".: Is a directory");
  pcl_error_free(err);
}

static void test_read_limit(void) {
  rc_write("limit.json", "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]");
  size_t old = pcl_value_limit();
  pcl_set_value_limit(16);
  pcl_error *err = NULL;
  CU_ASSERT_PTR_NULL(pcl__read_json_file("limit.json", 0, &err));
  EXPECT_STR(pcl_error_message(err),
             "limit.json: the file would take more than the limit of 16 bytes "
             "(--max-value-size)");
  pcl_error_free(err);
  err = NULL;
  /* The decoder counts an array's slots against the limit too. */
  pcl_set_value_limit(64);
  CU_ASSERT_PTR_NULL(pcl_json_decode("[1,2,3,4,5,6,7,8,9]", 19, 0, &err));
  EXPECT_STR(pcl_error_message(err),
             "an array would take more than the limit of 64 bytes (--max-value-size)");
  pcl_error_free(err);
  pcl_set_value_limit(old);
  remove("limit.json");
}

/* Adds the config document text (named doc); returns the error (owned) or
 * NULL, and the entries in *cs. */
static char *config_error(const char *text, pcl__config_set *cs) {
  pcl_error *err = NULL;
  pcl_value *v = pcl__read_json("doc", text, strlen(text), 0, &err);
  bool ok = v != NULL && pcl__config_add_json(cs, v, "doc", &err);
  pcl_release(v);
  char *msg = ok ? NULL : pcl_xstrdup(pcl_error_message(err));
  pcl_error_free(err);
  return msg;
}

static void test_config_documents(void) {
  static const struct {
    const char *text, *message;
  } cases[] = {
      {"[1]", "doc: expected an object, got [1]"},
      {"{\"p:k\": {\"secret\": true}}",
       "doc: \"p:k\": expected an object with \"value\" (the text of the value)"},
      {"{\"p:k\": {\"value\": \"1\", \"secret\": \"yes\"}}",
       "doc: \"p:k\".secret: expected true or false, got \"yes\""},
      {"{\"p:k\": {\"value\": \"1\", \"objekt\": true}}",
       "doc: \"p:k\".objekt: unknown key (expected object, secret or value)"},
      {"{\"\": \"1\"}", "doc: \"\": the configuration key is empty"},
      {"{\":x\": \"1\"}", "doc: \":x\": the configuration key has an empty namespace"},
      {"{\"p:\": \"1\"}", "doc: \"p:\": the configuration key has an empty name"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    pcl__config_set cs = {NULL, 0};
    char *msg = config_error(cases[i].text, &cs);
    CU_ASSERT_PTR_NOT_NULL_FATAL(msg);
    EXPECT_STR(msg, cases[i].message);
    free(msg);
    pcl__config_set_free(&cs);
  }
  /* The documented forms: a string, the wrapper, any other JSON value. */
  pcl__config_set cs = {NULL, 0};
  CU_ASSERT_PTR_NULL(config_error("{\"p:a\": \"t\", \"p:b\": {\"value\": \"v\", \"secret\": true, "
                                  "\"object\": false}, \"c\": [1, {\"x\": null}]}",
                                  &cs));
  CU_ASSERT_EQUAL(cs.n, 3);
  pcl__config_qualify(&cs, "proj");
  const pcl__config_entry *e = pcl__config_get(&cs, "p:b");
  CU_ASSERT(e != NULL && e->secret && strcmp(e->text, "v") == 0);
  e = pcl__config_get(&cs, "proj:c");
  CU_ASSERT(e != NULL && !e->secret && strcmp(e->text, "[1,{\"x\":null}]") == 0);
  pcl__config_set_free(&cs);

  /* Secret keys are a list of keys. */
  static const struct {
    const char *text, *message;
  } keys[] = {
      {"[\"a\", 1]", "keys: [1]: expected a configuration key (a string), got 1"},
      {"{\"a\": true}", "keys: expected a list of configuration keys, got {\"a\": true}"},
      {"[\"p:\"]", "keys: [0]: the configuration key has an empty name"},
  };
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
    pcl_error *err = NULL;
    pcl_value *v = pcl_json_decode(keys[i].text, strlen(keys[i].text), 0, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    CU_ASSERT_PTR_NULL(pcl__config_secret_keys(v, "keys", &err));
    EXPECT_STR(pcl_error_message(err), keys[i].message);
    pcl_error_free(err);
    pcl_release(v);
  }
}

/* A program with one required int config, declared at decl.pp:4:1. */
static const pcl_config_decl int_decl[] = {
    {"count", &pcl_type_int, NULL, false, false, false, "decl.pp", 4, 1},
    {"ratio", &pcl_type_number, NULL, false, true, false, "decl.pp", 7, 1},
};
static void export_count(pcl_run *run) {
  pcl_value *v = pcl_run_config(run, 0);
  pcl_export(run, "count", v);
  pcl_release(v);
}
static const pcl_program int_prog = {"intprog", int_decl, 2, export_count};

/* Runs int_prog with a snapshot and the arguments; checks the status, the
 * stderr text and that the snapshot holds the same error. */
#define CHECK_RUN(status_, err_, ...)                                                              \
  do {                                                                                             \
    rc_result r_ = rc_run(&int_prog, "--snapshot", "input-snapshot.json", __VA_ARGS__, NULL);      \
    CU_ASSERT_EQUAL(r_.status, (status_));                                                         \
    EXPECT_STR(r_.err, (err_));                                                                    \
    check_snapshot_error(r_.err);                                                                  \
    rc_free(&r_);                                                                                  \
  } while (0)

/* Checks that the snapshot written holds the error printed (without the
 * newline), with no resource registered when none could be. */
static void check_snapshot_error(const char *printed) {
  char *snap = rc_slurp("input-snapshot.json");
  CU_ASSERT_PTR_NOT_NULL_FATAL(snap);
  pcl_error *err = NULL;
  pcl_value *doc = pcl_json_decode(snap, strlen(snap), 0, &err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
  pcl_value *e = pcl_map_get_cstr(doc, "error");
  CU_ASSERT_TRUE_FATAL(e != NULL && pcl_kind_of(e) == PCL_T_STRING);
  CU_ASSERT_EQUAL(strncmp(printed, pcl_str_data(e), pcl_str_len(e)), 0);
  CU_ASSERT_EQUAL(printed[pcl_str_len(e)], '\n');
  CU_ASSERT_EQUAL(pcl_kind_of(pcl_map_get_cstr(doc, "outputs")), PCL_T_NULL);
  pcl_release(doc);
  free(snap);
  remove("input-snapshot.json");
}

static void test_run_errors(void) {
  /* A missing required value, at its declaration, in an update and in a
   * preview. */
  CHECK_RUN(1, "decl.pp:4:1: error: missing required configuration value \"count\"\n",
            "--stack", "s");
  CHECK_RUN(1, "decl.pp:4:1: error: missing required configuration value \"count\"\n",
            "--preview");
  /* A value given under a key a small edit away that nothing declares is
   * named with "did you mean"; a far one or a declared one is not. */
  CHECK_RUN(1,
            "decl.pp:4:1: error: missing required configuration value \"count\"; \"cuont\" is "
            "set but not declared: did you mean \"count\"?\n",
            "--config", "cuont=3");
  CHECK_RUN(1, "decl.pp:4:1: error: missing required configuration value \"count\"\n",
            "--config", "elsewhere=3");
  /* A bad value, at its declaration. */
  CHECK_RUN(1,
            "decl.pp:4:1: error: configuration variable 'count': cannot convert \"x\" to int: a "
            "number is required\n",
            "--config", "count=x");
  /* A number that rounds to 0 is refused as the literal is. */
  CHECK_RUN(1,
            "decl.pp:7:1: error: configuration variable 'ratio': cannot convert \"1e-400\" to "
            "number: out of range: it rounds to 0\n",
            "--config", "count=1", "--config", "ratio=1e-400");
  /* Keys the engine would refuse. */
  CHECK_RUN(2, "error: --config =1: the configuration key is empty\n", "--config", "=1");
  CHECK_RUN(2, "error: --secret :k=1: the configuration key has an empty namespace\n",
            "--secret", ":k=1");
  /* Bad input documents: status 2, and still a snapshot. */
  rc_write("input-mocks.json", "{\"resources\": {\"x:y:Z\": {\"hang\": \"yes\"}}}");
  CHECK_RUN(2, "error: input-mocks.json: resources.\"x:y:Z\".hang: expected true or false, got "
               "\"yes\"\n",
            "--config", "count=1", "--mocks", "input-mocks.json");
  rc_write("input-mocks.json", "{\"outputs\": {}, \"secretOutputNames\": \"p\"}");
  CHECK_RUN(2, "error: input-mocks.json: secretOutputNames: expected a list of output names, got "
               "\"p\"\n",
            "--config", "count=1", "--stack-reference", "o/p/s=input-mocks.json");
  rc_write("input-mocks.json", "[1]");
  CHECK_RUN(2, "error: input-mocks.json: expected an object, got [1]\n", "--config", "count=1",
            "--stack-reference", "o/p/s=input-mocks.json");
  rc_write("input-mocks.json", "{\"k\": {\"value\": 1, \"secret\": 1}}");
  CHECK_RUN(2, "error: input-mocks.json: k.secret: expected true or false, got 1\n", "--config",
            "count=1", "--config-file", "input-mocks.json");
  remove("input-mocks.json");
  setenv("PULUMI_CONFIG", "{\"intprog:count\": {\"secret\": true}}", 1);
  CHECK_RUN(2, "error: PULUMI_CONFIG: \"intprog:count\": expected an object with \"value\" (the "
               "text of the value)\n",
            "--preview");
  setenv("PULUMI_CONFIG", "{\"intprog:count\": \"1\"}", 1);
  setenv("PULUMI_CONFIG_SECRET_KEYS", "[true]", 1);
  CHECK_RUN(2, "error: PULUMI_CONFIG_SECRET_KEYS: [0]: expected a configuration key (a string), "
               "got true\n",
            "--preview");
  unsetenv("PULUMI_CONFIG_SECRET_KEYS");
  setenv("PULUMI_CONFIG", "{\"intprog:count\": ", 1);
  CHECK_RUN(2, "error: PULUMI_CONFIG: invalid JSON at byte 18: unexpected end of input\n",
            "--preview");
  unsetenv("PULUMI_CONFIG");
}

static void test_names(void) {
  static const struct {
    const char *flag, *value, *message;
  } cases[] = {
      {"--stack", "", "the stack name \"\" is empty"},
      {"--project", "a::b", "the project name \"a::b\" contains \"::\""},
      {"--organization", "", "the organization name \"\" is empty"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    rc_result r = rc_run(&int_prog, cases[i].flag, cases[i].value, "--config", "count=1", NULL);
    CU_ASSERT_EQUAL(r.status, 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, cases[i].message));
    rc_free(&r);
  }
  setenv("PULUMI_STACK", "dev::x", 1);
  rc_result r = rc_run(&int_prog, "--config", "count=1", NULL);
  unsetenv("PULUMI_STACK");
  CU_ASSERT_EQUAL(r.status, 2);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "the stack name \"dev::x\" contains \"::\""));
  rc_free(&r);
  /* The size limit must be a number of bytes. */
  r = rc_run(&int_prog, "--max-value-size", "lots", NULL);
  CU_ASSERT_EQUAL(r.status, 2);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "--max-value-size: the value size limit must be a "
                                       "positive number of bytes, not \"lots\""));
  rc_free(&r);
}

void register_input_tests(void);
void register_input_tests(void) {
  CU_pSuite s = CU_add_suite("input", NULL, NULL);
  CU_add_test(s, "mocks files", test_mocks);
  CU_add_test(s, "files over the size limit", test_read_limit);
  CU_add_test(s, "config documents and secret keys", test_config_documents);
  CU_add_test(s, "errors of a run, with the snapshot", test_run_errors);
  CU_add_test(s, "names and options refused", test_names);
}
