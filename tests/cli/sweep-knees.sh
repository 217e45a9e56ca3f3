#!/bin/sh
# SPDX-License-Identifier: MIT
# Every output of one sweep carries the same knees: the table's, the CSV's
# and the JSON's (stdout and -o) under --phase and --knee-ratio; uncertain
# knees (a point's CV above 50%) said apart; a largest rise that is no knee
# says why. Curves are synthetic, from a real report: no timing decides.
. "$(dirname "$0")/lib.sh"

saved=$MEMTLB_TEST_DATA/sweep-1m-64m.json

# curve OUT READ_0 WRITE_0 [CV_AT]: the saved sweep with read_0 and write_0
# at these ns per block (comma lists, one per region 1m..64m), CVs 0 but
# CV_AT's (a region in bytes), which gets 0.8 in both.
curve() {
	python3 - "$saved" "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
read = [float(v) for v in sys.argv[3].split(",")]
write = [float(v) for v in sys.argv[4].split(",")]
cv_at = int(sys.argv[5]) if len(sys.argv) > 5 else -1
regions = sorted(r["params"]["region"] for r in d["results"])
for r in d["results"]:
    k, blocks = regions.index(r["params"]["region"]), r["params"]["blocks"]
    for p in r["phases"]:
        if p["name"] not in ("read_0", "write_0"):
            continue
        t = blocks * (read if p["name"] == "read_0" else write)[k]
        cv = 0.8 if r["params"]["region"] == cv_at else 0.0
        n = p["time_ns"]["n"]
        p["time_ns"].update(mean=t, median=t, min=t, max=t, stddev=cv * t, cv=cv,
                            samples=[t] * n)
json.dump(d, open(sys.argv[2], "w"))
PY
}

