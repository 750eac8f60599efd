/* test_rpc.c: property values in the engine protocol (rpc_value.c): the
 * packed bytes of a known Struct, round trips of every kind through
 * google.protobuf.Struct, what is lowered for a monitor without secrets or
 * resource references, output values (single and as the members of a
 * remote component's inputs or a call's arguments, and every output inside
 * an invoke's or call's arguments and answer), byte strings (strings
 * that are not UTF-8), ints rounded (D3), the errors of values the
 * protocol cannot carry and of answers that do not decode, and the args of
 * a hook call. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "value/pcl_internal.h"
#include "engine/rpc.h"

static pcl_value *json(const char *text) {
  pcl_error *err = NULL;
  pcl_value *v = pcl_json_decode(text, strlen(text), PCL_JSON_WIRE, &err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(v);
  return v;
}

/* Packs v with enc and unpacks it again (owned; NULL when packing failed). */
static pcl_value *round_trip(const pcl_value *v, pcl__rpc_enc *enc) {
  size_t len = 0;
  uint8_t *bytes = pcl__rpc_struct_pack(v, enc, &len);
  if (bytes == NULL) {
    return NULL;
  }
  pcl_error *err = NULL;
  pcl_value *back = pcl__rpc_struct_unpack(bytes, len, &err);
  free(bytes);
  CU_ASSERT_PTR_NULL(err);
  pcl_error_free(err);
  return back;
}

static void test_known_bytes(void) {
  pcl_value *v = json("{\"a\": true}");
  pcl__rpc_enc enc = {.secrets = true, .resources = true};
  size_t len = 0;
  uint8_t *bytes = pcl__rpc_struct_pack(v, &enc, &len);
  /* Struct.fields entry (1, len 7): key (1) "a", value (2, len 2): bool (4) 1. */
  static const uint8_t want[] = {0x0a, 0x07, 0x0a, 0x01, 0x61, 0x12, 0x02, 0x20, 0x01};
  CU_ASSERT_EQUAL_FATAL(len, sizeof want);
  CU_ASSERT(memcmp(bytes, want, len) == 0);
  free(bytes);
  pcl_release(v);
}

static void test_round_trip(void) {
  pcl_value *urn = pcl_str_from_cstr("urn:pulumi:s::p::t:index:R::r");
  pcl_value *id = pcl_str_from_cstr("r-id");
  pcl_value *ver = pcl_str_from_cstr("1.2.3");
  pcl_value *path = pcl_str_from_cstr("dir/file.txt");
  pcl_value *text = pcl_str_from_cstr("hello");
  pcl_value *asset = pcl_asset_new(PCL_ASSET_FILE, path);
  pcl_value *sasset = pcl_asset_new(PCL_ASSET_STRING, text);
  pcl_mapbuf ab = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_cstr(&ab, "f", pcl_retain(asset));
  pcl_mapbuf_put_cstr(&ab, "s", pcl_retain(sasset));
  pcl_value *amap = pcl_mapbuf_finish(&ab);
  pcl_value *archive = pcl_archive_new(PCL_ARCHIVE_ASSETS, amap);
  pcl_value *inner = json("{\"n\": null, \"b\": false, \"i\": -42, \"x\": 0.5, \"s\": \"h\\u00e9\","
                          " \"l\": [1, [2], {\"k\": \"v\"}]}");
  pcl_mapbuf mb = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_cstr(&mb, "plain", pcl_retain(inner));
  pcl_mapbuf_put_cstr(&mb, "secret", pcl_secret_new(inner));
  pcl_mapbuf_put_cstr(&mb, "ref", pcl_resource_new(urn, id, ver));
  pcl_mapbuf_put_cstr(&mb, "component", pcl_resource_new(urn, NULL, NULL));
  pcl_mapbuf_put_cstr(&mb, "asset", pcl_retain(asset));
  pcl_mapbuf_put_cstr(&mb, "archive", pcl_retain(archive));
  pcl_mapbuf_put_cstr(&mb, "unknown", pcl_unknown());
  /* NUL characters in keys and strings keep their bytes. */
  pcl_mapbuf_put_take(&mb, pcl_str_new_lossy("nul\0key", 7), pcl_str_new_lossy("a\0b", 3));
  pcl_value *m = pcl_mapbuf_finish(&mb);

  pcl__rpc_enc enc = {.secrets = true, .resources = true};
  pcl_value *back = round_trip(m, &enc);
  CU_ASSERT_PTR_NULL(enc.err);
  CU_ASSERT_EQUAL(enc.rounded, 0);
  CU_ASSERT_PTR_NOT_NULL_FATAL(back);
  CU_ASSERT(pcl_equal(back, m));
  CU_ASSERT_EQUAL(pcl_kind_of(pcl_map_get_cstr(back, "secret")), PCL_T_SECRET);
  CU_ASSERT_EQUAL(pcl_kind_of(pcl_map_get_cstr(back, "unknown")), PCL_T_UNKNOWN);
  pcl_value *ref = pcl_map_get_cstr(back, "ref");
  CU_ASSERT_EQUAL_FATAL(pcl_kind_of(ref), PCL_T_RESOURCE);
  CU_ASSERT(pcl_str_eq_cstr(pcl_resource_version(ref), "1.2.3"));
  /* Ints come back as ints, not numbers. */
  pcl_value *i = pcl_map_get_cstr(pcl_map_get_cstr(back, "plain"), "i");
  CU_ASSERT_EQUAL(pcl_kind_of(i), PCL_T_INT);
  pcl_release(back);

  /* A monitor without secrets or resource references gets plain values and
   * ids (URNs for references without one), as the SDKs send them. */
  pcl__rpc_enc plain = {0};
  back = round_trip(m, &plain);
  CU_ASSERT_PTR_NOT_NULL_FATAL(back);
  CU_ASSERT(pcl_equal(pcl_map_get_cstr(back, "secret"), inner));
  CU_ASSERT(pcl_equal(pcl_map_get_cstr(back, "ref"), id));
  CU_ASSERT(pcl_equal(pcl_map_get_cstr(back, "component"), urn));
  pcl_release(back);

  pcl_release(m);
  pcl_release(inner);
  pcl_release(archive);
  pcl_release(amap);
  pcl_release(asset);
  pcl_release(sasset);
  pcl_release(text);
  pcl_release(path);
  pcl_release(ver);
  pcl_release(id);
  pcl_release(urn);
}

/* Returns whether the protobuf bytes b hold exactly the NUL-terminated s. */
static bool bytes_are(ProtobufCBinaryData b, const char *s) {
  return b.len == strlen(s) && memcmp(b.data, s, b.len) == 0;
}

