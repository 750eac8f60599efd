#!/usr/bin/env python3
# grpc-bench.py: the speed of the gRPC backend (`make bench-grpc`,
# docs/engine.md).
#
# 1. Concurrency: a program of 200 independent resources against
#    tests/engine/engine.js answering each registration after 50 ms, with
#    PULUMI_PARALLEL=32; the goal is a run under 0.6 s (serially it would
#    take 10 s).
# 2. Cost per resource against an engine that answers at once: the same
#    program with N resources on the embedded engine and through gRPC, and a
#    Node.js program for @pulumi/pulumi registering the same N resources
#    under the same engine.js.  Each cost is the CPU time (user + system of
#    the program's process, gRPC's threads included; the engine's own time
#    is not counted) of a run of N resources minus that of a run of none,
#    divided by N.  The goal: the gRPC backend's cost over the embedded
#    engine's is at most a tenth of the Node SDK's.
#
# Every figure is the median of RUNS runs.  Usage:
#   bench/grpc-bench.py BUILD_DIR WORK_DIR [N]
# BUILD_DIR holds pclc and libpclrt.a (an optimised build without sanitizers);
# tests/engine's packages must be installed (make engine-modules).

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
ENGINE_JS = os.path.join(REPO, "tests", "engine", "engine.js")
MODULES = os.path.join(REPO, "tests", "engine", "node_modules")
NODE_RUN = os.path.join(MODULES, "@pulumi", "pulumi", "cmd", "run")
LIBS = ["-ljansson", "-lutf8proc", "-lnettle", "-larchive", "-lgmp", "-lgrpc", "-lgpr", "-lprotobuf-c", "-lm"]
RUNS = 5


def program_text(n):
    lines = ["# %d independent resources (bench/grpc-bench.py).\n" % n]
    for i in range(n):
        lines.append('resource r%d "aws:s3/bucket:Bucket" {\n  forceDestroy = true\n}\n' % i)
    return "\n".join(lines)


NODE_PROGRAM = """// The Node.js counterpart of the generated PCL program (bench/grpc-bench.py).
const pulumi = require("@pulumi/pulumi");
const n = Number(process.env.BENCH_N);
for (let i = 0; i < n; i++) {
  new pulumi.CustomResource("aws:s3/bucket:Bucket", "r" + i, { forceDestroy: true });
}
"""


def build(build_dir, work, n):
    d = os.path.join(work, "pcl-%d" % n)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "main.pp"), "w") as fh:
        fh.write(program_text(n))
    c_file, exe = os.path.join(d, "main.c"), os.path.join(d, "main")
    subprocess.run([os.path.join(build_dir, "pclc"), "--schema-path",
                    os.path.join(REPO, "samples", "schemas"), os.path.join(d, "main.pp"),
                    "-o", c_file], check=True)
    subprocess.run(["cc", "-std=c11", "-O2", "-I" + os.path.join(REPO, "runtime", "include"), "-I" + os.path.join(REPO, "common"), c_file,
                    os.path.join(build_dir, "libpclrt.a")] + LIBS + ["-o", exe], check=True)
    return exe


class Engine:
    """engine.js running in the background."""

    def __init__(self, work, args):
        self.port_file = os.path.join(work, "engine.port")
        if os.path.exists(self.port_file):
            os.unlink(self.port_file)
        self.proc = subprocess.Popen(["node", ENGINE_JS, "--port-file", self.port_file,
                                      "--project", "bench", "--stack", "dev"] + args,
                                     stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while not os.path.exists(self.port_file):
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise SystemExit("bench: engine.js did not start")
            time.sleep(0.02)
        with open(self.port_file) as fh:
            self.addr = "127.0.0.1:" + fh.read()

    def stop(self):
        self.proc.terminate()
        self.proc.wait()


def timed(argv, env, cwd=None):
    """Runs argv; returns (wall seconds, CPU seconds of the child)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    subprocess.run(argv, env=env, cwd=cwd, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def grpc_env(addr, extra=None):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PULUMI_")}
    env.update({"PULUMI_MONITOR": addr, "PULUMI_ENGINE": addr, "PULUMI_PROJECT": "bench",
                "PULUMI_STACK": "dev"})
    env.update(extra or {})
    return env


def median_of(f):
    walls, cpus = zip(*[f() for _ in range(RUNS)])
    return statistics.median(walls), statistics.median(cpus)


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__ or "usage: bench/grpc-bench.py BUILD_DIR WORK_DIR [N]", file=sys.stderr)
        return 2
    build_dir, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    n = int(sys.argv[3]) if len(sys.argv) == 4 else 2000
    os.makedirs(work, exist_ok=True)
    p0, p200, pn = build(build_dir, work, 0), build(build_dir, work, 200), build(build_dir, work, n)
    ok = True

    eng = Engine(work, ["--delay", "50"])
    wall, cpu = median_of(lambda: timed([p200], grpc_env(eng.addr, {"PULUMI_PARALLEL": "32"})))
    eng.stop()
    print(f"200 resources, answers after 50 ms, PULUMI_PARALLEL=32: {wall:.3f} s wall "
          f"(goal < 0.6 s), {cpu * 1000:.1f} ms CPU")
    ok = ok and wall < 0.6

    eng = Engine(work, [])
    plain = {k: v for k, v in os.environ.items() if not k.startswith("PULUMI_")}
    _, emb0 = median_of(lambda: timed([p0, "--project", "bench", "--stack", "dev"], plain))
    _, embn = median_of(lambda: timed([pn, "--project", "bench", "--stack", "dev"], plain))
    _, grpc0 = median_of(lambda: timed([p0], grpc_env(eng.addr)))
    _, grpcn = median_of(lambda: timed([pn], grpc_env(eng.addr)))
    node_dir = os.path.join(work, "node")
    os.makedirs(node_dir, exist_ok=True)
    with open(os.path.join(node_dir, "index.js"), "w") as fh:
        fh.write(NODE_PROGRAM)

    def node(count):
        env = grpc_env(eng.addr, {"BENCH_N": str(count), "NODE_PATH": MODULES})
        return timed(["node", NODE_RUN, "--monitor=" + eng.addr, "--engine=" + eng.addr,
                      "--project=bench", "--stack=dev", "--organization=organization", "."],
                     env, cwd=node_dir)

    _, node0 = median_of(lambda: node(0))
    _, noden = median_of(lambda: node(n))
    eng.stop()
    emb = (embn - emb0) / n
    grpc = (grpcn - grpc0) / n
    nodejs = (noden - node0) / n
    over = grpc - emb
    print(f"{n} resources, answers at once, CPU per resource: embedded {emb * 1e6:.1f} us, "
          f"gRPC {grpc * 1e6:.1f} us (+{over * 1e6:.1f} us over the embedded engine), "
          f"Node.js SDK {nodejs * 1e6:.1f} us")
    print(f"gRPC backend's cost over the embedded engine / Node.js SDK's cost: "
          f"{over / nodejs:.3f} (goal <= 0.1)")
    ok = ok and over <= nodejs / 10
    print("bench-grpc: " + ("goals met" if ok else "a goal is missed"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
