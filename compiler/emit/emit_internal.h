/* emit_internal.h: what the emitter's modules share (emit.c: the program,
 * its modules and tables; emit_const.c: the constants, locations and
 * declarations; emit_fn.h and its modules: the C functions of the nodes).
 * Not used outside emit/.
 *
 * The emitted translation unit is assembled from sections that are filled
 * while the program is walked once: constants, locations, declarations,
 * config types, functions, rows, module tables.  Every table is indexed by
 * numbers that the rows hold, so the functions, which are shared by every
 * node (or expression) of the same code, read what differs between them
 * from their row: `r[i]`. */
#ifndef PCLC_EMIT_INTERNAL_H
#define PCLC_EMIT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/diag.h"
#include "emit/cw.h"
#include "base/intern.h"
#include "ir/ir.h"
#include "base/ptrmap.h"
#include "base/src.h"

/* A string constant's bytes, kept so that static maps can sort their keys. */
typedef struct em_str {
  uint32_t index;   /* The constant's index in pclg_k. */
  const char *text; /* Its NFC bytes (interned). */
  size_t len;       /* Their length. */
} em_str;

/* A text of the code (emit_code.c): the form of a statement, or a string
 * passed to one. */
typedef struct em_text {
  const char *text; /* The text (interned). */
  unsigned uses;    /* The parameters it names (P_* of emit_fn.h). */
  char convs[12];   /* A form's conversions, one letter each (z: %zu). */
} em_text;

/* A function of the program: one per distinct code (emit_shape.c). */
typedef struct em_func {
  unsigned kind;           /* What it is (an fkind of emit_fn.h). */
  const char *name;        /* Its C name. */
  const uint32_t *body;       /* Its statements' records. */
  size_t nbody;            /* Their number of words. */
  const uint32_t *where;   /* Per statement, its first use's source (file,
                              offset). */
  const uint32_t *fails_code; /* The records of its captured scopes'
                                 failure blocks. */
  size_t nfails;           /* Their number of words. */
  int ntemps;              /* Its temporaries. */
  unsigned uses;           /* The parameters its code names. */
  bool uses_r;             /* It reads the row. */
  bool uses_at;            /* It sets `at`. */
  bool fails;              /* It has failure code (`fail:`). */
  bool uses_error;         /* Its captured scopes' failure blocks read `error`. */
  pcl_span span;           /* What its first use computes (for its comment). */
  const char *node;        /* The name of its first use's node. */
  size_t users;            /* The nodes whose node or instance function it is. */
} em_func;

/* The state of one emission. */
typedef struct em {
  src_set *src;       /* The sources (locations, comments). */
  diag_list *diag;    /* Where an expression too deep for the stack is reported. */
  bool too_deep;      /* It was (base/stack.h): the emission stops. */
  const char *input;  /* The program as given on the command line. */
  bool lines;         /* Write #line directives. */
  arena keys;         /* Interned keys and the numbers stored for them. */
  intern_table names; /* Interns the keys of every table below. */
  cw key;             /* Where a key is made before it is interned. */
  /* Constants (emit_const.c). */
  cw consts;          /* Entries of pclg_k. */
  size_t nconsts;     /* Their number. */
  cw limbs;           /* Limb arrays of big ints (pclg_l<n>). */
  size_t nlimbs;      /* Their number. */
  cw items;           /* Entries of pclg_p: element pointers of static collections. */
  size_t nitems;      /* Their number. */
  ptrmap const_index; /* Interned constant key -> its index + 1. */
  em_str *strings;    /* The string constants, by increasing index. */
  size_t nstrings, capstrings; /* Used and allocated. */
  const char **shown; /* By constant, the text a row's comment shows for it. */
  size_t capshown;    /* Allocated. */
  /* Source locations. */
  cw locs;            /* Entries of pclg_loc. */
  size_t nlocs;       /* Their number. */
  cw loc_runs;        /* Entries of pclg_loc_runs: where the file changes. */
  size_t nloc_runs;   /* Their number. */
  uint32_t loc_file;  /* The file of the last location. */
  ptrmap loc_index;   /* Address of the position in its file's text -> index + 1. */
  /* Resource declarations. */
  cw decls;           /* Entries of pclg_decl. */
  size_t ndecls;      /* Their number. */
  ptrmap decl_index;  /* Interned declaration key -> index + 1. */
  /* Rows. */
  cw rows;            /* Entries of pclg_r, one line per function instance. */
  uint32_t nrows;     /* Entries written (the next row's offset). */
  /* Functions (emit_shape.c, emit_code.c). */
  em_func *funcs;     /* The functions of the program, in the order they were made. */
  size_t nfuncs, capfuncs; /* Used and allocated. */
  ptrmap func_ids;    /* Interned key of a function's code -> its index + 1. */
  em_text *texts;     /* The texts of the code, by id. */
  size_t ntexts, captexts; /* Used and allocated. */
  ptrmap text_ids;    /* Interned text -> its id + 1. */
  ptrmap form_ids;    /* Address of a form -> its id + 1. */
  /* Per kind of operand (em_okind), the parameters its text names, plus
     one; 0 until an operand of the kind is first written. */
  unsigned operand_uses[16];
  ptrmap used;        /* Interned C names already taken -> (void *)1. */
  /* Config types. */
  cw types;           /* Config types (pclg_t<n>). */
  size_t ntypes;      /* Their number. */
} em;

