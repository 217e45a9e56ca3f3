# SPDX-License-Identifier: MIT
# Shared by the CLI tests: run the real binary, check exit status, stdout and
# stderr. Each test script is one meson test; $1 is the memtlb binary.
set -u

MEMTLB=${1:?usage: $0 path/to/memtlb}
failures=0
checks=0
work=$(mktemp -d "${TMPDIR:-/tmp}/memtlb-test.XXXXXX")
# What a test mounted for itself, unmounted when it ends (tracefs_mount).
mounted_here=
trap 'for m in $mounted_here; do umount "$m"; done; rm -rf "$work"' EXIT
# Everything a test (and memtlb under it) creates in TMPDIR stays in $work,
# so checks for leftovers see only this test's files.
export TMPDIR="$work"

# run ARGS...: runs memtlb, leaves $status, $out (stdout file), $err (stderr file)
run() {
	out="$work/out" err="$work/err"
	"$MEMTLB" "$@" >"$out" 2>"$err"
	status=$?
}

fail() {
	failures=$((failures + 1))
	echo "FAIL: $*" >&2
}

ok() {
	checks=$((checks + 1))
}

expect_status() {
	if [ "$status" -eq "$1" ]; then ok; else
		fail "$2: exit $status, expected $1"; sed 's/^/  stderr: /' "$err" >&2; fi
}

# expect_one_error_line WHAT: exactly one "memtlb: " line on stderr, plus
# at most one "hint: " line, and nothing on stdout.
expect_one_error_line() {
	lines=$(grep -c '^memtlb: ' "$err")
	other=$(grep -vc -e '^memtlb: ' -e '^hint: ' "$err")
	if [ "$lines" -eq 1 ] && [ "$other" -eq 0 ] && [ ! -s "$out" ]; then ok; else
		fail "$1: expected one error line and an empty stdout"
		sed 's/^/  stderr: /' "$err" >&2
		sed 's/^/  stdout: /' "$out" >&2
	fi
}

expect_grep() {	# PATTERN FILE WHAT
	if grep -Eq -- "$1" "$2"; then ok; else
		fail "$3: /$1/ not found"; sed 's/^/  /' "$2" >&2; fi
}

expect_no_grep() {	# PATTERN FILE WHAT
	if grep -Eq -- "$1" "$2"; then
		fail "$3: /$1/ found"; sed 's/^/  /' "$2" >&2; else ok; fi
}

# usage_case WHAT ARGS...: bad input: exit 2 and one error line, nothing on stdout
usage_case() {
	what=$1
	shift
	run "$@"
	expect_status 2 "$what"
	expect_one_error_line "$what"
}

# usage_case_o WHAT ARGS...: the same with -o, and the report never written
usage_case_o() {
	what=$1
	shift
	usage_case "$what" "$@" -o "$work/report.json"
	if [ -e "$work/report.json" ]; then
		fail "$what: wrote the report"; rm -f "$work/report.json"
	else ok; fi
}

# make_sweep OUT STEP_AT TLB_JSON: a synthetic sweep from a real report
# (tests/data/sweep-1m-64m.json) with a known curve: read_0 40 ns/block
# below region STEP_AT, 120 from it; write_0 850 ns per minor fault (one a
# block) + 20 us; the system's cpuid TLBs set to TLB_JSON.
make_sweep() {
	python3 - "$MEMTLB_TEST_DATA/sweep-1m-64m.json" "$1" "$2" "$3" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
step_at, tlb = int(sys.argv[3]), json.loads(sys.argv[4])
d["system"]["tlb"] = tlb
for r in d["results"]:
    blocks = r["params"]["blocks"]
    for p in r["phases"]:
        t = None
        if p["name"] == "read_0":
            t = blocks * (120.0 if r["params"]["region"] >= step_at else 40.0)
        elif p["name"] == "write_0":
            t = 850.0 * blocks + 20000.0
            p["counters"]["minor-faults"].update(mean=float(blocks), median=float(blocks),
                                                 min=float(blocks), max=float(blocks))
        if t is not None:
            n = p["time_ns"]["n"]
            p["time_ns"].update(mean=t, median=t, min=t, max=t, stddev=0.0, cv=0.0,
                                samples=[t] * n)
json.dump(d, open(sys.argv[2], "w"))
PY
}

# tracefs_mount: /sys/kernel/tracing mounted for this test where it is not
# (root only; unmounted at exit). Succeeds when the tracepoints' ids can be
# read, mounted here or not: the test reads the fact, never assumes it.
tracefs_mount() {
	t=/sys/kernel/tracing
	[ -e $t/events/tlb/tlb_flush/id ] && return 0
	[ "$(id -u)" -eq 0 ] && [ -d $t ] && ! mountpoint -q $t || return 1
	mount -t tracefs nodev $t 2>/dev/null || return 1
	mounted_here="$mounted_here $t"
	[ -e $t/events/tlb/tlb_flush/id ]
}

# vm_kernel: the guest kernel of a memtlb-vm test in $kernel (Debian's
# 6.1 image, or MEMTLB_TEST_VM_KERNEL), or a skip (77) saying what to
# install when qemu, busybox, python3 or the image is missing.
vm_kernel() {
	for tool in qemu-system-x86_64 busybox python3; do
		command -v "$tool" >/dev/null || {
			echo "SKIP: $tool not installed (apt-get install qemu-system-x86 busybox-static)"
			exit 77
		}
	done
	kernel=${MEMTLB_TEST_VM_KERNEL:-$(ls /boot/vmlinuz-6.1.* 2>/dev/null | sort -V | tail -n 1)}
	if [ -z "$kernel" ] || [ ! -r "$kernel" ]; then
		echo "SKIP: no readable /boot/vmlinuz-6.1.* (apt-get install linux-image-cloud-amd64)"
		exit 77
	fi
}

finish() {
	echo "$checks checks passed, $failures failed"
	[ "$failures" -eq 0 ]
	exit $?
}
