/* toolchain: finding pclc, libpclrt and the C compiler (toolchain.h). */
#include "toolchain.h"

#include <ctype.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef HOST_VERSION
#error "HOST_VERSION must be defined by the build (the pclc version)"
#endif

const char host_version[] = HOST_VERSION;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static toolchain *found; /* Once looked up successfully. */

void sha256_hex(struct sha256_ctx *ctx, char out[65]) {
  uint8_t d[SHA256_DIGEST_SIZE];
  sha256_digest(ctx, sizeof d, d);
  for (size_t i = 0; i < sizeof d; i++) {
    static const char hex[] = "0123456789abcdef";
    out[2 * i] = hex[d[i] >> 4];
    out[2 * i + 1] = hex[d[i] & 15];
  }
  out[64] = 0;
}

void sha256_text(struct sha256_ctx *ctx, const char *s) {
  sha256_update(ctx, strlen(s) + 1, (const uint8_t *)s);
}

/* Splits text at white space into w. */
static void split(const char *text, words *w) {
  *w = (words){0};
  const char *p = text;
  for (;;) {
    while (*p && isspace((unsigned char)*p)) {
      p++;
    }
    if (!*p) {
      break;
    }
    const char *s = p;
    while (*p && !isspace((unsigned char)*p)) {
      p++;
    }
    PCL__GROW(w->v, w->cap, w->n + 1);
    w->v[w->n++] = xstrndup(s, (size_t)(p - s));
  }
}

void words_free(words *w) {
  for (size_t i = 0; i < w->n; i++) {
    free(w->v[i]);
  }
  free(w->v);
  *w = (words){0};
}

void words_append(const char ***argv, size_t *n, const words *w) {
  *argv = xrealloc(*argv, (*n + w->n + 1) * sizeof **argv);
  for (size_t i = 0; i < w->n; i++) {
    (*argv)[(*n)++] = w->v[i];
  }
  (*argv)[*n] = NULL;
}

void argv_add(const char ***argv, size_t *n, const char *word) {
  *argv = xrealloc(*argv, (*n + 2) * sizeof **argv);
  (*argv)[(*n)++] = word;
  (*argv)[*n] = NULL;
}

static void toolchain_free(toolchain *t) {
  if (!t) {
    return;
  }
  free(t->pclc);
  free(t->pclc_version);
  words_free(&t->cc);
  words_free(&t->cflags);
  words_free(&t->rt_cflags);
  words_free(&t->rt_libs);
  free(t->libpclrt);
  free(t->cache);
  free(t);
}

/* The directory of the host's own executable. */
static char *exe_dir(void) {
  char path[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0) {
    return xstrdup(".");
  }
  path[n] = 0;
  return path_dir(path);
}

/* Returns the directory holding the pclrt.pc that goes with this host, or
   NULL when there is none beside it. */
static char *pc_dir(void) {
  char *dir = exe_dir();
  static const char *const rel[] = {"pkgconfig", "../lib/pkgconfig"};
  for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
    char *d = path_join(dir, rel[i]);
    char *pc = path_join(d, "pclrt.pc");
    bool there = access(pc, R_OK) == 0;
    free(pc);
    if (there) {
      free(dir);
      return d;
    }
    free(d);
  }
  free(dir);
  return NULL;
}

/* Runs pkg-config with one argument (and pclrt) and returns its output
   without the final newline. */
static bool pkg_config(proc_group *g, const char *const *env, const char *arg, char **out,
                       herr *e) {
  const char *pkgc = getenv("PKG_CONFIG");
  const char *argv[] = {pkgc && *pkgc ? pkgc : "pkg-config", arg, "pclrt", NULL};
  proc_spec s = {argv, NULL, env, true, true};
  proc_result r;
  if (!proc_run(g, &s, &r, e)) {
    return false;
  }
  if (r.status != 0) {
    char *how = proc_describe(&r);
    herr_set(e, "cannot find libpclrt: `%s %s pclrt` %s: %s", argv[0], arg, how,
             buf_str(&r.err));
    free(how);
    proc_result_free(&r);
    return false;
  }
  size_t n = r.out.len;
  while (n > 0 && (r.out.data[n - 1] == '\n' || r.out.data[n - 1] == ' ')) {
    n--;
  }
  *out = xstrndup(buf_str(&r.out), n);
  proc_result_free(&r);
  return true;
}

/* Returns the environment for pkg-config: the host's, with the directory
   of the pclrt.pc beside the host first in PKG_CONFIG_PATH. */
