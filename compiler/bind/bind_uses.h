/* bind_uses: the packages a program uses, found without their schemas.
 *
 * A language host has to know which packages a program needs before it can
 * fetch their schemas (and before the engine installs their plugins), so
 * this reads only the syntax: the `package` blocks (validated as the binder
 * validates them), the type token of every resource and read block and the
 * first argument of every `invoke(...)` call, with the `version` and
 * `pluginDownloadURL` options written as string literals beside them;
 * component programs with a source directory are parsed and read the same
 * way.  A sourceless component's token is the type of a component the
 * program registers itself, not a package's.  A token's package is its
 * first segment (`pulumi:providers:P` names P); the built-in package
 * `pulumi` is left out.  A token of a package that a `package` block
 * defines (by its own name: a parameterized package's is its
 * parameterization's) is that block's use; a token of the base provider of
 * a parameterized package is a use of the base provider itself (an
 * extension's base provider keeps its own resources).  Nothing is type-checked: a program whose
 * schemas are missing still lists its packages. */
#ifndef PCLC_BIND_USES_H
#define PCLC_BIND_USES_H

#include <stdbool.h>
#include <stddef.h>

#include "bind/bind.h"

/* One package a program uses, as a plugin provides it.  Strings live in the
   compilation's arena; absent ones are NULL. */
typedef struct bind_use {
  const char *name;          /* The plugin's (base provider's) package name. */
  const char *version;       /* Its version. */
  const char *download_url;  /* Where the plugin is downloaded from. */
  const char *param_name;    /* A parameterized package: its own name, */
  const char *param_version; /* version */
  const char *param_value;   /* and parameter (base64). */
} bind_use;

/* The uses of a program, without duplicates (heap array). */
typedef struct bind_uses {
  bind_use *items;
  size_t count, cap;
} bind_uses;

/* Collects into out the packages used by the parsed program prog whose
 * files live in dir, and by its component programs (whose files are added
 * to c->src).  Invalid package blocks, component programs that cannot be
 * read or parsed, and components nested too deeply are reported to c->diag;
 * the uses found are kept either way.  The list is sorted by name, version,
 * download URL and parameterization. */
void bind_collect_uses(bind_ctx *c, const ast_program *prog, const char *dir, bind_uses *out);

/* Frees the array of out. */
void bind_uses_free(bind_uses *out);

#endif
