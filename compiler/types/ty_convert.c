/* ty_convert: assignability, conversion and unification (types.md §3–§5,
 * with DECISIONS.md D3/D4) and the conversion-failure messages of §16.
 *
 * Each relation is written as the recursive rule of types.md that it
 * implements, one case per destination (or receiver) kind.  Conversion
 * follows the reference's shared prelude (equality, dynamic destination,
 * union source, constant source, dynamic source) and then one rule per
 * destination kind.  The `unifying` flag only changes tuple→tuple and
 * object→object, which then report the kind the two types unify with.
 * Results are memoised in the context only for types that reach no named
 * object, and under a different key for each value of the flag, so the
 * flag cannot leak between uses (§4.1 note).
 * Recursive named objects are handled coinductively: a (destination, source)
 * pair that is already being compared is assumed to convert safely, to be
 * assignable, and to unify to the destination.
 *
 * Types nest as deep as the input, and so does this recursion: each rule
 * first asks ty_deep (ty_impl.h) whether the stack has room, and when it
 * has not, answers as if the types matched (true, safe, the first type),
 * which the checker then reports as "expression nested too deeply".
 *
 * A conversion asked for the reason of its failure (§16) collects it in
 * *why: the first reason a failing rule records explains the failure of the
 * whole conversion, since reasons are recorded only on paths whose result is
 * none. */
#include <stdlib.h>
#include <string.h>

#include "types/ty.h"
#include "types/ty_impl.h"
#include "base/util.h"

static ty_conv conv_min(ty_conv a, ty_conv b) { return a < b ? a : b; }
static ty_conv conv_max(ty_conv a, ty_conv b) { return a > b ? a : b; }

const char *ty_conv_name(ty_conv k) {
  switch (k) {
  case TY_CONV_NONE:
    return "none";
  case TY_CONV_UNSAFE:
    return "unsafe";
  case TY_CONV_SAFE:
    return "safe";
  }
  ice("bad conversion kind %d", (int)k);
}

/* ------------------------------------------------------- assignability */

static bool assignable(ty_ctx *c, const ty *to, const ty *from);

/* Whether every element (tuple) or property type (object) of from is
   assignable to elem, the element of a list or map. */
static bool kids_assignable(ty_ctx *c, const ty *elem, const ty *from) {
  size_t n = ty_kid_count(from);
  for (size_t i = 0; i < n; i++) {
    if (!assignable(c, elem, ty_kid(from, i)))
      return false;
  }
  return true;
}

/* §3: whether `to` is assignable from `from`. */
static bool assignable(ty_ctx *c, const ty *to, const ty *from) {
  if (to == from || to->kind == TY_DYNAMIC)
    return true;
  if (ty_deep(c))
    return true;
  if (from->kind == TY_CONST)
    return assignable(c, to, from->cnst.base);
  switch (to->kind) {
  case TY_BOOL:
  case TY_INT:
  case TY_NUMBER:
  case TY_STRING:
  case TY_ID:
  case TY_DYNAMIC:
  case TY_NONE:
  case TY_OPAQUE:
  case TY_CONST:
  case TY_ENUM:
    return false;
  case TY_LIST:
    if (from->kind == TY_LIST)
      return assignable(c, to->elem, from->elem);
    if (from->kind == TY_TUPLE)
      return kids_assignable(c, to->elem, from);
    return false;
  case TY_MAP:
    if (from->kind == TY_MAP)
      return assignable(c, to->elem, from->elem);
    if (from->kind == TY_OBJECT)
      return kids_assignable(c, to->elem, from);
    return false;
  case TY_SET:
    return from->kind == TY_SET && assignable(c, to->elem, from->elem);
  case TY_TUPLE:
    /* Extra source elements are ignored; a missing one is none. */
    if (from->kind != TY_TUPLE)
      return false;
    for (size_t i = 0; i < to->elems.count; i++) {
      const ty *f = i < from->elems.count ? from->elems.items[i] : ty_none(c);
      if (!assignable(c, to->elems.items[i], f))
        return false;
    }
    return true;
  case TY_OBJECT: {
    /* Extra source properties are ignored; a missing one is none. */
    if (from->kind != TY_OBJECT)
      return false;
    if (!ty_busy_push(c, to, from, TY_BUSY_ASSIGN))
      return true;
    bool ok = true;
    for (size_t i = 0; ok && i < to->object.count; i++) {
      const ty *fp = ty_object_get(from, to->object.props[i].name);
      ok = assignable(c, to->object.props[i].type, fp ? fp : ty_none(c));
    }
    ty_busy_pop(c);
    return ok;
  }
  case TY_UNION:
    /* Some member accepts the whole source (a source union is not split). */
    for (size_t i = 0; i < to->elems.count; i++) {
      if (assignable(c, to->elems.items[i], from))
        return true;
    }
    return false;
  case TY_OUTPUT:
    if (from->kind == TY_OUTPUT)
      return assignable(c, to->elem, from->elem);
    if (from->kind == TY_PROMISE)
      return assignable(c, to->elem, ty_resolve_outputs(c, from->elem));
    return assignable(c, to->elem, from);
  case TY_PROMISE:
    return assignable(c, to->elem, from->kind == TY_PROMISE ? from->elem : from);
  }
  ice("bad type kind %d", (int)to->kind);
}

