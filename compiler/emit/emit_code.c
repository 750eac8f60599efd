/* emit_code: a function's code as data, and its C text (see emit_fn.h).
 *
 * The code of a function is recorded as words while its expressions are
 * written, one record per statement: the id of its form (the C text with
 * conversions, such as "t%d = pcl_gen_attr(e, %o, &pclg_k[r[%u]], %s,
 * err);"), its block depth, and its arguments, each as the words of its
 * conversion (an operand is its kind and number).  Forms and the strings
 * passed to %s are numbered by their text, so that two records are equal
 * exactly when they print the same line: the records are the code's key
 * (emit_shape.c), and printing them (em_code_print) is needed only for the
 * first function of each code.  What differs between two uses of one code
 * (the constants, nodes and locations its operands read) goes into the
 * row; the records hold only the positions of row entries.
 *
 * Which of the function's parameters a statement names is recorded with
 * it: those its form names (read from the form once, when it is first
 * used) and those its operands are.  The source a statement computes is
 * recorded beside the code (w->where), not in it, since uses of one code
 * come from different lines. */
#include <stdlib.h>
#include <string.h>

#include "emit/emit_fn.h"
#include "base/util.h"

void em_words_reserve(em_words *ws, size_t n) { PCL__GROW(ws->items, ws->cap, ws->n + n); }

void em_words_append(em_words *ws, const uint32_t *v, size_t n) {
  if (n == 0)
    return;
  em_words_reserve(ws, n);
  memcpy(ws->items + ws->n, v, n * sizeof *v);
  ws->n += n;
}

/* The block depth of a record that continues the line of the one before. */
static const uint32_t CONTINUED = UINT32_MAX;

/* ---------------------------------------------------------------- texts */

/* Returns whether c can be part of a C identifier. */
static bool ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == '_';
}

unsigned em_named_params(const char *s) {
  static const char *const params[] = {
#define X(name, text) text,
      FN_PARAMS(X)
#undef X
  };
  unsigned uses = 0;
  for (const char *p = s; *p;) {
    if (*p == '%') {
      p += p[1] == 'z' ? 3 : 2;
      continue;
    }
    if (!ident_char(*p)) {
      p++;
      continue;
    }
    const char *q = p;
    while (ident_char(*q))
      q++;
    bool member = p > s + 1 && p[-1] == '>' && p[-2] == '-';
    for (size_t i = 0; !member && i < sizeof params / sizeof params[0]; i++) {
      if (strlen(params[i]) == (size_t)(q - p) && memcmp(params[i], p, (size_t)(q - p)) == 0)
        uses |= 1u << i;
    }
    p = q;
  }
  return uses;
}

/* Returns the id of the text s (a form or a %s string), numbering it when
 * it is new. */
static uint32_t text_id_of(em *e, const char *s) {
  const char *k = em_intern(e, s, strlen(s));
  uintptr_t v = (uintptr_t)ptrmap_get(&e->text_ids, k);
  if (v)
    return (uint32_t)(v - 1);
  PCL__GROW(e->texts, e->captexts, e->ntexts + 1);
  uint32_t id = (uint32_t)e->ntexts++;
  em_text *t = &e->texts[id];
  t->text = k;
  t->uses = em_named_params(k);
  /* The conversions, one letter each (z for %zu), in the order of the
     arguments they take. */
  size_t n = 0;
  for (const char *p = k; *p; p++) {
    if (*p != '%')
      continue;
    if (n + 1 >= sizeof t->convs)
      ice("too many conversions in '%s'", k);
    t->convs[n++] = p[1];
    p += p[1] == 'z' ? 2 : 1;
  }
  t->convs[n] = '\0';
  ptrmap_put(&e->text_ids, k, (void *)(uintptr_t)(id + 1));
  return id;
}

/* Returns the id of the form at address form: forms are string literals,
 * so the address is looked up before the text. */
static uint32_t form_id(em *e, const char *form) {
  uintptr_t v = (uintptr_t)ptrmap_get(&e->form_ids, form);
  if (v)
    return (uint32_t)(v - 1);
  uint32_t id = text_id_of(e, form);
  ptrmap_put(&e->form_ids, form, (void *)(uintptr_t)(id + 1));
  return id;
}

/* ------------------------------------------------------------- recording */

void em_code_begin(em_writer *w, em_nodectx *c, em_nodefn *f) {
  *w = (em_writer){0};
  w->c = c;
  w->f = f;
  w->want_file = UINT32_MAX;
}

