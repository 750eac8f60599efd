/* test_mock.c: mocks of the embedded engine, from C (pcl_mocks) and from a
 * JSON file (docs/mocks.md): ids and state, failures that surface as
 * program errors naming the resource with the snapshot kept, invokes
 * matched on their arguments, mocks that never answer (the run ends with an
 * error naming what it waits for), preview unknowns, bad mock files, and
 * the parameterized packages the mocks see. */
#include <CUnit/CUnit.h>

#include "engine/engine.h"
#include "run_check.h"

static const pcl_resource_decl res_decl = {"test:index:Thing", PCL_RES_CUSTOM, "1.0.0", NULL, "main.pp", 3, 1};

/* Registers "one" and "two" (two's input from one's "extra" output) and
 * invokes test:index:fn with one's extra; exports two's outputs. */
static void prog_start(pcl_run *run) {
  pcl_mapbuf mb = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_cstr(&mb, "size", pcl_int_new(3));
  pcl_value *in = pcl_mapbuf_finish(&mb);
  pcl_future *one = pcl_register_resource(run, &res_decl, "one", in, NULL);
  pcl_future *extra = pcl_future_attr(one, "extra");
  pcl_mapbuf mb2 = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_cstr(&mb2, "from", pcl_future_to_value(extra));
  pcl_value *in2 = pcl_mapbuf_finish(&mb2);
  pcl_future *two = pcl_register_resource(run, &res_decl, "two", in2, NULL);
  pcl_future *inv = pcl_invoke(run, "test:index:fn", in2, NULL);
  pcl_value *v = pcl_future_to_value(two);
  pcl_value *w = pcl_future_to_value(inv);
  pcl_export(run, "two", v);
  pcl_export(run, "fn", w);
  pcl_release(v);
  pcl_release(w);
  static const char *const attrs[] = {"from", "hidden", "id"};
  for (size_t i = 0; i < 3; i++) {
    pcl_future *a = pcl_future_attr(two, attrs[i]);
    pcl_value *av = pcl_future_to_value(a);
    pcl_export(run, attrs[i], av);
    pcl_release(av);
    pcl_future_release(a);
  }
  pcl_release(in);
  pcl_release(in2);
  pcl_future_release(one);
  pcl_future_release(extra);
  pcl_future_release(two);
  pcl_future_release(inv);
}

static const pcl_program prog = {"mockprog", NULL, 0, prog_start};

/* C mocks: ids "<name>-cid", state = inputs plus extra = size * 2 (so the
 * int stays exact); fails the resource named "two" when data says so. */
static bool c_new_resource(void *data, const pcl_mock_resource_args *args, pcl_value **id,
                           pcl_value **state, pcl_error **err) {
  if (data && strcmp(args->name, "two") == 0) {
    *err = pcl_error_new("quota exceeded");
    return false;
  }
  pcl_strbuf b = PCL_STRBUF_INIT;
  pcl_strbuf_appendf(&b, "%s-cid", args->name);
  *id = pcl_strbuf_finish(&b, err);
  pcl_mapbuf mb = PCL_MAPBUF_INIT;
  for (size_t i = 0; i < pcl_len(args->inputs); i++) {
    pcl_mapbuf_put_take(&mb, pcl_retain(pcl_map_key_at(args->inputs, i)),
                        pcl_retain(pcl_map_val_at(args->inputs, i)));
  }
  pcl_value *size = pcl_map_get_cstr(args->inputs, "size");
  if (size) {
    pcl_value *two = pcl_int_new(2);
    pcl_mapbuf_put_cstr(&mb, "extra", pcl_op_mul(size, two, err));
    pcl_release(two);
  }
  *state = pcl_mapbuf_finish(&mb);
  return true;
}

static pcl_value *c_call(void *data, const char *token, pcl_value *args, bool is_call, bool *hang,
                         pcl_error **err) {
  (void)data;
  (void)is_call;
  (void)hang;
  if (strcmp(token, "test:index:fn") != 0) {
    *err = pcl_error_new("no such function");
    return NULL;
  }
  pcl_mapbuf mb = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_cstr(&mb, "echo", pcl_retain(pcl_map_get_cstr(args, "from")));
  return pcl_mapbuf_finish(&mb);
}

