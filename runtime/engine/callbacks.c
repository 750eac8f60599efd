/* callbacks: the Callbacks service the program serves to the engine, through
 * which the engine runs the program's hooks (docs/engine.md).
 *
 * The server shares the gRPC backend's completion queue, so that its
 * completions reach the one loop through the backend's poller: program
 * code (a hook's command) runs only as a task of that loop.  A call goes
 * through these steps, each a completion: accepted (the server asks for
 * the next call at once), request received, then answered once the hook
 * ran (the status batch); RECV_CLOSE_ON_SERVER, started with the receive,
 * completes when the call is over.  The call is freed once its close and
 * its answer (or the failure that ends it) are both done. */
#include <grpc/byte_buffer_reader.h>
#include <grpc/grpc.h>
#include <grpc/grpc_security.h>
#include <grpc/support/alloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "engine/engine.h"
#include "engine/rpc.h"
#include "pcl_engine.h"

/* The largest request taken, in bytes (the SDKs' limit). */
enum { MAX_REQUEST = 400 * 1024 * 1024 };

/* A registered hook. */
typedef struct cb_hook {
  char *token;      /* The token the engine calls it by (owned). */
  pcl_hook *hook;   /* The hook (owned). */
  bool error_hook;  /* An error hook: its answer is an ErrorHookResponse. */
} cb_hook;

typedef struct cb_call cb_call;

/* What a completion of the server is about. */
typedef enum cb_step { STEP_ACCEPT, STEP_RECV, STEP_CLOSE, STEP_SEND } cb_step;

/* A completion tag: which call, which step. */
typedef struct cb_tag {
  pcl__cq_tag head; /* PCL__TAG_CALLBACK. */
  cb_call *c;       /* The call. */
  cb_step step;     /* The step. */
} cb_tag;

struct cb_call {
  pcl__callbacks *s;          /* The server. */
  grpc_call *call;            /* The call, once accepted. */
  grpc_call_details details;  /* Its method. */
  grpc_metadata_array md;     /* Its request headers (unused). */
  grpc_byte_buffer *req;      /* Its request, once read. */
  grpc_byte_buffer *out;      /* Its answer, until sent. */
  int cancelled;              /* Set by RECV_CLOSE_ON_SERVER. */
  grpc_slice details_text;    /* The status message sent. */
  cb_tag t_accept, t_recv, t_close, t_send;
  bool closed, answered;      /* Both done: the call is freed. */
  const cb_hook *hook;        /* The hook it runs, once known. */
};

struct pcl__callbacks {
  grpc_server *server;        /* The server. */
  grpc_completion_queue *cq;  /* The backend's queue (borrowed). */
  size_t *outstanding;        /* The backend's count of what the loop waits for. */
  char *target;               /* "127.0.0.1:<port>" (owned). */
  cb_hook *hooks;             /* The registered hooks. */
  size_t nhooks, caphooks;    /* Used and allocated. */
  size_t live;                /* Calls accepted and not freed. */
  size_t batches;             /* Batches started and not completed. */
  bool accepting;             /* A call is asked for. */
  bool stopped;               /* The shutdown notification arrived. */
  bool shutting_down;         /* pcl__callbacks_shutdown was called. */
  pcl__cq_tag stop_tag;       /* The shutdown notification's tag. */
};

static void start_batch(cb_call *c, const grpc_op *ops, size_t n, cb_tag *t) {
  c->s->batches++;
  grpc_call_error e = grpc_call_start_batch(c->call, ops, n, t, NULL);
  if (e != GRPC_CALL_OK) {
    fprintf(stderr, "libpclrt: grpc_call_start_batch failed (%d)\n", (int)e);
    abort();
  }
}

/* Asks for the next call. */
static void accept_next(pcl__callbacks *s) {
  cb_call *c = pcl_xcalloc(1, sizeof *c);
  c->s = s;
  grpc_call_details_init(&c->details);
  grpc_metadata_array_init(&c->md);
  c->details_text = grpc_empty_slice();
  c->t_accept = (cb_tag){{PCL__TAG_CALLBACK}, c, STEP_ACCEPT};
  c->t_recv = (cb_tag){{PCL__TAG_CALLBACK}, c, STEP_RECV};
  c->t_close = (cb_tag){{PCL__TAG_CALLBACK}, c, STEP_CLOSE};
  c->t_send = (cb_tag){{PCL__TAG_CALLBACK}, c, STEP_SEND};
  s->accepting = true;
  if (grpc_server_request_call(s->server, &c->call, &c->details, &c->md, s->cq, s->cq,
                               &c->t_accept) != GRPC_CALL_OK) {
    fprintf(stderr, "libpclrt: cannot accept the engine's calls\n");
    abort();
  }
}

static void call_free(cb_call *c) {
  if (c->call) {
    grpc_call_unref(c->call);
    c->s->live--;
    (*c->s->outstanding)--;
  }
  grpc_call_details_destroy(&c->details);
  grpc_metadata_array_destroy(&c->md);
  if (c->req) {
    grpc_byte_buffer_destroy(c->req);
  }
  if (c->out) {
    grpc_byte_buffer_destroy(c->out);
  }
  grpc_slice_unref(c->details_text);
  free(c);
}

