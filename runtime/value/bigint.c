/* bigint.c: exact ints.  An INT holds an int64 directly, or, outside the
 * int64 range only, a GMP magnitude copied into the value's own block
 * (PCL_F_BIGINT; signed limb count plus limbs, like an mpz).  Every result
 * that fits int64 is demoted, so the int64 form is canonical and two equal
 * ints always have the same representation.
 *
 * Also here: the conversions between ints and doubles, which always round
 * to nearest with ties to even (never truncate as mpz_get_d does), decimal
 * number text to an exact value, and int formatting.
 *
 * Big-int operands are used through read-only GMP views (mpz_roinit_n) of
 * the value's limbs, so reading an int never allocates. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "value/pcl_internal.h"

_Static_assert(sizeof(mp_limb_t) == sizeof(uint64_t), "libpclrt needs 64-bit GMP limbs");
_Static_assert(GMP_NAIL_BITS == 0, "libpclrt needs GMP without nail bits");
_Static_assert(sizeof(long) == sizeof(int64_t), "libpclrt needs a 64-bit long");

/* The longest int a literal or parsed text may denote, in decimal digits. */
#define MAX_INT_DIGITS 100000

/* Immortal small ints, filled in on first use (kind 0 is NULL, so an unused
 * slot is recognisable). */
#define SMALL_MIN (-16)
#define SMALL_MAX 1023
static pcl_value small_ints[SMALL_MAX - SMALL_MIN + 1];

pcl_value *pcl_int_new(int64_t v) {
  if (v >= SMALL_MIN && v <= SMALL_MAX) {
    pcl_value *s = &small_ints[v - SMALL_MIN];
    if (s->kind != PCL_T_INT) {
      s->kind = PCL_T_INT;
      s->u.i = v;
    }
    return s;
  }
  pcl_value *r = pcl__value_alloc(PCL_T_INT, 0);
  r->u.i = v;
  return r;
}

pcl_value *pcl__int_from_mpz(mpz_srcptr z) {
  if (mpz_fits_slong_p(z)) {
    return pcl_int_new((int64_t)mpz_get_si(z));
  }
  size_t n = mpz_size(z);
  pcl_value *v = pcl__value_alloc(PCL_T_INT, n * sizeof(uint64_t));
  uint64_t *limbs = (uint64_t *)(void *)(v + 1);
  memcpy(limbs, mpz_limbs_read(z), n * sizeof(uint64_t));
  v->flags = PCL_F_BIGINT;
  v->u.big.size = mpz_sgn(z) < 0 ? -(int64_t)n : (int64_t)n;
  v->u.big.limbs = limbs;
  return v;
}

void pcl__int_view(const pcl_value *v, mpz_t view, mp_limb_t *scratch) {
  if (v->flags & PCL_F_BIGINT) {
    mpz_roinit_n(view, (const mp_limb_t *)v->u.big.limbs, (mp_size_t)v->u.big.size);
    return;
  }
  int64_t i = v->u.i;
  *scratch = i < 0 ? (mp_limb_t)0 - (mp_limb_t)i : (mp_limb_t)i;
  mpz_roinit_n(view, scratch, i < 0 ? -1 : i > 0 ? 1 : 0);
}

bool pcl_int_get_i64(const pcl_value *v, int64_t *out) {
  if (v->flags & PCL_F_BIGINT) {
    return false;
  }
  *out = v->u.i;
  return true;
}

int pcl_num_sign(const pcl_value *v) {
  if (v->kind == PCL_T_NUMBER) {
    return v->u.d > 0 ? 1 : v->u.d < 0 ? -1 : 0;
  }
  if (v->flags & PCL_F_BIGINT) {
    return v->u.big.size < 0 ? -1 : 1;
  }
  return v->u.i > 0 ? 1 : v->u.i < 0 ? -1 : 0;
}

/* ------------------------------------------------------- ints to doubles */

