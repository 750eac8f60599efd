#!/usr/bin/env bash
# parse-all.sh: parses every real PCL program the project has as input.
#
# Usage: tests/corpus/parse-all.sh PCLC
#
# Walks every `.pp` file under ../shared/conformance/ and ../shared/programs/
# (relative to the repository root) and parses each one on its own with
# `pclc --parse-only`, or with `pclc --dump-ast` (output discarded) when the
# compiler does not know --parse-only.  Any diagnostic, any non-zero exit
# status fails the file.  Prints one FAIL line (with the diagnostics) per
# failing file, the number of files parsed, and the summary line
# `N passed, M failed`; exits non-zero when a file failed or none was found.
set -u

if [ $# -ne 1 ]; then
  echo "usage: tests/corpus/parse-all.sh PCLC" >&2
  exit 2
fi
pclc=$1
case $pclc in
/*) ;;
*/*) pclc=$PWD/$pclc ;;
esac
if [ ! -x "$pclc" ]; then
  echo "parse-all: $pclc is not an executable" >&2
  exit 2
fi
cd "$(dirname "$0")/../.." || exit 2

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pclc-corpus.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

# Pick the mode: --parse-only when the compiler accepts it on an empty file.
: >"$tmp/empty.pp"
if "$pclc" --parse-only "$tmp/empty.pp" >/dev/null 2>&1; then
  mode=--parse-only
else
  mode=--dump-ast
fi

roots=()
for r in ../shared/conformance ../shared/programs; do
  if [ -d "$r" ]; then
    roots+=("$r")
  else
    echo "parse-all: $r is missing" >&2
  fi
done
if [ ${#roots[@]} -eq 0 ]; then
  echo "0 passed, 0 failed"
  echo "parse-all: no corpus found" >&2
  exit 1
fi

passed=0
failed=0
while IFS= read -r -d '' f; do
  "$pclc" "$mode" "$f" >/dev/null 2>"$tmp/err" </dev/null
  status=$?
  if [ "$status" -eq 0 ] && [ ! -s "$tmp/err" ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL $f (exit status $status)"
    head -n 40 "$tmp/err"
  fi
done < <(find "${roots[@]}" -type f -name '*.pp' -print0 | sort -z)

echo "parsed $((passed + failed)) files with pclc $mode"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
