/* pcl.y: the grammar of PCL source (HCL native syntax, syntax.md §7).
 *
 * Input: the tokens of pcl.l, starting with START_FILE (a whole file: a body
 * of attributes and blocks) or START_EXPR (one standalone expression).
 * Output: AST nodes (ast.h) in the arena; ctx->body or ctx->expr.  Actions
 * only build nodes; the few checks made here are those that need the shape
 * of a construct as written (a template used as a block label, a legacy
 * index like `x.0.1`, the keywords of for expressions).
 *
 * Newlines reach the grammar only where the scanner decides they matter
 * (syntax.md §6), so attribute values and object items end at the end of a
 * line while parenthesised expressions may span lines.  Error recovery
 * resynchronises at the end of a body line, at `}` of blocks and objects,
 * at the commas and closing brackets of tuples, calls and objects, and at
 * the end of template sequences.  The messages come from
 * yyreport_syntax_error, which turns the parser's state (the tokens LAC says
 * would be accepted, and the innermost construct on the state stack) into
 * HCL's diagnostic titles where one applies and otherwise reports the
 * unexpected token and up to 4 expected ones (operators that could continue
 * an expression are left out of that list).  A wrong keyword where a for
 * expression needs `in` or `if` is reported by its action, which then starts
 * recovery with YYERROR so that no second message follows. */

%require "3.8"
%define api.pure full
%define api.prefix {pcl_yy}
%define api.token.prefix {TOK_}
%define api.location.type {pcl_span}
%define parse.error custom
%define parse.lac full
%locations
%header
/* No conflicts of any kind.  (`%expect-rr` is for GLR parsers only and
   bison -Werror rejects it here; a deterministic parser reports every
   reduce/reduce conflict anyway, which -Werror turns into a failure.) */
%expect 0
%lex-param {yyscan_t scanner}
%parse-param {yyscan_t scanner} {pcl_parse_ctx *ctx}

%code requires {
#include <stdbool.h>
#include <stddef.h>

#include "front/ast.h"
#include "front/lex.h"

#ifndef YY_TYPEDEF_YY_SCANNER_T
#define YY_TYPEDEF_YY_SCANNER_T
typedef void *yyscan_t;
#endif

/* A list of nodes being built (arena storage, grown by doubling). */
typedef struct parse_list {
  ast_node **items;
  size_t count, cap;
} parse_list;

/* Block labels being gathered. */
typedef struct parse_labels {
  ast_label *items;
  size_t count, cap;
} parse_labels;

/* A postfix chain being built: `node` is the whole expression so far.  Inside
 * a full splat `a[*]...`, later steps apply to each element: they extend
 * full->splat.each.  Inside an attribute-only splat `a.*...`, `.name` and
 * `.N` steps extend attr->splat.each. */
typedef struct parse_chain {
  ast_node *node;
  ast_node *full;
  ast_node *attr;
  uint32_t end; /* End offset of the last step. */
} parse_chain;
}

%code top {
/* The parser's stack may grow this deep; beyond it the parse fails with
 * "Nesting too deep".  Each open bracket and each operand of a right-nested
 * chain (unary operators, conditionals) holds a few entries, so this is a
 * safety valve about ten times the scanner's nesting limit (LEX_MAX_NESTING),
 * not a limit inputs meet: an entry costs about 50 bytes, and only
 * when reached. */
#define YYMAXDEPTH 10000000
}

%code {
#include <string.h>

#include "base/util.h"

int pcl_yylex(PCL_YYSTYPE *lval, pcl_span *lloc, yyscan_t scanner);
static void pcl_yyerror(pcl_span *loc, yyscan_t scanner, pcl_parse_ctx *ctx, const char *msg);

#define YYLLOC_DEFAULT(cur, rhs, n)                                              \
  do {                                                                           \
    if (n) {                                                                     \
      (cur).file = YYRHSLOC(rhs, 1).file;                                        \
      (cur).start = YYRHSLOC(rhs, 1).start;                                      \
      (cur).end = YYRHSLOC(rhs, n).end;                                          \
    } else {                                                                     \
      (cur).file = YYRHSLOC(rhs, 0).file;                                        \
      (cur).start = (cur).end = YYRHSLOC(rhs, 0).end;                            \
    }                                                                            \
  } while (0)

static ast_node *node(pcl_parse_ctx *ctx, ast_kind kind, pcl_span span);
static void list_push(pcl_parse_ctx *ctx, parse_list *l, ast_node *n);
static ast_list list_done(parse_list l);
static void labels_push(pcl_parse_ctx *ctx, parse_labels *l, ast_label label);
static ast_node *block(pcl_parse_ctx *ctx, ast_name type, parse_labels labels, parse_list body,
                       pcl_span open, pcl_span close, bool one_line, pcl_span span);
static ast_node *binary(pcl_parse_ctx *ctx, ast_binary_op op, ast_node *lhs, ast_node *rhs,
                        pcl_span span, pcl_span op_span);
static ast_node *unary(pcl_parse_ctx *ctx, ast_unary_op op, ast_node *operand, pcl_span span);
static ast_node *name_term(pcl_parse_ctx *ctx, const char *name, pcl_span span);
static ast_node *template(pcl_parse_ctx *ctx, parse_list parts, pcl_span span, bool heredoc,
                          bool flush, uint32_t empty_at);
static ast_label label_of(pcl_parse_ctx *ctx, ast_node *tmpl);
static parse_chain chain_start(ast_node *term);
static void chain_attr(pcl_parse_ctx *ctx, parse_chain *c, const char *name, pcl_span name_span,
                       pcl_span dot_span);
static void chain_legacy(pcl_parse_ctx *ctx, parse_chain *c, const char *number,
                         pcl_span num_span, pcl_span dot_span);
static void chain_index(pcl_parse_ctx *ctx, parse_chain *c, ast_node *key, pcl_span close);
static void chain_attr_splat(pcl_parse_ctx *ctx, parse_chain *c, pcl_span marker);
static void chain_full_splat(pcl_parse_ctx *ctx, parse_chain *c, pcl_span marker);
static ast_node *chain_finish(parse_chain c);
static ast_node *for_head(pcl_parse_ctx *ctx, ast_name key, ast_name value,
                          ast_node *collection);
static ast_node *for_finish(pcl_parse_ctx *ctx, ast_node *f, bool is_object, ast_node *first,
                            ast_node *arrow_value, pcl_span value_span, bool grouping,
                            pcl_span group_span, ast_node *cond, pcl_span span);
}

