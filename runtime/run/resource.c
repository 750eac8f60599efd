/* resource.c: what a run does for the program's registrations, reads,
 * invokes, calls and outputs (lowering.md §6, program.md §3.4–3.7, §4, §7).
 *
 * Takes input and option MAPs whose entries may hold futures; awaits them
 * (each input separately, for its property dependencies), turns the options
 * into the engine's terms (parent and provider URNs, dependsOn URNs, option
 * records with durations in seconds, parent inheritance of provider, protect
 * and retainOnDelete), sends one engine request and settles the returned
 * future with the engine's answer.  An engine failure rejects that future
 * and fails the run, naming the resource.
 *
 * Invariant: no request is sent after the run failed; a request that would
 * be is answered with the run's error instead. */
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "value/pcl_internal.h"

/* Static keys and defaults of recorded options (shared by every record). */
static pcl_value k_protect = PCL_STATIC_ASCII("protect");
static pcl_value k_retain = PCL_STATIC_ASCII("retainOnDelete");
static pcl_value k_dbr = PCL_STATIC_ASCII("deleteBeforeReplace");
static pcl_value k_ignore = PCL_STATIC_ASCII("ignoreChanges");
static pcl_value k_hide = PCL_STATIC_ASCII("hideDiffs");
static pcl_value k_roc = PCL_STATIC_ASCII("replaceOnChanges");
static pcl_value k_aso = PCL_STATIC_ASCII("additionalSecretOutputs");
static pcl_value k_timeouts = PCL_STATIC_ASCII("customTimeouts");
static pcl_value k_import = PCL_STATIC_ASCII("importID");
static pcl_value k_deleted = PCL_STATIC_ASCII("deletedWith");
static pcl_value k_replace_with = PCL_STATIC_ASCII("replaceWith");
static pcl_value k_aliases = PCL_STATIC_ASCII("aliases");
static pcl_value k_trigger = PCL_STATIC_ASCII("replacementTrigger");
static pcl_value k_version = PCL_STATIC_ASCII("version");
static pcl_value k_url = PCL_STATIC_ASCII("pluginDownloadURL");
static pcl_value k_env = PCL_STATIC_ASCII("envVarMappings");
static pcl_value k_providers = PCL_STATIC_ASCII("providers");
static pcl_value k_hooks = PCL_STATIC_ASCII("hooks");
static pcl_value k_external = PCL_STATIC_ASCII("external");
static pcl_value k_urn = PCL_STATIC_ASCII("urn");
static pcl_value k_id = PCL_STATIC_ASCII("id");
static pcl_value k_name = PCL_STATIC_ASCII("__name");
static pcl_value k_type = PCL_STATIC_ASCII("__type");
static pcl_value empty_list = PCL_STATIC_LIST(NULL, 0);
static pcl_value empty_map = PCL_STATIC_MAP(NULL, NULL, 0);
static pcl_value empty_str = PCL_STATIC_ASCII("");
/* The options record of a resource that sets none of them, shared. */
static pcl_value *const default_opt_keys[] = {
    &k_aso,    &k_aliases, &k_timeouts, &k_dbr, &k_deleted,      &k_external, &k_hide,
    &k_ignore, &k_import,  &k_protect,  &k_roc, &k_replace_with, &k_trigger,  &k_retain,
};
static pcl_value *const default_opt_vals[] = {
    &empty_list, &empty_list, &empty_map,       &pcl_false_value, &empty_str,
    &pcl_false_value, &empty_list, &empty_list, &empty_str,       &pcl_false_value,
    &empty_list, &empty_list, &pcl_null_value,  &pcl_false_value,
};
enum { NDEFAULT_OPTS = sizeof default_opt_keys / sizeof default_opt_keys[0] };
static pcl_value default_options = PCL_STATIC_MAP(default_opt_keys, default_opt_vals, NDEFAULT_OPTS);

/* The id a provider reference carries while the provider's id is unknown. */
static const char unknown_id[] = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

void pcl_run_log(pcl_run *run, pcl_log_severity sev, const char *urn, const char *msg) {
  run->engine->ops->log(run->engine, sev, urn, msg);
}

void pcl_run_fail(pcl_run *run, const pcl_error *err) {
  if (run->error == NULL) {
    run->error = pcl_error_copy(run->failure != NULL ? run->failure : err);
  }
}

void pcl__run_note_failure(pcl_run *run, const pcl_error *err) {
  if (run->error == NULL && run->failure == NULL) {
    run->failure = pcl_error_copy(err);
  }
}

/* ------------------------------------------------------- waiting for many */

/* One value a waitset waits for: the deep await of a value that holds
 * futures, or the value itself when it holds none, which needs neither a
 * future nor a loop turn of its own. */
typedef struct slot {
  pcl_future *f; /* The deep await (owned), or NULL. */
  pcl_value *v;  /* With f NULL: the value (owned), holding no EVENTUAL. */
} slot;

/* A set of values to wait for, then a completion. */
typedef struct waitset waitset;
typedef void (*waitset_fn)(waitset *w);
struct waitset {
  waitset_fn done;    /* Runs once every future settled. */
  void *data;         /* The operation's state. */
  size_t n;           /* Slots. */
  size_t remaining;   /* Futures not yet settled. */
  slot s[];           /* The values waited for. */
};

/* Returns the size of the block of a waitset of n slots. */
static size_t waitset_size(size_t n) { return sizeof(waitset) + n * sizeof(slot); }

/* Runs w's completion and frees w. */
static void waitset_finish(waitset *w) {
  w->done(w);
  for (size_t i = 0; i < w->n; i++) {
    pcl_future_release(w->s[i].f);
    pcl_release(w->s[i].v);
  }
  pcl__pool_free(w, waitset_size(w->n));
}

static void waitset_step(pcl_future *f, void *data) {
  (void)f;
  waitset *w = data;
  if (--w->remaining == 0) {
    waitset_finish(w);
  }
}

/* The loop task of a waitset whose values all hold no future. */
static void waitset_ready(pcl_future *f, void *data) {
  (void)f;
  waitset_finish(data);
}

static waitset *waitset_new(size_t n, waitset_fn done, void *data) {
  waitset *w = pcl__pool_alloc(waitset_size(n));
  w->done = done;
  w->data = data;
  w->n = n;
  w->remaining = 0;
  return w;
}

/* Waits in slot i of w for v (borrowed) to settle deeply. */
static void waitset_put(waitset *w, size_t i, pcl_value *v) {
  if (pcl__value_contains_kind(v, PCL_T_EVENTUAL)) {
    w->s[i] = (slot){pcl_future_await_deep(v), NULL};
  } else {
    w->s[i] = (slot){NULL, pcl_retain(v)};
  }
}

/* Waits in slot i of w for the future f (borrowed). */
static void waitset_put_future(waitset *w, size_t i, pcl_future *f) {
  w->s[i] = (slot){pcl_future_retain(f), NULL};
}

/* Starts waiting once every slot is filled.  The completion runs from the
 * loop, on the turn where the last future settles, or on a turn of its own
 * when there is none (at the place in the queue where the first settled
 * value would have woken it). */
static void waitset_start(waitset *w) {
  for (size_t i = 0; i < w->n; i++) {
    w->remaining += w->s[i].f != NULL;
  }
  if (w->remaining == 0) {
    pcl_sched_post(waitset_ready, w);
    return;
  }
  for (size_t i = 0; i < w->n; i++) {
    if (w->s[i].f != NULL) {
      pcl_future_then(w->s[i].f, waitset_step, w);
    }
  }
}

/* Returns the first rejected future of w, or NULL. */
static pcl_future *waitset_failed(const waitset *w) {
  for (size_t i = 0; i < w->n; i++) {
    if (w->s[i].f != NULL && pcl_future_state_of(w->s[i].f) == PCL_FUTURE_REJECTED) {
      return w->s[i].f;
    }
  }
  return NULL;
}

/* Returns the settled value of slot s as it goes into a request: SECRET-
 * wrapped when secret, UNKNOWN when unknown (owned). */
static pcl_value *wire_value(const slot *s) {
  if (s->f == NULL) {
    return pcl_retain(s->v);
  }
  unsigned bits = pcl_future_bits(s->f);
  pcl_value *v = (bits & PCL_FUT_UNKNOWN) ? pcl_unknown() : pcl_retain(pcl_future_value(s->f));
  if (bits & PCL_FUT_SECRET) {
    pcl_value *sv = pcl_secret_new(v);
    pcl_release(v);
    return sv;
  }
  return v;
}

/* Returns the settled value of slot s as a resolved future holds it
 * (borrowed): without its SECRET marks, NULL when unknown. */
static pcl_value *slot_value(const slot *s) {
  if (s->f != NULL) {
    return pcl_future_value(s->f);
  }
  pcl_value *v = s->v;
  while (pcl_kind_of(v) == PCL_T_SECRET) {
    v = pcl_secret_inner(v);
  }
  return pcl_kind_of(v) == PCL_T_UNKNOWN ? NULL : v;
}

/* Returns the dependencies of slot s (borrowed; NULL when none). */
static const pcl_deps *slot_deps(const slot *s) {
  return s->f != NULL ? pcl_future_deps(s->f) : NULL;
}

/* Returns whether the MAP v is a resource object (urn, __name, __type). */
static bool is_resource_object(const pcl_value *v) {
  return pcl_kind_of(v) == PCL_T_MAP && pcl_map_get_cstr(v, "__type") &&
         pcl_map_get_cstr(v, "__name") && pcl_map_get_cstr(v, "urn");
}

/* The pcl__value_rewrite step of collapse: a resource object becomes a
 * reference; maps, lists and secrets are entered. */
static pcl__rw_action collapse_step(pcl__rw_step *s, void *data) {
  (void)data;
  pcl_value *v = (pcl_value *)s->v;
  switch (pcl_kind_of(v)) {
  case PCL_T_MAP:
    if (is_resource_object(v)) {
      pcl_value *urn = pcl_map_get_cstr(v, "urn");
      pcl_value *id = pcl_map_get_cstr(v, "id");
      if (pcl_kind_of(urn) == PCL_T_STRING) {
        s->out = pcl_resource_new(urn, id && pcl_kind_of(id) != PCL_T_NULL ? id : NULL, NULL);
        return PCL__RW_DONE;
      }
    }
    return PCL__RW_ENTER;
  case PCL_T_LIST:
  case PCL_T_SECRET:
    return PCL__RW_ENTER;
  case PCL_T_NULL:
  case PCL_T_BOOL:
  case PCL_T_INT:
  case PCL_T_NUMBER:
  case PCL_T_STRING:
  case PCL_T_SET:
  case PCL_T_RESOURCE:
  case PCL_T_ASSET:
  case PCL_T_ARCHIVE:
  case PCL_T_UNKNOWN:
  case PCL_T_EVENTUAL:
    break;
  }
  s->out = pcl_retain(v);
  return PCL__RW_DONE;
}

/* Returns v with whole resource objects collapsed into resource references
 * (owned), as values crossing a node boundary are.  Any depth is safe.  A
 * list, map or secret none of whose parts collapses is v itself, shared
 * rather than copied (a rewrite keeps unchanged containers): most inputs
 * hold no resource object, and the all-default options record below is
 * recognised by the identity of its values. */
static pcl_value *collapse(pcl_value *v) {
  /* Only a map, or a list or secret around one, can be or hold a resource
   * object: any other value (most inputs are scalars) is itself, without a
   * rewrite. */
  pcl_kind k = pcl_kind_of(v);
  if (k != PCL_T_MAP && k != PCL_T_LIST && k != PCL_T_SECRET) {
    return pcl_retain(v);
  }
  return pcl__value_rewrite(v, NULL, collapse_step, NULL);
}

