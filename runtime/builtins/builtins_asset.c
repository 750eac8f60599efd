/* builtins_asset.c: the asset and archive constructors: fileAsset,
 * stringAsset, remoteAsset, fileArchive, remoteArchive and assetArchive
 * (../shared/spec/functions.md §4).
 *
 * They build the value layer's ASSET and ARCHIVE values, which the engine
 * encodes in Pulumi's signature-keyed wire form.  Paths are kept as the
 * program wrote them (the reference stores them so: they key the state),
 * and checked at creation the way the reference's hashing would fail: a
 * file asset must be a readable file, a path archive a directory or a file
 * with an archive extension, a remote one must use a scheme the engine can
 * read.  Content hashes are the engine's business: nothing is fetched or
 * hashed here. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtins/builtins_internal.h"
#include "value/pcl_internal.h"

pcl_value *pcl_fn_fileAsset(const char *base_dir, pcl_value *path, pcl_error **err) {
  pcl__bcall c = PCL__BCALL("fileAsset", err);
  pcl_value *p = pcl__b_string(&c, "path", path);
  pcl_value *result = NULL;
  if (p != NULL) {
    if (memchr(pcl_str_data(p), '\0', pcl_str_len(p)) != NULL) {
      pcl__b_os_error(&c, "creating file asset", "open", p, EINVAL);
    } else {
      char *full = pcl__b_resolve(base_dir, p);
      int fd = open(full, O_RDONLY | O_CLOEXEC);
      free(full);
      struct stat st;
      if (fd < 0) {
        pcl__b_os_error(&c, "creating file asset", "open", p, errno);
      } else if (fstat(fd, &st) != 0) {
        pcl__b_os_error(&c, "creating file asset", "stat", p, errno);
      } else if (S_ISDIR(st.st_mode)) {
        /* Opening a directory works; reading it is what fails. */
        pcl__b_os_error(&c, "creating file asset", "read", p, EISDIR);
      } else {
        result = pcl_asset_new(PCL_ASSET_FILE, p);
      }
      if (fd >= 0) {
        close(fd);
      }
    }
  }
  pcl_release(p);
  return pcl__b_finish(&c, result);
}

/* Returns whether the path ends with an archive extension the engine reads. */
static bool archive_extension(const pcl_value *path) {
  static const char *const exts[] = {".tar", ".tgz", ".tar.gz", ".zip", ".jar"};
  const char *p = pcl_str_data(path);
  size_t n = pcl_str_len(path);
  for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++) {
    size_t k = strlen(exts[i]);
    if (n > k && memcmp(p + n - k, exts[i], k) == 0) {
      return true;
    }
  }
  return false;
}

pcl_value *pcl_fn_fileArchive(const char *base_dir, pcl_value *path, pcl_error **err) {
  pcl__bcall c = PCL__BCALL("fileArchive", err);
  pcl_value *p = pcl__b_string(&c, "path", path);
  pcl_value *result = NULL;
  if (p != NULL) {
    struct stat st;
    if (memchr(pcl_str_data(p), '\0', pcl_str_len(p)) != NULL) {
      pcl__b_os_error(&c, "creating file archive", "stat", p, EINVAL);
    } else {
      char *full = pcl__b_resolve(base_dir, p);
      int rc = stat(full, &st);
      int e = errno;
      free(full);
      if (rc != 0) {
        pcl__b_os_error(&c, "creating file archive", "stat", p, e);
      } else if (!S_ISDIR(st.st_mode) && !archive_extension(p)) {
        pcl__b_fail(&c, "creating file archive: file at path %s is not a recognized archive format",
                    pcl__b_shown(&c, p));
      } else {
        result = pcl_archive_new(PCL_ARCHIVE_FILE, p);
      }
    }
  }
  pcl_release(p);
  return pcl__b_finish(&c, result);
}

pcl_value *pcl_fn_stringAsset(pcl_value *value, pcl_error **err) {
  pcl__bcall c = PCL__BCALL("stringAsset", err);
  pcl_value *s = pcl__b_string(&c, "value", value);
  pcl_value *result = s != NULL ? pcl_asset_new(PCL_ASSET_STRING, s) : NULL;
  pcl_release(s);
  return pcl__b_finish(&c, result);
}

