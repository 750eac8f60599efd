/* hash.c: the content hashes of assets and archives, as the Pulumi engine
 * computes them for its state (docs/snapshot.md).
 *
 * An asset hashes as the SHA-256 of its contents: a string asset's text, a
 * file asset's bytes.  A file archive that is already a .tar, .tgz,
 * .tar.gz, .zip or .jar hashes as its bytes.  An archive built from a map
 * of assets, or from a directory, hashes as the SHA-256 of the tar stream
 * Go's archive/tar writer produces for its members: one header per member
 * carrying only the name, mode 0600 and the size (USTAR form, every other
 * field zero or empty; a PAX "path" record first when the name is not ASCII
 * or too long to split), each body padded to 512 bytes, and two zero blocks
 * at the end, with no further padding.  The members come in the order of
 * the engine's archive readers: a map's keys in byte order, an archive in
 * the map flattened in place under its key (names joined and cleaned as
 * Go's filepath.Join does), a directory in filepath.Walk order (the entries
 * of each directory sorted by name, sub directories expanded in place,
 * directories named .pulumi left out, symbolic links to directories left
 * out), a tar or zip file's regular files in stored order; a name met a
 * second time is left out.
 *
 * Go's tar writer is followed rather than libarchive's: libarchive writes
 * other bytes for the same header (six-digit numbers ending in a space,
 * user and group names, 10240-byte records).  libarchive reads the tar and
 * zip files an archive map holds.  Remote contents are never fetched:
 * remote assets and archives, and archives holding one, have no hash here,
 * nor have unreadable files (the snapshot then leaves the hash out). */
#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <nettle/sha2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/engine.h"

/* A tar stream being hashed, with the member names written so far. */
typedef struct tar {
  struct sha256_ctx sha; /* The hash of the stream so far. */
  char **seen;           /* Member names written (owned), an open-addressing set. */
  size_t nseen, cap;     /* Names in the set; slots (a power of two, or 0). */
} tar;

/* The block size of tar streams. */
#define BLOCK 512
/* The largest size a USTAR size field holds (eleven octal digits). */
#define MAX_USTAR_SIZE 077777777777ULL

/* Returns the FNV-1a hash of s. */
static size_t name_hash(const char *s) {
  size_t h = 14695981039346656037ULL;
  for (; *s; s++) {
    h = (h ^ (unsigned char)*s) * 1099511628211ULL;
  }
  return h;
}

/* Adds name to t's set and returns true, or returns false when it is there
 * already (Go's writer keeps the first member of a name). */
static bool first_time(tar *t, const char *name) {
  if (2 * (t->nseen + 1) > t->cap) {
    size_t cap = t->cap ? 2 * t->cap : 64;
    char **slots = pcl_xcalloc(cap, sizeof *slots);
    for (size_t i = 0; i < t->cap; i++) {
      if (t->seen[i] != NULL) {
        size_t j = name_hash(t->seen[i]) & (cap - 1);
        while (slots[j] != NULL) {
          j = (j + 1) & (cap - 1);
        }
        slots[j] = t->seen[i];
      }
    }
    free(t->seen);
    t->seen = slots;
    t->cap = cap;
  }
  size_t j = name_hash(name) & (t->cap - 1);
  for (; t->seen[j] != NULL; j = (j + 1) & (t->cap - 1)) {
    if (strcmp(t->seen[j], name) == 0) {
      return false;
    }
  }
  t->seen[j] = pcl_xstrdup(name);
  t->nseen++;
  return true;
}

static void tar_free(tar *t) {
  for (size_t i = 0; i < t->cap; i++) {
    free(t->seen[i]);
  }
  free(t->seen);
}

/* Writes x in octal into the field f of width w as Go's formatOctal does:
 * w - 1 digits with leading zeros, then a NUL. */
static void octal(char *f, size_t w, unsigned long long x) {
  char digits[32];
  int n = snprintf(digits, sizeof digits, "%0*llo", (int)(w - 1), x);
  memcpy(f, digits, (size_t)n);
  f[w - 1] = '\0';
}

