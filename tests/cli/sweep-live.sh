#!/bin/sh
# SPDX-License-Identifier: MIT
# memtlb sweep on this machine: points in the report, SIGINT/SIGTERM keep
# the finished points and restore tunables, knees recomputed from a report.
. "$(dirname "$0")/lib.sh"

report="$work/sweep.json"

# 64m..192m:64m: three points, each in the report and in the table.
run sweep --region 64m..192m:64m -i 2 --passes 2 --backing anon -e minor-faults -o "$report"
expect_status 0 "sweep 64m..192m:64m"
n=$(grep -c '"blocks"' "$report")
[ "$n" -eq 3 ] && ok || fail "sweep: $n points in the report, expected 3"
expect_grep '^64m ' "$out" "row 64m"
expect_grep '^192m ' "$out" "row 192m"
expect_grep '^knee: ' "$out" "knee line"
expect_grep 'read_1 per region' "$out" "default phase with 2 passes"
expect_grep '3 points, largest region 192.0 MiB; memory guard' "$err" "up-front summary"

# Loaded back: the same rows, another phase, without rerunning.
run sweep --from "$report" --phase write_0
expect_status 0 "sweep --from"
expect_grep '^128m +[0-9.]+ +[0-9.]+ +[0-9.]+ +1\.000' "$out" "write_0 faults/block 1.000"
run sweep --from "$report" --format csv
expect_status 0 "sweep --from --format csv"
n=$(grep -c '^0,"block=4k",' "$out")
[ "$n" -eq 3 ] && ok || fail "csv: $n rows, expected 3"

# A grid: --vary backing x two regions = 4 points, two series.
run sweep --region 16m..32m:16m --vary backing=shared,anon -i 1 --passes 1 -e minor-faults \
	-o "$report"
expect_status 0 "sweep --vary backing"
n=$(grep -c '"backing": "anon"' "$report")
[ "$n" -eq 2 ] && ok || fail "grid: $n anon points, expected 2"
expect_grep '^block=4k backing=shared$' "$out" "series title shared"
expect_grep '^block=4k backing=anon$' "$out" "series title anon"

