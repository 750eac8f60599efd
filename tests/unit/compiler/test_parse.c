/* Unit tests of the parse module's public API: parse_file on in-memory
 * sources (tree shapes for the tricky cases of syntax.md §8, template strip
 * markers and heredoc trimming, error messages and their positions),
 * parse_expression_text (precise spans inside a bare or quoted label,
 * clamped spans otherwise, rejection of trailing junk), parse_program's I/O
 * errors, and the depth limit that keeps walkers off deep recursion. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "front/parse.h"
#include "base/util.h"

typedef struct fixture {
  arena arena;
  intern_table names;
  src_set src;
  diag_list diags;
  parse_env env;
} fixture;

static void fx_open(fixture *f) {
  arena_init(&f->arena);
  intern_init(&f->names, &f->arena);
  src_init(&f->src);
  diag_init(&f->diags, &f->src);
  f->env = (parse_env){&f->arena, &f->names, &f->src, &f->diags, 0};
}

static void fx_close(fixture *f) {
  diag_free(&f->diags);
  src_free(&f->src);
  intern_free(&f->names);
  arena_free(&f->arena);
}

/* Parses text as file "t.pp"; returns whether it parsed without errors. */
static bool parse_text(fixture *f, const char *text, ast_file *out) {
  uint32_t id = src_add(&f->src, "t.pp", text, strlen(text));
  return parse_file(&f->env, id, out);
}

/* Returns the first diagnostic's "line:col: message". */
static const char *first_error(fixture *f) {
  static char buf[1024];
  if (!f->diags.head)
    return "";
  diag *g = f->diags.head;
  src_pos p = src_position(&f->src, g->span.file, g->span.start);
  snprintf(buf, sizeof buf, "%zu:%zu: %s", p.line, p.column, g->message);
  return buf;
}

/* Returns the value of the only attribute of a one-line file. */
static ast_node *value_of(fixture *f, const char *text) {
  ast_file file;
  bool ok = parse_text(f, text, &file);
  CU_ASSERT_TRUE_FATAL(ok);
  CU_ASSERT_EQUAL_FATAL(file.body.count, 1);
  CU_ASSERT_EQUAL_FATAL(file.body.items[0]->kind, AST_ATTRIBUTE);
  return file.body.items[0]->attribute.value;
}

/* The text of a template's part i, which must be a literal. */
static const char *literal_text(ast_node *tmpl, size_t i) {
  CU_ASSERT_EQUAL_FATAL(tmpl->kind, AST_TEMPLATE);
  CU_ASSERT_TRUE_FATAL(i < tmpl->template.parts.count);
  ast_node *lit = tmpl->template.parts.items[i];
  CU_ASSERT_EQUAL_FATAL(lit->kind, AST_TEMPLATE_LITERAL);
  return lit->literal.text;
}

static void test_identifiers_and_keywords(void) {
  fixture f;
  fx_open(&f);
  ast_node *v = value_of(&f, "a = a-b\n");
  CU_ASSERT_EQUAL(v->kind, AST_VARIABLE);
  CU_ASSERT_STRING_EQUAL(v->variable.name, "a-b");
  v = value_of(&f, "a = a - b\n");
  CU_ASSERT_EQUAL(v->kind, AST_BINARY);
  CU_ASSERT_EQUAL(v->binary.op, AST_OP_SUB);
  v = value_of(&f, "__logicalName = true\n");
  CU_ASSERT_EQUAL(v->kind, AST_BOOL);
  CU_ASSERT_TRUE(v->boolean.value);
  v = value_of(&f, "x = null\n");
  CU_ASSERT_EQUAL(v->kind, AST_NULL);
  /* Interned: the same name gives the same pointer. */
  v = value_of(&f, "x = {foo = foo}\n");
  ast_node *item = v->object.items.items[0];
  CU_ASSERT_PTR_EQUAL(item->item.key->variable.name, item->item.value->variable.name);
  fx_close(&f);
}