/* Sets the checksum of the header block h: the sum of its bytes with the
 * checksum field counted as spaces, as six octal digits, a NUL and a
 * space. */
static void checksum(unsigned char h[BLOCK]) {
  memset(h + 148, ' ', 8);
  unsigned long sum = 0;
  for (size_t i = 0; i < BLOCK; i++) {
    sum += h[i];
  }
  snprintf((char *)h + 148, 8, "%06lo", sum);
  h[155] = ' ';
}

/* Writes the USTAR magic and version of Go's FormatUSTAR and FormatPAX. */
static void ustar_magic(unsigned char h[BLOCK]) {
  memcpy(h + 257, "ustar\0" "00", 8);
}

/* Copies s into the field f of width w as Go's formatString does: what
 * fits, then a NUL when there is room. */
static void field(unsigned char *f, size_t w, const char *s, size_t len) {
  memcpy(f, s, len < w ? len : w);
  if (len < w) {
    f[len] = '\0';
  }
}

/* Returns whether s is pure ASCII. */
static bool ascii(const char *s) {
  for (; *s; s++) {
    if ((unsigned char)*s >= 0x80) {
      return false;
    }
  }
  return true;
}

/* Go's splitUSTARPath: splits name (longer than 100 bytes) at the last '/'
 * within its first 156 bytes into a prefix of at most 155 and a name of at
 * most 100 bytes; returns the split position, or 0 when there is none. */
static size_t split_ustar(const char *name) {
  size_t len = strlen(name);
  if (len <= 100 || !ascii(name)) {
    return 0;
  }
  size_t end = len > 156 ? 156 : len;
  if (len <= 156 && name[len - 1] == '/') {
    end--;
  }
  size_t i = end;
  while (i > 0 && name[i - 1] != '/') {
    i--;
  }
  if (i == 0) {
    return 0;
  }
  size_t slash = i - 1, nlen = len - slash - 1;
  if (slash == 0 || nlen > 100 || nlen == 0 || slash > 155) {
    return 0;
  }
  return slash;
}

/* Returns s without the bytes of its characters that are not ASCII or are
 * NUL (Go's toASCII), as an owned string. */
static char *to_ascii(const char *s) {
  char *out = pcl_xmalloc(strlen(s) + 1);
  size_t n = 0;
  for (; *s; s++) {
    if ((unsigned char)*s < 0x80) {
      out[n++] = *s;
    }
  }
  out[n] = '\0';
  return out;
}

static void put(tar *t, const void *data, size_t len) {
  sha256_update(&t->sha, len, data);
}

/* Writes zeros up to the next block boundary after a body of size bytes. */
static void pad(tar *t, unsigned long long size) {
  static const unsigned char zeros[BLOCK];
  size_t rest = (size_t)(size % BLOCK);
  if (rest != 0) {
    put(t, zeros, BLOCK - rest);
  }
}

/* Writes the header of a regular file named name (which holds neither NUL
 * nor needs more than a PAX path record) of size bytes. */
