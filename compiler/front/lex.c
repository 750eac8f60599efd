/* lex: helpers for the scanner in grammar/pcl.l.
 *
 * The flex rules recognise tokens; everything that needs more than a regular
 * expression lives here: the frame stack (newline significance, what `}`
 * closes), Unicode identifier rules, escape decoding, the strip markers of
 * templates and the `<<-` indentation trimming of heredocs, which follow
 * hcl/hclsyntax's parser_template.go step by step (see lex.h). */
#include "front/lex.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "pcl.tab.h"
#include "base/util.h"
#include "nfc.h"

void lex_init(pcl_lexer *lx, parse_env *env, uint32_t file, const char *text, size_t len,
              uint32_t base) {
  memset(lx, 0, sizeof *lx);
  lx->env = env;
  lx->file = file;
  lx->text = text;
  lx->len = len;
  lx->base = base;
  lx->kw_true = intern(env->intern, "true");
  lx->kw_false = intern(env->intern, "false");
  lx->kw_null = intern(env->intern, "null");
  lx->kw_for = intern(env->intern, "for");
  lx->kw_in = intern(env->intern, "in");
  lx->kw_if = intern(env->intern, "if");
}

void lex_free(pcl_lexer *lx) {
  while (lx->nframes > 0)
    lex_pop(lx);
  free(lx->frames);
  free(lx->buf);
  lx->frames = NULL;
  lx->buf = NULL;
}

pcl_span lex_span(const pcl_lexer *lx, size_t start, size_t end) {
  if (lx->clamp)
    return lx->where;
  return (pcl_span){lx->file, lx->base + (uint32_t)start, lx->base + (uint32_t)end};
}

/* Counts an error; past LEX_MAX_ERRORS the scan stops so that garbage input
 * cannot produce an unbounded number of diagnostics. */
static void count_error(pcl_lexer *lx) {
  if (++lx->errors >= LEX_MAX_ERRORS)
    lx->fatal = true;
}

diag *lex_error(pcl_lexer *lx, size_t start, size_t end, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = diag_vformat(fmt, ap);
  va_end(ap);
  count_error(lx);
  diag *g = diag_error(lx->env->diags, lex_span(lx, start, end), "%s", msg);
  free(msg);
  return g;
}

diag *lex_error_at(pcl_lexer *lx, pcl_span span, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = diag_vformat(fmt, ap);
  va_end(ap);
  count_error(lx);
  diag *g = diag_error(lx->env->diags, lx->clamp ? lx->where : span, "%s", msg);
  free(msg);
  return g;
}

/* ------------------------------------------------------------------ frames */

bool lex_push(pcl_lexer *lx, lex_frame_kind kind) {
  size_t limit = lx->env->max_nesting ? lx->env->max_nesting : LEX_MAX_NESTING;
  /* The file or expression frame is not an open bracket. */
  if (lx->nframes > limit) {
    lex_error(lx, lx->tok_start, lx->pos,
              "Nesting too deep: Brackets, braces and templates may be nested at most %zu "
              "levels deep.",
              limit);
    lx->fatal = true;
    return false;
  }
  PCL__GROW(lx->frames, lx->capframes, lx->nframes + 1);
  lex_frame *f = &lx->frames[lx->nframes++];
  memset(f, 0, sizeof *f);
  f->kind = kind;
  f->open_start = (uint32_t)lx->tok_start;
  f->open_end = (uint32_t)lx->pos;
  f->errors = lx->errors;
  return true;
}

lex_frame *lex_top(pcl_lexer *lx) {
  if (lx->nframes == 0)
    ice("empty lexer frame stack");
  return &lx->frames[lx->nframes - 1];
}

void lex_pop(pcl_lexer *lx) {
  if (lx->nframes == 0)
    ice("lexer frame stack underflow");
  lex_frame *f = &lx->frames[--lx->nframes];
  free(f->segs);
  f->segs = NULL;
}

bool lex_newlines_significant(const pcl_lexer *lx) {
  switch (lx->frames[lx->nframes - 1].kind) {
  case LEX_TOP:
  case LEX_BODY:
  case LEX_OBJECT:
    return true;
  case LEX_EXPR:
  case LEX_FOR_OBJECT:
  case LEX_PAREN:
  case LEX_BRACKET:
  case LEX_INTERP:
  case LEX_DIRECTIVE:
  case LEX_QUOTED:
  case LEX_HEREDOC:
    return false;
  }
  ice("bad frame kind");
}

