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
 * assignable, and to unify to the destination.
 *
 * The three relations are defined recursively over two types, and types
 * nest as deep as the input (two tuples 10,000 deep unify level by level),
 * so they run on a small machine with an explicit stack instead of the C
 * stack: a frame per pending question (is `to` assignable from `from`, what
 * does `to` convert from `from` with, what do `a` and `b` unify to, and the
 * helpers of unification: a fold over a list of types, two tuples, two
 * objects).  A frame's step function either asks a sub-question (it pushes
 * a frame and returns; the answer is in the machine's registers when the
 * step runs again) or answers its own question (done_*, which pops it).
 * Step functions never touch their frame after pushing, since the stack may
 * move.  The stages of each step function follow the recursive rules of
 * types.md, in the same order, so the answers, the reasons and the memo
 * entries are the ones the rules define. */
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

/* ------------------------------------------------------------ machine */

/* The questions a frame answers. */
typedef enum op {
  OP_ASSIGN,  /* Is a assignable from b (§3)?  Answer: rb. */
  OP_CONV,    /* The conversion kind to a from b (§4).  Answer: rk. */
  OP_UNIFY,   /* unify(a, b) (§5.1).  Answer: rt and rk. */
  OP_FOLD,    /* unify folded over t and the elements (or property types) of
                 b, the kind starting at k.  Answer: rt and rk. */
  OP_TUPLES,  /* The tuple receiver rule for tuples a and b (§5.3). */
  OP_OBJECTS, /* The object receiver rule for objects a and b (§5.3). */
} op;

/* One pending question. */
typedef struct cframe {
  op op;            /* The question. */
  unsigned stage;   /* The step function's next stage. */
  const ty *a, *b;  /* Its operands (`to` and `from` for ASSIGN and CONV). */
  const ty *ka, *kb; /* The operands it is memoised under (UNIFY). */
  bool unifying;    /* CONV: the unifying flag. */
  bool memo;        /* Cache the answer when done. */
  bool busy;        /* A recursion-guard entry to pop when done. */
  bool all_safe;    /* CONV from a union: every member converts safely. */
  int why;          /* CONV: the reason slot to fill (-1: none wanted). */
  int own;          /* CONV with a reason, memoised: the slot of its own
                       reason, passed to its sub-conversions instead of why. */
  int first;        /* CONV to a union: the slot of its members' reasons. */
  size_t i, n;      /* The next element or property, and how many. */
  size_t np;        /* OBJECTS: properties made so far. */
  ty_conv k;        /* The kind accumulated so far. */
  const ty *t;      /* The type accumulated so far, or a saved operand. */
  const ty **elems; /* TUPLES, UNIFY over a union: the types made (heap). */
  ty_prop *props;   /* OBJECTS: the properties made (heap). */
} cframe;

/* The machine of one top-level question. */
typedef struct machine {
  ty_ctx *c;
  cframe *frames;        /* Pending questions, innermost last. */
  size_t count, cap;     /* Frames used and allocated. */
  cframe first[16];      /* The first frames (most questions need few). */
  const char **reasons;  /* Reason slots, innermost last. */
  size_t nreasons, capreasons; /* Slots used and allocated. */
  const char *first_reasons[8]; /* The first reason slots. */
  /* The answer of the question last answered. */
  bool rb;               /* ASSIGN. */
  ty_conv rk;            /* CONV, UNIFY and the unification helpers. */
  const ty *rt;          /* UNIFY and the unification helpers. */
} machine;

static void machine_init(machine *m, ty_ctx *c) {
  m->c = c;
  m->frames = m->first;
  m->count = 0;
  m->cap = ARRAY_LEN(m->first);
  m->reasons = m->first_reasons;
  m->nreasons = 0;
  m->capreasons = ARRAY_LEN(m->first_reasons);
  m->rb = false;
  m->rk = TY_CONV_NONE;
  m->rt = NULL;
}

static void machine_free(machine *m) {
  if (m->frames != m->first)
    free(m->frames);
  if (m->reasons != m->first_reasons)
    free(m->reasons);
}

/* Pushes a question; returns it, zeroed but for op and operands. */
static cframe *push(machine *m, op o, const ty *a, const ty *b) {
  if (m->count == m->cap)
    m->frames = xgrow_inline(m->frames, m->first, m->count, &m->cap, sizeof *m->frames);
  cframe *f = &m->frames[m->count++];
  memset(f, 0, sizeof *f);
  f->op = o;
  f->a = f->ka = a;
  f->b = f->kb = b;
  f->why = -1;
  f->own = -1;
  f->first = -1;
  return f;
}

static void push_assign(machine *m, const ty *to, const ty *from) {
  push(m, OP_ASSIGN, to, from);
}

