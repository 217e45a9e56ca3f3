#!/bin/sh
# SPDX-License-Identifier: MIT
# --tlb FILE: a probe report's measured levels beside cpuid's. Synthetic
# sweep reports (a known step in read_0) and a synthetic probe report, so
# the explanation, the agreement line and the JSON are checked exactly; no
# timing decides anything here.
. "$(dirname "$0")/lib.sh"

M=1048576

# probe OUT LEVELS_JSON: what memtlb probe --format json writes, cut down.
probe() {
	cat >"$1" <<EOF
{"memtlb": {"schema": 2, "version": "test", "command": "probe"},
 "probe": {"levels": $2, "points": [], "unvalidated": 0, "huge_slow_at": null}}
EOF
}

l2='[{"name": "L1 dTLB", "entries_min": 56, "entries_max": 72, "page_size": 4096,
      "reach_bytes": 294912, "confidence": 0.9},
     {"name": "L2 TLB", "entries_min": 1536, "entries_max": 2560, "page_size": 4096,
      "reach_bytes": 10485760, "confidence": 0.8}]'
probe "$work/p.json" "$l2"

# No cpuid levels (this machine): the probe's L2 explains the 8m -> 16m knee.
make_sweep "$work/none.json" $((16 * M)) '[]'
run sweep --from "$work/none.json" --phase read_0 --tlb "$work/p.json"
expect_status 0 "sweep --from --tlb"
tr '\n' ' ' <"$out" | sed 's/  */ /g' >"$work/joined"
expect_grep 'knee: 8m -> 16m, ns/block x3\.0: the region passes the L2 TLB reach, 6\.0 MiB\.\.10\.0 MiB \(1536\.\.2560 x 4\.0 KiB, probe\)' \
	"$work/joined" "knee explained by the probe's L2"
if grep -q 'agree' "$out"; then fail "no cpuid level: no agreement line"; else ok; fi
# The pressure column: the region over the probe's L2 reach range, both ends.
expect_grep '^8m +[0-9.]+ +[0-9.]+ +[0-9.-]+ +[0-9.]+ +0\.8\.\.1\.33$' "$out" "x reach at 8m"
expect_grep '^x reach: the region over the L2 TLB reach \(1536\.\.2560 x 4\.0 KiB, probe\);' \
	"$out" "the x reach column's level"

# The levels are kept in the report: JSON tlb_levels[], and the knee's level.
run sweep --from "$work/none.json" --phase read_0 --tlb "$work/p.json" --format json
expect_status 0 "sweep --from --tlb --format json"
cp "$out" "$work/kept.json"
if python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
lv = d["tlb_levels"]
assert [l["name"] for l in lv] == ["L1 dTLB", "L2 TLB"], lv
assert lv[1] == {"name": "L2 TLB", "entries_min": 1536, "entries_max": 2560,
                 "page_size": 4096, "reach_bytes": 1536 * 4096, "source": "probe"}, lv[1]
k, = [k for k in d["knees"] if k["phase"] == "read_4" or True][:1]
' "$out"; then ok; else fail "JSON tlb_levels[]"; fi
# ... so sweep --from of that report explains the knee without --tlb.
run sweep --from "$work/kept.json" --phase read_0
tr '\n' ' ' <"$out" | sed 's/  */ /g' >"$work/joined"
expect_grep 'the region passes the L2 TLB reach, 6\.0 MiB\.\.10\.0 MiB \(1536\.\.2560 x 4\.0 KiB, probe\)' \
	"$work/joined" "levels kept in the report"
run report "$work/kept.json"
expect_status 0 "memtlb report of a report with tlb_levels"
# ... which names the probe's levels in every format, and says where a
# knee's level may come from.
expect_grep 'L2 TLB +4k +1536\.\.2560 +6m\.\.10m +probe$' "$out" "report: the probe's level"
tr '\n' ' ' <"$out" | sed 's/  */ /g' >"$work/joined"
expect_grep 'as cpuid reports it or as memtlb probe measured it' "$work/joined" \
	"report: the knees' note names both sources"
run report "$work/kept.json" --format markdown
expect_grep '^\| .*kept\.json \| L2 TLB \| 4k \| 1536\.\.2560 \| 6m\.\.10m \| probe \|$' "$out" \
	"report markdown: the probe's level"
