/* Unit tests of the back end (ir, lower, cw, emit): the IR numbering agrees
 * with the runtime's descriptor numbering (runtime/pcl_gen.h), the apply
 * lowering of lowering.md 2 (minimal wrapping, argument deduplication,
 * conditionals awaiting only their condition), C string escaping, and the
 * determinism of the emitted C. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../runtime/pcl_gen.h"
#include "ast.h"
#include "bind.h"
#include "cw.h"
#include "emit.h"
#include "ir.h"
#include "lower.h"
#include "parse.h"
#include "util.h"

/* One compilation of a single in-memory file, lowered. */
typedef struct env {
  arena arena;
  intern_table names;
  src_set src;
  diag_list diags;
  ty_ctx ty;
  bind_ctx bind;
  bnd_program *prog;
  ir_module *ir;
} env;

static void env_lower(env *e, const char *text) {
  arena_init(&e->arena);
  intern_init(&e->names, &e->arena);
  src_init(&e->src);
  diag_init(&e->diags, &e->src);
  ty_ctx_init(&e->ty, &e->arena, &e->names);
  uint32_t id = src_add(&e->src, "main.pp", text, strlen(text));
  parse_env pe = {&e->arena, &e->names, &e->src, &e->diags};
  ast_file *file = ARENA_NEW(&e->arena, ast_file);
  CU_ASSERT_FATAL(parse_file(&pe, id, file));
  ast_program prog = {file, 1};
  e->bind = (bind_ctx){0};
  e->bind.arena = &e->arena;
  e->bind.names = &e->names;
  e->bind.src = &e->src;
  e->bind.diag = &e->diags;
  e->bind.ty = &e->ty;
  e->prog = bind_program(&e->bind, &prog, ".");
  CU_ASSERT_FATAL(e->diags.errors == 0);
  lower_ctx lc = {&e->arena, &e->ty, 0};
  e->ir = lower_program(&lc, e->prog);
}

static void env_close(env *e) {
  ty_ctx_free(&e->ty);
  diag_free(&e->diags);
  src_free(&e->src);
  intern_free(&e->names);
  arena_free(&e->arena);
}

/* Returns the IR node whose logical name is name. */
static const ir_node *node(const env *e, const char *name) {
  for (size_t i = 0; i < e->ir->count; i++) {
    if (strcmp(e->ir->nodes[i].b->logical_name, name) == 0)
      return &e->ir->nodes[i];
  }
  CU_FAIL_FATAL("no such node");
  return NULL;
}

static void test_numbering(void) {
#define X(name, text) CU_ASSERT_EQUAL((int)IR_##name, (int)PCL_X_##name);
  IR_OPS(X)
#undef X
  CU_ASSERT_EQUAL((int)AST_OP_NEG, PCL_XU_NEG);
  CU_ASSERT_EQUAL((int)AST_OP_NOT, PCL_XU_NOT);
#define B(name) CU_ASSERT_EQUAL((int)AST_OP_##name, PCL_XB_##name);
  B(OR) B(AND) B(EQ) B(NE) B(LT) B(LE) B(GT) B(GE) B(ADD) B(SUB) B(MUL) B(DIV) B(MOD)
#undef B
  CU_ASSERT_EQUAL(IR_F_OBJECT, PCL_XF_OBJECT);
  CU_ASSERT_EQUAL(IR_F_GROUP, PCL_XF_GROUP);
  CU_ASSERT_EQUAL(IR_F_KEY, PCL_XF_KEY);
  CU_ASSERT_EQUAL(IR_F_COND, PCL_XF_COND);
  CU_ASSERT_EQUAL(IR_F_CONCAT, PCL_XF_CONCAT);
  CU_ASSERT_EQUAL(IR_F_KEYVAR, PCL_XF_KEYVAR);
  CU_ASSERT_EQUAL(IR_C_NONE, PCL_XC_NONE);
  CU_ASSERT_EQUAL(IR_C_STRING, PCL_XC_STRING);
  CU_ASSERT_EQUAL(IR_C_NUMBER, PCL_XC_NUMBER);
  CU_ASSERT_EQUAL(IR_C_INT, PCL_XC_INT);
  CU_ASSERT_EQUAL(IR_C_BOOL, PCL_XC_BOOL);
  CU_ASSERT_STRING_EQUAL(ir_op_name(IR_APPLY), "apply");
}

static const char applies_src[] = "config s \"string\" {\n"
                                  "  secret = true\n"
                                  "}\n"
                                  "twice = \"${s}-${s}\"\n"
                                  "obj = { a = s, b = \"x${s}\", c = 1 }\n"
                                  "cond = s == \"x\" ? \"yes\" : s\n"
                                  "plain = 1 + 2\n";

