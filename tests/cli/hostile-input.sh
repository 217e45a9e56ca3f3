#!/bin/sh
# SPDX-License-Identifier: MIT
# Inputs an adversary shapes: replay files, event sets, shared reports and
# their file names, option values. Each is refused with one line (exit 2) or
# shown harmlessly; none hangs, reads without end or crashes.
. "$(dirname "$0")/lib.sh"

good="$MEMTLB_TEST_DATA/replay/tlb.txt"
r="$work/replay"
mkdir -p "$r"

# bounded: CMD... under a 20 s limit; a hang is a failure, not a stuck test
bounded() {
	timeout 20 "$@"
}

# brun ARGS...: run under the limit
brun() {
	out="$work/out" err="$work/err"
	bounded "$MEMTLB" "$@" >"$out" 2>"$err"
	status=$?
}

# --- replay files -----------------------------------------------------------

# replay_bad NAME CONTENT: a replay file that is refused before the run
replay_bad() {
	printf "$2" >"$r/$1.txt"
	MEMTLB_BACKEND=replay:$r/$1.txt brun stat --region 1m -i 1 --passes 1 -e minor-faults
	expect_status 2 "replay $1"
	expect_grep 'not a valid replay file' "$err" "replay $1 named as invalid"
}
replay_bad no-colon 'minor-faults 1 2 3\n'
replay_bad empty-name ': 1 2 3\n'
replay_bad long-name "$(head -c 200 /dev/zero | tr '\0' a): 1\n"
replay_bad name-192 "$(head -c 192 /dev/zero | tr '\0' a): 1\n"
replay_bad negative 'minor-faults: -1 0 0 0\n'
replay_bad negative-ena 'minor-faults: 1/-5/1\n'
replay_bad overflow 'minor-faults: 18446744073709551616\n'
replay_bad overflow-run 'minor-faults: 1/10/99999999999999999999999\n'
replay_bad run-over-ena 'minor-faults: 1/1000/2000\n'
replay_bad plus 'minor-faults: +1\n'
replay_bad duplicate 'minor-faults: 1\nminor-faults: 2\n'
replay_bad lone-cr 'cycles: 1\rminor-faults: 1\r'
replay_bad nul 'minor-faults: 1\000 2\n'
replay_bad counters-huge 'pmu-counters: 99999999999999999999\nminor-faults: 1\n'
replay_bad counters-negative 'pmu-counters: -1\nminor-faults: 1\n'
replay_bad unsupported-extra 'minor-faults: unsupported EACCES 7\n'

# CRLF is a line end like LF: every line is kept
printf 'minor-faults: 0 256 0 0\r\ncycles: 1 2 3 4\r\n' >"$r/crlf.txt"
MEMTLB_BACKEND=replay:$r/crlf.txt brun stat --region 1m -i 1 --passes 1 -e minor-faults,cycles
expect_status 0 "replay with CRLF"
expect_grep '^write_0 .* 256 ' "$out" "CRLF: minor-faults kept"
if grep -q 'not supported' "$out"; then fail "CRLF: a line was lost"; else ok; fi
# the largest count is still a count
printf 'minor-faults: 18446744073709551615 0 0 0\n' >"$r/max.txt"
MEMTLB_BACKEND=replay:$r/max.txt brun stat --region 1m -i 1 --passes 1 -e minor-faults
expect_status 0 "replay 2^64-1"

# not regular files: a directory, a device that never ends, a FIFO
MEMTLB_BACKEND=replay:$r brun stat --region 1m -i 1 --passes 1 -e minor-faults
expect_status 2 "replay: a directory"
expect_grep 'not a valid replay file' "$err" "replay directory named"
MEMTLB_BACKEND=replay:/dev/zero brun stat --region 1m -i 1 --passes 1 -e minor-faults
expect_status 2 "replay: /dev/zero"
ln -s /dev/zero "$r/zero.txt"
MEMTLB_BACKEND=replay:$r/zero.txt brun stat --region 1m -i 1 --passes 1 -e minor-faults
expect_status 2 "replay: a link to /dev/zero"
# a FIFO is refused unread, however much its writer would send
mkfifo "$r/fifo.txt"
(yes '# endless' >"$r/fifo.txt" 2>/dev/null &)
MEMTLB_BACKEND=replay:$r/fifo.txt brun stat --region 1m -i 1 --passes 1 -e minor-faults
expect_status 2 "replay: a FIFO"
timeout 1 cat "$r/fifo.txt" >/dev/null 2>&1	# the writer left waiting
# over the size cap (1 MiB): a comment line that long is no recording
{ cat "$good"; head -c 1100000 /dev/zero | tr '\0' '#'; echo; } >"$r/big.txt"
MEMTLB_BACKEND=replay:$r/big.txt brun stat --region 1m -i 1 --passes 1 -e minor-faults
expect_status 2 "replay: over the size cap"


