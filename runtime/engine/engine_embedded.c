/* engine_embedded.c: the default engine backend, in process and
 * deterministic (DECISIONS.md D7).
 *
 * Takes registration, read, invoke, call and output requests; answers each
 * on a later loop turn (so many are in flight at once); keeps a record of
 * every resource for the snapshot (docs/snapshot.md).  URNs are built the
 * Pulumi way (urn:pulumi:<stack>::<project>::<parent types$><type>::<name>);
 * custom resources and remote components without an explicit provider get a
 * default provider resource (pulumi:providers:<pkg>, named default_<version>
 * as conformance/providers/BEHAVIOUR.md describes), created on first use.
 * Outputs echo the inputs unless a mock (C or JSON) says otherwise; in a
 * preview the id of a created resource and the JSON mock outputs the inputs
 * do not give are unknown, while a C mock, which knows it is a preview,
 * answers as a provider's preview Create does (finish_resource).  The
 * pulumi package's own resources, StackReference and Stash, are served as
 * the engine's built-in provider serves them, with the default provider
 * pulumi:providers:pulumi::default, and no mock.  A parameterized package
 * is registered under a reference made up here; a request carrying it is
 * the package's (its version and download URL name the providers, and the
 * mocks get the package); an extension's default provider is its base
 * provider's, at the base version, as the engine serves an extension with
 * the base provider itself.  Whether a resource exists (resourceExists)
 * is answered from the records, as no provider's Read is at hand.  The
 * diagnostics of the run (messages logged, failed registrations) are kept
 * for the snapshot.
 *
 * Invariants: records are kept in registration order, the stack first;
 * nothing depends on pointer values or hash order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "value/pcl_internal.h"

/* One resource as recorded for the snapshot. */
typedef struct rec {
  const char *urn;      /* URN (interned). */
  const char *type;     /* Type token (interned). */
  pcl_resource_kind kind; /* Custom, component or remote. */
  bool read;            /* Read, not created. */
  const char *parent;   /* Parent URN (interned) or NULL. */
  const char *provider; /* Provider reference (interned) or NULL. */
  pcl_value *id;        /* Id (owned). */
  pcl_value *inputs;    /* Inputs MAP (owned). */
  pcl_value *outputs;   /* Outputs MAP (owned), NULL until created. */
  pcl_deps *deps;       /* All dependencies (owned). */
  pcl_deps **prop_deps; /* Per input entry, parallel to inputs (owned). */
  pcl_value *options;   /* MAP of options (owned). */
  bool failed;          /* The registration failed: the state leaves it out. */
  char name[];          /* Logical name, in the record's block. */
} rec;

/* Returns the size of the block of a record whose name has len bytes. */
static size_t rec_size(size_t len) { return sizeof(rec) + len + 1; }

/* A request waiting for its loop turn (or forever, for a hanging mock). */
typedef struct pending {
  struct emb *e;        /* The engine. */
  rec *r;               /* The record, for registrations. */
  pcl_resource_cb rcb;  /* Registration completion, or NULL. */
  pcl_engine_cb ecb;    /* Other completion, or NULL. */
  void *data;           /* Completion data. */
  pcl_value *result;    /* Invoke/call result (owned), or NULL. */
  pcl_error *err;       /* Failure (owned), or NULL. */
  pcl_value *read_id;   /* The id a read asked for (owned), or NULL. */
  bool deferred;        /* A mock called pcl_mock_defer on it. */
  bool awaiting;        /* Deferred and not answered yet. */
  bool cancelled;       /* Answered by emb_cancel while the mock held it. */
  bool hooked;          /* Its afterCreate hooks ran. */
  pcl_resource_kind kind; /* A registration: what it registers. */
  pcl_value *providers; /* A remote component's providers for its children (owned), or NULL. */
  size_t package;       /* 1 + the index of its parameterized package, or 0. */
  struct pending *next; /* Next request in the hung or orphan list. */
} pending;

/* A default provider reference already made, for a package, version and
 * plugin download URL (the three that name a default provider). */
typedef struct prov_cache {
  const char *ref; /* The provider reference (interned). */
  char *type;     /* A resource type of the package (owned). */
  size_t pkg_len; /* Length of that type's package. */
  char *version;  /* The version (owned) or NULL. */
  char *url;      /* The download URL (owned) or NULL. */
} prov_cache;

/* A diagnostic the run reported, kept for the snapshot. */
typedef struct diagnostic {
  pcl_log_severity sev; /* Severity. */
  char *urn;            /* The resource it is about (owned), or NULL. */
  char *msg;            /* The message (owned). */
} diagnostic;

/* A parameterized package the run registered. */
typedef struct emb_package {
  char *ref;       /* The reference the engine gave it (owned). */
  pcl_package pkg; /* The package; its strings and value owned. */
} emb_package;

/* Distinct default providers remembered; a program uses a handful. */
#define PROV_CACHE_SIZE 16

/* A hook the program registered. */
typedef struct emb_hook {
  char *name;         /* Its name (owned). */
  pcl_hook *hook;     /* The hook (owned). */
  bool error_hook;    /* An error hook. */
  bool on_dry_run;    /* Runs in previews too. */
  bool ignore_errors; /* A failure is a warning. */
} emb_hook;

typedef struct emb {
  pcl_engine base;          /* Must be first. */
  char *project, *stack, *org; /* Names (owned). */
  bool preview;             /* Dry run. */
  pcl_mocks cmocks;         /* C mocks (copied), all NULL when none. */
  pcl__json_mocks *jmocks;  /* JSON mocks or NULL. */
  pcl_value *stack_refs;    /* Stack references MAP (owned) or NULL. */
  pcl_value *config;        /* Stack config MAP (owned) or NULL. */
  rec **recs;               /* Records in registration order. */
  size_t n, cap;            /* Records used and allocated. */
  pending *hung;            /* Requests a mock never answers. */
  size_t nproviders;        /* Provider ids handed out. */
  pcl_value *stack_outputs; /* Registered stack outputs (owned) or NULL. */
  pcl__urn_index index;     /* Interned URN -> record. */
  pending *orphans;         /* Cancelled requests an asynchronous mock still holds. */
  prov_cache provs[PROV_CACHE_SIZE]; /* Default providers already made. */
  size_t nprovs;            /* Entries of provs used. */
  size_t prov_evict;        /* The entry to replace next once provs is full. */
  diagnostic *diags;        /* Diagnostics reported, in order. */
  size_t ndiags, capdiags;  /* Used and allocated. */
  emb_package *packages;    /* Parameterized packages registered, in order. */
  size_t npackages, cappackages; /* Their number, and the allocated. */
  emb_hook *hooks;          /* Hooks registered, in order. */
  size_t nhooks, caphooks;  /* Their number, and the allocated. */
} emb;

/* Returns a new request of e, zeroed but for its engine; given back with
 * pcl__pool_free(p, sizeof *p) once answered. */
static pending *pending_new(emb *e) {
  pending *p = pcl__pool_alloc(sizeof *p);
  memset(p, 0, sizeof *p);
  p->e = e;
  return p;
}

static rec *find_rec(const emb *e, const char *urn) {
  return pcl__urn_index_get(&e->index, pcl_urn_intern(urn));
}

/* Returns the interned URN of the resource type and name (a NUL-terminated
 * copy is not kept) under parent (may be NULL). */
static const char *rec_urn(const emb *e, const char *type, const char *name,
                           const char *parent) {
  return pcl__urn_intern_take(pcl_urn_make(e->stack, e->project, parent, type, name));
}

/* Adds the record of the resource type and name under parent (may be NULL)
 * whose URN is urn (interned, from rec_urn). */
static rec *add_rec(emb *e, const char *urn, const char *type, const char *name,
                    const char *parent) {
  size_t len = strlen(name);
  rec *r = pcl__pool_alloc(rec_size(len));
  memset(r, 0, sizeof *r);
  memcpy(r->name, name, len + 1);
  r->urn = urn;
  r->type = pcl_urn_intern(type);
  r->parent = parent ? pcl_urn_intern(parent) : NULL;
  PCL__GROW(e->recs, e->cap, e->n + 1);
  e->recs[e->n++] = r;
  pcl__urn_index_put(&e->index, urn, r);
  return r;
}

