/* test_number.c: numbers and conversions: shortest round-trip formatting
 * without exponent, infinities where the reference yields them and never
 * NaN, mixed int/number arithmetic, operand conversion from strings, the
 * unknown and secret rules of operators, == and the conversions of
 * types.md 4.5 with their error messages. */
#include <CUnit/CUnit.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pcl_gen.h"
#include "value_check.h"

/* Returns the formatted text of d (free()). */
static char *fmt(double d) {
  pcl_strbuf b = PCL_STRBUF_INIT;
  pcl_number_format(&b, d);
  return b.data;
}

static void check_fmt(double d, const char *want) {
  char *got = fmt(d);
  if (strcmp(got, want) != 0) {
    fprintf(stderr, "\nformat %.17g: got %s, want %s\n", d, got, want);
  }
  CU_ASSERT_STRING_EQUAL(got, want);
  /* Whatever is printed reads back as the same double. */
  if (!isinf(d)) {
    CU_ASSERT_EQUAL(strtod(got, NULL), d);
  }
  free(got);
}

static void test_formatting(void) {
  check_fmt(0.0, "0");
  check_fmt(-0.0, "-0");
  check_fmt(1.0, "1");
  check_fmt(-2.5, "-2.5");
  check_fmt(0.1, "0.1");
  check_fmt(0.1 + 0.2, "0.30000000000000004");
  check_fmt(1.0 / 3.0, "0.3333333333333333");
  check_fmt(2.0 / 3.0, "0.6666666666666666");
  check_fmt(100.0, "100");
  check_fmt(123.456, "123.456");
  check_fmt(1e21, "1000000000000000000000");
  check_fmt(1e-7, "0.0000001");
  check_fmt(1.5e-10, "0.00000000015");
  check_fmt(123456789012345680000.0, "123456789012345680000");
  check_fmt(9007199254740993.0, "9007199254740992");
  /* The smallest subnormal: "0." then 323 zeros then "5". */
  char tiny[330] = "0.";
  memset(tiny + 2, '0', 323);
  strcpy(tiny + 325, "5");
  check_fmt(5e-324, tiny);
  /* Powers of two have a narrower gap below: the shortest decimal is the
   * neighbour above the correctly rounded one of the same length. */
  check_fmt(ldexp(1.0, 172), "5986310706507379000000000000000000000000000000000000");
  check_fmt(ldexp(1.0, -140), "0.0000000000000000000000000000000000000000007174648137343064");
  check_fmt(HUGE_VAL, "+Inf");
  check_fmt(-HUGE_VAL, "-Inf");
  char *max = fmt(DBL_MAX);
  CU_ASSERT_EQUAL(strlen(max), 309);
  CU_ASSERT_EQUAL(strncmp(max, "17976931348623157", 17), 0);
  CU_ASSERT_EQUAL(strspn(max + 17, "0"), 292);
  free(max);
}

/* Returns the significant digits of the decimal text t (sign, point and
 * leading and trailing zeros dropped). */
static int significant_digits(const char *t) {
  char digits[400];
  int n = 0;
  for (; *t != '\0'; t++) {
    if (*t >= '0' && *t <= '9' && (n > 0 || *t != '0') && n < (int)sizeof digits) {
      digits[n++] = *t;
    }
  }
  while (n > 0 && digits[n - 1] == '0') {
    n--;
  }
  return n;
}

/* Formatting random doubles (a fixed-seed generator over all bit patterns,
 * and short decimals scaled by powers of ten):
 * every text reads back as its double, and none is longer than the shortest
 * correctly rounded decimal that reads back. */
static void test_formatting_random(void) {
  uint64_t state = 0x9E3779B97F4A7C15u;
  for (int i = 0; i < 20000; i++) {
    state = state * 6364136223846793005u + 1442695040888963407u;
    uint64_t bits = state ^ (state >> 29);
    double d;
    memcpy(&d, &bits, sizeof d);
    if (i % 2 == 1) {
      /* Every other one is a short decimal, as most program values are. */
      d = (double)(int64_t)(bits % 100000000) / pow(10.0, (double)(bits >> 58));
    }
    if (isnan(d) || isinf(d)) {
      continue;
    }
    int shortest = 17;
    for (int p = 1; p <= 17; p++) {
      char buf[40];
      snprintf(buf, sizeof buf, "%.*e", p - 1, d);
      if (strtod(buf, NULL) == d) {
        shortest = p;
        break;
      }
    }
    char *got = fmt(d);
    bool ok = strtod(got, NULL) == d && significant_digits(got) <= shortest;
    if (!ok) {
      fprintf(stderr, "\nformat %.17g: got %s, shortest has %d digits\n", d, got, shortest);
    }
    CU_ASSERT_TRUE(ok);
    free(got);
  }
}

