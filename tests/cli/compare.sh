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
expect_grep '\+30\.0% \+-3\.0 \* +4237 ~ 2%  write_0\.ns_per_block$' "$out" "regression marked"
expect_grep '\+100\.0% \+-0\.0 \* +8192 ~ 0%  write_0\.minor-faults$' "$out" "counter regression"
expect_grep '^geomean new\[1\]/base, times: \+4\.5% \(6 metrics\)$' "$out" "geomean of times"

# Noise only: no mark anywhere, and --fail-above 0 passes.
run compare --fail-above 0 "$D/base.json" "$D/noise.json"
expect_status 0 "noise with --fail-above 0"
if grep -q '% \*' "$out"; then fail "noise: a change marked significant"; else ok; fi

# --fail-above: 1 above the worst significant regression (+100%), 0 at or below it.
run compare --fail-above 5% "$D/base.json" "$D/regression.json"
expect_status 1 "--fail-above 5%"
expect_grep '^memtlb: compare: regression of \+100\.0% beyond the noise, above 5%$' "$err" \
	"--fail-above names the regression"
# ... and every metric above it, one line each: point, phase.metric, change, input.
expect_grep '^memtlb: compare: region=16m block=4k: write_0\.time_us: \+30\.0% in .*/regression\.json$' \
	"$err" "--fail-above names write_0.time_us"
expect_grep '^memtlb: compare: region=16m block=4k: write_0\.minor-faults: \+100\.0% in .*/regression\.json$' \
	"$err" "--fail-above names write_0.minor-faults"
if tail -n 1 "$err" | grep -q 'regression of .* beyond the noise'; then ok; else
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
expect_grep '-20\.0% \+-1\.8 \* +2607 ~ 2%  write_0\.ns_per_block$' "$out" "improvement marked"

# Unlike configurations: warned before the table.
run compare "$D/base.json" "$D/mismatch.json"
expect_status 0 "mismatch"
expect_grep '^memtlb: warning: .*mismatch\.json: CPU differs: AMD EPYC \(base\) vs Intel' "$err" "CPU"
expect_grep '^memtlb: warning: .*mismatch\.json: THP differs: madvise \(base\) vs always$' "$err" "THP"
expect_grep '^memtlb: warning: .*mismatch\.json: backing differs: anon \(base\) vs shared$' "$err" \
	"backing"
expect_grep '^memtlb: warning: .*mismatch\.json: block differs: 4096 \(base\) vs 8192$' "$err" "block"
expect_grep '^memtlb: warning: .*mismatch\.json: memtlb version differs: 0\.1\.0 \(base\) vs 0\.2\.0$' \
	"$err" "version"
# On stderr, and not in the text table's stdout.
if grep -q 'warning' "$out"; then fail "text: warnings on stdout"; else ok; fi

# Every workload option that changes what is measured, once per field; an
# option that applies only with another (seed: random) only where both have it.
run compare "$D/base.json" "$D/workload.json"
expect_status 0 "workload options"
for w in 'backing differs: anon \(base\) vs file' 'pages differs: default \(base\) vs thp' \
	'access differs: seq \(base\) vs random' 'populate differs: no \(base\) vs yes' \
	'read first differs: no \(base\) vs yes' 'tasks differs: 0 \(base\) vs 4'; do
	expect_grep "^memtlb: warning: .*workload\.json: $w\$" "$err" "workload: $w"
done
n=$(grep -c '^memtlb: warning: ' "$err")
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
	expect_grep "^memtlb: warning: .*$w\$" "$err" "dependent: $w"
done
n=$(grep -c '^memtlb: warning: ' "$err")
[ "$n" -eq 7 ] && ok || fail "dependent options: $n warnings, expected 7"
# Both stride: the stride.
sed -e 's/"stride": 8192/"stride": 16384/' "$work/stride.json" >"$work/stride2.json"
run compare "$work/stride.json" "$work/stride2.json"
expect_grep '^memtlb: warning: .*stride2\.json: stride differs: 8192 \(base\) vs 16384$' "$err" "stride"
# The events counted, not config.events (left at the default by --events SET).
sed 's/"dTLB-loads"/"DTLB_LOADS:ALL"/' "$D/base.json" >"$work/evset.json"
run compare "$D/base.json" "$work/evset.json"
expect_grep '^memtlb: warning: .*evset\.json: events differs: minor-faults,major-faults,dTLB-loads,dTLB-load-misses \(base\) vs minor-faults,major-faults,DTLB_LOADS:ALL,dTLB-load-misses$' \
	"$err" "events counted"
