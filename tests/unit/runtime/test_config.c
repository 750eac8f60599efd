/* test_config.c: config values parsed by declared type (program.md §6,
 * DECISIONS.md D3): every type, exact ints, JSON collections checked against
 * element types, and errors that name the key; plus nullable, secret and
 * default handling and --config-file through pcl_main. */
#include <CUnit/CUnit.h>

#include "run_check.h"

/* Parses text as type; returns the compact snapshot JSON of the value or
 * "ERR: <message>" (owned). */
static char *parse(const char *text, const pcl_type *type) {
  pcl_error *err = NULL;
  pcl_value *v = pcl_config_parse("k", text, type, &err);
  pcl_strbuf b = PCL_STRBUF_INIT;
  if (v == NULL) {
    pcl_strbuf_appendf(&b, "ERR: %s", pcl_error_message(err));
    pcl_error_free(err);
  } else {
    char *j = pcl_json_encode(v, 0, NULL, &err);
    pcl_strbuf_append_cstr(&b, j ? j : "?");
    free(j);
    pcl_release(v);
  }
  return b.data;
}

#define CHECK_PARSE(text, type, want)                                                        \
  do {                                                                                       \
    char *got_ = parse(text, type);                                                          \
    CU_ASSERT_STRING_EQUAL(got_, want);                                                      \
    free(got_);                                                                              \
  } while (0)

static const pcl_type list_int = {PCL_TY_LIST, &pcl_type_int, NULL, 0};
static const pcl_type opt_string = {PCL_TY_OPTIONAL, &pcl_type_string, NULL, 0};
static const pcl_type list_opt_string = {PCL_TY_LIST, &opt_string, NULL, 0};
static const pcl_type map_number = {PCL_TY_MAP, &pcl_type_number, NULL, 0};
static const pcl_type_field obj_fields[] = {{"n", &pcl_type_int}, {"s", &pcl_type_string}};
static const pcl_type obj = {PCL_TY_OBJECT, NULL, obj_fields, 2};
static const pcl_type opt_int = {PCL_TY_OPTIONAL, &pcl_type_int, NULL, 0};

static void test_scalars(void) {
  CHECK_PARSE("hello", &pcl_type_string, "\"hello\"");
  CHECK_PARSE("", &pcl_type_string, "\"\"");
  CHECK_PARSE("true", &pcl_type_bool, "true");
  CHECK_PARSE("T", &pcl_type_bool, "true");
  CHECK_PARSE("0", &pcl_type_bool, "false");
  CHECK_PARSE("yes", &pcl_type_bool,
              "ERR: configuration variable 'k': cannot convert \"yes\" to bool: a bool is "
              "required");
  CHECK_PARSE("42", &pcl_type_int, "42");
  CHECK_PARSE("-123456789012345678901234567890", &pcl_type_int,
              "-123456789012345678901234567890");
  /* Errors name the value as the conversions do (DECISIONS.md D11). */
  CHECK_PARSE("1.5", &pcl_type_int,
              "ERR: configuration variable 'k': cannot convert \"1.5\" to int: not an integer");
  CHECK_PARSE("abc", &pcl_type_int,
              "ERR: configuration variable 'k': cannot convert \"abc\" to int: a number is "
              "required");
  CHECK_PARSE("3.5", &pcl_type_number, "3.5");
  CHECK_PARSE("1e3", &pcl_type_number, "1000");
  CHECK_PARSE("x", &pcl_type_number,
              "ERR: configuration variable 'k': cannot convert \"x\" to number: a number is "
              "required");
  /* A number is a double (DECISIONS.md D3): 30 digits of text become the
   * nearest double, which prints with its 17 significant digits; only an
   * int keeps every digit. */
  CHECK_PARSE("123456789012345678901234567890", &pcl_type_number,
              "123456789012345680000000000000");
  CHECK_PARSE("9007199254740993", &pcl_type_number, "9007199254740992");
  CHECK_PARSE("1e400", &pcl_type_number,
              "ERR: configuration variable 'k': cannot convert \"1e400\" to number: out of the "
              "range of a double");
  CHECK_PARSE("7", &opt_int, "7");
}

static void test_any(void) {
  CHECK_PARSE("{\"a\": [1, 2]}", &pcl_type_any, "{\"a\":[1,2]}");
  CHECK_PARSE("not json", &pcl_type_any, "\"not json\"");
  CHECK_PARSE("12", &pcl_type_any, "12");
}

