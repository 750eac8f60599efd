#!/usr/bin/env bash
# run.sh: front-end benchmark.
#
# Usage: bench/run.sh PCLC [WORKDIR]
#
# Generates programs of 1,000, 10,000 and 100,000 resources with
# bench/gen-program.py into WORKDIR (default build/bench), runs PCLC on each
# in every mode of the MODES table below, and prints one table per mode:
# resources, input bytes, median wall-clock and CPU (user + system) seconds,
# CPU microseconds per resource, peak resident memory (KB), and bytes of
# memory per input byte, both raw and net of the memory the same mode needs
# for an empty program.
# The goals of the mode are printed next to the figures.  Runs are repeated
# RUNS_SMALL times (default 5) for the two smaller programs and RUNS_LARGE
# times (default 3) for the largest, and the median times are reported; the
# peak memory is the largest of the runs.  Set SIZES to measure other sizes.
#
# A small Python helper measures the wall-clock time of each run, takes its
# CPU time from os.wait4, and reads the peak resident size from GNU time
# (`/usr/bin/time -f %M`, Debian package `time`); without GNU time it falls
# back to the child's ru_maxrss, which also counts the helper's own size.
# Every run must exit with status 0; any other status stops the benchmark.
set -u

# ------------------------------------------------------------------ the modes
# One line per mode: name, goal in microseconds per resource, goal in bytes
# of memory per input byte ("-" for none), then the pclc arguments.  Later
# phases add a line here (`check`, `compile`, ...).
MODES='
parse  25  37.5  --parse-only
check  -   -     --check --schema-path ../shared/programs/_schemas
'

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: bench/run.sh PCLC [WORKDIR]" >&2
  exit 2
fi
pclc=$1
case $pclc in
/*) ;;
*/*) pclc=$PWD/$pclc ;;
esac
work=${2:-build/bench}
case $work in
/*) ;;
*) work=$PWD/$work ;;
esac
if [ ! -x "$pclc" ]; then
  echo "bench: $pclc is not an executable" >&2
  exit 2
fi
cd "$(dirname "$0")/.." || exit 2
mkdir -p "$work" || exit 2

SIZES=${SIZES:-1000 10000 100000}
RUNS_SMALL=${RUNS_SMALL:-5}
RUNS_LARGE=${RUNS_LARGE:-3}

# Generate each program once; regenerate when the generator changed.
: >"$work/empty.pp"
for n in $SIZES; do
  f=$work/program-$n.pp
  if [ ! -f "$f" ] || [ bench/gen-program.py -nt "$f" ]; then
    bench/gen-program.py "$n" "$f" || exit 1
  fi
done

echo "pclc front-end benchmark ($(uname -m), $(nproc) CPUs)"
status=0
while read -r mode goal_us goal_bb args; do
  [ -n "$mode" ] || continue
  # A compiler without --parse-only is measured with --dump-ast instead.
  if [ "$args" = --parse-only ] && ! "$pclc" --parse-only "$work/empty.pp" >/dev/null 2>&1; then
    args=--dump-ast
  fi
  # shellcheck disable=SC2086 # args is deliberately word-split.
  python3 - "$mode" "$goal_us" "$goal_bb" "$RUNS_SMALL" "$RUNS_LARGE" "$work" "$pclc" $args -- $SIZES <<'EOF' || status=1
import os, resource, subprocess, sys, time

mode, goal_us, goal_bb, runs_small, runs_large, work, pclc = sys.argv[1:8]
rest = sys.argv[8:]
sep = rest.index("--")
args, sizes = rest[:sep], [int(s) for s in rest[sep + 1:]]
runs_small, runs_large = int(runs_small), int(runs_large)


TIME = "/usr/bin/time"


def measure(path):
    """Runs pclc once on path; returns (wall seconds, CPU seconds, peak KB).

    The CPU time (user + system) comes from os.wait4, which reports the
    child together with the descendants it waited for; it is what the
    per-resource figure uses, because the wall clock of a shared machine
    also counts the time other processes held the CPU.  The peak comes from
    GNU time's %M: a child spawned straight from Python would report
    Python's own resident size as its high-water mark, since the fork
    shares (or copies) the interpreter's pages until exec."""
    rss_file = os.path.join(work, "rss.txt")
    cmd = [pclc] + args + [path]
    if os.access(TIME, os.X_OK):
        cmd = [TIME, "-f", "%M", "-o", rss_file] + cmd
    start = time.perf_counter()
    with open(os.devnull, "wb") as null:
        p = subprocess.Popen(cmd, stdout=null, stderr=subprocess.PIPE)
        err = p.stderr.read()
        p.stderr.close()
        _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - start
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.stderr.write("bench: pclc %s %s exited with %d\n%s" %
                         (" ".join(args), path, p.returncode, err.decode(errors="replace")[:2000]))
        sys.exit(1)
    if cmd[0] == TIME:
        with open(rss_file) as f:
            peak = int(f.read().split()[-1])
    else:
        peak = usage.ru_maxrss
    return wall, usage.ru_utime + usage.ru_stime, peak


def median(xs):
    xs = sorted(xs)
    m = len(xs) // 2
    return xs[m] if len(xs) % 2 else (xs[m - 1] + xs[m]) / 2


base_kb = max(measure(os.path.join(work, "empty.pp"))[2] for _ in range(3))
print()
print("mode %s: pclc %s    (empty program: %d KB peak)" % (mode, " ".join(args), base_kb))
print("%10s %12s %8s %8s %12s %10s %8s %8s" %
      ("resources", "input bytes", "wall s", "cpu s", "us/resource", "peak KB", "B/B", "net B/B"))
rows = []
for n in sizes:
    path = os.path.join(work, "program-%d.pp" % n)
    size = os.path.getsize(path)
    runs = runs_large if n >= 100000 else runs_small
    results = [measure(path) for _ in range(runs)]
    wall = median([r[0] for r in results])
    cpu = median([r[1] for r in results])
    peak = max(r[2] for r in results)
    us = cpu * 1e6 / n
    bb = peak * 1024.0 / size
    net = max(peak - base_kb, 0) * 1024.0 / size
    rows.append((n, us, net))
    print("%10d %12d %8.3f %8.3f %12.2f %10d %8.1f %8.1f" % (n, size, wall, cpu, us, peak, bb, net))
goals = []
if goal_us != "-":
    goals.append("<= %s us/resource" % goal_us)
if goal_bb != "-":
    goals.append("<= %s bytes of memory per input byte (net)" % goal_bb)
if goals:
    n, us, net = rows[-1]
    verdict = []
    if goal_us != "-":
        verdict.append("%.2f us/resource %s" % (us, "meets" if us <= float(goal_us) else "MISSES"))
    if goal_bb != "-":
        verdict.append("%.1f B/B %s" % (net, "meets" if net <= float(goal_bb) else "MISSES"))
    print("goals: %s; at %d resources: %s" % (", ".join(goals), n, "; ".join(verdict)))
EOF
done <<<"$MODES"
exit $status
