/* outfile: the compiler's output files (-o, -MF), written so that a
 * failure is never silent and never leaves a truncated file.
 *
 * A regular file (or a path that does not exist yet) is written to a
 * temporary file beside it, which replaces it only once everything was
 * written and closed without error: a failure leaves the previous file or
 * none.  Standard output ("-") and a path that is not a regular file (a
 * device such as /dev/full, a pipe) are written in place.  Every write and
 * close error is reported with the system's reason (a full disk, a closed
 * pipe: the caller ignores SIGPIPE). */
#ifndef PCLC_OUTFILE_H
#define PCLC_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

/* An output file being written. */
typedef struct outfile {
  FILE *f;    /* Where to write. */
  char *path; /* The target's path (owned copy). */
  char *tmp;  /* The temporary file beside it (owned), or NULL when written in place. */
} outfile;

/* Opens path for writing ("-" is standard output).  Returns false with *err
 * set to the system's reason (static text) when it cannot. */
bool outfile_open(outfile *o, const char *path, const char **err);
/* Finishes the file: flushes and closes it and moves the temporary file
 * into place.  Returns false with *err set (static text) when anything
 * failed; the target is then left as it was. */
bool outfile_commit(outfile *o, const char **err);
/* Closes the file and removes the temporary file, leaving the target as it
 * was (after a failure of whatever produced the contents). */
void outfile_discard(outfile *o);

#endif
