/* diag: diagnostics collected during a compilation and printed together.
 *
 * Phases report into a diag_list instead of printing and exiting; the driver
 * prints the list (GCC layout: `path:line:col: error: message`, the source
 * line, and a `^~~~` underline) and stops after any phase with errors.  At
 * most DIAG_MAX_ERRORS errors are printed; a warning reported for the same
 * cause again and again prints once with its count.
 *
 * A failure the checker proves an expression meets whenever it runs (a
 * conversion that cannot succeed, a traversal the types rule out) is
 * reported with diag_fail: an error, except where the program catches it
 * (inside the arguments of try and can, functions.md §6), where it is a
 * warning that the caller turns into an expression failing at run time. */
#ifndef PCLC_DIAG_H
#define PCLC_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base/arena.h"
#include "base/src.h"

enum { DIAG_MAX_ERRORS = 50 };
/* The most code points of a source line an excerpt shows. */
enum { DIAG_EXCERPT_WIDTH = 80 };
/* The most code points of a text a message quotes (a string argument of
 * its format): past it the text is cut and marked "...". */
enum { DIAG_QUOTE_WIDTH = 80 };

typedef enum diag_severity { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE } diag_severity;

typedef struct diag diag;
struct diag {
  diag_severity severity;
  bool has_span;  /* False for diagnostics about no particular place. */
  pcl_span span;  /* Where the problem is. */
  char *message;  /* The text after "error: " (owned). */
  char *key;      /* The cause of a warning printed once (owned), or NULL. */
  size_t count;   /* For a keyed warning, set when printing: how many times
                     its cause was reported when it is the first, else 0
                     (not printed).  1 for every other diagnostic. */
  diag *notes;    /* Notes attached to this diagnostic, in order. */
  diag *next;     /* Next diagnostic (or note) in the list. */
};

/* An expression that catches run-time failures (a try or can call); the
   innermost one is in effect. */
typedef struct diag_catch {
  pcl_span span;                  /* The catching expression. */
  const char *note;               /* The note a caught failure gets there (static). */
  const struct diag_catch *outer; /* The one around it, or NULL. */
} diag_catch;

typedef struct diag_list {
  src_set *src;      /* Files the spans refer to (borrowed). */
  diag *head, *tail; /* Diagnostics in the order reported. */
  size_t errors;     /* Number of errors reported. */
  size_t warnings;   /* Number of warnings reported. */
  size_t io_errors;  /* Errors that are I/O failures (exit status 2). */
  const diag_catch *catching; /* Where failures are caught now, or NULL
                                 (borrowed; set by the checker). */
  const diag *caught; /* The first failure caught since the last
                         diag_take_caught, or NULL. */
  bool color;         /* diag_print colours as gcc does (locations bold,
                         severities in colour, the underline green). */
} diag_list;

/* Returns s, or when it is longer than DIAG_QUOTE_WIDTH code points its
 * first DIAG_QUOTE_WIDTH followed by "..." (a copy in a): for the texts of
 * the program (names, types) quoted by a message built beforehand and
 * reported with the format "%s".  The diag functions shorten their string
 * arguments so by themselves. */
const char *diag_clip(arena *a, const char *s);

/* Returns the text of fmt with its arguments as a diagnostic's message is
 * built (the caller frees it): each string argument is shortened as
 * diag_clip does, except that the format "%s" passes a message built
 * beforehand through whole (the texts it quotes were shortened when it was
 * built, with diag_clip or diag_vformat). */
char *diag_vformat(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

void diag_init(diag_list *d, src_set *src);
void diag_free(diag_list *d);
/* Reports an error at span; returns it so notes can be attached. */
diag *diag_error(diag_list *d, pcl_span span, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Reports a warning at span. */
diag *diag_warning(diag_list *d, pcl_span span, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Reports a warning at span for the cause named key.  Warnings of one key
 * print once, at the first in the list, with their count ("(3 times)"). */
void diag_warning_once(diag_list *d, const char *key, pcl_span span, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Reports a failure that the expression at span meets whenever it runs: an
 * error, or while d->catching is set a warning with the catcher's note,
 * remembered (if none is pending) for diag_take_caught. */
diag *diag_fail(diag_list *d, pcl_span span, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Returns the failure caught since the last call, or NULL, and forgets it:
 * the expression it makes fail takes its message and span (borrowed). */
const diag *diag_take_caught(diag_list *d);
/* Reports an error that has no source location. */
diag *diag_error_global(diag_list *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Reports an I/O failure (a file or folder that cannot be read) as an
 * error without location; the compilation then exits with status 2. */
diag *diag_io_error(diag_list *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Counts the error g (just reported, with a location) as an I/O failure;
 * returns g. */
diag *diag_mark_io(diag_list *d, diag *g);
/* Attaches a note at span to the diagnostic parent. */
void diag_note(diag *parent, pcl_span span, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Returns whether the last error reported will be printed (it is among the
 * first DIAG_MAX_ERRORS): a note that costs a search, such as a suggestion,
 * is worth making only then. */
bool diag_last_shown(const diag_list *d);
/* Attaches the note "did you mean 'NAME'?" at span to g, for the name
 * name[0..len). */
void diag_note_suggestion(diag *g, pcl_span span, const char *name, size_t len);
/* Prints every diagnostic (at most DIAG_MAX_ERRORS errors) to out, in
 * colour when d->color is set. */
void diag_print(diag_list *d, FILE *out);

#endif
