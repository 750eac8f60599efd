/* bind: program structure, scopes, name resolution and the dependency graph.
 *
 * Input: the AST of every file of a program.  Output: a bnd_program
 * (bound.h).  The phases follow program.md §1 and §10:
 *   1. `package` blocks are read (§9) and pin schema versions;
 *   2. every other top-level construct is declared in the root scope, in
 *      source order (file by file); a name declared twice is an error with a
 *      note at the earlier declaration; outputs have their own namespace;
 *   3. the dependencies of every node are collected syntactically (every
 *      root name of a traversal and every call name that names a node,
 *      except inside the property-path options of resources);
 *   4. a depth-first walk in source order gives the evaluation order
 *      (dependencies first, otherwise source order) and reports every cycle
 *      with its path; two different components may refer to each other;
 *   5. every node is checked in that order, so the types of the nodes it
 *      refers to are known; nodes of a cycle see each other as erroneous.
 * The root scope is a hash table keyed by interned name pointers, so name
 * resolution is constant time; nothing here is quadratic in the number of
 * nodes. */
#include "bind.h"

#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ptrmap.h"
#include "parse.h"
#include "schema.h"
#include "util.h"

/* Component programs nest at most this deep (a component that includes
   itself through a relative path would otherwise recurse forever). */
enum { MAX_COMPONENT_DEPTH = 16 };

/* A cycle diagnostic lists at most this many references. */
enum { MAX_CYCLE_NOTES = 16 };

/* ------------------------------------------------------------- state */

/* A growable array of nodes (heap). */
typedef struct node_vec {
  bnd_node **items;
  size_t count, cap;
} node_vec;

/* Appends n, doubling the capacity when full. */
static void vec_push(node_vec *v, bnd_node *n) {
  if (v->count == v->cap) {
    v->cap = v->cap ? v->cap * 2 : 16;
    v->items = xrealloc(v->items, v->cap * sizeof *v->items);
  }
  v->items[v->count++] = n;
}

struct bind_state {
  bnd_program *prog;
  const char *dir;
  ptrmap defs, outputs;   /* The root scope (program.md §10.1). */
  node_vec nodes;           /* Declared nodes, source order. */
  pcl_span **dep_spans;     /* Per node: where each dependency is referenced. */
  /* Dependency collection scratch. */
  size_t *mark;             /* Per node: the stamp of the last collection. */
  size_t stamp;
  node_vec tmp;
  pcl_span *tmp_spans;
  size_t tmp_cap;
  bnd_node *pulumi;         /* The pulumi block, if any. */
};

/* Definitions shadow outputs: a name that is both resolves to the definition. */
bnd_node *bind_lookup(bind_ctx *c, const char *name) {
  bnd_node *n = ptrmap_get(&c->st->defs, name);
  return n ? n : ptrmap_get(&c->st->outputs, name);
}

/* Interns s in the compilation's name table. */
static const char *in(bind_ctx *c, const char *s) {
  return intern(c->names, s);
}

/* ------------------------------------------------------ small helpers */

/* Returns the string of a literal template (a quoted string without
   interpolation, possibly parenthesised), or NULL. */
static const char *literal_text(const ast_node *e) {
  while (e->kind == AST_PAREN) {
    e = e->paren.inner;
  }
  const char *text;
  size_t len;
  return check_literal_string(e, &text, &len) ? text : NULL;
}

/* Returns 1/0 for a bool literal, -1 otherwise. */
static int literal_bool(const ast_node *e) {
  while (e->kind == AST_PAREN) {
    e = e->paren.inner;
  }
  return e->kind == AST_BOOL ? e->boolean.value : -1;
}

/* The span of a block's end (its closing brace). */
static pcl_span block_end(const ast_node *b) {
  return b->block.close_brace;
}

/* Returns an arena array of n attributes (NULL for none). */
static bnd_attr *new_attrs(bind_ctx *c, size_t n) {
  return n ? ARENA_NEW_ARRAY(c->arena, bnd_attr, n) : NULL;
}

/* ------------------------------------------------------ package blocks */

/* Returns NULL if v is a semantic version (MAJOR.MINOR.PATCH with optional
   -prerelease and +build parts), else the reason it is not. */