# The plots: the probe's reach range a band between two dashed lines,
# labelled with its source (a fake gnuplot keeps its input).
cat >"$work/gp-keep" <<SH
#!/bin/sh
cat >>"$work/gp-input"
echo '<svg xmlns="http://www.w3.org/2000/svg"></svg>'
SH
chmod +x "$work/gp-keep"
export MEMTLB_GNUPLOT="$work/gp-keep"
run report "$work/kept.json" --format html
unset MEMTLB_GNUPLOT
expect_status 0 "report html with tlb_levels"
expect_grep '<td>L2 TLB</td><td>4k</td><td>1536\.\.2560</td>' "$out" "report html: the level"
expect_grep "^set label 'L2 TLB 4k reach 6m\.\.10m \(probe\)' at 6291456, graph" \
	"$work/gp-input" "plot: the probe's level labelled"
expect_grep '^set object rect from 6291456, graph 0 to 10485760, graph 1 behind' \
	"$work/gp-input" "plot: the probe's reach range as a band"
expect_grep '^set arrow from 10485760, graph 0 to 10485760, graph 1 nohead dt 2' \
	"$work/gp-input" "plot: the range's upper edge"
# A probe report has no workload's points: compare refuses it, and says so
# (memtlb report renders a whole one as a probe's document: report.sh).
usage_case "compare of a probe report" compare "$work/p.json" "$work/p.json"
expect_grep 'a memtlb probe report: its levels are read by stat and sweep --tlb' "$err" \
	"compare of a probe report: why"

# cpuid's L2 inside the probe's range: agree; outside: disagree.
zen3='[{"level": 1, "type": "data", "pages": "4K", "entries": 64, "ways": 0},
       {"level": 2, "type": "data", "pages": "4K", "entries": 2048, "ways": 8}]'
make_sweep "$work/zen3.json" $((16 * M)) "$zen3"
run sweep --from "$work/zen3.json" --phase read_0 --tlb "$work/p.json"
expect_status 0 "sweep --from --tlb, cpuid levels too"
expect_grep '^L2 dTLB: cpuid 2048 entries, probe 1536\.\.2560: agree$' "$out" "agree"
expect_grep '^L1 dTLB: cpuid 64 entries, probe 56\.\.72: agree$' "$out" "L1 agree"
small='[{"level": 2, "type": "data", "pages": "4K", "entries": 1024, "ways": 8}]'
make_sweep "$work/small.json" $((16 * M)) "$small"
run sweep --from "$work/small.json" --phase read_0 --tlb "$work/p.json"
expect_grep '^L2 dTLB: cpuid 1024 entries, probe 1536\.\.2560: disagree$' "$out" "disagree"
# cpuid's 1024 x 4 KiB (4 MiB) is not in 8m..16m: the probe's level explains it.
tr '\n' ' ' <"$out" | sed 's/  */ /g' >"$work/joined"
expect_grep 'knee: 8m -> 16m, ns/block x3\.0: the region passes the L2 TLB reach' \
	"$work/joined" "the measured level where cpuid's does not explain"

# x reach by each point's pages: from 16m the scan found huge pages, and
# cpuid's 2 MiB level (32 entries, 64 MiB) is theirs; a line per level used.
both='[{"level": 2, "type": "data", "pages": "4K", "entries": 1024, "ways": 8},
       {"level": 2, "type": "data", "pages": "2M/4M", "entries": 32, "ways": 4}]'
make_sweep "$work/mixed.json" $((16 * M)) "$both"
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:
    n = r["params"]["region"]
    if n >= 16 << 20:
        r["mapping"]["pages"].update(huge=n, base=0)
json.dump(d, open(sys.argv[1], "w"))' "$work/mixed.json"
run sweep --from "$work/mixed.json" --phase read_0
expect_status 0 "sweep --from, base and huge pages in one series"
expect_grep '^8m( +[0-9.-]+){4} +2$' "$out" "x reach: 8m over 1024 x 4 KiB"
expect_grep '^16m( +[0-9.-]+){4} +0\.25 ' "$out" "x reach: 16m over 32 x 2 MiB"
expect_grep '^x reach: the region over the L2 dTLB reach \(1024 x 4\.0 KiB\)$' "$out" \
	"x reach: the base pages' level"
expect_grep '^x reach: the region over the L2 dTLB reach \(32 x 2\.0 MiB\);' "$out" \
	"x reach: the huge pages' level"

# stat: the pressure line names the probe's levels, and the agreement.
run stat --region 16m -i 1 --passes 1 --backing anon --pages base --tlb "$work/p.json" \
	-o "$work/stat.json"
