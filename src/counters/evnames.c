// SPDX-License-Identifier: MIT
/* The event names memtlb can resolve, for did-you-mean hints. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfmon/pfmlib.h>

#include "counters/evnames.h"
#include "model/suggest.h"

/* perf list's generic names, as perf's parser takes them (libpfm4's perf:: PMU). */
static const char *const generic[] = {
	"cycles", "cpu-cycles", "instructions", "cache-references", "cache-misses",
	"branch-instructions", "branches", "branch-misses", "bus-cycles",
	"stalled-cycles-frontend", "stalled-cycles-backend", "ref-cycles",
	"cpu-clock", "task-clock", "page-faults", "faults", "minor-faults",
	"major-faults", "context-switches", "cs", "cpu-migrations", "migrations",
	"alignment-faults", "emulation-faults",
	"L1-dcache-loads", "L1-dcache-load-misses", "L1-dcache-stores",
	"L1-dcache-store-misses", "L1-dcache-prefetches", "L1-icache-loads",
	"L1-icache-load-misses", "LLC-loads", "LLC-load-misses", "LLC-stores",
	"LLC-store-misses", "LLC-prefetches", "dTLB-loads", "dTLB-load-misses",
	"dTLB-stores", "dTLB-store-misses", "dTLB-prefetches", "iTLB-loads",
	"iTLB-load-misses", "branch-loads", "branch-load-misses",
};

struct names {
	char **v;
	size_t n, cap;
};

static int add(struct names *nm, const char *fmt, const char *a, const char *b)
{
	char buf[256];

	if (nm->n == nm->cap) {
		size_t cap = nm->cap ? nm->cap * 2 : 1024;
		char **v = realloc(nm->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		nm->v = v;
		nm->cap = cap;
	}
	snprintf(buf, sizeof(buf), fmt, a, b);
	nm->v[nm->n] = strdup(buf);
	return nm->v[nm->n++] ? 0 : -ENOMEM;
}

/* Events and EVENT:UMASK of the present hardware PMUs (perf:: is the generic list). */
static int pmu_names(struct names *nm)
{
	pfm_pmu_info_t pinfo;
	pfm_pmu_t p;

	if (pfm_initialize() != PFM_SUCCESS)
		return 0;
	pfm_for_all_pmus(p) {
		memset(&pinfo, 0, sizeof(pinfo));
		pinfo.size = sizeof(pinfo);
		if (pfm_get_pmu_info(p, &pinfo) != PFM_SUCCESS || !pinfo.is_present ||
		    pinfo.type == PFM_PMU_TYPE_OS_GENERIC)
			continue;
		for (int e = pinfo.first_event; e != -1; e = pfm_get_event_next(e)) {
			pfm_event_info_t ei = { .size = sizeof(ei) };

			if (pfm_get_event_info(e, PFM_OS_NONE, &ei) != PFM_SUCCESS)
				continue;
			if (add(nm, "%s%s", ei.name, ""))
				return -ENOMEM;
			for (int a = 0; a < ei.nattrs; a++) {
				pfm_event_attr_info_t ai = { .size = sizeof(ai) };

				if (pfm_get_event_attr_info(e, a, PFM_OS_NONE, &ai) != PFM_SUCCESS ||
				    ai.type != PFM_ATTR_UMASK)
					continue;
				if (add(nm, "%s:%s", ei.name, ai.name))
					return -ENOMEM;
			}
		}
	}
	return 0;
}

/* The nearest of names[0..n), else those holding its parts: how many in pick. */
static size_t nearest(const char *name, char *const *names, size_t n, const char **pick)
{
	const char *one = mt_suggest(name, (const char *const *)names, n);
	size_t k;

	if (one) {
		pick[0] = one;
		return 1;
	}
	k = mt_suggest_parts(name, (const char *const *)names, n, pick, 3);
	/* more than three: too vague to help */
	return k <= 3 ? k : 0;
}

int mt_evnames_suggest(const char *name, char *buf, size_t len)
{
	struct names gen = { 0 }, pmu = { 0 };
	const char *pick[3];
	size_t n = 0, off = 0;
	int ret = 0;

	buf[0] = '\0';
	/* perf's names first: dTLB-misses is nearer ITLB_MISSES, but meant dTLB-load-misses */
	for (size_t i = 0; i < sizeof(generic) / sizeof(generic[0]) && !ret; i++)
		ret = add(&gen, "%s%s", generic[i], "");
	if (!ret)
		n = nearest(name, gen.v, gen.n, pick);
	if (!ret && !n) {
		ret = pmu_names(&pmu);
		if (!ret)
			n = nearest(name, pmu.v, pmu.n, pick);
	}
	for (size_t i = 0; i < n && !ret; i++)
		off += (size_t)snprintf(buf + off, off < len ? len - off : 0, "%s%s",
					!i ? "" : i == n - 1 ? " or " : ", ", pick[i]);
	if (!ret && !n)
		ret = -ENOENT;
	for (size_t i = 0; i < gen.n; i++)
		free(gen.v[i]);
	for (size_t i = 0; i < pmu.n; i++)
		free(pmu.v[i]);
	free(gen.v);
	free(pmu.v);
	return ret;
}
