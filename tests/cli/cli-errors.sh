#!/bin/sh
# SPDX-License-Identifier: MIT
# Bad input: one clear line on stderr, exit 2, nothing run, nothing written.
. "$(dirname "$0")/lib.sh"


usage_case_o "unknown suffix" stat --region 16x
usage_case_o "zero region" stat --region 0
usage_case_o "negative region" stat --region -1
usage_case_o "fraction" stat --region 1.5g
usage_case_o "overflow" stat --region 99999999999g
usage_case_o "empty region" stat --region ""
usage_case_o "block larger than region" stat --region 4k --block 8k
usage_case_o "block smaller than a word" stat --region 4k --block 4
usage_case_o "unknown event" stat --region 4m -e cycles,NO_SUCH_EVENT
usage_case_o "duplicated event" stat --region 4m -e minor-faults,minor-faults
usage_case_o "unknown option" stat --region 4m --bogus
usage_case_o "missing value" stat --region 4m --iterations
usage_case_o "zero iterations" stat --region 4m -i 0
usage_case_o "bad backing" stat --region 4m --backing tmpfs
usage_case_o "bad format" stat --region 4m --format xml
usage_case_o "stray argument" stat --region 4m extra
usage_case_o "region beyond MemAvailable" stat --region 64t
usage_case_o "tasks x region overflow" stat --region 8000t --tasks 4000 --task-region private --task-mode thread
usage_case_o "unknown command" frobnicate

# libpfm4's reason for a refused name: no such event, a missing unit mask,
# a bad modifier (a PMU forced: libpfm4 may not know this CPU's).
usage_case "event not found" stat --region 4m -e nosuchevent
expect_grep '^memtlb: -e: nosuchevent: event not found$' "$err" "says not found"
usage_case "bad modifier" stat --region 4m -e minor-faults:bogus
expect_grep '^memtlb: -e: minor-faults:bogus: invalid event attribute$' "$err" \
	"a perf name's bad modifier is not 'not found'"
LIBPFM_FORCE_PMU=skl usage_case "missing unit mask" stat --region 4m -e DTLB_LOAD_MISSES
expect_grep '^memtlb: -e: DTLB_LOAD_MISSES: invalid or missing unit mask$' "$err" \
	"says the unit mask is missing"
LIBPFM_FORCE_PMU=skl usage_case "bad unit mask" stat --region 4m -e DTLB_LOAD_MISSES:BOGUS
expect_grep '^memtlb: -e: DTLB_LOAD_MISSES:BOGUS: invalid event attribute$' "$err" \
	"says the unit mask is not the event's"

run stat --region 4m -o /nonexistent-dir/r.json
expect_status 2 "unwritable -o"
expect_one_error_line "unwritable -o"

run stat --region 16x
expect_grep '^memtlb: --region: 16x: not a size$' "$err" "message names option and value"
expect_grep '^hint: ' "$err" "a hint follows"

run
expect_status 2 "no command"

run --help
expect_status 0 "--help"
expect_grep '^  stat ' "$out" "--help lists stat"

finish
