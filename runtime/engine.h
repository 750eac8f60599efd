/* engine.h: what the engine backends (engine_embedded.c, engine_mock.c,
 * snapshot.c) and the run (resource.c, main.c) share beyond the public headers: the
 * snapshot value encoding, content hashes, the JSON mocks table and duration
 * parsing.
 *
 * The snapshot encoding (docs/snapshot.md) is the one of the conformance
 * corpus: {"secret": v}, {"unknown": true}, {"resource_ref": {urn, id}},
 * {"asset": {...}}, {"archive": {...}}; ints keep every digit. */
#ifndef PCL_ENGINE_H
#define PCL_ENGINE_H

#include "pcl_gen.h"

/* Appends the snapshot JSON of v to b; indent >= 0 pretty-prints at that
 * depth, -1 writes compact JSON.  mask_secrets writes "[secret]" in place of
 * every secret.  An EVENTUAL (never expected here) is written as unknown. */
void pcl__snap_encode(pcl_strbuf *b, const pcl_value *v, int indent, bool mask_secrets);
/* Returns v (borrowed) with the snapshot wrappers ({"secret": v},
 * {"unknown": true}, {"resource_ref": ...}) turned into SECRET, UNKNOWN and
 * RESOURCE values (owned). */
pcl_value *pcl__snap_decode(pcl_value *v);

/* Returns the string value of the NUL-terminated s (owned): a pure-ASCII s
 * without checks, anything else validated and normalised (snapshot.c). */
pcl_value *pcl__str_fast(const char *s);

/* A source of completions from outside the loop (the gRPC backend's
 * completion queue): handles the completions that are ready (queueing
 * tasks), first waiting for one when wait is set and operations are
 * outstanding; returns whether operations are still outstanding. */
typedef bool (*pcl__sched_poll_fn)(void *data, bool wait);
/* Makes fn (NULL: none) the loop's poller: pcl_sched_run polls it without
 * waiting every few tasks, and when no task is queued it waits on it until
 * a completion queues one or nothing is outstanding (sched.c). */
void pcl__sched_set_poller(pcl__sched_poll_fn fn, void *data);

/* Returns whether version satisfies the version range (the syntax of
 * pulumi { requiredVersionRange }, config.c); *ok is cleared when the range
 * does not parse. */
bool pcl__version_satisfies(const char *version, const char *range, bool *ok);

/* Stores in hex[65] the lowercase hex SHA-256 the engine records as the
 * content hash of an ASSET or ARCHIVE (hash.c: contents of assets, bytes of
 * archive files, Go's tar stream of asset maps and directories) and returns
 * true; false when the contents cannot be read here (remote, missing or
 * unreadable), and the hash is then left out. */
bool pcl__asset_hash(const pcl_value *asset, char hex[65]);
bool pcl__archive_hash(const pcl_value *archive, char hex[65]);
/* Returns path cleaned as Go's path.Clean does (owned): repeated slashes,
 * "." elements and ".." elements after a name removed; "." when empty. */
char *pcl__go_clean(const char *path);

/* Parses a Go duration ("5m", ".2m", "1h30m", "10s") into seconds; false
 * when the text is not a duration. */
bool pcl__parse_duration(const char *s, double *seconds);

/* The JSON mocks of docs/mocks.md, parsed. */
typedef struct pcl__json_mocks pcl__json_mocks;
/* Reads the mocks file path; NULL and *err when it cannot be read or parsed. */
pcl__json_mocks *pcl__json_mocks_load(const char *path, pcl_error **err);
/* Frees m (NULL is ignored). */
void pcl__json_mocks_free(pcl__json_mocks *m);

/* What a mock says about a resource. */
typedef struct pcl__mock_answer {
  bool found;          /* A mock entry matched. */
  bool hang;           /* Never answer. */
  pcl_value *id;       /* Borrowed id, or NULL for the default. */
  pcl_value *outputs;  /* Borrowed outputs (decoded), or NULL to echo. */
  bool merge;          /* Merge outputs over the inputs (else replace). */
  const char *error;   /* Failure message, or NULL. */
} pcl__mock_answer;
/* Looks up the entry for resource type/name (a "type::name" key wins over a
 * "type" key). */