/* ------------------------------------------------------------------ options */

/* Returns the URN (borrowed C string) of a resource given as an object,
 * a resource reference or a URN string; NULL for null/unknown. */
static const char *urn_of(pcl_value *v) {
  while (v && pcl_kind_of(v) == PCL_T_SECRET) {
    v = pcl_secret_inner(v);
  }
  if (v == NULL) {
    return NULL;
  }
  if (pcl_kind_of(v) == PCL_T_MAP) {
    pcl_value *u = pcl_map_get_cstr(v, "urn");
    return u && pcl_kind_of(u) == PCL_T_STRING ? pcl_str_data(u) : NULL;
  }
  if (pcl_kind_of(v) == PCL_T_RESOURCE) {
    return pcl_str_data(pcl_resource_urn(v));
  }
  if (pcl_kind_of(v) == PCL_T_STRING) {
    return pcl_str_data(v);
  }
  return NULL;
}

/* Returns the provider reference "<urn>::<id>" (owned) of a provider. */
static char *provider_ref(pcl_value *v) {
  const char *urn = urn_of(v);
  if (urn == NULL) {
    return NULL;
  }
  pcl_value *id = NULL;
  if (pcl_kind_of(v) == PCL_T_MAP) {
    id = pcl_map_get_cstr(v, "id");
  } else if (pcl_kind_of(v) == PCL_T_RESOURCE) {
    id = pcl_resource_id(v);
  }
  pcl_strbuf b = PCL_STRBUF_INIT;
  pcl_strbuf_append_cstr(&b, urn);
  pcl_strbuf_append_cstr(&b, "::");
  pcl_strbuf_append_cstr(&b, id && pcl_kind_of(id) == PCL_T_STRING ? pcl_str_data(id) : unknown_id);
  return b.data;
}

/* Returns the providers option as a MAP package -> provider reference
 * (owned), or NULL when unset.  A map is keyed by package already; a list
 * takes each provider's package from its URN type (pulumi:providers:<pkg>). */
static pcl_value *opt_providers(pcl_value *v) {
  if (v == NULL || (pcl_kind_of(v) != PCL_T_MAP && pcl_kind_of(v) != PCL_T_LIST)) {
    return NULL;
  }
  pcl_mapbuf mb = PCL_MAPBUF_INIT;
  for (size_t i = 0; i < pcl_len(v); i++) {
    pcl_value *p = pcl_kind_of(v) == PCL_T_MAP ? pcl_map_val_at(v, i) : pcl_list_at(v, i);
    char *ref = provider_ref(p);
    if (ref == NULL) {
      continue;
    }
    if (pcl_kind_of(v) == PCL_T_MAP) {
      pcl_mapbuf_put_take(&mb, pcl_retain(pcl_map_key_at(v, i)), pcl__str_fast(ref));
    } else {
      /* "urn:pulumi:s::p::pulumi:providers:<pkg>::name": take <pkg>. */
      const char *t = strstr(ref, "::pulumi:providers:");
      if (t) {
        t += strlen("::pulumi:providers:");
        size_t n = strcspn(t, ":$");
        pcl_mapbuf_put_take(&mb, pcl_str_new_lossy(t, n), pcl__str_fast(ref));
      }
    }
    free(ref);
  }
  return pcl_mapbuf_finish(&mb);
}

/* Returns the bool option (-1 when unset or not a known bool). */
static int opt_bool(pcl_value *opts, const char *name) {
  pcl_value *v = opts ? pcl_map_get_cstr(opts, name) : NULL;
  return v && pcl_kind_of(v) == PCL_T_BOOL ? pcl_bool_get(v) : -1;
}

/* Returns the option as a list of strings (owned): a list is copied with
 * its string elements, a single string becomes a one-element list. */
static pcl_value *opt_strings(pcl_value *opts, const char *name) {
  pcl_value *v = opts ? pcl_map_get_cstr(opts, name) : NULL;
  if (v == NULL || (pcl_kind_of(v) != PCL_T_LIST && pcl_kind_of(v) != PCL_T_STRING)) {
    return &empty_list;
  }
  if (pcl_kind_of(v) == PCL_T_STRING) {
    return pcl_list_of(&v, 1);
  }
  size_t strings = 0;
  for (size_t i = 0; i < pcl_len(v); i++) {
    strings += pcl_kind_of(pcl_list_at(v, i)) == PCL_T_STRING;
  }
  if (strings == pcl_len(v)) {
    return pcl_retain(v);
  }
  size_t n = 0;
  pcl_value **items = pcl_xmalloc((pcl_len(v) + 1) * sizeof *items);
  for (size_t i = 0; i < pcl_len(v); i++) {
    pcl_value *e = pcl_list_at(v, i);
    if (pcl_kind_of(e) == PCL_T_STRING) {
      items[n++] = e;
    }
  }
  pcl_value *l = pcl_list_of(items, n);
  free(items);
  return l;
}

/* Returns the segments of the property path text (owned LIST): names and
 * quoted keys as strings, [N] indexes as ints ("tags[\"a.b\"].x[0]" gives
 * ["tags", "a.b", "x", 0]); NULL when the text is not a path. */
static pcl_value *path_segments(const char *p) {
  pcl_value *segs[64];
  size_t n = 0;
  pcl_strbuf b = PCL_STRBUF_INIT;
  bool ok = true;
  while (*p && ok && n < 64) {
    if (*p == '[') {
      p++;
      if (*p == '"') {
        /* A quoted key with \" and \\ escapes. */
        for (p++; *p && *p != '"'; p++) {
          if (*p == '\\' && p[1]) {
            p++;
          }
          pcl_strbuf_append_char(&b, *p);
        }
        ok = *p == '"' && p[1] == ']';
        p += ok ? 2 : 0;
        pcl_strbuf_append(&b, "", 0);
        segs[n++] = pcl_str_new_lossy(b.data ? b.data : "", b.len);
      } else {
        const char *start = p;
        while (*p >= '0' && *p <= '9') {
          p++;
        }
        ok = p > start && *p == ']';
        if (ok) {
          pcl_error *err = NULL;
          segs[n++] = pcl_int_parse(start, (size_t)(p - start), &err);
          pcl_error_free(err);
          ok = segs[n - 1] != NULL;
          n -= ok ? 0 : 1;
          p++;
        }
      }
      b.len = 0;
    } else {
      if (*p == '.' && n > 0) {
        p++;
      }
      const char *start = p;
      while (*p && *p != '.' && *p != '[') {
        p++;
      }
      ok = p > start;
      if (ok) {
        segs[n++] = pcl_str_new_lossy(start, (size_t)(p - start));
      }
    }
  }
  pcl_strbuf_free(&b);
  if (!ok || *p) {
    for (size_t i = 0; i < n; i++) {
      pcl_release(segs[i]);
    }
    return NULL;
  }
  return pcl_list_of_take(segs, n);
}

/* Returns the option's property paths as lists of segments (owned), as the
 * engine records hideDiffs; a text that is not a path is kept whole. */
static pcl_value *opt_paths(pcl_value *opts, const char *name) {
  pcl_value *strs = opt_strings(opts, name);
  if (pcl_len(strs) == 0) {
    return strs;
  }
  pcl_value *l = pcl_list_new(pcl_len(strs));
  for (size_t i = 0; i < pcl_len(strs); i++) {
    pcl_value *e = pcl_list_at(strs, i);
    pcl_value *segs = path_segments(pcl_str_data(e));
    pcl_list_init_take(l, i, segs ? segs : pcl_list_of(&e, 1));
  }
  pcl_release(strs);
  return l;
}

/* Returns the LIST of URN strings of the resources in the option (a list
 * or a single resource), adding each to *deps when deps is not NULL. */
static pcl_value *opt_urns(pcl_value *opts, const char *name, pcl_deps **deps) {
  pcl_value *v = opts ? pcl_map_get_cstr(opts, name) : NULL;
  if (v == NULL || pcl_kind_of(v) == PCL_T_NULL || pcl_kind_of(v) == PCL_T_UNKNOWN) {
    return &empty_list;
  }
  size_t n = pcl_kind_of(v) == PCL_T_LIST ? pcl_len(v) : 1;
  /* Null and unknown elements are skipped, so the list may be shorter. */
  pcl_value **urns = pcl_xmalloc(n * sizeof *urns);
  const char **texts = pcl_xmalloc(n * sizeof *texts);
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    pcl_value *e = pcl_kind_of(v) == PCL_T_LIST ? pcl_list_at(v, i) : v;
    const char *urn = urn_of(e);
    if (urn) {
      texts[k] = urn;
      urns[k++] = pcl__str_fast(urn);
    }
  }
  if (deps) {
    /* One union with the set of them all. */
    pcl_deps *all = pcl__deps_of_urns(texts, k);
    pcl_deps *u = pcl_deps_union(*deps, all);
    pcl_deps_release(all);
    pcl_deps_release(*deps);
    *deps = u;
  }
  pcl_value *l = pcl_list_of_take(urns, k);
  free(texts);
  free(urns);
  return l;
}

/* Returns the customTimeouts record: each duration string in seconds. */
static pcl_value *opt_timeouts(pcl_value *opts, pcl_error **err) {
  pcl_value *v = opts ? pcl_map_get_cstr(opts, "customTimeouts") : NULL;
  if (v == NULL || pcl_kind_of(v) == PCL_T_NULL || pcl_kind_of(v) == PCL_T_UNKNOWN) {
    return &empty_map;
  }
  if (pcl_kind_of(v) != PCL_T_MAP) {
    *err = pcl_error_new("customTimeouts must be an object");
    return NULL;
  }
  pcl_mapbuf mb = PCL_MAPBUF_INIT;
  for (size_t i = 0; i < pcl_len(v); i++) {
    pcl_value *k = pcl_map_key_at(v, i), *d = pcl_map_val_at(v, i);
    if (pcl_kind_of(d) == PCL_T_NULL || pcl_kind_of(d) == PCL_T_UNKNOWN) {
      continue;
    }
    double secs;
    if (pcl_kind_of(d) != PCL_T_STRING || !pcl__parse_duration(pcl_str_data(d), &secs)) {
      *err = pcl_error_new("customTimeouts.%s must be a duration string such as \"5m\"",
                           pcl_str_data(k));
      pcl_mapbuf_free(&mb);
      return NULL;
    }
    double whole = (double)(int64_t)secs;
    pcl_mapbuf_put_take(&mb, pcl_retain(k),
                        whole == secs ? pcl_int_new((int64_t)secs) : pcl_number_new(secs));
  }
  return pcl_mapbuf_finish(&mb);
}

/* Returns the registered resource with this URN, or NULL. */
static pcl__run_res *run_res(pcl_run *run, const char *urn) {
  return pcl__urn_index_get(&run->res_index, pcl_urn_intern(urn));
}

/* Returns the length of the package of a type or function token: what
 * comes before its first ':' ("simple" of "simple:index:R"). */
static size_t package_len(const char *token) { return strcspn(token, ":"); }

/* Returns the provider reference (owned) a child of pres (may be NULL)
 * inherits for the package of token (a type or function token): the one
 * pres's providers map gives, else pres's own provider when it is of that
 * package; NULL when none. */
