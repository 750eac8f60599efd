/* bind_graph: the dependency graph of a program and its evaluation order
 * (program.md §10.4, §10.5).
 *
 * The dependencies of a node are collected syntactically: every root name
 * of a traversal and every call name that names a node, except inside the
 * property-path options of resources.  A depth-first walk from every node in
 * source order (the pulumi block first) then gives the evaluation order,
 * dependencies first, and reports every back edge as a cycle with its
 * path; two different components may refer to each other.  The names are
 * collected recursively, as expressions nest; the walk of the graph keeps
 * the path it follows in an array, since a cycle's report prints it, and a
 * path is as long as a chain of references, which grows with the
 * program's length rather than its nesting. */
#include <stdlib.h>
#include <string.h>

#include "bind/bind_impl.h"
#include "base/stack.h"
#include "base/util.h"

/* A cycle diagnostic lists at most this many references. */
enum { MAX_CYCLE_NOTES = 16 };

static bool is_path_option(const char *name) {
#define X(id, text, path)                                                                \
  if ((path) && strcmp(name, text) == 0) {                                               \
    return true;                                                                         \
  }
  BND_OPTIONS(X)
#undef X
  return false;
}

/* Records that the node being collected refers to name at where, if name is
   a node and was not recorded yet (the stamp marks nodes already seen). */
static void add_dep(bind_ctx *c, const char *name, pcl_span where) {
  struct bind_state *st = c->st;
  bnd_node *n = bind_lookup(c, name);
  if (!n || st->mark[n->index] == st->stamp) {
    return;
  }
  st->mark[n->index] = st->stamp;
  PCL__GROW(st->tmp_spans, st->tmp_cap, st->tmp.count + 1);
  st->tmp_spans[st->tmp.count] = where;
  bind_vec_push(&st->tmp, n);
}

static void collect(bind_ctx *c, const ast_node *e);

static void collect_kid(void *c, const ast_node *kid) { collect(c, kid); }

/* Collects the dependencies of an expression or body item e (which may be
   NULL), visiting names in source order (the first reference of each
   dependency is the one cycle notes show): a name and a call's function are
   dependencies, a bare-name object key is a literal, not a reference. */
static void collect(bind_ctx *c, const ast_node *e) {
  if (!e || stack_too_deep(&c->too_deep, c->diag, e->span)) {
    return;
  }
  if (e->kind == AST_VARIABLE) {
    add_dep(c, e->variable.name, e->span);
  } else if (e->kind == AST_CALL) {
    add_dep(c, e->call.name.text, e->call.name.span);
  } else if (e->kind == AST_OBJECT_ITEM && e->item.key->kind == AST_VARIABLE) {
    collect(c, e->item.value);
    return;
  }
  ast_each_child(e, collect_kid, c);
}

/* A dependency with the span of its first reference. */
typedef struct dep_ref {
  bnd_node *node;
  pcl_span span;
} dep_ref;

/* Orders dependency references by the declaration index of their node. */
static int dep_cmp(const void *a, const void *b) {
  const dep_ref *x = a, *y = b;
  return x->node->index < y->node->index ? -1 : x->node->index > y->node->index;
}

/* Computes n->deps: every node its syntax names, sorted by declaration
   index and without duplicates, and the span of the first reference to
   each (for cycle notes). */
void bind_compute_deps(bind_ctx *c, bnd_node *n) {
  struct bind_state *st = c->st;
  st->stamp++;
  st->tmp.count = 0;
  const ast_node *s = n->syntax;
  if (s->kind == AST_ATTRIBUTE) {
    collect(c, s->attribute.value);
  } else {
    bool res = n->kind == BND_RESOURCE || n->kind == BND_READ;
    for (size_t i = 0; i < s->block.body.count; i++) {
      const ast_node *it = s->block.body.items[i];
      if (!(res && it->kind == AST_BLOCK && strcmp(it->block.type.text, "options") == 0)) {
        collect(c, it);
        continue;
      }
      /* The property-path options of a resource name its inputs, not
         nodes. */
      for (size_t j = 0; j < it->block.body.count; j++) {
        const ast_node *o = it->block.body.items[j];
        if (!(o->kind == AST_ATTRIBUTE && is_path_option(o->attribute.name.text))) {
          collect(c, o);
        }
      }
    }
  }
  size_t k = st->tmp.count;
  n->ndeps = k;
  n->deps = k ? ARENA_NEW_ARRAY(c->arena, bnd_node *, k) : NULL;
  pcl_span *spans = k ? ARENA_NEW_ARRAY(c->arena, pcl_span, k) : NULL;
  /* Sort by declaration index, keeping each dependency's first reference. */
  dep_ref *refs = k ? xmalloc(k * sizeof *refs) : NULL;
  for (size_t i = 0; i < k; i++) {
    refs[i] = (dep_ref){st->tmp.items[i], st->tmp_spans[i]};
  }
  if (k) {
    qsort(refs, k, sizeof *refs, dep_cmp);
  }
  for (size_t i = 0; i < k; i++) {
    n->deps[i] = refs[i].node;
    spans[i] = refs[i].span;
  }
  free(refs);
  st->dep_spans[n->index] = spans;
}

