/* pcl_internal.h: declarations shared by the value-layer modules of
 * libpclrt (runtime/value/: alloc.c, collections.c, compare.c, walk.c,
 * bigint.c, number.c, str.c, json.c, error.c and the others), and used
 * by the built-ins (builtins_*.c) and the other runtime modules for what
 * they need of the value layer's internals; not part of the public
 * interface.
 *
 * Every non-static name here starts with pcl__.  Heap values are allocated
 * with pcl__value_alloc, which counts live values and bytes; the payload of
 * a heap string, list, map or big int lives in the same block, right after
 * the struct, so a value is one allocation. */
#ifndef PCL_INTERNAL_H
#define PCL_INTERNAL_H

#include <gmp.h>
#include <string.h>

#include "buf.h"
#include "mem.h" /* PCL__GROW; pcl__out_of_memory is defined in alloc.c */
#include "pcl_gen.h"

/* Returns a block of size bytes (pool.c): a small one from the free list of
 * its size class, a larger one from malloc.  Allocation never fails. */
void *pcl__pool_alloc(size_t size);
/* Gives back the block p (NULL is ignored) of size bytes, the size it was
 * allocated with. */
void pcl__pool_free(void *p, size_t size);

/* Sets what happens when memory runs out (an allocation of the runtime or
 * of GMP fails): handler(n), which may allocate from a reserve of reserve
 * bytes set aside now and given back then (a second failure meanwhile only
 * prints its message), then the program exits with status 2.  Without a
 * handler (NULL) it prints "error: out of memory allocating N bytes" and
 * exits with status 2. */
void pcl__oom_prepare(void (*handler)(size_t n), size_t reserve);

/* Returns a heap value of the given kind whose block has extra payload bytes
 * after the struct; refs is 1, flags and sub are 0, the union is zeroed. */
pcl_value *pcl__value_alloc(pcl_kind kind, size_t extra);

/* Returns the array p of *cap elements of elem bytes grown to twice as many
 * (the elements kept; pcl__grow's doubling and overflow check): moved to the heap from the inline storage fixed,
 * which is not freed, or reallocated there.  The explicit stacks of the
 * value layer's walks start in inline storage, so that the common small
 * case allocates nothing. */
void *pcl__grow_array(void *p, const void *fixed, size_t *cap, size_t elem);

/* Returns whether x (NULL: nothing) is an EVENTUAL or may hold one. */
static inline bool pcl__may_hold_eventual(const pcl_value *x) {
  return x != NULL && (x->kind == PCL_T_EVENTUAL || (x->flags & PCL_F_HOLDS_EVENTUAL));
}

/* Returns whether x (NULL: nothing) is a SECRET or an UNKNOWN or may hold
 * one (outside the EVENTUALs it holds). */
static inline bool pcl__may_hold_mark(const pcl_value *x) {
  return x != NULL && (x->kind == PCL_T_SECRET || x->kind == PCL_T_UNKNOWN ||
                       (x->flags & PCL_F_HOLDS_MARK));
}

/* Marks the container v as holding an EVENTUAL, or a SECRET or UNKNOWN,
 * when its part x may. */
static inline void pcl__note_part(pcl_value *v, const pcl_value *x) {
  if (pcl__may_hold_eventual(x)) {
    v->flags |= PCL_F_HOLDS_EVENTUAL;
  }
  if (pcl__may_hold_mark(x)) {
    v->flags |= PCL_F_HOLDS_MARK;
  }
}

/* Orders two STRINGs by their bytes (a shorter prefix first): the order of
 * map keys, and of strings in pcl_compare. */
static inline int pcl__str_order(const pcl_value *a, const pcl_value *b) {
  size_t n = a->u.str.len < b->u.str.len ? a->u.str.len : b->u.str.len;
  /* Keys mostly differ in their first byte: decide that without a call. */
  if (n > 0 && a->u.str.ptr[0] != b->u.str.ptr[0]) {
    return (unsigned char)a->u.str.ptr[0] < (unsigned char)b->u.str.ptr[0] ? -1 : 1;
  }
  int c = memcmp(a->u.str.ptr, b->u.str.ptr, n);
  if (c != 0) {
    return c;
  }
  return a->u.str.len < b->u.str.len ? -1 : a->u.str.len > b->u.str.len;
}

