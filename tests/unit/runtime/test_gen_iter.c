/* test_gen_iter.c: the operations of generated code that read into values
 * and build them (runtime/gen/gen_iter.c): attributes, indexes and static
 * traversals through futures, secrets and unknowns (types.md 6: a missing
 * attribute or key is an error unless declared), object constructors,
 * templates, for expressions in every form, splats, try, can and recover
 * with a closure per alternative, getOutput, expanded calls, secret and
 * unsecret.  Invokes and method calls need an engine and are tested with
 * the nodes (test_gen_node.c). */
#include "gen_check.h"

/* ------------------------------------------------------------ the program */

static pcl_value K[16];
/* The discriminator values of the members that declare "missing". */
static pcl_value *const MEMBERS[] = {&K[14]};
static pcl_value K[16] = {
    PCL_STATIC_ASCII("a"),       /* 0 */
    PCL_STATIC_ASCII("b"),       /* 1 */
    PCL_STATIC_INT(0),           /* 2 */
    PCL_STATIC_INT(1),           /* 3 */
    PCL_STATIC_ASCII("id"),      /* 4 */
    PCL_STATIC_ASCII("missing"), /* 5 */
    PCL_STATIC_ASCII("x"),       /* 6 */
    PCL_STATIC_ASCII("1"),       /* 7 */
    PCL_STATIC_INT(5),           /* 8 */
    PCL_STATIC_ASCII("nope"),    /* 9 */
    PCL_STATIC_ASCII("urn"),     /* 10 */
    PCL_STATIC_ASCII("__type"),  /* 11 */
    PCL_STATIC_INT(2),           /* 12 */
    PCL_STATIC_ASCII("kind"),    /* 13 */
    PCL_STATIC_ASCII("v1"),      /* 14 */
    PCL_STATIC_LIST(MEMBERS, 1), /* 15 */
};
static const pcl_gen_loc L[] = {
    {0, 0},     /* 0: none */
    {4, 3},     /* 1 */
    {9, 1},     /* 2 */
};
/* The files of the locations: runs starting at a location. */
static const pcl_gen_loc_run LR[] = {
    {0, 0},
};
static const char *const F[] = {"main.pp"};

/* Row offsets. */
enum {
  P_AB = 0,          /* a.b */
  P_IDX_ID = 4,      /* [1].id */
  P_A_MISSING = 8,   /* a.missing */
  P_A_MISSING_D = 12, /* a.missing, declared */
  P_IDX5 = 16,       /* [5] */
  T_FAIL = 18,       /* A thunk failing with "nope" at location 1. */
  T_CAP0 = 20,       /* A thunk returning captured value 0. */
  T_CAP1 = 21,       /* A thunk returning captured value 1. */
  T_CAP2 = 22,       /* A thunk returning captured value 2. */
  P_A_MISSING_M = 23, /* a.missing, declared when a's kind is "v1". */
  P_KEY_ID = 29,      /* [keys[0]].id */
};
static const uint32_t ROWS[] = {
    0, 0, 1, 0,                    /* P_AB */
    3, PCL_GEN_STEP_INDEX, 4, 0,   /* P_IDX_ID */
    0, 0, 5, 0,                    /* P_A_MISSING */
    0, 0, 5, PCL_GEN_DECLARED,     /* P_A_MISSING_D */
    8, PCL_GEN_STEP_INDEX,         /* P_IDX5 */
    9, 1,                          /* T_FAIL */
    0,                             /* T_CAP0 */
    1,                             /* T_CAP1 */
    2,                             /* T_CAP2 */
    0, 0, 5, PCL_GEN_STEP_BY_MEMBER, 13, 15, /* P_A_MISSING_M */
    0, PCL_GEN_STEP_INDEX | PCL_GEN_STEP_KEYED, 4, 0, /* P_KEY_ID */
};

static pcl_value *null_node(pcl_gen_env *e) {
  (void)e;
  return pcl_null();
}
static const pcl_gen_node_desc NODES[] = {{null_node, 0}};
static const pcl_gen_module M = {NODES, 1};
static const pcl_gen_program P = {PCL_GEN_ABI, &PCL_GEN_ABI_SYMBOL, "pclc test", "gen_iter", NULL,
                                  0, &M, ROWS, K, L, LR, 1, F, NULL, 0};

/* Returns the map {k0: v0, k1: v1, ...} of n pairs (values borrowed). */
static pcl_value *obj(size_t n, const char *const *keys, pcl_value *const *vals) {
  pcl_mapbuf b = PCL_MAPBUF_INIT;
  for (size_t i = 0; i < n; i++) {
    pcl_mapbuf_put_cstr(&b, keys[i], pcl_retain(vals[i]));
  }
  return pcl_mapbuf_finish(&b);
}

/* ------------------------------------------------------------- traversal */

static void test_attr(void) {
  GFX_BEGIN(&P, false);
  pcl_error *err = NULL;
  pcl_value *one = pcl_int_new(1);
  pcl_value *o = obj(1, (const char *[]){"a"}, &one);
  CHECK_JSON(pcl_gen_attr(&e, o, &K[0], 0, &err), "1");
  /* A missing attribute is an error, unless the static type declares it:
   * then it is null. */
  CU_ASSERT_PTR_NULL(pcl_gen_attr(&e, o, &K[5], 0, &err));
  CHECK_ERR(err, "error: Unsupported attribute: this object does not have an attribute named "
                 "\"missing\"");
  CHECK_JSON(pcl_gen_attr(&e, o, &K[5], PCL_GEN_DECLARED, &err), "null");
  /* Null and values without attributes. */
  CU_ASSERT_PTR_NULL(pcl_gen_attr(&e, pcl_null(), &K[0], PCL_GEN_DECLARED, &err));
  CHECK_ERR(err, "error: Attempt to get attribute from null value: this value is null, so it "
                 "has no attributes");
  pcl_value *l = pcl_list_of(&o, 1);
  CU_ASSERT_PTR_NULL(pcl_gen_attr(&e, l, &K[0], 0, &err));
  CHECK_ERR(err, "error: Unsupported attribute: a value of type list does not have an attribute "
                 "named \"a\"");
  CU_ASSERT_PTR_NULL(pcl_gen_attr(&e, one, &K[0], 0, &err));
  CHECK_ERR(err, "error: Unsupported attribute: a value of type int does not have an attribute "
                 "named \"a\"");
  /* A resource reference has its urn and id. */
  pcl_value *urn = pcl_str_from_cstr("urn:pulumi:s::p::t::r");
  pcl_value *id = pcl_str_from_cstr("r-1");
  pcl_value *ref = pcl_resource_new(urn, id, NULL);
  CHECK_JSON(pcl_gen_attr(&e, ref, &K[10], 0, &err), "\"urn:pulumi:s::p::t::r\"");
  CHECK_JSON(pcl_gen_attr(&e, ref, &K[4], 0, &err), "\"r-1\"");
  CU_ASSERT_PTR_NULL(pcl_gen_attr(&e, ref, &K[0], PCL_GEN_DECLARED, &err));
  CHECK_ERR(err, "error: Unsupported attribute: a value of type resource does not have an "
                 "attribute named \"a\"");
  RELEASE(one, o, l, urn, id, ref);
  gfx_done(&x);
}

