/* build: program directory to executable (build.h). */
#include "build.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <nettle/base64.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "client.h"
#include "pulumi/codegen/loader.pb-c.h"

/* How long one schema may take to come (the engine may start a plugin to
   answer). */
enum { SCHEMA_TIMEOUT_S = 600 };

/* Entries the cache keeps by default. */
enum { CACHE_SIZE = 64 };

static char *json_text(json_t *obj, const char *key) {
  json_t *v = json_object_get(obj, key);
  return json_is_string(v) ? xstrdup(json_string_value(v)) : NULL;
}

void program_uses_free(program_uses *u) {
  for (size_t i = 0; i < u->npkgs; i++) {
    pkg_use *p = &u->pkgs[i];
    free(p->name);
    free(p->version);
    free(p->url);
    free(p->param_name);
    free(p->param_version);
    free(p->param_value);
  }
  free(u->pkgs);
  for (size_t i = 0; i < u->nfiles; i++) {
    free(u->files[i]);
  }
  free(u->files);
  *u = (program_uses){0};
}

/* Reads pclc --list-packages output into u. */
static bool parse_uses(const char *text, program_uses *u, herr *e) {
  json_error_t je;
  json_t *doc = json_loads(text, 0, &je);
  json_t *pkgs = doc ? json_object_get(doc, "packages") : NULL;
  json_t *files = doc ? json_object_get(doc, "files") : NULL;
  if (!json_is_array(pkgs) || !json_is_array(files)) {
    json_decref(doc);
    return herr_set(e, "pclc --list-packages printed something else than its JSON document");
  }
  u->npkgs = json_array_size(pkgs);
  u->pkgs = xcalloc(u->npkgs, sizeof *u->pkgs);
  for (size_t i = 0; i < u->npkgs; i++) {
    json_t *p = json_array_get(pkgs, i);
    json_t *param = json_object_get(p, "parameterization");
    u->pkgs[i] = (pkg_use){json_text(p, "name"),       json_text(p, "version"),
                           json_text(p, "downloadURL"), json_text(param, "name"),
                           json_text(param, "version"), json_text(param, "value")};
  }
  u->nfiles = json_array_size(files);
  u->files = xcalloc(u->nfiles, sizeof *u->files);
  for (size_t i = 0; i < u->nfiles; i++) {
    json_t *f = json_array_get(files, i);
    u->files[i] = xstrdup(json_is_string(f) ? json_string_value(f) : "");
  }
  json_decref(doc);
  return true;
}

/* Runs pclc with args in dir; its stderr goes to diags.  Returns the
   status: BUILD_PROGRAM_ERROR when pclc reported errors in the program
   (its exit statuses 1 and 2). */
static build_status run_pclc(const toolchain *tc, proc_group *g, const char *dir,
                             const char *const *args, buf *out, buf *diags, herr *e) {
  const char *argv[16];
  size_t n = 0;
  argv[n++] = tc->pclc;
  for (size_t i = 0; args[i] && n < sizeof argv / sizeof argv[0] - 1; i++) {
    argv[n++] = args[i];
  }
  argv[n] = NULL;
  proc_spec s = {argv, dir, NULL, out != NULL, true};
  proc_result r;
  if (!proc_run(g, &s, &r, e)) {
    return BUILD_FAILED;
  }
  pcl__buf_append(diags, buf_str(&r.err), r.err.len);
  if (out) {
    pcl__buf_append(out, buf_str(&r.out), r.out.len);
  }
  build_status st = BUILD_OK;
  if (r.cancelled) {
    st = BUILD_FAILED;
    herr_set(e, "cancelled");
  } else if (r.status == 1 || r.status == 2) {
    st = BUILD_PROGRAM_ERROR;
  } else if (r.status != 0) {
    char *how = proc_describe(&r);
    herr_set(e, "%s %s: %s", tc->pclc, how, buf_str(&r.err));
    free(how);
    st = BUILD_FAILED;
  }
  proc_result_free(&r);
  return st;
}

