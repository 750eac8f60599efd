/* bind_package: `package` blocks (program.md §9).
 *
 * A package block describes a package the program uses: its base provider
 * (name, version, download URL) and optionally a parameterization.  The
 * blocks are read before anything is declared; each one is validated
 * (string literals, semver versions, a URL, base64 parameterization value,
 * decoded here for lowering) and a valid one pins its schema version. */
#include <nettle/base64.h>
#include <stdint.h>
#include <string.h>

#include "bind/bind_impl.h"
#include "base/ptrmap.h"
#include "schema/schema.h"
#include "semver.h"
#include "base/util.h"

/* Returns NULL if v is a semantic version (strict semver 2.0.0, as the
   reference's blang/semver reads package versions), else the reason. */
static const char *semver_problem(const char *v) {
  pcl__semver parsed;
  return pcl__semver_parse(v, strlen(v), 0, &parsed);
}

/* Returns true if s is standard base64 (with padding). */
static bool is_base64(const char *s) {
  size_t n = strlen(s), pad = 0;
  if (n % 4 != 0) {
    return false;
  }
  for (size_t i = 0; i < n; i++) {
    char ch = s[i];
    if (ch == '=') {
      pad++;
      if (i < n - 2) {
        return false;
      }
    } else if (pad || !((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') ||
                         (ch >= '0' && ch <= '9') || ch == '+' || ch == '/')) {
      return false;
    }
  }
  return true;
}

/* Decodes the base64 text s into pk's parameter bytes (in the arena, then a
   NUL) with nettle (D8), once, so that lowering copies them; returns false
   if s is not standard base64 (with padding) as the reference reads it. */
static bool decode_parameter(bind_ctx *c, const char *s, bnd_package *pk) {
  if (!is_base64(s)) {
    return false;
  }
  size_t len = strlen(s), dlen = BASE64_DECODE_LENGTH(len);
  uint8_t *bytes = arena_alloc(c->arena, dlen + 1);
  struct base64_decode_ctx ctx;
  base64_decode_init(&ctx);
  if (!base64_decode_update(&ctx, &dlen, bytes, len, s) || !base64_decode_final(&ctx)) {
    return false;
  }
  bytes[dlen] = 0;
  pk->param_bytes = bytes;
  pk->param_len = dlen;
  return true;
}

/* Returns true if s looks like an absolute URL (`scheme://...`). */
static bool is_url(const char *s) {
  const char *p = s;
  if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z'))) {
    return false;
  }
  while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
         *p == '+' || *p == '-' || *p == '.') {
    p++;
  }
  return p[0] == ':' && p[1] == '/' && p[2] == '/' && p[3] != '\0';
}

/* Reads one `parameterization` block of a package block into pk; reports
   problems and returns false if there were any. */
static bool package_parameterization(bind_ctx *c, const ast_node *a, bnd_package *pk) {
  if (strcmp(a->block.type.text, "parameterization") != 0) {
    diag_error(c->diag, a->block.type.span, "unsupported block of type '%s'", a->block.type.text);
    return false;
  }
  bool ok = true;
  for (size_t k = 0; k < a->block.body.count; k++) {
    const ast_node *pa = a->block.body.items[k];
    if (pa->kind != AST_ATTRIBUTE) {
      diag_error(c->diag, pa->block.type.span, "unsupported block of type '%s'",
                 pa->block.type.text);
      ok = false;
      continue;
    }
    const char *v = bind_literal_text(pa->attribute.value);
    const char *an = pa->attribute.name.text;
    pcl_span vspan = pa->attribute.value->span;
    const char *pkg = pk->name ? pk->name : "";
    if (!v) {
      diag_error(c->diag, vspan, "attribute %s must be a string literal", an);
      ok = false;
    } else if (strcmp(an, "name") == 0) {
      if (!*v) {
        diag_error(c->diag, vspan, "name attribute of parameterization of \"%s\" cannot be empty",
                   pkg);
        ok = false;
      }
      pk->param_name = v;
    } else if (strcmp(an, "version") == 0) {
      const char *why = semver_problem(v);
      if (why) {
        diag_error(c->diag, vspan,
                   "invalid version \"%s\" of parameterization for package \"%s\": %s", v, pkg,
                   why);
        ok = false;
      }
      pk->param_version = v;
    } else if (strcmp(an, "value") == 0) {
      if (!decode_parameter(c, v, pk)) {
        diag_error(c->diag, vspan, "invalid base64 encoded value for parameterization of \"%s\": %s",
                   pkg, "illegal base64 data");
        ok = false;
      }
      pk->param_value = v;
    } else {
      diag_error(c->diag, pa->attribute.name.span, "unsupported attribute '%s'", an);
      ok = false;
    }
  }
  return ok;
}

