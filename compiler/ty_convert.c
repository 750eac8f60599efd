/* ty_convert: assignability, conversion and unification (types.md §3–§5,
 * with DECISIONS.md D3/D4) and the conversion-failure messages of §16.
 *
 * Conversion follows the reference's shared prelude (equality, dynamic
 * destination, union source, constant source, dynamic source) and then one
 * rule per destination kind.  The `unifying` flag only changes tuple→tuple
 * and object→object, which then report the kind the two types unify with.
 * Results are memoised in the context only for types that reach no named
 * object, and under a different key for each value of the flag, so the
 * flag cannot leak between uses (§4.1 note); a wanted reason is always
 * computed afresh.
 * Recursive named objects are handled coinductively: a (destination, source)
 * pair that is already being compared is assumed to convert safely, to be
 * assignable, and to unify to the destination. */
#include <stdlib.h>
#include <string.h>

#include "ty.h"
#include "ty_impl.h"
#include "util.h"

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

bool ty_assignable(ty_ctx *c, const ty *to, const ty *from) {
  if (to == from || to->kind == TY_DYNAMIC)
    return true;
  if (from->kind == TY_CONST)
    return ty_assignable(c, to, from->cnst.base);
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
      return ty_assignable(c, to->elem, from->elem);
    if (from->kind == TY_TUPLE) {
      for (size_t i = 0; i < from->elems.count; i++) {
        if (!ty_assignable(c, to->elem, from->elems.items[i]))
          return false;
      }
      return true;
    }
    return false;
  case TY_MAP:
    if (from->kind == TY_MAP)
      return ty_assignable(c, to->elem, from->elem);
    if (from->kind == TY_OBJECT) {
      for (size_t i = 0; i < from->object.count; i++) {
        if (!ty_assignable(c, to->elem, from->object.props[i].type))
          return false;
      }
      return true;
    }
    return false;
  case TY_SET:
    return from->kind == TY_SET && ty_assignable(c, to->elem, from->elem);
  case TY_TUPLE:
    if (from->kind != TY_TUPLE)
      return false;
    for (size_t i = 0; i < to->elems.count; i++) {
      const ty *f = i < from->elems.count ? from->elems.items[i] : ty_none(c);
      if (!ty_assignable(c, to->elems.items[i], f))
        return false;
    }
    return true;
  case TY_OBJECT: {
    if (from->kind != TY_OBJECT)
      return false;
    if (!ty_busy_push(c, to, from, TY_BUSY_ASSIGN))
      return true;
    bool ok = true;
    for (size_t i = 0; ok && i < to->object.count; i++) {
      const ty *f = ty_object_get(from, to->object.props[i].name);
      ok = ty_assignable(c, to->object.props[i].type, f ? f : ty_none(c));
    }
    ty_busy_pop(c);
    return ok;
  }
  case TY_UNION:
    for (size_t i = 0; i < to->elems.count; i++) {
      if (ty_assignable(c, to->elems.items[i], from))
        return true;
    }
    return false;
  case TY_OUTPUT:
    if (from->kind == TY_OUTPUT)
      return ty_assignable(c, to->elem, from->elem);
    if (from->kind == TY_PROMISE)
      return ty_assignable(c, to->elem, ty_resolve_outputs(c, from->elem));
    return ty_assignable(c, to->elem, from);
  case TY_PROMISE:
    if (from->kind == TY_PROMISE)
      return ty_assignable(c, to->elem, from->elem);
    return ty_assignable(c, to->elem, from);
  }
  ice("bad type kind %d", (int)to->kind);
}

/* ---------------------------------------------------------- conversion */

static ty_conv conv(ty_ctx *c, const ty *to, const ty *from, bool unifying, const char **why);
static const ty *unify_receiver(ty_ctx *c, const ty *a, const ty *b, ty_conv *kind);
static const ty *unify_tuples(ty_ctx *c, const ty *a, const ty *b, ty_conv *kind);
static const ty *unify_objects(ty_ctx *c, const ty *a, const ty *b, ty_conv *kind);

