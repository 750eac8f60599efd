#!/usr/bin/env bash
# run-codegen.sh: benchmark of the whole build step and of the run.
#
# Usage: bench/run-codegen.sh PCLC LIBDIR [WORKDIR]
#
# PCLC is the compiler; LIBDIR is the build directory holding libpclrt.a
# (the headers generated C includes are taken from runtime/include/ and
# common/).  Generates programs of
# 1,000, 10,000 and 100,000 resources with bench/gen-program.py into WORKDIR
# (default build/bench; the files are shared with bench/run.sh), then for
# each size measures, in this order:
#   parse     pclc --parse-only;
#   check     pclc --check (parse, bind and type-check);
#   pclc      pclc -o (the whole compilation to C);
#   gcc-O0, gcc-O2, clang-O0, tcc
#             compile and link the generated C against libpclrt (a compiler
#             that is not installed is skipped);
#   run       run the gcc -O2 executable on the embedded engine (stack
#             outputs to /dev/null, no snapshot), with the mocks of
#             bench/codegen-mocks.json giving the output properties the
#             program reads (keys, certificates).
# Every step is repeated RUNS times (default 3; RUNS_LARGE, default 3, for
# the 100,000-resource program); the table gives the median CPU time (user
# + system, including the processes a compiler driver runs), the median
# wall-clock time and the largest peak resident size (GNU time's %M).  The
# time per resource is CPU time, which stays meaningful on a loaded machine;
# for the run, the memory per resource is net of what the run of an empty
# program needs.  The pclc step also gives the size of the generated C per
# resource, and the end of the report its growth from 10,000 to 100,000
# resources.  Goals are printed next to the figures: pclc <= 25 us, gcc -O0
# <= 100 us, run <= 10 us and <= 7 KB per resource, generated C per
# resource at 100,000 resources <= 1.05 x that at 10,000.
#
# With BASELINE=DIR (a build of another pclc: DIR/build/pclc,
# DIR/build/libpclrt.a, DIR/runtime/ and DIR/common/), every step is measured for both
# compilers in the same run, their repetitions interleaved so that both see
# the same load, and each baseline line gives the ratio of this pclc's CPU
# time to the baseline's.
#
# Environment: SIZES (default "1000 10000 100000"), RUNS, RUNS_LARGE,
# STEPS (a subset of "parse check pclc gcc-O0 gcc-O2 clang-O0 tcc run"),
# TIMEOUT (seconds per step, default 1800; a step that times out is
# reported as such and the sizes above it are skipped for that step),
# BASELINE.  Every step must exit with status 0; a failure is reported in
# the table (with the first lines of its stderr) and makes the script exit
# non-zero.
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
baseline=${BASELINE:-}
if [ -n "$baseline" ]; then
  baseline=$(abs "$baseline")
  for f in build/pclc build/libpclrt.a runtime/include common; do
    if [ ! -e "$baseline/$f" ]; then
      echo "bench: BASELINE has no $f" >&2
      exit 2
    fi
  done
fi
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
RUNS_LARGE=${RUNS_LARGE:-3}
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
  "$STEPS" "$baseline" $SIZES <<'EOF'
import os, resource, shutil, statistics, subprocess, sys, time

pclc, libdir, work, root, schemas = sys.argv[1:6]
runs, runs_large, timeout = int(sys.argv[6]), int(sys.argv[7]), int(sys.argv[8])
steps = sys.argv[9].split()
baseline = sys.argv[10]
sizes = [int(s) for s in sys.argv[11:]]
TIME = "/usr/bin/time"
LIBS = ["-lpclrt", "-ljansson", "-lutf8proc", "-lnettle", "-larchive", "-lgmp", "-lgrpc",
        "-lgpr", "-lprotobuf-c", "-lm"]

# The compilers measured: this one, and the baseline when there is one.
# Each has its own pclc, library, headers and output files.
def headers(tree):
    """The folders of the headers generated C includes, in a source tree."""
    return [os.path.join(tree, "runtime/include"), os.path.join(tree, "common")]


DESIGNS = [("this", pclc, libdir, headers(root), "")]
if baseline:
    DESIGNS.append(("baseline", os.path.join(baseline, "build/pclc"),
                    os.path.join(baseline, "build"), headers(baseline), "-baseline"))

# Goals: (microseconds per resource, KB per resource) or None.
GOALS = {"pclc": (25, None), "gcc-O0": (100, None), "run": (10, 7)}
C_GROWTH_GOAL = 1.05
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


def command(design, step, n):
    """Returns (cmd, cwd) of a step of a design for size n ("empty" for the
    memory baseline of a run)."""
    _, compiler, lib, inc, suffix = design
    base = os.path.join(work, ("program-%s" % n if n != "empty" else "empty-run"))
    src = base + ".pp"
    out = base + suffix
    if step == "parse":
        return [compiler, "--parse-only", src], root
    if step == "check":
        return [compiler, "--check", "--schema-path", schemas, src], root
    if step == "pclc":
        return [compiler, "--schema-path", schemas, src, "-o", out + ".c"], root
    if step in CCS:
        return (CCS[step] + ["-w"] + ["-I" + d for d in inc] + [out + ".c", "-L" + lib] + LIBS +
                ["-o", out + "-" + step], root)
    if step == "run":
        return [out + "-gcc-O2", "--mocks", os.path.join(root, "bench/codegen-mocks.json")], work
    raise SystemExit("unknown step " + step)


