#!/bin/sh
# SPDX-License-Identifier: MIT
# memtlb's page-size matrix against an independent program (bench/
# mthp-touch.c: no memtlb code) on the same sizes, region and passes,
# alternating rounds: per size, the first touch (ns per 4 KiB) and the
# steady access (read_4, ns per block), each side's median over its
# iterations and then over the rounds, and the ratio memtlb / independent. They should agree within 3%
# (issue 27). Also the matrix's own wall time for every size offered. A
# benchmark, not a test: as root, on a quiet machine; the mTHP controls
# are put back by both programs.
#
#   bench/mthp-matrix.sh [REGION_MIB [ITERATIONS [ROUNDS [ORDER]]]]
#                                           (default 64 10 3 sequential)
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
mib=${1:-64}
iters=${2:-10}
rounds=${3:-3}
order=${4:-sequential}
memtlb=${MEMTLB:-$top/build/memtlb}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

gcc -O2 -Wall -o "$work/mthp-touch" "$top/bench/mthp-touch.c"
echo "region ${mib} MiB, $iters iterations, $rounds rounds (alternating), --backing anon," \
	"--order $order"
for r in $(seq "$rounds"); do
	start=$(date +%s.%N)
	# sequential, as the independent program runs them: interleaved, a size
	# touches memory the size before left fragmented (2 MiB folios compact);
	# a warm-up iteration per point, the one that compacts, as the other's
	# median leaves it out
	"$memtlb" sweep --region "${mib}m" --vary pages=all --backing anon -i "$iters" \
		--order "$order" --warmup 1 -o "$work/memtlb.$r.json" >/dev/null
	end=$(date +%s.%N)
	echo "$start $end" >"$work/wall.$r"
	python3 -c 'import json, sys
for r in json.load(open(sys.argv[1]))["matrix"][0]["rows"]:
    print(r["folio_size"] // 1024 if r["pages"] != "base" else 0)' "$work/memtlb.$r.json" |
	while read -r kb; do
		"$work/mthp-touch" "$kb" "$mib" "$iters"
	done >"$work/touch.$r"
done

python3 - "$work" "$rounds" <<'PY'
import json, statistics, sys
work, rounds = sys.argv[1], int(sys.argv[2])
ours, theirs, walls = {}, {}, []
# memtlb's per-iteration medians, as the other program's: the matrix's means
# carry the noise of a shared machine's bursts, which is the table's to show
for r in range(1, rounds + 1):
    for res in json.load(open(f"{work}/memtlb.{r}.json"))["results"]:
        pages = res["params"]["pages"]
        kb = 0 if pages == "base" else int(pages[5:-1])
        ph = {p["name"]: p["time_ns"]["median"] for p in res["phases"]}
        blocks = res["params"]["blocks"]
        ours.setdefault(kb, []).append((ph["write_0"] / (res["params"]["region"] / 4096),
                                        ph["read_4"] / blocks))
    for line in open(f"{work}/touch.{r}"):
        kb, t, s = line.split()
        theirs.setdefault(int(kb), []).append((float(t), float(s)))
    a, b = open(f"{work}/wall.{r}").read().split()
    walls.append(float(b) - float(a))
def med(v, i):
    return statistics.median(x[i] for x in v)
print(f"{'size':>8} {'touch ns/4KiB':>14} {'indep':>9} {'ratio':>6}"
      f" {'steady ns':>10} {'indep':>8} {'ratio':>6}")
for kb in sorted(ours):
    t, s = med(ours[kb], 0), med(ours[kb], 1)
    ti, si = med(theirs[kb], 0), med(theirs[kb], 1)
    name = "base" if not kb else f"{kb}k"
    print(f"{name:>8} {t:14.1f} {ti:9.1f} {t / ti:6.3f} {s:10.3f} {si:8.3f} {s / si:6.3f}")
print(f"matrix wall time: median {statistics.median(walls):.1f} s "
      f"for {len(ours)} sizes")
PY
