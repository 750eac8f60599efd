/* builtins_coll.c: the collection built-ins: element, entries, length,
 * lookup, join, split, range, singleOrNone, min and max.
 *
 * Semantics follow the reference interpreter (cty's standard library, see
 * ../shared/spec/functions.md §2) where pclc's decisions do not say
 * otherwise: element wraps its index, length counts grapheme clusters,
 * entries also accepts lists, min and max compare ints exactly (D3).
 * Lists and tuples are one kind (LIST); maps and objects are one kind (MAP)
 * whose keys are already in ascending byte order, which is the order
 * entries must produce. */
#include <stdlib.h>
#include <string.h>

#include "builtins/builtins_internal.h"
#include "value/pcl_internal.h"

/* Reads the list-like argument of element, singleOrNone or join: a LIST
 * (or a SET, which cty converts to a list) is returned borrowed; anything
 * else fails with what (a full message) unless it is unknown. */
static const pcl_value *list_arg(pcl__bcall *c, const char *param, const pcl_value *v,
                                 const char *what) {
  v = pcl__b_plain(c, param, v);
  if (v == NULL) {
    return NULL;
  }
  if (pcl_kind_of(v) != PCL_T_LIST && pcl_kind_of(v) != PCL_T_SET) {
    pcl__b_fail(c, "%s", what);
    return NULL;
  }
  return v;
}

pcl_value *pcl_fn_element(pcl_value *list, pcl_value *index, pcl_error **err) {
  pcl__bcall c = PCL__BCALL("element", err);
  const pcl_value *l = pcl__b_plain(&c, "list", list);
  if (l != NULL && pcl_kind_of(l) != PCL_T_LIST) {
    pcl__b_fail(&c, "cannot read elements from %s", pcl__b_type_name(l));
  }
  pcl_value *num = pcl__b_number(&c, "index", index);
  pcl_value *result = NULL;
  if (pcl__b_ok(&c)) {
    size_t n = pcl_len(l);
    int64_t i;
    if (n == 0) {
      pcl__b_fail(&c, "cannot use element function with an empty list");
    } else if (!pcl__b_whole_i64(num, &i)) {
      char *shown = pcl__b_value_text(&c, num);
      pcl__b_fail(&c, "invalid index: cannot use %s: %s", shown, PCL__WHOLE_I64_MSG);
      free(shown);
    } else {
      /* Reduce in int64 first: |i % n| < n, so the sum below cannot
       * overflow, and n fits because a list's length does. */
      int64_t m = i % (int64_t)n;
      if (m < 0) {
        m += (int64_t)n;
      }
      result = pcl_retain(pcl_list_at(l, (size_t)m));
    }
  }
  pcl_release(num);
  return pcl__b_finish(&c, result);
}

/* Returns the object {key = key, value = val} (both borrowed). */
static pcl_value *entry(pcl_value *key, pcl_value *val) {
  static pcl_value key_name = PCL_STATIC_ASCII("key");
  static pcl_value value_name = PCL_STATIC_ASCII("value");
  pcl_value *keys[2] = {&key_name, &value_name};
  pcl_value *vals[2] = {key, val};
  return pcl_map_of(keys, vals, 2);
}

