/* Unit tests of the depfile module: the exact text of a dependency file
 * (target rule, one phony rule per prerequisite, first-read order, no
 * duplicates), Make escaping of awkward file names, the refusal of names
 * with newlines, the `-MD` file name derived from the output, and writing
 * to a file (including an unwritable path, and a failure that keeps the
 * previous file). */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/depfile.h"

/* Asserts that two strings are equal, printing the actual one otherwise. */
#define EXPECT_STR(actual, expected)                                                               \
  do {                                                                                             \
    const char *got_ = (actual);                                                                   \
    if (strcmp(got_, (expected)) != 0)                                                             \
      fprintf(stderr, "\n%s:%d: got:\n%s\n", __FILE__, __LINE__, got_);                            \
    CU_ASSERT_STRING_EQUAL(got_, (expected));                                                      \
  } while (0)

/* Runs depfile_print into a memory buffer; returns the text (caller frees)
 * and sets *ok to the result. */
static char *print_to_string(const char *target, const src_set *src, const char *const *extra,
                             size_t nextra, bool *ok, const char **err) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  CU_ASSERT_FATAL(f != NULL);
  *ok = depfile_print(f, target, src, extra, nextra, err);
  fclose(f);
  return buf;
}

static void test_rules(void) {
  src_set src;
  src_init(&src);
  src_add(&src, "prog/a.pp", "", 0);
  src_add(&src, "prog/b.pp", "", 0);
  src_add(&src, "schemas/aws-6.0.0.json", "{}", 2);
  src_add(&src, "prog/a.pp", "", 0);
  const char *extra[] = {"schemas/aws-6.0.0.json", "data/list.txt"};
  bool ok = false;
  const char *err = NULL;
  char *text = print_to_string("out/main.c", &src, extra, 2, &ok, &err);
  CU_ASSERT_TRUE(ok);
  EXPECT_STR(text, "out/main.c: \\\n"
                   "  prog/a.pp \\\n"
                   "  prog/b.pp \\\n"
                   "  schemas/aws-6.0.0.json \\\n"
                   "  data/list.txt\n"
                   "\n"
                   "prog/a.pp:\n"
                   "\n"
                   "prog/b.pp:\n"
                   "\n"
                   "schemas/aws-6.0.0.json:\n"
                   "\n"
                   "data/list.txt:\n");
  free(text);
  src_free(&src);
}

static void test_no_prerequisites(void) {
  src_set src;
  src_init(&src);
  bool ok = false;
  const char *err = NULL;
  char *text = print_to_string("main.c", &src, NULL, 0, &ok, &err);
  CU_ASSERT_TRUE(ok);
  EXPECT_STR(text, "main.c:\n");
  free(text);
  src_free(&src);
}

static void test_escaping(void) {
  src_set src;
  src_init(&src);
  src_add(&src, "my dir/main.pp", "", 0);
  src_add(&src, "cost$1#x:y.pp", "", 0);
  src_add(&src, "back\\slash\\\\ space.pp", "", 0);
  src_add(&src, "tab\there.pp", "", 0);
  bool ok = false;
  const char *err = NULL;
  char *text = print_to_string("out dir/main.c", &src, NULL, 0, &ok, &err);
  CU_ASSERT_TRUE(ok);
  EXPECT_STR(text, "out\\ dir/main.c: \\\n"
                   "  my\\ dir/main.pp \\\n"
                   "  cost$$1\\#x\\:y.pp \\\n"
                   "  back\\slash\\\\\\\\\\ space.pp \\\n"
                   "  tab\\\there.pp\n"
                   "\n"
                   "my\\ dir/main.pp:\n"
                   "\n"
                   "cost$$1\\#x\\:y.pp:\n"
                   "\n"
                   "back\\slash\\\\\\\\\\ space.pp:\n"
                   "\n"
                   "tab\\\there.pp:\n");
  free(text);
  src_free(&src);
}

