#!/bin/sh
# SPDX-License-Identifier: MIT
# SIGINT and SIGTERM at random moments of a run: exit status 130 or 143 (or
# 0 when the run had finished), no temp file left, and a report on disk is
# always complete, valid JSON.
. "$(dirname "$0")/lib.sh"

trials=${INTERRUPT_TRIALS:-50}
report="$work/r.json"
i=0
while [ "$i" -lt "$trials" ]; do
	i=$((i + 1))
	sig=INT want=130
	[ $((i % 2)) -eq 0 ] && sig=TERM want=143
	# a delay from 0 to ~0.3 s, spread over the run's phases
	delay=$(awk -v s="$i" 'BEGIN { srand(s); printf "%.3f", rand() * 0.3 }')
	"$MEMTLB" stat --region 32m -i 3 -p 2 -o "$report" >/dev/null 2>"$work/err" &
	pid=$!
	sleep "$delay"
	kill -s "$sig" "$pid" 2>/dev/null
	wait "$pid"
	status=$?
	if [ "$status" -ne "$want" ] && [ "$status" -ne 0 ]; then
		fail "trial $i: SIG$sig after ${delay}s: exit $status"
	else ok; fi
	if ls -A "$work" | grep -q '^\.memtlb-'; then
		fail "trial $i: temp file left"; rm -f "$work"/.memtlb-*
	else ok; fi
	if [ -e "$report" ]; then
		if python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); assert r["results"]' \
			"$report" 2>/dev/null; then ok; else fail "trial $i: damaged report"; fi
		rm -f "$report"
	fi
done
finish
