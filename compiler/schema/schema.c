/* schema: loading, token resolution and type mapping of Pulumi package
 * schemas (see schema.h for the contract).
 *
 * Layers, bottom up:
 *  1. file discovery and version choice (schema_files.h): schema_add_path
 *     lists `*.json` names and splits them into package name and semver;
 *  2. package loading: the chosen file is read into the diagnostics' src_set
 *     (so errors can point into it) and checked by the validating JSON scan
 *     of jscan.h, which records the byte range of every top-level member and
 *     of every resource, function and type definition; nothing is parsed
 *     yet;
 *  3. decoding: a definition's text is parsed with jansson on first lookup
 *     and decoded into arena structs, each cached by token before its
 *     properties are decoded, so self-references terminate;
 *  4. mapping: schema types become ty types on demand; object types are named
 *     ty objects (ty_object_declare, then ty_object_define), which is what
 *     makes recursive types finite.
 * Every problem found in a schema file is reported once, where it was found,
 * and the offending piece decodes as SCHEMA_T_ERROR (mapped to dynamic). */
#include "schema/schema.h"

#include <jansson.h>
#include <regex.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema/jscan.h"
#include "base/ptrmap.h"
#include "schema/schema_files.h"
#include "semver.h"
#include "suggest.h"
#include "base/util.h"

/* ------------------------------------------------------------- the set */

/* A remembered answer of schema_find_package (NULL package: none exists). */
typedef struct schema_resolution schema_resolution;
struct schema_resolution {
  const char *version;     /* Requested version (arena), or NULL. */
  schema_package *pkg;     /* The answer. */
  schema_resolution *next; /* Another answer for the same name (arena). */
};

/* Decoding state of a loaded package.  Only the top level and the members of
 * `resources`, `functions` and `types` are indexed when the file is loaded
 * (after a validating scan of the whole text); each definition is parsed on
 * first use, so that a 50 MB provider schema costs a scan, not a parse. */
typedef struct schema_pkg_impl {
  bool has_file;                       /* Its text is in the src_set (diagnostics point there). */
  uint32_t file;                       /* src id of the text. */
  const char *text;                    /* The file text (owned by the src_set, or static). */
  bool primary;                        /* First loaded version of this package name. */
  jscan_members top;                   /* Top-level members. */
  jscan_members resources, functions, types; /* Members of those sections. */
  jscan_member *provider;              /* The `provider` member, or NULL. */
  bool has_format;                     /* meta.moduleFormat compiled into format. */
  regex_t format;                      /* The module-format rule (POSIX ERE). */
  size_t format_group;                 /* Which ERE group is the module. */
  bool indexed;                        /* res_index/fn_index are built. */
  ptrmap res_index, fn_index;            /* Canonical token -> schema token. */
  ptrmap res_cache, fn_cache;            /* Schema token -> decoded struct. */
  ptrmap type_cache;                     /* Schema token -> schema_typedef. */
  schema_resource *provider_res;       /* Decoded provider resource. */
} schema_pkg_impl;

/* A resource whose JSON is still to be decoded. */
typedef struct pending_resource {
  schema_resource *r;   /* The resource (arena), its token and package set. */
  jscan_member *member; /* Its JSON member. */
} pending_resource;

struct schema_set {
  ty_ctx *ty;          /* Types (borrowed). */
  arena *arena;        /* Allocation (borrowed). */
  intern_table *names; /* Interning (borrowed). */
  diag_list *diags;    /* Diagnostics (borrowed). */
  schema_files files;  /* The files of every search folder and the pins. */
  schema_package **pkgs; /* Loaded packages, in loading order. */
  size_t npkgs, cappkgs;
  ptrmap res; /* Interned package name -> answers of schema_find_package (arena). */
  const char **read; /* Paths of files read, in order. */
  size_t nread, capread;
  ptrmap by_ty; /* Resource output type -> schema_resource. */
  /* Interned resource token -> its last successful schema_find_resource
     (a found_resource in the arena): a program names the same few types
     many times. */
  ptrmap found;
  /* Resources whose JSON is still to be decoded (see queue_decode). */
  pending_resource *pending;
  size_t npending, cappending;
  bool decoding; /* queue_decode is decoding the pending resources. */
  const char *s_index, *s_pulumi, *s_providers, *s_self, *s_id, *s_urn;
};

static const char *const type_kind_names[] = {
#define X(name, text) text,
    SCHEMA_TYPE_KINDS(X)
#undef X
};

/* Returns the name of a schema type kind ("array"). */
static const char *schema_type_kind_name(schema_type_kind k) {
  return type_kind_names[k];
}

schema_set *schema_set_new(ty_ctx *tc, arena *a, intern_table *names, diag_list *d) {
  schema_set *s = xcalloc(1, sizeof *s);
  s->ty = tc;
  s->arena = a;
  s->names = names;
  s->diags = d;
  schema_files_init(&s->files, a, names);
  s->s_index = intern(names, "index");
  s->s_pulumi = intern(names, "pulumi");
  s->s_providers = intern(names, "providers");
  s->s_self = intern(names, "__self__");
  s->s_id = intern(names, "id");
  s->s_urn = intern(names, "urn");
  return s;
}

/* Frees what a package's decoding state owns outside the arena. */
static void impl_free(schema_pkg_impl *im) {
  jscan_members_free(&im->top);
  jscan_members_free(&im->resources);
  jscan_members_free(&im->functions);
  jscan_members_free(&im->types);
  if (im->has_format)
    regfree(&im->format);
  im->has_format = false;
  ptrmap_free(&im->res_index);
  ptrmap_free(&im->fn_index);
  ptrmap_free(&im->res_cache);
  ptrmap_free(&im->fn_cache);
  ptrmap_free(&im->type_cache);
}

void schema_set_free(schema_set *s) {
  if (!s)
    return;
  for (size_t i = 0; i < s->npkgs; i++)
    impl_free(s->pkgs[i]->impl);
  ptrmap_free(&s->by_ty);
  ptrmap_free(&s->found);
  schema_files_free(&s->files);
  free(s->pkgs);
  ptrmap_free(&s->res);
  free(s->read);
  free(s->pending);
  free(s);
}

const char *const *schema_files_read(const schema_set *s, size_t *n) {
  *n = s->nread;
  return s->read;
}

void schema_pin_version(schema_set *s, const char *name, const char *version) {
  schema_files_pin(&s->files, name, version);
}

bool schema_add_path(schema_set *s, const char *dir) {
  const char *err;
  if (!schema_files_add_dir(&s->files, dir, &err)) {
    diag_io_error(s->diags, "cannot read schema folder '%s': %s", dir, err);
    return false;
  }
  return true;
}

/* ------------------------------------------------------- diagnostics */

/* Where in a schema file a problem is: the chain of object keys leading to
 * it, outermost first (unused ones NULL), and optionally a string value found
 * there (a `$ref`).  The JSON tree keeps no positions, so the place is found
 * again in the text by searching for each key in turn. */
typedef struct loc {
  const char *key[6];
} loc;

/* Returns a copy of l extended by one key. */
static loc loc_add(const loc *l, const char *key) {
  loc r = *l;
  for (size_t i = 0; i < ARRAY_LEN(r.key); i++) {
    if (!r.key[i]) {
      r.key[i] = key;
      break;
    }
  }
  return r;
}

/* Finds the JSON string `"text"` at or after from; as_key requires it to be
 * an object key (followed by `:`).  Returns NULL if absent. */
static const char *find_string(schema_set *s, const char *from, const char *text, bool as_key) {
  char *quoted = arena_printf(s->arena, "\"%s\"", text);
  size_t n = strlen(quoted);
  for (const char *hit = strstr(from, quoted); hit; hit = strstr(hit + 1, quoted)) {
    const char *after = hit + n;
    while (*after == ' ' || *after == '\t' || *after == '\n' || *after == '\r')
      after++;
    if (!as_key || *after == ':')
      return hit;
  }
  return NULL;
}

/* Returns the span in p's file of the place l (and value, if not NULL)
 * describes, as close as the search gets; the file's first byte if nothing
 * is found. */
static pcl_span file_span(schema_set *s, schema_package *p, const loc *l, const char *value) {
  schema_pkg_impl *im = p->impl;
  pcl_span sp = {im->file, 0, im->text && im->text[0] ? 1 : 0};
  if (!im->text)
    return sp;
  const char *at = im->text;
  const char *found = NULL;
  const char *found_text = NULL;
  for (size_t i = 0; l && i < ARRAY_LEN(l->key) && l->key[i]; i++) {
    const char *hit = find_string(s, at, l->key[i], true);
    if (!hit)
      break;
    found = at = hit;
    found_text = l->key[i];
  }
  if (value) {
    const char *hit = find_string(s, at, value, false);
    if (hit) {
      found = hit;
      found_text = value;
    }
  }
  if (found) {
    sp.start = (uint32_t)(found - im->text);
    sp.end = sp.start + (uint32_t)strlen(found_text) + 2;
  }
  return sp;
}

/* Reports an error about package p at the place l/value in its file (or
 * without a location for the built-in package). */
static void __attribute__((format(printf, 5, 6)))
pkg_error(schema_set *s, schema_package *p, const loc *l, const char *value, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *text = diag_vformat(fmt, ap);
  va_end(ap);
  const char *msg = arena_strdup(s->arena, text);
  free(text);
  /* Errors past the printing limit are not located: the search is the
     expensive part, and nobody sees them. */
  if (p->impl->has_file && s->diags->errors >= DIAG_MAX_ERRORS)
    diag_error(s->diags, (pcl_span){p->impl->file, 0, 1}, "%s", msg);
  else if (p->impl->has_file)
    diag_error(s->diags, file_span(s, p, l, value), "%s", msg);
  else
    diag_error_global(s->diags, "%s: %s", p->path, msg);
}

#define LOC(...) (&(loc){{__VA_ARGS__}})

/* ----------------------------------------------------- package loading */

