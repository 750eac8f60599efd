#!/usr/bin/env bash
# run-codegen.sh: benchmark of the whole build step and of the run.
#
# Usage: bench/run-codegen.sh PCLC LIBDIR [WORKDIR]
#
# PCLC is the compiler; LIBDIR is the build directory holding libpclrt.a
# (the runtime header is taken from runtime/).  Generates programs of 1,000,
# 10,000 and 100,000 resources with bench/gen-program.py into WORKDIR
# (default build/bench; the files are shared with bench/run.sh), then for
# each size measures, in this order:
#   pclc --parse-only parse;
#   pclc --check      parse, bind and type-check;
#   pclc -o           compile to C;
#   gcc -O0, gcc -O2, clang -O0, tcc
#                     compile and link the generated C against libpclrt
#                     (a compiler that is not installed is skipped);
#   run               run the gcc -O2 executable on the embedded engine
#                     (stack outputs to /dev/null, no snapshot), with the
#                     mocks of bench/codegen-mocks.json giving the output
#                     properties the program reads (keys, certificates).
# Every step is repeated RUNS times (default 3; RUNS_LARGE, default 1, for
# the 100,000-resource program); the table gives the median CPU time (user
# + system, including the processes a compiler driver runs), the median
# wall-clock time and the largest peak resident size
# (GNU time's %M).  The time per resource is CPU time, which stays
# meaningful on a loaded machine; for the run, the memory per resource is
# net of what the run of an empty program needs.  Goals are printed next to the figures:
# pclc parse <= 25 us/resource, C compile <= 250 us/resource under gcc -O0,
# run <= 20 us and <= 15 KB per resource.
#
# Environment: SIZES (default "1000 10000 100000"), RUNS, RUNS_LARGE,
# STEPS (a subset of "parse check pclc gcc-O0 gcc-O2 clang-O0 tcc run"),
# TIMEOUT (seconds per step, default 1800; a step that times out is
# reported as such and the sizes above it are skipped for that step).
# Every step must exit with status 0; a failure is reported in the table
# (with the first lines of its stderr) and makes the script exit non-zero.
set -u

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
  echo "usage: bench/run-codegen.sh PCLC LIBDIR [WORKDIR]" >&2
  exit 2
