/* Unit tests of the binder and checker (bind, check): the bound program's
 * structure as later phases consume it: declaration and evaluation order,
 * dependencies, references resolved to nodes and scoped variables, types of
 * nodes and expressions, error marking, and cycle reporting
 * (program.md §10, types.md §8–§9). */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bind/bind.h"
#include "bind/check.h"
#include "front/parse.h"
#include "schema/schema.h"
#include "base/util.h"

/* One compilation of a single in-memory file. */
typedef struct env {
  arena arena;
  intern_table names;
  src_set src;
  diag_list diags;
  ty_ctx ty;
  bind_ctx bind;
  bnd_program *prog;
} env;

/* Parses and binds text with the schemas of folder schema_dir (none when
   NULL); the test fails on syntax errors. */
static void env_bind_with(env *e, const char *text, const char *schema_dir) {
  arena_init(&e->arena);
  intern_init(&e->names, &e->arena);
  src_init(&e->src);
  diag_init(&e->diags, &e->src);
  ty_ctx_init(&e->ty, &e->arena, &e->names);
  uint32_t id = src_add(&e->src, "main.pp", text, strlen(text));
  parse_env pe = {&e->arena, &e->names, &e->src, &e->diags, 0};
  ast_file *file = ARENA_NEW(&e->arena, ast_file);
  CU_ASSERT_FATAL(parse_file(&pe, id, file));
  ast_program prog = {file, 1};
  e->bind = (bind_ctx){0};
  e->bind.arena = &e->arena;
  e->bind.names = &e->names;
  e->bind.src = &e->src;
  e->bind.diag = &e->diags;
  e->bind.ty = &e->ty;
  if (schema_dir) {
    e->bind.schemas = schema_set_new(&e->ty, &e->arena, &e->names, &e->diags);
    CU_ASSERT_FATAL(schema_add_path(e->bind.schemas, schema_dir));
  }
  e->prog = bind_program(&e->bind, &prog, ".");
}

/* Parses and binds text without schemas. */
static void env_bind(env *e, const char *text) {
  env_bind_with(e, text, NULL);
}

static void env_close(env *e) {
  schema_set_free(e->bind.schemas);
  ty_ctx_free(&e->ty);
  diag_free(&e->diags);
  src_free(&e->src);
  intern_free(&e->names);
  arena_free(&e->arena);
}

/* Returns the node called name (first of that name), or NULL. */
static bnd_node *find(const env *e, const char *name) {
  for (size_t i = 0; i < e->prog->count; i++) {
    if (strcmp(e->prog->nodes[i]->name, name) == 0) {
      return e->prog->nodes[i];
    }
  }
  return NULL;
}

/* Returns the position of the node called name in the evaluation order. */
static size_t position(const env *e, const char *name) {
  for (size_t i = 0; i < e->prog->count; i++) {
    if (strcmp(e->prog->order[i]->name, name) == 0) {
      return i;
    }
  }
  return (size_t)-1;
}

