/* rpc_value.c: property values in Pulumi's engine protocol, and the
 * decoding of the engine's answers (docs/engine.md).
 *
 * Takes runtime values and produces google.protobuf.Value messages, and
 * back.  Values JSON has no kind for travel as objects whose
 * PCL__SIG_KEY member names what they are: secrets, resource references,
 * output values, assets, archives and byte strings (a string that is not
 * UTF-8, which a protobuf string cannot hold, as the base64 of its bytes);
 * an unknown value is the unknown sentinel string.  What the monitor does
 * not accept is lowered as the SDKs lower it (a secret to its value, a
 * resource reference to its id); a string that is not UTF-8 for a monitor
 * without byte strings is refused, never sent corrupted.  An encoding error
 * names the property path where it was met.  An int travels as a double:
 * one that a double cannot hold is rounded to the nearest and counted, so
 * that the backend warns (DECISIONS.md D3); on the way back an integral
 * double of at most 2^53 in magnitude becomes an int again, which is what
 * it was when the program sent it.
 *
 * Messages built here are allocated with malloc throughout, so that
 * protobuf_c_message_free_unpacked frees them like unpacked ones.  Decoding
 * refuses nesting deeper than MAX_DEPTH before protobuf-c unpacks (its
 * unpacking recurses without a bound), and every malformed answer is an
 * error, never a crash. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "value/pcl_internal.h"
#include "engine/rpc.h"

/* The deepest message nesting an answer may have: a value nests three
 * messages deep per level (Value, Struct, map entry), so this admits values
 * 1000 levels deep (protobuf-go, the engine's, stops at 10000 messages). */
#define MAX_DEPTH 3000

static const char *const paths[] = {
#define PCL__RPC_PATH(name, service, method) "/pulumirpc." service "/" method,
    PCL__RPC_METHODS(PCL__RPC_PATH)
#undef PCL__RPC_PATH
};

const char *pcl__rpc_path(pcl__rpc_method m) {
  /* PCL__RPC_NMETHODS counts the methods and names none. */
  return m < PCL__RPC_NMETHODS ? paths[m] : "";
}

bool pcl__rpc_on_engine(pcl__rpc_method m) {
  return strncmp(pcl__rpc_path(m), "/pulumirpc.Engine/", 18) == 0;
}

void pcl__rpc_enc_clear(pcl__rpc_enc *enc) {
  pcl_release(enc->where);
  enc->where = NULL;
  free(enc->first_rounded);
  pcl_error_free(enc->err);
  enc->first_rounded = NULL;
  enc->err = NULL;
  enc->rounded = 0;
}

/* ------------------------------------------------------------- encoding */

static char *dup_bytes(const char *s, size_t n) {
  char *d = pcl_xmalloc(n + 1);
  memcpy(d, s, n);
  d[n] = 0;
  return d;
}

static Google__Protobuf__Value *new_value(void) {
  Google__Protobuf__Value *v = pcl_xmalloc(sizeof *v);
  google__protobuf__value__init(v);
  return v;
}

/* Returns the bytes s[0..n) as a protobuf bytes field (owned copy). */
static ProtobufCBinaryData binary(const char *s, size_t n) {
  ProtobufCBinaryData b = {n, (uint8_t *)dup_bytes(s, n)};
  return b;
}

static Google__Protobuf__Value *string_value(const char *s, size_t n) {
  Google__Protobuf__Value *v = new_value();
  v->kind_case = GOOGLE__PROTOBUF__VALUE__KIND_STRING_VALUE;
  v->string_value = binary(s, n);
  return v;
}

static Google__Protobuf__Struct *new_struct(size_t cap) {
  Google__Protobuf__Struct *s = pcl_xmalloc(sizeof *s);
  google__protobuf__struct__init(s);
  s->fields = pcl_xmalloc((cap ? cap : 1) * sizeof *s->fields);
  return s;
}

/* Adds key -> v (stolen) to s, which has room for it. */
static void struct_put(Google__Protobuf__Struct *s, const char *key, size_t klen,
                       Google__Protobuf__Value *v) {
  Google__Protobuf__Struct__FieldsEntry *e = pcl_xmalloc(sizeof *e);
  google__protobuf__struct__fields_entry__init(e);
  e->key = binary(key, klen);
  e->value = v;
  s->fields[s->n_fields++] = e;
}

static Google__Protobuf__Value *struct_value(Google__Protobuf__Struct *s) {
  Google__Protobuf__Value *v = new_value();
  v->kind_case = GOOGLE__PROTOBUF__VALUE__KIND_STRUCT_VALUE;
  v->struct_value = s;
  return v;
}

/* Returns a signature object with room for n more members. */
static Google__Protobuf__Struct *sig_struct(const char *sig, size_t n) {
  Google__Protobuf__Struct *s = new_struct(n + 1);
  struct_put(s, PCL__SIG_KEY, strlen(PCL__SIG_KEY), string_value(sig, strlen(sig)));
  return s;
}

static void free_value(Google__Protobuf__Value *v) {
  if (v) {
    protobuf_c_message_free_unpacked(&v->base, NULL);
  }
}

/* Returns whether s[0..n) is valid UTF-8, as protobuf string fields must be. */
static bool utf8_ok(const char *s, size_t n) {
  if (pcl__is_ascii(s, n)) {
    return true;
  }
  for (size_t i = 0; i < n;) {
    utf8proc_int32_t cp;
    utf8proc_ssize_t k =
        utf8proc_iterate((const utf8proc_uint8_t *)s + i, (utf8proc_ssize_t)(n - i), &cp);
    if (k <= 0) {
      return false;
    }
    i += (size_t)k;
  }
  return true;
}

/* Records the first error of the encoding, whose property path the
 * containers it unwinds through then fill in (enc_at). */
static void enc_fail(pcl__rpc_enc *enc, const char *msg) {
  if (enc->err == NULL) {
    enc->err = pcl_error_new("%s", msg);
    enc->where = pcl_list_new(0);
  }
}

/* Prepends the path segment seg (stolen: a STRING key or an INT index) to
 * the path of the error being unwound, if any. */
static void enc_at(pcl__rpc_enc *enc, pcl_value *seg) {
  if (enc->where == NULL) {
    pcl_release(seg);
    return;
  }
  size_t n = pcl_len(enc->where);
  pcl_value *l = pcl_list_new(n + 1);
  pcl_list_init_take(l, 0, seg);
  for (size_t i = 0; i < n; i++) {
    pcl_list_init_take(l, i + 1, pcl_retain(pcl_list_at(enc->where, i)));
  }
  pcl_release(enc->where);
  enc->where = l;
}

