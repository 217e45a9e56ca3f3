#!/bin/sh
# SPDX-License-Identifier: MIT
# memtlb sysinfo: fixture /proc and /sys trees (a machine with a PMU driver,
# one without), then this machine.
. "$(dirname "$0")/lib.sh"

data=${MEMTLB_TEST_DATA:?}

# check FILE EXPR WHAT: a Python expression on the JSON object must be true
check() {
	if python3 -c 'import json, sys; s = json.load(open(sys.argv[1])); sys.exit(not eval(sys.argv[2]))' "$1" "$2"; then ok; else
		fail "$3: $2"; sed 's/^/  /' "$1" >&2; fi
}

MEMTLB_SYSROOT=$data/sysroot-pmu run sysinfo --json
expect_status 0 "sysinfo --json, PMU fixture"
j=$work/pmu.json
cp "$out" "$j"
check "$j" 's["kernel"] == "6.1.0-18-amd64"' "kernel release"
check "$j" 's["kernel_version"].startswith("#1 SMP PREEMPT_DYNAMIC Debian")' "kernel version"
check "$j" 's["cpu"] == "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz"' "cpu model"
check "$j" 's["cpu_vendor"] == "GenuineIntel"' "vendor"
check "$j" 's["hypervisor"] is False' "no hypervisor flag"
check "$j" 's["hw_counters"] is True' "PMU driver present"
check "$j" 's["tunables"]["perf_event_paranoid"] == 1' "paranoid"
check "$j" 's["tunables"]["fault_around_bytes"] == 65536' "fault_around_bytes"
check "$j" 's["tunables"]["percpu_pagelist_high_fraction"] == 8' "percpu_pagelist_high_fraction"
check "$j" 's["thp_enabled"] == "always" and s["thp_defrag"] == "madvise"' "THP"
check "$j" 's["thp_shmem_enabled"] == "advise"' "THP shmem"
check "$j" 's["khugepaged"] == {"defrag": "1", "pages_to_scan": 4096, "scan_sleep_millisecs": 10000, "max_ptes_none": None, "max_ptes_swap": None, "max_ptes_shared": None, "alloc_sleep_millisecs": None}' "khugepaged"
check "$j" 's["hugepages"]["2048kB"] == {"total": 512, "free": 500}' "2M pool"
check "$j" 's["hugepages"]["1048576kB"] == {"total": 4, "free": 4}' "1G pool"
check "$j" 's["numa_nodes"] == 2' "NUMA nodes"
check "$j" 's["tlb"] == [] and s["tlb_source"] == ""' "no cpuid TLBs for a fixture"
# sysfs's caches of CPU 0; index4 (type Weird) and index5 (level 0) left out
check "$j" 's["caches"] == [{"level": 1, "type": "data", "size_bytes": 49152, "ways": 12}, {"level": 1, "type": "instruction", "size_bytes": 32768, "ways": 8}, {"level": 2, "type": "unified", "size_bytes": 1310720, "ways": 20}, {"level": 3, "type": "unified", "size_bytes": 50331648, "ways": 12}]' "caches"

MEMTLB_SYSROOT=$data/sysroot-nopmu run sysinfo --json
expect_status 0 "sysinfo --json, no-PMU fixture"
j=$work/nopmu.json
cp "$out" "$j"
check "$j" 's["cpu"] == "AMD EPYC" and s["cpu_vendor"] == "AuthenticAMD"' "cpu"
check "$j" 's["hypervisor"] is True' "hypervisor flag"
check "$j" 's["hw_counters"] is False' "no PMU driver"
check "$j" 's["tunables"]["perf_event_paranoid"] == 2' "paranoid"
check "$j" 's["tunables"]["fault_around_bytes"] is None' "fault_around_bytes unreadable is null"
check "$j" 's["thp_enabled"] == "madvise" and s["thp_shmem_enabled"] == "never"' "THP"
check "$j" 's["numa_nodes"] == 1' "one node"
check "$j" 's["caches"] == []' "no caches in sysfs: an empty array"

