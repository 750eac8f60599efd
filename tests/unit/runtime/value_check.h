/* value_check.h: helpers shared by the value-layer unit tests
 * (test_value.c, test_int.c, test_number.c, test_str.c, test_json.c).
 *
 * LEAK_BEGIN/LEAK_END bracket a test body and assert that it left no heap
 * value and no GMP block alive; binop applies an operator to operands it
 * releases; the check_* helpers compare a value's text with an expectation
 * and release what they are given. */
#ifndef VALUE_CHECK_H
#define VALUE_CHECK_H

#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "pcl_gen.h"

#define LEAK_BEGIN                                   \
  size_t leak_values0 = pcl_rt_live_values();        \
  size_t leak_bytes0 = pcl_rt_live_bytes()

#define LEAK_END                                               \
  do {                                                         \
    CU_ASSERT_EQUAL(pcl_rt_live_values(), leak_values0);       \
    CU_ASSERT_EQUAL(pcl_rt_live_bytes(), leak_bytes0);         \
  } while (0)

/* Returns the value of a numeric literal (asserting that it parses). */
static inline pcl_value *lit(const char *text) {
  pcl_error *err = NULL;
  pcl_value *v = pcl_num_literal(text, strlen(text), &err);
  CU_ASSERT_PTR_NOT_NULL(v);
  if (v == NULL) {
    pcl_error_free(err);
    return pcl_null();
  }
  return v;
}

/* Returns op(a, b) for operands it steals (released here). */
static inline pcl_value *binop(pcl_value *(*op)(const pcl_value *, const pcl_value *,
                                                pcl_error **),
                               pcl_value *a, pcl_value *b, pcl_error **err) {
  pcl_value *r = op(a, b, err);
  pcl_release(a);
  pcl_release(b);
  return r;
}

/* Returns a string value of the NUL-terminated s. */
static inline pcl_value *str(const char *s) { return pcl_str_from_cstr(s); }

/* Returns the template text of v as a heap C string (free()). */
static inline char *text_of(const pcl_value *v) {
  pcl_strbuf b = PCL_STRBUF_INIT;
  pcl_error *err = NULL;
  if (!pcl_strbuf_append_value(&b, v, &err)) {
    pcl_error_free(err);
    pcl_strbuf_free(&b);
    return pcl_xstrdup("<no text>");
  }
  pcl_strbuf_append(&b, "", 0);
  return b.data;
}

/* Asserts that v (stolen; NULL fails) has kind k and text want. */
#define CHECK_VALUE(v, k, want) check_value_at((v), (k), (want), __LINE__)
static inline void check_value_at(pcl_value *v, pcl_kind k, const char *want, int line) {
  CU_ASSERT_PTR_NOT_NULL_FATAL(v);
  char *got = text_of(v);
  if (pcl_kind_of(v) != k || strcmp(got, want) != 0) {
    fprintf(stderr, "\nline %d: got %s %s, want %s %s\n", line, pcl_kind_name(pcl_kind_of(v)),
            got, pcl_kind_name(k), want);
  }
  CU_ASSERT_EQUAL(pcl_kind_of(v), k);
  CU_ASSERT_STRING_EQUAL(got, want);
  free(got);
  pcl_release(v);
}

/* Asserts that v is NULL and err holds a message containing want (the
 * error is freed). */
#define CHECK_ERROR(v, err, want) check_error_at((v), (err), (want), __LINE__)
static inline void check_error_at(pcl_value *v, pcl_error *err, const char *want, int line) {
  CU_ASSERT_PTR_NULL(v);
  pcl_release(v);
  CU_ASSERT_PTR_NOT_NULL_FATAL(err);
  const char *msg = pcl_error_message(err);
  if (strstr(msg, want) == NULL) {
    fprintf(stderr, "\nline %d: error \"%s\" does not contain \"%s\"\n", line, msg, want);
  }
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, want));
  pcl_error_free(err);
}

#endif
