// SPDX-License-Identifier: MIT
/*
 * TLB geometry from cpuid, for the probe's comparison. Only AMD's leaves
 * (and Hygon's, the same layout) are read: Intel's leaf 2 descriptors and
 * leaf 0x18 need tables of their own.
 */
#include <errno.h>
#include <string.h>

#include <memtlb/cpuid.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

int mt_cpuid_tlb(struct mt_tlb_geom *g)
{
	unsigned int a, b, c, d;

	memset(g, 0, sizeof(*g));
	if (!__get_cpuid(0, &a, &b, &c, &d))
		return -ENOTSUP;
	memcpy(g->vendor, &b, 4);
	memcpy(g->vendor + 4, &d, 4);
	memcpy(g->vendor + 8, &c, 4);
	if (strcmp(g->vendor, "AuthenticAMD") && strcmp(g->vendor, "HygonGenuine"))
		return -ENOTSUP;
	if (!__get_cpuid(0x80000000, &a, &b, &c, &d) || a < 0x80000006)
		return -ENOTSUP;
	__get_cpuid(0x80000005, &a, &b, &c, &d);
	g->l1d.entries_4k = (b >> 16) & 0xff;	/* EBX: 4 KiB pages */
	g->l1d.entries_2m = (a >> 16) & 0xff;	/* EAX: 2 MiB/4 MiB pages */
	__get_cpuid(0x80000006, &a, &b, &c, &d);
	g->l2d.entries_4k = (b >> 16) & 0xfff;
	g->l2d.entries_2m = (a >> 16) & 0xfff;
	return 0;
}
#else
int mt_cpuid_tlb(struct mt_tlb_geom *g)
{
	memset(g, 0, sizeof(*g));
	return -ENOTSUP;
}
#endif
