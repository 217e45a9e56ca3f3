#!/bin/sh
# SPDX-License-Identifier: MIT
# memtlb flush: bad input refused before the run, the workload's exact
# counts in the report, its JSON keys, the text's width, and compare of two
# flush reports. Counts only: times are never checked.
. "$(dirname "$0")/lib.sh"

# Bad input: exit 2, one line, no report.
usage_case_o "K of 0" flush --pages 0
usage_case_o "range from 0" flush --pages 0..8
usage_case_o "K not a count" flush --pages many
usage_case_o "K larger than the region" flush --pages 65 --region 256k
usage_case_o "range past the region" flush --pages 1..128:x2 --region 64k
usage_case_o "unknown op" flush --op flushall
usage_case_o "no tasks" flush --tasks 0
usage_case_o "too many tasks" flush --tasks 65
usage_case_o "no ops" flush --ops 0
usage_case_o "csv" flush --format csv
usage_case_o "unknown event" flush -e no-such-event-at-all
usage_case_o "argument" flush stray
run flush --pages 65 --region 256k
expect_grep '^memtlb: --pages: 65 pages: larger than the region \(64 pages\)$' "$err" \
	"K past the region said"
run flush --op flushall
expect_grep '^hint: --op takes munmap, madvise or mprotect$' "$err" "ops listed"

# madvise over 1..64:x2 with 2 tasks: per point, ops == M x iterations and
# exactly K re-faults per op (the op invalidated the K pages).
run flush -e task-clock,context-switches,cpu-migrations --tasks 2 --op madvise --pages 1..64:x2 -i 2 --ops 20 -o "$work/a.json"
expect_status 0 "flush madvise"
expect_grep '^memtlb flush: madvise, 2 tasks' "$out" "table header"
expect_grep '^Flush ceiling: ' "$out" "ceiling said"
w=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$out")
[ "$w" -le 80 ] && ok || fail "text is $w columns wide"

check_report() {	# FILE OP TASKS PAGES... : exact counts and the keys
	python3 - "$@" <<'PY'
import json, sys
path, op, tasks, ks, refault = sys.argv[1], sys.argv[2], int(sys.argv[3]), \
    [int(k) for k in sys.argv[4].split(",")], sys.argv[5] == "1"
d = json.load(open(path))
assert d["command"] == "flush", d["command"]
assert d["system"]["pv_tlb_flush"] in (True, False, None)
f = d["flush"]
for key in ("op", "tasks", "ops", "pinned", "spin_pages", "pv_tlb_flush",
            "ceiling", "points", "knees", "largest_step"):
    assert key in f, key
assert f["op"] == op and f["tasks"] == tasks and f["ops"] == 20
assert f["ceiling"]["default"] == 33
assert (f["ceiling"]["pages"] is None) == f["ceiling"]["source"].startswith("unknown")
assert [p["pages"] for p in f["points"]] == ks
assert len(d["results"]) == len(ks)
iters = d["config"]["iterations"]
for p, r in zip(f["points"], d["results"]):
    assert p["ops"] == 20 * iters, p
    if refault:
        assert p["refaults"] == p["pages"] * p["ops"], p
    assert r["params"]["blocks"] == p["pages"]
    assert r["params"]["op"] == op
    ph = r["phases"][0]
    assert ph["name"] == op
    assert ph["time_ns"]["n"] == iters and ph["time_ns"]["mean"] > 0
    assert "ns_per_block" in ph["derived"]
    for name in ("task-clock", "context-switches", "cpu-migrations"):
        c = ph["counters"][name]
        assert c["supported"] is True, (name, c)
PY
}
check_report "$work/a.json" madvise 2 1,2,4,8,16,32,64 1 && ok || fail "madvise report"

run flush -e task-clock,context-switches,cpu-migrations --tasks 1 --op munmap --pages 16..64:16 -i 2 --ops 20 -o "$work/b.json"
expect_status 0 "flush munmap, one task"
expect_grep '^One task: every flush is local\.$' "$out" "local only said"
check_report "$work/b.json" munmap 1 16,32,48,64 1 && ok || fail "munmap report"

run flush -e task-clock,context-switches,cpu-migrations --op mprotect --pages 33 -i 2 --ops 20 --format json
expect_status 0 "flush mprotect, json"
cp "$out" "$work/c.json"
check_report "$work/c.json" mprotect 2 33 0 && ok || fail "mprotect report"
expect_grep '"knees": null' "$work/c.json" "one point: no knee looked for"

# An event the machine cannot count is "not supported", never 0, and has no column.
run flush --pages 4 -i 2 --ops 5 -e task-clock,cycles -v -o "$work/d.json"
expect_status 0 "flush with cycles"
python3 - "$work/d.json" "$out" <<'PY' && ok || fail "cycles as counted or not supported"
import json, sys
d = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
c = d["results"][0]["phases"][0]["counters"]["cycles"]
assert d["config"]["backing"] == "anon" and d["config"]["pages"] == "base"
if d["system"]["hw_counters"] is False:
    assert c["supported"] is False and "mean" not in c, c
    assert "  cycles: not supported" in text, text
    assert "[2] cycles" not in text
else:
    assert c["supported"] is False or c["mean"] > 0, c
PY

# compare of two flush reports: every K a point, time and counts per op.
run flush -e task-clock,context-switches,cpu-migrations --tasks 1 --op munmap --pages 16..64:16 -i 2 --ops 20 -o "$work/b2.json"
expect_status 0 "second munmap report"
run compare "$work/b.json" "$work/b2.json"
expect_status 0 "compare flush reports"
for k in 64k 128k 192k 256k; do
	expect_grep "^region=$k block=4k op=munmap$" "$out" "compare point of $k"
done
expect_grep ' munmap\.ns_per_block$' "$out" "compare times per op"
expect_grep ' munmap\.task-clock$' "$out" "compare counts per op"

# The default counts TLB flushes by reason through tracepoints (no PMU
# needed), and the flush IPIs of /proc/interrupts per op beside them.
if [ "$(id -u)" -eq 0 ] && tracefs_mount; then
	for n in 1 2; do
		run flush --tasks $n --op madvise --pages 1..64:x2 -i 2 --ops 20 -o "$work/t$n.json"
		expect_status 0 "flush with the default set, $n tasks"
		expect_grep '^  \[1\] tlb_flush$' "$out" "the flush set's tracepoints, $n tasks"
	done
	python3 - "$work/t1.json" "$work/t2.json" <<'PY' && ok || fail "flush reasons and IPIs"
import json, sys
irq = open("/proc/interrupts").read()
for path in sys.argv[1:]:
    d = json.load(open(path))
    tasks = d["flush"]["tasks"]
    for r in d["results"]:
        ph = r["phases"][0]
        c = ph["counters"]
        assert c["tlb_flush"]["supported"] and c["tlb_flush"]["mean"] >= 1, c["tlb_flush"]
        # One task: no other CPU runs a thread of this mm, so none of its
        # threads takes a remote shootdown (an IPI may still be sent to a
        # CPU the mm ran on before: remote_ipi_send is not 0).
        if tasks == 1:
            assert c["flush.remote"]["mean"] == 0, (path, r["params"], c["flush.remote"])
        for row in ("TLB", "CAL"):
            if f" {row}:" in irq:
                assert f"irq.{row}" in ph["kernel"], (row, ph.get("kernel"))
PY
	expect_grep '^IPIs per op, system-wide' "$out" "IPI table"
else
	echo "tracefs not readable here: the default set's counts are not checked" >&2
fi

finish
