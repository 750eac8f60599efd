/* gen_internal.h: what the modules of generated-code support (gen.c,
 * gen_iter.c, gen_node.c) share and the rest of the runtime does not see:
 * frames and module runs, locations and relays, and the small predicates
 * every operation asks of its operands.  Every non-static name here starts
 * with pcl__gen_. */
#ifndef PCL_GEN_INTERNAL_H
#define PCL_GEN_INTERNAL_H

#include "value/pcl_internal.h"

/* Runs module m of prog in a new frame: every node in order, each in a
 * stack environment holding its row.  prefix (copied; NULL for the
 * program's own module) is "<instance>-" for a component's children,
 * parent (borrowed, may be NULL) the component's resource value, urn
 * (copied, may be NULL) its URN when it is known before the engine answers
 * and inputs (borrowed, may be NULL) its inputs MAP.  Returns the
 * component's outputs (an owned MAP) when prefix is not NULL, else NULL. */
pcl_value *pcl__gen_module_run(pcl_run *run, const pcl_gen_program *prog, const pcl_gen_module *m,
                               const char *prefix, pcl_value *parent, const char *urn,
                               pcl_value *inputs);
/* Returns f with one more reference. */
pcl_gen_frame *pcl__gen_frame_retain(pcl_gen_frame *f);
/* Drops a reference to f (NULL is ignored), freeing it with its node values
 * at the last. */
void pcl__gen_frame_release(pcl_gen_frame *f);

/* Returns the options opts (stolen; NULL for none) of a registration or
 * invoke in frame f with the frame's component as their parent unless they
 * name one: a component's children and invokes are parented to it
 * (program.md 5).  Options that are not a MAP are returned as they are. */
pcl_value *pcl__gen_with_parent(const pcl_gen_frame *f, pcl_value *opts);

/* Returns the file of location loc of prog and stores its line and column
 * in *line and *column; NULL (and zeros) when loc is no location. */
const char *pcl__gen_loc_where(const pcl_gen_program *prog, uint32_t loc, unsigned *line,
                               unsigned *column);
/* Attaches location loc of prog to err unless it has one; returns err. */
pcl_error *pcl__gen_locate(const pcl_gen_program *prog, pcl_error *err, uint32_t loc);
/* Returns an owned EVENTUAL holding fut, stealing the caller's reference. */
pcl_value *pcl__gen_future_value_take(pcl_future *fut);
/* Returns an owned EVENTUAL holding a future rejected with err (stolen),
 * located at loc of prog. */
pcl_value *pcl__gen_rejected(const pcl_gen_program *prog, pcl_error *err, uint32_t loc);
/* Returns an owned EVENTUAL of pcl_apply(fs, n, fn, data, free_data, 0),
 * stealing the caller's references to the futures fs[0..n). */
pcl_value *pcl__gen_apply_take(pcl_future *const *fs, size_t n, pcl_apply_fn fn, void *data,
                               void (*free_data)(void *data));
/* Returns an owned EVENTUAL that settles as fut (stolen) does, a rejection
 * located at loc of prog when it has no location (engine failures, failed
 * futures met by a traversal). */
pcl_value *pcl__gen_located_take(const pcl_gen_program *prog, uint32_t loc, pcl_future *fut);

/* Returns whether an operation that reads v must wait for it or unwrap it
 * first: v is EVENTUAL, SECRET or UNKNOWN at the top. */
bool pcl__gen_unsettled(const pcl_value *v);
/* Returns the error of v when v is a failure, an EVENTUAL whose future was
 * rejected already (what a captured scope makes of an expression that
 * failed, pcl_gen_failed), else NULL.  The failure is then marked handled:
 * the caller decides without it or passes it on as its own result. */
const pcl_error *pcl__gen_failure(const pcl_value *v);
#endif
