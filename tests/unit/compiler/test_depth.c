/* test_depth.c: every recursive phase stops at the end of its stack.
 *
 * A program nested DEPTH deep is parsed (the parser does not recurse), then
 * each phase runs once on a thread with a stack too small for it, where it
 * must report "expression nested too deeply" once, at the place it could
 * not enter, and stop without crashing (AddressSanitizer would report an
 * overflow), and once on the phases' large stack (stack_run), where it must
 * succeed: the AST dump, binding and checking, lowering, the IR dump and
 * the emitter, which must write nothing when it stops.  (The type
 * operations' guard is test_ty's; pclc's own runs, deep.py's.) */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/stack.h"
#include "base/util.h"
#include "bind/bind.h"
#include "emit/emit.h"
#include "front/ast.h"
#include "front/parse.h"
#include "ir/ir.h"
#include "ir/lower.h"
#include "small_stack.h"

/* Brackets nested this deep: more than the small stack holds in any
   phase, and what HCL accepts. */
enum { DEPTH = 10000, SMALL = 256 * 1024 };

/* The compilation the phases share. */
static arena g_arena;
static intern_table g_names;
static src_set g_src;
static diag_list g_diags;
static ty_ctx g_ty;
static ast_program g_prog;
static bnd_program *g_bound;
static ir_module *g_ir;
/* What the phase just run returned, and the bytes of C the emitter wrote. */
static bool g_ok;
static size_t g_written;

static int setup(void) {
  arena_init(&g_arena);
  intern_init(&g_names, &g_arena);
  src_init(&g_src);
  diag_init(&g_diags, &g_src);
  ty_ctx_init(&g_ty, &g_arena, &g_names);
  size_t len = 4 + 2 * DEPTH + 2;
  char *text = xmalloc(len + 1);
  memcpy(text, "a = ", 4);
  memset(text + 4, '[', DEPTH);
  text[4 + DEPTH] = '1';
  memset(text + 5 + DEPTH, ']', DEPTH);
  text[len - 1] = '\n';
  text[len] = '\0';
  uint32_t id = src_add(&g_src, "deep.pp", text, len);
  free(text);
  parse_env pe = {&g_arena, &g_names, &g_src, &g_diags, 0};
  ast_file *file = ARENA_NEW(&g_arena, ast_file);
  if (!parse_file(&pe, id, file))
    return 1;
  g_prog = (ast_program){file, 1};
  return 0;
}

static int teardown(void) {
  ty_ctx_free(&g_ty);
  diag_free(&g_diags);
  src_free(&g_src);
  intern_free(&g_names);
  arena_free(&g_arena);
  return 0;
}

/* Checks that the last phase reported exactly the nesting error, at a
   bracket of the program, and forgets the diagnostics. */
static void expect_too_deep(void) {
  CU_ASSERT_FALSE(g_ok);
  CU_ASSERT_EQUAL(g_diags.errors, 1);
  if (g_diags.head) {
    CU_ASSERT_STRING_EQUAL(g_diags.head->message, "expression nested too deeply");
    CU_ASSERT(g_diags.head->span.start >= 4 && g_diags.head->span.start < 4 + DEPTH);
  }
  diag_free(&g_diags);
  diag_init(&g_diags, &g_src);
}

/* Checks that the last phase succeeded without diagnostics. */
static void expect_whole(void) {
  CU_ASSERT_TRUE(g_ok);
  CU_ASSERT_EQUAL(g_diags.errors, 0);
}

/* The phases, each as a body for on_small_stack and stack_run. */
static void dump_ast(void) {
  FILE *sink = fopen("/dev/null", "w");
  g_ok = ast_dump(sink, &g_src, &g_prog, &g_diags);
  fclose(sink);
}

static void bind(void) {
  bind_ctx bc = {0};
  bc.arena = &g_arena;
  bc.names = &g_names;
  bc.src = &g_src;
  bc.diag = &g_diags;
  bc.ty = &g_ty;
  g_bound = bind_program(&bc, &g_prog, ".");
  g_ok = !g_bound->has_errors;
}

static void lower(void) {
  lower_ctx lc = {&g_arena, &g_ty, &g_names, 0, {0}, &g_diags, false};
  g_ir = lower_program(&lc, g_bound);
  ptrmap_free(&lc.component_types);
  g_ok = !lc.too_deep;
}

static void dump_ir(void) {
  FILE *sink = fopen("/dev/null", "w");
  g_ok = ir_dump(sink, &g_src, g_ir, &g_diags);
  fclose(sink);
}

static void emit(void) {
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  if (out == NULL) {
    g_ok = false;
    return;
  }
  emit_options eo = {"deep.pp", "deep.c", "pclc test", true};
  g_ok = emit_program(out, &eo, &g_src, &g_diags, g_ir);
  fclose(out);
  g_written = len;
  free(text);
}

/* The phase on_large_stack runs. */
static void (*g_phase)(void);

static int run_phase(void *unused) {
  (void)unused;
  g_phase();
  return 0;
}

/* Runs phase on the phases' large stack. */
static void on_large_stack(void (*phase)(void)) {
  g_phase = phase;
  stack_run(0, run_phase, NULL);
}

/* Each phase, on the small stack then on the large one; each later phase
   takes what the earlier one made on the large stack. */
static void test_phases(void) {
  on_small_stack(SMALL, dump_ast);
  expect_too_deep();
  on_large_stack(dump_ast);
  expect_whole();
  on_small_stack(SMALL, bind);
  expect_too_deep();
  on_large_stack(bind);
  expect_whole();
  on_small_stack(SMALL, lower);
  expect_too_deep();
  on_large_stack(lower);
  expect_whole();
  on_small_stack(SMALL, dump_ir);
  expect_too_deep();
  on_large_stack(dump_ir);
  expect_whole();
  on_small_stack(SMALL, emit);
  expect_too_deep();
  CU_ASSERT_EQUAL(g_written, 0);
  on_large_stack(emit);
  expect_whole();
  CU_ASSERT(g_written > 0);
}

void register_depth_tests(void);
void register_depth_tests(void) {
  CU_pSuite s = CU_add_suite("depth", setup, teardown);
  CU_add_test(s, "every phase stops at the end of its stack", test_phases);
}
