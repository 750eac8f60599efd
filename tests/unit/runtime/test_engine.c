/* test_engine.c: the engine interface and the embedded engine: URNs with
 * parent type chains, asynchronous completion, default providers and their
 * names, explicit providers and inheritance from parents, components and
 * their outputs, reads, invokes, calls, stack references and recorded
 * options, checked in the snapshot a run writes. */
#include <CUnit/CUnit.h>

#include "engine/engine.h"
#include "run_check.h"

static void test_urns(void) {
  char *u = pcl_urn_make("test", "proj", NULL, "simple:index:Resource", "a");
  CU_ASSERT_STRING_EQUAL(u, "urn:pulumi:test::proj::simple:index:Resource::a");
  free(u);
  u = pcl_urn_make("test", "proj", "urn:pulumi:test::proj::pulumi:pulumi:Stack::proj-test",
                   "simple:index:Resource", "a");
  CU_ASSERT_STRING_EQUAL(u, "urn:pulumi:test::proj::simple:index:Resource::a");
  free(u);
  u = pcl_urn_make("test", "proj", "urn:pulumi:test::proj::components:index:My::c",
                   "simple:index:Resource", "c-res");
  CU_ASSERT_STRING_EQUAL(u, "urn:pulumi:test::proj::components:index:My$simple:index:Resource::c-res");
  free(u);
  u = pcl_urn_make("test", "proj", "urn:pulumi:test::proj::a:b:C$d:e:F::x", "g:h:I", "y");
  CU_ASSERT_STRING_EQUAL(u, "urn:pulumi:test::proj::a:b:C$d:e:F$g:h:I::y");
  free(u);
}

/* Completion of a direct engine request. */
static int completions;
static char last_urn[256];
static void reg_cb(void *data, const pcl_resource_result *res, const pcl_error *err) {
  (void)data;
  CU_ASSERT_PTR_NULL(err);
  completions++;
  if (res) {
    snprintf(last_urn, sizeof last_urn, "%s", res->urn);
  }
}

static int dup_errors;
static void dup_cb(void *data, const pcl_resource_result *res, const pcl_error *err) {
  (void)data;
  CU_ASSERT_PTR_NULL(res);
  CU_ASSERT_PTR_NOT_NULL_FATAL(err);
  CU_ASSERT_STRING_EQUAL(pcl_error_message(err),
                         "duplicate resource URN 'urn:pulumi:s::p::pkg:index:T::m'; try giving "
                         "it a unique name");
  dup_errors++;
}

