#!/bin/sh
# SPDX-License-Identifier: MIT
# stat --runs N: N fresh processes, merged by the parent. Replay: the counts
# are deterministic, so every run's counter means are equal and the pooled
# summary is theirs. Live: each run's mapping is at its own address (a new
# process, a new layout), -o is written once, nothing is left behind, and a
# killed parent takes its run with it. compare says which spread it used.
. "$(dirname "$0")/lib.sh"

replay="$MEMTLB_TEST_DATA/replay/tlb.txt"
events=cycles,instructions,dTLB-loads,dTLB-load-misses,minor-faults,major-faults

check_py() {	# WHAT ARGS... (python on stdin)
	what=$1
	shift
	if python3 - "$@" >"$work/py.out" 2>&1; then ok; else
		fail "$what"; sed 's/^/  /' "$work/py.out" >&2; fi
}

MEMTLB_BACKEND=replay:$replay run stat --region 1m -i 2 --passes 1 -e "$events" --runs 3 \
	-o "$work/rp.json"
expect_status 0 "replay stat --runs 3"
expect_grep '^between runs: 3 runs, read_0 [0-9.]+ ns/block \+- [0-9.]+ \(95% CI over runs\)' \
	"$out" "the between-runs line"
expect_grep '3 runs x 2 iterations' "$out" "the header counts the runs"
check_py "replay runs report" "$work/rp.json" <<'PY'
import json, math, sys
rep = json.load(open(sys.argv[1]))
assert rep["config"]["runs"] == 3, rep["config"]
res = rep["results"][0]
for p in res["phases"]:
    runs = p["runs"]
    assert len(runs) == 3, (p["name"], runs)
    assert all(r["n"] == 2 for r in runs), runs
    # the phase's summary is over every iteration of every run
    assert p["time_ns"]["n"] == 6 and len(p["time_ns"]["samples"]) == 6, p["time_ns"]
    b = p["between_runs"]
    means = [r["time_ns"] for r in runs]
    m = sum(means) / 3
    assert b["n"] == 3 and math.isclose(b["mean"], m, rel_tol=1e-6), (b, means)
    sd = math.sqrt(sum((x - m) ** 2 for x in means) / 2)
    half = 4.302653 * sd / math.sqrt(3)
    assert math.isclose(b["ci95_high"] - b["ci95_low"], 2 * half, rel_tol=1e-5,
                        abs_tol=1e-3), (b, half)
    for name, c in p["counters"].items():
        vals = [r["counters"][name] for r in runs]
        if not c.get("counted"):
            assert vals == [None] * 3, (name, vals)
            continue
        # deterministic replayed counts: equal in every run, pooled to them
        assert vals[0] == vals[1] == vals[2], (p["name"], name, vals)
        assert math.isclose(c["mean"], vals[0], rel_tol=1e-9, abs_tol=1e-9), (c, vals)
        assert c["n"] == 6, c
PY

# Live: three processes, three layouts; -o the only file the run leaves.
mkdir "$work/live"
run stat --region 4m --passes 1 -i 3 --runs 3 -e minor-faults -o "$work/live/r.json"
expect_status 0 "live stat --runs 3"
# Without ASLR (randomize_va_space 0) a fresh process maps where the last did.
aslr=$(cat /proc/sys/kernel/randomize_va_space 2>/dev/null || echo 0)
check_py "live runs report" "$work/live/r.json" "$aslr" <<'PY'
import json, sys
aslr = sys.argv[2] != "0"
rep = json.load(open(sys.argv[1]))
# the runs' steal and switches, added up in the parent's report
assert "steal_ms" in rep["system"]["run"], rep["system"].get("run")
res = rep["results"][0]
for p in res["phases"]:
    addrs = [r["mapping_addr"] for r in p["runs"]]
    assert len(addrs) == 3 and None not in addrs, addrs
    if aslr:
        assert len(set(addrs)) == 3, ("the same mapping twice: not fresh processes", addrs)
    wf = [r["counters"]["minor-faults"] for r in p["runs"]]
    if p["name"] == "write_0":
        assert all(x >= 1024 for x in wf), wf	# every run faulted its own pages in
PY
left=$(ls -A "$work/live")
if [ "$left" = "r.json" ]; then ok; else fail "left in the -o directory: $left"; fi
left=$(find "$work" -maxdepth 1 -name '*memtlb*' ! -name 'memtlb-test*' | head -3)
if [ -z "$left" ]; then ok; else fail "left behind: $left"; fi

