#!/bin/sh
# SPDX-License-Identifier: MIT
# memtlb run --vary: a command run under each value of a tunable, a column
# each. On a fake tree (MEMTLB_SYSROOT): bad input is exit 2 with the
# tunable untouched; the runs take the order asked (the command logs the
# value it sees); a run that fails is its column's, said; the value is
# restored after the runs, after SIGINT, SIGTERM and SIGHUP, and after
# SIGKILL by the next memtlb; the JSON reads back to the same table. Then,
# as root where the kernel has it, a real mTHP control before and after.
. "$(dirname "$0")/lib.sh"

root="$work/root"
thp="$root/sys/kernel/mm/transparent_hugepage/enabled"
journal="$root/run/memtlb/journal"
orig="always [madvise] never"
log="$work/log"
mkdir -p "$(dirname "$thp")"
echo "$orig" >"$thp"
ulimit -c 0

# Every memtlb below on the fake tree, until the real machine's part.
MEMTLB_SYSROOT=$root
export MEMTLB_SYSROOT

# restored WHAT: the fixture holds its original choice again (a plain
# file keeps what was written back: "madvise")
restored() {
	case $(cat "$thp") in
	"$orig" | madvise) ok ;;
	*) fail "$1: tunable left at '$(cat "$thp")'" ;;
	esac
	echo "$orig" >"$thp"
	if [ -e "$journal" ]; then fail "$1: journal left"; rm -f "$journal"; else ok; fi
}

# Bad input: one error line, exit 2, the tunable as it was.
for args in "--vary nosuch=1,2" "--vary thp=" "--vary thp=always,,never" \
	"--vary thp=always --vary thp=never" \
	"--vary thp=always --vary sysfs:/sys/kernel/mm/transparent_hugepage/enabled=never" \
	"--vary thp=sometimes,never" "--vary sysfs:/sys/kernel/mm/nothere=1" \
	"--vary sysfs:/etc/passwd=x" "--vary debugfs:../x=1" \
	"--vary fault_around_bytes=4096,65536" "--vary mthp:3k=never" \
	"--vary thp=always --order sideways" "--order random" "--vary thp=always -p 1" \
	"--vary thp=always -I 100"; do
	# shellcheck disable=SC2086
	usage_case "run $args" run $args -- true
	restored "run $args"
done
usage_case "run --vary without a command" run --vary thp=always,never
restored "no command"
run run --vary fault_around_bytes=4096 -- true
expect_grep "debugfs is not mounted" "$err" "an unmounted debugfs said, never mounted"
expect_grep "^hint: mount -t debugfs" "$err" "with the command that mounts it"

# Interleaved (the default): run 1 of every column, then run 2.
: >"$log"
run run --vary thp=always,never -r 3 -e task-clock -- sh -c "echo \$(cat $thp) >>$log"
expect_status 0 "interleaved"
[ "$(tr '\n' ' ' <"$log")" = "always never always never always never " ] && ok ||
	fail "interleaved order: $(tr '\n' ' ' <"$log")"
restored "interleaved"
expect_grep '^ +thp=always +thp=never$' "$err" "a column per value"
expect_grep '^task-clock \(msec\) ' "$err" "a row per event"
expect_grep '^seconds time elapsed ' "$err" "and the wall time"
expect_grep 'was madvise, restored' "$err" "the original named"

# Sequential: every run of the first column first.
: >"$log"
run run --vary thp=always,never,madvise -r 2 --order sequential -e task-clock -- \
	sh -c "echo \$(cat $thp) >>$log"
expect_status 0 "sequential"
[ "$(tr '\n' ' ' <"$log")" = "always always never never madvise madvise " ] && ok ||
	fail "sequential order: $(tr '\n' ' ' <"$log")"
restored "sequential"

# Random: each round every column once, the same order for one seed.
for try in 1 2; do
	: >"$log"
	run run --vary thp=always,never,madvise -r 4 --order random --seed 5 -e task-clock \
		-- sh -c "echo \$(cat $thp) >>$log"
	expect_status 0 "random $try"
	cp "$log" "$work/random$try"
done
cmp -s "$work/random1" "$work/random2" && ok || fail "random: not the same for one seed"
for round in 1 2 3 4; do
	[ "$(sed -n "$((3 * round - 2)),$((3 * round))p" "$log" | sort | tr '\n' ' ')" = \
		"always madvise never " ] && ok || fail "random: round $round not each column once"
done
restored "random"

# Two tunables: the product, the first key outermost.
other="$root/proc/sys/vm/swappiness"
mkdir -p "$(dirname "$other")"
echo 60 >"$other"
: >"$log"
run run --vary thp=always,never --vary sysctl:vm.swappiness=10,60 --order sequential \
	-e task-clock -- sh -c "echo \$(cat $thp) \$(cat $other) >>$log"
