#!/bin/sh
# SPDX-License-Identifier: MIT
# memtlb compare on fixture reports (tests/data/compare, see make-fixtures.py).
. "$(dirname "$0")/lib.sh"

D="$MEMTLB_TEST_DATA/compare"

# A real regression: write_0 +30% and marked, minor faults doubled.
run compare "$D/base.json" "$D/regression.json"
expect_status 0 "regression"
expect_grep '^base: 6\.1\.0-base on base-host ' "$out" "header names base by kernel and host"
expect_grep '^new\[1\]: 6\.1\.0-slow on base-host ' "$out" "header names new side"
expect_grep '\+30\.0% \* +17355 ~ 2%  write_0\.time_us$' "$out" "regression marked"
expect_grep '\+100\.0% \* +8192 ~ 0%  write_0\.minor-faults$' "$out" "counter regression"
expect_grep '^geomean new\[1\]/base, times: \+4\.5% \(6 metrics\)$' "$out" "geomean of times"

# Noise only: no mark anywhere, and --fail-above 0 passes.
run compare --fail-above 0 "$D/base.json" "$D/noise.json"
expect_status 0 "noise with --fail-above 0"
if grep -q '% \*' "$out"; then fail "noise: a change marked significant"; else ok; fi

# --fail-above: 1 above the worst significant regression (+100%), 0 at or below it.
run compare --fail-above 5% "$D/base.json" "$D/regression.json"
expect_status 1 "--fail-above 5%"
expect_grep '^memtlb: compare: significant regression of \+100\.0%, above 5%$' "$err" \
	"--fail-above names the regression"
# ... and every metric above it, one line each: point, phase.metric, change, input.
expect_grep '^memtlb: compare: region=16m block=4k: write_0\.time_us: \+30\.0% in .*/regression\.json$' \
	"$err" "--fail-above names write_0.time_us"
expect_grep '^memtlb: compare: region=16m block=4k: write_0\.minor-faults: \+100\.0% in .*/regression\.json$' \
	"$err" "--fail-above names write_0.minor-faults"
if tail -n 1 "$err" | grep -q 'significant regression of'; then ok; else
	fail "--fail-above: the summary is not the last line"; fi
run compare --fail-above 50 "$D/base.json" "$D/improvement.json" "$D/regression.json"
expect_status 1 "--fail-above 50, three inputs"
n=$(grep -c '^memtlb: compare: region=' "$err")
[ "$n" -eq 1 ] && ok || fail "--fail-above 50: $n metrics named, expected 1"
expect_grep '^memtlb: compare: region=16m block=4k: write_0\.minor-faults: \+100\.0% in .*/regression\.json$' \
	"$err" "--fail-above 50 names minor-faults only"
# The names come from the files: escaped there too.
sed 's/minor-faults/minor\\u001b-faults/g' "$D/base.json" >"$work/esc-base.json"
sed 's/minor-faults/minor\\u001b-faults/g' "$D/regression.json" >"$work/esc-reg.json"
run compare --fail-above 50 "$work/esc-base.json" "$work/esc-reg.json"
expect_status 1 "--fail-above, escaped"
expect_grep '^memtlb: compare: region=16m block=4k: write_0\.minor\\x1b-faults: \+100\.0% in ' \
	"$err" "--fail-above escapes the metric"
if grep -q "$(printf '\033')" "$err"; then fail "a raw escape on stderr"; else ok; fi
run compare --fail-above 100 "$D/base.json" "$D/regression.json"
expect_status 0 "--fail-above 100"
# An improvement is not a regression.
run compare --fail-above 0 "$D/base.json" "$D/improvement.json"
expect_status 0 "improvement"
expect_grep '-20\.0% \* +10680 ~ 2%  write_0\.time_us$' "$out" "improvement marked"

# Unlike configurations: warned before the table.
run compare "$D/base.json" "$D/mismatch.json"
expect_status 0 "mismatch"
expect_grep '^warning: .*mismatch\.json: CPU differs: AMD EPYC \(base\) vs Intel' "$out" "CPU"
expect_grep '^warning: .*mismatch\.json: THP differs: madvise \(base\) vs always$' "$out" "THP"
expect_grep '^warning: .*mismatch\.json: backing differs: anon \(base\) vs shared$' "$out" \
	"backing"
