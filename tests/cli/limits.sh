#!/bin/sh
# SPDX-License-Identifier: MIT
# Resource limits: a clear error that names the limit, and allowed oddities
# (more tasks than CPUs) said as a warning.
. "$(dirname "$0")/lib.sh"

# RLIMIT_AS: the mmap fails; the message names the limit. Sanitizer builds
# cannot start under a small address space at all: skip them.
if (ulimit -v 600000 && "$MEMTLB" --version) >/dev/null 2>&1; then
	(ulimit -v 600000 && exec "$MEMTLB" stat --region 1g -i 1 --passes 1) >"$work/out" 2>"$work/err"
	status=$? out="$work/out" err="$work/err"
	expect_status 1 "RLIMIT_AS"
	expect_grep '^memtlb: stat: Cannot allocate memory$' "$err" "RLIMIT_AS: what failed"
	expect_grep '^hint: RLIMIT_AS is .*ulimit -v' "$err" "RLIMIT_AS: named"
else
	echo "RLIMIT_AS case skipped: this build cannot start under a small address space"
fi

# RLIMIT_NOFILE: counters need a descriptor each.
(ulimit -n 4 && exec "$MEMTLB" stat --region 4m -i 1 --passes 1 -e minor-faults,major-faults) \
	>"$work/out" 2>"$work/err"
status=$? out="$work/out" err="$work/err"
expect_status 1 "RLIMIT_NOFILE"
expect_grep '^memtlb: stat: Too many open files$' "$err" "RLIMIT_NOFILE: what failed"
expect_grep '^hint: RLIMIT_NOFILE is 4' "$err" "RLIMIT_NOFILE: named"
[ -s "$work/out" ] && fail "RLIMIT_NOFILE: printed a table" || ok

# RLIMIT_NPROC (root is exempt: as nobody): tasks that cannot start are a
# clear error, and the ones that did start are gone afterwards.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null && command -v prlimit >/dev/null &&
	setpriv --reuid=nobody --regid=nogroup --clear-groups test -x "$MEMTLB"; then
	for mode in process thread; do
		prlimit --nproc=20 setpriv --reuid=nobody --regid=nogroup --clear-groups \
			"$MEMTLB" stat --region 4m -i 1 --passes 1 -e minor-faults --tasks 50 \
			--task-mode $mode >"$work/out" 2>"$work/err"
		status=$? out="$work/out" err="$work/err"
		expect_status 1 "RLIMIT_NPROC ($mode)"
		expect_grep '^hint: RLIMIT_NPROC is 20' "$err" "RLIMIT_NPROC named ($mode)"
		sleep 0.2
		if pgrep -u nobody -f "memtlb stat" >/dev/null; then
			fail "RLIMIT_NPROC ($mode): tasks left running"
		else ok; fi
	done
fi

# More tasks than CPUs: allowed, with one warning.
cpus=$(getconf _NPROCESSORS_ONLN)
run stat --region 4m -i 1 --passes 1 -e minor-faults --tasks $((cpus + 2))
expect_status 0 "more tasks than CPUs"
expect_grep "^memtlb: warning: --tasks $((cpus + 2)): more tasks than the $cpus online CPUs" \
	"$err" "more tasks than CPUs: warned"
[ "$(grep -c warning "$err")" -eq 1 ] && ok || fail "more tasks than CPUs: one warning"

# A region beyond MemAvailable: refused, unless --force (not run: it would be).
run stat --region 1t -i 1
expect_status 2 "region beyond MemAvailable"
expect_grep 'MemAvailable' "$err" "MemAvailable named"
expect_grep '^hint: .*--force' "$err" "--force suggested"
finish