pcl_value *pcl_fn_entries(pcl_value *collection, pcl_error **err) {
  pcl__bcall c = PCL__BCALL("entries", err);
  const pcl_value *v = pcl__b_unwrap(&c, collection);
  switch (pcl_kind_of(v)) {
  case PCL_T_UNKNOWN:
    c.unknown = true;
    return pcl__b_finish(&c, NULL);
  case PCL_T_MAP: {
    size_t n = pcl_len(v);
    pcl_value *out = pcl_list_new(n);
    for (size_t i = 0; i < n; i++) {
      pcl_list_init_take(out, i, entry(pcl_map_key_at(v, i), pcl_map_val_at(v, i)));
    }
    return pcl__b_finish(&c, out);
  }
  case PCL_T_LIST:
  case PCL_T_SET: {
    size_t n = pcl_len(v);
    pcl_value *out = pcl_list_new(n);
    for (size_t i = 0; i < n; i++) {
      pcl_value *k = pcl_int_new((int64_t)i);
      pcl_list_init_take(out, i, entry(k, pcl_list_at(v, i)));
      pcl_release(k);
    }
    return pcl__b_finish(&c, out);
  }
  case PCL_T_EVENTUAL:
    pcl__b_plain(&c, "collection", v);
    return pcl__b_finish(&c, NULL);
  case PCL_T_NULL:
  case PCL_T_BOOL:
  case PCL_T_INT:
  case PCL_T_NUMBER:
  case PCL_T_STRING:
  case PCL_T_RESOURCE:
  case PCL_T_ASSET:
  case PCL_T_ARCHIVE:
  case PCL_T_SECRET:
    break;
  }
  pcl__b_fail(&c, "entries argument must be a collection, was %s", pcl__b_type_name(v));
  return pcl__b_finish(&c, NULL);
}

pcl_value *pcl_fn_length(pcl_value *value, pcl_error **err) {
  pcl__bcall c = PCL__BCALL("length", err);
  const pcl_value *v = pcl__b_plain(&c, "value", value);
  if (v == NULL) {
    return pcl__b_finish(&c, NULL);
  }
  switch (pcl_kind_of(v)) {
  case PCL_T_STRING:
    return pcl__b_finish(&c, pcl_int_new((int64_t)pcl_str_graphemes(v)));
  case PCL_T_LIST:
  case PCL_T_SET:
  case PCL_T_MAP:
    return pcl__b_finish(&c, pcl_int_new((int64_t)pcl_len(v)));
  case PCL_T_NULL:
  case PCL_T_BOOL:
  case PCL_T_INT:
  case PCL_T_NUMBER:
  case PCL_T_RESOURCE:
  case PCL_T_ASSET:
  case PCL_T_ARCHIVE:
  case PCL_T_UNKNOWN:
  case PCL_T_SECRET:
  case PCL_T_EVENTUAL:
    break;
  }
  pcl__b_fail(&c, "collection must be a list, a map or a tuple");
  return pcl__b_finish(&c, NULL);
}

pcl_value *pcl_fn_lookup(pcl_value *map, pcl_value *key, pcl_value *dflt, pcl_error **err) {
  pcl__bcall c = PCL__BCALL("lookup", err);
  const pcl_value *m = pcl__b_plain(&c, "map", map);
  if (m != NULL && pcl_kind_of(m) != PCL_T_MAP) {
    pcl__b_fail(&c, "lookup() requires a map as the first argument");
  }
  pcl_value *k = pcl__b_string(&c, "key", key);
  /* The default keeps its own marks (the function allows marked defaults),
   * but a null one is refused as for every parameter without AllowNull. */
  if (pcl__b_ok(&c) && dflt != NULL && pcl_kind_of(dflt) == PCL_T_NULL) {
    pcl__b_arg_fail(&c, "default", "argument must not be null");
  }
  pcl_value *result = NULL;
  if (pcl__b_ok(&c)) {
    pcl_value *found = pcl_map_get(m, pcl_str_data(k), pcl_str_len(k));
    if (found == NULL && dflt == NULL) {
      /* The deprecated two-argument form has no default to fall back on. */
      pcl__b_fail(&c, "lookup failed to find key \"%s\"", pcl__b_shown(&c, k));
    } else {
      result = pcl_retain(found != NULL ? found : dflt);
    }
  }
  pcl_release(k);
  return pcl__b_finish(&c, result);
}