pcl__mock_answer pcl__json_mocks_resource(const pcl__json_mocks *m, const char *type,
                                          const char *name);
/* Looks up the invoke (is_call false) or call token with args: the first
 * entry whose "args" (if any) are all equal to args' entries. */
pcl__mock_answer pcl__json_mocks_invoke(const pcl__json_mocks *m, const char *token,
                                        pcl_value *args, bool is_call);
/* Returns the stack references of the mocks file (borrowed MAP) or NULL. */
pcl_value *pcl__json_mocks_stack_refs(const pcl__json_mocks *m);

/* Returns the interned copy of urn, which is stolen: it becomes the
 * interned copy, or is freed when an equal string is interned already
 * (sched.c).  The interned strings compare by pointer and live until
 * pcl_sched_shutdown, so the records of a run keep them (URNs, and also
 * the types and provider references that every resource repeats) rather
 * than copies of their own. */
const char *pcl__urn_intern_take(char *urn);
/* Returns a new pending future as pcl_future_new does, its label (may be
 * NULL) stolen rather than copied (future.c). */
pcl_future *pcl__future_new_label_take(pcl_future_kind kind, char *label);
/* Returns the owned dependency set {urn} of an interned urn, as
 * pcl_deps_one does without interning it again (future.c). */
pcl_deps *pcl__deps_one_interned(const char *urn);

/* An index from interned URNs to records (urn.c).  Zero-initialise. */
typedef struct pcl__urn_slot {
  const char *urn; /* Interned URN, or NULL for a free slot. */
  void *rec;       /* The record (borrowed). */
} pcl__urn_slot;
typedef struct pcl__urn_index {
  pcl__urn_slot *slots; /* Open-addressing table. */
  size_t n, cap;        /* Entries and capacity (0 or a power of two). */
} pcl__urn_index;
/* Maps the interned urn to rec (replacing an earlier entry). */
void pcl__urn_index_put(pcl__urn_index *ix, const char *urn, void *rec);
/* Returns the record of the interned urn, or NULL. */
void *pcl__urn_index_get(const pcl__urn_index *ix, const char *urn);
/* Frees the table (not the records). */
void pcl__urn_index_free(pcl__urn_index *ix);

/* A resource the run registered, kept for option inheritance. */
typedef struct pcl__run_res {
  const char *urn;  /* Interned URN. */
  char *provider;   /* Provider reference given or inherited (owned), or NULL. */
  const char *type; /* With a provider: the type token (interned), whose
                       package (before the first ':') the provider serves;
                       else NULL. */
  signed char protect;  /* -1 unset, 0 false, 1 true. */
  signed char retain;   /* retainOnDelete: -1 unset, 0, 1. */
  pcl_value *providers; /* MAP package -> provider reference for the
                           children (the providers option, inherited), or NULL. */
  bool gates_invokes;   /* A component, or a resource whose id is unknown (not
                           created yet, in a preview): an invoke that depends
                           on it is not sent in a preview. */
} pcl__run_res;

/* One execution of a program (main.c). */
struct pcl_run {
  const pcl_program *program; /* The program. */
  pcl_engine *engine;         /* The engine backend. */
  char *project, *stack, *org; /* Names (owned). */
  char *cwd, *root;           /* Working directory and project root (owned). */
  bool preview;               /* Dry run. */
  char *stack_urn;            /* URN of the stack resource (owned). */
  pcl_value **config;         /* Per declared config: value (owned) or NULL. */
  pcl_mapbuf exports;         /* Stack outputs exported so far. */
  pcl_error *error;           /* The first error of the run (owned), or NULL. */
  pcl__run_res **res;         /* Registered resources, in completion order. */
  size_t nres, capres;        /* Used and allocated. */
  pcl__urn_index res_index;   /* Interned URN -> entry of res. */
  size_t inflight;            /* Engine requests not yet answered. */
};

/* Registers the stack resource; its future resolves once the engine
 * answered (resource.c). */
pcl_future *pcl__register_stack(pcl_run *run);
/* Returns the future of the stack outputs registration of every export
 * (resource.c). */
pcl_future *pcl__register_stack_outputs(pcl_run *run);
/* Frees the run's resource table (resource.c). */
void pcl__run_res_free(pcl_run *run);

#endif
