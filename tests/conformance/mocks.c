/* mocks.c: the conformance test providers' behaviour, as C mocks of the
 * embedded engine.
 *
 * Takes the registrations, invokes and method calls the embedded engine
 * hands to its mocks (pcl_mocks in runtime/include/pcl_engine.h) and answers them the way
 * the Go test providers of the conformance suite do
 * (../shared/conformance/providers/BEHAVIOUR.md): Check failures, Create
 * outputs and ids, preview answers, Read, Invoke and Call results.  Linked
 * into every conformance program with -Wl,--wrap=pcl_main and
 * -Wl,--wrap=pcl_gen_main: the wrappers install the mocks and call the real
 * entry point, so the generated C needs no change.
 *
 * Inputs besides the engine's requests: the stack config in PULUMI_CONFIG
 * (the keys "<package>:<key>" configure default providers, as the engine
 * hands them to a provider's Configure).  A parameterized package is known
 * from its requests, as a provider knows it from its Parameterize call: the
 * engine hands the mocks the package the program registered
 * (pcl_mock_resource_args.package, pcl_mock_call_package), and through the
 * engine protocol that is the package of the RegisterPackage request whose
 * reference the request carries.
 *
 * Invariants: every answer depends only on the package, type or function
 * token, the request and its package, never on the test or program; a type
 * the file does not know is refused with a message naming
 * it, never echoed silently.  Everything the mocks keep (the resources they
 * answered, for hydration of method receivers and provider config, and the
 * flaky providers that failed once) is released when pcl_main returns. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pcl_engine.h"
#include "pcl_gen.h"

/* One resource the mocks answered, kept for method calls and for the
 * config of explicit providers. */
typedef struct mk_rec {
  char *urn;         /* URN (owned). */
  char *type;        /* Type token (owned). */
  char *provider;    /* Provider reference or NULL (owned). */
  pcl_value *inputs; /* Inputs (owned). */
  pcl_value *state;  /* Outputs as answered (owned). */
} mk_rec;

/* The size of the sync provider's barrier. */
#define MK_BARRIER 3

/* Everything the mocks keep during one run. */
typedef struct mk_state {
  mk_rec *recs;          /* Answered resources. */
  size_t n, cap;         /* Used and allocated records. */
  pcl_value *config;     /* Stack config MAP key -> raw text (owned) or NULL. */
  const pcl_package *package; /* The parameterized package of the request being answered
                                 (borrowed for the answer), or NULL. */
  pcl_value *param_value;     /* Its parameter as a string (owned), or NULL. */
  size_t goodbyes;       /* simple-invoke StringResources created so far. */
  pcl_mock_reply *barrier[MK_BARRIER]; /* sync:index:Block Creates waiting at the barrier. */
  size_t nbarrier;            /* How many wait. */
  pcl_value *flaky;           /* MAP of the provider references whose flaky:index:FlakyCreate
                                 failed once (owned), or NULL. */
} mk_state;

static mk_state mk;

/* ------------------------------------------------------------ value helpers */

/* Returns m[k] (borrowed) or NULL when m is not a map or lacks k. */
static pcl_value *get(const pcl_value *m, const char *k) {
  if (m == NULL || pcl_kind_of(m) != PCL_T_MAP) {
    return NULL;
  }
  return pcl_map_get_cstr(m, k);
}

/* Returns v without its secret wrappers at the top (borrowed). */
static pcl_value *unwrap(pcl_value *v) {
  while (v && pcl_kind_of(v) == PCL_T_SECRET) {
    v = pcl_secret_inner(v);
  }
  return v;
}

/* Returns the plain string of m[k] (borrowed), or NULL. */
static const char *sget(const pcl_value *m, const char *k) {
  pcl_value *v = unwrap(get(m, k));
  return v && pcl_kind_of(v) == PCL_T_STRING ? pcl_str_data(v) : NULL;
}

/* Returns whether v (secrets removed) is unknown. */
static bool is_unknown(pcl_value *v) {
  v = unwrap(v);
  return v && pcl_kind_of(v) == PCL_T_UNKNOWN;
}

static pcl_value *str(const char *s) { return pcl_str_from_cstr(s); }

/* Returns a copy of m with entry k set to v (v taken). */
static pcl_value *with(pcl_value *m, const char *k, pcl_value *v) {
  pcl_mapbuf mb = PCL_MAPBUF_INIT;
  for (size_t i = 0; m && i < pcl_len(m); i++) {
    if (!pcl_str_eq_cstr(pcl_map_key_at(m, i), k)) {
      pcl_mapbuf_put_take(&mb, pcl_retain(pcl_map_key_at(m, i)), pcl_retain(pcl_map_val_at(m, i)));
    }
  }
  pcl_mapbuf_put_cstr(&mb, k, v);
  return pcl_mapbuf_finish(&mb);
}

/* Returns a copy of m without entry k. */
static pcl_value *without(pcl_value *m, const char *k) {
  pcl_mapbuf mb = PCL_MAPBUF_INIT;
  for (size_t i = 0; m && i < pcl_len(m); i++) {
    if (!pcl_str_eq_cstr(pcl_map_key_at(m, i), k)) {
      pcl_mapbuf_put_take(&mb, pcl_retain(pcl_map_key_at(m, i)), pcl_retain(pcl_map_val_at(m, i)));
    }
  }
  return pcl_mapbuf_finish(&mb);
}

/* Returns the one-entry map {k: v} (v taken). */
static pcl_value *map1(const char *k, pcl_value *v) {
  pcl_mapbuf mb = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_cstr(&mb, k, v);
  return pcl_mapbuf_finish(&mb);
}

/* Returns a+b as a new string. */
static pcl_value *cat(const char *a, const char *b) {
  pcl_strbuf sb = PCL_STRBUF_INIT;
  pcl_strbuf_append_cstr(&sb, a);
  pcl_strbuf_append_cstr(&sb, b);
  pcl_value *v = pcl_str_new_lossy(sb.data ? sb.data : "", sb.len);
  pcl_strbuf_free(&sb);
  return v;
}

/* Returns "hello" repeated n times. */
static pcl_value *hellos(pcl_value *n) {
  int64_t k = 0;
  n = unwrap(n);
  if (n && pcl_kind_of(n) == PCL_T_INT) {
    pcl_int_get_i64(n, &k);
  } else if (n && pcl_kind_of(n) == PCL_T_NUMBER) {
    k = (int64_t)pcl_number_get(n);
  }
  pcl_strbuf sb = PCL_STRBUF_INIT;
  for (int64_t i = 0; i < k; i++) {
    pcl_strbuf_append_cstr(&sb, "hello");
  }
  pcl_value *v = pcl_str_new_lossy(sb.data ? sb.data : "", sb.len);
  pcl_strbuf_free(&sb);
  return v;
}

/* Returns whether a value is truthy as provider config: true or "true". */
static bool truthy(pcl_value *v) {
  v = unwrap(v);
  if (v == NULL) {
    return false;
  }
  if (pcl_kind_of(v) == PCL_T_BOOL) {
    return pcl_bool_get(v);
  }
  return pcl_kind_of(v) == PCL_T_STRING && strcmp(pcl_str_data(v), "true") == 0;
}

/* Decodes base64 text into out (owned, *len bytes); false on bad input. */
static bool b64decode(const char *s, char **out, size_t *len) {
  size_t n = strlen(s);
  char *o = malloc(n / 4 * 3 + 3);
  size_t k = 0;
  unsigned acc = 0;
  int bits = 0;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    int v;
    if (c >= 'A' && c <= 'Z') {
      v = c - 'A';
    } else if (c >= 'a' && c <= 'z') {
      v = c - 'a' + 26;
    } else if (c >= '0' && c <= '9') {
      v = c - '0' + 52;
    } else if (c == '+') {
      v = 62;
    } else if (c == '/') {
      v = 63;
    } else if (c == '=') {
      break;
    } else {
      free(o);
      return false;
    }
    acc = (acc << 6) | (unsigned)v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      o[k++] = (char)((acc >> bits) & 0xFF);
    }
  }
  *out = o;
  *len = k;
  return true;
}

/* ------------------------------------------------------------ records */

static mk_rec *find(const char *urn) {
  for (size_t i = 0; i < mk.n; i++) {
    if (strcmp(mk.recs[i].urn, urn) == 0) {
      return &mk.recs[i];
    }
  }
  return NULL;
}

static void remember(const pcl_mock_resource_args *a, pcl_value *state) {
  if (mk.n == mk.cap) {
    mk.cap = mk.cap ? mk.cap * 2 : 32;
    mk.recs = realloc(mk.recs, mk.cap * sizeof *mk.recs);
  }
  mk_rec *r = &mk.recs[mk.n++];
  r->urn = strdup(a->urn);
  r->type = strdup(a->type);
  r->provider = a->provider ? strdup(a->provider) : NULL;
  r->inputs = pcl_retain(a->inputs);
  r->state = pcl_retain(state);
}

/* Returns the URN part of a provider reference "<urn>::<id>" (owned). */
static char *ref_urn(const char *ref) {
  const char *last = NULL;
  for (const char *p = strstr(ref, "::"); p; p = strstr(p + 2, "::")) {
    last = p;
  }
  size_t n = last ? (size_t)(last - ref) : strlen(ref);
  char *u = malloc(n + 1);
  memcpy(u, ref, n);
  u[n] = 0;
  return u;
}

/* Returns the config (owned MAP) of the provider a resource of package pkg
 * uses: an explicit provider's inputs, else the stack config of pkg. */
