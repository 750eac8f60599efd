/* test_sched.c: the scheduler loop: posted tasks, stall detection naming
 * what is still pending, cancellation that hands every callback its data
 * back, interned URNs, and the poller of outside completions. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"

static int posted;
static void post_cb(pcl_future *f, void *data) {
  CU_ASSERT_PTR_NULL(f);
  posted += *(int *)data;
}

static void test_post(void) {
  int one = 1, ten = 10;
  posted = 0;
  pcl_sched_post(post_cb, &one);
  pcl_sched_post(post_cb, &ten);
  CU_ASSERT_EQUAL(posted, 0);
  CU_ASSERT_EQUAL(pcl_sched_run(), 2);
  CU_ASSERT_EQUAL(posted, 11);
  CU_ASSERT_EQUAL(pcl_sched_run(), 0);
}

/* A frame that waits for a future and frees itself whatever the outcome. */
typedef struct frame {
  int *rejected; /* Counts rejected outcomes. */
} frame;

static void frame_cb(pcl_future *f, void *data) {
  frame *fr = data;
  if (pcl_future_state_of(f) == PCL_FUTURE_REJECTED) {
    (*fr->rejected)++;
  }
  free(fr);
}

static void test_stall_and_cancel(void) {
  int rejected = 0;
  CU_ASSERT_PTR_NULL(pcl_sched_stall_error());
  pcl_future *a = pcl_future_new(PCL_OUTPUT, "resource 'a' (simple:index:Resource)");
  pcl_future *b = pcl_future_new(PCL_OUTPUT, "invoke 'simple:index:get'");
  pcl_future *fs[] = {a, b};
  pcl_future *all = pcl_future_all(fs, 2);
  frame *fr = malloc(sizeof *fr);
  fr->rejected = &rejected;
  pcl_future_then(all, frame_cb, fr);
  pcl_sched_run();
  CU_ASSERT_EQUAL(pcl_sched_pending(), 3);
  pcl_error *e = pcl_sched_stall_error();
  CU_ASSERT_PTR_NOT_NULL_FATAL(e);
  CU_ASSERT_STRING_EQUAL(pcl_error_message(e),
                         "the program cannot finish: still waiting for resource 'a' "
                         "(simple:index:Resource), invoke 'simple:index:get'");
  pcl_sched_cancel_pending(e);
  pcl_error_free(e);
  CU_ASSERT_EQUAL(pcl_sched_pending(), 0);
  CU_ASSERT_EQUAL(rejected, 1);
  /* A producer that answers after cancellation is ignored. */
  pcl_future_resolve(a, pcl_null(), 0, NULL);
  CU_ASSERT_EQUAL(pcl_future_state_of(a), PCL_FUTURE_REJECTED);
  pcl_future_release(a);
  pcl_future_release(b);
  pcl_future_release(all);
  CU_ASSERT_PTR_NULL(pcl_sched_take_unhandled());
}

static void test_cycle_message(void) {
  pcl_future *p = pcl_future_new(PCL_PROMISE, NULL);
  pcl_error *e = pcl_sched_stall_error();
  CU_ASSERT_PTR_NOT_NULL_FATAL(e);
  CU_ASSERT_PTR_NOT_NULL(strstr(pcl_error_message(e), "1 eventual value can never be resolved"));
  pcl_sched_cancel_pending(e);
  pcl_error_free(e);
  pcl_future_release(p);
  pcl_error_free(pcl_sched_take_unhandled());
}

