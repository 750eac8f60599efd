/* dump_types: prints a bound program for `pclc --dump-types` (see
 * dump_types.c for the format, which golden tests depend on). */
#ifndef PCLC_DUMP_TYPES_H
#define PCLC_DUMP_TYPES_H

#include <stdio.h>

#include "bind/bound.h"

/* Writes the stable text form of the bound program p to out. */
void dump_types(FILE *out, const bnd_program *p);

#endif
