/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_CONFIG_H
#define MEMTLB_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

enum mt_backing {
	MT_BACKING_SHARED,	/* MAP_SHARED|MAP_ANONYMOUS, as test_with_mmap */
	MT_BACKING_ANON,	/* MAP_PRIVATE|MAP_ANONYMOUS */
};

enum mt_format {
	MT_FORMAT_TABLE,
	MT_FORMAT_CSV,
	MT_FORMAT_JSON,
};

/* What the user asked for: filled by cli/, read by every later stage. */
struct mt_config {
	uint64_t region;
	uint64_t block;
	unsigned long iterations;
	unsigned long passes;
	enum mt_backing backing;
	const char *events;	/* comma-separated, as given to -e */
	const char *event_set;	/* --events SET, or NULL */
	const char *events_dir;	/* --events-dir DIR, or NULL */
	bool events_given;	/* -e was given */
	enum mt_format format;
	const char *output;	/* -o FILE: the JSON report, or NULL */
	bool force;
	bool verbose;
};

const char *mt_backing_name(enum mt_backing b);

#endif
