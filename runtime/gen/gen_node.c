/* gen_node.c: the node operations of generated code (pcl_gen.h,
 * "generated code", "Nodes"): config values and their defaults, outputs,
 * resource registrations and reads, component instances, ranged nodes and
 * the pulumi block.
 *
 * A node operation returns the node's value at once; a registration's value
 * is an EVENTUAL of the resource object that the engine completes later.
 * Inside a component instance (a frame with a prefix) children are named
 * "<instance>-<child>" and parented to the component, config variables
 * read the component's inputs and outputs are collected for the
 * component's own registration of outputs (program.md 5). */
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "gen/gen_internal.h"

/* ----------------------------------------------------------------- config */

pcl_value *pcl_gen_config(pcl_gen_env *e, uint32_t config, const pcl_value *name) {
  const pcl_gen_frame *f = e->f;
  if (f->prefix == NULL) {
    return pcl_run_config(f->run, config);
  }
  pcl_value *v = f->inputs != NULL ? pcl_map_get(f->inputs, pcl_str_data(name), pcl_str_len(name))
                                   : NULL;
  return pcl_retain(v);
}

pcl_value *pcl_gen_config_default(bool secret, pcl_value *value) {
  if (!secret) {
    return value;
  }
  pcl_value *s = pcl_gen_secret(value);
  pcl_release(value);
  return s;
}

/* ---------------------------------------------------------------- outputs */

pcl_value *pcl_gen_output(pcl_gen_env *e, const pcl_value *name, pcl_value *value) {
  pcl_gen_frame *f = e->f;
  if (f->prefix == NULL) {
    pcl_export(f->run, pcl_str_data(name), value);
  } else {
    pcl_mapbuf_put_take(&f->outputs, pcl_retain((pcl_value *)name), pcl_retain(value));
  }
  return pcl_retain(value);
}

/* ---------------------------------------------------------- registrations */

pcl_value *pcl__gen_with_parent(const pcl_gen_frame *f, pcl_value *opts) {
  if (f->parent == NULL || (opts != NULL && (pcl_kind_of(opts) != PCL_T_MAP ||
                                             pcl_map_get_cstr(opts, "parent") != NULL))) {
    return opts;
  }
  pcl_mapbuf b = PCL_MAPBUF_INIT;
  for (size_t i = 0; opts != NULL && i < pcl_len(opts); i++) {
    pcl_mapbuf_put_take(&b, pcl_retain(pcl_map_key_at(opts, i)),
                        pcl_retain(pcl_map_val_at(opts, i)));
  }
  pcl_mapbuf_put_cstr(&b, "parent", pcl_retain(f->parent));
  pcl_release(opts);
  return pcl_mapbuf_finish(&b);
}

/* Returns the inputs map v (borrowed) without its entries that are plainly
 * null (owned): an input set to null is not sent, as the reference drops
 * them. */
static pcl_value *drop_nulls(pcl_value *v) {
  size_t n = pcl_kind_of(v) == PCL_T_MAP ? pcl_len(v) : 0, keep = 0;
  for (size_t i = 0; i < n; i++) {
    keep += pcl_kind_of(pcl_map_val_at(v, i)) != PCL_T_NULL;
  }
  if (keep == n) {
    return pcl_retain(v);
  }
  pcl_mapbuf b = PCL_MAPBUF_INIT;
  for (size_t i = 0; i < n; i++) {
    if (pcl_kind_of(pcl_map_val_at(v, i)) != PCL_T_NULL) {
      pcl_mapbuf_put_take(&b, pcl_retain(pcl_map_key_at(v, i)), pcl_retain(pcl_map_val_at(v, i)));
    }
  }
  return pcl_mapbuf_finish(&b);
}

/* An output of a component as the component's object holds it. */
typedef struct comp_output {
  pcl_future *result; /* The output as the object holds it (owned). */
  pcl_deps *deps;     /* The component's URN (owned). */
} comp_output;

static void comp_output_done(pcl_future *out, void *data) {
  comp_output *c = data;
  if (pcl_future_state_of(out) == PCL_FUTURE_REJECTED) {
    pcl_future_reject(c->result, pcl_future_error(out));
  } else {
    pcl_future_resolve(c->result, pcl_future_value(out), pcl_future_bits(out), c->deps);
  }
  pcl_future_release(c->result);
  pcl_deps_release(c->deps);
  free(c);
}

/* Returns output v (borrowed) of a component as the component's object
 * holds it (an owned EVENTUAL): its value and secrecy, depending on the
 * component only (deps, borrowed; program.md 5). */
