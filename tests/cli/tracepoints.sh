#!/bin/sh
# SPDX-License-Identifier: MIT
# Tracepoints as events: resolution, filters and the not-mounted path on the
# fixture tracefs (MEMTLB_SYSROOT); not permitted as nobody; a live count on
# this machine's tracefs where it is mounted (root).
. "$(dirname "$0")/lib.sh"

data=${MEMTLB_TEST_DATA:?}
fx=$data/sysroot-tracefs

# expect_80 FILE WHAT: every line fits 80 columns
expect_80() {
	if awk 'length > 80 { bad = 1 } END { exit bad }' "$1"; then ok; else
		fail "$2: a line past 80 columns"; sed 's/^/  /' "$1" >&2; fi
}

# A value the format file does not have: bad input before the run, the
# kernel's names as the hint (wrapped, each line a hint).
MEMTLB_SYSROOT=$fx run stat --region 64k -i 1 --passes 1 -e 'tlb:tlb_flush/reason=remote/' -o "$work/r.json"
expect_status 2 "filter value not in the format file"
[ "$(grep -c '^memtlb: ' "$err")" -eq 1 ] && ok || fail "one error line"
if grep -v -e '^memtlb: ' -e '^hint: ' "$err" | grep -q .; then fail "only hint lines after it"; else ok; fi
expect_grep '^memtlb: -e: tlb:tlb_flush/reason=remote/: no reason remote' "$err" "says what"
expect_grep '^hint: .*remote_shootdown' "$err" "hint names remote_shootdown"
expect_grep '^hint: .*remote_wrong_cpu' "$err" "hint names remote_wrong_cpu"
expect_80 "$err" "bad filter value"
[ -s "$out" ] && fail "stdout written" || ok
[ -e "$work/r.json" ] && fail "report written" || ok

MEMTLB_SYSROOT=$fx usage_case "no such field" stat --region 64k -i 1 --passes 1 -e 'tlb:tlb_flush/nope=1/'
expect_grep '^hint: its number fields: reason pages' "$err" "hint names the fields"
MEMTLB_SYSROOT=$fx usage_case "unclosed filter" stat --region 64k -i 1 --passes 1 -e 'tlb:tlb_flush/reason=1'
MEMTLB_SYSROOT=$fx usage_case "no such tracepoint" stat --region 64k -i 1 --passes 1 -e tlb:nope
expect_grep 'no tracepoint tlb:nope' "$err" "names it"
expect_80 "$err" "no such tracepoint"

# Not mounted (an empty tree): not supported, the mount command as the
# reason; the run goes on, and the JSON says unsupported, never 0.
mkdir -p "$work/empty/sys/kernel/tracing"
MEMTLB_SYSROOT=$work/empty run stat --region 64k -i 1 --passes 1 -v \
	-e 'tlb:tlb_flush,tlb:tlb_flush/reason=remote_shootdown/,minor-faults' -o "$work/nm.json"
expect_status 0 "not mounted: the run goes on"
expect_grep '^write_0 .* not supported +not supported +16 ' "$out" "both not supported"
# The note wraps at 80 columns: read it joined.
tr '\n' ' ' <"$out" | sed 's/  */ /g' >"$work/joined"
expect_grep 'tracefs not mounted: mount -t tracefs nodev /sys/kernel/tracing' "$work/joined" \
	"the reason names the mount command"
if python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
ev = r["results"][0]["events"]
sys.exit(not (ev[0]["supported"] is False and ev[1]["supported"] is False and ev[2]["supported"]))' \
	"$work/nm.json"; then ok; else fail "JSON: tracepoints unsupported"; fi
MEMTLB_SYSROOT=$work/empty run list
expect_status 0 "list, not mounted"
expect_grep 'not supported: tracefs is not mounted' "$out" "list says not mounted"
expect_grep 'mount -t tracefs nodev /sys/kernel/tracing' "$out" "list names the mount command"

# The fixture's tracepoints in memtlb list, values and all, in 80 columns.
MEMTLB_SYSROOT=$fx run list
expect_status 0 "list, fixture tracefs"
expect_grep '^  tlb:tlb_flush ' "$out" "tlb:tlb_flush listed"
expect_grep '^  exceptions:page_fault_user ' "$out" "page_fault_user listed"
expect_grep 'reason=flush_on_task_switch\|remote_shootdown' "$out" "reason values listed"
sed -n '/^TLB tracepoints/,/^$/p' "$out" >"$work/tp"
expect_80 "$work/tp" "list's tracepoints"

# The replay backend stands in for the kernel: a tracepoint's name keeps
# its colons there; its counts go through JSON and compare like any event.
printf 'tlb:tlb_flush: 70\ntlb:tlb_flush/reason=remote_shootdown/: 61\nminor-faults: 16\n' \
	>"$work/replay.txt"
for side in a b; do
	MEMTLB_SYSROOT=$fx MEMTLB_BACKEND=replay:$work/replay.txt run stat --region 64k -i 2 --passes 1 \
		--wide -e 'tlb:tlb_flush,tlb:tlb_flush/reason=remote_shootdown/,minor-faults' \
		-o "$work/$side.json"
	expect_status 0 "replay $side"
