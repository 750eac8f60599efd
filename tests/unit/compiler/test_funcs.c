/* Unit tests of the builtin table (funcs): the table itself, and the result
 * type of every builtin for plain, output and promise arguments, generic
 * signatures, `f(xs...)` expansion, and arity and argument errors
 * (functions.md, types.md §11). */
#include <CUnit/CUnit.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bind/funcs.h"
#include "base/util.h"

/* A type context plus a few named types to call builtins with. */
typedef struct env {
  arena arena;
  intern_table names;
  src_set src;
  diag_list diags;
  ty_ctx ty;
  const ty *s, *os, *ps, *i, *oi, *n, *b, *d, *ls, *lo, *los, *ms, *mo, *o, *t, *r, *lr, *asset,
      *c1, *c25;
} env;

static void env_open(env *e) {
  arena_init(&e->arena);
  intern_init(&e->names, &e->arena);
  src_init(&e->src);
  diag_init(&e->diags, &e->src);
  ty_ctx_init(&e->ty, &e->arena, &e->names);
  ty_ctx *c = &e->ty;
  src_add(&e->src, "call.pp", "f(a, b, c, d)\n", 14);
  e->s = ty_string(c);
  e->os = ty_output(c, e->s);
  e->ps = ty_promise(c, e->s);
  e->i = ty_int(c);
  e->oi = ty_output(c, e->i);
  e->n = ty_number(c);
  e->b = ty_bool(c);
  e->d = ty_dynamic(c);
  e->ls = ty_list(c, e->s);
  e->lo = ty_output(c, e->ls);
  e->los = ty_list(c, e->os);
  e->ms = ty_map(c, e->s);
  e->mo = ty_output(c, e->ms);
  ty_prop props[2] = {{"a", e->s}, {"b", e->i}};
  e->o = ty_object(c, 2, props);
  const ty *te[2] = {e->s, e->i};
  e->t = ty_tuple(c, 2, te);
  ty_prop rp[3] = {{"id", ty_output(c, ty_id(c))}, {"urn", e->os}, {"name", e->os}};
  e->r = ty_object(c, 3, rp);
  e->lr = ty_list(c, e->r);
  e->asset = ty_opaque(c, "Asset");
  e->c1 = ty_const_int_si(c, 1);
  e->c25 = ty_const_number(c, 2.5);
}

static void env_close(env *e) {
  ty_ctx_free(&e->ty);
  diag_free(&e->diags);
  src_free(&e->src);
  intern_free(&e->names);
  arena_free(&e->arena);
}

/* Types name(args...) and returns the pretty result type, or "error: " and
 * the diagnostics' messages (joined by " / ") when the call is rejected.
 * The diagnostics list is emptied afterwards. */
static const char *vcall(env *e, bool expand, const char *name, size_t n, va_list ap) {
  const funcs_builtin *fn = funcs_lookup(name);
  CU_ASSERT_PTR_NOT_NULL_FATAL(fn);
  const ty **args = ARENA_NEW_ARRAY(&e->arena, const ty *, n + 1);
  pcl_span *spans = ARENA_NEW_ARRAY(&e->arena, pcl_span, n + 1);
  for (size_t k = 0; k < n; k++) {
    args[k] = va_arg(ap, const ty *);
    spans[k] = (pcl_span){0, (uint32_t)(2 + 3 * k), (uint32_t)(3 + 3 * k)};
  }
  funcs_call call = {n, args, spans, {0, 0, 13}, expand, NULL};
  const ty *t = funcs_check_call(&e->ty, &e->diags, fn, &call);
  const char *out;
  if (t) {
    out = ty_pretty(&e->ty, t);
    CU_ASSERT_EQUAL(e->diags.errors, 0);
  } else {
    out = "error:";
    CU_ASSERT(e->diags.errors > 0);
    for (diag *g = e->diags.head; g; g = g->next)
      out = arena_printf(&e->arena, "%s%s%s", out, g == e->diags.head ? " " : " / ", g->message);
  }
  diag_free(&e->diags);
  diag_init(&e->diags, &e->src);
  return out;
}

