/* embedded_server.c: the embedded engine behind a gRPC server, a test engine
 * that answers a compiled program's gRPC backend with the behaviour the
 * embedded engine has (URNs, default providers, ids, mocks), so that every
 * sample and conformance program can be run through the engine protocol and
 * checked against the expectations written for the embedded engine.
 *
 * It is itself a program of libpclrt: main calls pcl_main with the run's
 * flags (--project, --stack, --snapshot, --mocks, --preview, ...), whose
 * embedded engine serves the requests that arrive over gRPC; linked with
 * tests/conformance/mocks.c (-Wl,--wrap=pcl_main) it answers as the
 * conformance test providers do.  The program's stack registration is
 * answered with the run's own stack, and its stack outputs become the run's
 * exports, so pcl_main writes the same snapshot and prints the same outputs
 * as a run of the program on the embedded engine would.  The run ends when
 * the program signals shutdown or logs its error (which the snapshot then
 * records).  RegisterPackage is the embedded engine's too: it remembers the
 * package under a reference it makes up, and a request carrying that
 * reference is served as the package's (its providers, and what the
 * conformance mocks answer, follow the parameterization).
 *
 * Environment: PCL_TEST_ENGINE_PORT_FILE names the file the listening port
 * is written to (the server listens on 127.0.0.1, on a free port).
 *
 * Every request is decoded with the generated code of runtime/engine/proto and the
 * property values with the runtime's own decoder (rpc_value.c), and the
 * answers encoded with its encoder, so that the server takes and gives
 * every value kind the runtime does (byte strings too, which it lists in
 * GetDeploymentInfo and sends in an answer only when the request accepts
 * them, as the engine does); requests the program cannot send (an unknown
 * method) are answered UNIMPLEMENTED. */
#include <grpc/byte_buffer_reader.h>
#include <grpc/grpc.h>
#include <grpc/grpc_security.h>
#include <grpc/support/alloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/rpc.h"

/* One call being served. */
typedef struct scall {
  grpc_call *call;           /* The call. */
  grpc_call_details details; /* Its method. */
  grpc_metadata_array md;    /* Its headers. */
  grpc_byte_buffer *req;     /* The request message, once read. */
  int state;                 /* 0 accepted, 1 read, 2 answered. */
  int cancelled;             /* Set by RECV_CLOSE_ON_SERVER. */
  bool ends_run;             /* Answering it ends the run. */
  bool byte_strings;         /* The request accepts byte strings in its answer. */
  pcl_value *keep;           /* RegisterResourceOutputs: the outputs (owned). */
} scall;

/* The server's state; one per process. */
static struct {
  grpc_server *server;       /* The gRPC server. */
  grpc_completion_queue *cq; /* Its completion queue. */
  pcl_run *run;              /* The run whose engine answers. */
  size_t live;               /* Calls accepted and not finished. */
  bool ending;               /* The program is done: finish the calls, then stop. */
  bool stopped;              /* The server shut down. */
} S;

static void *shutdown_tag = &S;

static void accept_next(void);

/* Answers c with the message msg (NULL: none) and status st / details. */
static void answer(scall *c, const ProtobufCMessage *msg, grpc_status_code st,
                   const char *details) {
  grpc_op ops[3];
  memset(ops, 0, sizeof ops);
  size_t n = 0;
  grpc_byte_buffer *bb = NULL;
  if (msg) {
    size_t len = protobuf_c_message_get_packed_size(msg);
    grpc_slice s = grpc_slice_malloc(len);
    protobuf_c_message_pack(msg, GRPC_SLICE_START_PTR(s));
    bb = grpc_raw_byte_buffer_create(&s, 1);
    grpc_slice_unref(s);
    ops[n].op = GRPC_OP_SEND_MESSAGE;
    ops[n++].data.send_message.send_message = bb;
  }
  grpc_slice ds = grpc_slice_from_copied_string(details ? details : "");
  ops[n].op = GRPC_OP_SEND_STATUS_FROM_SERVER;
  ops[n].data.send_status_from_server.status = st;
  ops[n++].data.send_status_from_server.status_details = &ds;
  ops[n].op = GRPC_OP_RECV_CLOSE_ON_SERVER;
  ops[n++].data.recv_close_on_server.cancelled = &c->cancelled;
  c->state = 2;
  if (grpc_call_start_batch(c->call, ops, n, c, NULL) != GRPC_CALL_OK) {
    abort();
  }
  grpc_slice_unref(ds);
  if (bb) {
    grpc_byte_buffer_destroy(bb);
  }
}

static void answer_error(scall *c, const pcl_error *err) {
  answer(c, NULL, GRPC_STATUS_UNKNOWN, pcl_error_message(err));
}

/* Unpacks c's request as a message of descriptor d, or answers
 * INVALID_ARGUMENT and returns NULL. */
