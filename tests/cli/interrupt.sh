#!/bin/sh
# SPDX-License-Identifier: MIT
# SIGINT and SIGTERM at random moments of stat, sweep and run: exit status
# 130 or 143 (0 only when the run had already finished), no temp or backing
# file left, kernel tunables back to their values, and a report on disk is
# always complete, valid JSON with the finished results.
. "$(dirname "$0")/lib.sh"

# A background job of a non-interactive shell starts with SIGINT ignored,
# and memtlb keeps an inherited SIG_IGN: give it the default back.
DFL="env --default-signal=INT"
report="$work/r.json"
root="$work/root"
thp="$root/sys/kernel/mm/transparent_hugepage/enabled"
mkdir -p "$(dirname "$thp")"
echo "always [madvise] never" >"$thp"
interrupted=0
trials=0

# check_trial WHAT STATUS WANT: the invariants after one interrupted run.
check_trial() {
	trials=$((trials + 1))
	if [ "$2" -eq "$3" ]; then
		interrupted=$((interrupted + 1))
		ok
	elif [ "$2" -eq 0 ]; then ok; else
		fail "$1: exit $2, expected $3 (or 0)"; sed 's/^/  stderr: /' "$work/err" >&2
	fi
	leftovers=$(ls -A "$work" | grep -v -e '^root$' -e '^r\.json$' -e '^err$' -e '^out$')
	if [ -n "$leftovers" ]; then
		fail "$1: left behind: $leftovers"
		(cd "$work" && rm -rf $leftovers)
	else ok; fi
	if [ -e "$report" ]; then
		if python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); assert r["results"]' \
			"$report" 2>/dev/null; then ok; else fail "$1: damaged report"; fi
		rm -f "$report"
	fi
	# sysfs shows the choice in brackets; the fixture keeps what was written
	case $(cat "$thp") in
	"always [madvise] never" | madvise) ok ;;
	*)
		fail "$1: tunable left at '$(cat "$thp")'"
		;;
	esac
	echo "always [madvise] never" >"$thp"
}

# span ARGS...: how long one whole run takes here: the random moments then
# cover the run from its start to its end on any machine, fast or loaded,
# instead of a fixed window that a fast one outruns. The least of three
# runs: one slowed by a neighbour (a shared CI machine) stretched the
# window past most runs, and too few trials were interrupted. Four fifths
# of it, not 1.2 times it: a neighbour that slowed all three (the valgrind
# test beside it) left 27 of 56 interrupted, and the whole span 29, about
# the half the test needs; a trial slower than the span still gets
# moments near its end.
span() {
	best=
	for k in 1 2 3; do
		t0=$(date +%s.%N)
		MEMTLB_SYSROOT=$root "$MEMTLB" "$@" >/dev/null 2>&1
		t1=$(date +%s.%N)
		rm -f "$report"
		best=$(awk -v a="$t0" -v b="$t1" -v m="$best" \
			'BEGIN { d = b - a; if (m != "" && m + 0 < d) d = m; printf "%.3f", d }')
	done
	awk -v d="$best" 'BEGIN { printf "%.3f", d * 0.8 }'
}

# trial WHAT MAXDELAY [SIG] ARGS...: start memtlb, signal it after a random
# delay; SIGINT and SIGTERM alternate unless SIG (HUP) is given
trial() {
	what=$1 max=$2
	shift 2
	trials_seed=$((trials + 1))
	sig=INT want=130
	[ $((trials_seed % 2)) -eq 0 ] && sig=TERM want=143
	if [ "$1" = HUP ]; then
		sig=HUP want=129
		shift
	fi
	delay=$(awk -v s="$trials_seed" -v m="$max" 'BEGIN { srand(s); printf "%.3f", rand() * m }')
	MEMTLB_SYSROOT=$root $DFL "$MEMTLB" "$@" >"$work/out" 2>"$work/err" &
	pid=$!
	sleep "$delay"
	kill -s "$sig" "$pid" 2>/dev/null
	wait "$pid"
	check_trial "$what SIG$sig after ${delay}s" $? $want
}

max=$(span stat --region 32m -i 3 --passes 2 -e minor-faults -o "$report")
i=0
while [ $i -lt 16 ]; do
	i=$((i + 1))
	trial "stat" "$max" stat --region 32m -i 3 --passes 2 -e minor-faults -o "$report"
done
max=$(span stat --region 32m -i 3 --passes 2 -e minor-faults --backing "file:$work" -o "$report")
i=0
while [ $i -lt 12 ]; do
	i=$((i + 1))
	trial "stat file" "$max" stat --region 32m -i 3 --passes 2 -e minor-faults --backing "file:$work" \
		-o "$report"
done
max=$(span sweep --region 8m..32m:8m -i 2 --passes 1 -e minor-faults -o "$report" \
	--vary sysfs:/sys/kernel/mm/transparent_hugepage/enabled=always,never)
i=0
while [ $i -lt 12 ]; do
	i=$((i + 1))
	trial "sweep" "$max" sweep --region 8m..32m:8m -i 2 --passes 1 -e minor-faults -o "$report" \
		--vary sysfs:/sys/kernel/mm/transparent_hugepage/enabled=always,never
done

# A dropped ssh session during a tunable sweep: SIGHUP restores it too.
i=0
while [ $i -lt 4 ]; do
	i=$((i + 1))
	trial "sweep" "$max" HUP sweep --region 8m..32m:8m -i 2 --passes 1 -e minor-faults -o "$report" \
		--vary sysfs:/sys/kernel/mm/transparent_hugepage/enabled=always,never
done

# run: a terminal's Ctrl-C reaches the whole process group; so do we.
i=0
while [ $i -lt 12 ]; do
	i=$((i + 1))
	trials_seed=$((trials + 1))
	sig=INT want=130
	[ $((i % 2)) -eq 0 ] && sig=TERM want=143
	delay=$(awk -v s="$trials_seed" 'BEGIN { srand(s); printf "%.3f", rand() * 0.3 }')
	setsid $DFL "$MEMTLB" run -r 4 -e minor-faults -o "$report" -- sleep 0.1 \
		>"$work/out" 2>"$work/err" &
	pid=$!
	sleep "$delay"
	kill -s "$sig" -- "-$pid" 2>/dev/null
	wait "$pid"
	check_trial "run SIG$sig after ${delay}s" $? $want
done

echo "$interrupted of $trials trials were interrupted, the rest had finished"
[ "$interrupted" -ge $((trials / 2)) ] && ok || fail "too few trials were interrupted"
finish
