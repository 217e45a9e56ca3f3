#!/bin/sh
# SPDX-License-Identifier: MIT
# memtlb list and --events: the shipped sets, on this machine and forced PMUs.
. "$(dirname "$0")/lib.sh"

# An event's lines (name, encoding, type, countable) joined into one: the
# checks below read one event per line.
joined() {
	awk '/^      / { sub(/^ +/, " "); printf "%s", $0; next } { printf "\n%s", $0 } END { print "" }' \
		"$out" >"$work/joined"
	j=$work/joined
}

run list
expect_status 0 "list"
joined
# Every line fits 80 columns (an encoding is one word: it may not).
if awk 'length > 80 && !/::/ { bad = 1 } END { exit bad }' "$out"; then ok; else
	fail "list: a line past 80 columns"; awk 'length > 80' "$out" >&2; fi
for set in default tlb walk faults; do
	expect_grep "^$set: " "$out" "set $set listed"
done
# Software events count on any kernel that has perf events.
expect_grep 'PERF_COUNT_SW_PAGE_FAULTS_MIN.*type 1 \(software\) config 0x5 .*countable: yes' "$j" \
	"minor-faults countable"
if [ ! -e /sys/bus/event_source/devices/cpu ] && [ ! -e /sys/bus/event_source/devices/cpu_core ]; then
	# This machine has no PMU driver: hardware events say so, never 0.
	if grep -q '^  for PMU (none): ' "$out"; then
		# Nor does libpfm4 know its CPU: every set falls back to perf's names.
		if grep '^  for PMU ' "$out" | grep -qv 'for PMU (none): the generic (perf names) section'; then
			fail "no core PMU, yet a set used another section"; else ok; fi
		expect_grep 'type 0 \(hardware\) .*countable: not supported: no PMU driver in this kernel' \
			"$j" "generic hardware events not supported, with the reason"
		if grep 'countable: yes' "$j" | grep -Eq 'type (0|3|4) '; then
			fail "a hardware event claims to count without a PMU driver"; else ok; fi
	else
		expect_grep 'type 4 \(raw\) .*countable: not supported: no PMU driver in this kernel' \
			"$j" "hardware events not supported, with the reason"
	fi
	if grep 'countable: yes' "$j" | grep -q 'type 4'; then
		fail "a raw event claims to count without a PMU driver"; else ok; fi
	# A forced core PMU gives raw events whatever libpfm4 detects: they say so too.
	LIBPFM_FORCE_PMU=icl run list walk
	expect_status 0 "list with a forced PMU"
	joined
	expect_grep 'for PMU icl: its own section' "$out" "the forced PMU's section"
	expect_grep 'type 4 \(raw\) .*countable: not supported: no PMU driver in this kernel' "$j" \
		"forced raw events not supported, with the reason"
	if grep 'countable: yes' "$j" | grep -q 'type 4'; then
		fail "a forced raw event claims to count without a PMU driver"; else ok; fi
fi

run list faults
expect_status 0 "list one set"
expect_grep '^faults: ' "$out" "the set"
if grep -q '^default: ' "$out"; then fail "list SET shows other sets"; else ok; fi

# Encodings for another CPU, through libpfm4.
run list --pmu icl default
expect_status 0 "list --pmu icl"
joined
expect_grep 'for PMU icl: its own section' "$out" "uses icl's section"
expect_grep 'icl::DTLB_LOAD_MISSES:WALK_COMPLETED.*type 4 \(raw\) config 0xe08 .*role dtlb-miss' "$j" \
	"icl walk-completed encoding"
run list --pmu amd64_fam19h_zen4 walk
joined
expect_grep 'config 0xf045 .*role dtlb-miss' "$j" "zen4 L2 dTLB misses"
run list --pmu amd64_fam10h_barcelona default
expect_status 0 "a PMU no set names"
expect_grep 'the generic \(perf names\) section' "$out" "falls back to perf names"
run list --pmu nosuchpmu
expect_status 2 "unknown --pmu"
expect_one_error_line "unknown --pmu"

run list nosuchset
expect_status 2 "unknown set"
expect_one_error_line "unknown set"

# Another directory: --events-dir, MEMTLB_EVENTS_PATH; errors name file:line.
mkdir "$work/ev"
printf 'set mine\ndescription my faults\npmu any\nevent minor-faults minor-faults faults\n' \
	>"$work/ev/mine.events"
run list --events-dir "$work/ev"
expect_status 0 "--events-dir"
expect_grep '^mine: my faults' "$out" "set from --events-dir"
MEMTLB_EVENTS_PATH=$work/ev run list mine
expect_status 0 "MEMTLB_EVENTS_PATH"
MEMTLB_EVENTS_PATH=$work/ev run stat --region 64k -i 1 --passes 1 --events mine
expect_status 0 "stat --events from MEMTLB_EVENTS_PATH"
expect_grep 'minor-faults' "$out" "stat counts the set's events"
printf 'set bad\npmu any\nevent minor-faults nosuchrole x\n' >"$work/ev/zbad.events"
run list --events-dir "$work/ev"
expect_status 2 "bad events file"
expect_one_error_line "bad events file"
expect_grep "zbad.events:3: event minor-faults: unknown role 'nosuchrole'" "$err" "file:line"

# --events for stat and run.
run stat --region 64k -i 1 --passes 1 --events faults -o "$work/r.json"
expect_status 0 "stat --events faults"
expect_grep '"event_set": "faults"' "$work/r.json" "report names the set"
expect_grep 'page-faults' "$out" "set events in the table"
expect_grep '"meaning": "all page faults, read from getrusage at phase boundaries"' "$work/r.json" \
	"report carries what each event measures"
# what each event measures: with -v (a perf user knows the generic ones)
if grep -q '^  page-faults: all page faults' "$out"; then fail "meanings without -v"; else ok; fi
run stat --from "$work/r.json" -v
expect_grep '^  page-faults: all page faults, read from getrusage at phase boundaries$' \
	"$out" "-v: the table says what each event measures, and how a set's faults are read"
run run --events faults -- /bin/true
expect_status 0 "run --events faults"
expect_grep 'event set faults' "$err" "run names the set"
run stat --region 64k --events nosuchset
expect_status 2 "stat unknown set"
expect_one_error_line "stat unknown set"
run stat --region 64k -e minor-faults --events faults
expect_status 2 "-e and --events"
expect_one_error_line "-e and --events"

finish
