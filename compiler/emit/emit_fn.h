/* emit_fn: what the modules that write a node's C functions share.
 *
 * A node becomes a node function (and, when it is ranged, an instance
 * function for each instance), and every apply body, for or splat body,
 * try alternative, can argument, recover value or recovery, and failing
 * operand of && or || in it becomes a function of its own, created as a
 * closure where the node's code reaches it.  The modules:
 *
 *   emit_closure.c  which functions a node has, what each binds and
 *                   captures, and which operands of && and || are thunks;
 *   emit_code.c     a function's code as data: statements, temporaries,
 *                   operands and the row, recorded as the code is written,
 *                   and printed as C text;
 *   emit_expr.c     the code of an expression;
 *   emit_body.c     the code of each kind of function (a node's per node
 *                   kind, an apply body's, a loop body's, ...);
 *   emit_func.c     a node's functions written one by one, and the C of a
 *                   function: comment, signature, declarations, statements;
 *   emit_shape.c    the functions of the program, one per distinct code.
 *
 * Each function is C calling the runtime operations of pcl_gen.h that the
 * static types of its expressions choose, in three-address form: every
 * computed value is a temporary `t<n>`, released as soon as its one use is
 * done.  What differs between two uses of the same code (constants, node
 * and variable references, locations, the rows of the closures it creates)
 * is read from the function's row `r`.  The code is recorded as words
 * (emit_code.c), not as text: equal words are equal C, so the words are
 * the one key under which a function is shared (emit_shape.c), and only
 * the first function of each code is printed. */
#ifndef PCLC_EMIT_FN_H
#define PCLC_EMIT_FN_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "emit/emit_internal.h"

/* A growable array of words (slots, rows, recorded code). */
typedef struct words {
  uint32_t *items; /* The words (owned). */
  size_t n, cap;   /* Used and allocated. */
} words;

/* Appends v to ws. */
void words_add(words *ws, uint32_t v);

/* What a function is: X(NAME, "name of the kind"), the kind's name being
 * that of its compiler-made C names (pclg_apply<n>). */
#define FN_KINDS(X)                                                                      \
  X(NODE, "node")         /* A node: computes its value. */                             \
  X(INSTANCE, "instance") /* One instance of a ranged node. */                          \
  X(APPLY, "apply")       /* The body of an apply. */                                   \
  X(EACH, "each")         /* The body of a for expression or a splat, per element. */   \
  X(THUNK, "thunk")       /* A try alternative, a can argument, a recover value, or an \
                             operand of && or || whose failure is captured. */          \
  X(RECOVERY, "recovery") /* The recovery of recover(). */

typedef enum fkind {
#define X(name, text) FK_##name,
  FN_KINDS(X)
#undef X
} fkind;

enum {
#define X(name, text) +1
  FK_COUNT = 0 FN_KINDS(X)
#undef X
};

/* Returns the name of kind k ("apply"). */
const char *fn_kind_name(fkind k);

/* One function of the node being emitted. */
typedef struct fn {
  fkind kind;       /* What it is. */
  const ir_expr *x; /* APPLY: the APPLY; EACH: the FOR or SPLAT; THUNK and
                       RECOVERY: the expression it computes; else NULL. */
  size_t parent;    /* Index of the function that creates it (SIZE_MAX: none). */
  uint32_t lo, hi;  /* APPLY: its parameters' slots, [lo, hi). */
  uint32_t key;     /* EACH: the key variable's slot, or UINT32_MAX. */
  uint32_t value;   /* EACH: the value's slot; RECOVERY: `error`'s; INSTANCE:
                       `range`'s; else UINT32_MAX. */
  words refs;       /* Slots its code reads, its closures' captures included. */
  words caps;       /* The slots it captures, sorted: its environment. */
  uint32_t id;      /* Its function of the program (emit_shape.c), once written. */
  uint32_t row;     /* The offset of its row in pclg_r, once written. */
} fn;

/* The node being emitted. */
typedef struct nctx {
  em *e;               /* The emission. */
  const ir_node *n;    /* The node. */
  fn *fns;             /* Its functions, parents before children. */
  size_t nfns, capfns; /* Used and allocated. */
  ptrmap body_fn;      /* APPLY, FOR or SPLAT -> index + 1 of the function of its body. */
  ptrmap thunk_fn;     /* Expression -> index + 1 of the function computing it. */
  ptrmap fallible;     /* Expression -> 1 (can fail) or 2 (cannot), once known. */
} nctx;