static void test_intern(void) {
  char buf[32];
  strcpy(buf, "urn:pulumi:a");
  const char *x = pcl_urn_intern(buf);
  strcpy(buf, "urn:pulumi:b");
  const char *y = pcl_urn_intern(buf);
  strcpy(buf, "urn:pulumi:a");
  CU_ASSERT_PTR_EQUAL(pcl_urn_intern(buf), x);
  CU_ASSERT_PTR_NOT_EQUAL(x, y);
  CU_ASSERT_STRING_EQUAL(x, "urn:pulumi:a");
  /* Many strings force the table to grow and keep every entry. */
  for (int i = 0; i < 5000; i++) {
    char k[32];
    snprintf(k, sizeof k, "urn:%d", i);
    pcl_urn_intern(k);
  }
  CU_ASSERT_PTR_EQUAL(pcl_urn_intern("urn:pulumi:b"), y);
  /* A string made to be interned becomes the interned copy, or is freed
   * for the one already there. */
  const char *z = pcl__urn_intern_take(pcl_xstrdup("urn:pulumi:z"));
  CU_ASSERT_STRING_EQUAL(z, "urn:pulumi:z");
  CU_ASSERT_PTR_EQUAL(pcl_urn_intern("urn:pulumi:z"), z);
  CU_ASSERT_PTR_EQUAL(pcl__urn_intern_take(pcl_xstrdup("urn:pulumi:a")), x);
  pcl_deps *a = pcl_deps_one("urn:pulumi:a"), *b = pcl_deps_one("urn:pulumi:b");
  pcl_deps *ab = pcl_deps_union(a, b);
  pcl_deps *ab2 = pcl_deps_union(ab, a);
  CU_ASSERT_PTR_EQUAL(ab, ab2); /* A subset union shares the larger set. */
  CU_ASSERT_PTR_NULL(pcl_deps_union(NULL, NULL));
  /* Overlapping sets: each URN once. */
  pcl_deps *zs = pcl__deps_one_interned(z);
  pcl_deps *bz = pcl_deps_union(b, zs);
  pcl_deps *abz = pcl_deps_union(ab, bz);
  CU_ASSERT_EQUAL(pcl_deps_count(abz), 3);
  CU_ASSERT_TRUE(pcl_deps_has(abz, "urn:pulumi:a") && pcl_deps_has(abz, "urn:pulumi:b") &&
                 pcl_deps_has(abz, "urn:pulumi:z"));
  /* The union of many sets at once: each URN once, NULLs and repeats
   * skipped, a set that holds all the others shared. */
  const pcl_deps *many[] = {a, NULL, b, a, zs, bz, NULL, ab};
  pcl_deps *u = pcl__deps_union_all(many, 8);
  CU_ASSERT_EQUAL(pcl_deps_count(u), 3);
  CU_ASSERT_TRUE(pcl_deps_has(u, "urn:pulumi:a") && pcl_deps_has(u, "urn:pulumi:z"));
  pcl_deps_release(u);
  const pcl_deps *covered[] = {a, b, abz, ab, bz};
  u = pcl__deps_union_all(covered, 5);
  CU_ASSERT_PTR_EQUAL(u, abz);
  pcl_deps_release(u);
  CU_ASSERT_PTR_NULL(pcl__deps_union_all(many, 0));
  const pcl_deps *none[] = {NULL, NULL, NULL};
  CU_ASSERT_PTR_NULL(pcl__deps_union_all(none, 3));
  /* 10,000 sets of one URN each: every one kept, sorted as a set is. */
  enum { N = 10000 };
  pcl_deps **ones = malloc(N * sizeof *ones);
  const char **texts = malloc(N * sizeof *texts);
  for (int i = 0; i < N; i++) {
    char k[32];
    snprintf(k, sizeof k, "urn:%d", i % (N / 2));
    ones[i] = pcl_deps_one(k);
    texts[i] = pcl_urn_intern(k);
  }
  u = pcl__deps_union_all((const pcl_deps *const *)ones, N);
  CU_ASSERT_EQUAL(pcl_deps_count(u), N / 2);
  pcl_deps *same = pcl__deps_of_urns(texts, N);
  pcl_deps *both = pcl_deps_union(u, same);
  CU_ASSERT_EQUAL(pcl_deps_count(both), N / 2);
  CU_ASSERT_PTR_EQUAL(both, u);
  pcl_deps_release(both);
  pcl_deps_release(same);
  pcl_deps_release(u);
  for (int i = 0; i < N; i++) {
    pcl_deps_release(ones[i]);
  }
  CU_ASSERT_PTR_NULL(pcl__deps_of_urns(texts, 0));
  free(ones);
  free(texts);
  pcl_deps_release(abz);
  pcl_deps_release(bz);
  pcl_deps_release(zs);
  pcl_deps_release(a);
  pcl_deps_release(b);
  pcl_deps_release(ab);
  pcl_deps_release(ab2);
}