%union {
  ast_node *node;
  const char *str;
  bool flag;
  parse_list list;
  parse_labels labels;
  parse_chain chain;
  ast_label label;
}

%initial-action {
  @$ = (pcl_span){ctx->file, 0, 0};
}

%token END 0 "end of file"
%token START_FILE "start of file"
%token START_EXPR "start of expression"
%token NEWLINE "newline"
%token <str> IDENT "identifier"
%token <str> NUMBER "number"
%token FOR "'for'"
%token OQUOTE "string"
%token CQUOTE "end of string"
%token <flag> HEREDOC_BEGIN "heredoc"
%token HEREDOC_END "end of heredoc"
%token <node> TLIT "template text"
%token TINTERP "'${'"
%token TCLOSE "'}' of a template sequence"
%token D_IF "'%{if'"
%token D_ELSE "'%{else'"
%token D_ENDIF "'%{endif'"
%token D_FOR "'%{for'"
%token D_ENDFOR "'%{endfor'"
%token D_BAD "invalid template directive"
%token EQ "'='"
%token EQEQ "'=='"
%token NE "'!='"
%token LT "'<'"
%token LE "'<='"
%token GT "'>'"
%token GE "'>='"
%token AND "'&&'"
%token OR "'||'"
%token PLUS "'+'"
%token MINUS "'-'"
%token STAR "'*'"
%token SLASH "'/'"
%token PERCENT "'%'"
%token BANG "'!'"
%token QUESTION "'?'"
%token COLON "':'"
%token DCOLON "'::'"
%token ELLIPSIS "'...'"
%token ARROW "'=>'"
%token DOT "'.'"
%token COMMA "','"
%token LPAREN "'('"
%token RPAREN "')'"
%token LBRACK "'['"
%token RBRACK "']'"
%token LBRACE "'{'"
%token RBRACE "'}'"
%token INVALID "invalid character"

%right QUESTION COLON
%left OR
%left AND
%left EQEQ NE
%left LT LE GT GE
%left PLUS MINUS
%left STAR SLASH PERCENT

%type <list> body tparts args items ob_open ob_item
%type <labels> labels
%type <label> label
%type <node> attribute block expr unary term template quoted call tuple object obj_item
%type <node> for_tuple for_object for_head for_arrow for_cond tpart tif tfor tif_open
%type <node> tfor_open tfor_head
%type <str> fname
%type <chain> postfix
%type <flag> for_group

%%

start
  : START_FILE body         { ctx->body = list_done($2); }
  | START_EXPR expr         { ctx->expr = $2; }
  ;

/* ------------------------------------------------------------- structure */

body
  : %empty                  { $$ = (parse_list){0}; }
  | body NEWLINE            { $$ = $1; }
  | body attribute NEWLINE  { $$ = $1; list_push(ctx, &$$, $2); }
  | body block NEWLINE      { $$ = $1; list_push(ctx, &$$, $2); }
  | body error NEWLINE      { $$ = $1; }
  ;

attribute
  : IDENT EQ expr
      {
        $$ = node(ctx, AST_ATTRIBUTE, @$);
        $$->attribute.name = (ast_name){$1, @1};
        $$->attribute.value = $3;
      }
  ;

block
  : IDENT labels LBRACE RBRACE
      { $$ = block(ctx, (ast_name){$1, @1}, $2, (parse_list){0}, @3, @4, false, @$); }
  | IDENT labels LBRACE NEWLINE body RBRACE
      { $$ = block(ctx, (ast_name){$1, @1}, $2, $5, @3, @6, false, @$); }
  | IDENT labels LBRACE NEWLINE body error RBRACE
      { $$ = block(ctx, (ast_name){$1, @1}, $2, $5, @3, @7, false, @$); }
  | IDENT labels LBRACE attribute RBRACE
      {
        parse_list one = {0};
        list_push(ctx, &one, $4);
        $$ = block(ctx, (ast_name){$1, @1}, $2, one, @3, @5, true, @$);
      }
  ;

labels
  : %empty                  { $$ = (parse_labels){0}; }
  | labels label            { $$ = $1; labels_push(ctx, &$$, $2); }
  ;

label
  : IDENT                   { $$ = (ast_label){$1, @1, false}; }
  | quoted                  { $$ = label_of(ctx, $1); }
  ;

/* ----------------------------------------------------------- expressions */

expr
  : expr QUESTION expr COLON expr
      {
        $$ = node(ctx, AST_CONDITIONAL, @$);
        $$->cond.cond = $1;
        $$->cond.then = $3;
        $$->cond.else_ = $5;
      }
  | expr OR expr            { $$ = binary(ctx, AST_OP_OR, $1, $3, @$, @2); }
  | expr AND expr           { $$ = binary(ctx, AST_OP_AND, $1, $3, @$, @2); }
  | expr EQEQ expr          { $$ = binary(ctx, AST_OP_EQ, $1, $3, @$, @2); }
  | expr NE expr            { $$ = binary(ctx, AST_OP_NE, $1, $3, @$, @2); }
  | expr LT expr            { $$ = binary(ctx, AST_OP_LT, $1, $3, @$, @2); }
  | expr LE expr            { $$ = binary(ctx, AST_OP_LE, $1, $3, @$, @2); }
  | expr GT expr            { $$ = binary(ctx, AST_OP_GT, $1, $3, @$, @2); }
  | expr GE expr            { $$ = binary(ctx, AST_OP_GE, $1, $3, @$, @2); }
  | expr PLUS expr          { $$ = binary(ctx, AST_OP_ADD, $1, $3, @$, @2); }
  | expr MINUS expr         { $$ = binary(ctx, AST_OP_SUB, $1, $3, @$, @2); }
  | expr STAR expr          { $$ = binary(ctx, AST_OP_MUL, $1, $3, @$, @2); }
  | expr SLASH expr         { $$ = binary(ctx, AST_OP_DIV, $1, $3, @$, @2); }
  | expr PERCENT expr       { $$ = binary(ctx, AST_OP_MOD, $1, $3, @$, @2); }
  | unary                   { $$ = $1; }
  ;

/* The operand of a unary operator is a term with its traversals, so
 * `-a.b` is `-(a.b)` and `-1 + 2` is `(-1) + 2`. */
unary
  : postfix                 { $$ = chain_finish($1); }
  | MINUS unary             { $$ = unary(ctx, AST_OP_NEG, $2, @$); }
  | BANG unary              { $$ = unary(ctx, AST_OP_NOT, $2, @$); }
  ;