/* Ends the unwinding of an error at an exported function: the error names
 * the property where it was met. */
static void enc_locate(pcl__rpc_enc *enc) {
  if (enc->where && pcl_len(enc->where) > 0) {
    char *path = pcl__rpc_path_text(enc->where);
    pcl_error_prefix(enc->err, "property %s", path);
    free(path);
  }
  pcl_release(enc->where);
  enc->where = NULL;
}

static Google__Protobuf__Value *encode(const pcl_value *v, pcl__rpc_enc *enc);
static Google__Protobuf__Value *output_value(const pcl_value *v, const pcl_deps *deps,
                                             pcl__rpc_enc *enc);
static Google__Protobuf__Value *settled_output(const pcl_value *v, pcl__rpc_enc *enc);

/* Returns the Struct of the MAP m (NULL: empty); with outputs, a member
 * that has dependencies (deps[i], deps may be NULL) or is unknown or secret
 * becomes an output value. */
static Google__Protobuf__Struct *encode_map(const pcl_value *m, bool outputs,
                                            pcl_deps *const *deps, pcl__rpc_enc *enc) {
  size_t n = m ? pcl_len(m) : 0;
  Google__Protobuf__Struct *s = new_struct(n);
  for (size_t i = 0; i < n; i++) {
    pcl_value *k = pcl_map_key_at(m, i);
    const pcl_value *v = pcl_map_val_at(m, i);
    const pcl_deps *d = deps ? deps[i] : NULL;
    pcl_kind kind = pcl_kind_of(v);
    bool wrap = outputs && (pcl_deps_count(d) > 0 || kind == PCL_T_UNKNOWN || kind == PCL_T_SECRET);
    Google__Protobuf__Value *ev = wrap ? output_value(v, d, enc) : encode(v, enc);
    if (ev != NULL && !utf8_ok(pcl_str_data(k), pcl_str_len(k))) {
      /* A key has no byte-string form: Struct keys are protobuf strings. */
      enc_fail(enc, "the engine protocol cannot carry a map key that is not UTF-8");
      free_value(ev);
      ev = NULL;
    } else if (ev == NULL) {
      enc_at(enc, pcl_retain(k));
    }
    if (ev == NULL) {
      protobuf_c_message_free_unpacked(&s->base, NULL);
      return NULL;
    }
    struct_put(s, pcl_str_data(k), pcl_str_len(k), ev);
  }
  return s;
}

/* Returns the byte-string object of the bytes s[0..n): {sig: bytes, value:
 * their padded standard base64}, as Pulumi sends a string that is not
 * UTF-8. */
static Google__Protobuf__Value *byte_string(const char *s, size_t n) {
  pcl_strbuf b = PCL_STRBUF_INIT;
  pcl__base64_encode(&b, (const uint8_t *)s, n);
  Google__Protobuf__Struct *st = sig_struct(PCL__SIG_BYTES, 1);
  struct_put(st, "value", 5, string_value(b.data ? b.data : "", b.len));
  pcl_strbuf_free(&b);
  return struct_value(st);
}

/* Returns the number message of the INT v, counting a rounding. */
static Google__Protobuf__Value *encode_int(const pcl_value *v, pcl__rpc_enc *enc) {
  Google__Protobuf__Value *r = new_value();
  r->kind_case = GOOGLE__PROTOBUF__VALUE__KIND_NUMBER_VALUE;
  r->number_value = pcl_num_to_double(v);
  if (isinf(r->number_value) || pcl__int_cmp_double(v, r->number_value) != 0) {
    if (enc->rounded++ == 0) {
      /* Shown in a warning: "[secret]" inside a secret (encode). */
      enc->first_rounded = pcl_value_repr(v, 64);
    }
    if (isinf(r->number_value)) {
      free_value(r);
      enc_fail(enc, "the engine protocol cannot carry an int beyond the range of a double");
      return NULL;
    }
  }
  return r;
}

static Google__Protobuf__Value *encode(const pcl_value *v, pcl__rpc_enc *enc) {
  Google__Protobuf__Value *r;
  switch (pcl_kind_of(v)) {
  case PCL_T_NULL:
    r = new_value();
    r->kind_case = GOOGLE__PROTOBUF__VALUE__KIND_NULL_VALUE;
    r->null_value = GOOGLE__PROTOBUF__NULL_VALUE__NULL_VALUE;
    return r;
  case PCL_T_BOOL:
    r = new_value();
    r->kind_case = GOOGLE__PROTOBUF__VALUE__KIND_BOOL_VALUE;
    r->bool_value = pcl_bool_get(v);
    return r;
  case PCL_T_INT:
    return encode_int(v, enc);
  case PCL_T_NUMBER:
    if (isinf(pcl_number_get(v))) {
      enc_fail(enc, "the engine protocol cannot carry an infinite number");
      return NULL;
    }
    r = new_value();
    r->kind_case = GOOGLE__PROTOBUF__VALUE__KIND_NUMBER_VALUE;
    r->number_value = pcl_number_get(v);
    return r;
  case PCL_T_STRING:
    if (utf8_ok(pcl_str_data(v), pcl_str_len(v))) {
      return string_value(pcl_str_data(v), pcl_str_len(v));
    }
    if (enc->byte_strings) {
      return byte_string(pcl_str_data(v), pcl_str_len(v));
    }
    enc_fail(enc, "a string that is not UTF-8 travels to the engine only as a byte string, "
                  "which this engine does not take; update the Pulumi CLI");
    return NULL;
  case PCL_T_LIST:
  case PCL_T_SET: {
    Google__Protobuf__ListValue *l = pcl_xmalloc(sizeof *l);
    google__protobuf__list_value__init(l);
    size_t n = pcl_len(v);
    l->values = pcl_xmalloc((n ? n : 1) * sizeof *l->values);
    r = new_value();
    r->kind_case = GOOGLE__PROTOBUF__VALUE__KIND_LIST_VALUE;
    r->list_value = l;
    for (size_t i = 0; i < n; i++) {
      Google__Protobuf__Value *e = encode(pcl_list_at(v, i), enc);
      if (e == NULL) {
        enc_at(enc, pcl_int_new((int64_t)i));
        free_value(r);
        return NULL;
      }
      l->values[l->n_values++] = e;
    }
    return r;
  }
  case PCL_T_MAP: {
    Google__Protobuf__Struct *s = encode_map(v, false, NULL, enc);
    return s ? struct_value(s) : NULL;
  }
  case PCL_T_SECRET: {
    /* What the encoding reports of the payload (a rounded int) must not
     * show it: the redaction scope makes such text "[secret]". */
    pcl__redact_enter();
    Google__Protobuf__Value *in = encode(pcl_secret_inner(v), enc);
    pcl__redact_leave();
    if (in == NULL || !enc->secrets) {
      return in;
    }
    Google__Protobuf__Struct *s = sig_struct(PCL__SIG_SECRET, 1);
    struct_put(s, "value", 5, in);
    return struct_value(s);
  }
  case PCL_T_RESOURCE: {
    pcl_value *urn = pcl_resource_urn(v), *id = pcl_resource_id(v);
    pcl_value *ver = pcl_resource_version(v);
    if (!enc->resources) {
      /* As the SDKs do for a monitor without resource references: a custom
       * resource is its id, a component its URN. */
      return encode(pcl_kind_of(id) == PCL_T_NULL ? urn : id, enc);
    }
    Google__Protobuf__Struct *s = sig_struct(PCL__SIG_RESOURCE, 3);
    struct_put(s, "urn", 3, encode(urn, enc));
    if (pcl_kind_of(id) != PCL_T_NULL) {
      struct_put(s, "id", 2, encode(id, enc));
    }
    if (pcl_kind_of(ver) != PCL_T_NULL) {
      struct_put(s, "packageVersion", 14, encode(ver, enc));
    }
    r = struct_value(s);
    if (enc->err) {
      free_value(r);
      return NULL;
    }
    return r;
  }
  case PCL_T_ASSET:
  case PCL_T_ARCHIVE: {
    bool asset = pcl_kind_of(v) == PCL_T_ASSET;
    const char *key;
    if (asset) {
      pcl_asset_kind k = pcl_asset_kind_of(v);
      key = k == PCL_ASSET_FILE ? "path" : k == PCL_ASSET_STRING ? "text" : "uri";
    } else {
      pcl_archive_kind k = pcl_archive_kind_of(v);
      key = k == PCL_ARCHIVE_FILE ? "path" : k == PCL_ARCHIVE_ASSETS ? "assets" : "uri";
    }
    Google__Protobuf__Value *payload = encode(pcl_asset_payload(v), enc);
    if (payload == NULL) {
      return NULL;
    }
    Google__Protobuf__Struct *s = sig_struct(asset ? PCL__SIG_ASSET : PCL__SIG_ARCHIVE, 1);
    struct_put(s, key, strlen(key), payload);
    return struct_value(s);
  }
  case PCL_T_UNKNOWN:
    return string_value(PCL__UNKNOWN_SENTINEL, strlen(PCL__UNKNOWN_SENTINEL));
  case PCL_T_EVENTUAL:
    return settled_output(v, enc);
  }
  enc_fail(enc, "the engine protocol cannot carry a value of an unknown kind");
  return NULL;
}

