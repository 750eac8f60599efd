/* src: the source files of a compilation and positions within them.
 *
 * A position is stored as a byte-offset span {file, start, end}; line and
 * column are computed only when needed (diagnostics, dumps), from a per-file
 * table of line starts built on first use.  Lines and columns are 1-based and
 * columns count Unicode code points. */
#ifndef PCLC_SRC_H
#define PCLC_SRC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A half-open byte range [start, end) in file number `file`. */
typedef struct pcl_span {
  uint32_t file;  /* Index into the compilation's src_set. */
  uint32_t start; /* Byte offset of the first byte. */
  uint32_t end;   /* Byte offset one past the last byte. */
} pcl_span;

typedef struct src_file {
  char *path;           /* Path as given or as found in a directory (owned). */
  char *text;           /* Contents, NUL-terminated (owned). */
  size_t len;           /* Byte length of text, not counting the NUL. */
  uint32_t *line_starts; /* Byte offset of each line's start; NULL until needed. */
  size_t nlines;        /* Entries in line_starts. */
  bool ascii;           /* The text is pure ASCII: a column is a byte offset
                           (known with line_starts). */
  /* The last position computed in a file that is not pure ASCII, from which
     another on the same line counts its column when it is nearer than the
     line's start: line (1-based, 0 for none), byte offset and column. */
  size_t last_line;
  uint32_t last_offset;
  size_t last_column;
} src_file;

/* The default of src_set.max_size: 256 MiB, a program of some million
 * resources or a large provider schema. */
#define SRC_DEFAULT_MAX_SIZE ((size_t)256 << 20)
/* The largest limit that can be set: spans hold 32-bit offsets. */
#define SRC_LARGEST_MAX_SIZE ((size_t)UINT32_MAX - 1)

typedef struct src_set {
  src_file *files; /* Every file read, in the order they were added. */
  size_t count, cap;
  size_t max_size;   /* src_read refuses a file of more bytes (--max-input-size). */
  char err_buf[128]; /* The last refusal of src_read, when it names the limit. */
} src_set;

typedef struct src_pos {
  size_t line;   /* 1-based line. */
  size_t column; /* 1-based column in code points. */
} src_pos;

void src_init(src_set *s);
/* Frees every file. */
void src_free(src_set *s);
/* Adds a file from memory (the bytes are copied); returns its id. */
uint32_t src_add(src_set *s, const char *path, const char *text, size_t len);
/* Reads the file at path and adds it.  On failure returns false and sets
 * *err to a description of the failure, valid until the next call (from
 * errno; a directory is EISDIR, a symbolic link to nothing says so, and a
 * file of more than s->max_size bytes names the limit).  A regular file's
 * size is checked before anything is read, and a stream (a pipe, a device)
 * is read no further than the limit.  A FIFO without a writer reads as
 * empty rather than blocking. */
bool src_read(src_set *s, const char *path, uint32_t *id, const char **err);
/* Returns the file with the given id. */
src_file *src_get(src_set *s, uint32_t id);
/* Returns the line and column of byte offset `offset` in file `id`: found
 * by binary search over the line starts, the column at once in a file of
 * pure ASCII, else counted from the nearer of the line's start and the
 * position computed last on the same line, so that a walk over the positions
 * of one long line (a program of one 100,000-operator line) takes time linear
 * in its length. */
src_pos src_position(src_set *s, uint32_t id, uint32_t offset);
/* Returns the start and length (without line break) of 1-based line `line`. */
const char *src_line(src_set *s, uint32_t id, size_t line, size_t *len);

/* Lists the entries named `*.pp` directly inside dir in sorted order, all
 * of them (a dangling symbolic link or a directory so named too, so that
 * reading it reports it).  Returns false with *err set when the directory
 * cannot be read.  The caller frees each path and the array. */
bool src_list_dir(const char *dir, char ***paths, size_t *count, const char **err);

#endif