expect_status 0 "two tunables"
[ "$(tr '\n' ' ' <"$log")" = "always 10 always 60 never 10 never 60 " ] && ok ||
	fail "the product: $(tr '\n' ' ' <"$log")"
[ "$(cat "$other")" = 60 ] && ok || fail "swappiness left at $(cat "$other")"
restored "two tunables"

# A run that fails is its column's: counted apart, said, the study goes on.
run run --vary thp=always,never -r 2 -e task-clock -o "$work/fail.json" -- \
	sh -c "grep -q never $thp && exit 3; exit 0"
expect_status 3 "a failing column: the command's status"
expect_grep '^FAILED: thp=never: 2 of 2 runs exited non-zero \(last: exit status 3\)' "$err" \
	"the failed column said"
expect_grep '^runs counted +2 of 2 +0 of 2$' "$err" "its runs left out"
restored "failing"
python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
v = r["run"]["vary"]
assert v["order"] == "interleaved" and v["repeat"] == 2, v
assert v["tunables"][0]["key"] == "thp" and v["tunables"][0]["original"] == "madvise", v
assert [c["failed"] for c in v["columns"]] == [0, 2], v
assert [x["params"]["thp"] for x in r["results"]] == ["always", "never"]
assert len(r["results"][0]["phases"][0]["time_ns"]["samples"]) == 2' "$work/fail.json" &&
	ok || fail "the JSON's columns"

# Read back: the same table, and CSV.
run run --vary thp=always,never -r 3 -e task-clock -o "$work/r.json" -- true
expect_status 0 "a study to read back"
cp "$err" "$work/live"
run run --from "$work/r.json"
expect_status 0 "run --from a study"
cmp -s "$err" "$work/live" && ok || fail "run --from: not the table the run printed"
run run --from "$work/r.json" --format csv
expect_grep '^column,values,metric,unit,mean,stddev,cv,n,failed,change' "$err" "CSV header"
expect_grep '^1,thp=never,time,ns,[0-9]' "$err" "CSV: a line per column and metric"
restored "read back"

# sig NAME: a long study stopped by SIGNAME: the runs done reported, restored.
sig() {
	setsid "$MEMTLB" run --vary thp=always,never -r 500 \
		-e task-clock -- sleep 0.05 >/dev/null 2>"$work/err" &
	pid=$!
	n=0
	while [ "$(cat "$thp")" = "$orig" ] && [ $n -lt 200 ]; do sleep 0.05; n=$((n + 1)); done
	sleep 0.3
	# SIGINT to the group, as ^C at a terminal; the others to memtlb alone
	if [ "$1" = INT ]; then kill -s INT -- "-$pid"; else kill -s "$1" "$pid"; fi
	wait "$pid"
	status=$?
	err="$work/err" out=/dev/null
	expect_status "$2" "SIG$1"
	expect_grep "^memtlb: run: interrupted by .* after [0-9]+ of 1000 runs" "$err" \
		"SIG$1: the runs done said"
	expect_grep '^seconds time elapsed' "$err" "SIG$1: and reported"
	restored "SIG$1"
}
sig INT 130
sig TERM 143
sig HUP 129

# SIGKILL: the journal lists the original; the next memtlb puts it back.
"$MEMTLB" run --vary thp=always,never -r 500 -e task-clock -- \
	sleep 0.05 >/dev/null 2>&1 &
pid=$!
n=0
while [ "$(cat "$thp")" = "$orig" ] && [ $n -lt 200 ]; do sleep 0.05; n=$((n + 1)); done
kill -s KILL "$pid"
wait "$pid"
expect_grep "^restore .*/sys/kernel/mm/transparent_hugepage/enabled madvise$" "$journal" \
	"SIGKILL: the journal"
run run -e task-clock -- true
expect_status 0 "the next memtlb run"
expect_grep "^memtlb: warning: memtlb PID $pid ended without restoring" "$err" \
	"the dead one's change named"
restored "after SIGKILL"

# The real machine, as root where the kernel offers a 64 kB mTHP size.
unset MEMTLB_SYSROOT
control=/sys/kernel/mm/transparent_hugepage/hugepages-64kB/enabled
if [ "$(id -u)" -eq 0 ] && [ -w "$control" ]; then
	before=$(cat "$control")
	run run --vary mthp:64k=always,never -r 2 -e page-faults -- true
	expect_status 0 "mthp:64k on this machine"
	[ "$(cat "$control")" = "$before" ] && ok ||
		fail "mthp:64k: left at '$(cat "$control")', was '$before'"
	expect_grep '^ +mthp:64k=always +mthp:64k=never$' "$err" "the shorthand's columns"
else
	echo "no writable 64 kB mTHP control or not root: the real machine skipped"
fi
finish
