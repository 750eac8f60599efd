/* collections.c: lists, sets and maps: building them (from arrays, with or
 * without taking the callers' references, and through pcl_mapbuf), sorting
 * a set's elements and a map's keys, merging two maps, and looking a key
 * up.
 *
 * Invariants: the payload of a collection (its pointer arrays) is in the
 * value's own block, right after the struct.  Map keys are STRING values in
 * strictly ascending byte order (pcl__str_order); set elements are in
 * pcl_compare order without duplicates.  A collection with a part that is
 * or may hold an EVENTUAL carries PCL_F_HOLDS_EVENTUAL. */
#include <stdlib.h>
#include <string.h>

#include "value/pcl_internal.h"

/* ------------------------------------------------------------ collections */

size_t pcl_len(const pcl_value *v) {
  return v->kind == PCL_T_MAP ? v->u.map.n : v->u.list.n;
}

/* The payload of a heap collection: the pointer arrays after the struct. */
static pcl_value **payload(pcl_value *v) { return (pcl_value **)(void *)(v + 1); }

pcl_value *pcl_list_new(size_t n) {
  pcl_value *v = pcl__value_alloc(PCL_T_LIST, n * sizeof(pcl_value *));
  pcl_value **items = payload(v);
  for (size_t i = 0; i < n; i++) {
    items[i] = NULL;
  }
  v->u.list.n = n;
  v->u.list.items = items;
  return v;
}

void pcl_list_init_take(pcl_value *list, size_t i, pcl_value *item) {
  payload(list)[i] = item;
  pcl__note_part(list, item);
}

pcl_value *pcl_list_of(pcl_value *const *items, size_t n) {
  pcl_value *v = pcl_list_new(n);
  for (size_t i = 0; i < n; i++) {
    payload(v)[i] = pcl_retain(items[i]);
    pcl__note_part(v, items[i]);
  }
  return v;
}

pcl_value *pcl_list_of_take(pcl_value *const *items, size_t n) {
  pcl_value *v = pcl_list_new(n);
  for (size_t i = 0; i < n; i++) {
    payload(v)[i] = items[i];
    pcl__note_part(v, items[i]);
  }
  return v;
}

/* An element of an array being sorted, with its original position so that
 * sorting is stable. */
typedef struct sort_item {
  pcl_value *v; /* The element (or map key). */
  size_t pos;   /* Its index in the input. */
} sort_item;

/* qsort order of set elements: pcl_compare, then input position. */
static int cmp_set_items(const void *pa, const void *pb) {
  const sort_item *a = pa, *b = pb;
  int c = pcl_compare(a->v, b->v);
  if (c != 0) {
    return c;
  }
  return a->pos < b->pos ? -1 : a->pos > b->pos;
}

/* qsort order of map keys: key bytes, then input position, so that of
 * equal keys the last pair ends a run. */
static int cmp_map_items(const void *pa, const void *pb) {
  const sort_item *a = pa, *b = pb;
  int c = pcl__str_order(a->v, b->v);
  if (c != 0) {
    return c;
  }
  return a->pos < b->pos ? -1 : a->pos > b->pos;
}

static bool is_eventual(const pcl_value *v) { return v->kind == PCL_T_EVENTUAL; }

/* Builds a set; take says whether the caller's references are stolen.  An
 * eventual value has no content to order by, only its address, and a set
 * ordered by addresses would reach the output in a different order on every
 * run (D6), so an element holding one is a programming error and aborts.
 * Generated code never builds such a set: it awaits eventual values before
 * it computes with them. */
static pcl_value *set_build(pcl_value *const *items, size_t n, bool take) {
  for (size_t i = 0; i < n; i++) {
    if (pcl__may_hold_eventual(items[i]) && pcl__value_any(items[i], is_eventual)) {
      fprintf(stderr, "pcl: internal error: a set element holds an eventual value, "
                      "which has no deterministic order\n");
      abort();
    }
  }
  sort_item *tmp = pcl_xmalloc(n * sizeof *tmp);
  for (size_t i = 0; i < n; i++) {
    tmp[i].v = items[i];
    tmp[i].pos = i;
  }
  qsort(tmp, n, sizeof *tmp, cmp_set_items);
  size_t kept = 0;
  for (size_t i = 0; i < n; i++) {
    if (kept > 0 && pcl_equal(tmp[kept - 1].v, tmp[i].v)) {
      if (take) {
        pcl_release(tmp[i].v);
      }
      continue;
    }
    tmp[kept++] = tmp[i];
  }
  pcl_value *v = pcl__value_alloc(PCL_T_SET, kept * sizeof(pcl_value *));
  pcl_value **out = payload(v);
  for (size_t i = 0; i < kept; i++) {
    out[i] = take ? tmp[i].v : pcl_retain(tmp[i].v);
    pcl__note_part(v, out[i]);
  }
  v->u.list.n = kept;
  v->u.list.items = out;
  free(tmp);
  return v;
}

