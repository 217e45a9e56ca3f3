#!/bin/sh
# SPDX-License-Identifier: MIT
# An emulated CPU (qemu TCG, sys/emulation) is said in sysinfo, in stat's
# table, in the JSON report, in memtlb report and in compare, with the
# word that no TLB conclusion follows. The guest is a fixture tree of the
# files qemu's arm64 and pseries guests showed (tests/data/sysroot-qemu-*),
# the counts are replayed.
. "$(dirname "$0")/lib.sh"

data=${MEMTLB_TEST_DATA:?}
export MEMTLB_BACKEND=replay:$data/replay-groups.txt

MEMTLB_SYSROOT=$data/sysroot-qemu-arm64 run sysinfo
expect_status 0 "sysinfo, arm64 guest"
expect_grep '^cpu emulated +yes \(qemu TCG: MIDR implementer 0x00, part 0x051' "$out" \
	"sysinfo: qemu's max CPU"
MEMTLB_SYSROOT=$data/sysroot-qemu-pseries run sysinfo --json
expect_status 0 "sysinfo --json, pseries guest"
expect_grep '"cpu_emulated": true' "$out" "sysinfo --json: cpu_emulated"
expect_grep '"cpu_emulated_evidence": "qemu TCG: pSeries' "$out" "sysinfo --json: evidence"
MEMTLB_SYSROOT=$data/sysroot-pmu run sysinfo
expect_grep '^cpu emulated +no$' "$out" "sysinfo: a machine's tree is not emulated"

MEMTLB_SYSROOT=$data/sysroot-qemu-arm64 run stat --region 1m -i 1 --passes 1 -o "$work/guest.json"
expect_status 0 "stat, arm64 guest"
expect_grep '^emulated CPU: qemu TCG: MIDR' "$out" "stat: says emulated"
expect_grep "^these counts and times are qemu's, not hardware's: no TLB conclusion$" "$out" \
	"stat: no TLB conclusion"
if awk 'length > 80 && /emulated|conclusion/ { bad = 1 } END { exit bad }' "$out"; then ok; else
	fail "stat: the emulated lines fit 80 columns"; fi
expect_grep '"cpu_emulated": true' "$work/guest.json" "report: cpu_emulated"

MEMTLB_SYSROOT=$data/sysroot-pmu run stat --region 1m -i 1 --passes 1 -o "$work/host.json"
expect_status 0 "stat, a machine"
if grep -q 'emulated' "$out"; then fail "stat: a machine said emulated"; else ok; fi
expect_grep '"cpu_emulated": false' "$work/host.json" "report: cpu_emulated false"

# A named CPU model on qemu's virt board (cortex-a57 under TCG): its MIDR
# is the real core's, but its PMU has qemu's modelled events alone.
cp -R "$data/sysroot-qemu-arm64" "$work/a57"
printf 'processor\t: 0\nCPU implementer\t: 0x41\nCPU part\t: 0xd07\n' >"$work/a57/proc/cpuinfo"
MEMTLB_SYSROOT=$work/a57 run stat --region 1m -i 1 --passes 1
expect_status 0 "stat, cortex-a57 on qemu's virt board"
expect_grep "^emulated CPU: qemu TCG: virt board, its PMU counts only qemu's" "$out" \
	"stat: a cortex-a57 TCG guest is emulated"
# The same with the host core's events (KVM passes them): cannot be told.
ev=$work/a57/sys/bus/event_source/devices/armv8_pmuv3/events
for e in l1d_cache l1d_cache_refill l1d_tlb_refill br_mis_pred; do echo "event=0x1" >"$ev/$e"; done
MEMTLB_SYSROOT=$work/a57 run stat --region 1m -i 1 --passes 1
expect_status 0 "stat, cortex-a57 on qemu's virt board, a host's PMU"
expect_grep '^CPU perhaps emulated: qemu virt board \(linux,dummy-virt\)' "$out" \
	"stat: perhaps emulated"
expect_grep "^under TCG these counts and times are qemu's: no TLB conclusion$" "$out" \
	"stat: perhaps emulated, no TLB conclusion"

# A cortex-a57 booted by UEFI (ACPI, no device tree, no PMU): qemu's
# SMBIOS product names the accelerator, "KVM Virtual Machine" under KVM.
MEMTLB_SYSROOT=$data/sysroot-qemu-arm64-acpi run sysinfo
expect_grep '^cpu emulated +yes \(qemu TCG: SMBIOS product QEMU Virtual Machine' "$out" \
	"sysinfo: a cortex-a57 TCG guest booted by UEFI"
MEMTLB_SYSROOT=$data/sysroot-qemu-arm64-acpi run stat --region 1m -i 1 --passes 1
expect_grep '^emulated CPU: qemu TCG: SMBIOS product QEMU Virtual Machine' "$out" \
	"stat: a cortex-a57 TCG guest booted by UEFI"
cp -R "$data/sysroot-qemu-arm64-acpi" "$work/a57kvm"
echo "KVM Virtual Machine" >"$work/a57kvm/sys/class/dmi/id/product_name"
MEMTLB_SYSROOT=$work/a57kvm run sysinfo
expect_grep '^cpu emulated +no \(qemu KVM: SMBIOS product KVM Virtual Machine\)$' "$out" \
	"sysinfo: the same under KVM"
