/* gen_iter.c: the operations of generated code that read into values or
 * build them (pcl_gen.h, "generated code"): attribute and index access and
 * static traversals, object constructors and template parts, for
 * expressions and splats, try, can and recover, and the calls that are not
 * plain built-ins (getOutput, expanded arguments, secret and unsecret,
 * invokes and methods).
 *
 * Traversal follows HCL's run-time rules (types.md 6): a missing attribute
 * or key is an error unless the static type declares it, and a traversal
 * through futures is followed step by step, so only what lies on its path
 * (not a sibling's future, secret or unknown) affects its result.
 *
 * Everything that waits does so through futures and callbacks run by the
 * scheduler loop; no walk here recurses over the depth of a value. */
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "gen/gen_internal.h"

/* -------------------------------------------------------------- traversal */

/* Returns the error "Invalid index: <why>" for the key k (named in the
 * message). */
static pcl_error *invalid_index(const pcl_value *k, const char *why) {
  char *r = pcl_value_repr(k, 40);
  pcl_error *e = pcl_error_new("Invalid index: the key %s %s", r, why);
  free(r);
  return e;
}

/* Looks up the list element at key (an int, or a number or string holding
 * a whole number): stores it (borrowed from list) in *out. */
static bool list_element(const pcl_value *list, const pcl_value *key, pcl_value **out,
                         pcl_error **err) {
  /* A key that is no whole number fails as its conversion does, naming
     the value (cannot convert 2.5 to int: not an integer). */
  pcl_value *iv = pcl_convert_to_int(key, err);
  if (iv == NULL) {
    return false;
  }
  int64_t i = -1;
  bool ok = pcl_kind_of(iv) == PCL_T_INT && pcl_int_get_i64(iv, &i) && i >= 0 &&
            (uint64_t)i < pcl_len(list);
  pcl_release(iv);
  if (!ok) {
    char *r = pcl_value_repr(key, 40);
    *err = pcl_error_new("Invalid index: the index %s is out of range for a list of %zu "
                         "elements",
                         r, pcl_len(list));
    free(r);
    return false;
  }
  *out = pcl_list_at(list, (size_t)i);
  return true;
}

/* What the static types say of a missing attribute or key. */
typedef struct step_decl {
  bool declared;            /* Declared by the static type. */
  const pcl_value *disc;    /* Or by the members of a discriminated union that
                               the discriminator disc (a STRING) ... */
  const pcl_value *members; /* ... has one of these values (a LIST) for. */
} step_decl;

/* Whether the attribute missing from the map obj is declared (see
 * step_decl); *unknown is set when that depends on a discriminator that is
 * not known yet. */
static bool missing_declared(const step_decl *d, const pcl_value *obj, bool *unknown) {
  if (d->declared) {
    return true;
  }
  if (d->disc == NULL) {
    return false;
  }
  const pcl_value *v = pcl_map_get(obj, pcl_str_data(d->disc), pcl_str_len(d->disc));
  while (v != NULL && pcl_kind_of(v) == PCL_T_SECRET) {
    v = pcl_secret_inner(v);
  }
  if (v != NULL && pcl_kind_of(v) == PCL_T_UNKNOWN) {
    *unknown = true;
    return true;
  }
  for (size_t i = 0; v != NULL && pcl_kind_of(v) == PCL_T_STRING && i < pcl_len(d->members);
       i++) {
    if (pcl_equal(pcl_list_at(d->members, i), v)) {
      return true;
    }
  }
  return false;
}

/* One step of a traversal on the plain value obj: the attribute key (a
 * STRING) or, with index, the element key (any plain value).  A missing
 * attribute or key of a map is an error unless declared (d): it is then
 * null, or unknown in a preview when obj is a resource object (a map with
 * "__type") or was reached through one (resource), whose provider may not
 * have computed it yet, outside a preview when obj is a resource object
 * whose id is unknown (the engine did not run its step), and unknown while
 * the discriminator that decides it is.  Stores the element (borrowed from obj, or an immortal value) in
 * *out. */
