/* Unit tests of the diag module's printing: the excerpt of a short line, the
 * window shown of a very long line (with "..." on each cut side, code points
 * and not bytes counted), a span at a byte-order mark (found by fuzz_schema:
 * the caret offset went below the line's start), and warnings of one cause
 * printed once with their count at the first in list order, and the text a
 * message quotes shortened as the excerpt is. */
#include <CUnit/CUnit.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"

/* Asserts that two strings are equal, printing the actual one otherwise. */
#define EXPECT_STR(actual, expected)                                                               \
  do {                                                                                             \
    const char *got_ = (actual);                                                                   \
    if (strcmp(got_, (expected)) != 0)                                                             \
      fprintf(stderr, "\n%s:%d: got:\n%s\n", __FILE__, __LINE__, got_);                            \
    CU_ASSERT_STRING_EQUAL(got_, (expected));                                                      \
  } while (0)

/* Prints d into a memory buffer and returns the text (caller frees). */
static char *print_to_string(diag_list *d) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  CU_ASSERT_FATAL(f != NULL);
  diag_print(d, f);
  fclose(f);
  return buf;
}

static void test_short_line(void) {
  src_set src;
  src_init(&src);
  diag_list d;
  diag_init(&d, &src);
  uint32_t id = src_add(&src, "a.pp", "x = y + 1\n", 10);
  diag_error(&d, (pcl_span){id, 4, 9}, "bad");
  char *text = print_to_string(&d);
  EXPECT_STR(text, "a.pp:1:5: error: bad\n"
                   "x = y + 1\n"
                   "    ^~~~~\n");
  free(text);
  diag_free(&d);
  src_free(&src);
}

/* A line of n code points: "é" (two bytes) repeated, with the ASCII text
 * mark at code point at. */
static char *long_line(size_t n, size_t at, const char *mark) {
  char *s = malloc(2 * n + strlen(mark) + 2);
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (i == at) {
      memcpy(s + k, mark, strlen(mark));
      k += strlen(mark);
      i += strlen(mark) - 1;
      continue;
    }
    s[k++] = '\xC3';
    s[k++] = '\xA9';
  }
  s[k++] = '\n';
  s[k] = 0;
  return s;
}

static void test_long_line_window(void) {
  src_set src;
  src_init(&src);
  diag_list d;
  diag_init(&d, &src);
  /* 1000 code points with "BAD" at code point 500, byte 1000. */
  char *line = long_line(1000, 500, "BAD");
  uint32_t id = src_add(&src, "long.pp", line, strlen(line));
  diag_error(&d, (pcl_span){id, 1000, 1003}, "here");
  char *text = print_to_string(&d);
  /* 80 code points from code point 480: 20 before the caret. */
  char expect[1024];
  size_t k = (size_t)snprintf(expect, sizeof expect, "long.pp:1:501: error: here\n...");
  for (int i = 0; i < 20; i++)
    k += (size_t)snprintf(expect + k, sizeof expect - k, "\xC3\xA9");
  k += (size_t)snprintf(expect + k, sizeof expect - k, "BAD");
  for (int i = 0; i < 57; i++)
    k += (size_t)snprintf(expect + k, sizeof expect - k, "\xC3\xA9");
  k += (size_t)snprintf(expect + k, sizeof expect - k, "...\n%23s^~~\n", "");
  EXPECT_STR(text, expect);
  free(text);
  diag_free(&d);

  /* A caret near the end: the window is the last 80 code points. */
  diag_init(&d, &src);
  diag_error(&d, (pcl_span){id, 1995, 1997}, "end");
  text = print_to_string(&d);
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "\n..."));
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "\xC3\xA9\n"));
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "\n" "   " "                                                  "
                                      "                          " "   ^\n"));
  free(text);
  diag_free(&d);

  /* A caret near the start: only the right side is cut. */
  diag_init(&d, &src);
  diag_error(&d, (pcl_span){id, 0, 2}, "start");
  text = print_to_string(&d);
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "error: start\n\xC3\xA9"));
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "...\n^\n"));
  free(text);
  diag_free(&d);
  free(line);
  src_free(&src);
}