static pcl_value *provider_config(const char *ref, const char *pkg) {
  if (ref) {
    char *u = ref_urn(ref);
    mk_rec *r = find(u);
    free(u);
    if (r) {
      return pcl_retain(r->inputs);
    }
  }
  pcl_mapbuf mb = PCL_MAPBUF_INIT;
  size_t pl = strlen(pkg);
  for (size_t i = 0; mk.config && i < pcl_len(mk.config); i++) {
    const char *k = pcl_str_data(pcl_map_key_at(mk.config, i));
    if (strncmp(k, pkg, pl) == 0 && k[pl] == ':') {
      pcl_mapbuf_put_cstr(&mb, k + pl + 1, pcl_retain(pcl_map_val_at(mk.config, i)));
    }
  }
  return pcl_mapbuf_finish(&mb);
}

/* Notes that the mocks now answer a request of the parameterized package
 * pkg (borrowed; NULL: a request of no such package). */
static void answering(const pcl_package *pkg) {
  pcl_release(mk.param_value);
  mk.package = pkg;
  mk.param_value = pkg ? pcl_str_new_lossy(pkg->value, pkg->value_len) : NULL;
}

/* Returns the parameterization of package name: the package of the request
 * being answered when it is that one (borrowed), else NULL. */
static const pcl_package *param_of(const char *name) {
  return mk.package && strcmp(mk.package->name, name) == 0 ? mk.package : NULL;
}

/* Returns the parameter of package name as a string (borrowed) or NULL. */
static const char *param_value(const char *name) {
  return param_of(name) ? pcl_str_data(mk.param_value) : NULL;
}

/* Returns whether package name is a parameterization of the extbase plugin
 * (BEHAVIOUR.md: its parameterizations are extensions, served by
 * extbase@45.0.0 under their own names); the other base plugin,
 * parameterized@1.2.3, is replaced by its parameterizations. */
static bool extbase_extension(const char *name) {
  const pcl_package *p = param_of(name);
  return p && strcmp(p->base_name, "extbase") == 0;
}

/* Stores the package of the token tok in pkg (of size n) and returns the
 * rest of the token after the package's colon ("" when none). */
static const char *split_token(const char *tok, char *pkg, size_t n) {
  const char *colon = strchr(tok, ':');
  snprintf(pkg, n, "%.*s", (int)(colon ? (size_t)(colon - tok) : strlen(tok)), tok);
  return colon ? colon + 1 : "";
}

/* Returns whether the provider reference prov has already failed its first
 * flaky Create, noting that it now has. */
static bool seen_flaky(const char *prov) {
  if (mk.flaky != NULL && pcl_map_get_cstr(mk.flaky, prov) != NULL) {
    return true;
  }
  pcl_value *m = with(mk.flaky, prov, pcl_bool(true));
  pcl_release(mk.flaky);
  mk.flaky = m;
  return false;
}

/* ------------------------------------------------------------ Check */

/* The expected shape of one input (or object property) for a Check. */
typedef struct mk_field mk_field;
/* The properties of an object a Check looks into. */
typedef struct mk_shape {
  const mk_field *fields; /* The properties. */
  size_t n;               /* Their number. */
  bool exact;             /* No other property is allowed. */
} mk_shape;
struct mk_field {
  const char *name;     /* Input name. */
  char kind;            /* 'b' bool, 'n' number, 's' string, 'l' list, 'm' map, 'a' any, 'o'
                           object of shape sub, 'L' list of objects of shape sub. */
  bool required;        /* Must be present. */
  char elem;            /* 'l' and 'm': the kind of every element (0: any). */
  const mk_shape *sub;  /* 'o' and 'L': the shape of the object(s). */
};

static bool kind_ok(pcl_value *v, char kind) {
  v = unwrap(v);
  if (v == NULL || pcl_kind_of(v) == PCL_T_UNKNOWN) {
    return true;
  }
  switch (kind) {
  case 'b':
    return pcl_kind_of(v) == PCL_T_BOOL;
  case 'n':
    return pcl_kind_of(v) == PCL_T_INT || pcl_kind_of(v) == PCL_T_NUMBER;
  case 's':
    return pcl_kind_of(v) == PCL_T_STRING;
  case 'l':
  case 'L':
    return pcl_kind_of(v) == PCL_T_LIST;
  case 'm':
  case 'o':
    return pcl_kind_of(v) == PCL_T_MAP;
  default:
    return true;
  }
}

static bool check_object(const char *type, const char *path, pcl_value *obj, const mk_field *f,
                         size_t n, bool exact, pcl_error **err);

/* Checks the value v of the property named path against the field f:
 * its kind, its elements' kind, the shape of its objects. */
static bool check_value(const char *type, const char *path, pcl_value *v, const mk_field *f,
                        pcl_error **err) {
  if (!kind_ok(v, f->kind)) {
    char *r = pcl_value_repr(v, 80);
    *err = pcl_error_new("check failed for %s: input '%s' has the wrong type (%s)", type, path, r);
    free(r);
    return false;
  }
  pcl_value *u = unwrap(v);
  if (u == NULL || pcl_kind_of(u) == PCL_T_UNKNOWN) {
    return true;
  }
  pcl_strbuf sub = PCL_STRBUF_INIT;
  bool ok = true;
  if (f->kind == 'o') {
    ok = check_object(type, path, u, f->sub->fields, f->sub->n, f->sub->exact, err);
  } else if (f->kind == 'L' || ((f->kind == 'l' || f->kind == 'm') && f->elem)) {
    mk_field elem = {f->name, f->kind == 'L' ? 'o' : f->elem, true, 0, f->sub};
    for (size_t i = 0; ok && i < pcl_len(u); i++) {
      sub.len = 0;
      if (f->kind == 'm') {
        pcl_strbuf_appendf(&sub, "%s.%s", path, pcl_str_data(pcl_map_key_at(u, i)));
      } else {
        pcl_strbuf_appendf(&sub, "%s[%zu]", path, i);
      }
      ok = check_value(type, sub.data, f->kind == 'm' ? pcl_map_val_at(u, i) : pcl_list_at(u, i),
                       &elem, err);
    }
  }
  pcl_strbuf_free(&sub);
  return ok;
}

/* Checks the properties of obj (a MAP) against f[0..n): each present when
 * required and of its shape, and (exact) no other.  path names obj in
 * messages ("" for the inputs themselves).  Returns false with *err. */
static bool check_object(const char *type, const char *path, pcl_value *obj, const mk_field *f,
                         size_t n, bool exact, pcl_error **err) {
  pcl_strbuf p = PCL_STRBUF_INIT;
  bool ok = true;
  for (size_t i = 0; ok && i < n; i++) {
    p.len = 0;
    pcl_strbuf_appendf(&p, "%s%s%s", path, *path ? "." : "", f[i].name);
    pcl_value *v = get(obj, f[i].name);
    if (v == NULL && f[i].required) {
      *err = pcl_error_new("check failed for %s: missing required input '%s'", type, p.data);
      ok = false;
    } else if (v != NULL) {
      ok = check_value(type, p.data, v, &f[i], err);
    }
  }
  for (size_t j = 0; ok && exact && j < pcl_len(obj); j++) {
    bool listed = false;
    for (size_t i = 0; i < n; i++) {
      listed = listed || pcl_str_eq_cstr(pcl_map_key_at(obj, j), f[i].name);
    }
    if (!listed) {
      *err = pcl_error_new("check failed for %s: unexpected input '%s%s%s'", type, path,
                           *path ? "." : "", pcl_str_data(pcl_map_key_at(obj, j)));
      ok = false;
    }
  }
  pcl_strbuf_free(&p);
  return ok;
}

/* The standard Check: the inputs against f[0..n) (check_object). */
static bool check(const pcl_mock_resource_args *a, const mk_field *f, size_t n, bool exact,
                  pcl_error **err) {
  return check_object(a->type, "", a->inputs, f, n, exact, err);
}

/* The standard CheckConfig of an explicit provider: version must be one the
 * plugin is built as, and at most `extra` further properties. */
static bool check_config(const pcl_mock_resource_args *a, const char *const *versions,
                         size_t extra, pcl_error **err) {
  const char *v = sget(a->inputs, "version");
  if (v == NULL) {
    *err = pcl_error_new("CheckConfig of %s: missing version", a->type);
    return false;
  }
  bool ok = false;
  for (size_t i = 0; versions[i]; i++) {
    ok = ok || strcmp(v, versions[i]) == 0;
  }
  if (!ok) {
    *err = pcl_error_new("CheckConfig of %s: version is not %s", a->type, versions[0]);
    return false;
  }
  size_t n = pcl_len(a->inputs) - 1 - (get(a->inputs, "__internal") ? 1 : 0);
  if (n > extra) {
    *err = pcl_error_new("CheckConfig of %s: too many properties", a->type);
    return false;
  }
  return true;
}

/* ------------------------------------------------------------ resources */

/* Answers a provider resource: CheckConfig, then the config (minus the
 * engine's __internal) as outputs. */