/* ---------------------------------------------------------- conversion */

/* Primitive destinations (§4.2 table, D3: int → number and int → string are
 * safe, number → int and string → int unsafe). */
static ty_conv conv_primitive(const ty *to, const ty *from) {
  ty_kind s = from->kind;
  switch (to->kind) {
  case TY_NUMBER:
    if (s == TY_INT)
      return TY_CONV_SAFE;
    return s == TY_STRING || s == TY_ID || s == TY_BOOL ? TY_CONV_UNSAFE : TY_CONV_NONE;
  case TY_INT:
    return s == TY_NUMBER || s == TY_STRING || s == TY_ID || s == TY_BOOL ? TY_CONV_UNSAFE
                                                                         : TY_CONV_NONE;
  case TY_STRING:
    return s == TY_BOOL || s == TY_INT || s == TY_NUMBER || s == TY_ID ? TY_CONV_SAFE
                                                                      : TY_CONV_NONE;
  case TY_BOOL:
    return s == TY_STRING || s == TY_ID || s == TY_INT || s == TY_NUMBER ? TY_CONV_UNSAFE
                                                                        : TY_CONV_NONE;
  case TY_ID:
    return s == TY_STRING || s == TY_BOOL || s == TY_INT || s == TY_NUMBER ? TY_CONV_SAFE
                                                                          : TY_CONV_NONE;
  case TY_DYNAMIC:
  case TY_NONE:
  case TY_OPAQUE:
  case TY_LIST:
  case TY_MAP:
  case TY_SET:
  case TY_TUPLE:
  case TY_OBJECT:
  case TY_UNION:
  case TY_OUTPUT:
  case TY_PROMISE:
  case TY_CONST:
  case TY_ENUM:
    break;
  }
  return TY_CONV_NONE;
}

static ty_conv conv(ty_ctx *c, const ty *to, const ty *from, bool unifying, const char **why);
static const ty *unify_tuples(ty_ctx *c, const ty *a, const ty *b, ty_conv *kind);
static const ty *unify_objects(ty_ctx *c, const ty *a, const ty *b, ty_conv *kind);

/* Records reason in *why (when a reason is wanted and none is recorded
   yet). */
static void set_reason(const char **why, const char *reason) {
  if (why && !*why)
    *why = reason;
}

/* The least kind of the conversions of the element or property types
   `to`'s rule pairs (list, map, tuple or object destination), from k:
   stops at the first that does not convert. */
