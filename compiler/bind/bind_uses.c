/* bind_uses: the packages a program uses, found without their schemas
 * (bind_uses.h).
 *
 * The program's `package` blocks are read by bind_packages, as binding
 * reads them; then every block of every file is looked at for type tokens,
 * and every expression is walked for `invoke` calls, recursively under the
 * stack guard (base/stack.h) as the other phases are.  Component programs are parsed
 * and read recursively, each with its own package list; a package defined
 * by any program of the compilation covers the tokens of all of them, as it
 * does when they are bound. */
#include <stdlib.h>
#include <string.h>

#include "bind/bind_impl.h"
#include "bind/bind_uses.h"
#include "base/stack.h"
#include "base/util.h"

/* What one program's walk needs. */
typedef struct walk {
  bind_ctx *c;
  bind_uses *out;
} walk;

/* True when the optional strings a and b are both absent or equal. */
static bool same(const char *a, const char *b) {
  return a == b || (a && b && strcmp(a, b) == 0);
}

/* Adds u to the list unless it is there already. */
static void add_use(bind_uses *out, bind_use u) {
  for (size_t i = 0; i < out->count; i++) {
    const bind_use *o = &out->items[i];
    if (same(o->name, u.name) && same(o->version, u.version) &&
        same(o->download_url, u.download_url) && same(o->param_name, u.param_name) &&
        same(o->param_version, u.param_version) && same(o->param_value, u.param_value)) {
      return;
    }
  }
  PCL__GROW(out->items, out->cap, out->count + 1);
  out->items[out->count++] = u;
}

/* Returns the package a type or function token belongs to (arena string),
   or NULL for the built-in package `pulumi` and for a token without a
   package part. */
static const char *token_package(bind_ctx *c, const char *token) {
  static const char providers[] = "pulumi:providers:";
  if (strncmp(token, providers, sizeof providers - 1) == 0) {
    token += sizeof providers - 1;
  }
  const char *colon = strchr(token, ':');
  size_t n = colon ? (size_t)(colon - token) : strlen(token);
  if (n == 0 || (n == 6 && strncmp(token, "pulumi", 6) == 0)) {
    return NULL;
  }
  return arena_strndup(c->arena, token, n);
}

/* Returns the package block of the compilation that defines the package
   pkg (by its own name: a parameterized package's parameterization name),
   or NULL when there is none. */
static const bnd_package *covering_block(bind_ctx *c, const char *pkg) {
  for (const struct bind_package_link *l = c->packages; l; l = l->next) {
    const bnd_package *p = l->pkg;
    if (strcmp(p->param_name ? p->param_name : p->name, pkg) == 0) {
      return p;
    }
  }
  return NULL;
}

/* Records the use of the package of token, with the version and download
   URL options written beside it (NULL when absent). */
static void use_token(walk *w, const char *token, const char *version, const char *url) {
  const char *pkg = token_package(w->c, token);
  if (pkg && !covering_block(w->c, pkg)) {
    add_use(w->out, (bind_use){pkg, version, url, NULL, NULL, NULL});
  }
}

/* Returns the string literal of attribute name in body (NULL when it is
   absent or not a string literal). */
static const char *body_literal(const ast_list *body, const char *name) {
  for (size_t i = 0; i < body->count; i++) {
    const ast_node *a = body->items[i];
    if (a->kind == AST_ATTRIBUTE && strcmp(a->attribute.name.text, name) == 0) {
      return bind_literal_text(a->attribute.value);
    }
  }
  return NULL;
}

/* Returns the string literal under key in an object expression (NULL when
   it is absent or not a literal). */
static const char *object_literal(const ast_node *obj, const char *key) {
  while (obj->kind == AST_PAREN) {
    obj = obj->paren.inner;
  }
  if (obj->kind != AST_OBJECT) {
    return NULL;
  }
  for (size_t i = 0; i < obj->object.items.count; i++) {
    const ast_node *it = obj->object.items.items[i];
    const ast_node *k = it->item.key;
    const char *name = k->kind == AST_VARIABLE ? k->variable.name : bind_literal_text(k);
    if (name && strcmp(name, key) == 0) {
      return bind_literal_text(it->item.value);
    }
  }
  return NULL;
}

static void walk_invokes(walk *w, const ast_node *e);

static void walk_kid(void *w, const ast_node *kid) { walk_invokes(w, kid); }

/* Records the package of every `invoke` with a literal token in e (an
   attribute, a block or an expression) and under it. */
