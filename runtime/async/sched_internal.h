/* sched_internal.h: what future.c and sched.c share and the rest of the
 * runtime does not see: the layout of a future and the loop's hooks for
 * queueing a future's callbacks and tracking pending futures.
 *
 * Invariants: a future is on the loop's pending list exactly while its state
 * is PCL_FUTURE_PENDING; a queued task holds one reference to its future. */
#ifndef PCL_SCHED_INTERNAL_H
#define PCL_SCHED_INTERNAL_H

#include "pcl_gen.h"

/* One registered callback of a pending future. */
typedef struct pcl__waiter {
  pcl_future_cb cb;          /* The callback. */
  void *data;                /* Its data. */
  struct pcl__waiter *next;  /* The next waiter, in registration order. */
} pcl__waiter;

/* Bits of pcl_future.misc. */
enum {
  PCL__FUT_OBSERVED = 1,  /* A callback was registered or the rejection handled. */
  PCL__FUT_CANCELLED = 2, /* Rejected by pcl_sched_cancel_pending. */
};

struct pcl_future {
  uint32_t refs;            /* Reference count. */
  uint8_t state;            /* A pcl_future_state. */
  uint8_t kind;             /* A pcl_future_kind. */
  uint8_t bits;             /* PCL_FUT_* bits once resolved. */
  uint8_t misc;             /* PCL__FUT_* bits. */
  char *label;              /* Owned description for stall errors, or NULL. */
  pcl_value *value;         /* Owned value when resolved and known, else NULL. */
  pcl_error *error;         /* Owned error when rejected, else NULL. */
  pcl_deps *deps;           /* Owned dependencies when resolved (may be NULL). */
  pcl__waiter *waiters;     /* Callbacks waiting while pending. */
  pcl__waiter **wtail;      /* Where the next waiter is linked. */
  pcl__waiter w0;           /* Storage for the first waiter (most futures
                             * have one), which needs no allocation. */
  pcl_future *prev, *next;  /* Links in the loop's pending list. */
};

/* Queues cb(f, data) for a later loop turn; the task takes its own reference
 * to f (which may be NULL). */
void pcl__sched_post_future(pcl_future_cb cb, pcl_future *f, void *data);
/* Adds the new pending f to the pending list. */
void pcl__sched_track(pcl_future *f);
/* Removes f, which just settled, from the pending list. */
void pcl__sched_untrack(pcl_future *f);
/* Records err (copied) as the unhandled error unless one is recorded. */
void pcl__sched_unhandled(const pcl_error *err);
/* Counts futures alive (delta +1 on creation, -1 on free). */
void pcl__sched_count_future(int delta);

#endif
