/* test_int.c: exact ints: the int64 fast path and its promotion to GMP at
 * the edges, demotion of results that fit, arithmetic far beyond 64 bits,
 * truncated remainder, division into numbers rounded once, exact int/number
 * comparisons, ties-to-even rounding of huge ints to doubles, decimal
 * literals of any size, and GMP's bytes returning to zero. */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pcl_gen.h"
#include "value_check.h"

/* 2^200. */
#define TWO_200 "1606938044258990275541962092341162602522202993782792835301376"

static void test_overflow_promotion(void) {
  LEAK_BEGIN;
  pcl_error *err = NULL;
  pcl_value *max = pcl_int_new(INT64_MAX);
  pcl_value *min = pcl_int_new(INT64_MIN);
  pcl_value *one = pcl_int_new(1);
  pcl_value *m1 = pcl_int_new(-1);

  pcl_value *p = pcl_op_add(max, one, &err);
  CU_ASSERT_TRUE(p->flags & PCL_F_BIGINT);
  int64_t out;
  CU_ASSERT_FALSE(pcl_int_get_i64(p, &out));
  CHECK_VALUE(pcl_retain(p), PCL_T_INT, "9223372036854775808");
  /* Back into range: demoted to the int64 form. */
  pcl_value *q = pcl_op_sub(p, one, &err);
  CU_ASSERT_FALSE(q->flags & PCL_F_BIGINT);
  CU_ASSERT_TRUE(pcl_int_get_i64(q, &out));
  CU_ASSERT_EQUAL(out, INT64_MAX);
  CU_ASSERT_TRUE(pcl_equal(q, max));
  pcl_release(p);
  pcl_release(q);

  CHECK_VALUE(pcl_op_sub(min, one, &err), PCL_T_INT, "-9223372036854775809");
  CHECK_VALUE(pcl_op_neg(min, &err), PCL_T_INT, "9223372036854775808");
  CHECK_VALUE(pcl_op_mul(min, m1, &err), PCL_T_INT, "9223372036854775808");
  CHECK_VALUE(pcl_op_mul(max, max, &err), PCL_T_INT, "85070591730234615847396907784232501249");
  CHECK_VALUE(pcl_op_mod(min, m1, &err), PCL_T_INT, "0");
  CHECK_VALUE(pcl_op_add(min, max, &err), PCL_T_INT, "-1");
  pcl_release(max);
  pcl_release(min);
  LEAK_END;
}

static void test_big_arithmetic(void) {
  LEAK_BEGIN;
  pcl_error *err = NULL;
  pcl_value *two = pcl_int_new(2);
  pcl_value *acc = pcl_int_new(1);
  for (int i = 0; i < 200; i++) {
    pcl_value *next = pcl_op_mul(acc, two, &err);
    pcl_release(acc);
    acc = next;
  }
  pcl_value *want = lit(TWO_200);
  CU_ASSERT_TRUE(pcl_equal(acc, want));
  pcl_release(want);
  /* The same value written with a fraction and an exponent. */
  want = lit("1.606938044258990275541962092341162602522202993782792835301376e60");
  CU_ASSERT_EQUAL(pcl_kind_of(want), PCL_T_INT);
  CU_ASSERT_TRUE(pcl_equal(acc, want));
  pcl_release(want);

  /* (2^200 + 1) - 2^200 is a small int again. */
  pcl_value *one = pcl_int_new(1);
  pcl_value *p = pcl_op_add(acc, one, &err);
  CHECK_VALUE(pcl_retain(p), PCL_T_INT, "1606938044258990275541962092341162602522202993782792835301377");
  pcl_value *d = pcl_op_sub(p, acc, &err);
  CU_ASSERT_FALSE(d->flags & PCL_F_BIGINT);
  CHECK_VALUE(d, PCL_T_INT, "1");
  /* 2^200 * 2^200 = 2^400, and 2^400 % (2^200 + 1) = 1. */
  pcl_value *sq = pcl_op_mul(acc, acc, &err);
  CHECK_VALUE(pcl_op_mod(sq, p, &err), PCL_T_INT, "1");
  CHECK_VALUE(pcl_op_neg(sq, &err), PCL_T_INT,
              "-2582249878086908589655919172003011874329705792829223512830659356540647622016841194"
              "629645353280137831435903171972747493376");
  /* Truncated remainder with big operands follows the dividend's sign. */
  pcl_value *nsq = pcl_op_neg(sq, &err);
  CHECK_VALUE(pcl_op_mod(nsq, p, &err), PCL_T_INT, "-1");
  /* 2^200 = 4 * 8^66, and 8 % 7 = 1. */
  CHECK_VALUE(binop(pcl_op_mod, pcl_retain(acc), pcl_int_new(7), &err), PCL_T_INT, "4");
  /* 2^200 / 2^199 is exactly 2, as a number. */
  pcl_value *half = binop(pcl_op_div, pcl_retain(acc), pcl_int_new(2), &err);
  CHECK_VALUE(pcl_op_div(acc, half, &err), PCL_T_NUMBER, "2");
  pcl_release(half);
  pcl_release(nsq);
  pcl_release(sq);
  pcl_release(p);
  pcl_release(acc);
  pcl_release(two);
  LEAK_END;
}

