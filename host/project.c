/* project: GenerateProject, GenerateProgram, GeneratePackage, Pack and
 * Link (project.h). */
#include "project.h"

#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build.h"
#include "pclc_diag.h"
#include "toolchain.h"

/* ---------------------------------------------------------- diagnostics */

static Pulumirpc__Codegen__Pos *new_pos(long line, long column) {
  Pulumirpc__Codegen__Pos *p = xmalloc(sizeof *p);
  pulumirpc__codegen__pos__init(p);
  p->line = line;
  p->column = column;
  return p;
}

/* Turns pclc's messages (pclc_diag.h) into diagnostics: the message as
   the summary, the source, caret and note lines as the detail.  Errors
   become warnings when demote is set. */
static void diags_from_pclc(const char *text, bool demote, diag_list *out) {
  pdiag_list l = {0};
  pdiag_parse(text, &l);
  for (size_t i = 0; i < l.n; i++) {
    const pdiag *p = &l.v[i];
    Pulumirpc__Codegen__Diagnostic *d = xmalloc(sizeof *d);
    pulumirpc__codegen__diagnostic__init(d);
    d->severity = p->warning || demote ? PULUMIRPC__CODEGEN__DIAGNOSTIC_SEVERITY__DIAG_WARNING
                                       : PULUMIRPC__CODEGEN__DIAGNOSTIC_SEVERITY__DIAG_ERROR;
    d->summary = xstrdup(p->message);
    d->detail = xstrdup(p->detail);
    if (p->file) {
      Pulumirpc__Codegen__Range *r = xmalloc(sizeof *r);
      pulumirpc__codegen__range__init(r);
      r->filename = xstrdup(p->file);
      r->start = new_pos(p->line, p->col);
      r->end = new_pos(p->line, p->col);
      d->subject = r;
    }
    PCL__GROW(out->v, out->cap, out->n + 1);
    out->v[out->n++] = d;
  }
  pdiag_free(&l);
}

void diags_free(diag_list *d) {
  for (size_t i = 0; i < d->n; i++) {
    pulumirpc__codegen__diagnostic__free_unpacked(d->v[i], NULL);
  }
  free(d->v);
  *d = (diag_list){0};
}

/* ----------------------------------------------------------- Pulumi.yaml */

/* True when s can be written as a plain YAML scalar that reads back as
   the same string. */
static bool plain_scalar(const char *s) {
  if (!*s || isspace((unsigned char)s[0]) || isspace((unsigned char)s[strlen(s) - 1])) {
    return false;
  }
  static const char *const special[] = {"true", "false", "null", "yes", "no", "on", "off", "~",
                                        "True", "False", "Null", "Yes", "No", "On", "Off"};
  for (size_t i = 0; i < sizeof special / sizeof special[0]; i++) {
    if (strcmp(s, special[i]) == 0) {
      return false;
    }
  }
  if (strchr("-?:,[]{}#&*!|>'\"%@`0123456789.+", s[0])) {
    return false;
  }
  for (const char *p = s; *p; p++) {
    if ((unsigned char)*p < 0x20 || *p == '#' || (*p == ':' && (p[1] == ' ' || !p[1]))) {
      return false;
    }
  }
  return true;
}

static void yaml_scalar(buf *b, json_t *v) {
  if (json_is_string(v) && plain_scalar(json_string_value(v))) {
    pcl__buf_puts(b, json_string_value(v));
    return;
  }
  /* JSON's own form is a valid YAML flow scalar (double-quoted strings,
     numbers, booleans, null). */
  char *t = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
  pcl__buf_puts(b, t);
  free(t);
}

static void yaml_value(buf *b, json_t *v, int indent);

/* Writes an object's members as block mappings, keys in the order given. */
static void yaml_object(buf *b, json_t *obj, int indent) {
  const char *key;
  json_t *v;
  json_object_foreach(obj, key, v) {
    pcl__buf_printf(b, "%*s", indent, "");
    json_t *k = json_string(key);
    yaml_scalar(b, k);
    json_decref(k);
    pcl__buf_puts(b, ":");
    yaml_value(b, v, indent);
  }
}

/* Writes v after a key or a dash, as a scalar on the same line or a block
   on the next ones. */