static void test_arithmetic(void) {
  LEAK_BEGIN;
  pcl_error *err = NULL;
  CHECK_VALUE(binop(pcl_op_add, pcl_int_new(1), pcl_number_new(0.5), &err), PCL_T_NUMBER, "1.5");
  CHECK_VALUE(binop(pcl_op_mul, pcl_number_new(2.5), pcl_int_new(2), &err), PCL_T_NUMBER, "5");
  CHECK_VALUE(binop(pcl_op_sub, pcl_number_new(0.5), pcl_number_new(0.25), &err), PCL_T_NUMBER,
              "0.25");
  CHECK_VALUE(binop(pcl_op_mod, pcl_number_new(7.5), pcl_int_new(2), &err), PCL_T_NUMBER, "1.5");
  CHECK_VALUE(binop(pcl_op_mod, pcl_number_new(-7.5), pcl_int_new(2), &err), PCL_T_NUMBER, "-1.5");
  /* Negative zero keeps its sign, in mixed arithmetic too. */
  CHECK_VALUE(binop(pcl_op_mul, pcl_number_new(-1.5), pcl_int_new(0), &err), PCL_T_NUMBER, "-0");
  CHECK_VALUE(binop(pcl_op_mul, pcl_int_new(0), pcl_number_new(-1.5), &err), PCL_T_NUMBER, "-0");
  CHECK_VALUE(binop(pcl_op_add, pcl_number_new(-0.0), pcl_int_new(0), &err), PCL_T_NUMBER, "0");
  CHECK_VALUE(binop(pcl_op_div, pcl_int_new(0), pcl_number_new(-2.0), &err), PCL_T_NUMBER, "-0");
  CHECK_VALUE(binop(pcl_op_mul, pcl_number_new(-1.5), pcl_number_new(0.0), &err), PCL_T_NUMBER, "-0");
  CHECK_VALUE(binop(pcl_op_div, pcl_int_new(1), pcl_number_new(0.0), &err), PCL_T_NUMBER, "+Inf");
  CHECK_VALUE(binop(pcl_op_div, pcl_int_new(-1), pcl_number_new(0.0), &err), PCL_T_NUMBER, "-Inf");
  /* x % 0 (a number zero) is x, as in the reference. */
  CHECK_VALUE(binop(pcl_op_mod, pcl_int_new(5), pcl_number_new(0.0), &err), PCL_T_INT, "5");
  CHECK_VALUE(binop(pcl_op_mod, pcl_number_new(5.5), pcl_number_new(HUGE_VAL), &err),
              PCL_T_NUMBER, "5.5");
  CHECK_VALUE(binop(pcl_op_mul, pcl_number_new(1e308), pcl_int_new(10), &err), PCL_T_NUMBER,
              "+Inf");
  /* Mixed int and number: the exact result rounded once.  (2^53 + 1) + 0.5
   * is 2^53 + 2, where rounding the int first would give 2^53. */
  CHECK_VALUE(binop(pcl_op_add, lit("9007199254740993"), pcl_number_new(0.5), &err),
              PCL_T_NUMBER, "9007199254740994");
  CHECK_VALUE(binop(pcl_op_sub, pcl_number_new(0.5), lit("9007199254740993"), &err),
              PCL_T_NUMBER, "-9007199254740992");
  /* 10^30 % 7.5 is exactly 2.5 (fmod of the rounded 10^30 is not). */
  CHECK_VALUE(binop(pcl_op_mod, lit("1e30"), pcl_number_new(7.5), &err), PCL_T_NUMBER, "2.5");
  CHECK_VALUE(binop(pcl_op_mod, lit("-1e30"), pcl_number_new(7.5), &err), PCL_T_NUMBER, "-2.5");
  /* Beyond the double range and back: 10^400 * 10^-300 is 10^100. */
  pcl_value *r = binop(pcl_op_mul, lit("1e400"), pcl_number_new(1e-300), &err);
  CU_ASSERT_EQUAL(pcl_number_get(r), 1e100);
  pcl_release(r);
  /* 3 / 0.1 (the double just above 1/10) is just below 30, rounded: 30. */
  CHECK_VALUE(binop(pcl_op_div, pcl_int_new(3), pcl_number_new(0.1), &err), PCL_T_NUMBER, "30");
  /* 2^60 + 1 times 0.75: exact 864691128455135232.75 rounds to ...232. */
  CHECK_VALUE(binop(pcl_op_mul, lit("1152921504606846977"), pcl_number_new(0.75), &err),
              PCL_T_NUMBER, "864691128455135200");
  CHECK_VALUE(binop(pcl_op_div, pcl_number_new(1.5), lit("-3"), &err), PCL_T_NUMBER, "-0.5");
  pcl_value *x = pcl_number_new(2.5);
  CHECK_VALUE(pcl_op_neg(x, &err), PCL_T_NUMBER, "-2.5");
  pcl_release(x);
  LEAK_END;
}