static void test_remainder_and_zero(void) {
  LEAK_BEGIN;
  pcl_error *err = NULL;
  CHECK_VALUE(binop(pcl_op_mod, pcl_int_new(-7), pcl_int_new(3), &err), PCL_T_INT, "-1");
  CHECK_VALUE(binop(pcl_op_mod, pcl_int_new(7), pcl_int_new(-3), &err), PCL_T_INT, "1");
  CHECK_VALUE(binop(pcl_op_mod, pcl_int_new(-7), pcl_int_new(-3), &err), PCL_T_INT, "-1");
  CHECK_VALUE(binop(pcl_op_div, pcl_int_new(5), pcl_int_new(2), &err), PCL_T_NUMBER, "2.5");
  CHECK_VALUE(binop(pcl_op_div, pcl_int_new(-6), pcl_int_new(3), &err), PCL_T_NUMBER, "-2");

  pcl_value *r = binop(pcl_op_div, pcl_int_new(5), pcl_int_new(0), &err);
  CHECK_ERROR(r, err, "cannot compute 5 / 0: division by zero");
  err = NULL;
  r = binop(pcl_op_mod, lit(TWO_200), pcl_int_new(0), &err);
  CHECK_ERROR(r, err, "division by zero");
  err = NULL;
  /* A number dividend with an int zero divisor is an error too. */
  r = binop(pcl_op_div, pcl_number_new(1.5), pcl_int_new(0), &err);
  CHECK_ERROR(r, err, "division by zero");
  LEAK_END;
}

static void test_division_rounding(void) {
  LEAK_BEGIN;
  pcl_error *err = NULL;
  pcl_value *r = binop(pcl_op_div, pcl_int_new(1), pcl_int_new(3), &err);
  CU_ASSERT_EQUAL(pcl_number_get(r), 1.0 / 3.0);
  pcl_release(r);
  /* 10^30 / 3, rounded once from the exact quotient. */
  r = binop(pcl_op_div, lit("1e30"), pcl_int_new(3), &err);
  CU_ASSERT_EQUAL(pcl_number_get(r), strtod("333333333333333333333333333333.3333333333", NULL));
  pcl_release(r);
  /* (2^200 + 1) / 2^200 is just above 1: rounds to 1. */
  r = binop(pcl_op_div, lit("1606938044258990275541962092341162602522202993782792835301377"),
            lit(TWO_200), &err);
  CU_ASSERT_EQUAL(pcl_number_get(r), 1.0);
  pcl_release(r);
  /* (2^54 + 3) / 2: the exact 2^53 + 1.5 rounds up to 2^53 + 2, which
   * truncating the quotient to an int first would miss. */
  r = binop(pcl_op_div, lit("18014398509481987"), pcl_int_new(2), &err);
  CU_ASSERT_EQUAL(pcl_number_get(r), 9007199254740994.0);
  pcl_release(r);
  /* A quotient below the normal range is rounded at subnormal precision:
   * 1 / 2^1074 is the smallest subnormal, 3 / 2^1076 rounds to it. */
  pcl_value *p1074 = pcl_int_new(1), *two = pcl_int_new(2);
  for (int i = 0; i < 1074; i++) {
    pcl_value *n = pcl_op_mul(p1074, two, &err);
    pcl_release(p1074);
    p1074 = n;
  }
  r = pcl_op_div(pcl_int_new(1), p1074, &err);
  CU_ASSERT_EQUAL(pcl_number_get(r), 4.9406564584124654e-324);
  pcl_release(r);
  pcl_value *p1076 = binop(pcl_op_mul, pcl_retain(p1074), pcl_int_new(4), &err);
  r = pcl_op_div(pcl_int_new(3), p1076, &err);
  CU_ASSERT_EQUAL(pcl_number_get(r), 4.9406564584124654e-324);
  pcl_release(r);
  /* 1 / 2^1076 is a quarter of the smallest subnormal: 0. */
  r = pcl_op_div(pcl_int_new(1), p1076, &err);
  CU_ASSERT_EQUAL(pcl_number_get(r), 0.0);
  pcl_release(r);
  pcl_release(p1076);
  pcl_release(p1074);
  LEAK_END;
}

