/* fuzz_parse: libFuzzer target for the front end (scanner, parser, AST dump
 * and diagnostic printing).
 *
 * Each input is parsed twice over: once as a whole file with parse_file, and
 * once as a standalone expression with parse_expression_text (the path the
 * type labels of config blocks take).  When the input is not valid UTF-8 or
 * holds NUL bytes -- which the parser rejects up front with one error -- a
 * sanitised copy with every offending byte replaced by '?' is parsed too, so
 * that mutations which break the encoding still reach the grammar.
 *
 * Besides the sanitizers, the target checks the parser's own promises and
 * aborts when one is broken:
 *   - parse_file returns true exactly when no error was reported;
 *   - a tree returned without errors is no deeper than twice its text is
 *     long (every level of nesting takes text of its own), has no
 *     missing child where ast.h says there is one, and every span lies in
 *     the file it belongs to, with start <= end;
 *   - the tree can be dumped and the diagnostics printed (into /dev/null).
 * Build and run it with `make fuzz` (see the Makefile). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "front/ast.h"
#include "base/diag.h"
#include "base/intern.h"
#include "front/parse.h"
#include "base/src.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Where dumps and diagnostics go; opened once for the whole run. */
static FILE *sink;

/* Aborts with a message naming the broken promise. */
static void fail(const char *what) {
  fprintf(stderr, "fuzz_parse: %s\n", what);
  abort();
}

/* Checks that span lies inside file `file` of length len. */
static void check_span(pcl_span span, uint32_t file, size_t len) {
  if (span.file != file)
    fail("span refers to another file");
  if (span.start > span.end)
    fail("span starts after it ends");
  if (span.end > len)
    fail("span ends past the end of the file");
}

static void check_node(const ast_node *n, uint32_t file, size_t len, size_t depth);

static void check_list(ast_list l, uint32_t file, size_t len, size_t depth) {
  for (size_t i = 0; i < l.count; i++)
    check_node(l.items[i], file, len, depth);
}

/* Checks a child that may legitimately be absent. */
static void check_opt(const ast_node *n, uint32_t file, size_t len, size_t depth) {
  if (n)
    check_node(n, file, len, depth);
}

/* Walks a successfully parsed tree: every required child present, spans in
 * range, depth within 2 * len + 2 (the root is at depth 1). */
static void check_node(const ast_node *n, uint32_t file, size_t len, size_t depth) {
  if (!n)
    fail("missing child in a tree parsed without errors");
  if (depth > 2 * len + 2)
    fail("tree deeper than twice its text is long");
  check_span(n->span, file, len);
  size_t d = depth + 1;
  switch (n->kind) {
  case AST_ATTRIBUTE:
    check_span(n->attribute.name.span, file, len);
    if (!n->attribute.name.text)
      fail("attribute without a name");
    check_node(n->attribute.value, file, len, d);
    break;
  case AST_BLOCK:
    check_span(n->block.type.span, file, len);
    for (size_t i = 0; i < n->block.nlabels; i++) {
      check_span(n->block.labels[i].span, file, len);
      if (!n->block.labels[i].text)
        fail("block label without text");
    }
    check_list(n->block.body, file, len, d);
    break;
  case AST_NUMBER:
    if (!n->number.text || !n->number.text[0])
      fail("number without text");
    break;
  case AST_BOOL:
  case AST_NULL:
    break;
  case AST_VARIABLE:
    if (!n->variable.name)
      fail("variable without a name");
    break;
  case AST_TEMPLATE:
    if (n->template.parts.count == 0)
      fail("template without parts");
    check_list(n->template.parts, file, len, d);
    break;
  case AST_TEMPLATE_LITERAL:
    if (!n->literal.text)
      fail("literal without text");
    break;
  case AST_TEMPLATE_IF:
    check_node(n->tif.cond, file, len, d);
    check_node(n->tif.then, file, len, d);
    check_opt(n->tif.else_, file, len, d);
    break;
  case AST_TEMPLATE_FOR:
    if (!n->tfor.value.text)
      fail("template for without a value variable");
    check_node(n->tfor.collection, file, len, d);
    check_node(n->tfor.body, file, len, d);
    break;
  case AST_GET_ATTR:
    check_node(n->get_attr.object, file, len, d);
    if (!n->get_attr.name.text)
      fail("attribute access without a name");
    break;
  case AST_INDEX:
    check_node(n->index.collection, file, len, d);
    check_node(n->index.key, file, len, d);
    if (n->index.legacy && n->index.key->kind != AST_NUMBER)
      fail("legacy index whose key is not a number");
    break;
  case AST_SPLAT:
    check_node(n->splat.source, file, len, d);
    check_node(n->splat.each, file, len, d);
    if (!n->splat.item || n->splat.item->kind != AST_SPLAT_ITEM)
      fail("splat without its splat-item");
    break;
  case AST_SPLAT_ITEM:
    break;
  case AST_CALL:
    if (!n->call.name.text)
      fail("call without a name");
    if (n->call.expand_final && n->call.args.count == 0)
      fail("expanding call without arguments");
    check_list(n->call.args, file, len, d);
    break;
  case AST_TUPLE:
    check_list(n->tuple.items, file, len, d);
    break;
  case AST_OBJECT:
    check_list(n->object.items, file, len, d);
    break;
  case AST_OBJECT_ITEM:
    check_node(n->item.key, file, len, d);
    check_node(n->item.value, file, len, d);
    break;
  case AST_FOR:
    if (!n->for_expr.value_var.text)
      fail("for expression without a value variable");
    check_node(n->for_expr.collection, file, len, d);
    if (n->for_expr.is_object)
      check_node(n->for_expr.key, file, len, d);
    else if (n->for_expr.key || n->for_expr.grouping)
      fail("tuple for expression with a key or grouping");
    check_node(n->for_expr.value, file, len, d);
    check_opt(n->for_expr.cond, file, len, d);
    break;
  case AST_UNARY:
    check_node(n->unary.operand, file, len, d);
    break;
  case AST_BINARY:
    check_node(n->binary.lhs, file, len, d);
    check_node(n->binary.rhs, file, len, d);
    break;
  case AST_CONDITIONAL:
    check_node(n->cond.cond, file, len, d);
    check_node(n->cond.then, file, len, d);
    check_node(n->cond.else_, file, len, d);
    break;
  case AST_PAREN:
    check_node(n->paren.inner, file, len, d);
    break;
  }
}

