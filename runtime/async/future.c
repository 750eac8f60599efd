/* future.c: output and promise futures, their combinators and dependency
 * sets (lowering.md §5, DECISIONS.md D2).
 *
 * Takes values from the value layer and settles futures with them; produces
 * combined futures (apply, all, deep await, secret, unsecret, attribute).
 * Every combinator is built on one internal join: wait for n futures, then
 * run a completion from the loop.  Callbacks never run inline (STYLE §33):
 * settling a future only queues its waiters.
 *
 * Invariants: a resolved future's value is never SECRET, UNKNOWN or EVENTUAL
 * at the top (those are turned into bits or flattened); an unknown future has
 * no value; dependency sets are sorted by the interned URN pointers and hold
 * no duplicates. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "value/pcl_internal.h"
#include "async/sched_internal.h"

/* ------------------------------------------------------------ dependencies */

struct pcl_deps {
  uint32_t refs;       /* Reference count. */
  uint32_t n;          /* Number of URNs. */
  const char *urns[];  /* Interned URNs in ascending pointer order. */
};

/* Returns the size of the block of a set of n URNs. */
static size_t deps_size(size_t n) { return sizeof(pcl_deps) + n * sizeof(const char *); }

static pcl_deps *deps_alloc(size_t n) {
  pcl_deps *d = pcl__pool_alloc(deps_size(n));
  d->refs = 1;
  d->n = (uint32_t)n;
  return d;
}

pcl_deps *pcl_deps_one(const char *urn) { return pcl__deps_one_interned(pcl_urn_intern(urn)); }

pcl_deps *pcl__deps_one_interned(const char *urn) {
  pcl_deps *d = deps_alloc(1);
  d->urns[0] = urn;
  return d;
}

pcl_deps *pcl_deps_retain(const pcl_deps *d) {
  pcl_deps *m = (pcl_deps *)d;
  if (m) {
    m->refs++;
  }
  return m;
}

void pcl_deps_release(pcl_deps *d) {
  if (d && --d->refs == 0) {
    pcl__pool_free(d, deps_size(d->n));
  }
}

size_t pcl_deps_count(const pcl_deps *d) { return d ? d->n : 0; }

/* Returns whether every URN of a is in b. */
static bool deps_subset(const pcl_deps *a, const pcl_deps *b) {
  size_t j = 0;
  for (size_t i = 0; i < a->n; i++) {
    while (j < b->n && (uintptr_t)b->urns[j] < (uintptr_t)a->urns[i]) {
      j++;
    }
    if (j == b->n || b->urns[j] != a->urns[i]) {
      return false;
    }
  }
  return true;
}

pcl_deps *pcl_deps_union(const pcl_deps *a, const pcl_deps *b) {
  if (a == NULL || a->n == 0 || a == b) {
    return pcl_deps_retain(b && b->n ? b : a && a->n ? a : NULL);
  }
  if (b == NULL || b->n == 0) {
    return pcl_deps_retain(a);
  }
  /* Share an existing set when one contains the other: resource outputs
   * mostly combine the same few sets. */
  if (a->n >= b->n && deps_subset(b, a)) {
    return pcl_deps_retain(a);
  }
  if (b->n > a->n && deps_subset(a, b)) {
    return pcl_deps_retain(b);
  }
  /* Two passes of the merge: the first counts the union, so that the set
   * is allocated at its size (its block is given back by that size). */
  size_t total = 0;
  for (size_t i = 0, j = 0; i < a->n || j < b->n; total++) {
    uintptr_t x = i < a->n ? (uintptr_t)a->urns[i] : UINTPTR_MAX;
    uintptr_t y = j < b->n ? (uintptr_t)b->urns[j] : UINTPTR_MAX;
    i += x <= y;
    j += y <= x;
  }
  pcl_deps *d = deps_alloc(total);
  for (size_t i = 0, j = 0, k = 0; k < total; k++) {
    uintptr_t x = i < a->n ? (uintptr_t)a->urns[i] : UINTPTR_MAX;
    uintptr_t y = j < b->n ? (uintptr_t)b->urns[j] : UINTPTR_MAX;
    d->urns[k] = x <= y ? a->urns[i] : b->urns[j];
    i += x <= y;
    j += y <= x;
  }
  return d;
}