static bool provider_resource(const pcl_mock_resource_args *a, pcl_value **state,
                              pcl_error **err) {
  const char *pkg = a->type + strlen("pulumi:providers:");
  /* Packages whose CheckConfig is the standard one, with the versions the
   * plugin is built as and how many properties besides version it takes. */
  static const struct {
    const char *pkg;
    const char *versions[4];
    size_t extra;
  } standard[] = {
      {"alpha", {"3.0.0-alpha.1.internal+exp.sha.12345678", NULL}, 0},
      {"any-type-function", {"15.0.0", NULL}, 0},
      {"asset-archive", {"5.0.0", NULL}, 0},
      {"bytesource", {"48.0.0", NULL}, 0},
      {"bytesink", {"47.0.0", NULL}, 0},
      {"call", {"15.7.9", NULL}, 1},
      {"camelNames", {"19.0.0", NULL}, 0},
      {"component", {"13.3.7", NULL}, 0},
      {"component-property-deps", {"1.33.7", NULL}, 0},
      {"config", {"9.0.0", NULL}, 2},
      {"configurer", {"38.0.0", NULL}, 1},
      {"docs", {"28.0.0", NULL}, 0},
      {"fail_on_create", {"4.0.0", NULL}, 0},
      {"flaky", {"46.0.0", NULL}, 0},
      {"index-mod", {"35.0.0", NULL}, 0},
      {"kebab-names", {"52.0.0", NULL}, 0},
      {"keywords", {"20.0.0", NULL}, 0},
      {"large", {"4.3.2", NULL}, 0},
      {"module-format", {"29.0.0", NULL}, 0},
      {"multi-argument-invoke", {"44.0.0", NULL}, 0},
      {"names", {"6.0.0", NULL}, 0},
      {"namespaced", {"16.0.0", NULL}, 1},
      {"optional-primitive-ref", {"40.0.0", NULL}, 0},
      {"optionalprimitive", {"34.0.0", NULL}, 0},
      {"output", {"23.0.0", NULL}, 1},
      {"output-only-invoke", {"24.0.0", NULL}, 0},
      {"plain", {"13.0.0", NULL}, 0},
      {"plaincomponent", {"36.0.0", NULL}, 0},
      {"primitive", {"7.0.0", NULL}, 0},
      {"primitive-defaults", {"8.0.0", NULL}, 0},
      {"primitive-ref", {"11.0.0", NULL}, 0},
      {"ref-ref", {"12.0.0", NULL}, 0},
      {"replaceonchanges", {"25.0.0", NULL}, 0},
      {"secret", {"14.0.0", NULL}, 0},
      {"simple", {"2.0.0", "26.0.0", "27.0.0", NULL}, 0},
      {"simple-invoke", {"10.0.0", NULL}, 0},
      {"snake_names", {"33.0.0", NULL}, 0},
  };
  for (size_t i = 0; i < sizeof standard / sizeof standard[0]; i++) {
    if (strcmp(pkg, standard[i].pkg) == 0 &&
        !check_config(a, standard[i].versions, standard[i].extra, err)) {
      return false;
    }
  }
  const pcl_package *param = param_of(pkg);
  if (param != NULL && !extbase_extension(pkg)) {
    /* A replacement-parameterized package (parameterized@1.2.3): the
     * version is the parameterization's, and text may be given. */
    const char *want[] = {param->version, NULL};
    if (want[0] != NULL && !check_config(a, want, 1, err)) {
      return false;
    }
  }
  if (strcmp(pkg, "config") == 0 && sget(a->inputs, "name") == NULL) {
    *err = pcl_error_new("CheckConfig of %s: missing required property 'name'", a->type);
    return false;
  }
  *state = without(a->inputs, "__internal");
  return true;
}

static const mk_field f_value_bool[] = {{"value", 'b', true, 0, NULL}};
static const mk_field f_primitive[] = {
    {"boolean", 'b', true, 0, NULL},        {"float", 'n', true, 0, NULL},
    {"integer", 'n', true, 0, NULL},        {"string", 's', true, 0, NULL},
    {"numberArray", 'l', true, 'n', NULL},  {"booleanMap", 'm', true, 'b', NULL},
};
/* The data of primitive-ref, the inner data of ref-ref and plain: the
 * six primitive-ish properties, all required. */
static const mk_field f_prim_data[] = {
    {"boolean", 'b', true, 0, NULL}, {"float", 'n', true, 0, NULL},
    {"integer", 'n', true, 0, NULL}, {"string", 's', true, 0, NULL},
    {"boolArray", 'l', true, 'b', NULL}, {"stringMap", 'm', true, 's', NULL},
};
static const mk_shape s_prim_data = {f_prim_data, 6, true};
/* ref-ref's and plain's data: the same plus inner data (ref-ref also an
 * optional list of it and an optional inner). */
static const mk_field f_ref_data[] = {
    {"boolean", 'b', true, 0, NULL},          {"float", 'n', true, 0, NULL},
    {"integer", 'n', true, 0, NULL},          {"string", 's', true, 0, NULL},
    {"boolArray", 'l', true, 'b', NULL},      {"stringMap", 'm', true, 's', NULL},
    {"innerData", 'o', true, 0, &s_prim_data}, {"innerDataList", 'L', false, 0, &s_prim_data},
    {"optionalInner", 'o', false, 0, &s_prim_data},
};
static const mk_shape s_ref_data = {f_ref_data, 9, true};
static const mk_shape s_plain_data = {f_ref_data, 7, true};
/* optional-primitive-ref's data: six optional, type-checked properties. */
static const mk_field f_opt_data[] = {
    {"boolean", 'b', false, 0, NULL}, {"float", 'n', false, 0, NULL},
    {"integer", 'n', false, 0, NULL}, {"string", 's', false, 0, NULL},
    {"numberArray", 'l', false, 'n', NULL}, {"booleanMap", 'm', false, 'b', NULL},
};
static const mk_shape s_opt_data = {f_opt_data, 6, false};
static const mk_field f_primitive_ref[] = {{"data", 'o', true, 0, &s_prim_data}};
static const mk_field f_ref_ref[] = {{"data", 'o', true, 0, &s_ref_data}};
static const mk_field f_plain[] = {{"data", 'o', true, 0, &s_plain_data},
                                   {"nonPlainData", 'o', false, 0, &s_plain_data},
                                   {"dataList", 'L', false, 0, &s_prim_data}};
static const mk_field f_optional_ref[] = {{"data", 'o', true, 0, &s_opt_data},
                                          {"optionalData", 'o', false, 0, &s_opt_data}};
static const mk_field f_keywords[] = {
    {"builtins", 's', true, 0, NULL}, {"lambda", 's', true, 0, NULL},
    {"property", 's', true, 0, NULL}};
static const mk_field f_primitive_defaults[] = {
    {"boolean", 'b', true, 0, NULL}, {"float", 'n', true, 0, NULL},
    {"integer", 'n', true, 0, NULL}, {"string", 's', true, 0, NULL}};

#define CHECK(fields, exact) check(a, fields, sizeof fields / sizeof fields[0], exact, err)

/* The secret@14.0.0 resource: the schema-secret inputs must arrive secret. */
static bool secret_check(const pcl_mock_resource_args *a, pcl_error **err) {
  static const char *const priv[] = {"private",          "privateData",    "privateArray",
                                     "privateMap",       "privateDataArray", "privateDataMap"};
  for (size_t i = 0; i < sizeof priv / sizeof priv[0]; i++) {
    pcl_value *v = get(a->inputs, priv[i]);
    if (v && pcl_kind_of(v) != PCL_T_SECRET && pcl_kind_of(v) != PCL_T_UNKNOWN) {
      *err = pcl_error_new("check failed for %s: input '%s' must be secret", a->type, priv[i]);
      return false;
    }
  }
  return true;
}

/* Returns whether the provider of type implements Read (BEHAVIOUR.md); the
 * others answer "unimplemented", kebab-names expressly fails. */
static bool implements_read(const char *type) {
  static const char *const prefixes[] = {
      "simple:index:Resource",       "camelNames:CoolModule:SomeResource",
      "names:",                      "read:index:Resource",
      "nestedcollections:index:Foo", "nestedobject:",
      "output:",                     "reservednames:index:ElementType",
  };
  for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
    size_t n = strlen(prefixes[i]);
    if (strncmp(type, prefixes[i], n) == 0 && (prefixes[i][n - 1] == ':' || type[n] == '\0')) {
      return true;
    }
  }
  return false;
}

/* Answers a custom resource: stores the state (owned) in *state and in *id
 * the constant id the provider returns, or NULL for the computed ids
 * `id-<name>` (call, configurer) and `id-<value>` (component types), which
 * the caller builds; a read keeps the id it asked for. */