static void push_conv(machine *m, const ty *to, const ty *from, bool unifying, int why) {
  cframe *f = push(m, OP_CONV, to, from);
  f->unifying = unifying;
  f->why = why;
}

static void push_unify(machine *m, const ty *a, const ty *b) {
  push(m, OP_UNIFY, a, b);
}

/* Folds unify over start and the elements of src (a tuple) or its
   property types (an object), the kind starting at k0. */
static void push_fold(machine *m, const ty *start, const ty *src, ty_conv k0) {
  cframe *f = push(m, OP_FOLD, NULL, src);
  f->t = start;
  f->k = k0;
  f->n = src->kind == TY_OBJECT ? src->object.count : src->elems.count;
}

/* Allocates a reason slot (innermost). */
static int reason_slot(machine *m) {
  if (m->nreasons == m->capreasons)
    m->reasons = xgrow_inline(m->reasons, m->first_reasons, m->nreasons, &m->capreasons,
                              sizeof *m->reasons);
  m->reasons[m->nreasons] = NULL;
  return (int)m->nreasons++;
}

/* Sets the reason in slot (if one is wanted and still unset).  Reasons are
   only produced on paths whose result is none, so the first one recorded
   explains the failure of the whole conversion. */
static void set_reason(machine *m, int slot, const char *reason) {
  if (slot >= 0 && !m->reasons[slot])
    m->reasons[slot] = reason;
}

/* Pops the top frame f, releasing what it holds. */
static void pop(machine *m, cframe *f) {
  if (f->busy)
    ty_busy_pop(m->c);
  free(f->elems);
  free(f->props);
  m->count--;
}

static void done_bool(machine *m, cframe *f, bool r) {
  m->rb = r;
  pop(m, f);
}

static void done_kind(machine *m, cframe *f, ty_conv k) {
  if (f->own >= 0) {
    /* Its reason goes to its caller's slot, and to the memo. */
    const char *reason = m->reasons[f->own];
    m->nreasons--;
    ty_memo_put_reason(m->c, f->a, f->b, k, reason);
    set_reason(m, f->why, reason);
  } else if (f->memo) {
    ty_memo_put(m->c, f->a, f->b, f->unifying ? TY_MEMO_CONV_UNIFY : TY_MEMO_CONV, NULL, k);
  }
  m->rk = k;
  pop(m, f);
}

static void done_type(machine *m, cframe *f, const ty *t, ty_conv k) {
  if (f->memo)
    ty_memo_put(m->c, f->ka, f->kb, TY_MEMO_UNIFY, t, k);
  m->rt = t;
  m->rk = k;
  pop(m, f);
}

/* ------------------------------------------------------- assignability */

/* §3.  Stages: 0 the rules (a rule that asks one sub-question asks it in
   place of this one: only the answer matters); 1 every element or property
   must be assignable; 2 some union member must be. */
