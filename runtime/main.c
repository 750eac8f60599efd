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
 * Exit status: 0 success, 1 program or engine error (message on stderr in
 * the D11 form), 2 usage error, 32 an error the hosting engine was told
 * (and shows itself), as the SDKs exit.  A run that can make no progress
 * while futures are pending ends with an error naming what it waits for. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"
#include "rpc.h"

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

/* One raw config entry. */
typedef struct centry {
  char *key;   /* Full key "<namespace>:<name>" (owned). */
  char *text;  /* Raw text (owned). */
  bool secret; /* Marked secret. */
} centry;

/* The options of one invocation. */
typedef struct opts {
  const char *project, *stack, *org, *snapshot, *mocks, *root;
  bool preview, show_secrets, help;
  centry *cfg;      /* Raw config, later entries win. */
  size_t ncfg;      /* Entries. */
  pcl_mapbuf refs;  /* Stack references. */
  pcl_value *secret_keys; /* PULUMI_CONFIG_SECRET_KEYS (a LIST, owned) or NULL. */
} opts;

static void cfg_put(opts *o, const char *project, const char *key, const char *text,
                    bool secret) {
  o->cfg = pcl_xrealloc(o->cfg, (o->ncfg + 1) * sizeof *o->cfg);
  centry *c = &o->cfg[o->ncfg++];
  if (strchr(key, ':') == NULL && project) {
    pcl_strbuf b = PCL_STRBUF_INIT;
    pcl_strbuf_appendf(&b, "%s:%s", project, key);
    c->key = b.data;
  } else {
    c->key = pcl_xstrdup(key);
  }
  c->text = pcl_xstrdup(text);
  c->secret = secret;
}

static void cfg_mark_secret(opts *o, const char *key) {
  for (size_t i = 0; i < o->ncfg; i++) {
    if (strcmp(o->cfg[i].key, key) == 0) {
      o->cfg[i].secret = true;
    }
  }
}

/* Returns the entry of key (the last one), or NULL. */
static const centry *cfg_get(const opts *o, const char *key) {
  for (size_t i = o->ncfg; i-- > 0;) {
    if (strcmp(o->cfg[i].key, key) == 0) {
      return &o->cfg[i];
    }
  }
  return NULL;
}

/* Reads a whole file into a value decoded from JSON; NULL and *err. */
static pcl_value *read_json_file(const char *path, pcl_error **err) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    *err = pcl_error_new("cannot read '%s': %s", path, strerror(errno));
    return NULL;
  }
  pcl_strbuf b = PCL_STRBUF_INIT;
  char chunk[4096];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
    pcl_strbuf_append(&b, chunk, n);
  }
  fclose(f);
  pcl_value *v = pcl_json_decode(b.data ? b.data : "", b.len, 0, err);
  pcl_strbuf_free(&b);
  if (v == NULL) {
    pcl_error_prefix(*err, "'%s'", path);
  }
  return v;
}

/* Adds the config of a JSON object (PULUMI_CONFIG or --config-file): a
 * string value is the raw text, {"value": text, "secret": bool} sets both,
 * any other JSON value is passed as its JSON text. */
static bool cfg_from_json(opts *o, const char *project, pcl_value *m, const char *what,
                          pcl_error **err) {
  if (pcl_kind_of(m) != PCL_T_MAP) {
    *err = pcl_error_new("%s must be a JSON object", what);
    return false;
  }
  for (size_t i = 0; i < pcl_len(m); i++) {
    const char *k = pcl_str_data(pcl_map_key_at(m, i));
    pcl_value *v = pcl_map_val_at(m, i);
    bool secret = false;
    pcl_value *inner = pcl_kind_of(v) == PCL_T_MAP ? pcl_map_get_cstr(v, "value") : NULL;
    if (inner) {
      pcl_value *s = pcl_map_get_cstr(v, "secret");
      secret = s && pcl_kind_of(s) == PCL_T_BOOL && pcl_bool_get(s);
      v = inner;
    }
    if (pcl_kind_of(v) == PCL_T_STRING) {
      cfg_put(o, project, k, pcl_str_data(v), secret);
    } else {
      char *text = pcl_json_encode(v, 0, NULL, err);
      if (text == NULL) {
        return false;
      }
      cfg_put(o, project, k, text, secret);
      free(text);
    }
  }
  return true;
}

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
          "  --show-secrets         print secret stack outputs in clear\n"
          "  --help                 print this help\n",
          prog);
}

