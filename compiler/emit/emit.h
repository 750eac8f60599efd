/* emit: the IR (ir.h) to one C translation unit.
 *
 * The emitted file includes only pcl_gen.h and is the program: one C
 * function per distinct shape of node and of expression that runs on its
 * own (apply bodies, loop bodies, try alternatives), calling the runtime
 * operations its static types choose, and static data saying what differs
 * between the uses of each function (constants, locations, rows of
 * indexes).  So it grows with the variety of the program, not its length.
 * Output is a pure function of the input (deterministic order, no
 * pointers, no absolute paths beyond what the command line gave).
 * docs/codegen.md describes the design with an example. */
#ifndef PCLC_EMIT_H
#define PCLC_EMIT_H

#include <stdbool.h>
#include <stdio.h>

#include "base/diag.h"
#include "base/src.h"
#include "ir/ir.h"

/* What emit_program needs besides the IR. */
typedef struct emit_options {
  const char *input;     /* The program as given on the command line. */
  const char *output;    /* The C file written, as given (for #line). */
  const char *generator; /* "pclc <version>", named in the file. */
  bool line_directives;  /* Map the code to the .pp sources with #line. */
} emit_options;

/* Writes the C of module top (and its component modules) to out.  The
 * emitter recurses as the expressions nest: an expression nested too
 * deeply for the stack (base/stack.h) is reported to diags, and nothing is
 * written.  Returns false then, or when a write failed (the stream's
 * error says why). */
bool emit_program(FILE *out, const emit_options *opt, src_set *src, diag_list *diags,
                  const ir_module *top);

#endif
