/* emit_fn: the C functions of a node (see emit_internal.h).
 *
 * A node becomes a node function (and, when it is ranged, an instance
 * function for each instance), and every apply body, for or splat body,
 * try alternative, can argument, recover value or recovery, and failing
 * operand of && or || in it becomes a function of its own, created as a
 * closure where the node's code reaches it.  Each function is C calling
 * the runtime operations of runtime/include/pcl_gen.h that the static types of its
 * expressions choose, in three-address form: every computed value is a
 * temporary `t<n>`, released as soon as its one use is done, so temporaries
 * are few however long an expression is.  What differs between two uses of
 * the same code (constants, node and variable references, locations, the
 * rows of the closures it creates) is read from the function's row `r`;
 * functions whose code is the same are written once (the shape of an
 * expression, with its constants abstracted, decides its code).
 *
 * Everything here walks with explicit stacks, so nesting depth is not
 * limited by the C stack.  Comments carry the PCL text of the first
 * instance of each function, and #line directives map its statements to
 * that instance's lines. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pcl_abi.h"
#include "emit/emit_internal.h"
#include "bind/funcs.h"
#include "base/util.h"

/* Built with -DPCLC_CHECK_SHAPES (as the sanitizer build is), the code of a
 * node whose shape is known is written anyway, and must be the code known
 * for that shape. */
#ifndef PCLC_CHECK_SHAPES
#define PCLC_CHECK_SHAPES 0
#endif

/* ---------------------------------------------------------------- functions */

/* What a function is. */
typedef enum fkind {
  FK_NODE,     /* A node: computes its value. */
  FK_INSTANCE, /* One instance of a ranged node. */
  FK_APPLY,    /* The body of an apply. */
  FK_EACH,     /* The body of a for expression or a splat, per element. */
  FK_THUNK,    /* A try alternative, a can argument, a recover value, or an
                  operand of && or || whose failure is captured. */
  FK_RECOVERY, /* The recovery of recover(). */
  FK_COUNT
} fkind;

/* Name prefixes of the compiler's functions, by kind. */
static const char *const kind_names[FK_COUNT] = {"node", "instance", "apply", "each",
                                                  "thunk", "recovery"};

/* A growable set of variable slots. */
typedef struct slots {
  uint32_t *items; /* The slots. */
  size_t n, cap;   /* Used and allocated. */
} slots;

/* Adds s to set (duplicates are removed later). */
static void slots_add(slots *set, uint32_t s) {
  if (set->n == set->cap) {
    set->cap = set->cap ? 2 * set->cap : 8;
    set->items = xrealloc(set->items, set->cap * sizeof *set->items);
  }
  set->items[set->n++] = s;
}

