/* methods: the pulumirpc.LanguageRuntime service of pulumi-language-pclc,
 * one function per method, chosen by the call's path (the server's
 * handler, server.h).
 *
 * The engine's address (for the program's and the host's logs) is the
 * host's argument, or what Handshake gives when it had none. */
#ifndef HOST_METHODS_H
#define HOST_METHODS_H

#include <stddef.h>
#include <stdint.h>

#include "server.h"

/* Sets the engine's address the host was started with (may be NULL). */
void methods_set_engine(const char *address);

/* Frees what the methods keep (at exit). */
void methods_end(void);

/* Serves one call of the service (an srv_handler). */
void methods_serve(srv_call *c, const char *method, const uint8_t *data, size_t len);

#endif