void em_code_free(em_writer *w) {
  free(w->code.items);
  free(w->where.items);
  free(w->failcode.items);
  free(w->row.items);
  free(w->row_consts.items);
  free(w->free_temps.items);
}

/* The C text of each kind of operand (OPND_KINDS). */
static const char *const operand_texts[] = {
#define X(name, text) text,
    OPND_KINDS(X)
#undef X
};

enum { OPND_COUNT = sizeof operand_texts / sizeof operand_texts[0] };
_Static_assert(OPND_COUNT <= sizeof ((em *)NULL)->operand_uses / sizeof(unsigned),
               "em.operand_uses has a place for each kind of operand");

/* Appends the words of operand o, placed, and records the parameters its
 * text names (found once per kind: operands are the most frequent words). */
static void put_operand(em_writer *w, em_words *out, em_opnd o) {
  unsigned *uses = &w->c->e->operand_uses[o.kind];
  if (*uses == 0) {
    const char *text = operand_texts[o.kind];
    if (text == NULL)
      ice("an operand was written before its row entry was made");
    *uses = em_named_params(text) + 1;
  }
  w->uses |= *uses - 1;
  em_words_add(out, (uint32_t)o.kind);
  em_words_add(out, o.n);
}

/* Appends a size as a word. */
static void put_size(em_words *out, size_t v) {
  if (v > UINT32_MAX)
    ice("a number of the code does not fit a word");
  em_words_add(out, (uint32_t)v);
}

/* Appends the record of form with the arguments ap to out, at block depth
 * level. */
static void record(em_writer *w, em_words *out, uint32_t level, const char *form, va_list ap) {
  em *e = w->c->e;
  uint32_t id = form_id(e, form);
  em_words_add(out, id);
  em_words_add(out, level);
  w->uses |= e->texts[id].uses;
  /* The texts table may move while the arguments are recorded. */
  char convs[sizeof e->texts[id].convs];
  memcpy(convs, e->texts[id].convs, sizeof convs);
  for (const char *c = convs; *c; c++) {
    switch (*c) {
    case 'd':
      put_size(out, (size_t)va_arg(ap, int));
      break;
    case 'u':
    case 'f':
      em_words_add(out, va_arg(ap, unsigned));
      break;
    case 'z':
      put_size(out, va_arg(ap, size_t));
      break;
    case 's': {
      uint32_t s = text_id_of(e, va_arg(ap, const char *));
      w->uses |= e->texts[s].uses;
      em_words_add(out, s);
      break;
    }
    case 'o':
    case 't':
      put_operand(w, out, va_arg(ap, em_opnd));
      break;
    case 'a': {
      const em_opnd *ops = va_arg(ap, const em_opnd *);
      size_t n = va_arg(ap, size_t);
      put_size(out, n);
      for (size_t i = 0; i < n; i++)
        put_operand(w, out, ops[i]);
      break;
    }
    case 'c': {
      em_envref r = va_arg(ap, em_envref);
      const em_nodefn *k = &w->c->fns[r.fn];
      w->uses |= PARAM_E;
      em_words_add(out, r.row);
      put_size(out, k->caps.n);
      for (size_t j = 0; j < k->caps.n; j++)
        put_operand(w, out, em_var(w, k->caps.items[j]));
      break;
    }
    default:
      ice("unknown conversion %%%c in '%s'", *c, e->texts[id].text);
    }
  }
}

/* Records where the statement just begun comes from. */
static void put_where(em_writer *w) {
  em_words_add(&w->where, w->want_file);
  em_words_add(&w->where, w->want_pos);
}

void em_stmt(em_writer *w, const char *form, ...) {
  va_list ap;
  va_start(ap, form);
  record(w, &w->code, (uint32_t)w->indent + 1, form, ap);
  va_end(ap);
  put_where(w);
}

void em_stmt_more(em_writer *w, const char *form, ...) {
  va_list ap;
  va_start(ap, form);
  record(w, &w->code, CONTINUED, form, ap);
  va_end(ap);
}

void em_fail_line(em_writer *w, int level, const char *form, ...) {
  va_list ap;
  va_start(ap, form);
  record(w, &w->failcode, (uint32_t)level, form, ap);
  va_end(ap);
}

