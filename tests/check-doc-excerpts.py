#!/usr/bin/env python3
"""check-doc-excerpts.py: quoted generated code in the docs must be real.

Usage: tests/check-doc-excerpts.py [FILE...]   (default: README.md docs/*.md)

A Markdown file marks a fenced code block as an excerpt of a file of the
repository by the comment line

    <!-- excerpt: tests/golden/codegen/site.expected.c -->

directly above the block's opening fence.  Every line of the block must
appear, in order and contiguous, in that file (byte for byte, blank lines
included).  The quoted files are golden
expectations, which the golden tests keep equal to what pclc writes, so an
emitter change that alters a quoted excerpt fails here until the
documentation follows.

Run from anywhere; paths are relative to the repository root.  Output: one
FAIL line per excerpt that is not found (with its first line), then
`N excerpts checked, M not found`.  Exit status 0 when every excerpt was
found and at least one was checked.
"""

import glob
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
MARK = re.compile(r"^<!-- excerpt: (\S+) -->$")
FENCE = re.compile(r"^(```+)")


def excerpts(path):
    """Yields (line number, quoted file, lines) for each marked block (lines
    is None when the mark is not followed by a block)."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        m = MARK.match(lines[i])
        if not m:
            i += 1
            continue
        start = i + 1
        fence = FENCE.match(lines[start]) if start < len(lines) else None
        if not fence:
            yield start, m.group(1), None
            i = start
            continue
        end = start + 1
        while end < len(lines) and lines[end] != fence.group(1):
            end += 1
        yield start + 1, m.group(1), lines[start + 1 : end]
        i = end + 1


def contains(text, block):
    """Whether the lines of block occur contiguously among the lines of text."""
    lines = text.split("\n")
    n = len(block)
    return n > 0 and any(lines[i : i + n] == block for i in range(len(lines) - n + 1))


def main(argv):
    docs = argv[1:] or ["README.md"] + sorted(glob.glob(os.path.join("docs", "*.md")))
    checked = failed = 0
    for doc in docs:
        for line, quoted, block in excerpts(os.path.join(ROOT, doc)):
            checked += 1
            where = f"{doc}:{line}"
            if block is None:
                print(f"FAIL {where}: the excerpt mark is not followed by a code block")
                failed += 1
                continue
            try:
                with open(os.path.join(ROOT, quoted), encoding="utf-8") as f:
                    text = f.read()
            except OSError as e:
                print(f"FAIL {where}: cannot read {quoted}: {e.strerror}")
                failed += 1
                continue
            if not contains(text, block):
                first = block[0] if block else "(empty)"
                print(f"FAIL {where}: not in {quoted}: {first}")
                failed += 1
    print(f"{checked} excerpts checked, {failed} not found")
    return 0 if checked > 0 and failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
