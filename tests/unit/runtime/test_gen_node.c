/* test_gen_node.c: the node operations of generated code
 * (runtime/gen/gen_node.c) and the calls that need an engine (invokes and
 * method calls, each in its object and single-value form, getOutput on a
 * stack reference), run end to end through pcl_gen_main on the embedded
 * engine: config values and defaults (made secret when declared secret),
 * registrations with null inputs dropped, reads, a component instance with
 * its children named and parented and its outputs, ranges over lists,
 * maps, counts, bools and an eventual value, the pulumi block, outputs;
 * then the failures of nodes, located (an engine's failure of a
 * registration at the location of the block the call names, not at one
 * the shared declaration carries).  No run leaves a value or future
 * alive.
 * The program below is written as pclc writes one: node functions reading
 * their rows, constants as static values. */
#include "gen_check.h"

/* ------------------------------------------------------------ constants */

static pcl_value KEYS_LIST_ITEMS_P = PCL_STATIC_ASCII("p");
static pcl_value KEYS_LIST_ITEMS_Q = PCL_STATIC_ASCII("q");
static pcl_value *LIST_PQ_ITEMS[] = {&KEYS_LIST_ITEMS_P, &KEYS_LIST_ITEMS_Q};
static pcl_value MAP_KEY_K1 = PCL_STATIC_ASCII("k1");
static pcl_value MAP_VAL_ONE = PCL_STATIC_ASCII("one");
static pcl_value *MAP_KEYS[] = {&MAP_KEY_K1};
static pcl_value *MAP_VALS[] = {&MAP_VAL_ONE};

static pcl_value K[] = {
    PCL_STATIC_ASCII(">=3.0.0 <4.0.0"),          /* 0 */
    PCL_STATIC_ASCII("name"),                    /* 1 */
    PCL_STATIC_ASCII("count"),                   /* 2 */
    PCL_STATIC_ASCII("token"),                   /* 3 */
    PCL_STATIC_ASCII("a"),                       /* 4 */
    PCL_STATIC_ASCII("b"),                       /* 5 */
    PCL_STATIC_ASCII("r"),                       /* 6 */
    PCL_STATIC_ASCII("r-id"),                    /* 7 */
    PCL_STATIC_ASCII("c"),                       /* 8 */
    PCL_STATIC_ASCII("x"),                       /* 9 */
    PCL_STATIC_ASCII("y"),                       /* 10 */
    PCL_STATIC_ASCII("child"),                   /* 11 */
    PCL_STATIC_ASCII("out"),                     /* 12 */
    PCL_STATIC_ASCII("rs"),                      /* 13 */
    PCL_STATIC_ASCII("m"),                       /* 14 */
    PCL_STATIC_ASCII("n"),                       /* 15 */
    PCL_STATIC_ASCII("off"),                     /* 16 */
    PCL_STATIC_ASCII("on"),                      /* 17 */
    PCL_STATIC_ASCII("ev"),                      /* 18 */
    PCL_STATIC_ASCII("other"),                   /* 19 */
    PCL_STATIC_ASCII("organization/other/dev"),  /* 20 */
    PCL_STATIC_ASCII("pw"),                      /* 21 */
    PCL_STATIC_ASCII("id"),                      /* 22 */
    PCL_STATIC_ASCII("text"),                    /* 23 */
    PCL_STATIC_ASCII("result"),                  /* 24 */
    PCL_STATIC_INT(1),                           /* 25 */
    PCL_STATIC_ASCII("v"),                       /* 26 */
    PCL_STATIC_ASCII("k"),                       /* 27 */
    PCL_STATIC_ASCII("k1"),                      /* 28 */
    PCL_STATIC_ASCII("i"),                       /* 29 */
    PCL_STATIC_INT(0),                           /* 30 */
    PCL_STATIC_ASCII("tok-default"),             /* 31 */
    PCL_STATIC_ASCII("dflt"),                    /* 32 */
    PCL_STATIC_LIST(LIST_PQ_ITEMS, 2),           /* 33 */
    PCL_STATIC_MAP(MAP_KEYS, MAP_VALS, 1),       /* 34 */
    PCL_STATIC_INT(2),                           /* 35 */
    PCL_STATIC_BOOL(false),                      /* 36 */
    PCL_STATIC_BOOL(true),                       /* 37 */
    PCL_STATIC_ASCII("simple-invoke:index:unit"), /* 38 */
    PCL_STATIC_ASCII("simple:index:Resource/identity"), /* 39 */
    PCL_STATIC_ASCII("config"),                  /* 40 */
    PCL_STATIC_ASCII("bText"),                   /* 41 */
    PCL_STATIC_ASCII("childOut"),                /* 42 */
    PCL_STATIC_ASCII("ranges"),                  /* 43 */
    PCL_STATIC_ASCII("getOutput"),               /* 44 */
    PCL_STATIC_ASCII("calls"),                   /* 45 */
    PCL_STATIC_ASCII("value"),                   /* 46 */
    PCL_STATIC_ASCII("label"),                   /* 47 */
    PCL_STATIC_ASCII("nothing"),                 /* 48 */
    PCL_STATIC_ASCII("dependsOn"),               /* 49 */
    PCL_STATIC_ASCII("key"),                     /* 50 */
    PCL_STATIC_ASCII("-b"),                      /* 51 */
    PCL_STATIC_ASCII("simple-invoke:index:broken"), /* 52 */
};