double pcl__mpz_scaled_to_double(mpz_srcptr q, long exp2, bool sticky) {
  size_t n = mpz_sizeinbase(q, 2);
  if (mpz_sgn(q) == 0) {
    return 0.0;
  }
  /* The value lies in [2^e, 2^(e+1)); below 2^-1022 fewer than 53 bits of
   * precision remain (subnormals), so p is the precision available there. */
  long e = exp2 + (long)n - 1;
  long p = e >= -1022 ? 53 : e + 1075;
  if (p < 0) {
    return 0.0;
  }
  if ((long)n <= p) {
    /* Exact (a caller with a sticky remainder supplies more bits than p). */
    return ldexp(mpz_get_d(q), (int)(exp2 < INT_MIN ? INT_MIN : exp2 > INT_MAX ? INT_MAX : exp2));
  }
  size_t drop = n - (size_t)p;
  mpz_t m;
  mpz_init(m);
  mpz_tdiv_q_2exp(m, q, drop);
  bool half = mpz_tstbit(q, drop - 1) != 0;
  bool rest = sticky || mpz_scan1(q, 0) < drop - 1;
  if (half && (rest || mpz_odd_p(m))) {
    mpz_add_ui(m, m, 1);
  }
  double mant = mpz_get_d(m); /* At most 54 bits: exact (2^53 is exact too). */
  mpz_clear(m);
  long scale = exp2 + (long)drop;
  if (scale > INT_MAX) {
    return HUGE_VAL;
  }
  return ldexp(mant, (int)scale);
}

/* Returns |z| rounded to nearest, ties to even, with the sign of z. */
static double pcl__mpz_to_double_rne(mpz_srcptr z) {
  if (mpz_sizeinbase(z, 2) <= 53) {
    return mpz_get_d(z);
  }
  mpz_t mag;
  mpz_roinit_n(mag, mpz_limbs_read(z), (mp_size_t)mpz_size(z));
  double d = pcl__mpz_scaled_to_double(mag, 0, false);
  return mpz_sgn(z) < 0 ? -d : d;
}

double pcl_num_to_double(const pcl_value *v) {
  if (v->kind == PCL_T_NUMBER) {
    return v->u.d;
  }
  if (!(v->flags & PCL_F_BIGINT)) {
    int64_t i = v->u.i;
    if (i >= -(INT64_C(1) << 53) && i <= (INT64_C(1) << 53)) {
      return (double)i;
    }
  }
  mpz_t z;
  mp_limb_t scratch;
  pcl__int_view(v, z, &scratch);
  return pcl__mpz_to_double_rne(z);
}

double pcl__int_div_double(const pcl_value *a, const pcl_value *b) {
  int64_t x, y;
  const int64_t lim = INT64_C(1) << 53;
  if (pcl_int_get_i64(a, &x) && pcl_int_get_i64(b, &y) && x >= -lim && x <= lim && y >= -lim &&
      y <= lim) {
    /* Both operands are exact doubles, and IEEE division rounds once. */
    return (double)x / (double)y;
  }
  mpz_t za, zb;
  mp_limb_t sa, sb;
  pcl__int_view(a, za, &sa);
  pcl__int_view(b, zb, &sb);
  bool neg = (mpz_sgn(za) < 0) != (mpz_sgn(zb) < 0);
  mpz_t num, den;
  mpz_inits(num, den, NULL);
  mpz_abs(num, za);
  mpz_abs(den, zb);
  double d = pcl__mpz_ratio_to_double(num, den, 0);
  mpz_clears(num, den, NULL);
  return neg ? -d : d;
}

double pcl__mpz_ratio_to_double(mpz_ptr num, mpz_srcptr den, long exp2) {
  if (mpz_sgn(num) == 0) {
    return 0.0;
  }
  /* Scale the dividend so that the quotient has at least 55 bits: 53 for
   * the double, one to round with, and the remainder as the sticky bit. */
  long shift = (long)mpz_sizeinbase(den, 2) - (long)mpz_sizeinbase(num, 2) + 55;
  if (shift < 0) {
    shift = 0;
  }
  mpz_mul_2exp(num, num, (mp_bitcnt_t)shift);
  mpz_t q;
  mpz_init(q);
  mpz_tdiv_qr(q, num, num, den);
  double d = pcl__mpz_scaled_to_double(q, exp2 - shift, mpz_sgn(num) != 0);
  mpz_clear(q);
  return d;
}

