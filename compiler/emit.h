/* emit: the IR (ir.h) to one C translation unit.
 *
 * The emitted file includes only pcl.h and describes the program as static
 * data: constant values (PCL_STATIC_*), then per module (components first)
 * its expression, child and node tables packed into one string literal
 * (pcl_packed_module in runtime/pcl.h: a C compiler lexes a string far
 * faster than it parses the equivalent struct initialisers), config types
 * and declarations, and the pcl_program descriptor; `main` hands it to
 * pcl_main, and the runtime's evaluator (runtime/program.c) unpacks and runs
 * it.  No code is emitted per resource or per expression, so the C grows
 * with the data of the program only.  Output is a pure function of the
 * input (deterministic order, no pointers, no absolute paths beyond what
 * the command line gave). */
#ifndef PCLC_EMIT_H
#define PCLC_EMIT_H

#include <stdbool.h>
#include <stdio.h>

#include "ir.h"
#include "src.h"

/* Writes the C of module top (and its component modules) to out; input is
 * the path as given on the command line (for the header comment and the
 * program name).  Returns false on a write error. */
bool emit_program(FILE *out, const char *input, src_set *src, const ir_module *top);

#endif