/* Finds the functions of node c->n (emit_closure.c): fills c->fns, parents
 * first, with what each binds and captures, and the maps from closure
 * roots to their functions. */
void closures_find(nctx *c);

/* The index of the function made for closure root x in map (body_fn or
 * thunk_fn), or SIZE_MAX. */
size_t closure_of(const ptrmap *map, const ir_expr *x);

/* Frees what closures_find allocated. */
void closures_free(nctx *c);

/* -------------------------------------------------------------- the code */

/* What an operand of an operation is (emit_code.c prints each kind). */
typedef enum okind {
  O_TEMP,     /* An owned temporary t<n>. */
  O_CONST,    /* The constant n, not placed in the row yet. */
  O_NODE,     /* The value of node n, not placed in the row yet. */
  O_ROW_K,    /* The constant at row entry n: &pclg_k[r[n]]. */
  O_ROW_NODE, /* The value of the node at row entry n: pcl_gen_node(e, r[n]). */
  O_FIXED,    /* The constant n, the same in every use of the code (a key
                 of an object constructor, which the code includes). */
  O_PARAM,    /* An apply body's parameter p[n]. */
  O_CAPTURED, /* The captured value e->v[n]. */
  O_KEY,      /* A loop body's `key`. */
  O_VALUE,    /* A loop body's `value`. */
  O_RANGE,    /* An instance function's `range`. */
  O_NAME,     /* An instance function's `name`. */
  O_ERROR,    /* A recovery's `error`. */
  O_NULL,     /* NULL: no value. */
  O_PCL_NULL, /* The null value, pcl_null(). */
} okind;

/* The value of an expression, as the code that uses it sees it. */
typedef struct opnd {
  okind kind; /* What it is. */
  uint32_t n; /* Its number (see okind). */
} opnd;

/* Returns the operand of kind k and number n. */
static inline opnd operand(okind k, uint32_t n) { return (opnd){k, n}; }

/* The parameters of the generated functions, by the bit of the mask that
 * records which ones a function's code names (the order in which unused
 * ones are marked `(void)`). */
#define FN_PARAMS(X)                                                                     \
  X(E, "e") X(P, "p") X(KEY, "key") X(VALUE, "value") X(OUT, "out") X(RANGE, "range")    \
  X(NAME, "name") X(ERROR, "error") X(ERR, "err")

enum {
#define X(name, text) P_##name##_BIT,
  FN_PARAMS(X)
#undef X
};
enum {
#define X(name, text) P_##name = 1u << P_##name##_BIT,
  FN_PARAMS(X)
#undef X
};

/* The environment of a closure the function creates: the row entry of the
 * distance back to the closure's row, and the closure's function. */
typedef struct envref {
  uint32_t row; /* The row entry. */
  size_t fn;    /* The function's index in the node's. */
} envref;

/* The function being written: its code, as words, and its row. */
typedef struct fctx {
  nctx *c;          /* The node. */
  fn *f;            /* The function. */
  words code;       /* Its statements (see emit_code.c). */
  words where;      /* Per statement: the file and byte offset of the source
                       it computes (UINT32_MAX, 0: none), for #line. */
  words failcode;   /* The failure blocks of its captured scopes. */
  words row;        /* Its row so far. */
  words row_consts; /* The positions in the row of the constants. */
  uint32_t want_file, want_pos; /* The source of the next statement
                                   (UINT32_MAX: none yet). */
  int indent;       /* Block depth of the next statement. */
  int ntemps;       /* Temporaries declared (t0 .. t<ntemps-1>). */
  words free_temps; /* Temporaries not in use, the next one to reuse last. */
  unsigned uses;    /* The parameters its statements name (P_*). */
  bool uses_r;      /* The code reads the row. */
  bool uses_at;     /* Some check sets `at`. */
  bool fails;       /* The code jumps to `fail`. */
  bool uses_error;  /* A node function's failure block reads `error`. */
  int scope;        /* The captured scope being written (0: none). */
  bool scope_fails; /* It has a check that jumps to its failure block. */
  int nscopes;      /* Captured scopes written. */
} fctx;

