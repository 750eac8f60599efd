/* Unit tests of the lazy JSON index (jscan) and of the schema folder listing
 * and version choice (schema_files): what is recorded, where problems are,
 * and which file a lookup picks. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "schema/jscan.h"
#include "schema/schema_files.h"
#include "base/util.h"
#include "small_stack.h"

/* An arena and intern table for one test. */
typedef struct fixture {
  arena arena;
  intern_table names;
} fixture;

static void open_fixture(fixture *f) {
  arena_init(&f->arena);
  intern_init(&f->names, &f->arena);
}

static void close_fixture(fixture *f) {
  intern_free(&f->names);
  arena_free(&f->arena);
}

/* Scans text with the sections "a" and "b"; returns the result. */
static bool scan(fixture *f, const char *text, jscan_members *top, jscan_members *a,
                 jscan_members *b, bool *object, jscan_error *err) {
  static const char *const names[] = {"a", "b"};
  jscan_members *const sections[] = {a, b};
  memset(top, 0, sizeof *top);
  memset(a, 0, sizeof *a);
  memset(b, 0, sizeof *b);
  return jscan_index(text, strlen(text), &f->names, top, 2, names, sections, object, err);
}

static void free_all(jscan_members *top, jscan_members *a, jscan_members *b) {
  jscan_members_free(top);
  jscan_members_free(a);
  jscan_members_free(b);
}

/* The top level and the two sections are recorded with exact byte ranges;
   a member of another object, and a section that is not an object, are not. */
static void test_index(void) {
  fixture f;
  open_fixture(&f);
  const char *text = "{\"a\": {\"x\": [1, 2], \"y\": \"s\\\"\"}, \"b\": 3, \"c\": {\"z\": null},"
                     " \"k\\u0065y\": true, \"a2\": {}}";
  jscan_members top, a, b;
  bool object;
  jscan_error err;
  CU_ASSERT_FATAL(scan(&f, text, &top, &a, &b, &object, &err));
  CU_ASSERT(object);
  CU_ASSERT_EQUAL(top.count, 5);
  CU_ASSERT_EQUAL(a.count, 2);
  CU_ASSERT_EQUAL(b.count, 0);
  jscan_member *x = jscan_find(&a, intern(&f.names, "x"));
  CU_ASSERT_FATAL(x != NULL);
  CU_ASSERT_EQUAL(x->kind, '[');
  CU_ASSERT_EQUAL(strncmp(text + x->start, "[1, 2]", x->end - x->start), 0);
  CU_ASSERT_EQUAL(x->end - x->start, 6);
  jscan_member *y = jscan_find(&a, intern(&f.names, "y"));
  CU_ASSERT_FATAL(y != NULL);
  CU_ASSERT_EQUAL(y->end - y->start, 5);
  /* An escaped key is decoded. */
  CU_ASSERT_PTR_NOT_NULL(jscan_find(&top, intern(&f.names, "key")));
  CU_ASSERT_PTR_NULL(jscan_find(&top, intern(&f.names, "z")));
  free_all(&top, &a, &b);
  /* A later duplicate key replaces the earlier one. */
  CU_ASSERT_FATAL(scan(&f, "{\"b\": 1, \"b\": [true]}", &top, &a, &b, &object, &err));
  CU_ASSERT_EQUAL(top.count, 1);
  CU_ASSERT_EQUAL(jscan_find(&top, intern(&f.names, "b"))->kind, '[');
  free_all(&top, &a, &b);
  /* Any JSON value scans; only an object is indexed. */
  CU_ASSERT_FATAL(scan(&f, " [1, {\"a\": 2}] ", &top, &a, &b, &object, &err));
  CU_ASSERT(!object);
  CU_ASSERT_EQUAL(top.count, 0);
  free_all(&top, &a, &b);
  close_fixture(&f);
}

/* Expects the scan of text to fail at offset at with msg. */
static void expect_error(fixture *f, const char *text, size_t at, const char *msg, bool show) {
  jscan_members top, a, b;
  bool object;
  jscan_error err;
  CU_ASSERT(!scan(f, text, &top, &a, &b, &object, &err));
  CU_ASSERT_EQUAL(err.at, at);
  CU_ASSERT_STRING_EQUAL(err.msg, msg);
  CU_ASSERT_EQUAL(err.show_char, show);
  free_all(&top, &a, &b);
}

static void test_errors(void) {
  fixture f;
  open_fixture(&f);
  expect_error(&f, "{\"a\": 1,}", 8, "expected a string key", false);
  expect_error(&f, "{\"a\" 1}", 5, "expected ':'", false);
  expect_error(&f, "{\"a\": 01}", 7, "expected ',' or '}'", false);
  expect_error(&f, "[1 2]", 3, "expected ',' or ']'", false);
  expect_error(&f, "{\"a\": tru}", 6, "unexpected character", true);
  expect_error(&f, "\"ab", 0, "unterminated string", false);
  expect_error(&f, "\"a\\qb\"", 2, "invalid escape in string", false);
  expect_error(&f, "\"\\u12g4\"", 1, "invalid \\u escape in string", false);
  expect_error(&f, "\"a\nb\"", 2, "control character in string", false);
  expect_error(&f, "-", 0, "invalid number", false);
  expect_error(&f, "1.e5", 0, "invalid number", false);
  expect_error(&f, "{} {}", 3, "end of file expected", false);
  expect_error(&f, "", 0, "unexpected end of file", false);
  /* Nesting is limited to JSCAN_MAX_DEPTH levels. */
  size_t n = JSCAN_MAX_DEPTH + 1;
  char *deep = xmalloc(2 * n + 1);
  memset(deep, '[', n);
  memset(deep + n, ']', n);
  deep[2 * n] = '\0';
  expect_error(&f, deep, JSCAN_MAX_DEPTH, "nesting too deep", false);
  deep[2 * n - 1] = '\0';
  deep[0] = ' ';
  jscan_members top, a, b;
  bool object;
  jscan_error err;
  CU_ASSERT(scan(&f, deep, &top, &a, &b, &object, &err));
  free_all(&top, &a, &b);
  free(deep);
  close_fixture(&f);
}

