/* sched.c: the one scheduler loop of libpclrt.
 *
 * It owns a FIFO queue of tasks (a callback, its data and optionally a
 * future the callback is about), the list of futures that have not settled
 * yet, the table of interned URN strings, the first unhandled rejection, and
 * an optional poller of completions from outside (the gRPC backend's
 * completion queue).  pcl_sched_run pops tasks until the queue is empty and
 * the poller has nothing outstanding: it polls without waiting every
 * POLL_EVERY tasks, and waits on the poller only when no task is queued.
 * When it returns with futures still pending, nothing can ever settle them
 * (every producer that is still alive would have queued a task or have an
 * operation outstanding), so the caller reports pcl_sched_stall_error and
 * cancels them.
 *
 * Invariants: the loop is never run from inside itself; tasks run in the
 * order they were queued, so a run is deterministic; the pending list is in
 * creation order, which is the order stall errors name futures in. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "async/sched_internal.h"

/* Tasks run between two polls of the outside completions. */
enum { POLL_EVERY = 64 };

/* One queued callback. */
typedef struct task {
  pcl_future_cb cb; /* The callback. */
  pcl_future *f;    /* Owned reference to the future it is about, or NULL. */
  void *data;       /* The callback's data. */
} task;

/* The loop's state; one per process. */
static struct {
  task *q;              /* Ring buffer of tasks. */
  size_t head;          /* Index of the next task to run. */
  size_t count;         /* Tasks queued. */
  size_t cap;           /* Ring capacity (0 or a power of two). */
  bool running;         /* pcl_sched_run is active. */
  pcl_future *first;    /* Oldest pending future. */
  pcl_future *last;     /* Newest pending future. */
  size_t npending;      /* Length of the pending list. */
  size_t live;          /* Futures alive. */
  pcl_error *unhandled; /* First unobserved rejection, owned. */
  pcl__sched_poll_fn poll; /* Source of outside completions, or NULL. */
  void *poll_data;      /* Its data. */
  char **interned;      /* Open-addressing table of interned URNs. */
  size_t ninterned;     /* Strings in the table. */
  size_t icap;          /* Table capacity (0 or a power of two). */
} S;

void pcl__sched_post_future(pcl_future_cb cb, pcl_future *f, void *data) {
  if (S.count == S.cap) {
    size_t ncap = S.cap ? S.cap * 2 : 256;
    task *nq = pcl_xmalloc(ncap * sizeof *nq);
    for (size_t i = 0; i < S.count; i++) {
      nq[i] = S.q[(S.head + i) & (S.cap - 1)];
    }
    free(S.q);
    S.q = nq;
    S.head = 0;
    S.cap = ncap;
  }
  task *t = &S.q[(S.head + S.count) & (S.cap - 1)];
  t->cb = cb;
  t->f = f ? pcl_future_retain(f) : NULL;
  t->data = data;
  S.count++;
}

void pcl_sched_post(pcl_future_cb cb, void *data) { pcl__sched_post_future(cb, NULL, data); }

size_t pcl_sched_run(void) {
  if (S.running) {
    fprintf(stderr, "libpclrt: the scheduler loop was started from inside itself\n");
    abort();
  }
  S.running = true;
  size_t ran = 0;
  unsigned since_poll = 0;
  for (;;) {
    if (S.count == 0) {
      /* Nothing can run: wait for an outside completion, if any is due. */
      if ((S.poll == NULL || !S.poll(S.poll_data, true)) && S.count == 0) {
        break;
      }
      continue;
    }
    task t = S.q[S.head];
    S.head = (S.head + 1) & (S.cap - 1);
    S.count--;
    t.cb(t.f, t.data);
    pcl_future_release(t.f);
    ran++;
    /* Answers that arrived meanwhile are taken in without waiting, so that
     * a long run of tasks does not hold them back. */
    if (S.poll && ++since_poll == POLL_EVERY) {
      since_poll = 0;
      S.poll(S.poll_data, false);
    }
  }
  S.running = false;
  return ran;
}

void pcl__sched_set_poller(pcl__sched_poll_fn fn, void *data) {
  S.poll = fn;
  S.poll_data = data;
}

void pcl__sched_track(pcl_future *f) {
  f->prev = S.last;
  f->next = NULL;
  if (S.last) {
    S.last->next = f;
  } else {
    S.first = f;
  }
  S.last = f;
  S.npending++;
}

void pcl__sched_untrack(pcl_future *f) {
  if (f->prev) {
    f->prev->next = f->next;
  } else {
    S.first = f->next;
  }
  if (f->next) {
    f->next->prev = f->prev;
  } else {
    S.last = f->prev;
  }
  f->prev = f->next = NULL;
  S.npending--;
}

size_t pcl_sched_pending(void) { return S.npending; }

void pcl__sched_count_future(int delta) { S.live = (size_t)((long long)S.live + delta); }

