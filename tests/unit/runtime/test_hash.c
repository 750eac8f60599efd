/* test_hash.c: the content hashes of assets and archives (runtime/engine/hash.c)
 * and Go's path cleaning they use.
 *
 * The expected archive hashes were computed without libpclrt, by
 * tests/data/archive-hashes.py: Python's tarfile writes the header bytes of
 * Go's archive/tar writer when given the same fields (name, mode 0600,
 * size; mtime, ids and names empty), and the stream is cut after the two
 * closing zero blocks where Go stops; the one case tarfile cannot write as
 * Go does (a PAX record for a name that is not ASCII) is assembled byte by
 * byte from Go's layout.  The hash of the empty archive is also the one
 * Pulumi's own archive code names as the hash of empty contents.  The script
 * also wrote tests/data/nested.tar and nested.zip, which these archives
 * nest.  The tests run from the repository root (as make check-unit runs
 * them), where tests/data is. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "builtins_check.h"
#include "engine/engine.h"

/* Returns a string asset of text. */
static pcl_value *text_asset(const char *text) {
  pcl_value *s = S(text);
  pcl_value *a = pcl_asset_new(PCL_ASSET_STRING, s);
  pcl_release(s);
  return a;
}

/* Returns an asset or archive of kind k (an ASSET or ARCHIVE subkind chosen
 * by archive) over the path or URI p. */
static pcl_value *path_value(bool archive, int kind, const char *p) {
  pcl_value *s = S(p);
  pcl_value *v = archive ? pcl_archive_new((pcl_archive_kind)kind, s)
                         : pcl_asset_new((pcl_asset_kind)kind, s);
  pcl_release(s);
  return v;
}

/* Returns the archive of the map of names[i] -> members[i] (stolen). */
static pcl_value *assets(size_t n, const char *const *names, pcl_value **members) {
  pcl_mapbuf mb = PCL_MAPBUF_INIT;
  for (size_t i = 0; i < n; i++) {
    pcl_mapbuf_put_cstr(&mb, names[i], members[i]);
  }
  pcl_value *m = pcl_mapbuf_finish(&mb);
  pcl_value *a = pcl_archive_new(PCL_ARCHIVE_ASSETS, m);
  pcl_release(m);
  return a;
}

/* Asserts that archive (stolen) hashes to want, or has no hash (want
 * NULL). */
#define CHECK_HASH(archive, want) check_hash_at((archive), (want), __LINE__)
static void check_hash_at(pcl_value *archive, const char *want, int line) {
  char hex[65] = "";
  bool ok = pcl__archive_hash(archive, hex);
  if (want == NULL ? ok : !ok || strcmp(hex, want) != 0) {
    fprintf(stderr, "\nline %d: hash %s, want %s\n", line, ok ? hex : "(none)",
            want ? want : "(none)");
  }
  CU_ASSERT_EQUAL(ok, want != NULL);
  if (ok && want != NULL) {
    CU_ASSERT_STRING_EQUAL(hex, want);
  }
  pcl_release(archive);
}

static void test_asset_maps(void) {
  BLEAK_BEGIN;
  CHECK_HASH(assets(0, NULL, NULL),
             "5f70bf18a086007016e948b04aed3b82103a36bea41755b6cddfaf10ace3c6ef");
  /* Members in key byte order, whatever order the map was built in. */
  CHECK_HASH(assets(2, (const char *[]){"b.txt", "a.txt"},
                    (pcl_value *[]){text_asset("bee"), text_asset("hello")}),
             "e1fbe9edd0a5eeb639095ea1bf79907a19c73eb13e306a5b4f6cf71f2c48011c");
  /* A nested archive is flattened in place under its key ("dir" sorts
   * before "dir-a.txt", although "dir-a.txt" < "dir/x.txt"), its names
   * joined and cleaned ("dir/../up.txt" is "up.txt", first, as "../up.txt"
   * sorts before "x.txt"). */
  pcl_value *inner = assets(2, (const char *[]){"x.txt", "../up.txt"},
                            (pcl_value *[]){text_asset("x"), text_asset("up")});
  CHECK_HASH(assets(2, (const char *[]){"dir-a.txt", "dir"},
                    (pcl_value *[]){text_asset("dash"), inner}),
             "cb600f9c04b1ce131e6ebcc5b32db03b6aa20fce6368fb57c390288044aff378");
  /* A name met again is left out: the nested "a/x" comes first. */
  inner = assets(1, (const char *[]){"x"}, (pcl_value *[]){text_asset("1")});
  CHECK_HASH(assets(2, (const char *[]){"a/x", "a"}, (pcl_value *[]){text_asset("2"), inner}),
             "546ae17d163efa8f5357da409899b06b8bad8dddccfad14777457765fde0c9df");
  /* A body of exactly one block needs no padding; an empty one none. */
  char *block = malloc(513);
  memset(block, 'b', 512);
  block[512] = '\0';
  CHECK_HASH(assets(2, (const char *[]){"block", "next"},
                    (pcl_value *[]){text_asset(block), text_asset("")}),
             "395dd4107d84e4ceb9dde051f90acc2901ce0be60ee09e4065c29a1ee3a30adc");
  free(block);
  /* A name of more than 100 bytes goes to the USTAR prefix field, split at
   * its slash. */
  char name[200];
  snprintf(name, sizeof name, "%.60s/%.70s.txt",
           "dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd",
           "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff");
  CHECK_HASH(assets(1, (const char *[]){name}, (pcl_value *[]){text_asset("long")}),
             "51993c4d2f159f4c9fd3407ae40bf0a7e8fb7c14c1300b8f90a470acdbc6d102");
  /* A name that is not ASCII gets a PAX path record. */
  CHECK_HASH(assets(1, (const char *[]){"caf\xc3\xa9.txt"},
                    (pcl_value *[]){text_asset("caf\xc3\xa9")}),
             "61bc0877aae99a9cec7a69c7ced862a7f43c85f2533e24f8831a0feb3f845b6a");
  /* A name ending in a slash would be a directory holding contents, which
   * the engine cannot hash. */
  CHECK_HASH(assets(1, (const char *[]){"dir/"}, (pcl_value *[]){text_asset("x")}), NULL);
  BLEAK_END;
}

