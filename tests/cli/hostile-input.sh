#!/bin/sh
# SPDX-License-Identifier: MIT
# Inputs an adversary shapes: replay files, event sets, shared reports and
# their file names, option values. Each is refused with one line (exit 2) or
# shown harmlessly; none hangs, reads without end or crashes.
. "$(dirname "$0")/lib.sh"

good="$MEMTLB_TEST_DATA/replay/tlb.txt"
r="$work/replay"
mkdir -p "$r"

# bounded: CMD... under a 20 s limit; a hang is a failure, not a stuck test
bounded() {
	timeout 20 "$@"
}

# brun ARGS...: run under the limit
brun() {
	out="$work/out" err="$work/err"
	bounded "$MEMTLB" "$@" >"$out" 2>"$err"
	status=$?
}

# --- replay files -----------------------------------------------------------

# replay_bad NAME CONTENT: a replay file that is refused before the run
replay_bad() {
	printf "$2" >"$r/$1.txt"
	MEMTLB_BACKEND=replay:$r/$1.txt brun stat --region 1m -i 1 -p 1 -e minor-faults
	expect_status 2 "replay $1"
	expect_grep 'not a valid replay file' "$err" "replay $1 named as invalid"
}
replay_bad no-colon 'minor-faults 1 2 3\n'
replay_bad empty-name ': 1 2 3\n'
replay_bad long-name "$(head -c 200 /dev/zero | tr '\0' a): 1\n"
replay_bad name-192 "$(head -c 192 /dev/zero | tr '\0' a): 1\n"
replay_bad negative 'minor-faults: -1 0 0 0\n'
replay_bad negative-ena 'minor-faults: 1/-5/1\n'
replay_bad overflow 'minor-faults: 18446744073709551616\n'
replay_bad overflow-run 'minor-faults: 1/10/99999999999999999999999\n'
replay_bad run-over-ena 'minor-faults: 1/1000/2000\n'
replay_bad plus 'minor-faults: +1\n'
replay_bad duplicate 'minor-faults: 1\nminor-faults: 2\n'
replay_bad lone-cr 'cycles: 1\rminor-faults: 1\r'
replay_bad nul 'minor-faults: 1\000 2\n'
replay_bad counters-huge 'pmu-counters: 99999999999999999999\nminor-faults: 1\n'
replay_bad counters-negative 'pmu-counters: -1\nminor-faults: 1\n'
replay_bad unsupported-extra 'minor-faults: unsupported EACCES 7\n'

# CRLF is a line end like LF: every line is kept
printf 'minor-faults: 0 256 0 0\r\ncycles: 1 2 3 4\r\n' >"$r/crlf.txt"
MEMTLB_BACKEND=replay:$r/crlf.txt brun stat --region 1m -i 1 -p 1 -e minor-faults,cycles
expect_status 0 "replay with CRLF"
expect_grep '^write_0 .* 256 ' "$out" "CRLF: minor-faults kept"
if grep -q 'not supported' "$out"; then fail "CRLF: a line was lost"; else ok; fi
# the largest count is still a count
printf 'minor-faults: 18446744073709551615 0 0 0\n' >"$r/max.txt"
MEMTLB_BACKEND=replay:$r/max.txt brun stat --region 1m -i 1 -p 1 -e minor-faults
expect_status 0 "replay 2^64-1"

# not regular files: a directory, a device that never ends, a FIFO
MEMTLB_BACKEND=replay:$r brun stat --region 1m -i 1 -p 1 -e minor-faults
expect_status 2 "replay: a directory"
expect_grep 'not a valid replay file' "$err" "replay directory named"
MEMTLB_BACKEND=replay:/dev/zero brun stat --region 1m -i 1 -p 1 -e minor-faults
expect_status 2 "replay: /dev/zero"
ln -s /dev/zero "$r/zero.txt"
MEMTLB_BACKEND=replay:$r/zero.txt brun stat --region 1m -i 1 -p 1 -e minor-faults
expect_status 2 "replay: a link to /dev/zero"
# a FIFO is read (run.sh holds memtlb with one), but an endless writer is cut off
mkfifo "$r/fifo.txt"
(yes '# endless' >"$r/fifo.txt" 2>/dev/null &)
MEMTLB_BACKEND=replay:$r/fifo.txt brun stat --region 1m -i 1 -p 1 -e minor-faults
expect_status 2 "replay: a FIFO that never ends"
timeout 1 cat "$r/fifo.txt" >/dev/null 2>&1	# a writer left waiting, if any
# over the size cap (1 MiB): a comment line that long is no recording
{ cat "$good"; head -c 1100000 /dev/zero | tr '\0' '#'; echo; } >"$r/big.txt"
MEMTLB_BACKEND=replay:$r/big.txt brun stat --region 1m -i 1 -p 1 -e minor-faults
expect_status 2 "replay: over the size cap"


# --- option values ----------------------------------------------------------

# a factor just above 1: refused by its count of points, at once
usage_case "region of 10^10 points" stat --region 1..16t:x1.0000000011 -i 1
# seeds: digits only, and what the report's signed integer holds
for seed in ' -1' '-1' '+1' ' 1' 18446744073709551615 9223372036854775808; do
	usage_case "seed '$seed'" stat --region 1m -i 1 --seed "$seed"
done
MEMTLB_BACKEND=replay:$good brun stat --region 1m -i 1 -p 1 -e minor-faults \
	--seed 9223372036854775807 --format json
expect_status 0 "seed 2^63-1"
expect_grep '"seed": 9223372036854775807' "$out" "seed 2^63-1 recorded as given"

finish
