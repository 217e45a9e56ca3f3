#!/bin/sh
# SPDX-License-Identifier: MIT
# Adaptive repetition and interleaving, checked on what the report says,
# never on how long anything took: stat --ci-target stops within its limits
# and says why (the CI recomputed from the samples must agree with "target"),
# --warmup iterations are recorded and left out, and sweep --order
# interleaved/random alternates the points, seen in the order of their
# iteration timestamps.
. "$(dirname "$0")/lib.sh"

check_py() {	# WHAT FILE ARGS... (python on stdin)
	what=$1
	shift
	if python3 - "$@" >"$work/py.out" 2>&1; then ok; else
		fail "$what"; sed 's/^/  /' "$work/py.out" >&2; fi
}

# --ci-target: between min and max, and a reason that the samples bear out.
run stat --region 1m --passes 1 --ci-target 5 --min-iterations 3 --max-iterations 12 \
	--warmup 2 -e minor-faults -o "$work/r.json"
expect_status 0 "stat --ci-target"
expect_grep '^iterations: [0-9]+ summarised, stopped: (target|max-iterations) \(target' \
	"$out" "the table says why it stopped"
check_py "--ci-target report" "$work/r.json" <<'PY'
import json, math, sys
rep = json.load(open(sys.argv[1]))
c = rep["config"]
assert c["ci_target"] == 5 and c["min_iterations"] == 3 and c["max_iterations"] == 12, c
assert c["warmup"] == 2, c
res = rep["results"][0]
n = res["phases"][0]["time_ns"]["n"]
assert 3 <= n <= 12, n
assert res["stop"] in ("target", "max-iterations"), res["stop"]
if res["stop"] == "max-iterations":
    assert n == 12, n
assert res["warmup"] == 2
# Student's t 95% two-sided, df 1..11
t95 = [12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624,
       2.306004, 2.262157, 2.228139, 2.200985]
met = True
for p in res["phases"]:
    s = p["time_ns"]["samples"]
    assert len(s) == n, (p["name"], len(s))
    assert len(p["warmup_time_ns"]) == 2, p["name"]
    m = sum(s) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in s) / (n - 1))
    met &= t95[n - 2] * sd / math.sqrt(n) <= 0.05 * m * (1 + 1e-9)
# "target" only when every phase's CI is within 5%; the limit only when not
if res["stop"] == "target":
    assert met, "stopped on target with a CI above 5%"
starts = res["iteration_start_ns"]
assert len(starts) == n and all(a < b for a, b in zip(starts, starts[1:])), starts
assert len(res["iteration_steal_ms"]) == n
for o in res["outliers"]:
    assert 0 <= o["iteration"] < n and o["phase"] in [p["name"] for p in res["phases"]], o
PY

# The fixed -i stays the default: exactly -i iterations, stop "iterations".
run stat --region 1m --passes 1 -i 4 --warmup 1 -e minor-faults -o "$work/f.json"
expect_status 0 "stat -i 4 --warmup 1"
check_py "fixed -i report" "$work/f.json" <<'PY'
import json, sys
rep = json.load(open(sys.argv[1]))
res = rep["results"][0]
assert "ci_target" not in rep["config"]
assert res["stop"] == "iterations" and res["warmup"] == 1, res.get("stop")
for p in res["phases"]:
    assert p["time_ns"]["n"] == 4 and len(p["warmup_time_ns"]) == 1, p["name"]
# a minor fault per page in write_0, warm-up or not: the warm-up ran the workload
ph = {p["name"]: p for p in res["phases"]}
assert ph["write_0"]["counters"]["minor-faults"]["mean"] >= 256, ph["write_0"]["counters"]
PY

# --max-time stops at an iteration boundary: a reason among the three.
run stat --region 1m --passes 1 --ci-target 0.001 --max-iterations 1000 --max-time 0.2 \
	-e minor-faults -o "$work/t.json"
expect_status 0 "stat --max-time"
check_py "--max-time report" "$work/t.json" <<'PY'
import json, sys
res = json.load(open(sys.argv[1]))["results"][0]
n = res["phases"][0]["time_ns"]["n"]
assert res["stop"] in ("max-time", "target", "max-iterations"), res["stop"]
assert 1 <= n <= 1000
if res["stop"] == "max-iterations":
    assert n == 1000
PY

usage_case "--ci-target 0" stat --region 1m --ci-target 0
usage_case "--ci-target 101" stat --region 1m --ci-target 101
usage_case "--ci-target x" stat --region 1m --ci-target 5x
usage_case "--max-iterations without --ci-target" stat --region 1m --max-iterations 5
usage_case "--max-time without --ci-target" stat --region 1m --max-time 5
usage_case "--min above --max" stat --region 1m --ci-target 5 --min-iterations 9 \
	--max-iterations 4
