/* project: the LanguageRuntime methods that write files: GenerateProject,
 * GenerateProgram, GeneratePackage, Pack and Link.
 *
 * For a language whose programs are PCL and whose packages are schemas:
 *   - a project is its PCL files and a Pulumi.yaml with `runtime: pclc`;
 *     the program is checked with pclc against its packages' schemas
 *     (errors are diagnostics of the answer; warnings only when the
 *     request is not strict, as for a `pulumi convert` from another
 *     language);
 *   - a program's PCL comes back as it went in, once checked;
 *   - a package's "SDK" is one `<name>-<version>.pp` file holding a
 *     `package` block (base provider, version, download URL,
 *     parameterization), so that a project pins the package it was made
 *     with; packing copies that file, and a project that uses the package
 *     gets it as `<name>.pp` (GenerateProject's local dependencies, Link).
 * Each function fills the answer's message and returns true, or returns
 * false with e set for a request it cannot serve. */
#ifndef HOST_PROJECT_H
#define HOST_PROJECT_H

#include "pulumi/language.pb-c.h"
#include "proc.h"
#include "util.h"

/* An answer's diagnostics (heap array of heap messages). */
typedef struct diag_list {
  Pulumirpc__Codegen__Diagnostic **v;
  size_t n, cap; /* Used and allocated. */
} diag_list;

void diags_free(diag_list *d);

bool project_generate(const Pulumirpc__GenerateProjectRequest *req, proc_group *g, diag_list *out,
                      herr *e);
bool program_generate(const Pulumirpc__GenerateProgramRequest *req, proc_group *g,
                      Pulumirpc__GenerateProgramResponse *resp, diag_list *diags, herr *e);
bool package_generate(const Pulumirpc__GeneratePackageRequest *req, herr *e);
/* Packs the package in req's directory; *artifact gets the packed file's path. */
bool package_pack(const Pulumirpc__PackRequest *req, char **artifact, herr *e);
/* Links packages into a program; *instructions says how to use them. */
bool package_link(const Pulumirpc__LinkRequest *req, char **instructions, herr *e);

#endif
