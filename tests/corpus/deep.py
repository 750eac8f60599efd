#!/usr/bin/env python3
"""deep.py: programs as deep as HCL accepts, through every phase up to the C.

Usage: tests/corpus/deep.py PCLC

HCL's parser accepts 10,000 nested brackets, braces, blocks and templates
and chains of 100,000 operators, traversals or `!`; so must pclc, in time
and memory linear in their depth; so must schema loading, for named types
and resources that name each other in chains 10,000 long.  pclc's phases
recurse over the depth on a stack of their own (compiler/base/stack.h), so
every run here limits the process stack to 1 MiB: the phases must not use
the main thread's.  Each case below is a program generator (and, for the
schema cases, of the schema it loads); every case is generated at two sizes
(the full depth and a quarter of it) and run through `pclc --check`,
`--dump-ast`, `--dump-types`, `--dump-ir` and `-o FILE`, the C (the modes
the case lists).  A run must end as the case says (status 0 with no
diagnostics and, for the dumps and the C, some output; or status 1 with an
error) within STRESS_TIMEOUT
CPU seconds (default 60), and the full-size run may take at most 8 times the
CPU time and memory of the quarter-size one (4 times would be linear, 16
times quadratic) plus a fixed allowance (0.5 s, 48 MiB) for start-up and
noise.

Then every case runs again, twice as deep, in every mode, on a stack of
1 MiB (PCLC_STACK_SIZE), which is too small for that depth: pclc must refuse
it with one located `error: expression nested too deeply` (source line and
caret), status 1 and no output (for `-o`, no file), never a crash; or, where the C compiler
turned a phase's recursion into a loop (a tail call), end as the case says.
Every mode must refuse some case.

Prints one line per case and mode, then `N passed, M failed`; exits 1 when a
run failed.
"""

import json
import os
import re
import resource
import subprocess
import sys
import tempfile

NEST = 10000  # Nesting depth of the full-size nested cases.
CHAIN = 100000  # Length of the full-size chains.
STACK = 1 << 20  # Stack limit of every run, in bytes.
CPU_SLACK = 0.5  # Seconds the full-size run may take beyond 8 times the small one.
RSS_SLACK = 48 << 10  # KiB it may use beyond 8 times the small one.

COMPILE = "-o"  # The mode that writes the C, to the file of the run's output.
ALL = ("--check", "--dump-ast", "--dump-types", "--dump-ir", COMPILE)
SMALL_STACK = "1M"  # The phases' stack of the runs twice as deep, too small for them.
TOO_DEEP = "error: expression nested too deeply"


def nested(open_, inner, close):
    """A generator nesting `inner` n times in open_ ... close."""
    return lambda n: open_ * n + inner + close * n


def label(n):
    return "list(" * n + "string" + ")" * n


def schema(types, resources):
    """The text of the schema of package `chain` 1.0.0."""
    return json.dumps({"name": "chain", "version": "1.0.0", "types": types,
                       "resources": resources})


def type_chain(n):
    """Object types T0 ... Tn-1 of the schema, each naming the next, and a
    resource whose input and output are a T0."""
    types = {}
    for i in range(n):
        props = {"v": {"type": "string"}}
        if i + 1 < n:
            props["next"] = {"$ref": "#/types/chain:index:T%d" % (i + 1)}
        types["chain:index:T%d" % i] = {"type": "object", "properties": props}
    t0 = {"t": {"$ref": "#/types/chain:index:T0"}}
    program = 'resource r "chain:index:R" {\n  t = { v = "a" }\n}\na = r.t.next.v\n'
    return program, schema(types, {"chain:index:R": {"inputProperties": t0,
                                                     "properties": t0}})


