#!/bin/sh
# SPDX-License-Identifier: MIT
# memtlb compare and memtlb report over a fleet's worth of reports: N sweep
# reports (copies of one real sweep, each with its own host name), the wall
# time of `compare` and of `report --format kcidb` over all of them, the
# median of ROUNDS. The goal: under a second for 20. A benchmark, not a test.
#
#   bench/compare-fleet.sh [N [ROUNDS]]   (default 20 5)
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-20}
rounds=${2:-5}
memtlb=${MEMTLB:-$top/build/memtlb}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

"$memtlb" sweep --region 16m..256m:x2 --backing anon -i 3 -o "$work/base.json" >/dev/null 2>&1
mkdir "$work/fleet"
python3 - "$work/base.json" "$work/fleet" "$n" <<'PY'
import json, sys
base, out, n = json.load(open(sys.argv[1])), sys.argv[2], int(sys.argv[3])
for i in range(n):
    base["system"]["host"] = f"box{i:02d}"
    json.dump(base, open(f"{out}/box{i:02d}.json", "w"))
PY
for tool in compare kcidb; do
	for r in $(seq "$rounds"); do
		t0=$(date +%s%N)
		if [ "$tool" = compare ]; then
			"$memtlb" compare "$work"/fleet/*.json >/dev/null 2>"$work/err" ||
				{ cat "$work/err" >&2; exit 1; }
		else
			"$memtlb" report "$work/fleet" --format kcidb >/dev/null
		fi
		t1=$(date +%s%N)
		echo $(( (t1 - t0) / 1000 ))
	done | sort -n | awk -v t="$tool" -v n="$n" \
		'{ a[NR] = $1 } END { printf "%-8s %d reports: median %.3f s\n", t, n, a[int((NR + 1) / 2)] / 1e6 }'
done
