/* bind_deferred: cycles through the outputs of components (program.md
 * §5, §10.4).
 *
 * The evaluation order lets two different components refer to each other:
 * at run time a component's value is its object at once, and each of its
 * outputs settles on its own, once what that output reads inside the
 * component is known.  Such a program finishes unless an output depends on
 * itself, which only the components' internals tell.  This pass decides it
 * for the whole program once everything is bound without errors, on a graph
 * whose vertices are the nodes of the program and of every component
 * program (each component block has a program of its own), with an edge
 * for each wait of the run:
 *   * a node waits for the nodes its expressions read; reading a component
 *     `c.name`, `c[i].name`, or `v.name` for a `for` or splat variable `v`
 *     over a family of components, waits for that output's node only;
 *     reading the component as a whole waits for every output and for its
 *     registration (its `id`);
 *   * a config of a component program waits for the expression the
 *     component block gives for it (and the block's range), else for its
 *     default;
 *   * a component's registration (its own vertex) waits for its options
 *     and for its inputs, except the deferred ones, which it leaves out
 *     (bnd_attr.deferred): an input is deferred when it reads a component
 *     evaluated after this one in their program's order (its value is then
 *     a future) and waiting for it would wait for this very registration
 *     (through the component's children, which are its parent's); the
 *     inputs are decided on the graph where every registration waits for
 *     all its inputs, which has every wait of the final one, so a kept
 *     input never closes a cycle;
 *   * inside a component program, every registration (resource, read,
 *     component) and every invoke or method call waits for the component's
 *     registration, its parent;
 *   * when a component's URN is known only once the engine answers (it
 *     names a parent, or its own component's URN is such), its outputs are
 *     read through its registration too.
 * The expressions are read recursively, as they nest.  A depth-first walk
 * of the graph then reports each cycle as the order's cycles are reported,
 * with the vertices named by their component path (`a.input` is the config
 * `input` of component `a`'s program).  That walk keeps the path it
 * follows in an array, since a cycle's report prints it, and a path is as
 * long as a chain of waits, which grows with the program's length rather
 * than its nesting. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bind/bind_impl.h"
#include "base/ptrmap.h"
#include "base/stack.h"
#include "base/util.h"

enum { UNVISITED = 0, VISITING = 1, DONE = 2 };

/* One wait of a vertex. */
typedef struct edge {
  size_t to;      /* The vertex waited for. */
  pcl_span where; /* The reference (or the waiting node, for a parent). */
  bool parent;    /* A wait for the parent component's registration. */
} edge;

/* One node of the program or of a component program. */
typedef struct vertex {
  bnd_node *node;     /* The node. */
  size_t owner;       /* The vertex of the component whose program holds the
                         node, or SIZE_MAX at the top level. */
  const char *label;  /* Its name with its component path (arena). */
  bool urn_deferred;  /* COMPONENT: its URN is known once the engine answers. */
  edge *edges;        /* Its waits, each target once (owned array). */
  size_t nedges, cap; /* Waits used and allocated. */
  size_t waited_by;   /* The last vertex (+ 1) that recorded a wait for this
                         one: a vertex's waits are recorded together, so
                         this tells a target already recorded. */
  size_t depth;       /* Its component nesting depth (0 at the top level). */
  size_t pos;         /* Its position in its program's evaluation order. */
  size_t given_edges; /* CONFIG given by its component block: how many of its
                         first waits that block's expression makes. */
  int state;          /* Walk state. */
  size_t next;        /* Walk: the next edge to follow. */
} vertex;

/* The graph being built and walked. */
typedef struct graph {
  bind_ctx *c;            /* The binder: diagnostics and arena. */
  vertex *v;             /* Vertices, top-level nodes first (owned). */
  size_t n, cap;         /* Vertices used and allocated. */
  ptrmap index;          /* bnd_node -> its vertex index + 1. */
  ptrmap alias;          /* bnd_var -> the component node whose instances
                            the variable iterates over. */
} graph;

/* Returns the vertex of node n. */
static size_t vertex_of(const graph *g, const bnd_node *n) {
  uintptr_t i = (uintptr_t)ptrmap_get(&g->index, n);
  if (i == 0) {
    ice("node '%s' has no vertex", n->name);
  }
  return (size_t)(i - 1);
}

/* Adds the vertices of program p, held by the component of vertex owner
   (SIZE_MAX for the top level). */
