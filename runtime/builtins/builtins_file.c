/* builtins_file.c: the built-ins about files: readFile, filebase64,
 * filebase64sha256, readDir and mimeType (../shared/spec/functions.md
 * §4, §7; readDir and mimeType, which programs converted from Terraform
 * call, as Pulumi's Go programs implement them, docs/functions.md).
 *
 * A relative path is resolved against the base directory the caller passes
 * (the program's directory; NULL means the process's working directory).
 * Failures read like Go's os errors, which the reference prints after the
 * function's name ("readFile: open a.txt: no such file or directory"), with
 * the path as the program wrote it so that messages do not depend on where
 * the program runs.  SHA-256 and base64 go through nettle (D8). */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <nettle/sha2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtins/builtins_internal.h"
#include "value/pcl_internal.h"

/* Writes errnum's text as Go spells it to msg: Go's errno texts are
 * glibc's with a lowercase first letter. */
static void go_errno_text(int errnum, char msg[static 256]) {
  snprintf(msg, 256, "%s", strerror(errnum));
  msg[0] = (char)tolower((unsigned char)msg[0]);
}

void pcl__b_os_error(pcl__bcall *c, const char *prefix, const char *op, const pcl_value *path,
                     int errnum) {
  char msg[256];
  go_errno_text(errnum, msg);
  pcl__b_fail(c, "%s: %s %s: %s", prefix, op, pcl__b_shown(c, path), msg);
}

char *pcl__b_resolve(const char *base_dir, const pcl_value *path) {
  const char *p = pcl_str_data(path);
  if (base_dir == NULL || base_dir[0] == '\0' || p[0] == '/') {
    return pcl_xstrdup(p);
  }
  size_t nb = strlen(base_dir), np = pcl_str_len(path);
  char *full = pcl_xmalloc(nb + 1 + np + 1);
  memcpy(full, base_dir, nb);
  size_t at = nb;
  if (nb > 0 && base_dir[nb - 1] != '/') {
    full[at++] = '/';
  }
  memcpy(full + at, p, np + 1);
  return full;
}

/* Appends the bytes of the file at path (resolved against base_dir) to out;
 * on failure records "<prefix>: open|read <path>: ..." and returns false. */
static bool pcl__b_read_file(pcl__bcall *c, const char *prefix, const char *base_dir,
                             const pcl_value *path, pcl_strbuf *out) {
  if (memchr(pcl_str_data(path), '\0', pcl_str_len(path)) != NULL) {
    pcl__b_os_error(c, prefix, "open", path, EINVAL);
    return false;
  }
  char *full = pcl__b_resolve(base_dir, path);
  int fd = open(full, O_RDONLY | O_CLOEXEC);
  free(full);
  if (fd < 0) {
    pcl__b_os_error(c, prefix, "open", path, errno);
    return false;
  }
  char buf[65536];
  for (;;) {
    ssize_t k = read(fd, buf, sizeof buf);
    if (k < 0 && errno == EINTR) {
      continue;
    }
    if (k < 0) {
      int e = errno;
      close(fd);
      pcl__b_os_error(c, prefix, "read", path, e);
      return false;
    }
    if (k == 0) {
      break;
    }
    pcl_strbuf_append(out, buf, (size_t)k);
    pcl_error *e = NULL;
    if (!pcl__value_fits(out->len, "the file", &e)) {
      close(fd);
      pcl_error_prefix(e, "%s: read %s", prefix, pcl__b_shown(c, path));
      return pcl__b_fail_take(c, e);
    }
  }
  close(fd);
  return true;
}

pcl_value *pcl_fn_readFile(const char *base_dir, pcl_value *path, pcl_error **err) {
  pcl__bcall c = PCL__BCALL("readFile", err);
  pcl_value *p = pcl__b_string(&c, "path", path);
  pcl_value *result = NULL;
  pcl_strbuf b = PCL_STRBUF_INIT;
  if (p != NULL && pcl__b_read_file(&c, "readFile", base_dir, p, &b)) {
    result = pcl_str_new_lossy(b.data != NULL ? b.data : "", b.len);
  }
  pcl_strbuf_free(&b);
  pcl_release(p);
  return pcl__b_finish(&c, result);
}

