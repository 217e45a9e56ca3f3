/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_COUNTERS_EVSET_H
#define MEMTLB_COUNTERS_EVSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "counters/counters.h"
#include "sys/msg.h"

/*
 * Named event sets (events/NAME.events, format in memtlb-events(5)): per set,
 * sections for PMUs (libpfm4's names: skl, icl, amd64_fam19h_zen3, ...),
 * "generic" (perf's names, used where no section names the core PMU) and
 * "any" (on every machine, e.g. software events). Each entry names a
 * libpfm4 event, its role in the derived metrics and what it measures there.
 */
#define MT_EVSET_NAME_MAX 32
#define MT_EVSET_PMUS_MAX 256

struct mt_evset_entry {
	char event[MT_EVENT_NAME_MAX];
	char alias[48];			/* ALIAS=EVENT: the name shown, or "" */
	int role;			/* enum mt_role */
	char meaning[128];
	unsigned int line;
};

struct mt_evset_section {
	char pmus[MT_EVSET_PMUS_MAX];	/* space-separated */
	size_t n;
	struct mt_evset_entry *entries;
};

struct mt_evset {
	char name[MT_EVSET_NAME_MAX];
	char description[160];
	char file[4352];
	size_t n_sections;
	struct mt_evset_section *sections;
};

struct mt_evsets {
	char dir[4096];
	size_t n;
	struct mt_evset *sets;
};

/*
 * The directory event sets are read from: dir_override (--events-dir),
 * else $MEMTLB_EVENTS_PATH, else the source tree's events/ when this
 * binary runs from its build tree, else the installed datadir/memtlb/events.
 */
const char *mt_evsets_dir(const char *dir_override, char *buf, size_t len);

/* Every *.events file in dir, sorted by name. msg: "file:line: why". */
int mt_evsets_load(struct mt_evsets **out, const char *dir, struct mt_msg *msg);
void mt_evsets_destroy(struct mt_evsets *s);

/* Parse one events file from a stream, named name in messages (tests, fuzzing). */
int mt_evsets_parse(struct mt_evsets **out, FILE *f, const char *name, struct mt_msg *msg);

const struct mt_evset *mt_evsets_find(const struct mt_evsets *s, const char *name);

/* Whether a section names this PMU. */
bool mt_evset_section_has(const struct mt_evset_section *sec, const char *pmu);

/*
 * The events of a set on a core PMU (NULL or "": none): its PMU section or
 * else the generic one, then every "any" section. PMU events are resolved
 * qualified (pmu::EVENT). *which gets the PMU section's first name or
 * "generic". Returns 0, or -EINVAL with msg "file:line: EVENT: why".
 */
int mt_evset_resolve(const struct mt_evset *set, const char *pmu, struct mt_event **out,
		     size_t *n, const char **which, struct mt_msg *msg);

/*
 * Half of it: the PMU section alone, or what does not depend on libpfm4's
 * PMU (the generic section when no section names pmu, and "any"). With
 * LIBPFM_FORCE_PMU libpfm4 knows the forced PMU only, not perf's names:
 * memtlb list --pmu resolves the common part before it forces the PMU.
 * Either part may be empty (*n = 0, *out NULL).
 */
enum {
	MT_EVSET_PMU_PART = 1,
	MT_EVSET_COMMON_PART = 2,
};

int mt_evset_resolve_parts(const struct mt_evset *set, const char *pmu, unsigned int parts,
			   struct mt_event **out, size_t *n, const char **which,
			   struct mt_msg *msg);

#endif
