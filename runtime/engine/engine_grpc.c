/* engine_grpc.c: the engine backend that speaks Pulumi's engine protocol
 * (DECISIONS.md D7, docs/engine.md), so that `pulumi up` deploys a compiled
 * program.
 *
 * Takes the run's requests and sends each as one unary gRPC call of
 * pulumirpc.ResourceMonitor (PULUMI_MONITOR) or pulumirpc.Engine
 * (PULUMI_ENGINE) through the gRPC C core; produces the completions of
 * those requests from the engine's answers.  Every call of a run shares one
 * completion queue, which the scheduler loop polls (pcl__sched_set_poller):
 * without waiting while tasks are queued, and waiting for the next answer
 * only when nothing else can run.  No thread of ours serves a call; at most
 * PULUMI_PARALLEL registrations are in flight, the others wait in order.
 *
 * What the engine does stays the engine's: URNs, ids, default providers,
 * diffs and state; this side registers what the program declares, as the
 * SDKs do, and sends each value kind only when the monitor said it takes it
 * (GetDeploymentInfo, else SupportsFeature); a parameterized package is
 * registered (RegisterPackage) and its requests carry the reference the
 * engine answered.  Any failure of a call (the engine unreachable, the
 * connection lost, a status other than OK, an answer that does not decode)
 * completes its request with an error that names the call; the run's error
 * goes to the engine's log, so that pcl_main exits with status 32 as the
 * SDKs do.  No call waits without end on an engine that stopped answering:
 * the start-up requests have a deadline, and while calls are in flight the
 * transport's keepalive pings close a connection whose peer is gone.
 *
 * Invariants: a call's completion runs from the loop, never from the call
 * that started it; every started call is completed exactly once, also when
 * it is cancelled; the backend is freed only when no call is outstanding. */
#include <grpc/byte_buffer_reader.h>
#include <grpc/grpc.h>
#include <grpc/grpc_security.h>
#include <grpc/support/alloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "value/pcl_internal.h"
#include "engine/rpc.h"

/* The largest answer taken, in bytes (the SDKs' limit). */
enum { MAX_MESSAGE = 400 * 1024 * 1024 };

typedef struct gbe gbe;
typedef struct rpc rpc;

/* What to do with a call's answer (a is NULL when err is set). */
typedef void (*rpc_done)(rpc *r, pcl__rpc_answer *a, const pcl_error *err);

/* One call of the protocol. */
struct rpc {
  pcl__cq_tag head;                /* PCL__TAG_RPC (zero): its completions' tag. */
  gbe *e;                          /* The backend. */
  pcl__rpc_method m;               /* Which call. */
  rpc_done done;                   /* Its answer's handler. */
  grpc_call *call;                 /* The gRPC call, NULL until started. */
  grpc_byte_buffer *req;           /* The packed request (owned until sent). */
  grpc_byte_buffer *resp;          /* The answer's message, or NULL. */
  grpc_metadata_array initial_md;  /* Answer headers (unused, required). */
  grpc_metadata_array trailing_md; /* Answer trailers (unused, required). */
  grpc_status_code status;         /* The call's status. */
  grpc_slice details;              /* The status message. */
  pcl_resource_cb rcb;             /* Registration and read completion, or NULL. */
  pcl_engine_cb ecb;               /* Other completion, or NULL. */
  void *data;                      /* Completion data. */
  char *what;                      /* What the call is about, for messages (owned). */
  pcl_value *keep;                 /* Registration: the inputs, for outputs the engine
                                      did not give; outputs: the outputs (owned). */
  pcl_value *read_id;              /* Read: the id asked for (owned), or NULL. */
  bool custom;                     /* Registration of a custom resource. */
  bool counted;                    /* A registration counted against PULUMI_PARALLEL. */
  bool run_error;                  /* A log of the run's error (which then is reported). */
  size_t feature;                  /* SupportsFeature: offset of the gbe flag it sets. */
  rpc *prev, *next;                /* Links in the backend's list of live calls. */
  rpc *qnext;                      /* Next registration waiting for a slot. */
};

struct gbe {
  pcl_engine base;            /* Must be first. */
  grpc_channel *monitor;      /* PULUMI_MONITOR's channel. */
  grpc_channel *engine;       /* PULUMI_ENGINE's channel, or NULL. */
  grpc_completion_queue *cq;  /* Completions of every call. */
  bool preview;               /* The run is a preview (PULUMI_DRY_RUN). */
  bool secrets;               /* The monitor takes secret values. */
  bool resources;             /* It takes resource references. */
  bool output_values;         /* It takes output values. */
  bool alias_specs;           /* It takes alias specs. */
  bool deleted_with;          /* It takes deletedWith. */
  bool byte_strings;          /* It takes strings that are not UTF-8 as byte strings. */
  bool parameterization;      /* It takes RegisterPackage and package references. */
  size_t parallel;            /* Registrations in flight at most (0: no bound). */
  size_t inflight;            /* Registrations in flight. */
  rpc *wait_head, *wait_tail; /* Registrations waiting for a slot, in order. */
  rpc *live;                  /* Calls started and not completed. */
  size_t outstanding;         /* Calls started and not completed. */
  char *stack_urn;            /* The stack's URN once registered (owned). */
  pcl_error *setup_err;       /* A failure while asking what the monitor supports. */
  bool ask_features;          /* The monitor has no GetDeploymentInfo: ask
                                 SupportsFeature feature by feature. */
  unsigned deadline_ms;       /* The time the start-up requests are given. */
  char *cwd;                  /* The program's working directory, against which relative
                                 PCL file names are resolved (owned). */
  pcl__callbacks *callbacks;  /* The server of the program's hooks, once one is registered. */
  struct file_uri *uris;      /* The sourcePosition URI of each PCL file met. */
  size_t nuris, capuris;      /* Used and allocated. */
};

/* The URI a PCL file has in sourcePosition, made once per file. */
typedef struct file_uri {
  char *file; /* The file's name as requests give it (owned). */
  char *uri;  /* "file://" and its absolute path, percent-encoded (owned). */
} file_uri;

/* ------------------------------------------------------------ the calls */

static const char *status_name(grpc_status_code s) {
  static const char *const names[] = {"OK",
                                      "CANCELLED",
                                      "UNKNOWN",
                                      "INVALID_ARGUMENT",
                                      "DEADLINE_EXCEEDED",
                                      "NOT_FOUND",
                                      "ALREADY_EXISTS",
                                      "PERMISSION_DENIED",
                                      "RESOURCE_EXHAUSTED",
                                      "FAILED_PRECONDITION",
                                      "ABORTED",
                                      "OUT_OF_RANGE",
                                      "UNIMPLEMENTED",
                                      "INTERNAL",
                                      "UNAVAILABLE",
                                      "DATA_LOSS",
                                      "UNAUTHENTICATED"};
  return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "UNKNOWN";
}

/* Returns a new call of m about what (copied) with the packed request msg. */
static rpc *rpc_new(gbe *e, pcl__rpc_method m, const ProtobufCMessage *msg, rpc_done done,
                    const char *what) {
  rpc *r = pcl_xcalloc(1, sizeof *r);
  r->e = e;
  r->m = m;
  r->done = done;
  r->what = pcl_xstrdup(what);
  size_t len = protobuf_c_message_get_packed_size(msg);
  grpc_slice s = grpc_slice_malloc(len);
  protobuf_c_message_pack(msg, GRPC_SLICE_START_PTR(s));
  r->req = grpc_raw_byte_buffer_create(&s, 1);
  grpc_slice_unref(s);
  grpc_metadata_array_init(&r->initial_md);
  grpc_metadata_array_init(&r->trailing_md);
  r->details = grpc_empty_slice();
  return r;
}

static void rpc_free(rpc *r) {
  if (r->req) {
    grpc_byte_buffer_destroy(r->req);
  }
  if (r->resp) {
    grpc_byte_buffer_destroy(r->resp);
  }
  grpc_metadata_array_destroy(&r->initial_md);
  grpc_metadata_array_destroy(&r->trailing_md);
  grpc_slice_unref(r->details);
  if (r->call) {
    grpc_call_unref(r->call);
  }
  free(r->what);
  pcl_release(r->keep);
  pcl_release(r->read_id);
  free(r);
}

/* Returns whether a call of m is one of the start-up requests, which have a
 * deadline: every other call may legitimately take as long as the engine's
 * work does (a database created for a registration), and waits as the
 * SDKs do, the transport's keepalive pings telling a dead engine. */
static bool has_deadline(pcl__rpc_method m) {
  return m == PCL__RPC_DEPLOYMENT_INFO || m == PCL__RPC_SUPPORTS_FEATURE;
}