/* qsort order of pointers by address (interned URNs, dependency sets). */
static int cmp_addr(const void *a, const void *b) {
  uintptr_t x = (uintptr_t) * (const void *const *)a, y = (uintptr_t) * (const void *const *)b;
  return x < y ? -1 : x > y;
}

/* Returns the set of the interned URNs urns[0..n) (owned; NULL for none),
 * duplicates dropped; urns is sorted in place. */
static pcl_deps *pcl__deps_of_interned(const char **urns, size_t n) {
  if (n == 0) {
    return NULL;
  }
  qsort(urns, n, sizeof *urns, cmp_addr);
  size_t k = 1;
  for (size_t i = 1; i < n; i++) {
    if (urns[i] != urns[k - 1]) {
      urns[k++] = urns[i];
    }
  }
  pcl_deps *d = deps_alloc(k);
  memcpy(d->urns, urns, k * sizeof *urns);
  return d;
}

pcl_deps *pcl__deps_of_urns(const char *const *urns, size_t n) {
  const char **in = pcl_xmalloc((n ? n : 1) * sizeof *in);
  for (size_t i = 0; i < n; i++) {
    in[i] = pcl_urn_intern(urns[i]);
  }
  pcl_deps *d = pcl__deps_of_interned(in, n);
  free(in);
  return d;
}

pcl_deps *pcl__deps_union_all(const pcl_deps *const *sets, size_t n) {
  /* The distinct sets that are not empty: many inputs mostly share a few
   * sets, which count once. */
  const pcl_deps *small[8] = {NULL};
  const pcl_deps **v = n <= 8 ? small : pcl_xmalloc(n * sizeof *v);
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    if (sets[i] != NULL && sets[i]->n > 0) {
      v[m++] = sets[i];
    }
  }
  pcl_deps *r;
  if (m <= 2) {
    r = m == 0 ? NULL : m == 1 ? pcl_deps_retain(v[0]) : pcl_deps_union(v[0], v[1]);
  } else {
    qsort(v, m, sizeof *v, cmp_addr);
    size_t k = 1, total = v[0]->n;
    const pcl_deps *big = v[0];
    for (size_t i = 1; i < m; i++) {
      if (v[i] != v[k - 1]) {
        v[k++] = v[i];
        total += v[i]->n;
        big = v[i]->n > big->n ? v[i] : big;
      }
    }
    /* Every URN once, sorted and deduplicated in one pass; when that is no
     * more than the largest set, the union is that set, shared. */
    const char **all = pcl_xmalloc(total * sizeof *all);
    size_t at = 0;
    for (size_t i = 0; i < k; i++) {
      memcpy(all + at, v[i]->urns, v[i]->n * sizeof *all);
      at += v[i]->n;
    }
    r = pcl__deps_of_interned(all, total);
    if (r->n == big->n) {
      pcl_deps_release(r);
      r = pcl_deps_retain(big);
    }
    free(all);
  }
  if (v != small) {
    free(v);
  }
  return r;
}

