/* build: a program directory to an executable, through pclc and the C
 * compiler, with the schemas of its packages from the engine's loader and
 * a cache of the executables built.
 *
 * pclc runs in the program's directory on `.`, so that the file names it
 * writes into the program (for diagnostics and source positions) are
 * relative to the directory the program runs in.  An executable is cached
 * under a key that hashes everything that went into it: the program's
 * files (its own and its components', as pclc --list-packages names them),
 * the schemas, and the toolchain's digest (pclc and libpclrt.a bytes, the
 * C compiler and every flag); a second build of an unchanged program
 * compiles nothing.  Builds go to a temporary directory renamed into place,
 * so that concurrent builds of one program are safe; the least recently
 * used entries beyond PCLC_CACHE_SIZE (default 64) are removed. */
#ifndef HOST_BUILD_H
#define HOST_BUILD_H

#include <stdbool.h>
#include <stddef.h>

#include "proc.h"
#include "toolchain.h"
#include "util.h"

/* One package a program uses (pclc --list-packages); absent strings are
   NULL. */
typedef struct pkg_use {
  char *name;          /* The plugin's package name. */
  char *version;       /* Its version. */
  char *url;           /* Its download URL. */
  char *param_name;    /* A parameterized package's own name, */
  char *param_version; /* version */
  char *param_value;   /* and parameter (base64). */
} pkg_use;

/* What pclc --list-packages says of a program. */
typedef struct program_uses {
  pkg_use *pkgs;
  size_t npkgs;
  char **files; /* Every .pp file it reads, relative to its directory. */
  size_t nfiles;
} program_uses;

typedef enum build_status {
  BUILD_OK,            /* Done (diags may hold warnings). */
  BUILD_PROGRAM_ERROR, /* The program has errors, pclc's messages in diags. */
  BUILD_FAILED         /* Something else failed: e says what. */
} build_status;

/* Lists the packages and files of the program in dir. */
build_status build_uses(const toolchain *tc, proc_group *g, const char *dir, program_uses *u,
                        buf *diags, herr *e);
void program_uses_free(program_uses *u);

/* Binds and type-checks the program in dir (pclc --check) against the
 * schemas of its packages; the names of those packages (the ones whose
 * types they borrow included) are added to packages (when not NULL). */
build_status build_check(const toolchain *tc, proc_group *g, const char *dir, const char *loader,
                         words *packages, buf *diags, herr *e);

/* Builds the program in dir, or finds it in the cache; *exe gets the
 * executable's path (heap) and *cached whether it was found built. */
build_status build_program(const toolchain *tc, proc_group *g, const char *dir,
                           const char *loader, char **exe, bool *cached, buf *diags, herr *e);

#endif