static ProtobufCMessage *request(scall *c, const ProtobufCMessageDescriptor *d) {
  grpc_byte_buffer_reader r;
  ProtobufCMessage *m = NULL;
  if (c->req && grpc_byte_buffer_reader_init(&r, c->req)) {
    grpc_slice all = grpc_byte_buffer_reader_readall(&r);
    grpc_byte_buffer_reader_destroy(&r);
    m = protobuf_c_message_unpack(d, NULL, GRPC_SLICE_LENGTH(all), GRPC_SLICE_START_PTR(all));
    grpc_slice_unref(all);
  }
  if (m == NULL) {
    answer(c, NULL, GRPC_STATUS_INVALID_ARGUMENT, "the request does not decode");
  }
  return m;
}

/* Returns the MAP of the Struct s, or answers and returns NULL. */
static pcl_value *struct_value(scall *c, const Google__Protobuf__Struct *s) {
  pcl_error *err = NULL;
  pcl_value *v = pcl__rpc_struct_get(s, &err);
  if (v == NULL) {
    answer(c, NULL, GRPC_STATUS_INVALID_ARGUMENT, pcl_error_message(err));
    pcl_error_free(err);
  }
  return v;
}

/* Returns the Struct of the MAP v, the answer to c, with every value kind
 * kept (owned; byte strings when c's request accepts them), or NULL with
 * *err when v holds what the protocol cannot carry. */
static Google__Protobuf__Struct *to_struct(const scall *c, const pcl_value *v, pcl_error **err) {
  pcl__rpc_enc enc = {.secrets = true, .resources = true, .byte_strings = c->byte_strings};
  Google__Protobuf__Struct *s = pcl__rpc_struct_new(v, &enc);
  *err = enc.err;
  enc.err = NULL;
  pcl__rpc_enc_clear(&enc);
  return s;
}

static pcl_value *str(const char *s) {
  return pcl_str_from_cstr(s ? s : "");
}

static pcl_value *str_list(char *const *items, size_t n) {
  pcl_value *l = pcl_list_new(n);
  for (size_t i = 0; i < n; i++) {
    pcl_list_init_take(l, i, str(items[i]));
  }
  return l;
}

static pcl_deps *deps_of(char *const *urns, size_t n) {
  pcl_deps *d = NULL;
  for (size_t i = 0; i < n; i++) {
    pcl_deps *one = pcl_deps_one(urns[i]);
    pcl_deps *u = pcl_deps_union(d, one);
    pcl_deps_release(one);
    pcl_deps_release(d);
    d = u;
  }
  return d;
}

/* Returns the segments of a property path ("a.b[0][\"c.d\"]") as the
 * runtime records hideDiffs: names and quoted keys as strings, indexes as
 * ints (owned LIST). */
static pcl_value *path_segments(const char *p) {
  pcl_value *segs = pcl_list_new(0);
  while (*p) {
    pcl_value *seg;
    if (*p == '[' && p[1] == '"') {
      const char *end = strstr(p + 2, "\"]");
      size_t n = end ? (size_t)(end - p - 2) : strlen(p + 2);
      seg = pcl_str_new_lossy(p + 2, n);
      p += 2 + n + (end ? 2 : 0);
    } else if (*p == '[') {
      size_t n = strcspn(p + 1, "]");
      pcl_error *err = NULL;
      seg = pcl_int_parse(p + 1, n, &err);
      pcl_error_free(err);
      if (seg == NULL) {
        seg = pcl_str_new_lossy(p + 1, n);
      }
      p += 1 + n + (p[1 + n] == ']');
    } else {
      if (*p == '.') {
        p++;
      }
      size_t n = strcspn(p, ".[");
      seg = pcl_str_new_lossy(p, n);
      p += n;
    }
    size_t k = pcl_len(segs);
    pcl_value *grown = pcl_list_new(k + 1);
    for (size_t i = 0; i < k; i++) {
      pcl_list_init_take(grown, i, pcl_retain(pcl_list_at(segs, i)));
    }
    pcl_list_init_take(grown, k, seg);
    pcl_release(segs);
    segs = grown;
  }
  return segs;
}

/* Returns the seconds of a Go duration text as the runtime records them. */
static pcl_value *seconds(const char *text) {
  double s;
  if (!pcl__parse_duration(text, &s)) {
    return str(text);
  }
  double whole = (double)(int64_t)s;
  return whole == s ? pcl_int_new((int64_t)s) : pcl_number_new(s);
}

/* Returns the options record of a registration, as resource.c records the
 * options the request carries (version and pluginDownloadURL travel as the
 * package's, so the record cannot tell an explicit one; it leaves them out). */
