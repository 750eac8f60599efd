/* ty: construction, interning and printing of PCL types, the helpers
 * about eventual values (types.md §1, §11, §12), and the memo table and
 * recursion guard shared by the ty_*.c files (ty_impl.h).
 *
 * Interning: every type has an identity key built from its kind and the
 * *pointers* of its (already interned) children, names and tokens, so two
 * structurally equal types get the same key and hence the same node.  The
 * intern table is open addressing over those keys; it is never iterated, so
 * its order cannot reach any output.  Alongside the key each type gets its
 * canonical String form (`str`), which orders union elements
 * deterministically.  Named objects are keyed by token and may be defined
 * after they are referenced, which is how recursive schema types are built. */
#include "types/ty.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/ptrmap.h"
#include "base/stack.h"
#include "types/ty_impl.h"
#include "base/util.h"

/* Longest canonical String form a type keeps when it is made; a longer one
   (a type nested deep) is produced piece by piece when it is printed or
   compared, so that making a type nested d deep costs O(d), not O(d^2). */
enum { EAGER_STR_MAX = 1024 };

/* ------------------------------------------------------------ buffers */

char *ty_buf_finish(pcl__buf *b, arena *a) {
  char *s = arena_strndup(a, b->data ? b->data : "", b->len);
  pcl__buf_free(b);
  return s;
}

/* ------------------------------------------------------ stack guard */

/* Once an operation has stopped, every operation answers at once until the
   caller takes the flag: results computed below the stopping point are not
   the rules' and are not memoised, and without the memo, walking on would
   cost time exponential in the depth of shared types. */
bool ty_deep(ty_ctx *c) {
  if (!c->too_deep && !stack_low())
    return false;
  c->too_deep = true;
  return true;
}

bool ty_take_too_deep(ty_ctx *c) {
  bool deep = c->too_deep;
  c->too_deep = false;
  return deep;
}

/* ---------------------------------------------------- recursion guard */

bool ty_busy_push(ty_ctx *c, const ty *a, const ty *b, int tag) {
  for (size_t i = 0; i < c->nbusy; i++) {
    if (c->busy[i].a == a && c->busy[i].b == b && c->busy[i].tag == tag)
      return false;
  }
  PCL__GROW(c->busy, c->capbusy, c->nbusy + 1);
  c->busy[c->nbusy++] = (ty_pair){a, b, tag};
  return true;
}

void ty_busy_pop(ty_ctx *c) {
  if (c->nbusy == 0)
    ice("recursion guard underflow");
  c->nbusy--;
}

/* ---------------------------------------------------------- memo table */

bool ty_memo_ok(const ty *a, const ty *b) { return !((a->flags | b->flags) & TYF_NAMED); }

static size_t memo_slot(const ty *a, const ty *b, ty_memo_op op, size_t cap) {
  uint64_t h = (uint64_t)a->hash * 0x9e3779b97f4a7c15u ^ (uint64_t)b->hash * 0xc2b2ae3d27d4eb4fu;
  h ^= (uint64_t)op + (h >> 29);
  return (size_t)(h & (cap - 1));
}

const ty_memo *ty_memo_get(ty_ctx *c, const ty *a, const ty *b, ty_memo_op op) {
  if (c->capmemo == 0)
    return NULL;
  for (size_t j = memo_slot(a, b, op, c->capmemo);; j = (j + 1) & (c->capmemo - 1)) {
    const ty_memo *m = &c->memo[j];
    if (!m->a)
      return NULL;
    if (m->a == a && m->b == b && m->op == op)
      return m;
  }
}

void ty_memo_put_reason(ty_ctx *c, const ty *a, const ty *b, ty_conv kind, const char *reason) {
  if (c->too_deep)
    return;
  ty_memo_put(c, a, b, TY_MEMO_CONV_WHY, NULL, kind);
  ty_memo *m = (ty_memo *)ty_memo_get(c, a, b, TY_MEMO_CONV_WHY);
  m->reason = reason;
}

void ty_memo_put(ty_ctx *c, const ty *a, const ty *b, ty_memo_op op, const ty *result,
                 ty_conv kind) {
  /* An answer given for lack of stack is not the rule's. */
  if (c->too_deep)
    return;
  if (2 * (c->nmemo + 1) > c->capmemo) {
    size_t cap = c->capmemo ? c->capmemo * 2 : 1024;
    ty_memo *memo = xcalloc(cap, sizeof *memo);
    for (size_t i = 0; i < c->capmemo; i++) {
      const ty_memo *m = &c->memo[i];
      if (!m->a)
        continue;
      size_t j = memo_slot(m->a, m->b, m->op, cap);
      while (memo[j].a)
        j = (j + 1) & (cap - 1);
      memo[j] = *m;
    }
    free(c->memo);
    c->memo = memo;
    c->capmemo = cap;
  }
  size_t j = memo_slot(a, b, op, c->capmemo);
  while (c->memo[j].a) {
    if (c->memo[j].a == a && c->memo[j].b == b && c->memo[j].op == op)
      return;
    j = (j + 1) & (c->capmemo - 1);
  }
  c->memo[j] = (ty_memo){a, b, op, result, kind, NULL};
  c->nmemo++;
}

/* ------------------------------------------------------------- tables */

static const char *const kind_names[] = {
#define X(name, text) text,
    TY_KINDS(X)
#undef X
};

static void table_grow(ty_table *t) {
  size_t cap = t->cap ? t->cap * 2 : 256;
  const ty **slots = xcalloc(cap, sizeof *slots);
  for (size_t i = 0; i < t->cap; i++) {
    const ty *x = t->slots[i];
    if (!x)
      continue;
    size_t j = x->hash & (cap - 1);
    while (slots[j])
      j = (j + 1) & (cap - 1);
    slots[j] = x;
  }
  free(t->slots);
  t->slots = slots;
  t->cap = cap;
}

/* Returns the node whose identity key is key, creating a zeroed node of kind
 * k if there is none (then *fresh is true and the caller fills it in). */
static ty *intern_node(ty_ctx *c, ty_kind k, const pcl__buf *key, bool *fresh) {
  ty_table *t = &c->table;
  if (2 * (t->count + 1) > t->cap)
    table_grow(t);
  const unsigned char *kb = (const unsigned char *)key->data;
  uint32_t h = (uint32_t)util_hash(kb, key->len);
  size_t j = h & (t->cap - 1);
  while (t->slots[j]) {
    const ty *x = t->slots[j];
    if (x->hash == h && x->key_len == key->len && memcmp(x->key, kb, key->len) == 0) {
      *fresh = false;
      return (ty *)x;
    }
    j = (j + 1) & (t->cap - 1);
  }
  ty *x = ARENA_NEW(c->arena, ty);
  x->kind = k;
  x->hash = h;
  x->ctx = c;
  unsigned char *kc = arena_alloc(c->arena, key->len);
  memcpy(kc, kb, key->len);
  x->key = kc;
  x->key_len = key->len;
  t->slots[j] = x;
  t->count++;
  *fresh = true;
  return x;
}

