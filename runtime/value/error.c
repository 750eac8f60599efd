/* error.c: run-time errors shared by the whole runtime.
 *
 * A pcl_error carries a message and, once a caller that knows the PCL source
 * attaches it, a location.  Fallible functions return NULL and hand the
 * caller a new error through an out-parameter; futures are rejected with
 * one.  pcl_error_format gives the D11 form
 * "main.pp:12:5: error: cannot convert 2.5 to int: not an integer". */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "value/pcl_internal.h"

struct pcl_error {
  char *message; /* The message, owned. */
  char *file;    /* The PCL source file, owned; NULL when none is attached. */
  unsigned line; /* 1-based line, 0 without a location. */
  unsigned col;  /* 1-based column, 0 without a location. */
};

pcl_error *pcl_error_newv(const char *fmt, va_list ap) {
  pcl_error *e = pcl_xmalloc(sizeof *e);
  e->message = pcl__vformat(fmt, ap);
  e->file = NULL;
  e->line = 0;
  e->col = 0;
  return e;
}

pcl_error *pcl_error_new(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  pcl_error *e = pcl_error_newv(fmt, ap);
  va_end(ap);
  return e;
}

pcl_error *pcl_error_copy(const pcl_error *e) {
  pcl_error *c = pcl_xmalloc(sizeof *c);
  c->message = pcl_xstrdup(e->message);
  c->file = e->file != NULL ? pcl_xstrdup(e->file) : NULL;
  c->line = e->line;
  c->col = e->col;
  return c;
}

void pcl_error_prefix(pcl_error *e, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *prefix = pcl__vformat(fmt, ap);
  va_end(ap);
  size_t np = strlen(prefix), nm = strlen(e->message);
  char *s = pcl_xmalloc(np + 2 + nm + 1);
  memcpy(s, prefix, np);
  memcpy(s + np, ": ", 2);
  memcpy(s + np + 2, e->message, nm + 1);
  free(prefix);
  free(e->message);
  e->message = s;
}

void pcl_error_set_location(pcl_error *e, const char *file, unsigned line, unsigned col) {
  if (e->file != NULL || file == NULL) {
    return;
  }
  e->file = pcl_xstrdup(file);
  e->line = line;
  e->col = col;
}

const char *pcl_error_message(const pcl_error *e) { return e->message; }
const char *pcl_error_file(const pcl_error *e) { return e->file; }
unsigned pcl_error_line(const pcl_error *e) { return e->line; }
unsigned pcl_error_column(const pcl_error *e) { return e->col; }

char *pcl_error_format(const pcl_error *e) {
  pcl_strbuf b = PCL_STRBUF_INIT;
  if (e->file != NULL) {
    pcl_strbuf_appendf(&b, "%s:%u:%u: ", e->file, e->line, e->col);
  }
  pcl_strbuf_append_cstr(&b, "error: ");
  pcl_strbuf_append_cstr(&b, e->message);
  return b.data;
}

/* gcc's default colours (GCC_COLORS): the location bold, each severity in
 * its bold colour; SGR_END ends each. */
#define SGR_LOCUS "\033[01m"
#define SGR_END "\033[m"
static const char *const severity_sgr[] = {"\033[01;36m", "\033[01;36m", "\033[01;35m",
                                           "\033[01;31m"};
static const char *const severity_names[] = {"debug", "info", "warning", "error"};

/* True when messages to stderr are coloured: stderr is a terminal, NO_COLOR
 * is unset or empty and TERM is set and not dumb (pclc's auto rule). */
static bool stderr_in_colour(void) {
  static int decided = -1;
  if (decided < 0) {
    const char *no_color = getenv("NO_COLOR");
    const char *term = getenv("TERM");
    decided = isatty(STDERR_FILENO) && !(no_color && *no_color) && term &&
              strcmp(term, "dumb") != 0;
  }
  return decided != 0;
}

void pcl_error_print(const pcl_error *e, FILE *f) {
  if (f != stderr || !stderr_in_colour()) {
    char *s = pcl_error_format(e);
    fprintf(f, "%s\n", s);
    free(s);
    return;
  }
  if (e->file != NULL) {
    fprintf(f, SGR_LOCUS "%s:%u:%u:" SGR_END " ", e->file, e->line, e->col);
  }
  fprintf(f, "%serror:" SGR_END " %s\n", severity_sgr[PCL_LOG_ERROR], e->message);
}

void pcl__print_log(pcl_log_severity sev, const char *urn, const char *msg) {
  bool colour = stderr_in_colour();
  fprintf(stderr, "%s%s:%s %s%s%s\n", colour ? severity_sgr[sev] : "", severity_names[sev],
          colour ? SGR_END : "", urn ? urn : "", urn ? ": " : "", msg);
}

void pcl_error_free(pcl_error *e) {
  if (e == NULL) {
    return;
  }
  free(e->message);
  free(e->file);
  free(e);
}