static void test_no_nan(void) {
  LEAK_BEGIN;
  pcl_error *err = NULL;
  pcl_value *r = binop(pcl_op_sub, pcl_number_new(HUGE_VAL), pcl_number_new(HUGE_VAL), &err);
  CHECK_ERROR(r, err, "can't subtract infinity from itself");
  err = NULL;
  r = binop(pcl_op_add, pcl_number_new(HUGE_VAL), pcl_number_new(-HUGE_VAL), &err);
  CHECK_ERROR(r, err, "can't compute sum of opposing infinities");
  err = NULL;
  r = binop(pcl_op_mul, pcl_number_new(0.0), pcl_number_new(HUGE_VAL), &err);
  CHECK_ERROR(r, err, "can't multiply zero by infinity");
  err = NULL;
  r = binop(pcl_op_div, pcl_number_new(0.0), pcl_number_new(0.0), &err);
  CHECK_ERROR(r, err, "can't divide zero by zero or infinity by infinity");
  err = NULL;
  r = binop(pcl_op_div, pcl_number_new(-HUGE_VAL), pcl_number_new(HUGE_VAL), &err);
  CHECK_ERROR(r, err, "can't divide zero by zero or infinity by infinity");
  err = NULL;
  r = binop(pcl_op_mod, pcl_number_new(HUGE_VAL), pcl_int_new(2), &err);
  CHECK_ERROR(r, err, "remainder of infinity");
  /* An int beyond the double range is still finite: 10^400 - inf is -inf,
   * not inf - inf. */
  err = NULL;
  CHECK_VALUE(binop(pcl_op_sub, lit("1e400"), pcl_number_new(HUGE_VAL), &err), PCL_T_NUMBER,
              "-Inf");
  CHECK_VALUE(binop(pcl_op_mod, lit("1e400"), pcl_number_new(HUGE_VAL), &err), PCL_T_NUMBER,
              "+Inf");
  LEAK_END;
}

static void test_operand_conversion(void) {
  LEAK_BEGIN;
  pcl_error *err = NULL;
  CHECK_VALUE(binop(pcl_op_add, str("1"), pcl_int_new(2), &err), PCL_T_INT, "3");
  CHECK_VALUE(binop(pcl_op_mul, str("1.5"), str("2"), &err), PCL_T_NUMBER, "3");
  CHECK_VALUE(binop(pcl_op_lt, str("10"), pcl_int_new(9), &err), PCL_T_BOOL, "false");
  CHECK_VALUE(binop(pcl_op_ge, pcl_number_new(2.5), str("2.5"), &err), PCL_T_BOOL, "true");
  pcl_value *r = binop(pcl_op_add, str("x"), pcl_int_new(1), &err);
  CHECK_ERROR(r, err, "invalid left operand: cannot convert \"x\" to number: a number is required");
  err = NULL;
  r = binop(pcl_op_add, pcl_int_new(1), pcl_bool(true), &err);
  CHECK_ERROR(r, err, "invalid right operand: cannot convert true to number: a number is required");
  err = NULL;
  r = pcl_op_neg(pcl_null(), &err);
  CHECK_ERROR(r, err, "invalid operand null: a number is required");
  LEAK_END;
}

