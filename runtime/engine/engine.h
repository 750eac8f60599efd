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

/* -- Input documents (input.c). */

/* Decodes the JSON text[0..len) of the document called name with the
 * PCL_JSON_* flags; NULL and *err prefixed with name when it is invalid. */
pcl_value *pcl__read_json(const char *name, const char *text, size_t len, unsigned flags,
                          pcl_error **err);
/* pcl__read_file, then pcl__read_json named by the path. */
pcl_value *pcl__read_json_file(const char *path, unsigned flags, pcl_error **err);

/* A document whose shape is being checked: its name, the JSON path of the
 * value at hand, and the first error found. */
typedef struct pcl__doc {
  const char *name; /* For messages: a file's path, "PULUMI_CONFIG" (borrowed). */
  pcl_strbuf path;  /* The JSON path of the value being checked. */
  pcl_error *err;   /* The first error (owned), or NULL. */
} pcl__doc;
#define PCL__DOC_INIT(name) {(name), PCL_STRBUF_INIT, NULL}
/* Enter member key[0..len) or element i of the value at hand; each returns
 * the mark that pcl__doc_leave takes to come back. */
size_t pcl__doc_key(pcl__doc *d, const char *key, size_t len);
size_t pcl__doc_index(pcl__doc *d, size_t i);
void pcl__doc_leave(pcl__doc *d, size_t mark);
/* Records "<name>: <path>: <printf message>" unless an error is recorded;
 * returns false. */
bool pcl__doc_fail(pcl__doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Returns whether v has the kind; else records "expected <what>, got <v>"
 * and returns false. */
bool pcl__doc_is(pcl__doc *d, const pcl_value *v, pcl_kind kind, const char *what);
/* Returns whether every key of the MAP obj is one of keys[0..n); else
 * records "<path>.<key>: unknown key (expected a, b or c)". */
bool pcl__doc_keys(pcl__doc *d, const pcl_value *obj, const char *const *keys, size_t n);
/* Frees the path and returns the recorded error (owned), or NULL. */
pcl_error *pcl__doc_finish(pcl__doc *d);

/* Checks a stack reference (docs/mocks.md): {"outputs": {...},
 * "secretOutputNames": [names]} (the names optional; the list and each name
 * may be marked secret), or, when plain_allowed, an object of outputs
 * without "outputs".  Returns {outputs, secretOutputNames} with the names a
 * LIST of plain STRINGs (owned), or NULL after recording an error. */
pcl_value *pcl__stack_ref_check(pcl__doc *d, const pcl_value *v, bool plain_allowed);
/* Returns NULL when name[0..len) is the full name of a stack,
 * org/project/stack with no part empty (a --stack-reference or a mocks
 * stackReferences key); else why not (static text, "is empty" or "is not
 * org/project/stack..."). */
const char *pcl__stack_name_problem(const char *name, size_t len);

/* -- The raw config of a run (config.c): the entries of every source in
 * order; the last entry of a key wins. */

/* One raw config entry. */
typedef struct pcl__config_entry {
  char *key;   /* "<namespace>:<name>", or "<name>" until qualified (owned). */
  char *text;  /* The raw text (owned). */
  bool secret; /* Marked secret. */
} pcl__config_entry;
/* The entries so far (zero-initialise). */
typedef struct pcl__config_set {
  pcl__config_entry *items; /* The entries, in the order the sources gave them. */
  size_t n;                 /* Entries used. */
  size_t cap;               /* Entries allocated. */
  size_t *order;            /* The entries' indices sorted by key, then by
                               position (made by the first lookup after a
                               change, so that each lookup is a binary
                               search), or NULL (owned). */
} pcl__config_set;
/* Adds the entry key = text (both copied). */
void pcl__config_put(pcl__config_set *cs, const char *key, const char *text, bool secret);
/* Returns the last entry of key (borrowed), or NULL. */
const pcl__config_entry *pcl__config_get(pcl__config_set *cs, const char *key);
/* Returns NULL when key is one the engine accepts ("name", the project's,
 * or "namespace:name", neither part empty); else why not (static text). */
const char *pcl__config_key_problem(const char *key);
/* Adds the entries of the JSON object doc (PULUMI_CONFIG or a config file)
 * of the document called name (docs/program-cli.md): each value a string
 * (the text), {"value": text, "secret": bool, "object": bool}, or another
 * JSON value (passed as its JSON text).  False and *err naming the document
 * and the JSON path when it has another shape or a key is refused. */
bool pcl__config_add_json(pcl__config_set *cs, const pcl_value *doc, const char *name,
                          pcl_error **err);
/* Returns doc (retained) when it is a list of configuration keys
 * (PULUMI_CONFIG_SECRET_KEYS); NULL and *err naming the document and the
 * JSON path otherwise. */
pcl_value *pcl__config_secret_keys(const pcl_value *doc, const char *name, pcl_error **err);
/* Qualifies every key without a namespace with project. */
void pcl__config_qualify(pcl__config_set *cs, const char *project);
/* Marks secret every entry whose key is listed in keys (a list checked by
 * pcl__config_secret_keys, or NULL; a key without a namespace is the
 * project's), whatever source set it. */
void pcl__config_mark_secret(pcl__config_set *cs, const pcl_value *keys, const char *project);
/* Returns the whole stack config (owned MAP): full key -> STRING text,
 * SECRET when marked secret; the last entry of a key wins. */
pcl_value *pcl__config_map(pcl__config_set *cs);
/* Frees the entries and empties cs. */
void pcl__config_set_free(pcl__config_set *cs);

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
/* Returns the set of the URNs urns[0..n) (interned here; owned, NULL for
 * none). */
pcl_deps *pcl__deps_of_urns(const char *const *urns, size_t n);
/* Returns the union of the sets sets[0..n) (borrowed, any may be NULL;
 * owned, NULL when empty) in time n log n in their URNs, where a union of
 * one set at a time would copy the growing set at each; a set that holds
 * the union itself is shared. */
pcl_deps *pcl__deps_union_all(const pcl_deps *const *sets, size_t n);
/* Returns the sorted LIST of the URN strings of d (owned; empty for NULL). */
pcl_value *pcl__deps_list(const pcl_deps *d);

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
  char *version;        /* The package version it was registered with (owned), or NULL:
                           a method call on it asks for that version, as the SDKs do. */
  char *plugin_download_url; /* Likewise its download URL (owned), or NULL. */
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
  pcl_future *stack_reg;      /* The stack's registration (borrowed while the program
                                 runs), which every other registration waits for: an
                                 engine takes a parent only once it is registered. */
  pcl_value **config;         /* Per declared config: value (owned) or NULL. */
  pcl_mapbuf exports;         /* Stack outputs exported so far. */
  pcl_error *error;           /* The first error of the run (owned), or NULL. */
  pcl_error *failure;         /* The first node whose value failed at once, while
                                 error is NULL (owned), or NULL: the error the run
                                 takes when it fails (pcl__run_note_failure). */
  pcl__run_res **res;         /* Registered resources, in completion order. */
  size_t nres, capres;        /* Used and allocated. */
  pcl__urn_index res_index;   /* Interned URN -> entry of res. */
  size_t inflight;            /* Engine requests not yet answered. */
  const pcl_package *packages; /* The program's parameterized packages (static), or NULL. */
  size_t npackages;            /* Their number. */
  pcl_future **package_refs;   /* Per package, once a request of it was made: the future of
                                  the reference the engine gave it (owned); else NULL. */
};