static pcl_value *options_of(const Pulumirpc__RegisterResourceRequest *r, bool external) {
  pcl_mapbuf mb = PCL_MAPBUF_INIT;
  pcl_mapbuf_put_cstr(&mb, "protect", pcl_bool(r->protect_set_case && r->protect));
  pcl_mapbuf_put_cstr(&mb, "retainOnDelete",
                      pcl_bool(r->retain_on_delete_set_case && r->retainondelete));
  pcl_mapbuf_put_cstr(&mb, "deleteBeforeReplace", pcl_bool(r->deletebeforereplace));
  pcl_mapbuf_put_cstr(&mb, "external", pcl_bool(external));
  pcl_mapbuf_put_cstr(&mb, "ignoreChanges", str_list(r->ignorechanges, r->n_ignorechanges));
  pcl_value *hide = pcl_list_new(r->n_hidediffs);
  for (size_t i = 0; i < r->n_hidediffs; i++) {
    pcl_list_init_take(hide, i, path_segments(r->hidediffs[i]));
  }
  pcl_mapbuf_put_cstr(&mb, "hideDiffs", hide);
  pcl_mapbuf_put_cstr(&mb, "replaceOnChanges",
                      str_list(r->replaceonchanges, r->n_replaceonchanges));
  pcl_mapbuf_put_cstr(&mb, "additionalSecretOutputs",
                      str_list(r->additionalsecretoutputs, r->n_additionalsecretoutputs));
  pcl_mapbuf tb = PCL_MAPBUF_INIT;
  if (r->customtimeouts) {
    const char *keys[] = {"create", "update", "delete", "read"};
    const char *vals[] = {r->customtimeouts->create, r->customtimeouts->update,
                          r->customtimeouts->delete_, r->customtimeouts->read};
    for (size_t i = 0; i < 4; i++) {
      if (vals[i] && *vals[i]) {
        pcl_mapbuf_put_cstr(&tb, keys[i], seconds(vals[i]));
      }
    }
  }
  pcl_mapbuf_put_cstr(&mb, "customTimeouts", pcl_mapbuf_finish(&tb));
  pcl_mapbuf_put_cstr(&mb, "importID", str(r->importid));
  pcl_mapbuf_put_cstr(&mb, "deletedWith", str(r->deletedwith));
  pcl_mapbuf_put_cstr(&mb, "replaceWith", str_list(r->replacewith, r->n_replacewith));
  pcl_value *aliases = pcl_list_new(r->n_aliases);
  for (size_t i = 0; i < r->n_aliases; i++) {
    const Pulumirpc__Alias *a = r->aliases[i];
    if (a->alias_case == PULUMIRPC__ALIAS__ALIAS_SPEC && a->spec) {
      pcl_mapbuf ab = PCL_MAPBUF_INIT;
      const char *keys[] = {"name", "type", "stack", "project"};
      const char *vals[] = {a->spec->name, a->spec->type, a->spec->stack, a->spec->project};
      for (size_t k = 0; k < 4; k++) {
        if (vals[k] && *vals[k]) {
          pcl_mapbuf_put_cstr(&ab, keys[k], str(vals[k]));
        }
      }
      if (a->spec->parent_case == PULUMIRPC__ALIAS__SPEC__PARENT_PARENT_URN) {
        pcl_mapbuf_put_cstr(&ab, "parent", str(a->spec->parenturn));
      } else if (a->spec->parent_case == PULUMIRPC__ALIAS__SPEC__PARENT_NO_PARENT) {
        pcl_mapbuf_put_cstr(&ab, "noParent", pcl_bool(a->spec->noparent));
      }
      pcl_list_init_take(aliases, i, pcl_mapbuf_finish(&ab));
    } else {
      pcl_list_init_take(aliases, i, str(a->urn));
    }
  }
  pcl_mapbuf_put_cstr(&mb, "aliases", aliases);
  pcl_value *trig = NULL;
  if (r->replacementtrigger) {
    pcl_error *err = NULL;
    trig = pcl__rpc_value_get(r->replacementtrigger, &err);
    pcl_error_free(err);
  }
  pcl_mapbuf_put_cstr(&mb, "replacementTrigger", trig ? trig : pcl_null());
  if (r->n_envvarmappings > 0) {
    pcl_mapbuf eb = PCL_MAPBUF_INIT;
    for (size_t i = 0; i < r->n_envvarmappings; i++) {
      pcl_mapbuf_put_cstr(&eb, r->envvarmappings[i]->key, str(r->envvarmappings[i]->value));
    }
    pcl_mapbuf_put_cstr(&mb, "envVarMappings", pcl_mapbuf_finish(&eb));
  }
  if (r->n_providers > 0) {
    pcl_mapbuf pb = PCL_MAPBUF_INIT;
    for (size_t i = 0; i < r->n_providers; i++) {
      pcl_mapbuf_put_cstr(&pb, r->providers[i]->key, str(r->providers[i]->value));
    }
    pcl_mapbuf_put_cstr(&mb, "providers", pcl_mapbuf_finish(&pb));
  }
  return pcl_mapbuf_finish(&mb);
}

/* -- Completions of the embedded engine's answers. */

static void resource_answered(void *data, const pcl_resource_result *res, const pcl_error *err) {
  scall *c = data;
  S.run->inflight--;
  if (err) {
    answer_error(c, err);
    return;
  }
  pcl_error *enc_err = NULL;
  Google__Protobuf__Struct *outs = to_struct(c, res->outputs, &enc_err);
  if (outs == NULL) {
    answer(c, NULL, GRPC_STATUS_INTERNAL, pcl_error_message(enc_err));
    pcl_error_free(enc_err);
  } else if (c->keep) {
    /* A read: its answer is a ReadResourceResponse. */
    Pulumirpc__ReadResourceResponse resp = PULUMIRPC__READ_RESOURCE_RESPONSE__INIT;
    resp.urn = (char *)res->urn;
    resp.id =
        (char *)(res->id && pcl_kind_of(res->id) == PCL_T_STRING ? pcl_str_data(res->id) : "");
    resp.properties = outs;
    answer(c, &resp.base, GRPC_STATUS_OK, NULL);
  } else {
    Pulumirpc__RegisterResourceResponse resp = PULUMIRPC__REGISTER_RESOURCE_RESPONSE__INIT;
    resp.urn = (char *)res->urn;
    resp.id =
        (char *)(res->id && pcl_kind_of(res->id) == PCL_T_STRING ? pcl_str_data(res->id) : "");
    resp.object = outs;
    answer(c, &resp.base, GRPC_STATUS_OK, NULL);
  }
  if (outs) {
    protobuf_c_message_free_unpacked(&outs->base, NULL);
  }
}

