/* number.c: numeric and logic operators, comparisons, conversions between
 * kinds (types.md 4.5) and number formatting.
 *
 * Semantics (DECISIONS.md D3, types.md 10): operands are converted to
 * numbers first ("1" + 2 is 3).  int op int is exact for + - * % and unary
 * minus, with an int64 fast path that promotes to GMP on overflow; "/"
 * always yields a number, the exact quotient rounded once.  An int zero
 * divisor of "/" or "%" is an error.  Number arithmetic is IEEE double; a
 * number zero divisor gives infinity for "/" and the dividend for "%", and
 * every operation that would produce NaN fails instead.  The operands of
 * !, && and || and conditions are bools or the strings "true", "1",
 * "false", "0" (types.md 10).  An unknown operand gives unknown, except
 * where the other operand of && or || decides; a secret operand gives a
 * secret result. */
#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "value/pcl_internal.h"

pcl_value *pcl_number_new(double d) {
  if (isnan(d)) {
    fprintf(stderr, "pcl: internal error: NaN number value\n");
    abort();
  }
  pcl_value *v = pcl__value_alloc(PCL_T_NUMBER, 0);
  v->u.d = d;
  return v;
}

/* ------------------------------------------------------------ formatting */

/* Digits of a decimal candidate: digits[0..nd) times 10^(exp - nd + 1). */
typedef struct decimal {
  char digits[24]; /* Significant digits, no dot, no sign. */
  int nd;          /* Number of digits. */
  long exp;        /* Decimal exponent of the first digit. */
} decimal;

/* Returns whether the decimal reads back as the positive double d. */
static bool reads_back(const decimal *x, double d) {
  char buf[48];
  snprintf(buf, sizeof buf, "%c.%.*se%ld", x->digits[0], x->nd - 1, x->digits + 1, x->exp);
  return strtod(buf, NULL) == d;
}

/* Finds a decimal of p + 1 significant digits that reads back as the
 * positive double d: the nearest one, or else its neighbour on the other
 * side of d (the gap below a power of two is half the gap above, so the
 * nearest p-digit decimal may miss where the next one up does not).
 * Returns false when neither does, i.e. no decimal of p + 1 digits does. */
static bool digits_for(double d, int p, decimal *x) {
  char buf[40];
  snprintf(buf, sizeof buf, "%.*e", p, d);
  x->nd = 0;
  const char *c = buf;
  for (; *c != 'e'; c++) {
    if (*c != '.') {
      x->digits[x->nd++] = *c;
    }
  }
  x->exp = strtol(c + 1, NULL, 10);
  double near = strtod(buf, NULL);
  if (near == d) {
    return true;
  }
  /* Step one unit in the last digit towards d. */
  int i = x->nd - 1;
  if (near < d) {
    while (i >= 0 && x->digits[i] == '9') {
      x->digits[i--] = '0';
    }
    if (i < 0) {
      /* 9.99 -> 10.0: one more leading digit. */
      x->digits[0] = '1';
      x->exp++;
    } else {
      x->digits[i]++;
    }
  } else {
    while (i >= 0 && x->digits[i] == '0') {
      x->digits[i--] = '9';
    }
    if (i < 0) {
      return false; /* All zeros: not the digits of a positive d. */
    }
    x->digits[i]--;
    if (x->digits[0] == '0') {
      /* 1.00 -> 0.99: drop the leading zero. */
      memmove(x->digits, x->digits + 1, (size_t)(x->nd - 1));
      x->nd--;
      x->exp--;
    }
  }
  return x->nd > 0 && reads_back(x, d);
}

