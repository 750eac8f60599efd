/* builtins_misc.c: notImplemented, pulumiResourceType, pulumiResourceName,
 * secret and unsecret on plain values, the value-level halves of the special
 * forms try, can and recover, and the table of every built-in by name
 * (../shared/spec/functions.md §5, §6, §7).
 *
 * try, can and recover evaluate their arguments lazily, so the generated
 * code evaluates each alternative itself and reports the outcome here; the
 * helpers never see futures.  The table wraps every pcl_fn_* in one calling
 * shape so that a caller can dispatch by name and get the reference's arity
 * messages. */
#include <stdlib.h>
#include <string.h>

#include "builtins/builtins_internal.h"
#include "pcl_builtins.h"

pcl_value *pcl_fn_notImplemented(pcl_value *errorMessage, pcl_error **err) {
  pcl__bcall c = PCL__BCALL("notImplemented", err);
  pcl_value *s = pcl__b_string(&c, "errorMessage", errorMessage);
  if (s != NULL) {
    pcl__b_fail(&c, "%s", pcl__b_shown(&c, s));
  } else if (c.unknown) {
    /* The message is not known yet; the call fails all the same. */
    c.unknown = false;
    pcl__b_fail(&c, "not implemented");
  }
  pcl_release(s);
  return pcl__b_finish(&c, NULL);
}

pcl_value *pcl_fn_secret(pcl_value *value, pcl_error **err) {
  (void)err;
  return pcl_secret_new(value);
}

pcl_value *pcl_fn_unsecret(pcl_value *value, pcl_error **err) {
  (void)err;
  /* pcl_secret_new never nests SECRETs, so one unwrap clears the mark. */
  return pcl_retain(pcl_kind_of(value) == PCL_T_SECRET ? pcl_secret_inner(value) : value);
}

/* Returns v without its SECRET wrappers, setting *secret when it had any. */
static const pcl_value *unmark(const pcl_value *v, bool *secret) {
  while (pcl_kind_of(v) == PCL_T_SECRET) {
    *secret = true;
    v = pcl_secret_inner(v);
  }
  return v;
}

pcl_value *pcl_stack_reference_output(const pcl_value *ref, const pcl_value *name,
                                      pcl_error **err) {
  bool secret = false;
  ref = unmark(ref, &secret);
  /* A secret name makes the output secret too, as a marked argument does. */
  name = unmark(name, &secret);
  if (pcl_kind_of(ref) == PCL_T_NULL) {
    return pcl_unknown();
  }
  if (pcl_kind_of(ref) != PCL_T_MAP || pcl_kind_of(name) != PCL_T_STRING) {
    *err = pcl_error_new("getOutput needs a stack reference and an output name, not %s and %s",
                         pcl_kind_name(pcl_kind_of(ref)), pcl_kind_name(pcl_kind_of(name)));
    return NULL;
  }
  const pcl_value *outs = pcl_map_get_cstr(ref, "outputs");
  outs = outs != NULL ? unmark(outs, &secret) : NULL;
  pcl_value *v = outs != NULL && pcl_kind_of(outs) == PCL_T_MAP
                     ? pcl_map_get(outs, pcl_str_data(name), pcl_str_len(name))
                     : NULL;
  if (v == NULL) {
    return pcl_null();
  }
  /* The marks of the list and of its names say nothing about the output. */
  bool ignored = false;
  const pcl_value *names = pcl_map_get_cstr(ref, "secretOutputNames");
  names = names != NULL ? unmark(names, &ignored) : NULL;
  if (names != NULL && (pcl_kind_of(names) == PCL_T_LIST || pcl_kind_of(names) == PCL_T_SET)) {
    for (size_t i = 0; i < pcl_len(names) && !secret; i++) {
      const pcl_value *s = unmark(pcl_list_at(names, i), &ignored);
      secret = pcl_kind_of(s) == PCL_T_STRING && pcl_equal(s, name);
    }
  }
  return secret ? pcl_secret_new(v) : pcl_retain(v);
}

/* Finds the part of a resource URN
 * "urn:pulumi:<stack>::<project>::<parent types$><type>::<name>" that want
 * names ("__type" or "__name"); stores it in *out, *len. */
