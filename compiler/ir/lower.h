/* lower: the bound, typed program (bound.h) to the IR (ir.h).
 *
 * lower_program walks the nodes of a bnd_program in evaluation order and
 * lowers every expression.  Where an expression observes an eventual value
 * (lowering.md 2.2, the "observes" table) it becomes an APPLY: the minimal
 * eventual sub-expressions become its arguments (a traversal is cut at its
 * first eventual part; equal traversals of one definition share one
 * argument), and the expression itself, with those parts replaced by
 * parameters, becomes the body.  Object and list constructors holding
 * eventual values stay constructors; the branches of a conditional stay
 * outside the apply of its condition, so only the chosen branch runs.
 * Component programs are lowered recursively into their own modules. */
#ifndef PCLC_LOWER_H
#define PCLC_LOWER_H

#include <stddef.h>

#include "base/arena.h"
#include "base/diag.h"
#include "bind/bound.h"
#include "base/intern.h"
#include "ir/ir.h"
#include "base/ptrmap.h"
#include "types/ty.h"

/* What lowering needs (borrowed). */
typedef struct lower_ctx {
  arena *arena;          /* The IR is allocated here. */
  ty_ctx *ty;            /* Types. */
  intern_table *names;   /* The compilation's interned names. */
  size_t nmodules;       /* Modules created so far (numbers them). */
  ptrmap component_types; /* The object types of components (their values are
                             futures); zero-initialise, free with ptrmap_free. */
  diag_list *diag;       /* Where an expression nested too deeply for the
                            stack is reported (base/stack.h). */
  bool too_deep;         /* That error was reported. */
} lower_ctx;

/* Lowers program p (bound without errors); the result lives in L->arena.
 * Lowering recurses as the expressions nest: one too deep for the stack is
 * reported to L->diag, and the module is then not to be used. */
ir_module *lower_program(lower_ctx *L, const bnd_program *p);

#endif