static ty_conv conv_each(ty_ctx *c, const ty *to, const ty *from, bool unifying, ty_conv k,
                         const char **why) {
  size_t n = ty_kid_count(to->kind == TY_LIST || to->kind == TY_MAP ? from : to);
  for (size_t i = 0; i < n && k != TY_CONV_NONE; i++) {
    const ty *src = ty_kid(from, i);
    if (to->kind == TY_OBJECT && from->kind == TY_OBJECT) {
      const ty *fp = ty_object_get(from, to->object.props[i].name);
      src = fp ? fp : ty_none(c);
    }
    k = conv_min(k, conv(c, ty_kid(to, i), src, unifying, why));
  }
  return k;
}

/* Unsafe when some conversion exists (the destination's values are a
   subset of what the source converts to: a constant, an enum, a set). */
static ty_conv some(ty_conv k) { return k == TY_CONV_NONE ? TY_CONV_NONE : TY_CONV_UNSAFE; }

/* §4.4: conversion to `to` from every member of the union `from`. */
static ty_conv conv_from_union(ty_ctx *c, const ty *to, const ty *from, bool unifying,
                               const char **why) {
  bool all_safe = true;
  ty_conv k = TY_CONV_NONE;
  for (size_t i = 0; i < from->elems.count; i++) {
    ty_conv m = conv(c, to, from->elems.items[i], unifying, NULL);
    all_safe = all_safe && m == TY_CONV_SAFE;
    if (m != TY_CONV_NONE)
      k = TY_CONV_UNSAFE;
  }
  if (all_safe)
    return TY_CONV_SAFE;
  if (k == TY_CONV_NONE && why && !*why) {
    *why = arena_printf(c->arena, "cannot assign value of type %s to type %s",
                        diag_clip(c->arena, ty_pretty(c, from)),
                        diag_clip(c->arena, ty_pretty(c, to)));
  }
  return k;
}