/* qsort order of slots. */
static int slot_cmp(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

/* One function of the node being emitted. */
typedef struct fn {
  fkind kind;       /* What it is. */
  const ir_expr *x; /* APPLY: the APPLY; EACH: the FOR or SPLAT; THUNK and
                       RECOVERY: the expression it computes. */
  size_t parent;    /* Index of the function that creates it (SIZE_MAX: none). */
  uint32_t lo, hi;  /* APPLY: its parameters' slots, [lo, hi). */
  uint32_t key;     /* EACH: the key variable's slot, or UINT32_MAX. */
  uint32_t value;   /* EACH: the value's slot; RECOVERY: `error`'s; INSTANCE:
                       `range`'s; else UINT32_MAX. */
  slots refs;       /* Slots its code reads, its closures' captures included. */
  slots caps;       /* The slots it captures, sorted: its environment. */
  const char *name; /* Its C name, once written. */
  uint32_t row;     /* The offset of its row, once written. */
} fn;

/* The node being emitted. */
typedef struct nctx {
  em *e;               /* The emission. */
  const ir_module *m;  /* The node's module. */
  const ir_node *n;    /* The node. */
  fn *fns;             /* Its functions, parents before children. */
  size_t nfns, capfns; /* Used and allocated. */
  ptrmap body_fn;      /* APPLY, FOR or SPLAT -> index + 1 of the function of its body. */
  ptrmap thunk_fn;     /* Expression -> index + 1 of the function computing it. */
  ptrmap fallible;     /* Expression -> 1 (can fail) or 2 (cannot), once known. */
} nctx;

/* Adds a function and returns its index. */
static size_t add_fn(nctx *c, fkind kind, const ir_expr *x, size_t parent) {
  if (c->nfns == c->capfns) {
    c->capfns = c->capfns ? 2 * c->capfns : 8;
    c->fns = xrealloc(c->fns, c->capfns * sizeof *c->fns);
  }
  fn *f = &c->fns[c->nfns];
  *f = (fn){kind, x, parent, 0, 0, UINT32_MAX, UINT32_MAX, {0}, {0}, NULL, 0};
  return c->nfns++;
}

/* ---------------------------------------------------------- failing at once */

/* Whether x's own operation can fail when it runs (as opposed to failing
 * through a future later, or not at all). */
static bool own_fallible(const ir_expr *x) {
  switch (x->op) {
  case IR_CONST:
  case IR_NODE:
  case IR_VAR:
  case IR_PARAM:
  case IR_LIST:
  case IR_APPLY:
  case IR_SECRET:
  case IR_UNSECRET:
  case IR_GET_OUTPUT:
  case IR_INVOKE:
  case IR_METHOD:
  case IR_TRY:
  case IR_CAN:
  case IR_RECOVER:
    return false;
  case IR_OBJECT:
    for (size_t i = 0; i < x->n; i += 2) {
      if (x->kids[i]->op != IR_CONST || x->kids[i]->ck != IR_K_STRING)
        return true;
    }
    return false;
  case IR_BINARY:
    switch ((ast_binary_op)x->sub) {
    case AST_OP_EQ:
    case AST_OP_NE:
      return false;
    case AST_OP_AND:
    case AST_OP_OR:
    case AST_OP_LT:
    case AST_OP_LE:
    case AST_OP_GT:
    case AST_OP_GE:
    case AST_OP_ADD:
    case AST_OP_SUB:
    case AST_OP_MUL:
    case AST_OP_DIV:
    case AST_OP_MOD:
      return true;
    }
    return true;
  case IR_PATH:
  case IR_ATTR:
  case IR_INDEX:
  case IR_TEMPLATE:
  case IR_UNARY:
  case IR_COND:
  case IR_CALL:
  case IR_CONVERT:
  case IR_FOR:
  case IR_SPLAT:
  case IR_FAIL:
    return true;
  }
  return true;
}

/* The number of x's children that run in the same call as x (the rest run
 * in functions of their own). */
static size_t sync_kids(const ir_expr *x) {
  switch (x->op) {
  case IR_APPLY:
    return x->n - 1;
  case IR_FOR:
  case IR_SPLAT:
    return 1;
  case IR_TRY:
  case IR_CAN:
  case IR_RECOVER:
    return 0;
  case IR_BINARY:
    return x->sub == AST_OP_AND || x->sub == AST_OP_OR ? 0 : x->n;
  case IR_CONST:
  case IR_NODE:
  case IR_VAR:
  case IR_PARAM:
  case IR_PATH:
  case IR_ATTR:
  case IR_INDEX:
  case IR_LIST:
  case IR_OBJECT:
  case IR_TEMPLATE:
  case IR_UNARY:
  case IR_COND:
  case IR_CALL:
  case IR_CONVERT:
  case IR_SECRET:
  case IR_UNSECRET:
  case IR_GET_OUTPUT:
  case IR_INVOKE:
  case IR_METHOD:
  case IR_FAIL:
    return x->n;
  }
  return x->n;
}

/* Whether computing x can fail at once: its operation or one of the
 * children computed in the same call can.  Memoised, walked with an
 * explicit stack. */
static bool fallible(nctx *c, const ir_expr *root) {
  uintptr_t known = (uintptr_t)ptrmap_get(&c->fallible, root);
  if (known)
    return known == 1;
  size_t n = 0, cap = 32;
  const ir_expr **stack = xmalloc(cap * sizeof *stack);
  stack[n++] = root;
  while (n > 0) {
    const ir_expr *x = stack[n - 1];
    if (ptrmap_get(&c->fallible, x)) {
      n--;
      continue;
    }
    size_t k = sync_kids(x);
    bool ready = true, fails = own_fallible(x);
    for (size_t i = 0; i < k; i++) {
      uintptr_t v = (uintptr_t)ptrmap_get(&c->fallible, x->kids[i]);
      if (v == 0) {
        ready = false;
        if (n == cap) {
          cap *= 2;
          stack = xrealloc(stack, cap * sizeof *stack);
        }
        stack[n++] = x->kids[i];
      } else {
        fails = fails || v == 1;
      }
    }
    if (ready) {
      ptrmap_put(&c->fallible, x, (void *)(uintptr_t)(fails ? 1 : 2));
      n--;
    }
  }
  free(stack);
  return (uintptr_t)ptrmap_get(&c->fallible, root) == 1;
}

/* --------------------------------------------------------------- collection */

/* An expression to visit, and the function whose code computes it. */
typedef struct visit {
  const ir_expr *x; /* The expression. */
  size_t f;         /* The function. */
} visit;

/* Finds the functions of the expression trees roots[0..nroots) (each with
 * the function fs[i] computing it): records each function's own variable
 * reads and maps every closure's root to its function. */
static void collect(nctx *c, const ir_expr *const *roots, const size_t *fs, size_t nroots) {
  size_t n = 0, cap = 64;
  visit *stack = xmalloc(cap * sizeof *stack);
#define PUSH(xx, ff)                                                                         \
  do {                                                                                       \
    if (n == cap) {                                                                          \
      cap *= 2;                                                                              \
      stack = xrealloc(stack, cap * sizeof *stack);                                          \
    }                                                                                        \
    stack[n++] = (visit){(xx), (ff)};                                                        \
  } while (0)
  for (size_t i = 0; i < nroots; i++) {
    if (roots[i])
      PUSH(roots[i], fs[i]);
  }
  while (n > 0) {
    visit v = stack[--n];
    const ir_expr *x = v.x;
    size_t f = v.f;
    switch (x->op) {
    case IR_VAR:
    case IR_PARAM:
      slots_add(&c->fns[f].refs, x->a);
      break;
    case IR_APPLY: {
      size_t a = add_fn(c, FK_APPLY, x, f);
      c->fns[a].lo = x->a;
      c->fns[a].hi = x->a + (uint32_t)(x->n - 1);
      ptrmap_put(&c->body_fn, x, (void *)(uintptr_t)(a + 1));
      PUSH(x->kids[x->n - 1], a);
      for (size_t i = x->n - 1; i-- > 0;)
        PUSH(x->kids[i], f);
      break;
    }
    case IR_FOR:
    case IR_SPLAT: {
      size_t a = add_fn(c, FK_EACH, x, f);
      if (x->op == IR_FOR) {
        c->fns[a].key = (x->sub & IR_F_KEYVAR) ? x->a : UINT32_MAX;
        c->fns[a].value = x->b;
      } else {
        c->fns[a].value = x->a;
      }
      ptrmap_put(&c->body_fn, x, (void *)(uintptr_t)(a + 1));
      for (size_t i = x->n; i-- > 1;)
        PUSH(x->kids[i], a);
      PUSH(x->kids[0], f);
      break;
    }
    case IR_TRY:
    case IR_CAN:
    case IR_RECOVER:
    case IR_BINARY:
      if (x->op == IR_BINARY && x->sub != AST_OP_AND && x->sub != AST_OP_OR) {
        PUSH(x->kids[1], f);
        PUSH(x->kids[0], f);
        break;
      }
      for (size_t i = x->n; i-- > 0;) {
        const ir_expr *k = x->kids[i];
        if (x->op == IR_BINARY && !fallible(c, k)) {
          PUSH(k, f);
          continue;
        }
        bool recovery = x->op == IR_RECOVER && i == 1;
        size_t a = add_fn(c, recovery ? FK_RECOVERY : FK_THUNK, k, f);
        if (recovery)
          c->fns[a].value = x->a;
        ptrmap_put(&c->thunk_fn, k, (void *)(uintptr_t)(a + 1));
        PUSH(k, a);
      }
      break;
    case IR_CONST:
    case IR_NODE:
    case IR_PATH:
    case IR_ATTR:
    case IR_INDEX:
    case IR_LIST:
    case IR_OBJECT:
    case IR_TEMPLATE:
    case IR_UNARY:
    case IR_COND:
    case IR_CALL:
    case IR_CONVERT:
    case IR_SECRET:
    case IR_UNSECRET:
    case IR_GET_OUTPUT:
    case IR_INVOKE:
    case IR_METHOD:
    case IR_FAIL:
      for (size_t i = x->n; i-- > 0;)
        PUSH(x->kids[i], f);
      break;
    }
  }
#undef PUSH
  free(stack);
}

/* Whether slot s is bound by function f itself. */
static bool binds(const fn *f, uint32_t s) {
  switch (f->kind) {
  case FK_APPLY:
    return s >= f->lo && s < f->hi;
  case FK_EACH:
    return s == f->key || s == f->value;
  case FK_RECOVERY:
  case FK_INSTANCE:
    return s == f->value;
  case FK_NODE:
  case FK_THUNK:
  case FK_COUNT:
    return false;
  }
  return false;
}

/* Computes every function's captures: what its code and its closures read
 * that it does not bind.  Children come after their parents, so a reverse
 * walk sees every child before its parent. */
static void captures(nctx *c) {
  for (size_t i = c->nfns; i-- > 0;) {
    fn *f = &c->fns[i];
    if (f->refs.n > 1)
      qsort(f->refs.items, f->refs.n, sizeof *f->refs.items, slot_cmp);
    for (size_t j = 0; j < f->refs.n; j++) {
      uint32_t s = f->refs.items[j];
      if ((j > 0 && f->refs.items[j - 1] == s) || binds(f, s))
        continue;
      slots_add(&f->caps, s);
    }
    if (f->parent != SIZE_MAX) {
      for (size_t j = 0; j < f->caps.n; j++)
        slots_add(&c->fns[f->parent].refs, f->caps.items[j]);
    }
  }
}

/* ------------------------------------------------------------------- writer */

/* What an operand of an operation is. */
typedef enum okind {
  O_TEMP,  /* An owned temporary t<temp>. */
  O_TEXT,  /* A borrowed value: text is its C expression. */
  O_CONST, /* The constant k (read from the row where it is used). */
  O_FIXED, /* The constant k, the same in every use of the code (a key of
              an object constructor, which the node's shape includes). */
  O_NODE,  /* The value of node k (read from the row where it is used). */
} okind;

/* The value of an expression, as the code that uses it sees it. */
typedef struct opnd {
  okind kind;       /* What it is. */
  int temp;         /* O_TEMP: the temporary. */
  const char *text; /* O_TEXT: the C expression. */
  uint32_t k;       /* O_CONST, O_NODE: the constant or node. */
} opnd;

/* The function being written. */
typedef struct fctx {
  nctx *c;          /* The node. */
  size_t fi;        /* The function's index in c->fns. */
  fn *f;            /* The function (c->fns[fi]). */
  cw full;          /* Its statements with #line directives. */
  cw key;           /* Its statements alone: what decides whether it is new. */
  uint32_t *row;    /* Its row so far. */
  size_t nrow, caprow; /* Used and allocated. */
  int ntemps;       /* Temporaries declared (t0 .. t<ntemps-1>). */
  int *free_temps;  /* Temporaries not in use, the next one to reuse last. */
  size_t nfree, capfree; /* Used and allocated. */
  int indent;       /* Block depth of the next statement. */
  bool uses_e;      /* The code reads the environment. */
  bool uses_r;      /* The code reads the row. */
  bool uses_err;    /* The code passes err. */
  bool fails;       /* The code jumps to `fail`. */
  const char *file; /* The source file of the last #line directive. */
  size_t line;      /* The source line the next C line gets from it: the
                       directive's line plus the C lines written since
                       (0: no directive yet). */
  const char *want_file; /* The source line the next statement belongs to. */
  size_t want_line;      /* (0: none yet). */
  cw scratch;            /* fmt's buffer. */
  int scope;             /* The captured scope being written (0: none). */
  bool scope_fails;      /* It has a check that jumps to its failure block. */
  int nscopes;           /* Captured scopes written. */
  cw fail_blocks;        /* Their failure blocks, written after the code. */
  bool uses_at;          /* Some check sets `at`. */
  bool uses_error;       /* A node function's failure block reads `error`. */
  bool quiet;            /* Only the row is wanted: the code is known. */
} fctx;

/* Appends to out the text of format f with the arguments ap: only the
 * conversions the emitter uses (%s, %d, %u, %zu), formatted without the C
 * library's printf, which would dominate the time pclc takes. */
static void format(cw *out, const char *f, va_list ap) {
  for (const char *p = f; *p;) {
    const char *q = strchr(p, '%');
    if (q == NULL) {
      cw_puts(out, p);
      return;
    }
    cw_bytes(out, p, (size_t)(q - p));
    if (q[1] == 's') {
      cw_puts(out, va_arg(ap, const char *));
      p = q + 2;
    } else if (q[1] == 'd') {
      int v = va_arg(ap, int);
      if (v < 0) {
        cw_bytes(out, "-", 1);
        v = -v;
      }
      cw_uint(out, (unsigned)v);
      p = q + 2;
    } else if (q[1] == 'u') {
      cw_uint(out, va_arg(ap, unsigned));
      p = q + 2;
    } else if (q[1] == 'z' && q[2] == 'u') {
      cw_uint(out, va_arg(ap, size_t));
      p = q + 3;
    } else {
      ice("unsupported conversion in '%s'", f);
    }
  }
}

/* Returns arena text formatted from f (see format). */
static const char *fmt(fctx *w, const char *f, ...) __attribute__((format(printf, 2, 3)));
static const char *fmt(fctx *w, const char *f, ...) {
  if (w->quiet)
    return "";
  va_list ap;
  va_start(ap, f);
  w->scratch.len = 0;
  format(&w->scratch, f, ap);
  va_end(ap);
  return arena_strndup(&w->c->e->keys, w->scratch.data ? w->scratch.data : "", w->scratch.len);
}

/* Adds v to the row and returns its position. */
static size_t row_add(fctx *w, uint32_t v) {
  if (w->nrow == w->caprow) {
    w->caprow = w->caprow ? 2 * w->caprow : 16;
    w->row = xrealloc(w->row, w->caprow * sizeof *w->row);
  }
  w->row[w->nrow] = v;
  w->uses_r = true;
  w->uses_e = true;
  return w->nrow++;
}

/* Attributes the next statement to the source line of span (stmt writes a
 * #line directive when the C line would be attributed elsewhere). */
static void at_line(fctx *w, pcl_span span) {
  em *e = w->c->e;
  if (!e->lines || span.end == 0 || w->quiet)
    return;
  w->want_file = e->src->files[span.file].path;
  w->want_line = src_position(e->src, span.file, span.start).line;
}

/* Writes one statement line (formatted as fmt does), indented. */
static void stmt(fctx *w, const char *f, ...) __attribute__((format(printf, 2, 3)));
static void stmt(fctx *w, const char *f, ...) {
  if (w->quiet)
    return;
  /* A directive where the line the C line would get is not the statement's
     own: a C compiler numbers the lines after a directive on from it, so
     the second statement of one source line needs a directive of its own,
     else it is given the next source line (and a debugger's breakpoint on
     that line would stop there). */
  if (w->want_line && (w->want_file != w->file || w->want_line != w->line)) {
    cw_bytes(&w->full, "#line ", 6);
    cw_uint(&w->full, w->want_line);
    cw_bytes(&w->full, " ", 1);
    cw_cstring(&w->full, w->want_file, strlen(w->want_file));
    cw_bytes(&w->full, "\n", 1);
    w->file = w->want_file;
    w->line = w->want_line;
  }
  size_t start = w->key.len;
  for (int i = 0; i < w->indent + 1; i++)
    cw_bytes(&w->key, "  ", 2);
  va_list ap;
  va_start(ap, f);
  format(&w->key, f, ap);
  va_end(ap);
  cw_bytes(&w->key, "\n", 1);
  cw_bytes(&w->full, w->key.data + start, w->key.len - start);
  if (w->line)
    w->line++;
}

/* Returns a temporary not in use. */
static int temp_new(fctx *w) {
  if (w->nfree > 0)
    return w->free_temps[--w->nfree];
  return w->ntemps++;
}

/* Returns temporary t to the free ones (its value was released or moved). */
static void temp_free(fctx *w, int t) {
  if (w->nfree == w->capfree) {
    w->capfree = w->capfree ? 2 * w->capfree : 16;
    w->free_temps = xrealloc(w->free_temps, w->capfree * sizeof *w->free_temps);
  }
  w->free_temps[w->nfree++] = t;
}

/* Returns the C expression of operand o (reading the row for constants and
 * nodes). */
static const char *text(fctx *w, opnd o) {
  switch (o.kind) {
  case O_TEMP:
    return fmt(w, "t%d", o.temp);
  case O_TEXT:
    return o.text;
  case O_CONST:
    return fmt(w, "&pclg_k[r[%zu]]", row_add(w, o.k));
  case O_FIXED:
    return fmt(w, "&pclg_k[%u]", (unsigned)o.k);
  case O_NODE:
    return fmt(w, "pcl_gen_node(e, r[%zu])", row_add(w, o.k));
  }
  return "";
}

/* Releases operand o once its one use is written (temporaries only). */
static void drop(fctx *w, opnd o) {
  if (o.kind == O_TEMP) {
    stmt(w, "pcl_release(t%d), t%d = NULL;", o.temp, o.temp);
    temp_free(w, o.temp);
  }
}

/* Returns an owned C expression of o for a statement that keeps the value
 * (a temporary is handed over: the caller writes `tN = NULL` after the
 * statement with moved()). */
static const char *owned(fctx *w, opnd o) {
  return o.kind == O_TEMP ? fmt(w, "t%d", o.temp) : fmt(w, "pcl_retain(%s)", text(w, o));
}

/* Forgets temporary o after a statement took its value over. */
static void moved(fctx *w, opnd o) {
  if (o.kind == O_TEMP) {
    stmt(w, "t%d = NULL;", o.temp);
    temp_free(w, o.temp);
  }
}

/* Returns the C expression reading variable slot s in the function. */
static const char *var(fctx *w, uint32_t s) {
  const fn *f = w->f;
  switch (f->kind) {
  case FK_APPLY:
    if (s >= f->lo && s < f->hi)
      return fmt(w, "p[%u]", (unsigned)(s - f->lo));
    break;
  case FK_EACH:
    if (s == f->key)
      return "key";
    if (s == f->value)
      return "value";
    break;
  case FK_RECOVERY:
    if (s == f->value)
      return "error";
    break;
  case FK_INSTANCE:
    if (s == f->value)
      return "range";
    break;
  case FK_NODE:
  case FK_THUNK:
  case FK_COUNT:
    break;
  }
  for (size_t j = 0; j < f->caps.n; j++) {
    if (f->caps.items[j] == s) {
      w->uses_e = true;
      return fmt(w, "e->v[%zu]", j);
    }
  }
  ice("variable $%u is not visible in a %s function", (unsigned)s, kind_names[f->kind]);
}

/* Returns how many entries of pclg_r the row of function k (a function the
 * one being written creates, whose row is written before its parent's)
 * starts before the row being made: rows refer to the rows of their
 * closures by this distance, which stays small however long the program
 * is. */
static uint32_t row_back(const fctx *w, const fn *k) {
  return w->c->e->nrows - k->row;
}

/* Returns the C expression creating the environment of function `child`
 * (its row and captured variables) from the function being written. */
static const char *closure(fctx *w, size_t child) {
  const fn *k = &w->c->fns[child];
  w->uses_e = true;
  size_t r = row_add(w, row_back(w, k));
  if (w->quiet)
    return "";
  if (k->caps.n == 0)
    return fmt(w, "pcl_gen_env_new(e, r - r[%zu], 0, NULL)", r);
  cw t = CW_INIT;
  cw_puts(&t, "pcl_gen_env_new(e, r - r[");
  cw_uint(&t, r);
  cw_puts(&t, "], ");
  cw_uint(&t, k->caps.n);
  cw_puts(&t, ", (pcl_value *[]){");
  for (size_t j = 0; j < k->caps.n; j++) {
    if (j)
      cw_puts(&t, ", ");
    cw_puts(&t, var(w, k->caps.items[j]));
  }
  cw_puts(&t, "})");
  const char *s = arena_strndup(&w->c->e->keys, t.data, t.len);
  cw_free(&t);
  return s;
}

/* Returns the position of a new row entry holding the location of span. */
static size_t loc(fctx *w, pcl_span span) { return row_add(w, em_loc(w->c->e, span)); }

/* Writes the check after a fallible call whose result went to temporary t:
 * on NULL the function fails, its error located at row entry r. */
static void check(fctx *w, int t, size_t r) {
  if (w->scope) {
    stmt(w, "if (t%d == NULL) { at = r[%zu]; goto fail%d; }", t, r, w->scope);
    w->scope_fails = true;
  } else {
    stmt(w, "if (t%d == NULL) { at = r[%zu]; goto fail; }", t, r);
    w->fails = true;
  }
  w->uses_at = true;
  w->uses_err = true;
}

/* Returns `(pcl_value *[]){a, b, ...}` for operands ops[0..n) (NULL when n
 * is 0), dropping nothing. */
static const char *array_of(fctx *w, const opnd *ops, size_t n) {
  if (n == 0)
    return "NULL";
  if (w->quiet) {
    for (size_t i = 0; i < n; i++)
      text(w, ops[i]);
    return "";
  }
  cw t = CW_INIT;
  cw_puts(&t, "(pcl_value *[]){");
  for (size_t i = 0; i < n; i++) {
    if (i)
      cw_puts(&t, ", ");
    cw_puts(&t, text(w, ops[i]));
  }
  cw_puts(&t, "}");
  const char *s = arena_strndup(&w->c->e->keys, t.data, t.len);
  cw_free(&t);
  return s;
}

/* Drops operands ops[0..n). */
static void drop_all(fctx *w, const opnd *ops, size_t n) {
  for (size_t i = 0; i < n; i++)
    drop(w, ops[i]);
}

/* Returns a temporary operand. */
static opnd temp_opnd(int t) { return (opnd){O_TEMP, t, NULL, 0}; }

/* ------------------------------------------------------------- expressions */

/* The index of the function created for closure root x in map, or
 * SIZE_MAX. */
static size_t fn_of(const ptrmap *map, const ir_expr *x) {
  uintptr_t v = (uintptr_t)ptrmap_get(map, x);
  return v ? (size_t)(v - 1) : SIZE_MAX;
}

/* Whether child i of x is computed by x's function, before x (the other
 * children are closures, or COND branches written inside its blocks). */
static bool inline_kid(const nctx *c, const ir_expr *x, size_t i) {
  switch (x->op) {
  case IR_APPLY:
    return i + 1 < x->n;
  case IR_FOR:
  case IR_SPLAT:
    return i == 0;
  case IR_TRY:
  case IR_CAN:
  case IR_RECOVER:
    return false;
  case IR_BINARY:
    return fn_of(&c->thunk_fn, x->kids[i]) == SIZE_MAX;
  case IR_COND:
    return i == 0;
  case IR_CONST:
  case IR_NODE:
  case IR_VAR:
  case IR_PARAM:
  case IR_PATH:
  case IR_ATTR:
  case IR_INDEX:
  case IR_LIST:
  case IR_OBJECT:
  case IR_TEMPLATE:
  case IR_UNARY:
  case IR_CALL:
  case IR_CONVERT:
  case IR_SECRET:
  case IR_UNSECRET:
  case IR_GET_OUTPUT:
  case IR_INVOKE:
  case IR_METHOD:
  case IR_FAIL:
    return true;
  }
  return true;
}

/* How the runtime takes the arguments of a built-in. */
typedef enum callform {
  CF_ARGS,     /* pcl_fn_<name>(a0, ..., err), optional ones NULL. */
  CF_VARIADIC, /* pcl_fn_<name>(args, n, err). */
  CF_FILE,     /* pcl_fn_<name>(NULL, a0, ..., err): relative to the working directory. */
  CF_RUN,      /* A value of the run: pcl_run_<what>(run). */
} callform;

/* Returns the calling form of builtin b and, for CF_RUN, the run accessor. */
static callform call_form(const funcs_builtin *b, const char **run) {
  switch (b->id) {
  case FUNCS_MIN:
  case FUNCS_MAX:
    return CF_VARIADIC;
  case FUNCS_READ_FILE:
  case FUNCS_FILEBASE64:
  case FUNCS_FILEBASE64SHA256:
  case FUNCS_FILE_ASSET:
  case FUNCS_FILE_ARCHIVE:
  case FUNCS_READ_DIR:
    return CF_FILE;
  case FUNCS_STACK:
    *run = "pcl_run_stack";
    return CF_RUN;
  case FUNCS_PROJECT:
    *run = "pcl_run_project";
    return CF_RUN;
  case FUNCS_ORGANIZATION:
    *run = "pcl_run_organization";
    return CF_RUN;
  case FUNCS_CWD:
    *run = "pcl_run_cwd";
    return CF_RUN;
  case FUNCS_ROOT_DIRECTORY:
    *run = "pcl_run_root_directory";
    return CF_RUN;
  case FUNCS_ELEMENT:
  case FUNCS_ENTRIES:
  case FUNCS_LENGTH:
  case FUNCS_LOOKUP:
  case FUNCS_JOIN:
  case FUNCS_SPLIT:
  case FUNCS_RANGE:
  case FUNCS_TO_JSON:
  case FUNCS_TO_BASE64:
  case FUNCS_FROM_BASE64:
  case FUNCS_SHA1:
  case FUNCS_STRING_ASSET:
  case FUNCS_REMOTE_ASSET:
  case FUNCS_REMOTE_ARCHIVE:
  case FUNCS_ASSET_ARCHIVE:
  case FUNCS_SINGLE_OR_NONE:
  case FUNCS_NOT_IMPLEMENTED:
  case FUNCS_PULUMI_RESOURCE_TYPE:
  case FUNCS_PULUMI_RESOURCE_NAME:
  case FUNCS_MIME_TYPE:
    return CF_ARGS;
  case FUNCS_SECRET:
  case FUNCS_UNSECRET:
  case FUNCS_TRY:
  case FUNCS_CAN:
  case FUNCS_RECOVER:
  case FUNCS_GET_OUTPUT:
  case FUNCS_INVOKE:
  case FUNCS_CALL:
  case FUNCS_CONVERT:
  case FUNCS_COUNT:
    break;
  }
  ice("built-in '%s' is not called as a function", b->name);
}

/* Writes a call of built-in x with argument operands k; returns its value. */
static opnd call_builtin(fctx *w, const ir_expr *x, const opnd *k) {
  const funcs_builtin *b = funcs_lookup(x->s);
  if (b == NULL)
    ice("unknown built-in '%s'", x->s);
  int t = temp_new(w);
  if (x->sub) {
    stmt(w, "t%d = pcl_gen_call_expanded(\"%s\", %s, %zu, err);", t, b->name,
         array_of(w, k, x->n), x->n);
    drop_all(w, k, x->n);
    check(w, t, loc(w, x->span));
    return temp_opnd(t);
  }
  const char *run = NULL;
  switch (call_form(b, &run)) {
  case CF_RUN:
    w->uses_e = true;
    stmt(w, "t%d = %s(pcl_gen_run(e));", t, run);
    return temp_opnd(t);
  case CF_VARIADIC:
    stmt(w, "t%d = pcl_fn_%s(%s, %zu, err);", t, b->name, array_of(w, k, x->n), x->n);
    break;
  case CF_ARGS:
  case CF_FILE: {
    cw a = CW_INIT;
    bool file = call_form(b, &run) == CF_FILE;
    if (file)
      cw_puts(&a, "NULL");
    for (size_t i = 0; i < b->nparams; i++)
      cw_printf(&a, "%s%s", i || file ? ", " : "", i < x->n ? text(w, k[i]) : "NULL");
    stmt(w, "t%d = pcl_fn_%s(%s%serr);", t, b->name, a.data ? a.data : "",
         b->nparams || file ? ", " : "");
    cw_free(&a);
    break;
  }
  }
  drop_all(w, k, x->n);
  check(w, t, loc(w, x->span));
  return temp_opnd(t);
}

/* The runtime function of a binary operator with plain operands. */
static const char *binary_fn(ast_binary_op op) {
  switch (op) {
  case AST_OP_EQ:
    return "pcl_op_eq";
  case AST_OP_NE:
    return "pcl_op_ne";
  case AST_OP_LT:
    return "pcl_op_lt";
  case AST_OP_LE:
    return "pcl_op_le";
  case AST_OP_GT:
    return "pcl_op_gt";
  case AST_OP_GE:
    return "pcl_op_ge";
  case AST_OP_ADD:
    return "pcl_op_add";
  case AST_OP_SUB:
    return "pcl_op_sub";
  case AST_OP_MUL:
    return "pcl_op_mul";
  case AST_OP_DIV:
    return "pcl_op_div";
  case AST_OP_MOD:
    return "pcl_op_mod";
  case AST_OP_AND:
  case AST_OP_OR:
    break;
  }
  ice("operator %d has no plain function", (int)op);
}

/* The runtime conversion function of a CONVERT. */
static const char *convert_fn(ir_convert to) {
  switch (to) {
  case IR_C_STRING:
    return "pcl_convert_to_string";
  case IR_C_NUMBER:
    return "pcl_convert_to_number";
  case IR_C_INT:
    return "pcl_convert_to_int";
  case IR_C_BOOL:
    return "pcl_convert_to_bool";
  }
  return "";
}

/* The C flags of a FOR: the runtime's PCL_GEN_FOR_* (pcl_abi.h) of the
 * IR's flags of the same names. */
static const char *for_flags(fctx *w, unsigned sub) {
  cw t = CW_INIT;
#define X(name, bit)                                                                         \
  if (sub & IR_F_##name)                                                                     \
    cw_puts(&t, " | PCL_GEN_FOR_" #name);
  PCL_GEN_FOR_FLAGS(X)
#undef X
  const char *s = t.len ? fmt(w, "%s", t.data + 3) : "0";
  cw_free(&t);
  return s;
}

/* Sorts idx[0..n) (positions in keys) by key, stably, with a bottom-up
 * merge sort through tmp (n entries): an object may have a hundred
 * thousand constant keys. */
static void merge_sort_keys(em *e, const opnd *keys, size_t *idx, size_t *tmp, size_t n) {
  for (size_t width = 1; width < n; width *= 2) {
    for (size_t lo = 0; lo < n; lo += 2 * width) {
      size_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
      size_t a = lo, b = mid, o = lo;
      while (a < mid && b < hi)
        tmp[o++] = em_string_cmp(e, keys[idx[b]].k, keys[idx[a]].k) < 0 ? idx[b++] : idx[a++];
      while (a < mid)
        tmp[o++] = idx[a++];
      while (b < hi)
        tmp[o++] = idx[b++];
    }
    memcpy(idx, tmp, n * sizeof *idx);
  }
}

/* Orders the pairs keys[i] -> vals[i] of an object constructor with
 * constant keys as the map will hold them, so that it is built without
 * sorting; when two keys are equal the written order stays (the runtime
 * keeps the last). */
static void sort_keys(em *e, opnd *keys, opnd *vals, size_t n) {
  size_t *idx = xmalloc((n ? n : 1) * sizeof *idx), *tmp = xmalloc((n ? n : 1) * sizeof *tmp);
  for (size_t i = 0; i < n; i++)
    idx[i] = i;
  merge_sort_keys(e, keys, idx, tmp, n);
  bool equal = false;
  for (size_t i = 1; i < n && !equal; i++)
    equal = em_string_cmp(e, keys[idx[i - 1]].k, keys[idx[i]].k) == 0;
  if (!equal) {
    opnd *k = xmalloc((n ? n : 1) * sizeof *k), *v = xmalloc((n ? n : 1) * sizeof *v);
    for (size_t i = 0; i < n; i++) {
      k[i] = keys[idx[i]];
      v[i] = vals[idx[i]];
    }
    memcpy(keys, k, n * sizeof *keys);
    memcpy(vals, v, n * sizeof *vals);
    free(k);
    free(v);
  }
  free(idx);
  free(tmp);
}

/* Returns the name of the function created for closure root x. */
static const char *closure_name(fctx *w, const ptrmap *map, const ir_expr *x, size_t *fi) {
  *fi = fn_of(map, x);
  if (*fi == SIZE_MAX)
    ice("no function for a closure");
  return w->c->fns[*fi].name;
}

/* Writes the operation x whose inline children are k (see inline_kid) and
 * returns its value.  COND is written by emit_expr. */
static opnd finish(fctx *w, const ir_expr *x, opnd *k) {
  em *e = w->c->e;
  int t;
  switch (x->op) {
  case IR_CONST:
    return (opnd){O_CONST, 0, NULL, em_const(e, x)};
  case IR_NODE:
    return (opnd){O_NODE, 0, NULL, x->a};
  case IR_VAR:
  case IR_PARAM:
    return (opnd){O_TEXT, 0, var(w, x->a), 0};
  case IR_PATH: {
    const char *root = text(w, k[0]);
    size_t first = w->nrow;
    uint32_t keyed = 0; /* Keyed steps so far. */
    for (size_t i = 0; i < x->nsteps; i++) {
      const ir_step *s = &x->steps[i];
      row_add(w, s->keyed ? keyed++ : em_const(e, s->key));
      row_add(w, (s->index ? PCL_GEN_STEP_INDEX : 0u) | (s->declared ? PCL_GEN_DECLARED : 0u) |
                     (s->disc ? PCL_GEN_STEP_BY_MEMBER : 0u) |
                     (s->keyed ? PCL_GEN_STEP_KEYED : 0u));
      if (s->disc) {
        uint32_t *values = xmalloc((s->nmembers ? s->nmembers : 1) * sizeof *values);
        for (size_t j = 0; j < s->nmembers; j++)
          values[j] = em_string(e, s->members[j], strlen(s->members[j]));
        row_add(w, em_string(e, s->disc, strlen(s->disc)));
        row_add(w, em_static_list(e, values, s->nmembers));
        free(values);
      }
    }
    size_t l = loc(w, x->span);
    t = temp_new(w);
    if (keyed == 0) {
      stmt(w, "t%d = pcl_gen_path(e, %s, r + %zu, %zu, r[%zu], err);", t, root, first,
           (size_t)x->nsteps, l);
    } else {
      cw keys = CW_INIT;
      for (size_t i = 1; i < x->n; i++)
        cw_printf(&keys, "%s%s", i > 1 ? ", " : "", text(w, k[i]));
      stmt(w, "t%d = pcl_gen_path_keys(e, %s, (pcl_value *[]){%s}, %zu, r + %zu, %zu, r[%zu], err);",
           t, root, keys.data, x->n - 1, first, (size_t)x->nsteps, l);
      cw_free(&keys);
    }
    for (size_t i = 0; i < x->n; i++)
      drop(w, k[i]);
    check(w, t, l);
    return temp_opnd(t);
  }
  case IR_ATTR: {
    const char *obj = text(w, k[0]);
    size_t name = row_add(w, em_string(e, x->s, strlen(x->s)));
    t = temp_new(w);
    w->uses_e = true;
    stmt(w, "t%d = pcl_gen_attr(e, %s, &pclg_k[r[%zu]], %s, err);", t, obj, name,
         x->declared ? "PCL_GEN_DECLARED" : "0");
    drop(w, k[0]);
    check(w, t, loc(w, x->span));
    return temp_opnd(t);
  }
  case IR_INDEX: {
    const char *coll = text(w, k[0]), *key = text(w, k[1]);
    t = temp_new(w);
    stmt(w, "t%d = pcl_gen_index(%s, %s, %s, err);", t, coll, key,
         x->declared ? "PCL_GEN_DECLARED" : "0");
    drop_all(w, k, 2);
    check(w, t, loc(w, x->span));
    return temp_opnd(t);
  }
  case IR_LIST: {
    bool constant = true;
    for (size_t i = 0; i < x->n; i++)
      constant = constant && k[i].kind == O_CONST;
    if (constant) {
      uint32_t *items = xmalloc((x->n ? x->n : 1) * sizeof *items);
      for (size_t i = 0; i < x->n; i++)
        items[i] = k[i].k;
      uint32_t c = em_static_list(e, items, x->n);
      free(items);
      return (opnd){O_CONST, 0, NULL, c};
    }
    t = temp_new(w);
    stmt(w, "t%d = pcl_list_of(%s, %zu);", t, array_of(w, k, x->n), x->n);
    drop_all(w, k, x->n);
    return temp_opnd(t);
  }
  case IR_OBJECT: {
    size_t n = x->n / 2;
    bool literal = true, constant = true;
    for (size_t i = 0; i < n; i++) {
      literal = literal && x->kids[2 * i]->op == IR_CONST && x->kids[2 * i]->ck == IR_K_STRING;
      constant = constant && k[2 * i + 1].kind == O_CONST;
    }
    opnd *keys = xmalloc((n ? n : 1) * sizeof *keys), *vals = xmalloc((n ? n : 1) * sizeof *vals);
    for (size_t i = 0; i < n; i++) {
      keys[i] = k[2 * i];
      vals[i] = k[2 * i + 1];
      /* The keys of a constructor are part of its shape (see shape_tree). */
      if (literal && !constant)
        keys[i].kind = O_FIXED;
    }
    opnd r;
    if (literal && constant) {
      uint32_t *ki = xmalloc((n ? n : 1) * sizeof *ki), *vi = xmalloc((n ? n : 1) * sizeof *vi);
      for (size_t i = 0; i < n; i++) {
        ki[i] = keys[i].k;
        vi[i] = vals[i].k;
      }
      r = (opnd){O_CONST, 0, NULL, em_static_map(e, ki, vi, n)};
      free(ki);
      free(vi);
    } else {
      if (literal)
        sort_keys(e, keys, vals, n);
      t = temp_new(w);
      const char *ka = array_of(w, keys, n), *va = array_of(w, vals, n);
      if (literal)
        stmt(w, "t%d = pcl_map_of(%s, %s, %zu);", t, ka, va, n);
      else
        stmt(w, "t%d = pcl_gen_object(%s, %s, %zu, err);", t, ka, va, n);
      drop_all(w, k, x->n);
      if (!literal)
        check(w, t, loc(w, x->span));
      r = temp_opnd(t);
    }
    free(keys);
    free(vals);
    return r;
  }
  case IR_TEMPLATE:
    t = temp_new(w);
    stmt(w, "t%d = pcl_gen_template(%s, %zu, err);", t, array_of(w, k, x->n), x->n);
    drop_all(w, k, x->n);
    check(w, t, loc(w, x->span));
    return temp_opnd(t);
  case IR_UNARY: {
    const char *a = text(w, k[0]);
    t = temp_new(w);
    stmt(w, "t%d = %s(%s, err);", t, x->sub == AST_OP_NEG ? "pcl_op_neg" : "pcl_op_not", a);
    drop(w, k[0]);
    check(w, t, loc(w, x->span));
    return temp_opnd(t);
  }
  case IR_BINARY: {
    ast_binary_op op = (ast_binary_op)x->sub;
    if (op == AST_OP_AND || op == AST_OP_OR) {
      const char *side[2];
      opnd sides[2];
      for (size_t i = 0; i < 2; i++) {
        size_t fi = fn_of(&w->c->thunk_fn, x->kids[i]);
        if (fi == SIZE_MAX) {
          sides[i] = k[i];
          side[i] = text(w, k[i]);
        } else {
          int s = temp_new(w);
          const char *env = closure(w, fi);
          stmt(w, "t%d = pcl_gen_capture(%s, %s, r[%zu]);", s, env, w->c->fns[fi].name,
               loc(w, x->kids[i]->span));
          sides[i] = temp_opnd(s);
          side[i] = text(w, sides[i]);
        }
      }
      t = temp_new(w);
      w->uses_e = true;
      size_t at = loc(w, x->span);
      stmt(w, "t%d = pcl_gen_logic(e, %s, %s, %s, r[%zu], err);", t,
           op == AST_OP_AND ? "true" : "false", side[0], side[1], at);
      drop_all(w, sides, 2);
      check(w, t, at);
      return temp_opnd(t);
    }
    const char *a = text(w, k[0]), *b = text(w, k[1]);
    t = temp_new(w);
    if (op == AST_OP_EQ || op == AST_OP_NE) {
      stmt(w, "t%d = %s(%s, %s);", t, binary_fn(op), a, b);
      drop_all(w, k, 2);
      return temp_opnd(t);
    }
    stmt(w, "t%d = %s(%s, %s, err);", t, binary_fn(op), a, b);
    drop_all(w, k, 2);
    check(w, t, loc(w, x->span));
    return temp_opnd(t);
  }
  case IR_CALL:
    return call_builtin(w, x, k);
  case IR_CONVERT: {
    const char *a = text(w, k[0]);
    t = temp_new(w);
    stmt(w, "t%d = %s(%s, err);", t, convert_fn((ir_convert)x->sub), a);
    drop(w, k[0]);
    check(w, t, loc(w, x->span));
    return temp_opnd(t);
  }
  case IR_FOR:
  case IR_SPLAT: {
    size_t fi;
    const char *name = closure_name(w, &w->c->body_fn, x, &fi);
    const char *coll = text(w, k[0]);
    const char *env = closure(w, fi);
    t = temp_new(w);
    size_t l = loc(w, x->span);
    if (x->op == IR_FOR)
      stmt(w, "t%d = pcl_gen_for(%s, %s, %s, %s, r[%zu], err);", t, env, name,
           for_flags(w, x->sub), coll, l);
    else
      stmt(w, "t%d = pcl_gen_splat(%s, %s, %s, err);", t, env, name, coll);
    drop(w, k[0]);
    check(w, t, l);
    return temp_opnd(t);
  }
  case IR_APPLY: {
    size_t fi;
    const char *name = closure_name(w, &w->c->body_fn, x, &fi);
    const char *args = array_of(w, k, x->n - 1);
    const char *env = closure(w, fi);
    t = temp_new(w);
    stmt(w, "t%d = pcl_gen_apply(%s, %s, %s, %zu);", t, env, name, args, x->n - 1);
    drop_all(w, k, x->n - 1);
    return temp_opnd(t);
  }
  case IR_SECRET:
  case IR_UNSECRET: {
    const char *a = text(w, k[0]);
    t = temp_new(w);
    stmt(w, "t%d = %s(%s);", t, x->op == IR_SECRET ? "pcl_gen_secret" : "pcl_gen_unsecret", a);
    drop(w, k[0]);
    return temp_opnd(t);
  }
  case IR_GET_OUTPUT: {
    const char *ref = text(w, k[0]), *name = text(w, k[1]);
    t = temp_new(w);
    w->uses_e = true;
    stmt(w, "t%d = pcl_gen_get_output(e, %s, %s, r[%zu]);", t, ref, name, loc(w, x->span));
    drop_all(w, k, 2);
    return temp_opnd(t);
  }
  case IR_INVOKE: {
    size_t tok = row_add(w, em_string(e, x->s, strlen(x->s)));
    const char *args = text(w, k[0]);
    const char *opts = x->n > 1 ? text(w, k[1]) : "NULL";
    t = temp_new(w);
    stmt(w, "t%d = pcl_gen_invoke(e, &pclg_k[r[%zu]], %s, %s, %s, r[%zu]);", t, tok, args, opts,
         x->sub ? "true" : "false", loc(w, x->span));
    drop_all(w, k, x->n);
    return temp_opnd(t);
  }
  case IR_METHOD: {
    size_t tok = row_add(w, em_string(e, x->s, strlen(x->s)));
    const char *self = text(w, k[0]), *args = text(w, k[1]);
    t = temp_new(w);
    stmt(w, "t%d = pcl_gen_method(e, &pclg_k[r[%zu]], %s, %s, %s, r[%zu]);", t, tok, self, args,
         x->sub ? "true" : "false", loc(w, x->span));
    drop_all(w, k, 2);
    return temp_opnd(t);
  }
  case IR_TRY:
  case IR_CAN:
  case IR_RECOVER: {
    /* One closure per alternative (or argument, value and recovery), each
       with its own row and captures. */
    const char **envs = xmalloc(x->n * sizeof *envs), **fns = xmalloc(x->n * sizeof *fns);
    for (size_t i = 0; i < x->n; i++) {
      size_t fi;
      fns[i] = closure_name(w, &w->c->thunk_fn, x->kids[i], &fi);
      envs[i] = closure(w, fi);
    }
    t = temp_new(w);
    if (x->op == IR_TRY) {
      cw ea = CW_INIT, fa = CW_INIT;
      for (size_t i = 0; i < x->n; i++) {
        cw_printf(&ea, "%s%s", i ? ", " : "", envs[i]);
        cw_printf(&fa, "%s%s", i ? ", " : "", fns[i]);
      }
      size_t l = loc(w, x->span);
      stmt(w, "t%d = pcl_gen_try((pcl_gen_env *[]){%s}, (const pcl_gen_thunk_fn[]){%s}, %zu, r[%zu]);",
           t, ea.data, fa.data, x->n, l);
      cw_free(&ea);
      cw_free(&fa);
    } else if (x->op == IR_CAN) {
      stmt(w, "t%d = pcl_gen_can(%s, %s);", t, envs[0], fns[0]);
    } else {
      stmt(w, "t%d = pcl_gen_recover(%s, %s, %s, %s);", t, envs[0], fns[0], envs[1], fns[1]);
    }
    free(envs);
    free(fns);
    return temp_opnd(t);
  }
  case IR_FAIL: {
    size_t msg = row_add(w, em_const(e, x));
    size_t l = loc(w, x->span);
    t = temp_new(w);
    w->uses_e = true;
    stmt(w, "t%d = pcl_gen_fail(e, &pclg_k[r[%zu]], r[%zu], err);", t, msg, l);
    check(w, t, l);
    return temp_opnd(t);
  }
  case IR_COND:
    break;
  }
  ice("operation %s is not written by finish", ir_op_name(x->op));
}

/* An expression being written, waiting for its inline children. */
typedef struct xframe {
  const ir_expr *x; /* The expression. */
  size_t i;         /* The next child to look at. */
  size_t kids;      /* Where the values of its inline children start in the pool. */
  int result;       /* COND: the temporary both branches assign. */
} xframe;

/* A stack of expression frames, and the values of their children: each
 * frame's are above its parent's in the pool, so they go as it goes. */
typedef struct xstack {
  xframe *items;         /* The frames, innermost last. */
  size_t n, cap;         /* Used and allocated. */
  opnd *pool;            /* The children's values. */
  size_t npool, cappool; /* Used and allocated. */
} xstack;

/* Pushes a frame for x. */
static void xpush(xstack *s, const ir_expr *x) {
  if (s->n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 32;
    s->items = xrealloc(s->items, s->cap * sizeof *s->items);
  }
  /* The pool exists even for a lone leaf: its operands are an empty range
     of it, &pool[kids]. */
  if (s->pool == NULL || s->npool + x->n > s->cappool) {
    do
      s->cappool = s->cappool ? 2 * s->cappool : 64;
    while (s->npool + x->n > s->cappool);
    s->pool = xrealloc(s->pool, s->cappool * sizeof *s->pool);
  }
  s->items[s->n++] = (xframe){x, 0, s->npool, -1};
  s->npool += x->n;
}

/* Pops the innermost frame. */
static void xpop(xstack *s) {
  s->npool = s->items[--s->n].kids;
}

/* Writes the test of conditional x whose condition's value is c and opens
 * the block of its `then` branch; returns the temporary both branches
 * assign. */
static int cond_open(fctx *w, const ir_expr *x, opnd c) {
  at_line(w, x->span);
  const char *ct = text(w, c);
  size_t l = loc(w, x->span);
  int b = temp_new(w);
  stmt(w, "t%d = pcl_gen_truth(%s, err);", b, ct);
  drop(w, c);
  check(w, b, l);
  int result = temp_new(w);
  /* The truth value is a static bool: its temporary needs no release. */
  at_line(w, x->span);
  stmt(w, "if (pcl_bool_get(t%d)) {", b);
  temp_free(w, b);
  w->indent++;
  return result;
}

/* Writes the code computing x and returns its value.  A conditional's
 * branches are written in the blocks of an if statement, one after the
 * other; its frame's i counts the condition (1), the `then` branch (2) and
 * the `else` branch (3) once each is pushed. */
static opnd emit_expr(fctx *w, const ir_expr *root) {
  xstack s = {0};
  opnd result = {O_TEXT, 0, "NULL", 0};
  bool have = false; /* result holds the value of the frame just popped. */
  xpush(&s, root);
  while (s.n > 0) {
    xframe *f = &s.items[s.n - 1];
    const ir_expr *x = f->x;
    if (x->op == IR_COND && f->i > 0) {
      /* A child of the conditional is written (have is set). */
      have = false;
      if (f->i == 1) {
        f->result = cond_open(w, x, result);
      } else {
        stmt(w, "t%d = %s;", f->result, owned(w, result));
        moved(w, result);
        w->indent--;
        if (f->i == 3) {
          stmt(w, "}");
          result = temp_opnd(f->result);
          have = true;
          xpop(&s);
          continue;
        }
        stmt(w, "} else {");
        w->indent++;
      }
      f->i++;
      xpush(&s, x->kids[f->i - 1]);
      continue;
    }
    if (have) {
      s.pool[f->kids + f->i - 1] = result;
      have = false;
    }
    while (f->i < x->n && !inline_kid(w->c, x, f->i)) {
      s.pool[f->kids + f->i] = (opnd){O_TEXT, 0, "NULL", 0};
      f->i++;
    }
    if (f->i < x->n) {
      f->i++;
      xpush(&s, x->kids[f->i - 1]);
      continue;
    }
    if (x->op != IR_CONST && x->op != IR_NODE && x->op != IR_VAR && x->op != IR_PARAM)
      at_line(w, x->span);
    result = finish(w, x, &s.pool[f->kids]);
    have = true;
    xpop(&s);
  }
  free(s.items);
  free(s.pool);
  return result;
}

/* Writes the code computing the root expression x of a node (its value,
 * inputs, options, id or range) so that a failure becomes its value: an
 * EVENTUAL holding the failure (pcl_gen_failed), which the node's
 * operation then consumes, as it would a future that fails later.  The
 * scope's failures jump to a block of their own, written after the
 * function's code: it releases the temporaries the scope may hold (those
 * not in use when it started) and continues after the scope. */
static opnd emit_captured(fctx *w, const ir_expr *x) {
  int scope = ++w->nscopes;
  /* The temporaries in use before the scope survive its failure. */
  bool *before = xcalloc((size_t)w->ntemps + 1, sizeof *before);
  int nbefore = w->ntemps;
  for (int i = 0; i < w->ntemps; i++)
    before[i] = true;
  for (size_t i = 0; i < w->nfree; i++)
    before[w->free_temps[i]] = false;
  w->scope = scope;
  w->scope_fails = false;
  opnd v = emit_expr(w, x);
  w->scope = 0;
  if (!w->scope_fails) {
    free(before);
    return v;
  }
  int t = v.kind == O_TEMP ? v.temp : temp_new(w);
  if (v.kind != O_TEMP)
    stmt(w, "t%d = %s;", t, owned(w, v));
  stmt(w, "done%d:;", scope);
  w->uses_error = true;
  /* The failure block (indented as the function's body). */
  cw *f = &w->fail_blocks;
  cw_puts(f, "fail");
  cw_uint(f, (unsigned)scope);
  cw_puts(f, ":\n");
  for (int i = 0; i < w->ntemps; i++) {
    if (i < nbefore && before[i])
      continue;
    cw_puts(f, "  pcl_release(t");
    cw_uint(f, (unsigned)i);
    cw_puts(f, ");\n");
  }
  cw_puts(f, "  t");
  cw_uint(f, (unsigned)t);
  cw_puts(f, " = pcl_gen_failed(e, error, at);\n  error = NULL;\n  goto done");
  cw_uint(f, (unsigned)scope);
  cw_puts(f, ";\n");
  free(before);
  return temp_opnd(t);
}

/* --------------------------------------------------------------- functions */

/* Writes `return <v>;` for a function returning an owned value. */
static void ret(fctx *w, opnd v) {
  stmt(w, "return %s;", owned(w, v));
  if (v.kind == O_TEMP)
    temp_free(w, v.temp);
}

/* Returns the index in pclg_decl of the declaration of resource-like node n
 * (deduplicated: a declaration is the type token, kind, package version
 * and download URL; the node's location travels apart). */
static uint32_t decl_of(em *e, const ir_node *n) {
  static const char *const kinds[] = {
#define X(name) "PCL_RES_" #name,
      PCL_RESOURCE_KINDS(X)
#undef X
  };
  cw key = CW_INIT;
  cw_printf(&key, "%s|%d|%s|%s", n->token, (int)n->res_kind, n->version ? n->version : "",
            n->plugin_download_url ? n->plugin_download_url : "");
  const char *k = em_intern(e, key.data, key.len);
  cw_free(&key);
  uintptr_t found = (uintptr_t)ptrmap_get(&e->decl_index, k);
  if (found)
    return (uint32_t)(found - 1);
  size_t i = e->ndecls++;
  ptrmap_put(&e->decl_index, k, (void *)(uintptr_t)(i + 1));
  cw_puts(&e->decls, "    {");
  cw_cstring(&e->decls, n->token, strlen(n->token));
  cw_printf(&e->decls, ", %s, ", kinds[n->res_kind]);
  if (n->version)
    cw_cstring(&e->decls, n->version, strlen(n->version));
  else
    cw_puts(&e->decls, "NULL");
  cw_puts(&e->decls, ", ");
  if (n->plugin_download_url)
    cw_cstring(&e->decls, n->plugin_download_url, strlen(n->plugin_download_url));
  else
    cw_puts(&e->decls, "NULL");
  cw_puts(&e->decls, ", NULL, 0, 0},\n");
  return (uint32_t)i;
}

/* Writes into temporary t the registration of the instance of component
 * node n (which has a program) whose C texts are name nt, inputs it and
 * options ot, declaration row d and location row l: with the deferred
 * inputs the registration leaves out (program.md 10.4) when n has any. */
static void component_registration(fctx *w, const ir_node *n, int t, const char *nt,
                                   const char *it, const char *ot, size_t d, size_t l) {
  size_t mod = row_add(w, (uint32_t)n->component->index);
  if (!n->deferred_inputs) {
    stmt(w, "t%d = pcl_gen_component(e, &pclg_decl[r[%zu]], %s, %s, %s, r[%zu], &pclg_modules[r[%zu]]);",
         t, d, nt, it, ot, l, mod);
    return;
  }
  opnd held = emit_captured(w, n->deferred_inputs);
  stmt(w,
       "t%d = pcl_gen_component_deferred(e, &pclg_decl[r[%zu]], %s, %s, %s, %s, r[%zu], "
       "&pclg_modules[r[%zu]]);",
       t, d, nt, it, text(w, held), ot, l, mod);
  drop(w, held);
}

/* Writes the registration of node n (one instance) named by the C
 * expression name; returns its value. */
static opnd registration(fctx *w, const ir_node *n, opnd name) {
  em *e = w->c->e;
  opnd id = {O_TEXT, 0, "NULL", 0};
  if (n->kind == IR_N_READ)
    id = emit_captured(w, n->value);
  opnd in = emit_captured(w, n->inputs);
  opnd opts = n->options ? emit_captured(w, n->options) : (opnd){O_TEXT, 0, "NULL", 0};
  at_line(w, n->span);
  const char *nt = text(w, name);
  size_t d = row_add(w, decl_of(e, n));
  const char *it = n->kind == IR_N_READ ? text(w, id) : NULL;
  const char *int_ = text(w, in), *ot = text(w, opts);
  size_t l = loc(w, n->span);
  int t = temp_new(w);
  if (n->kind == IR_N_READ) {
    stmt(w, "t%d = pcl_gen_read(e, &pclg_decl[r[%zu]], %s, %s, %s, %s, r[%zu]);", t, d, nt, it,
         int_, ot, l);
  } else if (n->kind == IR_N_COMPONENT && n->component) {
    component_registration(w, n, t, nt, int_, ot, d, l);
  } else {
    stmt(w, "t%d = pcl_gen_register(e, &pclg_decl[r[%zu]], %s, %s, %s, r[%zu]);", t, d, nt, int_,
         ot, l);
  }
  drop(w, id);
  drop(w, in);
  drop(w, opts);
  return temp_opnd(t);
}

/* Writes the code of node function w->f for node n. */
static void node_body(fctx *w, const ir_node *n) {
  em *e = w->c->e;
  switch (n->kind) {
  case IR_N_LOCAL:
    ret(w, emit_expr(w, n->value));
    return;
  case IR_N_HOOK:
  case IR_N_PULUMI:
  case IR_N_OUTPUT: {
    opnd v = n->kind == IR_N_HOOK ? emit_expr(w, n->value) : emit_captured(w, n->value);
    if (n->kind == IR_N_HOOK) {
      ret(w, v);
      return;
    }
    at_line(w, n->span);
    const char *vt = text(w, v);
    int t = temp_new(w);
    if (n->kind == IR_N_PULUMI) {
      stmt(w, "t%d = pcl_gen_pulumi(e, %s);", t, vt);
    } else {
      size_t name = row_add(w, em_string(e, n->logical, strlen(n->logical)));
      stmt(w, "t%d = pcl_gen_output(e, &pclg_k[r[%zu]], %s);", t, name, vt);
    }
    drop(w, v);
    ret(w, temp_opnd(t));
    return;
  }
  case IR_N_CONFIG: {
    at_line(w, n->span);
    size_t ci = row_add(w, n->config_index);
    size_t name = row_add(w, em_string(e, n->logical, strlen(n->logical)));
    int t = temp_new(w);
    stmt(w, "t%d = pcl_gen_config(e, r[%zu], &pclg_k[r[%zu]]);", t, ci, name);
    stmt(w, "if (t%d == NULL) {", t);
    w->indent++;
    opnd d = n->value ? emit_expr(w, n->value) : (opnd){O_TEXT, 0, "pcl_null()", 0};
    at_line(w, n->span);
    stmt(w, "t%d = pcl_gen_config_default(%s, %s);", t, n->secret ? "true" : "false",
         owned(w, d));
    moved(w, d);
    w->indent--;
    stmt(w, "}");
    ret(w, temp_opnd(t));
    return;
  }
  case IR_N_RESOURCE:
  case IR_N_READ:
  case IR_N_COMPONENT:
    if (n->range) {
      opnd rv = emit_captured(w, n->range);
      at_line(w, n->span);
      const char *rt = text(w, rv);
      size_t name = row_add(w, em_string(e, n->logical, strlen(n->logical)));
      const fn *inst = &w->c->fns[1];
      size_t ir = row_add(w, row_back(w, inst));
      size_t l = loc(w, n->span);
      int t = temp_new(w);
      stmt(w, "t%d = pcl_gen_range(e, %s, &pclg_k[r[%zu]], %s, r - r[%zu], r[%zu]);", t, rt,
           name, inst->name, ir, l);
      drop(w, rv);
      ret(w, temp_opnd(t));
      return;
    }
    ret(w, registration(w, n, (opnd){O_CONST, 0, NULL, em_string(e, n->logical, strlen(n->logical))}));
    return;
  }
}

/* Appends s with every byte that cannot appear in a C identifier escaped,
 * one to one: `_` is `__`, `-` is `_d`, any other byte `_x<2 hex digits>`. */
static void mangle(cw *w, const char *s) {
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9'))
      cw_bytes(w, (const char *)p, 1);
    else if (*p == '_')
      cw_puts(w, "__");
    else if (*p == '-')
      cw_puts(w, "_d");
    else
      cw_printf(w, "_x%02x", *p);
  }
}

/* Returns a C name for function f of node n that no other function has:
 * pclu_<name> for what the program names (a node and its instances),
 * pclg_<kind><n> for the compiler's own. */
static const char *fn_name(nctx *c, const fn *f) {
  em *e = c->e;
  cw base = CW_INIT;
  if (f->kind == FK_NODE || f->kind == FK_INSTANCE) {
    cw_puts(&base, "pclu_");
    mangle(&base, c->n->name);
    if (f->kind == FK_INSTANCE)
      cw_puts(&base, "_instance");
  } else {
    cw_printf(&base, "pclg_%s%zu", kind_names[f->kind], ++e->nfns[f->kind]);
  }
  const char *name = em_intern(e, base.data, base.len);
  /* A mangled name reads as letters, digits, `__`, `_d` and `_x<hex>`, none
   * of which is `_` and a digit, so no name ends as another's `_<n>`. */
  for (unsigned i = 2; ptrmap_get(&e->used, name); i++) {
    cw alt = CW_INIT;
    cw_printf(&alt, "%s_%u", base.data, i);
    name = em_intern(e, alt.data, alt.len);
    cw_free(&alt);
  }
  ptrmap_put(&e->used, name, (void *)1);
  cw_free(&base);
  return name;
}

/* The signature of a function of kind k named name. */
static void signature(cw *o, fkind k, const char *name) {
  switch (k) {
  case FK_NODE:
    cw_printf(o, "static pcl_value *%s(pcl_gen_env *e) {\n", name);
    return;
  case FK_INSTANCE:
    cw_printf(o, "static pcl_value *%s(pcl_gen_env *e, pcl_value *range, const pcl_value *name) {\n",
              name);
    return;
  case FK_APPLY:
    cw_printf(o, "static pcl_value *%s(pcl_gen_env *e, pcl_value *const *p, pcl_error **err) {\n",
              name);
    return;
  case FK_EACH:
    cw_printf(o,
              "static bool %s(pcl_gen_env *e, pcl_value *key, pcl_value *value, pcl_value **out,\n"
              "    pcl_error **err) {\n",
              name);
    return;
  case FK_THUNK:
    cw_printf(o, "static pcl_value *%s(pcl_gen_env *e, pcl_error **err) {\n", name);
    return;
  case FK_RECOVERY:
    cw_printf(o, "static pcl_value *%s(pcl_gen_env *e, pcl_value *error, pcl_error **err) {\n",
              name);
    return;
  case FK_COUNT:
    return;
  }
}

/* Whether the C text s mentions identifier id as a whole word. */
static bool mentions(const char *s, const char *id) {
  size_t n = strlen(id);
  for (const char *p = strstr(s, id); p; p = strstr(p + 1, id)) {
    bool before = p == s || !((p[-1] >= 'a' && p[-1] <= 'z') || (p[-1] >= 'A' && p[-1] <= 'Z') ||
                              (p[-1] >= '0' && p[-1] <= '9') || p[-1] == '_' || p[-1] == '>');
    char a = p[n];
    bool after = !((a >= 'a' && a <= 'z') || (a >= 'A' && a <= 'Z') || (a >= '0' && a <= '9') ||
                   a == '_');
    if (before && after)
      return true;
  }
  return false;
}

/* Writes the comment above function f: where its first instance is and
 * what it computes. */
static void comment(nctx *c, const fn *f, cw *o) {
  em *e = c->e;
  pcl_span at = f->x ? f->x->span : c->n->span;
  cw_puts(o, "\n/* ");
  em_where(e, o, at);
  cw_puts(o, ": ");
  switch (f->kind) {
  case FK_NODE:
    em_comment_source(e, o, at, 100);
    break;
  case FK_INSTANCE:
    cw_puts(o, "one instance of ");
    em_comment_text(o, c->n->name);
    break;
  case FK_APPLY:
    em_comment_source(e, o, at, 100);
    cw_puts(o, ", once its arguments are known");
    break;
  case FK_EACH:
    em_comment_source(e, o, at, 100);
    cw_puts(o, ", per element");
    break;
  case FK_THUNK:
  case FK_RECOVERY:
    em_comment_source(e, o, at, 100);
    break;
  case FK_COUNT:
    break;
  }
  cw_puts(o, " */\n");
}

/* Returns the name of the function whose code is that of w (function f
 * of c), writing it when it is new. */
static const char *code_of(nctx *c, fn *f, const fctx *w) {
  em *e = c->e;
  /* The statements without #line directives decide. */
  cw key = CW_INIT;
  cw_printf(&key, "%s\n", kind_names[f->kind]);
  cw_append(&key, &w->key);
  const char *k = em_intern(e, key.data, key.len);
  cw_free(&key);
  const char *name = ptrmap_get(&e->fn_by_code, k);
  if (name == NULL) {
    name = fn_name(c, f);
    ptrmap_put(&e->fn_by_code, k, (void *)name);
    if (f->kind == FK_NODE)
      cw_printf(&e->protos, "static pcl_value *%s(pcl_gen_env *e);\n", name);
    cw *o = &e->code;
    comment(c, f, o);
    /* The signature, the declarations and the failure blocks are the C
       file's lines; only the statements are the source's. */
    signature(o, f->kind, name);
    const char *body = w->key.data ? w->key.data : "";
    bool node = f->kind == FK_NODE || f->kind == FK_INSTANCE;
    if (w->uses_r)
      cw_puts(o, "  const uint32_t *r = e->r;\n");
    if (node && (w->uses_err || w->fails || w->uses_error))
      cw_puts(o, "  pcl_error *error = NULL, **err = &error;\n");
    if (w->ntemps > 0) {
      cw_puts(o, "  pcl_value ");
      for (int i = 0; i < w->ntemps; i++)
        cw_printf(o, "%s*t%d = NULL", i ? ", " : "", i);
      cw_puts(o, ";\n");
    }
    if (w->uses_at)
      cw_puts(o, "  uint32_t at = 0;\n");
    /* Parameters the code does not read. */
    static const char *const params[] = {"e", "p", "key", "value", "out", "range", "name", "error"};
    for (size_t i = 0; i < sizeof params / sizeof params[0]; i++) {
      bool has = strcmp(params[i], "e") == 0 ||
                 (f->kind == FK_APPLY && strcmp(params[i], "p") == 0) ||
                 (f->kind == FK_EACH && (strcmp(params[i], "key") == 0 ||
                                         strcmp(params[i], "value") == 0 ||
                                         strcmp(params[i], "out") == 0)) ||
                 (f->kind == FK_INSTANCE && (strcmp(params[i], "range") == 0 ||
                                             strcmp(params[i], "name") == 0)) ||
                 (f->kind == FK_RECOVERY && strcmp(params[i], "error") == 0);
      if (has && !mentions(body, params[i]) && !(strcmp(params[i], "e") == 0 && (w->uses_r || w->fails)))
        cw_printf(o, "  (void)%s;\n", params[i]);
    }
    if (!node && !w->uses_err && !w->fails && !mentions(body, "err"))
      cw_puts(o, "  (void)err;\n");
    cw_append(o, &w->full);
    if (w->file)
      cw_puts(o, "#line PCLG_C_LINE\n");
    cw_append(o, &w->fail_blocks);
    if (w->fails) {
      cw_puts(o, "fail:\n");
      if (!node)
        cw_puts(o, "  pcl_gen_locate(e, *err, at);\n");
      for (int i = 0; i < w->ntemps; i++)
        cw_printf(o, "  pcl_release(t%d);\n", i);
      cw_puts(o, node ? "  return pcl_gen_failed(e, error, at);\n"
                      : f->kind == FK_EACH ? "  return false;\n" : "  return NULL;\n");
    }
    cw_puts(o, "}\n");
  }
  return name;
}

/* Writes function fi of c (its children are written) and appends its
 * row.  known is the name of its code when the node's shape says what it
 * is (only the row is then made), else NULL: the code is compared with
 * what is already written and shared when it is the same. */
static void write_fn(nctx *c, size_t fi, const char *known) {
  em *e = c->e;
  fn *f = &c->fns[fi];
  fctx w = {0};
  w.c = c;
  w.fi = fi;
  w.f = f;
  w.quiet = known != NULL && !PCLC_CHECK_SHAPES;
  switch (f->kind) {
  case FK_NODE:
    node_body(&w, c->n);
    break;
  case FK_INSTANCE:
    ret(&w, registration(&w, c->n, (opnd){O_TEXT, 0, "name", 0}));
    break;
  case FK_APPLY:
    ret(&w, emit_expr(&w, f->x->kids[f->x->n - 1]));
    break;
  case FK_THUNK:
  case FK_RECOVERY:
    ret(&w, emit_expr(&w, f->x));
    break;
  case FK_EACH: {
    const ir_expr *x = f->x;
    /* Value, key and condition first, so that a failure leaves out empty. */
    bool has_key = x->op == IR_FOR && (x->sub & IR_F_KEY);
    bool has_cond = x->op == IR_FOR && (x->sub & IR_F_COND);
    opnd v = emit_expr(&w, x->kids[1]), k = v, cond = v;
    if (has_key)
      k = emit_expr(&w, x->kids[2]);
    if (has_cond)
      cond = emit_expr(&w, x->kids[has_key ? 3 : 2]);
    stmt(&w, "out[PCL_GEN_OUT_VALUE] = %s;", owned(&w, v));
    moved(&w, v);
    if (has_key) {
      stmt(&w, "out[PCL_GEN_OUT_KEY] = %s;", owned(&w, k));
      moved(&w, k);
    }
    if (has_cond) {
      stmt(&w, "out[PCL_GEN_OUT_COND] = %s;", owned(&w, cond));
      moved(&w, cond);
    }
    stmt(&w, "return true;");
    break;
  }
  case FK_COUNT:
    ice("a function of kind FK_COUNT");
  }

  const char *name = w.quiet ? known : code_of(c, f, &w);
  if (known && name != known)
    ice("two nodes of one shape have different code (%s and %s)", known, name);
  f->name = name;
  f->row = e->nrows;
  if (w.nrow > 0) {
    cw_bytes(&e->rows, "    /* ", 7);
    em_comment_text(&e->rows, c->n->name);
    cw_bytes(&e->rows, " */", 3);
    for (size_t i = 0; i < w.nrow; i++) {
      cw_bytes(&e->rows, " ", 1);
      cw_uint(&e->rows, w.row[i]);
      cw_bytes(&e->rows, ",", 1);
    }
    cw_bytes(&e->rows, "\n", 1);
    e->nrows += (uint32_t)w.nrow;
  }
  cw_free(&w.full);
  cw_free(&w.key);
  cw_free(&w.scratch);
  cw_free(&w.fail_blocks);
  free(w.row);
  free(w.free_temps);
}

/* ------------------------------------------------------------------ shapes */

/* The shape of a node, as words: everything its functions' code depends
 * on (operations, operators, flags, child counts, constant kinds, the
 * built-ins called, variable slots relative to the node's first, the keys
 * of object constructors, which are part of their types) and nothing its
 * rows hold (constant values, names, tokens, node references, locations).
 * Two nodes of one shape have the same functions, so the second one needs
 * only its rows. */
typedef struct shape {
  uint32_t *w;         /* The words. */
  size_t n, cap;       /* Used and allocated. */
  size_t *slots;       /* Positions of the words that are slots. */
  size_t nslots, capslots; /* Used and allocated. */
} shape;

static void shape_word(shape *s, uint32_t v) {
  if (s->n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 256;
    s->w = xrealloc(s->w, s->cap * sizeof *s->w);
  }
  s->w[s->n++] = v;
}

static void shape_slot(shape *s, uint32_t slot) {
  if (s->nslots == s->capslots) {
    s->capslots = s->capslots ? 2 * s->capslots : 32;
    s->slots = xrealloc(s->slots, s->capslots * sizeof *s->slots);
  }
  s->slots[s->nslots++] = s->n;
  shape_word(s, slot);
}

/* Appends the words of expression tree root (or of its absence), in
 * preorder; explicit stack. */
static void shape_tree(em *e, shape *s, const ir_expr *root) {
  if (root == NULL) {
    shape_word(s, UINT32_MAX);
    return;
  }
  size_t n = 0, cap = 64;
  const ir_expr **stack = xmalloc(cap * sizeof *stack);
  stack[n++] = root;
  while (n > 0) {
    const ir_expr *x = stack[--n];
    shape_word(s, (uint32_t)x->op);
    shape_word(s, x->sub);
    shape_word(s, (uint32_t)x->n);
    shape_word(s, x->declared);
    switch (x->op) {
    case IR_CONST:
    case IR_FAIL:
      shape_word(s, (uint32_t)x->ck);
      break;
    case IR_CALL: {
      const funcs_builtin *b = funcs_lookup(x->s);
      shape_word(s, b ? (uint32_t)b->id : UINT32_MAX);
      break;
    }
    case IR_VAR:
    case IR_PARAM:
    case IR_APPLY:
    case IR_SPLAT:
    case IR_RECOVER:
      shape_slot(s, x->a);
      break;
    case IR_FOR:
      shape_slot(s, x->b);
      if (x->sub & IR_F_KEYVAR)
        shape_slot(s, x->a);
      break;
    case IR_OBJECT: {
      /* The keys of a literal object are written into its code. */
      bool literal = true;
      for (size_t i = 0; i < x->n; i += 2)
        literal = literal && x->kids[i]->op == IR_CONST && x->kids[i]->ck == IR_K_STRING;
      for (size_t i = 0; literal && i < x->n; i += 2)
        shape_word(s, em_const(e, x->kids[i]));
      break;
    }
    case IR_PATH:
      shape_word(s, (uint32_t)x->nsteps);
      for (size_t i = 0; i < x->nsteps; i++)
        shape_word(s, (uint32_t)x->steps[i].index | (uint32_t)x->steps[i].declared << 1 |
                          (uint32_t)(x->steps[i].disc != NULL) << 2 |
                          (uint32_t)x->steps[i].keyed << 3);
      break;
    case IR_NODE:
    case IR_ATTR:
    case IR_INDEX:
    case IR_LIST:
    case IR_TEMPLATE:
    case IR_UNARY:
    case IR_BINARY:
    case IR_COND:
    case IR_CONVERT:
    case IR_SECRET:
    case IR_UNSECRET:
    case IR_GET_OUTPUT:
    case IR_INVOKE:
    case IR_METHOD:
    case IR_TRY:
    case IR_CAN:
      break;
    }
    for (size_t i = x->n; i-- > 0;) {
      if (n == cap) {
        cap *= 2;
        stack = xrealloc(stack, cap * sizeof *stack);
      }
      stack[n++] = x->kids[i];
    }
  }
  free(stack);
}

/* Returns the interned shape of node n. */
static const char *shape_of(em *e, const ir_node *n) {
  shape s = {0};
  shape_word(&s, (uint32_t)n->kind);
  shape_word(&s, (uint32_t)n->res_kind);
  shape_word(&s, n->component != NULL);
  shape_word(&s, n->secret);
  shape_word(&s, n->range != NULL);
  if (n->range)
    shape_slot(&s, n->range_slot);
  shape_tree(e, &s, n->range);
  shape_tree(e, &s, n->value);
  shape_tree(e, &s, n->inputs);
  shape_tree(e, &s, n->options);
  shape_tree(e, &s, n->deferred_inputs);
  uint32_t first = UINT32_MAX;
  for (size_t i = 0; i < s.nslots; i++)
    first = s.w[s.slots[i]] < first ? s.w[s.slots[i]] : first;
  for (size_t i = 0; i < s.nslots; i++)
    s.w[s.slots[i]] -= first;
  const char *k = em_intern(e, (const char *)s.w, s.n * sizeof *s.w);
  free(s.w);
  free(s.slots);
  return k;
}

/* The functions of a shape, parents first, as em_node found them. */
typedef struct shape_fns {
  size_t n;           /* Their number. */
  const char *names[]; /* Their names. */
} shape_fns;

void em_node(em *e, const ir_module *m, const ir_node *n, const char **fname, uint32_t *row) {
  nctx c = {0};
  c.e = e;
  c.m = m;
  c.n = n;
  size_t root = add_fn(&c, FK_NODE, NULL, SIZE_MAX);
  const ir_expr *roots[4] = {NULL, NULL, NULL, NULL};
  size_t fs[4] = {root, root, root, root};
  size_t body = root;
  if (n->range) {
    roots[3] = n->range;
    body = add_fn(&c, FK_INSTANCE, NULL, root);
    c.fns[body].value = n->range_slot;
  }
  roots[0] = n->value;
  roots[1] = n->inputs;
  roots[2] = n->options;
  fs[0] = fs[1] = fs[2] = body;
  collect(&c, roots, fs, 4);
  captures(&c);
  const char *k = shape_of(e, n);
  const shape_fns *known = ptrmap_get(&e->shapes, k);
  if (known && known->n != c.nfns)
    ice("two nodes of one shape have %zu and %zu functions", known->n, c.nfns);
  for (size_t i = c.nfns; i-- > 0;)
    write_fn(&c, i, known ? known->names[i] : NULL);
  if (known == NULL) {
    shape_fns *made = arena_alloc(&e->keys, sizeof *made + c.nfns * sizeof *made->names);
    made->n = c.nfns;
    for (size_t i = 0; i < c.nfns; i++)
      made->names[i] = c.fns[i].name;
    ptrmap_put(&e->shapes, k, made);
  }
  *fname = c.fns[0].name;
  *row = c.fns[0].row;
  for (size_t i = 0; i < c.nfns; i++) {
    free(c.fns[i].refs.items);
    free(c.fns[i].caps.items);
  }
  free(c.fns);
  ptrmap_free(&c.body_fn);
  ptrmap_free(&c.thunk_fn);
  ptrmap_free(&c.fallible);
}