/* Sets *why (if wanted and still unset) to reason (which may be NULL).
 * Reasons are only produced on paths whose result is none, so the first one
 * recorded explains the failure of the whole conversion. */
static void set_reason(const char **why, const char *reason) {
  if (why && !*why)
    *why = reason;
}

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

/* Conversion to `to` from a union source (§4.4). */
static ty_conv conv_from_union(ty_ctx *c, const ty *to, const ty *from, bool unifying) {
  bool all_safe = true, any = false;
  for (size_t i = 0; i < from->elems.count; i++) {
    ty_conv k = conv(c, to, from->elems.items[i], unifying, NULL);
    if (k != TY_CONV_SAFE)
      all_safe = false;
    if (k != TY_CONV_NONE)
      any = true;
  }
  if (all_safe)
    return TY_CONV_SAFE;
  return any ? TY_CONV_UNSAFE : TY_CONV_NONE;
}

/* Destination-specific rules (§4.2); `from` is not a union, not dynamic and
 * not equal to `to`; it is a constant only when `to` is an enum. */
static ty_conv conv_dest(ty_ctx *c, const ty *to, const ty *from, bool unifying,
                         const char **why) {
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
    return conv(c, to->cnst.base, from, unifying, NULL) != TY_CONV_NONE ? TY_CONV_UNSAFE
                                                                         : TY_CONV_NONE;
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
    return conv(c, to->enm.base, from, unifying, NULL) != TY_CONV_NONE ? TY_CONV_UNSAFE
                                                                        : TY_CONV_NONE;
  case TY_LIST:
    /* Lists take lists and sets elementwise and tuples element by element
       (an empty tuple is safe). */
    if (from->kind == TY_LIST || from->kind == TY_SET)
      return conv(c, to->elem, from->elem, unifying, why);
    if (from->kind == TY_TUPLE) {
      ty_conv k = TY_CONV_SAFE;
      for (size_t i = 0; i < from->elems.count && k != TY_CONV_NONE; i++)
        k = conv_min(k, conv(c, to->elem, from->elems.items[i], unifying, why));
      return k;
    }
    return TY_CONV_NONE;
  case TY_SET:
    /* Anything but a set may hold duplicates, so lists and tuples convert
       unsafely at best. */
    if (from->kind == TY_SET)
      return conv(c, to->elem, from->elem, unifying, why);
    if (from->kind == TY_LIST) {
      return conv(c, to->elem, from->elem, unifying, why) == TY_CONV_NONE ? TY_CONV_NONE
                                                                           : TY_CONV_UNSAFE;
    }
    if (from->kind == TY_TUPLE) {
      return conv(c, ty_list(c, to->elem), from, unifying, why) == TY_CONV_NONE
                 ? TY_CONV_NONE
                 : TY_CONV_UNSAFE;
    }
    return TY_CONV_NONE;
  case TY_MAP:
    /* Maps take maps and objects (every property must convert). */
    if (from->kind == TY_MAP)
      return conv(c, to->elem, from->elem, unifying, why);
    if (from->kind == TY_OBJECT) {
      ty_conv k = TY_CONV_SAFE;
      for (size_t i = 0; i < from->object.count && k != TY_CONV_NONE; i++)
        k = conv_min(k, conv(c, to->elem, from->object.props[i].type, unifying, why));
      return k;
    }
    return TY_CONV_NONE;
  case TY_TUPLE:
    if (from->kind == TY_TUPLE) {
      if (unifying) {
        ty_conv k;
        unify_tuples(c, to, from, &k);
        return k;
      }
      if (to->elems.count != from->elems.count) {
        if (why && !*why) {
          *why = arena_printf(c->arena, "tuples %s and %s have different lengths",
                              ty_pretty(c, to), ty_pretty(c, from));
        }
        return TY_CONV_NONE;
      }
      ty_conv k = TY_CONV_SAFE;
      for (size_t i = 0; i < to->elems.count && k != TY_CONV_NONE; i++)
        k = conv_min(k, conv(c, to->elems.items[i], from->elems.items[i], unifying, why));
      return k;
    }
    /* A list's length is unknown statically: unsafe at best. */
    if (from->kind == TY_LIST || from->kind == TY_SET) {
      ty_conv k = TY_CONV_UNSAFE;
      for (size_t i = 0; i < to->elems.count && k != TY_CONV_NONE; i++)
        k = conv_min(k, conv(c, to->elems.items[i], from->elem, unifying, why));
      return k;
    }
    return TY_CONV_NONE;
  case TY_OBJECT:
    if (from->kind == TY_OBJECT) {
      if (unifying) {
        ty_conv k;
        unify_objects(c, to, from, &k);
        return k;
      }
      /* Coinduction for recursive named objects: a pair already being
         compared is assumed to convert. */
      if (!ty_busy_push(c, to, from, TY_BUSY_CONV))
        return TY_CONV_SAFE;
      ty_conv k = TY_CONV_SAFE;
      for (size_t i = 0; i < to->object.count && k != TY_CONV_NONE; i++) {
        const ty *f = ty_object_get(from, to->object.props[i].name);
        k = conv_min(k, conv(c, to->object.props[i].type, f ? f : ty_none(c), false, why));
      }
      ty_busy_pop(c);
      return k;
    }
    /* A map's keys are unknown statically: unsafe at best. */
    if (from->kind == TY_MAP) {
      ty_conv k = TY_CONV_UNSAFE;
      for (size_t i = 0; i < to->object.count && k != TY_CONV_NONE; i++)
        k = conv_min(k, conv(c, to->object.props[i].type, from->elem, unifying, why));
      return k;
    }
    return TY_CONV_NONE;
  case TY_UNION: {
    ty_conv k = TY_CONV_NONE;
    for (size_t i = 0; i < to->elems.count; i++) {
      if (to->elems.items[i] == from)
        return TY_CONV_SAFE;
    }
    /* A failing alternative's reason only matters if every one fails. */
    const char *first = NULL;
    for (size_t i = 0; i < to->elems.count; i++)
      k = conv_max(k, conv(c, to->elems.items[i], from, unifying, why ? &first : NULL));
    if (k == TY_CONV_NONE)
      set_reason(why, first);
    return k;
  }
  case TY_OUTPUT:
    /* Outputs take outputs, promises and plain values of their element. */
    if (from->kind == TY_OUTPUT)
      return conv(c, to->elem, from->elem, unifying, why);
    if (from->kind == TY_PROMISE)
      return conv(c, to->elem, ty_resolve_outputs(c, from->elem), unifying, why);
    return conv(c, to->elem, from, unifying, why);
  case TY_PROMISE:
    /* An output cannot become a promise (it carries more information). */
    if (from->kind == TY_PROMISE)
      return conv(c, to->elem, from->elem, unifying, why);
    if (from->kind == TY_OUTPUT)
      return TY_CONV_NONE;
    return conv(c, to->elem, from, unifying, why);
  }
  ice("bad type kind %d", (int)to->kind);
}