static bool custom_resource(const pcl_mock_resource_args *a, const char **id, pcl_value **state,
                            pcl_error **err) {
  const char *t = a->type;
  pcl_value *in = a->inputs;
  *id = "id";
#define IS(tok) (strcmp(t, tok) == 0)
  if (a->id != NULL && !implements_read(t)) {
    *err = pcl_error_new("read of %s: the provider does not implement Read", t);
    return false;
  }
  if (a->id != NULL && strncmp(t, "names:", 6) == 0) {
    /* names: Read returns {value: true}. */
    *state = map1("value", pcl_bool(true));
    return true;
  }
  if (IS("simple:index:Resource") || IS("alpha:index:Resource") ||
      IS("fail_on_create:index:Resource")) {
    if (!CHECK(f_value_bool, true)) {
      return false;
    }
    if (IS("fail_on_create:index:Resource")) {
      *err = pcl_error_new("failed create");
      return false;
    }
    if (IS("simple:index:Resource") && a->id) {
      *state = map1("value", pcl_bool(true));
      return true;
    }
    *state = pcl_retain(in);
  } else if (IS("primitive:index:Resource")) {
    if (!CHECK(f_primitive, true)) {
      return false;
    }
    const char *s = sget(in, "string");
    *id = s && *s ? s : "id";
    *state = pcl_retain(in);
  } else if (IS("primitive-defaults:index:Resource")) {
    if (!CHECK(f_primitive_defaults, true)) {
      return false;
    }
    *state = pcl_retain(in);
  } else if (IS("secret:index:Resource")) {
    if (!secret_check(a, err)) {
      return false;
    }
    *state = pcl_retain(in);
  } else if (IS("constant:index:Resource")) {
    const char *k = sget(in, "kind");
    if (!is_unknown(get(in, "kind")) && (k == NULL || strcmp(k, "Constant") != 0)) {
      *err = pcl_error_new("check failed for %s: input 'kind' must be \"Constant\"", t);
      return false;
    }
    *state = pcl_retain(in);
  } else if (IS("any-handled:index:Resource")) {
    if (get(in, "value") == NULL) {
      *err = pcl_error_new("check failed for %s: missing required input 'value'", t);
      return false;
    }
    *state = pcl_retain(in);
  } else if (IS("asset-archive:index:AssetResource") || IS("asset-archive:index:ArchiveResource")) {
    pcl_value *v = unwrap(get(in, "value"));
    pcl_kind want = IS("asset-archive:index:AssetResource") ? PCL_T_ASSET : PCL_T_ARCHIVE;
    if (pcl_len(in) != 1 || v == NULL ||
        (pcl_kind_of(v) != want && pcl_kind_of(v) != PCL_T_UNKNOWN)) {
      *err = pcl_error_new("check failed for %s: 'value' must be the only input, an %s", t,
                           want == PCL_T_ASSET ? "asset" : "archive");
      return false;
    }
    *state = pcl_retain(in);
  } else if (IS("bytesource:index:Resource")) {
    const char *b = sget(in, "base64");
    char *raw;
    size_t len;
    if (b == NULL || !b64decode(b, &raw, &len)) {
      *err = pcl_error_new("check failed for %s: 'base64' must be valid base64", t);
      return false;
    }
    *state = with(in, "bytes", pcl_str_from_bytes(raw, len));
    free(raw);
  } else if (IS("bytesink:index:Resource")) {
    const char *e = sget(in, "expectBase64");
    pcl_value *bytes = unwrap(get(in, "bytes"));
    char *raw = NULL;
    size_t len = 0;
    if (!a->preview && (e == NULL || !b64decode(e, &raw, &len) || bytes == NULL ||
                        pcl_kind_of(bytes) != PCL_T_STRING || pcl_str_len(bytes) != len ||
                        memcmp(pcl_str_data(bytes), raw, len) != 0)) {
      free(raw);
      *err = pcl_error_new("bytesink: 'bytes' does not hold the bytes of 'expectBase64'");
      return false;
    }
    free(raw);
    *state = pcl_retain(in);
  } else if (IS("call:index:Custom")) {
    *id = NULL;
    *state = pcl_retain(in);
  } else if (IS("component:index:Custom") || IS("component-property-deps:index:Custom") ||
             IS("plaincomponent:index:Custom")) {
    *id = NULL;
    *state = pcl_retain(in);
  } else if (IS("configurer:index:Custom")) {
    *id = NULL;
    pcl_value *cfg = provider_config(a->provider, "configurer");
    pcl_value *c = get(cfg, "config");
    *state = with(in, "config", c ? pcl_retain(c) : pcl_null());
    pcl_release(cfg);
  } else if (IS("camelNames:CoolModule:SomeResource")) {
    if (a->id) {
      *state = map1("theOutput", pcl_bool(true));
      return true;
    }
    pcl_value *ti = get(in, "theInput");
    pcl_value *s = map1("theOutput", ti ? pcl_retain(ti) : pcl_null());
    pcl_value *rn = get(in, "resourceName");
    *state = rn ? with(s, "resourceName", pcl_retain(rn)) : pcl_retain(s);
    pcl_release(s);
  } else if (IS("config:index:Resource")) {
    pcl_value *text = get(in, "text");
    *state = map1("text", text && pcl_kind_of(unwrap(text)) == PCL_T_STRING
                              ? cat(": ", pcl_str_data(unwrap(text)))
                              : pcl_unknown());
  } else if (IS("config-enum:index:Resource") || IS("names:index:ResMap") ||
             IS("names:index:ResArray") || IS("names:index:ResList") ||
             IS("names:index:ResResource") || IS("names:mod:Res") || IS("names:mod/nested:Res") ||
             IS("namespaced:index:Resource") || IS("replaceonchanges:index:ResourceA") ||
             IS("replaceonchanges:index:ResourceB") || IS("reservednames:index:ElementType") ||
             IS("nestedobject:index:Receiver") ||
             IS("nestedobject:index:MapContainer") || IS("nestedobject:index:Target") ||
             IS("module-format:mod_Resource:Resource") ||
             IS("module-format:index_Resource:Resource") ||
             IS("module-format:mod/nested_Resource:Resource") ||
             IS("index-mod:indexMine:Resource") || IS("index-mod:indexMine/nested:Resource")) {
    if (strncmp(t, "names:", 6) == 0 && !CHECK(f_value_bool, true)) {
      return false;
    }
    *state = pcl_retain(in);
  } else if (IS("primitive-ref:index:Resource") || IS("ref-ref:index:Resource") ||
             IS("plain:index:Resource") || IS("optional-primitive-ref:index:Resource")) {
    /* Strict checks of the nested data. */
    bool ok = IS("primitive-ref:index:Resource") ? CHECK(f_primitive_ref, true)
              : IS("ref-ref:index:Resource")     ? CHECK(f_ref_ref, true)
              : IS("plain:index:Resource")       ? CHECK(f_plain, true)
                                                 : CHECK(f_optional_ref, true);
    if (!ok) {
      return false;
    }
    *state = pcl_retain(in);
  } else if (IS("keywords:index:SomeResource") || IS("keywords:lambda:SomeResource") ||
             IS("keywords:module:Lambda")) {
    if (!CHECK(f_keywords, true)) {
      return false;
    }
    *state = pcl_retain(in);
  } else if (IS("discriminated-union:index:Example") ||
             IS("discriminated-union-many:index:Example") ||
             IS("discriminated-union-many:index:SubsetExample") || IS("enum:index:Res") ||
             IS("enum:mod:Res") || IS("enum:mod/nested:Res") || IS("enum:index:Deluxe") ||
             IS("extenumref:index:Sink") || IS("union:index:Example")) {
    *id = "new-resource-id";
    *state = pcl_retain(in);
  } else if (IS("union:index:EnumOutput")) {
    *id = "enum-output-id";
    *state = with(in, "type", str("Block"));
  } else if (IS("discriminated-union-marked-key:index:Example")) {
    *id = "new-resource-id";
    pcl_mapbuf mb = PCL_MAPBUF_INIT;
    pcl_value *kind = str("variant1");
    pcl_mapbuf_put_cstr(&mb, "discriminantKind", a->preview ? pcl_unknown() : pcl_secret_new(kind));
    pcl_release(kind);
    pcl_mapbuf_put_cstr(&mb, "field1", str("hello"));
    pcl_value *u = get(in, "unionIn");
    pcl_mapbuf ob = PCL_MAPBUF_INIT;
    pcl_mapbuf_put_cstr(&ob, "unionIn", u ? pcl_retain(u) : pcl_null());
    pcl_mapbuf_put_cstr(&ob, "unionOut", pcl_mapbuf_finish(&mb));
    *state = pcl_mapbuf_finish(&ob);
  } else if (IS("docs:index:Resource")) {
    pcl_value *x = unwrap(get(in, "in"));
    pcl_mapbuf mb = PCL_MAPBUF_INIT;
    pcl_mapbuf_put_cstr(&mb, "in", x ? pcl_retain(get(in, "in")) : pcl_null());
    pcl_mapbuf_put_cstr(&mb, "out",
                        x && pcl_kind_of(x) == PCL_T_BOOL ? pcl_bool(!pcl_bool_get(x)) : pcl_unknown());
    pcl_mapbuf_put_cstr(&mb, "data", map1("state", str("internal data")));
    if (get(in, "externalEnum")) {
      pcl_mapbuf_put_cstr(&mb, "externalEnum", pcl_retain(get(in, "externalEnum")));
    }
    *state = pcl_mapbuf_finish(&mb);
  } else if (IS("kebab-names:kebab-module:someResource")) {
    pcl_value *nv = get(get(in, "nested"), "nestedValue");
    *state = map1("theOutput", map1("nestedOutput", nv ? pcl_retain(nv) : pcl_null()));
  } else if (IS("kebab-names:kebab-module:anotherResource")) {
    pcl_value *ti = get(in, "theInput");
    *state = map1("theInput", ti ? pcl_retain(ti) : pcl_null());
  } else if (IS("snake_names:cool_module:some_resource")) {
    pcl_value *nv = get(get(in, "nested"), "nested_value");
    pcl_value *item = map1("nested_output", nv ? pcl_retain(nv) : pcl_null());
    *state = map1("the_output", map1("someKey", pcl_list_of_take(&item, 1)));
  } else if (IS("snake_names:cool_module:another_resource")) {
    pcl_value *ti = get(in, "the_input");
    *state = map1("the_input", ti ? pcl_retain(ti) : pcl_null());
  } else if (IS("large:index:String")) {
    const char *v = sget(in, "value");
    if (v == NULL) {
      *state = pcl_retain(in);
      return true;
    }
    size_t len = strlen(v), times = len ? 104857600 / len : 0;
    char *buf = malloc(len * times + 1);
    for (size_t i = 0; i < times; i++) {
      memcpy(buf + i * len, v, len);
    }
    *state = map1("value", pcl_str_new_lossy(buf, len * times));
    free(buf);
  } else if (IS("large:index:Map")) {
    pcl_value *v = get(in, "value");
    pcl_value *d = unwrap(get(in, "depth"));
    int64_t depth = 0;
    if (d && pcl_kind_of(d) == PCL_T_INT) {
      pcl_int_get_i64(d, &depth);
    } else if (d && pcl_kind_of(d) == PCL_T_NUMBER) {
      depth = (int64_t)pcl_number_get(d);
    }
    pcl_value *x = map1("value", v ? pcl_retain(v) : pcl_null());
    for (int64_t i = 0; i < depth; i++) {
      x = map1("next", x);
    }
    *state = map1("value", x);
  } else if (IS("multi-argument-invoke:index:StringResource") ||
             IS("output-only-invoke:index:StringResource") ||
             IS("simple-invoke:index:StringResource") ||
             IS("simple-invoke-with-scalar-return:index:StringResource")) {
    if (IS("simple-invoke:index:StringResource") && pcl_len(in) != 1) {
      *err = pcl_error_new("check failed for %s: expected exactly one input", t);
      return false;
    }
    *state = map1("text", str("Goodbye"));
    if (!a->preview && IS("simple-invoke:index:StringResource")) {
      /* Each real create records the text "Goodbye" as created. */
      mk.goodbyes++;
    }
  } else if (IS("nestedcollections:index:Foo")) {
    pcl_value *p = map1("prop", str("first"));
    pcl_value *q = map1("prop", str("second"));
    pcl_value *pq[2] = {p, q};
    pcl_value *inner = pcl_list_of_take(pq, 2);
    pcl_value *mid = pcl_list_of_take(&inner, 1);
    pcl_value *outer = pcl_list_of_take(&mid, 1);
    pcl_value *s1 = with(in, "conditionSets", outer);
    *state = with(s1, "privateEndpoint", map1("outer", map1("inner", map1("leaf", str("deep")))));
    pcl_release(s1);
  } else if (IS("nestedobject:index:Container")) {
    pcl_value *xs = unwrap(get(in, "inputs"));
    if (xs == NULL || pcl_kind_of(xs) != PCL_T_LIST) {
      *state = pcl_retain(in);
      return true;
    }
    pcl_value *l = pcl_list_new(pcl_len(xs));
    for (size_t i = 0; i < pcl_len(xs); i++) {
      pcl_value *x = pcl_list_at(xs, i);
      pcl_value *ux = unwrap(x);
      pcl_mapbuf mb = PCL_MAPBUF_INIT;
      pcl_mapbuf_put_cstr(&mb, "key", pcl_retain(x));
      pcl_mapbuf_put_cstr(&mb, "value", ux && pcl_kind_of(ux) == PCL_T_STRING
                                            ? cat("computed-", pcl_str_data(ux))
                                            : pcl_unknown());
      pcl_list_init_take(l, i, pcl_mapbuf_finish(&mb));
    }
    *state = with(in, "details", l);
  } else if (IS("optionalprimitive:index:Resource")) {
    pcl_mapbuf mb = PCL_MAPBUF_INIT;
    for (size_t i = 0; i < pcl_len(in); i++) {
      if (pcl_kind_of(pcl_map_val_at(in, i)) != PCL_T_NULL) {
        pcl_mapbuf_put_take(&mb, pcl_retain(pcl_map_key_at(in, i)),
                            pcl_retain(pcl_map_val_at(in, i)));
      }
    }
    *state = pcl_mapbuf_finish(&mb);
  } else if (IS("output:index:Resource") || IS("output:index:ComplexResource")) {
    pcl_value *cfg = provider_config(a->provider, "output");
    bool elide = truthy(get(cfg, "elideUnknowns"));
    pcl_release(cfg);
    pcl_value *v = get(in, "value");
    pcl_mapbuf mb = PCL_MAPBUF_INIT;
    pcl_mapbuf_put_cstr(&mb, "value", v ? pcl_retain(v) : pcl_null());
    if (!(a->preview && elide)) {
      pcl_value *s = a->preview ? pcl_unknown() : hellos(v);
      if (IS("output:index:Resource")) {
        pcl_mapbuf_put_cstr(&mb, "output", pcl_retain(s));
        pcl_mapbuf_put_cstr(&mb, "secretOutput", pcl_retain(s));
      } else {
        pcl_value *one = pcl_retain(s);
        pcl_mapbuf_put_cstr(&mb, "outputArray", pcl_list_of_take(&one, 1));
        pcl_mapbuf m6 = PCL_MAPBUF_INIT;
        static const char *const keys[] = {"a", "d", "m", "t", "x", "z"};
        for (size_t i = 0; i < 6; i++) {
          pcl_mapbuf_put_cstr(&m6, keys[i], pcl_retain(s));
        }
        pcl_mapbuf_put_cstr(&mb, "outputMap", pcl_mapbuf_finish(&m6));
        pcl_mapbuf_put_cstr(&mb, "outputObject", map1("output", pcl_retain(s)));
      }
      pcl_release(s);
    }
    *state = pcl_mapbuf_finish(&mb);
  } else if (IS("read:index:Resource")) {
    if (a->id) {
      pcl_value *l = get(in, "lookup");
      if (l == NULL) {
        *err = pcl_error_new("read of %s: missing input 'lookup'", t);
        return false;
      }
      *id = NULL;
      *state = with(in, "value", pcl_bool(true));
      return true;
    }
    *id = "created";
    *state = pcl_retain(in);
  } else if (IS("extbase:index:Base")) {
    *state = map1("baseValue", str("base"));
  } else if (IS("flaky:index:FlakyCreate")) {
    /* The first real Create of a provider instance fails; later ones
     * succeed with no outputs. */
    const char *prov = a->provider ? a->provider : "";
    bool first = !a->preview && !seen_flaky(prov);
    if (first) {
      *err = pcl_error_new("first create attempt fails");
      return false;
    }
    *state = pcl_map_of(NULL, NULL, 0);
  } else {
    char pkg[128];
    const char *rest = split_token(t, pkg, sizeof pkg);
    const char *colon = rest[0] ? rest - 1 : NULL;
    const char *pv = param_value(pkg);
    if (pv && extbase_extension(pkg) && strcmp(rest, "index:Greeting") == 0) {
      /* An extension's resource answers its parameter value. */
      *state = map1("parameterValue", str(pv));
      return true;
    }
    if (pv && !extbase_extension(pkg) && strncmp(colon ? colon : "", ":index:", 7) == 0 &&
        strcmp(colon + 7, pv) == 0) {
      /* A resource of a replacement-parameterized package (parameterized@1.2.3). */
      pcl_value *cfg = provider_config(a->provider, pkg);
      const char *text = sget(cfg, "text");
      pcl_strbuf sb = PCL_STRBUF_INIT;
      pcl_strbuf_appendf(&sb, text ? "%s %s" : "%s", pv, text);
      pcl_release(cfg);
      *state = map1("parameterValue", pcl_str_new_lossy(sb.data, sb.len));
      pcl_strbuf_free(&sb);
      return true;
    }
    *err = pcl_error_new("no test provider behaviour for resource type %s "
                         "(tests/conformance/mocks.c)", t);
    return false;
  }
#undef IS
  return true;
}

