#!/bin/sh
# SPDX-License-Identifier: MIT
# The cost of a study (memtlb run --vary, issue 28), two figures:
#
# 1. memtlb's own cost per repetition: memtlb run --vary thp=V1,V2 -r N --
#    true against perf stat -r 2N -- true (the same number of runs of the
#    command), alternating; wall time of the whole command per run of true,
#    medians over the rounds, and the ratio memtlb / perf.
# 2. what a study adds to its command: memtlb run --vary thp=V1,V2 -r 3 --
#    sleep S against 6 x the wall time of sleep S alone (measured here, the
#    median of 6), as a share of the study's wall time (goal: under 1%).
#
# A benchmark, not a test: as root (thp is written and restored), on a
# quiet machine.
#
#   bench/run-vary.sh [ROUNDS [REPEATS [SLEEP_S]]]     (default 10 10 1)
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-10}
repeats=${2:-10}
sleep_s=${3:-1}
memtlb=${MEMTLB:-$top/build/memtlb}
perf=${PERF:-$(command -v perf || true)}
thp=/sys/kernel/mm/transparent_hugepage/enabled
if [ -z "$perf" ]; then
	echo "bench: needs perf: apt-get install linux-perf" >&2
	exit 1
fi
# the two values: the current one first, so the study starts where it is
cur=$(sed 's/.*\[\(.*\)\].*/\1/' $thp)
other=never
[ "$cur" != never ] || other=madvise
vals=$cur,$other
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

now() { date +%s%N; }
timed() {	# FILE CMD...: appends the command's wall time in ns to FILE
	f=$1
	shift
	t0=$(now)
	"$@" >/dev/null 2>&1
	t1=$(now)
	echo $((t1 - t0)) >>"$f"
}
median() {
	sort -n "$1" | awk '{ v[NR] = $1 }
		END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

echo "$(nproc) CPUs, load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "1. per run of true: memtlb run --vary thp=$vals -r $repeats against" \
	"perf stat -r $((2 * repeats)), $rounds rounds alternating"
for r in $(seq "$rounds"); do
	timed "$work/memtlb" "$memtlb" run --vary thp="$vals" -r "$repeats" \
		-e task-clock,page-faults -- true
	timed "$work/perf" "$perf" stat -r $((2 * repeats)) -e task-clock,page-faults -- true
done
m=$(median "$work/memtlb")
p=$(median "$work/perf")
awk -v m="$m" -v p="$p" -v n=$((2 * repeats)) 'BEGIN {
	printf "   memtlb %.3f ms per run, perf stat %.3f ms per run: ratio %.2f\n",
		m / n / 1e6, p / n / 1e6, m / p }'

echo "2. a study of sleep $sleep_s: memtlb run --vary thp=$vals -r 3 against 6 x sleep alone"
for r in 1 2 3 4 5 6; do
	timed "$work/sleep" sleep "$sleep_s"
done
for r in 1 2 3; do
	timed "$work/study" "$memtlb" run --vary thp="$vals" -r 3 -e task-clock -- sleep "$sleep_s"
done
s=$(median "$work/sleep")
st=$(median "$work/study")
awk -v s="$s" -v st="$st" 'BEGIN {
	printf "   sleep alone %.1f ms, study %.1f ms: %.2f%% beyond 6 x the command\n",
		s / 1e6, st / 1e6, 100 * (st - 6 * s) / st }'
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