MEMTLB_SYSROOT=$data/sysroot-nopmu run sysinfo
expect_status 0 "sysinfo text"
expect_grep '^kernel PMU driver +no' "$out" "says no PMU driver"
expect_grep '^fault_around_bytes +unreadable' "$out" "says unreadable"
expect_grep '^hypervisor +yes' "$out" "says hypervisor"
expect_grep '^caches +not described by sysfs$' "$out" "says no caches"
MEMTLB_SYSROOT=$data/sysroot-pmu run sysinfo
expect_grep '^cache L2 unified +1\.2 MiB, 20-way \(sysfs\)$' "$out" "the L2 cache"

# A report embeds the same object.
MEMTLB_SYSROOT=$data/sysroot-pmu run stat --region 64k -i 1 --passes 1 -e minor-faults -o "$work/r.json"
expect_status 0 "stat with a fixture sysroot"
python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); json.dump(r["system"], open(sys.argv[2], "w"))' "$work/r.json" "$work/sys.json"
# ... but for run, what happened over the measurement (sysinfo has none).
check "$work/sys.json" "{k: v for k, v in s.items() if k != 'run'} == json.load(open('$work/pmu.json'))" "report's system equals sysinfo --json"
check "$work/sys.json" 's["run"]["steal_ms"] is None and s["run"]["migrations"] is None' "fixture without /proc/stat, sched: run's steal and migrations null"
# The page tables of 64 KiB (16 entries and one per table above) against
# the fixture's caches, and the same from the report read back.
tr '\n' ' ' <"$out" | sed 's/  */ /g' >"$work/joined"
expect_grep 'pressure: page tables 136 B for 4\.0 KiB pages, within L1d \(48\.0 KiB\);' \
	"$work/joined" "pressure: page tables against the caches"
check "$work/sys.json" 'all(isinstance(s["run"][k], int) and s["run"][k] >= 0 for k in ("voluntary_switches", "involuntary_switches"))' "context switches from getrusage"
expect_grep '^memtlb: system check: 1 noisy: thp \(memtlb sysinfo --check\)$' "$err" "stat: the check's line before the run"
# The caches read back from the report.
run report "$work/r.json"
expect_grep '^caches \(CPU 0\) +L1d 48k, L1i 32k, L2 1280k, L3 48m$' "$out" \
	"report: the caches read back"
# A report's caches are untrusted: an odd type, level or size is left out.
python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
r["system"]["caches"] = [{"level": 1, "type": "data\u001b[2J", "size_bytes": 4096, "ways": 1},
                         {"level": 9, "type": "data", "size_bytes": 4096, "ways": 1},
                         {"level": 2, "type": "unified", "size_bytes": -1, "ways": 1},
                         {"level": 2, "type": "unified", "size_bytes": 2097152, "ways": -3}]
json.dump(r, open(sys.argv[2], "w"))' "$work/r.json" "$work/odd.json"
run report "$work/odd.json"
expect_status 0 "report: odd caches"
expect_grep '^caches \(CPU 0\) +L2 2m$' "$out" "report: only the sound cache kept"

# The environment: each source present (noisy, quiet), absent (the PMU
# fixture), unreadable (a directory in the file's place).
check "$j" 's["hypervisor_cpuid"] is None' "absent: cpuid not read for a fixture"
check "$j" 's["cpufreq"] == {"present": False, "governor": None, "boost": None, "boost_source": None}' "absent: no cpufreq"
check "$j" 'all(s[k] is None for k in ("smt_active", "isolated_cpus", "nohz_full", "randomize_va_space", "cmdline_translation", "lockdown", "loadavg_start", "online_cpus"))' "absent: null"
check "$j" '"run" not in s' "sysinfo --json has no run"
check "$j" 's["thp_sizes"] == {} and s["thp_use_zero_page"] is None' "absent: no mTHP sizes"
MEMTLB_SYSROOT=$data/sysroot-pmu run sysinfo
expect_grep '^cpufreq governor +unknown \(no cpufreq\)$' "$out" "absent: governor unknown (no cpufreq)"
expect_grep '^boost/turbo +unknown \(no cpufreq\)$' "$out" "absent: boost unknown (no cpufreq)"
MEMTLB_SYSROOT=$data/sysroot-pmu run sysinfo --check
expect_status 1 "absent: check warns about THP always only"
expect_grep '^thp: ' "$out" "absent: thp warning"
[ "$(grep -c -v '^  fix: ' "$out")" -eq 2 ] && ok || fail "absent: one warning and the count"