static char **pkg_config_env(void) {
  extern char **environ;
  size_t n = 0;
  while (environ[n]) {
    n++;
  }
  char **env = xcalloc(n + 2, sizeof *env);
  char *dir = pc_dir();
  const char *old = getenv("PKG_CONFIG_PATH");
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (strncmp(environ[i], "PKG_CONFIG_PATH=", 16) != 0) {
      env[k++] = xstrdup(environ[i]);
    }
  }
  if (dir) {
    env[k++] = old && *old ? pcl__format("PKG_CONFIG_PATH=%s:%s", dir, old)
                           : pcl__format("PKG_CONFIG_PATH=%s", dir);
  } else if (old) {
    env[k++] = pcl__format("PKG_CONFIG_PATH=%s", old);
  }
  free(dir);
  return env;
}

static void env_free(char **env) {
  for (size_t i = 0; env[i]; i++) {
    free(env[i]);
  }
  free(env);
}

/* Hashes the file at path into ctx, with its name. */
static bool hash_file(struct sha256_ctx *ctx, const char *what, const char *path, herr *e) {
  buf b = {0};
  if (!file_read(path, &b, e)) {
    return herr_set(e, "cannot read %s (%s): %s", what, path, e->msg);
  }
  sha256_text(ctx, what);
  sha256_update(ctx, b.len, (const uint8_t *)buf_str(&b));
  pcl__buf_free(&b);
  return true;
}

static void hash_words(struct sha256_ctx *ctx, const char *what, const words *w) {
  sha256_text(ctx, what);
  for (size_t i = 0; i < w->n; i++) {
    sha256_text(ctx, w->v[i]);
  }
}

/* The cache directory. */
static char *cache_dir(void) {
  const char *d = getenv("PCLC_CACHE_DIR");
  if (d && *d) {
    return xstrdup(d);
  }
  d = getenv("XDG_CACHE_HOME");
  if (d && *d == '/') {
    return path_join(d, "pclc");
  }
  d = getenv("HOME");
  if (d && *d == '/') {
    return pcl__format("%s/.cache/pclc", d);
  }
  return pcl__format("/tmp/pclc-cache-%ld", (long)getuid());
}

/* Looks the toolchain up into t. */
static bool lookup(proc_group *g, toolchain *t, herr *e) {
  char **env = pkg_config_env();
  char *cflags = NULL, *libs = NULL, *libdir = NULL, *pclc = NULL;
  bool ok = pkg_config(g, (const char *const *)env, "--cflags", &cflags, e) &&
            pkg_config(g, (const char *const *)env, "--libs", &libs, e) &&
            pkg_config(g, (const char *const *)env, "--variable=libdir", &libdir, e) &&
            pkg_config(g, (const char *const *)env, "--variable=pclc", &pclc, e);
  env_free(env);
  if (ok) {
    split(cflags, &t->rt_cflags);
    split(libs, &t->rt_libs);
    t->libpclrt = path_join(libdir, "libpclrt.a");
    const char *over = getenv("PCLC");
    t->pclc = over && *over ? xstrdup(over) : xstrdup(pclc);
    const char *cc = getenv("PCLC_CC");
    split(cc && *cc ? cc : "cc", &t->cc);
    const char *fl = getenv("PCLC_CFLAGS");
    split(fl ? fl : "-O1", &t->cflags);
    t->cache = cache_dir();
  }
  free(cflags);
  free(libs);
  free(libdir);
  free(pclc);
  if (!ok) {
    return false;
  }
  if (t->cc.n == 0) {
    return herr_set(e, "PCLC_CC names no C compiler");
  }
  const char *argv[] = {t->pclc, "--version", NULL};
  proc_spec s = {argv, NULL, NULL, true, true};
  proc_result r;
  if (!proc_run(g, &s, &r, e)) {
    return false;
  }
  if (r.status != 0) {
    char *how = proc_describe(&r);
    herr_set(e, "%s --version %s: %s", t->pclc, how, buf_str(&r.err));
    free(how);
    proc_result_free(&r);
    return false;
  }
  size_t n = r.out.len;
  while (n > 0 && r.out.data[n - 1] == '\n') {
    n--;
  }
  t->pclc_version = xstrndup(buf_str(&r.out), n);
  proc_result_free(&r);
  struct sha256_ctx ctx;
  sha256_init(&ctx);
  if (!hash_file(&ctx, "pclc", t->pclc, e) || !hash_file(&ctx, "libpclrt", t->libpclrt, e)) {
    return false;
  }
  hash_words(&ctx, "cc", &t->cc);
  hash_words(&ctx, "cflags", &t->cflags);
  hash_words(&ctx, "rt_cflags", &t->rt_cflags);
  hash_words(&ctx, "rt_libs", &t->rt_libs);
  sha256_hex(&ctx, t->digest);
  return true;
}

bool toolchain_get(proc_group *g, const toolchain **out, herr *e) {
  pthread_mutex_lock(&lock);
  if (!found) {
    toolchain *t = xcalloc(1, sizeof *t);
    if (lookup(g, t, e)) {
      found = t;
    } else {
      toolchain_free(t);
    }
  }
  *out = found;
  pthread_mutex_unlock(&lock);
  return *out != NULL;
}
