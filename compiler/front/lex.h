/* lex: the state shared by the flex scanner (grammar/pcl.l), the bison parser
 * (grammar/pcl.y) and parse.c, and the helpers the scanner's actions call.
 *
 * HCL's lexical structure depends on context: newlines are tokens only at
 * the top level, in block bodies and in object constructors; `}` may close a
 * block, an object or a template sequence; `for` is a keyword only right
 * after an opening bracket.  The scanner therefore keeps a stack of frames,
 * one per open bracket, template or template sequence, mirrored by flex's
 * start-condition stack.  Template literals are split into pieces exactly as
 * HCL's reference lexer splits them, so that strip markers (`~`) and `<<-`
 * indentation trimming see the same token boundaries; the scanner applies
 * both and hands the parser finished TEMPLATE_LITERAL nodes (a heredoc's
 * literals receive their text when the heredoc's closing marker is read,
 * which is before the parser reduces the heredoc).
 *
 * Invariants: the input has been checked to be UTF-8 without NUL bytes
 * before scanning starts; every span the scanner produces lies inside the
 * scanned text (or is the clamped `where` span of parse_expression_text). */
#ifndef PCLC_LEX_H
#define PCLC_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "front/ast.h"
#include "front/parse.h"

/* At most this many brackets, braces, templates and template sequences may
 * be open at once; the scanner reports "Nesting too deep" beyond it.  The
 * limit is a safety valve far above what HCL's parser accepts in practice
 * (it recurses, and a million levels exhaust Go's default stack); below it
 * memory is linear in the input: a frame here and a few parser stack
 * entries per level (YYMAXDEPTH in pcl.y bounds those). */
enum { LEX_MAX_NESTING = 1000000 };
/* After this many errors in one file the scanner stops (reports EOF). */
enum { LEX_MAX_ERRORS = 100 };

typedef enum lex_frame_kind {
  LEX_TOP,        /* File level: newlines are tokens. */
  LEX_EXPR,       /* A standalone expression: newlines are ignored. */
  LEX_BODY,       /* Block body `{`: newlines are tokens. */
  LEX_OBJECT,     /* Object constructor `{`: newlines are tokens. */
  LEX_FOR_OBJECT, /* `{for ...}`: newlines are ignored. */
  LEX_PAREN,      /* `(`: newlines are ignored. */
  LEX_BRACKET,    /* `[`: newlines are ignored. */
  LEX_INTERP,     /* `${` inside a template: newlines ignored, `}` returns. */
  LEX_DIRECTIVE,  /* `%{` inside a template: likewise. */
  LEX_QUOTED,     /* The body of a quoted template. */
  LEX_HEREDOC,    /* The body of a heredoc. */
} lex_frame_kind;

/* One token of a heredoc's body as HCL's lexer would produce it: a literal
 * piece (lit is the TEMPLATE_LITERAL node it becomes part of) or, with lit
 * NULL, an interpolation or directive. */
typedef struct lex_seg {
  const char *text; /* Literal bytes (borrowed from the source or static). */
  uint32_t len;     /* Byte length of text, after any stripping. */
  ast_node *lit;    /* Literal node the piece belongs to; NULL for a sequence. */
} lex_seg;

typedef struct lex_frame {
  lex_frame_kind kind;
  uint32_t open_start, open_end; /* Offsets of the opening token. */
  size_t errors;      /* Errors reported before the frame was opened. */
  bool after_operand; /* PAREN: a call's `(`; BRACKET: an index's `[`. */
  uint32_t name_start; /* PAREN of a call: offset of the function name. */
  bool is_for;        /* BRACKET: opens a `[for ...]` expression. */
  /* BRACKET of an index opened where newlines are tokens: as in HCL, the
     `*` of a full splat must then be on the line of the `[`, and the `]`
     on the line of the `*`. */
  bool splat_lines;
  bool splat_star;    /* BRACKET: a `*` came right after the `[`. */
  /* Templates (QUOTED and HEREDOC). */
  bool ltrim_next;    /* A `~}` closed the last sequence: strip the next literal. */
  /* HEREDOC only. */
  bool flush;         /* Written `<<-`: trim common indentation at the end. */
  bool start_of_line; /* The next piece starts a line (HCL's StartOfLine). */
  const char *marker; /* The closing marker identifier (borrowed from the source). */
  uint32_t marker_len; /* Its length in bytes. */
  lex_seg *segs;      /* Every piece of the body so far (owned, xmalloc). */
  size_t nsegs, capsegs; /* Pieces used and allocated. */
} lex_frame;

