/* run: LanguageRuntime.Run (run.h). */
#include "run.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "client.h"
#include "pclc_diag.h"
#include "pulumi/pulumirpc.pb-c.h"
#include "toolchain.h"

/* How long the engine may take to take a log message. */
enum { LOG_TIMEOUT_S = 30 };

/* The exit status by which a program says that it reported its error to
   the engine already (the SDKs' convention). */
enum { EXIT_REPORTED = 32 };

/* Sends msg to the engine's log at engine with the given severity
   (Pulumirpc__LogSeverity); false when it could not be delivered. */
static bool run_log(const char *engine, int severity, const char *msg) {
  if (!engine || !*engine) {
    return false;
  }
  Pulumirpc__LogRequest req = PULUMIRPC__LOG_REQUEST__INIT;
  req.severity = (Pulumirpc__LogSeverity)severity;
  req.message = (char *)msg;
  req.urn = (char *)"";
  buf answer = {0};
  herr e = {0};
  bool ok = client_call(engine, "/pulumirpc.Engine/Log", &req.base, LOG_TIMEOUT_S, &answer, NULL,
                        &e);
  if (!ok) {
    fprintf(stderr, "pulumi-language-pclc: %s\n", e.msg);
  }
  pcl__buf_free(&answer);
  herr_clear(&e);
  return ok;
}

/* The variables the host sets for the program (any the host itself has
   are replaced). */
static const char *const contract[] = {
    "PULUMI_MONITOR", "PULUMI_ENGINE",         "PULUMI_PROJECT",
    "PULUMI_STACK",   "PULUMI_ORGANIZATION",   "PULUMI_ROOT_DIRECTORY",
    "PULUMI_CONFIG",  "PULUMI_CONFIG_SECRET_KEYS", "PULUMI_DRY_RUN",
    "PULUMI_PARALLEL"};

static bool in_contract(const char *entry) {
  for (size_t i = 0; i < sizeof contract / sizeof contract[0]; i++) {
    size_t n = strlen(contract[i]);
    if (strncmp(entry, contract[i], n) == 0 && entry[n] == '=') {
      return true;
    }
  }
  return false;
}

/* Returns the program's environment: the host's without the contract's
   variables, then the contract's from req (heap strings, NULL-terminated). */
static char **program_env(const Pulumirpc__RunRequest *req, const char *engine) {
  extern char **environ;
  size_t n = 0;
  while (environ[n]) {
    n++;
  }
  char **env = xcalloc(n + sizeof contract / sizeof contract[0] + 1, sizeof *env);
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (!in_contract(environ[i])) {
      env[k++] = xstrdup(environ[i]);
    }
  }
  json_t *config = json_object();
  for (size_t i = 0; i < req->n_config; i++) {
    json_object_set_new(config, req->config[i]->key, json_string(req->config[i]->value));
  }
  json_t *secrets = json_array();
  for (size_t i = 0; i < req->n_configsecretkeys; i++) {
    json_array_append_new(secrets, json_string(req->configsecretkeys[i]));
  }
  char *config_text = json_dumps(config, JSON_COMPACT | JSON_SORT_KEYS);
  char *secrets_text = json_dumps(secrets, JSON_COMPACT);
  json_decref(config);
  json_decref(secrets);
  env[k++] = pcl__format("PULUMI_MONITOR=%s", req->monitor_address);
  if (engine && *engine) {
    env[k++] = pcl__format("PULUMI_ENGINE=%s", engine);
  }
  env[k++] = pcl__format("PULUMI_PROJECT=%s", req->project);
  env[k++] = pcl__format("PULUMI_STACK=%s", req->stack);
  if (req->organization && *req->organization) {
    env[k++] = pcl__format("PULUMI_ORGANIZATION=%s", req->organization);
  }
  const char *root = req->info && *req->info->root_directory ? req->info->root_directory : req->pwd;
  env[k++] = pcl__format("PULUMI_ROOT_DIRECTORY=%s", root);
  env[k++] = pcl__format("PULUMI_CONFIG=%s", config_text);
  env[k++] = pcl__format("PULUMI_CONFIG_SECRET_KEYS=%s", secrets_text);
  env[k++] = pcl__format("PULUMI_DRY_RUN=%s", req->dryrun ? "true" : "false");
  env[k++] = pcl__format("PULUMI_PARALLEL=%d", req->parallel > 0 ? req->parallel : 0);
  free(config_text);
  free(secrets_text);
  env[k] = NULL;
  return env;
}

