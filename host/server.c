/* server: the gRPC server of the language host (server.h).
 *
 * A call goes through these steps, each a batch of gRPC operations whose
 * completion the loop handles by its tag: accepted (grpc_server_request_call),
 * request received (RECV_MESSAGE; RECV_CLOSE_ON_SERVER is started at the
 * same time and completes when the call is over, saying whether the client
 * cancelled it), then answered by the handler's thread (the status batch,
 * after any stream writes).  The loop frees a call once its close and its
 * status have both completed; a handler never touches its call after
 * answering it, so that freeing needs no lock. */
#include "server.h"

#include <grpc/byte_buffer_reader.h>
#include <grpc/grpc_security.h>
#include <grpc/support/alloc.h>
#include <grpc/support/time.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* The largest request taken, in bytes (GenerateProgram carries a whole
   program, GeneratePackage a schema). */
enum { MAX_REQUEST = 400 * 1024 * 1024 };

/* What a completion is about. */
typedef enum tag_kind {
  TAG_ACCEPT, /* A call arrived. */
  TAG_RECV,   /* Its request was read. */
  TAG_CLOSE,  /* It is over (cancelled or answered). */
  TAG_SEND,   /* Its status was sent. */
  TAG_WRITE,  /* One message of a stream was sent. */
  TAG_STOPPED /* The server has shut down. */
} tag_kind;

typedef struct tag {
  srv_call *c;   /* The call, or NULL for TAG_STOPPED. */
  tag_kind kind; /* Which step. */
} tag;

struct srv_call {
  grpc_call *call;              /* The call (NULL until accepted). */
  grpc_call_details details;    /* Its method. */
  grpc_metadata_array md;       /* Its request headers (unused). */
  grpc_byte_buffer *req;        /* Its request, once read. */
  int cancelled;                /* Set by RECV_CLOSE_ON_SERVER: the client cancelled. */
  tag t_accept, t_recv, t_close, t_send, t_write;
  bool closed;                  /* TAG_CLOSE completed. */
  bool sent;                    /* TAG_SEND completed (or nothing will be sent). */
  bool headers_sent;            /* Initial metadata went out with a stream write. */
  grpc_byte_buffer *out;        /* The message being sent, until its batch completes. */
  grpc_slice status_details;    /* The status message being sent. */
  proc_group *procs;            /* Its child processes. */
  pthread_mutex_t mu;           /* Guards the write handshake below. */
  pthread_cond_t cv;            /* Signalled when a write completes. */
  bool write_done, write_ok;    /* The write's completion and outcome. */
};

static struct {
  grpc_server *server;
  grpc_completion_queue *cq;
  srv_handler handler;
  atomic_bool stop;             /* srv_stop was called. */
  size_t live;                  /* Calls allocated (loop thread only). */
  pthread_mutex_t mu;           /* Guards workers. */
  size_t workers;               /* Handler threads running. */
  tag stopped;                  /* The shutdown notification's tag. */
} S = {.mu = PTHREAD_MUTEX_INITIALIZER};

/* Starts one batch; a batch that cannot start is a bug of this file. */
static void start_batch(srv_call *c, const grpc_op *ops, size_t n, tag *t) {
  grpc_call_error e = grpc_call_start_batch(c->call, ops, n, t, NULL);
  if (e != GRPC_CALL_OK) {
    fprintf(stderr, "pulumi-language-pclc: grpc_call_start_batch failed (%d)\n", (int)e);
    abort();
  }
}

static void accept_next(void) {
  srv_call *c = xcalloc(1, sizeof *c);
  grpc_call_details_init(&c->details);
  grpc_metadata_array_init(&c->md);
  c->t_accept = (tag){c, TAG_ACCEPT};
  c->t_recv = (tag){c, TAG_RECV};
  c->t_close = (tag){c, TAG_CLOSE};
  c->t_send = (tag){c, TAG_SEND};
  c->t_write = (tag){c, TAG_WRITE};
  c->status_details = grpc_empty_slice();
  c->procs = proc_group_new();
  pthread_mutex_init(&c->mu, NULL);
  pthread_cond_init(&c->cv, NULL);
  S.live++;
  if (grpc_server_request_call(S.server, &c->call, &c->details, &c->md, S.cq, S.cq,
                               &c->t_accept) != GRPC_CALL_OK) {
    fprintf(stderr, "pulumi-language-pclc: cannot accept calls\n");
    abort();
  }
}