build_status build_uses(const toolchain *tc, proc_group *g, const char *dir, program_uses *u,
                        buf *diags, herr *e) {
  buf out = {0};
  const char *args[] = {"--list-packages", ".", NULL};
  build_status st = run_pclc(tc, g, dir, args, &out, diags, e);
  if (st == BUILD_OK && !parse_uses(buf_str(&out), u, e)) {
    st = BUILD_FAILED;
  }
  pcl__buf_free(&out);
  return st;
}

/* Decodes standard base64 text into b; false when it is not base64. */
static bool base64_decode(const char *text, buf *b) {
  struct base64_decode_ctx ctx;
  size_t len = strlen(text);
  uint8_t *out = xmalloc(BASE64_DECODE_LENGTH(len) + 1);
  size_t n = BASE64_DECODE_LENGTH(len);
  base64_decode_init(&ctx);
  bool ok = base64_decode_update(&ctx, &n, out, len, text) && base64_decode_final(&ctx);
  if (ok) {
    pcl__buf_append(b, out, n);
  }
  free(out);
  return ok;
}

/* Describes package p for messages ("simple 2.0.0", "subpackage 2.0.0
   (parameterized from parameterized 1.2.3)"). */
static char *describe(const pkg_use *p) {
  if (p->param_name) {
    return pcl__format("'%s'%s%s (parameterized from '%s'%s%s)", p->param_name,
                       p->param_version ? " " : "", p->param_version ? p->param_version : "",
                       p->name, p->version ? " " : "", p->version ? p->version : "");
  }
  return pcl__format("'%s'%s%s", p->name, p->version ? " " : "", p->version ? p->version : "");
}

/* A package (name, version) that a schema's types refer to. */
typedef struct pkg_ref {
  char *name, *version;
} pkg_ref;

/* The packages of other schemas that the schema doc refers to
   (`"$ref": "/<package>/v<version>/schema.json#/types/..."`), added to *refs
   (without duplicates); the walk keeps its own stack, schemas being
   documents from outside. */
static void external_refs(json_t *doc, pkg_ref **refs, size_t *nrefs) {
  size_t n = 0, cap = 64;
  json_t **stack = xmalloc(cap * sizeof *stack);
  stack[n++] = doc;
  while (n > 0) {
    json_t *v = stack[--n];
    if (json_is_object(v)) {
      const char *key;
      json_t *m;
      json_object_foreach(v, key, m) {
        if (strcmp(key, "$ref") == 0 && json_is_string(m)) {
          const char *r = json_string_value(m);
          const char *slash = r[0] == '/' ? strchr(r + 1, '/') : NULL;
          const char *end = slash ? strstr(slash, "/schema.json#") : NULL;
          if (slash && end && slash[1] == 'v' && end > slash + 2) {
            char *name = xstrndup(r + 1, (size_t)(slash - r - 1));
            char *version = xstrndup(slash + 2, (size_t)(end - slash - 2));
            bool seen = false;
            for (size_t i = 0; i < *nrefs && !seen; i++) {
              seen = strcmp((*refs)[i].name, name) == 0 && strcmp((*refs)[i].version, version) == 0;
            }
            if (seen) {
              free(name);
              free(version);
            } else {
              *refs = xrealloc(*refs, (*nrefs + 1) * sizeof **refs);
              (*refs)[(*nrefs)++] = (pkg_ref){name, version};
            }
          }
        } else if (json_is_object(m) || json_is_array(m)) {
          PCL__GROW(stack, cap, n + 1);
          stack[n++] = m;
        }
      }
    } else if (json_is_array(v)) {
      size_t i;
      json_t *m;
      json_array_foreach(v, i, m) {
        if (json_is_object(m) || json_is_array(m)) {
          PCL__GROW(stack, cap, n + 1);
          stack[n++] = m;
        }
      }
    }
  }
  free(stack);
}

/* Fetches one schema into dir; the packages its types refer to are added
   to *refs, and its package's name to names (when not NULL). */