/* Returns the output value of the EVENTUAL v whose future resolved: its
 * value (unknown, secret) with its dependencies, as the SDKs send each
 * output met inside an invoke's or call's arguments; a future not resolved
 * yet cannot be sent. */
static Google__Protobuf__Value *settled_output(const pcl_value *v, pcl__rpc_enc *enc) {
  pcl_future *f = pcl_value_future(v);
  if (f == NULL || pcl_future_state_of(f) != PCL_FUTURE_RESOLVED) {
    enc_fail(enc, "the engine protocol cannot carry a value that is not settled yet");
    return NULL;
  }
  unsigned bits = pcl_future_bits(f);
  pcl_value *inner = (bits & PCL_FUT_UNKNOWN) ? pcl_unknown()
                     : pcl_future_value(f) ? pcl_retain(pcl_future_value(f))
                                           : pcl_null();
  if (bits & PCL_FUT_SECRET) {
    pcl_value *sv = pcl_secret_new(inner);
    pcl_release(inner);
    inner = sv;
  }
  Google__Protobuf__Value *r = output_value(inner, pcl_future_deps(f), enc);
  pcl_release(inner);
  return r;
}

/* Returns the output value of v with the dependencies deps. */
static Google__Protobuf__Value *output_value(const pcl_value *v, const pcl_deps *deps,
                                             pcl__rpc_enc *enc) {
  bool secret = pcl_kind_of(v) == PCL_T_SECRET;
  const pcl_value *plain = secret ? pcl_secret_inner(v) : v;
  size_t n = pcl_deps_count(deps);
  Google__Protobuf__Struct *s = sig_struct(PCL__SIG_OUTPUT, 3);
  if (pcl_kind_of(plain) != PCL_T_UNKNOWN) {
    /* The payload of a secret is encoded in a redaction scope, as encode
     * encodes a SECRET's. */
    if (secret) {
      pcl__redact_enter();
    }
    Google__Protobuf__Value *in = encode(plain, enc);
    if (secret) {
      pcl__redact_leave();
    }
    if (in == NULL) {
      protobuf_c_message_free_unpacked(&s->base, NULL);
      return NULL;
    }
    struct_put(s, "value", 5, in);
  }
  if (secret) {
    Google__Protobuf__Value *t = new_value();
    t->kind_case = GOOGLE__PROTOBUF__VALUE__KIND_BOOL_VALUE;
    t->bool_value = true;
    struct_put(s, "secret", 6, t);
  }
  if (n > 0) {
    const char **urns = pcl_xmalloc(n * sizeof *urns);
    pcl_deps_sorted(deps, urns);
    Google__Protobuf__ListValue *l = pcl_xmalloc(sizeof *l);
    google__protobuf__list_value__init(l);
    l->values = pcl_xmalloc(n * sizeof *l->values);
    for (size_t i = 0; i < n; i++) {
      l->values[l->n_values++] = string_value(urns[i], strlen(urns[i]));
    }
    free(urns);
    Google__Protobuf__Value *lv = new_value();
    lv->kind_case = GOOGLE__PROTOBUF__VALUE__KIND_LIST_VALUE;
    lv->list_value = l;
    struct_put(s, "dependencies", 12, lv);
  }
  return struct_value(s);
}

Google__Protobuf__Value *pcl__rpc_value_new(const pcl_value *v, pcl__rpc_enc *enc) {
  Google__Protobuf__Value *r = encode(v, enc);
  enc_locate(enc);
  return r;
}

Google__Protobuf__Struct *pcl__rpc_struct_new(const pcl_value *map, pcl__rpc_enc *enc) {
  Google__Protobuf__Struct *s = encode_map(map, false, NULL, enc);
  enc_locate(enc);
  return s;
}

Google__Protobuf__Value *pcl__rpc_output_value_new(const pcl_value *v, const pcl_deps *deps,
                                                   pcl__rpc_enc *enc) {
  Google__Protobuf__Value *r = output_value(v, deps, enc);
  enc_locate(enc);
  return r;
}

