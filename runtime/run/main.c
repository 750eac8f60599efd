/* main.c: pcl_main, the entry point of every compiled program, and the run.
 *
 * Takes the command line and the Pulumi language-host environment
 * (PULUMI_PROJECT, PULUMI_STACK, PULUMI_ORGANIZATION, PULUMI_ROOT_DIRECTORY,
 * PULUMI_CONFIG, PULUMI_CONFIG_SECRET_KEYS, PULUMI_DRY_RUN; flags override
 * them); produces a run of the program: on the gRPC backend when
 * PULUMI_MONITOR names the engine that hosts it (`pulumi up`, docs/engine.md),
 * else on the embedded engine.  The stack is registered, the program's start
 * function runs, the loop runs until idle, the stack outputs are registered,
 * the backend finishes the run, the snapshot is written and the outputs
 * printed (by the embedded engine only: a hosting engine shows them).
 *
 * The command line is parsed first, without touching a file; then the
 * names are checked, the input documents read (config sources in
 * command-line order, stack references, mocks; input.c checks their shape)
 * and the declared config loaded.  From there on, every failure still
 * writes the snapshot (docs/snapshot.md) with the error.
 *
 * Exit status: 0 success, 1 program or engine error (message on stderr in
 * the D11 form), 2 usage or I/O error (an unreadable or malformed input
 * file, an output that cannot be written) or exhausted memory (after the
 * snapshot is written), 32 an error the hosting engine
 * was told (and shows itself), as the SDKs exit.  A run that can make no
 * progress while futures are pending ends with an error naming what it
 * waits for. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/engine.h"
#include "value/pcl_internal.h"
#include "engine/rpc.h"
#include "suggest.h"

static pcl_run *current;
static const pcl_mocks *main_mocks;

pcl_run *pcl_run_current(void) { return current; }

void pcl_main_set_mocks(const pcl_mocks *mocks) { main_mocks = mocks; }

pcl_value *pcl_run_config(pcl_run *run, size_t i) { return pcl_retain(run->config[i]); }
pcl_value *pcl_run_stack(pcl_run *run) { return pcl_str_from_cstr(run->stack); }
pcl_value *pcl_run_project(pcl_run *run) { return pcl_str_from_cstr(run->project); }
pcl_value *pcl_run_organization(pcl_run *run) { return pcl_str_from_cstr(run->org); }
pcl_value *pcl_run_cwd(pcl_run *run) { return pcl_str_from_cstr(run->cwd); }
pcl_value *pcl_run_root_directory(pcl_run *run) { return pcl_str_from_cstr(run->root); }
bool pcl_run_preview(const pcl_run *run) { return run->preview; }

/* What reads a config or stack-reference argument, in command-line order. */
typedef enum source_kind {
  SRC_CONFIG,      /* --config KEY=VALUE */
  SRC_SECRET,      /* --secret KEY=VALUE */
  SRC_CONFIG_FILE, /* --config-file FILE */
  SRC_STACK_REF,   /* --stack-reference NAME=FILE */
} source_kind;

/* One config or stack-reference argument. */
typedef struct source {
  source_kind kind; /* What it is. */
  const char *arg;  /* Its value (borrowed from argv). */
} source;

/* The options of one invocation. */
typedef struct opts {
  const char *project, *stack, *org, *snapshot, *mocks, *root, *max_size;
  bool preview, show_secrets, help;
  source *sources;        /* Config and stack-reference arguments, in order. */
  size_t nsources;        /* Entries of sources. */
  pcl__config_set cfg;    /* Raw config, later entries win. */
  pcl_mapbuf refs;        /* Stack references. */
  pcl_value *secret_keys; /* PULUMI_CONFIG_SECRET_KEYS (a LIST of STRINGs, owned) or NULL. */
} opts;

