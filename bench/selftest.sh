#!/bin/sh
# SPDX-License-Identifier: MIT
# memtlb selftest, ROUNDS times in a row (issue 31): each run's wall time
# and exit status, and whether every run gave the same verdicts (the KTAP
# lines "ok N name" / "not ok N name", reasons and diagnostics left out).
# Goal: ROUNDS of ROUNDS identical, each under 60 seconds. A benchmark,
# not a test: on a quiet machine, as the user it is meant for (root or
# not: the checks need neither).
#
#   bench/selftest.sh [ROUNDS]      (default 10)
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-10}
memtlb=${MEMTLB:-$top/build/memtlb}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

echo "memtlb selftest x $rounds, $(nproc) CPUs, load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$rounds"); do
	t0=$(date +%s%N)
	rc=0
	"$memtlb" selftest >"$work/out.$r" 2>/dev/null || rc=$?
	t1=$(date +%s%N)
	# the verdicts alone: "ok 3 name" or "not ok 3 name", SKIP kept
	sed -n 's/^\(\(not \)\{0,1\}ok [0-9]* [^ ]*\)\( # SKIP\)\{0,1\}.*/\1\3/p' \
		"$work/out.$r" >"$work/verdicts.$r"
	awk -v n="$r" -v t=$(((t1 - t0) / 1000000)) -v rc="$rc" 'BEGIN {
		printf "  run %2d: %6.1f s, exit %d", n, t / 1000, rc }'
	echo ", $(grep -c '^ok' "$work/verdicts.$r") ok," \
		"$(grep -c '^not ok' "$work/verdicts.$r") not ok" \
		"($(grep -c 'SKIP' "$work/verdicts.$r") SKIP)"
done
same=0
for r in $(seq "$rounds"); do
	! cmp -s "$work/verdicts.1" "$work/verdicts.$r" || same=$((same + 1))
done
echo "identical verdicts: $same of $rounds"
echo "verdicts of run 1:"
sed 's/^/  /' "$work/verdicts.1"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