static const pcl_gen_loc L[] = {
    {0, 0},     /* 0: none */
    {3, 5},     /* 1 */
    {12, 9},    /* 2 */
    {4, 1},     /* 3 */
    {5, 1},     /* 4: the blocks of the main module's resources */
    {20, 1},    /* 5: component c's block */
    {30, 1},    /* 6: the stack reference's block */
    {8, 1},     /* 7: the component's child's block */
    {40, 3},    /* 8: a block whose registration the engine fails */
    {44, 3},    /* 9: another */
};
/* The files of the locations: runs starting at a location. */
static const pcl_gen_loc_run LR[] = {
    {0, 0},
    {3, 1},
    {4, 0},
    {7, 1},
    {8, 0},
};
/* Location indexes of the blocks. */
enum { L_NONE = 0, L_RES = 4, L_COMP = 5, L_REF = 6, L_CHILD = 7, L_FAIL1 = 8, L_FAIL2 = 9 };
static const char *const F[] = {"main.pp", "box/main.pp"};

/* The declarations, shared by every resource of a type as generated code
 * shares them: they carry no location (each registration passes its
 * block's). */
static const pcl_resource_decl SIMPLE = {"simple:index:Resource", PCL_RES_CUSTOM, "2.0.0", NULL,
                                         NULL, 0, 0};
static const pcl_resource_decl BOX = {"components:index:Box", PCL_RES_COMPONENT, NULL, NULL,
                                      NULL, 0, 0};
static const pcl_resource_decl REF = {"pulumi:pulumi:StackReference", PCL_RES_CUSTOM, NULL,
                                      NULL, NULL, 0, 0};

static const pcl_config_decl CONFIGS[] = {
    {"name", &pcl_type_string, NULL, false, false, false, "gen.pp", 1, 1},
    {"count", &pcl_type_int, NULL, true, false, false, "gen.pp", 2, 1},
    {"token", &pcl_type_string, NULL, true, false, true, "gen.pp", 3, 1},
};

/* The constant a row entry names. */
#define KR(i) (&K[e->r[(i)]])

/* The rows, below; A_ID is the offset of the steps of a.id. */
enum { A_ID = 101, NROWS = 103 };
static const uint32_t ROWS[NROWS];

/* Returns the object of n key constants and values (values stolen). */
static pcl_value *object_take(size_t n, const uint32_t *keys, pcl_value **vals) {
  pcl_value *k[8] = {NULL};
  for (size_t i = 0; i < n; i++) {
    k[i] = &K[keys[i]];
  }
  pcl_value *o = pcl_map_of(k, vals, n);
  for (size_t i = 0; i < n; i++) {
    pcl_release(vals[i]);
  }
  return o;
}

/* Returns value made a node's value: a failure (NULL with err) becomes a
 * rejected EVENTUAL located at loc. */
static pcl_value *or_failed(pcl_gen_env *e, pcl_value *value, pcl_error *err, uint32_t loc) {
  return value != NULL ? value : pcl_gen_failed(e, err, loc);
}

/* Returns the value of the static traversal of the row's steps (count at
 * r[1], steps from r[2]) from node r[0]. */
static pcl_value *path_of_row(pcl_gen_env *e) {
  pcl_error *err = NULL;
  pcl_value *v = pcl_gen_path(e, pcl_gen_node(e, e->r[0]), e->r + 2, e->r[1], 2, &err);
  return or_failed(e, v, err, 2);
}

/* ---------------------------------------------------------- component */

/* config x: the component's input.  Row: name. */
static pcl_value *box_x(pcl_gen_env *e) {
  pcl_value *v = pcl_gen_config(e, 0, KR(0));
  return v != NULL ? v : pcl_gen_config_default(false, pcl_null());
}

/* config y, default "dflt".  Row: name, default. */
static pcl_value *box_y(pcl_gen_env *e) {
  pcl_value *v = pcl_gen_config(e, 0, KR(0));
  return v != NULL ? v : pcl_gen_config_default(false, pcl_retain(KR(1)));
}

/* resource child {x = x, y = y}.  Row: name, key x, key y. */
static pcl_value *box_child(pcl_gen_env *e) {
  pcl_value *in = object_take(2, (uint32_t[]){e->r[1], e->r[2]},
                              (pcl_value *[]){pcl_retain(pcl_gen_node(e, 0)),
                                              pcl_retain(pcl_gen_node(e, 1))});
  pcl_value *r = pcl_gen_register(e, &SIMPLE, KR(0), in, NULL, L_CHILD);
  pcl_release(in);
  return r;
}

/* output out = x.  Row: name. */
static pcl_value *box_out(pcl_gen_env *e) { return pcl_gen_output(e, KR(0), pcl_gen_node(e, 0)); }

/* ---------------------------------------------------------- main module */

/* pulumi { requiredVersionRange = ... }.  Row: the range. */
static pcl_value *n_pulumi(pcl_gen_env *e) { return pcl_gen_pulumi(e, KR(0)); }

/* config name (required).  Row: config index, name. */
static pcl_value *n_name(pcl_gen_env *e) {
  pcl_value *v = pcl_gen_config(e, e->r[0], KR(1));
  return v != NULL ? v : pcl_gen_config_default(false, pcl_null());
}