static void free_rec(rec *r) {
  pcl_release(r->id);
  pcl_deps_release(r->deps);
  for (size_t i = 0; r->prop_deps && i < pcl_len(r->inputs); i++) {
    pcl_deps_release(r->prop_deps[i]);
  }
  free(r->prop_deps);
  pcl_release(r->inputs);
  pcl_release(r->outputs);
  pcl_release(r->options);
  pcl__pool_free(r, rec_size(strlen(r->name)));
}

static pcl_value *str(const char *s) { return pcl__str_fast(s); }

/* Records a diagnostic about urn (may be NULL) with the message msg. */
static void add_diag(emb *e, pcl_log_severity sev, const char *urn, const char *msg) {
  PCL__GROW(e->diags, e->capdiags, e->ndiags + 1);
  e->diags[e->ndiags++] = (diagnostic){sev, urn ? pcl_xstrdup(urn) : NULL, pcl_xstrdup(msg)};
}

/* Records the failure err of the registration of r as the engine reports a
 * failed step: an error about the resource, "Preview failed: " first in a
 * preview; r stays out of the state, as a resource whose creation failed
 * does. */
static void diag_failed(emb *e, rec *r, const pcl_error *err) {
  r->failed = true;
  pcl_strbuf b = PCL_STRBUF_INIT;
  pcl_strbuf_appendf(&b, "%s%s", e->preview ? "Preview failed: " : "", pcl_error_message(err));
  add_diag(e, PCL_LOG_ERROR, r->urn, b.data);
  pcl_strbuf_free(&b);
}

/* Returns the package of a type token ("simple" of "simple:index:R"). */
static char *package_of(const char *type) {
  const char *c = strchr(type, ':');
  size_t n = c ? (size_t)(c - type) : strlen(type);
  char *p = pcl_xmalloc(n + 1);
  memcpy(p, type, n);
  p[n] = 0;
  return p;
}

/* Appends the default provider name for version and url (BEHAVIOUR.md). */
static void default_provider_name(pcl_strbuf *b, const char *version, const char *url) {
  pcl_strbuf_append_cstr(b, "default");
  if (version) {
    pcl_strbuf_append_char(b, '_');
    for (const char *p = version; *p; p++) {
      pcl_strbuf_append_char(b, (*p == '.' || *p == '-' || *p == '+') ? '_' : *p);
    }
  }
  if (url && *url) {
    pcl_strbuf_append_char(b, '_');
    bool first = true;
    const char *p = url;
    while (*p) {
      const char *slash = strchr(p, '/');
      size_t len = slash ? (size_t)(slash - p) : strlen(p);
      if (len > 0) {
        if (!first) {
          pcl_strbuf_append_char(b, '/');
        }
        first = false;
        for (size_t i = 0; i < len; i++) {
          char c = p[i];
          bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '.' || c == '-';
          pcl_strbuf_append_char(b, ok ? c : '_');
        }
      }
      p += len;
      if (*p == '/') {
        p++;
      }
    }
  }
}

/* Returns the MAP m (owned) without its "__internal" entry: what a
 * provider's outputs keep of its inputs. */
static pcl_value *without_internal(pcl_value *m) {
  if (pcl_map_get_cstr(m, "__internal") == NULL) {
    return pcl_retain(m);
  }
  pcl_mapbuf mb = PCL_MAPBUF_INIT;
  for (size_t i = 0; i < pcl_len(m); i++) {
    if (!pcl_str_eq_cstr(pcl_map_key_at(m, i), "__internal")) {
      pcl_mapbuf_put_take(&mb, pcl_retain(pcl_map_key_at(m, i)), pcl_retain(pcl_map_val_at(m, i)));
    }
  }
  return pcl_mapbuf_finish(&mb);
}

/* Returns a new deterministic id in the form of the UUIDs the engine gives
 * providers and built-in resources. */
static pcl_value *provider_id(emb *e) {
  char buf[64];
  snprintf(buf, sizeof buf, "00000000-0000-4000-8000-%012zu", ++e->nproviders);
  return str(buf);
}

/* Returns the type or token whose package's default provider serves a
 * request of type (of the parameterized package pkg, or NULL): an
 * extension's requests are the base provider's (whose name stands for its
 * type), a replacement's its own. */
static const char *served_by(const pcl_package *pkg, const char *type) {
  return pkg && pkg->extension ? pkg->base_name : type;
}

/* Returns the version of the default provider of the parameterized package
 * pkg: the base provider's for an extension, else the package's. */
static const char *package_version(const pcl_package *pkg) {
  return pkg->extension ? pkg->base_version : pkg->version;
}

static bool same_str(const char *a, const char *b) {
  return a == b || (a && b && strcmp(a, b) == 0);
}

static const char *default_provider_slow(emb *e, const char *type, const char *version,
                                         const char *url);

/* Frees the strings of pc. */
static void prov_cache_clear(prov_cache *pc) {
  free(pc->type);
  free(pc->version);
  free(pc->url);
}

/* Returns the provider reference "<urn>::<id>" (interned) for a resource of
 * type that gave no explicit provider, creating the default provider. */
static const char *default_provider(emb *e, const char *type, const char *version,
                                    const char *url) {
  /* Resources share a few providers: reuse an earlier answer when the
   * package, version and URL are the same.  The cache is small and searched
   * linearly; past PROV_CACHE_SIZE distinct providers the oldest entries
   * are replaced in turn (a miss only costs the slow path). */
  size_t plen = strcspn(type, ":");
  for (size_t i = 0; i < e->nprovs; i++) {
    const prov_cache *pc = &e->provs[i];
    if (pc->pkg_len == plen && strncmp(pc->type, type, plen) == 0 &&
        same_str(pc->version, version) && same_str(pc->url, url)) {
      return pc->ref;
    }
  }
  const char *ref = default_provider_slow(e, type, version, url);
  prov_cache *pc;
  if (e->nprovs < PROV_CACHE_SIZE) {
    pc = &e->provs[e->nprovs++];
  } else {
    pc = &e->provs[e->prov_evict];
    e->prov_evict = (e->prov_evict + 1) % PROV_CACHE_SIZE;
    prov_cache_clear(pc);
  }
  pc->ref = ref;
  pc->type = pcl_xstrdup(type);
  pc->pkg_len = plen;
  pc->version = version ? pcl_xstrdup(version) : NULL;
  pc->url = url ? pcl_xstrdup(url) : NULL;
  return ref;
}

static const char *default_provider_slow(emb *e, const char *type, const char *version,
                                         const char *url) {
  char *pkg = package_of(type);
  bool builtin = strcmp(pkg, "pulumi") == 0;
  pcl_strbuf ptype = PCL_STRBUF_INIT, pname = PCL_STRBUF_INIT;
  pcl_strbuf_appendf(&ptype, "pulumi:providers:%s", pkg);
  default_provider_name(&pname, builtin ? NULL : version, builtin ? NULL : url);
  const char *urn = rec_urn(e, ptype.data, pname.data, NULL);
  rec *p = pcl__urn_index_get(&e->index, urn);
  if (p == NULL) {
    p = add_rec(e, urn, ptype.data, pname.data, NULL);
    p->kind = PCL_RES_CUSTOM;
    p->id = provider_id(e);
    pcl_mapbuf mb = PCL_MAPBUF_INIT;
    /* The stack config of the package configures its default provider:
     * the keys "<pkg>:...", a run of the sorted map found by a binary
     * search, so that a large config is not read whole for each provider. */
    size_t plen = strlen(pkg);
    size_t n = !builtin && e->config ? pcl_len(e->config) : 0, lo = 0, hi = n;
    while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      const pcl_value *k = pcl_map_key_at(e->config, mid);
      size_t kl = pcl_str_len(k);
      int c = memcmp(pcl_str_data(k), pkg, kl < plen ? kl : plen);
      if (c < 0 || (c == 0 && kl < plen + 1) ||
          (c == 0 && (unsigned char)pcl_str_data(k)[plen] < ':')) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    for (size_t i = lo; i < n; i++) {
      const pcl_value *k = pcl_map_key_at(e->config, i);
      const char *ks = pcl_str_data(k);
      if (!(pcl_str_len(k) > plen && strncmp(ks, pkg, plen) == 0 && ks[plen] == ':')) {
        break;
      }
      if (pcl_str_len(k) > plen + 1) {
        pcl_mapbuf_put_take(&mb, pcl_str_new_lossy(ks + plen + 1, pcl_str_len(k) - plen - 1),
                            pcl_retain(pcl_map_val_at(e->config, i)));
      }
    }
    if (version && !builtin) {
      pcl_mapbuf_put_cstr(&mb, "version", str(version));
    }
    if (url && *url && !builtin) {
      pcl_mapbuf in = PCL_MAPBUF_INIT;
      pcl_mapbuf_put_cstr(&in, "pluginDownloadURL", str(url));
      pcl_mapbuf_put_cstr(&mb, "__internal", pcl_mapbuf_finish(&in));
    }
    p->inputs = pcl_mapbuf_finish(&mb);
    p->outputs = without_internal(p->inputs);
    p->options = pcl_map_of(NULL, NULL, 0);
  }
  pcl_strbuf ref = PCL_STRBUF_INIT;
  pcl_strbuf_append_cstr(&ref, p->urn);
  pcl_strbuf_append_cstr(&ref, "::");
  pcl_strbuf_append_cstr(&ref, pcl_str_data(p->id));
  const char *interned = pcl_urn_intern(ref.data);
  pcl_strbuf_free(&ref);
  free(pkg);
  pcl_strbuf_free(&ptype);
  pcl_strbuf_free(&pname);
  return interned;
}

