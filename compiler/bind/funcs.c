/* funcs: the builtin table and the typing of builtin calls (see funcs.h).
 *
 * Fixed signatures are written as small type codes (the ty types themselves
 * belong to a context and are built on each call).  A call is typed in the
 * order of the reference binder (types.md §11): expand a final `xs...`
 * argument, compute the signature (generic builtins look at the argument
 * types), check the arity, check each argument against InputType(param),
 * then lift the return type. */
#include "bind/funcs.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* Parameter and return types of fixed signatures. */
typedef enum code {
  C_GENERIC,     /* Computed from the arguments. */
  C_STRING,      /* string */
  C_INT,         /* int */
  C_OPT_INT,     /* optional(int) */
  C_LIST_STRING, /* list(string) */
  C_LIST_INT,    /* list(int) */
  C_DYNAMIC,     /* dynamic */
  C_OUT_DYNAMIC, /* output(dynamic) */
  C_OUT_STRING,  /* output(string) */
  C_OUT_BOOL,    /* output(bool) */
  C_OPT_DYNAMIC, /* optional(dynamic) */
  C_ASSET,       /* Asset */
  C_ARCHIVE,     /* Archive */
  C_ASSETS       /* map(union(Archive, Asset)) */
} code;

/* The row of one builtin: the public description and its type codes. */
typedef struct row {
  funcs_builtin pub;
  code param[3];
  code varargs;
  code ret;
} row;

/* The checker's columns of each builtin, whose name, arity and parameter
 * names are its row of PCL__BUILTINS (common/pcl_builtins.h): CHECKER_<ID> is
 * CK(form, lift, eventual_args, deep, (parameter codes), varargs code,
 * return code).  A C_GENERIC code is filled in from the argument types by
 * generic_sig. */
#define ORD FUNCS_ORDINARY
#define GEN FUNCS_GENERIC
#define SPE FUNCS_SPECIAL
#define INT_ FUNCS_INTRINSIC
#define CODES(...)                                                                                 \
  { __VA_ARGS__ }
/* NOLINTBEGIN(bugprone-macro-parentheses): codes and the parameter names
   are braced initializers, which parentheses would break. */
#define CK(f, l, ev, dp, codes, vcode, rcode)                                                      \
  .pub.form = (f), .pub.lift = FUNCS_LIFT_##l, .pub.eventual_args = (ev), .pub.deep = (dp),       \
  .param = codes, .varargs = (vcode), .ret = (rcode)

