#!/bin/sh
# SPDX-License-Identifier: MIT
# --cpu N: the workload on one CPU alone, said in the report's config (and
# read back), the CPU checked against memtlb's affinity before the run.
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null 2>&1 || { echo "skipped: no python3"; exit 77; }
# The last CPU memtlb may run on, and one it may not (past them all).
cpus=$(python3 -c 'import os; a = sorted(os.sched_getaffinity(0)); print(a[-1], a[-1] + 1)')
cpu_in=${cpus% *}
cpu_out=${cpus#* }

run stat --region 4m -i 2 --passes 1 --cpu "$cpu_in" -o "$work/cpu.json"
expect_status 0 "stat --cpu $cpu_in"
python3 - "$work/cpu.json" "$cpu_in" <<'PY' && ok || fail "--cpu: the report's config.cpu"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["config"]["cpu"] == int(sys.argv[2]), d["config"].get("cpu")
# pinned: the scheduler moved it nowhere
assert d["system"]["run"]["migrations"] in (0, None), d["system"]["run"]
PY
expect_grep "on CPU $cpu_in alone" "$out" "--cpu: the table's header"
run stat --from "$work/cpu.json" --format json
cmp -s "$out" "$work/cpu.json" && ok || fail "--cpu: not read back as written"

# without --cpu the report says nothing of a CPU
run stat --region 4m -i 2 --passes 1 -o "$work/any.json"
expect_status 0 "stat without --cpu"
python3 -c 'import json, sys; assert "cpu" not in json.load(open(sys.argv[1]))["config"]' \
	"$work/any.json" && ok || fail "no --cpu: a cpu key in the config"

# the affinity memtlb set for the workload, seen by the kernel
if command -v strace >/dev/null 2>&1; then
	strace -f -e trace=sched_setaffinity -o "$work/trace" "$MEMTLB" stat --region 1m -i 2 \
		--passes 1 --cpu "$cpu_in" >/dev/null 2>&1
	grep -q "sched_setaffinity(0, [0-9]*, \\[$cpu_in\\]) *= 0" "$work/trace" && ok ||
		fail "--cpu: no sched_setaffinity to CPU $cpu_in"
	# an interleaved sweep's points too (its runs are made one by one)
	strace -f -e trace=sched_setaffinity -o "$work/trace" "$MEMTLB" sweep --region 1m..2m:1m \
		--order interleaved -i 2 --passes 1 --cpu "$cpu_in" >/dev/null 2>&1
	grep -q "sched_setaffinity(0, [0-9]*, \\[$cpu_in\\]) *= 0" "$work/trace" && ok ||
		fail "--cpu: an interleaved sweep not pinned to CPU $cpu_in"
else
	echo "affinity trace: skipped: no strace"
fi

run sweep --region 1m..2m:1m -i 2 --passes 1 --cpu "$cpu_in"
expect_status 0 "sweep --cpu"

usage_case "--cpu not a number" stat --cpu x
usage_case "--cpu past CPU_SETSIZE" stat --cpu 99999
usage_case "--cpu outside the affinity" stat --region 1m --cpu "$cpu_out"
usage_case "--cpu negative" stat --cpu -1
finish