static bool step(const pcl_value *obj, const pcl_value *key, bool index, const step_decl *d,
                 bool preview, bool resource, pcl_value **out, pcl_error **err) {
  pcl_kind k = pcl_kind_of(obj);
  switch (k) {
  case PCL_T_MAP: {
    pcl_value *s = pcl_retain((pcl_value *)key);
    if (index && pcl_kind_of(key) != PCL_T_STRING) {
      pcl_release(s);
      s = pcl_kind_of(key) == PCL_T_NULL ? NULL : pcl_convert_to_string(key, err);
      if (s == NULL) {
        if (pcl_kind_of(key) == PCL_T_NULL) {
          *err = pcl_error_new("Invalid index: a null value cannot be a key");
        } else {
          pcl_error_prefix(*err, "Invalid index");
        }
        return false;
      }
    }
    *out = pcl_map_get(obj, pcl_str_data(s), pcl_str_len(s));
    pcl_release(s);
    if (*out != NULL) {
      return true;
    }
    bool unknown = false;
    if (missing_declared(d, obj, &unknown)) {
      resource = resource || pcl_map_get_cstr(obj, "__type") != NULL;
      /* Outside a preview a resource's id is unknown when the engine did
         not run its step (skipped, or failed and the engine goes on): its
         outputs are unknown too. */
      const pcl_value *id = pcl_map_get_cstr(obj, "id");
      bool not_run = id != NULL && pcl_kind_of(id) == PCL_T_UNKNOWN &&
                     pcl_map_get_cstr(obj, "__type") != NULL;
      *out = (preview && resource) || unknown || not_run ? pcl_unknown() : pcl_null();
      return true;
    }
    if (index) {
      *err = invalid_index(key, "does not identify an element of this collection");
    } else {
      char *r = pcl_value_repr(key, 40);
      *err = pcl_error_new("Unsupported attribute: this object does not have an attribute "
                           "named %s",
                           r);
      free(r);
    }
    return false;
  }
  case PCL_T_LIST:
    if (index) {
      return list_element(obj, key, out, err);
    }
    break;
  case PCL_T_RESOURCE:
    if (pcl_kind_of(key) == PCL_T_STRING && pcl_str_eq_cstr(key, "urn")) {
      *out = pcl_resource_urn(obj);
      return true;
    }
    if (pcl_kind_of(key) == PCL_T_STRING && pcl_str_eq_cstr(key, "id")) {
      *out = pcl_resource_id(obj);
      return true;
    }
    break;
  case PCL_T_NULL:
    *err = pcl_error_new(index ? "Attempt to index null value: this value is null, so it has "
                                 "no elements"
                               : "Attempt to get attribute from null value: this value is "
                                 "null, so it has no attributes");
    return false;
  case PCL_T_SET:
    if (index) {
      *err = pcl_error_new("Invalid index: the elements of a set are identified only by their "
                           "value and have no index or key");
      return false;
    }
    break;
  case PCL_T_BOOL:
  case PCL_T_INT:
  case PCL_T_NUMBER:
  case PCL_T_STRING:
  case PCL_T_ASSET:
  case PCL_T_ARCHIVE:
  case PCL_T_UNKNOWN:
  case PCL_T_SECRET:
  case PCL_T_EVENTUAL:
    if (index) {
      *err = pcl_error_new("Invalid index: a value of type %s has no elements",
                           pcl_kind_name(k));
      return false;
    }
    break;
  }
  char *r = pcl_value_repr(key, 40);
  *err = pcl_error_new("Unsupported attribute: a value of type %s does not have an attribute "
                       "named %s",
                       pcl_kind_name(k), r);
  free(r);
  return false;
}

pcl_value *pcl_gen_attr(const pcl_gen_env *e, const pcl_value *obj, const pcl_value *name,
                        unsigned flags, pcl_error **err) {
  pcl_value *v;
  step_decl d = {flags & PCL_GEN_DECLARED, NULL, NULL};
  if (!step(obj, name, false, &d, pcl_run_preview(e->f->run), false, &v, err)) {
    return NULL;
  }
  return pcl_retain(v);
}

pcl_value *pcl_gen_index(const pcl_value *coll, const pcl_value *key, unsigned flags,
                         pcl_error **err) {
  pcl_value *v;
  step_decl d = {flags & PCL_GEN_DECLARED, NULL, NULL};
  return step(coll, key, true, &d, false, false, &v, err) ? pcl_retain(v) : NULL;
}

/* Where a traversal stopped. */
typedef struct walk {
  const pcl_value *v;    /* The value reached (borrowed). */
  const uint32_t *steps; /* The row entries of the steps left. */
  size_t left;           /* Their number. */
  pcl_value *const *keys; /* The computed keys (borrowed), or NULL. */
  size_t nkeys;           /* Their number. */
  bool secret;           /* A SECRET was passed on the way. */
  bool resource;         /* A resource object was passed on the way. */
} walk;

/* Takes the steps left of a static traversal (see pcl_gen_path) from w->v,
 * passing SECRETs (noted in w->secret), until the end or until an EVENTUAL
 * or UNKNOWN stands in the way.  Returns false with *err when a step
 * fails. */
static bool walk_steps(const pcl_gen_program *prog, bool preview, walk *w, pcl_error **err) {
  for (; w->left > 0; w->left--) {
    while (pcl_kind_of(w->v) == PCL_T_SECRET) {
      w->secret = true;
      w->v = pcl_secret_inner(w->v);
    }
    if (pcl_kind_of(w->v) == PCL_T_EVENTUAL || pcl_kind_of(w->v) == PCL_T_UNKNOWN) {
      return true;
    }
    uint32_t flags = w->steps[1];
    const pcl_value *key = &prog->consts[w->steps[0]];
    if (flags & PCL_GEN_STEP_KEYED) {
      if (w->keys == NULL || w->steps[0] >= w->nkeys) {
        *err = pcl_error_new("internal error: a computed traversal key is missing (the "
                             "generated code and libpclrt disagree)");
        return false;
      }
      key = w->keys[w->steps[0]];
    }
    while (pcl_kind_of(key) == PCL_T_SECRET) {
      w->secret = true;
      key = pcl_secret_inner(key);
    }
    if (pcl_kind_of(key) == PCL_T_UNKNOWN) {
      /* An unknown key stands in the way as an unknown value would. */
      w->v = key;
      return true;
    }
    step_decl d = {flags & PCL_GEN_DECLARED, NULL, NULL};
    if (flags & PCL_GEN_STEP_BY_MEMBER) {
      d.disc = &prog->consts[w->steps[2]];
      d.members = &prog->consts[w->steps[3]];
    }
    pcl_value *next;
    if (!step(w->v, key, flags & PCL_GEN_STEP_INDEX, &d, preview, w->resource, &next, err)) {
      return false;
    }
    w->resource = w->resource ||
                  (pcl_kind_of(w->v) == PCL_T_MAP && pcl_map_get_cstr(w->v, "__type") != NULL);
    w->v = next;
    w->steps += flags & PCL_GEN_STEP_BY_MEMBER ? 4 : 2;
  }
  return true;
}