/* The scanner reads files from outside, so it walks them without
   recursion, on whatever stack it is given: JSCAN_MAX_DEPTH nested arrays
   in a section scan on a thread of 64 KiB (a recursive scanner would need
   some hundred bytes a level, which ASan makes more).  No assertion here is
   fatal: a fatal one would leave the thread through the runner's longjmp. */
static void deep_json(void) {
  fixture f;
  open_fixture(&f);
  size_t n = JSCAN_MAX_DEPTH - 1;
  char *text = xmalloc(2 * n + 16);
  memcpy(text, "{\"a\": ", 6);
  memset(text + 6, '[', n);
  memset(text + 6 + n, ']', n);
  memcpy(text + 6 + 2 * n, "}", 2);
  jscan_members top, a, b;
  bool object;
  jscan_error err;
  CU_ASSERT(scan(&f, text, &top, &a, &b, &object, &err));
  CU_ASSERT_EQUAL(top.count, 1);
  free_all(&top, &a, &b);
  free(text);
  close_fixture(&f);
}

static void test_deep_json(void) {
  on_small_stack(64 * 1024, deep_json);
}

/* Creates an empty file dir/name. */
static void touch(const char *dir, const char *name) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *fp = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
  fclose(fp);
}

static void test_files(void) {
  fixture f;
  open_fixture(&f);
  char dir[] = "/tmp/pclc-jscan-XXXXXX";
  CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
  static const char *const names[] = {"pkg-1.2.0.json", "pkg-1.10.0.json", "pkg-2.0.0-rc.1.json",
                                      "pkg.json",       "my-pkg-03.0.0.json", "other.json",
                                      ".hidden.json",   "notes.txt"};
  for (size_t i = 0; i < ARRAY_LEN(names); i++)
    touch(dir, names[i]);
  schema_files sf;
  schema_files_init(&sf, &f.arena, &f.names);
  const char *err;
  CU_ASSERT_FATAL(schema_files_add_dir(&sf, dir, &err));
  /* Six files of three packages (dot files and other names left out),
     each package's files chained in sorted order. */
  const char *pkg = intern(&f.names, "pkg");
  static const char *const pkg_versions[] = {"1.10.0", "1.2.0", "2.0.0-rc.1", NULL};
  size_t npkg = 0;
  for (const schema_file *e = ptrmap_get(&sf.first, pkg); e; e = e->next, npkg++) {
    CU_ASSERT_FATAL(npkg < ARRAY_LEN(pkg_versions));
    if (pkg_versions[npkg]) {
      CU_ASSERT_STRING_EQUAL(e->version, pkg_versions[npkg]);
    } else {
      CU_ASSERT_PTR_NULL(e->version);
    }
  }
  CU_ASSERT_EQUAL(npkg, 4);
  const schema_file *one = ptrmap_get(&sf.first, intern(&f.names, "other"));
  CU_ASSERT(one != NULL && one->next == NULL);
  bool fallback;
  /* The highest version when none is asked for. */
  const schema_file *pick = schema_files_choose(&sf, pkg, NULL, &fallback);
  CU_ASSERT_FATAL(pick != NULL);
  CU_ASSERT_STRING_EQUAL(pick->version, "2.0.0-rc.1");
  CU_ASSERT(!fallback);
  /* The exact version, compared by precedence. */
  pick = schema_files_choose(&sf, pkg, "v1.10.0", &fallback);
  CU_ASSERT_STRING_EQUAL(pick->version, "1.10.0");
  CU_ASSERT(!fallback);
  /* A version without a file: the file without a version. */
  pick = schema_files_choose(&sf, pkg, "9.0.0", &fallback);
  CU_ASSERT_PTR_NULL(pick->version);
  CU_ASSERT(!fallback);
  /* A dash followed by a version splits the name at that dash only. */
  const char *mine = intern(&f.names, "my-pkg");
  pick = schema_files_choose(&sf, mine, "4.0.0", &fallback);
  CU_ASSERT_STRING_EQUAL(pick->version, "03.0.0");
  CU_ASSERT(fallback);
  CU_ASSERT_PTR_NULL(schema_files_choose(&sf, intern(&f.names, "none"), NULL, &fallback));
  /* The last pin wins. */
  CU_ASSERT_PTR_NULL(schema_files_pinned(&sf, pkg));
  schema_files_pin(&sf, "pkg", "1.2.0");
  schema_files_pin(&sf, "other", "0.1.0");
  schema_files_pin(&sf, "pkg", "1.10.0");
  CU_ASSERT_STRING_EQUAL(schema_files_pinned(&sf, pkg), "1.10.0");
  CU_ASSERT(!schema_files_add_dir(&sf, "/nonexistent/schemas", &err));
  CU_ASSERT_STRING_EQUAL(err, "No such file or directory");
  schema_files_free(&sf);
  for (size_t i = 0; i < ARRAY_LEN(names); i++) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    unlink(path);
  }
  rmdir(dir);
  close_fixture(&f);
}

void register_jscan_tests(void);
void register_jscan_tests(void) {
  CU_pSuite s = CU_add_suite("jscan", NULL, NULL);
  CU_add_test(s, "index", test_index);
  CU_add_test(s, "errors", test_errors);
  CU_add_test(s, "nesting on a small stack", test_deep_json);
  CU_add_test(s, "schema files", test_files);
}
