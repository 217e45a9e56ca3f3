#!/bin/sh
# SPDX-License-Identifier: MIT
# task-clock and cpu-clock count nanoseconds: a time, never a count. Every
# text shows them in a time unit and says which (stat, run: msec as perf;
# compare: msec; flush: us per op, as its times); CSV, JSON and the exports
# keep ns and say so. The counts are replayed: exactly 12,345,678 ns.
. "$(dirname "$0")/lib.sh"

printf 'task-clock: 12345678\ncycles: 1000000\n' >"$work/replay.txt"
export MEMTLB_BACKEND=replay:$work/replay.txt

run stat --region 1m -i 2 --passes 1 -e task-clock,cycles -o "$work/a.json"
expect_status 0 "stat"
expect_grep 'task-clock \(msec\)' "$out" "stat: task-clock's column in msec"
expect_grep '^write_0 .* 12\.35 +1,000,000$' "$out" "stat: 12.35 msec, cycles a count"
cp "$work/a.json" "$work/b.json"
python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
c = r["results"][0]["phases"][1]["counters"]["task-clock"]
assert c["mean"] == 12345678, c' "$work/a.json" 2>"$work/py.err" && ok ||
	{ fail "stat json: task-clock in ns"; cat "$work/py.err" >&2; }

# compare's text: msec, with the legend saying so; the CSV and JSON in ns
run compare "$work/a.json" "$work/b.json"
expect_status 0 "compare"
expect_grep '^ +12\.346 ~ 0% .* write_0\.task-clock$' "$out" "compare: task-clock in msec"
expect_no_grep 'e\+07|12345678|12,345,678' "$out" "compare: no count of ns"
expect_grep '^task-clock, cpu-clock: msec \(ns in the CSV and the JSON\)$' "$out" \
	"compare: the legend names the unit"
run compare "$work/a.json" "$work/b.json" --format csv
expect_grep '^"region=1m block=4k",write_0,"task-clock",counters,1,12345678,' "$out" \
	"compare csv: ns"
run compare "$work/a.json" "$work/b.json" --format markdown
expect_grep '^\| 12\.346 ~ 0% ' "$out" "compare markdown: msec"

# memtlb report's exports: a time, its unit ns as time_ns's
run report "$work/a.json" --format lava
expect_grep '^memtlb\.1m\.write_0\.task-clock pass 12345678 ns$' "$out" "lava: ns"

# flush: per op, in us as the time columns, never a count of ns
run flush --pages 1..2:x2 -i 1 --ops 5 -e task-clock,cycles
expect_status 0 "flush"
expect_grep '^  \[1\] task-clock \(us\)$' "$out" "flush: task-clock's unit in the legend"
if awk '/^ pages +\[1\]/ { on = 1; next } on && NF == 3 && $2 + 0 >= 1e6 { bad = 1 }
	/^$/ { on = 0 } END { exit bad }' "$out"; then ok; else
	fail "flush: task-clock per op is not in us"; cat "$out" >&2; fi

finish
