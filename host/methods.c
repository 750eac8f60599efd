/* methods: the LanguageRuntime service (methods.h).
 *
 * methods_serve unpacks a call's request with the descriptor its method's
 * row names (a request that does not decode is INVALID_ARGUMENT), the
 * method does its work on the call's own thread and answers, and the
 * request is freed after.  A failure of the host (a missing toolchain, a
 * file that cannot be written) is INTERNAL with the message (reply_or_fail);
 * failures of the program are the answer's own fields (Run's error and
 * bail, diagnostics). */
#include "methods.h"

#include <nettle/base64.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "google/protobuf/empty.pb-c.h"
#include "health.h"
#include "project.h"
#include "pulumi/language.pb-c.h"
#include "run.h"
#include "toolchain.h"
#include "util.h"

static pthread_mutex_t engine_lock = PTHREAD_MUTEX_INITIALIZER;
static char *engine_address; /* The engine's address, or NULL. */

void methods_set_engine(const char *address) {
  pthread_mutex_lock(&engine_lock);
  if (address && *address && !engine_address) {
    engine_address = xstrdup(address);
  }
  pthread_mutex_unlock(&engine_lock);
}

/* Returns the engine's address (heap copy; NULL when unknown). */
static char *methods_engine(void) {
  pthread_mutex_lock(&engine_lock);
  char *a = xstrdup(engine_address);
  pthread_mutex_unlock(&engine_lock);
  return a;
}

void methods_end(void) {
  pthread_mutex_lock(&engine_lock);
  free(engine_address);
  engine_address = NULL;
  pthread_mutex_unlock(&engine_lock);
}

/* Returns the program directory a ProgramInfo names: its program directory
   with its entry point when that is not "." (else pwd, for engines that
   send no ProgramInfo). */
static char *program_dir(const Pulumirpc__ProgramInfo *info, const char *pwd) {
  if (!info || !*info->program_directory) {
    return xstrdup(pwd && *pwd ? pwd : ".");
  }
  const char *entry = info->entry_point;
  if (!*entry || strcmp(entry, ".") == 0) {
    return xstrdup(info->program_directory);
  }
  return path_join(info->program_directory, entry);
}

/* Lists the packages of the program in dir, answering c with the failure
   when that does not work (then returns false). */
static bool list_uses(srv_call *c, const char *dir, program_uses *u) {
  herr e = {0};
  const toolchain *tc;
  buf diags = {0};
  build_status st = BUILD_FAILED;
  if (toolchain_get(srv_procs(c), &tc, &e)) {
    st = build_uses(tc, srv_procs(c), dir, u, &diags, &e);
  }
  if (st == BUILD_PROGRAM_ERROR) {
    srv_fail(c, GRPC_STATUS_INVALID_ARGUMENT, "the program in %s has errors:\n%s", dir,
             buf_str(&diags));
  } else if (st == BUILD_FAILED) {
    srv_fail(c, GRPC_STATUS_INTERNAL, "%s", e.msg);
  }
  pcl__buf_free(&diags);
  herr_clear(&e);
  return st == BUILD_OK;
}

/* Decodes the base64 parameter of a package into bytes (heap). */
static ProtobufCBinaryData decode_param(const char *text) {
  size_t len = strlen(text);
  size_t n = BASE64_DECODE_LENGTH(len);
  uint8_t *out = xmalloc(n + 1);
  struct base64_decode_ctx ctx;
  base64_decode_init(&ctx);
  if (!base64_decode_update(&ctx, &n, out, len, text) || !base64_decode_final(&ctx)) {
    n = 0;
  }
  return (ProtobufCBinaryData){n, out};
}

/* -------------------------------------------------------------- methods */

static void handshake(srv_call *c, const void *request) {
  const Pulumirpc__LanguageHandshakeRequest *req = request;
  if (!*req->engine_address) {
    srv_fail(c, GRPC_STATUS_INVALID_ARGUMENT, "Handshake needs the engine's address");
    return;
  }
  methods_set_engine(req->engine_address);
  health_watch(req->engine_address);
  Pulumirpc__LanguageHandshakeResponse resp = PULUMIRPC__LANGUAGE_HANDSHAKE_RESPONSE__INIT;
  srv_reply(c, &resp.base);
}

