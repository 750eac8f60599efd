/* test_stack.c: the phases' large stack and the recursion guard
 * (compiler/base/stack.h).
 *
 * stack_run gives its function a stack far larger than a thread's default;
 * the guard stops a recursion before the end of whatever stack it runs on
 * (the large one, a small thread's, the main thread's), and reports the
 * nesting error once per phase at the node where it stopped. */
#include <CUnit/CUnit.h>
#include <pthread.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/src.h"
#include "base/stack.h"
#include "base/util.h"

/* Recurses n levels with a frame of at least 512 bytes, or until the guard
   says the stack is low; returns the levels it went down.  (The buffer is
   written and read so that the frame is really used.) */
static size_t descend(size_t n) {
  volatile char frame[512];
  frame[0] = (char)n;
  frame[sizeof frame - 1] = frame[0];
  if (n == 0 || stack_low())
    return 0;
  return 1 + descend(n - 1) + (size_t)(frame[sizeof frame - 1] != (char)n);
}

/* Runs on stack_run's thread: its stack is the large one (at least a
   quarter of STACK_SIZE, as under a limit of 2 GiB), and 100,000 levels of
   512 bytes (about 50 MiB, more than a default thread stack of 8 MiB) do
   not reach the reserve. */
static int on_large_stack(void *arg) {
  (void)arg;
  if (stack_size() < STACK_SIZE / 4 - 65536)
    return 1;
  return descend(100000) == 100000 ? 42 : 2;
}

/* stack_run returns what its function returned, and the function had the
   large stack. */
static void test_run_large(void) {
  CU_ASSERT_EQUAL(stack_run(0, on_large_stack, NULL), 42);
}

/* What a small thread found: the levels descend went down and the size of
   the stack the guard measured. */
typedef struct small_result {
  size_t levels, size;
} small_result;

static void *on_small_thread(void *p) {
  small_result *r = p;
  r->size = stack_size();
  r->levels = descend((size_t)-1);
  return NULL;
}

/* On a thread of 256 KiB that stack_run did not make, the guard finds the
   thread's stack and stops the recursion before its end (an overflow would
   crash the test, or be reported by AddressSanitizer); the recursion went
   down most of the way. */
static void test_guard_small_thread(void) {
  enum { SMALL = 256 * 1024 };
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, SMALL);
  pthread_t th;
  small_result r = {0, 0};
  CU_ASSERT_EQUAL_FATAL(pthread_create(&th, &attr, on_small_thread, &r), 0);
  pthread_join(th, NULL);
  pthread_attr_destroy(&attr);
  CU_ASSERT(r.size >= SMALL && r.size < 2 * SMALL);
  CU_ASSERT(r.levels > 0 && r.levels < SMALL / 512);
  CU_ASSERT(r.levels * 512 > SMALL / 4);
}

/* The calling (main) thread's stack is measured too. */
static void test_guard_main_thread(void) {
  size_t levels = descend((size_t)-1);
  CU_ASSERT(levels > 0 && levels < stack_size() / 512);
}

/* A phase's walk for test_reports_once: goes down until the guard stops
   it, then tries five more nodes at the deepest level, as a wide tuple at
   the bottom of a deep one would; the node at depth k has the span
   [k, k + 1). */
typedef struct walk {
  diag_list *diag;
  bool too_deep;
  uint32_t stopped_at; /* The depth where the guard first stopped it. */
} walk;

static bool walk_down(walk *w, uint32_t depth) {
  if (stack_too_deep(&w->too_deep, w->diag, (pcl_span){0, depth, depth + 1})) {
    if (w->stopped_at == 0)
      w->stopped_at = depth;
    return false;
  }
  volatile char frame[512];
  frame[0] = 1;
  bool ok = walk_down(w, depth + 1);
  for (int i = 0; i < 5 && !ok && w->stopped_at == depth + 1; i++)
    ok = walk_down(w, depth + 1);
  return ok && frame[0];
}

static void *walk_thread(void *p) {
  walk_down(p, 1);
  return NULL;
}

/* The error is reported once per phase, at the node where the guard first
   stopped, with the message of stack.h. */
static void test_reports_once(void) {
  src_set src;
  src_init(&src);
  src_add(&src, "deep.pp", "a = [[[[\n", 9);
  diag_list d;
  diag_init(&d, &src);
  walk w = {&d, false, 0};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 256 * 1024);
  pthread_t th;
  CU_ASSERT_EQUAL_FATAL(pthread_create(&th, &attr, walk_thread, &w), 0);
  pthread_join(th, NULL);
  pthread_attr_destroy(&attr);
  CU_ASSERT(w.too_deep);
  CU_ASSERT_EQUAL(d.errors, 1);
  CU_ASSERT_PTR_NOT_NULL_FATAL(d.head);
  CU_ASSERT_STRING_EQUAL(d.head->message, "expression nested too deeply");
  CU_ASSERT_EQUAL(d.head->span.start, w.stopped_at);
  diag_free(&d);
  src_free(&src);
}

/* Under an address-space limit of 2 GiB (issue 19's tests run pclc so),
   stack_run maps a quarter of it, and the recursion still runs.  Forked,
   so that the limit binds the child only.  Not built with
   AddressSanitizer, whose shadow memory needs terabytes of address space:
   `make check` runs it in its clang build (check-clang). */
#if !PCLC_ASAN
static void test_address_space_limit(void) {
  pid_t pid = fork();
  CU_ASSERT_FATAL(pid >= 0);
  if (pid == 0) {
    struct rlimit rl = {(rlim_t)2 << 30, (rlim_t)2 << 30};
    if (setrlimit(RLIMIT_AS, &rl) != 0)
      _exit(3);
    _exit(stack_run(0, on_large_stack, NULL) == 42 ? 0 : 4);
  }
  int status;
  CU_ASSERT_EQUAL_FATAL(waitpid(pid, &status, 0), pid);
  CU_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}
#endif

void register_stack_tests(void);
void register_stack_tests(void) {
  CU_pSuite s = CU_add_suite("stack", NULL, NULL);
  CU_add_test(s, "stack_run gives a large stack", test_run_large);
  CU_add_test(s, "the guard on a small thread", test_guard_small_thread);
  CU_add_test(s, "the guard on the main thread", test_guard_main_thread);
  CU_add_test(s, "the nesting error, reported once", test_reports_once);
#if !PCLC_ASAN
  CU_add_test(s, "an address-space limit", test_address_space_limit);
#endif
}
