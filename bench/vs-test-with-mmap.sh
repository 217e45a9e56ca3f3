#!/bin/sh
# SPDX-License-Identifier: MIT
# memtlb stat against seed 000's test_with_mmap on the same region, block and
# iterations, alternating, and each write_k/read_k phase's ratio memtlb /
# test_with_mmap (each side's median over the rounds of its mean time). They
# should agree within 2%: memtlb must not slow the loop it measures. write_0
# is the fault row (memtlb's default events count the faults). A benchmark,
# not a test: run it on a quiet machine.
#
#   bench/vs-test-with-mmap.sh [REGION [ITERATIONS [ROUNDS]]]   (default 1g 10 5)
#
# test_with_mmap.c is not part of memtlb: it is extracted from the seed post
# (../shared/seeds/000_*.txt, or $MEMTLB_SEED) and built with -O2, as David
# Miller asked for in that thread.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
region=${1:-1g}
iters=${2:-10}
rounds=${3:-5}
memtlb=${MEMTLB:-$top/build/memtlb}
seed=${MEMTLB_SEED:-$(ls "$top"/../shared/seeds/000_*.txt 2>/dev/null | head -n 1)}
block=$(getconf PAGESIZE)

if [ -z "$seed" ] || [ ! -r "$seed" ]; then
	echo "bench: seed 000 not found; set MEMTLB_SEED=path/to/000_*.txt" >&2
	exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

# The attachment runs from its C header to the README attachment; the list
# archive turned "&region_size" into "®ion_size".
sed -n '/^\[-- Attachment #2: test_with_mmap.c --\]/,/^\[-- Attachment #3/p' "$seed" |
	sed '1,2d;$d' | sed 's/®ion_size/\&region_size/' >"$work/test_with_mmap.c"
gcc -O2 -Wall -o "$work/test_with_mmap" "$work/test_with_mmap.c" -lrt -lm

echo "region $region, block $block, $iters iterations, $rounds rounds (alternating)"
for r in $(seq "$rounds"); do
	"$work/test_with_mmap" -i "$iters" -b "$block" -r "$region" >"$work/seed.$r"
	"$memtlb" stat --region "$region" --block "$block" -i "$iters" --format csv \
		>"$work/memtlb.$r"
done

python3 - "$work" "$rounds" <<'PY'
import csv, statistics, sys
work, rounds = sys.argv[1], int(sys.argv[2])
seed, ours = {}, {}
for r in range(1, rounds + 1):
    for line in open(f"{work}/seed.{r}"):
        f = line.split()
        if len(f) == 3 and f[0].startswith(("write_", "read_")):
            seed.setdefault(f[0], []).append(float(f[1]))
    for row in csv.DictReader(open(f"{work}/memtlb.{r}")):
        if row["metric"] == "time" and row["phase"].startswith(("write_", "read_")):
            ours.setdefault(row["phase"], []).append(float(row["mean"]) / 1000.0)
print(f"{'phase':8} {'test_with_mmap (us)':>20} {'memtlb (us)':>12} {'ratio':>7}")
worst = 0.0
# medians over the rounds: a noisy VM's bursts stay in one round
for ph in seed:
    s, m = statistics.median(seed[ph]), statistics.median(ours[ph])
    worst = max(worst, abs(m / s - 1))
    print(f"{ph:8} {s:20.2f} {m:12.2f} {m / s:7.3f}")
steady = [statistics.median(ours[p]) / statistics.median(seed[p])
          for p in seed if p not in ("write_0", "read_0")]
print(f"largest difference {100 * worst:.1f}%; geometric mean of the steady passes "
      f"(write_1..read_4): {statistics.geometric_mean(steady):.3f}")
PY
