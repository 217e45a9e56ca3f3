#!/bin/sh
# SPDX-License-Identifier: MIT
# The whole `memtlb stat --region R -i N` against `test_with_mmap -i N -r R`
# (seed 000), alternating: wall time of each process from start to exit, so
# everything memtlb adds (set-up, counters, evidence, the report) is in it.
# Prints per round and the ratio of the medians, memtlb / test_with_mmap.
# MEMTLB_OLD=path/to/memtlb adds a third column, alternating too, and its
# ratio: a change measured before and after under the same noise. A
# benchmark, not a test: run it on a quiet machine.
#
#   bench/stat-wall.sh [REGION [ITERATIONS [ROUNDS]]]   (default 1g 5 5)
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
region=${1:-1g}
iters=${2:-5}
rounds=${3:-5}
memtlb=${MEMTLB:-$top/build/memtlb}
seed=${MEMTLB_SEED:-$(ls "$top"/../shared/seeds/000_*.txt 2>/dev/null | head -n 1)}
block=$(getconf PAGESIZE)

if [ -z "$seed" ] || [ ! -r "$seed" ]; then
	echo "bench: skipped: seed 000 not found; set MEMTLB_SEED=path/to/000_*.txt" >&2
	exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
# The attachment of the seed post, as bench/vs-test-with-mmap.sh extracts it.
sed -n '/^\[-- Attachment #2: test_with_mmap.c --\]/,/^\[-- Attachment #3/p' "$seed" |
	sed '1,2d;$d' | sed 's/®ion_size/\&region_size/' >"$work/test_with_mmap.c"
gcc -O2 -Wall -o "$work/test_with_mmap" "$work/test_with_mmap.c" -lrt -lm

now() { date +%s%N; }
old=${MEMTLB_OLD:-}
# stat_wall MEMTLB: one whole stat, its wall time in us on stdout
stat_wall() {
	t0=$(now)
	"$1" stat --region "$region" --block "$block" -i "$iters" -o "$work/r.json" \
		>/dev/null 2>&1
	echo $(( ($(now) - t0) / 1000 ))
}

echo "region $region, block $block, $iters iterations, $rounds rounds (alternating)"
echo "round  test_with_mmap (s)  memtlb stat (s)${old:+  old memtlb (s)}"
for r in $(seq "$rounds"); do
	t0=$(now)
	"$work/test_with_mmap" -i "$iters" -b "$block" -r "$region" >/dev/null
	t1=$(now)
	b=$(stat_wall "$memtlb")
	c=${old:+$(stat_wall "$old")}
	echo "$r $(( (t1 - t0) / 1000 )) $b ${c:-0}" >>"$work/times"
	awk -v r="$r" -v o="$old" '$1 == r { printf "%5d %19.3f %16.3f", $1, $2 / 1e6, $3 / 1e6
		if (o != "") printf " %15.3f", $4 / 1e6
		printf "\n" }' "$work/times"
done
# median COLUMN: of the rounds
median() {
	sort -n -k"$1" "$work/times" | awk -v c="$1" '{ a[NR] = $c } END { print a[int((NR + 1) / 2)] }'
}
awk -v a="$(median 2)" -v b="$(median 3)" -v c="$(median 4)" -v o="$old" 'BEGIN {
	printf "median wall: test_with_mmap %.3f s, memtlb %.3f s, ratio %.3f\n", a / 1e6, b / 1e6, b / a
	if (o != "")
		printf "old memtlb %.3f s, ratio %.3f\n", c / 1e6, c / a }'