# compare: between runs when both sides have them, else within the run.
run compare "$work/live/r.json" "$work/live/r.json" --format json
expect_grep '"spread": "between-runs"' "$out" "compare JSON names the spread"
cp "$out" "$work/cmp.json"
check_py "compare on the run means" "$work/cmp.json" "$work/live/r.json" <<'PY'
import json, math, sys
cmp = json.load(open(sys.argv[1]))
rep = json.load(open(sys.argv[2]))
ph = {p["name"]: p for p in rep["results"][0]["phases"]}
rows = [r for r in cmp["rows"] if r["metric"] == "time_us"]
assert rows, "no time rows"
for r in rows:
    base = r["inputs"][0]
    b = ph[r["phase"]]["between_runs"]
    # n is the runs, not the iterations; the mean and spread are the runs'
    assert base["n"] == 3, base
    assert math.isclose(base["mean"], b["mean"] / 1000, rel_tol=1e-6), (base, b)
    assert math.isclose(base["stddev"], b["stddev"] / 1000, rel_tol=1e-6, abs_tol=1e-9), (base, b)
PY
run compare "$work/live/r.json" "$work/live/r.json"
expect_status 0 "compare two --runs reports"
expect_grep '^spread: between runs' "$out" "compare names the between-run spread"
run stat --region 4m --passes 1 -i 3 -e minor-faults -o "$work/one.json"
run compare "$work/one.json" "$work/live/r.json"
expect_status 0 "compare a one-process report with a --runs one"
expect_grep '^spread: within the run' "$out" "compare names the within-run spread"

# A killed parent takes its run along (PR_SET_PDEATHSIG).
"$MEMTLB" stat --region 1m --passes 1 -i 1000000 --runs 2 -e minor-faults >/dev/null 2>&1 &
parent=$!
child=
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	child=$(ps -o pid= --ppid "$parent" | tr -d ' ' | head -1)
	[ -n "$child" ] && break
	sleep 0.5
done
if [ -z "$child" ]; then
	fail "no run process appeared"
	kill "$parent"
else
	sleep 0.5
	kill -KILL "$parent"
	wait "$parent" 2>/dev/null
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		kill -0 "$child" 2>/dev/null || break
		sleep 0.5
	done
	if kill -0 "$child" 2>/dev/null; then
		fail "the run outlived its killed parent"
		kill -KILL "$child"
	else ok; fi
fi

# Interrupted: the run stops, the parent says so once and writes no -o.
"$MEMTLB" stat --region 1m --passes 1 -i 100000 --runs 2 -e minor-faults \
	-o "$work/int.json" >"$work/int.out" 2>"$work/int.err" &
parent=$!
child=
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	child=$(ps -o pid= --ppid "$parent" | tr -d ' ' | head -1)
	[ -n "$child" ] && break
	sleep 0.5
done
sleep 0.5
kill -INT "$parent"
wait "$parent"
status=$?
err="$work/int.err"
expect_status 130 "stat --runs interrupted"
expect_grep '^memtlb: stat: interrupted by Interrupt in run 1 of 2; no report written' \
	"$work/int.err" "the parent says the run was interrupted"
if [ -e "$work/int.json" ]; then fail "an interrupted --runs wrote -o"; else ok; fi
if [ -n "$child" ] && kill -0 "$child" 2>/dev/null; then
	fail "the interrupted run is still there"; kill -KILL "$child"; else ok; fi

# Bad input, refused before anything runs.
usage_case_o "--runs 0" stat --region 1m -i 1 --runs 0
usage_case_o "--runs x" stat --region 1m -i 1 --runs x
usage_case_o "--runs 65" stat --region 1m -i 1 --runs 65
usage_case_o "sweep --runs" sweep --region 1m..2m -i 1 --runs 2
expect_grep "runs" "$err" "sweep names --runs"
MEMTLB_RUN_CHILD=1 run stat --region 1m -i 1 -o "$work/report.json"
expect_status 2 "a bogus MEMTLB_RUN_CHILD"
expect_one_error_line "a bogus MEMTLB_RUN_CHILD"

# Live, software events: every iteration of every run counted, each
# write_0 exactly the region's pages (256 of 1 MiB), none left out.
run stat --region 1m -i 2 --passes 1 -e minor-faults,page-faults,cycles --pages base --runs 10 \
	-o "$work/live10.json"
expect_status 0 "live stat --runs 10"
check_py "live --runs 10: every iteration counted, exact" "$work/live10.json" <<'PY'
import json, sys
p = {p["name"]: p for p in json.load(open(sys.argv[1]))["results"][0]["phases"]}
for ev in ("minor-faults", "page-faults"):
    c = p["write_0"]["counters"][ev]
    assert c["n"] == 20 and c["samples"] == [256] * 20, (ev, c)
    c = p["read_0"]["counters"][ev]
    assert c["n"] == 20 and c["samples"] == [0] * 20, (ev, c)
# an event the machine cannot count keeps its errno's name through the runs
c = p["write_0"]["counters"]["cycles"]
assert c["supported"] or c["error"].startswith("E"), c
PY
if grep -q ' n=[0-9]* of ' "$out"; then fail "live --runs 10: an iteration not counted"; else ok; fi

finish
