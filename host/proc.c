/* proc: child processes of the language host (proc.h).
 *
 * One registry, behind one mutex, holds every group and every running
 * child.  A child is forked while the mutex is held, so that a cancel
 * either finds it in the registry or, coming first, stops it from being
 * started.  Between fork and exec the child calls only async-signal-safe
 * functions; it reports a failed exec through a close-on-exec pipe, which
 * tells "cannot run X" from "X ran and failed". */
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* A running child. */
typedef struct child {
  pid_t pid;          /* Its pid, which is also its process group. */
  proc_group *group;  /* The group it belongs to. */
  struct child *next; /* The next running child. */
} child;

struct proc_group {
  bool cancelled;          /* Cancelled: no child may start. */
  struct proc_group *next; /* The next group of the registry. */
};

static pthread_mutex_t registry = PTHREAD_MUTEX_INITIALIZER;
static child *running;      /* Every running child. */
static proc_group *groups;  /* Every group. */
static bool all_cancelled;  /* The host is stopping. */

proc_group *proc_group_new(void) {
  proc_group *g = xcalloc(1, sizeof(proc_group));
  pthread_mutex_lock(&registry);
  g->next = groups;
  groups = g;
  pthread_mutex_unlock(&registry);
  return g;
}

void proc_group_free(proc_group *g) {
  pthread_mutex_lock(&registry);
  for (proc_group **p = &groups; *p; p = &(*p)->next) {
    if (*p == g) {
      *p = g->next;
      break;
    }
  }
  pthread_mutex_unlock(&registry);
  free(g);
}

int proc_cancel_groups(void) {
  pthread_mutex_lock(&registry);
  int n = 0;
  for (proc_group *g = groups; g; g = g->next) {
    g->cancelled = true;
  }
  for (child *c = running; c; c = c->next) {
    kill(-c->pid, SIGKILL);
    n++;
  }
  pthread_mutex_unlock(&registry);
  return n;
}

int proc_cancel(proc_group *g) {
  pthread_mutex_lock(&registry);
  g->cancelled = true;
  int n = 0;
  for (child *c = running; c; c = c->next) {
    if (c->group == g) {
      kill(-c->pid, SIGKILL);
      n++;
    }
  }
  pthread_mutex_unlock(&registry);
  return n;
}

void proc_cancel_all(void) {
  pthread_mutex_lock(&registry);
  all_cancelled = true;
  for (child *c = running; c; c = c->next) {
    c->group->cancelled = true;
    kill(-c->pid, SIGKILL);
  }
  pthread_mutex_unlock(&registry);
}

/* Writes errno to fd and exits: the child could not exec. */
static void child_fail(int fd) {
  int err = errno;
  ssize_t w = write(fd, &err, sizeof err);
  (void)w;
  _exit(127);
}

/* The child's side of proc_run, between fork and exec: async-signal-safe
   calls only. */
static void child_exec(const proc_spec *s, pid_t parent, int report, int out, int err) {
  setpgid(0, 0);
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) {
    _exit(127);
  }
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  struct sigaction dfl;
  memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  sigaction(SIGPIPE, &dfl, NULL);
  int devnull = open("/dev/null", O_RDONLY);
  if (devnull < 0 || dup2(devnull, 0) < 0) {
    child_fail(report);
  }
  if ((out >= 0 && dup2(out, 1) < 0) || (err >= 0 && dup2(err, 2) < 0)) {
    child_fail(report);
  }
  if (s->cwd && chdir(s->cwd) != 0) {
    child_fail(report);
  }
  char *const *env = s->env ? (char *const *)s->env : environ;
  if (strchr(s->argv[0], '/')) {
    execve(s->argv[0], (char *const *)s->argv, env);
  } else {
    execvpe(s->argv[0], (char *const *)s->argv, env);
  }
  child_fail(report);
}

/* Reads the child's pipes until both are closed, or until the child has
   exited and nothing more is buffered (a grandchild may keep a pipe open).
   Returns the child's wait status. */
