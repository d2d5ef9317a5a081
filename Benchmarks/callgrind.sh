#!/usr/bin/env bash
# Instruction counts of the core workloads' contenders under callgrind, counting only the timed
# region (bench's timedRegion: the operation, not its setup), and each contender's ratio to the
# first. Deterministic where wall-clock time is not.
#
#   swift build -c release --package-path Benchmarks
#   bash Benchmarks/callgrind.sh [--quick] [WORKLOAD…]     # default: insert update "single save" fetch arrays
#   DBB_BENCH_BINARY=/tmp/bench-before bash Benchmarks/callgrind.sh …   # another build (a copy kept from before a change)
#   DBB_BENCH_SKIP=Fluent bash Benchmarks/callgrind.sh …   # leave out the contenders whose name contains the text
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
size=()
if [ "${1:-}" = "--quick" ]; then size=(--quick); shift; fi
workloads=("$@")
[ ${#workloads[@]} -gt 0 ] || workloads=(insert update "single save" fetch arrays)
bench=$(mktemp /tmp/bench-XXXXXX)
trap 'rm -f "$bench"' EXIT
objcopy --strip-debug "${DBB_BENCH_BINARY:-$root/Benchmarks/.build/release/bench}" "$bench"
for workload in "${workloads[@]}"; do
  echo "## $workload"
  contenders=$("$bench" "${size[@]}" --once --filter "$workload" | sed -n 's|^.* / \(.*\): ran once$|\1|p' \
                | { if [ -n "${DBB_BENCH_SKIP:-}" ]; then grep -vF -- "$DBB_BENCH_SKIP" || true; else cat; fi; })
  first=""
  while IFS= read -r contender; do
    [ -n "$contender" ] || continue
    count=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect='*timedRegion*' \
              "$bench" "${size[@]}" --once --filter "$workload" --contender "$contender" 2>&1 \
            | sed -n 's/^==[0-9]*== Collected : \([0-9]*\)$/\1/p')
    [ -n "$first" ] || first=$count
    awk -v n="$count" -v f="$first" -v c="$contender" 'BEGIN {printf "  %-55s %8.1f M  %.2f×\n", c, n / 1e6, n / f}'
  done <<<"$contenders"
done
