/* test_value.c: the core of the value layer, driven from C the way emitted
 * code drives it: immortal static literals, refcounting and the live
 * counters, lists, maps (sorting, last-wins de-duplication, lookup), sets,
 * deep equality and ordering, the reference/asset/archive/secret/eventual
 * kinds, errors and printable forms. */
#include <CUnit/CUnit.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pcl_gen.h"
#include "value/pcl_internal.h"
#include "value_check.h"

/* Static data as the compiler emits it. */
static pcl_value s_hello = PCL_STATIC_ASCII("hello");
static pcl_value s_a = PCL_STATIC_ASCII("a");
static pcl_value s_b = PCL_STATIC_ASCII("b");
static pcl_value s_cafe = PCL_STATIC_STRING("caf\xC3\xA9");
static pcl_value i_42 = PCL_STATIC_INT(42);
static pcl_value n_half = PCL_STATIC_NUMBER(0.5);
static pcl_value b_true = PCL_STATIC_BOOL(true);
static pcl_value v_null = PCL_STATIC_NULL;
static const uint64_t two64_limbs[] = {0, 1};
static pcl_value i_two64 = PCL_STATIC_BIGINT(two64_limbs, 2);
static const uint64_t neg_two64_limbs[] = {0, 1};
static pcl_value i_neg_two64 = PCL_STATIC_BIGINT(neg_two64_limbs, -2);
static pcl_value *list_items[] = {&s_hello, &i_42, &n_half, &b_true, &v_null, &i_two64};
static pcl_value s_list = PCL_STATIC_LIST(list_items, 6);
static pcl_value *map_keys[] = {&s_a, &s_b};
static pcl_value *map_vals[] = {&i_42, &s_list};
static pcl_value s_map = PCL_STATIC_MAP(map_keys, map_vals, 2);

static void test_static_literals(void) {
  LEAK_BEGIN;
  /* Refcounting skips immortal values. */
  for (int i = 0; i < 3; i++) {
    pcl_retain(&s_list);
  }
  CU_ASSERT_EQUAL(s_list.refs, 0);
  pcl_release(&s_list);
  pcl_release(&s_map);
  CU_ASSERT_EQUAL(pcl_rt_live_values(), leak_values0);

  CU_ASSERT_EQUAL(pcl_len(&s_list), 6);
  CU_ASSERT_PTR_EQUAL(pcl_list_at(&s_list, 1), &i_42);
  CU_ASSERT_PTR_EQUAL(pcl_map_get_cstr(&s_map, "a"), &i_42);
  CU_ASSERT_PTR_EQUAL(pcl_map_get_cstr(&s_map, "b"), &s_list);
  CU_ASSERT_PTR_NULL(pcl_map_get_cstr(&s_map, "c"));
  CU_ASSERT_PTR_NULL(pcl_map_get_cstr(&s_map, ""));
  CU_ASSERT_EQUAL(pcl_str_graphemes(&s_cafe), 4);

  /* A static big int works as an operand; 2^64 + 1 and -2^64 - 1. */
  pcl_error *err = NULL;
  CHECK_VALUE(pcl_op_add(&i_two64, pcl_int_new(1), &err), PCL_T_INT, "18446744073709551617");
  CHECK_VALUE(pcl_op_sub(&i_neg_two64, pcl_int_new(1), &err), PCL_T_INT, "-18446744073709551617");
  CHECK_VALUE(pcl_op_add(&i_two64, &i_neg_two64, &err), PCL_T_INT, "0");

  /* Static and heap values compare equal by content. */
  pcl_value *h = str("hello");
  CU_ASSERT_TRUE(pcl_equal(h, &s_hello));
  pcl_value *items[] = {h, pcl_int_new(42), pcl_number_new(0.5), pcl_bool(true), pcl_null(),
                        lit("18446744073709551616")};
  pcl_value *l = pcl_list_of_take(items, 6);
  CU_ASSERT_TRUE(pcl_equal(l, &s_list));
  CU_ASSERT_EQUAL(pcl_compare(l, &s_list), 0);
  pcl_release(l);
  LEAK_END;
}

static void test_refcount(void) {
  LEAK_BEGIN;
  pcl_value *s = str("some text that is not small");
  CU_ASSERT_EQUAL(pcl_rt_live_values(), leak_values0 + 1);
  CU_ASSERT_TRUE(pcl_rt_live_bytes() > leak_bytes0);
  pcl_value *items[] = {s, s, s};
  pcl_value *l = pcl_list_of(items, 3);
  CU_ASSERT_EQUAL(s->refs, 4);
  pcl_value *outer = pcl_list_of(&l, 1);
  pcl_release(l);
  pcl_release(s);
  CU_ASSERT_EQUAL(s->refs, 3);
  CU_ASSERT_EQUAL(pcl_rt_live_values(), leak_values0 + 3);
  pcl_release(pcl_retain(outer));
  pcl_release(outer);
  /* Small ints are immortal and never counted. */
  pcl_value *i = pcl_int_new(7);
  CU_ASSERT_EQUAL(i->refs, 0);
  pcl_value *big = pcl_int_new(1000000);
  CU_ASSERT_EQUAL(big->refs, 1);
  pcl_release(big);
  pcl_release(NULL);
  /* While a value is alive the leak check fails. */
  pcl_value *alive = str("alive");
  CU_ASSERT_FALSE(pcl_values_check_leaks(NULL));
  pcl_release(alive);
  LEAK_END;
}