/* -------------------------------------------------------------- packages */

static void complete_other(pcl_future *f, void *data);

/* Returns whether a and b describe the same package, value included. */
static bool same_package(const pcl_package *a, const pcl_package *b) {
  return strcmp(a->base_name, b->base_name) == 0 && same_str(a->base_version, b->base_version) &&
         same_str(a->download_url, b->download_url) && strcmp(a->name, b->name) == 0 &&
         same_str(a->version, b->version) && a->value_len == b->value_len &&
         memcmp(a->value, b->value, a->value_len) == 0;
}

static char *dup_or_null(const char *s) {
  return s ? pcl_xstrdup(s) : NULL;
}

static void emb_register_package(pcl_engine *eng, const pcl_package *pkg, pcl_engine_cb cb,
                                 void *data) {
  emb *e = (emb *)eng;
  /* A package registered again keeps its reference, as the engine's does. */
  const emb_package *found = NULL;
  for (size_t i = 0; i < e->npackages && found == NULL; i++) {
    found = same_package(&e->packages[i].pkg, pkg) ? &e->packages[i] : NULL;
  }
  if (found == NULL) {
    PCL__GROW(e->packages, e->cappackages, e->npackages + 1);
    emb_package *ep = &e->packages[e->npackages++];
    /* References in the form of the UUIDs the engine gives, counted apart
     * from the providers' ids. */
    char ref[64];
    snprintf(ref, sizeof ref, "00000000-0000-4000-9000-%012zu", e->npackages);
    ep->ref = pcl_xstrdup(ref);
    char *value = pcl_xmalloc(pkg->value_len + 1);
    memcpy(value, pkg->value, pkg->value_len);
    value[pkg->value_len] = 0;
    ep->pkg = (pcl_package){.base_name = pcl_xstrdup(pkg->base_name),
                            .base_version = dup_or_null(pkg->base_version),
                            .download_url = dup_or_null(pkg->download_url),
                            .name = pcl_xstrdup(pkg->name),
                            .version = dup_or_null(pkg->version),
                            .value = value,
                            .value_len = pkg->value_len,
                            .extension = pkg->extension};
    found = ep;
  }
  pending *p = pending_new(e);
  p->ecb = cb;
  p->data = data;
  p->result = str(found->ref);
  pcl_sched_post(complete_other, p);
}

/* Returns the package registered with the reference ref (borrowed), or NULL
 * with *err. */
static const pcl_package *find_package(const emb *e, const char *ref, pcl_error **err) {
  for (size_t i = 0; i < e->npackages; i++) {
    if (strcmp(e->packages[i].ref, ref) == 0) {
      return &e->packages[i].pkg;
    }
  }
  *err = pcl_error_new("unknown package reference '%s': no package was registered with it", ref);
  return NULL;
}

/* Returns the MAP a with the entries of the MAP b put over it. */
static pcl_value *merge_maps(pcl_value *a, pcl_value *b) {
  size_t n = pcl_len(b);
  pcl_value **kv = pcl_xmalloc((2 * n + 1) * sizeof *kv);
  for (size_t i = 0; i < n; i++) {
    kv[i] = pcl_map_key_at(b, i);
    kv[n + i] = pcl_map_val_at(b, i);
  }
  pcl_value *m = pcl__map_merge(a, kv, kv + n, n);
  free(kv);
  return m;
}

/* Returns mock outputs for a preview: entries the inputs do not give are
 * unknown. */
static pcl_value *preview_outputs(pcl_value *inputs, pcl_value *outs) {
  pcl_mapbuf mb = PCL_MAPBUF_INIT;
  for (size_t i = 0; i < pcl_len(outs); i++) {
    const pcl_value *k = pcl_map_key_at(outs, i);
    pcl_value *in = pcl_map_get(inputs, pcl_str_data(k), pcl_str_len(k));
    pcl_mapbuf_put_take(&mb, pcl_retain(pcl_map_key_at(outs, i)),
                        in ? pcl_retain(in) : pcl_unknown());
  }
  return pcl_mapbuf_finish(&mb);
}

/* Returns the STRINGs of the LIST names as a MAP name -> null (owned): a
 * set each output name is looked up in by a binary search, where trying
 * every name of the list for every output takes time quadratic in them. */
static pcl_value *name_set(const pcl_value *names) {
  pcl_mapbuf mb = PCL_MAPBUF_INIT;
  for (size_t j = 0; j < pcl_len(names); j++) {
    pcl_value *name = pcl_list_at(names, j);
    if (pcl_kind_of(name) == PCL_T_STRING) {
      pcl_mapbuf_put_take(&mb, pcl_retain(name), pcl_null());
    }
  }
  return pcl_mapbuf_finish(&mb);
}

/* Returns whether the STRING name is in the set of name_set. */
static bool in_name_set(const pcl_value *set, const pcl_value *name) {
  return pcl_map_get(set, pcl_str_data(name), pcl_str_len(name)) != NULL;
}

/* Returns outputs with the names listed in the additionalSecretOutputs
 * option made secret. */
static pcl_value *apply_secret_outputs(pcl_value *outputs, pcl_value *options) {
  pcl_value *names = options ? pcl_map_get_cstr(options, "additionalSecretOutputs") : NULL;
  if (names == NULL || pcl_kind_of(names) != PCL_T_LIST || pcl_len(names) == 0) {
    return pcl_retain(outputs);
  }
  /* The outputs are shared when no listed output is there to hide. */
  size_t n = pcl_len(outputs);
  pcl_value **vals = NULL;
  pcl_value *listed_names = name_set(names);
  for (size_t i = 0; i < n; i++) {
    pcl_value *v = pcl_map_val_at(outputs, i);
    bool listed = in_name_set(listed_names, pcl_map_key_at(outputs, i));
    if (listed && pcl_kind_of(v) != PCL_T_SECRET) {
      if (vals == NULL) {
        vals = pcl_xmalloc(n * sizeof *vals);
        for (size_t j = 0; j < i; j++) {
          vals[j] = pcl_retain(pcl_map_val_at(outputs, j));
        }
      }
      vals[i] = pcl_secret_new(v);
    } else if (vals != NULL) {
      vals[i] = pcl_retain(v);
    }
  }
  pcl_release(listed_names);
  if (vals == NULL) {
    return pcl_retain(outputs);
  }
  pcl_value *m = pcl__map_with_vals_take(outputs, vals);
  free(vals);
  return m;
}

/* Serves a pulumi:pulumi:StackReference: outputs {name, outputs,
 * secretOutputNames} from the configured references. */