static void add_program(graph *g, const bnd_program *p, size_t owner) {
  for (size_t i = 0; i < p->count; i++) {
    PCL__GROW(g->v, g->cap, g->n + 1);
    bnd_node *n = p->nodes[i];
    vertex *v = &g->v[g->n];
    memset(v, 0, sizeof *v);
    v->node = n;
    v->owner = owner;
    v->depth = owner == SIZE_MAX ? 0 : g->v[owner].depth + 1;
    v->label = owner == SIZE_MAX ? n->name
                                 : arena_printf(g->c->arena, "%s.%s", g->v[owner].label, n->name);
    if (n->kind == BND_COMPONENT) {
      v->urn_deferred = n->component.options.opt[BND_OPT_PARENT] != NULL ||
                        (owner != SIZE_MAX && g->v[owner].urn_deferred);
    }
    ptrmap_put(&g->index, n, (void *)(uintptr_t)(g->n + 1));
    g->n++;
  }
  for (size_t i = 0; i < p->count; i++) {
    g->v[vertex_of(g, p->order[i])].pos = i;
  }
}

/* Returns the program of component node n when it has one. */
static const bnd_program *program_of(const bnd_node *n) {
  return n->kind == BND_COMPONENT && !n->invalid ? n->component.program : NULL;
}

/* Records that vertex from waits for vertex to at where (once per target:
   the first reference is the one a cycle's notes show). */
static void add_edge(graph *g, size_t from, size_t to, pcl_span where, bool parent) {
  if (g->v[to].waited_by == from + 1) {
    return;
  }
  g->v[to].waited_by = from + 1;
  vertex *v = &g->v[from];
  PCL__GROW(v->edges, v->cap, v->nedges + 1);
  v->edges[v->nedges++] = (edge){to, where, parent};
}

/* Records that vertex from reads output `name` of component node comp at
   where, or the whole component when name is NULL. */
static void read_component(graph *g, size_t from, const bnd_node *comp, const char *name,
                           pcl_span where) {
  size_t cv = vertex_of(g, comp);
  const bnd_program *q = program_of(comp);
  bool found = false;
  for (size_t i = 0; i < q->count; i++) {
    const bnd_node *o = q->nodes[i];
    if (o->kind == BND_OUTPUT && (!name || strcmp(o->logical_name, name) == 0)) {
      add_edge(g, from, vertex_of(g, o), where, false);
      found = true;
    }
  }
  /* The object as a whole holds the component's id, known once it is
     registered; without its URN, every output waits for that too. */
  if (!name || !found || g->v[cv].urn_deferred) {
    add_edge(g, from, cv, where, false);
  }
}

/* Returns the component node whose instance x is (a reference to a
   component with a program, or a variable iterating over one), or NULL. */
static const bnd_node *instance_of(const graph *g, const bnd_expr *x) {
  if (x->kind == BND_E_NODE_REF && program_of(x->node_ref.node)) {
    return x->node_ref.node;
  }
  if (x->kind == BND_E_VAR_REF) {
    return ptrmap_get(&g->alias, x->var_ref.var);
  }
  return NULL;
}

/* Makes the variable var of a loop over the expression coll an instance of
   the component coll iterates over, when it iterates over instances: a
   family of components (or, for a splat, a single one). */
static bool alias_loop(graph *g, const bnd_var *var, const bnd_expr *coll, bool single) {
  const bnd_node *comp = instance_of(g, coll);
  if (!comp || !var ||
      (!single && coll->kind == BND_E_NODE_REF && comp->component.range == BND_RANGE_NONE)) {
    return false;
  }
  ptrmap_put(&g->alias, var, (void *)comp);
  return true;
}

static void read_expr(graph *g, size_t from, const bnd_expr *e, bool *calls);

/* Reads the index keys of the chain of INDEX expressions from x down to
   base (`c[i][j]`), innermost first. */
static void read_keys(graph *g, size_t from, const bnd_expr *x, const bnd_expr *base,
                      bool *calls) {
  if (x == base) {
    return;
  }
  read_keys(g, from, x->index.collection, base, calls);
  read_expr(g, from, x->index.key, calls);
}

/* Records the waits of vertex from for what expression e (which may be
   NULL) reads, in source order, so that a cycle's notes show the first
   reference; *calls is set when it invokes a function or calls a
   method. */