/* Starts the identity key of a type with the kind byte, in c's scratch
 * buffer: a key is complete and interned before the next one starts, so one
 * buffer serves every constructor without an allocation each. */
static pcl__buf *key_start(ty_ctx *c, ty_kind k, char variant) {
  pcl__buf *key = &c->key;
  unsigned char head[2] = {(unsigned char)k, (unsigned char)variant};
  key->len = 0;
  pcl__buf_append(key, head, sizeof head);
  return key;
}

static void key_ptr(pcl__buf *key, const void *p) {
  pcl__buf_append(key, &p, sizeof p);
}

static void key_size(pcl__buf *key, size_t n) {
  pcl__buf_append(key, &n, sizeof n);
}

/* ------------------------------------------------------------ context */

void ty_ctx_init(ty_ctx *c, arena *a, intern_table *names) {
  memset(c, 0, sizeof *c);
  c->arena = a;
  c->names = names;
  for (int k = TY_BOOL; k <= TY_NONE; k++) {
    pcl__buf *key = key_start(c, (ty_kind)k, 0);
    bool fresh;
    ty *t = intern_node(c, (ty_kind)k, key, &fresh);
    t->str = kind_names[k];
    c->prim[k] = t;
  }
}

void ty_ctx_free(ty_ctx *c) {
  for (size_t i = 0; i < c->nmpz; i++)
    mpz_clear(((ty *)c->mpz_owners[i])->cnst.integer);
  free(c->mpz_owners);
  free(c->table.slots);
  free(c->busy);
  free(c->memo);
  pcl__buf_free(&c->key);
  ptrmap_free(&c->literals);
  ptrmap_free(&c->negated_literals);
  memset(c, 0, sizeof *c);
}

/* ------------------------------------------------------- construction */

const ty *ty_bool(ty_ctx *c) { return c->prim[TY_BOOL]; }
const ty *ty_int(ty_ctx *c) { return c->prim[TY_INT]; }
const ty *ty_number(ty_ctx *c) { return c->prim[TY_NUMBER]; }
const ty *ty_string(ty_ctx *c) { return c->prim[TY_STRING]; }
const ty *ty_id(ty_ctx *c) { return c->prim[TY_ID]; }
const ty *ty_dynamic(ty_ctx *c) { return c->prim[TY_DYNAMIC]; }
const ty *ty_none(ty_ctx *c) { return c->prim[TY_NONE]; }

const ty *ty_opaque(ty_ctx *c, const char *name) {
  const char *n = intern(c->names, name);
  pcl__buf *key = key_start(c, TY_OPAQUE, 0);
  key_ptr(key, n);
  bool fresh;
  ty *t = intern_node(c, TY_OPAQUE, key, &fresh);
  if (fresh) {
    t->name = n;
    t->str = n;
  }
  return t;
}

static unsigned child_flags(const ty *t) { return t->flags & (TYF_OUTPUT | TYF_PROMISE | TYF_NAMED); }

/* Builds list/map/set/output/promise(elem) without normalisation. */
static const ty *make_wrapper(ty_ctx *c, ty_kind k, const ty *elem) {
  /* The key has a fixed size (the bytes key_start and key_ptr would
     append), so it is built on the stack: wrappers are made very often. */
  unsigned char kb[2 + sizeof elem];
  kb[0] = (unsigned char)k;
  kb[1] = 0;
  memcpy(kb + 2, &elem, sizeof elem);
  const pcl__buf key = {(char *)kb, sizeof kb, sizeof kb};
  bool fresh;
  ty *t = intern_node(c, k, &key, &fresh);
  if (fresh) {
    t->elem = elem;
    t->flags = child_flags(elem);
    if (k == TY_OUTPUT)
      t->flags |= TYF_OUTPUT;
    if (k == TY_PROMISE)
      t->flags |= TYF_PROMISE;
    if (elem->str && strlen(elem->str) < EAGER_STR_MAX)
      t->str = arena_printf(c->arena, "%s(%s)", kind_names[k], elem->str);
  }
  return t;
}

const ty *ty_list(ty_ctx *c, const ty *elem) { return make_wrapper(c, TY_LIST, elem); }
const ty *ty_map(ty_ctx *c, const ty *elem) { return make_wrapper(c, TY_MAP, elem); }
const ty *ty_set(ty_ctx *c, const ty *elem) { return make_wrapper(c, TY_SET, elem); }

/* §1.1: output(T) removes every output and promise inside T. */
const ty *ty_output(ty_ctx *c, const ty *elem) {
  return make_wrapper(c, TY_OUTPUT, ty_resolve_outputs(c, elem));
}

/* §1.1: promise(T) removes the promises inside T but keeps outputs. */
const ty *ty_promise(ty_ctx *c, const ty *elem) {
  return make_wrapper(c, TY_PROMISE, ty_resolve_promises(c, elem));
}

const ty *ty_wrap(ty_ctx *c, ty_kind k, const ty *elem) {
  switch (k) {
  case TY_LIST:
    return ty_list(c, elem);
  case TY_SET:
    return ty_set(c, elem);
  case TY_MAP:
    return ty_map(c, elem);
  case TY_OUTPUT:
    return ty_output(c, elem);
  case TY_PROMISE:
    return ty_promise(c, elem);
  case TY_BOOL:
  case TY_INT:
  case TY_NUMBER:
  case TY_STRING:
  case TY_ID:
  case TY_DYNAMIC:
  case TY_NONE:
  case TY_OPAQUE:
  case TY_TUPLE:
  case TY_OBJECT:
  case TY_UNION:
  case TY_CONST:
  case TY_ENUM:
    break;
  }
  ice("wrap of kind %s", kind_names[k]);
}

/* Builds tuple/union from exactly these elements (already canonical). */
static const ty *make_seq(ty_ctx *c, ty_kind k, size_t n, const ty *const *elems) {
  pcl__buf *key = key_start(c, k, 0);
  key_size(key, n);
  for (size_t i = 0; i < n; i++)
    key_ptr(key, elems[i]);
  bool fresh;
  ty *t = intern_node(c, k, key, &fresh);
  if (fresh) {
    const ty **items = ARENA_NEW_ARRAY(c->arena, const ty *, n ? n : 1);
    pcl__buf s = {0};
    pcl__buf_puts(&s, kind_names[k]);
    pcl__buf_puts(&s, "(");
    bool eager = true;
    for (size_t i = 0; i < n; i++) {
      items[i] = elems[i];
      t->flags |= child_flags(elems[i]);
      eager = eager && elems[i]->str && s.len < EAGER_STR_MAX;
      if (eager) {
        if (i)
          pcl__buf_puts(&s, ", ");
        pcl__buf_puts(&s, elems[i]->str);
      }
    }
    pcl__buf_puts(&s, ")");
    t->elems.items = items;
    t->elems.count = n;
    if (eager && s.len <= EAGER_STR_MAX)
      t->str = ty_buf_finish(&s, c->arena);
    else
      pcl__buf_free(&s);
  }
  return t;
}

const ty *ty_tuple(ty_ctx *c, size_t n, const ty *const *elems) {
  return make_seq(c, TY_TUPLE, n, elems);
}