static void test_c_mocks(void) {
  pcl_mocks m = {c_new_resource, c_call, NULL};
  pcl_main_set_mocks(&m);
  rc_result r = rc_run(&prog, NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_STRING_EQUAL(r.out, "{\n"
                                "  \"fn\": {\n"
                                "    \"echo\": 6\n"
                                "  },\n"
                                "  \"from\": 6,\n"
                                "  \"hidden\": null,\n"
                                "  \"id\": \"two-cid\",\n"
                                "  \"two\": {\n"
                                "    \"resource_ref\": {\n"
                                "      \"id\": \"two-cid\",\n"
                                "      \"urn\": \"urn:pulumi:dev::mockprog::test:index:Thing::two\"\n"
                                "    }\n"
                                "  }\n"
                                "}\n");
  rc_free(&r);
  /* A failing create is a program error naming the resource; the snapshot
   * written so far is kept. */
  m.data = &m;
  r = rc_run(&prog, "--snapshot", "mock-fail.json", NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CU_ASSERT_STRING_EQUAL(r.err, "main.pp:3:1: error: failed to register resource 'two' (test:index:Thing): "
                                "quota exceeded\n");
  char *snap = rc_slurp("mock-fail.json");
  CU_ASSERT_PTR_NOT_NULL_FATAL(snap);
  CU_ASSERT_PTR_NOT_NULL(strstr(snap, "test:index:Thing::one"));
  CU_ASSERT_PTR_NOT_NULL(strstr(snap, "\"error\": \"main.pp:3:1: error: failed to register resource 'two'"));
  free(snap);
  remove("mock-fail.json");
  rc_free(&r);
  pcl_main_set_mocks(NULL);
}

/* Invokes parented to a component take the provider of the component's
 * providers option; unparented ones the package's default provider.  The
 * call mock sees the provider through pcl_mock_call_provider. */
static const pcl_resource_decl prov_decl = {"pulumi:providers:test", PCL_RES_CUSTOM, "1.0.0", NULL,
                                            NULL, 0, 0};
static const pcl_resource_decl comp_decl = {"my:index:Comp", PCL_RES_COMPONENT, NULL, NULL, NULL,
                                            0, 0};
static char *seen_providers[2];

static pcl_value *provider_call(void *data, const char *token, pcl_value *args, bool is_call,
                                bool *hang, pcl_error **err) {
  (void)data;
  (void)token;
  (void)is_call;
  (void)hang;
  (void)err;
  pcl_value *slot = pcl_map_get_cstr(args, "slot");
  int64_t i = 0;
  if (slot && pcl_int_get_i64(slot, &i) && i >= 0 && i < 2 && pcl_mock_call_provider()) {
    free(seen_providers[i]);
    seen_providers[i] = strdup(pcl_mock_call_provider());
  }
  return pcl_map_of(NULL, NULL, 0);
}

static void provider_start(pcl_run *run) {
  pcl_value *empty = pcl_map_of(NULL, NULL, 0);
  pcl_future *prov = pcl_register_resource(run, &prov_decl, "prov", empty, NULL);
  pcl_mapbuf ob = PCL_MAPBUF_INIT;
  pcl_value *pv = pcl_future_to_value(prov);
  pcl_mapbuf_put_cstr(&ob, "providers", pcl_list_of(&pv, 1));
  pcl_value *copts = pcl_mapbuf_finish(&ob);
  pcl_future *comp = pcl_register_resource(run, &comp_decl, "comp", empty, copts);
  for (int i = 0; i < 2; i++) {
    pcl_mapbuf ab = PCL_MAPBUF_INIT;
    pcl_mapbuf_put_cstr(&ab, "slot", pcl_int_new(i));
    pcl_value *args = pcl_mapbuf_finish(&ab);
    pcl_value *iopts = NULL;
    if (i == 0) {
      pcl_mapbuf pb = PCL_MAPBUF_INIT;
      pcl_mapbuf_put_cstr(&pb, "parent", pcl_future_to_value(comp));
      iopts = pcl_mapbuf_finish(&pb);
    }
    pcl_future *inv = pcl_invoke(run, "test:index:fn", args, iopts);
    pcl_future_release(inv);
    pcl_release(args);
    pcl_release(iopts);
  }
  pcl_release(pv);
  pcl_release(copts);
  pcl_release(empty);
  pcl_future_release(prov);
  pcl_future_release(comp);
}

static const pcl_program provider_prog = {"provprog", NULL, 0, provider_start};

static void test_invoke_provider(void) {
  pcl_mocks m = {NULL, provider_call, NULL};
  pcl_main_set_mocks(&m);
  rc_result r = rc_run(&provider_prog, NULL);
  pcl_main_set_mocks(NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_STRING_EQUAL(r.err, "");
  const char *want0 = "urn:pulumi:dev::provprog::pulumi:providers:test::prov::";
  const char *want1 = "urn:pulumi:dev::provprog::pulumi:providers:test::default::";
  CU_ASSERT(seen_providers[0] && strncmp(seen_providers[0], want0, strlen(want0)) == 0);
  CU_ASSERT(seen_providers[1] && strncmp(seen_providers[1], want1, strlen(want1)) == 0);
  CU_ASSERT_PTR_NULL(pcl_mock_call_provider());
  for (int i = 0; i < 2; i++) {
    free(seen_providers[i]);
    seen_providers[i] = NULL;
  }
  rc_free(&r);
}

/* A resource reference in a resource's outputs is hydrated through the
 * engine's pulumi:pulumi:getResource into the referenced resource's object,
 * so the program reads its outputs; the state keeps the reference. */
static bool ref_new_resource(void *data, const pcl_mock_resource_args *args, pcl_value **id,
                             pcl_value **state, pcl_error **err) {
  (void)data;
  (void)id;
  if (strcmp(args->name, "holder") == 0) {
    /* The engine sees the target input as a reference. */
    pcl_value *target = pcl_map_get_cstr(args->inputs, "target");
    if (target == NULL || pcl_kind_of(target) != PCL_T_RESOURCE) {
      *err = pcl_error_new("holder: target is not a resource reference");
      return false;
    }
    pcl_value *urn = pcl_resource_urn(target);
    pcl_value *tid = pcl_resource_id(target);
    pcl_value *other = pcl_map_get_cstr(args->inputs, "other");
    pcl_mapbuf mb = PCL_MAPBUF_INIT;
    pcl_mapbuf_put_cstr(&mb, "ref", pcl_resource_new(urn, tid, NULL));
    /* Several references, each hydrated once (an answer each). */
    pcl_value *refs[] = {pcl_resource_new(pcl_resource_urn(other), pcl_resource_id(other), NULL),
                         pcl_resource_new(urn, tid, NULL)};
    pcl_mapbuf_put_cstr(&mb, "refs", pcl_list_of(refs, 2));
    pcl_release(refs[0]);
    pcl_release(refs[1]);
    *state = pcl_mapbuf_finish(&mb);
  }
  return true;
}

/* An apply callback: the "value" of each hydrated object of a LIST. */
static pcl_value *values_of(pcl_value *const *args, size_t n, void *data, pcl_error **err) {
  (void)n;
  (void)data;
  (void)err;
  pcl_value *l = pcl_list_new(pcl_len(args[0]));
  for (size_t i = 0; i < pcl_len(args[0]); i++) {
    pcl_value *obj = pcl_list_at(args[0], i);
    pcl_value *v = pcl_kind_of(obj) == PCL_T_MAP ? pcl_map_get_cstr(obj, "value") : NULL;
    pcl_list_init_take(l, i, v ? pcl_retain(v) : pcl_null());
  }
  return l;
}

static void ref_start(pcl_run *run) {
  pcl_mapbuf mb = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_cstr(&mb, "value", pcl_str_from_cstr("v1"));
  pcl_value *in = pcl_mapbuf_finish(&mb);
  pcl_future *target = pcl_register_resource(run, &res_decl, "target", in, NULL);
  pcl_mapbuf ib = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_cstr(&ib, "value", pcl_str_from_cstr("v2"));
  pcl_value *oin = pcl_mapbuf_finish(&ib);
  pcl_future *other = pcl_register_resource(run, &res_decl, "other", oin, NULL);
  pcl_mapbuf hb = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_cstr(&hb, "target", pcl_future_to_value(target));
  pcl_mapbuf_put_cstr(&hb, "other", pcl_future_to_value(other));
  pcl_value *hin = pcl_mapbuf_finish(&hb);
  pcl_future *holder = pcl_register_resource(run, &res_decl, "holder", hin, NULL);
  pcl_future *ref = pcl_future_attr(holder, "ref");
  pcl_future *value = pcl_future_attr(ref, "value");
  pcl_future *refs = pcl_future_attr(holder, "refs");
  pcl_value *rv = pcl_future_to_value(ref);
  pcl_value *vv = pcl_future_to_value(value);
  pcl_future *values = pcl_apply(&refs, 1, values_of, NULL, NULL, 0);
  pcl_value *lv = pcl_future_to_value(values);
  pcl_export(run, "ref", rv);
  pcl_export(run, "value", vv);
  pcl_export(run, "values", lv);
  pcl_release(rv);
  pcl_release(vv);
  pcl_release(lv);
  pcl_future_release(values);
  pcl_release(in);
  pcl_release(oin);
  pcl_release(hin);
  pcl_future_release(target);
  pcl_future_release(other);
  pcl_future_release(refs);
  pcl_future_release(holder);
  pcl_future_release(ref);
  pcl_future_release(value);
}

static const pcl_program ref_prog = {"refprog", NULL, 0, ref_start};

static void test_ref_hydration(void) {
  pcl_mocks m = {ref_new_resource, NULL, NULL};
  pcl_main_set_mocks(&m);
  rc_result r = rc_run(&ref_prog, "--snapshot", "ref-snap.json", NULL);
  pcl_main_set_mocks(NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_STRING_EQUAL(r.err, "");
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"value\": \"v1\""));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"values\": [\n    \"v2\",\n    \"v1\"\n  ]"));
  /* Exported, the hydrated object is a reference again. */
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"ref\": {\n    \"resource_ref\": {\n      \"id\": "
                                       "\"target_id\",\n      \"urn\": "
                                       "\"urn:pulumi:dev::refprog::test:index:Thing::target\""));
  char *snap = rc_slurp("ref-snap.json");
  CU_ASSERT(snap && strstr(snap, "pulumi:providers:pulumi::default\""));
  CU_ASSERT(snap && strstr(snap, "\"ref\": {\n          \"resource_ref\""));
  free(snap);
  remove("ref-snap.json");
  rc_free(&r);
}