# knees WHAT ARGS...: sweep --from ARGS as a table and as JSON: the same
# knees (from -> to) and the same uncertain ones; leaves them in $work/t.
knees() {
	what=$1
	shift
	run sweep "$@"
	expect_status 0 "$what: table"
	sed -n 's/^knee: \(uncertain, \)\{0,1\}\([0-9]*[kmg]\) -> \([0-9]*[kmg]\),.*/\1\2 \3/p' \
		"$out" | sed 's/, / /' >"$work/t"
	cp "$out" "$work/table"
	run sweep "$@" --format json
	expect_status 0 "$what: json"
	python3 - "$out" >"$work/j" <<'PY' || fail "$what: json unreadable"
import json, sys
d = json.load(open(sys.argv[1]))
def short(b):
    for u, s in ((1 << 30, "g"), (1 << 20, "m"), (1 << 10, "k")):
        if b % u == 0:
            return "%d%s" % (b // u, s)
    return str(b)
for key, tag in (("knees", ""), ("uncertain_knees", "uncertain ")):
    for k in d[key]:
        print("%s%s %s" % (tag, short(k["from_bytes"]), short(k["to_bytes"])))
PY
	sort "$work/j" >"$work/j.sorted"
	if sort "$work/t" | cmp -s - "$work/j.sorted"; then
		ok
	else
		fail "$what: table knees differ from the JSON's"
		sed 's/^/  table: /' "$work/t" >&2
		sed 's/^/  json:  /' "$work/j" >&2
	fi
	cp "$out" "$work/json"
}

# The issue's case on the saved sweep: the same (here none) both ways, and
# the JSON says the phase and ratio it used.
knees "saved, read_0, 1.5" --from "$saved" --knee-ratio 1.5 --phase read_0
python3 - "$work/json" <<'PY' && ok || fail "saved: JSON knee_ratio or phase not the run's"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["knee_ratio"] == 1.5, d["knee_ratio"]
assert all(k["phase"] == "read_0" for k in d["knees"] + d["uncertain_knees"])
PY

# read_0 rises x1.7 at 16m: a knee at 1.5, none at the default 2.0;
# write_0 rises x3 at 4m. The JSON's knees follow both options.
r1="40,40,40,40,68,68,68"
w1="100,100,300,300,300,300,300"
curve "$work/k.json" "$r1" "$w1"
knees "ratio 1.5" --from "$work/k.json" --knee-ratio 1.5
expect_grep '^8m 16m$' "$work/t" "ratio 1.5: the x1.7 knee"
knees "ratio 2" --from "$work/k.json"
if [ -s "$work/t" ]; then fail "ratio 2: a knee at x1.7"; else ok; fi
knees "phase write_0" --from "$work/k.json" --phase write_0
expect_grep '^2m 4m$' "$work/t" "phase write_0: its knee"
knees "phase write_0, 1.5" --from "$work/k.json" --phase write_0 --knee-ratio 1.5
python3 - "$work/json" <<'PY' && ok || fail "phase write_0: JSON knees not of write_0"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["knees"] and all(k["phase"] == "write_0" for k in d["knees"]), d["knees"]
PY
# the CSV's knee column: the same point
run sweep --from "$work/k.json" --knee-ratio 1.5 --format csv
expect_grep '^0,[^,]*,16777216,read_0,([^,]*,){5}1\.7,' "$out" "csv: the knee at 16m"

# A knee at a point whose CV is 80%: uncertain, not a knee, both ways.
curve "$work/u.json" "$r1" "$w1" 16777216
knees "uncertain" --from "$work/u.json" --knee-ratio 1.5
expect_grep '^uncertain 8m 16m$' "$work/t" "uncertain: said apart"
expect_grep '^knee: uncertain, 8m -> 16m, ns/block x1\.7: CV 80%' "$work/table" \
	"uncertain: its CV"
tr '\n' ' ' <"$work/table" | sed 's/  */ /g' >"$work/joined"
expect_grep 'is no knee: it is uncertain' "$work/joined" "uncertain: why none"
expect_grep 'x1\.7 uncertain' "$work/table" "uncertain: the table's column"

# No knee: the largest rise says why it is none, never only its size.
curve "$work/s.json" "40,40,40,160,40,40,40" "$w1"
run sweep --from "$work/s.json"
expect_status 0 "spike"
tr '\n' ' ' <"$out" | sed 's/  */ /g' >"$work/joined"
expect_grep 'knee: none \(the largest one-step rise, x4\.00 from 4m to 8m, is no knee: it is a one-point spike' \
	"$work/joined" "spike: why none"
curve "$work/r.json" "40,40,40,40,40,40,70" "$w1"
run sweep --from "$work/r.json"
tr '\n' ' ' <"$out" | sed 's/  */ /g' >"$work/joined"
expect_grep 'x1\.75 from 32m to 64m, is no knee: it is less than the ratio over the trend' \
	"$work/joined" "small rise: why none"

# A live sweep: -o's JSON has the table's options.
run sweep --region 1m..4m -i 2 --passes 1 --phase write_0 --knee-ratio 1.5 -o "$work/live.json"
expect_status 0 "live"
python3 - "$work/live.json" <<'PY' && ok || fail "live: -o's knee_ratio or phase not the run's"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["knee_ratio"] == 1.5, d["knee_ratio"]
assert all(k["phase"] == "write_0" for k in d["knees"] + d["uncertain_knees"])
PY

# A report read back keeps its run's --knee-ratio and --phase: its JSON
# knees, sweep --from's (table, CSV and JSON) and the exports agree. The
# exports and sweep --from used the default ratio, whatever the file said.
fixture="$MEMTLB_TEST_DATA/sweep-1m-64m.json"
for args in "--knee-ratio 1.2" "--knee-ratio 2" "--knee-ratio 1.2 --phase write_0"; do
	"$MEMTLB" sweep --from "$fixture" $args --format json >"$work/saved.json"
	"$MEMTLB" sweep --from "$work/saved.json" --format json >"$work/again.json"
	"$MEMTLB" sweep --from "$work/saved.json" --format csv >"$work/again.csv"
	"$MEMTLB" report "$work/saved.json" --format lkp >"$work/lkp"
	python3 - "$work/saved.json" "$work/again.json" "$work/again.csv" "$work/lkp" <<'PY' \
		&& ok || fail "read back ($args): knees disagree"
import csv, json, sys
saved, again = (json.load(open(p)) for p in sys.argv[1:3])
def knees(d):
    return [(k["phase"], k["from_bytes"], k["to_bytes"]) for k in d["knees"]]
assert saved["knee_ratio"] == again["knee_ratio"], (saved["knee_ratio"], again["knee_ratio"])
assert knees(saved) == knees(again), (knees(saved), knees(again))
rows = list(csv.DictReader(open(sys.argv[3])))
marked = [r for r in rows if r.get("knee_step")]
assert len(marked) == len(knees(saved)), (len(marked), knees(saved))
lkp = dict(l.split(": ", 1) for l in open(sys.argv[4]).read().splitlines())
phase = saved.get("knee_phase")
assert int(lkp[phase + ".knees"]) == len(knees(saved)), (lkp.get(phase + ".knees"), knees(saved))
PY
done

finish
