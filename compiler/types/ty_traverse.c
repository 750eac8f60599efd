/* ty_traverse: attribute access and indexing (types.md §6), iteration
 * (§7) and splat item types (§9).
 *
 * A traversal step collects its diagnostics in a private list first,
 * because traversing a union keeps or drops the diagnostics of each element
 * depending on the outcome (§6, union row); only the final list reaches the
 * caller's diag_list.  Messages and their severities are those of §6 and
 * program.md §14.3; types in messages are in pretty form. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "types/ty.h"
#include "types/ty_impl.h"
#include "base/util.h"
#include "suggest.h"

/* One pending diagnostic. */
typedef struct tdiag {
  diag_severity severity;
  const char *message; /* Arena string. */
  const char *note;    /* Arena string attached as a note, or NULL. */
  struct tdiag *next;
} tdiag;

typedef struct tdiags {
  tdiag *head, *tail;
  bool error; /* Some diagnostic is an error. */
} tdiags;

static void add(ty_ctx *c, tdiags *out, diag_severity sev, const char *msg, const char *note) {
  tdiag *d = ARENA_NEW(c->arena, tdiag);
  d->severity = sev;
  d->message = msg;
  d->note = note;
  if (out->tail)
    out->tail->next = d;
  else
    out->head = d;
  out->tail = d;
  if (sev == DIAG_ERROR)
    out->error = true;
}

static void append(tdiags *out, tdiags *more) {
  if (!more->head)
    return;
  if (out->tail)
    out->tail->next = more->head;
  else
    out->head = more->head;
  out->tail = more->tail;
  out->error |= more->error;
}

static const char *cannot_traverse(ty_ctx *c, const ty *t) {
  return arena_printf(c->arena, "cannot traverse value of type %s",
                      diag_clip(c->arena, ty_pretty(c, t)));
}

/* A traverser with a literal key, normalised: constant dynamic keys become
 * literal keys. */
typedef struct key_info {
  ty_traverser_kind kind; /* Never TY_TRAV_DYNAMIC for a constant key. */
  const ty *type;         /* The key's type for conversion checks. */
  const ty *number;       /* NUMBER: the literal's const type, or NULL if malformed. */
  const char *text;       /* ATTR/STRING: the bytes. */
  size_t len;
  bool boolean;
} key_info;

static key_info key_of(ty_ctx *c, const ty_traverser *t) {
  key_info k = {t->kind, NULL, NULL, t->text, t->len, t->boolean};
  switch (t->kind) {
  case TY_TRAV_ATTR:
  case TY_TRAV_STRING:
    k.type = ty_string(c);
    break;
  case TY_TRAV_NUMBER:
    /* §6: a literal number key has type number. */
    k.type = ty_number(c);
    k.number = ty_number_literal(c, t->text, false);
    break;
  case TY_TRAV_BOOL:
    k.type = ty_bool(c);
    break;
  case TY_TRAV_DYNAMIC: {
    const ty *kt = t->key_type;
    k.type = kt;
    if (kt->kind == TY_CONST) {
      switch (ty_value_kind_of(kt)) {
      case TY_V_STRING:
        k.kind = TY_TRAV_STRING;
        k.text = kt->cnst.text;
        k.len = kt->cnst.len;
        k.type = ty_string(c);
        break;
      case TY_V_INT:
      case TY_V_NUMBER:
        k.kind = TY_TRAV_NUMBER;
        k.number = kt;
        k.type = ty_number(c);
        break;
      case TY_V_BOOL:
        k.kind = TY_TRAV_BOOL;
        k.boolean = kt->cnst.boolean;
        k.type = ty_bool(c);
        break;
      case TY_V_NULL:
        break;
      }
    }
    break;
  }
  }
  return k;
}

