/* diag: collection and GCC-style printing of diagnostics. */
#include "diag.h"

#include <stdarg.h>
#include <stdlib.h>

#include "util.h"

void diag_init(diag_list *d, src_set *src) {
  d->src = src;
  d->head = d->tail = NULL;
  d->errors = d->warnings = 0;
  d->catching = NULL;
  d->caught = NULL;
}

static void free_chain(diag *g) {
  while (g) {
    diag *next = g->next;
    free_chain(g->notes);
    free(g->message);
    free(g);
    g = next;
  }
}

void diag_free(diag_list *d) {
  free_chain(d->head);
  d->head = d->tail = NULL;
  d->caught = NULL;
}

__attribute__((format(printf, 1, 0))) static char *vformat(const char *fmt, va_list ap) {
  va_list copy;
  va_copy(copy, ap);
  int n = vsnprintf(NULL, 0, fmt, copy);
  va_end(copy);
  if (n < 0)
    ice("vsnprintf failed");
  char *s = xmalloc((size_t)n + 1);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  return s;
}

__attribute__((format(printf, 4, 0))) static diag *new_diag(diag_severity sev, bool has_span,
                                                             pcl_span span, const char *fmt,
                      va_list ap) {
  diag *g = xcalloc(1, sizeof *g);
  g->severity = sev;
  g->has_span = has_span;
  g->span = span;
  g->message = vformat(fmt, ap);
  return g;
}

static diag *append(diag_list *d, diag *g) {
  if (d->tail)
    d->tail->next = g;
  else
    d->head = g;
  d->tail = g;
  if (g->severity == DIAG_ERROR)
    d->errors++;
  else if (g->severity == DIAG_WARNING)
    d->warnings++;
  return g;
}

diag *diag_error(diag_list *d, pcl_span span, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag *g = new_diag(DIAG_ERROR, true, span, fmt, ap);
  va_end(ap);
  return append(d, g);
}

diag *diag_warning(diag_list *d, pcl_span span, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag *g = new_diag(DIAG_WARNING, true, span, fmt, ap);
  va_end(ap);
  return append(d, g);
}

diag *diag_fail(diag_list *d, pcl_span span, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag *g = new_diag(d->catching ? DIAG_WARNING : DIAG_ERROR, true, span, fmt, ap);
  va_end(ap);
  append(d, g);
  if (d->catching) {
    diag_note(g, d->catching->span, "%s", d->catching->note);
    if (!d->caught)
      d->caught = g;
  }
  return g;
}

const diag *diag_take_caught(diag_list *d) {
  const diag *g = d->caught;
  d->caught = NULL;
  return g;
}

diag *diag_error_global(diag_list *d, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag *g = new_diag(DIAG_ERROR, false, (pcl_span){0, 0, 0}, fmt, ap);
  va_end(ap);
  return append(d, g);
}

void diag_note(diag *parent, pcl_span span, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag *g = new_diag(DIAG_NOTE, true, span, fmt, ap);
  va_end(ap);
  diag **p = &parent->notes;
  while (*p)
    p = &(*p)->next;
  *p = g;
}

static const char *severity_name(diag_severity s) {
  switch (s) {
  case DIAG_ERROR:
    return "error";
  case DIAG_WARNING:
    return "warning";
  case DIAG_NOTE:
    return "note";
  }
  ice("bad severity");
}

/* Prints the source line of span and an underline: '^' under the first code
 * point and '~' under the rest of the span that lies on the same line.  Tabs
 * in the prefix are copied so the caret lines up in a terminal. */
static void print_excerpt(diag_list *d, const diag *g, FILE *out) {
  src_pos pos = src_position(d->src, g->span.file, g->span.start);
  size_t len;
  const char *line = src_line(d->src, g->span.file, pos.line, &len);
  fprintf(out, "%.*s\n", (int)len, line);
  size_t caret = (size_t)(g->span.start - (uint32_t)(line - src_get(d->src, g->span.file)->text));
  size_t end = g->span.end > g->span.start ? g->span.end - (size_t)(line - src_get(d->src, g->span.file)->text) : caret + 1;
  if (end > len)
    end = len > caret ? len : caret + 1;
  /* The underline is built in memory and written at once: stderr is
     unbuffered, and a source line may be very long. */
  char *under = xmalloc((end > len ? end : len) + 3);
  size_t n = 0;
  for (size_t i = 0; i < caret && i < len; i++) {
    unsigned char c = (unsigned char)line[i];
    if ((c & 0xC0) == 0x80)
      continue;
    under[n++] = c == '\t' ? '\t' : ' ';
  }
  under[n++] = '^';
  for (size_t i = caret + 1; i < end && i < len; i++)
    if (((unsigned char)line[i] & 0xC0) != 0x80)
      under[n++] = '~';
  under[n++] = '\n';
  fwrite(under, 1, n, out);
  free(under);
}

static void print_one(diag_list *d, const diag *g, FILE *out) {
  if (g->has_span) {
    src_pos pos = src_position(d->src, g->span.file, g->span.start);
    fprintf(out, "%s:%zu:%zu: %s: %s\n", src_get(d->src, g->span.file)->path, pos.line,
            pos.column, severity_name(g->severity), g->message);
    print_excerpt(d, g, out);
  } else {
    fprintf(out, "pclc: %s: %s\n", severity_name(g->severity), g->message);
  }
  for (const diag *n = g->notes; n; n = n->next)
    print_one(d, n, out);
}

void diag_print(diag_list *d, FILE *out) {
  size_t errors = 0;
  for (const diag *g = d->head; g; g = g->next) {
    if (g->severity == DIAG_ERROR && ++errors > DIAG_MAX_ERRORS)
      break;
    print_one(d, g, out);
  }
  if (d->errors > DIAG_MAX_ERRORS)
    fprintf(out, "pclc: too many errors; %zu more not shown\n", d->errors - DIAG_MAX_ERRORS);
}