static bool fetch_one(const char *loader, const pkg_use *p, const char *dir, pkg_ref **refs,
                      size_t *nrefs, words *names, herr *e) {
  Codegen__GetSchemaRequest req = CODEGEN__GET_SCHEMA_REQUEST__INIT;
  Codegen__Parameterization param = CODEGEN__PARAMETERIZATION__INIT;
  buf value = {0};
  req.package = p->name;
  req.version = p->version ? p->version : (char *)"";
  req.download_url = p->url ? p->url : (char *)"";
  if (p->param_name) {
    if (!base64_decode(p->param_value ? p->param_value : "", &value)) {
      return herr_set(e, "the parameter of package '%s' is not base64", p->param_name);
    }
    param.name = p->param_name;
    param.version = p->param_version ? p->param_version : (char *)"";
    param.value.data = (uint8_t *)value.data;
    param.value.len = value.len;
    req.parameterization = &param;
  }
  buf answer = {0};
  herr ce = {0};
  bool ok = client_call(loader, "/codegen.Loader/GetSchema", &req.base, SCHEMA_TIMEOUT_S, &answer,
                        NULL, &ce);
  pcl__buf_free(&value);
  Codegen__GetSchemaResponse *resp =
      ok ? codegen__get_schema_response__unpack(NULL, answer.len, (const uint8_t *)buf_str(&answer))
         : NULL;
  pcl__buf_free(&answer);
  if (!resp) {
    char *what = describe(p);
    herr_set(e, "cannot load the schema of package %s: %s", what,
             ce.msg ? ce.msg : "the loader's answer does not decode");
    free(what);
    herr_clear(&ce);
    return false;
  }
  json_error_t je;
  json_t *doc = json_loadb((const char *)resp->schema.data, resp->schema.len, 0, &je);
  char *name = doc ? json_text(doc, "name") : NULL;
  char *version = doc ? json_text(doc, "version") : NULL;
  if (doc) {
    external_refs(doc, refs, nrefs);
  }
  json_decref(doc);
  if (!name) {
    char *what = describe(p);
    herr_set(e, "the schema of package %s that the engine gave is not a package schema (%s)",
             what, doc ? "no name" : je.text);
    free(what);
    codegen__get_schema_response__free_unpacked(resp, NULL);
    free(version);
    return false;
  }
  if (names) {
    PCL__GROW(names->v, names->cap, names->n + 1);
    names->v[names->n++] = xstrdup(name);
  }
  char *file = version ? pcl__format("%s/%s-%s.json", dir, name, version)
                       : pcl__format("%s/%s.json", dir, name);
  ok = file_write(file, resp->schema.data, resp->schema.len, 0644, e);
  free(file);
  free(name);
  free(version);
  codegen__get_schema_response__free_unpacked(resp, NULL);
  return ok;
}

/* Whether the schema of (name, version) is in the directory dir. */
static bool have_schema(const char *dir, const char *name, const char *version) {
  char *file = pcl__format("%s/%s-%s.json", dir, name, version);
  bool there = access(file, R_OK) == 0;
  free(file);
  return there;
}

/* Fetches the schema of every package of u from the loader at address
 * loader into the directory schemas, as <package>-<version>.json, and those
 * of the packages whose types they refer to (`$ref`s to
 * `/<package>/v<version>/schema.json`), as pclc needs them.  The name of
 * each package fetched is added to names (when not NULL). */
static bool build_fetch_schemas(const char *loader, const program_uses *u,
                                const char *schemas, words *names, herr *e) {
  if (!dir_make(schemas, e)) {
    return false;
  }
  if (u->npkgs > 0 && (!loader || !*loader)) {
    return herr_set(e, "the engine gave no schema loader to fetch the schemas of the program's "
                       "packages from");
  }
  pkg_ref *refs = NULL;
  size_t nrefs = 0;
  bool ok = true;
  for (size_t i = 0; ok && i < u->npkgs; i++) {
    ok = fetch_one(loader, &u->pkgs[i], schemas, &refs, &nrefs, names, e);
  }
  /* The packages whose types the schemas borrow, and theirs in turn (the
     list grows as they are fetched). */
  for (size_t i = 0; ok && i < nrefs; i++) {
    if (!have_schema(schemas, refs[i].name, refs[i].version)) {
      pkg_use p = {refs[i].name, refs[i].version, NULL, NULL, NULL, NULL};
      ok = fetch_one(loader, &p, schemas, &refs, &nrefs, names, e);
    }
  }
  for (size_t i = 0; i < nrefs; i++) {
    free(refs[i].name);
    free(refs[i].version);
  }
  free(refs);
  return ok;
}

