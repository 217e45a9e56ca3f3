#!/bin/sh
# SPDX-License-Identifier: MIT
# Honest defaults (issue 15): without -e and --events, memtlb counts the
# event set "default" resolved for this CPU, exactly what --events default
# counts; -e replaces it; where no set can be read, its generic list. The
# set's CPU sections name each CPU's own events, never perf's generic names
# (dTLB-loads is L1 dTLB misses on AMD Zen, all loads on Intel).
. "$(dirname "$0")/lib.sh"

set_file=$(dirname "$0")/../../events/default.events
names() {	# FILE: the events counted, in order, and the event set
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(d["config"].get("event_set", "-"), *[e["name"] for e in d["results"][0]["events"]])' "$1"
}

run stat --region 256k -i 2 --passes 1 -o "$work/bare.json"
expect_status 0 "bare stat"
run stat --region 256k -i 2 --passes 1 --events default -o "$work/set.json"
expect_status 0 "stat --events default"
bare=$(names "$work/bare.json") set=$(names "$work/set.json")
if [ "$bare" = "$set" ]; then ok; else fail "bare stat counts '$bare', --events default '$set'"; fi
case $bare in
default\ *minor-faults\ major-faults) ok ;;
*) fail "bare stat: not the default set with its software events: $bare" ;;
esac
# the software events are counted wherever the machine has no PMU, as before
if python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
ev = {e["name"]: e for e in d["results"][0]["events"]}
assert ev["minor-faults"]["supported"] and ev["major-faults"]["supported"]
ph = {p["name"]: p for p in d["results"][0]["phases"]}
assert ph["write_0"]["counters"]["minor-faults"]["mean"] >= 64
if d["system"]["hw_counters"] is False:
    assert not any(e["supported"] for n, e in ev.items() if not n.endswith("faults")), ev
    assert "dtlb_miss_ratio" not in ph["read_0"]["derived"]' "$work/bare.json"; then ok; else
	fail "bare stat: software events not counted, or a hardware one without a PMU"; fi

# -e replaces the default set; -e beside an explicit --events is still refused.
run stat --region 256k -i 2 --passes 1 -e minor-faults -o "$work/e.json"
expect_status 0 "stat -e"
got=$(names "$work/e.json")
if [ "$got" = "- minor-faults" ]; then ok; else fail "stat -e minor-faults counts '$got'"; fi
run stat --region 256k -i 2 --passes 1 --events default -e minor-faults
expect_status 2 "--events and -e"
expect_one_error_line "--events and -e"
# run and sweep count the same default
run run -o "$work/run.json" -- /bin/true
expect_status 0 "run"
got=$(names "$work/run.json")
if [ "${got%% *}" = default ]; then ok; else fail "run: not the default set: $got"; fi

# No default set where the sets are read from: the generic list, as before
# (the set's own generic section, so the report still names the set).
mkdir "$work/empty"
run stat --region 256k -i 2 --passes 1 --events-dir "$work/empty" -o "$work/none.json"
expect_status 0 "no default set readable"
got=$(names "$work/none.json")
if [ "$got" = "default cycles instructions dTLB-loads dTLB-load-misses minor-faults major-faults" ]; then
	ok; else fail "no default set: counts '$got'"; fi

# Through the replay backend, as a PMU would count: the derived metrics of
# the default set's roles are there.
MEMTLB_BACKEND=replay:$MEMTLB_TEST_DATA/replay/tlb.txt
export MEMTLB_BACKEND
run stat --region 1m -i 2 --passes 1 --format json
unset MEMTLB_BACKEND
expect_status 0 "replay, default events"
if python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
ph = {p["name"]: p for p in d["results"][0]["phases"]}
assert d["config"]["event_set"] == "default"
assert abs(ph["read_0"]["derived"]["dtlb_miss_ratio"] - 2621 / 262144) < 1e-9, ph["read_0"]["derived"]' \
	"$out"; then ok; else fail "replay: dtlb_miss_ratio of the default set's events"; fi

# Each ratio shown is said by the events it divides, and only when shown.
MEMTLB_BACKEND=replay:$MEMTLB_TEST_DATA/replay/tlb.txt
export MEMTLB_BACKEND
run stat --region 1m -i 2 --passes 1
unset MEMTLB_BACKEND
expect_status 0 "replay, table"
expect_grep '^  dTLB miss ratio = dTLB-load-misses / dTLB-loads$' "$out" "replay: the ratio's events"
run stat --region 256k -i 2 --passes 1
if python3 -c 'import json, sys
sys.exit(json.load(open(sys.argv[1]))["system"]["hw_counters"] is not False)' "$work/bare.json"; then
	if grep -Eq '^  [^ ]+.* = .* / ' "$out"; then fail "no PMU: a ratio named that is not shown"; else ok; fi
fi

# Every CPU section of the set names that CPU's events: no perf generic name,
# whose meaning differs by CPU, outside the generic section; each section
# that this libpfm4 knows resolves, with an access and a miss event.
if awk '/^pmu / { generic = ($2 == "generic" || $2 == "any") }
	/^event / && !generic && $2 ~ /^(cycles|instructions|dTLB-loads|dTLB-load-misses)$/ {
		print FILENAME ":" FNR ": " $0; bad = 1 } END { exit bad }' "$set_file" >"$work/generic"
then ok; else fail "a CPU section counts a generic perf event"; cat "$work/generic" >&2; fi
for pmu in $(awk '/^pmu / { for (i = 2; i <= NF; i++) if ($i != "generic" && $i != "any") print $i }' \
	"$set_file"); do
	run list --pmu "$pmu" default
	[ "$status" -eq 2 ] && continue	# a PMU this libpfm4 was not built with
	expect_status 0 "list --pmu $pmu default"
	expect_grep 'role dtlb-miss$' "$out" "$pmu: a dTLB miss event"
	if grep -Eq '^  (cycles|instructions|dTLB-loads|dTLB-load-misses) ' "$out"; then
		fail "$pmu: resolves to a generic perf name"; else ok; fi
done

finish