static int cmp_cstr(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void pcl_deps_sorted(const pcl_deps *d, const char **out) {
  size_t n = pcl_deps_count(d);
  for (size_t i = 0; i < n; i++) {
    out[i] = d->urns[i];
  }
  qsort(out, n, sizeof *out, cmp_cstr);
}

pcl_value *pcl__deps_list(const pcl_deps *d) {
  size_t n = pcl_deps_count(d);
  const char **urns = pcl_xmalloc((n ? n : 1) * sizeof *urns);
  pcl_deps_sorted(d, urns);
  pcl_value *l = pcl_list_new(n);
  for (size_t i = 0; i < n; i++) {
    pcl_list_init_take(l, i, pcl__str_fast(urns[i]));
  }
  free(urns);
  return l;
}

bool pcl_deps_has(const pcl_deps *d, const char *urn) {
  for (size_t i = 0; i < pcl_deps_count(d); i++) {
    if (strcmp(d->urns[i], urn) == 0) {
      return true;
    }
  }
  return false;
}

/* ----------------------------------------------------------------- futures */

pcl_future *pcl_future_new(pcl_future_kind kind, const char *label) {
  return pcl__future_new_label_take(kind, label ? pcl_xstrdup(label) : NULL);
}

pcl_future *pcl__future_new_label_take(pcl_future_kind kind, char *label) {
  pcl_future *f = pcl__pool_alloc(sizeof *f);
  memset(f, 0, sizeof *f);
  f->refs = 1;
  f->state = PCL_FUTURE_PENDING;
  f->kind = (uint8_t)kind;
  f->label = label;
  f->wtail = &f->waiters;
  pcl__sched_track(f);
  pcl__sched_count_future(1);
  return f;
}

pcl_future *pcl_future_retain(pcl_future *f) {
  f->refs++;
  return f;
}

void pcl_future_release(pcl_future *f) {
  if (f == NULL || --f->refs > 0) {
    return;
  }
  if (f->state == PCL_FUTURE_PENDING) {
    /* Only reachable when every producer dropped a future nobody waits on
     * (waiters keep it alive): it can never settle, so it simply leaves the
     * pending list. */
    pcl__sched_untrack(f);
  }
  if (f->state == PCL_FUTURE_REJECTED && !(f->misc & PCL__FUT_OBSERVED)) {
    pcl__sched_unhandled(f->error);
  }
  pcl_release(f->value);
  pcl_error_free(f->error);
  pcl_deps_release(f->deps);
  if (f->label != NULL) { /* Most futures have none: no call for nothing. */
    free(f->label);
  }
  pcl__pool_free(f, sizeof *f);
  pcl__sched_count_future(-1);
}

/* Moves f's waiters to the loop's queue. */
static void wake(pcl_future *f) {
  pcl__waiter *w = f->waiters;
  if (w == NULL) {
    return;
  }
  f->waiters = NULL;
  f->wtail = &f->waiters;
  while (w) {
    pcl__waiter *next = w->next;
    pcl__sched_post_future(w->cb, f, w->data);
    if (w != &f->w0) {
      pcl__pool_free(w, sizeof *w);
    }
    w = next;
  }
  /* Drop the reference the waiters held; the queued tasks hold their own,
   * so f stays alive here. */
  pcl_future_release(f);
}

/* Returns whether f may be settled now; aborts on a second settle of a
 * future that was not cancelled. */
static bool can_settle(const pcl_future *f) {
  if (f->state == PCL_FUTURE_PENDING) {
    return true;
  }
  if (f->misc & PCL__FUT_CANCELLED) {
    return false;
  }
  fprintf(stderr, "libpclrt: a future was settled twice\n");
  abort();
}

/* State for a future that follows another (flattening). */
typedef struct follow {
  pcl_future *target; /* The future to settle (owned reference). */
  unsigned bits;      /* Bits to add to the inner future's. */
  pcl_deps *deps;     /* Dependencies to add (owned). */
} follow;

static void follow_done(pcl_future *inner, void *data) {
  follow *fl = data;
  if (inner->state == PCL_FUTURE_REJECTED) {
    if (can_settle(fl->target)) {
      pcl_future_reject(fl->target, inner->error);
    }
  } else if (can_settle(fl->target)) {
    pcl_deps *d = pcl_deps_union(fl->deps, inner->deps);
    pcl_future_resolve(fl->target, inner->value, fl->bits | inner->bits, d);
    pcl_deps_release(d);
  }
  pcl_future_release(fl->target);
  pcl_deps_release(fl->deps);
  free(fl);
}

void pcl_future_resolve(pcl_future *f, pcl_value *v, unsigned bits, const pcl_deps *deps) {
  if (!can_settle(f)) {
    return;
  }
  while (v && v->kind == PCL_T_SECRET) {
    bits |= PCL_FUT_SECRET;
    v = pcl_secret_inner(v);
  }
  pcl_future *inner = v ? pcl_value_future(v) : NULL;
  if (inner) {
    follow *fl = pcl_xmalloc(sizeof *fl);
    fl->target = pcl_future_retain(f);
    fl->bits = bits;
    fl->deps = pcl_deps_retain(deps);
    pcl_future_then(inner, follow_done, fl);
    return;
  }
  if (v && v->kind == PCL_T_UNKNOWN) {
    bits |= PCL_FUT_UNKNOWN;
  }
  f->state = PCL_FUTURE_RESOLVED;
  f->bits = (uint8_t)(bits & (PCL_FUT_UNKNOWN | PCL_FUT_SECRET));
  f->value = (bits & PCL_FUT_UNKNOWN) ? NULL : pcl_retain(v ? v : pcl_null());
  f->deps = pcl_deps_retain(deps);
  pcl__sched_untrack(f);
  wake(f);
}

void pcl_future_reject_take(pcl_future *f, pcl_error *err) {
  if (!can_settle(f)) {
    pcl_error_free(err);
    return;
  }
  f->state = PCL_FUTURE_REJECTED;
  f->error = err;
  pcl__sched_untrack(f);
  wake(f);
}

void pcl_future_reject(pcl_future *f, const pcl_error *err) {
  pcl_future_reject_take(f, pcl_error_copy(err));
}

pcl_future *pcl_future_resolved(pcl_future_kind kind, pcl_value *v, unsigned bits,
                                const pcl_deps *deps) {
  pcl_future *f = pcl_future_new(kind, NULL);
  pcl_future_resolve(f, v, bits, deps);
  return f;
}

pcl_future *pcl_future_rejected(const pcl_error *err) {
  pcl_future *f = pcl_future_new(PCL_OUTPUT, NULL);
  pcl_future_reject(f, err);
  return f;
}

void pcl_future_then(pcl_future *f, pcl_future_cb cb, void *data) {
  f->misc |= PCL__FUT_OBSERVED;
  if (f->state != PCL_FUTURE_PENDING) {
    pcl__sched_post_future(cb, f, data);
    return;
  }
  /* The first waiter of the list uses the future's own storage: the list
   * is empty only before the first waiter, since a settled future takes no
   * more waiters (they are posted at once, above). */
  pcl__waiter *w = f->waiters == NULL ? &f->w0 : pcl__pool_alloc(sizeof *w);
  w->cb = cb;
  w->data = data;
  w->next = NULL;
  if (f->waiters == NULL) {
    /* A future with waiters stays alive until it settles, so that every
     * callback runs even when its producer and the caller drop it. */
    f->refs++;
  }
  *f->wtail = w;
  f->wtail = &w->next;
}

void pcl_future_mark_handled(pcl_future *f) { f->misc |= PCL__FUT_OBSERVED; }

pcl_future_state pcl_future_state_of(const pcl_future *f) { return (pcl_future_state)f->state; }
pcl_future_kind pcl_future_kind_of(const pcl_future *f) { return (pcl_future_kind)f->kind; }
unsigned pcl_future_bits(const pcl_future *f) { return f->bits; }
pcl_value *pcl_future_value(const pcl_future *f) { return f->value; }
const pcl_error *pcl_future_error(const pcl_future *f) { return f->error; }
const pcl_deps *pcl_future_deps(const pcl_future *f) { return f->deps; }
const char *pcl_future_label(const pcl_future *f) { return f->label; }

/* ------------------------------------------------------- futures in values */

static void ev_retain(void *p) { pcl_future_retain(p); }
static void ev_release(void *p) { pcl_future_release(p); }
static const pcl_eventual_ops future_ops = {"output", ev_retain, ev_release};

pcl_value *pcl_future_to_value(pcl_future *f) {
  return pcl_eventual_new_take(pcl_future_retain(f), &future_ops);
}

pcl_future *pcl_value_future(const pcl_value *v) {
  if (v->kind == PCL_T_EVENTUAL && v->u.ev.ops == &future_ops) {
    return v->u.ev.ptr;
  }
  return NULL;
}

pcl_future *pcl_future_of_value(pcl_value *v) {
  pcl_future *f = pcl_value_future(v);
  if (f) {
    return pcl_future_retain(f);
  }
  return pcl_future_resolved(PCL_OUTPUT, v, 0, NULL);
}

/* -------------------------------------------------------------------- join */

typedef struct join join;
/* Runs when every input of j settled; must free whatever it owns in j->data
 * and settle j->result.  join_finish frees the join itself. */
typedef void (*join_done_fn)(join *j);

struct join {
  pcl_future *result;   /* The combined future (owned reference). */
  join_done_fn done;    /* What to do once all inputs settled. */
  void *data;           /* The combinator's state. */
  size_t n;             /* Number of inputs. */
  size_t remaining;     /* Inputs not yet settled. */
  size_t size;          /* The size of the join's block. */
  pcl_future *in[];     /* The inputs (owned references). */
};

static void join_step(pcl_future *f, void *data) {
  (void)f;
  join *j = data;
  if (--j->remaining > 0) {
    return;
  }
  j->done(j);
  for (size_t i = 0; i < j->n; i++) {
    pcl_future_release(j->in[i]);
  }
  pcl_future_release(j->result);
  pcl__pool_free(j, j->size);
}

/* Starts a join over fs[0..n) whose result is an output if any input is
 * (or force_output) and a promise otherwise; returns the result (owned).
 * When extra is not 0, data is ignored: the join's data is instead extra
 * bytes (pointer-aligned) allocated with the join and freed with it, which
 * *extra_out points to; the caller fills them before any callback runs
 * (callbacks always run from a later loop turn). */
static pcl_future *join_start(pcl_future *const *fs, size_t n, join_done_fn done, void *data,
                              bool force_output, size_t extra, void **extra_out) {
  pcl_future_kind kind = force_output ? PCL_OUTPUT : PCL_PROMISE;
  for (size_t i = 0; i < n; i++) {
    if (fs[i]->kind == PCL_OUTPUT) {
      kind = PCL_OUTPUT;
    }
  }
  size_t size = sizeof(join) + n * sizeof(pcl_future *) + extra;
  join *j = pcl__pool_alloc(size);
  j->size = size;
  pcl_future *result = pcl_future_new(n == 0 ? PCL_OUTPUT : kind, NULL);
  j->result = pcl_future_retain(result);
  j->done = done;
  j->data = data;
  if (extra != 0) {
    j->data = &j->in[n];
    *extra_out = j->data;
  }
  j->n = n;
  j->remaining = n ? n : 1;
  for (size_t i = 0; i < n; i++) {
    j->in[i] = pcl_future_retain(fs[i]);
  }
  if (n == 0) {
    pcl__sched_post_future(join_step, NULL, j);
  }
  for (size_t i = 0; i < n; i++) {
    pcl_future_then(fs[i], join_step, j);
  }
  return result;
}

/* The combined bits and dependencies of a join's resolved inputs; returns
 * the first rejected input in argument order, or NULL. */
static pcl_future *join_merge(const join *j, unsigned *bits, pcl_deps **deps) {
  *bits = 0;
  *deps = NULL;
  for (size_t i = 0; i < j->n; i++) {
    if (j->in[i]->state == PCL_FUTURE_REJECTED) {
      pcl_deps_release(*deps);
      *deps = NULL;
      return j->in[i];
    }
  }
  const pcl_deps *small[8] = {NULL};
  const pcl_deps **sets = j->n <= 8 ? small : pcl_xmalloc(j->n * sizeof *sets);
  for (size_t i = 0; i < j->n; i++) {
    *bits |= j->in[i]->bits;
    sets[i] = j->in[i]->deps;
  }
  *deps = pcl__deps_union_all(sets, j->n);
  if (sets != small) {
    free(sets);
  }
  return NULL;
}

/* ------------------------------------------------------------------- apply */

typedef struct apply {
  pcl_apply_fn fn;                /* The callback. */
  void *data;                     /* Its data. */
  void (*free_data)(void *data);  /* Frees data, or NULL. */
  unsigned flags;                 /* PCL_APPLY_* flags. */
} apply;

static void apply_done(join *j) {
  apply *a = j->data;
  unsigned bits;
  pcl_deps *deps;
  pcl_future *bad = join_merge(j, &bits, &deps);
  if (a->flags & PCL_APPLY_SECRET) {
    bits |= PCL_FUT_SECRET;
  }
  if (j->result->state != PCL_FUTURE_PENDING) {
    /* Cancelled while waiting: nothing to compute. */
  } else if (bad) {
    pcl_future_reject(j->result, bad->error);
  } else if ((bits & PCL_FUT_UNKNOWN) && !(a->flags & PCL_APPLY_UNKNOWNS)) {
    pcl_future_resolve(j->result, NULL, bits, deps);
  } else {
    pcl_value *small[4];
    pcl_value **args = j->n <= 4 ? small : pcl_xmalloc(j->n * sizeof *args);
    for (size_t i = 0; i < j->n; i++) {
      args[i] = (j->in[i]->bits & PCL_FUT_UNKNOWN) ? pcl_unknown() : j->in[i]->value;
    }
    /* The callback sees the inputs unwrapped: when one is secret, a
     * message it makes must not show the values (pcl_value_repr prints
     * "[secret]" inside the scope). */
    bool secret = (bits & PCL_FUT_SECRET) != 0;
    if (secret) {
      pcl__redact_enter();
    }
    pcl_error *err = NULL;
    pcl_value *r = a->fn(args, j->n, a->data, &err);
    if (secret) {
      pcl__redact_leave();
    }
    if (args != small) {
      free(args);
    }
    if (r == NULL) {
      pcl_future_reject_take(j->result, err ? err : pcl_error_new("apply callback failed"));
    } else {
      /* Only the outer unknown bit of the inputs is dropped: the callback
       * saw the unknowns and decided the result. */
      pcl_future_resolve(j->result, r, bits & ~(unsigned)PCL_FUT_UNKNOWN, deps);
      pcl_release(r);
    }
  }
  pcl_deps_release(deps);
  if (a->free_data) {
    a->free_data(a->data);
  }
}

pcl_future *pcl_apply(pcl_future *const *fs, size_t n, pcl_apply_fn fn, void *data,
                      void (*free_data)(void *data), unsigned flags) {
  /* The apply state lives in the join's allocation. */
  void *mem = NULL;
  pcl_future *r = join_start(fs, n, apply_done, NULL, false, sizeof(apply), &mem);
  apply *a = mem;
  a->fn = fn;
  a->data = data;
  a->free_data = free_data;
  a->flags = flags;
  return r;
}

static pcl_value *all_fn(pcl_value *const *args, size_t n, void *data, pcl_error **err) {
  (void)data;
  (void)err;
  return pcl_list_of(args, n);
}

pcl_future *pcl_future_all(pcl_future *const *fs, size_t n) {
  return pcl_apply(fs, n, all_fn, NULL, NULL, 0);
}

static pcl_value *identity_fn(pcl_value *const *args, size_t n, void *data, pcl_error **err) {
  (void)n;
  (void)data;
  (void)err;
  return pcl_retain(args[0]);
}

pcl_future *pcl_future_secret(pcl_future *f) {
  return pcl_apply(&f, 1, identity_fn, NULL, NULL, PCL_APPLY_SECRET);
}

static void unsecret_done(join *j) {
  pcl_future *in = j->in[0];
  if (in->state == PCL_FUTURE_REJECTED) {
    pcl_future_reject(j->result, in->error);
  } else {
    pcl_future_resolve(j->result, in->value, in->bits & ~(unsigned)PCL_FUT_SECRET, in->deps);
  }
}

pcl_future *pcl_future_unsecret(pcl_future *f) {
  return join_start(&f, 1, unsecret_done, NULL, false, 0, NULL);
}

static void attr_done(join *j) {
  const char *key = j->data;
  pcl_future *in = j->in[0];
  if (in->state == PCL_FUTURE_REJECTED) {
    pcl_future_reject(j->result, in->error);
  } else if (in->bits & PCL_FUT_UNKNOWN) {
    pcl_future_resolve(j->result, NULL, in->bits, in->deps);
  } else if (in->value->kind != PCL_T_MAP) {
    pcl_future_reject_take(j->result,
                           pcl_error_new("cannot access attribute \"%s\" of a value of type %s",
                                         key, pcl_kind_name(pcl_kind_of(in->value))));
  } else {
    pcl_value *v = pcl_map_get_cstr(in->value, key);
    pcl_future_resolve(j->result, v ? v : pcl_null(), in->bits, in->deps);
  }
}

pcl_future *pcl_future_attr(pcl_future *f, const char *key) {
  /* The key is copied into the join's allocation. */
  size_t len = strlen(key) + 1;
  void *mem = NULL;
  pcl_future *r = join_start(&f, 1, attr_done, NULL, false, len, &mem);
  memcpy(mem, key, len);
  return r;
}

/* -------------------------------------------------------------- deep await */

/* The futures held in a value. */
typedef struct held {
  pcl_future *fs_inline[8]; /* The first futures. */
  pcl_future **fs;          /* The futures (borrowed from the value;
                               fs_inline or heap). */
  size_t n, cap;            /* Used and allocated. */
} held;

/* Notes the future of the EVENTUAL x in the held ctx. */
static void note_future(const pcl_value *x, void *ctx) {
  held *h = ctx;
  pcl_future *f = pcl_value_future(x);
  if (f != NULL) {
    if (h->n == h->cap) {
      h->fs = pcl__grow_array(h->fs, h->fs_inline, &h->cap, sizeof *h->fs);
    }
    h->fs[h->n++] = f;
  }
}

/* A replacement of pcl__value_replace_eventuals: the future of x, settled,
 * by its value, a secret one wrapped SECRET, an unknown one UNKNOWN. */
static pcl_value *settle_future(const pcl_value *x, void *ctx) {
  (void)ctx;
  pcl_future *f = pcl_value_future(x);
  if (f == NULL) {
    return NULL;
  }
  pcl_value *v = (f->bits & PCL_FUT_UNKNOWN) ? pcl_unknown() : f->value;
  return (f->bits & PCL_FUT_SECRET) ? pcl_secret_new(v) : pcl_retain(v);
}

/* Settles a deep await once every future held in its value (j->data, owned)
 * settled: those are the join's inputs, so each one's settled value is read
 * from the future itself. */
static void deep_done(join *j) {
  pcl_value *v = j->data;
  unsigned bits;
  pcl_deps *deps;
  pcl_future *bad = join_merge(j, &bits, &deps);
  if (bad) {
    pcl_future_reject(j->result, bad->error);
  } else {
    pcl_value *r = pcl__value_replace_eventuals(v, settle_future, NULL);
    pcl_future *again = NULL;
    if (pcl__value_contains_kind(r, PCL_T_EVENTUAL)) {
      /* A settled value held futures itself: await those too. */
      again = pcl_future_await_deep(r);
    }
    if (again) {
      pcl_value *ev = pcl_future_to_value(again);
      pcl_future_resolve(j->result, ev, 0, deps);
      pcl_release(ev);
      pcl_future_release(again);
    } else {
      pcl_future_resolve(j->result, r, 0, deps);
    }
    pcl_release(r);
  }
  pcl_deps_release(deps);
  pcl_release(v);
}

pcl_future *pcl_future_await_deep(pcl_value *v) {
  /* A future at the top works like a nested one: resolving the result with
   * its SECRET or UNKNOWN substitute turns that into the result's bits. */
  held h;
  h.fs = h.fs_inline;
  h.n = 0;
  h.cap = sizeof h.fs_inline / sizeof h.fs_inline[0];
  pcl__value_each_eventual(v, note_future, &h);
  pcl_future *r = h.n == 0 ? pcl_future_resolved(PCL_OUTPUT, v, 0, NULL)
                           : join_start(h.fs, h.n, deep_done, pcl_retain(v), true, 0, NULL);
  if (h.fs != h.fs_inline) {
    free(h.fs);
  }
  return r;
}
