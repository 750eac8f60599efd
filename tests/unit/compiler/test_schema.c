/* Unit tests of the schema module: every schema of the conformance and
 * program corpora loads and maps cleanly (except the deliberately broken
 * ones, whose diagnostics are checked), token resolution (index elision,
 * module formats, aliases, providers, the built-in pulumi package), the
 * mapping of schema types to ty types, recursive types, version selection,
 * and precise diagnostics for malformed schema files written to a temporary
 * folder.  Tests run from the repository root, so the corpora are found at
 * ../shared. */
#include <CUnit/CUnit.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "schema/schema.h"
#include "base/stack.h"
#include "base/util.h"

#define PROVIDERS "../shared/conformance/providers"
#define PROGRAM_SCHEMAS "../shared/programs/_schemas"

/* One compilation's worth of state around a schema set. */
typedef struct fixture {
  arena arena;
  intern_table names;
  src_set src;
  diag_list diags;
  ty_ctx ty;
  schema_set *s;
} fixture;

static void fx_open(fixture *f) {
  arena_init(&f->arena);
  intern_init(&f->names, &f->arena);
  src_init(&f->src);
  diag_init(&f->diags, &f->src);
  ty_ctx_init(&f->ty, &f->arena, &f->names);
  f->s = schema_set_new(&f->ty, &f->arena, &f->names, &f->diags);
}

static void fx_close(fixture *f) {
  schema_set_free(f->s);
  ty_ctx_free(&f->ty);
  diag_free(&f->diags);
  src_free(&f->src);
  intern_free(&f->names);
  arena_free(&f->arena);
}

/* Returns every diagnostic as "file:line:col: message" (or just the message
 * when it has no location), one per line, in an arena string. */
static const char *diags_text(fixture *f) {
  const char *out = "";
  for (diag *g = f->diags.head; g; g = g->next) {
    const char *sev = g->severity == DIAG_ERROR ? "error" : "warning";
    if (g->has_span) {
      src_file *file = src_get(&f->src, g->span.file);
      src_pos pos = src_position(&f->src, g->span.file, g->span.start);
      const char *base = strrchr(file->path, '/');
      out = arena_printf(&f->arena, "%s%s:%zu:%zu: %s: %s\n", out, base ? base + 1 : file->path,
                         pos.line, pos.column, sev, g->message);
    } else {
      out = arena_printf(&f->arena, "%s%s: %s\n", out, sev, g->message);
    }
  }
  return out;
}

static const pcl_span nowhere = {0, 0, 0};

/* Asserts that two strings are equal, printing the actual one otherwise. */
#define EXPECT_STR(actual, expected)                                                               \
  do {                                                                                             \
    const char *got_ = (actual);                                                                   \
    if (strcmp(got_, (expected)) != 0)                                                             \
      fprintf(stderr, "\n%s:%d: got:\n%s\n", __FILE__, __LINE__, got_);                            \
    CU_ASSERT_STRING_EQUAL(got_, (expected));                                                      \
  } while (0)

/* Returns the pretty form of t. */
static const char *pretty(fixture *f, const ty *t) {
  return ty_pretty(&f->ty, t);
}

/* Resolves a resource token that must be found without diagnostics. */
static schema_resource *must_resource(fixture *f, const char *token) {
  schema_resource *r = NULL;
  schema_status st = schema_find_resource(f->s, token, NULL, nowhere, &r);
  CU_ASSERT_EQUAL(st, SCHEMA_FOUND);
  CU_ASSERT_PTR_NOT_NULL(r);
  CU_ASSERT_STRING_EQUAL(diags_text(f), "");
  return r;
}

/* Resolves a function token that must be found without diagnostics. */
static schema_function *must_function(fixture *f, const char *token) {
  schema_function *fn = NULL;
  schema_status st = schema_find_function(f->s, token, NULL, nowhere, &fn);
  CU_ASSERT_EQUAL(st, SCHEMA_FOUND);
  CU_ASSERT_PTR_NOT_NULL(fn);
  CU_ASSERT_STRING_EQUAL(diags_text(f), "");
  return fn;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Lists the *.json files of dir, sorted; the caller frees them. */
static size_t list_json(const char *dir, char ***out) {
  DIR *d = opendir(dir);
  CU_ASSERT_PTR_NOT_NULL_FATAL(d);
  char **names = NULL;
  size_t n = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t len = strlen(e->d_name);
    if (len > 5 && strcmp(e->d_name + len - 5, ".json") == 0) {
      names = xrealloc(names, (n + 1) * sizeof *names);
      names[n++] = xstrdup(e->d_name);
    }
  }
  closedir(d);
  qsort(names, n, sizeof *names, cmp_str);
  *out = names;
  return n;
}

/* Writes text to dir/name. */
static void write_file(const char *dir, const char *name, const char *text) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *fp = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
  fputs(text, fp);
  fclose(fp);
}

/* Creates an empty temporary folder; returns its path (static storage). */
static const char *make_temp_dir(void) {
  static char dir[512];
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, sizeof dir, "%s/pclc-schema-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
  return dir;
}

/* Removes the temporary folder and the files (and empty folders) in it. */
static void remove_temp_dir(const char *dir) {
  DIR *d = opendir(dir);
  if (!d)
    return;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
      continue;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    if (unlink(path) != 0)
      rmdir(path);
  }
  closedir(d);
  rmdir(dir);
}

/* Loads and fully checks every schema of dir in a fresh set whose search
 * path holds both corpora (for cross-package $refs).  Files listed in
 * expect_bad must fail with exactly the given diagnostics; all others must
 * load without any.  Returns the number of files loaded. */
static size_t check_corpus(const char *dir, const char *const *bad, const char *const *bad_text,
                           size_t nbad) {
  char **names;
  size_t n = list_json(dir, &names);
  for (size_t i = 0; i < n; i++) {
    fixture f;
    fx_open(&f);
    schema_add_path(f.s, PROVIDERS);
    schema_add_path(f.s, PROGRAM_SCHEMAS);
    char *path = arena_printf(&f.arena, "%s/%s", dir, names[i]);
    schema_package *p = schema_load_file(f.s, path);
    CU_ASSERT_PTR_NOT_NULL(p);
    bool ok = p && schema_package_check(f.s, p);
    const char *want = "";
    for (size_t j = 0; j < nbad; j++) {
      if (strcmp(names[i], bad[j]) == 0)
        want = bad_text[j];
    }
    if (strcmp(diags_text(&f), want) != 0)
      fprintf(stderr, "\n%s:\n%s", names[i], diags_text(&f));
    CU_ASSERT_STRING_EQUAL(diags_text(&f), want);
    CU_ASSERT_EQUAL(ok, *want == 0);
    fx_close(&f);
    free(names[i]);
  }
  free(names);
  return n;
}

static void test_conformance_providers(void) {
  static const char *const bad[] = {"bad-3.0.0.json"};
  static const char *const text[] = {
      "bad-3.0.0.json:17:9: error: unknown type 'not a type' for 'value'\n"
      "bad-3.0.0.json:8:9: error: unknown type 'not a type' for 'value'\n"};
  size_t n = check_corpus(PROVIDERS, bad, text, 1);
  CU_ASSERT(n >= 60);
}

static void test_program_schemas(void) {
  static const char *const bad[] = {"dangling-reference-bad-0.1.0.json", "localref-1.0.0.json"};
  static const char *const text[] = {
      "dangling-reference-bad-0.1.0.json:6:17: error: invalid $ref "
      "'#/types/dangling-reference:a:b': package 'dangling-reference' defines no type "
      "'dangling-reference:a:b'\n",
      "localref-1.0.0.json:34:19: error: invalid $ref '#/types/localref:index/Index:Overlay': "
      "package 'localref' defines no type 'localref:index/Index:Overlay'\n"};
  size_t n = check_corpus(PROGRAM_SCHEMAS, bad, text, 2);
  CU_ASSERT(n >= 20);
}