/* Returns the int of the GMP integer z (borrowed), demoted to the int64 form
 * when it fits. */
pcl_value *pcl__int_from_mpz(mpz_srcptr z);
/* Makes *view a read-only GMP view of the INT v; scratch provides the limb of
 * a small int and must live as long as the view.  The view must not be
 * written or cleared. */
void pcl__int_view(const pcl_value *v, mpz_t view, mp_limb_t *scratch);
/* Returns an upper bound of the length of the decimal text of the INT v
 * (its sign included). */
size_t pcl__int_text_bound(const pcl_value *v);
/* Returns the bytes the magnitude of the INT v takes (its limbs), as the
 * value size limit counts an int. */
size_t pcl__int_bytes(const pcl_value *v);
/* Appends the decimal text of the INT v to b, or when it is much longer
 * than max characters only its leading digits (more than max of them), for
 * a message that shows it shortened. */
void pcl__int_format_prefix(pcl_strbuf *b, const pcl_value *v, size_t max);
/* Returns q * 2^exp2 rounded to nearest (ties to even) for q >= 0; sticky
 * says the exact value is slightly more than q * 2^exp2 (a nonzero
 * remainder was dropped below q's last bit). */
double pcl__mpz_scaled_to_double(mpz_srcptr q, long exp2, bool sticky);
/* Returns num / den * 2^exp2 rounded to nearest (ties to even) for num >= 0
 * and den > 0; num is overwritten (it ends as the remainder). */
double pcl__mpz_ratio_to_double(mpz_ptr num, mpz_srcptr den, long exp2);
/* Returns the exact quotient a / b of two INTs rounded once; b is nonzero. */
double pcl__int_div_double(const pcl_value *a, const pcl_value *b);
/* Compares the INT a with the finite or infinite double d exactly. */
int pcl__int_cmp_double(const pcl_value *a, double d);
/* Returns the int whose value is the integral finite double d. */
pcl_value *pcl__int_from_double(double d);
/* Parses decimal number text (see pcl_num_literal); allow_inf also accepts
 * Inf, +Inf, -Inf and inf.  Returns NULL when the syntax is wrong (no error),
 * and sets *too_long when the syntax is right but the int is too long. */
pcl_value *pcl__parse_number(const char *text, size_t len, bool allow_inf, bool *too_long);

/* Returns the error "cannot convert <v> to <type>: <why>" (owned), v shown
 * as messages show values (a collection by its kind, "[secret]" inside a
 * redaction scope). */
pcl_error *pcl__convert_error(const pcl_value *v, const char *type, const char *why);

/* Writes "<severity>: <urn>: <msg>" and a newline to stderr (the URN left
 * out when NULL), the severity in colour as gcc prints it when stderr is a
 * terminal (pcl_error_print's rule): the run's messages without an engine
 * to show them. */
void pcl__print_log(pcl_log_severity sev, const char *urn, const char *msg);

/* Returns the position of the key key[0..key_len) in the MAP map (a binary
 * search, as pcl_map_get's), or SIZE_MAX when map has no such key. */
size_t pcl__map_find(const pcl_value *map, const char *key, size_t key_len);

/* Returns a map with the keys of the MAP map (each retained) and the values
 * vals[0..n) (stolen), n being map's entry count: a map rebuilt with new
 * values, its keys already in order. */
pcl_value *pcl__map_with_vals_take(const pcl_value *map, pcl_value *const *vals);

/* Returns the MAP map (borrowed) with the entries keys[i] = vals[i]
 * (borrowed; the keys STRINGs in strictly ascending byte order) put over
 * it, each replacing map's entry of the same key: two sorted maps merged in
 * one pass, where pcl_map_of would sort their concatenation. */
pcl_value *pcl__map_merge(const pcl_value *map, pcl_value *const *keys, pcl_value *const *vals,
                          size_t n);

/* Returns whether hit is true of v or of any value inside it (list, set and
 * map elements, secret, asset and archive payloads, resource fields; never
 * inside an EVENTUAL's object).  Walks with an explicit stack, so any depth
 * is safe. */
bool pcl__value_any(const pcl_value *v, bool (*hit)(const pcl_value *));
/* Returns whether v, or a value inside it reached through secrets, lists,
 * sets and maps only, has the given kind.  Walks with an explicit stack. */
