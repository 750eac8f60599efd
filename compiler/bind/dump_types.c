/* dump_types: the stable text form of a bound program (`pclc --dump-types`).
 *
 * One line per top-level node in declaration order, `<kind> <name>: <type>`
 * (with the type token or type label where the block has one), followed by
 * indented lines for what the node contains: the type of every attribute
 * value, of every resource option, the range shape and the range variable,
 * the dependencies, and for components the bound component program nested
 * two columns deeper.  The last line of a program is its evaluation order.
 * Types print in their canonical String form (ty_to_string), so the output
 * depends only on the program, never on addresses or hash order. */
#include <stdbool.h>
#include <stdio.h>

#include "bind/bind.h"
#include "bind/bound.h"
#include "bind/dump_types.h"
#include "base/stack.h"
#include "base/util.h"

/* Writes two spaces per depth level. */
static void indent(FILE *out, int depth) {
  for (int i = 0; i < depth; i++) {
    fputs("  ", out);
  }
}

/* Returns the canonical form of t, or <error> for a node left untyped. */
static const char *tstr(const ty *t) {
  return t ? ty_to_string(t) : "<error>";
}

/* Prints `name: type` for an expression (or nothing when e is NULL). */
static void line(FILE *out, int depth, const char *name, const bnd_expr *e) {
  if (!e) {
    return;
  }
  indent(out, depth);
  fprintf(out, "%s: %s\n", name, tstr(e->type));
}

/* Prints one line per attribute: its value type and the type it converts to. */
static void attrs(FILE *out, int depth, const bnd_attrs *a) {
  for (size_t i = 0; i < a->count; i++) {
    indent(out, depth);
    fprintf(out, "%s: %s", a->items[i].name, tstr(a->items[i].value->type));
    /* The schema type the value is converted to (narrowed, plain). */
    const ty *to = a->items[i].value->target ? a->items[i].value->target : a->items[i].expected;
    if (to) {
      fprintf(out, " (to %s)", ty_to_string(to));
    }
    fputc('\n', out);
  }
}

/* Returns the dump name of a range shape. */
static const char *range_name(bnd_range_kind k) {
  switch (k) {
  case BND_RANGE_NONE:
    return "none";
  case BND_RANGE_BOOL:
    return "bool";
  case BND_RANGE_COUNT:
    return "count";
  case BND_RANGE_LIST:
    return "list";
  case BND_RANGE_MAP:
    return "map";
  }
  ice("bad range kind %d", (int)k);
}

/* Prints the range shape and variable, then every option that is set. */
static void options(FILE *out, int depth, const bnd_options *o, bnd_range_kind rk,
                    const bnd_var *rv) {
  if (rk != BND_RANGE_NONE) {
    indent(out, depth);
    fprintf(out, "range %s", range_name(rk));
    if (rv) {
      fprintf(out, ": %s", ty_to_string(rv->type));
    }
    fputc('\n', out);
  }
  if (!o->present) {
    return;
  }
  for (int i = 0; i < BND_OPT_COUNT; i++) {
    const bnd_expr *e = o->opt[i];
    if (!e) {
      continue;
    }
    indent(out, depth);
    fprintf(out, "options.%s: %s", bnd_option_name((bnd_option)i), tstr(e->type));
    if (e->kind == BND_E_TUPLE) {
      /* Property paths print as the runtime renders them. */
      bool paths = e->tuple.count > 0;
      for (size_t k = 0; k < e->tuple.count; k++) {
        paths = paths && e->tuple.items[k]->kind == BND_E_PROPERTY;
      }
      if (paths) {
        fputs(" [", out);
        for (size_t k = 0; k < e->tuple.count; k++) {
          fprintf(out, "%s%s", k ? ", " : "", e->tuple.items[k]->property.path);
        }
        fputc(']', out);
      }
    }
    fputc('\n', out);
  }
}

/* Prints a node name, quoted when it is not an identifier (output labels
   may be any string). */
static void name(FILE *out, const char *s) {
  bool ident = *s != '\0' && !(*s >= '0' && *s <= '9');
  for (const char *p = s; *p && ident; p++) {
    ident = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            *p == '_' || *p == '-';
  }
  if (ident) {
    fputs(s, out);
    return;
  }
  fputc('"', out);
  for (const char *p = s; *p; p++) {
    if (*p == '"' || *p == '\\') {
      fputc('\\', out);
    }
    fputc(*p, out);
  }
  fputc('"', out);
}

/* Prints the node's dependencies in declaration order. */
static void deps(FILE *out, int depth, const bnd_node *n) {
  if (!n->ndeps) {
    return;
  }
  indent(out, depth);
  fputs("deps:", out);
  for (size_t i = 0; i < n->ndeps; i++) {
    fputc(' ', out);
    name(out, n->deps[i]->name);
  }
  fputc('\n', out);
}