postfix
  : term                    { $$ = chain_start($1); }
  | postfix DOT IDENT       { $$ = $1; chain_attr(ctx, &$$, $3, @3, @2); }
  | postfix DOT NUMBER      { $$ = $1; chain_legacy(ctx, &$$, $3, @3, @2); }
  | postfix DOT STAR        { $$ = $1; chain_attr_splat(ctx, &$$, (pcl_span){@2.file, @2.start, @3.end}); }
  | postfix LBRACK expr RBRACK
                            { $$ = $1; chain_index(ctx, &$$, $3, @4); }
  | postfix LBRACK STAR RBRACK
                            { $$ = $1; chain_full_splat(ctx, &$$, (pcl_span){@2.file, @2.start, @4.end}); }
  | postfix LBRACK error RBRACK
                            { $$ = $1; yyerrok; }
  ;

term
  : NUMBER
      {
        $$ = node(ctx, AST_NUMBER, @$);
        $$->number.text = $1;
      }
  | IDENT                   { $$ = name_term(ctx, $1, @1); }
  | template                { $$ = $1; }
  | call                    { $$ = $1; }
  | tuple                   { $$ = $1; }
  | object                  { $$ = $1; }
  | for_tuple               { $$ = $1; }
  | for_object              { $$ = $1; }
  | LPAREN expr RPAREN
      {
        $$ = node(ctx, AST_PAREN, @$);
        $$->paren.inner = $2;
      }
  | LPAREN error RPAREN
      {
        $$ = node(ctx, AST_PAREN, @$);
        yyerrok;
      }
  ;

call
  : fname LPAREN RPAREN
      {
        $$ = node(ctx, AST_CALL, @$);
        $$->call.name = (ast_name){$1, @1};
      }
  | fname LPAREN args RPAREN
      {
        $$ = node(ctx, AST_CALL, @$);
        $$->call.name = (ast_name){$1, @1};
        $$->call.args = list_done($3);
      }
  | fname LPAREN args COMMA RPAREN
      {
        $$ = node(ctx, AST_CALL, @$);
        $$->call.name = (ast_name){$1, @1};
        $$->call.args = list_done($3);
      }
  | fname LPAREN args ELLIPSIS RPAREN
      {
        $$ = node(ctx, AST_CALL, @$);
        $$->call.name = (ast_name){$1, @1};
        $$->call.args = list_done($3);
        $$->call.expand_final = true;
      }
  ;

/* A function name; namespaced names are interned as written, `ns::fn`. */
fname
  : IDENT                   { $$ = $1; }
  | fname DCOLON IDENT
      {
        size_t a = strlen($1), b = strlen($3);
        char *s = arena_alloc(ctx->env->arena, a + b + 3);
        memcpy(s, $1, a);
        memcpy(s + a, "::", 2);
        memcpy(s + a + 2, $3, b + 1);
        $$ = intern_n(ctx->env->intern, s, a + b + 2);
      }
  ;

args
  : expr                    { $$ = (parse_list){0}; list_push(ctx, &$$, $1); }
  | error                   { $$ = (parse_list){0}; }
  | args COMMA expr         { $$ = $1; list_push(ctx, &$$, $3); }
  | args COMMA error        { $$ = $1; }
  ;

tuple
  : LBRACK RBRACK           { $$ = node(ctx, AST_TUPLE, @$); }
  | LBRACK items RBRACK
      {
        $$ = node(ctx, AST_TUPLE, @$);
        $$->tuple.items = list_done($2);
      }
  | LBRACK items COMMA RBRACK
      {
        $$ = node(ctx, AST_TUPLE, @$);
        $$->tuple.items = list_done($2);
      }
  ;

/* After an error in an element, parsing resumes at the next comma. */
items
  : expr                    { $$ = (parse_list){0}; list_push(ctx, &$$, $1); }
  | error                   { $$ = (parse_list){0}; }
  | items COMMA expr        { $$ = $1; list_push(ctx, &$$, $3); }
  | items COMMA error       { $$ = $1; }
  ;

/* Object items are separated by a comma or a newline; blank lines may appear
 * anywhere between items. */
object
  : LBRACE ob_open RBRACE
      {
        $$ = node(ctx, AST_OBJECT, @$);
        $$->object.items = list_done($2);
      }
  | LBRACE ob_item RBRACE
      {
        $$ = node(ctx, AST_OBJECT, @$);
        $$->object.items = list_done($2);
      }
  | LBRACE ob_open error RBRACE
      {
        $$ = node(ctx, AST_OBJECT, @$);
        $$->object.items = list_done($2);
      }
  ;

/* After an error in an item, parsing resumes at the next separator; errors
 * are reported again once three tokens have been read (bison's rule), so a
 * value continued on the next line does not produce a second error. */
ob_open
  : %empty                  { $$ = (parse_list){0}; }
  | ob_open NEWLINE         { $$ = $1; }
  | ob_item COMMA           { $$ = $1; }
  | ob_item NEWLINE         { $$ = $1; }
  | ob_open error COMMA     { $$ = $1; }
  | ob_open error NEWLINE   { $$ = $1; }
  ;

ob_item
  : ob_open obj_item        { $$ = $1; list_push(ctx, &$$, $2); }
  ;

obj_item
  : expr EQ expr
      {
        $$ = node(ctx, AST_OBJECT_ITEM, @$);
        $$->item.key = $1;
        $$->item.value = $3;
      }
  | expr COLON expr
      {
        $$ = node(ctx, AST_OBJECT_ITEM, @$);
        $$->item.key = $1;
        $$->item.value = $3;
        $$->item.colon = true;
      }
  ;

for_tuple
  : LBRACK FOR for_head COLON expr for_arrow for_group for_cond RBRACK
      { $$ = for_finish(ctx, $3, false, $5, $6, @6, $7, @7, $8, @$); }
  | LBRACK FOR error RBRACK
      {
        $$ = node(ctx, AST_FOR, @$);
        yyerrok;
      }
  ;

for_object
  : LBRACE FOR for_head COLON expr for_arrow for_group for_cond RBRACE
      { $$ = for_finish(ctx, $3, true, $5, $6, @5, $7, @7, $8, @$); }
  | LBRACE FOR error RBRACE
      {
        $$ = node(ctx, AST_FOR, @$);
        $$->for_expr.is_object = true;
        yyerrok;
      }
  ;

