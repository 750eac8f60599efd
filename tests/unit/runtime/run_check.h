/* run_check.h: helpers for the tests that run whole programs through
 * pcl_main or pcl_gen_main: capture its stdout and stderr, read files
 * back, compare text.
 * Static functions only, included by the test files that need them. */
#ifndef RUN_CHECK_H
#define RUN_CHECK_H

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pcl_gen.h"

/* Returns the contents of path (owned, NUL-terminated), or NULL. */
static inline char *rc_slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    return NULL;
  }
  size_t cap = 4096, len = 0;
  char *buf = malloc(cap);
  size_t n;
  while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
    len += n;
    if (cap - len - 1 == 0) {
      cap *= 2;
      buf = realloc(buf, cap);
    }
  }
  buf[len] = 0;
  fclose(f);
  return buf;
}

/* The captured result of one pcl_main run. */
typedef struct rc_result {
  int status; /* Exit status. */
  char *out;  /* Captured stdout (owned). */
  char *err;  /* Captured stderr (owned). */
} rc_result;

/* Runs program p through pcl_main, or generated program g through
 * pcl_gen_main (the other is NULL), with the arguments ap (NULL-terminated;
 * argv[0] is name) and stdout and stderr captured in files. */
static inline rc_result rc_run_v(const pcl_program *p, const pcl_gen_program *g, const char *name,
                                 va_list ap) {
  rc_result r;
  char *argv[32];
  int argc = 0;
  argv[argc++] = strdup(name);
  const char *a;
  while ((a = va_arg(ap, const char *)) != NULL && argc < 31) {
    argv[argc++] = strdup(a);
  }
  argv[argc] = NULL;
  fflush(stdout);
  fflush(stderr);
  int save_out = dup(1), save_err = dup(2);
  int fo = open("rc_stdout.txt", O_WRONLY | O_CREAT | O_TRUNC, 0600);
  int fe = open("rc_stderr.txt", O_WRONLY | O_CREAT | O_TRUNC, 0600);
  dup2(fo, 1);
  dup2(fe, 2);
  r.status = p != NULL ? pcl_main(argc, argv, p) : pcl_gen_main(argc, argv, g);
  fflush(stdout);
  fflush(stderr);
  dup2(save_out, 1);
  dup2(save_err, 2);
  close(fo);
  close(fe);
  close(save_out);
  close(save_err);
  for (int i = 0; i < argc; i++) {
    free(argv[i]);
  }
  r.out = rc_slurp("rc_stdout.txt");
  r.err = rc_slurp("rc_stderr.txt");
  remove("rc_stdout.txt");
  remove("rc_stderr.txt");
  return r;
}

/* Runs pcl_main with the NULL-terminated arguments after p (argv[0] is
 * the program's name) with stdout and stderr captured in files. */
static inline rc_result rc_run(const pcl_program *p, ...) {
  va_list ap;
  va_start(ap, p);
  rc_result r = rc_run_v(p, NULL, p->name, ap);
  va_end(ap);
  return r;
}

/* Like rc_run for a generated program, run through pcl_gen_main. */
static inline rc_result rc_run_gen(const pcl_gen_program *g, ...) {
  va_list ap;
  va_start(ap, g);
  rc_result r = rc_run_v(NULL, g, g->name, ap);
  va_end(ap);
  return r;
}

static inline void rc_free(rc_result *r) {
  free(r->out);
  free(r->err);
}

/* Writes text to path. */
static inline void rc_write(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

#endif