static void test_applies(void) {
  env e;
  env_lower(&e, applies_src);
  /* Two uses of one definition share one argument. */
  const ir_expr *twice = node(&e, "twice")->value;
  CU_ASSERT_EQUAL(twice->op, IR_APPLY);
  CU_ASSERT_EQUAL(twice->n, 2u);
  CU_ASSERT_EQUAL(twice->kids[0]->op, IR_NODE);
  const ir_expr *body = twice->kids[1];
  CU_ASSERT_EQUAL(body->op, IR_TEMPLATE);
  CU_ASSERT_EQUAL(body->kids[0]->op, IR_PARAM);
  CU_ASSERT_EQUAL(body->kids[2]->op, IR_PARAM);
  CU_ASSERT_EQUAL(body->kids[0]->a, twice->a);
  CU_ASSERT_EQUAL(body->kids[2]->a, twice->a);

  /* An object holding eventual values stays an object; only the template
   * inside it becomes an apply. */
  const ir_expr *obj = node(&e, "obj")->value;
  CU_ASSERT_EQUAL(obj->op, IR_OBJECT);
  CU_ASSERT_EQUAL(obj->kids[1]->op, IR_NODE);
  CU_ASSERT_EQUAL(obj->kids[3]->op, IR_APPLY);
  CU_ASSERT_EQUAL(obj->kids[5]->op, IR_CONST);

  /* A conditional waits for its condition; the branches stay outside. */
  const ir_expr *cond = node(&e, "cond")->value;
  CU_ASSERT_EQUAL_FATAL(cond->op, IR_APPLY);
  const ir_expr *cbody = cond->kids[cond->n - 1];
  CU_ASSERT_EQUAL_FATAL(cbody->op, IR_COND);
  CU_ASSERT_EQUAL(cbody->kids[0]->op, IR_PARAM);
  CU_ASSERT_EQUAL(cbody->kids[1]->op, IR_CONST);
  CU_ASSERT_EQUAL(cbody->kids[2]->op, IR_NODE);

  /* Plain expressions are not wrapped. */
  CU_ASSERT_EQUAL(node(&e, "plain")->value->op, IR_BINARY);
  env_close(&e);
}

/* Emits the C of program text (read from path input) into a malloc'd
 * string. */
static char *emit_text(const char *text_in, const char *input) {
  env e;
  env_lower(&e, text_in);
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  CU_ASSERT_FATAL(f != NULL);
  CU_ASSERT(emit_program(f, input, &e.src, e.ir));
  fclose(f);
  env_close(&e);
  return text;
}

static void test_emit_deterministic(void) {
  char *a = emit_text(applies_src, "main.pp");
  char *b = emit_text(applies_src, "main.pp");
  CU_ASSERT_STRING_EQUAL(a, b);
  CU_ASSERT(strncmp(a, "/* Generated by pclc from main.pp; do not edit. */\n#include \"pcl_gen.h\"\n",
                    strlen("/* Generated by pclc from main.pp; do not edit. */\n")) == 0);
  CU_ASSERT(strstr(a, "pcl_packed_start(run, &pclg_p0)") != NULL);
  CU_ASSERT(strstr(a, "{\"s\", &pcl_type_string, NULL, 0, 0, 1}") != NULL);
  free(a);
  free(b);
}

/* Returns how many times needle occurs in hay. */
static size_t occurrences(const char *hay, const char *needle) {
  size_t n = 0;
  for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
    n++;
  return n;
}

static void test_emit_constants(void) {
  char *c = emit_text("a = \"dup\"\nb = \"dup\"\nc = [\"dup\", 7, 7]\n", "dir*/main.pp");
  /* Equal constants are written once, whichever node holds them. */
  CU_ASSERT_EQUAL(occurrences(c, "PCL_STATIC_ASCII(\"dup\")"), 1u);
  CU_ASSERT_EQUAL(occurrences(c, "PCL_STATIC_INT(7)"), 1u);
  /* A comment terminator in the path cannot end the header comment. */
  CU_ASSERT(strncmp(c, "/* Generated by pclc from dir*\\/main.pp; do not edit. */\n",
                    strlen("/* Generated by pclc from dir*\\/main.pp; do not edit. */\n")) == 0);
  /* The program is named after the input's base name without `.pp`. */
  CU_ASSERT(strstr(c, "pclg_program = {\"main\"") != NULL);
  free(c);
}

static void test_cstring(void) {
  cw w = CW_INIT;
  cw_cstring(&w, "a\"b\\c?\n\0\xc3\xa9", 10);
  CU_ASSERT_STRING_EQUAL(w.data, "\"a\\\"b\\\\c\\?\\012\\000\\303\\251\"");
  cw_free(&w);
  cw_printf(&w, "%d-%s", 7, "x");
  CU_ASSERT_STRING_EQUAL(w.data, "7-x");
  cw_free(&w);
}

void register_backend_tests(void);
void register_backend_tests(void) {
  CU_pSuite s = CU_add_suite("backend", NULL, NULL);
  CU_add_test(s, "IR numbering agrees with the runtime", test_numbering);
  CU_add_test(s, "applies: dedup, minimal wrapping, conditionals", test_applies);
  CU_add_test(s, "emitted C is deterministic", test_emit_deterministic);
  CU_add_test(s, "emitted constants are deduplicated, comments escaped", test_emit_constants);
  CU_add_test(s, "C string literals", test_cstring);
}