void pcl_number_format(pcl_strbuf *b, double d) {
  if (isinf(d)) {
    pcl_strbuf_append_cstr(b, d > 0 ? "+Inf" : "-Inf");
    return;
  }
  if (d == 0) {
    /* The reference (big.Float.Text('f', -1)) keeps the sign of zero. */
    pcl_strbuf_append_cstr(b, signbit(d) ? "-0" : "0");
    return;
  }
  if (d < 0) {
    pcl_strbuf_append_char(b, '-');
    d = -d;
  }
  /* The fewest significant digits that read back as d.  For a normal d,
   * when any decimal of at most 15 digits reads back as d, it is d rounded
   * to 15 digits with trailing zeros (d lies within 2^-53 |d| of it, less
   * than half the 15-digit spacing, which is more than 10^-15 |d|); else 16
   * or 17 digits are needed, and 17 always do.  A subnormal d has fewer
   * significant bits, so its digits are found by binary search: a decimal
   * of p digits is one of p + 1 digits too, so "some p-digit decimal reads
   * back" is monotone in p. */
  decimal x;
  if (d >= DBL_MIN) {
    if (!digits_for(d, 14, &x) && !digits_for(d, 15, &x)) {
      digits_for(d, 16, &x);
    }
  } else {
    int lo = 0, hi = 16;
    while (lo < hi) {
      int mid = (lo + hi) / 2;
      if (digits_for(d, mid, &x)) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    digits_for(d, lo, &x);
  }
  int nd = x.nd;
  while (nd > 1 && x.digits[nd - 1] == '0') {
    nd--;
  }
  long exp = x.exp;
  const char *digits = x.digits;
  if (exp < 0) {
    pcl_strbuf_append_cstr(b, "0.");
    for (long i = -1; i > exp; i--) {
      pcl_strbuf_append_char(b, '0');
    }
    pcl_strbuf_append(b, digits, (size_t)nd);
    return;
  }
  size_t int_digits = (size_t)exp + 1;
  if ((size_t)nd <= int_digits) {
    pcl_strbuf_append(b, digits, (size_t)nd);
    for (size_t i = (size_t)nd; i < int_digits; i++) {
      pcl_strbuf_append_char(b, '0');
    }
    return;
  }
  pcl_strbuf_append(b, digits, int_digits);
  pcl_strbuf_append_char(b, '.');
  pcl_strbuf_append(b, digits + int_digits, (size_t)nd - int_digits);
}

/* ------------------------------------------------------------ comparisons */

int pcl_num_compare(const pcl_value *a, const pcl_value *b) {
  if (a->kind == PCL_T_INT && b->kind == PCL_T_INT) {
    int64_t x, y;
    if (pcl_int_get_i64(a, &x) && pcl_int_get_i64(b, &y)) {
      return x < y ? -1 : x > y;
    }
    mpz_t za, zb;
    mp_limb_t sa, sb;
    pcl__int_view(a, za, &sa);
    pcl__int_view(b, zb, &sb);
    int c = mpz_cmp(za, zb);
    return c < 0 ? -1 : c > 0;
  }
  if (a->kind == PCL_T_INT) {
    return pcl__int_cmp_double(a, b->u.d);
  }
  if (b->kind == PCL_T_INT) {
    return -pcl__int_cmp_double(b, a->u.d);
  }
  return a->u.d < b->u.d ? -1 : a->u.d > b->u.d;
}

/* ------------------------------------------------------------- operators */

typedef enum op { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD } op;
static const char *const op_text[] = {"+", "-", "*", "/", "%"};

/* Returns the operand v (neither SECRET nor UNKNOWN), described by what,
 * converted by conv to a value of the named type (owned), or NULL and *err:
 * null is refused ("invalid <what> null: a <type> is required"), and so is
 * what conv refuses, its message naming the value. */
static pcl_value *converted_operand(const pcl_value *v, const char *what, const char *type,
                                    pcl_value *(*conv)(const pcl_value *, pcl_error **),
                                    pcl_error **err) {
  if (v->kind == PCL_T_NULL) {
    *err = pcl_error_new("invalid %s null: a %s is required", what, type);
    return NULL;
  }
  pcl_value *r = conv(v, err);
  if (r == NULL) {
    pcl_error_prefix(*err, "invalid %s", what);
  }
  return r;
}

/* Makes *out a numeric view of the operand v: v itself, or a number parsed
 * from a string (then stored in *tmp, which the caller releases).  Returns
 * false and sets *err when v is not convertible. */
static bool operand(const pcl_value *v, const char *what, pcl_value **out, pcl_value **tmp,
                    pcl_error **err) {
  *tmp = NULL;
  if (pcl_is_numeric(v)) {
    *out = (pcl_value *)v;
    return true;
  }
  /* Only a string converts; the conversion's message names the value. */
  pcl_value *n = converted_operand(v, what, "number", pcl_convert_to_number, err);
  if (n == NULL) {
    return false;
  }
  *out = *tmp = n;
  return true;
}

/* Makes *x and *y numeric views of the operands a and b as operand does,
 * with *tx and *ty to release; false and *err (nothing to release) when
 * either is not convertible. */
static bool operands(const pcl_value *a, const pcl_value *b, pcl_value **x, pcl_value **y,
                     pcl_value **tx, pcl_value **ty, pcl_error **err) {
  if (!operand(a, "left operand", x, tx, err)) {
    return false;
  }
  if (!operand(b, "right operand", y, ty, err)) {
    pcl_release(*tx);
    return false;
  }
  return true;
}

/* Strips SECRET wrappers from *a and *b and returns whether there were any. */
static bool unwrap_secrets(const pcl_value **a, const pcl_value **b) {
  bool secret = false;
  while (*a != NULL && (*a)->kind == PCL_T_SECRET) {
    *a = (*a)->u.ref.a;
    secret = true;
  }
  while (*b != NULL && (*b)->kind == PCL_T_SECRET) {
    *b = (*b)->u.ref.a;
    secret = true;
  }
  return secret;
}

/* Returns r marked secret when secret is set (r is stolen). */
static pcl_value *mark(pcl_value *r, bool secret) {
  if (r == NULL || !secret) {
    return r;
  }
  pcl_value *s = pcl_secret_new(r);
  pcl_release(r);
  return s;
}

/* o on two INTs: exact, with the int64 fast path and GMP on overflow. */
static pcl_value *int_op(op o, const pcl_value *a, const pcl_value *b, pcl_error **err) {
  int64_t x, y, r;
  bool small = pcl_int_get_i64(a, &x) && pcl_int_get_i64(b, &y);
  if ((o == OP_DIV || o == OP_MOD) && pcl_num_sign(b) == 0) {
    char *ra = pcl_value_repr(a, 64);
    *err = pcl_error_new("cannot compute %s %s 0: division by zero", ra, op_text[o]);
    free(ra);
    return NULL;
  }
  if (o == OP_DIV) {
    return pcl_number_new(pcl__int_div_double(a, b));
  }
  if (small) {
    switch (o) {
    case OP_ADD:
      if (!__builtin_add_overflow(x, y, &r)) {
        return pcl_int_new(r);
      }
      break;
    case OP_SUB:
      if (!__builtin_sub_overflow(x, y, &r)) {
        return pcl_int_new(r);
      }
      break;
    case OP_MUL:
      if (!__builtin_mul_overflow(x, y, &r)) {
        return pcl_int_new(r);
      }
      break;
    case OP_MOD:
      /* C's % truncates toward zero, as PCL's does; x % -1 is 0 even for
       * INT64_MIN, where C's operator would overflow. */
      return pcl_int_new(y == -1 ? 0 : x % y);
    case OP_DIV:
      break;
    }
  }
  /* The result's size is known from the operands' before it is computed:
   * a product takes their sizes together, a sum or difference one limb
   * more than the larger, a remainder no more than the divisor. */
  size_t na = pcl__int_bytes(a), nb = pcl__int_bytes(b);
  size_t bytes = o == OP_MUL ? na + nb : (na > nb ? na : nb) + sizeof(mp_limb_t);
  if (o != OP_MOD && !pcl__value_fits(bytes, "the int", err)) {
    char *ra = pcl_value_repr(a, 64), *rb = pcl_value_repr(b, 64);
    pcl_error_prefix(*err, "cannot compute %s %s %s", ra, op_text[o], rb);
    free(ra);
    free(rb);
    return NULL;
  }
  mpz_t za, zb, zr;
  mp_limb_t sa, sb;
  pcl__int_view(a, za, &sa);
  pcl__int_view(b, zb, &sb);
  mpz_init(zr);
  switch (o) {
  case OP_ADD:
    mpz_add(zr, za, zb);
    break;
  case OP_SUB:
    mpz_sub(zr, za, zb);
    break;
  case OP_MUL:
    mpz_mul(zr, za, zb);
    break;
  case OP_MOD:
    mpz_tdiv_r(zr, za, zb);
    break;
  case OP_DIV:
    break;
  }
  pcl_value *v = pcl__int_from_mpz(zr);
  mpz_clear(zr);
  return v;
}

/* Sets m and *e so that the finite INT or NUMBER v is exactly m * 2^e. */
static void to_dyadic(const pcl_value *v, mpz_t m, long *e) {
  if (v->kind == PCL_T_INT) {
    mpz_t view;
    mp_limb_t scratch;
    pcl__int_view(v, view, &scratch);
    mpz_set(m, view);
    *e = 0;
    return;
  }
  int ex;
  double fr = frexp(v->u.d, &ex); /* d = fr * 2^ex with 0.5 <= |fr| < 1. */
  mpz_set_d(m, ldexp(fr, 53));
  *e = (long)ex - 53;
}

/* Returns r * 2^e rounded to nearest, ties to even. */
static double dyadic_to_double(mpz_srcptr r, long e) {
  mpz_t mag;
  mpz_roinit_n(mag, mpz_limbs_read(r), (mp_size_t)mpz_size(r));
  double d = pcl__mpz_scaled_to_double(mag, e, false);
  return mpz_sgn(r) < 0 ? -d : d;
}

/* An int and a finite number: the exact result rounded once (D3), so that
 * 2^53 + 1 plus 0.5 is not first rounded to 2^53.  The divisor of "/" and
 * "%" is not zero. */
static double mixed_exact(op o, const pcl_value *a, const pcl_value *b) {
  mpz_t ma, mb, r;
  long ea, eb;
  mpz_inits(ma, mb, r, NULL);
  to_dyadic(a, ma, &ea);
  to_dyadic(b, mb, &eb);
  double d = 0;
  long e = ea < eb ? ea : eb;
  switch (o) {
  case OP_ADD:
  case OP_SUB:
  case OP_MOD:
    /* Align both to the smaller exponent. */
    mpz_mul_2exp(ma, ma, (mp_bitcnt_t)(ea - e));
    mpz_mul_2exp(mb, mb, (mp_bitcnt_t)(eb - e));
    if (o == OP_ADD) {
      mpz_add(r, ma, mb);
    } else if (o == OP_SUB) {
      mpz_sub(r, ma, mb);
    } else {
      mpz_tdiv_r(r, ma, mb);
    }
    d = dyadic_to_double(r, e);
    break;
  case OP_MUL:
    mpz_mul(r, ma, mb);
    d = dyadic_to_double(r, ea + eb);
    break;
  case OP_DIV: {
    bool neg = (mpz_sgn(ma) < 0) != (mpz_sgn(mb) < 0);
    mpz_abs(ma, ma);
    mpz_abs(mb, mb);
    d = pcl__mpz_ratio_to_double(ma, mb, ea - eb);
    d = neg ? -d : d;
    break;
  }
  }
  mpz_clears(ma, mb, r, NULL);
  return d;
}

/* Returns an operand as a double; an int beyond the double range becomes
 * the largest finite double of its sign (it is finite, unlike infinity). */
static double clamped(const pcl_value *v) {
  double d = pcl_num_to_double(v);
  if (v->kind == PCL_T_INT && isinf(d)) {
    return d > 0 ? DBL_MAX : -DBL_MAX;
  }
  return d;
}

/* o on two numeric operands of which at least one is a NUMBER. */
static pcl_value *number_op(op o, const pcl_value *a, const pcl_value *b, pcl_error **err) {
  if ((o == OP_DIV || o == OP_MOD) && b->kind == PCL_T_INT && pcl_num_sign(b) == 0) {
    char *ra = pcl_value_repr(a, 64);
    *err = pcl_error_new("cannot compute %s %s 0: division by zero", ra, op_text[o]);
    free(ra);
    return NULL;
  }
  double x = clamped(a), y = clamped(b), r = 0;
  if (o == OP_MOD && y == 0) {
    /* The reference gives the dividend for a number zero divisor. */
    return pcl_retain((pcl_value *)a);
  }
  if (o == OP_MOD && isinf(y) && !isinf(x)) {
    return pcl_number_new(pcl_num_to_double(a));
  }
  const char *why = NULL;
  switch (o) {
  case OP_ADD:
    r = x + y;
    why = "can't compute sum of opposing infinities";
    break;
  case OP_SUB:
    r = x - y;
    why = "can't subtract infinity from itself";
    break;
  case OP_MUL:
    r = x * y;
    why = "can't multiply zero by infinity";
    break;
  case OP_DIV:
    r = x / y;
    why = "can't divide zero by zero or infinity by infinity";
    break;
  case OP_MOD:
    r = fmod(x, y);
    why = "can't compute the remainder of infinity";
    break;
  }
  if (a->kind != b->kind && !isinf(x) && !isinf(y) && !(o == OP_DIV && y == 0)) {
    /* The exact result rounded once; an exact zero takes the sign that the
     * double operation gives it (-1.5 * 0 is -0, as in the reference). */
    double exact = mixed_exact(o, a, b);
    return pcl_number_new(exact != 0 ? exact : copysign(0.0, r));
  }
  if (isnan(r)) {
    *err = pcl_error_new("%s", why);
    return NULL;
  }
  return pcl_number_new(r);
}

/* The binary arithmetic operator o with the operand rules of pcl_op_add. */
static pcl_value *arith(op o, const pcl_value *a, const pcl_value *b, pcl_error **err) {
  bool secret = unwrap_secrets(&a, &b);
  if (a->kind == PCL_T_UNKNOWN || b->kind == PCL_T_UNKNOWN) {
    return mark(pcl_unknown(), secret);
  }
  /* A message about a secret operand shows "[secret]" for it. */
  if (secret) {
    pcl__redact_enter();
  }
  pcl_value *x, *y, *tx, *ty, *r = NULL;
  if (operands(a, b, &x, &y, &tx, &ty, err)) {
    r = x->kind == PCL_T_INT && y->kind == PCL_T_INT ? int_op(o, x, y, err)
                                                     : number_op(o, x, y, err);
    pcl_release(tx);
    pcl_release(ty);
  }
  if (secret) {
    pcl__redact_leave();
  }
  return mark(r, secret);
}

pcl_value *pcl_op_add(const pcl_value *a, const pcl_value *b, pcl_error **err) {
  return arith(OP_ADD, a, b, err);
}
pcl_value *pcl_op_sub(const pcl_value *a, const pcl_value *b, pcl_error **err) {
  return arith(OP_SUB, a, b, err);
}
pcl_value *pcl_op_mul(const pcl_value *a, const pcl_value *b, pcl_error **err) {
  return arith(OP_MUL, a, b, err);
}
pcl_value *pcl_op_div(const pcl_value *a, const pcl_value *b, pcl_error **err) {
  return arith(OP_DIV, a, b, err);
}
pcl_value *pcl_op_mod(const pcl_value *a, const pcl_value *b, pcl_error **err) {
  return arith(OP_MOD, a, b, err);
}

pcl_value *pcl_op_neg(const pcl_value *a, pcl_error **err) {
  const pcl_value *none = &pcl_null_value;
  bool secret = unwrap_secrets(&a, &none);
  if (a->kind == PCL_T_UNKNOWN) {
    return mark(pcl_unknown(), secret);
  }
  pcl_value *x, *tx;
  if (secret) {
    pcl__redact_enter();
  }
  bool ok = operand(a, "operand", &x, &tx, err);
  if (secret) {
    pcl__redact_leave();
  }
  if (!ok) {
    return NULL;
  }
  pcl_value *r;
  int64_t i;
  if (x->kind == PCL_T_NUMBER) {
    r = pcl_number_new(-x->u.d);
  } else if (pcl_int_get_i64(x, &i) && i != INT64_MIN) {
    r = pcl_int_new(-i);
  } else {
    mpz_t z, n;
    mp_limb_t s;
    pcl__int_view(x, z, &s);
    mpz_init(n);
    mpz_neg(n, z);
    r = pcl__int_from_mpz(n);
    mpz_clear(n);
  }
  pcl_release(tx);
  return mark(r, secret);
}

typedef enum rel { REL_LT, REL_LE, REL_GT, REL_GE } rel;

/* The comparison o with the operand rules of pcl_op_lt. */
static pcl_value *relation(rel o, const pcl_value *a, const pcl_value *b, pcl_error **err) {
  bool secret = unwrap_secrets(&a, &b);
  if (a->kind == PCL_T_UNKNOWN || b->kind == PCL_T_UNKNOWN) {
    return mark(pcl_unknown(), secret);
  }
  pcl_value *x, *y, *tx, *ty;
  if (secret) {
    pcl__redact_enter();
  }
  bool ok = operands(a, b, &x, &y, &tx, &ty, err);
  if (secret) {
    pcl__redact_leave();
  }
  if (!ok) {
    return NULL;
  }
  int c = pcl_num_compare(x, y);
  pcl_release(tx);
  pcl_release(ty);
  bool r = false;
  switch (o) {
  case REL_LT:
    r = c < 0;
    break;
  case REL_LE:
    r = c <= 0;
    break;
  case REL_GT:
    r = c > 0;
    break;
  case REL_GE:
    r = c >= 0;
    break;
  }
  return mark(pcl_bool(r), secret);
}

pcl_value *pcl_op_lt(const pcl_value *a, const pcl_value *b, pcl_error **err) {
  return relation(REL_LT, a, b, err);
}
pcl_value *pcl_op_le(const pcl_value *a, const pcl_value *b, pcl_error **err) {
  return relation(REL_LE, a, b, err);
}
pcl_value *pcl_op_gt(const pcl_value *a, const pcl_value *b, pcl_error **err) {
  return relation(REL_GT, a, b, err);
}
pcl_value *pcl_op_ge(const pcl_value *a, const pcl_value *b, pcl_error **err) {
  return relation(REL_GE, a, b, err);
}

pcl_value *pcl_op_eq(const pcl_value *a, const pcl_value *b) {
  bool secret = unwrap_secrets(&a, &b);
  if (!pcl_is_wholly_known(a) || !pcl_is_wholly_known(b)) {
    return mark(pcl_unknown(), secret);
  }
  return mark(pcl_bool(pcl_equal(a, b)), secret);
}

pcl_value *pcl_op_ne(const pcl_value *a, const pcl_value *b) {
  bool secret = unwrap_secrets(&a, &b);
  if (!pcl_is_wholly_known(a) || !pcl_is_wholly_known(b)) {
    return mark(pcl_unknown(), secret);
  }
  return mark(pcl_bool(!pcl_equal(a, b)), secret);
}

/* ------------------------------------------------------- bool operators */

/* Decides the operand v of a logic operator or a condition, described by
 * what for messages: stores its truth in *out (v must not be SECRET or
 * UNKNOWN).  A BOOL as it is; the strings "true"/"1" and "false"/"0"
 * convert (types.md 4.5, 10), other values fail naming the value. */
static bool truth(const pcl_value *v, const char *what, bool *out, pcl_error **err) {
  pcl_value *b = converted_operand(v, what, "bool", pcl_convert_to_bool, err);
  if (b == NULL) {
    return false;
  }
  *out = b->u.b;
  pcl_release(b);
  return true;
}

bool pcl_condition_get(const pcl_value *v, bool *out, pcl_error **err) {
  while (v->kind == PCL_T_SECRET) {
    v = v->u.ref.a;
  }
  if (v->kind == PCL_T_UNKNOWN) {
    *err = pcl_error_new("invalid condition: the value is unknown");
    return false;
  }
  return truth(v, "condition", out, err);
}

pcl_value *pcl_op_not(const pcl_value *a, pcl_error **err) {
  const pcl_value *none = &pcl_null_value;
  bool secret = unwrap_secrets(&a, &none);
  if (a->kind == PCL_T_UNKNOWN) {
    return mark(pcl_unknown(), secret);
  }
  bool b;
  if (!truth(a, "operand", &b, err)) {
    return NULL;
  }
  return mark(pcl_bool(!b), secret);
}

/* a && b (decider false) or a || b (decider true): each known operand must
 * convert to a bool; an operand equal to the decider decides the result
 * whatever the other one is, unknown included; otherwise an unknown operand
 * makes the result unknown (types.md 10). */
static pcl_value *logic(bool decider, const pcl_value *a, const pcl_value *b, pcl_error **err) {
  bool secret = unwrap_secrets(&a, &b);
  bool ua = a->kind == PCL_T_UNKNOWN, ub = b->kind == PCL_T_UNKNOWN;
  bool x = !decider, y = !decider;
  if ((!ua && !truth(a, "left operand", &x, err)) ||
      (!ub && !truth(b, "right operand", &y, err))) {
    return NULL;
  }
  if ((!ua && x == decider) || (!ub && y == decider)) {
    return mark(pcl_bool(decider), secret);
  }
  return mark(ua || ub ? pcl_unknown() : pcl_bool(!decider), secret);
}

pcl_value *pcl_op_and(const pcl_value *a, const pcl_value *b, pcl_error **err) {
  return logic(false, a, b, err);
}

pcl_value *pcl_op_or(const pcl_value *a, const pcl_value *b, pcl_error **err) {
  return logic(true, a, b, err);
}

/* ----------------------------------------------------------- conversions */

pcl_error *pcl__convert_error(const pcl_value *v, const char *type, const char *why) {
  char *r = pcl_kind_of(v) == PCL_T_LIST || pcl_kind_of(v) == PCL_T_MAP ||
                    pcl_kind_of(v) == PCL_T_SET
                ? pcl_xstrdup(pcl_kind_name(pcl_kind_of(v)))
                : pcl_value_repr(v, 64);
  pcl_error *e = pcl_error_new("cannot convert %s to %s: %s", r, type, why);
  free(r);
  return e;
}

/* Handles the kinds every conversion treats alike: null stays null, unknown
 * stays unknown and a secret converts its inner value.  Returns true with
 * the result (or NULL and *err) in *out when v was one of them. */
static bool convert_common(const pcl_value *v, pcl_value *(*conv)(const pcl_value *, pcl_error **),
                           pcl_value **out, pcl_error **err) {
  switch (pcl_kind_of(v)) {
  case PCL_T_NULL:
  case PCL_T_UNKNOWN:
    *out = pcl_retain((pcl_value *)v);
    return true;
  case PCL_T_SECRET:
    /* A message about the conversion shows "[secret]" for the value. */
    pcl__redact_enter();
    *out = mark(conv(v->u.ref.a, err), true);
    pcl__redact_leave();
    return true;
  case PCL_T_BOOL:
  case PCL_T_INT:
  case PCL_T_NUMBER:
  case PCL_T_STRING:
  case PCL_T_LIST:
  case PCL_T_MAP:
  case PCL_T_SET:
  case PCL_T_RESOURCE:
  case PCL_T_ASSET:
  case PCL_T_ARCHIVE:
  case PCL_T_EVENTUAL:
    break;
  }
  return false;
}

pcl_value *pcl_convert_to_string(const pcl_value *v, pcl_error **err) {
  pcl_value *out;
  if (convert_common(v, pcl_convert_to_string, &out, err)) {
    return out;
  }
  pcl_strbuf b = PCL_STRBUF_INIT;
  switch (pcl_kind_of(v)) {
  case PCL_T_STRING:
    return pcl_retain((pcl_value *)v);
  case PCL_T_BOOL:
    return pcl__str_raw(v->u.b ? "true" : "false", v->u.b ? 4 : 5, true);
  case PCL_T_INT:
    if (!pcl__value_fits(pcl__int_text_bound(v), "the string", err)) {
      return NULL;
    }
    pcl_int_format(&b, v);
    break;
  case PCL_T_NUMBER:
    pcl_number_format(&b, v->u.d);
    break;
  case PCL_T_NULL:
  case PCL_T_UNKNOWN:
  case PCL_T_SECRET:
  case PCL_T_LIST:
  case PCL_T_MAP:
  case PCL_T_SET:
  case PCL_T_RESOURCE:
  case PCL_T_ASSET:
  case PCL_T_ARCHIVE:
  case PCL_T_EVENTUAL:
    *err = pcl__convert_error(v, "string", "a string is required");
    return NULL;
  }
  pcl_value *s = pcl__str_raw(b.data, b.len, true);
  pcl_strbuf_free(&b);
  return s;
}

/* Returns the int or number v (not null, unknown or secret) stands for: v
 * itself, or the value of a string's decimal text; NULL with the error of
 * converting v to the type named target when there is none. */
static pcl_value *numeric_of(const pcl_value *v, const char *target, pcl_error **err) {
  if (pcl_is_numeric(v)) {
    return pcl_retain((pcl_value *)v);
  }
  const char *why = "a number is required";
  pcl_value *n = NULL;
  if (v->kind == PCL_T_STRING) {
    bool too_long;
    n = pcl__parse_number(v->u.str.ptr, v->u.str.len, true, &too_long);
    if (n == NULL && too_long) {
      why = "the integer is too long";
    }
    if (n != NULL && n->kind == PCL_T_NUMBER && n->u.d == 0) {
      /* Zero values parse as the int 0, so a number 0 is a nonzero value
       * that underflowed ("1e-400"): refused as the literal is, not made 0. */
      pcl_release(n);
      n = NULL;
      why = "out of range: it rounds to 0";
    }
  }
  if (n == NULL) {
    *err = pcl__convert_error(v, target, why);
  }
  return n;
}

pcl_value *pcl_convert_to_number(const pcl_value *v, pcl_error **err) {
  pcl_value *out;
  if (convert_common(v, pcl_convert_to_number, &out, err)) {
    return out;
  }
  return numeric_of(v, "number", err);
}

pcl_value *pcl_convert_to_int(const pcl_value *v, pcl_error **err) {
  pcl_value *out;
  if (convert_common(v, pcl_convert_to_int, &out, err)) {
    return out;
  }
  pcl_value *n = numeric_of(v, "int", err);
  if (n == NULL || n->kind == PCL_T_INT) {
    return n;
  }
  double d = n->u.d;
  pcl_release(n);
  if (isinf(d) || floor(d) != d) {
    *err = pcl__convert_error(v, "int", "not an integer");
    return NULL;
  }
  return pcl__int_from_double(d);
}

pcl_value *pcl_convert_to_bool(const pcl_value *v, pcl_error **err) {
  pcl_value *out;
  if (convert_common(v, pcl_convert_to_bool, &out, err)) {
    return out;
  }
  if (v->kind == PCL_T_BOOL) {
    return pcl_retain((pcl_value *)v);
  }
  if (v->kind == PCL_T_STRING) {
    const char *s = v->u.str.ptr;
    size_t n = v->u.str.len;
    if ((n == 4 && memcmp(s, "true", 4) == 0) || (n == 1 && s[0] == '1')) {
      return pcl_bool(true);
    }
    if ((n == 5 && memcmp(s, "false", 5) == 0) || (n == 1 && s[0] == '0')) {
      return pcl_bool(false);
    }
    char lower[6] = {0};
    for (size_t i = 0; i < n && i < 5; i++) {
      lower[i] = (char)tolower((unsigned char)s[i]);
    }
    if (n == 4 && strcmp(lower, "true") == 0) {
      *err = pcl__convert_error(v, "bool", "a bool is required; to convert from string, use lowercase \"true\"");
      return NULL;
    }
    if (n == 5 && strcmp(lower, "false") == 0) {
      *err = pcl__convert_error(v, "bool", "a bool is required; to convert from string, use lowercase \"false\"");
      return NULL;
    }
  }
  *err = pcl__convert_error(v, "bool", "a bool is required");
  return NULL;
}
