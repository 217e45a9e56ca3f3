#!/bin/sh
# SPDX-License-Identifier: MIT
# memtlb probe: a live smoke run (timings are printed, never judged) and
# bad input.
. "$(dirname "$0")/lib.sh"

run probe --max 2m
expect_status 0 "probe --max 2m"
expect_grep '^ +4 +16.0 KiB +[0-9.]+ +[0-9.]+ +[-+][0-9.]+ +[0-9.]+ +[0-9.]+' "$out" \
	"first row, 4 pages = 16 KiB, base, huge, translation, ci, packed"
expect_grep '^ +512 +2.0 MiB ' "$out" "last row, 512 pages"
expect_grep '^(L1 dTLB|L2 TLB|levels: none)' "$out" "levels line"
expect_grep '^cpuid' "$out" "cpuid line"
awk 'length > 80 { bad = 1 } END { exit bad }' "$out" && ok || fail "table wider than 80 columns"
echo "live probe:"
sed 's/^/  /' "$out"

run probe --max 1m --format csv
expect_status 0 "probe --format csv"
expect_grep '^pages,bytes,base_ns,huge_ns,translation_ns,ci95_ns,packed_ns,level$' "$out" \
	"csv header"
expect_grep '^4,16384,' "$out" "csv first row"

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
assert d["memtlb"]["command"] == "probe" and d["memtlb"]["schema"] == 3, d["memtlb"]
assert isinstance(d["memtlb"]["version"], str)
assert isinstance(d["system"], dict) and "kernel" in d["system"] and "tlb" in d["system"]
c = d["config"]
assert c["pages"] == "base" and c["max"] == int(sys.argv[2]), c
assert c["page_size"] == 4096 and c["huge_page_size"] == 2097152 and c["reps"] >= 2, c
m = d["mapping"]
assert m["bytes"] == int(sys.argv[2]) and m["refused"] >= 0, m
assert (m["refused_why"] is None) == (m["refused"] == 0), m
pr = d["probe"]
pts = pr["points"]
want = {"pages", "bytes", "base_ns", "huge_ns", "translation_ns", "ci95_ns",
        "packed_ns", "reps"}
for p in pts:
    assert set(p) == want, p
    assert p["bytes"] == p["pages"] * 4096, p
    assert p["base_ns"] > 0 and p["huge_ns"] > 0 and p["packed_ns"] > 0, p
    # base - huge, or base - packed where 2 MiB pages save no TLB entries
    ctl = p["packed_ns"] if d["probe"]["control"] == "packed" else p["huge_ns"]
    assert abs(p["translation_ns"] - (p["base_ns"] - ctl)) < 1e-6, p
    assert p["ci95_ns"] >= 0, p
if m["refused"] == 0:
    assert pts[0]["pages"] == 4 and pts[-1]["bytes"] == int(sys.argv[2]), pts
assert [p["pages"] for p in pts] == sorted(p["pages"] for p in pts)
lwant = {"name", "entries_min", "entries_max", "page_size", "reach_bytes",
         "confidence", "from_ns", "to_ns"}
sizes = {p["pages"] for p in pts}
for lv in pr["levels"]:
    assert set(lv) == lwant, lv
    assert lv["entries_min"] < lv["entries_max"], lv
    assert lv["entries_min"] in sizes and lv["entries_max"] in sizes, lv
    assert lv["reach_bytes"] == lv["entries_min"] * lv["page_size"], lv
    assert 0.95 <= lv["confidence"] <= 1, lv
assert pr["unvalidated"] >= 0
assert pr["huge_slow_at"] is None or 4 <= pr["huge_slow_at"] <= 256, pr["huge_slow_at"]
assert pr["control"] == ("huge" if pr["huge_slow_at"] is None else "packed"), pr
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

# -o: the JSON as well, written atomically (mode 0666 less the umask, as
# perf writes it; no temp file left),
# whatever --format prints
run probe --max 1m --format csv -o "$work/probe.json"
expect_status 0 "probe -o"
expect_grep '^pages,bytes,base_ns' "$out" "-o: csv on stdout"
probe_json "$work/probe.json" "probe -o" 1048576
want=$(printf '%o' $((0666 & ~0$(umask))))
[ "$(stat -c %a "$work/probe.json" 2>/dev/null)" = "$want" ] && ok || fail "-o: mode is not $want"
ls -A "$work" | grep -q '^\.memtlb-' && fail "-o: a temp file left behind" || ok
run probe --max 64k -o "$work/probe.json"
expect_status 0 "probe -o again"
expect_grep '^ +4 +16.0 KiB ' "$out" "-o: the table on stdout"
probe_json "$work/probe.json" "-o over an existing file" 65536

# --from: the saved probe printed again, byte for byte, as its run printed
# it (the table with its cpuid lines from the saved system, the CSV, the
# JSON itself); nothing measured, and nothing else asked of it
# reprinted JSON WHAT: $out (the run's table) and the JSON again from --from
reprinted() {
	cp "$out" "$work/run.txt"
	run probe --from "$1"
	expect_status 0 "probe --from: $2"
	cmp -s "$out" "$work/run.txt" && ok || fail "--from: $2: the table is not the run's"
	run probe --from "$1" --format json
	cmp -s "$out" "$1" && ok || fail "--from: $2: the JSON is not the file"
}
reprinted "$work/probe.json" "a probe"
run probe --from "$work/probe.json" --format csv
expect_grep '^pages,bytes,base_ns' "$out" "--from: csv"
# a saved file is untrusted: its strings reach no terminal as escapes, and
# a level is one of the probe's names or none
python3 - "$work/probe.json" "$work/hostile.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["mapping"]["refused"] = 1
d["mapping"]["refused_why"] = "\x1b[31mred\x1b]0;title\x07"
for lv in d["probe"]["levels"]:
    lv["name"] = "\x1b[2J"