/* A traversal waiting for a future on its way. */
typedef struct path_wait {
  pcl_future *result;          /* The traversal's value (owned). */
  const pcl_gen_program *prog; /* The program (static): keys and locations. */
  bool preview;                /* The run is a preview. */
  const uint32_t *steps;       /* The steps left (static rows). */
  size_t n;                    /* Their number. */
  bool resource;               /* A resource object was passed on the way. */
  pcl_value **keys;            /* The computed keys (owned), or NULL. */
  size_t nkeys;                /* Their number. */
  uint32_t loc;                /* The location of failures. */
  unsigned bits;               /* PCL_FUT_SECRET once a secret was passed. */
  pcl_deps *deps;              /* The dependencies of the futures passed (owned). */
} path_wait;

static void path_wait_free(path_wait *w) {
  for (size_t i = 0; i < w->nkeys; i++) {
    pcl_release(w->keys[i]);
  }
  free(w->keys);
  pcl_future_release(w->result);
  pcl_deps_release(w->deps);
  pcl__pool_free(w, sizeof *w);
}

static void path_cb(pcl_future *f, void *data);

/* Continues w from v (borrowed): settles the result, or waits for the next
 * future on the way. */
static void path_continue(path_wait *w, const pcl_value *v) {
  walk k = {v, w->steps, w->n, w->keys, w->nkeys, false, w->resource};
  pcl_error *err = NULL;
  if (!walk_steps(w->prog, w->preview, &k, &err)) {
    pcl_future_reject_take(w->result, pcl__gen_locate(w->prog, err, w->loc));
  } else if (k.left > 0 && pcl_kind_of(k.v) == PCL_T_EVENTUAL) {
    w->steps = k.steps;
    w->n = k.left;
    w->resource = k.resource;
    w->bits |= k.secret ? (unsigned)PCL_FUT_SECRET : 0u;
    pcl_future_then(pcl_value_future(k.v), path_cb, w);
    return;
  } else {
    /* The end, or an UNKNOWN in the way, which makes the rest unknown. */
    unsigned bits = w->bits | (k.secret ? (unsigned)PCL_FUT_SECRET : 0u);
    pcl_future_resolve(w->result, k.left > 0 ? pcl_unknown() : (pcl_value *)k.v, bits, w->deps);
  }
  path_wait_free(w);
}

static void path_cb(pcl_future *f, void *data) {
  path_wait *w = data;
  if (pcl_future_state_of(f) == PCL_FUTURE_REJECTED) {
    pcl_error *err = pcl_error_copy(pcl_future_error(f));
    pcl_future_reject_take(w->result, pcl__gen_locate(w->prog, err, w->loc));
    path_wait_free(w);
    return;
  }
  pcl_deps *d = pcl_deps_union(w->deps, pcl_future_deps(f));
  pcl_deps_release(w->deps);
  w->deps = d;
  w->bits |= pcl_future_bits(f) & PCL_FUT_SECRET;
  if (pcl_future_bits(f) & PCL_FUT_UNKNOWN) {
    pcl_future_resolve(w->result, pcl_unknown(), w->bits, w->deps);
    path_wait_free(w);
    return;
  }
  path_continue(w, pcl_future_value(f));
}

pcl_value *pcl_gen_path(const pcl_gen_env *e, pcl_value *root, const uint32_t *steps, size_t n,
                        uint32_t loc, pcl_error **err) {
  return pcl_gen_path_keys(e, root, NULL, 0, steps, n, loc, err);
}

pcl_value *pcl_gen_path_keys(const pcl_gen_env *e, pcl_value *root, pcl_value *const *keys,
                             size_t nkeys, const uint32_t *steps, size_t n, uint32_t loc,
                             pcl_error **err) {
  const pcl_gen_program *prog = e->f->prog;
  bool preview = pcl_run_preview(e->f->run);
  walk k = {root, steps, n, keys, nkeys, false, false};
  if (!walk_steps(prog, preview, &k, err)) {
    pcl__gen_locate(prog, *err, loc);
    return NULL;
  }
  if (k.left == 0 && !k.secret) {
    return pcl_retain((pcl_value *)k.v);
  }
  /* A future or an UNKNOWN stands in the way, or the result is secret: an
   * EVENTUAL, settled by the function that continues a waiting traversal
   * from the value where the walk stopped. */
  path_wait *w = pcl__pool_alloc(sizeof *w);
  w->result = pcl_future_new(PCL_OUTPUT, NULL);
  w->prog = prog;
  w->preview = preview;
  w->steps = k.steps;
  w->n = k.left;
  w->resource = k.resource;
  /* The keys outlive the call while the traversal waits. */
  w->keys = nkeys > 0 ? pcl_xmalloc(nkeys * sizeof *w->keys) : NULL;
  w->nkeys = nkeys;
  for (size_t i = 0; i < nkeys; i++) {
    w->keys[i] = pcl_retain(keys[i]);
  }
  w->loc = loc;
  w->bits = k.secret ? PCL_FUT_SECRET : 0;
  w->deps = NULL;
  pcl_value *r = pcl_future_to_value(w->result);
  path_continue(w, k.v);
  return r;
}

/* ----------------------------------------------------------- constructors */

/* Returns the object key k converted to a string (owned), or NULL with
 * *err: null and values that have no string form are no keys. */
static pcl_value *object_key(const pcl_value *k, pcl_error **err) {
  if (pcl_kind_of(k) == PCL_T_STRING) {
    return pcl_retain((pcl_value *)k);
  }
  if (pcl_kind_of(k) == PCL_T_NULL) {
    *err = pcl_error_new("Null value as key: an object key must not be null");
    return NULL;
  }
  pcl_value *s = pcl_convert_to_string(k, err);
  if (s == NULL) {
    pcl_error_prefix(*err, "Incorrect key type");
  }
  return s;
}

pcl_value *pcl_gen_object(pcl_value *const *keys, pcl_value *const *vals, size_t n,
                          pcl_error **err) {
  pcl_mapbuf b = PCL_MAPBUF_INIT;
  for (size_t i = 0; i < n; i++) {
    pcl_value *k = object_key(keys[i], err);
    if (k == NULL) {
      pcl_mapbuf_free(&b);
      return NULL;
    }
    pcl_mapbuf_put_take(&b, k, pcl_retain(vals[i]));
  }
  return pcl_mapbuf_finish(&b);
}