/* config count, default 1 + 2.  Row: config index, name, the operands. */
static pcl_value *n_count(pcl_gen_env *e) {
  pcl_value *v = pcl_gen_config(e, e->r[0], KR(1));
  if (v != NULL) {
    return v;
  }
  pcl_error *err = NULL;
  return pcl_gen_config_default(false, or_failed(e, pcl_op_add(KR(2), KR(3), &err), err, 1));
}

/* config token (secret), default "tok-default".  Row: index, name, default. */
static pcl_value *n_token(pcl_gen_env *e) {
  pcl_value *v = pcl_gen_config(e, e->r[0], KR(1));
  return v != NULL ? v : pcl_gen_config_default(true, pcl_retain(KR(2)));
}

/* resource a {label = name, nothing = null, value = true}.  Row: name,
 * the three keys. */
static pcl_value *n_a(pcl_gen_env *e) {
  pcl_value *in = object_take(3, e->r + 1,
                              (pcl_value *[]){pcl_retain(pcl_gen_node(e, 1)), pcl_null(),
                                              pcl_bool(true)});
  pcl_value *r = pcl_gen_register(e, &SIMPLE, KR(0), in, NULL, L_RES);
  pcl_release(in);
  return r;
}

/* The apply body of "${a.id}-b".  Row: the constant part "-b". */
static pcl_value *suffix_body(pcl_gen_env *e, pcl_value *const *p, pcl_error **err) {
  return pcl_gen_template((pcl_value *[]){p[0], KR(0)}, 2, err);
}

/* resource b {text = "${a.id}-b"} with dependsOn = [a].  Row: name, key
 * text, key dependsOn, the apply's row (the suffix). */
static pcl_value *n_b(pcl_gen_env *e) {
  pcl_error *err = NULL;
  pcl_value *aid = pcl_gen_path(e, pcl_gen_node(e, 4), ROWS + A_ID, 1, 1, &err);
  pcl_value *text = pcl_gen_apply(pcl_gen_env_new(e, e->r + 3, 0, NULL), suffix_body, &aid, 1);
  pcl_release(aid);
  pcl_value *a = pcl_gen_node(e, 4);
  pcl_value *in = object_take(1, e->r + 1, &text);
  pcl_value *deps = pcl_list_of(&a, 1);
  pcl_value *opts = object_take(1, e->r + 2, &deps);
  pcl_value *r = pcl_gen_register(e, &SIMPLE, KR(0), in, opts, L_RES);
  pcl_release(in);
  pcl_release(opts);
  return r;
}

/* resource r (a read) with id "r-id".  Row: name, id. */
static pcl_value *n_r(pcl_gen_env *e) {
  pcl_value *in = pcl_map_of(NULL, NULL, 0);
  pcl_value *r = pcl_gen_read(e, &SIMPLE, KR(0), KR(1), in, NULL, L_RES);
  pcl_release(in);
  return r;
}

static const pcl_gen_node_desc BOX_NODES[] = {
    {box_x, 40}, {box_y, 41}, {box_child, 43}, {box_out, 46}};
static const pcl_gen_module BOX_MODULE = {BOX_NODES, 4};

/* component c {x = count}.  Row: name, key x. */
static pcl_value *n_c(pcl_gen_env *e) {
  pcl_value *in = object_take(1, e->r + 1, (pcl_value *[]){pcl_retain(pcl_gen_node(e, 2))});
  pcl_value *r = pcl_gen_component(e, &BOX, KR(0), in, NULL, L_COMP, &BOX_MODULE);
  pcl_release(in);
  return r;
}

/* An instance of a ranged resource: {k = range.key, v = range.value} (a
 * missing key, as in a count range, reads null and is dropped).  Row: key
 * k, key v. */
static pcl_value *instance_kv(pcl_gen_env *e, pcl_value *range, const pcl_value *name) {
  pcl_error *err = NULL;
  pcl_value *in;
  if (pcl_kind_of(range) == PCL_T_NULL) {
    in = pcl_map_of(NULL, NULL, 0);
  } else {
    pcl_value *k = pcl_gen_attr(e, range, &K[50], PCL_GEN_DECLARED, &err);
    pcl_value *v = pcl_gen_attr(e, range, &K[46], 0, &err);
    in = object_take(2, e->r, (pcl_value *[]){k, v});
  }
  pcl_value *r = pcl_gen_register(e, &SIMPLE, name, in, NULL, L_RES);
  pcl_release(in);
  return r;
}

/* A ranged resource over the row's constant.  Row: name, range constant,
 * then the instance's row (keys k and v). */
static pcl_value *n_ranged(pcl_gen_env *e) {
  return pcl_gen_range(e, KR(1), KR(0), instance_kv, e->r + 2, 1);
}

/* The apply body that makes the eventual range [id]. */
static pcl_value *one_list_body(pcl_gen_env *e, pcl_value *const *p, pcl_error **err) {
  (void)e;
  (void)err;
  return pcl_list_of(p, 1);
}

/* A resource ranged over [a.id], an eventual list.  Row: name, then the
 * instance's row. */
static pcl_value *n_ev(pcl_gen_env *e) {
  pcl_error *err = NULL;
  pcl_value *aid = pcl_gen_path(e, pcl_gen_node(e, 4), ROWS + A_ID, 1, 1, &err);
  pcl_value *range = pcl_gen_apply(pcl_gen_env_new(e, e->r, 0, NULL), one_list_body, &aid, 1);
  pcl_value *r = pcl_gen_range(e, range, KR(0), instance_kv, e->r + 1, 1);
  pcl_release(range);
  pcl_release(aid);
  return r;
}