/* In a preview a declared attribute that a resource object lacks is
 * unknown: its provider may not have computed it yet. */
static void test_attr_preview(void) {
  GFX_BEGIN(&P, true);
  pcl_error *err = NULL;
  pcl_value *t = pcl_str_from_cstr("pkg:index:T");
  pcl_value *res = obj(1, (const char *[]){"__type"}, &t);
  pcl_value *plain = obj(1, (const char *[]){"b"}, &t);
  CHECK_JSON(pcl_gen_attr(&e, res, &K[5], PCL_GEN_DECLARED, &err), "{\"unknown\":true}");
  CHECK_JSON(pcl_gen_attr(&e, plain, &K[5], PCL_GEN_DECLARED, &err), "null");
  CU_ASSERT_PTR_NULL(pcl_gen_attr(&e, res, &K[5], 0, &err));
  CHECK_ERR(err, "error: Unsupported attribute: this object does not have an attribute named "
                 "\"missing\"");
  RELEASE(t, res, plain);
  gfx_done(&x);
}

static void test_index(void) {
  pcl_error *err = NULL;
  live_counts before = live_now();
  pcl_value *items[] = {pcl_str_from_cstr("p"), pcl_str_from_cstr("q")};
  pcl_value *l = pcl_list_of_take(items, 2);
  CHECK_JSON(pcl_gen_index(l, &K[3], 0, &err), "\"q\"");
  /* A whole number of another kind is an index too. */
  pcl_value *n1 = pcl_number_new(1.0);
  CHECK_JSON(pcl_gen_index(l, n1, 0, &err), "\"q\"");
  CHECK_JSON(pcl_gen_index(l, &K[7], 0, &err), "\"q\"");
  CU_ASSERT_PTR_NULL(pcl_gen_index(l, &K[8], 0, &err));
  CHECK_ERR(err, "error: Invalid index: the index 5 is out of range for a list of 2 elements");
  pcl_value *neg = pcl_int_new(-1);
  CU_ASSERT_PTR_NULL(pcl_gen_index(l, neg, 0, &err));
  CHECK_ERR(err, "error: Invalid index: the index -1 is out of range for a list of 2 elements");
  pcl_value *frac = pcl_number_new(0.5);
  CU_ASSERT_PTR_NULL(pcl_gen_index(l, frac, 0, &err));
  CHECK_ERR(err, "error: cannot convert 0.5 to int: not an integer");
  /* Maps: keys are converted to strings; a missing key is an error. */
  pcl_value *m = obj(2, (const char *[]){"1", "a"}, items);
  CHECK_JSON(pcl_gen_index(m, &K[3], 0, &err), "\"p\"");
  CHECK_JSON(pcl_gen_index(m, &K[0], 0, &err), "\"q\"");
  CU_ASSERT_PTR_NULL(pcl_gen_index(m, &K[1], 0, &err));
  CHECK_ERR(err, "error: Invalid index: the key \"b\" does not identify an element of this "
                 "collection");
  CU_ASSERT_PTR_NULL(pcl_gen_index(m, pcl_null(), 0, &err));
  CHECK_ERR(err, "error: Invalid index: a null value cannot be a key");
  CU_ASSERT_PTR_NULL(pcl_gen_index(m, l, 0, &err));
  CHECK_ERR(err, "error: Invalid index: cannot convert list to string: a string is "
                 "required");
  /* Sets, null and scalars have no elements to index. */
  pcl_value *set = pcl_set_of(items, 2);
  CU_ASSERT_PTR_NULL(pcl_gen_index(set, &K[2], 0, &err));
  CHECK_ERR(err, "error: Invalid index: the elements of a set are identified only by their "
                 "value and have no index or key");
  CU_ASSERT_PTR_NULL(pcl_gen_index(pcl_null(), &K[2], 0, &err));
  CHECK_ERR(err, "error: Attempt to index null value: this value is null, so it has no "
                 "elements");
  CU_ASSERT_PTR_NULL(pcl_gen_index(&K[0], &K[2], 0, &err));
  CHECK_ERR(err, "error: Invalid index: a value of type string has no elements");
  /* With PCL_GEN_DECLARED a missing key of a map reads null: the static
   * type declares it.  Present keys and the other failures are as they
   * were. */
  CHECK_JSON(pcl_gen_index(m, &K[1], PCL_GEN_DECLARED, &err), "null");
  CHECK_JSON(pcl_gen_index(m, &K[0], PCL_GEN_DECLARED, &err), "\"q\"");
  CHECK_JSON(pcl_gen_index(m, &K[3], PCL_GEN_DECLARED, &err), "\"p\"");
  CU_ASSERT_PTR_NULL(pcl_gen_index(m, pcl_null(), PCL_GEN_DECLARED, &err));
  CHECK_ERR(err, "error: Invalid index: a null value cannot be a key");
  CU_ASSERT_PTR_NULL(pcl_gen_index(l, &K[8], PCL_GEN_DECLARED, &err));
  CHECK_ERR(err, "error: Invalid index: the index 5 is out of range for a list of 2 elements");
  CU_ASSERT_PTR_NULL(pcl_gen_index(pcl_null(), &K[0], PCL_GEN_DECLARED, &err));
  CHECK_ERR(err, "error: Attempt to index null value: this value is null, so it has no "
                 "elements");
  RELEASE(l, n1, neg, frac, m, set);
  CHECK_NO_LEAK(before);
}

static void test_path_plain(void) {
  GFX_BEGIN(&P, false);
  pcl_error *err = NULL;
  pcl_value *two = pcl_int_new(2);
  pcl_value *ob = obj(1, (const char *[]){"b"}, &two);
  pcl_value *root = obj(1, (const char *[]){"a"}, &ob);
  /* Nothing on the way is eventual, secret or unknown: the value itself. */
  pcl_value *r = pcl_gen_path(&e, root, ROWS + P_AB, 2, 1, &err);
  CU_ASSERT_PTR_EQUAL(r, two);
  pcl_release(r);
  /* A failure reached without waiting is immediate and located. */
  CU_ASSERT_PTR_NULL(pcl_gen_path(&e, root, ROWS + P_A_MISSING, 2, 1, &err));
  CHECK_ERR(err, "main.pp:4:3: error: Unsupported attribute: this object does not have an "
                 "attribute named \"missing\"");
  CHECK_JSON(pcl_gen_path(&e, root, ROWS + P_A_MISSING_D, 2, 1, &err), "null");
  /* A secret on the way makes the result secret (an EVENTUAL); a secret
   * sibling does not. */
  pcl_value *sob = pcl_secret_new(ob);
  pcl_value *sroot = obj(1, (const char *[]){"a"}, &sob);
  r = pcl_gen_path(&e, sroot, ROWS + P_AB, 2, 1, &err);
  CU_ASSERT_EQUAL(pcl_kind_of(r), PCL_T_EVENTUAL);
  CHECK_JSON(r, "{\"secret\":2}");
  pcl_value *pair = obj(2, (const char *[]){"a", "b"}, (pcl_value *[]){ob, sob});
  r = pcl_gen_path(&e, pair, ROWS + P_AB, 2, 1, &err);
  CU_ASSERT_PTR_EQUAL(r, two);
  pcl_release(r);
  /* An unknown on the way makes it unknown; one at the end is the value. */
  pcl_value *uroot = obj(1, (const char *[]){"a"}, (pcl_value *[]){pcl_unknown()});
  CHECK_JSON(pcl_gen_path(&e, uroot, ROWS + P_AB, 2, 1, &err), "{\"unknown\":true}");
  CU_ASSERT_PTR_EQUAL(pcl_gen_path(&e, uroot, ROWS + P_AB, 1, 1, &err), pcl_unknown());
  RELEASE(two, ob, root, sob, sroot, pair, uroot);
  gfx_done(&x);
}