/* Starts r on its channel; its completion arrives through the queue. */
static void rpc_launch(rpc *r) {
  gbe *e = r->e;
  grpc_channel *ch = pcl__rpc_on_engine(r->m) ? e->engine : e->monitor;
  grpc_slice method = grpc_slice_from_static_string(pcl__rpc_path(r->m));
  gpr_timespec deadline =
      has_deadline(r->m)
          ? gpr_time_add(gpr_now(GPR_CLOCK_MONOTONIC),
                         gpr_time_from_millis((int64_t)e->deadline_ms, GPR_TIMESPAN))
          : gpr_inf_future(GPR_CLOCK_MONOTONIC);
  r->call = grpc_channel_create_call(ch, NULL, GRPC_PROPAGATE_DEFAULTS, e->cq, method, NULL,
                                     deadline, NULL);
  grpc_op ops[6];
  memset(ops, 0, sizeof ops);
  ops[0].op = GRPC_OP_SEND_INITIAL_METADATA;
  ops[1].op = GRPC_OP_SEND_MESSAGE;
  ops[1].data.send_message.send_message = r->req;
  ops[2].op = GRPC_OP_SEND_CLOSE_FROM_CLIENT;
  ops[3].op = GRPC_OP_RECV_INITIAL_METADATA;
  ops[3].data.recv_initial_metadata.recv_initial_metadata = &r->initial_md;
  ops[4].op = GRPC_OP_RECV_MESSAGE;
  ops[4].data.recv_message.recv_message = &r->resp;
  ops[5].op = GRPC_OP_RECV_STATUS_ON_CLIENT;
  ops[5].data.recv_status_on_client.trailing_metadata = &r->trailing_md;
  ops[5].data.recv_status_on_client.status = &r->status;
  ops[5].data.recv_status_on_client.status_details = &r->details;
  r->next = e->live;
  r->prev = NULL;
  if (e->live) {
    e->live->prev = r;
  }
  e->live = r;
  e->outstanding++;
  grpc_call_error ce = grpc_call_start_batch(r->call, ops, 6, r, NULL);
  if (ce != GRPC_CALL_OK) {
    /* Only misuse of the API makes this fail. */
    fprintf(stderr, "libpclrt: grpc_call_start_batch failed (%d)\n", (int)ce);
    abort();
  }
}

/* Starts r, or queues it when it is a registration beyond the bound. */
static void rpc_start(rpc *r) {
  gbe *e = r->e;
  if (r->m == PCL__RPC_REGISTER || r->m == PCL__RPC_READ) {
    if (e->parallel > 0 && e->inflight >= e->parallel) {
      if (e->wait_tail) {
        e->wait_tail->qnext = r;
      } else {
        e->wait_head = r;
      }
      e->wait_tail = r;
      return;
    }
    r->counted = true;
    e->inflight++;
  }
  rpc_launch(r);
}

/* Returns the error of a completed call, or NULL with the decoded answer. */
static pcl_error *rpc_answer(rpc *r, bool success, pcl__rpc_answer *a) {
  if (r->status == GRPC_STATUS_DEADLINE_EXCEEDED && has_deadline(r->m)) {
    return pcl_error_new("%s: no answer within %g seconds (PCL_ENGINE_DEADLINE)",
                         pcl__rpc_path(r->m) + 11, r->e->deadline_ms / 1000.0);
  }
  if (!success || r->status != GRPC_STATUS_OK) {
    char *details = grpc_slice_to_c_string(r->details);
    pcl_error *err = pcl_error_new("%s: the engine answered %s%s%s", pcl__rpc_path(r->m) + 11,
                                   status_name(r->status), *details ? ": " : "", details);
    gpr_free(details);
    return err;
  }
  if (r->resp == NULL) {
    return pcl_error_new("%s: the engine's answer has no message", pcl__rpc_path(r->m) + 11);
  }
  grpc_byte_buffer_reader reader;
  if (!grpc_byte_buffer_reader_init(&reader, r->resp)) {
    return pcl_error_new("%s: the engine's answer cannot be read", pcl__rpc_path(r->m) + 11);
  }
  grpc_slice all = grpc_byte_buffer_reader_readall(&reader);
  grpc_byte_buffer_reader_destroy(&reader);
  pcl_error *err = NULL;
  bool ok =
      pcl__rpc_answer_decode(r->m, GRPC_SLICE_START_PTR(all), GRPC_SLICE_LENGTH(all), a, &err);
  grpc_slice_unref(all);
  if (!ok) {
    pcl_error_prefix(err, "%s: the engine's answer does not decode", pcl__rpc_path(r->m) + 11);
    return err;
  }
  return NULL;
}

/* Takes the completed call r off its backend's list of live calls. */
static void rpc_unlink(rpc *r) {
  gbe *e = r->e;
  if (r->prev) {
    r->prev->next = r->next;
  } else {
    e->live = r->next;
  }
  if (r->next) {
    r->next->prev = r->prev;
  }
  e->outstanding--;
}

/* Handles the completion of r (ok: the batch succeeded) and frees it. */
static void rpc_complete(rpc *r, bool ok) {
  gbe *e = r->e;
  rpc_unlink(r);
  if (r->counted) {
    e->inflight--;
    if (e->wait_head) {
      rpc *w = e->wait_head;
      e->wait_head = w->qnext;
      if (e->wait_head == NULL) {
        e->wait_tail = NULL;
      }
      w->counted = true;
      e->inflight++;
      rpc_launch(w);
    }
  }
  pcl__rpc_answer a;
  pcl_error *err = rpc_answer(r, ok, &a);
  if (err) {
    r->done(r, NULL, err);
    pcl_error_free(err);
  } else {
    r->done(r, &a, NULL);
    pcl__rpc_answer_free(&a);
  }
  rpc_free(r);
}

/* The loop's poller: handles the completions that are ready, waiting for
 * one first when wait is set; returns whether calls are still outstanding. */
static bool poll_queue(void *data, bool wait) {
  gbe *e = data;
  while (e->outstanding > 0) {
    gpr_timespec deadline =
        wait ? gpr_inf_future(GPR_CLOCK_MONOTONIC) : gpr_time_0(GPR_CLOCK_MONOTONIC);
    grpc_event ev = grpc_completion_queue_next(e->cq, deadline, NULL);
    if (ev.type != GRPC_OP_COMPLETE) {
      break;
    }
    if (((const pcl__cq_tag *)ev.tag)->origin == PCL__TAG_CALLBACK) {
      pcl__callbacks_complete(e->callbacks, ev.tag, ev.success != 0);
    } else {
      rpc_complete(ev.tag, ev.success != 0);
    }
    wait = false;
  }
  return e->outstanding > 0;
}

/* A completion posted to the loop for a request that was never sent. */
typedef struct refusal {
  pcl_resource_cb rcb; /* Registration completion, or NULL. */
  pcl_engine_cb ecb;   /* Other completion. */
  void *data;          /* Completion data. */
  pcl_error *err;      /* Why (owned). */
} refusal;

static void refused(pcl_future *f, void *data) {
  (void)f;
  refusal *x = data;
  if (x->rcb) {
    x->rcb(x->data, NULL, x->err);
  } else {
    x->ecb(x->data, NULL, x->err);
  }
  pcl_error_free(x->err);
  free(x);
}

/* Completes a request that cannot be sent with err (stolen), on a later
 * loop turn. */
static void refuse(pcl_resource_cb rcb, pcl_engine_cb ecb, void *data, pcl_error *err) {
  refusal *x = pcl_xmalloc(sizeof *x);
  x->rcb = rcb;
  x->ecb = ecb;
  x->data = data;
  x->err = err;
  pcl_sched_post(refused, x);
}

/* ----------------------------------------------------------- diagnostics */

static void grpc_log(pcl_engine *eng, pcl_log_severity sev, const char *urn, const char *msg);

/* Returns the encoding of values for a request to e's monitor. */
static pcl__rpc_enc enc_for(const gbe *e) {
  pcl__rpc_enc enc = {
      .secrets = e->secrets, .resources = e->resources, .byte_strings = e->byte_strings};
  return enc;
}

/* Reports what the encoding of a request met: ints sent rounded (D3). */
static void enc_report(gbe *e, pcl__rpc_enc *enc, const char *what, const char *urn) {
  if (enc->rounded > 0) {
    pcl_strbuf b = PCL_STRBUF_INIT;
    pcl_strbuf_appendf(&b,
                       "%s: the int %s cannot be sent exactly to the engine, which takes "
                       "numbers as doubles; it was rounded to the nearest double",
                       what, enc->first_rounded);
    if (enc->rounded > 1) {
      pcl_strbuf_appendf(&b, " (and %zu more ints)", enc->rounded - 1);
    }
    grpc_log(&e->base, PCL_LOG_WARNING, urn, b.data);
    pcl_strbuf_free(&b);
  }
}

static void log_done(rpc *r, pcl__rpc_answer *a, const pcl_error *err) {
  (void)a;
  if (r->run_error) {
    /* The run's own error: once it reached the engine, the engine shows it;
     * otherwise pcl_main prints it. */
    r->e->base.error_reported = err == NULL;
  } else if (err) {
    /* The engine cannot show the message: show it here. */
    fprintf(stderr, "%s\n(the engine's log failed: %s)\n", r->what, pcl_error_message(err));
  }
}

/* Sends a log message; marks the run's error reported once it arrived when
 * run_error is set. */
