#!/bin/sh
# SPDX-License-Identifier: MIT
# The whole `memtlb stat --region R -i N` against `test_with_mmap -i N -r R`
# (seed 000), alternating: wall time of each process from start to exit, so
# everything memtlb adds (set-up, counters, evidence, the report) is in it.
# Prints per round and the ratio of the medians, memtlb / test_with_mmap.
# A benchmark, not a test: run it on a quiet machine.
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
echo "region $region, block $block, $iters iterations, $rounds rounds (alternating)"
echo "round  test_with_mmap (s)  memtlb stat (s)"
for r in $(seq "$rounds"); do
	t0=$(now)
	"$work/test_with_mmap" -i "$iters" -b "$block" -r "$region" >/dev/null
	t1=$(now)
	"$memtlb" stat --region "$region" --block "$block" -i "$iters" -o "$work/r.json" \
		>/dev/null 2>&1
	t2=$(now)
	echo "$r $(( (t1 - t0) / 1000 )) $(( (t2 - t1) / 1000 ))" >>"$work/times"
	awk -v r="$r" '$1 == r { printf "%5d %19.3f %16.3f\n", $1, $2 / 1e6, $3 / 1e6 }' "$work/times"
done
sort -n -k2 "$work/times" | awk '{ a[NR] = $2 } END { print a[int((NR + 1) / 2)] }' >"$work/ma"
sort -n -k3 "$work/times" | awk '{ a[NR] = $3 } END { print a[int((NR + 1) / 2)] }' >"$work/mb"
awk -v a="$(cat "$work/ma")" -v b="$(cat "$work/mb")" \
	'BEGIN { printf "median wall: test_with_mmap %.3f s, memtlb %.3f s, ratio %.3f\n", a / 1e6, b / 1e6, b / a }'