static void test_newline_refused(void) {
  src_set src;
  src_init(&src);
  src_add(&src, "ok.pp", "", 0);
  src_add(&src, "bad\nname.pp", "", 0);
  bool ok = true;
  const char *err = NULL;
  char *text = print_to_string("main.c", &src, NULL, 0, &ok, &err);
  CU_ASSERT_FALSE(ok);
  CU_ASSERT_PTR_NOT_NULL(err);
  EXPECT_STR(text, "");
  free(text);

  ok = true;
  err = NULL;
  text = print_to_string("main\n.c", &src, NULL, 0, &ok, &err);
  CU_ASSERT_FALSE(ok);
  CU_ASSERT_PTR_NOT_NULL(err);
  EXPECT_STR(text, "");
  free(text);

  const char *extra[] = {"bad\n.json"};
  src_free(&src);
  src_init(&src);
  ok = true;
  err = NULL;
  text = print_to_string("main.c", &src, extra, 1, &ok, &err);
  CU_ASSERT_FALSE(ok);
  EXPECT_STR(text, "");
  free(text);
  src_free(&src);
}

static void test_default_path(void) {
  static const struct {
    const char *output, *want;
  } cases[] = {
      {"main.c", "main.d"},           {"out/main.c", "out/main.d"}, {"prog", "prog.d"},
      {"main.cc", "main.cc.d"},       {"dir.c/x", "dir.c/x.d"},     {".c", ".c.d"},
      {"out/.c", "out/.c.d"},         {"a.c.c", "a.c.d"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char *got = depfile_default_path(cases[i].output);
    EXPECT_STR(got, cases[i].want);
    free(got);
  }
}

static void test_write_file(void) {
  char dir[] = "/tmp/pclc-depfile-XXXXXX";
  CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
  char path[64];
  snprintf(path, sizeof path, "%s/main.d", dir);
  src_set src;
  src_init(&src);
  src_add(&src, "main.pp", "", 0);
  const char *err = NULL;
  CU_ASSERT_TRUE(depfile_write(path, "main.c", &src, NULL, 0, &err));
  FILE *f = fopen(path, "r");
  CU_ASSERT_FATAL(f != NULL);
  char buf[128] = {0};
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = 0;
  EXPECT_STR(buf, "main.c: \\\n  main.pp\n\nmain.pp:\n");

  /* A newline in a name is refused and leaves the previous file as it
     was, with no temporary file beside it. */
  src_add(&src, "x\ny.pp", "", 0);
  err = NULL;
  CU_ASSERT_FALSE(depfile_write(path, "main.c", &src, NULL, 0, &err));
  CU_ASSERT_PTR_NOT_NULL(err);
  f = fopen(path, "r");
  CU_ASSERT_FATAL(f != NULL);
  n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = 0;
  EXPECT_STR(buf, "main.c: \\\n  main.pp\n\nmain.pp:\n");
  CU_ASSERT_EQUAL(remove(path), 0);

  /* A missing directory is an I/O error with a message. */
  char missing[96];
  snprintf(missing, sizeof missing, "%s/no/such/dir/main.d", dir);
  err = NULL;
  CU_ASSERT_FALSE(depfile_write(missing, "main.c", &src, NULL, 0, &err));
  CU_ASSERT_PTR_NOT_NULL(err);
  src_free(&src);
  CU_ASSERT_EQUAL(rmdir(dir), 0);
}

void register_depfile_tests(void);
void register_depfile_tests(void) {
  CU_pSuite s = CU_add_suite("depfile", NULL, NULL);
  CU_add_test(s, "rules, order and duplicates", test_rules);
  CU_add_test(s, "no prerequisites", test_no_prerequisites);
  CU_add_test(s, "escaping", test_escaping);
  CU_add_test(s, "newlines refused", test_newline_refused);
  CU_add_test(s, "default path", test_default_path);
  CU_add_test(s, "writing a file", test_write_file);
}
