/* diag: collection and GCC-style printing of diagnostics. */
#include "base/diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "buf.h"

void diag_init(diag_list *d, src_set *src) {
  d->src = src;
  d->head = d->tail = NULL;
  d->errors = d->warnings = d->io_errors = 0;
  d->catching = NULL;
  d->caught = NULL;
  d->color = false;
}

static void free_chain(diag *g) {
  while (g) {
    diag *next = g->next;
    free_chain(g->notes);
    free(g->message);
    free(g->key);
    free(g);
    g = next;
  }
}

void diag_free(diag_list *d) {
  free_chain(d->head);
  d->head = d->tail = NULL;
  d->caught = NULL;
}

/* Returns the length in bytes of the first DIAG_QUOTE_WIDTH code points of
 * s[0..len), or len when s has no more. */
static size_t quote_cut(const char *s, size_t len) {
  size_t points = 0;
  for (size_t i = 0; i < len; i++) {
    if (((unsigned char)s[i] & 0xC0) != 0x80 && points++ == DIAG_QUOTE_WIDTH)
      return i;
  }
  return len;
}

const char *diag_clip(arena *a, const char *s) {
  size_t len = strlen(s), cut = quote_cut(s, len);
  return cut == len ? s : arena_printf(a, "%.*s...", (int)cut, s);
}

/* Appends one conversion spec[0..n) (a '%' to its conversion letter) of a
 * diagnostic's format, taking its argument from ap; a string argument
 * (quoted text of the program: names, keys, tokens, types) longer than
 * DIAG_QUOTE_WIDTH code points is cut there and marked "...", as the
 * source excerpt is, so that a name a megabyte long does not make a
 * message a megabyte long.  The conversions are those diagnostics use:
 * %s, %.*s, %c, %d, %u, %x, %X, %o, %g and the length modifiers z, l, ll,
 * with flags and widths. */