static int collect(pid_t pid, int out, int err, proc_result *r) {
  int fds[2] = {out, err};
  buf *bufs[2] = {&r->out, &r->err};
  int status = 0;
  bool exited = false;
  while (fds[0] >= 0 || fds[1] >= 0) {
    struct pollfd p[2];
    nfds_t n = 0;
    int which[2];
    for (int i = 0; i < 2; i++) {
      if (fds[i] >= 0) {
        p[n].fd = fds[i];
        p[n].events = POLLIN;
        which[n++] = i;
      }
    }
    int ready = poll(p, n, 200);
    if (ready < 0 && errno != EINTR) {
      break;
    }
    if (ready <= 0) {
      if (!exited && waitpid(pid, &status, WNOHANG) == pid) {
        exited = true;
      } else if (exited) {
        break;
      }
      continue;
    }
    for (nfds_t k = 0; k < n; k++) {
      if (!(p[k].revents & (POLLIN | POLLHUP | POLLERR))) {
        continue;
      }
      int i = which[k];
      char chunk[16384];
      ssize_t got = read(fds[i], chunk, sizeof chunk);
      if (got > 0) {
        pcl__buf_append(bufs[i], chunk, (size_t)got);
      } else if (got == 0 || errno != EINTR) {
        close(fds[i]);
        fds[i] = -1;
      }
    }
  }
  for (int i = 0; i < 2; i++) {
    if (fds[i] >= 0) {
      close(fds[i]);
    }
  }
  while (!exited && waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

bool proc_run(proc_group *g, const proc_spec *s, proc_result *r, herr *e) {
  *r = (proc_result){0};
  int report[2], out[2] = {-1, -1}, err[2] = {-1, -1};
  if (pipe2(report, O_CLOEXEC) != 0 || (s->capture_out && pipe2(out, O_CLOEXEC) != 0) ||
      (s->capture_err && pipe2(err, O_CLOEXEC) != 0)) {
    return herr_set(e, "cannot run %s: %s", s->argv[0], strerror(errno));
  }
  pid_t parent = getpid();
  pthread_mutex_lock(&registry);
  if (g->cancelled || all_cancelled) {
    pthread_mutex_unlock(&registry);
    int fds[6] = {report[0], report[1], out[0], out[1], err[0], err[1]};
    for (int i = 0; i < 6; i++) {
      if (fds[i] >= 0) {
        close(fds[i]);
      }
    }
    return herr_set(e, "cancelled before %s could start", s->argv[0]);
  }
  pid_t pid = fork();
  if (pid == 0) {
    child_exec(s, parent, report[1], out[1], err[1]);
  }
  child *c = NULL;
  if (pid > 0) {
    /* The parent sets the group as well, so that a kill that follows at
       once finds it whatever the child has done so far. */
    setpgid(pid, pid);
    c = xcalloc(1, sizeof *c);
    c->pid = pid;
    c->group = g;
    c->next = running;
    running = c;
  }
  int fork_errno = errno;
  pthread_mutex_unlock(&registry);
  close(report[1]);
  if (out[1] >= 0) {
    close(out[1]);
  }
  if (err[1] >= 0) {
    close(err[1]);
  }
  if (pid < 0) {
    close(report[0]);
    if (out[0] >= 0) {
      close(out[0]);
    }
    if (err[0] >= 0) {
      close(err[0]);
    }
    return herr_set(e, "cannot run %s: %s", s->argv[0], strerror(fork_errno));
  }
  int child_errno = 0;
  ssize_t got;
  while ((got = read(report[0], &child_errno, sizeof child_errno)) < 0 && errno == EINTR) {
  }
  close(report[0]);
  int status = collect(pid, out[0], err[0], r);
  pthread_mutex_lock(&registry);
  for (child **p = &running; *p; p = &(*p)->next) {
    if (*p == c) {
      *p = c->next;
      break;
    }
  }
  r->cancelled = g->cancelled;
  pthread_mutex_unlock(&registry);
  free(c);
  if (got == (ssize_t)sizeof child_errno) {
    proc_result_free(r);
    return herr_set(e, "cannot run %s: %s", s->argv[0], strerror(child_errno));
  }
  if (WIFEXITED(status)) {
    r->status = WEXITSTATUS(status);
  } else {
    r->status = -1;
    r->signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  }
  return true;
}

void proc_result_free(proc_result *r) {
  pcl__buf_free(&r->out);
  pcl__buf_free(&r->err);
}

char *proc_describe(const proc_result *r) {
  if (r->status >= 0) {
    return pcl__format("exited with status %d", r->status);
  }
  return pcl__format("was killed by signal %d (%s)", r->signal, strsignal(r->signal));
}