static bool urn_part(const pcl_value *urn, const char *want, const char **out, size_t *len) {
  static const char prefix[] = "urn:pulumi:";
  const char *s = pcl_str_data(urn);
  const char *end = s + pcl_str_len(urn);
  if ((size_t)(end - s) < sizeof prefix - 1 || memcmp(s, prefix, sizeof prefix - 1) != 0) {
    return false;
  }
  const char *p = s + sizeof prefix - 1;
  const char *seps[3];
  for (int i = 0; i < 3; i++) {
    const char *q = p;
    while (q + 1 < end && !(q[0] == ':' && q[1] == ':')) {
      q++;
    }
    if (q + 1 >= end) {
      return false;
    }
    seps[i] = q;
    p = q + 2;
  }
  if (strcmp(want, "__name") == 0) {
    /* The name is everything after the third separator (it may hold "::"). */
    *out = seps[2] + 2;
    *len = (size_t)(end - *out);
    return true;
  }
  const char *type = seps[1] + 2, *type_end = seps[2];
  for (const char *q = type; q < type_end; q++) {
    if (*q == '$') {
      type = q + 1;
    }
  }
  *out = type;
  *len = (size_t)(type_end - type);
  return true;
}

/* pulumiResourceType (key "__type") and pulumiResourceName ("__name"). */
static pcl_value *resource_part(const char *fn, const char *key, pcl_value *resource,
                                pcl_error **err) {
  pcl__bcall c = PCL__BCALL(fn, err);
  const pcl_value *r = pcl__b_unwrap(&c, resource);
  pcl_value *result = NULL;
  if (pcl_kind_of(r) == PCL_T_UNKNOWN) {
    c.unknown = true;
  } else if (pcl_kind_of(r) == PCL_T_MAP) {
    pcl_value *v = pcl_map_get_cstr(r, key);
    if (v != NULL) {
      v = (pcl_value *)pcl__b_unwrap(&c, v);
    }
    if (v != NULL && pcl_kind_of(v) == PCL_T_STRING) {
      result = pcl_retain(v);
    } else if (v != NULL && pcl_kind_of(v) == PCL_T_UNKNOWN) {
      c.unknown = true;
    }
  } else if (pcl_kind_of(r) == PCL_T_RESOURCE) {
    const pcl_value *urn = pcl__b_unwrap(&c, pcl_resource_urn(r));
    const char *part;
    size_t len;
    if (pcl_kind_of(urn) == PCL_T_STRING && urn_part(urn, key, &part, &len)) {
      result = pcl_str_new_lossy(part, len);
    }
  }
  if (result == NULL && !c.unknown) {
    pcl__b_fail(&c, "%s argument must be a single resource", fn);
  }
  return pcl__b_finish(&c, result);
}

pcl_value *pcl_fn_pulumiResourceType(pcl_value *resource, pcl_error **err) {
  return resource_part("pulumiResourceType", "__type", resource, err);
}

pcl_value *pcl_fn_pulumiResourceName(pcl_value *resource, pcl_error **err) {
  return resource_part("pulumiResourceName", "__name", resource, err);
}

/* ------------------------------------------------------- try, can, recover */

void pcl_try_fail_take(pcl_try *t, pcl_error *e) {
  pcl_strbuf_append_cstr(&t->text, "- ");
  pcl_strbuf_append_cstr(&t->text, pcl_error_message(e));
  if (pcl_error_file(e) != NULL) {
    /* HCL prints the alternative's range as file:line,column. */
    pcl_strbuf_appendf(&t->text, " (at %s:%u,%u)", pcl_error_file(e), pcl_error_line(e),
                       pcl_error_column(e));
  }
  pcl_strbuf_append_char(&t->text, '\n');
  t->failures++;
  pcl_error_free(e);
}

pcl_value *pcl_try_success(pcl_try *t, pcl_value *v) {
  pcl_try_dispose(t);
  if (pcl__b_has_unknown(v)) {
    return pcl_unknown();
  }
  return pcl_retain(v);
}

pcl_error *pcl_try_error(pcl_try *t) {
  pcl_error *e = pcl_error_new("no expression succeeded:\n%s\nAt least one expression must "
                               "produce a successful result",
                               t->text.data != NULL ? t->text.data : "");
  pcl_try_dispose(t);
  return e;
}

void pcl_try_dispose(pcl_try *t) {
  pcl_strbuf_free(&t->text);
  t->failures = 0;
}

pcl_value *pcl_can_result(pcl_value *v, pcl_error *e_err) {
  if (e_err != NULL) {
    pcl_error_free(e_err);
    return pcl_bool(false);
  }
  if (pcl__b_has_unknown(v)) {
    return pcl_unknown();
  }
  if (pcl_kind_of(v) == PCL_T_SECRET) {
    return pcl_secret_new(pcl_bool(true));
  }
  return pcl_bool(true);
}