/* Returns the interned copy of s[0..len) (lives as long as the emission). */
const char *em_intern(em *e, const char *s, size_t len);

/* Returns the index in pclg_k of constant c (a CONST expression), adding
 * it when it is new.  Strings are stored in NFC. */
uint32_t em_const(em *e, const ir_expr *c);
/* Returns the index of the STRING constant s[0..len). */
uint32_t em_string(em *e, const char *s, size_t len);
/* Compares the bytes of the STRING constants a and b (memcmp order, a
 * prefix first). */
int em_string_cmp(const em *e, uint32_t a, uint32_t b);
/* Returns the index of the static list (or, with keys, map) of the
 * constants items[0..n) (keys[0..n) being STRING constants).  Map keys are
 * sorted, a later duplicate winning. */
uint32_t em_static_list(em *e, const uint32_t *items, size_t n);
uint32_t em_static_map(em *e, const uint32_t *keys, const uint32_t *vals, size_t n);
/* Returns the text a row's comment shows for constant k: a string quoted
 * and cut short, a number as written, `true`, `null`, `[...]`, ... */
const char *em_const_shown(const em *e, uint32_t k);
/* Frees the constant tables' buffers. */
void em_const_free(em *e);

/* Returns the index in pclg_loc of the location of span. */
uint32_t em_loc(em *e, pcl_span span);

/* Returns the index in pclg_decl of the declaration of resource-like node
 * n, adding it when it is new (a declaration is the type token, kind,
 * package version and download URL; the node's location travels apart). */
uint32_t em_decl(em *e, const ir_node *n);

/* Appends the text of the source at span to w as comment text, on one
 * line: at most max bytes, " ..." when cut. */
void em_comment_source(em *e, cw *w, pcl_span span, size_t max);
/* Appends "file:line:col" of span as comment text. */
void em_where(em *e, cw *w, pcl_span span);

/* Emits the functions of node n (its node function and every function it
 * creates, emit_func.c) and their rows, and returns, through *func and
 * *row, its node function and the offset of its row.  When an expression
 * of n is nested too deeply for the stack, reports it and sets
 * e->too_deep: nothing of n is then to be used. */
void em_node(em *e, const ir_node *n, uint32_t *func, uint32_t *row);
/* Names the functions, once every node is written. */
void em_funcs_name(em *e);
/* Returns the C name of function id. */
const char *em_func_name(const em *e, uint32_t id);
/* Appends the prototypes of the node functions to protos and every
 * function to code, in the order they were made. */
void em_funcs_print(em *e, cw *protos, cw *code);
/* Frees the function tables. */
void em_funcs_free(em *e);

#endif
