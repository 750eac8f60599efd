/* access.c: the accessors of pcl.h, where values are opaque (a value's
 * kind and its name, a scalar's content, a collection's parts, a resource's
 * fields, an asset's or a secret's payload).  None of them retains: what
 * they return is borrowed from the value. */
#include "value/pcl_internal.h"

const char *pcl_kind_name(pcl_kind k) {
  static const char *const names[] = {
#define PCL__KIND_NAME(name, text) text,
      PCL_VALUE_KINDS(PCL__KIND_NAME)
#undef PCL__KIND_NAME
  };
  return (size_t)k < sizeof names / sizeof names[0] ? names[k] : "invalid";
}

/* ---------------------------------------------------------------- access
 * The accessors of pcl.h, where values are opaque. */

pcl_kind pcl_kind_of(const pcl_value *v) { return (pcl_kind)v->kind; }
bool pcl_bool_get(const pcl_value *v) { return v->u.b; }
bool pcl_is_numeric(const pcl_value *v) { return v->kind == PCL_T_INT || v->kind == PCL_T_NUMBER; }
double pcl_number_get(const pcl_value *v) { return v->u.d; }
const char *pcl_str_data(const pcl_value *v) { return v->u.str.ptr; }
size_t pcl_str_len(const pcl_value *v) { return v->u.str.len; }
pcl_value *pcl_list_at(const pcl_value *v, size_t i) { return v->u.list.items[i]; }
pcl_value *pcl_map_key_at(const pcl_value *v, size_t i) { return v->u.map.keys[i]; }
pcl_value *pcl_map_val_at(const pcl_value *v, size_t i) { return v->u.map.vals[i]; }
pcl_value *pcl_resource_urn(const pcl_value *v) { return v->u.ref.a; }
pcl_value *pcl_resource_id(const pcl_value *v) { return v->u.ref.b; }
pcl_value *pcl_resource_version(const pcl_value *v) { return v->u.ref.c; }
pcl_asset_kind pcl_asset_kind_of(const pcl_value *v) { return (pcl_asset_kind)v->sub; }
pcl_archive_kind pcl_archive_kind_of(const pcl_value *v) { return (pcl_archive_kind)v->sub; }
pcl_value *pcl_asset_payload(const pcl_value *v) { return v->u.ref.a; }
pcl_value *pcl_secret_inner(const pcl_value *v) { return v->u.ref.a; }
