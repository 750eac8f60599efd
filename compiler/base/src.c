/* src: file loading and the byte-offset to line/column mapping. */
#include "base/src.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"

void src_init(src_set *s) {
  s->files = NULL;
  s->count = s->cap = 0;
  s->max_size = SRC_DEFAULT_MAX_SIZE;
  s->err_buf[0] = '\0';
}

void src_free(src_set *s) {
  for (size_t i = 0; i < s->count; i++) {
    free(s->files[i].path);
    free(s->files[i].text);
    free(s->files[i].line_starts);
  }
  free(s->files);
  src_init(s);
}

uint32_t src_add(src_set *s, const char *path, const char *text, size_t len) {
  if (len >= UINT32_MAX)
    ice("source file too large for 32-bit spans");
  PCL__GROW(s->files, s->cap, s->count + 1);
  src_file *f = &s->files[s->count];
  f->path = xstrdup(path);
  f->text = xmalloc(len + 1);
  if (len)
    memcpy(f->text, text, len);
  f->text[len] = '\0';
  f->len = len;
  f->line_starts = NULL;
  f->nlines = 0;
  return (uint32_t)s->count++;
}

bool src_read(src_set *s, const char *path, uint32_t *id, const char **err) {
  /* Opened without blocking, so that a FIFO without a writer reads as
     empty instead of hanging; reads then block as usual. */
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    struct stat lst;
    *err = errno == ENOENT && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)
               ? "No such file or directory (a symbolic link to nothing)"
               : strerror(errno);
    return false;
  }
  snprintf(s->err_buf, sizeof s->err_buf,
           "larger than the input size limit of %zu bytes (--max-input-size)", s->max_size);
  struct stat st;
  bool known = fstat(fd, &st) == 0;
  if (known && S_ISDIR(st.st_mode)) {
    close(fd);
    *err = strerror(EISDIR);
    return false;
  }
  if (known && S_ISREG(st.st_mode) && (uintmax_t)st.st_size > s->max_size) {
    close(fd);
    *err = s->err_buf;
    return false;
  }
  int flags = fcntl(fd, F_GETFL);
  FILE *fp = flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0 ? NULL : fdopen(fd, "rb");
  if (!fp) {
    *err = strerror(errno);
    close(fd);
    return false;
  }
  /* The buffer grows to one byte past the limit at most: reading that
     byte tells a file over the limit from one that fills it. */
  size_t room = s->max_size + 1;
  size_t cap = room < 65536 ? room : 65536, len = 0;
  char *buf = xmalloc(cap);
  size_t n;
  while (len < room && (n = fread(buf + len, 1, cap - len, fp)) > 0) {
    len += n;
    if (len == cap && cap < room) {
      cap = cap > room / 2 ? room : 2 * cap;
      buf = xrealloc(buf, cap);
    }
  }
  bool failed = ferror(fp);
  int saved = errno;
  fclose(fp);
  if (failed || len > s->max_size) {
    free(buf);
    *err = failed ? strerror(saved) : s->err_buf;
    return false;
  }
  /* src_add copies; adopt the buffer directly instead. */
  *id = src_add(s, path, "", 0);
  src_file *f = &s->files[*id];
  free(f->text);
  buf = xrealloc(buf, len + 1);
  buf[len] = '\0';
  f->text = buf;
  f->len = len;
  return true;
}

src_file *src_get(src_set *s, uint32_t id) {
  if (id >= s->count)
    ice("bad file id %u", id);
  return &s->files[id];
}

/* Returns the position one past the next newline at or after p, or NULL
   when there is none before end (memchr scans a word at a time). */
static const char *next_line(const char *p, const char *end) {
  const char *nl = memchr(p, '\n', (size_t)(end - p));
  return nl ? nl + 1 : NULL;
}

