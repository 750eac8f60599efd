/* builtins_check.h: helpers shared by the built-in function tests
 * (test_builtins_coll.c, test_builtins_encoding.c, test_builtins_file.c,
 * test_builtins_misc.c).
 *
 * J() builds a value from JSON text; show() prints a value in a compact,
 * unambiguous form that also shows marks and special kinds (secret(...),
 * unknown, asset:file("p"), ...); CHECK_SHOW compares a result with such a
 * text and CHECK_FAILS compares a failure's message exactly.  Both release
 * what they are given, so test bodies stay leak-free under BLEAK_BEGIN /
 * BLEAK_END, which assert that no heap value was left alive. */
#ifndef BUILTINS_CHECK_H
#define BUILTINS_CHECK_H

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pcl_gen.h"

#define BLEAK_BEGIN size_t bleak_values0 = pcl_rt_live_values()
#define BLEAK_END CU_ASSERT_EQUAL(pcl_rt_live_values(), bleak_values0)

/* Returns the value of the JSON text (asserting that it parses). */
static inline pcl_value *J(const char *json) {
  pcl_error *err = NULL;
  pcl_value *v = pcl_json_decode(json, strlen(json), 0, &err);
  CU_ASSERT_PTR_NOT_NULL(v);
  if (v == NULL) {
    fprintf(stderr, "\nbad test JSON %s: %s\n", json, pcl_error_message(err));
    pcl_error_free(err);
    return pcl_null();
  }
  return v;
}

/* Returns the string value of the NUL-terminated s. */
static inline pcl_value *S(const char *s) { return pcl_str_from_cstr(s); }

/* Returns an owned secret wrapping v, which is stolen. */
static inline pcl_value *SECRET_TAKE(pcl_value *v) {
  pcl_value *s = pcl_secret_new(v);
  pcl_release(v);
  return s;
}

/* Appends the compact form of v to b. */
static inline void show_into(pcl_strbuf *b, const pcl_value *v) {
  pcl_error *err = NULL;
  switch (pcl_kind_of(v)) {
  case PCL_T_NULL:
  case PCL_T_BOOL:
  case PCL_T_INT:
  case PCL_T_NUMBER:
  case PCL_T_STRING: {
    char *text = pcl_json_encode(v, 0, NULL, &err);
    if (text == NULL) {
      /* Infinity has no JSON form. */
      pcl_strbuf_append_cstr(b, pcl_number_get(v) > 0 ? "+Inf" : "-Inf");
      pcl_error_free(err);
    } else {
      pcl_strbuf_append_cstr(b, text);
      free(text);
    }
    return;
  }
  case PCL_T_LIST:
  case PCL_T_SET:
    pcl_strbuf_append_cstr(b, pcl_kind_of(v) == PCL_T_SET ? "set[" : "[");
    for (size_t i = 0; i < pcl_len(v); i++) {
      if (i > 0) {
        pcl_strbuf_append_char(b, ',');
      }
      show_into(b, pcl_list_at(v, i));
    }
    pcl_strbuf_append_char(b, ']');
    return;
  case PCL_T_MAP:
    pcl_strbuf_append_char(b, '{');
    for (size_t i = 0; i < pcl_len(v); i++) {
      if (i > 0) {
        pcl_strbuf_append_char(b, ',');
      }
      show_into(b, pcl_map_key_at(v, i));
      pcl_strbuf_append_char(b, ':');
      show_into(b, pcl_map_val_at(v, i));
    }
    pcl_strbuf_append_char(b, '}');
    return;
  case PCL_T_RESOURCE:
    pcl_strbuf_append_cstr(b, "resource(");
    show_into(b, pcl_resource_urn(v));
    pcl_strbuf_append_char(b, ')');
    return;
  case PCL_T_ASSET: {
    static const char *const kinds[] = {"file", "string", "remote"};
    pcl_strbuf_appendf(b, "asset:%s(", kinds[pcl_asset_kind_of(v)]);
    show_into(b, pcl_asset_payload(v));
    pcl_strbuf_append_char(b, ')');
    return;
  }
  case PCL_T_ARCHIVE: {
    static const char *const kinds[] = {"file", "remote", "assets"};
    pcl_strbuf_appendf(b, "archive:%s(", kinds[pcl_archive_kind_of(v)]);
    show_into(b, pcl_asset_payload(v));
    pcl_strbuf_append_char(b, ')');
    return;
  }
  case PCL_T_UNKNOWN:
    pcl_strbuf_append_cstr(b, "unknown");
    return;
  case PCL_T_SECRET:
    pcl_strbuf_append_cstr(b, "secret(");
    show_into(b, pcl_secret_inner(v));
    pcl_strbuf_append_char(b, ')');
    return;
  case PCL_T_EVENTUAL:
    pcl_strbuf_append_cstr(b, "eventual");
    return;
  }
}