static const char *call(env *e, const char *name, size_t n, ...) {
  va_list ap;
  va_start(ap, n);
  const char *r = vcall(e, false, name, n, ap);
  va_end(ap);
  return r;
}

static const char *call_expand(env *e, const char *name, size_t n, ...) {
  va_list ap;
  va_start(ap, n);
  const char *r = vcall(e, true, name, n, ap);
  va_end(ap);
  return r;
}

#define EXPECT(actual, expected)                                                                   \
  do {                                                                                             \
    const char *got_ = (actual);                                                                   \
    if (strcmp(got_, (expected)) != 0)                                                             \
      fprintf(stderr, "\n%s:%d: got: %s\n", __FILE__, __LINE__, got_);                             \
    CU_ASSERT_STRING_EQUAL(got_, (expected));                                                      \
  } while (0)

static void test_table(void) {
  static const char *const names[] = {"element",
                                      "entries",
                                      "length",
                                      "lookup",
                                      "join",
                                      "split",
                                      "range",
                                      "min",
                                      "max",
                                      "toJSON",
                                      "toBase64",
                                      "fromBase64",
                                      "sha1",
                                      "readFile",
                                      "filebase64",
                                      "filebase64sha256",
                                      "readDir",
                                      "mimeType",
                                      "fileAsset",
                                      "stringAsset",
                                      "remoteAsset",
                                      "fileArchive",
                                      "remoteArchive",
                                      "assetArchive",
                                      "secret",
                                      "unsecret",
                                      "singleOrNone",
                                      "try",
                                      "can",
                                      "recover",
                                      "notImplemented",
                                      "getOutput",
                                      "resourceExists",
                                      "stack",
                                      "project",
                                      "organization",
                                      "cwd",
                                      "rootDirectory",
                                      "pulumiResourceType",
                                      "pulumiResourceName",
                                      "invoke",
                                      "call",
                                      "convert"};
  CU_ASSERT_EQUAL(ARRAY_LEN(names), FUNCS_COUNT);
  for (size_t i = 0; i < ARRAY_LEN(names); i++) {
    const funcs_builtin *fn = funcs_lookup(names[i]);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fn);
    CU_ASSERT_STRING_EQUAL(fn->name, names[i]);
    CU_ASSERT_PTR_EQUAL(funcs_get(fn->id), fn);
  }
  /* Not PCL builtins (functions.md; readDir and mimeType are pclc's own,
   * docs/functions.md), and names are case-sensitive. */
  CU_ASSERT_PTR_NULL(funcs_lookup("cidrsubnet"));
  CU_ASSERT_PTR_NULL(funcs_lookup("mimetype"));
  CU_ASSERT_PTR_NULL(funcs_lookup("tojson"));
  CU_ASSERT_PTR_NULL(funcs_lookup("__convert"));
  CU_ASSERT_EQUAL(funcs_lookup("try")->form, FUNCS_SPECIAL);
  CU_ASSERT_EQUAL(funcs_lookup("can")->form, FUNCS_SPECIAL);
  CU_ASSERT_EQUAL(funcs_lookup("recover")->form, FUNCS_SPECIAL);
  CU_ASSERT_EQUAL(funcs_lookup("invoke")->form, FUNCS_INTRINSIC);
  CU_ASSERT_EQUAL(funcs_lookup("join")->form, FUNCS_ORDINARY);
  CU_ASSERT_EQUAL(funcs_lookup("length")->form, FUNCS_GENERIC);
  CU_ASSERT(funcs_lookup("secret")->eventual_args);
  CU_ASSERT(funcs_lookup("getOutput")->eventual_args);
  CU_ASSERT(funcs_lookup("resourceExists")->eventual_args);
  CU_ASSERT_FALSE(funcs_lookup("resourceExists")->expandable);
  CU_ASSERT_FALSE(funcs_lookup("sha1")->eventual_args);
  CU_ASSERT(funcs_lookup("toJSON")->deep);
  CU_ASSERT_EQUAL(funcs_lookup("stack")->lift, FUNCS_LIFT_NEVER);
  CU_ASSERT_STRING_EQUAL(funcs_lookup("max")->varargs, "rest");
}

