/* test_ty.c: the type system (compiler/types/ty.h) against ../shared/spec/types.md.
 *
 * Every row of the three §18 tables (ty_vectors.h) is checked: conversions
 * and assignability (18.1), pairwise and n-ary unification (18.2), and the
 * expression typing rows (18.3) through the type-level functions the checker
 * uses for them (literal typing, operators, traversal, iteration, lifting,
 * unification).  Further tests cover interning, the canonical construction
 * rules, pretty printing, InputType, traversal diagnostics, recursive named
 * objects, number literals and type expressions built as ASTs.
 *
 * Types in tables are written in the §18 notation and read by the small
 * parser `T()` below, which builds them with the public constructors. */
#include <CUnit/CUnit.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/stack.h"
#include "bind/type_expr.h"
#include "front/parse.h"
#include "small_stack.h"
#include "types/ty.h"
#include "ty_vectors.h"
#include "base/util.h"

/* ------------------------------------------------------------- fixture */

static arena g_arena;
static intern_table g_names;
static ty_ctx g_ty;
static src_set g_src;
static diag_list g_diags;
static ty_ctx *C = &g_ty;

static int setup(void) {
  arena_init(&g_arena);
  intern_init(&g_names, &g_arena);
  ty_ctx_init(&g_ty, &g_arena, &g_names);
  src_init(&g_src);
  src_add(&g_src, "t.pp", "0123456789", 10);
  diag_init(&g_diags, &g_src);
  return 0;
}

static int teardown(void) {
  diag_free(&g_diags);
  src_free(&g_src);
  ty_ctx_free(&g_ty);
  intern_free(&g_names);
  arena_free(&g_arena);
  return 0;
}

/* Clears the diagnostics collected so far. */
static void reset_diags(void) {
  diag_free(&g_diags);
  diag_init(&g_diags, &g_src);
}

