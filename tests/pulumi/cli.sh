#!/usr/bin/env bash
# cli.sh: the Pulumi CLI end to end with `runtime: pclc` (make check-cli).
#
#   tests/pulumi/cli.sh PULUMI BUILD [--keep]
#
# PULUMI is the Pulumi CLI (build/pulumi/pulumi); BUILD the build directory
# holding pclc, pulumi-language-pclc, libpclrt.a and pkgconfig/pclrt.pc (the
# CLI finds the host on PATH, the host finds pclc and libpclrt beside it).
# With a local backend (`pulumi login file://`) and a passphrase, in a
# temporary directory, it deploys the programs of cli/ as a user does:
# `stack init`, `config set` and `config set --secret`, `preview`, `up`,
# `stack output --json --show-secrets`; then the second version of the
# program, whose preview and update change, add and delete exactly what the
# program changed; `refresh`; a second stack that reads the first through a
# stack reference; and `destroy` of both.  The resources are the engine's
# own (pulumi:index:Stash, pulumi:pulumi:StackReference) and a local
# component, so that no provider plugin is needed.  The state files must
# never hold the secret in clear.  Prints `ok <step>` or `FAIL <step>: ...`
# and `N passed, M failed`; exit status 1 when a step failed.
set -u

pulumi=${1:?usage: cli.sh PULUMI BUILD [--keep]}
build=${2:?usage: cli.sh PULUMI BUILD [--keep]}
keep=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
pulumi=$(cd "$(dirname "$pulumi")" && pwd)/$(basename "$pulumi")
build=$(cd "$build" && pwd)

work=$(mktemp -d "${TMPDIR:-/tmp}/pclc-cli.XXXXXX")
passed=0 failed=0
finish() {
  if [ "$keep" = --keep ] || [ "$failed" -gt 0 ]; then
    echo "work directory kept: $work"
  else
    rm -rf "$work"
  fi
}
trap finish EXIT

export PULUMI_HOME=$work/home
export PULUMI_CONFIG_PASSPHRASE="correct horse battery staple"
export PULUMI_SKIP_UPDATE_CHECK=true
export PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true
export PULUMI_SKIP_CONFIRMATIONS=true
export PCLC_CACHE_DIR=$work/cache
export PATH="$build:$PATH"
export NO_COLOR=1
unset PULUMI_ACCESS_TOKEN PULUMI_BACKEND_URL

SECRET="s3cr3t-p4ssw0rd-$$"
log=$work/log

ok() {
  echo "ok $1"
  passed=$((passed + 1))
}
fail() {
  echo "FAIL $1: $2"
  for f in "$log" "$log.err"; do
    if [ -s "$f" ]; then sed 's/^/    /' "$f" | tail -n 20; fi
  done
  failed=$((failed + 1))
}
# step NAME DIR COMMAND...: runs the CLI in DIR, its standard output in
# $log and its standard error in $log.err.
step() {
  local name=$1 dir=$2
  shift 2
  if (cd "$dir" && timeout 300 "$pulumi" "$@") > "$log" 2> "$log.err"; then
    ok "$name"
    return 0
  fi
  fail "$name" "pulumi $* failed"
  return 1
}
# json EXPR: evaluates the Python expression EXPR over the JSON in $log
# (as `j`), printing its value.
json() {
  python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$log" "$1"
}
expect() {
  local name=$1 got=$2 want=$3
  if [ "$got" = "$want" ]; then
    ok "$name"
  else
    echo "    expected: $want" > "$log.why"
    echo "    got:      $got" >> "$log.why"
    fail "$name" "$(cat "$log.why")"
  fi
}

producer=$work/producer
consumer=$work/consumer
mkdir -p "$work/state" "$PULUMI_HOME"
cp -r "$here/cli/producer" "$producer"
cp -r "$here/cli/consumer" "$consumer"
printf 'name: producer\nruntime: pclc\n' > "$producer/Pulumi.yaml"
printf 'name: consumer\nruntime: pclc\n' > "$consumer/Pulumi.yaml"

step "login to a local backend" "$work" login "file://$work/state" || exit 1
step "stack init" "$producer" stack init dev || exit 1
step "config set" "$producer" config set greeting hello
step "config set --secret" "$producer" config set --secret password "$SECRET"
if grep -q "$SECRET" "$producer/Pulumi.dev.yaml"; then
  fail "the stack's config file holds the secret encrypted" "it is in clear"