static void step_assign(machine *m, cframe *f) {
  ty_ctx *c = m->c;
  if (f->stage == 1) {
    if (f->i > 0 && !m->rb) {
      done_bool(m, f, false);
      return;
    }
    if (f->i == f->n) {
      done_bool(m, f, true);
      return;
    }
    const ty *to = f->a, *from = f->b;
    size_t i = f->i++;
    switch (to->kind) {
    case TY_LIST:
      push_assign(m, to->elem, from->elems.items[i]);
      return;
    case TY_MAP:
      push_assign(m, to->elem, from->object.props[i].type);
      return;
    case TY_TUPLE:
      push_assign(m, to->elems.items[i], i < from->elems.count ? from->elems.items[i] : ty_none(c));
      return;
    case TY_OBJECT: {
      const ty *fp = ty_object_get(from, to->object.props[i].name);
      push_assign(m, to->object.props[i].type, fp ? fp : ty_none(c));
      return;
    }
    case TY_BOOL:
    case TY_INT:
    case TY_NUMBER:
    case TY_STRING:
    case TY_ID:
    case TY_DYNAMIC:
    case TY_NONE:
    case TY_OPAQUE:
    case TY_SET:
    case TY_UNION:
    case TY_OUTPUT:
    case TY_PROMISE:
    case TY_CONST:
    case TY_ENUM:
      break;
    }
    ice("assignability of every element to a %s", ty_kind_name(to->kind));
  }
  if (f->stage == 2) {
    if (f->i > 0 && m->rb) {
      done_bool(m, f, true);
      return;
    }
    if (f->i == f->n) {
      done_bool(m, f, false);
      return;
    }
    push_assign(m, f->a->elems.items[f->i++], f->b);
    return;
  }
  for (;;) {
    const ty *to = f->a, *from = f->b;
    if (to == from || to->kind == TY_DYNAMIC) {
      done_bool(m, f, true);
      return;
    }
    if (from->kind == TY_CONST) {
      f->b = from->cnst.base;
      continue;
    }
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
      done_bool(m, f, false);
      return;
    case TY_LIST:
      if (from->kind == TY_LIST) {
        f->a = to->elem;
        f->b = from->elem;
        continue;
      }
      if (from->kind == TY_TUPLE) {
        f->n = from->elems.count;
        f->stage = 1;
        return;
      }
      done_bool(m, f, false);
      return;
    case TY_MAP:
      if (from->kind == TY_MAP) {
        f->a = to->elem;
        f->b = from->elem;
        continue;
      }
      if (from->kind == TY_OBJECT) {
        f->n = from->object.count;
        f->stage = 1;
        return;
      }
      done_bool(m, f, false);
      return;
    case TY_SET:
      if (from->kind == TY_SET) {
        f->a = to->elem;
        f->b = from->elem;
        continue;
      }
      done_bool(m, f, false);
      return;
    case TY_TUPLE:
      if (from->kind != TY_TUPLE) {
        done_bool(m, f, false);
        return;
      }
      f->n = to->elems.count;
      f->stage = 1;
      return;
    case TY_OBJECT:
      if (from->kind != TY_OBJECT) {
        done_bool(m, f, false);
        return;
      }
      if (!ty_busy_push(c, to, from, TY_BUSY_ASSIGN)) {
        done_bool(m, f, true);
        return;
      }
      f->busy = true;
      f->n = to->object.count;
      f->stage = 1;
      return;
    case TY_UNION:
      f->n = to->elems.count;
      f->stage = 2;
      return;
    case TY_OUTPUT:
      f->a = to->elem;
      if (from->kind == TY_OUTPUT)
        f->b = from->elem;
      else if (from->kind == TY_PROMISE)
        f->b = ty_resolve_outputs(c, from->elem);
      continue;
    case TY_PROMISE:
      f->a = to->elem;
      if (from->kind == TY_PROMISE)
        f->b = from->elem;
      continue;
    }
    ice("bad type kind %d", (int)to->kind);
  }
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

/* The stages of a conversion after its rules (stage 0) asked something. */
enum {
  CONV_ANSWER = 1, /* The sub-conversion's kind is the answer. */
  CONV_SOME,       /* The answer is unsafe if the sub-conversion exists. */
  CONV_FROM_UNION, /* Every member of the source union (§4.4). */
  CONV_MIN,        /* The least kind over elements or properties, from k. */
  CONV_TO_UNION,   /* The greatest kind over the destination's members. */
};

/* Sets the destination and source of the i-th sub-conversion of a
   CONV_MIN loop: the element or property types the rule of `to`'s kind
   pairs. */
static void min_operands(ty_ctx *c, const ty *to, const ty *from, size_t i, const ty **dst,
                         const ty **src) {
  switch (to->kind) {
  case TY_LIST:
  case TY_MAP:
    *dst = to->elem;
    *src = from->kind == TY_OBJECT ? from->object.props[i].type : from->elems.items[i];
    return;
  case TY_TUPLE:
    *dst = to->elems.items[i];
    *src = from->kind == TY_TUPLE ? from->elems.items[i] : from->elem;
    return;
  case TY_OBJECT:
    *dst = to->object.props[i].type;
    if (from->kind == TY_OBJECT) {
      const ty *fp = ty_object_get(from, to->object.props[i].name);
      *src = fp ? fp : ty_none(c);
    } else {
      *src = from->elem;
    }
    return;
  case TY_BOOL:
  case TY_INT:
  case TY_NUMBER:
  case TY_STRING:
  case TY_ID:
  case TY_DYNAMIC:
  case TY_NONE:
  case TY_OPAQUE:
  case TY_SET:
  case TY_UNION:
  case TY_OUTPUT:
  case TY_PROMISE:
  case TY_CONST:
  case TY_ENUM:
    break;
  }
  ice("elementwise conversion to a %s", ty_kind_name(to->kind));
}

/* The reason slot a conversion writes and passes on: its own when it has
   one, else its caller's. */
static int slot_of(const cframe *f) {
  return f->own >= 0 ? f->own : f->why;
}

/* Starts the loop that takes the least kind of n sub-conversions, from k0. */
static void conv_min_loop(cframe *f, size_t n, ty_conv k0) {
  f->stage = CONV_MIN;
  f->n = n;
  f->k = k0;
}

/* Stage 0: the prelude of §4.1 and the destination rule (§4.2).  Returns
   after answering or asking the first sub-question. */