static pcl_value *component_output(const pcl_deps *deps, pcl_value *v) {
  pcl_future *out = pcl_value_future(v);
  if (out == NULL) {
    pcl_future *known = pcl_future_resolved(PCL_OUTPUT, v, 0, deps);
    pcl_value *held = pcl_future_to_value(known);
    pcl_future_release(known);
    return held;
  }
  comp_output *c = pcl_xmalloc(sizeof *c);
  c->result = pcl_future_new(pcl_future_kind_of(out), pcl_future_label(out));
  c->deps = pcl_deps_retain(deps);
  pcl_value *held = pcl_future_to_value(c->result);
  pcl_future_then(out, comp_output_done, c);
  return held;
}

/* An apply callback: the field named data (a NUL-terminated string) of the
 * registration object args[0]. */
static pcl_value *object_field(pcl_value *const *args, size_t n, void *data, pcl_error **err) {
  (void)n;
  (void)err;
  pcl_value *v = pcl_kind_of(args[0]) == PCL_T_MAP ? pcl_map_get_cstr(args[0], data) : NULL;
  return pcl_retain(v ? v : pcl_null());
}

/* What merge_outputs needs. */
typedef struct comp_merge {
  pcl_future *component; /* The component's registration (owned). */
  pcl_value *outputs;    /* Its outputs (owned MAP). */
} comp_merge;

static void comp_merge_free(void *data) {
  comp_merge *c = data;
  pcl_future_release(c->component);
  pcl_release(c->outputs);
  free(c);
}

/* An apply callback: the registration object args[0] with the outputs of
 * data (a comp_merge) added, depending on the component. */
static pcl_value *merge_outputs(pcl_value *const *args, size_t n, void *data, pcl_error **err) {
  (void)n;
  (void)err;
  comp_merge *c = data;
  pcl_mapbuf b = PCL_MAPBUF_INIT;
  for (size_t i = 0; pcl_kind_of(args[0]) == PCL_T_MAP && i < pcl_len(args[0]); i++) {
    pcl_mapbuf_put_take(&b, pcl_retain(pcl_map_key_at(args[0], i)),
                        pcl_retain(pcl_map_val_at(args[0], i)));
  }
  for (size_t i = 0; i < pcl_len(c->outputs); i++) {
    pcl_mapbuf_put_take(&b, pcl_retain(pcl_map_key_at(c->outputs, i)),
                        component_output(pcl_future_deps(c->component),
                                         pcl_map_val_at(c->outputs, i)));
  }
  return pcl_mapbuf_finish(&b);
}

/* Returns the value of a component instance (owned) whose registration is
 * the future component, outputs its outputs (borrowed MAP), name its full
 * name and urn its URN, or NULL when it is known only once the engine
 * answers.  With the URN the value is the object at once: its urn, id,
 * __name and __type and each output settle on their own, so components may
 * read each other's outputs (program.md 10.4) as long as no output depends
 * on itself.  Without it, the object is known once the component is
 * registered. */
static pcl_value *component_object(pcl_future *component, pcl_value *outputs,
                                   const pcl_resource_decl *decl, const char *name,
                                   const char *urn) {
  if (urn == NULL) {
    comp_merge *c = pcl_xmalloc(sizeof *c);
    c->component = pcl_future_retain(component);
    c->outputs = pcl_retain(outputs);
    return pcl__gen_future_value_take(
        pcl_apply(&component, 1, merge_outputs, c, comp_merge_free, 0));
  }
  pcl_deps *deps = pcl_deps_one(urn);
  pcl_mapbuf b = PCL_MAPBUF_INIT;
  static char id[] = "id";
  pcl_mapbuf_put_cstr(&b, "urn", pcl__str_fast(urn));
  pcl_mapbuf_put_cstr(&b, "id",
                      pcl__gen_future_value_take(pcl_apply(&component, 1, object_field, id, NULL, 0)));
  pcl_mapbuf_put_cstr(&b, "__name", pcl__str_fast(name));
  pcl_mapbuf_put_cstr(&b, "__type", pcl__str_fast(decl->type));
  for (size_t i = 0; i < pcl_len(outputs); i++) {
    pcl_mapbuf_put_take(&b, pcl_retain(pcl_map_key_at(outputs, i)),
                        component_output(deps, pcl_map_val_at(outputs, i)));
  }
  pcl_deps_release(deps);
  return pcl_mapbuf_finish(&b);
}

/* Returns the URN the engine gives the component name of decl registered
 * in frame f with the options options (borrowed, as the program wrote
 * them), made the same way, or NULL when an explicit parent makes it known
 * only once that parent is (owned). */
