#!/bin/sh
# SPDX-License-Identifier: MIT
# Tables that fit: stat, run and sweep within 80 columns without a PMU (and
# at COLUMNS=80 with one, as stacked tables), events that cannot count named
# once in a note, never a column of "not supported"; --wide brings every
# column back; time units in the headers, thousands separators, CSV counts
# as integers. Counts come from the replay backend; live times are checked
# for their shape only.
. "$(dirname "$0")/lib.sh"

# within N FILE WHAT: no line longer than N columns, none ending in a space
within() {
	if awk -v n="$1" 'length($0) > n || / $/ { bad = 1; print "  " length($0) ": " $0 }
		END { exit bad }' "$2" >&2; then ok; else fail "$3: a line over $1 columns"; fi
}
# no_cell FILE WHAT: no "not supported" but in the note that names the events
no_cell() {
	if grep -v '^not supported here: ' "$1" | grep -q 'not supported'; then
		fail "$2: a not supported cell"
	else ok; fi
}

nopmu="$MEMTLB_TEST_DATA/sysroot-nopmu"
cat >"$work/nopmu.txt" <<'EOF'
# A machine without a PMU driver: the hardware events fail with ENOENT.
cycles: unsupported ENOENT
instructions: unsupported ENOENT
dTLB-loads: unsupported ENOENT
dTLB-load-misses: unsupported ENOENT
minor-faults: 0 262144 0 0
major-faults: 0 0 0 0
EOF
events=cycles,instructions,dTLB-loads,dTLB-load-misses,minor-faults,major-faults
tlb="$MEMTLB_TEST_DATA/replay/tlb.txt"

# Without a PMU: 80 columns even where the output is not a terminal (100).
for cols in 80 ""; do
	COLUMNS=$cols MEMTLB_SYSROOT=$nopmu MEMTLB_BACKEND=replay:$work/nopmu.txt \
		run stat --region 1g -i 1 --passes 1 -e "$events"
	expect_status 0 "no PMU, COLUMNS='$cols': stat"
	within 80 "$out" "no PMU, COLUMNS='$cols': stat"
	no_cell "$out" "no PMU, COLUMNS='$cols': stat"
done
expect_grep '^not supported here: cycles, instructions, dTLB-loads, dTLB-load-misses \(' \
	"$out" "no PMU: the events named once"
expect_grep 'ENOENT\)$' "$out" "no PMU: with the errno"
head='^phase +ns/block +mean \((ns|us|ms|s)\) +cv \(%\) +minor-faults +major-faults'
expect_grep "$head +faults/block\$" "$out" \
	"no PMU: ns/block beside the phase, the time's unit in its header"
expect_grep '^write_0 +[0-9.]+ +[0-9.]+ +[0-9.-]+ +262,144 +0 +1\.000$' "$out" \
	"no PMU: a count with thousands separators"

MEMTLB_SYSROOT=$nopmu MEMTLB_BACKEND=replay:$work/nopmu.txt \
	run stat --region 1g -i 1 --passes 1 -e "$events" --wide
expect_grep '^write_0 .* not supported +not supported +not supported +not supported +262,144 ' \
	"$out" "--wide: the columns of not supported are back"
MEMTLB_SYSROOT=$nopmu MEMTLB_BACKEND=replay:$work/nopmu.txt \
	run stat --region 1g -i 1 --passes 1 -e "$events" -v
expect_grep '^cycles: not supported: ' "$out" "-v: why, per event"
expect_grep '^write_0 .* not supported ' "$out" "-v: as --wide"

# With a PMU: at 80 columns the counted columns are stacked tables sharing
# the phase column, every value kept; at the default 100 as well.
for cols in 80 ""; do
	COLUMNS=$cols MEMTLB_BACKEND=replay:$tlb run stat --region 1m -i 2 --passes 1 -e "$events"
	expect_status 0 "PMU, COLUMNS='$cols': stat"
	within "${cols:-100}" "$out" "PMU, COLUMNS='$cols': stat"
	no_cell "$out" "PMU, COLUMNS='$cols': stat"
	for v in '524,288 \(50\.0%\)' '1,000,000' '5,242 \(50\.0%\)' ' 1\.00%' ' 20\.477'; do
		expect_grep "^read_0 .*$v" "$out" "PMU, COLUMNS='$cols': read_0 keeps $v"
	done
	expect_grep '^not supported here: major-faults \(not permitted' "$out" \
		"PMU, COLUMNS='$cols': the refused event named"
	expect_grep '^not counted .*: instructions$' "$out" \
		"PMU, COLUMNS='$cols': the event never counted named"