/* The key converted to a property name (`0` → "0", `true` → "true"). */
static const char *key_string(ty_ctx *c, const key_info *k, size_t *len) {
  switch (k->kind) {
  case TY_TRAV_ATTR:
  case TY_TRAV_STRING:
    *len = k->len;
    return k->text;
  case TY_TRAV_NUMBER: {
    pcl__buf b = {0};
    if (k->number)
      ty_buf_put_value(&b, k->number);
    char *s = ty_buf_finish(&b, c->arena);
    *len = strlen(s);
    return s;
  }
  case TY_TRAV_BOOL:
    *len = k->boolean ? 4 : 5;
    return k->boolean ? "true" : "false";
  case TY_TRAV_DYNAMIC:
    break;
  }
  ice("key_string of a dynamic key");
}

static bool ascii_equal_fold(const char *a, size_t alen, const char *b) {
  if (strlen(b) != alen)
    return false;
  for (size_t i = 0; i < alen; i++) {
    if (tolower((unsigned char)a[i]) != tolower((unsigned char)b[i]))
      return false;
  }
  return true;
}

static const ty *trav(ty_ctx *c, const ty *recv, const key_info *k, tdiags *out);

static const ty *trav_tuple(ty_ctx *c, const ty *recv, const key_info *k, tdiags *out) {
  /* §6 requires a key assignable to InputType(number); pclc (D3) also
     accepts a key typed int, the type of integral expressions. */
  if (!ty_assignable(c, ty_input(c, ty_number(c)), k->type) &&
      !ty_assignable(c, ty_input(c, ty_int(c)), k->type)) {
    add(c, out, DIAG_ERROR, "tuple indices must be integers", NULL);
    return ty_dynamic(c);
  }
  size_t n = recv->elems.count;
  if (k->kind == TY_TRAV_DYNAMIC)
    return n ? ty_union(c, n, recv->elems.items) : ty_dynamic(c);
  if (!k->number || k->number->cnst.base->kind != TY_INT) {
    add(c, out, DIAG_ERROR, "tuple indices must be integers", NULL);
    return ty_dynamic(c);
  }
  const mpz_srcptr v = k->number->cnst.integer;
  /* The reference checks `index > N`; an index equal to N is out of range
     too (§6). */
  if (mpz_sgn(v) < 0 || mpz_cmp_ui(v, (unsigned long)n) >= 0) {
    add(c, out, DIAG_ERROR, arena_printf(c->arena, "tuple index must be between 0 and %zu", n),
        NULL);
    return ty_dynamic(c);
  }
  return recv->elems.items[mpz_get_ui(v)];
}

static const ty *trav_object(ty_ctx *c, const ty *recv, const key_info *k, tdiags *out) {
  diag_severity sev = recv->object.strict ? DIAG_ERROR : DIAG_WARNING;
  if (ty_conversion(c, ty_input(c, ty_string(c)), k->type) == TY_CONV_NONE) {
    add(c, out, sev, "object properties must be strings", NULL);
    return ty_dynamic(c);
  }
  size_t n = recv->object.count;
  if (k->kind == TY_TRAV_DYNAMIC) {
    const ty **v = ty_object_types(recv);
    const ty *r = n ? ty_union(c, n, v) : ty_dynamic(c);
    free(v);
    return r;
  }
  size_t len;
  const char *name = key_string(c, k, &len);
  for (size_t i = 0; i < n; i++) {
    const char *p = recv->object.props[i].name;
    if (strlen(p) == len && memcmp(p, name, len) == 0)
      return recv->object.props[i].type;
  }
  for (size_t i = 0; i < n; i++) {
    const char *p = recv->object.props[i].name;
    if (ascii_equal_fold(name, len, p)) {
      add(c, out, DIAG_WARNING, "Found matching case-insensitive property",
          arena_printf(c->arena, "Matched %s with %s",
                       diag_clip(c->arena, arena_strndup(c->arena, name, len)), diag_clip(c->arena, p)));
      return recv->object.props[i].type;
    }
  }
  /* The list of properties is cut as quoted text is (diag_clip), so it
     need not be written past that. */
  pcl__buf keys = {0};
  for (size_t i = 0; i < n && keys.len <= (size_t)4 * DIAG_QUOTE_WIDTH; i++) {
    if (i)
      pcl__buf_puts(&keys, " ");
    pcl__buf_puts(&keys, recv->object.props[i].name);
  }
  pcl__suggest sg;
  pcl__suggest_init(&sg, name, len);
  for (size_t i = 0; i < n; i++) {
    const char *p = recv->object.props[i].name;
    pcl__suggest_offer(&sg, p, strlen(p));
  }
  size_t best_len;
  const char *best = pcl__suggest_best(&sg, &best_len);
  add(c, out, sev,
      arena_printf(c->arena, "unknown property '%s' among [%s]",
                   diag_clip(c->arena, arena_strndup(c->arena, name, len)),
                   diag_clip(c->arena, keys.data ? keys.data : "")),
      best ? arena_printf(c->arena, "did you mean '%.*s'?", (int)best_len, best) : NULL);
  pcl__buf_free(&keys);
  return ty_dynamic(c);
}