/* The stack reference other.  Row: name, key name, the stack's name. */
static pcl_value *n_ref(pcl_gen_env *e) {
  pcl_value *in = object_take(1, (uint32_t[]){1}, (pcl_value *[]){pcl_retain(KR(1))});
  pcl_value *r = pcl_gen_register(e, &REF, KR(0), in, NULL, L_REF);
  pcl_release(in);
  return r;
}

/* getOutput(other, "pw").  Row: name. */
static pcl_value *n_get_output(pcl_gen_env *e) {
  return pcl_gen_get_output(e, pcl_gen_node(e, 14), KR(0), 2);
}

/* invoke("simple-invoke:index:unit", {}) and its single-value form.
 * Row: token, single. */
static pcl_value *n_invoke(pcl_gen_env *e) {
  pcl_value *args = pcl_map_of(NULL, NULL, 0);
  pcl_value *r = pcl_gen_invoke(e, KR(0), args, NULL, e->r[1] != 0, 2);
  pcl_release(args);
  return r;
}

/* a.identity({}) and its single-value form.  Row: token, single. */
static pcl_value *n_method(pcl_gen_env *e) {
  pcl_value *args = pcl_map_of(NULL, NULL, 0);
  pcl_value *r = pcl_gen_method(e, KR(0), pcl_gen_node(e, 4), args, e->r[1] != 0, 2);
  pcl_release(args);
  return r;
}

/* output <name> = [node, node, ...].  Row: name, count, node indexes. */
static pcl_value *n_output_list(pcl_gen_env *e) {
  pcl_value *items[8];
  for (uint32_t i = 0; i < e->r[1]; i++) {
    items[i] = pcl_gen_node(e, e->r[2 + i]);
  }
  pcl_value *l = pcl_list_of(items, e->r[1]);
  pcl_value *r = pcl_gen_output(e, KR(0), l);
  pcl_release(l);
  return r;
}

/* output <name> = a traversal.  Row: name, then path_of_row's row. */
static pcl_value *n_output_path(pcl_gen_env *e) {
  pcl_gen_env pe = {0, e->f, e->r + 1, 0};
  pcl_value *v = path_of_row(&pe);
  pcl_value *r = pcl_gen_output(e, KR(0), v);
  pcl_release(v);
  return r;
}

/* Node indexes of the main module. */
enum {
  N_PULUMI, N_NAME, N_COUNT, N_TOKEN, N_A, N_B, N_R, N_C, N_RS, N_M, N_N, N_OFF, N_ON, N_EV,
  N_REF, N_GETOUT, N_UNIT, N_SINGLE, N_METHOD, N_METHOD_SINGLE,
};

static const uint32_t ROWS[NROWS] = {
    /* 0 pulumi */ 0,
    /* 1 name */ 0, 1,
    /* 3 count */ 1, 2, 25, 35,
    /* 7 token */ 2, 3, 31,
    /* 10 a */ 4, 47, 48, 46,
    /* 14 b */ 5, 23, 49, 51,
    /* 18 r */ 6, 7,
    /* 20 c */ 8, 9,
    /* 22 rs */ 13, 33, 27, 26,
    /* 26 m */ 14, 34, 27, 26,
    /* 30 n */ 15, 35, 27, 26,
    /* 34 off */ 16, 36, 27, 26,
    /* 38 on */ 17, 37,
    /* 40 box x */ 9,
    /* 41 box y */ 10, 32,
    /* 43 box child */ 11, 9, 10,
    /* 46 box out */ 12,
    /* 47 on's instance row */ 27, 26,
    /* 49 ev */ 18, 27, 26,
    /* 52 ref */ 19, 20,
    /* 54 getOutput */ 21,
    /* 55 unit */ 38, 0,
    /* 57 single */ 38, 1,
    /* 59 method */ 39, 0,
    /* 61 method, single */ 39, 1,
    /* 63 output config */ 40, 3, N_NAME, N_COUNT, N_TOKEN,
    /* 68 output bText: b.text */ 41, N_B, 1, 23, 0,
    /* 73 output childOut: c.out */ 42, N_C, 1, 12, 0,
    /* 78 output ranges */ 43, 5, N_RS, N_M, N_N, N_OFF, N_ON,
    /* 85 output ev: ev[0].v */ 18, N_EV, 2, 30, PCL_GEN_STEP_INDEX, 26, 0,
    /* 92 output getOutput */ 44, 1, N_GETOUT,
    /* 95 output calls */ 45, 4, N_UNIT, N_SINGLE, N_METHOD, N_METHOD_SINGLE,
    /* 101 the steps of a.id */ 22, 0,
};

/* on: ranged over true; its instance's row is elsewhere (47) because its
 * row holds only the name and the range. */
static pcl_value *n_on(pcl_gen_env *e) {
  return pcl_gen_range(e, KR(1), KR(0), instance_kv, ROWS + 47, 1);
}