static bool stack_reference(emb *e, rec *r, pcl_error **err) {
  pcl_value *name = pcl_map_get_cstr(r->inputs, "name");
  if (name == NULL || pcl_kind_of(name) != PCL_T_STRING) {
    *err = pcl_error_new("stack reference '%s' needs a string input \"name\"", r->name);
    return false;
  }
  pcl_value *ref = NULL;
  if (e->stack_refs) {
    ref = pcl_map_get(e->stack_refs, pcl_str_data(name), pcl_str_len(name));
  }
  if (ref == NULL && pcl__json_mocks_stack_refs(e->jmocks)) {
    ref = pcl_map_get(pcl__json_mocks_stack_refs(e->jmocks), pcl_str_data(name),
                      pcl_str_len(name));
  }
  if (ref == NULL) {
    *err = pcl_error_new("unknown stack '%s' (give it with --stack-reference)",
                         pcl_str_data(name));
    return false;
  }
  /* The references were checked when they were read
   * (pcl__stack_ref_check): outputs is a MAP, secretOutputNames a LIST of
   * STRINGs. */
  pcl_value *outs = pcl_map_get_cstr(ref, "outputs");
  pcl_value *secret_names = pcl_map_get_cstr(ref, "secretOutputNames");
  pcl_mapbuf ob = PCL_MAPBUF_INIT;
  pcl_mapbuf sn = PCL_MAPBUF_INIT;
  pcl_value *listed_names = name_set(secret_names);
  for (size_t i = 0; i < pcl_len(outs); i++) {
    pcl_value *v = pcl_map_val_at(outs, i);
    bool listed = pcl_kind_of(v) == PCL_T_SECRET || in_name_set(listed_names, pcl_map_key_at(outs, i));
    pcl_mapbuf_put_take(&ob, pcl_retain(pcl_map_key_at(outs, i)),
                        listed && pcl_kind_of(v) != PCL_T_SECRET ? pcl_secret_new(v)
                                                                 : pcl_retain(v));
    if (listed) {
      pcl_value *k = pcl_map_key_at(outs, i);
      pcl_mapbuf_put_take(&sn, pcl_retain(k), pcl_null());
    }
  }
  pcl_release(listed_names);
  pcl_value *snm = pcl_mapbuf_finish(&sn);
  pcl_value *names = pcl_list_new(pcl_len(snm));
  for (size_t i = 0; i < pcl_len(snm); i++) {
    pcl_list_init_take(names, i, pcl_retain(pcl_map_key_at(snm, i)));
  }
  pcl_release(snm);
  pcl_mapbuf mb = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_cstr(&mb, "name", pcl_retain(name));
  pcl_mapbuf_put_cstr(&mb, "outputs", pcl_mapbuf_finish(&ob));
  pcl_mapbuf_put_cstr(&mb, "secretOutputNames", names);
  r->outputs = pcl_mapbuf_finish(&mb);
  r->id = pcl_retain(name);
  return true;
}

/* Serves a pulumi:index:Stash as the engine's built-in provider does: its
 * one input, "input", is required and no other is allowed; the outputs are
 * {input, output} with output equal to input; the id is a new UUID, unknown
 * in a preview (the engine keeps the first output across updates, which a
 * run of the embedded engine, always a first run, never sees). */
static bool stash(emb *e, rec *r, pcl_error **err) {
  for (size_t i = 0; i < pcl_len(r->inputs); i++) {
    if (!pcl_str_eq_cstr(pcl_map_key_at(r->inputs, i), "input")) {
      *err = pcl_error_new("check failed for %s: unknown property \"%s\"", r->type,
                           pcl_str_data(pcl_map_key_at(r->inputs, i)));
      return false;
    }
  }
  pcl_value *input = pcl_map_get_cstr(r->inputs, "input");
  if (input == NULL) {
    *err = pcl_error_new("check failed for %s: missing required property \"input\"", r->type);
    return false;
  }
  pcl_mapbuf mb = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_cstr(&mb, "input", pcl_retain(input));
  pcl_mapbuf_put_cstr(&mb, "output", pcl_retain(input));
  pcl_value *outputs = pcl_mapbuf_finish(&mb);
  r->outputs = apply_secret_outputs(outputs, r->options);
  pcl_release(outputs);
  r->id = e->preview ? pcl_unknown() : provider_id(e);
  return true;
}

static bool run_after_hooks(pending *p);

static void complete_resource(pcl_future *f, void *data) {
  (void)f;
  pending *p = data;
  if (run_after_hooks(p)) {
    return;
  }
  if (p->err) {
    p->rcb(p->data, NULL, p->err);
  } else {
    pcl_resource_result res = {p->r->urn, p->r->id, p->r->outputs, false, NULL};
    p->rcb(p->data, &res, NULL);
  }
  pcl_error_free(p->err);
  pcl_release(p->read_id);
  pcl_release(p->providers);
  pcl__pool_free(p, sizeof *p);
}

/* Removes p from the list at *head (it must be on it). */
static void unlink_pending(pending **head, pending *p) {
  while (*head != p) {
    head = &(*head)->next;
  }
  *head = p->next;
  p->next = NULL;
}

/* Completes the registration p with a mock's answer (id, state and err
 * stolen; NULL id: the default id; NULL state: echo the inputs).  A C mock
 * knows when the run is a preview (aware): its answer is then what the
 * provider answers to a preview Create, the state as it is and the id when
 * it gives one (NULL or "": unknown, as a provider's empty preview id).  A
 * JSON mock is not: in a preview its outputs beyond the inputs are unknown,
 * and so is the id of a created resource. */
static void finish_resource(pending *p, pcl_value *id, pcl_value *state, pcl_error *err,
                            bool aware) {
  emb *e = p->e;
  rec *r = p->r;
  bool is_provider = strncmp(r->type, "pulumi:providers:", 17) == 0;
  bool no_id = id == NULL || (pcl_kind_of(id) == PCL_T_STRING && pcl_str_len(id) == 0);
  if (err == NULL) {
    if (state == NULL) {
      state = pcl_retain(r->inputs);
    } else if (e->preview && !r->read && !aware) {
      pcl_value *pv = preview_outputs(r->inputs, state);
      pcl_release(state);
      state = pv;
    }
    if (is_provider) {
      pcl_value *stripped = without_internal(state);
      pcl_release(state);
      state = stripped;
    }
    r->outputs = apply_secret_outputs(state, r->options);
    if (r->read) {
      r->id = pcl_retain(p->read_id);
    } else if (e->preview && !is_provider && (!aware || no_id)) {
      r->id = pcl_unknown();
    } else if (id) {
      r->id = pcl_retain(id);
    } else if (is_provider) {
      r->id = provider_id(e);
    } else {
      /* "<name>_id": an NFC name followed by ASCII, which composes with
       * nothing, is NFC. */
      size_t len = strlen(r->name);
      char small[128];
      char *buf = len + 4 <= sizeof small ? small : pcl_xmalloc(len + 4);
      memcpy(buf, r->name, len);
      memcpy(buf + len, "_id", 4);
      r->id = pcl__str_raw(buf, len + 3, pcl__is_ascii(buf, len));
      if (buf != small) {
        free(buf);
      }
    }
  }
  if (err != NULL) {
    diag_failed(e, r, err);
  }
  pcl_release(id);
  pcl_release(state);
  p->err = err;
  pcl_sched_post(complete_resource, p);
}

/* -------------------------------------------------------------- hooks
 * The embedded engine models creation only: a registration runs its
 * beforeCreate hooks before it asks the mock, and its afterCreate hooks
 * once the resource is created, in the order the hooks option lists them
 * (docs/engine.md). */

static void emb_register_hook(pcl_engine *eng, const pcl_hook_request *req, pcl_engine_cb cb,
                              void *data) {
  emb *e = (emb *)eng;
  PCL__GROW(e->hooks, e->caphooks, e->nhooks + 1);
  e->hooks[e->nhooks++] = (emb_hook){pcl_xstrdup(req->name), req->hook, req->error_hook,
                                     req->on_dry_run, req->ignore_errors};
  pending *p = pending_new(e);
  p->ecb = cb;
  p->data = data;
  p->result = pcl_null();
  pcl_sched_post(complete_other, p);
}

/* The hooks of one kind that a registration runs, one after the other. */
typedef struct hook_chain {
  pending *p;                /* The registration. */
  const char *when;          /* "beforeCreate" or "afterCreate". */
  pcl_value *names;          /* The LIST of the hooks' names (owned). */
  size_t next;               /* The next one to run. */
  pcl_value *args;           /* Their `args` (owned). */
  void (*then)(pending *p, pcl_error *err); /* What follows (err owned, or NULL). */
} hook_chain;

