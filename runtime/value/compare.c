/* compare.c: deep equality and the total order of values, the order of set
 * elements.  Secrecy is a mark, not part of the value, so both ignore it;
 * ints and numbers compare by their exact values.  The walk keeps the
 * containers entered on an explicit stack, so any depth is safe. */
#include <stdlib.h>
#include <string.h>

#include "value/pcl_internal.h"

/* ------------------------------------------------------ equality and order */

/* The rank of a kind in the total order; ints and numbers share one. */
static int kind_rank(pcl_kind k) {
  return k == PCL_T_INT ? (int)PCL_T_NUMBER : (int)k;
}

static int cmp_sizes(size_t a, size_t b) { return a < b ? -1 : a > b; }

/* Returns v without its SECRET wrappers (borrowed from v): secrecy is a
 * mark, not part of the value, so equality and order ignore it. */
static const pcl_value *unmarked(const pcl_value *v) {
  while (v->kind == PCL_T_SECRET) {
    v = v->u.ref.a;
  }
  return v;
}

/* Two containers of one kind being compared part by part. */
typedef struct cmp_frame {
  const pcl_value *a, *b; /* The containers. */
  size_t next;            /* The next part to compare. */
  size_t n;               /* The parts both have. */
} cmp_frame;

/* Compares the pair a, b at the top level: returns the order it decides
 * alone (scalars, kinds, map keys are not looked at here), or sets *enter
 * for two containers, *n to the number of parts to compare in turn (their
 * sizes decide when those are equal), and returns 0. */
static int cmp_shallow(const pcl_value *a, const pcl_value *b, bool *enter, size_t *n) {
  *n = 0;
  *enter = false;
  if (a == b) {
    return 0;
  }
  int ra = kind_rank((pcl_kind)a->kind), rb = kind_rank((pcl_kind)b->kind);
  if (ra != rb) {
    return ra < rb ? -1 : 1;
  }
  switch ((pcl_kind)a->kind) {
  case PCL_T_NULL:
  case PCL_T_UNKNOWN:
    return 0;
  case PCL_T_BOOL:
    return (int)a->u.b - (int)b->u.b;
  case PCL_T_INT:
  case PCL_T_NUMBER:
    return pcl_num_compare(a, b);
  case PCL_T_STRING:
    return pcl__str_order(a, b);
  case PCL_T_LIST:
  case PCL_T_SET:
    *enter = true;
    *n = a->u.list.n < b->u.list.n ? a->u.list.n : b->u.list.n;
    return 0;
  case PCL_T_MAP:
    *enter = true;
    *n = a->u.map.n < b->u.map.n ? a->u.map.n : b->u.map.n;
    return 0;
  case PCL_T_RESOURCE:
    *enter = true;
    *n = 3;
    return 0;
  case PCL_T_ASSET:
  case PCL_T_ARCHIVE:
    if (a->sub != b->sub) {
      return a->sub < b->sub ? -1 : 1;
    }
    *enter = true;
    *n = 1;
    return 0;
  case PCL_T_EVENTUAL:
    /* Eventual values have no content yet; only identity orders them.  That
     * order depends on addresses, so sets may not hold eventual values. */
    if (a->u.ev.ptr == b->u.ev.ptr) {
      return 0;
    }
    return (uintptr_t)a->u.ev.ptr < (uintptr_t)b->u.ev.ptr ? -1 : 1;
  case PCL_T_SECRET:
    break;
  }
  return 0;
}

/* Returns part i of the RESOURCE, ASSET or ARCHIVE v: urn, id, version of
 * a resource, the payload of the others. */
static const pcl_value *ref_part(const pcl_value *v, size_t i) {
  return i == 0 ? v->u.ref.a : i == 1 ? v->u.ref.b : v->u.ref.c;
}

/* Returns the order of the containers' sizes, decided once every part they
 * share compared equal. */
