/* pclc_diag: pclc's messages, read back from its standard error.
 *
 * pclc writes each diagnostic as `file:line:col: error|warning: message`,
 * then the source line and a caret line, then its notes (`file:line:col:
 * note: ...` with their own source lines); a message without a location is
 * `pclc: error: message` or `error: message`.  The host runs pclc on `.`,
 * so file names start with `./`, which is left out here: the names are
 * relative to the program's directory. */
#ifndef HOST_PCLC_DIAG_H
#define HOST_PCLC_DIAG_H

#include <stdbool.h>
#include <stddef.h>

/* One diagnostic. */
typedef struct pdiag {
  bool warning;   /* A warning (else an error). */
  char *file;     /* Its file, or NULL when it has no location. */
  long line, col; /* Its 1-based position (0 without a location). */
  char *message;  /* The message (heap). */
  char *detail;   /* The lines after the first: source, carets, notes ("" when none). */
} pdiag;

typedef struct pdiag_list {
  pdiag *v;
  size_t n, cap; /* Used and allocated. */
} pdiag_list;

/* Reads pclc's messages from text into out. */
void pdiag_parse(const char *text, pdiag_list *out);
/* Returns the diagnostic as the CLI shows a program's error: `file:line:col:
   message` and the detail lines, without the final newline (heap). */
char *pdiag_text(const pdiag *d);
void pdiag_free(pdiag_list *l);

#endif