void em_at_line(em_writer *w, pcl_span span) {
  if (span.end == 0)
    return;
  w->want_file = span.file;
  w->want_pos = span.start;
}

/* ------------------------------------------------------------------ rows */

uint32_t em_row(em_writer *w, uint32_t v) {
  em_words_add(&w->row, v);
  w->uses_r = true;
  return (uint32_t)(w->row.n - 1);
}

uint32_t em_row_const(em_writer *w, uint32_t k) {
  uint32_t at = em_row(w, k);
  em_words_add(&w->row_consts, at);
  return at;
}

uint32_t em_row_loc(em_writer *w, pcl_span span) { return em_row(w, em_loc(w->c->e, span)); }

em_opnd em_place(em_writer *w, em_opnd o) {
  /* Only constants and nodes are read from the row. */
  if (o.kind == OPND_CONST)
    return em_operand(OPND_ROW_K, em_row_const(w, o.n));
  if (o.kind == OPND_NODE)
    return em_operand(OPND_ROW_NODE, em_row(w, o.n));
  return o;
}

void em_place_all(em_writer *w, em_opnd *ops, size_t n) {
  for (size_t i = 0; i < n; i++)
    ops[i] = em_place(w, ops[i]);
}

uint32_t em_row_back(const em_writer *w, const em_nodefn *k) { return w->c->e->nrows - k->row; }

em_envref em_closure_env(em_writer *w, size_t child) {
  return (em_envref){em_row(w, em_row_back(w, &w->c->fns[child])), child};
}

/* ----------------------------------------------------------- temporaries */

int em_temp_new(em_writer *w) {
  if (w->free_temps.n > 0)
    return (int)w->free_temps.items[--w->free_temps.n];
  return w->ntemps++;
}

void em_temp_free(em_writer *w, int t) { em_words_add(&w->free_temps, (uint32_t)t); }

void em_drop(em_writer *w, em_opnd o) {
  if (o.kind == OPND_TEMP) {
    em_stmt(w, "pcl_release(t%d), t%d = NULL;", (int)o.n, (int)o.n);
    em_temp_free(w, (int)o.n);
  }
}

void em_drop_all(em_writer *w, const em_opnd *ops, size_t n) {
  for (size_t i = 0; i < n; i++)
    em_drop(w, ops[i]);
}

void em_moved(em_writer *w, em_opnd o) {
  if (o.kind == OPND_TEMP) {
    em_stmt(w, "t%d = NULL;", (int)o.n);
    em_temp_free(w, (int)o.n);
  }
}

void em_check(em_writer *w, int t, uint32_t at) {
  if (w->scope) {
    em_stmt(w, "if (t%d == NULL) { at = r[%u]; goto fail%d; }", t, at, w->scope);
    w->scope_fails = true;
  } else {
    em_stmt(w, "if (t%d == NULL) { at = r[%u]; goto fail; }", t, at);
    w->fails = true;
  }
  w->uses_at = true;
  w->uses |= PARAM_ERR;
}

em_opnd em_var(em_writer *w, uint32_t s) {
  const em_nodefn *f = w->f;
  switch (f->kind) {
  case FK_APPLY:
    if (s >= f->lo && s < f->hi)
      return em_operand(OPND_PARAM, s - f->lo);
    break;
  case FK_EACH:
    if (s == f->key)
      return em_operand(OPND_KEY, 0);
    if (s == f->value)
      return em_operand(OPND_VALUE, 0);
    break;
  case FK_RECOVERY:
    if (s == f->value)
      return em_operand(OPND_ERROR, 0);
    break;
  case FK_INSTANCE:
    if (s == f->value)
      return em_operand(OPND_RANGE, 0);
    break;
  case FK_COMMAND:
    if (s == f->value)
      return em_operand(OPND_ARGS, 0);
    break;
  case FK_NODE:
  case FK_THUNK:
    break;
  }
  for (size_t j = 0; j < f->caps.n; j++) {
    if (f->caps.items[j] == s)
      return em_operand(OPND_CAPTURED, (uint32_t)j);
  }
  ice("variable $%u is not visible in a %s function", (unsigned)s, em_fn_kind_name(f->kind));
}

/* -------------------------------------------------------------- printing */

