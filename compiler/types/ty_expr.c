/* ty_expr: the typing rules of literals and operators — number literals
 * (types.md §8 with DECISIONS.md D3) and operators (§10 with D3).
 *
 * Number literals are read exactly: an integral value of any size becomes
 * const(int) with its GMP value, anything else const(number) with the
 * nearest double. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "types/ty.h"
#include "types/ty_impl.h"
#include "base/util.h"

/* Integral literals whose decimal exponent exceeds this are rejected rather
 * than expanded (10^100000 already has a hundred thousand digits). */
enum { MAX_INT_EXPONENT = 100000 };

/* ------------------------------------------------------ number literals */

static bool is_digit(char ch) { return ch >= '0' && ch <= '9'; }

/* Reads the number literal text (negated when negate is set) without the
   cache of ty_number_literal. */
static const ty *read_number_literal(ty_ctx *c, const char *text, bool negate) {
  const char *p = text;
  const char *int_start = p;
  while (is_digit(*p))
    p++;
  size_t int_len = (size_t)(p - int_start);
  if (int_len == 0)
    return NULL;
  const char *frac_start = p, *frac_end = p;
  if (*p == '.') {
    frac_start = ++p;
    while (is_digit(*p))
      p++;
    frac_end = p;
    if (frac_end == frac_start)
      return NULL;
  }
  long exp = 0;
  if (*p == 'e' || *p == 'E') {
    p++;
    bool neg = false;
    if (*p == '+' || *p == '-')
      neg = *p++ == '-';
    if (!is_digit(*p))
      return NULL;
    while (is_digit(*p)) {
      if (exp < 100000000)
        exp = exp * 10 + (*p - '0');
      p++;
    }
    if (neg)
      exp = -exp;
  }
  if (*p)
    return NULL;

  /* value = digits * 10^scale, with digits the integer and fraction digits. */
  size_t frac_len = (size_t)(frac_end - frac_start);
  char *digits = xmalloc(int_len + frac_len + 1);
  memcpy(digits, int_start, int_len);
  memcpy(digits + int_len, frac_start, frac_len);
  digits[int_len + frac_len] = '\0';
  long scale = exp - (long)frac_len;
  mpz_t m;
  mpz_init_set_str(m, digits, 10);
  free(digits);

  const ty *result = NULL;
  bool integral = false;
  if (mpz_sgn(m) == 0) {
    integral = true;
  } else if (scale >= 0) {
    if (scale <= MAX_INT_EXPONENT) {
      mpz_t pow;
      mpz_init(pow);
      mpz_ui_pow_ui(pow, 10, (unsigned long)scale);
      mpz_mul(m, m, pow);
      mpz_clear(pow);
      integral = true;
    } else {
      mpz_clear(m);
      return NULL;
    }
  } else if ((size_t)-scale <= mpz_sizeinbase(m, 10)) {
    /* Only a divisor with no more digits than m can divide it exactly. */
    mpz_t pow;
    mpz_init(pow);
    mpz_ui_pow_ui(pow, 10, (unsigned long)-scale);
    if (mpz_divisible_p(m, pow)) {
      mpz_divexact(m, m, pow);
      integral = true;
    }
    mpz_clear(pow);
  }
  if (integral) {
    if (negate)
      mpz_neg(m, m);
    result = ty_const_int(c, m);
  } else {
    /* m is not zero here, so a value that rounds to 0 has underflowed: it is
       refused like one that overflows, rather than silently becoming 0.  A
       subnormal result is still the nearest double and is kept. */
    double v = strtod(text, NULL);
    if (isfinite(v) && v != 0)
      result = ty_const_number(c, negate ? -v : v);
  }
  mpz_clear(m);
  return result;
}

/* A program repeats a few literals many times, and reading one costs GMP
   arithmetic plus the interning of its type, so the types are cached by the
   literal's text.  Rejected literals are not cached: they are rare. */
const ty *ty_number_literal(ty_ctx *c, const char *text, bool negate) {
  ptrmap *m = negate ? &c->negated_literals : &c->literals;
  /* The parser interns literal texts, so text itself is usually the key;
     any other pointer equal to a key is that interned string. */
  const ty *t = ptrmap_get(m, text);
  if (t)
    return t;
  const char *key = intern(c->names, text);
  t = ptrmap_get(m, key);
  if (t)
    return t;
  t = read_number_literal(c, text, negate);
  if (t)
    ptrmap_put(m, key, (void *)t);
  return t;
}

/* ------------------------------------------------------------ operators */

bool ty_is_int_like(const ty *t) {
  t = ty_strip_eventual(t);
  switch (t->kind) {
  case TY_INT:
    return true;
  case TY_CONST:
    return t->cnst.base->kind == TY_INT;
  case TY_UNION:
    for (size_t i = 0; i < t->elems.count; i++) {
      if (!ty_is_int_like(t->elems.items[i]))
        return false;
    }
    return true;
  case TY_BOOL:
  case TY_NUMBER:
  case TY_STRING:
  case TY_ID:
  case TY_DYNAMIC:
  case TY_NONE:
  case TY_OPAQUE:
  case TY_LIST:
  case TY_MAP:
  case TY_SET:
  case TY_TUPLE:
  case TY_OBJECT:
  case TY_OUTPUT:
  case TY_PROMISE:
  case TY_ENUM:
    break;
  }
  return false;
}

const ty *ty_operation(ty_ctx *c, ty_operator op, size_t n, const ty *const *operands,
                       const ty **param) {
  bool ints = true;
  for (size_t i = 0; i < n; i++)
    ints = ints && ty_is_int_like(operands[i]);
  const ty *p = NULL, *result = NULL;
  switch (op) {
  case TY_OP_ARITHMETIC:
  case TY_OP_NEGATION:
    /* D3: int op int is an exact int; the reference types only `int op int`
       (not constants) this way. */
    p = result = ints ? ty_int(c) : ty_number(c);
    break;
  case TY_OP_DIVISION:
    /* D3: `/` is real division, always number. */
    p = result = ty_number(c);
    break;
  case TY_OP_ORDER:
    p = ints ? ty_int(c) : ty_number(c);
    result = ty_bool(c);
    break;
  case TY_OP_EQUALITY:
    p = ty_optional(c, ty_dynamic(c));
    result = ty_bool(c);
    break;
  case TY_OP_LOGIC:
  case TY_OP_NOT:
    p = result = ty_bool(c);
    break;
  }
  if (!p)
    ice("bad operator %d", (int)op);
  if (param)
    *param = ty_input(c, p);
  return ty_lift(c, result, n, operands);
}