def resource_chain(n):
    """Resources R0 ... Rn-1 of the schema, each with an output that is the
    next one."""
    resources = {}
    for i in range(n):
        props = {"v": {"type": "string"}}
        if i + 1 < n:
            props["next"] = {"$ref": "#/resources/chain:index:R%d" % (i + 1)}
        resources["chain:index:R%d" % i] = {"properties": props}
    return 'resource r "chain:index:R0" {}\na = r.next.v\n', schema({}, resources)


# name: (kind, modes, expected status, generator of the program text, or of
# the program text and the text of a schema to load)
CASES = {
    "brackets": ("nest", ALL, 0, lambda n: "a = " + nested("[", "1", "]")(n) + "\n"),
    "parentheses": ("nest", ALL, 0, lambda n: "a = " + nested("(", "1", ")")(n) + "\n"),
    "objects": ("nest", ALL, 0, lambda n: "a = " + nested("{k = ", "1", "}")(n) + "\n"),
    "for-expressions": ("nest", ALL, 0,
                        lambda n: "a = " + nested("[for x in ", "[1]", " : x]")(n) + "\n"),
    "for-objects": ("nest", ALL, 0,
                    lambda n: "a = " + nested("{for k, v in ", "{}", " : k => v}")(n) + "\n"),
    "calls": ("nest", ALL, 0, lambda n: "a = " + nested("try(", "1", ")")(n) + "\n"),
    "builtins": ("nest", ALL, 0, lambda n: "a = " + nested("toJSON(", "1", ")")(n) + "\n"),
    "blocks": ("nest", ("--dump-ast",), 0,
               lambda n: "x {\n" + "y {\n" * n + "}\n" * n + "}\n"),
    "templates": ("nest", ALL, 0, lambda n: "a = " + nested('"${', "1", '}"')(n) + "\n"),
    "heredocs": ("nest", ALL, 0,
                 lambda n: "a = " + nested("<<EOT\n${", "1", "}\nEOT\n")(n)),
    "template-ifs": ("nest", ALL, 0,
                     lambda n: 'c = true\na = "' + nested("%{if c}x", "", "%{endif}")(n)
                     + '"\n'),
    "template-fors": ("nest", ALL, 0,
                      lambda n: 'a = "' + nested("%{for x in [1]}y", "", "%{endfor}")(n)
                      + '"\n'),
    "type-label": ("nest", ALL, 0, lambda n: 'config x "' + label(n) + '" {}\n'),
    "convert": ("nest", ALL, 0, lambda n: "a = convert([], " + label(n) + ")\n"),
    "unify-tuples": ("nest", ALL, 0,
                     lambda n: "c = true\na = c ? " + nested("[", "1", "]")(n) + " : "
                     + nested("[", "2", "]")(n) + "\n"),
    "unify-objects": ("nest", ALL, 0,
                      lambda n: "c = true\na = c ? " + nested("{a = ", "1", "}")(n) + " : "
                      + nested("{a = ", "2", "}")(n) + "\n"),
    "unions": ("nest", ALL, 0,
               lambda n: "c = true\na = " + nested("[c ? ", "1", " : 2]")(n) + "\n"),
    "eventuals": ("nest", ALL, 0,
                  lambda n: 'config s "string" {\n  secret = true\n}\na = '
                  + nested("[", "s", "]")(n) + "\n"),
    "tuple-traversal": ("nest", ALL, 0,
                        lambda n: "a = " + nested("[", "1", "]")(n) + "\nb = a" + "[0]" * n
                        + "\n"),
    "object-conversion": ("nest", ALL, 0,
                          lambda n: 'config x "' + nested("object({a = ", "string", "})")(n)
                          + '" {\n  default = ' + nested("{a = ", '"s"', "}")(n) + "\n}\n"),
    "splats": ("nest", ALL, 0, lambda n: "config x {}\na = x" + "[*].a" * n + "\n"),
    "conversion-error": ("nest", ("--check",), 1,
                         lambda n: 'config x "' + label(n) + '" {\n  default = '
                         + nested("[", "{}", "]")(n) + "\n}\n"),
    "schema-types": ("nest", ("--check", "--dump-types", "--dump-ir", COMPILE), 0, type_chain),
    "schema-resources": ("nest", ("--check", "--dump-types", "--dump-ir", COMPILE), 0,
                         resource_chain),
    "sum": ("chain", ALL, 0, lambda n: "a = " + " + ".join(["1"] * n) + "\n"),
    "and": ("chain", ALL, 0, lambda n: "c = true\na = " + " && ".join(["c"] * n) + "\n"),
    "not": ("chain", ALL, 0, lambda n: "a = " + "!" * n + "true\n"),
    "negation": ("chain", ALL, 0, lambda n: "a = " + "-" * n + "1\n"),
    "conditionals": ("chain", ALL, 0, lambda n: "c = true\na = " + "c ? 1 : " * n + "0\n"),
    "attributes": ("chain", ALL, 0, lambda n: "config x {}\na = x" + ".a" * n + "\n"),
    "indexes": ("chain", ALL, 0, lambda n: "config x {}\na = x" + "[0]" * n + "\n"),
}


