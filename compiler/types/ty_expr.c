/* ty_expr: the typing rules that start from syntax — number literals
 * (types.md §8 with DECISIONS.md D3), operators (§10 with D3) and type
 * expressions (§13).
 *
 * Number literals are read exactly: an integral value of any size becomes
 * const(int) with its GMP value, anything else const(number) with the
 * nearest double.  Type expressions accept exactly the names and
 * constructors of §13 and report anything else with the node's span. */
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

const ty *ty_binary_op(ty_ctx *c, ast_binary_op op, const ty *lhs, const ty *rhs,
                       const ty **lhs_param, const ty **rhs_param) {
  const ty *param = NULL, *result = NULL;
  bool ints = ty_is_int_like(lhs) && ty_is_int_like(rhs);
  switch (op) {
  case AST_OP_ADD:
  case AST_OP_SUB:
  case AST_OP_MUL:
  case AST_OP_MOD:
    /* D3: int op int is an exact int; the reference types only `int op int`
       (not constants) this way. */
    param = result = ints ? ty_int(c) : ty_number(c);
    break;
  case AST_OP_DIV:
    /* D3: `/` is real division, always number. */
    param = result = ty_number(c);
    break;
  case AST_OP_LT:
  case AST_OP_LE:
  case AST_OP_GT:
  case AST_OP_GE:
    param = ints ? ty_int(c) : ty_number(c);
    result = ty_bool(c);
    break;
  case AST_OP_EQ:
  case AST_OP_NE:
    param = ty_optional(c, ty_dynamic(c));
    result = ty_bool(c);
    break;
  case AST_OP_AND:
  case AST_OP_OR:
    param = result = ty_bool(c);
    break;
  }
  if (!param)
    ice("bad binary operator %d", (int)op);
  const ty *in = ty_input(c, param);
  if (lhs_param)
    *lhs_param = in;
  if (rhs_param)
    *rhs_param = in;
  const ty *args[2] = {lhs, rhs};
  return ty_lift(c, result, 2, args);
}

const ty *ty_unary_op(ty_ctx *c, ast_unary_op op, const ty *operand, const ty **param) {
  const ty *p = NULL;
  switch (op) {
  case AST_OP_NEG:
    p = ty_is_int_like(operand) ? ty_int(c) : ty_number(c);
    break;
  case AST_OP_NOT:
    p = ty_bool(c);
    break;
  }
  if (!p)
    ice("bad unary operator %d", (int)op);
  if (param)
    *param = ty_input(c, p);
  return ty_lift(c, p, 1, &operand);
}

/* ----------------------------------------------------- type expressions */

/* Describes a node that is not a type, for "expected a type" errors. */
static const char *describe(const ast_node *e) {
  switch (e->kind) {
  case AST_NUMBER:
    return "a number literal";
  case AST_BOOL:
    return "a bool literal";
  case AST_NULL:
    return "null";
  case AST_TEMPLATE:
  case AST_TEMPLATE_LITERAL:
  case AST_TEMPLATE_IF:
  case AST_TEMPLATE_FOR:
    return "a string";
  case AST_GET_ATTR:
  case AST_INDEX:
  case AST_SPLAT:
  case AST_SPLAT_ITEM:
    return "a traversal";
  case AST_TUPLE:
    return "a tuple constructor";
  case AST_OBJECT:
  case AST_OBJECT_ITEM:
    return "an object constructor";
  case AST_FOR:
    return "a for expression";
  case AST_UNARY:
  case AST_BINARY:
    return "an operator expression";
  case AST_CONDITIONAL:
    return "a conditional expression";
  case AST_ATTRIBUTE:
  case AST_BLOCK:
  case AST_VARIABLE:
  case AST_CALL:
  case AST_PAREN:
    break;
  }
  return "an expression";
}