for_head
  : IDENT for_in expr
      { $$ = for_head(ctx, (ast_name){NULL, @1}, (ast_name){$1, @1}, $3); }
  | IDENT COMMA IDENT for_in expr
      { $$ = for_head(ctx, (ast_name){$1, @1}, (ast_name){$3, @3}, $5); }
  ;

/* The keyword `in` (an identifier anywhere else); anything else there is
 * reported at once and skipped by the enclosing bracket's recovery. */
for_in
  : IDENT
      {
        if ($1 != ctx->kw_in) {
          lex_error_at(ctx, @1,
                       "Invalid 'for' expression: For expression requires the 'in' keyword "
                       "after its name declarations.");
          YYERROR;
        }
      }
  ;

tfor_head
  : IDENT tfor_in expr
      { $$ = for_head(ctx, (ast_name){NULL, @1}, (ast_name){$1, @1}, $3); }
  | IDENT COMMA IDENT tfor_in expr
      { $$ = for_head(ctx, (ast_name){$1, @1}, (ast_name){$3, @3}, $5); }
  ;

tfor_in
  : IDENT
      {
        if ($1 != ctx->kw_in) {
          lex_error_at(ctx, @1,
                       "Invalid 'for' directive: For directive requires the 'in' keyword after "
                       "its name declarations.");
          YYERROR;
        }
      }
  ;

for_arrow
  : %empty                  { $$ = NULL; }
  | ARROW expr              { $$ = $2; }
  ;

for_group
  : %empty                  { $$ = false; }
  | ELLIPSIS                { $$ = true; }
  ;

for_cond
  : %empty                  { $$ = NULL; }
  | for_if expr             { $$ = $2; }
  ;

/* Only `if` may follow the result expression. */
for_if
  : IDENT
      {
        if ($1 != ctx->kw_if) {
          diag *d = lex_error_at(ctx, @1,
                                 "Invalid 'for' expression: Extra characters after the end of "
                                 "the 'for' expression.");
          /* The closing bracket was expected here. */
          if (lex_opener_out_of_sight(ctx, lex_top(ctx), @1.start))
            lex_note_opener(ctx, d, lex_top(ctx));
          YYERROR;
        }
      }
  ;

/* ------------------------------------------------------------- templates */

template
  : quoted                  { $$ = $1; }
  | HEREDOC_BEGIN tparts HEREDOC_END
                            { $$ = template(ctx, $2, @$, true, $1, @3.start); }
  ;

quoted
  : OQUOTE tparts CQUOTE    { $$ = template(ctx, $2, @$, false, false, @1.end); }
  ;

tparts
  : %empty                  { $$ = (parse_list){0}; }
  | tparts tpart            { $$ = $1; if ($2) list_push(ctx, &$$, $2); }
  ;

tpart
  : TLIT                    { $$ = $1; }
  | TINTERP expr TCLOSE     { $$ = $2; }
  | TINTERP error TCLOSE    { $$ = NULL; yyerrok; }
  | tif                     { $$ = $1; }
  | tfor                    { $$ = $1; }
  | error TCLOSE            { $$ = NULL; yyerrok; }
  ;

tif
  : tif_open tparts tif_endif
      {
        $$ = node(ctx, AST_TEMPLATE_IF, @$);
        $$->tif.cond = $1;
        $$->tif.then = template(ctx, $2, @2, false, false, @2.start);
      }
  | tif_open tparts tif_else tparts tif_endif
      {
        $$ = node(ctx, AST_TEMPLATE_IF, @$);
        $$->tif.cond = $1;
        $$->tif.then = template(ctx, $2, @2, false, false, @2.start);
        $$->tif.else_ = template(ctx, $4, @4, false, false, @4.start);
      }
  | tif_open tparts error
      {
        $$ = node(ctx, AST_TEMPLATE_IF, @$);
        $$->tif.cond = $1;
        $$->tif.then = template(ctx, $2, @2, false, false, @2.start);
      }
  | tif_open tparts tif_else tparts error
      {
        $$ = node(ctx, AST_TEMPLATE_IF, @$);
        $$->tif.cond = $1;
        $$->tif.then = template(ctx, $2, @2, false, false, @2.start);
        $$->tif.else_ = template(ctx, $4, @4, false, false, @4.start);
      }
  ;

/* The markers of a directive; junk before the closing brace is skipped. */
tif_open
  : D_IF expr TCLOSE        { $$ = $2; }
  | D_IF error TCLOSE       { $$ = NULL; yyerrok; }
  ;

tif_else
  : D_ELSE TCLOSE
  | D_ELSE error TCLOSE     { yyerrok; }
  ;

tif_endif
  : D_ENDIF TCLOSE
  | D_ENDIF error TCLOSE    { yyerrok; }
  ;

tfor
  : tfor_open tparts tfor_end
      {
        $$ = $1;
        $$->span = @$;
        $$->tfor.body = template(ctx, $2, @2, false, false, @2.start);
      }
  | tfor_open tparts error
      {
        $$ = $1;
        $$->span = @$;
        $$->tfor.body = template(ctx, $2, @2, false, false, @2.start);
      }
  ;

tfor_open
  : D_FOR tfor_head TCLOSE
      {
        $$ = node(ctx, AST_TEMPLATE_FOR, @$);
        $$->tfor.key = $2->for_expr.key_var;
        $$->tfor.value = $2->for_expr.value_var;
        $$->tfor.collection = $2->for_expr.collection;
      }
  | D_FOR error TCLOSE
      {
        $$ = node(ctx, AST_TEMPLATE_FOR, @$);
        yyerrok;
      }
  ;

tfor_end
  : D_ENDFOR TCLOSE
  | D_ENDFOR error TCLOSE   { yyerrok; }
  ;

%%

static ast_node *node(pcl_parse_ctx *ctx, ast_kind kind, pcl_span span) {
  return ast_new(ctx->env->arena, kind, ctx->clamp ? ctx->where : span);
}

static void list_push(pcl_parse_ctx *ctx, parse_list *l, ast_node *n) {
  if (!n)
    return;
  if (l->count == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 4;
    ast_node **items = arena_alloc(ctx->env->arena, cap * sizeof *items);
    if (l->count)
      memcpy(items, l->items, l->count * sizeof *items);
    l->items = items;
    l->cap = cap;
  }
  l->items[l->count++] = n;
}

static ast_list list_done(parse_list l) {
  return (ast_list){l.items, l.count};
}

