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
 *      refers to are known; nodes of a cycle see each other as erroneous;
 *   6. at the top level, with every component program bound, the cycles
 *      that run through component outputs are reported (bind_deferred.c).
 * The root scope is a hash table keyed by interned name pointers, so name
 * resolution is constant time; nothing here is quadratic in the number of
 * nodes.  Phase 1 is bind_package.c, phases 3 and 4 are bind_graph.c, and
 * component blocks are bind_component.c (bind_impl.h). */
#include <stdlib.h>
#include <string.h>

#include "bind/bind_impl.h"
#include "bind/check.h"
#include "base/ptrmap.h"
#include "base/stack.h"
#include "schema/schema.h"
#include "base/util.h"
#include "suggest.h"

/* ------------------------------------------------------------- state */

void bind_vec_push(node_vec *v, bnd_node *n) {
  PCL__GROW(v->items, v->cap, v->count + 1);
  v->items[v->count++] = n;
}

/* Definitions shadow outputs: a name that is both resolves to the definition. */
bnd_node *bind_lookup(bind_ctx *c, const char *name) {
  bnd_node *n = ptrmap_get(&c->st->defs, name);
  return n ? n : ptrmap_get(&c->st->outputs, name);
}

const bnd_node *bind_suggest_node(bind_ctx *c, pcl__suggest *sg) {
  const bnd_node *best = NULL;
  for (size_t i = 0; i < c->st->nodes.count; i++) {
    const bnd_node *n = c->st->nodes.items[i];
    pcl__suggest_offer(sg, n->name, strlen(n->name));
    if (pcl__suggest_best(sg, NULL) == n->name) {
      best = n;
    }
  }
  return best && pcl__suggest_best(sg, NULL) == best->name ? best : NULL;
}

/* Interns s in the compilation's name table. */
static const char *in(bind_ctx *c, const char *s) {
  return intern(c->names, s);
}

/* ------------------------------------------------------ small helpers */

