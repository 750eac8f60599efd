/* pcl.h: the stable interface of libpclrt, for C programs that embed the
 * runtime: values, errors, futures and the scheduler loop, the built-in
 * functions, and a run with its entry point.  Values are opaque here; their
 * layout and the static-constant macros are in pcl_gen.h, which only code
 * that pclc generates should include.  The engine interface and the mocks
 * are in pcl_engine.h.
 *
 * Ownership: arguments are borrowed and results are owned, unless a
 * function's name ends in _take (it steals the argument it names).
 *
 * The header has one section per runtime module; each section is kept by
 * that module. */
#ifndef PCL_H
#define PCL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pcl_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ===================================================================== values
 * Tagged, refcounted, immutable values (runtime/value/: alloc.c, collections.c,
 * wrappers.c, compare.c, bigint.c, number.c, str.c, json.c, error.c, ...).
 *
 * A value is a pcl_value *.  Heap values carry a reference count; static
 * values (refs == 0) are immortal: pcl_retain and pcl_release skip them, so
 * generated C declares its constants as static data with the PCL_STATIC_*
 * initialisers below and passes their addresses around like any other value.
 * Values are never mutated once shared, so they cannot form cycles.
 *
 * Kinds: null, bool, int (exact: int64 fast path, else a GMP magnitude),
 * number (an IEEE double, never NaN), string (UTF-8 in NFC, length-counted,
 * may contain NUL; pcl_str_from_bytes makes the one exception to UTF-8),
 * list (also tuples), map (also objects; keys are strings sorted by bytes),
 * set (sorted by pcl_compare, no duplicates), resource
 * reference, asset, archive, unknown (not known during preview), secret (a
 * value marked secret, nested inside plain values as the engine's property
 * model allows) and eventual (an output future nested inside a plain value,
 * e.g. an element of a resource input list; owned through an ops table so
 * that this layer does not depend on the future layer).
 *
 * Fallible functions return NULL and store a new pcl_error in *err (err must
 * not be NULL; the caller owns the error).  Allocation never fails: memory
 * that runs out ends the program through pcl_xmalloc, with status 2 and a
 * message (after pcl_main wrote the snapshot). */


typedef struct pcl_value pcl_value;
typedef struct pcl_error pcl_error;

/* The value kinds, once: X(NAME, "name"). */
#define PCL_VALUE_KINDS(X)                                                   \
  X(NULL, "null")                                                            \
  X(BOOL, "bool")                                                            \
  X(INT, "int")                                                              \
  X(NUMBER, "number")                                                        \
  X(STRING, "string")                                                        \
  X(LIST, "list")                                                            \
  X(MAP, "map")                                                              \
  X(SET, "set")                                                              \
  X(RESOURCE, "resource")                                                    \
  X(ASSET, "asset")                                                          \
  X(ARCHIVE, "archive")                                                      \
  X(UNKNOWN, "unknown")                                                      \
  X(SECRET, "secret")                                                        \
  X(EVENTUAL, "eventual")

typedef enum pcl_kind {
#define PCL__KIND_ENUM(name, text) PCL_T_##name,
  PCL_VALUE_KINDS(PCL__KIND_ENUM)
#undef PCL__KIND_ENUM
} pcl_kind;

/* Asset and archive subkinds (pcl_value.sub). */
typedef enum pcl_asset_kind {
  PCL_ASSET_FILE,   /* Payload: the path (string). */
  PCL_ASSET_STRING, /* Payload: the text (string). */
  PCL_ASSET_REMOTE, /* Payload: the URI (string). */
} pcl_asset_kind;

typedef enum pcl_archive_kind {
  PCL_ARCHIVE_FILE,   /* Payload: the path of a file or directory (string). */
  PCL_ARCHIVE_REMOTE, /* Payload: the URI (string). */
  PCL_ARCHIVE_ASSETS, /* Payload: a map from names to assets and archives. */
} pcl_archive_kind;

/* -- Memory and lifetime. */

/* Returns n bytes (n may be 0); ends the program (status 2, a message) when
 * memory is exhausted.  Free with free(). */
void *pcl_xmalloc(size_t n) __attribute__((returns_nonnull));
/* Returns count * size zeroed bytes; ends the program as pcl_xmalloc does on
 * overflow or exhaustion. */
void *pcl_xcalloc(size_t count, size_t size) __attribute__((returns_nonnull));
/* Resizes p (which may be NULL) to n bytes; ends the program as pcl_xmalloc
 * does on exhaustion. */
void *pcl_xrealloc(void *p, size_t n) __attribute__((returns_nonnull));
/* Returns an owned heap copy of the NUL-terminated string s. */
char *pcl_xstrdup(const char *s) __attribute__((returns_nonnull));

/* Returns v (which may be NULL) with one more reference; the caller owns it. */
pcl_value *pcl_retain(pcl_value *v);
/* Drops the caller's reference to v (NULL and immortal values are ignored). */
void pcl_release(pcl_value *v);

/* Returns the number of heap values currently alive. */
size_t pcl_rt_live_values(void);
/* Returns the bytes held by live heap values and GMP, as counted by the
 * value layer's allocator (pcl_xmalloc blocks are not counted). */
size_t pcl_rt_live_bytes(void);
/* Installs the counting GMP allocator; idempotent.  It also runs as a
 * constructor, so calling it is only needed before GMP is used directly. */
void pcl_values_init(void);
/* Reports live values and bytes to f (if not NULL) and returns true when
 * none remain; debug builds call it at shutdown and fail when it is false. */
bool pcl_values_check_leaks(FILE *f);

/* -- The size limit.  A value that would grow past the limit (a string's
 * bytes, a list's or set's elements at 8 bytes each, a map's entries at 16,
 * an int's magnitude, a toJSON result, a file read by readFile, a JSON
 * input, a value in an engine's answer) fails with an error instead of
 * exhausting memory.  Compiled programs set it from --max-value-size or
 * PCL_MAX_VALUE_SIZE.  The default, 400 MiB, is the largest answer the
 * Pulumi SDKs take over the engine protocol, so that no value they accept
 * from an engine is refused (a provider's output of 100 MiB, say). */

#define PCL_VALUE_LIMIT_DEFAULT ((size_t)400 << 20)
/* Returns the limit in bytes (PCL_VALUE_LIMIT_DEFAULT until set). */
size_t pcl_value_limit(void);
/* Sets the limit in bytes. */
void pcl_set_value_limit(size_t bytes);

/* -- Errors. */

