/* bind_graph: the dependency graph of a program and its evaluation order
 * (program.md §10.4, §10.5).
 *
 * The dependencies of a node are collected syntactically: every root name
 * of a traversal and every call name that names a node, except inside the
 * property-path options of resources.  A depth-first walk from every node in
 * source order (the pulumi block first) then gives the evaluation order,
 * dependencies first, and reports every back edge as a cycle with its
 * path; two different components may refer to each other.  The walk keeps
 * an explicit stack, so chains of any length cannot overflow the C stack. */
#include <stdlib.h>
#include <string.h>

#include "bind_impl.h"
#include "util.h"

/* A cycle diagnostic lists at most this many references. */
enum { MAX_CYCLE_NOTES = 16 };

static bool is_path_option(const char *name) {
#define X(id, text, path)                                                                \
  if (path && strcmp(name, text) == 0) {                                                 \
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
  if (st->tmp.count == st->tmp_cap) {
    st->tmp_cap = st->tmp_cap ? st->tmp_cap * 2 : 16;
    st->tmp_spans = xrealloc(st->tmp_spans, st->tmp_cap * sizeof *st->tmp_spans);
  }
  st->tmp_spans[st->tmp.count] = where;
  bind_vec_push(&st->tmp, n);
}

/* Collects the dependencies of an expression or body item (iterative over
   lists, recursive over nesting, which the parser bounds). */
static void collect(bind_ctx *c, const ast_node *e, bool in_resource) {
  if (!e) {
    return;
  }
  switch (e->kind) {
  case AST_ATTRIBUTE:
    collect(c, e->attribute.value, false);
    return;
  case AST_BLOCK: {
    bool options = in_resource && strcmp(e->block.type.text, "options") == 0;
    for (size_t i = 0; i < e->block.body.count; i++) {
      const ast_node *it = e->block.body.items[i];
      if (options && it->kind == AST_ATTRIBUTE && is_path_option(it->attribute.name.text)) {
        continue;
      }
      collect(c, it, false);
    }
    return;
  }
  case AST_NUMBER:
  case AST_BOOL:
  case AST_NULL:
  case AST_TEMPLATE_LITERAL:
  case AST_SPLAT_ITEM:
    return;
  case AST_VARIABLE:
    add_dep(c, e->variable.name, e->span);
    return;
  case AST_TEMPLATE:
    for (size_t i = 0; i < e->template.parts.count; i++) {
      collect(c, e->template.parts.items[i], false);
    }
    return;
  case AST_TEMPLATE_IF:
    collect(c, e->tif.cond, false);
    collect(c, e->tif.then, false);
    collect(c, e->tif.else_, false);
    return;
  case AST_TEMPLATE_FOR:
    collect(c, e->tfor.collection, false);
    collect(c, e->tfor.body, false);
    return;
  case AST_GET_ATTR:
    collect(c, e->get_attr.object, false);
    return;
  case AST_INDEX:
    collect(c, e->index.collection, false);
    collect(c, e->index.key, false);
    return;
  case AST_SPLAT:
    collect(c, e->splat.source, false);
    collect(c, e->splat.each, false);
    return;
  case AST_CALL:
    add_dep(c, e->call.name.text, e->call.name.span);
    for (size_t i = 0; i < e->call.args.count; i++) {
      collect(c, e->call.args.items[i], false);
    }
    return;
  case AST_TUPLE:
    for (size_t i = 0; i < e->tuple.items.count; i++) {
      collect(c, e->tuple.items.items[i], false);
    }
    return;
  case AST_OBJECT:
    for (size_t i = 0; i < e->object.items.count; i++) {
      collect(c, e->object.items.items[i], false);
    }
    return;
  case AST_OBJECT_ITEM:
    /* A bare-name key is a literal, not a reference. */
    if (e->item.key->kind != AST_VARIABLE) {
      collect(c, e->item.key, false);
    }
    collect(c, e->item.value, false);
    return;
  case AST_FOR:
    collect(c, e->for_expr.collection, false);
    collect(c, e->for_expr.key, false);
    collect(c, e->for_expr.value, false);
    collect(c, e->for_expr.cond, false);
    return;
  case AST_UNARY:
    collect(c, e->unary.operand, false);
    return;
  case AST_BINARY:
    collect(c, e->binary.lhs, false);
    collect(c, e->binary.rhs, false);
    return;
  case AST_CONDITIONAL:
    collect(c, e->cond.cond, false);
    collect(c, e->cond.then, false);
    collect(c, e->cond.else_, false);
    return;
  case AST_PAREN:
    collect(c, e->paren.inner, false);
    return;
  }
  ice("bad AST kind %d", (int)e->kind);
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
    collect(c, s->attribute.value, false);
  } else {
    bool res = n->kind == BND_RESOURCE || n->kind == BND_READ;
    for (size_t i = 0; i < s->block.body.count; i++) {
      collect(c, s->block.body.items[i], res);
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

/* Reports the cycle that closes at stack[from..top] -> stack[from]. */
static void report_cycle(bind_ctx *c, frame *stack, size_t from, size_t top) {
  bnd_node *start = stack[from].node;
  diag *d = diag_error(c->diag, start->name_span, "circular reference");
  size_t len = top - from + 1;
  for (size_t i = from; i <= top; i++) {
    /* A long cycle shows its first references and the one closing it. */
    size_t k = i - from;
    if (len > MAX_CYCLE_NOTES && k >= MAX_CYCLE_NOTES - 1 && i < top) {
      continue;
    }
    bnd_node *a = stack[i].node;
    bnd_node *b = i < top ? stack[i + 1].node : start;
    pcl_span where = c->st->dep_spans[a->index][stack[i].next - 1];
    if (len > MAX_CYCLE_NOTES && i == top) {
      diag_note(d, where, "'%s' refers to '%s' here (after %zu more references)", a->name,
                b->name, len - MAX_CYCLE_NOTES);
    } else {
      diag_note(d, where, "'%s' refers to '%s' here", a->name, b->name);
    }
  }
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
    if (top + 1 == *capp) {
      *capp *= 2;
      *stackp = xrealloc(*stackp, *capp * sizeof **stackp);
      stack = *stackp;
    }
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
