/* util: allocation, byte buffers, paths and files for the language host
 * (util.h). */
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The host's definition of common/'s hook (mem.h). */
_Noreturn void pcl__out_of_memory(size_t n) {
  (void)n;
  fputs("pulumi-language-pclc: out of memory\n", stderr);
  abort();
}

void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) {
    pcl__out_of_memory(n);
  }
  return p;
}

void *xcalloc(size_t count, size_t size) {
  void *p = calloc(count ? count : 1, size ? size : 1);
  if (!p) {
    size_t n;
    pcl__out_of_memory(__builtin_mul_overflow(count, size, &n) ? SIZE_MAX : n);
  }
  return p;
}

void *xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q) {
    pcl__out_of_memory(n);
  }
  return q;
}

char *xstrdup(const char *s) {
  return s ? xstrndup(s, strlen(s)) : NULL;
}

char *xstrndup(const char *s, size_t n) {
  char *p = xmalloc(n + 1);
  memcpy(p, s, n);
  p[n] = 0;
  return p;
}

const char *buf_str(buf *b) {
  return b->data ? b->data : "";
}

bool herr_set(herr *e, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = pcl__vformat(fmt, ap);
  va_end(ap);
  free(e->msg);
  e->msg = msg;
  return false;
}

void herr_clear(herr *e) {
  free(e->msg);
  e->msg = NULL;
}

char *path_join(const char *dir, const char *name) {
  if (name[0] == '/' || !dir[0]) {
    return xstrdup(name);
  }
  size_t n = strlen(dir);
  return pcl__format("%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/", name);
}

char *path_dir(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash) {
    return xstrdup(".");
  }
  if (slash == path) {
    return xstrdup("/");
  }
  return xstrndup(path, (size_t)(slash - path));
}

bool file_read(const char *path, buf *out, herr *e) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return herr_set(e, "cannot read %s: %s", path, strerror(errno));
  }
  char chunk[65536];
  for (;;) {
    ssize_t n = read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n < 0) {
      int err = errno;
      close(fd);
      return herr_set(e, "cannot read %s: %s", path, strerror(err));
    }
    if (n == 0) {
      break;
    }
    pcl__buf_append(out, chunk, (size_t)n);
  }
  close(fd);
  pcl__buf_append(out, "", 0);
  return true;
}

bool file_write(const char *path, const void *data, size_t n, unsigned mode, herr *e) {
  char *tmp = pcl__format("%s.tmp%ld", path, (long)getpid());
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, (mode_t)mode);
  if (fd < 0) {
    bool r = herr_set(e, "cannot write %s: %s", path, strerror(errno));
    free(tmp);
    return r;
  }
  const char *p = data;
  size_t left = n;
  int err = 0;
  while (left > 0) {
    ssize_t w = write(fd, p, left);
    if (w < 0 && errno == EINTR) {
      continue;
    }
    if (w < 0) {
      err = errno;
      break;
    }
    p += w;
    left -= (size_t)w;
  }
  if (close(fd) != 0 && !err) {
    err = errno;
  }
  if (!err && rename(tmp, path) != 0) {
    err = errno;
  }
  if (err) {
    unlink(tmp);
    free(tmp);
    return herr_set(e, "cannot write %s: %s", path, strerror(err));
  }
  free(tmp);
  return true;
}

bool file_copy(const char *src, const char *dst, herr *e) {
  buf b = {0};
  struct stat st;
  bool ok = file_read(src, &b, e) && (stat(src, &st) == 0 || herr_set(e, "cannot read %s: %s", src,
                                                                       strerror(errno))) &&
            file_write(dst, b.data ? b.data : "", b.len, st.st_mode & 07777, e);
  pcl__buf_free(&b);
  return ok;
}

bool dir_make(const char *path, herr *e) {
  char *p = xstrdup(path);
  for (char *s = p + 1; *s; s++) {
    if (*s != '/') {
      continue;
    }
    *s = 0;
    if (mkdir(p, 0755) != 0 && errno != EEXIST) {
      bool r = herr_set(e, "cannot create directory %s: %s", p, strerror(errno));
      free(p);
      return r;
    }
    *s = '/';
  }
  bool ok = mkdir(p, 0755) == 0 || (errno == EEXIST && is_dir(p)) ||
            herr_set(e, "cannot create directory %s: %s", p, strerror(errno));
  free(p);
  return ok;
}

bool dir_remove(const char *path, herr *e) {
  struct stat st;
  if (lstat(path, &st) != 0) {
    return errno == ENOENT || herr_set(e, "cannot remove %s: %s", path, strerror(errno));
  }
  if (S_ISDIR(st.st_mode)) {
    char **names;
    size_t count;
    if (!dir_list(path, &names, &count, e)) {
      return false;
    }
    bool ok = true;
    for (size_t i = 0; i < count; i++) {
      char *sub = path_join(path, names[i]);
      ok = ok && dir_remove(sub, e);
      free(sub);
      free(names[i]);
    }
    free(names);
    if (!ok) {
      return false;
    }
    return rmdir(path) == 0 || herr_set(e, "cannot remove %s: %s", path, strerror(errno));
  }
  return unlink(path) == 0 || errno == ENOENT ||
         herr_set(e, "cannot remove %s: %s", path, strerror(errno));
}

static int cmp_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

bool dir_list(const char *dir, char ***names, size_t *count, herr *e) {
  *names = NULL;
  *count = 0;
  DIR *d = opendir(dir);
  if (!d) {
    return herr_set(e, "cannot read directory %s: %s", dir, strerror(errno));
  }
  size_t n = 0, cap = 16;
  char **v = xmalloc(cap * sizeof *v);
  struct dirent *de;
  while ((de = readdir(d)) != NULL) {
    if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0) {
      continue;
    }
    PCL__GROW(v, cap, n + 1);
    v[n++] = xstrdup(de->d_name);
  }
  closedir(d);
  qsort(v, n, sizeof *v, cmp_names);
  *names = v;
  *count = n;
  return true;
}

bool is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}
