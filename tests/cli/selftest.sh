#!/bin/sh
# SPDX-License-Identifier: MIT
# memtlb selftest --from on seed 000's two fixtures: the unpatched T7-2
# curve (the TSB's x6.25 jump at 512m -> 576m) is not ok, exit 1; the
# patched one ok, exit 0. The KTAP is fed to the kernel's own parser,
# tools/testing/kunit/kunit_parser.py, taken from Debian's linux-source
# tarball where it is installed, else to a strict checker here. Nothing is
# timed: the verdicts come from the saved curves. A live run only with
# MEMTLB_SELFTEST_LIVE=1 (seconds to a minute, and it loads the machine).
. "$(dirname "$0")/lib.sh"

data=$MEMTLB_TEST_DATA/seed000
tarball=/usr/src/linux-source-6.1.tar.xz

# The parser, where the kernel's source is on this machine.
parser=
if [ -r "$tarball" ] && command -v python3 >/dev/null &&
	tar -xJf "$tarball" -C "$work" --occurrence=1 --wildcards --strip-components=4 \
		'*/tools/testing/kunit/kunit_parser.py' \
		'*/tools/testing/kunit/kunit_printer.py' 2>/dev/null &&
	[ -f "$work/kunit_parser.py" ]; then
	parser=kunit
fi

# ktap FILE PASS FAIL SKIP: the output parses as KTAP with those counts and
# no parse error, and kselftest's totals line says the same.
ktap() {
	if [ "$parser" = kunit ]; then
		python3 - "$work" "$@" <<'PY' >"$work/parse" 2>&1
import sys
sys.path.insert(0, sys.argv[1])
import kunit_parser
path, want = sys.argv[2], tuple(int(v) for v in sys.argv[3:6])
test = kunit_parser.parse_run_tests(open(path).read().splitlines())
c = test.counts
got = (c.passed, c.failed, c.skipped)
assert c.errors == 0 and c.crashed == 0, "parse errors: %s" % c
assert got == want, "pass/fail/skip %s, expected %s" % (got, want)
assert len(test.subtests) == test.expected_count, "plan %s, %d results" % (
    test.expected_count, len(test.subtests))
print("kunit_parser:", c)
PY
	else
		python3 - "$@" <<'PY' >"$work/parse" 2>&1
import re, sys
lines = open(sys.argv[1]).read().splitlines()
want = tuple(int(v) for v in sys.argv[2:5])
assert lines[0] == "KTAP version 1", lines[0]
m = re.fullmatch(r"1\.\.([0-9]+)", lines[1])
assert m, lines[1]
plan, n, got = int(m.group(1)), 0, [0, 0, 0]
for line in lines[2:]:
    if line.startswith("# "):
        continue
    r = re.fullmatch(r"(ok|not ok) ([0-9]+) ([a-z0-9_]+)( # (SKIP )?(.+))?", line)
    assert r, "not a KTAP line: %r" % line
    n += 1
    assert int(r.group(2)) == n, line
    assert r.group(1) == "ok" or not r.group(5), "not ok with SKIP: " + line
    got[2 if r.group(5) else 0 if r.group(1) == "ok" else 1] += 1
assert n == plan, "plan %d, %d results" % (plan, n)
assert tuple(got) == want, "pass/fail/skip %s, expected %s" % (got, want)
PY
	fi
	if [ $? -eq 0 ]; then ok; else
		fail "$1: KTAP ($parser parser)"; sed 's/^/  /' "$work/parse" >&2; fi
	expect_grep "^# Totals: pass:$2 fail:$3 xfail:0 xpass:0 skip:$4 error:0\$" "$1" \
		"$1: kselftest's totals"
}
[ -n "$parser" ] && echo "KTAP checked by the kernel's kunit_parser.py" ||
	echo "KTAP checked by the strict checker here ($tarball absent)"

# seed 000 before the patch: the TSB's jump, which no hardware level explains
run selftest --from "$data/t7-ldom-no-patch.json"
expect_status 1 "no patch"
expect_grep '^not ok 1 knees_explained # knee x5.52 at 512m -> 576m: no TLB level' "$out" \
	"no patch: the knee named"
expect_grep "^ok 2 knees_at_reach # SKIP no TLB level's reach" "$out" "no patch: at_reach skips"
ktap "$out" 0 1 1
cp "$out" "$work/no-patch.ktap"

# and after it: linear, no knee
run selftest --from "$data/t7-ldom-patch.json"
expect_status 0 "patch"
expect_grep '^ok 1 knees_explained$' "$out" "patch: ok"
expect_grep '^# knees_explained: no knee' "$out" "patch: no knee said"
ktap "$out" 1 0 1

# the same verdicts every time: nothing in --from is drawn at random
for i in 1 2 3; do
	run selftest --from "$data/t7-ldom-no-patch.json"
	cmp -s "$out" "$work/no-patch.ktap" && ok || fail "no patch: run $i differs"
done

# a higher ratio than the jump: no knee, ok
run selftest --from "$data/t7-ldom-no-patch.json" --knee-ratio 8
expect_status 0 "--knee-ratio 8"
ktap "$out" 1 0 1

# the fixtures are what their generator makes
python3 "$data/make-fixtures.py" "$work" &&
	cmp -s "$work/t7-ldom-no-patch.json" "$data/t7-ldom-no-patch.json" &&
	cmp -s "$work/t7-ldom-patch.json" "$data/t7-ldom-patch.json" && ok ||
	fail "tests/data/seed000: not what make-fixtures.py writes"

# every check skipped: exit 4, never 0 (a sweep of two points has no curve)
python3 - "$MEMTLB_TEST_DATA/sweep-1m-64m.json" "$work/two.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["results"] = d["results"][:2]
json.dump(d, open(sys.argv[2], "w"))
PY
run selftest --from "$work/two.json"
expect_status 4 "all skipped"
ktap "$out" 0 0 2

# bad input: exit 2, one line, nothing on stdout
usage_case "--from missing" selftest --from "$work/nonexistent.json"
usage_case "an argument" selftest extra
usage_case "--knee-ratio 1" selftest --knee-ratio 1
echo '{"memtlb": {"schema": 1}, "command": "stat", "config": {}, "results": []}' >"$work/stat.json"
run selftest --from "$work/stat.json"
expect_status 2 "--from a report not a sweep's"

if [ "${MEMTLB_SELFTEST_LIVE:-0}" = 1 ]; then
	run selftest
	case $status in 0 | 1 | 4) ok ;; *) fail "live: exit $status" ;; esac
	expect_grep '^1\.\.9$' "$out" "live: the plan"
	# the counts the run itself says, checked by the parser
	set -- $(sed -n 's/^# Totals: pass:\([0-9]*\) fail:\([0-9]*\) .* skip:\([0-9]*\) .*/\1 \2 \3/p' "$out")
	ktap "$out" "$1" "$2" "$3"
fi
finish