static void header(tar *t, const char *name, unsigned long long size) {
  unsigned char h[BLOCK];
  size_t len = strlen(name);
  size_t split = split_ustar(name);
  bool pax = (len > 100 || !ascii(name)) && split == 0;
  if (pax) {
    /* The extended header "PaxHeaders.0/<file>" in the name's directory
     * holds the record "<n> path=<name>\n", n counting the whole record. */
    size_t size_rec = strlen("path") + len + 3;
    char digits[24];
    size_rec += (size_t)snprintf(digits, sizeof digits, "%zu", size_rec);
    pcl_strbuf rec = PCL_STRBUF_INIT;
    pcl_strbuf_appendf(&rec, "%zu path=%s\n", size_rec, name);
    if (rec.len != size_rec) {
      /* Counting the length made it one digit longer (formatPAXRecord). */
      size_rec = rec.len;
      rec.len = 0;
      pcl_strbuf_appendf(&rec, "%zu path=%s\n", size_rec, name);
    }
    const char *slash = strrchr(name, '/');
    pcl_strbuf xname = PCL_STRBUF_INIT;
    if (slash != NULL) {
      pcl_strbuf_append(&xname, name, (size_t)(slash - name + 1));
    }
    pcl_strbuf_appendf(&xname, "PaxHeaders.0/%s", slash ? slash + 1 : name);
    char *clean = pcl__go_clean(xname.data);
    char *xascii = to_ascii(clean);
    size_t xlen = strlen(xascii);
    if (xlen > 100) {
      xlen = 100;
    }
    while (xlen > 0 && xascii[xlen - 1] == '/') {
      xlen--;
    }
    memset(h, 0, BLOCK);
    h[156] = 'x';
    field(h, 100, xascii, xlen);
    octal((char *)h + 100, 8, 0);
    octal((char *)h + 108, 8, 0);
    octal((char *)h + 116, 8, 0);
    octal((char *)h + 124, 12, rec.len);
    octal((char *)h + 136, 12, 0);
    ustar_magic(h);
    checksum(h);
    put(t, h, BLOCK);
    put(t, rec.data, rec.len);
    pad(t, rec.len);
    free(clean);
    free(xascii);
    pcl_strbuf_free(&xname);
    pcl_strbuf_free(&rec);
  }
  memset(h, 0, BLOCK);
  h[156] = '0';
  if (pax) {
    char *a = to_ascii(name);
    field(h, 100, a, strlen(a));
    free(a);
  } else if (split != 0) {
    field(h, 100, name + split + 1, len - split - 1);
    field(h + 345, 155, name, split);
  } else {
    field(h, 100, name, len);
  }
  octal((char *)h + 100, 8, 0600);
  octal((char *)h + 108, 8, 0);
  octal((char *)h + 116, 8, 0);
  octal((char *)h + 124, 12, size);
  octal((char *)h + 136, 12, 0);
  octal((char *)h + 329, 8, 0);
  octal((char *)h + 337, 8, 0);
  ustar_magic(h);
  checksum(h);
  put(t, h, BLOCK);
}

char *pcl__go_clean(const char *path) {
  size_t n = strlen(path);
  if (n == 0) {
    return pcl_xstrdup(".");
  }
  bool rooted = path[0] == '/';
  char *out = pcl_xmalloc(n + 2);
  size_t w = 0, r = 0;
  if (rooted) {
    out[w++] = '/';
    r = 1;
  }
  /* dotdot: where in out a ".." can no longer back up. */
  size_t dotdot = w;
  while (r < n) {
    if (path[r] == '/') {
      r++;
    } else if (path[r] == '.' && (r + 1 == n || path[r + 1] == '/')) {
      r++;
    } else if (path[r] == '.' && path[r + 1] == '.' && (r + 2 == n || path[r + 2] == '/')) {
      r += 2;
      if (w > dotdot) {
        /* Back up over the last element. */
        w--;
        while (w > dotdot && out[w] != '/') {
          w--;
        }
      } else if (!rooted) {
        if (w > 0) {
          out[w++] = '/';
        }
        out[w++] = '.';
        out[w++] = '.';
        dotdot = w;
      }
    } else {
      if ((rooted && w != 1) || (!rooted && w != 0)) {
        out[w++] = '/';
      }
      while (r < n && path[r] != '/') {
        out[w++] = path[r++];
      }
    }
  }
  if (w == 0) {
    out[w++] = '.';
  }
  out[w] = '\0';
  return out;
}

/* Returns Go's filepath.Join(a, b): the non-empty of the two joined with a
 * slash and cleaned ("" when both are empty); owned. */