static void test_list_building(void) {
  LEAK_BEGIN;
  pcl_value *l = pcl_list_new(3);
  for (size_t i = 0; i < 3; i++) {
    pcl_list_init_take(l, i, pcl_int_new((int64_t)i * 1000));
  }
  CU_ASSERT_EQUAL(pcl_len(l), 3);
  CHECK_VALUE(pcl_retain(pcl_list_at(l, 2)), PCL_T_INT, "2000");
  pcl_value *empty = pcl_list_of(NULL, 0);
  CU_ASSERT_EQUAL(pcl_len(empty), 0);
  CU_ASSERT_FALSE(pcl_equal(l, empty));
  CU_ASSERT_TRUE(pcl_compare(empty, l) < 0);
  pcl_release(empty);
  pcl_release(l);
  LEAK_END;
}

static void test_map_sorting(void) {
  LEAK_BEGIN;
  pcl_value *keys[] = {str("zeta"), str("alpha"), str("mid"), str("alpha"), str("Zeta"),
                       str("al")};
  pcl_value *vals[] = {pcl_int_new(1), pcl_int_new(2), pcl_int_new(3), pcl_int_new(4),
                       pcl_int_new(5), pcl_int_new(6)};
  pcl_value *m = pcl_map_of(keys, vals, 6);
  CU_ASSERT_EQUAL(pcl_len(m), 5);
  /* Byte order: uppercase before lowercase, prefixes first. */
  const char *want[] = {"Zeta", "al", "alpha", "mid", "zeta"};
  for (size_t i = 0; i < 5; i++) {
    CU_ASSERT_TRUE(pcl_str_eq_cstr(pcl_map_key_at(m, i), want[i]));
  }
  /* The last of the duplicate keys wins. */
  CHECK_VALUE(pcl_retain(pcl_map_get_cstr(m, "alpha")), PCL_T_INT, "4");
  CHECK_VALUE(pcl_retain(pcl_map_get_cstr(m, "al")), PCL_T_INT, "6");
  CU_ASSERT_PTR_NULL(pcl_map_get_cstr(m, "alph"));
  CU_ASSERT_PTR_NULL(pcl_map_get_cstr(m, "zz"));
  CU_ASSERT_PTR_NULL(pcl_map_get_cstr(m, "A"));
  for (size_t i = 0; i < 6; i++) {
    pcl_release(keys[i]);
    pcl_release(vals[i]);
  }
  pcl_release(m);

  /* Keys with a NUL inside are distinct from their prefix. */
  pcl_mapbuf b = PCL_MAPBUF_INIT;
  pcl_error *err = NULL;
  pcl_mapbuf_put_take(&b, pcl_str_new("k\0x", 3, &err), pcl_int_new(1));
  pcl_mapbuf_put_cstr(&b, "k", pcl_int_new(2));
  pcl_mapbuf_put_cstr(&b, "k", pcl_int_new(3));
  m = pcl_mapbuf_finish(&b);
  CU_ASSERT_EQUAL(pcl_len(m), 2);
  CHECK_VALUE(pcl_retain(pcl_map_get(m, "k\0x", 3)), PCL_T_INT, "1");
  CHECK_VALUE(pcl_retain(pcl_map_get_cstr(m, "k")), PCL_T_INT, "3");
  pcl_release(m);

  pcl_mapbuf_put_cstr(&b, "dropped", str("value"));
  pcl_mapbuf_free(&b);
  m = pcl_mapbuf_finish(&b);
  CU_ASSERT_EQUAL(pcl_len(m), 0);
  pcl_release(m);
  LEAK_END;
}

static void test_sets(void) {
  LEAK_BEGIN;
  pcl_value *items[] = {str("b"), pcl_int_new(2), lit("1"), pcl_number_new(1.0), str("a"),
                        pcl_null(), pcl_bool(false), str("b"), pcl_number_new(1.5)};
  pcl_value *s = pcl_set_of_take(items, 9);
  /* null < bool < numbers (by value, 1 == 1.0) < strings. */
  CU_ASSERT_EQUAL(pcl_len(s), 7);
  CU_ASSERT_EQUAL(pcl_kind_of(pcl_list_at(s, 0)), PCL_T_NULL);
  CU_ASSERT_EQUAL(pcl_kind_of(pcl_list_at(s, 1)), PCL_T_BOOL);
  CU_ASSERT_EQUAL(pcl_kind_of(pcl_list_at(s, 2)), PCL_T_INT); /* The first of 1 and 1.0. */
  CHECK_VALUE(pcl_retain(pcl_list_at(s, 3)), PCL_T_NUMBER, "1.5");
  CHECK_VALUE(pcl_retain(pcl_list_at(s, 4)), PCL_T_INT, "2");
  CHECK_VALUE(pcl_retain(pcl_list_at(s, 5)), PCL_T_STRING, "a");
  CHECK_VALUE(pcl_retain(pcl_list_at(s, 6)), PCL_T_STRING, "b");
  CU_ASSERT_EQUAL(pcl_kind_of(s), PCL_T_SET);
  pcl_value *same[] = {str("a"), str("b"), pcl_int_new(2), pcl_number_new(1.5), pcl_int_new(1),
                       pcl_bool(false), pcl_null()};
  pcl_value *s2 = pcl_set_of(same, 7);
  CU_ASSERT_TRUE(pcl_equal(s, s2));
  for (size_t i = 0; i < 7; i++) {
    pcl_release(same[i]);
  }
  pcl_release(s2);
  pcl_release(s);
  LEAK_END;
}

