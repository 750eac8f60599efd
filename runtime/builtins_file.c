/* builtins_file.c: the built-ins that read files: readFile, filebase64,
 * filebase64sha256, and cwd (../shared/spec/functions.md §4, §7).
 *
 * A relative path is resolved against the base directory the caller passes
 * (the program's directory; NULL means the process's working directory).
 * Failures read like Go's os errors, which the reference prints after the
 * function's name ("readFile: open a.txt: no such file or directory"), with
 * the path as the program wrote it so that messages do not depend on where
 * the program runs.  SHA-256 and base64 go through nettle (D8). */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <nettle/sha2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtins_internal.h"

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
  pcl__b_fail(c, "%s: %s %s: %s", prefix, op, pcl_str_data(path), msg);
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

bool pcl__b_read_file(pcl__bcall *c, const char *prefix, const char *base_dir,
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
    pcl_strbuf enc = PCL_STRBUF_INIT;
    pcl__b_base64(&enc, (const uint8_t *)b.data, b.len);
    result = pcl_str_new_lossy(enc.data != NULL ? enc.data : "", enc.len);
    pcl_strbuf_free(&enc);
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
    pcl__b_base64(&enc, digest, sizeof digest);
    result = pcl_str_new_lossy(enc.data, enc.len);
    pcl_strbuf_free(&enc);
  }
  pcl_strbuf_free(&b);
  pcl_release(p);
  return pcl__b_finish(&c, result);
}

pcl_value *pcl_fn_cwd(pcl_error **err) {
  size_t cap = 256;
  for (;;) {
    char *buf = pcl_xmalloc(cap);
    if (getcwd(buf, cap) != NULL) {
      pcl_value *v = pcl_str_new_lossy(buf, strlen(buf));
      free(buf);
      return v;
    }
    int e = errno;
    free(buf);
    if (e != ERANGE) {
      char msg[256];
      go_errno_text(e, msg);
      *err = pcl_error_new("cwd: getwd: %s", msg);
      return NULL;
    }
    cap *= 2;
  }
}
