/* Unit tests of the back end (lower, emit, cw): the apply lowering of
 * lowering.md 2 (minimal wrapping, argument deduplication, conditionals
 * awaiting only their condition, resolved types in bodies), static paths
 * through eventual values, and properties of the emitted C that goldens
 * show only by example: determinism, one function per shape with the
 * differences in rows, shared constants in NFC, static maps in key order,
 * name mangling, comment escaping, #line directives on request (each
 * statement on its own source line), and C string escaping. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "front/ast.h"
#include "bind/bind.h"
#include "emit/cw.h"
#include "emit/emit.h"
#include "ir/ir.h"
#include "ir/lower.h"
#include "front/parse.h"
#include "base/util.h"

/* One compilation of a single in-memory file, lowered. */
typedef struct env {
  arena arena;
  intern_table names;
  src_set src;
  diag_list diags;
  ty_ctx ty;
  bnd_program *prog;
  ir_module *ir;
} env;

static void env_lower(env *e, const char *path, const char *text) {
  arena_init(&e->arena);
  intern_init(&e->names, &e->arena);
  src_init(&e->src);
  diag_init(&e->diags, &e->src);
  ty_ctx_init(&e->ty, &e->arena, &e->names);
  uint32_t id = src_add(&e->src, path, text, strlen(text));
  parse_env pe = {&e->arena, &e->names, &e->src, &e->diags, 0};
  ast_file *file = ARENA_NEW(&e->arena, ast_file);
  CU_ASSERT_FATAL(parse_file(&pe, id, file));
  ast_program prog = {file, 1};
  bind_ctx bc = {0};
  bc.arena = &e->arena;
  bc.names = &e->names;
  bc.src = &e->src;
  bc.diag = &e->diags;
  bc.ty = &e->ty;
  e->prog = bind_program(&bc, &prog, ".");
  CU_ASSERT_FATAL(e->diags.errors == 0);
  lower_ctx lc = {&e->arena, &e->ty, &e->names, 0, {0}, &e->diags, false};
  e->ir = lower_program(&lc, e->prog);
  ptrmap_free(&lc.component_types);
}

static void env_close(env *e) {
  ty_ctx_free(&e->ty);
  diag_free(&e->diags);
  src_free(&e->src);
  intern_free(&e->names);
  arena_free(&e->arena);
}

/* Returns the IR node named name. */
static const ir_node *node(const env *e, const char *name) {
  for (size_t i = 0; i < e->ir->count; i++) {
    if (strcmp(e->ir->nodes[i].name, name) == 0)
      return &e->ir->nodes[i];
  }
  CU_FAIL_FATAL("no such node");
  return NULL;
}

/* Returns whether t is the type of a plain value (no output or promise). */
static bool plain(const ty *t) {
  return t->kind != TY_OUTPUT && t->kind != TY_PROMISE;
}

static const char applies_src[] = "config s \"string\" {\n"
                                  "  secret = true\n"
                                  "}\n"
                                  "resource r \"x:index:Thing\" {\n"
                                  "  name = s\n"
                                  "}\n"
                                  "twice = \"${s}-${s}\"\n"
                                  "obj = { a = s, b = \"x${s}\", c = 1 }\n"
                                  "cond = s == \"x\" ? \"yes\" : s\n"
                                  "plain = 1 + 2\n"
                                  "deep = r.a.b[0]\n"
                                  "len = length(r.items)\n";