static void get_required_packages(srv_call *c, const void *request) {
  const Pulumirpc__GetRequiredPackagesRequest *req = request;
  char *dir = program_dir(req->info, NULL);
  program_uses u = {0};
  if (!list_uses(c, dir, &u)) {
    free(dir);
    return;
  }
  free(dir);
  Pulumirpc__GetRequiredPackagesResponse resp = PULUMIRPC__GET_REQUIRED_PACKAGES_RESPONSE__INIT;
  Pulumirpc__PackageDependency *deps = xcalloc(u.npkgs, sizeof *deps);
  Pulumirpc__PackageParameterization *params = xcalloc(u.npkgs, sizeof *params);
  resp.packages = xcalloc(u.npkgs, sizeof *resp.packages);
  resp.n_packages = u.npkgs;
  for (size_t i = 0; i < u.npkgs; i++) {
    const pkg_use *p = &u.pkgs[i];
    Pulumirpc__PackageDependency *d = &deps[i];
    pulumirpc__package_dependency__init(d);
    d->name = p->name;
    d->kind = (char *)"resource";
    d->version = p->version ? p->version : (char *)"";
    d->server = p->url ? p->url : (char *)"";
    if (p->param_name) {
      pulumirpc__package_parameterization__init(&params[i]);
      params[i].name = p->param_name;
      params[i].version = p->param_version ? p->param_version : (char *)"";
      params[i].value = decode_param(p->param_value ? p->param_value : "");
      d->parameterization = &params[i];
    }
    resp.packages[i] = d;
  }
  srv_reply(c, &resp.base);
  for (size_t i = 0; i < u.npkgs; i++) {
    free(params[i].value.data);
  }
  free(params);
  free(deps);
  free(resp.packages);
  program_uses_free(&u);
}

static void get_required_plugins(srv_call *c, const void *request) {
  const Pulumirpc__GetRequiredPluginsRequest *req = request;
  char *dir = program_dir(req->info, req->pwd);
  program_uses u = {0};
  if (!list_uses(c, dir, &u)) {
    free(dir);
    return;
  }
  free(dir);
  /* A plugin serves every parameterization of it: each plugin once. */
  Pulumirpc__GetRequiredPluginsResponse resp = PULUMIRPC__GET_REQUIRED_PLUGINS_RESPONSE__INIT;
  Pulumirpc__PluginDependency *deps = xcalloc(u.npkgs, sizeof *deps);
  resp.plugins = xcalloc(u.npkgs, sizeof *resp.plugins);
  for (size_t i = 0; i < u.npkgs; i++) {
    const pkg_use *p = &u.pkgs[i];
    const char *version = p->version ? p->version : "", *server = p->url ? p->url : "";
    bool seen = false;
    for (size_t k = 0; k < resp.n_plugins && !seen; k++) {
      seen = strcmp(deps[k].name, p->name) == 0 && strcmp(deps[k].version, version) == 0 &&
             strcmp(deps[k].server, server) == 0;
    }
    if (seen) {
      continue;
    }
    Pulumirpc__PluginDependency *d = &deps[resp.n_plugins];
    pulumirpc__plugin_dependency__init(d);
    d->name = p->name;
    d->kind = (char *)"resource";
    d->version = (char *)version;
    d->server = (char *)server;
    resp.plugins[resp.n_plugins++] = d;
  }
  srv_reply(c, &resp.base);
  free(deps);
  free(resp.plugins);
  program_uses_free(&u);
}

static void run(srv_call *c, const void *request) {
  const Pulumirpc__RunRequest *req = request;
  char *dir = program_dir(req->info, req->pwd);
  char *engine = methods_engine();
  run_outcome o = run_program(req, dir, engine, srv_procs(c));
  free(engine);
  free(dir);
  Pulumirpc__RunResponse resp = PULUMIRPC__RUN_RESPONSE__INIT;
  resp.error = o.error ? o.error : (char *)"";
  resp.bail = o.bail;
  srv_reply(c, &resp.base);
  free(o.error);
}