/* A null input is left out of the registration, its dependencies kept in
 * the resource's. */
static void null_start(pcl_run *run) {
  pcl_mapbuf mb = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_cstr(&mb, "value", pcl_str_from_cstr("v"));
  pcl_value *in = pcl_mapbuf_finish(&mb);
  pcl_future *first = pcl_register_resource(run, &res_decl, "first", in, NULL);
  pcl_future *missing = pcl_future_attr(first, "missing");
  pcl_mapbuf nb = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_cstr(&nb, "gone", pcl_future_to_value(missing));
  pcl_mapbuf_put_cstr(&nb, "kept", pcl_int_new(1));
  pcl_mapbuf_put_cstr(&nb, "plain", pcl_null());
  pcl_value *nin = pcl_mapbuf_finish(&nb);
  pcl_future *second = pcl_register_resource(run, &res_decl, "second", nin, NULL);
  pcl_release(in);
  pcl_release(nin);
  pcl_future_release(first);
  pcl_future_release(missing);
  pcl_future_release(second);
}

static const pcl_program null_prog = {"nullprog", NULL, 0, null_start};

static void test_null_inputs(void) {
  rc_result r = rc_run(&null_prog, "--snapshot", "null-snap.json", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  char *snap = rc_slurp("null-snap.json");
  const char *second = snap ? strstr(snap, "test:index:Thing::second\"") : NULL;
  CU_ASSERT(second && strstr(second, "\"inputs\": {\n        \"kept\": 1\n      }"));
  CU_ASSERT(second && strstr(second, "\"dependencies\": [\n        "
                                     "\"urn:pulumi:dev::nullprog::test:index:Thing::first\""));
  CU_ASSERT(second && strstr(second, "\"propertyDependencies\": {\n        \"kept\": []\n      }"));
  free(snap);
  remove("null-snap.json");
  rc_free(&r);
}

/* In a preview, an additional secret output the provider left out reads as
 * a secret unknown, each of several (one listed twice) as one; a plain one it
 * left out is absent; one it gave is made secret. */
static void elided_start(pcl_run *run) {
  pcl_mapbuf mb = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_cstr(&mb, "value", pcl_int_new(1));
  pcl_value *in = pcl_mapbuf_finish(&mb);
  pcl_mapbuf ob = PCL_MAPBUF_INIT;
  pcl_value *names[] = {pcl_str_from_cstr("zeta"), pcl_str_from_cstr("hidden"),
                        pcl_str_from_cstr("value"), pcl_str_from_cstr("hidden")};
  pcl_mapbuf_put_cstr(&ob, "additionalSecretOutputs", pcl_list_of(names, 4));
  pcl_value *opts = pcl_mapbuf_finish(&ob);
  pcl_future *res = pcl_register_resource(run, &res_decl, "res", in, opts);
  pcl_future *hidden = pcl_future_attr(res, "hidden");
  pcl_value *hv = pcl_future_to_value(hidden);
  pcl_export(run, "hidden", hv);
  pcl_release(hv);
  pcl_future *zeta = pcl_future_attr(res, "zeta");
  pcl_value *zv = pcl_future_to_value(zeta);
  pcl_export(run, "zeta", zv);
  pcl_release(zv);
  pcl_future_release(zeta);
  pcl_future *value = pcl_future_attr(res, "value");
  pcl_value *vv = pcl_future_to_value(value);
  pcl_export(run, "value", vv);
  pcl_release(vv);
  pcl_future_release(value);
  for (size_t i = 0; i < 4; i++) {
    pcl_release(names[i]);
  }
  pcl_release(in);
  pcl_release(opts);
  pcl_future_release(res);
  pcl_future_release(hidden);
}

static const pcl_program elided_prog = {"elided", NULL, 0, elided_start};

static void test_elided_secret_outputs(void) {
  rc_result r = rc_run(&elided_prog, "--preview", "--show-secrets", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_STRING_EQUAL(r.out, "{\n  \"hidden\": {\n    \"secret\": {\n      \"unknown\": true\n    }\n  },\n"
                    "  \"value\": {\n    \"secret\": 1\n  },\n"
                    "  \"zeta\": {\n    \"secret\": {\n      \"unknown\": true\n    }\n  }\n}\n");
  rc_free(&r);
  r = rc_run(&elided_prog, "--show-secrets", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_STRING_EQUAL(r.out, "{\n  \"hidden\": null,\n  \"value\": {\n    \"secret\": 1\n  },\n"
                    "  \"zeta\": null\n}\n");
  rc_free(&r);
}

/* A remote component's Construct sees the dependencies of each input (a
 * resource passed by reference is not one). */
static const pcl_resource_decl remote_comp_decl = {"comp:index:Remote", PCL_RES_REMOTE, "1.0.0",
                                                   NULL, NULL, 0, 0};
static char *construct_deps, *construct_providers;

static bool deps_new_resource(void *data, const pcl_mock_resource_args *args, pcl_value **id,
                              pcl_value **state, pcl_error **err) {
  (void)data;
  (void)id;
  (void)state;
  if (strcmp(args->type, "comp:index:Remote") == 0) {
    free(construct_deps);
    construct_deps = args->prop_deps ? pcl_json_encode(args->prop_deps, 0, NULL, err) : NULL;
    free(construct_providers);
    construct_providers = args->providers ? pcl_json_encode(args->providers, 0, NULL, err) : NULL;
  } else {
    CU_ASSERT_PTR_NULL(args->prop_deps);
    CU_ASSERT_PTR_NULL(args->providers);
  }
  return true;
}

static void deps_start(pcl_run *run) {
  pcl_value *empty = pcl_map_of(NULL, NULL, 0);
  pcl_future *dep = pcl_register_resource(run, &res_decl, "dep", empty, NULL);
  pcl_mapbuf mb = PCL_MAPBUF_INIT;
  pcl_future *dep_id = pcl_future_attr(dep, "id");
  pcl_mapbuf_put_cstr(&mb, "plain", pcl_int_new(1));
  pcl_mapbuf_put_cstr(&mb, "ref", pcl_future_to_value(dep));
  pcl_mapbuf_put_cstr(&mb, "output", pcl_future_to_value(dep_id));
  pcl_future_release(dep_id);
  pcl_value *in = pcl_mapbuf_finish(&mb);
  /* The providers of a local component parent flow to its remote child. */
  pcl_future *prov = pcl_register_resource(run, &prov_decl, "prov", empty, NULL);
  pcl_mapbuf ob = PCL_MAPBUF_INIT;
  pcl_value *pv = pcl_future_to_value(prov);
  pcl_mapbuf_put_cstr(&ob, "providers", pcl_list_of(&pv, 1));
  pcl_value *lopts = pcl_mapbuf_finish(&ob);
  pcl_future *local = pcl_register_resource(run, &comp_decl, "local", empty, lopts);
  pcl_mapbuf rb = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_cstr(&rb, "parent", pcl_future_to_value(local));
  pcl_value *ropts = pcl_mapbuf_finish(&rb);
  pcl_future *comp = pcl_register_resource(run, &remote_comp_decl, "comp", in, ropts);
  pcl_release(in);
  pcl_release(empty);
  pcl_release(pv);
  pcl_release(lopts);
  pcl_release(ropts);
  pcl_future_release(dep);
  pcl_future_release(prov);
  pcl_future_release(local);
  pcl_future_release(comp);
}

static const pcl_program deps_prog = {"depsprog", NULL, 0, deps_start};

static void test_construct_prop_deps(void) {
  pcl_mocks m = {deps_new_resource, NULL, NULL};
  pcl_main_set_mocks(&m);
  rc_result r = rc_run(&deps_prog, NULL);
  pcl_main_set_mocks(NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  /* An output of dep is a dependency; dep passed by reference is not. */
  CU_ASSERT_STRING_EQUAL(construct_deps ? construct_deps : "",
                         "{\"output\":[\"urn:pulumi:dev::depsprog::test:index:Thing::dep\"],"
                         "\"plain\":[],\"ref\":[]}");
  const char *want = "{\"test\":\"urn:pulumi:dev::depsprog::pulumi:providers:test::prov::";
  CU_ASSERT(construct_providers && strncmp(construct_providers, want, strlen(want)) == 0);
  free(construct_deps);
  free(construct_providers);
  construct_deps = construct_providers = NULL;
  rc_free(&r);
}

/* A call mock sees the dependencies of each argument. */
static char *call_deps;

static pcl_value *argdeps_call(void *data, const char *token, pcl_value *args, bool is_call,
                               bool *hang, pcl_error **err) {
  (void)data;
  (void)token;
  (void)args;
  (void)hang;
  if (is_call) {
    free(call_deps);
    pcl_value *d = pcl_mock_call_arg_deps();
    call_deps = d ? pcl_json_encode(d, 0, NULL, err) : NULL;
  }
  return pcl_map_of(NULL, NULL, 0);
}

static void argdeps_start(pcl_run *run) {
  pcl_value *empty = pcl_map_of(NULL, NULL, 0);
  pcl_future *dep = pcl_register_resource(run, &res_decl, "dep", empty, NULL);
  pcl_future *dep_id = pcl_future_attr(dep, "id");
  pcl_mapbuf mb = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_cstr(&mb, "plain", pcl_int_new(1));
  pcl_mapbuf_put_cstr(&mb, "ref", pcl_future_to_value(dep));
  pcl_mapbuf_put_cstr(&mb, "out", pcl_future_to_value(dep_id));
  pcl_value *args = pcl_mapbuf_finish(&mb);
  pcl_value *self = pcl_future_to_value(dep);
  pcl_future *res = pcl_call(run, "test:index:Thing/m", self, args, NULL);
  pcl_release(self);
  pcl_release(args);
  pcl_release(empty);
  pcl_future_release(dep);
  pcl_future_release(dep_id);
  pcl_future_release(res);
}

static const pcl_program argdeps_prog = {"argdeps", NULL, 0, argdeps_start};

static void test_call_arg_deps(void) {
  pcl_mocks m = {NULL, argdeps_call, NULL};
  pcl_main_set_mocks(&m);
  rc_result r = rc_run(&argdeps_prog, NULL);
  pcl_main_set_mocks(NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_STRING_EQUAL(call_deps ? call_deps : "",
                         "{\"out\":[\"urn:pulumi:dev::argdeps::test:index:Thing::dep\"],"
                         "\"plain\":[],\"ref\":[]}");
  CU_ASSERT_PTR_NULL(pcl_mock_call_arg_deps());
  free(call_deps);
  call_deps = NULL;
  rc_free(&r);
}

static void test_json_mocks(void) {
  rc_write("mocks-ok.json",
           "{\"resources\": {\"test:index:Thing\": {\"outputs\": {\"extra\": 12345678901234567890123}},"
           " \"test:index:Thing::two\": {\"id\": \"fixed\", \"outputs\": {\"hidden\": {\"secret\": 1}}}},"
           " \"invokes\": {\"test:index:fn\": [{\"args\": {\"from\": 1}, \"result\": {\"n\": 1}},"
           "  {\"args\": {\"from\": 12345678901234567890123}, \"result\": {\"n\": 2}}]}}");
  rc_result r = rc_run(&prog, "--mocks", "mocks-ok.json", "--show-secrets", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"n\": 2"));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"from\": 12345678901234567890123"));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"id\": \"fixed\""));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"hidden\": {\n    \"secret\": 1\n  }"));
  rc_free(&r);
  /* In a preview the mock outputs the inputs do not give are unknown, so
   * two's input and the invoke over it are unknown too. */
  r = rc_run(&prog, "--mocks", "mocks-ok.json", "--preview", "--snapshot", "mocks-prev.json",
             NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"fn\": {\n    \"unknown\": true\n  }"));
  char *snap = rc_slurp("mocks-prev.json");
  CU_ASSERT(snap && strstr(snap, "\"from\": {\n          \"unknown\": true"));
  free(snap);
  remove("mocks-prev.json");
  rc_free(&r);
  remove("mocks-ok.json");
}

