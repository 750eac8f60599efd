/* emit: the IR (ir.h) to one C translation unit.
 *
 * The emitted file includes only pcl.h and describes the program as static
 * data: constant values (PCL_STATIC_*), one table of expression descriptors
 * and one of child indexes per module, the node table in evaluation order,
 * resource declarations, config declarations with their types, and the
 * pcl_program descriptor; `main` hands it to pcl_main, and the runtime's
 * evaluator (runtime/program.c) runs it.  No code is emitted per resource or
 * per expression, so the size of the C grows with the data of the program
 * only and compiles quickly.  Output is a pure function of the input
 * (deterministic order, no pointers, no absolute paths). */
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
