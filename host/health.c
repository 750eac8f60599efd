/* health: watching the engine (health.h). */
#include "health.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "client.h"
#include "grpc/health/v1/health.pb-c.h"
#include "server.h"
#include "util.h"

/* Seconds between checks, and checks in a row that must fail. */
enum { INTERVAL_S = 1, FAILURES = 2, CHECK_TIMEOUT_S = 5 };

static struct {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  bool started, ending;
  pthread_t thread;
  char *address;
} H = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false, false, 0, NULL};

/* Waits one interval; false when the watch is ending. */
static bool pause_interval(void) {
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += INTERVAL_S;
  pthread_mutex_lock(&H.mu);
  while (!H.ending) {
    if (pthread_cond_timedwait(&H.cv, &H.mu, &until) != 0) {
      break;
    }
  }
  bool go_on = !H.ending;
  pthread_mutex_unlock(&H.mu);
  return go_on;
}

static void *watch(void *arg) {
  (void)arg;
  int failed = 0;
  while (pause_interval() && !srv_stopping()) {
    Grpc__Health__V1__HealthCheckRequest req = GRPC__HEALTH__V1__HEALTH_CHECK_REQUEST__INIT;
    buf answer = {0};
    herr e = {0};
    grpc_status_code code;
    bool ok = client_call(H.address, "/grpc.health.v1.Health/Check", &req.base, CHECK_TIMEOUT_S,
                          &answer, &code, &e);
    pcl__buf_free(&answer);
    failed = ok || code == GRPC_STATUS_UNIMPLEMENTED ? 0 : failed + 1;
    if (failed >= FAILURES) {
      fprintf(stderr, "pulumi-language-pclc: the engine at %s is gone (%s); stopping\n",
              H.address, e.msg);
      herr_clear(&e);
      srv_stop();
      break;
    }
    herr_clear(&e);
  }
  return NULL;
}

void health_watch(const char *address) {
  pthread_mutex_lock(&H.mu);
  if (!H.started && address && *address) {
    H.address = xstrdup(address);
    if (pthread_create(&H.thread, NULL, watch, NULL) == 0) {
      H.started = true;
    }
  }
  pthread_mutex_unlock(&H.mu);
}

void health_end(void) {
  pthread_mutex_lock(&H.mu);
  H.ending = true;
  pthread_cond_broadcast(&H.cv);
  bool started = H.started;
  pthread_mutex_unlock(&H.mu);
  if (started) {
    pthread_join(H.thread, NULL);
  }
  free(H.address);
  H.address = NULL;
}
