/* builtins_args.c: argument reading for the built-in functions: marks
 * (SECRET, UNKNOWN) are noted while arguments are read, parameters are
 * converted to the types the signatures declare (cty converts a number or a
 * bool handed to a string parameter, and a numeric string handed to a number
 * parameter), and the call's state becomes its result in pcl__b_finish.
 *
 * Invariant: after the first failure nothing more is recorded, so the
 * message a caller sees is the one of the first problem met. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>

#include "builtins/builtins_internal.h"
#include "value/pcl_internal.h"

bool pcl__b_fail_take(pcl__bcall *c, pcl_error *e) {
  if (c->failed) {
    pcl_error_free(e);
  } else {
    *c->err = e;
    c->failed = true;
  }
  return false;
}

bool pcl__b_fail(pcl__bcall *c, const char *fmt, ...) {
  if (c->failed) {
    return false;
  }
  va_list ap;
  va_start(ap, fmt);
  pcl_error *e = pcl_error_newv(fmt, ap);
  va_end(ap);
  return pcl__b_fail_take(c, e);
}

bool pcl__b_arg_fail(pcl__bcall *c, const char *param, const char *fmt, ...) {
  if (c->failed) {
    return false;
  }
  va_list ap;
  va_start(ap, fmt);
  pcl_error *e = pcl_error_newv(fmt, ap);
  va_end(ap);
  pcl_error_prefix(e, "%s: invalid value for \"%s\" parameter", c->fn, param);
  return pcl__b_fail_take(c, e);
}

const char *pcl__b_shown(const pcl__bcall *c, const pcl_value *s) {
  return c->secret ? "[secret]" : pcl__redact_text(pcl_str_data(s));
}

char *pcl__b_value_text(const pcl__bcall *c, const pcl_value *v) {
  if (c->secret) {
    pcl__redact_enter();
  }
  char *r = pcl_value_repr(v, 64);
  if (c->secret) {
    pcl__redact_leave();
  }
  return r;
}

/* Records that the parameter's value v (plain) is of no kind param takes:
 * "cannot convert <v> to <type>: <type> required", v shown as messages
 * show values ("[secret]" when an argument was secret). */
static void kind_fail(pcl__bcall *c, const char *param, const pcl_value *v, const char *type) {
  if (c->secret) {
    pcl__redact_enter();
  }
  pcl_strbuf why = PCL_STRBUF_INIT;
  pcl_strbuf_appendf(&why, "%s required", type);
  pcl_error *e = pcl__convert_error(v, type, why.data);
  pcl_strbuf_free(&why);
  if (c->secret) {
    pcl__redact_leave();
  }
  pcl_error_prefix(e, "%s: invalid value for \"%s\" parameter", c->fn, param);
  pcl__b_fail_take(c, e);
}

const pcl_value *pcl__b_unwrap(pcl__bcall *c, const pcl_value *v) {
  while (pcl_kind_of(v) == PCL_T_SECRET) {
    c->secret = true;
    v = pcl_secret_inner(v);
  }
  return v;
}

const pcl_value *pcl__b_plain(pcl__bcall *c, const char *param, const pcl_value *v) {
  if (!pcl__b_ok(c)) {
    return NULL;
  }
  v = pcl__b_unwrap(c, v);
  switch (pcl_kind_of(v)) {
  case PCL_T_UNKNOWN:
    c->unknown = true;
    return NULL;
  case PCL_T_NULL:
    pcl__b_arg_fail(c, param, "argument must not be null");
    return NULL;
  case PCL_T_EVENTUAL:
    pcl__b_arg_fail(c, param, "the value is an unresolved %s", v->u.ev.ops->name);
    return NULL;
  case PCL_T_BOOL:
  case PCL_T_INT:
  case PCL_T_NUMBER:
  case PCL_T_STRING:
  case PCL_T_LIST:
  case PCL_T_MAP:
  case PCL_T_SET:
  case PCL_T_RESOURCE:
  case PCL_T_ASSET:
  case PCL_T_ARCHIVE:
  case PCL_T_SECRET:
    return v;
  }
  return v;
}

