#!/bin/sh
# SPDX-License-Identifier: MIT
# Ctrl-C during stat (issue 15): the iterations done are printed and -o is
# written, marked interrupted; the exit status is 128 + the signal, as for
# sweep and run. No timing is checked: the signal comes once the first
# iterations are surely done (a run of 100000 iterations of 64 KiB takes
# seconds; one iteration, well under a millisecond, after the counters
# are open), and the counts say what happened.
. "$(dirname "$0")/lib.sh"

# A background job of a non-interactive shell starts with SIGINT ignored.
DFL="env --default-signal=INT"
report="$work/r.json"

for sig in INT TERM; do
	want=130
	[ $sig = TERM ] && want=143
	$DFL "$MEMTLB" stat --region 64k -i 100000 --passes 1 -e minor-faults -o "$report" \
		>"$work/out" 2>"$work/err" &
	pid=$!
	# the counters are opened just before the first iteration: wait for them
	n=0
	while ! ls -l /proc/$pid/fd 2>/dev/null | grep -q 'perf_event' && [ $n -lt 300 ]; do
		sleep 0.05
		n=$((n + 1))
	done
	sleep 0.5
	kill -s $sig "$pid"
	wait "$pid"
	status=$?
	expect_status $want "SIG$sig"
	expect_grep "^memtlb: stat: interrupted by .* after [0-9]+ of 100000 iterations; report kept in $report\$" \
		"$work/err" "SIG$sig: says how many iterations were done"
	done=$(sed -n 's/.* after \([0-9]*\) of .*/\1/p' "$work/err")
	expect_grep '^write_0 ' "$work/out" "SIG$sig: the table of the iterations done"
	if python3 - "$report" "$done" <<'PY'; then ok; else fail "SIG$sig: report"; fi
import json, sys
r = json.load(open(sys.argv[1]))
done = int(sys.argv[2])
assert r["interrupted"] is True, "not marked interrupted"
assert r["config"]["iterations"] == 100000, "iterations asked"
assert 0 < done < 100000, done
for p in r["results"][0]["phases"]:
    assert p["time_ns"]["n"] == done, (p["name"], p["time_ns"]["n"], done)
    assert len(p["time_ns"]["samples"]) == done
    assert p["counters"]["minor-faults"]["n"] == done
PY
	rm -f "$report"
done

# A run that was not interrupted is not marked.
run stat --region 64k -i 2 --passes 1 -e minor-faults -o "$report"
expect_status 0 "whole run"
if grep -q '"interrupted"' "$report"; then fail "whole run marked interrupted"; else ok; fi

finish