/* §4.2: the destination-specific rules, after the prelude. */
static ty_conv conv_to(ty_ctx *c, const ty *to, const ty *from, bool u, const char **why) {
  switch (to->kind) {
  case TY_BOOL:
  case TY_INT:
  case TY_NUMBER:
  case TY_STRING:
  case TY_ID:
    return conv_primitive(to, from);
  case TY_DYNAMIC:
    return TY_CONV_SAFE;
  case TY_NONE:
  case TY_OPAQUE:
    return TY_CONV_NONE;
  case TY_CONST:
    /* Any value of a convertible type might be the constant: unsafe. */
    return some(conv(c, to->cnst.base, from, u, NULL));
  case TY_ENUM:
    /* Constants reach here unwrapped.  A member constant of a *different*
       base type is safe; everything else (including a string literal for a
       string enum, as the reference's condition is written) is at best
       unsafe. */
    if (from->kind == TY_CONST && to->enm.base != from->cnst.base) {
      for (size_t i = 0; i < to->enm.count; i++) {
        if (ty_value_equal(to->enm.values[i], from))
          return TY_CONV_SAFE;
      }
    }
    return some(conv(c, to->enm.base, from, u, NULL));
  case TY_LIST:
    /* Lists take lists and sets elementwise and tuples element by element
       (an empty tuple is safe). */
    if (from->kind == TY_LIST || from->kind == TY_SET)
      return conv(c, to->elem, from->elem, u, why);
    if (from->kind == TY_TUPLE)
      return conv_each(c, to, from, u, TY_CONV_SAFE, why);
    return TY_CONV_NONE;
  case TY_SET:
    /* Anything but a set may hold duplicates, so lists and tuples convert
       unsafely at best. */
    if (from->kind == TY_SET)
      return conv(c, to->elem, from->elem, u, why);
    if (from->kind == TY_LIST)
      return some(conv(c, to->elem, from->elem, u, why));
    if (from->kind == TY_TUPLE)
      return some(conv(c, ty_list(c, to->elem), from, u, why));
    return TY_CONV_NONE;
  case TY_MAP:
    /* Maps take maps and objects (every property must convert). */
    if (from->kind == TY_MAP)
      return conv(c, to->elem, from->elem, u, why);
    if (from->kind == TY_OBJECT)
      return conv_each(c, to, from, u, TY_CONV_SAFE, why);
    return TY_CONV_NONE;
  case TY_TUPLE:
    if (from->kind == TY_TUPLE) {
      if (u) {
        ty_conv k;
        unify_tuples(c, to, from, &k);
        return k;
      }
      if (to->elems.count != from->elems.count) {
        if (why && !*why) {
          *why = arena_printf(c->arena, "tuples %s and %s have different lengths",
                              diag_clip(c->arena, ty_pretty(c, to)),
                              diag_clip(c->arena, ty_pretty(c, from)));
        }
        return TY_CONV_NONE;
      }
      return conv_each(c, to, from, u, TY_CONV_SAFE, why);
    }
    /* A list's length is unknown statically: unsafe at best. */
    if (from->kind == TY_LIST || from->kind == TY_SET)
      return conv_each(c, to, from, u, TY_CONV_UNSAFE, why);
    return TY_CONV_NONE;
  case TY_OBJECT:
    if (from->kind == TY_OBJECT) {
      if (u) {
        ty_conv k;
        unify_objects(c, to, from, &k);
        return k;
      }
      /* Coinduction for recursive named objects: a pair already being
         compared is assumed to convert. */
      if (!ty_busy_push(c, to, from, TY_BUSY_CONV))
        return TY_CONV_SAFE;
      ty_conv k = conv_each(c, to, from, u, TY_CONV_SAFE, why);
      ty_busy_pop(c);
      return k;
    }
    /* A map's keys are unknown statically: unsafe at best. */
    if (from->kind == TY_MAP)
      return conv_each(c, to, from, u, TY_CONV_UNSAFE, why);
    return TY_CONV_NONE;
  case TY_UNION: {
    for (size_t i = 0; i < to->elems.count; i++) {
      if (to->elems.items[i] == from)
        return TY_CONV_SAFE;
    }
    /* The best alternative wins; a failing alternative's reason only
       matters if every one fails. */
    ty_conv k = TY_CONV_NONE;
    const char *first = NULL;
    for (size_t i = 0; i < to->elems.count; i++)
      k = conv_max(k, conv(c, to->elems.items[i], from, u, why ? &first : NULL));
    if (k == TY_CONV_NONE)
      set_reason(why, first);
    return k;
  }
  case TY_OUTPUT:
    /* Outputs take outputs, promises and plain values of their element. */
    return conv(c, to->elem,
                from->kind == TY_OUTPUT    ? from->elem
                : from->kind == TY_PROMISE ? ty_resolve_outputs(c, from->elem)
                                           : from,
                u, why);
  case TY_PROMISE:
    /* An output cannot become a promise (it carries more information). */
    if (from->kind == TY_OUTPUT)
      return TY_CONV_NONE;
    return conv(c, to->elem, from->kind == TY_PROMISE ? from->elem : from, u, why);
  }
  ice("bad type kind %d", (int)to->kind);
}

/* §4.1: the conversion kind to `to` from `from`, the prelude first; when
   why is not NULL, the reason of a failure is recorded in *why. */
