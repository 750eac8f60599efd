/* gen_check.h: helpers for the tests of the operations that generated code
 * calls (test_gen.c, test_gen_iter.c, test_gen_node.c).  Those tests play
 * the part of generated code: functions with the pcl_gen_*_fn signatures,
 * rows as static uint32_t arrays and constants as PCL_STATIC_* values.
 *
 * A gfx is a frame made by hand for the operations that need one but no
 * engine; gfx_done runs the loop and checks that every closure, value and
 * future the test made is gone (CHECK_NO_LEAK does the last two for tests
 * without a frame and for whole runs).  The CHECK_* macros compare a value (read
 * once settled when it is an EVENTUAL) with its snapshot JSON, or an error
 * with its D11 text.  Static functions only. */
#ifndef GEN_CHECK_H
#define GEN_CHECK_H

#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "gen/gen_internal.h"
#include "run_check.h"

/* The numbers of live values and futures at one moment. */
typedef struct live_counts {
  size_t values;  /* pcl_rt_live_values(). */
  size_t futures; /* pcl_sched_live_futures(). */
} live_counts;

/* Returns the numbers of values and futures alive now. */
static inline live_counts live_now(void) {
  return (live_counts){pcl_rt_live_values(), pcl_sched_live_futures()};
}

/* Asserts that as many values and futures are alive as at before: what a
 * test or a run made since is gone. */
#define CHECK_NO_LEAK(before) check_no_leak_at((before), __LINE__)
static inline void check_no_leak_at(live_counts before, int line) {
  live_counts now = live_now();
  if (now.values != before.values || now.futures != before.futures) {
    fprintf(stderr, "\nline %d: %zu values and %zu futures alive, want %zu and %zu\n", line,
            now.values, now.futures, before.values, before.futures);
  }
  CU_ASSERT_EQUAL(now.values, before.values);
  CU_ASSERT_EQUAL(now.futures, before.futures);
}

/* A frame of a program's main module with a run that has no engine: the
 * operations tested with it read only the run's preview flag. */
typedef struct gfx {
  pcl_run run;       /* The run (zeroed but for preview). */
  pcl_gen_frame *f;  /* The frame (one reference, dropped by gfx_done). */
  live_counts live0; /* Live values and futures when the fixture was made. */
} gfx;

static inline void gfx_init(gfx *x, const pcl_gen_program *p, bool preview) {
  memset(&x->run, 0, sizeof x->run);
  x->run.preview = preview;
  x->live0 = live_now();
  x->f = pcl_xcalloc(1, sizeof *x->f);
  x->f->refs = 1;
  x->f->run = &x->run;
  x->f->prog = p;
  x->f->module = p->main;
  x->f->slots = pcl_xcalloc(p->main->nnodes ? p->main->nnodes : 1, sizeof *x->f->slots);
}

/* Starts a test of operations on a frame of program prog: declares the
 * fixture x and e, a stack environment in x's frame whose row is the
 * program's first. */
#define GFX_BEGIN(prog, preview) \
  gfx x;                         \
  gfx_init(&x, (prog), (preview)); \
  pcl_gen_env e = {0, x.f, (prog)->rows, 0}

/* Runs the loop, then checks that no closure still holds the frame and
 * that every value and future made since gfx_init is gone. */
static inline void gfx_done(gfx *x) {
  pcl_sched_run();
  CU_ASSERT_EQUAL(x->f->refs, 1);
  pcl__gen_frame_release(x->f);
  CHECK_NO_LEAK(x->live0);
  pcl_error_free(pcl_sched_take_unhandled());
}

/* Releases each of vs[0..n) (NULL and immortal values are ignored). */
static inline void release_all(pcl_value *const *vs, size_t n) {
  for (size_t i = 0; i < n; i++) {
    pcl_release(vs[i]);
  }
}
#define RELEASE(...) \
  release_all((pcl_value *[]){__VA_ARGS__}, sizeof((pcl_value *[]){__VA_ARGS__}) / sizeof(pcl_value *))

