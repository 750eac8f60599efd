#!/usr/bin/env python3
"""memory.py: pclc's peak memory per byte of source, next to HCL's parser's.

Usage: bench/memory.py PCLC HCLPARSE [WORK_DIR]

Writes programs of 10,000 and 100,000 resources and one of about 50 MiB
with bench/gen-program.py, and measures on each the peak resident memory
(GNU time's %M) of HCLPARSE, HashiCorp's parser (hclsyntax.ParseConfig of
github.com/hashicorp/hcl/v2, built from bench/hclparse by `make
bench-memory`), and of PCLC parsing (--parse-only), checking (--check) and
compiling (-o) it against the schemas of ../shared/programs/_schemas.  It
prints the peak in MB and in bytes per byte of source for each, and the
ratio of pclc's compile to the HCL parser's: the goal is below 1, pclc's
whole compile taking less memory than HCL's parsing alone.  The largest of
RUNS runs (default 3) is kept.  The exit status is 1 when a run fails or
the goal is missed.
"""

import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
SCHEMAS = os.path.join(REPO, "..", "shared", "programs", "_schemas")
TIME = "/usr/bin/time"
# Resources of each program; 175,000 make about 50 MiB.
SIZES = [("10,000 resources", 10000), ("100,000 resources", 100000),
         ("50 MiB", 175000)]


def peak_kb(cmd, work):
    """Runs cmd; returns its peak resident size in KB, or None on failure."""
    out = os.path.join(work, "rss.txt")
    p = subprocess.run([TIME, "-f", "%M", "-o", out] + cmd, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE)
    if p.returncode != 0:
        sys.stderr.write("memory: %s exited with %d\n%s" %
                         (" ".join(cmd), p.returncode, p.stderr.decode(errors="replace")[:2000]))
        return None
    with open(out) as f:
        return int(f.read().split()[-1])


def main():
    if len(sys.argv) not in (3, 4):
        sys.stderr.write("usage: bench/memory.py PCLC HCLPARSE [WORK_DIR]\n")
        return 2
    pclc, hcl = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    work = os.path.abspath(sys.argv[3] if len(sys.argv) == 4 else "build/bench/memory")
    runs = int(os.environ.get("RUNS", "3"))
    if not os.access(TIME, os.X_OK):
        sys.stderr.write("memory: needs GNU time (%s, Debian package time)\n" % TIME)
        return 2
    os.makedirs(work, exist_ok=True)
    tools = [
        ("hclsyntax.ParseConfig", lambda path: [hcl, path]),
        ("pclc --parse-only", lambda path: [pclc, "--parse-only", path]),
        ("pclc --check", lambda path: [pclc, "--check", "--schema-path", SCHEMAS, path]),
        ("pclc -o", lambda path: [pclc, "--schema-path", SCHEMAS, "-o", "/dev/null", path]),
    ]
    print("peak memory per byte of source (%s): the largest of %d runs" % (os.uname().machine, runs))
    print("%-18s %10s  %-22s %9s %7s" % ("program", "bytes", "tool", "peak MB", "B/B"))
    status = 0
    for label, n in SIZES:
        path = os.path.join(work, "program-%d.pp" % n)
        gen = os.path.join(REPO, "bench", "gen-program.py")
        if not os.path.exists(path) or os.path.getmtime(gen) > os.path.getmtime(path):
            subprocess.run([sys.executable, gen, str(n), path], check=True)
        size = os.path.getsize(path)
        peaks = {}
        for name, cmd in tools:
            results = [peak_kb(cmd(path), work) for _ in range(runs)]
            if None in results:
                status = 1
                continue
            peaks[name] = max(results)
            print("%-18s %10d  %-22s %9.1f %7.1f" %
                  (label, size, name, peaks[name] / 1024.0, peaks[name] * 1024.0 / size))
        if "pclc -o" in peaks and "hclsyntax.ParseConfig" in peaks:
            ratio = peaks["pclc -o"] / peaks["hclsyntax.ParseConfig"]
            verdict = "meets" if ratio < 1 else "MISSES"
            if ratio >= 1:
                status = 1
            print("%-18s pclc -o / hclsyntax.ParseConfig: %.2f (goal < 1: %s)" % (label, ratio, verdict))
        sys.stdout.flush()
    return status


if __name__ == "__main__":
    sys.exit(main())
