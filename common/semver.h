/* semver: semantic versions (semver.org 2.0.0), the one implementation that
 * the compiler and the runtime share.
 *
 * The compiler validates the versions of `package` blocks, reads the
 * versions in schema file names and picks the highest one; the runtime
 * checks the CLI version against `pulumi { requiredVersionRange }`.  All of
 * them parse with pcl__semver_parse and order with pcl__semver_cmp; the flags
 * select the dialect each place accepts.  The module depends on the C
 * library only and allocates nothing: a parsed version borrows its
 * pre-release text from the parsed string.  Its names have the runtime's
 * internal prefix because it is linked into libpclrt.a (whose symbols must
 * all start with pcl_); it is not part of the installed API. */
#ifndef PCL_COMMON_SEMVER_H
#define PCL_COMMON_SEMVER_H

#include <stdbool.h>
#include <stddef.h>

/* A parsed version. */
typedef struct pcl__semver {
  unsigned long long part[3]; /* Major, minor and patch (0 after a wildcard). */
  const char *pre;            /* Pre-release identifiers, borrowed from the
                                 parsed text (not NUL-terminated); "" when none. */
  size_t pre_len;             /* Byte length of pre. */
  int wild;                   /* Index of the first wildcard part (`x`, `X`
                                 or `*`), 3 when the version has none. */
} pcl__semver;

/* The dialects pcl__semver_parse accepts; 0 is strict semver 2.0.0. */
enum {
  /* A leading `v` and leading zeros in numbers are accepted (versions in
     schema file names and requested by resource options). */
  PCL__SEMVER_LOOSE = 1u << 0,
  /* A part may be a wildcard `x`, `X` or `*`, which must then be followed
     by wildcards only and by neither pre-release nor build (version ranges). */
  PCL__SEMVER_WILDCARD = 1u << 1,
};

/* Parses the n bytes at s as `MAJOR.MINOR.PATCH[-PRE][+BUILD]` in the
 * dialect `flags` selects.  Returns NULL and fills *out (which then borrows
 * s) when s is a version, else a static description of the first problem:
 * "expected MAJOR.MINOR.PATCH", "leading zeros are not allowed", "empty
 * pre-release or build part", "invalid character in pre-release or build
 * part" or "unexpected text after the version". */
const char *pcl__semver_parse(const char *s, size_t n, unsigned flags, pcl__semver *out);

/* Orders two versions by semver precedence: -1, 0 or 1.  Build metadata
 * takes no part; a version without pre-release identifiers is greater than
 * one with them; numeric identifiers compare by value and are lower than
 * alphanumeric ones. */
int pcl__semver_cmp(const pcl__semver *a, const pcl__semver *b);

/* True when the NUL-terminated strings a and b, parsed loosely, are versions
 * of equal precedence; strings that are not versions compare as text. */
bool pcl__semver_same(const char *a, const char *b);

#endif