Google__Protobuf__Struct *pcl__rpc_output_struct_new(const pcl_value *map, pcl_deps *const *deps,
                                                     pcl__rpc_enc *enc) {
  Google__Protobuf__Struct *s = encode_map(map, true, deps, enc);
  enc_locate(enc);
  return s;
}

uint8_t *pcl__rpc_struct_pack(const pcl_value *v, pcl__rpc_enc *enc, size_t *len) {
  Google__Protobuf__Struct *s = pcl__rpc_struct_new(v, enc);
  if (s == NULL) {
    return NULL;
  }
  *len = protobuf_c_message_get_packed_size(&s->base);
  uint8_t *out = pcl_xmalloc(*len ? *len : 1);
  protobuf_c_message_pack(&s->base, out);
  protobuf_c_message_free_unpacked(&s->base, NULL);
  return out;
}

char *pcl__rpc_path_text(const pcl_value *segs) {
  pcl_strbuf b = PCL_STRBUF_INIT;
  for (size_t i = 0; i < pcl_len(segs); i++) {
    pcl_value *s = pcl_list_at(segs, i);
    if (pcl_kind_of(s) == PCL_T_INT) {
      pcl_strbuf_append_char(&b, '[');
      pcl_int_format(&b, s);
      pcl_strbuf_append_char(&b, ']');
      continue;
    }
    const char *t = pcl_kind_of(s) == PCL_T_STRING ? pcl_str_data(s) : "";
    size_t n = pcl_kind_of(s) == PCL_T_STRING ? pcl_str_len(s) : 0;
    bool plain = n > 0 && strcspn(t, ".[]\"") == n;
    if (plain) {
      pcl_strbuf_appendf(&b, "%s%s", i ? "." : "", t);
    } else {
      pcl_strbuf_append_cstr(&b, "[");
      pcl__json_quote(&b, t, n, false);
      pcl_strbuf_append_cstr(&b, "]");
    }
  }
  return b.data ? b.data : pcl_xstrdup("");
}

/* ------------------------------------------------------------- decoding */

static pcl_value *decode(const Google__Protobuf__Value *v, int depth, bool keep_deps,
                         pcl_error **err);

/* Returns whether the bytes b are the NUL-terminated s. */
static bool bytes_eq(ProtobufCBinaryData b, const char *s) {
  size_t n = strlen(s);
  return b.len == n && (n == 0 || memcmp(b.data, s, n) == 0);
}

/* Returns the string of the bytes data[0..len) of an answer (owned), or
 * NULL with *err when it would take more than the value size limit: the
 * engine's answers are held to --max-value-size as the program's own
 * values are. */
static pcl_value *answer_string(const void *data, size_t len, pcl_error **err) {
  if (!pcl__value_fits(len, "a string", err)) {
    return NULL;
  }
  return pcl_str_from_bytes(len > 0 ? data : "", len);
}

/* Returns the member key of the Struct s (borrowed), or NULL. */
static const Google__Protobuf__Value *member(const Google__Protobuf__Struct *s, const char *key) {
  const Google__Protobuf__Value *found = NULL;
  for (size_t i = 0; i < s->n_fields; i++) {
    /* Of repeated keys the last wins, as protobuf merges map entries. */
    if (bytes_eq(s->fields[i]->key, key)) {
      found = s->fields[i]->value;
    }
  }
  return found;
}

/* Returns the string member key of s as a string value (owned), or NULL
 * when absent or not a string. */
static pcl_value *plain_string_member(const Google__Protobuf__Struct *s, const char *key) {
  const Google__Protobuf__Value *v = member(s, key);
  if (v == NULL || v->kind_case != GOOGLE__PROTOBUF__VALUE__KIND_STRING_VALUE) {
    return NULL;
  }
  /* A member over the size limit reads as absent: the signature object is
   * then malformed. */
  pcl_error *err = NULL;
  pcl_value *r = answer_string(v->string_value.data, v->string_value.len, &err);
  pcl_error_free(err);
  return r;
}

/* Returns the STRING of the bytes of the byte-string object s (owned);
 * NULL with *err when it is malformed. */
static pcl_value *byte_string_get(const Google__Protobuf__Struct *s, pcl_error **err) {
  const Google__Protobuf__Value *b64 = member(s, "value");
  if (b64 == NULL || b64->kind_case != GOOGLE__PROTOBUF__VALUE__KIND_STRING_VALUE) {
    *err = pcl_error_new("malformed byte string: no string \"value\"");
    return NULL;
  }
  pcl_strbuf b = PCL_STRBUF_INIT;
  size_t bad = 0;
  pcl_value *r = NULL;
  /* The bytes take three quarters of their base64 text, at most. */
  if (!pcl__value_fits(b64->string_value.len / 4 * 3, "a byte string", err)) {
    return NULL;
  }
  if (pcl__base64_decode((const char *)b64->string_value.data, b64->string_value.len, &b, &bad)) {
    r = answer_string(b.data, b.len, err);
  } else {
    *err = pcl_error_new("malformed byte string: \"value\" is not base64 (illegal data at "
                         "byte %zu)",
                         bad);
  }
  pcl_strbuf_free(&b);
  return r;
}

/* Returns the string member key of s as a string value (owned), or NULL
 * when absent or not a string.  A well-formed byte string is the string of
 * its bytes, as Pulumi reads the members of a signature object (an asset's
 * path, a reference's URN) once decoded: the encoder sends such a member
 * that is not UTF-8 so. */
static pcl_value *string_member(const Google__Protobuf__Struct *s, const char *key) {
  const Google__Protobuf__Value *v = member(s, key);
  if (v != NULL && v->kind_case == GOOGLE__PROTOBUF__VALUE__KIND_STRUCT_VALUE &&
      v->struct_value != NULL) {
    pcl_value *sig = plain_string_member(v->struct_value, PCL__SIG_KEY);
    bool bytes = sig && pcl_str_eq_cstr(sig, PCL__SIG_BYTES);
    pcl_release(sig);
    pcl_error *err = NULL;
    pcl_value *r = bytes ? byte_string_get(v->struct_value, &err) : NULL;
    pcl_error_free(err);
    return r;
  }
  return plain_string_member(s, key);
}

/* Returns whether the string member key of s is the NUL-terminated want. */
static bool string_member_is(const Google__Protobuf__Struct *s, const char *key, const char *want) {
  const Google__Protobuf__Value *v = member(s, key);
  return v && v->kind_case == GOOGLE__PROTOBUF__VALUE__KIND_STRING_VALUE &&
         bytes_eq(v->string_value, want);
}

