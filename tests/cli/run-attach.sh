#!/bin/sh
# SPDX-License-Identifier: MIT
# memtlb run -I MS (perf stat -I's lines while the command runs) and -p PID
# (a running process, until it ends, Ctrl-C or --duration). The counts are
# checked, not the times: how many lines come depends on the machine.
. "$(dirname "$0")/lib.sh"

# -I: a header, then "time counts unit event" lines, one per event each time;
# the command's own output stays on stdout.
run run -I 100 -e minor-faults,task-clock -- sh -c 'echo hi; sleep 0.5'
expect_status 0 "run -I"
expect_grep '^#           time             counts unit  events$' "$err" "-I header"
expect_grep '^ +[0-9]+\.[0-9]{9} +[0-9,]+ +minor-faults$' "$err" "-I minor-faults lines"
expect_grep '^ +[0-9]+\.[0-9]{9} +[0-9.]+ msec +task-clock$' "$err" "-I task-clock in msec"
if [ "$(cat "$out")" = hi ]; then ok; else fail "-I: stdout is not the command's"; fi
# the intervals' minor-faults, whole; at most the run's total (the end is
# not an interval: faults after the last one are in the total only)
total=$(awk '/^minor-faults /{print $2}' "$err" | tr -d ,)
sum=$(awk '$NF == "minor-faults" && $1 ~ /^[0-9.]+$/ {gsub(",", "", $2); s += $2} END {print s + 0}' "$err")
if [ -n "$total" ] && awk -v s="$sum" -v t="$total" 'BEGIN { exit !(s <= t) }'; then ok; else
	fail "-I: intervals sum $sum above the total $total"; sed 's/^/  /' "$err" >&2
fi
# not supported stays so, never 0
run run -I 100 -e minor-faults,cycles -- sleep 0.3
expect_status 0 "run -I with cycles"
if grep -q 'cycles' "$err" && ! grep -Eq '^ +[0-9.]+ +[0-9,]+ +cycles$' "$err"; then ok; else
	fail "-I: cycles printed as a count on a machine without a PMU"
fi
# -I with -x: perf stat -I -x's fields, time;count;unit;event;running
run run -I 100 -x';' -e minor-faults,cycles -- sleep 0.3
expect_status 0 "run -I -x;"
expect_grep '^[0-9]+\.[0-9]{9};[0-9]+;;minor-faults;[0-9.]+$' "$err" "-I -x; count lines"
expect_grep '^[0-9]+\.[0-9]{9};<not supported>;;cycles;$' "$err" "-I -x; not supported, no share"
if grep -q '^#' "$err"; then fail "-I -x: a header"; else ok; fi
usage_case "-I too small" run -I 5 -- true
usage_case "-I not a number" run -I 1s -- true

# -p: a busy process, counted for --duration, left running.
sh -c 'while :; do :; done' &
busy=$!
# until the fork has become sh (its name is the script's before)
n=0
while [ "$(cat /proc/$busy/comm 2>/dev/null)" != sh ] && [ $n -lt 100 ]; do
	sleep 0.05
	n=$((n + 1))
done
run run -p $busy -e task-clock,minor-faults --duration 0.5 -o "$work/p.json"
expect_status 0 "run -p --duration"
expect_grep "^memtlb run: pid $busy \\(sh\\): 1 run" "$err" "-p names the process"
if kill -0 $busy 2>/dev/null; then ok; else fail "-p: the process was killed"; fi
python3 - "$work/p.json" "$busy" <<'PY' && ok || fail "-p: report"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["run"]["command_line"] == "pid %s (sh)" % sys.argv[2], r["run"]
c = r["results"][0]["phases"][0]["counters"]["task-clock"]
assert c["counted"] and c["mean"] > 0, c
PY

# -p counts every thread: here the main thread sleeps, two others spin.
python3 -c '
import threading, time
def spin():
    while True:
        pass
for i in range(2):
    threading.Thread(target=spin, daemon=True).start()
open("'"$work"'/threads", "w").close()
time.sleep(60)' &
threads=$!
n=0
while [ ! -e "$work/threads" ] && [ $n -lt 200 ]; do
	sleep 0.05
	n=$((n + 1))
done
run run -p $threads -e task-clock --duration 0.5 -o "$work/t.json"
expect_status 0 "run -p threads"
python3 - "$work/t.json" <<'PY' && ok || { fail "-p: the threads were not counted"; sed "s/^/  /" "$err" >&2; }
import json, sys
c = json.load(open(sys.argv[1]))["results"][0]["phases"][0]["counters"]["task-clock"]
assert c["counted"] and c["mean"] > 0, c
PY
kill $threads

# -p until Ctrl-C: the normal end, exit 0, the counts printed.
env --default-signal=INT "$MEMTLB" run -p $busy -e task-clock >"$work/out" 2>"$work/err" &
pid=$!
n=0
while ! ls -l /proc/$pid/fd 2>/dev/null | grep -q 'perf_event' && [ $n -lt 300 ]; do
	sleep 0.05
	n=$((n + 1))
done
kill -INT $pid
wait $pid
status=$?
expect_status 0 "run -p: Ctrl-C ends it"
expect_grep '^task-clock ' "$err" "run -p: counts after Ctrl-C"
if kill -0 $busy 2>/dev/null; then ok; else fail "-p: Ctrl-C reached the process"; fi

# -p on a process that sleeps all along: said, not "not enough counters".
sleep 5 &
idle=$!
n=0
while [ "$(cat /proc/$idle/comm 2>/dev/null)" != sleep ] && [ $n -lt 100 ]; do
	sleep 0.05
	n=$((n + 1))
done
sleep 0.1	# into its nanosleep
run run -p $idle -e task-clock --duration 0.3
expect_status 0 "run -p idle"
expect_grep "^memtlb: warning: run: pid $idle \(sleep\) did not run while it was counted" "$err" \
	"run -p idle: said"
if grep -q 'not enough free counters' "$err"; then fail "run -p idle: blamed the counters"; else ok; fi
kill $idle

# -p until the process ends.
sh -c 'sleep 0.3' &
short=$!
run run -p $short -e minor-faults
expect_status 0 "run -p until the end"
expect_grep "^memtlb run: pid $short " "$err" "run -p: reported at the end"
kill $busy
wait $busy 2>/dev/null

usage_case "-p no such process" run -p 4194303 -e minor-faults
expect_grep '^memtlb: -p: 4194303: no such process$' "$err" "says so"
usage_case "-p not a pid" run -p abc
usage_case "-p with a command" run -p $$ -- true
usage_case "-p with --repeat" run -p $$ -r 2
usage_case "--duration without -p" run --duration 1 -- true
usage_case "--duration not a number" run -p $$ --duration soon

finish