/* ------------------------------------------------------- order, cycles */

enum { UNVISITED = 0, VISITING = 1, DONE = 2 };

typedef struct frame {
  bnd_node *node;
  size_t next; /* Next dependency to visit. */
} frame;

void bind_report_cycle(bind_ctx *c, pcl_span at, const bind_cycle_step *steps, size_t n) {
  diag *d = diag_error(c->diag, at, "circular reference");
  for (size_t i = 0; i < n; i++) {
    /* A long cycle shows its first references and the one closing it. */
    if (n > MAX_CYCLE_NOTES && i >= MAX_CYCLE_NOTES - 1 && i + 1 < n) {
      continue;
    }
    const bind_cycle_step *s = &steps[i];
    const char *more = "";
    if (n > MAX_CYCLE_NOTES && i + 1 == n) {
      more = arena_printf(c->arena, " (after %zu more references)", n - MAX_CYCLE_NOTES);
    }
    if (s->parent) {
      diag_note(d, s->where, "'%s' waits for the registration of '%s', its parent%s", s->from,
                s->to, more);
    } else {
      diag_note(d, s->where, "'%s' refers to '%s' here%s", s->from, s->to, more);
    }
  }
}

/* Reports the cycle that closes at stack[from..top] -> stack[from]. */
static void report_cycle(bind_ctx *c, frame *stack, size_t from, size_t top) {
  size_t n = top - from + 1;
  bind_cycle_step *steps = xmalloc(n * sizeof *steps);
  for (size_t i = from; i <= top; i++) {
    bnd_node *a = stack[i].node;
    bnd_node *b = i < top ? stack[i + 1].node : stack[from].node;
    steps[i - from] = (bind_cycle_step){a->name, b->name,
                                        c->st->dep_spans[a->index][stack[i].next - 1], false};
  }
  bind_report_cycle(c, stack[from].node->name_span, steps, n);
  free(steps);
}

/* Depth-first walk from root with an explicit stack (chains of any length
   cannot overflow the C stack): appends every node to order after its
   dependencies and reports each back edge as a cycle. */
static void visit(bind_ctx *c, bnd_node *root, node_vec *order, frame **stackp, size_t *capp) {
  if (root->state != UNVISITED) {
    return;
  }
  frame *stack = *stackp;
  size_t top = 0;
  stack[0] = (frame){root, 0};
  root->state = VISITING;
  for (;;) {
    frame *f = &stack[top];
    if (f->next == f->node->ndeps) {
      f->node->state = DONE;
      bind_vec_push(order, f->node);
      if (top == 0) {
        break;
      }
      top--;
      continue;
    }
    bnd_node *d = f->node->deps[f->next++];
    if (d->state == DONE) {
      continue;
    }
    if (d->state == VISITING) {
      if (d->kind == BND_COMPONENT && f->node->kind == BND_COMPONENT && d != f->node) {
        continue; /* Mutually dependent components are allowed. */
      }
      size_t from = top;
      while (stack[from].node != d) {
        from--;
      }
      report_cycle(c, stack, from, top);
      continue;
    }
    PCL__GROW(*stackp, *capp, top + 2);
    stack = *stackp;
    stack[++top] = (frame){d, 0};
    d->state = VISITING;
  }
}

/* Fixes the evaluation order: a walk from every node in source order,
   starting with the pulumi block so that the version gate comes first. */
void bind_compute_order(bind_ctx *c) {
  struct bind_state *st = c->st;
  node_vec order = {0};
  size_t cap = 64;
  frame *stack = xmalloc(cap * sizeof *stack);
  if (st->pulumi) {
    visit(c, st->pulumi, &order, &stack, &cap);
  }
  for (size_t i = 0; i < st->nodes.count; i++) {
    visit(c, st->nodes.items[i], &order, &stack, &cap);
  }
  free(stack);
  bnd_program *p = st->prog;
  p->order = order.count ? ARENA_NEW_ARRAY(c->arena, bnd_node *, order.count) : NULL;
  if (order.count) {
    memcpy(p->order, order.items, order.count * sizeof *order.items);
  }
  free(order.items);
}
