#!/usr/bin/env bash
# check-io.sh: output that cannot be written and input that cannot be read,
# for pclc and for a compiled program.
#
# Usage: tests/check-io.sh PCLC
#
# The program is compiled with PCLC and linked with the libpclrt.a beside
# it (CC and CGFLAGS as for tests/run-golden.sh).  Checks, each with the
# exact exit status and the system's reason in the message:
#   1. pclc -o and -MF to a full disk (/dev/full), -o - into a closed pipe,
#      -o into a missing directory: status 2;
#   2. a write that fails halfway (a file-size limit) leaves the previous
#      -o and -MF files as they were, and no temporary file behind;
#   3. a schema file that cannot be read (a directory named x.json): status
#      2 (an I/O error, not an error in the program);
#   4. a source, schema or component file over --max-input-size (a file,
#      a pipe, /dev/zero, /dev/urandom): status 2, the limit named;
#   5. pclc out of memory: status 2 and "out of memory", no output file;
#   6. diagnostics coloured on a terminal only (NO_COLOR, TERM=dumb and
#      -fdiagnostics-color respected), with gcc's colours;
#   7. the program's stack outputs to a full disk and into a closed pipe,
#      its --snapshot to a full disk: status 2; a snapshot write that fails
#      halfway leaves the previous snapshot;
#   8. the program's input files: a --mocks path that is a directory, a
#      missing --config-file and --stack-reference file: status 2 with the
#      reason;
#   9. values over the size limit are refused before they are built: join
#      and a %{for} template of 300 strings of 10 MB end with the limit's
#      message at their location, the program's peak memory far below the
#      3 GB they would take;
#   10. memory that runs out (an allocation of the runtime, one of GMP's):
#      status 2, "error: out of memory allocating N bytes" and the snapshot
#      written with that error, never an abort;
#   11. a compiled program's run error coloured on a terminal only, as
#      pclc's diagnostics are.
# Prints one line per check and exits non-zero when any check fails.
set -u