static void walk_invokes(walk *w, const ast_node *e) {
  if (stack_too_deep(&w->c->too_deep, w->c->diag, e->span)) {
    return;
  }
  if (e->kind == AST_CALL && strcmp(e->call.name.text, "invoke") == 0) {
    const ast_list *a = &e->call.args;
    const char *token = a->count > 0 ? bind_literal_text(a->items[0]) : NULL;
    const ast_node *opts = a->count > 2 ? a->items[2] : NULL;
    if (token) {
      use_token(w, token, opts ? object_literal(opts, "version") : NULL,
                opts ? object_literal(opts, "pluginDownloadUrl") : NULL);
    }
  }
  ast_each_child(e, walk_kid, w);
}

/* Returns the options block of a resource-like block, or NULL. */
static const ast_node *options_block(const ast_node *b) {
  for (size_t i = 0; i < b->block.body.count; i++) {
    const ast_node *o = b->block.body.items[i];
    if (o->kind == AST_BLOCK && strcmp(o->block.type.text, "options") == 0) {
      return o;
    }
  }
  return NULL;
}

static void collect_program(bind_ctx *c, const ast_program *prog, const char *dir,
                            bind_uses *out);

/* Reads the program of a component block with a source directory. */
static void collect_component(bind_ctx *c, const ast_node *b, const char *parent,
                              bind_uses *out) {
  const char *dir;
  ast_program sub;
  if (!bind_component_parse(c, parent, b->block.labels[0].text, &b->block.labels[1], &dir,
                            &sub)) {
    return;
  }
  struct bind_state *saved = c->st;
  c->depth++;
  collect_program(c, &sub, dir, out);
  c->depth--;
  c->st = saved;
}

/* Records the uses of one top-level block b of the program in dir. */
static void collect_block(walk *w, const ast_node *b, const char *dir) {
  const char *type = b->block.type.text;
  bool resource = strcmp(type, "resource") == 0 || strcmp(type, "read") == 0;
  if (resource && b->block.nlabels == 2) {
    const ast_node *o = options_block(b);
    use_token(w, b->block.labels[1].text, o ? body_literal(&o->block.body, "version") : NULL,
              o ? body_literal(&o->block.body, "pluginDownloadURL") : NULL);
  } else if (strcmp(type, "component") == 0 && b->block.nlabels == 2) {
    collect_component(w->c, b, dir, w->out);
  }
}

/* Records the uses of the program prog in dir: its package blocks, then
   its blocks and expressions. */
static void collect_program(bind_ctx *c, const ast_program *prog, const char *dir,
                            bind_uses *out) {
  struct bind_state st = {0};
  st.prog = ARENA_NEW(c->arena, bnd_program);
  st.dir = dir;
  c->st = &st;
  bind_packages(c, prog);
  for (size_t i = 0; i < st.prog->npackages; i++) {
    const bnd_package *p = &st.prog->packages[i];
    add_use(out, (bind_use){p->name, p->version, p->download_url, p->param_name,
                            p->param_version, p->param_value});
  }
  walk w = {c, out};
  for (size_t f = 0; f < prog->count; f++) {
    const ast_list *body = &prog->files[f].body;
    for (size_t i = 0; i < body->count; i++) {
      const ast_node *n = body->items[i];
      if (n->kind == AST_BLOCK && strcmp(n->block.type.text, "package") == 0) {
        continue;
      }
      if (n->kind == AST_BLOCK) {
        collect_block(&w, n, dir);
      }
      walk_invokes(&w, n);
    }
  }
}

/* Orders absent strings first, then by bytes. */
static int cmp_opt(const char *a, const char *b) {
  if (!a || !b) {
    return (a != NULL) - (b != NULL);
  }
  return strcmp(a, b);
}

static int cmp_use(const void *pa, const void *pb) {
  const bind_use *a = pa, *b = pb;
  int r = strcmp(a->name, b->name);
  r = r ? r : cmp_opt(a->version, b->version);
  r = r ? r : cmp_opt(a->download_url, b->download_url);
  r = r ? r : cmp_opt(a->param_name, b->param_name);
  r = r ? r : cmp_opt(a->param_version, b->param_version);
  return r ? r : cmp_opt(a->param_value, b->param_value);
}

void bind_collect_uses(bind_ctx *c, const ast_program *prog, const char *dir, bind_uses *out) {
  collect_program(c, prog, dir, out);
  c->st = NULL;
  /* A token read before the package block that covers it (in a later
     component program) was recorded bare; drop such entries. */
  size_t k = 0;
  for (size_t i = 0; i < out->count; i++) {
    const bind_use *u = &out->items[i];
    const bnd_package *p = u->param_name ? NULL : covering_block(c, u->name);
    if (p == NULL || (same(p->name, u->name) && same(p->version, u->version) &&
                      same(p->download_url, u->download_url) && !p->param_name)) {
      out->items[k++] = *u;
    }
  }
  out->count = k;
  if (out->count > 1) {
    qsort(out->items, out->count, sizeof *out->items, cmp_use);
  }
}

void bind_uses_free(bind_uses *out) {
  free(out->items);
  *out = (bind_uses){0};
}
