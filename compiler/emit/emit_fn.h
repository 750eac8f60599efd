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
typedef struct em_words {
  uint32_t *items; /* The words (owned). */
  size_t n, cap;   /* Used and allocated. */
} em_words;

/* Makes room in ws for n more words. */
void em_words_reserve(em_words *ws, size_t n);

/* Appends v to ws.  (Inline: the code of every function is recorded a
   word at a time.) */
static inline void em_words_add(em_words *ws, uint32_t v) {
  if (ws->n == ws->cap)
    em_words_reserve(ws, 1);
  ws->items[ws->n++] = v;
}

/* Appends the n words at v to ws. */
void em_words_append(em_words *ws, const uint32_t *v, size_t n);

/* What a function is: X(NAME, "name of the kind", "signature",
 * "comment"), the kind's name being that of its compiler-made C names
 * (pclg_apply<n>), the signature its C declaration with %s for its name
 * (the function types of pcl_gen.h), and the comment what the comment
 * above it says after the source it computes (NULL: the function computes
 * no source of its own, it registers one instance of its node). */
#define FN_KINDS(X)                                                                      \
  /* A node: computes its value. */                                                    \
  X(NODE, "node", "static pcl_value *%s(pcl_gen_env *e)", "")                            \
  /* One instance of a ranged node. */                                                  \
  X(INSTANCE, "instance",                                                               \
    "static pcl_value *%s(pcl_gen_env *e, pcl_value *range, const pcl_value *name)", NULL) \
  /* The body of an apply. */                                                           \
  X(APPLY, "apply", "static pcl_value *%s(pcl_gen_env *e, pcl_value *const *p, pcl_error **err)", \
    ", once its arguments are known")                                                    \
  /* The body of a for expression or a splat, per element. */                           \
  X(EACH, "each",                                                                       \
    "static bool %s(pcl_gen_env *e, pcl_value *key, pcl_value *value, pcl_value **out,\n" \
    "    pcl_error **err)",                                                             \
    ", per element")                                                                     \
  /* A try alternative, a can argument, a recover value, or an operand of && or ||     \
     whose failure is captured. */                                                     \
  X(THUNK, "thunk", "static pcl_value *%s(pcl_gen_env *e, pcl_error **err)", "")         \
  /* The recovery of recover(). */                                                      \
  X(RECOVERY, "recovery",                                                               \
    "static pcl_value *%s(pcl_gen_env *e, pcl_value *error, pcl_error **err)", "")      \
  /* A hook's command, with `args` bound to what the engine passed. */                  \
  X(COMMAND, "command",                                                                 \
    "static pcl_value *%s(pcl_gen_env *e, pcl_value *args, pcl_error **err)",           \
    ", each time the engine runs the hook")

typedef enum em_fkind {
#define X(name, text, signature, comment) FK_##name,
  FN_KINDS(X)
#undef X
} em_fkind;

/* Returns the name of kind k ("apply"). */
const char *em_fn_kind_name(em_fkind k);

/* One function of the node being emitted. */
typedef struct em_nodefn {
  em_fkind kind;       /* What it is. */
  const ir_expr *x; /* APPLY: the APPLY; EACH: the FOR or SPLAT; THUNK and
                       RECOVERY: the expression it computes; else NULL. */
  size_t parent;    /* Index of the function that creates it (SIZE_MAX: none). */
  uint32_t lo, hi;  /* APPLY: its parameters' slots, [lo, hi). */
  uint32_t key;     /* EACH: the key variable's slot, or UINT32_MAX. */
  uint32_t value;   /* EACH: the value's slot; RECOVERY: `error`'s; INSTANCE:
                       `range`'s; COMMAND: `args`'s; else UINT32_MAX. */
  em_words refs;       /* Slots its code reads, its closures' captures included. */
  em_words caps;       /* The slots it captures, sorted: its environment. */
  uint32_t id;      /* Its function of the program (emit_shape.c), once written. */
  uint32_t row;     /* The offset of its row in pclg_r, once written. */
} em_nodefn;

/* The node being emitted. */
typedef struct em_nodectx {
  em *e;               /* The emission. */
  const ir_node *n;    /* The node. */
  em_nodefn *fns;             /* Its functions, parents before children. */
  size_t nfns, capfns; /* Used and allocated. */
  ptrmap body_fn;      /* APPLY, FOR or SPLAT -> index + 1 of the function of its body. */
  ptrmap thunk_fn;     /* Expression -> index + 1 of the function computing it. */
  ptrmap fallible;     /* Expression -> 1 (can fail) or 2 (cannot), once known. */
} em_nodectx;

/* Finds the functions of node c->n (emit_closure.c): fills c->fns, parents
 * first, with what each binds and captures, and the maps from closure
 * roots to their functions. */