/* ------------------------------------------------------------ Construct */

static const pcl_resource_decl mk_component_custom = {
    .type = "component:index:Custom", .kind = PCL_RES_CUSTOM, .version = "13.3.7"};
static const pcl_resource_decl mk_simple_resource = {
    .type = "simple:index:Resource", .kind = PCL_RES_CUSTOM, .version = "2.0.0"};
static const pcl_resource_decl mk_plain_custom = {
    .type = "plaincomponent:index:Custom", .kind = PCL_RES_CUSTOM, .version = "36.0.0"};

/* Registers, as a provider's Construct does through the engine, the child
 * `<component name>-child` of decl with {value: value} (value taken) under
 * the component a, using the provider reference provider (NULL: the
 * default provider).  Returns the child's URN (owned). */
static char *construct_child_with(const pcl_mock_resource_args *a, const pcl_resource_decl *decl,
                                  pcl_value *value, const char *provider) {
  pcl_strbuf name = PCL_STRBUF_INIT;
  pcl_strbuf_appendf(&name, "%s-child", a->name);
  pcl_value *inputs = map1("value", value);
  pcl_mapbuf ob = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_cstr(&ob, "parent", str(a->urn));
  if (provider) {
    char *u = ref_urn(provider);
    pcl_value *uv = str(u);
    pcl_value *iv = str(provider + strlen(u) + 2);
    pcl_mapbuf_put_cstr(&ob, "provider", pcl_resource_new(uv, iv, NULL));
    pcl_release(uv);
    pcl_release(iv);
    free(u);
  }
  pcl_value *opts = pcl_mapbuf_finish(&ob);
  pcl_future *f = pcl_register_resource(pcl_run_current(), decl, name.data, inputs, opts);
  pcl_future_release(f);
  pcl_release(inputs);
  pcl_release(opts);
  /* The URN: the component's stack and project, the component as parent. */
  const char *p = a->urn + strlen("urn:pulumi:");
  const char *sep = strstr(p, "::");
  const char *sep2 = sep ? strstr(sep + 2, "::") : NULL;
  char *stack = strndup(p, sep ? (size_t)(sep - p) : 0);
  char *project = sep2 ? strndup(sep + 2, (size_t)(sep2 - sep - 2)) : strdup("");
  char *urn = pcl_urn_make(stack, project, a->urn, decl->type, name.data);
  free(stack);
  free(project);
  pcl_strbuf_free(&name);
  return urn;
}

/* Registers the child `<component name>-child` of decl with {value: value}
 * (taken) under the component a, with the component's own provider. */
static char *construct_child(const pcl_mock_resource_args *a, const pcl_resource_decl *decl,
                             pcl_value *value) {
  return construct_child_with(a, decl, value, a->provider);
}