pcl_value *pcl__b_string(pcl__bcall *c, const char *param, const pcl_value *v) {
  v = pcl__b_plain(c, param, v);
  if (v == NULL) {
    return NULL;
  }
  switch (pcl_kind_of(v)) {
  case PCL_T_STRING:
  case PCL_T_BOOL:
  case PCL_T_INT:
  case PCL_T_NUMBER: {
    pcl_error *e = NULL;
    pcl_value *s = pcl_convert_to_string(v, &e);
    if (s == NULL) {
      pcl__b_fail_take(c, e);
    }
    return s;
  }
  case PCL_T_NULL:
  case PCL_T_UNKNOWN:
  case PCL_T_SECRET:
  case PCL_T_EVENTUAL:
  case PCL_T_LIST:
  case PCL_T_MAP:
  case PCL_T_SET:
  case PCL_T_RESOURCE:
  case PCL_T_ASSET:
  case PCL_T_ARCHIVE:
    break;
  }
  kind_fail(c, param, v, "string");
  return NULL;
}

pcl_value *pcl__b_number(pcl__bcall *c, const char *param, const pcl_value *v) {
  v = pcl__b_plain(c, param, v);
  if (v == NULL) {
    return NULL;
  }
  switch (pcl_kind_of(v)) {
  case PCL_T_INT:
  case PCL_T_NUMBER:
    return pcl_retain((pcl_value *)v);
  case PCL_T_STRING: {
    /* The conversion's message names the text ("[secret]" when secret). */
    pcl_error *e = NULL;
    if (c->secret) {
      pcl__redact_enter();
    }
    pcl_value *n = pcl_convert_to_number(v, &e);
    if (c->secret) {
      pcl__redact_leave();
    }
    if (n == NULL) {
      pcl_error_prefix(e, "%s: invalid value for \"%s\" parameter", c->fn, param);
      pcl__b_fail_take(c, e);
    }
    return n;
  }
  case PCL_T_NULL:
  case PCL_T_BOOL:
  case PCL_T_UNKNOWN:
  case PCL_T_SECRET:
  case PCL_T_EVENTUAL:
  case PCL_T_LIST:
  case PCL_T_MAP:
  case PCL_T_SET:
  case PCL_T_RESOURCE:
  case PCL_T_ASSET:
  case PCL_T_ARCHIVE:
    break;
  }
  kind_fail(c, param, v, "number");
  return NULL;
}

bool pcl__b_whole_i64(const pcl_value *num, int64_t *out) {
  if (pcl_kind_of(num) == PCL_T_INT) {
    return pcl_int_get_i64(num, out);
  }
  double d = pcl_number_get(num);
  /* -2^63 is a double; 2^63 is the first double above the int64 range. */
  if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0) || trunc(d) != d) {
    return false;
  }
  *out = (int64_t)d;
  return true;
}

const char *pcl__b_type_name(const pcl_value *v) {
  switch (pcl_kind_of(v)) {
  case PCL_T_INT:
  case PCL_T_NUMBER:
    return "number";
  case PCL_T_NULL:
  case PCL_T_BOOL:
  case PCL_T_STRING:
  case PCL_T_LIST:
  case PCL_T_MAP:
  case PCL_T_SET:
  case PCL_T_RESOURCE:
  case PCL_T_ASSET:
  case PCL_T_ARCHIVE:
  case PCL_T_UNKNOWN:
  case PCL_T_SECRET:
  case PCL_T_EVENTUAL:
    break;
  }
  return pcl_kind_name(pcl_kind_of(v));
}

static bool is_unknown(const pcl_value *v) { return pcl_kind_of(v) == PCL_T_UNKNOWN; }

bool pcl__b_has_unknown(const pcl_value *v) { return pcl__value_any(v, is_unknown); }

pcl_value *pcl__b_finish(pcl__bcall *c, pcl_value *result) {
  if (c->failed) {
    pcl_release(result);
    return NULL;
  }
  if (c->unknown) {
    pcl_release(result);
    result = pcl_unknown();
  }
  if (c->secret) {
    pcl_value *s = pcl_secret_new(result);
    pcl_release(result);
    result = s;
  }
  return result;
}