static int cmp_tail(const cmp_frame *f) {
  switch ((pcl_kind)f->a->kind) {
  case PCL_T_LIST:
  case PCL_T_SET:
    return cmp_sizes(f->a->u.list.n, f->b->u.list.n);
  case PCL_T_MAP:
    return cmp_sizes(f->a->u.map.n, f->b->u.map.n);
  case PCL_T_RESOURCE:
  case PCL_T_ASSET:
  case PCL_T_ARCHIVE:
  case PCL_T_NULL:
  case PCL_T_BOOL:
  case PCL_T_INT:
  case PCL_T_NUMBER:
  case PCL_T_STRING:
  case PCL_T_UNKNOWN:
  case PCL_T_SECRET:
  case PCL_T_EVENTUAL:
    break;
  }
  return 0;
}

int pcl_compare(const pcl_value *a, const pcl_value *b) {
  /* The order is lexicographic, so the first pair that differs decides:
   * the walk keeps the containers entered on an explicit stack and returns
   * at the first difference. */
  cmp_frame small[16];
  cmp_frame *stack = small;
  size_t depth = 0, cap = sizeof small / sizeof small[0];
  int c = 0;
  for (;;) {
    a = unmarked(a);
    b = unmarked(b);
    size_t n;
    bool enter;
    c = cmp_shallow(a, b, &enter, &n);
    if (c != 0) {
      break;
    }
    if (enter) {
      if (depth == cap) {
        stack = pcl__grow_array(stack, small, &cap, sizeof *stack);
      }
      stack[depth++] = (cmp_frame){a, b, 0, n};
    }
    /* Find the next pair to compare: the next part of the innermost
     * container that has one left. */
    const pcl_value *na = NULL, *nb = NULL;
    while (depth > 0 && na == NULL) {
      cmp_frame *f = &stack[depth - 1];
      if (f->next == f->n) {
        c = cmp_tail(f);
        if (c != 0) {
          goto done;
        }
        depth--;
        continue;
      }
      size_t i = f->next++;
      switch ((pcl_kind)f->a->kind) {
      case PCL_T_LIST:
      case PCL_T_SET:
        na = f->a->u.list.items[i];
        nb = f->b->u.list.items[i];
        break;
      case PCL_T_MAP:
        c = pcl__str_order(f->a->u.map.keys[i], f->b->u.map.keys[i]);
        if (c != 0) {
          goto done;
        }
        na = f->a->u.map.vals[i];
        nb = f->b->u.map.vals[i];
        break;
      case PCL_T_RESOURCE:
      case PCL_T_ASSET:
      case PCL_T_ARCHIVE:
      case PCL_T_NULL:
      case PCL_T_BOOL:
      case PCL_T_INT:
      case PCL_T_NUMBER:
      case PCL_T_STRING:
      case PCL_T_UNKNOWN:
      case PCL_T_SECRET:
      case PCL_T_EVENTUAL:
        na = ref_part(f->a, i);
        nb = ref_part(f->b, i);
        break;
      }
    }
    if (na == NULL) {
      break;
    }
    a = na;
    b = nb;
  }
done:
  if (stack != small) {
    free(stack);
  }
  return c;
}

bool pcl_equal(const pcl_value *a, const pcl_value *b) {
  a = unmarked(a);
  b = unmarked(b);
  if (a == b) {
    return true;
  }
  if (kind_rank((pcl_kind)a->kind) != kind_rank((pcl_kind)b->kind)) {
    return false;
  }
  if (a->kind == PCL_T_STRING) {
    return a->u.str.len == b->u.str.len && memcmp(a->u.str.ptr, b->u.str.ptr, a->u.str.len) == 0;
  }
  if ((a->kind == PCL_T_LIST || a->kind == PCL_T_SET) && a->u.list.n != b->u.list.n) {
    return false;
  }
  if (a->kind == PCL_T_MAP && a->u.map.n != b->u.map.n) {
    return false;
  }
  return pcl_compare(a, b) == 0;
}