# Interrupted: a fixture tunable tree, a quick first point, then a long one.
root="$work/root"
thp=$root/sys/kernel/mm/transparent_hugepage
mkdir -p "$thp"
echo "always [madvise] never" >"$thp/enabled"
for sig in INT TERM; do
	rm -f "$report"
	MEMTLB_SYSROOT=$root "$MEMTLB" sweep --region 16m --passes 1 -e minor-faults \
		--vary sysfs:/sys/kernel/mm/transparent_hugepage/enabled=always,never \
		--vary iterations=1,100000 -o "$report" >"$work/out" 2>"$work/err" &
	pid=$!
	i=0
	while [ ! -s "$report" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	sleep 0.3
	kill -$sig $pid
	wait $pid
	status=$?
	want=130
	[ $sig = TERM ] && want=143
	[ $status -eq $want ] && ok || fail "SIG$sig: exit $status, expected $want"
	n=$(grep -c '"blocks"' "$report")
	[ "$n" -eq 1 ] && ok || fail "SIG$sig: $n points in the report, expected 1"
	grep -q '"sysfs:/sys/kernel/mm/transparent_hugepage/enabled": "always"' "$report" &&
		ok || fail "SIG$sig: tunable value not recorded"
	[ "$(cat "$thp/enabled")" = madvise ] && ok ||
		fail "SIG$sig: tunable left at '$(cat "$thp/enabled")'"
	expect_grep "interrupted by .* after 1 of 4 points" "$work/err" "SIG$sig message"
	run sweep --from "$report"
	expect_status 0 "SIG$sig: report loads"
done

# A study: a tunable's shorthand (debugfs's, a fixture here) at one region,
# printed again in run --vary's layout, a column per value; restored.
mkdir -p "$root/sys/kernel/debug"
echo 65536 >"$root/sys/kernel/debug/fault_around_bytes"
MEMTLB_SYSROOT=$root "$MEMTLB" sweep --region 4m --backing file --read-first --passes 1 -i 2 \
	-e minor-faults --vary fault_around_bytes=4096,16384 --phase read_first \
	>"$out" 2>"$err"
status=$?
expect_status 0 "a study of a shorthand"
expect_grep '^study: read_first of each point, a column per value' "$out" "the study block"
expect_grep '^ +fault_around_bytes=4096 +fault_around_bytes=16384$' "$out" "a column per value"
expect_grep '^minor-faults +[0-9,.]+ \+- [0-9.]+% +[0-9,.]+ \+- [0-9.]+% +[-+][0-9.]+%' "$out" \
	"counts per column, the change to the first"
expect_grep '^read_first seconds +[0-9.]+ ' "$out" "the phase's time"
[ "$(cat "$root/sys/kernel/debug/fault_around_bytes")" = 65536 ] && ok ||
	fail "study: fault_around_bytes left at $(cat "$root/sys/kernel/debug/fault_around_bytes")"
# at two regions it is a sweep, not a study
MEMTLB_SYSROOT=$root "$MEMTLB" sweep --region 4m..8m --passes 1 -i 1 -e minor-faults \
	--vary fault_around_bytes=4096,16384 >"$out" 2>"$err"
expect_no_grep '^study: ' "$out" "two regions: no study block"

# A tunable that cannot be written: refused before anything runs.
chmod 0444 "$thp/enabled"
MEMTLB_SYSROOT=$root "$MEMTLB" sweep --region 16m -i 1 --passes 1 \
	--vary sysfs:/sys/kernel/mm/transparent_hugepage/enabled=always -o "$report.ro" \
	>"$work/out" 2>"$work/err"
status=$?
expect_status 2 "read-only tunable"
expect_grep 'cannot write' "$work/err" "read-only tunable message"
[ ! -e "$report.ro" ] && ok || fail "read-only tunable: report written"

# Without privilege (run as nobody when we can): refused up front.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null &&
	[ -w /sys/kernel/mm/transparent_hugepage/enabled ]; then
	setpriv --reuid=65534 --regid=65534 --clear-groups "$MEMTLB" sweep --region 16m \
		-i 1 --passes 1 --vary sysfs:/sys/kernel/mm/transparent_hugepage/enabled=always \
		>"$work/out" 2>"$work/err"
	status=$?
	expect_status 2 "unprivileged tunable sweep"
	expect_grep 'permission denied' "$work/err" "unprivileged message"
fi

# The real THP switch: always, madvise; the original comes back.
f=/sys/kernel/mm/transparent_hugepage/enabled
if [ "$(id -u)" -eq 0 ] && [ -w $f ]; then
	before=$(cat $f)
	run sweep --region 16m -i 1 --passes 1 --backing anon -e minor-faults \
		--vary sysfs:$f=always,madvise -o "$report"
	expect_status 0 "THP sweep"
	[ "$(cat $f)" = "$before" ] && ok || fail "THP: '$(cat $f)', was '$before'"
	n=$(grep -c '"sysfs:/sys/kernel/mm/transparent_hugepage/enabled"' "$report")
	[ "$n" -eq 2 ] && ok || fail "THP: $n points record the tunable, expected 2"
	# a value not among its choices: refused before anything runs; by its
	# shorthand too, which takes the machine lock as the path does
	for key in sysfs:$f thp; do
		run sweep --region 16m -i 1 --passes 1 --vary $key=always,bogus -o "$report.bad"
		expect_status 2 "$key: a value not among its choices"
		expect_grep "^memtlb: --vary: $key: bogus: not one of its choices \\(always madvise never\\)\$" \
			"$err" "$key: says which value and the choices"
		[ ! -e "$report.bad" ] && ok || fail "$key: bad value: a report written"
		[ "$(cat $f)" = "$before" ] && ok || fail "$key after error: '$(cat $f)', was '$before'"
	done
	# a value the kernel refuses (no choices to check it by): exit 1, restored
	p=/proc/sys/vm/percpu_pagelist_high_fraction
	if [ -w $p ]; then
		pbefore=$(cat $p)
		run sweep --region 16m -i 1 --passes 1 --vary "pcp_high_fraction=$pbefore,bogus"
		expect_status 1 "a value the kernel refuses"
		[ "$(cat $p)" = "$pbefore" ] && ok || fail "pcp after error: '$(cat $p)', was '$pbefore'"
	fi
else
	echo "skip: THP tunable sweep needs root and a writable $f"
fi

# Interrupted in its first point: nothing measured, said so, 130 or 143;
# never "stdout: Invalid argument" and exit 1 for an empty table.
for sig in INT TERM; do
	"$MEMTLB" sweep --region 1g..2g -i 3 --passes 1 -e minor-faults >"$out" 2>"$err" &
	pid=$!
	sleep 0.5
	kill -$sig $pid
	wait $pid
	status=$?
	want=$([ $sig = INT ] && echo 130 || echo 143)
	expect_status $want "sweep: SIG$sig in the first point"
	expect_no_grep 'Invalid argument' "$err" "sweep: SIG$sig: no write error"
	expect_grep '^memtlb: sweep: interrupted by ' "$err" "sweep: SIG$sig said"
done

finish