pcl_value *pcl_fn_filebase64(const char *base_dir, pcl_value *path, pcl_error **err) {
  pcl__bcall c = PCL__BCALL("filebase64", err);
  pcl_value *p = pcl__b_string(&c, "path", path);
  pcl_value *result = NULL;
  pcl_strbuf b = PCL_STRBUF_INIT;
  if (p != NULL && pcl__b_read_file(&c, "filebase64", base_dir, p, &b)) {
    result = pcl__b_base64(&c, b.data, b.len);
  }
  pcl_strbuf_free(&b);
  pcl_release(p);
  return pcl__b_finish(&c, result);
}

pcl_value *pcl_fn_filebase64sha256(const char *base_dir, pcl_value *path, pcl_error **err) {
  pcl__bcall c = PCL__BCALL("filebase64sha256", err);
  pcl_value *p = pcl__b_string(&c, "path", path);
  pcl_value *result = NULL;
  pcl_strbuf b = PCL_STRBUF_INIT;
  if (p != NULL && pcl__b_read_file(&c, "filebase64sha256", base_dir, p, &b)) {
    struct sha256_ctx ctx;
    uint8_t digest[SHA256_DIGEST_SIZE];
    sha256_init(&ctx);
    sha256_update(&ctx, b.len, (const uint8_t *)b.data);
    sha256_digest(&ctx, SHA256_DIGEST_SIZE, digest);
    pcl_strbuf enc = PCL_STRBUF_INIT;
    pcl__base64_encode(&enc, digest, sizeof digest);
    result = pcl_str_new_lossy(enc.data, enc.len);
    pcl_strbuf_free(&enc);
  }
  pcl_strbuf_free(&b);
  pcl_release(p);
  return pcl__b_finish(&c, result);
}

/* qsort order of STRING values by their bytes. */
static int str_cmp(const void *pa, const void *pb) {
  const pcl_value *a = *(pcl_value *const *)pa, *b = *(pcl_value *const *)pb;
  size_t la = pcl_str_len(a), lb = pcl_str_len(b);
  int c = memcmp(pcl_str_data(a), pcl_str_data(b), la < lb ? la : lb);
  return c != 0 ? c : (la > lb) - (la < lb);
}

pcl_value *pcl_fn_readDir(const char *base_dir, pcl_value *path, pcl_error **err) {
  pcl__bcall c = PCL__BCALL("readDir", err);
  pcl_value *p = pcl__b_string(&c, "path", path);
  if (p == NULL) {
    return pcl__b_finish(&c, NULL);
  }
  if (memchr(pcl_str_data(p), '\0', pcl_str_len(p)) != NULL) {
    pcl__b_os_error(&c, "readDir", "open", p, EINVAL);
    pcl_release(p);
    return pcl__b_finish(&c, NULL);
  }
  char *full = pcl__b_resolve(base_dir, p);
  DIR *d = opendir(full);
  free(full);
  if (d == NULL) {
    /* Go opens first, then reads the entries: a file opens and fails to
     * list ("readdirent x: not a directory"). */
    int e = errno;
    pcl__b_os_error(&c, "readDir", e == ENOTDIR ? "readdirent" : "open", p, e);
    pcl_release(p);
    return pcl__b_finish(&c, NULL);
  }
  pcl_value **names = NULL;
  size_t n = 0, cap = 0;
  struct dirent *ent;
  bool fits = true;
  while ((errno = 0, ent = readdir(d)) != NULL) {
    if (strcmp(ent->d_name, ".") == 0 || strcmp(ent->d_name, "..") == 0) {
      continue;
    }
    pcl_error *big = NULL;
    if (!pcl__value_fits((n + 1) * sizeof *names, "the list", &big)) {
      pcl__b_fail_take(&c, big);
      fits = false;
      break;
    }
    PCL__GROW(names, cap, n + 1);
    names[n++] = pcl_str_new_lossy(ent->d_name, strlen(ent->d_name));
  }
  int e = errno;
  closedir(d);
  pcl_value *result = NULL;
  if (!fits || e != 0) {
    if (fits) {
      pcl__b_os_error(&c, "readDir", "readdirent", p, e);
    }
    for (size_t i = 0; i < n; i++) {
      pcl_release(names[i]);
    }
  } else {
    /* Sorted by name, as Go's os.ReadDir returns them (names is NULL for an
     * empty directory, which qsort must not be given). */
    if (n > 0) {
      qsort(names, n, sizeof *names, str_cmp);
    }
    result = pcl_list_of_take(names, n);
  }
  free(names);
  pcl_release(p);
  return pcl__b_finish(&c, result);
}

