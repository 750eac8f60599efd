/* health: the engine's liveness, as Pulumi's language hosts watch it.
 *
 * A host started by the engine serves until the engine goes away: a
 * thread asks grpc.health.v1.Health/Check of the engine every second and
 * stops the host (srv_stop, which kills every child) after two answers in
 * a row that say the engine is not there (any status but OK and
 * UNIMPLEMENTED, which an engine without the health service gives). */
#ifndef HOST_HEALTH_H
#define HOST_HEALTH_H

/* Starts watching the engine at address (the first call only). */
void health_watch(const char *address);
/* Stops the watch and waits for its thread. */
void health_end(void);

#endif