static char *inherited_provider(const pcl__run_res *pres, const char *token) {
  if (pres == NULL) {
    return NULL;
  }
  size_t plen = package_len(token);
  pcl_value *fromMap = pres->providers ? pcl_map_get(pres->providers, token, plen) : NULL;
  if (fromMap) {
    return pcl_xstrdup(pcl_str_data(fromMap));
  }
  if (pres->provider && package_len(pres->type) == plen && memcmp(pres->type, token, plen) == 0) {
    return pcl_xstrdup(pres->provider);
  }
  return NULL;
}

/* ------------------------------------------------------------------ packages */

/* A registration of a parameterized package with the engine. */
typedef struct package_reg {
  pcl_future *ref;        /* The future of its reference (owned). */
  const pcl_package *pkg; /* The package (static). */
} package_reg;

static void package_done(void *data, pcl_value *result, const pcl_error *err) {
  package_reg *pr = data;
  if (err) {
    pcl_error *e = pcl_error_copy(err);
    pcl_error_prefix(e, "cannot register package '%s'", pr->pkg->name);
    pcl_future_reject_take(pr->ref, e);
  } else {
    pcl_future_resolve(pr->ref, result, 0, NULL);
  }
  pcl_future_release(pr->ref);
  free(pr);
}

/* Returns the future of the reference of the parameterized package that
 * token (a type or function token) belongs to (borrowed), registering the
 * package with the engine when this is its first request; NULL when the
 * token's package is none of the program's parameterized packages.  A
 * token's package is its first component, pulumi:providers:<pkg>'s <pkg>. */
static pcl_future *package_ref(pcl_run *run, const char *token) {
  if (run->npackages == 0) {
    return NULL;
  }
  static const char providers[] = "pulumi:providers:";
  if (strncmp(token, providers, sizeof providers - 1) == 0) {
    token += sizeof providers - 1;
  }
  size_t len = package_len(token);
  for (size_t i = 0; i < run->npackages; i++) {
    const pcl_package *pkg = &run->packages[i];
    if (strlen(pkg->name) != len || memcmp(pkg->name, token, len) != 0) {
      continue;
    }
    if (run->package_refs == NULL) {
      run->package_refs = pcl_xcalloc(run->npackages, sizeof *run->package_refs);
    }
    if (run->package_refs[i] == NULL) {
      pcl_strbuf label = PCL_STRBUF_INIT;
      pcl_strbuf_appendf(&label, "the reference of package '%s'", pkg->name);
      pcl_future *ref = pcl__future_new_label_take(PCL_PROMISE, label.data);
      /* Every request of the package reports its failure. */
      pcl_future_mark_handled(ref);
      run->package_refs[i] = ref;
      package_reg *pr = pcl_xmalloc(sizeof *pr);
      pr->ref = pcl_future_retain(ref);
      pr->pkg = pkg;
      run->engine->ops->register_package(run->engine, pkg, package_done, pr);
    }
    return run->package_refs[i];
  }
  return NULL;
}

/* Returns the error of a request whose package's registration failed
 * (owned), or NULL when it did not (ref NULL: the request has no
 * parameterized package). */
static pcl_error *package_failure(const pcl_future *ref) {
  if (ref == NULL || pcl_future_state_of(ref) != PCL_FUTURE_REJECTED) {
    return NULL;
  }
  return pcl_error_copy(pcl_future_error(ref));
}

/* Returns the reference of the settled package registration ref (borrowed
 * C string), or NULL when ref is NULL. */
static const char *package_ref_text(const pcl_future *ref) {
  return ref != NULL ? pcl_str_data(pcl_future_value(ref)) : NULL;
}

void pcl__run_res_free(pcl_run *run) {
  for (size_t i = 0; run->package_refs && i < run->npackages; i++) {
    pcl_future_release(run->package_refs[i]);
  }
  free(run->package_refs);
  run->package_refs = NULL;
  for (size_t i = 0; i < run->nres; i++) {
    free(run->res[i]->provider);
    free(run->res[i]->version);
    free(run->res[i]->plugin_download_url);
    pcl_release(run->res[i]->providers);
    pcl__pool_free(run->res[i], sizeof *run->res[i]);
  }
  free(run->res);
  pcl__urn_index_free(&run->res_index);
  run->res = NULL;
  run->nres = run->capres = 0;
}

/* -------------------------------------------------------------- registration */

typedef struct reg {
  pcl_run *run;                  /* The run. */
  pcl_future *result;            /* The resource's future (owned). */
  pcl_resource_decl decl; /* The declaration (a copy: generated code passes one made for the call). */
  bool read;                     /* A read. */
  bool stack;                    /* The stack itself. */
  pcl_value *inputs;             /* The program's inputs MAP (owned). */
  char *provider;                /* Provider reference decided (owned). */
  pcl_value *providers;          /* Providers map for children (owned) or NULL. */
  char *version, *plugin_download_url; /* The package version and download URL sent
                                          (owned), or NULL. */
  const char *bad_inputs;        /* Kind name of inputs that were not a MAP. */
  signed char protect, retain;   /* Effective inherited flags. */
  pcl_value *elided_secrets;     /* Preview: additionalSecretOutputs (LIST, owned), or NULL. */
  pcl_value *output_deps;        /* Once answered: what the engine says each output depends
                                    on (pcl_resource_result.output_deps; owned), or NULL. */
  pcl_future *package;           /* The reference of the type's parameterized package
                                    (borrowed from the run; also the waitset's last
                                    slot), or NULL. */
  char name[];                   /* Logical name, in the registration's block. */
} reg;

/* Returns the size of the block of a registration whose name has len
 * bytes. */
static size_t reg_size(size_t len) { return sizeof(reg) + len + 1; }

static void reg_free(reg *r) {
  pcl_release(r->providers);
  pcl_release(r->elided_secrets);
  pcl_release(r->output_deps);
  pcl_future_release(r->result);
  pcl_release(r->inputs);
  free(r->provider);
  free(r->version);
  free(r->plugin_download_url);
  pcl__pool_free(r, reg_size(strlen(r->name)));
}

/* Fails r's future and the run with err (stolen), naming the resource. */
static void reg_fail(reg *r, pcl_error *err, bool name_it) {
  if (name_it) {
    pcl_error_prefix(err, "failed to register resource '%s' (%s)", r->name, r->decl.type);
    if (r->decl.file) {
      pcl_error_set_location(err, r->decl.file, r->decl.line, r->decl.column);
    }
  }
  pcl_run_fail(r->run, err);
  pcl_future_mark_handled(r->result);
  pcl_future_reject_take(r->result, err);
}

/* Puts the URN (a STRING) of the resource reference r in the pcl_mapbuf
 * mb. */
static void collect_ref(const pcl_value *r, void *mb) {
  pcl_mapbuf_put_take(mb, pcl_retain(pcl_resource_urn(r)), pcl_null());
}

/* Puts the URN (a STRING) of every resource reference of v in mb. */
static void collect_refs(const pcl_value *v, pcl_mapbuf *mb) {
  pcl__value_each_kind(v, PCL_T_RESOURCE, collect_ref, mb);
}

/* Returns d (owned) without the URNs of the resource references in v: a
 * resource passed by reference to a remote component is not one of the
 * input's property dependencies (SDKs leave references out when the engine
 * takes them). */
static pcl_deps *deps_without_refs(const pcl_deps *d, const pcl_value *v) {
  size_t n = pcl_deps_count(d);
  if (n == 0 || !pcl__value_contains_kind(v, PCL_T_RESOURCE)) {
    return pcl_deps_retain(d);
  }
  pcl_mapbuf rb = PCL_MAPBUF_INIT;
  collect_refs(v, &rb);
  pcl_value *refs = pcl_mapbuf_finish(&rb);
  const char **urns = pcl_xmalloc(n * sizeof *urns);
  pcl_deps_sorted(d, urns);
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (pcl_map_get_cstr(refs, urns[i]) == NULL) {
      urns[k++] = urns[i];
    }
  }
  pcl_deps *out = pcl__deps_of_urns(urns, k);
  free(urns);
  pcl_release(refs);
  return out;
}

static pcl_value *per_value_wire(const pcl_value *v);

/* Returns the settled EVENTUAL e as it goes inside the arguments of an
 * engine that takes output values there (owned): a settled EVENTUAL of its
 * value made so in turn (per_value_wire), with its bits and its
 * dependencies but the resources passed by reference in it (a resource is
 * not a dependency of its own reference); its bare value when nothing is
 * left to carry. */
static pcl_value *settled_wire(const pcl_value *e) {
  pcl_future *f = pcl_value_future(e);
  if (f == NULL || pcl_future_state_of(f) != PCL_FUTURE_RESOLVED) {
    /* Never met here (every future was awaited); the encoder refuses it. */
    return pcl_retain((pcl_value *)e);
  }
  unsigned bits = pcl_future_bits(f);
  pcl_value *inner = pcl_future_value(f);
  pcl_value *wired = inner ? per_value_wire(inner) : NULL;
  pcl_deps *deps = deps_without_refs(pcl_future_deps(f), wired ? wired : pcl_null());
  pcl_value *r;
  if (bits == 0 && pcl_deps_count(deps) == 0) {
    r = wired ? pcl_retain(wired) : pcl_null();
  } else {
    pcl_future *g = pcl_future_new(PCL_OUTPUT, NULL);
    pcl_future_resolve(g, wired, bits, deps);
    r = pcl_future_to_value(g);
    pcl_future_release(g);
  }
  pcl_release(wired);
  pcl_deps_release(deps);
  return r;
}

/* The pcl__value_rewrite step of per_value_wire: a settled EVENTUAL
 * becomes settled_wire's, anything else is collapse's. */
static pcl__rw_action per_value_step(pcl__rw_step *s, void *data) {
  if (pcl_kind_of(s->v) == PCL_T_EVENTUAL) {
    s->out = settled_wire(s->v);
    return PCL__RW_DONE;
  }
  return collapse_step(s, data);
}

/* Returns v (borrowed, every future in it settled) with resource objects
 * collapsed into references and each future in it, at any depth, a settled
 * EVENTUAL carrying its own dependencies, unknown and secret bits (owned):
 * the arguments of an invoke or call for an engine that takes output values
 * inside them (pcl_engine.invoke_output_values), as the SDKs send each
 * output they meet. */
static pcl_value *per_value_wire(const pcl_value *v) {
  return pcl__value_rewrite(v, NULL, per_value_step, NULL);
}

/* The pcl__value_rewrite step of hydrate (data: the MAP from URNs to
 * resource objects): a reference the map knows becomes its object;
 * secrets, lists, sets and maps are entered. */
static pcl__rw_action hydrate_step(pcl__rw_step *s, void *data) {
  pcl_value *objs = data;
  pcl_value *v = (pcl_value *)s->v;
  switch (pcl_kind_of(v)) {
  case PCL_T_RESOURCE: {
    pcl_value *u = pcl_resource_urn(v);
    pcl_value *o = pcl_map_get(objs, pcl_str_data(u), pcl_str_len(u));
    s->out = pcl_retain(o && pcl_kind_of(o) == PCL_T_MAP ? o : v);
    return PCL__RW_DONE;
  }
  case PCL_T_SECRET:
  case PCL_T_LIST:
  case PCL_T_SET:
  case PCL_T_MAP:
    return PCL__RW_ENTER;
  case PCL_T_NULL:
  case PCL_T_BOOL:
  case PCL_T_INT:
  case PCL_T_NUMBER:
  case PCL_T_STRING:
  case PCL_T_ASSET:
  case PCL_T_ARCHIVE:
  case PCL_T_UNKNOWN:
  case PCL_T_EVENTUAL:
    break;
  }
  s->out = pcl_retain(v);
  return PCL__RW_DONE;
}