static void value_answered(void *data, pcl_value *result, const pcl_error *err) {
  scall *c = data;
  S.run->inflight--;
  if (err) {
    answer_error(c, err);
    return;
  }
  const char *method = grpc_slice_to_c_string(c->details.method);
  bool call = strcmp(method, "/pulumirpc.ResourceMonitor/Call") == 0;
  bool invoke = strcmp(method, "/pulumirpc.ResourceMonitor/Invoke") == 0;
  gpr_free((void *)method);
  pcl_error *enc_err = NULL;
  Google__Protobuf__Struct *ret = call || invoke ? to_struct(c, result, &enc_err) : NULL;
  if ((call || invoke) && ret == NULL) {
    answer(c, NULL, GRPC_STATUS_INTERNAL, pcl_error_message(enc_err));
    pcl_error_free(enc_err);
  } else if (call) {
    Pulumirpc__CallResponse resp = PULUMIRPC__CALL_RESPONSE__INIT;
    resp.return_ = ret;
    answer(c, &resp.base, GRPC_STATUS_OK, NULL);
  } else if (invoke) {
    Pulumirpc__ResourceInvokeResponse resp = PULUMIRPC__RESOURCE_INVOKE_RESPONSE__INIT;
    resp.return_ = ret;
    answer(c, &resp.base, GRPC_STATUS_OK, NULL);
  } else {
    Google__Protobuf__Empty resp = GOOGLE__PROTOBUF__EMPTY__INIT;
    answer(c, &resp.base, GRPC_STATUS_OK, NULL);
  }
  if (ret) {
    protobuf_c_message_free_unpacked(&ret->base, NULL);
  }
}

/* -- The methods. */

static void serve_register(scall *c) {
  Pulumirpc__RegisterResourceRequest *r = (Pulumirpc__RegisterResourceRequest *)request(
      c, &pulumirpc__register_resource_request__descriptor);
  if (r == NULL) {
    return;
  }
  pcl_run *run = S.run;
  c->byte_strings = r->acceptsbytestring;
  if (strcmp(r->type, "pulumi:pulumi:Stack") == 0) {
    /* The run registered the stack already: it is the program's. */
    Pulumirpc__RegisterResourceResponse resp = PULUMIRPC__REGISTER_RESOURCE_RESPONSE__INIT;
    resp.urn = run->stack_urn;
    resp.id = (char *)"";
    answer(c, &resp.base, GRPC_STATUS_OK, NULL);
    protobuf_c_message_free_unpacked(&r->base, NULL);
    return;
  }
  pcl_value *inputs = struct_value(c, r->object);
  if (inputs == NULL) {
    protobuf_c_message_free_unpacked(&r->base, NULL);
    return;
  }
  size_t n = pcl_len(inputs);
  pcl_deps **prop = pcl_xcalloc(n ? n : 1, sizeof *prop);
  for (size_t i = 0; i < n; i++) {
    for (size_t j = 0; j < r->n_propertydependencies; j++) {
      if (pcl_str_eq_cstr(pcl_map_key_at(inputs, i), r->propertydependencies[j]->key) &&
          r->propertydependencies[j]->value) {
        prop[i] = deps_of(r->propertydependencies[j]->value->urns,
                          r->propertydependencies[j]->value->n_urns);
      }
    }
  }
  pcl_deps *deps = deps_of(r->dependencies, r->n_dependencies);
  pcl_value *options = options_of(r, false);
  pcl_value *providers = NULL;
  if (r->n_providers > 0) {
    pcl_mapbuf pb = PCL_MAPBUF_INIT;
    for (size_t i = 0; i < r->n_providers; i++) {
      pcl_mapbuf_put_cstr(&pb, r->providers[i]->key, str(r->providers[i]->value));
    }
    providers = pcl_mapbuf_finish(&pb);
  }
  pcl_resource_request req = {
      .type = r->type,
      .name = r->name,
      .kind = r->remote   ? PCL_RES_REMOTE
              : r->custom ? PCL_RES_CUSTOM
                          : PCL_RES_COMPONENT,
      .parent = *r->parent ? r->parent : NULL,
      .provider = *r->provider ? r->provider : NULL,
      .version = *r->version ? r->version : NULL,
      .plugin_download_url = *r->plugindownloadurl ? r->plugindownloadurl : NULL,
      .inputs = inputs,
      .prop_deps = prop,
      .deps = deps,
      .options = options,
      .providers = providers,
      .package_ref = *r->packageref ? r->packageref : NULL,
  };
  run->inflight++;
  run->engine->ops->register_resource(run->engine, &req, resource_answered, c);
  for (size_t i = 0; i < n; i++) {
    pcl_deps_release(prop[i]);
  }
  free(prop);
  pcl_deps_release(deps);
  pcl_release(options);
  pcl_release(providers);
  pcl_release(inputs);
  protobuf_c_message_free_unpacked(&r->base, NULL);
}