const char *bind_literal_text(const ast_node *e) {
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
  bind_vec_push(&c->st->nodes, n);
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
                                                         : bind_literal_text(it->item.key);
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

/* A bool range defines no `range` variable. */
void bind_range_option(bind_ctx *c, const ast_node *options, bnd_options *opts,
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

/* The range option was bound first, by bind_range_option: it is kept. */
void bind_other_options(bind_ctx *c, const ast_node *options, bnd_options *opts,
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

const ty *bind_range_type(bind_ctx *c, bnd_range_kind k, const bnd_options *o, const ty *r) {
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

const ast_node *bind_find_options(bind_ctx *c, const ast_node *b) {
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
  const char *v = bind_literal_text(a->attribute.value);
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
   object constructor (not empty) made only of such references. */
static bool resource_refs(bind_ctx *c, const bnd_expr *e) {
  if (stack_too_deep(&c->too_deep, c->diag, e->span)) {
    return false;
  }
  switch (e->kind) {
  case BND_E_NODE_REF:
    /* An undefined name is a reference without a node (already reported). */
    return e->node_ref.node != NULL &&
           (e->node_ref.node->kind == BND_RESOURCE || e->node_ref.node->kind == BND_READ ||
            e->node_ref.node->kind == BND_COMPONENT);
  case BND_E_TUPLE:
    for (size_t i = 0; i < e->tuple.count; i++) {
      if (!resource_refs(c, e->tuple.items[i])) {
        return false;
      }
    }
    return e->tuple.count > 0;
  case BND_E_OBJECT:
    for (size_t i = 0; i < e->object.count; i++) {
      if (!resource_refs(c, e->object.items[i].value)) {
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
  case BND_E_FAIL:
    break;
  }
  return false;
}

/* Returns the conversion of an input value to its property type.  A whole
   resource passed where the schema expects a resource reference is
   collapsed to a reference at run time (program.md §3.6), so its outputs
   count as resolved. */
static ty_conv input_conversion(bind_ctx *c, const ty *to, const bnd_expr *v) {
  ty_conv k = ty_conversion(c->ty, to, v->type);
  if (k == TY_CONV_NONE && resource_refs(c, v)) {
    k = ty_conversion(c->ty, to, ty_resolve_outputs(c->ty, v->type));
  }
  /* A conversion that ran out of stack is reported as such, not as a
     value that does not convert. */
  return check_too_deep(c, v->span) ? TY_CONV_SAFE : k;
}

/* Checks the written inputs against the object type of accepted inputs,
   and records on each the input property of schema it sets (schema NULL
   for none). */
static void check_inputs(bind_ctx *c, const bnd_attrs *attrs, const ty *input,
                         const schema_resource *schema, const char *what, const char *subject,
                         pcl_span end) {
  /* Every written attribute must be a property and its value must convert
     (safely or unsafely) to the property's (input-shaped) type. */
  for (size_t i = 0; i < attrs->count; i++) {
    bnd_attr *a = &attrs->items[i];
    const ty *pt = ty_object_get(input, a->name);
    if (!pt) {
      diag *g = diag_error(c->diag, a->name_span, "unsupported attribute '%s'", a->name);
      pcl__suggest sg;
      pcl__suggest_init(&sg, a->name, strlen(a->name));
      for (size_t k = 0; k < input->object.count && diag_last_shown(c->diag); k++) {
        const char *known = input->object.props[k].name;
        pcl__suggest_offer(&sg, known, strlen(known));
      }
      size_t len;
      const char *best = pcl__suggest_best(&sg, &len);
      if (best) {
        diag_note_suggestion(g, a->name_span, best, len);
      }
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
  ptrmap written = {0};
  for (size_t i = 0; i < attrs->count; i++) {
    ptrmap_put(&written, attrs->items[i].name, &attrs->items[i]);
  }
  for (size_t i = 0; i < input->object.count; i++) {
    const ty_prop *p = &input->object.props[i];
    if (!ty_is_optional(p->type) && p->type->kind != TY_CONST && !ptrmap_get(&written, p->name)) {
      diag_error(c->diag, end, "missing required attribute '%s'", p->name);
    }
  }
  for (size_t i = 0; schema && i < schema->ninputs; i++) {
    bnd_attr *a = ptrmap_get(&written, schema->inputs[i].name);
    if (a) {
      a->property = &schema->inputs[i];
    }
  }
  ptrmap_free(&written);
}

/* Returns the string literal value of the `version` option, if written. */
static const char *version_option(const ast_node *options) {
  if (!options) {
    return NULL;
  }
  for (size_t i = 0; i < options->block.body.count; i++) {
    const ast_node *a = options->block.body.items[i];
    if (a->kind == AST_ATTRIBUTE && strcmp(a->attribute.name.text, "version") == 0) {
      return bind_literal_text(a->attribute.value);
    }
  }
  return NULL;
}

bnd_attrs bind_body_attrs(bind_ctx *c, bnd_node *n, const bind_scope *s, bool skip_token) {
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
  const ast_node *options = bind_find_options(c, b);
  bool usable = resource_schema(c, n, version_option(options));
  bind_range_option(c, options, &r->options, &r->range, &r->range_var);
  bind_scope rs = {0};
  rs.var = r->range_var;
  const bind_scope *scope = r->range_var ? &rs : NULL;
  r->inputs = bind_body_attrs(c, n, scope, false);
  if (usable && r->input_type) {
    check_inputs(c, &r->inputs, r->input_type, n->kind == BND_READ ? NULL : r->schema,
                 "resource", r->token, block_end(b));
  } else if (usable && n->kind == BND_READ) {
    /* Without a schema the inputs are anything, but a read still needs the
       id of what it reads (program.md 4). */
    bool id = false;
    for (size_t i = 0; i < r->inputs.count && !id; i++) {
      id = strcmp(r->inputs.items[i].name, "id") == 0;
    }
    if (!id) {
      diag_error(c->diag, block_end(b), "missing required attribute 'id'");
    }
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
  n->type = bind_range_type(c, r->range, &r->options, r->output_type);
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
      cf->description = bind_literal_text(a->attribute.value);
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
      pcl_span at = a->kind == AST_ATTRIBUTE ? a->attribute.name.span : a->block.type.span;
      diag *g = diag_error(c->diag, at, "unknown property '%s' among [command ignoreErrors onDryRun]",
                           an);
      static const char *const known[] = {"command", "ignoreErrors", "onDryRun"};
      pcl__suggest sg;
      pcl__suggest_init(&sg, an, strlen(an));
      for (size_t k = 0; k < ARRAY_LEN(known); k++) {
        pcl__suggest_offer(&sg, known[k], strlen(known[k]));
      }
      size_t len;
      const char *best = pcl__suggest_best(&sg, &len);
      if (best) {
        diag_note_suggestion(g, at, best, len);
      }
    }
  }
  if (!n->hook.command) {
    diag *d = diag_error(c->diag, block_end(b), "Missing required attribute");
    diag_note(d, n->span, "Hook blocks must have a 'command' attribute");
  }
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
    bind_declare_component(c, n);
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
    bind_compute_deps(c, p->nodes[i]);
  }
  bind_compute_order(c);
  /* What references to config, output and component nodes see does not
     depend on other nodes: compute it before checking anything. */
  diag **seg_head = xcalloc(n + 1, sizeof *seg_head);
  diag **seg_tail = xcalloc(n + 1, sizeof *seg_tail);
  for (size_t i = 0; i < n; i++) {
    if (!p->nodes[i]->invalid) {
      diag *before = c->diag->tail;
      predeclare(c, p->nodes[i]);
      check_too_deep(c, p->nodes[i]->name_span);
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
    /* A type operation that ran out of stack outside any expression (the
       schema's types) is reported at the node. */
    check_too_deep(c, node->name_span);
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
  /* Cycles through component outputs need every component program bound
     and checked: the top level looks for them once, in the whole tree. */
  if (c->depth == 0 && c->diag->errors == errors_before) {
    bind_check_deferred_outputs(c, p);
  }
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

const char *bnd_option_name(bnd_option o) {
  static const char *const names[] = {
#define X(name, text, path) text,
      BND_OPTIONS(X)
#undef X
  };
  return names[o];
}