/* Component programs nest inside their component's entry. */
static void program(FILE *out, int depth, const bnd_program *p, ty_ctx *types, diag_list *diags,
                    bool *too_deep);


/* Prints one node: its header line and the indented lines of its contents. */
static void node(FILE *out, int depth, const bnd_node *n, ty_ctx *types, diag_list *diags,
                 bool *too_deep) {
  indent(out, depth);
  fprintf(out, "%s ", bnd_node_kind_name(n->kind));
  name(out, n->name);
  switch (n->kind) {
  case BND_RESOURCE:
  case BND_READ:
    fprintf(out, " \"%s\"", n->resource.canonical ? n->resource.canonical : "");
    break;
  case BND_CONFIG:
    if (n->config.type_text) {
      fprintf(out, " \"%s\"", n->config.type_text);
    }
    break;
  case BND_OUTPUT:
    if (n->output.type_text) {
      fprintf(out, " \"%s\"", n->output.type_text);
    }
    break;
  case BND_COMPONENT:
    if (n->component.source) {
      fprintf(out, " \"%s\"", n->component.source);
    }
    break;
  case BND_HOOK:
    fprintf(out, " (%s)", n->hook.error_hook ? "error" : "resource");
    break;
  case BND_LOCAL:
  case BND_PULUMI:
    break;
  }
  fprintf(out, ": %s\n", tstr(n->type));
  if (n->logical_name != n->name) {
    indent(out, depth + 1);
    fprintf(out, "logical name: \"%s\"\n", n->logical_name);
  }
  switch (n->kind) {
  case BND_LOCAL:
    break;
  case BND_CONFIG:
    line(out, depth + 1, "default", n->config.default_);
    if (n->config.secret) {
      indent(out, depth + 1);
      fputs("secret\n", out);
    }
    if (n->config.nullable) {
      indent(out, depth + 1);
      fputs("nullable\n", out);
    }
    break;
  case BND_RESOURCE:
  case BND_READ:
    if (!n->resource.typed && !n->invalid) {
      indent(out, depth + 1);
      fputs("untyped\n", out);
    }
    attrs(out, depth + 1, &n->resource.inputs);
    options(out, depth + 1, &n->resource.options, n->resource.range, n->resource.range_var);
    break;
  case BND_COMPONENT:
    if (n->component.token) {
      indent(out, depth + 1);
      fprintf(out, "token: \"%s\"\n", n->component.token);
    }
    attrs(out, depth + 1, &n->component.inputs);
    options(out, depth + 1, &n->component.options, n->component.range,
            n->component.range_var);
    if (n->component.program) {
      indent(out, depth + 1);
      fputs("program:\n", out);
      program(out, depth + 2, n->component.program, types, diags, too_deep);
    }
    break;
  case BND_OUTPUT:
    line(out, depth + 1, "value", n->output.value);
    break;
  case BND_PULUMI:
    line(out, depth + 1, "requiredVersionRange", n->pulumi_version);
    break;
  case BND_HOOK:
    line(out, depth + 1, "command", n->hook.command);
    line(out, depth + 1, "onDryRun", n->hook.on_dry_run);
    line(out, depth + 1, "ignoreErrors", n->hook.ignore_errors);
    break;
  }
  deps(out, depth + 1, n);
}

/* Prints the packages, every node in declaration order, then the order; a
   type too deep to print is reported at its node. */
static void program(FILE *out, int depth, const bnd_program *p, ty_ctx *types, diag_list *diags,
                    bool *too_deep) {
  for (size_t i = 0; i < p->npackages; i++) {
    const bnd_package *pk = &p->packages[i];
    indent(out, depth);
    fprintf(out, "package %s", pk->name);
    if (pk->version) {
      fprintf(out, " %s", pk->version);
    }
    if (pk->param_name) {
      fprintf(out, " (parameterization %s %s)", pk->param_name,
              pk->param_version ? pk->param_version : "");
    }
    fputc('\n', out);
  }
  for (size_t i = 0; i < p->count; i++) {
    node(out, depth, p->nodes[i], types, diags, too_deep);
    if (ty_take_too_deep(types)) {
      stack_report_too_deep(too_deep, diags, p->nodes[i]->name_span);
    }
  }
  indent(out, depth);
  fputs("order:", out);
  for (size_t i = 0; i < p->count; i++) {
    fputc(' ', out);
    name(out, p->order[i]->name);
  }
  fputc('\n', out);
}

/* The top-level program starts at depth 0. */
bool dump_types(FILE *out, const bnd_program *p, ty_ctx *types, diag_list *diags) {
  bool too_deep = false;
  program(out, 0, p, types, diags, &too_deep);
  return !too_deep;
}