static char *component_urn(const pcl_gen_frame *f, const pcl_resource_decl *decl,
                           const char *name, const pcl_value *options) {
  if ((options != NULL && pcl_kind_of(options) == PCL_T_MAP &&
       pcl_map_get_cstr(options, "parent") != NULL) ||
      (f->prefix != NULL && f->urn == NULL)) {
    return NULL;
  }
  pcl_value *stack = pcl_run_stack(f->run), *project = pcl_run_project(f->run);
  char *urn = pcl_urn_make(pcl_str_data(stack), pcl_str_data(project), f->urn, decl->type, name);
  pcl_release(stack);
  pcl_release(project);
  return urn;
}

/* Returns the inputs in (borrowed MAP) without those named in deferred (a
 * LIST of STRINGs, or NULL), owned: what a component registers when some of
 * its inputs read components evaluated after it (program.md 10.4). */
static pcl_value *without_deferred(pcl_value *in, const pcl_value *deferred) {
  if (deferred == NULL || pcl_kind_of(in) != PCL_T_MAP) {
    return pcl_retain(in);
  }
  pcl_mapbuf b = PCL_MAPBUF_INIT;
  for (size_t i = 0; i < pcl_len(in); i++) {
    pcl_value *k = pcl_map_key_at(in, i);
    bool held = false;
    for (size_t j = 0; j < pcl_len(deferred) && !held; j++) {
      held = pcl_equal(k, pcl_list_at(deferred, j));
    }
    if (!held) {
      pcl_mapbuf_put_take(&b, pcl_retain(k), pcl_retain(pcl_map_val_at(in, i)));
    }
  }
  return pcl_mapbuf_finish(&b);
}

/* Registers the resource name of decl in e's frame: a read when id is not
 * NULL, a component instance running module m when m is not NULL (whose
 * registration leaves out the inputs named in deferred, a LIST or NULL),
 * else a plain registration.  Returns the resource's value (owned). */
static pcl_value *registration(pcl_gen_env *e, const pcl_resource_decl *shared,
                               const pcl_value *name, pcl_value *id, pcl_value *inputs,
                               const pcl_value *deferred, pcl_value *options, uint32_t loc,
                               const pcl_gen_module *m) {
  pcl_gen_frame *f = e->f;
  /* The declarations generated code shares between resources of one type
     carry no location: the block's is added here (the run copies it). */
  pcl_resource_decl d = *shared;
  d.file = pcl__gen_loc_where(f->prog, loc, &d.line, &d.column);
  const pcl_resource_decl *decl = &d;
  /* The full name: the name itself outside a component instance. */
  pcl_strbuf prefixed = PCL_STRBUF_INIT;
  const char *full = pcl_str_data(name);
  if (f->prefix != NULL) {
    pcl_strbuf_append_cstr(&prefixed, f->prefix);
    pcl_strbuf_append(&prefixed, pcl_str_data(name), pcl_str_len(name));
    full = prefixed.data;
  }
  pcl_value *in = drop_nulls(inputs);
  pcl_value *opts = pcl__gen_with_parent(f, pcl_retain(options));
  pcl_value *r;
  /* Inputs or options that failed (their captured scope's failure) fail
   * the resource with their own error, as a future that rejects later
   * would. */
  const pcl_error *failed = pcl__gen_failure(in);
  if (failed == NULL && opts != NULL) {
    failed = pcl__gen_failure(opts);
  }
  if (failed != NULL) {
    pcl_future *fail = pcl_future_rejected(failed);
    r = pcl__gen_future_value_take(fail);
  } else if (pcl_kind_of(in) != PCL_T_MAP ||
             (opts != NULL && pcl_kind_of(opts) != PCL_T_MAP)) {
    pcl_error *err = pcl_error_new("the inputs and options of %s must be objects", full);
    pcl_error_set_location(err, decl->file, decl->line, decl->column);
    pcl_future *fail = pcl_future_rejected(err);
    pcl_error_free(err);
    r = pcl__gen_future_value_take(fail);
  } else if (id != NULL) {
    r = pcl__gen_future_value_take(pcl_read_resource(f->run, decl, full, id, in, opts));
  } else if (m != NULL) {
    /* The component's children wait for its registration: it cannot wait
       for inputs that may need those children (the deferred ones), which
       reach the component's program all the same. */
    pcl_value *registered = without_deferred(in, deferred);
    pcl_value *comp =
        pcl__gen_future_value_take(pcl_register_resource(f->run, decl, full, registered, opts));
    pcl_release(registered);
    char *urn = component_urn(f, decl, full, options);
    pcl_strbuf child_prefix = PCL_STRBUF_INIT;
    pcl_strbuf_append_cstr(&child_prefix, full);
    pcl_strbuf_append_char(&child_prefix, '-');
    pcl_value *outs = pcl__gen_module_run(f->run, f->prog, m, child_prefix.data, comp, urn, in);
    pcl_strbuf_free(&child_prefix);
    /* The engine records the outputs once they are all known; a failure
       fails the run (resource.c). */
    pcl_future_release(pcl_register_component_outputs(f->run, pcl_value_future(comp), outs));
    r = component_object(pcl_value_future(comp), outs, decl, full, urn);
    free(urn);
    pcl_release(outs);
    pcl_release(comp);
  } else {
    r = pcl__gen_future_value_take(pcl_register_resource(f->run, decl, full, in, opts));
  }
  pcl_strbuf_free(&prefixed);
  pcl_release(in);
  pcl_release(opts);
  return r;
}