bool lex_after_operand(const pcl_lexer *lx) {
  switch (lx->last_token) {
  case TOK_IDENT:
  case TOK_NUMBER:
  case TOK_CQUOTE:
  case TOK_HEREDOC_END:
  case TOK_RPAREN:
  case TOK_RBRACK:
  case TOK_RBRACE:
    return true;
  default:
    return false;
  }
}

/* ------------------------------------------------------------------ Unicode */

/* Decodes the code point at s (at most avail bytes); returns its length. */
static size_t decode(const char *s, size_t avail, int32_t *cp) {
  utf8proc_ssize_t n = utf8proc_iterate((const utf8proc_uint8_t *)s,
                                        (utf8proc_ssize_t)avail, (utf8proc_int32_t *)cp);
  if (n <= 0) {
    *cp = -1;
    return 1;
  }
  return (size_t)n;
}

size_t lex_char_length(const char *s) {
  unsigned char c = (unsigned char)*s;
  if (c < 0x80)
    return 1;
  if (c >= 0xF0)
    return 4;
  if (c >= 0xE0)
    return 3;
  return 2;
}

/* UAX #31 ID_Start (letters and letter numbers, plus Other_ID_Start). */
static bool is_id_start(int32_t cp) {
  switch (utf8proc_category(cp)) {
  case UTF8PROC_CATEGORY_LU:
  case UTF8PROC_CATEGORY_LL:
  case UTF8PROC_CATEGORY_LT:
  case UTF8PROC_CATEGORY_LM:
  case UTF8PROC_CATEGORY_LO:
  case UTF8PROC_CATEGORY_NL:
    return true;
  default:
    return cp == 0x1885 || cp == 0x1886 || cp == 0x2118 || cp == 0x212E || cp == 0x309B ||
           cp == 0x309C;
  }
}

/* UAX #31 ID_Continue (ID_Start, marks, digits, connectors, Other_ID_Continue). */
static bool is_id_continue(int32_t cp) {
  if (is_id_start(cp))
    return true;
  switch (utf8proc_category(cp)) {
  case UTF8PROC_CATEGORY_MN:
  case UTF8PROC_CATEGORY_MC:
  case UTF8PROC_CATEGORY_ND:
  case UTF8PROC_CATEGORY_PC:
    return true;
  default:
    return cp == 0x00B7 || cp == 0x0387 || (cp >= 0x1369 && cp <= 0x1371) || cp == 0x19DA;
  }
}

static bool ascii_ident_char(unsigned char c, bool first) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_')
    return true;
  return !first && ((c >= '0' && c <= '9') || c == '-');
}

size_t lex_ident_length(const char *s, size_t n) {
  size_t i = 0;
  while (i < n) {
    unsigned char c = (unsigned char)s[i];
    if (c < 0x80) {
      if (!ascii_ident_char(c, i == 0))
        break;
      i++;
      continue;
    }
    int32_t cp;
    size_t len = decode(s + i, n - i, &cp);
    if (cp < 0 || !(i == 0 ? is_id_start(cp) : is_id_continue(cp)))
      break;
    i += len;
  }
  return i;
}

/* True for Go's unicode.IsSpace over the code point at s; *n receives its
 * byte length. */
static bool lex_is_space_at(const char *s, size_t avail, size_t *n) {
  unsigned char c = (unsigned char)*s;
  if (c < 0x80) {
    *n = 1;
    return c == ' ' || (c >= '\t' && c <= '\r');
  }
  int32_t cp;
  *n = decode(s, avail, &cp);
  switch (cp) {
  case 0x85:
  case 0xA0:
  case 0x1680:
  case 0x2028:
  case 0x2029:
  case 0x202F:
  case 0x205F:
  case 0x3000:
    return true;
  default:
    return cp >= 0x2000 && cp <= 0x200A;
  }
}

/* Returns how many leading bytes of s[0..n) are white space. */
static size_t space_prefix(const char *s, size_t n) {
  size_t i = 0, k;
  while (i < n && lex_is_space_at(s + i, n - i, &k))
    i += k;
  return i;
}

