/* gen_hook: hook blocks (program.md 12): their registration, which the
 * node of a hook block makes, and their runs, which the engine backend
 * asks for each time the engine calls a hook back.
 *
 * A hook keeps its frame, so that its command function can read the
 * module's nodes whenever the engine runs it.  Computing the command is
 * program code, so it runs on the loop (the backend calls pcl_hook_run
 * from a completion the loop handles); the command itself runs as a child
 * process the loop waits for. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/engine.h"
#include "gen/gen_internal.h"

struct pcl_hook {
  pcl_gen_frame *f;           /* The module instance (owned reference). */
  pcl_value *name;            /* The hook's name (owned STRING). */
  bool error_hook;            /* An error hook. */
  pcl_gen_command_fn command; /* Computes its command. */
  const uint32_t *r;          /* The command function's row. */
  uint32_t loc;               /* Where the block stands, for failures. */
};

void pcl_hook_free(pcl_hook *h) {
  if (h == NULL) {
    return;
  }
  pcl__gen_frame_release(h->f);
  pcl_release(h->name);
  free(h);
}

/* ---------------------------------------------------------- registration */

/* A hook whose settings or registration are awaited. */
typedef struct pending_hook {
  pcl_hook *h;          /* The hook (owned until the backend takes it), or NULL. */
  pcl_value *name;      /* Its name, the node's value (owned). */
  pcl_run *run;         /* The run. */
  pcl_future *settings; /* The settings, awaited (owned). */
  pcl_future *result;   /* The node's value (owned). */
} pending_hook;

static void pending_end(pending_hook *p, const pcl_error *err) {
  if (err) {
    pcl_future_reject(p->result, err);
  } else {
    pcl_future_resolve(p->result, pcl_retain(p->name), 0, NULL);
  }
  pcl_hook_free(p->h);
  pcl_release(p->name);
  pcl_future_release(p->settings);
  pcl_future_release(p->result);
  free(p);
}

static void hook_registered(void *data, pcl_value *result, const pcl_error *err) {
  (void)result;
  pending_hook *p = data;
  p->run->inflight--;
  pending_end(p, err);
}

/* Returns the bool setting key of settings; an unknown one is false. */
static bool setting(const pcl_value *settings, const char *key) {
  pcl_value *v = pcl_map_get_cstr(settings, key);
  while (v && pcl_kind_of(v) == PCL_T_SECRET) {
    v = pcl_secret_inner(v);
  }
  return v && pcl_kind_of(v) == PCL_T_BOOL && pcl_bool_get(v);
}

static void settings_settled(pcl_future *f, void *data) {
  pending_hook *p = data;
  pcl_engine *eng = p->run->engine;
  if (pcl_future_state_of(f) == PCL_FUTURE_REJECTED) {
    pending_end(p, pcl_future_error(f));
    return;
  }
  if (eng->ops->register_hook == NULL) {
    /* The backend does not run hooks: a hooks option only names it. */
    pending_end(p, NULL);
    return;
  }
  pcl_value *s = pcl_future_value(f);
  pcl_hook_request req = {pcl_str_data(p->name), p->h->error_hook, setting(s, "onDryRun"),
                          setting(s, "ignoreErrors"), p->h};
  p->h = NULL;
  p->run->inflight++;
  eng->ops->register_hook(eng, &req, hook_registered, p);
}

pcl_value *pcl_gen_hook(pcl_gen_env *e, const pcl_value *name, bool error_hook,
                        pcl_value *settings, pcl_gen_command_fn command, const uint32_t *r,
                        uint32_t loc) {
  pcl_hook *h = pcl_xcalloc(1, sizeof *h);
  h->f = pcl__gen_frame_retain(e->f);
  h->name = pcl_retain((pcl_value *)name);
  h->error_hook = error_hook;
  h->command = command;
  h->r = r;
  h->loc = loc;
  pending_hook *p = pcl_xmalloc(sizeof *p);
  p->h = h;
  p->name = pcl_retain(h->name);
  p->run = e->f->run;
  p->settings = pcl_future_await_deep(settings);
  p->result = pcl_future_new(PCL_OUTPUT, NULL);
  pcl_future *res = pcl_future_retain(p->result);
  pcl_future_then(p->settings, settings_settled, p);
  return pcl__gen_located_take(e->f->prog, loc, res);
}

/* ------------------------------------------------------------------ runs */

/* A run of a hook whose command is being computed. */
typedef struct hook_run {
  pcl_hook *h;        /* The hook (borrowed: the backend keeps it). */
  pcl_future *cmd;    /* The command, awaited (owned). */
  pcl_hook_cb cb;     /* The completion. */
  void *data;         /* Its data. */
} hook_run;

/* Runs argv[0..n) in the working directory, its standard output and error
 * appended to out; returns the outcome, and in out why it failed. */