# --- option values ----------------------------------------------------------

# a factor just above 1: refused by its count of points, at once
usage_case "region of 10^10 points" stat --region 1..16t:x1.0000000011 -i 1
# seeds: digits only, and what the report's signed integer holds
for seed in ' -1' '-1' '+1' ' 1' 18446744073709551615 9223372036854775808; do
	usage_case "seed '$seed'" stat --region 1m -i 1 --seed "$seed"
done
MEMTLB_BACKEND=replay:$good brun stat --region 1m -i 1 --passes 1 -e minor-faults \
	--seed 9223372036854775807 --format json
expect_status 0 "seed 2^63-1"
expect_grep '"seed": 9223372036854775807' "$out" "seed 2^63-1 recorded as given"

# --- shared reports ---------------------------------------------------------

base="$MEMTLB_TEST_DATA/compare/base.json"
h="$work/hostile"
mkdir -p "$h"
python3 - "$base" "$h" <<'PY'
import copy, json, sys
base, d = json.load(open(sys.argv[1])), sys.argv[2]
esc = "\x1b]0;owned\x07\x1b[2J\x9b31m"
# escapes in every string a reader shows: kernel, host, cpu, phase, event, params
r = copy.deepcopy(base)
r["system"].update(kernel="6.1" + esc, host="h" + esc, cpu="c" + esc, machine="m" + esc)
res = r["results"][0]
res["params"]["tag"] = "p" + esc
ev = res["events"][0]["name"]
res["events"][0]["name"] = ev + esc
for ph in res["phases"]:
    if ev in ph["counters"]:
        ph["counters"][ev + esc] = ph["counters"].pop(ev)
res["phases"][0]["name"] = "mmap" + esc
json.dump(r, open(f"{d}/escapes.json", "w"))
# quotes, commas and line ends in names: CSV must keep its rows
r = copy.deepcopy(base)
res = r["results"][0]
ev = res["events"][0]["name"]
odd = 'x,"y"\nz'
res["events"][0]["name"] = odd
for ph in res["phases"]:
    if ev in ph["counters"]:
        ph["counters"][odd] = ph["counters"].pop(ev)
    ph["name"] = ph["name"] + ',"q"'
json.dump(r, open(f"{d}/csv.json", "w"))
# names a spreadsheet would run as formulas (CSV injection)
r = copy.deepcopy(base)
res = r["results"][0]
for i, ev in enumerate(res["events"]):
    name = ("=1+2", "+SUM(A1)", "-2+3", "@cmd")[i % 4] + str(i)
    for ph in res["phases"]:
        if ev["name"] in ph["counters"]:
            ph["counters"][name] = ph["counters"].pop(ev["name"])
    ev["name"] = name
res["phases"][0]["name"] = "=HYPERLINK(1)"
json.dump(r, open(f"{d}/formula.json", "w"))
# 70 events: a table wider than any fixed array of 64 columns
r = copy.deepcopy(base)
res = r["results"][0]
tmpl = res["events"][0]
res["events"] = [dict(tmpl, name=f"ev{i:02d}") for i in range(70)]
for ph in res["phases"]:
    c = next(iter(ph["counters"].values()))
    ph["counters"] = {f"ev{i:02d}": c for i in range(70)}
json.dump(r, open(f"{d}/wide.json", "w"))
PY