MEMTLB_SYSROOT=$data/sysroot-env-noisy run sysinfo --json
expect_status 0 "noisy fixture --json"
j=$work/noisy.json
cp "$out" "$j"
check "$j" 's["cpufreq"] == {"present": True, "governor": "mixed", "boost": True, "boost_source": "cpufreq/boost"}' "noisy: cpufreq"
check "$j" 's["smt_active"] is True and s["isolated_cpus"] == "" and s["nohz_full"] is None' "noisy: SMT, isolation"
check "$j" 's["randomize_va_space"] == 2 and s["lockdown"] == "integrity"' "noisy: ASLR, lockdown"
check "$j" 's["cmdline_translation"] == ["nopti", "mitigations=off", "transparent_hugepage=always"]' "noisy: cmdline entries, init's after -- left out"
check "$j" 's["loadavg_start"] == 3.5 and s["online_cpus"] == 4' "noisy: load"
# Every size directory, 8 kB with shmem's setting alone (as 6.18 has it).
check "$j" 's["thp_sizes"] == {"8kB": {"enabled": None, "shmem_enabled": "never"}, "16kB": {"enabled": "never", "shmem_enabled": None}, "64kB": {"enabled": "always", "shmem_enabled": "within_size"}, "2048kB": {"enabled": "inherit", "shmem_enabled": None}} and s["thp_use_zero_page"] is True' "noisy: mTHP sizes, zero page"
MEMTLB_SYSROOT=$data/sysroot-env-noisy run sysinfo
expect_grep '^THP sizes \(anon/shmem\) +8kB:-/never 16kB:never/- 64kB:always/within_size$' "$out" "noisy: mTHP sizes as text"
check "$j" 's["khugepaged"]["max_ptes_none"] == 511 and s["khugepaged"]["max_ptes_swap"] == 64 and s["khugepaged"]["max_ptes_shared"] == 256 and s["khugepaged"]["alloc_sleep_millisecs"] == 60000' "noisy: khugepaged limits"
MEMTLB_SYSROOT=$data/sysroot-env-noisy run sysinfo --check
expect_status 1 "noisy: --check exits 1"
for w in governor boost aslr smt isolcpus load thp mthp; do
	expect_grep "^$w: " "$out" "noisy: $w warned"
done
expect_grep '^  fix: echo 0 > /proc/sys/kernel/randomize_va_space$' "$out" "noisy: ASLR's fix"
expect_grep '^  fix: echo 0 > /sys/devices/system/cpu/cpufreq/boost$' "$out" "noisy: boost's fix"
expect_grep '^  fix: echo off > /sys/devices/system/cpu/smt/control$' "$out" "noisy: SMT's fix"
expect_grep '^mthp: mTHP 64 kB enabled=always' "$out" "noisy: the mTHP size named"
expect_grep '^  fix: echo never > /sys/kernel/mm/transparent_hugepage/hugepages-64kB/enabled$' "$out" "noisy: mTHP's fix"
expect_grep '^8 warnings$' "$out" "noisy: counted"
if grep -q '^steal: ' "$out"; then fail "noisy: steal warned on a fixed /proc/stat"; else ok; fi
awk 'length > 80 { bad = 1 } END { exit bad }' "$out" && ok || fail "noisy: --check fits 80 columns"
MEMTLB_SYSROOT=$data/sysroot-env-noisy run sysinfo
awk 'length > 80 { bad = 1 } END { exit bad }' "$out" && ok || fail "noisy: text fits 80 columns"
expect_grep '^cpufreq governor +mixed$' "$out" "noisy: text governor"

