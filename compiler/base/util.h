/* util: allocation that never fails, hashing, Unicode normalisation and
 * internal-error reporting.
 *
 * Every allocation in the compiler goes through xmalloc and friends, which
 * end the run with status 2 on exhaustion so that no caller checks for
 * NULL.  ice() reports an
 * internal compiler error with its C source location and aborts. */
#ifndef PCLC_UTIL_H
#define PCLC_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "mem.h" /* PCL__GROW, and pcl__out_of_memory, defined in util.c */

/* Every allocation failure (of xmalloc and friends, and of GMP and jansson
 * once util_route_allocations has run) prints "out of memory" and exits
 * with status 2, removing the temporary output file set last. */
void util_route_allocations(void);
/* Sets the temporary file (borrowed; NULL for none) to remove when pclc
 * exits because memory ran out. */
void util_set_temp_file(const char *path);
/* Returns a new block of n bytes (n may be 0); exits when memory is exhausted. */
void *xmalloc(size_t n);
/* Returns a zeroed block of count * size bytes; exits on overflow or exhaustion. */
void *xcalloc(size_t count, size_t size);
/* Resizes p (which may be NULL) to n bytes; exits on exhaustion. */
void *xrealloc(void *p, size_t n);
/* Returns a heap copy of the NUL-terminated string s; the caller frees it. */
char *xstrdup(const char *s);

/* Returns a hash of the n bytes at s, for hash tables keyed by byte
 * strings (interned names, type identity keys); reads eight bytes at a time.
 * The value may change between versions of pclc: it must never reach the
 * output. */
uint64_t util_hash(const void *s, size_t n);

/* Returns the last component of path, trailing slashes ignored; *len gets
 * its length (the component is not NUL-terminated where slashes follow). */
const char *path_base(const char *path, size_t *len);

/* Reports an internal compiler error at file:line and aborts. */
_Noreturn void util_ice(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
#define ice(...) util_ice(__FILE__, __LINE__, __VA_ARGS__)

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* PCLC_ASAN is 1 in a build with AddressSanitizer: nodes allocated at the
 * size of their kind (ast_new, ir_new_expr) then take the whole struct and
 * poison the bytes their kind does not use, so that a read of another
 * kind's field is reported. */
#if defined(__SANITIZE_ADDRESS__)
#define PCLC_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PCLC_ASAN 1
#endif
#endif
#ifndef PCLC_ASAN
#define PCLC_ASAN 0
#endif

#endif