MEMTLB_SYSROOT=$work/a57kvm run stat --region 1m -i 1 --passes 1
expect_no_grep 'emulated' "$out" "stat: a KVM guest is not said emulated"

run compare "$work/host.json" "$work/guest.json"
expect_status 0 "compare"
# the table says it too, for a reader of standard output alone
expect_grep '^new\[1\]: .*guest\.json\), emulated CPU$' "$out" "compare: the input said emulated"
expect_no_grep '^base: .*emulated' "$out" "compare: the host not said emulated"
expect_grep '^emulated: a time from a CPU emulated \(qemu TCG\), or perhaps so: not compared$' \
	"$out" "compare: the legend defines emulated"
# (but the lines naming the files, as long as their paths)
if awk '!/^(base|new\[[0-9]+\]): / && length > 80 { bad = 1 } END { exit bad }' "$out"; then ok
else fail "compare: fits 80 columns"; fi
# compare's warnings go to standard error, before the table.
expect_grep '^memtlb: warning: .*guest\.json: emulated CPU \(qemu TCG: MIDR.*no TLB conclusion' \
	"$err" "compare: warns of the emulated side"
if grep -q 'host\.json: emulated' "$err"; then fail "compare: host said emulated"; else ok; fi

# Two TCG reports: qemu's times are not compared (+1217% with a star and
# exit 1 before), under --fail-above too; the counts still are.
python3 - "$work/guest.json" "$work/guest2.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for ph in r["results"][0]["phases"]:
    t = ph["time_ns"]
    for k in ("mean", "min", "median", "max"):
        if k in t:
            t[k] *= 13.18
    t["samples"] = [int(v * 13.18) for v in t.get("samples", [])]
    for c in ph["counters"].values():
        if c.get("counted") and "mean" in c:
            c["mean"] *= 3
json.dump(r, open(sys.argv[2], "w"))
PY
run compare "$work/guest.json" "$work/guest2.json" --fail-above 5
expect_status 0 "compare of two TCG reports: no verdict from times"
expect_grep " emulated .*\.ns_per_block$" "$out" "compare: a time row says emulated"
if grep -E '[+-][0-9.]+%.*(time_us|ns_per_block)' "$out"; then
	fail "compare: a TCG time turned into a change"; else ok; fi
run compare "$work/guest.json" "$work/guest2.json" --format json
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
rows = d["rows"]
t = [r for r in rows if r["metric"] == "time_us"]
assert t and all(s.get("emulated") and "change_pct" not in s for r in t for s in r["inputs"][1:]), t[:1]' \
	"$out" 2>"$work/py.err" && ok || { fail "compare json: time rows emulated"; cat "$work/py.err" >&2; }

# flush and probe say it too, under their titles
MEMTLB_SYSROOT=$data/sysroot-qemu-arm64 run flush --pages 1..2:x2 -i 1 --ops 5 -e task-clock
expect_status 0 "flush, arm64 guest"
expect_grep '^emulated CPU: qemu TCG: MIDR' "$out" "flush: says emulated"
MEMTLB_SYSROOT=$data/sysroot-qemu-arm64 run probe --max 64k
expect_status 0 "probe, arm64 guest"
expect_grep '^emulated CPU: qemu TCG: MIDR' "$out" "probe: says emulated"

run report "$work/guest.json"
expect_status 0 "report"
expect_grep '^CPU emulated +yes: no TLB conclusion$' "$out" "report: CPU emulated row"

# Perhaps emulated (a cortex-a57 on qemu's board, no PMU, no SMBIOS): its
# times are no verdict either, against a machine's report.
rm -r "$work/a57/sys/bus/event_source/devices/armv8_pmuv3"
MEMTLB_SYSROOT=$work/a57 run stat --region 1m -i 2 --passes 1 -o "$work/maybe.json"
expect_grep '^CPU perhaps emulated: ' "$out" "stat: perhaps emulated without a PMU"
MEMTLB_SYSROOT=$data/sysroot-pmu run stat --region 1m -i 2 --passes 1 -o "$work/host2.json"
python3 - "$work/maybe.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for ph in r["results"][0]["phases"]:
    t = ph["time_ns"]
    for k in ("mean", "min", "median", "max"):
        if k in t:
            t[k] *= 13.18
    t["samples"] = [int(v * 13.18) for v in t.get("samples", [])]
json.dump(r, open(sys.argv[1], "w"))
PY
run compare "$work/host2.json" "$work/maybe.json" --fail-above 5
expect_status 0 "compare, perhaps emulated: no verdict from times"
expect_grep '^new\[1\]: .*maybe\.json\), CPU perhaps emulated$' "$out" "compare: perhaps said"
expect_no_grep '[+-][0-9.]+%.*(time_us|ns_per_block)$' "$out" "compare: no perhaps-TCG change"
run report "$work/maybe.json"
expect_grep "^CPU emulated +perhaps \(qemu's board\): under TCG no TLB conclusion$" "$out" \
	"report: perhaps emulated row"

finish