static void get_plugin_info(srv_call *c, const void *request) {
  (void)request;
  Pulumirpc__PluginInfo resp = PULUMIRPC__PLUGIN_INFO__INIT;
  resp.version = (char *)host_version;
  srv_reply(c, &resp.base);
}

/* The first line of `cc --version` ("cc (Debian 12.2.0-14) 12.2.0"). */
static char *cc_version(const toolchain *tc, proc_group *g, herr *e) {
  const char **argv = NULL;
  size_t n = 0;
  words_append(&argv, &n, &tc->cc);
  argv_add(&argv, &n, "--version");
  proc_spec s = {argv, NULL, NULL, true, true};
  proc_result r;
  bool ok = proc_run(g, &s, &r, e);
  free(argv);
  if (!ok) {
    return NULL;
  }
  const char *text = buf_str(&r.out);
  char *line = xstrndup(text, strcspn(text, "\n"));
  if (r.status != 0) {
    herr_set(e, "%s --version failed: %s", tc->cc.v[0], buf_str(&r.err));
    free(line);
    line = NULL;
  }
  proc_result_free(&r);
  return line;
}

static void install_dependencies(srv_call *c, const void *request) {
  (void)request;
  /* A pclc program's packages are schemas, which the engine gives when
     the program runs; what it needs installed is the toolchain, which is
     checked here and said. */
  herr e = {0};
  const toolchain *tc;
  char *cc = NULL;
  if (!toolchain_get(srv_procs(c), &tc, &e) || !(cc = cc_version(tc, srv_procs(c), &e))) {
    srv_fail(c, GRPC_STATUS_FAILED_PRECONDITION, "%s", e.msg);
    herr_clear(&e);
    return;
  }
  char *text =
      pcl__format("pclc programs need no packages installed; they are built with %s (%s), "
                  "libpclrt (%s) and the C compiler %s\n",
                  tc->pclc_version, tc->pclc, tc->libpclrt, cc);
  Pulumirpc__InstallDependenciesResponse msg = PULUMIRPC__INSTALL_DEPENDENCIES_RESPONSE__INIT;
  msg.stdout = (ProtobufCBinaryData){strlen(text), (uint8_t *)text};
  if (srv_write(c, &msg.base)) {
    srv_finish(c);
  } else {
    srv_fail(c, GRPC_STATUS_CANCELLED, "the engine left");
  }
  free(text);
  free(cc);
}

static void runtime_options_prompts(srv_call *c, const void *request) {
  (void)request;
  /* Nothing to ask: the program is its directory's .pp files. */
  Pulumirpc__RuntimeOptionsResponse resp = PULUMIRPC__RUNTIME_OPTIONS_RESPONSE__INIT;
  srv_reply(c, &resp.base);
}

static void template_(srv_call *c, const void *request) {
  (void)request;
  /* A template's PCL needs no language-specific preparation. */
  Pulumirpc__TemplateResponse resp = PULUMIRPC__TEMPLATE_RESPONSE__INIT;
  srv_reply(c, &resp.base);
}

static void about(srv_call *c, const void *request) {
  (void)request;
  herr e = {0};
  const toolchain *tc;
  char *cc = NULL;
  if (!toolchain_get(srv_procs(c), &tc, &e) || !(cc = cc_version(tc, srv_procs(c), &e))) {
    srv_fail(c, GRPC_STATUS_FAILED_PRECONDITION, "%s", e.msg);
    herr_clear(&e);
    return;
  }
  Pulumirpc__AboutResponse resp = PULUMIRPC__ABOUT_RESPONSE__INIT;
  const char *version = strrchr(tc->pclc_version, ' ');
  resp.executable = tc->pclc;
  resp.version = (char *)(version ? version + 1 : tc->pclc_version);
  Pulumirpc__AboutResponse__MetadataEntry entries[2], *md[2];
  const char *keys[2] = {"cc", "libpclrt"};
  const char *values[2] = {cc, tc->libpclrt};
  for (size_t i = 0; i < 2; i++) {
    pulumirpc__about_response__metadata_entry__init(&entries[i]);
    entries[i].key = (char *)keys[i];
    entries[i].value = (char *)values[i];
    md[i] = &entries[i];
  }
  resp.metadata = md;
  resp.n_metadata = 2;
  srv_reply(c, &resp.base);
  free(cc);
}