expect_grep '^warning: .*mismatch\.json: block differs: 4096 \(base\) vs 8192$' "$out" "block"
expect_grep '^warning: .*mismatch\.json: memtlb version differs: 0\.1\.0 \(base\) vs 0\.2\.0$' \
	"$out" "version"
first_warning=$(grep -n '^warning' "$out" | head -1 | cut -d: -f1)
first_row=$(grep -n 'time_us$' "$out" | head -1 | cut -d: -f1)
if [ "$first_warning" -lt "$first_row" ]; then ok; else fail "warnings after the table"; fi

# Every workload option that changes what is measured, once per field; an
# option that applies only with another (seed: random) only where both have it.
run compare "$D/base.json" "$D/workload.json"
expect_status 0 "workload options"
for w in 'backing differs: anon \(base\) vs file' 'pages differs: default \(base\) vs thp' \
	'access differs: seq \(base\) vs random' 'populate differs: no \(base\) vs yes' \
	'read first differs: no \(base\) vs yes' 'tasks differs: 0 \(base\) vs 4'; do
	expect_grep "^warning: .*workload\.json: $w\$" "$out" "workload: $w"
done
n=$(grep -c '^warning: ' "$out")
[ "$n" -eq 6 ] && ok || fail "workload: $n warnings, expected 6"
sed -e 's/"seed": 7/"seed": 9/' -e 's/"task_mode": "process"/"task_mode": "thread"/' \
	-e 's/"task_region": "private"/"task_region": "shared"/' \
	-e 's/"file_cache": "cold"/"file_cache": "warm"/' -e 's/"pages": "thp"/"pages": "hugetlb"/' \
	-e 's/"huge_page_size": 2097152/"huge_page_size": 1073741824/' \
	"$D/workload.json" >"$work/options.json"
sed -e 's/"access": "random"/"access": "stride"/' -e 's/"stride": 0/"stride": 8192/' \
	"$D/workload.json" >"$work/stride.json"
run compare "$D/workload.json" "$work/options.json" "$work/stride.json"
expect_status 0 "dependent options"
for w in 'options\.json: file cache differs: cold \(base\) vs warm' \
	'options\.json: pages differs: thp \(base\) vs hugetlb' \
	'options\.json: huge page size differs: 2097152 \(base\) vs 1073741824' \
	'options\.json: seed differs: 7 \(base\) vs 9' \
	'options\.json: task mode differs: process \(base\) vs thread' \
	'options\.json: task region differs: private \(base\) vs shared' \
	'stride\.json: access differs: random \(base\) vs stride'; do
	expect_grep "^warning: .*$w\$" "$out" "dependent: $w"
done
n=$(grep -c '^warning: ' "$out")
[ "$n" -eq 7 ] && ok || fail "dependent options: $n warnings, expected 7"
# Both stride: the stride.
sed -e 's/"stride": 8192/"stride": 16384/' "$work/stride.json" >"$work/stride2.json"
run compare "$work/stride.json" "$work/stride2.json"
expect_grep '^warning: .*stride2\.json: stride differs: 8192 \(base\) vs 16384$' "$out" "stride"
# The events counted, not config.events (left at the default by --events SET).
sed 's/"dTLB-loads"/"DTLB_LOADS:ALL"/' "$D/base.json" >"$work/evset.json"
run compare "$D/base.json" "$work/evset.json"
expect_grep '^warning: .*evset\.json: events differs: minor-faults,major-faults,dTLB-loads,dTLB-load-misses \(base\) vs minor-faults,major-faults,DTLB_LOADS:ALL,dTLB-load-misses$' \
	"$out" "events counted"