/* Prints the operand at code[*i], moving *i past it. */
static void print_operand(cw *out, const uint32_t *code, size_t *i) {
  const char *text = operand_texts[code[(*i)++]];
  uint32_t n = code[(*i)++];
  const char *u = strstr(text, "%u");
  if (u == NULL) {
    pcl__buf_puts(out, text);
    return;
  }
  pcl__buf_append(out, text, (size_t)(u - text));
  cw_uint(out, n);
  pcl__buf_puts(out, u + 2);
}

/* Prints `(pcl_value *[]){a, b, ...}` of the operands at code[*i] (NULL
 * when there are none), moving *i past them. */
static void print_array(cw *out, const uint32_t *code, size_t *i) {
  uint32_t n = code[(*i)++];
  if (n == 0) {
    pcl__buf_puts(out, "NULL");
    return;
  }
  pcl__buf_puts(out, "(pcl_value *[]){");
  for (uint32_t j = 0; j < n; j++) {
    if (j)
      pcl__buf_puts(out, ", ");
    print_operand(out, code, i);
  }
  pcl__buf_puts(out, "}");
}

/* Prints the record at code[*i] (without indentation or newline), moving
 * *i past it. */
static void print_record(const em *e, cw *out, const uint32_t *code, size_t *i) {
  const em_text *form = &e->texts[code[*i]];
  *i += 2;
  const char *c = form->convs;
  for (const char *p = form->text; *p;) {
    const char *q = strchr(p, '%');
    if (q == NULL) {
      pcl__buf_puts(out, p);
      break;
    }
    pcl__buf_append(out, p, (size_t)(q - p));
    p = q + (q[1] == 'z' ? 3 : 2);
    switch (*c++) {
    case 'd':
    case 'u':
    case 'z':
      cw_uint(out, code[(*i)++]);
      break;
    case 's':
      pcl__buf_puts(out, e->texts[code[(*i)++]].text);
      break;
    case 'f':
      pcl__buf_puts(out, em_func_name(e, code[(*i)++]));
      break;
    case 'o':
      print_operand(out, code, i);
      break;
    case 't':
      if (code[*i] == OPND_TEMP) {
        print_operand(out, code, i);
      } else {
        pcl__buf_puts(out, "pcl_retain(");
        print_operand(out, code, i);
        pcl__buf_puts(out, ")");
      }
      break;
    case 'a':
      print_array(out, code, i);
      break;
    case 'c':
      pcl__buf_puts(out, "pcl_gen_env_new(e, r - r[");
      cw_uint(out, code[(*i)++]);
      pcl__buf_puts(out, "], ");
      cw_uint(out, code[*i]);
      pcl__buf_puts(out, ", ");
      print_array(out, code, i);
      pcl__buf_puts(out, ")");
      break;
    default:
      ice("unknown conversion in '%s'", form->text);
    }
  }
}

bool em_code_print(em *e, cw *out, const uint32_t *code, size_t n, const uint32_t *where) {
  /* A C compiler numbers the lines after `#line N` on from N, so with
     directives the statements of one source line share one C line: a
     second line would be given the next source line, and a debugger's
     breakpoint on that line would stop there.  A directive starts each
     run of statements of one source line. */
  uint32_t file = UINT32_MAX; /* The source of the C line being written. */
  size_t line = 0, nstmts = 0;
  bool directive = false;
  for (size_t i = 0; i < n;) {
    uint32_t level = code[i + 1];
    if (level == CONTINUED) {
      print_record(e, out, code, &i);
      continue;
    }
    bool mapped = where && e->lines && where[2 * nstmts] != UINT32_MAX;
    uint32_t f = mapped ? where[2 * nstmts] : UINT32_MAX;
    size_t want = mapped ? src_position(e->src, f, where[2 * nstmts + 1]).line : 0;
    if (mapped && f == file && want == line) {
      pcl__buf_append(out, " ", 1);
    } else {
      if (nstmts > 0)
        pcl__buf_append(out, "\n", 1);
      if (mapped) {
        const char *path = e->src->files[f].path;
        pcl__buf_puts(out, "#line ");
        cw_uint(out, want);
        pcl__buf_append(out, " ", 1);
        cw_cstring(out, path, strlen(path));
        pcl__buf_append(out, "\n", 1);
        directive = true;
      }
      file = f;
      line = want;
      for (uint32_t j = 0; j < level; j++)
        pcl__buf_append(out, "  ", 2);
    }
    print_record(e, out, code, &i);
    nstmts++;
  }
  if (nstmts > 0)
    pcl__buf_append(out, "\n", 1);
  return directive;
}