static void test_to_double_ties_to_even(void) {
  LEAK_BEGIN;
  /* 2^53 + 1 is a tie: to even, 2^53.  2^53 + 3 is a tie: to even, 2^53 + 4
   * (truncation would give 2^53 + 2). */
  pcl_value *v = lit("9007199254740993");
  CU_ASSERT_EQUAL(pcl_num_to_double(v), 9007199254740992.0);
  pcl_release(v);
  v = lit("9007199254740995");
  CU_ASSERT_EQUAL(pcl_num_to_double(v), 9007199254740996.0);
  pcl_release(v);
  v = lit("-9007199254740995");
  CU_ASSERT_EQUAL(pcl_num_to_double(v), -9007199254740996.0);
  pcl_release(v);
  /* INT64_MAX rounds up to 2^63. */
  v = pcl_int_new(INT64_MAX);
  CU_ASSERT_EQUAL(pcl_num_to_double(v), 9223372036854775808.0);
  pcl_release(v);
  /* Around 2^200 the spacing of doubles is 2^148. */
  pcl_error *err = NULL;
  pcl_value *two = pcl_int_new(2);
  pcl_value *p147 = pcl_int_new(1);
  for (int i = 0; i < 147; i++) {
    pcl_value *n = pcl_op_mul(p147, two, &err);
    pcl_release(p147);
    p147 = n;
  }
  pcl_value *base = lit(TWO_200);
  double d200 = ldexp(1.0, 200);
  pcl_value *tie = pcl_op_add(base, p147, &err); /* 2^200 + half an ulp. */
  CU_ASSERT_EQUAL(pcl_num_to_double(tie), d200);
  pcl_value *above = binop(pcl_op_add, pcl_retain(tie), pcl_int_new(1), &err);
  CU_ASSERT_EQUAL(pcl_num_to_double(above), d200 + ldexp(1.0, 148));
  pcl_value *three = binop(pcl_op_mul, pcl_retain(p147), pcl_int_new(3), &err);
  pcl_value *tie2 = pcl_op_add(base, three, &err); /* 1.5 ulp: to even, 2 ulp. */
  CU_ASSERT_EQUAL(pcl_num_to_double(tie2), d200 + ldexp(1.0, 149));
  /* Beyond the double range: infinity. */
  pcl_value *huge = lit("1e400");
  CU_ASSERT_TRUE(isinf(pcl_num_to_double(huge)));
  pcl_value *values[] = {two, p147, base, tie, above, three, tie2, huge};
  for (size_t i = 0; i < 8; i++) {
    pcl_release(values[i]);
  }
  LEAK_END;
}