static void test_precedence(void) {
  fixture f;
  fx_open(&f);
  /* -a.b + c * d ? e : f  ==  ((-(a.b)) + (c * d)) ? e : f */
  ast_node *v = value_of(&f, "x = -a.b + c * d ? e : f\n");
  CU_ASSERT_EQUAL_FATAL(v->kind, AST_CONDITIONAL);
  ast_node *sum = v->cond.cond;
  CU_ASSERT_EQUAL_FATAL(sum->kind, AST_BINARY);
  CU_ASSERT_EQUAL(sum->binary.op, AST_OP_ADD);
  CU_ASSERT_EQUAL(sum->binary.lhs->kind, AST_UNARY);
  CU_ASSERT_EQUAL(sum->binary.lhs->unary.operand->kind, AST_GET_ATTR);
  CU_ASSERT_EQUAL(sum->binary.rhs->binary.op, AST_OP_MUL);
  /* Conditionals nest to the right. */
  v = value_of(&f, "x = a ? b : c ? d : e\n");
  CU_ASSERT_EQUAL(v->cond.else_->kind, AST_CONDITIONAL);
  /* Comparisons chain to the left. */
  v = value_of(&f, "x = a < b < c\n");
  CU_ASSERT_EQUAL(v->binary.lhs->kind, AST_BINARY);
  fx_close(&f);
}

static void test_traversals(void) {
  fixture f;
  fx_open(&f);
  ast_node *v = value_of(&f, "x = a.0\n");
  CU_ASSERT_EQUAL_FATAL(v->kind, AST_INDEX);
  CU_ASSERT_TRUE(v->index.legacy);
  CU_ASSERT_STRING_EQUAL(v->index.key->number.text, "0");
  /* a.*.b[0] indexes the splat's result. */
  v = value_of(&f, "x = a.*.b[0]\n");
  CU_ASSERT_EQUAL_FATAL(v->kind, AST_INDEX);
  ast_node *s = v->index.collection;
  CU_ASSERT_EQUAL_FATAL(s->kind, AST_SPLAT);
  CU_ASSERT_FALSE(s->splat.full);
  CU_ASSERT_EQUAL(s->splat.each->kind, AST_GET_ATTR);
  CU_ASSERT_PTR_EQUAL(s->splat.each->get_attr.object, s->splat.item);
  /* a[*].b[0] applies every later step to each element. */
  v = value_of(&f, "x = a[*].b[0]\n");
  CU_ASSERT_EQUAL_FATAL(v->kind, AST_SPLAT);
  CU_ASSERT_TRUE(v->splat.full);
  CU_ASSERT_EQUAL(v->splat.each->kind, AST_INDEX);
  CU_ASSERT_EQUAL(v->span.end, strlen("x = a[*].b[0]"));
  /* A negative index is an expression, not a literal. */
  v = value_of(&f, "x = a[-1]\n");
  CU_ASSERT_EQUAL(v->index.key->kind, AST_UNARY);
  fx_close(&f);
}

static void test_for_and_objects(void) {
  fixture f;
  fx_open(&f);
  ast_node *v = value_of(&f, "x = {for k, v in m : k => v... if k != \"\"}\n");
  CU_ASSERT_EQUAL_FATAL(v->kind, AST_FOR);
  CU_ASSERT_TRUE(v->for_expr.is_object);
  CU_ASSERT_TRUE(v->for_expr.grouping);
  CU_ASSERT_STRING_EQUAL(v->for_expr.key_var.text, "k");
  CU_ASSERT_PTR_NOT_NULL(v->for_expr.cond);
  /* `{` newline `for` is still a for expression. */
  v = value_of(&f, "x = {\n  for v in m : v => 1\n}\n");
  CU_ASSERT_EQUAL(v->kind, AST_FOR);
  CU_ASSERT_PTR_NULL(v->for_expr.key_var.text);
  /* Items separated by commas and newlines, keys as written. */
  v = value_of(&f, "x = {\n  a = 1,\n\n  (k) = 2\n  \"s\": 3, true = 4\n}\n");
  CU_ASSERT_EQUAL_FATAL(v->kind, AST_OBJECT);
  CU_ASSERT_EQUAL_FATAL(v->object.items.count, 4);
  CU_ASSERT_EQUAL(v->object.items.items[1]->item.key->kind, AST_PAREN);
  CU_ASSERT_TRUE(v->object.items.items[2]->item.colon);
  CU_ASSERT_EQUAL(v->object.items.items[3]->item.key->kind, AST_BOOL);
  fx_close(&f);
}