static ty_conv conv_uncached(ty_ctx *c, const ty *to, const ty *from, bool unifying,
                             const char **why);

/* Conversion with memoisation of pure cases; a wanted reason is always
 * recomputed. */
static ty_conv conv(ty_ctx *c, const ty *to, const ty *from, bool unifying, const char **why) {
  if (to == from || to->kind == TY_DYNAMIC)
    return TY_CONV_SAFE;
  if (why || !ty_memo_ok(to, from))
    return conv_uncached(c, to, from, unifying, why);
  ty_memo_op op = unifying ? TY_MEMO_CONV_UNIFY : TY_MEMO_CONV;
  const ty_memo *m = ty_memo_get(c, to, from, op);
  if (m)
    return m->kind;
  ty_conv k = conv_uncached(c, to, from, unifying, NULL);
  ty_memo_put(c, to, from, op, NULL, k);
  return k;
}

/* The prelude of §4.1 followed by the destination rule. */
static ty_conv conv_uncached(ty_ctx *c, const ty *to, const ty *from, bool unifying,
                             const char **why) {
  if (to == from || to->kind == TY_DYNAMIC)
    return TY_CONV_SAFE;
  if (from->kind == TY_UNION) {
    ty_conv k = conv_from_union(c, to, from, unifying);
    if (k == TY_CONV_NONE && why && !*why) {
      set_reason(why, arena_printf(c->arena, "cannot assign value of type %s to type %s",
                                   ty_pretty(c, from), ty_pretty(c, to)));
    }
    return k;
  }
  if (from->kind == TY_CONST && to->kind != TY_ENUM)
    return conv(c, to, from->cnst.base, unifying, why);
  if (from->kind == TY_DYNAMIC)
    return TY_CONV_UNSAFE;
  return conv_dest(c, to, from, unifying, why);
}

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
                      ty_pretty(c, from), ty_pretty(c, to));
}

