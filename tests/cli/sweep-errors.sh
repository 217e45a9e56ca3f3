#!/bin/sh
# SPDX-License-Identifier: MIT
# memtlb sweep: bad input is one line on stderr, exit 2, nothing run or written.
. "$(dirname "$0")/lib.sh"


usage_case_o "nothing to sweep" sweep
usage_case_o "empty range" sweep --region ""
usage_case_o "zero start" sweep --region 0..1g
usage_case_o "start above end" sweep --region 2g..1g
usage_case_o "step 0" sweep --region 1g..2g:0
usage_case_o "factor 1" sweep --region 1g..2g:x1
usage_case_o "a million points" sweep --region 4k..4g:4k
usage_case_o "bad size in range" sweep --region 1q..2g
usage_case_o "vary without values" sweep --region 16m --vary block=
usage_case_o "vary without =" sweep --region 16m --vary block
usage_case_o "vary the region" sweep --vary region=16m,32m
usage_case_o "vary unknown key" sweep --region 16m --vary bogus=1,2
usage_case_o "vary bad block" sweep --region 16m --vary block=4k,3x
usage_case_o "vary bad backing" sweep --region 16m --vary backing=shared,tmpfs
usage_case_o "vary twice" sweep --region 16m --vary block=4k --vary block=8k
usage_case_o "sysfs outside /sys" sweep --region 16m --vary sysfs:/etc/passwd=x
usage_case_o "sysfs dot-dot" sweep --region 16m --vary sysfs:/sys/../etc/passwd=x
usage_case_o "sysctl bad name" sweep --region 16m --vary sysctl:../../etc/passwd=x
usage_case_o "missing sysctl" sweep --region 16m --vary sysctl:vm.no_such_knob=1
# One file under two names: both axes would write it (a fixture, nothing real).
MEMTLB_SYSROOT="$MEMTLB_TEST_DATA/sysroot-pmu" usage_case_o "one sysctl, two spellings" \
	sweep --region 16m --vary sysctl:vm.percpu_pagelist_high_fraction=0,8 \
	--vary sysctl:vm/percpu_pagelist_high_fraction=0
expect_grep 'the same file' "$err" "one sysctl, two spellings: said why"
MEMTLB_SYSROOT="$MEMTLB_TEST_DATA/sysroot-pmu" usage_case_o "one sysfs file, two spellings" \
	sweep --region 16m --vary sysfs:/sys/kernel/mm/transparent_hugepage/enabled=never \
	--vary sysfs:/sys/kernel//mm/transparent_hugepage/enabled/=always
usage_case_o "block above a point's region" sweep --region 4k..16k:4k --block 8k
usage_case_o "no such phase" sweep --region 16m..32m:16m --passes 2 --phase read_4
usage_case_o "knee ratio 1" sweep --region 16m --knee-ratio 1
usage_case_o "knee ratio garbage" sweep --region 16m --knee-ratio x
usage_case_o "unknown option" sweep --region 16m --bogus
usage_case_o "region above MemAvailable" sweep --region 1t..2t:1t
usage_case_o "from a missing file" sweep --from "$work/none.json"

echo '{"not": "a report"}' >"$work/bad.json"
run sweep --from "$work/bad.json"
expect_status 2 "from a non-report"
expect_one_error_line "from a non-report"

# A caveat about the config is said once, not once per point (a fixture
# sysroot whose shmem THP is never).
MEMTLB_SYSROOT="$MEMTLB_TEST_DATA/sysroot-nopmu" run sweep --region 64k..192k:64k \
	--pages thp --backing shared -i 1 --passes 1 -e minor-faults
expect_status 0 "sweep with a shmem THP caveat"
n=$(grep -c 'shmem_enabled is never' "$err")
[ "$n" = 1 ] && ok || fail "the shmem THP caveat said $n times for 3 points, not once"

run sweep --help
expect_status 0 "--help"
expect_grep '--vary KEY=V1,V2' "$out" "--help lists --vary"

finish