/* The media types mimeType knows, by lowercase extension: Go's built-in
 * table (mime.TypeByExtension answers these on every system) and the
 * common types Go reads from a system's mime.types on Debian, text types
 * with the "; charset=utf-8" Go adds to them.  Sorted by extension. */
static const struct {
  const char *ext;
  const char *type;
} mime_types[] = {
    {".avif", "image/avif"},
    {".bmp", "image/bmp"},
    {".css", "text/css; charset=utf-8"},
    {".csv", "text/csv; charset=utf-8"},
    {".gif", "image/gif"},
    {".gz", "application/gzip"},
    {".htm", "text/html; charset=utf-8"},
    {".html", "text/html; charset=utf-8"},
    {".ico", "image/vnd.microsoft.icon"},
    {".jar", "application/java-archive"},
    {".jpeg", "image/jpeg"},
    {".jpg", "image/jpeg"},
    {".js", "text/javascript; charset=utf-8"},
    {".json", "application/json"},
    {".md", "text/markdown; charset=utf-8"},
    {".mjs", "text/javascript; charset=utf-8"},
    {".mp3", "audio/mpeg"},
    {".mp4", "video/mp4"},
    {".ogg", "audio/ogg"},
    {".otf", "font/otf"},
    {".pdf", "application/pdf"},
    {".png", "image/png"},
    {".rtf", "application/rtf"},
    {".svg", "image/svg+xml"},
    {".tar", "application/x-tar"},
    {".tif", "image/tiff"},
    {".tiff", "image/tiff"},
    {".ttf", "font/ttf"},
    {".txt", "text/plain; charset=utf-8"},
    {".wasm", "application/wasm"},
    {".wav", "audio/x-wav"},
    {".webm", "video/webm"},
    {".webp", "image/webp"},
    {".woff", "font/woff"},
    {".woff2", "font/woff2"},
    {".xml", "text/xml; charset=utf-8"},
    {".zip", "application/zip"},
};

pcl_value *pcl_fn_mimeType(pcl_value *path, pcl_error **err) {
  pcl__bcall c = PCL__BCALL("mimeType", err);
  pcl_value *p = pcl__b_string(&c, "path", path);
  if (p == NULL) {
    return pcl__b_finish(&c, NULL);
  }
  /* Go's path.Ext: from the last dot of the last slash-separated element;
   * the lookup ignores ASCII case, as TypeByExtension's second try does. */
  const char *s = pcl_str_data(p);
  size_t len = pcl_str_len(p), dot = len;
  for (size_t i = len; i > 0 && s[i - 1] != '/'; i--) {
    if (s[i - 1] == '.') {
      dot = i - 1;
      break;
    }
  }
  const char *type = "";
  size_t elen = len - dot;
  char ext[16];
  if (dot < len && elen < sizeof ext) {
    for (size_t i = 0; i < elen; i++) {
      ext[i] = (char)tolower((unsigned char)s[dot + i]);
    }
    ext[elen] = '\0';
    for (size_t i = 0; i < sizeof mime_types / sizeof mime_types[0]; i++) {
      if (strcmp(mime_types[i].ext, ext) == 0) {
        type = mime_types[i].type;
        break;
      }
    }
  }
  pcl_release(p);
  return pcl__b_finish(&c, pcl_str_from_cstr(type));
}

