/* proc: the child processes of the language host (pclc, the C compiler,
 * pkg-config, compiled programs).
 *
 * A child runs in a process group of its own, so that killing it kills
 * what it started too (the C compiler's cc1, as and ld), and gets SIGKILL
 * when the thread that started it goes away (which waits for it), so that
 * a host that is itself killed leaves no orphan program behind.  Every
 * child belongs to a proc_group, one per request: cancelling the group
 * (the engine's Cancel, a request the engine abandoned) kills its children
 * and refuses new ones, and proc_cancel_all does so for every group when
 * the host stops.  proc_run blocks the calling thread (a request's own
 * worker thread) until the child has exited, reading what it writes on the
 * pipes asked for. */
#ifndef HOST_PROC_H
#define HOST_PROC_H

#include <stdbool.h>

#include "util.h"

/* The children started for one request. */
typedef struct proc_group proc_group;

/* Returns a new group. */
proc_group *proc_group_new(void);
/* Frees a group whose children have all exited. */
void proc_group_free(proc_group *g);
/* Kills every child of g (SIGKILL to its process group) and makes later
   proc_run calls of g fail; returns the number of children killed. */
int proc_cancel(proc_group *g);
/* Cancels every group that exists now (the engine's Cancel): their
   children are killed, groups made later are not affected.  Returns the
   number of children killed. */
int proc_cancel_groups(void);
/* Cancels every group, now and later: the host is stopping. */
void proc_cancel_all(void);

/* How to start a child. */
typedef struct proc_spec {
  const char *const *argv; /* The program (looked up in PATH without a slash) and its arguments. */
  const char *cwd;         /* The working directory, or NULL for the host's. */
  const char *const *env;  /* The whole environment, or NULL for the host's. */
  bool capture_out;        /* Read standard output into the result (else the host's). */
  bool capture_err;        /* Read standard error into the result (else the host's). */
} proc_spec;

/* How a child ended. */
typedef struct proc_result {
  int status;     /* Its exit status, or -1 when a signal ended it. */
  int signal;     /* The signal that ended it, or 0. */
  bool cancelled; /* Its group was cancelled while it ran. */
  buf out, err;   /* What it wrote, when captured. */
} proc_result;

/* Runs a child in group g and waits for it.  Returns false with e set when
 * it could not be started ("cannot run cc: No such file or directory") or
 * the group was cancelled before it started; r is then left empty. */
bool proc_run(proc_group *g, const proc_spec *s, proc_result *r, herr *e);
/* Frees the captured output of r. */
void proc_result_free(proc_result *r);
/* Describes how a child ended, for messages ("exited with status 2", "was
   killed by signal 9 (Killed)"); the caller frees the string. */
char *proc_describe(const proc_result *r);

#endif