/* Returns a resource reference to urn with id "id-<value>" (unknown in a
 * preview). */
static pcl_value *child_ref(const pcl_mock_resource_args *a, const char *urn, const char *value) {
  pcl_value *u = str(urn);
  pcl_value *id = a->preview ? pcl_unknown() : cat("id-", value);
  pcl_value *r = pcl_resource_new(u, id, NULL);
  pcl_release(u);
  pcl_release(id);
  return r;
}

static const pcl_resource_decl mk_configurer_provider = {
    .type = "pulumi:providers:configurer", .kind = PCL_RES_CUSTOM, .version = "38.0.0"};

/* A configurer:index:Configurer Construct waiting for its inner provider. */
typedef struct mk_configurer {
  pcl_mock_reply *reply; /* The Construct's answer, deferred. */
  char *urn;             /* The component's URN (owned). */
  pcl_value *config;     /* Its providerConfig input (owned). */
} mk_configurer;

/* Answers a Configurer Construct once its inner provider is registered:
 * outputs {providerConfig, innerProviderRef}, remembered for the methods. */
static void configurer_done(pcl_future *f, void *data) {
  mk_configurer *c = data;
  pcl_value *prov = pcl_future_value(f);
  if (pcl_future_state_of(f) != PCL_FUTURE_RESOLVED || prov == NULL) {
    pcl_error *err = pcl_error_new("Construct of configurer:index:Configurer: the inner provider "
                                   "could not be registered");
    pcl_mock_reply_resource(c->reply, NULL, NULL, err);
    pcl_error_free(err);
  } else {
    pcl_value *id = get(prov, "id");
    pcl_value *ref = pcl_resource_new(get(prov, "urn"), id && pcl_kind_of(id) == PCL_T_STRING ? id
                                                                                            : NULL,
                                      NULL);
    pcl_mapbuf mb = PCL_MAPBUF_INIT;
    pcl_mapbuf_put_cstr(&mb, "providerConfig", pcl_retain(c->config));
    pcl_mapbuf_put_cstr(&mb, "innerProviderRef", ref);
    pcl_value *state = pcl_mapbuf_finish(&mb);
    mk_rec *r = find(c->urn);
    if (r != NULL) {
      pcl_release(r->state);
      r->state = pcl_retain(state);
    }
    pcl_mock_reply_resource(c->reply, NULL, state, NULL);
    pcl_release(state);
  }
  free(c->urn);
  pcl_release(c->config);
  free(c);
}

/* The Construct of configurer:index:Configurer: the component registers an
 * inner provider, pulumi:providers:configurer named <name>-inner-provider,
 * its child, configured with {config: providerConfig}, and answers once that
 * provider exists (its reference is an output). */
static void configurer_construct(const pcl_mock_resource_args *a) {
  mk_configurer *c = malloc(sizeof *c);
  c->reply = pcl_mock_defer(a);
  c->urn = strdup(a->urn);
  pcl_value *cfg = get(a->inputs, "providerConfig");
  c->config = cfg ? pcl_retain(cfg) : pcl_null();
  pcl_strbuf name = PCL_STRBUF_INIT;
  pcl_strbuf_appendf(&name, "%s-inner-provider", a->name);
  pcl_value *inputs = map1("config", pcl_retain(c->config));
  pcl_value *opts = map1("parent", str(a->urn));
  pcl_future *f = pcl_register_resource(pcl_run_current(), &mk_configurer_provider, name.data,
                                        inputs, opts);
  pcl_future_then(f, configurer_done, c);
  pcl_future_release(f);
  pcl_release(inputs);
  pcl_release(opts);
  pcl_strbuf_free(&name);
}

/* Returns the parameter value (borrowed) when type is the component of a
 * parameterized package: <P>:index:<X>Component of a replacement
 * parameterization whose value is X, or <E>:index:GreetingComponent of an
 * extension of extbase; else NULL. */
static const char *param_component(const char *type) {
  char pkg[128];
  const char *rest = split_token(type, pkg, sizeof pkg);
  const char *pv = param_value(pkg);
  if (pv == NULL || strncmp(rest, "index:", 6) != 0) {
    return NULL;
  }
  const char *name = rest + 6;
  if (extbase_extension(pkg)) {
    return strcmp(name, "GreetingComponent") == 0 ? pv : NULL;
  }
  size_t n = strlen(pv);
  return strncmp(name, pv, n) == 0 && strcmp(name + n, "Component") == 0 ? pv : NULL;
}

/* Returns whether type is a component type of a test provider's schema
 * (isComponent), served by the provider's Construct. */
static bool is_component(const char *type) {
  if (param_component(type) != NULL) {
    return true;
  }
  static const char *const components[] = {
      "component:index:ComponentCustomRefOutput", "component:index:ComponentCustomRefInputOutput",
      "component:index:ComponentCallable",        "component:index:ComponentForeignChild",
      "component-property-deps:index:Component",  "configurer:index:Configurer",
      "plaincomponent:index:Component",
  };
  for (size_t i = 0; i < sizeof components / sizeof components[0]; i++) {
    if (strcmp(type, components[i]) == 0) {
      return true;
    }
  }
  return false;
}

/* Answers a remote component (the provider's Construct); returns false with
 * *err for a component this file cannot construct. */
static bool construct(const pcl_mock_resource_args *a, pcl_value **state, pcl_error **err) {
  const char *t = a->type;
  pcl_value *in = a->inputs;
  if (strcmp(t, "component:index:ComponentCustomRefOutput") == 0 ||
      strcmp(t, "component:index:ComponentCallable") == 0) {
    pcl_value *v = get(in, "value");
    char *urn = construct_child(a, &mk_component_custom, v ? pcl_retain(v) : pcl_null());
    pcl_value *m = map1("value", v ? pcl_retain(v) : pcl_null());
    if (strcmp(t, "component:index:ComponentCustomRefOutput") == 0) {
      const char *sv = sget(in, "value");
      *state = with(m, "ref", child_ref(a, urn, sv ? sv : ""));
      pcl_release(m);
    } else {
      *state = m;
    }
    free(urn);
    return true;
  }
  if (strcmp(t, "component:index:ComponentCustomRefInputOutput") == 0) {
    pcl_value *ref = unwrap(get(in, "inputRef"));
    mk_rec *r = NULL;
    if (ref && pcl_kind_of(ref) == PCL_T_RESOURCE) {
      r = find(pcl_str_data(pcl_resource_urn(ref)));
    }
    if (r == NULL && !(ref && pcl_kind_of(ref) == PCL_T_UNKNOWN)) {
      *err = pcl_error_new("Construct of %s: getResource cannot hydrate 'inputRef'", t);
      return false;
    }
    pcl_value *v = r ? get(r->state, "value") : NULL;
    char *urn = construct_child(a, &mk_component_custom, v ? pcl_retain(v) : pcl_unknown());
    const char *sv = r ? sget(r->state, "value") : NULL;
    pcl_mapbuf mb = PCL_MAPBUF_INIT;
    pcl_mapbuf_put_cstr(&mb, "inputRef", pcl_retain(get(in, "inputRef")));
    pcl_mapbuf_put_cstr(&mb, "outputRef", child_ref(a, urn, sv ? sv : ""));
    *state = pcl_mapbuf_finish(&mb);
    free(urn);
    return true;
  }
  if (strcmp(t, "component:index:ComponentForeignChild") == 0) {
    /* The child is a simple 2.0.0 resource using the provider handed to
     * Construct under the key "simple". */
    pcl_value *ref = get(a->providers, "simple");
    const char *prov = ref && pcl_kind_of(ref) == PCL_T_STRING ? pcl_str_data(ref) : NULL;
    pcl_value *v = get(in, "value");
    char *urn = construct_child_with(a, &mk_simple_resource, v ? pcl_retain(v) : pcl_null(), prov);
    free(urn);
    *state = map1("value", v ? pcl_retain(v) : pcl_null());
    return true;
  }
  const char *pv = param_component(t);
  if (pv != NULL) {
    /* The component of a parameterized package registers nothing; its
     * output is the parameter value and "Component". */
    *state = map1("parameterValue", cat(pv, "Component"));
    return true;
  }
  if (strcmp(t, "configurer:index:Configurer") == 0) {
    /* Answered once the inner provider is registered (configurer_done). */
    configurer_construct(a);
    return true;
  }
  if (strcmp(t, "component-property-deps:index:Component") == 0) {
    /* The output is the property-dependency map the engine handed to
     * Construct. */
    if (a->prop_deps == NULL) {
      *err = pcl_error_new("Construct of %s: the engine handed no property dependencies", t);
      return false;
    }
    *state = map1("propertyDeps", pcl_retain(a->prop_deps));
    return true;
  }
  if (strcmp(t, "plaincomponent:index:Component") == 0) {
    const char *name = sget(in, "name");
    pcl_value *enabled = unwrap(get(get(in, "settings"), "enabled"));
    bool off = enabled && pcl_kind_of(enabled) == PCL_T_BOOL && !pcl_bool_get(enabled);
    pcl_value *label = cat(name ? name : "", off ? " (disabled)" : "");
    char *urn = construct_child(a, &mk_plain_custom, pcl_retain(label));
    free(urn);
    *state = map1("label", label);
    return true;
  }
  *err = pcl_error_new("no test provider behaviour for component %s (tests/conformance/mocks.c)",
                       t);
  return false;
}

/* Returns whether the provider of type answers a preview Create with its
 * id (BEHAVIOUR.md: "also in preview"); the others answer "", an id the
 * engine takes as unknown. */