/* Checks that the URI's scheme (lowercased, as Go's url.Parse does) is one
 * the engine can read; what names the constructor in the message. */
static bool remote_scheme_ok(pcl__bcall *c, const char *what, const pcl_value *uri) {
  const char *s = pcl_str_data(uri);
  size_t n = pcl_str_len(uri), k = 0;
  /* RFC 3986: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":". */
  if (n > 0 && isalpha((unsigned char)s[0])) {
    k = 1;
    while (k < n && (isalnum((unsigned char)s[k]) || s[k] == '+' || s[k] == '-' || s[k] == '.')) {
      k++;
    }
    if (k == n || s[k] != ':') {
      k = 0;
    }
  }
  char scheme[16];
  size_t m = 0;
  for (; m < k && m + 1 < sizeof scheme; m++) {
    scheme[m] = (char)tolower((unsigned char)s[m]);
  }
  scheme[m] = '\0';
  if (k == m && (strcmp(scheme, "http") == 0 || strcmp(scheme, "https") == 0 ||
                 strcmp(scheme, "file") == 0)) {
    return true;
  }
  if (c->secret || pcl__redacting()) {
    return pcl__b_fail(c, "creating %s: unrecognized or unsupported URI scheme: [secret]", what);
  }
  return pcl__b_fail(c, "creating %s: unrecognized or unsupported URI scheme: %.*s", what, (int)k, s);
}

pcl_value *pcl_fn_remoteAsset(pcl_value *uri, pcl_error **err) {
  pcl__bcall c = PCL__BCALL("remoteAsset", err);
  pcl_value *u = pcl__b_string(&c, "uri", uri);
  pcl_value *result = NULL;
  if (u != NULL && remote_scheme_ok(&c, "remote asset", u)) {
    result = pcl_asset_new(PCL_ASSET_REMOTE, u);
  }
  pcl_release(u);
  return pcl__b_finish(&c, result);
}

pcl_value *pcl_fn_remoteArchive(pcl_value *uri, pcl_error **err) {
  pcl__bcall c = PCL__BCALL("remoteArchive", err);
  pcl_value *u = pcl__b_string(&c, "uri", uri);
  pcl_value *result = NULL;
  if (u != NULL && remote_scheme_ok(&c, "remote archive", u)) {
    result = pcl_archive_new(PCL_ARCHIVE_REMOTE, u);
  }
  pcl_release(u);
  return pcl__b_finish(&c, result);
}

pcl_value *pcl_fn_assetArchive(pcl_value *assets, pcl_error **err) {
  pcl__bcall c = PCL__BCALL("assetArchive", err);
  const pcl_value *m = pcl__b_plain(&c, "assets", assets);
  if (m != NULL && pcl_kind_of(m) != PCL_T_MAP) {
    pcl__b_fail(&c, "assetArchive assets must be a map or object");
  }
  if (!pcl__b_ok(&c) || m == NULL) {
    return pcl__b_finish(&c, NULL);
  }
  /* The payload holds plain assets and archives: secrets are lifted onto
   * the archive. */
  size_t n = pcl_len(m);
  pcl_value **vals = pcl_xmalloc((n + 1) * sizeof *vals);
  for (size_t i = 0; i < n; i++) {
    const pcl_value *v = pcl__b_unwrap(&c, pcl_map_val_at(m, i));
    vals[i] = (pcl_value *)v;
    if (pcl_kind_of(v) == PCL_T_UNKNOWN) {
      c.unknown = true;
    } else if (pcl_kind_of(v) != PCL_T_ASSET && pcl_kind_of(v) != PCL_T_ARCHIVE && !c.failed) {
      pcl__b_fail(&c, "assetArchive: the value of \"%s\" must be an asset or an archive, was %s",
                  pcl_str_data(pcl_map_key_at(m, i)), pcl__b_type_name(v));
    }
  }
  pcl_value *result = NULL;
  if (pcl__b_ok(&c)) {
    pcl_value *payload = pcl_map_of(m->u.map.keys, vals, n);
    result = pcl_archive_new(PCL_ARCHIVE_ASSETS, payload);
    pcl_release(payload);
  }
  free(vals);
  return pcl__b_finish(&c, result);
}
