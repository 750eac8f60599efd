/* Unit tests of common/'s byte buffer, formatter and array growth
 * (common/buf.c, common/mem.c): appends keep the bytes and the terminating
 * NUL, printf output longer than any first allocation is formatted whole,
 * an array grows by doubling, and a size whose byte count would not fit a
 * size_t ends the program through pcl__out_of_memory (pclc's: "out of
 * memory", status 2) instead of wrapping.  Those last run in a child
 * process, which is what the hook ends. */
#include <CUnit/CUnit.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "buf.h"
#include "mem.h"

static void test_append(void) {
  pcl__buf b = PCL__BUF_INIT;
  CU_ASSERT_PTR_NULL(b.data);
  pcl__buf_puts(&b, "key");
  pcl__buf_putc(&b, '=');
  pcl__buf_append(&b, "value\0tail", 10); /* Bytes, NUL included, as they are. */
  pcl__buf_append(&b, NULL, 0);
  CU_ASSERT_EQUAL(b.len, 14);
  CU_ASSERT_EQUAL(memcmp(b.data, "key=value\0tail", 15), 0); /* And a NUL after them. */
  CU_ASSERT_TRUE(b.cap > b.len);
  /* Reserving keeps the bytes and makes room for more plus the NUL. */
  char *data = pcl__buf_reserve(&b, 1000);
  CU_ASSERT_PTR_EQUAL(data, b.data);
  CU_ASSERT_TRUE(b.cap >= b.len + 1000 + 1);
  CU_ASSERT_EQUAL(memcmp(b.data, "key=value\0tail", 15), 0);
  pcl__buf_free(&b);
  CU_ASSERT_PTR_NULL(b.data);
  CU_ASSERT_EQUAL(b.len, 0);
  CU_ASSERT_EQUAL(b.cap, 0);
}

static void test_take(void) {
  pcl__buf b = PCL__BUF_INIT;
  char *empty = pcl__buf_take(&b); /* Never NULL, even for nothing. */
  CU_ASSERT_STRING_EQUAL(empty, "");
  free(empty);
  pcl__buf_puts(&b, "abc");
  char *s = pcl__buf_take(&b);
  CU_ASSERT_STRING_EQUAL(s, "abc");
  CU_ASSERT_PTR_NULL(b.data);
  CU_ASSERT_EQUAL(b.len, 0);
  free(s);
}

/* Text far longer than the first allocation, after text already there and
 * written from several arguments, is formatted whole, once grown. */
static void test_printf_long(void) {
  enum { LONG = 100000 };
  char *word = malloc(LONG + 1);
  memset(word, 'x', LONG);
  word[LONG] = '\0';
  pcl__buf b = PCL__BUF_INIT;
  pcl__buf_puts(&b, "<");
  pcl__buf_printf(&b, "%s|%d|%*d", word, -42, 300, 7);
  CU_ASSERT_EQUAL(b.len, 1 + LONG + 5 + 300); /* "<", the word, "|-42|", the padded 7. */
  CU_ASSERT_EQUAL(b.data[0], '<');
  CU_ASSERT_EQUAL(memcmp(b.data + 1, word, LONG), 0);
  CU_ASSERT_EQUAL(memcmp(b.data + 1 + LONG, "|-42|", 5), 0);
  CU_ASSERT_EQUAL(b.data[b.len - 1], '7');
  CU_ASSERT_EQUAL(b.data[b.len - 2], ' ');
  CU_ASSERT_EQUAL(b.data[b.len], '\0');
  /* Short text after it lands in the free space. */
  pcl__buf_printf(&b, "%s", "!");
  CU_ASSERT_STRING_EQUAL(b.data + b.len - 2, "7!");
  pcl__buf_free(&b);
  char *s = pcl__format("%s%s", word, "end");
  CU_ASSERT_EQUAL(strlen(s), LONG + 3);
  CU_ASSERT_STRING_EQUAL(s + LONG, "end");
  free(s);
  char *e = pcl__format("%s", "");
  CU_ASSERT_STRING_EQUAL(e, "");
  free(e);
  free(word);
}

