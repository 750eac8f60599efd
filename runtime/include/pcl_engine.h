/* pcl_engine.h: the engine interface of libpclrt (the requests a run sends
 * and the operations every backend implements), the embedded engine and its
 * mocks.  Tests and embedders use it to install mocks or to run a program
 * against an engine of their own. */
#ifndef PCL_ENGINE_API_H
#define PCL_ENGINE_API_H

#include "pcl.h"

#ifdef __cplusplus
extern "C" {
#endif

/* -- The engine interface.  Requests are borrowed for the call; a backend
 * copies what it keeps and answers later through the loop (never inline),
 * calling the completion exactly once. */

/* A parameterized package: a PCL `package` block with a parameterization
 * (program.md §9).  It is a package of its own, named by the
 * parameterization: every type and function token whose first component is
 * that name, and its provider type pulumi:providers:<name>, belong to it.
 * The engine serves it with the base provider's plugin, parameterized with
 * value, once the program registered it (register_package). */
typedef struct pcl_package {
  const char *base_name;    /* The base provider's name (baseProviderName). */
  const char *base_version; /* Its version (baseProviderVersion), or NULL. */
  const char *download_url; /* Its plugin's download URL, or NULL. */
  const char *name;         /* The package's name (the parameterization's). */
  const char *version;      /* Its version (the parameterization's), or NULL. */
  const char *value;        /* The parameter: the bytes the block gives in base64,
                               decoded (they may hold NULs). */
  size_t value_len;         /* Their number. */
  bool extension;           /* Its schema says it extends the base provider
                               (extensionParameterization) rather than replacing
                               it: RegisterPackage sends the parameterization as
                               the request's extension. */
} pcl_package;

/* A hook block of the program (program.md 12), which a backend that runs
 * hooks keeps and runs with pcl_hook_run each time the engine asks. */
typedef struct pcl_hook pcl_hook;
/* A hook's registration. */
typedef struct pcl_hook_request {
  const char *name;   /* The hook's name, as the hooks option refers to it. */
  bool error_hook;    /* An error hook (onError), else a resource hook. */
  bool on_dry_run;    /* A resource hook that runs in previews too. */
  bool ignore_errors; /* A resource hook whose failure is only a warning. */
  pcl_hook *hook;     /* The hook, which the backend owns from then on and
                         frees with pcl_hook_free. */
} pcl_hook_request;
/* How running a hook ended. */
typedef enum pcl_hook_outcome {
  PCL_HOOK_SUCCEEDED, /* The command exited with status 0. */
  PCL_HOOK_FAILED,    /* It could not start, or ended otherwise. */
  PCL_HOOK_BROKEN     /* The command could not be computed (a failing
                         expression, not a list of strings, empty, unknown). */
} pcl_hook_outcome;
/* A hook run's completion: message (borrowed) says why it did not succeed
 * (NULL when it did). */
typedef void (*pcl_hook_cb)(void *data, pcl_hook_outcome outcome, const char *message);
/* Runs hook h: computes its command with `args` bound to args (a MAP,
 * borrowed: urn, id, name, type and the inputs and outputs the engine
 * passed), then runs it (argv form, no shell, in the program's working
 * directory, its output captured for the message) and completes cb from
 * the loop, never inline. */
void pcl_hook_run(pcl_hook *h, pcl_value *args, pcl_hook_cb cb, void *data);
/* Frees h (NULL is ignored). */
void pcl_hook_free(pcl_hook *h);

/* A resource registration or read. */
typedef struct pcl_resource_request {
  const char *type;          /* Type token. */
  const char *name;          /* Logical name. */
  pcl_resource_kind kind;    /* Custom, component or remote. */
  bool read;                 /* A read of an existing resource. */
  pcl_value *id;             /* Read: the id (STRING); else NULL. */
  const char *parent;        /* Parent URN, NULL for the stack's children. */
  const char *provider;      /* Provider reference "<urn>::<id>", or NULL. */
  const char *version;       /* Package version, or NULL. */
  const char *plugin_download_url; /* Download URL, or NULL. */
  pcl_value *inputs;         /* MAP; nested SECRET, UNKNOWN, RESOURCE kept. */
  pcl_value *remote_inputs;  /* A remote component: the inputs again, each output inside
                                them (at any depth) a settled EVENTUAL carrying its own
                                dependencies, for an engine that takes output values;
                                else NULL. */
  pcl_deps *const *prop_deps; /* Per input entry (parallel to inputs). */
  const pcl_deps *deps;      /* All dependencies (inputs and dependsOn). */
  pcl_value *options;        /* MAP of recorded options (see docs/snapshot.md). */
  pcl_value *providers;      /* MAP package -> provider reference the resource passes to
                                its children (its providers option or its parent's), or NULL. */
  const char *package_ref;   /* The reference register_package answered for the
                                parameterized package of the type, or NULL when the
                                type's package is not one. */
  const char *file;          /* The PCL file of the block that made the request, as its name
                                was given to pclc (relative names are relative to the
                                program's working directory), or NULL when unknown. */
  unsigned line, column;     /* The block's 1-based position in file (0 when unknown). */
  signed char protect;       /* protect as the resource or a parent set it: 1 true,
                                0 false, -1 set by none (options has it as false). */
  signed char retain;        /* retainOnDelete likewise. */
} pcl_resource_request;

/* An invoke or a method call. */
typedef struct pcl_invoke_request {
  const char *token;         /* Function or method token. */
  pcl_value *args;           /* MAP; nested SECRET and RESOURCE kept; a call
                                has its receiver as "__self__".  For an engine that
                                takes output values in the request (invoke_output_values,
                                call_output_values), each output inside is a settled
                                EVENTUAL. */
  const char *provider;      /* Provider reference "<urn>::<id>", or NULL. */
  const char *version;       /* Package version (invoke option), or NULL. */
  const char *plugin_download_url; /* Download URL (invoke option), or NULL. */
  pcl_value *arg_deps;       /* A call: MAP argument name -> LIST of the URNs it depends on
                                (resources passed by reference left out); else NULL. */
  const char *package_ref;   /* The reference of the token's parameterized package (as
                                pcl_resource_request.package_ref), or NULL. */
  const char *file;          /* The PCL file of the call that made the request (as
                                pcl_resource_request.file), or NULL when unknown. */
  unsigned line, column;     /* The call's 1-based position in file (0 when unknown). */
} pcl_invoke_request;

/* A resourceExists check: whether a resource of type with id exists. */
typedef struct pcl_exists_request {
  const char *type;        /* Type token. */
  const char *id;          /* The id (never empty: an empty id is not asked about). */
  pcl_value *state;        /* MAP of the state the provider's Read is given, or NULL. */
  const char *package_ref; /* The reference of the type's parameterized package (as
                              pcl_resource_request.package_ref), or NULL. */
} pcl_exists_request;

/* The answer to a registration. */
typedef struct pcl_resource_result {
  const char *urn;     /* The URN. */
  pcl_value *id;       /* STRING id, UNKNOWN in preview, null for components. */
  pcl_value *outputs;  /* MAP of outputs (nested SECRET and UNKNOWN kept). */
  bool unknown;        /* The engine did not run the step (a create a targeted
                          update skipped) or the step failed and the engine
                          goes on: the resource's outputs are unknown. */
  pcl_value *output_deps; /* MAP output name -> LIST of the URN STRINGs the output
                             depends on beyond the resource itself (a remote
                             component's outputs on its children), or NULL. */
} pcl_resource_result;

/* A completion: exactly one of res and err is not NULL (both borrowed). */
typedef void (*pcl_resource_cb)(void *data, const pcl_resource_result *res, const pcl_error *err);
/* The answer to an invoke, call or output registration: a MAP (borrowed),
 * or NULL with err. */
typedef void (*pcl_engine_cb)(void *data, pcl_value *result, const pcl_error *err);


/* The functions of an engine backend. */
typedef struct pcl_engine_ops {
  const char *name; /* Backend name, e.g. "embedded". */
  /* Registers or reads a resource. */
  void (*register_resource)(pcl_engine *e, const pcl_resource_request *req, pcl_resource_cb cb,
                            void *data);
  /* Invokes a function. */
  void (*invoke)(pcl_engine *e, const pcl_invoke_request *req, pcl_engine_cb cb, void *data);
  /* Calls a method. */
  void (*call)(pcl_engine *e, const pcl_invoke_request *req, pcl_engine_cb cb, void *data);
  /* Registers the outputs (MAP) of the resource urn (the stack or a
   * component). */
  void (*register_outputs)(pcl_engine *e, const char *urn, pcl_value *outputs, pcl_engine_cb cb,
                           void *data);
  /* Logs a message about urn (may be NULL). */
  void (*log)(pcl_engine *e, pcl_log_severity sev, const char *urn, const char *msg);
  /* Completes every request still in flight with err (at the end of a run
   * that stalled or failed). */
  void (*cancel)(pcl_engine *e, const pcl_error *err);
  /* Returns the snapshot JSON text of the run so far (owned, free();
   * docs/snapshot.md) recording error (may be NULL), or NULL when the
   * backend keeps no snapshot. */
  char *(*snapshot)(pcl_engine *e, const pcl_error *error);
  /* Frees the engine. */
  void (*destroy)(pcl_engine *e);
  /* Ends the run, whose error is err (NULL on success): a backend hosted by
   * a deployment engine reports err to it (setting error_reported once it
   * arrived) or signals that the program is done.  pcl_main runs the loop
   * afterwards.  NULL when the backend has nothing to do. */
  void (*finish)(pcl_engine *e, const pcl_error *err);
  /* Checks the engine's version against the range (pulumi {
   * requiredVersionRange }) and completes with null or an error; NULL when
   * the runtime checks it against PCL_CLI_VERSION itself. */
  void (*require_version)(pcl_engine *e, const char *range, pcl_engine_cb cb, void *data);
  /* Registers the parameterized package pkg and completes with the STRING
   * reference that the requests of the package then carry (package_ref),
   * or with an error.  The run registers each package once, before the
   * first request of it. */
  void (*register_package)(pcl_engine *e, const pcl_package *pkg, pcl_engine_cb cb, void *data);
  /* Answers whether the resource of req exists: a BOOL, UNKNOWN when the
   * engine cannot tell, or an error. */
  void (*exists_resource)(pcl_engine *e, const pcl_exists_request *req, pcl_engine_cb cb,
                          void *data);
  /* Registers the hook of req (taking req->hook) and completes with null or
   * an error; NULL when the backend does not run hooks (the run then frees
   * the hook and a hooks option only names it). */
  void (*register_hook)(pcl_engine *e, const pcl_hook_request *req, pcl_engine_cb cb,
                        void *data);
} pcl_engine_ops;

/* The common head of every engine backend. */
struct pcl_engine {
  const pcl_engine_ops *ops; /* The backend's functions. */
  bool hosted;          /* A deployment engine hosts the run and shows its stack outputs:
                           pcl_main does not print them. */
  bool error_reported;  /* The run's error reached the engine, which shows it: pcl_main
                           exits with status 32 without printing it, as the SDKs do. */
  bool finish_failed;   /* Finishing a run that succeeded failed (the engine did not
                           take the signal that the program is done); the backend
                           printed why: pcl_main exits with status 1. */
  bool invoke_output_values; /* The engine takes an invoke's arguments with every output
                                inside them as a settled EVENTUAL (sent as an output value
                                with its own dependencies), and answers with the outputs
                                the provider returned so (EVENTUALs carrying their
                                dependencies): the run then keeps the dependencies and
                                secrecy of each value rather than those of the whole. */
  bool call_output_values;   /* Likewise for a method call's arguments and answer. */
};

/* -- The embedded engine (runtime/engine/engine_embedded.c). */

/* Mock callbacks for the embedded engine, in the spirit of Pulumi's unit
 * test mocks.  A NULL function means the default behaviour. */
/* A registration a mock answers later (pcl_mock_defer). */
typedef struct pcl_mock_reply pcl_mock_reply;
typedef struct pcl_mock_resource_args {
  const char *type;     /* Type token. */
  const char *name;     /* Logical name. */
  const char *urn;      /* The URN the engine made. */
  pcl_value *inputs;    /* Inputs (borrowed). */
  pcl_value *id;        /* Read: the id asked for; else NULL. */
  const char *provider; /* Provider reference or NULL. */
  bool custom;          /* Custom resource (or remote component). */
  bool preview;         /* The run is a preview. */
  pcl_mock_reply *reply; /* The engine's handle for pcl_mock_defer. */
  pcl_value *prop_deps; /* Remote component (Construct): MAP input name -> LIST of the
                           URN strings it depends on (borrowed); else NULL. */
  pcl_value *providers; /* Remote component (Construct): MAP package -> provider reference
                           for its children (borrowed), or NULL. */
  const pcl_package *package; /* The parameterized package of the type, as the program
                                 registered it (borrowed), or NULL when the type's package
                                 is not one. */
} pcl_mock_resource_args;

struct pcl_mocks {
  /* Decides a new resource's id and state: stores owned values in *id
   * (NULL: the default id) and *state (NULL: echo the inputs) and returns
   * true; or returns false with *err to fail the registration.  In a
   * preview (args->preview) the answer is the provider's preview Create:
   * the state is taken as it is and the id only when one is stored (NULL
   * or "": unknown). */
  bool (*new_resource)(void *data, const pcl_mock_resource_args *args, pcl_value **id,
                       pcl_value **state, pcl_error **err);
  /* Answers an invoke (is_call false) or method call: returns the owned
   * result MAP, or NULL with *err; *hang = true leaves it unanswered. */
  pcl_value *(*call)(void *data, const char *token, pcl_value *args, bool is_call, bool *hang,
                     pcl_error **err);
  void *data; /* Passed to both. */
};

/* Returns, while a call mock runs, the provider reference "<urn>::<id>"
 * the engine chose for the invoke or method call it answers (explicit,
 * inherited from the parent, or the package's default provider; borrowed),
 * or NULL (none, or no call mock running). */
const char *pcl_mock_call_provider(void);
/* Returns, while a call mock runs, the parameterized package of the token it
 * answers, as the program registered it (borrowed), or NULL (the token's
 * package is not one, or no call mock running). */
const pcl_package *pcl_mock_call_package(void);
/* Returns, while a call mock answers a method call, the MAP (borrowed) from
 * each argument name to the LIST of URNs it depends on (a provider's Call
 * gets it as ArgDependencies), or NULL. */
pcl_value *pcl_mock_call_arg_deps(void);

/* Called by a new_resource mock (which then returns true, storing nothing)
 * to answer later: returns the reply handle to pass to
 * pcl_mock_reply_resource from a loop callback or a later request, or
 * never, to leave the registration pending.  Lets a mock see several
 * registrations in flight before it answers any. */
pcl_mock_reply *pcl_mock_defer(const pcl_mock_resource_args *args);
/* Answers the deferred registration reply with id and state (borrowed, as
 * new_resource would store them; NULL for the defaults) or with err
 * (borrowed) to fail it.  reply is used up. */
void pcl_mock_reply_resource(pcl_mock_reply *reply, pcl_value *id, pcl_value *state,
                             const pcl_error *err);

/* Settings of the embedded engine. */
typedef struct pcl_embedded_config {
  const char *project, *stack, *organization; /* Names used in URNs. */
  bool preview;                               /* Dry run. */
  const pcl_mocks *mocks;                     /* C mocks (borrowed), or NULL. */
  const char *mocks_file;                     /* JSON mocks file, or NULL. */
  pcl_value *stack_references; /* MAP "org/proj/stack" -> {outputs, secretOutputNames} or
                                  just the outputs (docs/mocks.md), or NULL. */
  pcl_value *config; /* MAP of the stack config, full key "<ns>:<name>" -> STRING (SECRET
                        when secret), or NULL: a default provider of package <pkg> gets
                        the "<pkg>:" entries as inputs, like a real engine. */
} pcl_embedded_config;

/* Returns a new embedded engine, or NULL with *err (a mocks file that
 * cannot be read or has the wrong shape, a stack reference of the wrong
 * shape). */
pcl_engine *pcl_engine_embedded_new(const pcl_embedded_config *cfg, pcl_error **err);
/* Returns the snapshot JSON text (owned, free()) of an embedded engine
 * (docs/snapshot.md): every resource registered so far and the stack
 * outputs registered, if any; error (may be NULL) is recorded in it. */
char *pcl_engine_embedded_snapshot(pcl_engine *e, const pcl_error *error);
/* Returns the URN of type (qualified by the parent types) and name. */
char *pcl_urn_make(const char *stack, const char *project, const char *parent_urn,
                   const char *type, const char *name);


#ifdef __cplusplus
}
#endif

#endif