static char *go_join(const char *a, const char *b) {
  if (a[0] == '\0' && b[0] == '\0') {
    return pcl_xstrdup("");
  }
  pcl_strbuf s = PCL_STRBUF_INIT;
  pcl_strbuf_append_cstr(&s, a);
  if (a[0] != '\0' && b[0] != '\0') {
    pcl_strbuf_append_char(&s, '/');
  }
  pcl_strbuf_append_cstr(&s, b);
  char *clean = pcl__go_clean(s.data);
  pcl_strbuf_free(&s);
  return clean;
}

/* Returns the name a member called name gets in the stream: name itself at
 * the top of the archive (root NULL), else joined under root. */
static char *member_name(const char *root, const char *name) {
  return root == NULL ? pcl_xstrdup(name) : go_join(root, name);
}

/* Whether a member name ends in a slash: Go's writer makes such a member a
 * directory, which holds no contents, and the engine then fails to hash an
 * archive that gives it some. */
static bool dir_name(const char *name) {
  size_t n = strlen(name);
  return n > 0 && name[n - 1] == '/';
}

/* Writes the member name with the bytes data[0..len); false when it cannot
 * be written (dir_name). */
static bool member_bytes(tar *t, const char *name, const void *data, size_t len) {
  if (dir_name(name)) {
    return false;
  }
  if (first_time(t, name)) {
    header(t, name, len);
    put(t, data, len);
    pad(t, len);
  }
  return true;
}

/* Writes the member name with the contents of the regular file path (a
 * symbolic link is followed); false when it cannot be read. */
static bool member_file(tar *t, const char *name, const char *path) {
  FILE *f = dir_name(name) ? NULL : fopen(path, "rb");
  struct stat st;
  if (f == NULL) {
    return false;
  }
  if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) ||
      (unsigned long long)st.st_size > MAX_USTAR_SIZE) {
    fclose(f);
    return false;
  }
  if (!first_time(t, name)) {
    fclose(f);
    return true;
  }
  unsigned long long size = (unsigned long long)st.st_size, done = 0;
  header(t, name, size);
  unsigned char buf[65536];
  size_t k;
  while (done < size && (k = fread(buf, 1, sizeof buf, f)) > 0) {
    k = (size_t)(size - done < k ? size - done : k);
    put(t, buf, k);
    done += k;
  }
  fclose(f);
  /* A file that shrank while it was read cannot give the size written. */
  if (done != size) {
    return false;
  }
  pad(t, size);
  return true;
}

/* Whether a name must not become a tar member name here (a NUL would be
 * cut off; Go refuses it too). */
static bool bad_name(const pcl_value *name) {
  return memchr(pcl_str_data(name), '\0', pcl_str_len(name)) != NULL;
}

/* scandir order of entries: by the bytes of their names, as Go sorts
 * them (alphasort would follow the locale). */
static int by_name(const struct dirent **a, const struct dirent **b) {
  return strcmp((*a)->d_name, (*b)->d_name);
}

/* Writes the files of the directory dir (a path) in filepath.Walk order,
 * named by their path relative to the archive's directory (rel, "" at the
 * top) under root; false when something cannot be read. */
static bool walk_dir(tar *t, const char *root, const char *dir, const char *rel) {
  struct dirent **ents = NULL;
  int n = scandir(dir, &ents, NULL, by_name);
  if (n < 0) {
    return false;
  }
  bool ok = true;
  for (int i = 0; i < n; i++) {
    const char *e = ents[i]->d_name;
    if (!ok || strcmp(e, ".") == 0 || strcmp(e, "..") == 0 || strcmp(e, ".pulumi") == 0) {
      continue;
    }
    pcl_strbuf path = PCL_STRBUF_INIT, sub = PCL_STRBUF_INIT;
    pcl_strbuf_appendf(&path, "%s/%s", dir, e);
    pcl_strbuf_appendf(&sub, "%s%s%s", rel, rel[0] ? "/" : "", e);
    struct stat st;
    if (lstat(path.data, &st) != 0) {
      ok = false;
    } else if (S_ISDIR(st.st_mode)) {
      ok = walk_dir(t, root, path.data, sub.data);
    } else if (S_ISLNK(st.st_mode)) {
      /* A link to a directory is left out; a link to a file is read. */
      struct stat target;
      if (stat(path.data, &target) != 0) {
        ok = false;
      } else if (!S_ISDIR(target.st_mode)) {
        char *name = member_name(root, sub.data);
        ok = member_file(t, name, path.data);
        free(name);
      }
    } else {
      char *name = member_name(root, sub.data);
      ok = member_file(t, name, path.data);
      free(name);
    }
    pcl_strbuf_free(&path);
    pcl_strbuf_free(&sub);
  }
  for (int i = 0; i < n; i++) {
    free(ents[i]);
  }
  free(ents);
  return ok;
}

