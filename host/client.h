/* client: the calls the language host makes to the engine's services
 * (Engine.Log, codegen.Loader.GetSchema, grpc.health.v1.Health.Check), as
 * blocking unary gRPC calls from the thread that needs the answer.
 *
 * Each call opens its own channel and completion queue and waits for the
 * answer (or its deadline); the engine's address is local and the calls
 * are few (a handful per Run), so nothing is shared between threads. */
#ifndef HOST_CLIENT_H
#define HOST_CLIENT_H

#include <grpc/grpc.h>
#include <protobuf-c/protobuf-c.h>
#include <stdbool.h>

#include "util.h"

/* Calls method (such as "/codegen.Loader/GetSchema") at target with the
 * request msg, waiting at most timeout_s seconds.  On status OK returns
 * true with the answer's bytes in *answer; otherwise returns false with
 * *status set (when not NULL) and e saying what happened
 * ("codegen.Loader/GetSchema: the engine answered UNAVAILABLE: ..."). */
bool client_call(const char *target, const char *method, const ProtobufCMessage *msg,
                 int timeout_s, buf *answer, grpc_status_code *status, herr *e);

#endif