/* Returns true if v is a valid package name: letters, digits, `-` and `_`. */
static bool is_package_name(const char *v) {
  if (!*v) {
    return false;
  }
  for (const char *q = v; *q; q++) {
    if (!((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9') ||
          *q == '-' || *q == '_')) {
      return false;
    }
  }
  return true;
}

/* Reads one attribute of a package block into pk; reports problems and
   returns false if there were any. */
static bool package_attribute(bind_ctx *c, const ast_node *a, bnd_package *pk) {
  const char *an = a->attribute.name.text;
  const char *v = bind_literal_text(a->attribute.value);
  pcl_span vspan = a->attribute.value->span;
  if (!v) {
    diag_error(c->diag, vspan, "attribute %s must be a string literal", an);
    return false;
  }
  if (strcmp(an, "baseProviderName") == 0) {
    pk->name = intern(c->names, v);
    if (!is_package_name(v)) {
      diag_error(c->diag, vspan,
                 "invalid base provider name for package: \"%s\" is not a package name", v);
      return false;
    }
    return true;
  }
  if (strcmp(an, "baseProviderVersion") == 0) {
    pk->version = v;
    const char *why = semver_problem(v);
    if (why) {
      diag_error(c->diag, vspan, "invalid baseProviderVersion \"%s\" for package: %s", v, why);
      return false;
    }
    return true;
  }
  if (strcmp(an, "baseProviderDownloadUrl") == 0) {
    pk->download_url = v;
    if (!is_url(v)) {
      diag_error(c->diag, vspan, "invalid download URL for package: %s", v);
      return false;
    }
    return true;
  }
  diag_error(c->diag, a->attribute.name.span, "unsupported attribute '%s'", an);
  return false;
}

/* Returns the name of the package pk describes: a parameterized package is
   a package of its own, named by its parameterization (the reference's
   PackageDescriptor.PackageName); interned. */
static const char *package_name(bind_ctx *c, const bnd_package *pk) {
  return intern(c->names, pk->param_name ? pk->param_name : pk->name);
}

/* True when the optional strings a and b are both absent or both equal;
   versions compare by semver precedence. */
static bool same_text(const char *a, const char *b, bool version) {
  if (!a || !b) {
    return a == b;
  }
  return version ? pcl__semver_same(a, b) : strcmp(a, b) == 0;
}

/* True when two blocks describe the same package identically (base
   provider, version, download URL and parameterization). */
static bool same_package(const bnd_package *a, const bnd_package *b) {
  return strcmp(a->name, b->name) == 0 && same_text(a->version, b->version, true) &&
         same_text(a->download_url, b->download_url, false) &&
         same_text(a->param_name, b->param_name, false) &&
         same_text(a->param_version, b->param_version, true) &&
         same_text(a->param_value, b->param_value, false);
}

/* Returns the package named name that a program bound earlier (a parent or
   a sibling component program) defined, or NULL. */
static const bnd_package *defined_elsewhere(bind_ctx *c, const char *name) {
  for (const struct bind_package_link *l = c->packages; l; l = l->next) {
    if (package_name(c, l->pkg) == name) {
      return l->pkg;
    }
  }
  return NULL;
}

/* Reads the blocks file by file (program.md §9).  Packages are identified
   by package name, so several parameterizations of one base provider are
   several packages.  A name defined twice in one file is an error; across
   files an identical definition is allowed (the same block in main.pp and
   a per-package file) and a different one is an error.  The same holds
   across the programs of a compilation (a component program and its
   parent), whose requests go to one engine that knows one package by one
   name.  A valid block pins the version of its package for schema
   lookups: the parameterization's version for a parameterized package (its
   schema is the one the base provider produces for that parameterization),
   else baseProviderVersion. */
void bind_packages(bind_ctx *c, const ast_program *prog) {
  bnd_program *p = c->st->prog;
  size_t total = 0;
  for (size_t f = 0; f < prog->count; f++) {
    for (size_t i = 0; i < prog->files[f].body.count; i++) {
      const ast_node *n = prog->files[f].body.items[i];
      if (n->kind == AST_BLOCK && strcmp(n->block.type.text, "package") == 0) {
        total++;
      }
    }
  }
  p->packages = ARENA_NEW_ARRAY(c->arena, bnd_package, total);
  /* Package name -> position + 1 in p->packages. */
  ptrmap seen = {0};
  for (size_t f = 0; f < prog->count; f++) {
    size_t file_start = p->npackages;
    for (size_t i = 0; i < prog->files[f].body.count; i++) {
      const ast_node *n = prog->files[f].body.items[i];
      if (n->kind != AST_BLOCK || strcmp(n->block.type.text, "package") != 0) {
        continue;
      }
      bnd_package pk = {0};
      pk.span = n->span;
      bool bad = false;
      if (n->block.nlabels > 1) {
        diag_error(c->diag, n->block.labels[1].span, "package blocks must have at most one label");
        bad = true;
      } else if (n->block.nlabels == 1) {
        diag *w = diag_warning(c->diag, n->block.labels[0].span, "package block label is deprecated");
        diag_note(w, n->block.labels[0].span,
                  "Package block labels should be replaced by baseProviderName.");
        pk.name = n->block.labels[0].text;
      }
      if (n->block.body.count == 0) {
        diag_error(c->diag, n->span, "package blocks must set base provider information");
        continue;
      }
      const ast_node *param = NULL;
      for (size_t j = 0; j < n->block.body.count; j++) {
        const ast_node *a = n->block.body.items[j];
        bool ok;
        if (a->kind == AST_BLOCK) {
          param = a;
          ok = package_parameterization(c, a, &pk);
        } else {
          ok = package_attribute(c, a, &pk);
        }
        bad = bad || !ok;
      }
      if (!pk.name) {
        diag_error(c->diag, n->span, "package blocks must set baseProviderName");
        continue;
      }
      if (bad) {
        continue;
      }
      if (param && !pk.param_name) {
        diag_error(c->diag, param->span, "package blocks must resolve a package name");
        continue;
      }
      const char *name = package_name(c, &pk);
      uintptr_t k = (uintptr_t)ptrmap_get(&seen, name);
      if (k) {
        bnd_package *o = &p->packages[k - 1];
        if (k - 1 >= file_start) {
          diag *d = diag_error(c->diag, n->span, "package \"%s\" was already defined", name);
          diag_note(d, o->span, "previous definition is here");
        } else if (!same_package(o, &pk)) {
          diag *d = diag_error(c->diag, n->span,
                               "package \"%s\" was already defined with different parameters",
                               name);
          diag_note(d, o->span, "previous definition is here");
        }
        continue;
      }
      const bnd_package *other = defined_elsewhere(c, name);
      if (other && !same_package(other, &pk)) {
        diag *d = diag_error(c->diag, n->span,
                             "package \"%s\" was already defined with different parameters", name);
        diag_note(d, other->span, "previous definition is here");
        continue;
      }
      p->packages[p->npackages++] = pk;
      ptrmap_put(&seen, name, (void *)(uintptr_t)p->npackages);
      if (other == NULL) {
        struct bind_package_link *l = ARENA_NEW(c->arena, struct bind_package_link);
        l->pkg = &p->packages[p->npackages - 1];
        l->next = c->packages;
        c->packages = l;
      }
      const char *version = pk.param_name ? pk.param_version : pk.version;
      if (c->schemas && version) {
        schema_pin_version(c->schemas, name, version);
      }
      if (c->schemas && pk.param_name) {
        /* Whether the package extends its base provider is its schema's
         * word (extensionParameterization), not the block's. */
        const schema_package *sp = schema_find_package_at(c->schemas, name, NULL, pk.span);
        p->packages[p->npackages - 1].extension = sp != NULL && sp->ok && sp->extension;
      }
    }
  }
  ptrmap_free(&seen);
}