pcl_value *pcl_fn_join(pcl_value *separator, pcl_value *strings, pcl_error **err) {
  pcl__bcall c = PCL__BCALL("join", err);
  pcl_value *sep = pcl__b_string(&c, "separator", separator);
  const pcl_value *l = list_arg(&c, "strings", strings,
                                "join: invalid value for \"strings\" parameter: list of string required");
  /* The strings with the separators between them, joined in one block of
   * their total size once that size is known to fit the limit. */
  size_t n = pcl__b_ok(&c) ? pcl_len(l) : 0, m = 0;
  pcl_value **parts = pcl_xmalloc((2 * n + 1) * sizeof *parts);
  for (size_t i = 0; pcl__b_ok(&c) && i < n; i++) {
    const pcl_value *e = pcl__b_unwrap(&c, pcl_list_at(l, i));
    if (pcl_kind_of(e) == PCL_T_NULL) {
      pcl__b_fail(&c, "element %zu is null; cannot concatenate null values", i);
      break;
    }
    pcl_value *s = pcl__b_string(&c, "strings", e);
    if (s == NULL) {
      break;
    }
    if (i > 0) {
      parts[m++] = pcl_retain(sep);
    }
    parts[m++] = s;
  }
  pcl_value *result = NULL;
  if (pcl__b_ok(&c)) {
    pcl_error *e = NULL;
    result = pcl__str_join(parts, m, &e);
    if (result == NULL) {
      pcl__b_fail_take(&c, e);
    }
  }
  for (size_t i = 0; i < m; i++) {
    pcl_release(parts[i]);
  }
  free(parts);
  pcl_release(sep);
  return pcl__b_finish(&c, result);
}

/* Returns the string of the bytes s[0..len), which come from a valid
 * string cut at code point boundaries (NFC is re-established). */
static pcl_value *piece(const char *s, size_t len) { return pcl_str_new_lossy(s, len); }

/* Returns the byte length of the UTF-8 sequence that starts with byte c. */
static size_t seq_len(unsigned char c) {
  return c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
}

/* Makes room in *items (of *cap slots) for piece number n + 1 of split;
 * false with the size-limit error recorded in c when the list would take
 * more than the value size limit. */
static bool room(pcl__bcall *c, pcl_value ***items, size_t n, size_t *cap) {
  if (n < *cap) {
    return true;
  }
  pcl_error *e = NULL;
  if (!pcl__value_fits((n + 1) * sizeof **items, "the list", &e)) {
    return pcl__b_fail_take(c, e);
  }
  PCL__GROW(*items, *cap, n + 1);
  return true;
}

pcl_value *pcl_fn_split(pcl_value *separator, pcl_value *string, pcl_error **err) {
  pcl__bcall c = PCL__BCALL("split", err);
  pcl_value *sep = pcl__b_string(&c, "separator", separator);
  pcl_value *str = pcl__b_string(&c, "string", string);
  pcl_value *result = NULL;
  if (pcl__b_ok(&c)) {
    const char *s = pcl_str_data(str);
    size_t len = pcl_str_len(str), seplen = pcl_str_len(sep);
    size_t n = 0, cap = 8;
    pcl_value **items = pcl_xmalloc(cap * sizeof *items);
    size_t start = 0;
    if (seplen == 0) {
      /* Go's explode: one piece per UTF-8 sequence, none for "". */
      while (start < len) {
        size_t k = seq_len((unsigned char)s[start]);
        if (k > len - start) {
          k = len - start;
        }
        if (!room(&c, &items, n, &cap)) {
          break;
        }
        items[n++] = piece(s + start, k);
        start += k;
      }
    } else {
      const char *p = pcl_str_data(sep);
      for (;;) {
        /* The next occurrence: memchr finds candidates for the first byte. */
        const char *hit = NULL;
        for (size_t i = start; i + seplen <= len;) {
          const char *q = memchr(s + i, p[0], len - seplen + 1 - i);
          if (q == NULL) {
            break;
          }
          if (memcmp(q, p, seplen) == 0) {
            hit = q;
            break;
          }
          i = (size_t)(q - s) + 1;
        }
        if (!room(&c, &items, n, &cap)) {
          break;
        }
        if (hit == NULL) {
          items[n++] = piece(s + start, len - start);
          break;
        }
        items[n++] = piece(s + start, (size_t)(hit - s) - start);
        start = (size_t)(hit - s) + seplen;
      }
    }
    if (c.failed) {
      for (size_t i = 0; i < n; i++) {
        pcl_release(items[i]);
      }
    } else {
      result = pcl_list_of_take(items, n);
    }
    free(items);
  }
  pcl_release(sep);
  pcl_release(str);
  return pcl__b_finish(&c, result);
}

