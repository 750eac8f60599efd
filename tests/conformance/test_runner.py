#!/usr/bin/env python3
# test_runner.py: end-to-end tests of the conformance runner itself.
#
# Writes small conformance tests (PCL programs and expected.json files) into
# a temporary folder, some right and some deliberately wrong, runs
# tests/conformance/run on them with the given build, and checks that each
# gets the verdict it must: PASS, FAIL naming the first difference, or SKIP
# (tier D only), and that the summary line and exit status agree; and runs
# the checks of parameterized packages' requests (check_packages) on a
# right request stream and on streams with each mistake they must catch.
# This guards against a runner that cannot fail.
#
# Usage: python3 tests/conformance/test_runner.py [--build DIR]

import argparse
import copy
import importlib.machinery
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

SCRIPT_DIR = os.path.dirname(os.path.realpath(__file__))
REPO = os.path.dirname(os.path.dirname(SCRIPT_DIR))

SIMPLE = '''resource "res" "simple:index:Resource" {
    value = true
}

output "out" {
    value = res.value
}
'''

FAILING = '''resource "res" "fail_on_create:index:Resource" {
    value = true
}
'''

# name -> (program files, expected.json "expect", tier, verdict, message part)
CASES = {
    "pass": ({"main.pp": SIMPLE},
             {"error": None, "stack_outputs": {"out": True}, "secret_outputs": [],
              "resources": [{"type": "simple:index:Resource", "name": "res",
                             "inputs": {"value": True}, "outputs": {"$same_as_inputs": True},
                             "provider": {"$urn_of": {"type": "pulumi:providers:simple"}}}],
              "resource_count": 3},
             "A", "PASS", None),
    "wrong-output": ({"main.pp": SIMPLE},
                     {"error": None, "stack_outputs": {"out": False}, "secret_outputs": [],
                      "resources": []},
                     "A", "FAIL", "stack_outputs.out: expected false, got true"),
    "wrong-count": ({"main.pp": SIMPLE},
                    {"error": None, "stack_outputs": None, "secret_outputs": [], "resources": [],
                     "resource_count": 2},
                    "A", "FAIL", "resource_count: expected 2, got 3"),
    "wrong-input": ({"main.pp": SIMPLE},
                    {"error": None, "stack_outputs": None, "secret_outputs": [],
                     "resources": [{"type": "simple:index:Resource", "name": "res",
                                    "inputs": {"value": {"$not": True}}}]},
                    "A", "FAIL", "inputs.value: expected anything but true"),
    "missing-secret": ({"main.pp": SIMPLE},
                       {"error": None, "stack_outputs": None, "secret_outputs": ["out"],
                        "resources": []},
                       "A", "FAIL", "stack_outputs.out: expected a secret"),
    "error-expected": ({"main.pp": SIMPLE},
                       {"error": "boom", "stack_outputs": None, "secret_outputs": [],
                        "resources": []},
                       "A", "FAIL", "update succeeded but an error was expected"),
    "compile-failure": ({"main.pp": 'resource "res" "simple:index:Resource" {\n'
                                    '    value = true\n    extra = 1\n}\n'},
                        {"error": None, "stack_outputs": None, "secret_outputs": [],
                         "resources": []},
                        "A", "FAIL", "compile failed: pclc:"),
    "create-failure": ({"main.pp": FAILING},
                       {"error": None, "stack_outputs": None, "secret_outputs": [],
                        "resources": []},
                       "A", "FAIL", "(fail_on_create:index:Resource): failed create"),
    "create-failure-expected": ({"main.pp": FAILING},
                                {"error": "failed create", "preview_error": "failed create",
                                 "stack_outputs": None, "secret_outputs": [], "resources": []},
                                "A", "PASS", None),
    "diagnostics": ({"main.pp": FAILING},
                    {"error": "bail", "preview_error": "bail: the create fails",
                     "stack_outputs": None, "secret_outputs": [], "resources": [],
                     "diagnostics": [
                         {"phase": "preview", "severity": "error", "urn_name": "res",
                          "message": "<{%reset%}>Preview failed: failed create<{%reset%}>\n"},
                         {"phase": "update", "severity": "error", "urn_name": "res",
                          "message": "failed create"},
                         {"severity": "error", "message_contains": "failed to register"}]},
                    "A", "PASS", None),
    "wrong-diagnostic": ({"main.pp": FAILING},
                         {"error": "any error", "preview_error": "bail", "stack_outputs": None,
                          "secret_outputs": [], "resources": [],
                          "diagnostics": [{"phase": "update", "severity": "warning",
                                           "urn_name": "res",
                                           "message_contains_any": ["failed"]}]},
                         "A", "FAIL", "diagnostics[0]: no update diagnostic matches"),
    "unsupported-key": ({"main.pp": SIMPLE},
                        {"error": None, "stack_outputs": None, "secret_outputs": [],
                         "resources": [], "changes": {"create": 2}},
                        "A", "FAIL", "expectation 'changes' cannot be checked"),
    "tier-d": ({"main.pp": SIMPLE},
               {"error": None, "stack_outputs": None, "secret_outputs": [], "resources": [],
                "changes": {"create": 2}},
               "D", "SKIP", "tier D: needs a second update"),
}


