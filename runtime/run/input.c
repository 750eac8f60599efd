/* input.c: the compiled program's input documents (mocks files,
 * stack-reference files, config files, PULUMI_CONFIG and
 * PULUMI_CONFIG_SECRET_KEYS): files read whole, JSON decoded, and the shape
 * of what was decoded checked against what docs/mocks.md,
 * docs/program-cli.md and docs/snapshot.md document.
 *
 * Every reader goes through this one layer, so that every input fails the
 * same way: a file that cannot be read gives "<path>: <the system's
 * reason>", a file or text over the value size limit an error saying so,
 * invalid JSON its byte offset, and a value of the wrong shape
 * "<document>: <JSON path>: expected <what>, got <value>" (the path as
 * resources."aws:s3:Bucket".error).  Nothing of the wrong shape is ignored
 * or replaced by a default, so later code may rely on the shapes checked
 * here. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/engine.h"
#include "value/pcl_internal.h"

/* Reads the whole file at path into *text (owned, NUL-terminated) and its
 * length into *len; false with *err "<path>: <the system's reason>" (also
 * for a directory), or the size-limit error, when it cannot. */
static bool pcl__read_file(const char *path, char **text, size_t *len, pcl_error **err) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    *err = pcl_error_new("%s: %s", path, strerror(errno));
    return false;
  }
  struct stat st;
  if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
    fclose(f);
    *err = pcl_error_new("%s: %s", path, strerror(EISDIR));
    return false;
  }
  /* A regular file's size is known: refuse an oversized one unread.  Other
   * files (pipes, devices) are checked as they are read. */
  if (S_ISREG(st.st_mode) && !pcl__value_fits((size_t)st.st_size, "the file", err)) {
    fclose(f);
    pcl_error_prefix(*err, "%s", path);
    return false;
  }
  pcl_strbuf b = PCL_STRBUF_INIT;
  char chunk[65536];
  size_t n;
  bool ok = true;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
    pcl_strbuf_append(&b, chunk, n);
    if (!pcl__value_fits(b.len, "the file", err)) {
      pcl_error_prefix(*err, "%s", path);
      ok = false;
      break;
    }
  }
  if (ok && ferror(f)) {
    *err = pcl_error_new("%s: %s", path, strerror(errno ? errno : EIO));
    ok = false;
  }
  fclose(f);
  if (!ok) {
    pcl_strbuf_free(&b);
    return false;
  }
  if (b.data == NULL) {
    pcl_strbuf_append(&b, "", 0);
  }
  *text = b.data;
  *len = b.len;
  return true;
}

pcl_value *pcl__read_json(const char *name, const char *text, size_t len, unsigned flags,
                          pcl_error **err) {
  pcl_value *v = pcl_json_decode(text, len, flags, err);
  if (v == NULL) {
    pcl_error_prefix(*err, "%s", name);
  }
  return v;
}

pcl_value *pcl__read_json_file(const char *path, unsigned flags, pcl_error **err) {
  char *text;
  size_t len;
  if (!pcl__read_file(path, &text, &len, err)) {
    return NULL;
  }
  pcl_value *v = pcl__read_json(path, text, len, flags, err);
  free(text);
  return v;
}

/* ------------------------------------------------------------ documents */

size_t pcl__doc_key(pcl__doc *d, const char *key, size_t len) {
  size_t mark = d->path.len;
  if (mark > 0) {
    pcl_strbuf_append_char(&d->path, '.');
  }
  pcl__path_key(&d->path, key, len);
  return mark;
}

size_t pcl__doc_index(pcl__doc *d, size_t i) {
  size_t mark = d->path.len;
  pcl_strbuf_appendf(&d->path, "[%zu]", i);
  return mark;
}

void pcl__doc_leave(pcl__doc *d, size_t mark) {
  d->path.len = mark;
  if (d->path.data != NULL) {
    d->path.data[mark] = '\0';
  }
}

bool pcl__doc_fail(pcl__doc *d, const char *fmt, ...) {
  if (d->err != NULL) {
    return false;
  }
  va_list ap;
  va_start(ap, fmt);
  d->err = pcl_error_newv(fmt, ap);
  va_end(ap);
  if (d->path.len > 0) {
    pcl_error_prefix(d->err, "%s", d->path.data);
  }
  pcl_error_prefix(d->err, "%s", d->name);
  return false;
}

bool pcl__doc_is(pcl__doc *d, const pcl_value *v, pcl_kind kind, const char *what) {
  if (pcl_kind_of(v) == kind) {
    return true;
  }
  char *got = pcl_value_repr(v, 40);
  pcl__doc_fail(d, "expected %s, got %s", what, got);
  free(got);
  return false;
}

