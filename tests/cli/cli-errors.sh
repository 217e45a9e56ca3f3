#!/bin/sh
# SPDX-License-Identifier: MIT
# Bad input: one clear line on stderr, exit 2, nothing run, nothing written.
. "$(dirname "$0")/lib.sh"


usage_case_o "unknown suffix" stat --region 16x
usage_case_o "zero region" stat --region 0
usage_case_o "negative region" stat --region -1
usage_case_o "fraction" stat --region 1.3k
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

# The option that failed is the one named (issue 15: getopt's optind after
# an unfinished "-x," named the element before it: 'run', '64m').
usage_case "short option in a cluster" stat --region 64m -q,
expect_grep "^memtlb: stat: unknown option '-q'$" "$err" "names -q, not 64m"
usage_case "short option first" run -q, -- true
expect_grep "^memtlb: run: unknown option '-q'$" "$err" "names -q, not run"
usage_case "second of a cluster" stat -vq
expect_grep "^memtlb: stat: unknown option '-q'$" "$err" "names the second of -vq"
usage_case "long option with a value" stat --regoin=4m
expect_grep "^memtlb: stat: unknown option '--regoin'$" "$err" "names --regoin without its value"
usage_case "flag given a value" stat --populate=yes
expect_grep "^memtlb: stat: option '--populate' takes no value$" "$err" "says no value"
usage_case "short missing value" stat -v -b
expect_grep "^memtlb: stat: option '-b' needs a value$" "$err" "names -b"
usage_case "long missing value" sweep --vary
expect_grep "^memtlb: sweep: option '--vary' needs a value$" "$err" "names --vary"
usage_case "global short option in a cluster" -xV
expect_grep "^memtlb: unknown option '-x'$" "$err" "names -x, not memtlb's path"
usage_case "global misspelt option" --versoin
expect_grep "^hint: did you mean --version\?" "$err" "--versoin: --version"
usage_case "global flag given a value" --help=1
expect_grep "^memtlb: option '--help' takes no value$" "$err" "--help=1"
for c in probe report list compare sysinfo; do
	usage_case "$c: short option" $c -q,
	expect_grep "^memtlb: $c: unknown option '-q'$" "$err" "$c names -q"
done

# Did-you-mean: commands, long options, event names.
usage_case "misspelt command" stats
expect_grep "^hint: did you mean 'stat'?" "$err" "stats: stat"
usage_case "far command" frobnicate
expect_grep "^hint: memtlb --help lists the commands$" "$err" "no guess for frobnicate"
usage_case "misspelt option" stat --regoin 4m
expect_grep "^hint: did you mean --region?" "$err" "--regoin: --region"
usage_case "misspelt sweep option" sweep --vray block=4k
expect_grep "^hint: did you mean --vary?" "$err" "--vray: --vary"
usage_case "misspelt run option" run --evnet cycles -- true
expect_grep "^hint: did you mean --event?" "$err" "--evnet: --event"
usage_case "misspelt perf event" stat --region 4m -e cycels
expect_grep "^hint: did you mean cycles\?$" "$err" "cycels: cycles"
usage_case "perf event without a part" stat --region 4m -e dTLB-misses
expect_grep "^hint: did you mean dTLB-load-misses or dTLB-store-misses\?$" "$err" \
	"dTLB-misses: the names with its parts"
LIBPFM_FORCE_PMU=skl usage_case "misspelt PMU event" stat --region 4m -e DTLB_LOAD_MISSE:WALK_COMPLETED
expect_grep "^hint: did you mean DTLB_LOAD_MISSES:WALK_COMPLETED\?$" "$err" "PMU event"
LIBPFM_FORCE_PMU=skl usage_case "misspelt unit mask" stat --region 4m -e DTLB_LOAD_MISSES:WALK_COMPLETD
expect_grep "^hint: did you mean DTLB_LOAD_MISSES:WALK_COMPLETED\?$" "$err" "unit mask"
usage_case "far event" stat --region 4m -e nosuchevent
expect_grep "^hint: perf names" "$err" "no guess: the general hint"

# Sizes: what memtlb prints it takes; SI units and fractions of a byte not.
for s in 1GiB "1.0 GiB" 1.5g 0x10KiB "64 MiB"; do
	run stat --region "$s" --help
	expect_status 0 "size $s accepted"
done
usage_case "SI unit" stat --region 512MB
expect_grep '^memtlb: --region: 512MB: not a binary size$' "$err" "MB refused"
expect_grep '^hint: .*1048576' "$err" "MB: binary hint"
usage_case "kB" stat --block 4kB
expect_grep '^hint: .*binary' "$err" "kB: binary hint"
usage_case "not whole" stat --region 1.3k
expect_grep '^memtlb: --region: 1.3k: not a whole number of bytes$' "$err" "1.3k refused"

run
expect_status 2 "no command"

run --help
expect_status 0 "--help"
expect_grep '^  stat ' "$out" "--help lists stat"

finish
