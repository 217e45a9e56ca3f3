// SPDX-License-Identifier: MIT
/*
 * Leaf 2 TLB descriptors, from the encoding table of the Intel SDM, vol. 2A
 * (CPUID, "Encoding of CPUID Leaf 2 Descriptors"). Only the TLB entries:
 * caches come from leaf 4 and are not memtlb's concern. Level 1 is the
 * first-level data or instruction TLB (DTLB, DTLB0, uTLB), level 2 the
 * second (DTLB1, the shared STLB).
 */
#include <errno.h>
#include <stdio.h>

#include "sys/sysinfo.h"
#include "sys/tlbdesc.h"

struct desc {
	unsigned char code;
	unsigned char level;
	const char *type;
	const char *pages;
	unsigned short entries;
	unsigned char ways;	/* 0: fully associative */
};

static const struct desc descs[] = {
	{ 0x01, 1, "instruction", "4K", 32, 4 },
	{ 0x02, 1, "instruction", "4M", 2, 0 },
	{ 0x03, 1, "data", "4K", 64, 4 },
	{ 0x04, 1, "data", "4M", 8, 4 },
	{ 0x05, 2, "data", "4M", 32, 4 },
	{ 0x0b, 1, "instruction", "4M", 4, 4 },
	{ 0x4f, 1, "instruction", "4K", 32, 0 },
	{ 0x50, 1, "instruction", "4K/2M/4M", 64, 0 },
	{ 0x51, 1, "instruction", "4K/2M/4M", 128, 0 },
	{ 0x52, 1, "instruction", "4K/2M/4M", 256, 0 },
	{ 0x55, 1, "instruction", "2M/4M", 7, 0 },
	{ 0x56, 1, "data", "4M", 16, 4 },
	{ 0x57, 1, "data", "4K", 16, 4 },
	{ 0x59, 1, "data", "4K", 16, 0 },
	{ 0x5a, 1, "data", "2M/4M", 32, 4 },
	{ 0x5b, 1, "data", "4K/4M", 64, 0 },
	{ 0x5c, 1, "data", "4K/4M", 128, 0 },
	{ 0x5d, 1, "data", "4K/4M", 256, 0 },
	{ 0x61, 1, "instruction", "4K", 48, 0 },
	{ 0x63, 1, "data", "2M/4M", 32, 4 },	/* and the 1G array below */
	{ 0x63, 1, "data", "1G", 4, 4 },
	{ 0x64, 1, "data", "4K", 512, 4 },
	{ 0x6a, 1, "data", "4K", 64, 8 },	/* uTLB */
	{ 0x6b, 1, "data", "4K", 256, 8 },
	{ 0x6c, 1, "data", "2M/4M", 128, 8 },
	{ 0x6d, 1, "data", "1G", 16, 0 },
	{ 0x76, 1, "instruction", "2M/4M", 8, 0 },
	{ 0xa0, 1, "data", "4K", 32, 0 },
	{ 0xb0, 1, "instruction", "4K", 128, 4 },
	{ 0xb1, 1, "instruction", "2M", 8, 4 },
	{ 0xb2, 1, "instruction", "4K", 64, 4 },
	{ 0xb3, 1, "data", "4K", 128, 4 },
	{ 0xb4, 2, "data", "4K", 256, 4 },
	{ 0xb5, 1, "instruction", "4K", 64, 8 },
	{ 0xb6, 1, "instruction", "4K", 128, 8 },
	{ 0xba, 2, "data", "4K", 64, 4 },
	{ 0xc0, 1, "data", "4K/4M", 8, 4 },
	{ 0xc1, 2, "unified", "4K/2M", 1024, 8 },
	{ 0xc2, 1, "data", "4K/2M", 16, 4 },
	{ 0xc3, 2, "unified", "4K/2M", 1536, 6 },	/* and the 1G array below */
	{ 0xc3, 2, "unified", "1G", 16, 4 },
	{ 0xc4, 1, "data", "2M/4M", 32, 4 },
	{ 0xca, 2, "unified", "4K", 512, 4 },
};

static int add(struct mt_sysinfo *si, unsigned char code)
{
	int n = 0;

	for (size_t i = 0; i < sizeof(descs) / sizeof(descs[0]); i++) {
		struct mt_tlb *t;

		if (descs[i].code != code || si->n_tlbs >= MT_TLB_MAX)
			continue;
		t = &si->tlbs[si->n_tlbs++];
		t->level = descs[i].level;
		snprintf(t->type, sizeof(t->type), "%s", descs[i].type);
		snprintf(t->pages, sizeof(t->pages), "%s", descs[i].pages);
		t->entries = descs[i].entries;
		t->ways = descs[i].ways;
		n++;
	}
	return n;
}

int mt_tlbdesc_decode(struct mt_sysinfo *si, const unsigned int r[4])
{
	bool defer = false;
	int n = 0;

	for (int reg = 0; reg < 4; reg++) {
		if (r[reg] & (1u << 31))
			continue;
		for (int byte = reg ? 0 : 1; byte < 4; byte++) {
			unsigned char code = (r[reg] >> (8 * byte)) & 0xff;

			if (code == 0xfe)
				defer = true;
			else if (code)
				n += add(si, code);
		}
	}
	return defer && !n ? -ENODATA : n;
}