/* Returns the LIST of the names of the hooks of kind when that the options
 * of r bind, or NULL when none. */
static pcl_value *bound_hooks(const rec *r, const char *when) {
  pcl_value *hooks = r->options ? pcl_map_get_cstr(r->options, "hooks") : NULL;
  pcl_value *names = hooks && pcl_kind_of(hooks) == PCL_T_MAP ? pcl_map_get_cstr(hooks, when)
                                                              : NULL;
  return names && pcl_kind_of(names) == PCL_T_LIST && pcl_len(names) > 0 ? names : NULL;
}

/* Returns the `args` of a creation hook of r (program.md 10.3): outputs is
 * NULL before the creation. */
static pcl_value *create_args(const rec *r, pcl_value *outputs) {
  pcl_mapbuf b = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_cstr(&b, "urn", str(r->urn));
  pcl_mapbuf_put_cstr(&b, "id",
                      outputs && r->id && pcl_kind_of(r->id) == PCL_T_STRING ? pcl_retain(r->id)
                                                                             : str(""));
  pcl_mapbuf_put_cstr(&b, "name", pcl_str_from_cstr(r->name));
  pcl_mapbuf_put_cstr(&b, "type", str(r->type));
  pcl_mapbuf_put_cstr(&b, "newInputs", pcl_strip_secrets(r->inputs));
  pcl_mapbuf_put_cstr(&b, "oldInputs", pcl_map_of(NULL, NULL, 0));
  pcl_mapbuf_put_cstr(&b, "newOutputs",
                      outputs ? pcl_strip_secrets(outputs) : pcl_map_of(NULL, NULL, 0));
  pcl_mapbuf_put_cstr(&b, "oldOutputs", pcl_map_of(NULL, NULL, 0));
  return pcl_mapbuf_finish(&b);
}

static void chain_next(hook_chain *c);

static void chain_end(hook_chain *c, pcl_error *err) {
  pending *p = c->p;
  void (*then)(pending *, pcl_error *) = c->then;
  pcl_release(c->names);
  pcl_release(c->args);
  free(c);
  then(p, err);
}

static void chain_ran(void *data, pcl_hook_outcome outcome, const char *message) {
  hook_chain *c = data;
  const emb_hook *h = NULL;
  pcl_value *name = pcl_list_at(c->names, c->next - 1);
  for (size_t i = 0; i < c->p->e->nhooks && h == NULL; i++) {
    h = pcl_str_eq_cstr(name, c->p->e->hooks[i].name) ? &c->p->e->hooks[i] : NULL;
  }
  if (outcome != PCL_HOOK_SUCCEEDED) {
    pcl_strbuf b = PCL_STRBUF_INIT;
    pcl_strbuf_appendf(&b, "%s hook failed: %s", c->when, message);
    if (h && h->ignore_errors) {
      add_diag(c->p->e, PCL_LOG_WARNING, c->p->r->urn, b.data);
      pcl__print_log(PCL_LOG_WARNING, c->p->r->urn, b.data);
      pcl_strbuf_free(&b);
    } else {
      pcl_error *err = pcl_error_new("%s", b.data);
      pcl_strbuf_free(&b);
      chain_end(c, err);
      return;
    }
  }
  chain_next(c);
}

/* Runs the next hook of c, or what follows them. */
static void chain_next(hook_chain *c) {
  emb *e = c->p->e;
  while (c->next < pcl_len(c->names)) {
    pcl_value *name = pcl_list_at(c->names, c->next++);
    const emb_hook *h = NULL;
    for (size_t i = 0; i < e->nhooks && h == NULL; i++) {
      h = pcl_kind_of(name) == PCL_T_STRING && pcl_str_eq_cstr(name, e->hooks[i].name)
              ? &e->hooks[i]
              : NULL;
    }
    if (h == NULL || h->error_hook) {
      chain_end(c, pcl_error_new("%s hook %s is not a registered resource hook", c->when,
                                 pcl_kind_of(name) == PCL_T_STRING ? pcl_str_data(name) : "?"));
      return;
    }
    if (e->preview && !h->on_dry_run) {
      continue;
    }
    pcl_hook_run(h->hook, c->args, chain_ran, c);
    return;
  }
  chain_end(c, NULL);
}

/* Starts the hooks of kind when of p's resource, then; returns false when
 * it binds none (then is not called). */
static bool run_hooks(pending *p, const char *when, pcl_value *outputs,
                      void (*then)(pending *p, pcl_error *err)) {
  pcl_value *names = bound_hooks(p->r, when);
  if (names == NULL) {
    return false;
  }
  hook_chain *c = pcl_xmalloc(sizeof *c);
  *c = (hook_chain){p, when, pcl_retain(names), 0, create_args(p->r, outputs), then};
  chain_next(c);
  return true;
}

/* Whether the registration p creates a resource (hooks run around that). */
static bool creates(const pending *p) {
  return p->r && !p->r->read && strcmp(p->r->type, "pulumi:pulumi:Stack") != 0;
}

static void create(pending *p);

static void before_ran(pending *p, pcl_error *err) {
  if (err) {
    diag_failed(p->e, p->r, err);
    p->err = err;
    p->hooked = true;
    pcl_sched_post(complete_resource, p);
    return;
  }
  create(p);
}

/* Starts p's beforeCreate hooks, which create p once they succeeded;
 * returns false when there are none to run. */
static bool run_before_hooks(pending *p) {
  return creates(p) && run_hooks(p, "beforeCreate", NULL, before_ran);
}

static void after_ran(pending *p, pcl_error *err) {
  if (err) {
    diag_failed(p->e, p->r, err);
    p->err = err;
  }
  complete_resource(NULL, p);
}

/* Starts the afterCreate hooks of p, created, which complete it once they
 * ran; returns false when they ran already or there are none. */
static bool run_after_hooks(pending *p) {
  if (p->hooked || p->err || !creates(p)) {
    return false;
  }
  p->hooked = true;
  return run_hooks(p, "afterCreate", p->r->outputs, after_ran);
}