/* clang-format off */
#define CHECKER_ELEMENT CK(GEN, FIRST, false, false, CODES(C_GENERIC, C_INT), C_GENERIC, C_GENERIC)
#define CHECKER_ENTRIES CK(GEN, FIRST, false, false, CODES(C_DYNAMIC), C_GENERIC, C_GENERIC)
#define CHECKER_LENGTH CK(GEN, FIRST, false, false, CODES(C_GENERIC), C_GENERIC, C_INT)
#define CHECKER_LOOKUP CK(GEN, FIRST, false, false, CODES(C_GENERIC, C_STRING, C_GENERIC), C_GENERIC, C_GENERIC)
#define CHECKER_JOIN CK(ORD, GENERAL, false, false, CODES(C_STRING, C_LIST_STRING), C_GENERIC, C_STRING)
#define CHECKER_SPLIT CK(ORD, GENERAL, false, false, CODES(C_STRING, C_STRING), C_GENERIC, C_LIST_STRING)
#define CHECKER_RANGE CK(ORD, GENERAL, false, false, CODES(C_INT, C_OPT_INT), C_GENERIC, C_LIST_INT)
#define CHECKER_MIN CK(GEN, GENERAL, false, false, CODES(C_GENERIC), C_GENERIC, C_GENERIC)
#define CHECKER_MAX CK(GEN, GENERAL, false, false, CODES(C_GENERIC), C_GENERIC, C_GENERIC)
#define CHECKER_TO_JSON CK(GEN, FIRST, false, true, CODES(C_DYNAMIC), C_GENERIC, C_STRING)
#define CHECKER_TO_BASE64 CK(ORD, GENERAL, false, false, CODES(C_STRING), C_GENERIC, C_STRING)
#define CHECKER_FROM_BASE64 CK(ORD, GENERAL, false, false, CODES(C_STRING), C_GENERIC, C_STRING)
#define CHECKER_SHA1 CK(ORD, GENERAL, false, false, CODES(C_STRING), C_GENERIC, C_STRING)
#define CHECKER_READ_FILE CK(ORD, GENERAL, false, false, CODES(C_STRING), C_GENERIC, C_STRING)
#define CHECKER_FILEBASE64 CK(ORD, GENERAL, false, false, CODES(C_STRING), C_GENERIC, C_STRING)
#define CHECKER_FILEBASE64SHA256 CK(ORD, GENERAL, false, false, CODES(C_STRING), C_GENERIC, C_STRING)
#define CHECKER_READ_DIR CK(ORD, GENERAL, false, false, CODES(C_STRING), C_GENERIC, C_LIST_STRING)
#define CHECKER_MIME_TYPE CK(ORD, GENERAL, false, false, CODES(C_STRING), C_GENERIC, C_STRING)
#define CHECKER_FILE_ASSET CK(ORD, GENERAL, false, false, CODES(C_STRING), C_GENERIC, C_ASSET)
#define CHECKER_STRING_ASSET CK(ORD, GENERAL, false, false, CODES(C_STRING), C_GENERIC, C_ASSET)
#define CHECKER_REMOTE_ASSET CK(ORD, GENERAL, false, false, CODES(C_STRING), C_GENERIC, C_ASSET)
#define CHECKER_FILE_ARCHIVE CK(ORD, GENERAL, false, false, CODES(C_STRING), C_GENERIC, C_ARCHIVE)
#define CHECKER_REMOTE_ARCHIVE CK(ORD, GENERAL, false, false, CODES(C_STRING), C_GENERIC, C_ARCHIVE)
#define CHECKER_ASSET_ARCHIVE CK(ORD, GENERAL, false, false, CODES(C_ASSETS), C_GENERIC, C_ARCHIVE)
#define CHECKER_SECRET CK(GEN, ALWAYS, true, false, CODES(C_GENERIC), C_GENERIC, C_GENERIC)
#define CHECKER_UNSECRET CK(GEN, ALWAYS, true, false, CODES(C_GENERIC), C_GENERIC, C_GENERIC)
#define CHECKER_SINGLE_OR_NONE CK(GEN, FIRST, false, false, CODES(C_GENERIC), C_GENERIC, C_GENERIC)
#define CHECKER_TRY CK(SPE, TRY, true, false, CODES(C_GENERIC), C_GENERIC, C_GENERIC)
#define CHECKER_CAN CK(SPE, CAN, true, false, CODES(C_GENERIC), C_GENERIC, C_GENERIC)
#define CHECKER_RECOVER CK(SPE, ALWAYS, true, false, CODES(C_GENERIC, C_GENERIC), C_GENERIC, C_GENERIC)
#define CHECKER_NOT_IMPLEMENTED CK(ORD, NEVER, false, false, CODES(C_STRING), C_GENERIC, C_DYNAMIC)
#define CHECKER_GET_OUTPUT CK(ORD, ALWAYS, true, false, CODES(C_DYNAMIC, C_STRING), C_GENERIC, C_OUT_DYNAMIC)
#define CHECKER_RESOURCE_EXISTS CK(ORD, ALWAYS, true, false, CODES(C_STRING, C_OUT_STRING, C_OPT_DYNAMIC), C_GENERIC, C_OUT_BOOL)
#define CHECKER_STACK CK(ORD, NEVER, false, false, CODES(C_GENERIC), C_GENERIC, C_STRING)
#define CHECKER_PROJECT CK(ORD, NEVER, false, false, CODES(C_GENERIC), C_GENERIC, C_STRING)
#define CHECKER_ORGANIZATION CK(ORD, NEVER, false, false, CODES(C_GENERIC), C_GENERIC, C_STRING)
#define CHECKER_CWD CK(ORD, NEVER, false, false, CODES(C_GENERIC), C_GENERIC, C_STRING)
#define CHECKER_ROOT_DIRECTORY CK(ORD, NEVER, false, false, CODES(C_GENERIC), C_GENERIC, C_STRING)
#define CHECKER_PULUMI_RESOURCE_TYPE CK(GEN, NEVER, false, false, CODES(C_GENERIC), C_GENERIC, C_STRING)
#define CHECKER_PULUMI_RESOURCE_NAME CK(GEN, NEVER, false, false, CODES(C_GENERIC), C_GENERIC, C_STRING)
#define CHECKER_INVOKE CK(INT_, SCHEMA, true, false, CODES(C_STRING, C_GENERIC, C_GENERIC), C_GENERIC, C_GENERIC)
#define CHECKER_CALL CK(INT_, SCHEMA, true, false, CODES(C_GENERIC, C_STRING, C_GENERIC), C_GENERIC, C_GENERIC)
#define CHECKER_CONVERT CK(INT_, GENERAL, false, false, CODES(C_GENERIC, C_GENERIC), C_GENERIC, C_GENERIC)
/* clang-format on */

