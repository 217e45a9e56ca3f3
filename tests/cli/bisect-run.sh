#!/bin/sh
# SPDX-License-Identifier: MIT
# memtlb bisect-run --from: git bisect run's exit codes on reports made from
# tests/data/compare/base.json with known read_1 times (0 good, 1 bad, 125
# undecided), counts only on an emulated CPU, and bad input as 128 (git's
# abort), never 1..127, with one error line and nothing judged.
. "$(dirname "$0")/lib.sh"

data=${MEMTLB_TEST_DATA:?}/compare

# mk OUT LEVEL N [SPREAD [EMULATED]]: base.json with n read_1 samples around
# LEVEL x the base's mean, alternately -SPREAD and +SPREAD (a fraction)
mk() {
	python3 - "$data/base.json" "$@" <<'PY'
import json, sys
src, out, level, n = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
spread = float(sys.argv[5]) if len(sys.argv) > 5 else 0.005
rep = json.load(open(src))
r = rep["results"][0]
r.pop("iteration_start_ns", None)
r.pop("iteration_steal_ms", None)
for p in r["phases"]:
    m = p["time_ns"]["mean"]
    s = [round(m * (level if p["name"] == "read_1" else 1) *
               (1 + (spread if i % 2 else -spread) * (1 + i % 3))) for i in range(n)]
    p["time_ns"].update(n=n, samples=s, mean=sum(s) / n)
    for c in p.get("counters", {}).values():
        if c.get("mean") is not None:
            c["samples"] = [round(c["mean"] * (level if p["name"] == "write_0" else 1))] * n
            c["n"] = n
rep["config"]["iterations"] = n
if len(sys.argv) > 6:
    rep["system"]["cpu_emulated"] = True
    rep["system"]["cpu_emulated_evidence"] = "cpuid: TCGTCGTCGTCG"
json.dump(rep, open(out, "w"))
PY
}

mk "$work/good.json" 1.0 20
mk "$work/same.json" 1.0 30
mk "$work/slow.json" 1.10 30
mk "$work/close.json" 1.025 30 0.02
mk "$work/fast.json" 0.80 30

run bisect-run --baseline "$work/good.json" --from "$work/same.json" --threshold 2.5
expect_status 0 "same kernel: good"
expect_grep '^memtlb: good: read_1:ns_per_block [+-]0\.[0-9]% \(95% bounds .*\) <= 2\.5%, n=3$' \
	"$err" "one verdict line, after the first look"
[ "$(wc -l <"$err")" -eq 1 ] && ok || fail "more than one line on stderr"
[ ! -s "$out" ] && ok || fail "stdout not empty"

run bisect-run --baseline "$work/good.json" --from "$work/slow.json" --threshold 2.5
expect_status 1 "10% slower: bad"
expect_grep '^memtlb: bad: read_1:ns_per_block \+(9|10)\.[0-9]% \(95% bounds \+.*\) > 2\.5%, n=3$' \
	"$err" "bad verdict line"

run bisect-run --baseline "$work/good.json" --from "$work/fast.json"
expect_status 0 "20% faster: good, not bad"

run bisect-run --baseline "$work/good.json" --from "$work/close.json" --threshold 2.5 \
	--max-runs 12
expect_status 125 "at the threshold: undecided"
expect_grep '^memtlb: undecided: .* vs 2\.5%, n=12$' "$err" "budget spent"

# the default threshold is compare's noise threshold, 1%
run bisect-run --baseline "$work/good.json" --from "$work/slow.json"
expect_status 1 "10% beyond the default 1%"
expect_grep '> 1%' "$err" "names the 1% threshold"

# a count, named as PHASE:EVENT
run bisect-run --baseline "$work/good.json" --from "$work/slow.json" \
	--metric read_1:time_us --threshold 5
expect_status 1 "time_us"
expect_grep '^memtlb: bad: read_1:time_us ' "$err" "metric named"

# emulated: times refused, counts judged
mk "$work/emu-good.json" 1.0 10 0.005 emulated
mk "$work/emu-slow.json" 1.10 10 0.005 emulated
run bisect-run --baseline "$work/emu-good.json" --from "$work/emu-slow.json"
case $status in 0|1) ok ;; *) fail "emulated: exit $status"; cat "$err" >&2 ;; esac
expect_grep '^memtlb: (good|bad): write_0:' "$err" "emulated: a count of write_0"
run bisect-run --baseline "$work/emu-good.json" --from "$work/emu-slow.json" \
	--metric read_1:ns_per_block
expect_status 128 "emulated: a time refused"
expect_one_error_line "emulated: a time refused"

# bad input: 128 (git bisect run's abort), one line, nothing judged
abort_case() {
	what=$1
	shift
	run "$@"
	expect_status 128 "$what"
	expect_one_error_line "$what"
}
abort_case "no baseline" bisect-run --from "$work/same.json"
abort_case "missing baseline" bisect-run --baseline "$work/none.json" --from "$work/same.json"
echo '{' >"$work/broken.json"
abort_case "broken baseline" bisect-run --baseline "$work/broken.json" --from "$work/same.json"
abort_case "sweep baseline" bisect-run --baseline "$data/sweep.json" --from "$work/same.json"
abort_case "missing --from" bisect-run --baseline "$work/good.json" --from "$work/none.json"
abort_case "bad threshold" bisect-run --baseline "$work/good.json" --threshold -3
abort_case "bad metric" bisect-run --baseline "$work/good.json" --metric read_1
abort_case "no such phase" bisect-run --baseline "$work/good.json" --metric read_9:ns_per_block
abort_case "no such event" bisect-run --baseline "$work/good.json" --metric read_1:bogus
abort_case "no samples" bisect-run --baseline "$work/good.json" \
	--metric read_1:faults_per_block
abort_case "zero base" bisect-run --baseline "$work/good.json" --metric read_1:minor-faults
abort_case "small budget" bisect-run --baseline "$work/good.json" --max-runs 2
abort_case "unknown option" bisect-run --baseline "$work/good.json" --bogus
abort_case "stray argument" bisect-run --baseline "$work/good.json" extra

# a report of another configuration: compare's warnings, then the verdict
run bisect-run --baseline "$work/good.json" --from "$data/mismatch.json"
expect_grep '^memtlb: warning: .*mismatch.json: block differs' "$err" "unlike reports said"
expect_no_grep 'iterations differs' "$err" "the iterations are --from's to differ"

run bisect-run --help
expect_status 0 "--help"

finish