static void send_log(gbe *e, pcl_log_severity sev, const char *urn, const char *msg,
                     bool run_error) {
  static const char *const names[] = {"debug", "info", "warning", "error"};
  if (e->engine == NULL) {
    /* No engine to show it (PULUMI_ENGINE unset): a message goes to stderr,
     * but the run's error only through pcl_main, which prints it when the
     * engine was not told, so that it shows once. */
    if (!run_error) {
      pcl__print_log(sev, urn, msg);
    }
    return;
  }
  Pulumirpc__LogRequest req = PULUMIRPC__LOG_REQUEST__INIT;
  static const Pulumirpc__LogSeverity sevs[] = {
      PULUMIRPC__LOG_SEVERITY__DEBUG, PULUMIRPC__LOG_SEVERITY__INFO,
      PULUMIRPC__LOG_SEVERITY__WARNING, PULUMIRPC__LOG_SEVERITY__ERROR};
  req.severity = sevs[sev];
  req.message = (char *)msg;
  req.urn = (char *)(urn ? urn : "");
  pcl_strbuf what = PCL_STRBUF_INIT;
  pcl_strbuf_appendf(&what, "%s: %s", names[sev], msg);
  rpc *r = rpc_new(e, PCL__RPC_LOG, &req.base, log_done, what.data);
  pcl_strbuf_free(&what);
  r->run_error = run_error;
  rpc_start(r);
}

static void grpc_log(pcl_engine *eng, pcl_log_severity sev, const char *urn, const char *msg) {
  send_log((gbe *)eng, sev, urn, msg, false);
}

/* ------------------------------------------------------ source positions */

/* Returns the URI of the PCL file (borrowed, cached in e): "file://" and the
 * file's absolute path (relative to e->cwd when it is relative), cleaned,
 * each byte outside RFC 3986's path characters percent-encoded. */
static const char *source_uri(gbe *e, const char *file) {
  for (size_t i = 0; i < e->nuris; i++) {
    if (strcmp(e->uris[i].file, file) == 0) {
      return e->uris[i].uri;
    }
  }
  pcl_strbuf path = PCL_STRBUF_INIT;
  if (file[0] != '/') {
    pcl_strbuf_append_cstr(&path, e->cwd);
    pcl_strbuf_append_char(&path, '/');
  }
  pcl_strbuf_append_cstr(&path, file);
  char *clean = pcl__go_clean(path.data);
  pcl_strbuf_free(&path);
  pcl_strbuf uri = PCL_STRBUF_INIT;
  pcl_strbuf_append_cstr(&uri, "file://");
  for (const unsigned char *p = (const unsigned char *)clean; *p; p++) {
    bool plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
                 strchr("/-._~!$&'()*+,;=:@", *p) != NULL;
    if (plain) {
      pcl_strbuf_append_char(&uri, (char)*p);
    } else {
      pcl_strbuf_appendf(&uri, "%%%02X", *p);
    }
  }
  free(clean);
  PCL__GROW(e->uris, e->capuris, e->nuris + 1);
  e->uris[e->nuris] = (file_uri){pcl_xstrdup(file), uri.data};
  return e->uris[e->nuris++].uri;
}

/* Fills *pos with where a request was made (file:line:column, file NULL
 * when unknown) and returns it, or returns NULL when that is unknown: the
 * request then has no sourcePosition.  The URI is borrowed from e. */
static Pulumirpc__SourcePosition *source_position(gbe *e, Pulumirpc__SourcePosition *pos,
                                                  const char *file, unsigned line,
                                                  unsigned column) {
  if (file == NULL || line == 0) {
    return NULL;
  }
  pulumirpc__source_position__init(pos);
  pos->uri = (char *)source_uri(e, file);
  pos->line = (int32_t)line;
  pos->column = (int32_t)column;
  return pos;
}

/* ------------------------------------------------------------- packages */

/* Returns s (a request's version or plugin download URL; NULL: none) as the
 * request sends it: empty when the request names its package by reference
 * (package_ref not NULL), since the package says which plugin serves it, as
 * the SDKs send it. */
static char *unless_packaged(const char *package_ref, const char *s) {
  return (char *)(package_ref == NULL && s != NULL ? s : "");
}

static void package_done(rpc *r, pcl__rpc_answer *a, const pcl_error *err) {
  if (err) {
    r->ecb(r->data, NULL, err);
  } else if (*a->ref == 0) {
    pcl_error *none = pcl_error_new("ResourceMonitor/RegisterPackage: the engine answered no "
                                    "package reference");
    r->ecb(r->data, NULL, none);
    pcl_error_free(none);
  } else {
    pcl_value *ref = pcl_str_from_bytes(a->ref, strlen(a->ref));
    r->ecb(r->data, ref, NULL);
    pcl_release(ref);
  }
}

static void grpc_register_package(pcl_engine *eng, const pcl_package *pkg, pcl_engine_cb cb,
                                  void *data) {
  gbe *e = (gbe *)eng;
  if (!e->parameterization) {
    /* The SDKs' words: the engine predates parameterized packages. */
    refuse(NULL, cb, data,
           pcl_error_new("The Pulumi CLI does not support parameterization. Please update the "
                         "Pulumi CLI"));
    return;
  }
  Pulumirpc__Parameterization param = PULUMIRPC__PARAMETERIZATION__INIT;
  param.name = (char *)pkg->name;
  param.version = (char *)(pkg->version ? pkg->version : "");
  param.value.data = (uint8_t *)pkg->value;
  param.value.len = pkg->value_len;
  Pulumirpc__RegisterPackageRequest req = PULUMIRPC__REGISTER_PACKAGE_REQUEST__INIT;
  req.name = (char *)pkg->base_name;
  req.version = (char *)(pkg->base_version ? pkg->base_version : "");
  req.download_url = (char *)(pkg->download_url ? pkg->download_url : "");
  /* An extension is registered as one: the engine then serves its
   * requests with the base provider itself, extended. */
  if (pkg->extension) {
    req.extension = &param;
  } else {
    req.parameterization = &param;
  }
  pcl_strbuf what = PCL_STRBUF_INIT;
  pcl_strbuf_appendf(&what, "package '%s'", pkg->name);
  rpc *r = rpc_new(e, PCL__RPC_PACKAGE, &req.base, package_done, what.data);
  pcl_strbuf_free(&what);
  r->ecb = cb;
  r->data = data;
  rpc_start(r);
}

/* ------------------------------------------------------- registrations */

/* Returns the sorted URNs of d as a malloc'd array of malloc'd strings. */
static char **urn_array(const pcl_deps *d, size_t *n) {
  *n = pcl_deps_count(d);
  const char **u = pcl_xmalloc((*n ? *n : 1) * sizeof *u);
  pcl_deps_sorted(d, u);
  char **out = pcl_xmalloc((*n ? *n : 1) * sizeof *out);
  for (size_t i = 0; i < *n; i++) {
    out[i] = pcl_xstrdup(u[i]);
  }
  free(u);
  return out;
}

/* Returns the STRING elements of the LIST option name as a malloc'd array of
 * malloc'd strings. */
static char **string_array(const pcl_value *opts, const char *name, size_t *n) {
  pcl_value *l = opts ? pcl_map_get_cstr(opts, name) : NULL;
  *n = 0;
  if (l == NULL || pcl_kind_of(l) != PCL_T_LIST) {
    return NULL;
  }
  char **out = pcl_xmalloc((pcl_len(l) ? pcl_len(l) : 1) * sizeof *out);
  for (size_t i = 0; i < pcl_len(l); i++) {
    if (pcl_kind_of(pcl_list_at(l, i)) == PCL_T_STRING) {
      out[(*n)++] = pcl_xstrdup(pcl_str_data(pcl_list_at(l, i)));
    }
  }
  return out;
}

/* Returns the Go duration text of seconds (a number of the customTimeouts
 * record), or NULL when absent. */
static char *duration_text(const pcl_value *timeouts, const char *key) {
  pcl_value *v = timeouts ? pcl_map_get_cstr(timeouts, key) : NULL;
  if (v == NULL || !pcl_is_numeric(v)) {
    return NULL;
  }
  pcl_strbuf b = PCL_STRBUF_INIT;
  pcl_number_format(&b, pcl_num_to_double(v));
  pcl_strbuf_append_char(&b, 's');
  return b.data;
}

/* Returns the string member key of the MAP m (borrowed), or NULL. */
static const char *str_opt(const pcl_value *m, const char *key) {
  pcl_value *v = m && pcl_kind_of(m) == PCL_T_MAP ? pcl_map_get_cstr(m, key) : NULL;
  return v && pcl_kind_of(v) == PCL_T_STRING ? pcl_str_data(v) : NULL;
}

static char *dup_or_empty(const char *s) {
  return pcl_xstrdup(s ? s : "");
}

/* Fills the aliases of req from the aliases option (URN strings and alias
 * objects {name, type, stack, project, parent, noParent}). */
