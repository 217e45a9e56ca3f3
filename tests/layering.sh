#!/bin/sh
# SPDX-License-Identifier: MIT
# The floors of src/ (docs/ARCHITECTURE.md). Every #include "..." in
# src/**/*.{c,h} names src/<floor>/<file> of its own folder or of a folder
# the table below lets it include; counters/interface.h is included from
# src/counters/ only; nothing includes <memtlb/...>. tests/unit/*.c and
# tests/fuzz/*.c may include any header, but only real ones.
#
# layering.sh            prove the checker fails on a fake tree with bad
#                        includes, then check $MEMTLB_SOURCE_ROOT
# layering.sh --check R  check the tree R alone: one line per violation,
#                        "N files checked, N violations", exit 1 on any
set -u

# What each folder may include besides its own headers, highest floor first.
# counters and workload are one level: neither includes the other, what
# needs both is measure or above; so are analysis and measure: what a
# report means is worked out without the machine. src/main.c is cli.
LAYERS='
cli       report analysis measure stats counters workload model sys
report    analysis measure stats counters workload model sys
analysis  stats counters workload model sys
measure   stats counters workload model sys
stats     counters workload model sys
counters  model sys
workload  model sys
model     sys
sys
'

check() {	# ROOT
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/memtlb-layering.XXXXXX") || return 2
	# Every file under src/: what a quoted include can resolve to.
	(cd "$1" && find src -type f | LC_ALL=C sort) >"$tmp/all"
	(cd "$1" && {
		find src -type f \( -name '*.c' -o -name '*.h' \)
		find tests/unit tests/fuzz -maxdepth 1 -type f -name '*.c' 2>/dev/null
	} | LC_ALL=C sort) >"$tmp/checked"
	(cd "$1" && awk -v layers="$LAYERS" -v all="$tmp/all" -v checked="$tmp/checked" '
		function bad(why) {
			printf "%s: includes %s (%s)\n", file, inc, why
			violations++
		}
		function dir(p) {
			sub("/[^/]*$", "", p)
			return p
		}
		# One line of file; me is its floor, test whether it is a test.
		function include(line,    to) {
			if (line ~ /^[ \t]*#[ \t]*include[ \t]*<memtlb\//) {
				inc = line
				sub(/^[^<]*/, "", inc)
				sub(/>.*/, ">", inc)
				bad("no include/memtlb/: headers sit in src/<floor>/")
				return
			}
			if (line !~ /^[ \t]*#[ \t]*include[ \t]*"/)
				return
			inc = line
			sub(/^[^"]*"/, "", inc)
			sub(/".*/, "", inc)
			to = inc
			sub("/.*", "", to)
			if (test) {
				if (!(("src/" inc) in exists) && !((dir(file) "/" inc) in exists))
					bad("no such header in src/ or " dir(file) "/")
				return
			}
			if (inc !~ /^[a-z0-9_-]+\/[^\/]+$/ || !(to in floor)) {
				bad("not src/<floor>/<file>: write \"<floor>/<module>.h\"")
				return
			}
			if (!(("src/" inc) in exists)) {
				bad("no such file src/" inc)
				return
			}
			if (inc == "counters/interface.h" && me != "counters") {
				bad("the backend ops are for src/counters/ only")
				return
			}
			if (!(me in floor) || to == me || ((me, to) in may))
				return
			if ((to, me) in may)
				bad(to " is above " me)
			else
				bad(to " is beside " me ", not below it")
		}
		BEGIN {
			n = split(layers, row, "\n")
			for (i = 1; i <= n; i++) {
				k = split(row[i], w, " ")
				if (k)
					floor[w[1]] = 1
				for (j = 2; j <= k; j++)
					may[w[1], w[j]] = 1
			}
			while ((getline f < all) > 0)
				exists[f] = 1
			while ((getline file < checked) > 0) {
				files++
				test = file ~ /^tests\//
				split(file, part, "/")
				me = file == "src/main.c" ? "cli" : part[2]
				if (!test && !(me in floor)) {
					printf "%s: not in a floor folder (src/<floor>/, or src/main.c)\n",
					       file
					violations++
				}
				while ((getline line < file) > 0)
					include(line)
				close(file)
			}
			printf "%d files checked, %d violations\n", files, violations
			exit violations > 0
		}')
	ret=$?
	rm -rf "$tmp"
	return $ret
}

if [ "${1:-}" = --check ]; then
	check "${2:?usage: $0 --check ROOT}"
	exit
fi

src=${MEMTLB_SOURCE_ROOT:?}
failures=0
fail() {
	failures=$((failures + 1))
	echo "FAIL: $*" >&2
}

# A tiny fake tree: one clean file and one of each violation.
fake=$(mktemp -d "${TMPDIR:-/tmp}/memtlb-layering.XXXXXX")
trap 'rm -rf "$fake"' EXIT
mkdir -p "$fake/src/cli" "$fake/src/stats" "$fake/src/counters" "$fake/src/measure" \
	 "$fake/src/workload" "$fake/src/model" "$fake/tests/unit"
for h in cli/cli.h counters/interface.h counters/counters.h workload/workload.h \
	 model/config.h; do
	echo '/* SPDX-License-Identifier: MIT */' >"$fake/src/$h"
done
printf '#include <stdio.h>\n\n#include "model/config.h"\n' >"$fake/src/stats/ok.c"
printf '#include "cli/cli.h"\n' >"$fake/src/stats/foo.c"
printf '#include "counters/interface.h"\n' >"$fake/src/measure/peek.c"
printf '#include "workload/workload.h"\n' >"$fake/src/counters/side.c"
printf '#include "config.h"\n#include "model/gone.h"\n' >"$fake/src/model/short.c"
printf '#include <memtlb/config.h>\n' >"$fake/src/workload/old.c"
printf '#include "cli/cli.h"\n#include "stats/nothere.h"\n' >"$fake/tests/unit/test-x.c"

out=$(sh "$0" --check "$fake")
status=$?
echo "fake tree (violations expected):"
printf '%s\n' "$out" | sed 's/^/  /'
[ "$status" -ne 0 ] || fail "fake tree: exit 0, expected a failure"
for want in \
	'src/stats/foo.c: includes cli/cli.h (cli is above stats)' \
	'src/measure/peek.c: includes counters/interface.h (the backend ops are for src/counters/ only)' \
	'src/counters/side.c: includes workload/workload.h (workload is beside counters, not below it)' \
	'src/model/short.c: includes config.h (not src/<floor>/<file>: write "<floor>/<module>.h")' \
	'src/model/short.c: includes model/gone.h (no such file src/model/gone.h)' \
	'src/workload/old.c: includes <memtlb/config.h> (no include/memtlb/: headers sit in src/<floor>/)' \
	'tests/unit/test-x.c: includes stats/nothere.h (no such header in src/ or tests/unit/)' \
	'12 files checked, 7 violations'; do
	printf '%s\n' "$out" | grep -qxF -- "$want" || fail "fake tree: no line '$want'"
done

echo "source tree:"
out=$(sh "$0" --check "$src")
status=$?
printf '%s\n' "$out" | sed 's/^/  /'
[ "$status" -eq 0 ] || fail "source tree: exit $status, expected 0"

[ "$failures" -eq 0 ] || exit 1
echo "ok"
