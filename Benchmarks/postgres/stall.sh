#!/usr/bin/env bash
# A rolling deploy on a live PostgreSQL table: a table of ROWS rows (default 1,000,000), a
# writer of the old version saving a row every 10 ms, an ordinary report reading for 8 s, then the
# new version registered (a new column, a new index, NOT NULL on an existing column). Prints the
# longest wait any save saw and how long registration took, once without a lock bound (as
# registration behaved before it had one) and once with the default bound.
#
#   swift build -c release --package-path Benchmarks
#   bash Benchmarks/postgres/stall.sh [ROWS]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bench=${BENCH:-$root/Benchmarks/.build/release/bench}
[ -x "$bench" ] || { echo "build the bench first: swift build -c release --package-path Benchmarks (or set BENCH)" >&2; exit 1; }
source "$(dirname "$0")/cluster.sh"
DBB_BENCH_POSTGRES="$url" "$bench" --deploy-stall "${1:-1000000}"