/* Returns whether the Value v is the signature object of sig whose member
 * key (the last one) is the string want. */
static bool sig_object(const Google__Protobuf__Value *v, const char *sig, size_t n,
                       const char *key, const char *want) {
  if (v->kind_case != GOOGLE__PROTOBUF__VALUE__KIND_STRUCT_VALUE ||
      v->struct_value->n_fields != n) {
    return false;
  }
  Google__Protobuf__Struct *st = v->struct_value;
  bool ok = bytes_are(st->fields[0]->key, PCL__SIG_KEY) &&
            bytes_are(st->fields[0]->value->string_value, sig);
  if (key) {
    ok = ok && bytes_are(st->fields[1]->key, key) &&
         (want == NULL || (st->fields[1]->value->kind_case ==
                               GOOGLE__PROTOBUF__VALUE__KIND_STRING_VALUE &&
                           bytes_are(st->fields[1]->value->string_value, want)));
  }
  return ok;
}

static void test_output_values(void) {
  pcl_value *s = pcl_str_from_cstr("v");
  pcl_value *sec = pcl_secret_new(s);
  pcl_deps *a = pcl_deps_one("urn:b"), *b = pcl_deps_one("urn:a");
  pcl_deps *d = pcl_deps_union(a, b);
  pcl__rpc_enc enc = {.secrets = true, .resources = true};
  Google__Protobuf__Value *ov = pcl__rpc_output_value_new(sec, d, &enc);
  CU_ASSERT_PTR_NOT_NULL_FATAL(ov);
  CU_ASSERT_EQUAL_FATAL(ov->kind_case, GOOGLE__PROTOBUF__VALUE__KIND_STRUCT_VALUE);
  /* Signature, value, secret and the sorted dependencies. */
  Google__Protobuf__Struct *st = ov->struct_value;
  CU_ASSERT_EQUAL_FATAL(st->n_fields, 4);
  CU_ASSERT(bytes_are(st->fields[0]->key, PCL__SIG_KEY));
  CU_ASSERT(bytes_are(st->fields[0]->value->string_value, PCL__SIG_OUTPUT));
  CU_ASSERT(bytes_are(st->fields[1]->key, "value"));
  CU_ASSERT(bytes_are(st->fields[1]->value->string_value, "v"));
  CU_ASSERT(bytes_are(st->fields[2]->key, "secret"));
  CU_ASSERT(bytes_are(st->fields[3]->key, "dependencies"));
  Google__Protobuf__ListValue *l = st->fields[3]->value->list_value;
  CU_ASSERT_EQUAL_FATAL(l->n_values, 2);
  CU_ASSERT(bytes_are(l->values[0]->string_value, "urn:a"));
  pcl_error *err = NULL;
  pcl_value *back = pcl__rpc_value_get(ov, &err);
  CU_ASSERT(back && pcl_equal(back, sec) && pcl_kind_of(back) == PCL_T_SECRET);
  pcl_release(back);
  protobuf_c_message_free_unpacked(&ov->base, NULL);

  /* An unknown output value has no "value" and decodes as unknown. */
  ov = pcl__rpc_output_value_new(pcl_unknown(), NULL, &enc);
  CU_ASSERT_EQUAL(ov->struct_value->n_fields, 1);
  back = pcl__rpc_value_get(ov, &err);
  CU_ASSERT(back && pcl_kind_of(back) == PCL_T_UNKNOWN);
  pcl_release(back);
  protobuf_c_message_free_unpacked(&ov->base, NULL);
  pcl_deps_release(a);
  pcl_deps_release(b);
  pcl_deps_release(d);
  pcl_release(sec);
  pcl_release(s);
}

static void test_output_struct(void) {
  pcl_value *urn = pcl_str_from_cstr("urn:pulumi:s::p::c:i:C::c");
  pcl_value *s = pcl_str_from_cstr("s");
  pcl_mapbuf mb = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_cstr(&mb, "__self__", pcl_resource_new(urn, NULL, NULL));
  pcl_mapbuf_put_cstr(&mb, "dep", pcl_str_from_cstr("x"));
  pcl_mapbuf_put_cstr(&mb, "plain", pcl_str_from_cstr("p"));
  pcl_mapbuf_put_cstr(&mb, "sec", pcl_secret_new(s));
  pcl_mapbuf_put_cstr(&mb, "unk", pcl_unknown());
  pcl_value *m = pcl_mapbuf_finish(&mb);
  pcl_deps *a = pcl_deps_one("urn:a");
  pcl_deps *deps[] = {NULL, a, NULL, NULL, NULL};
  pcl__rpc_enc enc = {.secrets = true, .resources = true};
  Google__Protobuf__Struct *st = pcl__rpc_output_struct_new(m, deps, &enc);
  CU_ASSERT_PTR_NOT_NULL_FATAL(st);
  CU_ASSERT_EQUAL_FATAL(st->n_fields, 5);
  /* The receiver stays a resource reference, a plain argument a string. */
  CU_ASSERT(sig_object(st->fields[0]->value, PCL__SIG_RESOURCE, 2, "urn", NULL));
  CU_ASSERT(st->fields[2]->value->kind_case == GOOGLE__PROTOBUF__VALUE__KIND_STRING_VALUE &&
            bytes_are(st->fields[2]->value->string_value, "p"));
  /* An argument with dependencies, a secret one and an unknown one are
   * output values. */
  Google__Protobuf__Value *dep = st->fields[1]->value;
  CU_ASSERT_FATAL(sig_object(dep, PCL__SIG_OUTPUT, 3, "value", "x"));
  CU_ASSERT(bytes_are(dep->struct_value->fields[2]->key, "dependencies"));
  CU_ASSERT(bytes_are(dep->struct_value->fields[2]->value->list_value->values[0]->string_value,
                      "urn:a"));
  Google__Protobuf__Value *sec = st->fields[3]->value;
  CU_ASSERT_FATAL(sig_object(sec, PCL__SIG_OUTPUT, 3, "value", "s"));
  CU_ASSERT(bytes_are(sec->struct_value->fields[2]->key, "secret") &&
            sec->struct_value->fields[2]->value->bool_value);
  CU_ASSERT(sig_object(st->fields[4]->value, PCL__SIG_OUTPUT, 1, NULL, NULL));
  /* Decoded, the values come back (the dependencies travel apart). */
  pcl_error *err = NULL;
  pcl_value *back = pcl__rpc_struct_get(st, &err);
  CU_ASSERT(back && pcl_equal(back, m));
  CU_ASSERT(back && pcl_kind_of(pcl_map_get_cstr(back, "sec")) == PCL_T_SECRET);
  pcl_release(back);
  protobuf_c_message_free_unpacked(&st->base, NULL);
  pcl_deps_release(a);
  pcl_release(m);
  pcl_release(s);
  pcl_release(urn);
}