/* The scanner's and parser's shared context (flex's extra data and bison's
 * parse-param). */
typedef struct pcl_lexer {
  parse_env *env;      /* Arena, intern table, sources, diagnostics (borrowed). */
  uint32_t file;       /* Source id for spans. */
  const char *text;    /* The scanned text (borrowed). */
  size_t len;          /* Its length. */
  uint32_t base;       /* Span offset of text[0]. */
  bool clamp;          /* Give every span the value `where` (see parse.h). */
  pcl_span where;      /* The span every node gets when clamp is set. */
  size_t pos;          /* Offset in text just past the current token. */
  size_t tok_start;    /* Offset in text of the current token. */
  lex_frame *frames;   /* Open frames, innermost last (owned). */
  size_t nframes, capframes; /* Frames open and allocated. */
  int start_token;     /* Token to return first (selects file or expression). */
  int last_token;      /* The token most recently returned. */
  const char *last_ident; /* The text of the last identifier returned. */
  size_t ident_start;  /* Offset of the last identifier returned. */
  /* Newlines skipped where they are not tokens, since the last token
     returned: whether there was one and where the first one is. */
  bool nl_skipped;
  size_t nl_start, nl_end;
  bool expect_for;     /* The next identifier `for` starts a for expression. */
  /* The literal run being scanned (at most one at a time). */
  bool in_run;         /* Literal text has been read since the last sequence. */
  bool run_ltrim;      /* Strip leading white space when the run ends. */
  uint32_t run_start;  /* Offset of the run's first byte. */
  char *buf;           /* Decoded bytes of a quoted run (owned, reused). */
  size_t buflen, bufcap; /* Bytes used and allocated in buf. */
  ast_node *run_node;  /* The heredoc literal node being built. */
  /* Error state. */
  size_t errors;       /* Errors reported for this input. */
  bool fatal;          /* Stop scanning: return end of file from now on. */
  bool quiet;          /* A syntax error at offset quiet_at is not reported */
  size_t quiet_at;     /* (the scanner already reported its cause). */
  /* Interned contextual keywords, compared by pointer. */
  const char *kw_true, *kw_false, *kw_null, *kw_for, *kw_in, *kw_if;
  /* Results. */
  ast_list body;       /* The file's body (START_FILE). */
  ast_node *expr;      /* The expression (START_EXPR). */
} pcl_lexer;

/* The parser's name for the same context. */
typedef pcl_lexer pcl_parse_ctx;

/* Prepares lx to scan len bytes at text; `base` is the span offset of
 * text[0].  The bytes are borrowed and must outlive lx. */
void lex_init(pcl_lexer *lx, parse_env *env, uint32_t file, const char *text, size_t len,
              uint32_t base);
/* Frees everything lx owns (not the AST, which is in the arena). */
void lex_free(pcl_lexer *lx);