/* Returns the compact form of v as a heap C string (free()). */
static inline char *show(const pcl_value *v) {
  pcl_strbuf b = PCL_STRBUF_INIT;
  show_into(&b, v);
  pcl_strbuf_append(&b, "", 0);
  return b.data;
}

/* Asserts that v (stolen) is not NULL and shows as want; err must be NULL.
 * v is evaluated before err is read. */
#define CHECK_SHOW(v, err, want)                 \
  do {                                           \
    pcl_value *v_ = (v);                         \
    check_show_at(v_, (err), (want), __LINE__);  \
  } while (0)
static inline void check_show_at(pcl_value *v, pcl_error *err, const char *want, int line) {
  if (v == NULL) {
    fprintf(stderr, "\nline %d: failed (%s), want %s\n", line,
            err != NULL ? pcl_error_message(err) : "no error", want);
    CU_FAIL("unexpected failure");
    pcl_error_free(err);
    return;
  }
  CU_ASSERT_PTR_NULL(err);
  char *got = show(v);
  if (strcmp(got, want) != 0) {
    fprintf(stderr, "\nline %d: got %s, want %s\n", line, got, want);
  }
  CU_ASSERT_STRING_EQUAL(got, want);
  free(got);
  pcl_release(v);
}

/* Asserts that v is NULL and that err (freed) has exactly the message want.
 * v is evaluated before err is read. */
#define CHECK_FAILS(v, err, want)                \
  do {                                           \
    pcl_value *v_ = (v);                         \
    check_fails_at(v_, (err), (want), __LINE__); \
  } while (0)
static inline void check_fails_at(pcl_value *v, pcl_error *err, const char *want, int line) {
  if (v != NULL) {
    char *got = show(v);
    fprintf(stderr, "\nline %d: got %s, want failure \"%s\"\n", line, got, want);
    free(got);
    pcl_release(v);
    CU_FAIL("unexpected success");
    pcl_error_free(err);
    return;
  }
  CU_ASSERT_PTR_NOT_NULL_FATAL(err);
  const char *msg = pcl_error_message(err);
  if (strcmp(msg, want) != 0) {
    fprintf(stderr, "\nline %d: message \"%s\", want \"%s\"\n", line, msg, want);
  }
  CU_ASSERT_STRING_EQUAL(msg, want);
  pcl_error_free(err);
}

/* Calls fn on the values a (and b), which it steals, checks the outcome
 * with check (check_show_at or check_fails_at) and releases the arguments. */
#define CALL1(check, fn, a, want)  \
  do {                             \
    pcl_error *e_ = NULL;          \
    pcl_value *a_ = (a);           \
    pcl_value *r_ = fn(a_, &e_);   \
    pcl_release(a_);               \
    check(r_, e_, want, __LINE__); \
  } while (0)
#define CALL2(check, fn, a, b, want)   \
  do {                                 \
    pcl_error *e_ = NULL;              \
    pcl_value *a_ = (a), *b_ = (b);    \
    pcl_value *r_ = fn(a_, b_, &e_);   \
    pcl_release(a_);                   \
    pcl_release(b_);                   \
    check(r_, e_, want, __LINE__);     \
  } while (0)
/* Calls fn on arguments given as JSON and checks the result (T*) or the
 * failure (F*). */
#define T1(fn, a, want) CALL1(check_show_at, fn, J(a), want)
#define F1(fn, a, want) CALL1(check_fails_at, fn, J(a), want)
#define T2(fn, a, b, want) CALL2(check_show_at, fn, J(a), J(b), want)
#define F2(fn, a, b, want) CALL2(check_fails_at, fn, J(a), J(b), want)
/* The same with values built by the caller. */
#define V1(fn, a, want) CALL1(check_show_at, fn, a, want)
#define V2(fn, a, b, want) CALL2(check_show_at, fn, a, b, want)
#define VF1(fn, a, want) CALL1(check_fails_at, fn, a, want)
#define VF2(fn, a, b, want) CALL2(check_fails_at, fn, a, b, want)

/* Returns the list of the given values, each stolen. */
static inline pcl_value *LIST2(pcl_value *a, pcl_value *b) {
  pcl_value *items[2] = {a, b};
  return pcl_list_of_take(items, 2);
}

#endif