static void serve_read(scall *c) {
  Pulumirpc__ReadResourceRequest *r =
      (Pulumirpc__ReadResourceRequest *)request(c, &pulumirpc__read_resource_request__descriptor);
  if (r == NULL) {
    return;
  }
  c->byte_strings = r->acceptsbytestring;
  pcl_value *inputs = struct_value(c, r->properties);
  if (inputs == NULL) {
    protobuf_c_message_free_unpacked(&r->base, NULL);
    return;
  }
  /* A stack reference is read by the SDKs; the runtime registers it. */
  bool stack_ref = strcmp(r->type, "pulumi:pulumi:StackReference") == 0;
  Pulumirpc__RegisterResourceRequest as_reg = PULUMIRPC__REGISTER_RESOURCE_REQUEST__INIT;
  as_reg.additionalsecretoutputs = r->additionalsecretoutputs;
  as_reg.n_additionalsecretoutputs = r->n_additionalsecretoutputs;
  as_reg.importid = (char *)"";
  as_reg.deletedwith = (char *)"";
  pcl_value *options = options_of(&as_reg, !stack_ref);
  pcl_value *id = str(r->id);
  pcl_deps *deps = deps_of(r->dependencies, r->n_dependencies);
  size_t n = pcl_len(inputs);
  pcl_deps **prop = pcl_xcalloc(n ? n : 1, sizeof *prop);
  pcl_resource_request req = {
      .type = r->type,
      .name = r->name,
      .kind = PCL_RES_CUSTOM,
      .read = !stack_ref,
      .id = stack_ref ? NULL : id,
      .parent = *r->parent ? r->parent : NULL,
      .provider = *r->provider ? r->provider : NULL,
      .version = *r->version ? r->version : NULL,
      .plugin_download_url = *r->plugindownloadurl ? r->plugindownloadurl : NULL,
      .inputs = inputs,
      .prop_deps = prop,
      .deps = deps,
      .options = options,
      .package_ref = *r->packageref ? r->packageref : NULL,
  };
  c->keep = pcl_retain(inputs);
  S.run->inflight++;
  S.run->engine->ops->register_resource(S.run->engine, &req, resource_answered, c);
  free(prop);
  pcl_deps_release(deps);
  pcl_release(id);
  pcl_release(options);
  pcl_release(inputs);
  protobuf_c_message_free_unpacked(&r->base, NULL);
}

static void serve_invoke(scall *c, bool call) {
  ProtobufCMessage *m = request(c, call ? &pulumirpc__resource_call_request__descriptor
                                        : &pulumirpc__resource_invoke_request__descriptor);
  if (m == NULL) {
    return;
  }
  pcl_invoke_request req = {0};
  const Google__Protobuf__Struct *args;
  pcl_value *arg_deps = NULL;
  if (call) {
    Pulumirpc__ResourceCallRequest *r = (Pulumirpc__ResourceCallRequest *)m;
    req.token = r->tok;
    req.provider = *r->provider ? r->provider : NULL;
    req.version = *r->version ? r->version : NULL;
    req.plugin_download_url = *r->plugindownloadurl ? r->plugindownloadurl : NULL;
    req.package_ref = *r->packageref ? r->packageref : NULL;
    args = r->args;
    c->byte_strings = r->acceptsbytestring;
    pcl_mapbuf db = PCL_MAPBUF_INIT;
    for (size_t i = 0; i < r->n_argdependencies; i++) {
      const Pulumirpc__ResourceCallRequest__ArgumentDependencies *d = r->argdependencies[i]->value;
      pcl_mapbuf_put_cstr(&db, r->argdependencies[i]->key,
                          d ? str_list(d->urns, d->n_urns) : pcl_list_new(0));
    }
    arg_deps = pcl_mapbuf_finish(&db);
  } else {
    Pulumirpc__ResourceInvokeRequest *r = (Pulumirpc__ResourceInvokeRequest *)m;
    req.token = r->tok;
    req.provider = *r->provider ? r->provider : NULL;
    req.version = *r->version ? r->version : NULL;
    req.plugin_download_url = *r->plugindownloadurl ? r->plugindownloadurl : NULL;
    req.package_ref = *r->packageref ? r->packageref : NULL;
    args = r->args;
    c->byte_strings = r->acceptsbytestring;
  }
  pcl_value *a = struct_value(c, args);
  if (a != NULL) {
    req.args = a;
    req.arg_deps = arg_deps;
    S.run->inflight++;
    if (call) {
      S.run->engine->ops->call(S.run->engine, &req, value_answered, c);
    } else {
      S.run->engine->ops->invoke(S.run->engine, &req, value_answered, c);
    }
  }
  pcl_release(a);
  pcl_release(arg_deps);
  protobuf_c_message_free_unpacked(m, NULL);
}

