#!/usr/bin/env python3
"""check-dead-code.py: no global function or variable that nothing else uses.

Usage: tests/check-dead-code.py BUILD     (BUILD is the build directory, e.g. build)

Reads the symbol tables (`nm`) of the objects of each program the
Makefile links from BUILD/obj: pclc (compiler/, common/ and the parser
bison and flex write), libpclrt (runtime/, common/ and the engine
protocol's messages) and the language host (host/ and common/'s buffer);
common/ is linked into each, so what any uses is used, and all three must
be built (the Makefile's check-dead-code builds them).
A global symbol defined by a hand-written object and referenced by no
other object of its program is an error: nothing calls it (delete it) or
only its own file does (make it `static`).  Not errors:

  * libpclrt's interface: a name that the installed headers
    (runtime/include/pcl.h, pcl_engine.h, pcl_gen.h) declare, which C
    programs and generated code call;
  * TEST_ONLY below: a name that only the unit tests call, each with the
    reason it is not static.

Output: one line per unused global, `object: name (type)`, then a count.
Exit status 0 when there is none.
"""

import os
import re
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

# Names that only tests use, each with the reason it is global.  An entry
# that the programs use, or that no longer exists, is reported as a note, so
# that the list only shrinks.
TEST_ONLY = {
    # pclc
    "depfile_print": "test_depfile.c reads the rules from a memory stream; pclc writes them "
    "to a file through depfile_write",
    "src_add": "the unit tests and the fuzz targets compile a program held in memory; pclc "
    "reads its sources from files",
    "parse_file": "the unit tests and the fuzz targets parse one file; pclc parses a program",
    "stack_size": "test_stack.c checks the size pclc reserves",
    "schema_files_read": "test_schema.c lists a schema folder without a program",
    "schema_find_package": "test_schema.c looks a package up by name without a program",
    "schema_load_file": "test_schema.c and fuzz_schema load one schema file",
    "schema_package_check": "test_schema.c and fuzz_schema check one package whole",
    "schema_property_find": "test_schema.c reads a property of a decoded type",
    "schema_property_type": "test_schema.c reads a property's type of a decoded type",
    "schema_split_token": "test_schema.c checks the split of type tokens",
    "schema_type_to_ty": "test_schema.c checks the conversion of schema types one by one",
    "schema_union_select": "test_schema.c checks a discriminated union's variants",
    "ty_cmp_string": "test_ty.c checks the order of types",
    "ty_print": "test_ty.c compares types by their printed form",
    "ty_conv_name": "test_ty.c names conversion kinds in its failure messages",
    "ty_conversion_unifying": "test_ty.c checks the conversions of types.md's tables directly",
    "ty_conversion_why": "test_ty.c checks why a conversion fails directly",
    "ty_not_convertible_message": "test_ty.c checks the conversion messages directly",
    "ty_unify": "test_ty.c checks the unification of two types of types.md §5 directly",
    "ty_is_int_like": "test_ty.c checks which types an int literal converts to",
    # common/
    "pcl__edit_distance": "test_suggest.c checks the distance and its early stop directly",
    # libpclrt
    "pcl__rpc_output_value_new": "test_rpc.c builds the wire form of output values",
    "pcl__rpc_struct_get": "test_rpc.c and the test engine (tests/engine) decode structs",
    "pcl__rpc_struct_pack": "test_rpc.c and fuzz_rpc encode structs",
    "pcl__rpc_struct_unpack": "test_rpc.c and fuzz_rpc decode structs",
    "pcl__rpc_value_get": "test_rpc.c and the test engine decode property values",
    "pcl__version_satisfies": "the test engine checks a program's required CLI version range",
}

# A program's entry point, and the symbol of the generated-code interface's
# number that generated C references (pcl_gen.h builds its name).
ENTRY = re.compile(r"^(main|pcl_gen_abi_\d+)$")