static void labels_push(pcl_parse_ctx *ctx, parse_labels *l, ast_label label) {
  if (l->count == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 2;
    ast_label *items = arena_alloc(ctx->env->arena, cap * sizeof *items);
    if (l->count)
      memcpy(items, l->items, l->count * sizeof *items);
    l->items = items;
    l->cap = cap;
  }
  l->items[l->count++] = label;
}

static ast_node *block(pcl_parse_ctx *ctx, ast_name type, parse_labels labels, parse_list body,
                       pcl_span open, pcl_span close, bool one_line, pcl_span span) {
  ast_node *n = node(ctx, AST_BLOCK, span);
  if (ctx->clamp)
    type.span = open = close = ctx->where;
  n->block.type = type;
  n->block.labels = labels.items;
  n->block.nlabels = labels.count;
  n->block.body = list_done(body);
  n->block.open_brace = open;
  n->block.close_brace = close;
  n->block.one_line = one_line;
  return n;
}

static ast_node *binary(pcl_parse_ctx *ctx, ast_binary_op op, ast_node *lhs, ast_node *rhs,
                        pcl_span span, pcl_span op_span) {
  ast_node *n = node(ctx, AST_BINARY, span);
  n->binary.op = op;
  n->binary.lhs = lhs;
  n->binary.rhs = rhs;
  n->binary.op_span = ctx->clamp ? ctx->where : op_span;
  return n;
}

static ast_node *unary(pcl_parse_ctx *ctx, ast_unary_op op, ast_node *operand, pcl_span span) {
  ast_node *n = node(ctx, AST_UNARY, span);
  n->unary.op = op;
  n->unary.operand = operand;
  return n;
}

/* A bare name in expression position: true, false and null are literals
 * there (syntax.md §2.3), anything else is a variable reference. */
static ast_node *name_term(pcl_parse_ctx *ctx, const char *name, pcl_span span) {
  if (name == ctx->kw_true || name == ctx->kw_false) {
    ast_node *n = node(ctx, AST_BOOL, span);
    n->boolean.value = name == ctx->kw_true;
    return n;
  }
  if (name == ctx->kw_null)
    return node(ctx, AST_NULL, span);
  ast_node *n = node(ctx, AST_VARIABLE, span);
  n->variable.name = name;
  return n;
}

/* A template; one without parts gets one empty literal (as in HCL), with an
 * empty span at offset empty_at. */
static ast_node *template(pcl_parse_ctx *ctx, parse_list parts, pcl_span span, bool heredoc,
                          bool flush, uint32_t empty_at) {
  if (parts.count == 0) {
    ast_node *lit = node(ctx, AST_TEMPLATE_LITERAL, (pcl_span){span.file, empty_at, empty_at});
    lit->literal.text = "";
    lit->literal.len = 0;
    list_push(ctx, &parts, lit);
  }
  ast_node *n = node(ctx, AST_TEMPLATE, span);
  n->template.parts = list_done(parts);
  n->template.heredoc = heredoc;
  n->template.flush = flush;
  return n;
}

/* A quoted block label: its text, which must not contain sequences. */
static ast_label label_of(pcl_parse_ctx *ctx, ast_node *tmpl) {
  ast_label label = {"", tmpl->span, true};
  ast_list parts = tmpl->template.parts;
  if (parts.count == 1 && parts.items[0]->kind == AST_TEMPLATE_LITERAL) {
    ast_node *lit = parts.items[0];
    label.text = intern_n(ctx->env->intern, lit->literal.text, lit->literal.len);
  } else {
    lex_error_at(ctx, tmpl->span,
                 "Invalid string literal: Template sequences are not allowed in this string. "
                 "To include a literal \"$\", double it (as \"$$\") to escape it.");
  }
  return label;
}

static parse_chain chain_start(ast_node *term) {
  return (parse_chain){term, NULL, NULL, term->span.end};
}

/* The node a traversal step applies to, and where its result goes. */
static ast_node **chain_slot(parse_chain *c, bool attr_step) {
  if (attr_step && c->attr)
    return &c->attr->splat.each;
  if (c->full)
    return &c->full->splat.each;
  return &c->node;
}

/* Records the end of a step: an open attribute-only splat grows with it. */
static void chain_extend(parse_chain *c, uint32_t end) {
  c->end = end;
  if (c->attr)
    c->attr->span.end = end;
}

static void chain_attr(pcl_parse_ctx *ctx, parse_chain *c, const char *name, pcl_span name_span,
                       pcl_span dot_span) {
  (void)dot_span;
  ast_node **slot = chain_slot(c, true);
  ast_node *n = node(ctx, AST_GET_ATTR, (pcl_span){name_span.file, (*slot)->span.start, name_span.end});
  n->get_attr.object = *slot;
  n->get_attr.name = (ast_name){name, ctx->clamp ? ctx->where : name_span};
  *slot = n;
  chain_extend(c, name_span.end);
}

static void chain_legacy(pcl_parse_ctx *ctx, parse_chain *c, const char *number,
                         pcl_span num_span, pcl_span dot_span) {
  (void)dot_span;
  const char *dot = strchr(number, '.');
  if (dot) {
    lex_error_at(ctx, num_span,
                 "Invalid legacy index syntax: When using the legacy index syntax, chaining two "
                 "indexes together is not permitted. Use the proper index syntax instead%s, "
                 "like %s[%.*s][%s].",
                 c->attr ? " with a splat expression" : "", c->attr ? "[*]." : "",
                 (int)(dot - number), number, dot + 1);
  }
  ast_node **slot = chain_slot(c, true);
  ast_node *key = node(ctx, AST_NUMBER, num_span);
  key->number.text = number;
  ast_node *n = node(ctx, AST_INDEX, (pcl_span){num_span.file, (*slot)->span.start, num_span.end});
  n->index.collection = *slot;
  n->index.key = key;
  n->index.legacy = true;
  *slot = n;
  chain_extend(c, num_span.end);
}

static void chain_index(pcl_parse_ctx *ctx, parse_chain *c, ast_node *key, pcl_span close) {
  c->attr = NULL;
  ast_node **slot = chain_slot(c, false);
  ast_node *n = node(ctx, AST_INDEX, (pcl_span){close.file, (*slot)->span.start, close.end});
  n->index.collection = *slot;
  n->index.key = key;
  *slot = n;
  chain_extend(c, close.end);
}