static void conv_rules(machine *m, cframe *f) {
  ty_ctx *c = m->c;
  const ty *to = f->a, *from = f->b;
  if (to == from || to->kind == TY_DYNAMIC) {
    m->rk = TY_CONV_SAFE;
    pop(m, f);
    return;
  }
  if (ty_memo_ok(to, from) && (f->why < 0 || !f->unifying)) {
    ty_memo_op mop = f->why >= 0 ? TY_MEMO_CONV_WHY
                    : f->unifying ? TY_MEMO_CONV_UNIFY
                                  : TY_MEMO_CONV;
    const ty_memo *memo = ty_memo_get(c, to, from, mop);
    if (memo) {
      if (f->why >= 0)
        set_reason(m, f->why, memo->reason);
      m->rk = memo->kind;
      pop(m, f);
      return;
    }
    /* A conversion that explains a failure is memoised with its reason:
       the reason it records in an empty slot is a function of the pair.
       It collects that reason in a slot of its own. */
    if (f->why >= 0)
      f->own = reason_slot(m);
    f->memo = true;
  }

  if (from->kind == TY_UNION) {
    f->stage = CONV_FROM_UNION;
    f->n = from->elems.count;
    f->all_safe = true;
    f->k = TY_CONV_NONE;
    return;
  }
  if (from->kind == TY_CONST && to->kind != TY_ENUM) {
    f->stage = CONV_ANSWER;
    push_conv(m, to, from->cnst.base, f->unifying, slot_of(f));
    return;
  }
  if (from->kind == TY_DYNAMIC) {
    done_kind(m, f, TY_CONV_UNSAFE);
    return;
  }
  bool u = f->unifying;
  switch (to->kind) {
  case TY_BOOL:
  case TY_INT:
  case TY_NUMBER:
  case TY_STRING:
  case TY_ID:
    done_kind(m, f, conv_primitive(to, from));
    return;
  case TY_DYNAMIC:
    done_kind(m, f, TY_CONV_SAFE);
    return;
  case TY_NONE:
  case TY_OPAQUE:
    done_kind(m, f, TY_CONV_NONE);
    return;
  case TY_CONST:
    /* Any value of a convertible type might be the constant: unsafe. */
    f->stage = CONV_SOME;
    push_conv(m, to->cnst.base, from, u, -1);
    return;
  case TY_ENUM:
    /* Constants reach here unwrapped.  A member constant of a *different*
       base type is safe; everything else (including a string literal for a
       string enum, as the reference's condition is written) is at best
       unsafe. */
    if (from->kind == TY_CONST && to->enm.base != from->cnst.base) {
      for (size_t i = 0; i < to->enm.count; i++) {
        if (ty_value_equal(to->enm.values[i], from)) {
          done_kind(m, f, TY_CONV_SAFE);
          return;
        }
      }
    }
    f->stage = CONV_SOME;
    push_conv(m, to->enm.base, from, u, -1);
    return;
  case TY_LIST:
    /* Lists take lists and sets elementwise and tuples element by element
       (an empty tuple is safe). */
    if (from->kind == TY_LIST || from->kind == TY_SET) {
      f->stage = CONV_ANSWER;
      push_conv(m, to->elem, from->elem, u, slot_of(f));
      return;
    }
    if (from->kind == TY_TUPLE) {
      conv_min_loop(f, from->elems.count, TY_CONV_SAFE);
      return;
    }
    done_kind(m, f, TY_CONV_NONE);
    return;
  case TY_SET:
    /* Anything but a set may hold duplicates, so lists and tuples convert
       unsafely at best. */
    if (from->kind == TY_SET) {
      f->stage = CONV_ANSWER;
      push_conv(m, to->elem, from->elem, u, slot_of(f));
      return;
    }
    if (from->kind == TY_LIST) {
      f->stage = CONV_SOME;
      push_conv(m, to->elem, from->elem, u, slot_of(f));
      return;
    }
    if (from->kind == TY_TUPLE) {
      f->stage = CONV_SOME;
      push_conv(m, ty_list(c, to->elem), from, u, slot_of(f));
      return;
    }
    done_kind(m, f, TY_CONV_NONE);
    return;
  case TY_MAP:
    /* Maps take maps and objects (every property must convert). */
    if (from->kind == TY_MAP) {
      f->stage = CONV_ANSWER;
      push_conv(m, to->elem, from->elem, u, slot_of(f));
      return;
    }
    if (from->kind == TY_OBJECT) {
      conv_min_loop(f, from->object.count, TY_CONV_SAFE);
      return;
    }
    done_kind(m, f, TY_CONV_NONE);
    return;
  case TY_TUPLE:
    if (from->kind == TY_TUPLE) {
      if (u) {
        f->stage = CONV_ANSWER;
        push(m, OP_TUPLES, to, from);
        return;
      }
      if (to->elems.count != from->elems.count) {
        if (slot_of(f) >= 0 && !m->reasons[slot_of(f)]) {
          set_reason(m, slot_of(f),
                     arena_printf(c->arena, "tuples %s and %s have different lengths",
                                  diag_clip(c->arena, ty_pretty(c, to)),
                                  diag_clip(c->arena, ty_pretty(c, from))));
        }
        done_kind(m, f, TY_CONV_NONE);
        return;
      }
      conv_min_loop(f, to->elems.count, TY_CONV_SAFE);
      return;
    }
    /* A list's length is unknown statically: unsafe at best. */
    if (from->kind == TY_LIST || from->kind == TY_SET) {
      conv_min_loop(f, to->elems.count, TY_CONV_UNSAFE);
      return;
    }
    done_kind(m, f, TY_CONV_NONE);
    return;
  case TY_OBJECT:
    if (from->kind == TY_OBJECT) {
      if (u) {
        f->stage = CONV_ANSWER;
        push(m, OP_OBJECTS, to, from);
        return;
      }
      /* Coinduction for recursive named objects: a pair already being
         compared is assumed to convert. */
      if (!ty_busy_push(c, to, from, TY_BUSY_CONV)) {
        done_kind(m, f, TY_CONV_SAFE);
        return;
      }
      f->busy = true;
      conv_min_loop(f, to->object.count, TY_CONV_SAFE);
      return;
    }
    /* A map's keys are unknown statically: unsafe at best. */
    if (from->kind == TY_MAP) {
      conv_min_loop(f, to->object.count, TY_CONV_UNSAFE);
      return;
    }
    done_kind(m, f, TY_CONV_NONE);
    return;
  case TY_UNION:
    for (size_t i = 0; i < to->elems.count; i++) {
      if (to->elems.items[i] == from) {
        done_kind(m, f, TY_CONV_SAFE);
        return;
      }
    }
    /* A failing alternative's reason only matters if every one fails. */
    f->stage = CONV_TO_UNION;
    f->n = to->elems.count;
    f->k = TY_CONV_NONE;
    f->first = slot_of(f) >= 0 ? reason_slot(m) : -1;
    return;
  case TY_OUTPUT:
    /* Outputs take outputs, promises and plain values of their element. */
    f->stage = CONV_ANSWER;
    push_conv(m, to->elem,
              from->kind == TY_OUTPUT    ? from->elem
              : from->kind == TY_PROMISE ? ty_resolve_outputs(c, from->elem)
                                         : from,
              u, slot_of(f));
    return;
  case TY_PROMISE:
    /* An output cannot become a promise (it carries more information). */
    if (from->kind == TY_OUTPUT) {
      done_kind(m, f, TY_CONV_NONE);
      return;
    }
    f->stage = CONV_ANSWER;
    push_conv(m, to->elem, from->kind == TY_PROMISE ? from->elem : from, u, slot_of(f));
    return;
  }
  ice("bad type kind %d", (int)to->kind);
}