static void test_json_failures(void) {
  rc_write("mocks-fail.json", "{\"resources\": {\"test:index:Thing::one\": {\"error\": \"failed create\"}}}");
  rc_result r = rc_run(&prog, "--mocks", "mocks-fail.json", NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CU_ASSERT_STRING_EQUAL(r.err, "main.pp:3:1: error: failed to register resource 'one' (test:index:Thing): "
                                "failed create\n");
  rc_free(&r);
  /* An invoke nobody mocks fails, naming the function. */
  rc_write("mocks-fail.json", "{\"resources\": {\"test:index:Thing\": {\"outputs\": {\"extra\": 1}}}}");
  r = rc_run(&prog, "--mocks", "mocks-fail.json", NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CU_ASSERT_STRING_EQUAL(r.err, "error: invoke of 'test:index:fn' failed: invoke of "
                                "'test:index:fn': no mock answers this invoke\n");
  rc_free(&r);
  /* A mock that never answers: the run ends naming what it waits for. */
  rc_write("mocks-fail.json", "{\"resources\": {\"test:index:Thing::one\": {\"hang\": true}}}");
  r = rc_run(&prog, "--mocks", "mocks-fail.json", NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "error: the program cannot finish: still waiting for "
                                       "resource 'one' (test:index:Thing), "));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "resource 'two' (test:index:Thing)"));
  rc_free(&r);
  /* Bad mock files are input errors (status 2), naming the file. */
  rc_write("mocks-fail.json", "{\"resource\": {}}");
  r = rc_run(&prog, "--mocks", "mocks-fail.json", NULL);
  CU_ASSERT_EQUAL(r.status, 2);
  CU_ASSERT_STRING_EQUAL(r.err, "error: mocks-fail.json: resource: unknown key (expected calls, "
                                "invokes, resources or stackReferences)\n");
  rc_free(&r);
  rc_write("mocks-fail.json", "{\"resources\": [");
  r = rc_run(&prog, "--mocks", "mocks-fail.json", NULL);
  CU_ASSERT_EQUAL(r.status, 2);
  CU_ASSERT_STRING_EQUAL(r.err, "error: mocks-fail.json: invalid JSON at byte 15: unexpected end "
                                "of input\n");
  rc_free(&r);
  remove("mocks-fail.json");
}