# stat and sweep: one line on stderr before the run; THP only with --pages default.
MEMTLB_SYSROOT=$data/sysroot-env-noisy run stat --region 64k -i 1 --passes 1 -e minor-faults -o "$work/noisy-r.json"
expect_status 0 "noisy: stat runs"
expect_grep '^memtlb: system check: 8 noisy settings \(memtlb sysinfo --check\)$' "$err" "noisy: stat's one line"
[ "$(grep -c 'system check' "$err")" -eq 1 ] && ok || fail "noisy: stat says it once"
python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); json.dump(r["system"], open(sys.argv[2], "w"))' "$work/noisy-r.json" "$work/noisy-sys.json"
check "$work/noisy-sys.json" 's["run"]["steal_ms"] == 0 and s["run"]["migrations"] == 0' "noisy: fixed /proc/stat and sched: no steal, no migration"
MEMTLB_SYSROOT=$data/sysroot-env-noisy run stat --region 64k -i 1 --passes 1 -e minor-faults --pages base
expect_grep '^memtlb: system check: 6 noisy settings' "$err" "noisy: --pages base: THP not counted"
MEMTLB_SYSROOT=$data/sysroot-env-noisy run sweep --region 64k..128k -i 1 --passes 1 -e minor-faults
expect_status 0 "noisy: sweep runs"
[ "$(grep -c '^memtlb: system check: 8 noisy settings' "$err")" -eq 1 ] && ok || fail "noisy: sweep's one line"
MEMTLB_SYSROOT=$data/sysroot-env-noisy run stat --region 64k -i 1 --bogus
expect_status 2 "noisy: bad input first"
expect_one_error_line "noisy: bad input says only what is wrong"

MEMTLB_SYSROOT=$data/sysroot-env-quiet run sysinfo --json
j=$work/quiet.json
cp "$out" "$j"
check "$j" 's["cpufreq"] == {"present": True, "governor": "performance", "boost": False, "boost_source": "intel_pstate/no_turbo"}' "quiet: cpufreq"
check "$j" 's["smt_active"] is False and s["isolated_cpus"] == "1-3" and s["nohz_full"] == "1-3"' "quiet: SMT, isolation"
check "$j" 's["randomize_va_space"] == 0 and s["lockdown"] == "none"' "quiet: ASLR, lockdown"
MEMTLB_SYSROOT=$data/sysroot-env-quiet run sysinfo --check
expect_status 0 "quiet: --check exits 0"
expect_grep '^no warnings' "$out" "quiet: says so"
MEMTLB_SYSROOT=$data/sysroot-env-quiet run stat --region 64k -i 1 --passes 1 -e minor-faults
expect_status 0 "quiet: stat runs"
if grep -q 'system check' "$err"; then fail "quiet: stat printed a check line"; else ok; fi

MEMTLB_SYSROOT=$data/sysroot-env-unreadable run sysinfo --json
j=$work/unreadable.json
cp "$out" "$j"
check "$j" 's["cpufreq"] == {"present": True, "governor": None, "boost": None, "boost_source": None}' "unreadable: cpufreq"
check "$j" 'all(s[k] is None for k in ("smt_active", "isolated_cpus", "nohz_full", "randomize_va_space", "cmdline_translation", "lockdown", "loadavg_start", "online_cpus"))' "unreadable: null"
MEMTLB_SYSROOT=$data/sysroot-env-unreadable run sysinfo --check
expect_status 0 "unreadable: not a warning"
MEMTLB_SYSROOT=$data/sysroot-env-unreadable run sysinfo
expect_grep '^ASLR \(randomize_va_space\) +unreadable$' "$out" "unreadable: text"
run sysinfo --json --check
expect_status 2 "--json with --check"
expect_one_error_line "--json with --check"

# This machine.
run sysinfo --json
expect_status 0 "live sysinfo --json"
j=$work/live.json
cp "$out" "$j"
check "$j" "s['kernel'] == '$(uname -r)'" "live kernel release"
check "$j" "s['page_size'] == $(getconf PAGESIZE)" "live page size"
check "$j" 's["tunables"]["perf_event_paranoid"] == int(open("/proc/sys/kernel/perf_event_paranoid").read())' "live paranoid"
check "$j" 's["thp_enabled"] in ("always", "madvise", "never")' "live THP"
if grep -q '^vendor_id.*AuthenticAMD' /proc/cpuinfo; then
	check "$j" 'any(t["level"] == 1 and t["type"] == "data" and t["pages"] == "4K" and t["entries"] > 0 for t in s["tlb"])' "AMD L1 dTLB from cpuid"
fi
# The hypervisor, against cpuid read by a helper of the tests' own
# (tests/helpers/cpuid-sig.c), never a literal of one machine: whatever
# signature this machine's hypervisor has, memtlb must have read the same,
# and KVM's feature bits only under KVM.
sig=$("${MEMTLB_TEST_BUILD:?}/cpuid-sig")
case $? in
0)
	SIG=$sig python3 -c '