static void serve_outputs(scall *c) {
  Pulumirpc__RegisterResourceOutputsRequest *r =
      (Pulumirpc__RegisterResourceOutputsRequest *)request(
          c, &pulumirpc__register_resource_outputs_request__descriptor);
  if (r == NULL) {
    return;
  }
  pcl_value *outs = struct_value(c, r->outputs);
  if (outs != NULL) {
    if (strcmp(r->urn, S.run->stack_urn) == 0) {
      /* The program's stack outputs are the run's exports. */
      for (size_t i = 0; i < pcl_len(outs); i++) {
        pcl_export(S.run, pcl_str_data(pcl_map_key_at(outs, i)), pcl_map_val_at(outs, i));
      }
      Google__Protobuf__Empty resp = GOOGLE__PROTOBUF__EMPTY__INIT;
      answer(c, &resp.base, GRPC_STATUS_OK, NULL);
    } else {
      S.run->inflight++;
      S.run->engine->ops->register_outputs(S.run->engine, r->urn, outs, value_answered, c);
    }
  }
  pcl_release(outs);
  protobuf_c_message_free_unpacked(&r->base, NULL);
}

static void package_answered(void *data, pcl_value *result, const pcl_error *err) {
  scall *c = data;
  if (err) {
    answer_error(c, err);
    return;
  }
  Pulumirpc__RegisterPackageResponse resp = PULUMIRPC__REGISTER_PACKAGE_RESPONSE__INIT;
  resp.ref = (char *)pcl_str_data(result);
  answer(c, &resp.base, GRPC_STATUS_OK, NULL);
}

/* RegisterPackage: the embedded engine remembers the package and makes up
 * its reference, which the package's requests then carry. */
static void serve_package(scall *c) {
  Pulumirpc__RegisterPackageRequest *r = (Pulumirpc__RegisterPackageRequest *)request(
      c, &pulumirpc__register_package_request__descriptor);
  if (r == NULL) {
    return;
  }
  const Pulumirpc__Parameterization *p = r->parameterization ? r->parameterization : r->extension;
  if (p == NULL || *p->name == 0 || (r->parameterization && r->extension)) {
    answer(c, NULL, GRPC_STATUS_INVALID_ARGUMENT,
           "RegisterPackage of a package without one parameterization or extension");
  } else {
    pcl_package pkg = {.base_name = r->name,
                       .base_version = *r->version ? r->version : NULL,
                       .download_url = *r->download_url ? r->download_url : NULL,
                       .name = p->name,
                       .version = *p->version ? p->version : NULL,
                       .value = (const char *)p->value.data,
                       .value_len = p->value.len,
                       .extension = r->extension != NULL};
    S.run->engine->ops->register_package(S.run->engine, &pkg, package_answered, c);
  }
  protobuf_c_message_free_unpacked(&r->base, NULL);
}

static void exists_answered(void *data, pcl_value *result, const pcl_error *err) {
  scall *c = data;
  S.run->inflight--;
  if (err) {
    answer_error(c, err);
    return;
  }
  Pulumirpc__ExistsResourceResponse resp = PULUMIRPC__EXISTS_RESOURCE_RESPONSE__INIT;
  resp.unknown = pcl_kind_of(result) == PCL_T_UNKNOWN;
  resp.exists = pcl_kind_of(result) == PCL_T_BOOL && pcl_bool_get(result);
  answer(c, &resp.base, GRPC_STATUS_OK, NULL);
}

/* ExistsResource: the embedded engine answers from the resources of the
 * run. */
static void serve_exists(scall *c) {
  Pulumirpc__ExistsResourceRequest *r = (Pulumirpc__ExistsResourceRequest *)request(
      c, &pulumirpc__exists_resource_request__descriptor);
  if (r == NULL) {
    return;
  }
  pcl_value *state = r->properties ? struct_value(c, r->properties) : NULL;
  if (r->properties == NULL || state != NULL) {
    pcl_exists_request req = {.type = r->type,
                              .id = r->id,
                              .state = state,
                              .package_ref = *r->packageref ? r->packageref : NULL};
    S.run->inflight++;
    S.run->engine->ops->exists_resource(S.run->engine, &req, exists_answered, c);
  }
  pcl_release(state);
  protobuf_c_message_free_unpacked(&r->base, NULL);
}

static void serve_log(scall *c) {
  Pulumirpc__LogRequest *r =
      (Pulumirpc__LogRequest *)request(c, &pulumirpc__log_request__descriptor);
  if (r == NULL) {
    return;
  }
  if (r->severity == PULUMIRPC__LOG_SEVERITY__ERROR) {
    /* The program's error: the run fails with it, and the program exits. */
    pcl_error *err = pcl_error_new("%s", r->message);
    pcl_run_fail(S.run, err);
    pcl_error_free(err);
    c->ends_run = true;
  } else {
    S.run->engine->ops->log(S.run->engine, (pcl_log_severity)r->severity, *r->urn ? r->urn : NULL,
                            r->message);
  }
  protobuf_c_message_free_unpacked(&r->base, NULL);
  Google__Protobuf__Empty resp = GOOGLE__PROTOBUF__EMPTY__INIT;
  answer(c, &resp.base, GRPC_STATUS_OK, NULL);
}