static pcl_value *decode_struct(const Google__Protobuf__Struct *s, int depth, bool keep_deps,
                                pcl_error **err) {
  if (s && !pcl__value_fits(2 * s->n_fields * sizeof(pcl_value *), "an object", err)) {
    return NULL;
  }
  pcl_mapbuf mb = PCL_MAPBUF_INIT;
  for (size_t i = 0; s && i < s->n_fields; i++) {
    ProtobufCBinaryData k = s->fields[i]->key;
    pcl_value *key = answer_string(k.data, k.len, err);
    pcl_value *ev = key ? decode(s->fields[i]->value, depth + 1, keep_deps, err) : NULL;
    if (ev == NULL) {
      pcl_release(key);
      pcl_mapbuf_free(&mb);
      return NULL;
    }
    pcl_mapbuf_put_take(&mb, key, ev);
  }
  return pcl_mapbuf_finish(&mb);
}

/* Returns the value of the output value s, whose value is v (stolen; its
 * secret flag secret): when s lists dependencies, an EVENTUAL of a settled
 * future carrying them (and unknown, secret), which is how the runtime keeps
 * the dependencies of a value nested in another; else v (SECRET-wrapped
 * when secret).  NULL with *err when "dependencies" is not a list of
 * strings. */
static pcl_value *output_with_deps(const Google__Protobuf__Struct *s, pcl_value *v, bool secret,
                                   pcl_error **err) {
  const Google__Protobuf__Value *d = member(s, "dependencies");
  size_t n = 0;
  if (d != NULL && d->kind_case == GOOGLE__PROTOBUF__VALUE__KIND_LIST_VALUE && d->list_value) {
    n = d->list_value->n_values;
  } else if (d != NULL && d->kind_case != GOOGLE__PROTOBUF__VALUE__KIND_NULL_VALUE) {
    *err = pcl_error_new("malformed output value: \"dependencies\" is not a list");
    pcl_release(v);
    return NULL;
  }
  const char **urns = pcl_xmalloc((n ? n : 1) * sizeof *urns);
  char **owned = pcl_xmalloc((n ? n : 1) * sizeof *owned);
  for (size_t i = 0; i < n; i++) {
    const Google__Protobuf__Value *u = d->list_value->values[i];
    if (u == NULL || u->kind_case != GOOGLE__PROTOBUF__VALUE__KIND_STRING_VALUE ||
        u->string_value.len == 0 || memchr(u->string_value.data, 0, u->string_value.len)) {
      for (size_t j = 0; j < i; j++) {
        free(owned[j]);
      }
      free(owned);
      free(urns);
      pcl_release(v);
      *err = pcl_error_new("malformed output value: a dependency is not a URN");
      return NULL;
    }
    owned[i] = pcl_xmalloc(u->string_value.len + 1);
    memcpy(owned[i], u->string_value.data, u->string_value.len);
    owned[i][u->string_value.len] = '\0';
    urns[i] = owned[i];
  }
  pcl_deps *deps = pcl__deps_of_urns(urns, n);
  for (size_t i = 0; i < n; i++) {
    free(owned[i]);
  }
  free(owned);
  free(urns);
  if (deps == NULL) {
    if (!secret) {
      return v;
    }
    pcl_value *w = pcl_secret_new(v);
    pcl_release(v);
    return w;
  }
  pcl_future *f = pcl_future_new(PCL_OUTPUT, NULL);
  bool unknown = pcl_kind_of(v) == PCL_T_UNKNOWN;
  pcl_future_resolve(f, unknown ? NULL : v,
                     (unknown ? PCL_FUT_UNKNOWN : 0u) | (secret ? PCL_FUT_SECRET : 0u), deps);
  pcl_release(v);
  pcl_deps_release(deps);
  pcl_value *r = pcl_future_to_value(f);
  pcl_future_release(f);
  return r;
}

/* Decodes a signature object s whose signature is sig. */
static pcl_value *decode_sig(const Google__Protobuf__Struct *s, const char *sig, int depth,
                             bool keep_deps, pcl_error **err) {
  if (strcmp(sig, PCL__SIG_SECRET) == 0 || strcmp(sig, PCL__SIG_OUTPUT) == 0) {
    const Google__Protobuf__Value *in = member(s, "value");
    bool output = strcmp(sig, PCL__SIG_OUTPUT) == 0;
    pcl_value *v =
        in ? decode(in, depth + 1, keep_deps, err) : output ? pcl_unknown() : pcl_null();
    const Google__Protobuf__Value *sec = output ? member(s, "secret") : NULL;
    bool secret = !output || (sec && sec->kind_case == GOOGLE__PROTOBUF__VALUE__KIND_BOOL_VALUE &&
                              sec->bool_value);
    if (v != NULL && output && keep_deps) {
      return output_with_deps(s, v, secret, err);
    }
    if (v == NULL || !secret) {
      return v;
    }
    pcl_value *w = pcl_secret_new(v);
    pcl_release(v);
    return w;
  }
  if (strcmp(sig, PCL__SIG_RESOURCE) == 0) {
    pcl_value *u = string_member(s, "urn");
    if (u == NULL || pcl_str_len(u) == 0) {
      *err = pcl_error_new("malformed resource reference: %s",
                           u == NULL ? "no string \"urn\"" : "the \"urn\" is empty");
      pcl_release(u);
      return NULL;
    }
    pcl_value *i = string_member(s, "id");
    pcl_value *pv = string_member(s, "packageVersion");
    if (i && string_member_is(s, "id", PCL__UNKNOWN_SENTINEL)) {
      pcl_release(i);
      i = pcl_unknown();
    } else if (i && pcl_str_len(i) == 0) {
      pcl_release(i);
      i = NULL;
    }
    if (pv && pcl_str_len(pv) == 0) {
      pcl_release(pv);
      pv = NULL;
    }
    pcl_value *r = pcl_resource_new(u, i, pv);
    pcl_release(u);
    pcl_release(i);
    pcl_release(pv);
    return r;
  }
  if (strcmp(sig, PCL__SIG_BYTES) == 0) {
    return byte_string_get(s, err);
  }
  if (strcmp(sig, PCL__SIG_ASSET) == 0) {
    static const char *const keys[] = {"path", "text", "uri"};
    static const pcl_asset_kind kinds[] = {PCL_ASSET_FILE, PCL_ASSET_STRING, PCL_ASSET_REMOTE};
    for (size_t k = 0; k < 3; k++) {
      pcl_value *pv = string_member(s, keys[k]);
      if (pv) {
        pcl_value *a = pcl_asset_new(kinds[k], pv);
        pcl_release(pv);
        return a;
      }
    }
    *err = pcl_error_new("malformed asset: none of \"path\", \"text\" and \"uri\"");
    return NULL;
  }
  if (strcmp(sig, PCL__SIG_ARCHIVE) == 0) {
    const Google__Protobuf__Value *assets = member(s, "assets");
    if (assets && assets->kind_case == GOOGLE__PROTOBUF__VALUE__KIND_STRUCT_VALUE) {
      pcl_value *m = decode_struct(assets->struct_value, depth + 2, keep_deps, err);
      if (m == NULL) {
        return NULL;
      }
      for (size_t i = 0; i < pcl_len(m); i++) {
        pcl_kind k = pcl_kind_of(pcl_map_val_at(m, i));
        if (k != PCL_T_ASSET && k != PCL_T_ARCHIVE) {
          pcl_release(m);
          *err =
              pcl_error_new("malformed archive: a member of \"assets\" is a %s", pcl_kind_name(k));
          return NULL;
        }
      }
      pcl_value *a = pcl_archive_new(PCL_ARCHIVE_ASSETS, m);
      pcl_release(m);
      return a;
    }
    static const char *const keys[] = {"path", "uri"};
    static const pcl_archive_kind kinds[] = {PCL_ARCHIVE_FILE, PCL_ARCHIVE_REMOTE};
    for (size_t k = 0; k < 2; k++) {
      pcl_value *pv = string_member(s, keys[k]);
      if (pv) {
        pcl_value *a = pcl_archive_new(kinds[k], pv);
        pcl_release(pv);
        return a;
      }
    }
    *err = pcl_error_new("malformed archive: none of \"assets\", \"path\" and \"uri\"");
    return NULL;
  }
  *err = pcl_error_new("unrecognized signature '%s' in a property value", sig);
  return NULL;
}

