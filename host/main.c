/* main: pulumi-language-pclc, the Pulumi language host of pclc
 * (`runtime: pclc` in Pulumi.yaml; docs/host.md).
 *
 * Started by the engine with the engine's address as its argument, it
 * serves pulumirpc.LanguageRuntime on a port of 127.0.0.1, prints the port
 * on standard output, and serves until the engine goes away (health.h) or
 * it is stopped (SIGINT, SIGTERM).  Started without an address (as a
 * test driver may start it) it serves until it is stopped, learning the
 * engine's address from Handshake if it comes.  Every child it started
 * is killed before it exits.  `-version` prints the version. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pthread.h>

#include "health.h"
#include "methods.h"
#include "server.h"
#include "toolchain.h"

static void usage(FILE *out) {
  fprintf(out,
          "usage: pulumi-language-pclc [-tracing ENDPOINT] [ENGINE-ADDRESS]\n"
          "\n"
          "The Pulumi language host of pclc: it serves pulumirpc.LanguageRuntime for\n"
          "projects with `runtime: pclc`, building each program with pclc and the C\n"
          "compiler and running it under the engine.  The Pulumi CLI starts it with the\n"
          "engine's address; it prints the port it serves on and serves until the engine\n"
          "goes away or it gets SIGINT or SIGTERM.\n"
          "\n"
          "Options:\n"
          "  -version           print the version and exit\n"
          "  -tracing ENDPOINT  accepted for the engine's sake; tracing is not done\n"
          "  -help              print this help and exit\n"
          "\n"
          "Environment: PCLC (the compiler), PCLC_CC and PCLC_CFLAGS (the C compiler and\n"
          "its flags, default cc and -O1), PKG_CONFIG and PKG_CONFIG_PATH (libpclrt's\n"
          "pclrt.pc), PCLC_CACHE_DIR (the built programs, default ~/.cache/pclc) and\n"
          "PCLC_CACHE_SIZE (programs kept, default 64).\n");
}

/* Waits for SIGINT or SIGTERM (blocked in every thread) and stops. */
static void *signals(void *arg) {
  sigset_t *set = arg;
  int sig;
  if (sigwait(set, &sig) == 0) {
    srv_stop();
  }
  return NULL;
}

int main(int argc, char **argv) {
  const char *address = NULL;
  for (int i = 1; i < argc; i++) {
    /* Go's flag package takes -flag and --flag alike. */
    const char *a = argv[i][0] == '-' && argv[i][1] == '-' ? argv[i] + 1 : argv[i];
    if (strcmp(a, "-version") == 0) {
      printf("%s\n", host_version);
      return 0;
    }
    if (strcmp(a, "-help") == 0 || strcmp(a, "-h") == 0) {
      usage(stdout);
      return 0;
    }
    if (strcmp(a, "-tracing") == 0 && i + 1 < argc) {
      i++;
      continue;
    }
    if (strncmp(a, "-tracing=", 9) == 0) {
      continue;
    }
    if (a[0] == '-' || address) {
      fprintf(stderr, "pulumi-language-pclc: unexpected argument '%s'\n", argv[i]);
      usage(stderr);
      return 2;
    }
    address = argv[i];
  }

  /* SIGINT and SIGTERM are taken by one thread; every other thread
     (gRPC's included) inherits the mask.  A reader that goes away is a
     write error, not a signal. */
  static sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, NULL);
  signal(SIGPIPE, SIG_IGN);

  int port = srv_start();
  if (port <= 0) {
    fprintf(stderr, "pulumi-language-pclc: cannot listen on 127.0.0.1\n");
    return 1;
  }
  methods_set_engine(address);
  health_watch(address);
  pthread_t sig_thread;
  pthread_create(&sig_thread, NULL, signals, &set);
  pthread_detach(sig_thread);

  if (printf("%d\n", port) < 0 || fflush(stdout) != 0) {
    fprintf(stderr, "pulumi-language-pclc: cannot print the port\n");
    srv_stop();
  }
  srv_run(methods_serve);
  health_end();
  grpc_shutdown_blocking();
  methods_end();
  return 0;
}