static const ty *trav_union(ty_ctx *c, const ty *recv, const key_info *k, tdiags *out) {
  size_t n = recv->elems.count;
  const ty **kept = xmalloc(n * sizeof *kept);
  size_t nkept = 0;
  tdiags collected = {0};
  for (size_t i = 0; i < n; i++) {
    const ty *e = recv->elems.items[i];
    if (ty_is_null(e)) {
      kept[nkept++] = ty_none(c);
      continue;
    }
    tdiags sub = {0};
    const ty *r = trav(c, e, k, &sub);
    if (sub.error)
      append(&collected, &sub);
    else
      kept[nkept++] = r;
  }
  const ty *result;
  if (nkept == 0 || (nkept == 1 && kept[0]->kind == TY_NONE)) {
    add(c, out, DIAG_ERROR, cannot_traverse(c, recv), NULL);
    append(out, &collected);
    result = ty_dynamic(c);
  } else {
    result = ty_union(c, nkept, kept);
  }
  free(kept);
  return result;
}

static const ty *trav(ty_ctx *c, const ty *recv, const key_info *k, tdiags *out) {
  switch (recv->kind) {
  case TY_DYNAMIC:
    return recv;
  case TY_BOOL:
  case TY_INT:
  case TY_NUMBER:
  case TY_STRING:
  case TY_ID:
  case TY_OPAQUE:
  case TY_SET:
    add(c, out, DIAG_ERROR, cannot_traverse(c, recv), NULL);
    return ty_dynamic(c);
  case TY_NONE:
    add(c, out, DIAG_WARNING, cannot_traverse(c, recv), NULL);
    return recv;
  case TY_CONST:
    return trav(c, recv->cnst.base, k, out);
  case TY_LIST:
    if (ty_conversion(c, ty_input(c, ty_number(c)), k->type) == TY_CONV_NONE)
      add(c, out, DIAG_ERROR, "list indices must be numbers", NULL);
    return recv->elem;
  case TY_MAP:
    if (ty_conversion(c, ty_input(c, ty_string(c)), k->type) == TY_CONV_NONE)
      add(c, out, DIAG_ERROR, "map keys must be strings", NULL);
    return recv->elem;
  case TY_TUPLE:
    return trav_tuple(c, recv, k, out);
  case TY_OBJECT:
    return trav_object(c, recv, k, out);
  case TY_UNION:
    return trav_union(c, recv, k, out);
  case TY_OUTPUT:
  case TY_PROMISE:
    return ty_wrap(c, recv->kind, trav(c, recv->elem, k, out));
  case TY_ENUM:
    return recv;
  }
  ice("bad type kind %d", (int)recv->kind);
}

const ty *ty_traverse(ty_ctx *c, const ty *recv, const ty_traverser *key, diag_list *d,
                      pcl_span span, bool *clean) {
  key_info k = key_of(c, key);
  tdiags out = {0};
  const ty *r = trav(c, recv, &k, &out);
  if (clean)
    *clean = out.head == NULL;
  if (d) {
    for (tdiag *t = out.head; t; t = t->next) {
      diag *g = t->severity == DIAG_ERROR ? diag_fail(d, span, "%s", t->message)
                                          : diag_warning(d, span, "%s", t->message);
      if (t->note)
        diag_note(g, span, "%s", t->note);
    }
  }
  return r;
}