static void get_program_dependencies(srv_call *c, const void *request) {
  const Pulumirpc__GetProgramDependenciesRequest *req = request;
  char *dir = program_dir(req->info, req->pwd);
  program_uses u = {0};
  if (!list_uses(c, dir, &u)) {
    free(dir);
    return;
  }
  free(dir);
  /* A program depends on packages by their own names and versions. */
  Pulumirpc__GetProgramDependenciesResponse resp =
      PULUMIRPC__GET_PROGRAM_DEPENDENCIES_RESPONSE__INIT;
  Pulumirpc__DependencyInfo *deps = xcalloc(u.npkgs, sizeof *deps);
  resp.dependencies = xcalloc(u.npkgs, sizeof *resp.dependencies);
  resp.n_dependencies = u.npkgs;
  for (size_t i = 0; i < u.npkgs; i++) {
    const pkg_use *p = &u.pkgs[i];
    pulumirpc__dependency_info__init(&deps[i]);
    deps[i].name = p->param_name ? p->param_name : p->name;
    const char *v = p->param_name ? p->param_version : p->version;
    deps[i].version = (char *)(v ? v : "");
    resp.dependencies[i] = &deps[i];
  }
  srv_reply(c, &resp.base);
  free(deps);
  free(resp.dependencies);
  program_uses_free(&u);
}

static void run_plugin(srv_call *c, const void *request) {
  (void)request;
  srv_fail(c, GRPC_STATUS_UNIMPLEMENTED,
           "runtime pclc runs programs, not plugins: a PCL program cannot serve as a provider, "
           "policy pack or converter");
}

/* Answers resp when the host's work succeeded (ok), else INTERNAL with the
   host's error e; clears e. */
static void reply_or_fail(srv_call *c, bool ok, const ProtobufCMessage *resp, herr *e) {
  if (ok) {
    srv_reply(c, resp);
  } else {
    srv_fail(c, GRPC_STATUS_INTERNAL, "%s", e->msg);
  }
  herr_clear(e);
}

/* Answers with diagnostics, or the failure e. */
static void reply_diags(srv_call *c, bool ok, herr *e, ProtobufCMessage *resp,
                        Pulumirpc__Codegen__Diagnostic ***field, size_t *n, diag_list *d) {
  *field = d->v;
  *n = d->n;
  reply_or_fail(c, ok, resp, e);
  *field = NULL;
  *n = 0;
  diags_free(d);
}

static void generate_project(srv_call *c, const void *request) {
  const Pulumirpc__GenerateProjectRequest *req = request;
  herr e = {0};
  diag_list d = {0};
  bool ok = project_generate(req, srv_procs(c), &d, &e);
  Pulumirpc__GenerateProjectResponse resp = PULUMIRPC__GENERATE_PROJECT_RESPONSE__INIT;
  reply_diags(c, ok, &e, &resp.base, &resp.diagnostics, &resp.n_diagnostics, &d);
}

static void generate_program(srv_call *c, const void *request) {
  const Pulumirpc__GenerateProgramRequest *req = request;
  herr e = {0};
  diag_list d = {0};
  Pulumirpc__GenerateProgramResponse resp = PULUMIRPC__GENERATE_PROGRAM_RESPONSE__INIT;
  bool ok = program_generate(req, srv_procs(c), &resp, &d, &e);
  reply_diags(c, ok, &e, &resp.base, &resp.diagnostics, &resp.n_diagnostics, &d);
  for (size_t i = 0; i < resp.n_source; i++) {
    free(resp.source[i]);
  }
  free(resp.source);
}

