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
      {"{\"stackReferences\": {\"p/s\": {\"outputs\": {}}}}",
       "mocks.json: stackReferences.\"p/s\": the stack name is not org/project/stack"},
      {"{\"stackReferences\": {\"\": {\"outputs\": {}}}}",
       "mocks.json: stackReferences.\"\": the stack name is empty"},
      {"{\"stackReferences\": {\"o//s\": {\"outputs\": {}}}}",
       "mocks.json: stackReferences.\"o//s\": the stack name is not org/project/stack: a part is "
       "empty"},
      {"{\"resources\": {\"a:b:C\": {\"outputs\": {\"r\": {\"resource_ref\": {\"urn\": \"\"}}}}}}",
       "mocks.json: resources.\"a:b:C\".outputs.r: a resource reference's \"urn\" is empty"},
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

/* Returns the "result" of the invoke of f:i:f with the arguments args
 * (JSON, snapshot form) in the mocks m as text, or "none". */
static char *invoke_result(const pcl__json_mocks *m, const char *args) {
  pcl_error *err = NULL;
  pcl_value *a = pcl_json_decode(args, strlen(args), PCL_JSON_SNAPSHOT, &err);
  pcl__mock_answer ans = pcl__json_mocks_invoke(m, "f:i:f", a, false);
  char *text = ans.found ? pcl_json_encode(ans.outputs, 0, NULL, &err) : pcl_xstrdup("none");
  pcl_release(a);
  return text;
}

/* The first entry whose args match answers, among thousands of entries
 * (indexed by their first argument), whatever the order of the entries
 * with and without args and the names they start with. */