def write_test(root, name, files, expect, tier, run=None):
    d = os.path.join(root, name) if run is None else os.path.join(root, name, str(run))
    os.makedirs(d, exist_ok=True)
    for f, text in files.items():
        with open(os.path.join(d, f), "w") as fh:
            fh.write(text)
    exp = {"test": name, "level": 2, "category": "l2", "project": name, "stack": "test",
           "organization": "organization", "config": {}, "providers": ["simple@2.0.0", "fail_on_create@4.0.0"],
           "expect": expect, "notes": "", "confidence": "exact", "tier": tier,
           "engine_notes": "needs a second update" if tier == "D" else None}
    with open(os.path.join(d, "expected.json"), "w") as fh:
        json.dump(exp, fh)


# The schemas of the test providers (the package of PACKAGE_EXP has none:
# it is not an extension).
PROVIDERS = os.path.join(REPO, "..", "shared", "conformance", "providers")

# The parameterization of a test and the requests engine.js records for a
# program that registers its package and uses it right: the package checks
# (check_packages) pass on them, and fail on each of the mistakes below.
PACKAGE_EXP = {"parameterizations": [{"name": "sub", "version": "2.0.0", "value": "Hi",
                                      "base": "parameterized@1.2.3"}]}
PACKAGE_REQUESTS = [
    {"method": "RegisterResource", "request": {"type": "pulumi:pulumi:Stack", "packageref": ""}},
    {"method": "RegisterPackage", "answer": {"ref": "sub-ref"},
     "request": {"name": "parameterized", "version": "1.2.3",
                 "parameterization": {"name": "sub", "version": "2.0.0", "value": "SGk="}}},
    {"method": "RegisterResource", "request": {"type": "sub:index:R", "packageref": "sub-ref",
                                               "version": "", "plugindownloadurl": ""}},
    {"method": "RegisterResource", "request": {"type": "pulumi:providers:sub",
                                               "packageref": "sub-ref", "version": ""}},
    {"method": "Invoke", "request": {"tok": "sub:index:f", "packageref": "sub-ref"}},
    {"method": "Invoke", "request": {"tok": "simple:index:f", "packageref": "",
                                     "version": "2.0.0"}},
]


