/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_SYS_EMULATION_H
#define MEMTLB_SYS_EMULATION_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Whether the CPU is emulated by software (qemu's TCG) rather than hardware
 * or a hardware-virtualised guest. An emulated CPU's PMU is qemu's model:
 * its cycles and instructions are counted by the translator and its TLB has
 * nothing to do with a real one, so its counts and times say nothing about
 * a real TLB. A hardware-virtualised (KVM) guest's counts are the host's.
 */
struct mt_emulation {
	int emulated;		/* 1 emulated, 0 no sign of it, -1 cannot tell */
	char evidence[112];	/* what said so, "" when nothing did */
};

/* What the detection reads, each NULL when absent (for tests). */
struct mt_emulation_input {
	const char *cpuinfo;		/* /proc/cpuinfo, whole */
	const char *dt_compatible;	/* device tree root's compatible: NUL-separated */
	size_t dt_compatible_len;
	bool dt_hypervisor;		/* the device tree has a /hypervisor node */
	const char *cpuid_hv;		/* x86: cpuid 0x40000000's 12-byte vendor */
	/*
	 * arm64: the armv8 PMU's event names in sysfs (what its PMCEID
	 * registers advertise), space-separated; NULL where no such PMU.
	 */
	const char *pmu_events;
	/*
	 * SMBIOS system (/sys/class/dmi/id sys_vendor, product_name), one
	 * line each without the newline: what firmware (UEFI) passed on from
	 * qemu's board; NULL without firmware (a kernel booted directly).
	 */
	const char *dmi_vendor;
	const char *dmi_product;
};

/*
 * Emulated, or perhaps (qemu's board, TCG or KVM not told): a time from it
 * is qemu's. A report without the judgement (-1, no evidence) is not.
 */
static inline bool mt_emulation_maybe(const struct mt_emulation *em)
{
	return em->emulated == 1 || (em->emulated < 0 && em->evidence[0]);
}

/* Judge from in: fills em (pure). */
void mt_emulation_judge(struct mt_emulation *em, const struct mt_emulation_input *in);

/*
 * Read /proc/cpuinfo, /sys/firmware/devicetree/base, the armv8 PMU's
 * events and /sys/class/dmi/id (under MEMTLB_SYSROOT) and, on x86 without
 * a sysroot, cpuid; then judge. 0.
 */
int mt_emulation_detect(struct mt_emulation *em);

#endif
