/* test_builtins_file.c: the built-ins that touch files or build assets and
 * archives: readFile, filebase64, filebase64sha256, readDir, mimeType, cwd,
 * fileAsset, fileArchive, stringAsset, remoteAsset, remoteArchive and
 * assetArchive.
 *
 * The suite creates a fresh directory under $TMPDIR (mkdtemp) holding small
 * files, runs every test against it as the base directory, and removes it
 * afterwards. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtins_check.h"

static char dir[4096];

/* Creates dir/name holding the bytes data[0..len). */
static int put(const char *name, const char *data, size_t len) {
  char path[4200];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  if (f == NULL) {
    return -1;
  }
  size_t w = fwrite(data, 1, len, f);
  return fclose(f) == 0 && w == len ? 0 : -1;
}

static const char *const files[] = {"testfile.txt", "empty.txt", "binary.bin", "big.txt",
                                    "site.zip",     "site.tar.gz", "sub/inner.txt"};

static int setup(void) {
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, sizeof dir, "%s/pclrt-builtins-XXXXXX", tmp != NULL && tmp[0] ? tmp : "/tmp");
  if (mkdtemp(dir) == NULL) {
    return -1;
  }
  char sub[4200];
  snprintf(sub, sizeof sub, "%s/sub", dir);
  if (mkdir(sub, 0700) != 0) {
    return -1;
  }
  static const char fox[] = "The quick brown fox jumps over the lazy dog";
  char *big = malloc(200000);
  if (big == NULL) {
    return -1;
  }
  memset(big, 'x', 200000);
  int rc = put("testfile.txt", fox, sizeof fox - 1) | put("empty.txt", "", 0) |
           put("binary.bin", "\x00\x80\xff", 3) | put("big.txt", big, 200000) |
           put("site.zip", "PK", 2) | put("site.tar.gz", "gz", 2) | put("sub/inner.txt", "in", 2);
  free(big);
  return rc;
}

static int teardown(void) {
  char path[4200];
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, files[i]);
    unlink(path);
  }
  snprintf(path, sizeof path, "%s/sub", dir);
  rmdir(path);
  return rmdir(dir);
}

/* Calls a file built-in with the suite's directory and a path. */
#define TF(fn, path, want)                                   \
  do {                                                       \
    pcl_error *e_ = NULL;                                    \
    pcl_value *p_ = S(path);                                 \
    pcl_value *r_ = fn(dir, p_, &e_);                        \
    pcl_release(p_);                                         \
    check_show_at(r_, e_, want, __LINE__);                   \
  } while (0)
#define FF(fn, path, want)                                   \
  do {                                                       \
    pcl_error *e_ = NULL;                                    \
    pcl_value *p_ = S(path);                                 \
    pcl_value *r_ = fn(dir, p_, &e_);                        \
    pcl_release(p_);                                         \
    check_fails_at(r_, e_, want, __LINE__);                  \
  } while (0)

