/* schema_files: listing of schema folders, pins and the choice of a package
 * version (see schema_files.h).  Folders are read once, when added; the
 * choice is a pass over the files of the package, which are chained by
 * package name. */
#include "schema/schema_files.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "semver.h"
#include "base/util.h"

void schema_files_init(schema_files *f, arena *a, intern_table *names) {
  memset(f, 0, sizeof *f);
  f->arena = a;
  f->names = names;
}

void schema_files_free(schema_files *f) {
  ptrmap_free(&f->first);
  ptrmap_free(&f->last);
  ptrmap_free(&f->pins);
  f->npins = 0;
}

/* qsort comparator for file names. */
static int cmp_names(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void schema_files_split_name(schema_files *f, const char *base, const char **name,
                             const char **version) {
  size_t len = strlen(base) - 5; /* Without ".json". */
  char *stem = arena_strndup(f->arena, base, len);
  for (size_t i = 1; i + 1 < len; i++) {
    pcl__semver v;
    if (stem[i] == '-' && stem[i + 1] >= '0' && stem[i + 1] <= '9' &&
        !pcl__semver_parse(stem + i + 1, len - i - 1, PCL__SEMVER_LOOSE, &v)) {
      *name = intern_n(f->names, stem, i);
      *version = stem + i + 1;
      return;
    }
  }
  *name = intern(f->names, stem);
  *version = NULL;
}

bool schema_files_add_dir(schema_files *f, const char *dir, const char **err) {
  DIR *d = opendir(dir);
  if (!d) {
    *err = strerror(errno);
    return false;
  }
  char **names = NULL;
  size_t n = 0, cap = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t len = strlen(e->d_name);
    if (len <= 5 || strcmp(e->d_name + len - 5, ".json") != 0 || e->d_name[0] == '.')
      continue;
    PCL__GROW(names, cap, n + 1);
    names[n++] = arena_strdup(f->arena, e->d_name);
  }
  closedir(d);
  /* Sorted, so that the choice between files never depends on readdir. */
  if (n)
    qsort(names, n, sizeof *names, cmp_names);
  size_t dlen = strlen(dir);
  bool slash = dlen > 0 && dir[dlen - 1] == '/';
  for (size_t i = 0; i < n; i++) {
    schema_file *sf = ARENA_NEW(f->arena, schema_file);
    schema_files_split_name(f, names[i], &sf->name, &sf->version);
    sf->path = arena_printf(f->arena, "%s%s%s", dir, slash ? "" : "/", names[i]);
    schema_file *last = ptrmap_get(&f->last, sf->name);
    if (last)
      last->next = sf;
    else
      ptrmap_put(&f->first, sf->name, sf);
    ptrmap_put(&f->last, sf->name, sf);
  }
  free(names);
  return true;
}

void schema_files_pin(schema_files *f, const char *name, const char *version) {
  ptrmap_put(&f->pins, intern(f->names, name), arena_strdup(f->arena, version));
  f->npins++;
}

/* The last pin wins, as a later package block would override. */
const char *schema_files_pinned(const schema_files *f, const char *name) {
  return ptrmap_get(&f->pins, name);
}

const schema_file *schema_files_choose(const schema_files *f, const char *name,
                                       const char *version, bool *fallback) {
  const schema_file *exact = NULL, *unversioned = NULL, *best = NULL;
  pcl__semver bv = {{0, 0, 0}, "", 0, 3};
  for (const schema_file *sf = ptrmap_get(&f->first, name); sf; sf = sf->next) {
    if (!sf->version) {
      if (!unversioned)
        unversioned = sf;
      continue;
    }
    if (version && !exact && pcl__semver_same(sf->version, version))
      exact = sf;
    pcl__semver v;
    pcl__semver_parse(sf->version, strlen(sf->version), PCL__SEMVER_LOOSE, &v);
    if (!best || pcl__semver_cmp(&v, &bv) > 0) {
      best = sf;
      bv = v;
    }
  }
  /* The requested version, else a file without a version, else the highest
     version. */
  const schema_file *pick = exact     ? exact
                            : version ? (unversioned ? unversioned : best)
                            : best    ? best
                                      : unversioned;
  *fallback = pick && version && pick == best && !exact;
  return pick;
}
