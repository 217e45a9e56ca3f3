#!/bin/sh
# SPDX-License-Identifier: MIT
# memtlb report: text, markdown and self-contained XHTML with inline SVG plots.
. "$(dirname "$0")/lib.sh"

D="$MEMTLB_TEST_DATA/compare"

# markdown_ok FILE: every table row has as many cells as its header row.
markdown_ok() {
	awk -F'|' '/^\|/ { if (!n) n = NF; if (NF != n) bad++; rows++ } !/^\|/ { n = 0 }
		END { exit !(rows > 0 && bad == 0) }' "$1"
}

# A stat report as text.
run report "$D/base.json"
expect_status 0 "text"
expect_grep '^kernel +6\.1\.0-base$' "$out" "system context"
# memtlb stat's phase table: mean and cv of the time, ns/block, counts, the
# other derived metrics as stat shows them; and why an event is not supported.
expect_grep '^write_0 +3259\.4 +13350\.4 +1\.58 +4,096 +0 +not supported +not supported +1\.000$' \
	"$out" "phase table"
expect_grep '^dTLB-loads: not supported: no PMU driver in this kernel$' "$out" "reason"
expect_grep '^-- Counts per block$' "$out" "counts per block"

# The same result, the same phase table in memtlb stat and memtlb report:
# stat through the replay backend (multiplexed, not counted, not supported,
# a metric across counter groups), then report of its -o file as text,
# markdown and HTML. The rows are compared cell for cell (spaces collapsed).
text_rows() {	# FILE: the table under "phase  ns/block  mean (us)", to its blank line
	awk '/^phase +ns\/block +mean \(/ { on = 1 } on && /^$/ { exit } on' "$1" | tr -s ' '
}
md_rows() {	# FILE: the same from the markdown pipe table
	awk '/^\| phase \| ns\/block \| mean \(/ { on = 1 } on && !/^\|/ { exit }
		on && !/^\|:---/' "$1" | sed 's/^| //; s/ |$//; s/ | / /g' | tr -s ' '
}
html_rows() {	# FILE: the same from the XHTML table
	awk '/^<tr><th>phase<\/th><th>ns\/block<\/th><th>mean \(/ { on = 1 } on && !/^<tr>/ { exit } on' \
		"$1" | sed 's#</t[dh]><t[dh]># #g; s#<tr><t[dh]>##; s#</t[dh]></tr>##' | tr -s ' '
}
same_rows() {	# A B WHAT
	if [ -s "$1" ] && cmp -s "$1" "$2"; then ok; else
		fail "$3: phase rows differ"; diff "$1" "$2" | sed 's/^/  /' >&2; fi
}
# FIXTURE:MARKED:EVENTS; MARKED: whether a metric's inputs were in different groups.
for fixture in "replay-groups.txt:1:cycles,instructions,dTLB-loads,dTLB-load-misses,minor-faults,iTLB-load-misses,dTLB-stores" \
	       "replay/tlb.txt:0:cycles,instructions,dTLB-loads,dTLB-load-misses,minor-faults,major-faults"; do
	file=${fixture%%:*}; marked=${fixture#*:}; events=${marked#*:}; marked=${marked%%:*}
	MEMTLB_BACKEND=replay:$MEMTLB_TEST_DATA/$file run stat --region 64k -i 2 --passes 1 -v \
		-e "$events" -o "$work/r.json"
	expect_status 0 "$file: stat"
	cp "$out" "$work/stat.txt"
	text_rows "$work/stat.txt" >"$work/stat.rows"
	n=$(grep -Ec '^(mmap|write_0|read_0|munmap) ' "$work/stat.rows")
	if [ "$n" -eq 4 ]; then ok; else fail "$file: stat: $n phase rows"; fi
	expect_grep '\(50\.0%\)' "$work/stat.rows" "$file: a multiplexed count"
	expect_grep 'not supported' "$work/stat.rows" "$file: a count not supported"
	if [ "$marked" -eq 1 ]; then
		expect_grep '[0-9]\*( |$)' "$work/stat.rows" "$file: a metric marked across groups"
	elif grep -q '\*' "$work/stat.rows"; then
		fail "$file: a mark without groups"
	else ok; fi
	# The lines under stat's table (reasons, groups, the mark) are the report's too.
	awk '/^phase +ns\/block +mean \(/ { on = 1 } on && /^$/ { notes = 1; next }
		notes && /^counts: / { exit } notes' "$work/stat.txt" >"$work/stat.notes"
	expect_grep ': not supported: ' "$work/stat.notes" "$file: stat says why"

	run report "$work/r.json"
	expect_status 0 "$file: report text"
	text_rows "$out" >"$work/report.rows"
	same_rows "$work/stat.rows" "$work/report.rows" "$file: text"
	while IFS= read -r line; do
		if grep -Fxq -- "$line" "$out"; then ok; else fail "$file: report lacks '$line'"; fi
	done <"$work/stat.notes"

	run report --format markdown "$work/r.json"
	expect_status 0 "$file: report markdown"
	md_rows "$out" >"$work/report.rows"
	same_rows "$work/stat.rows" "$work/report.rows" "$file: markdown"
	expect_grep '^- [a-zA-Z-]+: not supported: ' "$out" "$file: markdown says why"
	if [ "$marked" -eq 1 ]; then
		expect_grep '^- \\\* inputs counted in different groups' "$out" \
			"$file: markdown says what the mark means"
	fi

	run report --format html "$work/r.json"
	expect_status 0 "$file: report html"
	html_rows "$out" >"$work/report.rows"
	same_rows "$work/stat.rows" "$work/report.rows" "$file: html"
	expect_grep '<li>[a-zA-Z-]+: not supported: ' "$out" "$file: html says why"
done

# Markdown: tables parse, counters not supported on one side only.
run report --format markdown "$D/base.json" "$D/hwcounters.json"
expect_status 0 "markdown"
if markdown_ok "$out"; then ok; else fail "markdown: table column counts"; fi
expect_grep '^\| write_0 \| 3259\.4 \| 13350\.4 .*\| not supported \| not supported \|' "$out" "md row"
expect_grep '^\| hardware counters \| no \| yes \|$' "$out" "md facts"

# A sweep and several sweeps.
run report --format markdown "$D/sweep.json"
expect_status 0 "sweep markdown"
if markdown_ok "$out"; then ok; else fail "sweep markdown: table column counts"; fi
expect_grep '^\| .*sweep\.json \| region=32m block=4k \| [0-9]' "$out" "sweep table row"

have_xmllint=0
command -v xmllint >/dev/null && have_xmllint=1
xml_ok() {	# FILE WHAT
	if [ $have_xmllint -eq 0 ]; then ok; return; fi
	if xmllint --noout "$1" 2>"$work/xmllint"; then ok; else
		fail "$2: not well-formed"; sed 's/^/  /' "$work/xmllint" >&2; fi
}

# A page-size matrix (one region, --vary pages) plots against page size,
# its sweep over regions against region size.
M=$MEMTLB_TEST_DATA/matrix-2m.json
for set in "stat:$D/base.json $D/noise.json:1" "sweep:$D/sweep.json:2" \
	   "sweeps:$D/sweep.json $D/base.json:2" "matrix:$M:2"; do
	name=${set%%:*}; rest=${set#*:}; files=${rest%:*}; svgs=${rest##*:}
	# shellcheck disable=SC2086
	run report $files -o "$work/$name.html"
	expect_status 0 "$name html"
	if [ -s "$out" ]; then fail "$name: -o also wrote stdout"; else ok; fi
	xml_ok "$work/$name.html" "$name html"
	if command -v gnuplot >/dev/null; then
		n=$(grep -c '<svg' "$work/$name.html")
		if [ "$n" -eq "$svgs" ]; then ok; else fail "$name: $n inline SVGs, expected $svgs"; fi
	fi
	if [ "$name" = matrix ]; then
		# a size that fell back: no verdict, and the kernel's count of it
		python3 - "$M" "$work/fellback.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:
    if r["params"]["pages"] == "mthp:64k":
        r["mapping"]["as_requested"] = False
        r["mapping"]["page_verdict"] = "not as requested: x"
        r["mapping"]["folio_stats"] = {"size": 65536, "iterations": 4, "alloc": 100,
                                       "fallback": 28}
json.dump(d, open(sys.argv[2], "w"))
PY
		run sweep --from "$M"
		expect_grep '^reach by level \(entries x page\): base, mthp:64k: L1 ' "$out" \
			"matrix: base and mTHP rows share base-page entries"
		expect_grep '; thp: L1 [a-zA-Z]+ [0-9]+ x 2m = ' "$out" "matrix: thp's own reach"
		run report "$work/fellback.json"
		expect_grep '^mthp:64k: not as requested \(x\), no verdict; 28 of 128 faults fell back' \
			"$out" "matrix: the fallbacks of a size not proven"
	fi
	if [ "$name" = matrix ] && command -v gnuplot >/dev/null; then
		n=$(grep -c 'against page size (median, IQR)</text>' "$work/$name.html")
		[ "$n" -eq 2 ] && ok || fail "matrix: $n plots against page size, expected 2"
		expect_grep '^<h2>Page sizes</h2>' "$work/$name.html" "matrix: its section"
	fi
	if grep -Eq '<(script|link|img)|src=|href="http' "$work/$name.html"; then
		fail "$name: refers to something outside the file"; else ok; fi
done
ls "${TMPDIR:-/tmp}"/memtlb-plot-* >/dev/null 2>&1 && fail "a plot data file was left behind"

# Without gnuplot: said so, tables kept, still well-formed.
MEMTLB_GNUPLOT=/nonexistent/gnuplot
export MEMTLB_GNUPLOT
run report --format html "$D/base.json"
unset MEMTLB_GNUPLOT
expect_status 0 "no gnuplot"
expect_grep 'gnuplot is not installed: plots left out' "$out" "no gnuplot note"
expect_grep '<td>write_0</td>' "$out" "tables kept"
if grep -q '<svg' "$out"; then fail "no gnuplot: an SVG anyway"; else ok; fi
cp "$out" "$work/nognuplot.html"
xml_ok "$work/nognuplot.html" "no gnuplot html"

# A gnuplot that exits 0 without an SVG element: "gnuplot failed", tables kept.
cat >"$work/fakeplot" <<'EOF2'
#!/bin/sh
cat >/dev/null
echo '<?xml version="1.0"?> no element here'
EOF2
chmod +x "$work/fakeplot"
MEMTLB_GNUPLOT=$work/fakeplot
export MEMTLB_GNUPLOT
run report --format html "$D/base.json" -o "$work/fakeplot.html"
unset MEMTLB_GNUPLOT
expect_status 0 "gnuplot without svg"
expect_grep 'gnuplot failed on this plot: its output has no &lt;svg&gt; element: left out' "$work/fakeplot.html" "gnuplot failed note"
expect_grep '<td>write_0</td>' "$work/fakeplot.html" "gnuplot failed: tables kept"
if grep -q '<svg\|(null)' "$work/fakeplot.html"; then fail "gnuplot failed: svg or (null)"; else ok; fi
xml_ok "$work/fakeplot.html" "gnuplot failed html"

# Reports that compare and explain (issue 15): a curve with a known step
# at 16m on every read pass and cpuid's TLB levels of a Zen 3, so that the
# knee and its explanation are known; no timing decides anything.
python3 - "$MEMTLB_TEST_DATA/sweep-1m-64m.json" "$work/knee.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["system"]["tlb"] = [
    {"level": 1, "type": "data", "pages": "4K", "entries": 64, "ways": 0},
    {"level": 2, "type": "data", "pages": "4K", "entries": 2048, "ways": 8},
    {"level": 1, "type": "data", "pages": "2M", "entries": 16, "ways": 0}]
for r in d["results"]:
    blocks = r["params"]["blocks"]
    for p in r["phases"]:
        if p["name"].startswith("read_"):
            t = blocks * (120.0 if r["params"]["region"] >= 16 << 20 else 40.0)
            p["time_ns"].update(mean=t, median=t, min=t, max=t, stddev=0.0, cv=0.0,
                                samples=[t] * p["time_ns"]["n"])
json.dump(d, open(sys.argv[2], "w"))
PY
knee='knee: 8m -> 16m, ns/block x3\.0: the region passes the L2 dTLB reach, 8\.0 MiB \(2048 x 4\.0 KiB, cpuid\)'
run sweep --from "$work/knee.json"
tr '\n' ' ' <"$out" | sed 's/  */ /g' >"$work/sweep.joined"
expect_grep "$knee" "$work/sweep.joined" "the fixture's knee in sweep --from"
for fmt in text markdown html; do
	run report --format $fmt "$work/knee.json"
	expect_status 0 "knees: $fmt"
	tr '\n' ' ' <"$out" | sed 's/  */ /g; s/&gt;/>/g' >"$work/joined"
	expect_grep "$knee" "$work/joined" "knees: $fmt: the knee and its explanation"
	expect_grep 'fit: write_0 time = [0-9.]+ ns x minor-faults' "$out" "knees: $fmt: the fits"
done
# markdown: an indented block, so nothing of the line is taken as markup
run report --format markdown "$work/knee.json"
expect_grep '^    knee: 8m -> 16m' "$out" "knees: markdown indented block"
run report "$work/knee.json"
sed -n '/^== Knees$/,/^== /p' "$out" >"$work/knees.txt"
if awk 'length > 80 { bad = 1 } END { exit bad }' "$work/knees.txt"; then ok; else
	fail "knees section wider than 80 columns"; fi

# The plots: each knee marked, each cpuid level's reach inside the data
# drawn and labelled, the x axis ending at the data. A fake gnuplot keeps
# its input.
cat >"$work/gp-keep" <<SH
#!/bin/sh
cat >>"$work/gp-input"
echo '<svg xmlns="http://www.w3.org/2000/svg"></svg>'
SH
chmod +x "$work/gp-keep"
rm -f "$work/gp-input"
export MEMTLB_GNUPLOT="$work/gp-keep"
run report --format html "$work/knee.json"
unset MEMTLB_GNUPLOT
expect_status 0 "plots: html"
n=$(grep -c "^set label 'knee' at 16777216, 120 point" "$work/gp-input")
if [ "$n" -eq 1 ]; then ok; else fail "plots: $n knee marks at 16m on the read curve, expected 1"; fi
expect_grep "^set arrow from 8388608, graph 0 to 8388608, graph 1 nohead" "$work/gp-input" \
	"plots: the L2 dTLB reach as a vertical line"
expect_grep "^set label 'L2 dTLB 4k reach 8m \(cpuid\)' at 8388608, graph" "$work/gp-input" \
	"plots: the reach labelled"
# a level of 2 MiB pages (32m, within the data) explains nothing on base pages
expect_no_grep "^set label 'L1 dTLB 2m" "$work/gp-input" "plots: only the page size measured"
# medians and quartiles, never a mean's stddev: no bar below zero, none on a log axis
expect_grep "^set title 'read pass: time per block against region size \\(median, IQR\\)'" \
	"$work/gp-input" "plots: the intervals named"
expect_no_grep 'histogram' "$work/gp-input" "plots: no bars"
if grep -q "^set arrow from 262144," "$work/gp-input"; then
	fail "plots: the L1 reach (256k) drawn outside the data (1m..64m)"; else ok; fi
expect_grep '^set autoscale xfix$' "$work/gp-input" "plots: x ends at the data"
if grep -q '^set offsets graph' "$work/gp-input"; then fail "plots: x offsets"; else ok; fi
if grep -q '^knee: 8m -&gt; 16m' "$out" && grep -q '<pre>block=4k$' "$out"; then ok; else
	fail "plots: html knees in <pre>"; fi

# The comparison section: what memtlb compare prints, in every format.
"$MEMTLB" compare "$D/base.json" "$D/regression.json" >"$work/cmp.txt" 2>/dev/null
run report "$D/base.json" "$D/regression.json"
expect_status 0 "comparison: text"
sed -n '/^== Comparison$/,$p' "$out" | sed 1d >"$work/rep-cmp.txt"
# compare's lines, all of them, in the report (the report's own note last)
if [ -s "$work/cmp.txt" ] && while IFS= read -r l; do
	grep -qxF -- "$l" "$work/rep-cmp.txt" || exit 1; done <"$work/cmp.txt"; then ok; else
	fail "comparison: the report lacks lines of memtlb compare"
	diff "$work/cmp.txt" "$work/rep-cmp.txt" | head -20 >&2; fi
expect_grep '%change' "$work/rep-cmp.txt" "comparison: %change"
run report --format markdown "$D/base.json" "$D/regression.json"
expect_grep '^## Comparison$' "$out" "comparison: markdown heading"
expect_grep '^\| base \| %change \| new\[1\] \| metric \|$' "$out" "comparison: markdown table"
if markdown_ok "$out"; then ok; else fail "comparison: markdown table column counts"; fi
run report --format html "$D/base.json" "$D/mismatch.json" -o "$work/cmp.html"
expect_status 0 "comparison: html"
xml_ok "$work/cmp.html" "comparison html"
expect_grep '<th>%change</th>' "$work/cmp.html" "comparison: html table"
expect_grep '<li>warning: ' "$work/cmp.html" "comparison: configuration warnings"
n=$(grep -c '<html' "$work/cmp.html")
if [ "$n" -eq 1 ]; then ok; else fail "comparison: $n html elements"; fi
run report "$D/base.json"
if grep -q '^== Comparison' "$out"; then fail "comparison with one input"; else ok; fi

# -o FILE.pdf: the plots through pdfcairo, or exit 2 before anything is read.
if gnuplot -e 'set terminal' 2>&1 | grep -q pdfcairo; then
	run report "$work/knee.json" -o "$work/r.pdf"
	expect_status 0 "pdf"
	if head -c 5 "$work/r.pdf" | grep -q '^%PDF-'; then ok; else fail "pdf: not a PDF"; fi
fi
export MEMTLB_GNUPLOT=/nonexistent/gnuplot
run report "$work/no-such.json" -o "$work/n.pdf"
unset MEMTLB_GNUPLOT
expect_status 2 "pdf without gnuplot"
expect_one_error_line "pdf without gnuplot"
expect_grep 'cannot make a PDF: gnuplot is not installed' "$err" "pdf: says why"
if grep -q 'no-such' "$err"; then fail "pdf: an input was read before the check"; else ok; fi
if [ -e "$work/n.pdf" ]; then fail "pdf without gnuplot: wrote a file"; else ok; fi
printf '#!/bin/sh\ncat >/dev/null\necho "unknown or ambiguous terminal type" >&2\nexit 1\n' \
	>"$work/gp-nopdf"
chmod +x "$work/gp-nopdf"
export MEMTLB_GNUPLOT="$work/gp-nopdf"
run report "$D/base.json" -o "$work/n.pdf"
unset MEMTLB_GNUPLOT
expect_status 2 "pdf without pdfcairo"
expect_grep 'gnuplot has no pdfcairo terminal' "$err" "pdf: no pdfcairo"

# Errors: one line, exit 2, nothing written.
run report
expect_status 2 "no file"
expect_one_error_line "no file"
run report "$D/schema2.json" -o "$work/x.html"
expect_status 2 "other schema"
expect_one_error_line "other schema"
if [ -e "$work/x.html" ]; then fail "other schema: wrote output"; else ok; fi
run report --format pdf "$D/base.json"
expect_status 2 "bad format"
expect_one_error_line "bad format"
run report "$D/base.json" -o /nonexistent-dir/r.html
expect_status 2 "unwritable -o"
expect_one_error_line "unwritable -o"

# Every kind of report memtlb writes (issue 32): a document of its own
# kind, its facts and sections from render.c's table of kinds.
R=$MEMTLB_TEST_DATA/report
# within80 FILE WHAT: the text fits 80 columns
within80() {
	if awk 'length > 80 { print "  " length ": " $0; bad = 1 } END { exit bad }' "$1" >&2
	then ok; else fail "$2: a line over 80 columns"; fi
}
# run: the command, its runs and exit status, memtlb run's table; no region,
# no passes, no point's parameters (a run has none: they read 0)
run report "$R/run.json"
expect_status 0 "run: text"
expect_grep '^command line +true$' "$out" "run: the command line"
expect_grep '^runs +3 of 3$' "$out" "run: runs of repeats"
expect_grep '^exit status +0$' "$out" "run: exit status"
expect_grep '^events +minor-faults,task-clock$' "$out" "run: events"
expect_grep '^== .*/run\.json: true$' "$out" "run: headed by its command"
expect_grep '^wall time \((ns|us|ms|s)\) +[0-9.]+ ' "$out" "run: memtlb run's table"
expect_grep '^sem = stddev/sqrt\(runs\)/mean' "$out" "run: its definitions"
expect_no_grep 'region=0|^region |^passes |^block ' "$out" "run: no region, passes or params"
within80 "$out" "run"
# a study (run --vary): its grid as memtlb run printed it, a column per
# value; in HTML the wall time against the values (no region=0 there)
run report "$R/grid.json" "$R/grid.json"
expect_status 0 "study: text"
expect_grep '^ +thp=always +thp=never$' "$out" "study: a column per value"
n=$(grep -Ec '^minor-faults +[0-9.]+ \+- ' "$out")
[ "$n" -eq 2 ] && ok || fail "study: $n blocks of the grid, expected one per report"
run report "$R/grid.json"
within80 "$out" "study"
if command -v gnuplot >/dev/null; then
	run report --format html "$R/grid.json"
	expect_grep 'Wall time of the command per value \(median, IQR over runs\)</text>' "$out" \
		"study: its plot"
	expect_grep '>thp=never</text>' "$out" "study: the values on x"
	expect_no_grep 'region=0' "$out" "study: no region=0 in the plot"
fi
# flush: memtlb flush's own tables; nothing of a workload's sweep
run report "$R/flush.json"
expect_status 0 "flush: text"
expect_grep '^op +madvise$' "$out" "flush: the op"
expect_grep '^ pages +us/op +cv +median us +mean us +ns/page +ops +refault/op$' "$out" \
	"flush: memtlb flush's table"
expect_grep '^Knee: ' "$out" "flush: its knee line"
expect_no_grep '^== (Knees|TLB levels|Per-block)|write_0' "$out" "flush: not a sweep"
within80 "$out" "flush"
# probe: rendered, not refused: its table with the levels and cpuid's word
run report "$R/probe.json"
expect_status 0 "probe: text"
expect_grep '^kernel +6\.1\.0-fixture$' "$out" "probe: the system"
expect_grep '^levels found +1$' "$out" "probe: its facts"
expect_grep '^ +104 +416\.0 KiB .* <- L1 dTLB$' "$out" "probe: the table, the step marked"
expect_grep '^L1 dTLB: 96\.\.104 entries x 4\.0 KiB' "$out" "probe: the level"
expect_grep '^cpuid 0x80000005' "$out" "probe: cpuid's word"
within80 "$out" "probe"
for kind in run flush probe; do
	run report --format markdown "$R/$kind.json"
	expect_status 0 "$kind: markdown"
	if markdown_ok "$out"; then ok; else fail "$kind: markdown table column counts"; fi
	run report --format html "$R/$kind.json" -o "$work/$kind.html"
	expect_status 0 "$kind: html"
	xml_ok "$work/$kind.html" "$kind html"
done

# Each file read once: a probe or a stat report from a pipe.
for f in "$R/probe.json" "$D/base.json"; do
	"$MEMTLB" report /dev/stdin <"$f" >"$work/pipe.txt" 2>"$work/pipe.err"
	expect_grep '^== Configuration$' "$work/pipe.txt" "a report from a pipe: $(basename "$f")"
done

# One kind per document: refused before any input is loaded, one line.
for pair in "$D/base.json:$R/run.json:stat:run" "$R/probe.json:$D/sweep.json:probe:sweep" \
	    "$R/flush.json:$R/run.json:flush:run"; do
	a=${pair%%:*}; rest=${pair#*:}; b=${rest%%:*}; rest=${rest#*:}
	ka=${rest%%:*}; kb=${rest#*:}
	run report "$a" "$b" "$work/not-there.json" -o "$work/mixed.html"
	expect_status 2 "mixed $ka and $kb"
	expect_one_error_line "mixed $ka and $kb"
	expect_grep "^memtlb: report: .*: a $ka report, .*: a $kb report: one kind per document\$" \
		"$err" "mixed $ka and $kb: says why"
	expect_grep '^hint: ' "$err" "mixed $ka and $kb: a hint"
	if [ -e "$work/mixed.html" ]; then fail "mixed $ka and $kb: wrote output"; else ok; fi
done
# a command whose reports are not rendered: refused with the reason
python3 - "$D/base.json" "$work/bisect.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["command"] = "bisect\u001b[2J"
json.dump(d, open(sys.argv[2], "w"))
PY
run report "$work/bisect.json"
expect_status 2 "another command"
expect_one_error_line "another command"
expect_grep 'renders those of stat, sweep, run, flush and probe' "$err" "another command: why"

# gnuplot's own words when it fails, its first two lines, escaped.
printf '%s\n' '#!/bin/sh' 'cat >/dev/null' \
	"printf 'line 3: <b>bad\\033[2J & worse\\n\\n   ^\\nsecond line\\nthird line\\n' >&2" \
	'exit 1' >"$work/gp-fail"
chmod +x "$work/gp-fail"
MEMTLB_GNUPLOT=$work/gp-fail run report "$D/base.json" -o "$work/gpfail.html"
expect_status 0 "gnuplot fails"
expect_grep '<p>gnuplot failed on this plot: line 3: &lt;b&gt;bad\\x1b\[2J &amp; worse; second line: left out\.</p>' \
	"$work/gpfail.html" "gnuplot fails: its message"
expect_no_grep 'third line' "$work/gpfail.html" "gnuplot fails: two lines at most"
xml_ok "$work/gpfail.html" "gnuplot fails html"
# -o FILE.pdf: the check of pdfcairo passes, the plots fail: said on one line
printf '%s\n' '#!/bin/sh' 'in=$(cat)' \
	'case "$in" in *plot*) echo "line 7: all points y value undefined!" >&2; exit 1;; esac' \
	>"$work/gp-pdffail"
chmod +x "$work/gp-pdffail"
MEMTLB_GNUPLOT=$work/gp-pdffail run report "$D/base.json" -o "$work/f.pdf"
expect_status 1 "pdf: gnuplot fails"
expect_one_error_line "pdf: gnuplot fails"
expect_grep 'gnuplot failed on the plots: line 7: all points y value undefined!$' "$err" \
	"pdf: gnuplot's message"

# The plots of each kind exist in the XHTML: an SVG with the plot's title
# and, per series, its legend and a point drawn besides the legend's own;
# or (points) per series the number of points drawn, the legend's not
# counted: a point at each place (gnuplot may draw one twice, white under
# its colour).
# svg_check legends|points FILE WHAT TITLE [LEGEND...|N...]
svg_check() {
	if python3 - "$@" <<'PY'; then ok; else fail "$3: plot '$4'"; fi
import re, sys
mode, path, what, title, args = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
doc = open(path).read()
for svg in re.findall(r"<svg.*?</svg>", doc, re.S):
    if "<text>%s</text>" % title not in svg:
        continue
    parts = re.split(r'<g id="gnuplot_plot_\d+[a-z]?" >', svg)[1:]
    names = [re.search(r"<text>(.*?)</text>", p).group(1) for p in parts]
    if mode == "points":
        drawn = [len(set(re.findall(r"<use xlink:href='#gpPt\d+' transform='translate\(([^)]*)\)",
                                    p))) - 1 for p in parts]
        if drawn != [int(n) for n in args]:
            sys.exit("  %s: points %s of %s, expected %s" % (what, drawn, names, args))
        sys.exit(0)
    uses = [len(re.findall(r"<use xlink:href='#gpPt", p)) for p in parts]
    bad = [n for n, u in zip(names, uses) if u < 2]
    if not parts or bad:
        sys.exit("  %s: no point drawn for %s" % (what, bad or "any series"))
    if args and names[:len(args)] != args:
        sys.exit("  %s: legends %s, expected %s" % (what, names, args))
    sys.exit(0)
sys.exit("  %s: no plot titled %s" % (what, title))
PY
}
# svg_ok FILE WHAT TITLE [LEGEND...]
svg_ok() {
	svg_check legends "$@"
}
# svg_points FILE WHAT TITLE N...: N points drawn in each series, in order
svg_points() {
	svg_check points "$@"
}
if command -v gnuplot >/dev/null; then
	M=$MEMTLB_TEST_DATA/matrix-2m.json
	run report "$D/base.json" -o "$work/k-stat.html"
	svg_ok "$work/k-stat.html" stat 'Time per phase (median, IQR over iterations)' \
		'kernel 6.1.0-base'
	run report "$D/sweep.json" -o "$work/k-sweep.html"
	for t in 'first write (write_0)' 'read pass'; do
		svg_ok "$work/k-sweep.html" sweep "$t: time per block against region size (median, IQR)"
	done
	run report "$M" -o "$work/k-matrix.html"
	for t in 'First touch (write_0)' 'Steady access'; do
		svg_ok "$work/k-matrix.html" matrix "$t against page size (median, IQR)"
	done
	run report "$R/run.json" -o "$work/k-run.html"
	svg_ok "$work/k-run.html" run 'Wall time of the command (median, IQR over runs)' \
		'kernel 6.1.0-fixture'
	# a study: a plot per row of its grid (each event, the wall time)
	# against the values, a point per value
	run report "$R/grid.json" -o "$work/k-grid.html"
	for t in minor-faults 'task-clock (msec)' 'Wall time of the command'; do
		svg_ok "$work/k-grid.html" study "$t per value (median, IQR over runs)" \
			'kernel 6.18.44-fc-v1294'
		svg_points "$work/k-grid.html" study "$t per value (median, IQR over runs)" 2
	done
	n=$(grep -c '<svg' "$work/k-grid.html")
	[ "$n" -eq 3 ] && ok || fail "study: $n plots, expected one per row of its grid"
	# two workloads, one study: a series each, named by what differs; the
	# second's minor-faults not supported at thp=never and its task-clock
	# absent at thp=always give no point there (never a 0)
	python3 - "$R/grid.json" "$work/grid-b.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["run"]["command_line"] = "/bin/false"
c0, c1 = (r["phases"][0]["counters"] for r in d["results"])
c1["minor-faults"] = {"supported": False, "error": "EOPNOTSUPP", "reason": "not supported"}
del c0["task-clock"]
ev = d["results"][0]["events"]
d["results"][0]["events"] = [e for e in ev if e["name"] != "task-clock"]
json.dump(d, open(sys.argv[2], "w"))
PY
	run report "$R/grid.json" "$work/grid-b.json" -o "$work/k-grids.html"
	expect_status 0 "study of two workloads"
	for t in minor-faults 'task-clock (msec)' 'Wall time of the command'; do
		svg_ok "$work/k-grids.html" workloads "$t per value (median, IQR over runs)" \
			'command /bin/true' 'command /bin/false'
	done
	svg_points "$work/k-grids.html" 'not supported' \
		'minor-faults per value (median, IQR over runs)' 2 1
	svg_points "$work/k-grids.html" absent \
		'task-clock (msec) per value (median, IQR over runs)' 2 1
	svg_points "$work/k-grids.html" 'wall time' \
		'Wall time of the command per value (median, IQR over runs)' 2 2
	# an event the first workload lacks still has its plot
	run report "$work/grid-b.json" "$R/grid.json" -o "$work/k-grids-b.html"
	svg_points "$work/k-grids-b.html" 'the second'"'"'s event' \
		'task-clock (msec) per value (median, IQR over runs)' 1 2
	# the PDF has the same plots: a page each
	if gnuplot -e 'set terminal' 2>&1 | grep -q pdfcairo; then
		run report "$R/grid.json" "$work/grid-b.json" -o "$work/k-grids.pdf"
		expect_status 0 "study: pdf"
		n=$(grep -ac '/Type */Page[^s]' "$work/k-grids.pdf")
		[ "$n" -eq 3 ] && ok || fail "study: pdf of $n pages, expected one per row"
	fi
	run report "$R/flush.json" -o "$work/k-flush.html"
	svg_ok "$work/k-flush.html" flush \
		'flush (madvise): time per page against region size (median, IQR)'
	run report "$R/probe.json" -o "$work/k-probe.html"
	svg_ok "$work/k-probe.html" probe 'Translation cost per access against size (95% CI)'
	expect_grep '<text>L1 dTLB 96\.\.104 x 4k \(probe\)</text>' "$work/k-probe.html" \
		"probe: the level found marked"
	# legends: what differs between the inputs, not their file names
	run report "$D/base.json" "$D/regression.json" -o "$work/k-kernels.html"
	svg_ok "$work/k-kernels.html" kernels 'Time per phase (median, IQR over iterations)' \
		'kernel 6.1.0-base' 'kernel 6.1.0-slow'
	python3 - "$D/base.json" "$work/pages-a.json" "$work/pages-b.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for path, pages in (sys.argv[2], "default"), (sys.argv[3], "thp"):
    d["config"]["pages"] = pages
    json.dump(d, open(path, "w"))
PY
	run report "$work/pages-a.json" "$work/pages-b.json" -o "$work/k-pages.html"
	svg_ok "$work/k-pages.html" pages 'Time per phase (median, IQR over iterations)' \
		'pages default' 'pages thp'
	cp "$D/base.json" "$work/same-b.json"
	run report "$D/base.json" "$work/same-b.json" -o "$work/k-files.html"
	svg_ok "$work/k-files.html" 'nothing differs' \
		'Time per phase (median, IQR over iterations)' "$D/base.json" "$work/same-b.json"
fi

# sweep --from and report read the same default phase of one file: read_4
# of a 10-pass sweep (not the last read pass, read_9), so the same curve.
"$MEMTLB" sweep --region 64k..128k:64k --passes 10 -i 2 -e minor-faults -o "$work/s10.json" \
	>/dev/null 2>&1
run sweep --from "$work/s10.json"
sw=$(awk '$1 == "64k" { print $2 }' "$out")
grep -q '^memtlb sweep: read_4 per region' "$out" && ok || fail "sweep --from: read_4 by default"
run report "$work/s10.json"
rp=$(awk '$2 == "region=64k" && $3 == "block=4k" { print $5; exit }' "$out")
# the same number; each table prints it its own way (3.000 and 3, 295.594
# and 296 on a loaded machine: the report keeps 3 significant digits)
[ -n "$sw" ] && [ -n "$rp" ] &&
	awk -v a="$sw" -v b="$rp" 'BEGIN { exit !((a - b) ^ 2 < (0.002 * a) ^ 2 + 1e-6) }' && ok ||
	fail "sweep --from and report: the same read cost at 64k ($sw vs $rp)"

finish