static void test_byte_order_mark(void) {
  src_set src;
  src_init(&src);
  diag_list d;
  diag_init(&d, &src);
  const char *text0 = "\xEF\xBB\xBF \"name\": 1\n";
  uint32_t id = src_add(&src, "s.json", text0, strlen(text0));
  /* A span at offset 0 lies inside the mark, before line 1's first byte. */
  diag_error(&d, (pcl_span){id, 0, 0}, "invalid JSON");
  char *text = print_to_string(&d);
  EXPECT_STR(text, "s.json:1:1: error: invalid JSON\n"
                   " \"name\": 1\n"
                   "^\n");
  free(text);
  diag_free(&d);
  src_free(&src);
}

static void test_warning_once(void) {
  src_set src;
  src_init(&src);
  diag_list d;
  diag_init(&d, &src);
  uint32_t id = src_add(&src, "w.pp", "a\nb\nc\n", 6);
  diag_warning_once(&d, "unknown package x", (pcl_span){id, 0, 1}, "unknown package 'x'");
  diag_warning_once(&d, "unknown package y", (pcl_span){id, 2, 3}, "unknown package 'y'");
  diag_warning_once(&d, "unknown package x", (pcl_span){id, 4, 5}, "unknown package 'x'");
  CU_ASSERT_EQUAL(d.warnings, 3);
  char *text = print_to_string(&d);
  EXPECT_STR(text, "w.pp:1:1: warning: unknown package 'x' (2 times)\n"
                   "a\n"
                   "^\n"
                   "w.pp:2:1: warning: unknown package 'y'\n"
                   "b\n"
                   "^\n");
  free(text);
  diag_free(&d);
  src_free(&src);
}

/* Returns diag_vformat's text of fmt (arena copy). */
static const char *format(arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static const char *format(arena *a, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *text = diag_vformat(fmt, ap);
  va_end(ap);
  const char *r = arena_strdup(a, text);
  free(text);
  return r;
}

/* A message quotes at most DIAG_QUOTE_WIDTH code points of a string
 * argument, then "..."; the other conversions print as printf does, and
 * the format "%s" passes a message built beforehand through whole. */
static void test_quoted_text(void) {
  arena a;
  arena_init(&a);
  char name[301];
  memset(name, 'n', 300);
  name[300] = 0;
  const char *cut = arena_printf(&a, "%.80s...", name);
  CU_ASSERT_STRING_EQUAL(format(&a, "undefined variable %s", name),
                         arena_printf(&a, "undefined variable %s", cut));
  CU_ASSERT_STRING_EQUAL(format(&a, "'%s' and '%.*s'", "short", 3, "abcdef"), "'short' and 'abc'");
  CU_ASSERT_STRING_EQUAL(format(&a, "%s", name), name);
  CU_ASSERT_STRING_EQUAL(format(&a, "%zu %d %u %c %04x %X %.17g %g %ld %lld %%", (size_t)7, -3,
                                4u, 'q', 255u, 171u, 0.5, 2.5, -9L, 10LL),
                         "7 -3 4 q 00ff AB 0.5 2.5 -9 10 %");
  /* Code points, not bytes: 81 two-byte characters keep 80. */
  char wide[163];
  for (size_t i = 0; i < 81; i++)
    memcpy(wide + 2 * i, "\xc3\xa9", 2);
  wide[162] = 0;
  CU_ASSERT_STRING_EQUAL(format(&a, "[%s]", wide), arena_printf(&a, "[%.160s...]", wide));
  CU_ASSERT_STRING_EQUAL(diag_clip(&a, wide), arena_printf(&a, "%.160s...", wide));
  const char *shorter = "short";
  CU_ASSERT_PTR_EQUAL(diag_clip(&a, shorter), shorter);
  arena_free(&a);
}

void register_diag_tests(void);
void register_diag_tests(void) {
  CU_pSuite s = CU_add_suite("diag", NULL, NULL);
  CU_add_test(s, "short line", test_short_line);
  CU_add_test(s, "long line window", test_long_line_window);
  CU_add_test(s, "byte-order mark", test_byte_order_mark);
  CU_add_test(s, "warning once with a count", test_warning_once);
  CU_add_test(s, "quoted text shortened", test_quoted_text);
}
