/* config.c: config values (program.md §6, DECISIONS.md D3).
 *
 * Takes the raw text of a config value and the declared type; produces the
 * typed value: strings as they are, bools as Go's ParseBool spells them,
 * ints exactly from their decimal text, numbers, and lists, maps and objects
 * from JSON text checked (and converted where PCL converts) against the
 * element types.  Every error names the config key. */
#include <string.h>

#include "engine.h"

const pcl_type pcl_type_any = {PCL_TY_ANY, NULL, NULL, 0};
const pcl_type pcl_type_bool = {PCL_TY_BOOL, NULL, NULL, 0};
const pcl_type pcl_type_int = {PCL_TY_INT, NULL, NULL, 0};
const pcl_type pcl_type_number = {PCL_TY_NUMBER, NULL, NULL, 0};
const pcl_type pcl_type_string = {PCL_TY_STRING, NULL, NULL, 0};

/* Returns the bool text's value in *out; false when it is not one of Go's
 * ParseBool spellings. */
static bool parse_bool(const char *s, bool *out) {
  static const char *const t[] = {"1", "t", "T", "TRUE", "true", "True"};
  static const char *const f[] = {"0", "f", "F", "FALSE", "false", "False"};
  for (size_t i = 0; i < 6; i++) {
    if (strcmp(s, t[i]) == 0) {
      *out = true;
      return true;
    }
    if (strcmp(s, f[i]) == 0) {
      *out = false;
      return true;
    }
  }
  return false;
}

static const pcl_type *strip_optional(const pcl_type *t) {
  while (t->kind == PCL_TY_OPTIONAL) {
    t = t->elem;
  }
  return t;
}

/* Checks the decoded JSON value v against type t and returns the converted
 * value (owned), or NULL with a reason in *why (static text). */
static pcl_value *conform(pcl_value *v, const pcl_type *t, const char **why) {
  bool optional = t->kind == PCL_TY_OPTIONAL;
  t = strip_optional(t);
  if (pcl_kind_of(v) == PCL_T_NULL) {
    if (optional || t->kind == PCL_TY_ANY) {
      return pcl_null();
    }
    /* Object properties of configs are optional (program.md §6), and JSON
     * null elsewhere is passed on as null too. */
    return pcl_null();
  }
  pcl_error *err = NULL;
  pcl_value *r = NULL;
  switch (t->kind) {
  case PCL_TY_ANY:
    return pcl_retain(v);
  case PCL_TY_BOOL:
    if (pcl_kind_of(v) == PCL_T_BOOL) {
      return pcl_retain(v);
    }
    r = pcl_kind_of(v) == PCL_T_STRING ? pcl_convert_to_bool(v, &err) : NULL;
    *why = "a bool is required";
    break;
  case PCL_TY_INT:
    r = pcl_kind_of(v) == PCL_T_STRING || pcl_is_numeric(v) ? pcl_convert_to_int(v, &err) : NULL;
    *why = "an integer is required";
    break;
  case PCL_TY_NUMBER:
    if (pcl_is_numeric(v)) {
      return pcl_retain(v);
    }
    r = pcl_kind_of(v) == PCL_T_STRING ? pcl_convert_to_number(v, &err) : NULL;
    *why = "a number is required";
    break;
  case PCL_TY_STRING:
    if (pcl_kind_of(v) == PCL_T_STRING) {
      return pcl_retain(v);
    }
    r = pcl_is_numeric(v) || pcl_kind_of(v) == PCL_T_BOOL ? pcl_convert_to_string(v, &err) : NULL;
    *why = "a string is required";
    break;
  case PCL_TY_LIST: {
    if (pcl_kind_of(v) != PCL_T_LIST) {
      *why = "a list is required";
      return NULL;
    }
    r = pcl_list_new(pcl_len(v));
    bool ok = true;
    for (size_t i = 0; i < pcl_len(v); i++) {
      pcl_value *e = ok ? conform(pcl_list_at(v, i), t->elem, why) : NULL;
      ok = ok && e != NULL;
      pcl_list_init_take(r, i, e ? e : pcl_null());
    }
    if (!ok) {
      pcl_release(r);
      return NULL;
    }
    return r;
  }
  case PCL_TY_MAP:
  case PCL_TY_OBJECT: {
    if (pcl_kind_of(v) != PCL_T_MAP) {
      *why = t->kind == PCL_TY_MAP ? "a map is required" : "an object is required";
      return NULL;
    }
    pcl_mapbuf mb = PCL_MAPBUF_INIT;
    for (size_t i = 0; i < pcl_len(v); i++) {
      const pcl_type *et = t->elem;
      if (t->kind == PCL_TY_OBJECT) {
        et = &pcl_type_any;
        for (size_t j = 0; j < t->nfields; j++) {
          if (pcl_str_eq_cstr(pcl_map_key_at(v, i), t->fields[j].name)) {
            et = t->fields[j].type;
          }
        }
      }
      pcl_value *e = conform(pcl_map_val_at(v, i), et, why);
      if (e == NULL) {
        pcl_mapbuf_free(&mb);
        return NULL;
      }
      pcl_mapbuf_put_take(&mb, pcl_retain(pcl_map_key_at(v, i)), e);
    }
    return pcl_mapbuf_finish(&mb);
  }
  case PCL_TY_OPTIONAL:
    break;
  }
  pcl_error_free(err);
  return r;
}