static void step_conv(machine *m, cframe *f) {
  ty_ctx *c = m->c;
  switch (f->stage) {
  case 0:
    conv_rules(m, f);
    return;
  case CONV_ANSWER:
    done_kind(m, f, m->rk);
    return;
  case CONV_SOME:
    done_kind(m, f, m->rk == TY_CONV_NONE ? TY_CONV_NONE : TY_CONV_UNSAFE);
    return;
  case CONV_FROM_UNION:
    if (f->i > 0) {
      if (m->rk != TY_CONV_SAFE)
        f->all_safe = false;
      if (m->rk != TY_CONV_NONE)
        f->k = TY_CONV_UNSAFE;
    }
    if (f->i < f->n) {
      push_conv(m, f->a, f->b->elems.items[f->i++], f->unifying, -1);
      return;
    }
    if (f->all_safe) {
      done_kind(m, f, TY_CONV_SAFE);
      return;
    }
    if (f->k == TY_CONV_NONE && slot_of(f) >= 0 && !m->reasons[slot_of(f)]) {
      set_reason(m, slot_of(f),
                 arena_printf(c->arena, "cannot assign value of type %s to type %s",
                              diag_clip(c->arena, ty_pretty(c, f->b)),
                              diag_clip(c->arena, ty_pretty(c, f->a))));
    }
    done_kind(m, f, f->k);
    return;
  case CONV_MIN: {
    if (f->i > 0)
      f->k = conv_min(f->k, m->rk);
    if (f->i == f->n || f->k == TY_CONV_NONE) {
      done_kind(m, f, f->k);
      return;
    }
    const ty *dst, *src;
    min_operands(c, f->a, f->b, f->i++, &dst, &src);
    /* Object properties convert without the unifying flag (§4.3). */
    bool u = f->unifying && !(f->a->kind == TY_OBJECT && f->b->kind == TY_OBJECT);
    push_conv(m, dst, src, u, slot_of(f));
    return;
  }
  case CONV_TO_UNION:
    if (f->i > 0)
      f->k = conv_max(f->k, m->rk);
    if (f->i < f->n) {
      push_conv(m, f->a->elems.items[f->i++], f->b, f->unifying, f->first);
      return;
    }
    if (f->first >= 0) {
      const char *first = m->reasons[f->first];
      m->nreasons--;
      if (f->k == TY_CONV_NONE)
        set_reason(m, slot_of(f), first);
    }
    done_kind(m, f, f->k);
    return;
  default:
    break;
  }
  ice("bad conversion stage %u", f->stage);
}