static void test_collections(void) {
  CHECK_PARSE("[1, 2, 99999999999999999999]", &list_int, "[1,2,99999999999999999999]");
  CHECK_PARSE("[\"3\"]", &list_int, "[3]");
  CHECK_PARSE("[1.5]", &list_int,
              "ERR: configuration variable 'k': invalid JSON value \"[1.5]\": [0]: cannot "
              "convert 1.5 to int: not an integer");
  CHECK_PARSE("[null, \"hello\", null]", &list_opt_string, "[null,\"hello\",null]");
  CHECK_PARSE("{\"a\": 1.5, \"b\": 2}", &map_number, "{\"a\":1.5,\"b\":2}");
  CHECK_PARSE("[1]", &map_number,
              "ERR: configuration variable 'k': invalid JSON value \"[1]\": cannot convert list "
              "to map: a map is required");
  /* Numbers inside JSON are doubles too; ints keep their digits. */
  CHECK_PARSE("{\"a\": 123456789012345678901234567890}", &map_number,
              "{\"a\":123456789012345680000000000000}");
  CHECK_PARSE("[\"12345678901234567890123456789\"]", &list_int,
              "[12345678901234567890123456789]");
  CHECK_PARSE("{\"n\": 1, \"s\": 2, \"extra\": true}", &obj,
              "{\"extra\":true,\"n\":1,\"s\":\"2\"}");
  CHECK_PARSE("{\"s\": \"only\"}", &obj, "{\"s\":\"only\"}");
  char *bad = parse("{oops", &obj);
  const char *want = "ERR: configuration variable 'k': invalid JSON value \"{oops\": ";
  CU_ASSERT_NSTRING_EQUAL(bad, want, strlen(want));
  free(bad);
}

static const pcl_config_decl cfg_decls[] = {
    {"plain", &pcl_type_string, NULL, false, false, false, "cfg.pp", 1, 1},
    {"maybe", &pcl_type_int, NULL, false, true, false, "cfg.pp", 2, 1},
    {"hidden", &pcl_type_number, NULL, false, false, true, "cfg.pp", 3, 1},
    {"computed", &pcl_type_string, NULL, true, false, false, "cfg.pp", 4, 1},
    {"nums", &list_int, NULL, false, true, false, "cfg.pp", 5, 1},
};

static void cfg_start(pcl_run *run) {
  static const char *const names[] = {"plain", "maybe", "hidden", "computed", "nums"};
  for (size_t i = 0; i < 5; i++) {
    pcl_value *v = pcl_run_config(run, i);
    if (v == NULL) {
      v = pcl_str_from_cstr("<default expression>");
    }
    pcl_export(run, names[i], v);
    pcl_release(v);
  }
}

static const pcl_program cfg_prog = {"cfg", cfg_decls, 5, cfg_start};