static void test_unknown_and_secret(void) {
  LEAK_BEGIN;
  pcl_error *err = NULL;
  CU_ASSERT_PTR_EQUAL(pcl_op_add(pcl_unknown(), pcl_int_new(1), &err), pcl_unknown());
  CU_ASSERT_PTR_EQUAL(pcl_op_lt(pcl_int_new(1), pcl_unknown(), &err), pcl_unknown());
  CU_ASSERT_PTR_EQUAL(pcl_op_neg(pcl_unknown(), &err), pcl_unknown());
  pcl_value *one = pcl_int_new(1);
  pcl_value *s = pcl_secret_new(pcl_int_new(41));
  pcl_value *r = pcl_op_add(s, one, &err);
  CU_ASSERT_EQUAL(pcl_kind_of(r), PCL_T_SECRET);
  CHECK_VALUE(pcl_retain(pcl_secret_inner(r)), PCL_T_INT, "42");
  pcl_release(r);
  r = pcl_op_eq(s, pcl_int_new(41));
  CU_ASSERT_EQUAL(pcl_kind_of(r), PCL_T_SECRET);
  CU_ASSERT_TRUE(pcl_bool_get(pcl_secret_inner(r)));
  pcl_release(r);
  pcl_release(s);
  LEAK_END;
}

static void test_equality_operators(void) {
  LEAK_BEGIN;
  pcl_value *one = pcl_int_new(1), *one_n = pcl_number_new(1.0), *one_s = str("1");
  CU_ASSERT_PTR_EQUAL(pcl_op_eq(one, one_n), pcl_bool(true));
  CU_ASSERT_PTR_EQUAL(pcl_op_eq(one, one_s), pcl_bool(false));
  CU_ASSERT_PTR_EQUAL(pcl_op_ne(one, one_s), pcl_bool(true));
  CU_ASSERT_PTR_EQUAL(pcl_op_eq(pcl_null(), pcl_null()), pcl_bool(true));
  CU_ASSERT_PTR_EQUAL(pcl_op_eq(one, pcl_unknown()), pcl_unknown());
  pcl_value *l = pcl_list_of((pcl_value *[]){one, pcl_unknown()}, 2);
  CU_ASSERT_PTR_EQUAL(pcl_op_ne(l, one), pcl_unknown());
  pcl_release(l);
  pcl_release(one_n);
  pcl_release(one_s);
  LEAK_END;
}

