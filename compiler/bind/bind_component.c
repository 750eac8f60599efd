/* bind_component: component blocks (program.md §5).
 *
 * A component with a source directory is a program of its own: its files
 * are parsed and bound (with their own binder state) when the component is
 * declared, before anything of the parent is checked, so that the type of a
 * reference to it (one output(T) per output of the program) is known to
 * every node, and two components may refer to each other.  Its inputs are
 * the configs of that program.  A sourceless component names its type with
 * a `token` attribute and is untyped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind/bind_impl.h"
#include "bind/check.h"
#include "front/parse.h"
#include "base/util.h"

/* Component programs nest at most this deep (a component that includes
   itself through a relative path would otherwise recurse forever). */
enum { MAX_COMPONENT_DEPTH = 16 };

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

bool bind_component_parse(bind_ctx *c, const char *parent, const char *name,
                          const ast_label *src, const char **dir_out, ast_program *prog) {
  char *joined = join_dir(parent, src->text);
  const char *dir = clean_path(c, joined);
  free(joined);
  if (strcmp(dir, clean_path(c, parent)) == 0) {
    diag_error(c->diag, src->span,
               "cannot bind component %s from the same directory as the parent program", name);
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
  parse_env env = {c->arena, c->names, c->src, c->diag, 0};
  size_t before = c->diag->errors;
  if (parse_program(&env, dir, prog) != PARSE_OK || c->diag->errors != before) {
    return false;
  }
  *dir_out = dir;
  return true;
}

/* Binds the program of a component with a source directory, and computes
   the component's output type.  Returns false if it cannot be used. */
static bool declare_component_program(bind_ctx *c, bnd_node *n) {
  bnd_component *cm = &n->component;
  const ast_label *src = &n->syntax->block.labels[1];
  cm->source = src->text;
  const char *dir;
  ast_program prog;
  if (!bind_component_parse(c, c->st->dir, n->name, src, &dir, &prog)) {
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
void bind_declare_component(bind_ctx *c, bnd_node *n) {
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
void bind_component(bind_ctx *c, bnd_node *n) {
  bnd_component *cm = &n->component;
  const ast_node *b = n->syntax;
  const ast_node *options = bind_find_options(c, b);
  bind_range_option(c, options, &cm->options, &cm->range, &cm->range_var);
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
    const char *tok = token ? bind_literal_text(token->attribute.value) : NULL;
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
    ty_prop *props = ARENA_NEW_ARRAY(c->arena, ty_prop, ncfg);
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
        diag_error(c->diag, b->block.close_brace, "missing required attribute '%s'", p->name);
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
  n->type = bind_range_type(c, cm->range, &cm->options, cm->output_type);
}