static void test_applies(void) {
  env e;
  env_lower(&e, "main.pp", applies_src);
  /* Two uses of one definition share one argument; the apply is an output
   * and its body computes a plain string from plain parameters. */
  const ir_expr *twice = node(&e, "twice")->value;
  CU_ASSERT_EQUAL_FATAL(twice->op, IR_APPLY);
  CU_ASSERT_EQUAL(twice->n, 2u);
  CU_ASSERT_EQUAL(twice->type->kind, TY_OUTPUT);
  CU_ASSERT_EQUAL(twice->kids[0]->op, IR_NODE);
  const ir_expr *body = twice->kids[1];
  CU_ASSERT_EQUAL_FATAL(body->op, IR_TEMPLATE);
  CU_ASSERT(plain(body->type));
  CU_ASSERT_EQUAL(body->kids[0]->op, IR_PARAM);
  CU_ASSERT_EQUAL(body->kids[2]->op, IR_PARAM);
  CU_ASSERT_EQUAL(body->kids[0]->a, twice->a);
  CU_ASSERT_EQUAL(body->kids[2]->a, twice->a);
  CU_ASSERT(plain(body->kids[0]->type));

  /* An object holding eventual values stays an object; only the template
   * inside it becomes an apply. */
  const ir_expr *obj = node(&e, "obj")->value;
  CU_ASSERT_EQUAL_FATAL(obj->op, IR_OBJECT);
  CU_ASSERT_EQUAL(obj->kids[1]->op, IR_NODE);
  CU_ASSERT_EQUAL(obj->kids[3]->op, IR_APPLY);
  CU_ASSERT_EQUAL(obj->kids[5]->op, IR_CONST);

  /* A conditional waits for its condition (itself an apply); the branches
   * stay outside, so only the chosen one runs. */
  const ir_expr *cond = node(&e, "cond")->value;
  CU_ASSERT_EQUAL_FATAL(cond->op, IR_APPLY);
  CU_ASSERT_EQUAL(cond->kids[0]->op, IR_APPLY);
  const ir_expr *cbody = cond->kids[cond->n - 1];
  CU_ASSERT_EQUAL_FATAL(cbody->op, IR_COND);
  CU_ASSERT_EQUAL(cbody->kids[0]->op, IR_PARAM);
  CU_ASSERT_EQUAL(cbody->kids[1]->op, IR_CONST);
  CU_ASSERT_EQUAL(cbody->kids[2]->op, IR_NODE);

  /* Plain expressions are not wrapped. */
  CU_ASSERT_EQUAL(node(&e, "plain")->value->op, IR_BINARY);
  CU_ASSERT(plain(node(&e, "plain")->value->type));

  /* A static traversal through an eventual value is one PATH, whose steps
   * say which are indexes; the runtime follows futures step by step. */
  const ir_expr *deep = node(&e, "deep")->value;
  CU_ASSERT_EQUAL_FATAL(deep->op, IR_PATH);
  CU_ASSERT_EQUAL(deep->kids[0]->op, IR_NODE);
  CU_ASSERT_EQUAL_FATAL(deep->nsteps, 3u);
  CU_ASSERT_FALSE(deep->steps[0].index);
  CU_ASSERT_STRING_EQUAL(deep->steps[1].key->text, "b");
  CU_ASSERT_TRUE(deep->steps[2].index);
  CU_ASSERT_EQUAL(deep->steps[2].key->ck, IR_K_INT);
  CU_ASSERT_FALSE(deep->steps[0].declared);

  /* A call needing a path's value takes the path as its argument. */
  const ir_expr *len = node(&e, "len")->value;
  CU_ASSERT_EQUAL_FATAL(len->op, IR_APPLY);
  CU_ASSERT_EQUAL(len->kids[0]->op, IR_PATH);
  CU_ASSERT_EQUAL(len->kids[1]->op, IR_CALL);
  CU_ASSERT_EQUAL(len->kids[1]->a, (uint32_t)PCL__B_LENGTH);
  CU_ASSERT_STRING_EQUAL(ir_builtin_name((pcl__builtin_id)len->kids[1]->a), "length");
  env_close(&e);
}

/* Slots are unique within a module: every binding has its own. */
static void test_slots(void) {
  env e;
  env_lower(&e, "main.pp",
            "xs = [for x in [1, 2] : x]\n"
            "ys = [for x in [3] : [for y in [x] : y]]\n");
  const ir_expr *xs = node(&e, "xs")->value;
  const ir_expr *ys = node(&e, "ys")->value;
  CU_ASSERT_EQUAL_FATAL(xs->op, IR_FOR);
  CU_ASSERT_EQUAL_FATAL(ys->op, IR_FOR);
  const ir_expr *inner = ys->kids[1];
  CU_ASSERT_EQUAL_FATAL(inner->op, IR_FOR);
  CU_ASSERT_NOT_EQUAL(xs->b, ys->b);
  CU_ASSERT_NOT_EQUAL(ys->b, inner->b);
  CU_ASSERT(e.ir->nslots >= 3u);
  env_close(&e);
}