static pcl_value *decode(const Google__Protobuf__Value *v, int depth, bool keep_deps,
                         pcl_error **err) {
  if (depth > MAX_DEPTH) {
    *err = pcl_error_new("a property value nests deeper than %d levels", MAX_DEPTH / 3);
    return NULL;
  }
  if (v == NULL) {
    return pcl_null();
  }
  switch (v->kind_case) {
  case GOOGLE__PROTOBUF__VALUE__KIND__NOT_SET:
  case GOOGLE__PROTOBUF__VALUE__KIND_NULL_VALUE:
    return pcl_null();
  case GOOGLE__PROTOBUF__VALUE__KIND_NUMBER_VALUE: {
    double d = v->number_value;
    if (isnan(d)) {
      *err = pcl_error_new("a property value is NaN, which is not a number PCL has");
      return NULL;
    }
    if (d == floor(d) && fabs(d) <= 9007199254740992.0) {
      return pcl_int_new((int64_t)d);
    }
    return pcl_number_new(d);
  }
  case GOOGLE__PROTOBUF__VALUE__KIND_STRING_VALUE:
    if (bytes_eq(v->string_value, PCL__UNKNOWN_SENTINEL)) {
      return pcl_unknown();
    }
    return answer_string(v->string_value.data, v->string_value.len, err);
  case GOOGLE__PROTOBUF__VALUE__KIND_BOOL_VALUE:
    return pcl_bool(v->bool_value);
  case GOOGLE__PROTOBUF__VALUE__KIND_STRUCT_VALUE: {
    pcl_value *sig = v->struct_value ? plain_string_member(v->struct_value, PCL__SIG_KEY) : NULL;
    if (sig) {
      pcl_value *r = decode_sig(v->struct_value, pcl_str_data(sig), depth + 1, keep_deps, err);
      pcl_release(sig);
      return r;
    }
    return decode_struct(v->struct_value, depth + 1, keep_deps, err);
  }
  case GOOGLE__PROTOBUF__VALUE__KIND_LIST_VALUE: {
    size_t n = v->list_value ? v->list_value->n_values : 0;
    if (!pcl__value_fits(n * sizeof(pcl_value *), "a list", err)) {
      return NULL;
    }
    pcl_value *l = pcl_list_new(n);
    bool ok = true;
    for (size_t i = 0; i < n; i++) {
      pcl_value *e = ok ? decode(v->list_value->values[i], depth + 1, keep_deps, err) : NULL;
      ok = ok && e != NULL;
      pcl_list_init_take(l, i, e ? e : pcl_null());
    }
    if (!ok) {
      pcl_release(l);
      return NULL;
    }
    return l;
  }
  case _GOOGLE__PROTOBUF__VALUE__KIND__CASE_IS_INT_SIZE:
    break;
  }
  *err = pcl_error_new("a property value of an unknown kind");
  return NULL;
}

pcl_value *pcl__rpc_value_get(const Google__Protobuf__Value *v, pcl_error **err) {
  return decode(v, 0, false, err);
}

pcl_value *pcl__rpc_struct_get(const Google__Protobuf__Struct *s, pcl_error **err) {
  return decode_struct(s, 0, false, err);
}

/* Reads a base-128 varint at *p (before end) into *out; false when the
 * bytes end first or it is longer than ten bytes. */
static bool varint(const uint8_t **p, const uint8_t *end, uint64_t *out) {
  uint64_t v = 0;
  for (int shift = 0; shift < 70 && *p < end; shift += 7) {
    uint8_t b = *(*p)++;
    v |= (uint64_t)(b & 0x7F) << shift;
    if (!(b & 0x80)) {
      *out = v;
      return true;
    }
  }
  return false;
}

/* Returns false when the message of descriptor d packed in p[0..n) nests
 * messages deeper than MAX_DEPTH - depth; malformed bytes pass, for
 * protobuf-c to reject. */
static bool depth_ok(const ProtobufCMessageDescriptor *d, const uint8_t *p, size_t n, int depth) {
  if (depth > MAX_DEPTH) {
    return false;
  }
  if (n == 0) {
    /* An empty message (p may then be NULL, where p + n is undefined). */
    return true;
  }
  const uint8_t *end = p + n;
  while (p < end) {
    uint64_t tag, len;
    if (!varint(&p, end, &tag)) {
      return true;
    }
    switch (tag & 7) {
    case 0:
      if (!varint(&p, end, &len)) {
        return true;
      }
      break;
    case 1:
      p += (size_t)(end - p) < 8 ? (size_t)(end - p) : 8;
      break;
    case 5:
      p += (size_t)(end - p) < 4 ? (size_t)(end - p) : 4;
      break;
    case 2: {
      if (!varint(&p, end, &len) || len > (uint64_t)(end - p)) {
        return true;
      }
      const ProtobufCFieldDescriptor *f =
          tag >> 3 <= UINT32_MAX ? protobuf_c_message_descriptor_get_field(d, (unsigned)(tag >> 3))
                                 : NULL;
      if (f && f->type == PROTOBUF_C_TYPE_MESSAGE &&
          !depth_ok(f->descriptor, p, (size_t)len, depth + 1)) {
        return false;
      }
      p += len;
      break;
    }
    default:
      return true;
    }
  }
  return true;
}