static const pcl_gen_node_desc NODES[] = {
    {n_pulumi, 0},        {n_name, 1},          {n_count, 3},
    {n_token, 7},         {n_a, 10},            {n_b, 14},
    {n_r, 18},            {n_c, 20},            {n_ranged, 22},
    {n_ranged, 26},       {n_ranged, 30},       {n_ranged, 34},
    {n_on, 38},           {n_ev, 49},           {n_ref, 52},
    {n_get_output, 54},   {n_invoke, 55},       {n_invoke, 57},
    {n_method, 59},       {n_method, 61},       {n_output_list, 63},
    {n_output_path, 68},  {n_output_path, 73},  {n_output_list, 78},
    {n_output_path, 85},  {n_output_list, 92},  {n_output_list, 95},
};
static const pcl_gen_module MAIN = {NODES, sizeof NODES / sizeof NODES[0]};
static const pcl_gen_program PROGRAM = {PCL_GEN_ABI, &PCL_GEN_ABI_SYMBOL, "pclc test", "nodes",
                                        CONFIGS, 3, &MAIN, ROWS, K, L, LR, 5, F, NULL, 0};

static const char MOCKS[] =
    "{\"invokes\": {\"simple-invoke:index:unit\": {\"result\": {\"result\": \"Hello\"}}},\n"
    " \"calls\": {\"simple:index:Resource/identity\": {\"result\": {\"result\": \"bar\"}}},\n"
    " \"stackReferences\": {\"organization/other/dev\": {\"outputs\": {\"pw\": \"y\"},\n"
    "   \"secretOutputNames\": [\"pw\"]}}}\n";

static const char OUTPUTS[] =
    "{\n"
    "  \"bText\": \"a_id-b\",\n"
    "  \"calls\": [\n"
    "    {\n"
    "      \"result\": \"Hello\"\n"
    "    },\n"
    "    \"Hello\",\n"
    "    {\n"
    "      \"result\": \"bar\"\n"
    "    },\n"
    "    \"bar\"\n"
    "  ],\n"
    "  \"childOut\": 3,\n"
    "  \"config\": [\n"
    "    \"widget\",\n"
    "    3,\n"
    "    {\n"
    "      \"secret\": \"tok-default\"\n"
    "    }\n"
    "  ],\n"
    "  \"ev\": \"a_id\",\n"
    "  \"getOutput\": [\n"
    "    {\n"
    "      \"secret\": \"y\"\n"
    "    }\n"
    "  ],\n"
    "  \"ranges\": [\n"
    "    [\n"
    "      {\n"
    "        \"resource_ref\": {\n"
    "          \"id\": \"rs-0_id\",\n"
    "          \"urn\": \"urn:pulumi:dev::nodes::simple:index:Resource::rs-0\"\n"
    "        }\n"
    "      },\n"
    "      {\n"
    "        \"resource_ref\": {\n"
    "          \"id\": \"rs-1_id\",\n"
    "          \"urn\": \"urn:pulumi:dev::nodes::simple:index:Resource::rs-1\"\n"
    "        }\n"
    "      }\n"
    "    ],\n"
    "    {\n"
    "      \"k1\": {\n"
    "        \"resource_ref\": {\n"
    "          \"id\": \"m-k1_id\",\n"
    "          \"urn\": \"urn:pulumi:dev::nodes::simple:index:Resource::m-k1\"\n"
    "        }\n"
    "      }\n"
    "    },\n"
    "    [\n"
    "      {\n"
    "        \"resource_ref\": {\n"
    "          \"id\": \"n-0_id\",\n"
    "          \"urn\": \"urn:pulumi:dev::nodes::simple:index:Resource::n-0\"\n"
    "        }\n"
    "      },\n"
    "      {\n"
    "        \"resource_ref\": {\n"
    "          \"id\": \"n-1_id\",\n"
    "          \"urn\": \"urn:pulumi:dev::nodes::simple:index:Resource::n-1\"\n"
    "        }\n"
    "      }\n"
    "    ],\n"
    "    null,\n"
    "    {\n"
    "      \"resource_ref\": {\n"
    "        \"id\": \"on_id\",\n"
    "        \"urn\": \"urn:pulumi:dev::nodes::simple:index:Resource::on\"\n"
    "      }\n"
    "    }\n"
    "  ]\n"
    "}\n";

/* Returns the snapshot record of the resource of type and name (from its
 * URN to the end of the text), or NULL. */
static const char *record(const char *snap, const char *type, const char *name) {
  char key[256];
  snprintf(key, sizeof key, "\"urn\": \"urn:pulumi:dev::nodes::%s::%s\",\n      \"type\"", type,
           name);
  return strstr(snap, key);
}