/* The reference's mock schema of the built-in package `pulumi`
 * (pkg/codegen/schema/mock_pulumi_schema.go). */
static const char builtin_pulumi[] =
    "{\"name\": \"pulumi\", \"version\": \"1.0.0\", \"resources\": {"
    "\"pulumi:pulumi:StackReference\": {"
    "\"properties\": {\"name\": {\"type\": \"string\"},"
    "\"outputs\": {\"type\": \"object\", \"additionalProperties\": {\"$ref\": "
    "\"pulumi.json#/Any\"}},"
    "\"secretOutputNames\": {\"type\": \"array\", \"items\": {\"type\": \"string\"}}},"
    "\"required\": [\"name\", \"outputs\", \"secretOutputNames\"],"
    "\"inputProperties\": {\"name\": {\"type\": \"string\"}},"
    "\"requiredInputs\": [\"name\"]},"
    "\"pulumi:index:Stash\": {"
    "\"properties\": {\"input\": {\"$ref\": \"pulumi.json#/Any\"},"
    "\"output\": {\"$ref\": \"pulumi.json#/Any\"}},"
    "\"required\": [\"input\", \"output\"],"
    "\"inputProperties\": {\"input\": {\"$ref\": \"pulumi.json#/Any\"}},"
    "\"requiredInputs\": [\"input\"]}}}";

/* Translates a Go (RE2) module-format pattern into a POSIX ERE and compiles
 * it; non-capturing groups become ordinary groups, and *group receives the
 * ERE number of the first capturing group.  Returns false on failure. */
static bool compile_format(schema_set *s, const char *pat, regex_t *re, size_t *group) {
  size_t len = strlen(pat);
  char *out = arena_alloc(s->arena, len * 12 + 1);
  size_t o = 0, groups = 0;
  *group = 0;
  bool in_bracket = false;
  for (size_t i = 0; i < len; i++) {
    char c = pat[i];
    if (c == '\\' && i + 1 < len) {
      char n = pat[++i];
      const char *cls = n == 'd'   ? "[0-9]"
                        : n == 'w' ? "[A-Za-z0-9_]"
                        : n == 's' ? "[ \t\n\r\f\v]"
                                   : NULL;
      if (cls && !in_bracket) {
        memcpy(out + o, cls, strlen(cls));
        o += strlen(cls);
      } else {
        out[o++] = '\\';
        out[o++] = n;
      }
      continue;
    }
    if (in_bracket) {
      if (c == ']')
        in_bracket = false;
      out[o++] = c;
      continue;
    }
    if (c == '[') {
      in_bracket = true;
      out[o++] = c;
      if (i + 1 < len && pat[i + 1] == '^')
        out[o++] = pat[++i];
      if (i + 1 < len && pat[i + 1] == ']')
        out[o++] = pat[++i];
      continue;
    }
    if (c == '(') {
      groups++;
      if (i + 2 < len && pat[i + 1] == '?' && pat[i + 2] == ':') {
        i += 2;
      } else if (i + 1 < len && pat[i + 1] == '?') {
        return false; /* Other (?...) forms have no ERE equivalent. */
      } else if (!*group) {
        *group = groups;
      }
    }
    out[o++] = c;
  }
  out[o] = 0;
  if (!*group)
    return false;
  return regcomp(re, out, REG_EXTENDED) == 0;
}

/* Registers a package as loaded. */
static void add_package(schema_set *s, schema_package *p) {
  p->impl->primary = true;
  for (size_t i = 0; i < s->npkgs; i++) {
    if (s->pkgs[i]->name == p->name)
      p->impl->primary = false;
  }
  PCL__GROW(s->pkgs, s->cappkgs, s->npkgs + 1);
  s->pkgs[s->npkgs++] = p;
}

/* Returns the parsed value of e (parsing it on first use), or NULL when e
 * is NULL or its text does not parse (reported once). */
static json_t *member_json(schema_set *s, schema_package *p, jscan_member *e) {
  if (!e || e->json || e->failed)
    return e ? e->json : NULL;
  schema_pkg_impl *im = p->impl;
  json_error_t err;
  e->json = json_loadb(im->text + e->start, e->end - e->start, JSON_DECODE_ANY, &err);
  if (!e->json) {
    /* The scan validated the structure, so this is what jansson checks
       beyond it (UTF-8, NUL characters). */
    e->failed = true;
    uint32_t pos = e->start + (err.position > 0 ? (uint32_t)err.position - 1 : 0);
    if (im->has_file)
      diag_error(s->diags, (pcl_span){im->file, pos, pos + 1}, "invalid JSON in schema file: %s",
                 err.text);
    else
      diag_error_global(s->diags, "%s: invalid JSON: %s", p->path, err.text);
  }
  return e->json;
}

/* Returns the parsed top-level member key of p, or NULL. */
static json_t *top_json(schema_set *s, schema_package *p, const char *key) {
  return member_json(s, p, jscan_find(&p->impl->top, intern(s->names, key)));
}

/* Scans the len bytes of p's text, indexing the top level and the sections;
 * reports invalid JSON (or a top level that is not an object) and returns
 * false. */
static bool index_text(schema_set *s, schema_package *p, size_t len) {
  schema_pkg_impl *im = p->impl;
  static const char *const names[] = {"resources", "functions", "types"};
  jscan_members *const sections[] = {&im->resources, &im->functions, &im->types};
  bool object;
  jscan_error err;
  if (!jscan_index(im->text, len, s->names, &im->top, ARRAY_LEN(names), names, sections, &object,
                   &err)) {
    uint32_t pos = (uint32_t)err.at;
    pcl_span sp = {im->file, pos, pos < len ? pos + 1 : pos};
    char c = err.show_char ? im->text[err.at] : 0;
    if (c > ' ' && c < 0x7f)
      diag_error(s->diags, sp, "invalid JSON in schema file: %s '%c'", err.msg, c);
    else
      diag_error(s->diags, sp, "invalid JSON in schema file: %s", err.msg);
    return false;
  }
  if (!object) {
    pkg_error(s, p, NULL, NULL, "a package schema must be a JSON object");
    return false;
  }
  return true;
}

/* Decodes the top level of a scanned schema into p; expect is the package
 * name the file was chosen for (NULL when loaded by path). */
static void decode_top(schema_set *s, schema_package *p, const char *expect,
                       const char *file_version) {
  schema_pkg_impl *im = p->impl;
  json_t *name = top_json(s, p, "name");
  if (!json_is_string(name) || !json_string_length(name)) {
    pkg_error(s, p, name ? LOC("name") : NULL, NULL,
              "package schema has no name (a non-empty string 'name' is required)");
    return;
  }
  p->name = intern(s->names, json_string_value(name));
  if (expect && p->name != expect) {
    pkg_error(s, p, LOC("name"), NULL, "schema file declares package '%s', not '%s'", p->name,
              expect);
    return;
  }
  json_t *version = top_json(s, p, "version");
  if (version && !json_is_string(version)) {
    pkg_error(s, p, LOC("version"), NULL, "package 'version' must be a string");
    return;
  }
  p->version = version ? arena_strdup(s->arena, json_string_value(version)) : file_version;
  json_t *url = top_json(s, p, "pluginDownloadURL");
  if (url && !json_is_string(url)) {
    pkg_error(s, p, LOC("pluginDownloadURL"), NULL,
              "package 'pluginDownloadURL' must be a string");
    return;
  }
  if (url && json_string_length(url))
    p->plugin_download_url = arena_strdup(s->arena, json_string_value(url));
  json_t *meta = top_json(s, p, "meta");
  json_t *fmt = json_is_object(meta) ? json_object_get(meta, "moduleFormat") : NULL;
  if (fmt) {
    if (!json_is_string(fmt)) {
      pkg_error(s, p, LOC("meta", "moduleFormat"), NULL, "'meta.moduleFormat' must be a string");
      return;
    }
    if (!compile_format(s, json_string_value(fmt), &im->format, &im->format_group)) {
      pkg_error(s, p, LOC("meta", "moduleFormat"), NULL, "invalid module format '%s'",
                json_string_value(fmt));
      return;
    }
    im->has_format = true;
  }
  static const char *const sections[] = {"resources", "functions", "types", "provider"};
  bool ok = true;
  for (size_t i = 0; i < ARRAY_LEN(sections); i++) {
    jscan_member *e = jscan_find(&im->top, intern(s->names, sections[i]));
    if (e && e->kind != '{') {
      pkg_error(s, p, LOC(sections[i]), NULL, "'%s' must be a JSON object", sections[i]);
      ok = false;
    }
  }
  im->provider = jscan_find(&im->top, intern(s->names, "provider"));
  json_t *ext = top_json(s, p, "extensionParameterization");
  if (ext && !json_is_object(ext)) {
    pkg_error(s, p, LOC("extensionParameterization"), NULL,
              "'extensionParameterization' must be a JSON object");
    ok = false;
  }
  p->extension = ext != NULL;
  p->ok = ok;
}

/* Creates a package struct for a file (not yet decoded). */
static schema_package *new_package(schema_set *s, const char *path, const char *fallback_name) {
  schema_package *p = ARENA_NEW(s->arena, schema_package);
  p->impl = ARENA_NEW(s->arena, schema_pkg_impl);
  p->path = arena_strdup(s->arena, path);
  p->name = fallback_name;
  return p;
}

/* Reads and parses the file at path.  Returns the package (ok == false after
 * a reported problem), or NULL if the file cannot even be read and no name
 * is known for it. */