/* Returns the archive format a path's extension names, as the engine
 * detects it: 't' tar, 'g' gzipped tar, 'z' zip or jar; 0 for none. */
static char format_of(const char *path) {
  static const struct {
    const char *ext;
    char format;
  } exts[] = {{".tar", 't'}, {".tgz", 'g'}, {".tar.gz", 'g'}, {".zip", 'z'}, {".jar", 'z'}};
  size_t n = strlen(path);
  for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++) {
    size_t k = strlen(exts[i].ext);
    if (n >= k && strcmp(path + n - k, exts[i].ext) == 0) {
      return exts[i].format;
    }
  }
  return 0;
}

/* Writes the regular files of the tar or zip file path (format as
 * format_of) under root, in stored order, named by their cleaned
 * names; directories are skipped; false when the file cannot be read or
 * holds another kind of entry (the engine cannot read those either). */
static bool walk_archive_file(tar *t, const char *root, const char *path, char format) {
  struct archive *a = archive_read_new();
  if (format == 'z') {
    archive_read_support_format_zip_seekable(a);
  } else {
    archive_read_support_format_tar(a);
    if (format == 'g') {
      archive_read_support_filter_gzip(a);
    }
  }
  bool ok = archive_read_open_filename(a, path, 65536) == ARCHIVE_OK;
  struct archive_entry *e;
  while (ok && archive_read_next_header(a, &e) == ARCHIVE_OK) {
    if (archive_entry_filetype(e) == AE_IFDIR) {
      continue;
    }
    const char *entry_name = archive_entry_pathname(e);
    if (archive_entry_filetype(e) != AE_IFREG || entry_name == NULL ||
        !archive_entry_size_is_set(e) || archive_entry_size(e) < 0 ||
        (unsigned long long)archive_entry_size(e) > MAX_USTAR_SIZE) {
      ok = false;
      break;
    }
    char *clean = pcl__go_clean(entry_name);
    char *name = member_name(root, clean);
    free(clean);
    unsigned long long size = (unsigned long long)archive_entry_size(e), done = 0;
    bool write = first_time(t, name);
    if (write) {
      header(t, name, size);
    }
    unsigned char buf[65536];
    la_ssize_t k;
    while ((k = archive_read_data(a, buf, sizeof buf)) > 0) {
      if (write) {
        put(t, buf, (size_t)k);
      }
      done += (unsigned long long)k;
    }
    ok = k == 0 && done == size;
    if (write) {
      pad(t, size);
    }
    free(name);
  }
  archive_read_free(a);
  return ok;
}

static bool walk_archive(tar *t, const char *root, const pcl_value *v);

/* Writes the member name made of the asset or archive v (SECRETs are read
 * through): an asset as one member, an archive flattened under name. */
static bool walk_member(tar *t, const char *root, const pcl_value *key, const pcl_value *v) {
  while (pcl_kind_of(v) == PCL_T_SECRET) {
    v = pcl_secret_inner(v);
  }
  if (bad_name(key)) {
    return false;
  }
  char *name = member_name(root, pcl_str_data(key));
  bool ok = false;
  if (pcl_kind_of(v) == PCL_T_ARCHIVE) {
    ok = walk_archive(t, name, v);
  } else if (pcl_kind_of(v) == PCL_T_ASSET) {
    const pcl_value *payload = pcl_asset_payload(v);
    switch (pcl_asset_kind_of(v)) {
    case PCL_ASSET_STRING:
      ok = member_bytes(t, name, pcl_str_data(payload), pcl_str_len(payload));
      break;
    case PCL_ASSET_FILE:
      ok = !bad_name(payload) && member_file(t, name, pcl_str_data(payload));
      break;
    case PCL_ASSET_REMOTE:
      break;
    }
  }
  free(name);
  return ok;
}