static void test_program(void) {
  rc_write("gen-mocks.json", MOCKS);
  live_counts before = live_now();
  rc_result r = rc_run_gen(&PROGRAM, "--config", "name=widget", "--mocks", "gen-mocks.json",
                           "--show-secrets", "--snapshot", "gen-snapshot.json", NULL);
  CHECK_NO_LEAK(before);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_STRING_EQUAL(r.err, "");
  CU_ASSERT_STRING_EQUAL(r.out, OUTPUTS);
  char *snap = rc_slurp("gen-snapshot.json");
  CU_ASSERT_PTR_NOT_NULL_FATAL(snap);
  /* a: the null input is not sent. */
  const char *a = record(snap, "simple:index:Resource", "a");
  CU_ASSERT_FATAL(a != NULL);
  CU_ASSERT_PTR_NOT_NULL(strstr(a, "\"inputs\": {\n        \"label\": \"widget\",\n        \"value\": true\n"));
  /* b: its text waited for a's id; it depends on a. */
  const char *b = record(snap, "simple:index:Resource", "b");
  CU_ASSERT_FATAL(b != NULL);
  CU_ASSERT_PTR_NOT_NULL(strstr(b, "\"text\": \"a_id-b\""));
  CU_ASSERT_PTR_NOT_NULL(strstr(b, "\"dependencies\": [\n        \"urn:pulumi:dev::nodes::simple:index:"
                      "Resource::a\""));
  /* r: read with its id. */
  const char *rd = record(snap, "simple:index:Resource", "r");
  CU_ASSERT(rd != NULL && strstr(rd, "\"id\": \"r-id\""));
  /* The component's child is named after the instance and parented to it;
   * its config x came from the input, y from its default. */
  const char *child =
      record(snap, "components:index:Box$simple:index:Resource", "c-child");
  CU_ASSERT_FATAL(child != NULL);
  CU_ASSERT_PTR_NOT_NULL(strstr(child, "\"parent\": \"urn:pulumi:dev::nodes::components:index:Box::c\""));
  CU_ASSERT_PTR_NOT_NULL(strstr(child, "\"x\": 3,\n        \"y\": \"dflt\""));
  /* The ranged instances. */
  const char *names[] = {"rs-0", "rs-1", "m-k1", "n-0", "n-1", "on", "ev-0"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    CU_ASSERT_PTR_NOT_NULL(record(snap, "simple:index:Resource", names[i]));
  }
  CU_ASSERT_PTR_NULL(record(snap, "simple:index:Resource", "off"));
  const char *rs1 = record(snap, "simple:index:Resource", "rs-1");
  CU_ASSERT(rs1 && strstr(rs1, "\"k\": 1,\n        \"v\": \"q\""));
  const char *mk1 = record(snap, "simple:index:Resource", "m-k1");
  CU_ASSERT(mk1 && strstr(mk1, "\"k\": \"k1\",\n        \"v\": \"one\""));
  const char *n1 = record(snap, "simple:index:Resource", "n-1");
  CU_ASSERT(n1 && strstr(n1, "\"inputs\": {\n        \"v\": 1\n"));
  free(snap);
  if (getenv("KEEP_SNAPSHOT") == NULL) {
    remove("gen-snapshot.json");
  }
  remove("gen-mocks.json");
  rc_free(&r);
}

/* A preview: ids are unknown, so the range over [a.id] is unknown and makes
 * no instance, and traversals through unknowns are unknown; the rest runs
 * as in an update. */
static void test_preview(void) {
  rc_write("gen-mocks.json", MOCKS);
  live_counts before = live_now();
  rc_result r = rc_run_gen(&PROGRAM, "--preview", "--config", "name=widget", "--mocks",
                           "gen-mocks.json", "--show-secrets", "--snapshot",
                           "gen-preview.json", NULL);
  CHECK_NO_LEAK(before);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_STRING_EQUAL(r.err, "");
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"bText\": {\n    \"unknown\": true\n  },\n"));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"ev\": {\n    \"unknown\": true\n  },\n"));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"childOut\": 3,\n"));
  char *snap = rc_slurp("gen-preview.json");
  CU_ASSERT_PTR_NOT_NULL_FATAL(snap);
  CU_ASSERT_PTR_NOT_NULL(record(snap, "simple:index:Resource", "rs-1"));
  CU_ASSERT_PTR_NULL(record(snap, "simple:index:Resource", "ev-0"));
  free(snap);
  remove("gen-preview.json");
  remove("gen-mocks.json");
  rc_free(&r);
}

/* ------------------------------------------------------------- failures */

/* Which failure the broken program shows. */
static enum {
  BROKEN_NODE,          /* A node whose computation failed. */
  BROKEN_RANGE_KIND,    /* A range over a string. */
  BROKEN_RANGE_SIZE,    /* A count range beyond PCL_RANGE_MAX. */
  BROKEN_RANGE_LATER,   /* An eventual range that settles to a string. */
  BROKEN_INPUTS,        /* Inputs that are no object. */
  BROKEN_REGISTER,      /* A registration the engine fails. */
  BROKEN_STALE_DECL,    /* The same with a declaration that has a location. */
  BROKEN_UNLOCATED,     /* The same at no location. */
  BROKEN_READ,          /* A read the engine fails. */
  BROKEN_COMPONENT,     /* A component registration the engine refuses (a
                           duplicate of the one before it). */
  BROKEN_INVOKE,        /* An invoke the engine fails. */
  BROKEN_INVOKE_ARGS,   /* An invoke whose arguments are no object. */
  BROKEN_METHOD_ARGS,   /* A method call whose arguments are no object. */
  BROKEN_VERSION,       /* A required version the CLI does not satisfy. */
  BROKEN_FAILED_INPUTS, /* Inputs that failed (a captured scope's failure). */
  BROKEN_FAILED_OPTIONS, /* Options that failed. */
  BROKEN_FAILED_INVOKE, /* An invoke whose options failed. */
  BROKEN_FAILED_METHOD, /* A method call whose arguments failed. */
} broken_case;

/* A type whose registrations the mocks fail, declared as generated code
 * declares it, and once with a location of its own, which the operations
 * must not use: the block's location is the one they are given. */
static const pcl_resource_decl FAILING = {"fail_on_create:index:Resource", PCL_RES_CUSTOM, NULL,
                                          NULL, NULL, 0, 0};
static const pcl_resource_decl FAILING_STALE = {"fail_on_create:index:Resource", PCL_RES_CUSTOM,
                                                NULL, NULL, "stale.pp", 99, 9};
static const pcl_gen_module EMPTY_MODULE = {NULL, 0};