/* Orders union elements by String form; ties (distinct types printing the
 * same, e.g. an opaque type named `bool`) by kind. */
static int cmp_union_elem(const void *pa, const void *pb) {
  const ty *a = *(const ty *const *)pa, *b = *(const ty *const *)pb;
  int r = ty_cmp_string(a, b);
  if (r)
    return r;
  if (a->kind != b->kind)
    return a->kind < b->kind ? -1 : 1;
  size_t n = a->key_len < b->key_len ? a->key_len : b->key_len;
  r = memcmp(a->key, b->key, n);
  if (r)
    return r;
  return a->key_len < b->key_len ? -1 : a->key_len > b->key_len;
}

/* §1.1: flatten one level (elements that are unions are canonical
 * already), sort by String form, drop adjacent duplicates (interning makes
 * equal types identical), and return a lone element as itself. */
const ty *ty_union(ty_ctx *c, size_t n, const ty *const *elems) {
  size_t total = 0;
  for (size_t i = 0; i < n; i++)
    total += elems[i]->kind == TY_UNION ? elems[i]->elems.count : 1;
  if (total == 0)
    return ty_none(c);
  const ty **flat = xmalloc(total * sizeof *flat);
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    if (elems[i]->kind == TY_UNION) {
      for (size_t j = 0; j < elems[i]->elems.count; j++)
        flat[m++] = elems[i]->elems.items[j];
    } else {
      flat[m++] = elems[i];
    }
  }
  qsort(flat, m, sizeof *flat, cmp_union_elem);
  size_t k = 0;
  for (size_t i = 0; i < m; i++) {
    if (k == 0 || flat[k - 1] != flat[i])
      flat[k++] = flat[i];
  }
  const ty *r = k == 1 ? flat[0] : make_seq(c, TY_UNION, k, flat);
  free(flat);
  return r;
}

const ty *ty_union2(ty_ctx *c, const ty *a, const ty *b) {
  const ty *e[2] = {a, b};
  return ty_union(c, 2, e);
}

const ty *ty_optional(ty_ctx *c, const ty *t) { return ty_union2(c, t, ty_none(c)); }

/* Appends a property name: bare if it is an identifier, else quoted. */
static void put_name(pcl__buf *b, const char *name) {
  bool ident = (name[0] >= 'a' && name[0] <= 'z') || (name[0] >= 'A' && name[0] <= 'Z') ||
               name[0] == '_';
  for (const char *p = name; ident && *p; p++) {
    ident = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            *p == '_' || *p == '-';
  }
  if (ident) {
    pcl__buf_puts(b, name);
    return;
  }
  pcl__buf_puts(b, "\"");
  for (const char *p = name; *p; p++) {
    unsigned char ch = (unsigned char)*p;
    if (ch == '"' || ch == '\\')
      pcl__buf_printf(b, "\\%c", ch);
    else if (ch < 0x20)
      pcl__buf_printf(b, "\\u%04x", ch);
    else
      pcl__buf_append(b, p, 1);
  }
  pcl__buf_puts(b, "\"");
}

typedef struct indexed_prop {
  ty_prop prop;
  size_t index;
} indexed_prop;

static int cmp_indexed_prop(const void *pa, const void *pb) {
  const indexed_prop *a = pa, *b = pb;
  int r = strcmp(a->prop.name, b->prop.name);
  if (r)
    return r;
  return a->index < b->index ? -1 : a->index > b->index;
}

/* Returns a heap array (the caller frees it) of the properties with
 * interned names, sorted by name, a later duplicate replacing an earlier
 * one; *out_n gets the count.  The order is total (by name, then position),
 * so any sort gives the same result: most objects have a few properties, for
 * which an insertion sort beats qsort's calls through a function pointer,
 * and qsort takes the rest, which may have a hundred thousand. */
static ty_prop *canonical_props(ty_ctx *c, size_t n, const ty_prop *props, size_t *out_n) {
  indexed_prop first[16];
  indexed_prop *tmp = n <= ARRAY_LEN(first) ? first : xmalloc(n * sizeof *tmp);
  for (size_t i = 0; i < n; i++) {
    indexed_prop x = {{intern(c->names, props[i].name), props[i].type}, i};
    size_t j = i;
    while (tmp == first && j > 0 && cmp_indexed_prop(&tmp[j - 1], &x) > 0) {
      tmp[j] = tmp[j - 1];
      j--;
    }
    tmp[j] = x;
  }
  if (tmp != first)
    qsort(tmp, n, sizeof *tmp, cmp_indexed_prop);
  ty_prop *out = xmalloc((n ? n : 1) * sizeof *out);
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    if (m > 0 && out[m - 1].name == tmp[i].prop.name)
      out[m - 1] = tmp[i].prop;
    else
      out[m++] = tmp[i].prop;
  }
  if (tmp != first)
    free(tmp);
  *out_n = m;
  return out;
}

const ty *ty_object(ty_ctx *c, size_t n, const ty_prop *props) {
  size_t m;
  ty_prop *sorted = canonical_props(c, n, props, &m);
  pcl__buf *key = key_start(c, TY_OBJECT, 'A');
  key_size(key, m);
  for (size_t i = 0; i < m; i++) {
    key_ptr(key, sorted[i].name);
    key_ptr(key, sorted[i].type);
  }
  bool fresh;
  ty *t = intern_node(c, TY_OBJECT, key, &fresh);
  if (fresh) {
    pcl__buf s = {0};
    pcl__buf_puts(&s, "object({");
    bool eager = true;
    for (size_t i = 0; i < m; i++) {
      t->flags |= child_flags(sorted[i].type);
      eager = eager && sorted[i].type->str && s.len < EAGER_STR_MAX;
      if (eager) {
        if (i)
          pcl__buf_puts(&s, ", ");
        put_name(&s, sorted[i].name);
        pcl__buf_puts(&s, " = ");
        pcl__buf_puts(&s, sorted[i].type->str);
      }
    }
    pcl__buf_puts(&s, "})");
    /* Only a new object keeps its properties, in the arena. */
    ty_prop *kept = ARENA_NEW_ARRAY(c->arena, ty_prop, m ? m : 1);
    memcpy(kept, sorted, m * sizeof *kept);
    t->object.props = kept;
    t->object.count = m;
    t->object.defined = true;
    t->object.strict = true;
    if (eager && s.len <= EAGER_STR_MAX)
      t->str = ty_buf_finish(&s, c->arena);
    else
      pcl__buf_free(&s);
  }
  free(sorted);
  return t;
}

/* Declares the named object for token; *fresh tells whether it is new. */
static ty *object_declare(ty_ctx *c, const char *token, bool strict, bool *fresh) {
  const char *tok = intern(c->names, token);
  pcl__buf *key = key_start(c, TY_OBJECT, 'N');
  key_ptr(key, tok);
  ty *t = intern_node(c, TY_OBJECT, key, fresh);
  if (*fresh) {
    t->object.token = tok;
    t->object.strict = strict;
    t->object.defined = false;
    t->object.props = NULL;
    t->object.count = 0;
    t->flags = TYF_NAMED;
    t->str = arena_printf(c->arena, "object(%s)", tok);
  }
  return t;
}