bool pcl__value_contains_kind(const pcl_value *v, pcl_kind kind);
/* Calls visit(x, ctx) for every value x of the given kind in v (v itself
 * included), reached through secrets, lists, sets and maps only and not
 * inside such an x; in document order (the order pcl__value_rewrite visits
 * them in).  Walks with an explicit stack; visit may start another walk. */
void pcl__value_each_kind(const pcl_value *v, pcl_kind kind,
                          void (*visit)(const pcl_value *, void *), void *ctx);


/* -- Rewrites (walk.c): a value rebuilt part by part, top down, with an
 * explicit stack (any depth is safe, the time is linear in the size).  At
 * each value the step function decides: the value's rewrite outright, or to
 * rewrite its parts (the elements of a list or set, the values of a map,
 * the payload of a secret, asset or archive) and rebuild it of them.  A
 * container whose parts all come back unchanged is kept as it is. */

/* What a step decides about the value it is given. */
typedef enum pcl__rw_action {
  PCL__RW_DONE,   /* step->out holds the value's rewrite (owned). */
  PCL__RW_ENTER,  /* Rewrite the parts and rebuild the value of them: a list,
                     set or map keeps its kind (and keys; a set is re-sorted
                     and merged), a secret, asset or archive wraps the
                     rewritten payload; other kinds are kept as they are. */
  PCL__RW_UNWRAP, /* For a SECRET: its rewrite is its payload's rewrite
                     (for other kinds the same as ENTER). */
  PCL__RW_FAIL,   /* Stop: the rewrite returns NULL (the step function
                     keeps its own error). */
} pcl__rw_action;

typedef struct pcl__rw_state pcl__rw_state;
/* One value met by a rewrite. */
typedef struct pcl__rw_step {
  const pcl_value *v;          /* The value (borrowed). */
  const void *parent_ctx;      /* The ctx its container's step set (the
                                  rewrite's ctx at the top). */
  const pcl_value *key;        /* Its key when its container is a MAP, else NULL. */
  size_t index;                /* Its index in its container (0 at the top). */
  const void *ctx;             /* In/out with ENTER: the parent_ctx its parts
                                  get (parent_ctx unless the step changes it). */
  pcl_value *out;              /* Out with DONE: the rewrite (owned). */
  const pcl__rw_state *state;  /* The walk (for pcl__rw_path). */
} pcl__rw_step;
typedef pcl__rw_action (*pcl__rw_fn)(pcl__rw_step *step, void *data);
/* Returns the rewrite of v (owned) made by fn(step, data) at every value,
 * in document order (a container's parts in index order, each finished
 * before the next); ctx is the top value's parent_ctx.  NULL when a step
 * failed. */
pcl_value *pcl__value_rewrite(const pcl_value *v, const void *ctx, pcl__rw_fn fn, void *data);
/* Appends the JSON path of the step's value inside the rewritten value
 * (".name", ".\"odd key\"", "[3]"; nothing for the top). */
void pcl__rw_path(const pcl__rw_step *step, pcl_strbuf *b);
/* Appends a map key as a JSON path writes it: as it is when it is a plain
 * name (letters, digits, '_', '-', not starting with a digit), else quoted. */
void pcl__path_key(pcl_strbuf *b, const char *key, size_t len);

/* Returns v rebuilt as pcl__value_rebuild does without strip (a rewrite),
 * for an edit that replaces EVENTUALs only: the values that neither are nor
 * hold an EVENTUAL (PCL_F_HOLDS_EVENTUAL) are kept without a visit, so a
 * value holding none is v itself. */
pcl_value *pcl__value_replace_eventuals(const pcl_value *v,
                                        pcl_value *(*edit)(const pcl_value *x, void *ctx),
                                        void *ctx);
/* Calls visit(x, ctx) for every EVENTUAL x in v (v itself included) that
 * pcl__value_replace_eventuals would hand to its edit, in the same order
 * (document order); the values that hold none are not entered.  Walks
 * with an explicit stack and allocates only for a very wide or deep
 * value. */
void pcl__value_each_eventual(const pcl_value *v, void (*visit)(const pcl_value *x, void *ctx),
                              void *ctx);

/* -- The size limit of one value (pcl_set_value_limit). */

/* Returns true when a value of `bytes` bytes (a string's bytes, a
 * collection's element slots, a file's or a JSON text's bytes) fits the
 * limit; else false with *err "<what> would take more than the limit of N
 * bytes (--max-value-size)". */