/* Makes a splat of *slot whose per-element expression starts as the item. */
static ast_node *new_splat(pcl_parse_ctx *ctx, ast_node **slot, pcl_span marker, bool full) {
  ast_node *item = node(ctx, AST_SPLAT_ITEM, marker);
  ast_node *s = node(ctx, AST_SPLAT, (pcl_span){marker.file, (*slot)->span.start, marker.end});
  s->splat.source = *slot;
  s->splat.each = item;
  s->splat.item = item;
  s->splat.full = full;
  *slot = s;
  return s;
}

static void chain_attr_splat(pcl_parse_ctx *ctx, parse_chain *c, pcl_span marker) {
  if (c->attr) {
    lex_error_at(ctx, (pcl_span){marker.file, marker.end - 1, marker.end},
                 "Nested splat expression not allowed: A splat expression (*) cannot be used "
                 "inside another attribute-only splat expression.");
    return;
  }
  c->attr = new_splat(ctx, chain_slot(c, false), marker, false);
  chain_extend(c, marker.end);
}

static void chain_full_splat(pcl_parse_ctx *ctx, parse_chain *c, pcl_span marker) {
  c->attr = NULL;
  c->full = new_splat(ctx, chain_slot(c, false), marker, true);
  chain_extend(c, marker.end);
}

/* A full splat takes every later step, so it (and every full splat inside
 * it) ends where the chain ends. */
static ast_node *chain_finish(parse_chain c) {
  if (c.full) {
    for (ast_node *n = c.node; n && n->kind == AST_SPLAT && n->splat.full; n = n->splat.each)
      if (n->span.end < c.end)
        n->span.end = c.end;
  }
  return c.node;
}

static ast_node *for_head(pcl_parse_ctx *ctx, ast_name key, ast_name value,
                          ast_node *collection) {
  if (ctx->clamp) {
    key.span = ctx->where;
    value.span = ctx->where;
  }
  ast_node *f = node(ctx, AST_FOR, (pcl_span){0, 0, 0});
  f->for_expr.key_var = key;
  f->for_expr.value_var = value;
  f->for_expr.collection = collection;
  return f;
}

static ast_node *for_finish(pcl_parse_ctx *ctx, ast_node *f, bool is_object, ast_node *first,
                            ast_node *arrow_value, pcl_span value_span, bool grouping,
                            pcl_span group_span, ast_node *cond, pcl_span span) {
  f->span = ctx->clamp ? ctx->where : span;
  f->for_expr.is_object = is_object;
  f->for_expr.grouping = grouping;
  f->for_expr.cond = cond;
  if (arrow_value) {
    f->for_expr.key = first;
    f->for_expr.value = arrow_value;
  } else {
    f->for_expr.value = first;
  }
  if (!is_object && arrow_value)
    lex_error_at(ctx, value_span,
                 "Invalid 'for' expression: Key expression is not valid when building a tuple.");
  if (!is_object && grouping)
    lex_error_at(ctx, group_span,
                 "Invalid 'for' expression: Grouping ellipsis (...) cannot be used when "
                 "building a tuple.");
  if (is_object && !arrow_value)
    lex_error_at(ctx, value_span,
                 "Invalid 'for' expression: Key expression is required when building an "
                 "object.");
  return f;
}

/* Bison calls this only when its stack is exhausted. */
static void pcl_yyerror(pcl_span *loc, yyscan_t scanner, pcl_parse_ctx *ctx, const char *msg) {
  (void)scanner;
  (void)msg;
  lex_error_at(ctx, *loc,
               "Nesting too deep: This expression is nested too deeply to be parsed.");
  ctx->fatal = true;
}

/* ------------------------------------------------------ syntax errors */

/* Operator-like tokens that could continue an expression; they are left
 * out of "expected" lists, which would otherwise always be long. */
static bool continues_expression(yysymbol_kind_t s) {
  switch (s) {
  case YYSYMBOL_QUESTION:
  case YYSYMBOL_OR:
  case YYSYMBOL_AND:
  case YYSYMBOL_EQEQ:
  case YYSYMBOL_NE:
  case YYSYMBOL_LT:
  case YYSYMBOL_LE:
  case YYSYMBOL_GT:
  case YYSYMBOL_GE:
  case YYSYMBOL_PLUS:
  case YYSYMBOL_MINUS:
  case YYSYMBOL_STAR:
  case YYSYMBOL_SLASH:
  case YYSYMBOL_PERCENT:
  case YYSYMBOL_DOT:
  case YYSYMBOL_LBRACK:
  case YYSYMBOL_DCOLON: /* After a name that could still become a call. */
  case YYSYMBOL_LPAREN:
    return true;
  default:
    return false;
  }
}

/* The innermost template sequence frame, to word "extra characters". */
static lex_frame_kind innermost_sequence(pcl_parse_ctx *ctx) {
  for (size_t i = ctx->nframes; i-- > 0;)
    if (ctx->frames[i].kind == LEX_INTERP || ctx->frames[i].kind == LEX_DIRECTIVE)
      return ctx->frames[i].kind;
  return LEX_INTERP;
}

/* Returns the token that opened the innermost construct being parsed: the
 * accessing symbol of the topmost state on the parser's stack entered by an
 * opening token, or with `separators` also by `?`, `:`, `,` or `=>` (YYEOF
 * at the bottom, state 0). */
static yysymbol_kind_t innermost_opener(const yypcontext_t *yyctx, bool separators) {
  for (const yy_state_t *p = yyctx->yyssp;; p--) {
    yysymbol_kind_t s = YY_ACCESSING_SYMBOL(*p);
    switch (s) {
    case YYSYMBOL_QUESTION:
    case YYSYMBOL_COLON:
    case YYSYMBOL_COMMA:
    case YYSYMBOL_ARROW:
      if (separators)
        return s;
      break;
    case YYSYMBOL_LPAREN:
    case YYSYMBOL_LBRACK:
    case YYSYMBOL_LBRACE:
    case YYSYMBOL_EQ:
    case YYSYMBOL_TINTERP:
    case YYSYMBOL_D_IF:
    case YYSYMBOL_D_FOR:
    case YYSYMBOL_FOR:
      return s;
    default:
      break;
    }
    if (*p == 0)
      return YYSYMBOL_YYEOF;
  }
}

/* Chooses HCL's wording for the common situations, identified by the set of
 * tokens the parser would have accepted and the construct being parsed. */
