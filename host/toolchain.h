/* toolchain: what the language host builds programs with: pclc, libpclrt
 * (through its pkg-config file) and the C compiler, and where it keeps the
 * programs it built.
 *
 * The host finds the pclc and libpclrt it was built or installed with:
 * pclrt.pc beside it in a build tree (<dir>/pkgconfig/pclrt.pc) or in an
 * installation (<dir>/../lib/pkgconfig/pclrt.pc), whose `pclc` variable
 * names the compiler.  The environment overrides each piece with the
 * variables of runtime/pclc.mk: PCLC (the compiler), PKG_CONFIG and
 * PKG_CONFIG_PATH (the runtime's flags), PCLC_CC (the C compiler, default
 * cc) and PCLC_CFLAGS (its flags, default -O1); PCLC_CACHE_DIR the cache
 * (default $XDG_CACHE_HOME/pclc, else ~/.cache/pclc).  The toolchain is
 * looked up once, on first use; a failed lookup is tried again next time. */
#ifndef HOST_TOOLCHAIN_H
#define HOST_TOOLCHAIN_H

#include <stdbool.h>
#include <stddef.h>

#include <nettle/sha2.h>

#include "proc.h"
#include "util.h"

/* A list of command-line words (heap). */
typedef struct words {
  char **v;
  size_t n, cap; /* Used and allocated. */
} words;

typedef struct toolchain {
  char *pclc;          /* The compiler's path. */
  char *pclc_version;  /* What `pclc --version` prints, without the newline. */
  words cc;            /* The C compiler command (PCLC_CC, split at spaces). */
  words cflags;        /* Its flags (PCLC_CFLAGS). */
  words rt_cflags;     /* libpclrt's compile flags (pkg-config --cflags). */
  words rt_libs;       /* Its link flags (pkg-config --libs). */
  char *libpclrt;      /* The path of libpclrt.a. */
  char *cache;         /* The cache directory. */
  /* A digest of everything above that a built program depends on: the
     bytes of pclc and libpclrt.a, the commands and flags (hex SHA-256). */
  char digest[65];
} toolchain;

/* Returns the toolchain, looking it up on first use with children in
   group g; false with e set when a piece is missing. */
bool toolchain_get(proc_group *g, const toolchain **out, herr *e);

/* The host's own version (the pclc version it was built with). */
extern const char host_version[];

/* Frees the words of w and empties it. */
void words_free(words *w);

/* Appends the words of w to argv (a NULL-terminated heap array with n
   entries, grown as needed). */
void words_append(const char ***argv, size_t *n, const words *w);

/* Appends one word to argv, as words_append does. */
void argv_add(const char ***argv, size_t *n, const char *word);

/* Writes the hex SHA-256 of what ctx was given (65 bytes with the NUL). */
void sha256_hex(struct sha256_ctx *ctx, char out[65]);
/* Gives ctx the string s with its NUL, so that pieces cannot run together. */
void sha256_text(struct sha256_ctx *ctx, const char *s);

#endif