static void set_aliases(Pulumirpc__RegisterResourceRequest *req, const pcl_value *opts) {
  pcl_value *al = opts ? pcl_map_get_cstr(opts, "aliases") : NULL;
  if (al == NULL || pcl_kind_of(al) != PCL_T_LIST || pcl_len(al) == 0) {
    return;
  }
  req->aliases = pcl_xmalloc(pcl_len(al) * sizeof *req->aliases);
  for (size_t i = 0; i < pcl_len(al); i++) {
    pcl_value *a = pcl_list_at(al, i);
    Pulumirpc__Alias *m = pcl_xmalloc(sizeof *m);
    pulumirpc__alias__init(m);
    if (pcl_kind_of(a) == PCL_T_STRING) {
      m->alias_case = PULUMIRPC__ALIAS__ALIAS_URN;
      m->urn = pcl_xstrdup(pcl_str_data(a));
    } else if (pcl_kind_of(a) == PCL_T_MAP) {
      Pulumirpc__Alias__Spec *s = pcl_xmalloc(sizeof *s);
      pulumirpc__alias__spec__init(s);
      s->name = dup_or_empty(str_opt(a, "name"));
      s->type = dup_or_empty(str_opt(a, "type"));
      s->stack = dup_or_empty(str_opt(a, "stack"));
      s->project = dup_or_empty(str_opt(a, "project"));
      pcl_value *parent = pcl_map_get_cstr(a, "parent");
      pcl_value *no_parent = pcl_map_get_cstr(a, "noParent");
      if (parent && pcl_kind_of(parent) == PCL_T_RESOURCE) {
        s->parent_case = PULUMIRPC__ALIAS__SPEC__PARENT_PARENT_URN;
        s->parenturn = pcl_xstrdup(pcl_str_data(pcl_resource_urn(parent)));
      } else if (parent && pcl_kind_of(parent) == PCL_T_STRING) {
        s->parent_case = PULUMIRPC__ALIAS__SPEC__PARENT_PARENT_URN;
        s->parenturn = pcl_xstrdup(pcl_str_data(parent));
      } else if (no_parent && pcl_kind_of(no_parent) == PCL_T_BOOL && pcl_bool_get(no_parent)) {
        s->parent_case = PULUMIRPC__ALIAS__SPEC__PARENT_NO_PARENT;
        s->noparent = true;
      }
      m->alias_case = PULUMIRPC__ALIAS__ALIAS_SPEC;
      m->spec = s;
    } else {
      free(m);
      continue;
    }
    req->aliases[req->n_aliases++] = m;
  }
}

/* Returns a string map message array of the MAP m of strings. */
static void **string_map(const pcl_value *m, size_t *n, bool providers) {
  *n = 0;
  if (m == NULL || pcl_kind_of(m) != PCL_T_MAP) {
    return NULL;
  }
  void **out = pcl_xmalloc((pcl_len(m) ? pcl_len(m) : 1) * sizeof *out);
  for (size_t i = 0; i < pcl_len(m); i++) {
    pcl_value *v = pcl_map_val_at(m, i);
    if (pcl_kind_of(v) != PCL_T_STRING) {
      continue;
    }
    if (providers) {
      Pulumirpc__RegisterResourceRequest__ProvidersEntry *e = pcl_xmalloc(sizeof *e);
      pulumirpc__register_resource_request__providers_entry__init(e);
      e->key = pcl_xstrdup(pcl_str_data(pcl_map_key_at(m, i)));
      e->value = pcl_xstrdup(pcl_str_data(v));
      out[(*n)++] = e;
    } else {
      Pulumirpc__RegisterResourceRequest__EnvVarMappingsEntry *e = pcl_xmalloc(sizeof *e);
      pulumirpc__register_resource_request__env_var_mappings_entry__init(e);
      e->key = pcl_xstrdup(pcl_str_data(pcl_map_key_at(m, i)));
      e->value = pcl_xstrdup(pcl_str_data(v));
      out[(*n)++] = e;
    }
  }
  return out;
}

/* Returns the object of a registration's inputs: for a remote component
 * whose monitor takes output values, each output inside them, at any depth,
 * as an output value with its own dependencies (the SDKs send a component's
 * inputs so, keeping what each value depends on); NULL with enc->err. */
static Google__Protobuf__Struct *inputs_struct(gbe *e, const pcl_resource_request *req,
                                               pcl__rpc_enc *enc) {
  if (req->kind != PCL_RES_REMOTE || !e->output_values || req->remote_inputs == NULL) {
    return pcl__rpc_struct_new(req->inputs, enc);
  }
  return pcl__rpc_struct_new(req->remote_inputs, enc);
}

/* Returns what a registration's answer makes of id: null for components,
 * unknown for a custom resource the engine gave none (a preview). */
static pcl_value *answer_id(const rpc *r, const char *id) {
  if (!r->custom) {
    return pcl_null();
  }
  if (id == NULL || *id == 0 || strcmp(id, PCL__UNKNOWN_SENTINEL) == 0) {
    return pcl_unknown();
  }
  return pcl_str_from_bytes(id, strlen(id));
}

static void register_done(rpc *r, pcl__rpc_answer *a, const pcl_error *err) {
  gbe *e = r->e;
  if (err) {
    r->rcb(r->data, NULL, err);
    return;
  }
  pcl_value *outputs = a->value;
  pcl_value *merged = NULL;
  if (!e->preview && r->keep && pcl_len(r->keep) > 0) {
    /* An input the engine gave no output for keeps its value, as the SDKs
     * resolve it outside a preview. */
    pcl_mapbuf mb = PCL_MAPBUF_INIT;
    for (size_t i = 0; i < pcl_len(r->keep); i++) {
      pcl_value *k = pcl_map_key_at(r->keep, i);
      if (pcl_map_get(outputs, pcl_str_data(k), pcl_str_len(k)) == NULL) {
        pcl_mapbuf_put_take(&mb, pcl_retain(k), pcl_retain(pcl_map_val_at(r->keep, i)));
      }
    }
    for (size_t i = 0; i < pcl_len(outputs); i++) {
      pcl_mapbuf_put_take(&mb, pcl_retain(pcl_map_key_at(outputs, i)),
                          pcl_retain(pcl_map_val_at(outputs, i)));
    }
    merged = pcl_mapbuf_finish(&mb);
    outputs = merged;
  }
  /* A read's id is the one the provider's Read resolved (it may rewrite
   * the id asked for); an engine that predates it answers none, and then
   * the id is unknown in a preview and the one asked for otherwise, as the
   * SDKs do. */
  const char *aid = a->id;
  if (r->read_id && (aid == NULL || *aid == 0) && !e->preview) {
    aid = pcl_str_data(r->read_id);
  }
  pcl_value *id = answer_id(r, aid);
  /* A step that failed while the engine continues on error (result FAIL;
   * without continue-on-error the engine cancels the update instead), or
   * one it did not run (unknown): as the SDKs do, the resource's outputs
   * are unknown and the program goes on; the engine skips what depends on
   * it and reports the failure itself. */
  pcl_resource_result res = {a->urn, id, outputs, a->failed || (r->custom && a->unknown),
                             a->output_deps};
  r->rcb(r->data, &res, NULL);
  pcl_release(id);
  pcl_release(merged);
}

static void set_root_done(rpc *r, pcl__rpc_answer *a, const pcl_error *err) {
  (void)a;
  /* Engines that predate SetRootResource answer UNIMPLEMENTED: fine. */
  if (err && r->status != GRPC_STATUS_UNIMPLEMENTED) {
    pcl__print_log(PCL_LOG_WARNING, NULL, pcl_error_message(err));
  }
}

static void stack_done(rpc *r, pcl__rpc_answer *a, const pcl_error *err) {
  gbe *e = r->e;
  if (!err && !a->failed && e->engine) {
    free(e->stack_urn);
    e->stack_urn = pcl_xstrdup(a->urn);
    Pulumirpc__SetRootResourceRequest req = PULUMIRPC__SET_ROOT_RESOURCE_REQUEST__INIT;
    req.urn = a->urn;
    rpc_start(rpc_new(e, PCL__RPC_SET_ROOT, &req.base, set_root_done, "SetRootResource"));
  }
  register_done(r, a, err);
}

/* Fills the request fields a read shares with a registration. */
static void read_request(gbe *e, const pcl_resource_request *req, const char *id,
                         Google__Protobuf__Struct *props, pcl__rpc_enc *enc, rpc_done done,
                         pcl_resource_cb cb, void *data, const char *what) {
  Pulumirpc__ReadResourceRequest rr = PULUMIRPC__READ_RESOURCE_REQUEST__INIT;
  rr.id = (char *)id;
  rr.type = (char *)req->type;
  rr.name = (char *)req->name;
  rr.packageref = (char *)(req->package_ref ? req->package_ref : "");
  rr.parent = (char *)(req->parent ? req->parent : "");
  rr.properties = props;
  char **deps = urn_array(req->deps, &rr.n_dependencies);
  rr.dependencies = deps;
  rr.provider = (char *)(req->provider ? req->provider : "");
  rr.version = unless_packaged(req->package_ref, req->version);
  rr.plugindownloadurl = unless_packaged(req->package_ref, req->plugin_download_url);
  rr.acceptsecrets = true;
  rr.acceptresources = true;
  rr.acceptsbytestring = true;
  char **aso = string_array(req->options, "additionalSecretOutputs", &rr.n_additionalsecretoutputs);
  rr.additionalsecretoutputs = aso;
  Pulumirpc__SourcePosition pos;
  rr.sourceposition = source_position(e, &pos, req->file, req->line, req->column);
  rpc *r = rpc_new(e, PCL__RPC_READ, &rr.base, done, what);
  r->rcb = cb;
  r->data = data;
  r->custom = true;
  r->read_id = pcl_str_from_cstr(id);
  enc_report(e, enc, what, NULL);
  for (size_t i = 0; i < rr.n_dependencies; i++) {
    free(deps[i]);
  }
  free(deps);
  for (size_t i = 0; i < rr.n_additionalsecretoutputs; i++) {
    free(aso[i]);
  }
  free(aso);
  rpc_start(r);
}

/* Returns the hooks binding of the hooks option (a MAP of hook names to
 * LISTs of hooks' names; NULL when not set), allocated with malloc so that
 * protobuf_c_message_free_unpacked frees it, or NULL when it binds none. */