/* The property name of an object-type item key, or NULL (reported). */
static const char *item_name(const ast_node *key, diag_list *d, size_t *len) {
  switch (key->kind) {
  case AST_VARIABLE:
    *len = strlen(key->variable.name);
    return key->variable.name;
  case AST_BOOL:
    *len = key->boolean.value ? 4 : 5;
    return key->boolean.value ? "true" : "false";
  case AST_NULL:
    *len = 4;
    return "null";
  case AST_TEMPLATE:
    if (key->template.parts.count == 1 &&
        key->template.parts.items[0]->kind == AST_TEMPLATE_LITERAL) {
      *len = key->template.parts.items[0]->literal.len;
      return key->template.parts.items[0]->literal.text;
    }
    break;
  case AST_ATTRIBUTE:
  case AST_BLOCK:
  case AST_NUMBER:
  case AST_TEMPLATE_LITERAL:
  case AST_TEMPLATE_IF:
  case AST_TEMPLATE_FOR:
  case AST_GET_ATTR:
  case AST_INDEX:
  case AST_SPLAT:
  case AST_SPLAT_ITEM:
  case AST_CALL:
  case AST_TUPLE:
  case AST_OBJECT:
  case AST_OBJECT_ITEM:
  case AST_FOR:
  case AST_UNARY:
  case AST_BINARY:
  case AST_CONDITIONAL:
  case AST_PAREN:
    break;
  }
  diag_error(d, key->span, "object type attribute names must be names or quoted strings");
  return NULL;
}

/* Checks the arity of list/set/map(T); reports and returns false if wrong. */
static bool one_element_type(const ast_node *e, diag_list *d) {
  size_t n = e->call.args.count;
  if (n == 0) {
    diag_error(d, e->span, "missing required parameter 'elementType'");
    return false;
  }
  if (n > 1) {
    diag_error(d, e->call.args.items[1]->span, "too many arguments to call: expected 1, got %zu",
               n);
    return false;
  }
  return true;
}

/* Type expressions nest as deep as the input (`list(list(...))` 10,000
   deep), so they are read with an explicit stack of frames, one per type
   function call whose arguments are being read; a frame's step reads its
   next argument (sub) or makes its type.  Arguments are read in source
   order, so diagnostics come out in that order. */

/* A call of a type function being read. */
typedef struct texpr_frame {
  const ast_node *e;  /* The call. */
  const ty **out;     /* Where its type goes. */
  size_t i;           /* The next argument (or item) to read. */
  bool after;         /* object(): the value of item i has been read. */
  bool ok;            /* object(): every property name so far is valid. */
  const ty **elems;   /* The types read (arena). */
  const char **names; /* object(): the property names, each NULL if invalid; NULL for the
                         other calls. */
  size_t *lens;       /* object(): their lengths; NULL for the other calls. */
} texpr_frame;

/* The frames of one type expression. */
typedef struct texpr {
  ty_ctx *c;
  diag_list *d;
  texpr_frame *frames; /* Innermost last (heap). */
  size_t count, cap;   /* Frames used and allocated. */
} texpr;

/* Reads the type expression e into *out: at once unless e is a type
   function call with arguments to read, which gets a frame. */
static void texpr_sub(texpr *k, const ast_node *e, const ty **out) {
  ty_ctx *c = k->c;
  diag_list *d = k->d;
  while (e->kind == AST_PAREN)
    e = e->paren.inner;
  switch (e->kind) {
  case AST_VARIABLE: {
    const char *n = e->variable.name;
    if (!strcmp(n, "string"))
      *out = ty_string(c);
    else if (!strcmp(n, "number"))
      *out = ty_number(c);
    else if (!strcmp(n, "int"))
      *out = ty_int(c);
    else if (!strcmp(n, "bool"))
      *out = ty_bool(c);
    else if (!strcmp(n, "any"))
      *out = ty_dynamic(c);
    else {
      diag_error(d, e->span, "undefined variable %s", n);
      *out = ty_dynamic(c);
    }
    return;
  }
  case AST_CALL:
    break;
  case AST_ATTRIBUTE:
  case AST_BLOCK:
  case AST_NUMBER:
  case AST_BOOL:
  case AST_NULL:
  case AST_TEMPLATE:
  case AST_TEMPLATE_LITERAL:
  case AST_TEMPLATE_IF:
  case AST_TEMPLATE_FOR:
  case AST_GET_ATTR:
  case AST_INDEX:
  case AST_SPLAT:
  case AST_SPLAT_ITEM:
  case AST_TUPLE:
  case AST_OBJECT:
  case AST_OBJECT_ITEM:
  case AST_FOR:
  case AST_UNARY:
  case AST_BINARY:
  case AST_CONDITIONAL:
  case AST_PAREN:
    diag_error(d, e->span, "expected a type, found %s", describe(e));
    *out = ty_dynamic(c);
    return;
  }
  /* A type function: the checks that need no argument's type first. */
  const char *f = e->call.name.text;
  const ast_list *args = &e->call.args;
  size_t n = 0;
  if (e->call.expand_final) {
    diag_error(d, e->span, "argument expansion ('...') is not allowed in a type expression");
  } else if (!strcmp(f, "list") || !strcmp(f, "set") || !strcmp(f, "map")) {
    n = one_element_type(e, d) ? 1 : 0;
  } else if (!strcmp(f, "optional")) {
    if (args->count != 1)
      diag_error(d, e->span, "optional() requires exactly one argument");
    else
      n = 1;
  } else if (!strcmp(f, "object")) {
    if (args->count != 1 || args->items[0]->kind != AST_OBJECT)
      diag_error(d, args->count ? args->items[0]->span : e->span,
                 "the argument to object() must be an object type");
    else
      n = args->items[0]->object.items.count + 1;
  } else if (!strcmp(f, "tuple")) {
    if (args->count != 1 || args->items[0]->kind != AST_TUPLE)
      diag_error(d, args->count ? args->items[0]->span : e->span,
                 "the argument to tuple() must be an tuple type");
    else
      n = args->items[0]->tuple.items.count + 1;
  } else {
    diag_error(d, e->call.name.span, "unknown function '%s'", f);
  }
  if (n == 0) {
    *out = ty_dynamic(c);
    return;
  }
  if (k->count == k->cap) {
    k->cap = k->cap ? 2 * k->cap : 16;
    k->frames = xrealloc(k->frames, k->cap * sizeof *k->frames);
  }
  texpr_frame *fr = &k->frames[k->count++];
  *fr = (texpr_frame){e, out, 0, false, true, ARENA_NEW_ARRAY(c->arena, const ty *, n), NULL,
                      NULL};
  if (!strcmp(f, "object")) {
    fr->names = ARENA_NEW_ARRAY(c->arena, const char *, n);
    fr->lens = ARENA_NEW_ARRAY(c->arena, size_t, n);
  }
}