void em_closures_find(em_nodectx *c);

/* The index of the function made for closure root x in map (body_fn or
 * thunk_fn), or SIZE_MAX. */
size_t em_closure_of(const ptrmap *map, const ir_expr *x);

/* The number of x's children (the first ones) that run in the same call
 * as x; the others run in functions of their own. */
size_t em_sync_kids(const ir_expr *x);

/* Frees what em_closures_find allocated. */
void em_closures_free(em_nodectx *c);

/* -------------------------------------------------------------- the code */

/* What an operand of an operation is: X(NAME, "C text"), the text's %u
 * being the operand's number; a constant or node not yet placed in the row
 * has no text.  The code that uses an operand names the function's
 * parameters that its text names. */
#define OPND_KINDS(X)                                                                    \
  X(TEMP, "t%u")                    /* An owned temporary. */                            \
  X(CONST, NULL)                    /* Constant n, not placed in the row yet. */        \
  X(NODE, NULL)                     /* The value of node n, not placed yet. */          \
  X(ROW_K, "&pclg_k[r[%u]]")        /* The constant at row entry n. */                 \
  X(ROW_NODE, "pcl_gen_node(e, r[%u])") /* The value of the node at row entry n. */    \
  X(FIXED, "&pclg_k[%u]")           /* Constant n, the same in every use of the code   \
                                       (a key of an object constructor). */            \
  X(PARAM, "p[%u]")                 /* An apply body's parameter. */                    \
  X(CAPTURED, "e->v[%u]")           /* A captured value. */                             \
  X(KEY, "key")                     /* A loop body's key. */                            \
  X(VALUE, "value")                 /* A loop body's value. */                          \
  X(RANGE, "range")                 /* An instance function's range. */                 \
  X(NAME, "name")                   /* An instance function's name. */                  \
  X(ERROR, "error")                 /* A recovery's error. */                           \
  X(ARGS, "args")                   /* A hook command's args. */                        \
  X(NULL, "NULL")                   /* No value. */                                     \
  X(PCL_NULL, "pcl_null()")         /* The null value. */

typedef enum em_okind {
#define X(name, text) OPND_##name,
  OPND_KINDS(X)
#undef X
} em_okind;

/* The value of an expression, as the code that uses it sees it. */
typedef struct em_opnd {
  em_okind kind; /* What it is. */
  uint32_t n;    /* Its number (see OPND_KINDS). */
} em_opnd;

/* Returns the operand of kind k and number n. */
static inline em_opnd em_operand(em_okind k, uint32_t n) { return (em_opnd){k, n}; }

/* The parameters of the generated functions, by the bit of the mask that
 * records which ones a function's code names (the order in which unused
 * ones are marked `(void)`). */
#define FN_PARAMS(X)                                                                     \
  X(E, "e") X(P, "p") X(KEY, "key") X(VALUE, "value") X(OUT, "out") X(RANGE, "range")    \
  X(NAME, "name") X(ERROR, "error") X(ARGS, "args") X(ERR, "err")

enum {
#define X(name, text) PARAM_##name##_BIT,
  FN_PARAMS(X)
#undef X
};
enum {
#define X(name, text) PARAM_##name = 1u << PARAM_##name##_BIT,
  FN_PARAMS(X)
#undef X
};

/* Returns the PARAM_* bits of the parameters that the C text s names as
 * identifiers of their own (not members, not parts of longer names);
 * conversions (%d, %zu, ...) are not text. */
unsigned em_named_params(const char *s);

/* The environment of a closure the function creates: the row entry of the
 * distance back to the closure's row, and the closure's function. */
typedef struct em_envref {
  uint32_t row; /* The row entry. */
  size_t fn;    /* The function's index in the node's. */
} em_envref;

/* The function being written: its code, as words, and its row. */
typedef struct em_writer {
  em_nodectx *c;          /* The node. */
  em_nodefn *f;            /* The function. */
  em_words code;       /* Its statements (see emit_code.c). */
  em_words where;      /* Per statement: the file and byte offset of the source
                       it computes (UINT32_MAX, 0: none), for #line. */
  em_words failcode;   /* The failure blocks of its captured scopes. */
  em_words row;        /* Its row so far. */
  em_words row_consts; /* The positions in the row of the constants. */
  uint32_t want_file, want_pos; /* The source of the next statement
                                   (UINT32_MAX: none yet). */
  int indent;       /* Block depth of the next statement. */
  int ntemps;       /* Temporaries declared (t0 .. t<ntemps-1>). */
  em_words free_temps; /* Temporaries not in use, the next one to reuse last. */
  unsigned uses;    /* The parameters its statements name (P_*). */
  bool uses_r;      /* The code reads the row. */
  bool uses_at;     /* Some check sets `at`. */
  bool fails;       /* The code jumps to `fail`. */
  bool uses_error;  /* A node function's failure block reads `error`. */
  int scope;        /* The captured scope being written (0: none). */
  bool scope_fails; /* It has a check that jumps to its failure block. */
  int nscopes;      /* Captured scopes written. */
} em_writer;

