/* rpc.h: what the gRPC engine backend (engine_grpc.c), its value encoding
 * (rpc_value.c), the unit tests and the fuzz target share: the calls of
 * Pulumi's engine protocol, property values as google.protobuf.Struct and
 * the decoding of the engine's answers (docs/engine.md).
 *
 * The generated message code (build/gen/proto, from runtime/engine/proto/) is
 * local to libpclrt, so code outside the library reaches it only through
 * the pcl__ functions below, which work on packed bytes. */
#ifndef PCL_RPC_H
#define PCL_RPC_H

#include <grpc/grpc.h>

#include "engine/engine.h"
#include "pcl_engine.h"
#include "google/protobuf/empty.pb-c.h"
#include "google/protobuf/struct.pb-c.h"
#include "pulumi/pulumirpc.pb-c.h"

/* The calls the runtime makes, once: X(NAME, service, method). */
#define PCL__RPC_METHODS(X)                                                                        \
  X(SUPPORTS_FEATURE, "ResourceMonitor", "SupportsFeature")                                        \
  X(DEPLOYMENT_INFO, "ResourceMonitor", "GetDeploymentInfo")                                       \
  X(REGISTER, "ResourceMonitor", "RegisterResource")                                               \
  X(READ, "ResourceMonitor", "ReadResource")                                                       \
  X(OUTPUTS, "ResourceMonitor", "RegisterResourceOutputs")                                         \
  X(INVOKE, "ResourceMonitor", "Invoke")                                                           \
  X(CALL, "ResourceMonitor", "Call")                                                               \
  X(PACKAGE, "ResourceMonitor", "RegisterPackage")                                                 \
  X(EXISTS, "ResourceMonitor", "ExistsResource")                                                   \
  X(RESOURCE_HOOK, "ResourceMonitor", "RegisterResourceHook")                                      \
  X(ERROR_HOOK, "ResourceMonitor", "RegisterErrorHook")                                            \
  X(SHUTDOWN, "ResourceMonitor", "SignalAndWaitForShutdown")                                       \
  X(LOG, "Engine", "Log")                                                                          \
  X(SET_ROOT, "Engine", "SetRootResource")                                                         \
  X(REQUIRE_VERSION, "Engine", "RequirePulumiVersion")

typedef enum pcl__rpc_method {
#define PCL__RPC_ENUM(name, service, method) PCL__RPC_##name,
  PCL__RPC_METHODS(PCL__RPC_ENUM)
#undef PCL__RPC_ENUM
  PCL__RPC_NMETHODS /* The number of calls. */
} pcl__rpc_method;

/* Returns the gRPC path of m ("/pulumirpc.ResourceMonitor/Invoke"), static. */
const char *pcl__rpc_path(pcl__rpc_method m);
/* Returns whether m is a call of the Engine service (PULUMI_ENGINE) rather
 * than of the ResourceMonitor (PULUMI_MONITOR). */
bool pcl__rpc_on_engine(pcl__rpc_method m);

/* -- Property values (rpc_value.c). */

/* How values are encoded for one request: what the monitor accepts, and
 * what the encoding met that the caller reports. */
typedef struct pcl__rpc_enc {
  bool secrets;        /* Keep secrets as secret objects (else the plain value). */
  bool resources;      /* Keep resource references (else the id, or the URN of
                          a reference without an id). */
  bool byte_strings;   /* Send a string that is not UTF-8 as a byte string
                          (else refuse it). */
  size_t rounded;      /* Out: ints that a double cannot hold, sent rounded. */
  char *first_rounded; /* Out: the decimal text of the first one (owned), or NULL. */
  pcl_error *err;      /* Out: the first error (owned), or NULL; it names the
                          property where the encoding met it. */
  pcl_value *where;    /* Internal: while the first error unwinds, the LIST of
                          path segments to where it was met (owned), or NULL. */
} pcl__rpc_enc;
/* Frees what the encoding recorded in enc (not enc itself). */
void pcl__rpc_enc_clear(pcl__rpc_enc *enc);

/* Returns the message of v (borrowed), allocated with malloc so that
 * protobuf_c_message_free_unpacked frees it; NULL with enc->err when v
 * holds what the protocol cannot carry (an infinite number, a string that
 * is not UTF-8 when enc->byte_strings is not set, an eventual value). */