static void serve_version(scall *c) {
  Pulumirpc__RequirePulumiVersionRequest *r = (Pulumirpc__RequirePulumiVersionRequest *)request(
      c, &pulumirpc__require_pulumi_version_request__descriptor);
  if (r == NULL) {
    return;
  }
  bool ok = true;
  if (pcl__version_satisfies(PCL_CLI_VERSION, r->pulumiversionrange, &ok)) {
    Pulumirpc__RequirePulumiVersionResponse resp = PULUMIRPC__REQUIRE_PULUMI_VERSION_RESPONSE__INIT;
    answer(c, &resp.base, GRPC_STATUS_OK, NULL);
  } else {
    pcl_error *err =
        ok ? pcl_error_new("Pulumi CLI version %s does not satisfy the version range \"%s\"",
                           PCL_CLI_VERSION, r->pulumiversionrange)
           : pcl_error_new("failed to parse required version range \"%s\"", r->pulumiversionrange);
    answer(c, NULL, GRPC_STATUS_FAILED_PRECONDITION, pcl_error_message(err));
    pcl_error_free(err);
  }
  protobuf_c_message_free_unpacked(&r->base, NULL);
}

static void serve(scall *c) {
  char *method = grpc_slice_to_c_string(c->details.method);
  if (strcmp(method, "/pulumirpc.ResourceMonitor/GetDeploymentInfo") == 0) {
    Pulumirpc__DeploymentInfo resp = PULUMIRPC__DEPLOYMENT_INFO__INIT;
    Pulumirpc__ResourceMonitorFeature f[] = {
        PULUMIRPC__RESOURCE_MONITOR_FEATURE__RESOURCE_MONITOR_FEATURE_SECRETS,
        PULUMIRPC__RESOURCE_MONITOR_FEATURE__RESOURCE_MONITOR_FEATURE_RESOURCE_REFERENCES,
        PULUMIRPC__RESOURCE_MONITOR_FEATURE__RESOURCE_MONITOR_FEATURE_OUTPUT_VALUES,
        PULUMIRPC__RESOURCE_MONITOR_FEATURE__RESOURCE_MONITOR_FEATURE_ALIAS_SPECS,
        PULUMIRPC__RESOURCE_MONITOR_FEATURE__RESOURCE_MONITOR_FEATURE_DELETED_WITH,
        PULUMIRPC__RESOURCE_MONITOR_FEATURE__RESOURCE_MONITOR_FEATURE_BYTE_STRING,
        PULUMIRPC__RESOURCE_MONITOR_FEATURE__RESOURCE_MONITOR_FEATURE_PARAMETERIZATION};
    resp.supportedfeatures = f;
    resp.n_supportedfeatures = sizeof f / sizeof f[0];
    resp.project = S.run->project;
    resp.stack = S.run->stack;
    resp.organization = S.run->org;
    resp.dryrun = S.run->preview;
    answer(c, &resp.base, GRPC_STATUS_OK, NULL);
  } else if (strcmp(method, "/pulumirpc.ResourceMonitor/RegisterResource") == 0) {
    serve_register(c);
  } else if (strcmp(method, "/pulumirpc.ResourceMonitor/ReadResource") == 0) {
    serve_read(c);
  } else if (strcmp(method, "/pulumirpc.ResourceMonitor/Invoke") == 0) {
    serve_invoke(c, false);
  } else if (strcmp(method, "/pulumirpc.ResourceMonitor/Call") == 0) {
    serve_invoke(c, true);
  } else if (strcmp(method, "/pulumirpc.ResourceMonitor/RegisterResourceOutputs") == 0) {
    serve_outputs(c);
  } else if (strcmp(method, "/pulumirpc.ResourceMonitor/RegisterPackage") == 0) {
    serve_package(c);
  } else if (strcmp(method, "/pulumirpc.ResourceMonitor/ExistsResource") == 0) {
    serve_exists(c);
  } else if (strcmp(method, "/pulumirpc.Engine/Log") == 0) {
    serve_log(c);
  } else if (strcmp(method, "/pulumirpc.Engine/RequirePulumiVersion") == 0) {
    serve_version(c);
  } else if (strcmp(method, "/pulumirpc.Engine/SetRootResource") == 0) {
    Pulumirpc__SetRootResourceResponse resp = PULUMIRPC__SET_ROOT_RESOURCE_RESPONSE__INIT;
    answer(c, &resp.base, GRPC_STATUS_OK, NULL);
  } else if (strcmp(method, "/pulumirpc.ResourceMonitor/SignalAndWaitForShutdown") == 0) {
    c->ends_run = true;
    Google__Protobuf__Empty resp = GOOGLE__PROTOBUF__EMPTY__INIT;
    answer(c, &resp.base, GRPC_STATUS_OK, NULL);
  } else {
    answer(c, NULL, GRPC_STATUS_UNIMPLEMENTED, method);
  }
  gpr_free(method);
}