/* Unpacks data[0..len) as a message of descriptor d; NULL with *err. */
static ProtobufCMessage *unpack(const ProtobufCMessageDescriptor *d, const uint8_t *data,
                                size_t len, pcl_error **err) {
  if (!depth_ok(d, data, len, 0)) {
    *err = pcl_error_new("the %s nests deeper than %d levels", d->name, MAX_DEPTH);
    return NULL;
  }
  ProtobufCMessage *m = protobuf_c_message_unpack(d, NULL, len, data);
  if (m == NULL) {
    *err = pcl_error_new("the %s does not decode (%zu bytes)", d->name, len);
  }
  return m;
}

pcl_value *pcl__rpc_struct_unpack(const uint8_t *data, size_t len, pcl_error **err) {
  ProtobufCMessage *m = unpack(&google__protobuf__struct__descriptor, data, len, err);
  if (m == NULL) {
    return NULL;
  }
  pcl_value *v = decode_struct((Google__Protobuf__Struct *)m, 0, false, err);
  protobuf_c_message_free_unpacked(m, NULL);
  return v;
}

/* Puts key = the struct s decoded, without its secrets, into b. */
static bool hook_struct(pcl_mapbuf *b, const char *key, const Google__Protobuf__Struct *s,
                        pcl_error **err) {
  pcl_value *v = decode_struct(s, 0, false, err);
  if (v == NULL) {
    return false;
  }
  pcl_mapbuf_put_cstr(b, key, pcl_strip_secrets(v));
  pcl_release(v);
  return true;
}

pcl_value *pcl__rpc_hook_args(const uint8_t *data, size_t len, bool error_hook, pcl_error **err) {
  const ProtobufCMessageDescriptor *d =
      error_hook ? &pulumirpc__error_hook_request__descriptor
                 : &pulumirpc__resource_hook_request__descriptor;
  ProtobufCMessage *m = unpack(d, data, len, err);
  if (m == NULL) {
    return NULL;
  }
  /* The two requests share their first seven fields' meaning, not their
     layout: read each through its own type. */
  const char *ids[4];
  const Google__Protobuf__Struct *structs[4] = {NULL, NULL, NULL, NULL};
  static const char *const names[4] = {"newInputs", "oldInputs", "newOutputs", "oldOutputs"};
  if (error_hook) {
    const Pulumirpc__ErrorHookRequest *r = (const Pulumirpc__ErrorHookRequest *)m;
    const char *v[4] = {r->urn, r->id, r->name, r->type};
    memcpy(ids, v, sizeof ids);
    structs[0] = r->new_inputs;
    structs[1] = r->old_inputs;
    structs[3] = r->old_outputs;
  } else {
    const Pulumirpc__ResourceHookRequest *r = (const Pulumirpc__ResourceHookRequest *)m;
    const char *v[4] = {r->urn, r->id, r->name, r->type};
    memcpy(ids, v, sizeof ids);
    structs[0] = r->new_inputs;
    structs[1] = r->old_inputs;
    structs[2] = r->new_outputs;
    structs[3] = r->old_outputs;
  }
  static const char *const id_names[4] = {"urn", "id", "name", "type"};
  pcl_mapbuf b = PCL_MAPBUF_INIT;
  bool ok = true;
  for (size_t i = 0; i < 4; i++) {
    pcl_mapbuf_put_cstr(&b, id_names[i], pcl_str_from_cstr(ids[i] ? ids[i] : ""));
  }
  for (size_t i = 0; ok && i < 4; i++) {
    /* An error hook has no new outputs: the operation failed. */
    if (!(error_hook && i == 2)) {
      ok = hook_struct(&b, names[i], structs[i], err);
    }
  }
  protobuf_c_message_free_unpacked(m, NULL);
  pcl_value *args = pcl_mapbuf_finish(&b);
  if (!ok) {
    pcl_release(args);
    pcl_error_prefix(*err, "the %s of a hook call", d->name);
    return NULL;
  }
  return args;
}

/* Returns the check failures as "property: reason; ..." (owned), or NULL. */
static char *failures_text(Pulumirpc__CheckFailure *const *f, size_t n) {
  if (n == 0) {
    return NULL;
  }
  pcl_strbuf b = PCL_STRBUF_INIT;
  for (size_t i = 0; i < n; i++) {
    pcl_strbuf_appendf(&b, "%s%s%s%s", i ? "; " : "", f[i]->property ? f[i]->property : "",
                       f[i]->property && *f[i]->property ? ": " : "",
                       f[i]->reason ? f[i]->reason : "");
  }
  return b.data ? b.data : pcl_xstrdup("");
}

/* Returns the MAP from each output name of the registration answer r to the
 * LIST of the URNs its propertyDependencies entry lists (owned), or NULL:
 * none listed, or with *err a name or URN that would take more than the
 * value size limit. */
static pcl_value *output_deps_get(const Pulumirpc__RegisterResourceResponse *r, pcl_error **err) {
  if (r->n_propertydependencies == 0) {
    return NULL;
  }
  pcl_mapbuf mb = PCL_MAPBUF_INIT;
  for (size_t i = 0; i < r->n_propertydependencies; i++) {
    const Pulumirpc__RegisterResourceResponse__PropertyDependenciesEntry *e =
        r->propertydependencies[i];
    const char *key = e->key ? e->key : "";
    size_t n = e->value ? e->value->n_urns : 0;
    pcl_value *k = answer_string(key, strlen(key), err);
    pcl_value *l = k && pcl__value_fits(n * sizeof(pcl_value *), "a list", err) ? pcl_list_new(n)
                                                                              : NULL;
    for (size_t j = 0; l && j < n; j++) {
      const char *u = e->value->urns[j] ? e->value->urns[j] : "";
      pcl_value *uv = answer_string(u, strlen(u), err);
      if (uv == NULL) {
        for (size_t rest = j; rest < n; rest++) {
          pcl_list_init_take(l, rest, pcl_null());
        }
        pcl_release(l);
        l = NULL;
        break;
      }
      pcl_list_init_take(l, j, uv);
    }
    if (l == NULL) {
      pcl_release(k);
      pcl_mapbuf_free(&mb);
      return NULL;
    }
    pcl_mapbuf_put_take(&mb, k, l);
  }
  return pcl_mapbuf_finish(&mb);
}