static void test_read_file(void) {
  BLEAK_BEGIN;
  /* The conformance program l1-builtin-file. */
  TF(pcl_fn_readFile, "testfile.txt", "\"The quick brown fox jumps over the lazy dog\"");
  TF(pcl_fn_filebase64, "testfile.txt",
     "\"VGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVyIHRoZSBsYXp5IGRvZw==\"");
  TF(pcl_fn_filebase64sha256, "testfile.txt", "\"16j7swfXgJRpypq8sAguT41WUeRtPNt2LQLQvzfJ5ZI=\"");
  /* Empty, binary and large files. */
  TF(pcl_fn_readFile, "empty.txt", "\"\"");
  TF(pcl_fn_filebase64, "empty.txt", "\"\"");
  TF(pcl_fn_filebase64sha256, "empty.txt", "\"47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\"");
  TF(pcl_fn_filebase64, "binary.bin", "\"AID/\"");
  TF(pcl_fn_filebase64sha256, "binary.bin", "\"UkBnLXtRdWuCmtDvjZRot6B4r6L0EEhP04ktq0e+y3I=\"");
  TF(pcl_fn_readFile, "binary.bin", "\"\\u0000\xEF\xBF\xBD\xEF\xBF\xBD\"");
  TF(pcl_fn_filebase64sha256, "big.txt", "\"keP6r9MivN8WDz8M6IassJK5ueKh6FJrQPIaiJiocAs=\"");
  pcl_error *err = NULL;
  pcl_value *p = S("big.txt");
  pcl_value *r = pcl_fn_readFile(dir, p, &err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(r);
  CU_ASSERT_EQUAL(pcl_str_len(r), 200000);
  pcl_release(r);
  pcl_release(p);
  /* Paths: into a subdirectory, absolute with no base, with a base that
   * ends in a slash. */
  TF(pcl_fn_readFile, "sub/inner.txt", "\"in\"");
  char abs[4200];
  snprintf(abs, sizeof abs, "%s/sub/inner.txt", dir);
  p = S(abs);
  err = NULL;
  CHECK_SHOW(pcl_fn_readFile(NULL, p, &err), err, "\"in\"");
  pcl_release(p);
  char slash[4200];
  snprintf(slash, sizeof slash, "%s/", dir);
  p = S("sub/inner.txt");
  err = NULL;
  CHECK_SHOW(pcl_fn_readFile(slash, p, &err), err, "\"in\"");
  pcl_release(p);
  /* Marks. */
  p = SECRET_TAKE(S("sub/inner.txt"));
  err = NULL;
  CHECK_SHOW(pcl_fn_readFile(dir, p, &err), err, "secret(\"in\")");
  pcl_release(p);
  err = NULL;
  CHECK_SHOW(pcl_fn_filebase64(dir, pcl_unknown(), &err), err, "unknown");
  BLEAK_END;
}

static void test_read_file_errors(void) {
  BLEAK_BEGIN;
  FF(pcl_fn_readFile, "missing.txt", "readFile: open missing.txt: no such file or directory");
  FF(pcl_fn_filebase64, "missing.txt", "filebase64: open missing.txt: no such file or directory");
  FF(pcl_fn_filebase64sha256, "missing.txt",
     "filebase64sha256: open missing.txt: no such file or directory");
  FF(pcl_fn_readFile, "testfile.txt/x", "readFile: open testfile.txt/x: not a directory");
  FF(pcl_fn_readFile, "sub", "readFile: read sub: is a directory");
  FF(pcl_fn_filebase64sha256, "sub", "filebase64sha256: read sub: is a directory");
  pcl_error *err = NULL;
  CHECK_FAILS(pcl_fn_readFile(dir, pcl_null(), &err), err,
              "readFile: invalid value for \"path\" parameter: argument must not be null");
  BLEAK_END;
}

static void test_read_dir(void) {
  BLEAK_BEGIN;
  /* Files and directories, sorted by name, without "." and "..". */
  TF(pcl_fn_readDir, ".",
     "[\"big.txt\",\"binary.bin\",\"empty.txt\",\"site.tar.gz\",\"site.zip\",\"sub\","
     "\"testfile.txt\"]");
  TF(pcl_fn_readDir, "sub", "[\"inner.txt\"]");
  TF(pcl_fn_readDir, "sub/", "[\"inner.txt\"]");
  FF(pcl_fn_readDir, "missing", "readDir: open missing: no such file or directory");
  FF(pcl_fn_readDir, "testfile.txt", "readDir: readdirent testfile.txt: not a directory");
  pcl_error *err = NULL;
  pcl_value *p = SECRET_TAKE(S("sub"));
  CHECK_SHOW(pcl_fn_readDir(dir, p, &err), err, "secret([\"inner.txt\"])");
  pcl_release(p);
  CHECK_SHOW(pcl_fn_readDir(dir, pcl_unknown(), &err), err, "unknown");
  CHECK_FAILS(pcl_fn_readDir(dir, pcl_null(), &err), err,
              "readDir: invalid value for \"path\" parameter: argument must not be null");
  BLEAK_END;
}

static void test_mime_type(void) {
  BLEAK_BEGIN;
  /* Go's built-in table, the common types of a system's mime.types (text
   * ones with a charset), ASCII case ignored; the extension is taken from
   * the last element of the path only; unknown gives "". */
  T1(pcl_fn_mimeType, "\"./base64.txt\"", "\"text/plain; charset=utf-8\"");
  T1(pcl_fn_mimeType, "\"index.html\"", "\"text/html; charset=utf-8\"");
  T1(pcl_fn_mimeType, "\"logo.PNG\"", "\"image/png\"");
  T1(pcl_fn_mimeType, "\"a/b.c/data.json\"", "\"application/json\"");
  T1(pcl_fn_mimeType, "\"feed.xml\"", "\"text/xml; charset=utf-8\"");
  T1(pcl_fn_mimeType, "\"site.tar.gz\"", "\"application/gzip\"");
  T1(pcl_fn_mimeType, "\"a.b/README\"", "\"\"");
  T1(pcl_fn_mimeType, "\"archive.unknownext\"", "\"\"");
  T1(pcl_fn_mimeType, "\"trailing.\"", "\"\"");
  T1(pcl_fn_mimeType, "\"\"", "\"\"");
  pcl_error *err = NULL;
  pcl_value *p = SECRET_TAKE(S("a.css"));
  CHECK_SHOW(pcl_fn_mimeType(p, &err), err, "secret(\"text/css; charset=utf-8\")");
  pcl_release(p);
  CHECK_SHOW(pcl_fn_mimeType(pcl_unknown(), &err), err, "unknown");
  BLEAK_END;
}

static void test_file_assets(void) {
  BLEAK_BEGIN;
  /* Paths are kept as written. */
  TF(pcl_fn_fileAsset, "testfile.txt", "asset:file(\"testfile.txt\")");
  TF(pcl_fn_fileAsset, "sub/inner.txt", "asset:file(\"sub/inner.txt\")");
  FF(pcl_fn_fileAsset, "nope.txt", "creating file asset: open nope.txt: no such file or directory");
  FF(pcl_fn_fileAsset, "sub", "creating file asset: read sub: is a directory");
  /* Archives: a directory, or a file with an archive extension. */
  TF(pcl_fn_fileArchive, "sub", "archive:file(\"sub\")");
  TF(pcl_fn_fileArchive, "site.zip", "archive:file(\"site.zip\")");
  TF(pcl_fn_fileArchive, "site.tar.gz", "archive:file(\"site.tar.gz\")");
  FF(pcl_fn_fileArchive, "testfile.txt",
     "creating file archive: file at path testfile.txt is not a recognized archive format");
  FF(pcl_fn_fileArchive, "nope", "creating file archive: stat nope: no such file or directory");
  pcl_error *err = NULL;
  CHECK_FAILS(pcl_fn_fileAsset(dir, pcl_null(), &err), err,
              "fileAsset: invalid value for \"path\" parameter: argument must not be null");
  BLEAK_END;
}

static void test_other_assets(void) {
  BLEAK_BEGIN;
  T1(pcl_fn_stringAsset, "\"<h1>Hello, world!</h1>\"", "asset:string(\"<h1>Hello, world!</h1>\")");
  T1(pcl_fn_stringAsset, "\"\"", "asset:string(\"\")");
  T1(pcl_fn_stringAsset, "5", "asset:string(\"5\")");
  V1(pcl_fn_stringAsset, SECRET_TAKE(S("pw")), "secret(asset:string(\"pw\"))");
  F1(pcl_fn_stringAsset, "null", "stringAsset: invalid value for \"value\" parameter: argument must not be null");
  T1(pcl_fn_remoteAsset, "\"https://example.com/a.txt\"", "asset:remote(\"https://example.com/a.txt\")");
  T1(pcl_fn_remoteAsset, "\"HTTP://example.com\"", "asset:remote(\"HTTP://example.com\")");
  T1(pcl_fn_remoteAsset, "\"file:///srv/a.txt\"", "asset:remote(\"file:///srv/a.txt\")");
  F1(pcl_fn_remoteAsset, "\"ftp://example.com/a\"",
     "creating remote asset: unrecognized or unsupported URI scheme: ftp");
  F1(pcl_fn_remoteAsset, "\"no-scheme\"", "creating remote asset: unrecognized or unsupported URI scheme: ");
  T1(pcl_fn_remoteArchive, "\"https://example.com/a.tgz\"", "archive:remote(\"https://example.com/a.tgz\")");
  F1(pcl_fn_remoteArchive, "\"s3://bucket/a.zip\"",
     "creating remote archive: unrecognized or unsupported URI scheme: s3");
  BLEAK_END;
}

static void test_asset_archive(void) {
  BLEAK_BEGIN;
  pcl_error *err = NULL;
  pcl_value *text = S("x"), *path = S("sub");
  pcl_value *asset = pcl_asset_new(PCL_ASSET_STRING, text);
  pcl_value *archive = pcl_archive_new(PCL_ARCHIVE_FILE, path);
  pcl_value *keys[2] = {S("b"), S("a")};
  pcl_value *vals[2] = {asset, archive};
  pcl_value *m = pcl_map_of(keys, vals, 2);
  CHECK_SHOW(pcl_fn_assetArchive(m, &err), err,
             "archive:assets({\"a\":archive:file(\"sub\"),\"b\":asset:string(\"x\")})");
  /* A secret member is lifted onto the archive. */
  pcl_value *secret = pcl_secret_new(asset);
  pcl_value *svals[2] = {secret, archive};
  pcl_value *sm = pcl_map_of(keys, svals, 2);
  err = NULL;
  CHECK_SHOW(pcl_fn_assetArchive(sm, &err), err,
             "secret(archive:assets({\"a\":archive:file(\"sub\"),\"b\":asset:string(\"x\")}))");
  /* An unknown member makes the archive unknown. */
  pcl_value *uvals[2] = {asset, pcl_unknown()};
  pcl_value *um = pcl_map_of(keys, uvals, 2);
  err = NULL;
  CHECK_SHOW(pcl_fn_assetArchive(um, &err), err, "unknown");
  T1(pcl_fn_assetArchive, "{}", "archive:assets({})");
  F1(pcl_fn_assetArchive, "[]", "assetArchive assets must be a map or object");
  F1(pcl_fn_assetArchive, "\"x\"", "assetArchive assets must be a map or object");
  F1(pcl_fn_assetArchive, "{\"a\":\"text\"}",
     "assetArchive: the value of \"a\" must be an asset or an archive, was string");
  for (int i = 0; i < 2; i++) {
    pcl_release(keys[i]);
  }
  pcl_release(m);
  pcl_release(sm);
  pcl_release(um);
  pcl_release(secret);
  pcl_release(asset);
  pcl_release(archive);
  pcl_release(text);
  pcl_release(path);
  BLEAK_END;
}

void register_builtins_file_tests(void);
void register_builtins_file_tests(void) {
  CU_pSuite s = CU_add_suite("builtins_file", setup, teardown);
  CU_add_test(s, "readFile, filebase64, filebase64sha256", test_read_file);
  CU_add_test(s, "file errors", test_read_file_errors);
  CU_add_test(s, "readDir", test_read_dir);
  CU_add_test(s, "mimeType", test_mime_type);
  CU_add_test(s, "fileAsset and fileArchive", test_file_assets);
  CU_add_test(s, "string and remote assets", test_other_assets);
  CU_add_test(s, "assetArchive", test_asset_archive);
}