int pcl__int_cmp_double(const pcl_value *a, double d) {
  if (isinf(d)) {
    return d > 0 ? -1 : 1;
  }
  int64_t i;
  if (pcl_int_get_i64(a, &i) && i >= -(INT64_C(1) << 53) && i <= (INT64_C(1) << 53)) {
    double x = (double)i;
    return x < d ? -1 : x > d;
  }
  mpz_t z, f;
  mp_limb_t scratch;
  pcl__int_view(a, z, &scratch);
  double fl = floor(d);
  mpz_init_set_d(f, fl);
  int c = mpz_cmp(z, f);
  mpz_clear(f);
  if (fl == d || c > 0) {
    return c < 0 ? -1 : c > 0;
  }
  /* d is not integral and a <= floor(d) < d. */
  return -1;
}

pcl_value *pcl__int_from_double(double d) {
  if (d >= -9223372036854775808.0 && d < 9223372036854775808.0) {
    return pcl_int_new((int64_t)d);
  }
  mpz_t z;
  mpz_init_set_d(z, d);
  pcl_value *v = pcl__int_from_mpz(z);
  mpz_clear(z);
  return v;
}

/* ---------------------------------------------------------- decimal text */

pcl_value *pcl__parse_number(const char *text, size_t len, bool allow_inf, bool *too_long) {
  *too_long = false;
  size_t i = 0;
  bool neg = false;
  if (i < len && (text[i] == '+' || text[i] == '-')) {
    neg = text[i] == '-';
    i++;
  }
  if (allow_inf && ((len - i == 3 && (memcmp(text + i, "Inf", 3) == 0 ||
                                      memcmp(text + i, "inf", 3) == 0)))) {
    return pcl_number_new(neg ? -HUGE_VAL : HUGE_VAL);
  }
  /* Mantissa: digits with at most one '.', at least one digit. */
  size_t mant_start = i, first_digit = len, ndigits = 0, nfrac = 0;
  bool dot = false;
  for (; i < len; i++) {
    char c = text[i];
    if (c >= '0' && c <= '9') {
      if (first_digit == len && c != '0') {
        first_digit = i;
      }
      if (first_digit != len) {
        ndigits++;
      }
      if (dot) {
        nfrac++;
      }
    } else if (c == '.' && !dot) {
      dot = true;
    } else {
      break;
    }
  }
  size_t mant_end = i;
  if (mant_end - mant_start == (dot ? 1u : 0u)) {
    return NULL;
  }
  long long exp = 0;
  if (i < len && (text[i] == 'e' || text[i] == 'E')) {
    i++;
    bool eneg = false;
    if (i < len && (text[i] == '+' || text[i] == '-')) {
      eneg = text[i] == '-';
      i++;
    }
    if (i == len) {
      return NULL;
    }
    for (; i < len && text[i] >= '0' && text[i] <= '9'; i++) {
      if (exp < 1000000000) {
        exp = exp * 10 + (text[i] - '0');
      }
    }
    if (eneg) {
      exp = -exp;
    }
  }
  if (i != len) {
    return NULL;
  }
  if (ndigits == 0) {
    return pcl_int_new(0);
  }
  /* The significant digits, without the dot; then drop trailing zeros. */
  char *digits = pcl_xmalloc(ndigits + 1);
  size_t nd = 0;
  for (size_t j = first_digit; j < mant_end; j++) {
    if (text[j] != '.') {
      digits[nd++] = text[j];
    }
  }
  /* Fraction digits before the first significant digit only scale. */
  long long k = exp - (long long)nfrac;
  while (nd > 1 && digits[nd - 1] == '0') {
    nd--;
    k++;
  }
  digits[nd] = '\0';
  pcl_value *r;
  if (k >= 0) {
    if ((long long)nd + k > MAX_INT_DIGITS) {
      free(digits);
      *too_long = true;
      return NULL;
    }
    if ((long long)nd + k <= 18) {
      int64_t x = 0;
      for (size_t j = 0; j < nd; j++) {
        x = x * 10 + (digits[j] - '0');
      }
      for (long long j = 0; j < k; j++) {
        x *= 10;
      }
      r = pcl_int_new(neg ? -x : x);
    } else {
      mpz_t z, p;
      mpz_init_set_str(z, digits, 10);
      mpz_init(p);
      mpz_ui_pow_ui(p, 10, (unsigned long)k);
      mpz_mul(z, z, p);
      if (neg) {
        mpz_neg(z, z);
      }
      r = pcl__int_from_mpz(z);
      mpz_clears(z, p, NULL);
    }
  } else {
    /* Not integral: the C library's strtod rounds correctly. */
    char *tmp = pcl_xmalloc(len + 1);
    memcpy(tmp, text, len);
    tmp[len] = '\0';
    double d = strtod(tmp, NULL);
    free(tmp);
    r = pcl_number_new(d);
  }
  free(digits);
  return r;
}