static ty_conv conv(ty_ctx *c, const ty *to, const ty *from, bool unifying, const char **why) {
  if (to == from || to->kind == TY_DYNAMIC)
    return TY_CONV_SAFE;
  if (ty_deep(c))
    return TY_CONV_SAFE;
  /* A conversion that explains a failure is memoised with its reason: the
     reason it records in an empty slot is a function of the pair, so it
     collects that reason in a slot of its own. */
  bool memo = ty_memo_ok(to, from) && (!why || !unifying);
  ty_memo_op mop = why ? TY_MEMO_CONV_WHY : unifying ? TY_MEMO_CONV_UNIFY : TY_MEMO_CONV;
  if (memo) {
    const ty_memo *m = ty_memo_get(c, to, from, mop);
    if (m) {
      set_reason(why, m->reason);
      return m->kind;
    }
  }
  const char *own = NULL;
  const char **slot = why && memo ? &own : why;
  ty_conv k;
  if (from->kind == TY_UNION)
    k = conv_from_union(c, to, from, unifying, slot);
  else if (from->kind == TY_CONST && to->kind != TY_ENUM)
    k = conv(c, to, from->cnst.base, unifying, slot);
  else if (from->kind == TY_DYNAMIC)
    k = TY_CONV_UNSAFE;
  else
    k = conv_to(c, to, from, unifying, slot);
  if (memo && why) {
    ty_memo_put_reason(c, to, from, k, own);
    set_reason(why, own);
  } else if (memo) {
    ty_memo_put(c, to, from, mop, NULL, k);
  }
  return k;
}

/* --------------------------------------------------------- unification */

static const ty *unify(ty_ctx *c, const ty *a, const ty *b, ty_conv *kind);

/* The receiver's result with the kind of converting the other side to it
   (the "otherwise (A, kind)" of the rules of §5.3). */
static const ty *same(ty_ctx *c, const ty *a, const ty *b, ty_conv *kind) {
  *kind = conv(c, a, b, true, NULL);
  return a;
}

/* unify(x, y) wrapped in the collection or eventual kind k. */
static const ty *unify_wrapped(ty_ctx *c, ty_kind k, const ty *x, const ty *y, ty_conv *kind) {
  return ty_wrap(c, k, unify(c, x, y, kind));
}

/* unify folded over start and the elements of src (a tuple) or its property
   types (an object), the kind starting at k0, wrapped in kind k. */
static const ty *fold_wrapped(ty_ctx *c, ty_kind k, const ty *start, const ty *src, ty_conv k0,
                              ty_conv *kind) {
  const ty *t = start;
  *kind = k0;
  size_t n = ty_kid_count(src);
  for (size_t i = 0; i < n; i++) {
    ty_conv ki;
    t = unify(c, t, ty_kid(src, i), &ki);
    *kind = conv_min(*kind, ki);
  }
  return ty_wrap(c, k, t);
}

/* The tuple receiver rule with another tuple: the common prefix unified
   elementwise, the longer tuple's tail made optional. */
static const ty *unify_tuples(ty_ctx *c, const ty *a, const ty *b, ty_conv *kind) {
  size_t na = a->elems.count, nb = b->elems.count, n = na > nb ? na : nb;
  const ty **elems = xmalloc((n ? n : 1) * sizeof *elems);
  *kind = TY_CONV_SAFE;
  for (size_t i = 0; i < n; i++) {
    if (i < na && i < nb) {
      ty_conv ki;
      elems[i] = unify(c, a->elems.items[i], b->elems.items[i], &ki);
      *kind = conv_min(*kind, ki);
    } else {
      elems[i] = ty_optional(c, i < na ? a->elems.items[i] : b->elems.items[i]);
    }
  }
  const ty *t = ty_tuple(c, n, elems);
  free(elems);
  return t;
}

/* The object receiver rule with another object: common keys unified, keys
   of only one side made optional. */
static const ty *unify_objects(ty_ctx *c, const ty *a, const ty *b, ty_conv *kind) {
  *kind = TY_CONV_SAFE;
  if (!ty_busy_push(c, a, b, TY_BUSY_UNIFY))
    return a;
  size_t na = a->object.count, nb = b->object.count, np = 0;
  ty_prop *props = xmalloc((na + nb ? na + nb : 1) * sizeof *props);
  for (size_t i = 0; i < na; i++) {
    const ty_prop *p = &a->object.props[i];
    const ty *fb = ty_object_get(b, p->name);
    props[np].name = p->name;
    if (fb) {
      ty_conv ki;
      props[np++].type = unify(c, p->type, fb, &ki);
      *kind = conv_min(*kind, ki);
    } else {
      props[np++].type = ty_optional(c, p->type);
    }
  }
  for (size_t i = 0; i < nb; i++) {
    if (ty_object_get(a, b->object.props[i].name))
      continue;
    props[np].name = b->object.props[i].name;
    props[np++].type = ty_optional(c, b->object.props[i].type);
  }
  const ty *t = ty_object(c, np, props);
  free(props);
  ty_busy_pop(c);
  return t;
}