/* ----------------------------------------------------------- iteration */

/* The other element of an optional wrapper (a union of exactly two
 * elements, one of them none), or NULL when t is not one. */
static const ty *wrapped(const ty *t) {
  if (t->kind != TY_UNION || t->elems.count != 2)
    return NULL;
  if (ty_is_null(t->elems.items[0]))
    return t->elems.items[1];
  return ty_is_null(t->elems.items[1]) ? t->elems.items[0] : NULL;
}

/* Strips output/promise layers and optional wrappers, repeatedly (§7). */
static const ty *strip_iterable(const ty *t) {
  if (t->kind == TY_OUTPUT || t->kind == TY_PROMISE)
    return strip_iterable(t->elem);
  const ty *inner = wrapped(t);
  return inner ? strip_iterable(inner) : t;
}

bool ty_collection_types(ty_ctx *c, const ty *coll, const ty **key, const ty **value,
                         diag_list *d, pcl_span span, bool warn) {
  const ty *t = strip_iterable(coll);
  switch (t->kind) {
  case TY_LIST:
    *key = ty_int(c);
    *value = t->elem;
    return true;
  case TY_MAP:
    *key = ty_string(c);
    *value = t->elem;
    return true;
  case TY_TUPLE:
    *key = ty_int(c);
    *value = ty_unify_safe(c, t->elems.count, t->elems.items);
    return true;
  case TY_OBJECT: {
    const ty **v = ty_object_types(t);
    *key = ty_string(c);
    *value = ty_unify_safe(c, t->object.count, v);
    free(v);
    return true;
  }
  case TY_DYNAMIC:
    *key = *value = ty_dynamic(c);
    return true;
  case TY_BOOL:
  case TY_INT:
  case TY_NUMBER:
  case TY_STRING:
  case TY_ID:
  case TY_NONE:
  case TY_OPAQUE:
  case TY_SET:
  case TY_UNION:
  case TY_OUTPUT:
  case TY_PROMISE:
  case TY_CONST:
  case TY_ENUM:
    break;
  }
  *key = *value = ty_dynamic(c);
  if (d) {
    const char *msg =
        arena_printf(c->arena, "cannot iterate over a value of type %s",
                     diag_clip(c->arena, ty_pretty(c, coll)));
    if (warn)
      diag_warning(d, span, "%s", msg);
    else
      diag_fail(d, span, "%s", msg);
  }
  return false;
}

/* The layers are those strip_iterable removes, the optional wrappers
   dropped: result goes where the collection stands under them. */
const ty *ty_wrap_iterable(ty_ctx *c, const ty *coll, const ty *result) {
  if (coll->kind == TY_OUTPUT || coll->kind == TY_PROMISE)
    return ty_wrap(c, coll->kind, ty_wrap_iterable(c, coll->elem, result));
  const ty *inner = wrapped(coll);
  return inner ? ty_wrap_iterable(c, inner, result) : result;
}

const ty *ty_splat_item(ty_ctx *c, const ty *src) {
  const ty *t = strip_iterable(src);
  switch (t->kind) {
  case TY_LIST:
  case TY_SET:
    return t->elem;
  case TY_TUPLE:
    return ty_unify_safe(c, t->elems.count, t->elems.items);
  case TY_DYNAMIC:
    return t;
  case TY_BOOL:
  case TY_INT:
  case TY_NUMBER:
  case TY_STRING:
  case TY_ID:
  case TY_NONE:
  case TY_OPAQUE:
  case TY_MAP:
  case TY_OBJECT:
  case TY_UNION:
  case TY_OUTPUT:
  case TY_PROMISE:
  case TY_CONST:
  case TY_ENUM:
    break;
  }
  return t;
}