pcl_value *pcl_set_of(pcl_value *const *items, size_t n) { return set_build(items, n, false); }
pcl_value *pcl_set_of_take(pcl_value *const *items, size_t n) { return set_build(items, n, true); }

/* Returns the map of n pairs whose keys are strictly ascending. */
static pcl_value *map_sorted(pcl_value *const *keys, pcl_value *const *vals, size_t n, bool take) {
  pcl_value *v = pcl__value_alloc(PCL_T_MAP, 2 * n * sizeof(pcl_value *));
  pcl_value **k = payload(v);
  pcl_value **d = k + n;
  for (size_t i = 0; i < n; i++) {
    k[i] = take ? keys[i] : pcl_retain(keys[i]);
    d[i] = take ? vals[i] : pcl_retain(vals[i]);
    pcl__note_part(v, vals[i]);
  }
  v->u.map.n = n;
  v->u.map.keys = k;
  v->u.map.vals = d;
  return v;
}

/* Builds a map; of equal keys the last pair wins. */
static pcl_value *map_build(pcl_value *const *keys, pcl_value *const *vals, size_t n,
                            bool take) {
  /* Generated code and the decoders mostly pass keys already in order:
   * then there is nothing to sort and no scratch array to allocate. */
  size_t ordered = 1;
  while (ordered < n && pcl__str_order(keys[ordered - 1], keys[ordered]) < 0) {
    ordered++;
  }
  if (ordered >= n) {
    return map_sorted(keys, vals, n, take);
  }
  /* The scratch arrays of a small map are on the stack. */
  sort_item tmp_small[32];
  pcl_value *order_small[64];
  bool small = n <= 32;
  sort_item *tmp = small ? tmp_small : pcl_xmalloc(n * sizeof *tmp);
  for (size_t i = 0; i < n; i++) {
    tmp[i].v = keys[i];
    tmp[i].pos = i;
  }
  /* Maps are mostly small (a resource's inputs), where an insertion sort
   * with the comparison inlined is several times cheaper than qsort's calls
   * through a pointer; it is stable, as cmp_map_items's tie-break is. */
  if (small) {
    for (size_t i = ordered; i < n; i++) {
      sort_item it = tmp[i];
      size_t j = i;
      while (j > 0 && pcl__str_order(tmp[j - 1].v, it.v) > 0) {
        tmp[j] = tmp[j - 1];
        j--;
      }
      tmp[j] = it;
    }
  } else {
    qsort(tmp, n, sizeof *tmp, cmp_map_items);
  }
  /* Keep the last of every run of equal keys, in key order. */
  pcl_value **order = small ? order_small : pcl_xmalloc(2 * n * sizeof *order);
  size_t kept = 0;
  for (size_t i = 0; i < n; i++) {
    size_t p = tmp[i].pos;
    if (i + 1 < n && pcl__str_order(tmp[i].v, tmp[i + 1].v) == 0) {
      if (take) {
        pcl_release(keys[p]);
        pcl_release(vals[p]);
      }
      continue;
    }
    order[kept] = keys[p];
    order[n + kept] = vals[p];
    kept++;
  }
  pcl_value *v = map_sorted(order, order + n, kept, take);
  if (!small) {
    free(order);
    free(tmp);
  }
  return v;
}

pcl_value *pcl__map_with_vals_take(const pcl_value *map, pcl_value *const *vals) {
  for (size_t i = 0; i < map->u.map.n; i++) {
    pcl_retain(map->u.map.keys[i]);
  }
  return map_sorted(map->u.map.keys, vals, map->u.map.n, true);
}