/* Returns the length of s[0..n) without its trailing white space. */
static size_t trim_right(const char *s, size_t n) {
  size_t end = n;
  while (end > 0) {
    size_t start = end - 1;
    while (start > 0 && ((unsigned char)s[start] & 0xC0) == 0x80)
      start--;
    size_t k;
    if (!lex_is_space_at(s + start, end - start, &k))
      break;
    end = start;
  }
  return end;
}

/* --------------------------------------------------------------- lookahead */

bool lex_for_follows(const pcl_lexer *lx, size_t pos) {
  const char *s = lx->text;
  size_t n = lx->len;
  while (pos < n) {
    char c = s[pos];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      pos++;
    } else if (c == '#' || (c == '/' && pos + 1 < n && s[pos + 1] == '/')) {
      while (pos < n && s[pos] != '\n')
        pos++;
    } else if (c == '/' && pos + 1 < n && s[pos + 1] == '*') {
      const char *end = NULL;
      for (size_t i = pos + 2; i + 1 < n; i++) {
        if (s[i] == '*' && s[i + 1] == '/') {
          end = s + i + 2;
          break;
        }
      }
      if (!end)
        return false;
      pos = (size_t)(end - s);
    } else {
      break;
    }
  }
  if (n - pos < 3 || memcmp(s + pos, "for", 3) != 0)
    return false;
  return lex_ident_length(s + pos, n - pos) == 3;
}

/* ------------------------------------------------------------ diagnostics */

void lex_check_number(pcl_lexer *lx, const char *text, size_t n) {
  size_t i = 0;
  while (i < n && text[i] >= '0' && text[i] <= '9')
    i++;
  if (i < n && text[i] == '.') {
    size_t j = ++i;
    while (i < n && text[i] >= '0' && text[i] <= '9')
      i++;
    if (i == j)
      i = n + 1;
  }
  if (i < n && (text[i] == 'e' || text[i] == 'E')) {
    i++;
    if (i < n && (text[i] == '+' || text[i] == '-'))
      i++;
    size_t j = i;
    while (i < n && text[i] >= '0' && text[i] <= '9')
      i++;
    if (i == j)
      i = n + 1;
  }
  if (i != n)
    lex_error(lx, lx->tok_start, lx->pos,
              "Invalid number literal: Failed to recognize the value of this number literal.");
}

void lex_invalid_char(pcl_lexer *lx, const char *s, size_t n) {
  const char *msg;
  switch (*s) {
  case '&':
    msg = "Unsupported operator: Bitwise operators are not supported. Did you mean boolean "
          "AND (\"&&\")?";
    break;
  case '|':
    msg = "Unsupported operator: Bitwise operators are not supported. Did you mean boolean "
          "OR (\"||\")?";
    break;
  case '^':
    msg = "Unsupported operator: Bitwise operators are not supported.";
    break;
  case ';':
    msg = "Invalid character: The \";\" character is not valid. Use newlines to separate "
          "arguments and blocks, and commas to separate items in collection values.";
    break;
  case '`':
    msg = "Invalid character: The \"`\" character is not valid. To create a multi-line "
          "string, use the \"heredoc\" syntax, like \"<<EOT\".";
    break;
  case '\'':
    msg = "Invalid character: Single quotes are not valid. Use double quotes (\") to enclose "
          "strings.";
    break;
  case '~':
    msg = "Invalid character: The \"~\" character is only valid as a strip marker, directly "
          "after \"${\" or \"%{\" or directly before the closing \"}\" of a template sequence.";
    break;
  case '\r':
    msg = "Invalid character: A carriage return must be followed by a line feed.";
    break;
  case '\0':
    msg = "Invalid character: NUL bytes are not allowed in source text.";
    break;
  default:
    msg = "Invalid character: This character is not used within the language.";
    break;
  }
  lex_error(lx, lx->tok_start, lx->tok_start + n, "%s", msg);
}

/* ------------------------------------------------------------ quoted runs */

void lex_run_begin(pcl_lexer *lx) {
  lex_frame *f = lex_top(lx);
  lx->in_run = true;
  lx->run_ltrim = f->ltrim_next;
  f->ltrim_next = false;
  lx->run_start = (uint32_t)lx->tok_start;
  lx->buflen = 0;
}

void lex_run_append(pcl_lexer *lx, const char *s, size_t n) {
  PCL__GROW(lx->buf, lx->bufcap, lx->buflen + n);
  memcpy(lx->buf + lx->buflen, s, n);
  lx->buflen += n;
}