static void test_conversions(void) {
  LEAK_BEGIN;
  pcl_error *err = NULL;
  /* To string. */
  CHECK_VALUE(pcl_convert_to_string(pcl_bool(true), &err), PCL_T_STRING, "true");
  pcl_value *v = pcl_number_new(2.5);
  CHECK_VALUE(pcl_convert_to_string(v, &err), PCL_T_STRING, "2.5");
  pcl_release(v);
  v = pcl_number_new(1e21);
  CHECK_VALUE(pcl_convert_to_string(v, &err), PCL_T_STRING, "1000000000000000000000");
  pcl_release(v);
  v = lit("-1e30");
  CHECK_VALUE(pcl_convert_to_string(v, &err), PCL_T_STRING, "-1000000000000000000000000000000");
  pcl_release(v);
  CU_ASSERT_PTR_EQUAL(pcl_convert_to_string(pcl_null(), &err), pcl_null());
  CU_ASSERT_PTR_EQUAL(pcl_convert_to_string(pcl_unknown(), &err), pcl_unknown());
  v = pcl_list_of(NULL, 0);
  pcl_value *r = pcl_convert_to_string(v, &err);
  CHECK_ERROR(r, err, "cannot convert list to string");
  pcl_release(v);

  /* To number. */
  err = NULL;
  v = str("1.5");
  CHECK_VALUE(pcl_convert_to_number(v, &err), PCL_T_NUMBER, "1.5");
  pcl_release(v);
  v = str("1e3");
  CHECK_VALUE(pcl_convert_to_number(v, &err), PCL_T_INT, "1000");
  pcl_release(v);
  v = str("-Inf");
  CHECK_VALUE(pcl_convert_to_number(v, &err), PCL_T_NUMBER, "-Inf");
  pcl_release(v);
  v = str(" 1");
  r = pcl_convert_to_number(v, &err);
  CHECK_ERROR(r, err, "cannot convert \" 1\" to number: a number is required");
  pcl_release(v);
  err = NULL;
  r = pcl_convert_to_number(pcl_bool(false), &err);
  CHECK_ERROR(r, err, "cannot convert false to number");

  /* To int. */
  err = NULL;
  v = pcl_number_new(2.5);
  r = pcl_convert_to_int(v, &err);
  CHECK_ERROR(r, err, "cannot convert 2.5 to int: not an integer");
  pcl_release(v);
  err = NULL;
  v = str("1.5");
  r = pcl_convert_to_int(v, &err);
  CHECK_ERROR(r, err, "cannot convert \"1.5\" to int: not an integer");
  pcl_release(v);
  err = NULL;
  v = pcl_number_new(HUGE_VAL);
  r = pcl_convert_to_int(v, &err);
  CHECK_ERROR(r, err, "not an integer");
  pcl_release(v);
  v = pcl_number_new(3.0);
  CHECK_VALUE(pcl_convert_to_int(v, &err), PCL_T_INT, "3");
  pcl_release(v);
  v = pcl_number_new(1e20);
  CHECK_VALUE(pcl_convert_to_int(v, &err), PCL_T_INT, "100000000000000000000");
  pcl_release(v);
  v = pcl_number_new(-9223372036854775808.0);
  CHECK_VALUE(pcl_convert_to_int(v, &err), PCL_T_INT, "-9223372036854775808");
  pcl_release(v);
  v = str("12345678901234567890123");
  CHECK_VALUE(pcl_convert_to_int(v, &err), PCL_T_INT, "12345678901234567890123");
  pcl_release(v);

  /* To bool. */
  const char *yes[] = {"true", "1"}, *no[] = {"false", "0"};
  for (int i = 0; i < 2; i++) {
    v = str(yes[i]);
    CU_ASSERT_PTR_EQUAL(pcl_convert_to_bool(v, &err), pcl_bool(true));
    pcl_release(v);
    v = str(no[i]);
    CU_ASSERT_PTR_EQUAL(pcl_convert_to_bool(v, &err), pcl_bool(false));
    pcl_release(v);
  }
  err = NULL;
  v = str("True");
  r = pcl_convert_to_bool(v, &err);
  CHECK_ERROR(r, err, "a bool is required; to convert from string, use lowercase \"true\"");
  pcl_release(v);
  err = NULL;
  v = str("yes");
  r = pcl_convert_to_bool(v, &err);
  CHECK_ERROR(r, err, "cannot convert \"yes\" to bool: a bool is required");
  pcl_release(v);
  err = NULL;
  r = pcl_convert_to_bool(pcl_int_new(1), &err);
  CHECK_ERROR(r, err, "a bool is required");

  /* A secret converts inside its mark. */
  err = NULL;
  v = pcl_secret_new(pcl_int_new(5));
  r = pcl_convert_to_string(v, &err);
  CU_ASSERT_EQUAL(pcl_kind_of(r), PCL_T_SECRET);
  CHECK_VALUE(pcl_retain(pcl_secret_inner(r)), PCL_T_STRING, "5");
  pcl_release(r);
  pcl_release(v);
  LEAK_END;
}

/* The operands of !, && and || and conditions: bools, or the strings that
 * convert to bools (types.md 10); anything else fails naming the value. */
