#!/bin/sh
# SPDX-License-Identifier: MIT
# memtlb's tasks mode against the real will-it-scale page_fault1 (seed 003's
# program: N tasks, each mmaps 128 MiB of private anonymous memory, writes
# one byte per page, munmaps, again), alternating, at 1 and 2 tasks, as
# processes and as threads. Both on will-it-scale's own measure: pages per
# second summed over the tasks, here all tasks' pages / (mmap + write_0 +
# munmap) of memtlb's one-pass stat, whose phases end with the last task.
# Prints the ratio memtlb / will-it-scale (median of the rounds) with the
# fault count taken two ways: the default event set (faults from getrusage
# at the phase boundaries) and -e minor-faults (perf's software event, which
# fires on every fault). A benchmark, not a test: run it on a quiet machine.
#
#   bench/page-fault1.sh [ROUNDS [TASKS...]]   (default 5 1 2)
#
# will-it-scale is not part of memtlb: it is built from ../shared/peers
# (MEMTLB_PEERS to point elsewhere), and needs libhwloc-dev.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-5}
shift 1 2>/dev/null || true
tasks=${*:-1 2}
memtlb=${MEMTLB:-$top/build/memtlb}
peer=${MEMTLB_PEERS:-$top/../shared/peers}/will-it-scale
seconds=${WIS_SECONDS:-5}

if [ ! -r "$peer/main.c" ] || [ ! -r "$peer/tests/page_fault1.c" ]; then
	echo "bench: skipped: will-it-scale not found in $peer (set MEMTLB_PEERS)" >&2
	exit 0
fi
if ! printf '#include <hwloc.h>\n' | cc -E - >/dev/null 2>&1; then
	echo "bench: skipped: will-it-scale needs hwloc.h (apt-get install libhwloc-dev)" >&2
	exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
cp -r "$peer/." "$work/wis"
make -s -C "$work/wis" page_fault1_processes page_fault1_threads >/dev/null

echo "will-it-scale page_fault1 (-s $seconds) vs memtlb stat --region 128m --backing anon" \
     "--task-region private --passes 1, $rounds rounds"
for r in $(seq "$rounds"); do
	for n in $tasks; do
		for mode in process thread; do
			case $mode in
			process) wis=page_fault1_processes ;;
			thread) wis=page_fault1_threads ;;
			esac
			"$work/wis/$wis" -t "$n" -s "$seconds" >"$work/wis.$mode.$n.$r" 2>&1
			for ev in default minor-faults; do
				set --
				[ "$ev" = default ] || set -- -e "$ev"
				"$memtlb" stat --region 128m --backing anon --tasks "$n" \
					--task-mode "$mode" --task-region private --passes 1 \
					-i $((seconds * 4)) "$@" -o "$work/mt.$ev.$mode.$n.$r" \
					>/dev/null 2>&1
			done
		done
	done
done

python3 - "$work" "$rounds" $tasks <<'PY'
import json, re, statistics, sys
work, rounds, tasks = sys.argv[1], int(sys.argv[2]), sys.argv[3:]

def wis(path):
    m = re.search(r"^average:(\d+)", open(path).read(), re.M)
    return float(m.group(1))

def memtlb(path, n):
    res = json.load(open(path))["results"][0]
    t = {p["name"]: p["time_ns"]["mean"] for p in res["phases"]}
    # all tasks' pages (each has its own 128 MiB), in the time of the slowest
    pages = res["params"]["blocks"]
    return pages * 1e9 / (t["mmap"] + t["write_0"] + t["munmap"])

print(f"{'tasks':>5} {'mode':>8} {'will-it-scale':>14} {'default set':>13} {'ratio':>6}"
      f" {'-e minor-faults':>15} {'ratio':>6}")
for n in tasks:
    for mode in ("process", "thread"):
        ref = statistics.median(wis(f"{work}/wis.{mode}.{n}.{r}") for r in range(1, rounds + 1))
        row = [f"{n:>5} {mode:>8} {ref:14.0f}"]
        for ev, width in (("default", 13), ("minor-faults", 15)):
            v = statistics.median(memtlb(f"{work}/mt.{ev}.{mode}.{n}.{r}", int(n))
                                  for r in range(1, rounds + 1))
            row.append(f"{v:{width}.0f} {v / ref:6.3f}")
        print(" ".join(row))
PY