static void test_order_and_deps(void) {
  env e;
  env_bind(&e, "c = b + 1\nunrelated = \"u\"\na = 1\nb = a * 2\n");
  CU_ASSERT_EQUAL(e.diags.errors, 0);
  CU_ASSERT_FALSE(e.prog->has_errors);
  CU_ASSERT_EQUAL(e.prog->count, 4);
  /* Declaration order is source order. */
  CU_ASSERT_STRING_EQUAL(e.prog->nodes[0]->name, "c");
  CU_ASSERT_STRING_EQUAL(e.prog->nodes[3]->name, "b");
  /* Evaluation order: dependencies first, otherwise source order. */
  CU_ASSERT(position(&e, "a") < position(&e, "b"));
  CU_ASSERT(position(&e, "b") < position(&e, "c"));
  CU_ASSERT(position(&e, "c") < position(&e, "unrelated"));
  bnd_node *c = find(&e, "c"), *b = find(&e, "b"), *a = find(&e, "a");
  CU_ASSERT_EQUAL(c->ndeps, 1);
  CU_ASSERT_PTR_EQUAL(c->deps[0], b);
  CU_ASSERT_EQUAL(b->ndeps, 1);
  CU_ASSERT_PTR_EQUAL(b->deps[0], a);
  CU_ASSERT_EQUAL(a->ndeps, 0);
  /* References point at the declarations they name. */
  CU_ASSERT_EQUAL(b->local->kind, BND_E_BINARY);
  CU_ASSERT_EQUAL(b->local->binary.lhs->kind, BND_E_NODE_REF);
  CU_ASSERT_PTR_EQUAL(b->local->binary.lhs->node_ref.node, a);
  /* Literals keep constant types; int arithmetic stays int (D3). */
  CU_ASSERT_PTR_EQUAL(a->type, ty_const_int_si(&e.ty, 1));
  CU_ASSERT_PTR_EQUAL(b->type, ty_int(&e.ty));
  CU_ASSERT_PTR_EQUAL(find(&e, "unrelated")->type, ty_string(&e.ty));
  env_close(&e);
}

static void test_big_integer_literal(void) {
  env e;
  env_bind(&e, "x = 123456789012345678901234567890\ny = -7\n");
  bnd_node *x = find(&e, "x"), *y = find(&e, "y");
  CU_ASSERT_EQUAL(x->local->kind, BND_E_NUMBER);
  CU_ASSERT_TRUE(x->local->number.integral);
  CU_ASSERT_STRING_EQUAL(x->local->number.digits, "123456789012345678901234567890");
  CU_ASSERT_STRING_EQUAL(y->local->number.digits, "-7");
  CU_ASSERT_PTR_EQUAL(y->type, ty_const_int_si(&e.ty, -7));
  env_close(&e);
}

static void test_scoped_variables(void) {
  env e;
  env_bind(&e, "l = [\"a\", \"b\"]\n"
               "f = [for i, v in l : \"${i}${v}\"]\n"
               "s = [{ n = 1 }][*].n\n");
  CU_ASSERT_EQUAL(e.diags.errors, 0);
  bnd_expr *f = find(&e, "f")->local;
  CU_ASSERT_EQUAL_FATAL(f->kind, BND_E_FOR);
  CU_ASSERT_PTR_EQUAL(f->for_expr.key_var->type, ty_int(&e.ty));
  CU_ASSERT_PTR_EQUAL(f->for_expr.value_var->type, ty_string(&e.ty));
  bnd_expr *body = f->for_expr.value;
  CU_ASSERT_EQUAL_FATAL(body->kind, BND_E_TEMPLATE);
  CU_ASSERT_EQUAL_FATAL(body->tmpl.count, 2);
  CU_ASSERT_EQUAL(body->tmpl.parts[0]->kind, BND_E_VAR_REF);
  CU_ASSERT_PTR_EQUAL(body->tmpl.parts[0]->var_ref.var, f->for_expr.key_var);
  CU_ASSERT_PTR_EQUAL(body->tmpl.parts[1]->var_ref.var, f->for_expr.value_var);
  CU_ASSERT_PTR_EQUAL(f->type, ty_list(&e.ty, ty_string(&e.ty)));
  bnd_expr *s = find(&e, "s")->local;
  CU_ASSERT_EQUAL_FATAL(s->kind, BND_E_SPLAT);
  CU_ASSERT_EQUAL_FATAL(s->splat.each->kind, BND_E_GET_ATTR);
  CU_ASSERT_PTR_EQUAL(s->splat.each->get_attr.object->var_ref.var, s->splat.item);
  CU_ASSERT_PTR_EQUAL(s->type, ty_list(&e.ty, ty_const_int_si(&e.ty, 1)));
  env_close(&e);
}