/* Sends the answer msg (NULL: none, with the status code and details). */
static void answer(cb_call *c, const ProtobufCMessage *msg, grpc_status_code code,
                   const char *details) {
  grpc_op ops[3];
  memset(ops, 0, sizeof ops);
  size_t n = 0;
  ops[n++].op = GRPC_OP_SEND_INITIAL_METADATA;
  if (msg) {
    size_t len = protobuf_c_message_get_packed_size(msg);
    grpc_slice sl = grpc_slice_malloc(len);
    protobuf_c_message_pack(msg, GRPC_SLICE_START_PTR(sl));
    c->out = grpc_raw_byte_buffer_create(&sl, 1);
    grpc_slice_unref(sl);
    ops[n].op = GRPC_OP_SEND_MESSAGE;
    ops[n++].data.send_message.send_message = c->out;
  }
  grpc_slice_unref(c->details_text);
  c->details_text = grpc_slice_from_copied_string(details ? details : "");
  ops[n].op = GRPC_OP_SEND_STATUS_FROM_SERVER;
  ops[n].data.send_status_from_server.status = code;
  ops[n++].data.send_status_from_server.status_details = &c->details_text;
  start_batch(c, ops, n, &c->t_send);
}

/* Returns the bytes of buffer b (owned slice). */
static grpc_slice read_all(grpc_byte_buffer *b) {
  grpc_byte_buffer_reader r;
  if (!grpc_byte_buffer_reader_init(&r, b)) {
    return grpc_empty_slice();
  }
  grpc_slice sl = grpc_byte_buffer_reader_readall(&r);
  grpc_byte_buffer_reader_destroy(&r);
  return sl;
}

/* The hook ran: answers with its response, packed in the callback's. */
static void hook_done(void *data, pcl_hook_outcome outcome, const char *message) {
  cb_call *c = data;
  uint8_t *packed = NULL;
  size_t len = 0;
  if (c->hook->error_hook) {
    /* Exit status 0 asks the engine to retry the failed operation. */
    Pulumirpc__ErrorHookResponse r = PULUMIRPC__ERROR_HOOK_RESPONSE__INIT;
    r.retry = outcome == PCL_HOOK_SUCCEEDED;
    r.error = outcome == PCL_HOOK_BROKEN ? (char *)message : (char *)"";
    len = protobuf_c_message_get_packed_size(&r.base);
    packed = pcl_xmalloc(len + 1);
    protobuf_c_message_pack(&r.base, packed);
  } else {
    Pulumirpc__ResourceHookResponse r = PULUMIRPC__RESOURCE_HOOK_RESPONSE__INIT;
    r.error = outcome == PCL_HOOK_SUCCEEDED ? (char *)"" : (char *)message;
    len = protobuf_c_message_get_packed_size(&r.base);
    packed = pcl_xmalloc(len + 1);
    protobuf_c_message_pack(&r.base, packed);
  }
  Pulumirpc__CallbackInvokeResponse resp = PULUMIRPC__CALLBACK_INVOKE_RESPONSE__INIT;
  resp.response.data = packed;
  resp.response.len = len;
  answer(c, &resp.base, GRPC_STATUS_OK, NULL);
  free(packed);
}

/* Handles the request of c: finds the hook by its token and runs it. */
static void received(cb_call *c) {
  if (c->req == NULL) {
    answer(c, NULL, GRPC_STATUS_INVALID_ARGUMENT, "no request");
    return;
  }
  if (grpc_slice_str_cmp(c->details.method, "/pulumirpc.Callbacks/Invoke") != 0) {
    answer(c, NULL, GRPC_STATUS_UNIMPLEMENTED, "the program serves only Callbacks.Invoke");
    return;
  }
  grpc_slice sl = read_all(c->req);
  Pulumirpc__CallbackInvokeRequest *req = pulumirpc__callback_invoke_request__unpack(
      NULL, GRPC_SLICE_LENGTH(sl), GRPC_SLICE_START_PTR(sl));
  grpc_slice_unref(sl);
  if (req == NULL) {
    answer(c, NULL, GRPC_STATUS_INVALID_ARGUMENT, "the CallbackInvokeRequest does not decode");
    return;
  }
  const pcl__callbacks *s = c->s;
  for (size_t i = 0; i < s->nhooks && c->hook == NULL; i++) {
    if (strcmp(s->hooks[i].token, req->token) == 0) {
      c->hook = &s->hooks[i];
    }
  }
  if (c->hook == NULL) {
    char msg[160];
    snprintf(msg, sizeof msg, "callback not found: %.100s", req->token);
    pulumirpc__callback_invoke_request__free_unpacked(req, NULL);
    answer(c, NULL, GRPC_STATUS_NOT_FOUND, msg);
    return;
  }
  pcl_error *err = NULL;
  pcl_value *args =
      pcl__rpc_hook_args(req->request.data, req->request.len, c->hook->error_hook, &err);
  pulumirpc__callback_invoke_request__free_unpacked(req, NULL);
  if (args == NULL) {
    answer(c, NULL, GRPC_STATUS_INVALID_ARGUMENT, pcl_error_message(err));
    pcl_error_free(err);
    return;
  }
  pcl_hook_run(c->hook->hook, args, hook_done, c);
  pcl_release(args);
}

