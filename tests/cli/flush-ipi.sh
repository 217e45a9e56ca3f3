#!/bin/sh
# SPDX-License-Identifier: MIT
# memtlb flush counts nothing of its own as the op's: its IPIs per op agree
# with an independent program's (tests/helpers/flush-oracle.c: the same ops,
# no counters) within 0.05, and its counters take no fault of memtlb's. Counts
# only. /proc/interrupts is system-wide: medians over many iterations, and a
# few tries, keep another task's burst of IPIs out of the verdict.
. "$(dirname "$0")/lib.sh"

oracle="${MEMTLB_TEST_BUILD:?}/flush-oracle"
if ! grep -q '^ *CAL:' /proc/interrupts; then
	echo "SKIP: /proc/interrupts has no CAL row (function-call IPIs)"
	exit 77
fi

# The first op's counts are the op's alone: no fault of memtlb's code, whose
# first run under the counters used to add 2 minor faults.
for op in madvise munmap mprotect; do
	run flush --op "$op" --tasks 2 --pages 1..2 -i 1 --ops 1 \
		-e minor-faults,major-faults --format json
	expect_status 0 "$op: one op"
	if python3 - "$out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:
    for name, c in r["phases"][0]["counters"].items():
        if c.get("supported") and c["mean"] != 0:
            sys.exit("%s K=%d: %s %g per op, not 0" % (
                r["phases"][0]["name"], r["params"]["blocks"], name, c["mean"]))
PY
	then ok; else fail "$op: faults of memtlb's own in an op's counts"; fi
done

# agree OP TASKS: memtlb's irq.CAL and irq.TLB medians per op within 0.05 of
# the oracle's; up to 5 tries, a pause between (a burst passes).
agree() {
	op=$1 tasks=$2 try=0
	while [ $try -lt 5 ]; do
		try=$((try + 1))
		"$oracle" "$op" "$tasks" 1 400 15 >"$work/oracle" 2>&1
		st=$?
		if [ $st -eq 77 ]; then echo "SKIP: $(head -1 "$work/oracle")"; exit 77; fi
		[ $st -eq 0 ] || { fail "oracle $op $tasks: exit $st"; return; }
		run flush --op "$op" --tasks "$tasks" --pages 1 -i 15 --ops 400 \
			-e task-clock --format json
		[ "$status" -eq 0 ] || { expect_status 0 "flush $op $tasks"; return; }
		if python3 - "$out" "$work/oracle" "$tasks" >"$work/verdict" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
want = dict(l.split() for l in open(sys.argv[2]) if l[:4] in ("TLB ", "CAL "))
tasks = int(sys.argv[3])
k = d["results"][0]["phases"][0]["kernel"]
bad = []
for row in ("CAL", "TLB"):
    key = "irq." + row
    if key not in k:
        if row == "CAL":
            bad.append("no irq.CAL in the report")
        continue
    got, exp = k[key]["median"], float(want[row])
    print("%s: memtlb %.3f oracle %.3f" % (key, got, exp))
    if abs(got - exp) > 0.05:
        bad.append("%s %.3f per op, the oracle's %.3f" % (key, got, exp))
own = d["flush"]["points"][0].get("own_irq")
f = d["flush"]
# Counters the other task inherited: an enable and a disable reach its CPU.
if tasks == 2 and f["pinned"] == 2:
    if not own or not 1.5 <= own["irq.CAL"] <= 2.5:
        bad.append("own_irq %r: not the 2 toggles per op" % own)
if bad:
    sys.exit("; ".join(bad))
PY
		then ok; return; fi
		cat "$work/verdict" >&2
		sleep 2
	done
	fail "flush $op --tasks $tasks: IPIs per op off the oracle's, 5 tries"
}

# One task: no other CPU runs the mm, the oracle's answer is 0 on any kernel.
agree madvise 1
# Two tasks, where the enable and disable of the counters used to add 2.
agree madvise 2
agree mprotect 2
agree munmap 2

run flush --op madvise --tasks 2 --pages 1 -i 3 --ops 50 -e task-clock
expect_status 0 "flush table"
expect_grep "memtlb's own" "$out" "own IPIs column"
expect_grep '^  added to the counted pass' "$out" "own IPIs said"
w=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$out")
[ "$w" -le 80 ] && ok || fail "text is $w columns wide"

finish
