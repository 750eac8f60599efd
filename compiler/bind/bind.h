/* bind: program structure, scopes, name resolution and the dependency graph.
 *
 * bind_program turns the AST of a program (every file of one directory) into
 * a bnd_program (bound.h): it reads the `package` blocks, declares every
 * top-level node in the root scope (duplicates are errors), computes the
 * dependencies of every node syntactically (program.md §10.4), reports
 * cycles with their path, fixes a stable topological evaluation order, then
 * checks every node in that order (block structure, labels, options, schema
 * inputs) and types its expressions through check.c.  Component blocks with a
 * source directory are parsed and bound recursively.  Diagnostics go to the
 * context's diag list; the result is returned even when there were errors
 * (bnd_program.has_errors says so). */
#ifndef PCLC_BIND_H
#define PCLC_BIND_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "front/ast.h"
#include "bind/bound.h"
#include "base/diag.h"
#include "suggest.h"
#include "base/intern.h"
#include "base/src.h"
#include "types/ty.h"

/* A scope entry for names inside expressions: a chain of nested scopes. */
typedef struct bind_scope bind_scope;
struct bind_scope {
  const bind_scope *parent; /* Enclosing scope, NULL for the root. */
  bnd_var *var;             /* The variable this scope introduces, or NULL. */
  /* A property-path scope (program.md §3.4.1): names of the resource's
     inputs resolve to property references. */
  bool properties;              /* This is a property-path scope. */
  const ty *props_type;         /* The input object type, NULL when untyped. */
  const bnd_attrs *props_attrs; /* The attributes written in the resource body. */
};

/* Everything binding one compilation needs: the first six fields are
   borrowed, the last two are state the binder keeps for itself. */
typedef struct bind_ctx {
  arena *arena;         /* Bound nodes live here. */
  intern_table *names;  /* Identifiers (the parser's table). */
  src_set *src;         /* Source files (components add theirs). */
  diag_list *diag;      /* Diagnostics. */
  ty_ctx *ty;           /* Types. */
  struct schema_set *schemas; /* Package schemas, or NULL when none were given. */
  /* Internal state of the program being bound (set by bind_program). */
  struct bind_state *st;
  size_t depth; /* Component nesting depth (guards runaway recursion). */
  /* The error "expression nested too deeply" was reported (base/stack.h):
     once for the whole compilation. */
  bool too_deep;
  /* The packages of the programs bound so far (components included), so
     that a package is defined alike by every program of the compilation
     (bind_package.c); an arena list, NULL at first. */
  struct bind_package_link *packages;
} bind_ctx;

/* Binds the parsed program prog whose files live in directory dir (used to
 * resolve component sources; "." when unknown).  Returns the bound program,
 * allocated in c->arena, even when errors were reported. */
bnd_program *bind_program(bind_ctx *c, const ast_program *prog, const char *dir);

/* Looks a name up in the root scope of the program being bound: definitions
 * first, then outputs (program.md §10.1).  Returns NULL when undefined. */
bnd_node *bind_lookup(bind_ctx *c, const char *name);
/* Offers the name of every node of the program, in declaration order, to
 * the suggestion sg; returns the node whose name is then sg's best, or NULL
 * when the best is not one of them. */
const bnd_node *bind_suggest_node(bind_ctx *c, pcl__suggest *sg);

#endif
