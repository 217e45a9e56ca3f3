#!/bin/sh
# SPDX-License-Identifier: MIT
# --pages mthp:SIZE: one mTHP size alone for the run (its control madvise,
# every other size's never, each put back after every iteration), proven
# by the folio scan, for anonymous memory and shmem; restored by the next
# memtlb when this one is killed; a size the kernel does not offer is bad
# input naming those it does. The controls are compared before and after.
. "$(dirname "$0")/lib.sh"

thp=/sys/kernel/mm/transparent_hugepage
if [ "$(id -u)" -ne 0 ]; then
	echo "needs root to set the mTHP sizes: skipped"
	exit 77
fi
if [ ! -w "$thp/hugepages-64kB/enabled" ] || [ ! -w "$thp/hugepages-16kB/shmem_enabled" ]
then
	echo "no writable 64 kB anon or 16 kB shmem mTHP size on this kernel: skipped"
	exit 77
fi
if ! head -c 8 /proc/kpageflags >/dev/null 2>&1; then
	echo "/proc/kpageflags unreadable: skipped"
	exit 77
fi
controls() { grep -H . "$thp"/hugepages-*/enabled "$thp"/hugepages-*/shmem_enabled; }
controls >"$work/before"
# Whatever this test does, the machine ends as it began.
trap 'while IFS=: read -r f v; do
	echo "$v" | sed "s/.*\[\(.*\)\].*/\1/" >"$f"; done <"$work/before"
	rm -rf "$work"' EXIT INT TERM

# share JSON SIZE: the region's share in folios of SIZE bytes.
share() {
	python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))["results"][0]["mapping"]
print(sum(f["share"] for f in r["pages"].get("folios", []) if f["size"] == int(sys.argv[2])),
      r["as_requested"])' "$1" "$2"
}

run stat --pages mthp:64k --backing anon --region 8m -i 2 --passes 1 -o "$work/anon.json"
expect_status 0 "mthp:64k anon"
expect_grep '^pages mthp:64k, access seq' "$out" "the header names the size"
expect_grep 'in 64 KiB folios \(100\.0%\).*as requested' "$out" "anon: proven 64 KiB folios"
[ "$(share "$work/anon.json" 65536)" = "1.0 True" ] && ok ||
	fail "anon: the JSON's share of 64 KiB folios: $(share "$work/anon.json" 65536)"
controls | cmp -s - "$work/before" && ok || fail "anon: the mTHP controls not restored"
# the kernel's own count: a fault per 64 KiB of the region in each iteration
python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))["results"][0]["mapping"]["folio_stats"]
assert s["size"] == 65536 and s["iterations"] >= 2, s
assert s["alloc"] + s["fallback"] == s["iterations"] * 128 and s["fallback"] == 0, s' \
	"$work/anon.json" && ok || fail "anon: the per-size stats not a fault per folio"
expect_grep '^folio stats: [0-9]+ faults got 64 KiB folios, 0 fell' "$out" "anon: the stats line"

run stat --pages mthp:16k --region 8m -i 2 --passes 1 -o "$work/shmem.json"
expect_status 0 "mthp:16k shared (shmem)"
expect_grep 'in 16 KiB folios \(100\.0%\).*as requested' "$out" "shmem: proven 16 KiB folios"
controls | cmp -s - "$work/before" && ok || fail "shmem: the mTHP controls not restored"

# read back: the size is the report's huge_page_size
run stat --from "$work/anon.json" --format json
cmp -s "$out" "$work/anon.json" && ok || fail "mthp: not read back as written"

# a sweep over sizes, interleaved: each point's size set for its iterations,
# and the page-size matrix: a row per size, faults per block exact
run sweep --region 4m --vary pages=base,mthp:16k,mthp:64k -i 3 --passes 1 --backing anon \
	-o "$work/sweep.json"
expect_status 0 "sweep --vary pages=base,mthp:16k,mthp:64k"
cp "$out" "$work/sweep.txt"
python3 - "$work/sweep.json" <<'PY' && ok || fail "sweep: a point not proven at its size"
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    size = {"base": 4096, "mthp:16k": 16384, "mthp:64k": 65536}[r["params"]["pages"]]
    pages = r["mapping"]["pages"]
    got = pages["base"] / 4194304 if size == 4096 else \
        sum(f["share"] for f in pages["folios"] if f["size"] == size)
    assert r["mapping"]["as_requested"] and got == 1.0, (r["params"], got)
PY
controls | cmp -s - "$work/before" && ok || fail "sweep: the mTHP controls not restored"
expect_grep '^page sizes: region 4m' "$work/sweep.txt" "the matrix's title"
expect_grep '^mthp:64k +100% .* 0\.062 ' "$work/sweep.txt" "the matrix's 64k row"
expect_grep '^verdict: first touch cheapest with ' "$work/sweep.txt" "the first-touch verdict"
expect_grep '^verdict: steady access' "$work/sweep.txt" "the steady verdict"
python3 - "$work/sweep.json" <<'PY' && ok || fail "sweep: the JSON matrix"
import json, sys
m = json.load(open(sys.argv[1]))["matrix"]
assert len(m) == 1 and m[0]["region"] == 4194304, m
rows = {r["pages"]: r for r in m[0]["rows"]}
assert [r["pages"] for r in m[0]["rows"]] == ["base", "mthp:16k", "mthp:64k"], rows
for pages, faults in (("base", 1.0), ("mthp:16k", 0.25), ("mthp:64k", 0.0625)):
    r = rows[pages]
    assert r["proven"] and r["share"] == 1.0, r
    assert abs(r["faults_per_block"] - faults) < 1e-9, (pages, r["faults_per_block"])
    assert r["first_touch_ns_per_fault"] > 0 and r["steady_ns"] > 0, r
