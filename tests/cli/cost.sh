#!/bin/sh
# SPDX-License-Identifier: MIT
# What memtlb adds to what it measures (issue 17), as counts, never times:
# a set's fault events are read from getrusage (perf's software event costs
# on every fault) and agree with perf's exactly; the kernel's evidence is
# read in the last timed iteration where its phases are long, else in one
# extra iteration, and says which.
. "$(dirname "$0")/lib.sh"

# The default set's fault counts: getrusage, exact, said in the JSON; -e
# minor-faults is perf's own event, with the same counts.
run stat --region 64m --backing anon -i 2 -o "$work/set.json"
expect_status 0 "stat, the default set"
run stat --region 64m --backing anon -i 2 -e minor-faults,major-faults -o "$work/perf.json"
expect_status 0 "stat -e minor-faults,major-faults"
python3 - "$work/set.json" "$work/perf.json" <<'PY' || fail "fault counts: getrusage = perf = pages"
import json, sys
def load(path):
    rep = json.load(open(path))
    res = rep["results"][0]
    ev = {e["name"]: e for e in res["events"]}
    ph = {p["name"]: p["counters"] for p in res["phases"]}
    return rep, ev, ph
rep, ev, ph = load(sys.argv[1])
_, pev, pph = load(sys.argv[2])
pages = (64 << 20) // rep["system"]["page_size"]
if rep["config"]["backend"] == "perf":
    assert ev["minor-faults"].get("source") == "getrusage", ev["minor-faults"]
    assert "getrusage" in ev["minor-faults"]["meaning"], ev["minor-faults"]
assert "source" not in pev["minor-faults"], pev["minor-faults"]
for name in ("mmap", "write_0", "read_0", "write_1", "munmap"):
    want = pages if name == "write_0" else 0
    for p in (ph, pph):
        c = p[name]["minor-faults"]
        assert c["min"] == c["max"] == want and c["running"] == 1.0, (name, c)
        assert p[name]["major-faults"]["max"] == 0, (name, p[name]["major-faults"])
PY
ok

# Process tasks fault in their own processes: their getrusage is added.
run stat --region 16m --backing anon -i 2 --tasks 2 --task-mode process \
	--task-region private --format json
expect_status 0 "stat --tasks 2 process, the default set"
python3 - "$out" <<'PY' || fail "process tasks' faults counted"
import json, sys
rep = json.load(open(sys.argv[1]))
ph = {p["name"]: p["counters"] for p in rep["results"][0]["phases"]}
pages = (16 << 20) // rep["system"]["page_size"]
c = ph["write_0"]["minor-faults"]
assert c["min"] >= 2 * pages and c["max"] <= 2 * pages + 8, c
PY
ok

# Evidence in a timed iteration: 2^20 blocks make even a first iteration's
# phases long enough, so -i 1 needs no extra iteration; its counts are the
# same as an extra iteration's.
run stat --region 64m --block 64 --backing anon -i 1 -o "$work/in.json"
expect_status 0 "stat 2^20 blocks -i 1"
expect_grep 'kernel: rusage, vmstat and irq from timed iteration 1, read between' "$out" \
	"the table says where the evidence came from"
run stat --region 4m --backing anon -i 1 -o "$work/extra.json"
expect_status 0 "stat 4m -i 1"
expect_grep 'kernel: rusage, vmstat and irq from one extra, untimed iteration' "$out" \
	"a short run: one extra iteration"
run stat --region 64m --block 64 --backing anon --ci-target 50 --min-iterations 2 \
	--max-iterations 2 \
	-o "$work/ci.json"
expect_status 0 "stat --ci-target"
python3 - "$work/in.json" "$work/extra.json" "$work/ci.json" <<'PY' || fail "evidence_iteration"
import json, sys
def res(path):
    return json.load(open(path))["results"][0]
r = res(sys.argv[1])
assert r["evidence_iteration"] == 1, r.get("evidence_iteration")
k = {p["name"]: p["kernel"] for p in r["phases"]}
assert k["write_0"]["rusage.minflt"]["mean"] == (64 << 20) // 4096, k["write_0"]
assert r["mapping"]["pages"]["base"] == 64 << 20, r["mapping"]
assert "evidence_iteration" not in res(sys.argv[2])
# An adaptive count has no known last iteration: the extra one.
assert "evidence_iteration" not in res(sys.argv[3])
PY
ok
finish