/* A step declared by some members of a discriminated union: the value's
 * discriminator decides, through a secret, and an unknown one leaves it
 * unknown. */
static void test_path_members(void) {
  GFX_BEGIN(&P, false);
  pcl_error *err = NULL;
  pcl_value *kinds[] = {pcl_str_from_cstr("v1"), pcl_str_from_cstr("v2"), pcl_unknown(), NULL};
  kinds[3] = pcl_secret_new(kinds[0]);
  const char *want[] = {"null", NULL, "{\"unknown\":true}", "null"};
  for (size_t i = 0; i < 4; i++) {
    pcl_value *a = obj(1, (const char *[]){"kind"}, &kinds[i]);
    pcl_value *root = obj(1, (const char *[]){"a"}, &a);
    pcl_value *r = pcl_gen_path(&e, root, ROWS + P_A_MISSING_M, 2, 1, &err);
    if (want[i]) {
      CHECK_JSON(r, want[i]);
    } else {
      CU_ASSERT_PTR_NULL(r);
      CHECK_ERR(err, "main.pp:4:3: error: Unsupported attribute: this object does not have an "
                     "attribute named \"missing\"");
    }
    RELEASE(a, root);
  }
  RELEASE(kinds[0], kinds[1], kinds[3]);
  gfx_done(&x);
}

/* [k].id with a computed key k on a list of resource futures: only the
 * element reached is waited for; a secret key makes the result secret, an
 * unknown one makes it unknown. */
static void test_path_keys(void) {
  GFX_BEGIN(&P, false);
  pcl_error *err = NULL;
  pcl_value *r0, *r1;
  pcl_future *f0 = pending(&r0), *f1 = pending(&r1);
  pcl_value *list = pcl_list_of((pcl_value *[]){r0, r1}, 2);
  pcl_value *one = pcl_int_new(1);
  pcl_value *v = pcl_gen_path_keys(&e, list, &one, 1, ROWS + P_KEY_ID, 2, 1, &err);
  pcl_value *secret_one = pcl_secret_new(one);
  pcl_value *sv = pcl_gen_path_keys(&e, list, &secret_one, 1, ROWS + P_KEY_ID, 2, 1, &err);
  /* The keys are the caller's: the waiting traversals keep their own. */
  RELEASE(one, secret_one);
  pcl_value *id = pcl_str_from_cstr("r1-id");
  pcl_value *res = obj(1, (const char *[]){"id"}, &id);
  pcl_deps *d = pcl_deps_one("urn:r1");
  pcl_future_resolve(f1, res, 0, d);
  pcl_sched_run();
  CU_ASSERT(pcl_deps_has(deps_of(v), "urn:r1"));
  CHECK_JSON(v, "\"r1-id\"");
  CHECK_JSON(sv, "{\"secret\":\"r1-id\"}");
  CU_ASSERT_EQUAL(pcl_future_state_of(f0), PCL_FUTURE_PENDING);
  pcl_value *unknown = pcl_unknown();
  CHECK_JSON(pcl_gen_path_keys(&e, list, &unknown, 1, ROWS + P_KEY_ID, 2, 1, &err),
             "{\"unknown\":true}");
  pcl_future_resolve(f0, NULL, 0, NULL);
  RELEASE_FUTURES(f0, f1);
  RELEASE(r0, r1, list, id, res);
  pcl_deps_release(d);
  gfx_done(&x);
}

static void test_path_futures(void) {
  GFX_BEGIN(&P, false);
  pcl_error *err = NULL;
  /* [1].id on a list of resource futures waits for the second only. */
  pcl_value *r0, *r1;
  pcl_future *f0 = pending(&r0), *f1 = pending(&r1);
  pcl_value *list = pcl_list_of((pcl_value *[]){r0, r1}, 2);
  pcl_value *v = pcl_gen_path(&e, list, ROWS + P_IDX_ID, 2, 1, &err);
  CU_ASSERT_EQUAL(pcl_kind_of(v), PCL_T_EVENTUAL);
  pcl_value *id = pcl_str_from_cstr("r1-id");
  pcl_value *res = obj(1, (const char *[]){"id"}, &id);
  pcl_deps *d = pcl_deps_one("urn:r1");
  pcl_future_resolve(f1, res, 0, d);
  pcl_sched_run();
  CU_ASSERT(pcl_deps_has(deps_of(v), "urn:r1"));
  CHECK_JSON(v, "\"r1-id\"");
  /* a.b through a future holding a future: both are followed, their
   * secrets and dependencies collected. */
  pcl_value *root, *inner;
  pcl_future *froot = pending(&root), *finner = pending(&inner);
  v = pcl_gen_path(&e, root, ROWS + P_AB, 2, 1, &err);
  pcl_value *layer = obj(1, (const char *[]){"a"}, &inner);
  pcl_future_resolve(froot, layer, 0, d);
  pcl_sched_run();
  CU_ASSERT_EQUAL(pcl_future_state_of(pcl_value_future(v)), PCL_FUTURE_PENDING);
  pcl_value *bval = obj(1, (const char *[]){"b"}, &id);
  pcl_deps *d2 = pcl_deps_one("urn:inner");
  pcl_future_resolve(finner, bval, PCL_FUT_SECRET, d2);
  pcl_sched_run();
  CU_ASSERT(pcl_deps_has(deps_of(v), "urn:r1"));
  CU_ASSERT(pcl_deps_has(deps_of(v), "urn:inner"));
  CHECK_JSON(v, "{\"secret\":\"r1-id\"}");
  /* A failure after waiting rejects the result, located. */
  v = pcl_gen_path(&e, r1, ROWS + P_A_MISSING, 2, 2, &err);
  pcl_sched_run();
  CHECK_REJECTED(v, "main.pp:9:1: error: Unsupported attribute: this object does not have an "
                    "attribute named \"a\"");
  /* A rejected future on the way: its error, located if it has no
   * location. */
  pcl_future *fbad = pcl_future_new(PCL_OUTPUT, NULL);
  pcl_future_reject_take(fbad, pcl_error_new("registration failed"));
  pcl_value *bad = pcl_future_to_value(fbad);
  v = pcl_gen_path(&e, bad, ROWS + P_AB, 2, 2, &err);
  pcl_sched_run();
  CHECK_REJECTED(v, "main.pp:9:1: error: registration failed");
  /* An unknown future on the way: unknown, with its dependencies. */
  pcl_value *u;
  pcl_future *fu = pending(&u);
  v = pcl_gen_path(&e, u, ROWS + P_AB, 2, 1, &err);
  pcl_future_resolve(fu, NULL, PCL_FUT_UNKNOWN, d2);
  pcl_sched_run();
  CU_ASSERT(pcl_deps_has(deps_of(v), "urn:inner"));
  CHECK_JSON(v, "{\"unknown\":true}");
  /* A future at the end is the value. */
  v = pcl_gen_path(&e, list, ROWS + P_IDX_ID, 1, 1, &err);
  CU_ASSERT_PTR_EQUAL(v, r1);
  pcl_release(v);
  pcl_future_resolve(f0, NULL, 0, NULL);
  RELEASE_FUTURES(f0, f1, froot, finner, fbad, fu);
  RELEASE(r0, r1, list, id, res, root, inner, layer, bval, bad, u);
  pcl_deps_release(d);
  pcl_deps_release(d2);
  gfx_done(&x);
}