/* The descriptor of each call's answer. */
static const ProtobufCMessageDescriptor *answer_descriptor(pcl__rpc_method m) {
  switch (m) {
  case PCL__RPC_SUPPORTS_FEATURE:
    return &pulumirpc__supports_feature_response__descriptor;
  case PCL__RPC_DEPLOYMENT_INFO:
    return &pulumirpc__deployment_info__descriptor;
  case PCL__RPC_REGISTER:
    return &pulumirpc__register_resource_response__descriptor;
  case PCL__RPC_READ:
    return &pulumirpc__read_resource_response__descriptor;
  case PCL__RPC_INVOKE:
    return &pulumirpc__resource_invoke_response__descriptor;
  case PCL__RPC_CALL:
    return &pulumirpc__call_response__descriptor;
  case PCL__RPC_PACKAGE:
    return &pulumirpc__register_package_response__descriptor;
  case PCL__RPC_EXISTS:
    return &pulumirpc__exists_resource_response__descriptor;
  case PCL__RPC_SET_ROOT:
    return &pulumirpc__set_root_resource_response__descriptor;
  case PCL__RPC_REQUIRE_VERSION:
    return &pulumirpc__require_pulumi_version_response__descriptor;
  case PCL__RPC_OUTPUTS:
  case PCL__RPC_SHUTDOWN:
  case PCL__RPC_LOG:
  case PCL__RPC_RESOURCE_HOOK:
  case PCL__RPC_ERROR_HOOK:
    return &google__protobuf__empty__descriptor;
  case PCL__RPC_NMETHODS:
    break;
  }
  return &google__protobuf__empty__descriptor;
}

bool pcl__rpc_answer_decode(pcl__rpc_method m, const uint8_t *data, size_t len,
                            pcl__rpc_answer *out, pcl_error **err) {
  memset(out, 0, sizeof *out);
  ProtobufCMessage *msg = unpack(answer_descriptor(m), data, len, err);
  if (msg == NULL) {
    return false;
  }
  bool ok = true;
  const Google__Protobuf__Struct *st = NULL;
  switch (m) {
  case PCL__RPC_SUPPORTS_FEATURE:
    out->supported = ((Pulumirpc__SupportsFeatureResponse *)msg)->hassupport;
    break;
  case PCL__RPC_DEPLOYMENT_INFO: {
    Pulumirpc__DeploymentInfo *di = (Pulumirpc__DeploymentInfo *)msg;
    for (size_t i = 0; i < di->n_supportedfeatures; i++) {
      if ((unsigned)di->supportedfeatures[i] < 32) {
        out->features |= 1u << (unsigned)di->supportedfeatures[i];
      }
    }
    break;
  }
  case PCL__RPC_REGISTER: {
    Pulumirpc__RegisterResourceResponse *r = (Pulumirpc__RegisterResourceResponse *)msg;
    out->urn = pcl_xstrdup(r->urn ? r->urn : "");
    out->id = pcl_xstrdup(r->id ? r->id : "");
    out->failed = r->result != PULUMIRPC__RESULT__SUCCESS;
    out->unknown = r->unknown;
    out->output_deps = output_deps_get(r, err);
    ok = out->output_deps != NULL || r->n_propertydependencies == 0;
    st = r->object;
    break;
  }
  case PCL__RPC_READ: {
    Pulumirpc__ReadResourceResponse *r = (Pulumirpc__ReadResourceResponse *)msg;
    out->urn = pcl_xstrdup(r->urn ? r->urn : "");
    out->id = pcl_xstrdup(r->id ? r->id : "");
    out->failed = r->result != PULUMIRPC__RESULT__SUCCESS;
    out->unknown = r->unknown;
    st = r->properties;
    break;
  }
  case PCL__RPC_INVOKE: {
    Pulumirpc__ResourceInvokeResponse *r = (Pulumirpc__ResourceInvokeResponse *)msg;
    out->failures = failures_text(r->failures, r->n_failures);
    st = r->return_;
    break;
  }
  case PCL__RPC_CALL: {
    Pulumirpc__CallResponse *r = (Pulumirpc__CallResponse *)msg;
    out->failures = failures_text(r->failures, r->n_failures);
    st = r->return_;
    break;
  }
  case PCL__RPC_PACKAGE:
    out->ref = pcl_xstrdup(((Pulumirpc__RegisterPackageResponse *)msg)->ref
                               ? ((Pulumirpc__RegisterPackageResponse *)msg)->ref
                               : "");
    break;
  case PCL__RPC_EXISTS:
    out->exists = ((Pulumirpc__ExistsResourceResponse *)msg)->exists;
    out->unknown = ((Pulumirpc__ExistsResourceResponse *)msg)->unknown;
    break;
  case PCL__RPC_OUTPUTS:
  case PCL__RPC_SHUTDOWN:
  case PCL__RPC_LOG:
  case PCL__RPC_RESOURCE_HOOK:
  case PCL__RPC_ERROR_HOOK:
  case PCL__RPC_SET_ROOT:
  case PCL__RPC_REQUIRE_VERSION:
  case PCL__RPC_NMETHODS:
    break;
  }
  const char *texts[] = {out->urn, out->id, out->ref, out->failures};
  for (size_t i = 0; ok && i < sizeof texts / sizeof texts[0]; i++) {
    ok = texts[i] == NULL || pcl__value_fits(strlen(texts[i]), "a string", err);
  }
  if (ok && (st || m == PCL__RPC_REGISTER || m == PCL__RPC_READ || m == PCL__RPC_INVOKE ||
             m == PCL__RPC_CALL)) {
    /* Only an invoke's or call's answer carries output values with their
     * dependencies (when the request accepts them). */
    out->value = decode_struct(st, 0, m == PCL__RPC_INVOKE || m == PCL__RPC_CALL, err);
    ok = out->value != NULL;
  }
  if (ok && (m == PCL__RPC_READ || (m == PCL__RPC_REGISTER && !out->failed)) &&
      *out->urn == '\0') {
    /* Every later request about the resource names it by its URN. */
    *err = pcl_error_new("the URN is empty");
    ok = false;
  }
  protobuf_c_message_free_unpacked(msg, NULL);
  if (!ok) {
    pcl_error_prefix(*err, "the %s answer to %s", answer_descriptor(m)->name, pcl__rpc_path(m));
    pcl__rpc_answer_free(out);
  }
  return ok;
}

void pcl__rpc_answer_free(pcl__rpc_answer *a) {
  free(a->urn);
  free(a->id);
  pcl_release(a->value);
  free(a->failures);
  free(a->ref);
  pcl_release(a->output_deps);
  memset(a, 0, sizeof *a);
}