static void test_collections(void) {
  env e;
  env_open(&e);
  EXPECT(call(&e, "element", 2, e.ls, e.i), "string");
  EXPECT(call(&e, "element", 2, e.lo, e.i), "output(string)");
  EXPECT(call(&e, "element", 2, e.los, e.i), "output(string)");
  EXPECT(call(&e, "element", 2, e.ls, e.oi), "output(string)");
  EXPECT(call(&e, "element", 2, e.t, e.c1), "string");
  EXPECT(call(&e, "element", 2, e.d, e.i), "dynamic");
  EXPECT(call(&e, "element", 2, e.s, e.i),
         "error: the first argument to 'element' must be a list or tuple");
  EXPECT(call(&e, "element", 1, e.ls), "error: missing required parameter 'index'");

  EXPECT(call(&e, "entries", 1, e.ms), "list({ key: string, value: string })");
  EXPECT(call(&e, "entries", 1, e.ls), "list({ key: int, value: string })");
  EXPECT(call(&e, "entries", 1, e.mo), "output(list({ key: string, value: string }))");
  EXPECT(call(&e, "entries", 1, e.o), "list({ key: string, value: string })");
  EXPECT(call(&e, "entries", 1, e.s), "error: cannot iterate over a value of type string");
  EXPECT(call(&e, "entries", 0), "error: missing required parameter 'collection'");

  EXPECT(call(&e, "length", 1, e.ls), "int");
  EXPECT(call(&e, "length", 1, e.lo), "output(int)");
  EXPECT(call(&e, "length", 1, e.los), "output(int)");
  EXPECT(call(&e, "length", 1, e.s), "int");
  EXPECT(call(&e, "length", 1, e.os), "output(int)");
  EXPECT(call(&e, "length", 1, e.o), "int");
  EXPECT(call(&e, "length", 1, ty_optional(&e.ty, e.ls)), "int");
  EXPECT(call(&e, "length", 1, e.asset),
         "error: the first argument to 'length' must be a list, map, object, tuple, or string");
  EXPECT(call(&e, "length", 2, e.ls, e.ls), "error: too many arguments to call: expected 1, got 2");

  EXPECT(call(&e, "lookup", 2, e.ms, e.s), "string");
  EXPECT(call(&e, "lookup", 3, e.ms, e.s, e.s), "string");
  EXPECT(call(&e, "lookup", 2, e.o, e.s), "string");
  EXPECT(call(&e, "lookup", 2, e.mo, e.s), "output(string)");
  EXPECT(call(&e, "lookup", 2, e.ms, e.os), "output(string)");
  EXPECT(call(&e, "lookup", 2, e.ls, e.s), "error: the first argument to 'lookup' must be a map");
  EXPECT(call(&e, "lookup", 1, e.ms), "error: missing required parameter 'key'");

  EXPECT(call(&e, "singleOrNone", 1, e.ls), "string?");
  EXPECT(call(&e, "singleOrNone", 1, e.lo), "output(string?)");
  const ty *tc[3] = {e.c1, ty_const_int_si(&e.ty, 2), ty_const_int_si(&e.ty, 3)};
  EXPECT(call(&e, "singleOrNone", 1, ty_tuple(&e.ty, 3, tc)), "1?");
  EXPECT(call(&e, "singleOrNone", 1, ty_tuple(&e.ty, 0, NULL)), "dynamic?");
  EXPECT(call(&e, "singleOrNone", 1, e.s),
         "error: the first argument to 'singleOrNone' must be a list or tuple");
  EXPECT(call(&e, "singleOrNone", 2, e.ls, e.ls),
         "error: 'singleOrNone' only expects one argument");

  EXPECT(call(&e, "join", 2, e.s, e.ls), "string");
  EXPECT(call(&e, "join", 2, e.os, e.ls), "output(string)");
  EXPECT(call(&e, "join", 2, e.ps, e.ls), "promise(string)");
  EXPECT(call(&e, "join", 2, e.ps, e.lo), "output(string)");
  EXPECT(call(&e, "join", 2, e.s, e.los), "output(string)");
  EXPECT(call(&e, "join", 2, e.s, e.t), "string");
  EXPECT(call(&e, "join", 1, e.s), "error: missing required parameter 'strings'");
  EXPECT(call(&e, "join", 3, e.s, e.ls, e.s),
         "error: too many arguments to call: expected 2, got 3");
  EXPECT(call(&e, "join", 2, e.ls, e.ls), "error: cannot assign expression of type list(string) "
                                          "to location of type output(string) | string: ");

  EXPECT(call(&e, "split", 2, e.s, e.s), "list(string)");
  EXPECT(call(&e, "split", 2, e.s, e.os), "output(list(string))");

  EXPECT(call(&e, "range", 1, e.i), "list(int)");
  EXPECT(call(&e, "range", 2, e.c1, e.i), "list(int)");
  EXPECT(call(&e, "range", 1, e.oi), "output(list(int))");
  EXPECT(call(&e, "range", 0), "error: missing required parameter 'fromOrTo'");
  env_close(&e);
}

