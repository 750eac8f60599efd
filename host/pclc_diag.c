/* pclc_diag: reading pclc's messages (pclc_diag.h). */
#include "pclc_diag.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Reads a `file:line:col: kind: text` header from the line l (len bytes):
   sets the file's length, the position, and where the kind and the text
   start. */
static bool parse_header(const char *l, size_t len, size_t *flen, long *line, long *col,
                         const char **kind, const char **text) {
  for (size_t i = 0; i + 1 < len; i++) {
    if (l[i] != ':' || !isdigit((unsigned char)l[i + 1])) {
      continue;
    }
    char *end;
    long ln = strtol(l + i + 1, &end, 10);
    if (*end != ':' || !isdigit((unsigned char)end[1])) {
      continue;
    }
    long cn = strtol(end + 1, &end, 10);
    if (strncmp(end, ": ", 2) != 0) {
      continue;
    }
    const char *colon = strstr(end + 2, ": ");
    if (!colon || colon >= l + len) {
      return false;
    }
    *flen = i;
    *line = ln;
    *col = cn;
    *kind = end + 2;
    *text = colon + 2;
    return true;
  }
  return false;
}

/* Ends the diagnostic being read, giving it its detail. */
static void finish(pdiag_list *out, buf *detail) {
  if (out->n > 0) {
    size_t n = detail->len;
    while (n > 0 && detail->data[n - 1] == '\n') {
      n--;
    }
    out->v[out->n - 1].detail = xstrndup(buf_str(detail), n);
  }
  pcl__buf_free(detail);
}

void pdiag_parse(const char *text, pdiag_list *out) {
  buf detail = {0};
  const char *p = text;
  while (*p) {
    const char *nl = strchr(p, '\n');
    size_t len = nl ? (size_t)(nl - p) : strlen(p);
    size_t flen;
    long line, col;
    const char *kind, *msg;
    bool header = parse_header(p, len, &flen, &line, &col, &kind, &msg);
    bool note = header && strncmp(kind, "note:", 5) == 0;
    static const char *const plain[] = {"pclc: error: ", "error: "};
    const char *bare = NULL;
    for (size_t i = 0; !header && i < sizeof plain / sizeof plain[0]; i++) {
      if (strncmp(p, plain[i], strlen(plain[i])) == 0) {
        bare = p + strlen(plain[i]);
      }
    }
    if ((header && !note) || bare) {
      finish(out, &detail);
      PCL__GROW(out->v, out->cap, out->n + 1);
      pdiag *d = &out->v[out->n++];
      *d = (pdiag){0};
      if (header) {
        const char *file = p;
        if (flen > 2 && strncmp(file, "./", 2) == 0) {
          file += 2;
          flen -= 2;
        }
        d->warning = strncmp(kind, "warning:", 8) == 0;
        d->file = xstrndup(file, flen);
        d->line = line;
        d->col = col;
        d->message = xstrndup(msg, len - (size_t)(msg - p));
      } else {
        d->message = xstrndup(bare, len - (size_t)(bare - p));
      }
    } else if (out->n > 0) {
      /* The source and caret lines, and notes with theirs; a note's file
         name loses its "./" as the header's does. */
      const char *l = p;
      size_t ll = len;
      if (note && ll > 2 && strncmp(l, "./", 2) == 0) {
        l += 2;
        ll -= 2;
      }
      pcl__buf_append(&detail, l, ll);
      pcl__buf_append(&detail, "\n", 1);
    }
    p += len + (nl != NULL);
  }
  finish(out, &detail);
}

char *pdiag_text(const pdiag *d) {
  buf b = {0};
  if (d->file) {
    pcl__buf_printf(&b, "%s:%ld:%ld: ", d->file, d->line, d->col);
  }
  pcl__buf_puts(&b, d->message);
  if (d->detail && *d->detail) {
    pcl__buf_puts(&b, "\n");
    pcl__buf_puts(&b, d->detail);
  }
  return pcl__buf_take(&b);
}

void pdiag_free(pdiag_list *l) {
  for (size_t i = 0; i < l->n; i++) {
    free(l->v[i].file);
    free(l->v[i].message);
    free(l->v[i].detail);
  }
  free(l->v);
  *l = (pdiag_list){0};
}