static void yaml_value(buf *b, json_t *v, int indent) {
  if (json_is_object(v) && json_object_size(v) > 0) {
    pcl__buf_puts(b, "\n");
    yaml_object(b, v, indent + 2);
  } else if (json_is_array(v) && json_array_size(v) > 0) {
    pcl__buf_puts(b, "\n");
    size_t i;
    json_t *item;
    json_array_foreach(v, i, item) {
      pcl__buf_printf(b, "%*s-", indent + 2, "");
      yaml_value(b, item, indent + 2);
    }
  } else if (json_is_object(v)) {
    pcl__buf_puts(b, " {}\n");
  } else if (json_is_array(v)) {
    pcl__buf_puts(b, " []\n");
  } else {
    pcl__buf_puts(b, " ");
    yaml_scalar(b, v);
    pcl__buf_puts(b, "\n");
  }
}

/* ---------------------------------------------------------- projects */

/* Copies the tree src into dst, leaving out a top-level Pulumi.yaml. */
static bool copy_tree(const char *src, const char *dst, bool top, herr *e) {
  char **names;
  size_t count;
  if (!dir_make(dst, e) || !dir_list(src, &names, &count, e)) {
    return false;
  }
  bool ok = true;
  for (size_t i = 0; i < count; i++) {
    char *s = path_join(src, names[i]);
    char *d = path_join(dst, names[i]);
    if (ok && !(top && strcmp(names[i], "Pulumi.yaml") == 0)) {
      ok = is_dir(s) ? copy_tree(s, d, false, e) : file_copy(s, d, e);
    }
    free(s);
    free(d);
    free(names[i]);
  }
  free(names);
  return ok;
}

/* Checks the program in dir with pclc; its messages go to out, and the
   names of the packages whose schemas it used to packages (when not
   NULL). */
static bool check(const char *dir, const char *loader, bool strict, proc_group *g, diag_list *out,
                  bool *has_errors, words *packages, herr *e) {
  const toolchain *tc;
  if (!toolchain_get(g, &tc, e)) {
    return false;
  }
  buf text = {0};
  build_status st = build_check(tc, g, dir, loader, packages, &text, e);
  if (st == BUILD_FAILED) {
    pcl__buf_free(&text);
    return false;
  }
  diags_from_pclc(buf_str(&text), !strict, out);
  *has_errors = st == BUILD_PROGRAM_ERROR && strict;
  pcl__buf_free(&text);
  return true;
}

/* True when name is one of the words of w. */
static bool among(const words *w, const char *name) {
  for (size_t i = 0; i < w->n; i++) {
    if (strcmp(w->v[i], name) == 0) {
      return true;
    }
  }
  return false;
}

bool project_generate(const Pulumirpc__GenerateProjectRequest *req, proc_group *g, diag_list *out,
                      herr *e) {
  bool has_errors = false;
  words used = {0};
  bool checked =
      check(req->source_directory, req->loader_target, req->strict, g, out, &has_errors, &used, e);
  if (!checked || has_errors) {
    /* A program with errors gets its diagnostics and no project. */
    words_free(&used);
    return checked;
  }
  json_error_t je;
  json_t *proj = json_loads(req->project, 0, &je);
  if (!json_is_object(proj)) {
    json_decref(proj);
    return herr_set(e, "the project is not a JSON object: %s", je.text);
  }
  json_t *runtime = json_object_get(proj, "runtime");
  if (json_is_object(runtime)) {
    json_object_set_new(runtime, "name", json_string("pclc"));
  } else {
    json_object_set_new(proj, "runtime", json_string("pclc"));
  }
  json_t *main = json_object_get(proj, "main");
  char *dir = json_is_string(main) && *json_string_value(main)
                  ? path_join(req->target_directory, json_string_value(main))
                  : xstrdup(req->target_directory);
  buf yaml = {0};
  yaml_object(&yaml, proj, 0);
  json_decref(proj);
  char *file = path_join(req->target_directory, "Pulumi.yaml");
  bool ok = dir_make(req->target_directory, e) &&
            file_write(file, yaml.data, yaml.len, 0644, e) &&
            copy_tree(req->source_directory, dir, true, e);
  /* A local dependency goes with the project when the program uses the
     package: its own or those whose types their schemas borrow. */
  for (size_t i = 0; ok && i < req->n_local_dependencies; i++) {
    const char *name = req->local_dependencies[i]->key;
    if (!among(&used, name)) {
      continue;
    }
    char *base = pcl__format("%s.pp", name);
    char *dst = path_join(dir, base);
    ok = file_copy(req->local_dependencies[i]->value, dst, e);
    free(dst);
    free(base);
  }
  words_free(&used);
  pcl__buf_free(&yaml);
  free(file);
  free(dir);
  return ok;
}