bool pcl__value_fits(size_t bytes, const char *what, pcl_error **err);

/* -- Redaction: while a scope is open, messages show no operand.  An
 * operation whose operand is secret opens one around the work that may fail
 * (pcl_apply around a callback whose input is secret, the operators and
 * conversions on a SECRET, the config of a secret key), so that every
 * message made inside says "[secret]" where the value would be:
 * pcl_value_repr prints "[secret]" and pcl__redact_text hides a C string. */

/* Opens and closes a redaction scope (they nest). */
void pcl__redact_enter(void);
void pcl__redact_leave(void);
/* Returns whether a redaction scope is open. */
bool pcl__redacting(void);
/* Returns text, or "[secret]" while a redaction scope is open (static). */
const char *pcl__redact_text(const char *text);

/* The deepest nesting level that pretty-printed JSON (PCL_JSON_PRETTY, the
 * snapshot and the printed stack outputs) puts on lines of their own,
 * indented by two spaces a level: what is nested deeper is written compact
 * on the line of its container.  Each value on a line of its own costs at
 * most 2 * PCL__PRETTY_DEPTH + 3 bytes more than in the compact form, so
 * the pretty text of any value, however deep, stays within a constant
 * factor of its compact text (docs/snapshot.md). */
#define PCL__PRETTY_DEPTH 16

/* Returns whether s[0..len) is pure ASCII. */
bool pcl__is_ascii(const char *s, size_t len);
/* Returns a string value of exactly the bytes s[0..len), which must already
 * be NFC UTF-8, or what pcl_str_from_bytes makes (no check, no
 * normalisation); ascii says they are pure ASCII. */
pcl_value *pcl__str_raw(const char *s, size_t len, bool ascii);
/* Returns the string of exactly the bytes s[0..len) when they are valid
 * UTF-8, not normalised: the raw text of a config value, which is put in
 * NFC only once parsed by its type (pcl_config_parse); else NULL with
 * *err. */
pcl_value *pcl__str_new_unnormalised(const char *s, size_t len, pcl_error **err);
/* Returns the concatenation of the STRINGs parts[0..n) (their SECRET marks
 * ignored) as pcl_str_new makes a string of those bytes: NFC, or NULL with
 * *err when they are not UTF-8 or would exceed the value size limit; made in
 * one block of its size. */
pcl_value *pcl__str_join(pcl_value *const *parts, size_t n, pcl_error **err);
/* Appends the JSON-quoted form of the bytes s[0..len) to b (Go escaping;
 * html adds the < > & escapes). */
void pcl__json_quote(pcl_strbuf *b, const char *s, size_t len, bool html);

/* Appends the standard padded base64 of data[0..len) to b (nettle). */
void pcl__base64_encode(pcl_strbuf *b, const uint8_t *data, size_t len);
/* Appends the bytes of the base64 text s[0..len) to out, decoded as Go's
 * base64.StdEncoding.DecodeString decodes it (padding required, line breaks
 * skipped); false when the text is not base64, with the byte offset Go's
 * error names in *bad, out unchanged. */
bool pcl__base64_decode(const char *s, size_t len, pcl_strbuf *out, size_t *bad);

/* Pulumi's property-value signatures (the wire form of values JSON and
 * google.protobuf.Value have no kind for): an object whose PCL__SIG_KEY
 * member is one of the signatures below, and the unknown sentinel string. */
#define PCL__SIG_KEY "4dabf18193072939515e22adb298388d"
#define PCL__SIG_SECRET "1b47061264138c4ac30d75fd1eb44270"
#define PCL__SIG_RESOURCE "5cf8f73096256a8f31e491e813e4eb8e"
#define PCL__SIG_OUTPUT "d0e6a833031e9bbcd3f4e8bde6ca49a4"
#define PCL__SIG_ASSET "c44067f5952c0a294b673a41bacd8c17"
#define PCL__SIG_ARCHIVE "0def7320c3a5731c473e5ecbe6d01bc7"
#define PCL__SIG_BYTES "803fd3297a5875dc03ca845dda5d2a98"
#define PCL__UNKNOWN_SENTINEL "04da6b54-80e4-46f7-96ec-b56ff0331ba9"

#endif