pcl_value *pcl__map_merge(const pcl_value *map, pcl_value *const *keys, pcl_value *const *vals,
                          size_t n) {
  const size_t na = map->u.map.n;
  pcl_value *const *ka = map->u.map.keys;
  /* Two passes over the two sorted sequences: the first counts the entries
   * (a block is allocated at its exact size), the second fills them. */
  size_t total = 0;
  for (size_t i = 0, j = 0; i < na || j < n; total++) {
    int c = i == na ? 1 : j == n ? -1 : pcl__str_order(ka[i], keys[j]);
    i += c <= 0;
    j += c >= 0;
  }
  pcl_value *v = pcl__value_alloc(PCL_T_MAP, 2 * total * sizeof(pcl_value *));
  pcl_value **k = payload(v);
  pcl_value **d = k + total;
  for (size_t i = 0, j = 0, m = 0; m < total; m++) {
    int c = i == na ? 1 : j == n ? -1 : pcl__str_order(ka[i], keys[j]);
    if (c < 0) {
      k[m] = pcl_retain(ka[i]);
      d[m] = pcl_retain(map->u.map.vals[i]);
    } else {
      k[m] = pcl_retain(keys[j]);
      d[m] = pcl_retain(vals[j]);
    }
    pcl__note_part(v, d[m]);
    i += c <= 0;
    j += c >= 0;
  }
  v->u.map.n = total;
  v->u.map.keys = k;
  v->u.map.vals = d;
  return v;
}

pcl_value *pcl_map_of(pcl_value *const *keys, pcl_value *const *vals, size_t n) {
  return map_build(keys, vals, n, false);
}

pcl_value *pcl_map_of_take(pcl_value *const *keys, pcl_value *const *vals, size_t n) {
  return map_build(keys, vals, n, true);
}

size_t pcl__map_find(const pcl_value *map, const char *key, size_t key_len) {
  size_t lo = 0, hi = map->u.map.n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    const pcl_value *k = map->u.map.keys[mid];
    size_t n = k->u.str.len < key_len ? k->u.str.len : key_len;
    /* Keys mostly differ in their first byte: decide that without a call. */
    int c = n == 0 || k->u.str.ptr[0] == key[0]
                ? memcmp(k->u.str.ptr, key, n)
                : (unsigned char)k->u.str.ptr[0] < (unsigned char)key[0] ? -1 : 1;
    if (c == 0) {
      c = k->u.str.len < key_len ? -1 : k->u.str.len > key_len;
    }
    if (c == 0) {
      return mid;
    }
    if (c < 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return SIZE_MAX;
}

pcl_value *pcl_map_get(const pcl_value *map, const char *key, size_t key_len) {
  size_t i = pcl__map_find(map, key, key_len);
  return i == SIZE_MAX ? NULL : map->u.map.vals[i];
}

pcl_value *pcl_map_get_cstr(const pcl_value *map, const char *key) {
  return pcl_map_get(map, key, strlen(key));
}

void pcl_mapbuf_put_take(pcl_mapbuf *b, pcl_value *key, pcl_value *val) {
  if (b->n == b->cap) {
    /* Keys and values share one block (values in its second half), so a
     * map costs one allocation and one free rather than two of each. */
    size_t cap = b->cap ? 2 * b->cap : 8;
    pcl_value **block = pcl_xrealloc(b->keys, 2 * cap * sizeof *block);
    memmove(block + cap, block + b->cap, b->n * sizeof *block);
    b->keys = block;
    b->vals = block + cap;
    b->cap = cap;
  }
  b->keys[b->n] = key;
  b->vals[b->n] = val;
  b->n++;
}

void pcl_mapbuf_put_cstr(pcl_mapbuf *b, const char *key, pcl_value *val) {
  pcl_mapbuf_put_take(b, pcl_str_from_cstr(key), val);
}

pcl_value *pcl_mapbuf_finish(pcl_mapbuf *b) {
  pcl_value *v = pcl_map_of_take(b->keys, b->vals, b->n);
  free(b->keys);
  *b = (pcl_mapbuf)PCL_MAPBUF_INIT;
  return v;
}

void pcl_mapbuf_free(pcl_mapbuf *b) {
  for (size_t i = 0; i < b->n; i++) {
    pcl_release(b->keys[i]);
    pcl_release(b->vals[i]);
  }
  free(b->keys);
  *b = (pcl_mapbuf)PCL_MAPBUF_INIT;
}