/* A barrier like the sync provider's: each Block's create waits until
 * three are in flight, then all three are answered. */
static pcl_mock_reply *held[3];
static int nheld;
static bool barrier_new_resource(void *data, const pcl_mock_resource_args *args, pcl_value **id,
                                 pcl_value **state, pcl_error **err) {
  (void)data;
  (void)id;
  (void)state;
  (void)err;
  if (strcmp(args->type, "sync:index:Block") != 0) {
    return true;
  }
  held[nheld++] = pcl_mock_defer(args);
  if (nheld == 3) {
    for (int i = 0; i < 3; i++) {
      pcl_mock_reply_resource(held[i], NULL, NULL, NULL);
    }
    nheld = 0;
  }
  return true;
}

static const pcl_resource_decl block_decl = {"sync:index:Block", PCL_RES_CUSTOM, "3.0.0", NULL,
                                             NULL, 0, 0};
static int blocks;

static void blocks_start(pcl_run *run) {
  for (int i = 0; i < blocks; i++) {
    char name[32];
    snprintf(name, sizeof name, "block-%d", i);
    pcl_future *f = pcl_register_resource(run, &block_decl, name, NULL, NULL);
    pcl_future_release(f);
  }
}

static const pcl_program blocks_prog = {"blocks", NULL, 0, blocks_start};

