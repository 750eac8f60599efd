#!/usr/bin/env bash
# check-depfile.sh: end-to-end test of `pclc -MD` / `-MF` with GNU make.
#
# Usage: tests/check-depfile.sh PCLC
#
# Builds, in a temporary directory, a program made of a directory of two .pp
# files, a local component and a schema, with a Makefile that includes
# runtime/pclc.mk and compiles the program to C (the C is not compiled
# further, so the test needs only pclc).  Checks:
#   1. the dependency file pclc writes has exactly the expected text (target,
#      the .pp files, the component's .pp file, the schema file, and one empty
#      rule per prerequisite);
#   2. a second `make` does nothing;
#   3. touching each prerequisite (a program file, the component's file, the
#      schema, and the compiler itself) makes `make` compile again;
#   4. deleting a prerequisite that the program no longer needs does not
#      break `make` (the empty rules of -MP), and the dependency file is
#      rewritten without it;
#   5. -MF writes the file where it is told, and -MD / -MF are refused
#      without -o FILE (exit status 2), and a program with errors writes no
#      dependency file.
# Prints one line per check and exits non-zero when any check fails.
set -u

if [ $# -ne 1 ]; then
  echo "usage: tests/check-depfile.sh PCLC" >&2
  exit 2
fi
pclc=$1
case $pclc in
/*) ;;
*) pclc=$PWD/$pclc ;;
esac
cd "$(dirname "$0")/.." || exit 2
root=$PWD
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pclc-depfile.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

failures=0
pass() { echo "ok   $1"; }
fail() {
  echo "FAIL $1"
  failures=$((failures + 1))
}

# A copy of the compiler with an old time stamp: pclc.mk makes a compiler
# given by path a prerequisite, and the one just built may be newer than the
# files this test dates back.
mkdir -p "$tmp/prog/store" "$tmp/schemas" "$tmp/bin"
cp "$pclc" "$tmp/bin/pclc"
touch -d "-60 seconds" "$tmp/bin/pclc"
pclc=$tmp/bin/pclc
cat >"$tmp/schemas/demo-1.0.0.json" <<'EOF'
{
  "name": "demo",
  "version": "1.0.0",
  "resources": {
    "demo:index:Bucket": {
      "properties": { "name": { "type": "string" } },
      "inputProperties": { "name": { "type": "string" } },
      "type": "object"
    }
  }
}
EOF
cat >"$tmp/prog/main.pp" <<'EOF'
resource bucket "demo:index:Bucket" {
  name = greeting
}

component store "./store" {
  prefix = greeting
}

output name {
  value = store.name
}
EOF
cat >"$tmp/prog/values.pp" <<'EOF'
greeting = "hello"
EOF
cat >"$tmp/prog/extra.pp" <<'EOF'
unused = "not needed by the rest of the program"
EOF
cat >"$tmp/prog/store/main.pp" <<'EOF'
config prefix string {}

resource data "demo:index:Bucket" {
  name = "${prefix}-data"
}

output name {
  value = data.name
}
EOF
cat >"$tmp/Makefile" <<EOF
PCLC := $pclc
include $root/runtime/pclc.mk
PCLC_FLAGS += --schema-path schemas
\$(eval \$(call pclc_program,out/prog,prog))
EOF

cd "$tmp" || exit 2
mk() { make --no-print-directory -s "$@" out/prog.c 2>&1; }
# The compilation count is the number of pclc command lines make runs.
compiles() { make --no-print-directory -n out/prog.c 2>&1 | grep -c -- "-o out/prog.c"; }

if mk >make.log && [ -f out/prog.c ]; then
  pass "make compiles the program"
else
  fail "make compiles the program"
  cat make.log
fi

expected='out/prog.c: \
  prog/extra.pp \
  prog/main.pp \
  prog/values.pp \
  prog/store/main.pp \
  schemas/demo-1.0.0.json

prog/extra.pp:

prog/main.pp:

prog/values.pp:

prog/store/main.pp:

schemas/demo-1.0.0.json:'
if [ -f out/prog.d ] && [ "$(cat out/prog.d)" = "$expected" ]; then
  pass "out/prog.d lists every file read"
else
  fail "out/prog.d lists every file read"
  diff <(printf '%s\n' "$expected") out/prog.d
fi

if [ "$(compiles)" = 0 ]; then
  pass "a second make does nothing"
else
  fail "a second make does nothing"
fi

# Each round first makes every input older than the output, so that only
# the file touched is newer.
for f in prog/values.pp prog/store/main.pp schemas/demo-1.0.0.json bin/pclc; do
  find prog schemas -type f -exec touch -d "-20 seconds" {} +
  touch -d "-60 seconds" bin/pclc
  touch -d "-10 seconds" out/prog.c
  before=$(compiles)
  touch "$f"
  if [ "$before" = 0 ] && [ "$(compiles)" = 1 ] && mk >/dev/null && [ "$(compiles)" = 0 ]; then
    pass "touching $f recompiles"
  else
    fail "touching $f recompiles"
  fi
done

rm prog/extra.pp
if mk >make.log && ! grep -q extra.pp out/prog.d; then
  pass "deleting a prerequisite does not break make"
else
  fail "deleting a prerequisite does not break make"
  cat make.log
fi

if "$pclc" --schema-path schemas prog -o out/other.c -MF deps/other.dep 2>err.log; then
  fail "-MF into a missing folder fails"
else
  if grep -q "cannot write dependency file deps/other.dep: No such file or directory" err.log; then
    pass "-MF into a missing folder fails"
  else
    fail "-MF into a missing folder fails"
    cat err.log
  fi
fi
mkdir -p deps
if "$pclc" --schema-path schemas prog -o out/other.c -MFdeps/other.dep &&
  [ "$(head -n 1 deps/other.dep)" = 'out/other.c: \' ] && [ ! -f out/other.d ]; then
  pass "-MF FILE writes FILE"
else
  fail "-MF FILE writes FILE"
fi

for args in "-MD --check prog" "-MF x.d --dump-ast prog" "-MD prog -o -" "prog -o out/x.c -MF"; do
  # shellcheck disable=SC2086 # args is deliberately word-split.
  "$pclc" --schema-path schemas $args >/dev/null 2>&1
  status=$?
  if [ "$status" = 2 ]; then
    pass "pclc $args: usage error"
  else
    fail "pclc $args: usage error (got status $status)"
  fi
done

printf 'output bad {\n  value = nosuch\n}\n' >bad.pp
rm -f bad.d
if ! "$pclc" bad.pp -o bad.c -MD 2>/dev/null && [ ! -f bad.d ]; then
  pass "a program with errors writes no dependency file"
else
  fail "a program with errors writes no dependency file"
fi

if [ "$failures" -eq 0 ]; then
  echo "check-depfile: all checks passed"
fi
[ "$failures" -eq 0 ]