usage_case "--warmup -1" stat --region 1m --warmup -1
usage_case "--max-time 0" stat --region 1m --ci-target 5 --max-time 0
usage_case "--phase without --ci-target" stat --region 1m --phase read_0
usage_case "--phase not a phase" stat --region 1m --passes 1 --ci-target 5 --phase read_0,read_1
usage_case "--phase empty name" stat --region 1m --ci-target 5 --phase read_0,

# --phase: the target waits for those phases only, and says so.
run stat --region 1m --passes 1 --ci-target 20 --max-iterations 10 --phase read_0 \
	-e minor-faults -o "$work/p.json"
expect_status 0 "stat --ci-target --phase"
expect_grep '(^|[ ])read_0\)$' "$out" "the table names the phase waited for"
check_py "--phase report" "$work/p.json" <<'PY'
import json, math, sys
rep = json.load(open(sys.argv[1]))
assert rep["config"]["ci_phases"] == "read_0"
res = rep["results"][0]
n = res["phases"][0]["time_ns"]["n"]
t95 = [12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624,
       2.306004, 2.262157]
s = {p["name"]: p["time_ns"]["samples"] for p in res["phases"]}["read_0"]
m = sum(s) / n
half = t95[n - 2] * math.sqrt(sum((x - m) ** 2 for x in s) / (n - 1)) / math.sqrt(n)
assert res["stop"] in ("target", "max-iterations"), res["stop"]
assert (res["stop"] == "target") == (half <= 0.2 * m * (1 + 1e-9)) or n == 10, (res["stop"], n)
PY
usage_case "--order bogus" sweep --region 1m..2m --order bogus

# sweep --order: the points' iterations in time order.
order_of() {	# FILE: the point of each iteration, in time order
	python3 - "$1" <<'PY'
import json, sys
rep = json.load(open(sys.argv[1]))
marks = []
for p, res in enumerate(rep["results"]):
    for t in res["iteration_start_ns"]:
        marks.append((t, p))
print(rep["config"]["order"], " ".join(str(p) for t, p in sorted(marks)))
PY
}
run sweep --region 1m..4m --passes 1 -i 3 -e minor-faults --order interleaved -o "$work/i.json"
expect_status 0 "sweep --order interleaved"
got=$(order_of "$work/i.json")
[ "$got" = "interleaved 0 1 2 0 1 2 0 1 2" ] && ok || fail "interleaved: '$got'"

run sweep --region 1m..4m --passes 1 -i 3 -e minor-faults -o "$work/s.json"
expect_status 0 "sweep, sequential by default"
got=$(order_of "$work/s.json")
[ "$got" = "sequential 0 0 0 1 1 1 2 2 2" ] && ok || fail "sequential: '$got'"

# random: every round holds every point once; the same seed, the same order.
run sweep --region 1m..8m --passes 1 -i 4 -e minor-faults --order random --seed 7 -o "$work/a.json"
expect_status 0 "sweep --order random"
run sweep --region 1m..8m --passes 1 -i 4 -e minor-faults --order random --seed 7 -o "$work/b.json"
a=$(order_of "$work/a.json")
b=$(order_of "$work/b.json")
[ "$a" = "$b" ] && ok || fail "random, seed 7: '$a' then '$b'"
check_py "random rounds" "$a" <<'PY'
import sys
words = sys.argv[1].split()
assert words[0] == "random"
seq = [int(w) for w in words[1:]]
assert len(seq) == 16
rounds = [seq[i:i + 4] for i in range(0, 16, 4)]
assert all(sorted(r) == [0, 1, 2, 3] for r in rounds), rounds
assert any(r != [0, 1, 2, 3] for r in rounds), "never shuffled: %s" % rounds
PY
# Interleaved with warm-up and --ci-target: each point stops on its own,
# its warm-up left out, and the summarised iterations still alternate.
run sweep --region 1m..2m --passes 1 --warmup 1 --ci-target 50 --max-iterations 4 \
	-e minor-faults --order interleaved -o "$work/c.json"
expect_status 0 "sweep --order interleaved --ci-target"
check_py "interleaved --ci-target" "$work/c.json" <<'PY'
import json, sys
rep = json.load(open(sys.argv[1]))
marks = []
for p, res in enumerate(rep["results"]):
    n = res["phases"][0]["time_ns"]["n"]
    assert res["warmup"] == 1 and len(res["phases"][0]["warmup_time_ns"]) == 1
    assert res["stop"] in ("target", "max-iterations") and 2 <= n <= 4, (res["stop"], n)
    assert len(res["iteration_start_ns"]) == n
    marks += [(t, p) for t in res["iteration_start_ns"]]
seq = [p for t, p in sorted(marks)]
# while both points run they alternate: no point twice in a row before one stops
k = min(sum(1 for p in seq if p == 0), sum(1 for p in seq if p == 1))
assert seq[:2 * k] == [0, 1] * k, seq
PY
usage_case "sweep --max-iterations without --ci-target" sweep --region 1m..2m \
	--max-iterations 5
finish