/* Returns v (borrowed) with every resource reference whose URN objs maps
 * to a resource object replaced by that object (owned result).  Any depth
 * is safe. */
static pcl_value *hydrate(pcl_value *v, pcl_value *objs) {
  return pcl__value_rewrite(v, NULL, hydrate_step, objs);
}

/* Returns outputs (borrowed MAP) with each output that deps (MAP name ->
 * LIST of URN STRINGs, may be NULL) lists as a settled EVENTUAL carrying
 * those dependencies (owned): a remote component's output depends on the
 * children it comes from, so that what uses it depends on them too (and
 * the engine skips it when one of them failed). */
static pcl_value *with_output_deps(pcl_value *outputs, const pcl_value *deps) {
  size_t n = pcl_len(outputs);
  if (deps == NULL || pcl_len(deps) == 0 || n == 0) {
    return pcl_retain(outputs);
  }
  pcl_value **vals = pcl_xmalloc(n * sizeof *vals);
  for (size_t i = 0; i < n; i++) {
    const pcl_value *k = pcl_map_key_at(outputs, i);
    pcl_value *v = pcl_map_val_at(outputs, i);
    pcl_value *urns = pcl_map_get(deps, pcl_str_data(k), pcl_str_len(k));
    size_t nu = urns && pcl_kind_of(urns) == PCL_T_LIST ? pcl_len(urns) : 0;
    if (nu == 0) {
      vals[i] = pcl_retain(v);
      continue;
    }
    const char **texts = pcl_xmalloc(nu * sizeof *texts);
    for (size_t j = 0; j < nu; j++) {
      texts[j] = pcl_str_data(pcl_list_at(urns, j));
    }
    pcl_deps *d = pcl__deps_of_urns(texts, nu);
    free(texts);
    pcl_future *f = pcl_future_new(PCL_OUTPUT, NULL);
    pcl_future_resolve(f, v, 0, d);
    pcl_deps_release(d);
    vals[i] = pcl_future_to_value(f);
    pcl_future_release(f);
  }
  pcl_value *r = pcl__map_with_vals_take(outputs, vals);
  free(vals);
  return r;
}

/* Resolves r's future with its object: the outputs (resource references
 * replaced by the objects of hydrated, when not NULL; each with the
 * dependencies the engine gave it) plus urn, id, __name and __type; urn is
 * interned.  Frees r. */
static void reg_resolve(reg *r, const char *urn, pcl_value *id, pcl_value *outputs,
                        pcl_value *hydrated) {
  pcl_value *base = pcl_retain(outputs);
  if (hydrated) {
    size_t n = pcl_len(outputs);
    pcl_value **vals = pcl_xmalloc((n ? n : 1) * sizeof *vals);
    for (size_t i = 0; i < n; i++) {
      vals[i] = hydrate(pcl_map_val_at(outputs, i), hydrated);
    }
    pcl_release(base);
    base = pcl__map_with_vals_take(outputs, vals);
    free(vals);
  }
  pcl_value *with_deps = with_output_deps(base, r->output_deps);
  pcl_release(base);
  base = with_deps;
  /* In a preview, a secret output the provider left out (it is unknown
   * yet) reads as a secret unknown: all of them put over the outputs in
   * one merge. */
  pcl_mapbuf eb = PCL_MAPBUF_INIT;
  for (size_t i = 0; r->elided_secrets && i < pcl_len(r->elided_secrets); i++) {
    pcl_value *k = pcl_list_at(r->elided_secrets, i);
    if (pcl_map_get(outputs, pcl_str_data(k), pcl_str_len(k)) == NULL) {
      pcl_mapbuf_put_take(&eb, pcl_retain(k), pcl_secret_new(pcl_unknown()));
    }
  }
  if (eb.n > 0) {
    pcl_value *elided = pcl_mapbuf_finish(&eb);
    size_t n = pcl_len(elided);
    pcl_value **ks = pcl_xmalloc(n * sizeof *ks);
    pcl_value **vs = pcl_xmalloc(n * sizeof *vs);
    for (size_t i = 0; i < n; i++) {
      ks[i] = pcl_map_key_at(elided, i);
      vs[i] = pcl_map_val_at(elided, i);
    }
    pcl_value *more = pcl__map_merge(base, ks, vs, n);
    free(ks);
    free(vs);
    pcl_release(elided);
    pcl_release(base);
    base = more;
  }
  /* The fields every resource object has, in key order, win over outputs
   * of the same names. */
  pcl_value *keys[] = {&k_name, &k_type, &k_id, &k_urn};
  pcl_value *vals[] = {pcl__str_fast(r->name), pcl__str_fast(r->decl.type),
                       id ? id : pcl_null(), pcl__str_fast(urn)};
  pcl_value *obj = pcl__map_merge(base, keys, vals, 4);
  pcl_release(vals[0]);
  pcl_release(vals[1]);
  pcl_release(vals[3]);
  pcl_release(base);
  pcl_deps *d = pcl__deps_one_interned(urn);
  pcl_future_resolve(r->result, obj, 0, d);
  pcl_deps_release(d);
  pcl_release(obj);
  reg_free(r);
}

/* A registration whose outputs hold resource references, waiting for the
 * engine to hydrate them (pulumi:pulumi:getResource), as an SDK
 * rehydrates a reference into a resource object with its outputs. */
typedef struct hydration {
  reg *r;            /* The registration. */
  const char *urn;   /* Its URN (interned). */
  pcl_value *id;     /* Its id (owned). */
  pcl_value *outputs; /* Its outputs (owned). */
  pcl_value *objs;   /* MAP URN -> null: the references to hydrate (owned). */
  pcl_value **found; /* found[i]: the object of the i-th URN of objs once
                        hydrated (owned), else NULL. */
  size_t waiting;    /* getResource answers still to come. */
} hydration;

/* Returns the resource object of a getResource answer {urn, id, state}
 * (owned), or NULL when it is not one: the state plus urn, id, __name and
 * __type, the name and type taken from the URN. */
static pcl_value *ref_object(pcl_value *res) {
  pcl_value *urn = res ? pcl_map_get_cstr(res, "urn") : NULL;
  pcl_value *state = res ? pcl_map_get_cstr(res, "state") : NULL;
  pcl_value *id = res ? pcl_map_get_cstr(res, "id") : NULL;
  if (urn == NULL || pcl_kind_of(urn) != PCL_T_STRING || state == NULL ||
      pcl_kind_of(state) != PCL_T_MAP) {
    return NULL;
  }
  /* urn:pulumi:<stack>::<project>::<parent types$>type::name */
  const char *u = pcl_str_data(urn);
  const char *last = NULL;
  for (const char *p = strstr(u, "::"); p; p = strstr(p + 2, "::")) {
    last = p;
  }
  const char *tstart = last;
  while (tstart && tstart > u && !(tstart[-1] == ':' && tstart - 1 > u && tstart[-2] == ':') &&
         tstart[-1] != '$') {
    tstart--;
  }
  pcl_mapbuf mb = PCL_MAPBUF_INIT;
  for (size_t i = 0; i < pcl_len(state); i++) {
    pcl_mapbuf_put_take(&mb, pcl_retain(pcl_map_key_at(state, i)),
                        pcl_retain(pcl_map_val_at(state, i)));
  }
  pcl_mapbuf_put_take(&mb, &k_urn, pcl_retain(urn));
  pcl_mapbuf_put_take(&mb, &k_id, pcl_retain(id ? id : pcl_null()));
  pcl_mapbuf_put_take(&mb, &k_name, pcl_str_new_lossy(last ? last + 2 : "", last ? strlen(last + 2) : 0));
  pcl_mapbuf_put_take(&mb, &k_type, pcl_str_new_lossy(tstart ? tstart : "",
                                                      tstart ? (size_t)(last - tstart) : 0));
  return pcl_mapbuf_finish(&mb);
}

static void hydrated_one(void *data, pcl_value *result, const pcl_error *err) {
  hydration *h = data;
  h->r->run->inflight--;
  /* A reference the engine cannot hydrate stays a reference. */
  pcl_value *obj = err ? NULL : ref_object(result);
  if (obj) {
    /* Found by a binary search: rebuilding the map for each answer takes
     * time quadratic in the references of one resource. */
    pcl_value *u = pcl_map_get_cstr(obj, "urn");
    size_t i = pcl__map_find(h->objs, pcl_str_data(u), pcl_str_len(u));
    if (i != SIZE_MAX) {
      pcl_release(h->found[i]);
      h->found[i] = obj;
    } else {
      pcl_release(obj);
    }
  }
  if (--h->waiting > 0) {
    return;
  }
  size_t n = pcl_len(h->objs);
  pcl_value **vals = pcl_xmalloc((n ? n : 1) * sizeof *vals);
  for (size_t i = 0; i < n; i++) {
    vals[i] = h->found[i] ? h->found[i] : pcl_retain(pcl_map_val_at(h->objs, i));
  }
  free(h->found);
  pcl_value *objs = pcl__map_with_vals_take(h->objs, vals);
  free(vals);
  pcl_release(h->objs);
  h->objs = objs;
  reg_resolve(h->r, h->urn, h->id, h->outputs, h->objs);
  pcl_release(h->id);
  pcl_release(h->outputs);
  pcl_release(h->objs);
  free(h);
}