def package_mistakes():
    """Yields (what, requests, part of the expected message) for each
    mistake check_packages must catch."""
    def changed(edit):
        reqs = copy.deepcopy(PACKAGE_REQUESTS)
        edit(reqs)
        return reqs
    yield ("a wrong parameter", changed(lambda q: q[1]["request"]["parameterization"].update(
        value="SG8=")), "RegisterPackage of 'sub' sent")
    yield ("a wrong base version", changed(lambda q: q[1]["request"].update(version="1.0.0")),
           "RegisterPackage of 'sub' sent")
    yield ("no reference answered", changed(lambda q: q[1].update(answer=None)),
           "got no reference")
    yield ("a request without the reference",
           changed(lambda q: q[4]["request"].update(packageref="")),
           "Invoke of sub:index:f carries the package reference ''")
    yield ("a request with a version", changed(lambda q: q[2]["request"].update(version="2.0.0")),
           "carries a version or download URL")
    yield ("a request before the registration", changed(lambda q: q.insert(1, q.pop(2))),
           "sent before its package was registered")
    yield ("a reference on another package's request",
           changed(lambda q: q[5]["request"].update(packageref="sub-ref")),
           "Invoke of simple:index:f carries the package reference 'sub-ref'")
    yield ("a package registered twice", changed(lambda q: q.insert(2, copy.deepcopy(q[1]))),
           "registered twice")
    yield ("a replacement registered as an extension",
           changed(lambda q: q[1]["request"].update(
               extension=q[1]["request"].pop("parameterization"))),
           "does not carry it as its parameterization")


def check_package_checks():
    """Returns the failures of check_packages on PACKAGE_REQUESTS and its
    mistakes, and the number of checks made."""
    loader = importlib.machinery.SourceFileLoader("conformance_run",
                                                  os.path.join(SCRIPT_DIR, "run"))
    run = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
    loader.exec_module(run)
    failures, checks = [], 1
    try:
        run.check_packages(PACKAGE_EXP, PACKAGE_REQUESTS, "update", PROVIDERS)
    except run.Fail as f:
        failures.append(f"check_packages refused right requests: {f}")
    for what, reqs, part in package_mistakes():
        checks += 1
        try:
            run.check_packages(PACKAGE_EXP, reqs, "update", PROVIDERS)
            failures.append(f"check_packages missed {what}")
        except run.Fail as f:
            if part not in str(f):
                failures.append(f"check_packages on {what}: {f!r} does not say {part!r}")
    return failures, checks


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.environ.get("PCLC_BUILD") or os.path.join(REPO, "build"))
    args = ap.parse_args()
    failures = []
    with tempfile.TemporaryDirectory() as root:
        for name, (files, expect, tier, _, _) in CASES.items():
            write_test(root, name, files, expect, tier)
        # A multi-run test whose second run is wrong.
        ok = CASES["pass"]
        bad = CASES["wrong-output"]
        write_test(root, "multi", ok[0], ok[1], "A", run=0)
        write_test(root, "multi", bad[0], bad[1], "A", run=1)
        r = subprocess.run([os.path.join(SCRIPT_DIR, "run"), "-j", "4", "--build", args.build, root],
                           capture_output=True, text=True)
        lines = {}
        for line in r.stdout.splitlines():
            parts = line.split(" ", 1)
            if parts[0] in ("PASS", "FAIL", "SKIP"):
                lines[os.path.basename(parts[1].split(":")[0])] = line
        want = {n: (c[3], c[4]) for n, c in CASES.items()}
        want["multi"] = ("FAIL", "run 1: stack_outputs.out")
        for name, (verdict, part) in want.items():
            line = lines.get(name)
            if line is None or not line.startswith(verdict) or (part and part not in line):
                failures.append(f"{name}: expected {verdict} with {part!r}, got {line!r}")
        summary = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else ""
        if summary != "3 passed, 10 failed, 1 skipped":
            failures.append(f"summary line {summary!r}")
        if r.returncode != 1:
            failures.append(f"exit status {r.returncode}, expected 1 ({r.stderr.strip()})")
    package_failures, package_checks = check_package_checks()
    failures += package_failures
    total = len(want) + 2 + package_checks
    for f in failures:
        print("FAIL", f)
    print(f"test_runner: {total - len(failures)} of {total} checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
