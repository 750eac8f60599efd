#!/usr/bin/env bash
# run-golden.sh: the golden-test driver.
#
# Usage: tests/run-golden.sh PCLC [PHASE...]
#
# Runs every case under tests/golden/<phase>/ (every phase directory when
# none is named) with the compiler PCLC and compares what it prints with the
# expectation files stored beside the case.
#
# A case is either a file `<name>.pp` or a directory `<name>/` (a program made
# of several files).  Its expectation files sit next to it:
#   <name>.expected.<ext>  the exact stdout, where <ext> comes from the phase
#                          table below (`ast` for --dump-ast, ...);
#   <name>.expected.err    the exact stderr (diagnostics with carets);
#   <name>.flags           optional extra pclc arguments, split on blanks.
# Rules:
#   * a case without any expectation file fails;
#   * stdout must equal the stdout expectation byte for byte; without one,
#     stdout must be empty;
#   * stderr must equal .expected.err byte for byte; without one it must be
#     empty;
#   * the exit status must be 1 when .expected.err contains "error:", else 0
#     (a crash or signal therefore always fails); a case whose status is
#     something else on purpose (2 for an unreadable input) states it in
#     `<name>.expected.status`.
# A case may be a dangling symbolic link, to test a missing input file.
# Cases run from the repository root with relative paths, so diagnostics
# print `tests/golden/...` paths.
#
# The codegen phase also builds and runs the C it compared: it is compiled
# with `cc -std=c11 -Wall -Wextra -Werror -Iruntime/include -Icommon` (CC and CGFLAGS
# override the compiler and add flags, e.g. sanitizers) and linked with the
# libpclrt.a beside PCLC; the program runs from the repository root with
# `--snapshot FILE` and the arguments of `<name>.run-flags`; its stdout must
# equal `<name>.expected.out`, its stderr `<name>.expected.run-err` (empty
# without one), its exit status 1 when that file contains "error:" (else 0),
# and the snapshot `<name>.expected.snapshot.json` when that file exists.
#
# Environment:
#   UPDATE=1    rewrite the expectation files from the actual output and list
#               the files that changed (review them with `git diff`; CI never
#               sets this).
#   VALGRIND=1  run pclc under valgrind; any valgrind report fails the case.
#   JOBS=N      run N cases at a time (default 2).
#
# Output: one FAIL line per failing case followed by a unified diff, then the
# summary line `N passed, M failed`.  The exit status is non-zero when any
# case failed.
set -u

# ---------------------------------------------------------------- phase table
# One line per phase: name, stdout expectation extension, pclc arguments.
# Later phases add their line here.
PHASE_TABLE='
ast     ast    --dump-ast
errors  ast    --dump-ast
types   types  --dump-types
check   out    --check
ir      ir     --dump-ir
codegen c      -o -
packages json  --list-packages
'

phase_ext() {
  printf '%s\n' "$PHASE_TABLE" | awk -v p="$1" '$1 == p { print $2; found = 1 } END { exit !found }'
}

phase_args() {
  printf '%s\n' "$PHASE_TABLE" | awk -v p="$1" '$1 == p { $1 = ""; $2 = ""; sub(/^ +/, ""); print }'
}

# ------------------------------------------------------------------ arguments
if [ $# -lt 1 ]; then
  echo "usage: tests/run-golden.sh PCLC [PHASE...]" >&2
  exit 2
fi
pclc=$1
shift
case $pclc in
/*) ;;
*/*) pclc=$PWD/$pclc ;;
esac
if [ ! -x "$pclc" ]; then
  echo "run-golden: $pclc is not an executable" >&2
  exit 2
fi

cd "$(dirname "$0")/.." || exit 2
golden=tests/golden