/* Emits the C of program text (read from path input) into a malloc'd
 * string. */
static char *emit_text(const char *text_in, const char *input, bool lines) {
  env e;
  env_lower(&e, input, text_in);
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  CU_ASSERT_FATAL(f != NULL);
  emit_options eo = {input, "main.c", "pclc test", lines};
  CU_ASSERT(emit_program(f, &eo, &e.src, &e.diags, e.ir));
  CU_ASSERT(e.diags.errors == 0);
  fclose(f);
  env_close(&e);
  return text;
}

/* Returns how many times needle occurs in hay. */
static size_t occurrences(const char *hay, const char *needle) {
  size_t n = 0;
  for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
    n++;
  return n;
}

static bool starts_with(const char *s, const char *prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

static void test_emit_deterministic(void) {
  char *a = emit_text(applies_src, "main.pp", false);
  char *b = emit_text(applies_src, "main.pp", false);
  CU_ASSERT_STRING_EQUAL(a, b);
  CU_ASSERT(starts_with(a, "/* Generated by pclc test from main.pp; do not edit. */\n"
                           "#include \"pcl_gen.h\"\n"));
  /* A libpclrt of another generated-code ABI refuses to compile it. */
  CU_ASSERT(strstr(a, "#if !defined(PCL_GEN_ABI) || PCL_GEN_ABI != ") != NULL);
  /* Without line directives there are none. */
  CU_ASSERT_EQUAL(occurrences(a, "#line"), 0u);
  /* The config table points each declaration at its `config` keyword. */
  CU_ASSERT(strstr(a, "{.name = \"s\", .type = &pcl_type_string, .secret = true, "
                        ".file = \"main.pp\", .line = 1, .col = 1},") != NULL);
  free(a);
  free(b);
}

/* With line directives, code maps to the .pp source and back to the C file
 * after it. */
static void test_emit_lines(void) {
  char *c = emit_text("a = 1 + 2\nb = \"${a}!\"\n", "main.pp", true);
  CU_ASSERT(strstr(c, "#line 1 \"main.pp\"") != NULL);
  CU_ASSERT(strstr(c, "#line 2 \"main.pp\"") != NULL);
  CU_ASSERT(strstr(c, "\"main.c\"") != NULL);
  free(c);
  /* The source is named as pclc was given it: a relative path stays
     relative, as it was written. */
  c = emit_text("config s \"string\" {\n}\na = \"${s}!\"\n", "../up/./main.pp", true);
  CU_ASSERT(starts_with(c, "/* Generated by pclc test from ../up/./main.pp; do not edit. */\n"));
  CU_ASSERT(strstr(c, "#line 3 \"../up/./main.pp\"\n") != NULL);
  CU_ASSERT(strstr(c, "    \"../up/./main.pp\",\n") != NULL);
  CU_ASSERT(strstr(c, ".file = \"../up/./main.pp\", .line = 1, .col = 1}") != NULL);
  free(c);
}

/* Every C line that #line directives give to the .pp file is given a line
 * that holds code: a C compiler numbers the lines after a directive on
 * from it, so a second statement of one source line must not fall on the
 * next source line (a blank or comment line here, where a debugger's
 * breakpoint would then stop).  The statements of one source line share
 * one C line, so that a directive stands only where the source line
 * changes: one C line follows each, and no two in a row name one line.
 * The lines given back to the C file get their real numbers. */
static void test_emit_line_attribution(void) {
  char *c = emit_text("x = 1\n"
                      "\n"
                      "# No code belongs to a comment.\n"
                      "a = x + 2\n"
                      "\n"
                      "b = \"${a}!\"\n"
                      "output o {\n"
                      "  value = [for v in [a, b] : \"<${v}>\" if v != \"\"]\n"
                      "}\n",
                      "main.pp", true);
  static const bool code[] = {false, true, false, false, true, false, true, true, true, false};
  size_t physical = 1, given = 1, pp_lines = 0, after_directive = 0;
  unsigned long last = 0;
  bool in_pp = false;
  for (const char *p = c; *p; physical++) {
    const char *nl = strchr(p, '\n');
    size_t len = nl ? (size_t)(nl - p) : strlen(p);
    unsigned long n;
    char file[16];
    if (sscanf(p, "#line %lu \"%15[^\"]\"", &n, file) == 2) {
      in_pp = strcmp(file, "main.pp") == 0;
      if (!in_pp)
        CU_ASSERT_EQUAL(n, physical + 1);
      CU_ASSERT(!in_pp || n != last);
      last = in_pp ? n : 0;
      given = (size_t)n;
      after_directive = 0;
    } else {
      if (in_pp) {
        CU_ASSERT(given < sizeof code / sizeof code[0] && code[given]);
        CU_ASSERT_EQUAL(++after_directive, 1u);
        pp_lines++;
      }
      given++;
    }
    p += len + (nl != NULL);
  }
  CU_ASSERT(pp_lines >= 5u);
  free(c);
}

static void test_emit_constants(void) {
  char *c = emit_text("a = \"dup\"\nb = \"dup\"\nc = [\"dup\", 7, 7]\n", "dir*/main.pp", false);
  /* Equal constants are written once, whichever node holds them. */
  CU_ASSERT_EQUAL(occurrences(c, "PCL_STATIC_ASCII(\"dup\")"), 1u);
  CU_ASSERT_EQUAL(occurrences(c, "PCL_STATIC_INT(7)"), 1u);
  /* A constant list is folded into one static value. */
  CU_ASSERT_EQUAL(occurrences(c, "PCL_STATIC_LIST("), 1u);
  /* A comment terminator in the path cannot end the header comment. */
  CU_ASSERT(starts_with(c, "/* Generated by pclc test from dir*\\/main.pp; do not edit. */\n"));
  /* The program is named after the input's base name without `.pp`. */
  CU_ASSERT(strstr(c, "\"main\"") != NULL);
  free(c);
}

/* String constants are written in NFC (every string value is, D9),
 * so two spellings of one string are one constant. */
static void test_emit_nfc(void) {
  char *c = emit_text("a = \"e\xcc\x81\"\nb = \"\xc3\xa9\"\n", "main.pp", false);
  CU_ASSERT_EQUAL(occurrences(c, "\"\\303\\251\""), 1u);
  CU_ASSERT_EQUAL(occurrences(c, "\\314\\201"), 0u);
  free(c);
}

/* Returns the index in pclg_k of the constant written as entry in the C
 * text c (one constant per line, the table after its forward declaration),
 * or -1. */
static int const_index(const char *c, const char *entry) {
  const char *p = strstr(c, "static pcl_value pclg_k[");
  p = p ? strstr(p + 1, "static pcl_value pclg_k[") : NULL;
  if (p == NULL)
    return -1;
  p = strchr(p, '\n') + 1;
  for (int i = 0; strncmp(p, "};", 2) != 0; i++) {
    const char *end = strchr(p, '\n');
    const char *hit = strstr(p, entry);
    if (hit && hit < end)
      return i;
    p = end + 1;
  }
  return -1;
}

/* A static map lists its keys in order, whatever order the source wrote. */
static void test_emit_map_order(void) {
  char *c = emit_text("m = { zeta = 1, alpha = 2, mid = 3 }\n", "main.pp", false);
  int ka = const_index(c, "PCL_STATIC_ASCII(\"alpha\")");
  int km = const_index(c, "PCL_STATIC_ASCII(\"mid\")");
  int kz = const_index(c, "PCL_STATIC_ASCII(\"zeta\")");
  CU_ASSERT_FATAL(ka >= 0 && km >= 0 && kz >= 0);
  /* The key table pclg_p refers to the keys in order: alpha, mid, zeta. */
  const char *p = strstr(c, "pclg_p[] = {");
  CU_ASSERT_FATAL(p != NULL);
  char want[128];
  snprintf(want, sizeof want, "&pclg_k[%d],\n    &pclg_k[%d],\n    &pclg_k[%d],", ka, km, kz);
  CU_ASSERT(strstr(p, want) != NULL);
  CU_ASSERT_EQUAL(occurrences(c, "PCL_STATIC_MAP("), 1u);
  free(c);
}

/* Nodes of one shape share one function; what differs lives in rows. */
static void test_emit_shapes(void) {
  char *c = emit_text("config n \"int\" {\n}\n"
                      "a = n + 1\nb = n + 2\nc = n + 3\nd = \"${n}\"\n",
                      "main.pp", false);
  /* a, b and c run one function, named for its shape; d, alone with
     its shape, runs one named after it. */
  CU_ASSERT_EQUAL(occurrences(c, "{pclg_node1, "), 3u);
  CU_ASSERT(strstr(c, "{pclu_d, ") != NULL);
  CU_ASSERT(strstr(c, "pclu_a(") == NULL);
  CU_ASSERT(strstr(c, "pclu_b(") == NULL);
  CU_ASSERT(strstr(c, "pclg_node2") == NULL);
  /* Its comment shows the first of them and counts the others. */
  CU_ASSERT(strstr(c, "main.pp:3:1: a = n + 1, and 2 more nodes */\n"
                      "static pcl_value *pclg_node1(pcl_gen_env *e) {\n") != NULL);
  free(c);
}

/* Node names become C names: letters and digits as they are, `_` doubled,
 * `-` as _d, anything else as _x<hex>; a name met twice gets a suffix. */
static void test_emit_mangling(void) {
  char *c = emit_text("config \"my-key\" \"string\" {\n}\n"
                      "a-b = \"${my-key}!\"\n"
                      "a_b = [1]\n"
                      "\xc3\xa9t\xc3\xa9 = a_b[0] * 2\n",
                      "main.pp", false);
  CU_ASSERT(strstr(c, "pclu_my_dkey(") != NULL);
  CU_ASSERT(strstr(c, "pclu_a_db(") != NULL);
  CU_ASSERT(strstr(c, "pclu_a__b(") != NULL);
  CU_ASSERT(strstr(c, "pclu__xc3_xa9t_xc3_xa9(") != NULL);
  /* The comment of a node table entry names the node as written. */
  CU_ASSERT(strstr(c, "/* \xc3\xa9t\xc3\xa9 */") != NULL);
  free(c);
}

/* Functions are shared by their code, not by the IR that made it:
 * constants of different kinds are all read from the row, so locals of an
 * int, a string and a bool are one function, and a closure of the same code
 * serves nodes of different kinds. */
static void test_emit_same_code(void) {
  char *c = emit_text("config n \"int\" {\n}\n"
                      "a = 1\nb = \"x\"\nc = true\n"
                      "d = \"<${n}>\"\n"
                      "output o {\n  value = \"<${n}>\"\n}\n",
                      "main.pp", false);
  CU_ASSERT_EQUAL(occurrences(c, "{pclg_node1, "), 3u);
  CU_ASSERT(strstr(c, "pclu_b(") == NULL);
  /* The template is one apply body, created by d and by o. */
  CU_ASSERT_EQUAL(occurrences(c, "static pcl_value *pclg_apply"), 1u);
  CU_ASSERT_EQUAL(occurrences(c, ", pclg_apply1, "), 2u);
  free(c);
}

/* Returns a malloc'd copy of the function whose signature starts with
 * head in the C text c, up to its closing brace, or NULL. */
static char *function_text(const char *c, const char *head) {
  const char *p = strstr(c, head);
  const char *end = p ? strstr(p, "\n}\n") : NULL;
  if (end == NULL)
    return NULL;
  size_t n = (size_t)(end - p) + 3;
  char *f = malloc(n + 1);
  memcpy(f, p, n);
  f[n] = '\0';
  return f;
}

/* A function marks `(void)` exactly the parameters its code does not name:
 * a loop body that reads neither key nor value, one that reads the value,
 * and one that reads both. */
static void test_emit_unused_params(void) {
  char *c = emit_text("a = [for x in [1, 2] : \"k\"]\n"
                      "b = [for x in [1, 2] : x]\n"
                      "c = {for k, v in {p = 1} : k => v}\n",
                      "main.pp", false);
  char *none = function_text(c, "static bool pclg_each1(");
  char *value = function_text(c, "static bool pclg_each2(");
  char *both = function_text(c, "static bool pclg_each3(");
  CU_ASSERT_FATAL(none && value && both);
  /* "k" is read from the row, through the environment. */
  CU_ASSERT(strstr(none, "  (void)key;\n  (void)value;\n  (void)err;\n") != NULL);
  CU_ASSERT(strstr(none, "(void)e;") == NULL);
  /* x needs no row, so not even the environment. */
  CU_ASSERT(strstr(value, "  (void)e;\n  (void)key;\n  (void)err;\n") != NULL);
  CU_ASSERT(strstr(value, "(void)value;") == NULL);
  CU_ASSERT(strstr(both, "(void)key;") == NULL);
  CU_ASSERT(strstr(both, "(void)value;") == NULL);
  free(none);
  free(value);
  free(both);
  free(c);
}

/* The comment of a row names its node and the constants it refers to:
 * strings quoted and cut short, numbers as written, comment terminators
 * broken. */
static void test_emit_row_comments(void) {
  char *c = emit_text("config n \"int\" {\n}\n"
                      "o = [n, \"0123456789012345678901234567\", 2.50, true, null, \"a*/b\"]\n",
                      "main.pp", false);
  CU_ASSERT(strstr(c, "    /* o: \"012345678901234567890123...\", 2.50, true, null, \"a*\\/b\" */ ") !=
            NULL);
  free(c);
}

/* The C writer's mangling is one to one. */
static void test_mangle(void) {
  static const char *const cases[][2] = {
      {"plain9", "plain9"}, {"my-key", "my_dkey"},   {"a_b", "a__b"},
      {"a.b", "a_x2eb"},    {"\xc3\xa9", "_xc3_xa9"}, {"_x2e", "__x2e"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    cw w = PCL__BUF_INIT;
    cw_mangle(&w, cases[i][0]);
    CU_ASSERT_STRING_EQUAL(w.data, cases[i][1]);
    pcl__buf_free(&w);
  }
}

static void test_cstring(void) {
  cw w = PCL__BUF_INIT;
  cw_cstring(&w, "a\"b\\c?\n\0\xc3\xa9", 10);
  CU_ASSERT_STRING_EQUAL(w.data, "\"a\\\"b\\\\c\\?\\012\\000\\303\\251\"");
  pcl__buf_free(&w);
  pcl__buf_printf(&w, "%d-%s", 7, "x");
  cw_uint(&w, 18446744073709551615ull);
  CU_ASSERT_STRING_EQUAL(w.data, "7-x18446744073709551615");
  pcl__buf_free(&w);
}

void register_backend_tests(void);
void register_backend_tests(void) {
  CU_pSuite s = CU_add_suite("backend", NULL, NULL);
  CU_add_test(s, "applies: dedup, minimal wrapping, conditionals, paths", test_applies);
  CU_add_test(s, "every binding has its own slot", test_slots);
  CU_add_test(s, "emitted C is deterministic", test_emit_deterministic);
  CU_add_test(s, "#line directives on request", test_emit_lines);
  CU_add_test(s, "#line directives give code only to its own lines", test_emit_line_attribution);
  CU_add_test(s, "emitted constants are shared, comments escaped", test_emit_constants);
  CU_add_test(s, "emitted strings are in NFC", test_emit_nfc);
  CU_add_test(s, "static maps list keys in order", test_emit_map_order);
  CU_add_test(s, "one function per shape", test_emit_shapes);
  CU_add_test(s, "node names are mangled into C names", test_emit_mangling);
  CU_add_test(s, "functions are shared by their code", test_emit_same_code);
  CU_add_test(s, "unused parameters are marked (void)", test_emit_unused_params);
  CU_add_test(s, "rows name their node and constants", test_emit_row_comments);
  CU_add_test(s, "names are mangled one to one", test_mangle);
  CU_add_test(s, "C string literals", test_cstring);
}