static void test_equality_and_order(void) {
  LEAK_BEGIN;
  pcl_value *one = pcl_int_new(1), *one_n = pcl_number_new(1.0), *one_s = str("1");
  CU_ASSERT_TRUE(pcl_equal(one, one_n));
  CU_ASSERT_FALSE(pcl_equal(one, one_s));
  CU_ASSERT_TRUE(pcl_equal(pcl_null(), &v_null));
  CU_ASSERT_FALSE(pcl_equal(pcl_null(), one));
  pcl_value *l1 = pcl_list_of((pcl_value *[]){one, one_s}, 2);
  pcl_value *l2 = pcl_list_of((pcl_value *[]){one_n, one_s}, 2);
  pcl_value *l3 = pcl_list_of((pcl_value *[]){one_s, one}, 2);
  CU_ASSERT_TRUE(pcl_equal(l1, l2));
  CU_ASSERT_FALSE(pcl_equal(l1, l3));
  CU_ASSERT_TRUE(pcl_compare(l1, l3) < 0);
  CU_ASSERT_TRUE(pcl_compare(l3, l1) > 0);
  /* A list and a set with the same elements differ. */
  pcl_value *s1 = pcl_set_of((pcl_value *[]){one, one_s}, 2);
  CU_ASSERT_FALSE(pcl_equal(l1, s1));
  /* Maps compare by keys then values. */
  pcl_value *ka = str("a"), *kb = str("b");
  pcl_value *m1 = pcl_map_of((pcl_value *[]){ka, kb}, (pcl_value *[]){one, l1}, 2);
  pcl_value *m2 = pcl_map_of((pcl_value *[]){kb, ka}, (pcl_value *[]){l2, one_n}, 2);
  pcl_value *m3 = pcl_map_of((pcl_value *[]){ka}, (pcl_value *[]){one}, 1);
  CU_ASSERT_TRUE(pcl_equal(m1, m2));
  CU_ASSERT_FALSE(pcl_equal(m1, m3));
  CU_ASSERT_TRUE(pcl_compare(m3, m1) < 0);
  /* Secrets compare by their inner value. */
  pcl_value *sec = pcl_secret_new(one);
  CU_ASSERT_TRUE(pcl_equal(sec, one_n));
  pcl_value *values[] = {one, one_n, one_s, l1, l2, l3, s1, m1, m2, m3, sec, ka, kb};
  for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
    pcl_release(values[i]);
  }
  LEAK_END;
}

/* An eventual object for the tests: a counter of references. */
static int fake_refs;
static void fake_retain(void *p) {
  (void)p;
  fake_refs++;
}
static void fake_release(void *p) {
  (void)p;
  fake_refs--;
}
static const pcl_eventual_ops fake_ops = {"output", fake_retain, fake_release};

static void test_other_kinds(void) {
  LEAK_BEGIN;
  pcl_value *urn = str("urn:pulumi:stack::proj::aws:s3/bucket:Bucket::b");
  pcl_value *id = str("b-123");
  pcl_value *r = pcl_resource_new(urn, id, NULL);
  CU_ASSERT_EQUAL(pcl_kind_of(r), PCL_T_RESOURCE);
  CU_ASSERT_PTR_EQUAL(pcl_resource_urn(r), urn);
  CU_ASSERT_PTR_EQUAL(pcl_resource_id(r), id);
  CU_ASSERT_EQUAL(pcl_kind_of(pcl_resource_version(r)), PCL_T_NULL);

  pcl_value *path = str("./index.html");
  pcl_value *a = pcl_asset_new(PCL_ASSET_FILE, path);
  CU_ASSERT_EQUAL(pcl_asset_kind_of(a), PCL_ASSET_FILE);
  CU_ASSERT_PTR_EQUAL(pcl_asset_payload(a), path);
  pcl_value *t = pcl_asset_new(PCL_ASSET_STRING, path);
  CU_ASSERT_FALSE(pcl_equal(a, t));
  pcl_value *m = pcl_map_of((pcl_value *[]){path}, (pcl_value *[]){a}, 1);
  pcl_value *ar = pcl_archive_new(PCL_ARCHIVE_ASSETS, m);
  CU_ASSERT_EQUAL(pcl_archive_kind_of(ar), PCL_ARCHIVE_ASSETS);
  CU_ASSERT_PTR_EQUAL(pcl_asset_payload(ar), m);

  /* Secret wrapping is idempotent; stripping rebuilds only what changes. */
  pcl_value *sec = pcl_secret_new(id);
  pcl_value *sec2 = pcl_secret_new(sec);
  CU_ASSERT_PTR_EQUAL(sec, sec2);
  CU_ASSERT_PTR_EQUAL(pcl_secret_inner(sec), id);
  pcl_value *l = pcl_list_of((pcl_value *[]){urn, sec}, 2);
  CU_ASSERT_TRUE(pcl_has_secret(l));
  CU_ASSERT_FALSE(pcl_has_secret(urn));
  pcl_value *plain = pcl_strip_secrets(l);
  CU_ASSERT_FALSE(pcl_has_secret(plain));
  CU_ASSERT_PTR_EQUAL(pcl_list_at(plain, 1), id);
  pcl_value *same = pcl_strip_secrets(urn);
  CU_ASSERT_PTR_EQUAL(same, urn);
  /* Maps, sets and assets are rebuilt around their stripped parts, with
   * the map's keys shared. */
  pcl_value *set = pcl_set_of((pcl_value *[]){sec, urn}, 2);
  pcl_value *asset = pcl_asset_new(PCL_ASSET_STRING, sec);
  pcl_value *holder = pcl_map_of((pcl_value *[]){urn, id}, (pcl_value *[]){set, asset}, 2);
  pcl_value *bare = pcl_strip_secrets(holder);
  CU_ASSERT_TRUE(pcl_has_secret(holder));
  CU_ASSERT_FALSE(pcl_has_secret(bare));
  CU_ASSERT_TRUE(pcl_equal(bare, holder));
  CU_ASSERT_PTR_EQUAL(pcl_map_key_at(bare, 0), pcl_map_key_at(holder, 0));
  CU_ASSERT_PTR_EQUAL(pcl_asset_payload(pcl_map_get_cstr(bare, "b-123")), id);
  CU_ASSERT_EQUAL(pcl_kind_of(pcl_map_get_cstr(bare, pcl_str_data(urn))), PCL_T_SET);
  pcl_release(bare);
  pcl_release(holder);
  pcl_release(asset);
  pcl_release(set);

  /* Unknown and eventual values make a value not wholly known. */
  CU_ASSERT_TRUE(pcl_is_wholly_known(l));
  pcl_value *lu = pcl_list_of((pcl_value *[]){urn, pcl_unknown()}, 2);
  CU_ASSERT_FALSE(pcl_is_wholly_known(lu));
  fake_refs = 1;
  pcl_value *ev = pcl_eventual_new_take(&fake_refs, &fake_ops);
  CU_ASSERT_PTR_EQUAL(pcl_eventual_ptr(ev), &fake_refs);
  pcl_value *mev = pcl_map_of((pcl_value *[]){urn}, (pcl_value *[]){ev}, 1);
  CU_ASSERT_FALSE(pcl_is_wholly_known(mev));
  pcl_release(ev);
  CU_ASSERT_EQUAL(fake_refs, 1);
  pcl_release(mev);
  CU_ASSERT_EQUAL(fake_refs, 0);

  pcl_value *values[] = {urn, id, r, path, a, t, m, ar, sec, sec2, l, plain, same, lu};
  for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
    pcl_release(values[i]);
  }
  CU_ASSERT_STRING_EQUAL(pcl_kind_name(PCL_T_ARCHIVE), "archive");
  CU_ASSERT_STRING_EQUAL(pcl_kind_name(PCL_T_NULL), "null");
  LEAK_END;
}