static schema_package *load_path(schema_set *s, const char *path, const char *expect,
                                 const char *file_version) {
  for (size_t i = 0; i < s->npkgs; i++) {
    if (strcmp(s->pkgs[i]->path, path) == 0)
      return s->pkgs[i];
  }
  schema_package *p = new_package(s, path, expect);
  uint32_t id;
  const char *err;
  if (!src_read(s->diags->src, path, &id, &err)) {
    diag_io_error(s->diags, "cannot read schema file '%s': %s", path, err);
    if (!expect)
      return NULL;
    add_package(s, p);
    return p;
  }
  PCL__GROW(s->read, s->capread, s->nread + 1);
  s->read[s->nread++] = p->path;
  schema_pkg_impl *im = p->impl;
  src_file *f = src_get(s->diags->src, id);
  im->has_file = true;
  im->file = id;
  im->text = f->text;
  if (!index_text(s, p, f->len)) {
    if (!expect) {
      impl_free(im);
      return NULL;
    }
    add_package(s, p);
    return p;
  }
  decode_top(s, p, expect, file_version);
  if (!p->name) {
    impl_free(im);
    return NULL;
  }
  add_package(s, p);
  return p;
}

schema_package *schema_load_file(schema_set *s, const char *path) {
  /* The file name's version stands in when the schema has none. */
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  const char *name, *version = NULL;
  size_t len = strlen(base);
  if (len > 5 && !strcmp(base + len - 5, ".json"))
    schema_files_split_name(&s->files, base, &name, &version);
  return load_path(s, path, NULL, version);
}

/* Loads the built-in `pulumi` package. */
static schema_package *load_builtin(schema_set *s) {
  schema_package *p = new_package(s, "<builtin pulumi schema>", s->s_pulumi);
  p->impl->text = builtin_pulumi;
  if (!index_text(s, p, strlen(builtin_pulumi)))
    ice("the built-in pulumi schema does not scan");
  decode_top(s, p, s->s_pulumi, NULL);
  add_package(s, p);
  return p;
}

/* Chooses and loads the file for (name, version); NULL if none exists. */
static schema_package *choose_and_load(schema_set *s, const char *name, const char *version,
                                       const pcl_span *where) {
  if (name == s->s_pulumi)
    return load_builtin(s);
  bool fallback;
  const schema_file *pick = schema_files_choose(&s->files, name, version, &fallback);
  if (!pick)
    return NULL;
  if (fallback) {
    diag *g = diag_warning(s->diags, where ? *where : (pcl_span){0, 0, 0},
                           "no schema for version %s of package '%s'; using version %s", version,
                           name, pick->version);
    g->has_span = where != NULL;
  }
  return load_path(s, pick->path, name, pick->version);
}

/* Finds (name, version) as schema_find_package does; a warning about a
 * missing version goes to where when it is not NULL. */
static schema_package *find_package(schema_set *s, const char *name, const char *version,
                                    const pcl_span *where) {
  name = intern(s->names, name);
  if (!version)
    version = schema_files_pinned(&s->files, name);
  schema_resolution *first = ptrmap_get(&s->res, name);
  for (const schema_resolution *r = first; r; r = r->next) {
    if (r->version == version || (r->version && version && pcl__semver_same(r->version, version)))
      return r->pkg;
  }
  schema_package *p = choose_and_load(s, name, version, where);
  schema_resolution *r = ARENA_NEW(s->arena, schema_resolution);
  *r = (schema_resolution){version ? arena_strdup(s->arena, version) : NULL, p, first};
  ptrmap_put(&s->res, name, r);
  return p;
}

schema_package *schema_find_package(schema_set *s, const char *name, const char *version) {
  return find_package(s, name, version, NULL);
}

schema_package *schema_find_package_at(schema_set *s, const char *name, const char *version,
                                       pcl_span where) {
  return find_package(s, name, version, &where);
}

/* -------------------------------------------------------------- tokens */

bool schema_split_token(schema_set *s, const char *token, const char **pkg, const char **module,
                        const char **member) {
  const char *c1 = strchr(token, ':');
  if (!c1)
    return false;
  const char *c2 = strchr(c1 + 1, ':');
  if (c2 && strchr(c2 + 1, ':'))
    return false;
  const char *mod_start = c1 + 1, *mod_end = c2 ? c2 : c1 + 1;
  const char *mem = c2 ? c2 + 1 : c1 + 1;
  if (c1 == token || !*mem)
    return false;
  if (pkg)
    *pkg = intern_n(s->names, token, (size_t)(c1 - token));
  if (module) {
    *module = mod_end > mod_start ? intern_n(s->names, mod_start, (size_t)(mod_end - mod_start))
                                  : s->s_index;
  }
  if (member)
    *member = intern(s->names, mem);
  return true;
}

const char *schema_token_package(schema_set *s, const char *token) {
  const char *pkg, *mod, *mem;
  if (!schema_split_token(s, token, &pkg, &mod, &mem))
    return NULL;
  if (pkg == s->s_pulumi && mod == s->s_providers)
    return mem;
  return pkg;
}

/* Returns the module of a token's module part under the package's module
 * format: the format's module group when it matches, the whole part when it
 * does not, and "index" for the index module. */
static const char *canonical_module(schema_set *s, schema_package *p, const char *module) {
  schema_pkg_impl *im = p->impl;
  const char *mod = module;
  if (im->has_format) {
    regmatch_t m[10];
    size_t g = im->format_group;
    if (g < 10 && regexec(&im->format, module, 10, m, 0) == 0 && m[g].rm_so >= 0) {
      mod = intern_n(s->names, module + m[g].rm_so, (size_t)(m[g].rm_eo - m[g].rm_so));
    }
  }
  if (!*mod || strcmp(mod, "index") == 0)
    return s->s_index;
  return mod;
}

/* Returns the canonical key `pkg:module:Member` of a token within p, or NULL
 * if the token is malformed. */
static const char *canonical_key(schema_set *s, schema_package *p, const char *token) {
  const char *pkg, *mod, *mem;
  if (!schema_split_token(s, token, &pkg, &mod, &mem))
    return NULL;
  mod = canonical_module(s, p, mod);
  return intern(s->names, arena_printf(s->arena, "%s:%s:%s", p->name, mod, mem));
}

/* Adds the canonical key of token (if new) to an index. */
static void index_token(schema_set *s, schema_package *p, ptrmap *m, const char *key_token,
                        const char *target) {
  const char *key = canonical_key(s, p, key_token);
  if (key && !ptrmap_get(m, key))
    ptrmap_put(m, key, (void *)target);
}

/* Returns true if the JSON text [start, end) contains needle. */
static bool range_has(const char *text, uint32_t start, uint32_t end, const char *needle) {
  size_t n = strlen(needle);
  const char *p = text + start, *e = text + end;
  while ((size_t)(e - p) >= n) {
    const char *q = memchr(p, needle[0], (size_t)(e - p) - n + 1);
    if (!q)
      return false;
    if (!memcmp(q, needle, n))
      return true;
    p = q + 1;
  }
  return false;
}

/* Builds the canonical-token indexes of p (once). */
static void build_index(schema_set *s, schema_package *p) {
  schema_pkg_impl *im = p->impl;
  if (im->indexed)
    return;
  im->indexed = true;
  for (size_t i = 0; i < im->resources.count; i++) {
    const char *tok = im->resources.items[i].key;
    index_token(s, p, &im->res_index, tok, tok);
  }
  /* Aliases second, so that a real token always wins over an alias; only
     the resources whose text mentions aliases are parsed for them. */
  for (size_t i = 0; i < im->resources.count; i++) {
    jscan_member *e = &im->resources.items[i];
    if (!range_has(im->text, e->start, e->end, "\"aliases\""))
      continue;
    json_t *v = member_json(s, p, e);
    json_t *aliases = json_is_object(v) ? json_object_get(v, "aliases") : NULL;
    if (!json_is_array(aliases))
      continue;
    size_t k;
    json_t *a;
    json_array_foreach(aliases, k, a) {
      json_t *t = json_is_object(a) ? json_object_get(a, "type") : a;
      if (json_is_string(t))
        index_token(s, p, &im->res_index, json_string_value(t), e->key);
    }
  }
  for (size_t i = 0; i < im->functions.count; i++) {
    const char *tok = im->functions.items[i].key;
    index_token(s, p, &im->fn_index, tok, tok);
  }
}

/* Finds the schema token for a written token in one section. */
static const char *lookup_token(schema_set *s, schema_package *p, jscan_members *sect,
                                ptrmap *index, const char *token) {
  const char *exact = intern(s->names, token);
  if (jscan_find(sect, exact))
    return exact;
  build_index(s, p);
  const char *key = canonical_key(s, p, token);
  return key ? ptrmap_get(index, key) : NULL;
}

/* ------------------------------------------------------------ decoding */

static const schema_type *decode_type(schema_set *s, schema_package *p, json_t *spec, const loc *l);
static schema_resource *get_resource(schema_set *s, schema_package *p, const char *token);
static schema_resource *get_provider(schema_set *s, schema_package *p);

/* Returns a new zeroed schema type of kind k. */
static schema_type *new_type(schema_set *s, schema_type_kind k) {
  schema_type *t = ARENA_NEW(s->arena, schema_type);
  t->kind = k;
  return t;
}

/* Returns the type of something that could not be decoded (already
 * reported); it maps to dynamic so that nothing else is reported about it. */
static const schema_type *error_type(schema_set *s) {
  return new_type(s, SCHEMA_T_ERROR);
}

/* Returns an arena copy of the string member key of obj, or NULL. */
static const char *opt_string(schema_set *s, json_t *obj, const char *key) {
  json_t *v = json_object_get(obj, key);
  return json_is_string(v) ? arena_strdup(s->arena, json_string_value(v)) : NULL;
}

/* Returns the schema_type_kind of a primitive type name, or SCHEMA_T_ERROR. */
static schema_type_kind primitive_kind(const char *name) {
  if (!strcmp(name, "boolean"))
    return SCHEMA_T_BOOL;
  if (!strcmp(name, "integer"))
    return SCHEMA_T_INT;
  if (!strcmp(name, "number"))
    return SCHEMA_T_NUMBER;
  if (!strcmp(name, "string"))
    return SCHEMA_T_STRING;
  return SCHEMA_T_ERROR;
}

