#!/bin/sh
# SPDX-License-Identifier: MIT
# memtlb report --format lkp|lava|kcidb on real reports, and the recipes in
# contrib/ that feed them to lkp-tests and LAVA: a change of memtlb's output
# must fail here before it breaks a fleet's parser.
. "$(dirname "$0")/lib.sh"

top=${MEMTLB_SOURCE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
contrib=$top/contrib
schema=$contrib/kcidb/schema-v5.3.json
lkp_line='^[A-Za-z0-9_.-]+: -?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$'
# send-to-lava.sh's two forms: "name result" and "name result measurement [units]".
lava_line='^[^ ]+ (pass|fail|skip|unknown)( -?[0-9.eE+-]+( [^ ]+)?)?$'

# every_line PATTERN FILE WHAT
every_line() {
	if [ -s "$2" ] && ! grep -Evq -- "$1" "$2"; then ok; else
		fail "$3: a line does not match /$1/"; grep -Ev -- "$1" "$2" | head -5 >&2; fi
}

unique_keys() {	# FILE WHAT
	dups=$(sed 's/[: ].*//' "$1" | sort | uniq -d | head -3)
	if [ -z "$dups" ]; then ok; else fail "$2: keys repeated: $dups"; fi
}

# Debian's python3 and its python3-jsonschema (setup.sh test), not whatever
# python3 comes first on the PATH.
kcidb_valid() {	# FILE WHAT
	if ! /usr/bin/python3 -c 'import jsonschema' 2>/dev/null; then
		echo "SKIP: $2: python3-jsonschema is not installed" >&2
		return
	fi
	if /usr/bin/python3 - "$schema" "$1" <<'PY'
import json, sys, jsonschema
schema, doc = (json.load(open(p)) for p in sys.argv[1:3])
jsonschema.Draft202012Validator.check_schema(schema)
errors = list(jsonschema.Draft202012Validator(schema).iter_errors(doc))
for e in errors[:3]:
    print(f"  {list(e.path)}: {e.message}", file=sys.stderr)
sys.exit(1 if errors else 0)
PY
	then ok; else fail "$2: not a valid KCIDB v5.3 report"; fi
}

# A real stat: 16 MiB of anonymous memory, 4096 first-touch faults in write_0.
run stat --region 16m --backing anon -i 2 -o "$work/r.json"
expect_status 0 "stat for the exports"

run report "$work/r.json" --format lkp
expect_status 0 "lkp export"
cp "$out" "$work/lkp"
every_line "$lkp_line" "$work/lkp" "lkp: key: number"
unique_keys "$work/lkp" "lkp"
expect_grep '^16m\.read_4\.ns_per_block: [0-9.]+$' "$work/lkp" "lkp: read_4 ns per block"
expect_grep '^16m\.write_0\.rusage_minflt: 4096$' "$work/lkp" "lkp: the kernel's fault count"
# An event this machine cannot count is no stat at all, never a 0.
for ev in $(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join(e["name"] for e in d["results"][0]["events"] if not e["supported"]))' "$work/r.json"); do
	if grep -q "^16m\.write_0\.$ev:" "$work/lkp"; then fail "lkp: unsupported $ev has a value"; else ok; fi
	run report "$work/r.json" --format lava
	expect_grep "^memtlb\.16m\.write_0\.$ev skip\$" "$out" "lava: unsupported $ev skipped"
done

run report "$work/r.json" --format lava
expect_status 0 "lava export"
cp "$out" "$work/lava"
every_line "$lava_line" "$work/lava" "lava: send-to-lava.sh's form"
unique_keys "$work/lava" "lava"
expect_grep '^memtlb\.16m\.read_4\.ns_per_block pass [0-9.]+ ns$' "$work/lava" "lava: measurement and units"

run report "$work/r.json" --format kcidb --origin memtlb_test --checkout v6.18 --build b1 --run box1
expect_status 0 "kcidb export"
cp "$out" "$work/kcidb.json"
kcidb_valid "$work/kcidb.json" "kcidb"
if python3 - "$work/kcidb.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = {x["path"]: x for x in d["tests"]}
r4 = t["memtlb.stat.16m.read_4.ns_per_block"]
assert d["version"] == {"major": 5, "minor": 3}
assert d["checkouts"][0]["id"] == "memtlb_test:v6.18"
assert d["builds"][0]["id"] == "memtlb_test:b1" and d["builds"][0]["checkout_id"] == "memtlb_test:v6.18"
assert r4["id"] == "memtlb_test:b1:box1:memtlb.stat.16m.read_4.ns_per_block", r4["id"]
assert r4["status"] == "DONE" and r4["number"]["unit"] == "s" and r4["number"]["prefix"] == "metric"
assert 0 < r4["number"]["value"] < 1e-3 and r4["misc"]["n"] == 2
assert abs(r4["number"]["value"] * 1e9 - r4["misc"]["mean"]) <= 1e-9 * r4["misc"]["mean"]
assert len(d["tests"]) == 12, len(d["tests"])	# one headline per phase: mmap, 10 passes, munmap
# only what memtlb knows: no checkout validity, no build status
assert set(d["checkouts"][0]) == {"id", "origin"}, d["checkouts"][0]
assert set(d["builds"][0]) <= {"id", "origin", "checkout_id", "architecture"}, d["builds"][0]
assert "cpu_emulated" in r4["environment"]["misc"]
PY
then ok; else fail "kcidb: ids, paths and numbers"; fi

# KCIDB requires an origin and a checkout, which memtlb cannot know: asked
# for, never made up.
usage_case "kcidb without --origin" report "$work/r.json" --format kcidb --checkout v6.18
expect_grep 'origin' "$err" "kcidb without --origin: says so"
usage_case "kcidb without --checkout" report "$work/r.json" --format kcidb --origin lab
expect_grep 'checkout' "$err" "kcidb without --checkout: says so"
usage_case "kcidb with an empty --build" report "$work/r.json" --format kcidb --origin lab \
	--checkout c1 --build ''

# A run on an emulated CPU (qemu's TCG) says so, in the environment and
# its comment; a report that says nothing of it leaves it null.
python3 - "$work/r.json" "$work/tcg.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["system"]["cpu_emulated"] = True
d["system"]["cpu_emulated_evidence"] = "cpuinfo: QEMU TCG CPU"
json.dump(d, open(sys.argv[2], "w"))
PY
run report "$work/tcg.json" --format kcidb --origin lab --checkout c1
expect_status 0 "kcidb of an emulated run"
cp "$out" "$work/tcg-kcidb.json"
kcidb_valid "$work/tcg-kcidb.json" "kcidb of an emulated run"
if python3 - "$work/tcg-kcidb.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for t in d["tests"]:
    e = t["environment"]
    assert e["misc"]["cpu_emulated"] is True, e
    assert e["misc"]["cpu_emulated_evidence"] == "cpuinfo: QEMU TCG CPU", e
    assert "emulated CPU" in e["comment"], e["comment"]
PY
then ok; else fail "kcidb: an emulated run does not say so"; fi

# Two runs of one kernel on one host: every test id its own (each report's
# run id), where before the host alone made them collide.
run stat --region 1m --backing anon -i 2 -o "$work/r2.json"
run stat --region 1m --backing anon -i 2 -o "$work/r3.json"
run report "$work/r2.json" "$work/r3.json" --format kcidb --origin lab --checkout c1
expect_status 0 "kcidb of two runs"
cp "$out" "$work/two.json"
kcidb_valid "$work/two.json" "kcidb of two runs"
if python3 - "$work/two.json" "$work/r2.json" "$work/r3.json" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
ids = [t["id"] for t in d["tests"]]
assert ids and len(ids) == len(set(ids)), "duplicate test ids"
run = [json.load(open(f))["memtlb"]["run_id"] for f in sys.argv[2:]]
assert all(re.fullmatch("[0-9a-f]{32}", r) for r in run) and run[0] != run[1], run
assert all(any(":" + r + ":" in i for i in ids) for r in run), ids[:2]
PY
then ok; else fail "kcidb: two runs' test ids unique"; fi
# ... and exported apart, as a CI submits each run when it ends
run report "$work/r2.json" --format kcidb --origin lab --checkout c1
cp "$out" "$work/two-a.json"
run report "$work/r3.json" --format kcidb --origin lab --checkout c1
cp "$out" "$work/two-b.json"
if python3 - "$work/two-a.json" "$work/two-b.json" <<'PY'
import json, sys
a, b = ({t["id"] for t in json.load(open(f))["tests"]} for f in sys.argv[1:3])
assert a and b and not a & b, sorted(a & b)[:2]
PY
then ok; else fail "kcidb: two runs exported apart share test ids"; fi

# Options and inputs checked before anything is read.
usage_case "kcidb origin not [a-z0-9_]" report "$work/r.json" --format kcidb --origin Bad-Lab \
	--checkout c1
usage_case "kcidb ids without kcidb" report "$work/r.json" --origin lab
usage_case "lkp takes one report" report "$work/r.json" "$work/r.json" --format lkp
usage_case "lava takes one report" report "$work/r.json" "$work/r.json" --format lava
usage_case "unknown format" report "$work/r.json" --format lkpp
mkdir "$work/empty" "$work/fleet"
usage_case "directory without reports" report "$work/empty"

# A directory of reports: a fleet's at once.
cp "$work/r.json" "$work/fleet/a.json"
cp "$work/r.json" "$work/fleet/b.json"
echo junk >"$work/fleet/notes.txt"
run report "$work/fleet" --format kcidb --origin lab --checkout c1
expect_status 0 "kcidb of a directory"
if [ "$(grep -c '"checkout_id"' "$out")" -eq 2 ]; then ok; else fail "kcidb of a directory: two builds"; fi
run report "$work/fleet"
expect_status 0 "text report of a directory"
# compare over a fleet: 20 reports, one column each, as lkp compares commits.
for i in $(seq 3 20); do cp "$work/r.json" "$work/fleet/c$i.json"; done
run compare "$work"/fleet/*.json
expect_status 0 "compare of 20 reports"
expect_grep '^new\[19\]: ' "$out" "compare: the twentieth report's column"

# Strings from a report are untrusted: names with spaces, newlines, colons,
# control bytes and a non-ASCII byte still give well-formed keys.
python3 - "$work/r.json" "$work/hostile.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
res = d["results"][0]
bad = "evil name\n\x1b[31m:x/y=z\u00e9"
for e in res["events"]:
    if e["name"] == "minor-faults":
        e["name"] = bad
for p in res["phases"]:
    if "minor-faults" in p["counters"]:
        p["counters"][bad] = p["counters"].pop("minor-faults")
d["command"] = "stat"
d["system"]["machine"] = "X86 64;rm"
json.dump(d, open(sys.argv[2], "w"))
PY
run report "$work/hostile.json" --format lkp
expect_status 0 "lkp of a hostile report"
every_line "$lkp_line" "$out" "lkp of a hostile report"
expect_grep '^16m\.write_0\.evil_name___31m_x_y_z__: 4096$' "$out" "lkp: a hostile name reduced"
run report "$work/hostile.json" --format lava
every_line "$lava_line" "$out" "lava of a hostile report"
run report "$work/hostile.json" --format kcidb --origin lab --checkout c1
expect_status 0 "kcidb of a hostile report"
cp "$out" "$work/hostile-kcidb.json"
kcidb_valid "$work/hostile-kcidb.json" "kcidb of a hostile report"

# lkp's parse on the fixture in lkp's layout, as lkp's CI runs parsers:
# alone, no memtlb on the PATH; the stats are exactly the expected ones.
# And memtlb's own lkp keys of that run's report (tests/data/lkp/) are the
# same stats, so a key that changes fails here.
fx=$contrib/lkp-tests/spec/fixtures/stats/memtlb
if PATH=/usr/bin:/bin MEMTLB=/nonexistent "$contrib/lkp-tests/programs/memtlb/parse" \
	<"$fx/01" >"$work/parsed" 2>"$err" && cmp -s "$work/parsed" "$fx/01.yaml"; then ok; else
	fail "lkp parse of spec/fixtures/stats/memtlb/01 differs from 01.yaml"
	diff "$fx/01.yaml" "$work/parsed" | head -10 >&2; fi
every_line "$lkp_line" "$fx/01.yaml" "lkp fixture"
run report "$top/tests/data/lkp/sweep-16m-64m.json" --format lkp
if cmp -s "$out" "$fx/01.yaml"; then ok; else
	fail "memtlb's lkp keys of the fixture's report differ from 01.yaml"
	diff "$fx/01.yaml" "$out" | head -10 >&2; fi

# Every job lkp's split-job makes of jobs/memtlb.yaml, through run and
# parse under stand-ins for lkp's shell library: each document's memtlb:
# replaces the first's (lkp's revise_hash), each list a dimension. Sizes
# and iterations made small for CI; stderr must stay empty (lkp counts
# each line of it as a failure).
mkdir -p "$work/lkp-src/lib" "$work/bin" "$work/lkp-res"
cat >"$work/lkp-src/lib/reproduce-log.sh" <<'SH'
log_echo() { echo "$(date "+%F %T") $*"; }
log_cmd() { log_echo "$@"; "$@"; }
SH
echo 'die() { echo "$*" >&2; exit 1; }' >"$work/lkp-src/lib/debug.sh"
ln -s "$MEMTLB" "$work/bin/memtlb"
python3 - "$contrib/lkp-tests/jobs/memtlb.yaml" >"$work/jobs" <<'PY'
import itertools, sys, yaml
docs = list(yaml.safe_load_all(open(sys.argv[1])))
for doc in docs:
    m = doc["memtlb"]
    keys = sorted(m)
    vals = [v if isinstance(v, list) else [v] for v in (m[k] for k in keys)]
    for combo in itertools.product(*vals):
        print(" ".join(f"{k}={v}" for k, v in zip(keys, combo)))
PY
njobs=$(wc -l <"$work/jobs")
if [ "$njobs" -eq 11 ]; then ok; else fail "lkp job file: $njobs jobs, expected 11"; fi
while read -r job; do
	small="iterations=2"
	case $job in
	*test=stat*) small="$small region=16m" ;;
	*test=sweep*) small="$small region=1m..2m" ;;
	*test=probe*) small="$small region=1m" ;;
	esac
	rm -f "$work/lkp-res"/*
	# shellcheck disable=SC2086 # the job's parameters are words
	if env PATH="$work/bin:$PATH" LKP_SRC="$work/lkp-src" TMP_RESULT_ROOT="$work/lkp-res" \
		$job $small bash "$contrib/lkp-tests/programs/memtlb/run" >"$work/lkp-out" 2>"$err" &&
	   PATH=/usr/bin:/bin "$contrib/lkp-tests/programs/memtlb/parse" <"$work/lkp-out" \
		>"$work/lkp-stats"; then ok; else
		fail "lkp job $job: run | parse"; sed 's/^/  /' "$err" >&2; fi
	if [ -s "$err" ]; then fail "lkp job $job: stderr is not empty"; sed 's/^/  /' "$err" >&2
	else ok; fi
	every_line "$lkp_line" "$work/lkp-stats" "lkp job $job"
done <"$work/jobs"

# LAVA's script: result.txt in send-to-lava.sh's form.
if (cd "$contrib/test-definitions/automated/linux/memtlb" &&
    MEMTLB=$MEMTLB OUTPUT="$work/lava-out" sh ./memtlb.sh -t stat -r 16m -i 2) >"$out" 2>"$err"
then ok; else fail "memtlb.sh"; sed 's/^/  /' "$err" >&2; fi
every_line "$lava_line" "$work/lava-out/result.txt" "memtlb.sh result.txt"
expect_grep '^memtlb\.16m\.read_4\.ns_per_block pass ' "$work/lava-out/result.txt" "memtlb.sh: read_4"

finish
