#!/bin/sh
# SPDX-License-Identifier: MIT
# memtlb run: real software counters on real commands, exit statuses.
. "$(dirname "$0")/lib.sh"

touch_pages="${MEMTLB_TEST_BUILD:?}/touch-pages"
report="$work/run.json"
pages=25600	# 100 MiB of 4 KiB pages

# json_get FILE EXPR: a Python expression on the loaded report, printed
json_get() {
	python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# in_range VALUE LOW HIGH WHAT
in_range() {
	if python3 -c 'import sys; v, lo, hi = map(float, sys.argv[1:4]); sys.exit(not lo <= v <= hi)' "$1" "$2" "$3"; then ok; else
		fail "$4: $1 not in [$2, $3]"; fi
}

run run -- /bin/true
expect_status 0 "run /bin/true"
expect_grep '^memtlb run: /bin/true: 1 run, event set default$' "$err" "header names the command (stderr, as perf stat)"
expect_grep '^minor-faults +[0-9]' "$err" "minor-faults counted"
expect_grep 'standard error of the mean' "$err" "spread columns are labelled"
[ -s "$out" ] && fail "run: memtlb's table on stdout, the command's own" || ok

# N pages touched: N minor faults plus the program's own start-up ones.
run run -r 3 -e minor-faults,major-faults,page-faults -o "$report" -- "$touch_pages" $pages
expect_status 0 "run touch-pages"
mean=$(json_get "$report" 'r["results"][0]["phases"][0]["counters"]["minor-faults"]["mean"]')
in_range "$mean" $pages $((pages + pages / 100)) "minor-faults of $pages pages within 1%"
expect_grep '"command_line": ".*touch-pages 25600"' "$report" "report has the command line"
in_range "$(json_get "$report" 'r["run"]["runs"]')" 3 3 "three runs recorded"
in_range "$(json_get "$report" 'r["results"][0]["phases"][0]["time_ns"]["n"]')" 3 3 "three time samples"

# The difference to an empty run is the touched pages alone.
run run -r 3 -e minor-faults -o "$work/zero.json" -- "$touch_pages" 0
zero=$(json_get "$work/zero.json" 'r["results"][0]["phases"][0]["counters"]["minor-faults"]["mean"]')
in_range "$(python3 -c "print($mean - $zero)")" $((pages - pages / 100)) $((pages + pages / 100)) \
	"touched pages' faults within 1% of $pages"

# Every repetition counted, in the command, a forked child and a thread:
# one counter set inherited run after run counted 4 of 10 on 6.18 and
# dropped the rest without a word. Each run's count is the touched pages
# plus the start-up's own faults (the same helper touching 0 pages). The
# start-up jitters by a fault or two, by more under ASan (its shadow pages
# fault on first use: 4.5 off in one CI run), so the tolerance is 1% of
# the touched pages plus the empty runs' own spread; a run dropped or
# counted twice is off by 1000.
for mode in main process thread; do
	run run -r 10 -e minor-faults -o "$work/r10.json" -- "$touch_pages" 1000 0 $mode
	expect_status 0 "run -r 10, $mode"
	run run -r 10 -e minor-faults -o "$work/r10-0.json" -- "$touch_pages" 0 0 $mode
	python3 -c '
import json, statistics, sys
def samples(f):
    c = json.load(open(f))["results"][0]["phases"][0]["counters"]["minor-faults"]
    return c["n"], c["samples"]
n, s = samples(sys.argv[1])
n0, s0 = samples(sys.argv[2])
assert n == 10 and n0 == 10, (n, n0)
assert None not in s and None not in s0, (s, s0)
base = statistics.median(s0)
tol = 10 + max(s0) - min(s0)
assert all(abs(v - 1000 - base) <= tol for v in s), (s, base, tol)' "$work/r10.json" "$work/r10-0.json" &&
		ok || fail "run -r 10, $mode: every run counted, 1000 faults each"
	if grep -q ' n=[0-9]* of 10' "$err"; then fail "run -r 10, $mode: a run not counted"; else ok; fi
done

# A run whose counter did not run is said, not dropped: three runs of ten
# made not counted in a report, read back.
python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
c = r["results"][0]["phases"][0]["counters"]["minor-faults"]
c["n"] = 7
for i in (2, 5, 9):
    c["samples"][i] = None
json.dump(r, open(sys.argv[2], "w"))' "$work/r10.json" "$work/r7.json"
run report "$work/r7.json"
expect_status 0 "report of a run with 3 of 10 not counted"
expect_grep '^minor-faults: n=7 of 10 runs counted' "$out" "report: n=7 of 10 said"

# The command ends with memtlb, whatever signal kills memtlb: before, any
# fatal signal memtlb does not handle left it running, orphaned.
for sig in KILL SEGV ABRT BUS USR1 ALRM PIPE XCPU; do
	"$MEMTLB" run -e minor-faults -- sleep 300 >/dev/null 2>&1 &
	pid=$!
	i=0
	until child=$(pgrep -P $pid sleep); do
		sleep 0.05; i=$((i + 1)); [ $i -lt 100 ] || break
	done
	kill -$sig $pid
	wait $pid 2>/dev/null
	i=0
	while [ -n "$child" ] && kill -0 "$child" 2>/dev/null && [ $i -lt 40 ]; do
		sleep 0.05; i=$((i + 1))
	done
	if [ -z "$child" ]; then fail "SIG$sig: the command never started"
	elif kill -0 "$child" 2>/dev/null; then fail "SIG$sig: the command outlived memtlb"; kill "$child"
	else ok; fi
done

# task-clock is a time: msec, as perf prints it, never a count of ns; the
# CSV's unit says ns, the value it holds.
run run -r 2 -e task-clock -- "$touch_pages" 1000
expect_grep '^task-clock \(msec\) +[0-9]+\.[0-9]+ ' "$err" "run: task-clock in msec"
expect_no_grep '^task-clock +[0-9]{1,3},[0-9]{3}' "$err" "run: task-clock not a count of ns"
run stat --region 1m -i 2 --passes 1 -e task-clock --format csv
expect_grep '^0,write_0,task-clock,ns,[0-9]' "$out" "stat csv: task-clock's unit is ns"

# Children of the command are counted (inherit).
run run -e minor-faults -o "$work/child.json" -- sh -c "\"$touch_pages\" $pages"
expect_status 0 "run through sh -c"
json=$work/child.json
child=$(json_get "$json" 'r["results"][0]["phases"][0]["counters"]["minor-faults"]["mean"]')
in_range "$child" $pages $((pages * 2)) "a child's faults are inherited"

# Counter fds are close-on-exec: the command has none of them, and memtlb's
# own (the command's parent's, while they count) carry O_CLOEXEC.
run run -e minor-faults,task-clock -- sh -c '
	n=0 leak=0
	for f in /proc/$PPID/fd/*; do
		[ "$(readlink "$f")" = "anon_inode:[perf_event]" ] || continue
		n=$((n + 1))
		fl=$(sed -n "s/^flags:[[:space:]]*//p" "/proc/$PPID/fdinfo/${f##*/}")
		[ $((0$fl & 02000000)) -ne 0 ] || leak=$((leak + 1))
	done
	echo "memtlb: $n counter fds, $leak not close-on-exec"
	echo "command: $(ls -l /proc/self/fd | grep -c "perf_event") counter fds"'
expect_status 0 "run a command that looks at the fds"
expect_grep '^memtlb: [1-9][0-9]* counter fds, 0 not close-on-exec$' "$out" "counter fds close-on-exec"
expect_grep '^command: 0 counter fds$' "$out" "the command inherits no counter fd"

# The command's exit status is memtlb's, and the report says it failed.
run run -r 5 -e minor-faults -o "$report" -- "$touch_pages" 0 3
expect_status 3 "exit status propagated"
expect_grep '^memtlb: run: .*exit status 3' "$err" "failure said on stderr"
expect_grep 'FAILED: exit status 3' "$err" "table marks the failure"
in_range "$(json_get "$report" 'r["run"]["exit_status"]')" 3 3 "report has the status"
expect_grep '"failed": true' "$report" "report marked failed"
in_range "$(json_get "$report" 'r["run"]["runs"]')" 1 1 "stops after the failing run"

run run -e minor-faults -- sh -c 'kill -TERM $$'
expect_status 143 "killed by SIGTERM: 128 + 15"

# Commands that cannot run, and bad options: exit 2, one line.
run run -- /nonexistent/command
expect_status 2 "missing command"
expect_one_error_line "missing command"
expect_grep 'command not found' "$err" "says not found"
run run -- no-such-command-memtlb
expect_status 2 "command not in PATH"
expect_one_error_line "command not in PATH"
run run
expect_status 2 "no command"
expect_one_error_line "no command"
run run -r 0 -- /bin/true
expect_status 2 "zero repeats"
expect_one_error_line "zero repeats"
run run -e NO_SUCH_EVENT -- /bin/true
expect_status 2 "unknown event"
expect_one_error_line "unknown event"
run run -o /nonexistent-dir/r.json -- /bin/true
expect_status 2 "unwritable -o"

# The counters are open before the command starts: while memtlb is held
# in perf_event_open (a preloaded one that waits for a file), there is no
# child yet, so nothing of the command runs uncounted; released, the run
# goes on and ends with the command's status.
hold="$work/hold"
rm -f "$hold"
MEMTLB_TEST_HOLD="$hold" LD_PRELOAD="$MEMTLB_TEST_BUILD/libhold-open.so" \
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
	"$MEMTLB" run -e minor-faults -- /bin/true >"$work/out" 2>"$work/err" &
mpid=$!
sleep 0.5
child=$(pgrep -P "$mpid" | head -1)
[ -z "$child" ] && ok || fail "a child started before the counters were open: $child"
: >"$hold"
wait "$mpid"
status=$?
err="$work/err"
expect_status 0 "released: the run goes on"
expect_grep '^minor-faults +[1-9]' "$err" "released: the command's faults counted"

# No shell is ever used, not even execvp's fallback for a file the kernel
# refuses (ENOEXEC): a script without #! and a damaged ELF header are exec
# format errors (exit 2), and the script never runs.
mkdir "$work/bin"
printf 'touch "%s/ran"\n' "$work" >"$work/bin/no-shebang"
printf '\177ELF\002\001\001garbage' >"$work/bin/bad-elf"
chmod +x "$work/bin/no-shebang" "$work/bin/bad-elf"
for f in "$work/bin/no-shebang" "$work/bin/bad-elf" no-shebang; do
	PATH="$work/bin:$PATH" run run -e minor-faults -- "$f"
	expect_status 2 "run $f: cannot run"
	expect_grep "^memtlb: run: $f: exec format error$" "$err" "run $f: says exec format error"
	if [ -e "$work/ran" ]; then fail "run $f: ran under a shell"; rm -f "$work/ran"; else ok; fi
done
# The PATH search still skips what cannot be executed, as execvp does.
mkdir "$work/bin2"
printf '#!/bin/sh\nexit 7\n' >"$work/bin2/seven"
printf '#!/bin/sh\nexit 9\n' >"$work/bin/seven"
chmod +x "$work/bin2/seven"
PATH="$work/bin:$work/bin2:$PATH" run run -e minor-faults -- seven
expect_status 7 "PATH: the non-executable one is skipped"

# SIGTERM or SIGHUP to memtlb alone (not its process group): the command
# gets it too instead of running on orphaned; memtlb waits for it, reports
# the runs done, writes -o and exits 128 + the signal.
for sig in TERM HUP; do
	rm -f "$report"
	"$MEMTLB" run -r 3 -e minor-faults -o "$report" -- sleep 30 >"$work/out" 2>"$work/err" &
	mpid=$!
	child=
	for _ in $(seq 100); do
		child=$(pgrep -P "$mpid" sleep | head -1)
		[ -n "$child" ] && break
		sleep 0.05
	done
	sleep 0.1
	kill -s "$sig" "$mpid"
	wait "$mpid"
	status=$?
	err="$work/err"
	[ "$sig" = TERM ] && want=143 || want=129
	expect_status $want "SIG$sig to memtlb run alone"
	if [ -n "$child" ] && kill -0 "$child" 2>/dev/null; then
		fail "SIG$sig: the command was left running"; kill "$child"
	else ok; fi
	expect_grep "^memtlb: run: interrupted by .* after 1 of 3 runs" "$err" "SIG$sig: said"
	if [ -e "$report" ]; then
		in_range "$(json_get "$report" 'r["run"]["runs"]')" 1 1 "SIG$sig: -o has the run"
	else
		fail "SIG$sig: -o not written"
	fi
done

run run --format csv -e minor-faults -- /bin/true
expect_status 0 "csv"
expect_grep '^0,command,minor-faults,count,' "$err" "csv row for the event"
# -o - is the JSON report on stdout; the table stays on stderr
run run -e minor-faults -o - -- /bin/true
expect_status 0 "run -o -"
if python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); assert r["run"]["runs"] == 1' "$out"; then
	ok; else fail "run -o -: the JSON report on stdout"; fi
expect_grep '^memtlb run: /bin/true: 1 run$' "$err" "run -o -: the table on stderr"

finish
