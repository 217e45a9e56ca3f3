#!/bin/sh
# SPDX-License-Identifier: MIT
# The replay model of arm64's PMU driver (pmu-counters-arm64), as the real
# armv8_pmuv3 behaved in qemu's arm64 guest (tests/cli/vm-arch.sh): a group
# one event larger than the counters opens (its disabled leader is not
# checked) and is never scheduled; one more is refused with EINVAL. With
# pmu-counters (x86, POWER: the leader is checked) the same events split at
# open and every group runs.
. "$(dirname "$0")/lib.sh"

data=${MEMTLB_TEST_DATA:?}
ev=cycles,instructions,dTLB-loads,dTLB-load-misses

MEMTLB_BACKEND=replay:$data/replay-arm64.txt run stat --region 1m -i 1 --passes 1 -e "$ev" --format json
expect_status 0 "arm64 model"
expect_grep 'counter group was never scheduled.*counting again' "$err" \
	"arm64 model: the group it took never ran, and was split"
if python3 - "$out" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
g = {e["name"]: e["group"] for e in r["events"]}
# The fourth hardware event was refused at open and led a group of its own;
# the three that opened were never scheduled and were split one by one.
assert len(set(g.values())) == 4, g
w = {p["name"]: p for p in r["phases"]}["write_0"]["counters"]
for n in g:
    assert w[n]["counted"] and w[n]["running"] == 1.0, (n, w[n])
PY
then ok; else fail "arm64 model: four groups, all counted"; fi

# The x86/POWER model of the same PMU: two groups of two, no split at run time.
printf 'pmu-counters: 2\n' >"$work/x86.txt"
sed -n '/^[a-zA-Z-]*: [0-9]/p' "$data/replay-arm64.txt" | grep -v '^pmu' >>"$work/x86.txt"
MEMTLB_BACKEND=replay:$work/x86.txt run stat --region 1m -i 1 --passes 1 -e "$ev" --format json
expect_status 0 "x86 model"
if grep -q 'never scheduled' "$err"; then fail "x86 model: a group never ran"; else ok; fi
if python3 - "$out" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
g = {e["name"]: e["group"] for e in r["events"]}
assert g == {"cycles": 0, "instructions": 0, "dTLB-loads": 1, "dTLB-load-misses": 1}, g
PY
then ok; else fail "x86 model: two groups of two"; fi

finish