static void test_deferred_mocks(void) {
  pcl_mocks m = {barrier_new_resource, NULL, NULL};
  pcl_main_set_mocks(&m);
  nheld = 0;
  blocks = 3;
  rc_result r = rc_run(&blocks_prog, "--snapshot", "blocks.json", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_STRING_EQUAL(r.err, "");
  char *snap = rc_slurp("blocks.json");
  CU_ASSERT(snap && strstr(snap, "\"id\": \"block-2_id\""));
  free(snap);
  remove("blocks.json");
  rc_free(&r);
  /* With two blocks the barrier is never met: the run ends naming them. */
  blocks = 2;
  r = rc_run(&blocks_prog, NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CU_ASSERT_STRING_EQUAL(r.err, "error: the program cannot finish: still waiting for resource "
                                "'block-0' (sync:index:Block), resource 'block-1' "
                                "(sync:index:Block)\n");
  nheld = 0;
  rc_free(&r);
  pcl_main_set_mocks(NULL);
}

/* A parameterized package (its value holds a NUL), as pclc lists it. */
static const pcl_package sub_packages[] = {
    {"parameterized", "1.2.3", "https://example.com/dl", "subpackage", "2.0.0", "Hello\0World", 11,
     false},
};
static const pcl_resource_decl sub_decl = {
    "subpackage:index:HelloWorld", PCL_RES_CUSTOM, NULL, NULL, NULL, 0, 0};
static const pcl_resource_decl sub_provider_decl = {
    "pulumi:providers:subpackage", PCL_RES_CUSTOM, NULL, NULL, NULL, 0, 0};
/* What the mocks saw, per request: "<name or token>=<package>/<base
 * provider>@<version>/<value>;", or "<name or token>=-;" for none. */
static pcl_strbuf package_seen;

static void note_package(const char *what, const pcl_package *pkg) {
  pcl_strbuf_appendf(&package_seen, "%s=", what);
  if (pkg == NULL) {
    pcl_strbuf_append_cstr(&package_seen, "-;");
    return;
  }
  pcl_strbuf_appendf(&package_seen, "%s/%s@%s/", pkg->name, pkg->base_name, pkg->version);
  /* The value's bytes, its NUL shown as "\0". */
  for (size_t i = 0; i < pkg->value_len; i++) {
    pcl_strbuf_append_cstr(&package_seen, pkg->value[i] ? (char[]){pkg->value[i], 0} : "\\0");
  }
  pcl_strbuf_append_char(&package_seen, ';');
}

static bool package_new_resource(void *data, const pcl_mock_resource_args *args, pcl_value **id,
                                 pcl_value **state, pcl_error **err) {
  (void)data;
  (void)id;
  (void)state;
  (void)err;
  note_package(args->name, args->package);
  return true;
}

static pcl_value *package_call(void *data, const char *token, pcl_value *args, bool is_call,
                               bool *hang, pcl_error **err) {
  (void)data;
  (void)args;
  (void)is_call;
  (void)hang;
  (void)err;
  note_package(token, pcl_mock_call_package());
  return pcl_map_of(NULL, NULL, 0);
}

/* Registers a resource of the package, an explicit provider of it (after
 * the resource, so that the resource gets the default provider), a resource
 * of another package and invokes a function of the package, as a program
 * with a package block does. */
static void package_start(pcl_run *run) {
  run->packages = sub_packages;
  run->npackages = 1;
  pcl_future *fs[] = {
      pcl_register_resource(run, &sub_decl, "hello", NULL, NULL),
      pcl_register_resource(run, &sub_provider_decl, "prov", NULL, NULL),
      pcl_register_resource(run, &res_decl, "other", NULL, NULL),
      pcl_invoke(run, "subpackage:index:doHelloWorld", NULL, NULL),
  };
  for (size_t i = 0; i < 4; i++) {
    pcl_future_release(fs[i]);
  }
}

static const pcl_program package_prog = {"packages", NULL, 0, package_start};

static void test_packages(void) {
  pcl_mocks m = {package_new_resource, package_call, NULL};
  pcl_main_set_mocks(&m);
  rc_result r = rc_run(&package_prog, "--snapshot", "packages.json", NULL);
  pcl_main_set_mocks(NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_STRING_EQUAL(r.err, "");
  /* The requests of the package wait for its reference and every request
   * for the stack's registration; the embedded engine answers both before
   * any of them goes, so they go in the program's order. */
  CU_ASSERT_STRING_EQUAL(package_seen.data ? package_seen.data : "",
                         "hello=subpackage/parameterized@2.0.0/Hello\\0World;"
                         "prov=subpackage/parameterized@2.0.0/Hello\\0World;"
                         "other=-;"
                         "subpackage:index:doHelloWorld=subpackage/parameterized@2.0.0/"
                         "Hello\\0World;");
  CU_ASSERT_PTR_NULL(pcl_mock_call_package());
  /* The package's version and download URL name its default provider and
   * are the explicit provider's version, as the engine resolves them. */
  char *snap = rc_slurp("packages.json");
  CU_ASSERT(snap && strstr(snap, "\"urn\": \"urn:pulumi:dev::packages::pulumi:providers:"
                                 "subpackage::default_2_0_0_https_/example.com/dl\""));
  const char *prov = snap ? strstr(snap, "\"name\": \"prov\",") : NULL;
  CU_ASSERT(prov &&
            strstr(prov, "\"inputs\": {\n        \"__internal\": {\n          "
                         "\"pluginDownloadURL\": \"https://example.com/dl\"\n        },\n"
                         "        \"version\": \"2.0.0\"\n      }") == strstr(prov, "\"inputs\""));
  free(snap);
  remove("packages.json");
  pcl_strbuf_free(&package_seen);
  rc_free(&r);
}

void register_mock_tests(void);
void register_mock_tests(void) {
  CU_pSuite s = CU_add_suite("mock", NULL, NULL);
  CU_add_test(s, "C mocks", test_c_mocks);
  CU_add_test(s, "parameterized packages reach the mocks and name their providers", test_packages);
  CU_add_test(s, "JSON mocks", test_json_mocks);
  CU_add_test(s, "JSON mock failures and hangs", test_json_failures);
  CU_add_test(s, "deferred answers from C mocks", test_deferred_mocks);
  CU_add_test(s, "invokes see the provider the engine chose", test_invoke_provider);
  CU_add_test(s, "resource references in outputs are hydrated", test_ref_hydration);
  CU_add_test(s, "null inputs are left out", test_null_inputs);
  CU_add_test(s, "Construct sees the property dependencies", test_construct_prop_deps);
  CU_add_test(s, "Call sees the argument dependencies", test_call_arg_deps);
  CU_add_test(s, "secret outputs left out in a preview are secret unknowns",
              test_elided_secret_outputs);
}
