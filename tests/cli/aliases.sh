#!/bin/sh
# SPDX-License-Identifier: MIT
# perf stat's spellings: -x SEP, -j, --repeat, -e given twice, for stat,
# sweep and run (issue 15).
. "$(dirname "$0")/lib.sh"

w="--region 64k -i 2 --passes 1"

# -x: CSV with that separator, the same fields as --format csv.
run stat $w -e minor-faults --format csv
expect_status 0 "stat --format csv"
cp "$out" "$work/comma.csv"
run stat $w -e minor-faults -x';'
expect_status 0 "stat -x;"
expect_grep '^point;phase;metric;unit;mean;stddev;cv;running;status$' "$out" "-x; header"
expect_grep '^0;write_0;minor-faults;count;' "$out" "-x; rows"
if grep -q ',' "$out"; then fail "-x; left a comma"; sed 's/^/  /' "$out" >&2; else ok; fi
# the same fields, only the separator differs
if [ "$(cut -d';' -f1-4 "$out" | tr ';' ,)" = "$(cut -d, -f1-4 "$work/comma.csv")" ]; then ok; else
	fail "-x; fields differ from --format csv"; fi
run stat $w -e minor-faults --field-separator '\t'
expect_status 0 "stat -x '\\t'"
if head -1 "$out" | grep -q "$(printf 'point\tphase')"; then ok; else
	fail "-x '\\t': no tab"; fi
usage_case "two-byte separator" stat $w -x ab
expect_grep "^memtlb: -x: 'ab': not a field separator$" "$err" "says why"
usage_case "digit separator" stat $w -x 1
usage_case "quote separator" stat $w -x '"'

# A field that holds the separator is quoted: the event names are the user's.
run stat $w -e minor-faults -x ' '
expect_status 0 "stat -x ' '"
expect_grep '^point phase metric unit mean stddev cv running status$' "$out" "-x ' ' header"

# -j: JSON.
run stat $w -e minor-faults -j
expect_status 0 "stat -j"
expect_grep '^  "memtlb": \{' "$out" "-j is JSON"

# --repeat: the iterations.
run stat --region 64k --passes 1 --repeat 3 -e minor-faults -j
expect_status 0 "stat --repeat 3"
expect_grep '"iterations": 3' "$out" "--repeat sets the iterations"
usage_case "--repeat 0" stat --region 64k --repeat 0
expect_grep '^memtlb: --repeat: 0: not a count' "$err" "--repeat is named"

# -e twice appends; it used to replace the first.
run stat $w -e minor-faults -e major-faults -x,
expect_status 0 "stat -e -e"
expect_grep '^0,write_0,minor-faults,' "$out" "first -e kept"
expect_grep '^0,write_0,major-faults,' "$out" "second -e added"
usage_case "duplicate across -e" stat $w -e minor-faults -e minor-faults

# One meaning per letter in every command, perf's: -r repeats (stat's
# iterations), -p is a process; test_with_mmap's -r SIZE and -p N, which
# once meant the region and the passes here, are refused with the long
# option they meant (stat -p 31994 started a run of 31994 passes).
run stat --region 64k --passes 1 -r 3 -e minor-faults -j
expect_grep '"iterations": 3' "$out" "stat -r 3: three iterations, perf's repeat"
usage_case "stat -r 16g" stat -r 16g
expect_grep '^hint: the region is --region 16g \(test_with_mmap.s -r\)$' "$err" "-r SIZE: the hint"
usage_case "sweep -r 4m..8m" sweep -r 4m..8m
expect_grep '^hint: the region is --region 4m\.\.8m' "$err" "sweep -r RANGE: the hint"
for cmd in stat sweep flush; do
	usage_case "$cmd -p 31994" $cmd -p 31994
	expect_grep "^memtlb: $cmd: -p: not an option of memtlb $cmd; in perf it counts a running process" \
		"$err" "$cmd -p: what perf means by it"
	expect_grep '^hint: memtlb run -p PID counts one; the passes are --passes N$' "$err" \
		"$cmd -p: the hint"
done
# run's -p is the pid, as perf's
usage_case "run -p not a pid" run -p x -- true
expect_grep '^memtlb: -p: x: not a process id$' "$err" "run -p: a pid"

# sweep: the same options.
run sweep --region 64k..128k -i 2 --passes 1 -e minor-faults -x';'
expect_status 0 "sweep -x;"
expect_grep '^[a-z_][a-z0-9_]*(;[a-z_][a-z0-9_]*)+$' "$out" "sweep -x; header"
if grep -q ',' "$out"; then fail "sweep -x; left a comma"; else ok; fi
run sweep --region 64k..128k --repeat 2 --passes 1 -e minor-faults -e major-faults -j
expect_status 0 "sweep -j --repeat -e -e"
expect_grep '"iterations": 2' "$out" "sweep --repeat"
expect_grep '"name": "major-faults"' "$out" "sweep second -e"