/* The receiver-specific rules of §5.3 for receiver a and other b; reached
   only when both directions convert with the same kind, which is not none.
   The kind itself is recomputed only by the cases that need it (it can be
   costly for nested tuples and objects). */
static const ty *unify_receiver(ty_ctx *c, const ty *a, const ty *b, ty_conv *kind) {
  switch (a->kind) {
  case TY_BOOL:
  case TY_INT:
  case TY_NUMBER:
  case TY_STRING:
  case TY_ID:
  case TY_OPAQUE:
  case TY_DYNAMIC: {
    static const ty_kind order[] = {TY_STRING, TY_NUMBER, TY_INT, TY_BOOL, TY_ID};
    for (size_t i = 0; i < ARRAY_LEN(order); i++) {
      const ty *w = c->prim[order[i]];
      if (w == a || w == b)
        return same(c, w, w == a ? b : a, kind);
    }
    *kind = TY_CONV_SAFE;
    return ty_dynamic(c);
  }
  case TY_NONE:
  case TY_CONST:
    *kind = conv(c, b, a, true, NULL);
    return a;
  case TY_ENUM:
    /* Unreachable in practice (§5.3); keep the receiver. */
    return same(c, a, b, kind);
  case TY_UNION:
    if (b->kind == TY_UNION) {
      *kind = TY_CONV_SAFE;
      return ty_union2(c, a, b);
    } else {
      /* Every member unified with b. */
      size_t n = a->elems.count;
      const ty **elems = xmalloc(n * sizeof *elems);
      *kind = TY_CONV_SAFE;
      for (size_t i = 0; i < n; i++) {
        ty_conv ki;
        elems[i] = unify(c, a->elems.items[i], b, &ki);
        *kind = conv_min(*kind, ki);
      }
      const ty *t = ty_union(c, n, elems);
      free(elems);
      return t;
    }
  case TY_OUTPUT:
    if (b->kind == TY_OUTPUT)
      return unify_wrapped(c, TY_OUTPUT, a->elem, b->elem, kind);
    if (b->kind == TY_PROMISE)
      return unify_wrapped(c, TY_OUTPUT, a->elem, ty_resolve_outputs(c, b->elem), kind);
    return same(c, a, b, kind);
  case TY_PROMISE:
    if (b->kind == TY_PROMISE)
      return unify_wrapped(c, TY_PROMISE, a->elem, b->elem, kind);
    if (b->kind == TY_OUTPUT)
      return unify_wrapped(c, TY_OUTPUT, a->elem, b->elem, kind);
    return same(c, a, b, kind);
  case TY_LIST:
    if (b->kind == TY_TUPLE)
      return fold_wrapped(c, TY_LIST, a->elem, b, TY_CONV_SAFE, kind);
    if (b->kind == TY_SET || b->kind == TY_LIST)
      return unify_wrapped(c, TY_LIST, a->elem, b->elem, kind);
    return same(c, a, b, kind);
  case TY_SET:
    if (b->kind == TY_SET || b->kind == TY_LIST)
      return unify_wrapped(c, b->kind, a->elem, b->elem, kind);
    if (b->kind == TY_TUPLE)
      return fold_wrapped(c, TY_SET, a->elem, b, TY_CONV_UNSAFE, kind);
    return same(c, a, b, kind);
  case TY_TUPLE:
    if (b->kind == TY_TUPLE)
      return unify_tuples(c, a, b, kind);
    if (b->kind == TY_LIST || b->kind == TY_SET)
      return fold_wrapped(c, b->kind, b->elem, a,
                          b->kind == TY_LIST ? TY_CONV_SAFE : TY_CONV_UNSAFE, kind);
    return same(c, a, b, kind);
  case TY_MAP:
    if (b->kind == TY_MAP)
      return unify_wrapped(c, TY_MAP, a->elem, b->elem, kind);
    if (b->kind == TY_OBJECT)
      return fold_wrapped(c, TY_MAP, a->elem, b, TY_CONV_SAFE, kind);
    return same(c, a, b, kind);
  case TY_OBJECT:
    if (b->kind == TY_MAP)
      return fold_wrapped(c, TY_MAP, b->elem, a, TY_CONV_SAFE, kind);
    if (b->kind == TY_OBJECT)
      return unify_objects(c, a, b, kind);
    return same(c, a, b, kind);
  }
  ice("bad type kind %d", (int)a->kind);
}