/* --------------------------------------------------------- unification */

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

/* The stages of a unification. */
enum {
  UNIFY_START,     /* Memo, trivial cases, then conv(a, b). */
  UNIFY_BACK,      /* conv(b, a) (its forward kind is in k). */
  UNIFY_DECIDE,    /* §5.1 on the two kinds; the receiver rule (§5.3). */
  UNIFY_ANSWER,    /* The sub-unification's type and kind are the answer. */
  UNIFY_SAME,      /* The answer is the receiver t with the kind asked. */
  UNIFY_WRAP,      /* The sub-answer's type wrapped in kind n (a ty_kind). */
  UNIFY_MEMBERS,   /* Every member of the receiver union unified with b. */
};

/* Asks SAME(): the receiver t = a with the kind conv(a, b, unifying). */
static void unify_same(machine *m, cframe *f) {
  f->t = f->a;
  f->stage = UNIFY_SAME;
  push_conv(m, f->a, f->b, true, -1);
}

/* Unifies, then wraps the answer in a collection or eventual kind. */
static void unify_wrapped(machine *m, cframe *f, ty_kind k, const ty *x, const ty *y) {
  f->stage = UNIFY_WRAP;
  f->n = (size_t)k;
  push_unify(m, x, y);
}

/* Folds, then wraps the answer in a collection kind. */
static void fold_wrapped(machine *m, cframe *f, ty_kind k, const ty *start, const ty *src,
                         ty_conv k0) {
  f->stage = UNIFY_WRAP;
  f->n = (size_t)k;
  push_fold(m, start, src, k0);
}

/* The receiver-specific rules of §5.3 for receiver a and other b; reached
   only when both directions convert with the same kind, which is not none.
   The kind itself is recomputed only by the cases that need it (it can be
   costly for nested tuples and objects). */
static void unify_receiver(machine *m, cframe *f) {
  ty_ctx *c = m->c;
  const ty *a = f->a, *b = f->b;
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
        f->t = w;
        f->stage = UNIFY_SAME;
        push_conv(m, w, w == a ? b : a, true, -1);
        return;
      }
    }
    done_type(m, f, ty_dynamic(c), TY_CONV_SAFE);
    return;
  }
  case TY_NONE:
  case TY_CONST:
    f->t = a;
    f->stage = UNIFY_SAME;
    push_conv(m, b, a, true, -1);
    return;
  case TY_ENUM:
    /* Unreachable in practice (§5.3); keep the receiver. */
    unify_same(m, f);
    return;
  case TY_UNION:
    if (b->kind == TY_UNION) {
      done_type(m, f, ty_union2(c, a, b), TY_CONV_SAFE);
      return;
    }
    f->stage = UNIFY_MEMBERS;
    f->n = a->elems.count;
    f->k = TY_CONV_SAFE;
    f->elems = xmalloc(f->n * sizeof *f->elems);
    return;
  case TY_OUTPUT:
    if (b->kind == TY_OUTPUT)
      unify_wrapped(m, f, TY_OUTPUT, a->elem, b->elem);
    else if (b->kind == TY_PROMISE)
      unify_wrapped(m, f, TY_OUTPUT, a->elem, ty_resolve_outputs(c, b->elem));
    else
      unify_same(m, f);
    return;
  case TY_PROMISE:
    if (b->kind == TY_PROMISE)
      unify_wrapped(m, f, TY_PROMISE, a->elem, b->elem);
    else if (b->kind == TY_OUTPUT)
      unify_wrapped(m, f, TY_OUTPUT, a->elem, b->elem);
    else
      unify_same(m, f);
    return;
  case TY_LIST:
    if (b->kind == TY_TUPLE)
      fold_wrapped(m, f, TY_LIST, a->elem, b, TY_CONV_SAFE);
    else if (b->kind == TY_SET || b->kind == TY_LIST)
      unify_wrapped(m, f, TY_LIST, a->elem, b->elem);
    else
      unify_same(m, f);
    return;
  case TY_SET:
    if (b->kind == TY_SET || b->kind == TY_LIST)
      unify_wrapped(m, f, b->kind, a->elem, b->elem);
    else if (b->kind == TY_TUPLE)
      fold_wrapped(m, f, TY_SET, a->elem, b, TY_CONV_UNSAFE);
    else
      unify_same(m, f);
    return;
  case TY_TUPLE:
    if (b->kind == TY_TUPLE) {
      f->stage = UNIFY_ANSWER;
      push(m, OP_TUPLES, a, b);
    } else if (b->kind == TY_LIST || b->kind == TY_SET) {
      fold_wrapped(m, f, b->kind, b->elem, a,
                   b->kind == TY_LIST ? TY_CONV_SAFE : TY_CONV_UNSAFE);
    } else {
      unify_same(m, f);
    }
    return;
  case TY_MAP:
    if (b->kind == TY_MAP)
      unify_wrapped(m, f, TY_MAP, a->elem, b->elem);
    else if (b->kind == TY_OBJECT)
      fold_wrapped(m, f, TY_MAP, a->elem, b, TY_CONV_SAFE);
    else
      unify_same(m, f);
    return;
  case TY_OBJECT:
    if (b->kind == TY_MAP) {
      fold_wrapped(m, f, TY_MAP, b->elem, a, TY_CONV_SAFE);
    } else if (b->kind == TY_OBJECT) {
      f->stage = UNIFY_ANSWER;
      push(m, OP_OBJECTS, a, b);
    } else {
      unify_same(m, f);
    }
    return;
  }
  ice("bad type kind %d", (int)a->kind);
}

