/* urn.c: URNs: building them the Pulumi way and an index from interned URNs
 * to records, used by the embedded engine and the run to find resources in
 * constant time.
 *
 * URN form: urn:pulumi:<stack>::<project>::<qualified type>::<name>, where
 * the qualified type is the parent's qualified type, "$" and the type,
 * unless the parent is the stack.  The index keys are interned URN pointers
 * (pcl_urn_intern), so lookups never compare strings. */
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"

char *pcl_urn_make(const char *stack, const char *project, const char *parent_urn,
                   const char *type, const char *name) {
  /* The parent's qualified type lies between the project's "::" and the
   * last "::"; the stack is left out. */
  const char *ptype = NULL;
  size_t plen = 0;
  if (parent_urn) {
    const char *p = strstr(parent_urn, "::");
    p = p ? strstr(p + 2, "::") : NULL;
    const char *last = NULL;
    for (const char *q = p ? p + 2 : NULL; q && (q = strstr(q, "::")); q += 2) {
      last = q;
    }
    if (p && last && last > p + 2) {
      size_t len = (size_t)(last - (p + 2));
      if (!(len == 19 && strncmp(p + 2, "pulumi:pulumi:Stack", 19) == 0)) {
        ptype = p + 2;
        plen = len;
      }
    }
  }
  /* The URN is built in one allocation of its exact size: it is made for
   * every registration. */
  size_t slen = strlen(stack), jlen = strlen(project), tlen = strlen(type), nlen = strlen(name);
  size_t total = 11 + slen + 2 + jlen + 2 + (ptype ? plen + 1 : 0) + tlen + 2 + nlen;
  char *urn = pcl_xmalloc(total + 1);
  char *o = urn;
  memcpy(o, "urn:pulumi:", 11);
  o += 11;
  memcpy(o, stack, slen);
  o += slen;
  memcpy(o, "::", 2);
  o += 2;
  memcpy(o, project, jlen);
  o += jlen;
  memcpy(o, "::", 2);
  o += 2;
  if (ptype) {
    memcpy(o, ptype, plen);
    o += plen;
    *o++ = '$';
  }
  memcpy(o, type, tlen);
  o += tlen;
  memcpy(o, "::", 2);
  o += 2;
  memcpy(o, name, nlen);
  o += nlen;
  *o = '\0';
  return urn;
}

static size_t hash_ptr(const void *p) {
  uintptr_t x = (uintptr_t)p;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdu;
  x ^= x >> 33;
  return (size_t)x;
}

static void index_grow(pcl__urn_index *ix) {
  size_t ncap = ix->cap ? ix->cap * 2 : 256;
  pcl__urn_slot *ns = pcl_xcalloc(ncap, sizeof *ns);
  for (size_t i = 0; i < ix->cap; i++) {
    if (ix->slots[i].urn) {
      size_t j = hash_ptr(ix->slots[i].urn) & (ncap - 1);
      while (ns[j].urn) {
        j = (j + 1) & (ncap - 1);
      }
      ns[j] = ix->slots[i];
    }
  }
  free(ix->slots);
  ix->slots = ns;
  ix->cap = ncap;
}

void pcl__urn_index_put(pcl__urn_index *ix, const char *urn, void *rec) {
  if ((ix->n + 1) * 2 > ix->cap) {
    index_grow(ix);
  }
  size_t j = hash_ptr(urn) & (ix->cap - 1);
  while (ix->slots[j].urn && ix->slots[j].urn != urn) {
    j = (j + 1) & (ix->cap - 1);
  }
  if (ix->slots[j].urn == NULL) {
    ix->n++;
  }
  ix->slots[j].urn = urn;
  ix->slots[j].rec = rec;
}

void *pcl__urn_index_get(const pcl__urn_index *ix, const char *urn) {
  if (ix->cap == 0) {
    return NULL;
  }
  size_t j = hash_ptr(urn) & (ix->cap - 1);
  while (ix->slots[j].urn) {
    if (ix->slots[j].urn == urn) {
      return ix->slots[j].rec;
    }
    j = (j + 1) & (ix->cap - 1);
  }
  return NULL;
}

void pcl__urn_index_free(pcl__urn_index *ix) {
  free(ix->slots);
  memset(ix, 0, sizeof *ix);
}