pcl_value *pcl_gen_register(pcl_gen_env *e, const pcl_resource_decl *decl,
                            const pcl_value *name, pcl_value *inputs, pcl_value *options,
                            uint32_t loc) {
  return registration(e, decl, name, NULL, inputs, NULL, options, loc, NULL);
}

pcl_value *pcl_gen_read(pcl_gen_env *e, const pcl_resource_decl *decl, const pcl_value *name,
                        pcl_value *id, pcl_value *inputs, pcl_value *options, uint32_t loc) {
  return registration(e, decl, name, id, inputs, NULL, options, loc, NULL);
}

pcl_value *pcl_gen_component(pcl_gen_env *e, const pcl_resource_decl *decl,
                             const pcl_value *name, pcl_value *inputs, pcl_value *options,
                             uint32_t loc, const pcl_gen_module *m) {
  return registration(e, decl, name, NULL, inputs, NULL, options, loc, m);
}

pcl_value *pcl_gen_component_deferred(pcl_gen_env *e, const pcl_resource_decl *decl,
                                      const pcl_value *name, pcl_value *inputs,
                                      const pcl_value *deferred, pcl_value *options,
                                      uint32_t loc, const pcl_gen_module *m) {
  return registration(e, decl, name, NULL, inputs, deferred, options, loc, m);
}

/* ----------------------------------------------------------------- ranges */

/* A ranged node: how its instances are made. */
typedef struct ranged {
  pcl_gen_frame *f;              /* The frame (owned reference). */
  pcl_value *name;               /* The node's logical name (owned STRING). */
  pcl_gen_instance_fn instance;  /* Makes one instance. */
  const uint32_t *r;             /* The instance function's row. */
  uint32_t loc;                  /* The location of the range's failures. */
} ranged;

static void ranged_free(void *data) {
  ranged *g = data;
  pcl__gen_frame_release(g->f);
  pcl_release(g->name);
  free(g);
}

/* Returns the instance of g whose range key is key (borrowed): named
 * "<name>-<key>" for an INT or STRING key, name itself for NULL, with
 * range (borrowed) bound to the `range` variable. */
static pcl_value *instance(const ranged *g, pcl_value *range, const pcl_value *key) {
  pcl_gen_env e = {0, g->f, g->r, 0};
  if (key == NULL) {
    return g->instance(&e, range, g->name);
  }
  pcl_strbuf b = PCL_STRBUF_INIT;
  pcl_strbuf_append(&b, pcl_str_data(g->name), pcl_str_len(g->name));
  pcl_strbuf_append_char(&b, '-');
  if (pcl_kind_of(key) == PCL_T_STRING) {
    pcl_strbuf_append(&b, pcl_str_data(key), pcl_str_len(key));
  } else {
    pcl_int_format(&b, key);
  }
  /* NFC strings joined by a hyphen, which composes with nothing, stay NFC. */
  pcl_value *name = pcl__str_raw(b.data, b.len, pcl__is_ascii(b.data, b.len));
  pcl_strbuf_free(&b);
  pcl_value *v = g->instance(&e, range, name);
  pcl_release(name);
  return v;
}

/* Returns the `range` object {key, value} (key NULL: {value}), owned. */
static pcl_value *range_object(pcl_value *key, pcl_value *value) {
  pcl_mapbuf b = PCL_MAPBUF_INIT;
  if (key != NULL) {
    pcl_mapbuf_put_cstr(&b, "key", pcl_retain(key));
  }
  pcl_mapbuf_put_cstr(&b, "value", pcl_retain(value));
  return pcl_mapbuf_finish(&b);
}

