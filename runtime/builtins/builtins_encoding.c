/* builtins_encoding.c: the encoding and hashing built-ins: toJSON,
 * toBase64, fromBase64 and sha1 (../shared/spec/functions.md §3).
 *
 * Base64 and SHA-1 go through nettle (D8).  nettle's decoder is lenient
 * where Go's is strict, so fromBase64 first checks the text the way Go's
 * base64.StdEncoding.DecodeString reads it, which also gives the byte
 * offset that Go's error names, and only then lets nettle decode it; the
 * engine protocol's byte strings (rpc_value.c) use the same two functions,
 * pcl__base64_encode and pcl__base64_decode.  JSON comes from the value
 * layer (sorted keys, exact ints, Go's HTML escaping). */
#include <nettle/base64.h>
#include <nettle/sha1.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/builtins_internal.h"
#include "value/pcl_internal.h"

pcl_value *pcl_fn_toJSON(pcl_value *value, pcl_error **err) {
  pcl__bcall c = PCL__BCALL("toJSON", err);
  /* Marks anywhere inside are lifted onto the result. */
  c.secret = pcl_has_secret(value);
  if (pcl__b_has_unknown(value)) {
    c.unknown = true;
    return pcl__b_finish(&c, NULL);
  }
  pcl_error *e = NULL;
  pcl_value *s = pcl_json_to_string(value, PCL_JSON_HTML_ESCAPE, &e);
  if (s == NULL) {
    pcl__b_fail_take(&c, e);
  }
  return pcl__b_finish(&c, s);
}

pcl_value *pcl_fn_toBase64(pcl_value *value, pcl_error **err) {
  pcl__bcall c = PCL__BCALL("toBase64", err);
  pcl_value *s = pcl__b_string(&c, "value", value);
  pcl_value *result = s != NULL ? pcl__b_base64(&c, pcl_str_data(s), pcl_str_len(s)) : NULL;
  pcl_release(s);
  return pcl__b_finish(&c, result);
}

/* Returns whether c is in the standard base64 alphabet. */
static bool b64_char(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' ||
         c == '/';
}

static bool newline(unsigned char c) { return c == '\n' || c == '\r'; }

/* Checks the base64 text s[0..len) as Go's decoder (encoding/base64,
 * StdEncoding, decodeQuantum) reads it: quanta of four alphabet characters,
 * CR and LF skipped anywhere, the last quantum padded with "=" or "==" and
 * nothing but line breaks after it.  Returns true when the text is valid,
 * else false with the offset Go's CorruptInputError reports in *bad. */
static bool go_base64_check(const unsigned char *s, size_t len, size_t *bad) {
  size_t si = 0;
  while (si < len) {
    for (int j = 0; j < 4; j++) {
      if (si == len) {
        if (j == 0) {
          return true;
        }
        /* A quantum cut short: padding was required. */
        *bad = si - (size_t)j;
        return false;
      }
      unsigned char in = s[si++];
      if (b64_char(in)) {
        continue;
      }
      if (newline(in)) {
        j--;
        continue;
      }
      if (in != '=' || j < 2) {
        /* A character outside the alphabet, or padding too early. */
        *bad = si - 1;
        return false;
      }
      if (j == 2) {
        /* "==" is expected; the first "=" is consumed. */
        while (si < len && newline(s[si])) {
          si++;
        }
        if (si == len) {
          *bad = len;
          return false;
        }
        if (s[si] != '=') {
          *bad = si - 1;
          return false;
        }
        si++;
      }
      while (si < len && newline(s[si])) {
        si++;
      }
      if (si < len) {
        /* Trailing garbage after the padding. */
        *bad = si;
        return false;
      }
      return true;
    }
  }
  return true;
}

/* Go decodes leniently ("YR==" is "a") where nettle insists that the bits
 * below the last byte are zero: clears them in the last character before
 * the padding of the valid, line-break-free text s[0..n). */
static void clear_trailing_bits(char *s, size_t n) {
  static const char alphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  size_t pad = 0;
  while (pad < 2 && pad < n && s[n - 1 - pad] == '=') {
    pad++;
  }
  if (pad == 0 || n < pad + 1) {
    return;
  }
  char *last = &s[n - 1 - pad];
  const char *at = strchr(alphabet, *last);
  if (at == NULL || *last == '\0') {
    return;
  }
  /* Two "=": the character carries 2 bits of data; one "=": 4 bits. */
  unsigned v = (unsigned)(at - alphabet) & (pad == 2 ? 0x30u : 0x3Cu);
  *last = alphabet[v];
}