/* Returns a new error whose message is printf-formatted; the caller owns it. */
pcl_error *pcl_error_new(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Like pcl_error_new with a va_list. */
pcl_error *pcl_error_newv(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
/* Returns an owned copy of e (message and location). */
pcl_error *pcl_error_copy(const pcl_error *e);
/* Prepends formatted context and ": " to e's message. */
void pcl_error_prefix(pcl_error *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Attaches the PCL source location unless e already has one; file is
 * copied.  line and col are 1-based. */
void pcl_error_set_location(pcl_error *e, const char *file, unsigned line, unsigned col);
/* Returns e's message (borrowed from e). */
const char *pcl_error_message(const pcl_error *e);
/* Returns e's location file (borrowed), or NULL when none is attached. */
const char *pcl_error_file(const pcl_error *e);
/* Returns e's location line and column (0 when none is attached). */
unsigned pcl_error_line(const pcl_error *e);
unsigned pcl_error_column(const pcl_error *e);
/* Returns the D11 form "file:line:col: error: message" (or "error: message"
 * without a location) as an owned NUL-terminated string (free()). */
char *pcl_error_format(const pcl_error *e);
/* Writes pcl_error_format(e) and a newline to f; to stderr on a terminal
 * in colour as gcc prints its diagnostics (the location bold, "error:" in
 * bold red), unless NO_COLOR is set and not empty or TERM is dumb. */
void pcl_error_print(const pcl_error *e, FILE *f);
/* Frees e (NULL is ignored). */
void pcl_error_free(pcl_error *e);

/* -- Construction of scalars.  Results are owned. */

/* The immortal null, true, false and unknown values. */
extern pcl_value pcl_null_value, pcl_true_value, pcl_false_value, pcl_unknown_value;
static inline pcl_value *pcl_null(void) { return &pcl_null_value; }
static inline pcl_value *pcl_unknown(void) { return &pcl_unknown_value; }
static inline pcl_value *pcl_bool(bool b) { return b ? &pcl_true_value : &pcl_false_value; }

/* Returns the int v. */
pcl_value *pcl_int_new(int64_t v);
/* Returns the int written in decimal by text[0..len) (number syntax as
 * pcl_num_literal: "42", "-7", "1e3", "10.0"); NULL and *err when the text
 * is not a number or its value is not an integer ("1.5", "abc"). */
pcl_value *pcl_int_parse(const char *text, size_t len, pcl_error **err);
/* Returns the number d; d must not be NaN (that aborts). */
pcl_value *pcl_number_new(double d);
/* Returns the value of the decimal numeric literal text[0..len) (digits,
 * optional fraction and exponent, optional sign): an exact int when the
 * value is integral (1e40 has 41 digits), else the correctly rounded number.
 * NULL and *err when the text is not a number, when the int would be
 * absurdly long (more than 100000 digits), or when a nonzero value rounds
 * to 0 ("1e-400"), as the same literal in a program is refused. */
pcl_value *pcl_num_literal(const char *text, size_t len, pcl_error **err);


/* -- Access.  Pointers returned by accessors are borrowed from the value. */

/* Returns v's kind. */
pcl_kind pcl_kind_of(const pcl_value *v);
/* Returns the kind's name ("null", "int", ...), static. */
const char *pcl_kind_name(pcl_kind k);
/* Returns the boolean of a BOOL value. */
bool pcl_bool_get(const pcl_value *v);
/* Returns whether v is an INT or NUMBER. */
bool pcl_is_numeric(const pcl_value *v);
/* Stores an INT's value in *out and returns true when it fits int64. */
bool pcl_int_get_i64(const pcl_value *v, int64_t *out);
/* Returns -1, 0 or 1: the sign of an INT or NUMBER. */
int pcl_num_sign(const pcl_value *v);
/* Returns an INT or NUMBER as a double (ints rounded to nearest, ties to
 * even; beyond the double range: infinity). */
double pcl_num_to_double(const pcl_value *v);
/* Returns a NUMBER's double. */
double pcl_number_get(const pcl_value *v);
/* Returns a STRING's bytes (NUL-terminated) and byte length. */
const char *pcl_str_data(const pcl_value *v);
size_t pcl_str_len(const pcl_value *v);
/* Returns the number of extended grapheme clusters of a STRING. */
size_t pcl_str_graphemes(const pcl_value *v);
/* Returns the element count of a LIST or SET, or the entry count of a MAP. */
size_t pcl_len(const pcl_value *v);
/* Returns element i of a LIST or SET (borrowed); i < pcl_len(v). */
pcl_value *pcl_list_at(const pcl_value *v, size_t i);
/* Returns the key or value of a MAP's entry i (borrowed). */
pcl_value *pcl_map_key_at(const pcl_value *v, size_t i);
pcl_value *pcl_map_val_at(const pcl_value *v, size_t i);
/* Returns the value of a MAP's key (borrowed), or NULL when absent. */
pcl_value *pcl_map_get(const pcl_value *map, const char *key, size_t key_len);
/* Like pcl_map_get with a NUL-terminated key. */
pcl_value *pcl_map_get_cstr(const pcl_value *map, const char *key);


/* -- Strings. */

/* Returns the string of the UTF-8 bytes s[0..len), NFC-normalised; NULL and
 * *err when the bytes are not valid UTF-8. */
pcl_value *pcl_str_new(const char *s, size_t len, pcl_error **err);
/* Like pcl_str_new, but replaces invalid UTF-8 sequences by U+FFFD. */
pcl_value *pcl_str_new_lossy(const char *s, size_t len);
/* Returns the string of the bytes s[0..len) from outside the program (a
 * provider's output), keeping the bytes that are not valid UTF-8 as they
 * are, so that they pass through unchanged as the reference passes them;
 * the valid runs between them are NFC-normalised.  This is the only way a
 * STRING holds bytes that are not UTF-8: pcl_strbuf_finish (templates,
 * join) rejects such bytes, and JSON encoding writes each as \ufffd. */
pcl_value *pcl_str_from_bytes(const char *s, size_t len);
/* Returns pcl_str_new_lossy(s, strlen(s)). */
pcl_value *pcl_str_from_cstr(const char *s);
/* Returns the concatenation of the STRINGs a and b (NFC; bytes that are
 * not UTF-8 are kept as pcl_str_from_bytes keeps them). */
pcl_value *pcl_str_concat(const pcl_value *a, const pcl_value *b);
/* Returns whether the STRING v equals the NUL-terminated s byte for byte. */
bool pcl_str_eq_cstr(const pcl_value *v, const char *s);

/* A growable byte buffer for building strings (templates, join, ...).
 * Initialise with PCL_STRBUF_INIT or pcl_strbuf_init; the bytes are kept
 * NUL-terminated. */
typedef struct pcl_strbuf {
  char *data; /* The bytes (NULL while empty and unallocated). */
  size_t len; /* Bytes used, without the terminating NUL. */
  size_t cap; /* Bytes allocated. */
} pcl_strbuf;
#define PCL_STRBUF_INIT {NULL, 0, 0}
/* Makes b empty (owning nothing). */
void pcl_strbuf_init(pcl_strbuf *b);
/* Appends s[0..n) to b (bytes are copied; no validation until finish). */
void pcl_strbuf_append(pcl_strbuf *b, const char *s, size_t n);
/* Appends the NUL-terminated s, the byte c, or printf-formatted text. */
void pcl_strbuf_append_cstr(pcl_strbuf *b, const char *s);
void pcl_strbuf_append_char(pcl_strbuf *b, char c);
void pcl_strbuf_appendf(pcl_strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends the template form of v (borrowed): strings as they are, numbers
 * and ints in decimal, bools as true/false; false and *err for null,
 * unknown and other kinds (template interpolation rules), and when the text
 * would grow past the value size limit (checked before it grows). */
bool pcl_strbuf_append_value(pcl_strbuf *b, const pcl_value *v, pcl_error **err);
/* Returns the built string (validated, NFC) and empties b; NULL and *err
 * when the bytes are not valid UTF-8 (b is emptied either way). */
pcl_value *pcl_strbuf_finish(pcl_strbuf *b, pcl_error **err);
/* Frees b's bytes and empties it. */
void pcl_strbuf_free(pcl_strbuf *b);

/* -- Collections.  Item arrays passed in are borrowed. */

/* Returns a list of n slots that the caller fills with pcl_list_init_take
 * before the list is used in any other way. */
pcl_value *pcl_list_new(size_t n);
/* Stores item (stolen) in slot i of a list made by pcl_list_new. */
void pcl_list_init_take(pcl_value *list, size_t i, pcl_value *item);
/* Returns the list of items[0..n) (each retained). */
pcl_value *pcl_list_of(pcl_value *const *items, size_t n);
/* Returns the list of items[0..n), stealing each item. */
pcl_value *pcl_list_of_take(pcl_value *const *items, size_t n);
/* Returns the set of items[0..n) (each retained), sorted by pcl_compare,
 * duplicates (pcl_equal) removed.  No item may hold an EVENTUAL value
 * anywhere (that aborts): eventual values order only by address. */
pcl_value *pcl_set_of(pcl_value *const *items, size_t n);
/* Like pcl_set_of, stealing each item. */
pcl_value *pcl_set_of_take(pcl_value *const *items, size_t n);
/* Returns the map of the pairs keys[i] -> vals[i] (each retained), sorted by
 * key bytes; of equal keys the last pair wins.  Every key must be a STRING. */
pcl_value *pcl_map_of(pcl_value *const *keys, pcl_value *const *vals, size_t n);
/* Like pcl_map_of, stealing each key and value. */
pcl_value *pcl_map_of_take(pcl_value *const *keys, pcl_value *const *vals, size_t n);

/* A growable list of key/value pairs for building maps. */
typedef struct pcl_mapbuf {
  pcl_value **keys; /* Owned keys (the block holding both arrays). */
  pcl_value **vals; /* Owned values (in the keys' block, not freed alone). */
  size_t n;         /* Pairs used. */
  size_t cap;       /* Pairs allocated. */
} pcl_mapbuf;
#define PCL_MAPBUF_INIT {NULL, NULL, 0, 0}
/* Adds the pair key -> val, stealing both (key must be a STRING). */
void pcl_mapbuf_put_take(pcl_mapbuf *b, pcl_value *key, pcl_value *val);
/* Adds the pair with the NUL-terminated key, stealing val. */
void pcl_mapbuf_put_cstr(pcl_mapbuf *b, const char *key, pcl_value *val);
/* Returns the map of b's pairs (as pcl_map_of_take) and empties b. */
pcl_value *pcl_mapbuf_finish(pcl_mapbuf *b);
/* Releases b's pairs and empties it. */
void pcl_mapbuf_free(pcl_mapbuf *b);


/* -- Other kinds.  Arguments are borrowed. */

/* Returns a resource reference; urn is a STRING, id a STRING, null or
 * unknown (NULL means null), version a STRING or NULL (null). */
pcl_value *pcl_resource_new(pcl_value *urn, pcl_value *id, pcl_value *version);
/* Return a RESOURCE's urn, id and version (borrowed; id and version may be
 * the null value). */
pcl_value *pcl_resource_urn(const pcl_value *v);
pcl_value *pcl_resource_id(const pcl_value *v);
pcl_value *pcl_resource_version(const pcl_value *v);
/* Returns an asset; payload is the STRING path, text or URI. */
pcl_value *pcl_asset_new(pcl_asset_kind kind, pcl_value *payload);
/* Returns an archive; payload is a STRING path or URI, or for
 * PCL_ARCHIVE_ASSETS a MAP whose values are assets and archives. */
pcl_value *pcl_archive_new(pcl_archive_kind kind, pcl_value *payload);
/* Return the subkind of an ASSET or ARCHIVE. */
pcl_asset_kind pcl_asset_kind_of(const pcl_value *v);
pcl_archive_kind pcl_archive_kind_of(const pcl_value *v);
/* Returns an asset's or archive's payload (borrowed). */
pcl_value *pcl_asset_payload(const pcl_value *v);
/* Returns inner marked secret (a secret of a secret is the same secret). */
pcl_value *pcl_secret_new(pcl_value *inner);
/* Returns a SECRET's inner value (borrowed). */
pcl_value *pcl_secret_inner(const pcl_value *v);
/* Returns whether v contains no UNKNOWN and no EVENTUAL anywhere. */
bool pcl_is_wholly_known(const pcl_value *v);
/* Returns whether v contains a SECRET anywhere. */
bool pcl_has_secret(const pcl_value *v);
/* Returns v with every SECRET wrapper removed, at any depth. */
pcl_value *pcl_strip_secrets(pcl_value *v);


/* -- Equality, ordering, operators. */

/* Returns whether a and b are equal as PCL's == decides for known values:
 * ints and numbers by exact numeric value (1 == 1.0), strings by bytes,
 * collections element-wise, no conversion between kinds (1 != "1"). */
bool pcl_equal(const pcl_value *a, const pcl_value *b);
/* Returns <0, 0 or >0: a total order consistent with pcl_equal (kinds in
 * enum order, with INT and NUMBER compared together by exact value).
 * EVENTUAL values compare by identity, an order that depends on addresses
 * and so must not reach output. */
int pcl_compare(const pcl_value *a, const pcl_value *b);

/* Arithmetic on two operands converted to numbers first ("1" + 2 is 3).
 * int op int is exact for + - * % (truncated remainder: -7 % 3 is -1); "/"
 * yields a number (the exact quotient rounded once); an int zero divisor of
 * "/" or "%" is an error; a number zero divisor gives infinity for "/" and
 * the dividend for "%"; an operation that would give NaN is an error.  An
 * UNKNOWN operand gives UNKNOWN.  NULL and *err on failure. */
pcl_value *pcl_op_add(const pcl_value *a, const pcl_value *b, pcl_error **err);
pcl_value *pcl_op_sub(const pcl_value *a, const pcl_value *b, pcl_error **err);
pcl_value *pcl_op_mul(const pcl_value *a, const pcl_value *b, pcl_error **err);
pcl_value *pcl_op_div(const pcl_value *a, const pcl_value *b, pcl_error **err);
pcl_value *pcl_op_mod(const pcl_value *a, const pcl_value *b, pcl_error **err);
pcl_value *pcl_op_neg(const pcl_value *a, pcl_error **err);
/* Numeric comparisons (operands converted to numbers; exact for ints and
 * int vs number); a BOOL result, UNKNOWN for an unknown operand. */
pcl_value *pcl_op_lt(const pcl_value *a, const pcl_value *b, pcl_error **err);
pcl_value *pcl_op_le(const pcl_value *a, const pcl_value *b, pcl_error **err);
pcl_value *pcl_op_gt(const pcl_value *a, const pcl_value *b, pcl_error **err);
pcl_value *pcl_op_ge(const pcl_value *a, const pcl_value *b, pcl_error **err);
/* == and != as BOOL values (pcl_equal); UNKNOWN when either operand is not
 * wholly known.  They never fail. */
pcl_value *pcl_op_eq(const pcl_value *a, const pcl_value *b);
pcl_value *pcl_op_ne(const pcl_value *a, const pcl_value *b);
/* !a, a && b, a || b (types.md 10): each operand must be a bool or one of
 * the strings "true", "1", "false", "0", which convert; null and other
 * values fail naming the value ("invalid operand: cannot convert \"yes\"
 * to bool: a bool is required").  An operand that decides && or || (false,
 * true) wins over an UNKNOWN other operand; otherwise an UNKNOWN operand
 * gives UNKNOWN.  A SECRET operand gives a SECRET result.  NULL and *err on
 * failure. */
pcl_value *pcl_op_not(const pcl_value *a, pcl_error **err);
pcl_value *pcl_op_and(const pcl_value *a, const pcl_value *b, pcl_error **err);
pcl_value *pcl_op_or(const pcl_value *a, const pcl_value *b, pcl_error **err);
/* Decides the condition v of a conditional expression, of a for
 * expression's filter or of a bool range: stores its truth in *out and
 * returns true.  Conversions as for !; a SECRET is read through (secretness
 * is the caller's to carry); null, UNKNOWN and values that do not convert
 * fail ("invalid condition: ..."). */
bool pcl_condition_get(const pcl_value *v, bool *out, pcl_error **err);
/* Compares two INT or NUMBER values exactly; returns <0, 0 or >0. */
int pcl_num_compare(const pcl_value *a, const pcl_value *b);

/* -- Conversions (types.md 4.5).  null converts to null and UNKNOWN to
 * UNKNOWN; otherwise NULL and *err when the value does not convert. */

/* number/int → decimal text (no exponent), bool → "true"/"false". */
pcl_value *pcl_convert_to_string(const pcl_value *v, pcl_error **err);
/* string → int or number (an int when the text's value is integral). */
pcl_value *pcl_convert_to_number(const pcl_value *v, pcl_error **err);
/* number/string → int when the value is an exact integer. */
pcl_value *pcl_convert_to_int(const pcl_value *v, pcl_error **err);
/* "true"/"1" → true, "false"/"0" → false. */
pcl_value *pcl_convert_to_bool(const pcl_value *v, pcl_error **err);

/* -- Formatting. */

/* Appends the shortest decimal that reads back as d, without exponent
 * ("1000000000000000000000", "0.0000001"); negative zero as "-0" (as the
 * reference prints it); infinities as "+Inf"/"-Inf". */
void pcl_number_format(pcl_strbuf *b, double d);
/* Appends an INT's exact decimal digits. */
void pcl_int_format(pcl_strbuf *b, const pcl_value *v);
/* Returns a short printable form of v for error messages (strings quoted,
 * collections abbreviated, at most about max bytes) as an owned C string.
 * A SECRET inside v prints as [secret]; inside an apply callback whose
 * input is secret, or an operation on a SECRET, the whole form is
 * "[secret]", so that no message shows a secret in clear. */
char *pcl_value_repr(const pcl_value *v, size_t max);

/* -- JSON (runtime/value/json.c).  Ints are exact in both directions. */

enum {
  PCL_JSON_PRETTY = 1,      /* Two-space indentation and newlines. */
  PCL_JSON_HTML_ESCAPE = 2, /* Escape < > & as \u003c \u003e \u0026 (Go). */
  /* Encode UNKNOWN, SECRET, RESOURCE, ASSET and ARCHIVE in Pulumi's wire
   * form (the unknown sentinel string and the signature-keyed objects), and
   * decode those forms back into such values. */
  PCL_JSON_WIRE = 4,
  /* Decode the snapshot encoding of docs/snapshot.md: {"secret": v} as a
   * SECRET, {"unknown": true} as UNKNOWN, {"resource_ref": {"urn": ...,
   * "id": ...}} as a RESOURCE; a wrapper with another payload is an error
   * naming its JSON path.  (Encoding it is pcl__snap_encode's job.) */
  PCL_JSON_SNAPSHOT = 8,
  /* Decode strings as their bytes, not put in NFC: a config document's
   * values are raw text that their types parse (an escape's letter must
   * not compose with a combining mark after it), normalised after. */
  PCL_JSON_RAW_TEXT = 16,
};
/* Returns the JSON text of v as an owned NUL-terminated string (free()) and
 * its length in *len (len may be NULL).  Map keys are sorted; numbers have
 * no exponent; U+2028/U+2029 are escaped.  NULL and *err for infinity, for
 * a text over the value size limit, and without PCL_JSON_WIRE for unknown,
 * resource, asset, archive and eventual values (secrets are encoded as
 * their inner value). */
char *pcl_json_encode(const pcl_value *v, unsigned flags, size_t *len, pcl_error **err);
/* Appends the JSON text of v to b as if it stood at nesting depth depth (the
 * indentation of PCL_JSON_PRETTY continues from there; the first line is not
 * indented); false and *err on failure, with b as it was before. */
bool pcl_json_append(pcl_strbuf *b, const pcl_value *v, unsigned flags, unsigned depth,
                     pcl_error **err);
/* Appends the JSON string literal of the bytes s[0..len) to b (quotes and
 * escapes as pcl_json_encode; flags: PCL_JSON_HTML_ESCAPE). */
void pcl_json_quote(pcl_strbuf *b, const char *s, size_t len, unsigned flags);
/* Returns the JSON text as a string value (toJSON uses PCL_JSON_HTML_ESCAPE). */
pcl_value *pcl_json_to_string(const pcl_value *v, unsigned flags, pcl_error **err);
/* Writes the JSON text to f; false and *err on failure (nothing written). */
bool pcl_json_write(FILE *f, const pcl_value *v, unsigned flags, pcl_error **err);
/* Returns the value of the JSON text text[0..len): objects become maps,
 * arrays lists, integral numbers exact ints (any length), other numbers
 * numbers; NULL and *err (with the byte offset) for invalid JSON, and for a
 * text, array or object over the value size limit.  Any nesting depth is
 * read, in time linear in the length. */
pcl_value *pcl_json_decode(const char *text, size_t len, unsigned flags, pcl_error **err);

/* ==================================================================== futures
 * Output and promise futures and the scheduler loop (runtime/async/future.c,
 * sched.c).
 *
 * A future is a refcounted cell that is pending, then settles once: resolved
 * with a value (plus the output bits of lowering.md §5: unknown, secret and
 * the set of resource URNs the value depends on) or rejected with an error.
 * A promise is a future that started without that output information;
 * combining a promise with an output yields an output.
 *
 * Callbacks registered with pcl_future_then always run later, from the
 * scheduler loop, never inside the call that registers them or settles the
 * future, and each runs exactly once: a future that can never settle is
 * rejected ("cancelled") when the loop gives up, so callback data is always
 * handed back.  One loop per process, run only by pcl_main (or a test); it
 * is not reentrant and there are no threads.
 *
 * Resolving normalises the value: a top-level SECRET sets the secret bit and
 * is unwrapped, UNKNOWN sets the unknown bit, and an EVENTUAL (a future held
 * in a value) is flattened: the future follows the inner one, merging bits
 * and dependencies.  Values nested inside lists and maps keep their SECRET,
 * UNKNOWN and EVENTUAL elements (an object with one unknown property is not
 * wholly unknown); pcl_future_await_deep resolves nested EVENTUALs. */

typedef struct pcl_future pcl_future;
/* An immutable, refcounted set of resource URNs (NULL is the empty set). */
typedef struct pcl_deps pcl_deps;

typedef enum pcl_future_kind {
  PCL_OUTPUT,  /* Carries known/secret/dependency information. */
  PCL_PROMISE, /* Plain eventual value (an invoke's plain form). */
} pcl_future_kind;

typedef enum pcl_future_state {
  PCL_FUTURE_PENDING,
  PCL_FUTURE_RESOLVED,
  PCL_FUTURE_REJECTED,
} pcl_future_state;

/* Output bits given to pcl_future_resolve and read back by the accessors. */
enum {
  PCL_FUT_UNKNOWN = 1, /* The value is not known (preview). */
  PCL_FUT_SECRET = 2,  /* The value is secret. */
};

/* A future callback: f is the settled future (borrowed; NULL for a task
 * posted with pcl_sched_post), data what was registered. */
typedef void (*pcl_future_cb)(pcl_future *f, void *data);

/* -- Dependency sets.  URN strings are interned for the life of the
 * process's run (until pcl_sched_shutdown); they compare by pointer. */

/* Returns the interned copy of the NUL-terminated urn (borrowed, lives until
 * pcl_sched_shutdown). */
const char *pcl_urn_intern(const char *urn);
/* Returns the owned set {urn}. */
pcl_deps *pcl_deps_one(const char *urn);
/* Returns the owned union of a and b (either may be NULL; NULL when empty). */
pcl_deps *pcl_deps_union(const pcl_deps *a, const pcl_deps *b);
/* Returns d (may be NULL) with one more reference. */
pcl_deps *pcl_deps_retain(const pcl_deps *d);
/* Drops a reference to d (NULL is ignored). */
void pcl_deps_release(pcl_deps *d);
/* Returns the number of URNs in d (0 for NULL). */
size_t pcl_deps_count(const pcl_deps *d);
/* Stores d's URNs (borrowed, interned) into out[0..count) in strcmp order. */
void pcl_deps_sorted(const pcl_deps *d, const char **out);
/* Returns whether d contains the URN (by text). */
bool pcl_deps_has(const pcl_deps *d, const char *urn);

/* -- Futures. */

/* Returns a new pending future (owned).  label (copied, may be NULL) names
 * what it waits for in the error given when the loop stalls, e.g.
 * "resource 'a' (simple:index:Resource)". */
pcl_future *pcl_future_new(pcl_future_kind kind, const char *label);
/* Returns f with one more reference. */
pcl_future *pcl_future_retain(pcl_future *f);
/* Drops a reference to f (NULL is ignored).  Dropping the last reference to
 * a rejected future that nobody observed records its error as the loop's
 * unhandled error (see pcl_sched_take_unhandled). */
void pcl_future_release(pcl_future *f);
/* Resolves the pending f with v (borrowed; NULL means null), the PCL_FUT_*
 * bits and the dependencies deps (borrowed, may be NULL); see the header of
 * this section for normalisation.  Settling a cancelled future is ignored;
 * settling a settled one aborts. */
void pcl_future_resolve(pcl_future *f, pcl_value *v, unsigned bits, const pcl_deps *deps);
/* Rejects the pending f with a copy of err (borrowed). */
void pcl_future_reject(pcl_future *f, const pcl_error *err);
/* Rejects the pending f with err, stealing it. */
void pcl_future_reject_take(pcl_future *f, pcl_error *err);
/* Returns a new future already resolved as pcl_future_resolve would. */
pcl_future *pcl_future_resolved(pcl_future_kind kind, pcl_value *v, unsigned bits,
                                const pcl_deps *deps);
/* Returns a new output already rejected with a copy of err. */
pcl_future *pcl_future_rejected(const pcl_error *err);
/* Registers cb(f, data) to run from the loop once f has settled (at once on
 * the next loop turn when it already has).  Marks f's rejection handled.
 * A pending future keeps itself alive while it has callbacks, so the caller
 * may drop its reference. */
void pcl_future_then(pcl_future *f, pcl_future_cb cb, void *data);
/* Marks f's rejection as handled without registering a callback. */
void pcl_future_mark_handled(pcl_future *f);

/* Accessors (the pointers returned are borrowed from f). */
pcl_future_state pcl_future_state_of(const pcl_future *f);
pcl_future_kind pcl_future_kind_of(const pcl_future *f);
/* Returns the PCL_FUT_* bits of a resolved future. */
unsigned pcl_future_bits(const pcl_future *f);
/* Returns the value of a resolved, known future (never SECRET, UNKNOWN or
 * EVENTUAL at the top), or NULL when unknown or not resolved. */
pcl_value *pcl_future_value(const pcl_future *f);
/* Returns the error of a rejected future, else NULL. */
const pcl_error *pcl_future_error(const pcl_future *f);
/* Returns the dependencies of a resolved future (may be NULL). */
const pcl_deps *pcl_future_deps(const pcl_future *f);
/* Returns f's label or NULL. */
const char *pcl_future_label(const pcl_future *f);

/* -- Futures inside values. */

/* Returns an EVENTUAL value holding f (f is retained, the value is owned). */
pcl_value *pcl_future_to_value(pcl_future *f);
/* Returns the future an EVENTUAL value holds (borrowed), or NULL when v is
 * not a future-holding EVENTUAL. */
pcl_future *pcl_value_future(const pcl_value *v);
/* Returns a future for v (owned): the held future for an EVENTUAL, else an
 * output resolved with v (normalised: a top SECRET sets the secret bit). */
pcl_future *pcl_future_of_value(pcl_value *v);

/* -- Combinators.  Input futures are borrowed (retained as needed). */

/* An apply callback: args[0..n) are the inputs' values (borrowed; never
 * SECRET/UNKNOWN at the top; with PCL_APPLY_UNKNOWNS an unknown input is
 * pcl_unknown()).  Returns an owned value, which may be an EVENTUAL (the
 * result then follows that future: flattening), a SECRET (adds the secret
 * bit) or UNKNOWN; or NULL with *err set to reject the result. */
typedef pcl_value *(*pcl_apply_fn)(pcl_value *const *args, size_t n, void *data, pcl_error **err);

enum {
  /* Run the callback even when some inputs are unknown (the documented
   * short-circuit exceptions: && ||, == with null, length, try/can). */
  PCL_APPLY_UNKNOWNS = 1,
  /* Force the result secret (the secret() builtin on a future). */
  PCL_APPLY_SECRET = 2,
};

/* Returns a future (owned) of fn applied to the values of fs[0..n) once all
 * have settled (lowering.md §5): if one is rejected, the result is rejected
 * with the first such error in argument order and fn is not called; if one is
 * unknown (and not PCL_APPLY_UNKNOWNS) fn is skipped and the result is
 * unknown; the result is secret when any input is, its dependencies the
 * union of the inputs', and it is an output when any input is.  free_data
 * (may be NULL) is called on data exactly once, after fn ran or was skipped. */
pcl_future *pcl_apply(pcl_future *const *fs, size_t n, pcl_apply_fn fn, void *data,
                      void (*free_data)(void *data), unsigned flags);
/* Returns a future (owned) of the list of the values of fs[0..n), combined
 * as pcl_apply does. */
pcl_future *pcl_future_all(pcl_future *const *fs, size_t n);
/* Returns a future (owned) of v (borrowed) with every nested EVENTUAL
 * replaced by its settled value: a secret one wrapped SECRET, an unknown one
 * as UNKNOWN, dependencies collected into the result; rejected when any is.
 * The result's top-level bits come from v itself only. */
pcl_future *pcl_future_await_deep(pcl_value *v);
/* Returns f made secret (owned). */
pcl_future *pcl_future_secret(pcl_future *f);
/* Returns f with the secret bit of the outer value cleared (owned). */
pcl_future *pcl_future_unsecret(pcl_future *f);
/* Returns the future (owned) of attribute key of f's MAP value: a missing
 * key gives null, a nested SECRET the secret bit, a nested UNKNOWN unknown,
 * a nested EVENTUAL is followed; a non-map value rejects the result. */
pcl_future *pcl_future_attr(pcl_future *f, const char *key);

/* -- The scheduler loop (runtime/async/sched.c). */

/* Queues cb(NULL, data) to run on a later loop turn. */
void pcl_sched_post(pcl_future_cb cb, void *data);
/* Runs queued callbacks in FIFO order until none is left; returns how many
 * ran.  Must not be called from a callback (that aborts). */
size_t pcl_sched_run(void);
/* Returns the number of futures that have not settled. */
size_t pcl_sched_pending(void);
/* Returns (owned) an error naming what the program still waits for when
 * futures are pending, or NULL when none is.  Meant for an idle loop. */
pcl_error *pcl_sched_stall_error(void);
/* Rejects every pending future with a copy of why (marked cancelled, so a
 * later settle is ignored) and runs the loop until nothing is pending. */
void pcl_sched_cancel_pending(const pcl_error *why);
/* Returns (owned) the first error of a rejected future released without
 * being observed, and forgets it; NULL when there was none. */
pcl_error *pcl_sched_take_unhandled(void);
/* Frees the loop's memory and the interned URNs.  Nothing may be pending
 * and no future or dependency set may still be alive. */
void pcl_sched_shutdown(void);
/* Returns the number of futures currently alive (for leak checks). */
size_t pcl_sched_live_futures(void);

/* =================================================================== builtins
 * PCL built-in functions (runtime/builtins_*.c), with the semantics and the
 * error messages of ../shared/spec/functions.md.
 *
 * Naming: the C function of the PCL built-in `name` is pcl_fn_<name>, with
 * the PCL spelling kept as it is (pcl_fn_toJSON, pcl_fn_singleOrNone,
 * pcl_fn_filebase64sha256), so the emitter maps names mechanically.
 *
 * Calling convention: the arguments are plain, resolved values (the apply
 * lowering has awaited every eventual argument), borrowed; the result is
 * owned, or NULL with a new error in *err (err must not be NULL; *err is not
 * touched on success).  Fixed-arity functions take one parameter per PCL
 * parameter, in order; an optional parameter that the call leaves out is
 * passed as NULL.  Variadic functions (min, max) take (args, n).  Functions
 * that read files take the directory that relative paths are resolved
 * against as their first parameter (NULL: the process's working directory).
 *
 * Marks inside arguments: a SECRET nested in what a function consumes makes
 * its result SECRET (cty unmarks arguments deeply and re-marks the result);
 * an element or entry that a function hands back unchanged (element, lookup,
 * entries, singleOrNone) keeps its own marks.  An UNKNOWN argument, or one
 * that a function must read through (a join over a list holding an unknown
 * string), makes the result UNKNOWN.  A top-level SECRET or UNKNOWN argument
 * is handled the same way, so the functions are also correct when called
 * outside an apply.  An EVENTUAL where a value must be read is an error
 * (the caller should have awaited it with pcl_future_await_deep).
 *
 * Messages: where functions.md quotes the reference's message it is used
 * word for word ("cannot use element function with an empty list"); other
 * argument errors read `<fn>: invalid value for "<param>" parameter: <why>`
 * (HCL's wording).  No message carries a source location: the caller
 * attaches it with pcl_error_set_location.
 *
 * Not here: secret/unsecret on futures (pcl_future_secret,
 * pcl_future_unsecret), invoke, call, getOutput, stack, project,
 * organization and rootDirectory act on futures or the engine and belong to
 * those sections; __convert is the pcl_convert_* family of the values
 * section. */

/* -- Collections (runtime/builtins/builtins_coll.c). */

/* element(list, index): the element at index modulo the list's length (a
 * negative index counts from the end); the index must be a whole number
 * within int64 ("invalid index: ..."); an empty list fails ("cannot use
 * element function with an empty list"). */
pcl_value *pcl_fn_element(pcl_value *list, pcl_value *index, pcl_error **err);
/* entries(collection): for a map, the list of {key, value} objects in
 * ascending key byte order; for a list, {key = index, value = element}; an
 * empty collection gives an empty list.  Other kinds fail ("entries argument
 * must be a collection, was <type>"). */
pcl_value *pcl_fn_entries(pcl_value *collection, pcl_error **err);
/* length(value): the extended grapheme clusters of a string; the elements of
 * a list or set; the entries of a map or object.  Other kinds fail
 * ("collection must be a list, a map or a tuple"). */
pcl_value *pcl_fn_length(pcl_value *value, pcl_error **err);
/* lookup(map, key, default): the entry of map named key, else default.  As
 * in the reference the default is required at run time: a two-argument call
 * (dflt == NULL) fails ("Not enough function arguments ..."), as does a null
 * default; a map that is not a map fails ("lookup() requires a map as the
 * first argument"). */
pcl_value *pcl_fn_lookup(pcl_value *map, pcl_value *key, pcl_value *dflt, pcl_error **err);
/* join(separator, strings): the elements (strings, or numbers and bools in
 * their string form) joined with separator; a null element fails ("element
 * N is null; cannot concatenate null values", N counting from 0). */
pcl_value *pcl_fn_join(pcl_value *separator, pcl_value *strings, pcl_error **err);
/* split(separator, string): Go's strings.Split: split(",", "a,,b") is
 * ["a", "", "b"], split(",", "") is [""], an empty separator splits after
 * each character (code point) and split("", "") is []. */
pcl_value *pcl_fn_split(pcl_value *separator, pcl_value *string, pcl_error **err);
/* range(fromOrTo, to): with to == NULL, [0, 1, ..., fromOrTo - 1]; else
 * [fromOrTo, ..., to - 1]; empty when the end is not above the start.  The
 * bounds must be whole numbers within int64 and the list may hold at most
 * PCL_RANGE_MAX elements. */
pcl_value *pcl_fn_range(pcl_value *fromOrTo, pcl_value *to, pcl_error **err);
#define PCL_RANGE_MAX ((int64_t)1 << 20)
/* singleOrNone(value): null for an empty list, its element for a list of
 * one; longer lists fail ("expected list to have at most one element, got
 * N"). */
pcl_value *pcl_fn_singleOrNone(pcl_value *value, pcl_error **err);
/* min(args...), max(args...): the first minimal (maximal) of args[0..n),
 * compared exactly (ints against ints and numbers alike); strings are
 * converted to numbers; n == 0 fails ("min requires at least one
 * argument"). */
pcl_value *pcl_fn_min(pcl_value *const *args, size_t n, pcl_error **err);
pcl_value *pcl_fn_max(pcl_value *const *args, size_t n, pcl_error **err);

/* -- Encoding and hashing (runtime/builtins/builtins_encoding.c). */

/* toJSON(value): compact JSON with map keys in ascending byte order, Go's
 * escaping (< > & U+2028 U+2029 as \u escapes), exact ints and numbers
 * without exponent; UNKNOWN anywhere inside gives UNKNOWN, a SECRET anywhere
 * inside makes the result SECRET; infinity, assets, archives and resource
 * references fail ("cannot serialize ... as JSON"). */
pcl_value *pcl_fn_toJSON(pcl_value *value, pcl_error **err);
/* toBase64(value): standard padded base64 of the string's UTF-8 bytes. */
pcl_value *pcl_fn_toBase64(pcl_value *value, pcl_error **err);
/* fromBase64(value): the bytes that standard padded base64 text decodes to
 * (line breaks are skipped, as Go does); invalid text fails ("invalid base64
 * data: illegal base64 data at input byte N", N as Go reports it).  Bytes
 * that are not UTF-8 become U+FFFD. */
pcl_value *pcl_fn_fromBase64(pcl_value *value, pcl_error **err);
/* sha1(input): the lowercase hex SHA-1 of the string's UTF-8 bytes. */
pcl_value *pcl_fn_sha1(pcl_value *input, pcl_error **err);

/* -- Files (runtime/builtins/builtins_file.c).  A relative path is resolved against
 * base_dir (NULL: the working directory); messages show the path as the
 * program wrote it and the system error in Go's words ("readFile: open
 * missing.txt: no such file or directory"). */

/* readFile(path): the file's contents as a string (bytes that are not UTF-8
 * become U+FFFD). */
pcl_value *pcl_fn_readFile(const char *base_dir, pcl_value *path, pcl_error **err);
/* filebase64(path): standard base64 of the file's bytes. */
pcl_value *pcl_fn_filebase64(const char *base_dir, pcl_value *path, pcl_error **err);
/* filebase64sha256(path): standard base64 of the SHA-256 of the file's
 * bytes (the digest, not its hex). */
pcl_value *pcl_fn_filebase64sha256(const char *base_dir, pcl_value *path, pcl_error **err);
/* readDir(path): the names of the entries of the directory path (files and
 * directories, without "." and ".."), sorted by their bytes as Go's
 * os.ReadDir sorts them ("readDir: open x: no such file or directory",
 * "readDir: readdirent x: not a directory"). */
pcl_value *pcl_fn_readDir(const char *base_dir, pcl_value *path, pcl_error **err);
/* mimeType(path): the media type of path's extension as Go's
 * mime.TypeByExtension gives it for common types ("text/plain;
 * charset=utf-8" for "a.txt", "image/png" for "logo.PNG"), or "" for an
 * extension it does not know; the file is not read (docs/functions.md
 * lists the table). */
pcl_value *pcl_fn_mimeType(pcl_value *path, pcl_error **err);

/* -- Assets and archives (runtime/builtins/builtins_asset.c). */

/* fileAsset(path): a file asset holding path as written; the file must open
 * for reading and not be a directory ("creating file asset: ..."). */
pcl_value *pcl_fn_fileAsset(const char *base_dir, pcl_value *path, pcl_error **err);
/* fileArchive(path): a path archive; path must name a directory or a file
 * ending in .tar, .tgz, .tar.gz, .zip or .jar ("creating file archive:
 * ..."). */
pcl_value *pcl_fn_fileArchive(const char *base_dir, pcl_value *path, pcl_error **err);
/* stringAsset(value): a text asset. */
pcl_value *pcl_fn_stringAsset(pcl_value *value, pcl_error **err);
/* remoteAsset(uri), remoteArchive(uri): a URI asset or archive; the scheme
 * must be http, https or file ("creating remote asset: ..."); nothing is
 * fetched. */
pcl_value *pcl_fn_remoteAsset(pcl_value *uri, pcl_error **err);
pcl_value *pcl_fn_remoteArchive(pcl_value *uri, pcl_error **err);
/* assetArchive(assets): an archive of the map's assets and archives
 * ("assetArchive assets must be a map or object"). */
pcl_value *pcl_fn_assetArchive(pcl_value *assets, pcl_error **err);

/* -- Errors, secrets and resources (runtime/builtins/builtins_misc.c). */

/* secret(value), unsecret(value) on a plain value: value marked SECRET, and
 * value without its top-level SECRET (nested secrets stay).  The results of
 * the PCL functions are outputs: on a future, use pcl_future_secret and
 * pcl_future_unsecret, since an apply callback never sees the top-level
 * secret bit that unsecret must clear.  These never fail. */
pcl_value *pcl_fn_secret(pcl_value *value, pcl_error **err);
pcl_value *pcl_fn_unsecret(pcl_value *value, pcl_error **err);

/* notImplemented(errorMessage): always NULL, with *err holding the message
 * text. */
pcl_value *pcl_fn_notImplemented(pcl_value *errorMessage, pcl_error **err);
/* pulumiResourceType(resource), pulumiResourceName(resource): the type
 * token and the registered logical name of a resource: the __type/__name
 * entries of a resource object (a MAP), or parsed from the URN of a resource
 * reference.  Anything else fails ("pulumiResourceType argument must be a
 * single resource"). */
pcl_value *pcl_fn_pulumiResourceType(pcl_value *resource, pcl_error **err);
pcl_value *pcl_fn_pulumiResourceName(pcl_value *resource, pcl_error **err);


/* ===================================================================== engine
 * The asynchronous engine interface, the embedded engine and its mocks
 * (runtime/engine*.c), config and the program entry point (runtime/run/config.c,
 * main.c).
 *
 * A run (pcl_run) is one execution of a program against one engine.  The
 * program's start function creates registrations, invokes and exports; each
 * returns a future at once and the engine completes it later through the
 * loop, so many requests are in flight together.  Resource inputs and options
 * are MAP values whose entries may hold futures (EVENTUAL values) at any
 * depth; the run awaits them, computes dependencies (per input and overall,
 * plus dependsOn) and sends one request.  A resource's future resolves to its
 * object: a MAP of its outputs plus "urn", "id", "__name" and "__type", with
 * dependency {urn}; outputs may hold nested SECRET and UNKNOWN values. */

typedef struct pcl_run pcl_run;
typedef struct pcl_engine pcl_engine;
typedef struct pcl_mocks pcl_mocks;
/* Severities of engine log messages. */
typedef enum pcl_log_severity { PCL_LOG_DEBUG, PCL_LOG_INFO, PCL_LOG_WARNING, PCL_LOG_ERROR } pcl_log_severity;

/* -- Types of config values (a small static description). */

/* ANY: dynamic: JSON when the text parses as JSON, else the string; INT:
 * exact, parsed from the decimal text; LIST, MAP: elem is the element
 * type, the text JSON; OBJECT: fields are the properties, the text JSON;
 * OPTIONAL: elem is the type, null allowed. */
typedef enum pcl_type_kind {
#define PCL__TY_ENUM(name) PCL_TY_##name,
  PCL_TYPE_KINDS(PCL__TY_ENUM)
#undef PCL__TY_ENUM
} pcl_type_kind;

typedef struct pcl_type pcl_type;
/* One property of an object type. */
typedef struct pcl_type_field {
  const char *name;     /* Property name. */
  const pcl_type *type; /* Property type. */
} pcl_type_field;
struct pcl_type {
  pcl_type_kind kind;           /* The kind. */
  const pcl_type *elem;         /* LIST, MAP, OPTIONAL: the element type. */
  const pcl_type_field *fields; /* OBJECT: the properties (NULL when none). */
  size_t nfields;               /* OBJECT: number of properties. */
};
/* Immortal descriptors of the scalar types. */
extern const pcl_type pcl_type_any, pcl_type_bool, pcl_type_int, pcl_type_number,
    pcl_type_string;

/* A config variable the program declares (program.md §6). */
typedef struct pcl_config_decl {
  const char *name;        /* Logical name; the key is "<project>:<name>". */
  const pcl_type *type;    /* Declared type. */
  pcl_value *default_value; /* Literal default (static value), or NULL. */
  bool has_default_expr;   /* The program computes the default itself. */
  bool nullable;           /* A missing value is null, not an error. */
  bool secret;             /* The value is secret whatever the config says. */
  const char *file;        /* The source file of the declaration, or NULL. */
  unsigned line, col;      /* The 1-based position of its `config` keyword
                              (errors about the value point there). */
} pcl_config_decl;

/* Parses text according to type (program.md §6, DECISIONS.md D3): NULL and
 * *err naming key when it does not parse.  The result is owned. */
pcl_value *pcl_config_parse(const char *key, const char *text, const pcl_type *type,
                            pcl_error **err);

/* -- The program descriptor emitted by pclc. */

typedef struct pcl_program {
  const char *name;               /* Program name for --help (the source dir). */
  const pcl_config_decl *configs; /* Declared config variables. */
  size_t nconfigs;                /* Number of config variables. */
  /* Kicks off the program: registers resources, exports outputs, ... and
   * returns; everything else happens in callbacks run by the loop. */
  void (*start)(pcl_run *run);
} pcl_program;

/* Runs the program: parses the command line (--help lists the flags), reads
 * config from the environment and flags, creates the engine, registers the
 * stack, calls start, runs the loop, registers the stack outputs, writes the
 * snapshot and prints the outputs.  Returns 0 on success, 1 after a program
 * or engine error (printed on stderr in the D11 form), 2 on a usage error. */
int pcl_main(int argc, char **argv, const pcl_program *program);

/* Installs C mocks (borrowed; NULL removes them) for the runs pcl_main
 * starts afterwards (tests and embedding). */
void pcl_main_set_mocks(const pcl_mocks *mocks);

/* -- What generated code calls during a run. */

/* Returns the value of declared config variable i (owned; SECRET when
 * secret), or NULL when it is absent and has a default expression. */
pcl_value *pcl_run_config(pcl_run *run, size_t i);
/* Returns the STRING stack, project, organization, working directory and
 * project root of the run (owned). */
pcl_value *pcl_run_stack(pcl_run *run);
pcl_value *pcl_run_project(pcl_run *run);
pcl_value *pcl_run_organization(pcl_run *run);
pcl_value *pcl_run_cwd(pcl_run *run);
pcl_value *pcl_run_root_directory(pcl_run *run);
/* Returns whether the run is a preview (dry run). */
bool pcl_run_preview(const pcl_run *run);
/* Returns the run being executed by pcl_main (for built-ins), or NULL. */
pcl_run *pcl_run_current(void);
/* Records err (copied) as the run's error unless it has one; the run stops
 * sending requests and pcl_main exits with status 1. */
void pcl_run_fail(pcl_run *run, const pcl_error *err);

/* The Pulumi CLI version the embedded engine reports (the conformance
 * suite's). */
#define PCL_CLI_VERSION "3.200.0"
/* Checks the program's pulumi { requiredVersionRange } (a STRING, or a
 * value holding futures of one) against PCL_CLI_VERSION, as the engine's
 * RequirePulumiVersion does: ranges like ">=3.0.0 <4.0.0 || =5.1.x"
 * (comparators = == != > >= < <=, space-separated ones all apply, "||"
 * between alternatives, "x" wildcards).  Returns the future (owned) of
 * null; when the version does not satisfy the range, the range is not a
 * string or does not parse, the future is rejected and the run fails.
 * pclc calls it before the program registers anything. */
pcl_future *pcl_require_pulumi_version(pcl_run *run, pcl_value *range);

/* Sends a diagnostic message about the resource urn (may be NULL) to the
 * engine (the embedded engine prints info and above on stderr). */
void pcl_run_log(pcl_run *run, pcl_log_severity sev, const char *urn, const char *msg);

/* What kind of resource a registration creates. */
typedef enum pcl_resource_kind {
#define PCL__RES_ENUM(name) PCL_RES_##name,
  PCL_RESOURCE_KINDS(PCL__RES_ENUM) /* pcl_abi.h says what each is. */
#undef PCL__RES_ENUM
} pcl_resource_kind;

/* Static facts about a resource declaration. */
typedef struct pcl_resource_decl {
  const char *type;       /* Type token, e.g. "simple:index:Resource". */
  pcl_resource_kind kind; /* Custom, component or remote component. */
  const char *version;    /* Package version from the schema, or NULL. */
  const char *plugin_download_url; /* Schema pluginDownloadURL, or NULL. */
  const char *file;       /* PCL source file of the declaration, or NULL. */
  unsigned line, column;  /* Its 1-based position (engine errors carry it). */
} pcl_resource_decl;

/* Registers resource name (copied) of decl (copied; the strings it points
 * to must live as long as the run) with inputs (a MAP, borrowed, entries
 * may hold futures) and options (a MAP with the option names of program.md
 * §3.4, or NULL).  Returns the future of the resource object (owned).  A
 * failure rejects it and fails the run. */
pcl_future *pcl_register_resource(pcl_run *run, const pcl_resource_decl *decl, const char *name,
                                  pcl_value *inputs, pcl_value *options);
/* Reads an existing resource (program.md §4): like pcl_register_resource
 * with the id to read (a STRING or a future of one). */
pcl_future *pcl_read_resource(pcl_run *run, const pcl_resource_decl *decl, const char *name,
                              pcl_value *id, pcl_value *inputs, pcl_value *options);
/* Registers the outputs (a MAP, may hold futures) of the component whose
 * object future is component; the returned future (owned) resolves to the
 * component object with those outputs. */
pcl_future *pcl_register_component_outputs(pcl_run *run, pcl_future *component,
                                           pcl_value *outputs);
/* Invokes the provider function token with args (a MAP, or a future of
 * one; may hold futures) and options (MAP with provider, parent, dependsOn,
 * version, pluginDownloadUrl; or NULL; pclc passes the package version from
 * the schema as "version").  Returns the future (owned) of the result MAP,
 * an output carrying the arguments' and dependsOn's dependencies, secret
 * when an argument is; unknown when an argument is (preview). */
pcl_future *pcl_invoke(pcl_run *run, const char *token, pcl_value *args, pcl_value *options);
/* Calls the method token on the resource object self (a value or future)
 * with args; returns the future of the result MAP (owned). */
pcl_future *pcl_call(pcl_run *run, const char *token, pcl_value *self, pcl_value *args,
                     pcl_value *options);
/* Returns the future (owned) of the one value of the result object that
 * result (borrowed) resolves to: a function or method whose schema returns
 * a single value (not an object) answers {name: value}.  An empty object
 * gives null; more than one value rejects it ("the result of a function
 * with a single return value must hold one value"). */
pcl_future *pcl_single_result(pcl_future *result);
/* Exports stack output name (copied) with value (borrowed, may hold
 * futures).  Outputs are registered together when the program is done. */
void pcl_export(pcl_run *run, const char *name, pcl_value *value);

#ifdef __cplusplus
}
#endif

#endif