static void usage(FILE *f, const char *prog) {
  fprintf(f,
          "usage: %s [options]\n"
          "Runs the program on the embedded engine.\n"
          "  --project NAME         project name (PULUMI_PROJECT)\n"
          "  --stack NAME           stack name (PULUMI_STACK; default dev)\n"
          "  --organization NAME    organization (PULUMI_ORGANIZATION; default organization)\n"
          "  --config KEY=VALUE     set a config value (KEY without ':' is <project>:KEY)\n"
          "  --secret KEY=VALUE     set a secret config value\n"
          "  --config-file FILE     config from a JSON object (like PULUMI_CONFIG)\n"
          "  --preview              dry run: new resources' outputs stay unknown\n"
          "  --snapshot FILE        write the run's snapshot as JSON (docs/snapshot.md)\n"
          "  --mocks FILE           JSON mocks for the engine (docs/mocks.md)\n"
          "  --stack-reference NAME=FILE  outputs of stack NAME (org/project/stack)\n"
          "  --root-directory DIR   the project root (default: the working directory)\n"
          "  --max-value-size BYTES the size limit of one value (PCL_MAX_VALUE_SIZE)\n"
          "  --show-secrets         print secret stack outputs in clear\n"
          "  --help                 print this help\n",
          prog);
}

/* Parses argv into o without reading any file; returns false with a
 * message on stderr on misuse. */
static bool parse_args(int argc, char **argv, opts *o) {
  const char *prog = argc > 0 ? argv[0] : "program";
  o->sources = pcl_xcalloc(argc > 0 ? (size_t)argc : 1, sizeof *o->sources);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *val = NULL;
    static const char *const with_arg[] = {
        "--project",  "--stack",           "--organization",   "--config",
        "--secret",   "--config-file",     "--snapshot",       "--mocks",
        "--stack-reference", "--root-directory", "--max-value-size"};
    const char *opt = NULL;
    for (size_t j = 0; j < sizeof with_arg / sizeof with_arg[0]; j++) {
      size_t l = strlen(with_arg[j]);
      if (strncmp(a, with_arg[j], l) == 0 && (a[l] == 0 || a[l] == '=')) {
        opt = with_arg[j];
        if (a[l] == '=') {
          val = a + l + 1;
        } else if (i + 1 < argc) {
          val = argv[++i];
        } else {
          fprintf(stderr, "%s: option %s needs a value\n", prog, a);
          return false;
        }
        break;
      }
    }
    if (opt == NULL) {
      if (strcmp(a, "--preview") == 0) {
        o->preview = true;
      } else if (strcmp(a, "--show-secrets") == 0) {
        o->show_secrets = true;
      } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
        o->help = true;
      } else {
        fprintf(stderr, "%s: unknown option '%s' (see --help)\n", prog, a);
        return false;
      }
      continue;
    }
    source_kind kind;
    if (strcmp(opt, "--project") == 0) {
      o->project = val;
    } else if (strcmp(opt, "--stack") == 0) {
      o->stack = val;
    } else if (strcmp(opt, "--organization") == 0) {
      o->org = val;
    } else if (strcmp(opt, "--snapshot") == 0) {
      o->snapshot = val;
    } else if (strcmp(opt, "--mocks") == 0) {
      o->mocks = val;
    } else if (strcmp(opt, "--root-directory") == 0) {
      o->root = val;
    } else if (strcmp(opt, "--max-value-size") == 0) {
      o->max_size = val;
    } else {
      kind = strcmp(opt, "--config") == 0        ? SRC_CONFIG
             : strcmp(opt, "--secret") == 0      ? SRC_SECRET
             : strcmp(opt, "--config-file") == 0 ? SRC_CONFIG_FILE
                                                 : SRC_STACK_REF;
      if (kind != SRC_CONFIG_FILE && strchr(val, '=') == NULL) {
        fprintf(stderr, "%s: %s needs %s\n", prog, opt,
                kind == SRC_STACK_REF ? "NAME=FILE" : "KEY=VALUE");
        return false;
      }
      o->sources[o->nsources++] = (source){kind, val};
    }
  }
  return true;
}

/* Reads PULUMI_CONFIG and PULUMI_CONFIG_SECRET_KEYS (before the flags, so
 * flags win). */