pcl_value *pcl_config_parse(const char *key, const char *text, const pcl_type *type,
                            pcl_error **err) {
  const pcl_type *t = strip_optional(type);
  size_t len = strlen(text);
  switch (t->kind) {
  case PCL_TY_STRING: {
    pcl_value *v = pcl_str_new(text, len, err);
    if (v == NULL) {
      pcl_error_prefix(*err, "configuration variable '%s'", key);
    }
    return v;
  }
  case PCL_TY_BOOL: {
    bool b;
    if (!parse_bool(text, &b)) {
      *err = pcl_error_new("configuration variable '%s': invalid boolean \"%s\"", key, text);
      return NULL;
    }
    return pcl_bool(b);
  }
  case PCL_TY_INT: {
    pcl_error *e = NULL;
    pcl_value *v = pcl_int_parse(text, len, &e);
    if (v == NULL) {
      pcl_error_free(e);
      *err = pcl_error_new("configuration variable '%s': invalid integer \"%s\"", key, text);
    }
    return v;
  }
  case PCL_TY_NUMBER: {
    pcl_error *e = NULL;
    pcl_value *v = pcl_num_literal(text, len, &e);
    if (v == NULL) {
      pcl_error_free(e);
      *err = pcl_error_new("configuration variable '%s': invalid number \"%s\"", key, text);
    }
    return v;
  }
  case PCL_TY_ANY: {
    pcl_error *e = NULL;
    pcl_value *v = pcl_json_decode(text, len, 0, &e);
    if (v == NULL) {
      pcl_error_free(e);
      v = pcl_str_new(text, len, err);
      if (v == NULL) {
        pcl_error_prefix(*err, "configuration variable '%s'", key);
      }
    }
    return v;
  }
  case PCL_TY_LIST:
  case PCL_TY_MAP:
  case PCL_TY_OBJECT: {
    pcl_error *e = NULL;
    pcl_value *raw = pcl_json_decode(text, len, 0, &e);
    if (raw == NULL) {
      *err = pcl_error_new("configuration variable '%s': invalid JSON value \"%s\": %s", key,
                           text, pcl_error_message(e));
      pcl_error_free(e);
      return NULL;
    }
    const char *why = "the value does not have the declared type";
    pcl_value *v = conform(raw, t, &why);
    pcl_release(raw);
    if (v == NULL) {
      *err = pcl_error_new("configuration variable '%s': invalid JSON value \"%s\": %s", key,
                           text, why);
    }
    return v;
  }
  case PCL_TY_OPTIONAL:
    break;
  }
  *err = pcl_error_new("configuration variable '%s': unsupported type", key);
  return NULL;
}
