#!/bin/sh
# SPDX-License-Identifier: MIT
# sweep --vary pages=base,thp: the translation series (base - huge ns per
# block, with Welch's 95% CI) on a synthetic report through sweep --from,
# its refusal of a point whose pages were not as requested, and the
# interleaved order a live pages sweep defaults to. No timing decides
# anything: the synthetic curve's numbers are put in, the live run is
# checked for its structure only.
. "$(dirname "$0")/lib.sh"

base=$MEMTLB_TEST_DATA/sweep-1m-64m.json

# make OUT REFUSE_AT [THP_NS]: every point twice, pages=base (read_0 100
# ns/block) and pages=thp (THP_NS, 60 ns/block by default), both with a
# stddev of 5 ns/block over 5 iterations; the thp point at region REFUSE_AT
# (0: none) not as requested.
make() {
	python3 - "$base" "$1" "$2" "${3:-60}" <<'PY'
import copy, json, math, sys
d = json.load(open(sys.argv[1]))
refuse = int(sys.argv[3])
thp_ns = float(sys.argv[4])
z = [k / math.sqrt(2.5) for k in (-2, -1, 0, 1, 2)]
out = []
for r in d["results"]:
    for pages, per in (("base", 100.0), ("thp", thp_ns)):
        c = copy.deepcopy(r)
        c["params"]["pages"] = pages
        blocks = c["params"]["blocks"]
        for p in c["phases"]:
            if p["name"] != "read_0":
                continue
            m, s = per * blocks, 5.0 * blocks
            xs = [m + s * k for k in z]
            p["time_ns"].update(n=5, mean=m, median=m, min=min(xs), max=max(xs),
                                stddev=s, cv=s / m, samples=xs)
        c["mapping"]["as_requested"] = True
        c["mapping"]["page_verdict"] = "as requested"
        if pages == "thp" and c["params"]["region"] == refuse:
            c["mapping"]["as_requested"] = False
            c["mapping"]["page_verdict"] = "not as requested: got base pages for 16384 KiB"
        out.append(c)
d["results"] = out
json.dump(d, open(sys.argv[2], "w"))
PY
}

M=1048576
make "$work/tr.json" $((16 * M))
run sweep --from "$work/tr.json" --phase read_0
expect_status 0 "sweep --from a pages=base,thp report"
expect_grep '^translation: read_0 ns/block, base pages - huge pages \(95% CI, Welch\)' "$out" \
	"the translation table's title"
# equal variances, 5 a side: 8 degrees of freedom, t = 2.306004; the
# standard error sqrt(2 x 25 / 5) = 3.162278: +-7.292
expect_grep '^1m +thp +100\.000 +60\.000 +\+40\.000 +\+-7\.292$' "$out" "1m: base - thp, CI"
expect_grep '^16m +thp +100\.000 +60\.000 +refused +-$' "$out" "16m refused in the table"
expect_grep '^16m: refused, the thp point was not as requested: got base pages for 16384 KiB$' "$out" \
	"the refusal's reason"
awk 'length > 80 { bad = 1 } END { exit bad }' "$out" && ok || fail "80 columns"
expect_no_grep "^note: no region's base - huge" "$out" "no note where huge pages save time"

# Huge pages that save nothing (a host backing guest memory with base
# pages): every difference within its interval, and a note says what that
# can mean.
make "$work/same.json" 0 100
run sweep --from "$work/same.json" --phase read_0
expect_status 0 "sweep --from, base and thp alike"
expect_grep "^note: no region's base - huge is apart from 0" "$out" "the note where none is apart"
awk 'length > 80 { bad = 1 } END { exit bad }' "$out" && ok || fail "80 columns, the note"

run sweep --from "$work/tr.json" --phase read_0 --format json
expect_status 0 "sweep --from --format json"
if python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
t = {x["region"]: x for x in d["translation"]}
assert len(t) == 7, t
a = t[1 << 20]
assert a["phase"] == "read_0" and a["pages"] == "thp", a
assert abs(a["base_ns"] - 100) < 1e-9 and abs(a["huge_ns"] - 60) < 1e-9, a
assert abs(a["translation_ns"] - 40) < 1e-9, a
assert abs(a["ci95_ns"] - 2.306004135 * (10.0) ** 0.5) < 1e-5, a
r = t[16 << 20]
assert "translation_ns" not in r and "ci95_ns" not in r, r
assert r["refused"] == "the thp point was not as requested: got base pages for 16384 KiB", r' "$out"
then ok; else fail "JSON translation[]"; fi

# The CSV: the translation on the huge pages' row, units in the header,
# every record as wide as the header (RFC 4180).
run sweep --from "$work/tr.json" --phase read_0 --format csv
expect_status 0 "sweep --from --format csv"
if python3 -c 'import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
head = open(sys.argv[1]).readline().rstrip("\n").split(",")
assert head[-3:] == ["translation_ns_per_block", "translation_ci95_ns_per_block",
                     "translation_status"], head
assert all(None not in r and len(r) == len(head) for r in rows), rows
thp = {int(r["region_bytes"]): r for r in rows if r["params"].endswith("pages=thp")}
base = [r for r in rows if r["params"].endswith("pages=base")]
assert len(thp) == 7 and len(base) == 7, rows
a = thp[1 << 20]
assert a["translation_status"] == "ok" and float(a["translation_ns_per_block"]) == 40, a
assert abs(float(a["translation_ci95_ns_per_block"]) - 2.306004135 * 10 ** 0.5) < 1e-5, a
r = thp[16 << 20]
assert r["translation_status"] == "refused" and r["translation_ns_per_block"] == "", r
assert all(b["translation_status"] == b["translation_ns_per_block"] == "" for b in base)' \
	"$out"; then ok; else fail "CSV: the translation columns"; fi

# The verdict comes from the report file: printed escaped, never raw.
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:
    if r["mapping"]["as_requested"] is False:
        r["mapping"]["page_verdict"] = "not as requested: \x1b[31mred"
json.dump(d, open(sys.argv[2], "w"))' "$work/tr.json" "$work/evil.json"
run sweep --from "$work/evil.json" --phase read_0
expect_status 0 "sweep --from, a verdict with an escape"
if grep -q "$(printf '\033')" "$out"; then fail "an escape byte reached the terminal"
else ok; fi
expect_grep 'was not as requested: \\x1b\[31mred' "$out" "the escape shown as text"

# Nothing to pair: no translation table, no key.
run sweep --from "$base" --phase read_0 --format json
if python3 -c 'import json, sys
sys.exit("translation" in json.load(open(sys.argv[1])))' "$out"; then ok
else fail "no translation[] without --vary pages"; fi

# Live: pages varied without --order runs interleaved, and says so.
run sweep --region 4m --vary pages=base,thp --backing anon -i 2 --passes 1 -o "$work/live.json"
expect_status 0 "live sweep --vary pages=base,thp"
expect_grep '^memtlb: sweep: --vary pages: --order interleaved' "$err" "interleaved, said"
if python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert d["config"]["order"] == "interleaved", d["config"]
t, = d["translation"]
assert t["region"] == 4 << 20 and t["pages"] == "thp", t
assert ("translation_ns" in t) != ("refused" in t), t' "$work/live.json"
then ok; else fail "live: order and translation[]"; fi
run sweep --region 4m --vary pages=base,thp --backing anon -i 1 --passes 1 --order sequential
expect_status 0 "live sweep, --order given"
if grep -q 'order interleaved' "$err"; then fail "--order given: kept"; else ok; fi
finish
