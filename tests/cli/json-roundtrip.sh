#!/bin/sh
# SPDX-License-Identifier: MIT
# One codec, both ways (report/codec.h). A report measured here (stat with
# a page scan and its folios, a file backing, flush, run), loaded by its
# command's --from and written as JSON, is the very file -o wrote: a key
# the writer spells and the loader drops, or reads into another field,
# changes it. Every fixture report, written so, loaded back and written
# again, gives the same bytes (fixtures from older memtlbs lack keys, so
# their first writing may differ from them).
. "$(dirname "$0")/lib.sh"

DATA=${MEMTLB_TEST_DATA:?}
command -v python3 >/dev/null 2>&1 || { echo "skipped: no python3"; exit 77; }

# The command whose --from prints a report: the report's own.
command_of() {
	python3 -c 'import json,sys; d = json.load(open(sys.argv[1])); print(d.get("command") or d["memtlb"].get("command") or "stat")' "$1"
}

# CMD --from FILE's JSON into OUT; run prints on stderr, as perf stat.
from_json() {	# CMD FILE OUT
	if [ "$1" = run ]; then
		"$MEMTLB" run --from "$2" --format json 2>"$3" >/dev/null
	else
		"$MEMTLB" "$1" --from "$2" --format json >"$3" 2>"$work/from.err"
	fi
}

roundtrip() {	# NAME FILE [as-written]
	cmd=$(command_of "$2") || { fail "$1: no command"; return; }
	if [ "${3:-}" = as-written ]; then
		cp "$2" "$work/a.json"
	elif ! from_json "$cmd" "$2" "$work/a.json"; then
		fail "$1: $cmd --from: $(head -1 "$work/from.err")"
		return
	fi
	from_json "$cmd" "$work/a.json" "$work/b.json"
	if cmp -s "$work/a.json" "$work/b.json"; then
		ok
	else
		fail "$1: written, loaded and written again, the JSON changed:"
		diff "$work/a.json" "$work/b.json" | head -10 >&2
	fi
}

n=0
for f in "$DATA"/compare/*.json "$DATA"/*.json; do
	# a schema this memtlb does not read is refused, as it must be
	case $(basename "$f") in schema2.json) continue ;; esac
	roundtrip "$(basename "$f")" "$f"
	n=$((n + 1))
done
[ "$n" -ge 15 ] && ok || fail "only $n fixture reports found"

# Measured here: a page scan with its folios, a file backing, the roofline's
# calibration, flush's section.
if run stat --region 4m -i 2 --pages thp -o "$work/thp.json" >/dev/null 2>&1; then
	roundtrip "stat --pages thp" "$work/thp.json" as-written
else
	fail "stat --pages thp did not run"
fi
if run stat --region 4m -i 2 --backing file -o "$work/file.json" >/dev/null 2>&1; then
	roundtrip "stat --backing file" "$work/file.json" as-written
else
	fail "stat --backing file did not run"
fi
# the page-size matrix's roofline calibration, read back by sweep --from
if run sweep --region 2m --vary pages=base,thp -i 2 --passes 1 -o "$work/pages.json" >/dev/null 2>&1
then
	roundtrip "sweep --vary pages" "$work/pages.json" as-written
else
	fail "sweep --vary pages=base,thp did not run"
fi
if run flush --pages 1..8:x2 --ops 10 -i 2 -o "$work/flush.json" >/dev/null 2>&1; then
	roundtrip "flush" "$work/flush.json" as-written
else
	fail "flush did not run"
fi
if run probe --max 256k -o "$work/probe.json" >/dev/null 2>&1; then
	roundtrip "probe" "$work/probe.json" as-written
else
	fail "probe did not run"
fi
if run probe --max 1m --coalesce -o "$work/coalesce.json" >/dev/null 2>&1; then
	roundtrip "probe --coalesce" "$work/coalesce.json" as-written
else
	fail "probe --coalesce did not run"
fi
if run run -r 2 -o "$work/run.json" -- true >/dev/null 2>&1; then
	roundtrip "run" "$work/run.json" as-written
else
	fail "run did not run"
fi
finish
