#!/bin/sh
# SPDX-License-Identifier: MIT
# memtlb on arm64 and POWER kernels under qemu (TCG), whose emulated PMUs
# Debian's kernels drive: the hardware-counter paths against a real kernel
# PMU driver (armv8_pmuv3, POWER9's), not the replay model. One boot per
# arch (scripts/memtlb-vm --arch, several commands joined by --then), small
# regions. Skips (77) without qemu, the guest files (.deps/vm-ARCH) or the
# cross build (build-aarch64/, build-ppc64le/): scripts/setup.sh test.
#
# What the guests showed (qemu 7.2, Debian's 6.1 kernels), asserted below:
# - arm64 (-cpu max, -icount shift=0): libpfm4 knows no core PMU for qemu's
#   CPU (implementer 0x00), so perf's generic names are used; the kernel
#   counts CPU_CYCLES and INST_RETIRED and refuses dTLB refills (ENOENT:
#   not in qemu's PMCEID). Nine cycles/instructions events do not fit the
#   7 counters: the kernel refuses the ninth (EINVAL), the eight it took
#   never run (the disabled leader is not checked at open), memtlb splits
#   them and they multiplex.
# - POWER9 (pseries): libpfm4 detects power9; 64 KiB pages. qemu counts
#   instructions, derives cycles from the host's clock, and dTLB-load-misses
#   opens but counts 0 (qemu does not model it): why reports say emulated.
. "$(dirname "$0")/lib.sh"

src=${MEMTLB_SOURCE_ROOT:?}
vm=$src/scripts/memtlb-vm

skip() {
	echo "SKIP: $*"
	exit 77
}
command -v python3 >/dev/null || skip "python3 not installed"

# check_json FILE WHAT: python3 on the JSON objects of a guest's stdout
# (one per --format json command, after the text ones), the code on stdin.
check_json() {
	if python3 -c '
import json, sys
text = open(sys.argv[1]).read()
dec, docs, i = json.JSONDecoder(), [], 0
while True:
    i = text.find("\n{", i)
    if i < 0:
        break
    doc, end = dec.raw_decode(text, i + 1)
    docs.append(doc)
    i = end
def ph(doc, name):
    return {p["name"]: p for p in doc["results"][0]["phases"]}[name]
exec(sys.stdin.read())
' "$1" >"$work/check.out" 2>&1; then
		ok
		sed "s/^/  $2: /" "$work/check.out"
	else
		fail "$2"
		sed 's/^/  /' "$work/check.out" >&2
	fi
}

# boot ARCH KERNEL MEMTLB ARGS...: $work/ARCH.out and .err, $status
boot() {
	a=$1 k=$2 m=$3
	shift 3
	"$vm" --arch "$a" --timeout 280 --boot-timeout 200 "$k" -- "$m" "$@" \
		>"$work/$a.out" 2>"$work/$a.err"
	status=$? err=$work/$a.err
}

# memtlb-vm's own bad input, before anything boots: exit 2, one line.
vm_usage() {	# WHAT PATTERN ARGS...
	w=$1 p=$2
	shift 2
	"$vm" "$@" >"$work/u.out" 2>"$work/u.err"
	status=$? err=$work/u.err
	expect_status 2 "$w"
	expect_grep "^memtlb-vm: $p" "$work/u.err" "$w: message"
}
kx=/boot/vmlinuz-$(uname -r)
[ -r "$kx" ] || kx=$0
vm_usage "--arch sparc" "--arch: sparc: not x86_64, arm64 or ppc64le" --arch sparc "$kx" -- "$MEMTLB" sysinfo
vm_usage "--then without memtlb" "--then: the next command must start with memtlb" \
	"$kx" -- "$MEMTLB" sysinfo --then ls
vm_usage "-o twice" "-o: one report per guest" \
	"$kx" -- "$MEMTLB" stat -o "$work/a.json" --then memtlb stat -o "$work/b.json"

ran=0

# --- arm64 -------------------------------------------------------------------
k=$(ls "$src"/.deps/vm-arm64/boot/vmlinuz-6.1.* 2>/dev/null | sort -V | tail -n 1)
m=$src/build-aarch64/memtlb
if ! command -v qemu-system-aarch64 >/dev/null; then
	echo "arm64: skipped: qemu-system-aarch64 not installed (apt-get install qemu-system-arm)"
elif [ -z "$k" ] || [ ! -x "$src/.deps/vm-arm64/bin/busybox" ] || [ ! -x "$m" ]; then
	echo "arm64: skipped: no .deps/vm-arm64 or build-aarch64/memtlb (scripts/setup.sh test)"
