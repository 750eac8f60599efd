#!/usr/bin/env python3
"""check-layers.py: every file includes only headers its layer may see.

Usage: tests/check-layers.py            (run from anywhere)

The compiler is a pipeline of phases (front -> bind -> ir -> emit) over a
few shared layers (base, types, schema); the runtime library is built
apart from it; what both need is in common/.  A layer is a folder, and
RULES below says, for each one, the layers whose headers its files may
include.  Every `#include "..."` (and every `#include <...>` that names a
file of the repository) of every .c and .h file under compiler/, common/,
runtime/ and host/ is resolved as the compiler resolves it (the including
file's folder first, then the include roots the Makefile gives that part
of the tree, then the other parts' roots) and its layer looked up.  A quoted include that resolves to
nothing is an error too, unless it is one of the generated headers of
GENERATED, so that a new folder cannot escape the rules by being unknown.

WAIVERS lists the few includes that still break a rule, each with the
change that will remove it; an entry that no longer occurs is noted, so
that it is deleted.

Output: one line per forbidden include, `file:line: LAYER may not include
"header" (layer OTHER)`, then a count.  Exit status 0 when there is none.
"""

import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

# The layer of a file: the longest prefix of its path that names one.
LAYERS = {
    "common": "common",
    "compiler/base": "base",
    "compiler/front": "front",
    "compiler/schema": "schema",
    "compiler/types": "types",
    "compiler/bind": "bind",
    "compiler/ir": "ir",
    "compiler/emit": "emit",
    "compiler/main.c": "driver",
    "runtime/include": "rt-api",
    "runtime/value": "rt-value",
    "runtime/async": "rt-part",
    "runtime/builtins": "rt-part",
    "runtime/engine": "rt-part",
    "runtime/gen": "rt-part",
    "runtime/run": "rt-part",
    "host": "host",
}

# Headers generated at build time, by the name they are included with.
GENERATED = [
    (re.compile(r"^pcl\.(tab|lex)\.h$"), "front-gen"),  # bison and flex, from grammar/
    (re.compile(r"\.pb-c\.h$"), "proto"),  # protoc-c, from runtime/engine/proto and host/proto
]

# What each layer may include (its own headers always).
RULES = {
    # Shared by pclc and libpclrt and built into both: the C library only.
    "common": set(),
    # Arenas, names, sources, diagnostics: below every phase.
    "base": {"common"},
    # The scanner and parser see only the base and the code bison and flex write.
    "front": {"base", "common", "front-gen"},
    # The type system knows nothing of the syntax that spells types.
    "types": {"base", "common"},
    # Package schemas are decoded into types.
    "schema": {"base", "common", "types"},
    # The binder and checker read the AST and the schemas and make types.
    "bind": {"base", "common", "front", "schema", "types"},
    # Lowering reads the bound tree (and through it the AST) and writes the
    # IR; it sees no later phase.
    "ir": {"base", "common", "front", "schema", "types", "bind"},
    # The emitter sees only the IR and what the IR is made of.
    "emit": {"base", "common", "types", "ir"},
    # pclc's driver runs every phase.
    "driver": {"base", "common", "front", "schema", "types", "bind", "ir", "emit"},
    # The installed headers: what a C program sees, so nothing internal.
    "rt-api": {"common"},
    # Values are the runtime's bottom layer: no future, engine or run.
    "rt-value": {"common", "rt-api"},
    # The runtime's parts share their internal headers, and nothing of the compiler.
    "rt-part": {"common", "rt-api", "rt-value", "rt-part", "proto"},
    # The language host runs pclc and the program as processes: its own
    # files, the protocol's messages and common/, never either side's internals.
    "host": {"common", "proto"},
}

# Includes that break a rule today, each with the change that removes it:
# (layer, header) -> why it is still there.  The check reports an entry that
# no longer occurs, so that the list only shrinks.
WAIVERS = {}

# Include roots of each part of the tree, in the Makefile's order.
COMPILER_ROOTS = ["compiler", "common"]
RUNTIME_ROOTS = ["runtime", "runtime/include", "common"]
ROOTS = {
    "common": ["common"],
    "compiler": COMPILER_ROOTS,
    "runtime": RUNTIME_ROOTS,
    "host": ["host", "runtime/include", "common"],
}

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def layer_of(path):
    best = None
    for prefix, layer in LAYERS.items():
        if path == prefix or path.startswith(prefix + "/"):
            if best is None or len(prefix) > len(best[0]):
                best = (prefix, layer)
    return best[1] if best else None


def resolve(src, name, quoted):
    """The repository path of header `name` included by `src`, or None."""
    dirs = [os.path.dirname(src)] if quoted else []
    dirs += ROOTS[src.split("/", 1)[0]]
    # Then every other root, so that a header another part's roots would
    # find is reported with its layer rather than as unknown.
    dirs += [r for roots in ROOTS.values() for r in roots]
    for d in dirs:
        p = os.path.normpath(os.path.join(d, name))
        if os.path.isfile(os.path.join(ROOT, p)):
            return p
    return None


def sources():
    for top in ROOTS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, top)):
            dirnames.sort()
            for f in sorted(filenames):
                if f.endswith((".c", ".h")):
                    yield os.path.relpath(os.path.join(dirpath, f), ROOT)


def main():
    bad = files = 0
    waived = set()
    for src in sources():
        layer = layer_of(src)
        if layer is None:
            print(f"{src}: in no layer of tests/check-layers.py")
            bad += 1
            continue
        files += 1
        with open(os.path.join(ROOT, src), encoding="utf-8") as f:
            for lineno, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                quoted, name = m.group(1) == '"', m.group(2)
                target = resolve(src, name, quoted)
                if target is not None:
                    other = layer_of(target)
                else:
                    other = next((g for pat, g in GENERATED if pat.search(name)), None)
                    if other is None:
                        if quoted:
                            print(f'{src}:{lineno}: "{name}" is no header of the repository')
                            bad += 1
                        continue  # A system header.
                if other != layer and other not in RULES[layer]:
                    if (layer, name) in WAIVERS:
                        waived.add((layer, name))
                        continue
                    print(f'{src}:{lineno}: {layer} may not include "{name}" (layer {other})')
                    bad += 1
    for layer, name in sorted(set(WAIVERS) - waived):
        print(f'note: {layer} no longer includes "{name}": remove its entry from WAIVERS')
    print(f"check-layers: {files} files, {bad} forbidden includes, {len(waived)} waived "
          "(tests/check-layers.py WAIVERS)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