diag *ty_report_not_convertible(ty_ctx *c, diag_list *d, pcl_span span, const ty *to,
                                const ty *from) {
  return diag_error(d, span, "%s", ty_not_convertible_message(c, to, from));
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
  diag_error(d, span,
             "object keys must be strings: cannot assign expression of type %s to location of "
             "type string",
             ty_pretty(c, key));
  return false;
}

/* --------------------------------------------------------- unification */

/* unify(a, b) of §5.1: the side the other converts to more safely wins;
 * when neither converts the result is their union; when both convert
 * equally well the receiver's own rule (§5.3) decides. */
static const ty *unify_uncached(ty_ctx *c, const ty *a, const ty *b, ty_conv *kind);

/* unify with memoisation of pure cases (nested objects and tuples would
 * otherwise be unified three times per level). */
static const ty *unify(ty_ctx *c, const ty *a, const ty *b, ty_conv *kind) {
  if (!ty_memo_ok(a, b))
    return unify_uncached(c, a, b, kind);
  const ty_memo *m = ty_memo_get(c, a, b, TY_MEMO_UNIFY);
  if (m) {
    *kind = m->kind;
    return m->result;
  }
  const ty *r = unify_uncached(c, a, b, kind);
  ty_memo_put(c, a, b, TY_MEMO_UNIFY, r, *kind);
  return r;
}

static const ty *unify_uncached(ty_ctx *c, const ty *a, const ty *b, ty_conv *kind) {
  if (a->kind == TY_DYNAMIC) {
    const ty *t = a;
    a = b;
    b = t;
  }
  if (a == b) {
    *kind = TY_CONV_SAFE;
    return a;
  }
  if (b->kind == TY_DYNAMIC) {
    *kind = TY_CONV_UNSAFE;
    return a;
  }
  ty_conv cf = conv(c, a, b, true, NULL);
  ty_conv ct = conv(c, b, a, true, NULL);
  if (cf < ct) {
    *kind = ct;
    return b;
  }
  if (cf > ct) {
    *kind = cf;
    return a;
  }
  if (cf == TY_CONV_NONE) {
    *kind = TY_CONV_SAFE;
    return ty_union2(c, a, b);
  }
  if (b->kind == TY_UNION)
    return unify_receiver(c, b, a, kind);
  return unify_receiver(c, a, b, kind);
}

const ty *ty_unify(ty_ctx *c, const ty *a, const ty *b, ty_conv *kind) {
  ty_conv k;
  const ty *r = unify(c, a, b, &k);
  if (kind)
    *kind = k;
  return r;
}

/* Folds unify over start and the n types, the kind starting at k0. */
static const ty *fold(ty_ctx *c, const ty *start, size_t n, const ty *const *types, ty_conv k0,
                      ty_conv *kind) {
  const ty *acc = start;
  ty_conv k = k0;
  for (size_t i = 0; i < n; i++) {
    ty_conv ki;
    acc = unify(c, acc, types[i], &ki);
    k = conv_min(k, ki);
  }
  *kind = k;
  return acc;
}

/* The property types of an object, in key order. */
static const ty **prop_types(const ty *o) {
  const ty **v = xmalloc((o->object.count ? o->object.count : 1) * sizeof *v);
  for (size_t i = 0; i < o->object.count; i++)
    v[i] = o->object.props[i].type;
  return v;
}