static void test_rounding(void) {
  pcl_value *m = json("{\"big\": 1152921504606846977, \"ok\": 9007199254740992}");
  pcl__rpc_enc enc = {0};
  pcl_value *back = round_trip(m, &enc);
  CU_ASSERT_EQUAL(enc.rounded, 1);
  CU_ASSERT_STRING_EQUAL(enc.first_rounded, "1152921504606846977");
  /* 2^60 + 1 arrives as the double 2^60, a number beyond 2^53. */
  pcl_value *big = pcl_map_get_cstr(back, "big");
  CU_ASSERT_EQUAL(pcl_kind_of(big), PCL_T_NUMBER);
  CU_ASSERT(pcl_number_get(big) == 1152921504606846976.0);
  CU_ASSERT_EQUAL(pcl_kind_of(pcl_map_get_cstr(back, "ok")), PCL_T_INT);
  pcl__rpc_enc_clear(&enc);
  pcl_release(back);
  pcl_release(m);
  /* The warning shows no digit of a secret int, sent as a secret or, to a
   * monitor without secrets, plain; nor of a secret output value. */
  pcl_error *err = NULL;
  static const char text[] = "{\"a\": {\"secret\": 1152921504606846977}, \"b\": 1152921504606846979}";
  m = pcl_json_decode(text, strlen(text), PCL_JSON_SNAPSHOT, &err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  for (int secrets = 0; secrets < 2; secrets++) {
    enc = (pcl__rpc_enc){.secrets = secrets != 0};
    Google__Protobuf__Struct *st = pcl__rpc_struct_new(m, &enc);
    CU_ASSERT_PTR_NOT_NULL(st);
    CU_ASSERT_EQUAL(enc.rounded, 2);
    CU_ASSERT_STRING_EQUAL(enc.first_rounded, "[secret]");
    protobuf_c_message_free_unpacked(&st->base, NULL);
    pcl__rpc_enc_clear(&enc);
  }
  enc = (pcl__rpc_enc){.secrets = true};
  pcl_value *one = pcl_map_get_cstr(m, "a");
  Google__Protobuf__Value *ov = pcl__rpc_output_value_new(one, NULL, &enc);
  CU_ASSERT_PTR_NOT_NULL(ov);
  CU_ASSERT_STRING_EQUAL(enc.first_rounded, "[secret]");
  protobuf_c_message_free_unpacked(&ov->base, NULL);
  pcl__rpc_enc_clear(&enc);
  CU_ASSERT_FALSE(pcl__redacting());
  pcl_release(m);
}

static void test_encode_errors(void) {
  /* Without byte strings, a string that is not UTF-8 is refused, and the
   * message names the property path where it was met. */
  pcl_value *raw = pcl_str_from_bytes("a\xff", 2);
  pcl_value *list = pcl_list_new(2);
  pcl_list_init_take(list, 0, pcl_int_new(1));
  pcl_list_init_take(list, 1, pcl_retain(raw));
  pcl_mapbuf tb = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_cstr(&tb, "a.b", list);
  pcl_mapbuf mb = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_cstr(&mb, "tags", pcl_mapbuf_finish(&tb));
  pcl_value *m = pcl_mapbuf_finish(&mb);
  pcl__rpc_enc enc = {.secrets = true, .resources = true};
  size_t len;
  CU_ASSERT_PTR_NULL(pcl__rpc_struct_pack(m, &enc, &len));
  CU_ASSERT_PTR_NOT_NULL_FATAL(enc.err);
  CU_ASSERT_STRING_EQUAL(pcl_error_message(enc.err),
                         "property tags[\"a.b\"][1]: a string that is not UTF-8 travels to the "
                         "engine only as a byte string, which this engine does not take; update "
                         "the Pulumi CLI");
  CU_ASSERT_PTR_NULL(enc.where);
  pcl__rpc_enc_clear(&enc);
  pcl_release(m);

  /* A value of its own, and inside an output value and a secret. */
  pcl_value *sec = pcl_secret_new(raw);
  Google__Protobuf__Value *v = pcl__rpc_value_new(sec, &enc);
  CU_ASSERT_PTR_NULL(v);
  CU_ASSERT(enc.err && strncmp(pcl_error_message(enc.err), "a string that is not UTF-8", 26) == 0);
  pcl__rpc_enc_clear(&enc);
  pcl_deps *d = pcl_deps_one("urn:a");
  pcl_mapbuf ob = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_cstr(&ob, "dep", pcl_retain(raw));
  m = pcl_mapbuf_finish(&ob);
  pcl_deps *deps[] = {d};
  CU_ASSERT_PTR_NULL(pcl__rpc_output_struct_new(m, deps, &enc));
  CU_ASSERT(enc.err && strncmp(pcl_error_message(enc.err), "property dep: a string", 22) == 0);
  pcl__rpc_enc_clear(&enc);
  pcl_release(m);
  pcl_deps_release(d);

  /* A map key has no byte-string form, with byte strings or without. */
  pcl_mapbuf kb = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_take(&kb, pcl_retain(raw), pcl_int_new(1));
  pcl_mapbuf nb = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_cstr(&nb, "outer", pcl_mapbuf_finish(&kb));
  m = pcl_mapbuf_finish(&nb);
  enc.byte_strings = true;
  CU_ASSERT_PTR_NULL(pcl__rpc_struct_pack(m, &enc, &len));
  CU_ASSERT_PTR_NOT_NULL_FATAL(enc.err);
  CU_ASSERT_STRING_EQUAL(pcl_error_message(enc.err),
                         "property outer: the engine protocol cannot carry a map key that is not "
                         "UTF-8");
  pcl__rpc_enc_clear(&enc);
  pcl_release(m);
  pcl_release(sec);
  pcl_release(raw);
}

/* The conformance suite's bytes (l2-raw-string-bytes): NUL, "hello ",
 * three bytes that are never UTF-8, " world" and a cut sequence. */
static const char raw_bytes[] = "\0hello \x80\xfe\xff world\xf0\x28";
#define RAW_BASE64 "AGhlbGxvIID+/yB3b3JsZPAo"

static void test_byte_strings(void) {
  pcl_value *raw = pcl_str_from_bytes(raw_bytes, sizeof raw_bytes - 1);
  CU_ASSERT_EQUAL_FATAL(pcl_str_len(raw), 18);
  pcl__rpc_enc enc = {.secrets = true, .resources = true, .byte_strings = true};

  /* The wire form: {sig: bytes, value: standard padded base64}. */
  Google__Protobuf__Value *v = pcl__rpc_value_new(raw, &enc);
  CU_ASSERT_PTR_NOT_NULL_FATAL(v);
  CU_ASSERT(sig_object(v, PCL__SIG_BYTES, 2, "value", RAW_BASE64));
  pcl_error *err = NULL;
  pcl_value *back = pcl__rpc_value_get(v, &err);
  CU_ASSERT(back && pcl_equal(back, raw));
  pcl_release(back);
  protobuf_c_message_free_unpacked(&v->base, NULL);

  /* A secret holds the byte string: {sig: secret, value: {sig: bytes, ...}}. */
  pcl_value *sec = pcl_secret_new(raw);
  v = pcl__rpc_value_new(sec, &enc);
  CU_ASSERT_PTR_NOT_NULL_FATAL(v);
  CU_ASSERT_FATAL(sig_object(v, PCL__SIG_SECRET, 2, "value", NULL));
  CU_ASSERT(sig_object(v->struct_value->fields[1]->value, PCL__SIG_BYTES, 2, "value", RAW_BASE64));
  back = pcl__rpc_value_get(v, &err);
  CU_ASSERT(back && pcl_kind_of(back) == PCL_T_SECRET && pcl_equal(back, sec));
  pcl_release(back);
  protobuf_c_message_free_unpacked(&v->base, NULL);

  /* So does an output value, secret or not. */
  pcl_deps *d = pcl_deps_one("urn:a");
  v = pcl__rpc_output_value_new(sec, d, &enc);
  CU_ASSERT_PTR_NOT_NULL_FATAL(v);
  CU_ASSERT_FATAL(sig_object(v, PCL__SIG_OUTPUT, 4, "value", NULL));
  CU_ASSERT(sig_object(v->struct_value->fields[1]->value, PCL__SIG_BYTES, 2, "value", RAW_BASE64));
  back = pcl__rpc_value_get(v, &err);
  CU_ASSERT(back && pcl_kind_of(back) == PCL_T_SECRET && pcl_equal(back, sec));
  pcl_release(back);
  protobuf_c_message_free_unpacked(&v->base, NULL);
  pcl_deps_release(d);

  /* Round trips: the bytes, a string with NUL that is UTF-8 (and stays a
   * plain string), the empty string, in lists and secrets. */
  pcl_value *list = pcl_list_new(2);
  pcl_list_init_take(list, 0, pcl_retain(raw));
  pcl_list_init_take(list, 1, pcl_str_new_lossy("a\0b", 3));
  pcl_mapbuf mb = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_cstr(&mb, "raw", pcl_retain(raw));
  pcl_mapbuf_put_cstr(&mb, "secret", pcl_retain(sec));
  pcl_mapbuf_put_cstr(&mb, "list", list);
  pcl_mapbuf_put_cstr(&mb, "empty", pcl_str_new_lossy("", 0));
  /* The members of signature objects too (found by fuzz_rpc). */
  pcl_mapbuf_put_cstr(&mb, "asset", pcl_asset_new(PCL_ASSET_STRING, raw));
  pcl_mapbuf_put_cstr(&mb, "ref", pcl_resource_new(raw, raw, NULL));
  pcl_value *m = pcl_mapbuf_finish(&mb);
  back = round_trip(m, &enc);
  CU_ASSERT_PTR_NULL(enc.err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(back);
  CU_ASSERT(pcl_equal(back, m));
  CU_ASSERT_EQUAL(pcl_kind_of(pcl_map_get_cstr(back, "secret")), PCL_T_SECRET);
  pcl_release(back);
  Google__Protobuf__Struct *st = pcl__rpc_struct_new(m, &enc);
  CU_ASSERT_PTR_NOT_NULL_FATAL(st);
  /* Members in key order: asset, empty, list, raw, ref, secret. */
  Google__Protobuf__Value *nul = st->fields[2]->value->list_value->values[1];
  CU_ASSERT_EQUAL(nul->kind_case, GOOGLE__PROTOBUF__VALUE__KIND_STRING_VALUE);
  CU_ASSERT(nul->string_value.len == 3 && memcmp(nul->string_value.data, "a\0b", 3) == 0);
  CU_ASSERT_EQUAL(st->fields[1]->value->kind_case, GOOGLE__PROTOBUF__VALUE__KIND_STRING_VALUE);
  CU_ASSERT(sig_object(st->fields[0]->value->struct_value->fields[1]->value, PCL__SIG_BYTES, 2,
                       "value", RAW_BASE64));
  protobuf_c_message_free_unpacked(&st->base, NULL);
  pcl_release(m);

  /* Decoding: a byte string of UTF-8 bytes is that string, the empty one
   * the empty string, and base64 is read as Go reads it (line breaks
   * skipped). */
  pcl_value *w = json("{\"u\": {\"4dabf18193072939515e22adb298388d\": "
                      "\"803fd3297a5875dc03ca845dda5d2a98\", \"value\": \"aMOp\"},"
                      " \"e\": {\"4dabf18193072939515e22adb298388d\": "
                      "\"803fd3297a5875dc03ca845dda5d2a98\", \"value\": \"\"},"
                      " \"n\": {\"4dabf18193072939515e22adb298388d\": "
                      "\"803fd3297a5875dc03ca845dda5d2a98\", \"value\": \"AGhl\\nbGxv\"}}");
  size_t len = 0;
  uint8_t *bytes = pcl__rpc_struct_pack(w, &enc, &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(bytes);
  back = pcl__rpc_struct_unpack(bytes, len, &err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(back);
  CU_ASSERT(pcl_str_eq_cstr(pcl_map_get_cstr(back, "u"), "h\xc3\xa9"));
  CU_ASSERT(pcl_str_eq_cstr(pcl_map_get_cstr(back, "e"), ""));
  pcl_value *hello = pcl_map_get_cstr(back, "n");
  CU_ASSERT(pcl_str_len(hello) == 6 && memcmp(pcl_str_data(hello), "\0hello", 6) == 0);
  pcl_release(back);
  free(bytes);
  pcl_release(w);
  pcl__rpc_enc_clear(&enc);
  pcl_release(sec);
  pcl_release(raw);
}

/* Decodes the packed Struct and returns the error message (owned) or NULL. */
static char *unpack_error(const uint8_t *data, size_t len) {
  pcl_error *err = NULL;
  pcl_value *v = pcl__rpc_struct_unpack(data, len, &err);
  pcl_release(v);
  char *msg = err ? pcl_xstrdup(pcl_error_message(err)) : NULL;
  pcl_error_free(err);
  return msg;
}

static void test_decode_errors(void) {
  static const uint8_t truncated[] = {0x0a, 0x07, 0x0a, 0x01};
  char *msg = unpack_error(truncated, sizeof truncated);
  CU_ASSERT(msg && strcmp(msg, "the google.protobuf.Struct does not decode (4 bytes)") == 0);
  free(msg);

  /* {"s": {sig: "nope"}}: a signature nobody knows. */
  pcl_value *m = json("{\"s\": {\"4dabf18193072939515e22adb298388d\": \"nope\"}}");
  pcl__rpc_enc enc = {0};
  size_t len;
  uint8_t *bytes = pcl__rpc_struct_pack(m, &enc, &len);
  msg = unpack_error(bytes, len);
  CU_ASSERT(msg && strcmp(msg, "unrecognized signature 'nope' in a property value") == 0);
  free(msg);
  free(bytes);
  pcl_release(m);

  /* Malformed byte strings: no "value", one that is not a string, text
   * that is not base64, and base64 without its padding. */
  static const struct {
    const char *json;
    const char *msg;
  } bad_bytes[] = {
      {"{}", "malformed byte string: no string \"value\""},
      {"{\"value\": 5}", "malformed byte string: no string \"value\""},
      {"{\"value\": \"@@@@\"}",
       "malformed byte string: \"value\" is not base64 (illegal data at byte 0)"},
      {"{\"value\": \"AGk\"}",
       "malformed byte string: \"value\" is not base64 (illegal data at byte 0)"},
  };
  for (size_t i = 0; i < sizeof bad_bytes / sizeof bad_bytes[0]; i++) {
    pcl_strbuf t = PCL_STRBUF_INIT;
    pcl_strbuf_appendf(&t, "{\"b\": %s}", bad_bytes[i].json);
    pcl_value *o = json(t.data);
    pcl_value *inner = pcl_map_get_cstr(o, "b");
    pcl_mapbuf ib = PCL_MAPBUF_INIT;
    pcl_mapbuf_put_cstr(&ib, PCL__SIG_KEY, pcl_str_from_cstr(PCL__SIG_BYTES));
    for (size_t k = 0; k < pcl_len(inner); k++) {
      pcl_mapbuf_put_take(&ib, pcl_retain(pcl_map_key_at(inner, k)),
                          pcl_retain(pcl_map_val_at(inner, k)));
    }
    pcl_mapbuf ob = PCL_MAPBUF_INIT;
    pcl_mapbuf_put_cstr(&ob, "b", pcl_mapbuf_finish(&ib));
    pcl_value *outer = pcl_mapbuf_finish(&ob);
    bytes = pcl__rpc_struct_pack(outer, &enc, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(bytes);
    msg = unpack_error(bytes, len);
    CU_ASSERT_PTR_NOT_NULL(msg);
    if (msg && strcmp(msg, bad_bytes[i].msg) != 0) {
      fprintf(stderr, "\n%s: got %s\n", bad_bytes[i].json, msg);
      CU_FAIL("the message of a malformed byte string");
    }
    if (i == 0) {
      /* In an answer, the message names the answer too. */
      uint8_t *resp = pcl_xmalloc(len + 8);
      size_t rn = 0;
      resp[rn++] = 0x1a; /* RegisterResourceResponse.object (3). */
      resp[rn++] = (uint8_t)len;
      memcpy(resp + rn, bytes, len);
      rn += len;
      pcl__rpc_answer ans;
      pcl_error *err = NULL;
      CU_ASSERT_FALSE(pcl__rpc_answer_decode(PCL__RPC_REGISTER, resp, rn, &ans, &err));
      CU_ASSERT(err && strcmp(pcl_error_message(err),
                              "the pulumirpc.RegisterResourceResponse answer to "
                              "/pulumirpc.ResourceMonitor/RegisterResource: malformed byte "
                              "string: no string \"value\"") == 0);
      pcl_error_free(err);
      free(resp);
    }
    free(msg);
    free(bytes);
    pcl_release(outer);
    pcl_release(o);
    pcl_strbuf_free(&t);
  }

  /* A list nested 2000 deep: refused before protobuf-c unpacks it. */
  enum { DEPTH = 2000 };
  uint8_t *deep = pcl_xmalloc(DEPTH * 8 + 16);
  size_t n = 0;
  /* Built from the inside out: Value{list_value: ListValue{values: [..]}}. */
  uint8_t inner[] = {0x08, 0x00}; /* Value{null_value: 0}. */
  memcpy(deep, inner, sizeof inner);
  n = sizeof inner;
  for (int i = 0; i < DEPTH; i++) {
    /* ListValue.values (1), then Value.list_value (6): two length prefixes. */
    uint8_t hdr[12];
    size_t h = 0, l1 = n;
    size_t l2;
    uint8_t tmp[6];
    size_t t = 0;
    tmp[t++] = 0x0a;
    for (size_t x = l1;; x >>= 7) {
      tmp[t++] = (uint8_t)((x & 0x7f) | (x > 0x7f ? 0x80 : 0));
      if (x <= 0x7f) {
        break;
      }
    }
    l2 = n + t;
    hdr[h++] = 0x32;
    for (size_t x = l2;; x >>= 7) {
      hdr[h++] = (uint8_t)((x & 0x7f) | (x > 0x7f ? 0x80 : 0));
      if (x <= 0x7f) {
        break;
      }
    }
    deep = pcl_xrealloc(deep, n + h + t);
    memmove(deep + h + t, deep, n);
    memcpy(deep, hdr, h);
    memcpy(deep + h, tmp, t);
    n += h + t;
  }
  /* Struct{fields: {key "k", value: deep}}. */
  pcl__rpc_answer a;
  pcl_error *err = NULL;
  uint8_t *wrapped = pcl_xmalloc(n + 32);
  size_t w = 0;
  size_t entry = 3 + 1 + 3 + n; /* key, value tag and length (3 bytes), value. */
  wrapped[w++] = 0x0a;
  wrapped[w++] = (uint8_t)(0x80 | (entry & 0x7f));
  wrapped[w++] = (uint8_t)(0x80 | ((entry >> 7) & 0x7f));
  wrapped[w++] = (uint8_t)(entry >> 14);
  wrapped[w++] = 0x0a;
  wrapped[w++] = 0x01;
  wrapped[w++] = 'k';
  wrapped[w++] = 0x12;
  wrapped[w++] = (uint8_t)(0x80 | (n & 0x7f));
  wrapped[w++] = (uint8_t)(0x80 | ((n >> 7) & 0x7f));
  wrapped[w++] = (uint8_t)(n >> 14);
  memcpy(wrapped + w, deep, n);
  w += n;
  msg = unpack_error(wrapped, w);
  CU_ASSERT(msg && strstr(msg, "nests deeper than") != NULL);
  free(msg);
  /* The same Struct as an invoke's return value. */
  uint8_t *inv = pcl_xmalloc(w + 8);
  size_t iv = 0;
  inv[iv++] = 0x0a;
  inv[iv++] = (uint8_t)(0x80 | (w & 0x7f));
  inv[iv++] = (uint8_t)(0x80 | ((w >> 7) & 0x7f));
  inv[iv++] = (uint8_t)(w >> 14);
  memcpy(inv + iv, wrapped, w);
  iv += w;
  CU_ASSERT_FALSE(pcl__rpc_answer_decode(PCL__RPC_INVOKE, inv, iv, &a, &err));
  CU_ASSERT(err && strstr(pcl_error_message(err),
                          "pulumirpc.ResourceInvokeResponse nests deeper") != NULL);
  pcl_error_free(err);
  free(inv);
  free(wrapped);
  free(deep);
}

static void test_answers(void) {
  /* RegisterResourceResponse{urn: "u", id: "i", object: {"a": true}, result: FAIL}. */
  static const uint8_t reg[] = {0x0a, 0x01, 'u', 0x12, 0x01, 'i',  0x1a, 0x09, 0x0a, 0x07,
                                0x0a, 0x01, 'a', 0x12, 0x02, 0x20, 0x01, 0x38, 0x01};
  pcl__rpc_answer a;
  pcl_error *err = NULL;
  CU_ASSERT_FATAL(pcl__rpc_answer_decode(PCL__RPC_REGISTER, reg, sizeof reg, &a, &err));
  CU_ASSERT_STRING_EQUAL(a.urn, "u");
  CU_ASSERT_STRING_EQUAL(a.id, "i");
  CU_ASSERT(a.failed);
  CU_ASSERT(pcl_map_get_cstr(a.value, "a") == pcl_bool(true));
  pcl__rpc_answer_free(&a);

  /* RegisterResourceResponse{urn: "u", propertyDependencies: {"value": {urns:
   * ["urn:c"]}}}: what each output depends on (a remote component's on its
   * children). */
  static const uint8_t deps[] = {0x0a, 0x01, 'u',  0x32, 0x10, 0x0a, 0x05, 'v', 'a', 'l', 'u',
                                 'e',  0x12, 0x07, 0x0a, 0x05, 'u',  'r',  'n', ':', 'c'};
  CU_ASSERT_FATAL(pcl__rpc_answer_decode(PCL__RPC_REGISTER, deps, sizeof deps, &a, &err));
  CU_ASSERT_FATAL(a.output_deps != NULL && pcl_len(a.output_deps) == 1);
  pcl_value *vd = pcl_map_get_cstr(a.output_deps, "value");
  CU_ASSERT_FATAL(vd != NULL && pcl_kind_of(vd) == PCL_T_LIST && pcl_len(vd) == 1);
  CU_ASSERT(pcl_str_eq_cstr(pcl_list_at(vd, 0), "urn:c"));
  pcl__rpc_answer_free(&a);
  CU_ASSERT_FATAL(pcl__rpc_answer_decode(PCL__RPC_REGISTER, reg, sizeof reg, &a, &err));
  CU_ASSERT_PTR_NULL(a.output_deps);
  pcl__rpc_answer_free(&a);

  /* InvokeResponse{failures: [{property: "p", reason: "bad"}]}. */
  static const uint8_t inv[] = {0x12, 0x08, 0x0a, 0x01, 'p', 0x12, 0x03, 'b', 'a', 'd'};
  CU_ASSERT_FATAL(pcl__rpc_answer_decode(PCL__RPC_INVOKE, inv, sizeof inv, &a, &err));
  CU_ASSERT_STRING_EQUAL(a.failures, "p: bad");
  CU_ASSERT_EQUAL(pcl_len(a.value), 0);
  pcl__rpc_answer_free(&a);

  /* DeploymentInfo{supportedFeatures: [0, 1, 2]} (packed). */
  static const uint8_t di[] = {0x42, 0x03, 0x00, 0x01, 0x02};
  CU_ASSERT_FATAL(pcl__rpc_answer_decode(PCL__RPC_DEPLOYMENT_INFO, di, sizeof di, &a, &err));
  CU_ASSERT_EQUAL(a.features, 7u);
  pcl__rpc_answer_free(&a);

  /* A registration or read answered without a URN is refused (every later
   * request names the resource by it); a failed step may have none. */
  static const uint8_t no_urn[] = {0x12, 0x01, 'i'};
  CU_ASSERT_FALSE(pcl__rpc_answer_decode(PCL__RPC_REGISTER, no_urn, sizeof no_urn, &a, &err));
  CU_ASSERT(err && strcmp(pcl_error_message(err),
                          "the pulumirpc.RegisterResourceResponse answer to "
                          "/pulumirpc.ResourceMonitor/RegisterResource: the URN is empty") == 0);
  pcl_error_free(err);
  err = NULL;
  CU_ASSERT_FALSE(pcl__rpc_answer_decode(PCL__RPC_READ, NULL, 0, &a, &err));
  CU_ASSERT(err && strstr(pcl_error_message(err), ": the URN is empty") != NULL);
  pcl_error_free(err);
  err = NULL;
  static const uint8_t failed_no_urn[] = {0x38, 0x01};
  CU_ASSERT_FATAL(
      pcl__rpc_answer_decode(PCL__RPC_REGISTER, failed_no_urn, sizeof failed_no_urn, &a, &err));
  CU_ASSERT(a.failed);
  pcl__rpc_answer_free(&a);
  /* A resource reference in an answer names its resource by a URN too. */
  pcl_mapbuf rb = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_cstr(&rb, PCL__SIG_KEY, pcl_str_from_cstr(PCL__SIG_RESOURCE));
  pcl_mapbuf_put_cstr(&rb, "urn", pcl_str_from_cstr(""));
  pcl_mapbuf ob = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_cstr(&ob, "r", pcl_mapbuf_finish(&rb));
  pcl_value *obj = pcl_mapbuf_finish(&ob);
  pcl__rpc_enc enc = {.secrets = true, .resources = true};
  size_t len = 0;
  uint8_t *bytes = pcl__rpc_struct_pack(obj, &enc, &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(bytes);
  char *msg = unpack_error(bytes, len);
  CU_ASSERT(msg && strstr(msg, "malformed resource reference: the \"urn\" is empty") != NULL);
  free(msg);
  free(bytes);
  pcl_release(obj);
  pcl__rpc_enc_clear(&enc);

  /* A number that is NaN cannot become a PCL value. */
  static const uint8_t nan[] = {0x1a, 0x10, 0x0a, 0x0e, 0x0a, 0x01, 'x',  0x12, 0x09,
                                0x11, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf8, 0x7f};
  CU_ASSERT_FALSE(pcl__rpc_answer_decode(PCL__RPC_REGISTER, nan, sizeof nan, &a, &err));
  CU_ASSERT_PTR_NOT_NULL_FATAL(err);
  CU_ASSERT_PTR_NOT_NULL(strstr(pcl_error_message(err), "is NaN"));
  pcl_error_free(err);
}

/* Returns an EVENTUAL of a future resolved with v (stolen; NULL when
 * unknown), bits and the dependency urn (NULL: none). */
static pcl_value *settled(pcl_value *v, unsigned bits, const char *urn) {
  pcl_future *f = pcl_future_new(PCL_OUTPUT, NULL);
  pcl_deps *d = urn ? pcl_deps_one(urn) : NULL;
  pcl_future_resolve(f, v, bits, d);
  pcl_deps_release(d);
  pcl_release(v);
  pcl_value *e = pcl_future_to_value(f);
  pcl_future_release(f);
  return e;
}

/* Returns the answer bytes {field 1: the packed Struct of m} (an invoke's or
 * call's return; its length in *len) and the Struct's offset in *at
 * (owned). */
static uint8_t *return_answer(const pcl_value *m, size_t *len, size_t *at) {
  pcl__rpc_enc enc = {.secrets = true, .resources = true};
  size_t n = 0;
  uint8_t *st = pcl__rpc_struct_pack(m, &enc, &n);
  CU_ASSERT_PTR_NOT_NULL_FATAL(st);
  CU_ASSERT_FATAL(n < 16384);
  uint8_t *out = pcl_xmalloc(n + 3);
  size_t h = 0;
  out[h++] = 0x0a;
  if (n >= 128) {
    out[h++] = (uint8_t)(0x80 | (n & 0x7f));
    out[h++] = (uint8_t)(n >> 7);
  } else {
    out[h++] = (uint8_t)n;
  }
  memcpy(out + h, st, n);
  free(st);
  pcl__rpc_enc_clear(&enc);
  *len = n + h;
  *at = h;
  return out;
}

/* An invoke's or call's arguments for an engine that takes output values
 * inside them: every settled future, at any depth, is an output value with
 * its own dependencies; in an invoke's or call's answer such a value comes
 * back as a settled future carrying them, elsewhere as its value. */
static void test_per_value_outputs(void) {
  pcl_mapbuf nb = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_cstr(&nb, "b", settled(pcl_str_from_cstr("y"), PCL_FUT_SECRET, "urn:b"));
  pcl_mapbuf_put_cstr(&nb, "c", settled(NULL, PCL_FUT_UNKNOWN, NULL));
  pcl_mapbuf mb = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_cstr(&mb, "a", settled(pcl_str_from_cstr("x"), 0, "urn:a"));
  pcl_mapbuf_put_cstr(&mb, "nested", pcl_mapbuf_finish(&nb));
  pcl_mapbuf_put_cstr(&mb, "plain", pcl_str_from_cstr("p"));
  pcl_value *m = pcl_mapbuf_finish(&mb);
  pcl__rpc_enc enc = {.secrets = true, .resources = true};
  Google__Protobuf__Struct *st = pcl__rpc_struct_new(m, &enc);
  CU_ASSERT_PTR_NOT_NULL_FATAL(st);
  CU_ASSERT_EQUAL_FATAL(st->n_fields, 3);
  Google__Protobuf__Value *a = st->fields[0]->value;
  CU_ASSERT_FATAL(sig_object(a, PCL__SIG_OUTPUT, 3, "value", "x"));
  CU_ASSERT(bytes_are(a->struct_value->fields[2]->key, "dependencies"));
  CU_ASSERT(bytes_are(a->struct_value->fields[2]->value->list_value->values[0]->string_value,
                      "urn:a"));
  Google__Protobuf__Struct *nested = st->fields[1]->value->struct_value;
  CU_ASSERT_FATAL(nested != NULL && nested->n_fields == 2);
  Google__Protobuf__Value *b = nested->fields[0]->value;
  CU_ASSERT_FATAL(sig_object(b, PCL__SIG_OUTPUT, 4, "value", "y"));
  CU_ASSERT(bytes_are(b->struct_value->fields[2]->key, "secret"));
  CU_ASSERT(bytes_are(b->struct_value->fields[3]->key, "dependencies"));
  /* An unknown output without dependencies: the signature only. */
  CU_ASSERT(sig_object(nested->fields[1]->value, PCL__SIG_OUTPUT, 1, NULL, NULL));
  CU_ASSERT(st->fields[2]->value->kind_case == GOOGLE__PROTOBUF__VALUE__KIND_STRING_VALUE);
  protobuf_c_message_free_unpacked(&st->base, NULL);

  /* Back in an invoke's answer: futures with the dependencies. */
  size_t len = 0;
  size_t at = 0;
  uint8_t *bytes = return_answer(m, &len, &at);
  pcl__rpc_answer ans;
  pcl_error *err = NULL;
  CU_ASSERT_FATAL(pcl__rpc_answer_decode(PCL__RPC_INVOKE, bytes, len, &ans, &err));
  pcl_future *fa = pcl_value_future(pcl_map_get_cstr(ans.value, "a"));
  CU_ASSERT_FATAL(fa != NULL && pcl_future_state_of(fa) == PCL_FUTURE_RESOLVED);
  CU_ASSERT(pcl_str_eq_cstr(pcl_future_value(fa), "x"));
  CU_ASSERT(pcl_future_bits(fa) == 0);
  CU_ASSERT(pcl_deps_count(pcl_future_deps(fa)) == 1 && pcl_deps_has(pcl_future_deps(fa), "urn:a"));
  pcl_value *nb_back = pcl_map_get_cstr(ans.value, "nested");
  pcl_future *fb = pcl_value_future(pcl_map_get_cstr(nb_back, "b"));
  CU_ASSERT_FATAL(fb != NULL);
  CU_ASSERT(pcl_future_bits(fb) == PCL_FUT_SECRET && pcl_str_eq_cstr(pcl_future_value(fb), "y"));
  CU_ASSERT(pcl_deps_has(pcl_future_deps(fb), "urn:b"));
  /* Without dependencies there is nothing to keep: the unknown value. */
  CU_ASSERT(pcl_kind_of(pcl_map_get_cstr(nb_back, "c")) == PCL_T_UNKNOWN);
  pcl__rpc_answer_free(&ans);
  CU_ASSERT_FATAL(pcl__rpc_answer_decode(PCL__RPC_CALL, bytes, len, &ans, &err));
  CU_ASSERT(pcl_kind_of(pcl_map_get_cstr(ans.value, "a")) == PCL_T_EVENTUAL);
  pcl__rpc_answer_free(&ans);
  /* A registration's answer keeps the values only (the engine sends no
   * output values there). */
  pcl_value *plain = pcl__rpc_struct_unpack(bytes + at, len - at, &err);
  CU_ASSERT_FATAL(plain != NULL);
  CU_ASSERT(pcl_str_eq_cstr(pcl_map_get_cstr(plain, "a"), "x"));
  pcl_release(plain);
  free(bytes);

  /* Dependencies that are not a list of URNs do not decode. */
  pcl_mapbuf ob = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_cstr(&ob, PCL__SIG_KEY, pcl_str_from_cstr(PCL__SIG_OUTPUT));
  pcl_mapbuf_put_cstr(&ob, "dependencies", pcl_str_from_cstr("urn:a"));
  pcl_mapbuf bad = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_cstr(&bad, "o", pcl_mapbuf_finish(&ob));
  pcl_value *badm = pcl_mapbuf_finish(&bad);
  bytes = return_answer(badm, &len, &at);
  CU_ASSERT_FALSE(pcl__rpc_answer_decode(PCL__RPC_INVOKE, bytes, len, &ans, &err));
  CU_ASSERT(err && strstr(pcl_error_message(err),
                          "malformed output value: \"dependencies\" is not a list") != NULL);
  pcl_error_free(err);
  err = NULL;
  free(bytes);
  pcl_release(badm);

  /* A future not settled yet cannot be sent. */
  pcl_future *pending = pcl_future_new(PCL_OUTPUT, NULL);
  pcl_mapbuf pb = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_cstr(&pb, "p", pcl_future_to_value(pending));
  pcl_value *pm = pcl_mapbuf_finish(&pb);
  CU_ASSERT_PTR_NULL(pcl__rpc_struct_new(pm, &enc));
  CU_ASSERT(enc.err && strstr(pcl_error_message(enc.err), "not settled yet") != NULL);
  pcl__rpc_enc_clear(&enc);
  pcl_release(pm);
  pcl_future_resolve(pending, NULL, 0, NULL);
  pcl_future_release(pending);
  pcl_release(m);
}

/* The args of a hook call from its packed request: a resource hook's
 * ResourceHookRequest, an error hook's ErrorHookRequest (whose field 7 is
 * the old outputs, and which has no new outputs). */
static void test_hook_args(void) {
  /* {urn: "u", id: "i", name: "n", type: "t", 5: {"a": true}, 7: {"a": true}}. */
  static const uint8_t req[] = {0x0a, 0x01, 'u',  0x12, 0x01, 'i',  0x1a, 0x01, 'n',  0x22,
                                0x01, 't',  0x2a, 0x09, 0x0a, 0x07, 0x0a, 0x01, 'a',  0x12,
                                0x02, 0x20, 0x01, 0x3a, 0x09, 0x0a, 0x07, 0x0a, 0x01, 'a',
                                0x12, 0x02, 0x20, 0x01};
  pcl_error *err = NULL;
  pcl_value *args = pcl__rpc_hook_args(req, sizeof req, false, &err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(args);
  CU_ASSERT_EQUAL(pcl_len(args), 8);
  CU_ASSERT(pcl_str_eq_cstr(pcl_map_get_cstr(args, "urn"), "u"));
  CU_ASSERT(pcl_str_eq_cstr(pcl_map_get_cstr(args, "id"), "i"));
  CU_ASSERT(pcl_str_eq_cstr(pcl_map_get_cstr(args, "name"), "n"));
  CU_ASSERT(pcl_str_eq_cstr(pcl_map_get_cstr(args, "type"), "t"));
  CU_ASSERT(pcl_map_get_cstr(pcl_map_get_cstr(args, "newInputs"), "a") == pcl_bool(true));
  CU_ASSERT(pcl_map_get_cstr(pcl_map_get_cstr(args, "newOutputs"), "a") == pcl_bool(true));
  CU_ASSERT_EQUAL(pcl_len(pcl_map_get_cstr(args, "oldInputs")), 0);
  CU_ASSERT_EQUAL(pcl_len(pcl_map_get_cstr(args, "oldOutputs")), 0);
  pcl_release(args);

  args = pcl__rpc_hook_args(req, sizeof req, true, &err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(args);
  CU_ASSERT_EQUAL(pcl_len(args), 7);
  CU_ASSERT_PTR_NULL(pcl_map_get_cstr(args, "newOutputs"));
  CU_ASSERT(pcl_map_get_cstr(pcl_map_get_cstr(args, "oldOutputs"), "a") == pcl_bool(true));
  pcl_release(args);

  /* A secret reaches args as its plain value. */
  pcl_value *secret = json("{\"s\": {\"4dabf18193072939515e22adb298388d\": "
                           "\"1b47061264138c4ac30d75fd1eb44270\", \"value\": \"pw\"}}");
  pcl__rpc_enc enc = {.secrets = true, .resources = true};
  size_t len = 0;
  uint8_t *st = pcl__rpc_struct_pack(secret, &enc, &len);
  CU_ASSERT_FATAL(st != NULL && len < 120);
  uint8_t with[128] = {0x2a, (uint8_t)len};
  memcpy(with + 2, st, len);
  free(st);
  args = pcl__rpc_hook_args(with, len + 2, false, &err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(args);
  CU_ASSERT(pcl_str_eq_cstr(pcl_map_get_cstr(pcl_map_get_cstr(args, "newInputs"), "s"), "pw"));
  pcl_release(args);
  pcl_release(secret);

  /* A request cut short does not decode. */
  CU_ASSERT_PTR_NULL(pcl__rpc_hook_args(req, 16, false, &err));
  CU_ASSERT(err && strstr(pcl_error_message(err), "pulumirpc.ResourceHookRequest") != NULL);
  pcl_error_free(err);
}

void register_rpc_tests(void);
void register_rpc_tests(void) {
  CU_pSuite s = CU_add_suite("rpc", NULL, NULL);
  CU_add_test(s, "a Struct's packed bytes", test_known_bytes);
  CU_add_test(s, "round trips of every kind", test_round_trip);
  CU_add_test(s, "output values", test_output_values);
  CU_add_test(s, "ints a double cannot hold", test_rounding);
  CU_add_test(s, "values the protocol cannot carry", test_encode_errors);
  CU_add_test(s, "byte strings", test_byte_strings);
  CU_add_test(s, "remote component inputs and call arguments", test_output_struct);
  CU_add_test(s, "answers that do not decode", test_decode_errors);
  CU_add_test(s, "answers to each call", test_answers);
  CU_add_test(s, "outputs inside invoke and call arguments and answers", test_per_value_outputs);
  CU_add_test(s, "the args of a hook call", test_hook_args);
}