static void reg_done(void *data, const pcl_resource_result *res, const pcl_error *err) {
  reg *r = data;
  pcl_run *run = r->run;
  run->inflight--;
  if (err) {
    reg_fail(r, pcl_error_copy(err), true);
    reg_free(r);
    return;
  }
  PCL__GROW(run->res, run->capres, run->nres + 1);
  pcl__run_res *rr = pcl__pool_alloc(sizeof *rr);
  run->res[run->nres++] = rr;
  rr->urn = pcl_urn_intern(res->urn);
  pcl__urn_index_put(&run->res_index, rr->urn, rr);
  rr->provider = r->provider;
  r->provider = NULL;
  rr->type = rr->provider ? pcl_urn_intern(r->decl.type) : NULL;
  rr->protect = r->protect;
  rr->retain = r->retain;
  rr->providers = r->providers;
  r->providers = NULL;
  rr->version = r->version;
  r->version = NULL;
  rr->plugin_download_url = r->plugin_download_url;
  r->plugin_download_url = NULL;
  rr->gates_invokes = r->decl.kind != PCL_RES_CUSTOM || pcl_kind_of(res->id) == PCL_T_UNKNOWN;
  r->output_deps = pcl_retain(res->output_deps);
  if (res->unknown) {
    /* A step the engine did not run (a create a targeted update skipped)
       or that failed while the engine goes on: as an SDK resolves them,
       the resource's id and outputs are unknown, outside a preview too
       (the outputs it has not are, by its unknown id: gen_iter.c), and
       its URN is known, so that what depends on it says so and the engine
       skips it. */
    pcl_mapbuf mb = PCL_MAPBUF_INIT;
    for (size_t i = 0; i < pcl_len(res->outputs); i++) {
      pcl_mapbuf_put_take(&mb, pcl_retain(pcl_map_key_at(res->outputs, i)), pcl_unknown());
    }
    for (size_t i = 0; i < pcl_len(r->inputs); i++) {
      pcl_value *k = pcl_map_key_at(r->inputs, i);
      if (pcl_map_get(res->outputs, pcl_str_data(k), pcl_str_len(k)) == NULL) {
        pcl_mapbuf_put_take(&mb, pcl_retain(k), pcl_unknown());
      }
    }
    /* An output the engine gives dependencies for is one too (a failed
     * remote component's, on the child that failed). */
    for (size_t i = 0; res->output_deps && i < pcl_len(res->output_deps); i++) {
      pcl_value *k = pcl_map_key_at(res->output_deps, i);
      if (pcl_map_get(res->outputs, pcl_str_data(k), pcl_str_len(k)) == NULL &&
          pcl_map_get(r->inputs, pcl_str_data(k), pcl_str_len(k)) == NULL) {
        pcl_mapbuf_put_take(&mb, pcl_retain(k), pcl_unknown());
      }
    }
    pcl_value *outputs = pcl_mapbuf_finish(&mb);
    pcl_value *id = pcl_unknown();
    reg_resolve(r, rr->urn, id, outputs, NULL);
    pcl_release(id);
    pcl_release(outputs);
    return;
  }
  if (!pcl__value_contains_kind(res->outputs, PCL_T_RESOURCE)) {
    reg_resolve(r, rr->urn, res->id, res->outputs, NULL);
    return;
  }
  hydration *h = pcl_xcalloc(1, sizeof *h);
  h->r = r;
  h->urn = rr->urn;
  h->id = pcl_retain(res->id);
  h->outputs = pcl_retain(res->outputs);
  pcl_mapbuf mb = PCL_MAPBUF_INIT;
  collect_refs(res->outputs, &mb);
  h->objs = pcl_mapbuf_finish(&mb);
  h->found = pcl_xcalloc(pcl_len(h->objs) ? pcl_len(h->objs) : 1, sizeof *h->found);
  h->waiting = pcl_len(h->objs);
  for (size_t i = 0, n = pcl_len(h->objs); i < n; i++) {
    pcl_mapbuf ab = PCL_MAPBUF_INIT;
    pcl_mapbuf_put_cstr(&ab, "urn", pcl_retain(pcl_map_key_at(h->objs, i)));
    pcl_value *args = pcl_mapbuf_finish(&ab);
    pcl_invoke_request req = {.token = "pulumi:pulumi:getResource", .args = args};
    run->inflight++;
    run->engine->ops->invoke(run->engine, &req, hydrated_one, h);
    pcl_release(args);
  }
}

/* Slots of a registration's waitset after the inputs: options, then id,
 * then the package's reference. */
static void reg_send(waitset *w) {
  reg *r = w->data;
  pcl_run *run = r->run;
  size_t n = pcl_len(r->inputs);
  if (run->error) {
    pcl_future_mark_handled(r->result);
    pcl_future_reject(r->result, run->error);
    reg_free(r);
    return;
  }
  pcl_error *unregistered = package_failure(r->package);
  if (unregistered) {
    reg_fail(r, unregistered, true);
    reg_free(r);
    return;
  }
  pcl_future *bad = waitset_failed(w);
  if (bad) {
    reg_fail(r, pcl_error_copy(pcl_future_error(bad)), false);
    reg_free(r);
    return;
  }
  pcl_value *opts = slot_value(&w->s[n]);
  if (r->bad_inputs || (opts && pcl_kind_of(opts) != PCL_T_MAP)) {
    reg_fail(r,
             r->bad_inputs ? pcl_error_new("the inputs must be an object, not a %s", r->bad_inputs)
                           : pcl_error_new("the options must be an object, not a %s",
                                           pcl_kind_name(pcl_kind_of(opts))),
             true);
    reg_free(r);
    return;
  }
  if (opts != NULL && pcl_len(opts) == 0) {
    /* An empty options object sets nothing: looking every option up in it
     * would only cost. */
    opts = NULL;
  }
  /* Inputs and their dependencies. */
  pcl_mapbuf mb = PCL_MAPBUF_INIT;
  pcl_mapbuf rb = PCL_MAPBUF_INIT; /* A remote component's, per value. */
  bool remote = r->decl.kind == PCL_RES_REMOTE;
  pcl_deps **prop = pcl_xmalloc((n ? n : 1) * sizeof *prop);
  const pcl_deps **each = pcl_xmalloc((n ? n : 1) * sizeof *each);
  size_t m = 0; /* Inputs sent: a null input is left out, as SDKs do. */
  for (size_t i = 0; i < n; i++) {
    pcl_value *v = wire_value(&w->s[i]);
    const pcl_deps *d = slot_deps(&w->s[i]);
    each[i] = d;
    if (pcl_kind_of(v) == PCL_T_NULL) {
      pcl_release(v);
      continue;
    }
    pcl_value *cv = collapse(v);
    pcl_release(v);
    prop[m++] = remote ? deps_without_refs(d, cv) : pcl_deps_retain(d);
    pcl_mapbuf_put_take(&mb, pcl_retain(pcl_map_key_at(r->inputs, i)), cv);
    if (remote) {
      pcl_mapbuf_put_take(&rb, pcl_retain(pcl_map_key_at(r->inputs, i)),
                          per_value_wire(pcl_map_val_at(r->inputs, i)));
    }
  }
  pcl_value *inputs = pcl_mapbuf_finish(&mb);
  pcl_value *remote_inputs = remote ? pcl_mapbuf_finish(&rb) : NULL;
  pcl_deps *deps = pcl__deps_union_all(each, n);
  free(each);
  pcl_error *err = NULL;

  /* Options, with the parent's provider, protect and retainOnDelete
   * inherited when not given (the SDKs' option merging). */
  const char *parent = r->stack ? NULL : run->stack_urn;
  pcl_value *pv = opts ? pcl_map_get_cstr(opts, "parent") : NULL;
  if (pv && urn_of(pv)) {
    parent = urn_of(pv);
  }
  pcl__run_res *pres = parent ? run_res(run, parent) : NULL;
  pcl_value *prov = opts ? pcl_map_get_cstr(opts, "provider") : NULL;
  r->provider = prov ? provider_ref(prov) : NULL;
  /* The providers option (a map or a list), else the parent's. */
  pcl_value *pmap = opts ? opt_providers(pcl_map_get_cstr(opts, "providers")) : NULL;
  r->providers = pmap ? pmap : pres ? pcl_retain(pres->providers) : NULL;
  if (r->provider == NULL && r->decl.kind != PCL_RES_COMPONENT) {
    const char *type = r->decl.type;
    size_t plen = package_len(type);
    pcl_value *fromMap = r->providers ? pcl_map_get(r->providers, type, plen) : NULL;
    if (fromMap) {
      r->provider = pcl_xstrdup(pcl_str_data(fromMap));
    } else if (pres && pres->provider && package_len(pres->type) == plen &&
               memcmp(pres->type, type, plen) == 0) {
      r->provider = pcl_xstrdup(pres->provider);
    }
  }
  r->protect = (signed char)opt_bool(opts, "protect");
  if (r->protect < 0 && pres) {
    r->protect = pres->protect;
  }
  r->retain = (signed char)opt_bool(opts, "retainOnDelete");
  if (r->retain < 0 && pres) {
    r->retain = pres->retain;
  }
  pcl_value *depends = opt_urns(opts, "dependsOn", &deps);
  pcl_release(depends);
  pcl_value *deleted = opt_urns(opts, "deletedWith", NULL);
  pcl_value *timeouts = opt_timeouts(opts, &err);
  if (err) {
    pcl_release(deleted);
    pcl_release(inputs);
    for (size_t i = 0; i < m; i++) {
      pcl_deps_release(prop[i]);
    }
    free(prop);
    pcl_deps_release(deps);
    reg_fail(r, err, true);
    reg_free(r);
    return;
  }
  pcl_value *aso = opt_strings(opts, "additionalSecretOutputs");
  if (run->preview && !r->read && r->decl.kind == PCL_RES_CUSTOM && pcl_len(aso)) {
    r->elided_secrets = pcl_retain(aso);
  }
  pcl_value *imp = opts ? pcl_map_get_cstr(opts, "import") : NULL;
  pcl_value *al = opts ? pcl_map_get_cstr(opts, "aliases") : NULL;
  pcl_value *trig = opts ? pcl_map_get_cstr(opts, "replacementTrigger") : NULL;
  const char *version = r->decl.version, *url = r->decl.plugin_download_url;
  pcl_value *ov = opts ? pcl_map_get_cstr(opts, "version") : NULL;
  ov = ov && pcl_kind_of(ov) == PCL_T_STRING ? ov : NULL;
  if (ov) {
    version = pcl_str_data(ov);
  }
  pcl_value *ou = opts ? pcl_map_get_cstr(opts, "pluginDownloadURL") : NULL;
  ou = ou && pcl_kind_of(ou) == PCL_T_STRING ? ou : NULL;
  if (ou) {
    url = pcl_str_data(ou);
  }
  r->version = version ? pcl_xstrdup(version) : NULL;
  r->plugin_download_url = url ? pcl_xstrdup(url) : NULL;
  /* Options recorded only when set: envVarMappings, hooks, providers. */
  pcl_value *extra[3];
  static pcl_value *const extra_keys[] = {&k_env, &k_hooks, &k_providers};
  for (size_t i = 0; i < 3; i++) {
    extra[i] = opts ? pcl_map_get_cstr(opts, pcl_str_data(extra_keys[i])) : NULL;
    extra[i] = extra[i] && pcl_kind_of(extra[i]) != PCL_T_NULL ? extra[i] : NULL;
  }
  /* The record's entries go in key order, so that building its map sorts
   * nothing. */
  pcl_value *keys[20], *vals[20];
  size_t k = 0;
#define OPT(key, val) (keys[k] = &(key), vals[k] = (val), k++)
  OPT(k_aso, aso);
  OPT(k_aliases, collapse(al ? al : &empty_list));
  OPT(k_timeouts, timeouts);
  OPT(k_dbr, pcl_bool(opt_bool(opts, "deleteBeforeReplace") > 0));
  OPT(k_deleted, pcl_len(deleted) ? pcl_retain(pcl_list_at(deleted, 0)) : &empty_str);
  if (extra[0]) {
    OPT(k_env, collapse(extra[0]));
  }
  OPT(k_external, pcl_bool(r->read));
  OPT(k_hide, opt_paths(opts, "hideDiffs"));
  if (extra[1]) {
    OPT(k_hooks, collapse(extra[1]));
  }
  OPT(k_ignore, opt_strings(opts, "ignoreChanges"));
  OPT(k_import, pcl_retain(imp && pcl_kind_of(imp) == PCL_T_STRING ? imp : &empty_str));
  if (ou) {
    OPT(k_url, pcl_retain(ou));
  }
  OPT(k_protect, pcl_bool(r->protect > 0));
  if (extra[2]) {
    OPT(k_providers, collapse(extra[2]));
  }
  OPT(k_roc, opt_strings(opts, "replaceOnChanges"));
  OPT(k_replace_with, opt_urns(opts, "replaceWith", NULL));
  OPT(k_trigger, pcl_retain(trig ? trig : pcl_null()));
  OPT(k_retain, pcl_bool(r->retain > 0));
  if (ov) {
    OPT(k_version, pcl_retain(ov));
  }
#undef OPT
  /* Most resources set no option: share one record for them.  Both records
   * have their keys in order, so they compare entry by entry. */
  bool all_default = k == NDEFAULT_OPTS;
  for (size_t i = 0; all_default && i < k; i++) {
    all_default = keys[i] == default_opt_keys[i] && vals[i] == default_opt_vals[i];
  }
  pcl_value *options;
  if (all_default) {
    for (size_t i = 0; i < k; i++) {
      pcl_release(vals[i]);
    }
    options = &default_options;
  } else {
    options = pcl_map_of_take(keys, vals, k);
  }
  pcl_release(deleted);

  pcl_value *id = r->read ? wire_value(&w->s[n + 1]) : NULL;
  pcl_resource_request req = {
      .type = r->decl.type,
      .name = r->name,
      .kind = r->decl.kind,
      .read = r->read,
      .id = id,
      .parent = parent,
      .provider = r->provider,
      .version = version,
      .plugin_download_url = url,
      .inputs = inputs,
      .remote_inputs = remote_inputs,
      .prop_deps = prop,
      .deps = deps,
      .options = options,
      .providers = r->providers,
      .package_ref = package_ref_text(r->package),
      .file = r->decl.file,
      .line = r->decl.line,
      .column = r->decl.column,
      .protect = r->protect,
      .retain = r->retain,
  };
  run->inflight++;
  run->engine->ops->register_resource(run->engine, &req, reg_done, r);
  pcl_release(id);
  pcl_release(inputs);
  pcl_release(remote_inputs);
  pcl_release(options);
  for (size_t i = 0; i < m; i++) {
    pcl_deps_release(prop[i]);
  }
  free(prop);
  pcl_deps_release(deps);
}