/* -- The loop's poller. */

static void accept_next(void) {
  scall *c = pcl_xcalloc(1, sizeof *c);
  grpc_call_details_init(&c->details);
  grpc_metadata_array_init(&c->md);
  S.live++;
  if (grpc_server_request_call(S.server, &c->call, &c->details, &c->md, S.cq, S.cq, c) !=
      GRPC_CALL_OK) {
    abort();
  }
}

static void scall_free(scall *c) {
  if (c->call) {
    grpc_call_unref(c->call);
  }
  grpc_call_details_destroy(&c->details);
  grpc_metadata_array_destroy(&c->md);
  if (c->req) {
    grpc_byte_buffer_destroy(c->req);
  }
  pcl_release(c->keep);
  free(c);
  S.live--;
}

/* Handles one event of the queue. */
static void handle(void *tag, bool ok) {
  if (tag == shutdown_tag) {
    S.stopped = true;
    return;
  }
  scall *c = tag;
  if (!ok && c->state == 0) {
    /* The server is shutting down: the pending accept ends. */
    scall_free(c);
    return;
  }
  switch (c->state) {
  case 0: {
    if (!S.ending) {
      accept_next();
    }
    grpc_op ops[2];
    memset(ops, 0, sizeof ops);
    ops[0].op = GRPC_OP_SEND_INITIAL_METADATA;
    ops[1].op = GRPC_OP_RECV_MESSAGE;
    ops[1].data.recv_message.recv_message = &c->req;
    c->state = 1;
    if (grpc_call_start_batch(c->call, ops, 2, c, NULL) != GRPC_CALL_OK) {
      abort();
    }
    return;
  }
  case 1:
    if (!ok) {
      answer(c, NULL, GRPC_STATUS_CANCELLED, "the request did not arrive");
      return;
    }
    serve(c);
    return;
  default:
    if (c->ends_run && !S.ending) {
      S.ending = true;
      grpc_server_shutdown_and_notify(S.server, S.cq, shutdown_tag);
    }
    scall_free(c);
    return;
  }
}

static bool poll_server(void *data, bool wait) {
  (void)data;
  while (!S.stopped || S.live > 0) {
    /* A program that dies without ending its run leaves the server waiting:
     * after a minute without a request it gives up. */
    gpr_timespec deadline =
        wait ? gpr_time_add(gpr_now(GPR_CLOCK_MONOTONIC), gpr_time_from_seconds(60, GPR_TIMESPAN))
             : gpr_time_0(GPR_CLOCK_MONOTONIC);
    grpc_event ev = grpc_completion_queue_next(S.cq, deadline, NULL);
    if (ev.type == GRPC_QUEUE_TIMEOUT) {
      if (!wait) {
        break;
      }
      fprintf(stderr, "embedded_server: no request for 60 seconds; giving up\n");
      exit(3);
    }
    if (ev.type != GRPC_OP_COMPLETE) {
      break;
    }
    handle(ev.tag, ev.success != 0);
    wait = false;
  }
  return !S.stopped || S.live > 0;
}

static void start(pcl_run *run) {
  S.run = run;
  grpc_init();
  S.cq = grpc_completion_queue_create_for_next(NULL);
  grpc_arg arg = {.type = GRPC_ARG_INTEGER,
                  .key = (char *)GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH,
                  .value.integer = 400 * 1024 * 1024};
  grpc_channel_args args = {1, &arg};
  S.server = grpc_server_create(&args, NULL);
  grpc_server_register_completion_queue(S.server, S.cq, NULL);
  grpc_server_credentials *creds = grpc_insecure_server_credentials_create();
  int port = grpc_server_add_http2_port(S.server, "127.0.0.1:0", creds);
  grpc_server_credentials_release(creds);
  grpc_server_start(S.server);
  accept_next();
  const char *pf = getenv("PCL_TEST_ENGINE_PORT_FILE");
  if (port <= 0 || pf == NULL) {
    fprintf(stderr, "embedded_server: cannot listen, or no PCL_TEST_ENGINE_PORT_FILE\n");
    exit(2);
  }
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s.tmp", pf);
  FILE *f = fopen(tmp, "w");
  if (f == NULL || fprintf(f, "%d", port) < 0 || fclose(f) != 0 || rename(tmp, pf) != 0) {
    fprintf(stderr, "embedded_server: cannot write %s\n", pf);
    exit(2);
  }
  pcl__sched_set_poller(poll_server, NULL);
}

int main(int argc, char **argv) {
  static const pcl_program program = {"embedded_server", NULL, 0, start};
  int rc = pcl_main(argc, argv, &program);
  pcl__sched_set_poller(NULL, NULL);
  if (S.server) {
    grpc_server_destroy(S.server);
    grpc_completion_queue_shutdown(S.cq);
    while (grpc_completion_queue_next(S.cq, gpr_inf_future(GPR_CLOCK_MONOTONIC), NULL).type !=
           GRPC_QUEUE_SHUTDOWN) {
    }
    grpc_completion_queue_destroy(S.cq);
    grpc_shutdown_blocking();
  }
  return rc;
}