static bool id_in_preview(const char *type) {
  static const char *const types[] = {
      "config-enum:index:Resource",           "discriminated-union:index:Example",
      "discriminated-union-many:index:Example", "discriminated-union-many:index:SubsetExample",
      "enum:index:Res",                       "enum:mod:Res",
      "enum:mod/nested:Res",                  "enum:index:Deluxe",
  };
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
    if (strcmp(type, types[i]) == 0) {
      return true;
    }
  }
  return false;
}

/* pcl_mocks.new_resource: dispatches on the type token. */
static bool mk_new_resource(void *data, const pcl_mock_resource_args *a, pcl_value **id,
                            pcl_value **state, pcl_error **err) {
  (void)data;
  answering(a->package);
  const char *want_id = NULL;
  bool ok;
  if (strcmp(a->type, "sync:index:Block") == 0) {
    /* Each Create joins a barrier of three and waits for the other two:
     * the answers are deferred until three Creates are in flight.  A
     * barrier that never fills leaves them pending, and the run ends with
     * an error naming what it still waits for (the provider's timeout). */
    mk.barrier[mk.nbarrier++] = pcl_mock_defer(a);
    if (mk.nbarrier == MK_BARRIER) {
      pcl_value *empty = pcl_map_of(NULL, NULL, 0);
      for (size_t i = 0; i < MK_BARRIER; i++) {
        pcl_mock_reply_resource(mk.barrier[i], NULL, empty, NULL);
      }
      pcl_release(empty);
      mk.nbarrier = 0;
    }
    remember(a, NULL);
    return true;
  }
  if (strncmp(a->type, "pulumi:providers:", 17) == 0) {
    ok = provider_resource(a, state, err);
  } else if (is_component(a->type)) {
    ok = construct(a, state, err);
  } else {
    ok = custom_resource(a, &want_id, state, err);
    /* Ids named id-<name> (call) and id-<value> (component) are built here. */
    if (ok && want_id == NULL && a->id == NULL) {
      if (strcmp(a->type, "call:index:Custom") == 0 ||
          strcmp(a->type, "configurer:index:Custom") == 0) {
        *id = cat("id-", a->name);
      } else {
        const char *v = sget(a->inputs, "value");
        *id = cat("id-", v ? v : "");
      }
    } else if (ok && want_id && a->id == NULL) {
      *id = str(want_id);
    }
    if (ok && a->preview && a->id == NULL && !id_in_preview(a->type)) {
      pcl_release(*id);
      *id = NULL;
    }
  }
  if (ok) {
    remember(a, *state);
  }
  return ok;
}

/* ------------------------------------------------------------ invokes, calls */

/* Returns an error for an invoke whose required argument is unknown. */
static pcl_value *need(pcl_value *args, const char *k, const char *token, pcl_error **err) {
  pcl_value *v = get(args, k);
  if (v == NULL || is_unknown(v)) {
    *err = pcl_error_new("invoke %s: argument '%s' is %s", token, k,
                         v ? "unknown" : "missing");
    return NULL;
  }
  return v;
}

/* Returns "<value> world" keeping the secretness of value. */
static pcl_value *world(pcl_value *v) {
  pcl_value *u = unwrap(v);
  pcl_value *s = cat(pcl_kind_of(u) == PCL_T_STRING ? pcl_str_data(u) : "", " world");
  if (pcl_kind_of(v) == PCL_T_SECRET) {
    pcl_value *w = pcl_secret_new(s);
    pcl_release(s);
    return w;
  }
  return s;
}