else
	ran=$((ran + 1))
	mux=cycles,cycles:u,cycles:k,cpu-cycles,cpu-cycles:u,cpu-cycles:k
	mux=$mux,instructions,instructions:u,instructions:k
	boot arm64 "$k" "$m" sysinfo --then memtlb list \
		--then memtlb stat --region 1m -i 1 --passes 1 -e cycles \
		--then memtlb stat --region 2m -i 2 --passes 1 -e cycles,instructions,dTLB-load-misses --format json \
		--then memtlb stat --region 4m -i 2 --passes 1 -e cycles,instructions --format json \
		--then memtlb stat --region 8m -i 3 --passes 1 -e cycles --format json \
		--then memtlb stat --region 8m -i 3 --passes 1 -e "$mux" --format json
	expect_status 0 "arm64 guest"
	o=$work/arm64.out
	expect_grep '^kernel +6\.1\..*-arm64$' "$o" "arm64 sysinfo: the guest's kernel"
	expect_grep '^kernel PMU driver +yes$' "$o" "arm64 sysinfo: armv8_pmuv3 registered"
	expect_grep '^cpu emulated +yes \(qemu TCG: MIDR implementer 0x00' "$o" "arm64 sysinfo: emulated"
	expect_grep '^libpfm4 core PMU +none$' "$o" "arm64 sysinfo: libpfm4 has no PMU for qemu's max CPU"
	# list wraps an event's encoding, type and countable at 80 columns: joined here.
	awk '/^      / { sub(/^ +/, " "); printf "%s", $0; next } { printf "\n%s", $0 } END { print "" }' \
		"$o" >"$work/arm64.joined"
	expect_grep ' perf::PERF_COUNT_HW_CPU_CYCLES.*countable: yes$' "$work/arm64.joined" \
		"arm64 list: cycles countable"
	expect_grep ' perf::PERF_COUNT_HW_CACHE_DTLB:READ:MISS.*countable: not supported' \
		"$work/arm64.joined" \
		"arm64 list: dTLB misses not supported"
	expect_grep '^emulated CPU: qemu TCG' "$o" "arm64 stat: says the CPU is emulated"
	expect_grep '^these counts and times are qemu.s, not hardware.s: no TLB conclusion$' "$o" \
		"arm64 stat: no TLB conclusion"
	check_json "$o" "arm64 stat: cycles and instructions, one group, dTLB refills not supported" <<'PY'
two, four, one, mux = docs
for d in (two, four):
    assert d["system"]["cpu_emulated"] is True, d["system"]
    ev = {e["name"]: e for e in d["results"][0]["events"]}
    assert ev["cycles"]["group"] == ev["instructions"]["group"] == 0, ev
    for p in ("mmap", "write_0", "read_0", "munmap"):
        for e in ("cycles", "instructions"):
            c = ph(d, p)["counters"][e]
            assert c["supported"] and c["counted"] and c["running"] == 1.0, (p, e, c)
            assert c["mean"] > 0, (p, e, c)
t = ph(two, "write_0")["counters"]["dTLB-load-misses"]
assert not t["supported"] and t["error"] == "ENOENT", t
assert t["reason"] == "this kernel's PMU has no such event", t
# Twice the region: write_0 and munmap count more (one fault per 4 KiB page).
for p in ("write_0", "munmap"):
    for e in ("cycles", "instructions"):
        a, b = ph(two, p)["counters"][e]["mean"], ph(four, p)["counters"][e]["mean"]
        assert b > 1.5 * a, (p, e, a, b)
for d in (two, four):
    w = ph(d, "write_0")["counters"]
    print("write_0 region %d: cycles %g, instructions %g" % (
        d["results"][0]["params"]["region"], w["cycles"]["mean"], w["instructions"]["mean"]))
PY
	check_json "$o" "arm64 stat: multiplexed, scaled within 10% of the unmultiplexed count" <<'PY'
two, four, one, mux = docs
ev = {e["name"]: e for e in mux["results"][0]["events"]}
groups = {e["group"] for e in ev.values()}
assert len(groups) > 1, ("split into groups", ev)
run = [ph(mux, "write_0")["counters"][n]["running"] for n in ev]
assert all(0 < r < 1 for r in run), ("running shares", run)
base = ph(one, "write_0")["counters"]["cycles"]
assert base["running"] == 1.0, base
for n in ("cycles", "cpu-cycles"):
    c = ph(mux, "write_0")["counters"][n]
    assert abs(c["mean"] - base["mean"]) <= 0.10 * base["mean"], (n, c, base)
print("write_0 unmultiplexed cycles %g" % base["mean"])
for n in ev:
    c = ph(mux, "write_0")["counters"][n]
    print("write_0 %s: group %s, running %.3f, scaled %g" % (n, ev[n]["group"], c["running"], c["mean"]))