Google__Protobuf__Value *pcl__rpc_value_new(const pcl_value *v, pcl__rpc_enc *enc);
/* Like pcl__rpc_value_new for a MAP (a NULL map gives an empty Struct). */
Google__Protobuf__Struct *pcl__rpc_struct_new(const pcl_value *map, pcl__rpc_enc *enc);
/* Returns the output value of v (an output's value, borrowed) with the
 * dependencies deps (may be NULL): {sig: output, value (left out when v is
 * unknown), secret: true (when v is secret), dependencies: [URNs]}. */
Google__Protobuf__Value *pcl__rpc_output_value_new(const pcl_value *v, const pcl_deps *deps,
                                                   pcl__rpc_enc *enc);
/* Like pcl__rpc_struct_new, but each member of map (borrowed) that has
 * dependencies (deps[i] for the i-th member; deps may be NULL), or is
 * unknown or secret, becomes the output value of pcl__rpc_output_value_new,
 * as the SDKs send a remote component's inputs and a call's arguments. */
Google__Protobuf__Struct *pcl__rpc_output_struct_new(const pcl_value *map, pcl_deps *const *deps,
                                                     pcl__rpc_enc *enc);
/* Returns the text of the property path segs (a LIST of STRING names and
 * keys and INT indexes; owned, free()): names joined with ".", indexes and
 * other keys in brackets ("tags.Name", "list[0]", "tags[\"a.b\"]"). */
char *pcl__rpc_path_text(const pcl_value *segs);

/* Returns the value of the message v (owned): signature objects become
 * SECRET, RESOURCE, ASSET and ARCHIVE values, byte strings the STRING of
 * their bytes, output values their value (UNKNOWN when absent, SECRET when
 * secret), the unknown sentinel UNKNOWN, integral numbers of at most 2^53
 * in magnitude ints.  NULL with *err for an object with a signature it does
 * not know or a malformed one. */
pcl_value *pcl__rpc_value_get(const Google__Protobuf__Value *v, pcl_error **err);
/* Like pcl__rpc_value_get for a Struct (NULL gives an empty MAP). */
pcl_value *pcl__rpc_struct_get(const Google__Protobuf__Struct *s, pcl_error **err);

/* Returns the packed google.protobuf.Struct of the MAP v (owned bytes, free())
 * and its length in *len; NULL with enc->err. */
uint8_t *pcl__rpc_struct_pack(const pcl_value *v, pcl__rpc_enc *enc, size_t *len);
/* Returns the MAP of the packed Struct data[0..len) (owned); NULL with *err
 * when the bytes do not decode. */
pcl_value *pcl__rpc_struct_unpack(const uint8_t *data, size_t len, pcl_error **err);

/* Returns the `args` of a hook call (program.md 10.3) from its packed
 * ResourceHookRequest (ErrorHookRequest when error_hook) data[0..len): urn,
 * id, name, type and the inputs and outputs it carries, secrets removed
 * (owned MAP); NULL with *err when the bytes do not decode. */
pcl_value *pcl__rpc_hook_args(const uint8_t *data, size_t len, bool error_hook, pcl_error **err);

/* -- The engine's answers. */

/* What an answer says, by call (fields that do not apply stay zero). */
typedef struct pcl__rpc_answer {
  char *urn;         /* RegisterResource, ReadResource: the URN (owned). */
  char *id;          /* RegisterResource, ReadResource: the id, "" when none (owned). */
  pcl_value *value;  /* The object, properties or return value (owned MAP). */
  bool failed;       /* RegisterResource, ReadResource: the result was not SUCCESS. */
  bool unknown;      /* RegisterResource, ReadResource: the step was not run, so
                        its outputs are unknown; ExistsResource: existence could
                        not be decided. */
  bool exists;       /* ExistsResource: the resource exists. */
  pcl_value *output_deps; /* RegisterResource: MAP output name -> LIST of the URNs
                             (STRINGs) the engine says it depends on (a remote
                             component's outputs on its children), or NULL. */
  char *failures;    /* Invoke, Call: the check failures as text (owned), or NULL. */
  bool supported;    /* SupportsFeature: hasSupport. */
  uint32_t features; /* GetDeploymentInfo: bit i set for ResourceMonitorFeature i < 32. */
  char *ref;         /* RegisterPackage: the package reference (owned). */
} pcl__rpc_answer;