/* Decodes `%XX` escapes of a `$ref` (tokens with `/` are written `%2F`). */
static char *percent_decode(schema_set *s, const char *ref) {
  size_t n = strlen(ref);
  char *out = arena_alloc(s->arena, n + 1);
  size_t o = 0;
  for (size_t i = 0; i < n; i++) {
    int hi, lo;
    if (ref[i] == '%' && i + 2 < n) {
      char h = ref[i + 1], l = ref[i + 2];
      hi = h >= '0' && h <= '9'   ? h - '0'
           : h >= 'a' && h <= 'f' ? h - 'a' + 10
           : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                  : -1;
      lo = l >= '0' && l <= '9'   ? l - '0'
           : l >= 'a' && l <= 'f' ? l - 'a' + 10
           : l >= 'A' && l <= 'F' ? l - 'A' + 10
                                  : -1;
      if (hi >= 0 && lo >= 0) {
        out[o++] = (char)(hi * 16 + lo);
        i += 2;
        continue;
      }
    }
    out[o++] = ref[i];
  }
  out[o] = 0;
  return out;
}

/* Returns the type definition for token in p, creating the (undecoded)
 * struct on first use; NULL if p's `types` does not define token. */
static schema_typedef *get_typedef(schema_set *s, schema_package *p, const char *token) {
  schema_pkg_impl *im = p->impl;
  token = intern(s->names, token);
  schema_typedef *d = ptrmap_get(&im->type_cache, token);
  if (d)
    return d;
  jscan_member *e = jscan_find(&im->types, token);
  if (!e)
    return NULL;
  json_t *spec = member_json(s, p, e);
  d = ARENA_NEW(s->arena, schema_typedef);
  d->token = token;
  d->pkg = p;
  d->is_enum = json_is_object(spec) && json_object_get(spec, "enum") != NULL;
  ptrmap_put(&im->type_cache, token, d);
  return d;
}

/* Decodes a `$ref` found in package p. */
static const schema_type *decode_ref(schema_set *s, schema_package *p, json_t *spec,
                                     const char *ref, const loc *l) {
  if (!strncmp(ref, "pulumi.json#/", 13)) {
    const char *what = ref + 13;
    schema_type_kind k = !strcmp(what, "Any")       ? SCHEMA_T_ANY
                         : !strcmp(what, "Json")    ? SCHEMA_T_JSON
                         : !strcmp(what, "Asset")   ? SCHEMA_T_ASSET
                         : !strcmp(what, "Archive") ? SCHEMA_T_ARCHIVE
                                                    : SCHEMA_T_ERROR;
    if (k == SCHEMA_T_ERROR) {
      pkg_error(s, p, l, ref, "invalid $ref '%s': unknown built-in type '%s'", ref, what);
      return error_type(s);
    }
    schema_type *t = new_type(s, k);
    t->ref = ref;
    return t;
  }
  char *dec = percent_decode(s, ref);
  char *hash = strchr(dec, '#');
  if (!hash) {
    pkg_error(s, p, l, ref, "invalid $ref '%s': expected '#/types/...' or '#/resources/...'", ref);
    return error_type(s);
  }
  *hash = 0;
  const char *frag = hash + 1;
  schema_package *target = p;
  if (*dec) {
    /* `/<pkg>/v<version>/schema.json`: a type of another package. */
    char *pkgname = dec + 1, *slash = dec[0] == '/' ? strchr(dec + 1, '/') : NULL;
    if (!slash || slash[1] != 'v' || !strstr(slash, "/schema.json")) {
      pkg_error(s, p, l, ref,
                "invalid $ref '%s': expected '/<package>/v<version>/schema.json#/...'", ref);
      return error_type(s);
    }
    *slash = 0;
    char *ver = slash + 2;
    *strstr(ver, "/schema.json") = 0;
    const char *name = intern(s->names, pkgname);
    if (name != p->name || (p->version && !pcl__semver_same(p->version, ver))) {
      target = schema_find_package(s, name, ver);
      if (!target) {
        pkg_error(s, p, l, ref, "invalid $ref '%s': no schema for package '%s'", ref, name);
        return error_type(s);
      }
      if (!target->ok)
        return error_type(s);
    }
  }
  if (!strncmp(frag, "/types/", 7)) {
    const char *tok = frag + 7;
    schema_typedef *d = get_typedef(s, target, tok);
    if (!d) {
      json_t *prim = json_object_get(spec, "type");
      if (json_is_string(prim) && primitive_kind(json_string_value(prim)) != SCHEMA_T_ERROR) {
        /* A named token type with an underlying primitive type. */
        schema_type *t = new_type(s, SCHEMA_T_TOKEN);
        t->ref = ref;
        t->token = intern(s->names, tok);
        t->underlying = new_type(s, primitive_kind(json_string_value(prim)));
        return t;
      }
      pkg_error(s, p, l, ref, "invalid $ref '%s': package '%s' defines no type '%s'", ref,
                target->name, tok);
      return error_type(s);
    }
    schema_type *t = new_type(s, d->is_enum ? SCHEMA_T_ENUM : SCHEMA_T_OBJECT);
    t->ref = ref;
    t->def = d;
    t->token = d->token;
    return t;
  }
  if (!strncmp(frag, "/resources/", 11) || !strcmp(frag, "/provider")) {
    /* `#/provider` and `#/resources/pulumi:providers:<pkg>` name a provider. */
    bool provider = frag[1] == 'p' || !strncmp(frag + 11, "pulumi:providers:", 17);
    if (provider && frag[1] != 'p') {
      const char *owner = intern(s->names, frag + 28);
      if (owner != target->name)
        target = schema_find_package(s, owner, NULL);
      if (!target) {
        pkg_error(s, p, l, ref, "invalid $ref '%s': no schema for package '%s'", ref, owner);
        return error_type(s);
      }
    }
    schema_resource *r =
        provider ? get_provider(s, target) : get_resource(s, target, intern(s->names, frag + 11));
    if (!r) {
      pkg_error(s, p, l, ref, "invalid $ref '%s': package '%s' defines no resource '%s'", ref,
                target->name, provider ? "provider" : frag + 11);
      return error_type(s);
    }
    schema_type *t = new_type(s, SCHEMA_T_RESOURCE);
    t->ref = ref;
    t->resource = r;
    t->token = r->token;
    return t;
  }
  pkg_error(s, p, l, ref, "invalid $ref '%s': expected '#/types/...' or '#/resources/...'", ref);
  return error_type(s);
}

/* Decodes a type spec; where names what is being decoded, for messages. */
static const schema_type *decode_type(schema_set *s, schema_package *p, json_t *spec,
                                      const loc *l) {
  const char *where = "the type";
  for (size_t i = 0; l && i < ARRAY_LEN(l->key) && l->key[i]; i++)
    where = l->key[i];
  if (!json_is_object(spec)) {
    pkg_error(s, p, l, NULL, "the type of '%s' must be a JSON object", where);
    return error_type(s);
  }
  bool plain = json_is_true(json_object_get(spec, "plain"));
  const schema_type *res;
  json_t *ref = json_object_get(spec, "$ref");
  json_t *one_of = json_object_get(spec, "oneOf");
  json_t *type = json_object_get(spec, "type");
  if (ref) {
    if (!json_is_string(ref)) {
      pkg_error(s, p, l, NULL, "the $ref of '%s' must be a string", where);
      return error_type(s);
    }
    res = decode_ref(s, p, spec, json_string_value(ref), l);
  } else if (one_of) {
    if (!json_is_array(one_of) || !json_array_size(one_of)) {
      pkg_error(s, p, l, NULL, "'oneOf' of '%s' must be a non-empty array", where);
      return error_type(s);
    }
    schema_type *t = new_type(s, SCHEMA_T_UNION);
    size_t n = json_array_size(one_of);
    const schema_type **alts = ARENA_NEW_ARRAY(s->arena, const schema_type *, n);
    for (size_t i = 0; i < n; i++)
      alts[i] = decode_type(s, p, json_array_get(one_of, i), l);
    t->alts = alts;
    t->nalts = n;
    json_t *disc = json_object_get(spec, "discriminator");
    if (json_is_object(disc)) {
      t->discriminator = opt_string(s, disc, "propertyName");
      json_t *mapping = json_object_get(disc, "mapping");
      if (json_is_object(mapping)) {
        schema_mapping *m = ARENA_NEW_ARRAY(s->arena, schema_mapping, json_object_size(mapping));
        size_t i = 0;
        const char *key;
        json_t *v;
        json_object_foreach(mapping, key, v) {
          if (!json_is_string(v))
            continue;
          m[i].value = intern(s->names, key);
          m[i].ref = arena_strdup(s->arena, json_string_value(v));
          i++;
        }
        t->mapping = m;
        t->nmapping = i;
      }
    }
    res = t;
  } else if (json_is_string(type)) {
    const char *name = json_string_value(type);
    schema_type_kind k = primitive_kind(name);
    if (k != SCHEMA_T_ERROR) {
      res = new_type(s, k);
    } else if (!strcmp(name, "array")) {
      json_t *items = json_object_get(spec, "items");
      if (!items) {
        pkg_error(s, p, l, NULL, "array type of '%s' has no 'items'", where);
        return error_type(s);
      }
      schema_type *t = new_type(s, SCHEMA_T_ARRAY);
      t->elem = decode_type(s, p, items, l);
      res = t;
    } else if (!strcmp(name, "object")) {
      /* Objects without properties are maps (of strings unless
         additionalProperties says otherwise), as in the reference. */
      json_t *ap = json_object_get(spec, "additionalProperties");
      schema_type *t = new_type(s, SCHEMA_T_MAP);
      t->elem = ap ? decode_type(s, p, ap, l) : new_type(s, SCHEMA_T_STRING);
      res = t;
    } else {
      pkg_error(s, p, l, NULL, "unknown type '%s' for '%s'", name, where);
      return error_type(s);
    }
  } else {
    pkg_error(s, p, l, NULL, "the type of '%s' has no 'type', '$ref' or 'oneOf'", where);
    return error_type(s);
  }
  if (plain && !res->plain && res->kind != SCHEMA_T_ERROR) {
    schema_type *copy = new_type(s, res->kind);
    *copy = *res;
    copy->plain = true;
    res = copy;
  }
  return res;
}