/* Starts writing function f of node c into w. */
void code_begin(fctx *w, nctx *c, fn *f);
/* Frees w's buffers. */
void code_free(fctx *w);

/* Appends a statement to the code, at the block depth w->indent: form is
 * its C text with conversions for its arguments: %d (int), %u (unsigned),
 * %zu (size_t), %s (a string that is part of the code, such as a runtime
 * function's name), %f (uint32_t: a function of the program, by id), %o (an
 * opnd, placed), %t (an opnd handed over: a temporary as it is, else
 * retained), %a (const opnd *, size_t: an array of placed operands, or NULL
 * when empty), %c (an envref: a closure's new environment). */
void stmt(fctx *w, const char *form, ...);
/* Continues the statement last appended with more text (for statements
 * whose number of arguments varies). */
void stmt_more(fctx *w, const char *form, ...);
/* Appends a line to the failure blocks, at depth level (0: a label). */
void fail_line(fctx *w, int level, const char *form, ...);

/* Attributes the statements from here on to the source at span (for the
 * #line directives). */
void at_line(fctx *w, pcl_span span);

/* Adds v to the row and returns its position; row_const adds constant k,
 * which the row's comment shows. */
uint32_t row_add(fctx *w, uint32_t v);
uint32_t row_const(fctx *w, uint32_t k);
/* Adds the location of span to the row and returns its position. */
uint32_t row_loc(fctx *w, pcl_span span);
/* Places operand o: a constant or node gets its row entry.  Returns the
 * placed operand (others are returned as they are). */
opnd place(fctx *w, opnd o);
/* Places ops[0..n) in order. */
void place_all(fctx *w, opnd *ops, size_t n);
/* Adds the row entry of the distance back to the row of child (a closure
 * of the function, whose row is written before it) and returns the
 * closure's environment. */
envref closure_env(fctx *w, size_t child);
/* Returns how far before the row being made the row of function k (one
 * the function creates) starts. */
uint32_t row_back(const fctx *w, const fn *k);

/* Returns a temporary not in use, and gives temporary t back. */
int temp_new(fctx *w);
void temp_free(fctx *w, int t);
/* Returns a temporary operand. */
static inline opnd temp(int t) { return operand(O_TEMP, (uint32_t)t); }

/* Writes the release of operand o once its one use is written (only a
 * temporary needs one), and of each of ops[0..n). */
void drop(fctx *w, opnd o);
void drop_all(fctx *w, const opnd *ops, size_t n);
/* Forgets temporary o after a statement took its value over (%t). */
void moved(fctx *w, opnd o);
/* Writes the check after a fallible call whose result went to temporary t:
 * on NULL the function (or the captured scope) fails, its error located
 * at row entry at. */
void check(fctx *w, int t, uint32_t at);

/* Returns the operand reading variable slot s in the function. */
opnd var(fctx *w, uint32_t s);

/* Appends the C text of code[0..n) (statements or failure lines) to out;
 * with where (one entry per statement, or NULL) and e->lines, maps them to
 * the source with #line directives.  Returns whether it wrote one. */
bool code_print(em *e, cw *out, const uint32_t *code, size_t n, const uint32_t *where);

/* ----------------------------------------------------------- expressions */

/* Writes the code computing x and returns its value (emit_expr.c). */
opnd expr(fctx *w, const ir_expr *x);
/* Writes the code computing x, a root expression of a node, so that a
 * failure becomes its value (a captured scope). */
opnd expr_captured(fctx *w, const ir_expr *x);

/* Writes the code of function w->f (emit_body.c). */
void body(fctx *w);

/* -------------------------------------------------------------- functions */

/* The function of the program whose code is that of w, made when it is
 * new: returns its id (emit_shape.c). */
uint32_t shape_func(fctx *w);
/* Returns the C name of function id. */
const char *shape_name(const em *e, uint32_t id);

/* Appends the C of a function to out (emit_func.c): its comment, signature,
 * declarations, statements and failure code. */
void func_print(em *e, cw *out, const em_func *f);

#endif
