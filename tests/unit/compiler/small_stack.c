/* small_stack.c: see small_stack.h. */
#include "small_stack.h"

#include <CUnit/CUnit.h>
#include <pthread.h>

/* A function for on_small_stack to run. */
typedef struct small_stack_job {
  void (*fn)(void); /* The test body. */
} small_stack_job;

/* Runs the job's function; the thread function of on_small_stack. */
static void *run_job(void *job) {
  ((small_stack_job *)job)->fn();
  return NULL;
}

void on_small_stack(size_t bytes, void (*fn)(void)) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, bytes);
  pthread_t th;
  small_stack_job job = {fn};
  CU_ASSERT_EQUAL_FATAL(pthread_create(&th, &attr, run_job, &job), 0);
  pthread_join(th, NULL);
  pthread_attr_destroy(&attr);
}
