/* fuzz_config: libFuzzer target for config decoding.
 *
 * Each input is, in turn, the raw text of a config value parsed by
 * pcl_config_parse for a table of declared types (scalars, lists, maps,
 * objects, optionals, nested collections), and a JSON document read as
 * PULUMI_CONFIG or a config file (pcl__config_add_json) and as
 * PULUMI_CONFIG_SECRET_KEYS (pcl__config_secret_keys), whose entries are
 * then qualified, marked and parsed as a run would.  Besides the
 * sanitizers, the target checks that a failure always comes with a message
 * and that, inside a redaction scope (a secret key), no message shows a
 * text that holds a '#' (which no message of the runtime holds).  Built and
 * run by `make fuzz`. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "value/pcl_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Aborts with a message naming the broken promise. */
static void fail(const char *what) {
  fprintf(stderr, "fuzz_config: %s\n", what);
  abort();
}

static const pcl_type list_int = {PCL_TY_LIST, &pcl_type_int, NULL, 0};
static const pcl_type map_string = {PCL_TY_MAP, &pcl_type_string, NULL, 0};
static const pcl_type opt_number = {PCL_TY_OPTIONAL, &pcl_type_number, NULL, 0};
static const pcl_type list_list_number = {PCL_TY_LIST, &(const pcl_type){PCL_TY_LIST,
                                          &pcl_type_number, NULL, 0}, NULL, 0};
static const pcl_type_field fields[] = {{"a", &pcl_type_int}, {"b", &list_int},
                                        {"c", &opt_number}};
static const pcl_type object = {PCL_TY_OBJECT, NULL, fields, 3};
static const pcl_type map_object = {PCL_TY_MAP, &object, NULL, 0};
static const pcl_type *const types[] = {
    &pcl_type_any, &pcl_type_bool, &pcl_type_int, &pcl_type_number, &pcl_type_string,
    &list_int,     &map_string,    &opt_number,   &list_list_number, &object,
    &map_object};

/* Parses text as every type, inside a redaction scope when secret. */
static void parse_all(const char *text, bool secret) {
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
    pcl_error *err = NULL;
    if (secret) {
      pcl__redact_enter();
    }
    pcl_value *v = pcl_config_parse("k", text, types[i], &err);
    if (secret) {
      pcl__redact_leave();
    }
    if (v != NULL) {
      pcl_release(v);
      continue;
    }
    if (err == NULL || pcl_error_message(err)[0] == '\0') {
      fail("a config value failed without a message");
    }
    if (secret && strchr(text, '#') != NULL && strlen(text) >= 4 &&
        strstr(pcl_error_message(err), text) != NULL) {
      fail("the message about a secret value shows it");
    }
    pcl_error_free(err);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (text == NULL) {
    fail("out of memory");
  }
  memcpy(text, data, size);
  text[size] = '\0';
  parse_all(text, false);
  parse_all(text, true);

  pcl_error *err = NULL;
  pcl_value *doc = pcl_json_decode(text, size, 0, &err);
  if (doc == NULL) {
    pcl_error_free(err);
    free(text);
    return 0;
  }
  pcl__config_set cs = {NULL, 0, 0, NULL};
  if (!pcl__config_add_json(&cs, doc, "PULUMI_CONFIG", &err)) {
    if (err == NULL) {
      fail("a config document was refused without a message");
    }
    pcl_error_free(err);
    err = NULL;
  }
  pcl_value *keys = pcl__config_secret_keys(doc, "PULUMI_CONFIG_SECRET_KEYS", &err);
  if (keys == NULL) {
    pcl_error_free(err);
  }
  pcl__config_qualify(&cs, "proj");
  pcl__config_mark_secret(&cs, keys, "proj");
  for (size_t i = 0; i < cs.n; i++) {
    if (strchr(cs.items[i].key, ':') == NULL) {
      fail("a key is left without a namespace");
    }
    parse_all(cs.items[i].text, cs.items[i].secret);
  }
  pcl_value *map = pcl__config_map(&cs);
  pcl_release(map);
  pcl__config_set_free(&cs);
  pcl_release(keys);
  pcl_release(doc);
  free(text);
  return 0;
}
