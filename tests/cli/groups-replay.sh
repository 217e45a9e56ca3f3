#!/bin/sh
# SPDX-License-Identifier: MIT
# Group splitting, multiplexing, not counted and not supported, through the
# replay backend (a PMU of two counters), for stat and run.
. "$(dirname "$0")/lib.sh"

export MEMTLB_BACKEND="replay:${MEMTLB_TEST_DATA:?}/replay-groups.txt"
events=cycles,instructions,dTLB-loads,dTLB-load-misses,minor-faults,iTLB-load-misses,dTLB-stores

check() {	# FILE EXPR WHAT
	if python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); sys.exit(not eval(sys.argv[2]))' "$1" "$2"; then ok; else
		fail "$3: $2"; fi
}

run stat --region 64k -i 2 --passes 1 -e $events -o "$work/r.json"
expect_status 0 "stat on two-counter replay"
j=$work/r.json
check "$j" '[e["group"] for e in r["results"][0]["events"]] == [0, 0, 1, 1, 0, 2, None]' \
	"groups: first fit, a third for the one that fits nowhere, none for the unsupported"
ph='r["results"][0]["phases"][1]'
check "$j" "$ph[\"counters\"][\"dTLB-loads\"][\"running\"] == 0.5" "running fraction kept"
check "$j" "$ph[\"counters\"][\"dTLB-loads\"][\"mean\"] == 800000" "multiplexed count scaled by ena/run"
check "$j" "{k: v for k, v in $ph[\"counters\"][\"iTLB-load-misses\"].items() if k != \"samples\"} == {\"supported\": True, \"counted\": False} and set($ph[\"counters\"][\"iTLB-load-misses\"][\"samples\"]) == {None}" "not counted"
check "$j" "$ph[\"counters\"][\"dTLB-stores\"][\"supported\"] is False" "not supported"
check "$j" "abs($ph[\"derived\"][\"dtlb_miss_ratio\"] - 0.01) < 1e-12" "miss ratio within one group"
check "$j" "abs($ph[\"derived\"][\"dtlb_mpki\"] - 4.0) < 1e-12" "MPKI = 1000 * 8000 / 2000000"
check "$j" "\"ipc\" not in $ph[\"derived\"]" "no IPC: every derived metric is up-is-worse for compare"
check "$j" "sorted($ph[\"derived_across_groups\"]) == [\"dtlb_miss_rate\", \"dtlb_mpki\"]" \
	"ratios across groups are marked, same-group ones are not"
check "$j" "\"itlb_mpki\" not in $ph[\"derived\"]" "a not-counted input leaves the metric absent"
expect_grep 'counted in 3:' "$out" "table says the events were split"
expect_grep '^  group 1: dTLB-loads dTLB-load-misses$' "$out" "table lists group 1"
expect_grep '\(50\.0%\)' "$out" "table shows the running fraction"
expect_grep 'not counted' "$out" "table says not counted"
expect_grep '^\* inputs counted in different groups' "$out" "table explains the mark"
expect_grep '[0-9]\*' "$out" "a value carries the mark"

run run -e $events -r 3 -- /bin/true
expect_status 0 "run on two-counter replay"
expect_grep '^dTLB MPKI +4\.000\*' "$err" "run: MPKI marked across groups"
expect_grep '^dTLB miss ratio +1\.00%( |$)' "$err" "run: miss ratio unmarked"
expect_grep '^dTLB-loads +800,000 .* 50\.0%$' "$err" "run: multiplexed count with running"

# A group the kernel takes but never schedules (one free counter): stat
# counts again with the events split; run says so and does not rerun.
export MEMTLB_BACKEND="replay:$MEMTLB_TEST_DATA/replay-unscheduled.txt"
run stat --region 64k -i 2 --passes 1 -e cycles,instructions,minor-faults -o "$work/u.json"
expect_status 0 "stat with a never-scheduled group"
expect_grep 'never scheduled.*counting again' "$err" "stat says it split and counted again"
check "$work/u.json" '[e["group"] for e in r["results"][0]["events"]] == [0, 1, 2]' "split one per group"
check "$work/u.json" 'r["results"][0]["phases"][1]["counters"]["instructions"]["mean"] == 2000000' \
	"counted after the split"
run run -e cycles,instructions,minor-faults -- /bin/true
expect_status 0 "run with a never-scheduled group"
expect_grep '^not counted .*: cycles' "$err" "run: not counted, never 0"
expect_grep 'never scheduled' "$err" "run says the group never ran"

# A sweep counts every event after the split, at every point, and says so once.
run sweep --region 64k..192k:64k -i 2 --passes 1 -e cycles,instructions,minor-faults -o "$work/s.json"
expect_status 0 "sweep with a never-scheduled group"
n=$(grep -c 'never scheduled' "$err")
[ "$n" = 1 ] && ok || fail "sweep: the split said once, not $n times"
check "$work/s.json" 'len(r["results"]) == 3' "three points"
check "$work/s.json" 'all(p["counters"][e]["mean"] > 0 for res in r["results"] for p in res["phases"] if p["name"] == "write_0" for e in ("cycles", "instructions"))' \
	"every point counts cycles and instructions in write_0"
check "$work/s.json" 'all([e["group"] for e in res["events"]] == [0, 1, 2] for res in r["results"])' \
	"every point split one per group"

finish