static bool env_config(opts *o, pcl_error **err) {
  const char *c = getenv("PULUMI_CONFIG");
  if (c && *c) {
    pcl_value *v = pcl__read_json("PULUMI_CONFIG", c, strlen(c), PCL_JSON_RAW_TEXT, err);
    bool ok = v != NULL && pcl__config_add_json(&o->cfg, v, "PULUMI_CONFIG", err);
    pcl_release(v);
    if (!ok) {
      return false;
    }
  }
  const char *s = getenv("PULUMI_CONFIG_SECRET_KEYS");
  if (s && *s) {
    pcl_value *v = pcl__read_json("PULUMI_CONFIG_SECRET_KEYS", s, strlen(s), 0, err);
    /* The keys are marked once every source of config is read
     * (pcl__config_mark_secret): a key set by a flag is secret too. */
    o->secret_keys = v != NULL ? pcl__config_secret_keys(v, "PULUMI_CONFIG_SECRET_KEYS", err) : NULL;
    pcl_release(v);
    if (o->secret_keys == NULL) {
      return false;
    }
  }
  return true;
}

/* Reads the config and stack-reference arguments in command-line order. */
static bool read_sources(opts *o, pcl_error **err) {
  for (size_t i = 0; i < o->nsources; i++) {
    const source *src = &o->sources[i];
    const char *eq = strchr(src->arg, '=');
    switch (src->kind) {
    case SRC_CONFIG_FILE: {
      pcl_value *v = pcl__read_json_file(src->arg, PCL_JSON_RAW_TEXT, err);
      bool ok = v != NULL && pcl__config_add_json(&o->cfg, v, src->arg, err);
      pcl_release(v);
      if (!ok) {
        return false;
      }
      break;
    }
    case SRC_CONFIG:
    case SRC_SECRET: {
      char *k = pcl_xmalloc((size_t)(eq - src->arg) + 1);
      memcpy(k, src->arg, (size_t)(eq - src->arg));
      k[eq - src->arg] = 0;
      const char *why = pcl__config_key_problem(k);
      if (why != NULL) {
        *err = pcl_error_new("%s %s: %s", src->kind == SRC_SECRET ? "--secret" : "--config",
                             src->arg, why);
        free(k);
        return false;
      }
      pcl__config_put(&o->cfg, k, eq + 1, src->kind == SRC_SECRET);
      free(k);
      break;
    }
    case SRC_STACK_REF: {
      const char *path = eq + 1;
      const char *why = pcl__stack_name_problem(src->arg, (size_t)(eq - src->arg));
      if (why != NULL) {
        *err = pcl_error_new("--stack-reference %s: the stack name \"%.*s\" %s", src->arg,
                             (int)(eq - src->arg), src->arg, why);
        return false;
      }
      pcl_value *v = pcl__read_json_file(path, PCL_JSON_SNAPSHOT, err);
      if (v == NULL) {
        return false;
      }
      /* An object of outputs, or {"outputs": ..., "secretOutputNames": ...}. */
      pcl__doc d = PCL__DOC_INIT(path);
      pcl_value *ref = pcl__stack_ref_check(&d, v, true);
      pcl_release(v);
      *err = pcl__doc_finish(&d);
      if (ref == NULL) {
        return false;
      }
      pcl_mapbuf_put_take(&o->refs, pcl_str_new_lossy(src->arg, (size_t)(eq - src->arg)), ref);
      break;
    }
    }
  }
  return true;
}

/* Returns the name of a config value given for the project (a key
 * "<project>:<name>" of o's sources) that no config block declares and
 * that is a small edit away from the declared name, or NULL: the value the
 * user meant for name, under a misspelt key.  The entries are offered once
 * and the declarations read once. */
static const char *misspelt_config_key(const pcl_run *run, const opts *o, const char *name) {
  size_t plen = strlen(run->project);
  pcl__suggest sg;
  pcl__suggest_init(&sg, name, strlen(name));
  for (size_t i = 0; i < o->cfg.n; i++) {
    const char *key = o->cfg.items[i].key;
    if (strncmp(key, run->project, plen) == 0 && key[plen] == ':') {
      pcl__suggest_offer(&sg, key + plen + 1, strlen(key + plen + 1));
    }
  }
  size_t len;
  const char *best = pcl__suggest_best(&sg, &len);
  for (size_t i = 0; best && i < run->program->nconfigs; i++) {
    const char *declared = run->program->configs[i].name;
    if (strlen(declared) == len && memcmp(declared, best, len) == 0) {
      best = NULL;
    }
  }
  return best;
}