/* Parses text (len bytes) as a file and as an expression, checking the
 * promises listed at the top of this file. */
static void run_one(const char *text, size_t len) {
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
  bool ok = parse_file(&env, id, &file);
  if (ok != (diags.errors == 0))
    fail("parse_file's result disagrees with the errors it reported");
  if (ok) {
    check_list(file.body, id, len, 1);
    ast_program prog = {&file, 1};
    /* The dump stops only at a tree too deep for the stack, and says so. */
    size_t before = diags.errors;
    if (ast_dump(sink, &src, &prog, &diags) != (diags.errors == before))
      fail("ast_dump's result disagrees with the errors it reported");
  }
  diag_print(&diags, sink);
  diag_free(&diags);

  /* The same bytes as one expression, with precise spans (the source under
     `where` is exactly the text). */
  diag_init(&diags, &src);
  size_t before = diags.errors;
  ast_node *e = parse_expression_text(&env, text, len, (pcl_span){id, 0, (uint32_t)len});
  if ((e != NULL) != (diags.errors == before))
    fail("parse_expression_text's result disagrees with the errors it reported");
  if (e)
    check_node(e, id, len, 1);
  diag_print(&diags, sink);

  diag_free(&diags);
  src_free(&src);
  intern_free(&names);
  arena_free(&a);
}

/* Returns the length of the well-formed UTF-8 sequence at s, or 0. */
static size_t utf8_len(const unsigned char *s, size_t avail) {
  unsigned char c = s[0];
  if (c > 0 && c < 0x80)
    return 1;
  size_t len;
  unsigned char lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    lo = c == 0xE0 ? 0xA0 : 0x80;
    hi = c == 0xED ? 0x9F : 0xBF;
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    lo = c == 0xF0 ? 0x90 : 0x80;
    hi = c == 0xF4 ? 0x8F : 0xBF;
  } else {
    return 0;
  }
  if (avail < len || s[1] < lo || s[1] > hi)
    return 0;
  for (size_t i = 2; i < len; i++)
    if (s[i] < 0x80 || s[i] > 0xBF)
      return 0;
  return len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > UINT32_MAX / 2)
    return 0;
  if (!sink) {
    sink = fopen("/dev/null", "w");
    if (!sink)
      fail("cannot open /dev/null");
  }
  run_one((const char *)data, size);

  /* A copy with NUL bytes and malformed UTF-8 replaced, when it differs. */
  char *clean = malloc(size + 1);
  if (!clean)
    fail("out of memory");
  bool changed = false;
  for (size_t i = 0; i < size;) {
    size_t k = utf8_len(data + i, size - i);
    if (k == 0) {
      clean[i++] = '?';
      changed = true;
    } else {
      memcpy(clean + i, data + i, k);
      i += k;
    }
  }
  if (changed)
    run_one(clean, size);
  free(clean);
  return 0;
}