bool program_generate(const Pulumirpc__GenerateProgramRequest *req, proc_group *g,
                      Pulumirpc__GenerateProgramResponse *resp, diag_list *diags, herr *e) {
  char tmpl[] = "/tmp/pulumi-language-pclc-XXXXXX";
  if (!mkdtemp(tmpl)) {
    return herr_set(e, "cannot create a temporary directory: %s", strerror(errno));
  }
  bool ok = true;
  for (size_t i = 0; ok && i < req->n_source; i++) {
    const char *name = req->source[i]->key;
    if (name[0] == '/' || strstr(name, "..")) {
      ok = herr_set(e, "the program's file name %s leaves the program's directory", name);
      break;
    }
    char *path = path_join(tmpl, name);
    char *parent = path_dir(path);
    ok = dir_make(parent, e) &&
         file_write(path, req->source[i]->value, strlen(req->source[i]->value), 0644, e);
    free(parent);
    free(path);
  }
  bool has_errors = false;
  ok = ok && check(tmpl, req->loader_target, req->strict, g, diags, &has_errors, NULL, e);
  if (ok && !has_errors) {
    resp->n_source = req->n_source;
    resp->source = xcalloc(req->n_source, sizeof *resp->source);
    for (size_t i = 0; i < req->n_source; i++) {
      Pulumirpc__GenerateProgramResponse__SourceEntry *s = xmalloc(sizeof *s);
      pulumirpc__generate_program_response__source_entry__init(s);
      s->key = req->source[i]->key;
      s->value.data = (uint8_t *)req->source[i]->value;
      s->value.len = strlen(req->source[i]->value);
      resp->source[i] = s;
    }
  }
  herr ignore = {0};
  dir_remove(tmpl, &ignore);
  herr_clear(&ignore);
  return ok;
}

/* ---------------------------------------------------------- packages */

/* Appends `  key = "value"` with the value quoted as an HCL string. */
static void hcl_attr(buf *b, int indent, const char *key, const char *value) {
  pcl__buf_printf(b, "%*s%s = \"", indent, "", key);
  for (const char *p = value; *p; p++) {
    if (*p == '"' || *p == '\\') {
      pcl__buf_printf(b, "\\%c", *p);
    } else if (*p == '\n') {
      pcl__buf_puts(b, "\\n");
    } else if (*p == '$' && p[1] == '{') {
      pcl__buf_puts(b, "$$");
    } else if (*p == '%' && p[1] == '{') {
      pcl__buf_puts(b, "%%");
    } else {
      pcl__buf_append(b, p, 1);
    }
  }
  pcl__buf_puts(b, "\"\n");
}

static const char *jtext(json_t *obj, const char *key) {
  json_t *v = json_object_get(obj, key);
  return json_is_string(v) ? json_string_value(v) : NULL;
}