static Pulumirpc__RegisterResourceRequest__ResourceHooksBinding *hooks_binding(
    const pcl_value *hooks) {
  if (hooks == NULL || pcl_kind_of(hooks) != PCL_T_MAP || pcl_len(hooks) == 0) {
    return NULL;
  }
  Pulumirpc__RegisterResourceRequest__ResourceHooksBinding *b = pcl_xmalloc(sizeof *b);
  pulumirpc__register_resource_request__resource_hooks_binding__init(b);
  b->before_create = string_array(hooks, "beforeCreate", &b->n_before_create);
  b->after_create = string_array(hooks, "afterCreate", &b->n_after_create);
  b->before_update = string_array(hooks, "beforeUpdate", &b->n_before_update);
  b->after_update = string_array(hooks, "afterUpdate", &b->n_after_update);
  b->before_delete = string_array(hooks, "beforeDelete", &b->n_before_delete);
  b->after_delete = string_array(hooks, "afterDelete", &b->n_after_delete);
  b->on_error = string_array(hooks, "onError", &b->n_on_error);
  return b;
}

/* Frees the repeated message field array[0..n) of a request built here:
 * each message as protobuf_c_message_free_unpacked frees one, then the
 * array.  The array is read as protobuf-c reads a repeated message field,
 * as pointers to the messages' first member, their ProtobufCMessage. */
static void free_messages(void *array, size_t n) {
  ProtobufCMessage **messages = array;
  for (size_t i = 0; i < n; i++) {
    protobuf_c_message_free_unpacked(messages[i], NULL);
  }
  free(messages);
}

/* Frees the fields grpc_register allocated in req (not the borrowed ones). */
static void free_register_request(Pulumirpc__RegisterResourceRequest *req) {
  char **lists[] = {req->dependencies,     req->ignorechanges, req->additionalsecretoutputs,
                    req->replaceonchanges, req->hidediffs,     req->replacewith};
  size_t ns[] = {req->n_dependencies,     req->n_ignorechanges, req->n_additionalsecretoutputs,
                 req->n_replaceonchanges, req->n_hidediffs,     req->n_replacewith};
  for (size_t l = 0; l < sizeof ns / sizeof ns[0]; l++) {
    for (size_t i = 0; i < ns[l]; i++) {
      free(lists[l][i]);
    }
    free(lists[l]);
  }
  free_messages(req->propertydependencies, req->n_propertydependencies);
  free_messages(req->aliases, req->n_aliases);
  free_messages(req->providers, req->n_providers);
  free_messages(req->envvarmappings, req->n_envvarmappings);
  if (req->hooks) {
    protobuf_c_message_free_unpacked(&req->hooks->base, NULL);
  }
  if (req->customtimeouts) {
    protobuf_c_message_free_unpacked(&req->customtimeouts->base, NULL);
  }
  if (req->replacementtrigger) {
    protobuf_c_message_free_unpacked(&req->replacementtrigger->base, NULL);
  }
  if (req->object) {
    protobuf_c_message_free_unpacked(&req->object->base, NULL);
  }
  free(req->deletedwith);
  free(req->importid);
}

static void grpc_register(pcl_engine *eng, const pcl_resource_request *req, pcl_resource_cb cb,
                          void *data) {
  gbe *e = (gbe *)eng;
  pcl_strbuf what = PCL_STRBUF_INIT;
  pcl_strbuf_appendf(&what, "resource '%s' (%s)", req->name, req->type);
  pcl__rpc_enc enc = enc_for(e);
  const pcl_value *opts = req->options;
  bool is_stack = strcmp(req->type, "pulumi:pulumi:Stack") == 0;
  if (req->read || strcmp(req->type, "pulumi:pulumi:StackReference") == 0) {
    /* A read, or a stack reference, which the SDKs read with the stack's
     * name as its id. */
    const char *id = NULL;
    pcl_value *name = req->read ? req->id : pcl_map_get_cstr(req->inputs, "name");
    if (name && pcl_kind_of(name) == PCL_T_STRING) {
      id = pcl_str_data(name);
    } else if (req->read && name && pcl_kind_of(name) == PCL_T_UNKNOWN) {
      /* An id not known in a preview is sent as the unknown value, as
       * the SDKs do: the engine answers with unknown outputs. */
      id = PCL__UNKNOWN_SENTINEL;
    }
    Google__Protobuf__Struct *props = id ? pcl__rpc_struct_new(req->inputs, &enc) : NULL;
    if (props == NULL) {
      refuse(cb, NULL, data,
             enc.err ? pcl_error_copy(enc.err)
                     : pcl_error_new("%s needs a known string %s", what.data,
                                     req->read ? "id" : "input \"name\""));
    } else {
      read_request(e, req, id, props, &enc, register_done, cb, data, what.data);
      protobuf_c_message_free_unpacked(&props->base, NULL);
    }
    pcl__rpc_enc_clear(&enc);
    pcl_strbuf_free(&what);
    return;
  }
  Pulumirpc__RegisterResourceRequest rr = PULUMIRPC__REGISTER_RESOURCE_REQUEST__INIT;
  rr.type = (char *)req->type;
  rr.name = (char *)req->name;
  rr.packageref = (char *)(req->package_ref ? req->package_ref : "");
  Pulumirpc__SourcePosition pos;
  rr.sourceposition = source_position(e, &pos, req->file, req->line, req->column);
  rr.parent = (char *)(req->parent ? req->parent : "");
  rr.custom = req->kind == PCL_RES_CUSTOM;
  rr.remote = req->kind == PCL_RES_REMOTE;
  rr.object = inputs_struct(e, req, &enc);
  if (rr.object == NULL) {
    pcl_error *err = enc.err;
    enc.err = NULL;
    refuse(cb, NULL, data, err);
    pcl__rpc_enc_clear(&enc);
    pcl_strbuf_free(&what);
    return;
  }
  rr.dependencies = urn_array(req->deps, &rr.n_dependencies);
  size_t nin = pcl_len(req->inputs);
  rr.propertydependencies = pcl_xmalloc((nin ? nin : 1) * sizeof *rr.propertydependencies);
  for (size_t i = 0; i < nin; i++) {
    Pulumirpc__RegisterResourceRequest__PropertyDependenciesEntry *pe = pcl_xmalloc(sizeof *pe);
    pulumirpc__register_resource_request__property_dependencies_entry__init(pe);
    pe->key = pcl_xstrdup(pcl_str_data(pcl_map_key_at(req->inputs, i)));
    Pulumirpc__RegisterResourceRequest__PropertyDependencies *pd = pcl_xmalloc(sizeof *pd);
    pulumirpc__register_resource_request__property_dependencies__init(pd);
    pd->urns = urn_array(req->prop_deps ? req->prop_deps[i] : NULL, &pd->n_urns);
    pe->value = pd;
    rr.propertydependencies[rr.n_propertydependencies++] = pe;
  }
  rr.provider = (char *)(req->provider ? req->provider : "");
  rr.version = unless_packaged(req->package_ref, req->version);
  rr.plugindownloadurl = unless_packaged(req->package_ref, req->plugin_download_url);
  rr.acceptsecrets = true;
  rr.acceptresources = true;
  rr.acceptsbytestring = true;
  rr.supportspartialvalues = true;
  rr.supportsresultreporting = true;
  rr.aliasspecs = true;
  /* protect and retainOnDelete are sent when the resource or a parent set
     them, false included, as the SDKs send them: an engine that gets
     neither takes the parent's, which would undo a child's own `protect =
     false`. */
  if (req->protect >= 0) {
    rr.protect_set_case = PULUMIRPC__REGISTER_RESOURCE_REQUEST__PROTECT_SET_PROTECT;
    rr.protect = req->protect > 0;
  }
  if (req->retain >= 0) {
    rr.retain_on_delete_set_case =
        PULUMIRPC__REGISTER_RESOURCE_REQUEST__RETAIN_ON_DELETE_SET_RETAIN_ON_DELETE;
    rr.retainondelete = req->retain > 0;
  }
  pcl_value *dbr = opts ? pcl_map_get_cstr(opts, "deleteBeforeReplace") : NULL;
  if (dbr && pcl_kind_of(dbr) == PCL_T_BOOL && pcl_bool_get(dbr)) {
    rr.deletebeforereplace = true;
    rr.deletebeforereplacedefined = true;
  }
  rr.ignorechanges = string_array(opts, "ignoreChanges", &rr.n_ignorechanges);
  rr.additionalsecretoutputs =
      string_array(opts, "additionalSecretOutputs", &rr.n_additionalsecretoutputs);
  rr.replaceonchanges = string_array(opts, "replaceOnChanges", &rr.n_replaceonchanges);
  rr.replacewith = string_array(opts, "replaceWith", &rr.n_replacewith);
  rr.hooks = hooks_binding(pcl_map_get_cstr(opts, "hooks"));
  pcl_value *hide = opts ? pcl_map_get_cstr(opts, "hideDiffs") : NULL;
  if (hide && pcl_kind_of(hide) == PCL_T_LIST && pcl_len(hide) > 0) {
    rr.hidediffs = pcl_xmalloc(pcl_len(hide) * sizeof *rr.hidediffs);
    for (size_t i = 0; i < pcl_len(hide); i++) {
      pcl_value *p = pcl_list_at(hide, i);
      if (pcl_kind_of(p) == PCL_T_LIST) {
        rr.hidediffs[rr.n_hidediffs++] = pcl__rpc_path_text(p);
      }
    }
  }
  const char *imp = str_opt(opts, "importID");
  rr.importid = pcl_xstrdup(imp ? imp : "");
  const char *dw = str_opt(opts, "deletedWith");
  rr.deletedwith = pcl_xstrdup(dw ? dw : "");
  if (*rr.deletedwith && !e->deleted_with && enc.err == NULL) {
    /* An engine that does not know the option would drop it silently. */
    enc.err = pcl_error_new("the Pulumi engine does not support the deletedWith option; "
                            "update the Pulumi CLI");
  }
  /* Sent always, empty when no timeout is set, as the SDKs send it. */
  pcl_value *timeouts = opts ? pcl_map_get_cstr(opts, "customTimeouts") : NULL;
  if (timeouts && pcl_kind_of(timeouts) != PCL_T_MAP) {
    timeouts = NULL;
  }
  Pulumirpc__RegisterResourceRequest__CustomTimeouts *ct = pcl_xmalloc(sizeof *ct);
  pulumirpc__register_resource_request__custom_timeouts__init(ct);
  char *c = duration_text(timeouts, "create"), *u = duration_text(timeouts, "update");
  char *d = duration_text(timeouts, "delete"), *rd = duration_text(timeouts, "read");
  ct->create = c ? c : pcl_xstrdup("");
  ct->update = u ? u : pcl_xstrdup("");
  ct->delete_ = d ? d : pcl_xstrdup("");
  ct->read = rd ? rd : pcl_xstrdup("");
  rr.customtimeouts = ct;
  set_aliases(&rr, opts);
  for (size_t i = 0; !e->alias_specs && i < rr.n_aliases && enc.err == NULL; i++) {
    if (rr.aliases[i]->alias_case == PULUMIRPC__ALIAS__ALIAS_SPEC) {
      enc.err = pcl_error_new("the Pulumi engine does not support alias specifications; "
                              "update the Pulumi CLI");
    }
  }
  pcl_value *trig = opts ? pcl_map_get_cstr(opts, "replacementTrigger") : NULL;
  if (trig && pcl_kind_of(trig) != PCL_T_NULL && enc.err == NULL) {
    rr.replacementtrigger = pcl__rpc_value_new(trig, &enc);
    if (enc.err) {
      pcl_error_prefix(enc.err, "the replacementTrigger option");
    }
  }
  if (req->kind != PCL_RES_CUSTOM) {
    /* A component passes on the providers of its children, its own
     * option's and its parent's, as the SDKs pass them. */
    rr.providers = (Pulumirpc__RegisterResourceRequest__ProvidersEntry **)string_map(
        req->providers, &rr.n_providers, true);
  }
  rr.envvarmappings = (Pulumirpc__RegisterResourceRequest__EnvVarMappingsEntry **)string_map(
      opts ? pcl_map_get_cstr(opts, "envVarMappings") : NULL, &rr.n_envvarmappings, false);
  if (enc.err) {
    pcl_error *err = enc.err;
    enc.err = NULL;
    refuse(cb, NULL, data, err);
  } else {
    rpc *r =
        rpc_new(e, PCL__RPC_REGISTER, &rr.base, is_stack ? stack_done : register_done, what.data);
    r->rcb = cb;
    r->data = data;
    r->custom = rr.custom;
    r->keep = pcl_retain(req->inputs);
    enc_report(e, &enc, what.data, NULL);
    rpc_start(r);
  }
  free_register_request(&rr);
  pcl__rpc_enc_clear(&enc);
  pcl_strbuf_free(&what);
}

