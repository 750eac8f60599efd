/* outfile: output files written through a temporary file (see outfile.h). */
#include "base/outfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"

bool outfile_open(outfile *o, const char *path, const char **err) {
  o->f = NULL;
  o->path = xstrdup(path);
  o->tmp = NULL;
  if (strcmp(path, "-") == 0) {
    o->f = stdout;
    return true;
  }
  struct stat st;
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
    o->f = fopen(path, "w");
  } else {
    size_t n = strlen(path);
    o->tmp = xmalloc(n + 8);
    memcpy(o->tmp, path, n);
    memcpy(o->tmp + n, ".XXXXXX", 8);
    int fd = mkstemp(o->tmp);
    if (fd >= 0) {
      /* mkstemp makes the file private; give it the mode fopen would. */
      mode_t mask = umask(0);
      umask(mask);
      fchmod(fd, 0666 & ~mask);
      o->f = fdopen(fd, "w");
      if (!o->f)
        close(fd);
    }
  }
  if (o->f) {
    util_set_temp_file(o->tmp);
    return true;
  }
  *err = strerror(errno);
  if (o->tmp) {
    unlink(o->tmp);
    free(o->tmp);
    o->tmp = NULL;
  }
  free(o->path);
  o->path = NULL;
  return false;
}

/* The end of a file that was open: removes the temporary file when asked
   (it did not become the output), and forgets both names. */
static void forget(outfile *o, bool remove_tmp) {
  if (remove_tmp && o->tmp)
    unlink(o->tmp);
  util_set_temp_file(NULL);
  free(o->tmp);
  free(o->path);
  o->tmp = o->path = NULL;
}

bool outfile_commit(outfile *o, const char **err) {
  bool ok = fflush(o->f) == 0 && !ferror(o->f);
  int saved = errno;
  if (o->f != stdout && fclose(o->f) != 0 && ok) {
    ok = false;
    saved = errno;
  }
  o->f = NULL;
  if (ok && o->tmp && rename(o->tmp, o->path) != 0) {
    ok = false;
    saved = errno;
  }
  if (!ok)
    *err = strerror(saved ? saved : EIO);
  forget(o, !ok);
  return ok;
}

void outfile_discard(outfile *o) {
  if (o->f && o->f != stdout)
    fclose(o->f);
  o->f = NULL;
  forget(o, true);
}