static void test_output_namespace(void) {
  env e;
  env_bind(&e, "name = \"x\"\noutput name {\n  value = name\n}\nuse = name\n");
  CU_ASSERT_EQUAL(e.diags.errors, 0);
  bnd_node *local = e.prog->nodes[0], *out = e.prog->nodes[1];
  CU_ASSERT_EQUAL(local->kind, BND_LOCAL);
  CU_ASSERT_EQUAL(out->kind, BND_OUTPUT);
  /* A name finds definitions before outputs. */
  CU_ASSERT_PTR_EQUAL(out->output.value->node_ref.node, local);
  CU_ASSERT_PTR_EQUAL(find(&e, "use")->local->node_ref.node, local);
  env_close(&e);
}

static void test_errors_are_marked(void) {
  env e;
  env_bind(&e, "x = nope + 1\ny = x.a.b\n");
  /* One mistake, one diagnostic: the sum is erroneous but reports nothing. */
  CU_ASSERT_EQUAL(e.diags.errors, 1);
  CU_ASSERT_TRUE(e.prog->has_errors);
  bnd_expr *x = find(&e, "x")->local;
  CU_ASSERT_TRUE(x->error);
  CU_ASSERT_TRUE(x->binary.lhs->error);
  CU_ASSERT_PTR_EQUAL(x->type, ty_dynamic(&e.ty));
  env_close(&e);
}

static void test_cycle(void) {
  env e;
  env_bind(&e, "x = y\ny = x\nz = 1\n");
  CU_ASSERT_EQUAL(e.diags.errors, 1);
  CU_ASSERT_PTR_NOT_NULL_FATAL(e.diags.head);
  CU_ASSERT_STRING_EQUAL(e.diags.head->message, "circular reference");
  /* The path of the cycle: one note per reference. */
  size_t notes = 0;
  for (diag *n = e.diags.head->notes; n; n = n->next) {
    notes++;
  }
  CU_ASSERT_EQUAL(notes, 2);
  /* Every node still appears once in the order. */
  CU_ASSERT_EQUAL(position(&e, "z"), 2);
  CU_ASSERT(position(&e, "x") < 2 && position(&e, "y") < 2);
  env_close(&e);
}

static void test_range_and_options(void) {
  env e;
  env_bind(&e, "resource r \"pkg:index:Thing\" {\n"
               "  name = \"n-${range.value}\"\n"
               "  options {\n"
               "    range   = 3\n"
               "    protect = true\n"
               "  }\n"
               "}\n");
  CU_ASSERT_EQUAL(e.diags.errors, 0);
  CU_ASSERT_EQUAL(e.diags.warnings, 1); /* unknown package 'pkg' */
  bnd_node *r = find(&e, "r");
  CU_ASSERT_EQUAL(r->kind, BND_RESOURCE);
  CU_ASSERT_FALSE(r->resource.typed);
  CU_ASSERT_EQUAL(r->resource.range, BND_RANGE_COUNT);
  CU_ASSERT_PTR_NOT_NULL_FATAL(r->resource.range_var);
  CU_ASSERT_PTR_NOT_NULL(r->resource.options.opt[BND_OPT_PROTECT]);
  CU_ASSERT_PTR_NULL(r->resource.options.opt[BND_OPT_PARENT]);
  CU_ASSERT_PTR_EQUAL(r->type, ty_list(&e.ty, ty_dynamic(&e.ty)));
  CU_ASSERT_EQUAL_FATAL(r->resource.inputs.count, 1);
  bnd_expr *name = r->resource.inputs.items[0].value;
  CU_ASSERT_EQUAL_FATAL(name->kind, BND_E_TEMPLATE);
  bnd_expr *rv = name->tmpl.parts[1];
  CU_ASSERT_EQUAL(rv->kind, BND_E_GET_ATTR);
  CU_ASSERT_PTR_EQUAL(rv->get_attr.object->var_ref.var, r->resource.range_var);
  CU_ASSERT_PTR_EQUAL(rv->type, ty_int(&e.ty));
  env_close(&e);
}