pcl_value *pcl_gen_template(pcl_value *const *parts, size_t n, pcl_error **err) {
  /* Most templates join strings only, which need no buffer. */
  bool strings = true;
  for (size_t i = 0; i < n && strings; i++) {
    const pcl_value *v = parts[i];
    while (pcl_kind_of(v) == PCL_T_SECRET) {
      v = pcl_secret_inner(v);
    }
    strings = pcl_kind_of(v) == PCL_T_STRING;
  }
  if (strings) {
    return pcl__str_join(parts, n, err);
  }
  pcl_strbuf b = PCL_STRBUF_INIT;
  for (size_t i = 0; i < n; i++) {
    if (!pcl_strbuf_append_value(&b, parts[i], err)) {
      pcl_strbuf_free(&b);
      return NULL;
    }
  }
  return pcl_strbuf_finish(&b, err);
}

/* --------------------------------------------------------------- iteration */

/* The per-element results of a for expression before assembly. */
typedef struct for_parts {
  const pcl_gen_program *prog; /* For the location of failures. */
  uint32_t loc;                /* That location. */
  unsigned flags;              /* PCL_GEN_FOR_* flags. */
  size_t count;                /* Number of elements. */
  pcl_value **vals;            /* Per element: the value (owned). */
  pcl_value **keys;            /* Per element: the key (owned), or NULL
                                  without PCL_GEN_FOR_OBJECT. */
  pcl_value **conds;           /* Per element: the condition (owned), or NULL
                                  without PCL_GEN_FOR_COND. */
} for_parts;

static void for_parts_free(void *data) {
  for_parts *p = data;
  for (size_t i = 0; i < p->count; i++) {
    pcl_release(p->vals[i]);
    pcl_release(p->keys ? p->keys[i] : NULL);
    pcl_release(p->conds ? p->conds[i] : NULL);
  }
  free(p->vals);
  free(p->keys);
  free(p->conds);
  free(p);
}

/* Calls visit(slot, ctx) for each part of p that assembly reads at its
 * top, in element order: conditions, keys, and the values of %{for}. */
static void for_each_read(for_parts *p, void (*visit)(pcl_value **slot, void *ctx), void *ctx) {
  for (size_t i = 0; i < p->count; i++) {
    if (p->conds) {
      visit(&p->conds[i], ctx);
    }
    if (p->keys) {
      visit(&p->keys[i], ctx);
    }
    if (p->flags & PCL_GEN_FOR_CONCAT) {
      visit(&p->vals[i], ctx);
    }
  }
}

/* A group pair: a key, its element's value and position (borrowed). */
typedef struct group_pair {
  pcl_value *key; /* A STRING. */
  pcl_value *val; /* The element's value. */
  size_t pos;     /* The element's position. */
} group_pair;

/* qsort order of group pairs: by key bytes, then by position. */
static int group_pair_cmp(const void *pa, const void *pb) {
  const group_pair *a = pa, *b = pb;
  size_t la = pcl_str_len(a->key), lb = pcl_str_len(b->key);
  int c = memcmp(pcl_str_data(a->key), pcl_str_data(b->key), la < lb ? la : lb);
  if (c == 0) {
    c = (la > lb) - (la < lb);
  }
  return c != 0 ? c : (a->pos > b->pos) - (a->pos < b->pos);
}

/* Returns the object of the pairs keys[i] => vals[i] (borrowed STRINGs and
 * values, in element order) with the values of equal keys grouped into
 * lists in element order: the pairs are sorted by key then position, and
 * each run of equal keys makes one list (n log n, where matching each key
 * against the others would be quadratic). */
static pcl_value *group(pcl_value *const *keys, pcl_value *const *vals, size_t n) {
  group_pair *pairs = pcl_xmalloc((n ? n : 1) * sizeof *pairs);
  for (size_t i = 0; i < n; i++) {
    pairs[i] = (group_pair){keys[i], vals[i], i};
  }
  qsort(pairs, n, sizeof *pairs, group_pair_cmp);
  pcl_value **items = pcl_xmalloc((n ? n : 1) * sizeof *items);
  pcl_mapbuf g = PCL_MAPBUF_INIT;
  for (size_t i = 0; i < n;) {
    size_t m = 0, j = i;
    for (; j < n && pcl_equal(pairs[j].key, pairs[i].key); j++) {
      items[m++] = pairs[j].val;
    }
    pcl_mapbuf_put_take(&g, pcl_retain(pairs[i].key), pcl_list_of(items, m));
    i = j;
  }
  free(items);
  free(pairs);
  return pcl_mapbuf_finish(&g);
}

/* Builds the result of a for expression from its parts, whose conditions,
 * keys and (for %{for}) values are settled. */