expect_status 0 "stat --tlb"
tr '\n' ' ' <"$out" | sed 's/  */ /g' >"$work/joined"
expect_grep 'region = 1\.6\.\.2\.67 x L2 TLB reach \(1536\.\.2560 x 4\.0 KiB, probe\)' "$work/joined" \
	"stat: pressure against the probe's level"
if python3 -c 'import json, sys
sys.exit(len(json.load(open(sys.argv[1]))["tlb_levels"]) != 2)' "$work/stat.json"
then ok; else fail "stat JSON: tlb_levels[]"; fi
# The result's pressure: 16 MiB of 4 KiB pages, 4096 + 8 + 1 entries, and
# the region over each level's reach (cpuid's, if any, are not checked).
if python3 -c 'import json, sys
p = json.load(open(sys.argv[1]))["results"][0]["pressure"]
assert p["page_size"] == 4096 and p["page_table_bytes"] == (4096 + 8 + 1) * 8, p
lv = {l["name"]: l for l in p["levels"] if l["source"] == "probe"}
assert lv["L2 TLB"]["entries_min"] == 1536 and lv["L2 TLB"]["entries_max"] == 2560, lv
assert abs(lv["L2 TLB"]["region_over_reach"] - 1.6) < 1e-9, lv
assert abs(lv["L1 dTLB"]["region_over_reach"] - 4096 / 72) < 1e-6, lv' "$work/stat.json"
then ok; else fail "stat JSON: results[].pressure"; fi

# stat's verdict: the translation cost per block, from the probe's plateau
# past the largest level the region is beyond, and said when none has one.
expect_grep 'translation cost not measured \(memtlb probe, then --tlb\)' "$work/joined" \
	"verdict: a probe level without its costs"
probe "$work/pc.json" '[{"name": "L1 dTLB", "entries_min": 56, "entries_max": 72,
	"page_size": 4096, "from_ns": 0.1, "to_ns": 2.5},
	{"name": "L2 TLB", "entries_min": 1536, "entries_max": 2560, "page_size": 4096,
	"from_ns": 2.5, "to_ns": 9.0}]'
run stat --region 16m -i 2 --passes 1 --backing anon --pages base --tlb "$work/pc.json" \
	-o "$work/pc-stat.json"
expect_status 0 "stat --tlb, levels with their costs"
tr '\n' ' ' <"$out" | sed 's/  */ /g' >"$work/joined"
expect_grep 'verdict: read_0 [0-9.]+ ns/block \+-[0-9.]+; first touch 1\.000 faults/block, [0-9]+ ns/fault; dTLB miss ratio ' \
	"$work/joined" "verdict: steady and first touch"
expect_grep '; region beyond every level.s reach \(x1\.6 L2 TLB\); translation 9\.000 ns/block \(probe: past L2 TLB\)' \
	"$work/joined" "verdict: the probe's L2 plateau"
run stat --from "$work/pc-stat.json"
tr '\n' ' ' <"$out" | sed 's/  */ /g' >"$work/joined"
expect_grep 'translation 9\.000 ns/block \(probe: past L2 TLB\)' "$work/joined" \
	"verdict: the costs read back"
run stat --region 1m -i 2 --passes 1 --backing anon --pages base --tlb "$work/pc.json"
tr '\n' ' ' <"$out" | sed 's/  */ /g' >"$work/joined"
expect_grep 'translation 2\.500 ns/block \(probe: past L1 dTLB\)|translation at least 2\.500 ns/block \(probe: past L1 dTLB; past L[0-9] dTLB not measured\)' \
	"$work/joined" "verdict: within the L2 TLB, past the L1"

# What memtlb probe really writes is what --tlb reads (a short probe: the
# levels it finds, if any, are not checked, only that they are carried).
run probe --max 1m -o "$work/real.json"
expect_status 0 "memtlb probe -o"
run stat --region 1m -i 1 --passes 1 --backing anon --tlb "$work/real.json" -o "$work/real-stat.json"
expect_status 0 "stat --tlb of a real probe report"
if python3 -c 'import json, sys
p = json.load(open(sys.argv[1]))["probe"]["levels"]
s = json.load(open(sys.argv[2])).get("tlb_levels", [])
assert [(l["name"], l["entries_min"], l["entries_max"]) for l in p] == \
       [(l["name"], l["entries_min"], l["entries_max"]) for l in s], (p, s)' \
	"$work/real.json" "$work/real-stat.json"; then ok; else fail "real probe levels carried"; fi

