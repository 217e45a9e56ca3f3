/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_SYS_TRACEFS_H
#define MEMTLB_SYS_TRACEFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MT_TRACEFS_FIELDS_MAX 24
#define MT_TRACEFS_SYMS_MAX 32
#define MT_TRACEFS_NAME_MAX 64

/* One value of a field the kernel prints by __print_symbolic. */
struct mt_tracefs_sym {
	long long value;
	char label[MT_TRACEFS_NAME_MAX];	/* the kernel's text: "remote shootdown" */
};

struct mt_tracefs_field {
	char name[MT_TRACEFS_NAME_MAX];
	bool numeric;			/* an integer: the filter compares numbers */
	unsigned int n_syms;
	struct mt_tracefs_sym syms[MT_TRACEFS_SYMS_MAX];
};

/* What memtlb uses of an event's format file: its fields and their symbols. */
struct mt_tracefs_format {
	unsigned int n_fields;
	struct mt_tracefs_field fields[MT_TRACEFS_FIELDS_MAX];
};

/*
 * The tracefs directory: /sys/kernel/tracing, else /sys/kernel/debug/tracing
 * (under MEMTLB_SYSROOT), whichever has events/. Returns 0 with its path in
 * buf, -ENOENT where neither is mounted, or -EACCES (-EPERM) where one
 * exists but this user cannot read it (tracefs is root's, 0700).
 */
int mt_tracefs_dir(char *buf, size_t len);

/* The id of events/SYS/NAME: 0, -ENOENT for no such tracepoint, or -errno. */
int mt_tracefs_id(const char *dir, const char *sys, const char *name, uint64_t *id);

/* The event's format file, parsed: 0, -ENOENT, -EINVAL (not a format), -errno. */
int mt_tracefs_format(const char *dir, const char *sys, const char *name,
		      struct mt_tracefs_format *fmt);

/* The same on the file's text (tests, fuzzing): 0 or -EINVAL. */
int mt_tracefs_format_parse(const char *text, struct mt_tracefs_format *fmt);

const struct mt_tracefs_field *mt_tracefs_field(const struct mt_tracefs_format *fmt,
						const char *name);

/*
 * A kernel label as memtlb spells it: lower case, each run of characters
 * other than letters and digits one '_' ("remote shootdown" ->
 * "remote_shootdown"), none at either end. Returns buf.
 */
const char *mt_tracefs_spell(const char *label, char *buf, size_t len);

/* The symbol of field spelled so (case-insensitive), or NULL. */
const struct mt_tracefs_sym *mt_tracefs_sym_find(const struct mt_tracefs_field *f,
						 const char *spelling);

/* Whether a name is a tracepoint's: SYS:NAME, both of [a-z0-9_], one colon. */
bool mt_tracefs_is_name(const char *s, size_t len);

/*
 * The tracepoints of subsystem sys, sorted, space-separated in buf: 0,
 * -ENOENT (no such subsystem), -ENOSPC, or -errno.
 */
int mt_tracefs_list(const char *dir, const char *sys, char *buf, size_t len);

#endif