static pcl_value *for_assemble(const for_parts *p, pcl_error **err) {
  size_t n = p->count;
  pcl_value **keys = pcl_xcalloc(n ? n : 1, sizeof *keys);
  pcl_value **vals = pcl_xmalloc((n ? n : 1) * sizeof *vals);
  pcl_strbuf b = PCL_STRBUF_INIT;
  pcl_value *r = NULL;
  size_t m = 0;
  bool ok = true;
  for (size_t i = 0; i < n && ok; i++) {
    bool keep = true;
    if (p->conds && !pcl_condition_get(p->conds[i], &keep, err)) {
      ok = false;
    } else if (!keep) {
      continue;
    } else if (p->keys && (keys[m] = object_key(p->keys[i], err)) == NULL) {
      ok = false;
    } else if ((p->flags & PCL_GEN_FOR_CONCAT) && !pcl_strbuf_append_value(&b, p->vals[i], err)) {
      ok = false;
    } else {
      vals[m++] = p->vals[i];
    }
  }
  if (ok && (p->flags & PCL_GEN_FOR_OBJECT) &&
      !pcl__value_fits(2 * m * sizeof(pcl_value *), "the object", err)) {
    /* An object takes twice the slots of the collection it comes from. */
    ok = false;
  }
  if (!ok) {
    pcl_strbuf_free(&b);
  } else if (p->flags & PCL_GEN_FOR_CONCAT) {
    r = pcl_strbuf_finish(&b, err);
  } else if (!(p->flags & PCL_GEN_FOR_OBJECT)) {
    r = pcl_list_of(vals, m);
  } else if (p->flags & PCL_GEN_FOR_GROUP) {
    r = group(keys, vals, m);
  } else {
    /* pcl_map_of keeps the last of equal keys: later keys win. */
    r = pcl_map_of(keys, vals, m);
  }
  for (size_t i = 0; i < m + !ok; i++) {
    pcl_release(keys[i]);
  }
  free(keys);
  free(vals);
  return r;
}

/* Counts the parts that must be awaited (ctx: a size_t). */
static void count_unsettled(pcl_value **slot, void *ctx) {
  *(size_t *)ctx += pcl__gen_unsettled(*slot);
}

/* Collects the futures of the parts that must be awaited. */
typedef struct collect {
  pcl_future **fs; /* The futures (owned), in part order. */
  size_t n;        /* Collected so far. */
} collect;

static void collect_unsettled(pcl_value **slot, void *ctx) {
  collect *c = ctx;
  if (pcl__gen_unsettled(*slot)) {
    c->fs[c->n++] = pcl_future_of_value(*slot);
  }
}

/* Replaces the parts that were awaited by their settled values. */
typedef struct fill {
  pcl_value *const *args; /* The settled values, in part order. */
  size_t k;               /* The next one. */
} fill;

static void fill_unsettled(pcl_value **slot, void *ctx) {
  fill *f = ctx;
  if (pcl__gen_unsettled(*slot)) {
    pcl_release(*slot);
    *slot = pcl_retain(f->args[f->k++]);
  }
}

/* Assembles a for expression once the parts it waited for settled. */
static pcl_value *for_cb(pcl_value *const *args, size_t n, void *data, pcl_error **err) {
  for_parts *p = data;
  (void)n;
  fill f = {args, 0};
  for_each_read(p, fill_unsettled, &f);
  pcl_value *r = for_assemble(p, err);
  if (r == NULL) {
    pcl__gen_locate(p->prog, *err, p->loc);
  }
  return r;
}

pcl_value *pcl_gen_for(pcl_gen_env *closure, pcl_gen_each_fn each, unsigned flags,
                       const pcl_value *coll, uint32_t loc, pcl_error **err) {
  const pcl_gen_program *prog = closure->f->prog;
  pcl_kind k = pcl_kind_of(coll);
  if (k != PCL_T_LIST && k != PCL_T_SET && k != PCL_T_MAP) {
    *err = k == PCL_T_NULL ? pcl_error_new("Iteration over null value: a null value cannot be "
                                           "the collection of a for expression")
                           : pcl_error_new("Iteration over non-iterable value: a value of type "
                                           "%s cannot be the collection of a for expression",
                                           pcl_kind_name(k));
    pcl__gen_locate(prog, *err, loc);
    pcl_gen_env_release(closure);
    return NULL;
  }
  size_t count = pcl_len(coll);
  for_parts *p = pcl_xmalloc(sizeof *p);
  p->prog = prog;
  p->loc = loc;
  p->flags = flags;
  p->count = 0;
  p->vals = pcl_xmalloc((count ? count : 1) * sizeof *p->vals);
  p->keys = (flags & PCL_GEN_FOR_OBJECT) ? pcl_xmalloc((count ? count : 1) * sizeof *p->keys)
                                         : NULL;
  p->conds = (flags & PCL_GEN_FOR_COND) ? pcl_xmalloc((count ? count : 1) * sizeof *p->conds)
                                        : NULL;
  for (size_t i = 0; i < count; i++) {
    pcl_value *key = k == PCL_T_MAP ? pcl_retain(pcl_map_key_at(coll, i))
                                    : pcl_int_new((int64_t)i);
    pcl_value *val = k == PCL_T_MAP ? pcl_map_val_at(coll, i) : pcl_list_at(coll, i);
    pcl_value *out[PCL_GEN_OUT_COUNT] = {NULL, NULL, NULL};
    bool ok = each(closure, key, val, out, err);
    pcl_release(key);
    if (!ok) {
      for_parts_free(p);
      pcl_gen_env_release(closure);
      return NULL;
    }
    p->vals[i] = out[PCL_GEN_OUT_VALUE];
    if (p->keys) {
      p->keys[i] = out[PCL_GEN_OUT_KEY];
    }
    if (p->conds) {
      p->conds[i] = out[PCL_GEN_OUT_COND];
    }
    p->count++;
  }
  pcl_gen_env_release(closure);
  size_t waits = 0;
  for_each_read(p, count_unsettled, &waits);
  if (waits == 0) {
    pcl_value *r = for_assemble(p, err);
    if (r == NULL) {
      pcl__gen_locate(prog, *err, loc);
    }
    for_parts_free(p);
    return r;
  }
  collect c = {pcl_xmalloc(waits * sizeof *c.fs), 0};
  for_each_read(p, collect_unsettled, &c);
  pcl_value *r = pcl__gen_apply_take(c.fs, c.n, for_cb, p, for_parts_free);
  free(c.fs);
  return r;
}