/* ------------------------------------------------ invokes, calls, outputs */

static void value_done(rpc *r, pcl__rpc_answer *a, const pcl_error *err) {
  if (err) {
    r->ecb(r->data, NULL, err);
  } else if (a->failures) {
    pcl_error *f = pcl_error_new("%s", a->failures);
    r->ecb(r->data, NULL, f);
    pcl_error_free(f);
  } else {
    r->ecb(r->data, r->m == PCL__RPC_OUTPUTS ? r->keep : a->value, NULL);
  }
}

/* Returns the LIST of the URNs the i-th argument of the call req depends
 * on (borrowed), or NULL for none. */
static pcl_value *arg_urns(const pcl_invoke_request *req, size_t i) {
  const pcl_value *k = pcl_map_key_at(req->args, i);
  return req->arg_deps ? pcl_map_get(req->arg_deps, pcl_str_data(k), pcl_str_len(k)) : NULL;
}

/* Returns the arguments of an invoke, or of a call (call set): for a
 * monitor that takes output values in the request (invoke_output_values,
 * call_output_values), every output inside them is an output value of its
 * own (the runtime gave them as settled EVENTUALs); else, for a monitor that
 * takes output values, each argument of a call that depends on resources
 * (its argDependencies), or is unknown or secret, as an output value, as the
 * SDKs send them; a resource passed by reference (the receiver __self__)
 * depends on nothing there and stays a reference.  NULL with enc->err. */
static Google__Protobuf__Struct *args_struct(gbe *e, const pcl_invoke_request *req, bool call,
                                             pcl__rpc_enc *enc) {
  bool per_value = call ? e->base.call_output_values : e->base.invoke_output_values;
  if (per_value || !call || !e->output_values) {
    return pcl__rpc_struct_new(req->args, enc);
  }
  size_t n = pcl_len(req->args);
  pcl_deps **deps = pcl_xcalloc(n ? n : 1, sizeof *deps);
  for (size_t i = 0; i < n; i++) {
    pcl_value *urns = arg_urns(req, i);
    size_t k = urns ? pcl_len(urns) : 0;
    const char **texts = pcl_xmalloc((k ? k : 1) * sizeof *texts);
    for (size_t j = 0; j < k; j++) {
      texts[j] = pcl_str_data(pcl_list_at(urns, j));
    }
    deps[i] = pcl__deps_of_urns(texts, k);
    free(texts);
  }
  Google__Protobuf__Struct *s = pcl__rpc_output_struct_new(req->args, deps, enc);
  for (size_t i = 0; i < n; i++) {
    pcl_deps_release(deps[i]);
  }
  free(deps);
  return s;
}

static void grpc_invoke_or_call(gbe *e, const pcl_invoke_request *req, bool call, pcl_engine_cb cb,
                                void *data) {
  pcl__rpc_enc enc = enc_for(e);
  Google__Protobuf__Struct *args = args_struct(e, req, call, &enc);
  if (args == NULL) {
    refuse(NULL, cb, data, enc.err);
    enc.err = NULL;
    pcl__rpc_enc_clear(&enc);
    return;
  }
  pcl_strbuf what = PCL_STRBUF_INIT;
  pcl_strbuf_appendf(&what, "%s of '%s'", call ? "call" : "invoke", req->token);
  Pulumirpc__SourcePosition pos;
  Pulumirpc__SourcePosition *where = source_position(e, &pos, req->file, req->line, req->column);
  rpc *r;
  if (call) {
    Pulumirpc__ResourceCallRequest cr = PULUMIRPC__RESOURCE_CALL_REQUEST__INIT;
    cr.tok = (char *)req->token;
    cr.args = args;
    cr.provider = (char *)(req->provider ? req->provider : "");
    cr.version = unless_packaged(req->package_ref, req->version);
    cr.plugindownloadurl = unless_packaged(req->package_ref, req->plugin_download_url);
    cr.packageref = (char *)(req->package_ref ? req->package_ref : "");
    cr.sourceposition = where;
    /* An entry for every argument, the receiver __self__ included (with no
     * dependencies), as the SDKs send them. */
    size_t n = pcl_len(req->args);
    cr.argdependencies = pcl_xmalloc((n ? n : 1) * sizeof *cr.argdependencies);
    for (size_t i = 0; i < n; i++) {
      pcl_value *l = arg_urns(req, i);
      size_t nl = l ? pcl_len(l) : 0;
      Pulumirpc__ResourceCallRequest__ArgDependenciesEntry *ae = pcl_xmalloc(sizeof *ae);
      pulumirpc__resource_call_request__arg_dependencies_entry__init(ae);
      ae->key = pcl_xstrdup(pcl_str_data(pcl_map_key_at(req->args, i)));
      Pulumirpc__ResourceCallRequest__ArgumentDependencies *ad = pcl_xmalloc(sizeof *ad);
      pulumirpc__resource_call_request__argument_dependencies__init(ad);
      ad->urns = pcl_xmalloc((nl ? nl : 1) * sizeof *ad->urns);
      for (size_t j = 0; j < nl; j++) {
        ad->urns[ad->n_urns++] = pcl_xstrdup(pcl_str_data(pcl_list_at(l, j)));
      }
      ae->value = ad;
      cr.argdependencies[cr.n_argdependencies++] = ae;
    }
    cr.acceptsbytestring = true;
    cr.accept_output_values = e->base.call_output_values;
    r = rpc_new(e, PCL__RPC_CALL, &cr.base, value_done, what.data);
    free_messages(cr.argdependencies, cr.n_argdependencies);
  } else {
    Pulumirpc__ResourceInvokeRequest ir = PULUMIRPC__RESOURCE_INVOKE_REQUEST__INIT;
    ir.tok = (char *)req->token;
    ir.args = args;
    ir.provider = (char *)(req->provider ? req->provider : "");
    ir.version = unless_packaged(req->package_ref, req->version);
    ir.plugindownloadurl = unless_packaged(req->package_ref, req->plugin_download_url);
    ir.packageref = (char *)(req->package_ref ? req->package_ref : "");
    ir.acceptresources = true;
    ir.acceptsbytestring = true;
    ir.accept_output_values = e->base.invoke_output_values;
    ir.sourceposition = where;
    r = rpc_new(e, PCL__RPC_INVOKE, &ir.base, value_done, what.data);
  }
  protobuf_c_message_free_unpacked(&args->base, NULL);
  r->ecb = cb;
  r->data = data;
  enc_report(e, &enc, what.data, NULL);
  pcl__rpc_enc_clear(&enc);
  pcl_strbuf_free(&what);
  rpc_start(r);
}

