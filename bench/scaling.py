#!/usr/bin/env python3
"""scaling.py: is every kind of input handled in time linear in its size?

Usage: bench/scaling.py BUILD_DIR [WORK_DIR] [KIND...]

For each kind of input in the KINDS table below, writes an input of each
size of SIZES (default 10,000 and 100,000 of the kind's unit: attributes,
locals, schema properties, ...), runs the kind's command on it RUNS times
(default 3) and prints the median CPU time (user + system, from os.wait4)
and the peak resident memory (GNU time's %M when /usr/bin/time exists, else
the child's ru_maxrss) at each size, then the growth factor of the time
from the smallest size to the largest.  The goal is a factor of at most
GOAL (12) for ten times the input: linear, with room for an n log n sort
and for the noise of a shared machine; a quadratic step gives about 100.
The exit status is 1 when a kind misses the goal or a command fails.

BUILD_DIR holds pclc, libpclrt.a and pkgconfig/pclrt.pc (an optimised
build without sanitizers: `make bench-scaling` uses build/); the run-time
kinds build their programs with gcc.  KIND arguments pick some
kinds by name; SIZES, RUNS and GOAL can be set in the environment.

Adding a kind: write a function that takes the size n and a fresh folder,
writes the input there and returns the command to time (a list: the
program and its arguments, with "{pclc}" standing for the compiler), and
add a row to KINDS.  A kind that runs a compiled program builds it in that
function (which is not timed; see compiled_program) and returns the
program's command: the run on the embedded engine, stack outputs to
/dev/null.
"""

import json
import os
import statistics
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
TIME = "/usr/bin/time"


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def write_schema(folder, schema):
    """Writes a package schema into folder/schemas as <name>-<version>.json."""
    os.makedirs(os.path.join(folder, "schemas"), exist_ok=True)
    path = os.path.join(folder, "schemas", "%s-%s.json" % (schema["name"], schema["version"]))
    with open(path, "w") as f:
        json.dump(schema, f)


def pclc_check(folder):
    return ["{pclc}", "--check", "--schema-path", os.path.join(folder, "schemas"),
            os.path.join(folder, "main.pp")]


def pclc_compile(folder):
    return ["{pclc}", "--schema-path", os.path.join(folder, "schemas"), "-o", "/dev/null",
            os.path.join(folder, "main.pp")]


# ------------------------------------------------------------- the programs
# Each writes main.pp (and the schemas it needs) into folder.

def attributes_program(n, folder):
    """An output whose value is one object of n attributes."""
    body = "".join("    a%d = %d\n" % (i, i) for i in range(n))
    write(os.path.join(folder, "main.pp"), "output o {\n  value = {\n%s  }\n}\n" % body)
    os.makedirs(os.path.join(folder, "schemas"), exist_ok=True)


def locals_program(n, folder):
    """n locals, each the previous one plus one, and an output of the last."""
    lines = ["l0 = 0\n"] + ["l%d = l%d + 1\n" % (i, i - 1) for i in range(1, n)]
    lines.append("output o {\n  value = l%d\n}\n" % (n - 1))
    write(os.path.join(folder, "main.pp"), "".join(lines))
    os.makedirs(os.path.join(folder, "schemas"), exist_ok=True)


def elements_program(n, folder):
    """An output whose value is a list of n strings."""
    body = "".join('    "e%d",\n' % i for i in range(n))
    write(os.path.join(folder, "main.pp"), "output o {\n  value = [\n%s  ]\n}\n" % body)
    os.makedirs(os.path.join(folder, "schemas"), exist_ok=True)


def computed_keys_program(n, folder):
    """An output whose value is an object of n keys computed from a local
    (a map whose element type unifies n constants)."""
    body = "".join('    "${k}%d" = %d\n' % (i, i) for i in range(n))
    write(os.path.join(folder, "main.pp"),
          'k = "a"\noutput o {\n  value = {\n%s  }\n}\n' % body)
    os.makedirs(os.path.join(folder, "schemas"), exist_ok=True)


def for_elements_program(n, folder):
    """A for expression over a list of n literals."""
    items = ",\n".join("    %d" % i for i in range(n))
    write(os.path.join(folder, "main.pp"),
          "output o {\n  value = [for x in [\n%s\n  ] : x]\n}\n" % items)
    os.makedirs(os.path.join(folder, "schemas"), exist_ok=True)


def packages_program(n, folder):
    """n resources of n packages that have no schema."""
    lines = ['resource r%d "p%d:index:Thing" {\n  x = %d\n}\n' % (i, i, i) for i in range(n)]
    write(os.path.join(folder, "main.pp"), "".join(lines))
    os.makedirs(os.path.join(folder, "schemas"), exist_ok=True)