/* Loads every declared config variable into run->config.  An error is
 * located at the declaration; the value of a secret key shows as [secret]
 * in it. */
static bool load_config(pcl_run *run, opts *o, pcl_error **err) {
  const pcl_program *p = run->program;
  for (size_t i = 0; i < p->nconfigs; i++) {
    const pcl_config_decl *d = &p->configs[i];
    pcl_strbuf key = PCL_STRBUF_INIT;
    pcl_strbuf_appendf(&key, "%s:%s", run->project, d->name);
    const pcl__config_entry *c = pcl__config_get(&o->cfg, key.data);
    pcl_strbuf_free(&key);
    pcl_value *v = NULL;
    bool secret = d->secret;
    if (c) {
      secret = secret || c->secret;
      if (secret) {
        pcl__redact_enter();
      }
      v = pcl_config_parse(d->name, c->text, d->type, err);
      if (secret) {
        pcl__redact_leave();
      }
    } else if (d->default_value) {
      v = pcl_retain(d->default_value);
    } else if (d->has_default_expr) {
      v = NULL;
    } else if (d->nullable || d->type->kind == PCL_TY_OPTIONAL) {
      v = pcl_null();
    } else {
      const char *given = misspelt_config_key(run, o, d->name);
      *err = given ? pcl_error_new("missing required configuration value \"%s\"; \"%s\" is set "
                                   "but not declared: did you mean \"%s\"?",
                                   d->name, given, d->name)
                   : pcl_error_new("missing required configuration value \"%s\"", d->name);
    }
    if (*err) {
      pcl_error_set_location(*err, d->file, d->line, d->col);
      return false;
    }
    if (v && secret) {
      pcl_value *s = pcl_secret_new(v);
      pcl_release(v);
      v = s;
    }
    run->config[i] = v;
  }
  return true;
}

static void opts_free(opts *o) {
  pcl__config_set_free(&o->cfg);
  free(o->sources);
  pcl_mapbuf_free(&o->refs);
  pcl_release(o->secret_keys);
}

/* A setting of the run and where it came from: its flag, else its
 * environment variable when that is set (even to the empty string, which
 * the checks then refuse as they refuse an empty flag), else a default. */
typedef struct setting {
  const char *value;  /* The value (borrowed), NULL when unset without a default. */
  const char *origin; /* The flag or variable that gave it, NULL for the default. */
} setting;

static setting setting_of(const char *flag_value, const char *flag, const char *env,
                          const char *dflt) {
  if (flag_value != NULL) {
    return (setting){flag_value, flag};
  }
  const char *e = getenv(env);
  return e != NULL ? (setting){e, env} : (setting){dflt, NULL};
}

/* Prints "<prog>: <origin>: " (the origin left out for a default) and the
 * message on stderr. */
