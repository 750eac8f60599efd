/* stack: the phases' large stack and the recursion guard (see stack.h). */

/* mmap's MAP_ANONYMOUS, MAP_NORESERVE and MAP_STACK, and
   pthread_getattr_np, which tells the guard where another thread's stack
   is, are GNU extensions. */
#define _GNU_SOURCE

#include "base/stack.h"

#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

/* The smallest stack stack_run maps, when a limit leaves no room for the
   size asked for, before it gives up on a thread of its own: below this
   the calling thread's stack does as well. */
#define STACK_MIN ((size_t)16 << 20)

/* The lowest address the calling thread's frames may reach before
   stack_low says so (its stack's low end plus the reserve), and the size of
   its stack; both 0 until the thread first asks. */
static _Thread_local uintptr_t floor_addr;
static _Thread_local size_t thread_stack_size;

/* The reserve kept on a stack of size bytes. */
static size_t reserve_for(size_t size) {
  return size < 8 * STACK_RESERVE ? size / 8 : STACK_RESERVE;
}

/* Records the bounds of the calling thread's stack: [low, low + size). */
static void set_bounds(uintptr_t low, size_t size) {
  floor_addr = low + reserve_for(size);
  thread_stack_size = size;
}

/* Finds the calling thread's stack when stack_run did not make it (the
   main thread, a test's or a fuzzer's thread).  Without an answer the guard
   assumes the smallest stack a thread may have, below the current frame. */
static void find_bounds(void) {
  pthread_attr_t attr;
  void *low;
  size_t size;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    int r = pthread_attr_getstack(&attr, &low, &size);
    pthread_attr_destroy(&attr);
    if (r == 0) {
      set_bounds((uintptr_t)low, size);
      return;
    }
  }
  size = (size_t)PTHREAD_STACK_MIN;
  set_bounds((uintptr_t)__builtin_frame_address(0) - size, size);
}

bool stack_low(void) {
  if (floor_addr == 0)
    find_bounds();
  return (uintptr_t)__builtin_frame_address(0) < floor_addr;
}

void stack_report_too_deep(bool *reported, diag_list *d, pcl_span span) {
  if (!*reported)
    diag_error(d, span, "expression nested too deeply");
  *reported = true;
}

bool stack_too_deep(bool *reported, diag_list *d, pcl_span span) {
  if (!stack_low())
    return false;
  stack_report_too_deep(reported, d, span);
  return true;
}

size_t stack_size(void) {
  if (floor_addr == 0)
    find_bounds();
  return thread_stack_size;
}

/* The size to map: size, or a quarter of the address-space or data limit
   when that is smaller. */
static size_t wanted_size(size_t size) {
  static const int limits[] = {RLIMIT_AS, RLIMIT_DATA};
  for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
    struct rlimit rl;
    if (getrlimit(limits[i], &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        rl.rlim_cur / 4 < size)
      size = (size_t)(rl.rlim_cur / 4);
  }
  return size;
}

/* What a stack_run thread runs, and its answer. */
typedef struct job {
  int (*fn)(void *arg); /* The function to run. */
  void *arg;            /* Its argument. */
  uintptr_t low;        /* The low end of the thread's stack. */
  size_t size;          /* The stack's size. */
  int result;           /* What fn returned. */
} job;

static void *run_job(void *p) {
  job *j = p;
  set_bounds(j->low, j->size);
  j->result = j->fn(j->arg);
  return NULL;
}

/* Runs j on a thread with the stack [base, base + size) mapped by the
   caller; returns false when the thread could not be started. */
static bool run_thread(job *j, void *base, size_t size) {
  pthread_attr_t attr;
  if (pthread_attr_init(&attr) != 0)
    return false;
  bool ok = false;
  if (pthread_attr_setstack(&attr, base, size) == 0) {
    pthread_t th;
    if (pthread_create(&th, &attr, run_job, j) == 0) {
      pthread_join(th, NULL);
      ok = true;
    }
  }
  pthread_attr_destroy(&attr);
  return ok;
}

bool stack_parse_size(const char *text, size_t *size) {
  size_t n = 0;
  const char *p = text;
  for (; *p >= '0' && *p <= '9'; p++) {
    if (n > (SIZE_MAX - 9) / 10)
      return false;
    n = n * 10 + (size_t)(*p - '0');
  }
  unsigned shift = *p == 'K' ? 10 : *p == 'M' ? 20 : *p == 'G' ? 30 : 0;
  if (shift)
    p++;
  if (p == text || *p || n == 0 || n > SIZE_MAX >> shift)
    return false;
  *size = n << shift;
  return true;
}

int stack_run(size_t size, int (*fn)(void *arg), void *arg) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  size_t want = wanted_size(size ? size : STACK_SIZE);
  size_t least = want < STACK_MIN ? want : STACK_MIN;
  for (size = want; size >= least && size > 2 * page; size /= 2) {
    size -= size % page;
    void *base = mmap(NULL, size, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (base == MAP_FAILED)
      continue;
    /* The lowest page is a guard: a frame that ever got past the reserve
       would fault there instead of writing over another mapping. */
    job j = {fn, arg, (uintptr_t)base + page, size - page, 0};
    bool ran = mprotect(base, page, PROT_NONE) == 0 && run_thread(&j, base, size);
    munmap(base, size);
    if (ran)
      return j.result;
  }
  return fn(arg);
}