done
expect_grep '^munmap .* 70 +61 +16 ' "$out" "replayed counts per phase"
run compare "$work/a.json" "$work/b.json"
expect_status 0 "compare two tracepoint reports"
expect_grep ' 61 ~ 0% +\+0\.0% \+-0\.0 +61 ~ 0% +munmap\.tlb:tlb_flush/reason=remote_shootdown/$' "$out" \
	"compare shows the filtered count"

# debugfs values in sysinfo: read from the fixture, absent without debugfs.
# (Lockdown's EPERM cannot be staged in a tree; test-tracefs checks it.)
MEMTLB_SYSROOT=$fx run sysinfo --json
expect_status 0 "sysinfo --json, fixture"
if python3 -c 'import json, sys
s = json.load(open(sys.argv[1])); t = s["tunables"]
sys.exit(not (t["fault_around_bytes"] == 65536 and t["fault_around_bytes_state"] == "read" and
    t["tlb_single_page_flush_ceiling"] == 33 and
    t["tlb_single_page_flush_ceiling_state"] == "read" and s["lockdown"] == "integrity"))' "$out"
then ok; else fail "sysinfo: debugfs values and lockdown"; sed 's/^/  /' "$out" >&2; fi
MEMTLB_SYSROOT=$work/empty run sysinfo --json
if python3 -c 'import json, sys
t = json.load(open(sys.argv[1]))["tunables"]
sys.exit(not (t["tlb_single_page_flush_ceiling"] is None and
    t["tlb_single_page_flush_ceiling_state"] == "absent"))' "$out"
then ok; else fail "sysinfo: absent ceiling"; sed 's/^/  /' "$out" >&2; fi
MEMTLB_SYSROOT=$work/empty run sysinfo
expect_grep '^tlb_single_page_flush_ceiling +unreadable \(absent' "$out" "sysinfo text: absent"
MEMTLB_SYSROOT=$fx run sysinfo
expect_grep '^tlb_single_page_flush_ceiling +33$' "$out" "sysinfo text: read"
expect_grep '^kernel lockdown +integrity$' "$out" "sysinfo text: lockdown mode"

# Not permitted: nobody, at paranoid 2 or more, on a tracefs it can read
# (the fixture: the real one is root's). The tracepoint is refused, never
# opened user-only to count 0.
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
if [ "$(id -u)" -eq 0 ] && [ "$paranoid" -ge 2 ] && command -v setpriv >/dev/null &&
   id nobody >/dev/null 2>&1 &&
   setpriv --reuid=nobody --regid=nogroup --clear-groups test -x "$MEMTLB"; then
	chmod 0777 "$work"
	MEMTLB_SYSROOT=$fx setpriv --reuid=nobody --regid=nogroup --clear-groups "$MEMTLB" stat \
		--region 64k --backing anon -i 1 --passes 1 -v -e tlb:tlb_flush,minor-faults >"$out" 2>"$err"
	status=$?
	expect_status 0 "nobody: the run goes on"
	expect_grep '^write_0 .* not supported ' "$out" "nobody: tracepoint not supported"
	expect_grep 'tlb:tlb_flush: not supported: not permitted by kernel.perf_event_paranoid' \
		"$out" "nobody: the reason names the sysctl"
	# The real tracefs is root's: not readable is not supported too.
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$MEMTLB" stat \
		--region 64k --backing anon -i 1 --passes 1 -v -e tlb:tlb_flush >"$out" 2>"$err"
	status=$?
	if [ -d /sys/kernel/tracing/events ]; then
		expect_status 0 "nobody, real tracefs"
		expect_grep 'tlb:tlb_flush: not supported: tracefs unreadable here' "$out" \
			"nobody: tracefs unreadable"
	fi
else
	echo "not root, paranoid < 2 or no setpriv/nobody: not-permitted case skipped"
fi

# Live: this machine's tracefs (root). Each flush has one reason, so the
# six filtered counts add up to the unfiltered one, phase by phase: a
# filter not applied would count every flush six times.
if [ "$(id -u)" -ne 0 ] || ! tracefs_mount; then
	echo "tracefs cannot be mounted or not root: live count skipped"
	finish
fi
r=tlb:tlb_flush/reason=
run stat --region 4m -i 2 --passes 1 --tasks 2 --format csv -e "tlb:tlb_flush,${r}0/,${r}1/,${r}2/,${r}3/,${r}4/,${r}5/"
expect_status 0 "live: stat with tlb:tlb_flush"
if python3 -c 'import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["metric"].startswith("tlb:")]
by = {}
for r in rows:
    by.setdefault(r["phase"], {})[r["metric"]] = float(r["mean"])
assert by and all(len(m) == 7 for m in by.values()), by
for p, m in by.items():
    total = m.pop("tlb:tlb_flush")
    assert abs(sum(m.values()) - total) < 1e-6, (p, total, m)
assert by["munmap"] is not None' "$out"; then ok; else
	fail "live: reasons do not add up to the total"; sed 's/^/  /' "$out" >&2; fi
expect_grep '^0,munmap,tlb:tlb_flush,count,[0-9.e+]+,' "$out" "live: munmap's count is a number"
finish
