/* run: LanguageRuntime.Run, a program built (build.h) and run under the
 * engine.
 *
 * The program runs in the request's working directory with the
 * environment contract of Pulumi's language hosts, which the runtime's
 * gRPC backend speaks (docs/engine.md): PULUMI_MONITOR, PULUMI_ENGINE,
 * PULUMI_PROJECT, PULUMI_STACK, PULUMI_ORGANIZATION, PULUMI_ROOT_DIRECTORY,
 * PULUMI_CONFIG, PULUMI_CONFIG_SECRET_KEYS, PULUMI_DRY_RUN and
 * PULUMI_PARALLEL; its standard output and error are the host's, which the
 * engine shows.  Outcomes, as the SDKs report them:
 *   - the program exits with 0: success;
 *   - pclc finds errors in the program: they go to the engine's log (with
 *     their locations) and the answer says `bail`;
 *   - the program exits with 32 (it reported its error to the engine
 *     already): `bail`;
 *   - anything else (another exit status, a signal, a C compiler that
 *     fails or is missing, a schema the loader cannot give, a cancel): the
 *     answer's `error` says what happened. */
#ifndef HOST_RUN_H
#define HOST_RUN_H

#include "pulumi/language.pb-c.h"
#include "proc.h"

/* The outcome of a Run. */
typedef struct run_outcome {
  char *error; /* What failed (heap), or NULL. */
  bool bail;   /* The failure was reported to the engine already. */
} run_outcome;

/* Runs the program of req, whose PCL files are in dir, with its children
   in group g; engine is the engine's address for logs (NULL when
   unknown). */
run_outcome run_program(const Pulumirpc__RunRequest *req, const char *dir, const char *engine,
                        proc_group *g);

#endif