/* Returns the span of text offsets [start, end). */
pcl_span lex_span(const pcl_lexer *lx, size_t start, size_t end);
/* Reports an error at text offsets [start, end); returns the diagnostic. */
diag *lex_error(pcl_lexer *lx, size_t start, size_t end, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Reports an error at an existing span. */
diag *lex_error_at(pcl_lexer *lx, pcl_span span, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Pushes a frame opened by the current token; returns false (after
 * reporting "Nesting too deep" and stopping the scan) when too many are
 * open. */
bool lex_push(pcl_lexer *lx, lex_frame_kind kind);
/* Returns the innermost frame. */
lex_frame *lex_top(pcl_lexer *lx);
/* Pops the innermost frame, freeing its pieces. */
void lex_pop(pcl_lexer *lx);
/* True when newlines are tokens in the innermost frame. */
bool lex_newlines_significant(const pcl_lexer *lx);
/* True when the last token ends an expression (so `[` is an index). */
bool lex_after_operand(const pcl_lexer *lx);
/* True when, skipping white space, newlines and comments from offset pos,
 * the next token is the identifier `for`. */
bool lex_for_follows(const pcl_lexer *lx, size_t pos);

/* Returns how many leading bytes of s[0..n) form an identifier (0 when the
 * first character cannot start one). */
size_t lex_ident_length(const char *s, size_t n);
/* Returns the byte length of the UTF-8 character at s (1 for ASCII). */
size_t lex_char_length(const char *s);
/* Reports "Invalid number literal" when text is not a valid HCL number. */
void lex_check_number(pcl_lexer *lx, const char *text, size_t n);
/* Reports the error for a character that cannot start a token. */
void lex_invalid_char(pcl_lexer *lx, const char *s, size_t n);

/* Starts a literal run of a quoted template at the current token, taking
 * over a pending `~}` strip; the decoded bytes collect in lx->buf. */
void lex_run_begin(pcl_lexer *lx);
/* Appends n decoded bytes (copied from s) to the current run. */
void lex_run_append(pcl_lexer *lx, const char *s, size_t n);
/* Decodes the escape sequence at s (n bytes, starting with a backslash). */
void lex_run_escape(pcl_lexer *lx, const char *s, size_t n);
/* Ends the quoted run at offset `end`; rtrim strips trailing white space
 * (a following `${~`).  Returns the finished literal node (arena). */
ast_node *lex_run_end_quoted(pcl_lexer *lx, size_t end, bool rtrim);

/* Heredocs. */
/* Adds the literal piece s[0..n) (borrowed: source text or a static
 * string) to the innermost heredoc, starting a run when none is open. */
void lex_heredoc_piece(pcl_lexer *lx, const char *s, size_t n);
/* Records a sequence (interpolation or directive) in the innermost heredoc;
 * rtrim strips trailing white space of the piece just before it. */
void lex_heredoc_sequence(pcl_lexer *lx, bool rtrim);
/* Ends the heredoc run at offset `end` and returns its node (arena); the
 * node's text is set by lex_heredoc_finish. */
ast_node *lex_run_end_heredoc(pcl_lexer *lx, size_t end);
/* True when line (n bytes, without its line break) is the closing marker of
 * the innermost heredoc. */
bool lex_heredoc_is_marker(pcl_lexer *lx, const char *line, size_t n);
/* Applies `<<-` trimming and gives every literal of the innermost heredoc
 * its final text. */
void lex_heredoc_finish(pcl_lexer *lx);

/* Construct left open at the end of input. */
/* Returns HCL's message for the frame f left open at the end of input when
 * HCL reports it at the opening token (a block, an object or tuple after an
 * item, a call after an argument, an interpolation), or NULL when it is
 * reported at the end of input instead (where the parser was still expecting
 * an expression, when expression_start is set, and for every other frame). */
const char *lex_unclosed_message(const lex_frame *f, bool expression_start);
/* Returns the span of the token that opened f; for a call's parenthesis
 * with the function name when with_name is set. */
pcl_span lex_opener_span(const pcl_lexer *lx, const lex_frame *f, bool with_name);
/* Attaches the note "to match this '<opening token>'" to d, at the token
 * that opened f (nothing when spans are clamped). */
void lex_note_opener(const pcl_lexer *lx, diag *d, const lex_frame *f);
/* True when the text between the opening token of f and offset `at` (a span
 * offset) spans a line break, so that a diagnostic at `at` does not show
 * the opening token. */
bool lex_opener_out_of_sight(const pcl_lexer *lx, const lex_frame *f, uint32_t at);
/* Reports the quoted template or heredoc of the innermost frame as
 * unterminated at the end of input, with a note at its opening token. */
void lex_report_unterminated(pcl_lexer *lx);

#endif