def resources_program(n, folder):
    """n resources of one schema type, each naming the previous one."""
    props = {"name": {"type": "string"}, "after": {"type": "string"}}
    write_schema(folder, {"name": "big", "version": "1.0.0", "resources": {
        "big:index:Thing": {"inputProperties": props, "properties": props}}})
    lines = ['resource r0 "big:index:Thing" {\n  name = "r0"\n}\n']
    lines += ['resource r%d "big:index:Thing" {\n  name = "r%d"\n  after = r%d.name\n}\n'
              % (i, i, i - 1) for i in range(1, n)]
    write(os.path.join(folder, "main.pp"), "".join(lines))


def schema_properties_program(n, folder):
    """A resource type of n required properties, each set by the program."""
    props = {"p%d" % i: {"type": "string"} for i in range(n)}
    required = sorted(props)
    write_schema(folder, {"name": "big", "version": "1.0.0", "resources": {
        "big:index:Thing": {"inputProperties": props, "requiredInputs": required,
                            "properties": props, "required": required}}})
    body = "".join('  p%d = "v"\n' % i for i in range(n))
    write(os.path.join(folder, "main.pp"), 'resource r "big:index:Thing" {\n%s}\n' % body)


def schema_types_program(n, folder):
    """A schema of n object types, each a property of one resource type and
    each (but the last) with a property of the next type."""
    types = {}
    for i in range(n):
        props = {"x": {"type": "string"}}
        if i + 1 < n:
            props["next"] = {"$ref": "#/types/big:index:T%d" % (i + 1)}
        types["big:index:T%d" % i] = {"type": "object", "properties": props}
    props = {"p%d" % i: {"$ref": "#/types/big:index:T%d" % i} for i in range(n)}
    write_schema(folder, {"name": "big", "version": "1.0.0", "types": types, "resources": {
        "big:index:Thing": {"inputProperties": props, "properties": props}}})
    body = "".join('  p%d = { x = "v" }\n' % i for i in range(n))
    write(os.path.join(folder, "main.pp"), 'resource r "big:index:Thing" {\n%s}\n' % body)


def schema_methods_program(n, folder):
    """A resource type with n methods, each its own function, each called."""
    functions = {"big:index:f%d" % i: {
        "inputs": {"properties": {"__self__": {"$ref": "#/resources/big:index:Thing"}}},
        "outputs": {"properties": {"v": {"type": "string"}}}} for i in range(n)}
    methods = {"m%d" % i: "big:index:f%d" % i for i in range(n)}
    write_schema(folder, {"name": "big", "version": "1.0.0", "functions": functions,
                          "resources": {"big:index:Thing": {"methods": methods}}})
    calls = "".join('v%d = call(r, "m%d", {}).v\n' % (i, i) for i in range(n))
    write(os.path.join(folder, "main.pp"), 'resource r "big:index:Thing" {\n}\n' + calls)


def checked(program):
    def make(n, folder):
        program(n, folder)
        return pclc_check(folder)
    return make


def compiled(program):
    def make(n, folder):
        program(n, folder)
        return pclc_compile(folder)
    return make


# ------------------------------------------------------------- run-time kinds
# Each builds a compiled program in folder and returns the command that runs
# it on an input of size n.  The programs take their size from config `n`
# at run time, so that the program is the same at every size and only the
# run grows.

# The build folder of pclc and libpclrt.a (set by main).
BUILD = None


def compiled_program(folder, source):
    """Compiles source (PCL text) with the pclc and libpclrt of BUILD into
    folder/prog with gcc -O2, as a user's build would; returns its path."""
    write(os.path.join(folder, "main.pp"), source)
    c_file = os.path.join(folder, "prog.c")
    exe = os.path.join(folder, "prog")
    subprocess.run([os.path.join(BUILD, "pclc"), "-o", c_file, os.path.join(folder, "main.pp")],
                   check=True, stderr=subprocess.DEVNULL)
    env = dict(os.environ, PKG_CONFIG_PATH=os.path.join(BUILD, "pkgconfig"))
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "pclrt"], env=env, check=True,
                           stdout=subprocess.PIPE, text=True).stdout.split()
    subprocess.run(["gcc", "-O2", "-w", c_file, "-o", exe] + flags, check=True)
    return exe


def config_keys_run(n, folder):
    """A config file of n keys, each declared by the program."""
    decls = "".join("config k%d string {\n}\n" % i for i in range(n))
    exe = compiled_program(folder, decls + "output o {\n  value = k%d\n}\n" % (n - 1))
    config = os.path.join(folder, "config.json")
    with open(config, "w") as f:
        json.dump({"k%d" % i: "v%d" % i for i in range(n)}, f)
    return [exe, "--config-file", config]