/* pcl_invoke and pcl_call as generated code calls them: the request
 * carries the PCL location file:line:column of the call (file living as
 * long as the run; NULL when unknown), which the engine shows (resource.c). */
pcl_future *pcl__invoke_at(pcl_run *run, const char *token, pcl_value *args, pcl_value *options,
                           const char *file, unsigned line, unsigned column);
pcl_future *pcl__call_at(pcl_run *run, const char *token, pcl_value *self, pcl_value *args,
                         pcl_value *options, const char *file, unsigned line, unsigned column);

/* resourceExists(type, id, state) as generated code calls it: an output
 * that settles with whether the engine knows a resource of type with the
 * id (a STRING, or eventual), given state (a MAP, null, eventual, or NULL
 * when not given); unknown when the id is unknown or empty (resource.c). */
pcl_future *pcl__resource_exists(pcl_run *run, const char *type, pcl_value *id,
                                 pcl_value *state);

/* Notes err (copied), the failure of a node's value at once, as the first
 * failure of the run unless one was noted or the run failed already: when
 * the run fails (pcl_run_fail, whatever error it is given), its error is
 * this one (resource.c). */
void pcl__run_note_failure(pcl_run *run, const pcl_error *err);

/* Registers the stack resource; its future resolves once the engine
 * answered (resource.c). */
pcl_future *pcl__register_stack(pcl_run *run);
/* Returns the future of the stack outputs registration of every export
 * (resource.c). */
pcl_future *pcl__register_stack_outputs(pcl_run *run);
/* Frees the run's resource table and package references (resource.c). */
void pcl__run_res_free(pcl_run *run);

#endif