pcl_value *pcl_gen_splat(pcl_gen_env *closure, pcl_gen_each_fn each, const pcl_value *src,
                         pcl_error **err) {
  pcl_kind k = pcl_kind_of(src);
  bool many = k == PCL_T_LIST || k == PCL_T_SET;
  size_t count = k == PCL_T_NULL ? 0 : many ? pcl_len(src) : 1;
  pcl_value **items = pcl_xmalloc((count ? count : 1) * sizeof *items);
  size_t done = 0;
  while (done < count) {
    pcl_value *out[PCL_GEN_OUT_COUNT] = {NULL, NULL, NULL};
    if (!each(closure, NULL, many ? pcl_list_at(src, done) : (pcl_value *)src, out, err)) {
      break;
    }
    items[done++] = out[PCL_GEN_OUT_VALUE];
  }
  pcl_value *r = NULL;
  if (done == count) {
    r = pcl_list_of_take(items, count);
  } else {
    for (size_t i = 0; i < done; i++) {
      pcl_release(items[i]);
    }
  }
  free(items);
  pcl_gen_env_release(closure);
  return r;
}

/* ------------------------------------------------------ try, can, recover */

/* Which special form an attempt evaluates. */
typedef enum attempt_kind { ATTEMPT_TRY, ATTEMPT_CAN, ATTEMPT_RECOVER } attempt_kind;

/* A try, can or recover in progress: its alternatives run one at a time,
 * each awaited deeply before the next is tried. */
typedef struct attempt {
  attempt_kind kind;            /* The form. */
  const pcl_gen_program *prog;  /* The program, for locations. */
  pcl_gen_recover_fn recovery;  /* RECOVER: the recovery expression. */
  pcl_gen_env *recovery_env;    /* RECOVER: its environment (owned until used). */
  uint32_t loc;                 /* TRY: the location of the final failure. */
  pcl_try t;                    /* TRY: the failures so far. */
  pcl_future *result;           /* The form's value (owned). */
  size_t next;                  /* The next alternative. */
  size_t n;                     /* Number of alternatives. */
  pcl_gen_env **envs;           /* Their environments (each owned until the
                                   alternative runs). */
  pcl_gen_thunk_fn alts[];      /* The alternatives (try), the argument
                                   (can) or the value (recover); then envs. */
} attempt;

/* Returns a new attempt of kind over alts[0..n), each to run in the
 * environment closures[i] (stolen), whose result is returned through
 * *value (an owned EVENTUAL). */
static attempt *attempt_new(attempt_kind kind, pcl_gen_env *const *closures,
                            const pcl_gen_thunk_fn *alts, size_t n, pcl_value **value) {
  attempt *a = pcl_xmalloc(sizeof *a + n * (sizeof a->alts[0] + sizeof a->envs[0]));
  a->kind = kind;
  a->prog = n > 0 ? closures[0]->f->prog : NULL;
  a->recovery = NULL;
  a->recovery_env = NULL;
  a->envs = (pcl_gen_env **)(void *)(a->alts + n);
  a->loc = 0;
  a->t = (pcl_try)PCL_TRY_INIT;
  a->result = pcl_future_new(PCL_OUTPUT, NULL);
  a->next = 0;
  a->n = n;
  for (size_t i = 0; i < n; i++) {
    a->alts[i] = alts[i];
    a->envs[i] = closures[i];
  }
  *value = pcl_future_to_value(a->result);
  return a;
}

static void attempt_free(attempt *a) {
  for (size_t i = a->next; i < a->n; i++) {
    pcl_gen_env_release(a->envs[i]);
  }
  pcl_gen_env_release(a->recovery_env);
  pcl_try_dispose(&a->t);
  pcl_future_release(a->result);
  free(a);
}

static void attempt_cb(pcl_future *f, void *data);

/* Evaluates the next alternative and waits for its outcome: a failure
 * becomes a rejected future, a value is awaited deeply. */
static void attempt_step(attempt *a) {
  size_t i = a->next++;
  pcl_gen_env *env = a->envs[i];
  pcl_error *err = NULL;
  pcl_value *v = a->alts[i](env, &err);
  pcl_gen_env_release(env);
  pcl_future *f;
  if (v == NULL) {
    f = pcl_future_new(PCL_OUTPUT, NULL);
    pcl_future_reject_take(f, err);
  } else {
    f = pcl_future_await_deep(v);
    pcl_release(v);
  }
  pcl_future_then(f, attempt_cb, a);
  pcl_future_release(f);
}

/* Settles a TRY on the outcome f of its current alternative, or moves on. */
static void try_outcome(attempt *a, pcl_future *f) {
  if (pcl_future_state_of(f) == PCL_FUTURE_REJECTED) {
    pcl_try_fail_take(&a->t, pcl_error_copy(pcl_future_error(f)));
    if (a->next < a->n) {
      attempt_step(a);
      return;
    }
    pcl_error *err = pcl_try_error(&a->t);
    pcl_future_reject_take(a->result, pcl__gen_locate(a->prog, err, a->loc));
  } else {
    pcl_value *v = pcl_future_value(f);
    pcl_value *r = pcl_try_success(&a->t, v != NULL ? v : pcl_unknown());
    pcl_future_resolve(a->result, r, pcl_future_bits(f), pcl_future_deps(f));
    pcl_release(r);
  }
  attempt_free(a);
}