static void test_grow(void) {
  int *items = NULL;
  size_t n = 0, cap = 0;
  for (int i = 0; i < 1000; i++) {
    PCL__GROW(items, cap, n + 1);
    items[n++] = i;
  }
  /* Doubling from 8: 1000 elements fit in 1024. */
  CU_ASSERT_EQUAL(cap, 1024);
  for (size_t i = 0; i < n; i++)
    CU_ASSERT_EQUAL_FATAL(items[i], (int)i);
  /* A need within the capacity does nothing; a larger one than twice the
     capacity is met at once. */
  int *before = items;
  PCL__GROW(items, cap, 10);
  CU_ASSERT_PTR_EQUAL(items, before);
  CU_ASSERT_EQUAL(cap, 1024);
  PCL__GROW(items, cap, 5000);
  CU_ASSERT_EQUAL(cap, 8192);
  CU_ASSERT_EQUAL(items[999], 999);
  free(items);
}

/* Runs f in a child process with its stderr in a pipe; returns its exit
 * status (-1 when it did not exit) and its first line of stderr in msg. */
static int run_child(void (*f)(void), char *msg, size_t size) {
  int fds[2];
  CU_ASSERT_FATAL(pipe(fds) == 0);
  fflush(NULL);
  pid_t pid = fork();
  CU_ASSERT_FATAL(pid >= 0);
  if (pid == 0) {
    close(fds[0]);
    dup2(fds[1], 2);
    f();
    _exit(0); /* Not reached when the hook ends the program. */
  }
  close(fds[1]);
  size_t len = 0;
  ssize_t k;
  while (len + 1 < size && (k = read(fds[0], msg + len, size - 1 - len)) > 0)
    len += (size_t)k;
  msg[len] = '\0';
  close(fds[0]);
  int status = 0;
  CU_ASSERT_EQUAL_FATAL(waitpid(pid, &status, 0), pid);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* A count whose byte size wraps: SIZE_MAX / 8 + 2 elements of 8 bytes
 * would be 8 bytes modulo 2^64. */
static void grow_wrapping(void) {
  uint64_t *items = NULL;
  size_t cap = 0;
  PCL__GROW(items, cap, SIZE_MAX / sizeof *items + 2);
  items[0] = 1;
}

/* The same reached by doubling an array that already has a capacity: the
 * doubled capacity passes SIZE_MAX / size, and so does the need. */
static void grow_need_wrapping(void) {
  char (*items)[3] = NULL;
  size_t cap = 4;
  pcl__grow(items, &cap, SIZE_MAX / 3 + 1, sizeof *items);
}

/* A buffer asked to hold more bytes than a size_t counts (static, so that
 * its bytes are still reachable when the hook exits). */
static void buf_wrapping(void) {
  static pcl__buf b = PCL__BUF_INIT;
  pcl__buf_puts(&b, "12345");
  pcl__buf_reserve(&b, SIZE_MAX - 5);
}

static void test_overflow_is_exhaustion(void) {
  static void (*const cases[])(void) = {grow_wrapping, grow_need_wrapping, buf_wrapping};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char msg[256];
    int status = run_child(cases[i], msg, sizeof msg);
    CU_ASSERT_EQUAL(status, 2);
    CU_ASSERT_STRING_EQUAL(msg,
                           "pclc: error: out of memory (allocating 18446744073709551615 bytes)\n");
  }
}

void register_buf_tests(void);
void register_buf_tests(void) {
  CU_pSuite s = CU_add_suite("buf", NULL, NULL);
  CU_add_test(s, "appends keep bytes and the NUL", test_append);
  CU_add_test(s, "take returns the text and empties", test_take);
  CU_add_test(s, "printf of long output", test_printf_long);
  CU_add_test(s, "arrays grow by doubling", test_grow);
  CU_add_test(s, "a wrapping size is exhaustion", test_overflow_is_exhaustion);
}
