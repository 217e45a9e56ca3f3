#!/bin/sh
# SPDX-License-Identifier: MIT
# Workload breadth on real mappings with software counters: backings, page
# sizes, access orders, tasks, and the kernel-side evidence beside perf's.
. "$(dirname "$0")/lib.sh"

EV=minor-faults,major-faults
# A background job of a non-interactive shell starts with SIGINT ignored,
# and memtlb respects that: give the SIGINT tests the default action.
DFL="env --default-signal=INT"

# check WHAT PYTHON: run PYTHON with r = the JSON report on stdout ($out),
# ph = its phases by name, m = the mapping, k(phase, name) = a kernel mean,
# c(phase, event) = a counter mean.
check() {
	what=$1
	shift
	if python3 - "$out" "$@" >"$work/py" 2>&1 <<PY; then ok; else
import json, sys
r = json.load(open(sys.argv[1]))
res = r["results"][0]
ph = {p["name"]: p for p in res["phases"]}
m = res["mapping"]
def k(p, n): return ph[p]["kernel"][n]["mean"]
def c(p, n): return ph[p]["counters"][n]["mean"]
$CHECK
PY
		fail "$what"; sed 's/^/  /' "$work/py" >&2; sed 's/^/  stderr: /' "$err" >&2
	fi
}

# anon base pages: one fault per 4 KiB block in write_0; perf and rusage agree
run stat --region 256m --backing anon --pages base -i 2 --passes 1 -e $EV --format json
expect_status 0 "anon base"
CHECK='
assert abs(ph["write_0"]["derived"]["faults_per_block"] - 1.0) <= 0.01, ph["write_0"]["derived"]
assert abs(c("write_0", "minor-faults") - k("write_0", "rusage.minflt")) <= 4
assert m["kernel_page_size"] == 4096 and m["huge_coverage"] == 0.0
assert ph["write_0"]["kernel"]["vmstat.pgfault"]["mean"] >= c("write_0", "minor-faults")'
check "anon base: 1 fault per block, perf = rusage"

# THP: one fault per 2 MiB and full coverage, unless THP is off
thp=$(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)
case "$thp" in
*"[never]"*|"")
	echo "thp: skipped: transparent_hugepage/enabled is '${thp:-missing}'" ;;
*)
	run stat --region 256m --backing anon --pages thp -i 2 --passes 1 -e $EV --format json
	expect_status 0 "anon thp"
	CHECK='
n = (256 << 20) // (2 << 20)
f = c("write_0", "minor-faults")
assert n <= f <= n * 1.05, f
assert m["huge_coverage"] == 1.0, m
assert m["align"] >= 2 << 20, m
assert ph["write_0"]["kernel"]["vmstat.thp_fault_alloc"]["mean"] >= n * 0.95'
	check "thp: one fault per 2 MiB, 100% coverage" ;;
esac

# hugetlb 2m with --reserve: one fault per huge page, the pool restored,
# also after a SIGINT in the middle of a pass
pool=/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
if [ "$(id -u)" -ne 0 ] || [ ! -w "$pool" ]; then
	echo "hugetlb: skipped: not root, or no 2 MiB pool"
else
	before=$(cat "$pool")
	run stat --region 64m --backing anon --pages hugetlb:2m --reserve -i 2 --passes 1 -e $EV \
		--format json
	if [ "$status" -eq 1 ] && grep -q 'kernel found only' "$err"; then
		echo "hugetlb: skipped: $(cat "$err")"
	else
		expect_status 0 "hugetlb --reserve"
		CHECK='