static void test_numbers_and_strings(void) {
  env e;
  env_open(&e);
  EXPECT(call(&e, "max", 2, e.i, e.i), "int");
  EXPECT(call(&e, "min", 2, e.i, e.n), "number");
  EXPECT(call(&e, "max", 2, e.c1, e.c25), "number"); /* DECISIONS.md D3, types.md row 49. */
  EXPECT(call(&e, "max", 2, e.c1, e.c1), "int");
  EXPECT(call(&e, "max", 2, e.oi, e.i), "output(int)");
  EXPECT(call(&e, "max", 3, e.i, e.i, e.i), "int");
  EXPECT(call(&e, "max", 1, e.ls),
         "error: cannot assign expression of type list(string) to location of type int | "
         "output(int): ");
  EXPECT(call(&e, "max", 0), "error: missing required parameter 'first'");
  /* f(xs...): tuples expand element-wise, lists to one element argument. */
  const ty *tn[2] = {e.i, e.n};
  EXPECT(call_expand(&e, "max", 1, ty_tuple(&e.ty, 2, tn)), "number");
  EXPECT(call_expand(&e, "max", 1, ty_list(&e.ty, e.i)), "int");
  EXPECT(call_expand(&e, "join", 2, e.s, ty_tuple(&e.ty, 1, &e.ls)), "string");
  EXPECT(call_expand(&e, "join", 1, ty_tuple(&e.ty, 2, (const ty *[]){e.s, e.ls})), "string");

  EXPECT(call(&e, "toJSON", 1, e.o), "string");
  EXPECT(call(&e, "toJSON", 1, e.los), "output(string)");
  EXPECT(call(&e, "toJSON", 1, ty_promise(&e.ty, e.o)), "output(string)");
  EXPECT(call(&e, "toJSON", 0), "error: 'toJSON' expects exactly one argument");
  EXPECT(call(&e, "toJSON", 2, e.s, e.s), "error: 'toJSON' expects exactly one argument");

  static const char *const strfns[] = {"toBase64", "fromBase64",       "sha1",    "readFile",
                                       "filebase64", "filebase64sha256", "mimeType"};
  for (size_t k = 0; k < ARRAY_LEN(strfns); k++) {
    EXPECT(call(&e, strfns[k], 1, e.s), "string");
    EXPECT(call(&e, strfns[k], 1, e.os), "output(string)");
    EXPECT(call(&e, strfns[k], 1, e.ps), "promise(string)");
    EXPECT(call(&e, strfns[k], 1, e.i), "string");
    EXPECT(call(&e, strfns[k], 1, e.ls), "error: cannot assign expression of type list(string) "
                                         "to location of type output(string) | string: ");
  }
  EXPECT(call(&e, "sha1", 0), "error: missing required parameter 'input'");
  EXPECT(call(&e, "readFile", 0), "error: missing required parameter 'path'");
  EXPECT(call(&e, "readDir", 1, e.s), "list(string)");
  EXPECT(call(&e, "readDir", 1, e.os), "output(list(string))");
  EXPECT(call(&e, "readDir", 2, e.s, e.s), "error: too many arguments to call: expected 1, got 2");
  env_close(&e);
}

