#!/bin/sh
# SPDX-License-Identifier: MIT
# memtlb probe: a live smoke run (timings are printed, never judged) and
# bad input.
. "$(dirname "$0")/lib.sh"

run probe --max 2m
expect_status 0 "probe --max 2m"
expect_grep '^ +16.0 KiB +4 +[0-9.]+ +[0-9.]+' "$out" "first row, 16 KiB = 4 pages"
expect_grep '^ +2.0 MiB +512 ' "$out" "last row, 2 MiB"
expect_grep '^(L1 dTLB reach about|levels: none)' "$out" "levels line"
expect_grep '^cpuid' "$out" "cpuid line"
echo "live probe:"
sed 's/^/  /' "$out"

run probe --max 1m --format csv
expect_status 0 "probe --format csv"
expect_grep '^size,pages,ns_per_access,packed_ns_per_access,level$' "$out" "csv header"
expect_grep '^16384,4,' "$out" "csv first row"

# probe_json FILE WHAT MAX: a probe's JSON document (memtlb-probe(1)):
# its header, a system object, the config, sorted points from 16 KiB
# (4 pages) to MAX, and levels that point into them
probe_json() {
	if ! command -v python3 >/dev/null 2>&1; then
		echo "$2: JSON not checked: no python3"
		return
	fi
	if python3 - "$1" "$3" <<'PY' 2>"$work/py.err"; then ok; else
import json, sys
d = json.load(open(sys.argv[1]))
assert d["memtlb"]["command"] == "probe" and d["memtlb"]["schema"] == 1, d["memtlb"]
assert isinstance(d["memtlb"]["version"], str)
assert isinstance(d["system"], dict) and "kernel" in d["system"] and "tlb" in d["system"]
assert d["config"]["pages"] == "base" and d["config"]["max"] == int(sys.argv[2]), d["config"]
pts = d["points"]
assert pts[0]["size"] == 16384 and pts[0]["pages"] == 4, pts[0]
assert pts[-1]["size"] == int(sys.argv[2]), pts[-1]
assert [p["size"] for p in pts] == sorted(p["size"] for p in pts)
for p in pts:
    assert p["ns_per_access"] > 0 and p["packed_ns_per_access"] > 0, p
    assert 3 <= p["reps"] <= 40 and 3 <= p["packed_reps"] <= 40, p
    assert p["level"] in (None, "tlb", "cache"), p
assert isinstance(d["levels"], list)
for lv in d["levels"]:
    assert lv["kind"] in ("tlb", "cache"), lv
    assert 0 <= lv["before"] < lv["after"] < len(pts), lv
    assert lv["reach"] == pts[lv["before"]]["size"], lv
    assert pts[lv["after"]]["level"] == lv["kind"], lv
assert d["mapping"]["bytes"] >= int(sys.argv[2])
PY
		fail "$2: not a probe document: $(tail -1 "$work/py.err")"
	fi
}

run probe --max 1m --format json
expect_status 0 "probe --format json"
probe_json "$out" "probe --format json" 1048576
# -o - is the JSON on standard output, once, instead of the table
run probe --max 1m -o -
expect_status 0 "probe -o -"
probe_json "$out" "probe -o -: one JSON document on stdout" 1048576

# -o: the JSON as well, written atomically (mode 0600, no temp file left),
# whatever --format prints
run probe --max 1m --format csv -o "$work/probe.json"
expect_status 0 "probe -o"
expect_grep '^size,pages,ns_per_access,packed_ns_per_access,level$' "$out" "-o: csv on stdout"
probe_json "$work/probe.json" "probe -o" 1048576
[ "$(stat -c %a "$work/probe.json" 2>/dev/null)" = 600 ] && ok || fail "-o: mode is not 0600"
ls -A "$work" | grep -q '^\.memtlb-' && fail "-o: a temp file left behind" || ok
run probe --max 64k -o "$work/probe.json"
expect_status 0 "probe -o again"
expect_grep '^ +16.0 KiB +4 ' "$out" "-o: the table on stdout"
probe_json "$work/probe.json" "-o over an existing file" 65536

if [ "$(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)" != "always madvise [never]" ]
then
	run probe --pages thp --max 16m
	expect_status 0 "probe --pages thp"
	expect_grep 'one line per 2.0 MiB THP page' "$out" "thp title"
fi

# --verbose: both measurements' repetitions (the control's used to overwrite
# the probe's); each is 3 to 40
run probe --max 64k -v
expect_status 0 "probe -v"
expect_grep '^memtlb: probe: 4 pages: [0-9.]+ ns \(([3-9]|[1-3][0-9]|40) reps\), packed [0-9.]+ ns \(([3-9]|[1-3][0-9]|40) reps\)$' \
	"$err" "verbose: both repetition counts"

pool2m=/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
if [ -r "$pool2m" ] && [ "$(cat "$pool2m")" = 0 ]; then
	run probe --pages hugetlb --max 8m
	expect_status 1 "hugetlb without a pool"
	expect_grep '^hint: reserve a pool of 2 MiB pages' "$err" "hugetlb hint"
fi

# hugetlb asks for 2 MiB pages by size flag, not the default size (which
# may be 1 GiB); pool or not, the mmap call shows it
if command -v strace >/dev/null 2>&1; then
	strace -f -e trace=mmap -o "$work/trace" "$MEMTLB" probe --pages hugetlb --max 8m \
		>/dev/null 2>&1
	expect_grep 'MAP_HUGETLB\|(MAP_HUGE_2MB|21<<MAP_HUGE_SHIFT)' "$work/trace" "hugetlb: MAP_HUGE_2MB"
else
	echo "hugetlb size flag: skipped: no strace"
fi

usage_case "bad pages" probe --pages giant
usage_case "max too small" probe --max 8k
usage_case "max not a size" probe --max 1.3k
usage_case "max above MemAvailable" probe --max 4t
usage_case "knee ratio" probe --knee-ratio 0.5
usage_case "bad format" probe --format xml
usage_case "-o in a missing directory" probe --max 64k -o /nonexistent-dir/p.json
usage_case "unknown option" probe --bogus
usage_case "argument" probe extra

finish