/* Makes a new temporary directory under the cache. */
static char *make_temp(const toolchain *tc, herr *e) {
  char *tmp = path_join(tc->cache, "tmp");
  if (!dir_make(tmp, e)) {
    free(tmp);
    return NULL;
  }
  char *t = pcl__format("%s/build-XXXXXX", tmp);
  free(tmp);
  if (!mkdtemp(t)) {
    herr_set(e, "cannot create a directory in %s: %s", tc->cache, strerror(errno));
    free(t);
    return NULL;
  }
  return t;
}

build_status build_check(const toolchain *tc, proc_group *g, const char *dir, const char *loader,
                         words *packages, buf *diags, herr *e) {
  program_uses u = {0};
  build_status st = build_uses(tc, g, dir, &u, diags, e);
  if (st != BUILD_OK) {
    return st;
  }
  char *tmp = make_temp(tc, e);
  char *schemas = tmp ? path_join(tmp, "schemas") : NULL;
  if (!tmp || !build_fetch_schemas(loader, &u, schemas, packages, e)) {
    st = BUILD_FAILED;
  } else {
    const char *args[] = {"--check", "--schema-path", schemas, ".", NULL};
    st = run_pclc(tc, g, dir, args, NULL, diags, e);
  }
  herr ignore = {0};
  if (tmp) {
    dir_remove(tmp, &ignore);
  }
  herr_clear(&ignore);
  free(schemas);
  free(tmp);
  program_uses_free(&u);
  return st;
}

/* Hashes the file at path (with its name) into ctx. */
static bool hash_file(struct sha256_ctx *ctx, const char *name, const char *path, herr *e) {
  buf b = {0};
  if (!file_read(path, &b, e)) {
    return false;
  }
  sha256_text(ctx, name);
  char len[32];
  snprintf(len, sizeof len, "%zu", b.len);
  sha256_text(ctx, len);
  sha256_update(ctx, b.len, (const uint8_t *)buf_str(&b));
  pcl__buf_free(&b);
  return true;
}

/* Computes the cache key of the program in dir: the toolchain, its files
   and the schemas in the directory schemas. */
static bool cache_key(const toolchain *tc, const char *dir, const program_uses *u,
                      const char *schemas, char key[65], herr *e) {
  struct sha256_ctx ctx;
  sha256_init(&ctx);
  sha256_text(&ctx, "pulumi-language-pclc program 1");
  sha256_text(&ctx, tc->digest);
  for (size_t i = 0; i < u->nfiles; i++) {
    char *path = path_join(dir, u->files[i]);
    bool ok = hash_file(&ctx, u->files[i], path, e);
    free(path);
    if (!ok) {
      return false;
    }
  }
  char **names;
  size_t count;
  if (!dir_list(schemas, &names, &count, e)) {
    return false;
  }
  bool ok = true;
  for (size_t i = 0; i < count; i++) {
    char *path = path_join(schemas, names[i]);
    ok = ok && hash_file(&ctx, names[i], path, e);
    free(path);
    free(names[i]);
  }
  free(names);
  if (ok) {
    sha256_hex(&ctx, key);
  }
  return ok;
}

/* Compiles the C of the program in tmp/program.c to tmp/program. */
static build_status compile_c(const toolchain *tc, proc_group *g, const char *tmp, herr *e) {
  const char **argv = NULL;
  size_t n = 0;
  words_append(&argv, &n, &tc->cc);
  words_append(&argv, &n, &tc->cflags);
  words_append(&argv, &n, &tc->rt_cflags);
  argv_add(&argv, &n, "program.c");
  argv_add(&argv, &n, "-o");
  argv_add(&argv, &n, "program");
  words_append(&argv, &n, &tc->rt_libs);
  proc_spec s = {argv, tmp, NULL, true, true};
  proc_result r;
  bool started = proc_run(g, &s, &r, e);
  free(argv);
  if (!started) {
    return herr_set(e, "%s; install a C compiler or name one in PCLC_CC", e->msg), BUILD_FAILED;
  }
  build_status st = BUILD_OK;
  if (r.cancelled) {
    st = BUILD_FAILED;
    herr_set(e, "cancelled");
  } else if (r.status != 0) {
    char *how = proc_describe(&r);
    herr_set(e, "the C compiler (%s) %s on the code pclc generated:\n%s%s", tc->cc.v[0], how,
             buf_str(&r.err), buf_str(&r.out));
    free(how);
    st = BUILD_FAILED;
  }
  proc_result_free(&r);
  return st;
}