/* Parses argv into o; returns false with a message on stderr on misuse. */
static bool parse_args(int argc, char **argv, opts *o, pcl_error **err) {
  const char *prog = argc > 0 ? argv[0] : "program";
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *val = NULL;
    static const char *const with_arg[] = {"--project", "--stack", "--organization", "--config",
                                           "--secret", "--config-file", "--snapshot", "--mocks",
                                           "--stack-reference", "--root-directory"};
    bool takes = false;
    for (size_t j = 0; j < sizeof with_arg / sizeof with_arg[0]; j++) {
      size_t l = strlen(with_arg[j]);
      if (strncmp(a, with_arg[j], l) == 0 && (a[l] == 0 || a[l] == '=')) {
        takes = true;
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
    if (!takes) {
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
    if (strncmp(a, "--project", 9) == 0) {
      o->project = val;
    } else if (strncmp(a, "--stack-reference", 17) == 0) {
      const char *eq = strchr(val, '=');
      if (eq == NULL) {
        fprintf(stderr, "%s: --stack-reference needs NAME=FILE\n", prog);
        return false;
      }
      pcl_value *v = read_json_file(eq + 1, err);
      if (v == NULL) {
        return true;
      }
      /* A plain object of outputs, or {"outputs": ..., "secretOutputNames": ...}. */
      pcl_value *decoded = pcl__snap_decode(v);
      pcl_release(v);
      if (pcl_kind_of(decoded) != PCL_T_MAP || !pcl_map_get_cstr(decoded, "outputs")) {
        pcl_mapbuf mb = PCL_MAPBUF_INIT;
        pcl_mapbuf_put_cstr(&mb, "outputs", decoded);
        decoded = pcl_mapbuf_finish(&mb);
      }
      pcl_mapbuf_put_take(&o->refs, pcl_str_new_lossy(val, (size_t)(eq - val)), decoded);
    } else if (strncmp(a, "--stack", 7) == 0) {
      o->stack = val;
    } else if (strncmp(a, "--organization", 14) == 0) {
      o->org = val;
    } else if (strncmp(a, "--config-file", 13) == 0) {
      pcl_value *v = read_json_file(val, err);
      if (v) {
        cfg_from_json(o, NULL, v, val, err);
        pcl_release(v);
      }
      if (*err) {
        return true;
      }
    } else if (strncmp(a, "--config", 8) == 0 || strncmp(a, "--secret", 8) == 0) {
      const char *eq = strchr(val, '=');
      if (eq == NULL) {
        fprintf(stderr, "%s: %s needs KEY=VALUE\n", prog, a);
        return false;
      }
      char *k = pcl_xmalloc((size_t)(eq - val) + 1);
      memcpy(k, val, (size_t)(eq - val));
      k[eq - val] = 0;
      cfg_put(o, NULL, k, eq + 1, strncmp(a, "--secret", 8) == 0);
      free(k);
    } else if (strncmp(a, "--snapshot", 10) == 0) {
      o->snapshot = val;
    } else if (strncmp(a, "--mocks", 7) == 0) {
      o->mocks = val;
    } else if (strncmp(a, "--root-directory", 16) == 0) {
      o->root = val;
    }
  }
  return true;
}

/* Qualifies keys given without a namespace once the project is known. */
static void qualify_keys(opts *o, const char *project) {
  for (size_t i = 0; i < o->ncfg; i++) {
    if (strchr(o->cfg[i].key, ':') == NULL) {
      pcl_strbuf b = PCL_STRBUF_INIT;
      pcl_strbuf_appendf(&b, "%s:%s", project, o->cfg[i].key);
      free(o->cfg[i].key);
      o->cfg[i].key = b.data;
    }
  }
}

/* Reads PULUMI_CONFIG and PULUMI_CONFIG_SECRET_KEYS (before the flags, so
 * flags win). */
static bool env_config(opts *o, pcl_error **err) {
  const char *c = getenv("PULUMI_CONFIG");
  if (c && *c) {
    pcl_value *v = pcl_json_decode(c, strlen(c), 0, err);
    if (v == NULL) {
      pcl_error_prefix(*err, "PULUMI_CONFIG");
      return false;
    }
    bool ok = cfg_from_json(o, NULL, v, "PULUMI_CONFIG", err);
    pcl_release(v);
    if (!ok) {
      return false;
    }
  }
  const char *s = getenv("PULUMI_CONFIG_SECRET_KEYS");
  if (s && *s) {
    pcl_value *v = pcl_json_decode(s, strlen(s), 0, err);
    if (v == NULL || pcl_kind_of(v) != PCL_T_LIST) {
      pcl_release(v);
      pcl_error_free(*err);
      *err = pcl_error_new("PULUMI_CONFIG_SECRET_KEYS must be a JSON array of keys");
      return false;
    }
    /* The keys are marked once every source of config is read
     * (mark_secret_keys): a key set by a flag is secret too. */
    o->secret_keys = v;
  }
  return true;
}

/* Marks the entries whose keys PULUMI_CONFIG_SECRET_KEYS lists secret,
 * whatever source set them (after qualify_keys; a listed key without a
 * namespace is the project's). */
static void mark_secret_keys(opts *o, const char *project) {
  for (size_t i = 0; o->secret_keys && i < pcl_len(o->secret_keys); i++) {
    pcl_value *k = pcl_list_at(o->secret_keys, i);
    if (pcl_kind_of(k) != PCL_T_STRING) {
      continue;
    }
    if (strchr(pcl_str_data(k), ':')) {
      cfg_mark_secret(o, pcl_str_data(k));
    } else {
      pcl_strbuf b = PCL_STRBUF_INIT;
      pcl_strbuf_appendf(&b, "%s:%s", project, pcl_str_data(k));
      cfg_mark_secret(o, b.data);
      pcl_strbuf_free(&b);
    }
  }
}

/* Returns the whole stack config (owned MAP): full key -> STRING text,
 * SECRET when marked secret; the last entry of a key wins. */
static pcl_value *config_map(const opts *o) {
  pcl_mapbuf mb = PCL_MAPBUF_INIT;
  for (size_t i = 0; i < o->ncfg; i++) {
    const centry *c = &o->cfg[i];
    if (cfg_get(o, c->key) != c) {
      continue;
    }
    pcl_value *v = pcl_str_from_cstr(c->text);
    if (c->secret) {
      pcl_value *sv = pcl_secret_new(v);
      pcl_release(v);
      v = sv;
    }
    pcl_mapbuf_put_take(&mb, pcl_str_from_cstr(c->key), v);
  }
  return pcl_mapbuf_finish(&mb);
}

/* Loads every declared config variable into run->config. */
static bool load_config(pcl_run *run, const opts *o, pcl_error **err) {
  const pcl_program *p = run->program;
  run->config = pcl_xcalloc(p->nconfigs ? p->nconfigs : 1, sizeof *run->config);
  for (size_t i = 0; i < p->nconfigs; i++) {
    const pcl_config_decl *d = &p->configs[i];
    pcl_strbuf key = PCL_STRBUF_INIT;
    pcl_strbuf_appendf(&key, "%s:%s", run->project, d->name);
    const centry *c = cfg_get(o, key.data);
    pcl_value *v = NULL;
    bool secret = d->secret;
    if (c) {
      v = pcl_config_parse(d->name, c->text, d->type, err);
      secret = secret || c->secret;
    } else if (d->default_value) {
      v = pcl_retain(d->default_value);
    } else if (d->has_default_expr) {
      v = NULL;
    } else if (d->nullable || d->type->kind == PCL_TY_OPTIONAL) {
      v = pcl_null();
    } else {
      *err = pcl_error_new("missing required configuration value \"%s\"", d->name);
    }
    pcl_strbuf_free(&key);
    if (*err) {
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
  for (size_t i = 0; i < o->ncfg; i++) {
    free(o->cfg[i].key);
    free(o->cfg[i].text);
  }
  free(o->cfg);
  pcl_mapbuf_free(&o->refs);
  pcl_release(o->secret_keys);
}

static const char *env_or(const char *flag, const char *env, const char *dflt) {
  if (flag) {
    return flag;
  }
  const char *e = getenv(env);
  return e && *e ? e : dflt;
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

/* Writes the snapshot file; false and a message on stderr on failure. */
static bool write_snapshot(pcl_engine *e, const char *path, const pcl_error *error) {
  char *text = e->ops->snapshot(e, error);
  if (text == NULL) {
    fprintf(stderr, "error: the %s engine keeps no snapshot\n", e->ops->name);
    return false;
  }
  FILE *f = fopen(path, "wb");
  bool ok = f && fputs(text, f) >= 0;
  if (f && fclose(f) != 0) {
    ok = false;
  }
  if (!ok) {
    fprintf(stderr, "error: cannot write snapshot '%s': %s\n", path, strerror(errno));
  }
  free(text);
  return ok;
}

/* Prints the stack outputs as JSON, secrets masked unless show. */
static void print_outputs(pcl_future *outs, bool show) {
  pcl_value *v = pcl_future_value(outs);
  pcl_strbuf b = PCL_STRBUF_INIT;
  pcl__snap_encode(&b, v ? v : pcl_null(), 0, !show);
  printf("%s\n", b.data);
  pcl_strbuf_free(&b);
}

int pcl_main(int argc, char **argv, const pcl_program *program) {
  opts o = {0};
  pcl_error *err = NULL;
  if (!env_config(&o, &err) || !parse_args(argc, argv, &o, &err)) {
    opts_free(&o);
    if (err) {
      pcl_error_print(err, stderr);
      pcl_error_free(err);
    }
    return 2;
  }
  if (err) {
    pcl_error_print(err, stderr);
    pcl_error_free(err);
    opts_free(&o);
    return 2;
  }
  if (o.help) {
    usage(stdout, argc > 0 ? argv[0] : "program");
    opts_free(&o);
    return 0;
  }
  pcl_run run = {0};
  run.program = program;
  run.project = pcl_xstrdup(
      env_or(o.project, "PULUMI_PROJECT", program->name ? program->name : "project"));
  run.stack = pcl_xstrdup(env_or(o.stack, "PULUMI_STACK", "dev"));
  run.org = pcl_xstrdup(env_or(o.org, "PULUMI_ORGANIZATION", "organization"));
  const char *dry = getenv("PULUMI_DRY_RUN");
  run.preview = o.preview || (dry && (strcmp(dry, "true") == 0 || strcmp(dry, "1") == 0));
  char cwd[4096];
  run.cwd = pcl_xstrdup(getcwd(cwd, sizeof cwd) ? cwd : ".");
  run.root = pcl_xstrdup(env_or(o.root, "PULUMI_ROOT_DIRECTORY", run.cwd));
  pcl_strbuf sn = PCL_STRBUF_INIT;
  pcl_strbuf_appendf(&sn, "%s-%s", run.project, run.stack);
  run.stack_urn = pcl_urn_make(run.stack, run.project, NULL, "pulumi:pulumi:Stack", sn.data);
  pcl_strbuf_free(&sn);
  qualify_keys(&o, run.project);
  mark_secret_keys(&o, run.project);

  int status = 0;
  pcl_value *refs = pcl_mapbuf_finish(&o.refs);
  pcl_value *stack_config = config_map(&o);
  pcl_embedded_config ec = {run.project, run.stack,   run.org,
                            run.preview, main_mocks,  o.mocks,
                            pcl_len(refs) ? refs : NULL, pcl_len(stack_config) ? stack_config : NULL};
  const char *monitor = getenv("PULUMI_MONITOR");
  if (!load_config(&run, &o, &err) ||
      (run.engine = monitor && *monitor
                        ? pcl__engine_grpc_new(monitor, getenv("PULUMI_ENGINE"), run.preview, &err)
                        : pcl_engine_embedded_new(&ec, &err)) == NULL) {
    pcl_error_print(err, stderr);
    pcl_error_free(err);
    status = 1;
  } else {
    current = &run;
    pcl_future *stack = pcl__register_stack(&run);
    program->start(&run);
    pcl_sched_run();
    pcl_future *outs = NULL;
    if (run.error == NULL) {
      outs = pcl__register_stack_outputs(&run);
      pcl_sched_run();
    } else {
      pcl_mapbuf_free(&run.exports);
    }
    pcl_error *stall = pcl_sched_stall_error();
    if (stall) {
      pcl_run_fail(&run, stall);
      run.engine->ops->cancel(run.engine, stall);
      pcl_sched_run();
      pcl_sched_cancel_pending(stall);
      pcl_error_free(stall);
    }
    pcl_error *unhandled = pcl_sched_take_unhandled();
    if (unhandled) {
      pcl_run_fail(&run, unhandled);
      pcl_error_free(unhandled);
    }
    if (run.engine->ops->finish) {
      run.engine->ops->finish(run.engine, run.error);
      pcl_sched_run();
    }
    if (o.snapshot && !write_snapshot(run.engine, o.snapshot, run.error)) {
      status = 2;
    }
    if (run.error && run.engine->error_reported) {
      /* The engine shows the error; 32 tells the CLI not to repeat it. */
      status = 32;
    } else if (run.error) {
      pcl_error_print(run.error, stderr);
      status = 1;
    } else if (outs && !run.engine->hosted) {
      print_outputs(outs, o.show_secrets);
    }
    pcl_future_release(stack);
    pcl_future_release(outs);
    run.engine->ops->destroy(run.engine);
    current = NULL;
  }
  for (size_t i = 0; run.config && i < program->nconfigs; i++) {
    pcl_release(run.config[i]);
  }
  free(run.config);
  pcl_mapbuf_free(&run.exports);
  pcl__run_res_free(&run);
  pcl_error_free(run.error);
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
