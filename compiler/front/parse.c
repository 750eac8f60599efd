/* parse: runs the scanner and parser over files and expression texts, and
 * checks what the grammar cannot (see parse.h).
 *
 * Order of work for a file: check that it is UTF-8 without NUL bytes (one
 * clear error instead of a cascade), skip a byte-order mark, scan and parse,
 * then -- only when that produced no error -- walk the block bodies
 * recursively, under the stack guard (base/stack.h), to report duplicate
 * attributes.  Nothing else here limits how deeply expressions nest: the
 * scanner and the parser keep their own stacks, with far higher safety
 * limits (lex.h), and the phases after parsing stop at the stack guard. */
#include "front/parse.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/stack.h"
#include "front/lex.h"
#include "pcl.tab.h"
#include "base/util.h"

#define YYSTYPE PCL_YYSTYPE
#define YYLTYPE PCL_YYLTYPE
#include "pcl.lex.h"

/* ------------------------------------------------------------- encoding */

/* Returns the length of the well-formed UTF-8 character at s, or 0. */
static size_t utf8_length(const unsigned char *s, size_t avail) {
  unsigned char c = s[0];
  if (c < 0x80)
    return 1;
  size_t len;
  unsigned char lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    if (c == 0xE0)
      lo = 0xA0;
    else if (c == 0xED)
      hi = 0x9F; /* No surrogates. */
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    if (c == 0xF0)
      lo = 0x90;
    else if (c == 0xF4)
      hi = 0x8F;
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

/* Returns the length of the run of ASCII bytes other than NUL that starts
 * s[0..len), rounded down to whole eight-byte words: source text is mostly
 * such bytes, and a word at a time checks them in a few instructions. */
static size_t ascii_words(const unsigned char *s, size_t len) {
  const uint64_t ones = 0x0101010101010101u, high = 0x8080808080808080u;
  size_t i = 0;
  for (; len - i >= 8; i += 8) {
    uint64_t w;
    memcpy(&w, s + i, sizeof w);
    /* A high bit is a non-ASCII byte; (w - ones) & ~w & high is not zero
       exactly when some byte of w is zero. */
    if ((w & high) != 0 || ((w - ones) & ~w & high) != 0)
      break;
  }
  return i;
}

/* Reports the first NUL byte or invalid UTF-8 sequence of text, whose byte
 * i has span offset base + i (or every span is `where` when clamp). */
static bool check_encoding(parse_env *env, uint32_t file, const char *text, size_t len,
                           uint32_t base, bool clamp, pcl_span where) {
  const unsigned char *s = (const unsigned char *)text;
  for (size_t i = 0; i < len;) {
    i += ascii_words(s + i, len - i);
    if (i == len)
      break;
    if (s[i] == 0 || s[i] >= 0x80) {
      size_t k = s[i] == 0 ? 0 : utf8_length(s + i, len - i);
      if (k == 0) {
        pcl_span at = clamp ? where : (pcl_span){file, base + (uint32_t)i, base + (uint32_t)i + 1};
        if (s[i] == 0)
          diag_error(env->diags, at,
                     "Invalid character: The input contains a NUL byte; this looks like a "
                     "binary file, not PCL source text.");
        else
          diag_error(env->diags, at,
                     "Invalid character encoding: All input files must be UTF-8 encoded. "
                     "Ensure that UTF-8 encoding is selected in your editor.");
        return false;
      }
      i += k;
    } else {
      i++;
    }
  }
  return true;
}

/* --------------------------------------------------------- post-parse checks */

/* A set of interned names (pointers), reused for every body. */
typedef struct name_set {
  const ast_node **slots; /* Attribute nodes by name; NULL = empty slot. */
  size_t cap;
} name_set;

static size_t hash_ptr(const void *p) {
  uintptr_t x = (uintptr_t)p;
  x ^= x >> 17;
  x *= (uintptr_t)0xed5ad4bbu;
  x ^= x >> 11;
  return (size_t)x;
}

/* Reports attributes of one body that repeat an earlier name. */
static void check_duplicates(parse_env *env, ast_list body, name_set *set) {
  size_t attrs = 0;
  for (size_t i = 0; i < body.count; i++)
    attrs += body.items[i]->kind == AST_ATTRIBUTE;
  if (attrs < 2)
    return;
  size_t cap = 16;
  while (cap < 2 * attrs)
    cap *= 2;
  if (!set->slots || cap > set->cap) {
    free(set->slots);
    set->slots = xmalloc(cap * sizeof *set->slots);
    set->cap = cap;
  }
  memset(set->slots, 0, cap * sizeof *set->slots);
  for (size_t i = 0; i < body.count; i++) {
    const ast_node *a = body.items[i];
    if (a->kind != AST_ATTRIBUTE)
      continue;
    const char *name = a->attribute.name.text;
    size_t j = hash_ptr(name) & (cap - 1);
    while (set->slots[j] && set->slots[j]->attribute.name.text != name)
      j = (j + 1) & (cap - 1);
    if (!set->slots[j]) {
      set->slots[j] = a;
      continue;
    }
    diag *g = diag_error(env->diags, a->attribute.name.span,
                         "Attribute redefined: The argument \"%s\" was already set. Each "
                         "argument may be set only once.",
                         name);
    diag_note(g, set->slots[j]->attribute.name.span, "\"%s\" was first set here", name);
  }
}

/* Checks body and the bodies of the blocks in it, in source order (blocks
 * nest only in blocks, never inside expressions). */
static void check_body(parse_env *env, ast_list body, name_set *names, bool *too_deep) {
  check_duplicates(env, body, names);
  for (size_t i = 0; i < body.count; i++) {
    const ast_node *n = body.items[i];
    if (n->kind != AST_BLOCK)
      continue;
    if (stack_too_deep(too_deep, env->diags, n->span))
      return;
    check_body(env, n->block.body, names, too_deep);
  }
}

/* Checks the bodies of roots and of every block nested in them; returns
 * false after reporting. */
static bool check_bodies(parse_env *env, ast_list roots) {
  size_t errors = env->diags->errors;
  name_set names = {NULL, 0};
  bool too_deep = false;
  check_body(env, roots, &names, &too_deep);
  free(names.slots);
  return env->diags->errors == errors;
}

/* ---------------------------------------------------------------- driving */

/* Scans and parses lx's text; the result is in lx->body or lx->expr. */
static void run_parser(pcl_lexer *lx) {
  yyscan_t scanner;
  if (pcl_yylex_init_extra(lx, &scanner) != 0)
    ice("cannot initialise the scanner");
  /* The scanner reads a copy that ends in its two end-of-buffer bytes
     (yy_scan_bytes would make it a byte at a time). */
  char *copy = xmalloc(lx->len + 2);
  memcpy(copy, lx->text, lx->len);
  copy[lx->len] = copy[lx->len + 1] = '\0';
  YY_BUFFER_STATE buf = pcl_yy_scan_buffer(copy, lx->len + 2, scanner);
  if (buf == NULL)
    ice("cannot set up the scanner's buffer");
  pcl_yyparse(scanner, lx);
  pcl_yy_delete_buffer(buf, scanner);
  pcl_yylex_destroy(scanner);
  free(copy);
}

bool parse_file(parse_env *env, uint32_t file_id, ast_file *out) {
  src_file *f = src_get(env->src, file_id);
  out->file = file_id;
  out->body = (ast_list){NULL, 0};
  size_t errors = env->diags->errors;
  if (f->len > INT32_MAX) {
    diag_error(env->diags, (pcl_span){file_id, 0, 0}, "File too large: %s is over 2 GiB.",
               f->path);
    return false;
  }
  if (!check_encoding(env, file_id, f->text, f->len, 0, false, (pcl_span){0, 0, 0}))
    return false;
  size_t skip = f->len >= 3 && memcmp(f->text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
  pcl_lexer lx;
  lex_init(&lx, env, file_id, f->text + skip, f->len - skip, (uint32_t)skip);
  lx.start_token = TOK_START_FILE;
  lx.tok_start = lx.pos = 0;
  if (!lex_push(&lx, LEX_TOP))
    ice("cannot open the top frame");
  run_parser(&lx);
  out->body = lx.body;
  lex_free(&lx);
  if (env->diags->errors != errors)
    return false;
  return check_bodies(env, out->body);
}

ast_node *parse_expression_text(parse_env *env, const char *text, size_t len, pcl_span where) {
  size_t errors = env->diags->errors;
  uint32_t base = where.start;
  bool clamp = true;
  if (where.file < env->src->count && len <= INT32_MAX) {
    src_file *f = src_get(env->src, where.file);
    size_t wlen = where.end >= where.start ? where.end - where.start : 0;
    if (where.end <= f->len && wlen == len && memcmp(f->text + where.start, text, len) == 0) {
      clamp = false;
    } else if (where.end <= f->len && wlen == len + 2 &&
               memcmp(f->text + where.start + 1, text, len) == 0) {
      base = where.start + 1;
      clamp = false;
    }
  }
  if (len > INT32_MAX) {
    diag_error(env->diags, where, "Expression too long to parse.");
    return NULL;
  }
  if (!check_encoding(env, where.file, text, len, base, clamp, where))
    return NULL;
  pcl_lexer lx;
  lex_init(&lx, env, where.file, text, len, base);
  lx.clamp = clamp;
  lx.where = where;
  lx.start_token = TOK_START_EXPR;
  if (!lex_push(&lx, LEX_EXPR))
    ice("cannot open the expression frame");
  run_parser(&lx);
  ast_node *expr = lx.expr;
  lex_free(&lx);
  if (env->diags->errors != errors || !expr)
    return NULL;
  return expr;
}

/* Reads one file into env->src; reports an I/O error. */
static bool read_file(parse_env *env, const char *path, uint32_t *id) {
  const char *err;
  if (src_read(env->src, path, id, &err))
    return true;
  diag_io_error(env->diags, "cannot read '%s': %s", path, err);
  return false;
}

parse_status parse_program(parse_env *env, const char *path, ast_program *out) {
  out->files = NULL;
  out->count = 0;
  struct stat st;
  if (stat(path, &st) != 0) {
    diag_io_error(env->diags, "cannot read '%s': %s", path, strerror(errno));
    return PARSE_IO_ERROR;
  }
  char **paths = NULL;
  size_t count = 0;
  if (S_ISDIR(st.st_mode)) {
    const char *err;
    if (!src_list_dir(path, &paths, &count, &err)) {
      diag_io_error(env->diags, "cannot read directory '%s': %s", path, err);
      return PARSE_IO_ERROR;
    }
    if (count == 0) {
      free(paths);
      diag_io_error(env->diags, "no .pp files in directory '%s'", path);
      return PARSE_IO_ERROR;
    }
  } else {
    paths = xmalloc(sizeof *paths);
    paths[0] = xstrdup(path);
    count = 1;
  }
  parse_status status = PARSE_OK;
  uint32_t *ids = xmalloc(count * sizeof *ids);
  /* Every file is tried, so that each one that cannot be read is named. */
  for (size_t i = 0; i < count; i++)
    if (!read_file(env, paths[i], &ids[i]))
      status = PARSE_IO_ERROR;
  if (status == PARSE_OK) {
    out->files = ARENA_NEW_ARRAY(env->arena, ast_file, count);
    out->count = count;
    for (size_t i = 0; i < count; i++)
      if (!parse_file(env, ids[i], &out->files[i]))
        status = PARSE_ERRORS;
  }
  for (size_t i = 0; i < count; i++)
    free(paths[i]);
  free(paths);
  free(ids);
  return status;
}
