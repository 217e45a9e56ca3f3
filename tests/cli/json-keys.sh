#!/bin/sh
# SPDX-License-Identifier: MIT
# memtlb-json(5) names every key memtlb writes. Real documents (stat, a
# 3-point sweep, a sweep over page sizes with its matrix and roofline,
# probe, flush, run, compare -o, compare --explain -o, a stat through the replay backend with a
# PMU) are walked key by key; each key must be named in the
# page in bold (*key*: the page's rule, in its DESCRIPTION). Keys that are
# data, not names (event names, hugetlb and mTHP sizes, --vary keys, cpuid
# bit names), are not looked up.
. "$(dirname "$0")/lib.sh"

page=$(dirname "$0")/../../man/memtlb-json.5.scd
replay="$MEMTLB_TEST_DATA/replay/tlb.txt"
events=cycles,instructions,dTLB-loads,dTLB-load-misses,minor-faults,major-faults

docs=
doc() {	# NAME ARGS...: run memtlb, keep the JSON it wrote to $work/NAME.json
	name=$1; shift
	run "$@"
	if [ "$status" -eq 0 ] && [ -s "$work/$name.json" ]; then ok; docs="$docs $work/$name.json"
	else fail "$name: exit $status, no document"; sed 's/^/  stderr: /' "$err" >&2; fi
}
doc stat stat --region 1m -i 2 --passes 1 -o "$work/stat.json"
doc runs stat --region 1m -i 2 --passes 1 --runs 2 -o "$work/runs.json"
doc sweep sweep --region 1m..4m -i 2 --passes 1 -o "$work/sweep.json"
doc pages sweep --region 2m --vary pages=base,thp -i 2 --passes 1 -o "$work/pages.json"
doc probe probe --max 256k --format json -o "$work/probe.json"
doc coalesce probe --max 1m --coalesce --format json -o "$work/coalesce.json"
doc flush flush --pages 1..4:x2 -i 2 --ops 5 -o "$work/flush.json"
doc run run -o "$work/run.json" -- true
doc compare compare "$work/stat.json" "$work/stat.json" -o "$work/compare.json"
doc explain compare --explain "$MEMTLB_TEST_DATA/compare/base.json" \
	"$MEMTLB_TEST_DATA/compare/regression.json" -o "$work/explain.json"
MEMTLB_BACKEND=replay:$replay
export MEMTLB_BACKEND
doc replay stat --region 1m -i 2 --passes 1 -e "$events" -o "$work/replay.json"
unset MEMTLB_BACKEND

# shellcheck disable=SC2086
python3 - "$page" $docs >"$work/missing" 2>&1 <<'PY'
import json, re, sys

page = open(sys.argv[1]).read()
bold = set(re.findall(r"\*([A-Za-z0-9_.\-\\]+)\*", page))
bold = {b.replace("\\", "") for b in bold}
# Objects whose keys are data: their children are not names.
DATA = ("counters", "hugepages", "thp_sizes", "kvm_features", "params",
        "geomean_change_pct")

def walk(v, path, out):
    if isinstance(v, dict):
        for k, c in v.items():
            out.setdefault(k, set()).add(path)
            if k not in DATA:
                walk(c, path + "." + k, out)
            elif isinstance(c, dict):
                for cc in c.values():
                    walk(cc, path + "." + k + ".*", out)
    elif isinstance(v, list):
        for c in v:
            walk(c, path + "[]", out)

def named(k):
    if k in bold:
        return True
    # dotted kernel keys: *vmstat.*_NAME_ names every vmstat.X
    if "." in k and k.split(".")[0] + "." in bold:
        return True
    # probe.points: the page names the dotted path
    return any(b.endswith("." + k) for b in bold)

missing = {}
for f in sys.argv[2:]:
    keys = {}
    walk(json.load(open(f)), f.rsplit("/", 1)[-1].replace(".json", ""), keys)
    for k, paths in keys.items():
        if not named(k):
            missing.setdefault(k, set()).update(paths)
for k in sorted(missing):
    print("%s (in %s)" % (k, ", ".join(sorted(missing[k]))))
sys.exit(1 if missing else 0)
PY
if [ $? -eq 0 ]; then ok; else
	fail "keys written but not named in memtlb-json(5):"; sed 's/^/  /' "$work/missing" >&2; fi

# The schema: 3 in what memtlb writes now (a probe has its own), and
# reports of schemas 1 and 2 (every fixture under tests/data is 1) still load.
for f in stat sweep flush run replay compare; do
	if python3 -c 'import json, sys
assert json.load(open(sys.argv[1]))["memtlb"]["schema"] == 3' "$work/$f.json"; then ok; else
		fail "$f: memtlb.schema is not 3"; fi
done
run report "$MEMTLB_TEST_DATA/compare/base.json" "$MEMTLB_TEST_DATA/sweep-1m-64m.json"
expect_status 0 "schema 1 reports load"
run compare "$MEMTLB_TEST_DATA/compare/base.json" "$work/stat.json"
expect_status 0 "a schema 1 report against a schema 2 one"

finish