static void emb_register(pcl_engine *eng, const pcl_resource_request *req, pcl_resource_cb cb,
                         void *data) {
  emb *e = (emb *)eng;
  bool is_stack = strcmp(req->type, "pulumi:pulumi:Stack") == 0;
  bool is_provider = strncmp(req->type, "pulumi:providers:", 17) == 0;
  pending *p = pending_new(e);
  p->rcb = cb;
  p->data = data;
  const pcl_package *pkg = NULL;
  if (req->package_ref && (pkg = find_package(e, req->package_ref, &p->err)) == NULL) {
    pcl_sched_post(complete_resource, p);
    return;
  }
  /* A parameterized package's plugin is its base provider's, at the
   * package's version, as the engine resolves a package reference; an
   * extension is served by the base provider itself. */
  const char *ptype = served_by(pkg, req->type);
  const char *version = pkg ? package_version(pkg) : req->version;
  const char *url = pkg ? pkg->download_url : req->plugin_download_url;
  /* Resources that need a provider get their default one first, so the
   * provider precedes them in the snapshot. */
  const char *provider = NULL;
  if (req->provider) {
    provider = pcl_urn_intern(req->provider);
  } else if (!is_stack && !is_provider && req->kind != PCL_RES_COMPONENT) {
    provider = default_provider(e, ptype, version, url);
  }
  const char *urn = rec_urn(e, req->type, req->name, req->parent);
  rec *dup = pcl__urn_index_get(&e->index, urn);
  if (dup) {
    /* The request is refused without a record; the first one stays. */
    p->err = pcl_error_new("duplicate resource URN '%s'; try giving it a unique name", dup->urn);
    p->r = NULL;
    pcl_sched_post(complete_resource, p);
    return;
  }
  rec *r = add_rec(e, urn, req->type, req->name, req->parent);
  p->r = r;
  r->kind = req->kind;
  r->read = req->read;
  r->provider = provider;
  r->inputs = pcl_retain(req->inputs);
  r->deps = pcl_deps_retain(req->deps);
  size_t nin = pcl_len(req->inputs);
  r->prop_deps = pcl_xmalloc((nin ? nin : 1) * sizeof *r->prop_deps);
  for (size_t i = 0; i < nin; i++) {
    r->prop_deps[i] = req->prop_deps ? pcl_deps_retain(req->prop_deps[i]) : NULL;
  }
  r->options = req->options ? pcl_retain(req->options) : pcl_map_of(NULL, NULL, 0);
  bool add_version = version && !pcl_map_get_cstr(req->inputs, "version");
  bool add_url = url && *url;
  pcl_value *env = pcl_map_get_cstr(r->options, "envVarMappings");
  bool add_env = env != NULL && pcl_kind_of(env) == PCL_T_MAP;
  bool add_internal = (add_url || add_env) && !pcl_map_get_cstr(req->inputs, "__internal");
  if (is_provider && (add_version || add_internal)) {
    /* An explicit provider records its version, and its download URL and
     * environment variable mappings under "__internal" (apart from config
     * inputs of the same names), as the engine does. */
    pcl_mapbuf mb = PCL_MAPBUF_INIT;
    if (add_version) {
      pcl_mapbuf_put_cstr(&mb, "version", str(version));
    }
    if (add_internal) {
      pcl_mapbuf in = PCL_MAPBUF_INIT;
      if (add_url) {
        pcl_mapbuf_put_cstr(&in, "pluginDownloadURL", str(url));
      }
      if (add_env) {
        pcl_mapbuf_put_cstr(&in, "envVarMappings", pcl_retain(env));
      }
      pcl_mapbuf_put_cstr(&mb, "__internal", pcl_mapbuf_finish(&in));
    }
    pcl_value *extra = pcl_mapbuf_finish(&mb);
    pcl_value *merged = merge_maps(r->inputs, extra);
    /* Keep the dependencies parallel to the new entries. */
    pcl_deps **pd = pcl_xcalloc(pcl_len(merged), sizeof *pd);
    for (size_t i = 0, j = 0; i < pcl_len(merged); i++) {
      if (j < nin && pcl_equal(pcl_map_key_at(merged, i), pcl_map_key_at(r->inputs, j))) {
        pd[i] = r->prop_deps[j++];
      }
    }
    free(r->prop_deps);
    r->prop_deps = pd;
    pcl_release(r->inputs);
    pcl_release(extra);
    r->inputs = merged;
  }

  p->kind = req->kind;
  p->read_id = pcl_retain(req->id);
  p->providers = req->providers ? pcl_retain(req->providers) : NULL;
  for (size_t i = 0; pkg && i < e->npackages; i++) {
    p->package = &e->packages[i].pkg == pkg ? i + 1 : p->package;
  }
  if (!run_before_hooks(p)) {
    create(p);
  }
}

/* Creates (or reads) the resource of the registration p, whose record is
 * made, as its provider or mock says. */
static void create(pending *p) {
  emb *e = p->e;
  rec *r = p->r;
  bool is_stack = strcmp(r->type, "pulumi:pulumi:Stack") == 0;
  const pcl_package *pkg = p->package ? &e->packages[p->package - 1].pkg : NULL;
  pcl_error *err = NULL;
  pcl_value *id = NULL, *state = NULL;
  bool hang = false;
  if (is_stack || p->kind == PCL_RES_COMPONENT) {
    r->id = pcl_null();
    r->outputs = pcl_map_of(NULL, NULL, 0);
  } else if (strcmp(r->type, "pulumi:pulumi:StackReference") == 0) {
    if (!stack_reference(e, r, &err)) {
      diag_failed(e, r, err);
    }
  } else if (strcmp(r->type, "pulumi:index:Stash") == 0 && !r->read) {
    if (!stash(e, r, &err)) {
      diag_failed(e, r, err);
    }
  } else {
    pcl_mock_resource_args args = {r->type,     r->name, r->urn,     r->inputs,           p->read_id,
                                   r->provider, true,    e->preview, (pcl_mock_reply *)p, NULL,
                                   NULL,        pkg};
    if (p->kind == PCL_RES_REMOTE && e->cmocks.new_resource) {
      /* Construct sees the dependencies of each input. */
      pcl_mapbuf pd = PCL_MAPBUF_INIT;
      for (size_t i = 0; i < pcl_len(r->inputs); i++) {
        pcl_mapbuf_put_take(&pd, pcl_retain(pcl_map_key_at(r->inputs, i)),
                            pcl__deps_list(r->prop_deps[i]));
      }
      args.prop_deps = pcl_mapbuf_finish(&pd);
      args.providers = p->providers;
    }
    bool mocked = false;
    if (e->cmocks.new_resource) {
      mocked = true;
      bool ok = e->cmocks.new_resource(e->cmocks.data, &args, &id, &state, &err);
      pcl_release(args.prop_deps);
      args.prop_deps = NULL;
      if (p->deferred) {
        /* The mock deferred its answer (pcl_mock_defer); it may even have
         * answered already. */
        pcl_release(id);
        pcl_release(state);
        pcl_error_free(err);
        return;
      }
      if (!ok && err == NULL) {
        err = pcl_error_new("the mock refused the resource");
      }
    }
    pcl__mock_answer a = pcl__json_mocks_resource(e->jmocks, r->type, r->name);
    if (!mocked && a.found) {
      hang = a.hang;
      if (a.error) {
        err = pcl_error_new("%s", a.error);
      }
      id = a.id ? pcl_retain(a.id) : NULL;
      if (a.outputs && pcl_kind_of(a.outputs) == PCL_T_MAP) {
        state = a.merge ? merge_maps(r->inputs, a.outputs) : pcl_retain(a.outputs);
      }
    }
    if (hang) {
      pcl_release(id);
      pcl_release(state);
      pcl_error_free(err);
      p->next = e->hung;
      e->hung = p;
      return;
    }
    finish_resource(p, id, state, err, mocked);
    return;
  }
  p->err = err;
  pcl_sched_post(complete_resource, p);
}

pcl_mock_reply *pcl_mock_defer(const pcl_mock_resource_args *args) {
  pending *p = (pending *)args->reply;
  p->deferred = p->awaiting = true;
  p->next = p->e->hung;
  p->e->hung = p;
  return args->reply;
}

void pcl_mock_reply_resource(pcl_mock_reply *reply, pcl_value *id, pcl_value *state,
                             const pcl_error *err) {
  pending *p = (pending *)reply;
  if (p->cancelled) {
    /* The run gave up on it already: only the memory is left to free. */
    unlink_pending(&p->e->orphans, p);
    pcl_release(p->read_id);
    pcl__pool_free(p, sizeof *p);
    return;
  }
  unlink_pending(&p->e->hung, p);
  p->awaiting = false;
  finish_resource(p, pcl_retain(id), pcl_retain(state), err ? pcl_error_copy(err) : NULL, true);
}

static void complete_other(pcl_future *f, void *data) {
  (void)f;
  pending *p = data;
  p->ecb(p->data, p->err ? NULL : p->result, p->err);
  pcl_release(p->result);
  pcl_error_free(p->err);
  pcl__pool_free(p, sizeof *p);
}

/* The provider of the invoke or call a C mock is answering, or NULL. */
static const char *call_provider;

const char *pcl_mock_call_provider(void) { return call_provider; }

/* The argument dependencies of the call a C mock is answering, or NULL. */
static pcl_value *call_arg_deps;

pcl_value *pcl_mock_call_arg_deps(void) { return call_arg_deps; }

/* The parameterized package of the invoke or call a C mock is answering, or
 * NULL. */
static const pcl_package *call_package;

const pcl_package *pcl_mock_call_package(void) {
  return call_package;
}