/* unify(a, b) of §5.1: the side the other converts to more safely wins;
   when neither converts the result is their union; when both convert
   equally well the receiver's own rule (§5.3) decides.  Memoised for types
   that reach no named object (nested objects and tuples would otherwise be
   unified three times per level). */
static const ty *unify(ty_ctx *c, const ty *a, const ty *b, ty_conv *kind) {
  if (ty_deep(c)) {
    *kind = TY_CONV_SAFE;
    return a;
  }
  bool memo = ty_memo_ok(a, b);
  if (memo) {
    const ty_memo *m = ty_memo_get(c, a, b, TY_MEMO_UNIFY);
    if (m) {
      *kind = m->kind;
      return m->result;
    }
  }
  const ty *ka = a, *kb = b, *t;
  if (a->kind == TY_DYNAMIC) {
    a = b;
    b = ka;
  }
  if (a == b) {
    *kind = TY_CONV_SAFE;
    t = a;
  } else if (b->kind == TY_DYNAMIC) {
    *kind = TY_CONV_UNSAFE;
    t = a;
  } else {
    ty_conv cf = conv(c, a, b, true, NULL);
    ty_conv ct = conv(c, b, a, true, NULL);
    if (cf != ct) {
      *kind = cf < ct ? ct : cf;
      t = cf < ct ? b : a;
    } else if (cf == TY_CONV_NONE) {
      *kind = TY_CONV_SAFE;
      t = ty_union2(c, a, b);
    } else if (b->kind == TY_UNION) {
      t = unify_receiver(c, b, a, kind);
    } else {
      t = unify_receiver(c, a, b, kind);
    }
  }
  if (memo)
    ty_memo_put(c, ka, kb, TY_MEMO_UNIFY, t, *kind);
  return t;
}

/* ------------------------------------------------------------ questions */

bool ty_assignable(ty_ctx *c, const ty *to, const ty *from) { return assignable(c, to, from); }

ty_conv ty_conversion(ty_ctx *c, const ty *to, const ty *from) {
  return conv(c, to, from, false, NULL);
}

ty_conv ty_conversion_why(ty_ctx *c, const ty *to, const ty *from, const char **reason) {
  const char *why = NULL;
  ty_conv k = conv(c, to, from, false, &why);
  *reason = k == TY_CONV_NONE ? why : NULL;
  return k;
}

ty_conv ty_conversion_unifying(ty_ctx *c, const ty *to, const ty *from) {
  return conv(c, to, from, true, NULL);
}

const char *ty_not_convertible_message(ty_ctx *c, const ty *to, const ty *from) {
  const char *why = NULL;
  if (conv(c, to, from, false, &why) == TY_CONV_NONE && why)
    return why;
  return arena_printf(c->arena, "cannot assign expression of type %s to location of type %s: ",
                      diag_clip(c->arena, ty_pretty(c, from)), diag_clip(c->arena, ty_pretty(c, to)));
}