/* Writes text to dir/name. */
static void write_schema(const char *dir, const char *name, const char *text) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *fp = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
  fputs(text, fp);
  fclose(fp);
}

/* Several parameterizations of one base provider are several packages,
   each pinning the schema version of its parameterization (program.md §9). */
static void test_parameterized_packages(void) {
  char dir[] = "/tmp/pclc-bind-XXXXXX";
  CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
  static const char *const files[][2] = {
      {"base-1.0.0.json", "{\"name\": \"base\", \"version\": \"1.0.0\"}"},
      {"hi-1.0.0.json", "{\"name\": \"hi\", \"version\": \"1.0.0\", \"resources\": "
                        "{\"hi:index:R\": {\"inputProperties\": {\"old\": {\"type\": "
                        "\"string\"}}}}}"},
      {"hi-2.0.0.json", "{\"name\": \"hi\", \"version\": \"2.0.0\", \"resources\": "
                        "{\"hi:index:R\": {\"inputProperties\": {\"new\": {\"type\": "
                        "\"string\"}}}}}"},
      {"bye-3.0.0.json", "{\"name\": \"bye\", \"version\": \"3.0.0\", \"resources\": "
                         "{\"bye:index:R\": {\"inputProperties\": {\"b\": {\"type\": "
                         "\"string\"}}}}}"},
  };
  for (size_t i = 0; i < ARRAY_LEN(files); i++)
    write_schema(dir, files[i][0], files[i][1]);
  env e;
  env_bind_with(&e,
                "package {\n"
                "  baseProviderName = \"base\"\n"
                "  baseProviderVersion = \"1.0.0\"\n"
                "  parameterization {\n"
                "    name = \"hi\"\n"
                "    version = \"1.0.0\"\n"
                "    value = \"aGk=\"\n"
                "  }\n"
                "}\n"
                "package {\n"
                "  baseProviderName = \"base\"\n"
                "  baseProviderVersion = \"1.0.0\"\n"
                "  parameterization {\n"
                "    name = \"bye\"\n"
                "    version = \"3.0.0\"\n"
                "    value = \"Ynll\"\n"
                "  }\n"
                "}\n"
                "resource a \"hi:index:R\" {\n"
                "  old = \"x\"\n"
                "}\n"
                "resource b \"bye:index:R\" {\n"
                "  b = \"y\"\n"
                "}\n",
                dir);
  CU_ASSERT_EQUAL(e.diags.errors + e.diags.warnings, 0);
  CU_ASSERT_EQUAL_FATAL(e.prog->npackages, 2);
  CU_ASSERT_STRING_EQUAL(e.prog->packages[0].name, "base");
  CU_ASSERT_STRING_EQUAL(e.prog->packages[0].param_name, "hi");
  CU_ASSERT_STRING_EQUAL(e.prog->packages[1].name, "base");
  CU_ASSERT_STRING_EQUAL(e.prog->packages[1].param_name, "bye");
  /* The pinned version of hi is its parameterization's (1.0.0), not the
     highest file (2.0.0) nor the base provider's. */
  bnd_node *a = find(&e, "a");
  CU_ASSERT_FATAL(a && a->resource.typed);
  CU_ASSERT_STRING_EQUAL(a->resource.schema->pkg->version, "1.0.0");
  CU_ASSERT_PTR_NOT_NULL(ty_object_get(a->resource.input_type, intern(&e.names, "old")));
  bnd_node *b = find(&e, "b");
  CU_ASSERT_FATAL(b && b->resource.typed);
  CU_ASSERT_STRING_EQUAL(b->resource.schema->pkg->version, "3.0.0");
  env_close(&e);
  for (size_t i = 0; i < ARRAY_LEN(files); i++) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, files[i][0]);
    unlink(path);
  }
  rmdir(dir);
}

