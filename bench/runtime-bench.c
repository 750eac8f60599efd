/* runtime-bench.c: measures the runtime on the embedded engine from
 * hand-written C, the way emitted programs drive it.
 *
 * A program of N resources: resource i has inputs {index = i, prev = p}
 * where p is computed by an apply from resource i-1's "index" output (so
 * every registration waits for the previous one's answer), and every
 * resource also depends on resource 0 through dependsOn.  The last
 * resource's output and the count are exported as stack outputs.
 *
 * Run without arguments it runs itself for N = 1000, 10000 and 100000 in
 * child processes and prints, for each, the time and the peak RSS growth per
 * resource, then checks the goals (<= 20 us and <= 15 KB per resource) and
 * that both grow linearly (the per-resource cost at 100k is within 2x of the
 * cost at 10k).  Run with N it runs one program and prints one line.
 *
 * Time is reported twice: wall-clock time, and the CPU time (user + system)
 * the process used, which is what the goal is checked against because it
 * does not depend on how busy the machine is. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "pcl_engine.h"

static long n_resources;

static const pcl_resource_decl decl = {"bench:index:Node", PCL_RES_CUSTOM, "1.0.0", NULL, NULL, 0, 0};

/* prev = index + 1, computed from the previous resource's output. */
static pcl_value *next_fn(pcl_value *const *args, size_t n, void *data, pcl_error **err) {
  (void)n;
  (void)data;
  pcl_value *one = pcl_int_new(1);
  pcl_value *r = pcl_op_add(args[0], one, err);
  pcl_release(one);
  return r;
}

static void bench_start(pcl_run *run) {
  pcl_future *first = NULL, *prev = NULL;
  char name[32];
  for (long i = 0; i < n_resources; i++) {
    pcl_mapbuf mb = PCL_MAPBUF_INIT;
    pcl_mapbuf_put_cstr(&mb, "index", pcl_int_new(i));
    pcl_value *opts = NULL;
    if (prev) {
      pcl_future *idx = pcl_future_attr(prev, "index");
      pcl_future *p = pcl_apply(&idx, 1, next_fn, NULL, NULL, 0);
      pcl_mapbuf_put_cstr(&mb, "prev", pcl_future_to_value(p));
      pcl_future_release(idx);
      pcl_future_release(p);
      pcl_mapbuf ob = PCL_MAPBUF_INIT;
      pcl_value *f0 = pcl_future_to_value(first);
      pcl_mapbuf_put_cstr(&ob, "dependsOn", pcl_list_of_take(&f0, 1));
      opts = pcl_mapbuf_finish(&ob);
    }
    pcl_value *inputs = pcl_mapbuf_finish(&mb);
    snprintf(name, sizeof name, "node-%ld", i);
    pcl_future *f = pcl_register_resource(run, &decl, name, inputs, opts);
    pcl_release(inputs);
    pcl_release(opts);
    if (first == NULL) {
      first = pcl_future_retain(f);
    }
    pcl_future_release(prev);
    prev = f;
  }
  pcl_future *last = pcl_future_attr(prev, "prev");
  pcl_value *lv = pcl_future_to_value(last);
  pcl_export(run, "last", lv);
  pcl_value *count = pcl_int_new(n_resources);
  pcl_export(run, "count", count);
  pcl_release(count);
  pcl_release(lv);
  pcl_future_release(last);
  pcl_future_release(prev);
  pcl_future_release(first);
}

static const pcl_program bench_program = {"bench", NULL, 0, bench_start};

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double cpu_seconds(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
         (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

static long peak_rss_kb(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss;
}

/* Runs one program of n resources; prints "n wall_seconds cpu_seconds
 * rss_growth_kb". */
static int run_one(long n) {
  n_resources = n;
  long rss0 = peak_rss_kb();
  /* pcl_main prints the outputs; keep stdout for the measurement line. */
  fflush(stdout);
  FILE *devnull = freopen("/dev/null", "w", stdout);
  (void)devnull;
  char prog[] = "bench", flag[] = "--stack", stack[] = "bench";
  char *argv[] = {prog, flag, stack, NULL};
  double t0 = now(), c0 = cpu_seconds();
  int status = pcl_main(3, argv, &bench_program);
  double t1 = now(), c1 = cpu_seconds();
  long rss1 = peak_rss_kb();
  FILE *tty = freopen("/dev/stderr", "w", stdout);
  (void)tty;
  fprintf(stderr, "%ld %.6f %.6f %ld\n", n, t1 - t0, c1 - c0, rss1 - rss0);
  return status;
}

int main(int argc, char **argv) {
  if (argc > 1) {
    return run_one(strtol(argv[1], NULL, 10));
  }
  static const long sizes[] = {1000, 10000, 100000};
  double us[3] = {0}, wall[3] = {0}, kb[3] = {0};
  printf("%10s %16s %17s %16s\n", "resources", "CPU us/resource", "wall us/resource",
         "KB/resource");
  for (size_t i = 0; i < 3; i++) {
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' %ld 2>&1", argv[0], sizes[i]);
    FILE *p = popen(cmd, "r");
    long n = 0, rss = 0;
    double secs = 0, cpu = 0;
    if (p == NULL || fscanf(p, "%ld %lf %lf %ld", &n, &secs, &cpu, &rss) != 4 || pclose(p) != 0) {
      fprintf(stderr, "runtime-bench: the run of %ld resources failed\n", sizes[i]);
      return 1;
    }
    us[i] = cpu * 1e6 / (double)n;
    wall[i] = secs * 1e6 / (double)n;
    kb[i] = (double)rss / (double)n;
    printf("%10ld %16.2f %17.2f %16.2f\n", n, us[i], wall[i], kb[i]);
  }
  bool ok = true;
  if (us[2] > 20.0 || kb[2] > 15.0) {
    printf("goal missed: at most 20 us (CPU) and 15 KB per resource\n");
    ok = false;
  }
  if (us[2] > 2.0 * us[1] + 1.0 || kb[2] > 2.0 * kb[1] + 1.0) {
    printf("growth is not linear between 10k and 100k resources\n");
    ok = false;
  }
  printf("%s\n", ok ? "runtime-bench: goals met, growth linear" : "runtime-bench: FAILED");
  return ok ? 0 : 1;
}