pcl_value *pcl_num_literal(const char *text, size_t len, pcl_error **err) {
  bool too_long;
  pcl_value *v = pcl__parse_number(text, len, false, &too_long);
  /* Zero values parse as the int 0, so a number 0 is a nonzero value that
   * underflowed: refused as the compiler refuses the literal, not silently
   * made 0. */
  bool underflow = v != NULL && v->kind == PCL_T_NUMBER && v->u.d == 0;
  if (v != NULL && !underflow) {
    return v;
  }
  pcl_release(v);
  pcl_value *s = pcl_str_new_lossy(text, len);
  char *r = pcl_value_repr(s, 64);
  *err = underflow  ? pcl_error_new("the number %s is out of range: it rounds to 0", r)
         : too_long ? pcl_error_new("the integer %s has more than %d digits", r, MAX_INT_DIGITS)
                    : pcl_error_new("%s is not a number", r);
  free(r);
  pcl_release(s);
  return NULL;
}

pcl_value *pcl_int_parse(const char *text, size_t len, pcl_error **err) {
  pcl_value *s = pcl_str_new_lossy(text, len);
  pcl_value *v = pcl_convert_to_int(s, err);
  pcl_release(s);
  return v;
}

void pcl_int_format(pcl_strbuf *b, const pcl_value *v) {
  if (!(v->flags & PCL_F_BIGINT)) {
    /* Digits from the right, without printf: this runs for every int that
     * JSON encoding or a template writes. */
    char buf[24];
    char *p = buf + sizeof buf;
    uint64_t m = v->u.i < 0 ? -(uint64_t)v->u.i : (uint64_t)v->u.i;
    do {
      *--p = (char)('0' + m % 10);
      m /= 10;
    } while (m != 0);
    if (v->u.i < 0) {
      *--p = '-';
    }
    pcl_strbuf_append(b, p, (size_t)(buf + sizeof buf - p));
    return;
  }
  mpz_t z;
  mp_limb_t scratch;
  pcl__int_view(v, z, &scratch);
  size_t n = mpz_sizeinbase(z, 10) + 2;
  char *s = pcl_xmalloc(n);
  mpz_get_str(s, 10, z);
  pcl_strbuf_append_cstr(b, s);
  free(s);
}

size_t pcl__int_text_bound(const pcl_value *v) {
  if (!(v->flags & PCL_F_BIGINT)) {
    return 20;
  }
  mpz_t z;
  mp_limb_t scratch;
  pcl__int_view(v, z, &scratch);
  /* mpz_sizeinbase may say one digit too many, never too few. */
  return mpz_sizeinbase(z, 10) + 1;
}

size_t pcl__int_bytes(const pcl_value *v) {
  if (!(v->flags & PCL_F_BIGINT)) {
    return sizeof(int64_t);
  }
  int64_t size = v->u.big.size;
  return (size_t)(size < 0 ? -size : size) * sizeof(mp_limb_t);
}

void pcl__int_format_prefix(pcl_strbuf *b, const pcl_value *v, size_t max) {
  mpz_t z, q, p;
  mp_limb_t scratch;
  pcl__int_view(v, z, &scratch);
  if (!(v->flags & PCL_F_BIGINT) || max >= SIZE_MAX - 2 || mpz_sizeinbase(z, 10) <= max + 2) {
    pcl_int_format(b, v);
    return;
  }
  /* The leading digits only: v divided by a power of ten, so that the text
   * of a huge int is not written whole to be cut. */
  mpz_inits(q, p, NULL);
  mpz_ui_pow_ui(p, 10, (unsigned long)(mpz_sizeinbase(z, 10) - max - 2));
  mpz_tdiv_q(q, z, p);
  size_t n = mpz_sizeinbase(q, 10) + 2;
  char *text = pcl_xmalloc(n);
  mpz_get_str(text, 10, q);
  pcl_strbuf_append_cstr(b, text);
  free(text);
  mpz_clears(q, p, NULL);
}
