#!/bin/sh
# SPDX-License-Identifier: MIT
# Seed 001's fault-around study, under Debian's 6.1 kernel in a qemu guest
# (scripts/memtlb-vm), where debugfs's fault_around_bytes can be written:
# memtlb's own workload reads a cached 256 MiB file through mmap at three
# values, and each value's read faults are the exact oracle, file pages /
# pages mapped per fault, within 1%. The study is printed in run --vary's
# layout. Skips (77) without qemu, busybox or a 6.1 image.
#
# TCG unless MEMTLB_TEST_VM_ACCEL=kvm: counts hold there, times do not.
. "$(dirname "$0")/lib.sh"

src=${MEMTLB_SOURCE_ROOT:?}
accel=${MEMTLB_TEST_VM_ACCEL:-tcg}

vm_kernel

"$src/scripts/memtlb-vm" --accel "$accel" --memory 1G --timeout 280 "$kernel" -- "$MEMTLB" \
	sweep --region 256m --backing file --read-first --passes 1 -i 2 -e minor-faults \
	--vary fault_around_bytes=4096,16384,65536 --phase read_first \
	-o "$work/fa.json" >"$work/vm.out" 2>"$work/vm.err"
status=$? err=$work/vm.err
expect_status 0 "memtlb-vm: the fault-around study"
expect_grep '^study: read_first of each point, a column per value' "$work/vm.out" \
	"the study in run --vary's layout"
expect_grep '^ +fault_around_bytes=4096 +fault_around_bytes=16384' "$work/vm.out" \
	"a column per value, the first the baseline"
expect_grep '^minor-faults +65,536 \+- 0\.00% ' "$work/vm.out" "4096: a fault per page"
if [ "$accel" = tcg ]; then
	expect_grep '^times are an emulated CPU.s: no change of a time is marked; counts hold$' \
		"$work/vm.out" "emulated times said"
else
	expect_no_grep '^times are an emulated CPU' "$work/vm.out" "$accel: times are real"
fi

if python3 - "$work/fa.json" >"$work/check.out" 2>&1 <<'PY'
import json, sys
rep = json.load(open(sys.argv[1]))
assert rep["system"]["kernel"].startswith("6.1."), rep["system"]["kernel"]
seen = set()
for res in rep["results"]:
    fab = int(res["params"]["fault_around_bytes"])
    pages = res["params"]["region"] // 4096
    want = pages / max(1, fab // 4096)
    ph = {p["name"]: p for p in res["phases"]}
    got = ph["read_first"]["counters"]["minor-faults"]["mean"]
    assert abs(got - want) <= 0.01 * want, "%d: %r faults, oracle %r" % (fab, got, want)
    seen.add(fab)
assert seen == {4096, 16384, 65536}, seen
PY
then ok; else fail "read faults against file pages / pages per fault"
	sed 's/^/  /' "$work/check.out" >&2; fi
finish