static void emb_invoke_or_call(emb *e, const pcl_invoke_request *req, bool is_call,
                               pcl_engine_cb cb, void *data) {
  const char *token = req->token;
  pcl_value *args = req->args;
  const char *provider = req->provider;
  pending *p = pending_new(e);
  p->ecb = cb;
  p->data = data;
  const pcl_package *pkg = NULL;
  if (req->package_ref && (pkg = find_package(e, req->package_ref, &p->err)) == NULL) {
    pcl_sched_post(complete_other, p);
    return;
  }
  if (!is_call && req->provider == NULL) {
    /* Like a resource, an invoke without a provider uses the default one. */
    provider = default_provider(e, served_by(pkg, token),
                                pkg ? package_version(pkg) : req->version,
                                pkg ? pkg->download_url : req->plugin_download_url);
  }
  if (is_call) {
    /* A method's provider hydrates its receiver through the engine
     * (pulumi:pulumi:getResource), which brings in the builtin provider. */
    default_provider(e, "pulumi:pulumi:getResource", NULL, NULL);
  }
  bool hang = false;
  const char *what = is_call ? "call" : "invoke";
  if (!is_call && strcmp(token, "pulumi:pulumi:getResource") == 0) {
    /* The engine's own function: the state of a registered resource, which
     * SDKs use to hydrate a resource reference. */
    pcl_value *u = pcl_map_get_cstr(args, "urn");
    rec *r = u && pcl_kind_of(u) == PCL_T_STRING ? find_rec(e, pcl_str_data(u)) : NULL;
    if (r == NULL || r->outputs == NULL) {
      p->err = pcl_error_new("getResource: unknown resource '%s'",
                             u && pcl_kind_of(u) == PCL_T_STRING ? pcl_str_data(u) : "?");
    } else {
      pcl_mapbuf mb = PCL_MAPBUF_INIT;
      pcl_mapbuf_put_cstr(&mb, "urn", str(r->urn));
      pcl_mapbuf_put_cstr(&mb, "id", pcl_retain(r->id ? r->id : pcl_null()));
      pcl_mapbuf_put_cstr(&mb, "state", pcl_retain(r->outputs));
      p->result = pcl_mapbuf_finish(&mb);
    }
  } else if (e->cmocks.call) {
    pcl_error *err = NULL;
    const char *outer = call_provider;
    pcl_value *outer_deps = call_arg_deps;
    const pcl_package *outer_package = call_package;
    call_provider = provider;
    call_arg_deps = is_call ? req->arg_deps : NULL;
    call_package = pkg;
    p->result = e->cmocks.call(e->cmocks.data, token, args, is_call, &hang, &err);
    call_provider = outer;
    call_arg_deps = outer_deps;
    call_package = outer_package;
    if (p->result == NULL && !hang) {
      p->err = err ? err : pcl_error_new("%s of '%s' failed", what, token);
    } else {
      pcl_error_free(err);
    }
  } else {
    pcl__mock_answer a = pcl__json_mocks_invoke(e->jmocks, token, args, is_call);
    hang = a.hang;
    if (!a.found) {
      p->err = pcl_error_new("%s of '%s': no mock answers this %s", what, token, what);
    } else if (a.error) {
      p->err = pcl_error_new("%s", a.error);
    } else if (a.outputs) {
      p->result = pcl_retain(a.outputs);
    } else {
      p->result = pcl_map_of(NULL, NULL, 0);
    }
  }
  if (hang) {
    p->next = e->hung;
    e->hung = p;
    return;
  }
  pcl_sched_post(complete_other, p);
}

static void emb_invoke(pcl_engine *eng, const pcl_invoke_request *req, pcl_engine_cb cb,
                       void *data) {
  emb_invoke_or_call((emb *)eng, req, false, cb, data);
}

static void emb_call(pcl_engine *eng, const pcl_invoke_request *req, pcl_engine_cb cb,
                     void *data) {
  emb_invoke_or_call((emb *)eng, req, true, cb, data);
}

static void emb_register_outputs(pcl_engine *eng, const char *urn, pcl_value *outputs,
                                 pcl_engine_cb cb, void *data) {
  emb *e = (emb *)eng;
  pending *p = pending_new(e);
  p->ecb = cb;
  p->data = data;
  rec *r = find_rec(e, urn);
  if (r == NULL) {
    p->err = pcl_error_new("cannot register outputs of unknown resource '%s'", urn);
  } else {
    pcl_release(r->outputs);
    r->outputs = pcl_retain(outputs);
    if (strcmp(r->type, "pulumi:pulumi:Stack") == 0) {
      pcl_release(e->stack_outputs);
      e->stack_outputs = pcl_retain(outputs);
    }
    p->result = pcl_retain(outputs);
  }
  pcl_sched_post(complete_other, p);
}

/* Returns v without its top-level secret marks (borrowed). */
static const pcl_value *unmarked(const pcl_value *v) {
  while (pcl_kind_of(v) == PCL_T_SECRET) {
    v = pcl_secret_inner(v);
  }
  return v;
}

/* Returns whether the record r is the resource of type and id that
 * resourceExists asks about, with every entry of state (a MAP, or NULL)
 * among its outputs: the engine has no provider's Read, so the resources
 * the run created or read are those that exist, and a state that
 * contradicts what one holds names none of them. */
static bool rec_matches(const rec *r, const char *type, const char *id, const pcl_value *state) {
  if (r->failed || r->outputs == NULL || r->id == NULL || strcmp(r->type, type) != 0 ||
      pcl_kind_of(unmarked(r->id)) != PCL_T_STRING ||
      strcmp(pcl_str_data(unmarked(r->id)), id) != 0) {
    return false;
  }
  for (size_t i = 0; state != NULL && i < pcl_len(state); i++) {
    const pcl_value *k = pcl_map_key_at(state, i);
    const pcl_value *have = pcl_map_get(r->outputs, pcl_str_data(k), pcl_str_len(k));
    if (have == NULL || !pcl_equal(unmarked(have), unmarked(pcl_map_val_at(state, i)))) {
      return false;
    }
  }
  return true;
}

static void emb_exists_resource(pcl_engine *eng, const pcl_exists_request *req, pcl_engine_cb cb,
                                void *data) {
  emb *e = (emb *)eng;
  pending *p = pending_new(e);
  p->ecb = cb;
  p->data = data;
  if (req->package_ref == NULL || find_package(e, req->package_ref, &p->err) != NULL) {
    bool found = false;
    for (size_t i = 0; i < e->n && !found; i++) {
      found = rec_matches(e->recs[i], req->type, req->id, req->state);
    }
    p->result = pcl_bool(found);
  }
  pcl_sched_post(complete_other, p);
}

/* The names of the severities, as the engine's diagnostic events spell them. */
static const char *const severity_names[] = {"debug", "info", "warning", "error"};

static void emb_log(pcl_engine *eng, pcl_log_severity sev, const char *urn, const char *msg) {
  emb *e = (emb *)eng;
  if (sev >= PCL_LOG_INFO) {
    add_diag(e, sev, urn, msg);
    pcl__print_log(sev, urn, msg);
  }
}

static void emb_cancel(pcl_engine *eng, const pcl_error *err) {
  emb *e = (emb *)eng;
  while (e->hung) {
    pending *p = e->hung;
    e->hung = p->next;
    if (p->awaiting) {
      /* An asynchronous mock still holds p: answer the run through a copy
       * and keep p until the mock replies or the engine goes away. */
      pending *c = pending_new(e);
      c->rcb = p->rcb;
      c->data = p->data;
      c->err = pcl_error_copy(err);
      p->cancelled = true;
      p->next = e->orphans;
      e->orphans = p;
      pcl_sched_post(complete_resource, c);
      continue;
    }
    pcl_error_free(p->err);
    p->err = pcl_error_copy(err);
    pcl_sched_post(p->rcb ? complete_resource : complete_other, p);
  }
}

static void emb_destroy(pcl_engine *eng) {
  emb *e = (emb *)eng;
  for (size_t i = 0; i < e->nhooks; i++) {
    free(e->hooks[i].name);
    pcl_hook_free(e->hooks[i].hook);
  }
  free(e->hooks);
  for (size_t i = 0; i < e->n; i++) {
    free_rec(e->recs[i]);
  }
  pending *lists[] = {e->hung, e->orphans};
  for (size_t i = 0; i < 2; i++) {
    while (lists[i]) {
      pending *p = lists[i];
      lists[i] = p->next;
      pcl_release(p->result);
      pcl_release(p->read_id);
      pcl_error_free(p->err);
      pcl__pool_free(p, sizeof *p);
    }
  }
  free(e->recs);
  for (size_t i = 0; i < e->ndiags; i++) {
    free(e->diags[i].urn);
    free(e->diags[i].msg);
  }
  free(e->diags);
  pcl__urn_index_free(&e->index);
  for (size_t i = 0; i < e->nprovs; i++) {
    prov_cache_clear(&e->provs[i]);
  }
  for (size_t i = 0; i < e->npackages; i++) {
    emb_package *ep = &e->packages[i];
    free(ep->ref);
    free((char *)ep->pkg.base_name);
    free((char *)ep->pkg.base_version);
    free((char *)ep->pkg.download_url);
    free((char *)ep->pkg.name);
    free((char *)ep->pkg.version);
    free((char *)ep->pkg.value);
  }
  free(e->packages);
  free(e->project);
  free(e->stack);
  free(e->org);
  pcl__json_mocks_free(e->jmocks);
  pcl_release(e->stack_refs);
  pcl_release(e->config);
  pcl_release(e->stack_outputs);
  free(e);
}

