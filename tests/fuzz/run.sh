#!/usr/bin/env bash
# run.sh: seeds and runs the libFuzzer targets built by `make fuzz`.
#
# Usage: tests/fuzz/run.sh FUZZ-DIR TARGET...
#
# For each TARGET (parse, compile, schema, json, config, mocks, stackref, rpc)
# the seeds are gathered from the tests and the corpus into
# FUZZ-DIR/seeds/TARGET, and FUZZ-DIR/fuzz_TARGET runs for FUZZ_SECONDS
# (default 60) on FUZZ-DIR/corpus/TARGET (kept between runs) and the seeds,
# with the dictionary of tests/fuzz/ that fits its input (none for rpc,
# whose seeds tests/fuzz/rpc_seeds.js writes).  Findings go to
# FUZZ-DIR/artifacts/TARGET/, the run's log to FUZZ-DIR/TARGET.log.
# Run from the repository root; the corpus is read from ../shared.
#
# Environment: FUZZ_SECONDS, FUZZ_TIMEOUT (seconds before an input counts as
# a hang, default 5), FUZZ_FLAGS (more libFuzzer flags, split on blanks,
# e.g. "-fork=1 -ignore_crashes=1" to keep going after a finding).
set -u
if [ $# -lt 2 ]; then
  echo "usage: tests/fuzz/run.sh FUZZ-DIR TARGET..." >&2
  exit 2
fi
dir=$1
shift
seconds=${FUZZ_SECONDS:-60}
timeout=${FUZZ_TIMEOUT:-5}
shared=../shared
providers=$shared/conformance/providers

# copy_seeds TARGET FILE...: copies the files into the target's seed folder
# under names made from their paths.
copy_seeds() {
  local t=$1 f
  shift
  for f in "$@"; do
    [ -f "$f" ] && cp "$f" "$dir/seeds/$t/$(printf '%s' "$f" | tr / _)"
  done
}

# pp_files: every program file of the tests, the samples and the corpus.
pp_files() {
  find tests/golden samples "$shared/conformance" "$shared/programs" -name '*.pp' -type f \
    2>/dev/null | sort
}

# json_files: JSON inputs of the runtime: mocks, stack references, config
# and the snapshots of the tests and samples.
json_files() {
  find tests/golden/codegen samples tests/conformance -name '*.json' -type f 2>/dev/null | sort
  find "$shared/conformance" -name expected.json -type f 2>/dev/null | sort | head -50
}

# schema_seeds: a program followed by the marker line and the schema of a
# package it uses, for every conformance program and package pair.
schema_seeds() {
  local n=0 pp pkg schema
  for pp in $(find "$shared/conformance" -name '*.pp' -type f | sort); do
    for pkg in $(grep -o '"[a-zA-Z][a-zA-Z0-9-]*:' "$pp" | tr -d '":' | sort -u); do
      for schema in "$providers/$pkg"-*.json; do
        [ -f "$schema" ] || continue
        n=$((n + 1))
        { cat "$pp"; printf '\n#pclc-fuzz-schema\n'; cat "$schema"; } \
          >"$dir/seeds/schema/pair-$n"
      done
    done
  done
}

status=0
for t in "$@"; do
  bin=$dir/fuzz_$t
  if [ ! -x "$bin" ]; then
    echo "run.sh: $bin is not built" >&2
    exit 2
  fi
  rm -rf "$dir/seeds/$t"
  mkdir -p "$dir/seeds/$t" "$dir/corpus/$t" "$dir/artifacts/$t"
  dict=tests/fuzz/json.dict
  read -r -a extra <<<"${FUZZ_FLAGS:-}"
  case $t in
  parse | compile)
    copy_seeds "$t" $(pp_files)
    dict=tests/fuzz/pcl.dict
    ;;
  schema)
    schema_seeds
    cat tests/fuzz/pcl.dict tests/fuzz/schema.dict >"$dir/schema.dict"
    dict=$dir/schema.dict
    ;;
  json | config | mocks | stackref)
    copy_seeds "$t" $(json_files)
    ;;
  rpc)
    # The engine's answers, encoded by @pulumi/pulumi's generated code.
    node tests/fuzz/rpc_seeds.js "$dir/seeds/rpc" || exit 2
    dict=
    ;;
  *)
    echo "run.sh: unknown target '$t'" >&2
    exit 2
    ;;
  esac
  if [ "$t" = compile ]; then
    export PCLC_FUZZ_SCHEMAS=$providers
  fi
  echo "== fuzz_$t: $(ls "$dir/seeds/$t" | wc -l) seeds, $seconds s"
  "$bin" -max_total_time="$seconds" -max_len=65536 -timeout="$timeout" -rss_limit_mb=4096 \
    ${dict:+-dict="$dict"} -artifact_prefix="$dir/artifacts/$t/" -print_final_stats=1 \
    "${extra[@]}" "$dir/corpus/$t" "$dir/seeds/$t" >"$dir/$t.log" 2>&1 || status=1
  grep -E '^(Done|stat::number_of_executed_units|stat::peak_rss_mb)' "$dir/$t.log"
  grep -E 'cov: ' "$dir/$t.log" | tail -1
  if [ -n "$(ls "$dir/artifacts/$t")" ]; then
    echo "fuzz_$t: findings in $dir/artifacts/$t/"
    status=1
  fi
done
exit $status