bool pcl__doc_keys(pcl__doc *d, const pcl_value *obj, const char *const *keys, size_t n) {
  for (size_t i = 0; i < pcl_len(obj); i++) {
    const pcl_value *k = pcl_map_key_at(obj, i);
    bool known = false;
    for (size_t j = 0; j < n && !known; j++) {
      known = pcl_str_eq_cstr(k, keys[j]);
    }
    if (known) {
      continue;
    }
    pcl_strbuf list = PCL_STRBUF_INIT;
    for (size_t j = 0; j < n; j++) {
      pcl_strbuf_append_cstr(&list, j == 0 ? "" : j + 1 == n ? " or " : ", ");
      pcl_strbuf_append_cstr(&list, keys[j]);
    }
    size_t mark = pcl__doc_key(d, pcl_str_data(k), pcl_str_len(k));
    pcl__doc_fail(d, "unknown key (expected %s)", list.data);
    pcl__doc_leave(d, mark);
    pcl_strbuf_free(&list);
    return false;
  }
  return true;
}

pcl_error *pcl__doc_finish(pcl__doc *d) {
  pcl_strbuf_free(&d->path);
  pcl_error *e = d->err;
  d->err = NULL;
  return e;
}

/* ----------------------------------------------------- stack references */

/* Checks a secretOutputNames list: a LIST of STRINGs, either of which may
 * be marked secret (an engine may send them so).  Returns the names as a
 * LIST of plain STRINGs (owned), or NULL after an error. */
static pcl_value *secret_names(pcl__doc *d, const pcl_value *v) {
  while (pcl_kind_of(v) == PCL_T_SECRET) {
    v = pcl_secret_inner(v);
  }
  if (!pcl__doc_is(d, v, PCL_T_LIST, "a list of output names")) {
    return NULL;
  }
  pcl_value *names = pcl_list_new(pcl_len(v));
  bool ok = true;
  for (size_t i = 0; i < pcl_len(v); i++) {
    const pcl_value *s = pcl_list_at(v, i);
    while (pcl_kind_of(s) == PCL_T_SECRET) {
      s = pcl_secret_inner(s);
    }
    size_t mark = pcl__doc_index(d, i);
    ok = ok && pcl__doc_is(d, s, PCL_T_STRING, "an output name (a string)");
    pcl__doc_leave(d, mark);
    pcl_list_init_take(names, i, pcl_retain(ok ? (pcl_value *)s : pcl_null()));
  }
  if (!ok) {
    pcl_release(names);
    return NULL;
  }
  return names;
}

pcl_value *pcl__stack_ref_check(pcl__doc *d, const pcl_value *v, bool plain_allowed) {
  if (!pcl__doc_is(d, v, PCL_T_MAP, "an object")) {
    return NULL;
  }
  const pcl_value *outs = v;
  pcl_value *names = NULL;
  if (!plain_allowed || pcl_map_get_cstr(v, "outputs") != NULL) {
    static const char *const keys[] = {"outputs", "secretOutputNames"};
    if (!pcl__doc_keys(d, v, keys, 2)) {
      return NULL;
    }
    outs = pcl_map_get_cstr(v, "outputs");
    if (outs == NULL) {
      pcl__doc_fail(d, "expected an object with \"outputs\"");
      return NULL;
    }
    size_t mark = pcl__doc_key(d, "outputs", 7);
    bool ok = pcl__doc_is(d, outs, PCL_T_MAP, "an object");
    pcl__doc_leave(d, mark);
    if (!ok) {
      return NULL;
    }
    const pcl_value *sn = pcl_map_get_cstr(v, "secretOutputNames");
    if (sn != NULL) {
      mark = pcl__doc_key(d, "secretOutputNames", 17);
      names = secret_names(d, sn);
      pcl__doc_leave(d, mark);
      if (names == NULL) {
        return NULL;
      }
    }
  }
  pcl_mapbuf mb = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_cstr(&mb, "outputs", pcl_retain((pcl_value *)outs));
  pcl_mapbuf_put_cstr(&mb, "secretOutputNames", names != NULL ? names : pcl_list_new(0));
  return pcl_mapbuf_finish(&mb);
}

const char *pcl__stack_name_problem(const char *name, size_t len) {
  if (len == 0) {
    return "is empty";
  }
  /* Three parts, none empty: org/project/stack. */
  size_t parts = 1, start = 0;
  for (size_t i = 0; i <= len; i++) {
    if (i == len || name[i] == '/') {
      if (i == start) {
        return "is not org/project/stack: a part is empty";
      }
      parts += i < len;
      start = i + 1;
    }
  }
  return parts == 3 ? NULL : "is not org/project/stack";
}