static void test_program_config(void) {
  rc_write("cfg-file.json", "{\"cfg:plain\": \"from file\", \"cfg:hidden\": {\"value\": \"2.5\", "
                            "\"secret\": true}, \"cfg:nums\": [1, 2]}");
  rc_result r = rc_run(&cfg_prog, "--config-file", "cfg-file.json", "--show-secrets", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_STRING_EQUAL(r.out, "{\n"
                                "  \"computed\": \"<default expression>\",\n"
                                "  \"hidden\": {\n"
                                "    \"secret\": 2.5\n"
                                "  },\n"
                                "  \"maybe\": null,\n"
                                "  \"nums\": [\n"
                                "    1,\n"
                                "    2\n"
                                "  ],\n"
                                "  \"plain\": \"from file\"\n"
                                "}\n");
  rc_free(&r);
  /* A declared-secret config is secret even when given in clear, and its
   * text does not show in an error. */
  r = rc_run(&cfg_prog, "--config", "plain=p", "--config", "cfg:hidden=1", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"hidden\": \"[secret]\""));
  rc_free(&r);
  r = rc_run(&cfg_prog, "--config", "plain=p", "--config", "hidden=x", NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CU_ASSERT_STRING_EQUAL(r.err, "cfg.pp:3:1: error: configuration variable 'hidden': cannot "
                                "convert [secret] to number: a number is required\n");
  rc_free(&r);
  r = rc_run(&cfg_prog, "--config-file", "no-such-file.json", NULL);
  CU_ASSERT_EQUAL(r.status, 2);
  CU_ASSERT_STRING_EQUAL(r.err, "error: no-such-file.json: No such file or directory\n");
  rc_free(&r);
  remove("cfg-file.json");
}

/* pulumi { requiredVersionRange }: the range the next run checks, and
 * whether it is given through a future. */
static const char *version_range;
static bool version_eventual;

static const pcl_resource_decl version_decl = {"simple:index:Resource", PCL_RES_CUSTOM, "2.0.0",
                                               NULL, NULL, 0, 0};

static void version_start(pcl_run *run) {
  pcl_value *range = pcl_str_from_cstr(version_range);
  pcl_future *rf = NULL;
  if (version_eventual) {
    rf = pcl_future_resolved(PCL_OUTPUT, range, 0, NULL);
    pcl_release(range);
    range = pcl_future_to_value(rf);
  }
  pcl_future *check = pcl_require_pulumi_version(run, range);
  pcl_value *in = pcl_map_of(NULL, NULL, 0);
  pcl_future *r = pcl_register_resource(run, &version_decl, "r", in, NULL);
  pcl_release(in);
  pcl_release(range);
  pcl_future_release(rf);
  pcl_future_release(check);
  pcl_future_release(r);
}

static const pcl_program version_prog = {"version", NULL, 0, version_start};

/* Runs version_prog with range; returns the status and checks that a
 * failing check registered nothing (with a known range). */
static int run_version(const char *range, bool eventual, const char *want_err) {
  version_range = range;
  version_eventual = eventual;
  rc_result r = rc_run(&version_prog, "--snapshot", "version-snap.json", NULL);
  if (want_err) {
    char want[256];
    snprintf(want, sizeof want, "error: %s\n", want_err);
    CU_ASSERT_STRING_EQUAL(r.err, want);
    char *snap = rc_slurp("version-snap.json");
    if (!eventual) {
      CU_ASSERT(snap && strstr(snap, "simple:index:Resource::r") == NULL);
    }
    free(snap);
  } else {
    CU_ASSERT_STRING_EQUAL(r.err, "");
  }
  remove("version-snap.json");
  int status = r.status;
  rc_free(&r);
  return status;
}

static void test_required_version(void) {
  static const char *const ok[] = {
      ">=3.0.0",  ">=3.100.0 <4.0.0",   "3.x",        "=3.200.0",    "<3.0.0 || >=3.200.0",
      "> 3.199.9", "3.200.x",           "!=3.199.0",  "x",           "<=3.x",
      ">=3.200.0-alpha.1", "==3.200.0+build.5", ">3.200.0-rc.1", "<4",
  };
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
    if (strcmp(ok[i], "<4") == 0) {
      /* A partial version is not a version. */
      CU_ASSERT_EQUAL(run_version(ok[i], false,
                                  "failed to parse required version range \"<4\""), 1);
      continue;
    }
    CU_ASSERT_EQUAL(run_version(ok[i], false, NULL), 0);
  }
  static const char *const bad[] = {">=4.0.0", "<3.200.0", "2.x", "!=3.200.0",
                                    ">3.x",     "=3.200.1", "<3.200.0-rc.1 || >=4.0.0"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char want[256];
    snprintf(want, sizeof want,
             "Pulumi CLI version 3.200.0 does not satisfy the version range \"%s\"", bad[i]);
    CU_ASSERT_EQUAL(run_version(bad[i], false, want), 1);
  }
  CU_ASSERT_EQUAL(run_version("", false, "failed to parse required version range \"\""), 1);
  CU_ASSERT_EQUAL(run_version(">=3.0.0 ||", false,
                              "failed to parse required version range \">=3.0.0 ||\""), 1);
  CU_ASSERT_EQUAL(run_version("abc", false, "failed to parse required version range \"abc\""),
                  1);
  /* A range computed later (a config value, say) is checked once known. */
  CU_ASSERT_EQUAL(run_version(">=3.0.0", true, NULL), 0);
  CU_ASSERT_EQUAL(run_version(">=4.0.0", true,
                              "Pulumi CLI version 3.200.0 does not satisfy the version range "
                              "\">=4.0.0\""), 1);
}

void register_config_tests(void);
void register_config_tests(void) {
  CU_pSuite s = CU_add_suite("config", NULL, NULL);
  CU_add_test(s, "scalar types", test_scalars);
  CU_add_test(s, "dynamic values", test_any);
  CU_add_test(s, "collections from JSON", test_collections);
  CU_add_test(s, "declared config in a program", test_program_config);
  CU_add_test(s, "pulumi { requiredVersionRange }", test_required_version);
}
