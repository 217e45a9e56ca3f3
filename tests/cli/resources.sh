#!/bin/sh
# SPDX-License-Identifier: MIT
# What a run needs of the machine, checked before it starts: the backing
# file's path, room on its file system, and memory (MemAvailable, a
# cgroup's memory.max, a --reserve) in fixture sysroots and a small tmpfs.
. "$(dirname "$0")/lib.sh"

EV=minor-faults
mnt="$work/tmpfs"
trap 'umount "$mnt" "$work/tmpfs5" 2>/dev/null; rm -rf "$work"' EXIT

# expect_path_error WHAT PATH ARGS...: exit 2, one line naming PATH, nothing left
expect_path_error() {
	what=$1 path=$2
	shift 2
	usage_case "$what" stat -i 1 --passes 1 -e $EV "$@"
	expect_grep "$path" "$err" "$what: names the path"
}

# 1. Backing-file paths: usage errors, said before the run, naming the path.
mkdir "$work/d"
: >"$work/d/taken"
ln -s "$work/d/nothing" "$work/d/dangling"
mkfifo "$work/d/fifo"
long=$(printf '%0300d' 0)
expect_path_error "backing in a missing directory" "$work/d/none/x" \
	--region 1m --backing "file:$work/d/none/x"
[ ! -e "$work/d/none" ] && ok || fail "missing directory: created"
expect_path_error "backing over an existing file" "$work/d/taken" \
	--region 1m --backing "file:$work/d/taken"
expect_grep 'exists \(a file\)' "$err" "existing file: said so"
expect_path_error "backing over a dangling link" "$work/d/dangling" \
	--region 1m --backing "file:$work/d/dangling"
expect_grep 'dangling link' "$err" "dangling link: said so"
[ ! -e "$work/d/nothing" ] && ok || fail "dangling link: its target was created"
expect_path_error "backing over a FIFO" "$work/d/fifo" \
	--region 1m --backing "file:$work/d/fifo"
expect_grep 'FIFO' "$err" "FIFO: said so"
expect_path_error "backing in /proc" "/proc" --region 1m --backing file:/proc
expect_path_error "backing file in /proc" "/proc/memtlb" --region 1m --backing file:/proc/memtlb
expect_path_error "backing name too long" "File name too long" \
	--region 1m --backing "file:$work/d/$long"
TMPDIR="$work/d/gone" expect_path_error "TMPDIR missing" "TMPDIR: $work/d/gone" \
	--region 1m --backing file
[ ! -e "$work/d/gone" ] && ok || fail "TMPDIR missing: used as a file name"
if [ "$(ls "$work/d" | wc -l)" -eq 3 ]; then ok; else
	fail "path errors left files"; ls "$work/d" >&2; fi

# 2. A full file system: said with the path, exit 1, no file left (not SIGBUS).
mkdir "$mnt"
if mount -t tmpfs -o size=8m memtlb-test "$mnt" 2>/dev/null; then
	run stat -i 1 --passes 1 -e $EV --region 64m --backing "file:$mnt"
	expect_status 1 "backing on a full tmpfs"
	expect_one_error_line "backing on a full tmpfs"
	expect_grep "$mnt: 64.0 MiB needed" "$err" "full tmpfs: the path and the size"
	run stat -i 1 --passes 1 -e $EV --region 64m --backing "file:$mnt/name"
	expect_status 1 "named backing on a full tmpfs"
	expect_grep "$mnt" "$err" "named backing on a full tmpfs: the path"
	run stat -i 1 --passes 1 -e $EV --region 2m --tasks 8 --task-region private \
		--backing "file:$mnt"
	expect_status 1 "private task regions beyond the tmpfs"
	run stat -i 1 --passes 1 -e $EV --region 4m --backing "file:$mnt"
	expect_status 0 "backing that fits the tmpfs"
	if [ -z "$(ls -A "$mnt")" ]; then ok; else fail "tmpfs: files left"; ls -l "$mnt" >&2; fi
	umount "$mnt"
else
	echo "full file system: skipped: cannot mount a tmpfs"
fi

# 3. Memory: a fixture with 22 GiB available and a 300 MiB cgroup (10 in use).
cp -r "$MEMTLB_TEST_DATA/sysroot-cgroup" "$work/root"
pool="$work/root/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages"
mem() { MEMTLB_SYSROOT="$work/root" run stat -i 1 --passes 1 -e $EV "$@"; }
mem --region 768m
expect_status 2 "region above the cgroup's memory.max"
expect_one_error_line "region above the cgroup's memory.max"
expect_grep 'cgroup leaves \(290.0 MiB: memory.max 300.0 MiB' "$err" "cgroup: the figures"
expect_grep '/sys/fs/cgroup/memtlb.slice' "$err" "cgroup: the tighter level"
mem --region 200m --access random --block 8
expect_status 2 "random order's offsets counted"
expect_grep 'with the random order \(200.0 MiB\)' "$err" "random order: the figures"
mem --pages hugetlb --reserve --region 40g
expect_status 2 "reservation above MemAvailable"
expect_grep '^memtlb: --reserve: 40.0 GiB of new huge pages is more than MemAvailable \(22.0' \
	"$err" "reservation: the figures"
if [ "$(cat "$pool")" = 0 ]; then ok; else
	fail "reservation: the pool was written: $(cat "$pool")"; fi