/* Reads the next argument of the top frame, or makes its type. */
static void texpr_step(texpr *k, texpr_frame *fr) {
  ty_ctx *c = k->c;
  const ast_node *e = fr->e;
  const char *f = e->call.name.text;
  const ast_node *arg = e->call.args.items[0];
  if (fr->names && fr->lens) {
    const ast_list *items = &arg->object.items;
    if (fr->i < items->count) {
      const ast_node *item = items->items[fr->i];
      size_t i = fr->i;
      if (!fr->after) {
        fr->names[i] = item_name(item->item.key, k->d, &fr->lens[i]);
        fr->after = true;
        texpr_sub(k, item->item.value, &fr->elems[i]);
        return;
      }
      if (!fr->names[i]) {
        fr->ok = false;
      } else if (memchr(fr->names[i], '\0', fr->lens[i])) {
        diag_error(k->d, item->item.key->span, "object type attribute names must not contain NUL");
        fr->names[i] = NULL;
        fr->ok = false;
      }
      fr->after = false;
      fr->i++;
      return;
    }
    const ty *r = ty_dynamic(c);
    if (fr->ok) {
      ty_prop *props = xmalloc((items->count ? items->count : 1) * sizeof *props);
      for (size_t i = 0; i < items->count; i++) {
        props[i].name = intern_n(c->names, fr->names[i], fr->lens[i]);
        props[i].type = fr->elems[i];
      }
      r = ty_object(c, items->count, props);
      free(props);
    }
    *fr->out = r;
    k->count--;
    return;
  }
  if (!strcmp(f, "tuple")) {
    const ast_list *items = &arg->tuple.items;
    if (fr->i < items->count) {
      size_t i = fr->i++;
      texpr_sub(k, items->items[i], &fr->elems[i]);
      return;
    }
    *fr->out = ty_tuple(c, items->count, fr->elems);
    k->count--;
    return;
  }
  /* list, set, map and optional take one type. */
  if (fr->i == 0) {
    fr->i = 1;
    texpr_sub(k, arg, &fr->elems[0]);
    return;
  }
  const ty *elem = fr->elems[0];
  *fr->out = f[0] == 'l'   ? ty_list(c, elem)
             : f[0] == 's' ? ty_set(c, elem)
             : f[0] == 'm' ? ty_map(c, elem)
                           : ty_optional(c, elem);
  k->count--;
}

const ty *ty_from_type_expr(ty_ctx *c, const ast_node *e, diag_list *d) {
  texpr k = {c, d, NULL, 0, 0};
  const ty *t = NULL;
  texpr_sub(&k, e, &t);
  while (k.count > 0)
    texpr_step(&k, &k.frames[k.count - 1]);
  free(k.frames);
  return t;
}