static void test_assets_secrets_info(void) {
  env e;
  env_open(&e);
  EXPECT(call(&e, "fileAsset", 1, e.s), "Asset");
  EXPECT(call(&e, "stringAsset", 1, e.os), "output(Asset)");
  EXPECT(call(&e, "remoteAsset", 1, e.ps), "promise(Asset)");
  EXPECT(call(&e, "fileArchive", 1, e.s), "Archive");
  EXPECT(call(&e, "remoteArchive", 1, e.os), "output(Archive)");
  EXPECT(call(&e, "assetArchive", 1, ty_map(&e.ty, e.asset)), "Archive");
  ty_prop ap[1] = {{"a", ty_opaque(&e.ty, "Archive")}};
  EXPECT(call(&e, "assetArchive", 1, ty_object(&e.ty, 1, ap)), "Archive");
  EXPECT(call(&e, "assetArchive", 1, e.ms),
         "error: cannot assign expression of type map(string) to location of type map(Archive | "
         "Asset | output(Archive) | output(Asset) | output(Archive | Asset))...: ");

  EXPECT(call(&e, "secret", 1, e.s), "output(string)");
  EXPECT(call(&e, "secret", 1, e.os), "output(string)");
  EXPECT(call(&e, "secret", 1, e.los), "output(list(string))");
  EXPECT(call(&e, "unsecret", 1, e.ps), "output(string)");
  EXPECT(call(&e, "unsecret", 1, e.o), "output({ a: string, b: int })");
  EXPECT(call(&e, "secret", 0), "error: missing required parameter 'value'");

  EXPECT(call(&e, "getOutput", 2, e.d, e.s), "output(dynamic)");
  EXPECT(call(&e, "getOutput", 2, e.r, e.os), "output(dynamic)");
  EXPECT(call(&e, "getOutput", 1, e.r), "error: missing required parameter 'outputName'");
  /* resourceExists(type, id, state?) is always an output(bool). */
  EXPECT(call(&e, "resourceExists", 2, e.s, e.s), "output(bool)");
  EXPECT(call(&e, "resourceExists", 2, e.s, e.os), "output(bool)");
  EXPECT(call(&e, "resourceExists", 3, e.s, e.os, e.o), "output(bool)");
  EXPECT(call(&e, "resourceExists", 3, e.os, e.os, e.d), "output(bool)");
  EXPECT(call(&e, "resourceExists", 1, e.s), "error: missing required parameter 'id'");
  EXPECT(call(&e, "resourceExists", 4, e.s, e.s, e.d, e.d),
         "error: too many arguments to call: expected 3, got 4");
  EXPECT(call(&e, "resourceExists", 2, e.s, e.ls),
         "error: cannot assign expression of type list(string) to location of type "
         "output(string): ");
  EXPECT(call(&e, "notImplemented", 1, e.s), "dynamic");
  EXPECT(call(&e, "notImplemented", 1, e.os), "dynamic");

  static const char *const info[] = {"stack", "project", "organization", "cwd", "rootDirectory"};
  for (size_t k = 0; k < ARRAY_LEN(info); k++) {
    EXPECT(call(&e, info[k], 0), "string");
    EXPECT(call(&e, info[k], 1, e.s), "error: too many arguments to call: expected 0, got 1");
  }
  EXPECT(call(&e, "pulumiResourceType", 1, e.r), "string");
  EXPECT(call(&e, "pulumiResourceName", 1, e.r), "string");
  EXPECT(call(&e, "pulumiResourceName", 1, e.d), "string");
  EXPECT(call(&e, "pulumiResourceName", 1, e.lr),
         "error: pulumiResourceName argument must be a single resource");
  EXPECT(call(&e, "pulumiResourceType", 0),
         "error: pulumiResourceType expects exactly one argument");
  env_close(&e);
}