diag *ty_report_not_convertible(ty_ctx *c, diag_list *d, pcl_span span, const ty *to,
                                const ty *from) {
  return diag_fail(d, span, "%s", ty_not_convertible_message(c, to, from));
}

bool ty_check_input(ty_ctx *c, diag_list *d, pcl_span span, const ty *to, const ty *from) {
  const ty *in = ty_input(c, to);
  if (conv(c, in, from, false, NULL) != TY_CONV_NONE)
    return true;
  ty_report_not_convertible(c, d, span, in, from);
  return false;
}

bool ty_check_object_key(ty_ctx *c, diag_list *d, pcl_span span, const ty *key) {
  if (conv(c, ty_input(c, ty_string(c)), key, false, NULL) != TY_CONV_NONE)
    return true;
  diag_fail(d, span,
            "object keys must be strings: cannot assign expression of type %s to location of "
            "type string",
            ty_pretty(c, key));
  return false;
}

const ty *ty_unify(ty_ctx *c, const ty *a, const ty *b, ty_conv *kind) {
  ty_conv k;
  const ty *r = unify(c, a, b, &k);
  if (kind)
    *kind = k;
  return r;
}

/* Returns the base type of t when t is a constant or a union of constants
 * of one base type, else NULL. */
static const ty *const_set_base(const ty *t) {
  if (t->kind == TY_CONST)
    return t->cnst.base;
  if (t->kind != TY_UNION)
    return NULL;
  for (size_t i = 0; i < t->elems.count; i++) {
    const ty *e = t->elems.items[i];
    if (e->kind != TY_CONST || e->cnst.base != t->elems.items[0]->cnst.base)
      return NULL;
  }
  return t->elems.items[0]->cnst.base;
}

/* The safe unification of acc with the constants types[0..n) of acc's base
 * type, acc being a constant or a union of such constants: each step would
 * unify a constant receiver with another constant, unsafely (§5.3 keeps the
 * receiver), and so take the union, which ty_union builds at once.  One
 * step at a time, a list of many literals would unify every member with
 * every later one. */
static const ty *join_consts(ty_ctx *c, const ty *acc, const ty *const *types, size_t n) {
  size_t have = acc->kind == TY_UNION ? acc->elems.count : 1;
  const ty **all = xmalloc((have + n) * sizeof *all);
  for (size_t i = 0; i < have; i++)
    all[i] = acc->kind == TY_UNION ? acc->elems.items[i] : acc;
  memcpy(all + have, types, n * sizeof *types);
  const ty *r = ty_union(c, have + n, all);
  free(all);
  return r;
}

void ty_unify_types(ty_ctx *c, size_t n, const ty *const *types, const ty **safe,
                    const ty **unsafe) {
  for (int pass = 0; pass < 2; pass++) {
    const ty **out = pass == 0 ? safe : unsafe;
    if (!out)
      continue;
    if (n == 0) {
      *out = ty_none(c);
      continue;
    }
    ty_conv need = pass == 0 ? TY_CONV_SAFE : TY_CONV_UNSAFE;
    const ty *acc = types[0];
    for (size_t i = 1; i < n;) {
      const ty *base = need == TY_CONV_SAFE ? const_set_base(acc) : NULL;
      size_t run = 0;
      while (base && i + run < n && types[i + run]->kind == TY_CONST &&
             types[i + run]->cnst.base == base)
        run++;
      if (run > 0) {
        acc = join_consts(c, acc, types + i, run);
        i += run;
        continue;
      }
      ty_conv k;
      const ty *r = unify(c, acc, types[i], &k);
      acc = k >= need ? r : ty_union2(c, acc, types[i]);
      i++;
    }
    *out = acc;
  }
}

const ty *ty_unify_safe(ty_ctx *c, size_t n, const ty *const *types) {
  const ty *safe;
  ty_unify_types(c, n, types, &safe, NULL);
  return safe;
}