# no control byte of a report reaches the terminal, in any command that shows it
no_controls() {	# FILE WHAT
	if LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177\233]')" "$1" ||
	   grep -q "$(printf '\302\233')" "$1"; then
		fail "$2: a control byte reached the output"
		od -c "$1" | grep -m3 '033' >&2
	else ok; fi
}
for fmt in text markdown; do
	brun report "$h/escapes.json" --format "$fmt"
	expect_status 0 "report $fmt of escapes"
	no_controls "$out" "report $fmt"
	expect_grep '6\.1\\x1b\]0;owned' "$out" "report $fmt: the escape shown as \\x1b"
done
brun compare "$base" "$h/escapes.json"
expect_status 0 "compare with escapes"
no_controls "$out" "compare text"
brun compare "$base" "$h/escapes.json" --format markdown
no_controls "$out" "compare markdown"
brun compare "$h/escapes.json" "$h/escapes.json" --format csv
no_controls "$out" "compare csv"
brun sweep --from "$h/escapes.json"
no_controls "$out" "sweep --from"
# a real sweep's lines about events (fit:, misses/block:) and the knee's
python3 - "$MEMTLB_TEST_DATA/sweep-1m-64m.json" "$h/sweep-escapes.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
esc = "\x1b]0;owned\x07\x1b[2J\x9b31m"
for res in r["results"]:
    for ev in res["events"]:
        old = ev["name"]
        ev["name"] = old + esc
        ev["reason"] = "why" + esc
        for ph in res["phases"]:
            if old in ph["counters"]:
                c = ph["counters"].pop(old)
                if "reason" in c:
                    c["reason"] = "why" + esc
                ph["counters"][old + esc] = c
json.dump(r, open(sys.argv[2], "w"))
PY
for v in "" -v; do
	brun sweep --from "$h/sweep-escapes.json" $v
	no_controls "$out" "sweep --from $v: fit and misses lines"
	no_controls "$err" "sweep --from $v: stderr"
done
brun report "$h/sweep-escapes.json"
no_controls "$out" "report of a sweep"

# /proc and /sys are untrusted too: a CPU model and a governor with
# escapes (a fixture tree), in sysinfo's text and its --check
cp -r "$MEMTLB_TEST_DATA/sysroot-nopmu" "$h/root"
cp -r "$MEMTLB_TEST_DATA/sysroot-env-noisy/sys/devices/system/cpu/cpufreq" \
	"$h/root/sys/devices/system/cpu/" 2>/dev/null ||
	{ mkdir -p "$h/root/sys/devices/system/cpu"
	  cp -r "$MEMTLB_TEST_DATA/sysroot-env-noisy/sys/devices/system/cpu/cpufreq" \
		"$h/root/sys/devices/system/cpu/"; }
sed -i "s/^model name.*/model name\t: EPYC$(printf '\033')]0;owned$(printf '\007')/" "$h/root/proc/cpuinfo"
for g in "$h"/root/sys/devices/system/cpu/cpufreq/policy*/scaling_governor; do
	printf 'powersave\033[2J\n' >"$g"
done
for c in sysinfo "sysinfo --check"; do
	MEMTLB_SYSROOT=$h/root brun $c
	no_controls "$out" "$c of a hostile /proc and /sys"
done
grep -q 'EPYC\\x1b' "$out" 2>/dev/null || { MEMTLB_SYSROOT=$h/root brun sysinfo
	expect_grep 'EPYC\\x1b' "$out" "sysinfo: the escape shown escaped"; }
if command -v xmllint >/dev/null; then
	brun report "$h/escapes.json" --format html
	if xmllint --noout "$out" 2>"$work/xml.err"; then ok; else
		fail "report html with control bytes is not XML"; head -3 "$work/xml.err" >&2; fi
else
	brun report "$h/escapes.json" --format html
	no_controls "$out" "report html"
fi

# CSV: every row has the header's number of fields, parsed as RFC 4180
csv_rows_ok() {	# FILE WHAT
	if python3 - "$1" <<'PY'; then ok; else fail "$2: CSV rows broken"; sed 's/^/  /' "$1" | head >&2; fi
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
assert len(rows) > 1, rows
assert all(len(r) == len(rows[0]) for r in rows), [r for r in rows if len(r) != len(rows[0])]
assert any('x,"y"' in f for r in rows for f in r) or any(',"q"' in f for r in rows for f in r)
PY
}
brun compare "$h/csv.json" "$h/csv.json" --format csv
expect_status 0 "compare csv of odd names"
csv_rows_ok "$out" "compare csv"
brun stat --from "$h/csv.json" --format csv 2>/dev/null
# a renamed phase is no read pass of the workload's (mt_phase_kind): named
brun sweep --from "$h/csv.json" --phase 'read_1,"q"' --format csv
expect_status 0 "sweep --from csv of odd names"
csv_rows_ok "$out" "sweep csv"

