/* depfile: Make dependency files for `pclc -MD` / `-MF`.
 *
 * Takes the output file of a compilation (the rule's target) and the files
 * the compilation read: every source file of a src_set (the program's `.pp`
 * files, the `.pp` files of local components, and the schema files, which
 * the schema module also reads through the src_set) plus any extra paths.
 * Produces a Make fragment in the layout of `gcc -MD -MP`:
 *
 *     out.c: \
 *       main.pp \
 *       schemas/aws-6.0.0.json
 *     main.pp:
 *     schemas/aws-6.0.0.json:
 *
 * The first rule makes the target depend on every file read; the empty
 * rules keep `make` working when one of them is deleted.  Each path appears
 * once, in the order it was first read, so the text is deterministic.
 * Characters that Make would take specially are escaped (`$` as `$$`, and a
 * backslash before blanks, `#` and `:`); a path holding a newline cannot be
 * written and is an error. */
#ifndef PCLC_DEPFILE_H
#define PCLC_DEPFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base/src.h"

/* Returns the dependency file path that `-MD` uses for output: output with
 * a trailing `.c` replaced by `.d`, else output with `.d` appended.  The
 * result is heap-allocated; the caller frees it. */
char *depfile_default_path(const char *output);

/* Writes the dependency rules for target to out: every file of src, then
 * every path of extra[0..nextra) not already listed (all borrowed).  Returns
 * false with *err set to a static message when a path cannot be written in
 * Make syntax (nothing is written then). */
bool depfile_print(FILE *out, const char *target, const src_set *src, const char *const *extra,
                   size_t nextra, const char **err);

/* Writes the dependency rules (as depfile_print) to the file at path,
 * replacing it (through a temporary file, outfile.h).  Returns false with
 * *err set to a static message (from errno for I/O failures) on failure;
 * the previous file, if any, is then left as it was. */
bool depfile_write(const char *path, const char *target, const src_set *src,
                   const char *const *extra, size_t nextra, const char **err);

#endif