/* Appends the UTF-8 encoding of cp, or reports that it has none. */
static void append_code_point(pcl_lexer *lx, int32_t cp, size_t n) {
  if (!utf8proc_codepoint_valid(cp)) {
    lex_error(lx, lx->tok_start, lx->tok_start + n,
              "Invalid escape sequence: Cannot encode character U+%04x in UTF-8.",
              (unsigned)cp);
    return;
  }
  utf8proc_uint8_t out[4];
  utf8proc_ssize_t k = utf8proc_encode_char(cp, out);
  lex_run_append(lx, (const char *)out, (size_t)k);
}

static int32_t parse_hex(const char *s, size_t n) {
  int32_t v = 0;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c - 'A' + 10;
    v = v * 16 + d;
  }
  return v;
}

void lex_run_escape(pcl_lexer *lx, const char *s, size_t n) {
  if (n == 1) {
    lex_error(lx, lx->tok_start, lx->tok_start + 1,
              "Invalid escape sequence: Backslash must be followed by an escape sequence "
              "selector character.");
    return;
  }
  switch (s[1]) {
  case 'n':
    lex_run_append(lx, "\n", 1);
    return;
  case 'r':
    lex_run_append(lx, "\r", 1);
    return;
  case 't':
    lex_run_append(lx, "\t", 1);
    return;
  case '"':
    lex_run_append(lx, "\"", 1);
    return;
  case '\\':
    lex_run_append(lx, "\\", 1);
    return;
  case 'u':
  case 'U': {
    size_t want = s[1] == 'u' ? 4 : 8;
    if (n != 2 + want) {
      lex_error(lx, lx->tok_start, lx->tok_start + n,
                "Invalid escape sequence: The \\%c escape sequence must be followed by %s "
                "hexadecimal digits.",
                s[1], want == 4 ? "four" : "eight");
      return;
    }
    int64_t cp = 0;
    for (size_t i = 0; i < want; i++)
      cp = cp * 16 + parse_hex(s + 2 + i, 1);
    if (cp > 0x7FFFFFFF)
      cp = 0x7FFFFFFF;
    append_code_point(lx, (int32_t)cp, n);
    return;
  }
  default:
    lex_error(lx, lx->tok_start, lx->tok_start + n,
              "Invalid escape sequence: The symbol \"%.*s\" is not a valid escape sequence "
              "selector.",
              (int)(n - 1), s + 1);
    lex_run_append(lx, s + 1, n - 1);
    return;
  }
}

/* Returns the literal text s[0..len) in NFC (pcl__nfc) in the arena,
 * storing its length in *out_len: s itself when it needs no change and
 * in_arena says it is arena memory already, else a copy. */
static const char *nfc_text(pcl_lexer *lx, const char *s, size_t len, bool in_arena,
                            size_t *out_len) {
  char *nfc = pcl__nfc(s, len, xmalloc, out_len);
  if (nfc == NULL) {
    *out_len = len;
    return in_arena ? s : arena_strndup(lx->env->arena, s, len);
  }
  char *text = arena_strndup(lx->env->arena, nfc, *out_len);
  free(nfc);
  return text;
}

/* Returns a new literal node for the run so far (text filled in later). */
static ast_node *new_literal(pcl_lexer *lx, size_t end) {
  ast_node *n = ast_new(lx->env->arena, AST_TEMPLATE_LITERAL, lex_span(lx, lx->run_start, end));
  n->literal.text = "";
  n->literal.len = 0;
  return n;
}

ast_node *lex_run_end_quoted(pcl_lexer *lx, size_t end, bool rtrim) {
  ast_node *n = new_literal(lx, end);
  const char *s = lx->buf ? lx->buf : "";
  size_t len = lx->buflen;
  if (lx->run_ltrim) {
    size_t k = space_prefix(s, len);
    s += k;
    len -= k;
  }
  if (rtrim)
    len = trim_right(s, len);
  n->literal.text = nfc_text(lx, s, len, false, &n->literal.len);
  lx->in_run = false;
  return n;
}

/* ---------------------------------------------------------------- heredocs */