import json, os, sys
s = json.load(open(sys.argv[1]))["hypervisor_cpuid"]
sig = os.environ["SIG"]
names = {"KVMKVMKVM": "KVM", "Microsoft Hv": "Hyper-V", "VMwareVMware": "VMware",
         "XenVMMXenVMM": "Xen", "TCGTCGTCGTCG": "QEMU TCG", "bhyve bhyve ": "bhyve"}
ok = s["signature"] == sig and s["vendor"] == names.get(sig, s["vendor"])
ok = ok and (s["kvm_features"] is not None) == (sig == "KVMKVMKVM")
sys.exit(not ok)' "$j" && ok || { fail "live: cpuid signature as cpuid-sig reads it ($sig)"; cat "$j" >&2; }
	run sysinfo
	grep -F "(signature \"$sig\")" "$out" | grep -q '^hypervisor (cpuid) ' && ok ||
		fail "live: text names the signature \"$sig\""
	if [ "$sig" = KVMKVMKVM ]; then
		check "$j" 'isinstance(s["hypervisor_cpuid"]["kvm_features"]["pv_tlb_flush"], bool) and isinstance(s["hypervisor_cpuid"]["kvm_features"]["steal_time"], bool)' "live: KVM's PV TLB flush and steal time named"
		# The guest kernel logs the PV TLB flush it set up from the same bit.
		if dmesg 2>/dev/null | grep -q 'KVM setup pv remote TLB flush'; then
			check "$j" 's["hypervisor_cpuid"]["kvm_features"]["pv_tlb_flush"] is True' "live: PV TLB flush as the kernel logged"
		fi
		expect_grep '^PV TLB flush +(yes|no)$' "$out" "live: KVM's PV TLB flush said"
	else
		expect_grep '^PV TLB flush +unknown$' "$out" "live: no KVM, PV TLB flush unknown"
	fi
	;;
1)
	check "$j" 's["hypervisor_cpuid"] is None or s["hypervisor_cpuid"]["signature"] is None' "live: no hypervisor bit, no signature"
	;;
*)
	echo "skip: not x86, no cpuid signature to check"
	;;
esac
if [ -d /sys/devices/system/cpu/cpufreq ] && ! ls /sys/devices/system/cpu/cpufreq | grep -q '^policy'; then
	check "$j" 's["cpufreq"]["present"] is False and s["cpufreq"]["governor"] is None' "live: no cpufreq, governor unknown"
fi
check "$j" 's["randomize_va_space"] == int(open("/proc/sys/kernel/randomize_va_space").read())' "live: ASLR"
run sysinfo --check
[ "$status" -eq 0 ] || [ "$status" -eq 1 ] && ok || fail "live --check: exit $status"
if grep -q '^aslr: ' "$out"; then w=1; else w=0; fi
[ "$w" -eq "$([ "$(cat /proc/sys/kernel/randomize_va_space)" -gt 0 ] && echo 1 || echo 0)" ] && ok ||
	fail "live --check: ASLR warning as randomize_va_space says"

# A live stat report carries what happened over the run.
run stat --region 1m -i 2 --passes 1 -e minor-faults -o "$work/live-r.json"
expect_status 0 "live stat"
python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); json.dump(r["system"], open(sys.argv[2], "w"))' "$work/live-r.json" "$work/live-sys.json"
check "$work/live-sys.json" 'isinstance(s["run"]["steal_ms"], (int, float)) and s["run"]["steal_ms"] >= 0' "live: steal over the run"
# /proc/self/sched needs CONFIG_SCHED_DEBUG: where it is absent, so is the count.
if [ -r /proc/self/sched ]; then
	check "$work/live-sys.json" 'isinstance(s["run"]["migrations"], int) and s["run"]["migrations"] >= 0' "live: migrations over the run"
fi

run sysinfo
expect_status 0 "live sysinfo"
expect_grep '^page size +[0-9]+ bytes' "$out" "text shows page size"
run sysinfo --bogus
expect_status 2 "unknown option"
expect_one_error_line "unknown option"

finish