static const char *semver_problem(const char *v) {
  const char *p = v;
  for (int part = 0; part < 3; part++) {
    if (part > 0) {
      if (*p != '.') {
        return "expected MAJOR.MINOR.PATCH";
      }
      p++;
    }
    if (!(*p >= '0' && *p <= '9')) {
      return "expected MAJOR.MINOR.PATCH";
    }
    if (*p == '0' && p[1] >= '0' && p[1] <= '9') {
      return "leading zeros are not allowed";
    }
    while (*p >= '0' && *p <= '9') {
      p++;
    }
  }
  if (*p == '-' || *p == '+') {
    const char *q = p + 1;
    if (!*q) {
      return "empty pre-release or build part";
    }
    for (; *q; q++) {
      bool ok = (*q >= '0' && *q <= '9') || (*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') ||
                *q == '-' || *q == '.' || *q == '+';
      if (!ok) {
        return "invalid character in pre-release or build part";
      }
    }
    return NULL;
  }
  return *p ? "unexpected text after the version" : NULL;
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
    const char *v = literal_text(pa->attribute.value);
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
      if (!is_base64(v)) {
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
  const char *v = literal_text(a->attribute.value);
  pcl_span vspan = a->attribute.value->span;
  if (!v) {
    diag_error(c->diag, vspan, "attribute %s must be a string literal", an);
    return false;
  }
  if (strcmp(an, "baseProviderName") == 0) {
    pk->name = in(c, v);
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

/* Reads every `package` block of every file (program.md §9) into the
   program's package list, reporting malformed ones, and pins the versions
   they name in the schema set so that resource lookups use them. */
static void bind_packages(bind_ctx *c, const ast_program *prog) {
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
  p->packages = total ? ARENA_NEW_ARRAY(c->arena, bnd_package, total) : NULL;
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
      for (size_t j = 0; j < n->block.body.count; j++) {
        const ast_node *a = n->block.body.items[j];
        bool ok = a->kind == AST_BLOCK ? package_parameterization(c, a, &pk)
                                       : package_attribute(c, a, &pk);
        bad = bad || !ok;
      }
      if (!pk.name) {
        diag_error(c->diag, n->span, "package blocks must set baseProviderName");
        continue;
      }
      if (bad) {
        continue;
      }
      /* Duplicates: an error within one file, fine across files when the
         descriptors are identical. */
      bool dup = false;
      for (size_t k = 0; k < p->npackages; k++) {
        bnd_package *o = &p->packages[k];
        if (o->name != pk.name) {
          continue;
        }
        dup = true;
        if (k >= file_start) {
          diag *d = diag_error(c->diag, n->span, "package \"%s\" was already defined", pk.name);
          diag_note(d, o->span, "previous definition is here");
        } else if ((o->version == NULL) != (pk.version == NULL) ||
                   (o->version && strcmp(o->version, pk.version) != 0)) {
          diag *d = diag_error(c->diag, n->span,
                               "package \"%s\" was already defined with different parameters",
                               pk.name);
          diag_note(d, o->span, "previous definition is here");
        }
        break;
      }
      if (dup) {
        continue;
      }
      p->packages[p->npackages++] = pk;
      if (c->schemas && pk.version) {
        schema_pin_version(c->schemas, pk.name, pk.version);
      }
    }
  }
}

/* --------------------------------------------------------- declaration */

static bnd_node *new_node(bind_ctx *c, bnd_node_kind k, const ast_node *syntax, const char *name,
                          pcl_span name_span) {
  bnd_node *n = ARENA_NEW(c->arena, bnd_node);
  n->kind = k;
  n->syntax = syntax;
  n->span = syntax->span;
  n->name = name;
  n->logical_name = name;
  n->name_span = name_span;
  return n;
}

/* Declares n in the root scope (or the output namespace). */
static void declare(bind_ctx *c, bnd_node *n) {
  ptrmap *m = n->kind == BND_OUTPUT ? &c->st->outputs : &c->st->defs;
  bnd_node *prev = ptrmap_get(m, n->name);
  if (prev) {
    diag *d = diag_error(c->diag, n->name_span, "\"%s\" already declared", n->name);
    diag_note(d, prev->name_span, "\"%s\" was first declared here", n->name);
    n->invalid = true;
  } else {
    ptrmap_put(m, n->name, n);
  }
  n->index = c->st->nodes.count;
  vec_push(&c->st->nodes, n);
}

/* Declares the node of one top-level item (not `package`). */
static void declare_item(bind_ctx *c, const ast_node *item) {
  if (item->kind == AST_ATTRIBUTE) {
    declare(c, new_node(c, BND_LOCAL, item, item->attribute.name.text, item->attribute.name.span));
    return;
  }
  /* A block with the wrong number of labels is still declared when it has
     a name, marked invalid, so that its uses do not report "undefined
     variable" as well. */
  const char *type = item->block.type.text;
  size_t nl = item->block.nlabels;
  const ast_label *l = item->block.labels;
  pcl_span where = nl ? l[0].span : item->block.type.span;
  if (strcmp(type, "resource") == 0 || strcmp(type, "read") == 0) {
    bool read = type[1] == 'e' && type[2] == 'a';
    if (nl != 2) {
      diag_error(c->diag, nl > 2 ? l[2].span : where, "%s variables must have exactly two labels",
                 type);
      if (nl == 0) {
        return;
      }
    }
    bnd_node *n = new_node(c, read ? BND_READ : BND_RESOURCE, item, l[0].text, l[0].span);
    n->invalid = nl != 2;
    declare(c, n);
  } else if (strcmp(type, "config") == 0 || strcmp(type, "output") == 0) {
    bool output = type[0] == 'o';
    if (nl != 1 && nl != 2) {
      diag_error(c->diag, nl > 2 ? l[2].span : where,
                 "config variables must have exactly one or two labels");
      if (nl == 0) {
        return;
      }
    }
    bnd_node *n = new_node(c, output ? BND_OUTPUT : BND_CONFIG, item, l[0].text, l[0].span);
    n->invalid = nl > 2;
    declare(c, n);
  } else if (strcmp(type, "component") == 0) {
    if (nl != 1 && nl != 2) {
      diag_error(c->diag, nl > 2 ? l[2].span : where, "components must have one or two labels");
      if (nl == 0) {
        return;
      }
    }
    bnd_node *n = new_node(c, BND_COMPONENT, item, l[0].text, l[0].span);
    n->invalid = nl > 2;
    declare(c, n);
  } else if (strcmp(type, "hook") == 0) {
    if (nl != 2) {
      diag_error(c->diag, nl > 2 ? l[2].span : where,
                 "hook blocks must have exactly two labels: a kind ('resource' or 'error') and a "
                 "name");
      if (nl < 2) {
        return;
      }
    }
    bnd_node *n = new_node(c, BND_HOOK, item, l[1].text, l[1].span);
    n->invalid = nl != 2;
    if (strcmp(l[0].text, "resource") != 0 && strcmp(l[0].text, "error") != 0) {
      diag_error(c->diag, l[0].span, "invalid hook kind '%s': must be 'resource' or 'error'",
                 l[0].text);
      n->invalid = true;
    }
    n->hook.error_hook = strcmp(l[0].text, "error") == 0;
    declare(c, n);
  } else if (strcmp(type, "pulumi") == 0) {
    if (nl != 0) {
      diag_error(c->diag, l[0].span, "pulumi block must not have any labels");
    }
    bnd_node *n = new_node(c, BND_PULUMI, item, in(c, "pulumi"), item->block.type.span);
    declare(c, n);
    if (!c->st->pulumi) {
      c->st->pulumi = n;
    }
  } else if (strcmp(type, "package") == 0) {
    /* Read before declaration (bind_packages). */
  } else {
    diag_warning(c->diag, item->block.type.span,
                 "unknown block type '%s'; the block is ignored", type);
  }
}

/* --------------------------------------------------------- dependencies */

static bool is_path_option(const char *name) {
#define X(id, text, path)                                                                \
  if (path && strcmp(name, text) == 0) {                                                 \
    return true;                                                                         \
  }
  BND_OPTIONS(X)
#undef X
  return false;
}

/* Records that the node being collected refers to name at where, if name is
   a node and was not recorded yet (the stamp marks nodes already seen). */
static void add_dep(bind_ctx *c, const char *name, pcl_span where) {
  struct bind_state *st = c->st;
  bnd_node *n = bind_lookup(c, name);
  if (!n || st->mark[n->index] == st->stamp) {
    return;
  }
  st->mark[n->index] = st->stamp;
  if (st->tmp.count == st->tmp_cap) {
    st->tmp_cap = st->tmp_cap ? st->tmp_cap * 2 : 16;
    st->tmp_spans = xrealloc(st->tmp_spans, st->tmp_cap * sizeof *st->tmp_spans);
  }
  st->tmp_spans[st->tmp.count] = where;
  vec_push(&st->tmp, n);
}

/* Collects the dependencies of an expression or body item (iterative over
   lists, recursive over nesting, which the parser bounds). */
static void collect(bind_ctx *c, const ast_node *e, bool in_resource) {
  if (!e) {
    return;
  }
  switch (e->kind) {
  case AST_ATTRIBUTE:
    collect(c, e->attribute.value, false);
    return;
  case AST_BLOCK: {
    bool options = in_resource && strcmp(e->block.type.text, "options") == 0;
    for (size_t i = 0; i < e->block.body.count; i++) {
      const ast_node *it = e->block.body.items[i];
      if (options && it->kind == AST_ATTRIBUTE && is_path_option(it->attribute.name.text)) {
        continue;
      }
      collect(c, it, false);
    }
    return;
  }
  case AST_NUMBER:
  case AST_BOOL:
  case AST_NULL:
  case AST_TEMPLATE_LITERAL:
  case AST_SPLAT_ITEM:
    return;
  case AST_VARIABLE:
    add_dep(c, e->variable.name, e->span);
    return;
  case AST_TEMPLATE:
    for (size_t i = 0; i < e->template.parts.count; i++) {
      collect(c, e->template.parts.items[i], false);
    }
    return;
  case AST_TEMPLATE_IF:
    collect(c, e->tif.cond, false);
    collect(c, e->tif.then, false);
    collect(c, e->tif.else_, false);
    return;
  case AST_TEMPLATE_FOR:
    collect(c, e->tfor.collection, false);
    collect(c, e->tfor.body, false);
    return;
  case AST_GET_ATTR:
    collect(c, e->get_attr.object, false);
    return;
  case AST_INDEX:
    collect(c, e->index.collection, false);
    collect(c, e->index.key, false);
    return;
  case AST_SPLAT:
    collect(c, e->splat.source, false);
    collect(c, e->splat.each, false);
    return;
  case AST_CALL:
    add_dep(c, e->call.name.text, e->call.name.span);
    for (size_t i = 0; i < e->call.args.count; i++) {
      collect(c, e->call.args.items[i], false);
    }
    return;
  case AST_TUPLE:
    for (size_t i = 0; i < e->tuple.items.count; i++) {
      collect(c, e->tuple.items.items[i], false);
    }
    return;
  case AST_OBJECT:
    for (size_t i = 0; i < e->object.items.count; i++) {
      collect(c, e->object.items.items[i], false);
    }
    return;
  case AST_OBJECT_ITEM:
    /* A bare-name key is a literal, not a reference. */
    if (e->item.key->kind != AST_VARIABLE) {
      collect(c, e->item.key, false);
    }
    collect(c, e->item.value, false);
    return;
  case AST_FOR:
    collect(c, e->for_expr.collection, false);
    collect(c, e->for_expr.key, false);
    collect(c, e->for_expr.value, false);
    collect(c, e->for_expr.cond, false);
    return;
  case AST_UNARY:
    collect(c, e->unary.operand, false);
    return;
  case AST_BINARY:
    collect(c, e->binary.lhs, false);
    collect(c, e->binary.rhs, false);
    return;
  case AST_CONDITIONAL:
    collect(c, e->cond.cond, false);
    collect(c, e->cond.then, false);
    collect(c, e->cond.else_, false);
    return;
  case AST_PAREN:
    collect(c, e->paren.inner, false);
    return;
  }
  ice("bad AST kind %d", (int)e->kind);
}

/* A dependency with the span of its first reference. */
typedef struct dep_ref {
  bnd_node *node;
  pcl_span span;
} dep_ref;

/* Orders dependency references by the declaration index of their node. */
static int dep_cmp(const void *a, const void *b) {
  const dep_ref *x = a, *y = b;
  return x->node->index < y->node->index ? -1 : x->node->index > y->node->index;
}

/* Computes n->deps: every node its syntax names, sorted by declaration
   index and without duplicates, and the span of the first reference to
   each (for cycle notes). */
static void compute_deps(bind_ctx *c, bnd_node *n) {
  struct bind_state *st = c->st;
  st->stamp++;
  st->tmp.count = 0;
  const ast_node *s = n->syntax;
  if (s->kind == AST_ATTRIBUTE) {
    collect(c, s->attribute.value, false);
  } else {
    bool res = n->kind == BND_RESOURCE || n->kind == BND_READ;
    for (size_t i = 0; i < s->block.body.count; i++) {
      collect(c, s->block.body.items[i], res);
    }
  }
  size_t k = st->tmp.count;
  n->ndeps = k;
  n->deps = k ? ARENA_NEW_ARRAY(c->arena, bnd_node *, k) : NULL;
  pcl_span *spans = k ? ARENA_NEW_ARRAY(c->arena, pcl_span, k) : NULL;
  /* Sort by declaration index, keeping each dependency's first reference. */
  dep_ref *refs = k ? xmalloc(k * sizeof *refs) : NULL;
  for (size_t i = 0; i < k; i++) {
    refs[i] = (dep_ref){st->tmp.items[i], st->tmp_spans[i]};
  }
  if (k) {
    qsort(refs, k, sizeof *refs, dep_cmp);
  }
  for (size_t i = 0; i < k; i++) {
    n->deps[i] = refs[i].node;
    spans[i] = refs[i].span;
  }
  free(refs);
  st->dep_spans[n->index] = spans;
}

/* ------------------------------------------------------- order, cycles */

enum { UNVISITED = 0, VISITING = 1, DONE = 2 };

typedef struct frame {
  bnd_node *node;
  size_t next; /* Next dependency to visit. */
} frame;

/* Reports the cycle that closes at stack[from..top] -> stack[from]. */
static void report_cycle(bind_ctx *c, frame *stack, size_t from, size_t top) {
  bnd_node *start = stack[from].node;
  diag *d = diag_error(c->diag, start->name_span, "circular reference");
  size_t len = top - from + 1;
  for (size_t i = from; i <= top; i++) {
    /* A long cycle shows its first references and the one closing it. */
    size_t k = i - from;
    if (len > MAX_CYCLE_NOTES && k >= MAX_CYCLE_NOTES - 1 && i < top) {
      continue;
    }
    bnd_node *a = stack[i].node;
    bnd_node *b = i < top ? stack[i + 1].node : start;
    pcl_span where = c->st->dep_spans[a->index][stack[i].next - 1];
    if (len > MAX_CYCLE_NOTES && i == top) {
      diag_note(d, where, "'%s' refers to '%s' here (after %zu more references)", a->name,
                b->name, len - MAX_CYCLE_NOTES);
    } else {
      diag_note(d, where, "'%s' refers to '%s' here", a->name, b->name);
    }
  }
}

/* Depth-first walk from root with an explicit stack (chains of any length
   cannot overflow the C stack): appends every node to order after its
   dependencies and reports each back edge as a cycle. */
static void visit(bind_ctx *c, bnd_node *root, node_vec *order, frame **stackp, size_t *capp) {
  if (root->state != UNVISITED) {
    return;
  }
  frame *stack = *stackp;
  size_t top = 0;
  stack[0] = (frame){root, 0};
  root->state = VISITING;
  for (;;) {
    frame *f = &stack[top];
    if (f->next == f->node->ndeps) {
      f->node->state = DONE;
      vec_push(order, f->node);
      if (top == 0) {
        break;
      }
      top--;
      continue;
    }
    bnd_node *d = f->node->deps[f->next++];
    if (d->state == DONE) {
      continue;
    }
    if (d->state == VISITING) {
      if (d->kind == BND_COMPONENT && f->node->kind == BND_COMPONENT && d != f->node) {
        continue; /* Mutually dependent components are allowed. */
      }
      size_t from = top;
      while (stack[from].node != d) {
        from--;
      }
      report_cycle(c, stack, from, top);
      continue;
    }
    if (top + 1 == *capp) {
      *capp *= 2;
      *stackp = xrealloc(*stackp, *capp * sizeof **stackp);
      stack = *stackp;
    }
    stack[++top] = (frame){d, 0};
    d->state = VISITING;
  }
}

/* Fixes the evaluation order: a walk from every node in source order,
   starting with the pulumi block so that the version gate comes first. */
static void compute_order(bind_ctx *c) {
  struct bind_state *st = c->st;
  node_vec order = {0};
  size_t cap = 64;
  frame *stack = xmalloc(cap * sizeof *stack);
  if (st->pulumi) {
    visit(c, st->pulumi, &order, &stack, &cap);
  }
  for (size_t i = 0; i < st->nodes.count; i++) {
    visit(c, st->nodes.items[i], &order, &stack, &cap);
  }
  free(stack);
  bnd_program *p = st->prog;
  p->order = order.count ? ARENA_NEW_ARRAY(c->arena, bnd_node *, order.count) : NULL;
  if (order.count) {
    memcpy(p->order, order.items, order.count * sizeof *order.items);
  }
  free(order.items);
}

/* ----------------------------------------------------------- options */

/* Returns the declared type T of an option (program.md §3.4). */
static const ty *option_type(bind_ctx *c, bnd_option o) {
  ty_ctx *t = c->ty;
  const ty *dyn = ty_dynamic(t);
  switch (o) {
  case BND_OPT_RANGE: {
    const ty *u[4] = {ty_bool(t), ty_number(t), ty_list(t, dyn), ty_map(t, dyn)};
    return ty_union(t, 4, u);
  }
  case BND_OPT_PARENT:
  case BND_OPT_PROVIDER:
  case BND_OPT_DELETED_WITH:
  case BND_OPT_REPLACEMENT_TRIGGER:
  case BND_OPT_HOOKS:
    return dyn;
  case BND_OPT_PROVIDERS:
    return ty_union2(t, ty_map(t, dyn), ty_list(t, dyn));
  case BND_OPT_DEPENDS_ON:
  case BND_OPT_REPLACE_WITH:
    return ty_list(t, dyn);
  case BND_OPT_PROTECT:
  case BND_OPT_RETAIN_ON_DELETE:
  case BND_OPT_DELETE_BEFORE_REPLACE:
    return ty_bool(t);
  case BND_OPT_IGNORE_CHANGES:
  case BND_OPT_HIDE_DIFFS:
  case BND_OPT_REPLACE_ON_CHANGES:
  case BND_OPT_ADDITIONAL_SECRET_OUTPUTS:
    return ty_list(t, ty_opaque(t, "Property"));
  case BND_OPT_VERSION:
  case BND_OPT_PLUGIN_DOWNLOAD_URL:
  case BND_OPT_IMPORT:
    return ty_string(t);
  case BND_OPT_CUSTOM_TIMEOUTS: {
    const ty *os = ty_optional(t, ty_string(t));
    ty_prop p[4] = {{in(c, "create"), os}, {in(c, "update"), os}, {in(c, "delete"), os},
                    {in(c, "read"), os}};
    return ty_object(t, 4, p);
  }
  case BND_OPT_ALIASES: {
    ty_prop p[4] = {{in(c, "name"), ty_optional(t, ty_string(t))},
                    {in(c, "type"), ty_optional(t, ty_string(t))},
                    {in(c, "noParent"), ty_optional(t, ty_bool(t))},
                    {in(c, "parent"), ty_optional(t, dyn)}};
    return ty_list(t, ty_union2(t, ty_string(t), ty_object(t, 4, p)));
  }
  case BND_OPT_ENV_VAR_MAPPINGS:
    return ty_map(t, ty_string(t));
  case BND_OPT_COUNT:
    break;
  }
  ice("bad option %d", (int)o);
}

/* Returns the option named name, or -1 if there is no such option. */
static int option_of(const char *name) {
#define X(id, text, path)                                                                \
  if (strcmp(name, text) == 0) {                                                         \
    return BND_OPT_##id;                                                                 \
  }
  BND_OPTIONS(X)
#undef X
  return -1;
}

static const char *const hook_names[] = {"beforeCreate", "afterCreate",  "beforeUpdate",
                                         "afterUpdate",  "beforeDelete", "afterDelete",
                                         "onError"};

/* Checks the structure of the `hooks` option (program.md §3.4.2). */
static void check_hooks_option(bind_ctx *c, const ast_node *v, bnd_expr *e) {
  if (e->error) {
    return;
  }
  const ast_node *o = v;
  while (o->kind == AST_PAREN) {
    o = o->paren.inner;
  }
  if (o->kind != AST_OBJECT) {
    diag_error(c->diag, v->span,
               "hooks option must be an object mapping hook names to lists of hook references");
    return;
  }
  for (size_t i = 0; i < o->object.items.count; i++) {
    const ast_node *it = o->object.items.items[i];
    const char *key = it->item.key->kind == AST_VARIABLE ? it->item.key->variable.name
                                                         : literal_text(it->item.key);
    const ast_node *val = it->item.value;
    if (!key || val->kind != AST_TUPLE) {
      diag_error(c->diag, it->span,
                 "hooks option must be an object mapping hook names to lists of hook references");
      continue;
    }
    bool known = false;
    for (size_t k = 0; k < ARRAY_LEN(hook_names); k++) {
      known = known || strcmp(key, hook_names[k]) == 0;
    }
    if (!known) {
      diag_error(c->diag, it->item.key->span, "unknown hook name '%s'", key);
      continue;
    }
    bool on_error = strcmp(key, "onError") == 0;
    for (size_t j = 0; j < val->tuple.items.count; j++) {
      const ast_node *r = val->tuple.items.items[j];
      bnd_node *h = r->kind == AST_VARIABLE ? bind_lookup(c, r->variable.name) : NULL;
      if (!h || h->kind != BND_HOOK) {
        diag_error(c->diag, r->span,
                   "hooks option must be an object mapping hook names to lists of hook "
                   "references");
        continue;
      }
      if (h->hook.error_hook != on_error) {
        diag_error(c->diag, r->span, "cannot bind %s hook '%s' to '%s'",
                   h->hook.error_hook ? "error" : "resource", h->name, key);
      }
    }
  }
}

/* Binds an options block into opts.  Options are bound in the root scope,
   without `range` (program.md §3.4 scope quirk); the property-path options
   are bound in props, whose names are the resource's inputs. */
static void bind_options(bind_ctx *c, const ast_node *block, bnd_options *opts,
                         const bind_scope *props) {
  opts->present = true;
  opts->span = block->span;
  for (size_t i = 0; i < block->block.body.count; i++) {
    const ast_node *a = block->block.body.items[i];
    if (a->kind == AST_BLOCK) {
      diag_error(c->diag, a->block.type.span, "unsupported block of type '%s'",
                 a->block.type.text);
      continue;
    }
    int o = option_of(a->attribute.name.text);
    if (o < 0) {
      diag_error(c->diag, a->attribute.name.span, "unsupported attribute '%s'",
                 a->attribute.name.text);
      continue;
    }
    bool path = false;
#define X(id, text, p)                                                                   \
  if (o == BND_OPT_##id) {                                                               \
    path = p;                                                                            \
  }
    BND_OPTIONS(X)
#undef X
    bnd_expr *e = check_expr(c, path ? props : NULL, a->attribute.value);
    opts->opt[o] = e;
    opts->opt_span[o] = a->span;
    if (o == BND_OPT_HOOKS) {
      check_hooks_option(c, a->attribute.value, e);
      continue;
    }
    check_input(c, e, option_type(c, (bnd_option)o));
  }
}

/* Binds the range option first (its type shapes the resource): sets the
   range kind and the `range` variable visible in the body (NULL for a bool
   range, which defines none). */
static void bind_range(bind_ctx *c, const ast_node *options, bnd_options *opts,
                       bnd_range_kind *kind, bnd_var **var) {
  *kind = BND_RANGE_NONE;
  *var = NULL;
  if (!options) {
    return;
  }
  const ast_node *ra = NULL;
  for (size_t i = 0; i < options->block.body.count; i++) {
    const ast_node *a = options->block.body.items[i];
    if (a->kind == AST_ATTRIBUTE && strcmp(a->attribute.name.text, "range") == 0) {
      ra = a;
    }
  }
  if (!ra) {
    return;
  }
  bnd_expr *e = check_expr(c, NULL, ra->attribute.value);
  opts->opt[BND_OPT_RANGE] = e;
  opts->opt_span[BND_OPT_RANGE] = ra->span;
  ty_ctx *t = c->ty;
  if (e->error || !check_input(c, e, option_type(c, BND_OPT_RANGE))) {
    /* After an error the body still sees `range`, untyped, so that its
       uses report nothing more. */
    *kind = BND_RANGE_LIST;
    ty_prop p[2] = {{in(c, "key"), ty_dynamic(t)}, {in(c, "value"), ty_dynamic(t)}};
    *var = ARENA_NEW(c->arena, bnd_var);
    **var = (bnd_var){BND_VAR_RANGE, in(c, "range"), ra->span, ty_object(t, 2, p)};
    return;
  }
  /* The cases of program.md §3.5, checked in order on the range type
     without its eventual layers and one optional layer. */
  const ty *rt = ty_resolve_outputs(t, e->type);
  if (rt->kind == TY_UNION && rt->elems.count == 2 && ty_is_optional(rt)) {
    rt = ty_strip_optional(t, rt);
  }
  ty_prop p[2];
  size_t np;
  if (ty_conversion(t, ty_input(t, ty_bool(t)), rt) == TY_CONV_SAFE) {
    *kind = BND_RANGE_BOOL;
    return;
  }
  if (ty_conversion(t, ty_input(t, ty_number(t)), rt) == TY_CONV_SAFE) {
    *kind = BND_RANGE_COUNT;
    p[0] = (ty_prop){in(c, "value"), ty_int(t)};
    np = 1;
  } else {
    /* A collection: only a string key makes a map (a dynamic range is a
       list of instances). */
    const ty *kt, *vt;
    if (!ty_collection_types(t, e->type, &kt, &vt, c->diag, e->span, false)) {
      e->error = true;
    }
    *kind = kt == ty_string(t) ? BND_RANGE_MAP : BND_RANGE_LIST;
    p[0] = (ty_prop){in(c, "key"), kt};
    p[1] = (ty_prop){in(c, "value"), vt};
    np = 2;
  }
  *var = ARENA_NEW(c->arena, bnd_var);
  **var = (bnd_var){BND_VAR_RANGE, in(c, "range"), ra->span, ty_object(t, np, p)};
}

/* Binds every option of the options block but `range` (already bound by
   bind_range, which it keeps). */
static void bind_other_options(bind_ctx *c, const ast_node *options, bnd_options *opts,
                               const bind_scope *props) {
  ast_node copy = *options;
  ast_node **items = ARENA_NEW_ARRAY(c->arena, ast_node *, options->block.body.count + 1);
  size_t k = 0;
  for (size_t i = 0; i < options->block.body.count; i++) {
    ast_node *a = options->block.body.items[i];
    if (!(a->kind == AST_ATTRIBUTE && strcmp(a->attribute.name.text, "range") == 0)) {
      items[k++] = a;
    }
  }
  copy.block.body.items = items;
  copy.block.body.count = k;
  bnd_expr *range = opts->opt[BND_OPT_RANGE];
  pcl_span range_span = opts->opt_span[BND_OPT_RANGE];
  bind_options(c, &copy, opts, props);
  opts->opt[BND_OPT_RANGE] = range;
  opts->opt_span[BND_OPT_RANGE] = range_span;
  opts->span = options->span;
}

/* Returns the type of a reference to a ranged family of instances of r. */
static const ty *range_type(bind_ctx *c, bnd_range_kind k, const bnd_options *o, const ty *r) {
  ty_ctx *t = c->ty;
  const bnd_expr *e = o->opt[BND_OPT_RANGE];
  switch (k) {
  case BND_RANGE_NONE:
    return r;
  case BND_RANGE_BOOL:
    return ty_lift(t, ty_optional(t, r), 1, &e->type);
  case BND_RANGE_COUNT:
    return ty_lift(t, ty_list(t, r), 1, &e->type);
  case BND_RANGE_LIST:
    return e->error ? ty_list(t, r) : ty_wrap_iterable(t, e->type, ty_list(t, r));
  case BND_RANGE_MAP:
    return ty_wrap_iterable(t, e->type, ty_map(t, r));
  }
  ice("bad range kind %d", (int)k);
}

/* Finds the options block of a resource-like block, reporting other nested
   blocks and duplicates. */
static const ast_node *find_options(bind_ctx *c, const ast_node *b) {
  const ast_node *opts = NULL;
  for (size_t i = 0; i < b->block.body.count; i++) {
    const ast_node *it = b->block.body.items[i];
    if (it->kind != AST_BLOCK) {
      continue;
    }
    if (strcmp(it->block.type.text, "options") != 0) {
      diag_error(c->diag, it->block.type.span, "unsupported block of type '%s'",
                 it->block.type.text);
    } else if (opts) {
      diag *d = diag_error(c->diag, it->block.type.span, "duplicate block of type '%s'",
                           it->block.type.text);
      diag_note(d, opts->block.type.span, "the first one is here");
    } else {
      opts = it;
    }
  }
  return opts;
}

/* Reads `__logicalName` if the attribute a is one; returns true if it was. */
static bool logical_name(bind_ctx *c, bnd_node *n, const ast_node *a) {
  if (strcmp(a->attribute.name.text, "__logicalName") != 0) {
    return false;
  }
  const char *v = literal_text(a->attribute.value);
  if (!v) {
    diag_error(c->diag, a->attribute.value->span, "attribute __logicalName must be a string literal");
  } else {
    n->logical_name = in(c, v);
  }
  return true;
}

/* -------------------------------------------------------- resources */

/* Returns the package of a type token when no schema set is available
   (`pkg:mod:Member`, `pkg:Member`, `pkg::Member`; `pulumi:providers:X` is
   X's), interned, or NULL if the token is malformed. */
static const char *token_package(bind_ctx *c, const char *token) {
  const char *p1 = strchr(token, ':');
  if (!p1 || p1 == token) {
    return NULL;
  }
  const char *p2 = strchr(p1 + 1, ':');
  const char *member = p2 ? p2 + 1 : p1 + 1;
  if (!*member || strchr(member, ':')) {
    return NULL;
  }
  if (strncmp(token, "pulumi:providers:", 17) == 0) {
    return in(c, token + 17);
  }
  return intern_n(c->names, token, (size_t)(p1 - token));
}

/* Resolves the schema of a resource or read: fills the resource's token,
   package and input/output types.  Returns false if the node is unusable. */
static bool resource_schema(bind_ctx *c, bnd_node *n, const char *version) {
  bnd_resource *r = &n->resource;
  const ast_label *tl = &n->syntax->block.labels[1];
  r->token = tl->text;
  r->canonical = tl->text;
  ty_ctx *t = c->ty;
  schema_resource *sr = NULL;
  schema_status st = SCHEMA_NO_PACKAGE;
  if (c->schemas) {
    st = schema_find_resource(c->schemas, r->token, version, tl->span, &sr);
  }
  if (st == SCHEMA_ERROR) {
    return false;
  }
  const char *pkg = c->schemas ? schema_token_package(c->schemas, r->token)
                                : token_package(c, r->token);
  r->package = pkg;
  r->is_provider = strncmp(r->token, "pulumi:providers:", 17) == 0;
  if (st == SCHEMA_NO_PACKAGE) {
    if (!pkg) {
      diag_error(c->diag, tl->span,
                 "malformed token '%s': expected 'pkg:module:member' or 'pkg:member'", r->token);
      return false;
    }
    diag_warning_once(c->diag, arena_printf(c->arena, "unknown package %s", pkg), tl->span,
                      "unknown package '%s'", pkg);
    r->output_type = ty_dynamic(t);
    return true;
  }
  r->typed = true;
  r->schema = sr;
  r->canonical = sr->token;
  r->is_component = sr->is_component;
  r->is_provider = sr->is_provider;
  if (n->kind == BND_READ) {
    if (sr->is_provider) {
      diag_error(c->diag, tl->span, "provider resources cannot be read: '%s'", r->token);
      return false;
    }
    if (sr->is_component) {
      diag_error(c->diag, tl->span, "component resources cannot be read: '%s'", r->token);
      return false;
    }
    r->input_type = schema_resource_read_type(c->schemas, sr);
  } else {
    r->input_type = schema_resource_input_type(c->schemas, sr);
  }
  r->output_type = schema_resource_output_type(c->schemas, sr);
  return true;
}

/* Returns true if e is a reference to a resource-like node, or a tuple or
   object constructor made only of such references. */
static bool resource_refs(const bnd_expr *e) {
  switch (e->kind) {
  case BND_E_NODE_REF:
    /* An undefined name is a reference without a node (already reported). */
    return e->node_ref.node != NULL &&
           (e->node_ref.node->kind == BND_RESOURCE || e->node_ref.node->kind == BND_READ ||
            e->node_ref.node->kind == BND_COMPONENT);
  case BND_E_TUPLE:
    for (size_t i = 0; i < e->tuple.count; i++) {
      if (!resource_refs(e->tuple.items[i])) {
        return false;
      }
    }
    return e->tuple.count > 0;
  case BND_E_OBJECT:
    for (size_t i = 0; i < e->object.count; i++) {
      if (!resource_refs(e->object.items[i].value)) {
        return false;
      }
    }
    return e->object.count > 0;
  case BND_E_NUMBER:
  case BND_E_BOOL:
  case BND_E_NULL:
  case BND_E_STRING:
  case BND_E_TEMPLATE:
  case BND_E_TEMPLATE_IF:
  case BND_E_TEMPLATE_FOR:
  case BND_E_VAR_REF:
  case BND_E_GET_ATTR:
  case BND_E_INDEX:
  case BND_E_SPLAT:
  case BND_E_CALL:
  case BND_E_FOR:
  case BND_E_UNARY:
  case BND_E_BINARY:
  case BND_E_CONDITIONAL:
  case BND_E_PROPERTY:
  case BND_E_TYPE:
    return false;
  }
  return false;
}

/* Returns the conversion of an input value to its property type.  A whole
   resource passed where the schema expects a resource reference is
   collapsed to a reference at run time (program.md §3.6), so its outputs
   count as resolved. */
static ty_conv input_conversion(bind_ctx *c, const ty *to, const bnd_expr *v) {
  ty_conv k = ty_conversion(c->ty, to, v->type);
  if (k == TY_CONV_NONE && resource_refs(v)) {
    k = ty_conversion(c->ty, to, ty_resolve_outputs(c->ty, v->type));
  }
  return k;
}

/* Checks the written inputs against the object type of accepted inputs. */
static void check_inputs(bind_ctx *c, const bnd_attrs *attrs, const ty *input, const char *what,
                         const char *subject, pcl_span end) {
  /* Every written attribute must be a property and its value must convert
     (safely or unsafely) to the property's (input-shaped) type. */
  for (size_t i = 0; i < attrs->count; i++) {
    bnd_attr *a = &attrs->items[i];
    const ty *pt = ty_object_get(input, a->name);
    if (!pt) {
      diag_error(c->diag, a->name_span, "unsupported attribute '%s'", a->name);
      continue;
    }
    a->expected = pt;
    if (a->value->error) {
      continue;
    }
    ty_conv k = input_conversion(c, pt, a->value);
    if (k == TY_CONV_NONE) {
      diag_error(c->diag, a->value->span,
                 "Cannot assign value %s to attribute of type \"%s\" for %s \"%s\"",
                 ty_pretty(c->ty, a->value->type), ty_pretty(c->ty, pt), what, subject);
    } else if (k == TY_CONV_UNSAFE) {
      check_int_literal(c, a->value, pt);
    }
    check_annotate(c, a->value, pt);
  }
  /* Every required property must be written; constant properties have
     their only possible value already. */
  for (size_t i = 0; i < input->object.count; i++) {
    const ty_prop *p = &input->object.props[i];
    if (ty_is_optional(p->type) || p->type->kind == TY_CONST) {
      continue;
    }
    bool written = false;
    for (size_t j = 0; j < attrs->count && !written; j++) {
      written = attrs->items[j].name == p->name;
    }
    if (!written) {
      diag_error(c->diag, end, "missing required attribute '%s'", p->name);
    }
  }
}

/* Returns the string literal value of the `version` option, if written. */
static const char *version_option(const ast_node *options) {
  if (!options) {
    return NULL;
  }
  for (size_t i = 0; i < options->block.body.count; i++) {
    const ast_node *a = options->block.body.items[i];
    if (a->kind == AST_ATTRIBUTE && strcmp(a->attribute.name.text, "version") == 0) {
      return literal_text(a->attribute.value);
    }
  }
  return NULL;
}

/* Binds the body attributes of a resource-like block (except
   __logicalName and, for components, token) in scope s. */
static bnd_attrs bind_body_attrs(bind_ctx *c, bnd_node *n, const bind_scope *s,
                                 bool skip_token) {
  const ast_node *b = n->syntax;
  size_t cnt = 0;
  for (size_t i = 0; i < b->block.body.count; i++) {
    cnt += b->block.body.items[i]->kind == AST_ATTRIBUTE;
  }
  bnd_attrs out = {new_attrs(c, cnt), 0};
  for (size_t i = 0; i < b->block.body.count; i++) {
    const ast_node *a = b->block.body.items[i];
    if (a->kind != AST_ATTRIBUTE || logical_name(c, n, a)) {
      continue;
    }
    if (skip_token && strcmp(a->attribute.name.text, "token") == 0) {
      continue;
    }
    bnd_attr *ba = &out.items[out.count++];
    ba->name = a->attribute.name.text;
    ba->span = a->span;
    ba->name_span = a->attribute.name.span;
    ba->value = check_expr(c, s, a->attribute.value);
  }
  return out;
}

/* Binds a resource or read block: schema, range, inputs (checked against
   the schema when there is one) and options; sets the type of references. */
static void bind_resource(bind_ctx *c, bnd_node *n) {
  bnd_resource *r = &n->resource;
  const ast_node *b = n->syntax;
  const ast_node *options = find_options(c, b);
  bool usable = resource_schema(c, n, version_option(options));
  bind_range(c, options, &r->options, &r->range, &r->range_var);
  bind_scope rs = {0};
  rs.var = r->range_var;
  const bind_scope *scope = r->range_var ? &rs : NULL;
  r->inputs = bind_body_attrs(c, n, scope, false);
  if (usable && r->input_type) {
    check_inputs(c, &r->inputs, r->input_type, "resource", r->token, block_end(b));
  }
  if (options) {
    bind_scope ps = {0};
    ps.properties = true;
    ps.props_type = r->input_type;
    ps.props_attrs = &r->inputs;
    bind_other_options(c, options, &r->options, &ps);
  }
  if (!usable) {
    n->type = ty_dynamic(c->ty);
    return;
  }
  n->type = range_type(c, r->range, &r->options, r->output_type);
}

/* ------------------------------------------------------------ config */

/* Computes the declared type of a config (before its default is checked). */
static void declare_config(bind_ctx *c, bnd_node *n) {
  bnd_config *cf = &n->config;
  const ast_node *b = n->syntax;
  ty_ctx *t = c->ty;
  const ty *dt = ty_dynamic(t);
  if (b->block.nlabels == 2) {
    cf->type_text = b->block.labels[1].text;
    dt = ty_config_optional_properties(t, check_type_label(c, &b->block.labels[1]));
  }
  for (size_t i = 0; i < b->block.body.count; i++) {
    const ast_node *a = b->block.body.items[i];
    if (a->kind == AST_BLOCK) {
      diag_error(c->diag, a->block.type.span, "unsupported block of type '%s'",
                 a->block.type.text);
      continue;
    }
    const char *an = a->attribute.name.text;
    if (logical_name(c, n, a)) {
      continue;
    }
    if (strcmp(an, "default") == 0) {
      if (check_is_null_literal(a->attribute.value)) {
        cf->nullable = true;
      }
    } else if (strcmp(an, "description") == 0) {
      cf->description = literal_text(a->attribute.value);
      if (!cf->description) {
        diag_error(c->diag, a->attribute.value->span, "attribute description must be a string literal");
      }
    } else if (strcmp(an, "nullable") == 0 || strcmp(an, "secret") == 0) {
      int v = literal_bool(a->attribute.value);
      if (v < 0) {
        diag_error(c->diag, a->attribute.value->span, "attribute %s must be a boolean literal", an);
      } else if (an[0] == 'n') {
        cf->nullable = cf->nullable || v;
      } else {
        cf->secret = v;
      }
    } else {
      diag_error(c->diag, a->attribute.name.span, "unsupported attribute '%s'", an);
    }
  }
  if (cf->nullable) {
    dt = ty_optional(t, dt);
  }
  cf->value_type = dt;
  cf->decl_type = cf->secret ? ty_output(t, dt) : dt;
  n->type = cf->decl_type;
}

/* Binds the default value of a config and checks it against the declared
   type (the type itself was fixed by declare_config). */
static void bind_config(bind_ctx *c, bnd_node *n) {
  const ast_node *b = n->syntax;
  for (size_t i = 0; i < b->block.body.count; i++) {
    const ast_node *a = b->block.body.items[i];
    if (a->kind == AST_ATTRIBUTE && strcmp(a->attribute.name.text, "default") == 0) {
      n->config.default_ = check_expr(c, NULL, a->attribute.value);
      check_input(c, n->config.default_, n->config.value_type);
    }
  }
}

/* ------------------------------------------------------------ output */

static void declare_output(bind_ctx *c, bnd_node *n) {
  const ast_node *b = n->syntax;
  if (b->block.nlabels == 2) {
    n->output.type_text = b->block.labels[1].text;
    n->output.decl_type = check_type_label(c, &b->block.labels[1]);
  }
  n->type = n->output.decl_type ? n->output.decl_type : ty_dynamic(c->ty);
}

/* Binds an output block: its value (required) is checked against the
   declared type label when there is one. */
static void bind_output(bind_ctx *c, bnd_node *n) {
  const ast_node *b = n->syntax;
  for (size_t i = 0; i < b->block.body.count; i++) {
    const ast_node *a = b->block.body.items[i];
    if (a->kind == AST_BLOCK) {
      diag_error(c->diag, a->block.type.span, "unsupported block of type '%s'",
                 a->block.type.text);
      continue;
    }
    if (logical_name(c, n, a)) {
      continue;
    }
    if (strcmp(a->attribute.name.text, "value") != 0) {
      diag_error(c->diag, a->attribute.name.span, "unsupported attribute '%s'",
                 a->attribute.name.text);
      continue;
    }
    n->output.value = check_expr(c, NULL, a->attribute.value);
    if (n->output.decl_type) {
      check_input(c, n->output.value, n->output.decl_type);
    }
  }
  if (!n->output.value) {
    diag_error(c->diag, block_end(b), "missing required attribute 'value'");
  }
}

/* ------------------------------------------------------- pulumi, hook */

static void bind_pulumi(bind_ctx *c, bnd_node *n) {
  const ast_node *b = n->syntax;
  n->type = ty_dynamic(c->ty);
  for (size_t i = 0; i < b->block.body.count; i++) {
    const ast_node *a = b->block.body.items[i];
    if (a->kind == AST_BLOCK) {
      diag_error(c->diag, a->block.type.span, "unsupported block of type '%s'",
                 a->block.type.text);
      continue;
    }
    if (strcmp(a->attribute.name.text, "requiredVersionRange") != 0) {
      diag_error(c->diag, a->attribute.name.span, "unsupported attribute '%s'",
                 a->attribute.name.text);
      continue;
    }
    n->pulumi_version = check_expr(c, NULL, a->attribute.value);
    check_input(c, n->pulumi_version, ty_string(c->ty));
  }
}

/* Binds a hook block: `command` sees the `args` variable of program.md
   §10.3; `onDryRun` and `ignoreErrors` are bools. */
static void bind_hook(bind_ctx *c, bnd_node *n) {
  const ast_node *b = n->syntax;
  ty_ctx *t = c->ty;
  n->type = ty_string(t);
  const ty *dm = ty_map(t, ty_dynamic(t));
  ty_prop p[8] = {{in(c, "urn"), ty_string(t)},  {in(c, "id"), ty_id(t)},
                  {in(c, "name"), ty_string(t)}, {in(c, "type"), ty_string(t)},
                  {in(c, "newInputs"), dm},      {in(c, "oldInputs"), dm},
                  {in(c, "oldOutputs"), dm},     {in(c, "newOutputs"), dm}};
  n->hook.args = ARENA_NEW(c->arena, bnd_var);
  *n->hook.args = (bnd_var){BND_VAR_HOOK_ARGS, in(c, "args"), n->name_span,
                            ty_object(t, n->hook.error_hook ? 7 : 8, p)};
  bind_scope as = {0};
  as.var = n->hook.args;
  for (size_t i = 0; i < b->block.body.count; i++) {
    const ast_node *a = b->block.body.items[i];
    const char *an = a->kind == AST_ATTRIBUTE ? a->attribute.name.text : a->block.type.text;
    if (a->kind == AST_ATTRIBUTE && strcmp(an, "command") == 0) {
      n->hook.command = check_expr(c, &as, a->attribute.value);
      check_input(c, n->hook.command, ty_list(t, ty_string(t)));
    } else if (a->kind == AST_ATTRIBUTE &&
               (strcmp(an, "onDryRun") == 0 || strcmp(an, "ignoreErrors") == 0)) {
      bnd_expr *e = check_expr(c, NULL, a->attribute.value);
      check_input(c, e, ty_bool(t));
      if (an[0] == 'o') {
        n->hook.on_dry_run = e;
      } else {
        n->hook.ignore_errors = e;
      }
    } else {
      diag_error(c->diag, a->kind == AST_ATTRIBUTE ? a->attribute.name.span : a->block.type.span,
                 "unknown property '%s' among [command ignoreErrors onDryRun]", an);
    }
  }
  if (!n->hook.command) {
    diag *d = diag_error(c->diag, block_end(b), "Missing required attribute");
    diag_note(d, n->span, "Hook blocks must have a 'command' attribute");
  }
}

/* -------------------------------------------------------- components */

/* Joins a program directory and a relative component source. */
static char *join_dir(const char *dir, const char *rel) {
  if (rel[0] == '/') {
    return xstrdup(rel);
  }
  size_t n = strlen(dir) + strlen(rel) + 2;
  char *p = xmalloc(n);
  snprintf(p, n, "%s/%s", dir, rel);
  return p;
}

/* Normalises a path lexically (drops `.` and `x/..`) into an arena string. */
static const char *clean_path(bind_ctx *c, const char *path) {
  size_t n = strlen(path);
  char *buf = xmalloc(n + 2);
  const char **parts = xmalloc((n + 1) * sizeof *parts);
  size_t *lens = xmalloc((n + 1) * sizeof *lens);
  size_t np = 0;
  bool abs = path[0] == '/';
  for (const char *p = path; *p;) {
    while (*p == '/') {
      p++;
    }
    const char *s = p;
    while (*p && *p != '/') {
      p++;
    }
    size_t l = (size_t)(p - s);
    if (l == 0 || (l == 1 && s[0] == '.')) {
      continue;
    }
    if (l == 2 && s[0] == '.' && s[1] == '.' && np > 0 &&
        !(lens[np - 1] == 2 && parts[np - 1][0] == '.' && parts[np - 1][1] == '.')) {
      np--;
      continue;
    }
    parts[np] = s;
    lens[np++] = l;
  }
  size_t k = 0;
  if (abs) {
    buf[k++] = '/';
  }
  for (size_t i = 0; i < np; i++) {
    if (i) {
      buf[k++] = '/';
    }
    memcpy(buf + k, parts[i], lens[i]);
    k += lens[i];
  }
  if (k == 0) {
    buf[k++] = '.';
  }
  buf[k] = '\0';
  const char *out = arena_strdup(c->arena, buf);
  free(buf);
  free(parts);
  free(lens);
  return out;
}

/* Binds the program of a component with a source directory, and computes
   the component's output type.  Returns false if it cannot be used. */
static bool declare_component_program(bind_ctx *c, bnd_node *n) {
  bnd_component *cm = &n->component;
  const ast_label *src = &n->syntax->block.labels[1];
  cm->source = src->text;
  char *joined = join_dir(c->st->dir, src->text);
  const char *dir = clean_path(c, joined);
  free(joined);
  if (strcmp(dir, clean_path(c, c->st->dir)) == 0) {
    diag_error(c->diag, src->span,
               "cannot bind component %s from the same directory as the parent program",
               n->name);
    return false;
  }
  if (c->depth >= MAX_COMPONENT_DEPTH) {
    diag_error(c->diag, src->span, "components are nested too deeply (more than %d levels)",
               MAX_COMPONENT_DEPTH);
    return false;
  }
  char **paths;
  size_t count;
  const char *err;
  if (!src_list_dir(dir, &paths, &count, &err)) {
    diag_mark_io(c->diag, diag_error(c->diag, src->span, "%s: %s", dir, err));
    return false;
  }
  for (size_t i = 0; i < count; i++) {
    free(paths[i]);
  }
  free(paths);
  if (count == 0) {
    diag_error(c->diag, src->span, "no files found");
    return false;
  }
  parse_env env = {c->arena, c->names, c->src, c->diag};
  ast_program prog;
  size_t before = c->diag->errors;
  if (parse_program(&env, dir, &prog) != PARSE_OK || c->diag->errors != before) {
    return false;
  }
  struct bind_state *saved = c->st;
  c->depth++;
  cm->program = bind_program(c, &prog, dir);
  c->depth--;
  c->st = saved;
  if (cm->program->has_errors) {
    return false;
  }
  /* The component's attributes: one output(T) per output. */
  size_t nout = 0;
  for (size_t i = 0; i < cm->program->count; i++) {
    nout += cm->program->nodes[i]->kind == BND_OUTPUT;
  }
  ty_prop *props = nout ? ARENA_NEW_ARRAY(c->arena, ty_prop, nout) : NULL;
  size_t k = 0;
  for (size_t i = 0; i < cm->program->count; i++) {
    bnd_node *o = cm->program->nodes[i];
    if (o->kind != BND_OUTPUT) {
      continue;
    }
    const ty *ot = o->output.decl_type ? o->output.decl_type
                   : o->output.value   ? o->output.value->type
                                       : ty_dynamic(c->ty);
    props[k].name = o->logical_name;
    props[k++].type = ty_output(c->ty, ot);
  }
  cm->output_type = ty_object(c->ty, k, props);
  return true;
}

/* Computes the type of references to a component before anything is
   checked (so that two components may refer to each other): binds the
   component program of a component with a source. */
static void declare_component(bind_ctx *c, bnd_node *n) {
  if (n->syntax->block.nlabels == 2) {
    if (!declare_component_program(c, n)) {
      n->invalid = true;
      n->type = ty_dynamic(c->ty);
      return;
    }
  } else {
    n->component.output_type = ty_dynamic(c->ty);
  }
  /* The range option may change the type; until the component is bound,
     references see the single-instance type. */
  n->type = n->component.output_type;
}

/* Binds a component block: range, token (sourceless form only), inputs
   (checked against the component program's configs) and options. */
static void bind_component(bind_ctx *c, bnd_node *n) {
  bnd_component *cm = &n->component;
  const ast_node *b = n->syntax;
  const ast_node *options = find_options(c, b);
  bind_range(c, options, &cm->options, &cm->range, &cm->range_var);
  bind_scope rs = {0};
  rs.var = cm->range_var;
  const bind_scope *scope = cm->range_var ? &rs : NULL;
  bool sourceless = b->block.nlabels == 1;
  const ast_node *token = NULL;
  for (size_t i = 0; i < b->block.body.count; i++) {
    const ast_node *a = b->block.body.items[i];
    if (a->kind == AST_ATTRIBUTE && strcmp(a->attribute.name.text, "token") == 0) {
      token = a;
    }
  }
  if (sourceless) {
    const char *tok = token ? literal_text(token->attribute.value) : NULL;
    if (token && !tok) {
      diag_error(c->diag, token->attribute.value->span, "attribute token must be a string literal");
    } else if (!token) {
      diag_error(c->diag, n->name_span,
                 "a component declared without a source must set 'token' to the component's "
                 "type token");
    }
    cm->token = tok;
  } else if (token) {
    diag_error(c->diag, token->attribute.name.span,
               "'token' may only be set on a component declared without a source");
  }
  cm->inputs = bind_body_attrs(c, n, scope, true);
  if (options) {
    bind_scope ps = {0};
    ps.properties = true;
    ps.props_attrs = &cm->inputs;
    bind_other_options(c, options, &cm->options, &ps);
  }
  /* A component whose program could not be bound has no inputs to check
     against (its errors were reported). */
  if (n->invalid) {
    return;
  }
  if (cm->program) {
    /* Inputs: the component program's configs, by logical name. */
    size_t ncfg = 0;
    for (size_t i = 0; i < cm->program->count; i++) {
      ncfg += cm->program->nodes[i]->kind == BND_CONFIG;
    }
    ty_prop *props = ncfg ? ARENA_NEW_ARRAY(c->arena, ty_prop, ncfg) : NULL;
    size_t k = 0;
    for (size_t i = 0; i < cm->program->count; i++) {
      bnd_node *cf = cm->program->nodes[i];
      if (cf->kind != BND_CONFIG) {
        continue;
      }
      const ty *it = ty_input(c->ty, cf->config.value_type);
      if (cf->config.default_ || cf->config.nullable) {
        it = ty_optional(c->ty, it);
      }
      props[k].name = cf->logical_name;
      props[k++].type = it;
    }
    const ty *input = ty_object(c->ty, k, props);
    for (size_t i = 0; i < cm->inputs.count; i++) {
      if (!ty_object_get(input, cm->inputs.items[i].name)) {
        diag_error(c->diag, cm->inputs.items[i].name_span, "unsupported attribute '%s'",
                   cm->inputs.items[i].name);
        return;
      }
    }
    /* A config of dynamic type accepts anything and may be left out only if
       it has a default or is nullable. */
    for (size_t i = 0; i < input->object.count; i++) {
      const ty_prop *p = &input->object.props[i];
      bool written = false;
      for (size_t j = 0; j < cm->inputs.count && !written; j++) {
        written = cm->inputs.items[j].name == p->name;
      }
      if (!written && !ty_is_optional(p->type)) {
        diag_error(c->diag, block_end(b), "missing required attribute '%s'", p->name);
      }
    }
    bnd_attrs none = cm->inputs;
    for (size_t i = 0; i < none.count; i++) {
      bnd_attr *a = &none.items[i];
      a->expected = ty_object_get(input, a->name);
      if (!a->value->error && ty_conversion(c->ty, a->expected, a->value->type) == TY_CONV_NONE) {
        diag_error(c->diag, a->value->span,
                   "Cannot assign value %s to attribute of type \"%s\" for component \"%s\"",
                   ty_pretty(c->ty, a->value->type), ty_pretty(c->ty, a->expected), n->name);
      }
      check_annotate(c, a->value, a->expected);
    }
  }
  n->type = range_type(c, cm->range, &cm->options, cm->output_type);
}

/* -------------------------------------------------------------- main */

static void bind_local(bind_ctx *c, bnd_node *n) {
  n->local = check_expr(c, NULL, n->syntax->attribute.value);
  n->type = n->local->type;
}

/* Checks one node; its dependencies have been checked already. */
static void bind_node(bind_ctx *c, bnd_node *n) {
  switch (n->kind) {
  case BND_LOCAL:
    bind_local(c, n);
    return;
  case BND_CONFIG:
    bind_config(c, n);
    return;
  case BND_RESOURCE:
  case BND_READ:
    bind_resource(c, n);
    return;
  case BND_COMPONENT:
    bind_component(c, n);
    return;
  case BND_OUTPUT:
    bind_output(c, n);
    return;
  case BND_PULUMI:
    bind_pulumi(c, n);
    return;
  case BND_HOOK:
    bind_hook(c, n);
    return;
  }
  ice("bad node kind %d", (int)n->kind);
}

/* Moves the diagnostics reported after `before` out of the list and
   appends them to the segment *head..*tail. */
static void cut_segment(bind_ctx *c, diag *before, diag **head, diag **tail) {
  if (c->diag->tail == before) {
    return;
  }
  diag *first = before ? before->next : c->diag->head;
  if (*tail) {
    (*tail)->next = first;
  } else {
    *head = first;
  }
  *tail = c->diag->tail;
  if (before) {
    before->next = NULL;
  } else {
    c->diag->head = NULL;
  }
  c->diag->tail = before;
}

/* Computes what references may see before the node is bound in order:
   declared types of config and output, component programs. */
static void predeclare(bind_ctx *c, bnd_node *n) {
  switch (n->kind) {
  case BND_CONFIG:
    declare_config(c, n);
    return;
  case BND_OUTPUT:
    declare_output(c, n);
    return;
  case BND_COMPONENT:
    declare_component(c, n);
    return;
  case BND_LOCAL:
  case BND_RESOURCE:
  case BND_READ:
  case BND_PULUMI:
  case BND_HOOK:
    return;
  }
  ice("bad node kind %d", (int)n->kind);
}

/* The phases of the file header, in order. */
bnd_program *bind_program(bind_ctx *c, const ast_program *prog, const char *dir) {
  struct bind_state st = {0};
  /* The state of this program; a component program binds with its own and
     the caller's is restored afterwards. */
  bnd_program *p = ARENA_NEW(c->arena, bnd_program);
  p->dir = arena_strdup(c->arena, dir);
  st.prog = p;
  st.dir = p->dir;
  c->st = &st;
  size_t errors_before = c->diag->errors;

  bind_packages(c, prog);
  for (size_t f = 0; f < prog->count; f++) {
    const ast_list *body = &prog->files[f].body;
    for (size_t i = 0; i < body->count; i++) {
      declare_item(c, body->items[i]);
    }
  }
  size_t n = st.nodes.count;
  p->count = n;
  p->nodes = n ? ARENA_NEW_ARRAY(c->arena, bnd_node *, n) : NULL;
  if (n) {
    memcpy(p->nodes, st.nodes.items, n * sizeof *p->nodes);
  }
  /* Dependencies and order need every name declared first. */
  st.mark = xcalloc(n + 1, sizeof *st.mark);
  st.dep_spans = xcalloc(n + 1, sizeof *st.dep_spans);
  for (size_t i = 0; i < n; i++) {
    compute_deps(c, p->nodes[i]);
  }
  compute_order(c);
  /* What references to config, output and component nodes see does not
     depend on other nodes: compute it before checking anything. */
  diag **seg_head = xcalloc(n + 1, sizeof *seg_head);
  diag **seg_tail = xcalloc(n + 1, sizeof *seg_tail);
  for (size_t i = 0; i < n; i++) {
    if (!p->nodes[i]->invalid) {
      diag *before = c->diag->tail;
      predeclare(c, p->nodes[i]);
      cut_segment(c, before, &seg_head[i], &seg_tail[i]);
    }
  }
  /* Nodes are checked in evaluation order, but their diagnostics are
     reported in source order: each node's diagnostics are cut out of the
     list as a segment and the segments are put back by declaration index. */
  for (size_t i = 0; i < n; i++) {
    bnd_node *node = p->order[i];
    if (node->invalid) {
      node->type = NULL;
      continue;
    }
    diag *before = c->diag->tail;
    bind_node(c, node);
    if (!node->type) {
      node->type = ty_dynamic(c->ty);
    }
    cut_segment(c, before, &seg_head[node->index], &seg_tail[node->index]);
  }
  for (size_t i = 0; i < n; i++) {
    if (!seg_head[i]) {
      continue;
    }
    if (c->diag->tail) {
      c->diag->tail->next = seg_head[i];
    } else {
      c->diag->head = seg_head[i];
    }
    c->diag->tail = seg_tail[i];
  }
  free(seg_head);
  free(seg_tail);
  p->has_errors = c->diag->errors != errors_before;
  free(st.mark);
  free(st.dep_spans);
  free(st.tmp.items);
  free(st.tmp_spans);
  free(st.nodes.items);
  ptrmap_free(&st.defs);
  ptrmap_free(&st.outputs);
  c->st = NULL;
  return p;
}

/* The name tables come from the X-macro lists of bound_kinds.h. */
const char *bnd_node_kind_name(bnd_node_kind k) {
  static const char *const names[] = {
#define X(name, text) text,
      BND_NODE_KINDS(X)
#undef X
  };
  return names[k];
}

const char *bnd_expr_kind_name(bnd_expr_kind k) {
  static const char *const names[] = {
#define X(name, text) text,
      BND_EXPR_KINDS(X)
#undef X
  };
  return names[k];
}

const char *bnd_option_name(bnd_option o) {
  static const char *const names[] = {
#define X(name, text, path) text,
      BND_OPTIONS(X)
#undef X
  };
  return names[o];
}