run compare "$D/base.json" "$D/base.json"
if grep -q '^warning' "$out"; then fail "base vs base: a warning"; else ok; fi
# A report's strings reach the terminal with their control bytes escaped.
sed 's/"cpu": "[^"]*"/"cpu": "x\\u001b[2Jy"/' "$D/base.json" >"$work/esc.json"
run compare "$D/base.json" "$work/esc.json"
expect_grep '^warning: .*esc\.json: CPU differs: .* vs x\\x1b\[2Jy$' "$out" "escaped CPU"
if grep -q "$(printf '\033')" "$out"; then fail "a raw escape on stdout"; else ok; fi

# Near-zero baseline: an absolute change, never +3e+14%.
run compare "$D/base.json" "$D/nearzero.json"
expect_grep '^ +0 ~ 0% +\+40 abs \* +40 ~ 4%  read_0\.minor-faults$' "$out" "absolute change"
if grep -Eq '[0-9]e\+[0-9]+%' "$out"; then fail "near-zero: a huge percentage"; else ok; fi

# A counter not supported on one side: shown as such, not as a change.
run compare "$D/base.json" "$D/hwcounters.json"
expect_grep '^ +not supported +- +4096 ~ 0%  write_0\.dTLB-load-misses$' "$out" \
	"not supported vs counted"

# Points matched by parameters; a point on one side only is listed.
run compare "$D/base.json" "$D/sweep.json"
expect_status 0 "sweep"
expect_grep '^point region=32m block=4k: not in .*base\.json$' "$out" "lonely point"

# Three inputs: a column pair per later input.
run compare "$D/base.json" "$D/regression.json" "$D/improvement.json"
expect_status 0 "three inputs"
expect_grep '\+30\.0% \* +17355 ~ 2% +-20\.0% \* +10680 ~ 2%  write_0\.time_us$' "$out" \
	"three columns"
expect_grep '^new\[2\]: 6\.1\.0-fast' "$out" "third header"

# Machine formats.
run compare --format csv "$D/base.json" "$D/regression.json"
expect_status 0 "csv"
expect_grep '^point,phase,metric,family,input,' "$out" "csv header"
expect_grep '^"region=16m block=4k",write_0,"time_us",times,1,.*,30,%,.*,1,1$' "$out" "csv row"
cols=$(sed 's/"[^"]*"/x/g' "$out" | awk -F, '{ print NF }' | sort -u | wc -l)
if [ "$cols" -eq 1 ]; then ok; else fail "csv: rows of different widths"; fi
run compare --format json "$D/base.json" "$D/regression.json"
expect_status 0 "json"
if command -v python3 >/dev/null; then
	if python3 -c 'import json,sys; d=json.load(open(sys.argv[1]));
assert d["worst_regression_pct"] == 100.0' "$out"; then ok; else fail "json: not valid"; fi
fi
run compare --format markdown "$D/base.json" "$D/regression.json"
expect_status 0 "markdown"
# Every table line has as many cells as its header.
bad=$(awk -F'|' '/^\|/ { if (!n) n = NF; if (NF != n) b++ } /^$/ { n = 0 } END { print b + 0 }' "$out")
if [ "$bad" -eq 0 ]; then ok; else fail "markdown: $bad rows with a wrong column count"; fi

# Errors: exit 2, one line.
run compare "$D/base.json" "$D/schema2.json"
expect_status 2 "other schema"
expect_grep '^memtlb: .*schema2\.json: schema 2, this memtlb reads schema 1$' "$err" \
	"schema message"
run compare "$D/base.json"
expect_status 2 "one input"
expect_one_error_line "one input"
run compare "$D/base.json" "$work/missing.json"
expect_status 2 "missing file"
expect_one_error_line "missing file"
printf 'not json' >"$work/bad.json"
run compare "$D/base.json" "$work/bad.json"
expect_status 2 "not JSON"
expect_one_error_line "not JSON"
run compare --fail-above x "$D/base.json" "$D/base.json"
expect_status 2 "bad --fail-above"
expect_one_error_line "bad --fail-above"
run compare --format xml "$D/base.json" "$D/base.json"
expect_status 2 "bad --format"
expect_one_error_line "bad --format"

finish
