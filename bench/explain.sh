#!/bin/sh
# SPDX-License-Identifier: MIT
# memtlb compare --explain on this machine: how often it cries wolf, and
# whether it names an injected cause. A benchmark, not a test (issue 31).
#
# 1. A/A: PAIRS pairs of same-kernel runs (memtlb stat --region 64m -i 5
#    --runs 3, anon: three processes a side, so that compare tests the
#    spread between runs, which is where this guest's noise is), A and B
#    alternated; a pair with any FAIL verdict is a false alarm. Goal: at
#    most 5% of pairs.
# 2. Injected causes, each one sweep whose first --vary is the cause (memtlb
#    sets the tunable, journals and restores it, under its machine lock),
#    split into a report per value (explain-split.py), compared with
#    --explain. The score: the share of the named term in the change with
#    the largest ns per block. Goal: >= 80%.
#    - THP off: transparent_hugepage/enabled always -> madvise, the point
#      with the policy's pages (--pages default): named term page_size_mix;
#    - mTHP 64k off: hugepages-64kB/enabled always -> never, --pages
#      default: page_size_mix;
#    - faults moved into write_0 (stat --populate, then without): faults; a
#      workload option standing for a kernel that faults where it
#      prefaulted (two stat runs: no sweep varies --populate).
#    Needs root for the sysfs causes; they are skipped, and said, without.
#
#   bench/explain.sh [PAIRS]   (default 20; 5 to 8 minutes; figures: bench/README)
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
pairs=${1:-20}
memtlb=${MEMTLB:-$top/build/memtlb}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
thp=/sys/kernel/mm/transparent_hugepage
common="--region 64m --backing anon -i 5"
aa="$common --runs 3"

# The explain array of compare --explain A B, as "verdict share term ..."
# lines: one per changed ns/block, the largest change first.
explain() {	# A B NAMED-TERM
	"$memtlb" compare --explain --format json "$1" "$2" 2>/dev/null |
	python3 -c '
import json, sys
named = sys.argv[1]
ex = json.load(sys.stdin).get("explain", [])
ex.sort(key=lambda e: -abs(e["change_ns"]))
for e in ex:
    t = {x["term"]: x for x in e["terms"]}
    share = t[named].get("share") if named in t else None
    print(e["verdict"], "%.3f" % share if share is not None else "absent",
          e["phase"], e["point"].replace(" ", ","), "%+.1f%%" % e["change_pct"],
          e["summary"].split(": ", 1)[1])
' "$3"
}

echo "A/A false alarms: $pairs pairs of memtlb stat $aa"
alarms=0
for i in $(seq "$pairs"); do
	"$memtlb" stat $aa -o "$work/a.json" >/dev/null 2>&1
	"$memtlb" stat $aa -o "$work/b.json" >/dev/null 2>&1
	explain "$work/a.json" "$work/b.json" residual >"$work/aa"
	if grep -q '^FAIL' "$work/aa"; then
		alarms=$((alarms + 1))
		sed 's/^/  pair '"$i"': /' "$work/aa" | grep ': FAIL'
	fi
done
echo "A/A: $alarms of $pairs pairs with a FAIL ($((100 * alarms / pairs))%; goal <= 5%)"

cause() {	# NAME TERM KEY V_A V_B SWEEP-ARGS...
	name=$1 term=$2 key=$3 va=$4 vb=$5
	shift 5
	if ! "$memtlb" sweep $common --vary "$key=$va,$vb" "$@" -o "$work/s.json" \
		>/dev/null 2>"$work/err"; then
		echo "$name: not run: $(tail -n 1 "$work/err")"
		return 0
	fi
	python3 "$top/bench/explain-split.py" "$work/s.json" "$key" "$va" "$work/A.json"
	python3 "$top/bench/explain-split.py" "$work/s.json" "$key" "$vb" "$work/B.json"
	explain "$work/A.json" "$work/B.json" "$term" >"$work/x"
	echo "$name: $term share of the largest change:"
	sed 's/^/    /' "$work/x"
}