bool package_generate(const Pulumirpc__GeneratePackageRequest *req, herr *e) {
  if (req->n_extra_files > 0) {
    return herr_set(e, "a pclc package is one package block: it takes no extra files");
  }
  json_error_t je;
  json_t *s = json_loads(req->schema, 0, &je);
  const char *name = s ? jtext(s, "name") : NULL;
  if (!name || !*name) {
    json_decref(s);
    return herr_set(e, "the schema is not a package schema: %s", s ? "it has no name" : je.text);
  }
  const char *version = jtext(s, "version");
  json_t *param = json_object_get(s, "parameterization");
  if (!json_is_object(param)) {
    param = json_object_get(s, "extensionParameterization");
  }
  json_t *base = json_is_object(param) ? json_object_get(param, "baseProvider") : NULL;
  if (param && (!json_is_object(base) || !jtext(base, "name") || !version)) {
    json_decref(s);
    return herr_set(e, "the parameterized package %s needs a version and a base provider", name);
  }
  buf b = {0};
  pcl__buf_puts(&b, "package {\n");
  hcl_attr(&b, 2, "baseProviderName", base ? jtext(base, "name") : name);
  const char *base_version = base ? jtext(base, "version") : version;
  if (base_version) {
    hcl_attr(&b, 2, "baseProviderVersion", base_version);
  }
  const char *url = jtext(s, "pluginDownloadURL");
  if (url && *url) {
    hcl_attr(&b, 2, "baseProviderDownloadUrl", url);
  }
  if (base) {
    pcl__buf_puts(&b, "  parameterization {\n");
    hcl_attr(&b, 4, "name", name);
    hcl_attr(&b, 4, "version", version);
    const char *value = jtext(param, "parameter");
    hcl_attr(&b, 4, "value", value ? value : "");
    pcl__buf_puts(&b, "  }\n");
  }
  pcl__buf_puts(&b, "}\n");
  char *file = version ? pcl__format("%s-%s.pp", name, version) : pcl__format("%s.pp", name);
  char *path = path_join(req->directory, file);
  bool ok = dir_make(req->directory, e) && file_write(path, b.data, b.len, 0644, e);
  free(path);
  free(file);
  pcl__buf_free(&b);
  json_decref(s);
  return ok;
}

/* Returns the one .pp file of a package directory (heap path). */
static char *package_file(const char *dir, herr *e) {
  char **names;
  size_t count;
  if (!dir_list(dir, &names, &count, e)) {
    return NULL;
  }
  char *found = NULL;
  size_t n = 0;
  for (size_t i = 0; i < count; i++) {
    size_t len = strlen(names[i]);
    if (len > 3 && strcmp(names[i] + len - 3, ".pp") == 0) {
      n++;
      if (!found) {
        found = path_join(dir, names[i]);
      }
    }
    free(names[i]);
  }
  free(names);
  if (n != 1) {
    herr_set(e, "a pclc package directory holds one .pp file; %s holds %zu", dir, n);
    free(found);
    return NULL;
  }
  return found;
}

bool package_pack(const Pulumirpc__PackRequest *req, char **artifact, herr *e) {
  char *src = package_file(req->package_directory, e);
  if (!src) {
    return false;
  }
  const char *slash = strrchr(src, '/');
  char *dst = path_join(req->destination_directory, slash ? slash + 1 : src);
  bool ok = dir_make(req->destination_directory, e) && file_copy(src, dst, e);
  free(src);
  if (!ok) {
    free(dst);
    return false;
  }
  *artifact = dst;
  return true;
}

bool package_link(const Pulumirpc__LinkRequest *req, char **instructions, herr *e) {
  if (!req->info || !*req->info->program_directory) {
    return herr_set(e, "Link needs the program's directory");
  }
  buf text = {0};
  for (size_t i = 0; i < req->n_packages; i++) {
    const Pulumirpc__LinkRequest__LinkDependency *d = req->packages[i];
    const Pulumirpc__PackageDependency *p = d->package;
    const char *name = p && p->parameterization && *p->parameterization->name
                           ? p->parameterization->name
                       : p ? p->name
                           : "";
    if (!*name) {
      pcl__buf_free(&text);
      return herr_set(e, "a package to link has no name");
    }
    char *src = is_dir(d->path) ? package_file(d->path, e) : xstrdup(d->path);
    if (!src) {
      pcl__buf_free(&text);
      return false;
    }
    char *base = pcl__format("%s.pp", name);
    char *dst = path_join(req->info->program_directory, base);
    bool ok = file_copy(src, dst, e);
    free(src);
    free(dst);
    if (!ok) {
      free(base);
      pcl__buf_free(&text);
      return false;
    }
    pcl__buf_printf(&text,
                    "The package block of %s is in %s: the program's resources and invokes of "
                    "package %s (such as `resource \"r\" \"%s:index:Resource\" {}`) use it.\n",
                    name, base, name, name);
    free(base);
  }
  *instructions = pcl__buf_take(&text);
  return true;
}
