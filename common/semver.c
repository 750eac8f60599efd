/* semver: parsing and precedence of semantic versions (see semver.h).
 *
 * The grammar is semver.org 2.0.0's: three numbers, then optional
 * dot-separated pre-release identifiers after `-` and build identifiers
 * after `+`, each identifier made of ASCII letters, digits and `-`.  The
 * strict dialect is what Go's blang/semver accepts (the reference reads
 * `package` block versions with it); the loose one adds what file names and
 * resource options are allowed to spell; the wildcard one the `x` parts of
 * the version ranges the engine understands. */
#include "semver.h"

#include <limits.h>
#include <string.h>

static bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

static bool is_wild(char c) {
  return c == 'x' || c == 'X' || c == '*';
}

/* True for the characters of an identifier: ASCII letters, digits, `-`. */
static bool is_ident_char(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-';
}

/* Reads the dot-separated identifiers of a pre-release (pre) or build part
 * starting at *i, up to `+` (pre-release only) or the end; leaves *i after
 * them.  Returns NULL or the problem. */
static const char *identifiers(const char *s, size_t n, size_t *i, bool pre, unsigned flags) {
  for (;;) {
    size_t start = *i;
    while (*i < n && s[*i] != '.' && !(pre && s[*i] == '+')) {
      if (!is_ident_char(s[*i])) {
        return "invalid character in pre-release or build part";
      }
      (*i)++;
    }
    size_t len = *i - start;
    if (len == 0) {
      return "empty pre-release or build part";
    }
    /* A numeric pre-release identifier is compared by value, so it has one
       spelling only. */
    bool numeric = strspn(s + start, "0123456789") >= len;
    if (pre && numeric && len > 1 && s[start] == '0' && !(flags & PCL__SEMVER_LOOSE)) {
      return "leading zeros are not allowed";
    }
    if (*i < n && s[*i] == '.') {
      (*i)++;
      continue;
    }
    return NULL;
  }
}

const char *pcl__semver_parse(const char *s, size_t n, unsigned flags, pcl__semver *out) {
  memset(out, 0, sizeof *out);
  out->pre = "";
  out->wild = 3;
  size_t i = 0;
  if ((flags & PCL__SEMVER_LOOSE) && n > 0 && s[0] == 'v') {
    i++;
  }
  for (int part = 0; part < 3; part++) {
    if ((flags & PCL__SEMVER_WILDCARD) && i < n && is_wild(s[i])) {
      /* `3.x`, `3.x.x`, `*`: the rest of the version is wildcards. */
      out->wild = part;
      i++;
      for (int k = part + 1; k < 3 && i < n; k++) {
        if (s[i] != '.' || i + 1 >= n || !is_wild(s[i + 1])) {
          return "expected MAJOR.MINOR.PATCH";
        }
        i += 2;
      }
      return i == n ? NULL : "unexpected text after the version";
    }
    if (i >= n || !is_digit(s[i])) {
      return "expected MAJOR.MINOR.PATCH";
    }
    size_t start = i;
    unsigned long long v = 0;
    while (i < n && is_digit(s[i])) {
      unsigned d = (unsigned)(s[i] - '0');
      if (v > (ULLONG_MAX - d) / 10) {
        return "version number too large";
      }
      v = v * 10 + d;
      i++;
    }
    if (i - start > 1 && s[start] == '0' && !(flags & PCL__SEMVER_LOOSE)) {
      return "leading zeros are not allowed";
    }
    out->part[part] = v;
    if (part < 2) {
      if (i >= n || s[i] != '.') {
        return "expected MAJOR.MINOR.PATCH";
      }
      i++;
    }
  }
  if (i < n && s[i] == '-') {
    i++;
    size_t start = i;
    const char *why = identifiers(s, n, &i, true, flags);
    if (why) {
      return why;
    }
    out->pre = s + start;
    out->pre_len = i - start;
  }
  if (i < n && s[i] == '+') {
    i++;
    const char *why = identifiers(s, n, &i, false, flags);
    if (why) {
      return why;
    }
  }
  return i == n ? NULL : "unexpected text after the version";
}

/* Compares two numeric identifiers by value: without leading zeros, the
 * longer one is greater, equal lengths compare as text. */
static int cmp_numeric(const char *a, size_t la, const char *b, size_t lb) {
  while (la > 1 && *a == '0') {
    a++;
    la--;
  }
  while (lb > 1 && *b == '0') {
    b++;
    lb--;
  }
  if (la != lb) {
    return la < lb ? -1 : 1;
  }
  int c = memcmp(a, b, la);
  return c < 0 ? -1 : c > 0;
}

/* Compares two pre-release identifier lists (semver §11.4). */
static int cmp_pre(const char *a, size_t na, const char *b, size_t nb) {
  size_t i = 0, j = 0;
  while (i < na && j < nb) {
    size_t ea = i, eb = j;
    while (ea < na && a[ea] != '.') {
      ea++;
    }
    while (eb < nb && b[eb] != '.') {
      eb++;
    }
    size_t la = ea - i, lb = eb - j;
    bool da = strspn(a + i, "0123456789") >= la;
    bool db = strspn(b + j, "0123456789") >= lb;
    int c;
    if (da && db) {
      c = cmp_numeric(a + i, la, b + j, lb);
    } else if (da != db) {
      c = da ? -1 : 1;
    } else {
      int m = memcmp(a + i, b + j, la < lb ? la : lb);
      c = m < 0 ? -1 : m > 0 ? 1 : la < lb ? -1 : la > lb;
    }
    if (c != 0) {
      return c;
    }
    i = ea < na ? ea + 1 : ea;
    j = eb < nb ? eb + 1 : eb;
  }
  /* A longer list of otherwise equal identifiers is greater. */
  return i < na ? 1 : j < nb ? -1 : 0;
}

int pcl__semver_cmp(const pcl__semver *a, const pcl__semver *b) {
  for (int i = 0; i < 3; i++) {
    if (a->part[i] != b->part[i]) {
      return a->part[i] < b->part[i] ? -1 : 1;
    }
  }
  if (a->pre_len == 0 || b->pre_len == 0) {
    return (a->pre_len == 0) - (b->pre_len == 0);
  }
  return cmp_pre(a->pre, a->pre_len, b->pre, b->pre_len);
}

bool pcl__semver_same(const char *a, const char *b) {
  pcl__semver va, vb;
  if (!pcl__semver_parse(a, strlen(a), PCL__SEMVER_LOOSE, &va) &&
      !pcl__semver_parse(b, strlen(b), PCL__SEMVER_LOOSE, &vb)) {
    return pcl__semver_cmp(&va, &vb) == 0;
  }
  return strcmp(a, b) == 0;
}