/* The tuple receiver rule with another tuple: the common prefix unified
 * elementwise, the longer tuple's tail made optional. */
static const ty *unify_tuples(ty_ctx *c, const ty *a, const ty *b, ty_conv *kind) {
  size_t na = a->elems.count, nb = b->elems.count;
  size_t n = na > nb ? na : nb;
  const ty **e = xmalloc((n ? n : 1) * sizeof *e);
  ty_conv k = TY_CONV_SAFE;
  for (size_t i = 0; i < n; i++) {
    if (i < na && i < nb) {
      ty_conv ki;
      e[i] = unify(c, a->elems.items[i], b->elems.items[i], &ki);
      k = conv_min(k, ki);
    } else {
      e[i] = ty_optional(c, i < na ? a->elems.items[i] : b->elems.items[i]);
    }
  }
  const ty *r = ty_tuple(c, n, e);
  free(e);
  *kind = k;
  return r;
}

/* The object receiver rule with another object: common keys unified, keys
 * of only one side made optional. */
static const ty *unify_objects(ty_ctx *c, const ty *a, const ty *b, ty_conv *kind) {
  if (!ty_busy_push(c, a, b, TY_BUSY_UNIFY)) {
    *kind = TY_CONV_SAFE;
    return a;
  }
  size_t na = a->object.count, nb = b->object.count;
  ty_prop *p = xmalloc((na + nb ? na + nb : 1) * sizeof *p);
  size_t n = 0;
  ty_conv k = TY_CONV_SAFE;
  for (size_t i = 0; i < na; i++) {
    const ty *fb = ty_object_get(b, a->object.props[i].name);
    p[n].name = a->object.props[i].name;
    if (fb) {
      ty_conv ki;
      p[n].type = unify(c, a->object.props[i].type, fb, &ki);
      k = conv_min(k, ki);
    } else {
      p[n].type = ty_optional(c, a->object.props[i].type);
    }
    n++;
  }
  for (size_t i = 0; i < nb; i++) {
    if (ty_object_get(a, b->object.props[i].name))
      continue;
    p[n].name = b->object.props[i].name;
    p[n].type = ty_optional(c, b->object.props[i].type);
    n++;
  }
  const ty *r = ty_object(c, n, p);
  free(p);
  ty_busy_pop(c);
  *kind = k;
  return r;
}

/* Wraps the rule result of a collection unification. */
static const ty *wrap(ty_ctx *c, ty_kind k, const ty *elem) {
  switch (k) {
  case TY_LIST:
    return ty_list(c, elem);
  case TY_SET:
    return ty_set(c, elem);
  case TY_MAP:
    return ty_map(c, elem);
  case TY_OUTPUT:
    return ty_output(c, elem);
  case TY_PROMISE:
    return ty_promise(c, elem);
  case TY_BOOL:
  case TY_INT:
  case TY_NUMBER:
  case TY_STRING:
  case TY_ID:
  case TY_DYNAMIC:
  case TY_NONE:
  case TY_OPAQUE:
  case TY_TUPLE:
  case TY_OBJECT:
  case TY_UNION:
  case TY_CONST:
  case TY_ENUM:
    break;
  }
  ice("wrap of kind %s", ty_kind_name(k));
}

/* The receiver-specific rules of §5.3; reached only when both directions
 * convert with the same kind, which is not none. */