done
n=$(grep -c '^phase ' "$out")
[ "$n" -ge 3 ] && ok || fail "PMU at 100: stacked tables sharing the phase column ($n)"
COLUMNS=80 MEMTLB_BACKEND=replay:$tlb run stat --region 1m -i 2 --passes 1 -e "$events" --wide
expect_grep '^read_0 .* not counted +524,288 \(50\.0%\) .* not supported +1\.00% ' "$out" \
	"--wide: one row per phase whatever the width"
n=$(grep -c '^phase ' "$out")
[ "$n" -eq 2 ] && ok || fail "--wide: one phase table (and the kernel's), not $n"

# CSV: counts as integers, every value in full, the unit of each value given.
MEMTLB_BACKEND=replay:$tlb run stat --region 1m -i 2 --passes 1 -e "$events" --format csv
expect_grep '^point,phase,metric,unit,mean,stddev,cv,running,status$' "$out" "csv header"
expect_grep '^0,read_0,dTLB-loads,count,524288,0,0,0\.5,ok$' "$out" "csv: a count as an integer"
expect_grep '^0,write_0,cycles,count,2000000,' "$out" "csv: no 2e+06"
expect_grep '^0,read_0,time,ns,[0-9.]+,' "$out" "csv: time in ns"
if grep -q 'e+' "$out"; then fail "csv: an exponent"; else ok; fi

# memtlb run: the same, on standard error.
for cols in 80 ""; do
	COLUMNS=$cols MEMTLB_BACKEND=replay:$tlb run run -r 2 -e "$events" -- /bin/true
	expect_status 0 "PMU, COLUMNS='$cols': run"
	within 80 "$err" "PMU, COLUMNS='$cols': run"
	no_cell "$err" "PMU, COLUMNS='$cols': run"
done
expect_grep '^wall time \((ns|us|ms|s)\) ' "$err" "run: the time's unit"
expect_grep '^cycles +4,000 ' "$err" "run: thousands separators (fresh counters each run: each replays the first delta)"
expect_grep '^not supported here: major-faults' "$err" "run: the refused event named once"
MEMTLB_BACKEND=replay:$tlb run run -r 2 -e "$events" --wide -- /bin/true
expect_grep '^major-faults +not supported$' "$err" "run --wide: its row is back"
expect_grep '^instructions +not counted$' "$err" "run --wide: the one not counted too"
MEMTLB_SYSROOT=$nopmu MEMTLB_BACKEND=replay:$work/nopmu.txt run run -e "$events" -- /bin/true
within 80 "$err" "no PMU: run"
no_cell "$err" "no PMU: run"

# memtlb sweep: live software events, shapes only.
COLUMNS=80 run sweep --region 64k..256k -i 2 --passes 1 -e minor-faults,major-faults
expect_status 0 "sweep"
within 80 "$out" "sweep"
within 80 "$err" "sweep's stderr"
expect_grep '^region +ns/block +mean \((ns|us|ms|s)\) +cv \(%\) +faults/block +(x reach +)?knee$' "$out" \
	"sweep: ns/block beside the region, the time's unit"
run sweep --region 64k..256k -i 2 --passes 1 -e minor-faults --format csv
expect_grep '^series,params,region_bytes,phase,mean_ns,cv,ns_per_block,' "$out" "sweep csv: units"
expect_grep '^0,"block=4k",131072,read_0,[0-9.]+,' "$out" "sweep csv: the region in bytes"
if grep -q 'e+' "$out"; then fail "sweep csv: an exponent"; else ok; fi

# memtlb compare: the table, the explanation and every note within 80
# columns, for two inputs and for three (a table per later input); --wide
# alone may pass them.
C=$MEMTLB_TEST_DATA/compare
for args in "$C/base.json $C/regression.json" "--explain $C/base.json $C/regression.json" \
	    "$C/base.json $C/regression.json $C/improvement.json" \
	    "$C/base.json $C/hwcounters.json"; do
	# shellcheck disable=SC2086 # the files, a word each
	COLUMNS=80 run compare $args
	# the header lines name the inputs' paths, as long as the checkout's
	grep -v '^\(base\|new\[[0-9]\]\): ' "$out" >"$work/cmp"
	within 80 "$work/cmp" "compare ${args##*/}"
done

finish