PY
	expect_grep 'counter group was never scheduled.*counting again' "$work/arm64.err" \
		"arm64: the group the kernel took but never ran is split"

	# qemu's cortex-a57, a CPU libpfm4 knows: the arm_ac57 sections resolve,
	# and its raw L1D_TLB_REFILL, which the kernel opens though qemu lacks
	# it (it counted 0), is not supported by the kernel's own event list.
	"$vm" --arch arm64 --cpu cortex-a57 --timeout 280 --boot-timeout 200 "$k" -- "$m" \
		sysinfo --then memtlb list tlb \
		--then memtlb stat --region 2m -i 2 --passes 1 --events tlb --format json \
		>"$work/a57.out" 2>"$work/a57.err"
	status=$? err=$work/a57.err
	expect_status 0 "arm64 cortex-a57 guest"
	o=$work/a57.out
	expect_grep '^libpfm4 core PMU +arm_ac57$' "$o" "cortex-a57 sysinfo: libpfm4 detects arm_ac57"
	expect_grep '^cpu emulated +unknown \(qemu virt board' "$o" "cortex-a57 sysinfo: cannot tell"
	expect_grep '^  for PMU arm_ac57: its own section' "$o" "cortex-a57 list: the arm_ac57 section"
	awk '/^      / { sub(/^ +/, " "); printf "%s", $0; next } { printf "\n%s", $0 } END { print "" }' \
		"$o" >"$work/a57.joined"
	expect_grep ' arm_ac57::L1D_TLB_REFILL.*countable: not supported' "$work/a57.joined" \
		"cortex-a57 list: L1D_TLB_REFILL not supported"
	check_json "$o" "cortex-a57 stat: L1D_TLB_REFILL not supported, never 0" <<'PY'
(d,) = docs
w = ph(d, "write_0")
i, t = w["counters"]["INST_RETIRED"], w["counters"]["L1D_TLB_REFILL"]
assert i["supported"] and i["counted"] and i["mean"] > 0, i
assert not t["supported"] and t["reason"] == "this kernel's PMU has no such event", t
assert not any("dtlb" in k.lower() or "misses" in k for k in w.get("derived", {})), w["derived"]
print("write_0 INST_RETIRED %g; L1D_TLB_REFILL %s" % (i["mean"], t["reason"]))
PY
fi

# --- POWER ------------------------------------------------------------------
k=$(ls "$src"/.deps/vm-ppc64le/boot/vmlinux-6.1.* 2>/dev/null | sort -V | tail -n 1)
m=$src/build-ppc64le/memtlb
if ! command -v qemu-system-ppc64 >/dev/null; then
	echo "ppc64le: skipped: qemu-system-ppc64 not installed (apt-get install qemu-system-ppc)"
elif [ -z "$k" ] || [ ! -x "$src/.deps/vm-ppc64le/bin/busybox" ] || [ ! -x "$m" ]; then
	echo "ppc64le: skipped: no .deps/vm-ppc64le or build-ppc64le/memtlb (scripts/setup.sh test)"
else
	ran=$((ran + 1))
	boot ppc64le "$k" "$m" sysinfo --then memtlb list \
		--then memtlb stat --region 2m -i 2 --passes 1 -e cycles,instructions,minor-faults --format json \
		--then memtlb stat --region 4m -i 2 --passes 1 -e cycles,instructions,minor-faults --format json
	expect_status 0 "ppc64le guest"
	o=$work/ppc64le.out
	expect_grep '^kernel +6\.1\..*-powerpc64le$' "$o" "ppc64le sysinfo: the guest's kernel"
	expect_grep '^page size +65536 bytes$' "$o" "ppc64le sysinfo: 64 KiB pages"
	expect_grep '^libpfm4 core PMU +power9$' "$o" "ppc64le sysinfo: libpfm4 detects power9"
	expect_grep '^cpu emulated +yes \(qemu TCG: pSeries' "$o" "ppc64le sysinfo: emulated"
	expect_grep '^  for PMU power9' "$o" "ppc64le list: the power9 sections resolve"
	check_json "$o" "ppc64le stat: 64 KiB blocks, one fault per block, counted cycles" <<'PY'
two, four = docs
for d, blocks in ((two, 32), (four, 64)):
    r = d["results"][0]
    assert r["params"]["block"] == 65536 and r["params"]["blocks"] == blocks, r["params"]
    w = ph(d, "write_0")
    # One fault per 64 KiB block (a stray fault of the process at most).
    mf = w["counters"]["minor-faults"]["mean"]
    assert blocks <= mf <= blocks + 1, (blocks, w["counters"]["minor-faults"])
    assert abs(w["derived"]["faults_per_block"] - mf / blocks) < 1e-9, w["derived"]
    assert ph(d, "read_0")["counters"]["minor-faults"]["mean"] <= 1, ph(d, "read_0")
    for e in ("cycles", "instructions"):
        c = w["counters"][e]
        assert c["supported"] and c["counted"] and c["running"] == 1.0 and c["mean"] > 0, (e, c)
# qemu's POWER PMU counts instructions as executed but derives cycles from
# the host's clock (cv near 100% on a loaded machine): only instructions
# must rise with the region.
a = ph(two, "write_0")["counters"]["instructions"]["mean"]
b = ph(four, "write_0")["counters"]["instructions"]["mean"]
assert b > 1.5 * a, ("instructions", a, b)
for d in (two, four):
    w = ph(d, "write_0")["counters"]
    print("write_0 blocks %d: minor-faults %g, instructions %g, cycles %g" % (
        d["results"][0]["params"]["blocks"], w["minor-faults"]["mean"],
        w["instructions"]["mean"], w["cycles"]["mean"]))
PY
fi

[ "$ran" -gt 0 ] || skip "no guest could run (see the lines above)"
finish