static void test_templates(void) {
  fixture f;
  fx_open(&f);
  ast_node *v = value_of(&f, "x = \"a ${~ b ~} c\\n\\u00e9$${d}%%{e}\"\n");
  CU_ASSERT_STRING_EQUAL(literal_text(v, 0), "a");
  CU_ASSERT_STRING_EQUAL(literal_text(v, 2), "c\n\xc3\xa9${d}%{e}");
  v = value_of(&f, "x = \"\"\n");
  CU_ASSERT_EQUAL(v->template.parts.count, 1);
  CU_ASSERT_STRING_EQUAL(literal_text(v, 0), "");
  /* Heredoc: escapes are not processed, the value ends with a newline. */
  v = value_of(&f, "x = <<EOT\nhi\\n\nEOT\n");
  CU_ASSERT_TRUE(v->template.heredoc);
  CU_ASSERT_STRING_EQUAL(literal_text(v, 0), "hi\\n\n");
  /* Flush heredoc: tabs count one each, blank lines are ignored. */
  v = value_of(&f, "x = <<-EOT\n\t\tfoo\n\t  bar\n\n\t\tbaz\n\tEOT\n");
  CU_ASSERT_STRING_EQUAL(literal_text(v, 0), "foo\n bar\n\nbaz\n");
  /* A line starting with an interpolation disables trimming. */
  v = value_of(&f, "x = <<-EOT\n    a\n${b}\n    c\nEOT\n");
  CU_ASSERT_STRING_EQUAL(literal_text(v, 0), "    a\n");
  /* ${~ strips only back to the previous line break in a heredoc. */
  v = value_of(&f, "x = <<EOT\na\n  \n  ${~b}\nEOT\n");
  CU_ASSERT_STRING_EQUAL(literal_text(v, 0), "a\n  \n");
  /* Directives. */
  v = value_of(&f, "x = \"%{if c}y%{else}n%{endif}%{for k, v in m}${v}%{endfor}\"\n");
  CU_ASSERT_EQUAL_FATAL(v->template.parts.count, 2);
  ast_node *tif = v->template.parts.items[0];
  CU_ASSERT_EQUAL_FATAL(tif->kind, AST_TEMPLATE_IF);
  CU_ASSERT_STRING_EQUAL(literal_text(tif->tif.then, 0), "y");
  CU_ASSERT_STRING_EQUAL(literal_text(tif->tif.else_, 0), "n");
  ast_node *tfor = v->template.parts.items[1];
  CU_ASSERT_EQUAL_FATAL(tfor->kind, AST_TEMPLATE_FOR);
  CU_ASSERT_STRING_EQUAL(tfor->tfor.key.text, "k");
  CU_ASSERT_STRING_EQUAL(tfor->tfor.value.text, "v");
  fx_close(&f);
}

static void test_newlines_and_comments(void) {
  fixture f;
  fx_open(&f);
  ast_file file;
  /* Block comments never end a line; line comments always do. */
  CU_ASSERT_TRUE(parse_text(&f, "a = 1 /* x\n y */ + 2 # c\nb = (1 +\n 2)\n", &file));
  CU_ASSERT_EQUAL(file.body.count, 2);
  /* CRLF, a BOM, and no final newline. */
  CU_ASSERT_TRUE(parse_text(&f, "\xef\xbb\xbf" "a = 1\r\nb = 2", &file));
  CU_ASSERT_EQUAL(file.body.count, 2);
  /* One-line blocks. */
  CU_ASSERT_TRUE(parse_text(&f, "options { range = 3 }\nempty {}\n", &file));
  CU_ASSERT_TRUE(file.body.items[0]->block.one_line);
  CU_ASSERT_FALSE(file.body.items[1]->block.one_line);
  fx_close(&f);
}

/* Each case: source (len 0: up to its NUL), and the expected first error
 * "line:col: message" (compared up to the length of the expectation). */