# no CSV field starts with = + - or @ (a spreadsheet's formula): each
# such name is quoted with a ' before it, as OWASP advises
formula_free() {	# FILE WHAT [NAMED]: NAMED, a formula name is in it, quoted
	if python3 - "$1" "${3:-}" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
bad = [f for r in rows for f in r if f[:1] in ("=", "+", "@") or
       (f[:1] == "-" and not f.lstrip("-").replace(".", "", 1).replace("e", "", 1).isdigit())]
assert rows and not bad, bad
assert not sys.argv[2] or any(f.startswith("'=") for r in rows for f in r), rows[:3]
PY
	then ok; else fail "$2: a field a spreadsheet runs as a formula"; fi
}
brun compare "$h/formula.json" "$h/formula.json" --format csv
expect_status 0 "compare csv of formula names"
formula_free "$out" "compare csv" named
brun sweep --from "$h/formula.json" --format csv
formula_free "$out" "sweep csv"

# wide tables: 70 events, and 64 inputs side by side
brun report "$h/wide.json"
expect_status 0 "report of 70 events"
expect_grep 'ev69' "$out" "the 70th event shown"
if [ "$(wc -c <"$out")" -lt 1000000 ]; then ok; else fail "report of 70 events: $(wc -c <"$out") bytes"; fi
set --
for i in $(seq 64); do cp "$base" "$h/in$i.json"; set -- "$@" "$h/in$i.json"; done
brun report "$@"
expect_status 0 "report of 64 inputs"
expect_grep 'in64\.json' "$out" "the 64th input shown"
brun report "$@" --format markdown
expect_status 0 "markdown report of 64 inputs"

# --- gnuplot ----------------------------------------------------------------

if command -v gnuplot >/dev/null; then
	# a file name with the old placeholder, and one that is gnuplot code
	g="$work/gp"
	mkdir -p "$g"
	cp "$MEMTLB_TEST_DATA/compare/sweep.json" "$g/a DATAFILE b.json"
	brun report "$g/a DATAFILE b.json" --format html
	expect_status 0 "report of 'a DATAFILE b.json'"
	if [ "$(grep -c '<svg' "$out")" -ge 2 ]; then ok; else
		fail "'a DATAFILE b.json': plots lost"; fi
	# run in $g: what a name makes gnuplot create would land here
	MEMTLB=$(cd "$(dirname "$MEMTLB")" && pwd)/$(basename "$MEMTLB")
	evil="x' . system('touch PWNED') . 'y
set output 'PWNED2'
.json"
	cp "$MEMTLB_TEST_DATA/compare/sweep.json" "$g/$evil"
	tdir="t'; system('touch PWNED3'); '"
	mkdir -p "$g/$tdir"
	cd "$g" || exit 1
	TMPDIR="$g/$tdir" brun report "$evil" --format html
	cd - >/dev/null || exit 1
	expect_status 0 "report of a file name that is gnuplot code"
	if ls "$g"/PWNED* >/dev/null 2>&1; then fail "gnuplot ran code from a file name"; else ok; fi
	if [ "$(grep -c '<svg' "$out")" -ge 2 ]; then ok; else fail "code-like name: plots lost"; fi
	if xmllint --noout "$out" 2>/dev/null; then ok; else fail "code-like name: not XML"; fi
	# no data file at all: an interrupt cannot leave one behind
	cat >"$g/gp.sh" <<EOS
