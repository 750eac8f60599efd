/* depfile: Make dependency files for `pclc -MD` / `-MF` (see depfile.h).
 *
 * The list of prerequisites is collected first (source files, then extra
 * paths, duplicates dropped) and checked for paths Make cannot express, so
 * that an error leaves nothing half written; the file itself is written
 * through outfile, so that a write error leaves the previous file.  Escaping follows what GNU
 * make reads back: `$` doubles, and a backslash goes before a space, a tab,
 * `#`, `:` and before any run of backslashes that precedes a blank. */
#include "base/depfile.h"

#include <stdlib.h>
#include <string.h>

#include "base/outfile.h"
#include "base/util.h"

char *depfile_default_path(const char *output) {
  size_t n = strlen(output);
  bool dot_c = n > 2 && strcmp(output + n - 2, ".c") == 0 && output[n - 3] != '/';
  size_t stem = dot_c ? n - 2 : n;
  char *path = xmalloc(stem + 3);
  memcpy(path, output, stem);
  memcpy(path + stem, ".d", 3);
  return path;
}

/* Writes path with Make's special characters escaped. */
static void put_escaped(FILE *out, const char *path) {
  for (const char *p = path; *p; p++) {
    switch (*p) {
    case '$':
      fputs("$$", out);
      break;
    case ' ':
    case '\t':
    case '#':
    case ':':
      fputc('\\', out);
      fputc(*p, out);
      break;
    case '\\': {
      /* A run of backslashes is literal unless a blank follows it; then
         each one must be doubled so that the blank stays escaped. */
      size_t run = strspn(p, "\\");
      bool before_blank = p[run] == ' ' || p[run] == '\t';
      for (size_t i = 0; i < run; i++)
        fputs(before_blank ? "\\\\" : "\\", out);
      p += run - 1;
      break;
    }
    default:
      fputc(*p, out);
      break;
    }
  }
}

/* Returns whether path is among list[0..n). */
static bool listed(const char *const *list, size_t n, const char *path) {
  for (size_t i = 0; i < n; i++) {
    if (strcmp(list[i], path) == 0)
      return true;
  }
  return false;
}

/* Collects the prerequisites into a new array (borrowed strings); *n gets
 * the count.  Returns NULL with *err set when a path cannot be written. */
static const char **collect(const src_set *src, const char *const *extra, size_t nextra,
                            size_t *n, const char **err) {
  const char **list = xmalloc((src->count + nextra + 1) * sizeof *list);
  size_t count = 0;
  for (size_t i = 0; i < src->count + nextra; i++) {
    const char *path = i < src->count ? src->files[i].path : extra[i - src->count];
    if (strchr(path, '\n') != NULL) {
      *err = "a file name contains a newline, which a dependency file cannot express";
      free(list);
      return NULL;
    }
    if (!listed(list, count, path))
      list[count++] = path;
  }
  *n = count;
  return list;
}

bool depfile_print(FILE *out, const char *target, const src_set *src, const char *const *extra,
                   size_t nextra, const char **err) {
  if (strchr(target, '\n') != NULL) {
    *err = "the output file name contains a newline, which a dependency file cannot express";
    return false;
  }
  size_t n;
  const char **list = collect(src, extra, nextra, &n, err);
  if (list == NULL)
    return false;
  put_escaped(out, target);
  fputc(':', out);
  for (size_t i = 0; i < n; i++) {
    fputs(" \\\n  ", out);
    put_escaped(out, list[i]);
  }
  fputc('\n', out);
  for (size_t i = 0; i < n; i++) {
    fputc('\n', out);
    put_escaped(out, list[i]);
    fputs(":\n", out);
  }
  free(list);
  return true;
}

bool depfile_write(const char *path, const char *target, const src_set *src,
                   const char *const *extra, size_t nextra, const char **err) {
  outfile o;
  if (!outfile_open(&o, path, err))
    return false;
  if (!depfile_print(o.f, target, src, extra, nextra, err)) {
    outfile_discard(&o);
    return false;
  }
  return outfile_commit(&o, err);
}