static void test_errors(void) {
  static const struct {
    const char *src;
    size_t len;
    const char *want;
  } cases[] = {
      {"a = \"\\a\"\n", 0,
       "1:6: Invalid escape sequence: The symbol \"a\" is not a valid escape sequence "
       "selector."},
      {"a = 1 b\n", 0, "1:7: Missing newline after argument"},
      {"a = 1,\n", 0, "1:6: Unexpected comma after argument"},
      {"a = 1\na = 2\n", 0, "2:1: Attribute redefined"},
      {"resource x\n{\n}\n", 0, "1:11: Invalid block definition"},
      {"options { a = 1, b = 2 }\n", 0, "1:16: Invalid single-argument block definition"},
      {"a = \"abc\n", 0, "1:5: Unterminated template string"},
      {"a = x.0.1\n", 0, "1:7: Invalid legacy index syntax"},
      {"a = [1 2]\n", 0, "1:8: Missing item separator"},
      {"a = b[\n*]\n", 0, "2:1: Invalid expression"},
      {"a = b[*\n]\n", 0, "1:8: Missing close bracket on splat index"},
      {"a = <<EOT\nx\nEOT", 0, "3:4: Unterminated template string"},
      {"a = <<EOT\nx\ry\nEOT\n", 0, "2:2: Invalid character: A carriage return"},
      {"a = f(1, 2", 0, "1:5: Unterminated function call"},
      {"a = [1, 2", 0, "1:5: Unterminated tuple constructor expression"},
      {"a = [1,\n", 0, "2:1: Missing expression"},
      {"a = { b = 1", 0, "1:5: Unterminated object constructor expression"},
      {"a = b[0", 0, "1:8: Missing close bracket on index"},
      {"a = \"%{foo}\"\n", 0, "1:8: Invalid template control keyword"},
      {"a = 1 & 2\n", 0, "1:7: Unsupported operator"},
      {"a = \"x\0y\"\n", 10, "1:7: Invalid character"},
      {"a = \"\xff\"\n", 0, "1:6: Invalid character encoding"},
      {"a = (1\n", 0, "2:1: Unbalanced parentheses"},
      {"a = b ?\n c : d\n", 0, "1:8: Invalid expression"},
      {"a = f(x...,y)\n", 0, "1:11: Missing closing parenthesis"},
      {"resource x {\n", 0, "1:12: Unclosed configuration block"},
      {"a = ", 0, "1:5: Missing expression"},
      {"a = [for x in y : k => v]\n", 0, "1:21: Invalid 'for' expression: Key expression"},
      {"resource x \"t\" { options { range = 3 } }\n", 0, "1:26: Argument definition required"},
      {"a = [for x xs : x]\n", 0, "1:12: Invalid 'for' expression: For expression requires"},
      {"a = \"%{for x xs}${x}%{endfor}\"\n", 0, "1:14: Invalid 'for' directive"},
      {"a = [for x in xs : x if x y]\n", 0, "1:27: Invalid 'for' expression: Extra characters"},
      {"a = b ? c\n", 0, "1:10: Missing false expression in conditional"},
      {"a = 5.\n", 0, "1:7: Invalid attribute name"},
      {"a = a.*.b.*\n", 0, "1:11: Nested splat expression not allowed"},
      {"a = \"%{if x}a\"\n", 0, "1:14: Unexpected end of template"},
      {"a = 1 /* x\n", 0, "1:7: Unterminated comment"},
  };
  for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
    fixture f;
    fx_open(&f);
    size_t len = cases[i].len ? cases[i].len : strlen(cases[i].src);
    uint32_t id = src_add(&f.src, "t.pp", cases[i].src, len);
    ast_file file;
    CU_ASSERT_FALSE(parse_file(&f.env, id, &file));
    const char *got = first_error(&f);
    if (strncmp(got, cases[i].want, strlen(cases[i].want)) != 0) {
      fprintf(stderr, "\ncase %zu: got \"%s\"\n  expected \"%s\"\n", i, got, cases[i].want);
      CU_FAIL("wrong first error");
    }
    fx_close(&f);
  }
}

static void test_expression_text(void) {
  fixture f;
  fx_open(&f);
  const char *text = "config a \"list(string)\" {}\nconfig b int {}\nconfig c \"a\\u0028\" {}\n";
  uint32_t id = src_add(&f.src, "t.pp", text, strlen(text));
  /* A quoted label: spans fall inside the quotes. */
  pcl_span where = {id, 9, 23};
  ast_node *e = parse_expression_text(&f.env, "list(string)", 12, where);
  CU_ASSERT_PTR_NOT_NULL_FATAL(e);
  CU_ASSERT_EQUAL(e->kind, AST_CALL);
  CU_ASSERT_EQUAL(e->span.start, 10);
  CU_ASSERT_EQUAL(e->span.end, 22);
  CU_ASSERT_EQUAL(e->call.args.items[0]->span.start, 15);
  /* A bare label. */
  where = (pcl_span){id, 36, 39};
  e = parse_expression_text(&f.env, "int", 3, where);
  CU_ASSERT_PTR_NOT_NULL_FATAL(e);
  CU_ASSERT_EQUAL(e->kind, AST_VARIABLE);
  CU_ASSERT_EQUAL(e->span.start, 36);
  CU_ASSERT_EQUAL(e->span.end, 39);
  /* Text that differs from the source (escapes): every span is `where`. */
  where = (pcl_span){id, 52, 62};
  e = parse_expression_text(&f.env, "a(", 2, where);
  CU_ASSERT_PTR_NULL(e);
  CU_ASSERT_EQUAL(f.diags.errors, 1);
  CU_ASSERT_EQUAL(f.diags.head->span.start, 52);
  CU_ASSERT_EQUAL(f.diags.head->span.end, 62);
  e = parse_expression_text(&f.env, "map(\n number )", 14, where);
  CU_ASSERT_PTR_NOT_NULL_FATAL(e);
  CU_ASSERT_EQUAL(e->span.start, 52);
  /* Trailing junk is an error. */
  CU_ASSERT_PTR_NULL(parse_expression_text(&f.env, "a b", 3, where));
  CU_ASSERT_PTR_NULL(parse_expression_text(&f.env, "", 0, where));
  fx_close(&f);
}

