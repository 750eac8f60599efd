/* ty_impl: definitions shared by the ty_*.c files and nobody else.
 *
 * The functions of the byte buffer (ty.h) that builds strings and identity
 * keys, the stack guard of the operations' recursion, the recursion guard
 * for recursive (named) object types, the cached facts kept in ty.flags,
 * and the small questions the operations' rules share (the null test,
 * the types a type is made of, the wrapper of a kind). */
#ifndef PCLC_TY_IMPL_H
#define PCLC_TY_IMPL_H

#include <stdarg.h>

#include "types/ty.h"

/* Facts cached in ty.flags.  TYF_OUTPUT/TYF_PROMISE are exact unless
 * TYF_NAMED is set (the type reaches a named object, whose properties may
 * not be known yet at construction); then the facts are recomputed, except
 * for a named object marked TYF_EVENTUALS_KNOWN by ty_contains_eventuals. */
enum {
  TYF_OUTPUT = 1u << 0,  /* Contains an output somewhere. */
  TYF_PROMISE = 1u << 1, /* Contains a promise somewhere. */
  TYF_NAMED = 1u << 2,   /* Reaches a named object type. */
  TYF_EVENTUALS_KNOWN = 1u << 3, /* Named object: TYF_OUTPUT/TYF_PROMISE are
                                    exact, as every named object it reaches
                                    is defined. */
};

/* Whether t is the type of null: none or const(none). */
bool ty_is_null(const ty *t);

/* Returns the list, map, set, output or promise (kind k) of elem, by the
   constructor of that kind. */
const ty *ty_wrap(ty_ctx *c, ty_kind k, const ty *elem);

/* The number of types t is made of: its elements (tuple, union), its
   properties' types in order (object), its element (list, map, set, output,
   promise); 0 for the other kinds. */
size_t ty_kid_count(const ty *t);

/* The i-th of the types t is made of (i < ty_kid_count(t)); the element of
   a list, map, set, output or promise whatever i, so that an elementwise
   rule pairs it with each element of the other side. */
static inline const ty *ty_kid(const ty *t, size_t i) {
  return t->kind == TY_OBJECT                         ? t->object.props[i].type
         : t->kind == TY_TUPLE || t->kind == TY_UNION ? t->elems.items[i]
                                                      : t->elem;
}

/* Returns an arena copy of b's contents and frees b. */
char *ty_buf_finish(pcl__buf *b, arena *a);

/* Returns false when the stack has room for one more level of a type
   operation's recursion and no operation has stopped since the last
   ty_take_too_deep; otherwise records in c->too_deep that an operation
   stopped and returns true, and the operation then gives its answer for
   matching types without looking further. */
bool ty_deep(ty_ctx *c);

/* A pair of types under evaluation by an operation identified by tag. */
typedef struct ty_pair {
  const ty *a, *b;
  int tag;
} ty_pair;

enum { TY_BUSY_CONV, TY_BUSY_ASSIGN, TY_BUSY_UNIFY, TY_BUSY_PRINT };

/* Pushes (a, b, tag) unless it is already under evaluation; returns false
 * (and pushes nothing) in that case. */
bool ty_busy_push(ty_ctx *c, const ty *a, const ty *b, int tag);
/* Pops the most recent pair. */
void ty_busy_pop(ty_ctx *c);

/* Memoised results of pure operations on pairs of types.  Conversion and
 * unification are cached only for types that reach no named object (see
 * ty_memo_ok), because the recursion guard can influence their results;
 * InputType, ResolveOutputs, ResolvePromises and the value target are cached
 * for every type, since they depend only on the identity of the types they
 * rewrite (a named object maps to the named object with its token suffixed
 * by `$input`, `$resolved` or `$nopromise`, or back to its origin). */
typedef enum ty_memo_op {
  TY_MEMO_CONV,        /* Conversion kind, not unifying. */
  TY_MEMO_CONV_WHY,    /* Conversion kind, not unifying, and its reason. */
  TY_MEMO_CONV_UNIFY,  /* Conversion kind, unifying. */
  TY_MEMO_UNIFY,       /* unify(a, b): result and kind. */
  TY_MEMO_INPUT,       /* InputType(a), with b == a: result only. */
  TY_MEMO_RESOLVE_OUTPUTS,  /* ResolveOutputs(a), with b == a: result only. */
  TY_MEMO_RESOLVE_PROMISES, /* ResolvePromises(a), with b == a: result only. */
  TY_MEMO_VALUE_TARGET, /* ty_value_target(a), with b == a: result only. */
} ty_memo_op;

/* One slot of the memo table. */
typedef struct ty_memo {
  const ty *a, *b;    /* The operands; a is NULL in an empty slot. */
  ty_memo_op op;      /* The operation. */
  const ty *result;   /* TY_MEMO_UNIFY: the unified type. */
  ty_conv kind;       /* The kind computed. */
  const char *reason; /* TY_MEMO_CONV_WHY: the reason of a failure, or NULL (arena). */
} ty_memo;

/* Returns the cached entry for (a, b, op), or NULL. */
const ty_memo *ty_memo_get(ty_ctx *c, const ty *a, const ty *b, ty_memo_op op);
/* Caches the result of (a, b, op). */
void ty_memo_put(ty_ctx *c, const ty *a, const ty *b, ty_memo_op op, const ty *result,
                 ty_conv kind);
/* Caches the kind and reason of a conversion computed with its reason
   (TY_MEMO_CONV_WHY). */
void ty_memo_put_reason(ty_ctx *c, const ty *a, const ty *b, ty_conv kind, const char *reason);
/* Returns true if results for a and b may be cached. */
bool ty_memo_ok(const ty *a, const ty *b);

/* Appends the literal form of a const type's value (`42`, `"a"`, `true`,
 * `null`, shortest round-trip double) to b. */
void ty_buf_put_value(pcl__buf *b, const ty *k);
/* Returns true if the values of two const types are equal (numbers compare
 * exactly across int and number). */
bool ty_value_equal(const ty *a, const ty *b);

#endif