/* A caller that registers a callback and drops its reference still gets
 * called: waiters keep the future alive until it settles (or is cancelled). */
static void test_waiters_keep_alive(void) {
  int rejected = 0;
  pcl_future *f = pcl_future_new(PCL_OUTPUT, "kept");
  frame *fr = malloc(sizeof *fr);
  fr->rejected = &rejected;
  pcl_future_then(f, frame_cb, fr);
  pcl_future_release(f); /* Nobody else holds f now. */
  CU_ASSERT_EQUAL(pcl_sched_live_futures(), 1);
  CU_ASSERT_EQUAL(pcl_sched_pending(), 1);
  pcl_error *e = pcl_sched_stall_error();
  CU_ASSERT_STRING_EQUAL(pcl_error_message(e),
                         "the program cannot finish: still waiting for kept");
  pcl_sched_cancel_pending(e);
  pcl_error_free(e);
  CU_ASSERT_EQUAL(rejected, 1);
  CU_ASSERT_EQUAL(pcl_sched_live_futures(), 0);
}

/* A fake source of outside completions: `outstanding` operations, each
 * completed by one poll (posting a task), only when waiting unless
 * `ready`. */
static struct {
  int outstanding;   /* Operations not completed yet. */
  bool ready;        /* Completions are ready without waiting. */
  int queued;        /* Tasks posted by completions and not run yet. */
  int waits, peeks;  /* Polls that waited, polls that did not. */
  int bad_waits;     /* Waits while a task was queued (must stay 0). */
} fake;

/* A task of the test: one queued task less. */
static void fake_task(pcl_future *f, void *data) {
  (void)f;
  (void)data;
  fake.queued--;
}

static bool fake_poll(void *data, bool wait) {
  (void)data;
  if (wait) {
    fake.waits++;
    fake.bad_waits += fake.queued > 0;
  } else {
    fake.peeks++;
  }
  if (fake.outstanding > 0 && (wait || fake.ready)) {
    fake.outstanding--;
    fake.queued++;
    pcl_sched_post(fake_task, NULL);
  }
  return fake.outstanding > 0;
}

static void test_poller(void) {
  memset(&fake, 0, sizeof fake);
  pcl__sched_set_poller(fake_poll, NULL);
  /* Nothing queued: the loop waits for each completion and runs its task. */
  fake.outstanding = 3;
  CU_ASSERT_EQUAL(pcl_sched_run(), 3);
  CU_ASSERT_EQUAL(fake.outstanding, 0);
  CU_ASSERT_EQUAL(fake.queued, 0);
  CU_ASSERT_EQUAL(fake.bad_waits, 0);
  /* A long run of tasks: the loop peeks without waiting every 64 tasks and
   * takes in the completions that are ready, never waiting while tasks are
   * queued. */
  memset(&fake, 0, sizeof fake);
  fake.outstanding = 2;
  fake.ready = true;
  for (int i = 0; i < 200; i++) {
    fake.queued++;
    pcl_sched_post(fake_task, NULL);
  }
  CU_ASSERT_EQUAL(pcl_sched_run(), 202);
  CU_ASSERT(fake.peeks >= 3);
  CU_ASSERT_EQUAL(fake.outstanding, 0);
  CU_ASSERT_EQUAL(fake.bad_waits, 0);
  pcl__sched_set_poller(NULL, NULL);
}

void register_sched_tests(void);
void register_sched_tests(void) {
  CU_pSuite s = CU_add_suite("sched", NULL, NULL);
  CU_add_test(s, "posted tasks", test_post);
  CU_add_test(s, "stall names pending work, cancel frees frames", test_stall_and_cancel);
  CU_add_test(s, "unlabelled stall", test_cycle_message);
  CU_add_test(s, "interned URNs and dep sets", test_intern);
  CU_add_test(s, "waiters keep a future alive", test_waiters_keep_alive);
  CU_add_test(s, "the poller of outside completions", test_poller);
}