/* Writes the members of the archive v under root (NULL at the top). */
static bool walk_archive(tar *t, const char *root, const pcl_value *v) {
  const pcl_value *payload = pcl_asset_payload(v);
  switch (pcl_archive_kind_of(v)) {
  case PCL_ARCHIVE_ASSETS:
    if (pcl_kind_of(payload) != PCL_T_MAP) {
      return false;
    }
    /* The map's keys are in byte order, as the engine sorts them. */
    for (size_t i = 0; i < pcl_len(payload); i++) {
      if (!walk_member(t, root, pcl_map_key_at(payload, i), pcl_map_val_at(payload, i))) {
        return false;
      }
    }
    return true;
  case PCL_ARCHIVE_FILE: {
    if (bad_name(payload)) {
      return false;
    }
    const char *path = pcl_str_data(payload);
    char format = format_of(path);
    if (format != 0) {
      return walk_archive_file(t, root, path, format);
    }
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode) && walk_dir(t, root, path, "");
  }
  case PCL_ARCHIVE_REMOTE:
    return false;
  }
  return false;
}

/* Stores the hex digest of ctx in hex[65]. */
static void hex_digest(struct sha256_ctx *ctx, char hex[65]) {
  uint8_t digest[SHA256_DIGEST_SIZE];
  sha256_digest(ctx, sizeof digest, digest);
  for (size_t i = 0; i < sizeof digest; i++) {
    snprintf(hex + 2 * i, 3, "%02x", digest[i]);
  }
}

/* Adds the bytes of the regular file path to ctx; false when it is not a
 * readable regular file. */
static bool hash_file(struct sha256_ctx *ctx, const char *path) {
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
    return false;
  }
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    return false;
  }
  uint8_t buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
    sha256_update(ctx, n, buf);
  }
  bool ok = !ferror(f);
  fclose(f);
  return ok;
}

bool pcl__asset_hash(const pcl_value *v, char hex[65]) {
  struct sha256_ctx ctx;
  const pcl_value *payload = pcl_asset_payload(v);
  sha256_init(&ctx);
  switch (pcl_asset_kind_of(v)) {
  case PCL_ASSET_STRING:
    sha256_update(&ctx, pcl_str_len(payload), (const uint8_t *)pcl_str_data(payload));
    break;
  case PCL_ASSET_FILE:
    if (bad_name(payload) || !hash_file(&ctx, pcl_str_data(payload))) {
      return false;
    }
    break;
  case PCL_ASSET_REMOTE:
    return false;
  }
  hex_digest(&ctx, hex);
  return true;
}

bool pcl__archive_hash(const pcl_value *v, char hex[65]) {
  const pcl_value *payload = pcl_asset_payload(v);
  if (pcl_archive_kind_of(v) == PCL_ARCHIVE_FILE && !bad_name(payload) &&
      format_of(pcl_str_data(payload)) != 0) {
    /* An archive file hashes as its bytes, whatever its format. */
    struct sha256_ctx ctx;
    sha256_init(&ctx);
    if (!hash_file(&ctx, pcl_str_data(payload))) {
      return false;
    }
    hex_digest(&ctx, hex);
    return true;
  }
  tar t = {.seen = NULL, .nseen = 0, .cap = 0};
  sha256_init(&t.sha);
  bool ok = walk_archive(&t, NULL, v);
  if (ok) {
    static const unsigned char end[2 * BLOCK];
    put(&t, end, sizeof end);
    hex_digest(&t.sha, hex);
  }
  tar_free(&t);
  return ok;
}