static void grpc_invoke(pcl_engine *eng, const pcl_invoke_request *req, pcl_engine_cb cb,
                        void *data) {
  grpc_invoke_or_call((gbe *)eng, req, false, cb, data);
}

static void gbe_call(pcl_engine *eng, const pcl_invoke_request *req, pcl_engine_cb cb, void *data) {
  grpc_invoke_or_call((gbe *)eng, req, true, cb, data);
}

static void exists_done(rpc *r, pcl__rpc_answer *a, const pcl_error *err) {
  if (err) {
    r->ecb(r->data, NULL, err);
  } else {
    r->ecb(r->data, a->unknown ? pcl_unknown() : pcl_bool(a->exists), NULL);
  }
}

static void grpc_exists_resource(pcl_engine *eng, const pcl_exists_request *req,
                                 pcl_engine_cb cb, void *data) {
  gbe *e = (gbe *)eng;
  pcl__rpc_enc enc = enc_for(e);
  Google__Protobuf__Struct *props = NULL;
  if (req->state != NULL && (props = pcl__rpc_struct_new(req->state, &enc)) == NULL) {
    refuse(NULL, cb, data, enc.err);
    enc.err = NULL;
    pcl__rpc_enc_clear(&enc);
    return;
  }
  pcl_strbuf what = PCL_STRBUF_INIT;
  pcl_strbuf_appendf(&what, "resourceExists of '%s'", req->type);
  Pulumirpc__ExistsResourceRequest xr = PULUMIRPC__EXISTS_RESOURCE_REQUEST__INIT;
  xr.type = (char *)req->type;
  xr.id = (char *)req->id;
  xr.properties = props;
  xr.packageref = (char *)(req->package_ref ? req->package_ref : "");
  rpc *r = rpc_new(e, PCL__RPC_EXISTS, &xr.base, exists_done, what.data);
  if (props != NULL) {
    protobuf_c_message_free_unpacked(&props->base, NULL);
  }
  r->ecb = cb;
  r->data = data;
  enc_report(e, &enc, what.data, NULL);
  pcl__rpc_enc_clear(&enc);
  pcl_strbuf_free(&what);
  rpc_start(r);
}

static void grpc_register_outputs(pcl_engine *eng, const char *urn, pcl_value *outputs,
                                  pcl_engine_cb cb, void *data) {
  gbe *e = (gbe *)eng;
  pcl__rpc_enc enc = enc_for(e);
  Pulumirpc__RegisterResourceOutputsRequest req =
      PULUMIRPC__REGISTER_RESOURCE_OUTPUTS_REQUEST__INIT;
  req.urn = (char *)urn;
  req.outputs = pcl__rpc_struct_new(outputs, &enc);
  if (req.outputs == NULL) {
    refuse(NULL, cb, data, enc.err);
    enc.err = NULL;
    pcl__rpc_enc_clear(&enc);
    return;
  }
  pcl_strbuf what = PCL_STRBUF_INIT;
  pcl_strbuf_appendf(&what, "the outputs of '%s'", urn);
  rpc *r = rpc_new(e, PCL__RPC_OUTPUTS, &req.base, value_done, what.data);
  protobuf_c_message_free_unpacked(&req.outputs->base, NULL);
  r->ecb = cb;
  r->data = data;
  r->keep = pcl_retain(outputs);
  enc_report(e, &enc, what.data, urn);
  pcl__rpc_enc_clear(&enc);
  pcl_strbuf_free(&what);
  rpc_start(r);
}

static void version_done(rpc *r, pcl__rpc_answer *a, const pcl_error *err) {
  (void)a;
  r->ecb(r->data, err ? NULL : pcl_null(), err);
}

static void grpc_require_version(pcl_engine *eng, const char *range, pcl_engine_cb cb, void *data) {
  gbe *e = (gbe *)eng;
  if (e->engine == NULL) {
    refuse(NULL, cb, data, pcl_error_new("no engine (PULUMI_ENGINE) to check the Pulumi version"));
    return;
  }
  Pulumirpc__RequirePulumiVersionRequest req = PULUMIRPC__REQUIRE_PULUMI_VERSION_REQUEST__INIT;
  req.pulumiversionrange = (char *)range;
  rpc *r = rpc_new(e, PCL__RPC_REQUIRE_VERSION, &req.base, version_done, "RequirePulumiVersion");
  r->ecb = cb;
  r->data = data;
  rpc_start(r);
}

/* ------------------------------------------------------------ the run */

static void shutdown_done(rpc *r, pcl__rpc_answer *a, const pcl_error *err) {
  (void)a;
  /* Engines that predate SignalAndWaitForShutdown answer UNIMPLEMENTED;
   * another failure (an engine gone) fails the run, as the SDKs do. */
  if (err && r->status != GRPC_STATUS_UNIMPLEMENTED) {
    pcl__print_log(PCL_LOG_ERROR, NULL, pcl_error_message(err));
    r->e->base.finish_failed = true;
  }
}

static void grpc_finish(pcl_engine *eng, const pcl_error *err) {
  gbe *e = (gbe *)eng;
  if (err) {
    /* The run's error, with its PCL location, for the engine to show. */
    pcl_strbuf b = PCL_STRBUF_INIT;
    if (pcl_error_file(err)) {
      pcl_strbuf_appendf(&b, "%s:%u:%u: ", pcl_error_file(err), pcl_error_line(err),
                         pcl_error_column(err));
    }
    pcl_strbuf_append_cstr(&b, pcl_error_message(err));
    send_log(e, PCL_LOG_ERROR, e->stack_urn, b.data, true);
    pcl_strbuf_free(&b);
    return;
  }
  Google__Protobuf__Empty req = GOOGLE__PROTOBUF__EMPTY__INIT;
  rpc_start(rpc_new(e, PCL__RPC_SHUTDOWN, &req.base, shutdown_done, "SignalAndWaitForShutdown"));
}

static void grpc_cancel(pcl_engine *eng, const pcl_error *err) {
  gbe *e = (gbe *)eng;
  /* Registrations still waiting for a slot were never sent. */
  while (e->wait_head) {
    rpc *r = e->wait_head;
    e->wait_head = r->qnext;
    refuse(r->rcb, r->ecb, r->data, pcl_error_copy(err));
    rpc_free(r);
  }
  e->wait_tail = NULL;
  for (rpc *r = e->live; r; r = r->next) {
    grpc_call_cancel(r->call, NULL);
  }
}

static void grpc_destroy(pcl_engine *eng) {
  gbe *e = (gbe *)eng;
  /* Calls the run left behind end here (cancelled, so this does not wait
   * for the engine); their completions go nowhere. */
  for (rpc *r = e->live; r; r = r->next) {
    grpc_call_cancel(r->call, NULL);
  }
  if (e->callbacks) {
    pcl__callbacks_shutdown(e->callbacks);
  }
  while (e->live || (e->callbacks && !pcl__callbacks_stopped(e->callbacks))) {
    grpc_event ev = grpc_completion_queue_next(e->cq, gpr_inf_future(GPR_CLOCK_MONOTONIC), NULL);
    if (ev.type != GRPC_OP_COMPLETE) {
      break;
    }
    if (((const pcl__cq_tag *)ev.tag)->origin == PCL__TAG_CALLBACK) {
      pcl__callbacks_complete(e->callbacks, ev.tag, ev.success != 0);
    } else {
      rpc_unlink(ev.tag);
      rpc_free(ev.tag);
    }
  }
  pcl__callbacks_free(e->callbacks);
  pcl__sched_set_poller(NULL, NULL);
  grpc_channel_destroy(e->monitor);
  if (e->engine) {
    grpc_channel_destroy(e->engine);
  }
  grpc_completion_queue_shutdown(e->cq);
  while (grpc_completion_queue_next(e->cq, gpr_inf_future(GPR_CLOCK_MONOTONIC), NULL).type !=
         GRPC_QUEUE_SHUTDOWN) {
  }
  grpc_completion_queue_destroy(e->cq);
  free(e->stack_urn);
  pcl_error_free(e->setup_err);
  for (size_t i = 0; i < e->nuris; i++) {
    free(e->uris[i].file);
    free(e->uris[i].uri);
  }
  free(e->uris);
  free(e->cwd);
  free(e);
  grpc_shutdown_blocking();
}

/* The answer to RegisterResourceHook or RegisterErrorHook. */
static void hook_done(rpc *r, pcl__rpc_answer *a, const pcl_error *err) {
  (void)a;
  r->ecb(r->data, err ? NULL : pcl_null(), err);
}