run compare "$D/base.json" "$D/base.json"
if grep -q '^memtlb: warning' "$err"; then fail "base vs base: a warning"; else ok; fi
# A report's strings reach the terminal with their control bytes escaped.
sed 's/"cpu": "[^"]*"/"cpu": "x\\u001b[2Jy"/' "$D/base.json" >"$work/esc.json"
run compare "$D/base.json" "$work/esc.json"
expect_grep '^memtlb: warning: .*esc\.json: CPU differs: .* vs x\\x1b\[2Jy$' "$err" "escaped CPU"
if grep -q "$(printf '\033')" "$out"; then fail "a raw escape on stdout"; else ok; fi

# Near-zero baseline: an absolute change, never +3e+14%.
run compare "$D/base.json" "$D/nearzero.json"
expect_grep '^ +0 ~ 0% +\+40 abs \+-1\.963 \* +40 ~ 4%  read_0\.minor-faults$' "$out" "absolute change"
if grep -Eq '[0-9]e\+[0-9]+%' "$out"; then fail "near-zero: a huge percentage"; else ok; fi

# A counter not supported on one side: shown as such, not as a change.
run compare "$D/base.json" "$D/hwcounters.json"
expect_grep '^ +not supported +- +4096 ~ 0%  write_0\.dTLB-load-misses$' "$out" \
	"not supported vs counted"

# Points matched by parameters; a point on one side only is listed.
run compare "$D/base.json" "$D/sweep.json"
expect_status 0 "sweep"
expect_grep '^point region=32m block=4k: not in .*base\.json$' "$out" "lonely point"

# Three inputs: within 80 columns, a table per later input against the
# base; --wide, a column pair per later input on one row, every row.
run compare "$D/base.json" "$D/regression.json" "$D/improvement.json"
expect_status 0 "three inputs"
expect_grep '^ +3259 ~ 2% +\+30\.0% \+-3\.0 \* +4237 ~ 2%  write_0\.ns_per_block$' "$out" \
	"three inputs: new[1] against the base"
expect_grep '^ +3259 ~ 2% +-20\.0% \+-1\.8 \* +2607 ~ 2%  write_0\.ns_per_block$' "$out" \
	"three inputs: new[2] against the base"
# (the header lines name the files, as long as their paths: not the table's)
wide=$(grep -v '^base: \|^new\[' "$out" | awk 'length($0) > 80' | wc -l)
[ "$wide" -eq 0 ] && ok || fail "three inputs: $wide lines over 80 columns"
if grep -q 'write_0\.time_us$' "$out"; then fail "three inputs: write_0 twice, time_us too"
else ok; fi
expect_grep '^new\[2\]: 6\.1\.0-fast' "$out" "third header"
run compare --wide "$D/base.json" "$D/regression.json" "$D/improvement.json"
expect_grep '\+30\.0% \+-3\.0 \* +17355 ~ 2% +-20\.0% \+-1\.8 \* +10680 ~ 2%  write_0\.time_us$' "$out" \
	"--wide: three columns, the time rows too"

# Machine formats.
run compare --format csv "$D/base.json" "$D/regression.json"
expect_status 0 "csv"
expect_grep '^point,phase,metric,family,input,' "$out" "csv header"
expect_grep '^"region=16m block=4k",write_0,"time_us",times,1,.*,30\.[0-9]*,%,.*,1,1,[0-9.]*,[0-9.]*,1,welch$' \
	"$out" "csv row"
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

# Changes beyond noise (issue 16): a tight base makes +0.5% significant, but
# it is within the default 1% noise threshold; +5% calls, with its CI.
run compare --format json "$D/tight.json" "$D/half-pct.json"
expect_status 0 "+0.5%"
if command -v python3 >/dev/null; then
	if python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
r=[r for r in d["rows"] if r["phase"]=="write_0" and r["metric"]=="time_us"][0]["inputs"][1]
assert r["significant"] and not r["changed"] and not r["regression"], r
assert d["noise_pct"] == 1 and d["test"] == "welch"
assert d["memtlb"]["schema"] == 3 and d["command"] == "compare"' "$out"; then ok; else
		fail "+0.5%: significant, not changed, in the JSON"; fi