/* Writes text to dir/sub/main.pp, creating dir/sub. */
static void write_component(const char *dir, const char *sub, const char *text) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, sub);
  CU_ASSERT_EQUAL_FATAL(mkdir(path, 0700), 0);
  snprintf(path, sizeof path, "%s/%s/main.pp", dir, sub);
  FILE *f = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fputs(text, f);
  fclose(f);
}

/* Returns the input called name of component node n, or NULL. */
static const bnd_attr *input_of(const bnd_node *n, const char *name) {
  for (size_t i = 0; n && i < n->component.inputs.count; i++) {
    if (strcmp(n->component.inputs.items[i].name, name) == 0) {
      return &n->component.inputs.items[i];
    }
  }
  return NULL;
}

/* Mutually dependent components (program.md 10.4): of a pair whose outputs
   read resources the components hold, the one evaluated first leaves out of
   its registration the input that reads the other (it would wait for its
   own registration); a pair whose outputs are constants keeps its inputs. */
static void test_deferred_inputs(void) {
  char dir[] = "/tmp/pclc-bind-XXXXXX";
  CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
  write_component(dir, "held",
                  "config input bool {}\n"
                  "resource child \"x:index:R\" {\n  value = true\n}\n"
                  "output out {\n  value = child.value\n}\n");
  write_component(dir, "fixed", "config input bool {}\noutput out {\n  value = true\n}\n");
  char text[2048];
  snprintf(text, sizeof text,
           "component first \"%s/held\" {\n  input = second.out\n}\n"
           "component second \"%s/held\" {\n  input = first.out\n}\n"
           "component third \"%s/fixed\" {\n  input = fourth.out\n}\n"
           "component fourth \"%s/fixed\" {\n  input = third.out\n}\n",
           dir, dir, dir, dir);
  env e;
  env_bind(&e, text);
  CU_ASSERT_EQUAL(e.diags.errors, 0);
  CU_ASSERT_FALSE(e.prog->has_errors);
  /* second is evaluated first and reads first, evaluated after it. */
  CU_ASSERT(position(&e, "second") < position(&e, "first"));
  CU_ASSERT(position(&e, "fourth") < position(&e, "third"));
  const bnd_attr *first = input_of(find(&e, "first"), "input");
  const bnd_attr *second = input_of(find(&e, "second"), "input");
  const bnd_attr *third = input_of(find(&e, "third"), "input");
  const bnd_attr *fourth = input_of(find(&e, "fourth"), "input");
  CU_ASSERT_FATAL(first && second && third && fourth);
  CU_ASSERT_FALSE(first->deferred);
  CU_ASSERT_TRUE(second->deferred);
  CU_ASSERT_FALSE(third->deferred);
  CU_ASSERT_FALSE(fourth->deferred);
  env_close(&e);
  static const char *const files[] = {"held/main.pp", "held", "fixed/main.pp", "fixed"};
  for (size_t i = 0; i < ARRAY_LEN(files); i++) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, files[i]);
    CU_ASSERT_EQUAL(remove(path), 0);
  }
  rmdir(dir);
}

void register_bind_tests(void);
void register_bind_tests(void) {
  CU_pSuite s = CU_add_suite("bind", NULL, NULL);
  CU_add_test(s, "order and dependencies", test_order_and_deps);
  CU_add_test(s, "big integer literals", test_big_integer_literal);
  CU_add_test(s, "scoped variables", test_scoped_variables);
  CU_add_test(s, "output namespace", test_output_namespace);
  CU_add_test(s, "errors are marked", test_errors_are_marked);
  CU_add_test(s, "cycles", test_cycle);
  CU_add_test(s, "deferred component inputs", test_deferred_inputs);
  CU_add_test(s, "range and options", test_range_and_options);
  CU_add_test(s, "parameterized packages", test_parameterized_packages);
}