/* Decodes the packed answer data[0..len) to the call m into *out (zeroed
 * first); false with *err when it does not decode (malformed bytes, nesting
 * deeper than the decoder takes, a value it cannot read). */
bool pcl__rpc_answer_decode(pcl__rpc_method m, const uint8_t *data, size_t len,
                            pcl__rpc_answer *out, pcl_error **err);
/* Frees what *a holds (not a itself). */
void pcl__rpc_answer_free(pcl__rpc_answer *a);

/* -- Completion tags.  The gRPC backend's queue carries the completions
 * of its calls and of the callbacks server: every tag starts with this head,
 * which says whose it is. */
typedef enum pcl__tag_origin { PCL__TAG_RPC, PCL__TAG_CALLBACK } pcl__tag_origin;
typedef struct pcl__cq_tag {
  pcl__tag_origin origin; /* Whose completion it is. */
} pcl__cq_tag;

/* -- The Callbacks service the program serves to the engine (callbacks.c). */

typedef struct pcl__callbacks pcl__callbacks;
/* Starts serving on 127.0.0.1 (a free port), the completions arriving on cq
 * (borrowed) with PCL__TAG_CALLBACK tags; a call counts in *outstanding
 * from its arrival to its end.  NULL with *err when it cannot listen. */
pcl__callbacks *pcl__callbacks_new(grpc_completion_queue *cq, size_t *outstanding,
                                   pcl_error **err);
/* Returns the address the engine reaches the server at (borrowed). */
const char *pcl__callbacks_target(const pcl__callbacks *s);
/* Serves hook h (taken), an error hook when error_hook: returns the token
 * the engine calls it by (borrowed). */
const char *pcl__callbacks_add(pcl__callbacks *s, pcl_hook *h, bool error_hook);
/* Handles the completion of tag (a PCL__TAG_CALLBACK one); ok is its
 * success.  A received call's hook runs as a task of the loop. */
void pcl__callbacks_complete(pcl__callbacks *s, void *tag, bool ok);
/* Stops taking calls and cancels those under way; their completions still
 * arrive until pcl__callbacks_stopped. */
void pcl__callbacks_shutdown(pcl__callbacks *s);
/* Returns whether, after pcl__callbacks_shutdown, no completion of s is
 * still to come. */
bool pcl__callbacks_stopped(const pcl__callbacks *s);
/* Frees s (NULL is ignored) once it stopped, and the hooks it serves. */
void pcl__callbacks_free(pcl__callbacks *s);

/* -- The backend (engine_grpc.c). */

/* How the gRPC backend reaches the engine (docs/engine.md). */
typedef struct pcl__grpc_options {
  const char *monitor;      /* PULUMI_MONITOR's address. */
  const char *engine;       /* PULUMI_ENGINE's address, or NULL or "". */
  bool preview;             /* The run is a preview. */
  size_t parallel;          /* Registrations and reads in flight at most
                               (PULUMI_PARALLEL; 0: no bound). */
  unsigned deadline_ms;     /* The time the start-up requests are given
                               (PCL_ENGINE_DEADLINE). */
  unsigned keepalive_ms;    /* The time between the transport's keepalive
                               pings while calls are in flight
                               (PCL_ENGINE_KEEPALIVE); a ping not answered
                               within it (at most 20 s) ends the
                               connection. */
  const char *cwd;          /* The program's working directory, against
                               which relative PCL file names are resolved in
                               the requests' sourcePosition (copied). */
} pcl__grpc_options;

/* The defaults of the options above: a minute for the start-up requests;
 * five minutes between pings, the least interval Go gRPC servers accept by
 * default (more frequent pings get the connection closed). */
#define PCL__ENGINE_DEADLINE_MS 60000u
#define PCL__ENGINE_KEEPALIVE_MS 300000u

/* Returns the gRPC engine backend for the run described by PULUMI_MONITOR
 * and the other PULUMI_* variables (docs/engine.md), after asking the
 * monitor what it supports; NULL with *err when the monitor cannot be
 * reached, does not answer in time, or answers what cannot be read. */
pcl_engine *pcl__engine_grpc_new(const pcl__grpc_options *o, pcl_error **err);

#endif
