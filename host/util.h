/* util: what every part of the language host uses: allocation that never
 * fails, growable byte buffers, paths and files.
 *
 * Allocation failure aborts (as in the compiler and the runtime), so no
 * caller checks for NULL.  Functions that can fail for reasons outside the
 * host (a file that cannot be read or written) return false and write a
 * message naming the file and the system's reason into an error buffer. */
#ifndef HOST_UTIL_H
#define HOST_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "mem.h"

/* Returns a new block of n bytes; aborts when memory is exhausted. */
void *xmalloc(size_t n);
/* Returns a zeroed block of count * size bytes. */
void *xcalloc(size_t count, size_t size);
/* Resizes p (which may be NULL) to n bytes. */
void *xrealloc(void *p, size_t n);
/* Returns a heap copy of s (NULL stays NULL); the caller frees it. */
char *xstrdup(const char *s);
/* Returns a heap copy of the n bytes at s, NUL-terminated. */
char *xstrndup(const char *s, size_t n);
/* A growable byte buffer, always NUL-terminated after its len bytes once
   anything was added: common/'s (pcl__buf_append, pcl__buf_puts,
   pcl__buf_printf, pcl__buf_free; strings are formatted with pcl__format). */
typedef pcl__buf buf;

/* Returns the text (never NULL: "" while empty); it stays owned by b. */
const char *buf_str(buf *b);

/* An error message (owned), set by the functions that can fail. */
typedef struct herr {
  char *msg; /* NULL while no error was set. */
} herr;

/* Sets e's message (replacing any earlier one); returns false, so that a
   failing function can end with `return herr_set(e, ...)`. */
bool herr_set(herr *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Frees e's message. */
void herr_clear(herr *e);

/* Returns dir/name (name as is when it is absolute); the caller frees it. */
char *path_join(const char *dir, const char *name);
/* Returns the directory part of path ("." when there is none). */
char *path_dir(const char *path);
/* Reads the whole file at path into *out (NUL-terminated). */
bool file_read(const char *path, buf *out, herr *e);
/* Writes n bytes to path through a temporary file renamed into place, so
   that a reader never sees a partial file; mode as for open(2). */
bool file_write(const char *path, const void *data, size_t n, unsigned mode, herr *e);
/* Copies the regular file src to dst (through a temporary file). */
bool file_copy(const char *src, const char *dst, herr *e);
/* Creates the directory path and its missing parents. */
bool dir_make(const char *path, herr *e);
/* Removes path and, for a directory, everything under it; a missing path
   is not an error. */
bool dir_remove(const char *path, herr *e);
/* Lists the names in directory dir (without "." and ".."), sorted; the
   caller frees each and the array. */
bool dir_list(const char *dir, char ***names, size_t *count, herr *e);
/* True when path names an existing directory. */
bool is_dir(const char *path);

#endif