const ty *ty_object_declare(ty_ctx *c, const char *token, bool strict) {
  bool fresh;
  return object_declare(c, token, strict, &fresh);
}

void ty_object_define(ty_ctx *c, const ty *obj, size_t n, const ty_prop *props) {
  if (obj->kind != TY_OBJECT || !obj->object.token)
    ice("ty_object_define on a type that is not a named object");
  if (obj->object.defined)
    ice("named object %s defined twice", obj->object.token);
  ty *t = (ty *)obj;
  size_t m;
  ty_prop *sorted = canonical_props(c, n, props, &m);
  ty_prop *kept = ARENA_NEW_ARRAY(c->arena, ty_prop, m ? m : 1);
  memcpy(kept, sorted, m * sizeof *kept);
  free(sorted);
  t->object.props = kept;
  t->object.count = m;
  t->object.defined = true;
}

void ty_object_set_origin(const ty *input, const ty *origin) {
  if (input->kind != TY_OBJECT || !input->object.token || origin->kind != TY_OBJECT ||
      !origin->object.token)
    ice("ty_object_set_origin on a type that is not a named object");
  if (input->origin && input->origin != origin)
    ice("named object %s is already the input form of %s", input->object.token,
        input->origin->object.token);
  ((ty *)input)->origin = origin;
}

const ty **ty_object_types(const ty *t) {
  const ty **v = xmalloc((t->object.count ? t->object.count : 1) * sizeof *v);
  for (size_t i = 0; i < t->object.count; i++)
    v[i] = t->object.props[i].type;
  return v;
}