static void call_free(srv_call *c) {
  if (c->call) {
    grpc_call_unref(c->call);
  }
  grpc_call_details_destroy(&c->details);
  grpc_metadata_array_destroy(&c->md);
  if (c->req) {
    grpc_byte_buffer_destroy(c->req);
  }
  if (c->out) {
    grpc_byte_buffer_destroy(c->out);
  }
  grpc_slice_unref(c->status_details);
  proc_group_free(c->procs);
  pthread_mutex_destroy(&c->mu);
  pthread_cond_destroy(&c->cv);
  free(c);
  S.live--;
}

/* Packs msg into a byte buffer. */
static grpc_byte_buffer *pack(const ProtobufCMessage *msg) {
  size_t len = protobuf_c_message_get_packed_size(msg);
  grpc_slice s = grpc_slice_malloc(len);
  protobuf_c_message_pack(msg, GRPC_SLICE_START_PTR(s));
  grpc_byte_buffer *b = grpc_raw_byte_buffer_create(&s, 1);
  grpc_slice_unref(s);
  return b;
}

/* Sends the status (after msg, when not NULL): the call's last batch. */
static void send_status(srv_call *c, const ProtobufCMessage *msg, grpc_status_code code,
                        const char *details) {
  grpc_op ops[3];
  memset(ops, 0, sizeof ops);
  size_t n = 0;
  if (!c->headers_sent) {
    ops[n++].op = GRPC_OP_SEND_INITIAL_METADATA;
  }
  if (msg) {
    c->out = pack(msg);
    ops[n].op = GRPC_OP_SEND_MESSAGE;
    ops[n++].data.send_message.send_message = c->out;
  }
  grpc_slice_unref(c->status_details);
  c->status_details = grpc_slice_from_copied_string(details);
  ops[n].op = GRPC_OP_SEND_STATUS_FROM_SERVER;
  ops[n].data.send_status_from_server.status = code;
  ops[n++].data.send_status_from_server.status_details = &c->status_details;
  start_batch(c, ops, n, &c->t_send);
}

proc_group *srv_procs(srv_call *c) {
  return c->procs;
}

void srv_reply(srv_call *c, const ProtobufCMessage *msg) {
  send_status(c, msg, GRPC_STATUS_OK, "");
}

void srv_fail(srv_call *c, grpc_status_code code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = pcl__vformat(fmt, ap);
  va_end(ap);
  send_status(c, NULL, code, msg);
  free(msg);
}

bool srv_write(srv_call *c, const ProtobufCMessage *msg) {
  grpc_op ops[2];
  memset(ops, 0, sizeof ops);
  size_t n = 0;
  if (!c->headers_sent) {
    ops[n++].op = GRPC_OP_SEND_INITIAL_METADATA;
    c->headers_sent = true;
  }
  pthread_mutex_lock(&c->mu);
  c->write_done = false;
  pthread_mutex_unlock(&c->mu);
  grpc_byte_buffer *b = pack(msg);
  ops[n].op = GRPC_OP_SEND_MESSAGE;
  ops[n++].data.send_message.send_message = b;
  start_batch(c, ops, n, &c->t_write);
  pthread_mutex_lock(&c->mu);
  while (!c->write_done) {
    pthread_cond_wait(&c->cv, &c->mu);
  }
  bool ok = c->write_ok;
  pthread_mutex_unlock(&c->mu);
  grpc_byte_buffer_destroy(b);
  return ok;
}

void srv_finish(srv_call *c) {
  send_status(c, NULL, GRPC_STATUS_OK, "");
}

/* The arguments of a handler thread. */
typedef struct work {
  srv_call *c;
  char *method;
  buf req;
} work;

static void *worker(void *arg) {
  work *w = arg;
  S.handler(w->c, w->method, (const uint8_t *)buf_str(&w->req), w->req.len);
  free(w->method);
  pcl__buf_free(&w->req);
  free(w);
  pthread_mutex_lock(&S.mu);
  S.workers--;
  pthread_mutex_unlock(&S.mu);
  return NULL;
}

/* Hands a call whose request arrived to a handler thread. */
static void dispatch(srv_call *c) {
  work *w = xcalloc(1, sizeof *w);
  w->c = c;
  char *m = grpc_slice_to_c_string(c->details.method);
  w->method = xstrdup(m);
  gpr_free(m);
  grpc_byte_buffer_reader reader;
  if (grpc_byte_buffer_reader_init(&reader, c->req)) {
    grpc_slice all = grpc_byte_buffer_reader_readall(&reader);
    pcl__buf_append(&w->req, GRPC_SLICE_START_PTR(all), GRPC_SLICE_LENGTH(all));
    grpc_slice_unref(all);
    grpc_byte_buffer_reader_destroy(&reader);
  }
  pthread_mutex_lock(&S.mu);
  S.workers++;
  pthread_mutex_unlock(&S.mu);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_t t;
  int err = pthread_create(&t, &attr, worker, w);
  pthread_attr_destroy(&attr);
  if (err != 0) {
    pthread_mutex_lock(&S.mu);
    S.workers--;
    pthread_mutex_unlock(&S.mu);
    free(w->method);
    pcl__buf_free(&w->req);
    free(w);
    srv_fail(c, GRPC_STATUS_RESOURCE_EXHAUSTED, "cannot start a thread: %s", strerror(err));
  }
}