/* unify(a, b) of §5.1: the side the other converts to more safely wins;
   when neither converts the result is their union; when both convert
   equally well the receiver's own rule (§5.3) decides.  Memoised for types
   that reach no named object (nested objects and tuples would otherwise be
   unified three times per level). */
static void step_unify(machine *m, cframe *f) {
  ty_ctx *c = m->c;
  switch (f->stage) {
  case UNIFY_START: {
    if (ty_memo_ok(f->a, f->b)) {
      const ty_memo *memo = ty_memo_get(c, f->a, f->b, TY_MEMO_UNIFY);
      if (memo) {
        m->rt = memo->result;
        m->rk = memo->kind;
        pop(m, f);
        return;
      }
      f->memo = true;
    }
    if (f->a->kind == TY_DYNAMIC) {
      const ty *t = f->a;
      f->a = f->b;
      f->b = t;
    }
    if (f->a == f->b) {
      done_type(m, f, f->a, TY_CONV_SAFE);
      return;
    }
    if (f->b->kind == TY_DYNAMIC) {
      done_type(m, f, f->a, TY_CONV_UNSAFE);
      return;
    }
    f->stage = UNIFY_BACK;
    push_conv(m, f->a, f->b, true, -1);
    return;
  }
  case UNIFY_BACK:
    f->k = m->rk;
    f->stage = UNIFY_DECIDE;
    push_conv(m, f->b, f->a, true, -1);
    return;
  case UNIFY_DECIDE: {
    ty_conv cf = f->k, ct = m->rk;
    if (cf < ct) {
      done_type(m, f, f->b, ct);
      return;
    }
    if (cf > ct) {
      done_type(m, f, f->a, cf);
      return;
    }
    if (cf == TY_CONV_NONE) {
      done_type(m, f, ty_union2(c, f->a, f->b), TY_CONV_SAFE);
      return;
    }
    if (f->b->kind == TY_UNION) {
      const ty *t = f->a;
      f->a = f->b;
      f->b = t;
    }
    unify_receiver(m, f);
    return;
  }
  case UNIFY_ANSWER:
    done_type(m, f, m->rt, m->rk);
    return;
  case UNIFY_SAME:
    done_type(m, f, f->t, m->rk);
    return;
  case UNIFY_WRAP:
    done_type(m, f, wrap(c, (ty_kind)f->n, m->rt), m->rk);
    return;
  case UNIFY_MEMBERS:
    if (f->i > 0) {
      f->elems[f->i - 1] = m->rt;
      f->k = conv_min(f->k, m->rk);
    }
    if (f->i < f->n) {
      push_unify(m, f->a->elems.items[f->i++], f->b);
      return;
    }
    done_type(m, f, ty_union(c, f->n, f->elems), f->k);
    return;
  default:
    break;
  }
  ice("bad unification stage %u", f->stage);
}

/* Folds unify over t and the elements of b: the accumulated type is t, the
   accumulated kind k. */
