#!/bin/sh
# SPDX-License-Identifier: MIT
# A kselftest TEST_PROGS entry (run_kselftest.sh calls it, reads its exit
# code): memtlb selftest's KTAP on stdout, and kselftest's codes: 0 every
# check passed or skipped, 1 one failed, 4 every check skipped (KSFT_SKIP,
# also when memtlb is not installed). MEMTLB names the binary; extra
# arguments go to it (--from SWEEP.json judges a saved sweep).
ksft_skip=4
memtlb=${MEMTLB:-memtlb}

if ! command -v "$memtlb" >/dev/null 2>&1; then
	echo "KTAP version 1"
	echo "1..0 # SKIP $memtlb not found (set MEMTLB)"
	exit $ksft_skip
fi
exec "$memtlb" selftest "$@"
