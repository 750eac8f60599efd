/* jscan: a validating scan of JSON text that indexes object members by the
 * byte range of their values, so that a large document is parsed only where
 * it is read.
 *
 * The schema loader (schema.c) scans a package schema once: the scan checks
 * the JSON structure of the whole text (RFC 8259 objects, arrays, strings
 * and their escapes, numbers, literals; UTF-8 is left to jansson) and
 * records the members of the top-level object and of the named "section"
 * members (`resources`, `functions`, `types`).  A member's value is parsed
 * with jansson only when it is first needed (jscan_member.json, filled in
 * by the caller).  Objects and arrays nest at most JSCAN_MAX_DEPTH deep,
 * which also bounds the recursion of the scan and of everything that later
 * decodes a member. */
#ifndef PCLC_JSCAN_H
#define PCLC_JSCAN_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/intern.h"
#include "base/ptrmap.h"

/* The deepest nesting of objects and arrays a scanned text may have. */
enum { JSCAN_MAX_DEPTH = 512 };

/* A member of a JSON object: its key and the byte range of its value. */
typedef struct jscan_member {
  const char *key;     /* Interned key. */
  uint32_t start, end; /* Byte range of the value in the scanned text. */
  char kind;           /* First byte of the value ('{', '[', '"', ...). */
  bool failed;         /* Parsing was tried and failed (reported by the caller). */
  json_t *json;        /* The parsed value once needed (owned reference), or NULL. */
} jscan_member;

/* The members of one JSON object in text order, indexed by key (a later
 * duplicate key replaces an earlier one, as in jansson and Go). */
typedef struct jscan_members {
  jscan_member *items; /* The members (owned). */
  size_t count, cap;   /* Members used and allocated. */
  ptrmap index;        /* Interned key -> position + 1 (owned). */
} jscan_members;

/* Where a scan failed. */
typedef struct jscan_error {
  const char *msg; /* Static description ("unterminated string", ...). */
  size_t at;       /* Byte offset of the problem. */
  bool show_char;  /* The character at `at` completes the description. */
} jscan_error;

/* Scans the len bytes of text, which must hold one JSON value.  When that
 * value is an object (*object is then true) its members are recorded in
 * top, and the members of each member named section_names[i] whose value is
 * an object are recorded in sections[i] (nsections of them).  Keys are
 * interned in names.  Returns false and fills *err at the first problem;
 * the index may then be partial.  Nothing is parsed with jansson here. */
bool jscan_index(const char *text, size_t len, intern_table *names, jscan_members *top,
                 size_t nsections, const char *const *section_names,
                 jscan_members *const *sections, bool *object, jscan_error *err);

/* Returns the member of m whose interned key is key, or NULL. */
jscan_member *jscan_find(const jscan_members *m, const char *key);

/* Frees what m owns, the parsed values included, and empties it. */
void jscan_members_free(jscan_members *m);

#endif
