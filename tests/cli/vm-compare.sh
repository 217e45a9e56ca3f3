#!/bin/sh
# SPDX-License-Identifier: MIT
# Cross-kernel comparison on two real kernels: memtlb stat on the host, the
# same under Debian's 6.1 kernel in a qemu guest (scripts/memtlb-vm), then
# both reports side by side. Skips (77) without qemu, busybox or a 6.1 image.
#
# The guest runs under TCG unless MEMTLB_TEST_VM_ACCEL=kvm: the assertions are
# on counts and kernel releases, which TCG gets right, and the nested KVM of
# our CI VMs (shadow paging) takes minutes to decompress a kernel.
# MEMTLB_TEST_VM_KERNEL picks another image.
. "$(dirname "$0")/lib.sh"

src=${MEMTLB_SOURCE_ROOT:?}
vm=$src/scripts/memtlb-vm
accel=${MEMTLB_TEST_VM_ACCEL:-tcg}

vm_kernel
release=${kernel##*/vmlinuz-}

# The host side.
run stat --region 64m -i 3 -o "$work/host.json"
expect_status 0 "host stat"

# The guest side: the report comes back to the path given with -o.
"$vm" --accel "$accel" --timeout 240 "$kernel" -- "$MEMTLB" \
	stat --region 64m -i 3 -o "$work/guest.json" >"$work/vm.out" 2>"$work/vm.err"
# expect_status reads $status and $err, as after run.
status=$? err=$work/vm.err
expect_status 0 "memtlb-vm stat"
expect_grep "^kernel $release on " "$work/vm.out" "guest stat header names the guest kernel"

# Both reports: kernel releases and the fault counts of write_0 (one minor
# fault per 4 KiB page of the 64 MiB shared mapping, none in the later passes).
check_report() {	# FILE WANT_KERNEL_PREFIX WHAT
	if python3 - "$1" "$2" >"$work/check.out" 2>&1 <<'EOF'
import json, sys
rep = json.load(open(sys.argv[1]))
kernel = rep["system"]["kernel"]
assert kernel.startswith(sys.argv[2]), "system.kernel %r" % kernel
res = rep["results"][0]
blocks = res["params"]["blocks"]
phases = {p["name"]: p for p in res["phases"]}
mf = phases["write_0"]["counters"]["minor-faults"]
assert mf["supported"] and mf["counted"], "minor-faults not counted: %r" % mf
assert abs(mf["mean"] - blocks) <= 0.01 * blocks, "write_0 minor-faults %r of %d" % (mf["mean"], blocks)
fpb = phases["write_0"]["derived"]["faults_per_block"]
assert abs(fpb - 1.0) <= 0.01, "write_0 faults/block %r" % fpb
later = phases["write_1"]["counters"]["minor-faults"]["mean"]
assert later <= 0.01 * blocks, "write_1 minor-faults %r" % later
assert phases["write_0"]["counters"]["major-faults"]["supported"]
print(kernel)
EOF
	then ok; else fail "$3"; sed 's/^/  /' "$work/check.out" >&2; fi
}
host_kernel=$(uname -r)
check_report "$work/host.json" "$host_kernel" "host report"
check_report "$work/guest.json" "$release" "guest report"
case $release in
6.1.*) ok ;;
*) fail "guest kernel $release is not 6.1.x" ;;
esac
if [ "$release" != "$host_kernel" ]; then ok; else
	fail "guest and host both run $release: not a cross-kernel comparison"; fi

# Nothing is left running or on disk: after a boot timeout, and after SIGTERM
# in the middle of a run. (memtlb-vm's temporary directory lives in $vmtmp;
# qemu's command line names it.)
vmtmp=$work/vmtmp
mkdir "$vmtmp"
leftovers() {	# WHAT
	if pgrep -f "$vmtmp/" >/dev/null; then fail "$1: a qemu is still running"; else ok; fi
	if [ -z "$(ls -A "$vmtmp")" ]; then ok; else fail "$1: left $(ls -A "$vmtmp")"; fi
}
TMPDIR=$vmtmp "$vm" --accel "$accel" --boot-timeout 1 "$kernel" -- "$MEMTLB" \
	stat --region 64m -i 3 >"$work/vm.out" 2>"$work/vm.err"
status=$?
expect_status 1 "boot timeout"
expect_grep "^memtlb-vm: .*: guest did not reach init within 1s" "$work/vm.err" "boot timeout message"
leftovers "boot timeout"

TMPDIR=$vmtmp "$vm" --accel "$accel" "$kernel" -- "$MEMTLB" \
	stat --region 64m -i 3 >"$work/vm.out" 2>"$work/vm.err" &
pid=$!
i=0
while ! pgrep -f "$vmtmp/" >/dev/null && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
kill -TERM $pid
wait $pid
status=$?
expect_status 143 "SIGTERM during the run"
leftovers "SIGTERM"

# memtlb compare, once the command exists.
if "$MEMTLB" --list-cmds | grep -qx compare; then
	run compare "$work/host.json" "$work/guest.json"
	expect_status 0 "compare host guest"
	expect_grep "$host_kernel" "$out" "compare names the host kernel"
	expect_grep "$release" "$out" "compare names the guest kernel"
	expect_grep "minor-faults|faults" "$out" "compare shows the fault metrics"
fi

finish