/* Counts the values pcl__value_each_kind visits in the int *count. */
static void count_visit(const pcl_value *v, void *count) {
  (void)v;
  ++*(int *)count;
}

/* The kind walks of the value layer enter secrets, lists, sets and maps,
 * but not resource fields, asset payloads or the values they stop at. */
static void test_kind_walks(void) {
  LEAK_BEGIN;
  pcl_value *urn = str("urn:pulumi:stack::proj::aws:s3/bucket:Bucket::b");
  pcl_value *id = str("b-123");
  pcl_value *r = pcl_resource_new(urn, id, NULL);
  pcl_value *path = str("./index.html");
  pcl_value *a = pcl_asset_new(PCL_ASSET_FILE, path);
  pcl_value *inner = pcl_list_of((pcl_value *[]){path, r}, 2);
  pcl_value *sec = pcl_secret_new(inner);
  pcl_value *m = pcl_map_of((pcl_value *[]){path}, (pcl_value *[]){sec}, 1);
  pcl_value *l = pcl_list_of((pcl_value *[]){id, m, a, r}, 4);

  CU_ASSERT_TRUE(pcl__value_contains_kind(m, PCL_T_RESOURCE));
  CU_ASSERT_TRUE(pcl__value_contains_kind(m, PCL_T_SECRET));
  CU_ASSERT_TRUE(pcl__value_contains_kind(r, PCL_T_RESOURCE));
  CU_ASSERT_FALSE(pcl__value_contains_kind(m, PCL_T_BOOL));
  CU_ASSERT_FALSE(pcl__value_contains_kind(r, PCL_T_STRING));
  CU_ASSERT_FALSE(pcl__value_contains_kind(a, PCL_T_STRING));
  CU_ASSERT_TRUE(pcl__value_contains_kind(l, PCL_T_ASSET));

  /* id, the path in the secret's list; not the resource's fields, the
   * asset's payload or the map's key. */
  int count = 0;
  pcl__value_each_kind(l, PCL_T_STRING, count_visit, &count);
  CU_ASSERT_EQUAL(count, 2);
  count = 0;
  pcl__value_each_kind(l, PCL_T_RESOURCE, count_visit, &count);
  CU_ASSERT_EQUAL(count, 2);
  count = 0;
  pcl__value_each_kind(l, PCL_T_SECRET, count_visit, &count);
  CU_ASSERT_EQUAL(count, 1);
  count = 0;
  pcl__value_each_kind(id, PCL_T_STRING, count_visit, &count);
  CU_ASSERT_EQUAL(count, 1);

  pcl_value *values[] = {urn, id, r, path, a, inner, sec, m, l};
  for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
    pcl_release(values[i]);
  }
  LEAK_END;
}

/* The numbers of the EVENTUALs a walk visited, in order. */
typedef struct seen_list {
  int order[8]; /* The objects visited, in order. */
  int n;        /* Their number. */
} seen_list;