static const pcl_value BIG_COUNT = PCL_STATIC_INT(PCL_RANGE_MAX + 1);
static const pcl_value BAD_RANGE = PCL_STATIC_ASCII(">=4.0.0");

/* The broken node.  Row: its name. */
static pcl_value *broken_node(pcl_gen_env *e) {
  switch (broken_case) {
  case BROKEN_NODE:
    return pcl_gen_failed(e, pcl_error_new("division by zero"), 1);
  case BROKEN_RANGE_KIND:
    return pcl_gen_range(e, KR(0), KR(0), instance_kv, ROWS + 47, 1);
  case BROKEN_RANGE_SIZE:
    return pcl_gen_range(e, (pcl_value *)&BIG_COUNT, KR(0), instance_kv, ROWS + 47, 1);
  case BROKEN_RANGE_LATER: {
    pcl_value *later = pcl_gen_apply(pcl_gen_env_new(e, ROWS + 17, 0, NULL), suffix_body,
                                     (pcl_value *[]){&K[4]}, 1);
    pcl_value *r = pcl_gen_range(e, later, KR(0), instance_kv, ROWS + 47, 2);
    pcl_release(later);
    return r;
  }
  case BROKEN_INPUTS:
    return pcl_gen_register(e, &SIMPLE, KR(0), KR(0), NULL, L_RES);
  case BROKEN_REGISTER:
    return pcl_gen_register(e, &FAILING, KR(0), &K[34], NULL, L_FAIL1);
  case BROKEN_STALE_DECL:
    return pcl_gen_register(e, &FAILING_STALE, KR(0), &K[34], NULL, L_FAIL2);
  case BROKEN_UNLOCATED:
    return pcl_gen_register(e, &FAILING_STALE, KR(0), &K[34], NULL, L_NONE);
  case BROKEN_READ:
    return pcl_gen_read(e, &FAILING, KR(0), &K[7], &K[34], NULL, L_FAIL2);
  case BROKEN_COMPONENT:
    /* The first instance registers; the engine refuses the second, whose
     * block the failure names. */
    pcl_release(pcl_gen_component(e, &BOX, KR(0), &K[34], NULL, L_FAIL2, &EMPTY_MODULE));
    return pcl_gen_component(e, &BOX, KR(0), &K[34], NULL, L_FAIL1, &EMPTY_MODULE);
  case BROKEN_INVOKE: {
    pcl_value *args = pcl_map_of(NULL, NULL, 0);
    pcl_value *r = pcl_gen_invoke(e, &K[52], args, NULL, false, 2);
    pcl_release(args);
    return r;
  }
  case BROKEN_INVOKE_ARGS:
    return pcl_gen_invoke(e, &K[38], KR(0), NULL, false, 2);
  case BROKEN_METHOD_ARGS:
    return pcl_gen_method(e, &K[39], pcl_null(), KR(0), false, 2);
  case BROKEN_VERSION:
    return pcl_gen_pulumi(e, (pcl_value *)&BAD_RANGE);
  case BROKEN_FAILED_INPUTS:
  case BROKEN_FAILED_OPTIONS:
  case BROKEN_FAILED_INVOKE:
  case BROKEN_FAILED_METHOD: {
    /* What a captured scope makes of a conversion that failed, given where
     * a value was expected: the operation fails with that failure, not with
     * a message about the kind of what it got. */
    pcl_value *failed = pcl_gen_failed(e, pcl_error_new("cannot convert \"x\" to bool"), 4);
    pcl_value *empty = pcl_map_of(NULL, NULL, 0);
    pcl_value *r = broken_case == BROKEN_FAILED_INPUTS
                       ? pcl_gen_register(e, &SIMPLE, KR(0), failed, NULL, L_RES)
                   : broken_case == BROKEN_FAILED_OPTIONS
                       ? pcl_gen_register(e, &SIMPLE, KR(0), empty, failed, L_RES)
                   : broken_case == BROKEN_FAILED_INVOKE
                       ? pcl_gen_invoke(e, &K[38], empty, failed, false, 2)
                       : pcl_gen_method(e, &K[39], pcl_null(), failed, false, 2);
    pcl_release(empty);
    pcl_release(failed);
    return r;
  }
  }
  return pcl_null();
}

/* output bad = the broken node.  Row: the output's name. */
static pcl_value *broken_output(pcl_gen_env *e) {
  return pcl_gen_output(e, KR(0), pcl_gen_node(e, 0));
}

static const uint32_t BROKEN_ROWS[] = {13, 16};
static const pcl_gen_node_desc BROKEN_NODES[] = {{broken_node, 0}, {broken_output, 1}};
static const pcl_gen_module BROKEN_MAIN = {BROKEN_NODES, 2};
static const pcl_gen_program BROKEN = {PCL_GEN_ABI, &PCL_GEN_ABI_SYMBOL, "pclc test", "broken", NULL,
                                       0, &BROKEN_MAIN, BROKEN_ROWS, K, L, LR, 5, F, NULL, 0};