static const char *classify(pcl_parse_ctx *ctx, yysymbol_kind_t la, const bool *has,
                            const yypcontext_t *yyctx) {
  yysymbol_kind_t opener = innermost_opener(yyctx, true);
  yysymbol_kind_t scope = innermost_opener(yyctx, false);
  yysymbol_kind_t last = YY_ACCESSING_SYMBOL(*yyctx->yyssp);
  if (last == YYSYMBOL_DCOLON)
    return "Missing function name: Function scope resolution symbol :: must be followed by a "
           "function name in this scope.";
  if (last == YYSYMBOL_D_FOR)
    return "Invalid 'for' directive: For directive requires a variable name after 'for'.";
  if (last == YYSYMBOL_FOR)
    return la == YYSYMBOL_COMMA || la == YYSYMBOL_DOT || la == YYSYMBOL_LBRACK
               ? "Invalid 'for' expression: For expression requires a variable name after "
                 "'for'. To use a variable named \"for\" as an element, write it as \"(for)\"."
               : "Invalid 'for' expression: For expression requires a variable name after "
                 "'for'.";
  switch (la) {
  case YYSYMBOL_D_ELSE:
    if (has[YYSYMBOL_D_ENDFOR])
      return "Unexpected else directive: An else clause is not expected for a for directive.";
    if (has[YYSYMBOL_D_ENDIF])
      return "Unexpected else directive: This if directive already has an else clause.";
    return "Unexpected else directive: An else directive must follow an if directive.";
  case YYSYMBOL_D_ENDIF:
    if (has[YYSYMBOL_D_ENDFOR])
      return "Unexpected endif directive: Expected an endfor directive to close the for "
             "directive.";
    return "Unexpected endif directive: An endif directive must follow an if directive.";
  case YYSYMBOL_D_ENDFOR:
    if (has[YYSYMBOL_D_ENDIF])
      return "Unexpected endfor directive: Expected an endif directive to close the if "
             "directive.";
    return "Unexpected endfor directive: An endfor directive must follow a for directive.";
  case YYSYMBOL_CQUOTE:
  case YYSYMBOL_HEREDOC_END:
    if (has[YYSYMBOL_D_ENDIF])
      return "Unexpected end of template: The if directive is missing its corresponding "
             "endif directive.";
    if (has[YYSYMBOL_D_ENDFOR])
      return "Unexpected end of template: The for directive is missing its corresponding "
             "endfor directive.";
    break;
  default:
    break;
  }
  bool expression_start = has[YYSYMBOL_NUMBER] && has[YYSYMBOL_LPAREN];
  bool expression_end = has[YYSYMBOL_PLUS];
  /* After a block type and its labels. */
  if (has[YYSYMBOL_LBRACE] && has[YYSYMBOL_OQUOTE] && has[YYSYMBOL_IDENT] && !expression_start) {
    if (has[YYSYMBOL_EQ] && (la == YYSYMBOL_NEWLINE || la == YYSYMBOL_YYEOF || la == YYSYMBOL_COLON))
      return "Argument or block definition required: An argument or block definition is "
             "required here. To set an argument, use the equals sign \"=\" to introduce the "
             "argument value.";
    if (la == YYSYMBOL_NEWLINE)
      return "Invalid block definition: A block definition must have block content delimited "
             "by \"{\" and \"}\", starting on the same line as the block header.";
    if (la == YYSYMBOL_EQ)
      return "Invalid block definition: The equals sign \"=\" indicates an argument "
             "definition, and must not be used when defining a block.";
    return "Invalid block definition: Either a quoted string block label or an opening brace "
           "(\"{\") is expected here.";
  }
  /* At the start of a body item. */
  if (has[YYSYMBOL_IDENT] && has[YYSYMBOL_NEWLINE] && !expression_start && !expression_end &&
      !has[YYSYMBOL_EQ]) {
    if (la == YYSYMBOL_OQUOTE)
      return "Invalid argument name: Argument names must not be quoted.";
    return "Argument or block definition required: An argument or block definition is "
           "required here.";
  }
  /* After the name in a single-line block. */
  if (has[YYSYMBOL_EQ] && !has[YYSYMBOL_LBRACE] && !has[YYSYMBOL_COLON] && !expression_end &&
      (la == YYSYMBOL_LBRACE || la == YYSYMBOL_IDENT || la == YYSYMBOL_OQUOTE))
    return "Argument definition required: A single-line block definition can contain only a "
           "single argument. To define a nested block, place it on a line of its own within "
           "its parent block.";
  /* After a block's closing brace. */
  if (has[YYSYMBOL_NEWLINE] && !has[YYSYMBOL_IDENT] && !expression_end && !has[YYSYMBOL_COMMA])
    return "Missing newline after block definition: A block definition must end with a "
           "newline.";
  if (expression_end && has[YYSYMBOL_COLON] && opener == YYSYMBOL_QUESTION)
    return "Missing false expression in conditional: The conditional operator (...?...:...) "
           "requires a false expression, delimited by a colon.";
  if (has[YYSYMBOL_DCOLON] && has[YYSYMBOL_LPAREN] && !expression_end)
    return "Missing open parenthesis: Function selector must be followed by an open "
           "parenthesis to begin the function call.";
  if (expression_end && scope == YYSYMBOL_FOR && has[YYSYMBOL_COLON])
    return "Invalid 'for' expression: The collection expression must be followed by a colon "
           "(\":\") and the result expression.";
  if (expression_end && scope == YYSYMBOL_FOR && (has[YYSYMBOL_RBRACK] || has[YYSYMBOL_RBRACE]))
    return "Invalid 'for' expression: Extra characters after the end of the 'for' expression.";
  if (expression_end) {
    if (has[YYSYMBOL_NEWLINE] && has[YYSYMBOL_COMMA])
      return "Missing attribute separator: Expected a newline or comma to mark the beginning "
             "of the next attribute.";
    if (has[YYSYMBOL_NEWLINE]) {
      if (la == YYSYMBOL_COMMA)
        return "Unexpected comma after argument: Argument definitions must be separated by "
               "newlines, not commas. An argument definition must end with a newline.";
      return "Missing newline after argument: An argument definition must end with a newline.";
    }
    if (has[YYSYMBOL_EQ] && has[YYSYMBOL_COLON])
      return "Missing key/value separator: Expected an equals sign (\"=\") to mark the "
             "beginning of the attribute value.";
    if (has[YYSYMBOL_RBRACE] && !has[YYSYMBOL_COMMA] && !has[YYSYMBOL_ELLIPSIS] &&
        !has[YYSYMBOL_ARROW] && !has[YYSYMBOL_IDENT])
      return "Invalid single-argument block definition: A single-line block definition must "
             "end with a closing brace immediately after its single argument definition.";
    if (has[YYSYMBOL_RBRACK] && has[YYSYMBOL_COMMA])
      return "Missing item separator: Expected a comma to mark the beginning of the next item.";
    if (has[YYSYMBOL_RPAREN] && has[YYSYMBOL_COMMA])
      return "Missing argument separator: A comma is required to separate each function "
             "argument from the next.";
    if (has[YYSYMBOL_RPAREN])
      return "Unbalanced parentheses: Expected a closing parenthesis to terminate the "
             "expression.";
    if (has[YYSYMBOL_RBRACK] && !has[YYSYMBOL_IDENT])
      return "Missing close bracket on index: The index operator must end with a closing "
             "bracket (\"]\").";
    if (has[YYSYMBOL_TCLOSE])
      return innermost_sequence(ctx) == LEX_DIRECTIVE
                 ? "Extra characters in template directive: Expected a closing brace to end "
                   "the directive, but found extra characters."
                 : "Extra characters after interpolation expression: Expected a closing brace "
                   "to end the interpolation expression, but found extra characters.";
  }
  if (has[YYSYMBOL_IDENT] && has[YYSYMBOL_NUMBER] && has[YYSYMBOL_STAR] && !has[YYSYMBOL_LPAREN])
    return "Invalid attribute name: An attribute name is required after a dot.";
  if (has[YYSYMBOL_TCLOSE] && !expression_start)
    return "Extra characters in template directive: Expected a closing brace to end the "
           "directive, but found extra characters.";
  if (has[YYSYMBOL_RPAREN] && !expression_start && !has[YYSYMBOL_COMMA])
    return "Missing closing parenthesis: An expanded function argument (with \"...\") must be "
           "immediately followed by closing parentheses.";
  if (expression_start) {
    if (la == YYSYMBOL_YYEOF)
      return "Missing expression: Expected the start of an expression, but found the end of "
             "the file.";
    return NULL; /* Worded with the token by the caller. */
  }
  return NULL;
}