/* Returns the const type for a JSON scalar used as a value of schema type
 * kind k (ints stay ints unless the property is a number), or NULL. */
static const ty *const_of(schema_set *s, json_t *v, schema_type_kind k) {
  if (json_is_boolean(v))
    return ty_const_bool(s->ty, json_is_true(v));
  if (json_is_integer(v)) {
    if (k == SCHEMA_T_NUMBER)
      return ty_const_number(s->ty, (double)json_integer_value(v));
    return ty_const_int_si(s->ty, (long)json_integer_value(v));
  }
  if (json_is_real(v)) {
    /* An integral value of an integer property (`1.0`, `1e3`) is an exact
       int, as a literal would be (DECISIONS.md D3). */
    double d = json_real_value(v);
    double m = d < 0 ? -d : d; /* JSON numbers are finite. */
    bool integral = m >= 9007199254740992.0 || d == (double)(long long)d;
    if (k == SCHEMA_T_INT && integral) {
      mpz_t z;
      mpz_init_set_d(z, d);
      const ty *t = ty_const_int(s->ty, z);
      mpz_clear(z);
      return t;
    }
    return ty_const_number(s->ty, d);
  }
  if (json_is_string(v))
    return ty_const_string(s->ty, json_string_value(v), json_string_length(v));
  return NULL;
}

/* Returns whether the JSON scalar v is a value of the primitive schema type
 * kind k (an integer one may be written `1.0` or `1e3`); true for other
 * kinds, whose values are not checked. */
static bool json_fits(json_t *v, schema_type_kind k) {
  switch (k) {
  case SCHEMA_T_BOOL:
    return json_is_boolean(v);
  case SCHEMA_T_INT: {
    if (json_is_integer(v))
      return true;
    double d = json_is_real(v) ? json_real_value(v) : 0.5;
    double m = d < 0 ? -d : d; /* JSON numbers are finite. */
    return json_is_real(v) && (m >= 9007199254740992.0 || d == (double)(long long)d);
  }
  case SCHEMA_T_NUMBER:
    return json_is_number(v);
  case SCHEMA_T_STRING:
    return json_is_string(v);
  case SCHEMA_T_ARRAY:
  case SCHEMA_T_MAP:
  case SCHEMA_T_OBJECT:
  case SCHEMA_T_ENUM:
  case SCHEMA_T_RESOURCE:
  case SCHEMA_T_TOKEN:
  case SCHEMA_T_ANY:
  case SCHEMA_T_JSON:
  case SCHEMA_T_ASSET:
  case SCHEMA_T_ARCHIVE:
  case SCHEMA_T_UNION:
  case SCHEMA_T_ERROR:
    return true;
  }
  return true;
}

/* Reads the list of required property names (`required`, `requiredInputs`)
 * at obj's member key into *set (interned name -> itself), reporting an
 * entry that is not a string or names no member of props (which may be
 * NULL: no properties); l locates obj. */
static void read_required(schema_set *s, schema_package *p, json_t *obj, const char *key,
                          json_t *props, const loc *l, const char *owner, ptrmap *set) {
  json_t *required = key ? json_object_get(obj, key) : NULL;
  if (!required)
    return;
  loc rl = loc_add(l, key);
  if (!json_is_array(required)) {
    pkg_error(s, p, &rl, NULL, "'%s' of '%s' must be an array of property names", key, owner);
    return;
  }
  size_t i;
  json_t *v;
  json_array_foreach(required, i, v) {
    if (!json_is_string(v)) {
      pkg_error(s, p, &rl, NULL, "entry %zu of '%s' of '%s' must be a property name (a string)",
                i, key, owner);
      continue;
    }
    const char *name = json_string_value(v);
    if (!json_is_object(props) || !json_object_get(props, name)) {
      pkg_error(s, p, &rl, name, "'%s' of '%s' names '%s', which is not one of its properties",
                key, owner, name);
      continue;
    }
    name = intern(s->names, name);
    ptrmap_put(set, name, (void *)name);
  }
}

/* Decodes the properties object at obj's member props_key, with the
 * required list at member required_key (NULL: none), into an array; l
 * locates obj and owner names its definition in messages. */
static schema_property *decode_props(schema_set *s, schema_package *p, json_t *obj,
                                     const char *props_key, const char *required_key,
                                     const loc *l, const char *owner, size_t *n) {
  *n = 0;
  json_t *props = json_object_get(obj, props_key);
  ptrmap required = {0};
  read_required(s, p, obj, required_key, props, l, owner, &required);
  if (!props) {
    ptrmap_free(&required);
    return NULL;
  }
  loc pkl = loc_add(l, props_key);
  if (!json_is_object(props)) {
    pkg_error(s, p, &pkl, NULL, "the properties of '%s' must be a JSON object", owner);
    ptrmap_free(&required);
    return NULL;
  }
  schema_property *out = ARENA_NEW_ARRAY(s->arena, schema_property, json_object_size(props));
  const char *key;
  json_t *v;
  json_object_foreach(props, key, v) {
    schema_property *q = &out[(*n)++];
    q->name = intern(s->names, key);
    loc pl = loc_add(&pkl, key);
    q->required = ptrmap_get(&required, q->name) != NULL;
    if (!json_is_object(v)) {
      pkg_error(s, p, &pl, NULL, "property '%s' of '%s' must be a JSON object", key, owner);
      q->type = error_type(s);
      continue;
    }
    q->type = decode_type(s, p, v, &pl);
    q->plain = q->type->plain;
    q->secret = json_is_true(json_object_get(v, "secret"));
    q->replace_on_changes = json_is_true(json_object_get(v, "replaceOnChanges")) ||
                            json_is_true(json_object_get(v, "willReplaceOnChanges"));
    q->description = opt_string(s, v, "description");
    q->deprecation = opt_string(s, v, "deprecationMessage");
    static const char *const value_keys[] = {"const", "default"};
    for (size_t i = 0; i < ARRAY_LEN(value_keys); i++) {
      json_t *c = json_object_get(v, value_keys[i]);
      if (!c)
        continue;
      if (!json_fits(c, q->type->kind)) {
        loc cl = loc_add(&pl, value_keys[i]);
        pkg_error(s, p, &cl, NULL, "the %s of property '%s' of '%s' must be a value of type %s",
                  value_keys[i], key, owner, schema_type_kind_name(q->type->kind));
        continue;
      }
      *(i == 0 ? &q->const_value : &q->default_value) = const_of(s, c, q->type->kind);
    }
    json_t *info = json_object_get(v, "defaultInfo");
    json_t *env = json_is_object(info) ? json_object_get(info, "environment") : NULL;
    if (json_is_array(env) && json_array_size(env)) {
      const char **names = ARENA_NEW_ARRAY(s->arena, const char *, json_array_size(env));
      size_t i;
      json_t *e;
      json_array_foreach(env, i, e) {
        if (json_is_string(e))
          names[q->ndefault_env++] = arena_strdup(s->arena, json_string_value(e));
      }
      q->default_env = names;
    }
  }
  ptrmap_free(&required);
  return out;
}

/* qsort order of methods: by name (unique: the keys of one JSON object). */
static int cmp_method_names(const void *a, const void *b) {
  return strcmp((*(const schema_method *const *)a)->name, (*(const schema_method *const *)b)->name);
}

/* Decodes a resource JSON object into r (already cached). */
static void decode_resource(schema_set *s, schema_package *p, schema_resource *r, json_t *j) {
  const char *tok = r->token;
  const loc *rl = r->is_provider ? LOC("provider") : LOC("resources", tok);
  if (!j)
    return; /* Its text did not parse (reported). */
  if (!json_is_object(j)) {
    pkg_error(s, p, rl, NULL, "error loading resource type '%s': not a JSON object", tok);
    return;
  }
  r->description = opt_string(s, j, "description");
  r->deprecation = opt_string(s, j, "deprecationMessage");
  r->is_component = json_is_true(json_object_get(j, "isComponent"));
  loc st = loc_add(rl, "stateInputs"), me = loc_add(rl, "methods");
  r->inputs = decode_props(s, p, j, "inputProperties", "requiredInputs", rl, tok, &r->ninputs);
  r->outputs = decode_props(s, p, j, "properties", "required", rl, tok, &r->noutputs);
  json_t *state = json_object_get(j, "stateInputs");
  if (json_is_object(state))
    r->state = decode_props(s, p, state, "properties", NULL, &st, tok, &r->nstate);
  json_t *methods = json_object_get(j, "methods");
  if (methods && !json_is_object(methods))
    pkg_error(s, p, &me, NULL, "the methods of '%s' must be a JSON object", tok);
  if (json_is_object(methods)) {
    r->methods = ARENA_NEW_ARRAY(s->arena, schema_method, json_object_size(methods));
    const char *key;
    json_t *v;
    json_object_foreach(methods, key, v) {
      loc ml = loc_add(&me, key);
      if (!json_is_string(v)) {
        pkg_error(s, p, &ml, NULL, "method '%s' of '%s' must name a function token", key, tok);
        continue;
      }
      const char *fn = intern(s->names, json_string_value(v));
      if (!jscan_find(&p->impl->functions, fn)) {
        pkg_error(s, p, &ml, fn, "method '%s' of '%s' names function '%s', which is not defined",
                  key, tok, fn);
        continue;
      }
      r->methods[r->nmethods].name = intern(s->names, key);
      r->methods[r->nmethods].token = fn;
      r->nmethods++;
    }
    r->methods_by_name = ARENA_NEW_ARRAY(s->arena, const schema_method *, r->nmethods + 1);
    for (size_t i = 0; i < r->nmethods; i++)
      r->methods_by_name[i] = &r->methods[i];
    qsort(r->methods_by_name, r->nmethods, sizeof *r->methods_by_name, cmp_method_names);
  }
}

