#!/bin/sh
# SPDX-License-Identifier: MIT
# Translation analysis on synthetic curves (issue: counts against time, and
# knees explained by the TLB's reach): a real sweep report's read_0 times
# rewritten into a curve with a known step, the system's TLBs set to known
# cpuid levels, then `sweep --from` explains the knee, and the fits find the
# slope that was put in. No timing decides anything here.
. "$(dirname "$0")/lib.sh"

zen3='[{"level": 1, "type": "data", "pages": "4K", "entries": 64, "ways": 0},
       {"level": 2, "type": "data", "pages": "4K", "entries": 2048, "ways": 8},
       {"level": 2, "type": "instruction", "pages": "4K", "entries": 512, "ways": 4}]'
M=1048576

# A step 8m -> 16m with an 8 MiB L2 reach: explained by the L2 dTLB.
make_sweep "$work/l2.json" $((16 * M)) "$zen3"
run sweep --from "$work/l2.json" --phase read_0
expect_status 0 "sweep --from, L2 step"
tr '\n' ' ' <"$out" | sed 's/  */ /g' >"$work/joined"
expect_grep 'knee: 8m -> 16m, ns/block x3\.0: the region passes the L2 dTLB reach, 8\.0 MiB \(2048 x 4\.0 KiB, cpuid\)' \
	"$work/joined" "knee explained by the L2 dTLB reach"

# The same in the JSON: knees[] with the level, fits[] with the slope.
run sweep --from "$work/l2.json" --phase read_0 --format json
expect_status 0 "sweep --from, JSON"
if python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
k, = d["knees"]
assert (k["phase"], k["from_bytes"], k["to_bytes"], k["page_size"]) == ("read_0", 8 << 20, 16 << 20, 4096), k
assert k["level"]["name"] == "L2 dTLB" and k["level"]["reach_bytes"] == 8 << 20, k
f = [f for f in d["fits"] if f["phase"] == "write_0" and f["x"] == "minor-faults"][0]
assert abs(f["slope_ns"] - 850) < 1e-6 and f["n"] == 7 and f["r2"] > 0.999999, f' "$out"
then ok; else fail "JSON knees and fits"; fi

# The same step with no TLB sizes from cpuid: said, not guessed.
make_sweep "$work/none.json" $((16 * M)) '[]'
run sweep --from "$work/none.json" --phase read_0
tr '\n' ' ' <"$out" | sed 's/  */ /g' >"$work/joined"
expect_grep 'knee: 8m -> 16m, ns/block x3\.0; the CPU reports no TLB sizes' "$work/joined" \
	"no cpuid levels: no explanation made up"

# A step no level explains: 2m -> 4m with L1 256 KiB and L2 8 MiB.
make_sweep "$work/other.json" $((4 * M)) "$zen3"
run sweep --from "$work/other.json" --phase read_0
tr '\n' ' ' <"$out" | sed 's/  */ /g' >"$work/joined"
expect_grep 'knee: 2m -> 4m, ns/block x3\.0; no TLB level of 4\.0 KiB pages that cpuid reports has its reach here' \
	"$work/joined" "a knee no level explains"

# The fit of write_0 on minor-faults recovers 850 ns per fault.
run sweep --from "$work/l2.json" --phase write_0
tr '\n' ' ' <"$out" | sed 's/  */ /g' >"$work/joined"
expect_grep 'fit: write_0 time = 850\.0 ns x minor-faults \+ 20\.00 us, r2 1\.000, 7 points' \
	"$work/joined" "fit of write_0 on minor-faults"
run report "$work/l2.json" --format lkp
if awk -F': ' '$1 == "fit.write_0.minor-faults.slope_ns" { ok = ($2 > 849.999 && $2 < 850.001) }
	END { exit !ok }' "$out"; then ok; else fail "lkp: the fit's slope is 850"; fi
expect_grep '^read_0\.knee1\.from_bytes: 8388608$' "$out" "lkp: the knee"
# Live: the region's page tables (16 MiB of 4 KiB pages: 4096 + 8 + 1
# entries), and the page scan's verdict.
run stat --region 16m -i 1 --passes 1 --backing anon --pages base -o "$work/base.json"
expect_status 0 "stat --pages base"
tr '\n' ' ' <"$out" | sed 's/  */ /g' >"$work/joined"
expect_grep 'pressure: page tables 32\.1 KiB for 4\.0 KiB pages' "$work/joined" "page-table bytes"
expect_grep 'pages: 16\.0 MiB in 4 KiB base pages \(100\.0%\) \([^)]*\), as requested' \
	"$work/joined" "base pages as requested"
if python3 -c 'import json, sys
m = json.load(open(sys.argv[1]))["results"][0]["mapping"]
sys.exit(not (m["as_requested"] is True and m["pages"]["base"] == 16 << 20))' "$work/base.json"
then ok; else fail "JSON: as requested"; fi
# A mixed mapping (THP that covered part of the region): each part's own
# page tables and reach, the base pages' not left out.
python3 - "$work/base.json" "$work/mixed.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
p = d["results"][0]["mapping"]["pages"]
p.update(huge=6 << 20, large=0, base=10 << 20, absent=0)
p.pop("folios", None)
p.pop("folio_source", None)
d["results"][0]["mapping"]["as_requested"] = None
json.dump(d, open(sys.argv[2], "w"))
PY
run stat --from "$work/mixed.json"
expect_status 0 "stat --from, a mixed mapping"
tr '\n' ' ' <"$out" | sed 's/  */ /g' >"$work/joined"
expect_grep 'pressure: a mixed mapping, 10\.0 MiB in base pages and 6\.0 MiB in huge pages; 10\.0 MiB in 4\.0 KiB pages: page tables 20\.[0-9] KiB for 4\.0 KiB pages' \
	"$work/joined" "mixed: the base pages' part"
expect_grep '; 6\.0 MiB in 2\.0 MiB pages: page tables [0-9.]+ [KMG]?i?B for 2\.0 MiB pages' \
	"$work/joined" "mixed: the huge pages' part"
# Fault-around as measured: a file read first maps several pages per fault.
run stat --region 16m -i 1 --passes 1 --backing file --read-first
expect_status 0 "stat of a file read first"
tr '\n' ' ' <"$out" | sed 's/  */ /g' >"$work/joined"
expect_grep 'pages mapped per fault: read_first [0-9]+\.[0-9] \([0-9]+ faults\); fault_around_bytes ' \
	"$work/joined" "pages mapped per fault"

# THP on shmem where the kernel gives shmem no huge pages: marked, in the
# table, the JSON and compare.
if grep -q '\[never\]' /sys/kernel/mm/transparent_hugepage/shmem_enabled 2>/dev/null; then
	run stat --region 16m -i 1 --passes 1 --pages thp --backing shared -o "$work/thp.json"
	expect_status 0 "stat --pages thp --backing shared"
	expect_grep '^PAGE SIZE NOT AS REQUESTED: --pages thp got base pages for 16384 KiB' "$out" \
		"table: not as requested"
	if python3 -c 'import json, sys
m = json.load(open(sys.argv[1]))["results"][0]["mapping"]
sys.exit(not (m["as_requested"] is False and m["page_verdict"].startswith("not as requested")))' \
		"$work/thp.json"; then ok; else fail "JSON: not as requested"; fi
	run compare "$work/base.json" "$work/thp.json"
	expect_grep 'page size not as requested: --pages thp got base pages' "$err" \
		"compare: not as requested"
else
	echo "shmem THP is not off here: the not-as-requested case is not made" >&2
fi
finish