static void test_mixed_comparisons(void) {
  LEAK_BEGIN;
  pcl_error *err = NULL;
  /* 2^53 + 1 as an int is above the number 2^53, although it converts to
   * it. */
  pcl_value *i = lit("9007199254740993");
  pcl_value *n = pcl_number_new(9007199254740992.0);
  CU_ASSERT_TRUE(pcl_num_compare(i, n) > 0);
  CU_ASSERT_TRUE(pcl_num_compare(n, i) < 0);
  CU_ASSERT_FALSE(pcl_equal(i, n));
  CHECK_VALUE(pcl_op_gt(i, n, &err), PCL_T_BOOL, "true");
  CHECK_VALUE(pcl_op_le(i, n, &err), PCL_T_BOOL, "false");
  pcl_release(i);
  pcl_release(n);
  /* Non-integral numbers between ints. */
  i = pcl_int_new(3);
  n = pcl_number_new(3.5);
  CU_ASSERT_TRUE(pcl_num_compare(i, n) < 0);
  pcl_release(n);
  n = pcl_number_new(2.5);
  CU_ASSERT_TRUE(pcl_num_compare(i, n) > 0);
  pcl_release(n);
  pcl_release(i);
  i = pcl_int_new(-3);
  n = pcl_number_new(-3.5);
  CU_ASSERT_TRUE(pcl_num_compare(i, n) > 0);
  pcl_release(n);
  n = pcl_number_new(-3.0);
  CU_ASSERT_EQUAL(pcl_num_compare(i, n), 0);
  CU_ASSERT_TRUE(pcl_equal(i, n));
  pcl_release(n);
  pcl_release(i);
  /* Huge ints against huge and infinite numbers. */
  i = lit("1e400");
  n = pcl_number_new(1e308);
  CU_ASSERT_TRUE(pcl_num_compare(i, n) > 0);
  pcl_release(n);
  n = pcl_number_new(HUGE_VAL);
  CU_ASSERT_TRUE(pcl_num_compare(i, n) < 0);
  pcl_release(n);
  n = pcl_number_new(-HUGE_VAL);
  CU_ASSERT_TRUE(pcl_num_compare(i, n) > 0);
  pcl_release(n);
  pcl_release(i);
  /* 1e22 is exactly representable: equal to the int 10^22. */
  i = lit("10000000000000000000000");
  n = pcl_number_new(1e22);
  CU_ASSERT_TRUE(pcl_equal(i, n));
  pcl_release(n);
  n = pcl_number_new(1e23); /* Not exact: 99999999999999991611392. */
  CU_ASSERT_FALSE(pcl_equal(i, n));
  pcl_release(n);
  pcl_release(i);
  i = lit("1e23");
  n = pcl_number_new(1e23);
  CU_ASSERT_TRUE(pcl_num_compare(i, n) > 0);
  pcl_release(n);
  pcl_release(i);
  /* Big ints among themselves. */
  pcl_value *a = lit("-1e30"), *b = lit("-1e29"), *c = lit("1e29");
  CU_ASSERT_TRUE(pcl_num_compare(a, b) < 0);
  CU_ASSERT_TRUE(pcl_num_compare(b, c) < 0);
  CU_ASSERT_TRUE(pcl_num_compare(c, a) > 0);
  pcl_release(a);
  pcl_release(b);
  pcl_release(c);
  LEAK_END;
}

static void test_literals(void) {
  LEAK_BEGIN;
  pcl_value *v = lit("1e40");
  CU_ASSERT_EQUAL(pcl_kind_of(v), PCL_T_INT);
  CHECK_VALUE(v, PCL_T_INT, "10000000000000000000000000000000000000000");
  CHECK_VALUE(lit("42"), PCL_T_INT, "42");
  CHECK_VALUE(lit("1.0"), PCL_T_INT, "1");
  CHECK_VALUE(lit("1e3"), PCL_T_INT, "1000");
  CHECK_VALUE(lit("1.5e1"), PCL_T_INT, "15");
  CHECK_VALUE(lit("1500e-2"), PCL_T_INT, "15");
  CHECK_VALUE(lit("3000000000"), PCL_T_INT, "3000000000");
  CHECK_VALUE(lit("-0"), PCL_T_INT, "0");
  CHECK_VALUE(lit("0.000"), PCL_T_INT, "0");
  CHECK_VALUE(lit("0e99999999999"), PCL_T_INT, "0");
  CHECK_VALUE(lit("5."), PCL_T_INT, "5");
  CHECK_VALUE(lit("007"), PCL_T_INT, "7");
  CHECK_VALUE(lit("-123456789012345678901234567890"), PCL_T_INT,
              "-123456789012345678901234567890");
  CHECK_VALUE(lit("999999999999999999"), PCL_T_INT, "999999999999999999");
  CHECK_VALUE(lit("9999999999999999999"), PCL_T_INT, "9999999999999999999");
  CHECK_VALUE(lit("3.14"), PCL_T_NUMBER, "3.14");
  CHECK_VALUE(lit("1e-3"), PCL_T_NUMBER, "0.001");
  CHECK_VALUE(lit(".5"), PCL_T_NUMBER, "0.5");
  CHECK_VALUE(lit("0.1"), PCL_T_NUMBER, "0.1");
  CHECK_VALUE(lit("-2.50"), PCL_T_NUMBER, "-2.5");
  v = lit("1e400");
  char *t = text_of(v);
  CU_ASSERT_EQUAL(strlen(t), 401);
  CU_ASSERT_EQUAL(t[0], '1');
  CU_ASSERT_EQUAL(strspn(t + 1, "0"), 400);
  free(t);
  pcl_release(v);

  pcl_error *err = NULL;
  const char *bad[] = {"", "-", ".", "e3", "1e", "1e+", "1.2.3", "abc", "0x10", " 1", "1 ", "Inf",
                       "1_000"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    err = NULL;
    v = pcl_num_literal(bad[i], strlen(bad[i]), &err);
    CHECK_ERROR(v, err, "is not a number");
  }
  err = NULL;
  v = pcl_num_literal("1e100001", 8, &err);
  CHECK_ERROR(v, err, "more than 100000 digits");
  LEAK_END;
}