fi
abs() {
  case $1 in
  /*) printf '%s\n' "$1" ;;
  *) printf '%s/%s\n' "$PWD" "$1" ;;
  esac
}
pclc=$(abs "$1")
libdir=$(abs "$2")
work=$(abs "${3:-build/bench}")
if [ ! -x "$pclc" ]; then
  echo "bench: $pclc is not an executable" >&2
  exit 2
fi
if [ ! -f "$libdir/libpclrt.a" ]; then
  echo "bench: no libpclrt.a in $libdir" >&2
  exit 2
fi
cd "$(dirname "$0")/.." || exit 2
mkdir -p "$work" || exit 2
root=$PWD

SIZES=${SIZES:-1000 10000 100000}
RUNS=${RUNS:-3}
RUNS_LARGE=${RUNS_LARGE:-1}
STEPS=${STEPS:-parse check pclc gcc-O0 gcc-O2 clang-O0 tcc run}
TIMEOUT=${TIMEOUT:-1800}
SCHEMAS=../shared/programs/_schemas

for n in $SIZES; do
  f=$work/program-$n.pp
  if [ ! -f "$f" ] || [ bench/gen-program.py -nt "$f" ]; then
    bench/gen-program.py "$n" "$f" || exit 1
  fi
done
# The empty program gives the baseline memory of a run.
printf 'output empty {\n  value = 0\n}\n' >"$work/empty-run.pp"

echo "pclc build-step benchmark ($(uname -m), $(nproc) CPUs, $(gcc --version | head -1))"
python3 - "$pclc" "$libdir" "$work" "$root" "$SCHEMAS" "$RUNS" "$RUNS_LARGE" "$TIMEOUT" \
  "$STEPS" $SIZES <<'EOF'
import os, resource, shutil, statistics, subprocess, sys, time

pclc, libdir, work, root, schemas = sys.argv[1:6]
runs, runs_large, timeout = int(sys.argv[6]), int(sys.argv[7]), int(sys.argv[8])
steps = sys.argv[9].split()
sizes = [int(s) for s in sys.argv[10:]]
TIME = "/usr/bin/time"
inc = os.path.join(root, "runtime")
libs = ["-L" + libdir, "-lpclrt", "-ljansson", "-lutf8proc", "-lnettle", "-larchive", "-lgmp", "-lgrpc", "-lgpr", "-lprotobuf-c", "-lm"]

# Goals: (microseconds per resource, KB per resource) or None.
GOALS = {"parse": (25, None), "gcc-O0": (250, None), "run": (20, 15)}
CCS = {"gcc-O0": ["gcc", "-O0"], "gcc-O2": ["gcc", "-O2"], "clang-O0": ["clang", "-O0"],
       "tcc": ["tcc"]}
failed = False


def measure(cmd, cwd):
    """Runs cmd once; returns ((wall s, CPU s, peak KB), status, stderr).

    The CPU time (user + system, of the command and every process it waited
    for: cc1, as, ld; from getrusage, to the microsecond) is the figure that
    counts; on a shared machine the wall-clock time also measures the other
    load.  The peak comes from GNU time's %M, since ru_maxrss of the
    children is a maximum over every child so far."""
    rss = os.path.join(work, "rss.txt")
    full = [TIME, "-f", "%M", "-o", rss] + cmd if os.access(TIME, os.X_OK) else cmd
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    try:
        p = subprocess.run(full, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "timeout", b""
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    peak = after.ru_maxrss
    if full[0] == TIME:
        with open(rss) as f:
            fields = f.read().split()
        if fields and fields[-1].isdigit():
            peak = int(fields[-1])
    return (wall, cpu, peak), p.returncode, p.stderr


def command(step, n):
    """Returns (cmd, cwd) of a step for size n ("empty" for the baseline)."""
    base = os.path.join(work, "program-%s" % n if n != "empty" else "empty-run")
    src = base + ".pp"
    if step == "parse":
        return [pclc, "--parse-only", src], root
    if step == "check":
        return [pclc, "--check", "--schema-path", schemas, src], root
    if step == "pclc":
        return [pclc, "--schema-path", schemas, src, "-o", base + ".c"], root
    if step in CCS:
        cc = CCS[step]
        return cc + ["-w", "-I" + inc, base + ".c"] + libs + ["-o", base + "-" + step], root
    if step == "run":
        return [base + "-gcc-O2", "--mocks", os.path.join(root, "bench/codegen-mocks.json")], work
    raise SystemExit("unknown step " + step)


def available(step):
    return step not in CCS or shutil.which(CCS[step][0]) is not None


def run_step(step, n, reps):
    cmd, cwd = command(step, n)
    results = []
    for _ in range(reps):
        r, status, err = measure(cmd, cwd)
        if status != 0:
            return None, status, err
        results.append(r)
    return (statistics.median(r[0] for r in results), statistics.median(r[1] for r in results),
            max(r[2] for r in results)), 0, b""


# The baseline run needs the empty program compiled with gcc -O2.
base_run_kb = None
if "run" in steps:
    ok = True
    for step in ("pclc", "gcc-O2"):
        r, status, err = run_step(step, "empty", 1)
        if r is None:
            sys.stderr.write("bench: baseline %s failed (%s)\n%s\n" %
                             (step, status, err.decode(errors="replace")[:1500]))
            ok = False
            break
    if ok:
        r, status, err = run_step("run", "empty", 3)
        base_run_kb = r[2] if r else None

print()
print("%-9s %10s %9s %9s %12s %10s %12s  %s" %
      ("step", "resources", "CPU s", "wall s", "us/resource", "peak KB", "KB/resource", "goal"))
skip = set()
for n in sizes:
    reps = runs_large if n >= 100000 else runs
    for step in steps:
        if not available(step):
            if n == sizes[0]:
                print("%-9s %10s  (not installed; skipped)" % (step, "-"))
            continue
        if step == "run" and not os.path.exists(command("run", n)[0][0]):
            # The run needs the gcc -O2 executable even when that step is
            # not measured.
            if run_step("gcc-O2", n, 1)[0] is None:
                skip.add("run")
        if step in skip:
            print("%-9s %10d  skipped (failed or timed out at a smaller size)" % (step, n))
            continue
        r, status, err = run_step(step, n, reps)
        if r is None:
            print("%-9s %10d  FAILED (%s): %s" % (step, n, status,
                  err.decode(errors="replace").strip().splitlines()[:3]))
            skip.add(step)
            # The later steps need this one's output.
            if step == "pclc":
                skip.update(CCS)
                skip.add("run")
            if step == "gcc-O2":
                skip.add("run")
            if status != "timeout":
                failed = True
            continue
        wall, secs, peak = r
        us = secs * 1e6 / n
        kb = None
        if step == "run" and base_run_kb is not None:
            kb = max(peak - base_run_kb, 0) / n
        goal, verdict = GOALS.get(step), ""
        if goal:
            parts = []
            if goal[0] is not None:
                parts.append("<= %d us %s" % (goal[0], "meets" if us <= goal[0] else "MISSES"))
            if goal[1] is not None and kb is not None:
                parts.append("<= %d KB %s" % (goal[1], "meets" if kb <= goal[1] else "MISSES"))
            verdict = "; ".join(parts)
        print("%-9s %10d %9.3f %9.3f %12.2f %10d %12s  %s" %
              (step, n, secs, wall, us, peak, "%.2f" % kb if kb is not None else "-", verdict))
    sys.stdout.flush()
if base_run_kb is not None:
    print("run baseline (empty program): %d KB peak" % base_run_kb)
sys.exit(1 if failed else 0)
EOF
