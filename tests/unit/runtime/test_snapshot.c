/* test_snapshot.c: the snapshot value encoding (docs/snapshot.md): secrets,
 * unknowns, resource references, assets, exact ints, sorted keys, masking;
 * its decoder; and Go durations for customTimeouts. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"

/* Returns the compact encoding of v (owned). */
static char *enc(const pcl_value *v, bool mask) {
  pcl_strbuf b = PCL_STRBUF_INIT;
  pcl__snap_encode(&b, v, -1, mask);
  return b.data;
}

static pcl_value *decode_text(const char *json, unsigned flags) {
  pcl_error *err = NULL;
  pcl_value *v = pcl_json_decode(json, strlen(json), flags, &err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(v);
  return v;
}

static void test_encode(void) {
  pcl_value *raw = decode_text("{\"z\": 1, \"a\": [123456789012345678901234567890, 0.5, null, "
                               "true, \"s\\n\"]}", 0);
  char *t = enc(raw, false);
  CU_ASSERT_STRING_EQUAL(t, "{\"a\":[123456789012345678901234567890,0.5,null,true,\"s\\n\"],\"z\":1}");
  free(t);
  pcl_release(raw);

  pcl_value *s = pcl_str_from_cstr("pw");
  pcl_value *sec = pcl_secret_new(s);
  pcl_value *urn = pcl_str_from_cstr("urn:pulumi:s::p::t::n");
  pcl_value *id = pcl_str_from_cstr("n_id");
  pcl_value *ref = pcl_resource_new(urn, id, NULL);
  pcl_value *path = pcl_str_from_cstr("no-such-file.txt");
  pcl_value *asset = pcl_asset_new(PCL_ASSET_FILE, path);
  pcl_mapbuf mb = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_cstr(&mb, "secret", pcl_retain(sec));
  pcl_mapbuf_put_cstr(&mb, "unknown", pcl_unknown());
  pcl_mapbuf_put_cstr(&mb, "ref", pcl_retain(ref));
  pcl_mapbuf_put_cstr(&mb, "asset", pcl_retain(asset));
  pcl_value *m = pcl_mapbuf_finish(&mb);
  t = enc(m, false);
  CU_ASSERT_STRING_EQUAL(t, "{\"asset\":{\"asset\":{\"path\":\"no-such-file.txt\"}},"
                            "\"ref\":{\"resource_ref\":{\"id\":\"n_id\",\"urn\":\"urn:pulumi:s::p::t::n\"}},"
                            "\"secret\":{\"secret\":\"pw\"},\"unknown\":{\"unknown\":true}}");
  free(t);
  t = enc(m, true);
  CU_ASSERT_PTR_NOT_NULL(strstr(t, "\"secret\":\"[secret]\""));
  free(t);

  /* The decoder turns the wrappers back into values. */
  pcl_value *d = decode_text("{\"a\": {\"secret\": {\"unknown\": true}}, \"b\": {\"resource_ref\": "
                             "{\"urn\": \"u\", \"id\": \"i\"}}, \"c\": {\"secret\": 1, \"x\": 2}}",
                             PCL_JSON_SNAPSHOT);
  pcl_value *a = pcl_map_get_cstr(d, "a");
  CU_ASSERT_EQUAL(pcl_kind_of(a), PCL_T_SECRET);
  CU_ASSERT_EQUAL(pcl_kind_of(pcl_secret_inner(a)), PCL_T_UNKNOWN);
  CU_ASSERT_EQUAL(pcl_kind_of(pcl_map_get_cstr(d, "b")), PCL_T_RESOURCE);
  /* A map with two keys is not a wrapper. */
  CU_ASSERT_EQUAL(pcl_kind_of(pcl_map_get_cstr(d, "c")), PCL_T_MAP);
  pcl_release(d);

  /* A wrapper whose payload has the wrong shape is an error naming its
   * JSON path. */
  static const struct {
    const char *text, *message;
  } bad[] = {
      {"{\"o\": {\"a\": [1, {\"unknown\": 5}]}}",
       "o.a[1]: an unknown value is written {\"unknown\": true}"},
      {"[{\"resource_ref\": {\"urn\": 5}}]",
       "[0]: a resource reference is written {\"resource_ref\": {\"urn\": string, \"id\": string}}"},
      {"{\"resource_ref\": {\"urn\": \"u\", \"x\": 1}}",
       "a resource reference is written {\"resource_ref\": {\"urn\": string, \"id\": string}}"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    pcl_error *err = NULL;
    CU_ASSERT_PTR_NULL(pcl_json_decode(bad[i].text, strlen(bad[i].text), PCL_JSON_SNAPSHOT, &err));
    CU_ASSERT_PTR_NOT_NULL_FATAL(err);
    CU_ASSERT_STRING_EQUAL(pcl_error_message(err), bad[i].message);
    pcl_error_free(err);
  }

  pcl_release(m);
  pcl_release(asset);
  pcl_release(path);
  pcl_release(ref);
  pcl_release(id);
  pcl_release(urn);
  pcl_release(sec);
  pcl_release(s);
}

static void test_asset_hashes(void) {
  pcl_value *text = pcl_str_from_cstr("the asset contents");
  pcl_value *a = pcl_asset_new(PCL_ASSET_STRING, text);
  char *t = enc(a, false);
  CU_ASSERT_STRING_EQUAL(t, "{\"asset\":{\"hash\":\"70577d90d7d5e094513e114ab32d343a62fe8afbc917d"
                            "c81656b1a6ee663bd74\",\"text\":\"the asset contents\"}}");
  free(t);
  FILE *f = fopen("asset-test.txt", "wb");
  fputs("the asset contents", f);
  fclose(f);
  pcl_value *path = pcl_str_from_cstr("asset-test.txt");
  pcl_value *fa = pcl_asset_new(PCL_ASSET_FILE, path);
  t = enc(fa, false);
  CU_ASSERT_PTR_NOT_NULL(strstr(t, "\"hash\":\"70577d90d7d5e094513e114ab32d343a62fe8afbc917d"));
  free(t);
  remove("asset-test.txt");
  pcl_value *uri = pcl_str_from_cstr("https://example.com/x");
  pcl_value *ra = pcl_asset_new(PCL_ASSET_REMOTE, uri);
  t = enc(ra, false);
  CU_ASSERT_STRING_EQUAL(t, "{\"asset\":{\"uri\":\"https://example.com/x\"}}");
  free(t);
  pcl_value *all[] = {text, a, path, fa, uri, ra};
  for (size_t i = 0; i < 6; i++) {
    pcl_release(all[i]);
  }
}

/* A file archive is hashed over the file's bytes; remote archives and
 * missing directories carry no hash (test_hash.c checks the hashes of asset
 * maps and directories). */
static void test_archive_hashes(void) {
  FILE *f = fopen("archive-test.tar", "wb");
  fputs("the asset contents", f);
  fclose(f);
  pcl_value *path = pcl_str_from_cstr("archive-test.tar");
  pcl_value *fa = pcl_archive_new(PCL_ARCHIVE_FILE, path);
  char *t = enc(fa, false);
  CU_ASSERT_STRING_EQUAL(t, "{\"archive\":{\"hash\":\"70577d90d7d5e094513e114ab32d343a62fe8af"
                            "bc917dc81656b1a6ee663bd74\",\"path\":\"archive-test.tar\"}}");
  free(t);
  remove("archive-test.tar");
  pcl_value *dir = pcl_str_from_cstr("no-such-dir");
  pcl_value *da = pcl_archive_new(PCL_ARCHIVE_FILE, dir);
  t = enc(da, false);
  CU_ASSERT_STRING_EQUAL(t, "{\"archive\":{\"path\":\"no-such-dir\"}}");
  free(t);
  pcl_value *uri = pcl_str_from_cstr("https://example.com/a.tgz");
  pcl_value *ra = pcl_archive_new(PCL_ARCHIVE_REMOTE, uri);
  t = enc(ra, false);
  CU_ASSERT_STRING_EQUAL(t, "{\"archive\":{\"uri\":\"https://example.com/a.tgz\"}}");
  free(t);
  pcl_value *all[] = {path, fa, dir, da, uri, ra};
  for (size_t i = 0; i < 6; i++) {
    pcl_release(all[i]);
  }
}

/* A string that is not UTF-8 keeps its bytes in the snapshot; the UTF-8
 * parts around them are escaped as usual. */
static const char raw_bytes[] = "\x00hello \x80\xfe\xff w\"\xc3\xa9\n\xf0\x28";
static pcl_value raw_str = PCL_STATIC_STRING_N(raw_bytes, sizeof raw_bytes - 1);

static void test_raw_bytes(void) {
  pcl_value *v = &raw_str;
  char *t = enc(v, false);
  static const char want[] = "\"\\u0000hello \x80\xfe\xff w\\\"\xc3\xa9\\n\xf0(\"";
  CU_ASSERT_EQUAL(strlen(t), sizeof want - 1);
  CU_ASSERT(memcmp(t, want, sizeof want - 1) == 0);
  free(t);
  pcl_value *keys[] = {v};
  pcl_value *vals[] = {pcl_null()};
  pcl_value *m = pcl_map_of(keys, vals, 1);
  t = enc(m, false);
  const char *want_key = "{\"\\u0000hello \x80\xfe\xff w";
  CU_ASSERT(strncmp(t, want_key, strlen(want_key)) == 0);
  free(t);
  pcl_release(m);
}

static void test_pretty(void) {
  pcl_value *v = decode_text("{\"b\": [], \"a\": {\"x\": [1]}, \"c\": {}}", 0);
  pcl_strbuf b = PCL_STRBUF_INIT;
  pcl__snap_encode(&b, v, 0, false);
  CU_ASSERT_STRING_EQUAL(b.data, "{\n  \"a\": {\n    \"x\": [\n      1\n    ]\n  },\n  \"b\": [],\n"
                                 "  \"c\": {}\n}");
  pcl_strbuf_free(&b);
  pcl_release(v);
}

static void test_durations(void) {
  double s = -1;
  CU_ASSERT(pcl__parse_duration("5m", &s) && s == 300.0);
  CU_ASSERT(pcl__parse_duration(".2m", &s) && s == 12.0);
  CU_ASSERT(pcl__parse_duration("1h30m", &s) && s == 5400.0);
  CU_ASSERT(pcl__parse_duration("1m30s", &s) && s == 90.0);
  CU_ASSERT(pcl__parse_duration("1500ms", &s) && s == 1.5);
  CU_ASSERT(pcl__parse_duration("0", &s) && s == 0.0);
  CU_ASSERT_FALSE(pcl__parse_duration("5", &s));
  CU_ASSERT_FALSE(pcl__parse_duration("m", &s));
  CU_ASSERT_FALSE(pcl__parse_duration("5 minutes", &s));
  CU_ASSERT_FALSE(pcl__parse_duration("", &s));
}

void register_snapshot_tests(void);
void register_snapshot_tests(void) {
  CU_pSuite s = CU_add_suite("snapshot", NULL, NULL);
  CU_add_test(s, "value encoding and decoding", test_encode);
  CU_add_test(s, "pretty printing", test_pretty);
  CU_add_test(s, "asset hashes", test_asset_hashes);
  CU_add_test(s, "archive hashes", test_archive_hashes);
  CU_add_test(s, "strings that are not UTF-8 keep their bytes", test_raw_bytes);
  CU_add_test(s, "durations", test_durations);
}
