/* repr.c: the short printable form of a value that messages quote
 * (pcl_value_repr): JSON-like, cut at a maximum length on a UTF-8
 * boundary, "[secret]" for a secret or inside a redaction scope.  The
 * containers entered are kept on an explicit stack, so any depth is safe. */
#include <stdlib.h>

#include "value/pcl_internal.h"

/* ------------------------------------------------------------------ repr */

/* A container being printed by repr. */
typedef struct repr_frame {
  const pcl_value *v; /* The list, set, map, resource, asset or archive. */
  size_t next;        /* Its next part to print. */
} repr_frame;

/* Appends the opening of v's printed form to b and returns whether v is a
 * container whose parts repr prints next (then closes it); prints a scalar
 * whole and returns false. */
static bool repr_open(pcl_strbuf *b, const pcl_value *v, size_t max) {
  switch ((pcl_kind)v->kind) {
  case PCL_T_NULL:
    pcl_strbuf_append_cstr(b, "null");
    return false;
  case PCL_T_BOOL:
    pcl_strbuf_append_cstr(b, v->u.b ? "true" : "false");
    return false;
  case PCL_T_INT:
    pcl__int_format_prefix(b, v, max);
    return false;
  case PCL_T_NUMBER:
    pcl_number_format(b, v->u.d);
    return false;
  case PCL_T_STRING:
    pcl__json_quote(b, v->u.str.ptr, v->u.str.len > max ? max : v->u.str.len, false);
    return false;
  case PCL_T_LIST:
  case PCL_T_SET:
    pcl_strbuf_append_char(b, '[');
    return true;
  case PCL_T_MAP:
    pcl_strbuf_append_char(b, '{');
    return true;
  case PCL_T_RESOURCE:
    pcl_strbuf_append_cstr(b, "resource(");
    return true;
  case PCL_T_ASSET:
  case PCL_T_ARCHIVE:
    pcl_strbuf_append_cstr(b, pcl_kind_name((pcl_kind)v->kind));
    pcl_strbuf_append_char(b, '(');
    return true;
  case PCL_T_UNKNOWN:
    pcl_strbuf_append_cstr(b, "(unknown)");
    return false;
  case PCL_T_SECRET:
    /* Never the payload: messages must not show a secret. */
    pcl_strbuf_append_cstr(b, "[secret]");
    return false;
  case PCL_T_EVENTUAL:
    pcl_strbuf_append_char(b, '(');
    pcl_strbuf_append_cstr(b, v->u.ev.ops->name);
    pcl_strbuf_append_char(b, ')');
    return false;
  }
  return false;
}

/* Appends a printable form of v to b, stopping early once b exceeds max.
 * The containers entered are kept on an explicit stack. */
static void repr(pcl_strbuf *b, const pcl_value *v, size_t max) {
  repr_frame small[16];
  repr_frame *stack = small;
  size_t depth = 0, cap = sizeof small / sizeof small[0];
  for (;;) {
    if (repr_open(b, v, max)) {
      if (depth == cap) {
        stack = pcl__grow_array(stack, small, &cap, sizeof *stack);
      }
      stack[depth++] = (repr_frame){v, 0};
    }
    v = NULL;
    while (depth > 0 && v == NULL) {
      repr_frame *f = &stack[depth - 1];
      const pcl_value *c = f->v;
      size_t n = c->kind == PCL_T_MAP ? c->u.map.n
                 : c->kind == PCL_T_LIST || c->kind == PCL_T_SET ? c->u.list.n
                                                                  : 1;
      if (f->next == n || b->len > max) {
        pcl_strbuf_append_char(b, c->kind == PCL_T_MAP                              ? '}'
                                  : c->kind == PCL_T_LIST || c->kind == PCL_T_SET ? ']'
                                                                                    : ')');
        depth--;
        continue;
      }
      size_t i = f->next++;
      if (i > 0) {
        pcl_strbuf_append_cstr(b, ", ");
      }
      if (c->kind == PCL_T_MAP) {
        repr_open(b, c->u.map.keys[i], max);
        pcl_strbuf_append_cstr(b, ": ");
        v = c->u.map.vals[i];
      } else if (c->kind == PCL_T_LIST || c->kind == PCL_T_SET) {
        v = c->u.list.items[i];
      } else {
        v = c->u.ref.a;
      }
    }
    if (v == NULL) {
      break;
    }
  }
  if (stack != small) {
    free(stack);
  }
}

char *pcl_value_repr(const pcl_value *v, size_t max) {
  pcl_strbuf b = PCL_STRBUF_INIT;
  if (pcl__redacting()) {
    /* A message about an operation on a secret shows no operand. */
    pcl_strbuf_append_cstr(&b, "[secret]");
    return b.data;
  }
  repr(&b, v, max);
  if (b.len > max) {
    /* Cut at a UTF-8 boundary and mark the cut. */
    size_t n = max;
    while (n > 0 && ((unsigned char)b.data[n] & 0xC0) == 0x80) {
      n--;
    }
    b.len = n;
    pcl_strbuf_append_cstr(&b, "...");
  }
  if (b.data == NULL) {
    pcl_strbuf_append(&b, "", 0);
  }
  return b.data;
}
