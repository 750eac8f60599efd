#!/usr/bin/env bash
# check-determinism.sh: pclc must write the same bytes on every run.
#
# Usage: tests/check-determinism.sh PCLC
#
# Compiles every sample (samples/*/, with the flags its Makefile uses:
# --schema-path ../schemas) and every case of tests/golden/codegen (a .pp
# file or a program directory, with its .flags) twice, and compares the two
# generated C files and the two dependency files (-MD) with cmp.  The two
# compilations differ in everything that must not matter:
#   * the location of the sources: each compilation works on its own copy of
#     the tree, in a different temporary directory (relative paths stay the
#     same, so an absolute path leaking into the output is caught);
#   * the environment: MALLOC_PERTURB_ (glibc fills freed and new memory
#     with that byte, so reads of uninitialised heap memory show), and
#     ASAN_OPTIONS=malloc_fill_byte for a sanitizer build, which ignores
#     MALLOC_PERTURB_; MALLOC_MMAP_THRESHOLD_=0 in the second run, which
#     gives every allocation its own mapping, so that the relative order of
#     heap addresses changes and an order taken from pointers shows; a
#     different environment size (which moves the stack); and different
#     locale settings;
#   * address-space layout randomisation, which is on for both runs.
# A case whose compilation fails is reported as a failure, but for a golden
# case that has no .expected.c (it fails to compile on purpose): its two
# compilations must fail alike, with the same diagnostics.
#
# Output: one FAIL line per case that differs (with the first differing
# lines), then `N programs compiled twice, M differ`.  Exit status 0 when
# every case gave identical output.
set -u

if [ $# -ne 1 ]; then
  echo "usage: tests/check-determinism.sh PCLC" >&2
  exit 2
fi
pclc=$1
case $pclc in
/*) ;;
*) pclc=$PWD/$pclc ;;
esac
if [ ! -x "$pclc" ]; then
  echo "check-determinism: $pclc is not an executable" >&2
  exit 2
fi
cd "$(dirname "$0")/.." || exit 2

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pclc-determinism.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

# Two copies of what is compiled, at different depths, so that no absolute
# path is shared.  ../shared is reachable from both as from the repository.
for copy in a b/deeper; do
  mkdir -p "$tmp/$copy/repo/tests/golden"
  cp -R samples "$tmp/$copy/repo/"
  if [ -d tests/golden/codegen ]; then
    cp -R tests/golden/codegen "$tmp/$copy/repo/tests/golden/"
  fi
  ln -s "$(cd .. && pwd)/shared" "$tmp/$copy/shared"
done

# compile COPY ENV-SETTING... -- DIR INPUT FLAGS...: compiles INPUT from DIR of
# copy COPY into DIR/out-determinism.c (and .d) under the given environment.
compile() {
  local copy=$1
  shift
  local envs=()
  while [ "$1" != -- ]; do
    envs+=("$1")
    shift
  done
  shift
  local dir=$1 input=$2
  shift 2
  (cd "$tmp/$copy/repo/$dir" &&
    env "${envs[@]}" "$pclc" "$@" "$input" -o out-determinism.c -MD 2>stderr-determinism)
}

cases=()
for d in samples/*/; do
  [ -f "$d/Makefile" ] || continue
  cases+=("${d%/}|.|--schema-path ../schemas")
done
if [ -d tests/golden/codegen ]; then
  for c in tests/golden/codegen/*.pp tests/golden/codegen/*/; do
    [ -e "$c" ] || continue
    base=${c%/}
    base=${base%.pp}
    flags=""
    if [ -f "$base.flags" ]; then
      flags=$(tr '\n' ' ' <"$base.flags")
    fi
    # Golden cases run from the repository root.
    fails=""
    [ -f "$base.expected.c" ] || fails=fails
    cases+=(".|${c%/}|$flags|$fails")
  done
fi

total=0
differ=0
padding=$(printf '%*s' 4096 '' | tr ' ' x)
for entry in "${cases[@]}"; do
  IFS='|' read -r dir input flags fails <<<"$entry"
  total=$((total + 1))
  name=$dir
  [ "$dir" = . ] && name=$input
  # shellcheck disable=SC2086 # flags are deliberately word-split.
  compile a MALLOC_PERTURB_=0 LC_ALL=C -- "$dir" "$input" $flags
  s1=$?
  # shellcheck disable=SC2086
  compile b/deeper MALLOC_PERTURB_=165 ASAN_OPTIONS=malloc_fill_byte=165 \
    MALLOC_MMAP_THRESHOLD_=0 LC_ALL=C.UTF-8 LANG=C.UTF-8 \
    PCLC_DETERMINISM_PADDING="$padding" -- "$dir" "$input" $flags
  s2=$?
  out1=$tmp/a/repo/$dir
  out2=$tmp/b/deeper/repo/$dir
  if [ -n "$fails" ] && [ $s1 -ne 0 ] && [ $s1 -eq $s2 ]; then
    if ! cmp -s "$out1/stderr-determinism" "$out2/stderr-determinism"; then
      echo "FAIL $name: the diagnostics differ between the two compilations"
      diff "$out1/stderr-determinism" "$out2/stderr-determinism" | head -n 10
      differ=$((differ + 1))
    fi
  elif [ -n "$fails" ] || [ $s1 -ne 0 ] || [ $s2 -ne 0 ]; then
    echo "FAIL $name: pclc exited with status $s1 and $s2"
    head -n 10 "$out1/stderr-determinism"
    differ=$((differ + 1))
  else
    bad=0
    for f in out-determinism.c out-determinism.d stderr-determinism; do
      if ! cmp -s "$out1/$f" "$out2/$f"; then
        echo "FAIL $name: ${f#out-determinism} differs between the two compilations"
        diff "$out1/$f" "$out2/$f" | head -n 10
        bad=1
      fi
    done
    differ=$((differ + bad))
  fi
  rm -f "$out1"/*-determinism* "$out2"/*-determinism*
done

echo "$total programs compiled twice, $differ differ"
[ "$differ" -eq 0 ]
