#!/usr/bin/env bash
# bind-all.sh: binds and type-checks every real PCL program the project has.
#
# Usage: tests/corpus/bind-all.sh PCLC
#
# Runs `pclc --check` on
#   * every conformance run of ../shared/conformance/ (a folder holding an
#     expected.json; the program is that folder, or <folder>/<main> when
#     expected.json sets "main"), with
#     --schema-path ../shared/conformance/providers;
#   * every program folder of ../shared/programs/ (except _schemas), with
#     --schema-path ../shared/programs/_schemas (packages without a schema
#     bind untyped, with a warning).
# A program passes when pclc exits 0 and prints no error (warnings are
# fine).  Programs with a specific expectation are listed in
# tests/corpus/bind-expected-errors.txt as `<path> <message>`: a program meant
# to be rejected passes when pclc exits 1 and its diagnostics contain
# <message>; when <message> starts with `warning: ` the program must bind
# (exit 0, no error) and its diagnostics must contain that warning.
# Prints one FAIL line (with the diagnostics) per failing program and the
# summary line `N passed, M failed`; exits non-zero when any program failed
# or none was found.
set -u

if [ $# -ne 1 ]; then
  echo "usage: tests/corpus/bind-all.sh PCLC" >&2
  exit 2
fi
pclc=$1
case $pclc in
/*) ;;
*/*) pclc=$PWD/$pclc ;;
esac
if [ ! -x "$pclc" ]; then
  echo "bind-all: $pclc is not an executable" >&2
  exit 2
fi
cd "$(dirname "$0")/../.." || exit 2
expect_file=tests/corpus/bind-expected-errors.txt

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pclc-bind.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

passed=0
failed=0

# expected_error PATH: prints the message PATH is expected to be rejected
# with, or nothing.
expected_error() {
  [ -f "$expect_file" ] || return 0
  awk -v p="$1" '$1 == p { $1 = ""; sub(/^ /, ""); print; exit }' "$expect_file"
}

# run PROGRAM SCHEMA_DIR: checks one program and counts the result.
run() {
  local prog=$1 schemas=$2
  "$pclc" --check "$prog" --schema-path "$schemas" >/dev/null 2>"$tmp/err" </dev/null
  local status=$?
  local want
  want=$(expected_error "$prog")
  if [ -n "$want" ] && [ "${want#warning: }" != "$want" ]; then
    if [ "$status" -eq 0 ] && ! grep -q 'error:' "$tmp/err" && grep -qF -- "$want" "$tmp/err"; then
      passed=$((passed + 1))
      echo "ok (bound with the expected warning) $prog"
    else
      failed=$((failed + 1))
      echo "FAIL $prog (exit status $status; expected to bind with: $want)"
      head -n 40 "$tmp/err"
    fi
    return
  fi
  if [ -n "$want" ]; then
    if [ "$status" -eq 1 ] && grep -qF -- "$want" "$tmp/err"; then
      passed=$((passed + 1))
      echo "ok (rejected as expected) $prog"
    else
      failed=$((failed + 1))
      echo "FAIL $prog (exit status $status; expected an error containing: $want)"
      head -n 40 "$tmp/err"
    fi
    return
  fi
  if [ "$status" -eq 0 ] && ! grep -q 'error:' "$tmp/err"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL $prog (exit status $status)"
    head -n 40 "$tmp/err"
  fi
}

conf=../shared/conformance
if [ -d "$conf" ]; then
  while IFS= read -r -d '' ej; do
    dir=$(dirname "$ej")
    main=$(sed -n 's/^ *"main": *"\([^"]*\)".*/\1/p' "$ej" | head -n 1)
    prog=$dir
    if [ -n "$main" ]; then
      prog=$dir/$main
    fi
    run "$prog" "$conf/providers"
  done < <(find "$conf" -name expected.json -print0 | sort -z)
else
  echo "bind-all: $conf is missing" >&2
fi

progs=../shared/programs
if [ -d "$progs" ]; then
  for dir in "$progs"/*/; do
    dir=${dir%/}
    case $(basename "$dir") in
    _schemas) continue ;;
    esac
    run "$dir" "$progs/_schemas"
  done
else
  echo "bind-all: $progs is missing" >&2
fi

echo "bound $((passed + failed)) programs with pclc --check"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
