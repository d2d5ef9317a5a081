#!/usr/bin/env bash
# DBBBuilder on PostgreSQL against raw postgres-nio running the same statements: insert, fetch
# and the weekly GROUP BY (the bench's "postgres" workloads), on a throwaway cluster.
#
#   swift build -c release --package-path Benchmarks
#   bash Benchmarks/postgres/bench.sh [--quick] [other bench options]
#
# Starts the cluster (see cluster.sh), runs the bench with DBB_BENCH_POSTGRES set to it, and
# stops the cluster. Server and client share the machine's cores, as they would on one host.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bench=${BENCH:-$root/Benchmarks/.build/release/bench}
[ -x "$bench" ] || { echo "build the bench first: swift build -c release --package-path Benchmarks (or set BENCH)" >&2; exit 1; }
source "$(dirname "$0")/cluster.sh"
DBB_BENCH_POSTGRES="$url" "$bench" --filter postgres "$@"
