// SPDX-License-Identifier: MIT
/* The guest's paravirtual TLB flush and x86's single-page flush ceiling. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>

#include "sys/sysinfo.h"
#include "sys/tlbflush.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#define KVM_CPUID_SIGNATURE 0x40000000u
#define KVM_CPUID_FEATURES 0x40000001u
#define KVM_FEATURE_PV_TLB_FLUSH 9
#define DEBUGFS_MAGIC 0x64626720

int mt_tlbflush_pv(void)
{
#if defined(__x86_64__) || defined(__i386__)
	const char *root = getenv("MEMTLB_SYSROOT");
	unsigned int a, b, c, d;
	char sig[13];

	/* A fixture tree describes another machine: this CPU's cpuid is not it. */
	if (root && *root)
		return -1;
	__cpuid(1, a, b, c, d);
	if (!(c & (1u << 31)))	/* no hypervisor: nothing is paravirtual */
		return 0;
	__cpuid(KVM_CPUID_SIGNATURE, a, b, c, d);
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &c, 4);
	memcpy(sig + 8, &d, 4);
	sig[12] = '\0';
	if (strcmp(sig, "KVMKVMKVM") || a < KVM_CPUID_FEATURES)
		return 0;
	__cpuid(KVM_CPUID_FEATURES, a, b, c, d);
	return !!(a & (1u << KVM_FEATURE_PV_TLB_FLUSH));
#else
	return -1;
#endif
}

long mt_tlbflush_ceiling(char *note, size_t len)
{
	char dir[4096], line[64], *end;
	struct statfs fs;
	long v;
	int ret;

	ret = mt_sys_read_line("/sys/kernel/debug/x86/tlb_single_page_flush_ceiling", line,
			       sizeof(line));
	if (!ret) {
		errno = 0;
		v = strtol(line, &end, 10);
		if (errno || end == line || v < 0) {
			snprintf(note, len, "unknown (not a number)");
			return -1;
		}
		snprintf(note, len, "debugfs");
		return v;
	}
	/* debugfs refuses its read-write files to everyone, root too, under lockdown. */
	if (ret == -EPERM || ret == -EACCES) {
		snprintf(note, len, "unknown (lockdown)");
		return -1;
	}
	mt_sys_path(dir, sizeof(dir), "/sys/kernel/debug");
	if (ret == -ENOENT && (statfs(dir, &fs) || fs.f_type != DEBUGFS_MAGIC)) {
		snprintf(note, len, "unknown (debugfs not mounted)");
		return -1;
	}
	snprintf(note, len, "unknown (%s)", strerror(-ret));
	return -1;
}
