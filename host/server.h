/* server: the gRPC server of the language host.
 *
 * One thread (the caller of srv_run) owns the server's completion queue:
 * it accepts calls, reads each request and hands it to the handler on a
 * thread of its own, so that no request waits for another (a Run that
 * compiles for a minute does not hold up GetPluginInfo).  The handler's
 * thread answers through srv_reply / srv_fail, or for a server-streaming
 * method writes messages with srv_write and ends with srv_finish; those
 * functions may be called from any thread.  A call that the client
 * abandons (a cancelled context, a closed connection) has its child
 * processes killed at once (srv_procs).
 *
 * srv_stop, from any thread, stops the host: the children of every call
 * are killed, the server stops taking calls, and srv_run returns once
 * every handler has finished and every call is closed. */
#ifndef HOST_SERVER_H
#define HOST_SERVER_H

#include <grpc/grpc.h>
#include <protobuf-c/protobuf-c.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "proc.h"

/* One call being served. */
typedef struct srv_call srv_call;

/* Serves one call: method is its path ("/pulumirpc.LanguageRuntime/Run"),
   req its request's bytes.  Runs on a thread of its own and must answer
   the call exactly once (srv_reply, srv_fail or srv_finish). */
typedef void (*srv_handler)(srv_call *c, const char *method, const uint8_t *req, size_t len);

/* Starts the server on 127.0.0.1 with a port the system picks; returns the
   port, or 0 when it cannot listen. */
int srv_start(void);
/* Serves calls with h until srv_stop; then frees the server. */
void srv_run(srv_handler h);
/* Asks srv_run to stop (any thread; idempotent). */
void srv_stop(void);
/* True once srv_stop was called. */
bool srv_stopping(void);

/* The child processes of the call. */
proc_group *srv_procs(srv_call *c);
/* Answers c with msg and status OK. */
void srv_reply(srv_call *c, const ProtobufCMessage *msg);
/* Answers c with a status other than OK and a message. */
void srv_fail(srv_call *c, grpc_status_code code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Sends one message of a server stream; waits until it is sent.  Returns
   false when the call is gone (the client left). */
bool srv_write(srv_call *c, const ProtobufCMessage *msg);
/* Ends a server stream with status OK. */
void srv_finish(srv_call *c);

#endif