pcl_value *pcl_recover_error_value(const char *resource_name) {
  pcl_strbuf b = PCL_STRBUF_INIT;
  pcl_strbuf_appendf(&b, "poisoned value from resource %s", resource_name);
  pcl_value *v = pcl_str_new_lossy(b.data, b.len);
  pcl_strbuf_free(&b);
  return v;
}

/* ------------------------------------------------------------- the table */

/* The built-ins that generated code may call by name (a call whose
 * arguments are expanded from a list, `f(xs...)`): the rows of
 * PCL__BUILTINS (common/pcl_builtins.h) of the shapes that call a
 * pcl_fn_<name>, each wrapped in the one calling shape of pcl_builtin_fn.
 * Their arity was checked before the wrapper runs, so an argument past n
 * is an optional one not given. */
#define PCL__ARG(i) (n > (i) ? a[i] : NULL)
#define PCL__CALL_ARGS_0(name) pcl_fn_##name(err)
#define PCL__CALL_ARGS_1(name) pcl_fn_##name(PCL__ARG(0), err)
#define PCL__CALL_ARGS_2(name) pcl_fn_##name(PCL__ARG(0), PCL__ARG(1), err)
#define PCL__CALL_ARGS_3(name) pcl_fn_##name(PCL__ARG(0), PCL__ARG(1), PCL__ARG(2), err)

#define PCL__WRAP(name, call)                                                                     \
  static pcl_value *call_##name(const char *base, pcl_value *const *a, size_t n,          \
                                pcl_error **err) {                                        \
    (void)base;                                                                           \
    (void)a;                                                                              \
    (void)n;                                                                              \
    return call;                                                                          \
  }
#define PCL__WRAP_ARGS(name, max) PCL__WRAP(name, PCL__CALL_ARGS_##max(name))
#define PCL__WRAP_FILE(name, max) PCL__WRAP(name, pcl_fn_##name(base, a[0], err))
#define PCL__WRAP_VAR(name, max) PCL__WRAP(name, pcl_fn_##name(a, n, err))
#define PCL__WRAP_RUN(name, max)
#define PCL__WRAP_EVENTUAL(name, max)
#define PCL__WRAP_LAZY(name, max)
#define PCL__WRAP_INTRINSIC(name, max)
#define PCL__WRAPPER(id, name, shape, min, max, params, varargs) PCL__WRAP_##shape(name, max)
PCL__BUILTINS(PCL__WRAPPER)

#define PCL__PARAMS(p1, p2, p3) {p1, p2, p3}
#define PCL__ROW(id, name, min, max, params)                                                      \
  {#name, min, (max) == PCL__B_VARIADIC ? PCL_BUILTIN_VARIADIC : (max), PCL__PARAMS params,       \
   call_##name},
#define PCL__ROW_ARGS PCL__ROW
#define PCL__ROW_FILE PCL__ROW
#define PCL__ROW_VAR PCL__ROW
#define PCL__ROW_RUN(id, name, min, max, params)
#define PCL__ROW_EVENTUAL(id, name, min, max, params)
#define PCL__ROW_LAZY(id, name, min, max, params)
#define PCL__ROW_INTRINSIC(id, name, min, max, params)
#define PCL__ENTRY(id, name, shape, min, max, params, varargs)                                    \
  PCL__ROW_##shape(id, name, min, max, params)
static const pcl_builtin table[] = {PCL__BUILTINS(PCL__ENTRY)};

const pcl_builtin *pcl_builtin_find(const char *name) {
  /* Few enough entries that a linear scan beats sorting. */
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
    if (strcmp(table[i].name, name) == 0) {
      return &table[i];
    }
  }
  return NULL;
}

pcl_value *pcl_builtin_call(const pcl_builtin *b, const char *base_dir, pcl_value *const *args,
                            size_t n, pcl_error **err) {
  if (b->max_args != PCL_BUILTIN_VARIADIC && n > b->max_args) {
    *err = pcl_error_new("too many arguments to call: expected %u, got %zu", b->max_args, n);
    return NULL;
  }
  if (n < b->min_args) {
    *err = pcl_error_new("missing required parameter '%s'", b->params[n]);
    return NULL;
  }
  return b->fn(base_dir, args, n, err);
}