static void env_free(char **env) {
  for (size_t i = 0; env[i]; i++) {
    free(env[i]);
  }
  free(env);
}

/* Sends each of pclc's messages in text to the engine's log, as an error
   or a warning, in the form of the program's own errors
   (`main.pp:3:11: message` and the source lines); false when there was
   none or one could not be delivered. */
static bool log_diags(const char *engine, const char *text) {
  pdiag_list l = {0};
  pdiag_parse(text, &l);
  bool ok = l.n > 0;
  for (size_t i = 0; i < l.n; i++) {
    char *m = pdiag_text(&l.v[i]);
    ok = run_log(engine, l.v[i].warning ? PULUMIRPC__LOG_SEVERITY__WARNING
                                        : PULUMIRPC__LOG_SEVERITY__ERROR,
                 m) &&
         ok;
    free(m);
  }
  pdiag_free(&l);
  return ok;
}

static run_outcome fail(char *error) {
  return (run_outcome){error, false};
}

run_outcome run_program(const Pulumirpc__RunRequest *req, const char *dir, const char *engine,
                        proc_group *g) {
  if (req->attach_debugger) {
    return fail(xstrdup("pclc programs cannot be run under a debugger from the engine; build the "
                        "program with pclc and run it under gdb (docs/codegen.md)"));
  }
  herr e = {0};
  const toolchain *tc;
  if (!toolchain_get(g, &tc, &e)) {
    return fail(e.msg);
  }
  if (!is_dir(dir)) {
    return fail(pcl__format(
        "the program of runtime pclc is a directory of .pp files; %s is not a directory", dir));
  }
  buf diags = {0};
  char *exe = NULL;
  bool cached;
  build_status st = build_program(tc, g, dir, req->loader_target, &exe, &cached, &diags, &e);
  if (st == BUILD_PROGRAM_ERROR) {
    /* pclc's located messages go to the engine as the program's errors,
       which the CLI shows; then the run bails, as an SDK's does after a
       compile error. */
    if (log_diags(engine, buf_str(&diags))) {
      pcl__buf_free(&diags);
      return (run_outcome){NULL, true};
    }
    run_outcome o = fail(xstrdup(buf_str(&diags)));
    pcl__buf_free(&diags);
    return o;
  }
  if (st == BUILD_FAILED) {
    pcl__buf_free(&diags);
    return fail(e.msg);
  }
  log_diags(engine, buf_str(&diags));
  pcl__buf_free(&diags);

  char **env = program_env(req, engine);
  const char **argv = xcalloc(req->n_args + 2, sizeof *argv);
  argv[0] = exe;
  for (size_t i = 0; i < req->n_args; i++) {
    argv[i + 1] = req->args[i];
  }
  proc_spec s = {argv, req->pwd && *req->pwd ? req->pwd : NULL, (const char *const *)env, false,
                 false};
  proc_result r;
  run_outcome o = {NULL, false};
  if (!proc_run(g, &s, &r, &e)) {
    o = fail(e.msg);
    e.msg = NULL;
  } else if (r.cancelled) {
    o = fail(xstrdup("the program was cancelled"));
  } else if (r.status == EXIT_REPORTED) {
    o.bail = true;
  } else if (r.status != 0) {
    char *how = proc_describe(&r);
    o = fail(pcl__format("the program %s", how));
    free(how);
  }
  proc_result_free(&r);
  free(argv);
  env_free(env);
  free(exe);
  herr_clear(&e);
  return o;
}