fi
run compare "$D/tight.json" "$D/half-pct.json"
expect_grep '^ +3259 ~ 0% +\+0\.5% \+-0\.1    +3276 ~ 0%  write_0\.ns_per_block$' "$out" \
	"+0.5%: not marked"
run compare --fail-above 0 "$D/tight.json" "$D/half-pct.json"
expect_status 0 "+0.5% under --fail-above 0"
run compare --noise 0 --fail-above 0 "$D/tight.json" "$D/half-pct.json"
expect_status 1 "--noise 0: +0.5% calls"
expect_grep '^ +3259 ~ 0% +\+0\.5% \+-0\.1 \* +3276 ~ 0%  write_0\.ns_per_block$' "$out" \
	"--noise 0: marked"
run compare --noise 0.4% "$D/tight.json" "$D/half-pct.json"
expect_grep '\+0\.5% \+-0\.1 \* +3276 ~ 0%  write_0\.ns_per_block$' "$out" "--noise 0.4%"
run compare --fail-above 1 "$D/tight.json" "$D/five-pct.json"
expect_status 1 "+5%"
expect_grep '^ +3259 ~ 0% +\+5\.0% \+-0\.1 \* +3422 ~ 0%  write_0\.ns_per_block$' "$out" \
	"+5%: marked with its CI"
expect_grep '^memtlb: compare: region=16m block=4k: write_0\.time_us: \+5\.0% in .*/five-pct\.json$' \
	"$err" "+5%: --fail-above names phase and metric"
run compare --format json "$D/tight.json" "$D/five-pct.json"
if command -v python3 >/dev/null; then
	if python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
r=[r for r in d["rows"] if r["phase"]=="write_0" and r["metric"]=="time_us"][0]["inputs"][1]
lo, hi = r["ci_pct"]
assert r["changed"] and r["regression"] and lo < r["change_pct"] < hi and hi - lo < 1, r' \
		"$out"; then ok; else fail "+5%: CI in the JSON"; fi
fi

# --test mwu: one doubled iteration hides the shift from Welch's t, not from
# the rank test (every new sample above the base's: p = 2 / C(12, 6)).
run compare "$D/skew-base.json" "$D/skew-new.json"
if grep -q '\* .*write_0\.ns_per_block$' "$out"; then fail "skew: Welch marked it"; else ok; fi
run compare --test mwu --fail-above 10 "$D/skew-base.json" "$D/skew-new.json"
expect_status 1 "mwu: regression"
expect_grep '\* +[0-9]+ ~[0-9 ]+%  write_0\.ns_per_block$' "$out" "mwu: marked"
expect_grep '^test: Mann-Whitney U' "$out" "mwu: said below the table"
run compare --test mwu -o - "$D/skew-base.json" "$D/skew-new.json"
if command -v python3 >/dev/null; then
	if python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
rs={(r["phase"],r["metric"]): r["inputs"][1] for r in d["rows"]}
t=rs[("write_0","time_us")]
assert d["test"] == "mwu" and t["test"] == "mwu" and abs(t["p"] - 2/924) < 1e-12, t
assert rs[("write_0","minor-faults")]["test"] == "welch"' "$out"; then ok; else
		fail "mwu: p in the JSON"; fi
fi

