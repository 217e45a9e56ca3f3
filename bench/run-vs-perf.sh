#!/bin/sh
# SPDX-License-Identifier: MIT
# memtlb run -r 10 -- true against perf stat -r 10 -- true, alternating:
# wall time of the whole command (date +%s%N around it, the command alone)
# and, in a second run of it, its maximum RSS (GNU time's %M, whose own
# fork and wait would add to both walls), per round, then the median and
# mean of each and the ratio memtlb / perf. Two configurations: each tool's default events, and
# the same two software events for both. A benchmark, not a test: the
# machine should be quiet; say how quiet it was with the figures.
#
#   bench/run-vs-perf.sh [ROUNDS [REPEATS]]     (default 20 10)
#
# Needs Debian's linux-perf (perf) and time (/usr/bin/time).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-20}
repeats=${2:-10}
memtlb=${MEMTLB:-$top/build/memtlb}
perf=${PERF:-$(command -v perf || true)}
gnutime=/usr/bin/time

if [ -z "$perf" ] || [ ! -x "$gnutime" ]; then
	echo "bench: needs perf and GNU time: apt-get install linux-perf time" >&2
	exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

now() { date +%s%N; }

# one NAME CMD...: one timed run and one under GNU time, appends
# "wall_ns max_rss_kb" to $work/NAME
one() {
	name=$1
	shift
	t0=$(now)
	"$@" >/dev/null 2>&1
	t1=$(now)
	"$gnutime" -f %M -o "$work/rss" "$@" >/dev/null 2>&1
	echo "$((t1 - t0)) $(tail -n 1 "$work/rss")" >>"$work/$name"
}

# median COLUMN FILE
median() {
	sort -n -k"$1,$1" "$2" | awk -v c="$1" '{ v[NR] = $c }
		END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

mean() {	# COLUMN FILE
	awk -v c="$1" '{ s += $c } END { print s / NR }' "$2"
}

summary() {	# NAME: median and mean of wall (ms) and max RSS (KiB)
	f=$work/$1
	echo "$1 $(median 1 "$f") $(mean 1 "$f") $(median 2 "$f") $(mean 2 "$f")" |
		awk '{ printf "%s %.2f %.2f %d %d\n", $1, $2 / 1e6, $3 / 1e6, $4, $5 }'
}

echo "memtlb run -r $repeats -- true vs perf stat -r $repeats -- true, $rounds rounds alternating"
echo "$(nproc) CPUs, load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$rounds"); do
	one memtlb-default "$memtlb" run -r "$repeats" -- true
	one perf-default "$perf" stat -r "$repeats" -- true
	one memtlb-sw "$memtlb" run -r "$repeats" -e task-clock,page-faults -- true
	one perf-sw "$perf" stat -r "$repeats" -e task-clock,page-faults -- true
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-16s %12s %12s %14s %14s\n' "" "wall median" "wall mean" "maxRSS median" "maxRSS mean"
for cfg in default sw; do
	for tool in memtlb perf; do
		summary "$tool-$cfg"
	done >"$work/sum.$cfg"
	awk '{ printf "%-16s %9.2f ms %9.2f ms %10d KiB %10d KiB\n", $1, $2, $3, $4, $5 }' "$work/sum.$cfg"
	awk 'NR == 1 { w = $2; m = $4 } NR == 2 { printf "%-16s %12.2f %12s %14.2f\n", "memtlb/perf", w / $2, "", m / $4 }' \
		"$work/sum.$cfg"
done