static void setting_problem(const char *prog, const setting *s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void setting_problem(const char *prog, const setting *s, const char *fmt, ...) {
  fprintf(stderr, "%s: ", prog);
  if (s->origin != NULL) {
    fprintf(stderr, "%s: ", s->origin);
  }
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
}

/* Returns NULL when name is a project, stack or organization name the
 * engine accepts (not empty, no "::", which separates URN parts); else why
 * not (static text). */
static const char *name_problem(const char *name) {
  if (*name == '\0') {
    return "is empty";
  }
  if (strstr(name, "::") != NULL) {
    return "contains \"::\", which separates the parts of a URN";
  }
  return NULL;
}

/* Parses text as a whole number of at most max (decimal digits only, no
 * sign or space); false when it is not one. */
static bool whole_number(const char *text, unsigned long long max, unsigned long long *n) {
  if (*text < '0' || *text > '9') {
    return false;
  }
  char *end;
  errno = 0;
  *n = strtoull(text, &end, 10);
  return errno == 0 && *end == '\0' && *n <= max;
}

/* Sets the value size limit from --max-value-size or PCL_MAX_VALUE_SIZE
 * (a number of bytes); false with a message on stderr when it is not one. */
static bool set_limit(const opts *o, const char *prog) {
  setting s = setting_of(o->max_size, "--max-value-size", "PCL_MAX_VALUE_SIZE", NULL);
  if (s.value == NULL) {
    return true;
  }
  unsigned long long n;
  if (!whole_number(s.value, ULLONG_MAX, &n) || n == 0) {
    setting_problem(prog, &s, "the value size limit must be a positive number of bytes, not "
                              "\"%s\"",
                    s.value);
    return false;
  }
  pcl_set_value_limit(n > SIZE_MAX ? SIZE_MAX : (size_t)n);
  return true;
}

/* Reads PULUMI_PARALLEL, the most registrations and reads in flight at
 * once (0, the Go language host's value when the engine sets no bound, or
 * unset: none) into *bound; false with a message on stderr when it is not
 * a whole number. */
static bool parallel_bound(const char *prog, size_t *bound) {
  setting s = setting_of(NULL, NULL, "PULUMI_PARALLEL", NULL);
  *bound = 0;
  if (s.value == NULL) {
    return true;
  }
  unsigned long long n;
  if (!whole_number(s.value, SIZE_MAX, &n)) {
    setting_problem(prog, &s, "the number of registrations in flight must be a whole number "
                              "(0 for no bound), not \"%s\"",
                    s.value);
    return false;
  }
  *bound = (size_t)n;
  return true;
}

/* Reads the time the variable env sets (seconds, a positive decimal number
 * of at most a day) into *ms, leaving it when env is unset; false with a
 * message on stderr when it is not such a number. */
static bool engine_time(const char *prog, const char *env, unsigned *ms) {
  setting s = setting_of(NULL, NULL, env, NULL);
  if (s.value == NULL) {
    return true;
  }
  char *end;
  errno = 0;
  double seconds = strtod(s.value, &end);
  bool digit = *s.value >= '0' && *s.value <= '9';
  if (!digit || errno != 0 || *end != '\0' || !(seconds > 0 && seconds <= 86400)) {
    setting_problem(prog, &s, "the time must be a number of seconds, more than 0 and at most "
                              "86400, not \"%s\"",
                    s.value);
    return false;
  }
  *ms = seconds * 1000 < 1 ? 1u : (unsigned)(seconds * 1000);
  return true;
}

/* Returns whether pcl_main checks, after a successful run, that no value is
 * left alive (pcl_values_check_leaks): PCL_CHECK_LEAKS=1 turns the check on
 * and PCL_CHECK_LEAKS=0 off.  Unset, it is on in builds without NDEBUG
 * (every build of the repository, so `make check` runs it) unless C mocks
 * are installed (their caller may keep values of the run until pcl_main
 * returns), and off in release builds. */
static bool leak_check_enabled(void) {
  const char *v = getenv("PCL_CHECK_LEAKS");
  if (v && *v) {
    return strcmp(v, "0") != 0;
  }
#ifdef NDEBUG
  return false;
#else
  return main_mocks == NULL;
#endif
}

/* Writes text[0..len) to path, through a temporary file beside it renamed
 * into place, so that a failure leaves the previous file or none, never a
 * truncated one.  A path that exists and is not a regular file (a device
 * such as /dev/full or /dev/stdout, a pipe) is written in place.  False
 * with *err "cannot write <path>: <the system's reason>". */
static bool write_file(const char *path, const char *text, size_t len, pcl_error **err) {
  struct stat st;
  bool in_place = stat(path, &st) == 0 && !S_ISREG(st.st_mode);
  char *tmp = NULL;
  int fd;
  if (in_place) {
    fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
  } else {
    size_t n = strlen(path);
    tmp = pcl_xmalloc(n + 8);
    memcpy(tmp, path, n);
    memcpy(tmp + n, ".XXXXXX", 8);
    fd = mkstemp(tmp);
    if (fd >= 0) {
      /* mkstemp makes the file private; give it the mode fopen would. */
      mode_t mask = umask(0);
      umask(mask);
      fchmod(fd, 0666 & ~mask);
    }
  }
  bool ok = fd >= 0;
  while (ok && len > 0) {
    ssize_t k = write(fd, text, len);
    if (k < 0 && errno == EINTR) {
      continue;
    }
    ok = k > 0;
    if (ok) {
      text += k;
      len -= (size_t)k;
    }
  }
  int saved = errno;
  if (fd >= 0 && close(fd) != 0 && ok) {
    ok = false;
    saved = errno;
  }
  if (ok && tmp != NULL && rename(tmp, path) != 0) {
    ok = false;
    saved = errno;
  }
  if (!ok) {
    if (tmp != NULL && fd >= 0) {
      unlink(tmp);
    }
    *err = pcl_error_new("cannot write %s: %s", path, strerror(saved ? saved : EIO));
  }
  free(tmp);
  return ok;
}

/* Writes the snapshot file; false and *err on failure. */
static bool write_snapshot(pcl_engine *e, const char *path, const pcl_error *error,
                           pcl_error **err) {
  char *text = e->ops->snapshot(e, error);
  if (text == NULL) {
    *err = pcl_error_new("the %s engine keeps no snapshot", e->ops->name);
    return false;
  }
  bool ok = write_file(path, text, strlen(text), err);
  free(text);
  return ok;
}

/* The memory set aside for writing the snapshot once memory runs out. */
enum { OOM_RESERVE = 64 << 20 };

/* What the handler of exhausted memory needs, while pcl_main runs. */
static struct {
  pcl_run *run;         /* The run, or NULL. */
  const char *snapshot; /* Where its snapshot goes (--snapshot), or NULL. */
} oom;

/* Memory ran out allocating n bytes (pcl__oom_prepare): the run ends with
 * that error, reported and written into the snapshot, then with status 2. */
static void on_out_of_memory(size_t n) {
  fprintf(stderr, "error: out of memory allocating %zu bytes\n", n);
  if (oom.snapshot != NULL && oom.run != NULL && oom.run->engine != NULL) {
    pcl_error *err = pcl_error_new("out of memory allocating %zu bytes", n);
    pcl_error *werr = NULL;
    if (!write_snapshot(oom.run->engine, oom.snapshot, err, &werr)) {
      pcl_error_print(werr, stderr);
      pcl_error_free(werr);
    }
    pcl_error_free(err);
  }
}

/* Prints the stack outputs as JSON, secrets masked unless show; false and
 * *err when stdout cannot take them (a full disk, a closed pipe). */
static bool print_outputs(pcl_future *outs, bool show, pcl_error **err) {
  pcl_value *v = pcl_future_value(outs);
  pcl_strbuf b = PCL_STRBUF_INIT;
  pcl__snap_encode(&b, v ? v : pcl_null(), 0, !show);
  pcl_strbuf_append_char(&b, '\n');
  bool ok = fwrite(b.data, 1, b.len, stdout) == b.len;
  ok = fflush(stdout) == 0 && ok && !ferror(stdout);
  if (!ok) {
    *err = pcl_error_new("cannot write the stack outputs: %s", strerror(errno ? errno : EIO));
  }
  pcl_strbuf_free(&b);
  return ok;
}

/* Runs the program's start function on the run and the loop until
 * nothing can happen any more; records the run's error.  Returns the
 * future of the stack outputs (owned), NULL when the run failed first. */
static pcl_future *run_program(pcl_run *run) {
  current = run;
  pcl_future *stack = pcl__register_stack(run);
  run->program->start(run);
  pcl_sched_run();
  pcl_future *outs = NULL;
  if (run->error == NULL) {
    outs = pcl__register_stack_outputs(run);
    pcl_sched_run();
  } else {
    pcl_mapbuf_free(&run->exports);
  }
  pcl_error *stall = pcl_sched_stall_error();
  if (stall) {
    pcl_run_fail(run, stall);
    run->engine->ops->cancel(run->engine, stall);
    pcl_sched_run();
    pcl_sched_cancel_pending(stall);
    pcl_error_free(stall);
  }
  pcl_error *unhandled = pcl_sched_take_unhandled();
  if (unhandled) {
    pcl_run_fail(run, unhandled);
    pcl_error_free(unhandled);
  }
  pcl_future_release(stack);
  current = NULL;
  return outs;
}

int pcl_main(int argc, char **argv, const pcl_program *program) {
  /* A reader that closed stdout is a write error to report (status 2),
   * not a signal that ends the program silently. */
  signal(SIGPIPE, SIG_IGN);
  const char *prog = argc > 0 ? argv[0] : "program";
  opts o = {0};
  if (!parse_args(argc, argv, &o) || !set_limit(&o, prog)) {
    opts_free(&o);
    return 2;
  }
  if (o.help) {
    usage(stdout, prog);
    opts_free(&o);
    return fflush(stdout) == 0 ? 0 : 2;
  }
  const setting names[] = {
      setting_of(o.project, "--project", "PULUMI_PROJECT",
                 program->name ? program->name : "project"),
      setting_of(o.stack, "--stack", "PULUMI_STACK", "dev"),
      setting_of(o.org, "--organization", "PULUMI_ORGANIZATION", "organization")};
  static const char *const what[] = {"project", "stack", "organization"};
  for (size_t i = 0; i < 3; i++) {
    const char *why = name_problem(names[i].value);
    if (why != NULL) {
      setting_problem(prog, &names[i], "the %s name \"%s\" %s", what[i], names[i].value, why);
      opts_free(&o);
      return 2;
    }
  }
  const setting root = setting_of(o.root, "--root-directory", "PULUMI_ROOT_DIRECTORY", NULL);
  if (root.value != NULL && *root.value == '\0') {
    setting_problem(prog, &root, "the project root directory is empty");
    opts_free(&o);
    return 2;
  }
  const char *monitor = getenv("PULUMI_MONITOR");
  bool hosted = monitor && *monitor;
  pcl__grpc_options grpc = {monitor, getenv("PULUMI_ENGINE"), false, 0,
                            PCL__ENGINE_DEADLINE_MS, PCL__ENGINE_KEEPALIVE_MS, NULL};
  if (hosted && (!parallel_bound(prog, &grpc.parallel) ||
                 !engine_time(prog, "PCL_ENGINE_DEADLINE", &grpc.deadline_ms) ||
                 !engine_time(prog, "PCL_ENGINE_KEEPALIVE", &grpc.keepalive_ms))) {
    opts_free(&o);
    return 2;
  }
  pcl_run run = {0};
  run.program = program;
  oom.run = &run;
  oom.snapshot = o.snapshot;
  pcl__oom_prepare(on_out_of_memory, o.snapshot != NULL ? OOM_RESERVE : 0);
  run.project = pcl_xstrdup(names[0].value);
  run.stack = pcl_xstrdup(names[1].value);
  run.org = pcl_xstrdup(names[2].value);
  const char *dry = getenv("PULUMI_DRY_RUN");
  run.preview = o.preview || (dry && (strcmp(dry, "true") == 0 || strcmp(dry, "1") == 0));
  char cwd[4096];
  run.cwd = pcl_xstrdup(getcwd(cwd, sizeof cwd) ? cwd : ".");
  run.root = pcl_xstrdup(root.value != NULL ? root.value : run.cwd);
  pcl_strbuf sn = PCL_STRBUF_INIT;
  pcl_strbuf_appendf(&sn, "%s-%s", run.project, run.stack);
  run.stack_urn = pcl_urn_make(run.stack, run.project, NULL, "pulumi:pulumi:Stack", sn.data);
  pcl_strbuf_free(&sn);
  run.config = pcl_xcalloc(program->nconfigs ? program->nconfigs : 1, sizeof *run.config);

  /* The input documents: a failure is an I/O or usage error (status 2). */
  int status = 0;
  pcl_error *err = NULL;
  if (!env_config(&o, &err) || !read_sources(&o, &err)) {
    status = 2;
  }
  pcl__config_qualify(&o.cfg, run.project);
  pcl__config_mark_secret(&o.cfg, o.secret_keys, run.project);
  pcl_value *refs = pcl_mapbuf_finish(&o.refs);
  pcl_value *stack_config = pcl__config_map(&o.cfg);
  pcl_embedded_config ec = {run.project, run.stack,   run.org,
                            run.preview, main_mocks,  o.mocks,
                            pcl_len(refs) ? refs : NULL, pcl_len(stack_config) ? stack_config : NULL};
  grpc.preview = run.preview;
  grpc.cwd = run.cwd;
  if (status == 0) {
    run.engine =
        hosted ? pcl__engine_grpc_new(&grpc, &err)
               : pcl_engine_embedded_new(&ec, &err);
    /* An engine that hosts the run and cannot be used is an engine error;
     * the embedded engine refuses only its input documents. */
    if (run.engine == NULL) {
      status = hosted ? 1 : 2;
    }
  }
  if (run.engine == NULL && !hosted) {
    /* An engine without the inputs that failed, for the snapshot. */
    pcl_embedded_config bare = {run.project, run.stack, run.org, run.preview,
                                NULL,        NULL,      NULL,    NULL};
    pcl_error *none = NULL;
    run.engine = pcl_engine_embedded_new(&bare, &none);
  }
  /* The declared config: a bad or missing value is an error in the
   * program's inputs, located at the declaration (status 1). */
  if (status == 0 && !load_config(&run, &o, &err)) {
    status = 1;
  }
  pcl_future *outs = NULL;
  if (status == 0) {
    outs = run_program(&run);
    status = run.error ? 1 : 0;
  } else {
    pcl_run_fail(&run, err);
    pcl_error_free(err);
    err = NULL;
  }
  if (run.engine != NULL && run.engine->ops->finish) {
    /* The backend finishes the run: a hosting engine is told the error. */
    run.engine->ops->finish(run.engine, run.error);
    pcl_sched_run();
  }
  /* The snapshot is written after every error too (docs/snapshot.md). */
  if (o.snapshot && run.engine != NULL &&
      !write_snapshot(run.engine, o.snapshot, run.error, &err)) {
    pcl_error_print(err, stderr);
    pcl_error_free(err);
    err = NULL;
    status = 2;
  }
  if (run.error == NULL && run.engine != NULL && run.engine->finish_failed) {
    /* The backend printed why finishing failed. */
    status = 1;
  } else if (run.error && run.engine != NULL && run.engine->error_reported) {
    /* The engine shows the error; 32 tells the CLI not to repeat it. */
    status = 32;
  } else if (run.error) {
    pcl_error_print(run.error, stderr);
  } else if (outs && run.engine != NULL && !run.engine->hosted &&
             !print_outputs(outs, o.show_secrets, &err)) {
    pcl_error_print(err, stderr);
    pcl_error_free(err);
    status = 2;
  }
  pcl_future_release(outs);
  pcl__oom_prepare(NULL, 0);
  oom.run = NULL;
  oom.snapshot = NULL;
  if (run.engine != NULL) {
    run.engine->ops->destroy(run.engine);
  }
  for (size_t i = 0; run.config && i < program->nconfigs; i++) {
    pcl_release(run.config[i]);
  }
  free(run.config);
  pcl_mapbuf_free(&run.exports);
  pcl__run_res_free(&run);
  pcl_error_free(run.error);
  pcl_error_free(run.failure);
  free(run.project);
  free(run.stack);
  free(run.org);
  free(run.cwd);
  free(run.root);
  free(run.stack_urn);
  pcl_release(refs);
  pcl_release(stack_config);
  opts_free(&o);
  pcl_error_free(pcl_sched_take_unhandled());
  if (pcl_sched_pending() == 0) {
    pcl_sched_shutdown();
  }
  if (status == 0 && leak_check_enabled() && !pcl_values_check_leaks(stderr)) {
    fprintf(stderr, "error: the run leaked values (PCL_CHECK_LEAKS=0 turns this check off)\n");
    status = 1;
  }
  return status;
}
