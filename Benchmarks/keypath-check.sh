#!/usr/bin/env bash
# Checks that the release build of a class mapped by hand (the benchmarks' Item10, ten Int
# properties named by key-path literals) reads and writes its properties without calling into
# Swift's key-path runtime: the closures DBBPropertyPersistence's initializers make, specialized
# for Item10, may materialize a key path (swift_getKeyPath, to find a stored offset when asked)
# but must not apply one (swift_getAtKeyPath, swift_setAt…KeyPath, …). Exits non-zero, naming
# the closures and the calls, when one does. Deterministic: it reads the binary, it times nothing.
#
#   swift build -c release --package-path Benchmarks
#   bash Benchmarks/keypath-check.sh [BINARY]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
binary=${1:-$root/Benchmarks/.build/release/bench}
symbols=$(nm "$binary" | awk '$3 ~ /DBBPropertyPersistenceV.*5bench6Item10C/ {print $3}')
if [ -z "$symbols" ]; then
  echo "keypath-check: no closure of DBBPropertyPersistence specialized for Item10 in $binary" >&2
  exit 1
fi
applying='swift_(get|read|set|modify)At[A-Za-z]*KeyPath|_project(ReadOnly|MutableAddress)'
failed=0
count=0
while IFS= read -r symbol; do
  count=$((count + 1))
  calls=$(objdump -d --no-show-raw-insn "$binary" --disassemble="$symbol" | grep -oE "call +[0-9a-f]+ <[^>]+>" |
    grep -E "$applying" || true)
  if [ -n "$calls" ]; then
    failed=1
    echo "$(swift demangle --simplified --compact "$symbol") applies a key path at run time:" >&2
    echo "$calls" | sed 's/^/    /' >&2
  fi
done <<<"$symbols"
[ "$failed" = 0 ] || exit 1
echo "keypath-check: $count closures of Item10's mapping, none applies a key path at run time"