static void test_directories_and_files(void) {
  BLEAK_BEGIN;
  /* filepath.Walk order: "b/c.txt" before "b-d.txt"; .pulumi left out. */
  CHECK_HASH(path_value(true, PCL_ARCHIVE_FILE, "tests/data/archive"),
             "e0ead1230d6d35815706e2ff5fb0c0a437da9c73e85021f5243b6c341f4d998d");
  /* A directory and a file asset in a map. */
  CHECK_HASH(assets(2, (const char *[]){"file", "d"},
                    (pcl_value *[]){path_value(false, PCL_ASSET_FILE, "tests/data/archive/a.txt"),
                                    path_value(true, PCL_ARCHIVE_FILE, "tests/data/archive")}),
             "a25b182695253fd5be4cb4f4a3dfed7caa2d79852d4d4b1b3cf981acae04143c");
  /* Tar and zip files in a map are read: their regular files in stored
   * order, directories left out. */
  CHECK_HASH(assets(2, (const char *[]){"z", "t"},
                    (pcl_value *[]){path_value(true, PCL_ARCHIVE_FILE, "tests/data/nested.zip"),
                                    path_value(true, PCL_ARCHIVE_FILE, "tests/data/nested.tar")}),
             "efe0f410a1b45af83f3c64fa1b89713cf60b52b876f0a1fb918ecaa79fa49882");
  /* An archive file by itself hashes as its bytes (sha256sum of the file). */
  CHECK_HASH(path_value(true, PCL_ARCHIVE_FILE, "tests/data/nested.zip"),
             "ad416884146442688bff2037c537855f536fccc16322728d81b67552f1a69bd9");
  /* What cannot be read here has no hash: remote contents, missing files,
   * a directory that is neither an archive nor a directory. */
  CHECK_HASH(path_value(true, PCL_ARCHIVE_REMOTE, "https://example.com/a.tgz"), NULL);
  CHECK_HASH(path_value(true, PCL_ARCHIVE_FILE, "tests/data/missing"), NULL);
  CHECK_HASH(path_value(true, PCL_ARCHIVE_FILE, "tests/data/README.md"), NULL);
  CHECK_HASH(assets(1, (const char *[]){"r"},
                    (pcl_value *[]){path_value(false, PCL_ASSET_REMOTE, "https://example.com/r")}),
             NULL);
  CHECK_HASH(assets(1, (const char *[]){"m"},
                    (pcl_value *[]){path_value(false, PCL_ASSET_FILE, "tests/data/missing.txt")}),
             NULL);
  BLEAK_END;
}

static void test_go_clean(void) {
  static const char *const cases[][2] = {
      {"", "."},           {".", "."},         {"a/b/../c", "a/c"}, {"a//b/./c/", "a/b/c"},
      {"../a", "../a"},    {"a/../..", ".."},  {"/../a", "/a"},     {"/", "/"},
      {"dir/../up", "up"}, {"./x", "x"},       {"a/b/..", "a"},     {"../../x/..", "../.."},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char *got = pcl__go_clean(cases[i][0]);
    if (strcmp(got, cases[i][1]) != 0) {
      fprintf(stderr, "\nclean(%s) = %s, want %s\n", cases[i][0], got, cases[i][1]);
    }
    CU_ASSERT_STRING_EQUAL(got, cases[i][1]);
    free(got);
  }
}

void register_hash_tests(void);
void register_hash_tests(void) {
  CU_pSuite s = CU_add_suite("hash", NULL, NULL);
  CU_add_test(s, "archives of asset maps", test_asset_maps);
  CU_add_test(s, "directories and archive files", test_directories_and_files);
  CU_add_test(s, "Go's path cleaning", test_go_clean);
}