static void build_line_map(src_file *f) {
  const char *end = f->text + f->len;
  size_t n = 1;
  for (const char *p = next_line(f->text, end); p; p = next_line(p, end))
    n++;
  f->line_starts = xmalloc(n * sizeof *f->line_starts);
  f->nlines = 0;
  /* A byte-order mark is not part of the first line (the lexer skips it), so
     columns on that line are counted after it. */
  bool bom = f->len >= 3 && memcmp(f->text, "\xEF\xBB\xBF", 3) == 0;
  f->line_starts[f->nlines++] = bom ? 3 : 0;
  for (const char *p = next_line(f->text, end); p; p = next_line(p, end))
    f->line_starts[f->nlines++] = (uint32_t)(p - f->text);
  f->ascii = true;
  for (size_t i = 0; i < f->len && f->ascii; i++)
    f->ascii = (unsigned char)f->text[i] < 0x80;
  f->last_line = 0;
}

src_pos src_position(src_set *s, uint32_t id, uint32_t offset) {
  src_file *f = src_get(s, id);
  if (!f->line_starts)
    build_line_map(f);
  if (offset > f->len)
    offset = (uint32_t)f->len;
  size_t lo = 0, hi = f->nlines; /* Find the last line start <= offset. */
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (f->line_starts[mid] <= offset)
      lo = mid;
    else
      hi = mid;
  }
  uint32_t start = f->line_starts[lo];
  if (f->ascii)
    return (src_pos){lo + 1, (size_t)(offset - start) + 1};
  /* Columns count code points: the bytes that do not continue one, from
     the nearer of the line's start and the position asked before. */
  size_t column = 1;
  if (f->last_line == lo + 1 && f->last_offset <= offset &&
      offset - f->last_offset < offset - start) {
    column = f->last_column;
    for (uint32_t i = f->last_offset; i < offset; i++)
      column += ((unsigned char)f->text[i] & 0xC0) != 0x80;
  } else if (f->last_line == lo + 1 && f->last_offset > offset &&
             f->last_offset - offset < offset - start) {
    column = f->last_column;
    for (uint32_t i = offset; i < f->last_offset; i++)
      column -= ((unsigned char)f->text[i] & 0xC0) != 0x80;
  } else {
    for (uint32_t i = start; i < offset; i++)
      column += ((unsigned char)f->text[i] & 0xC0) != 0x80;
  }
  f->last_line = lo + 1;
  f->last_offset = offset;
  f->last_column = column;
  return (src_pos){lo + 1, column};
}

const char *src_line(src_set *s, uint32_t id, size_t line, size_t *len) {
  src_file *f = src_get(s, id);
  if (!f->line_starts)
    build_line_map(f);
  if (line == 0 || line > f->nlines) {
    *len = 0;
    return "";
  }
  size_t start = f->line_starts[line - 1];
  size_t end = line < f->nlines ? f->line_starts[line] - 1 : f->len;
  if (end > start && f->text[end - 1] == '\r' && end < f->len)
    end--;
  *len = end - start;
  return f->text + start;
}

static int compare_paths(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

bool src_list_dir(const char *dir, char ***paths, size_t *count, const char **err) {
  DIR *d = opendir(dir);
  if (!d) {
    *err = strerror(errno);
    return false;
  }
  size_t n = 0, cap = 8;
  char **list = xmalloc(cap * sizeof *list);
  size_t dirlen = strlen(dir);
  bool slash = dirlen > 0 && dir[dirlen - 1] == '/';
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    size_t len = strlen(e->d_name);
    if (len < 4 || strcmp(e->d_name + len - 3, ".pp") != 0)
      continue;
    /* Every entry named *.pp is listed, whatever it is: one that cannot
       be read (a dangling or looping symbolic link, a directory) is then
       an error naming it, not a file silently left out. */
    char *path = xmalloc(dirlen + 1 + len + 1);
    snprintf(path, dirlen + len + 2, "%s%s%s", dir, slash ? "" : "/", e->d_name);
    PCL__GROW(list, cap, n + 1);
    list[n++] = path;
  }
  closedir(d);
  qsort(list, n, sizeof *list, compare_paths);
  *paths = list;
  *count = n;
  return true;
}