/* Settles a CAN on the outcome f of its argument. */
static void can_outcome(attempt *a, pcl_future *f) {
  if (pcl_future_state_of(f) == PCL_FUTURE_REJECTED) {
    pcl_value *r = pcl_can_result(NULL, pcl_error_copy(pcl_future_error(f)));
    pcl_future_resolve(a->result, r, 0, NULL);
    pcl_release(r);
  } else {
    pcl_value *v = pcl_future_value(f);
    pcl_value *inner = v != NULL ? pcl_retain(v) : pcl_unknown();
    if (pcl_future_bits(f) & PCL_FUT_SECRET) {
      pcl_value *s = pcl_secret_new(inner);
      pcl_release(inner);
      inner = s;
    }
    pcl_value *r = pcl_can_result(inner, NULL);
    pcl_release(inner);
    /* The secret bit comes back through r, a SECRET true. */
    pcl_future_resolve(a->result, r, pcl_future_bits(f) & PCL_FUT_UNKNOWN, pcl_future_deps(f));
    pcl_release(r);
  }
  attempt_free(a);
}

/* Settles a RECOVER on the outcome f of its value: the recovery runs with
 * `error` bound to the failure's message. */
static void recover_outcome(attempt *a, pcl_future *f) {
  if (pcl_future_state_of(f) == PCL_FUTURE_REJECTED) {
    pcl_value *msg = pcl_str_from_cstr(pcl_error_message(pcl_future_error(f)));
    pcl_gen_env *env = a->recovery_env;
    a->recovery_env = NULL;
    pcl_error *err = NULL;
    pcl_value *r = a->recovery(env, msg, &err);
    pcl_gen_env_release(env);
    pcl_release(msg);
    if (r == NULL) {
      pcl_future_reject_take(a->result, err);
    } else {
      pcl_future_resolve(a->result, r, 0, NULL);
      pcl_release(r);
    }
  } else {
    pcl_future_resolve(a->result, pcl_future_value(f), pcl_future_bits(f), pcl_future_deps(f));
  }
  attempt_free(a);
}

static void attempt_cb(pcl_future *f, void *data) {
  attempt *a = data;
  switch (a->kind) {
  case ATTEMPT_TRY:
    try_outcome(a, f);
    break;
  case ATTEMPT_CAN:
    can_outcome(a, f);
    break;
  case ATTEMPT_RECOVER:
    recover_outcome(a, f);
    break;
  }
}

pcl_value *pcl_gen_try(pcl_gen_env *const *closures, const pcl_gen_thunk_fn *alts, size_t n,
                       uint32_t loc) {
  pcl_value *r;
  if (n == 0) {
    /* The checker rejects try() without arguments; nothing to run. */
    pcl_try t = PCL_TRY_INIT;
    pcl_future *f = pcl_future_new(PCL_OUTPUT, NULL);
    pcl_future_reject_take(f, pcl_try_error(&t));
    return pcl__gen_future_value_take(f);
  }
  attempt *a = attempt_new(ATTEMPT_TRY, closures, alts, n, &r);
  a->loc = loc;
  attempt_step(a);
  return r;
}

pcl_value *pcl_gen_can(pcl_gen_env *closure, pcl_gen_thunk_fn arg) {
  pcl_value *r;
  attempt_step(attempt_new(ATTEMPT_CAN, &closure, &arg, 1, &r));
  return r;
}

pcl_value *pcl_gen_recover(pcl_gen_env *value_closure, pcl_gen_thunk_fn value,
                           pcl_gen_env *recovery_closure, pcl_gen_recover_fn recovery) {
  pcl_value *r;
  attempt *a = attempt_new(ATTEMPT_RECOVER, &value_closure, &value, 1, &r);
  a->recovery = recovery;
  a->recovery_env = recovery_closure;
  attempt_step(a);
  return r;
}

/* ------------------------------------------------------------------- calls */

/* Where a waiting getOutput locates its failure. */
typedef struct located {
  const pcl_gen_program *prog; /* The program (static). */
  uint32_t loc;                /* The location. */
} located;

static pcl_value *get_output_cb(pcl_value *const *args, size_t n, void *data, pcl_error **err) {
  const located *l = data;
  (void)n;
  pcl_value *r = pcl_stack_reference_output(args[0], args[1], err);
  if (r == NULL) {
    pcl__gen_locate(l->prog, *err, l->loc);
  }
  return r;
}

pcl_value *pcl_gen_get_output(const pcl_gen_env *e, pcl_value *ref, pcl_value *name,
                              uint32_t loc) {
  if (!pcl__gen_unsettled(ref) && !pcl__gen_unsettled(name)) {
    pcl_error *err = NULL;
    pcl_value *r = pcl_stack_reference_output(ref, name, &err);
    return r != NULL ? r : pcl_gen_failed(e, err, loc);
  }
  located *l = pcl_xmalloc(sizeof *l);
  l->prog = e->f->prog;
  l->loc = loc;
  pcl_future *fs[2] = {pcl_future_of_value(ref), pcl_future_of_value(name)};
  return pcl__gen_apply_take(fs, 2, get_output_cb, l, free);
}

/* A resourceExists call waiting for its type. */
typedef struct exists_call {
  pcl_run *run;          /* The run. */
  pcl_value *id, *state; /* The id and the state or NULL (owned). */
} exists_call;

static void exists_call_free(void *data) {
  exists_call *c = data;
  pcl_release(c->id);
  pcl_release(c->state);
  free(c);
}

/* Starts the check of the call c for the type t (settled): returns the
 * future of the engine's answer, or NULL with *err. */
static pcl_future *exists_start(const exists_call *c, const pcl_value *t, pcl_error **err) {
  if (pcl_kind_of(t) != PCL_T_STRING) {
    *err = pcl_error_new("resourceExists: the type must be a string, not a %s",
                         pcl_kind_name(pcl_kind_of(t)));
    return NULL;
  }
  return pcl__resource_exists(c->run, pcl_str_data(t), c->id, c->state);
}

/* The type of a call, once known: the result follows the answer. */
static pcl_value *exists_type_cb(pcl_value *const *args, size_t n, void *data, pcl_error **err) {
  (void)n;
  pcl_future *f = exists_start(data, args[0], err);
  if (f == NULL) {
    return NULL;
  }
  pcl_value *r = pcl_future_to_value(f);
  pcl_future_release(f);
  return r;
}

