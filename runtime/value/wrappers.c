/* wrappers.c: the values that hold others without being collections:
 * resource references (URN, id, version), assets and archives (a payload of
 * their kind), secrets (a mark on the value inside, never nested) and
 * eventual values (an object with its operations, such as a future).  A
 * wrapper of a part that is or may hold an EVENTUAL carries
 * PCL_F_HOLDS_EVENTUAL. */
#include "value/pcl_internal.h"

/* ------------------------------------------------------------ other kinds */

pcl_value *pcl_resource_new(pcl_value *urn, pcl_value *id, pcl_value *version) {
  pcl_value *v = pcl__value_alloc(PCL_T_RESOURCE, 0);
  v->u.ref.a = pcl_retain(urn);
  v->u.ref.b = pcl_retain(id != NULL ? id : pcl_null());
  v->u.ref.c = pcl_retain(version != NULL ? version : pcl_null());
  pcl__note_part(v, v->u.ref.a);
  pcl__note_part(v, v->u.ref.b);
  pcl__note_part(v, v->u.ref.c);
  return v;
}

/* Returns an asset or archive (kind) of the given sub-kind holding
 * payload_value (retained). */
static pcl_value *payload_new(pcl_kind kind, uint16_t sub, pcl_value *payload_value) {
  pcl_value *v = pcl__value_alloc(kind, 0);
  v->sub = sub;
  v->u.ref.a = pcl_retain(payload_value);
  pcl__note_part(v, payload_value);
  return v;
}

pcl_value *pcl_asset_new(pcl_asset_kind kind, pcl_value *payload_value) {
  return payload_new(PCL_T_ASSET, (uint16_t)kind, payload_value);
}

pcl_value *pcl_archive_new(pcl_archive_kind kind, pcl_value *payload_value) {
  return payload_new(PCL_T_ARCHIVE, (uint16_t)kind, payload_value);
}

pcl_value *pcl_secret_new(pcl_value *inner) {
  if (inner->kind == PCL_T_SECRET) {
    return pcl_retain(inner);
  }
  pcl_value *v = pcl__value_alloc(PCL_T_SECRET, 0);
  v->u.ref.a = pcl_retain(inner);
  pcl__note_part(v, inner);
  return v;
}

pcl_value *pcl_eventual_new_take(void *ptr, const pcl_eventual_ops *ops) {
  pcl_value *v = pcl__value_alloc(PCL_T_EVENTUAL, 0);
  v->u.ev.ptr = ptr;
  v->u.ev.ops = ops;
  return v;
}