def available(step):
    return step not in CCS or shutil.which(CCS[step][0]) is not None


def run_step(step, n, reps):
    """Measures step for every design, repetitions interleaved; returns a
    list of (result or None, status, stderr) by design."""
    results = [[] for _ in DESIGNS]
    errors = [None for _ in DESIGNS]
    for _ in range(reps):
        for i, d in enumerate(DESIGNS):
            if errors[i] is not None:
                continue
            cmd, cwd = command(d, step, n)
            r, status, err = measure(cmd, cwd)
            if status != 0:
                errors[i] = (status, err)
            else:
                results[i].append(r)
    out = []
    for i in range(len(DESIGNS)):
        if errors[i] is not None:
            out.append((None, errors[i][0], errors[i][1]))
        else:
            rs = results[i]
            out.append(((statistics.median(r[0] for r in rs),
                         statistics.median(r[1] for r in rs), max(r[2] for r in rs)), 0, b""))
    return out


# The memory baseline of a run needs the empty program compiled with gcc -O2.
empty_kb = [None for _ in DESIGNS]
if "run" in steps:
    ok = True
    for step in ("pclc", "gcc-O2"):
        for i, (r, status, err) in enumerate(run_step(step, "empty", 1)):
            if r is None:
                sys.stderr.write("bench: %s: empty-program %s failed (%s)\n%s\n" %
                                 (DESIGNS[i][0], step, status,
                                  err.decode(errors="replace")[:1500]))
                ok = False
    if ok:
        for i, (r, status, err) in enumerate(run_step("run", "empty", 3)):
            empty_kb[i] = r[2] if r else None

print()
print("%-9s %10s %-9s %9s %9s %12s %10s %12s %12s  %s" %
      ("step", "resources", "compiler", "CPU s", "wall s", "us/resource", "peak KB",
       "KB/resource", "C B/resource", "goal or ratio"))
skip = [set() for _ in DESIGNS]
c_size = [{} for _ in DESIGNS]
for n in sizes:
    reps = runs_large if n >= 100000 else runs
    for step in steps:
        if not available(step):
            if n == sizes[0]:
                print("%-9s %10s  (not installed; skipped)" % (step, "-"))
            continue
        if step == "run":
            # The run needs the gcc -O2 executable even when that step is
            # not measured.
            for i, d in enumerate(DESIGNS):
                if not os.path.exists(command(d, "run", n)[0][0]):
                    if run_step("gcc-O2", n, 1)[i][0] is None:
                        skip[i].add("run")
        measured = run_step(step, n, reps)
        this_cpu = None
        for i, d in enumerate(DESIGNS):
            name = d[0]
            if step in skip[i]:
                print("%-9s %10d %-9s  skipped (failed or timed out at a smaller size)" %
                      (step, n, name))
                continue
            r, status, err = measured[i]
            if r is None:
                print("%-9s %10d %-9s  FAILED (%s): %s" %
                      (step, n, name, status, err.decode(errors="replace").strip().splitlines()[:3]))
                skip[i].add(step)
                # The later steps need this one's output.
                if step == "pclc":
                    skip[i].update(CCS)
                    skip[i].add("run")
                if step == "gcc-O2":
                    skip[i].add("run")
                if status != "timeout":
                    failed = True
                continue
            wall, secs, peak = r
            us = secs * 1e6 / n
            kb = None
            if step == "run" and empty_kb[i] is not None:
                kb = max(peak - empty_kb[i], 0) / n
            cb = None
            if step == "pclc":
                cb = os.path.getsize(os.path.join(work, "program-%d%s.c" % (n, d[4]))) / n
                c_size[i][n] = cb
            if i == 0:
                this_cpu = secs
                goal, parts = GOALS.get(step), []
                if goal and goal[0] is not None:
                    parts.append("<= %d us %s" % (goal[0], "meets" if us <= goal[0] else "MISSES"))
                if goal and goal[1] is not None and kb is not None:
                    parts.append("<= %d KB %s" % (goal[1], "meets" if kb <= goal[1] else "MISSES"))
                verdict = "; ".join(parts)
            else:
                verdict = ("this / baseline CPU %.2f" % (this_cpu / secs)
                           if this_cpu is not None and secs > 0 else "")
            print("%-9s %10d %-9s %9.3f %9.3f %12.2f %10d %12s %12s  %s" %
                  (step, n, name, secs, wall, us, peak, "%.2f" % kb if kb is not None else "-",
                   "%.0f" % cb if cb is not None else "-", verdict))
        sys.stdout.flush()
for i, d in enumerate(DESIGNS):
    if empty_kb[i] is not None:
        print("%s: run of the empty program: %d KB peak" % (d[0], empty_kb[i]))
    if 10000 in c_size[i] and 100000 in c_size[i]:
        g = c_size[i][100000] / c_size[i][10000]
        print("%s: generated C per resource at 100,000 / at 10,000 resources: %.3f%s" %
              (d[0], g, " (<= %.2f %s)" % (C_GROWTH_GOAL, "meets" if g <= C_GROWTH_GOAL else
                                          "MISSES") if i == 0 else ""))
sys.exit(1 if failed else 0)
EOF
