#!/usr/bin/env bash
# stress.sh: feeds the front end inputs that are huge, deep or garbage.
#
# Usage: tests/corpus/stress.sh PCLC
#
# Generates each input on the fly into a temporary directory (nothing large
# is committed) and runs `pclc --dump-ast` on it, output discarded.  Every
# input must finish within STRESS_TIMEOUT seconds (default 20, generous for
# sanitizer builds; a plain build needs well under one second each) and end
# in one of two ways: exit status 0 with an empty stderr and a non-empty tree
# on stdout, or exit status 1 with an `error:` diagnostic.  A signal, a
# timeout or any other status fails.  Then deep.py (beside this script) runs
# the programs as deep as HCL accepts through every front-end phase on a
# 1 MiB stack and checks that time and memory grow linearly with their depth.
# Ends with `N passed, M failed` for each part.
set -u

if [ $# -ne 1 ]; then
  echo "usage: tests/corpus/stress.sh PCLC" >&2
  exit 2
fi
pclc=$1
case $pclc in
/*) ;;
*/*) pclc=$PWD/$pclc ;;
esac
if [ ! -x "$pclc" ]; then
  echo "stress: $pclc is not an executable" >&2
  exit 2
fi
limit=${STRESS_TIMEOUT:-20}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pclc-stress.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

# The generators: one function per input, each writing its file with python3
# (deterministic: the random bytes come from a fixed seed).
python3 - "$tmp" <<'EOF'
import os, random, sys

d = sys.argv[1]

def write(name, data):
    with open(os.path.join(d, name), "wb") as f:
        f.write(data.encode() if isinstance(data, str) else data)

# (Deep nesting and long chains are deep.py's.)
# A 1 MB string literal, and a 1 MB heredoc.
write("big-string.pp", 'a = "' + ("abcdefghij" * 104858)[:1 << 20] + '"\n')
write("big-heredoc.pp", "a = <<-EOT\n" + ("    line of heredoc text ${x}\n" * 36000) + "EOT\n")
# 100,000 lines of attributes and blocks.
lines = []
for i in range(50000):
    lines.append("v%d = x%d.attr[%d] + %d" % (i, i, i % 7, i))
for i in range(10000):
    lines += ['resource r%d "pkg:mod:Type" {' % i, '  name = "r-${v%d}"' % i,
              "  size = %d" % i, "}"]
lines += ["# comment line"] * (100000 - len(lines))
write("many-lines.pp", "\n".join(lines) + "\n")
# One line of 100,000 tuple elements.
write("wide-tuple.pp", "a = [" + ", ".join(str(i) for i in range(100000)) + "]\n")
# Random bytes, NULs included, and random bytes after a valid prefix.
rng = random.Random(20261121)
write("binary.pp", bytes(rng.randrange(256) for _ in range(65536)))
write("binary-tail.pp", b"a = 1\n" + bytes(rng.randrange(256) for _ in range(4096)))
write("nul-in-string.pp", b'a = "x\x00y"\nb = 2\n')
write("only-nul.pp", b"\x00" * 1000)
# Random printable PCL-ish tokens, to reach many parser error states.
toks = ["a", "b", "=", "{", "}", "[", "]", "(", ")", ",", ".", "*", "\n", '"',
        "${", "%{", "}", "for", "in", "if", ":", "=>", "...", "?", "1", "<<EOT\n",
        "EOT\n", "~}", "!", "-", "+", "&&", "/*", "*/", "#", " "]
write("token-soup.pp", "".join(rng.choice(toks) for _ in range(100000)))
EOF

passed=0
failed=0
for f in "$tmp"/*.pp; do
  name=$(basename "$f")
  start=$(date +%s.%N)
  timeout -k 5 "$limit" "$pclc" --dump-ast "$f" >"$tmp/out" 2>"$tmp/err" </dev/null
  status=$?
  end=$(date +%s.%N)
  secs=$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.2f", e - s }')
  why=""
  case $status in
  0)
    [ -s "$tmp/err" ] && why="exit status 0 but diagnostics on stderr"
    [ -s "$tmp/out" ] || why="exit status 0 but no tree on stdout"
    ;;
  1)
    grep -q 'error:' "$tmp/err" || why="exit status 1 without an error diagnostic"
    ;;
  124 | 137) why="did not finish within $limit s" ;;
  *) why="exit status $status" ;;
  esac
  if [ -z "$why" ]; then
    passed=$((passed + 1))
    echo "ok   $name (exit $status, ${secs}s)"
  else
    failed=$((failed + 1))
    echo "FAIL $name: $why (${secs}s)"
    head -c 2000 "$tmp/err"
  fi
done

echo "$passed passed, $failed failed"
python3 "$(dirname "$0")/deep.py" "$pclc" || failed=$((failed + 1))
[ "$failed" -eq 0 ]