#!/bin/sh
ls -A "\$TMPDIR" >>"$g/seen"
exec gnuplot
EOS
	chmod +x "$g/gp.sh"
	MEMTLB_GNUPLOT="$g/gp.sh" TMPDIR="$g/tmp" brun report "$MEMTLB_TEST_DATA/compare/sweep.json" --format html
	mkdir -p "$g/tmp"
	MEMTLB_GNUPLOT="$g/gp.sh" TMPDIR="$g/tmp" brun report "$MEMTLB_TEST_DATA/compare/sweep.json" --format html
	expect_status 0 "report with a gnuplot that looks at TMPDIR"
	if [ -s "$g/seen" ]; then fail "a plot file in TMPDIR while gnuplot ran"; cat "$g/seen" >&2; else ok; fi
fi

# A file name that is not UTF-8: compare's JSON keeps it escaped (never a
# dropped input), and the XHTML document stays well-formed UTF-8.
weird="$work/b$(printf '\377')x.json"
cp "$MEMTLB_TEST_DATA/compare/base.json" "$weird"
run compare "$MEMTLB_TEST_DATA/compare/base.json" "$weird" --format json
expect_status 0 "compare, a file name that is not UTF-8"
if python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
sys.exit(not (len(r["inputs"]) == 2 and r["inputs"][1]["file"].endswith("b\\xFFx.json")))' "$out"; then
	ok; else fail "compare JSON: the second input dropped or not escaped"; fi
if command -v xmllint >/dev/null; then
	MEMTLB_GNUPLOT=/nonexistent run report "$weird" --format html
	expect_status 0 "report --format html, a file name that is not UTF-8"
	if xmllint --noout "$out" 2>/dev/null; then ok; else fail "not UTF-8 name: not XML"; fi
fi

# A file named x]]>y.json: its name reaches the plots' titles, and gnuplot
# writes "]]>" raw in an SVG text, which XML forbids.
if command -v xmllint >/dev/null && command -v gnuplot >/dev/null; then
	cp "$base" "$h/x]]>y.json"
	brun report "$h/x]]>y.json" --format html
	expect_status 0 "report html of x]]>y.json"
	if xmllint --noout "$out" 2>"$work/xml.err"; then ok; else
		fail "report html of x]]>y.json is not XML"; head -3 "$work/xml.err" >&2; fi
fi

# report DIR: a file name with a terminal's escape, in the error line
mkdir -p "$h/dir"
printf 'x' >"$h/dir/a$(printf '\033')[2J.json"
brun report "$h/dir"
no_controls "$err" "report DIR: a file name in the error"

# Counts and indexes read from a report are bounded by the document's own
# sizes: a group past the events (a loop bound, an int overflow) and an n
# past any run are refused with one line, exit 2.
for case in "group 1099511627776" "group 2147483647" "group 4" "group -2" "n 100000000000"; do
	set -- $case
	python3 - "$base" "$h/bound.json" "$1" "$2" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
res = r["results"][0]
if sys.argv[3] == "group":
    res["events"][0]["group"] = int(sys.argv[4]) if sys.argv[4] != "4" else len(res["events"])
else:
    res["phases"][1]["time_ns"]["n"] = int(sys.argv[4])
    res["phases"][1]["time_ns"].pop("samples", None)
json.dump(r, open(sys.argv[2], "w"))
PY
	brun report "$h/bound.json"
	expect_status 2 "report: $case"
	expect_one_error_line "report: $case"
done
# A stddev of 1e308: its CI is inf, which no JSON holds: null, not ENOMEM.
python3 - "$base" "$h/huge.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["results"][0]["phases"][1]["time_ns"]["stddev"] = 1e308
json.dump(r, open(sys.argv[2], "w"))
PY
# KCIDB's required ids, which only the user knows
kcidb_ids="--origin lab --checkout c1"
for fmt in kcidb lkp lava; do
	ids=
	[ "$fmt" != kcidb ] || ids=$kcidb_ids
	# shellcheck disable=SC2086 # the ids are words
	brun report "$h/huge.json" --format $fmt $ids
	expect_status 0 "report --format $fmt of a stddev of 1e308"
done
# shellcheck disable=SC2086
brun report "$h/huge.json" --format kcidb $kcidb_ids
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$out" && ok ||
	fail "kcidb of a stddev of 1e308: not JSON"