assert "vs_base_ns" not in rows["base"] and "vs_base_ns" in rows["mthp:64k"], rows
assert m[0]["first_touch_best"] in rows and m[0]["steady_best"] in rows, m[0]
PY
# the first-touch roofline: its table and lines, the calibration in the
# JSON, and each row's parts summing to its ns per fault (arithmetic only:
# no timing decides a pass)
expect_grep '^first touch per fault: zeroing [(]' "$work/sweep.txt" "the roofline's title"
expect_grep '^clear bandwidth over ' "$work/sweep.txt" "the methods' bandwidths"
expect_grep '^entry floor: ' "$work/sweep.txt" "the entry floor's line"
python3 - "$work/sweep.json" "$work/sweep.txt" <<'PY' && ok || fail "sweep: the roofline's parts"
import json, re, sys
d = json.load(open(sys.argv[1]))
rf = d["roofline"]
# a fault a touch (a stray one of memtlb's own let through, 0.1% at most)
assert 0 < rf["floor_touches"] <= rf["floor_faults"] <= rf["floor_touches"] * 1.001, rf
assert rf["floor_ns_per_fault"] > 0 and rf["repetitions"] >= 3, rf
methods = [c["method"] for c in rf["clear"]]
assert "rep stosb" in methods and rf["ceiling"] in methods, rf
assert max(rf["clear"], key=lambda c: c["gb_per_s"])["method"] == rf["ceiling"], rf
assert {c["chunk_bytes"] for c in rf["folio_clear"]} == {4096, 16384, 65536}, rf
text = open(sys.argv[2]).read().split("first touch per fault:")[1]
for r in d["matrix"][0]["rows"]:
    s, total = r["first_touch_split"], r["first_touch_ns_per_fault"]
    assert abs(s["zero_ns"] * s["clear_gb_per_s"] - r["folio_size"]) < 1e-6 * r["folio_size"], r
    assert abs(s["floor_ns"] - rf["floor_ns_per_fault"]) < 1e-9, r
    if s["inconsistent"]:
        assert "rest_ns" not in s and s["zero_ns"] + s["floor_ns"] > 1.1 * total, r
    else:
        assert abs(s["zero_ns"] + s["floor_ns"] + s["rest_ns"] - total) < 1e-6 * total, r
    # the table's row: the same parts, one decimal each
    m = re.search(r"^%s +([0-9.]+) +([0-9.]+) +([0-9.]+) +(\S+) " % re.escape(r["pages"]),
                  text, re.M)
    assert m, r["pages"]
    if m.group(4) != "incons.":
        assert abs(sum(float(v) for v in m.groups()) - 2 * float(m.group(1))) < 0.2, m.groups()
PY
# read back: the same matrix, recomputed from the results
run sweep --from "$work/sweep.json"
cmp -s "$out" "$work/sweep.txt" && ok || fail "sweep --from: not the run's table and matrix"

# memtlb report: the same matrix under its own heading, in HTML too
run report "$work/sweep.json"
expect_grep '^== Page sizes' "$out" "report: the matrix's heading"
expect_grep '^mthp:64k +100% ' "$out" "report: the matrix's 64k row"
if command -v xmllint >/dev/null 2>&1; then
	run report "$work/sweep.json" --format html
	xmllint --noout "$out" 2>/dev/null && ok || fail "report html with a matrix: not XML"
fi

# pages=all: base pages and every size offered for anonymous memory
offered=$(ls -d "$thp"/hugepages-*kB | while read -r d; do
	[ -e "$d/enabled" ] && echo x; done | wc -l)
run sweep --region 2m --vary pages=all -i 2 --passes 1 --backing anon -o "$work/all.json"
expect_status 0 "sweep --vary pages=all"
python3 - "$work/all.json" "$offered" <<'PY' && ok || fail "pages=all: not base and every size"
import json, sys
rows = json.load(open(sys.argv[1]))["matrix"][0]["rows"]
assert len(rows) == 1 + int(sys.argv[2]) and rows[0]["pages"] == "base", rows
sizes = [r["folio_size"] for r in rows[1:]]
assert sizes == sorted(sizes), sizes
PY
controls | cmp -s - "$work/before" && ok || fail "pages=all: the mTHP controls not restored"

# SIGKILL mid-run: the journal has every control, the next memtlb puts it back
"$MEMTLB" stat --pages mthp:64k --backing anon --region 64m -i 100000 >/dev/null 2>&1 &
pid=$!
for _ in $(seq 100); do
	grep -q '\[madvise\]' "$thp/hugepages-64kB/enabled" && break
	sleep 0.05
done
kill -9 "$pid"
wait "$pid" 2>/dev/null
# between two iterations everything is put back and the journal is gone:
# then there is nothing for the next memtlb to say, only to check
left=0
[ -e /run/memtlb/journal ] && left=1
run stat --region 1m -i 2 --passes 1
expect_status 0 "the memtlb after a killed one"
if [ "$left" -eq 1 ]; then
	expect_grep 'ended without restoring' "$err" "the next memtlb says what it restored"
else
	echo "SIGKILL came between two iterations: nothing was left to restore"
fi
controls | cmp -s - "$work/before" && ok || fail "SIGKILL: the mTHP controls not restored"

usage_case "a size not offered" stat --pages mthp:8k --backing anon --region 8m
expect_grep 'offers for anonymous memory: 16k' "$err" "the error lists the sizes offered"
usage_case "no size" stat --pages mthp --region 8m
usage_case "not a power of two" stat --pages mthp:48k --region 8m
usage_case "shm backing" stat --pages mthp:64k --backing shm --region 8m
usage_case "region not a multiple" stat --pages mthp:64k --backing anon --region 100k
controls | cmp -s - "$work/before" && ok || fail "usage errors changed a control"
finish