/* Drops a reference to each of fs[0..n). */
static inline void release_futures(pcl_future *const *fs, size_t n) {
  for (size_t i = 0; i < n; i++) {
    pcl_future_release(fs[i]);
  }
}
#define RELEASE_FUTURES(...)                       \
  release_futures((pcl_future *[]){__VA_ARGS__}, \
                  sizeof((pcl_future *[]){__VA_ARGS__}) / sizeof(pcl_future *))

/* Returns the snapshot JSON (compact) of v as an owned C string. */
static inline char *json_of(const pcl_value *v) {
  pcl_strbuf b = PCL_STRBUF_INIT;
  pcl__snap_encode(&b, v, -1, false);
  return b.data;
}

/* Returns what v stands for (owned): for a resolved EVENTUAL its value,
 * UNKNOWN when unknown, made SECRET when secret; NULL for a pending or
 * rejected one; else v itself. */
static inline pcl_value *settled_of(pcl_value *v) {
  pcl_future *f = pcl_value_future(v);
  if (f == NULL) {
    return pcl_retain(v);
  }
  if (pcl_future_state_of(f) != PCL_FUTURE_RESOLVED) {
    return NULL;
  }
  pcl_value *r = (pcl_future_bits(f) & PCL_FUT_UNKNOWN) ? pcl_unknown() : pcl_future_value(f);
  return (pcl_future_bits(f) & PCL_FUT_SECRET) ? pcl_secret_new(r) : pcl_retain(r);
}

/* Asserts that v (stolen; NULL fails) stands for the value whose snapshot
 * JSON is want. */
#define CHECK_JSON(v, want) check_json_at((v), (want), __LINE__)
static inline void check_json_at(pcl_value *v, const char *want, int line) {
  CU_ASSERT_PTR_NOT_NULL_FATAL(v);
  pcl_value *s = settled_of(v);
  char *got = s != NULL ? json_of(s) : pcl_xstrdup("<not resolved>");
  if (strcmp(got, want) != 0) {
    fprintf(stderr, "\nline %d: got %s, want %s\n", line, got, want);
  }
  CU_ASSERT_STRING_EQUAL(got, want);
  free(got);
  pcl_release(s);
  pcl_release(v);
}

/* Asserts that err (stolen) reads want in the D11 form
 * ("file:line:col: error: message"). */
#define CHECK_ERR(err, want) check_err_at((err), (want), __LINE__)
static inline void check_err_at(pcl_error *err, const char *want, int line) {
  CU_ASSERT_PTR_NOT_NULL_FATAL(err);
  char *got = pcl_error_format(err);
  if (strcmp(got, want) != 0) {
    fprintf(stderr, "\nline %d: error \"%s\", want \"%s\"\n", line, got, want);
  }
  CU_ASSERT_STRING_EQUAL(got, want);
  free(got);
  pcl_error_free(err);
}

/* Asserts that v (stolen) is an EVENTUAL rejected with an error that reads
 * want in the D11 form. */
#define CHECK_REJECTED(v, want) check_rejected_at((v), (want), __LINE__)
static inline void check_rejected_at(pcl_value *v, const char *want, int line) {
  CU_ASSERT_PTR_NOT_NULL_FATAL(v);
  pcl_future *f = pcl_value_future(v);
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  CU_ASSERT_EQUAL_FATAL(pcl_future_state_of(f), PCL_FUTURE_REJECTED);
  check_err_at(pcl_error_copy(pcl_future_error(f)), want, line);
  pcl_release(v);
}

/* Returns the dependencies of the settled EVENTUAL v (borrowed). */
static inline const pcl_deps *deps_of(const pcl_value *v) {
  return pcl_future_deps(pcl_value_future(v));
}

/* Returns a new pending future and, in *v, an EVENTUAL holding it (both
 * owned). */
static inline pcl_future *pending(pcl_value **v) {
  pcl_future *f = pcl_future_new(PCL_OUTPUT, NULL);
  *v = pcl_future_to_value(f);
  return f;
}

#endif
