/* emit_func: a node's functions, and the C of a function (see emit_fn.h).
 *
 * em_node finds the functions of a node (emit_closure.c), then writes each
 * one, the closures before the functions that create them: its code
 * (emit_body.c) names the function of the program it is (emit_shape.c),
 * a new one or one with the same code, and its row goes into pclg_r.  The
 * walks over expressions recurse as they nest, each asking the stack guard
 * (base/stack.h) before it goes deeper: once one is refused, the node's
 * functions are abandoned.
 *
 * func_print writes a function of the program as C: a comment saying where
 * its first use is and what it computes, its signature by kind (the
 * function types of pcl_gen.h), the declarations its code needs, a
 * `(void)` for each parameter its code does not name, its statements with
 * their #line directives, and its failure code. */
#include <string.h>

#include "emit/emit_fn.h"
#include "base/util.h"

/* The longest list of constants a row's comment shows, in bytes: a row
 * refers to every constant of its function's use, which may be many. */
enum { ROW_COMMENT = 80 };

/* Writes the comment of the row of w, which node runs: the node's name,
 * and the constants the row refers to, in order. */
static void row_comment(em *e, cw *o, const char *node, const em_writer *w) {
  pcl__buf_append(o, "    /* ", 7);
  cw_comment(o, node);
  size_t start = o->len;
  for (size_t i = 0; i < w->row_consts.n; i++) {
    if (o->len - start > ROW_COMMENT) {
      pcl__buf_puts(o, ", ...");
      break;
    }
    pcl__buf_puts(o, i ? ", " : ": ");
    cw_comment(o, em_const_shown(e, w->row.items[w->row_consts.items[i]]));
  }
  pcl__buf_append(o, " */", 3);
}

/* Writes function c->fns[i] (its closures are written) and appends its
 * row to pclg_r. */
static void write_fn(em_nodectx *c, size_t i) {
  em *e = c->e;
  em_nodefn *f = &c->fns[i];
  em_writer w;
  em_code_begin(&w, c, f);
  em_body(&w);
  f->id = em_shape_func(&w);
  f->row = e->nrows;
  if (w.row.n > 0) {
    row_comment(e, &e->rows, c->n->name, &w);
    for (size_t j = 0; j < w.row.n; j++) {
      pcl__buf_append(&e->rows, " ", 1);
      cw_uint(&e->rows, w.row.items[j]);
      pcl__buf_append(&e->rows, ",", 1);
    }
    pcl__buf_append(&e->rows, "\n", 1);
    e->nrows += (uint32_t)w.row.n;
  }
  em_code_free(&w);
}

void em_node(em *e, const ir_node *n, uint32_t *func, uint32_t *row) {
  em_nodectx c = {0};
  c.e = e;
  c.n = n;
  em_closures_find(&c);
  for (size_t i = c.nfns; i-- > 0 && !e->too_deep;)
    write_fn(&c, i);
  if (e->too_deep) {
    em_closures_free(&c);
    return;
  }
  *func = c.fns[0].id;
  *row = c.fns[0].row;
  /* The node runs its node function and, ranged, its instance function. */
  e->funcs[c.fns[0].id].users++;
  if (n->range)
    e->funcs[c.fns[1].id].users++;
  em_closures_free(&c);
}

/* --------------------------------------------------------------- printing */

/* The signature and the comment of each kind of function (FN_KINDS). */
static const struct {
  const char *signature; /* Its C declaration, %s its name. */
  const char *comment;   /* What its comment says after the source. */
} kinds[] = {
#define X(name, text, signature, comment) {signature, comment},
    FN_KINDS(X)
#undef X
};

/* Writes the declaration of function f: its signature by kind. */
static void signature(cw *o, const em_func *f) {
  const char *sig = kinds[f->kind].signature, *at = strstr(sig, "%s");
  pcl__buf_append(o, sig, (size_t)(at - sig));
  pcl__buf_puts(o, f->name);
  pcl__buf_puts(o, at + 2);
}

void em_func_prototype(cw *o, const em_func *f) {
  signature(o, f);
  pcl__buf_puts(o, ";\n");
}

/* Writes the comment above function f: where its first use is and what
 * it computes, and for a node function that several nodes run, how many
 * more. */
static void comment(em *e, cw *o, const em_func *f) {
  pcl__buf_puts(o, "\n/* ");
  em_where(e, o, f->span);
  pcl__buf_puts(o, ": ");
  const char *what = kinds[f->kind].comment;
  if (what) {
    em_comment_source(e, o, f->span, 100);
    pcl__buf_puts(o, what);
  } else {
    pcl__buf_puts(o, "one instance of ");
    cw_comment(o, f->node);
  }
  if (f->users > 1)
    pcl__buf_printf(o, ", and %zu more node%s", f->users - 1, f->users > 2 ? "s" : "");
  pcl__buf_puts(o, " */\n");
}

void em_func_print(em *e, cw *o, const em_func *f) {
  static const char *const params[] = {
#define X(name, text) text,
      FN_PARAMS(X)
#undef X
  };
  em_fkind k = (em_fkind)f->kind;
  comment(e, o, f);
  signature(o, f);
  pcl__buf_puts(o, " {\n");
  /* The signature, the declarations and the failure code are the C file's
     lines; only the statements are the source's. */
  bool node = k == FK_NODE || k == FK_INSTANCE;
  if (f->uses_r)
    pcl__buf_puts(o, "  const uint32_t *r = e->r;\n");
  if (node && ((f->uses & PARAM_ERR) || f->fails || f->uses_error))
    pcl__buf_puts(o, "  pcl_error *error = NULL, **err = &error;\n");
  if (f->ntemps > 0) {
    pcl__buf_puts(o, "  pcl_value ");
    for (int i = 0; i < f->ntemps; i++)
      pcl__buf_printf(o, "%s*t%d = NULL", i ? ", " : "", i);
    pcl__buf_puts(o, ";\n");
  }
  if (f->uses_at)
    pcl__buf_puts(o, "  uint32_t at = 0;\n");
  /* The parameters the code does not name; the row and the failure code
     read the environment. */
  unsigned used = f->uses | (f->uses_r || f->fails ? PARAM_E : 0) | (f->fails ? PARAM_ERR : 0);
  for (size_t i = 0; i < sizeof params / sizeof params[0]; i++) {
    unsigned bit = 1u << i;
    if ((em_named_params(kinds[k].signature) & bit) && !(used & bit))
      pcl__buf_printf(o, "  (void)%s;\n", params[i]);
  }
  if (em_code_print(e, o, f->body, f->nbody, f->where))
    pcl__buf_puts(o, "#line PCLG_C_LINE\n");
  em_code_print(e, o, f->fails_code, f->nfails, NULL);
  if (f->fails) {
    pcl__buf_puts(o, "fail:\n");
    if (!node)
      pcl__buf_puts(o, "  pcl_gen_locate(e, *err, at);\n");
    for (int i = 0; i < f->ntemps; i++)
      pcl__buf_printf(o, "  pcl_release(t%d);\n", i);
    pcl__buf_puts(o, node           ? "  return pcl_gen_failed(e, error, at);\n"
                     : k == FK_EACH ? "  return false;\n"
                                    : "  return NULL;\n");
  }
  pcl__buf_puts(o, "}\n");
}