static const pcl_engine_ops emb_ops = {
    "embedded",           emb_register, emb_invoke, emb_call,
    emb_register_outputs, emb_log,      emb_cancel, pcl_engine_embedded_snapshot,
    emb_destroy,          NULL,         NULL,       emb_register_package,
    emb_exists_resource,
    emb_register_hook,
};

/* Returns the stack references refs (a MAP, or NULL) with each one checked
 * and normalised by pcl__stack_ref_check (owned; NULL when refs is); NULL
 * with *err when one has the wrong shape. */
static pcl_value *check_stack_refs(const pcl_value *refs, bool *ok, pcl_error **err) {
  *ok = true;
  if (refs == NULL) {
    return NULL;
  }
  pcl__doc d = PCL__DOC_INIT("stack references");
  pcl_mapbuf mb = PCL_MAPBUF_INIT;
  *ok = pcl__doc_is(&d, refs, PCL_T_MAP, "an object");
  for (size_t i = 0; *ok && i < pcl_len(refs); i++) {
    const pcl_value *k = pcl_map_key_at(refs, i);
    size_t mark = pcl__doc_key(&d, pcl_str_data(k), pcl_str_len(k));
    pcl_value *r = pcl__stack_ref_check(&d, pcl_map_val_at(refs, i), true);
    pcl__doc_leave(&d, mark);
    *ok = r != NULL;
    if (r != NULL) {
      pcl_mapbuf_put_take(&mb, pcl_retain((pcl_value *)k), r);
    }
  }
  *err = pcl__doc_finish(&d);
  if (!*ok) {
    pcl_mapbuf_free(&mb);
    return NULL;
  }
  return pcl_mapbuf_finish(&mb);
}

pcl_engine *pcl_engine_embedded_new(const pcl_embedded_config *cfg, pcl_error **err) {
  bool ok;
  pcl_value *refs = check_stack_refs(cfg->stack_references, &ok, err);
  if (!ok) {
    return NULL;
  }
  pcl__json_mocks *jm = NULL;
  if (cfg->mocks_file) {
    jm = pcl__json_mocks_load(cfg->mocks_file, err);
    if (jm == NULL) {
      pcl_release(refs);
      return NULL;
    }
  }
  emb *e = pcl_xcalloc(1, sizeof *e);
  e->base.ops = &emb_ops;
  e->project = pcl_xstrdup(cfg->project);
  e->stack = pcl_xstrdup(cfg->stack);
  e->org = pcl_xstrdup(cfg->organization ? cfg->organization : "organization");
  e->preview = cfg->preview;
  if (cfg->mocks) {
    e->cmocks = *cfg->mocks;
  }
  e->jmocks = jm;
  e->stack_refs = refs;
  e->config = pcl_retain(cfg->config);
  return &e->base;
}

/* -- The snapshot (docs/snapshot.md). */

static void key(pcl_strbuf *b, const char *k, int indent, bool first) {
  if (!first) {
    pcl_strbuf_append_char(b, ',');
  }
  pcl_strbuf_append_char(b, '\n');
  for (int i = 0; i < indent; i++) {
    pcl_strbuf_append(b, "  ", 2);
  }
  pcl_strbuf_appendf(b, "\"%s\": ", k);
}

static void field_value(pcl_strbuf *b, const char *k, const pcl_value *v, int indent) {
  key(b, k, indent, false);
  pcl__snap_encode(b, v, indent, false);
}

static void field_str(pcl_strbuf *b, const char *k, const char *s, int indent) {
  pcl_value *v = s ? str(s) : pcl_null();
  field_value(b, k, v, indent);
  pcl_release(v);
}

char *pcl_engine_embedded_snapshot(pcl_engine *eng, const pcl_error *error) {
  emb *e = (emb *)eng;
  pcl_strbuf b = PCL_STRBUF_INIT;
  pcl_strbuf_append_char(&b, '{');
  key(&b, "version", 1, true);
  pcl_strbuf_append_cstr(&b, "1");
  field_str(&b, "project", e->project, 1);
  field_str(&b, "stack", e->stack, 1);
  field_str(&b, "organization", e->org, 1);
  field_value(&b, "preview", pcl_bool(e->preview), 1);
  char *msg = error ? pcl_error_format(error) : NULL;
  field_str(&b, "error", msg, 1);
  field_value(&b, "outputs", e->stack_outputs ? e->stack_outputs : pcl_null(), 1);
  key(&b, "resources", 1, false);
  pcl_strbuf_append_char(&b, '[');
  size_t listed = 0;
  for (size_t i = 0; i < e->n; i++) {
    rec *r = e->recs[i];
    if (r->failed) {
      continue;
    }
    pcl_strbuf_append_cstr(&b, listed++ ? ",\n    {" : "\n    {");
    key(&b, "urn", 3, true);
    pcl__json_quote(&b, r->urn, strlen(r->urn), false);
    field_str(&b, "type", r->type, 3);
    field_str(&b, "name", r->name, 3);
    field_value(&b, "custom", pcl_bool(r->kind != PCL_RES_COMPONENT), 3);
    field_value(&b, "remote", pcl_bool(r->kind == PCL_RES_REMOTE), 3);
    field_value(&b, "id", r->id ? r->id : pcl_null(), 3);
    field_str(&b, "parent", r->parent, 3);
    field_str(&b, "provider", r->provider, 3);
    field_value(&b, "inputs", r->inputs, 3);
    if (r->outputs) {
      field_value(&b, "outputs", r->outputs, 3);
    } else {
      field_value(&b, "outputs", pcl_null(), 3);
    }
    pcl_value *deps = pcl__deps_list(r->deps);
    field_value(&b, "dependencies", deps, 3);
    pcl_release(deps);
    pcl_mapbuf pd = PCL_MAPBUF_INIT;
    for (size_t j = 0; r->prop_deps && j < pcl_len(r->inputs); j++) {
      pcl_mapbuf_put_take(&pd, pcl_retain(pcl_map_key_at(r->inputs, j)),
                          pcl__deps_list(r->prop_deps[j]));
    }
    pcl_value *pdm = pcl_mapbuf_finish(&pd);
    field_value(&b, "propertyDependencies", pdm, 3);
    pcl_release(pdm);
    field_value(&b, "options", r->options, 3);
    pcl_strbuf_append_cstr(&b, "\n    }");
  }
  pcl_strbuf_append_cstr(&b, listed ? "\n  ]" : "]");
  /* The diagnostics, then the run's error, which ends it. */
  key(&b, "diagnostics", 1, false);
  pcl_strbuf_append_char(&b, '[');
  for (size_t i = 0; i <= e->ndiags; i++) {
    diagnostic d = i < e->ndiags ? e->diags[i] : (diagnostic){PCL_LOG_ERROR, NULL, msg};
    if (d.msg == NULL) {
      break;
    }
    pcl_strbuf_append_cstr(&b, i ? ",\n    {" : "\n    {");
    key(&b, "severity", 3, true);
    pcl_strbuf_appendf(&b, "\"%s\"", severity_names[d.sev]);
    field_str(&b, "urn", d.urn, 3);
    field_str(&b, "message", d.msg, 3);
    pcl_strbuf_append_cstr(&b, "\n    }");
  }
  bool any = e->ndiags > 0 || msg != NULL;
  free(msg);
  pcl_strbuf_append_cstr(&b, any ? "\n  ]\n}\n" : "]\n}\n");
  return b.data;
}