static void test_invoke_entries(void) {
  pcl_strbuf b = PCL_STRBUF_INIT;
  pcl_strbuf_append_cstr(&b, "{\"invokes\": {\"f:i:f\": [");
  for (int i = 0; i < 5000; i++) {
    pcl_strbuf_appendf(&b, "{\"args\": {\"a\": %d, \"b\": %d}, \"result\": {\"r\": %d}}, ", i,
                       i % 2, i);
  }
  pcl_strbuf_append_cstr(&b, "{\"args\": {\"a\": 7}, \"result\": {\"r\": \"any b\"}}, "
                             "{\"args\": {\"k\": {\"secret\": \"s\"}}, \"result\": {\"r\": \"k\"}}, "
                             "{\"result\": {\"r\": \"anything\"}}, "
                             "{\"args\": {\"z\": 1}, \"result\": {\"r\": \"never\"}}]}}");
  rc_write("invoke-mocks.json", b.data);
  pcl_strbuf_free(&b);
  pcl_error *err = NULL;
  pcl__json_mocks *m = pcl__json_mocks_load("invoke-mocks.json", &err);
  remove("invoke-mocks.json");
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  static const struct {
    const char *args, *result;
  } cases[] = {
      {"{\"a\": 4321, \"b\": 1}", "{\"r\":4321}"},
      {"{\"a\": 4321.0, \"b\": 1, \"c\": 3}", "{\"r\":4321}"},
      {"{\"a\": {\"secret\": 12}, \"b\": 0}", "{\"r\":12}"},
      {"{\"a\": 7, \"b\": 0}", "{\"r\":\"any b\"}"},
      {"{\"a\": 7, \"b\": 1}", "{\"r\":7}"},
      {"{\"k\": \"s\"}", "{\"r\":\"k\"}"},
      {"{\"a\": {\"unknown\": true}, \"b\": 1}", "{\"r\":\"anything\"}"},
      {"{\"a\": 4321, \"b\": 0}", "{\"r\":\"anything\"}"},
      {"{\"z\": 1}", "{\"r\":\"anything\"}"},
      {"{}", "{\"r\":\"anything\"}"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char *got = invoke_result(m, cases[i].args);
    EXPECT_STR(got, cases[i].result);
    free(got);
  }
  pcl__mock_answer none = pcl__json_mocks_invoke(m, "f:i:g", NULL, false);
  CU_ASSERT_FALSE(none.found);
  pcl__json_mocks_free(m);
}

/* Entries filed under their rarest argument: thousands that share their
 * first argument and differ in the second, thousands whose one argument
 * has a name of its own, and an entry found through one argument that
 * comes before a later match found through another. */
static void test_invoke_rarest_argument(void) {
  pcl_strbuf b = PCL_STRBUF_INIT;
  pcl_strbuf_append_cstr(&b, "{\"invokes\": {\"f:i:f\": [");
  for (int i = 0; i < 3000; i++) {
    pcl_strbuf_appendf(&b,
                       "{\"args\": {\"name\": \"n%d\", \"region\": \"us\"}, \"result\": {\"r\": %d}}, "
                       "{\"args\": {\"x%d\": %d}, \"result\": {\"x\": %d}}, ",
                       i, i, i, i, i);
  }
  pcl_strbuf_append_cstr(&b, "{\"args\": {\"name\": \"dup\", \"region\": \"eu\"}, "
                             "\"result\": {\"r\": \"first\"}}, "
                             "{\"args\": {\"name\": \"dup\", \"zone\": \"z\"}, "
                             "\"result\": {\"r\": \"second\"}}]}}");
  rc_write("invoke-mocks.json", b.data);
  pcl_strbuf_free(&b);
  pcl_error *err = NULL;
  pcl__json_mocks *m = pcl__json_mocks_load("invoke-mocks.json", &err);
  remove("invoke-mocks.json");
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  static const struct {
    const char *args, *result;
  } cases[] = {
      {"{\"name\": \"n2999\", \"region\": \"us\"}", "{\"r\":2999}"},
      {"{\"name\": \"n0\", \"region\": \"us\", \"x5\": 5}", "{\"r\":0}"},
      {"{\"name\": \"n7\", \"region\": \"eu\"}", "none"},
      {"{\"region\": \"us\"}", "none"},
      {"{\"x1234\": 1234}", "{\"x\":1234}"},
      {"{\"x1234\": 1235}", "none"},
      {"{\"name\": \"dup\", \"region\": \"eu\", \"zone\": \"z\"}", "{\"r\":\"first\"}"},
      {"{\"name\": \"dup\", \"zone\": \"z\"}", "{\"r\":\"second\"}"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char *got = invoke_result(m, cases[i].args);
    EXPECT_STR(got, cases[i].result);
    free(got);
  }
  pcl__json_mocks_free(m);
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
    pcl__config_set cs = {NULL, 0, 0, NULL};
    char *msg = config_error(cases[i].text, &cs);
    CU_ASSERT_PTR_NOT_NULL_FATAL(msg);
    EXPECT_STR(msg, cases[i].message);
    free(msg);
    pcl__config_set_free(&cs);
  }
  /* The documented forms: a string, the wrapper, any other JSON value. */
  pcl__config_set cs = {NULL, 0, 0, NULL};
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
  /* Of the entries of a key the last wins, however many keys there are;
   * a lookup after an entry was added or the keys qualified sees it. */
  for (int i = 0; i < 3000; i++) {
    char k[32], t[32];
    snprintf(k, sizeof k, "k%d", i % 1000);
    snprintf(t, sizeof t, "%d", i);
    pcl__config_put(&cs, k, t, false);
    if (i == 1500) {
      CU_ASSERT(strcmp(pcl__config_get(&cs, "k500")->text, "1500") == 0);
    }
  }
  CU_ASSERT(strcmp(pcl__config_get(&cs, "k500")->text, "2500") == 0);
  CU_ASSERT_PTR_NULL(pcl__config_get(&cs, "k5000"));
  pcl__config_qualify(&cs, "proj");
  CU_ASSERT_PTR_NULL(pcl__config_get(&cs, "k500"));
  CU_ASSERT(strcmp(pcl__config_get(&cs, "proj:k999")->text, "2999") == 0);
  pcl_value *sk = pcl_list_of((pcl_value *[]){pcl_str_from_cstr("k7")}, 1);
  pcl__config_mark_secret(&cs, sk, "proj");
  pcl_release(pcl_list_at(sk, 0));
  pcl_release(sk);
  pcl_value *all = pcl__config_map(&cs);
  CU_ASSERT_EQUAL(pcl_len(all), 1000);
  CU_ASSERT(strcmp(pcl_str_data(pcl_map_get_cstr(all, "proj:k1")), "2001") == 0);
  pcl_value *k7 = pcl_map_get_cstr(all, "proj:k7");
  CU_ASSERT(k7 && pcl_kind_of(k7) == PCL_T_SECRET &&
            strcmp(pcl_str_data(pcl_secret_inner(k7)), "2007") == 0);
  pcl_release(all);
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
  /* A variable of the environment that is set is read as its flag would
   * be, so an empty one is refused as the empty flag is, naming the
   * variable (the flags name themselves); a value that is not a whole
   * number is refused. */
  static const struct {
    const char *var, *value, *message;
  } env[] = {
      {"PULUMI_PROJECT", "", "PULUMI_PROJECT: the project name \"\" is empty"},
      {"PULUMI_STACK", "", "PULUMI_STACK: the stack name \"\" is empty"},
      {"PULUMI_ORGANIZATION", "", "PULUMI_ORGANIZATION: the organization name \"\" is empty"},
      {"PULUMI_ROOT_DIRECTORY", "", "PULUMI_ROOT_DIRECTORY: the project root directory is empty"},
      {"PCL_MAX_VALUE_SIZE", "", "PCL_MAX_VALUE_SIZE: the value size limit must be a positive "
                                 "number of bytes, not \"\""},
      {"PCL_MAX_VALUE_SIZE", " 12", "PCL_MAX_VALUE_SIZE: the value size limit must be a positive "
                                    "number of bytes, not \" 12\""},
  };
  for (size_t i = 0; i < sizeof env / sizeof env[0]; i++) {
    setenv(env[i].var, env[i].value, 1);
    r = rc_run(&int_prog, "--config", "count=1", NULL);
    unsetenv(env[i].var);
    CU_ASSERT_EQUAL(r.status, 2);
    if (strstr(r.err, env[i].message) == NULL) {
      fprintf(stderr, "\n%s=\"%s\": %s\n", env[i].var, env[i].value, r.err);
    }
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, env[i].message));
    rc_free(&r);
  }
  r = rc_run(&int_prog, "--stack", "", "--config", "count=1", NULL);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "--stack: the stack name \"\" is empty"));
  rc_free(&r);
  r = rc_run(&int_prog, "--root-directory", "", "--config", "count=1", NULL);
  CU_ASSERT_EQUAL(r.status, 2);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "--root-directory: the project root directory is empty"));
  rc_free(&r);
  /* PULUMI_PARALLEL, read on the engine protocol (PULUMI_MONITOR set; the
   * check comes before the engine is called, so none needs to listen). */
  static const char *const parallel[] = {"", "-1", "two", "1.5", "99999999999999999999999"};
  setenv("PULUMI_MONITOR", "127.0.0.1:1", 1);
  for (size_t i = 0; i < sizeof parallel / sizeof parallel[0]; i++) {
    setenv("PULUMI_PARALLEL", parallel[i], 1);
    r = rc_run(&int_prog, "--config", "count=1", NULL);
    CU_ASSERT_EQUAL(r.status, 2);
    char want[200];
    snprintf(want, sizeof want,
             "PULUMI_PARALLEL: the number of registrations in flight must be a whole number (0 "
             "for no bound), not \"%s\"\n",
             parallel[i]);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, want));
    rc_free(&r);
  }
  unsetenv("PULUMI_PARALLEL");
  /* The engine's times: a positive number of seconds, at most a day. */
  static const char *const times[] = {"", "0", "-1", "soon", "1e9", "nan", " 2"};
  static const char *const vars[] = {"PCL_ENGINE_DEADLINE", "PCL_ENGINE_KEEPALIVE"};
  for (size_t v = 0; v < 2; v++) {
    for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) {
      setenv(vars[v], times[i], 1);
      r = rc_run(&int_prog, "--config", "count=1", NULL);
      CU_ASSERT_EQUAL(r.status, 2);
      char want[200];
      snprintf(want, sizeof want,
               "%s: the time must be a number of seconds, more than 0 and at most 86400, not "
               "\"%s\"\n",
               vars[v], times[i]);
      if (strstr(r.err, want) == NULL) {
        fprintf(stderr, "\n%s=\"%s\": %s\n", vars[v], times[i], r.err);
      }
      CU_ASSERT_PTR_NOT_NULL(strstr(r.err, want));
      rc_free(&r);
    }
    unsetenv(vars[v]);
  }
  unsetenv("PULUMI_MONITOR");
  /* A stack reference is named org/project/stack. */
  static const struct {
    const char *arg, *message;
  } refs[] = {
      {"=refs.json", "--stack-reference =refs.json: the stack name \"\" is empty"},
      {"p/s=refs.json", "--stack-reference p/s=refs.json: the stack name \"p/s\" is not "
                        "org/project/stack"},
      {"o/p/s/x=refs.json", "--stack-reference o/p/s/x=refs.json: the stack name \"o/p/s/x\" is "
                            "not org/project/stack"},
      {"o//s=refs.json", "--stack-reference o//s=refs.json: the stack name \"o//s\" is not "
                         "org/project/stack: a part is empty"},
      {"/p/s=refs.json", "--stack-reference /p/s=refs.json: the stack name \"/p/s\" is not "
                         "org/project/stack: a part is empty"},
  };
  rc_write("refs.json", "{}");
  for (size_t i = 0; i < sizeof refs / sizeof refs[0]; i++) {
    r = rc_run(&int_prog, "--stack-reference", refs[i].arg, "--config", "count=1", NULL);
    CU_ASSERT_EQUAL(r.status, 2);
    char want[200];
    snprintf(want, sizeof want, "error: %s\n", refs[i].message);
    if (strcmp(r.err, want) != 0) {
      fprintf(stderr, "\n%s: %s\n", refs[i].arg, r.err);
    }
    CU_ASSERT_STRING_EQUAL(r.err, want);
    rc_free(&r);
  }
  r = rc_run(&int_prog, "--stack-reference", "o/p/s=refs.json", "--config", "count=1", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  rc_free(&r);
  remove("refs.json");
}

void register_input_tests(void);
void register_input_tests(void) {
  CU_pSuite s = CU_add_suite("input", NULL, NULL);
  CU_add_test(s, "mocks files", test_mocks);
  CU_add_test(s, "files over the size limit", test_read_limit);
  CU_add_test(s, "the first matching invoke entry among many", test_invoke_entries);
  CU_add_test(s, "invoke entries filed under their rarest argument", test_invoke_rarest_argument);
  CU_add_test(s, "config documents and secret keys", test_config_documents);
  CU_add_test(s, "errors of a run, with the snapshot", test_run_errors);
  CU_add_test(s, "names and options refused", test_names);
}
