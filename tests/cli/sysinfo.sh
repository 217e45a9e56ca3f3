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
check "$j" 's["khugepaged"] == {"defrag": "1", "pages_to_scan": 4096, "scan_sleep_millisecs": 10000}' "khugepaged"
check "$j" 's["hugepages"]["2048kB"] == {"total": 512, "free": 500}' "2M pool"
check "$j" 's["hugepages"]["1048576kB"] == {"total": 4, "free": 4}' "1G pool"
check "$j" 's["numa_nodes"] == 2' "NUMA nodes"
check "$j" 's["tlb"] == [] and s["tlb_source"] == ""' "no cpuid TLBs for a fixture"

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

MEMTLB_SYSROOT=$data/sysroot-nopmu run sysinfo
expect_status 0 "sysinfo text"
expect_grep '^kernel PMU driver +no' "$out" "says no PMU driver"
expect_grep '^fault_around_bytes +unreadable' "$out" "says unreadable"
expect_grep '^hypervisor +yes' "$out" "says hypervisor"

# A report embeds the same object.
MEMTLB_SYSROOT=$data/sysroot-pmu run stat --region 64k -i 1 -p 1 -e minor-faults -o "$work/r.json"
expect_status 0 "stat with a fixture sysroot"
python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); json.dump(r["system"], open(sys.argv[2], "w"))' "$work/r.json" "$work/sys.json"
check "$work/sys.json" "s == json.load(open('$work/pmu.json'))" "report's system equals sysinfo --json"

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
run sysinfo
expect_status 0 "live sysinfo"
expect_grep '^page size +[0-9]+ bytes' "$out" "text shows page size"
run sysinfo --bogus
expect_status 2 "unknown option"
expect_one_error_line "unknown option"

finish