static const ty *unify_receiver(ty_ctx *c, const ty *a, const ty *b, ty_conv *kind) {
  /* Both directions convert with the same kind; recomputing it is only
     needed by the fallback cases, so it is done there (it can be costly for
     nested tuples and objects). */
#define SAME() conv(c, a, b, true, NULL)
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
      if (w == a || w == b) {
        *kind = conv(c, w, w == a ? b : a, true, NULL);
        return w;
      }
    }
    *kind = TY_CONV_SAFE;
    return ty_dynamic(c);
  }
  case TY_NONE:
    *kind = conv(c, b, a, true, NULL);
    return a;
  case TY_CONST:
    *kind = conv(c, b, a, true, NULL);
    return a;
  case TY_ENUM:
    /* Unreachable in practice (§5.3); keep the receiver. */
    *kind = SAME();
    return a;
  case TY_UNION: {
    if (b->kind == TY_UNION) {
      *kind = TY_CONV_SAFE;
      return ty_union2(c, a, b);
    }
    size_t n = a->elems.count;
    const ty **e = xmalloc(n * sizeof *e);
    ty_conv k = TY_CONV_SAFE;
    for (size_t i = 0; i < n; i++) {
      ty_conv ki;
      e[i] = unify(c, a->elems.items[i], b, &ki);
      k = conv_min(k, ki);
    }
    const ty *r = ty_union(c, n, e);
    free(e);
    *kind = k;
    return r;
  }
  case TY_OUTPUT:
    if (b->kind == TY_OUTPUT)
      return ty_output(c, unify(c, a->elem, b->elem, kind));
    if (b->kind == TY_PROMISE)
      return ty_output(c, unify(c, a->elem, ty_resolve_outputs(c, b->elem), kind));
    *kind = SAME();
    return a;
  case TY_PROMISE:
    if (b->kind == TY_PROMISE)
      return ty_promise(c, unify(c, a->elem, b->elem, kind));
    if (b->kind == TY_OUTPUT)
      return ty_output(c, unify(c, a->elem, b->elem, kind));
    *kind = SAME();
    return a;
  case TY_LIST:
    if (b->kind == TY_TUPLE)
      return ty_list(c, fold(c, a->elem, b->elems.count, b->elems.items, TY_CONV_SAFE, kind));
    if (b->kind == TY_SET || b->kind == TY_LIST)
      return ty_list(c, unify(c, a->elem, b->elem, kind));
    *kind = SAME();
    return a;
  case TY_SET:
    if (b->kind == TY_SET || b->kind == TY_LIST)
      return wrap(c, b->kind, unify(c, a->elem, b->elem, kind));
    if (b->kind == TY_TUPLE)
      return ty_set(c, fold(c, a->elem, b->elems.count, b->elems.items, TY_CONV_UNSAFE, kind));
    *kind = SAME();
    return a;
  case TY_TUPLE:
    if (b->kind == TY_TUPLE)
      return unify_tuples(c, a, b, kind);
    if (b->kind == TY_LIST || b->kind == TY_SET) {
      ty_conv k0 = b->kind == TY_LIST ? TY_CONV_SAFE : TY_CONV_UNSAFE;
      return wrap(c, b->kind, fold(c, b->elem, a->elems.count, a->elems.items, k0, kind));
    }
    *kind = SAME();
    return a;
  case TY_MAP:
    if (b->kind == TY_MAP)
      return ty_map(c, unify(c, a->elem, b->elem, kind));
    if (b->kind == TY_OBJECT) {
      const ty **v = prop_types(b);
      const ty *r = ty_map(c, fold(c, a->elem, b->object.count, v, TY_CONV_SAFE, kind));
      free(v);
      return r;
    }
    *kind = SAME();
    return a;
  case TY_OBJECT:
    if (b->kind == TY_MAP) {
      const ty **v = prop_types(a);
      const ty *r = ty_map(c, fold(c, b->elem, a->object.count, v, TY_CONV_SAFE, kind));
      free(v);
      return r;
    }
    if (b->kind == TY_OBJECT)
      return unify_objects(c, a, b, kind);
    *kind = SAME();
    return a;
  }
#undef SAME
  ice("bad type kind %d", (int)a->kind);
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
    for (size_t i = 1; i < n; i++) {
      ty_conv k;
      const ty *r = unify(c, acc, types[i], &k);
      acc = k >= need ? r : ty_union2(c, acc, types[i]);
    }
    *out = acc;
  }
}

const ty *ty_unify_safe(ty_ctx *c, size_t n, const ty *const *types) {
  const ty *safe;
  ty_unify_types(c, n, types, &safe, NULL);
  return safe;
}