# The installed headers: every name they declare is libpclrt's interface.
API_HEADERS = ["runtime/include/pcl.h", "runtime/include/pcl_engine.h",
               "runtime/include/pcl_gen.h"]


def objects(build, *dirs):
    out = []
    for d in dirs:
        top = os.path.join(build, "obj", d)
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames.sort()
            for f in sorted(filenames):
                o = os.path.join(dirpath, f)
                # Only the objects of sources that exist: a build directory may
                # keep the object of a file since moved or deleted.
                src = os.path.relpath(o, os.path.join(build, "obj"))[:-2] + ".c"
                if f.endswith(".o") and (d.startswith("gen") or
                                         os.path.isfile(os.path.join(ROOT, src))):
                    out.append(o)
    return out


def symbols(objs):
    """{object: (defined globals {name: type}, undefined names)}."""
    table = {o: ({}, set()) for o in objs}
    if not objs:
        return table
    text = subprocess.run(["nm", "-A", "-g"] + objs, check=True, capture_output=True,
                          text=True).stdout
    for line in text.splitlines():
        obj, _, rest = line.partition(".o:")
        obj += ".o"
        fields = rest.split()
        if obj not in table or len(fields) < 2:
            continue
        kind, name = fields[-2], fields[-1]
        # Sanitizer and compiler markers (__odr_asan.x, __asan_*) are not the
        # program's own names.
        if name.startswith("__") or "." in name:
            continue
        if kind == "U":
            table[obj][1].add(name)
        elif kind not in "wvV":  # Weak definitions are the toolchain's.
            table[obj][0][name] = kind
    return table


def api_names():
    names = set()
    for h in API_HEADERS:
        with open(os.path.join(ROOT, h), encoding="utf-8") as f:
            names |= set(re.findall(r"\bpcl_\w+\b", f.read()))
    return names


test_only = set()


def check(name, hand, generated, exported, build):
    """Reports the unused globals of one program; returns their count."""
    table = symbols(hand + generated)
    used_by = {}
    for obj, (_, undef) in table.items():
        for n in undef:
            used_by.setdefault(n, set()).add(obj)
    bad = 0
    for obj in hand:
        for sym, kind in sorted(table[obj][0].items()):
            if used_by.get(sym, set()) - {obj}:
                continue
            if sym in TEST_ONLY:
                test_only.add(sym)
                continue
            if sym in exported or ENTRY.match(sym):
                continue
            print(f"{os.path.relpath(obj, build)}: {sym} ({kind}) is used by no other object "
                  f"of {name}")
            bad += 1
    return bad


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    build = sys.argv[1]
    common = objects(build, "common")
    pclc_gen = [o for o in objects(build, "gen") if os.path.basename(o).startswith("pcl.")]
    proto = objects(build, "gen/proto")
    compiler, runtime = objects(build, "compiler"), objects(build, "runtime")
    bad = check("pclc", compiler, common + pclc_gen, set(), build)
    bad += check("libpclrt", runtime, common + proto, api_names(), build)
    host = objects(build, "host")
    if not host:
        # Without the host's objects, what only the host uses of common/
        # would be reported as unused.
        sys.exit(f"check-dead-code: {build}/obj/host has no object: build the language host first")
    # The modules of common/ that the language host links (the Makefile's
    # HOST_COMMON_OBJS).
    host_common = [o for o in common if os.path.basename(o) in ("buf.o", "mem.o")]
    # common/ is linked into each: what any side uses is used.
    bad += check("pclc, libpclrt or the language host", common,
                 compiler + runtime + pclc_gen + proto + host, api_names(), build)
    bad += check("the language host", host,
                 host_common + objects(build, "gen/host-proto") + proto, set(), build)
    for sym in sorted(set(TEST_ONLY) - test_only):
        print(f"note: {sym} is no longer used by tests only: remove its entry from TEST_ONLY")
    print(f"check-dead-code: {bad} unused globals, {len(test_only)} used by tests only "
          "(tests/check-dead-code.py TEST_ONLY)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
