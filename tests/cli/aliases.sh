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
expect_grep '^[0-9]+;;minor-faults;[0-9]+;100\.00;;$' "$err" "run -x;: perf's field order"
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
# --format csv and json stay memtlb's own, the report
run run --format json -- true
expect_grep '"command_line": "true"' "$err" "run --format json: the report"

finish