pcl_value *pcl_gen_resource_exists(pcl_gen_env *e, pcl_value *type, pcl_value *id,
                                   pcl_value *state, uint32_t loc) {
  exists_call *c = pcl_xmalloc(sizeof *c);
  *c = (exists_call){e->f->run, pcl_retain(id), pcl_retain(state)};
  pcl_future *f;
  if (pcl__gen_unsettled(type)) {
    pcl_future *t = pcl_future_of_value(type);
    f = pcl_apply(&t, 1, exists_type_cb, c, exists_call_free, 0);
    pcl_future_release(t);
  } else {
    pcl_error *err = NULL;
    f = exists_start(c, type, &err);
    exists_call_free(c);
    if (f == NULL) {
      return pcl__gen_rejected(e->f->prog, err, loc);
    }
  }
  return pcl__gen_located_take(e->f->prog, loc, f);
}

pcl_value *pcl_gen_call_expanded(const char *name, pcl_value *const *args, size_t n,
                                 pcl_error **err) {
  const pcl_builtin *b = pcl_builtin_find(name);
  if (b == NULL) {
    *err = pcl_error_new("call to unknown function %s", name);
    return NULL;
  }
  if (n == 0) {
    return pcl_builtin_call(b, NULL, args, 0, err);
  }
  const pcl_value *last = args[n - 1];
  if (pcl_kind_of(last) != PCL_T_LIST && pcl_kind_of(last) != PCL_T_SET) {
    *err = pcl_error_new("Invalid expanding argument value: the argument to expand in a call of "
                         "%s must be a list, not %s",
                         name, pcl_kind_name(pcl_kind_of(last)));
    return NULL;
  }
  size_t m = n - 1 + pcl_len(last);
  pcl_value **all = pcl_xmalloc((m ? m : 1) * sizeof *all);
  for (size_t i = 0; i + 1 < n; i++) {
    all[i] = args[i];
  }
  for (size_t i = 0; i < pcl_len(last); i++) {
    all[n - 1 + i] = pcl_list_at(last, i);
  }
  pcl_value *r = pcl_builtin_call(b, NULL, all, m, err);
  free(all);
  return r;
}

/* Returns v marked secret, or with its secret mark cleared: a future
 * through the future combinators (an apply would not see the bit unsecret
 * must clear), anything else as the built-ins do it. */
static pcl_value *mark_secret(pcl_value *v, bool secret) {
  pcl_future *f = pcl_value_future(v);
  if (f != NULL) {
    return pcl__gen_future_value_take(secret ? pcl_future_secret(f) : pcl_future_unsecret(f));
  }
  pcl_error *err = NULL;
  return secret ? pcl_fn_secret(v, &err) : pcl_fn_unsecret(v, &err);
}

pcl_value *pcl_gen_secret(pcl_value *v) { return mark_secret(v, true); }

pcl_value *pcl_gen_unsecret(pcl_value *v) { return mark_secret(v, false); }

pcl_value *pcl_gen_invoke(pcl_gen_env *e, const pcl_value *tok, pcl_value *args,
                          pcl_value *options, bool single, uint32_t loc) {
  const pcl_gen_program *prog = e->f->prog;
  const char *token = pcl_str_data(tok);
  pcl_value *opts = pcl__gen_with_parent(e->f, pcl_retain(options));
  pcl_value *r;
  pcl_kind ak = pcl_kind_of(args);
  /* Arguments or options that failed fail the invoke with their own error
   * (arguments that are a future are awaited, and pass a later failure on
   * the same way). */
  const pcl_error *failed = opts != NULL ? pcl__gen_failure(opts) : NULL;
  if (failed == NULL) {
    failed = pcl__gen_failure(args);
  }
  if (failed != NULL) {
    r = pcl__gen_future_value_take(pcl_future_rejected(failed));
  } else if ((ak != PCL_T_MAP && ak != PCL_T_EVENTUAL) ||
             (opts && pcl_kind_of(opts) != PCL_T_MAP)) {
    r = pcl__gen_rejected(
        prog, pcl_error_new("invoke of '%s': the arguments and options must be objects", token),
        loc);
  } else {
    unsigned line, column;
    const char *file = pcl__gen_loc_where(prog, loc, &line, &column);
    pcl_future *f = pcl__invoke_at(e->f->run, token, args, opts, file, line, column);
    if (single) {
      pcl_future *s = pcl_single_result(f);
      pcl_future_release(f);
      f = s;
    }
    r = pcl__gen_located_take(prog, loc, f);
  }
  pcl_release(opts);
  return r;
}

pcl_value *pcl_gen_method(pcl_gen_env *e, const pcl_value *tok, pcl_value *self,
                          pcl_value *args, bool single, uint32_t loc) {
  const pcl_gen_program *prog = e->f->prog;
  const char *token = pcl_str_data(tok);
  const pcl_error *failed = pcl__gen_failure(args);
  if (failed != NULL) {
    return pcl__gen_future_value_take(pcl_future_rejected(failed));
  }
  if (pcl_kind_of(args) != PCL_T_MAP) {
    return pcl__gen_rejected(
        prog, pcl_error_new("call of '%s': the arguments must be an object", token), loc);
  }
  unsigned line, column;
  const char *file = pcl__gen_loc_where(prog, loc, &line, &column);
  pcl_future *f = pcl__call_at(e->f->run, token, self, args, NULL, file, line, column);
  if (single) {
    pcl_future *s = pcl_single_result(f);
    pcl_future_release(f);
    f = s;
  }
  return pcl__gen_located_take(prog, loc, f);
}