/* Records in the seen_list ctx the number (an int) the EVENTUAL v holds. */
static void note_eventual(const pcl_value *v, void *ctx) {
  seen_list *s = ctx;
  if (s->n < 8) {
    s->order[s->n++] = *(const int *)pcl_eventual_ptr(v);
  }
}

/* Replaces the EVENTUAL x by the number (an int) it holds. */
static pcl_value *eventual_to_int(const pcl_value *x, void *ctx) {
  (void)ctx;
  return pcl_kind_of(x) == PCL_T_EVENTUAL ? pcl_int_new(*(const int *)pcl_eventual_ptr(x))
                                          : NULL;
}

/* Every container notes whether it may hold a SECRET or an UNKNOWN (list,
 * list filled in place, set, map, merged map, secret, asset, resource), so
 * that the marks of a plain value are known without a walk. */
static void test_mark_flag(void) {
  LEAK_BEGIN;
  pcl_value *plain = pcl_list_of((pcl_value *[]){&s_hello, &s_map}, 2);
  CU_ASSERT_FALSE(plain->flags & PCL_F_HOLDS_MARK);
  CU_ASSERT_FALSE(pcl_has_secret(plain));
  CU_ASSERT_TRUE(pcl_is_wholly_known(plain));
  pcl_value *sec = pcl_secret_new(&s_hello);
  pcl_value *inner = pcl_list_new(1);
  pcl_list_init_take(inner, 0, pcl_unknown());
  pcl_value *set = pcl_set_of((pcl_value *[]){&s_a, sec}, 2);
  pcl_value *m = pcl_map_of((pcl_value *[]){&s_a, &s_b}, (pcl_value *[]){plain, inner}, 2);
  pcl_value *asset = pcl_asset_new(PCL_ASSET_STRING, sec);
  pcl_value *r = pcl_resource_new(&s_hello, pcl_unknown(), NULL);
  pcl_value *merged = pcl__map_merge(&s_map, (pcl_value *[]){&s_b}, (pcl_value *[]){set}, 1);
  pcl_value *top = pcl_list_of((pcl_value *[]){plain, m}, 2);
  pcl_value *holders[] = {sec, inner, set, m, asset, r, merged, top};
  for (size_t i = 0; i < sizeof holders / sizeof holders[0]; i++) {
    CU_ASSERT_TRUE(pcl__may_hold_mark(holders[i]));
  }
  CU_ASSERT_FALSE(pcl_has_secret(top));
  CU_ASSERT_FALSE(pcl_is_wholly_known(top));
  CU_ASSERT_TRUE(pcl_has_secret(merged));
  pcl_value *unmerged = pcl__map_merge(merged, (pcl_value *[]){&s_b}, (pcl_value *[]){&s_a}, 1);
  CU_ASSERT_FALSE(unmerged->flags & PCL_F_HOLDS_MARK);
  pcl_value *stripped = pcl_strip_secrets(set);
  CU_ASSERT_FALSE(stripped->flags & PCL_F_HOLDS_MARK);
  pcl_release(stripped);
  for (size_t i = 0; i < sizeof holders / sizeof holders[0]; i++) {
    pcl_release(holders[i]);
  }
  pcl_release(unmerged);
  pcl_release(plain);
  LEAK_END;
}

/* EVENTUALs holding numbers of static storage, which need no counting. */
static void ignore_eventual(void *p) { (void)p; }
static const pcl_eventual_ops numbered_ops = {"output", ignore_eventual, ignore_eventual};

/* Every container notes whether it may hold an EVENTUAL, however it was
 * built (list, list filled in place, map, merged map, secret, asset,
 * resource); the walks that look for EVENTUALs skip the others, visit them
 * in value order, and a rebuild shares what holds none. */
