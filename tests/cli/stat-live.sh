#!/bin/sh
# SPDX-License-Identifier: MIT
# The real libperf backend with software events, on real mappings.
. "$(dirname "$0")/lib.sh"

report="$work/r.json"
run stat --region 256m --backing anon -i 3 -o "$report" --format json
expect_status 0 "stat 256m anon"
python3 - "$out" "$report" <<'PY' || fail "fault counts on 256m anon"
import json, os, stat, sys
rep = json.load(open(sys.argv[1]))
assert json.load(open(sys.argv[2])) == rep, "-o report differs from --format json"
mask = os.umask(0o022)
os.umask(mask)
assert stat.S_IMODE(os.stat(sys.argv[2]).st_mode) == 0o666 & ~mask
res = rep["results"][0]
page = rep["system"]["page_size"]
assert res["params"]["blocks"] == (256 << 20) // page
ph = {p["name"]: p for p in res["phases"]}
assert [p["name"] for p in res["phases"]] == ["mmap"] + [
    f"{k}_{i}" for i in range(5) for k in ("write", "read")] + ["munmap"]
w0 = ph["write_0"]["counters"]["minor-faults"]
assert w0["supported"] and w0["running"] == 1.0
fpb = ph["write_0"]["derived"]["faults_per_block"]
assert abs(fpb - 1.0) <= 0.01, f"write_0 faults/block {fpb}"
for i in range(1, 5):
    f = ph[f"write_{i}"]["derived"]["faults_per_block"]
    assert f < 0.001, f"write_{i} faults/block {f}"
assert len(ph["read_4"]["time_ns"]["samples"]) == 3
if rep["system"]["hw_counters"] is False:
    for ev in ("cycles", "instructions", "dTLB-loads", "dTLB-load-misses"):
        c = ph["write_0"]["counters"][ev]
        assert c["supported"] is False and c["error"] == "ENOENT", c
        assert "mean" not in c
    assert "dtlb_miss_ratio" not in ph["write_0"]["derived"]
print("write_0 faults/block", fpb)
PY
ok

# A group led by task-clock with minor-faults (another software PMU) counts
# from the first phase on: every iteration one fault per page in write_0,
# none in mmap and the read passes, never scaled.
run stat --region 64m --backing anon -i 3 -e task-clock,minor-faults --format json
expect_status 0 "stat task-clock,minor-faults"
python3 - "$out" <<'PY' || fail "minor-faults exact under task-clock"
import json, sys
rep = json.load(open(sys.argv[1]))
pages = (64 << 20) // rep["system"]["page_size"]
ph = {p["name"]: p["counters"] for p in rep["results"][0]["phases"]}
want = {"mmap": 0, "write_0": pages, **{f"read_{i}": 0 for i in range(5)}}
for name, n in want.items():
    c = ph[name]["minor-faults"]
    assert c["counted"] and c["n"] == 3 and c["running"] == 1.0, (name, c)
    assert c["min"] == c["max"] == n, (name, c)
    assert ph[name]["task-clock"]["n"] == 3, (name, ph[name]["task-clock"])
PY
ok

# The seed's default backing, MAP_SHARED|MAP_ANONYMOUS: shmem faults, one per page.
run stat --region 64m -i 2 --passes 2 -e minor-faults,major-faults --format csv
expect_status 0 "stat shared csv"
expect_grep '^0,write_0,faults_per_block,faults/block,1,' "$out" "shared anon: one fault per page"

# Table: hardware events say not supported on a machine without a PMU driver.
run stat --region 16m -i 2 --passes 1
expect_status 0 "stat table"
expect_grep '^phase +ns/block +mean \((ns|us|ms|s)\) +cv \(%\)' "$out" \
	"ns/block beside the phase, the time's unit in its header"
expect_grep '^read_0 ' "$out" "a row per phase"
if grep -q '"hw_counters": false' "$report"; then
	# one note, wrapped at 80 columns: the names, then the reason and errno
	expect_grep '^not supported here: cycles, instructions, dTLB-loads, dTLB-load-misses \(no' \
		"$out" "hardware events named once"
	expect_grep 'in this kernel: ENOENT\)$' "$out" "with the reason and the errno"
	if grep -v '^not supported here' "$out" | grep -q 'not supported'; then
		fail "a not supported cell in the default table"
	else ok; fi
fi

# Blocks larger than a page touch fewer pages: 64k blocks -> 1/16 faults per page.
run stat --region 64m --block 64k --backing anon -i 2 --passes 1 -e minor-faults --format csv
expect_grep '^0,write_0,minor-faults,count,1024,' "$out" "one fault per 64k block"

finish