/* In a preview, a declared output that a resource's object lacks reads
 * unknown through a traversal too. */
static void test_path_preview(void) {
  GFX_BEGIN(&P, true);
  pcl_error *err = NULL;
  pcl_value *r;
  pcl_future *f = pending(&r);
  pcl_value *v = pcl_gen_path(&e, r, ROWS + P_A_MISSING_D + 2, 1, 1, &err);
  pcl_value *t = pcl_str_from_cstr("pkg:index:T");
  pcl_value *res = obj(1, (const char *[]){"__type"}, &t);
  pcl_future_resolve(f, res, 0, NULL);
  pcl_sched_run();
  CHECK_JSON(v, "{\"unknown\":true}");
  pcl_future_release(f);
  RELEASE(r, t, res);
  gfx_done(&x);
}

/* ---------------------------------------------------------- constructors */

static void test_object(void) {
  gfx x;
  gfx_init(&x, &P, false);
  pcl_error *err = NULL;
  pcl_value *vals[] = {&K[2], &K[3], &K[8]};
  /* Keys convert to strings; the later of equal keys wins. */
  CHECK_JSON(pcl_gen_object((pcl_value *[]){&K[1], &K[3], &K[1]}, vals, 3, &err),
             "{\"1\":1,\"b\":5}");
  CHECK_JSON(pcl_gen_object(NULL, NULL, 0, &err), "{}");
  CU_ASSERT_PTR_NULL(pcl_gen_object((pcl_value *[]){pcl_null()}, vals, 1, &err));
  CHECK_ERR(err, "error: Null value as key: an object key must not be null");
  pcl_value *l = pcl_list_of(vals, 1);
  CU_ASSERT_PTR_NULL(pcl_gen_object((pcl_value *[]){&K[0], l}, vals, 2, &err));
  CHECK_ERR(err, "error: Incorrect key type: cannot convert list to string: a string is required");
  /* Values are kept as they are, futures included. */
  pcl_value *ev;
  pcl_future *f = pending(&ev);
  pcl_value *o = pcl_gen_object((pcl_value *[]){&K[0], &K[1]}, (pcl_value *[]){ev, l}, 2, &err);
  CU_ASSERT_PTR_EQUAL(pcl_map_get_cstr(o, "a"), ev);
  CU_ASSERT_PTR_EQUAL(pcl_map_get_cstr(o, "b"), l);
  pcl_future_release(f);
  RELEASE(l, ev, o);
  gfx_done(&x);
}