/* Makes the instances of g for the settled range value rv (program.md
 * 3.5).  Returns their values (owned), or NULL with *err for a range of
 * another kind or too many instances. */
static pcl_value *instances(const ranged *g, const pcl_value *rv, pcl_error **err) {
  pcl_kind k = pcl_kind_of(rv);
  switch (k) {
  case PCL_T_BOOL:
    return pcl_bool_get(rv) ? instance(g, pcl_null(), NULL) : pcl_null();
  case PCL_T_INT:
  case PCL_T_NUMBER: {
    double d = pcl_num_to_double(rv);
    if (d > (double)PCL_RANGE_MAX) {
      char *shown = pcl_value_repr(rv, 40);
      *err = pcl_error_new("the range of %s is too large: %s instances, at most %lld are allowed",
                           pcl_str_data(g->name), shown, (long long)PCL_RANGE_MAX);
      free(shown);
      return NULL;
    }
    size_t count = d > 0 ? (size_t)d : 0;
    pcl_value *out = pcl_list_new(count);
    for (size_t i = 0; i < count; i++) {
      pcl_value *iv = pcl_int_new((int64_t)i);
      pcl_value *range = range_object(NULL, iv);
      pcl_list_init_take(out, i, instance(g, range, iv));
      pcl_release(range);
      pcl_release(iv);
    }
    return out;
  }
  case PCL_T_LIST:
  case PCL_T_SET:
  case PCL_T_MAP: {
    size_t count = pcl_len(rv);
    pcl_value *out = k == PCL_T_MAP ? NULL : pcl_list_new(count);
    pcl_mapbuf mb = PCL_MAPBUF_INIT;
    for (size_t i = 0; i < count; i++) {
      pcl_value *key = k == PCL_T_MAP ? pcl_retain(pcl_map_key_at(rv, i)) : pcl_int_new((int64_t)i);
      pcl_value *val = k == PCL_T_MAP ? pcl_map_val_at(rv, i) : pcl_list_at(rv, i);
      pcl_value *range = range_object(key, val);
      pcl_value *v = instance(g, range, key);
      if (k == PCL_T_MAP) {
        pcl_mapbuf_put_take(&mb, pcl_retain(key), v);
      } else {
        pcl_list_init_take(out, i, v);
      }
      pcl_release(range);
      pcl_release(key);
    }
    return k == PCL_T_MAP ? pcl_mapbuf_finish(&mb) : out;
  }
  case PCL_T_NULL:
  case PCL_T_STRING:
  case PCL_T_RESOURCE:
  case PCL_T_ASSET:
  case PCL_T_ARCHIVE:
  case PCL_T_UNKNOWN:
  case PCL_T_SECRET:
  case PCL_T_EVENTUAL:
    break;
  }
  *err = pcl_error_new("a value of type %s cannot be the range of %s: a bool, a number, a list "
                       "or a map is required",
                       pcl_kind_name(k), pcl_str_data(g->name));
  return NULL;
}

/* Makes the instances once the range value settled. */
static pcl_value *range_cb(pcl_value *const *args, size_t n, void *data, pcl_error **err) {
  const ranged *g = data;
  (void)n;
  pcl_value *r = instances(g, args[0], err);
  if (r == NULL) {
    pcl__gen_locate(g->f->prog, *err, g->loc);
  }
  return r;
}

pcl_value *pcl_gen_range(pcl_gen_env *e, pcl_value *range, const pcl_value *name,
                         pcl_gen_instance_fn instance_fn, const uint32_t *r, uint32_t loc) {
  ranged g = {e->f, (pcl_value *)name, instance_fn, r, loc};
  if (!pcl__gen_unsettled(range)) {
    pcl_error *err = NULL;
    pcl_value *v = instances(&g, range, &err);
    return v != NULL ? v : pcl_gen_failed(e, err, loc);
  }
  ranged *w = pcl_xmalloc(sizeof *w);
  *w = g;
  pcl__gen_frame_retain(w->f);
  pcl_retain(w->name);
  pcl_future *rf = pcl_future_of_value(range);
  return pcl__gen_apply_take(&rf, 1, range_cb, w, ranged_free);
}

/* ------------------------------------------------------------- the pulumi block */

pcl_value *pcl_gen_pulumi(pcl_gen_env *e, pcl_value *range) {
  return pcl__gen_future_value_take(pcl_require_pulumi_version(e->f->run, range));
}
