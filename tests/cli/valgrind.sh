#!/bin/sh
# SPDX-License-Identifier: MIT
# valgrind memcheck on stat, sweep, run, compare and report: no invalid
# access, no use of uninitialised memory, no definite leak.
. "$(dirname "$0")/lib.sh"

if ! command -v valgrind >/dev/null; then
	echo "valgrind not installed: skipped"
	exit 77
fi
if ldd "$MEMTLB" 2>/dev/null | grep -q -e libasan -e libubsan; then
	echo "a sanitizer build: memcheck cannot run it, skipped"
	exit 77
fi

data="$MEMTLB_TEST_DATA"
vg() {	# WHAT ARGS...
	what=$1
	shift
	valgrind --quiet --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite --track-origins=yes \
		"$MEMTLB" "$@" >"$work/out" 2>"$work/err"
	status=$?
	if [ "$status" -eq 99 ] || grep -q '^==[0-9]*== ' "$work/err"; then
		fail "$what: memcheck"
		grep '^==' "$work/err" | head -n 40 >&2
	else ok; fi
}

vg "stat" stat --region 8m -i 2 --passes 2 -o "$work/stat.json"
vg "stat replay" stat --region 1m -i 2 --passes 1 \
	-e cycles,instructions,dTLB-loads,dTLB-load-misses,minor-faults,major-faults
MEMTLB_BACKEND=replay:$data/replay/tlb.txt vg "stat replay backend" stat --region 1m -i 2 --passes 1 \
	-e cycles,instructions,dTLB-loads,dTLB-load-misses,minor-faults,major-faults --format csv
vg "stat file backing" stat --region 8m -i 2 --passes 1 --backing "file:$work" --read-first
vg "stat tasks" stat --region 8m -i 2 --passes 1 --tasks 2 --task-mode process
vg "sweep" sweep --region 4m..12m:4m -i 2 --passes 1 -o "$work/sweep.json"
vg "sweep --from" sweep --from "$work/sweep.json"
vg "run" run -r 2 -- true
vg "compare" compare "$data/compare/base.json" "$data/compare/regression.json" \
	"$data/compare/noise.json"
vg "compare json" compare --format json "$work/stat.json" "$data/compare/base.json"
vg "report html" report "$work/stat.json" "$work/sweep.json" --format html
vg "report markdown" report "$data/compare/sweep.json" --format markdown
vg "sysinfo" sysinfo --json
vg "list" list
# a forced PMU after the machine's: libpfm4 read its freed tables
vg "list --pmu" list --pmu skl
vg "list --pmu -v" list --pmu icl -v
vg "bad report" compare "$data/compare/schema2.json" "$data/compare/base.json"
vg "probe" probe --max 1m -o "$work/probe.json"
vg "probe --from" probe --from "$work/probe.json"
vg "flush" flush --pages 1..4:x2 --ops 10 -i 2 --format json
vg "run -r" run -r 3 -e minor-faults -o "$work/run.json" -- true
vg "exports" report "$work/stat.json" "$work/run.json" --format kcidb --origin lab \
	--checkout c1
vg "lkp export" report "$work/sweep.json" --format lkp

# The untrusted paths: a journal left by a killed memtlb (one entry with a
# page-long value, replayed byte for byte) and an interleaved sweep that
# writes a tunable under MEMTLB_SYSROOT, and hostile report files.
root="$work/root"
thp="$root/sys/kernel/mm/transparent_hugepage/enabled"
mkdir -p "$(dirname "$thp")" "$root/run/memtlb"
echo "always [madvise] never" >"$thp"
printf 'memtlb journal\npid 4000007\nrestore %s madvise\n' "$thp" >"$root/run/memtlb/journal"
MEMTLB_SYSROOT=$root vg "journal replay, interleaved sweep of a tunable" \
	sweep --region 64k..128k -i 2 --passes 1 -e minor-faults --order interleaved \
	--vary sysfs:/sys/kernel/mm/transparent_hugepage/enabled=always,never
printf 'memtlb journal\npid 4000008\nrestore %s a%%00b\n' "$thp" >"$root/run/memtlb/journal"
MEMTLB_SYSROOT=$root vg "damaged journal" stat --region 64k -i 1 --passes 1 -e minor-faults
for bad in "$data"/../fuzz/regress/report-*; do
	[ -e "$bad" ] || continue
	vg "hostile $(basename "$bad")" report "$bad"
done
finish
