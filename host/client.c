/* client: blocking unary gRPC calls to the engine's services (client.h). */
#include "client.h"

#include <grpc/byte_buffer_reader.h>
#include <grpc/grpc_security.h>
#include <grpc/support/alloc.h>
#include <grpc/support/time.h>
#include <string.h>

/* The largest answer taken, in bytes: a package schema can be tens of
   megabytes (the SDKs' limit). */
enum { MAX_ANSWER = 400 * 1024 * 1024 };

/* Returns the name of a gRPC status code ("UNAVAILABLE"). */
static const char *client_status_name(grpc_status_code s) {
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

bool client_call(const char *target, const char *method, const ProtobufCMessage *msg,
                 int timeout_s, buf *answer, grpc_status_code *status, herr *e) {
  grpc_channel_credentials *creds = grpc_insecure_credentials_create();
  grpc_arg arg = {.type = GRPC_ARG_INTEGER,
                  .key = (char *)GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH,
                  .value.integer = MAX_ANSWER};
  grpc_channel_args args = {1, &arg};
  grpc_channel *ch = grpc_channel_create(target, creds, &args);
  grpc_channel_credentials_release(creds);
  grpc_completion_queue *cq = grpc_completion_queue_create_for_pluck(NULL);
  gpr_timespec deadline =
      timeout_s > 0 ? gpr_time_add(gpr_now(GPR_CLOCK_MONOTONIC),
                                   gpr_time_from_seconds(timeout_s, GPR_TIMESPAN))
                    : gpr_inf_future(GPR_CLOCK_MONOTONIC);
  grpc_slice m = grpc_slice_from_static_string(method);
  grpc_call *call =
      grpc_channel_create_call(ch, NULL, GRPC_PROPAGATE_DEFAULTS, cq, m, NULL, deadline, NULL);

  size_t len = protobuf_c_message_get_packed_size(msg);
  grpc_slice s = grpc_slice_malloc(len);
  protobuf_c_message_pack(msg, GRPC_SLICE_START_PTR(s));
  grpc_byte_buffer *req = grpc_raw_byte_buffer_create(&s, 1);
  grpc_slice_unref(s);
  grpc_byte_buffer *resp = NULL;
  grpc_metadata_array initial_md, trailing_md;
  grpc_metadata_array_init(&initial_md);
  grpc_metadata_array_init(&trailing_md);
  grpc_status_code code = GRPC_STATUS_UNKNOWN;
  grpc_slice details = grpc_empty_slice();

  grpc_op ops[6];
  memset(ops, 0, sizeof ops);
  ops[0].op = GRPC_OP_SEND_INITIAL_METADATA;
  ops[1].op = GRPC_OP_SEND_MESSAGE;
  ops[1].data.send_message.send_message = req;
  ops[2].op = GRPC_OP_SEND_CLOSE_FROM_CLIENT;
  ops[3].op = GRPC_OP_RECV_INITIAL_METADATA;
  ops[3].data.recv_initial_metadata.recv_initial_metadata = &initial_md;
  ops[4].op = GRPC_OP_RECV_MESSAGE;
  ops[4].data.recv_message.recv_message = &resp;
  ops[5].op = GRPC_OP_RECV_STATUS_ON_CLIENT;
  ops[5].data.recv_status_on_client.trailing_metadata = &trailing_md;
  ops[5].data.recv_status_on_client.status = &code;
  ops[5].data.recv_status_on_client.status_details = &details;
  bool ok = false;
  if (grpc_call_start_batch(call, ops, 6, call, NULL) == GRPC_CALL_OK) {
    grpc_event ev = grpc_completion_queue_pluck(cq, call, gpr_inf_future(GPR_CLOCK_MONOTONIC), NULL);
    ok = ev.type == GRPC_OP_COMPLETE;
  }
  const char *name = method[0] == '/' ? method + 1 : method;
  if (!ok) {
    herr_set(e, "%s at %s: the call could not be made", name, target);
  } else if (code != GRPC_STATUS_OK) {
    char *d = grpc_slice_to_c_string(details);
    herr_set(e, "%s at %s: the engine answered %s: %s", name, target, client_status_name(code), d);
    gpr_free(d);
    ok = false;
  } else if (resp) {
    grpc_byte_buffer_reader reader;
    if (grpc_byte_buffer_reader_init(&reader, resp)) {
      grpc_slice all = grpc_byte_buffer_reader_readall(&reader);
      pcl__buf_append(answer, GRPC_SLICE_START_PTR(all), GRPC_SLICE_LENGTH(all));
      grpc_slice_unref(all);
      grpc_byte_buffer_reader_destroy(&reader);
    } else {
      ok = herr_set(e, "%s at %s: the answer could not be read", name, target);
    }
  }
  if (status) {
    *status = ok ? GRPC_STATUS_OK : code;
  }
  grpc_byte_buffer_destroy(req);
  if (resp) {
    grpc_byte_buffer_destroy(resp);
  }
  grpc_metadata_array_destroy(&initial_md);
  grpc_metadata_array_destroy(&trailing_md);
  grpc_slice_unref(details);
  grpc_call_unref(call);
  grpc_completion_queue_shutdown(cq);
  while (grpc_completion_queue_pluck(cq, NULL, gpr_inf_future(GPR_CLOCK_MONOTONIC), NULL).type !=
         GRPC_QUEUE_SHUTDOWN) {
  }
  grpc_completion_queue_destroy(cq);
  grpc_channel_destroy(ch);
  return ok;
}