RANGE_PROGRAM = """config n int {
}
resource r "bench:index:Thing" {
  options {
    range = n
  }
  x = range.value
}
"""


def range_instances_run(n, folder):
    """A resource of n instances (range) and one expression over them all
    (length(r): the dependencies of all n instances unioned)."""
    exe = compiled_program(folder, RANGE_PROGRAM + "output o {\n  value = length(r)\n}\n")
    return [exe, "--config", "n=%d" % n]


def mocks_resources_run(n, folder):
    """n mocks of resources (type::name), one for each of n instances."""
    exe = compiled_program(folder, RANGE_PROGRAM +
                           "output o {\n  value = length([for x in r : x.y])\n}\n")
    mocks = os.path.join(folder, "mocks.json")
    with open(mocks, "w") as f:
        json.dump({"resources": {"bench:index:Thing::r-%d" % i: {"outputs": {"y": i}}
                                 for i in range(n)}}, f)
    return [exe, "--config", "n=%d" % n, "--mocks", mocks]


def mocks_invokes_run(n, folder):
    """n mocks entries of one invoke token, each matched by one of n invokes
    (the first entry whose args match is the answer); the entries share
    their first argument and differ in the second."""
    exe = compiled_program(folder, """config n int {
}
output o {
  value = length([for i in range(n) : invoke("bench:index:get", { account = "a", key = "k${i}" }).v])
}
""")
    mocks = os.path.join(folder, "mocks.json")
    with open(mocks, "w") as f:
        json.dump({"invokes": {"bench:index:get": [
            {"args": {"account": "a", "key": "k%d" % i}, "result": {"v": i}}
            for i in range(n)]}}, f)
    return [exe, "--config", "n=%d" % n, "--mocks", mocks]


def stack_reference_run(n, folder):
    """A stack reference of n outputs, every other one listed secret, read
    through getOutput and as a whole."""
    exe = compiled_program(folder, """resource ref "pulumi:pulumi:StackReference" {
  name = "org/other/dev"
}
output o {
  value = {
    first = getOutput(ref, "o0")
    all = length(ref.outputs)
  }
}
""")
    ref = os.path.join(folder, "ref.json")
    with open(ref, "w") as f:
        json.dump({"outputs": {"o%d" % i: i for i in range(n)},
                   "secretOutputNames": ["o%d" % i for i in range(0, n, 2)]}, f)
    return [exe, "--stack-reference", "org/other/dev=" + ref]


def lists_run(n, folder):
    """A list of n strings built at run time, read element by element,
    joined, split, encoded as JSON and printed."""
    exe = compiled_program(folder, """config n int {
}
l = [for i in range(n) : "e${i}"]
output o {
  value = {
    list = l
    indexed = [for i in range(n) : element(l, i)]
    joined = length(join(",", l))
    split = length(split(",", join(",", l)))
    json = length(toJSON(l))
  }
}
""")
    return [exe, "--config", "n=%d" % n]


def maps_run(n, folder):
    """A map of n entries built at run time, looked up key by key (index
    and lookup), filtered, listed as entries and printed."""
    exe = compiled_program(folder, """config n int {
}
m = {for i in range(n) : "k${i}" => i}
output o {
  value = {
    map = m
    indexed = [for i in range(n) : m["k${i}"]]
    looked = [for i in range(n) : lookup(m, "k${i}", 0)]
    filtered = length({for k, v in m : k => v if v > 0})
    entries = length(entries(m))
    json = length(toJSON(m))
  }
}
""")
    return [exe, "--config", "n=%d" % n]


