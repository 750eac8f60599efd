/* bind_impl: definitions shared by the binder's files and nobody else.
 *
 * The binder is split by job: bind.c declares nodes and binds each kind of
 * block (locals, config, resources and their options, outputs, the pulumi
 * block, hooks) and drives the phases; bind_package.c reads `package`
 * blocks; bind_graph.c collects dependencies, orders the nodes and reports
 * cycles; bind_component.c binds component blocks and their programs;
 * bind_deferred.c finds the cycles through component outputs that the
 * order allows between components.  They
 * share the state of the program being bound (bind_state) and the helpers
 * declared here. */
#ifndef PCLC_BIND_IMPL_H
#define PCLC_BIND_IMPL_H

#include <stdbool.h>
#include <stddef.h>

#include "bind/bind.h"
#include "base/ptrmap.h"

/* A growable array of nodes (heap). */
typedef struct node_vec {
  bnd_node **items;  /* The nodes (owned array). */
  size_t count, cap; /* Nodes used and allocated. */
} node_vec;

/* The state of the program being bound (bind_ctx.st); a component program
   is bound with a state of its own. */
struct bind_state {
  bnd_program *prog;        /* The program being built (arena). */
  const char *dir;          /* Its directory (arena). */
  ptrmap defs, outputs;     /* The root scope (program.md §10.1). */
  node_vec nodes;           /* Declared nodes, source order. */
  pcl_span **dep_spans;     /* Per node: where each dependency is referenced. */
  /* Dependency collection scratch (bind_graph.c). */
  size_t *mark;             /* Per node: the stamp of the last collection. */
  size_t stamp;             /* The stamp of the current collection. */
  node_vec tmp;             /* Dependencies of the node being collected. */
  pcl_span *tmp_spans;      /* Their first references. */
  size_t tmp_cap;           /* Entries allocated in tmp_spans. */
  bnd_node *pulumi;         /* The pulumi block, if any. */
};

/* A package of a program bound earlier in the compilation (bind_ctx). */
struct bind_package_link {
  const bnd_package *pkg;         /* The package (arena). */
  struct bind_package_link *next; /* The one defined before it, or NULL. */
};

/* Appends n to v, doubling the capacity when full. */
void bind_vec_push(node_vec *v, bnd_node *n);

/* Returns the string of a literal template (a quoted string without
   interpolation, possibly parenthesised; borrowed from the AST), or NULL. */
const char *bind_literal_text(const ast_node *e);

/* Resources and components share their options (bind.c). */
/* Finds the options block of a resource-like block b, reporting other
   nested blocks and duplicates; returns NULL when there is none. */
const ast_node *bind_find_options(bind_ctx *c, const ast_node *b);
/* Binds the range option of the options block (which may be NULL) first,
   since its type shapes the resource: sets *kind and the `range` variable
   *var visible in the body (NULL when none). */
void bind_range_option(bind_ctx *c, const ast_node *options, bnd_options *opts,
                       bnd_range_kind *kind, bnd_var **var);
/* Binds every other option of the options block into opts; the
   property-path options see the names of props. */
void bind_other_options(bind_ctx *c, const ast_node *options, bnd_options *opts,
                        const bind_scope *props);
/* Returns the type of a reference to a family of instances of r shaped by
   the range kind k. */
const ty *bind_range_type(bind_ctx *c, bnd_range_kind k, const bnd_options *o, const ty *r);
/* Binds the body attributes of the resource-like block of n in scope s
   (except __logicalName, which sets n's logical name, and `token` when
   skip_token); the array is in the arena. */
bnd_attrs bind_body_attrs(bind_ctx *c, bnd_node *n, const bind_scope *s, bool skip_token);

/* Reads every `package` block of prog into the program's package list,
   reporting malformed and conflicting ones, and pins the versions they name
   in the schema set (bind_package.c). */
void bind_packages(bind_ctx *c, const ast_program *prog);

/* Computes n->deps (bind_graph.c): every node its syntax names, by
   declaration index, each once, with the span of its first reference. */
void bind_compute_deps(bind_ctx *c, bnd_node *n);
/* Fixes the program's evaluation order and reports every cycle
   (bind_graph.c); the dependencies of every node are known. */
void bind_compute_order(bind_ctx *c);

/* One reference of a cycle, for bind_report_cycle. */
typedef struct bind_cycle_step {
  const char *from, *to; /* What refers and what it refers to (borrowed). */
  pcl_span where;        /* The reference. */
  bool parent;           /* `from` waits for `to` as its parent component,
                            rather than naming it. */
} bind_cycle_step;

/* Reports "circular reference" at `at` with a note per step of the cycle
   steps[0..n) (the last step leads back to the first), showing the first
   and the closing ones of a long cycle (bind_graph.c). */
void bind_report_cycle(bind_ctx *c, pcl_span at, const bind_cycle_step *steps, size_t n);

/* Reports every cycle that runs through the outputs of components of the
   whole program p (the top-level one, bound without errors) and the
   programs of its components: an output that, through a component's
   internals, its inputs and the expressions given for them, depends on
   itself (bind_deferred.c).  Mutually dependent components are otherwise
   allowed (program.md 10.4). */
void bind_check_deferred_outputs(bind_ctx *c, const bnd_program *p);

/* Computes the type of references to the component n before anything is
   checked, binding its program when it has a source (bind_component.c). */
void bind_declare_component(bind_ctx *c, bnd_node *n);
/* Binds the component block n: range, token, inputs and options
   (bind_component.c). */
void bind_component(bind_ctx *c, bnd_node *n);

#endif