static void test_special_forms(void) {
  env e;
  env_open(&e);
  ty_ctx *c = &e.ty;
  EXPECT(call(&e, "try", 3, e.c1, ty_const_int_si(c, 2), ty_const_int_si(c, 3)), "1 | 2 | 3");
  EXPECT(call(&e, "try", 2, e.os, e.s), "output(string)");
  EXPECT(call(&e, "try", 3, e.c1, e.c1, ty_output(c, ty_const_int_si(c, 3))), "output(1 | 3)");
  EXPECT(call(&e, "try", 2, e.c1, e.d), "output(dynamic)");
  EXPECT(call(&e, "try", 1, e.s), "string");
  EXPECT(call(&e, "try", 0), "error: 'try' expects at least one argument");

  EXPECT(call(&e, "can", 1, e.o), "bool");
  EXPECT(call(&e, "can", 1, e.los), "bool");
  EXPECT(call(&e, "can", 1, e.d), "output(bool)");
  EXPECT(call(&e, "can", 1, e.os), "output(bool)");
  EXPECT(call(&e, "can", 1, ty_optional(c, e.os)), "output(bool)");
  EXPECT(call(&e, "can", 0), "error: 'can' expects exactly one argument");
  EXPECT(call(&e, "can", 2, e.s, e.s), "error: 'can' expects exactly one argument");

  EXPECT(call(&e, "recover", 2, e.os, e.s), "output(string)");
  EXPECT(call(&e, "recover", 2, e.oi, e.n), "output(number)");
  EXPECT(call(&e, "recover", 2, e.s, e.s),
         "error: the first argument to 'recover' must be an output");
  EXPECT(call(&e, "recover", 1, e.os), "error: 'recover' expects exactly two arguments");
  env_close(&e);
}

/* Diagnostics point at the argument or at the call, as the reference does. */
static void test_locations(void) {
  env e;
  env_open(&e);
  const funcs_builtin *fn = funcs_lookup("join");
  const ty *args[3] = {e.ls, e.ls, e.s};
  pcl_span spans[3] = {{0, 2, 3}, {0, 5, 6}, {0, 8, 9}};
  funcs_call bad_arg = {2, args, spans, {0, 0, 13}, false, NULL};
  CU_ASSERT_PTR_NULL(funcs_check_call(&e.ty, &e.diags, fn, &bad_arg));
  CU_ASSERT_PTR_NOT_NULL_FATAL(e.diags.head);
  CU_ASSERT_EQUAL(e.diags.head->span.start, 2);
  funcs_call too_many = {3, (const ty *[]){e.s, e.ls, e.s}, spans, {0, 0, 13}, false, NULL};
  CU_ASSERT_PTR_NULL(funcs_check_call(&e.ty, &e.diags, fn, &too_many));
  CU_ASSERT_PTR_NOT_NULL_FATAL(e.diags.tail);
  CU_ASSERT_EQUAL(e.diags.tail->span.start, 8);
  funcs_call missing = {1, (const ty *[]){e.s}, spans, {0, 0, 13}, false, NULL};
  CU_ASSERT_PTR_NULL(funcs_check_call(&e.ty, &e.diags, fn, &missing));
  CU_ASSERT_EQUAL(e.diags.tail->span.start, 0);
  CU_ASSERT_EQUAL(e.diags.tail->span.end, 13);
  CU_ASSERT_EQUAL(e.diags.errors, 3);
  env_close(&e);
}

/* Inside try or can (diag_list.catching), an argument the function rejects
   whatever its value is a warning carrying the catcher's note, remembered
   for diag_take_caught; a wrong number of arguments stays an error. */