static void read_expr(graph *g, size_t from, const bnd_expr *e, bool *calls) {
  if (!e || stack_too_deep(&g->c->too_deep, g->c->diag, e->span)) {
    return;
  }
  switch (e->kind) {
  case BND_E_NODE_REF:
    if (program_of(e->node_ref.node)) {
      read_component(g, from, e->node_ref.node, NULL, e->span);
    } else {
      add_edge(g, from, vertex_of(g, e->node_ref.node), e->span, false);
    }
    return;
  case BND_E_VAR_REF: {
    const bnd_node *comp = instance_of(g, e);
    if (comp) {
      read_component(g, from, comp, NULL, e->span);
    }
    return;
  }
  case BND_E_GET_ATTR: {
    /* `c.name` and `c[i].name` read one output of c. */
    const bnd_expr *base = e->get_attr.object;
    while (base->kind == BND_E_INDEX) {
      base = base->index.collection;
    }
    const bnd_node *comp = instance_of(g, base);
    if (!comp) {
      read_expr(g, from, e->get_attr.object, calls);
      return;
    }
    read_component(g, from, comp, e->get_attr.name, e->span);
    read_keys(g, from, e->get_attr.object, base, calls);
    return;
  }
  case BND_E_FOR:
    if (!alias_loop(g, e->for_expr.value_var, e->for_expr.collection, false)) {
      read_expr(g, from, e->for_expr.collection, calls);
    }
    read_expr(g, from, e->for_expr.key, calls);
    read_expr(g, from, e->for_expr.value, calls);
    read_expr(g, from, e->for_expr.cond, calls);
    return;
  case BND_E_TEMPLATE_FOR:
    if (!alias_loop(g, e->tfor.value, e->tfor.collection, false)) {
      read_expr(g, from, e->tfor.collection, calls);
    }
    read_expr(g, from, e->tfor.body, calls);
    return;
  case BND_E_SPLAT:
    if (!alias_loop(g, e->splat.item, e->splat.source, true)) {
      read_expr(g, from, e->splat.source, calls);
    }
    read_expr(g, from, e->splat.each, calls);
    return;
  case BND_E_INDEX:
    read_expr(g, from, e->index.collection, calls);
    read_expr(g, from, e->index.key, calls);
    return;
  case BND_E_TEMPLATE:
    for (size_t i = 0; i < e->tmpl.count; i++) {
      read_expr(g, from, e->tmpl.parts[i], calls);
    }
    return;
  case BND_E_TEMPLATE_IF:
    read_expr(g, from, e->tif.cond, calls);
    read_expr(g, from, e->tif.then, calls);
    read_expr(g, from, e->tif.else_, calls);
    return;
  case BND_E_CALL:
    if (e->call.kind == BND_CALL_INVOKE || e->call.kind == BND_CALL_METHOD) {
      *calls = true;
    }
    for (size_t i = 0; i < e->call.nargs; i++) {
      read_expr(g, from, e->call.args[i], calls);
    }
    return;
  case BND_E_TUPLE:
    for (size_t i = 0; i < e->tuple.count; i++) {
      read_expr(g, from, e->tuple.items[i], calls);
    }
    return;
  case BND_E_OBJECT:
    for (size_t i = 0; i < e->object.count; i++) {
      read_expr(g, from, e->object.items[i].key, calls);
      read_expr(g, from, e->object.items[i].value, calls);
    }
    return;
  case BND_E_UNARY:
    read_expr(g, from, e->unary.operand, calls);
    return;
  case BND_E_BINARY:
    read_expr(g, from, e->binary.lhs, calls);
    read_expr(g, from, e->binary.rhs, calls);
    return;
  case BND_E_CONDITIONAL:
    read_expr(g, from, e->cond.cond, calls);
    read_expr(g, from, e->cond.then, calls);
    read_expr(g, from, e->cond.else_, calls);
    return;
  case BND_E_NUMBER:
  case BND_E_BOOL:
  case BND_E_NULL:
  case BND_E_STRING:
  case BND_E_PROPERTY:
  case BND_E_TYPE:
  case BND_E_FAIL:
    return;
  }
}

/* Records the waits for the attributes attrs and the options opts. */
static void read_block(graph *g, size_t from, const bnd_attrs *attrs, const bnd_options *opts,
                       bool *calls) {
  for (size_t i = 0; i < attrs->count; i++) {
    read_expr(g, from, attrs->items[i].value, calls);
  }
  for (size_t i = 0; i < BND_OPT_COUNT; i++) {
    read_expr(g, from, opts->opt[i], calls);
  }
}

/* Returns whether vertex t is a component evaluated after the component of
   vertex ci in their program, or a node of such a component's program. */
static bool later_component(const graph *g, size_t ci, size_t t) {
  const vertex *c = &g->v[ci];
  for (;;) {
    const vertex *v = &g->v[t];
    if (v->owner == c->owner) {
      return v->node->kind == BND_COMPONENT && v->pos > c->pos;
    }
    if (v->owner == SIZE_MAX) {
      return false;
    }
    t = v->owner;
  }
}

