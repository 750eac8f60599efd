/* dump_types: prints a bound program for `pclc --dump-types` (see
 * dump_types.c for the format, which golden tests depend on). */
#ifndef PCLC_DUMP_TYPES_H
#define PCLC_DUMP_TYPES_H

#include <stdbool.h>
#include <stdio.h>

#include "base/diag.h"
#include "bind/bound.h"
#include "types/ty.h"

/* Writes the stable text form of the bound program p, whose types are
 * types', to out.  Returns false when a type is too deep for the stack to
 * print: "expression nested too deeply" is then reported to diags at its
 * node, and what was written is not to be used. */
bool dump_types(FILE *out, const bnd_program *p, ty_ctx *types, diag_list *diags);

#endif