/* Reads a whole-number bound of range into *out. */
static bool range_bound(pcl__bcall *c, const char *param, const pcl_value *v, int64_t *out) {
  pcl_value *num = pcl__b_number(c, param, v);
  if (num == NULL) {
    return false;
  }
  bool ok = pcl__b_whole_i64(num, out);
  if (!ok) {
    char *shown = pcl__b_value_text(c, num);
    pcl__b_arg_fail(c, param, "cannot use %s: %s", shown, PCL__WHOLE_I64_MSG);
    free(shown);
  }
  pcl_release(num);
  return ok;
}

pcl_value *pcl_fn_range(pcl_value *fromOrTo, pcl_value *to, pcl_error **err) {
  pcl__bcall c = PCL__BCALL("range", err);
  int64_t from = 0, end = 0;
  if (to == NULL) {
    range_bound(&c, "fromOrTo", fromOrTo, &end);
  } else {
    range_bound(&c, "fromOrTo", fromOrTo, &from);
    range_bound(&c, "to", to, &end);
  }
  if (!pcl__b_ok(&c)) {
    return pcl__b_finish(&c, NULL);
  }
  /* end - from may overflow int64 when the signs differ, but not uint64. */
  size_t n = 0;
  if (end > from) {
    if ((uint64_t)end - (uint64_t)from > (uint64_t)PCL_RANGE_MAX) {
      char count[24] = "[secret]";
      if (!c.secret) {
        snprintf(count, sizeof count, "%llu",
                 (unsigned long long)((uint64_t)end - (uint64_t)from));
      }
      pcl__b_fail(&c, "range: the list would have %s elements, more than %lld", count,
                  (long long)PCL_RANGE_MAX);
      return pcl__b_finish(&c, NULL);
    }
    n = (size_t)(end - from);
  }
  pcl_value *out = pcl_list_new(n);
  for (size_t i = 0; i < n; i++) {
    pcl_list_init_take(out, i, pcl_int_new(from + (int64_t)i));
  }
  return pcl__b_finish(&c, out);
}

pcl_value *pcl_fn_singleOrNone(pcl_value *value, pcl_error **err) {
  pcl__bcall c = PCL__BCALL("singleOrNone", err);
  const pcl_value *l = list_arg(&c, "value", value,
                                "singleOrNone: invalid value for \"value\" parameter: list required");
  pcl_value *result = NULL;
  if (pcl__b_ok(&c)) {
    size_t n = pcl_len(l);
    if (n == 0) {
      result = pcl_null();
    } else if (n == 1) {
      result = pcl_retain(pcl_list_at(l, 0));
    } else {
      pcl__b_fail(&c, "expected list to have at most one element, got %zu", n);
    }
  }
  return pcl__b_finish(&c, result);
}

/* min (sign -1) and max (sign 1): the first argument whose comparison with
 * every other is not beaten. */
static pcl_value *extreme(const char *name, int sign, pcl_value *const *args, size_t n,
                          pcl_error **err) {
  pcl__bcall c = PCL__BCALL(name, err);
  if (n == 0) {
    pcl__b_fail(&c, "%s requires at least one argument", name);
    return pcl__b_finish(&c, NULL);
  }
  pcl_value *best = NULL;
  for (size_t i = 0; i < n && pcl__b_ok(&c); i++) {
    pcl_value *num = pcl__b_number(&c, "numbers", args[i]);
    if (num == NULL) {
      break;
    }
    if (best == NULL || sign * pcl_num_compare(num, best) > 0) {
      pcl_release(best);
      best = num;
    } else {
      pcl_release(num);
    }
  }
  return pcl__b_finish(&c, best);
}

pcl_value *pcl_fn_min(pcl_value *const *args, size_t n, pcl_error **err) {
  return extreme("min", -1, args, n, err);
}

pcl_value *pcl_fn_max(pcl_value *const *args, size_t n, pcl_error **err) {
  return extreme("max", 1, args, n, err);
}
