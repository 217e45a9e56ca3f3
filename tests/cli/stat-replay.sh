#!/bin/sh
# SPDX-License-Identifier: MIT
# The hardware paths through the replay backend: scaling and running share,
# miss ratio, not supported vs not counted, absent derived metrics. The
# backend refuses a read while the counters run (EBUSY): every stat here also
# checks that the phase boundaries read outside the counted windows.
. "$(dirname "$0")/lib.sh"

replay="$MEMTLB_TEST_DATA/replay/tlb.txt"
events=cycles,instructions,dTLB-loads,dTLB-load-misses,minor-faults,major-faults

MEMTLB_BACKEND=replay:$replay run stat --region 1m -i 2 --passes 1 -e "$events" -v
expect_status 0 "replay table"
expect_grep '^read_0 .* 524,288 \(50\.0%\) .* 1\.00%' "$out" "dTLB-loads scaled x2 with running share, miss ratio 1.00%"
expect_grep '^write_0 .* 2,000,000 +not counted' "$out" "cycles counted, instructions not counted"
expect_grep '^major-faults: not supported: not permitted' "$out" "reason with --verbose"
if grep -q 'faults/block' "$out"; then
	fail "faults/block shown although major-faults was not counted"
else ok; fi

MEMTLB_BACKEND=replay:$replay run stat --region 1m -i 2 --passes 1 -e "$events" --format json
expect_status 0 "replay json"
python3 - "$out" <<'PY' || fail "replay json values"
import json, sys
rep = json.load(open(sys.argv[1]))
assert rep["config"]["backend"] == "replay"
ph = {p["name"]: p for p in rep["results"][0]["phases"]}
c = ph["read_0"]["counters"]
assert c["dTLB-loads"]["mean"] == 524288 and abs(c["dTLB-loads"]["running"] - 0.5) < 1e-9
# not counted in any iteration: each sample null, no summary
assert c["instructions"] == {"supported": True, "counted": False, "samples": [None, None]}, c["instructions"]
assert c["major-faults"]["supported"] is False and c["major-faults"]["error"] == "EACCES"
d = ph["read_0"]["derived"]
assert abs(d["dtlb_miss_ratio"] - 0.01) < 1e-4, d
assert "faults_per_block" not in d, d
assert abs(ph["write_0"]["derived"]["misses_per_block"] - 60 / 256) < 1e-9
PY
ok

# Without major-faults in the set, faults/block is minor-faults per block.
MEMTLB_BACKEND=replay:$replay run stat --region 1m -i 2 --passes 1 -e minor-faults
expect_grep '^write_0 .* 256 +1\.000$' "$out" "faults/block from minor-faults alone"

# Events missing from the replay file are not supported, never 0: named once
# under the table, a column of them with --wide.
MEMTLB_BACKEND=replay:$replay run stat --region 1m -i 1 --passes 1 -e minor-faults,task-clock
expect_grep '^not supported here: task-clock \(' "$out" "event absent from replay file"
if grep -q '^write_0 .*not supported' "$out"; then
	fail "a column of not supported in the default table"
else ok; fi
MEMTLB_BACKEND=replay:$replay run stat --region 1m -i 1 --passes 1 -e minor-faults,task-clock --wide
expect_grep '^write_0 .* not supported' "$out" "--wide: the column is back"

# Several iterations and passes: no read of any phase fell inside a window.
MEMTLB_BACKEND=replay:$replay run stat --region 1m -i 3 --passes 2 -e minor-faults,cycles --format csv
expect_status 0 "replay: reads outside the counted windows"
expect_grep '^0,munmap,cycles,count,' "$out" "the last phase read"

MEMTLB_BACKEND=replay:/nonexistent run stat --region 1m -i 1
expect_status 2 "missing replay file"
expect_one_error_line "missing replay file"

# A malformed replay file is bad input, found before anything runs.
MEMTLB_BACKEND=replay:$MEMTLB_TEST_DATA/replay/bad-delta.txt run stat --region 1m -i 1
expect_status 2 "malformed replay file"
expect_grep 'not a valid replay file' "$err" "malformed replay file named"

# --from: a saved report printed again, byte for byte what its run printed,
# in every format; nothing measured (no backend, no counters).
for fmt in table csv json; do
	MEMTLB_BACKEND=replay:$replay "$MEMTLB" stat --region 1m -i 2 --passes 1 -e "$events" \
		--format $fmt -o "$work/saved.json" >"$work/live.$fmt" 2>/dev/null
	MEMTLB_BACKEND=bogus run stat --from "$work/saved.json" --format $fmt
	expect_status 0 "stat --from, $fmt"
	if cmp -s "$out" "$work/live.$fmt"; then ok; else
		fail "stat --from, $fmt: not what the run printed"
		diff "$work/live.$fmt" "$out" | head -n 10 >&2
	fi
done
MEMTLB_BACKEND=replay:$replay "$MEMTLB" stat --region 1m -i 2 --passes 1 -e "$events" -v \
	-o "$work/saved.json" >"$work/live.v" 2>/dev/null
run stat --from "$work/saved.json" -v
if cmp -s "$out" "$work/live.v"; then ok; else fail "stat --from -v: not what the run printed"; fi
usage_case "stat --from with a workload option" stat --from "$work/saved.json" --region 2m
usage_case "stat --from a sweep" stat --from "$MEMTLB_TEST_DATA/sweep-1m-64m.json"
expect_grep 'memtlb report' "$err" "stat --from a sweep: names the command that prints it"
usage_case "stat --from a missing file" stat --from "$work/none.json"

# flush and run --from, the same: their outputs (run's on stderr) again.
MEMTLB_BACKEND=replay:$replay "$MEMTLB" flush --pages 1..4:x2 --ops 10 -i 2 \
	-o "$work/flush.json" >"$work/flush.live" 2>/dev/null
run flush --from "$work/flush.json"
if [ "$status" -eq 0 ] && cmp -s "$out" "$work/flush.live"; then ok; else
	fail "flush --from: not what the run printed"; fi
MEMTLB_BACKEND=replay:$replay "$MEMTLB" run -r 3 -e minor-faults -o "$work/run.json" -- true \
	2>"$work/run.live"
run run --from "$work/run.json"
if [ "$status" -eq 0 ] && cmp -s "$err" "$work/run.live"; then ok; else
	fail "run --from: not what the run printed"; fi
usage_case "run --from with a command" run --from "$work/run.json" -- true
usage_case "flush --from a run's report" flush --from "$work/run.json"

MEMTLB_BACKEND=bogus run stat --region 1m -i 1
expect_status 2 "unknown backend"

finish