pcl_value *pcl__b_base64(pcl__bcall *c, const char *data, size_t len) {
  /* Four characters for every three bytes, counted before the text is. */
  pcl_error *e = NULL;
  if (!pcl__value_fits(len / 3 * 4 + (len % 3 ? 4 : 0), "the base64 text", &e)) {
    pcl__b_fail_take(c, e);
    return NULL;
  }
  pcl_strbuf b = PCL_STRBUF_INIT;
  pcl__base64_encode(&b, (const uint8_t *)data, len);
  pcl_value *r = pcl__str_raw(b.data != NULL ? b.data : "", b.len, true);
  pcl_strbuf_free(&b);
  return r;
}

void pcl__base64_encode(pcl_strbuf *b, const uint8_t *data, size_t len) {
  size_t n = BASE64_ENCODE_RAW_LENGTH(len);
  char *out = pcl_xmalloc(n + 1);
  base64_encode_raw(out, len, data);
  pcl_strbuf_append(b, out, n);
  free(out);
}

bool pcl__base64_decode(const char *s, size_t len, pcl_strbuf *out, size_t *bad) {
  const unsigned char *in = (const unsigned char *)s;
  if (!go_base64_check(in, len, bad)) {
    return false;
  }
  /* Valid text without its line breaks decodes the same in nettle. */
  char *clean = pcl_xmalloc(len + 1);
  size_t n = 0;
  for (size_t i = 0; i < len; i++) {
    if (!newline(in[i])) {
      clean[n++] = (char)in[i];
    }
  }
  clear_trailing_bits(clean, n);
  size_t out_len = BASE64_DECODE_LENGTH(n) + 1;
  uint8_t *bytes = pcl_xmalloc(out_len);
  struct base64_decode_ctx ctx;
  base64_decode_init(&ctx);
  bool ok = base64_decode_update(&ctx, &out_len, bytes, n, clean) && base64_decode_final(&ctx);
  if (ok) {
    pcl_strbuf_append(out, (const char *)bytes, out_len);
  } else {
    /* The check above admits only what nettle decodes; should that ever
     * differ, the text is refused as a whole. */
    *bad = 0;
  }
  free(bytes);
  free(clean);
  return ok;
}

pcl_value *pcl_fn_fromBase64(pcl_value *value, pcl_error **err) {
  pcl__bcall c = PCL__BCALL("fromBase64", err);
  pcl_value *s = pcl__b_string(&c, "value", value);
  pcl_value *result = NULL;
  if (s != NULL) {
    pcl_strbuf b = PCL_STRBUF_INIT;
    size_t bad = 0;
    if (!pcl__base64_decode(pcl_str_data(s), pcl_str_len(s), &b, &bad)) {
      pcl__b_fail(&c, "invalid base64 data: illegal base64 data at input byte %zu", bad);
    } else {
      result = pcl_str_new_lossy(b.data != NULL ? b.data : "", b.len);
    }
    pcl_strbuf_free(&b);
  }
  pcl_release(s);
  return pcl__b_finish(&c, result);
}

pcl_value *pcl_fn_sha1(pcl_value *input, pcl_error **err) {
  pcl__bcall c = PCL__BCALL("sha1", err);
  pcl_value *s = pcl__b_string(&c, "input", input);
  pcl_value *result = NULL;
  if (s != NULL) {
    static const char hex[] = "0123456789abcdef";
    struct sha1_ctx ctx;
    uint8_t digest[SHA1_DIGEST_SIZE];
    sha1_init(&ctx);
    sha1_update(&ctx, pcl_str_len(s), (const uint8_t *)pcl_str_data(s));
    sha1_digest(&ctx, SHA1_DIGEST_SIZE, digest);
    char text[2 * SHA1_DIGEST_SIZE];
    for (size_t i = 0; i < SHA1_DIGEST_SIZE; i++) {
      text[2 * i] = hex[digest[i] >> 4];
      text[2 * i + 1] = hex[digest[i] & 0xF];
    }
    result = pcl_str_new_lossy(text, sizeof text);
  }
  pcl_release(s);
  return pcl__b_finish(&c, result);
}