static void test_eventual_flag(void) {
  LEAK_BEGIN;
  static int ids[] = {1, 2, 3, 4};
  pcl_value *ev[4];
  for (int i = 0; i < 4; i++) {
    ev[i] = pcl_eventual_new_take(&ids[i], &numbered_ops);
  }
  pcl_value *plain = pcl_list_of((pcl_value *[]){&s_hello, &s_map}, 2);
  CU_ASSERT_FALSE(plain->flags & PCL_F_HOLDS_EVENTUAL);
  CU_ASSERT_FALSE(pcl__value_contains_kind(plain, PCL_T_EVENTUAL));
  /* [ev1, {a: ev2, b: [ev3]}, secret(asset(ev4)), plain], the middle list
   * filled in place. */
  pcl_value *inner = pcl_list_new(1);
  pcl_list_init_take(inner, 0, pcl_retain(ev[2]));
  pcl_value *m = pcl_map_of((pcl_value *[]){&s_a, &s_b}, (pcl_value *[]){ev[1], inner}, 2);
  pcl_value *asset = pcl_asset_new(PCL_ASSET_STRING, ev[3]);
  pcl_value *sec = pcl_secret_new(asset);
  pcl_value *top = pcl_list_of((pcl_value *[]){ev[0], m, sec, plain}, 4);
  pcl_value *holders[] = {inner, m, asset, sec, top};
  for (size_t i = 0; i < sizeof holders / sizeof holders[0]; i++) {
    CU_ASSERT_TRUE(holders[i]->flags & PCL_F_HOLDS_EVENTUAL);
  }
  CU_ASSERT_TRUE(pcl__value_contains_kind(top, PCL_T_EVENTUAL));
  pcl_value *r = pcl_resource_new(&s_hello, ev[0], NULL);
  CU_ASSERT_TRUE(r->flags & PCL_F_HOLDS_EVENTUAL);
  pcl_value *merged = pcl__map_merge(&s_map, (pcl_value *[]){&s_b}, (pcl_value *[]){ev[1]}, 1);
  CU_ASSERT_TRUE(merged->flags & PCL_F_HOLDS_EVENTUAL);
  pcl_value *unmerged = pcl__map_merge(merged, (pcl_value *[]){&s_b}, (pcl_value *[]){&s_a}, 1);
  CU_ASSERT_FALSE(unmerged->flags & PCL_F_HOLDS_EVENTUAL);

  seen_list seen = {{0}, 0};
  pcl__value_each_eventual(top, note_eventual, &seen);
  CU_ASSERT_EQUAL(seen.n, 4);
  for (int i = 0; i < seen.n; i++) {
    CU_ASSERT_EQUAL(seen.order[i], i + 1);
  }
  seen.n = 0;
  pcl__value_each_eventual(plain, note_eventual, &seen);
  CU_ASSERT_EQUAL(seen.n, 0);

  pcl_value *settled = pcl__value_replace_eventuals(top, eventual_to_int, NULL);
  CU_ASSERT_FALSE(pcl__value_contains_kind(settled, PCL_T_EVENTUAL));
  CU_ASSERT_FALSE(settled->flags & PCL_F_HOLDS_EVENTUAL);
  CU_ASSERT_PTR_EQUAL(pcl_list_at(settled, 3), plain);
  CU_ASSERT_EQUAL(pcl_kind_of(pcl_secret_inner(pcl_list_at(settled, 2))), PCL_T_ASSET);
  char *text = pcl_value_repr(settled, 200);
  CU_ASSERT_STRING_EQUAL(text, "[1, {\"a\": 2, \"b\": [3]}, [secret], [\"hello\", {\"a\": 42, "
                               "\"b\": [\"hello\", 42, 0.5, true, null, 18446744073709551616]}]]");
  free(text);
  pcl_value *same = pcl__value_replace_eventuals(plain, eventual_to_int, NULL);
  CU_ASSERT_PTR_EQUAL(same, plain);

  pcl_value *values[] = {same, settled, unmerged, merged, r, top, sec, asset, m, inner, plain};
  for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
    pcl_release(values[i]);
  }
  for (int i = 0; i < 4; i++) {
    pcl_release(ev[i]);
  }
  LEAK_END;
}

/* What the pcl__value_rewrite step of test_rewrite saw: the path of the
 * value it failed at. */
typedef struct rw_probe {
  pcl_strbuf path; /* Where the step failed (pcl__rw_path). */
} rw_probe;

/* A rewrite step: 42 becomes true, the string "stop" fails, every other
 * value is entered. */
static pcl__rw_action probe_step(pcl__rw_step *s, void *data) {
  rw_probe *p = data;
  if (pcl_kind_of(s->v) == PCL_T_STRING && pcl_str_eq_cstr(s->v, "stop")) {
    pcl__rw_path(s, &p->path);
    return PCL__RW_FAIL;
  }
  if (pcl_kind_of(s->v) == PCL_T_INT && pcl_equal(s->v, &i_42)) {
    s->out = pcl_retain(&b_true);
    return PCL__RW_DONE;
  }
  return PCL__RW_ENTER;
}

/* Returns [n_half x 18, plain, [[...[{a: 42, b: b}]...]]] (20 parts, the
 * last 12 lists deep): more parts and levels than a rewrite keeps in its
 * inline storage.  plain and b are borrowed. */
static pcl_value *wide_and_deep(pcl_value *plain, pcl_value *b) {
  pcl_value *v = pcl_map_of((pcl_value *[]){&s_a, &s_b}, (pcl_value *[]){&i_42, b}, 2);
  for (int i = 0; i < 12; i++) {
    pcl_value *l = pcl_list_of(&v, 1);
    pcl_release(v);
    v = l;
  }
  pcl_value *items[20];
  for (int i = 0; i < 18; i++) {
    items[i] = &n_half;
  }
  items[18] = plain;
  items[19] = v;
  pcl_value *top = pcl_list_of(items, 20);
  pcl_release(v);
  return top;
}

/* A rewrite past its inline storage: the parts it changes are rebuilt,
 * the containers it leaves alone are shared, and a step that fails deep
 * inside releases every part rewritten so far and knows its path.  The
 * EVENTUAL mode (pcl__value_replace_eventuals) on a wide value replaces
 * each EVENTUAL in place and shares the parts holding none. */