static void generate_package(srv_call *c, const void *request) {
  const Pulumirpc__GeneratePackageRequest *req = request;
  herr e = {0};
  diag_list d = {0};
  bool ok = package_generate(req, &e);
  Pulumirpc__GeneratePackageResponse resp = PULUMIRPC__GENERATE_PACKAGE_RESPONSE__INIT;
  reply_diags(c, ok, &e, &resp.base, &resp.diagnostics, &resp.n_diagnostics, &d);
}

static void pack(srv_call *c, const void *request) {
  const Pulumirpc__PackRequest *req = request;
  herr e = {0};
  char *artifact = NULL;
  bool ok = package_pack(req, &artifact, &e);
  Pulumirpc__PackResponse resp = PULUMIRPC__PACK_RESPONSE__INIT;
  resp.artifact_path = artifact;
  reply_or_fail(c, ok, &resp.base, &e);
  free(artifact);
}

static void link_(srv_call *c, const void *request) {
  const Pulumirpc__LinkRequest *req = request;
  herr e = {0};
  char *text = NULL;
  bool ok = package_link(req, &text, &e);
  Pulumirpc__LinkResponse resp = PULUMIRPC__LINK_RESPONSE__INIT;
  resp.import_instructions = text;
  reply_or_fail(c, ok, &resp.base, &e);
  free(text);
}

static void cancel(srv_call *c, const void *request) {
  (void)request;
  /* Every request in progress stops: its children are killed, and it
     answers that it was cancelled. */
  proc_cancel_groups();
  Google__Protobuf__Empty resp = GOOGLE__PROTOBUF__EMPTY__INIT;
  srv_reply(c, &resp.base);
}

/* The service's methods by path, each with the descriptor of the request
   it is given decoded (NULL for a method that reads nothing of its
   request: it is not decoded, and the method is given NULL). */
static const struct {
  const char *name;
  const ProtobufCMessageDescriptor *request;
  void (*serve)(srv_call *c, const void *request);
} table[] = {
    {"Handshake", &pulumirpc__language_handshake_request__descriptor, handshake},
    {"GetRequiredPlugins", &pulumirpc__get_required_plugins_request__descriptor,
     get_required_plugins},
    {"GetRequiredPackages", &pulumirpc__get_required_packages_request__descriptor,
     get_required_packages},
    {"Run", &pulumirpc__run_request__descriptor, run},
    {"GetPluginInfo", NULL, get_plugin_info},
    {"InstallDependencies", &pulumirpc__install_dependencies_request__descriptor,
     install_dependencies},
    {"RuntimeOptionsPrompts", NULL, runtime_options_prompts},
    {"Template", NULL, template_},
    {"About", NULL, about},
    {"GetProgramDependencies", &pulumirpc__get_program_dependencies_request__descriptor,
     get_program_dependencies},
    {"RunPlugin", NULL, run_plugin},
    {"GenerateProgram", &pulumirpc__generate_program_request__descriptor, generate_program},
    {"GenerateProject", &pulumirpc__generate_project_request__descriptor, generate_project},
    {"GeneratePackage", &pulumirpc__generate_package_request__descriptor, generate_package},
    {"Pack", &pulumirpc__pack_request__descriptor, pack},
    {"Link", &pulumirpc__link_request__descriptor, link_},
    {"Cancel", NULL, cancel},
};

void methods_serve(srv_call *c, const char *method, const uint8_t *data, size_t len) {
  static const char service[] = "/pulumirpc.LanguageRuntime/";
  if (strncmp(method, service, sizeof service - 1) == 0) {
    const char *name = method + sizeof service - 1;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
      if (strcmp(name, table[i].name) == 0) {
        if (!table[i].request) {
          table[i].serve(c, NULL);
          return;
        }
        ProtobufCMessage *req = protobuf_c_message_unpack(table[i].request, NULL, len, data);
        if (!req) {
          srv_fail(c, GRPC_STATUS_INVALID_ARGUMENT, "the %s request does not decode", name);
          return;
        }
        table[i].serve(c, req);
        protobuf_c_message_free_unpacked(req, NULL);
        return;
      }
    }
  }
  srv_fail(c, GRPC_STATUS_UNIMPLEMENTED, "unknown method %s", method);
}