/* Starts writing function f of node c into w. */
void em_code_begin(em_writer *w, em_nodectx *c, em_nodefn *f);
/* Frees w's buffers. */
void em_code_free(em_writer *w);

/* Appends a statement to the code, at the block depth w->indent: form is
 * its C text with conversions for its arguments: %d (int), %u (unsigned),
 * %zu (size_t), %s (a string that is part of the code, such as a runtime
 * function's name), %f (uint32_t: a function of the program, by id), %o (an
 * em_opnd, placed), %t (an em_opnd handed over: a temporary as it is, else
 * retained), %a (const em_opnd *, size_t: an array of placed operands, or NULL
 * when empty), %c (an em_envref: a closure's new environment). */
void em_stmt(em_writer *w, const char *form, ...);
/* Continues the statement last appended with more text (for statements
 * whose number of arguments varies). */
void em_stmt_more(em_writer *w, const char *form, ...);
/* Appends a line to the failure blocks, at depth level (0: a label). */
void em_fail_line(em_writer *w, int level, const char *form, ...);

/* Attributes the statements from here on to the source at span (for the
 * #line directives). */
void em_at_line(em_writer *w, pcl_span span);

/* Adds v to the row and returns its position; em_row_const adds constant k,
 * which the row's comment shows. */
uint32_t em_row(em_writer *w, uint32_t v);
uint32_t em_row_const(em_writer *w, uint32_t k);
/* Adds the location of span to the row and returns its position. */
uint32_t em_row_loc(em_writer *w, pcl_span span);
/* Places operand o: a constant or node gets its row entry.  Returns the
 * placed operand (others are returned as they are). */
em_opnd em_place(em_writer *w, em_opnd o);
/* Places ops[0..n) in order. */
void em_place_all(em_writer *w, em_opnd *ops, size_t n);
/* Adds the row entry of the distance back to the row of child (a closure
 * of the function, whose row is written before it) and returns the
 * closure's environment. */
em_envref em_closure_env(em_writer *w, size_t child);
/* Returns how far before the row being made the row of function k (one
 * the function creates) starts. */
uint32_t em_row_back(const em_writer *w, const em_nodefn *k);

/* Returns a temporary not in use, and gives temporary t back. */
int em_temp_new(em_writer *w);
void em_temp_free(em_writer *w, int t);
/* Returns a temporary operand. */
static inline em_opnd em_temp(int t) { return em_operand(OPND_TEMP, (uint32_t)t); }

/* Writes the release of operand o once its one use is written (only a
 * temporary needs one), and of each of ops[0..n). */
void em_drop(em_writer *w, em_opnd o);
void em_drop_all(em_writer *w, const em_opnd *ops, size_t n);
/* Forgets temporary o after a statement took its value over (%t). */
void em_moved(em_writer *w, em_opnd o);
/* Writes the check after a fallible call whose result went to temporary t:
 * on NULL the function (or the captured scope) fails, its error located
 * at row entry at. */
void em_check(em_writer *w, int t, uint32_t at);

/* Returns the operand reading variable slot s in the function. */
em_opnd em_var(em_writer *w, uint32_t s);

/* Appends the C text of code[0..n) (statements or failure lines) to out;
 * with where (one entry per statement, or NULL) and e->lines, maps them to
 * the source with #line directives.  Returns whether it wrote one. */
bool em_code_print(em *e, cw *out, const uint32_t *code, size_t n, const uint32_t *where);

/* ----------------------------------------------------------- expressions */

/* Writes the code computing x and returns its value (emit_expr.c). */
em_opnd em_expr(em_writer *w, const ir_expr *x);
/* Writes the code computing x, a root expression of a node, so that a
 * failure becomes its value (a captured scope). */
em_opnd em_expr_captured(em_writer *w, const ir_expr *x);

/* Writes the code of function w->f (emit_body.c). */
void em_body(em_writer *w);

/* -------------------------------------------------------------- functions */

/* The function of the program whose code is that of w, made when it is
 * new: returns its id (emit_shape.c). */
uint32_t em_shape_func(em_writer *w);

/* Appends the prototype of a function to out (emit_func.c). */
void em_func_prototype(cw *out, const em_func *f);
/* Appends the C of a function to out: its comment, signature,
 * declarations, statements and failure code. */
void em_func_print(em *e, cw *out, const em_func *f);

#endif