/* Runs a received call's hook as a task of the loop. */
static void run_task(pcl_future *f, void *data) {
  (void)f;
  received(data);
}

void pcl__callbacks_complete(pcl__callbacks *s, void *tag, bool ok) {
  if (tag == &s->stop_tag) {
    s->stopped = true;
    return;
  }
  cb_tag *t = tag;
  cb_call *c = t->c;
  if (t->step == STEP_ACCEPT) {
    s->accepting = false;
  } else {
    s->batches--;
  }
  switch (t->step) {
  case STEP_ACCEPT: {
    if (!ok || s->shutting_down) {
      /* The server is shutting down. */
      if (ok) {
        grpc_call_cancel(c->call, NULL);
        grpc_call_unref(c->call);
        c->call = NULL;
      }
      call_free(c);
      return;
    }
    s->live++;
    (*s->outstanding)++;
    accept_next(s);
    grpc_op ops[2];
    memset(ops, 0, sizeof ops);
    ops[0].op = GRPC_OP_RECV_MESSAGE;
    ops[0].data.recv_message.recv_message = &c->req;
    start_batch(c, ops, 1, &c->t_recv);
    ops[0].op = GRPC_OP_RECV_CLOSE_ON_SERVER;
    ops[0].data.recv_close_on_server.cancelled = &c->cancelled;
    start_batch(c, ops, 1, &c->t_close);
    return;
  }
  case STEP_RECV:
    if (!ok || s->shutting_down) {
      c->answered = true;
      break;
    }
    pcl_sched_post(run_task, c);
    return;
  case STEP_CLOSE:
    c->closed = true;
    break;
  case STEP_SEND:
    c->answered = true;
    break;
  }
  if (c->closed && c->answered) {
    call_free(c);
  }
}

pcl__callbacks *pcl__callbacks_new(grpc_completion_queue *cq, size_t *outstanding,
                                   pcl_error **err) {
  grpc_arg arg = {.type = GRPC_ARG_INTEGER,
                  .key = (char *)GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH,
                  .value.integer = MAX_REQUEST};
  grpc_channel_args args = {1, &arg};
  pcl__callbacks *s = pcl_xcalloc(1, sizeof *s);
  s->cq = cq;
  s->outstanding = outstanding;
  s->stop_tag.origin = PCL__TAG_CALLBACK;
  s->server = grpc_server_create(&args, NULL);
  grpc_server_register_completion_queue(s->server, cq, NULL);
  grpc_server_credentials *creds = grpc_insecure_server_credentials_create();
  int port = grpc_server_add_http2_port(s->server, "127.0.0.1:0", creds);
  grpc_server_credentials_release(creds);
  if (port <= 0) {
    grpc_server_destroy(s->server);
    free(s);
    *err = pcl_error_new("cannot listen on 127.0.0.1 for the engine's hook calls");
    return NULL;
  }
  char target[32];
  snprintf(target, sizeof target, "127.0.0.1:%d", port);
  s->target = pcl_xstrdup(target);
  grpc_server_start(s->server);
  accept_next(s);
  return s;
}

const char *pcl__callbacks_target(const pcl__callbacks *s) { return s->target; }

const char *pcl__callbacks_add(pcl__callbacks *s, pcl_hook *h, bool error_hook) {
  PCL__GROW(s->hooks, s->caphooks, s->nhooks + 1);
  char token[32];
  snprintf(token, sizeof token, "hook-%zu", s->nhooks);
  s->hooks[s->nhooks] = (cb_hook){pcl_xstrdup(token), h, error_hook};
  return s->hooks[s->nhooks++].token;
}

void pcl__callbacks_shutdown(pcl__callbacks *s) {
  s->shutting_down = true;
  grpc_server_shutdown_and_notify(s->server, s->cq, &s->stop_tag);
  grpc_server_cancel_all_calls(s->server);
}

bool pcl__callbacks_stopped(const pcl__callbacks *s) {
  /* A call still waiting for its hook (the loop ended first) never
     completes: it is left to the process's end. */
  return s->stopped && !s->accepting && s->batches == 0;
}

void pcl__callbacks_free(pcl__callbacks *s) {
  if (s == NULL) {
    return;
  }
  grpc_server_destroy(s->server);
  for (size_t i = 0; i < s->nhooks; i++) {
    free(s->hooks[i].token);
    pcl_hook_free(s->hooks[i].hook);
  }
  free(s->hooks);
  free(s->target);
  free(s);
}
