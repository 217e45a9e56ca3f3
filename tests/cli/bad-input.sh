#!/bin/sh
# SPDX-License-Identifier: MIT
# The catalogue of bad report files, fed to every command that reads them
# (compare, report, sweep --from): one clear line on stderr, exit 2, no
# crash, and no output file created or damaged.
. "$(dirname "$0")/lib.sh"

good="$MEMTLB_TEST_DATA/compare/base.json"
d="$work/in"
mkdir -p "$d"

# The files.
: >"$d/empty.json"
head -c 300 "$good" >"$d/truncated.json"
printf 'memtlb was here\n' >"$d/text.json"
printf '\x00\x01\x02\xff' >"$d/binary.json"
python3 - "$d" "$good" <<'PY'
import json, sys
d, good = sys.argv[1], json.load(open(sys.argv[2]))
open(f"{d}/nested.json", "w").write("[" * 100000 + "]" * 100000)
open(f"{d}/nested-obj.json", "w").write('{"a":' * 50000 + "1" + "}" * 50000)
def variant(name, f):
    r = json.loads(json.dumps(good)); f(r); json.dump(r, open(f"{d}/{name}.json", "w"))
variant("schema2", lambda r: r["memtlb"].update(schema=4))
variant("schema-string", lambda r: r["memtlb"].update(schema="1"))
variant("no-memtlb", lambda r: r.pop("memtlb"))
variant("no-results", lambda r: r.pop("results"))
variant("results-object", lambda r: r.update(results={}))
variant("region-string", lambda r: r["config"].update(region="1g"))
variant("region-negative", lambda r: r["config"].update(region=-1))
variant("phases-missing", lambda r: r["results"][0].pop("phases"))
variant("phase-no-name", lambda r: r["results"][0]["phases"][0].pop("name"))
variant("time-string", lambda r: r["results"][0]["phases"][0].update(time_ns="fast"))
variant("counter-missing", lambda r: r["results"][0]["phases"][0]["counters"].clear())
variant("counter-bad-mean", lambda r: [c.update(mean="x") for c in
        r["results"][0]["phases"][0]["counters"].values() if c.get("counted")])
variant("events-not-list", lambda r: r["results"][0].update(events="cycles"))
variant("event-name-long", lambda r: r["results"][0]["events"][0].update(name="e" * 5000))
variant("samples-strings", lambda r: r["results"][0]["phases"][0]["time_ns"].update(samples=["a"]))
text = json.dumps(good)
open(f"{d}/duplicate-key.json", "w").write(text.replace('{"memtlb"', '{"command": "x", "memtlb"', 1)
                                          .replace('"command": "stat"', '"command": "stat", "command": "y"', 1))
open(f"{d}/huge-number.json", "w").write(text.replace('"region": ', '"region": 1e400, "x": ', 1))
open(f"{d}/huge-int.json", "w").write(text.replace('"region": ', '"region": 99999999999999999999999, "x": ', 1))
PY
truncate -s 100M "$d/huge-file.json"
mkdir "$d/a-directory.json"
ln -s /nonexistent "$d/dangling.json"

cases="missing.json a-directory.json dangling.json empty.json truncated.json text.json
	binary.json nested.json nested-obj.json schema2.json schema-string.json no-memtlb.json
	no-results.json results-object.json region-string.json region-negative.json
	phases-missing.json phase-no-name.json time-string.json counter-missing.json
	counter-bad-mean.json events-not-list.json event-name-long.json samples-strings.json
	duplicate-key.json huge-number.json huge-int.json huge-file.json"


for f in $cases; do
	usage_case "compare $f as base" compare "$d/$f" "$good"
	usage_case "compare $f as new" compare "$good" "$d/$f" --format json
	usage_case "report $f" report "$d/$f" -o "$work/out.html"
	[ -e "$work/out.html" ] && fail "report $f: created its output" || ok
	usage_case "sweep --from $f" sweep --from "$d/$f"
done

# Events and events files: the same rules, for stat, sweep and run.
ev="$work/events"
mkdir -p "$ev"
printf 'set syntax\ndescription d\nbogus line\n' >"$ev/syntax.events"
printf 'set nopmu\ndescription d\npmu nosuchpmu\nevent FOO - foo\n' >"$ev/nopmu.events"
printf 'set empty\ndescription d\n' >"$ev/empty.events"
many=$(awk 'BEGIN { for (i = 0; i < 500; i++) printf "%sno_such_event_%d", i ? "," : "", i }')
for cmd in "stat --region 4m" "sweep --region 4m..8m" "run"; do
	tail=
	[ "$cmd" = run ] && tail="-- true"
	# shellcheck disable=SC2086 # $cmd and $tail are word lists
	{
		usage_case "$cmd: empty event list" $cmd -e "" $tail
		usage_case "$cmd: only commas" $cmd -e ",," $tail
		usage_case "$cmd: duplicated event" $cmd -e minor-faults,minor-faults $tail
		usage_case "$cmd: unknown event" $cmd -e minor-faults,NO_SUCH_EVENT $tail
		usage_case "$cmd: 500 unknown events" $cmd -e "$many" $tail
		usage_case "$cmd: another machine's PMU" $cmd -e no_such_pmu::CYCLES $tail
		usage_case "$cmd: unknown set" $cmd --events nosuchset $tail
		usage_case "$cmd: -e and --events" $cmd -e minor-faults --events default $tail
		usage_case "$cmd: events dir missing" $cmd --events-dir "$work/none" --events default $tail
		usage_case "$cmd: syntax error" $cmd --events-dir "$ev" --events syntax $tail
		usage_case "$cmd: no section for this PMU" $cmd --events-dir "$ev" --events nopmu $tail
		usage_case "$cmd: empty set" $cmd --events-dir "$ev" --events empty $tail
	}
done
run stat --region 4m --events-dir "$ev" --events syntax
expect_grep '\.events:[0-9]+: ' "$err" "events file errors name file:line"

# An existing output is not damaged by a failing report.
echo keep >"$work/keep.md"
run report "$d/truncated.json" -o "$work/keep.md"
expect_status 2 "report over an existing file"
[ "$(cat "$work/keep.md")" = keep ] && ok || fail "existing output damaged"
if ls -A "$work" | grep -q '^\.memtlb-'; then fail "temp file left"; else ok; fi

finish