static void test_rewrite(void) {
  LEAK_BEGIN;
  pcl_value *hellos[20];
  for (int i = 0; i < 20; i++) {
    hellos[i] = &s_hello;
  }
  pcl_value *plain = pcl_list_of(hellos, 20);
  pcl_value *top = wide_and_deep(plain, plain);
  rw_probe probe = {PCL_STRBUF_INIT};
  pcl_value *r = pcl__value_rewrite(top, NULL, probe_step, &probe);
  CU_ASSERT_PTR_NOT_NULL_FATAL(r);
  CU_ASSERT_PTR_NOT_EQUAL(r, top);
  CU_ASSERT_EQUAL(pcl_len(r), 20);
  CU_ASSERT_PTR_EQUAL(pcl_list_at(r, 0), &n_half);
  CU_ASSERT_PTR_EQUAL(pcl_list_at(r, 18), plain);
  const pcl_value *x = pcl_list_at(r, 19);
  for (int i = 0; i < 12; i++) {
    CU_ASSERT_EQUAL_FATAL(pcl_kind_of(x), PCL_T_LIST);
    x = pcl_list_at(x, 0);
  }
  CU_ASSERT_EQUAL_FATAL(pcl_kind_of(x), PCL_T_MAP);
  CU_ASSERT_PTR_EQUAL(pcl_map_get_cstr(x, "a"), &b_true);
  CU_ASSERT_PTR_EQUAL(pcl_map_get_cstr(x, "b"), plain);
  pcl_release(r);

  pcl_value *stop = str("stop");
  pcl_value *bad = wide_and_deep(plain, stop);
  CU_ASSERT_PTR_NULL(pcl__value_rewrite(bad, NULL, probe_step, &probe));
  CU_ASSERT_STRING_EQUAL(probe.path.data, "[19][0][0][0][0][0][0][0][0][0][0][0][0].b");
  pcl_strbuf_free(&probe.path);

  static int ids[] = {1, 2};
  pcl_value *ev[2];
  pcl_value *items[20];
  for (int i = 0; i < 2; i++) {
    ev[i] = pcl_eventual_new_take(&ids[i], &numbered_ops);
  }
  for (int i = 0; i < 20; i++) {
    items[i] = i == 3 ? ev[0] : i == 17 ? ev[1] : plain;
  }
  pcl_value *evs = pcl_list_of(items, 20);
  pcl_value *settled = pcl__value_replace_eventuals(evs, eventual_to_int, NULL);
  CU_ASSERT_EQUAL(pcl_len(settled), 20);
  for (size_t i = 0; i < 20; i++) {
    const pcl_value *e = pcl_list_at(settled, i);
    if (i == 3 || i == 17) {
      int64_t got = 0;
      CU_ASSERT_TRUE(pcl_int_get_i64(e, &got));
      CU_ASSERT_EQUAL(got, i == 3 ? 1 : 2);
    } else {
      CU_ASSERT_PTR_EQUAL(e, plain);
    }
  }
  pcl_value *values[] = {settled, evs, ev[0], ev[1], bad, stop, top, plain};
  for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
    pcl_release(values[i]);
  }
  LEAK_END;
}

/* Merging a map with sorted entries keeps the order, lets the entries win
 * over the map's own, and works with either side empty. */
static void test_map_merge(void) {
  LEAK_BEGIN;
  pcl_value *c = str("c"), *z = str("z");
  /* {a: 42, b: list} with b replaced and c, z added. */
  pcl_value *m = pcl__map_merge(&s_map, (pcl_value *[]){&s_b, c, z},
                                (pcl_value *[]){&b_true, &i_42, &v_null}, 3);
  char *text = pcl_value_repr(m, 200);
  CU_ASSERT_STRING_EQUAL(text, "{\"a\": 42, \"b\": true, \"c\": 42, \"z\": null}");
  free(text);
  pcl_value *same = pcl__map_merge(m, NULL, NULL, 0);
  CU_ASSERT_TRUE(pcl_equal(same, m));
  pcl_value *empty = pcl_map_of(NULL, NULL, 0);
  pcl_value *fresh = pcl__map_merge(empty, (pcl_value *[]){&s_a}, (pcl_value *[]){&s_hello}, 1);
  CU_ASSERT_EQUAL(pcl_len(fresh), 1);
  CU_ASSERT_PTR_EQUAL(pcl_map_get_cstr(fresh, "a"), &s_hello);
  pcl_value *values[] = {c, z, m, same, empty, fresh};
  for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
    pcl_release(values[i]);
  }
  LEAK_END;
}

/* A set may not hold an eventual value, whose only order is its address:
 * building one aborts with a message (checked in a child process). */
static void test_set_of_eventual_aborts(void) {
  fflush(NULL);
  pid_t pid = fork();
  CU_ASSERT_FATAL(pid >= 0);
  if (pid == 0) {
    if (freopen("/dev/null", "w", stderr) == NULL) {
      _exit(2);
    }
    fake_refs = 1;
    pcl_value *ev = pcl_eventual_new_take(&fake_refs, &fake_ops);
    pcl_value *nested = pcl_list_of(&ev, 1);
    pcl_value *items[] = {pcl_int_new(1), nested};
    pcl_release(pcl_set_of(items, 2));
    _exit(0);
  }
  int status = 0;
  CU_ASSERT_EQUAL(waitpid(pid, &status, 0), pid);
  CU_ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
}

/* Releasing and searching a value walk it without recursion: a list nested a
 * million deep (far beyond what the C stack holds as nested calls, above all
 * under AddressSanitizer) and a wide map of lists are freed, and the live
 * counters return to where they were. */