else
  ok "the stack's config file holds the secret encrypted"
fi

if step "preview" "$producer" preview --json; then
  expect "preview: every resource is a create" \
    "$(json 'sorted((s["op"], s["urn"].split("::")[-1]) for s in j["steps"] if s["op"] != "same")')" \
    "[('create', 'changed'), ('create', 'kept'), ('create', 'part'), ('create', 'part-inner'), ('create', 'producer-dev'), ('create', 'removed'), ('create', 'vault')]"
fi
step "up" "$producer" up --yes --skip-preview
if step "stack output --json --show-secrets" "$producer" stack output --json --show-secrets; then
  expect "the outputs" "$(json 'sorted(j.items())')" \
    "[('message', 'hello, world'), ('partValue', 'hello from the component'), ('password', '$SECRET')]"
fi
if step "stack output --json" "$producer" stack output --json; then
  expect "without --show-secrets the secret output is hidden" "$(json 'j["password"]')" "[secret]"
fi

# A second run of the unchanged program changes nothing, and compiles
# nothing: the host's cache holds the one program built.
builds() { find "$PCLC_CACHE_DIR/programs" -mindepth 1 -maxdepth 1 | wc -l | tr -d ' '; }
if step "preview of the unchanged program" "$producer" preview --json; then
  expect "the unchanged program changes nothing" \
    "$(json '[s["op"] for s in j["steps"] if s["op"] != "same"]')" "[]"
fi
expect "the unchanged program is not compiled again" "$(builds)" 1

# The second version: `changed` changes, `added` comes, `removed` goes.
cp "$here/cli/producer-v2/main.pp" "$producer/main.pp"
if step "preview of the changed program" "$producer" preview --json; then
  expect "the diff is what the program changed" \
    "$(json 'sorted((s["op"], s["urn"].split("::")[-1]) for s in j["steps"] if s["op"] != "same")')" \
    "[('create', 'added'), ('delete', 'removed'), ('update', 'changed')]"
fi
step "up of the changed program" "$producer" up --yes --skip-preview
expect "the changed program is compiled once" "$(builds)" 2
if step "stack output after the update" "$producer" stack output --json --show-secrets; then
  expect "the outputs after the update" "$(json 'j["message"]')" "hello, again"
fi
step "refresh" "$producer" refresh --yes --skip-preview
step "after refresh, a preview expects no changes" "$producer" preview --expect-no-changes

# A second stack reads the first through a stack reference.
step "stack init of a second project" "$consumer" stack init dev
step "config set of the second stack" "$consumer" config set producer organization/producer/dev
step "up of the second stack" "$consumer" up --yes --skip-preview
if step "the second stack's outputs" "$consumer" stack output --json --show-secrets; then
  expect "the stack reference reads the first stack's outputs" \
    "$(json 'sorted(j.items())')" "[('message', 'hello, again'), ('password', '$SECRET')]"
fi

if grep -rqF "$SECRET" "$work/state"; then
  fail "no secret in clear in the state" "$(grep -rlF "$SECRET" "$work/state")"
else
  ok "no secret in clear in the state"
fi

# A program that does not compile: the CLI shows pclc's located message
# with its source line and caret, and the preview fails.
broken=$work/broken
mkdir -p "$broken"
cp "$here/cli/broken/main.pp" "$broken/main.pp"
printf 'name: broken\nruntime: pclc\n' > "$broken/Pulumi.yaml"
step "stack init of a program that does not compile" "$broken" stack init dev
if (cd "$broken" && timeout 300 "$pulumi" preview) > "$log" 2>&1; then
  fail "a compile error fails the preview" "the preview succeeded"
elif grep -q "main.pp:3:11: undefined variable missing" "$log" && grep -q '^ *\^~*$' "$log"; then
  ok "a compile error fails the preview, located, with its caret"
else
  fail "a compile error fails the preview, located, with its caret" "not in the CLI's output"
fi

step "destroy of the second stack" "$consumer" destroy --yes --skip-preview
step "destroy" "$producer" destroy --yes --skip-preview
if step "stack export after destroy" "$producer" stack export; then
  expect "destroy leaves no resource" "$(json 'len(j["deployment"].get("resources") or [])')" 0
fi

echo "pulumi cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