def limit():
    """Runs in the child before exec: the stack and CPU time limits."""
    resource.setrlimit(resource.RLIMIT_STACK, (STACK, STACK))
    cpu = int(os.environ.get("STRESS_TIMEOUT", "60"))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))


def run(pclc, mode, path, flags, out, err, env=None):
    """Runs pclc, its output (a dump, or the C file) to out; returns
    (status, CPU seconds, max RSS in KiB)."""
    if os.path.exists(out):
        os.remove(out)
    if mode == COMPILE:
        args, stdout = ["-o", out], os.devnull
    else:
        args, stdout = [mode], out
    with open(stdout, "wb") as o, open(err, "wb") as e:
        p = subprocess.Popen([pclc] + args + [path] + flags, stdin=subprocess.DEVNULL, stdout=o,
                             stderr=e, preexec_fn=limit, env=env)
        _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    return p.returncode, usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def check(status, want, mode, out, err):
    """Returns why a run ended wrongly, or None."""
    if status < 0:
        return "killed by signal %d" % -status
    if status != want:
        return "exit status %d, expected %d" % (status, want)
    if want == 0:
        if os.path.getsize(err):
            return "diagnostics on stderr"
        if mode != "--check" and not (os.path.exists(out) and os.path.getsize(out)):
            return "no output"
    else:
        with open(err, "rb") as f:
            if b"error:" not in f.read():
                return "exit status 1 without an error diagnostic"
    return None


def check_deep(status, want, mode, out, err):
    """Returns (why a run on a stack too small for its depth ended wrongly,
    or None; whether it was refused).  It must end as the case says, or be
    refused with one located nesting error and no output: a phase whose
    recursion the C compiler turned into a loop (a tail call) never runs
    out of stack."""
    if status < 0:
        return "killed by signal %d" % -status, False
    with open(err, "rb") as f:
        lines = f.read().decode("utf-8", "replace").split("\n")
    at = [i for i, l in enumerate(lines) if TOO_DEEP in l]
    if not at:
        return check(status, want, mode, out, err), False
    if status != 1:
        return "a nesting error with exit status %d" % status, True
    if os.path.exists(out) and os.path.getsize(out):
        return "output with a nesting error", True
    if len(at) != 1:
        return "%d nesting errors, expected one" % len(at), True
    i = at[0]
    located = re.match(r"^[^ ]+:[0-9]+:[0-9]+: " + TOO_DEEP + "$", lines[i])
    if not located or i + 2 >= len(lines) or "^" not in lines[i + 2]:
        return "the nesting error has no location, source line and caret", True
    return None, True