# One row per kind: name, what grows, the function that writes an input and
# returns the command to time.
KINDS = [
    ("attributes/check", "pclc --check: an object of N attributes", checked(attributes_program)),
    ("attributes/compile", "pclc -o: an object of N attributes", compiled(attributes_program)),
    ("locals/check", "pclc --check: N locals", checked(locals_program)),
    ("locals/compile", "pclc -o: N locals", compiled(locals_program)),
    ("elements/check", "pclc --check: a list of N elements", checked(elements_program)),
    ("elements/compile", "pclc -o: a list of N elements", compiled(elements_program)),
    ("computed-keys/check", "pclc --check: an object of N computed keys",
     checked(computed_keys_program)),
    ("computed-keys/compile", "pclc -o: an object of N computed keys",
     compiled(computed_keys_program)),
    ("for-elements/check", "pclc --check: a for expression over N literals",
     checked(for_elements_program)),
    ("for-elements/compile", "pclc -o: a for expression over N literals",
     compiled(for_elements_program)),
    ("packages/check", "pclc --check: N resources of N packages without schemas",
     checked(packages_program)),
    ("resources/check", "pclc --check: N resources", checked(resources_program)),
    ("resources/compile", "pclc -o: N resources", compiled(resources_program)),
    ("schema-properties/check", "pclc --check: a resource type of N properties",
     checked(schema_properties_program)),
    ("schema-properties/compile", "pclc -o: a resource type of N properties",
     compiled(schema_properties_program)),
    ("schema-types/check", "pclc --check: a schema of N object types",
     checked(schema_types_program)),
    ("schema-types/compile", "pclc -o: a schema of N object types",
     compiled(schema_types_program)),
    ("schema-methods/check", "pclc --check: a resource type of N methods",
     checked(schema_methods_program)),
    ("config-keys/run", "a program run with a config file of N keys", config_keys_run),
    ("range-instances/run", "a program run: length(r) over N instances of r",
     range_instances_run),
    ("mocks-resources/run", "a program run: N instances, N resource mocks",
     mocks_resources_run),
    ("mocks-invokes/run", "a program run: N invokes, N mocks entries of their token",
     mocks_invokes_run),
    ("stack-reference/run", "a program run: a stack reference of N outputs",
     stack_reference_run),
    ("lists/run", "a program run: a list of N strings", lists_run),
    ("maps/run", "a program run: a map of N entries", maps_run),
]


# ------------------------------------------------------------- measuring

def measure(cmd, work):
    """Runs cmd once; returns (CPU seconds, peak KB).  Exits on failure."""
    rss_file = os.path.join(work, "rss.txt")
    full = cmd
    if os.access(TIME, os.X_OK):
        full = [TIME, "-f", "%M", "-o", rss_file] + cmd
    with open(os.devnull, "wb") as null:
        p = subprocess.Popen(full, stdout=null, stderr=subprocess.PIPE)
        err = p.stderr.read()
        p.stderr.close()
        _, status, usage = os.wait4(p.pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.stderr.write("scaling: %s exited with %d\n%s" %
                         (" ".join(cmd), code, err.decode(errors="replace")[:2000]))
        return None
    if full is not cmd:
        with open(rss_file) as f:
            peak = int(f.read().split()[-1])
    else:
        peak = usage.ru_maxrss
    return usage.ru_utime + usage.ru_stime, peak


def main():
    if len(sys.argv) < 2:
        sys.stderr.write("usage: bench/scaling.py BUILD_DIR [WORK_DIR] [KIND...]\n")
        return 2
    build = os.path.abspath(sys.argv[1])
    work = os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else os.path.join(build, "scaling"))
    chosen = sys.argv[3:]
    names = [k[0] for k in KINDS]
    for c in chosen:
        if c not in names:
            sys.stderr.write("scaling: unknown kind '%s' (kinds: %s)\n" % (c, ", ".join(names)))
            return 2
    global BUILD
    BUILD = build
    pclc = os.path.join(build, "pclc")
    sizes = [int(s) for s in os.environ.get("SIZES", "10000 100000").split()]
    runs = int(os.environ.get("RUNS", "3"))
    goal = float(os.environ.get("GOAL", "12"))
    os.makedirs(work, exist_ok=True)

    print("scaling benchmark (%s, %d CPUs): median CPU seconds of %d runs, peak memory"
          % (os.uname().machine, os.cpu_count(), runs))
    head = "%-26s" % "kind"
    for n in sizes:
        head += " %9s %9s" % ("s@%d" % n, "MB@%d" % n)
    print(head + " %7s  %s" % ("factor", "goal <= %g" % goal))
    status = 0
    for name, what, make in KINDS:
        if chosen and name not in chosen:
            continue
        row = "%-26s" % name
        times = []
        for n in sizes:
            folder = os.path.join(work, name.replace("/", "-"), str(n))
            os.makedirs(folder, exist_ok=True)
            cmd = [a.replace("{pclc}", pclc) for a in make(n, folder)]
            results = [measure(cmd, work) for _ in range(runs)]
            if None in results:
                status = 1
                break
            cpu = statistics.median(r[0] for r in results)
            peak = max(r[1] for r in results)
            times.append(cpu)
            row += " %9.3f %9.1f" % (cpu, peak / 1024.0)
        if len(times) < len(sizes):
            print(row + "  (failed)")
            continue
        factor = times[-1] / times[0] if times[0] > 0 else float("inf")
        verdict = "meets" if factor <= goal else "MISSES"
        if factor > goal:
            status = 1
        print(row + " %7.1f  %s  (%s)" % (factor, verdict, what))
        sys.stdout.flush()
    return status


if __name__ == "__main__":
    sys.exit(main())