static void test_caught_failures(void) {
  env e;
  env_open(&e);
  diag_catch catcher = {{0, 0, 1}, "caught here", NULL};
  e.diags.catching = &catcher;
  pcl_span spans[2] = {{0, 2, 3}, {0, 5, 6}};
  funcs_call kind = {2, (const ty *[]){e.n, e.i}, spans, {0, 0, 13}, false, NULL};
  CU_ASSERT_PTR_NULL(funcs_check_call(&e.ty, &e.diags, funcs_lookup("element"), &kind));
  CU_ASSERT_EQUAL(e.diags.errors, 0);
  CU_ASSERT_EQUAL(e.diags.warnings, 1);
  const diag *g = diag_take_caught(&e.diags);
  CU_ASSERT_PTR_NOT_NULL_FATAL(g);
  CU_ASSERT_EQUAL(g->severity, DIAG_WARNING);
  CU_ASSERT_STRING_EQUAL(g->message, "the first argument to 'element' must be a list or tuple");
  CU_ASSERT_EQUAL(g->span.start, 2);
  CU_ASSERT_PTR_NOT_NULL_FATAL(g->notes);
  CU_ASSERT_STRING_EQUAL(g->notes->message, "caught here");
  CU_ASSERT_PTR_NULL(diag_take_caught(&e.diags));
  /* Two failures: the first one is the expression's. */
  funcs_call conv = {2, (const ty *[]){e.o, e.o}, spans, {0, 0, 13}, false, NULL};
  CU_ASSERT_PTR_NULL(funcs_check_call(&e.ty, &e.diags, funcs_lookup("join"), &conv));
  g = diag_take_caught(&e.diags);
  CU_ASSERT_PTR_NOT_NULL_FATAL(g);
  CU_ASSERT_EQUAL(g->span.start, 2);
  CU_ASSERT_EQUAL(e.diags.warnings, 3);
  funcs_call arity = {1, (const ty *[]){e.ls}, spans, {0, 0, 13}, false, NULL};
  CU_ASSERT_PTR_NULL(funcs_check_call(&e.ty, &e.diags, funcs_lookup("element"), &arity));
  CU_ASSERT_EQUAL(e.diags.errors, 1);
  CU_ASSERT_PTR_NULL(diag_take_caught(&e.diags));
  /* Without a catcher the same failure is an error. */
  e.diags.catching = NULL;
  CU_ASSERT_PTR_NULL(funcs_check_call(&e.ty, &e.diags, funcs_lookup("element"), &kind));
  CU_ASSERT_EQUAL(e.diags.errors, 2);
  CU_ASSERT_PTR_NULL(diag_take_caught(&e.diags));
  env_close(&e);
}

/* The parameter type of each written argument is reported to the caller,
   except for an expanded final argument. */
static void test_parameter_types(void) {
  env e;
  env_open(&e);
  const ty *got[3] = {e.s, e.s, e.s};
  funcs_call range = {2, (const ty *[]){e.c25, e.c1}, (pcl_span[]){{0, 2, 3}, {0, 5, 6}},
                      {0, 0, 13}, false, got};
  CU_ASSERT_PTR_NOT_NULL(funcs_check_call(&e.ty, &e.diags, funcs_lookup("range"), &range));
  CU_ASSERT_PTR_EQUAL(got[0], e.i);
  CU_ASSERT_PTR_EQUAL(got[1], ty_optional(&e.ty, e.i));
  const ty *ints = ty_list(&e.ty, e.i);
  funcs_call spread = {2, (const ty *[]){e.i, ints}, (pcl_span[]){{0, 2, 3}, {0, 5, 6}},
                       {0, 0, 13}, true, got};
  CU_ASSERT_PTR_NOT_NULL(funcs_check_call(&e.ty, &e.diags, funcs_lookup("max"), &spread));
  CU_ASSERT_PTR_EQUAL(got[0], e.i);
  CU_ASSERT_PTR_NULL(got[1]);
  funcs_call special = {1, (const ty *[]){e.s}, (pcl_span[]){{0, 2, 3}}, {0, 0, 13}, false, got};
  CU_ASSERT_PTR_NOT_NULL(funcs_check_call(&e.ty, &e.diags, funcs_lookup("can"), &special));
  CU_ASSERT_PTR_NULL(got[0]);
  CU_ASSERT_EQUAL(e.diags.errors, 0);
  env_close(&e);
}

void register_funcs_tests(void);
void register_funcs_tests(void) {
  CU_pSuite s = CU_add_suite("funcs", NULL, NULL);
  CU_add_test(s, "table", test_table);
  CU_add_test(s, "collections", test_collections);
  CU_add_test(s, "numbers and strings", test_numbers_and_strings);
  CU_add_test(s, "assets, secrets, stack information", test_assets_secrets_info);
  CU_add_test(s, "special forms", test_special_forms);
  CU_add_test(s, "locations", test_locations);
  CU_add_test(s, "failures caught inside try or can", test_caught_failures);
  CU_add_test(s, "parameter types of arguments", test_parameter_types);
}
