// SPDX-License-Identifier: MIT
/* The metrics vocabulary: role names, derived metric names, units, labels. */
#include <stddef.h>
#include <string.h>

#include "model/metrics.h"

/* The one spelling of each role: name and enum both ways through it. */
static const char *const role_names[MT_ROLE_MAX] = {
	[MT_ROLE_NONE] = "-",
	[MT_ROLE_PAGE_FAULTS] = "page-faults",
	[MT_ROLE_MINOR_FAULTS] = "minor-faults",
	[MT_ROLE_MAJOR_FAULTS] = "major-faults",
	[MT_ROLE_DTLB_LOADS] = "dtlb-access",
	[MT_ROLE_DTLB_MISSES] = "dtlb-miss",
	[MT_ROLE_CYCLES] = "cycles",
	[MT_ROLE_INSTRUCTIONS] = "instructions",
	[MT_ROLE_WALK_CYCLES] = "walk-cycles",
	[MT_ROLE_ITLB_MISSES] = "itlb-miss",
};

static const char *const clock_events[] = { "task-clock", "cpu-clock" };

/*
 * The kernel's other software events (PERF_COUNT_SW_*), by perf's names:
 * counts that perf stat shows as a rate per second of the clock event.
 */
static const char *const software_counts[] = {
	"page-faults", "faults", "minor-faults", "major-faults", "context-switches", "cs",
	"cpu-migrations", "migrations", "alignment-faults", "emulation-faults",
};

const char *mt_event_time_unit(const char *event)
{
	for (size_t i = 0; event && i < sizeof(clock_events) / sizeof(*clock_events); i++)
		if (!strcmp(event, clock_events[i]))
			return "msec";
	return NULL;
}

bool mt_event_is_software_count(const char *event)
{
	for (size_t i = 0; event && i < sizeof(software_counts) / sizeof(*software_counts); i++)
		if (!strcmp(event, software_counts[i]))
			return true;
	return false;
}

const char *mt_role_name(int role)
{
	if (role < 0 || (size_t)role >= sizeof(role_names) / sizeof(role_names[0]))
		return "?";
	return role_names[role];
}

int mt_role_parse(const char *s)
{
	for (size_t i = 0; i < sizeof(role_names) / sizeof(role_names[0]); i++)
		if (role_names[i] && !strcmp(s, role_names[i]))
			return (int)i;
	return -1;
}

const char *mt_derived_name(enum mt_derived d)
{
	static const char *const names[MT_DERIVED_MAX] = {
		[MT_DERIVED_NS_PER_BLOCK] = "ns_per_block",
		[MT_DERIVED_FAULTS_PER_BLOCK] = "faults_per_block",
		[MT_DERIVED_DTLB_MISS_RATIO] = "dtlb_miss_ratio",
		[MT_DERIVED_MISSES_PER_BLOCK] = "misses_per_block",
		[MT_DERIVED_DTLB_MISS_RATE] = "dtlb_miss_rate",
		[MT_DERIVED_DTLB_MPKI] = "dtlb_mpki",
		[MT_DERIVED_ITLB_MPKI] = "itlb_mpki",
		[MT_DERIVED_WALK_CYCLES_SHARE] = "walk_cycles_share",
	};

	return d < MT_DERIVED_MAX ? names[d] : NULL;
}

const char *mt_derived_unit(enum mt_derived d)
{
	static const char *const units[MT_DERIVED_MAX] = {
		[MT_DERIVED_NS_PER_BLOCK] = "ns/block",
		[MT_DERIVED_FAULTS_PER_BLOCK] = "faults/block",
		[MT_DERIVED_DTLB_MISS_RATIO] = "fraction",
		[MT_DERIVED_MISSES_PER_BLOCK] = "misses/block",
		[MT_DERIVED_DTLB_MISS_RATE] = "per instruction",
		[MT_DERIVED_DTLB_MPKI] = "per 1000 instructions",
		[MT_DERIVED_ITLB_MPKI] = "per 1000 instructions",
		[MT_DERIVED_WALK_CYCLES_SHARE] = "fraction",
	};

	return d < MT_DERIVED_MAX ? units[d] : NULL;
}

const char *mt_derived_label(enum mt_derived d)
{
	static const char *const labels[MT_DERIVED_MAX] = {
		[MT_DERIVED_NS_PER_BLOCK] = "ns/block",
		[MT_DERIVED_FAULTS_PER_BLOCK] = "faults/block",
		[MT_DERIVED_DTLB_MISS_RATIO] = "dTLB miss ratio",
		[MT_DERIVED_MISSES_PER_BLOCK] = "misses/block",
		[MT_DERIVED_DTLB_MISS_RATE] = "dTLB miss rate",
		[MT_DERIVED_DTLB_MPKI] = "dTLB MPKI",
		[MT_DERIVED_ITLB_MPKI] = "iTLB MPKI",
		[MT_DERIVED_WALK_CYCLES_SHARE] = "walk cycles",
	};

	return d < MT_DERIVED_MAX ? labels[d] : NULL;
}