static void grpc_register_hook(pcl_engine *eng, const pcl_hook_request *hr, pcl_engine_cb cb,
                               void *data) {
  gbe *e = (gbe *)eng;
  if (e->callbacks == NULL) {
    pcl_error *err = NULL;
    e->callbacks = pcl__callbacks_new(e->cq, &e->outstanding, &err);
    if (e->callbacks == NULL) {
      pcl_hook_free(hr->hook);
      refuse(NULL, cb, data, err);
      return;
    }
  }
  Pulumirpc__Callback callback = PULUMIRPC__CALLBACK__INIT;
  callback.target = (char *)pcl__callbacks_target(e->callbacks);
  callback.token = (char *)pcl__callbacks_add(e->callbacks, hr->hook, hr->error_hook);
  /* Strings reach a hook's args as they decode: byte strings too. */
  callback.accepts_byte_string = true;
  pcl_strbuf what = PCL_STRBUF_INIT;
  pcl_strbuf_appendf(&what, "hook %s", hr->name);
  rpc *r;
  if (hr->error_hook) {
    Pulumirpc__RegisterErrorHookRequest req = PULUMIRPC__REGISTER_ERROR_HOOK_REQUEST__INIT;
    req.name = (char *)hr->name;
    req.callback = &callback;
    r = rpc_new(e, PCL__RPC_ERROR_HOOK, &req.base, hook_done, what.data);
  } else {
    Pulumirpc__RegisterResourceHookRequest req = PULUMIRPC__REGISTER_RESOURCE_HOOK_REQUEST__INIT;
    req.name = (char *)hr->name;
    req.callback = &callback;
    req.on_dry_run = hr->on_dry_run;
    req.ignore_errors = hr->ignore_errors;
    r = rpc_new(e, PCL__RPC_RESOURCE_HOOK, &req.base, hook_done, what.data);
  }
  pcl_strbuf_free(&what);
  r->ecb = cb;
  r->data = data;
  rpc_start(r);
}

static char *grpc_snapshot(pcl_engine *eng, const pcl_error *err) {
  (void)eng;
  (void)err;
  return NULL;
}

static const pcl_engine_ops grpc_ops = {
    .name = "gRPC",
    .register_resource = grpc_register,
    .invoke = grpc_invoke,
    .call = gbe_call,
    .register_outputs = grpc_register_outputs,
    .log = grpc_log,
    .cancel = grpc_cancel,
    .snapshot = grpc_snapshot,
    .destroy = grpc_destroy,
    .finish = grpc_finish,
    .require_version = grpc_require_version,
    .register_package = grpc_register_package,
    .exists_resource = grpc_exists_resource,
    .register_hook = grpc_register_hook,
};

/* --------------------------------------------------------------- set-up */

static void features_done(rpc *r, pcl__rpc_answer *a, const pcl_error *err) {
  gbe *e = r->e;
  if (err) {
    if (e->setup_err == NULL && r->status != GRPC_STATUS_UNIMPLEMENTED) {
      e->setup_err = pcl_error_copy(err);
    }
  } else {
    uint32_t f = a->features;
    e->secrets = f & (1u << PULUMIRPC__RESOURCE_MONITOR_FEATURE__RESOURCE_MONITOR_FEATURE_SECRETS);
    e->resources =
        f &
        (1u << PULUMIRPC__RESOURCE_MONITOR_FEATURE__RESOURCE_MONITOR_FEATURE_RESOURCE_REFERENCES);
    e->output_values =
        f & (1u << PULUMIRPC__RESOURCE_MONITOR_FEATURE__RESOURCE_MONITOR_FEATURE_OUTPUT_VALUES);
    e->alias_specs =
        f & (1u << PULUMIRPC__RESOURCE_MONITOR_FEATURE__RESOURCE_MONITOR_FEATURE_ALIAS_SPECS);
    e->deleted_with =
        f & (1u << PULUMIRPC__RESOURCE_MONITOR_FEATURE__RESOURCE_MONITOR_FEATURE_DELETED_WITH);
    e->byte_strings =
        f & (1u << PULUMIRPC__RESOURCE_MONITOR_FEATURE__RESOURCE_MONITOR_FEATURE_BYTE_STRING);
    e->parameterization =
        f & (1u << PULUMIRPC__RESOURCE_MONITOR_FEATURE__RESOURCE_MONITOR_FEATURE_PARAMETERIZATION);
    e->base.invoke_output_values =
        f &
        (1u << PULUMIRPC__RESOURCE_MONITOR_FEATURE__RESOURCE_MONITOR_FEATURE_INVOKE_OUTPUT_VALUES);
    e->base.call_output_values =
        f & (1u << PULUMIRPC__RESOURCE_MONITOR_FEATURE__RESOURCE_MONITOR_FEATURE_CALL_OUTPUT_VALUES);
  }
  /* UNIMPLEMENTED: an older monitor, asked feature by feature. */
  e->ask_features = err && r->status == GRPC_STATUS_UNIMPLEMENTED;
}

/* The features asked one by one, and where each answer goes. */
static const struct {
  const char *id;
  size_t offset;
} feature_ids[] = {
    {"secrets", offsetof(gbe, secrets)},
    {"resourceReferences", offsetof(gbe, resources)},
    {"outputValues", offsetof(gbe, output_values)},
    {"aliasSpecs", offsetof(gbe, alias_specs)},
    {"deletedWith", offsetof(gbe, deleted_with)},
    {"parameterization", offsetof(gbe, parameterization)},
};

static void feature_done(rpc *r, pcl__rpc_answer *a, const pcl_error *err) {
  gbe *e = r->e;
  if (err && e->setup_err == NULL) {
    e->setup_err = pcl_error_copy(err);
  }
  if (a) {
    *(bool *)((char *)e + r->feature) = a->supported;
  }
}

/* Waits, before the loop runs, for every call started so far. */
static void drain(gbe *e) {
  while (poll_queue(e, true)) {
  }
}

pcl_engine *pcl__engine_grpc_new(const pcl__grpc_options *o, pcl_error **err) {
  grpc_init();
  gbe *e = pcl_xcalloc(1, sizeof *e);
  e->base.ops = &grpc_ops;
  e->base.hosted = true;
  e->preview = o->preview;
  e->cwd = pcl_xstrdup(o->cwd);
  e->parallel = o->parallel;
  e->deadline_ms = o->deadline_ms;
  e->cq = grpc_completion_queue_create_for_next(NULL);
  grpc_channel_credentials *creds = grpc_insecure_credentials_create();
  /* Answers can be large (a provider's outputs): the SDKs accept up to
   * 400 MiB, where gRPC's default stops at 4 MiB.  While calls are in
   * flight the transport pings the engine every keepalive_ms and closes the
   * connection when a ping is not answered (all calls then fail), without
   * a limit on the pings sent while no data flows: a registration may wait
   * for hours on an engine that is alive. */
  int timeout = o->keepalive_ms < 20000 ? (int)o->keepalive_ms : 20000;
  grpc_arg args_list[] = {
      {.type = GRPC_ARG_INTEGER,
       .key = (char *)GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH,
       .value.integer = MAX_MESSAGE},
      {.type = GRPC_ARG_INTEGER,
       .key = (char *)GRPC_ARG_KEEPALIVE_TIME_MS,
       .value.integer = (int)o->keepalive_ms},
      {.type = GRPC_ARG_INTEGER, .key = (char *)GRPC_ARG_KEEPALIVE_TIMEOUT_MS, .value.integer = timeout},
      {.type = GRPC_ARG_INTEGER,
       .key = (char *)GRPC_ARG_KEEPALIVE_PERMIT_WITHOUT_CALLS,
       .value.integer = 0},
      {.type = GRPC_ARG_INTEGER,
       .key = (char *)GRPC_ARG_HTTP2_MAX_PINGS_WITHOUT_DATA,
       .value.integer = 0},
  };
  grpc_channel_args args = {sizeof args_list / sizeof args_list[0], args_list};
  const char *monitor = o->monitor, *engine = o->engine;
  e->monitor = grpc_channel_create(monitor, creds, &args);
  e->engine = engine && *engine ? grpc_channel_create(engine, creds, &args) : NULL;
  grpc_channel_credentials_release(creds);
  pcl__sched_set_poller(poll_queue, e);

  /* What the monitor takes decides how every value is sent, so it is asked
   * before anything else, as the SDKs do. */
  Google__Protobuf__Empty empty = GOOGLE__PROTOBUF__EMPTY__INIT;
  rpc_start(rpc_new(e, PCL__RPC_DEPLOYMENT_INFO, &empty.base, features_done, "GetDeploymentInfo"));
  drain(e);
  if (e->ask_features && e->setup_err == NULL) {
    for (size_t i = 0; i < sizeof feature_ids / sizeof feature_ids[0]; i++) {
      Pulumirpc__SupportsFeatureRequest req = PULUMIRPC__SUPPORTS_FEATURE_REQUEST__INIT;
      req.id = (char *)feature_ids[i].id;
      rpc *r = rpc_new(e, PCL__RPC_SUPPORTS_FEATURE, &req.base, feature_done, feature_ids[i].id);
      r->feature = feature_ids[i].offset;
      rpc_start(r);
    }
    drain(e);
  }
  if (e->setup_err) {
    *err = e->setup_err;
    e->setup_err = NULL;
    pcl_error_prefix(*err, "cannot use the Pulumi engine at %s", monitor);
    grpc_destroy(&e->base);
    return NULL;
  }
  return &e->base;
}