mem --region 200m --access random --block 8 --force
expect_status 0 "--force passes the guard"
mem --region 64m
expect_status 0 "region inside the cgroup"
echo max >"$work/root/sys/fs/cgroup/memtlb.slice/memory.max"
mem --region 768m
expect_status 0 "no cgroup limit"
echo 314572800 >"$work/root/sys/fs/cgroup/memtlb.slice/memory.max"
# probe and sweep: the same guard as stat, and sweep's line names it.
MEMTLB_SYSROOT="$work/root" usage_case "probe above the cgroup's memory.max" probe --max 768m
expect_grep "^memtlb: --max: the probe's mappings \(1.5 GiB\) are more than the cgroup leaves \(290.0 MiB by memory.max\)" \
	"$err" "probe: the cgroup's figures"
# The probe maps twice --max at once: 200m passed a guard that counted it once.
MEMTLB_SYSROOT="$work/root" usage_case "probe whose two mappings pass the cgroup" \
	probe --max 200m
MEMTLB_SYSROOT="$work/root" run probe --max 1m
expect_status 0 "probe inside the cgroup"
MEMTLB_SYSROOT="$work/root" usage_case "sweep above the cgroup's memory.max" \
	sweep --region 64m..768m:x2 -i 1 --passes 1 -e $EV
expect_grep 'cgroup leaves \(290.0 MiB' "$err" "sweep: the cgroup's figures"
MEMTLB_SYSROOT="$work/root" run sweep --region 1m..2m:1m -i 1 --passes 1 -e $EV
expect_status 0 "sweep inside the cgroup"
expect_grep "each point's region within what the cgroup leaves \(290.0 MiB now\)" \
	"$err" "sweep: the guard line names the cgroup's limit"
echo max >"$work/root/sys/fs/cgroup/memtlb.slice/memory.max"
printf '0::/\n' >"$work/root/proc/self/cgroup"
echo 104857600 >"$work/root/sys/fs/cgroup/memory.max"
mem --region 128m
expect_status 2 "a limit at the namespace's root"

# 4. cgroup v1: memory.limit_in_bytes - memory.usage_in_bytes of the memory
# controller's path and its ancestors (200 MiB, 20 in use, at memtlb.slice).
cp -r "$MEMTLB_TEST_DATA/sysroot-cgroup-v1" "$work/v1"
v1() { MEMTLB_SYSROOT="$work/v1" run "$@"; }
v1 stat -i 1 --passes 1 -e $EV --region 256m
expect_status 2 "v1: region above memory.limit_in_bytes"
expect_one_error_line "v1: region above memory.limit_in_bytes"
expect_grep 'cgroup leaves \(180.0 MiB: memory.limit_in_bytes 200.0 MiB, 20.0 MiB in use\): /sys/fs/cgroup/memory/memtlb.slice$' \
	"$err" "v1: the figures and the tighter level"
v1 stat -i 1 --passes 1 -e $EV --region 64m
expect_status 0 "v1: region inside the limit"
v1 probe --max 256m
expect_status 2 "v1: probe above the limit"
echo 9223372036854771712 >"$work/v1/sys/fs/cgroup/memory/memtlb.slice/memory.limit_in_bytes"
v1 stat -i 1 --passes 1 -e $EV --region 256m
expect_status 0 "v1: no limit (LONG_MAX, page-rounded) all the way up"

# 5. memory.high (past it the kernel throttles the run), the hugetlb
# controller's limit (a fault past it is SIGBUS), and an interleaved sweep's
# backing files on tmpfs, all alive at once (it passed and was OOM-killed).
cp -r "$MEMTLB_TEST_DATA/sysroot-cgroup" "$work/r5"
cg="$work/r5/sys/fs/cgroup/memtlb.slice"
r5() { MEMTLB_SYSROOT="$work/r5" run "$@"; }
echo 134217728 >"$cg/memory.high"
r5 stat -i 1 --passes 1 -e $EV --region 200m
expect_status 2 "region above the cgroup's memory.high"
expect_grep 'cgroup leaves \(118.0 MiB: memory.high 128.0 MiB, 10.0 MiB in use\)' "$err" \
	"memory.high: the figures"
rm "$cg/memory.high"
hp="$work/r5/sys/kernel/mm/hugepages/hugepages-2048kB"
echo 512 >"$hp/nr_hugepages"
echo 512 >"$hp/free_hugepages"
echo 67108864 >"$cg/hugetlb.2MB.max"
echo 0 >"$cg/hugetlb.2MB.current"
r5 stat -i 1 --passes 1 -e $EV --pages hugetlb --region 128m
expect_status 2 "hugetlb pages above the hugetlb controller's limit"
expect_grep '^memtlb: --pages hugetlb: 128.0 MiB of huge pages is more than the cgroup leaves \(64.0 MiB: hugetlb.2MB.max' \
	"$err" "hugetlb limit: the figures"
echo max >"$cg/hugetlb.2MB.max"
mnt5="$work/tmpfs5"
mkdir "$mnt5"
if mount -t tmpfs -o size=1g memtlb-test "$mnt5" 2>/dev/null; then
	r5 sweep --order interleaved --backing "file:$mnt5" --region 100m..200m:100m \
		-i 1 --passes 1 -e $EV
	expect_status 2 "interleaved sweep: tmpfs files alive at once past the cgroup"
	expect_grep '^memtlb: --order: 300.0 MiB alive at once is more than the cgroup leaves' \
		"$err" "interleaved tmpfs files: the sum"
	[ -z "$(ls -A "$mnt5")" ] && ok || fail "interleaved guard: files left in tmpfs"
	umount "$mnt5"
else
	echo "interleaved tmpfs: skipped: cannot mount a tmpfs"
fi

finish