if [ $# -ne 1 ]; then
  echo "usage: tests/check-io.sh PCLC" >&2
  exit 2
fi
pclc=$1
case $pclc in
/*) ;;
*) pclc=$PWD/$pclc ;;
esac
cd "$(dirname "$0")/.." || exit 2
root=$PWD
rt=$(dirname "$pclc")/libpclrt.a
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pclc-io.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

failures=0
pass() { echo "ok   $1"; }
fail() {
  echo "FAIL $1"
  failures=$((failures + 1))
}

# expect NAME STATUS TEXT CMD...: runs CMD with stderr captured; checks the
# exit status and that stderr contains TEXT.
expect() {
  local name=$1 want=$2 text=$3
  shift 3
  "$@" 2>"$tmp/err" >/dev/null
  local got=$?
  if [ "$got" -eq "$want" ] && grep -qF -- "$text" "$tmp/err"; then
    pass "$name"
  else
    fail "$name: status $got (want $want), stderr: $(head -c 400 "$tmp/err")"
  fi
}

# closed_pipe CMD...: runs CMD with stdout a pipe whose reading end is
# already closed; prints its exit status, its stderr goes to $tmp/err.
closed_pipe() {
  python3 - "$@" <<'EOF'
import os, subprocess, sys
r, w = os.pipe()
os.close(r)
p = subprocess.run(sys.argv[1:], stdout=w, stderr=open(os.environ["ERR"], "wb"))
print(p.returncode)
EOF
}

# small_limit CMD...: runs CMD allowed to write files of at most 1 KiB,
# with SIGXFSZ ignored so that the write fails with EFBIG instead.
small_limit() {
  (
    trap '' XFSZ
    ulimit -f 1
    exec "$@"
  )
}

mkdir -p "$tmp/prog"
cat >"$tmp/prog/main.pp" <<'EOF'
config name string {
  default = "world"
}
output greeting {
  value = "hello ${name}"
}
EOF
# A program whose C is larger than the file-size limit of small_limit.
{
  for i in $(seq 1 200); do
    printf 'output o%d {\n  value = "value number %d of a long program"\n}\n' "$i" "$i"
  done
} >"$tmp/prog/big.pp"

# 1. pclc's outputs.
expect "pclc -o /dev/full" 2 "cannot write /dev/full: No space left on device" \
  "$pclc" "$tmp/prog/main.pp" -o /dev/full
expect "pclc -MF /dev/full" 2 "cannot write dependency file /dev/full: No space left on device" \
  "$pclc" "$tmp/prog/main.pp" -o "$tmp/main.c" -MF /dev/full
expect "pclc -o into a missing directory" 2 \
  "cannot open $tmp/no/such/dir/x.c: No such file or directory" \
  "$pclc" "$tmp/prog/main.pp" -o "$tmp/no/such/dir/x.c"
status=$(ERR=$tmp/err closed_pipe "$pclc" "$tmp/prog/big.pp" -o -)
if [ "$status" = 2 ] && grep -qF "Broken pipe" "$tmp/err"; then
  pass "pclc -o - into a closed pipe"
else
  fail "pclc -o - into a closed pipe: status $status, stderr: $(head -c 400 "$tmp/err")"
fi

# 2. A failed write keeps the previous file.
echo "previous C" >"$tmp/keep.c"
echo "previous deps" >"$tmp/keep.d"
expect "pclc -o over the file-size limit" 2 "cannot write $tmp/keep.c: File too large" \
  small_limit "$pclc" "$tmp/prog/big.pp" -o "$tmp/keep.c"
if [ "$(cat "$tmp/keep.c")" = "previous C" ] && [ -z "$(ls "$tmp" | grep 'keep\.c\.')" ]; then
  pass "the previous -o file is kept, no temporary file is left"
else
  fail "the previous -o file was not kept: $(head -c 100 "$tmp/keep.c"); $(ls "$tmp")"
fi
"$pclc" "$tmp/prog/main.pp" -o "$tmp/ok.c" -MF "$tmp/keep.d" 2>"$tmp/err"
if [ $? -eq 0 ] && grep -q '^ok.c\|ok\.c:' "$tmp/keep.d"; then
  pass "-MF replaces the dependency file when it succeeds"
else
  fail "-MF did not replace the dependency file: $(cat "$tmp/keep.d")"
fi

# 3. A schema file that cannot be read is an I/O error.
mkdir -p "$tmp/schemas/broken.json"
printf 'resource r "broken:index:R" {}\n' >"$tmp/uses.pp"
expect "unreadable schema file" 2 "cannot read schema file '$tmp/schemas/broken.json': Is a directory" \
  "$pclc" --check --schema-path "$tmp/schemas" "$tmp/uses.pp"

# 4. An input over the size limit (--max-input-size, 256 MiB by default)
# ends with a message and status 2 before it is read (a file) or once the
# limit is passed (a stream), whichever input it is.
limit="larger than the input size limit of"
expect "pclc --check /dev/zero" 2 "cannot read '/dev/zero': $limit 268435456 bytes" \
  "$pclc" --check /dev/zero
expect "pclc --check /dev/urandom" 2 "cannot read '/dev/urandom': $limit 4096 bytes" \
  "$pclc" --max-input-size 4096 --check /dev/urandom
expect "a source over the limit" 2 "cannot read '$tmp/prog/main.pp': $limit 40 bytes" \
  "$pclc" --max-input-size=40 --check "$tmp/prog/main.pp"
expect "a source from a pipe over the limit" 2 "cannot read '/dev/stdin': $limit 40 bytes" \
  sh -c "exec \"\$0\" --max-input-size 40 --check /dev/stdin <'$tmp/prog/main.pp'" "$pclc"
mkdir -p "$tmp/big-schemas" "$tmp/comp/net"
printf '{"name": "big", "resources": {"big:index:R": {}}}\n' >"$tmp/big-schemas/big.json"
printf 'resource r "big:index:R" {}\n' >"$tmp/uses-big.pp"
expect "a schema over the limit" 2 "cannot read schema file '$tmp/big-schemas/big.json': $limit 40" \
  "$pclc" --max-input-size 40 --check --schema-path "$tmp/big-schemas" "$tmp/uses-big.pp"
printf 'component c "./net" {}\n' >"$tmp/comp/main.pp"
printf 'output o {\n  value = "a component file of more than forty bytes"\n}\n' >"$tmp/comp/net/n.pp"
expect "a component file over the limit" 2 "cannot read '$tmp/comp/net/n.pp': $limit 40 bytes" \
  "$pclc" --max-input-size 40 --check "$tmp/comp/main.pp"
expect "--max-input-size 0" 2 "--max-input-size must be a number of bytes from 1 to 4294967294" \
  "$pclc" --max-input-size 0 --check "$tmp/prog/main.pp"
"$pclc" --max-input-size "$(wc -c <"$tmp/prog/main.pp")" --check "$tmp/prog/main.pp" 2>"$tmp/err"
if [ $? -eq 0 ]; then
  pass "a source as large as the limit"
else
  fail "a source as large as the limit: $(cat "$tmp/err")"
fi

# 5. pclc that runs out of memory says so and exits with status 2, leaving
# no output file: under AddressSanitizer an allocation of more than 1 MiB
# fails (the source's buffer grows past it), elsewhere the address space is
# limited to 40 MB.
{
  for i in $(seq 1 20000); do
    printf 'output o%d {\n  value = "value number %d of a long program"\n}\n' "$i" "$i"
  done
} >"$tmp/prog/huge.pp"
low_memory() {
  if nm "$pclc" 2>/dev/null | grep -q __asan_init; then
    ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1:max_allocation_size_mb=1 \
      "$@"
  else
    (
      ulimit -v 40000
      exec "$@"
    )
  fi
}
expect "pclc out of memory" 2 "pclc: error: out of memory (allocating" \
  low_memory "$pclc" "$tmp/prog/huge.pp" -o "$tmp/oom.c"
if [ -z "$(ls "$tmp" | grep '^oom\.c')" ]; then
  pass "no output file is left when memory runs out"
else
  fail "an output file was left when memory ran out: $(ls "$tmp" | grep '^oom')"
fi

# 6. Diagnostics in colour as gcc prints them on a terminal (the location
# bold, the severity in its colour, the underline green), plain in a file
# or pipe, with NO_COLOR or TERM=dumb, and as -fdiagnostics-color says.
printf 'x = undefinedName\n' >"$tmp/undef.pp"
# on_tty NAME=VALUE... -- CMD...: runs CMD with stderr a terminal and the
# environment changed by the pairs (TERM=xterm and NO_COLOR unset first);
# prints "colour" or "plain" as stderr holds escape sequences or not.
on_tty() {
  python3 - "$@" <<'EOF'
import os, pty, subprocess, sys
args = sys.argv[1:]
sep = args.index("--")
env = dict(os.environ, TERM="xterm")
env.pop("NO_COLOR", None)
for pair in args[:sep]:
    name, value = pair.split("=", 1)
    env[name] = value
master, slave = pty.openpty()
subprocess.run(args[sep + 1:], stderr=slave, stdout=subprocess.DEVNULL, env=env)
os.close(slave)
out = b""
try:
    while True:
        chunk = os.read(master, 4096)
        if not chunk:
            break
        out += chunk
except OSError:
    pass
print("colour" if b"\x1b[" in out else "plain")
EOF
}
# check_tty NAME WANT NAME=VALUE... -- CMD...: checks what on_tty prints.
check_tty() {
  local name=$1 want=$2
  shift 2
  local got
  got=$(on_tty "$@")
  if [ "$got" = "$want" ]; then
    pass "$name"
  else
    fail "$name: $got (want $want)"
  fi
}
check_tty "colour on a terminal" colour -- "$pclc" --check "$tmp/undef.pp"
check_tty "NO_COLOR on a terminal" plain NO_COLOR=1 -- "$pclc" --check "$tmp/undef.pp"
check_tty "TERM=dumb on a terminal" plain TERM=dumb -- "$pclc" --check "$tmp/undef.pp"
check_tty "-fdiagnostics-color=never on a terminal" plain -- \
  "$pclc" -fdiagnostics-color=never --check "$tmp/undef.pp"
check_tty "-fno-diagnostics-color on a terminal" plain -- \
  "$pclc" -fno-diagnostics-color --check "$tmp/undef.pp"
"$pclc" --check "$tmp/undef.pp" 2>"$tmp/err"
if ! grep -q $'\033' "$tmp/err"; then
  pass "plain in a file"
else
  fail "escape sequences in a file: $(cat -v "$tmp/err")"
fi
NO_COLOR=1 "$pclc" -fdiagnostics-color=always --check "$tmp/undef.pp" 2>"$tmp/err"
want=$(printf '\033[01m%s:1:5:\033[m \033[01;31merror:\033[m undefined variable undefinedName\nx = undefinedName\n    \033[01;32m^~~~~~~~~~~~~\033[m' "$tmp/undef.pp")
if [ "$(cat "$tmp/err")" = "$want" ]; then
  pass "-fdiagnostics-color=always in a file, in gcc's colours"
else
  fail "-fdiagnostics-color=always: $(cat -v "$tmp/err")"
fi
expect "-fdiagnostics-color=sometimes" 2 "-fdiagnostics-color takes auto, always or never" \
  "$pclc" -fdiagnostics-color=sometimes --check "$tmp/undef.pp"

# 7. A compiled program's outputs.
if ! "$pclc" "$tmp/prog/main.pp" -o "$tmp/prog.c" 2>"$tmp/err"; then
  fail "compiling the program: $(cat "$tmp/err")"
  exit 1
fi
# shellcheck disable=SC2086 # CGFLAGS is deliberately word-split.
if ! ${CC:-cc} -std=c11 ${CGFLAGS:-} -Iruntime/include -Icommon "$tmp/prog.c" "$rt" \
  -ljansson -lutf8proc -lnettle -larchive -lgmp -lgrpc -lgpr -lprotobuf-c -lm -o "$tmp/prog-bin" \
  2>"$tmp/err"; then
  fail "building the program: $(head -c 2000 "$tmp/err")"
  exit 1
fi
prog=$tmp/prog-bin
expect "stack outputs to /dev/full" 2 "cannot write the stack outputs: No space left on device" \
  sh -c 'exec "$1" >/dev/full' sh "$prog"
status=$(ERR=$tmp/err closed_pipe "$prog")
if [ "$status" = 2 ] && grep -qF "cannot write the stack outputs: Broken pipe" "$tmp/err"; then
  pass "stack outputs into a closed pipe"
else
  fail "stack outputs into a closed pipe: status $status, stderr: $(head -c 400 "$tmp/err")"
fi
expect "--snapshot /dev/full" 2 "cannot write /dev/full: No space left on device" \
  "$prog" --snapshot /dev/full
echo "previous snapshot" >"$tmp/snap.json"
expect "--snapshot over the file-size limit" 2 "cannot write $tmp/snap.json: File too large" \
  small_limit "$prog" --snapshot "$tmp/snap.json"
if [ "$(cat "$tmp/snap.json")" = "previous snapshot" ] && [ -z "$(ls "$tmp" | grep 'snap\.json\.')" ]; then
  pass "the previous snapshot is kept, no temporary file is left"
else
  fail "the previous snapshot was not kept: $(head -c 100 "$tmp/snap.json"); $(ls "$tmp")"
fi
"$prog" --snapshot "$tmp/snap.json" >/dev/null 2>"$tmp/err"
if [ $? -eq 0 ] && grep -q '"version": 1' "$tmp/snap.json"; then
  pass "--snapshot replaces the previous snapshot"
else
  fail "--snapshot did not replace the snapshot: $(head -c 200 "$tmp/snap.json")"
fi

# 8. A compiled program's inputs.
mkdir -p "$tmp/mocks.json"
expect "--mocks is a directory" 2 "error: $tmp/mocks.json: Is a directory" \
  "$prog" --mocks "$tmp/mocks.json"
expect "--config-file is missing" 2 "error: $tmp/none.json: No such file or directory" \
  "$prog" --config-file "$tmp/none.json"
expect "--stack-reference file is missing" 2 "error: $tmp/none.json: No such file or directory" \
  "$prog" --stack-reference "o/p/s=$tmp/none.json"

# 9. Sizes are checked before memory is spent.
# peak CMD...: runs CMD with stderr to $ERR; prints its exit status and its
# peak resident memory in KiB.
peak() {
  python3 - "$@" <<'EOF'
import os, resource, subprocess, sys
p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=open(os.environ["ERR"], "wb"))
print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
EOF
}
cat >"$tmp/prog/sizes.pp" <<'EOF'
config s string {
}
config how string {
}
output joined {
  value = how == "join" ? length(join(",", [for i in range(300) : s])) : 0
}
output template {
  value = how == "template" ? length("%{for i in range(300)}${s}%{endfor}") : 0
}
EOF
python3 -c 'import json, sys; json.dump({"sizes:s": "x" * 10000000}, open(sys.argv[1], "w"))' \
  "$tmp/big.json"
if ! "$pclc" "$tmp/prog/sizes.pp" -o "$tmp/sizes.c" 2>"$tmp/err" ||
  ! ${CC:-cc} -std=c11 ${CGFLAGS:-} -Iruntime/include -Icommon "$tmp/sizes.c" "$rt" \
    -ljansson -lutf8proc -lnettle -larchive -lgmp -lgrpc -lgpr -lprotobuf-c -lm \
    -o "$tmp/sizes-bin" 2>>"$tmp/err"; then
  fail "building the sizes program: $(head -c 2000 "$tmp/err")"
else
  for how in join template; do
    line=6
    [ "$how" = template ] && line=9
    read -r status kib < <(ERR=$tmp/err peak "$tmp/sizes-bin" --config-file "$tmp/big.json" \
      --config how=$how --max-value-size 67108864)
    if [ "$status" = 1 ] && [ "$kib" -lt 1048576 ] &&
      grep -qF "sizes.pp:$line:" "$tmp/err" &&
      grep -qF "would take more than the limit of 67108864 bytes (--max-value-size)" "$tmp/err"; then
      pass "$how of 300 strings of 10 MB refused at $((kib / 1024)) MiB"
    else
      fail "$how of 300 strings of 10 MB: status $status, peak $kib KiB, stderr: $(head -c 400 "$tmp/err")"
    fi
  done
fi

# 10. Memory that runs out ends the program with status 2 and a message,
# after the snapshot is written.  Allocations above 64 MiB fail: with
# AddressSanitizer through its allocator options, otherwise through an
# address-space limit.
oom_env=()
oom_limit=unlimited
case " ${CGFLAGS:-} " in
*sanitize=address*) oom_env=(ASAN_OPTIONS=allocator_may_return_null=1:max_allocation_size_mb=64) ;;
*) oom_limit=1048576 ;;
esac
limited() {
  (
    ulimit -v "$oom_limit"
    exec env "${oom_env[@]}" "$@"
  )
}
{
  printf 'config n int {\n}\n'
  printf 'a0 = n\n'
  for i in $(seq 1 30); do printf 'a%d = a%d * a%d\n' "$i" $((i - 1)) $((i - 1)); done
  printf 'output big {\n  value = a30 > 0\n}\n'
} >"$tmp/prog/squares.pp"
python3 -c 'import json, sys; json.dump({"squares:n": "9" * 100000}, open(sys.argv[1], "w"))' \
  "$tmp/n.json"
if ! "$pclc" "$tmp/prog/squares.pp" -o "$tmp/squares.c" 2>"$tmp/err" ||
  ! ${CC:-cc} -std=c11 ${CGFLAGS:-} -Iruntime/include -Icommon "$tmp/squares.c" "$rt" \
    -ljansson -lutf8proc -lnettle -larchive -lgmp -lgrpc -lgpr -lprotobuf-c -lm \
    -o "$tmp/squares-bin" 2>>"$tmp/err"; then
  fail "building the squares program: $(head -c 2000 "$tmp/err")"
else
  for case in join squares; do
    if [ "$case" = join ]; then
      set -- "$tmp/sizes-bin" --config-file "$tmp/big.json" --config how=join
    else
      set -- "$tmp/squares-bin" --config-file "$tmp/n.json"
    fi
    rm -f "$tmp/oom.json"
    limited "$@" --max-value-size 1000000000000 --snapshot "$tmp/oom.json" >/dev/null 2>"$tmp/err"
    status=$?
    if [ "$status" = 2 ] && grep -q '^error: out of memory allocating [0-9]* bytes$' "$tmp/err" &&
      grep -q '"error": "error: out of memory allocating [0-9]* bytes"' "$tmp/oom.json" 2>/dev/null; then
      pass "out of memory in $case: status 2, the message, the snapshot"
    else
      fail "out of memory in $case: status $status, stderr: $(head -c 400 "$tmp/err"), snapshot: $(head -c 300 "$tmp/oom.json" 2>&1)"
    fi
  done
fi

# 11. A compiled program's run error in colour on a terminal, as pclc's.
printf 'x = 1 / 0\noutput o {\n  value = x\n}\n' >"$tmp/prog/fails.pp"
if ! "$pclc" "$tmp/prog/fails.pp" -o "$tmp/fails.c" 2>"$tmp/err" ||
  ! ${CC:-cc} -std=c11 ${CGFLAGS:-} -Iruntime/include -Icommon "$tmp/fails.c" "$rt" \
    -ljansson -lutf8proc -lnettle -larchive -lgmp -lgrpc -lgpr -lprotobuf-c -lm \
    -o "$tmp/fails-bin" 2>>"$tmp/err"; then
  fail "building the failing program: $(head -c 2000 "$tmp/err")"
else
  check_tty "a run error in colour on a terminal" colour -- "$tmp/fails-bin"
  check_tty "a run error with NO_COLOR on a terminal" plain NO_COLOR=1 -- "$tmp/fails-bin"
  check_tty "a run error with TERM=dumb on a terminal" plain TERM=dumb -- "$tmp/fails-bin"
  "$tmp/fails-bin" 2>"$tmp/err"
  want="$tmp/prog/fails.pp:1:5: error: cannot compute 1 / 0: division by zero"
  if [ "$(cat "$tmp/err")" = "$want" ]; then
    pass "a run error plain in a file"
  else
    fail "a run error in a file: $(cat -v "$tmp/err")"
  fi
fi

if [ "$failures" -ne 0 ]; then
  echo "check-io: $failures check(s) failed"
  exit 1
fi
echo "check-io: every check passed"