/* Returns the label of the future of a registration (read: a read) of the
 * resource name of type (owned): "resource '<name>' (<type>)", made in one
 * allocation of its size since every registration has one. */
static char *reg_label(bool read, const char *name, const char *type) {
  const char *head = read ? "read of resource '" : "resource '";
  size_t h = strlen(head), n = strlen(name), t = strlen(type);
  char *label = pcl_xmalloc(h + n + 3 + t + 2);
  char *o = label;
  memcpy(o, head, h);
  o += h;
  memcpy(o, name, n);
  o += n;
  memcpy(o, "' (", 3);
  o += 3;
  memcpy(o, type, t);
  o += t;
  memcpy(o, ")", 2);
  return label;
}

/* Starts a registration or read. */
static pcl_future *reg_start(pcl_run *run, const pcl_resource_decl *decl, const char *name,
                             pcl_value *id, pcl_value *inputs, pcl_value *options, bool stack) {
  size_t len = strlen(name);
  reg *r = pcl__pool_alloc(reg_size(len));
  memset(r, 0, sizeof *r);
  memcpy(r->name, name, len + 1);
  r->run = run;
  r->result = pcl__future_new_label_take(PCL_OUTPUT, reg_label(id != NULL, name, decl->type));
  r->decl = *decl;
  r->read = id != NULL;
  r->stack = stack;
  if (inputs && pcl_kind_of(inputs) != PCL_T_MAP) {
    /* Reported by reg_send, once the loop runs. */
    r->bad_inputs = pcl_kind_name(pcl_kind_of(inputs));
    inputs = NULL;
  }
  r->inputs = pcl_retain(inputs ? inputs : &empty_map);
  r->package = package_ref(run, decl->type);
  size_t n = pcl_len(r->inputs);
  bool after_stack = !stack && run->stack_reg != NULL;
  waitset *w = waitset_new(n + 1 + (id != NULL) + (r->package != NULL) + after_stack, reg_send, r);
  for (size_t i = 0; i < n; i++) {
    waitset_put(w, i, pcl_map_val_at(r->inputs, i));
  }
  waitset_put(w, n, options ? options : &empty_map);
  if (id) {
    waitset_put(w, n + 1, id);
  }
  if (r->package) {
    /* The request waits for its package's reference. */
    waitset_put_future(w, n + 1 + (id != NULL), r->package);
  }
  if (after_stack) {
    /* Top-level resources are the stack's children (and others its
       descendants): none is sent before the stack is registered. */
    waitset_put_future(w, n + 1 + (id != NULL) + (r->package != NULL), run->stack_reg);
  }
  pcl_future *result = pcl_future_retain(r->result);
  waitset_start(w);
  return result;
}

pcl_future *pcl_register_resource(pcl_run *run, const pcl_resource_decl *decl, const char *name,
                                  pcl_value *inputs, pcl_value *options) {
  return reg_start(run, decl, name, NULL, inputs, options, false);
}

pcl_future *pcl_read_resource(pcl_run *run, const pcl_resource_decl *decl, const char *name,
                              pcl_value *id, pcl_value *inputs, pcl_value *options) {
  return reg_start(run, decl, name, id, inputs, options, false);
}

static const pcl_resource_decl stack_decl = {"pulumi:pulumi:Stack", PCL_RES_COMPONENT, NULL, NULL,
                                             NULL, 0, 0};

pcl_future *pcl__register_stack(pcl_run *run) {
  pcl_strbuf b = PCL_STRBUF_INIT;
  pcl_strbuf_appendf(&b, "%s-%s", run->project, run->stack);
  pcl_future *f = reg_start(run, &stack_decl, b.data, NULL, NULL, NULL, true);
  pcl_strbuf_free(&b);
  return f;
}

/* ------------------------------------------- invokes, calls, output records */

/* An invoke, call or outputs registration in progress. */
typedef struct op {
  pcl_run *run;         /* The run. */
  pcl_future *result;   /* Its future (owned). */
  char *token;          /* Function or method token, or the URN (owned). */
  int what;             /* 0 invoke, 1 call, 2 outputs. */
  pcl_deps *deps;       /* Dependencies the result carries (owned). */
  unsigned bits;        /* Bits the result carries. */
  pcl_value *object;    /* Outputs: the component object (owned), or NULL. */
  const char *file;     /* Invoke, call: the PCL file of the call (living as long as
                           the run), or NULL when unknown. */
  unsigned line, column; /* Its position in file (0 when unknown). */
  pcl_future *package;   /* Invoke, call: the reference of the token's parameterized
                            package (borrowed from the run; also the waitset's last
                            slot), or NULL. */
} op;

static void op_free(op *o) {
  pcl_future_release(o->result);
  pcl_deps_release(o->deps);
  pcl_release(o->object);
  free(o->token);
  free(o);
}

/* Rejects o's result with err (stolen).  An invoke or call failure is left
 * to whoever awaits the result, so the error reaches the run carrying the
 * PCL location of the expression that made the request (or is caught by
 * try/can); registering a component's outputs has no such expression, so
 * that failure fails the run at once. */
static void op_fail(op *o, pcl_error *err) {
  if (o->what == 2) {
    pcl_run_fail(o->run, err);
    pcl_future_mark_handled(o->result);
  }
  pcl_future_reject_take(o->result, err);
}

static void op_done(void *data, pcl_value *result, const pcl_error *err) {
  op *o = data;
  o->run->inflight--;
  static const char *const what[] = {"invoke of", "call of", "registering the outputs of"};
  if (err) {
    pcl_error *e = pcl_error_copy(err);
    pcl_error_prefix(e, "%s '%s' failed", what[o->what], o->token);
    op_fail(o, e);
  } else if (o->what == 2 && o->object) {
    pcl_value *merged;
    pcl_mapbuf mb = PCL_MAPBUF_INIT;
    for (size_t i = 0; i < pcl_len(o->object); i++) {
      pcl_mapbuf_put_take(&mb, pcl_retain(pcl_map_key_at(o->object, i)),
                          pcl_retain(pcl_map_val_at(o->object, i)));
    }
    for (size_t i = 0; i < pcl_len(result); i++) {
      pcl_mapbuf_put_take(&mb, pcl_retain(pcl_map_key_at(result, i)),
                          pcl_retain(pcl_map_val_at(result, i)));
    }
    merged = pcl_mapbuf_finish(&mb);
    pcl_future_resolve(o->result, merged, o->bits, o->deps);
    pcl_release(merged);
  } else {
    pcl_future_resolve(o->result, result, o->bits, o->deps);
  }
  op_free(o);
}

/* Returns the settled arguments of slot s as a MAP for a request (owned),
 * with *secret set when they hold a secret; NULL with *err when they are
 * not an object.  A wholly unknown argument value gives UNKNOWN. */
static pcl_value *args_map(const slot *s, const char *what, const char *token, bool *secret,
                           pcl_error **err) {
  pcl_value *v = wire_value(s);
  *secret = pcl_has_secret(v);
  pcl_value *plain = v;
  while (pcl_kind_of(plain) == PCL_T_SECRET) {
    plain = pcl_secret_inner(plain);
  }
  pcl_value *r = NULL;
  if (pcl_kind_of(plain) == PCL_T_UNKNOWN) {
    r = pcl_unknown();
  } else if (pcl_kind_of(plain) == PCL_T_NULL) {
    r = pcl_map_of(NULL, NULL, 0);
  } else if (pcl_kind_of(plain) == PCL_T_MAP) {
    r = collapse(plain);
  } else {
    *err = pcl_error_new("%s '%s': the arguments must be an object, not a %s", what, token,
                         pcl_kind_name(pcl_kind_of(plain)));
  }
  pcl_release(v);
  return r;
}

/* The slots of an operation's waitset: the receiver (calls and component
 * outputs), then the arguments, then the options, then the reference of
 * the token's parameterized package. */
typedef struct opstart {
  op *o;             /* The operation. */
  bool has_self;     /* f[0] is the receiver (call) or component (outputs). */
  pcl_value *args;   /* An invoke's or call's arguments as given (owned), or NULL:
                        their dependencies, each value's its own. */
} opstart;

/* The dependency sets of the futures a walk met, for one union at the end
 * (a union at each would copy the growing set). */
typedef struct deps_gather {
  const pcl_deps **sets; /* The sets (borrowed from the futures). */
  size_t n, cap;         /* Used and allocated. */
} deps_gather;

/* Adds to acc (a deps_gather) the dependencies of the EVENTUAL e and of
 * every future in its value once settled. */
static void settled_future_deps(const pcl_value *e, void *acc) {
  deps_gather *g = acc;
  pcl_future *f = pcl_value_future(e);
  if (f == NULL) {
    return;
  }
  PCL__GROW(g->sets, g->cap, g->n + 1);
  g->sets[g->n++] = pcl_future_deps(f);
  if (pcl_future_state_of(f) == PCL_FUTURE_RESOLVED && pcl_future_value(f)) {
    pcl__value_each_kind(pcl_future_value(f), PCL_T_EVENTUAL, settled_future_deps, g);
  }
}

/* Returns the dependencies of every future in v (settled), at any depth
 * (owned; NULL for none). */
static pcl_deps *settled_deps(const pcl_value *v) {
  deps_gather g = {NULL, 0, 0};
  pcl__value_each_kind(v, PCL_T_EVENTUAL, settled_future_deps, &g);
  pcl_deps *d = pcl__deps_union_all(g.sets, g.n);
  free(g.sets);
  return d;
}

/* Returns whether an invoke depending on the resources deps must not be
 * sent: in a preview, one of them is a component or not created yet (its
 * id is unknown), which the engine waits for before it sends an invoke, so
 * the invoke's result is unknown (as the engine answers it). */
static bool invoke_gated(pcl_run *run, const pcl_deps *deps) {
  size_t n = pcl_deps_count(deps);
  if (!run->preview || n == 0) {
    return false;
  }
  const char **urns = pcl_xmalloc(n * sizeof *urns);
  pcl_deps_sorted(deps, urns);
  bool gated = false;
  for (size_t i = 0; i < n && !gated; i++) {
    const pcl__run_res *rr = run_res(run, urns[i]);
    gated = rr != NULL && rr->gates_invokes;
  }
  free(urns);
  return gated;
}

