#!/bin/sh
# SPDX-License-Identifier: MIT
# Signals, crashes and other memtlb processes: every signal whose default
# action ends memtlb restores the tunables it changed; after SIGKILL the
# journal in /run/memtlb (under MEMTLB_SYSROOT) lets the next memtlb restore
# them; two memtlb changing the same tunable are serialised; a hugetlb sweep
# grows the pool at more points than the registry has slots.
. "$(dirname "$0")/lib.sh"

root="$work/root"
thp="$root/sys/kernel/mm/transparent_hugepage/enabled"
journal="$root/run/memtlb/journal"
orig="always [madvise] never"
mkdir -p "$(dirname "$thp")"
echo "$orig" >"$thp"
# Core-dumping signals (ABRT, SYS, TRAP, XCPU, ...) dump nothing here.
ulimit -c 0
long="sweep --region 8m..128m:8m -i 2 -p 1 -e minor-faults
	--vary sysfs:/sys/kernel/mm/transparent_hugepage/enabled=always,never"

# changed PID: wait (10 s at most) until the sweep has written the tunable.
changed() {
	n=0
	while [ "$(cat "$thp")" = "$orig" ] && [ $n -lt 200 ]; do
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.05
		n=$((n + 1))
	done
	[ "$(cat "$thp")" != "$orig" ]
}

# signum NAME: the number of SIGNAME ("" when this system has none); the
# shell's kill -l turns numbers into names only.
signum() {
	n=1
	while [ $n -lt 32 ]; do
		[ "$(kill -l $n 2>/dev/null)" = "$1" ] && { echo $n; return; }
		n=$((n + 1))
	done
}

# restored WHAT: the fixture holds the original choice again (a plain file
# keeps what was written: "madvise")
restored() {
	case $(cat "$thp") in
	"$orig" | madvise) ok ;;
	*) fail "$1: tunable left at '$(cat "$thp")'" ;;
	esac
	echo "$orig" >"$thp"
}

# Signals beyond INT, TERM, HUP, QUIT, PIPE, BUS, SEGV: each ends memtlb
# with its own status, the tunable restored and no journal left.
for sig in USR1 USR2 ALRM VTALRM PROF XCPU XFSZ ABRT PWR SYS TRAP STKFLT; do
	num=$(signum "$sig")
	[ -n "$num" ] || continue
	MEMTLB_SYSROOT=$root "$MEMTLB" $long >/dev/null 2>"$work/err" &
	pid=$!
	if changed $pid; then ok; else fail "SIG$sig: the sweep never set the tunable"; fi
	kill -s "$sig" "$pid"
	wait "$pid"
	status=$?
	expect_status $((128 + num)) "SIG$sig ends memtlb"
	restored "SIG$sig"
	if [ -e "$journal" ]; then fail "SIG$sig: journal left"; rm -f "$journal"; else ok; fi
done

# SIGKILL: nothing runs in memtlb, the journal lists the original value.
MEMTLB_SYSROOT=$root "$MEMTLB" $long >/dev/null 2>"$work/err" &
pid=$!
changed $pid
kill -s KILL "$pid"
wait "$pid"
expect_grep "^restore .*/sys/kernel/mm/transparent_hugepage/enabled madvise$" "$journal" \
	"journal after SIGKILL"
# The next sweep restores it before it saves anything, and says so.
out="$work/out" err="$work/err"
MEMTLB_SYSROOT=$root "$MEMTLB" sweep --region 8m -i 1 -p 1 -e minor-faults -o "$work/r.json" \
	--vary sysfs:/sys/kernel/mm/transparent_hugepage/enabled=never >"$out" 2>"$err"
status=$?
expect_status 0 "sweep after a killed one"
expect_grep "^memtlb: warning: memtlb PID $pid ended without restoring .*restored .*enabled to 'madvise'" \
	"$err" "the dead one's change named"
expect_grep "^hint: " "$err" "with a hint"
restored "sweep after SIGKILL: its original is the first one's"
if [ -e "$journal" ]; then fail "journal left after the replay"; rm -f "$journal"; else ok; fi

# Two at once: the second waits for the first, says so, and the original
# survives both (it saved the first one's value before).
MEMTLB_SYSROOT=$root "$MEMTLB" $long >/dev/null 2>"$work/err1" &
first=$!
changed $first
MEMTLB_SYSROOT=$root "$MEMTLB" sweep --region 8m -i 1 -p 1 -e minor-faults \
	--vary sysfs:/sys/kernel/mm/transparent_hugepage/enabled=never >/dev/null 2>"$work/err2" &
second=$!
wait $first
status=$?
expect_status 0 "first of two sweeps"
wait $second
status=$?
expect_status 0 "second of two sweeps"
expect_grep "^memtlb: waiting for memtlb PID $first " "$work/err2" "the second one waits, saying so"
restored "two sweeps at once"

# The registry's slots: a hugetlb sweep growing the pool at 35 points (each
# a restore of the same file) used to fail with ENOSPC at the 33rd. The real
# pool, as root only, given back at the end.
pool=/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
if [ "$(id -u)" -eq 0 ] && [ -w "$pool" ] && [ -z "${MEMTLB_SYSROOT:-}" ]; then
	before=$(cat "$pool")
	run sweep --pages hugetlb --reserve --region 2m..70m:2m -i 1 -p 1 -e minor-faults
	if grep -q 'kernel found only' "$err"; then
		echo "skip: the kernel could not grow the pool"
	else
		expect_status 0 "hugetlb sweep over 35 growing points"
	fi
	if [ "$(cat "$pool")" = "$before" ]; then ok; else
		fail "pool left at $(cat "$pool"), was $before"; echo "$before" >"$pool"; fi
else
	echo "skip: the hugetlb pool case needs root and a 2 MiB pool"
fi
finish