# 80 columns: rows no input counted are named once below the table.
M=$(realpath "$MEMTLB")
cp "$D"/*.json "$work/"
for f in regression hwcounters nearzero five-pct; do
	(cd "$work" && "$M" compare base.json "$f.json" >"$work/w.txt" 2>/dev/null)
	wide=$(awk 'length($0) > 80' "$work/w.txt" | wc -l)
	[ "$wide" -eq 0 ] && ok || fail "$f: $wide lines over 80 columns"
done
run compare "$D/base.json" "$D/regression.json"
if grep -q 'not supported' "$out"; then fail "a row of not supported"; else ok; fi
expect_grep '^no input counted \(--wide shows them\): dTLB-loads, dTLB-load-misses$' "$out" \
	"uncounted named once"
n=$(grep -c '^no input counted' "$out")
[ "$n" -eq 1 ] && ok || fail "uncounted: $n lines, expected 1"
run compare --wide "$D/base.json" "$D/regression.json"
n=$(grep -Ec 'not supported +- +not supported  [a-z_0-9]+\.dTLB-load' "$out")
[ "$n" -eq 12 ] && ok || fail "--wide: $n rows not supported, expected 12"
if grep -q '^no input counted' "$out"; then fail "--wide: the line below"; else ok; fi
# Counted on one side: a row, as before.
run compare "$D/base.json" "$D/hwcounters.json"
expect_grep '^ +not supported +- +4096 ~ 0%  read_0\.dTLB-load-misses$' "$out" \
	"one side counted: kept"

# Warnings: on stderr, before the table.
"$MEMTLB" compare "$D/base.json" "$D/mismatch.json" >"$work/both" 2>&1
first_warning=$(grep -n '^memtlb: warning' "$work/both" | head -1 | cut -d: -f1)
first_row=$(grep -n 'ns_per_block$' "$work/both" | head -1 | cut -d: -f1)
if [ "${first_warning:-99999}" -lt "${first_row:-0}" ]; then ok; else
	fail "warnings after the table"; fi
# (the fixtures are older than the key: an unknown side is not compared)
sed 's/"system": {/"system": { "hypervisor": true,/' "$D/base.json" >"$work/hv1.json"
sed 's/"system": {/"system": { "hypervisor": false,/' "$D/base.json" >"$work/hv0.json"
run compare "$work/hv1.json" "$work/hv0.json"
expect_grep '^memtlb: warning: .*hv0\.json: hypervisor differs: yes \(base\) vs no$' "$err" \
	"hypervisor"
run compare "$work/hv1.json" "$D/base.json"
if grep -q 'hypervisor' "$err"; then fail "hypervisor unknown: warned"; else ok; fi

# -o FILE: the comparison's JSON, beside the text on stdout.
run compare -o "$work/cmp.json" "$D/base.json" "$D/regression.json"
expect_status 0 "-o"
expect_grep 'write_0\.ns_per_block$' "$out" "-o: the table on stdout"
if command -v python3 >/dev/null; then
	if python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
assert d["memtlb"]["schema"] == 3 and d["worst_regression_pct"] == 100.0' "$work/cmp.json"
	then ok; else fail "-o: the JSON"; fi
fi
if ls "$work"/.cmp.json* "$work"/*.tmp* 2>/dev/null | grep -q .; then fail "-o: temp file left"
else ok; fi
# A bare file name: its directory is the current one (the check once tested
# access() on the file itself and refused every new bare name).
(cd "$work" && "$M" compare -o bare.json base.json regression.json >/dev/null 2>"$work/bare.err")
[ $? -eq 0 ] && [ -s "$work/bare.json" ] && ok ||
	{ fail "-o bare.json: not written"; cat "$work/bare.err" >&2; }
run compare -o "$D/base.json" "$D/base.json" "$D/regression.json"
expect_status 2 "-o: an input"
expect_one_error_line "-o: an input"
mkdir "$work/dir"
run compare -o "$work/dir" "$D/base.json" "$D/regression.json"
expect_status 2 "-o: a directory"
expect_one_error_line "-o: a directory"
mkfifo "$work/fifo" 2>/dev/null && {
	cat "$work/fifo" >"$work/fifo.out" &
	run compare -o "$work/fifo" "$D/base.json" "$D/regression.json"
	wait
	[ -p "$work/fifo" ] && grep -q '"rows"' "$work/fifo.out" && ok ||
		fail "-o: a FIFO is written through, not replaced"
}

# HTML: XHTML that xmllint accepts, the files' strings escaped.
sed 's/"cpu": "[^"]*"/"cpu": "<b>\&amp;x\\u001by<\/b>"/' "$D/base.json" >"$work/tag.json"
sed 's/"host": "[^"]*"/"host": "<script>h<\/script>"/' "$D/regression.json" >"$work/tag2.json"
run compare --format html "$work/tag.json" "$work/tag2.json"
expect_status 0 "html"
if grep -q '<script>\|<b>' "$out"; then fail "html: a string not escaped"; else ok; fi
expect_grep '&lt;script&gt;h&lt;/script&gt;' "$out" "html: host escaped"
if command -v xmllint >/dev/null; then
	if xmllint --noout "$out" 2>"$work/xmllint.err"; then ok; else
		fail "html: xmllint"; cat "$work/xmllint.err" >&2; fi
else
	echo "SKIP: xmllint not installed: html not checked"
fi

# Errors: exit 2, one line.
run compare "$D/base.json" "$D/schema2.json"
expect_status 2 "other schema"
expect_grep '^memtlb: .*schema2\.json: schema 4, this memtlb reads schemas 1 to 3$' "$err" \
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
usage_case "bad --noise" compare --noise -1 "$D/base.json" "$D/base.json"
usage_case "bad --noise" compare --noise 1x "$D/base.json" "$D/base.json"
usage_case "bad --test" compare --test t "$D/base.json" "$D/base.json"

# The environment that decides whether numbers compare: one warning per
# field that differs (governor, boost, ASLR here), none for what is the same.
run stat --region 4m -i 2 --passes 1 -o "$work/env-a.json"
expect_status 0 "stat for the environment check"
python3 - "$work/env-a.json" "$work/env-b.json" "$work/env-c.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["system"]["randomize_va_space"] = 2
json.dump(d, open(sys.argv[1], "w"))
d["system"]["cpufreq"] = {"present": True, "governor": "powersave", "boost": True,
                          "boost_source": "cpufreq/boost"}
d["system"]["randomize_va_space"] = 0
json.dump(d, open(sys.argv[2], "w"))
d["system"]["cpufreq"].update(governor="performance", boost=False)
json.dump(d, open(sys.argv[3], "w"))
PY
run compare "$work/env-b.json" "$work/env-c.json"
expect_status 0 "compare of two environments"
expect_grep '^memtlb: warning: .*env-c\.json: CPU frequency governor differs: powersave \(base\) vs performance$' \
	"$err" "compare: the governor differs"
expect_grep '^memtlb: warning: .*env-c\.json: CPU boost differs: yes \(base\) vs no$' "$err" \
	"compare: boost differs"
if grep -q 'ASLR differs' "$err"; then fail "compare: ASLR is the same on both"; else ok; fi
run compare "$work/env-a.json" "$work/env-b.json"
expect_grep 'ASLR differs: 2 \(base\) vs 0$' "$err" "compare: ASLR differs"

# Two page-size matrices: each input's cheapest proven size, one line each.
# In the second the thp point's pages were not as asked: it has no say.
M=$MEMTLB_TEST_DATA/matrix-2m.json
python3 - "$M" "$work/unproven.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:
    if r["params"]["pages"] == "thp":
        r["mapping"]["as_requested"] = False
json.dump(d, open(sys.argv[2], "w"))
PY
run compare "$M" "$work/unproven.json"
expect_status 0 "compare of two matrices"
expect_grep '^page sizes, region 2m: each input.s cheapest proven size$' "$out" "matrix: title"
expect_grep '^base +thp +248\.4 ' "$out" "matrix: the base's first touch"
expect_grep '^new\[1\] +mthp:64k +4926\.9 ' "$out" "matrix: thp unproven, not the best"
run compare --format json "$M" "$work/unproven.json"
python3 -c 'import json, sys
p = json.load(open(sys.argv[1]))["page_sizes"]
assert len(p) == 1 and p[0]["region"] == 2 << 20, p
assert [i["first_touch_best"] for i in p[0]["inputs"]] == ["thp", "mthp:64k"], p' "$out" &&
	ok || fail "matrix: the JSON's page_sizes"
run compare --format json "$D/base.json" "$D/noise.json"
python3 -c 'import json, sys
assert json.load(open(sys.argv[1]))["page_sizes"] == []' "$out" && ok ||
	fail "no matrix: page_sizes empty"

# Both split by a roofline calibration: each size's first-touch change by
# part. The same results, the entry floor 1000 ns dearer: the floor's part
# moves by that, the zeroing's not at all, the rest by the opposite.
python3 - "$M" "$MEMTLB_TEST_DATA/roofline/calibration-2m.json" "$work/rf-a.json" "$work/rf-b.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["roofline"] = json.load(open(sys.argv[2]))
json.dump(d, open(sys.argv[3], "w"))
d["roofline"]["floor_ns_per_fault"] += 1000
json.dump(d, open(sys.argv[4], "w"))
PY
run compare "$work/rf-a.json" "$work/rf-b.json"
expect_status 0 "compare of two split matrices"
expect_grep '^first touch per fault, new\[1\] - base, by part \(ns\)$' "$out" "roofline: the parts' title"
expect_grep '^thp +\+0\.0 +\+0\.0 +\+1000\.0 +(-1000\.0|-)$' "$out" "roofline: the floor's part moved"

finish