/* Returns the MAP (owned) from each argument name of a call to the sorted
 * LIST of URNs it depends on (resources passed by reference left out, as
 * for a remote component's inputs), from the arguments as given (in) and as
 * sent (sent); NULL when in is not a MAP. */
static pcl_value *call_arg_deps(const pcl_value *in, pcl_value *sent) {
  if (in == NULL || pcl_kind_of(in) != PCL_T_MAP) {
    return NULL;
  }
  pcl_mapbuf mb = PCL_MAPBUF_INIT;
  for (size_t i = 0; i < pcl_len(in); i++) {
    const pcl_value *k = pcl_map_key_at(in, i);
    pcl_value *arg = pcl_map_get(sent, pcl_str_data(k), pcl_str_len(k));
    if (arg == NULL) {
      continue;
    }
    pcl_deps *all = settled_deps(pcl_map_val_at(in, i));
    pcl_deps *d = deps_without_refs(all, arg);
    pcl_value *l = pcl__deps_list(d);
    pcl_deps_release(all);
    pcl_deps_release(d);
    pcl_mapbuf_put_take(&mb, pcl_retain(pcl_map_key_at(in, i)), l);
  }
  return pcl_mapbuf_finish(&mb);
}

/* Returns the registered resource that the receiver slot of a method call
 * (the resource object) names, or NULL. */
static const pcl__run_res *receiver(pcl_run *run, const slot *s) {
  pcl_value *self = slot_value(s);
  const char *urn = self ? urn_of(self) : NULL;
  return urn ? run_res(run, urn) : NULL;
}

/* Returns the arguments in (as given, borrowed; every future in them
 * settled) as per_value_wire sends them: a MAP (owned), each member with
 * what the whole carries when the arguments are a future themselves;
 * an empty MAP when they are null. */
static pcl_value *per_value_args(const pcl_value *in) {
  pcl_future *top = pcl_value_future(in);
  const pcl_value *m = top ? pcl_future_value(top) : in;
  unsigned bits = top ? pcl_future_bits(top) : 0;
  while (m && pcl_kind_of(m) == PCL_T_SECRET) {
    bits |= PCL_FUT_SECRET;
    m = pcl_secret_inner(m);
  }
  pcl_mapbuf mb = PCL_MAPBUF_INIT;
  for (size_t i = 0; m && pcl_kind_of(m) == PCL_T_MAP && i < pcl_len(m); i++) {
    pcl_value *w = per_value_wire(pcl_map_val_at(m, i));
    pcl_deps *deps = top ? deps_without_refs(pcl_future_deps(top), w) : NULL;
    if (bits != 0 || pcl_deps_count(deps) > 0) {
      /* The whole's bits and dependencies reach each member: resolving
       * with an EVENTUAL member merges its own into them. */
      pcl_future *g = pcl_future_new(PCL_OUTPUT, NULL);
      pcl_future_resolve(g, w, bits, deps);
      pcl_release(w);
      w = pcl_future_to_value(g);
      pcl_future_release(g);
    }
    pcl_deps_release(deps);
    pcl_mapbuf_put_take(&mb, pcl_retain(pcl_map_key_at(m, i)), w);
  }
  return pcl_mapbuf_finish(&mb);
}

/* Returns the union of *deps and the dependencies of the receiver slot of
 * a method call into *deps: a call's result depends on its receiver, as a
 * value computed from it does. */
static void add_receiver_deps(pcl_deps **deps, const slot *self) {
  pcl_deps *u = pcl_deps_union(*deps, slot_deps(self));
  pcl_deps_release(*deps);
  *deps = u;
}

static void op_send(waitset *w) {
  opstart *s = w->data;
  op *o = s->o;
  pcl_run *run = o->run;
  size_t first = s->has_self ? 1 : 0;
  pcl_future *bad = waitset_failed(w);
  static const char *const what[] = {"invoke of", "call of", "registering the outputs of"};
  pcl_error *err = NULL;
  bool secret = false;
  pcl_value *args = NULL;
  pcl_error *unregistered = NULL;
  if (run->error) {
    pcl_future_mark_handled(o->result);
    pcl_future_reject(o->result, run->error);
    op_free(o);
  } else if ((unregistered = package_failure(o->package)) != NULL) {
    pcl_error_prefix(unregistered, "%s '%s' failed", what[o->what], o->token);
    op_fail(o, unregistered);
    op_free(o);
  } else if (bad) {
    op_fail(o, pcl_error_copy(pcl_future_error(bad)));
    op_free(o);
  } else if ((args = args_map(&w->s[first], what[o->what], o->token, &secret, &err)) == NULL) {
    op_fail(o, err);
    op_free(o);
  } else {
    pcl_deps_release(o->deps);
    o->deps = pcl_deps_retain(slot_deps(&w->s[first]));
    pcl_value *opts = slot_value(&w->s[first + 1]);
    pcl_value *depends = opt_urns(opts, "dependsOn", &o->deps);
    pcl_release(depends);
    /* The engine takes every output inside the arguments with its own
     * dependencies and secrecy, and answers with the provider's outputs so:
     * the result then carries only what dependsOn and the receiver give
     * it, each value inside it its own. */
    bool per_value = o->what == 0   ? run->engine->invoke_output_values
                     : o->what == 1 ? run->engine->call_output_values
                                    : false;
    pcl_deps *own = NULL;
    pcl_release(opt_urns(opts, "dependsOn", &own));
    if (o->what == 1 && s->has_self) {
      add_receiver_deps(&o->deps, &w->s[0]);
      add_receiver_deps(&own, &w->s[0]);
    }
    pcl_value *prov = opts ? pcl_map_get_cstr(opts, "provider") : NULL;
    char *provider = prov ? provider_ref(prov) : NULL;
    pcl_value *parent = opts ? pcl_map_get_cstr(opts, "parent") : NULL;
    if (provider == NULL && o->what == 0 && parent && urn_of(parent)) {
      /* An invoke parented to a resource uses the provider its package has
       * there (the parent's providers option or provider), as a child
       * resource would. */
      provider = inherited_provider(run_res(run, urn_of(parent)), o->token);
    }
    pcl_value *ver = opts ? pcl_map_get_cstr(opts, "version") : NULL;
    pcl_value *url = opts ? pcl_map_get_cstr(opts, "pluginDownloadUrl") : NULL;
    if (url == NULL && opts) {
      url = pcl_map_get_cstr(opts, "pluginDownloadURL");
    }
    const char *version = ver && pcl_kind_of(ver) == PCL_T_STRING ? pcl_str_data(ver) : NULL;
    const char *download = url && pcl_kind_of(url) == PCL_T_STRING ? pcl_str_data(url) : NULL;
    const pcl__run_res *callee = o->what == 1 && s->has_self ? receiver(run, &w->s[0]) : NULL;
    if (callee) {
      /* A method call asks for the receiver's package version and download
       * URL unless it gives its own, as the SDKs do, so that the engine's
       * default provider for the call is the receiver's. */
      version = version ? version : callee->version;
      download = download ? download : callee->plugin_download_url;
    }
    pcl_invoke_request req = {
        .token = o->token,
        .args = args,
        .provider = provider,
        .version = version,
        .plugin_download_url = download,
        .package_ref = package_ref_text(o->package),
        .file = o->file,
        .line = o->line,
        .column = o->column,
    };
    if (o->what == 2) {
      /* Component outputs: the receiver is the component object. */
      pcl_value *comp = slot_value(&w->s[0]);
      const char *urn = comp ? urn_of(comp) : NULL;
      free(o->token);
      o->token = pcl_xstrdup(urn ? urn : "?");
      o->object = pcl_retain(comp);
      /* The component object depends on the component only (program.md
       * §5), not on what its outputs were computed from. */
      pcl_deps_release(o->deps);
      o->deps = pcl_deps_retain(slot_deps(&w->s[0]));
      run->inflight++;
      run->engine->ops->register_outputs(run->engine, o->token, args, op_done, o);
    } else if (!pcl_is_wholly_known(args) || (o->what == 0 && invoke_gated(run, o->deps))) {
      /* An invoke or call over unknown arguments (a preview) is unknown,
       * and so is an invoke that depends on what a preview does not
       * create. */
      pcl_future_resolve(o->result, NULL, PCL_FUT_UNKNOWN | (secret ? PCL_FUT_SECRET : 0),
                         o->deps);
      op_free(o);
    } else {
      o->bits = secret && !per_value ? PCL_FUT_SECRET : 0;
      if (per_value) {
        pcl_deps_release(o->deps);
        o->deps = pcl_deps_retain(own);
        pcl_release(args);
        args = per_value_args(s->args ? s->args : &empty_map);
        req.args = args;
      }
      run->inflight++;
      if (o->what == 1) {
        pcl_value *self = slot_value(&w->s[0]);
        pcl_value *ref = collapse(self ? self : pcl_null());
        pcl_mapbuf mb = PCL_MAPBUF_INIT;
        for (size_t i = 0; i < pcl_len(args); i++) {
          pcl_mapbuf_put_take(&mb, pcl_retain(pcl_map_key_at(args, i)),
                              pcl_retain(pcl_map_val_at(args, i)));
        }
        pcl_mapbuf_put_cstr(&mb, "__self__", ref);
        pcl_value *with_self = pcl_mapbuf_finish(&mb);
        pcl_value *arg_deps = call_arg_deps(s->args, args);
        req.args = with_self;
        req.arg_deps = arg_deps;
        run->engine->ops->call(run->engine, &req, op_done, o);
        pcl_release(with_self);
        pcl_release(arg_deps);
      } else {
        run->engine->ops->invoke(run->engine, &req, op_done, o);
      }
    }
    free(provider);
    pcl_release(args);
    pcl_deps_release(own);
  }
  pcl_release(s->args);
  free(s);
}

/* Starts an invoke (what 0), call (1) or outputs registration (2) whose
 * request carries the PCL location file:line:column (file NULL: none). */
static pcl_future *op_start(pcl_run *run, int what, const char *token, pcl_value *self,
                            pcl_future *self_f, pcl_value *args, pcl_value *options,
                            const char *file, unsigned line, unsigned column) {
  op *o = pcl_xcalloc(1, sizeof *o);
  o->file = file;
  o->line = line;
  o->column = column;
  static const char *const kinds[] = {"invoke '", "call '", "outputs of '"};
  pcl_strbuf label = PCL_STRBUF_INIT;
  pcl_strbuf_append_cstr(&label, kinds[what]);
  pcl_strbuf_append_cstr(&label, token);
  pcl_strbuf_append_char(&label, '\'');
  o->run = run;
  o->what = what;
  o->token = pcl_xstrdup(token);
  o->result = pcl_future_new(PCL_OUTPUT, label.data);
  pcl_strbuf_free(&label);
  opstart *s = pcl_xmalloc(sizeof *s);
  s->o = o;
  s->has_self = self != NULL || self_f != NULL;
  s->args = what != 2 && args ? pcl_retain(args) : NULL;
  o->package = what != 2 ? package_ref(run, token) : NULL;
  size_t first = s->has_self ? 1 : 0;
  bool after_stack = run->stack_reg != NULL;
  waitset *w = waitset_new(first + 2 + (o->package != NULL) + after_stack, op_send, s);
  if (self_f) {
    waitset_put_future(w, 0, self_f);
  } else if (self) {
    waitset_put(w, 0, self);
  }
  waitset_put(w, first, args ? args : &empty_map);
  waitset_put(w, first + 1, options ? options : &empty_map);
  if (o->package) {
    /* The request waits for its package's reference. */
    waitset_put_future(w, first + 2, o->package);
  }
  if (after_stack) {
    /* Invokes and calls wait for the stack like registrations, so that
       every engine sees the program's requests in the same order. */
    waitset_put_future(w, first + 2 + (o->package != NULL), run->stack_reg);
  }
  pcl_future *result = pcl_future_retain(o->result);
  waitset_start(w);
  return result;
}

