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
expect_grep '^memtlb run: /bin/true: 1 run$' "$out" "header names the command"
expect_grep '^minor-faults +[0-9]' "$out" "minor-faults counted"
expect_grep 'standard error of the mean' "$out" "spread columns are labelled"

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

# Children of the command are counted (inherit).
run run -e minor-faults --format json -- sh -c "\"$touch_pages\" $pages"
expect_status 0 "run through sh -c"
json=$work/out
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
expect_grep 'FAILED: exit status 3' "$out" "table marks the failure"
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

# The child killed before it is released to exec: memtlb says so (exit 1),
# never dies of SIGPIPE (141). A FIFO as the replay file holds memtlb between
# the fork and the go byte: the backend opens it after the fork.
fifo="$work/replay.fifo"
mkfifo "$fifo"
printf 'minor-faults: 5\n' >"$work/replay.txt"
MEMTLB_BACKEND="replay:$fifo" "$MEMTLB" run -e minor-faults -- /bin/true \
	>"$work/out" 2>"$work/err" &
mpid=$!
cat "$work/replay.txt" >"$fifo"	# the check before the run
child=
for _ in $(seq 100); do
	child=$(pgrep -P "$mpid" | head -1)
	[ -n "$child" ] && break
	sleep 0.05
done
[ -n "$child" ] && kill -KILL "$child"
sleep 0.2
cat "$work/replay.txt" >"$fifo"	# the backend's open, after the fork
wait "$mpid"
status=$?
err="$work/err"
expect_status 1 "child killed before exec"
expect_grep 'ended before it could exec \(status 137\)' "$err" "says how the child ended"

run run --format csv -e minor-faults -- /bin/true
expect_status 0 "csv"
expect_grep '^0,command,minor-faults,count,' "$out" "csv row for the event"

finish
