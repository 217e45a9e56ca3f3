#!/bin/sh
# SPDX-License-Identifier: MIT
# Tasks count the workload's faults and nothing else: with the counters
# inherited by forked or spawned tasks, every iteration's write_0 holds
# exactly one minor fault per block of every task's region, and every other
# phase none: not the copy-on-write faults of a fork, not a task's first run
# of its code, not the coordinator's own.
. "$(dirname "$0")/lib.sh"

# exact WANT: in $out (JSON), minor-faults min == max == WANT in write_0
# over the iterations, and min == max == 0 in every other phase.
exact() {
	python3 - "$out" "$1" >"$work/py" 2>&1 <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
want = int(sys.argv[2])
res = r["results"][0]
assert res["params"]["blocks"] == want, res["params"]
bad = []
for p in res["phases"]:
    c = p["counters"]["minor-faults"]
    assert c["supported"] and c["counted"] and c["n"] == 3, c
    w = want if p["name"] == "write_0" else 0
    if c["min"] != w or c["max"] != w:
        bad.append(f'{p["name"]}: {c["min"]:g}..{c["max"]:g}, want {w}')
assert not bad, "; ".join(bad)
PY
}

# check WHAT WANT ARGS...: run stat ARGS and expect exact counts. The kernel
# may move a page of memtlb's (compaction, under another test's load) and
# the next touch of it faults: one rerun tells that from memtlb's own.
check() {
	what=$1 want=$2
	shift 2
	run "$@"
	expect_status 0 "$what: exit status"
	exact "$want" && { ok; return; }
	sed 's/^/  first run: /' "$work/py" >&2
	run "$@"
	if exact "$want"; then ok; else
		fail "$what"; sed 's/^/  /' "$work/py" >&2; sed 's/^/  stderr: /' "$err" >&2
	fi
}

# A sanitizer's runtime writes its shadow memory from instrumented code in
# every phase, and after a fork those writes are copy-on-write faults: exact
# counts are the release build's to check (the touch loops are never
# instrumented; see tests/meson.build's touch-pages).
if ldd "$MEMTLB" 2>/dev/null | grep -q -e libasan -e libubsan; then
	echo "a sanitizer build: its shadow memory faults too, skipped"
	exit 77
fi

# Without software counters (perf_event_open refused) there is nothing to check.
run stat --region 1m -i 1 --passes 1 -e minor-faults --format json
if [ "$status" -ne 0 ] || ! python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))["results"][0]["phases"][0]["counters"]["minor-faults"]
sys.exit(0 if c["supported"] else 1)' "$out" 2>/dev/null; then
	echo "minor-faults cannot be counted here: skipped"
	exit 77
fi

page=$(getconf PAGESIZE)
blocks=$(( (64 << 20) / page ))	# per 64 MiB region: 16384 with 4 KiB pages
for mode in process thread; do
	# Two private regions: 2 x 16384 faults in write_0, in every iteration.
	check "$mode private: write_0 = 2 x $blocks faults in each iteration, other phases 0" \
		$((2 * blocks)) stat --region 64m --backing anon --pages base --tasks 2 \
		--task-mode $mode --task-region private -i 3 -e minor-faults --format json
	# One region the tasks share (MAP_SHARED: processes inherit it).
	check "$mode shared: write_0 = $blocks faults in each iteration, other phases 0" \
		$blocks stat --region 64m --backing shared --pages base --tasks 2 \
		--task-mode $mode --task-region shared -i 3 -e minor-faults --format json
done
# A single forked task, and the random order (a buffer the tasks read).
check "process private random, 1 task: write_0 = $blocks, other phases 0" $blocks \
	stat --region 64m --backing anon --pages base --tasks 1 --task-mode process \
	--task-region private --access random -i 3 -e minor-faults --format json
finish