/* Every written token resolves to the expected schema token. */
static void test_token_resolution(void) {
  fixture f;
  fx_open(&f);
  schema_add_path(f.s, PROVIDERS);
  schema_add_path(f.s, PROGRAM_SCHEMAS);
  static const char *const vectors[][2] = {
      {"simple:index:Resource", "simple:index:Resource"},
      {"simple:Resource", "simple:index:Resource"},
      {"simple::Resource", "simple:index:Resource"},
      /* module-format's rule is (.*)(?:_[^_]*): l2-module-format's tokens. */
      {"module-format:mod_Resource:Resource", "module-format:mod_Resource:Resource"},
      {"module-format:mod:Resource", "module-format:mod_Resource:Resource"},
      {"module-format:mod/nested_Resource:Resource", "module-format:mod/nested_Resource:Resource"},
      {"module-format:mod/nested:Resource", "module-format:mod/nested_Resource:Resource"},
      {"module-format:index_Resource:Resource", "module-format:index_Resource:Resource"},
      {"module-format:index:Resource", "module-format:index_Resource:Resource"},
      {"module-format:Resource", "module-format:index_Resource:Resource"},
      /* The tfbridge rule (.*)(?:/[^/]*), as aws and random use it. */
      {"random:index:RandomPet", "random:index/randomPet:RandomPet"},
      {"random:RandomPet", "random:index/randomPet:RandomPet"},
      {"random:index/randomPet:RandomPet", "random:index/randomPet:RandomPet"},
      /* Aliases, in both spellings of the schema. */
      {"aliases:index:OldFirst", "aliases:index:First"},
      {"aliases:OldSecond", "aliases:index:Second"},
      /* Providers and the built-in pulumi package. */
      {"pulumi:providers:simple", "pulumi:providers:simple"},
      {"pulumi:providers:config-grpc", "pulumi:providers:config-grpc"},
      {"pulumi:pulumi:StackReference", "pulumi:pulumi:StackReference"},
      {"pulumi:Stash", "pulumi:index:Stash"},
  };
  for (size_t i = 0; i < ARRAY_LEN(vectors); i++) {
    schema_resource *r = must_resource(&f, vectors[i][0]);
    if (r)
      CU_ASSERT_STRING_EQUAL(r->token, vectors[i][1]);
  }
  /* File names with prerelease and build metadata in the version. */
  schema_package *alpha = schema_find_package(f.s, "alpha", NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(alpha);
  CU_ASSERT_STRING_EQUAL(alpha->version, "3.0.0-alpha.1.internal+exp.sha.12345678");
  CU_ASSERT_PTR_EQUAL(schema_find_package(f.s, "alpha", "3.0.0-alpha.1.internal"), alpha);
  schema_resource *p = must_resource(&f, "pulumi:providers:simple");
  CU_ASSERT(p->is_provider);
  CU_ASSERT_STRING_EQUAL(schema_token_package(f.s, "pulumi:providers:simple"), "simple");
  CU_ASSERT_STRING_EQUAL(schema_token_package(f.s, "aws:s3/bucket:Bucket"), "aws");
  CU_ASSERT_PTR_NULL(schema_token_package(f.s, "nocolon"));

  static const char *const fns[][2] = {
      {"module-format:mod:concatWorld", "module-format:mod_concatWorld:concatWorld"},
      {"module-format:concatWorld", "module-format:index_concatWorld:concatWorld"},
      {"simple-invoke:myInvoke", "simple-invoke:index:myInvoke"},
      {"random:index/getRandomPet:getRandomPet", NULL},
  };
  for (size_t i = 0; i < ARRAY_LEN(fns); i++) {
    if (!fns[i][1])
      continue;
    schema_function *fn = must_function(&f, fns[i][0]);
    if (fn)
      CU_ASSERT_STRING_EQUAL(fn->token, fns[i][1]);
  }

  /* Splitting. */
  const char *pkg, *mod, *mem;
  CU_ASSERT(schema_split_token(f.s, "a:b/c:D", &pkg, &mod, &mem));
  CU_ASSERT_STRING_EQUAL(pkg, "a");
  CU_ASSERT_STRING_EQUAL(mod, "b/c");
  CU_ASSERT_STRING_EQUAL(mem, "D");
  CU_ASSERT(schema_split_token(f.s, "a:D", &pkg, &mod, &mem));
  CU_ASSERT_STRING_EQUAL(mod, "index");
  CU_ASSERT(schema_split_token(f.s, "a::D", &pkg, &mod, &mem));
  CU_ASSERT_STRING_EQUAL(mod, "index");
  static const char *const malformed[] = {"nocolon", "a:b:c:d", ":x", "x:", "x:y:", ""};
  for (size_t i = 0; i < ARRAY_LEN(malformed); i++)
    CU_ASSERT_FALSE(schema_split_token(f.s, malformed[i], NULL, NULL, NULL));
  fx_close(&f);
}

/* Unknown tokens and packages: precise errors, or "no package" silently. */
static void test_token_errors(void) {
  fixture f;
  fx_open(&f);
  schema_add_path(f.s, PROVIDERS);
  uint32_t id = src_add(&f.src, "main.pp", "resource x \"a:b:c:d\" {}\n", 24);
  pcl_span where = {id, 12, 21};
  schema_resource *r = NULL;
  schema_function *fn = NULL;
  CU_ASSERT_EQUAL(schema_find_resource(f.s, "a:b:c:d", NULL, where, &r), SCHEMA_ERROR);
  CU_ASSERT_EQUAL(schema_find_resource(f.s, "simple:index:Nope", NULL, where, &r), SCHEMA_ERROR);
  CU_ASSERT_EQUAL(schema_find_resource(f.s, "simple:other:Resource", NULL, where, &r),
                  SCHEMA_ERROR);
  CU_ASSERT_EQUAL(schema_find_function(f.s, "simple-invoke:index:nope", NULL, where, &fn),
                  SCHEMA_ERROR);
  CU_ASSERT_EQUAL(schema_find_function(f.s, "noSuchFunction", NULL, where, &fn), SCHEMA_ERROR);
  /* A resource token is not a function token and vice versa. */
  CU_ASSERT_EQUAL(schema_find_function(f.s, "simple:index:Resource", NULL, where, &fn),
                  SCHEMA_ERROR);
  EXPECT_STR(
      diags_text(&f),
      "main.pp:1:13: error: malformed token 'a:b:c:d': expected 'pkg:module:member' or "
      "'pkg:member'\n"
      "main.pp:1:13: error: unknown resource type 'simple:index:Nope'\n"
      "main.pp:1:13: error: unknown resource type 'simple:other:Resource'\n"
      "main.pp:1:13: error: unknown function 'simple-invoke:index:nope'\n"
      "main.pp:1:13: error: malformed token 'noSuchFunction': expected 'pkg:module:member' or "
      "'pkg:member'\n"
      "main.pp:1:13: error: unknown function 'simple:index:Resource'\n");
  CU_ASSERT_PTR_NULL(r);
  CU_ASSERT_PTR_NULL(fn);
  size_t errors = f.diags.errors;
  /* No schema for the package: the caller decides; nothing is reported. */
  CU_ASSERT_EQUAL(schema_find_resource(f.s, "aws:s3:Bucket", NULL, where, &r), SCHEMA_NO_PACKAGE);
  CU_ASSERT_EQUAL(schema_find_function(f.s, "aws:index:getAmi", NULL, where, &fn),
                  SCHEMA_NO_PACKAGE);
  CU_ASSERT_EQUAL(schema_find_resource(f.s, "pulumi:providers:aws", NULL, where, &r),
                  SCHEMA_NO_PACKAGE);
  CU_ASSERT_PTR_NULL(schema_find_package(f.s, "aws", NULL));
  CU_ASSERT_EQUAL(f.diags.errors, errors);
  CU_ASSERT_EQUAL(f.diags.warnings, 0);
  fx_close(&f);
}

/* Resource and function types, pretty-printed. */
static void test_type_mapping(void) {
  fixture f;
  fx_open(&f);
  schema_add_path(f.s, PROVIDERS);
  schema_add_path(f.s, PROGRAM_SCHEMAS);
  schema_resource *r = must_resource(&f, "simple:index:Resource");
  EXPECT_STR(pretty(&f, schema_resource_input_type(f.s, r)), "{ value: bool | output(bool) }");
  EXPECT_STR(pretty(&f, schema_resource_output_type(f.s, r)),
             "{ id: output(id), urn: output(string), value: output(bool) }");
  CU_ASSERT_PTR_EQUAL(schema_resource_of_type(f.s, schema_resource_output_type(f.s, r)), r);
  CU_ASSERT_PTR_NULL(schema_resource_of_type(f.s, ty_string(&f.ty)));
  CU_ASSERT_EQUAL(r->ninputs, 1);
  CU_ASSERT(r->inputs[0].required);
  CU_ASSERT_EQUAL(r->inputs[0].type->kind, SCHEMA_T_BOOL);

  r = must_resource(&f, "primitive:index:Resource");
  EXPECT_STR(pretty(&f, schema_resource_input_type(f.s, r)),
             "{ boolean: bool | output(bool), booleanMap: map(bool | output(bool)) | "
             "output(map(bool)), float: number | output(number), integer: int | output(int), "
             "numberArray: list(number | output(number)) | output(list(number)), string: "
             "output(string) | string }");
  EXPECT_STR(pretty(&f, schema_resource_output_type(f.s, r)),
             "{ boolean: output(bool), booleanMap: output(map(bool)), float: "
             "output(number), id: output(id), integer: output(int), numberArray: "
             "output(list(number)), string: output(string), urn: output(string) }");

  /* Optional inputs and outputs, stateInputs for `read`, elided index. */
  r = must_resource(&f, "random:RandomPet");
  EXPECT_STR(pretty(&f, schema_resource_output_type(f.s, r)),
             "{ id: output(id), keepers: output(map(string)?), length: output(int), "
             "prefix: output(string?), separator: output(string), urn: "
             "output(string) }");
  r = must_resource(&f, "read:index:Resource");
  EXPECT_STR(pretty(&f, schema_resource_read_type(f.s, r)),
             "{ id: output(string) | string, lookup: (output(string) | string)? }");

  /* Enums keep their values; inputs accept outputs of them. */
  r = must_resource(&f, "enum:index:Res");
  EXPECT_STR(pretty(&f, schema_resource_input_type(f.s, r)),
             "{ intEnum: (enum(1 | 2) | output(enum(1 | 2)))?, stringEnum: "
             "(enum(\"one\" | \"two\") | output(enum(\"one\" | \"two\")))? }");

  /* Assets accept archives. */
  r = must_resource(&f, "asset-archive:index:AssetResource");
  EXPECT_STR(pretty(&f, schema_resource_input_type(f.s, r)),
             "{ value: Archive | Asset | output(Archive | Asset) }");

  /* Plain properties are never input-shaped. */
  r = must_resource(&f, "plain:index:Resource");
  schema_property *data = schema_property_find(r->inputs, r->ninputs, "data");
  CU_ASSERT_PTR_NOT_NULL_FATAL(data);
  CU_ASSERT(data->plain);
  CU_ASSERT_FALSE(ty_contains_eventuals(schema_property_type(f.s, data, true), NULL, NULL));

  /* Resource references have the type of a reference to the resource, so
     that a resource converts to them (l2-component-property-deps). */
  r = must_resource(&f, "component:index:ComponentCustomRefInputOutput");
  CU_ASSERT(r->is_component);
  EXPECT_STR(pretty(&f, schema_resource_input_type(f.s, r)),
             "{ inputRef: { id: output(id), urn: output(string), value: output(string) } | "
             "output({ id: id, urn: string, value: string }) }");
  schema_resource *custom = must_resource(&f, "component:index:Custom");
  const ty *ref_in = ty_object_get(schema_resource_input_type(f.s, r), "inputRef");
  CU_ASSERT_EQUAL(ty_conversion(&f.ty, ref_in, schema_resource_output_type(f.s, custom)),
                  TY_CONV_SAFE);
  CU_ASSERT_EQUAL(
      ty_conversion(&f.ty, ref_in, ty_output(&f.ty, schema_resource_output_type(f.s, custom))),
      TY_CONV_SAFE);
  CU_ASSERT_EQUAL(ty_conversion(&f.ty, ref_in, ty_string(&f.ty)), TY_CONV_NONE);
  /* Across packages, through a $ref of the form /<pkg>/v<version>/schema.json. */
  r = must_resource(&f, "remoteref:index:Root");
  EXPECT_STR(pretty(&f, schema_resource_output_type(f.s, r)),
             "{ config: output({ service: string? }?), id: output(id), res: "
             "output({ enabled: bool, id: id, name: string, urn: string }), urn: output(string) }");

  /* The built-in pulumi package. */
  r = must_resource(&f, "pulumi:pulumi:StackReference");
  EXPECT_STR(pretty(&f, schema_resource_output_type(f.s, r)),
             "{ id: output(id), name: output(string), outputs: "
             "output(map(dynamic)), secretOutputNames: output(list(string)), urn: "
             "output(string) }");

  /* Functions: object, array, map and scalar returns; plain and output forms. */
  schema_function *fn = must_function(&f, "scalar-returns:index:invokeArray");
  EXPECT_STR(pretty(&f, schema_function_return_type(f.s, fn)), "list(bool)");
  EXPECT_STR(pretty(&f, schema_function_args_type(f.s, fn, false)), "{ value: string }");
  EXPECT_STR(pretty(&f, schema_function_args_type(f.s, fn, true)),
             "{ value: output(string) | string }");
  fn = must_function(&f, "scalar-returns:invokeMap");
  EXPECT_STR(pretty(&f, schema_function_return_type(f.s, fn)), "map(string)");
  fn = must_function(&f, "scalar-returns:index:invokeSecret");
  EXPECT_STR(pretty(&f, schema_function_return_type(f.s, fn)), "number");
  CU_ASSERT(fn->has_return);
  CU_ASSERT_FALSE(fn->returns_object);
  fn = must_function(&f, "simple-invoke:index:myInvoke");
  CU_ASSERT(fn->returns_object);
  EXPECT_STR(pretty(&f, schema_function_return_type(f.s, fn)), "{ result: string }");

  /* Multi-argument inputs keep their order. */
  fn = must_function(&f, "multi-argument-invoke:index:multiArgumentInvoke");
  CU_ASSERT_EQUAL_FATAL(fn->nmulti_args, 2);
  CU_ASSERT_STRING_EQUAL(fn->multi_args[0], "first");
  CU_ASSERT_STRING_EQUAL(fn->multi_args[1], "second");
  EXPECT_STR(pretty(&f, schema_function_args_type(f.s, fn, false)),
             "{ first: string, second: string? }");

  /* Methods: the implementing function, its __self__ left out of the args. */
  r = must_resource(&f, "component:index:ComponentCallable");
  CU_ASSERT_EQUAL(r->nmethods, 2);
  fn = schema_resource_method(f.s, r, "prefixed");
  CU_ASSERT_PTR_NOT_NULL_FATAL(fn);
  CU_ASSERT(fn->is_method);
  CU_ASSERT_STRING_EQUAL(fn->token, "component:index:ComponentCallable/prefixed");
  EXPECT_STR(pretty(&f, schema_function_args_type(f.s, fn, true)),
             "{ prefix: output(string) | string }");
  fn = schema_resource_method(f.s, r, "identity");
  CU_ASSERT_PTR_NOT_NULL_FATAL(fn);
  EXPECT_STR(pretty(&f, schema_function_args_type(f.s, fn, true)), "{}?");
  CU_ASSERT_PTR_NULL(schema_resource_method(f.s, r, "nope"));
  CU_ASSERT_STRING_EQUAL(diags_text(&f), "");
  fx_close(&f);
}

/* Secret, const, default and replaceOnChanges properties. */
static void test_property_flags(void) {
  fixture f;
  fx_open(&f);
  schema_add_path(f.s, PROVIDERS);
  schema_resource *r = must_resource(&f, "secret:index:Resource");
  size_t secrets = 0;
  for (size_t i = 0; i < r->ninputs; i++)
    secrets += r->inputs[i].secret;
  CU_ASSERT(secrets > 0);
  r = must_resource(&f, "replaceonchanges:index:ResourceA");
  size_t replace = 0;
  for (size_t i = 0; i < r->noutputs; i++)
    replace += r->outputs[i].replace_on_changes;
  CU_ASSERT(replace > 0);
  r = must_resource(&f, "primitive-defaults:index:Resource");
  schema_property *b = schema_property_find(r->inputs, r->ninputs, "boolean");
  CU_ASSERT_PTR_NOT_NULL_FATAL(b);
  CU_ASSERT_PTR_NOT_NULL_FATAL(b->default_value);
  CU_ASSERT_EQUAL(b->default_value->kind, TY_CONST);
  CU_ASSERT_FALSE(b->required);
  static const char *const defaults[][2] = {
      {"boolean", "false"}, {"float", "0.5"}, {"integer", "1"}, {"string", "\"default\""}};
  for (size_t i = 0; i < ARRAY_LEN(defaults); i++) {
    schema_property *q = schema_property_find(r->inputs, r->ninputs, defaults[i][0]);
    CU_ASSERT_PTR_NOT_NULL_FATAL(q);
    CU_ASSERT_PTR_NOT_NULL_FATAL(q->default_value);
    EXPECT_STR(pretty(&f, q->default_value), defaults[i][1]);
  }
  /* Constants become const types, so a const property accepts its value only. */
  r = must_resource(&f, "constant:index:Resource");
  schema_property *kind = schema_property_find(r->inputs, r->ninputs, "kind");
  CU_ASSERT_PTR_NOT_NULL_FATAL(kind);
  CU_ASSERT_PTR_NOT_NULL_FATAL(kind->const_value);
  EXPECT_STR(pretty(&f, schema_property_type(f.s, kind, true)), "\"Constant\"");
  CU_ASSERT_STRING_EQUAL(diags_text(&f), "");
  fx_close(&f);
}

/* Discriminated unions select an alternative by the discriminator value. */
static void test_discriminated_unions(void) {
  fixture f;
  fx_open(&f);
  schema_add_path(f.s, PROVIDERS);
  schema_resource *r = must_resource(&f, "discriminated-union:Example");
  schema_property *u = schema_property_find(r->inputs, r->ninputs, "unionOf");
  CU_ASSERT_PTR_NOT_NULL_FATAL(u);
  CU_ASSERT_EQUAL_FATAL(u->type->kind, SCHEMA_T_UNION);
  CU_ASSERT_STRING_EQUAL(u->type->discriminator, "discriminantKind");
  CU_ASSERT_EQUAL(u->type->nmapping, 2);
  const schema_type *v2 = schema_union_select(f.s, u->type, "variant2");
  CU_ASSERT_PTR_NOT_NULL_FATAL(v2);
  CU_ASSERT_STRING_EQUAL(v2->token, "discriminated-union:index:VariantTwo");
  EXPECT_STR(pretty(&f, schema_type_to_ty(f.s, v2, false)),
             "{ discriminantKind: \"variant2\", field2: string? }");
  CU_ASSERT_PTR_NULL(schema_union_select(f.s, u->type, "variant3"));
  schema_property *list = schema_property_find(r->inputs, r->ninputs, "arrayOfUnionOf");
  CU_ASSERT_PTR_NOT_NULL_FATAL(list);
  const schema_type *v1 = schema_union_select(f.s, list->type->elem, "variant1");
  CU_ASSERT_PTR_NOT_NULL_FATAL(v1);
  CU_ASSERT_STRING_EQUAL(v1->token, "discriminated-union:index:VariantOne");
  /* Not a discriminated union. */
  CU_ASSERT_PTR_NULL(schema_union_select(f.s, list->type, "variant1"));
  CU_ASSERT_STRING_EQUAL(diags_text(&f), "");
  fx_close(&f);

  /* Without a mapping, the constant of the discriminator property decides. */
  const char *dir = make_temp_dir();
  write_file(dir, "du.json",
             "{\"name\": \"du\", \"types\": {"
             "\"du:index:A\": {\"type\": \"object\", \"properties\": {\"kind\": {\"type\": "
             "\"string\", \"const\": \"a\"}}},"
             "\"du:index:B\": {\"type\": \"object\", \"properties\": {\"kind\": {\"type\": "
             "\"string\", \"const\": \"b\"}}}},"
             "\"resources\": {\"du:index:R\": {\"inputProperties\": {\"u\": {\"oneOf\": "
             "[{\"$ref\": \"#/types/du:index:A\"}, {\"$ref\": \"#/types/du:index:B\"}], "
             "\"discriminator\": {\"propertyName\": \"kind\"}}}}}}");
  fx_open(&f);
  schema_add_path(f.s, dir);
  r = must_resource(&f, "du:R");
  const schema_type *b = schema_union_select(f.s, r->inputs[0].type, "b");
  CU_ASSERT_PTR_NOT_NULL_FATAL(b);
  CU_ASSERT_STRING_EQUAL(b->token, "du:index:B");
  CU_ASSERT_PTR_NULL(schema_union_select(f.s, r->inputs[0].type, "c"));
  CU_ASSERT_STRING_EQUAL(diags_text(&f), "");
  fx_close(&f);
  remove_temp_dir(dir);
}

/* A type that refers to itself maps to one named object. */
static void test_recursive_types(void) {
  fixture f;
  fx_open(&f);
  schema_add_path(f.s, PROGRAM_SCHEMAS);
  schema_function *fn = must_function(&f, "recursive:getRecursiveType");
  const ty *ret = schema_function_return_type(f.s, fn);
  CU_ASSERT_EQUAL_FATAL(ret->kind, TY_OBJECT);
  const ty *field = ty_object_get(ret, "recursiveType");
  CU_ASSERT_PTR_NOT_NULL_FATAL(field);
  CU_ASSERT(ty_is_optional(field));
  const ty *rec = ty_strip_optional(&f.ty, field);
  CU_ASSERT_EQUAL_FATAL(rec->kind, TY_OBJECT);
  CU_ASSERT_STRING_EQUAL(rec->object.token, "recursive:index:RecursiveType");
  CU_ASSERT(rec->object.defined);
  const ty *inner = ty_strip_optional(&f.ty, ty_object_get(rec, "recursiveType"));
  CU_ASSERT_PTR_EQUAL(inner, rec);
  EXPECT_STR(pretty(&f, ret), "{ recursiveType: { name: string?, recursiveType: "
                              "recursive:index:RecursiveType? }? }");
  /* The output form of the arguments and the input shape are finite too. */
  EXPECT_STR(pretty(&f, schema_function_args_type(f.s, fn, true)),
             "{ name: (output(string) | string)? }");
  schema_package *p = schema_find_package(f.s, "recursive", NULL);
  CU_ASSERT(schema_package_check(f.s, p));
  CU_ASSERT_STRING_EQUAL(diags_text(&f), "");
  fx_close(&f);
}

/* Named types and resources chained DEEP_CHAIN long and in cycles. */
enum { DEEP_CHAIN = 10000 };

/* Writes the JSON object member "<prefix><i>": {<kind>"properties": {"v":
 * string, "next": {"$ref": "#/<section>/<prefix><next>"}}} (without next when
 * next is negative) to out, after a comma unless first. */
static void chain_member(FILE *out, bool first, const char *prefix, long i, long next,
                         const char *section, const char *kind) {
  fprintf(out, "%s\"%s%ld\": {%s\"properties\": {\"v\": {\"type\": \"string\"}",
          first ? "" : ", ", prefix, i, kind);
  if (next >= 0)
    fprintf(out, ", \"next\": {\"$ref\": \"#/%s/%s%ld\"}", section, prefix, next);
  fputs("}}", out);
}

/* Follows the property `next` of t, an optional value or output (a type's
 * or a resource's output), n times; returns the object reached, or NULL when
 * a step is missing or an object is not defined. */
static const ty *follow_next(fixture *f, const ty *t, long n) {
  for (long i = 0; i < n && t; i++) {
    if (t->kind != TY_OBJECT || !t->object.defined)
      return NULL;
    t = ty_object_get(t, "next");
    if (t)
      t = ty_strip_optional(&f->ty, ty_strip_eventual(t));
  }
  return t && t->kind == TY_OBJECT && t->object.defined ? t : NULL;
}

/* Writes the schema of test_deep_named to dir: types T0 ... and resources
 * R0 ... each naming the next, DEEP_CHAIN long, types CA, CB and resources
 * XA, XB naming each other, and a resource Holder with outputs T0 and CA. */
static void write_deep_schema(const char *dir) {
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  fputs("{\"name\": \"deep\", \"version\": \"1.0.0\", \"types\": {", out);
  const char *object = "\"type\": \"object\", ";
  for (long i = 0; i < DEEP_CHAIN; i++)
    chain_member(out, i == 0, "deep:index:T", i, i + 1 < DEEP_CHAIN ? i + 1 : -1, "types", object);
  chain_member(out, false, "deep:index:C", 0, 1, "types", object);
  chain_member(out, false, "deep:index:C", 1, 0, "types", object);
  fputs("}, \"resources\": {\"deep:index:Holder\": {\"properties\": {\"t\": "
        "{\"$ref\": \"#/types/deep:index:T0\"}, \"c\": "
        "{\"$ref\": \"#/types/deep:index:C0\"}}}",
        out);
  for (long i = 0; i < DEEP_CHAIN; i++)
    chain_member(out, false, "deep:index:R", i, i + 1 < DEEP_CHAIN ? i + 1 : -1, "resources", "");
  chain_member(out, false, "deep:index:X", 0, 1, "resources", "");
  chain_member(out, false, "deep:index:X", 1, 0, "resources", "");
  fputs("}}", out);
  fclose(out);
  write_file(dir, "deep-1.0.0.json", text);
  free(text);
}

/* The folder of test_deep_named's schema. */
static const char *deep_dir;

/* The body of test_deep_named, run on the phases' stack as pclc runs it
 * (stack_run): the schema of write_deep_schema loads and maps, the type
 * operations recurse along its chains, and its cycles close on the same
 * objects.  No assertion here is fatal: a fatal one would leave the thread
 * through the runner's longjmp. */
static int deep_named(void *unused) {
  (void)unused;
  fixture f;
  fx_open(&f);
  schema_add_path(f.s, deep_dir);
  schema_resource *r0 = must_resource(&f, "deep:R0");
  schema_resource *holder = must_resource(&f, "deep:Holder");
  schema_resource *x0 = must_resource(&f, "deep:X0");
  if (r0 && holder && x0) {
    /* The resource chain: R0's `next` is an output of R1's outputs, resolved
       (R1$resource$resolved), and so on. */
    const ty *last = follow_next(&f, schema_resource_output_type(f.s, r0), DEEP_CHAIN - 1);
    CU_ASSERT(last && !strcmp(last->object.token, "deep:index:R9999$resource$resolved") &&
              !ty_object_get(last, "next"));
    /* The type chain, reached through a resource output. */
    const ty *h = schema_resource_output_type(f.s, holder);
    const ty *t0 = ty_strip_optional(&f.ty, ty_strip_eventual(ty_object_get(h, "t")));
    last = follow_next(&f, t0, DEEP_CHAIN - 1);
    CU_ASSERT(last && !strcmp(last->object.token, "deep:index:T9999"));
    /* The cycle of types closes on the same objects.  In the cycle of
       resources, X0's `next` is X1's outputs resolved (the step back to X0
       sees X0 as declared, not yet defined: define_named). */
    const ty *c0 = ty_strip_optional(&f.ty, ty_strip_eventual(ty_object_get(h, "c")));
    const ty *c1 = follow_next(&f, c0, 1);
    CU_ASSERT(c1 && !strcmp(c1->object.token, "deep:index:C1"));
    CU_ASSERT_PTR_EQUAL(follow_next(&f, c0, 2), c0);
    const ty *xa = schema_resource_output_type(f.s, x0);
    const ty *x1 = follow_next(&f, xa, 1);
    CU_ASSERT(x1 && !strcmp(x1->object.token, "deep:index:X1$resource$resolved"));
  }
  CU_ASSERT(schema_package_check(f.s, schema_find_package(f.s, "deep", NULL)));
  CU_ASSERT_STRING_EQUAL(diags_text(&f), "");
  CU_ASSERT_FALSE(ty_take_too_deep(&f.ty));
  fx_close(&f);
  return 0;
}

static void test_deep_named(void) {
  deep_dir = make_temp_dir();
  write_deep_schema(deep_dir);
  stack_run(0, deep_named, NULL);
  remove_temp_dir(deep_dir);
}

/* Several versions of one package: highest semver by default, exact match
 * on request, pins from package blocks, side by side in one set. */
static void test_versions(void) {
  const char *dir = make_temp_dir();
  static const char *const versions[] = {"1.0.0",         "1.2.0", "1.10.0",
                                         "2.0.0-alpha.1", "2.0.0", "2.0.0-beta"};
  for (size_t i = 0; i < ARRAY_LEN(versions); i++) {
    char name[64], text[512];
    snprintf(name, sizeof name, "vpkg-%s.json", versions[i]);
    /* Each version's resource has one input named after its version. */
    snprintf(text, sizeof text,
             "{\"name\": \"vpkg\", \"version\": \"%s\", \"resources\": {\"vpkg:index:R\": "
             "{\"inputProperties\": {\"v%zu\": {\"$ref\": \"#/types/vpkg:index:T\"}}}}, "
             "\"types\": {\"vpkg:index:T\": {\"type\": \"object\", \"properties\": {\"x%zu\": "
             "{\"type\": \"string\"}}}}}",
             versions[i], i, i);
    write_file(dir, name, text);
  }
  write_file(dir, "other.json", "{\"name\": \"other\", \"version\": \"0.1.0\"}");
  fixture f;
  fx_open(&f);
  schema_add_path(f.s, dir);
  schema_package *p = schema_find_package(f.s, "vpkg", NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(p);
  CU_ASSERT_STRING_EQUAL(p->version, "2.0.0");
  CU_ASSERT_PTR_EQUAL(schema_find_package(f.s, "vpkg", "2.0.0"), p);
  schema_package *p12 = schema_find_package(f.s, "vpkg", "1.2.0");
  CU_ASSERT_PTR_NOT_NULL_FATAL(p12);
  CU_ASSERT_STRING_EQUAL(p12->version, "1.2.0");
  CU_ASSERT_STRING_EQUAL(schema_find_package(f.s, "vpkg", "v1.10.0")->version, "1.10.0");
  CU_ASSERT_STRING_EQUAL(schema_find_package(f.s, "vpkg", "2.0.0-alpha.1")->version,
                         "2.0.0-alpha.1");
  CU_ASSERT_STRING_EQUAL(schema_find_package(f.s, "other", NULL)->version, "0.1.0");
  /* Two versions side by side: distinct types for the same token. */
  schema_resource *r2, *r12;
  CU_ASSERT_EQUAL(schema_find_resource(f.s, "vpkg:R", NULL, nowhere, &r2), SCHEMA_FOUND);
  CU_ASSERT_EQUAL(schema_find_resource(f.s, "vpkg:R", "1.2.0", nowhere, &r12), SCHEMA_FOUND);
  EXPECT_STR(pretty(&f, schema_resource_input_type(f.s, r2)),
             "{ v4: ({ x4: (output(string) | string)? } | output({ x4: string? }))? }");
  EXPECT_STR(pretty(&f, schema_resource_input_type(f.s, r12)),
             "{ v1: ({ x1: (output(string) | string)? } | output({ x1: string? }))? }");
  CU_ASSERT_STRING_EQUAL(diags_text(&f), "");
  /* A version that has no file: the highest is used, with a warning. */
  CU_ASSERT_STRING_EQUAL(schema_find_package(f.s, "vpkg", "3.0.0")->version, "2.0.0");
  EXPECT_STR(diags_text(&f),
             "warning: no schema for version 3.0.0 of package 'vpkg'; using version "
             "2.0.0\n");
  /* From a lookup, the warning points at the requested version. */
  uint32_t id = src_add(&f.src, "main.pp", "version = \"4.0.0\"\n", 18);
  schema_resource *r4;
  CU_ASSERT_EQUAL(schema_find_resource(f.s, "vpkg:index:R", "4.0.0", (pcl_span){id, 10, 17}, &r4),
                  SCHEMA_FOUND);
  CU_ASSERT_PTR_EQUAL(r4, r2);
  EXPECT_STR(diags_text(&f), "warning: no schema for version 3.0.0 of package 'vpkg'; using "
                             "version 2.0.0\n"
                             "main.pp:1:11: warning: no schema for version 4.0.0 of package "
                             "'vpkg'; using version 2.0.0\n");
  size_t n;
  const char *const *read = schema_files_read(f.s, &n);
  CU_ASSERT_EQUAL_FATAL(n, 5);
  CU_ASSERT_PTR_NOT_NULL(strstr(read[0], "/vpkg-2.0.0.json"));
  CU_ASSERT_PTR_NOT_NULL(strstr(read[1], "/vpkg-1.2.0.json"));
  CU_ASSERT_PTR_NOT_NULL(strstr(read[2], "/vpkg-1.10.0.json"));
  CU_ASSERT_PTR_NOT_NULL(strstr(read[3], "/vpkg-2.0.0-alpha.1.json"));
  CU_ASSERT_PTR_NOT_NULL(strstr(read[4], "/other.json"));
  fx_close(&f);

  /* A pin (package block) picks the version used when none is requested. */
  fx_open(&f);
  schema_add_path(f.s, dir);
  schema_pin_version(f.s, "vpkg", "1.0.0");
  CU_ASSERT_STRING_EQUAL(schema_find_package(f.s, "vpkg", NULL)->version, "1.0.0");
  CU_ASSERT_STRING_EQUAL(schema_find_package(f.s, "vpkg", "1.10.0")->version, "1.10.0");
  CU_ASSERT_STRING_EQUAL(diags_text(&f), "");
  fx_close(&f);

  /* `<name>.json` is used when no file names a version, or for a requested
     version that no file names; otherwise the highest version wins. */
  write_file(dir, "upkg.json", "{\"name\": \"upkg\", \"version\": \"5.0.0\"}");
  write_file(dir, "upkg-1.0.0.json", "{\"name\": \"upkg\", \"version\": \"1.0.0\"}");
  write_file(dir, "solo.json", "{\"name\": \"solo\"}");
  fx_open(&f);
  schema_add_path(f.s, dir);
  CU_ASSERT_STRING_EQUAL(schema_find_package(f.s, "upkg", NULL)->version, "1.0.0");
  CU_ASSERT_STRING_EQUAL(schema_find_package(f.s, "upkg", "5.0.0")->version, "5.0.0");
  CU_ASSERT_PTR_NOT_NULL(schema_find_package(f.s, "solo", NULL));
  CU_ASSERT_PTR_NULL(schema_find_package(f.s, "solo", NULL)->version);
  CU_ASSERT_PTR_EQUAL(schema_find_package(f.s, "solo", "9.9.9"),
                      schema_find_package(f.s, "solo", NULL));
  CU_ASSERT_STRING_EQUAL(diags_text(&f), "");
  fx_close(&f);
  remove_temp_dir(dir);
}

/* Broken schema files give precise diagnostics and never crash. */
static void test_bad_files(void) {
  const char *dir = make_temp_dir();
  write_file(dir, "badjson.json",
             "{\"name\": \"badjson\",\n  \"resources\": {\n    \"x\": [1, 2,,]\n"
             "  }\n}\n");
  write_file(dir, "noname.json", "{\"version\": \"1.0.0\"}\n");
  write_file(dir, "wrongname.json", "{\"name\": \"other\"}\n");
  write_file(dir, "sections.json", "{\"name\": \"sections\", \"resources\": []}\n");
  write_file(dir, "format.json",
             "{\"name\": \"format\", \"meta\": {\"moduleFormat\": \"(?=lookahead)\"}}\n");
  write_file(dir, "array.json", "[1, 2]\n");
  char sub[600];
  snprintf(sub, sizeof sub, "%s/folder-1.0.0.json", dir);
  CU_ASSERT_EQUAL_FATAL(mkdir(sub, 0700), 0);
  write_file(dir, "refs.json",
             "{\n"
             "  \"name\": \"refs\",\n"
             "  \"resources\": {\n"
             "    \"refs:index:Good\": {\"inputProperties\": {\"a\": {\"type\": \"integer\", "
             "\"default\": 3.0}, \"b\": {\"type\": \"integer\", \"default\": 1e30}}},\n"
             "    \"refs:index:Bad\": {\n"
             "      \"inputProperties\": {\n"
             "        \"missing\": {\"$ref\": \"#/types/refs:index:Missing\"},\n"
             "        \"external\": {\"$ref\": "
             "\"/nopkg/v1.0.0/schema.json#/types/nopkg:index:T\"},\n"
             "        \"weird\": {\"$ref\": \"https://example.com/x\"},\n"
             "        \"builtin\": {\"$ref\": \"pulumi.json#/Nope\"},\n"
             "        \"items\": {\"type\": \"array\"},\n"
             "        \"notype\": {\"description\": \"no type at all\"},\n"
             "        \"token\": {\"$ref\": \"#/types/refs:index:Tok\", \"type\": \"string\"},\n"
             "        \"map\": {\"type\": \"object\"}\n"
             "      }\n"
             "    }\n"
             "  },\n"
             "  \"functions\": {\"refs:index:fn\": {\"outputs\": 3}}\n"
             "}\n");
  fixture f;
  fx_open(&f);
  CU_ASSERT_FALSE(schema_add_path(f.s, "no/such/folder"));
  schema_add_path(f.s, dir);
  schema_resource *r;
  schema_package *p = schema_find_package(f.s, "badjson", NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(p);
  CU_ASSERT_FALSE(p->ok);
  /* A broken package is reported once; lookups in it just fail. */
  CU_ASSERT_EQUAL(schema_find_resource(f.s, "badjson:index:X", NULL, nowhere, &r), SCHEMA_ERROR);
  CU_ASSERT_FALSE(schema_find_package(f.s, "wrongname", NULL)->ok);
  CU_ASSERT_FALSE(schema_find_package(f.s, "sections", NULL)->ok);
  CU_ASSERT_FALSE(schema_find_package(f.s, "format", NULL)->ok);
  CU_ASSERT_FALSE(schema_find_package(f.s, "folder", NULL)->ok);
  CU_ASSERT_FALSE(schema_find_package(f.s, "array", NULL)->ok);
  CU_ASSERT_FALSE(schema_find_package(f.s, "noname", NULL)->ok);
  EXPECT_STR(
      diags_text(&f),
      arena_printf(
          &f.arena, "%s%s%s",
          "error: cannot read schema folder 'no/such/folder': No such file or directory\n"
          "badjson.json:3:16: error: invalid JSON in schema file: unexpected character ','\n"
          "wrongname.json:1:2: error: schema file declares package 'other', not 'wrongname'\n"
          "sections.json:1:22: error: 'resources' must be a JSON object\n"
          "format.json:1:29: error: invalid module format '(?=lookahead)'\n"
          "error: cannot read schema file '",
          sub,
          "': Is a directory\n"
          "array.json:1:1: error: a package schema must be a JSON object\n"
          "noname.json:1:1: error: package schema has no name (a non-empty string 'name' is "
          "required)\n"));
  fx_close(&f);

  fx_open(&f);
  schema_add_path(f.s, dir);
  CU_ASSERT_EQUAL(schema_find_resource(f.s, "refs:Good", NULL, nowhere, &r), SCHEMA_FOUND);
  CU_ASSERT_STRING_EQUAL(diags_text(&f), "");
  /* Integral defaults of integer properties are exact ints, however written. */
  CU_ASSERT_EQUAL_FATAL(r->ninputs, 2);
  EXPECT_STR(pretty(&f, r->inputs[0].default_value), "3");
  EXPECT_STR(pretty(&f, r->inputs[1].default_value), "1000000000000000019884624838656");
  CU_ASSERT_EQUAL(schema_find_resource(f.s, "refs:Bad", NULL, nowhere, &r), SCHEMA_FOUND);
  EXPECT_STR(
      diags_text(&f),
      "refs.json:7:29: error: invalid $ref '#/types/refs:index:Missing': package 'refs' defines "
      "no type 'refs:index:Missing'\n"
      "refs.json:8:30: error: invalid $ref '/nopkg/v1.0.0/schema.json#/types/nopkg:index:T': "
      "no schema for package 'nopkg'\n"
      "refs.json:9:27: error: invalid $ref 'https://example.com/x': expected '#/types/...' or "
      "'#/resources/...'\n"
      "refs.json:10:29: error: invalid $ref 'pulumi.json#/Nope': unknown built-in type 'Nope'\n"
      "refs.json:11:9: error: array type of 'items' has no 'items'\n"
      "refs.json:12:9: error: the type of 'notype' has no 'type', '$ref' or 'oneOf'\n");
  /* Broken properties map to dynamic; the others still work. */
  EXPECT_STR(pretty(&f, schema_resource_input_type(f.s, r)),
             "{ builtin: dynamic?, external: dynamic?, items: dynamic?, map: (map(output(string) | "
             "string) | output(map(string)))?, missing: dynamic?, notype: dynamic?, token: "
             "(output(refs:index:Tok | string) | refs:index:Tok | string)?, weird: dynamic? }");
  schema_function *fn;
  size_t before = f.diags.errors;
  CU_ASSERT_EQUAL(schema_find_function(f.s, "refs:fn", NULL, nowhere, &fn), SCHEMA_FOUND);
  CU_ASSERT_EQUAL(f.diags.errors, before + 1);
  CU_ASSERT_PTR_NOT_NULL(strstr(diags_text(&f), "refs.json:18:35: error: error loading function "
                                                "'refs:index:fn': 'outputs' must be an object"));
  fx_close(&f);
  remove_temp_dir(dir);
}

/* A schema with extensionParameterization describes an extension of its
 * base provider (RegisterPackage says so); one without does not; one whose
 * extensionParameterization is not an object is refused where it is. */
static void test_extension_packages(void) {
  const char *dir = make_temp_dir();
  write_file(dir, "myext.json",
             "{\"name\": \"myext\", \"version\": \"2.0.0\", \"extensionParameterization\": "
             "{\"baseProvider\": {\"name\": \"extbase\", \"version\": \"45.0.0\"}, "
             "\"parameter\": \"SGVsbG8=\"}}\n");
  write_file(dir, "plain.json", "{\"name\": \"plain\", \"version\": \"1.0.0\"}\n");
  write_file(dir, "badext.json", "{\"name\": \"badext\", \"extensionParameterization\": 3}\n");
  fixture f;
  fx_open(&f);
  schema_add_path(f.s, dir);
  schema_package *p = schema_find_package(f.s, "myext", NULL);
  CU_ASSERT_FATAL(p != NULL && p->ok);
  CU_ASSERT(p->extension);
  p = schema_find_package(f.s, "plain", NULL);
  CU_ASSERT_FATAL(p != NULL && p->ok);
  CU_ASSERT_FALSE(p->extension);
  CU_ASSERT_FALSE(schema_find_package(f.s, "badext", NULL)->ok);
  EXPECT_STR(diags_text(&f),
             "badext.json:1:20: error: 'extensionParameterization' must be a JSON object\n");
  fx_close(&f);
  remove_temp_dir(dir);
}

/* A definition is checked whole when it is decoded: required lists that
 * name no property or hold something else than names, methods that name no
 * function, enum members and defaults of another type than their type's,
 * each located at the offending entry. */
static void test_whole_definitions(void) {
  const char *dir = make_temp_dir();
  write_file(dir, "whole.json",
             "{\n"
             "  \"name\": \"whole\",\n"
             "  \"types\": {\n"
             "    \"whole:index:Color\": {\"type\": \"string\", \"enum\": [\n"
             "      {\"value\": \"red\"}, {\"value\": 3}]},\n"
             "    \"whole:index:Size\": {\"type\": \"integer\", \"enum\": [\n"
             "      {\"value\": 1}, {\"value\": 2.0}, {\"value\": 2.5}]},\n"
             "    \"whole:index:Obj\": {\"type\": \"object\",\n"
             "      \"properties\": {\"a\": {\"type\": \"string\"}},\n"
             "      \"required\": [\"a\", \"ghost\"]}\n"
             "  },\n"
             "  \"resources\": {\n"
             "    \"whole:index:Res\": {\n"
             "      \"inputProperties\": {\n"
             "        \"size\": {\"type\": \"integer\", \"default\": \"big\"},\n"
             "        \"name\": {\"type\": \"string\", \"const\": false},\n"
             "        \"color\": {\"$ref\": \"#/types/whole:index:Color\"},\n"
             "        \"obj\": {\"$ref\": \"#/types/whole:index:Obj\"},\n"
             "        \"sz\": {\"$ref\": \"#/types/whole:index:Size\"}\n"
             "      },\n"
             "      \"requiredInputs\": [\"size\", \"nmae\", 7],\n"
             "      \"properties\": {\"id2\": {\"type\": \"string\"}},\n"
             "      \"required\": [\"out\"],\n"
             "      \"methods\": {\"go\": \"whole:index:go\", \"stop\": \"whole:index:stop\"}\n"
             "    },\n"
             "    \"whole:index:Other\": {\"requiredInputs\": {\"a\": 1}}\n"
             "  },\n"
             "  \"functions\": {\n"
             "    \"whole:index:go\": {\"inputs\": {\"properties\": {\"__self__\": {\"type\": "
             "\"string\"}}, \"required\": [\"__self__\", \"x\"]}}\n"
             "  }\n"
             "}\n");
  fixture f;
  fx_open(&f);
  schema_add_path(f.s, dir);
  schema_package *p = schema_find_package(f.s, "whole", NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(p);
  CU_ASSERT_FALSE(schema_package_check(f.s, p));
  EXPECT_STR(diags_text(&f),
             "whole.json:4:45: error: member 1 of enum 'whole:index:Color' must be a value of "
             "type string\n"
             "whole.json:6:45: error: member 2 of enum 'whole:index:Size' must be a value of type "
             "integer\n"
             "whole.json:10:25: error: 'required' of 'whole:index:Obj' names 'ghost', which is "
             "not one of its properties\n"
             "whole.json:21:34: error: 'requiredInputs' of 'whole:index:Res' names 'nmae', which "
             "is not one of its properties\n"
             "whole.json:21:7: error: entry 2 of 'requiredInputs' of 'whole:index:Res' must be a "
             "property name (a string)\n"
             "whole.json:15:37: error: the default of property 'size' of 'whole:index:Res' must "
             "be a value of type integer\n"
             "whole.json:16:36: error: the const of property 'name' of 'whole:index:Res' must be "
             "a value of type string\n"
             "whole.json:23:20: error: 'required' of 'whole:index:Res' names 'out', which is not "
             "one of its properties\n"
             "whole.json:24:51: error: method 'stop' of 'whole:index:Res' names function "
             "'whole:index:stop', which is not defined\n"
             "whole.json:29:108: error: 'required' of 'whole:index:go' names 'x', which is not "
             "one of its properties\n"
             "whole.json:26:27: error: 'requiredInputs' of 'whole:index:Other' must be an array "
             "of property names\n");
  /* The method that names a function is kept, the other left out. */
  schema_resource *r = NULL;
  CU_ASSERT_EQUAL(schema_find_resource(f.s, "whole:Res", NULL, nowhere, &r), SCHEMA_FOUND);
  CU_ASSERT_PTR_NOT_NULL(schema_resource_method(f.s, r, intern(&f.names, "go")));
  CU_ASSERT_PTR_NULL(schema_resource_method(f.s, r, intern(&f.names, "stop")));
  fx_close(&f);
  remove_temp_dir(dir);
}

/* The validating scan that indexes schema files reports JSON errors where
 * they are; what only jansson checks (UTF-8) is reported when the piece that
 * holds it is first used. */
static void test_json_errors(void) {
  static const char *const cases[][2] = {
      {"{\"name\": \"x\"", "1:13: error: invalid JSON in schema file: unexpected end of file"},
      {"{\"name\": \"x\",}", "1:14: error: invalid JSON in schema file: expected a string key"},
      {"{\"name\" \"x\"}", "1:9: error: invalid JSON in schema file: expected ':'"},
      {"{\"name\": \"x\\q\"}",
       "1:12: error: invalid JSON in schema file: invalid escape in string"},
      {"{\"name\": \"\\u12G4\"}",
       "1:11: error: invalid JSON in schema file: invalid \\u escape in string"},
      {"{\"name\": 01}", "1:11: error: invalid JSON in schema file: expected ',' or '}'"},
      {"{\"name\": -}", "1:10: error: invalid JSON in schema file: invalid number"},
      {"{\"name\": 1.e5}", "1:10: error: invalid JSON in schema file: invalid number"},
      {"{\"name\": tru}", "1:10: error: invalid JSON in schema file: unexpected character 't'"},
      {"{\"name\": [1 2]}", "1:13: error: invalid JSON in schema file: expected ',' or ']'"},
      {"{\"name\": \"a\"} x", "1:15: error: invalid JSON in schema file: end of file expected"},
      {"{\"name\": \"a\tb\"}",
       "1:12: error: invalid JSON in schema file: control character in string"},
      {"\n\n  {\"name\": \"unterminated}",
       "3:12: error: invalid JSON in schema file: unterminated string"},
      {"", "1:1: error: invalid JSON in schema file: unexpected end of file"},
  };
  const char *dir = make_temp_dir();
  for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
    write_file(dir, "case.json", cases[i][0]);
    fixture f;
    fx_open(&f);
    char *path = arena_printf(&f.arena, "%s/case.json", dir);
    CU_ASSERT_PTR_NULL(schema_load_file(f.s, path));
    EXPECT_STR(diags_text(&f), arena_printf(&f.arena, "case.json:%s\n", cases[i][1]));
    fx_close(&f);
  }
  /* Nesting deeper than the scanner follows. */
  char deep[2100];
  memset(deep, '[', 2000);
  deep[2000] = 0;
  write_file(dir, "case.json", deep);
  fixture f;
  fx_open(&f);
  CU_ASSERT_PTR_NULL(schema_load_file(f.s, arena_printf(&f.arena, "%s/case.json", dir)));
  EXPECT_STR(diags_text(&f),
             "case.json:1:513: error: invalid JSON in schema file: nesting too deep\n");
  fx_close(&f);
  /* Invalid UTF-8 inside one resource: found when that resource is used. */
  write_file(dir, "utf-1.0.0.json",
             "{\"name\": \"utf\", \"resources\": {\"utf:index:Good\": {},\n"
             "  \"utf:index:Bad\": {\"description\": \"\xff\"}}}\n");
  fx_open(&f);
  schema_add_path(f.s, dir);
  schema_resource *r;
  CU_ASSERT_EQUAL(schema_find_resource(f.s, "utf:Good", NULL, nowhere, &r), SCHEMA_FOUND);
  EXPECT_STR(diags_text(&f), "");
  CU_ASSERT_EQUAL(schema_find_resource(f.s, "utf:Bad", NULL, nowhere, &r), SCHEMA_FOUND);
  EXPECT_STR(diags_text(&f), "utf-1.0.0.json:2:36: error: invalid JSON in schema file: unable to "
                             "decode byte 0xff near '\"'\n");
  /* Reported once. */
  CU_ASSERT_EQUAL(schema_find_resource(f.s, "utf:Bad", NULL, nowhere, &r), SCHEMA_FOUND);
  CU_ASSERT_EQUAL(f.diags.errors, 1);
  fx_close(&f);
  remove_temp_dir(dir);
}

void register_schema_tests(void);
void register_schema_tests(void) {
  CU_pSuite s = CU_add_suite("schema", NULL, NULL);
  CU_add_test(s, "conformance provider schemas", test_conformance_providers);
  CU_add_test(s, "extension packages", test_extension_packages);
  CU_add_test(s, "program schemas", test_program_schemas);
  CU_add_test(s, "token resolution", test_token_resolution);
  CU_add_test(s, "token errors", test_token_errors);
  CU_add_test(s, "type mapping", test_type_mapping);
  CU_add_test(s, "property flags", test_property_flags);
  CU_add_test(s, "recursive types", test_recursive_types);
  CU_add_test(s, "named types and resources chained deep", test_deep_named);
  CU_add_test(s, "discriminated unions", test_discriminated_unions);
  CU_add_test(s, "versions", test_versions);
  CU_add_test(s, "bad schema files", test_bad_files);
  CU_add_test(s, "whole definitions", test_whole_definitions);
  CU_add_test(s, "JSON errors", test_json_errors);
}
