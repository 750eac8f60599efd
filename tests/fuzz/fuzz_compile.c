/* fuzz_compile: libFuzzer target for the whole compiler pipeline (parse,
 * bind, check, lower, emit) on programs, and, built with FUZZ_SCHEMA, on
 * package schemas.
 *
 * The pipeline is driven only through the public functions of its modules
 * (parse_file, schema_set_new / schema_add_path / schema_load_file,
 * bind_program, lower_program, emit_program), the way compiler/main.c
 * drives it, so the target keeps working when a module's insides change.
 *
 * fuzz_compile: each input is one program file.  Package schemas come from
 * the folder named by the environment variable PCLC_FUZZ_SCHEMAS (the
 * conformance providers by `make fuzz`), loaded on demand as the program
 * names packages.
 *
 * fuzz_schema: each input is a program, a line "#pclc-fuzz-schema", and a
 * schema document.  The schema is written to a scratch file and loaded with
 * schema_load_file, then checked whole (schema_package_check decodes every
 * resource, function and type), and the program is compiled against it.
 *
 * Besides the sanitizers, the target checks the promises of the pipeline
 * and aborts when one is broken: a phase reports errors exactly when it
 * fails, the back end runs only on a program bound without errors and then
 * succeeds, and every diagnostic prints.  Component sources are looked up in
 * an empty scratch directory, so nothing outside the input is read. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/arena.h"
#include "front/ast.h"
#include "bind/bind.h"
#include "base/diag.h"
#include "emit/emit.h"
#include "base/intern.h"
#include "ir/ir.h"
#include "ir/lower.h"
#include "front/parse.h"
#include "base/ptrmap.h"
#include "schema/schema.h"
#include "base/src.h"
#include "types/ty.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The line that separates the program from the schema (fuzz_schema). */
static const char marker[] = "\n#pclc-fuzz-schema\n";

/* Where the C and the diagnostics go; opened once for the whole run. */
static FILE *sink;
/* An empty directory: the program's directory for component lookups. */
static char scratch_dir[64];
/* The scratch schema file of fuzz_schema, inside scratch_dir. */
static char schema_file[96];

/* Aborts with a message naming the broken promise. */
static void fail(const char *what) {
  fprintf(stderr, "fuzz_compile: %s\n", what);
  abort();
}

/* Removes the scratch directory when the fuzzer exits. */
static void cleanup(void) {
  remove(schema_file);
  rmdir(scratch_dir);
}

/* Makes the scratch directory once. */
static void setup(void) {
  if (sink)
    return;
  sink = fopen("/dev/null", "w");
  if (!sink)
    fail("cannot open /dev/null");
  snprintf(scratch_dir, sizeof scratch_dir, "/tmp/pclc-fuzz-XXXXXX");
  if (!mkdtemp(scratch_dir))
    fail("cannot make a scratch directory");
  snprintf(schema_file, sizeof schema_file, "%s/schema.json", scratch_dir);
  atexit(cleanup);
}

/* Writes the schema text to the scratch schema file. */
static void write_schema(const char *text, size_t len) {
  FILE *f = fopen(schema_file, "wb");
  if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0)
    fail("cannot write the scratch schema file");
}

/* Compiles the program text[0..len) to C, with package schemas from
 * PCLC_FUZZ_SCHEMAS, or from the scratch schema file when with_schema is
 * set, checking the promises listed at the top of this file. */
static void compile(const char *text, size_t len, bool with_schema) {
  arena a;
  intern_table names;
  src_set src;
  diag_list diags;
  arena_init(&a);
  intern_init(&names, &a);
  src_init(&src);
  diag_init(&diags, &src);
  parse_env env = {&a, &names, &src, &diags, 0};

  uint32_t id = src_add(&src, "fuzz.pp", text, len);
  ast_file file;
  memset(&file, 0, sizeof file);
  bool parsed = parse_file(&env, id, &file);
  if (parsed != (diags.errors == 0))
    fail("parse_file's result disagrees with the errors it reported");
  ty_ctx tyc;
  ty_ctx_init(&tyc, &a, &names);
  schema_set *schemas = schema_set_new(&tyc, &a, &names, &diags);
  if (with_schema) {
    schema_package *pkg = schema_load_file(schemas, schema_file);
    if (pkg)
      schema_package_check(schemas, pkg);
  } else {
    const char *dir = getenv("PCLC_FUZZ_SCHEMAS");
    if (dir && *dir && !schema_add_path(schemas, dir))
      fail("cannot read the schema folder PCLC_FUZZ_SCHEMAS");
  }
  if (parsed) {
    ast_program prog = {&file, 1};
    bind_ctx bc = {0};
    bc.arena = &a;
    bc.names = &names;
    bc.src = &src;
    bc.diag = &diags;
    bc.ty = &tyc;
    bc.schemas = schemas;
    size_t before = diags.errors;
    bnd_program *p = bind_program(&bc, &prog, scratch_dir);
    if (p == NULL)
      fail("bind_program returned no program");
    if (diags.errors == before) {
      lower_ctx lc = {&a, &tyc, &names, 0, {0}, &diags, false};
      ir_module *m = lower_program(&lc, p);
      ptrmap_free(&lc.component_types);
      if (m == NULL)
        fail("lower_program returned no module");
      /* Lowering fails only on an expression too deep for the stack, and
         reports it then. */
      if (lc.too_deep != (diags.errors != before))
        fail("lowering failed without an error, or reported one without failing");
      emit_options eo = {"fuzz.pp", "fuzz.c", "pclc fuzz", true};
      /* The emitter fails only on an expression too deep for its stack,
         and reports it then. */
      if (!lc.too_deep) {
        bool written = emit_program(sink, &eo, &src, &diags, m);
        if (written != (diags.errors == before))
          fail("emit_program failed without an error, or reported one and wrote the program");
      }
    }
  }
  diag_print(&diags, sink);
  schema_set_free(schemas);
  ty_ctx_free(&tyc);
  diag_free(&diags);
  src_free(&src);
  intern_free(&names);
  arena_free(&a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > UINT32_MAX / 2)
    return 0;
  setup();
  const char *text = (const char *)data;
#ifdef FUZZ_SCHEMA
  size_t mlen = sizeof marker - 1, plen = 0;
  while (plen + mlen <= size && memcmp(text + plen, marker, mlen) != 0)
    plen++;
  if (plen + mlen > size)
    return 0;
  write_schema(text + plen + mlen, size - plen - mlen);
  compile(text, plen, true);
#else
  (void)marker;
  (void)write_schema;
  compile(text, size, false);
#endif
  return 0;
}
