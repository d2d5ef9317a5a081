#!/usr/bin/env bash
# The weekly GROUP BY on PostgreSQL: dbb_week(date, 'de_DE') (the library's locale function, a
# double precision column of seconds since 2001, as table objects store dates) against to_char(d,
# 'IYYY-IW') (PostgreSQL's own ISO week, on a date column of the same rows), over 1,000,000 rows;
# and months by dbb_format_date, numeric and named, against to_char (reported, no goal).
#
#   swift build --product dbb          # the dbb tool installs the functions
#   bash Benchmarks/postgres/weekly.sh [ROWS] [RUNS]
#
# Starts a throwaway cluster on a free loopback port (as the postgres user when run as root),
# loads the rows, runs each query RUNS times (default 5, interleaved), prints best and median
# per query and the ratio against the goal (1.5×), and stops the cluster. Parallel workers are
# off, so each figure is one core's work.
set -euo pipefail
rows=${1:-1000000}
runs=${2:-5}
root=$(cd "$(dirname "$0")/../.." && pwd)
# Any build of the dbb tool will do: it only installs the functions.
dbb=${DBB:-$(ls "$root"/.build/release/dbb "$root"/.build/debug/dbb 2>/dev/null | head -1)}
[ -x "$dbb" ] || { echo "build the dbb tool first: swift build --product dbb (or set DBB)" >&2; exit 1; }
source "$(dirname "$0")/cluster.sh"

"${psql[@]}" -c "CREATE TABLE usage (id bigint PRIMARY KEY, date double precision, d date, value double precision)"
"${psql[@]}" -c "SELECT setseed(0.2011); INSERT INTO usage SELECT n, s, date '2001-01-01' + floor(s / 86400)::int, random() * 100
                 FROM (SELECT n, (random() * 20 * 365.25 + 5 * 365.25) * 86400 AS s FROM generate_series(1, $rows) AS n) AS r" >/dev/null
"${psql[@]}" -c "VACUUM ANALYZE usage"
"$dbb" sql "$url" "SELECT dbb_week(0, 'de_DE')" >/dev/null  # installs

declare -A query=(
  [to_char]="SELECT to_char(d, 'IYYY-IW') AS w, sum(value) FROM usage GROUP BY w"
  [dbb_week]="SELECT dbb_week(date, 'de_DE') AS w, sum(value) FROM usage GROUP BY w"
  [to_char_month]="SELECT to_char(d, 'YYYY-MM') AS m, sum(value) FROM usage GROUP BY m"
  [format_month]="SELECT dbb_format_date('yyyy-MM', date, 'de_DE') AS m, sum(value) FROM usage GROUP BY m"
  [to_char_name]="SELECT to_char(d, 'TMMonth YYYY') AS m, sum(value) FROM usage GROUP BY m"
  [format_name]="SELECT dbb_format_date('MMMM yyyy', date, 'de_DE') AS m, sum(value) FROM usage GROUP BY m"
)
names=(to_char dbb_week to_char_month format_month to_char_name format_name)
# Both group the same rows into the same weeks (de_DE weeks are ISO weeks), and months.
same=$("${psql[@]}" -At -c "SELECT count(*) FROM usage WHERE dbb_week(date, 'de_DE') <> to_char(d, 'IYYY-IW')
                               OR dbb_format_date('yyyy-MM', date, 'de_DE') <> to_char(d, 'YYYY-MM')")
[ "$same" = 0 ] || { echo "dbb_week or dbb_format_date and to_char disagree on $same rows" >&2; exit 1; }
declare -A times=()
for ((run = 0; run <= runs; run++)); do
  for name in "${names[@]}"; do
    ms=$("${psql[@]}" -c '\timing on' -c "SELECT count(*) FROM (${query[$name]}) AS q" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p')
    [ "$run" -gt 0 ] && times[$name]+="$ms "   # run 0 warms the cache
  done
done
summary() { tr ' ' '\n' <<<"$1" | grep . | sort -n | awk '{a[NR]=$1} END {printf "%.0f %.0f", a[1], a[int((NR+1)/2)]}'; }
declare -A best=() median=()
for name in "${names[@]}"; do read -r "best[$name]" "median[$name]" <<<"$(summary "${times[$name]}")"; done
ratio() { awk -v a="${median[$1]}" -v b="${median[$2]}" 'BEGIN {printf "%.2f", a / b}'; }
echo "GROUP BY over $rows rows, PostgreSQL $("$bin/postgres" --version | awk '{print $3}'), one core, $runs runs:"
line() { printf "  %-44s best %6s ms  median %6s ms%s\n" "$1" "${best[$2]}" "${median[$2]}" "$3"; }
line "to_char(d, 'IYYY-IW')" to_char ""
line "dbb_week(date, 'de_DE')" dbb_week "  $(ratio dbb_week to_char)×"
line "to_char(d, 'YYYY-MM')" to_char_month ""
line "dbb_format_date('yyyy-MM', date, 'de_DE')" format_month "  $(ratio format_month to_char_month)×"
line "to_char(d, 'TMMonth YYYY')" to_char_name ""
line "dbb_format_date('MMMM yyyy', date, 'de_DE')" format_name "  $(ratio format_name to_char_name)×"
met=$(awk -v r="$(ratio dbb_week to_char)" 'BEGIN {print (r <= 1.5) ? "met" : "NOT met"}')
echo "  goal dbb_week ≤ 1.5× to_char: $met ($(ratio dbb_week to_char)×)"
