#!/bin/sh
# SPDX-License-Identifier: MIT
# memtlb in tasks mode (private anonymous regions, one word per page) against
# a page_fault1-style reference loop (bench/page_fault1_ref.c: N processes,
# mmap 128 MiB, touch each page, munmap), alternating, at 1 and 2 tasks.
# Compares write_0's faults per second: memtlb's minor-faults / write_0 time
# (release to last finish) and the sum of its per-task rates, against the
# reference's sum of per-process pages / touch time. They should agree
# within 5%. A benchmark, not a test: run it on a quiet machine.
#
# memtlb runs twice per round: counting minor-faults (perf's software event
# fires on every fault, and costs time there), and counting only task-clock,
# with the faults taken from getrusage in memtlb's untimed evidence iteration:
# the second shows memtlb's own loop, the first what counting faults costs.
#
#   bench/page-fault1.sh [ITERATIONS [ROUNDS [TASKS...]]]   (default 10 5 1 2)
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
iters=${1:-10}
rounds=${2:-5}
shift 2 2>/dev/null || shift $#
tasks=${*:-1 2}
memtlb=${MEMTLB:-$top/build/memtlb}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

gcc -O2 -Wall -o "$work/ref" "$top/bench/page_fault1_ref.c"
echo "128 MiB private anon per task, 4 KiB pages, $iters iterations, $rounds rounds"
for n in $tasks; do
	for r in $(seq "$rounds"); do
		"$work/ref" "$n" "$iters" >"$work/ref.$n.$r"
		for ev in minor-faults task-clock; do
			"$memtlb" stat --region 128m --backing anon --tasks "$n" --task-mode process \
				--task-region private -i "$iters" -p 1 -e "$ev" --format json \
				>"$work/$ev.$n.$r"
		done
	done
done

python3 - "$work" "$rounds" $tasks <<'PY'
import json, statistics, sys
work, rounds, tasks = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
def write_0(path):
    rep = json.load(open(path))
    return next(p for p in rep["results"][0]["phases"] if p["name"] == "write_0")

print(f"{'tasks':>5} {'ref pages/s':>12} {'memtlb, faults counted':>23} {'ratio':>6}"
      f" {'memtlb, task-clock only':>24} {'ratio':>6} {'same, sum per task':>19} {'ratio':>6}")
for n in tasks:
    ref, counted, plain, per = [], [], [], []
    for r in range(1, rounds + 1):
        kv = dict(l.split() for l in open(f"{work}/ref.{n}.{r}"))
        ref.append(float(kv["pages_per_s"]))
        w0 = write_0(f"{work}/minor-faults.{n}.{r}")
        counted.append(w0["counters"]["minor-faults"]["mean"] * 1e9 / w0["time_ns"]["mean"])
        w0 = write_0(f"{work}/task-clock.{n}.{r}")
        plain.append(w0["kernel"]["rusage.minflt"]["mean"] * 1e9 / w0["time_ns"]["mean"])
        # like the reference: each task's own pages / its own touch time, summed
        per.append(w0["kernel"]["blocks_per_s_per_task"]["mean"] * int(n))
    a, b, c = statistics.mean(ref), statistics.mean(counted), statistics.mean(plain)
    d = statistics.mean(per)
    print(f"{n:>5} {a:12.0f} {b:23.0f} {b / a:6.3f} {c:24.0f} {c / a:6.3f} {d:19.0f} {d / a:6.3f}")
PY