echo
if [ "$(id -u)" -eq 0 ] && [ -w "$thp/enabled" ]; then
	cause "THP off (always -> madvise)" page_size_mix "sysfs:$thp/enabled" always madvise \
		--vary pages=default,base,thp
	cause "mTHP 64k off (always -> never)" page_size_mix \
		"sysfs:$thp/hugepages-64kB/enabled" always never --vary pages=default,base,mthp:64k
else
	echo "THP off, mTHP 64k off: not run (needs root and $thp)"
fi
# --populate is a workload option no sweep varies: two stat runs.
"$memtlb" stat $common --populate -o "$work/A.json" >/dev/null 2>&1
"$memtlb" stat $common -o "$work/B.json" >/dev/null 2>&1
explain "$work/A.json" "$work/B.json" faults >"$work/x"
echo "faults into write_0 (--populate -> not): faults share of the largest change:"
echo "    $(head -n 1 "$work/x")"
sed -n '2,$s/^/    /p' "$work/x"

# The guest's causes (memtlb-vm, Debian's 6.1 kernel): debugfs's
# fault_around_bytes, and the boot parameter init_on_alloc. Their times mean
# something under KVM alone: under TCG compare judges no time, and there is
# nothing to attribute (MEMTLB_BENCH_ACCEL=tcg runs them anyway, to see it).
kernel=$(ls /boot/vmlinuz-6.1.* 2>/dev/null | sort -V | tail -n 1)
accel=${MEMTLB_BENCH_ACCEL:-}
[ -n "$accel" ] || { [ -w /dev/kvm ] && accel=kvm; }
vm() {	# memtlb-vm ARGS...
	"$top/scripts/memtlb-vm" --accel "$accel" --memtlb "$memtlb" --timeout 590 "$@"
}
if [ -z "$kernel" ] || [ -z "$accel" ]; then
	echo "fault-around bytes, init_on_alloc=1: not run: they need a guest kernel with"
	echo "  real times (memtlb-vm under KVM; ${kernel:-no /boot/vmlinuz-6.1.*}, no usable"
	echo "  /dev/kvm here): this host's debugfs refuses fault_around_bytes, and a TCG"
	echo "  guest's times are qemu's, which compare does not judge"
else
	if vm "$kernel" -- memtlb sweep --region 64m --backing file --read-first -i 5 \
		--vary fault_around_bytes=65536,4096 -o "$work/s.json" >/dev/null 2>"$work/err"; then
		python3 "$top/bench/explain-split.py" "$work/s.json" fault_around_bytes 65536 \
			"$work/A.json"
		python3 "$top/bench/explain-split.py" "$work/s.json" fault_around_bytes 4096 \
			"$work/B.json"
		explain "$work/A.json" "$work/B.json" faults >"$work/x"
		echo "fault-around bytes (65536 -> 4096, $accel guest): faults share of the largest change:"
		sed 's/^/    /' "$work/x"
	else
		echo "fault-around bytes: not run: $(tail -n 1 "$work/err")"
	fi
	# Debian's kernel has CONFIG_INIT_ON_ALLOC_DEFAULT_ON: 0 is the base
	if vm --append init_on_alloc=0 "$kernel" -- memtlb stat $common -o "$work/A.json" \
		>/dev/null 2>"$work/err" &&
	   vm --append init_on_alloc=1 "$kernel" -- memtlb stat $common -o "$work/B.json" \
		>/dev/null 2>"$work/err"; then
		explain "$work/A.json" "$work/B.json" fault_cost >"$work/x"
		echo "init_on_alloc 0 -> 1 ($accel guest): fault_cost share of the largest change:"
		sed 's/^/    /' "$work/x"
	else
		echo "init_on_alloc=1: not run: $(tail -n 1 "$work/err")"
	fi
fi
echo "flush ceiling: not run: debugfs's x86/tlb_single_page_flush_ceiling (this host"
echo "  refuses it: EPERM), and a cost per flush needs a flush sweep on both sides"