/* The token that closes frame f, or YYSYMBOL_YYEOF for a frame that no
 * token closes (the top level, a block body, a template body). */
static yysymbol_kind_t closer_of(const lex_frame *f) {
  switch (f->kind) {
  case LEX_PAREN:
    return YYSYMBOL_RPAREN;
  case LEX_BRACKET:
    return YYSYMBOL_RBRACK;
  case LEX_OBJECT:
  case LEX_FOR_OBJECT:
    return YYSYMBOL_RBRACE;
  case LEX_INTERP:
  case LEX_DIRECTIVE:
    return YYSYMBOL_TCLOSE;
  case LEX_TOP:
  case LEX_EXPR:
  case LEX_BODY:
  case LEX_QUOTED:
  case LEX_HEREDOC:
    return YYSYMBOL_YYEOF;
  }
  ice("bad frame kind");
}

/* Reports a syntax error.  At the end of input inside an open bracket,
 * brace or template sequence, the construct is reported where HCL reports
 * it: at its opening token for the cases lex_unclosed_message lists, else at
 * the end of input; and nothing is reported when an error was already
 * reported inside it (the same mistake, as HCL's recovery mode has it).  An
 * error where the innermost open construct's closer would have been
 * accepted gets a note at the opening token when that token is on an
 * earlier line, as clang's "to match this '('". */
static int yyreport_syntax_error(const yypcontext_t *yyctx, yyscan_t scanner,
                                 pcl_parse_ctx *ctx) {
  (void)scanner;
  yysymbol_kind_t la = yypcontext_token(yyctx);
  /* The scanner has already reported these. */
  if (la == YYSYMBOL_INVALID || la == YYSYMBOL_D_BAD || ctx->fatal)
    return 0;
  yysymbol_kind_t expected[YYNTOKENS];
  int n = yypcontext_expected_tokens(yyctx, expected, YYNTOKENS);
  if (n < 0)
    n = 0;
  bool has[YYNTOKENS];
  memset(has, 0, sizeof has);
  for (int i = 0; i < n; i++)
    has[expected[i]] = true;
  pcl_span at = *yypcontext_location(yyctx);
  if (ctx->quiet && !ctx->clamp && at.start == ctx->base + ctx->quiet_at)
    return 0;
  /* The scanner ends the last line of a file with an empty newline token. */
  if (la == YYSYMBOL_NEWLINE && at.start == at.end)
    la = YYSYMBOL_YYEOF;
  lex_frame *open = lex_top(ctx);
  yysymbol_kind_t closer = closer_of(open);
  bool expression_start = has[YYSYMBOL_NUMBER] && has[YYSYMBOL_LPAREN];
  if (la == YYSYMBOL_YYEOF && open->kind != LEX_TOP && open->kind != LEX_EXPR) {
    if (ctx->errors != open->errors)
      return 0;
    const char *unclosed = lex_unclosed_message(open, expression_start);
    if (unclosed) {
      lex_error_at(ctx, lex_opener_span(ctx, open, true), "%s", unclosed);
      return 0;
    }
  }
  const char *msg = classify(ctx, la, has, yyctx);
  char buf[512];
  if (!msg && expression_start) {
    snprintf(buf, sizeof buf,
             "Invalid expression: Expected the start of an expression, but found %s.",
             yysymbol_name(la));
    msg = buf;
  } else if (!msg) {
    /* The generic report: the token found and up to 4 expected ones. */
    const char *names[4];
    int shown = 0;
    bool too_many = false;
    for (int i = 0; i < n; i++) {
      if (continues_expression(expected[i]) || expected[i] == YYSYMBOL_YYerror)
        continue;
      if (shown == 4) {
        too_many = true;
        break;
      }
      names[shown++] = yysymbol_name(expected[i]);
    }
    int len = snprintf(buf, sizeof buf, "unexpected %s", yysymbol_name(la));
    if (shown > 0 && !too_many) {
      for (int i = 0; i < shown; i++)
        len += snprintf(buf + len, sizeof buf - (size_t)len, "%s%s",
                        i == 0 ? ", expected " : i == shown - 1 ? " or " : ", ", names[i]);
    }
    msg = buf;
  }
  diag *d = lex_error_at(ctx, at, "%s", msg);
  if (closer != YYSYMBOL_YYEOF && (la == YYSYMBOL_YYEOF || has[closer]) &&
      lex_opener_out_of_sight(ctx, open, at.start))
    lex_note_opener(ctx, d, open);
  return 0;
}