size_t pcl_sched_live_futures(void) { return S.live; }

void pcl__sched_unhandled(const pcl_error *err) {
  if (S.unhandled == NULL) {
    S.unhandled = pcl_error_copy(err);
  }
}

pcl_error *pcl_sched_take_unhandled(void) {
  pcl_error *e = S.unhandled;
  S.unhandled = NULL;
  return e;
}

/* The stall error lists at most this many labelled futures by name. */
enum { STALL_NAMES = 8 };

pcl_error *pcl_sched_stall_error(void) {
  if (S.npending == 0) {
    return NULL;
  }
  pcl_strbuf b = PCL_STRBUF_INIT;
  size_t named = 0, labelled = 0;
  for (pcl_future *f = S.first; f; f = f->next) {
    if (f->label == NULL) {
      continue;
    }
    labelled++;
    if (named < STALL_NAMES) {
      pcl_strbuf_appendf(&b, "%s%s", named ? ", " : "", f->label);
      named++;
    }
  }
  if (labelled > named) {
    pcl_strbuf_appendf(&b, " and %zu more", labelled - named);
  }
  pcl_error *e;
  if (labelled == 0) {
    e = pcl_error_new("the program cannot finish: %zu eventual value%s can never be "
                      "resolved (a dependency cycle or a promise nobody resolves)",
                      S.npending, S.npending == 1 ? "" : "s");
  } else {
    e = pcl_error_new("the program cannot finish: still waiting for %s", b.data);
  }
  pcl_strbuf_free(&b);
  return e;
}

void pcl_sched_cancel_pending(const pcl_error *why) {
  /* Cancelling can run callbacks that create new pending futures (a frame
   * that propagates the error); repeat until none is left. */
  while (S.npending > 0) {
    while (S.first) {
      pcl_future *f = S.first;
      f->misc |= PCL__FUT_CANCELLED | PCL__FUT_OBSERVED;
      pcl_future_reject(f, why);
    }
    pcl_sched_run();
  }
}

/* -- Interned URNs. */

/* Hashes s eight bytes at a time (URNs are long and share their prefix, so
 * a byte-at-a-time hash dominated interning), mixing the length in. */
static size_t hash_str(const char *s) {
  size_t n = strlen(s);
  uint64_t h = 1469598103934665603u ^ (uint64_t)n;
  for (; n >= 8; n -= 8, s += 8) {
    uint64_t w;
    memcpy(&w, s, 8);
    h = (h ^ w) * 0x9E3779B97F4A7C15u;
    h ^= h >> 29;
  }
  for (; n > 0; n--, s++) {
    h = (h ^ (unsigned char)*s) * 1099511628211u;
  }
  /* The final mix of MurmurHash3, so that the low bits, which choose the
   * slot, depend on every byte. */
  h ^= h >> 33;
  h *= 0xFF51AFD7ED558CCDu;
  h ^= h >> 33;
  h *= 0xC4CEB9FE1A85EC53u;
  h ^= h >> 33;
  return (size_t)h;
}

static void intern_grow(void) {
  size_t ncap = S.icap ? S.icap * 2 : 1024;
  char **nt = pcl_xcalloc(ncap, sizeof *nt);
  for (size_t i = 0; i < S.icap; i++) {
    if (S.interned[i]) {
      size_t j = hash_str(S.interned[i]) & (ncap - 1);
      while (nt[j]) {
        j = (j + 1) & (ncap - 1);
      }
      nt[j] = S.interned[i];
    }
  }
  free(S.interned);
  S.interned = nt;
  S.icap = ncap;
}

/* Returns the interned copy of urn: the string already in the table, or
 * else urn itself (when owned) or a copy of it, added to the table. */
static const char *intern(const char *urn, bool owned) {
  if ((S.ninterned + 1) * 2 > S.icap) {
    intern_grow();
  }
  size_t j = hash_str(urn) & (S.icap - 1);
  while (S.interned[j]) {
    if (strcmp(S.interned[j], urn) == 0) {
      if (owned) {
        free((char *)urn);
      }
      return S.interned[j];
    }
    j = (j + 1) & (S.icap - 1);
  }
  S.interned[j] = owned ? (char *)urn : pcl_xstrdup(urn);
  S.ninterned++;
  return S.interned[j];
}

const char *pcl_urn_intern(const char *urn) { return intern(urn, false); }

const char *pcl__urn_intern_take(char *urn) { return intern(urn, true); }

void pcl_sched_shutdown(void) {
  if (S.npending > 0 || S.count > 0) {
    fprintf(stderr, "libpclrt: shutdown with %zu pending futures and %zu queued tasks\n",
            S.npending, S.count);
    abort();
  }
  free(S.q);
  for (size_t i = 0; i < S.icap; i++) {
    free(S.interned[i]);
  }
  free(S.interned);
  pcl_error_free(S.unhandled);
  memset(&S, 0, sizeof S);
}