static void test_bool_operators(void) {
  LEAK_BEGIN;
  pcl_error *err = NULL;
  pcl_value *t = str("true"), *f = str("false"), *one = str("1"), *zero = str("0");
  CU_ASSERT_PTR_EQUAL(pcl_op_not(t, &err), pcl_bool(false));
  CU_ASSERT_PTR_EQUAL(pcl_op_not(zero, &err), pcl_bool(true));
  CU_ASSERT_PTR_EQUAL(pcl_op_not(pcl_bool(false), &err), pcl_bool(true));
  CU_ASSERT_PTR_EQUAL(pcl_op_and(t, one, &err), pcl_bool(true));
  CU_ASSERT_PTR_EQUAL(pcl_op_and(t, f, &err), pcl_bool(false));
  CU_ASSERT_PTR_EQUAL(pcl_op_or(zero, f, &err), pcl_bool(false));
  CU_ASSERT_PTR_EQUAL(pcl_op_or(f, pcl_bool(true), &err), pcl_bool(true));
  CU_ASSERT_PTR_NULL(err);

  /* The side that decides wins over an unknown other side. */
  CU_ASSERT_PTR_EQUAL(pcl_op_and(f, pcl_unknown(), &err), pcl_bool(false));
  CU_ASSERT_PTR_EQUAL(pcl_op_and(pcl_unknown(), zero, &err), pcl_bool(false));
  CU_ASSERT_PTR_EQUAL(pcl_op_or(pcl_unknown(), t, &err), pcl_bool(true));
  CU_ASSERT_PTR_EQUAL(pcl_op_and(t, pcl_unknown(), &err), pcl_unknown());
  CU_ASSERT_PTR_EQUAL(pcl_op_or(pcl_unknown(), pcl_unknown(), &err), pcl_unknown());
  CU_ASSERT_PTR_EQUAL(pcl_op_not(pcl_unknown(), &err), pcl_unknown());

  /* A secret operand makes the result secret, also when it does not
   * decide. */
  pcl_value *st = pcl_secret_new(t);
  pcl_value *r = pcl_op_or(pcl_bool(true), st, &err);
  CU_ASSERT_EQUAL(pcl_kind_of(r), PCL_T_SECRET);
  CU_ASSERT_PTR_EQUAL(pcl_secret_inner(r), pcl_bool(true));
  pcl_release(r);
  r = pcl_op_not(st, &err);
  CU_ASSERT_EQUAL(pcl_kind_of(r), PCL_T_SECRET);
  CU_ASSERT_PTR_EQUAL(pcl_secret_inner(r), pcl_bool(false));
  pcl_release(r);

  /* Values that do not convert fail, even where the other side would
   * decide; the message names the value. */
  pcl_value *yes = str("yes"), *upper = str("TRUE"), *n = pcl_number_new(1.0);
  r = pcl_op_not(yes, &err);
  CHECK_ERROR(r, err, "invalid operand: cannot convert \"yes\" to bool: a bool is required");
  err = NULL;
  r = pcl_op_and(pcl_bool(false), upper, &err);
  CHECK_ERROR(r, err,
              "invalid right operand: cannot convert \"TRUE\" to bool: a bool is required; "
              "to convert from string, use lowercase \"true\"");
  err = NULL;
  r = pcl_op_or(n, pcl_bool(true), &err);
  CHECK_ERROR(r, err, "invalid left operand: cannot convert 1 to bool: a bool is required");
  err = NULL;
  r = pcl_op_or(pcl_null(), pcl_bool(true), &err);
  CHECK_ERROR(r, err, "invalid left operand null: a bool is required");
  err = NULL;
  r = pcl_op_not(pcl_null(), &err);
  CHECK_ERROR(r, err, "invalid operand null: a bool is required");

  /* Conditions convert the same way; null and unknown fail. */
  bool b = false;
  err = NULL;
  CU_ASSERT_TRUE(pcl_condition_get(one, &b, &err) && b);
  CU_ASSERT_TRUE(pcl_condition_get(st, &b, &err) && b);
  CU_ASSERT_TRUE(pcl_condition_get(pcl_bool(false), &b, &err) && !b);
  CU_ASSERT_TRUE(pcl_condition_get(f, &b, &err) && !b);
  CU_ASSERT_FALSE(pcl_condition_get(pcl_null(), &b, &err));
  CHECK_ERROR(NULL, err, "invalid condition null: a bool is required");
  err = NULL;
  CU_ASSERT_FALSE(pcl_condition_get(pcl_unknown(), &b, &err));
  CHECK_ERROR(NULL, err, "invalid condition: the value is unknown");
  err = NULL;
  CU_ASSERT_FALSE(pcl_condition_get(yes, &b, &err));
  CHECK_ERROR(NULL, err, "invalid condition: cannot convert \"yes\" to bool: a bool is required");
  pcl_value *l = pcl_list_of(&t, 1);
  err = NULL;
  CU_ASSERT_FALSE(pcl_condition_get(l, &b, &err));
  CHECK_ERROR(NULL, err, "invalid condition: cannot convert list to bool: a bool is required");
  pcl_release(l);
  pcl_release(st);
  pcl_release(yes);
  pcl_release(upper);
  pcl_release(n);
  pcl_release(t);
  pcl_release(f);
  pcl_release(one);
  pcl_release(zero);
  LEAK_END;
}

void register_number_tests(void);
void register_number_tests(void) {
  CU_pSuite s = CU_add_suite("number", NULL, NULL);
  CU_add_test(s, "shortest formatting without exponent", test_formatting);
  CU_add_test(s, "formatting random doubles", test_formatting_random);
  CU_add_test(s, "arithmetic", test_arithmetic);
  CU_add_test(s, "NaN is never produced", test_no_nan);
  CU_add_test(s, "operand conversion", test_operand_conversion);
  CU_add_test(s, "unknown and secret operands", test_unknown_and_secret);
  CU_add_test(s, "== and !=", test_equality_operators);
  CU_add_test(s, "conversions", test_conversions);
  CU_add_test(s, "!, && and || and conditions", test_bool_operators);
}