# run: -x and -j are perf stat's own lines (tools/perf/Documentation/
# perf-stat.txt: CSV FORMAT, JSON FORMAT), on stderr as perf's: value,
# unit, event, [variance with -r], run time, % running, metric, its unit.
run run -x';' -e minor-faults -e major-faults -e cycles -e task-clock -- true
expect_status 0 "run -x;"
expect_grep '^[0-9]+;;minor-faults;[0-9]+;100\.00;[0-9.]+;[KMG]?/sec$' "$err" \
	"run -x;: perf's field order, a rate per second of task-clock"
expect_grep '^[0-9]+;;major-faults;' "$err" "run second -e"
expect_grep '^<not supported>;;cycles;;;;$|^[0-9]+;;cycles;[0-9]+;[0-9.]+;;$' "$err" \
	"run -x;: an event not counted, in perf's word"
expect_grep '^[0-9]+\.[0-9]{2};msec;task-clock;[0-9]+;100\.00;[0-9.]+;CPUs utilized$' "$err" \
	"run -x;: task-clock in msec, CPUs utilized"
if [ -s "$out" ]; then fail "run -x wrote to stdout"; else ok; fi
run run -r 3 -x, -e minor-faults -- true
expect_grep '^[0-9]+,,minor-faults,[0-9.]+%,[0-9]+,100\.00,,$' "$err" "run -r 3 -x,: the variance"
run run -r 2 -j -e minor-faults,task-clock -- true
expect_status 0 "run -j"
python3 -c 'import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
ev = {l["event"]: l for l in lines}
assert list(ev["minor-faults"])[:3] == ["counter-value", "unit", "event"], ev
assert float(ev["minor-faults"]["counter-value"]) > 0 and "pcnt-running" in ev["minor-faults"], ev
assert ev["task-clock"]["unit"] == "msec" and ev["task-clock"]["metric-unit"] == "CPUs utilized"
assert "variance" in ev["minor-faults"] and "event-runtime" in ev["minor-faults"], ev' "$err" &&
	ok || fail "run -j: perf stat -j's JSON lines"
# Against perf stat's own lines (Debian's perf 6.1, tests/data/perf/, made
# by the commands named in its README): per event the same fields, empty
# where perf's are, the same units and metric units. One deviation, said
# in memtlb-run(1): an event not supported has no run time and no share
# running (perf prints 0 and 100.00 for what it never ran).
P=$MEMTLB_TEST_DATA/perf
for case in "stat-x.txt:-e task-clock,page-faults,minor-faults,major-faults,context-switches,cycles" \
	    "stat-r3-x.txt:-r 3 -e task-clock,page-faults,minor-faults" \
	    "stat-j.txt:-j -e task-clock,page-faults,minor-faults,cycles" \
	    "stat-r3-j.txt:-r 3 -j -e task-clock,page-faults"; do
	file=${case%%:*} args=${case#*:}
	[ "${args#*-j}" != "$args" ] || args="-x, $args"
	# shellcheck disable=SC2086 # the options, a word each
	run run $args -- true
	if python3 - "$P/$file" "$err" <<'PY'
import json, re, sys
def lines(path):
    out = {}
    for l in open(path):
        l = l.strip()
        if l.startswith("{"):
            d = json.loads(l)
            out[d["event"]] = d
        elif l.count(",") >= 5:
            f = l.split(",")
            out[f[2]] = f
    return out
perf, ours = lines(sys.argv[1]), lines(sys.argv[2])
assert list(perf) == list(ours), ("events", list(perf), list(ours))
for ev, p in perf.items():
    o = ours[ev]
    # an event perf could not count where the fixture was made, counted
    # here (a PMU): its fields are this machine's, not the fixture's
    if (p["counter-value"] if isinstance(p, dict) else p[0]) == "<not supported>" and \
       (o["counter-value"] if isinstance(o, dict) else o[0]) != "<not supported>":
        continue
    if isinstance(p, dict):
        unsup = p["counter-value"] == "<not supported>"
        keys = [k for k in p if not (unsup and k.startswith(("event-", "pcnt", "metric")))]
        assert list(o) == keys, (ev, list(o), keys)
        assert o["unit"] == p["unit"], (ev, o["unit"], p["unit"])
        if "metric-unit" in p and not unsup:
            assert re.sub("[KMG]", "", o["metric-unit"]) == re.sub("[KMG]", "", p["metric-unit"]), (ev, o, p)
        continue
    assert len(o) == len(p), (ev, o, p)
    unsup = p[0] == "<not supported>"
    for i, (a, b) in enumerate(zip(o, p)):
        if unsup and i in (len(p) - 4, len(p) - 3):
            assert a == "", (ev, i, o)      # never ran: no time, no share
        elif i == len(p) - 1:
            assert re.sub("[KMG]", "", a) == re.sub("[KMG]", "", b), (ev, i, a, b)
        else:
            assert (a == "") == (b == ""), (ev, i, o, p)
    assert o[1] == p[1] and (not unsup or o[0] == p[0]), (ev, o, p)
PY
	then ok; else fail "run $args: not perf stat's fields ($file)"; fi
done

# --format csv and json stay memtlb's own, the report
run run --format json -- true
expect_grep '"command_line": "true"' "$err" "run --format json: the report"

finish