/* The parameter names of a row, as an array. */
#define PARAMS(a, b, c)                                                                            \
  { a, b, c }
/* Whether calls of a shape may expand their final argument. */
#define EXPANDABLE_ARGS true
#define EXPANDABLE_FILE true
#define EXPANDABLE_VAR true
#define EXPANDABLE_RUN false
#define EXPANDABLE_EVENTUAL false
#define EXPANDABLE_LAZY false
#define EXPANDABLE_INTRINSIC false
/* One row: the common columns, then the checker's. */
#define ROW(ID, NAME, SHAPE, MIN, MAX, PARAMETERS, VARARGS)                                      \
  [FUNCS_##ID] = {.pub.id = FUNCS_##ID,                                                            \
                  .pub.name = #NAME,                                                               \
                  .pub.min_args = (MIN),                                                           \
                  .pub.max_args = (MAX),                                                           \
                  .pub.nparams = (MAX) == PCL__B_VARIADIC ? (MIN) : (MAX),                         \
                  .pub.params = PARAMS PARAMETERS,                                                 \
                  .pub.varargs = (VARARGS),                                                        \
                  .pub.expandable = EXPANDABLE_##SHAPE,                                            \
                  CHECKER_##ID},
/* NOLINTEND(bugprone-macro-parentheses) */

static const row rows[FUNCS_COUNT] = {PCL__BUILTINS(ROW)};

const funcs_builtin *funcs_lookup(const char *name) {
  for (size_t i = 0; i < FUNCS_COUNT; i++) {
    if (strcmp(rows[i].pub.name, name) == 0)
      return &rows[i].pub;
  }
  return NULL;
}

const funcs_builtin *funcs_get(funcs_id id) {
  return &rows[id].pub;
}

/* Returns the ty type of a fixed type code. */
static const ty *of_code(ty_ctx *c, code k) {
  switch (k) {
  case C_STRING:
    return ty_string(c);
  case C_INT:
    return ty_int(c);
  case C_OPT_INT:
    return ty_optional(c, ty_int(c));
  case C_LIST_STRING:
    return ty_list(c, ty_string(c));
  case C_LIST_INT:
    return ty_list(c, ty_int(c));
  case C_DYNAMIC:
    return ty_dynamic(c);
  case C_OUT_DYNAMIC:
    return ty_output(c, ty_dynamic(c));
  case C_OUT_STRING:
    return ty_output(c, ty_string(c));
  case C_OUT_BOOL:
    return ty_output(c, ty_bool(c));
  case C_OPT_DYNAMIC:
    return ty_optional(c, ty_dynamic(c));
  case C_ASSET:
    return ty_opaque(c, "Asset");
  case C_ARCHIVE:
    return ty_opaque(c, "Archive");
  case C_ASSETS:
    return ty_map(c, ty_union2(c, ty_opaque(c, "Archive"), ty_opaque(c, "Asset")));
  case C_GENERIC:
    break;
  }
  ice("type code %d has no fixed type", (int)k);
}

/* The signature of one call, once computed. */
typedef struct sig {
  const ty *param[3]; /* Positional parameter types. */
  const ty *varargs;  /* Variadic parameter type, or NULL. */
  const ty *ret;      /* Return type before general lifting. */
} sig;

/* The arguments after expanding a final `xs...`. */
typedef struct args {
  size_t n;           /* Number of arguments after expansion. */
  const ty **t;       /* Their types. */
  const pcl_span *sp; /* One span per argument (expanded ones share one). */
  bool expanded;      /* The final written argument was expanded. */
} args;

/* Expands the final argument of f(xs...) (types.md §11 rule 2): a tuple
 * into one argument per element, a list or set into one argument of its
 * element type; other types stay as they are. */
static args expand(ty_ctx *c, const funcs_call *call) {
  args a = {call->nargs, NULL, call->arg_spans, false};
  size_t extra = 0;
  const ty *last = call->nargs ? call->args[call->nargs - 1] : NULL;
  bool tuple = false, coll = false;
  if (call->expand_final && last) {
    tuple = last->kind == TY_TUPLE;
    coll = last->kind == TY_LIST || last->kind == TY_SET;
    if (tuple)
      extra = last->elems.count;
    else if (coll)
      extra = 1;
  }
  a.expanded = tuple || coll;
  size_t n = a.expanded ? call->nargs - 1 + extra : call->nargs;
  a.n = n;
  a.t = arena_alloc(c->arena, sizeof *a.t * (n ? n : 1));
  pcl_span *sp = arena_alloc(c->arena, sizeof *sp * (n ? n : 1));
  size_t k = 0;
  for (size_t i = 0; i < call->nargs; i++) {
    if (i == call->nargs - 1 && a.expanded) {
      for (size_t j = 0; j < extra; j++) {
        a.t[k] = tuple ? last->elems.items[j] : last->elem;
        sp[k++] = call->arg_spans[i];
      }
    } else {
      a.t[k] = call->args[i];
      sp[k++] = call->arg_spans[i];
    }
  }
  a.sp = sp;
  return a;
}

/* Returns true if t contains an output or a promise anywhere. */
static bool eventual(const ty *t) {
  return ty_contains_eventuals(t, NULL, NULL);
}

/* Returns true if t is number-valued in the sense of min/max: number, a
 * number constant, or a union with such a member. */
static bool number_like(const ty *t) {
  if (t->kind == TY_NUMBER)
    return true;
  if (t->kind == TY_CONST)
    return t->cnst.base->kind == TY_NUMBER;
  if (t->kind == TY_UNION) {
    for (size_t i = 0; i < t->elems.count; i++) {
      if (number_like(t->elems.items[i]))
        return true;
    }
  }
  return false;
}

/* Checks the count of arguments of a builtin whose reference binder words
 * its arity error itself ("'toJSON' expects exactly one argument"): reports
 * msg at the call when n is outside the builtin's arity. */
static bool arity_ok(diag_list *d, const funcs_call *call, const funcs_builtin *fn, size_t n,
                     const char *msg) {
  if (n >= fn->min_args && (fn->max_args == PCL__B_VARIADIC || n <= fn->max_args))
    return true;
  diag_error(d, call->span, "%s", msg);
  return false;
}

/* Computes the signature of a generic builtin from the arguments; returns
 * false after reporting an error. */
static bool generic_sig(ty_ctx *c, diag_list *d, const row *r, const funcs_call *call,
                        const args *a, sig *s) {
  const ty *a0 = a->n ? a->t[0] : NULL;
  const ty *r0 = a->n ? ty_resolve_outputs(c, a->t[0]) : NULL;
  pcl_span sp0 = a->n ? a->sp[0] : call->span;
  switch (r->pub.id) {
  case FUNCS_ELEMENT:
    s->param[0] = a0 ? a0 : ty_dynamic(c);
    s->ret = ty_dynamic(c);
    if (!a0)
      return true;
    if (r0->kind == TY_LIST) {
      s->ret = r0->elem;
    } else if (r0->kind == TY_TUPLE) {
      const ty *unsafe;
      ty_unify_types(c, r0->elems.count, r0->elems.items, NULL, &unsafe);
      s->ret = unsafe;
    } else if (r0->kind != TY_DYNAMIC) {
      diag_fail(d, sp0, "the first argument to 'element' must be a list or tuple");
      return false;
    }
    if (eventual(a0))
      s->ret = ty_output(c, s->ret);
    return true;
  case FUNCS_ENTRIES: {
    s->ret = ty_dynamic(c);
    if (!a0)
      return true;
    const ty *k, *v;
    if (!ty_collection_types(c, r0, &k, &v, d, sp0, false))
      return false;
    ty_prop props[2] = {{"key", k}, {"value", v}};
    s->ret = ty_list(c, ty_object(c, 2, props));
    if (eventual(a0))
      s->ret = ty_output(c, s->ret);
    return true;
  }
  case FUNCS_LENGTH: {
    s->param[0] = a0 ? a0 : ty_dynamic(c);
    if (!a0)
      return true;
    const ty *t = ty_strip_optional(c, r0);
    bool ok = t->kind == TY_LIST || t->kind == TY_MAP || t->kind == TY_OBJECT ||
              t->kind == TY_TUPLE || ty_conversion(c, ty_string(c), t) != TY_CONV_NONE;
    if (!ok) {
      diag_fail(d, sp0,
                "the first argument to 'length' must be a list, map, object, tuple, or string");
      return false;
    }
    if (eventual(a0))
      s->ret = ty_output(c, s->ret);
    return true;
  }
  case FUNCS_LOOKUP: {
    const ty *e = ty_dynamic(c);
    s->param[0] = a0 ? a0 : ty_dynamic(c);
    if (a0) {
      if (r0->kind == TY_MAP) {
        e = r0->elem;
      } else if (r0->kind == TY_OBJECT) {
        const ty **ts = ty_object_types(r0);
        ty_unify_types(c, r0->object.count, ts, NULL, &e);
        free(ts);
      } else if (r0->kind != TY_DYNAMIC) {
        diag_fail(d, sp0, "the first argument to 'lookup' must be a map");
        return false;
      }
    }
    /* The default comes back as it is when the key is absent: it needs no
       conversion, and the result is the (safe) unification of the element
       and the default types, as the reference types it.  Without a default
       the key must be present (the deprecated two-argument form). */
    const ty *ret = e;
    if (a->n > 2) {
      s->param[2] = a->t[2];
      const ty *both[2] = {e, a->t[2]};
      ret = ty_unify_safe(c, 2, both);
    } else {
      s->param[2] = ty_optional(c, ty_dynamic(c));
    }
    s->ret = a0 && eventual(a0) ? ty_output(c, ret) : ret;
    return true;
  }
  case FUNCS_MIN:
  case FUNCS_MAX: {
    bool number = false;
    for (size_t i = 0; i < a->n; i++)
      number = number || number_like(ty_resolve_outputs(c, a->t[i]));
    const ty *t = number ? ty_number(c) : ty_int(c);
    s->param[0] = s->varargs = s->ret = t;
    return true;
  }
  case FUNCS_TO_JSON:
    if (!arity_ok(d, call, &r->pub, a->n, "'toJSON' expects exactly one argument"))
      return false;
    if (eventual(a0))
      s->ret = ty_output(c, s->ret);
    return true;
  case FUNCS_SECRET:
  case FUNCS_UNSECRET:
    s->param[0] = a0 ? a0 : ty_dynamic(c);
    s->ret = ty_output(c, s->param[0]);
    return true;
  case FUNCS_SINGLE_OR_NONE: {
    if (!arity_ok(d, call, &r->pub, a->n, "'singleOrNone' only expects one argument"))
      return false;
    /* The argument, which the arity guarantees. */
    const ty *arg = a->t[0], *resolved = ty_resolve_outputs(c, arg);
    s->param[0] = arg;
    const ty *e;
    if (resolved->kind == TY_LIST) {
      e = resolved->elem;
    } else if (resolved->kind == TY_TUPLE) {
      e = resolved->elems.count ? resolved->elems.items[0] : ty_dynamic(c);
    } else if (resolved->kind == TY_DYNAMIC) {
      e = resolved;
    } else {
      diag_fail(d, sp0, "the first argument to 'singleOrNone' must be a list or tuple");
      return false;
    }
    s->ret = ty_optional(c, e);
    if (eventual(arg))
      s->ret = ty_output(c, s->ret);
    return true;
  }
  case FUNCS_PULUMI_RESOURCE_TYPE:
  case FUNCS_PULUMI_RESOURCE_NAME: {
    const char *msg = r->pub.id == FUNCS_PULUMI_RESOURCE_TYPE
                          ? "pulumiResourceType expects exactly one argument"
                          : "pulumiResourceName expects exactly one argument";
    if (!arity_ok(d, call, &r->pub, a->n, msg))
      return false;
    const ty *t = ty_strip_eventual(a0);
    if (t->kind != TY_OBJECT && t->kind != TY_DYNAMIC) {
      diag_fail(d, sp0, "%s argument must be a single resource", r->pub.name);
      return false;
    }
    s->param[0] = a0;
    return true;
  }
  case FUNCS_TRY: {
    if (!arity_ok(d, call, &r->pub, a->n, "'try' expects at least one argument"))
      return false;
    bool lift = false, dyn = false;
    for (size_t i = 0; i < a->n; i++) {
      lift = lift || eventual(a->t[i]);
      dyn = dyn || a->t[i]->kind == TY_DYNAMIC;
    }
    const ty *u = ty_unify_safe(c, a->n, a->t);
    s->ret = dyn ? ty_output(c, ty_dynamic(c)) : lift ? ty_output(c, u) : u;
    s->varargs = NULL;
    return true;
  }
  case FUNCS_CAN: {
    if (!arity_ok(d, call, &r->pub, a->n, "'can' expects exactly one argument"))
      return false;
    const ty *arg = a->t[0]; /* The arity guarantees it. */
    bool out = arg->kind == TY_OUTPUT || arg->kind == TY_DYNAMIC;
    if (arg->kind == TY_UNION) {
      for (size_t i = 0; i < arg->elems.count; i++)
        out = out || arg->elems.items[i]->kind == TY_OUTPUT;
    }
    s->ret = out ? ty_output(c, ty_bool(c)) : ty_bool(c);
    return true;
  }
  case FUNCS_RECOVER: {
    if (!arity_ok(d, call, &r->pub, a->n, "'recover' expects exactly two arguments"))
      return false;
    const ty *value = a->t[0]; /* The arity guarantees both. */
    if (value->kind != TY_OUTPUT) {
      diag_error(d, sp0, "the first argument to 'recover' must be an output");
      return false;
    }
    const ty *ts[2] = {ty_resolve_outputs(c, value), ty_resolve_outputs(c, a->t[1])};
    s->ret = ty_output(c, ty_unify_safe(c, 2, ts));
    return true;
  }
  case FUNCS_JOIN:
  case FUNCS_SPLIT:
  case FUNCS_RANGE:
  case FUNCS_TO_BASE64:
  case FUNCS_FROM_BASE64:
  case FUNCS_SHA1:
  case FUNCS_READ_FILE:
  case FUNCS_FILEBASE64:
  case FUNCS_FILEBASE64SHA256:
  case FUNCS_READ_DIR:
  case FUNCS_MIME_TYPE:
  case FUNCS_FILE_ASSET:
  case FUNCS_STRING_ASSET:
  case FUNCS_REMOTE_ASSET:
  case FUNCS_FILE_ARCHIVE:
  case FUNCS_REMOTE_ARCHIVE:
  case FUNCS_ASSET_ARCHIVE:
  case FUNCS_NOT_IMPLEMENTED:
  case FUNCS_GET_OUTPUT:
  case FUNCS_RESOURCE_EXISTS:
  case FUNCS_STACK:
  case FUNCS_PROJECT:
  case FUNCS_ORGANIZATION:
  case FUNCS_CWD:
  case FUNCS_ROOT_DIRECTORY:
  case FUNCS_INVOKE:
  case FUNCS_CALL:
  case FUNCS_CONVERT:
  case FUNCS_COUNT:
    break;
  }
  ice("builtin %s has no generic signature", r->pub.name);
}

const ty *funcs_check_call(ty_ctx *c, diag_list *d, const funcs_builtin *fn,
                           const funcs_call *call) {
  const row *r = &rows[fn->id];
  if (fn->form == FUNCS_INTRINSIC)
    ice("%s is bound by the checker, not by funcs_check_call", fn->name);
  for (size_t i = 0; call->params && i < call->nargs; i++)
    call->params[i] = NULL;
  args a = expand(c, call);
  sig s = {{NULL, NULL, NULL}, NULL, NULL};
  for (size_t i = 0; i < fn->nparams; i++) {
    if (r->param[i] != C_GENERIC)
      s.param[i] = of_code(c, r->param[i]);
  }
  if (r->ret != C_GENERIC)
    s.ret = of_code(c, r->ret);
  if (fn->form != FUNCS_ORDINARY && !generic_sig(c, d, r, call, &a, &s))
    return NULL;
  /* The special forms check their own arity and convert nothing. */
  if (fn->form == FUNCS_SPECIAL)
    return s.ret;
  /* Arity (types.md §11 rule 3), from the builtin's row. */
  if (a.n < fn->min_args) {
    diag_error(d, call->span, "missing required parameter '%s'", fn->params[a.n]);
    return NULL;
  }
  if (fn->max_args != PCL__B_VARIADIC && a.n > fn->max_args) {
    diag_error(d, a.sp[fn->max_args], "too many arguments to call: expected %zu, got %zu",
               fn->max_args, a.n);
    return NULL;
  }
  /* Conversions to InputType(param) and the parameter of each argument. */
  const ty **params = arena_alloc(c->arena, sizeof *params * (a.n ? a.n : 1));
  bool ok = true;
  for (size_t i = 0; i < a.n; i++) {
    params[i] = i < fn->nparams ? s.param[i] : s.varargs;
    ok = ty_check_input(c, d, a.sp[i], params[i], a.t[i]) && ok;
  }
  if (!ok)
    return NULL;
  /* Written arguments before an expanded one map one to one onto the
     expanded list. */
  size_t direct = a.expanded ? call->nargs - 1 : call->nargs;
  for (size_t i = 0; call->params && i < direct; i++)
    call->params[i] = params[i];
  switch (fn->lift) {
  case FUNCS_LIFT_GENERAL:
  case FUNCS_LIFT_FIRST:
    return ty_lift_call(c, s.ret, a.n, params, a.t);
  case FUNCS_LIFT_ALWAYS:
  case FUNCS_LIFT_NEVER:
  case FUNCS_LIFT_TRY:
  case FUNCS_LIFT_CAN:
  case FUNCS_LIFT_SCHEMA:
    break;
  }
  return s.ret;
}