/* The modification time of path, 0 when it cannot be read. */
static long long mtime_of(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec
                              : 0;
}

typedef struct aged {
  char *name;
  long long mtime;
} aged;

static int cmp_aged(const void *a, const void *b) {
  long long x = ((const aged *)a)->mtime, y = ((const aged *)b)->mtime;
  return x < y ? 1 : x > y ? -1 : 0;
}

/* Removes the least recently used programs beyond the cache's size. */
static void evict(const char *programs) {
  const char *size = getenv("PCLC_CACHE_SIZE");
  long keep = size && *size ? strtol(size, NULL, 10) : CACHE_SIZE;
  herr e = {0};
  char **names;
  size_t count;
  if (keep < 1 || !dir_list(programs, &names, &count, &e)) {
    herr_clear(&e);
    return;
  }
  aged *v = xcalloc(count, sizeof *v);
  for (size_t i = 0; i < count; i++) {
    char *p = path_join(programs, names[i]);
    v[i] = (aged){names[i], mtime_of(p)};
    free(p);
  }
  free(names);
  qsort(v, count, sizeof *v, cmp_aged);
  for (size_t i = 0; i < count; i++) {
    if (i >= (size_t)keep) {
      char *p = path_join(programs, v[i].name);
      dir_remove(p, &e);
      free(p);
    }
    free(v[i].name);
  }
  free(v);
  herr_clear(&e);
}

build_status build_program(const toolchain *tc, proc_group *g, const char *dir,
                           const char *loader, char **exe, bool *cached, buf *diags, herr *e) {
  *exe = NULL;
  *cached = false;
  program_uses u = {0};
  build_status st = build_uses(tc, g, dir, &u, diags, e);
  if (st != BUILD_OK) {
    return st;
  }
  /* The list's warnings are pclc's to give again when it compiles. */
  pcl__buf_free(diags);
  char *tmp = make_temp(tc, e);
  char *schemas = tmp ? path_join(tmp, "schemas") : NULL;
  char *programs = path_join(tc->cache, "programs");
  char key[65];
  char *final = NULL;
  herr ignore = {0};
  if (!tmp || !build_fetch_schemas(loader, &u, schemas, NULL, e) ||
      !cache_key(tc, dir, &u, schemas, key, e) || !dir_make(programs, e)) {
    st = BUILD_FAILED;
    goto done;
  }
  final = path_join(programs, key);
  char *built = path_join(final, "program");
  if (access(built, X_OK) == 0) {
    /* Used now: the entry is the most recent for eviction. */
    utimensat(AT_FDCWD, final, NULL, 0);
    *exe = built;
    *cached = true;
    goto done;
  }
  free(built);
  const char *args[] = {"--schema-path", schemas, ".", "-o", NULL, NULL};
  char *c_file = path_join(tmp, "program.c");
  args[4] = c_file;
  st = run_pclc(tc, g, dir, args, NULL, diags, e);
  free(c_file);
  if (st == BUILD_OK) {
    st = compile_c(tc, g, tmp, e);
  }
  if (st != BUILD_OK) {
    goto done;
  }
  dir_remove(schemas, &ignore);
  if (rename(tmp, final) != 0 && errno != EEXIST && errno != ENOTEMPTY) {
    herr_set(e, "cannot move the program into the cache %s: %s", final, strerror(errno));
    st = BUILD_FAILED;
    goto done;
  }
  *exe = path_join(final, "program");
  evict(programs);
done:
  if (tmp) {
    dir_remove(tmp, &ignore);
  }
  herr_clear(&ignore);
  free(final);
  free(programs);
  free(schemas);
  free(tmp);
  program_uses_free(&u);
  return st;
}