static pcl_hook_outcome spawn(char **argv, pcl_strbuf *out) {
  int fds[2];
  if (pipe(fds) != 0) {
    pcl_strbuf_appendf(out, "cannot run %s: %s", argv[0], strerror(errno));
    return PCL_HOOK_FAILED;
  }
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    pcl_strbuf_appendf(out, "cannot run %s: %s", argv[0], strerror(errno));
    return PCL_HOOK_FAILED;
  }
  if (pid == 0) {
    /* Only async-signal-safe calls before exec: the parent has threads. */
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) {
      dup2(devnull, 0);
    }
    dup2(fds[1], 1);
    dup2(fds[1], 2);
    close(fds[0]);
    close(fds[1]);
    execvp(argv[0], argv);
    static const char msg[] = "cannot execute the command\n";
    ssize_t w = write(2, msg, sizeof msg - 1);
    (void)w;
    _exit(127);
  }
  close(fds[1]);
  pcl_strbuf output = PCL_STRBUF_INIT;
  char buf[4096];
  for (;;) {
    ssize_t k = read(fds[0], buf, sizeof buf);
    if (k > 0) {
      pcl_strbuf_append(&output, buf, (size_t)k);
    } else if (k == 0 || errno != EINTR) {
      break;
    }
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  pcl_hook_outcome o = PCL_HOOK_SUCCEEDED;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    o = PCL_HOOK_SUCCEEDED;
  } else {
    o = PCL_HOOK_FAILED;
    pcl_strbuf_appendf(out, "command %s ", argv[0]);
    if (WIFEXITED(status)) {
      pcl_strbuf_appendf(out, "exited with status %d", WEXITSTATUS(status));
    } else if (WIFSIGNALED(status)) {
      pcl_strbuf_appendf(out, "was killed by signal %d", WTERMSIG(status));
    } else {
      pcl_strbuf_appendf(out, "ended abnormally");
    }
    /* The output without its last newlines, which would end the message. */
    size_t len = output.len;
    while (len > 0 && (output.data[len - 1] == '\n' || output.data[len - 1] == '\r')) {
      len--;
    }
    if (len > 0) {
      pcl_strbuf_appendf(out, ": %.*s", (int)len, output.data);
    }
  }
  pcl_strbuf_free(&output);
  return o;
}

/* Checks the settled command v and runs it. */
static pcl_hook_outcome run_command(const pcl_hook *h, pcl_value *v, pcl_strbuf *msg) {
  pcl_value *plain = pcl_strip_secrets(v);
  pcl_hook_outcome o = PCL_HOOK_BROKEN;
  size_t n = pcl_kind_of(plain) == PCL_T_LIST ? pcl_len(plain) : 0;
  if (pcl_kind_of(plain) != PCL_T_LIST || !pcl_is_wholly_known(plain)) {
    pcl_strbuf_appendf(msg, "hook %s: the command must be a known list of strings",
                      pcl_str_data(h->name));
  } else if (n == 0) {
    pcl_strbuf_appendf(msg, "hook %s: the command must not be empty", pcl_str_data(h->name));
  } else {
    char **argv = pcl_xcalloc(n + 1, sizeof *argv);
    bool strings = true;
    for (size_t i = 0; i < n; i++) {
      pcl_value *a = pcl_list_at(plain, i);
      if (pcl_kind_of(a) != PCL_T_STRING || memchr(pcl_str_data(a), 0, pcl_str_len(a))) {
        strings = false;
        break;
      }
      argv[i] = (char *)pcl_str_data(a);
    }
    if (!strings) {
      pcl_strbuf_appendf(msg, "hook %s: the command must be a list of strings without NUL",
                        pcl_str_data(h->name));
    } else {
      pcl_strbuf out = PCL_STRBUF_INIT;
      o = spawn(argv, &out);
      if (o != PCL_HOOK_SUCCEEDED) {
        pcl_strbuf_appendf(msg, "hook %s: %.*s", pcl_str_data(h->name), (int)out.len, out.data);
      }
      pcl_strbuf_free(&out);
    }
    free(argv);
  }
  pcl_release(plain);
  return o;
}

static void command_settled(pcl_future *f, void *data) {
  hook_run *hr = data;
  pcl_strbuf msg = PCL_STRBUF_INIT;
  pcl_hook_outcome o;
  if (pcl_future_state_of(f) == PCL_FUTURE_REJECTED) {
    /* Where in the command it failed, when known. */
    const pcl_error *err = pcl_future_error(f);
    o = PCL_HOOK_BROKEN;
    pcl_strbuf_appendf(&msg, "hook %s: ", pcl_str_data(hr->h->name));
    if (pcl_error_file(err)) {
      pcl_strbuf_appendf(&msg, "%s:%u:%u: ", pcl_error_file(err), pcl_error_line(err),
                         pcl_error_column(err));
    }
    pcl_strbuf_append_cstr(&msg, pcl_error_message(err));
  } else if ((pcl_future_bits(f) & PCL_FUT_UNKNOWN)) {
    o = PCL_HOOK_BROKEN;
    pcl_strbuf_appendf(&msg, "hook %s: the command is unknown", pcl_str_data(hr->h->name));
  } else {
    o = run_command(hr->h, pcl_future_value(f), &msg);
  }
  hr->cb(hr->data, o, o == PCL_HOOK_SUCCEEDED ? NULL : msg.data);
  pcl_strbuf_free(&msg);
  pcl_future_release(hr->cmd);
  free(hr);
}

void pcl_hook_run(pcl_hook *h, pcl_value *args, pcl_hook_cb cb, void *data) {
  pcl_gen_env env = {0, h->f, h->r, 0};
  pcl_error *err = NULL;
  pcl_value *v = h->command(&env, args, &err);
  hook_run *hr = pcl_xmalloc(sizeof *hr);
  hr->h = h;
  hr->cb = cb;
  hr->data = data;
  if (v == NULL) {
    hr->cmd = pcl_future_rejected(err);
    pcl_future_mark_handled(hr->cmd);
    pcl_error_free(err);
  } else {
    hr->cmd = pcl_future_await_deep(v);
    pcl_release(v);
  }
  pcl_future_then(hr->cmd, command_settled, hr);
}
