#!/bin/sh
# SPDX-License-Identifier: MIT
# What a sweep costs beyond what it measures: the wall time of the whole
# `memtlb sweep` over the sum of the phase times its report holds (every
# phase of every timed iteration of every point). 1.00 would be a sweep that
# does nothing but its measured phases. A benchmark, not a test.
#
#   bench/sweep-overhead.sh [RANGE [ITERATIONS [ROUNDS]]]   (default 256m..1g:256m 3 3)
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
range=${1:-256m..1g:256m}
iters=${2:-3}
rounds=${3:-3}
memtlb=${MEMTLB:-$top/build/memtlb}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

echo "memtlb sweep --region $range -i $iters, $rounds rounds"
for r in $(seq "$rounds"); do
	t0=$(date +%s%N)
	"$memtlb" sweep --region "$range" -i "$iters" -o "$work/s.$r.json" >/dev/null 2>&1
	t1=$(date +%s%N)
	echo "$(( t1 - t0 ))" >"$work/wall.$r"
done
python3 - "$work" "$rounds" <<'PY'
import json, statistics, sys
work, rounds = sys.argv[1], int(sys.argv[2])
ratios = []
for r in range(1, rounds + 1):
    wall = int(open(f"{work}/wall.{r}").read())
    rep = json.load(open(f"{work}/s.{r}.json"))
    phases = sum(sum(p["time_ns"]["samples"]) for res in rep["results"] for p in res["phases"])
    ratios.append(wall / phases)
    print(f"round {r}: wall {wall / 1e9:.2f} s, measured phases {phases / 1e9:.2f} s,"
          f" ratio {wall / phases:.3f}")
print(f"median ratio {statistics.median(ratios):.3f}")
PY