static void add_seg(lex_frame *f, const char *s, size_t n, ast_node *lit) {
  PCL__GROW(f->segs, f->capsegs, f->nsegs + 1);
  f->segs[f->nsegs++] = (lex_seg){s, (uint32_t)n, lit};
}

void lex_heredoc_piece(pcl_lexer *lx, const char *s, size_t n) {
  lex_frame *f = lex_top(lx);
  if (!lx->in_run) {
    lx->in_run = true;
    lx->run_start = (uint32_t)lx->tok_start;
    lx->run_node = new_literal(lx, lx->pos);
  }
  /* A `~}` strips the leading white space of the very next piece only. */
  if (f->ltrim_next) {
    size_t k = space_prefix(s, n);
    s += k;
    n -= k;
    f->ltrim_next = false;
  }
  /* Pieces of one line that follow each other in the source are split only
     at `$` and `%`, which are not white space, so joining them changes
     neither stripping nor `<<-` trimming; it keeps a line like `$$$$...`
     from costing one record per character. */
  if (f->nsegs > 0) {
    lex_seg *g = &f->segs[f->nsegs - 1];
    if (g->lit == lx->run_node && g->text + g->len == s &&
        (g->len == 0 || g->text[g->len - 1] != '\n')) {
      g->len += (uint32_t)n;
      return;
    }
  }
  add_seg(f, s, n, lx->run_node);
}

void lex_heredoc_sequence(pcl_lexer *lx, bool rtrim) {
  lex_frame *f = lex_top(lx);
  if (rtrim && f->nsegs > 0 && f->segs[f->nsegs - 1].lit) {
    lex_seg *g = &f->segs[f->nsegs - 1];
    g->len = (uint32_t)trim_right(g->text, g->len);
  }
  f->ltrim_next = false;
  add_seg(f, NULL, 0, NULL);
}

ast_node *lex_run_end_heredoc(pcl_lexer *lx, size_t end) {
  ast_node *n = lx->run_node;
  n->span = lex_span(lx, lx->run_start, end);
  lx->in_run = false;
  lx->run_node = NULL;
  return n;
}

bool lex_heredoc_is_marker(pcl_lexer *lx, const char *line, size_t n) {
  lex_frame *f = lex_top(lx);
  size_t k = space_prefix(line, n);
  line += k;
  n = trim_right(line, n - k);
  return n == f->marker_len && memcmp(line, f->marker, n) == 0;
}

/* Counts the grapheme clusters in s[0..n). */
static size_t count_graphemes(const char *s, size_t n) {
  size_t count = 0, i = 0;
  int32_t prev = -1, state = 0;
  while (i < n) {
    int32_t cp;
    size_t k = decode(s + i, n - i, &cp);
    if (prev < 0 || utf8proc_grapheme_break_stateful(prev, cp, &state))
      count++;
    prev = cp;
    i += k;
  }
  return count;
}

/* Returns the byte length of the first `count` grapheme clusters of s. */
static size_t grapheme_bytes(const char *s, size_t n, size_t count) {
  size_t i = 0, seen = 0;
  int32_t prev = -1, state = 0;
  while (i < n) {
    int32_t cp;
    size_t k = decode(s + i, n - i, &cp);
    if (prev < 0 || utf8proc_grapheme_break_stateful(prev, cp, &state)) {
      if (seen == count)
        return i;
      seen++;
    }
    prev = cp;
    i += k;
  }
  return i;
}

/* HCL's flushHeredocTemplateParts: find the smallest indentation of the
 * line-leading pieces (blank lines excluded, a line starting with a sequence
 * counting as zero) and remove that many characters from each of them. */
static void flush_heredoc(lex_frame *f) {
  size_t min = SIZE_MAX;
  bool newline = true;
  for (size_t i = 0; i < f->nsegs; i++) {
    lex_seg *g = &f->segs[i];
    if (newline) {
      newline = false;
      size_t spaces = 0;
      if (g->lit) {
        size_t k = space_prefix(g->text, g->len);
        if (k == g->len && g->len > 0 && g->text[g->len - 1] == '\n')
          spaces = SIZE_MAX;
        else
          spaces = count_graphemes(g->text, k);
      }
      if (spaces < min)
        min = spaces;
    }
    if (g->lit && g->len > 0 && g->text[g->len - 1] == '\n')
      newline = true;
  }
  if (min == SIZE_MAX || min == 0)
    return;
  newline = true;
  for (size_t i = 0; i < f->nsegs; i++) {
    lex_seg *g = &f->segs[i];
    if (newline) {
      newline = false;
      if (g->lit) {
        size_t k = space_prefix(g->text, g->len);
        bool blank = k == g->len && g->len > 0 && g->text[g->len - 1] == '\n';
        if (!blank) {
          size_t cut = grapheme_bytes(g->text, g->len, min);
          g->text += cut;
          g->len -= (uint32_t)cut;
        }
      }
    }
    if (g->lit && g->len > 0 && g->text[g->len - 1] == '\n')
      newline = true;
  }
}