static void test_deep_release(void) {
  LEAK_BEGIN;
  pcl_value *v = pcl_int_new(1000000000000);
  for (int i = 0; i < 1000000; i++) {
    pcl_value *wrap = pcl_list_of_take(&v, 1);
    v = wrap;
  }
  CU_ASSERT_TRUE(pcl_rt_live_values() > leak_values0 + 1000000 - 1);
  /* The walks look into resource references too: a secret unknown id is
   * both secret and not known. */
  pcl_value *urn = str("urn:pulumi:s::p::t::n");
  pcl_value *sid = pcl_secret_new(pcl_unknown());
  pcl_value *ref = pcl_resource_new(urn, sid, NULL);
  CU_ASSERT_TRUE(pcl_has_secret(ref));
  CU_ASSERT_FALSE(pcl_is_wholly_known(ref));
  pcl_release(ref);
  pcl_release(sid);
  pcl_release(urn);
  /* The deep walks use no recursion either. */
  CU_ASSERT_TRUE(pcl_is_wholly_known(v));
  CU_ASSERT_FALSE(pcl_has_secret(v));
  /* So does stripping secrets, which rebuilds every list on the way to
   * the secret at the bottom and shares the rest. */
  pcl_value *bottom = v;
  while (pcl_kind_of(pcl_list_at(bottom, 0)) == PCL_T_LIST) {
    bottom = pcl_list_at(bottom, 0);
  }
  pcl_value *sv = pcl_secret_new(bottom);
  pcl_value *pair[] = {sv, v};
  pcl_value *deep = pcl_list_of(pair, 2);
  pcl_release(sv);
  CU_ASSERT_TRUE(pcl_has_secret(deep));
  pcl_value *stripped = pcl_strip_secrets(deep);
  CU_ASSERT_FALSE(pcl_has_secret(stripped));
  CU_ASSERT_PTR_EQUAL(pcl_list_at(stripped, 0), bottom);
  CU_ASSERT_PTR_EQUAL(pcl_list_at(stripped, 1), v);
  pcl_release(stripped);
  pcl_release(deep);
  pcl_release(v);
  pcl_mapbuf b = PCL_MAPBUF_INIT;
  for (int i = 0; i < 1000; i++) {
    char key[16];
    snprintf(key, sizeof key, "k%04d", i);
    pcl_value *items[] = {pcl_int_new(i), str(key)};
    pcl_mapbuf_put_cstr(&b, key, pcl_list_of_take(items, 2));
  }
  pcl_value *m = pcl_mapbuf_finish(&b);
  CU_ASSERT_EQUAL(pcl_len(m), 1000);
  pcl_release(m);
  LEAK_END;
}

static void test_errors(void) {
  pcl_error *e = pcl_error_new("cannot convert %s to int: %s", "2.5", "not an integer");
  CU_ASSERT_STRING_EQUAL(pcl_error_message(e), "cannot convert 2.5 to int: not an integer");
  CU_ASSERT_PTR_NULL(pcl_error_file(e));
  char *s = pcl_error_format(e);
  CU_ASSERT_STRING_EQUAL(s, "error: cannot convert 2.5 to int: not an integer");
  free(s);
  pcl_error_set_location(e, "main.pp", 12, 5);
  pcl_error_set_location(e, "other.pp", 1, 1); /* The first location stays. */
  s = pcl_error_format(e);
  CU_ASSERT_STRING_EQUAL(s, "main.pp:12:5: error: cannot convert 2.5 to int: not an integer");
  free(s);
  pcl_error *c = pcl_error_copy(e);
  pcl_error_prefix(c, "local %s", "x");
  CU_ASSERT_STRING_EQUAL(pcl_error_message(c),
                         "local x: cannot convert 2.5 to int: not an integer");
  CU_ASSERT_STRING_EQUAL(pcl_error_file(c), "main.pp");
  CU_ASSERT_EQUAL(pcl_error_line(c), 12);
  CU_ASSERT_EQUAL(pcl_error_column(c), 5);
  pcl_error_free(e);
  pcl_error_free(c);
  pcl_error_free(NULL);
}

static void test_repr(void) {
  LEAK_BEGIN;
  char *r = pcl_value_repr(&s_map, 200);
  CU_ASSERT_STRING_EQUAL(r, "{\"a\": 42, \"b\": [\"hello\", 42, 0.5, true, null, 18446744073709551616]}");
  free(r);
  r = pcl_value_repr(&s_map, 10);
  CU_ASSERT_STRING_EQUAL(r, "{\"a\": 42, ...");
  free(r);
  pcl_value *u = str("\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9");
  r = pcl_value_repr(u, 4);
  /* Never cut inside a UTF-8 sequence. */
  CU_ASSERT_STRING_EQUAL(r, "\"\xC3\xA9...");
  free(r);
  pcl_release(u);
  r = pcl_value_repr(pcl_unknown(), 50);
  CU_ASSERT_STRING_EQUAL(r, "(unknown)");
  free(r);
  LEAK_END;
}

void register_value_tests(void);
void register_value_tests(void) {
  CU_pSuite s = CU_add_suite("value", NULL, NULL);
  CU_add_test(s, "static literals", test_static_literals);
  CU_add_test(s, "refcounting", test_refcount);
  CU_add_test(s, "lists", test_list_building);
  CU_add_test(s, "maps", test_map_sorting);
  CU_add_test(s, "sets", test_sets);
  CU_add_test(s, "equality and order", test_equality_and_order);
  CU_add_test(s, "resource, asset, archive, secret, eventual", test_other_kinds);
  CU_add_test(s, "kind walks", test_kind_walks);
  CU_add_test(s, "values holding eventuals", test_eventual_flag);
  CU_add_test(s, "the secret and unknown flag", test_mark_flag);
  CU_add_test(s, "rewrites", test_rewrite);
  CU_add_test(s, "map merge", test_map_merge);
  CU_add_test(s, "deep release and walks", test_deep_release);
  CU_add_test(s, "sets cannot hold eventual values", test_set_of_eventual_aborts);
  CU_add_test(s, "errors", test_errors);
  CU_add_test(s, "repr", test_repr);
}
