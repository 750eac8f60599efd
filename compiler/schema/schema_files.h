/* schema_files: the schema files of the --schema-path folders and the choice
 * of a package version among them.
 *
 * A folder holds `<pkg>.json` and `<pkg>-<version>.json` files (program.md
 * §3.2).  Adding a folder lists its `*.json` names in sorted order and splits
 * each into package name and version; nothing is read.  A `package` block
 * pins the version of its package; a lookup then picks, for a package and a
 * requested (or pinned) version, the file with that version, else the file
 * without a version, else the highest version, which is also the choice
 * when no version is requested.  Versions are ordered by semver precedence
 * (common/semver.h). */
#ifndef PCLC_SCHEMA_FILES_H
#define PCLC_SCHEMA_FILES_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/intern.h"
#include "base/ptrmap.h"

/* A schema file found in a search folder. */
typedef struct schema_file schema_file;
struct schema_file {
  const char *name;    /* Package name from the file name (interned). */
  const char *version; /* Version from the file name (arena), or NULL. */
  const char *path;    /* Path (arena). */
  const schema_file *next; /* The next file of the same package, in folder order. */
};

/* The files of every search folder and the pinned versions. */
typedef struct schema_files {
  arena *arena;         /* Names and paths are allocated here (borrowed). */
  intern_table *names;  /* Package names are interned here (borrowed). */
  ptrmap first;         /* Interned package name -> its first file (arena). */
  ptrmap last;          /* Interned package name -> its last file, where the next is chained. */
  ptrmap pins;          /* Interned package name -> the version pinned last (arena). */
  size_t npins;         /* The number of pins made (they only ever grow). */
} schema_files;

/* Initialises f; names and paths go to a and names (borrowed; both must
 * outlive f). */
void schema_files_init(schema_files *f, arena *a, intern_table *names);
/* Frees the tables f owns. */
void schema_files_free(schema_files *f);
/* Adds the `*.json` files of folder dir (copied) after the ones known.
 * Returns false and sets *err to the system's reason (static) when the
 * folder cannot be read. */
bool schema_files_add_dir(schema_files *f, const char *dir, const char **err);
/* Splits a file name `<pkg>-<semver>.json` or `<pkg>.json` (without its
 * folder) into the interned package name and the version (arena, NULL when
 * there is none): the version starts after the first dash that is followed
 * by text that parses as a semver (leniently: `v1.2.3` and leading zeros
 * are versions). */
void schema_files_split_name(schema_files *f, const char *base, const char **name,
                             const char **version);
/* Pins the version of package name (both copied); a later pin of the same
 * name wins. */
void schema_files_pin(schema_files *f, const char *name, const char *version);
/* Returns the version pinned last for the interned package name, or NULL;
 * borrowed. */
const char *schema_files_pinned(const schema_files *f, const char *name);
/* Returns the file to load for the interned package name and version (NULL:
 * any), or NULL when the package has no file.  *fallback is set when a
 * version was asked for, no file has it, and the highest version was chosen
 * instead. */
const schema_file *schema_files_choose(const schema_files *f, const char *name,
                                       const char *version, bool *fallback);

#endif