static void append_conversion(pcl__buf *b, const char *spec, size_t n, va_list *ap) {
  char f[32];
  if (n >= sizeof f)
    ice("diagnostic conversion too long");
  memcpy(f, spec, n);
  f[n] = '\0';
  char conv = f[n - 1];
  if (conv == '%') {
    pcl__buf_putc(b, '%');
    return;
  }
  if (conv == 's') {
    bool star = strstr(f, ".*") != NULL;
    int prec = star ? va_arg(*ap, int) : -1;
    const char *arg = va_arg(*ap, const char *);
    size_t alen = star ? strnlen(arg, (size_t)(prec < 0 ? 0 : prec)) : strlen(arg);
    size_t cut = quote_cut(arg, alen);
    pcl__buf_append(b, arg, cut);
    if (cut < alen)
      pcl__buf_puts(b, "...");
    return;
  }
  bool z = strchr(f, 'z') != NULL, ll = strstr(f, "ll") != NULL, l = !ll && strchr(f, 'l');
  bool star = strstr(f, ".*") != NULL;
  /* The spec without its length modifier, then "ll" for the integer
     conversions, whose argument is read at its own width and widened. */
  char g[40];
  size_t k = 0;
  for (size_t i = 0; i + 1 < n; i++) {
    if (!strchr("hlzjt", f[i]))
      g[k++] = f[i];
  }
  if (strchr("diuxXo", conv)) {
    g[k++] = 'l';
    g[k++] = 'l';
  }
  g[k++] = conv;
  g[k] = '\0';
  /* The spec comes from a format the compiler checked against its
     arguments (the format attribute of the diag functions). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  if (conv == 'g' || conv == 'f' || conv == 'e') {
    int prec = star ? va_arg(*ap, int) : 0;
    double v = va_arg(*ap, double);
    if (star)
      pcl__buf_printf(b, g, prec, v);
    else
      pcl__buf_printf(b, g, v);
  } else if (conv == 'd' || conv == 'i') {
    long long v = z ? (long long)va_arg(*ap, ptrdiff_t) : ll ? va_arg(*ap, long long)
                  : l ? va_arg(*ap, long) : va_arg(*ap, int);
    pcl__buf_printf(b, g, v);
  } else if (conv == 'u' || conv == 'x' || conv == 'X' || conv == 'o') {
    unsigned long long v = z ? va_arg(*ap, size_t) : ll ? va_arg(*ap, unsigned long long)
                           : l ? va_arg(*ap, unsigned long) : va_arg(*ap, unsigned);
    pcl__buf_printf(b, g, v);
  } else if (conv == 'c') {
    pcl__buf_printf(b, g, va_arg(*ap, int));
  } else {
    ice("unsupported diagnostic conversion '%s'", f);
  }
#pragma GCC diagnostic pop
}

char *diag_vformat(const char *fmt, va_list ap) {
  va_list args;
  va_copy(args, ap);
  if (strcmp(fmt, "%s") == 0) {
    char *whole = xstrdup(va_arg(args, const char *));
    va_end(args);
    return whole;
  }
  pcl__buf b = PCL__BUF_INIT;
  for (const char *p = fmt; *p;) {
    const char *pct = strchr(p, '%');
    if (!pct) {
      pcl__buf_puts(&b, p);
      break;
    }
    pcl__buf_append(&b, p, (size_t)(pct - p));
    size_t n = 1 + strspn(pct + 1, "-+ #0123456789.*hlzjt");
    if (!pct[n])
      ice("diagnostic format ends in a conversion: %s", fmt);
    append_conversion(&b, pct, n + 1, &args);
    p = pct + n + 1;
  }
  va_end(args);
  return pcl__buf_take(&b);
}

__attribute__((format(printf, 4, 0))) static diag *new_diag(diag_severity sev, bool has_span,
                                                             pcl_span span, const char *fmt,
                      va_list ap) {
  diag *g = xcalloc(1, sizeof *g);
  g->severity = sev;
  g->has_span = has_span;
  g->span = span;
  g->message = diag_vformat(fmt, ap);
  g->count = 1;
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

void diag_warning_once(diag_list *d, const char *key, pcl_span span, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag *g = new_diag(DIAG_WARNING, true, span, fmt, ap);
  va_end(ap);
  g->key = xstrdup(key);
  append(d, g);
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

diag *diag_io_error(diag_list *d, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag *g = new_diag(DIAG_ERROR, false, (pcl_span){0, 0, 0}, fmt, ap);
  va_end(ap);
  d->io_errors++;
  return append(d, g);
}

diag *diag_mark_io(diag_list *d, diag *g) {
  d->io_errors++;
  return g;
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

bool diag_last_shown(const diag_list *d) { return d->errors <= DIAG_MAX_ERRORS; }

void diag_note_suggestion(diag *g, pcl_span span, const char *name, size_t len) {
  diag_note(g, span, "did you mean '%.*s'?", (int)len, name);
}

/* gcc's default colours (GCC_COLORS): the location bold, each severity in
   its bold colour, the underline bold green; SGR_END ends each. */
#define SGR_LOCUS "\033[01m"
#define SGR_CARET "\033[01;32m"
#define SGR_END "\033[m"

static const char *severity_color(diag_severity s) {
  switch (s) {
  case DIAG_ERROR:
    return "\033[01;31m";
  case DIAG_WARNING:
    return "\033[01;35m";
  case DIAG_NOTE:
    return "\033[01;36m";
  }
  ice("bad severity");
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

/* Returns the number of code points in s[from..to). */
static size_t count_points(const char *s, size_t from, size_t to) {
  size_t n = 0;
  for (size_t i = from; i < to; i++)
    n += ((unsigned char)s[i] & 0xC0) != 0x80;
  return n;
}

/* Returns the byte offset in s[0..len) where code point number `point`
 * (0-based) starts, or len when the line has no more. */
static size_t point_offset(const char *s, size_t len, size_t point) {
  size_t i = 0;
  for (size_t n = 0; i < len; i++) {
    if (((unsigned char)s[i] & 0xC0) != 0x80 && n++ == point)
      return i;
  }
  return len;
}

/* Prints the source line of span and an underline: '^' under the first code
 * point and '~' under the rest of the span that lies on the same line.  Tabs
 * in the prefix are copied so the caret lines up in a terminal.  A line
 * longer than DIAG_EXCERPT_WIDTH code points is shown as a window of that
 * many around the caret, each cut side marked with "..." (as clang does),
 * so that a minified or generated file does not flood the terminal. */
static void print_excerpt(diag_list *d, const diag *g, FILE *out) {
  src_pos pos = src_position(d->src, g->span.file, g->span.start);
  size_t len;
  const char *line = src_line(d->src, g->span.file, pos.line, &len);
  size_t line_at = (size_t)(line - src_get(d->src, g->span.file)->text);
  /* The span may start before the line's first byte (at a byte-order mark
     the line map skips); it then points at the line's start. */
  size_t caret = g->span.start > line_at ? g->span.start - line_at : 0;
  if (caret > len)
    caret = len;
  size_t end = g->span.end > line_at + caret ? g->span.end - line_at : caret + 1;
  if (end > len)
    end = len > caret ? len : caret + 1;
  /* The window [from, to) of bytes shown. */
  size_t from = 0, to = len;
  size_t total = count_points(line, 0, len);
  if (total > DIAG_EXCERPT_WIDTH) {
    size_t caret_point = count_points(line, 0, caret);
    size_t first = 0;
    if (caret_point >= DIAG_EXCERPT_WIDTH - DIAG_EXCERPT_WIDTH / 8) {
      /* Keep a quarter of the window before the caret for context. */
      first = caret_point - DIAG_EXCERPT_WIDTH / 4;
      if (first + DIAG_EXCERPT_WIDTH > total)
        first = total - DIAG_EXCERPT_WIDTH;
    }
    from = point_offset(line, len, first);
    to = point_offset(line, len, first + DIAG_EXCERPT_WIDTH);
  }
  const char *lead = from > 0 ? "..." : "";
  const char *trail = to < len ? "..." : "";
  fprintf(out, "%s%.*s%s\n", lead, (int)(to - from), line + from, trail);
  /* The underline is built in memory and written at once: stderr is
     unbuffered.  It is at most as long as the window plus the marks. */
  char *under = xmalloc((to - from) + 8 + strlen(SGR_CARET SGR_END));
  size_t n = 0;
  for (size_t i = 0; i < strlen(lead); i++)
    under[n++] = ' ';
  for (size_t i = from; i < caret && i < to; i++) {
    unsigned char c = (unsigned char)line[i];
    if ((c & 0xC0) == 0x80)
      continue;
    under[n++] = c == '\t' ? '\t' : ' ';
  }
  if (d->color) {
    memcpy(under + n, SGR_CARET, strlen(SGR_CARET));
    n += strlen(SGR_CARET);
  }
  under[n++] = '^';
  for (size_t i = caret + 1; i < end && i < to; i++)
    if (((unsigned char)line[i] & 0xC0) != 0x80)
      under[n++] = '~';
  if (d->color) {
    memcpy(under + n, SGR_END, strlen(SGR_END));
    n += strlen(SGR_END);
  }
  under[n++] = '\n';
  fwrite(under, 1, n, out);
  free(under);
}

static void print_one(diag_list *d, const diag *g, FILE *out) {
  const char *locus = d->color ? SGR_LOCUS : "", *sev = d->color ? severity_color(g->severity) : "";
  const char *end = d->color ? SGR_END : "";
  if (g->has_span) {
    src_pos pos = src_position(d->src, g->span.file, g->span.start);
    fprintf(out, "%s%s:%zu:%zu:%s %s%s:%s %s", locus, src_get(d->src, g->span.file)->path,
            pos.line, pos.column, end, sev, severity_name(g->severity), end, g->message);
    if (g->count > 1)
      fprintf(out, " (%zu times)", g->count);
    fputc('\n', out);
    print_excerpt(d, g, out);
  } else {
    fprintf(out, "%spclc:%s %s%s:%s %s\n", locus, end, sev, severity_name(g->severity), end,
            g->message);
  }
  for (const diag *n = g->notes; n; n = n->next)
    print_one(d, n, out);
}

/* A keyed warning and its place in the list, for coalescing. */
typedef struct keyed {
  diag *g;      /* The warning. */
  size_t index; /* Its position in the list. */
} keyed;

/* qsort order of keyed warnings: by key, then by position. */
static int cmp_keyed(const void *pa, const void *pb) {
  const keyed *a = pa, *b = pb;
  int c = strcmp(a->g->key, b->g->key);
  if (c != 0)
    return c;
  return a->index < b->index ? -1 : a->index > b->index;
}

/* Coalesces the warnings reported with diag_warning_once: the first of each
 * key in list order gets the key's count, the others a count of 0 (not
 * printed).  The list is in its final order only now (the binder reorders
 * it by declaration), so this is done when printing. */
static void coalesce(diag_list *d) {
  size_t n = 0;
  for (const diag *g = d->head; g; g = g->next)
    n += g->key != NULL;
  if (n == 0)
    return;
  keyed *k = xmalloc(n * sizeof *k);
  size_t i = 0, at = 0;
  for (diag *g = d->head; g; g = g->next, at++) {
    if (g->key)
      k[i++] = (keyed){g, at};
  }
  qsort(k, n, sizeof *k, cmp_keyed);
  for (size_t first = 0; first < n;) {
    size_t last = first + 1;
    while (last < n && strcmp(k[last].g->key, k[first].g->key) == 0)
      k[last++].g->count = 0;
    k[first].g->count = last - first;
    first = last;
  }
  free(k);
}

void diag_print(diag_list *d, FILE *out) {
  coalesce(d);
  size_t errors = 0;
  for (const diag *g = d->head; g; g = g->next) {
    if (g->severity == DIAG_ERROR && ++errors > DIAG_MAX_ERRORS)
      break;
    if (g->count == 0)
      continue;
    print_one(d, g, out);
  }
  if (d->errors > DIAG_MAX_ERRORS)
    fprintf(out, "pclc: too many errors; %zu more not shown\n", d->errors - DIAG_MAX_ERRORS);
}