/* Returns whether the waits of the expression that config vertex cfg's
   component block gives for it reach vertex target.  Each vertex is pushed
   once, so the stack holds at most every vertex. */
static bool input_reaches(const graph *g, size_t cfg, size_t target) {
  const vertex *cv = &g->v[cfg];
  bool *seen = xcalloc(g->n + 1, sizeof *seen);
  size_t *stack = xmalloc((g->n + 1) * sizeof *stack), top = 0;
  for (size_t k = 0; k < cv->given_edges; k++) {
    if (!seen[cv->edges[k].to]) {
      seen[cv->edges[k].to] = true;
      stack[top++] = cv->edges[k].to;
    }
  }
  bool found = false;
  while (top > 0 && !found) {
    const vertex *v = &g->v[stack[--top]];
    found = stack[top] == target;
    for (size_t k = 0; k < v->nedges; k++) {
      if (!seen[v->edges[k].to]) {
        seen[v->edges[k].to] = true;
        stack[top++] = v->edges[k].to;
      }
    }
  }
  free(stack);
  free(seen);
  return found;
}

/* Marks the deferred inputs of the component of vertex ci (a component with
   a program) on the graph where every registration waits for all its
   inputs: those whose expression, as the config vertex it gives reads it,
   reads a later component of the same program and waits for this
   component's registration.  Returns whether it marked any. */
static bool mark_deferred_inputs(graph *g, size_t ci) {
  bnd_node *n = g->v[ci].node;
  const bnd_program *q = program_of(n);
  bool any = false;
  for (size_t i = 0; i < q->count; i++) {
    const bnd_node *cfg = q->nodes[i];
    if (cfg->kind != BND_CONFIG) {
      continue;
    }
    size_t cfi = vertex_of(g, cfg);
    const vertex *cv = &g->v[cfi];
    bool deferred = false;
    for (size_t k = 0; k < cv->given_edges && !deferred; k++) {
      deferred = later_component(g, ci, cv->edges[k].to);
    }
    deferred = deferred && input_reaches(g, cfi, ci);
    any |= deferred;
    for (size_t k = 0; deferred && k < n->component.inputs.count; k++) {
      if (n->component.inputs.items[k].name == cfg->logical_name) {
        n->component.inputs.items[k].deferred = true;
      }
    }
  }
  return any;
}

/* Records every wait of vertex vi (see the file header). */
static void add_waits(graph *g, size_t vi) {
  const bnd_node *n = g->v[vi].node;
  size_t owner = g->v[vi].owner;
  bool calls = false, registers = false;
  switch (n->kind) {
  case BND_LOCAL:
    read_expr(g, vi, n->local, &calls);
    break;
  case BND_CONFIG: {
    /* The component block's input, evaluated where the block is. */
    const bnd_component *cm = owner == SIZE_MAX ? NULL : &g->v[owner].node->component;
    const bnd_attr *given = NULL;
    for (size_t i = 0; cm && i < cm->inputs.count && !given; i++) {
      if (cm->inputs.items[i].name == n->logical_name) {
        given = &cm->inputs.items[i];
      }
    }
    if (!given) {
      read_expr(g, vi, n->config.default_, &calls);
      break;
    }
    bool outer_calls = false;
    read_expr(g, vi, given->value, &outer_calls);
    g->v[vi].given_edges = g->v[vi].nedges;
    read_expr(g, vi, cm->options.opt[BND_OPT_RANGE], &outer_calls);
    size_t grand = g->v[owner].owner;
    if (outer_calls && grand != SIZE_MAX) {
      add_edge(g, vi, grand, given->value->span, true);
    }
    break;
  }
  case BND_RESOURCE:
  case BND_READ:
    read_block(g, vi, &n->resource.inputs, &n->resource.options, &calls);
    registers = true;
    break;
  case BND_COMPONENT:
    for (size_t i = 0; i < n->component.inputs.count; i++) {
      if (!n->component.inputs.items[i].deferred) {
        read_expr(g, vi, n->component.inputs.items[i].value, &calls);
      }
    }
    for (size_t i = 0; i < BND_OPT_COUNT; i++) {
      read_expr(g, vi, n->component.options.opt[i], &calls);
    }
    registers = true;
    break;
  case BND_OUTPUT:
    read_expr(g, vi, n->output.value, &calls);
    break;
  case BND_PULUMI:
    read_expr(g, vi, n->pulumi_version, &calls);
    break;
  case BND_HOOK:
    read_expr(g, vi, n->hook.command, &calls);
    read_expr(g, vi, n->hook.on_dry_run, &calls);
    read_expr(g, vi, n->hook.ignore_errors, &calls);
    break;
  }
  if (owner != SIZE_MAX && (registers || calls)) {
    add_edge(g, vi, owner, n->name_span, true);
  }
}