json.dump(d, open(sys.argv[2], "w"))
PY
run probe --from "$work/hostile.json"
expect_status 0 "--from a hostile file"
if tr -d '\n' <"$out" | grep -q "$(printf '\033')"; then
	fail "--from: an escape from the file reached the output"
else
	ok
fi
usage_case "--from with --max" probe --from "$work/probe.json" --max 4m
usage_case "--from with -o" probe --from "$work/probe.json" -o "$work/again.json"
usage_case "--from a stat report" probe --from "$MEMTLB_TEST_DATA/compare/base.json"
usage_case "--from a missing file" probe --from "$work/none.json"

if [ "$(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)" != "always madvise [never]" ]
then
	run probe --pages thp --max 4m
	expect_status 0 "probe --pages thp"
	# base - huge, or base - packed where the 2 MiB pages save no TLB entries
	expect_grep '4.0 KiB pages - (2 MiB THP pages|the packed control)' "$out" "thp title"
	if grep -q 'the packed control' "$out"; then
		expect_grep '2 MiB THP pages save no TLB entries here' "$out" "thp title: why"
		expect_grep 'so the translation is base - packed$' "$out" "the note says so"
	fi
fi

# --coalesce: the layouts by pagemap, the rows around each level, a
# verdict (or why not measured), all in the JSON and reprinted by --from;
# the structure is judged, never the timings
run probe --max 1m --coalesce -o "$work/coalesce.json"
expect_status 0 "probe --coalesce"
expect_grep '^coalescing: (L1 dTLB|L2 TLB) reach x[0-9.]+|^coalescing: none seen|^coalescing: not measured: ' \
	"$out" "coalescing: a verdict or why not"
if grep -q '^coalescing: not measured' "$out"; then
	echo "coalescing not measured here: $(grep '^coalescing: not' "$out")"
else
	expect_grep '^  aligned 4-page runs contiguous: scattered [0-9.]+%, contiguous [0-9.]+%$' \
		"$out" "coalescing: the 4-page layout"
	expect_grep '^  aligned 16-page runs contiguous: ' "$out" "coalescing: the 16-page layout"
	expect_grep '^level +pages +size +scattered +contiguous +s - c ns +\+-95%$' "$out" \
		"coalescing: the header"
	expect_grep '^(L1 dTLB|L2 TLB) +[0-9]+ +[0-9.]+ [KMG]iB +[-+][0-9.]+ +[-+][0-9.]+ +[-+][0-9.]+ +[0-9.]+$' \
		"$out" "coalescing: a row"
	expect_grep '^(L1 dTLB|L2 TLB) reach, pages: scattered ' "$out" "coalescing: the reaches"
fi
awk 'length > 80 { bad = 1 } END { exit bad }' "$out" && ok || fail "--coalesce: wider than 80"
if python3 - "$work/coalesce.json" <<'PY' 2>"$work/py.err"; then ok; else
import json, sys
c = json.load(open(sys.argv[1]))["probe"]["coalesce"]
assert set(c) == {"absent_why", "min_ns", "scattered_pte_mapped", "contiguous_pte_mapped",
                  "runs", "points", "levels"}, c.keys()
for r in c["runs"]:
    assert set(r) == {"pages", "scattered_share", "contiguous_share"}, r
    assert r["pages"] in (4, 16) and 0 <= r["scattered_share"] <= 1, r
if c["absent_why"] is None:
    assert c["points"] and c["levels"] and len(c["runs"]) == 2, c
for p in c["points"]:
    assert set(p) == {"level", "pages", "bytes", "scattered_ns", "scattered_ci95_ns",
                      "contiguous_ns", "contiguous_ci95_ns", "diff_ns", "diff_ci95_ns",
                      "reps"}, p
    assert p["level"] in ("L1 dTLB", "L2 TLB") and p["bytes"] == p["pages"] * 4096, p
for lv in c["levels"]:
    assert lv["kind"] in ("none", "cheaper", "reach"), lv
    assert ("apart_at" in lv) == ("apart_ns" in lv) == (lv["kind"] != "none"), lv
PY
	fail "--coalesce: not the documented keys: $(tail -1 "$work/py.err")"
fi
reprinted "$work/coalesce.json" "--coalesce"
# without --coalesce, no coalesce object: nothing was asked
python3 -c 'import json,sys; sys.exit("coalesce" in json.load(open(sys.argv[1]))["probe"])' \
	"$work/probe.json" && ok || fail "coalesce written though not asked"
usage_case "--from with --coalesce" probe --from "$work/coalesce.json" --coalesce

# --verbose: both variants, their difference and its interval, per size
run probe --max 64k -v
expect_status 0 "probe -v"
expect_grep '^memtlb: probe: 4 pages: base [0-9.]+ ns, huge [0-9.]+ ns, translation [-+][0-9.]+ \+- [0-9.]+ ns \([0-9]+ reps\), packed [0-9.]+ ns$' \
	"$err" "verbose: both variants"

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