static void test_int_parse(void) {
  LEAK_BEGIN;
  pcl_error *err = NULL;
  CHECK_VALUE(pcl_int_parse("123456789012345678901234567890", 30, &err), PCL_T_INT,
              "123456789012345678901234567890");
  CHECK_VALUE(pcl_int_parse("-17", 3, &err), PCL_T_INT, "-17");
  CHECK_VALUE(pcl_int_parse("1e3", 3, &err), PCL_T_INT, "1000");
  pcl_value *v = pcl_int_parse("1.5", 3, &err);
  CHECK_ERROR(v, err, "cannot convert \"1.5\" to int: not an integer");
  err = NULL;
  v = pcl_int_parse("abc", 3, &err);
  CHECK_ERROR(v, err, "cannot convert \"abc\" to int: a number is required");
  err = NULL;
  v = pcl_int_parse("Inf", 3, &err);
  CHECK_ERROR(v, err, "not an integer");
  int64_t out = 0;
  v = pcl_int_parse("-9223372036854775808", 20, &err);
  CU_ASSERT_TRUE(pcl_int_get_i64(v, &out));
  CU_ASSERT_EQUAL(out, INT64_MIN);
  /* The int64 edges and zero format with every digit. */
  CHECK_VALUE(v, PCL_T_INT, "-9223372036854775808");
  CHECK_VALUE(pcl_int_new(INT64_MAX), PCL_T_INT, "9223372036854775807");
  CHECK_VALUE(pcl_int_new(0), PCL_T_INT, "0");
  CHECK_VALUE(pcl_int_new(-1024), PCL_T_INT, "-1024");
  LEAK_END;
}

static void test_sign_and_gmp_bytes(void) {
  size_t bytes0 = pcl_rt_live_bytes();
  pcl_value *a = lit("-1e50"), *b = lit("1e50"), *z = pcl_int_new(0);
  CU_ASSERT_EQUAL(pcl_num_sign(a), -1);
  CU_ASSERT_EQUAL(pcl_num_sign(b), 1);
  CU_ASSERT_EQUAL(pcl_num_sign(z), 0);
  CU_ASSERT_TRUE(pcl_rt_live_bytes() > bytes0);
  pcl_error *err = NULL;
  for (int i = 0; i < 50; i++) {
    pcl_value *p = pcl_op_mul(a, b, &err);
    pcl_value *q = pcl_op_div(p, b, &err);
    pcl_release(p);
    pcl_release(q);
  }
  pcl_release(a);
  pcl_release(b);
  CU_ASSERT_EQUAL(pcl_rt_live_bytes(), bytes0);
}

void register_int_tests(void);
void register_int_tests(void) {
  CU_pSuite s = CU_add_suite("int", NULL, NULL);
  CU_add_test(s, "overflow promotion and demotion", test_overflow_promotion);
  CU_add_test(s, "arithmetic beyond 64 bits", test_big_arithmetic);
  CU_add_test(s, "remainder and zero divisors", test_remainder_and_zero);
  CU_add_test(s, "division rounds once", test_division_rounding);
  CU_add_test(s, "int to double ties to even", test_to_double_ties_to_even);
  CU_add_test(s, "exact int/number comparisons", test_mixed_comparisons);
  CU_add_test(s, "decimal literals", test_literals);
  CU_add_test(s, "int parsing", test_int_parse);
  CU_add_test(s, "sign and GMP bytes", test_sign_and_gmp_bytes);
}