assert c("write_0", "minor-faults") == 32, c("write_0", "minor-faults")
assert m["kernel_page_size"] == 2 << 20 and m["huge_coverage"] == 1.0, m'
		check "hugetlb: one fault per 2 MiB"
		[ "$(cat "$pool")" = "$before" ] && ok || fail "hugetlb: pool $(cat "$pool"), was $before"

		$DFL "$MEMTLB" stat --region 128m --backing memfd --pages hugetlb --reserve -i 1000 \
			-e minor-faults >/dev/null 2>&1 &
		pid=$!
		i=0
		while [ "$(cat "$pool")" = "$before" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
		sleep 0.3
		kill -INT $pid
		wait $pid
		status=$?
		[ $status -eq 130 ] && ok || fail "hugetlb: SIGINT: exit $status"
		[ "$(cat "$pool")" = "$before" ] && ok ||
			fail "hugetlb: after SIGINT the pool is $(cat "$pool"), was $before"

		# --runs: each run takes the lock its parent holds; each waited on
		# it for ever before, and every memtlb behind them.
		MEMTLB_LOCK_TIMEOUT=20 timeout 120 "$MEMTLB" stat --region 8m --backing anon \
			--pages hugetlb:2m --reserve --runs 2 -i 1 --passes 1 -e minor-faults \
			>"$out" 2>"$err"
		status=$?
		expect_status 0 "hugetlb --reserve --runs 2"
		expect_no_grep 'waiting for memtlb' "$err" "--runs: no run waits on its parent"
		[ "$(cat "$pool")" = "$before" ] && ok ||
			fail "hugetlb --runs: the pool is $(cat "$pool"), was $before"

		# Pages another process reserved (mapped, not faulted) are free in
		# free_hugepages but not ours: --reserve grows the pool past them.
		echo $((before + 4)) >"$pool"
		python3 -c '
import mmap, sys, time
m = mmap.mmap(-1, 4 << 21, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | 0x40000)
print("held", flush=True)
time.sleep(300)' >"$work/held" 2>/dev/null &
		holder=$!
		i=0
		until grep -q held "$work/held" 2>/dev/null || [ $i -ge 100 ]; do sleep 0.05; i=$((i + 1)); done
		resv=$(cat /sys/kernel/mm/hugepages/hugepages-2048kB/resv_hugepages)
		run stat --region 8m --backing anon --pages hugetlb:2m --reserve -i 1 --passes 1 \
			-e minor-faults
		expect_status 0 "hugetlb --reserve beside $resv pages reserved by another"
		[ "$(cat "$pool")" = $((before + 4)) ] && ok ||
			fail "hugetlb beside a reservation: pool $(cat "$pool"), was $((before + 4))"
		kill $holder 2>/dev/null
		wait $holder 2>/dev/null
		echo "$before" >"$pool"
	fi
	# short of pages without --reserve: exit 1, needed/free, the command
	free=$(cat /sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages)
	run stat --region $(( (free + 1) * 2 ))m --pages hugetlb -i 1 --passes 1 -e $EV
	expect_status 1 "hugetlb short pool"
	expect_one_error_line "hugetlb short pool"
	expect_grep "pages of 2048 kB needed, $free free" "$err" "hugetlb: needed/free"
	expect_grep "echo [0-9]+ > .*nr_hugepages" "$err" "hugetlb: the command"
fi

# file + read-first: fault-around makes fewer read faults than blocks; the
# file is created in the directory given and gone afterwards
mkdir "$work/files"
run stat --region 64m --backing "file:$work/files" --read-first -i 2 --passes 1 -e $EV --format json
expect_status 0 "file read-first"
CHECK='
blocks = res["params"]["blocks"]
f = c("read_first", "minor-faults") + c("read_first", "major-faults")
assert 0 < f < blocks, (f, blocks)
assert abs(c("read_first", "minor-faults") - k("read_first", "rusage.minflt")) <= 4'
check "file: read faults < blocks (fault-around)"
[ -z "$(ls -A "$work/files")" ] && ok || fail "file: left behind: $(ls "$work/files")"

run stat --region 16m --backing file --file-cache cold -i 2 --passes 1 -e $EV --format json
expect_status 0 "file cold"
CHECK='assert m["file_cache"]["pages"] == 4096, m'
check "file cold: mincore checked the drop"

$DFL "$MEMTLB" stat --region 64m --backing "file:$work/files" -i 1000 -e minor-faults \
	>/dev/null 2>&1 &
pid=$!
i=0
while [ -z "$(ls -A "$work/files")" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
[ -n "$(ls -A "$work/files")" ] && ok || fail "file: never created"
sleep 0.3
kill -INT $pid
wait $pid
status=$?
[ $status -eq 130 ] && ok || fail "file: SIGINT: exit $status"
[ -z "$(ls -A "$work/files")" ] && ok || fail "file: left behind after SIGINT"

# an existing file is never overwritten (O_EXCL), and is bad input, said first
echo keep >"$work/files/mine"
run stat --region 1m --backing "file:$work/files/mine" -i 1 --passes 1 -e $EV
expect_status 2 "file: existing"
expect_grep "$work/files/mine: exists" "$err" "file: existing: names the path"
[ "$(cat "$work/files/mine")" = keep ] && ok || fail "file: existing file changed"
rm -f "$work/files/mine"

# stride:16m touches region/16m blocks, one fault each
run stat --region 256m --backing anon --pages base --access stride:16m -i 2 --passes 1 -e $EV \
	--format json
expect_status 0 "stride"
CHECK='
assert res["params"]["blocks"] == 16, res["params"]
assert c("write_0", "minor-faults") == 16, c("write_0", "minor-faults")'
check "stride:16m: 16 blocks"

# random: every block exactly once: a fault per block (at least once) and
# blocks touches in all (by construction); the verify pass passes
run stat --region 64m --backing anon --pages base --access random --seed 7 -i 2 --passes 2 -e $EV \
	--format json
expect_status 0 "random"
CHECK='
blocks = res["params"]["blocks"]
assert abs(c("write_0", "minor-faults") - blocks) <= 4, (c("write_0", "minor-faults"), blocks)
assert c("write_1", "minor-faults") <= 4'
check "random: every block once"

# tasks: both modes, both regions; perf and rusage agree, a fault per block
for mode in thread process; do
	for region in shared private; do
		run stat --region 64m --backing shared --pages base --tasks 2 --task-mode $mode \
			--task-region $region -i 2 --passes 1 -e $EV --format json
		expect_status 0 "tasks $mode $region"
		CHECK='
blocks = res["params"]["blocks"]
want = blocks
perf, ru = c("write_0", "minor-faults"), k("write_0", "rusage.minflt")
assert abs(perf - want) <= want * 0.01, (perf, want)
assert abs(perf - ru) <= 8, (perf, ru)
assert ph["write_0"]["kernel"]["blocks_per_s_per_task"]["mean"] > 0
assert m["kernel_page_size"] == 4096'
		check "tasks $mode $region: perf = rusage = blocks"
	done
done

# a forked task that dies: exit 1 naming it, the others killed, no hang
# (one long iteration, so the tasks live from the first pass to the last)
"$MEMTLB" stat --region 16m --backing anon --tasks 2 --task-mode process --task-region private \
	-i 1 --passes 100000 -e minor-faults >/dev/null 2>"$work/died" &
pid=$!
i=0
while [ -z "$(pgrep -P $pid)" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
sleep 0.2
kill -KILL $(pgrep -P $pid | head -n 1)
wait $pid
status=$?
[ $status -eq 1 ] && ok || fail "dead task: exit $status"
expect_grep "^memtlb: stat: task [01] was killed by signal 9" "$work/died" "dead task: message"
[ -z "$(pgrep -P $pid)" ] && ok || fail "dead task: others left running"

# usage errors of the new options: one line, exit 2, nothing run
for args in "--pages huge" "--backing file:" "--backing tape" "--access stride:0" \
	"--access zigzag" "--reserve" "--file-cache cold" "--pages hugetlb --backing shm" \
	"--tasks 0" "--task-mode fiber" "--seed x" "--region 3m --pages hugetlb" \
	"--tasks 2 --task-mode process --backing anon" "--access stride:3k"; do
	# shellcheck disable=SC2086
	run stat --region 16m $args
	expect_status 2 "$args"
	expect_one_error_line "$args"
done
finish