static void test_templates(void) {
  live_counts before = live_now();
  pcl_error *err = NULL;
  pcl_value *big = pcl_num_literal("123456789012345678901234567890", 30, &err);
  pcl_value *num = pcl_number_new(0.1), *whole = pcl_number_new(-3.0);
  /* Strings as they are, ints and numbers in decimal, bools as true and
   * false. */
  pcl_value *parts[] = {&K[0], big, &K[6], num, pcl_bool(true), &K[8], pcl_bool(false), whole};
  CHECK_JSON(pcl_gen_template(parts, 8, &err),
             "\"a123456789012345678901234567890x0.1true5false-3\"");
  CHECK_JSON(pcl_gen_template(NULL, 0, &err), "\"\"");
  CU_ASSERT_PTR_NULL(err);
  /* The result is NFC: a combining acute accent composes with the letter
   * of the part before it. */
  pcl_value *letter = pcl_str_from_cstr("caf"), *e = pcl_str_from_cstr("e");
  pcl_value *acute = pcl_str_from_cstr("\xCC\x81");
  pcl_value *s = pcl_gen_template((pcl_value *[]){letter, e, acute}, 3, &err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  CU_ASSERT_EQUAL(pcl_str_len(s), 5);
  CU_ASSERT_STRING_EQUAL(pcl_str_data(s), "caf\xC3\xA9");
  /* Null and collections fail (HCL's messages). */
  CU_ASSERT_PTR_NULL(pcl_gen_template((pcl_value *[]){&K[0], pcl_null()}, 2, &err));
  CHECK_ERR(err, "error: invalid template interpolation value: the expression result is null");
  pcl_value *l = pcl_list_of(parts, 2);
  CU_ASSERT_PTR_NULL(pcl_gen_template((pcl_value *[]){l, &K[0]}, 2, &err));
  CHECK_ERR(err, "error: invalid template interpolation value: cannot include a list in a "
                 "string");
  RELEASE(big, num, whole, letter, e, acute, s, l);
  CHECK_NO_LEAK(before);
}

/* ------------------------------------------------------------ iteration */

/* The PCL_GEN_FOR_* flags of the for expression under test: its body
 * stores only the parts that form has, as generated code does. */
static unsigned form;

/* Stores the body's results value, key and condition (stolen) in out, as
 * far as the form has them. */
static void store(pcl_value **out, pcl_value *value, pcl_value *key, pcl_value *cond) {
  out[PCL_GEN_OUT_VALUE] = value;
  if (form & PCL_GEN_FOR_OBJECT) {
    out[PCL_GEN_OUT_KEY] = key;
  } else {
    pcl_release(key);
  }
  if (form & PCL_GEN_FOR_COND) {
    out[PCL_GEN_OUT_COND] = cond;
  } else {
    pcl_release(cond);
  }
}

/* Runs pcl_gen_for with the form flags. */
static pcl_value *run_for(pcl_gen_env *closure, pcl_gen_each_fn each, unsigned flags,
                          const pcl_value *coll, uint32_t loc, pcl_error **err) {
  form = flags;
  return pcl_gen_for(closure, each, flags, coll, loc, err);
}

/* A for body: value v * 10, key "k<v>", condition v != 2 (all from the
 * element's value). */
static bool each_tens(pcl_gen_env *e, pcl_value *key, pcl_value *value, pcl_value **out,
                      pcl_error **err) {
  (void)e;
  (void)key;
  pcl_value *ten = pcl_int_new(10);
  pcl_value *v = pcl_op_mul(value, ten, err);
  pcl_release(ten);
  pcl_strbuf b = PCL_STRBUF_INIT;
  pcl_strbuf_append_char(&b, 'k');
  pcl_int_format(&b, value);
  store(out, v, pcl_strbuf_finish(&b, err), pcl_op_ne(value, &K[12]));
  return true;
}

/* A for body over a map: the value is "<key>=<value>" ("<value>" in a
 * splat, which has no key), the key the value, the condition always true;
 * a value "boom" fails. */
static bool each_pairs(pcl_gen_env *e, pcl_value *key, pcl_value *value, pcl_value **out,
                       pcl_error **err) {
  if (pcl_kind_of(value) == PCL_T_STRING && pcl_str_eq_cstr(value, "boom")) {
    pcl_gen_fail(e, &K[9], 1, err);
    return false;
  }
  pcl_strbuf b = PCL_STRBUF_INIT;
  if (key != NULL) {
    pcl_strbuf_append_value(&b, key, err);
    pcl_strbuf_append_char(&b, '=');
  }
  pcl_strbuf_append_value(&b, value, err);
  store(out, pcl_strbuf_finish(&b, err), pcl_retain(value), pcl_bool(true));
  return true;
}

/* A for body whose value, key and condition are the element's value
 * itself (the collection holds what the test wants each to be). */
static bool each_self(pcl_gen_env *e, pcl_value *key, pcl_value *value, pcl_value **out,
                      pcl_error **err) {
  (void)e;
  (void)key;
  (void)err;
  store(out, pcl_retain(value), pcl_retain(value), pcl_retain(value));
  return true;
}

/* A for body whose parts come from the element, a map {v, k, c}. */
static bool each_fields(pcl_gen_env *e, pcl_value *key, pcl_value *value, pcl_value **out,
                        pcl_error **err) {
  (void)e;
  (void)key;
  (void)err;
  store(out, pcl_retain(pcl_map_get_cstr(value, "v")), pcl_retain(pcl_map_get_cstr(value, "k")),
        pcl_retain(pcl_map_get_cstr(value, "c")));
  return true;
}

/* Returns the list of the ints a[0..n). */
static pcl_value *ints(size_t n, const int64_t *a) {
  pcl_value **items = pcl_xmalloc(n * sizeof *items);
  for (size_t i = 0; i < n; i++) {
    items[i] = pcl_int_new(a[i]);
  }
  pcl_value *l = pcl_list_of_take(items, n);
  free(items);
  return l;
}

static void test_for_forms(void) {
  GFX_BEGIN(&P, false);
  pcl_error *err = NULL;
  pcl_value *xs = ints(4, (int64_t[]){1, 2, 3, 2});
  /* The forms, each body running in a stack environment here. */
  CHECK_JSON(run_for(&e, each_tens, 0, xs, 1, &err), "[10,20,30,20]");
  CHECK_JSON(run_for(&e, each_tens, PCL_GEN_FOR_COND, xs, 1, &err), "[10,30]");
  CHECK_JSON(run_for(&e, each_tens, PCL_GEN_FOR_OBJECT, xs, 1, &err),
             "{\"k1\":10,\"k2\":20,\"k3\":30}");
  CHECK_JSON(run_for(&e, each_tens, PCL_GEN_FOR_OBJECT | PCL_GEN_FOR_GROUP, xs, 1, &err),
             "{\"k1\":[10],\"k2\":[20,20],\"k3\":[30]}");
  CHECK_JSON(run_for(&e, each_tens, PCL_GEN_FOR_CONCAT, xs, 1, &err), "\"10203020\"");
  CHECK_JSON(run_for(&e, each_tens, PCL_GEN_FOR_CONCAT | PCL_GEN_FOR_COND, xs, 1, &err),
             "\"1030\"");
  /* Maps iterate in key order; sets in element order; a heap closure is
   * released. */
  pcl_value *m = obj(2, (const char *[]){"z", "a"}, (pcl_value *[]){&K[6], &K[0]});
  CHECK_JSON(run_for(pcl_gen_env_new(&e, ROWS, 0, NULL), each_pairs, 0, m, 1, &err),
             "[\"a=a\",\"z=x\"]");
  pcl_value *set = pcl_set_of((pcl_value *[]){&K[8], &K[3]}, 2);
  CHECK_JSON(run_for(&e, each_tens, 0, set, 1, &err), "[10,50]");
  pcl_value *none = pcl_list_of(NULL, 0);
  CHECK_JSON(run_for(&e, each_tens, 0, none, 1, &err), "[]");
  RELEASE(none, m, set, xs);
  gfx_done(&x);
}

/* Grouping keeps element order within each key and sorts the keys, in
 * n log n: ten thousand elements over a hundred keys. */
static void test_for_group_large(void) {
  GFX_BEGIN(&P, false);
  pcl_error *err = NULL;
  size_t n = 10000;
  pcl_value **items = pcl_xmalloc(n * sizeof *items);
  for (size_t i = 0; i < n; i++) {
    char k[8];
    snprintf(k, sizeof k, "g%02zu", (n - 1 - i) % 100);
    pcl_value *kv = pcl_str_from_cstr(k);
    pcl_value *iv = pcl_int_new((int64_t)i);
    items[i] = obj(3, (const char *[]){"c", "k", "v"}, (pcl_value *[]){pcl_bool(true), kv, iv});
    pcl_release(kv);
    pcl_release(iv);
  }
  pcl_value *l = pcl_list_of_take(items, n);
  free(items);
  pcl_value *g = run_for(&e, each_fields, PCL_GEN_FOR_OBJECT | PCL_GEN_FOR_GROUP, l, 1, &err);
  CU_ASSERT_EQUAL_FATAL(pcl_len(g), 100);
  CU_ASSERT_STRING_EQUAL(pcl_str_data(pcl_map_key_at(g, 0)), "g00");
  pcl_value *g00 = pcl_map_val_at(g, 0);
  CU_ASSERT_EQUAL(pcl_len(g00), 100);
  int64_t prev = -1;
  bool ordered = true;
  for (size_t i = 0; i < pcl_len(g00); i++) {
    int64_t v = -1;
    pcl_int_get_i64(pcl_list_at(g00, i), &v);
    ordered = ordered && v > prev && (n - 1 - (size_t)v) % 100 == 0;
    prev = v;
  }
  CU_ASSERT(ordered);
  pcl_release(g);
  pcl_release(l);
  gfx_done(&x);
}

static void test_for_eventual(void) {
  GFX_BEGIN(&P, false);
  pcl_error *err = NULL;
  /* An eventual condition and key: the result waits for them; the values
   * stay eventual in the list form. */
  pcl_value *c, *k, *v;
  pcl_future *fc = pending(&c), *fk = pending(&k), *fv = pending(&v);
  pcl_value *e1 = obj(3, (const char *[]){"c", "k", "v"}, (pcl_value *[]){c, &K[0], v});
  pcl_value *e2 = obj(3, (const char *[]){"c", "k", "v"}, (pcl_value *[]){pcl_bool(true), k, &K[3]});
  pcl_value *l = pcl_list_of((pcl_value *[]){e1, e2}, 2);
  pcl_value *lst = run_for(&e, each_fields, PCL_GEN_FOR_COND, l, 1, &err);
  pcl_value *ob = run_for(&e, each_fields, PCL_GEN_FOR_OBJECT, l, 1, &err);
  pcl_value *str = run_for(&e, each_fields, PCL_GEN_FOR_CONCAT, l, 1, &err);
  CU_ASSERT_EQUAL(pcl_kind_of(lst), PCL_T_EVENTUAL);
  pcl_deps *d = pcl_deps_one("urn:c");
  pcl_future_resolve(fc, pcl_bool(true), PCL_FUT_SECRET, d);
  pcl_future_resolve(fk, &K[1], 0, NULL);
  pcl_sched_run();
  pcl_value *got = pcl_future_value(pcl_value_future(lst));
  CU_ASSERT_EQUAL(pcl_len(got), 2);
  CU_ASSERT_PTR_EQUAL(pcl_list_at(got, 0), v);
  CU_ASSERT_EQUAL(pcl_future_bits(pcl_value_future(lst)), PCL_FUT_SECRET);
  CU_ASSERT(pcl_deps_has(deps_of(lst), "urn:c"));
  CHECK_JSON(ob, "{\"a\":{\"unknown\":true},\"b\":1}");
  /* %{for} waits for its values too. */
  CU_ASSERT_EQUAL(pcl_future_state_of(pcl_value_future(str)), PCL_FUTURE_PENDING);
  pcl_future_resolve(fv, &K[6], 0, NULL);
  pcl_sched_run();
  CHECK_JSON(str, "\"x1\"");
  pcl_release(lst);
  /* An eventual condition that settles to no bool fails, located. */
  pcl_value *c2;
  pcl_future *fc2 = pending(&c2);
  pcl_value *l2 = pcl_list_of(&c2, 1);
  lst = run_for(&e, each_self, PCL_GEN_FOR_COND, l2, 2, &err);
  pcl_future_resolve(fc2, &K[8], 0, NULL);
  pcl_sched_run();
  CHECK_REJECTED(lst, "main.pp:9:1: error: invalid condition: cannot convert 5 to bool: a bool "
                      "is required");
  RELEASE_FUTURES(fc, fk, fv, fc2);
  RELEASE(c, k, v, e1, e2, l, c2, l2);
  pcl_deps_release(d);
  gfx_done(&x);
}

static void test_for_failures(void) {
  GFX_BEGIN(&P, false);
  pcl_error *err = NULL;
  /* The body's own failure, with what it built before released. */
  pcl_value *boom = pcl_str_from_cstr("boom");
  pcl_value *m2 = obj(2, (const char *[]){"a", "b"}, (pcl_value *[]){&K[6], boom});
  CU_ASSERT_PTR_NULL(run_for(pcl_gen_env_new(&e, ROWS, 0, NULL), each_pairs,
                                 PCL_GEN_FOR_OBJECT | PCL_GEN_FOR_COND, m2, 2, &err));
  CHECK_ERR(err, "main.pp:4:3: error: nope");
  /* What is not a collection. */
  CU_ASSERT_PTR_NULL(run_for(pcl_gen_env_new(&e, ROWS, 0, NULL), each_pairs, 0, &K[0], 2,
                                 &err));
  CHECK_ERR(err, "main.pp:9:1: error: Iteration over non-iterable value: a value of type string "
                 "cannot be the collection of a for expression");
  CU_ASSERT_PTR_NULL(run_for(&e, each_pairs, 0, pcl_null(), 2, &err));
  CHECK_ERR(err, "main.pp:9:1: error: Iteration over null value: a null value cannot be the "
                 "collection of a for expression");
  /* Assembly: conditions must be bools, keys strings. */
  pcl_value *l = pcl_list_of((pcl_value *[]){&K[7], pcl_null()}, 2);
  CU_ASSERT_PTR_NULL(run_for(&e, each_self, PCL_GEN_FOR_COND, l, 2, &err));
  CHECK_ERR(err, "main.pp:9:1: error: invalid condition null: a bool is required");
  pcl_value *l2 = pcl_list_of((pcl_value *[]){pcl_bool(true)}, 1);
  CHECK_JSON(run_for(&e, each_self, PCL_GEN_FOR_OBJECT | PCL_GEN_FOR_COND, l2, 2, &err),
             "{\"true\":true}");
  pcl_value *withnull = obj(2, (const char *[]){"k", "v"}, (pcl_value *[]){pcl_null(), &K[0]});
  pcl_value *l4 = pcl_list_of(&withnull, 1);
  CU_ASSERT_PTR_NULL(run_for(&e, each_fields, PCL_GEN_FOR_OBJECT, l4, 2, &err));
  CHECK_ERR(err, "main.pp:9:1: error: Null value as key: an object key must not be null");
  CU_ASSERT_PTR_NULL(run_for(&e, each_self, PCL_GEN_FOR_CONCAT, l4, 2, &err));
  CHECK_ERR(err, "main.pp:9:1: error: invalid template interpolation value: cannot include a "
                 "map in a string");
  RELEASE(boom, m2, l, l2, withnull, l4);
  gfx_done(&x);
}

static void test_splat(void) {
  GFX_BEGIN(&P, false);
  pcl_error *err = NULL;
  pcl_value *xs = ints(3, (int64_t[]){1, 2, 3});
  CHECK_JSON(pcl_gen_splat(pcl_gen_env_new(&e, ROWS, 0, NULL), each_tens, xs, &err),
             "[10,20,30]");
  pcl_value *set = pcl_set_of((pcl_value *[]){&K[8], &K[3]}, 2);
  CHECK_JSON(pcl_gen_splat(&e, each_tens, set, &err), "[10,50]");
  /* Anything else is one element; null is none. */
  CHECK_JSON(pcl_gen_splat(&e, each_tens, &K[8], &err), "[50]");
  CHECK_JSON(pcl_gen_splat(&e, each_tens, pcl_null(), &err), "[]");
  /* A failing element fails the splat, releasing the ones before it. */
  pcl_value *boom = pcl_str_from_cstr("boom");
  pcl_value *l = pcl_list_of((pcl_value *[]){&K[0], boom}, 2);
  CU_ASSERT_PTR_NULL(pcl_gen_splat(pcl_gen_env_new(&e, ROWS, 0, NULL), each_pairs, l, &err));
  CHECK_ERR(err, "main.pp:4:3: error: nope");
  RELEASE(xs, set, boom, l);
  gfx_done(&x);
}

/* ----------------------------------------------------- try, can, recover */

static int thunk_calls;

/* A thunk failing with the row's message at the row's location. */
static pcl_value *thunk_fail(pcl_gen_env *e, pcl_error **err) {
  thunk_calls++;
  return pcl_gen_fail(e, &K[e->r[0]], e->r[1], err);
}

/* A thunk whose value is the captured value the row names. */
static pcl_value *thunk_captured(pcl_gen_env *e, pcl_error **err) {
  (void)err;
  thunk_calls++;
  return pcl_retain(e->v[e->r[0]]);
}

/* The recovery: "<the captured value the row names>: <error>". */
static pcl_value *recovery(pcl_gen_env *e, pcl_value *error, pcl_error **err) {
  pcl_strbuf b = PCL_STRBUF_INIT;
  pcl_strbuf_append_value(&b, e->v[e->r[0]], err);
  pcl_strbuf_append_cstr(&b, ": ");
  pcl_strbuf_append_value(&b, error, err);
  return pcl_strbuf_finish(&b, err);
}

/* A recovery failing with the row's message at the row's location. */
static pcl_value *recovery_fails(pcl_gen_env *e, pcl_value *error, pcl_error **err) {
  (void)error;
  return pcl_gen_fail(e, &K[e->r[0]], e->r[1], err);
}

static const pcl_gen_thunk_fn TRY4[] = {thunk_fail, thunk_captured, thunk_captured,
                                        thunk_captured};

/* Returns a closure of e for a thunk whose row is ROWS + row, capturing
 * vals[0..n). */
static pcl_gen_env *thunk_env(const pcl_gen_env *e, uint32_t row, size_t n,
                              pcl_value *const *vals) {
  return pcl_gen_env_new(e, ROWS + row, n, vals);
}

static void test_try(void) {
  GFX_BEGIN(&P, false);
  /* Each alternative runs in its own closure, with its own row and
   * captured values.  Alternative 1 fails at once, 2 is a rejected future,
   * 3 (its second captured value) succeeds once its nested future settles;
   * 4 never runs and its closure is released. */
  pcl_value *bad = pcl_gen_failed(&e, pcl_error_new("later failure"), 2);
  pcl_value *ev;
  pcl_future *f = pending(&ev);
  pcl_value *good = pcl_list_of(&ev, 1);
  pcl_gen_env *alts[] = {
      thunk_env(&e, T_FAIL, 0, NULL),
      thunk_env(&e, T_CAP0, 1, &bad),
      thunk_env(&e, T_CAP1, 2, (pcl_value *[]){&K[6], good}),
      thunk_env(&e, T_CAP0, 1, (pcl_value *[]){&K[6]}),
  };
  CU_ASSERT_EQUAL(x.f->refs, 5);
  thunk_calls = 0;
  pcl_value *r = pcl_gen_try(alts, TRY4, 4, 1);
  CU_ASSERT_EQUAL(pcl_kind_of(r), PCL_T_EVENTUAL);
  pcl_sched_run();
  CU_ASSERT_EQUAL(thunk_calls, 3);
  CU_ASSERT_EQUAL(pcl_future_state_of(pcl_value_future(r)), PCL_FUTURE_PENDING);
  pcl_deps *d = pcl_deps_one("urn:x");
  pcl_future_resolve(f, &K[8], 0, d);
  pcl_sched_run();
  CU_ASSERT_EQUAL(thunk_calls, 3);
  CU_ASSERT_EQUAL(x.f->refs, 1);
  CU_ASSERT(pcl_deps_has(deps_of(r), "urn:x"));
  CHECK_JSON(r, "[5]");
  /* The same function in two alternatives, each with its own captures:
   * the first fails through its value, the second yields its own. */
  pcl_gen_env *same[] = {thunk_env(&e, T_CAP0, 1, &bad),
                         thunk_env(&e, T_CAP0, 1, (pcl_value *[]){&K[6]})};
  r = pcl_gen_try(same, TRY4 + 1, 2, 1);
  pcl_sched_run();
  CHECK_JSON(r, "\"x\"");
  /* Every alternative fails: one message naming each failure. */
  pcl_gen_env *fail2[] = {thunk_env(&e, T_FAIL, 0, NULL), thunk_env(&e, T_CAP0, 1, &bad)};
  r = pcl_gen_try(fail2, TRY4, 2, 1);
  pcl_sched_run();
  CHECK_REJECTED(r, "main.pp:4:3: error: no expression succeeded:\n"
                    "- nope (at main.pp:4,3)\n"
                    "- later failure (at main.pp:9,1)\n"
                    "\nAt least one expression must produce a successful result");
  /* A success that is not wholly known is unknown. */
  pcl_value *partly = pcl_list_of((pcl_value *[]){pcl_unknown()}, 1);
  pcl_gen_env *unknown2[] = {thunk_env(&e, T_FAIL, 0, NULL), thunk_env(&e, T_CAP0, 1, &partly)};
  r = pcl_gen_try(unknown2, TRY4, 2, 1);
  pcl_sched_run();
  CHECK_JSON(r, "{\"unknown\":true}");
  pcl_future_release(f);
  pcl_deps_release(d);
  RELEASE(bad, ev, good, partly);
  gfx_done(&x);
}

static void test_can_recover(void) {
  GFX_BEGIN(&P, false);
  pcl_value *bad = pcl_gen_failed(&e, pcl_error_new("no such key"), 2);
  pcl_value *sec = pcl_secret_new(&K[0]);
  pcl_value *partly = pcl_list_of((pcl_value *[]){pcl_unknown()}, 1);
  pcl_value *ev;
  pcl_future *f = pending(&ev);
  /* can: false for a failure, true for a value (secret when it is), unknown
   * when it is not wholly known; an eventual argument is awaited. */
  pcl_value *c1 = pcl_gen_can(thunk_env(&e, T_CAP0, 1, &bad), thunk_captured);
  pcl_value *c2 = pcl_gen_can(thunk_env(&e, T_CAP1, 2, (pcl_value *[]){bad, &K[0]}),
                              thunk_captured);
  pcl_value *c3 = pcl_gen_can(thunk_env(&e, T_CAP0, 1, &sec), thunk_captured);
  pcl_value *c4 = pcl_gen_can(thunk_env(&e, T_CAP0, 1, &partly), thunk_captured);
  pcl_value *c5 = pcl_gen_can(thunk_env(&e, T_CAP0, 1, &ev), thunk_captured);
  pcl_value *c6 = pcl_gen_can(thunk_env(&e, T_FAIL, 0, NULL), thunk_fail);
  pcl_sched_run();
  CU_ASSERT_EQUAL(pcl_future_state_of(pcl_value_future(c5)), PCL_FUTURE_PENDING);
  pcl_future_resolve(f, &K[8], PCL_FUT_SECRET, NULL);
  pcl_sched_run();
  CHECK_JSON(c1, "false");
  CHECK_JSON(c2, "true");
  CHECK_JSON(c3, "{\"secret\":true}");
  CHECK_JSON(c4, "{\"unknown\":true}");
  CHECK_JSON(c5, "{\"secret\":true}");
  CHECK_JSON(c6, "false");
  /* recover: the value when it succeeds (the recovery's closure is
   * released unused), else the recovery in its own closure with `error`
   * bound to the failure's message; a failing recovery fails. */
  pcl_value *tag = pcl_str_from_cstr("recovered");
  pcl_value *v1 = pcl_gen_recover(thunk_env(&e, T_CAP0, 1, &ev), thunk_captured,
                                  thunk_env(&e, T_CAP0, 1, &tag), recovery);
  pcl_value *v2 = pcl_gen_recover(thunk_env(&e, T_CAP0, 1, &bad), thunk_captured,
                                  thunk_env(&e, T_CAP1, 2, (pcl_value *[]){bad, tag}), recovery);
  pcl_value *v3 = pcl_gen_recover(thunk_env(&e, T_CAP0, 1, &bad), thunk_captured,
                                  thunk_env(&e, T_FAIL, 0, NULL), recovery_fails);
  pcl_sched_run();
  CHECK_JSON(v1, "{\"secret\":5}");
  CHECK_JSON(v2, "\"recovered: no such key\"");
  CHECK_REJECTED(v3, "main.pp:4:3: error: nope");
  pcl_future_release(f);
  RELEASE(bad, sec, partly, ev, tag);
  gfx_done(&x);
}

/* ------------------------------------------------------------------ calls */

static void test_get_output(void) {
  GFX_BEGIN(&P, false);
  pcl_value *outs = obj(2, (const char *[]){"a", "x"}, (pcl_value *[]){&K[3], &K[8]});
  pcl_value *names = pcl_list_of((pcl_value *[]){&K[6]}, 1);
  pcl_value *ref = obj(2, (const char *[]){"outputs", "secretOutputNames"},
                       (pcl_value *[]){outs, names});
  CHECK_JSON(pcl_gen_get_output(&e, ref, &K[0], 1), "1");
  CHECK_JSON(pcl_gen_get_output(&e, ref, &K[6], 1), "{\"secret\":5}");
  CHECK_JSON(pcl_gen_get_output(&e, ref, &K[1], 1), "null");
  CHECK_JSON(pcl_gen_get_output(&e, pcl_null(), &K[1], 1), "{\"unknown\":true}");
  CHECK_REJECTED(pcl_gen_get_output(&e, &K[0], &K[1], 1),
                 "main.pp:4:3: error: getOutput needs a stack reference and an output name, not "
                 "string and string");
  /* An eventual reference or name: the result waits, and depends on the
   * reference. */
  pcl_value *rv, *nv;
  pcl_future *fr = pending(&rv), *fn = pending(&nv);
  pcl_value *r = pcl_gen_get_output(&e, rv, nv, 1);
  pcl_value *r2 = pcl_gen_get_output(&e, rv, &K[2], 2);
  pcl_deps *d = pcl_deps_one("urn:ref");
  pcl_future_resolve(fr, ref, 0, d);
  pcl_future_resolve(fn, &K[6], 0, NULL);
  pcl_sched_run();
  CU_ASSERT(pcl_deps_has(deps_of(r), "urn:ref"));
  CHECK_JSON(r, "{\"secret\":5}");
  CHECK_REJECTED(r2, "main.pp:9:1: error: getOutput needs a stack reference and an output name, "
                     "not map and int");
  RELEASE_FUTURES(fr, fn);
  pcl_deps_release(d);
  RELEASE(outs, names, ref, rv, nv);
  gfx_done(&x);
}

static void test_calls(void) {
  gfx x;
  gfx_init(&x, &P, false);
  pcl_error *err = NULL;
  /* f(xs...): the last argument's elements are the trailing arguments. */
  pcl_value *xs = ints(3, (int64_t[]){4, 2, 9});
  CHECK_JSON(pcl_gen_call_expanded("max", &xs, 1, &err), "9");
  pcl_value *sep = pcl_str_from_cstr("-");
  pcl_value *words = pcl_list_of((pcl_value *[]){&K[0], &K[1]}, 2);
  pcl_value *wrapped = pcl_list_of(&words, 1);
  CHECK_JSON(pcl_gen_call_expanded("join", (pcl_value *[]){sep, wrapped}, 2, &err), "\"a-b\"");
  CU_ASSERT_PTR_NULL(pcl_gen_call_expanded("join", (pcl_value *[]){sep, sep}, 2, &err));
  CHECK_ERR(err, "error: Invalid expanding argument value: the argument to expand in a call of "
                 "join must be a list, not string");
  CU_ASSERT_PTR_NULL(pcl_gen_call_expanded("element", (pcl_value *[]){xs, xs}, 2, &err));
  CHECK_ERR(err, "error: too many arguments to call: expected 2, got 4");
  CU_ASSERT_PTR_NULL(pcl_gen_call_expanded("frobnicate", &xs, 1, &err));
  CHECK_ERR(err, "error: call to unknown function frobnicate");
  /* secret and unsecret, on plain and eventual values. */
  pcl_value *s = pcl_gen_secret(&K[0]);
  CU_ASSERT_EQUAL(pcl_kind_of(s), PCL_T_SECRET);
  CHECK_JSON(pcl_gen_unsecret(s), "\"a\"");
  pcl_value *ev;
  pcl_future *f = pending(&ev);
  pcl_value *es = pcl_gen_secret(ev);
  pcl_value *eu = pcl_gen_unsecret(ev);
  pcl_future_resolve(f, &K[0], PCL_FUT_SECRET, NULL);
  pcl_sched_run();
  CHECK_JSON(es, "{\"secret\":\"a\"}");
  CHECK_JSON(eu, "\"a\"");
  pcl_future_release(f);
  RELEASE(xs, sep, words, wrapped, s, ev);
  gfx_done(&x);
}

void register_gen_iter_tests(void);
void register_gen_iter_tests(void) {
  CU_pSuite s = CU_add_suite("gen_iter", NULL, NULL);
  CU_add_test(s, "attributes", test_attr);
  CU_add_test(s, "attributes in a preview", test_attr_preview);
  CU_add_test(s, "indexes", test_index);
  CU_add_test(s, "paths through plain values", test_path_plain);
  CU_add_test(s, "paths through futures", test_path_futures);
  CU_add_test(s, "paths in a preview", test_path_preview);
  CU_add_test(s, "paths through discriminated unions", test_path_members);
  CU_add_test(s, "paths with computed keys", test_path_keys);
  CU_add_test(s, "object constructors", test_object);
  CU_add_test(s, "templates", test_templates);
  CU_add_test(s, "for expression forms", test_for_forms);
  CU_add_test(s, "for grouping at scale", test_for_group_large);
  CU_add_test(s, "for with eventual parts", test_for_eventual);
  CU_add_test(s, "for failures", test_for_failures);
  CU_add_test(s, "splats", test_splat);
  CU_add_test(s, "try", test_try);
  CU_add_test(s, "can and recover", test_can_recover);
  CU_add_test(s, "getOutput", test_get_output);
  CU_add_test(s, "expanded calls, secret and unsecret", test_calls);
}