# Every other count and index bounded by the document's own sizes, each
# refused with one line, exit 2 (each was taken before): a counter's n past
# its phase's iterations, a run's n or between_runs' n past the runs, an
# outlier past its phase, an evidence iteration past the iterations, a
# warm-up past -i's bound, times that cannot be written back (1e300 ns),
# and memtlb run's runs past its repeats.
for case in counter-n run-n between-n outlier-iter outlier-time evidence warmup \
	sample-huge run-repeats; do
	python3 - "$base" "$h/bound.json" "$case" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
res = r["results"][0]
case = sys.argv[3]
ph = res["phases"][1]
n = ph["time_ns"]["n"]
if case == "counter-n":
    ph["counters"][res["events"][0]["name"]]["n"] = n + 1
elif case in ("run-n", "between-n"):
    for p in res["phases"]:
        t = p["time_ns"]
        p["runs"] = [{"n": t["n"], "time_ns": t["mean"]}]
        p["between_runs"] = {"mean": t["mean"], "n": 1}
    if case == "run-n":
        ph["runs"][0]["n"] = 10 ** 12
    else:
        ph["between_runs"]["n"] = 1000
elif case == "outlier-iter":
    res["outliers"] = [{"iteration": 500000, "phase": ph["name"], "time_ns": 5}]
elif case == "outlier-time":
    res["outliers"] = [{"iteration": 0, "phase": ph["name"], "time_ns": 1e300}]
elif case == "evidence":
    res["evidence_iteration"] = 999999
elif case == "warmup":
    res["warmup"] = 2000000
elif case == "sample-huge":
    ph["time_ns"]["samples"][0] = 1e300
elif case == "run-repeats":
    r["command"] = "run"
    r["run"] = {"command_line": "true", "runs": 5, "repeats": 2, "exit_status": 0}
json.dump(r, open(sys.argv[2], "w"))
PY
	brun report "$h/bound.json"
	expect_status 2 "report: $case"
	expect_one_error_line "report: $case"
done
# A report within those bounds still loads.
python3 - "$base" "$h/bound.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
res = r["results"][0]
ph = res["phases"][1]
res["outliers"] = [{"iteration": ph["time_ns"]["n"] - 1, "phase": ph["name"], "time_ns": 5}]
res["evidence_iteration"] = ph["time_ns"]["n"] + 1
res["warmup"] = 3
json.dump(r, open(sys.argv[2], "w"))
PY
brun report "$h/bound.json"
expect_status 0 "report: counts within the document's sizes"

# Values no format holds (inf from 1e308 scaled): lkp and LAVA say no
# "inf" or "nan" (a number or a skip), KCIDB's number is a number or
# absent, compare's JSON has null where the key went missing.
python3 - "$base" "$h/huge2.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for p in r["results"][0]["phases"]:
    p["time_ns"]["cv"] = 1e308
    p["time_ns"]["mean"] = 1e308
    p["time_ns"]["stddev"] = 1e308
json.dump(r, open(sys.argv[2], "w"))
PY
for fmt in lkp lava kcidb; do
	ids=
	[ "$fmt" != kcidb ] || ids=$kcidb_ids
	# shellcheck disable=SC2086
	brun report "$h/huge2.json" --format $fmt $ids
	expect_status 0 "report --format $fmt of 1e308 times"
	if grep -Eqiw 'inf|nan|infinity' "$out"; then fail "$fmt: a value that is no number"
		grep -Eiw 'inf|nan|infinity' "$out" | head -n 3 >&2; else ok; fi
done
python3 - "$out" <<'PY' && ok || fail "kcidb: a number without a numeric value"
import json, sys
d = json.load(open(sys.argv[1]))
for t in d["tests"]:
    v = t.get("number", {"value": 0})["value"]
    assert isinstance(v, (int, float)) and not isinstance(v, bool), t
PY
brun compare "$base" "$h/huge2.json" --format json
expect_status 0 "compare --format json of 1e308 times"
python3 - "$out" <<'PY' && ok || fail "compare json: a side without its mean"
import json, sys
d = json.load(open(sys.argv[1]))
seen = 0
def walk(o):
    global seen
    if isinstance(o, dict):
        if o.get("status") == "ok":
            assert "mean" in o, o
            seen += 1
        for v in o.values():
            walk(v)
    elif isinstance(o, list):
        for v in o:
            walk(v)
walk(d)
assert seen
PY

finish