static void test_program_io(void) {
  fixture f;
  fx_open(&f);
  ast_program prog;
  CU_ASSERT_EQUAL(parse_program(&f.env, "tests/unit/no-such-file.pp", &prog), PARSE_IO_ERROR);
  CU_ASSERT_FALSE(f.diags.head->has_span);
  CU_ASSERT_STRING_EQUAL(f.diags.head->message,
                         "cannot read 'tests/unit/no-such-file.pp': No such file or directory");
  fx_close(&f);
  fx_open(&f);
  CU_ASSERT_EQUAL(parse_program(&f.env, "tests/unit", &prog), PARSE_IO_ERROR);
  CU_ASSERT_STRING_EQUAL(f.diags.head->message, "no .pp files in directory 'tests/unit'");
  fx_close(&f);
}

/* Nesting is limited only by LEX_MAX_NESTING (a safety valve) and memory:
   HCL's depths parse, and a chain of operators makes a deep tree that no
   later walk rejects. */
static void test_depth_limit(void) {
  fixture f;
  fx_open(&f);
  size_t cap = 1000000;
  char *src = xmalloc(cap);
  size_t n = (size_t)snprintf(src, cap, "a = ");
  for (int i = 0; i < 10000; i++)
    src[n++] = '[';
  for (int i = 0; i < 10000; i++)
    src[n++] = ']';
  src[n++] = '\n';
  src[n] = '\0';
  ast_file file;
  CU_ASSERT_TRUE(parse_text(&f, src, &file));
  fx_close(&f);
  /* Beyond the safety valve (lowered here): one clear error; the limit
     itself is accepted. */
  fx_open(&f);
  f.env.max_nesting = 3;
  CU_ASSERT_TRUE(parse_text(&f, "a = [{b = (1)}]\n", &file));
  CU_ASSERT_FALSE(parse_text(&f, "a = [{b = ((1))}]\n", &file));
  CU_ASSERT_EQUAL(f.diags.errors, 1);
  CU_ASSERT_STRING_EQUAL(f.diags.head->message,
                         "Nesting too deep: Brackets, braces and templates may be nested at "
                         "most 3 levels deep.");
  fx_close(&f);
  /* Far deeper than HCL needs, and far below the default limit. */
  fx_open(&f);
  n = (size_t)snprintf(src, cap, "a = ");
  for (int i = 0; i < 100000; i++)
    src[n++] = '(';
  src[n++] = '1';
  for (int i = 0; i < 100000; i++)
    src[n++] = ')';
  src[n] = '\0';
  CU_ASSERT_TRUE(parse_text(&f, src, &file));
  fx_close(&f);
  /* A long chain of operators is a deep tree. */
  fx_open(&f);
  n = (size_t)snprintf(src, cap, "a = ");
  for (int i = 0; i < 100000; i++) {
    memcpy(src + n, "x + ", 4);
    n += 4;
  }
  memcpy(src + n, "x\n", 3);
  CU_ASSERT_TRUE(parse_text(&f, src, &file));
  CU_ASSERT_EQUAL(f.diags.errors, 0);
  fx_close(&f);
  free(src);
}

void register_parse_tests(void);
void register_parse_tests(void) {
  CU_pSuite s = CU_add_suite("parse", NULL, NULL);
  CU_add_test(s, "identifiers and keywords", test_identifiers_and_keywords);
  CU_add_test(s, "precedence", test_precedence);
  CU_add_test(s, "traversals and splats", test_traversals);
  CU_add_test(s, "for expressions and objects", test_for_and_objects);
  CU_add_test(s, "templates and heredocs", test_templates);
  CU_add_test(s, "newlines and comments", test_newlines_and_comments);
  CU_add_test(s, "error messages", test_errors);
  CU_add_test(s, "parse_expression_text", test_expression_text);
  CU_add_test(s, "parse_program I/O errors", test_program_io);
  CU_add_test(s, "depth limit", test_depth_limit);
}
