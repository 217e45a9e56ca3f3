// SPDX-License-Identifier: MIT
// arm64 PMUv3 common events the kernel lists, and so the CPU implements.
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/pmuevents.h"
#include "sys/sysinfo.h"

#define DEVICES "/sys/bus/event_source/devices"
#define PERF_TYPE_RAW_ 4	/* <linux/perf_event.h>'s PERF_TYPE_RAW */
#define COMMON_EVENTS 0x40	/* PMCEID0/1 describe events 0x00..0x3f */
#define EVENT_CHAIN 0x1e	/* a common event the kernel never lists */

/*
 * Reads one arm64 PMU's events/ into have (a bit per common event): the
 * number of files read, 0 when there are none.
 */
static int read_events(const char *pmu, uint64_t *have)
{
	char dir[512], path[1024], line[64], full[4096];
	struct dirent *d;
	int n = 0;
	DIR *dp;

	snprintf(dir, sizeof(dir), DEVICES "/%s/events", pmu);
	dp = opendir(mt_sys_path(full, sizeof(full), dir));
	if (!dp)
		return 0;
	while ((d = readdir(dp))) {
		unsigned long ev;
		char *end;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		if (mt_sys_read_line(path, line, sizeof(line)) || strncmp(line, "event=", 6))
			continue;
		ev = strtoul(line + 6, &end, 0);
		if (*end)
			continue;
		n++;
		if (ev < COMMON_EVENTS)
			*have |= 1ull << ev;
	}
	closedir(dp);
	return n;
}

bool mt_pmuevents_absent(uint32_t type, uint64_t config)
{
	uint64_t event = config & 0xffff, have = 0;	/* ARMV8_PMU_EVTYPE_EVENT */
	char path[1024], line[32], full[4096];
	struct dirent *d;
	bool seen = false;
	DIR *dp;

	if (type < PERF_TYPE_RAW_ || event >= COMMON_EVENTS || event == EVENT_CHAIN)
		return false;
	dp = opendir(mt_sys_path(full, sizeof(full), DEVICES));
	if (!dp)
		return false;
	while ((d = readdir(dp))) {
		if (strncmp(d->d_name, "armv8_", 6))
			continue;
		/* Raw events go to the core PMU; a PMU's own type to that one. */
		snprintf(path, sizeof(path), DEVICES "/%s/type", d->d_name);
		if (type != PERF_TYPE_RAW_ &&
		    (mt_sys_read_line(path, line, sizeof(line)) || strtoul(line, NULL, 10) != type))
			continue;
		if (read_events(d->d_name, &have))
			seen = true;
	}
	closedir(dp);
	return seen && !(have & (1ull << event));
}