static void test_failures(void) {
  static const struct {
    int which;
    const char *err;
  } cases[] = {
      {BROKEN_NODE, "main.pp:3:5: error: division by zero\n"},
      {BROKEN_RANGE_KIND, "main.pp:3:5: error: a value of type string cannot be the range of "
                          "rs: a bool, a number, a list or a map is required\n"},
      {BROKEN_RANGE_SIZE, "main.pp:3:5: error: the range of rs is too large: 1048577 "
                          "instances, at most 1048576 are allowed\n"},
      {BROKEN_RANGE_LATER, "main.pp:12:9: error: a value of type string cannot be the range of "
                           "rs: a bool, a number, a list or a map is required\n"},
      {BROKEN_INPUTS, "main.pp:5:1: error: the inputs and options of rs must be objects\n"},
      {BROKEN_REGISTER, "main.pp:40:3: error: failed to register resource 'rs' "
                        "(fail_on_create:index:Resource): failed create\n"},
      {BROKEN_STALE_DECL, "main.pp:44:3: error: failed to register resource 'rs' "
                          "(fail_on_create:index:Resource): failed create\n"},
      {BROKEN_UNLOCATED, "error: failed to register resource 'rs' "
                         "(fail_on_create:index:Resource): failed create\n"},
      {BROKEN_READ, "main.pp:44:3: error: failed to register resource 'rs' "
                    "(fail_on_create:index:Resource): failed create\n"},
      {BROKEN_COMPONENT, "main.pp:40:3: error: failed to register resource 'rs' "
                         "(components:index:Box): duplicate resource URN "
                         "'urn:pulumi:dev::broken::components:index:Box::rs'; try giving it a "
                         "unique name\n"},
      {BROKEN_INVOKE, "main.pp:12:9: error: invoke of 'simple-invoke:index:broken' failed: "
                      "invoke failed\n"},
      {BROKEN_INVOKE_ARGS, "main.pp:12:9: error: invoke of 'simple-invoke:index:unit': the "
                           "arguments and options must be objects\n"},
      {BROKEN_METHOD_ARGS, "main.pp:12:9: error: call of 'simple:index:Resource/identity': the "
                           "arguments must be an object\n"},
      {BROKEN_VERSION, "error: Pulumi CLI version 3.200.0 does not satisfy the version range "
                       "\">=4.0.0\"\n"},
      {BROKEN_FAILED_INPUTS, "main.pp:5:1: error: cannot convert \"x\" to bool\n"},
      {BROKEN_FAILED_OPTIONS, "main.pp:5:1: error: cannot convert \"x\" to bool\n"},
      {BROKEN_FAILED_INVOKE, "main.pp:5:1: error: cannot convert \"x\" to bool\n"},
      {BROKEN_FAILED_METHOD, "main.pp:5:1: error: cannot convert \"x\" to bool\n"},
  };
  rc_write("gen-mocks.json",
           "{\"invokes\": {\"simple-invoke:index:broken\": {\"error\": \"invoke failed\"}},\n"
           " \"resources\": {\"fail_on_create:index:Resource\": {\"error\": \"failed create\"}}}");
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    broken_case = cases[i].which;
    live_counts before = live_now();
    rc_result r = rc_run_gen(&BROKEN, "--mocks", "gen-mocks.json", NULL);
    CHECK_NO_LEAK(before);
    CU_ASSERT_EQUAL(r.status, 1);
    CU_ASSERT_STRING_EQUAL(r.out, "");
    if (strcmp(r.err, cases[i].err) != 0) {
      fprintf(stderr, "\ncase %zu: got %s", i, r.err);
    }
    CU_ASSERT_STRING_EQUAL(r.err, cases[i].err);
    rc_free(&r);
  }
  remove("gen-mocks.json");
}

/* The options of a component's children and invokes get the component as
 * their parent, unless they name one; elsewhere they stay as they are. */
static void test_with_parent(void) {
  live_counts before = live_now();
  pcl_value *comp = pcl_str_from_cstr("the component");
  pcl_gen_frame top = {.refs = 1}, inside = {.refs = 1, .parent = comp};
  CU_ASSERT_PTR_NULL(pcl__gen_with_parent(&top, NULL));
  CHECK_JSON(pcl__gen_with_parent(&inside, NULL), "{\"parent\":\"the component\"}");
  pcl_value *opts = pcl_map_of((pcl_value *[]){&K[49]}, (pcl_value *[]){&K[4]}, 1);
  CHECK_JSON(pcl__gen_with_parent(&inside, pcl_retain(opts)),
             "{\"dependsOn\":\"a\",\"parent\":\"the component\"}");
  pcl_value *own = pcl_map_of((pcl_value *[]){&K[4]}, (pcl_value *[]){&K[5]}, 1);
  pcl_mapbuf b = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_cstr(&b, "parent", pcl_retain(own));
  pcl_value *named = pcl_mapbuf_finish(&b);
  pcl_value *same = pcl__gen_with_parent(&inside, pcl_retain(named));
  CU_ASSERT_PTR_EQUAL(same, named);
  pcl_release(same);
  same = pcl__gen_with_parent(&top, pcl_retain(opts));
  CU_ASSERT_PTR_EQUAL(same, opts);
  pcl_release(same);
  same = pcl__gen_with_parent(&inside, pcl_retain(&K[4]));
  CU_ASSERT_PTR_EQUAL(same, &K[4]);
  RELEASE(opts, own, named, comp);
  CHECK_NO_LEAK(before);
}

void register_gen_node_tests(void);
void register_gen_node_tests(void) {
  CU_pSuite s = CU_add_suite("gen_node", NULL, NULL);
  CU_add_test(s, "a program of every node kind", test_program);
  CU_add_test(s, "the program in a preview", test_preview);
  CU_add_test(s, "failures of nodes, located", test_failures);
  CU_add_test(s, "options parented to a component", test_with_parent);
}
