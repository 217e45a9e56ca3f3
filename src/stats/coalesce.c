// SPDX-License-Identifier: MIT
/*
 * Coalescing judged from two translation curves around a TLB level:
 * physically scattered base pages against contiguous ones (stats/coalesce.h).
 */
#include <math.h>
#include <string.h>

#include "stats/coalesce.h"

static const char *const kind_names[MT_COALESCE_KINDS] = {
	[MT_COALESCE_NOT_APART] = "none",
	[MT_COALESCE_CHEAPER] = "cheaper",
	[MT_COALESCE_REACH] = "reach",
};

const char *mt_coalesce_kind_name(int kind)
{
	return kind >= 0 && kind < MT_COALESCE_KINDS ? kind_names[kind] : NULL;
}

int mt_coalesce_kind_parse(const char *name)
{
	for (int k = 0; name && k < MT_COALESCE_KINDS; k++)
		if (!strcmp(name, kind_names[k]))
			return k;
	return -1;
}

/*
 * What gives a run of contiguous base pages one TLB entry, by the run's
 * length and the machine (NULL: any vendor). AMD's optimization guides
 * name 4 pages of 4 KiB aligned to 16 KiB; arm64 Linux sets the contiguous
 * bit on 16 pages of 4 KiB of one folio (contpte, 6.9 and later).
 */
static const struct {
	unsigned int pages;
	const char *machine, *vendor, *name;
} mechanisms[] = {
	{ 4, "x86_64", "AuthenticAMD", "AMD PTE coalescing" },
	{ 4, "x86_64", "HygonGenuine", "AMD PTE coalescing" },
	{ 16, "aarch64", NULL, "arm64 contpte" },
};

const char *mt_coalesce_mechanism(double factor, const char *machine, const char *vendor)
{
	unsigned int pages;

	if (!(factor >= MT_COALESCE_MIN_FACTOR) || !machine)
		return NULL;
	/* the grid measures by half octaves: the power of two nearest */
	pages = 1u << (unsigned int)lround(log2(factor > 1024 ? 1024 : factor));
	for (size_t i = 0; i < sizeof(mechanisms) / sizeof(mechanisms[0]); i++)
		if (mechanisms[i].pages == pages && !strcmp(mechanisms[i].machine, machine) &&
		    (!mechanisms[i].vendor || (vendor && !strcmp(mechanisms[i].vendor, vendor))))
			return mechanisms[i].name;
	return NULL;
}

/*
 * The last size under half before the first at or over it: 0 when the
 * first is over it; *beyond (the last size) when none is.
 */
static uint64_t reach(const struct mt_coalesce_point *p, size_t n, bool contiguous,
		      double half, bool *beyond)
{
	*beyond = false;
	for (size_t i = 0; i < n; i++) {
		double y = contiguous ? p[i].contiguous_ns : p[i].scattered_ns;

		if (y >= half)
			return i ? p[i - 1].pages : 0;
	}
	*beyond = n > 0;
	return n ? p[n - 1].pages : 0;
}

static bool apart(const struct mt_coalesce_point *p, double min_ns)
{
	return p->diff_ns >= min_ns && p->diff_ns - p->diff_ci95_ns > 0;
}

void mt_coalesce_judge(const struct mt_coalesce_point *p, size_t n, double from_ns,
		       double to_ns, double min_ns, struct mt_coalesce_verdict *v)
{
	double half = (from_ns + to_ns) / 2;
	bool scattered_beyond;
	size_t run = 0;

	memset(v, 0, sizeof(*v));
	v->factor = NAN;
	for (size_t i = 0; i < n; i++) {
		run = apart(&p[i], min_ns) ? run + 1 : 0;
		if (run >= MT_COALESCE_APART_RUN && !v->apart_at)
			v->apart_at = p[i + 1 - run].pages;
		if (run && p[i].diff_ns > v->apart_ns)
			v->apart_ns = p[i].diff_ns;
	}
	if (!v->apart_at)
		v->apart_ns = NAN;
	v->scattered_reach = reach(p, n, false, half, &scattered_beyond);
	v->contiguous_reach = reach(p, n, true, half, &v->contiguous_beyond);
	/* a scattered curve that never rose is no level here: no factor */
	if (v->scattered_reach && !scattered_beyond && v->contiguous_reach)
		v->factor = (double)v->contiguous_reach / (double)v->scattered_reach;
	if (!v->apart_at)
		v->kind = MT_COALESCE_NOT_APART;
	else if (v->factor >= MT_COALESCE_MIN_FACTOR)
		v->kind = MT_COALESCE_REACH;
	else
		v->kind = MT_COALESCE_CHEAPER;
}