/* Records the waits of vertex vi again, once its inputs are decided. */
static void redo_waits(graph *g, size_t vi) {
  vertex *v = &g->v[vi];
  for (size_t k = 0; k < v->nedges; k++) {
    g->v[v->edges[k].to].waited_by = 0;
  }
  v->nedges = 0;
  add_waits(g, vi);
}

/* Reports the cycle that closes at stack[from..top] -> stack[from],
   starting it at its outermost vertex (the first one found at the smallest
   nesting depth), and located at that vertex's name, or at the component
   block whose program holds it. */
static void report(graph *g, const size_t *stack, size_t from, size_t top) {
  size_t n = top - from + 1, start = from;
  for (size_t i = from; i <= top; i++) {
    const vertex *a = &g->v[stack[i]], *b = &g->v[stack[start]];
    if (a->depth < b->depth || (a->depth == b->depth && stack[i] < stack[start])) {
      start = i;
    }
  }
  bind_cycle_step *steps = xmalloc(n * sizeof *steps);
  for (size_t k = 0; k < n; k++) {
    size_t i = from + (start - from + k) % n;
    const vertex *a = &g->v[stack[i]];
    const edge *e = &a->edges[a->next - 1];
    steps[k] = (bind_cycle_step){a->label, g->v[e->to].label, e->where, e->parent};
  }
  const vertex *s = &g->v[stack[start]];
  pcl_span at = s->owner == SIZE_MAX ? s->node->name_span : g->v[s->owner].node->name_span;
  bind_report_cycle(g->c, at, steps, n);
  free(steps);
}

/* Walks the graph from vertex root (depth-first, with a stack of vertices
   whose next edge each vertex keeps) and reports each cycle found. */
static void walk(graph *g, size_t root, size_t **stackp, size_t *capp) {
  if (g->v[root].state != UNVISITED) {
    return;
  }
  size_t *stack = *stackp;
  size_t top = 0;
  stack[0] = root;
  g->v[root].state = VISITING;
  for (;;) {
    vertex *v = &g->v[stack[top]];
    if (v->next == v->nedges) {
      v->state = DONE;
      if (top == 0) {
        break;
      }
      top--;
      continue;
    }
    size_t d = v->edges[v->next++].to;
    if (g->v[d].state == DONE) {
      continue;
    }
    if (g->v[d].state == VISITING) {
      size_t from = top;
      while (stack[from] != d) {
        from--;
      }
      report(g, stack, from, top);
      continue;
    }
    PCL__GROW(*stackp, *capp, top + 2);
    stack = *stackp;
    stack[++top] = d;
    g->v[d].state = VISITING;
  }
}

void bind_check_deferred_outputs(bind_ctx *c, const bnd_program *p) {
  /* Without component programs the evaluation order has every cycle. */
  bool components = false;
  for (size_t i = 0; i < p->count && !components; i++) {
    components = program_of(p->nodes[i]) != NULL;
  }
  if (!components) {
    return;
  }
  graph g = {0};
  g.c = c;
  /* The vertices, program by program: the top level, then the programs of
     the components in the order their blocks were added. */
  add_program(&g, p, SIZE_MAX);
  for (size_t i = 0; i < g.n; i++) {
    const bnd_program *q = program_of(g.v[i].node);
    if (q) {
      add_program(&g, q, i);
    }
  }
  for (size_t i = 0; i < g.n; i++) {
    add_waits(&g, i);
  }
  /* The deferred inputs, decided on the graph so far, then the waits of
     the registrations that leave them out. */
  bool *redo = xcalloc(g.n + 1, sizeof *redo);
  for (size_t i = 0; i < g.n; i++) {
    redo[i] = program_of(g.v[i].node) && mark_deferred_inputs(&g, i);
  }
  for (size_t i = 0; i < g.n; i++) {
    if (redo[i]) {
      redo_waits(&g, i);
    }
  }
  free(redo);
  size_t cap = 64;
  size_t *stack = xmalloc(cap * sizeof *stack);
  for (size_t i = 0; i < g.n; i++) {
    walk(&g, i, &stack, &cap);
  }
  free(stack);
  for (size_t i = 0; i < g.n; i++) {
    free(g.v[i].edges);
  }
  free(g.v);
  ptrmap_free(&g.index);
  ptrmap_free(&g.alias);
}
