/* emit_shape: the functions of the program, one per distinct code (see
 * emit_fn.h).
 *
 * Every function a node needs is written as code records (emit_code.c);
 * the records, with the function's kind and what its declarations depend
 * on, are its key.  Two functions with the same key print the same C, so
 * the second is the first: ten thousand resources of one shape are one
 * node function and ten thousand rows, and closures of the same code are
 * shared across nodes of different shapes.  The key is the code itself,
 * so there is nothing to keep consistent with it.
 *
 * Functions are named once every node is written, when it is known which
 * node and instance functions several nodes run: those are named for their
 * shape, pclg_node<n> and pclg_instance<n>, as the compiler's own functions
 * are (pclg_apply<n>, ...); one that a single node runs is named after it,
 * pclu_<node> or pclu_<node>_instance (mangled by cw_mangle).  Functions
 * are printed at the end, in the order they were made. */
#include <stdlib.h>
#include <string.h>

#include "emit/emit_fn.h"
#include "base/util.h"

/* The names of the kinds of functions. */
static const char *const kind_names[] = {
#define X(name, text, signature, comment) text,
    FN_KINDS(X)
#undef X
};

const char *em_fn_kind_name(em_fkind k) { return kind_names[k]; }

/* Returns a copy of ws[0..n) in the arena of e. */
static const uint32_t *copy_words(em *e, const uint32_t *ws, size_t n) {
  uint32_t *c = arena_alloc(&e->keys, (n ? n : 1) * sizeof *c);
  if (n)
    memcpy(c, ws, n * sizeof *c);
  return c;
}

/* Returns a C name for function f that no other function has: pclu_<node>
 * for a node's or instance's function that only that node runs (its first
 * use), pclg_<kind><n> for a function that several nodes run and for the
 * compiler's own; counts numbers the latter by kind. */
static const char *new_name(em *e, const em_func *f, size_t *counts) {
  em_fkind k = (em_fkind)f->kind;
  cw base = PCL__BUF_INIT;
  if ((k == FK_NODE || k == FK_INSTANCE) && f->users == 1) {
    pcl__buf_puts(&base, "pclu_");
    cw_mangle(&base, f->node);
    if (k == FK_INSTANCE)
      pcl__buf_puts(&base, "_instance");
  } else {
    pcl__buf_printf(&base, "pclg_%s%zu", em_fn_kind_name(k), ++counts[k]);
  }
  const char *name = em_intern(e, base.data, base.len);
  /* A mangled name reads as letters, digits, `__`, `_d` and `_x<hex>`, none
     of which is `_` and a digit, so no name ends as another's `_<n>`. */
  for (unsigned i = 2; ptrmap_get(&e->used, name); i++) {
    cw alt = PCL__BUF_INIT;
    pcl__buf_printf(&alt, "%s_%u", base.data, i);
    name = em_intern(e, alt.data, alt.len);
    pcl__buf_free(&alt);
  }
  ptrmap_put(&e->used, name, (void *)1);
  pcl__buf_free(&base);
  return name;
}

void em_funcs_name(em *e) {
  size_t counts[sizeof kind_names / sizeof kind_names[0]] = {0};
  for (size_t i = 0; i < e->nfuncs; i++)
    e->funcs[i].name = new_name(e, &e->funcs[i], counts);
}

uint32_t em_shape_func(em_writer *w) {
  em *e = w->c->e;
  const em_nodefn *f = w->f;
  /* The key: what the declarations depend on, then the records. */
  em_words key = {0};
  em_words_add(&key, (uint32_t)f->kind);
  em_words_add(&key, (uint32_t)w->ntemps);
  em_words_add(&key, w->uses);
  em_words_add(&key, (uint32_t)w->uses_r | (uint32_t)w->uses_at << 1 | (uint32_t)w->fails << 2 |
                      (uint32_t)w->uses_error << 3);
  em_words_add(&key, (uint32_t)w->code.n);
  em_words_append(&key, w->code.items, w->code.n);
  em_words_append(&key, w->failcode.items, w->failcode.n);
  const char *k = em_intern(e, (const char *)key.items, key.n * sizeof *key.items);
  free(key.items);
  uintptr_t found = (uintptr_t)ptrmap_get(&e->func_ids, k);
  if (found)
    return (uint32_t)(found - 1);

  PCL__GROW(e->funcs, e->capfuncs, e->nfuncs + 1);
  uint32_t id = (uint32_t)e->nfuncs++;
  em_func *g = &e->funcs[id];
  g->kind = (uint32_t)f->kind;
  g->name = NULL;
  g->users = 0;
  g->body = copy_words(e, w->code.items, w->code.n);
  g->nbody = w->code.n;
  g->where = copy_words(e, w->where.items, w->where.n);
  g->fails_code = copy_words(e, w->failcode.items, w->failcode.n);
  g->nfails = w->failcode.n;
  g->ntemps = w->ntemps;
  g->uses = w->uses;
  g->uses_r = w->uses_r;
  g->uses_at = w->uses_at;
  g->fails = w->fails;
  g->uses_error = w->uses_error;
  g->span = f->x ? f->x->span : w->c->n->span;
  g->node = w->c->n->name;
  ptrmap_put(&e->func_ids, k, (void *)(uintptr_t)(id + 1));
  return id;
}

const char *em_func_name(const em *e, uint32_t id) { return e->funcs[id].name; }

void em_funcs_print(em *e, cw *protos, cw *code) {
  for (size_t i = 0; i < e->nfuncs; i++) {
    const em_func *f = &e->funcs[i];
    if (f->kind == FK_NODE)
      em_func_prototype(protos, f);
    em_func_print(e, code, f);
  }
}

void em_funcs_free(em *e) {
  free(e->funcs);
  free(e->texts);
  ptrmap_free(&e->func_ids);
  ptrmap_free(&e->text_ids);
  ptrmap_free(&e->form_ids);
  ptrmap_free(&e->used);
}