if [ $# -eq 0 ]; then
  set --
  for d in "$golden"/*/; do
    [ -d "$d" ] || continue
    set -- "$@" "$(basename "$d")"
  done
fi

for phase in "$@"; do
  if ! phase_ext "$phase" >/dev/null; then
    echo "run-golden: unknown phase '$phase' (add it to PHASE_TABLE)" >&2
    exit 2
  fi
done

UPDATE=${UPDATE:-0}
VALGRIND=${VALGRIND:-0}
JOBS=${JOBS:-2}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pclc-golden.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

# ------------------------------------------------------------------- one case
# run_case PHASE CASE-PATH REPORT-FILE: runs one case, writes a report (the
# failure text, or nothing) to REPORT-FILE and exits 0 on success.
run_case() {
  local phase=$1 case=$2 report=$3
  local base=${case%/}
  base=${base%.pp}
  local ext args out err vglog status
  ext=$(phase_ext "$phase")
  args=$(phase_args "$phase")
  local exp_out=$base.expected.$ext exp_err=$base.expected.err
  local exp_status=$base.expected.status
  local work=$report.d
  mkdir -p "$work"
  out=$work/stdout
  err=$work/stderr
  vglog=$work/valgrind

  local flags=""
  if [ -f "$base.flags" ]; then
    flags=$(tr '\n' ' ' <"$base.flags")
  fi

  # shellcheck disable=SC2086 # args and flags are deliberately word-split.
  if [ "$VALGRIND" = 1 ]; then
    valgrind -q --error-exitcode=99 --leak-check=full \
      --errors-for-leak-kinds=definite,indirect --log-file="$vglog" \
      "$pclc" $args $flags "${case%/}" >"$out" 2>"$err" </dev/null
  else
    "$pclc" $args $flags "${case%/}" >"$out" 2>"$err" </dev/null
  fi
  status=$?

  local fail=""
  note() { fail="$fail$1"$'\n'; }

  if [ "$VALGRIND" = 1 ] && [ -s "$vglog" ]; then
    note "valgrind reported errors:"
    note "$(cat "$vglog")"
  fi
  if [ "$status" = 99 ] && [ "$VALGRIND" = 1 ]; then
    note "valgrind exit status 99"
  fi

  if [ "$UPDATE" = 1 ]; then
    update_file "$out" "$exp_out" "$status"
    update_file "$err" "$exp_err" "$status" err
    update_status "$exp_status" "$exp_err" "$status"
  fi

  if [ ! -f "$exp_out" ] && [ ! -f "$exp_err" ]; then
    note "no expectation file ($exp_out or $exp_err)"
  fi

  if [ -f "$exp_out" ]; then
    if ! cmp -s "$exp_out" "$out"; then
      note "stdout differs from $exp_out:"
      note "$(diff -u --label "$exp_out" --label "actual stdout" "$exp_out" "$out")"
    fi
  elif [ -s "$out" ]; then
    note "unexpected stdout (no $exp_out):"
    note "$(head -c 4000 "$out")"
  fi

  if [ -f "$exp_err" ]; then
    if ! cmp -s "$exp_err" "$err"; then
      note "stderr differs from $exp_err:"
      note "$(diff -u --label "$exp_err" --label "actual stderr" "$exp_err" "$err")"
    fi
  elif [ -s "$err" ]; then
    note "unexpected stderr (no $exp_err):"
    note "$(head -c 4000 "$err")"
  fi

  local want=0
  if [ -f "$exp_status" ]; then
    want=$(tr -d ' \n' <"$exp_status")
  elif [ -f "$exp_err" ] && grep -q 'error:' "$exp_err"; then
    want=1
  fi
  if [ "$status" != "$want" ]; then
    if [ "$status" -gt 128 ] && [ "$status" != 99 ]; then
      note "exit status $status (killed by signal $((status - 128))), expected $want"
    else
      note "exit status $status, expected $want"
    fi
  fi

  if [ "$phase" = codegen ] && [ -z "$fail" ] && [ "$status" = 0 ]; then
    run_program "$base" "$out" "$work"
  fi

  if [ -n "$fail" ]; then
    {
      echo "FAIL $case [$phase]"
      printf '%s' "$fail"
    } >"$report"
    rm -rf "$work"
    return 1
  fi
  rm -rf "$work"
  : >"$report"
  return 0
}

# run_program BASE C-FILE WORK: compiles C-FILE, runs it and compares what
# it prints with BASE's run expectations (see the header); adds to $fail.
run_program() {
  local base=$1 cfile=$2 work=$3
  local rt
  rt=$(dirname "$pclc")/libpclrt.a
  cp "$cfile" "$work/prog.c"
  # shellcheck disable=SC2086 # CGFLAGS is deliberately word-split.
  if ! ${CC:-cc} -std=c11 -Wall -Wextra -Werror ${CGFLAGS:-} -Iruntime/include -Icommon "$work/prog.c" "$rt" \
    -ljansson -lutf8proc -lnettle -larchive -lgmp -lgrpc -lgpr -lprotobuf-c -lm -o "$work/prog" 2>"$work/cc.err"; then
    note "the generated C does not compile:"
    note "$(head -c 4000 "$work/cc.err")"
    return
  fi
  local rflags=""
  if [ -f "$base.run-flags" ]; then
    rflags=$(tr '\n' ' ' <"$base.run-flags")
  fi
  # shellcheck disable=SC2086 # rflags is deliberately word-split.
  "$work/prog" --snapshot "$work/snapshot.json" $rflags >"$work/run.out" 2>"$work/run.err" </dev/null
  local rstatus=$?
  if [ "$UPDATE" = 1 ]; then
    update_file "$work/run.out" "$base.expected.out" 0
    update_file "$work/run.err" "$base.expected.run-err" 0 err
    if [ -f "$work/snapshot.json" ]; then
      update_file "$work/snapshot.json" "$base.expected.snapshot.json" 0
    fi
  fi
  if ! cmp -s "$base.expected.out" "$work/run.out" 2>/dev/null; then
    note "program stdout differs from $base.expected.out:"
    note "$(diff -u --label "$base.expected.out" --label "actual program stdout" "$base.expected.out" "$work/run.out" 2>&1)"
  fi
  if [ -f "$base.expected.run-err" ]; then
    if ! cmp -s "$base.expected.run-err" "$work/run.err"; then
      note "program stderr differs from $base.expected.run-err:"
      note "$(diff -u --label "$base.expected.run-err" --label "actual program stderr" "$base.expected.run-err" "$work/run.err")"
    fi
  elif [ -s "$work/run.err" ]; then
    note "unexpected program stderr:"
    note "$(head -c 4000 "$work/run.err")"
  fi
  local want=0
  if [ -f "$base.expected.run-err" ] && grep -q 'error:' "$base.expected.run-err"; then
    want=1
  fi
  if [ "$rstatus" != "$want" ]; then
    note "program exit status $rstatus, expected $want"
  fi
  if [ -f "$base.expected.snapshot.json" ] && ! cmp -s "$base.expected.snapshot.json" "$work/snapshot.json"; then
    note "snapshot differs from $base.expected.snapshot.json:"
    note "$(diff -u --label "$base.expected.snapshot.json" --label "actual snapshot" "$base.expected.snapshot.json" "$work/snapshot.json" 2>&1)"
  fi
}

# update_file ACTUAL EXPECTED STATUS [err]: rewrites EXPECTED from ACTUAL and
# lists it when it changed.  A stdout expectation is kept (even empty) for a
# successful run so the case still has an expectation file; empty output of a
# failing run, and empty stderr, remove the file.
update_file() {
  local actual=$1 expected=$2 status=$3 kind=${4:-out}
  local keep=1
  if [ ! -s "$actual" ]; then
    if [ "$kind" = err ] || [ "$status" != 0 ]; then
      keep=0
    fi
  fi
  if [ "$keep" = 1 ]; then
    if [ ! -f "$expected" ] || ! cmp -s "$actual" "$expected"; then
      cp "$actual" "$expected"
      echo "updated $expected" >>"$tmp/updated"
    fi
  elif [ -f "$expected" ]; then
    rm -f "$expected"
    echo "removed $expected" >>"$tmp/updated"
  fi
}

# update_status STATUS-FILE ERR-FILE STATUS: records exit status 2 (a usage
# or I/O error) in STATUS-FILE; other statuses follow the default rule, so
# the file is removed.  A crash is never recorded.
update_status() {
  local file=$1 errfile=$2 status=$3
  if [ "$status" = 2 ]; then
    if [ ! -f "$file" ] || [ "$(cat "$file")" != 2 ]; then
      echo 2 >"$file"
      echo "updated $file" >>"$tmp/updated"
    fi
  elif [ -f "$file" ]; then
    rm -f "$file"
    echo "removed $file" >>"$tmp/updated"
  fi
}

# ------------------------------------------------------------------ the cases
cases=()
case_phase=()
for phase in "$@"; do
  dir=$golden/$phase
  [ -d "$dir" ] || continue
  for c in "$dir"/*.pp "$dir"/*/; do
    [ -e "$c" ] || [ -L "$c" ] || continue
    cases+=("$c")
    case_phase+=("$phase")
  done
done

mkdir -p "$tmp/results"
running=0
for i in "${!cases[@]}"; do
  run_case "${case_phase[$i]}" "${cases[$i]}" "$tmp/results/$(printf '%06d' "$i")" &
  running=$((running + 1))
  if [ "$running" -ge "$JOBS" ]; then
    wait -n
    running=$((running - 1))
  fi
done
wait

passed=0
failed=0
for i in "${!cases[@]}"; do
  r=$tmp/results/$(printf '%06d' "$i")
  if [ -s "$r" ]; then
    cat "$r"
    failed=$((failed + 1))
  elif [ -f "$r" ]; then
    passed=$((passed + 1))
  else
    echo "FAIL ${cases[$i]} [${case_phase[$i]}]"
    echo "the case did not produce a result"
    failed=$((failed + 1))
  fi
done

if [ -f "$tmp/updated" ]; then
  sort "$tmp/updated"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