def generate(tmp, name, size, gen):
    """Writes the program (and schema) of case name at size; returns its
    path and the pclc flags that load its schema."""
    text = gen(size)
    flags = []
    if isinstance(text, tuple):
        text, schema_text = text
        folder = os.path.join(tmp, "%s-%d" % (name, size))
        os.mkdir(folder)
        with open(os.path.join(folder, "chain-1.0.0.json"), "w") as f:
            f.write(schema_text)
        flags = ["--schema-path", folder]
    path = os.path.join(tmp, "%s-%d.pp" % (name, size))
    with open(path, "w") as f:
        f.write(text)
    return path, flags


def main():
    if len(sys.argv) != 2:
        print("usage: tests/corpus/deep.py PCLC", file=sys.stderr)
        return 2
    pclc = os.path.abspath(sys.argv[1])
    if not os.access(pclc, os.X_OK):
        print("deep: %s is not an executable" % pclc, file=sys.stderr)
        return 2
    # A sanitizer build keeps freed memory in quarantine; keep it small so
    # that memory measures what the compiler uses.
    os.environ["ASAN_OPTIONS"] = ":".join(
        filter(None, [os.environ.get("ASAN_OPTIONS"), "quarantine_size_mb=16"]))
    passed = failed = 0
    refused = set()  # The modes in which some case was refused.
    with tempfile.TemporaryDirectory(prefix="pclc-deep.") as tmp:
        for name, (kind, modes, want, gen) in CASES.items():
            full = NEST if kind == "nest" else CHAIN
            paths, flags = {}, {}
            for size in (full // 4, full):
                paths[size], flags[size] = generate(tmp, name, size, gen)
            for mode in modes:
                out, err = os.path.join(tmp, "out"), os.path.join(tmp, "err")
                results = {}
                why = None
                for size, path in paths.items():
                    status, cpu, rss = run(pclc, mode, path, flags[size], out, err)
                    results[size] = (cpu, rss)
                    why = check(status, want, mode, out, err)
                    if why:
                        why = "%s at size %d" % (why, size)
                        break
                if not why:
                    (cs, rs), (cl, rl) = results[full // 4], results[full]
                    if cl > 8 * cs + CPU_SLACK:
                        why = "not linear in time: %.2fs at size %d, %.2fs at size %d" % (
                            cs, full // 4, cl, full)
                    elif rl > 8 * rs + RSS_SLACK:
                        why = "not linear in memory: %d KiB at size %d, %d KiB at size %d" % (
                            rs, full // 4, rl, full)
                cl, rl = results.get(full, (0.0, 0))
                if why:
                    failed += 1
                    print("FAIL %s %s: %s" % (name, mode, why))
                    with open(err, "rb") as f:
                        sys.stdout.write(f.read(2000).decode("utf-8", "replace"))
                else:
                    passed += 1
                    print("ok   %s %s (%d deep: %.2fs, %d MiB)" % (name, mode, full, cl,
                                                                  rl >> 10))
            path, deep_flags = generate(tmp, name, 2 * full, gen)
            env = dict(os.environ, PCLC_STACK_SIZE=SMALL_STACK)
            for mode in modes:
                out, err = os.path.join(tmp, "out"), os.path.join(tmp, "err")
                status, cpu, _ = run(pclc, mode, path, deep_flags, out, err, env)
                why, was_refused = check_deep(status, want, mode, out, err)
                if was_refused:
                    refused.add(mode)
                what = "refused" if was_refused else "accepted"
                if why:
                    failed += 1
                    print("FAIL %s %s, %d deep on a %s stack: %s" % (name, mode, 2 * full,
                                                                     SMALL_STACK, why))
                    with open(err, "rb") as f:
                        sys.stdout.write(f.read(2000).decode("utf-8", "replace"))
                else:
                    passed += 1
                    print("ok   %s %s %s %d deep on a %s stack (%.2fs)" % (
                        name, mode, what, 2 * full, SMALL_STACK, cpu))
    # Each mode must have met the limit somewhere, or its guard is untested.
    for mode in ALL:
        if mode not in refused:
            failed += 1
            print("FAIL %s: no case was refused on a %s stack" % (mode, SMALL_STACK))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