/* Records a failed check with a formatted message (CUnit copies it). */
static void fail(int line, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(int line, const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  CU_assertImplementation(CU_FALSE, (unsigned)line, buf, __FILE__, "", CU_FALSE);
}

#define CHECK(cond, ...)                                                                   \
  do {                                                                                     \
    if (cond) {                                                                            \
      CU_PASS(#cond);                                                                      \
    } else {                                                                               \
      fail(__LINE__, __VA_ARGS__);                                                         \
    }                                                                                      \
  } while (0)

/* ------------------------------------------------- §18 notation parser */

typedef struct tparser {
  const char *text; /* Whole input, for messages and enum tokens. */
  const char *p;    /* Next character. */
  bool err;         /* A syntax error was found. */
} tparser;

static void ws(tparser *t) {
  while (*t->p == ' ')
    t->p++;
}

static bool eat(tparser *t, char ch) {
  ws(t);
  if (*t->p == ch) {
    t->p++;
    return true;
  }
  return false;
}

static void expect(tparser *t, char ch) {
  if (!eat(t, ch))
    t->err = true;
}

static bool ident_char(char ch, bool first) {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' ||
         (!first && ((ch >= '0' && ch <= '9') || ch == '-'));
}

static void ident(tparser *t, char *buf, size_t cap) {
  ws(t);
  size_t n = 0;
  while (ident_char(*t->p, n == 0) && n + 1 < cap)
    buf[n++] = *t->p++;
  buf[n] = '\0';
  if (n == 0)
    t->err = true;
}

/* Reads a quoted string ('...' or "...") into buf; returns its length. */
static size_t quoted(tparser *t, char *buf, size_t cap) {
  ws(t);
  char q = *t->p;
  if (q != '"' && q != '\'') {
    t->err = true;
    return 0;
  }
  t->p++;
  size_t n = 0;
  while (*t->p && *t->p != q && n + 1 < cap) {
    if (*t->p == '\\' && t->p[1])
      t->p++;
    buf[n++] = *t->p++;
  }
  buf[n] = '\0';
  if (*t->p != q)
    t->err = true;
  else
    t->p++;
  return n;
}

/* Reads a constant of the given base type. */
static const ty *value(tparser *t, const ty *base) {
  ws(t);
  char buf[256];
  if (*t->p == '"' || *t->p == '\'') {
    size_t n = quoted(t, buf, sizeof buf);
    return ty_const_string(C, buf, n);
  }
  if (*t->p == '-' || (*t->p >= '0' && *t->p <= '9')) {
    size_t n = 0;
    while ((*t->p == '-' || *t->p == '.' || *t->p == 'e' || *t->p == '+' ||
            (*t->p >= '0' && *t->p <= '9')) &&
           n + 1 < sizeof buf)
      buf[n++] = *t->p++;
    buf[n] = '\0';
    if (base == ty_int(C)) {
      mpz_t z;
      if (mpz_init_set_str(z, buf, 10) != 0)
        t->err = true;
      const ty *r = ty_const_int(C, z);
      mpz_clear(z);
      return r;
    }
    return ty_const_number(C, strtod(buf, NULL));
  }
  ident(t, buf, sizeof buf);
  if (!strcmp(buf, "true") || !strcmp(buf, "false"))
    return ty_const_bool(C, buf[0] == 't');
  if (!strcmp(buf, "null"))
    return ty_const_null(C);
  t->err = true;
  return ty_dynamic(C);
}

static const ty *ptype(tparser *t);

/* Reads `(T, T, ...)` (possibly empty) into items; returns the count. */
static size_t type_list(tparser *t, const ty **items, size_t cap) {
  size_t n = 0;
  expect(t, '(');
  if (eat(t, ')'))
    return 0;
  do {
    if (n == cap) {
      t->err = true;
      return n;
    }
    items[n++] = ptype(t);
  } while (eat(t, ','));
  expect(t, ')');
  return n;
}

static const ty *one_arg(tparser *t) {
  expect(t, '(');
  const ty *r = ptype(t);
  expect(t, ')');
  return r;
}

static const ty *ptype(tparser *t) {
  const char *start = t->p;
  char name[128];
  ident(t, name, sizeof name);
  if (t->err)
    return ty_dynamic(C);
  const ty *items[16];
  if (!strcmp(name, "bool"))
    return ty_bool(C);
  if (!strcmp(name, "int"))
    return ty_int(C);
  if (!strcmp(name, "number"))
    return ty_number(C);
  if (!strcmp(name, "string"))
    return ty_string(C);
  if (!strcmp(name, "id"))
    return ty_id(C);
  if (!strcmp(name, "dynamic"))
    return ty_dynamic(C);
  if (!strcmp(name, "none"))
    return ty_none(C);
  if (!strcmp(name, "list"))
    return ty_list(C, one_arg(t));
  if (!strcmp(name, "map"))
    return ty_map(C, one_arg(t));
  if (!strcmp(name, "set"))
    return ty_set(C, one_arg(t));
  if (!strcmp(name, "output"))
    return ty_output(C, one_arg(t));
  if (!strcmp(name, "promise"))
    return ty_promise(C, one_arg(t));
  if (!strcmp(name, "optional"))
    return ty_optional(C, one_arg(t));
  if (!strcmp(name, "tuple")) {
    size_t n = type_list(t, items, 16);
    return ty_tuple(C, n, items);
  }
  if (!strcmp(name, "union")) {
    size_t n = type_list(t, items, 16);
    return ty_union(C, n, items);
  }
  if (!strcmp(name, "const")) {
    expect(t, '(');
    const ty *base = ptype(t);
    const ty *r = value(t, base);
    expect(t, ')');
    return r;
  }
  if (!strcmp(name, "enum")) {
    expect(t, '(');
    const ty *base = ptype(t);
    expect(t, ':');
    size_t n = 0;
    do {
      items[n++] = value(t, base);
    } while (n < 16 && eat(t, '|'));
    expect(t, ')');
    /* The written form is the token: equal notation, equal enum. */
    char token[256];
    snprintf(token, sizeof token, "test:enum:%.*s", (int)(t->p - start), start);
    return ty_enum(C, token, base, n, items);
  }
  if (!strcmp(name, "object")) {
    ty_prop props[16];
    size_t n = 0;
    expect(t, '(');
    expect(t, '{');
    if (!eat(t, '}')) {
      do {
        char pname[64];
        ws(t);
        if (*t->p == '"')
          quoted(t, pname, sizeof pname);
        else
          ident(t, pname, sizeof pname);
        expect(t, '=');
        props[n].name = pname[0] ? intern(&g_names, pname) : "";
        props[n].type = ptype(t);
        n++;
      } while (n < 16 && eat(t, ','));
      expect(t, '}');
    }
    expect(t, ')');
    return ty_object(C, n, props);
  }
  return ty_opaque(C, name);
}

/* Parses a type written in §18 notation; a syntax error fails the test. */
static const ty *T_at(int line, const char *text) {
  tparser t = {text, text, false};
  const ty *r = ptype(&t);
  ws(&t);
  if (t.err || *t.p) {
    fail(line, "cannot parse type notation '%s'", text);
    return ty_dynamic(C);
  }
  return r;
}
#define T(text) T_at(__LINE__, text)

/* ----------------------------------------------------- diagnostics */

static size_t count_diags(diag_severity sev) {
  size_t n = 0;
  for (diag *d = g_diags.head; d; d = d->next)
    n += d->severity == sev;
  return n;
}

/* True if some diagnostic has this severity and message. */
static bool has_diag(diag_severity sev, const char *msg) {
  for (diag *d = g_diags.head; d; d = d->next) {
    if (d->severity == sev && !strcmp(d->message, msg))
      return true;
  }
  return false;
}

static const char *first_message(void) { return g_diags.head ? g_diags.head->message : "(none)"; }

static const pcl_span SPAN = {0, 2, 5};

/* ------------------------------------------------------- §18.1, §18.2 */

static void test_conversion_vectors(void) {
  int row = 0;
#define X(from, to, kind, assign)                                                          \
  do {                                                                                     \
    row++;                                                                                 \
    const ty *s = T(from), *t = T(to);                                                     \
    ty_conv k = ty_conversion(C, t, s);                                                    \
    CHECK(k == (kind), "18.1 row %d: %s <- %s: kind %s, expected %s", row, to, from,      \
          ty_conv_name(k), ty_conv_name(kind));                                            \
    bool a = ty_assignable(C, t, s);                                                       \
    CHECK(a == (assign), "18.1 row %d: %s <- %s: assignable %d, expected %d", row, to,    \
          from, a, (assign));                                                              \
  } while (0);
  /* The second pass answers from the memo table. */
  for (int pass = 0; pass < 2; pass++) {
    row = 0;
    TY_CONVERSION_VECTORS(X)
  }
#undef X
  CU_ASSERT_EQUAL(row, 106);
}

static void test_unify_vectors(void) {
  int row = 0;
#define X(a, b, u, ukind, safe, unsafe)                                                    \
  do {                                                                                     \
    row++;                                                                                 \
    const ty *ta = T(a), *tb = T(b);                                                       \
    ty_conv k;                                                                             \
    const ty *r = ty_unify(C, ta, tb, &k);                                                 \
    CHECK(r == T(u) && k == (ukind), "18.2 row %d: unify(%s, %s) = %s (%s), expected %s (%s)", \
          row, a, b, ty_to_string(r), ty_conv_name(k), u, ty_conv_name(ukind));            \
    const ty *pair[2] = {ta, tb};                                                          \
    const ty *rs, *ru;                                                                     \
    ty_unify_types(C, 2, pair, &rs, &ru);                                                  \
    CHECK(rs == T(safe), "18.2 row %d: UnifyTypes(%s, %s) safe = %s, expected %s", row, a, \
          b, ty_to_string(rs), safe);                                                      \
    CHECK(ru == T(unsafe), "18.2 row %d: UnifyTypes(%s, %s) unsafe = %s, expected %s", row, \
          a, b, ty_to_string(ru), unsafe);                                                 \
  } while (0);
  for (int pass = 0; pass < 2; pass++) {
    row = 0;
    TY_UNIFY_VECTORS(X)
  }
#undef X
  CU_ASSERT_EQUAL(row, 49);
}

/* The multi-type vectors of TestUnifyType quoted after the 18.2 table. */
static void test_unify_multi(void) {
  const ty *m0 = T("object({foo=string})"), *m1 = T("object({foo=bool})");
  const ty *m2 = T("object({bar=string})");
  const ty *m4 = T("object({foo=map(string), bar=list(string)})");
  const ty *v01[] = {m0, m1}, *v02[] = {m0, m2}, *v4201[] = {m4, m2, m0, m1};
  CU_ASSERT_PTR_EQUAL(ty_unify_safe(C, 2, v01), m0);
  CU_ASSERT_PTR_EQUAL(ty_unify_safe(C, 2, v02),
                      T("object({foo=optional(string), bar=optional(string)})"));
  CU_ASSERT_PTR_EQUAL(ty_unify_safe(C, 4, v4201),
                      T("object({foo=optional(union(map(string), string, none)), "
                        "bar=optional(union(list(string), string, none))})"));
  const ty *tt[] = {T("tuple(number, bool)"), T("tuple(string, number)")};
  const ty *safe, *unsafe;
  ty_unify_types(C, 2, tt, &safe, &unsafe);
  CU_ASSERT_PTR_EQUAL(safe, T("union(tuple(number, bool), tuple(string, number))"));
  CU_ASSERT_PTR_EQUAL(unsafe, T("tuple(string, number)"));
  const ty *t3[] = {T("tuple(number, bool, string)"), T("tuple(number, bool)")};
  CU_ASSERT_PTR_EQUAL(ty_unify_safe(C, 2, t3), T("tuple(number, bool, optional(string))"));
  /* No types: both folds give none; one type is itself. */
  ty_unify_types(C, 0, NULL, &safe, &unsafe);
  CU_ASSERT_PTR_EQUAL(safe, ty_none(C));
  CU_ASSERT_PTR_EQUAL(unsafe, ty_none(C));
  CU_ASSERT_PTR_EQUAL(ty_unify_safe(C, 1, &m4), m4);
  /* `try(1, 2, 3)` (functions_test.go). */
  const ty *lits[] = {ty_const_int_si(C, 1), ty_const_int_si(C, 2), ty_const_int_si(C, 3)};
  CU_ASSERT_PTR_EQUAL(ty_unify_safe(C, 3, lits),
                      T("union(const(int 1), const(int 2), const(int 3))"));
  /* The unifying flag: tuples of different lengths and objects with
     different keys convert for unification purposes only. */
  CU_ASSERT_EQUAL(ty_conversion_unifying(C, T("tuple(string)"), T("tuple(string, string)")),
                  TY_CONV_SAFE);
  CU_ASSERT_EQUAL(ty_conversion(C, T("tuple(string)"), T("tuple(string, string)")),
                  TY_CONV_NONE);
  CU_ASSERT_EQUAL(ty_conversion_unifying(C, T("object({a=string})"), T("object({b=int})")),
                  TY_CONV_SAFE);
  CU_ASSERT_EQUAL(ty_conversion(C, T("object({a=string})"), T("object({b=int})")),
                  TY_CONV_NONE);
}

/* --------------------------------------------------------------- §18.3 */

/* The environment of 18.3. */
static const ty *env(const char *name) {
#define X(n, t)                                                                            \
  if (!strcmp(name, n))                                                                    \
    return T(t);
  TY_EXPR_ENV(X)
#undef X
  fail(__LINE__, "no variable %s in the 18.3 environment", name);
  return ty_dynamic(C);
}

static const ty *attr(const ty *recv, const char *name, bool *clean) {
  ty_traverser k = {TY_TRAV_ATTR, name, strlen(name), false, NULL};
  return ty_traverse(C, recv, &k, &g_diags, SPAN, clean);
}

static const ty *index_num(const ty *recv, const char *num, bool *clean) {
  ty_traverser k = {TY_TRAV_NUMBER, num, strlen(num), false, NULL};
  return ty_traverse(C, recv, &k, &g_diags, SPAN, clean);
}

static const ty *index_str(const ty *recv, const char *s, bool *clean) {
  ty_traverser k = {TY_TRAV_STRING, s, strlen(s), false, NULL};
  return ty_traverse(C, recv, &k, &g_diags, SPAN, clean);
}

static const ty *index_dyn(const ty *recv, const ty *key, bool *clean) {
  ty_traverser k = {TY_TRAV_DYNAMIC, NULL, 0, false, key};
  return ty_traverse(C, recv, &k, &g_diags, SPAN, clean);
}

static const ty *lit(const char *text) { return ty_number_literal(C, text, false); }

/* Types a binary operation of the rule op; the operands' parameter type
   goes to *lp and *rp (either may be NULL). */
static const ty *binop(ty_operator op, const ty *l, const ty *r, const ty **lp, const ty **rp) {
  const ty *operands[2] = {l, r};
  const ty *p;
  const ty *t = ty_operation(C, op, 2, operands, &p);
  if (lp)
    *lp = p;
  if (rp)
    *rp = p;
  return t;
}

/* Types a unary operation of the rule op. */
static const ty *unop(ty_operator op, const ty *operand, const ty **p) {
  return ty_operation(C, op, 1, &operand, p);
}

/* Types one 18.3 row the way the checker does, through the type-level
 * functions of ty.h; returns NULL for rows that are not type-level. */
static const ty *expr_row(int row) {
  const ty *s = env("s"), *i = env("i"), *j = env("j"), *b = env("b");
  const ty *ls = env("ls"), *ms = env("ms"), *os = env("os"), *ob = env("ob");
  const ty *ps = env("ps"), *lo = env("lo");
  const ty *str = ty_string(C);
  bool clean;
  switch (row) {
  case 1:
    return lit("42");
  case 2: /* `-` applied to a literal folds into it. */
    return ty_number_literal(C, "7", true);
  case 3:
    return lit("1.0");
  case 4:
    return lit("3.14");
  case 5:
    return lit("3000000000");
  case 6:
    return ty_const_bool(C, true);
  case 7:
    return ty_const_null(C);
  case 8: /* A template without interpolations: lift(string, no parts). */
    return ty_lift(C, str, 0, NULL);
  case 9: /* `"${e}"` is the type of e: not a type-level rule. */
    return NULL;
  case 10:
    return ty_lift(C, str, 1, &i);
  case 11:
    return ty_lift(C, str, 1, &os);
  case 12:
    return ty_lift(C, str, 1, &ls);
  case 13: {
    const ty *e[] = {lit("1"), str};
    return ty_tuple(C, 2, e);
  }
  case 14: {
    const ty *e[] = {os, s};
    return ty_tuple(C, 2, e);
  }
  case 15: {
    ty_prop p[] = {{"a", lit("1")}, {"b", s}};
    return ty_object(C, 2, p);
  }
  case 16: {
    ty_prop p[] = {{"a", os}};
    return ty_object(C, 1, p);
  }
  case 17: /* Computed keys: map(safe unify of values), lifted over keys. */
    return ty_lift(C, ty_map(C, ty_unify_safe(C, 1, &str)), 1, &s);
  case 18:
    return ty_lift(C, ty_map(C, ty_unify_safe(C, 1, &str)), 1, &os);
  case 19:
    return binop(TY_OP_ARITHMETIC, lit("1"), lit("2"), NULL, NULL);
  case 20:
    return binop(TY_OP_ARITHMETIC, i, j, NULL, NULL);
  case 21:
    return binop(TY_OP_ARITHMETIC, i, lit("1"), NULL, NULL);
  case 22:
    return binop(TY_OP_DIVISION, i, j, NULL, NULL);
  case 23:
    return unop(TY_OP_NEGATION, i, NULL);
  case 24:
    return binop(TY_OP_ARITHMETIC, s, lit("1"), NULL, NULL);
  case 25:
    return binop(TY_OP_ORDER, i, j, NULL, NULL);
  case 26:
    return binop(TY_OP_EQUALITY, os, str, NULL, NULL);
  case 27:
    return binop(TY_OP_EQUALITY, ps, str, NULL, NULL);
  case 28:
    return binop(TY_OP_LOGIC, b, ob, NULL, NULL);
  case 29: {
    const ty *br[] = {lit("1"), lit("2")};
    return ty_lift(C, ty_unify_safe(C, 2, br), 1, &b);
  }
  case 30: {
    const ty *br[] = {lit("1"), str};
    return ty_lift(C, ty_unify_safe(C, 2, br), 1, &b);
  }
  case 31: {
    const ty *br[] = {s, ty_const_null(C)};
    return ty_lift(C, ty_unify_safe(C, 2, br), 1, &b);
  }
  case 32: {
    const ty *br[] = {s, str};
    return ty_lift(C, ty_unify_safe(C, 2, br), 1, &ob);
  }
  case 33:
    return index_num(ls, "0", &clean);
  case 34:
    return index_dyn(ls, i, &clean);
  case 35: {
    const ty *a = attr(ms, "k", &clean);
    const ty *k = index_str(ms, "k", &clean);
    return a == k ? a : ty_dynamic(C);
  }
  case 36:
    return attr(env("o"), "b", &clean);
  case 37:
    return attr(env("opt"), "a", &clean);
  case 38:
    return attr(attr(env("d"), "x", &clean), "y", &clean);
  case 39:
    return attr(env("r"), "id", &clean);
  case 40: {
    const ty *rs = env("rs");
    const ty *each = attr(ty_splat_item(C, rs), "name", &clean);
    return ty_wrap_iterable(C, rs, ty_list(C, each));
  }
  case 41:
    return index_num(lo, "0", &clean);
  case 42: {
    const ty *k, *v;
    ty_collection_types(C, ls, &k, &v, &g_diags, SPAN, false);
    const ty *body = ty_lift(C, str, 1, &v); /* "${x}!" */
    return ty_wrap_iterable(C, ls, ty_list(C, body));
  }
  case 43: {
    const ty *k, *v;
    ty_collection_types(C, lo, &k, &v, &g_diags, SPAN, false);
    return ty_wrap_iterable(C, lo, ty_list(C, v));
  }
  case 44: { /* length(v) returns int for a string argument. */
    const ty *k, *v;
    ty_collection_types(C, ms, &k, &v, &g_diags, SPAN, false);
    return ty_lift(C, ty_wrap_iterable(C, ms, ty_map(C, ty_int(C))), 1, &k);
  }
  case 45: {
    const ty *k, *v;
    ty_collection_types(C, ls, &k, &v, &g_diags, SPAN, false);
    return ty_lift(C, ty_wrap_iterable(C, ls, ty_map(C, ty_list(C, lit("1")))), 1, &v);
  }
  case 46: {
    const ty *k, *v;
    ty_collection_types(C, ls, &k, &v, &g_diags, SPAN, false);
    return ty_lift(C, ty_wrap_iterable(C, ls, ty_list(C, v)), 1, &ob);
  }
  case 47: /* length returns output(int) for an eventual argument. */
    return ty_lift(C, ty_int(C), 1, &lo);
  case 48: {
    const ty *params[] = {str, str};
    const ty *args[] = {str, os};
    return ty_lift_call(C, ty_list(C, str), 2, params, args);
  }
  case 49: { /* D3: min/max is int only when every argument is int-like. */
    const ty *args[] = {lit("1"), lit("2.5")};
    bool ints = ty_is_int_like(args[0]) && ty_is_int_like(args[1]);
    return ints ? ty_int(C) : ty_number(C);
  }
  case 50: {
    const ty *one = lit("1"), *k, *v;
    const ty *tuple = ty_tuple(C, 1, &one);
    ty_collection_types(C, tuple, &k, &v, &g_diags, SPAN, false);
    return ty_optional(C, v);
  }
  case 51: {
    const ty *args[] = {os, str};
    return ty_unify_safe(C, 2, args);
  }
  case 52: /* can() is a builtin rule (functions.md), not a type-level one. */
    return NULL;
  default:
    return NULL;
  }
}

static void test_expr_vectors(void) {
  int rows = 0, covered = 0;
#define X(row, expr, type, msg)                                                            \
  do {                                                                                     \
    rows++;                                                                                \
    reset_diags();                                                                         \
    const ty *got = expr_row(row);                                                         \
    if (got) {                                                                             \
      covered++;                                                                           \
      const ty *want = T(type);                                                            \
      CHECK(got == want, "18.3 row %d: %s has type %s, expected %s", row, expr,            \
            ty_to_string(got), ty_to_string(want));                                        \
      const char *m = (msg);                                                               \
      if (m) {                                                                             \
        CHECK(has_diag(DIAG_ERROR, m), "18.3 row %d: expected error '%s', got '%s'", row,  \
              m, first_message());                                                         \
      } else {                                                                             \
        CHECK(g_diags.errors == 0, "18.3 row %d: unexpected error '%s'", row,              \
              first_message());                                                            \
      }                                                                                    \
    }                                                                                      \
  } while (0);
  TY_EXPR_VECTORS(X)
#undef X
  reset_diags();
  CU_ASSERT_EQUAL(rows, 52);
  CU_ASSERT_EQUAL(covered, 50); /* Rows 9 and 52 need the checker. */
}

/* ------------------------------------------------ interning, canonical */

static void test_interning(void) {
  CU_ASSERT_PTR_EQUAL(ty_list(C, ty_int(C)), ty_list(C, ty_int(C)));
  CU_ASSERT_PTR_NOT_EQUAL(ty_list(C, ty_int(C)), ty_set(C, ty_int(C)));
  CU_ASSERT_PTR_NOT_EQUAL(ty_list(C, ty_int(C)), ty_list(C, ty_number(C)));
  /* Property order does not matter; a later duplicate wins. */
  ty_prop p1[] = {{"b", ty_int(C)}, {"a", ty_string(C)}};
  ty_prop p2[] = {{"a", ty_string(C)}, {"b", ty_bool(C)}, {"b", ty_int(C)}};
  const ty *o1 = ty_object(C, 2, p1), *o2 = ty_object(C, 3, p2);
  CU_ASSERT_PTR_EQUAL(o1, o2);
  CU_ASSERT_EQUAL(o1->object.count, 2);
  CU_ASSERT_STRING_EQUAL(o1->object.props[0].name, "a");
  CU_ASSERT_PTR_EQUAL(ty_object_get(o1, "b"), ty_int(C));
  CU_ASSERT_PTR_NULL(ty_object_get(o1, "c"));
  CU_ASSERT_STRING_EQUAL(ty_to_string(o1), "object({a = string, b = int})");
  /* Lookup in a larger object finds every property and nothing else. */
  static const char *const names[] = {"k", "c", "zz", "a", "m", "B", "x", "e", "q", "h", "a1"};
  ty_prop many[ARRAY_LEN(names)];
  for (size_t i = 0; i < ARRAY_LEN(names); i++)
    many[i] = (ty_prop){names[i], ty_const_int_si(C, (long)i)};
  const ty *om = ty_object(C, ARRAY_LEN(names), many);
  for (size_t i = 0; i < ARRAY_LEN(names); i++)
    CU_ASSERT_PTR_EQUAL(ty_object_get(om, names[i]), ty_const_int_si(C, (long)i));
  CU_ASSERT_PTR_NULL(ty_object_get(om, "b"));
  CU_ASSERT_PTR_NULL(ty_object_get(om, "zzz"));
  CU_ASSERT_PTR_NULL(ty_object_get(om, ""));
  CU_ASSERT_PTR_NULL(ty_object_get(ty_int(C), "a"));
  /* Property names are interned in the compilation's table. */
  CU_ASSERT_PTR_EQUAL(o1->object.props[0].name, intern(&g_names, "a"));
  /* Tuples keep order. */
  const ty *ab[] = {ty_int(C), ty_string(C)}, *ba[] = {ty_string(C), ty_int(C)};
  CU_ASSERT_PTR_NOT_EQUAL(ty_tuple(C, 2, ab), ty_tuple(C, 2, ba));
  CU_ASSERT_PTR_EQUAL(ty_tuple(C, 0, NULL), T("tuple()"));
  /* Constants: exact big ints, -0 == 0, strings with NUL bytes. */
  mpz_t big;
  mpz_init_set_str(big, "123456789012345678901234567890", 10);
  const ty *k1 = ty_const_int(C, big), *k2 = ty_number_literal(C, "123456789012345678901234567890", false);
  CU_ASSERT_PTR_EQUAL(k1, k2);
  CU_ASSERT_EQUAL(mpz_cmp(k1->cnst.integer, big), 0);
  CU_ASSERT_STRING_EQUAL(ty_to_string(k1), "const(int 123456789012345678901234567890)");
  mpz_neg(big, big);
  CU_ASSERT_PTR_NOT_EQUAL(ty_const_int(C, big), k1);
  mpz_clear(big);
  CU_ASSERT_PTR_EQUAL(ty_const_number(C, -0.0), ty_const_number(C, 0.0));
  CU_ASSERT_PTR_NOT_EQUAL(ty_const_int_si(C, 1), ty_const_number(C, 1.0));
  CU_ASSERT_PTR_EQUAL(ty_const_string(C, "a\0b", 3), ty_const_string(C, "a\0b", 3));
  CU_ASSERT_PTR_NOT_EQUAL(ty_const_string(C, "a\0b", 3), ty_const_string(C, "a", 1));
  CU_ASSERT_EQUAL(ty_const_string(C, "a\0b", 3)->cnst.len, 3);
  CU_ASSERT_PTR_EQUAL(ty_const_bool(C, true)->cnst.base, ty_bool(C));
  CU_ASSERT_PTR_EQUAL(ty_const_null(C)->cnst.base, ty_none(C));
  /* Opaque types by name; enums by token only. */
  CU_ASSERT_PTR_EQUAL(ty_opaque(C, "Asset"), T("Asset"));
  CU_ASSERT_PTR_NOT_EQUAL(ty_opaque(C, "Asset"), ty_opaque(C, "Archive"));
  const ty *red = ty_const_string(C, "red", 3), *blue = ty_const_string(C, "blue", 4);
  const ty *e1 = ty_enum(C, "pkg:index:Color", ty_string(C), 1, &red);
  const ty *e2 = ty_enum(C, "pkg:index:Color", ty_string(C), 1, &blue);
  CU_ASSERT_PTR_EQUAL(e1, e2);
  CU_ASSERT_EQUAL(e1->enm.count, 1);
  CU_ASSERT_STRING_EQUAL(ty_to_string(e1), "enum(pkg:index:Color(string): \"red\")");
  /* Kind names come from the X-macro list. */
  CU_ASSERT_STRING_EQUAL(ty_to_string(ty_promise(C, ty_bool(C))), "promise(bool)");
}

/* §1.1. */
static void test_canonical(void) {
  CU_ASSERT_PTR_EQUAL(T("union(bool, bool)"), ty_bool(C));
  CU_ASSERT_PTR_EQUAL(T("union(int, union(string, int))"), T("union(int, string)"));
  CU_ASSERT_PTR_EQUAL(T("union(string, int)"), T("union(int, string)"));
  const ty *u = T("union(string, none, int)");
  CU_ASSERT_EQUAL(u->kind, TY_UNION);
  CU_ASSERT_EQUAL(u->elems.count, 3);
  CU_ASSERT_STRING_EQUAL(ty_to_string(u), "union(int, none, string)");
  CU_ASSERT_PTR_EQUAL(ty_union(C, 1, &u), u);
  CU_ASSERT_PTR_EQUAL(ty_union(C, 0, NULL), ty_none(C));
  CU_ASSERT_PTR_EQUAL(T("optional(optional(string))"), T("optional(string)"));
  const ty *od = T("optional(dynamic)");
  CU_ASSERT_EQUAL(od->kind, TY_UNION); /* dynamic does not absorb none. */
  CU_ASSERT_STRING_EQUAL(ty_to_string(od), "union(dynamic, none)");
  CU_ASSERT_PTR_EQUAL(T("output(output(string))"), T("output(string)"));
  CU_ASSERT_PTR_EQUAL(T("output(promise(string))"), T("output(string)"));
  CU_ASSERT_PTR_EQUAL(T("output(list(output(string)))"), T("output(list(string))"));
  CU_ASSERT_PTR_EQUAL(T("output(union(output(int), output(string)))"),
                      T("output(union(int, string))"));
  CU_ASSERT_PTR_EQUAL(T("promise(promise(string))"), T("promise(string)"));
  CU_ASSERT_PTR_EQUAL(T("promise(optional(promise(string)))"), T("promise(optional(string))"));
  /* A promise keeps nested outputs. */
  const ty *po = T("promise(output(string))");
  CU_ASSERT_EQUAL(po->kind, TY_PROMISE);
  CU_ASSERT_PTR_EQUAL(po->elem, T("output(string)"));
  /* Nothing else is normalised. */
  CU_ASSERT_EQUAL(T("list(union(int, int))")->elem->kind, TY_INT);
  CU_ASSERT_EQUAL(T("tuple(int)")->kind, TY_TUPLE);
}

/* §1.3 and ty_to_string. */
static void test_printing(void) {
  CU_ASSERT_STRING_EQUAL(ty_pretty(C, ty_input(C, T("list(int)"))),
                         "list(int | output(int)) | output(list(int))");
  CU_ASSERT_STRING_EQUAL(ty_pretty(C, T("union(string, int)")), "int | string");
  CU_ASSERT_STRING_EQUAL(ty_pretty(C, T("optional(string)")), "string?");
  CU_ASSERT_STRING_EQUAL(ty_pretty(C, T("union(int, string, none)")), "(int | string)?");
  CU_ASSERT_STRING_EQUAL(ty_pretty(C, T("object({b=int, a=list(string)})")),
                         "{ a: list(string), b: int }");
  CU_ASSERT_STRING_EQUAL(ty_pretty(C, T("object({})")), "{}");
  CU_ASSERT_STRING_EQUAL(ty_pretty(C, T("output(map(bool))")), "output(map(bool))");
  CU_ASSERT_STRING_EQUAL(ty_pretty(C, T("tuple(int, set(string))")), "tuple(int, set(string))");
  CU_ASSERT_STRING_EQUAL(ty_pretty(C, T("const(string \"foo\")")), "\"foo\"");
  CU_ASSERT_STRING_EQUAL(ty_pretty(C, T("const(int 42)")), "42");
  CU_ASSERT_STRING_EQUAL(ty_pretty(C, T("const(number 3.5)")), "3.5");
  CU_ASSERT_STRING_EQUAL(ty_pretty(C, T("const(bool true)")), "true");
  CU_ASSERT_STRING_EQUAL(ty_pretty(C, T("const(none null)")), "null");
  CU_ASSERT_STRING_EQUAL(ty_pretty(C, T("enum(string: 'red'|'blue')")), "enum(\"red\" | \"blue\")");
  CU_ASSERT_STRING_EQUAL(ty_pretty(C, T("dynamic")), "dynamic");
  CU_ASSERT_STRING_EQUAL(ty_pretty(C, T("Asset")), "Asset");
  /* String forms. */
  CU_ASSERT_STRING_EQUAL(ty_to_string(T("const(string \"a\\\"b\")")), "const(string \"a\\\"b\")");
  CU_ASSERT_STRING_EQUAL(ty_to_string(ty_const_number(C, 0.1)), "const(number 0.1)");
  CU_ASSERT_STRING_EQUAL(ty_to_string(T("object({\"a b\"=int})")), "object({\"a b\" = int})");
  CU_ASSERT_STRING_EQUAL(ty_to_string(T("map(promise(id))")), "map(promise(id))");
  FILE *f = tmpfile();
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  ty_print(f, T("list(bool)"));
  rewind(f);
  char buf[32] = {0};
  CU_ASSERT_PTR_NOT_NULL(fgets(buf, sizeof buf, f));
  CU_ASSERT_STRING_EQUAL(buf, "list(bool)");
  fclose(f);
}

/* §12 (TestInputType) and the eventual helpers. */
static void test_input_type(void) {
  CU_ASSERT_PTR_EQUAL(ty_input(C, T("bool")), T("union(bool, output(bool))"));
  CU_ASSERT_PTR_EQUAL(ty_input(C, T("list(bool)")),
                      T("union(list(union(bool, output(bool))), output(list(bool)))"));
  CU_ASSERT_PTR_EQUAL(ty_input(C, T("optional(bool)")),
                      T("union(optional(union(bool, output(bool))), output(optional(bool)))"));
  CU_ASSERT_PTR_EQUAL(ty_input(C, T("union(bool, int)")),
                      T("union(union(bool, int, output(bool), output(int)), "
                        "output(union(bool, int)))"));
  CU_ASSERT_PTR_EQUAL(ty_input(C, T("set(int)")), T("union(set(int), output(set(int)))"));
  CU_ASSERT_PTR_EQUAL(ty_input(C, T("tuple(int)")), T("union(tuple(int), output(tuple(int)))"));
  CU_ASSERT_PTR_EQUAL(ty_input(C, T("dynamic")), T("dynamic"));
  CU_ASSERT_PTR_EQUAL(ty_input(C, T("none")), T("none"));
  CU_ASSERT_PTR_EQUAL(ty_input(C, T("output(int)")), T("output(int)"));
  CU_ASSERT_PTR_EQUAL(ty_input(C, T("promise(int)")),
                      T("union(promise(union(int, output(int))), output(int))"));
  CU_ASSERT_PTR_EQUAL(ty_input(C, T("object({a=int})")),
                      T("union(object({a=union(int, output(int))}), output(object({a=int})))"));
  CU_ASSERT_PTR_EQUAL(ty_input(C, T("map(string)")),
                      T("union(map(union(string, output(string))), output(map(string)))"));

  /* InputType is memoised: asking again for a type adds no type and no
     memo entry, and gives the same pointer. */
  const ty *big = T("object({a=list(int), b=map(string), c=tuple(bool, number)})");
  const ty *in = ty_input(C, big);
  size_t types = C->table.count, memo = C->nmemo;
  CU_ASSERT_PTR_EQUAL(ty_input(C, big), in);
  CU_ASSERT_EQUAL(C->table.count, types);
  CU_ASSERT_EQUAL(C->nmemo, memo);

  bool o, p;
  CU_ASSERT_TRUE(ty_contains_eventuals(T("list(output(int))"), &o, &p));
  CU_ASSERT_TRUE(o);
  CU_ASSERT_FALSE(p);
  CU_ASSERT_TRUE(ty_contains_eventuals(T("object({a=promise(int)})"), &o, &p));
  CU_ASSERT_FALSE(o);
  CU_ASSERT_TRUE(p);
  CU_ASSERT_FALSE(ty_contains_eventuals(T("map(tuple(int, string))"), NULL, NULL));
  CU_ASSERT_PTR_EQUAL(ty_resolve_outputs(C, T("object({a=output(int), b=promise(list(output(bool)))})")),
                      T("object({a=int, b=list(bool)})"));
  CU_ASSERT_PTR_EQUAL(ty_resolve_promises(C, T("tuple(promise(int), output(bool))")),
                      T("tuple(int, output(bool))"));
  CU_ASSERT_PTR_EQUAL(ty_strip_eventual(T("promise(output(int))")), T("int"));
  CU_ASSERT_TRUE(ty_is_optional(T("optional(int)")));
  CU_ASSERT_TRUE(ty_is_optional(T("union(const(none null), string)")));
  CU_ASSERT_FALSE(ty_is_optional(T("union(int, string)")));
  CU_ASSERT_FALSE(ty_is_optional(T("none")));
  CU_ASSERT_PTR_EQUAL(ty_strip_optional(C, T("union(int, string, none)")), T("union(int, string)"));
  CU_ASSERT_PTR_EQUAL(ty_strip_optional(C, T("union(const(none null), string)")), T("string"));
  CU_ASSERT_PTR_EQUAL(ty_strip_optional(C, T("list(int)")), T("list(int)"));
  CU_ASSERT_PTR_EQUAL(ty_value_target(C, ty_input(C, T("int"))), T("int"));
  CU_ASSERT_PTR_EQUAL(ty_value_target(C, T("optional(list(int))")), T("list(int)"));
  CU_ASSERT_PTR_EQUAL(ty_value_target(C, T("output(union(promise(string), none))")),
                      T("string"));
  CU_ASSERT_PTR_EQUAL(ty_value_target(C, T("union(int, string, none, output(int))")),
                      T("union(int, string)"));
  CU_ASSERT_PTR_EQUAL(ty_value_target(C, T("union(output(int), none)")),
                      T("union(output(int), none)"));
  CU_ASSERT_PTR_EQUAL(ty_value_target(C, T("map(output(int))")), T("map(output(int))"));
}

/* §11: lifting of operations and calls. */
static void test_lifting(void) {
  const ty *params[] = {T("string"), T("int")};
  const ty *a1[] = {T("output(string)"), T("const(int 0)")};
  const ty *a2[] = {T("promise(string)"), T("const(int 0)")};
  const ty *a3[] = {T("promise(string)"), T("output(int)")};
  const ty *a4[] = {T("string"), T("const(int 0)")};
  CU_ASSERT_PTR_EQUAL(ty_lift_call(C, T("bool"), 2, params, a1), T("output(bool)"));
  CU_ASSERT_PTR_EQUAL(ty_lift_call(C, T("bool"), 2, params, a2), T("promise(bool)"));
  CU_ASSERT_PTR_EQUAL(ty_lift_call(C, T("bool"), 2, params, a3), T("output(bool)"));
  CU_ASSERT_PTR_EQUAL(ty_lift_call(C, T("bool"), 2, params, a4), T("bool"));
  /* An argument assignable to its parameter is not lifted over. */
  const ty *pin[] = {T("output(string)")};
  const ty *ain[] = {T("output(string)")};
  CU_ASSERT_PTR_EQUAL(ty_lift_call(C, T("bool"), 1, pin, ain), T("bool"));
  /* Deep outputs count for lift. */
  const ty *deep = T("list(output(string))");
  CU_ASSERT_PTR_EQUAL(ty_lift(C, T("int"), 1, &deep), T("output(int)"));
}

/* ------------------------------------------------- conversion messages */

static void test_messages(void) {
  /* binder_test.go: max(a, b) with b: list(string). */
  CU_ASSERT_STRING_EQUAL(
      ty_not_convertible_message(C, ty_input(C, T("int")), T("list(string)")),
      "cannot assign expression of type list(string) to location of type int | output(int): ");
  CU_ASSERT_STRING_EQUAL(ty_not_convertible_message(C, T("tuple(string)"), T("tuple(string, int)")),
                         "tuples tuple(string) and tuple(string, int) have different lengths");
  CU_ASSERT_STRING_EQUAL(ty_not_convertible_message(C, T("string"), T("union(list(int), none)")),
                         "cannot assign value of type list(int)? to type string");
  /* The reason of a union alternative that failed while another converted
     does not explain a failure elsewhere. */
  CU_ASSERT_STRING_EQUAL(
      ty_not_convertible_message(C, T("object({a=union(tuple(int), list(int)), b=int})"),
                                 T("object({a=tuple(int, int), b=Asset})")),
      "cannot assign expression of type { a: tuple(int, int), b: Asset } to location of type "
      "{ a: list(int) | tuple(int), b: int }: ");
  const char *why = "unset";
  CU_ASSERT_EQUAL(ty_conversion_why(C, T("list(tuple(int))"), T("list(tuple(int, int))"), &why),
                  TY_CONV_NONE);
  CU_ASSERT_STRING_EQUAL(why, "tuples tuple(int) and tuple(int, int) have different lengths");
  CU_ASSERT_EQUAL(ty_conversion_why(C, T("string"), T("Asset"), &why), TY_CONV_NONE);
  CU_ASSERT_PTR_NULL(why);
  CU_ASSERT_EQUAL(ty_conversion_why(C, T("number"), T("string"), &why), TY_CONV_UNSAFE);
  CU_ASSERT_PTR_NULL(why);
  CU_ASSERT_STRING_EQUAL(ty_conv_name(TY_CONV_SAFE), "safe");
  CU_ASSERT_STRING_EQUAL(ty_conv_name(TY_CONV_UNSAFE), "unsafe");
  CU_ASSERT_STRING_EQUAL(ty_conv_name(TY_CONV_NONE), "none");

  reset_diags();
  CU_ASSERT_TRUE(ty_check_input(C, &g_diags, SPAN, T("string"), T("output(int)")));
  CU_ASSERT_EQUAL(g_diags.errors, 0);
  CU_ASSERT_FALSE(ty_check_input(C, &g_diags, SPAN, T("bool"), T("list(bool)")));
  CU_ASSERT_EQUAL(g_diags.errors, 1);
  CU_ASSERT_STRING_EQUAL(first_message(),
                         "cannot assign expression of type list(bool) to location of type "
                         "bool | output(bool): ");
  CU_ASSERT_EQUAL(g_diags.head->span.start, SPAN.start);
  diag *g = ty_report_not_convertible(C, &g_diags, SPAN, T("int"), T("Archive"));
  CU_ASSERT_STRING_EQUAL(g->message,
                         "cannot assign expression of type Archive to location of type int: ");
  reset_diags();
  CU_ASSERT_TRUE(ty_check_object_key(C, &g_diags, SPAN, T("output(const(int 1))")));
  CU_ASSERT_PTR_NULL(g_diags.head);
  CU_ASSERT_FALSE(ty_check_object_key(C, &g_diags, SPAN, T("list(string)")));
  CU_ASSERT_STRING_EQUAL(first_message(), "object keys must be strings: cannot assign expression "
                                          "of type list(string) to location of type string");
  reset_diags();
}

/* ------------------------------------------------------------ traversal */

static void test_traverse_simple(void) {
  bool clean;
  reset_diags();
  CU_ASSERT_PTR_EQUAL(attr(T("dynamic"), "x", &clean), T("dynamic"));
  CU_ASSERT_TRUE(clean);
  CU_ASSERT_PTR_EQUAL(attr(T("string"), "x", &clean), T("dynamic"));
  CU_ASSERT_FALSE(clean);
  CU_ASSERT_TRUE(has_diag(DIAG_ERROR, "cannot traverse value of type string"));
  CU_ASSERT_PTR_EQUAL(attr(T("Asset"), "x", &clean), T("dynamic"));
  CU_ASSERT_TRUE(has_diag(DIAG_ERROR, "cannot traverse value of type Asset"));
  reset_diags();
  CU_ASSERT_PTR_EQUAL(attr(T("none"), "x", &clean), T("none"));
  CU_ASSERT_EQUAL(count_diags(DIAG_WARNING), 1);
  CU_ASSERT_TRUE(has_diag(DIAG_WARNING, "cannot traverse value of type none"));
  CU_ASSERT_EQUAL(g_diags.errors, 0);
  reset_diags();
  /* Constants traverse like their base. */
  CU_ASSERT_PTR_EQUAL(attr(T("const(string \"x\")"), "y", &clean), T("dynamic"));
  CU_ASSERT_TRUE(has_diag(DIAG_ERROR, "cannot traverse value of type string"));
  reset_diags();
  /* Lists accept number, string (unsafe), bool keys; .foo type-checks. */
  CU_ASSERT_PTR_EQUAL(index_num(T("list(int)"), "1", &clean), T("int"));
  CU_ASSERT_TRUE(clean);
  CU_ASSERT_PTR_EQUAL(attr(T("list(int)"), "foo", &clean), T("int"));
  CU_ASSERT_TRUE(clean);
  CU_ASSERT_PTR_EQUAL(index_dyn(T("list(int)"), T("output(number)"), &clean), T("int"));
  CU_ASSERT_TRUE(clean);
  CU_ASSERT_PTR_EQUAL(index_dyn(T("list(int)"), T("list(int)"), &clean), T("int"));
  CU_ASSERT_FALSE(clean);
  CU_ASSERT_TRUE(has_diag(DIAG_ERROR, "list indices must be numbers"));
  reset_diags();
  CU_ASSERT_PTR_EQUAL(index_num(T("map(bool)"), "3", &clean), T("bool"));
  CU_ASSERT_TRUE(clean);
  CU_ASSERT_PTR_EQUAL(index_dyn(T("map(bool)"), T("map(string)"), &clean), T("bool"));
  CU_ASSERT_TRUE(has_diag(DIAG_ERROR, "map keys must be strings"));
  reset_diags();
  CU_ASSERT_PTR_EQUAL(index_num(T("set(int)"), "0", &clean), T("dynamic"));
  CU_ASSERT_TRUE(has_diag(DIAG_ERROR, "cannot traverse value of type set(int)"));
  reset_diags();
  /* Enums traverse to themselves (quirk). */
  const ty *e = T("enum(string: 'a'|'b')");
  CU_ASSERT_PTR_EQUAL(attr(e, "x", &clean), e);
  CU_ASSERT_TRUE(clean);
  /* Eventuals wrap the result and pass diagnostics on. */
  CU_ASSERT_PTR_EQUAL(attr(T("output(object({a=int}))"), "a", &clean), T("output(int)"));
  CU_ASSERT_PTR_EQUAL(attr(T("promise(object({a=int}))"), "a", &clean), T("promise(int)"));
  CU_ASSERT_TRUE(clean);
  CU_ASSERT_PTR_EQUAL(attr(T("output(object({a=int}))"), "b", &clean), T("output(dynamic)"));
  CU_ASSERT_TRUE(has_diag(DIAG_ERROR, "unknown property 'b' among [a]"));
  reset_diags();
  /* A NULL diag list discards diagnostics but still reports cleanliness. */
  ty_traverser k = {TY_TRAV_ATTR, "zz", 2, false, NULL};
  CU_ASSERT_PTR_EQUAL(ty_traverse(C, T("int"), &k, NULL, SPAN, &clean), T("dynamic"));
  CU_ASSERT_FALSE(clean);
  CU_ASSERT_PTR_NULL(g_diags.head);
}

static void test_traverse_tuple(void) {
  bool clean;
  const ty *t = T("tuple(int, string)");
  reset_diags();
  CU_ASSERT_PTR_EQUAL(index_num(t, "0", &clean), T("int"));
  CU_ASSERT_PTR_EQUAL(index_num(t, "1", &clean), T("string"));
  CU_ASSERT_PTR_EQUAL(index_num(t, "1.0", &clean), T("string"));
  CU_ASSERT_TRUE(clean);
  CU_ASSERT_EQUAL(g_diags.errors, 0);
  /* index == N is out of range too (the reference crashes there). */
  CU_ASSERT_PTR_EQUAL(index_num(t, "2", &clean), T("dynamic"));
  CU_ASSERT_TRUE(has_diag(DIAG_ERROR, "tuple index must be between 0 and 2"));
  reset_diags();
  CU_ASSERT_PTR_EQUAL(index_num(t, "0.5", &clean), T("dynamic"));
  CU_ASSERT_TRUE(has_diag(DIAG_ERROR, "tuple indices must be integers"));
  reset_diags();
  CU_ASSERT_PTR_EQUAL(attr(t, "a", &clean), T("dynamic"));
  CU_ASSERT_TRUE(has_diag(DIAG_ERROR, "tuple indices must be integers"));
  reset_diags();
  CU_ASSERT_PTR_EQUAL(index_str(t, "0", &clean), T("dynamic"));
  CU_ASSERT_TRUE(has_diag(DIAG_ERROR, "tuple indices must be integers"));
  reset_diags();
  /* Dynamic keys give the union of the elements; an int-typed key is
     accepted (D3), a constant key is a literal index. */
  CU_ASSERT_PTR_EQUAL(index_dyn(t, T("number"), &clean), T("union(int, string)"));
  CU_ASSERT_PTR_EQUAL(index_dyn(t, T("int"), &clean), T("union(int, string)"));
  CU_ASSERT_PTR_EQUAL(index_dyn(t, T("const(int 1)"), &clean), T("string"));
  CU_ASSERT_TRUE(clean);
  CU_ASSERT_PTR_EQUAL(index_dyn(t, T("string"), &clean), T("dynamic"));
  CU_ASSERT_TRUE(has_diag(DIAG_ERROR, "tuple indices must be integers"));
  reset_diags();
}

static void test_traverse_object(void) {
  bool clean;
  const ty *o = T("object({name=string, Size=int, \"0\"=bool})");
  reset_diags();
  CU_ASSERT_PTR_EQUAL(attr(o, "name", &clean), T("string"));
  CU_ASSERT_TRUE(clean);
  CU_ASSERT_PTR_EQUAL(index_str(o, "Size", &clean), T("int"));
  CU_ASSERT_PTR_EQUAL(index_num(o, "0", &clean), T("bool"));
  CU_ASSERT_TRUE(clean);
  /* Case-insensitive match: a warning with a note. */
  CU_ASSERT_PTR_EQUAL(attr(o, "size", &clean), T("int"));
  CU_ASSERT_FALSE(clean);
  CU_ASSERT_TRUE(has_diag(DIAG_WARNING, "Found matching case-insensitive property"));
  CU_ASSERT_PTR_NOT_NULL_FATAL(g_diags.head->notes);
  CU_ASSERT_STRING_EQUAL(g_diags.head->notes->message, "Matched size with Size");
  CU_ASSERT_EQUAL(g_diags.errors, 0);
  reset_diags();
  CU_ASSERT_PTR_EQUAL(attr(o, "nope", &clean), T("dynamic"));
  CU_ASSERT_TRUE(has_diag(DIAG_ERROR, "unknown property 'nope' among [0 Size name]"));
  reset_diags();
  CU_ASSERT_PTR_EQUAL(index_dyn(o, T("string"), &clean), T("union(bool, int, string)"));
  CU_ASSERT_TRUE(clean);
  CU_ASSERT_PTR_EQUAL(index_dyn(o, T("list(string)"), &clean), T("dynamic"));
  CU_ASSERT_TRUE(has_diag(DIAG_ERROR, "object properties must be strings"));
  reset_diags();
  /* Lenient (non-strict) schema objects only warn. */
  const ty *lenient = ty_object_declare(C, "test:index:Lenient", false);
  ty_prop p = {"a", T("int")};
  ty_object_define(C, lenient, 1, &p);
  CU_ASSERT_PTR_EQUAL(attr(lenient, "b", &clean), T("dynamic"));
  CU_ASSERT_EQUAL(g_diags.errors, 0);
  CU_ASSERT_TRUE(has_diag(DIAG_WARNING, "unknown property 'b' among [a]"));
  reset_diags();
}

static void test_traverse_union(void) {
  bool clean;
  reset_diags();
  CU_ASSERT_PTR_EQUAL(attr(T("optional(object({a=string}))"), "a", &clean),
                      T("optional(string)"));
  CU_ASSERT_TRUE(clean);
  /* One element fails: the others are kept without diagnostics. */
  CU_ASSERT_PTR_EQUAL(attr(T("union(object({a=int}), string)"), "a", &clean), T("int"));
  CU_ASSERT_TRUE(clean);
  CU_ASSERT_PTR_EQUAL(attr(T("union(object({a=int}), object({a=bool}))"), "a", &clean),
                      T("union(bool, int)"));
  /* Every element fails: one error for the union plus the elements'. */
  CU_ASSERT_PTR_EQUAL(attr(T("union(int, string)"), "a", &clean), T("dynamic"));
  CU_ASSERT_FALSE(clean);
  CU_ASSERT_TRUE(has_diag(DIAG_ERROR, "cannot traverse value of type int | string"));
  CU_ASSERT_TRUE(has_diag(DIAG_ERROR, "cannot traverse value of type int"));
  CU_ASSERT_TRUE(has_diag(DIAG_ERROR, "cannot traverse value of type string"));
  CU_ASSERT_EQUAL(g_diags.errors, 3);
  reset_diags();
  /* Only none survives: still an error. */
  CU_ASSERT_PTR_EQUAL(attr(T("optional(object({a=int}))"), "b", &clean), T("dynamic"));
  CU_ASSERT_TRUE(has_diag(DIAG_ERROR, "cannot traverse value of type { a: int }?"));
  CU_ASSERT_TRUE(has_diag(DIAG_ERROR, "unknown property 'b' among [a]"));
  reset_diags();
}

/* §7. */
static void test_iteration(void) {
  const ty *k, *v;
  reset_diags();
  CU_ASSERT_TRUE(ty_collection_types(C, T("list(bool)"), &k, &v, &g_diags, SPAN, false));
  CU_ASSERT_PTR_EQUAL(k, T("int"));
  CU_ASSERT_PTR_EQUAL(v, T("bool"));
  CU_ASSERT_TRUE(ty_collection_types(C, T("map(int)"), &k, &v, &g_diags, SPAN, false));
  CU_ASSERT_PTR_EQUAL(k, T("string"));
  CU_ASSERT_PTR_EQUAL(v, T("int"));
  CU_ASSERT_TRUE(ty_collection_types(C, T("tuple(int, number)"), &k, &v, &g_diags, SPAN, false));
  CU_ASSERT_PTR_EQUAL(k, T("int"));
  CU_ASSERT_PTR_EQUAL(v, T("number"));
  CU_ASSERT_TRUE(ty_collection_types(C, T("object({a=int, b=string})"), &k, &v, &g_diags, SPAN,
                                     false));
  CU_ASSERT_PTR_EQUAL(k, T("string"));
  CU_ASSERT_PTR_EQUAL(v, T("string"));
  CU_ASSERT_TRUE(ty_collection_types(C, T("dynamic"), &k, &v, &g_diags, SPAN, false));
  CU_ASSERT_PTR_EQUAL(k, T("dynamic"));
  CU_ASSERT_PTR_EQUAL(v, T("dynamic"));
  /* Output, promise and optional layers are stripped. */
  CU_ASSERT_TRUE(ty_collection_types(C, T("output(optional(list(string)))"), &k, &v, &g_diags,
                                     SPAN, false));
  CU_ASSERT_PTR_EQUAL(v, T("string"));
  CU_ASSERT_EQUAL(g_diags.errors, 0);
  /* Sets, strings and wider unions do not iterate. */
  CU_ASSERT_FALSE(ty_collection_types(C, T("set(int)"), &k, &v, &g_diags, SPAN, false));
  CU_ASSERT_PTR_EQUAL(k, T("dynamic"));
  CU_ASSERT_PTR_EQUAL(v, T("dynamic"));
  CU_ASSERT_TRUE(has_diag(DIAG_ERROR, "cannot iterate over a value of type set(int)"));
  CU_ASSERT_FALSE(ty_collection_types(C, T("union(list(int), map(int))"), &k, &v, &g_diags, SPAN,
                                      true));
  CU_ASSERT_TRUE(
      has_diag(DIAG_WARNING, "cannot iterate over a value of type list(int) | map(int)"));
  CU_ASSERT_FALSE(ty_collection_types(C, T("string"), &k, &v, NULL, SPAN, false));
  reset_diags();
  /* wrapIterableResultType: eventual layers come back, optional does not. */
  CU_ASSERT_PTR_EQUAL(ty_wrap_iterable(C, T("output(optional(list(int)))"), T("list(bool)")),
                      T("output(list(bool))"));
  CU_ASSERT_PTR_EQUAL(ty_wrap_iterable(C, T("promise(output(list(int)))"), T("int")),
                      T("promise(output(int))"));
  CU_ASSERT_PTR_EQUAL(ty_wrap_iterable(C, T("optional(list(int))"), T("int")), T("int"));
  /* Splat items. */
  CU_ASSERT_PTR_EQUAL(ty_splat_item(C, T("list(bool)")), T("bool"));
  CU_ASSERT_PTR_EQUAL(ty_splat_item(C, T("set(bool)")), T("bool"));
  CU_ASSERT_PTR_EQUAL(ty_splat_item(C, T("tuple(int, number)")), T("number"));
  CU_ASSERT_PTR_EQUAL(ty_splat_item(C, T("dynamic")), T("dynamic"));
  CU_ASSERT_PTR_EQUAL(ty_splat_item(C, T("output(object({a=int}))")), T("object({a=int})"));
}

/* ------------------------------------------------- literals, operators */

static void test_number_literals(void) {
  CU_ASSERT_PTR_EQUAL(lit("42"), T("const(int 42)"));
  CU_ASSERT_PTR_EQUAL(lit("0"), T("const(int 0)"));
  CU_ASSERT_PTR_EQUAL(lit("007"), T("const(int 7)"));
  CU_ASSERT_PTR_EQUAL(lit("1.0"), T("const(int 1)"));
  CU_ASSERT_PTR_EQUAL(lit("1e3"), T("const(int 1000)"));
  CU_ASSERT_PTR_EQUAL(lit("1E+3"), T("const(int 1000)"));
  CU_ASSERT_PTR_EQUAL(lit("0.5e1"), T("const(int 5)"));
  CU_ASSERT_PTR_EQUAL(lit("1500e-2"), T("const(int 15)"));
  CU_ASSERT_PTR_EQUAL(lit("1e40"), T("const(int 10000000000000000000000000000000000000000)"));
  CU_ASSERT_PTR_EQUAL(lit("0.0"), T("const(int 0)"));
  CU_ASSERT_PTR_EQUAL(ty_number_literal(C, "0", true), T("const(int 0)"));
  CU_ASSERT_PTR_EQUAL(ty_number_literal(C, "18446744073709551616", true),
                      T("const(int -18446744073709551616)"));
  CU_ASSERT_PTR_EQUAL(lit("3.14"), T("const(number 3.14)"));
  CU_ASSERT_PTR_EQUAL(lit("1e-3"), T("const(number 0.001)"));
  CU_ASSERT_PTR_EQUAL(lit("1.5"), T("const(number 1.5)"));
  CU_ASSERT_PTR_EQUAL(ty_number_literal(C, "2.5", true), T("const(number -2.5)"));
  /* A value too small for a double is refused, not rounded to 0; the
     smallest subnormal is still a value. */
  CU_ASSERT_PTR_NULL(lit("1e-9999"));
  CU_ASSERT_PTR_NULL(lit("1e-400"));
  CU_ASSERT_PTR_NULL(ty_number_literal(C, "2e-324", true));
  const ty *tiny = lit("5e-324");
  CU_ASSERT_PTR_NOT_NULL_FATAL(tiny);
  CU_ASSERT_TRUE(tiny->cnst.number > 0);
  CU_ASSERT_PTR_EQUAL(lit("0e-400"), T("const(int 0)"));
  /* A huge exponent gives a huge exact int; too huge is refused. */
  const ty *big = lit("1e1000");
  CU_ASSERT_PTR_NOT_NULL_FATAL(big);
  CU_ASSERT_EQUAL(mpz_sizeinbase(big->cnst.integer, 10), 1001);
  CU_ASSERT_PTR_NULL(lit("1e1000000"));
  CU_ASSERT_PTR_NULL(lit(""));
  CU_ASSERT_PTR_NULL(lit("abc"));
  CU_ASSERT_PTR_NULL(lit("1."));
  CU_ASSERT_PTR_NULL(lit(".5"));
  CU_ASSERT_PTR_NULL(lit("1e"));
  CU_ASSERT_PTR_NULL(lit("1e+"));
  CU_ASSERT_PTR_NULL(lit("-1"));
  CU_ASSERT_PTR_NULL(lit("1x"));
}

static void test_operators(void) {
  const ty *lp, *rp, *p;
  /* D3: int-like operands take int parameters. */
  CU_ASSERT_PTR_EQUAL(binop(TY_OP_ARITHMETIC, T("int"), T("const(int 2)"), &lp, &rp),
                      T("int"));
  CU_ASSERT_PTR_EQUAL(lp, ty_input(C, T("int")));
  CU_ASSERT_PTR_EQUAL(rp, ty_input(C, T("int")));
  CU_ASSERT_PTR_EQUAL(binop(TY_OP_ARITHMETIC, T("int"), T("union(const(int 1), const(int 2))"),
                                   NULL, NULL),
                      T("int"));
  CU_ASSERT_PTR_EQUAL(binop(TY_OP_ARITHMETIC, T("int"), T("number"), &lp, NULL), T("number"));
  CU_ASSERT_PTR_EQUAL(lp, ty_input(C, T("number")));
  CU_ASSERT_PTR_EQUAL(binop(TY_OP_ARITHMETIC, T("output(int)"), T("int"), NULL, NULL),
                      T("output(int)"));
  CU_ASSERT_PTR_EQUAL(binop(TY_OP_DIVISION, T("int"), T("int"), NULL, NULL), T("number"));
  CU_ASSERT_PTR_EQUAL(binop(TY_OP_ARITHMETIC, T("optional(int)"), T("int"), NULL, NULL),
                      T("number"));
  CU_ASSERT_PTR_EQUAL(binop(TY_OP_ORDER, T("number"), T("int"), &lp, NULL), T("bool"));
  CU_ASSERT_PTR_EQUAL(lp, ty_input(C, T("number")));
  CU_ASSERT_PTR_EQUAL(binop(TY_OP_EQUALITY, T("list(int)"), T("string"), &lp, &rp), T("bool"));
  CU_ASSERT_PTR_EQUAL(lp, ty_input(C, T("optional(dynamic)")));
  CU_ASSERT_PTR_EQUAL(binop(TY_OP_LOGIC, T("promise(bool)"), T("bool"), &lp, NULL),
                      T("promise(bool)"));
  CU_ASSERT_PTR_EQUAL(lp, ty_input(C, T("bool")));
  /* "a" + 1 type-checks: string converts unsafely to number. */
  binop(TY_OP_ARITHMETIC, T("string"), T("const(int 1)"), &lp, NULL);
  CU_ASSERT_EQUAL(ty_conversion(C, lp, T("string")), TY_CONV_UNSAFE);
  CU_ASSERT_PTR_EQUAL(unop(TY_OP_NEGATION, T("number"), &p), T("number"));
  CU_ASSERT_PTR_EQUAL(p, ty_input(C, T("number")));
  CU_ASSERT_PTR_EQUAL(unop(TY_OP_NEGATION, T("const(int 3)"), &p), T("int"));
  CU_ASSERT_PTR_EQUAL(unop(TY_OP_NOT, T("output(bool)"), &p), T("output(bool)"));
  CU_ASSERT_PTR_EQUAL(p, ty_input(C, T("bool")));
  CU_ASSERT_TRUE(ty_is_int_like(T("promise(int)")));
  CU_ASSERT_FALSE(ty_is_int_like(T("const(number 1.5)")));
  CU_ASSERT_FALSE(ty_is_int_like(T("dynamic")));
}

/* ------------------------------------------------ recursive named types */

static void test_named_objects(void) {
  /* Node = { value: string, next: Node? }. */
  const ty *node = ty_object_declare(C, "test:index:Node", true);
  CU_ASSERT_FALSE(node->object.defined);
  CU_ASSERT_PTR_EQUAL(ty_object_declare(C, "test:index:Node", true), node);
  ty_prop props[] = {{"value", T("string")}, {"next", ty_optional(C, node)}};
  ty_object_define(C, node, 2, props);
  CU_ASSERT_TRUE(node->object.defined);
  CU_ASSERT_PTR_EQUAL(ty_object_get(node, "value"), T("string"));
  CU_ASSERT_STRING_EQUAL(ty_to_string(node), "object(test:index:Node)");
  CU_ASSERT_STRING_EQUAL(ty_pretty(C, node), "{ next: test:index:Node?, value: string }");
  /* Conversion and assignability terminate, coinductively. */
  CU_ASSERT_EQUAL(ty_conversion(C, node, node), TY_CONV_SAFE);
  const ty *finite = T("object({value=string, next=object({value=string})})");
  CU_ASSERT_EQUAL(ty_conversion(C, node, finite), TY_CONV_SAFE);
  CU_ASSERT_TRUE(ty_assignable(C, node, finite));
  CU_ASSERT_EQUAL(ty_conversion(C, node, T("object({value=int})")), TY_CONV_SAFE);
  CU_ASSERT_EQUAL(ty_conversion(C, node, T("object({value=list(int)})")), TY_CONV_NONE);
  const ty *other = ty_object_declare(C, "test:index:Other", true);
  ty_prop oprops[] = {{"value", T("string")}, {"next", ty_optional(C, other)}};
  ty_object_define(C, other, 2, oprops);
  /* Named objects are nominal: a same-shaped one converts safely, but the
     optional(Other) property is a union source, which assignability does not
     split (§3), so Node is not assignable from Other. */
  CU_ASSERT_EQUAL(ty_conversion(C, node, other), TY_CONV_SAFE);
  CU_ASSERT_FALSE(ty_assignable(C, node, other));
  ty_conv k;
  const ty *u = ty_unify(C, node, other, &k);
  CU_ASSERT_EQUAL(k, TY_CONV_SAFE);
  CU_ASSERT_EQUAL(u->kind, TY_OBJECT);
  /* Eventual helpers terminate and keep identities. */
  CU_ASSERT_FALSE(ty_contains_eventuals(node, NULL, NULL));
  CU_ASSERT_PTR_EQUAL(ty_resolve_outputs(C, node), node);
  CU_ASSERT_PTR_EQUAL(ty_output(C, node)->elem, node);
  const ty *in = ty_input(C, node);
  CU_ASSERT_EQUAL(in->kind, TY_UNION);
  CU_ASSERT_TRUE(ty_contains_eventuals(in, NULL, NULL));
  CU_ASSERT_EQUAL(ty_conversion(C, in, node), TY_CONV_SAFE);
  CU_ASSERT_EQUAL(ty_conversion(C, in, ty_output(C, node)), TY_CONV_SAFE);
  CU_ASSERT_PTR_EQUAL(ty_resolve_outputs(C, in), node);
  /* An input shape declared by hand (as the schema loader does) and given
     its origin is what ty_input and ty_resolve_outputs map between. */
  const ty *shape = ty_object_declare(C, "test:index:Shape", true);
  const ty *shape_in = ty_object_declare(C, "test:index:Shape$input", true);
  ty_object_set_origin(shape_in, shape);
  ty_object_set_origin(shape_in, shape);
  ty_prop sprops[] = {{"a", T("int")}};
  ty_object_define(C, shape, 1, sprops);
  ty_prop siprops[] = {{"a", T("union(int, output(int))")}};
  ty_object_define(C, shape_in, 1, siprops);
  CU_ASSERT_PTR_EQUAL(ty_resolve_outputs(C, shape_in), shape);
  CU_ASSERT_PTR_EQUAL(ty_input(C, shape), ty_union2(C, shape_in, ty_output(C, shape_in)));
  /* The eventual facts of a named object that reaches an undefined one are
     not settled until that one is defined. */
  const ty *outer = ty_object_declare(C, "test:index:Outer", true);
  const ty *inner = ty_object_declare(C, "test:index:Inner", true);
  ty_prop outer_props[] = {{"inner", inner}, {"self", ty_optional(C, outer)}};
  ty_object_define(C, outer, 2, outer_props);
  CU_ASSERT_FALSE(ty_contains_eventuals(outer, NULL, NULL));
  ty_prop inner_props[] = {{"id", T("output(string)")}, {"outer", outer}};
  ty_object_define(C, inner, 2, inner_props);
  bool out_o, out_p;
  CU_ASSERT_TRUE(ty_contains_eventuals(outer, &out_o, &out_p));
  CU_ASSERT_TRUE(out_o);
  CU_ASSERT_FALSE(out_p);
  CU_ASSERT_FALSE(ty_contains_eventuals(T("list(object({a=int}))"), NULL, NULL));
  CU_ASSERT_TRUE(ty_contains_eventuals(ty_list(C, outer), NULL, NULL));
  CU_ASSERT_TRUE(ty_contains_eventuals(outer, NULL, NULL));
  /* A schema type with eventual properties resolves to a derived type. */
  const ty *res = ty_object_declare(C, "test:index:Res", true);
  ty_prop rprops[] = {{"id", T("output(id)")}, {"self", ty_optional(C, res)}};
  ty_object_define(C, res, 2, rprops);
  bool o;
  CU_ASSERT_TRUE(ty_contains_eventuals(res, &o, NULL));
  CU_ASSERT_TRUE(o);
  const ty *plain = ty_resolve_outputs(C, res);
  CU_ASSERT_PTR_NOT_EQUAL(plain, res);
  CU_ASSERT_PTR_EQUAL(ty_object_get(plain, "id"), T("id"));
  CU_ASSERT_PTR_EQUAL(ty_object_get(plain, "self"), ty_optional(C, plain));
  CU_ASSERT_FALSE(ty_contains_eventuals(plain, NULL, NULL));
  bool clean;
  CU_ASSERT_PTR_EQUAL(attr(attr(res, "self", &clean), "id", &clean), T("optional(output(id))"));
  CU_ASSERT_TRUE(clean);
}

/* -------------------------------------------------- type expressions */

static ast_node *node(ast_kind k, uint32_t start, uint32_t end) {
  ast_node *n = ARENA_NEW(&g_arena, ast_node);
  n->kind = k;
  n->span = (pcl_span){0, start, end};
  return n;
}

static ast_node *var(const char *name, uint32_t at) {
  ast_node *n = node(AST_VARIABLE, at, at + (uint32_t)strlen(name));
  n->variable.name = intern(&g_names, name);
  return n;
}

static ast_list list_of(size_t n, ast_node **items) {
  ast_list l = {ARENA_NEW_ARRAY(&g_arena, ast_node *, n ? n : 1), n};
  for (size_t i = 0; i < n; i++)
    l.items[i] = items[i];
  return l;
}

static ast_node *call(const char *name, uint32_t at, size_t n, ast_node **args) {
  ast_node *c = node(AST_CALL, at, at + 20);
  c->call.name.text = intern(&g_names, name);
  c->call.name.span = (pcl_span){0, at, at + (uint32_t)strlen(name)};
  c->call.args = list_of(n, args);
  return c;
}

static ast_node *call1(const char *name, ast_node *arg) { return call(name, 0, 1, &arg); }

static ast_node *tuple_node(size_t n, ast_node **items) {
  ast_node *t = node(AST_TUPLE, 1, 9);
  t->tuple.items = list_of(n, items);
  return t;
}

static ast_node *quoted_key(const char *text) {
  ast_node *lit_node = node(AST_TEMPLATE_LITERAL, 1, 4);
  lit_node->literal.text = text;
  lit_node->literal.len = strlen(text);
  ast_node *t = node(AST_TEMPLATE, 1, 4);
  t->template.parts = list_of(1, &lit_node);
  return t;
}

/* object({k0 = v0, ...}) from keys and values. */
static ast_node *object_node(size_t n, ast_node **keys, ast_node **values) {
  ast_node *items[8];
  for (size_t i = 0; i < n; i++) {
    items[i] = node(AST_OBJECT_ITEM, 1, 9);
    items[i]->item.key = keys[i];
    items[i]->item.value = values[i];
  }
  ast_node *o = node(AST_OBJECT, 1, 9);
  o->object.items = list_of(n, items);
  return o;
}

static ast_node *number_node(const char *text, uint32_t at) {
  ast_node *n = node(AST_NUMBER, at, at + (uint32_t)strlen(text));
  n->number.text = text;
  return n;
}

/* Reads the type expression e as the checker does (bind/type_expr.h). */
static const ty *type_expr(const ast_node *e) {
  bind_ctx bc = {0};
  bc.arena = &g_arena;
  bc.names = &g_names;
  bc.src = &g_src;
  bc.diag = &g_diags;
  bc.ty = C;
  return type_expr_read(&bc, e);
}

/* Checks that e denotes want without diagnostics. */
static void good_expr(int line, ast_node *e, const char *want) {
  reset_diags();
  const ty *t = type_expr(e);
  const ty *w = T_at(line, want);
  if (t != w || g_diags.head) {
    fail(line, "type expression gave %s (%s), expected %s", ty_to_string(t), first_message(),
         want);
  } else {
    CU_PASS("good type expression");
  }
}

/* Checks that e is rejected with exactly the message msg at [start, end). */
static void bad_expr(int line, ast_node *e, const char *msg, uint32_t start, uint32_t end) {
  reset_diags();
  const ty *t = type_expr(e);
  if (t != ty_dynamic(C) || !g_diags.head || g_diags.errors != 1 ||
      strcmp(g_diags.head->message, msg) != 0 || g_diags.head->span.start != start ||
      g_diags.head->span.end != end) {
    fail(line, "bad type expression gave %s with '%s' at %u-%u, expected '%s' at %u-%u",
         ty_to_string(t), first_message(), g_diags.head ? g_diags.head->span.start : 0,
         g_diags.head ? g_diags.head->span.end : 0, msg, start, end);
  } else {
    CU_PASS("bad type expression");
  }
}

static void test_type_expressions(void) {
  good_expr(__LINE__, var("string", 0), "string");
  good_expr(__LINE__, var("number", 0), "number");
  good_expr(__LINE__, var("int", 0), "int");
  good_expr(__LINE__, var("bool", 0), "bool");
  good_expr(__LINE__, var("any", 0), "dynamic");
  good_expr(__LINE__, call1("list", var("string", 5)), "list(string)");
  good_expr(__LINE__, call1("map", var("any", 4)), "map(dynamic)");
  good_expr(__LINE__, call1("set", var("number", 4)), "set(number)");
  good_expr(__LINE__, call1("list", call1("optional", var("string", 0))),
            "list(optional(string))");
  ast_node *paren = node(AST_PAREN, 0, 5);
  paren->paren.inner = var("int", 1);
  good_expr(__LINE__, paren, "int");
  ast_node *k1[] = {var("prop", 8)};
  ast_node *v1[] = {call1("list", var("bool", 0))};
  good_expr(__LINE__, call1("object", object_node(1, k1, v1)), "object({prop=list(bool)})");
  ast_node *k2[] = {var("zone", 0)};
  ast_node *v2[] = {var("string", 0)};
  good_expr(__LINE__, call1("map", call1("object", object_node(1, k2, v2))),
            "map(object({zone=string}))");
  ast_node *k3[] = {quoted_key("a b"), var("c", 0)};
  ast_node *v3[] = {var("string", 0), call1("optional", var("int", 0))};
  good_expr(__LINE__, call1("object", object_node(2, k3, v3)),
            "object({\"a b\"=string, c=optional(int)})");
  good_expr(__LINE__, call1("object", object_node(0, NULL, NULL)), "object({})");
  ast_node *t1[] = {var("string", 0), var("int", 0)};
  good_expr(__LINE__, call1("tuple", tuple_node(2, t1)), "tuple(string, int)");
  good_expr(__LINE__, call1("tuple", tuple_node(0, NULL)), "tuple()");

  bad_expr(__LINE__, var("foo", 3), "undefined variable foo", 3, 6);
  bad_expr(__LINE__, var("list", 0), "undefined variable list", 0, 4);
  bad_expr(__LINE__, var("dynamic", 0), "undefined variable dynamic", 0, 7);
  bad_expr(__LINE__, call("list", 2, 0, NULL), "missing required parameter 'elementType'", 2, 22);
  ast_node *two[] = {var("string", 5), var("int", 13)};
  bad_expr(__LINE__, call("map", 0, 2, two), "too many arguments to call: expected 1, got 2", 13,
           16);
  bad_expr(__LINE__, call1("object", var("string", 7)),
           "the argument to object() must be an object type", 7, 13);
  bad_expr(__LINE__, call("object", 0, 0, NULL), "the argument to object() must be an object type",
           0, 20);
  bad_expr(__LINE__, call1("tuple", var("string", 6)),
           "the argument to tuple() must be an tuple type", 6, 12);
  bad_expr(__LINE__, call("optional", 4, 0, NULL), "optional() requires exactly one argument", 4,
           24);
  bad_expr(__LINE__, call("optional", 4, 2, two), "optional() requires exactly one argument", 4,
           24);
  bad_expr(__LINE__, call1("output", var("string", 0)), "unknown function 'output'", 0, 6);
  bad_expr(__LINE__, call1("foo", var("string", 0)), "unknown function 'foo'", 0, 3);
  bad_expr(__LINE__, number_node("1", 3), "expected a type, found a number literal", 3, 4);
  bad_expr(__LINE__, quoted_key("string"), "expected a type, found a string", 1, 4);
  ast_node *expand = call1("list", var("string", 0));
  expand->call.expand_final = true;
  bad_expr(__LINE__, expand, "argument expansion ('...') is not allowed in a type expression", 0,
           20);
  /* An error inside a constructor is reported where it is; the outer type
     is still built around dynamic. */
  reset_diags();
  const ty *t = type_expr(call1("list", number_node("1", 5)));
  CU_ASSERT_PTR_EQUAL(t, T("list(dynamic)"));
  CU_ASSERT_EQUAL(g_diags.errors, 1);
  CU_ASSERT_EQUAL(g_diags.head->span.start, 5);
  /* Computed object keys are rejected. */
  reset_diags();
  ast_node *pk = node(AST_PAREN, 2, 5);
  pk->paren.inner = var("k", 3);
  ast_node *k4[] = {pk};
  ast_node *v4[] = {var("string", 0)};
  t = type_expr(call1("object", object_node(1, k4, v4)));
  CU_ASSERT_PTR_EQUAL(t, T("dynamic"));
  CU_ASSERT_TRUE(has_diag(DIAG_ERROR, "object type attribute names must be names or quoted strings"));
  reset_diags();
}

/* Parses text the way a config type label is parsed (the label is a file
 * of its own here, so spans are offsets into text) and returns its type;
 * NULL if the text does not parse. */
static const ty *label_type(const char *text) {
  uint32_t id = src_add(&g_src, "label.pp", text, strlen(text));
  parse_env env = {&g_arena, &g_names, &g_src, &g_diags, 0};
  pcl_span where = {id, 0, (uint32_t)strlen(text)};
  ast_node *e = parse_expression_text(&env, text, strlen(text), where);
  return e ? type_expr(e) : NULL;
}

/* The examples of §13 and program.md §6, through the real parser. */
static void test_type_labels(void) {
  static const struct {
    const char *label, *type;
  } good[] = {
      {"list(string)", "list(string)"},
      {"map(any)", "map(dynamic)"},
      {"object({prop=list(bool)})", "object({prop=list(bool)})"},
      {"list(optional(string))", "list(optional(string))"},
      {"map(object({ zone = string }))", "map(object({zone=string}))"},
      {"tuple([string, int])", "tuple(string, int)"},
      {"object({\"a b\" = string, other = int})", "object({\"a b\"=string, other=int})"},
      {"object({prop=string, other=int})", "object({prop=string, other=int})"},
      {"set( number )", "set(number)"},
  };
  for (size_t i = 0; i < ARRAY_LEN(good); i++) {
    reset_diags();
    const ty *t = label_type(good[i].label);
    const ty *want = T(good[i].type);
    CHECK(t == want && !g_diags.head, "label %s gave %s (%s), expected %s", good[i].label,
          t ? ty_to_string(t) : "(no parse)", first_message(), good[i].type);
  }
  static const struct {
    const char *label, *message;
    uint32_t start, end;
  } bad[] = {
      {"list(1)", "expected a type, found a number literal", 5, 6},
      {"foo", "undefined variable foo", 0, 3},
      {"map", "undefined variable map", 0, 3},
      {"list()", "missing required parameter 'elementType'", 0, 6},
      {"set(string, int)", "too many arguments to call: expected 1, got 2", 12, 15},
      {"object(string)", "the argument to object() must be an object type", 7, 13},
      {"tuple(string)", "the argument to tuple() must be an tuple type", 6, 12},
      {"optional(int, string)", "optional() requires exactly one argument", 0, 21},
      {"output(string)", "unknown function 'output'", 0, 6},
      {"list(\"string\")", "expected a type, found a string", 5, 13},
  };
  for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
    reset_diags();
    const ty *t = label_type(bad[i].label);
    bool ok = t == ty_dynamic(C) || (t && t->kind == TY_LIST && t->elem == ty_dynamic(C));
    ok = ok && g_diags.errors == 1 && !strcmp(first_message(), bad[i].message) &&
         g_diags.head->span.start == bad[i].start && g_diags.head->span.end == bad[i].end;
    CHECK(ok, "label %s gave %s with '%s' at %u-%u, expected '%s' at %u-%u", bad[i].label,
          t ? ty_to_string(t) : "(no parse)", first_message(),
          g_diags.head ? g_diags.head->span.start : 0, g_diags.head ? g_diags.head->span.end : 0,
          bad[i].message, bad[i].start, bad[i].end);
  }
  reset_diags();
}

/* program.md §6 (makeObjectPropertiesOptional). */
static void test_config_optional(void) {
  CU_ASSERT_PTR_EQUAL(ty_config_optional_properties(C, T("object({a=string, b=optional(int)})")),
                      T("object({a=optional(string), b=optional(int)})"));
  CU_ASSERT_PTR_EQUAL(ty_config_optional_properties(C, T("list(object({a=string}))")),
                      T("list(object({a=optional(string)}))"));
  CU_ASSERT_PTR_EQUAL(ty_config_optional_properties(C, T("map(object({a=object({b=int})}))")),
                      T("map(object({a=optional(object({b=int}))}))"));
  CU_ASSERT_PTR_EQUAL(ty_config_optional_properties(C, T("set(object({a=string}))")),
                      T("set(object({a=string}))"));
  CU_ASSERT_PTR_EQUAL(ty_config_optional_properties(C, T("string")), T("string"));
}

/* ---------------------------------------------------------- deep types */

/* Types 10,000 deep, as nested brackets make them (HCL accepts that many). */
enum { DEEP = 10000 };

/* Returns k(k(...k(t))) with n layers of the collection kind k. */
static const ty *wrap_n(ty_kind k, const ty *t, size_t n) {
  for (size_t i = 0; i < n; i++)
    t = k == TY_LIST ? ty_list(C, t) : ty_tuple(C, 1, &t);
  return t;
}

/* Every operation on types nested DEEP deep, run on the phases' large
   stack (stack_run) as pclc runs them: the operations recurse over the
   depth.  Each result is checked against what the rules give for one
   level, repeated, and none ran out of stack. */
static int deep_types(void *unused) {
  (void)unused;
  /* Interning: the same structure is the same type. */
  const ty *ls = wrap_n(TY_LIST, ty_string(C), DEEP);
  CU_ASSERT_PTR_EQUAL(wrap_n(TY_LIST, ty_string(C), DEEP), ls);
  /* The canonical form, made on demand, and streamed. */
  char *want = xmalloc(6 * DEEP + 7);
  size_t n = 0;
  for (size_t i = 0; i < DEEP; i++, n += 5)
    memcpy(want + n, "list(", 5);
  memcpy(want + n, "string", 6);
  n += 6;
  memset(want + n, ')', DEEP);
  want[n + DEEP] = '\0';
  CU_ASSERT_STRING_EQUAL(ty_to_string(ls), want);
  free(want);
  /* Ordering by canonical form, piece by piece: number < string at the
     bottom, and a union of the two lists puts number's first. */
  const ty *ln = wrap_n(TY_LIST, ty_number(C), DEEP);
  CU_ASSERT(ty_cmp_string(ln, ls) < 0);
  CU_ASSERT(ty_cmp_string(ls, ln) > 0);
  CU_ASSERT_EQUAL(ty_cmp_string(ls, ls), 0);
  const ty *u = ty_union2(C, ls, ln);
  CU_ASSERT_PTR_EQUAL(u->elems.items[0], ln);
  /* The pretty form is cut. */
  const char *p = ty_pretty(C, ls);
  CU_ASSERT_EQUAL(strlen(p), (size_t)TY_PRETTY_MAX + 3);
  CU_ASSERT_STRING_EQUAL(p + TY_PRETTY_MAX, "...");
  /* Conversion and assignability, elementwise all the way down. */
  const ty *ti = wrap_n(TY_TUPLE, ty_const_int_si(C, 1), DEEP);
  CU_ASSERT_EQUAL(ty_conversion(C, ln, ti), TY_CONV_SAFE);
  CU_ASSERT_EQUAL(ty_conversion(C, wrap_n(TY_LIST, ty_bool(C), DEEP), ti), TY_CONV_UNSAFE);
  const ty *tobj = wrap_n(TY_TUPLE, ty_object(C, 0, NULL), DEEP);
  CU_ASSERT_EQUAL(ty_conversion(C, ls, tobj), TY_CONV_NONE);
  CU_ASSERT_TRUE(ty_assignable(C, wrap_n(TY_LIST, ty_dynamic(C), DEEP), ti));
  CU_ASSERT_FALSE(ty_assignable(C, ls, ti));
  /* A failure to convert to InputType(T) is explained, the message cut. */
  reset_diags();
  CU_ASSERT_FALSE(ty_check_input(C, &g_diags, (pcl_span){0, 0, 1}, ls, tobj));
  CU_ASSERT_EQUAL(g_diags.errors, 1);
  CU_ASSERT(strlen(first_message()) < 3 * (size_t)TY_PRETTY_MAX);
  reset_diags();
  /* Unification: two tuples unify level by level, as one level does. */
  const ty *t2 = wrap_n(TY_TUPLE, ty_const_int_si(C, 2), DEEP);
  ty_conv k0, k;
  const ty *bottom = ty_unify(C, ty_const_int_si(C, 1), ty_const_int_si(C, 2), &k0);
  CU_ASSERT_PTR_EQUAL(ty_unify(C, ti, t2, &k), wrap_n(TY_TUPLE, bottom, DEEP));
  CU_ASSERT_EQUAL(k, k0);
  const ty *both[2] = {ti, t2};
  CU_ASSERT_PTR_NOT_NULL(ty_unify_safe(C, 2, both));
  /* InputType and ResolveOutputs: resolving the input form gives the type
     back; an output at the bottom is seen from the top. */
  const ty *in = ty_input(C, ls);
  CU_ASSERT_PTR_EQUAL(ty_resolve_outputs(C, in), ls);
  const ty *lo = wrap_n(TY_LIST, ty_output(C, ty_string(C)), DEEP);
  bool outputs, promises;
  CU_ASSERT_TRUE(ty_contains_eventuals(lo, &outputs, &promises));
  CU_ASSERT_TRUE(outputs);
  CU_ASSERT_FALSE(promises);
  CU_ASSERT_PTR_EQUAL(ty_resolve_outputs(C, lo), ls);
  CU_ASSERT_PTR_EQUAL(ty_resolve_promises(C, lo), lo);
  /* Traversal, one step per level. */
  const ty *t = ti;
  ty_traverser zero = {.kind = TY_TRAV_NUMBER, .text = "0", .len = 1};
  for (size_t i = 0; i < DEEP; i++)
    t = ty_traverse(C, t, &zero, NULL, (pcl_span){0, 0, 1}, NULL);
  CU_ASSERT_PTR_EQUAL(t, ty_const_int_si(C, 1));
  /* A type expression as deep, through the parser. */
  char *label = xmalloc(6 * DEEP + 7);
  n = 0;
  for (size_t i = 0; i < DEEP; i++, n += 5)
    memcpy(label + n, "list(", 5);
  memcpy(label + n, "string", 6);
  n += 6;
  memset(label + n, ')', DEEP);
  label[n + DEEP] = '\0';
  CU_ASSERT_PTR_EQUAL(label_type(label), ls);
  free(label);
  CU_ASSERT_FALSE(ty_take_too_deep(C));
  return 0;
}

static void test_deep_types(void) {
  stack_run(0, deep_types, NULL);
}

/* The same operations on a thread with a small stack, where the recursion
   cannot go DEEP levels down: each stops, answers without looking further
   (the types convert, unify to the first, print cut short) and says so
   through ty_take_too_deep, and nothing crashes (AddressSanitizer would
   report an overflow); once the flag is taken, operations answer by the
   rules again. */
static void deep_types_guarded(void) {
  /* Types no earlier test made, so that no answer is memoised or kept. */
  const ty *g = ty_opaque(C, "Guarded");
  const ty *lg = wrap_n(TY_LIST, g, DEEP);
  const ty *ln = wrap_n(TY_LIST, ty_opaque(C, "Other"), DEEP);
  ty_prop prop = {intern(&g_names, "guarded"), g};
  const ty *tobj = wrap_n(TY_TUPLE, ty_object(C, 1, &prop), DEEP);
  const ty *lo = wrap_n(TY_LIST, ty_output(C, g), DEEP);
  CU_ASSERT(strlen(ty_to_string(lg)) < 6 * DEEP);
  CU_ASSERT_TRUE(ty_take_too_deep(C));
  CU_ASSERT_PTR_NULL(lg->str);
  /* The pretty form is cut at TY_PRETTY_MAX bytes, or where the stack
     ran low if that comes first (with the sanitizers' larger frames). */
  CU_ASSERT(strlen(ty_pretty(C, lg)) <= TY_PRETTY_MAX + 3);
  ty_take_too_deep(C);
  CU_ASSERT_EQUAL(ty_conversion(C, lg, tobj), TY_CONV_SAFE);
  CU_ASSERT_TRUE(ty_take_too_deep(C));
  CU_ASSERT_TRUE(ty_assignable(C, lg, tobj));
  CU_ASSERT_TRUE(ty_take_too_deep(C));
  ty_conv k;
  CU_ASSERT_PTR_EQUAL(ty_unify(C, lg, ln, &k), lg);
  CU_ASSERT_TRUE(ty_take_too_deep(C));
  CU_ASSERT_PTR_EQUAL(ty_resolve_outputs(C, lo), lo);
  CU_ASSERT_TRUE(ty_take_too_deep(C));
  /* What a type's construction keeps needs no walk. */
  CU_ASSERT_TRUE(ty_contains_eventuals(lo, NULL, NULL));
  CU_ASSERT_FALSE(ty_take_too_deep(C));
  /* The type expression reports where it stopped. */
  reset_diags();
  char *label = xmalloc(6 * DEEP + 7);
  size_t n = 0;
  for (size_t i = 0; i < DEEP; i++, n += 5)
    memcpy(label + n, "list(", 5);
  memcpy(label + n, "string", 6);
  n += 6;
  memset(label + n, ')', DEEP);
  label[n + DEEP] = '\0';
  label_type(label);
  free(label);
  CU_ASSERT_EQUAL(g_diags.errors, 1);
  CU_ASSERT_TRUE(has_diag(DIAG_ERROR, "expression nested too deeply"));
  reset_diags();
  /* By the rules again. */
  CU_ASSERT_EQUAL(ty_conversion(C, ty_list(C, ty_string(C)), ty_tuple(C, 0, NULL)),
                  TY_CONV_SAFE);
  CU_ASSERT_EQUAL(ty_conversion(C, ty_string(C), ty_object(C, 0, NULL)), TY_CONV_NONE);
  CU_ASSERT_FALSE(ty_take_too_deep(C));
}

static void test_deep_types_guarded(void) {
  on_small_stack(256 * 1024, deep_types_guarded);
}

void register_ty_tests(void);
void register_ty_tests(void) {
  CU_pSuite s = CU_add_suite("ty", setup, teardown);
  CU_add_test(s, "18.1 conversion vectors", test_conversion_vectors);
  CU_add_test(s, "18.2 unification vectors", test_unify_vectors);
  CU_add_test(s, "18.2 multi-type unification", test_unify_multi);
  CU_add_test(s, "18.3 expression vectors", test_expr_vectors);
  CU_add_test(s, "interning", test_interning);
  CU_add_test(s, "canonical construction", test_canonical);
  CU_add_test(s, "printing", test_printing);
  CU_add_test(s, "InputType and eventuals", test_input_type);
  CU_add_test(s, "lifting", test_lifting);
  CU_add_test(s, "conversion messages", test_messages);
  CU_add_test(s, "traversal", test_traverse_simple);
  CU_add_test(s, "traversal of tuples", test_traverse_tuple);
  CU_add_test(s, "traversal of objects", test_traverse_object);
  CU_add_test(s, "traversal of unions", test_traverse_union);
  CU_add_test(s, "iteration", test_iteration);
  CU_add_test(s, "number literals", test_number_literals);
  CU_add_test(s, "operators", test_operators);
  CU_add_test(s, "named objects", test_named_objects);
  CU_add_test(s, "type expressions", test_type_expressions);
  CU_add_test(s, "type labels through the parser", test_type_labels);
  CU_add_test(s, "config types", test_config_optional);
  CU_add_test(s, "types 10,000 deep", test_deep_types);
  CU_add_test(s, "types 10,000 deep on a small stack", test_deep_types_guarded);
}