/* Decodes r (cached already) from e.  A resource's properties may name other
 * resources, whose properties may name others, without bound; so a resource
 * reached while decoding is queued, not decoded there, and the outermost
 * call decodes the queue until it is empty.  Every resource is thus decoded
 * when the outermost get_resource or get_provider returns, and only
 * decode_ref, which needs the token alone, sees one still undecoded. */
static void queue_decode(schema_set *s, schema_resource *r, jscan_member *e) {
  PCL__GROW(s->pending, s->cappending, s->npending + 1);
  s->pending[s->npending++] = (pending_resource){r, e};
  if (s->decoding)
    return;
  s->decoding = true;
  while (s->npending > 0) {
    pending_resource q = s->pending[--s->npending];
    decode_resource(s, q.r->pkg, q.r, member_json(s, q.r->pkg, q.member));
  }
  s->decoding = false;
}

/* Returns the resource with schema token `token` of p, decoded (see
 * queue_decode), or NULL if p does not define it. */
static schema_resource *get_resource(schema_set *s, schema_package *p, const char *token) {
  schema_pkg_impl *im = p->impl;
  schema_resource *r = ptrmap_get(&im->res_cache, token);
  if (r)
    return r;
  jscan_member *e = jscan_find(&im->resources, token);
  if (!e)
    return NULL;
  r = ARENA_NEW(s->arena, schema_resource);
  r->token = token;
  r->pkg = p;
  ptrmap_put(&im->res_cache, token, r);
  queue_decode(s, r, e);
  return r;
}

/* Returns the provider resource of p, decoded (see queue_decode); an empty
 * one when the schema has no `provider` section. */
static schema_resource *get_provider(schema_set *s, schema_package *p) {
  schema_pkg_impl *im = p->impl;
  if (im->provider_res)
    return im->provider_res;
  schema_resource *r = ARENA_NEW(s->arena, schema_resource);
  r->token = intern(s->names, arena_printf(s->arena, "pulumi:providers:%s", p->name));
  r->pkg = p;
  r->is_provider = true;
  im->provider_res = r;
  if (im->provider)
    queue_decode(s, r, im->provider);
  return r;
}

/* Decodes a function JSON object into f (already cached). */
static void decode_function(schema_set *s, schema_package *p, schema_function *f, json_t *j) {
  const char *tok = f->token;
  const loc *fl = LOC("functions", tok);
  if (!j)
    return; /* Its text did not parse (reported). */
  if (!json_is_object(j)) {
    pkg_error(s, p, fl, NULL, "error loading function '%s': not a JSON object", tok);
    return;
  }
  f->description = opt_string(s, j, "description");
  f->deprecation = opt_string(s, j, "deprecationMessage");
  json_t *in = json_object_get(j, "inputs");
  loc inl = loc_add(fl, "inputs");
  if (in) {
    if (!json_is_object(in)) {
      pkg_error(s, p, &inl, NULL, "error loading function '%s': 'inputs' must be an object", tok);
    } else {
      f->has_inputs = true;
      f->inputs = decode_props(s, p, in, "properties", "required", &inl, tok, &f->ninputs);
    }
  }
  f->is_method = schema_property_find(f->inputs, f->ninputs, s->s_self) != NULL;
  json_t *multi = json_object_get(j, "multiArgumentInputs");
  if (json_is_array(multi) && json_array_size(multi)) {
    const char **names = ARENA_NEW_ARRAY(s->arena, const char *, json_array_size(multi));
    loc ml = loc_add(fl, "multiArgumentInputs");
    size_t i;
    json_t *v;
    json_t *props = json_object_get(in, "properties");
    json_array_foreach(multi, i, v) {
      if (!json_is_string(v) || !json_is_object(props) ||
          !json_object_get(props, json_string_value(v))) {
        pkg_error(s, p, &ml, NULL,
                  "error loading function '%s': multiArgumentInputs must name its inputs", tok);
        continue;
      }
      names[f->nmulti_args++] = intern(s->names, json_string_value(v));
    }
    f->multi_args = names;
  }
  json_t *out = json_object_get(j, "outputs");
  loc outl = loc_add(fl, "outputs");
  if (out) {
    if (!json_is_object(out)) {
      pkg_error(s, p, &outl, NULL, "error loading function '%s': 'outputs' must be an object", tok);
      return;
    }
    f->has_return = true;
    f->return_plain = json_is_true(json_object_get(out, "plain"));
    json_t *props = json_object_get(out, "properties");
    json_t *type = json_object_get(out, "type");
    bool object = props || (json_is_string(type) && !strcmp(json_string_value(type), "object") &&
                            !json_object_get(out, "additionalProperties"));
    if (object) {
      f->returns_object = true;
      f->outputs = decode_props(s, p, out, "properties", "required", &outl, tok, &f->noutputs);
    } else {
      f->return_type = decode_type(s, p, out, &outl);
    }
  }
}

/* Returns the decoded function with schema token `token`, or NULL. */
static schema_function *get_function(schema_set *s, schema_package *p, const char *token) {
  schema_pkg_impl *im = p->impl;
  schema_function *f = ptrmap_get(&im->fn_cache, token);
  if (f)
    return f;
  jscan_member *e = jscan_find(&im->functions, token);
  if (!e)
    return NULL;
  json_t *j = member_json(s, p, e);
  f = ARENA_NEW(s->arena, schema_function);
  f->token = token;
  f->pkg = p;
  ptrmap_put(&im->fn_cache, token, f);
  decode_function(s, p, f, j);
  return f;
}

/* Decodes a type definition's properties or enum values (once). */
static void decode_typedef(schema_set *s, schema_typedef *d) {
  if (d->decoded || d->decoding)
    return;
  d->decoding = true;
  schema_package *p = d->pkg;
  const loc *dl = LOC("types", d->token);
  json_t *j = member_json(s, p, jscan_find(&p->impl->types, d->token));
  if (!json_is_object(j)) {
    if (j)
      pkg_error(s, p, dl, NULL, "type '%s' must be a JSON object", d->token);
    d->decoding = false;
    d->decoded = true;
    return;
  }
  d->description = opt_string(s, j, "description");
  if (d->is_enum) {
    json_t *type = json_object_get(j, "type");
    d->enum_base = json_is_string(type) ? primitive_kind(json_string_value(type)) : SCHEMA_T_ERROR;
    json_t *vals = json_object_get(j, "enum");
    if (d->enum_base == SCHEMA_T_ERROR) {
      pkg_error(s, p, dl, NULL, "enum type '%s' needs a primitive 'type'", d->token);
    } else if (!json_is_array(vals)) {
      pkg_error(s, p, dl, NULL, "the 'enum' of '%s' must be an array", d->token);
    } else {
      size_t n = json_array_size(vals);
      const ty **values = ARENA_NEW_ARRAY(s->arena, const ty *, n);
      const char **names = ARENA_NEW_ARRAY(s->arena, const char *, n);
      size_t i;
      json_t *e;
      json_array_foreach(vals, i, e) {
        json_t *value = json_is_object(e) ? json_object_get(e, "value") : NULL;
        const ty *c = value ? const_of(s, value, d->enum_base) : NULL;
        if (!c) {
          pkg_error(s, p, dl, NULL, "member %zu of enum '%s' has no scalar 'value'", i, d->token);
          continue;
        }
        if (!json_fits(value, d->enum_base)) {
          loc el = loc_add(dl, "enum");
          pkg_error(s, p, &el, NULL, "member %zu of enum '%s' must be a value of type %s",
                    i, d->token, schema_type_kind_name(d->enum_base));
          continue;
        }
        names[d->nenum] = opt_string(s, e, "name");
        values[d->nenum++] = c;
      }
      d->enum_values = values;
      d->enum_names = names;
    }
  } else {
    json_t *type = json_object_get(j, "type");
    if (type && !(json_is_string(type) && !strcmp(json_string_value(type), "object")))
      pkg_error(s, p, dl, NULL, "type '%s' must be an object or an enum", d->token);
    d->props = decode_props(s, p, j, "properties", "required", dl, d->token, &d->nprops);
  }
  d->decoding = false;
  d->decoded = true;
}

/* ------------------------------------------------------------- lookups */

/* Resolves the package of a lookup; reports malformed tokens. */
static schema_status lookup_package(schema_set *s, const char *token, const char *version,
                                    pcl_span where, schema_package **pkg, bool *provider,
                                    const char **member) {
  const char *pk, *mod, *mem;
  if (!schema_split_token(s, token, &pk, &mod, &mem)) {
    diag_error(s->diags, where,
               "malformed token '%s': expected 'pkg:module:member' or 'pkg:member'", token);
    return SCHEMA_ERROR;
  }
  *provider = pk == s->s_pulumi && mod == s->s_providers;
  *member = mem;
  *pkg = find_package(s, *provider ? mem : pk, version, &where);
  if (!*pkg)
    return SCHEMA_NO_PACKAGE;
  return (*pkg)->ok ? SCHEMA_FOUND : SCHEMA_ERROR;
}

/* Returns the member part of a token: what follows its last ':'. */
static const char *token_member(const char *token) {
  const char *colon = strrchr(token, ':');
  return colon ? colon + 1 : token;
}

/* Adds "did you mean" to g, the error about the unknown token, when the
 * member part of a token of the section is a small edit away from the
 * token's (the shared package and module would make any two tokens look
 * close). */
static void suggest_token(schema_set *s, diag *g, const jscan_members *section, const char *token,
                          pcl_span where) {
  if (!diag_last_shown(s->diags))
    return;
  const char *member = token_member(token);
  pcl__suggest sg;
  pcl__suggest_init(&sg, member, strlen(member));
  const char *best = NULL;
  for (size_t i = 0; i < section->count; i++) {
    const char *m = token_member(section->items[i].key);
    pcl__suggest_offer(&sg, m, strlen(m));
    if (pcl__suggest_best(&sg, NULL) == m)
      best = section->items[i].key;
  }
  if (best)
    diag_note_suggestion(g, where, best, strlen(best));
}