static void step_fold(machine *m, cframe *f) {
  if (f->i > 0) {
    f->t = m->rt;
    f->k = conv_min(f->k, m->rk);
  }
  if (f->i == f->n) {
    m->rt = f->t;
    m->rk = f->k;
    pop(m, f);
    return;
  }
  const ty *b = f->b;
  size_t i = f->i++;
  push_unify(m, f->t, b->kind == TY_OBJECT ? b->object.props[i].type : b->elems.items[i]);
}

/* The tuple receiver rule with another tuple: the common prefix unified
   elementwise, the longer tuple's tail made optional. */
static void step_tuples(machine *m, cframe *f) {
  ty_ctx *c = m->c;
  const ty *a = f->a, *b = f->b;
  size_t na = a->elems.count, nb = b->elems.count;
  if (f->stage == 0) {
    f->stage = 1;
    f->n = na > nb ? na : nb;
    f->k = TY_CONV_SAFE;
    f->elems = xmalloc((f->n ? f->n : 1) * sizeof *f->elems);
  } else {
    f->elems[f->i - 1] = m->rt;
    f->k = conv_min(f->k, m->rk);
  }
  while (f->i < f->n) {
    size_t i = f->i++;
    if (i < na && i < nb) {
      push_unify(m, a->elems.items[i], b->elems.items[i]);
      return;
    }
    f->elems[i] = ty_optional(c, i < na ? a->elems.items[i] : b->elems.items[i]);
  }
  m->rt = ty_tuple(c, f->n, f->elems);
  m->rk = f->k;
  pop(m, f);
}

/* The object receiver rule with another object: common keys unified, keys
   of only one side made optional. */
static void step_objects(machine *m, cframe *f) {
  ty_ctx *c = m->c;
  const ty *a = f->a, *b = f->b;
  size_t na = a->object.count, nb = b->object.count;
  if (f->stage == 0) {
    if (!ty_busy_push(c, a, b, TY_BUSY_UNIFY)) {
      m->rt = a;
      m->rk = TY_CONV_SAFE;
      pop(m, f);
      return;
    }
    f->busy = true;
    f->stage = 1;
    f->k = TY_CONV_SAFE;
    f->props = xmalloc((na + nb ? na + nb : 1) * sizeof *f->props);
  } else {
    f->props[f->np++].type = m->rt;
    f->k = conv_min(f->k, m->rk);
  }
  while (f->i < na) {
    const ty_prop *p = &a->object.props[f->i++];
    const ty *fb = ty_object_get(b, p->name);
    f->props[f->np].name = p->name;
    if (fb) {
      push_unify(m, p->type, fb);
      return;
    }
    f->props[f->np++].type = ty_optional(c, p->type);
  }
  for (size_t i = 0; i < nb; i++) {
    if (ty_object_get(a, b->object.props[i].name))
      continue;
    f->props[f->np].name = b->object.props[i].name;
    f->props[f->np++].type = ty_optional(c, b->object.props[i].type);
  }
  m->rt = ty_object(c, f->np, f->props);
  m->rk = f->k;
  pop(m, f);
}

/* Runs the machine until the question pushed first is answered. */
static void run(machine *m) {
  while (m->count > 0) {
    cframe *f = &m->frames[m->count - 1];
    switch (f->op) {
    case OP_ASSIGN:
      step_assign(m, f);
      break;
    case OP_CONV:
      step_conv(m, f);
      break;
    case OP_UNIFY:
      step_unify(m, f);
      break;
    case OP_FOLD:
      step_fold(m, f);
      break;
    case OP_TUPLES:
      step_tuples(m, f);
      break;
    case OP_OBJECTS:
      step_objects(m, f);
      break;
    }
  }
}

/* ------------------------------------------------------------ questions */

bool ty_assignable(ty_ctx *c, const ty *to, const ty *from) {
  if (to == from || to->kind == TY_DYNAMIC)
    return true;
  machine m;
  machine_init(&m, c);
  push_assign(&m, to, from);
  run(&m);
  machine_free(&m);
  return m.rb;
}

/* The conversion kind to `to` from `from`; when why is not NULL, *why
   receives the reason of a failure (or stays NULL). */
static ty_conv conv(ty_ctx *c, const ty *to, const ty *from, bool unifying, const char **why) {
  if (to == from || to->kind == TY_DYNAMIC)
    return TY_CONV_SAFE;
  machine m;
  machine_init(&m, c);
  push_conv(&m, to, from, unifying, why ? reason_slot(&m) : -1);
  run(&m);
  if (why)
    *why = m.reasons[0];
  machine_free(&m);
  return m.rk;
}

/* unify(a, b) and its kind. */
static const ty *unify(ty_ctx *c, const ty *a, const ty *b, ty_conv *kind) {
  machine m;
  machine_init(&m, c);
  push_unify(&m, a, b);
  run(&m);
  machine_free(&m);
  *kind = m.rk;
  return m.rt;
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
