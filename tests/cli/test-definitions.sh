#!/bin/sh
# SPDX-License-Identifier: MIT
# The LAVA test definition in contrib/test-definitions as Linaro's
# test-definitions takes it: its own validate.py (tests/vendor/, unchanged)
# with the options of its sanity-check.sh passes on the YAML (metadata keys
# name, format, description, maintainer, os, devices; run.steps) and on the
# script (shellcheck -S warning); then memtlb.sh runs each test the YAML
# offers, with the PAGES each takes, and writes result.txt in the form
# send-to-lava.sh reads. validate.py is skipped where its Debian packages
# are missing (scripts/setup.sh test installs them).
. "$(dirname "$0")/lib.sh"

top=${MEMTLB_SOURCE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
def=$top/contrib/test-definitions/automated/linux/memtlb
validate=$top/tests/vendor/test-definitions/validate.py
out=$work/out err=$work/err
case $MEMTLB in /*) ;; *) MEMTLB=$(pwd)/$MEMTLB ;; esac
lava_line='^[^ ]+ (pass|fail|skip|unknown)( -?[0-9.eE+-]+( [^ ]+)?)?$'

# validate.py runs as test-definitions' CI runs it (sanity-check.sh):
#   validate.py -r build-error.txt -p E501 W503 E203 -s SC1091 SC2230 SC3043 -l warning
# on each file (-f), from a tree laid as theirs: automated/linux/memtlb/.
if /usr/bin/python3 -c 'import yaml, magic, pycodestyle' 2>/dev/null &&
   command -v shellcheck >/dev/null; then
	mkdir -p "$work/td/automated/linux"
	cp -R "$def" "$work/td/automated/linux/memtlb"
	for f in automated/linux/memtlb/memtlb.yaml automated/linux/memtlb/memtlb.sh; do
		if (cd "$work/td" && /usr/bin/python3 "$validate" -r "$work/build-error.txt" \
			-p E501 W503 E203 -s SC1091 SC2230 SC3043 -l warning -v -f "$f") \
			>"$work/v.out" 2>&1 && grep -q 'PASSED' "$work/v.out"; then ok; else
			fail "validate.py $f"; sed 's/^/  /' "$work/v.out" >&2; fi
	done
	# the rule that failed before: a definition without a maintainer
	sed '/maintainer:/,/^ *- /d' "$def/memtlb.yaml" >"$work/td/automated/linux/memtlb/memtlb.yaml"
	if (cd "$work/td" && /usr/bin/python3 "$validate" -r "$work/build-error.txt" \
		-f automated/linux/memtlb/memtlb.yaml) >"$work/v.out" 2>&1; then
		fail "validate.py passes a definition without a maintainer"; else ok; fi
else
	echo "validate.py not run: python3-yaml, python3-magic, python3-pycodestyle or shellcheck missing"
fi

# The params' defaults, as LAVA substitutes them into run.steps.
for key in TEST REGION ITERATIONS PAGES SKIP_INSTALL; do
	if grep -Eq "^    $key: " "$def/memtlb.yaml" &&
	   grep -q "\"\\\${$key}\"" "$def/memtlb.yaml"; then ok; else
		fail "memtlb.yaml: param $key not defined or not passed to memtlb.sh"; fi
done

# Each test, with a page kind it takes (flush: none; it says so and runs).
# Small sizes: a CI machine, not a board.
lava_case() {	# WHAT ARGS...
	what=$1
	shift
	rm -rf "$work/lava-out"
	if (cd "$def" && MEMTLB=$MEMTLB OUTPUT="$work/lava-out" sh ./memtlb.sh "$@") \
		>"$work/lava.stdout" 2>"$work/lava.stderr"; then ok; else
		fail "memtlb.sh $what: exit"; sed 's/^/  /' "$work/lava.stderr" >&2; fi
	r=$work/lava-out/result.txt
	mkdir -p "$work/lava-out" && touch "$r"
	if [ -s "$r" ] && ! grep -Evq -- "$lava_line" "$r"; then ok; else
		fail "memtlb.sh $what: result.txt not in send-to-lava.sh's form"; cat "$r" >&2; fi
	if grep -q ' fail$' "$r"; then
		fail "memtlb.sh $what: a failed run"; sed 's/^/  /' "$work/lava-out/memtlb.log" >&2
	else ok; fi
}
lava_case "stat base" -t stat -r 16m -i 2 -p base
expect_grep '^memtlb\.16m\.read_4\.ns_per_block pass [0-9.]+ ns$' "$work/lava-out/result.txt" \
	"memtlb.sh stat: read_4"
lava_case "sweep" -t sweep -r 1m..2m -i 2
lava_case "probe thp" -t probe -r 1m -p thp
expect_grep '^memtlb\.probe\.levels pass [0-9]+$' "$work/lava-out/result.txt" "memtlb.sh probe: levels"
lava_case "flush with PAGES" -t flush -i 2 -p thp
expect_grep 'PAGES=thp not used' "$work/lava.stdout" "memtlb.sh flush: says PAGES is not used"

# Without memtlb and with SKIP_INSTALL: a clear error, no install.
if (cd "$def" && MEMTLB=/nonexistent/memtlb OUTPUT="$work/lava-out" \
	sh ./memtlb.sh -t stat -s true) >"$out" 2>"$err"; then
	fail "memtlb.sh without memtlb: exit 0"
else
	expect_grep 'not found' "$err" "memtlb.sh without memtlb"
fi

finish