pcl_future *pcl_invoke(pcl_run *run, const char *token, pcl_value *args, pcl_value *options) {
  return op_start(run, 0, token, NULL, NULL, args, options, NULL, 0, 0);
}

pcl_future *pcl__invoke_at(pcl_run *run, const char *token, pcl_value *args, pcl_value *options,
                           const char *file, unsigned line, unsigned column) {
  return op_start(run, 0, token, NULL, NULL, args, options, file, line, column);
}

pcl_future *pcl_call(pcl_run *run, const char *token, pcl_value *self, pcl_value *args,
                     pcl_value *options) {
  return op_start(run, 1, token, self, NULL, args, options, NULL, 0, 0);
}

pcl_future *pcl__call_at(pcl_run *run, const char *token, pcl_value *self, pcl_value *args,
                         pcl_value *options, const char *file, unsigned line, unsigned column) {
  return op_start(run, 1, token, self, NULL, args, options, file, line, column);
}

/* ------------------------------------------------------------ resourceExists */

/* A resourceExists check in progress: its waitset holds the id, the state,
 * then the reference of the type's parameterized package and the stack's
 * registration when there are. */
typedef struct exists_op {
  pcl_run *run;        /* The run. */
  pcl_future *result;  /* Its future (owned). */
  char *type;          /* The type token (owned). */
  pcl_deps *deps;      /* The dependencies of the id and the state (owned). */
  unsigned bits;       /* PCL_FUT_SECRET when the id or the state is secret. */
  pcl_future *package; /* The reference of the type's package (borrowed), or NULL. */
} exists_op;

static void exists_free(exists_op *x) {
  pcl_future_release(x->result);
  pcl_deps_release(x->deps);
  free(x->type);
  free(x);
}

static void exists_done(void *data, pcl_value *result, const pcl_error *err) {
  exists_op *x = data;
  x->run->inflight--;
  if (err) {
    pcl_error *e = pcl_error_copy(err);
    pcl_error_prefix(e, "resourceExists of '%s' failed", x->type);
    pcl_future_reject_take(x->result, e);
  } else if (pcl_kind_of(result) == PCL_T_UNKNOWN) {
    pcl_future_resolve(x->result, NULL, PCL_FUT_UNKNOWN | x->bits, x->deps);
  } else {
    pcl_future_resolve(x->result, result, x->bits, x->deps);
  }
  exists_free(x);
}

/* Returns the settled value of slot s without its top-level secret marks
 * (owned), noting a secret in *secret. */
static pcl_value *exists_arg(const slot *s, bool *secret) {
  pcl_value *v = wire_value(s);
  *secret = *secret || pcl_has_secret(v);
  pcl_value *plain = v;
  while (pcl_kind_of(plain) == PCL_T_SECRET) {
    plain = pcl_secret_inner(plain);
  }
  pcl_retain(plain);
  pcl_release(v);
  return plain;
}

static void exists_send(waitset *w) {
  exists_op *x = w->data;
  pcl_run *run = x->run;
  pcl_future *bad = waitset_failed(w);
  pcl_error *unregistered = NULL;
  if (run->error) {
    pcl_future_mark_handled(x->result);
    pcl_future_reject(x->result, run->error);
    exists_free(x);
    return;
  }
  if ((unregistered = package_failure(x->package)) != NULL) {
    pcl_error_prefix(unregistered, "resourceExists of '%s' failed", x->type);
    pcl_future_reject_take(x->result, unregistered);
    exists_free(x);
    return;
  }
  if (bad) {
    pcl_future_reject(x->result, pcl_future_error(bad));
    exists_free(x);
    return;
  }
  bool secret = false;
  pcl_value *id = exists_arg(&w->s[0], &secret);
  pcl_value *state = exists_arg(&w->s[1], &secret);
  x->deps = pcl_deps_union(slot_deps(&w->s[0]), slot_deps(&w->s[1]));
  x->bits = secret ? PCL_FUT_SECRET : 0;
  pcl_kind ik = pcl_kind_of(id), sk = pcl_kind_of(state);
  if (ik != PCL_T_STRING && ik != PCL_T_UNKNOWN) {
    pcl_future_reject_take(x->result, pcl_error_new("resourceExists: the id must be a string, "
                                                    "not a %s",
                                                    pcl_kind_name(ik)));
    exists_free(x);
  } else if (sk != PCL_T_MAP && sk != PCL_T_NULL && sk != PCL_T_UNKNOWN) {
    pcl_future_reject_take(x->result, pcl_error_new("resourceExists: the state must be an "
                                                    "object, not a %s",
                                                    pcl_kind_name(sk)));
    exists_free(x);
  } else if (ik == PCL_T_UNKNOWN || pcl_str_len(id) == 0 || !pcl_is_wholly_known(state)) {
    /* No id yet (a preview of a resource not created) or a state not known:
     * nothing to ask, and the answer is unknown. */
    pcl_future_resolve(x->result, NULL, PCL_FUT_UNKNOWN | x->bits, x->deps);
    exists_free(x);
  } else if (run->engine->ops->exists_resource == NULL) {
    pcl_future_reject_take(x->result,
                           pcl_error_new("resourceExists: the %s engine cannot tell whether a "
                                         "resource exists",
                                         run->engine->ops->name));
    exists_free(x);
  } else {
    pcl_value *sent = sk == PCL_T_MAP ? collapse(state) : NULL;
    pcl_exists_request req = {
        .type = x->type,
        .id = pcl_str_data(id),
        .state = sent,
        .package_ref = package_ref_text(x->package),
    };
    run->inflight++;
    run->engine->ops->exists_resource(run->engine, &req, exists_done, x);
    pcl_release(sent);
  }
  pcl_release(id);
  pcl_release(state);
}

pcl_future *pcl__resource_exists(pcl_run *run, const char *type, pcl_value *id,
                                 pcl_value *state) {
  exists_op *x = pcl_xcalloc(1, sizeof *x);
  x->run = run;
  x->type = pcl_xstrdup(type);
  pcl_strbuf label = PCL_STRBUF_INIT;
  pcl_strbuf_appendf(&label, "resourceExists '%s'", type);
  x->result = pcl_future_new(PCL_OUTPUT, label.data);
  pcl_strbuf_free(&label);
  x->package = package_ref(run, type);
  bool after_stack = run->stack_reg != NULL;
  waitset *w = waitset_new((size_t)2 + (x->package != NULL) + after_stack, exists_send, x);
  waitset_put(w, 0, id);
  waitset_put(w, 1, state ? state : pcl_null());
  if (x->package) {
    waitset_put_future(w, 2, x->package);
  }
  if (after_stack) {
    /* Like invokes, after the stack, so that every engine sees the
       program's requests in the same order. */
    waitset_put_future(w, (size_t)2 + (x->package != NULL), run->stack_reg);
  }
  pcl_future *result = pcl_future_retain(x->result);
  waitset_start(w);
  return result;
}

/* The value of a single-value function's result object {name: v}. */
static pcl_value *single_value_cb(pcl_value *const *args, size_t n, void *data, pcl_error **err) {
  (void)n;
  (void)data;
  if (pcl_kind_of(args[0]) == PCL_T_MAP && pcl_len(args[0]) == 1) {
    return pcl_retain(pcl_map_val_at(args[0], 0));
  }
  if (pcl_kind_of(args[0]) == PCL_T_MAP && pcl_len(args[0]) == 0) {
    return pcl_null();
  }
  *err = pcl_error_new("the result of a function with a single return value must hold one value");
  return NULL;
}

pcl_future *pcl_single_result(pcl_future *result) {
  return pcl_apply(&result, 1, single_value_cb, NULL, NULL, 0);
}

pcl_future *pcl_register_component_outputs(pcl_run *run, pcl_future *component,
                                           pcl_value *outputs) {
  return op_start(run, 2, "component", NULL, component, outputs, NULL, NULL, 0, 0);
}

void pcl_export(pcl_run *run, const char *name, pcl_value *value) {
  pcl_mapbuf_put_cstr(&run->exports, name, pcl_retain(value));
}

/* Collects the settled values of w's futures into a MAP with the keys of
 * keys_of (owned); resource objects are collapsed into references. */
static pcl_value *wire_map(waitset *w, pcl_value *keys_of) {
  pcl_mapbuf mb = PCL_MAPBUF_INIT;
  for (size_t i = 0; i < pcl_len(keys_of); i++) {
    pcl_value *v = wire_value(&w->s[i]);
    pcl_mapbuf_put_take(&mb, pcl_retain(pcl_map_key_at(keys_of, i)), collapse(v));
    pcl_release(v);
  }
  return pcl_mapbuf_finish(&mb);
}

/* The stack's outputs are the exports, registered together. */
typedef struct stack_outputs {
  pcl_run *run;        /* The run. */
  pcl_future *result;  /* Settles when the engine recorded them (owned). */
  pcl_value *names;    /* MAP of the exports (owned). */
} stack_outputs;

static void stack_outputs_done(void *data, pcl_value *result, const pcl_error *err) {
  stack_outputs *so = data;
  so->run->inflight--;
  if (err) {
    pcl_run_fail(so->run, err);
    pcl_future_mark_handled(so->result);
    pcl_future_reject(so->result, err);
  } else {
    pcl_future_resolve(so->result, result, 0, NULL);
  }
  pcl_future_release(so->result);
  pcl_release(so->names);
  free(so);
}

static void stack_outputs_send(waitset *w) {
  stack_outputs *so = w->data;
  pcl_run *run = so->run;
  pcl_future *bad = waitset_failed(w);
  if (bad) {
    pcl_error *e = pcl_error_copy(pcl_future_error(bad));
    pcl_run_fail(run, e);
    pcl_future_mark_handled(so->result);
    pcl_future_reject_take(so->result, e);
  } else if (run->error) {
    pcl_future_mark_handled(so->result);
    pcl_future_reject(so->result, run->error);
  } else {
    pcl_value *outs = wire_map(w, so->names);
    run->inflight++;
    pcl_future_retain(so->result);
    run->engine->ops->register_outputs(run->engine, run->stack_urn, outs, stack_outputs_done, so);
    pcl_release(outs);
    pcl_future_release(so->result);
    return;
  }
  pcl_future_release(so->result);
  pcl_release(so->names);
  free(so);
}

pcl_future *pcl__register_stack_outputs(pcl_run *run) {
  stack_outputs *so = pcl_xmalloc(sizeof *so);
  so->run = run;
  so->result = pcl_future_new(PCL_OUTPUT, "registration of the stack outputs");
  so->names = pcl_mapbuf_finish(&run->exports);
  size_t n = pcl_len(so->names);
  waitset *w = waitset_new(n ? n : 1, stack_outputs_send, so);
  for (size_t i = 0; i < n; i++) {
    waitset_put(w, i, pcl_map_val_at(so->names, i));
  }
  if (n == 0) {
    waitset_put(w, 0, pcl_null());
  }
  pcl_future *r = pcl_future_retain(so->result);
  waitset_start(w);
  return r;
}