static bool ends_with(const char *s, const char *suffix) {
  size_t a = strlen(s), b = strlen(suffix);
  return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* Answers an invoke. */
static pcl_value *invoke(const char *tok, pcl_value *args, pcl_error **err) {
#define IS(x) (strcmp(tok, x) == 0)
  pcl_value *v;
  if (IS("any-type-function:index:dynListToDyn")) {
    v = unwrap(get(args, "inputs"));
    if (v == NULL || pcl_kind_of(v) != PCL_T_LIST) {
      *err = pcl_error_new("invoke %s: 'inputs' must be a list", tok);
      return NULL;
    }
    return map1("result", map1("resultProperty", str("resultValue")));
  }
  if (IS("component:index:identity")) {
    v = get(args, "input");
    return map1("result", v ? pcl_retain(v) : pcl_null());
  }
  if (IS("config:index:getConfig")) {
    if ((v = need(args, "text", tok, err)) == NULL) {
      return NULL;
    }
    /* The name the provider the engine chose was configured with. */
    pcl_value *cfg = provider_config(pcl_mock_call_provider(), "config");
    const char *name = sget(cfg, "name");
    pcl_value *head = cat(name ? name : "", ": ");
    pcl_value *r = cat(pcl_str_data(head), sget(args, "text") ? sget(args, "text") : "");
    pcl_release(head);
    pcl_release(cfg);
    return map1("text", r);
  }
  if (IS("docs:index:fun")) {
    v = unwrap(get(args, "in"));
    return map1("out", v && pcl_kind_of(v) == PCL_T_BOOL ? pcl_bool(!pcl_bool_get(v)) : pcl_null());
  }
  if ((strncmp(tok, "index-mod:", 10) == 0 || strncmp(tok, "module-format:", 14) == 0) &&
      ends_with(tok, ":concatWorld")) {
    if ((v = need(args, "value", tok, err)) == NULL) {
      return NULL;
    }
    return map1("result", world(v));
  }
  if (IS("multi-argument-invoke:index:multiArgumentInvoke")) {
    if ((v = need(args, "first", tok, err)) == NULL) {
      return NULL;
    }
    pcl_value *second = get(args, "second");
    if (second && pcl_kind_of(unwrap(second)) == PCL_T_STRING) {
      pcl_value *sp = cat(sget(args, "first") ? sget(args, "first") : "", " ");
      pcl_value *r = cat(pcl_str_data(sp), pcl_str_data(unwrap(second)));
      pcl_release(sp);
      return map1("result", r);
    }
    return map1("result", pcl_retain(v));
  }
  if (IS("nestedobject:index:getValues")) {
    v = get(args, "names");
    return map1("results", v ? pcl_retain(v) : pcl_null());
  }
  if (IS("primitive:index:invoke")) {
    return pcl_retain(args);
  }
  if (IS("simple-invoke:index:myInvoke") || IS("output-only-invoke:index:myInvoke")) {
    if ((v = need(args, "value", tok, err)) == NULL) {
      return NULL;
    }
    return map1("result", world(v));
  }
  if (IS("simple-invoke:index:myInvokeScalar") || IS("output-only-invoke:index:myInvokeScalar") ||
      IS("simple-invoke-with-scalar-return:index:myInvokeScalar")) {
    return map1("result", pcl_bool(true));
  }
  if (IS("simple-invoke:index:unit") || IS("output-only-invoke:index:unit")) {
    if (pcl_len(args) != 0) {
      *err = pcl_error_new("invoke %s takes no arguments", tok);
      return NULL;
    }
    return map1("result", str("Hello world"));
  }
  if (IS("simple-invoke:index:secretInvoke") || IS("output-only-invoke:index:secretInvoke")) {
    if ((v = need(args, "value", tok, err)) == NULL ||
        need(args, "secretResponse", tok, err) == NULL) {
      return NULL;
    }
    pcl_value *sr = get(args, "secretResponse");
    bool secret = truthy(sr) || pcl_kind_of(v) == PCL_T_SECRET;
    pcl_value *w = world(unwrap(v));
    pcl_mapbuf mb = PCL_MAPBUF_INIT;
    pcl_mapbuf_put_cstr(&mb, "response", secret ? pcl_secret_new(w) : pcl_retain(w));
    pcl_release(w);
    pcl_mapbuf_put_cstr(&mb, "secret", pcl_retain(sr));
    return pcl_mapbuf_finish(&mb);
  }
  if (IS("simple-invoke:index:getText")) {
    if ((v = need(args, "text", tok, err)) == NULL) {
      return NULL;
    }
    const char *text = sget(args, "text");
    if (mk.goodbyes == 0 || text == NULL || strcmp(text, "Goodbye") != 0) {
      *err = pcl_error_new("invoke %s: no StringResource with text '%s' was created yet", tok,
                           sget(args, "text"));
      return NULL;
    }
    return map1("result", world(v));
  }
  if (IS("scalar-returns:index:invokeSecret")) {
    if ((v = need(args, "value", tok, err)) == NULL) {
      return NULL;
    }
    pcl_value *u = unwrap(v);
    pcl_value *n = pcl_int_new((int64_t)(pcl_kind_of(u) == PCL_T_STRING ? pcl_str_len(u) : 0));
    pcl_value *s = pcl_secret_new(n);
    pcl_release(n);
    return map1("result", s);
  }
  if (IS("scalar-returns:index:invokeArray")) {
    if ((v = need(args, "value", tok, err)) == NULL) {
      return NULL;
    }
    pcl_value *u = unwrap(v);
    const char *s = pcl_kind_of(u) == PCL_T_STRING ? pcl_str_data(u) : "";
    size_t n = strlen(s);
    pcl_value *l = pcl_list_new(n);
    for (size_t i = 0; i < n; i++) {
      pcl_list_init_take(l, i, pcl_bool(strchr("aeiou", s[i]) != NULL && s[i] != 0));
    }
    return map1("result", l);
  }
  if (IS("scalar-returns:index:invokeMap")) {
    if ((v = need(args, "value", tok, err)) == NULL) {
      return NULL;
    }
    pcl_value *m = map1("value", world(unwrap(v)));
    const char *s = sget(args, "value");
    if (s && strcmp(s, "secret") == 0) {
      pcl_value *w = pcl_secret_new(m);
      pcl_release(m);
      m = w;
    }
    return map1("result", m);
  }
  if (IS("snake_names:cool_module:some_data")) {
    pcl_value *nested = unwrap(get(args, "nested"));
    pcl_value *first = nested && pcl_kind_of(nested) == PCL_T_LIST && pcl_len(nested) > 0
                           ? get(unwrap(pcl_list_at(nested, 0)), "value")
                           : NULL;
    pcl_value *item = map1("key", map1("value", first ? pcl_retain(first) : pcl_null()));
    return map1("nested_output", pcl_list_of_take(&item, 1));
  }
  if (IS("config-grpc:index:toSecret")) {
    /* The same arguments, each marked secret. */
    pcl_mapbuf mb = PCL_MAPBUF_INIT;
    for (size_t i = 0; i < pcl_len(args); i++) {
      pcl_mapbuf_put_take(&mb, pcl_retain(pcl_map_key_at(args, i)),
                          pcl_secret_new(pcl_map_val_at(args, i)));
    }
    return pcl_mapbuf_finish(&mb);
  }
  /* An invoke of a parameterized package: greet of an extension of
   * extbase, P:index:do<X> of a replacement parameterization. */
  const char *colon = strchr(tok, ':');
  if (colon) {
    char pkg[128];
    snprintf(pkg, sizeof pkg, "%.*s", (int)(colon - tok), tok);
    const char *pv = param_value(pkg);
    if (pv && extbase_extension(pkg) && strcmp(colon, ":index:greet") == 0) {
      if ((v = need(args, "name", tok, err)) == NULL) {
        return NULL;
      }
      pcl_value *head = cat(pv, ", ");
      pcl_value *r = cat(pcl_str_data(head), sget(args, "name") ? sget(args, "name") : "");
      pcl_release(head);
      return map1("greeting", r);
    }
    if (pv && strncmp(colon, ":index:do", 9) == 0 && strcasecmp(colon + 9, pv) == 0) {
      pcl_value *in = get(args, "input");
      pcl_value *u = unwrap(in);
      return map1("output", cat(u && pcl_kind_of(u) == PCL_T_STRING ? pcl_str_data(u) : "", pv));
    }
  }
#undef IS
  *err = pcl_error_new("no test provider behaviour for function %s (tests/conformance/mocks.c)",
                       tok);
  return NULL;
}

static pcl_value *method_of(mk_rec *r, const char *tok, const char *name, pcl_value *args,
                            pcl_error **err);

/* Answers a method call; args holds the receiver as __self__. */
static pcl_value *method(const char *tok, pcl_value *args, pcl_error **err) {
  pcl_value *self = get(args, "__self__");
  mk_rec *r = NULL;
  if (self && pcl_kind_of(self) == PCL_T_RESOURCE &&
      pcl_kind_of(pcl_resource_urn(self)) == PCL_T_STRING) {
    r = find(pcl_str_data(pcl_resource_urn(self)));
  }
  if (r == NULL) {
    *err = pcl_error_new("call %s: the receiver cannot be hydrated (getResource)", tok);
    return NULL;
  }
  /* A method token is "<receiver type>/<method>"; a bare method name is
   * qualified with the receiver's type. */
  const char *slash = strrchr(tok, '/');
  const char *name = slash ? slash + 1 : tok;
  pcl_strbuf full = PCL_STRBUF_INIT;
  if (slash == NULL) {
    pcl_strbuf_appendf(&full, "%s/%s", r->type, tok);
    tok = full.data;
  }
  pcl_value *res = method_of(r, tok, name, args, err);
  pcl_strbuf_free(&full);
  return res;
}

/* Answers the method tok (named name) of the receiver r. */
static pcl_value *method_of(mk_rec *r, const char *tok, const char *name, pcl_value *args,
                            pcl_error **err) {
  if (strcmp(tok, "call:index:Custom/providerValue") == 0) {
    pcl_value *cfg = provider_config(r->provider, "call");
    const char *pv = sget(cfg, "value");
    const char *sv = sget(r->state, "value");
    pcl_value *res = cat(pv ? pv : "", sv ? sv : "");
    pcl_release(cfg);
    return map1("result", res);
  }
  if (strcmp(tok, "pulumi:providers:call/identity") == 0 ||
      strcmp(tok, "pulumi:providers:call/prefixed") == 0) {
    const char *pv = sget(r->inputs, "value");
    const char *prefix = sget(args, "prefix");
    return map1("result", cat(prefix && strcmp(name, "prefixed") == 0 ? prefix : "", pv ? pv : ""));
  }
  if ((strncmp(tok, "index-mod:", 10) == 0 || strncmp(tok, "module-format:", 14) == 0) &&
      strcmp(name, "call") == 0) {
    pcl_value *in = unwrap(get(args, "input"));
    const char *text = sget(r->state, "text");
    size_t n = (in && pcl_kind_of(in) == PCL_T_STRING ? pcl_str_len(in) : 0) +
               (text ? strlen(text) : 0);
    return map1("output", pcl_int_new((int64_t)n));
  }
  if (strcmp(tok, "component-property-deps:index:Component/refs") == 0) {
    /* The result is the argument-dependency map of the call. */
    pcl_value *deps = pcl_mock_call_arg_deps();
    if (deps == NULL) {
      *err = pcl_error_new("call %s: the engine handed no argument dependencies", tok);
      return NULL;
    }
    return map1("result", pcl_retain(deps));
  }
  if (strcmp(tok, "configurer:index:Configurer/plainValue") == 0) {
    return map1("res", pcl_int_new(42));
  }
  if (strcmp(tok, "configurer:index:Configurer/plainProvider") == 0 ||
      strcmp(tok, "configurer:index:Configurer/nestedPlainProvider") == 0) {
    /* The reference to the inner provider the Construct registered. */
    pcl_value *ref = get(r->state, "innerProviderRef");
    if (ref == NULL) {
      *err = pcl_error_new("call %s: the component has no inner provider", tok);
      return NULL;
    }
    if (strcmp(name, "plainProvider") == 0) {
      return map1("res", pcl_retain(ref));
    }
    pcl_mapbuf mb = PCL_MAPBUF_INIT;
    pcl_mapbuf_put_cstr(&mb, "provider", pcl_retain(ref));
    pcl_mapbuf_put_cstr(&mb, "value", pcl_int_new(42));
    return pcl_mapbuf_finish(&mb);
  }
  if (strcmp(tok, "component:index:ComponentCallable/identity") == 0 ||
      strcmp(tok, "component:index:ComponentCallable/prefixed") == 0) {
    const char *sv = sget(r->state, "value");
    const char *prefix = sget(args, "prefix");
    return map1("result", cat(prefix && strcmp(name, "prefixed") == 0 ? prefix : "", sv ? sv : ""));
  }
  *err = pcl_error_new("no test provider behaviour for method %s (tests/conformance/mocks.c)", tok);
  return NULL;
}

/* pcl_mocks.call: invokes and method calls. */
static pcl_value *mk_call(void *data, const char *token, pcl_value *args, bool is_call,
                          bool *hang, pcl_error **err) {
  (void)data;
  *hang = false;
  answering(pcl_mock_call_package());
  return is_call ? method(token, args, err) : invoke(token, args, err);
}

/* ------------------------------------------------------------ entry */

/* Decodes the JSON of environment variable name; NULL when unset or bad. */
static pcl_value *env_json(const char *name) {
  const char *s = getenv(name);
  if (s == NULL || *s == 0) {
    return NULL;
  }
  pcl_error *err = NULL;
  pcl_value *v = pcl_json_decode(s, strlen(s), 0, &err);
  if (v == NULL) {
    fprintf(stderr, "mocks: %s is not JSON: %s\n", name, pcl_error_message(err));
    pcl_error_free(err);
  }
  return v;
}

/* Installs the mocks. */
static void mocks_install(void) {
  static const pcl_mocks mocks = {.new_resource = mk_new_resource, .call = mk_call};
  mk.config = env_json("PULUMI_CONFIG");
  pcl_main_set_mocks(&mocks);
}

/* Frees what the mocks kept once the run is over. */
static void mocks_free(void) {
  for (size_t i = 0; i < mk.n; i++) {
    free(mk.recs[i].urn);
    free(mk.recs[i].type);
    free(mk.recs[i].provider);
    pcl_release(mk.recs[i].inputs);
    pcl_release(mk.recs[i].state);
  }
  free(mk.recs);
  mk.nbarrier = 0;
  pcl_release(mk.config);
  answering(NULL);
  pcl_release(mk.flaky);
  mk.flaky = NULL;
}

/* The mocks around the real entry points: pcl_main, which C programs call,
 * and pcl_gen_main, which the C that pclc writes calls (it calls pcl_main
 * inside the library, where a wrap cannot reach). */
int __real_pcl_main(int argc, char **argv, const pcl_program *program);
int __wrap_pcl_main(int argc, char **argv, const pcl_program *program);
int __real_pcl_gen_main(int argc, char **argv, const pcl_gen_program *program);
int __wrap_pcl_gen_main(int argc, char **argv, const pcl_gen_program *program);

int __wrap_pcl_main(int argc, char **argv, const pcl_program *program) {
  mocks_install();
  int rc = __real_pcl_main(argc, argv, program);
  mocks_free();
  return rc;
}

int __wrap_pcl_gen_main(int argc, char **argv, const pcl_gen_program *program) {
  mocks_install();
  int rc = __real_pcl_gen_main(argc, argv, program);
  mocks_free();
  return rc;
}