void lex_heredoc_finish(pcl_lexer *lx) {
  lex_frame *f = lex_top(lx);
  if (f->flush)
    flush_heredoc(f);
  /* Meld each run's pieces into its node. */
  size_t i = 0;
  while (i < f->nsegs) {
    ast_node *lit = f->segs[i].lit;
    if (!lit) {
      i++;
      continue;
    }
    size_t j = i, total = 0;
    while (j < f->nsegs && f->segs[j].lit == lit)
      total += f->segs[j++].len;
    char *text = arena_alloc(lx->env->arena, total + 1);
    size_t at = 0;
    for (size_t k = i; k < j; k++) {
      memcpy(text + at, f->segs[k].text, f->segs[k].len);
      at += f->segs[k].len;
    }
    text[total] = '\0';
    lit->literal.text = nfc_text(lx, text, total, true, &lit->literal.len);
    i = j;
  }
}

const char *lex_unclosed_message(const lex_frame *f, bool expression_start) {
  switch (f->kind) {
  case LEX_BODY:
    return "Unclosed configuration block: There is no closing brace for this block before the "
           "end of the file. This may be caused by incorrect brace nesting elsewhere in this "
           "file.";
  case LEX_OBJECT:
    return expression_start ? NULL
                            : "Unterminated object constructor expression: There is no "
                              "corresponding closing brace before the end of the file. This may "
                              "be caused by incorrect brace nesting elsewhere in this file.";
  case LEX_PAREN:
    return expression_start || !f->after_operand
               ? NULL
               : "Unterminated function call: There is no closing parenthesis for this function "
                 "call before the end of the file. This may be caused by incorrect parenthesis "
                 "nesting elsewhere in this file.";
  case LEX_BRACKET:
    return expression_start || f->after_operand || f->is_for
               ? NULL
               : "Unterminated tuple constructor expression: There is no corresponding closing "
                 "bracket before the end of the file. This may be caused by incorrect bracket "
                 "nesting elsewhere in this file.";
  case LEX_INTERP:
    return "Unclosed template interpolation sequence: There is no closing brace for this "
           "interpolation sequence before the end of the file. This might be caused by "
           "incorrect nesting inside the given expression.";
  case LEX_TOP:
  case LEX_EXPR:
  case LEX_FOR_OBJECT:
  case LEX_DIRECTIVE:
  case LEX_QUOTED:
  case LEX_HEREDOC:
    return NULL;
  }
  ice("bad frame kind");
}

pcl_span lex_opener_span(const pcl_lexer *lx, const lex_frame *f, bool with_name) {
  size_t start = f->open_start;
  if (with_name && f->kind == LEX_PAREN && f->after_operand)
    start = f->name_start;
  return lex_span(lx, start, f->open_end);
}

void lex_note_opener(const pcl_lexer *lx, diag *d, const lex_frame *f) {
  if (lx->clamp)
    return;
  diag_note(d, lex_opener_span(lx, f, false), "to match this '%.*s'",
            (int)(f->open_end - f->open_start), lx->text + f->open_start);
}

bool lex_opener_out_of_sight(const pcl_lexer *lx, const lex_frame *f, uint32_t at) {
  size_t end = at >= lx->base ? at - lx->base : 0;
  if (end > lx->len)
    end = lx->len;
  return end > f->open_end && memchr(lx->text + f->open_end, '\n', end - f->open_end) != NULL;
}

/* HCL's parser reports the string at the token that ends it early: the end
   of input. */
void lex_report_unterminated(pcl_lexer *lx) {
  diag *d = lex_error(lx, lx->len, lx->len,
                      "Unterminated template string: No closing marker was found for the "
                      "string.");
  lex_note_opener(lx, d, lex_top(lx));
}