/* A successful resource lookup, valid for the same version and pins. */
typedef struct found_resource {
  const char *version; /* The version asked for (compared by address). */
  size_t npins;        /* s->files.npins at the time (pins only ever grow). */
  schema_resource *res;
} found_resource;

/* Looks the resource up without the cache of schema_find_resource. */
static schema_status find_resource(schema_set *s, const char *token, const char *version,
                                   pcl_span where, schema_resource **out) {
  *out = NULL;
  schema_package *p;
  bool provider;
  const char *member;
  schema_status st = lookup_package(s, token, version, where, &p, &provider, &member);
  if (st != SCHEMA_FOUND)
    return st;
  if (provider) {
    *out = get_provider(s, p);
    return SCHEMA_FOUND;
  }
  /* The token as written, else its canonical form (module format, index
     elision), else an alias (build_index). */
  const char *tok = lookup_token(s, p, &p->impl->resources, &p->impl->res_index, token);
  schema_resource *r = tok ? get_resource(s, p, tok) : NULL;
  if (!r) {
    suggest_token(s, diag_error(s->diags, where, "unknown resource type '%s'", token),
                  &p->impl->resources, token, where);
    return SCHEMA_ERROR;
  }
  *out = r;
  return SCHEMA_FOUND;
}

/* A found resource depends only on the token, the version, the pins and
   the packages resolved so far; the first resolution of a (package,
   version) is kept (s->res), so a later identical lookup finds the same
   resource, and the path that finds one reports nothing. */
schema_status schema_find_resource(schema_set *s, const char *token, const char *version,
                                   pcl_span where, schema_resource **out) {
  const char *key = intern(s->names, token);
  found_resource *f = ptrmap_get(&s->found, key);
  if (f && f->version == version && f->npins == s->files.npins) {
    *out = f->res;
    return SCHEMA_FOUND;
  }
  schema_status st = find_resource(s, key, version, where, out);
  if (st == SCHEMA_FOUND) {
    if (!f) {
      f = ARENA_NEW(s->arena, found_resource);
      ptrmap_put(&s->found, key, f);
    }
    *f = (found_resource){version, s->files.npins, *out};
  }
  return st;
}

schema_status schema_find_function(schema_set *s, const char *token, const char *version,
                                   pcl_span where, schema_function **out) {
  *out = NULL;
  schema_package *p;
  bool provider;
  const char *member;
  schema_status st = lookup_package(s, token, version, where, &p, &provider, &member);
  if (st != SCHEMA_FOUND)
    return st;
  const char *tok =
      provider ? NULL : lookup_token(s, p, &p->impl->functions, &p->impl->fn_index, token);
  schema_function *f = tok ? get_function(s, p, tok) : NULL;
  if (!f) {
    suggest_token(s, diag_error(s->diags, where, "unknown function '%s'", token),
                  &p->impl->functions, token, where);
    return SCHEMA_ERROR;
  }
  *out = f;
  return SCHEMA_FOUND;
}

schema_function *schema_resource_method(schema_set *s, schema_resource *res, const char *name) {
  size_t lo = 0, hi = res->nmethods;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    const schema_method *m = res->methods_by_name[mid];
    int c = strcmp(m->name, name);
    if (c == 0)
      return get_function(s, res->pkg, m->token);
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return NULL;
}

schema_resource *schema_resource_of_type(const schema_set *s, const ty *t) {
  return ptrmap_get(&s->by_ty, t);
}

const schema_type *schema_union_select(schema_set *s, const schema_type *u, const char *value) {
  if (u->kind != SCHEMA_T_UNION || !u->discriminator)
    return NULL;
  for (size_t i = 0; i < u->nmapping; i++) {
    if (strcmp(u->mapping[i].value, value) != 0)
      continue;
    /* The mapping names a $ref; match it as written or by the token. */
    const char *ref = u->mapping[i].ref;
    const char *hash = strrchr(ref, '/');
    const char *tok = hash ? percent_decode(s, hash + 1) : ref;
    for (size_t k = 0; k < u->nalts; k++) {
      const schema_type *alt = u->alts[k];
      if ((alt->ref && !strcmp(alt->ref, ref)) || (alt->token && !strcmp(alt->token, tok)))
        return alt;
    }
    return NULL;
  }
  for (size_t k = 0; k < u->nalts; k++) {
    const schema_type *alt = u->alts[k];
    if (alt->kind != SCHEMA_T_OBJECT)
      continue;
    decode_typedef(s, alt->def);
    schema_property *d = schema_property_find(alt->def->props, alt->def->nprops, u->discriminator);
    const ty *c = d ? d->const_value : NULL;
    if (c && c->kind == TY_CONST && c->cnst.base->kind == TY_STRING && !strcmp(c->cnst.text, value))
      return alt;
  }
  return NULL;
}

schema_property *schema_property_find(schema_property *props, size_t n, const char *name) {
  for (size_t i = 0; i < n; i++) {
    if (props[i].name == name || !strcmp(props[i].name, name))
      return &props[i];
  }
  return NULL;
}

/* ------------------------------------------------------------- mapping */

/* Returns the identity token of a named object: the schema token, with the
 * version when another version of the package was loaded first, and a
 * suffix telling the shapes of one schema type apart ("$input" is the suffix
 * the ty module gives InputType of a named object, see typedef_ty). */
static const char *object_identity(schema_set *s, schema_package *p, const char *token,
                                   const char *suffix) {
  const char *ver = !p->impl->primary && p->version ? p->version : NULL;
  return arena_printf(s->arena, "%s%s%s%s", token, ver ? "@" : "", ver ? ver : "",
                      suffix ? suffix : "");
}

/* Returns union(t_in, output(t_plain)): the input shape of a value. */
static const ty *input_shape(schema_set *s, const ty *t_in, const ty *t_plain) {
  return ty_union2(s->ty, t_in, ty_output(s->ty, t_plain));
}

static const ty *typedef_ty(schema_set *s, schema_typedef *d, bool input);
static void define_named(schema_set *s, schema_typedef *d, schema_resource *r);

/* Each case computes the plain type and, for the input shape, the type
 * with input-shaped elements (`in`, when it differs); the input shape of
 * the whole is then union(in, output(plain)), as the reference's InputType
 * schema wrapper is. */
const ty *schema_type_to_ty(schema_set *s, const schema_type *t, bool input) {
  ty_ctx *c = s->ty;
  input = input && !t->plain;
  const ty *plain = NULL, *in = NULL;
  switch (t->kind) {
  case SCHEMA_T_BOOL:
    plain = ty_bool(c);
    break;
  case SCHEMA_T_INT:
    plain = ty_int(c);
    break;
  case SCHEMA_T_NUMBER:
    plain = ty_number(c);
    break;
  case SCHEMA_T_STRING:
    plain = ty_string(c);
    break;
  case SCHEMA_T_ARRAY:
    plain = ty_list(c, schema_type_to_ty(s, t->elem, false));
    if (input)
      in = ty_list(c, schema_type_to_ty(s, t->elem, true));
    break;
  case SCHEMA_T_MAP:
    plain = ty_map(c, schema_type_to_ty(s, t->elem, false));
    if (input)
      in = ty_map(c, schema_type_to_ty(s, t->elem, true));
    break;
  case SCHEMA_T_OBJECT:
    plain = typedef_ty(s, t->def, false);
    if (input)
      in = typedef_ty(s, t->def, true);
    break;
  case SCHEMA_T_ENUM:
    plain = typedef_ty(s, t->def, false);
    break;
  case SCHEMA_T_RESOURCE:
    plain = schema_resource_output_type(s, t->resource);
    break;
  case SCHEMA_T_TOKEN:
    plain = ty_opaque(c, t->token);
    if (t->underlying)
      plain = ty_union2(c, plain, schema_type_to_ty(s, t->underlying, false));
    break;
  case SCHEMA_T_ANY:
  case SCHEMA_T_JSON:
    plain = ty_dynamic(c);
    break;
  case SCHEMA_T_ASSET:
    plain = ty_union2(c, ty_opaque(c, "Archive"), ty_opaque(c, "Asset"));
    break;
  case SCHEMA_T_ARCHIVE:
    plain = ty_opaque(c, "Archive");
    break;
  case SCHEMA_T_UNION: {
    const ty **alts = ARENA_NEW_ARRAY(s->arena, const ty *, t->nalts);
    for (size_t i = 0; i < t->nalts; i++)
      alts[i] = schema_type_to_ty(s, t->alts[i], false);
    plain = ty_union(c, t->nalts, alts);
    if (input) {
      for (size_t i = 0; i < t->nalts; i++)
        alts[i] = schema_type_to_ty(s, t->alts[i], true);
      in = ty_union(c, t->nalts, alts);
    }
    break;
  }
  case SCHEMA_T_ERROR:
    return ty_dynamic(c);
  }
  if (!input)
    return plain;
  return input_shape(s, in ? in : plain, plain);
}

/* Returns the ty type of a type definition: the enum, or the named object in
 * the plain or input shape (see define_named). */
static const ty *typedef_ty(schema_set *s, schema_typedef *d, bool input) {
  ty_ctx *c = s->ty;
  decode_typedef(s, d);
  if (d->is_enum) {
    if (!d->ty_plain) {
      const ty *base = d->enum_base == SCHEMA_T_BOOL     ? ty_bool(c)
                       : d->enum_base == SCHEMA_T_INT    ? ty_int(c)
                       : d->enum_base == SCHEMA_T_NUMBER ? ty_number(c)
                                                         : ty_string(c);
      const char *id = object_identity(s, d->pkg, d->token, NULL);
      d->ty_plain = ty_enum(c, intern(s->names, id), base, d->nenum, d->enum_values);
    }
    return d->ty_plain;
  }
  if (!d->ty_plain)
    define_named(s, d, NULL);
  return input ? d->ty_input : d->ty_plain;
}