const ty *ty_object_get(const ty *t, const char *name) {
  if (t->kind != TY_OBJECT)
    return NULL;
  /* Properties are sorted by strcmp, so binary search. */
  size_t lo = 0, hi = t->object.count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    const char *p = t->object.props[mid].name;
    int r = p == name ? 0 : strcmp(p, name);
    if (r == 0)
      return t->object.props[mid].type;
    if (r < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return NULL;
}

/* Appends a string literal with HCL escapes. */
static void put_quoted(pcl__buf *b, const char *s, size_t len) {
  pcl__buf_puts(b, "\"");
  for (size_t i = 0; i < len; i++) {
    unsigned char ch = (unsigned char)s[i];
    switch (ch) {
    case '"':
      pcl__buf_puts(b, "\\\"");
      break;
    case '\\':
      pcl__buf_puts(b, "\\\\");
      break;
    case '\n':
      pcl__buf_puts(b, "\\n");
      break;
    case '\r':
      pcl__buf_puts(b, "\\r");
      break;
    case '\t':
      pcl__buf_puts(b, "\\t");
      break;
    default:
      if (ch < 0x20 || ch == 0x7f)
        pcl__buf_printf(b, "\\u%04x", ch);
      else
        pcl__buf_append(b, s + i, 1);
    }
  }
  pcl__buf_puts(b, "\"");
}

/* Appends the shortest %g form of v that reads back as v. */
static void put_double(pcl__buf *b, double v) {
  char tmp[64];
  for (int prec = 1; prec <= 17; prec++) {
    snprintf(tmp, sizeof tmp, "%.*g", prec, v);
    if (strtod(tmp, NULL) == v)
      break;
  }
  pcl__buf_puts(b, tmp);
}

ty_value_kind ty_value_kind_of(const ty *k) {
  switch (k->cnst.base->kind) {
  case TY_BOOL:
    return TY_V_BOOL;
  case TY_INT:
    return TY_V_INT;
  case TY_NUMBER:
    return TY_V_NUMBER;
  case TY_STRING:
    return TY_V_STRING;
  case TY_NONE:
    return TY_V_NULL;
  case TY_ID:
  case TY_DYNAMIC:
  case TY_OPAQUE:
  case TY_LIST:
  case TY_MAP:
  case TY_SET:
  case TY_TUPLE:
  case TY_OBJECT:
  case TY_UNION:
  case TY_OUTPUT:
  case TY_PROMISE:
  case TY_CONST:
  case TY_ENUM:
    break;
  }
  ice("constant of unexpected base type %s", k->cnst.base->str);
}

void ty_buf_put_value(pcl__buf *b, const ty *k) {
  switch (ty_value_kind_of(k)) {
  case TY_V_BOOL:
    pcl__buf_puts(b, k->cnst.boolean ? "true" : "false");
    return;
  case TY_V_INT: {
    char *s = mpz_get_str(NULL, 10, k->cnst.integer);
    pcl__buf_puts(b, s);
    void (*freefn)(void *, size_t);
    mp_get_memory_functions(NULL, NULL, &freefn);
    freefn(s, strlen(s) + 1);
    return;
  }
  case TY_V_NUMBER:
    put_double(b, k->cnst.number);
    return;
  case TY_V_STRING:
    put_quoted(b, k->cnst.text, k->cnst.len);
    return;
  case TY_V_NULL:
    pcl__buf_puts(b, "null");
    return;
  }
}

bool ty_value_equal(const ty *a, const ty *b) {
  if (a == b)
    return true;
  ty_value_kind ka = ty_value_kind_of(a), kb = ty_value_kind_of(b);
  if ((ka == TY_V_INT || ka == TY_V_NUMBER) && (kb == TY_V_INT || kb == TY_V_NUMBER)) {
    if (ka == TY_V_INT && kb == TY_V_INT)
      return mpz_cmp(a->cnst.integer, b->cnst.integer) == 0;
    if (ka == TY_V_NUMBER && kb == TY_V_NUMBER)
      return a->cnst.number == b->cnst.number;
    const ty *i = ka == TY_V_INT ? a : b, *n = ka == TY_V_INT ? b : a;
    return mpz_cmp_d(i->cnst.integer, n->cnst.number) == 0;
  }
  if (ka != kb)
    return false;
  switch (ka) {
  case TY_V_BOOL:
    return a->cnst.boolean == b->cnst.boolean;
  case TY_V_STRING:
    return a->cnst.len == b->cnst.len && memcmp(a->cnst.text, b->cnst.text, a->cnst.len) == 0;
  case TY_V_NULL:
    return true;
  case TY_V_INT:
  case TY_V_NUMBER:
    break;
  }
  return false;
}

/* Finishes a fresh const node: base, String form. */
static void finish_const(ty_ctx *c, ty *t, const ty *base) {
  t->cnst.base = base;
  pcl__buf s = {0};
  pcl__buf_printf(&s, "const(%s ", base->str);
  ty_buf_put_value(&s, t);
  pcl__buf_puts(&s, ")");
  t->str = ty_buf_finish(&s, c->arena);
}

const ty *ty_const_bool(ty_ctx *c, bool v) {
  pcl__buf *key = key_start(c, TY_CONST, 'b');
  pcl__buf_append(key, v ? "1" : "0", 1);
  bool fresh;
  ty *t = intern_node(c, TY_CONST, key, &fresh);
  if (fresh) {
    t->cnst.boolean = v;
    finish_const(c, t, ty_bool(c));
  }
  return t;
}

const ty *ty_const_null(ty_ctx *c) {
  pcl__buf *key = key_start(c, TY_CONST, 'z');
  bool fresh;
  ty *t = intern_node(c, TY_CONST, key, &fresh);
  if (fresh)
    finish_const(c, t, ty_none(c));
  return t;
}

const ty *ty_const_int(ty_ctx *c, const mpz_t v) {
  pcl__buf *key = key_start(c, TY_CONST, 'i');
  char *digits = mpz_get_str(NULL, 16, v);
  size_t nd = strlen(digits);
  pcl__buf_append(key, digits, nd);
  void (*freefn)(void *, size_t);
  mp_get_memory_functions(NULL, NULL, &freefn);
  freefn(digits, nd + 1);
  bool fresh;
  ty *t = intern_node(c, TY_CONST, key, &fresh);
  if (fresh) {
    mpz_init_set(t->cnst.integer, v);
    PCL__GROW(c->mpz_owners, c->capmpz, c->nmpz + 1);
    c->mpz_owners[c->nmpz++] = t;
    finish_const(c, t, ty_int(c));
  }
  return t;
}

const ty *ty_const_int_si(ty_ctx *c, long v) {
  mpz_t z;
  mpz_init_set_si(z, v);
  const ty *t = ty_const_int(c, z);
  mpz_clear(z);
  return t;
}

const ty *ty_const_number(ty_ctx *c, double v) {
  if (!isfinite(v))
    ice("const(number) of a non-finite value");
  if (v == 0)
    v = 0; /* -0 and +0 are one value. */
  pcl__buf *key = key_start(c, TY_CONST, 'n');
  pcl__buf_append(key, &v, sizeof v);
  bool fresh;
  ty *t = intern_node(c, TY_CONST, key, &fresh);
  if (fresh) {
    t->cnst.number = v;
    finish_const(c, t, ty_number(c));
  }
  return t;
}

const ty *ty_const_string(ty_ctx *c, const char *s, size_t len) {
  pcl__buf *key = key_start(c, TY_CONST, 's');
  pcl__buf_append(key, s, len);
  bool fresh;
  ty *t = intern_node(c, TY_CONST, key, &fresh);
  if (fresh) {
    t->cnst.text = arena_strndup(c->arena, s, len);
    t->cnst.len = len;
    finish_const(c, t, ty_string(c));
  }
  return t;
}

const ty *ty_enum(ty_ctx *c, const char *token, const ty *base, size_t n,
                  const ty *const *values) {
  const char *tok = intern(c->names, token);
  pcl__buf *key = key_start(c, TY_ENUM, 0);
  key_ptr(key, tok);
  bool fresh;
  ty *t = intern_node(c, TY_ENUM, key, &fresh);
  if (fresh) {
    const ty **vals = ARENA_NEW_ARRAY(c->arena, const ty *, n ? n : 1);
    pcl__buf s = {0};
    pcl__buf_printf(&s, "enum(%s(%s): ", tok, base->str);
    for (size_t i = 0; i < n; i++) {
      if (values[i]->kind != TY_CONST)
        ice("enum member of non-constant type %s", values[i]->str);
      vals[i] = values[i];
      if (i)
        pcl__buf_puts(&s, ",");
      ty_buf_put_value(&s, values[i]);
    }
    pcl__buf_puts(&s, ")");
    t->enm.token = tok;
    t->enm.base = base;
    t->enm.values = vals;
    t->enm.count = n;
    t->str = ty_buf_finish(&s, c->arena);
  }
  return t;
}

/* ---------------------------------------------------- optional values */

size_t ty_kid_count(const ty *t) {
  switch (t->kind) {
  case TY_LIST:
  case TY_MAP:
  case TY_SET:
  case TY_OUTPUT:
  case TY_PROMISE:
    return 1;
  case TY_TUPLE:
  case TY_UNION:
    return t->elems.count;
  case TY_OBJECT:
    return t->object.count;
  case TY_BOOL:
  case TY_INT:
  case TY_NUMBER:
  case TY_STRING:
  case TY_ID:
  case TY_DYNAMIC:
  case TY_NONE:
  case TY_OPAQUE:
  case TY_CONST:
  case TY_ENUM:
    break;
  }
  return 0;
}

bool ty_is_null(const ty *t) {
  return t->kind == TY_NONE || (t->kind == TY_CONST && t->cnst.base->kind == TY_NONE);
}

bool ty_is_optional(const ty *t) {
  if (t->kind != TY_UNION)
    return false;
  for (size_t i = 0; i < t->elems.count; i++) {
    if (ty_is_null(t->elems.items[i]))
      return true;
  }
  return false;
}

const ty *ty_strip_optional(ty_ctx *c, const ty *t) {
  if (!ty_is_optional(t))
    return t;
  const ty **keep = xmalloc(t->elems.count * sizeof *keep);
  size_t n = 0;
  for (size_t i = 0; i < t->elems.count; i++) {
    if (!ty_is_null(t->elems.items[i]))
      keep[n++] = t->elems.items[i];
  }
  const ty *r = ty_union(c, n, keep);
  free(keep);
  return r;
}

/* ---------------------------------------------------- eventual values */

/* Whether the output/promise facts cached in t->flags are exact. */
static bool facts_exact(const ty *t) {
  return !(t->flags & TYF_NAMED) || (t->flags & TYF_EVENTUALS_KNOWN);
}

/* Computes the output/promise facts of t, descending into the types whose
   facts are not exact (those that reach a named object), each once (visited
   holds those seen); *complete is cleared when a named object reached is
   not defined yet, or when the walk ran out of stack. */
static unsigned eventual_flags(ty_ctx *c, const ty *t, ptrmap *visited, bool *complete) {
  if (facts_exact(t))
    return t->flags & (TYF_OUTPUT | TYF_PROMISE);
  if (ptrmap_get(visited, t))
    return 0;
  if (ty_deep(c)) {
    *complete = false;
    return 0;
  }
  ptrmap_put(visited, t, visited);
  if (t->kind == TY_OBJECT && t->object.token)
    *complete = *complete && t->object.defined;
  unsigned f = t->kind == TY_OUTPUT ? TYF_OUTPUT : t->kind == TY_PROMISE ? TYF_PROMISE : 0;
  size_t n = ty_kid_count(t);
  for (size_t i = 0; i < n; i++)
    f |= eventual_flags(c, ty_kid(t, i), visited, complete);
  return f;
}

/* The facts of a named object are cached once every named object it
   reaches is defined (definitions never change afterwards), so repeated
   questions about schema types do not walk the whole type graph again. */
bool ty_contains_eventuals(const ty *t, bool *outputs, bool *promises) {
  bool complete = true;
  unsigned f = t->flags & (TYF_OUTPUT | TYF_PROMISE);
  if (!facts_exact(t)) {
    ptrmap visited = {0};
    f = eventual_flags(t->ctx, t, &visited, &complete);
    ptrmap_free(&visited);
  }
  if (complete && t->kind == TY_OBJECT && t->object.token)
    ((ty *)t)->flags |= f | TYF_EVENTUALS_KNOWN;
  if (outputs)
    *outputs = (f & TYF_OUTPUT) != 0;
  if (promises)
    *promises = (f & TYF_PROMISE) != 0;
  return f != 0;
}

const ty *ty_strip_eventual(const ty *t) {
  while (t->kind == TY_OUTPUT || t->kind == TY_PROMISE)
    t = t->elem;
  return t;
}

/* Memoised: the checker asks for the target of every typed location. */
const ty *ty_value_target(ty_ctx *c, const ty *t) {
  const ty_memo *m = ty_memo_get(c, t, t, TY_MEMO_VALUE_TARGET);
  if (m)
    return m->result;
  const ty *r = t;
  for (;;) {
    r = ty_strip_eventual(r);
    if (r->kind != TY_UNION)
      break;
    const ty **keep = xmalloc(r->elems.count * sizeof *keep);
    size_t n = 0;
    for (size_t i = 0; i < r->elems.count; i++) {
      const ty *e = r->elems.items[i];
      if (e->kind != TY_OUTPUT && e->kind != TY_PROMISE && !ty_is_null(e))
        keep[n++] = e;
    }
    const ty *prev = r;
    r = n == r->elems.count || n == 0 ? r : ty_union(c, n, keep);
    free(keep);
    /* A union that keeps two or more members is final; a single member may
       itself be an eventual layer to remove. */
    if (r == prev || r->kind == TY_UNION)
      break;
  }
  ty_memo_put(c, t, t, TY_MEMO_VALUE_TARGET, r, TY_CONV_NONE);
  return r;
}

typedef enum rewrite_mode {
  RESOLVE_OUTPUTS,  /* Remove outputs and promises. */
  RESOLVE_PROMISES, /* Remove promises only. */
  INPUT_TYPE,       /* InputType'. */
} rewrite_mode;

/* The memo entry of each mode. */
static const ty_memo_op rewrite_memo[] = {TY_MEMO_RESOLVE_OUTPUTS, TY_MEMO_RESOLVE_PROMISES,
                                          TY_MEMO_INPUT};

static const char *const derived_suffix[] = {"$resolved", "$nopromise", "$input"};

/* The shared rule of ResolveOutputs, ResolvePromises and InputType': a
   type's children are rewritten, then the type is made again from them.
   The result of every type rewritten is memoised in the context, so a type
   shared by several parents, or met again by a later rewrite (the output
   form InputType' makes at every level is resolved, and holds the level
   below), is rewritten once.  A named object that needs rewriting becomes a
   derived named object (token + suffix) declared before its properties are
   rewritten, so recursive types close. */

/* The result for the rewritten form src of a type: itself, or for
   InputType' also its output. */
static const ty *rw_result(ty_ctx *c, const ty *src, rewrite_mode mode) {
  return mode == INPUT_TYPE ? ty_union2(c, src, ty_output(c, src)) : src;
}

static const ty *rewrite(ty_ctx *c, const ty *t, rewrite_mode mode);

/* Rewrites the element, elements or property types of t into kids (n of
   them); returns true if some child changed. */
static bool rewrite_children(ty_ctx *c, const ty *t, size_t n, const ty **kids,
                             rewrite_mode mode) {
  bool changed = false;
  for (size_t i = 0; i < n; i++) {
    const ty *kid = ty_kid(t, i);
    kids[i] = rewrite(c, kid, mode);
    changed |= kids[i] != kid;
  }
  return changed;
}

/* The rewrite of an object t whose properties need rewriting, into the
   derived named object named when t is named. */
static const ty *rewrite_object(ty_ctx *c, const ty *t, ty *named, rewrite_mode mode) {
  size_t n = t->object.count;
  const ty **kids = xmalloc((n ? n : 1) * sizeof *kids);
  bool changed = rewrite_children(c, t, n, kids, mode);
  ty_prop *props = xmalloc((n ? n : 1) * sizeof *props);
  for (size_t i = 0; i < n; i++)
    props[i] = (ty_prop){t->object.props[i].name, kids[i]};
  const ty *src = t;
  if (named) {
    ty_object_define(c, named, n, props);
    src = named;
  } else if (changed) {
    src = ty_object(c, n, props);
  }
  free(props);
  free(kids);
  return rw_result(c, src, mode);
}

/* The rewrite of a tuple or union t. */
static const ty *rewrite_elems(ty_ctx *c, const ty *t, rewrite_mode mode) {
  size_t n = t->elems.count;
  const ty **kids = xmalloc((n ? n : 1) * sizeof *kids);
  const ty *r = t;
  if (rewrite_children(c, t, n, kids, mode))
    r = t->kind == TY_TUPLE ? ty_tuple(c, n, kids) : ty_union(c, n, kids);
  free(kids);
  return rw_result(c, r, mode);
}

/* The rewrite of t, whose children need rewriting. */
static const ty *rewrite_kind(ty_ctx *c, const ty *t, ty *named, rewrite_mode mode) {
  switch (t->kind) {
  case TY_OUTPUT: {
    const ty *kid = rewrite(c, t->elem, mode);
    return mode == RESOLVE_OUTPUTS ? kid : make_wrapper(c, TY_OUTPUT, kid);
  }
  case TY_PROMISE: {
    const ty *kid = rewrite(c, t->elem, mode);
    return mode != INPUT_TYPE ? kid : rw_result(c, ty_promise(c, kid), mode);
  }
  case TY_LIST:
  case TY_MAP:
  case TY_SET:
    return rw_result(c, make_wrapper(c, t->kind, rewrite(c, t->elem, mode)), mode);
  case TY_TUPLE:
  case TY_UNION:
    return rewrite_elems(c, t, mode);
  case TY_OBJECT:
    return rewrite_object(c, t, named, mode);
  case TY_BOOL:
  case TY_INT:
  case TY_NUMBER:
  case TY_STRING:
  case TY_ID:
  case TY_DYNAMIC:
  case TY_NONE:
  case TY_OPAQUE:
  case TY_CONST:
  case TY_ENUM:
    break;
  }
  ice("type of kind %s has no children", kind_names[t->kind]);
}

/* The rewrite of t by mode: the types that need no rewriting are answered
   at once, the others by their kind's rule once their children are
   rewritten, and memoised under the type asked about (t before a named
   input object is followed to its origin). */
static const ty *rewrite(ty_ctx *c, const ty *t, rewrite_mode mode) {
  const ty *key = t;
  ty *named = NULL;
  for (;;) {
    if (mode != INPUT_TYPE) {
      unsigned need = mode == RESOLVE_OUTPUTS ? TYF_OUTPUT | TYF_PROMISE : TYF_PROMISE;
      if (!(t->flags & (need | TYF_NAMED)))
        return t;
    }
    const ty_memo *m = ty_memo_get(c, t, t, rewrite_memo[mode]);
    if (m)
      return m->result;
    if (ty_deep(c))
      return t;
    if (t->kind != TY_OBJECT || !t->object.token)
      break;
    /* Resolving the input form of X gives the resolved form of X. */
    if (mode != INPUT_TYPE && t->origin) {
      t = t->origin;
      continue;
    }
    if (mode != INPUT_TYPE) {
      bool out, prom;
      ty_contains_eventuals(t, &out, &prom);
      if (!(mode == RESOLVE_OUTPUTS ? out || prom : prom))
        return t;
    }
    char *tok = arena_printf(c->arena, "%s%s", t->object.token, derived_suffix[mode]);
    bool fresh;
    named = object_declare(c, tok, t->object.strict, &fresh);
    if (!fresh)
      return rw_result(c, named, mode);
    if (mode == INPUT_TYPE)
      ty_object_set_origin(named, t);
    break;
  }
  switch (t->kind) {
  case TY_OUTPUT:
    if (mode == INPUT_TYPE)
      return t;
    break;
  case TY_SET:
  case TY_TUPLE:
    if (mode == INPUT_TYPE)
      return rw_result(c, t, mode);
    break;
  case TY_DYNAMIC:
  case TY_NONE:
    return t;
  case TY_BOOL:
  case TY_INT:
  case TY_NUMBER:
  case TY_STRING:
  case TY_ID:
  case TY_OPAQUE:
  case TY_CONST:
  case TY_ENUM:
    return rw_result(c, t, mode);
  case TY_PROMISE:
  case TY_LIST:
  case TY_MAP:
  case TY_UNION:
  case TY_OBJECT:
    break;
  }
  const ty *r = rewrite_kind(c, t, named, mode);
  ty_memo_put(c, key, key, rewrite_memo[mode], r, TY_CONV_NONE);
  return r;
}

const ty *ty_resolve_outputs(ty_ctx *c, const ty *t) { return rewrite(c, t, RESOLVE_OUTPUTS); }

const ty *ty_resolve_promises(ty_ctx *c, const ty *t) { return rewrite(c, t, RESOLVE_PROMISES); }

/* Memoised (in rewrite): the checker asks for InputType of the same few
   types for every resource input, and the rewrite allocates and interns a
   fresh union each time. */
const ty *ty_input(ty_ctx *c, const ty *t) {
  return rewrite(c, t, INPUT_TYPE);
}

/* §9 lift: an output anywhere in any argument wins over a promise. */
const ty *ty_lift(ty_ctx *c, const ty *result, size_t n, const ty *const *args) {
  bool any_output = false, any_promise = false;
  for (size_t i = 0; i < n; i++) {
    bool o, p;
    ty_contains_eventuals(args[i], &o, &p);
    any_output |= o;
    any_promise |= p;
  }
  if (any_output)
    return ty_output(c, result);
  if (any_promise)
    return ty_promise(c, result);
  return result;
}

const ty *ty_lift_call(ty_ctx *c, const ty *ret, size_t n, const ty *const *params,
                       const ty *const *args) {
  for (size_t i = 0; i < n; i++) {
    if (!ty_assignable(c, params[i], args[i]))
      return ty_lift(c, ret, n, args);
  }
  return ret;
}

/* Makes every property of the anonymous object t optional. */
static const ty *optional_props(ty_ctx *c, const ty *t) {
  if (t->kind != TY_OBJECT || t->object.token)
    return t;
  size_t n = t->object.count;
  ty_prop *p = xmalloc((n ? n : 1) * sizeof *p);
  for (size_t i = 0; i < n; i++) {
    p[i].name = t->object.props[i].name;
    p[i].type = ty_optional(c, t->object.props[i].type);
  }
  const ty *r = ty_object(c, n, p);
  free(p);
  return r;
}

const ty *ty_config_optional_properties(ty_ctx *c, const ty *t) {
  switch (t->kind) {
  case TY_OBJECT:
    return optional_props(c, t);
  case TY_LIST:
    return t->elem->kind == TY_OBJECT ? ty_list(c, optional_props(c, t->elem)) : t;
  case TY_MAP:
    return t->elem->kind == TY_OBJECT ? ty_map(c, optional_props(c, t->elem)) : t;
  case TY_BOOL:
  case TY_INT:
  case TY_NUMBER:
  case TY_STRING:
  case TY_ID:
  case TY_DYNAMIC:
  case TY_NONE:
  case TY_OPAQUE:
  case TY_SET:
  case TY_TUPLE:
  case TY_UNION:
  case TY_OUTPUT:
  case TY_PROMISE:
  case TY_CONST:
  case TY_ENUM:
    break;
  }
  return t;
}

/* ------------------------------------------------------------ printing */

/* Appends the canonical String form of t to b, a type's kept form as one
   piece, stopping at the first piece to find b holding more than limit
   bytes.  Returns false when it stopped before the end (for the limit, or
   because the stack ran low: b then holds at most limit bytes). */
static bool put_form(pcl__buf *b, const ty *t, size_t limit) {
  if (b->len > limit)
    return false;
  if (t->str) {
    pcl__buf_puts(b, t->str);
    return true;
  }
  if (ty_deep(t->ctx))
    return false;
  switch (t->kind) {
  case TY_LIST:
  case TY_MAP:
  case TY_SET:
  case TY_OUTPUT:
  case TY_PROMISE:
    pcl__buf_puts(b, kind_names[t->kind]);
    pcl__buf_puts(b, "(");
    if (!put_form(b, t->elem, limit))
      return false;
    pcl__buf_puts(b, ")");
    return true;
  case TY_TUPLE:
  case TY_UNION:
    pcl__buf_puts(b, kind_names[t->kind]);
    pcl__buf_puts(b, "(");
    for (size_t i = 0; i < t->elems.count; i++) {
      if (i > 0)
        pcl__buf_puts(b, ", ");
      if (!put_form(b, t->elems.items[i], limit))
        return false;
    }
    pcl__buf_puts(b, ")");
    return true;
  case TY_OBJECT:
    /* Anonymous: a named object keeps its form. */
    pcl__buf_puts(b, "object({");
    for (size_t i = 0; i < t->object.count; i++) {
      if (i > 0)
        pcl__buf_puts(b, ", ");
      put_name(b, t->object.props[i].name);
      pcl__buf_puts(b, " = ");
      if (!put_form(b, t->object.props[i].type, limit))
        return false;
    }
    pcl__buf_puts(b, "})");
    return true;
  case TY_BOOL:
  case TY_INT:
  case TY_NUMBER:
  case TY_STRING:
  case TY_ID:
  case TY_DYNAMIC:
  case TY_NONE:
  case TY_OPAQUE:
  case TY_CONST:
  case TY_ENUM:
    break;
  }
  ice("type of kind %s without a kept String form", kind_names[t->kind]);
}

/* The forms of types nested deep are not kept (that would cost memory
   growing with the square of their depth), so they are compared by
   printing a prefix of each, longer and longer until they differ or end:
   the cost is about the length of their common prefix. */
int ty_cmp_string(const ty *a, const ty *b) {
  if (a == b)
    return 0;
  if (a->str && b->str)
    return strcmp(a->str, b->str);
  pcl__buf fa = {0}, fb = {0};
  int r;
  for (size_t limit = 256;; limit *= 4) {
    fa.len = fb.len = 0;
    bool whole_a = put_form(&fa, a, limit), whole_b = put_form(&fb, b, limit);
    size_t m = fa.len < fb.len ? fa.len : fb.len;
    int d = m ? memcmp(fa.data, fb.data, m) : 0;
    /* A form that ended, or was cut for lack of stack, is whole. */
    whole_a = whole_a || fa.len <= limit;
    whole_b = whole_b || fb.len <= limit;
    if (d || (whole_a && whole_b) || (whole_a && fa.len < fb.len) ||
        (whole_b && fb.len < fa.len)) {
      r = d < 0 ? -1 : d > 0 ? 1 : fa.len < fb.len ? -1 : fa.len > fb.len;
      break;
    }
  }
  pcl__buf_free(&fa);
  pcl__buf_free(&fb);
  return r;
}

/* The form of a type nested deep is computed once, on first use, and kept
   in the context's arena (unless the stack ran low: the form is then cut
   short and not kept). */
const char *ty_to_string(const ty *t) {
  if (t->str)
    return t->str;
  pcl__buf b = {0};
  bool whole = put_form(&b, t, SIZE_MAX);
  const char *s = ty_buf_finish(&b, t->ctx->arena);
  if (whole)
    ((ty *)t)->str = s;
  return s;
}

void ty_print(FILE *out, const ty *t) {
  if (t->str) {
    fputs(t->str, out);
    return;
  }
  pcl__buf b = {0};
  put_form(&b, t, SIZE_MAX);
  if (b.len)
    fwrite(b.data, 1, b.len, out);
  pcl__buf_free(&b);
}

/* Cuts the form in b to max bytes, at a character boundary, and ends it
   with `...`. */
static void cut(pcl__buf *b, size_t max) {
  b->len = max;
  while (b->len > 0 && ((unsigned char)b->data[b->len] & 0xC0) == 0x80)
    b->len--;
  b->data[b->len] = '\0';
  pcl__buf_puts(b, "...");
}

void ty_print_cut(FILE *out, const ty *t, size_t max) {
  if (t->str && strlen(t->str) <= max) {
    fputs(t->str, out);
    return;
  }
  pcl__buf b = {0};
  put_form(&b, t, max);
  if (b.len > max)
    cut(&b, max);
  if (b.len)
    fwrite(b.data, 1, b.len, out);
  pcl__buf_free(&b);
}

/* Appends the pretty form of t (§1.3): unions as `a | b` with none shown as
 * a trailing `?` (parenthesised when several members remain), objects as
 * `{ a: T }`, constants as literals; a named object met again inside itself
 * prints as its token.  The form of InputType(T) grows with the square of
 * T's depth, and a message need not show all of it: the walk stops at the
 * first piece to find b longer than TY_PRETTY_MAX bytes (or the stack low),
 * and returns false, for ty_pretty to cut the form there. */
static bool pretty(ty_ctx *c, pcl__buf *b, const ty *t) {
  if (b->len > TY_PRETTY_MAX || ty_deep(c))
    return false;
  switch (t->kind) {
  case TY_BOOL:
  case TY_INT:
  case TY_NUMBER:
  case TY_STRING:
  case TY_ID:
  case TY_DYNAMIC:
  case TY_NONE:
    pcl__buf_puts(b, t->str);
    return true;
  case TY_OPAQUE:
    pcl__buf_puts(b, t->name);
    return true;
  case TY_LIST:
  case TY_MAP:
  case TY_SET:
  case TY_OUTPUT:
  case TY_PROMISE:
    pcl__buf_printf(b, "%s(", kind_names[t->kind]);
    if (!pretty(c, b, t->elem) || b->len > TY_PRETTY_MAX)
      return false;
    pcl__buf_puts(b, ")");
    return true;
  case TY_TUPLE:
    pcl__buf_puts(b, "tuple(");
    for (size_t i = 0; i < t->elems.count; i++) {
      if (i > 0) {
        if (b->len > TY_PRETTY_MAX)
          return false;
        pcl__buf_puts(b, ", ");
      }
      if (!pretty(c, b, t->elems.items[i]))
        return false;
    }
    if (t->elems.count > 0 && b->len > TY_PRETTY_MAX)
      return false;
    pcl__buf_puts(b, ")");
    return true;
  case TY_OBJECT: {
    if (t->object.token && !ty_busy_push(c, t, t, TY_BUSY_PRINT)) {
      /* A recursive reference prints as the type's token. */
      pcl__buf_puts(b, t->object.token);
      return true;
    }
    bool whole = true;
    pcl__buf_puts(b, t->object.count ? "{ " : "{");
    for (size_t i = 0; whole && i < t->object.count; i++) {
      if (i > 0) {
        whole = b->len <= TY_PRETTY_MAX;
        if (!whole)
          break;
        pcl__buf_puts(b, ", ");
      }
      put_name(b, t->object.props[i].name);
      pcl__buf_puts(b, ": ");
      whole = pretty(c, b, t->object.props[i].type);
    }
    if (whole && t->object.count > 0 && b->len > TY_PRETTY_MAX)
      whole = false;
    if (whole)
      pcl__buf_puts(b, t->object.count ? " }" : "}");
    if (t->object.token)
      ty_busy_pop(c);
    return whole;
  }
  case TY_UNION: {
    bool has_none = false;
    size_t members = 0;
    for (size_t i = 0; i < t->elems.count; i++) {
      if (t->elems.items[i]->kind == TY_NONE)
        has_none = true;
      else
        members++;
    }
    bool parens = has_none && members > 1;
    if (parens)
      pcl__buf_puts(b, "(");
    size_t shown = 0;
    for (size_t i = 0; i < t->elems.count; i++) {
      if (t->elems.items[i]->kind == TY_NONE)
        continue;
      if (shown++) {
        if (b->len > TY_PRETTY_MAX)
          return false;
        pcl__buf_puts(b, " | ");
      }
      if (!pretty(c, b, t->elems.items[i]))
        return false;
    }
    if (members > 0 && b->len > TY_PRETTY_MAX)
      return false;
    if (parens)
      pcl__buf_puts(b, ")");
    if (has_none)
      pcl__buf_puts(b, "?");
    return true;
  }
  case TY_CONST:
    ty_buf_put_value(b, t);
    return true;
  case TY_ENUM:
    pcl__buf_puts(b, "enum(");
    for (size_t i = 0; i < t->enm.count; i++) {
      if (i)
        pcl__buf_puts(b, " | ");
      ty_buf_put_value(b, t->enm.values[i]);
    }
    pcl__buf_puts(b, ")");
    return true;
  }
  ice("bad type kind %d", (int)t->kind);
}

const char *ty_pretty(ty_ctx *c, const ty *t) {
  pcl__buf b = {0};
  if (!pretty(c, &b, t) && b.len > TY_PRETTY_MAX)
    cut(&b, TY_PRETTY_MAX);
  return ty_buf_finish(&b, c->arena);
}
