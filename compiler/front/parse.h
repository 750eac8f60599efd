/* parse: the public entry points of the front end (lexer + parser).
 *
 * Takes source files registered in a src_set and produces AST (ast.h) in the
 * compilation's arena.  Syntax errors go to the diag_list; parsing continues
 * after an error so that several problems are reported in one run, but a
 * file with errors never yields a tree that later phases should look at.
 *
 * Besides building the tree the parser checks the purely syntactic rules of
 * HCL that need more than the grammar: an attribute defined twice in one
 * body ("Attribute redefined").  Trees may be as deep as the input allows
 * (HCL accepts 10,000 nested brackets and chains of 100,000 operators); no
 * phase walks them recursively. */
#ifndef PCLC_PARSE_H
#define PCLC_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "front/ast.h"
#include "base/diag.h"
#include "base/intern.h"
#include "base/src.h"

/* What the front end works with; every member is borrowed. */
typedef struct parse_env {
  arena *arena;          /* Where nodes, lists and decoded strings go. */
  intern_table *intern;  /* Interns identifiers (allocating from its own arena). */
  src_set *src;          /* The files being parsed. */
  diag_list *diags;      /* Receives syntax errors. */
  size_t max_nesting;    /* Brackets, braces and templates that may be open at
                            once; 0 for the default, LEX_MAX_NESTING (lex.h). */
} parse_env;

/* Outcome of parse_program. */
typedef enum parse_status {
  PARSE_OK,        /* Every file parsed without errors. */
  PARSE_ERRORS,    /* At least one syntax error was reported to env->diags. */
  PARSE_IO_ERROR,  /* A file or directory could not be read (reported). */
} parse_status;

/* Parses file `file_id` of env->src into *out (body in source order).
 * Returns false when errors were reported; *out is then still filled in as
 * far as the parser got, but must not be bound. */
bool parse_file(parse_env *env, uint32_t file_id, ast_file *out);

/* Reads and parses a program: `path` is either a single file or a directory
 * whose `.pp` files (not recursing) are read in sorted order.  Files are
 * added to env->src.  On PARSE_IO_ERROR the message (such as "cannot read
 * 'x.pp': No such file or directory" or "no .pp files in directory 'd'") is
 * in env->diags as a diagnostic without location.  out->files is allocated
 * in env->arena. */
parse_status parse_program(parse_env *env, const char *path, ast_program *out);

/* Parses `text` (len bytes, not necessarily NUL-terminated) as one
 * standalone expression, as HCL's ParseExpression does; used for the type
 * labels of config and output blocks (`config x "list(string)" {}`).
 * `where` is the span of the label the text came from: when the source
 * bytes under `where` are exactly `text` (a bare label) or `"text"` (a
 * quoted label without escapes), the nodes get their precise spans inside
 * the label; otherwise every node and error gets `where`.  Returns the
 * expression (arena-allocated), or NULL after reporting errors to
 * env->diags. */
ast_node *parse_expression_text(parse_env *env, const char *text, size_t len, pcl_span where);

#endif