static void test_direct_async(void) {
  pcl_embedded_config cfg = {"p", "s", NULL, false, NULL, NULL, NULL, NULL};
  pcl_error *err = NULL;
  pcl_engine *e = pcl_engine_embedded_new(&cfg, &err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(e);
  CU_ASSERT_STRING_EQUAL(e->ops->name, "embedded");
  pcl_value *inputs = pcl_map_of(NULL, NULL, 0);
  pcl_resource_request req = {.type = "pkg:index:T", .name = "n", .kind = PCL_RES_CUSTOM,
                              .version = "1.2.3-beta.1+build.7", .inputs = inputs};
  completions = 0;
  e->ops->register_resource(e, &req, reg_cb, NULL);
  req.name = "m";
  e->ops->register_resource(e, &req, reg_cb, NULL);
  CU_ASSERT_EQUAL(completions, 0); /* Both in flight, answered by the loop. */
  pcl_sched_run();
  CU_ASSERT_EQUAL(completions, 2);
  CU_ASSERT_STRING_EQUAL(last_urn, "urn:pulumi:s::p::pkg:index:T::m");
  /* A second registration of the same URN is refused. */
  dup_errors = 0;
  e->ops->register_resource(e, &req, dup_cb, NULL);
  pcl_sched_run();
  CU_ASSERT_EQUAL(dup_errors, 1);
  char *snap = pcl_engine_embedded_snapshot(e, NULL);
  CU_ASSERT_PTR_NOT_NULL(strstr(snap, "pulumi:providers:pkg::default_1_2_3_beta_1_build_7\""));
  /* One default provider serves both. */
  const char *first = strstr(snap, "\"type\": \"pulumi:providers:pkg\"");
  CU_ASSERT_PTR_NOT_NULL(first);
  CU_ASSERT_PTR_NULL(first ? strstr(first + 1, "\"type\": \"pulumi:providers:pkg\"") : NULL);
  free(snap);
  pcl_release(inputs);
  e->ops->destroy(e);
}

/* Returns the snapshot entry (borrowed from snap) of the resource whose
 * URN ends in "::name", or NULL. */
static pcl_value *find_res(pcl_value *snap, const char *name) {
  pcl_value *list = pcl_map_get_cstr(snap, "resources");
  size_t nl = strlen(name);
  for (size_t i = 0; list && i < pcl_len(list); i++) {
    pcl_value *r = pcl_list_at(list, i);
    pcl_value *urn = pcl_map_get_cstr(r, "urn");
    size_t ul = pcl_str_len(urn);
    if (ul > nl + 2 && strncmp(pcl_str_data(urn) + ul - nl - 2, "::", 2) == 0 &&
        strcmp(pcl_str_data(urn) + ul - nl, name) == 0) {
      return r;
    }
  }
  return NULL;
}

/* Returns the string at path a.b inside r ("" when absent or not a string). */
static const char *sget(pcl_value *r, const char *a, const char *b) {
  pcl_value *v = r ? pcl_map_get_cstr(r, a) : NULL;
  if (v && b) {
    v = pcl_kind_of(v) == PCL_T_MAP ? pcl_map_get_cstr(v, b) : NULL;
  }
  return v && pcl_kind_of(v) == PCL_T_STRING ? pcl_str_data(v) : "";
}

/* Returns the snapshot of the embedded engine e, decoded (owned). */
static pcl_value *engine_snapshot(pcl_engine *e) {
  char *text = pcl_engine_embedded_snapshot(e, NULL);
  pcl_error *err = NULL;
  pcl_value *snap = pcl_json_decode(text, strlen(text), 0, &err);
  free(text);
  CU_ASSERT_PTR_NOT_NULL_FATAL(snap);
  return snap;
}

static pcl_value *read_snapshot(const char *path) {
  char *text = rc_slurp(path);
  CU_ASSERT_PTR_NOT_NULL_FATAL(text);
  pcl_error *err = NULL;
  pcl_value *v = pcl_json_decode(text, strlen(text), 0, &err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(v);
  free(text);
  remove(path);
  return v;
}

static const pcl_resource_decl prov_decl = {"pulumi:providers:simple", PCL_RES_CUSTOM, "2.0.0",
                                            NULL, NULL, 0, 0};
static const pcl_resource_decl simple_decl = {"simple:index:Resource", PCL_RES_CUSTOM, "2.0.0",
                                              NULL, NULL, 0, 0};
static const pcl_resource_decl url_decl = {"simple:index:Resource", PCL_RES_CUSTOM, "27.0.0",
                                           "https://example.com/releases", NULL, 0, 0};
static const pcl_resource_decl comp_decl = {"components:index:MyComponent", PCL_RES_COMPONENT,
                                            NULL, NULL, NULL, 0, 0};
static const pcl_resource_decl remote_decl = {"component:index:ComponentCallable", PCL_RES_REMOTE,
                                              "13.3.7", NULL, NULL, 0, 0};
static const pcl_resource_decl read_decl = {"read:index:Resource", PCL_RES_CUSTOM, "39.0.0", NULL, NULL, 0, 0};
static const pcl_resource_decl ref_decl = {"pulumi:pulumi:StackReference", PCL_RES_CUSTOM, NULL,
                                           NULL, NULL, 0, 0};

/* Builds a MAP from alternating C-string keys and owned values, NULL-ended. */
static pcl_value *obj(const char *k, ...) {
  pcl_mapbuf mb = PCL_MAPBUF_INIT;
  va_list ap;
  va_start(ap, k);
  while (k) {
    pcl_mapbuf_put_cstr(&mb, k, va_arg(ap, pcl_value *));
    k = va_arg(ap, const char *);
  }
  va_end(ap);
  return pcl_mapbuf_finish(&mb);
}

static pcl_value *fv(pcl_future *f) { return pcl_future_to_value(f); }

/* Exports v, stealing it. */
static void export_take(pcl_run *run, const char *name, pcl_value *v) {
  pcl_export(run, name, v);
  pcl_release(v);
}

static void tour_start(pcl_run *run) {
  pcl_value *in = obj("value", pcl_bool(true), NULL);
  pcl_future *prov = pcl_register_resource(run, &prov_decl, "prov", NULL, NULL);
  pcl_value *o1 = obj("provider", fv(prov), "protect", pcl_bool(true), NULL);
  pcl_future *parent = pcl_register_resource(run, &simple_decl, "parent", in, o1);
  /* The child inherits the parent's provider and protect flag. */
  pcl_value *o2 = obj("parent", fv(parent), "retainOnDelete", pcl_bool(true), "ignoreChanges",
                      pcl_list_of_take((pcl_value *[]){pcl_str_from_cstr("value")}, 1),
                      "hideDiffs",
                      pcl_list_of_take((pcl_value *[]){pcl_str_from_cstr("tags[\"a.b\\\"c\"].x[10]"),
                                                       pcl_str_from_cstr("value")},
                                       2),
                      "additionalSecretOutputs",
                      pcl_list_of_take((pcl_value *[]){pcl_str_from_cstr("value")}, 1), "deletedWith",
                      fv(parent), NULL);
  pcl_future *child = pcl_register_resource(run, &simple_decl, "child", in, o2);
  pcl_future *withurl = pcl_register_resource(run, &url_decl, "withurl", in, NULL);
  /* A local component with a child and outputs. */
  pcl_future *comp = pcl_register_resource(run, &comp_decl, "comp", in, NULL);
  pcl_value *o3 = obj("parent", fv(comp), NULL);
  pcl_future *inner = pcl_register_resource(run, &simple_decl, "comp-res", in, o3);
  pcl_future *innerv = pcl_future_attr(inner, "value");
  pcl_value *couts = obj("output", fv(innerv), NULL);
  pcl_future *compdone = pcl_register_component_outputs(run, comp, couts);
  pcl_future *compout = pcl_future_attr(compdone, "output");
  export_take(run, "componentOutput", fv(compout));
  /* A component given a providers map passes it on to its children; a
   * list of providers works the same way. */
  pcl_value *pm = obj("providers", obj("simple", fv(prov), NULL), NULL);
  pcl_future *comp2 = pcl_register_resource(run, &comp_decl, "comp2", in, pm);
  pcl_value *o4 = obj("parent", fv(comp2), NULL);
  pcl_future *inner2 = pcl_register_resource(run, &simple_decl, "comp2-res", in, o4);
  pcl_value *pl = obj("providers", pcl_list_of_take((pcl_value *[]){fv(prov)}, 1), NULL);
  pcl_future *comp3 = pcl_register_resource(run, &comp_decl, "comp3", in, pl);
  pcl_value *o5 = obj("parent", fv(comp3), NULL);
  pcl_future *inner3 = pcl_register_resource(run, &simple_decl, "comp3-res", in, o5);
  pcl_value *more[] = {pm, o4, pl, o5};
  for (size_t i = 0; i < 4; i++) {
    pcl_release(more[i]);
  }
  pcl_future *mf[] = {comp2, inner2, comp3, inner3};
  for (size_t i = 0; i < 4; i++) {
    pcl_future_release(mf[i]);
  }
  /* A remote component, a read and a stack reference. */
  pcl_future *remote = pcl_register_resource(run, &remote_decl, "remote", in, NULL);
  pcl_value *id = pcl_str_from_cstr("existing-id");
  pcl_value *lookup = obj("lookup", pcl_str_from_cstr("key"), NULL);
  pcl_future *rd = pcl_read_resource(run, &read_decl, "rd", id, lookup, NULL);
  pcl_value *refin = obj("name", pcl_str_from_cstr("org/other/prod"), NULL);
  pcl_future *ref = pcl_register_resource(run, &ref_decl, "other", refin, NULL);
  pcl_future *refouts = pcl_future_attr(ref, "outputs");
  export_take(run, "refOutputs", fv(refouts));
  /* An invoke whose argument depends on a resource, and a call. */
  pcl_future *pv = pcl_future_attr(parent, "value");
  pcl_value *iargs = obj("value", fv(pv), NULL);
  pcl_value *iopts = obj("version", pcl_str_from_cstr("2.0.0"), NULL);
  pcl_future *inv = pcl_invoke(run, "simple:index:getThing", iargs, iopts);
  pcl_release(iopts);
  /* An invoke whose arguments are a future of an object works too. */
  pcl_future *argsf = pcl_future_resolved(PCL_OUTPUT, iargs, 0, NULL);
  pcl_value *argsv = fv(argsf);
  pcl_value *iopts2 = obj("version", pcl_str_from_cstr("2.0.0"), NULL);
  pcl_future *inv2 = pcl_invoke(run, "simple:index:getThing", argsv, iopts2);
  export_take(run, "invoked2", fv(inv2));
  pcl_future_release(inv2);
  pcl_future_release(argsf);
  pcl_release(argsv);
  pcl_release(iopts2);

  export_take(run, "invoked", fv(inv));
  pcl_value *self = fv(remote);
  pcl_value *cargs = obj("prefix", pcl_str_from_cstr("foo-"), NULL);
  pcl_future *call = pcl_call(run, "component:index:ComponentCallable/prefixed", self, cargs, NULL);
  export_take(run, "called", fv(call));
  pcl_future *rdv = pcl_future_attr(rd, "value");
  export_take(run, "readValue", fv(rdv));

  pcl_value *vals[] = {in, o1, o2, o3, couts, id, lookup, refin, iargs, self, cargs};
  for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
    pcl_release(vals[i]);
  }
  pcl_future *fs[] = {prov, parent, child, withurl, comp, inner, innerv, compdone, compout,
                      remote, rd, ref, refouts, pv, inv, call, rdv};
  for (size_t i = 0; i < sizeof fs / sizeof fs[0]; i++) {
    pcl_future_release(fs[i]);
  }
}

static const pcl_program tour = {"tour", NULL, 0, tour_start};

static const char tour_mocks[] =
    "{\"resources\": {\"read:index:Resource\": {\"outputs\": {\"value\": true}},\n"
    "                 \"component:index:ComponentCallable\": {\"outputs\": {\"value\": \"bar\"},"
    " \"merge\": false}},\n"
    " \"invokes\": {\"simple:index:getThing\": [{\"args\": {\"value\": false}, \"result\": {\"r\": 0}},\n"
    "                                        {\"args\": {\"value\": true}, \"result\": {\"r\": 1}}]},\n"
    " \"calls\": {\"component:index:ComponentCallable/prefixed\": {\"result\": {\"result\": \"foo-bar\"}}},\n"
    " \"stackReferences\": {\"org/other/prod\": {\"outputs\": {\"a\": 1, \"pw\": \"x\"},"
    " \"secretOutputNames\": [\"pw\"]}}}\n";

static void test_tour(void) {
  rc_write("tour-mocks.json", tour_mocks);
  rc_result r = rc_run(&tour, "--stack", "test", "--mocks", "tour-mocks.json", "--snapshot",
                       "tour.json", "--show-secrets", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_STRING_EQUAL(r.err, "");
  CU_ASSERT_STRING_EQUAL(r.out, "{\n"
                                "  \"called\": {\n"
                                "    \"result\": \"foo-bar\"\n"
                                "  },\n"
                                "  \"componentOutput\": true,\n"
                                "  \"invoked\": {\n"
                                "    \"r\": 1\n"
                                "  },\n"
                                "  \"invoked2\": {\n"
                                "    \"r\": 1\n"
                                "  },\n"
                                "  \"readValue\": true,\n"
                                "  \"refOutputs\": {\n"
                                "    \"a\": 1,\n"
                                "    \"pw\": {\n"
                                "      \"secret\": \"x\"\n"
                                "    }\n"
                                "  }\n"
                                "}\n");
  pcl_value *snap = read_snapshot("tour.json");
  const char *pfx = "urn:pulumi:test::tour::";
  char want[512];
  pcl_value *list = pcl_map_get_cstr(snap, "resources");
  CU_ASSERT_STRING_EQUAL(sget(pcl_list_at(list, 0), "type", NULL), "pulumi:pulumi:Stack");
  pcl_value *parent = find_res(snap, "parent");
  pcl_value *child = find_res(snap, "child");
  CU_ASSERT_PTR_NOT_NULL_FATAL(parent);
  CU_ASSERT_PTR_NOT_NULL_FATAL(child);
  snprintf(want, sizeof want, "%spulumi:providers:simple::prov::", pfx);
  CU_ASSERT_NSTRING_EQUAL(sget(parent, "provider", NULL), want, strlen(want));
  CU_ASSERT_NSTRING_EQUAL(sget(child, "provider", NULL), want, strlen(want));
  snprintf(want, sizeof want, "%ssimple:index:Resource$simple:index:Resource::child", pfx);
  CU_ASSERT_STRING_EQUAL(sget(child, "urn", NULL), want);
  snprintf(want, sizeof want, "%ssimple:index:Resource::parent", pfx);
  CU_ASSERT_STRING_EQUAL(sget(child, "parent", NULL), want);
  CU_ASSERT_STRING_EQUAL(sget(child, "options", "deletedWith"), want);
  pcl_value *copts = pcl_map_get_cstr(child, "options");
  CU_ASSERT(pcl_bool_get(pcl_map_get_cstr(copts, "protect")));
  CU_ASSERT(pcl_bool_get(pcl_map_get_cstr(copts, "retainOnDelete")));
  CU_ASSERT_EQUAL(pcl_len(pcl_map_get_cstr(copts, "ignoreChanges")), 1);
  /* hideDiffs are recorded as paths of segments. */
  pcl_value *hide = pcl_map_get_cstr(copts, "hideDiffs");
  pcl_error *herr = NULL;
  const char *hide_json = "[[\"tags\", \"a.b\\\"c\", \"x\", 10], [\"value\"]]";
  pcl_value *want_hide = pcl_json_decode(hide_json, strlen(hide_json), 0, &herr);
  CU_ASSERT_PTR_NOT_NULL_FATAL(want_hide);
  CU_ASSERT(hide && pcl_equal(hide, want_hide));
  pcl_release(want_hide);
  /* additionalSecretOutputs makes the output secret in the state. */
  pcl_value *couts = pcl_map_get_cstr(pcl_map_get_cstr(child, "outputs"), "value");
  CU_ASSERT(couts && pcl_map_get_cstr(couts, "secret"));
  /* The explicit provider got the version input. */
  CU_ASSERT_STRING_EQUAL(sget(find_res(snap, "prov"), "inputs", "version"), "2.0.0");
  /* A download URL makes its own default provider. */
  snprintf(want, sizeof want,
           "%spulumi:providers:simple::default_27_0_0_https_/example.com/releases::", pfx);
  CU_ASSERT_NSTRING_EQUAL(sget(find_res(snap, "withurl"), "provider", NULL), want, strlen(want));
  /* The component's child is parented to it and its URN chains the types. */
  snprintf(want, sizeof want, "%scomponents:index:MyComponent$simple:index:Resource::comp-res",
           pfx);
  CU_ASSERT_STRING_EQUAL(sget(find_res(snap, "comp-res"), "urn", NULL), want);
  pcl_value *comp = find_res(snap, "comp");
  CU_ASSERT_PTR_NOT_NULL_FATAL(comp);
  CU_ASSERT_FALSE(pcl_bool_get(pcl_map_get_cstr(comp, "custom")));
  CU_ASSERT_STRING_EQUAL(sget(comp, "provider", NULL), "");
  CU_ASSERT(pcl_bool_get(pcl_map_get_cstr(pcl_map_get_cstr(comp, "outputs"), "output")));
  snprintf(want, sizeof want, "%spulumi:providers:simple::prov::", pfx);
  CU_ASSERT_NSTRING_EQUAL(sget(find_res(snap, "comp2-res"), "provider", NULL), want, strlen(want));
  CU_ASSERT_NSTRING_EQUAL(sget(find_res(snap, "comp3-res"), "provider", NULL), want, strlen(want));
  /* The invokes used the default provider of their version: no other
   * simple provider was made. */
  size_t nsimple = 0;
  for (size_t i = 0; i < pcl_len(list); i++) {
    nsimple += strcmp(sget(pcl_list_at(list, i), "type", NULL), "pulumi:providers:simple") == 0;
  }
  CU_ASSERT_EQUAL(nsimple, 3);
  /* The remote component has a default provider; the read is external. */
  pcl_value *remote = find_res(snap, "remote");
  CU_ASSERT(pcl_bool_get(pcl_map_get_cstr(remote, "remote")));
  snprintf(want, sizeof want, "%spulumi:providers:component::default_13_3_7::", pfx);
  CU_ASSERT_NSTRING_EQUAL(sget(remote, "provider", NULL), want, strlen(want));
  pcl_value *rd = find_res(snap, "rd");
  CU_ASSERT(pcl_bool_get(pcl_map_get_cstr(pcl_map_get_cstr(rd, "options"), "external")));
  CU_ASSERT_STRING_EQUAL(sget(rd, "id", NULL), "existing-id");
  /* The stack reference (and the method call) use the builtin provider;
   * there is only one. */
  size_t nbuiltin = 0;
  for (size_t i = 0; i < pcl_len(list); i++) {
    nbuiltin += strcmp(sget(pcl_list_at(list, i), "type", NULL), "pulumi:providers:pulumi") == 0;
  }
  CU_ASSERT_EQUAL(nbuiltin, 1);
  snprintf(want, sizeof want, "%spulumi:providers:pulumi::default::", pfx);
  CU_ASSERT_NSTRING_EQUAL(sget(find_res(snap, "other"), "provider", NULL), want, strlen(want));
  pcl_release(snap);
  remove("tour-mocks.json");
  rc_free(&r);
}

/* Arguments that are not an object are an error naming the function. */
static void badargs_start(pcl_run *run) {
  pcl_value *notobj = pcl_str_from_cstr("hello");
  pcl_future *bad = pcl_invoke(run, "simple:index:getThing", notobj, NULL);
  pcl_future_release(bad);
  pcl_release(notobj);
}

static const pcl_program badargs = {"badargs", NULL, 0, badargs_start};

static void test_bad_invoke_args(void) {
  rc_result r = rc_run(&badargs, NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CU_ASSERT_STRING_EQUAL(r.err, "error: invoke of 'simple:index:getThing': the arguments must be "
                                "an object, not a string\n");
  rc_free(&r);
}

/* A method call brings in the builtin provider (hydration). */
static void caller_start(pcl_run *run) {
  pcl_future *res = pcl_register_resource(run, &simple_decl, "target", NULL, NULL);
  pcl_value *self = fv(res);
  pcl_future *c = pcl_call(run, "simple:index:Resource/m", self, NULL, NULL);
  export_take(run, "m", fv(c));
  pcl_release(self);
  pcl_future_release(res);
  pcl_future_release(c);
}

static const pcl_program caller = {"caller", NULL, 0, caller_start};

static void test_call_hydration(void) {
  rc_write("caller-mocks.json", "{\"calls\": {\"simple:index:Resource/m\": {\"result\": {}}}}");
  rc_result r = rc_run(&caller, "--mocks", "caller-mocks.json", "--snapshot", "caller.json", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  pcl_value *snap = read_snapshot("caller.json");
  pcl_value *list = pcl_map_get_cstr(snap, "resources");
  CU_ASSERT_EQUAL(pcl_len(list), 4); /* Stack, default simple provider, target, builtin. */
  CU_ASSERT_STRING_EQUAL(sget(pcl_list_at(list, 3), "type", NULL), "pulumi:providers:pulumi");
  pcl_release(snap);
  remove("caller-mocks.json");
  rc_free(&r);
}

/* Stack references served from --stack-reference files. */
static void stackref_start(pcl_run *run) {
  pcl_value *in = obj("name", pcl_str_from_cstr("acme/net/prod"), NULL);
  pcl_future *ref = pcl_register_resource(run, &ref_decl, "net", in, NULL);
  pcl_future *outs = pcl_future_attr(ref, "outputs");
  pcl_future *names = pcl_future_attr(ref, "secretOutputNames");
  export_take(run, "outputs", fv(outs));
  export_take(run, "secretNames", fv(names));
  pcl_release(in);
  pcl_future_release(ref);
  pcl_future_release(outs);
  pcl_future_release(names);
}

static const pcl_program stackref = {"stackref", NULL, 0, stackref_start};

static void test_stack_reference_flag(void) {
  rc_write("ref-plain.json", "{\"vpc\": \"vpc-1\", \"key\": {\"secret\": \"k\"}}");
  rc_result r = rc_run(&stackref, "--stack-reference", "acme/net/prod=ref-plain.json",
                       "--show-secrets", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_STRING_EQUAL(r.out, "{\n"
                                "  \"outputs\": {\n"
                                "    \"key\": {\n"
                                "      \"secret\": \"k\"\n"
                                "    },\n"
                                "    \"vpc\": \"vpc-1\"\n"
                                "  },\n"
                                "  \"secretNames\": [\n"
                                "    \"key\"\n"
                                "  ]\n"
                                "}\n");
  rc_free(&r);
  /* An unknown stack is an error naming it. */
  r = rc_run(&stackref, NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CU_ASSERT_STRING_EQUAL(r.err, "error: failed to register resource 'net' "
                                "(pulumi:pulumi:StackReference): unknown stack 'acme/net/prod' "
                                "(give it with --stack-reference)\n");
  rc_free(&r);
  remove("ref-plain.json");
}

/* Inputs and options that are not objects are errors naming the resource. */
static int bad_shape;
static void shapes_start(pcl_run *run) {
  pcl_value *str_v = pcl_str_from_cstr("oops");
  pcl_future *f = bad_shape == 0 ? pcl_register_resource(run, &simple_decl, "r", str_v, NULL)
                                 : pcl_register_resource(run, &simple_decl, "r", NULL, str_v);
  pcl_future_release(f);
  pcl_release(str_v);
}

static const pcl_program shapes = {"shapes", NULL, 0, shapes_start};

static void test_bad_shapes(void) {
  bad_shape = 0;
  rc_result r = rc_run(&shapes, NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CU_ASSERT_STRING_EQUAL(r.err, "error: failed to register resource 'r' (simple:index:Resource): "
                                "the inputs must be an object, not a string\n");
  rc_free(&r);
  bad_shape = 1;
  r = rc_run(&shapes, NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CU_ASSERT_STRING_EQUAL(r.err, "error: failed to register resource 'r' (simple:index:Resource): "
                                "the options must be an object, not a string\n");
  rc_free(&r);
}

/* A default provider takes its package's stack config as inputs; a
 * download URL is recorded under "__internal" in the inputs of default and
 * explicit providers, and never in their outputs. */
static void test_provider_config_and_url(void) {
  const char *cfg_json = "{\"pkg:name\": \"hello\", \"pkg:region\": {\"secret\": \"r1\"},"
                         " \"other:name\": \"no\", \"pkgx:name\": \"no\"}";
  pcl_error *err = NULL;
  pcl_value *config = pcl_json_decode(cfg_json, strlen(cfg_json), PCL_JSON_SNAPSHOT, &err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(config);
  pcl_embedded_config cfg = {"p", "s", NULL, false, NULL, NULL, NULL, config};
  pcl_engine *e = pcl_engine_embedded_new(&cfg, &err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(e);
  pcl_value *inputs = pcl_map_of(NULL, NULL, 0);
  pcl_resource_request req = {.type = "pkg:index:T", .name = "n", .kind = PCL_RES_CUSTOM,
                              .version = "1.0.0", .plugin_download_url = "http://example.com",
                              .inputs = inputs};
  e->ops->register_resource(e, &req, reg_cb, NULL);
  pcl_mapbuf pb = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_cstr(&pb, "pluginDownloadURL", pcl_str_from_cstr("a config value"));
  pcl_value *pinputs = pcl_mapbuf_finish(&pb);
  pcl_resource_request preq = {.type = "pulumi:providers:pkg", .name = "explicit",
                               .kind = PCL_RES_CUSTOM, .version = "1.0.0",
                               .plugin_download_url = "http://example.com", .inputs = pinputs};
  e->ops->register_resource(e, &preq, reg_cb, NULL);
  pcl_sched_run();
  pcl_value *snap = engine_snapshot(e);
  pcl_value *dp = find_res(snap, "default_1_0_0_http_/example.com");
  CU_ASSERT_PTR_NOT_NULL_FATAL(dp);
  CU_ASSERT_STRING_EQUAL(sget(dp, "inputs", "name"), "hello");
  CU_ASSERT_STRING_EQUAL(sget(dp, "inputs", "version"), "1.0.0");
  pcl_value *region = pcl_map_get_cstr(pcl_map_get_cstr(dp, "inputs"), "region");
  CU_ASSERT(region && pcl_kind_of(region) == PCL_T_MAP && pcl_map_get_cstr(region, "secret"));
  CU_ASSERT_EQUAL(pcl_len(pcl_map_get_cstr(dp, "inputs")), 4);
  CU_ASSERT_STRING_EQUAL(
      sget(pcl_map_get_cstr(dp, "inputs"), "__internal", "pluginDownloadURL"), "http://example.com");
  CU_ASSERT_PTR_NULL(pcl_map_get_cstr(pcl_map_get_cstr(dp, "outputs"), "__internal"));
  CU_ASSERT_STRING_EQUAL(sget(dp, "outputs", "name"), "hello");
  pcl_value *xp = find_res(snap, "explicit");
  CU_ASSERT_PTR_NOT_NULL_FATAL(xp);
  CU_ASSERT_STRING_EQUAL(sget(xp, "inputs", "pluginDownloadURL"), "a config value");
  CU_ASSERT_STRING_EQUAL(sget(xp, "inputs", "version"), "1.0.0");
  CU_ASSERT_STRING_EQUAL(
      sget(pcl_map_get_cstr(xp, "inputs"), "__internal", "pluginDownloadURL"), "http://example.com");
  CU_ASSERT_PTR_NULL(pcl_map_get_cstr(pcl_map_get_cstr(xp, "outputs"), "__internal"));
  CU_ASSERT_STRING_EQUAL(sget(xp, "outputs", "pluginDownloadURL"), "a config value");
  pcl_release(snap);
  pcl_release(inputs);
  pcl_release(pinputs);
  pcl_release(config);
  e->ops->destroy(e);
}

/* Invokes the gating test's mock answered, by token. */
static int gate_invokes;
static pcl_value *gate_call(void *data, const char *token, pcl_value *args, bool is_call,
                            bool *hang, pcl_error **err) {
  (void)data;
  (void)token;
  (void)args;
  (void)is_call;
  (void)err;
  *hang = false;
  gate_invokes++;
  return obj("ok", pcl_bool(true), NULL);
}

/* Exports the invoke of test:index:f with args and options (both stolen)
 * as name. */
static void gate_invoke(pcl_run *run, const char *name, pcl_value *args, pcl_value *options) {
  pcl_future *f = pcl_invoke(run, "test:index:f", args, options);
  export_take(run, name, fv(f));
  pcl_future_release(f);
  pcl_release(args);
  pcl_release(options);
}

/* Invokes that depend on a resource created by the run, through an
 * argument or dependsOn, on a component, on a read resource, or on
 * nothing. */
static void gate_start(pcl_run *run) {
  pcl_value *in = obj("value", pcl_bool(true), NULL);
  pcl_future *r = pcl_register_resource(run, &simple_decl, "r", in, NULL);
  pcl_future *comp = pcl_register_resource(run, &comp_decl, "comp", in, NULL);
  pcl_value *id = pcl_str_from_cstr("existing-id");
  pcl_value *lookup = obj("lookup", pcl_str_from_cstr("key"), NULL);
  pcl_future *rd = pcl_read_resource(run, &read_decl, "rd", id, lookup, NULL);
  pcl_future *rv = pcl_future_attr(r, "value");
  gate_invoke(run, "none", obj("x", pcl_int_new(1), NULL), NULL);
  gate_invoke(run, "viaArgument", obj("x", fv(rv), NULL), NULL);
  gate_invoke(run, "viaDependsOn", obj("x", pcl_int_new(1), NULL),
              obj("dependsOn", pcl_list_of_take((pcl_value *[]){fv(r)}, 1), NULL));
  gate_invoke(run, "viaComponent", obj("x", pcl_int_new(1), NULL),
              obj("dependsOn", pcl_list_of_take((pcl_value *[]){fv(comp)}, 1), NULL));
  gate_invoke(run, "viaRead", obj("x", pcl_int_new(1), NULL),
              obj("dependsOn", pcl_list_of_take((pcl_value *[]){fv(rd)}, 1), NULL));
  pcl_future *fs[] = {r, comp, rd, rv};
  for (size_t i = 0; i < 4; i++) {
    pcl_future_release(fs[i]);
  }
  pcl_release(in);
  pcl_release(id);
  pcl_release(lookup);
}

static const pcl_program gate = {"gate", NULL, 0, gate_start};

/* An invoke waits for the resources it depends on; in a preview, one that
 * depends on a resource not created yet or on a component is not sent and
 * its result is unknown. */
static void test_invoke_gating(void) {
  static const pcl_mocks mocks = {.call = gate_call};
  pcl_main_set_mocks(&mocks);
  gate_invokes = 0;
  rc_result r = rc_run(&gate, "--preview", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_EQUAL(gate_invokes, 2);
  CU_ASSERT_STRING_EQUAL(r.out, "{\n"
                                "  \"none\": {\n    \"ok\": true\n  },\n"
                                "  \"viaArgument\": {\n    \"unknown\": true\n  },\n"
                                "  \"viaComponent\": {\n    \"unknown\": true\n  },\n"
                                "  \"viaDependsOn\": {\n    \"unknown\": true\n  },\n"
                                "  \"viaRead\": {\n    \"ok\": true\n  }\n"
                                "}\n");
  rc_free(&r);
  gate_invokes = 0;
  r = rc_run(&gate, NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_EQUAL(gate_invokes, 5);
  CU_ASSERT_PTR_NULL(strstr(r.out, "unknown"));
  rc_free(&r);
  pcl_main_set_mocks(NULL);
}

/* A program that logs a warning about a resource and an info, then
 * registers a resource whose creation fails. */
static void diag_start(pcl_run *run) {
  pcl_value *in = obj("value", pcl_bool(true), NULL);
  pcl_future *ok = pcl_register_resource(run, &simple_decl, "ok", in, NULL);
  pcl_run_log(run, PCL_LOG_WARNING, "urn:pulumi:test::diag::simple:index:Resource::ok",
              "something to know");
  pcl_run_log(run, PCL_LOG_INFO, NULL, "for information");
  pcl_run_log(run, PCL_LOG_DEBUG, NULL, "not recorded");
  pcl_future *bad = pcl_register_resource(run, &simple_decl, "bad", in, NULL);
  pcl_future_release(ok);
  pcl_future_release(bad);
  pcl_release(in);
}

static const pcl_program diag = {"diag", NULL, 0, diag_start};

/* The diagnostics of a run are in its snapshot: what the program logged
 * (info and above), a failed registration as an error about its resource
 * ("Preview failed: " first in a preview), which stays out of the state,
 * and the run's error last. */
static void test_diagnostics(void) {
  rc_write("diag-mocks.json",
           "{\"resources\": {\"simple:index:Resource::bad\": {\"error\": \"failed create\"}}}");
  for (int preview = 0; preview < 2; preview++) {
    rc_result r = preview ? rc_run(&diag, "--stack", "test", "--mocks", "diag-mocks.json",
                                   "--snapshot", "diag.json", "--preview", NULL)
                          : rc_run(&diag, "--stack", "test", "--mocks", "diag-mocks.json",
                                   "--snapshot", "diag.json", NULL);
    CU_ASSERT_EQUAL(r.status, 1);
    pcl_value *snap = read_snapshot("diag.json");
    pcl_value *d = pcl_map_get_cstr(snap, "diagnostics");
    CU_ASSERT_EQUAL_FATAL(pcl_len(d), 4);
    CU_ASSERT_STRING_EQUAL(sget(pcl_list_at(d, 0), "severity", NULL), "warning");
    CU_ASSERT_STRING_EQUAL(sget(pcl_list_at(d, 0), "urn", NULL),
                           "urn:pulumi:test::diag::simple:index:Resource::ok");
    CU_ASSERT_STRING_EQUAL(sget(pcl_list_at(d, 0), "message", NULL), "something to know");
    CU_ASSERT_STRING_EQUAL(sget(pcl_list_at(d, 1), "severity", NULL), "info");
    CU_ASSERT_EQUAL(pcl_kind_of(pcl_map_get_cstr(pcl_list_at(d, 1), "urn")), PCL_T_NULL);
    CU_ASSERT_STRING_EQUAL(sget(pcl_list_at(d, 2), "severity", NULL), "error");
    CU_ASSERT_STRING_EQUAL(sget(pcl_list_at(d, 2), "urn", NULL),
                           "urn:pulumi:test::diag::simple:index:Resource::bad");
    CU_ASSERT_STRING_EQUAL(sget(pcl_list_at(d, 2), "message", NULL),
                           preview ? "Preview failed: failed create" : "failed create");
    CU_ASSERT_STRING_EQUAL(sget(pcl_list_at(d, 3), "message", NULL), sget(snap, "error", NULL));
    CU_ASSERT_PTR_NOT_NULL(find_res(snap, "ok"));
    CU_ASSERT_PTR_NULL(find_res(snap, "bad"));
    pcl_release(snap);
    rc_free(&r);
  }
  remove("diag-mocks.json");
}

/* Resolves to the single value of the result object of a function with a
 * single return value: the value, null for an empty object, an error for
 * more than one value. */
static void test_single_result(void) {
  const char *texts[] = {"{\"res\": [1, 2]}", "{}", "{\"a\": 1, \"b\": 2}"};
  pcl_future *fs[3];
  for (size_t i = 0; i < 3; i++) {
    pcl_error *err = NULL;
    pcl_value *v = pcl_json_decode(texts[i], strlen(texts[i]), 0, &err);
    pcl_future *f = pcl_future_resolved(PCL_OUTPUT, v, PCL_FUT_SECRET, NULL);
    fs[i] = pcl_single_result(f);
    pcl_future_release(f);
    pcl_release(v);
  }
  pcl_sched_run();
  CU_ASSERT_EQUAL(pcl_future_state_of(fs[0]), PCL_FUTURE_RESOLVED);
  CU_ASSERT_EQUAL(pcl_len(pcl_future_value(fs[0])), 2);
  CU_ASSERT(pcl_future_bits(fs[0]) & PCL_FUT_SECRET);
  CU_ASSERT_PTR_EQUAL(pcl_future_value(fs[1]), pcl_null());
  CU_ASSERT_EQUAL(pcl_future_state_of(fs[2]), PCL_FUTURE_REJECTED);
  pcl_future_mark_handled(fs[2]);
  CU_ASSERT_STRING_EQUAL(pcl_error_message(pcl_future_error(fs[2])),
                         "the result of a function with a single return value must hold one "
                         "value");
  for (size_t i = 0; i < 3; i++) {
    pcl_future_release(fs[i]);
  }
}

/* The failure of a Stash check, kept by stash_fail_cb. */
static char stash_error[256];
static void stash_fail_cb(void *data, const pcl_resource_result *res, const pcl_error *err) {
  (void)data;
  CU_ASSERT_PTR_NULL(res);
  CU_ASSERT_PTR_NOT_NULL_FATAL(err);
  snprintf(stash_error, sizeof stash_error, "%s", pcl_error_message(err));
}

/* pulumi:index:Stash is the engine's own: input and output are the input,
 * the id a UUID (unknown in a preview), the provider the pulumi package's
 * default one; no other input is allowed and "input" is required. */
static void test_stash(void) {
  for (int preview = 0; preview < 2; preview++) {
    pcl_embedded_config cfg = {"p", "s", NULL, preview == 1, NULL, NULL, NULL, NULL};
    pcl_error *err = NULL;
    pcl_engine *e = pcl_engine_embedded_new(&cfg, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    const char *good = "{\"input\": {\"a\": [1, \"x\"]}}", *extra = "{\"input\": 1, \"extra\": 2}";
    pcl_value *inputs = pcl_json_decode(good, strlen(good), 0, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(inputs);
    pcl_resource_request req = {.type = "pulumi:index:Stash", .name = "st",
                                .kind = PCL_RES_CUSTOM, .version = "1.0.0", .inputs = inputs};
    e->ops->register_resource(e, &req, reg_cb, NULL);
    pcl_value *bad = pcl_json_decode(extra, strlen(extra), 0, &err);
    pcl_resource_request breq = req;
    breq.name = "bad";
    breq.inputs = bad;
    e->ops->register_resource(e, &breq, stash_fail_cb, NULL);
    pcl_sched_run();
    CU_ASSERT_STRING_EQUAL(stash_error,
                           "check failed for pulumi:index:Stash: unknown property \"extra\"");
    pcl_value *none = pcl_map_of(NULL, NULL, 0);
    breq.name = "none";
    breq.inputs = none;
    e->ops->register_resource(e, &breq, stash_fail_cb, NULL);
    pcl_sched_run();
    CU_ASSERT_STRING_EQUAL(stash_error,
                           "check failed for pulumi:index:Stash: missing required property "
                           "\"input\"");
    pcl_value *snap = engine_snapshot(e);
    pcl_value *st = find_res(snap, "st");
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    pcl_value *outs = pcl_map_get_cstr(st, "outputs");
    CU_ASSERT_EQUAL(pcl_len(outs), 2);
    CU_ASSERT_TRUE(pcl_equal(pcl_map_get_cstr(outs, "output"), pcl_map_get_cstr(inputs, "input")));
    CU_ASSERT_TRUE(pcl_equal(pcl_map_get_cstr(outs, "input"), pcl_map_get_cstr(inputs, "input")));
    if (preview) {
      CU_ASSERT_EQUAL(pcl_kind_of(pcl_map_get_cstr(st, "id")), PCL_T_MAP);
    } else {
      CU_ASSERT_EQUAL(strlen(sget(st, "id", NULL)), 36);
    }
    CU_ASSERT_NSTRING_EQUAL(sget(st, "provider", NULL),
                            "urn:pulumi:s::p::pulumi:providers:pulumi::default::", 51);
    CU_ASSERT_PTR_NOT_NULL(find_res(snap, "default"));
    pcl_release(snap);
    pcl_release(inputs);
    pcl_release(bad);
    pcl_release(none);
    e->ops->destroy(e);
  }
}

void register_engine_tests(void);
void register_engine_tests(void) {
  CU_pSuite s = CU_add_suite("engine", NULL, NULL);
  CU_add_test(s, "URNs", test_urns);
  CU_add_test(s, "direct requests complete later", test_direct_async);
  CU_add_test(s, "provider config and download URLs", test_provider_config_and_url);
  CU_add_test(s, "providers, components, reads, invokes, calls", test_tour);
  CU_add_test(s, "invoke arguments must be an object", test_bad_invoke_args);
  CU_add_test(s, "method calls bring in the builtin provider", test_call_hydration);
  CU_add_test(s, "stack references from files", test_stack_reference_flag);
  CU_add_test(s, "inputs and options must be objects", test_bad_shapes);
  CU_add_test(s, "pulumi:index:Stash", test_stash);
  CU_add_test(s, "invokes wait for their dependencies", test_invoke_gating);
  CU_add_test(s, "diagnostics in the snapshot", test_diagnostics);
  CU_add_test(s, "single-value results", test_single_result);
}