# Bad input: exit 2, one line, before the run.
usage_case "--tlb: no such file" stat --tlb "$work/absent.json"
usage_case "--tlb: not a probe report" sweep --from "$work/none.json" --tlb "$work/none.json"
echo 'not json' >"$work/bad.json"
usage_case_o "--tlb: not JSON" stat --tlb "$work/bad.json"
probe "$work/evil.json" '[{"name": "L2\u001b[31m", "entries_min": 1, "entries_max": 2,
	"page_size": 4096}]'
usage_case "--tlb: a name with a control character" stat --tlb "$work/evil.json"
probe "$work/range.json" '[{"name": "L2 TLB", "entries_min": 9, "entries_max": 2,
	"page_size": 4096}]'
usage_case "--tlb: an empty entry range" stat --tlb "$work/range.json"
# 2^30 entries of 16 GiB pages: a reach past any byte count (it wrapped to 0)
probe "$work/wide.json" '[{"name": "L2 TLB", "entries_min": 1, "entries_max": 1073741824,
	"page_size": 17179869184}]'
usage_case "--tlb: a reach past 2^62 bytes" stat --tlb "$work/wide.json"
usage_case "--tlb: a directory" sweep --region 1m..2m --tlb "$work"
truncate -s 65m "$work/big.json"
usage_case "--tlb: larger than a report can be" stat --tlb "$work/big.json"
expect_grep 'larger than a report can be' "$err" "--tlb: the size refused"
rm -f "$work/big.json"
# The probe's longest level name is a level, not bad input.
probe "$work/further.json" '[{"name": "further translation knee", "entries_min": 8192,
	"entries_max": 16384, "page_size": 4096}]'
run sweep --from "$work/none.json" --phase read_0 --tlb "$work/further.json" --format json
expect_status 0 "--tlb: a further translation knee"
expect_grep '"name": "further translation knee"' "$out" "its name kept whole"

# --region auto: doubling from 256k to 4 x the largest reach (10 MiB), and
# 0.75 x and 1.5 x each level's reach range, rounded to the block. Where
# cpuid reports TLBs too, their points come beside the probe's.
cpuid_none=0
"$MEMTLB" sysinfo 2>/dev/null | grep -q '^TLBs (cpuid) *not reported' && cpuid_none=1
run sweep --region auto --tlb "$work/p.json" -i 1 --passes 1 --backing anon --pages base \
	-o "$work/auto.json"
expect_status 0 "sweep --region auto --tlb"
if [ $cpuid_none = 1 ]; then
	expect_grep '^memtlb: sweep: --region auto: 12 points around the reaches of the probe' \
		"$err" "--region auto says what it chose"
else
	expect_grep "^memtlb: sweep: --region auto: [0-9]* points around the reaches of cpuid's and the probe's levels" \
		"$err" "--region auto says what it chose"
fi
if python3 -c 'import json, sys
K = 1024
got = [r["params"]["region"] for r in json.load(open(sys.argv[1]))["results"]]
want = sorted({256 * K << i for i in range(8)} |
              {round(0.75 * 56 * 4) * K, round(1.5 * 72 * 4) * K,
               round(0.75 * 1536 * 4) * K, round(1.5 * 2560 * 4) * K})
assert got == sorted(set(got)), got
assert set(want) <= set(got) and (sys.argv[2] == "0" or got == want), (got, want)' \
	"$work/auto.json" $cpuid_none; then ok; else fail "--region auto: points"; fi
run sweep --region auto --tlb "$work/p.json" -b 64k -i 1 --passes 1 --backing anon --pages base \
	--format json
if python3 -c 'import json, sys
got = [r["params"]["region"] for r in json.load(open(sys.argv[1]))["results"]]
assert all(g % 65536 == 0 for g in got) and len(got) == len(set(got)), got' "$out"
then ok; else fail "--region auto: rounded to the block"; fi
# Without any level (cpuid describes none here), refused with the hint.
if "$MEMTLB" sysinfo 2>/dev/null | grep -q '^TLBs (cpuid) *not reported'; then
	usage_case "--region auto without levels" sweep --region auto
	expect_grep '^hint: memtlb probe -o p\.json; memtlb sweep --region auto --tlb p\.json' \
		"$err" "the hint"
fi
usage_case "--region auto with --from" sweep --from "$work/none.json" --region auto
finish