const ty *schema_property_type(schema_set *s, schema_property *p, bool input) {
  input = input && !p->plain;
  const ty **slot = input ? &p->ty_input : &p->ty_plain;
  if (*slot)
    return *slot;
  const ty *t = p->const_value ? p->const_value : schema_type_to_ty(s, p->type, input);
  if (!p->required)
    t = ty_optional(s->ty, t);
  *slot = t;
  return t;
}

/* Returns the anonymous object of n properties, each mapped with input. */
static const ty *props_object(schema_set *s, schema_property *props, size_t n, bool input,
                              const char *skip) {
  ty_prop *tp = ARENA_NEW_ARRAY(s->arena, ty_prop, n ? n : 1);
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (props[i].name == skip)
      continue;
    tp[k].name = props[i].name;
    tp[k].type = schema_property_type(s, &props[i], input);
    k++;
  }
  return ty_object(s->ty, k, tp);
}

const ty *schema_resource_input_type(schema_set *s, schema_resource *r) {
  if (!r->ty_input)
    r->ty_input = props_object(s, r->inputs, r->ninputs, true, NULL);
  return r->ty_input;
}

const ty *schema_resource_output_type(schema_set *s, schema_resource *r) {
  if (!r->ty_output)
    define_named(s, NULL, r);
  return r->ty_output;
}

/* ------------------------------------------------------- named objects */

/* A named object being defined: a type definition (both shapes) or a
   resource's output object. */
typedef struct named_frame {
  schema_typedef *d;     /* The type definition, or NULL. */
  schema_resource *r;    /* Else the resource. */
  int shape;             /* Type definitions: 0 plain, 1 input. */
  size_t i;              /* The next property to map. */
  ty_prop *props;        /* The properties mapped so far (heap). */
} named_frame;

/* Returns whether mapping t reaches a type definition or resource whose
   named object has not been started, through the kinds schema_type_to_ty
   walks (both shapes reach the same ones); sets *d or *r to the first.  The
   walk follows the nesting of one schema type, which the JSON depth limit
   bounds. */
static bool unstarted(const schema_type *t, schema_typedef **d, schema_resource **r) {
  switch (t->kind) {
  case SCHEMA_T_ARRAY:
  case SCHEMA_T_MAP:
    return unstarted(t->elem, d, r);
  case SCHEMA_T_OBJECT:
    *d = t->def;
    return !t->def->ty_plain;
  case SCHEMA_T_RESOURCE:
    *r = t->resource;
    return !t->resource->ty_output;
  case SCHEMA_T_TOKEN:
    return t->underlying && unstarted(t->underlying, d, r);
  case SCHEMA_T_UNION:
    for (size_t i = 0; i < t->nalts; i++) {
      if (unstarted(t->alts[i], d, r))
        return true;
    }
    return false;
  case SCHEMA_T_BOOL:
  case SCHEMA_T_INT:
  case SCHEMA_T_NUMBER:
  case SCHEMA_T_STRING:
  case SCHEMA_T_ENUM:
  case SCHEMA_T_ANY:
  case SCHEMA_T_JSON:
  case SCHEMA_T_ASSET:
  case SCHEMA_T_ARCHIVE:
  case SCHEMA_T_ERROR:
    return false;
  }
  return false;
}

/* Declares the named object(s) of d or r, so that references back to them
   (recursion) find them, and pushes their frame. */
static void named_start(schema_set *s, named_frame **stack, size_t *count, size_t *cap,
                        schema_typedef *d, schema_resource *r) {
  ty_ctx *c = s->ty;
  size_t n;
  if (d) {
    /* The input shape uses the token ty_input gives the InputType of a named
       object (`T$input`) and records its origin, so that ty_input(T) and
       ty_resolve_outputs(T$input) agree with the schema's shapes. */
    decode_typedef(s, d);
    d->ty_plain = ty_object_declare(c, object_identity(s, d->pkg, d->token, NULL), true);
    d->ty_input = ty_object_declare(c, object_identity(s, d->pkg, d->token, "$input"), true);
    if (!d->ty_input->object.defined)
      ty_object_set_origin(d->ty_input, d->ty_plain);
    n = d->nprops;
  } else {
    const char *id = object_identity(s, r->pkg, r->token, "$resource");
    r->ty_output = ty_object_declare(c, intern(s->names, id), true);
    ptrmap_put(&s->by_ty, r->ty_output, r);
    n = r->noutputs + 2;
  }
  PCL__GROW(*stack, *cap, *count + 1);
  (*stack)[(*count)++] = (named_frame){d, r, 0, 0, xmalloc((n ? n : 1) * sizeof(ty_prop))};
}

/* Maps the properties of the named objects of d (both shapes) or r (the
   outputs, then id and urn, last so that they win over schema properties of
   the same names) and defines them.  Every type definition and resource a
   property reaches is defined first, depth first as a recursive mapping
   would, with an explicit stack: a schema may chain named types without
   bound.  An object reached again while it is being defined (a cycle) is
   used as declared: a type made from it then, such as the resolved form that
   ty_output takes of a resource's outputs, sees it without properties (as
   the recursive mapping this replaces did).  Named objects already defined
   (in the ty context, by an earlier schema set) keep their definition. */
static void define_named(schema_set *s, schema_typedef *d, schema_resource *r) {
  ty_ctx *c = s->ty;
  size_t count = 0, cap = 16;
  named_frame *stack = xmalloc(cap * sizeof *stack);
  named_start(s, &stack, &count, &cap, d, r);
  while (count > 0) {
    named_frame *f = &stack[count - 1];
    const ty *obj = f->d ? (f->shape ? f->d->ty_input : f->d->ty_plain) : f->r->ty_output;
    size_t n = f->d ? f->d->nprops : f->r->noutputs;
    if (!obj->object.defined && f->i < n) {
      schema_property *p = f->d ? &f->d->props[f->i] : &f->r->outputs[f->i];
      bool input = f->shape == 1;
      schema_typedef *nd = NULL;
      schema_resource *nr = NULL;
      if (!p->const_value && unstarted(p->type, &nd, &nr)) {
        named_start(s, &stack, &count, &cap, nd, nr);
        continue;
      }
      const ty *t = schema_property_type(s, p, input);
      f->props[f->i] = (ty_prop){p->name, f->d ? t : ty_output(c, t)};
      f->i++;
      continue;
    }
    if (!obj->object.defined) {
      if (f->r) {
        f->props[n] = (ty_prop){s->s_id, ty_output(c, ty_id(c))};
        f->props[n + 1] = (ty_prop){s->s_urn, ty_output(c, ty_string(c))};
        n += 2;
      }
      ty_object_define(c, obj, n, f->props);
    }
    if (f->d && f->shape == 0) {
      f->shape = 1;
      f->i = 0;
      continue;
    }
    free(f->props);
    count--;
  }
  free(stack);
}

const ty *schema_resource_read_type(schema_set *s, schema_resource *r) {
  if (r->ty_read)
    return r->ty_read;
  ty_ctx *c = s->ty;
  ty_prop *props = ARENA_NEW_ARRAY(s->arena, ty_prop, r->nstate + 1);
  /* The id may be another resource's output, as the state inputs may
     (binder_read_resource.go: Input<string>). */
  props[0] = (ty_prop){s->s_id, ty_input(c, ty_string(c))};
  for (size_t i = 0; i < r->nstate; i++) {
    props[i + 1].name = r->state[i].name;
    props[i + 1].type = schema_property_type(s, &r->state[i], true);
  }
  r->ty_read = ty_object(c, r->nstate + 1, props);
  return r->ty_read;
}

const ty *schema_function_args_type(schema_set *s, schema_function *fn, bool output) {
  const ty **slot = output ? &fn->ty_args_input : &fn->ty_args_plain;
  if (*slot)
    return *slot;
  size_t n = fn->ninputs - (fn->is_method ? 1 : 0);
  if (n == 0)
    *slot = ty_optional(s->ty, ty_object(s->ty, 0, NULL));
  else
    *slot = props_object(s, fn->inputs, fn->ninputs, output, s->s_self);
  return *slot;
}

const ty *schema_function_return_type(schema_set *s, schema_function *fn) {
  if (fn->ty_return)
    return fn->ty_return;
  if (fn->returns_object)
    fn->ty_return = props_object(s, fn->outputs, fn->noutputs, false, NULL);
  else if (fn->return_type)
    fn->ty_return = schema_type_to_ty(s, fn->return_type, false);
  else
    fn->ty_return = ty_object(s->ty, 0, NULL);
  return fn->ty_return;
}

/* ---------------------------------------------------------- validation */

bool schema_package_check(schema_set *s, schema_package *p) {
  size_t before = s->diags->errors;
  if (!p->ok)
    return false;
  schema_pkg_impl *im = p->impl;
  for (size_t i = 0; i < im->types.count; i++) {
    schema_typedef *d = get_typedef(s, p, im->types.items[i].key);
    typedef_ty(s, d, false);
    if (!d->is_enum)
      typedef_ty(s, d, true);
  }
  for (size_t i = 0; i < im->resources.count; i++) {
    schema_resource *r = get_resource(s, p, im->resources.items[i].key);
    schema_resource_input_type(s, r);
    schema_resource_output_type(s, r);
    schema_resource_read_type(s, r);
    for (size_t k = 0; k < r->nmethods; k++)
      schema_resource_method(s, r, r->methods[k].name);
  }
  schema_resource *prov = get_provider(s, p);
  schema_resource_input_type(s, prov);
  schema_resource_output_type(s, prov);
  for (size_t i = 0; i < im->functions.count; i++) {
    schema_function *f = get_function(s, p, im->functions.items[i].key);
    schema_function_args_type(s, f, false);
    schema_function_args_type(s, f, true);
    schema_function_return_type(s, f);
  }
  return s->diags->errors == before;
}