/* Handles one completion. */
static void handle(tag *t, bool ok) {
  srv_call *c = t->c;
  switch (t->kind) {
  case TAG_STOPPED:
    return;
  case TAG_ACCEPT: {
    if (!ok) {
      /* The server is shutting down: the pending accept ends. */
      call_free(c);
      return;
    }
    if (!atomic_load(&S.stop)) {
      accept_next();
    }
    grpc_op recv[1], close[1];
    memset(recv, 0, sizeof recv);
    memset(close, 0, sizeof close);
    recv[0].op = GRPC_OP_RECV_MESSAGE;
    recv[0].data.recv_message.recv_message = &c->req;
    close[0].op = GRPC_OP_RECV_CLOSE_ON_SERVER;
    close[0].data.recv_close_on_server.cancelled = &c->cancelled;
    start_batch(c, close, 1, &c->t_close);
    start_batch(c, recv, 1, &c->t_recv);
    return;
  }
  case TAG_RECV:
    if (!ok || c->req == NULL) {
      srv_fail(c, GRPC_STATUS_CANCELLED, "the request did not arrive");
      return;
    }
    dispatch(c);
    return;
  case TAG_CLOSE:
    c->closed = true;
    if (c->cancelled) {
      proc_cancel(c->procs);
    }
    break;
  case TAG_SEND:
    c->sent = true;
    break;
  case TAG_WRITE:
    pthread_mutex_lock(&c->mu);
    c->write_done = true;
    c->write_ok = ok;
    pthread_cond_signal(&c->cv);
    pthread_mutex_unlock(&c->mu);
    return;
  }
  if (c->closed && c->sent) {
    call_free(c);
  }
}

int srv_start(void) {
  grpc_init();
  S.cq = grpc_completion_queue_create_for_next(NULL);
  grpc_arg arg = {.type = GRPC_ARG_INTEGER,
                  .key = (char *)GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH,
                  .value.integer = MAX_REQUEST};
  grpc_channel_args args = {1, &arg};
  S.server = grpc_server_create(&args, NULL);
  grpc_server_register_completion_queue(S.server, S.cq, NULL);
  grpc_server_credentials *creds = grpc_insecure_server_credentials_create();
  int port = grpc_server_add_http2_port(S.server, "127.0.0.1:0", creds);
  grpc_server_credentials_release(creds);
  if (port <= 0) {
    return 0;
  }
  grpc_server_start(S.server);
  accept_next();
  return port;
}

void srv_stop(void) {
  atomic_store(&S.stop, true);
}

bool srv_stopping(void) {
  return atomic_load(&S.stop);
}

static size_t workers_running(void) {
  pthread_mutex_lock(&S.mu);
  size_t n = S.workers;
  pthread_mutex_unlock(&S.mu);
  return n;
}

void srv_run(srv_handler h) {
  S.handler = h;
  S.stopped = (tag){NULL, TAG_STOPPED};
  bool shutting_down = false, shut_down = false;
  for (;;) {
    if (atomic_load(&S.stop) && !shutting_down) {
      /* Kill every child first: the handlers waiting for them then answer
         and end. */
      shutting_down = true;
      proc_cancel_all();
      grpc_server_shutdown_and_notify(S.server, S.cq, &S.stopped);
      grpc_server_cancel_all_calls(S.server);
    }
    if (shut_down && S.live == 0 && workers_running() == 0) {
      break;
    }
    gpr_timespec tick =
        gpr_time_add(gpr_now(GPR_CLOCK_MONOTONIC), gpr_time_from_millis(200, GPR_TIMESPAN));
    grpc_event ev = grpc_completion_queue_next(S.cq, tick, NULL);
    if (ev.type != GRPC_OP_COMPLETE) {
      continue;
    }
    tag *t = ev.tag;
    if (t->kind == TAG_STOPPED) {
      shut_down = true;
    }
    handle(t, ev.success != 0);
  }
  grpc_server_destroy(S.server);
  grpc_completion_queue_shutdown(S.cq);
  while (grpc_completion_queue_next(S.cq, gpr_inf_future(GPR_CLOCK_MONOTONIC), NULL).type !=
         GRPC_QUEUE_SHUTDOWN) {
  }
  grpc_completion_queue_destroy(S.cq);
}
