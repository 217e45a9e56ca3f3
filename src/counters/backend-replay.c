// SPDX-License-Identifier: MIT
/*
 * The replay backend: recorded counts instead of a PMU, so the hardware
 * paths (ratios, multiplexing, not supported vs not counted) run on machines
 * without one. Like wlroots' headless backend it is a real backend behind
 * the same ops; only MEMTLB_BACKEND=replay:FILE selects it.
 *
 * File format, one line per event, '#' starts a comment:
 *
 *   NAME: DELTA [DELTA...]     deltas of successive measured intervals
 *   NAME: unsupported ERRNO    the open fails (ENOENT, EACCES, ...)
 *   NAME: notcounted           opens, never scheduled (running 0)
 *   pmu-counters-free: K       a group of more than K non-software events
 *                              opens but is never scheduled (running 0 for
 *                              all its events), as when the NMI watchdog
 *                              holds a counter
 *   pmu-counters: K            a group holds at most K non-software events;
 *                              one more is refused with EINVAL, as the
 *                              kernel refuses a group it cannot schedule
 *                              (x86, POWER: the leader is counted at open)
 *   pmu-counters-arm64: K      the same as arm64's PMU driver: it checks a
 *                              group at open without its leader when that
 *                              is disabled (memtlb opens leaders disabled;
 *                              armpmu's validate_event skips state OFF), so
 *                              a hardware-led group of K+1 opens and is
 *                              never scheduled, K+2 is refused (EINVAL):
 *                              seen in qemu's arm64 guest (tests/cli/vm-arch.sh)
 *
 * DELTA is VAL or VAL/ENA/RUN (ns). Reads alternate begin/end of an
 * interval; the deltas are applied at each end read, cycling through the
 * list, so a list of one iteration's phases replays every iteration.
 * Counts are decimal digits (no sign), at most 2^64-1; RUN is at most ENA.
 * Each event has one line; CRLF line ends are accepted, a lone CR is not.
 * Events not in the file fail to open with ENOENT. A read between enable
 * and disable fails with EBUSY: reads belong outside the counted windows.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "counters/interface.h"

/* far above any real file: a bound on memory, not a format rule */
#define REPLAY_EVENTS_MAX	4096
#define REPLAY_DELTAS_MAX	65536
#define REPLAY_COUNTERS_MAX	1024

struct replay_event {
	char name[MT_EVENT_NAME_MAX];
	int err;
	int notcounted;
	size_t n_deltas;
	struct mt_counts *deltas;
};

struct replay_backend {
	struct mt_backend base;
	struct replay_event *rec;
	size_t n_rec;
	unsigned int pmu_counters;	/* 0: no limit */
	unsigned int pmu_free;		/* 0: no limit */
	bool leader_unchecked;		/* pmu-counters-arm64 */
	char *unscheduled;		/* per requested event: its group never runs */
	size_t n;
	int *map;			/* requested event -> record, -1 none */
	uint64_t *reads;		/* per requested event */
	struct mt_counts *total;	/* per requested event */
	bool enabled;			/* between enable and disable */
};

static const struct {
	const char *name;
	int err;
} errnames[] = {
	{ "ENOENT", ENOENT }, { "EOPNOTSUPP", EOPNOTSUPP }, { "EACCES", EACCES },
	{ "EPERM", EPERM }, { "EINVAL", EINVAL }, { "ENODEV", ENODEV }, { "EMFILE", EMFILE },
};

/*
 * A count: decimal digits only. sscanf's %u took "-1" as 2^64-1 and an
 * overflow as UINT64_MAX without a word; both are refused.
 */
static int parse_u64(const char *s, const char **end, uint64_t *v)
{
	uint64_t x = 0;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	for (; isdigit((unsigned char)*s); s++) {
		unsigned int d = (unsigned int)(*s - '0');

		if (x > (UINT64_MAX - d) / 10)
			return -ERANGE;
		x = x * 10 + d;
	}
	*end = s;
	*v = x;
	return 0;
}

static int parse_delta(const char *tok, struct mt_counts *d)
{
	const char *p = tok;

	d->ena = d->run = 1000000;
	if (parse_u64(p, &p, &d->val))
		return -EINVAL;
	if (!*p)
		return 0;
	if (*p != '/' || parse_u64(p + 1, &p, &d->ena) || *p != '/' ||
	    parse_u64(p + 1, &p, &d->run) || *p)
		return -EINVAL;
	/* the kernel never runs a counter longer than it is enabled */
	return d->run > d->ena ? -EINVAL : 0;
}

/* re is zeroed first, so whatever fails, destroy frees only what was set */
static int parse_line(char *line, struct replay_event *re)
{
	char *colon, *tok, *save = NULL;

	memset(re, 0, sizeof(*re));
	/* Names may hold colons (tlb:tlb_flush): the one before a blank ends it. */
	colon = strstr(line, ": ");
	if (!colon)
		colon = strstr(line, ":\t");
	if (!colon)
		colon = strchr(line, ':');
	if (!colon || colon == line || (size_t)(colon - line) >= sizeof(re->name))
		return -EINVAL;
	memcpy(re->name, line, colon - line);
	for (size_t i = strlen(re->name); i > 0 && isspace((unsigned char)re->name[i - 1]); i--)
		re->name[i - 1] = '\0';
	if (!re->name[0] || strpbrk(re->name, " \t"))
		return -EINVAL;
	tok = strtok_r(colon + 1, " \t", &save);
	if (!tok)
		return -EINVAL;
	if (!strcmp(tok, "unsupported")) {
		tok = strtok_r(NULL, " \t", &save);
		for (size_t i = 0; tok && i < sizeof(errnames) / sizeof(errnames[0]); i++)
			if (!strcmp(tok, errnames[i].name))
				re->err = -errnames[i].err;
		return re->err && !strtok_r(NULL, " \t", &save) ? 0 : -EINVAL;
	}
	if (!strcmp(tok, "notcounted")) {
		re->notcounted = 1;
		return strtok_r(NULL, " \t", &save) ? -EINVAL : 0;
	}
	for (; tok; tok = strtok_r(NULL, " \t", &save)) {
		struct mt_counts *grown;

		if (re->n_deltas >= REPLAY_DELTAS_MAX)
			return -EINVAL;
		grown = realloc(re->deltas, (re->n_deltas + 1) * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		re->deltas = grown;
		if (parse_delta(tok, &re->deltas[re->n_deltas++]))
			return -EINVAL;
	}
	return 0;
}

static int parse_limit(const char *s, unsigned int *out)
{
	const char *end;
	uint64_t k;

	while (*s == ' ' || *s == '\t')
		s++;
	if (parse_u64(s, &end, &k))
		return -EINVAL;
	while (*end == ' ' || *end == '\t')
		end++;
	if (k == 0 || k > REPLAY_COUNTERS_MAX || *end)
		return -EINVAL;
	*out = (unsigned int)k;
	return 0;
}

static int load(struct replay_backend *rb, FILE *f)
{
	char *line = NULL;
	size_t cap = 0, total = 0;
	ssize_t len;
	int ret = 0;

	while ((len = getline(&line, &cap, f)) > 0) {
		char *s = line, *hash;
		struct replay_event *grown;

		total += (size_t)len;
		if (total > MT_REPLAY_FILE_MAX) {
			ret = -EINVAL;
			break;
		}
		/* a NUL hides the rest of the line from every string function */
		if (memchr(line, '\0', (size_t)len)) {
			ret = -EINVAL;
			break;
		}
		/* CRLF is one line end; a lone CR would hide the lines after it */
		if (len >= 1 && line[len - 1] == '\n')
			line[--len] = '\0';
		if (len >= 1 && line[len - 1] == '\r')
			line[--len] = '\0';
		if (strchr(line, '\r')) {
			ret = -EINVAL;
			break;
		}
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			continue;
		if (!strncmp(s, "pmu-counters:", 13)) {
			ret = parse_limit(s + 13, &rb->pmu_counters);
			if (ret)
				break;
			continue;
		}
		if (!strncmp(s, "pmu-counters-arm64:", 19)) {
			ret = parse_limit(s + 19, &rb->pmu_counters);
			if (ret)
				break;
			rb->leader_unchecked = true;
			continue;
		}
		if (!strncmp(s, "pmu-counters-free:", 18)) {
			ret = parse_limit(s + 18, &rb->pmu_free);
			if (ret)
				break;
			continue;
		}
		if (rb->n_rec >= REPLAY_EVENTS_MAX) {
			ret = -EINVAL;
			break;
		}
		grown = realloc(rb->rec, (rb->n_rec + 1) * sizeof(*grown));
		if (!grown) {
			ret = -ENOMEM;
			break;
		}
		rb->rec = grown;
		ret = parse_line(s, &rb->rec[rb->n_rec]);
		rb->n_rec++;
		if (ret)
			break;
		/* two lines for one event: which one counts would be a guess */
		for (size_t r = 0; r + 1 < rb->n_rec; r++)
			if (!strcmp(rb->rec[r].name, rb->rec[rb->n_rec - 1].name)) {
				ret = -EINVAL;
				break;
			}
		if (ret)
			break;
	}
	if (!ret && ferror(f))
		ret = -EIO;
	free(line);
	return ret;
}

static int replay_open(struct mt_backend *be, struct mt_event *ev, size_t n, pid_t pid)
{
	struct replay_backend *rb = (struct replay_backend *)be;
	unsigned int *used, cap;
	char *lead;

	(void)pid;
	rb->n = n;
	used = calloc(n + 1, sizeof(*used));	/* hardware events per group */
	lead = calloc(n + 1, 1);		/* 0 none yet, 1 hardware, 2 software */
	if (!used || !lead) {
		free(used);
		free(lead);
		return -ENOMEM;
	}
	rb->map = calloc(n + 1, sizeof(*rb->map));
	rb->reads = calloc(n, sizeof(*rb->reads));
	rb->total = calloc(n, sizeof(*rb->total));
	rb->unscheduled = calloc(n + 1, 1);
	if (!rb->map || !rb->reads || !rb->total || !rb->unscheduled) {
		free(used);
		free(lead);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		rb->map[i] = -1;
		if (ev[i].rusage)	/* counters.c reads it */
			continue;
		for (size_t r = 0; r < rb->n_rec; r++)
			if (!strcmp(rb->rec[r].name, ev[i].name))
				rb->map[i] = (int)r;
		ev[i].err = rb->map[i] < 0 ? -ENOENT : rb->rec[rb->map[i]].err;
		if (ev[i].err || ev[i].group >= n)
			continue;
		/* The first event of a group that opens leads it. */
		if (!lead[ev[i].group])
			lead[ev[i].group] = ev[i].attr.type == PERF_TYPE_SOFTWARE ? 2 : 1;
		if (ev[i].attr.type == PERF_TYPE_SOFTWARE)
			continue;
		cap = rb->pmu_counters + (rb->leader_unchecked && lead[ev[i].group] == 1);
		if (rb->pmu_counters && used[ev[i].group] >= cap)
			ev[i].err = -EINVAL;
		else
			used[ev[i].group]++;
	}
	for (size_t i = 0; i < n; i++) {
		unsigned int u = ev[i].group < n ? used[ev[i].group] : 0;

		if (ev[i].err || ev[i].rusage || ev[i].group >= n)
			continue;
		rb->unscheduled[i] = (rb->pmu_free && u > rb->pmu_free) ||
				     (rb->leader_unchecked && u > rb->pmu_counters);
	}
	free(used);
	free(lead);
	return 0;
}

static int replay_read(struct mt_backend *be, size_t idx, struct mt_counts *out)
{
	struct replay_backend *rb = (struct replay_backend *)be;
	struct replay_event *re;
	uint64_t k;

	if (idx >= rb->n || rb->map[idx] < 0)
		return -EINVAL;
	if (rb->enabled)
		return -EBUSY;
	re = &rb->rec[rb->map[idx]];
	k = rb->reads[idx]++;
	if (k & 1) {
		if (re->notcounted || rb->unscheduled[idx]) {
			rb->total[idx].ena += 1000000;
		} else if (re->n_deltas) {
			const struct mt_counts *d = &re->deltas[(k / 2) % re->n_deltas];

			rb->total[idx].val += d->val;
			rb->total[idx].ena += d->ena;
			rb->total[idx].run += d->run;
		}
	}
	*out = rb->total[idx];
	return 0;
}

/*
 * The deltas come with the reads; enabled only marks a counted window,
 * where a read would have counted itself on a real PMU: refused.
 */
static int replay_enable(struct mt_backend *be)
{
	((struct replay_backend *)be)->enabled = true;
	return 0;
}

static int replay_disable(struct mt_backend *be)
{
	((struct replay_backend *)be)->enabled = false;
	return 0;
}

static void replay_destroy(struct mt_backend *be)
{
	struct replay_backend *rb = (struct replay_backend *)be;

	for (size_t r = 0; r < rb->n_rec; r++)
		free(rb->rec[r].deltas);
	free(rb->rec);
	free(rb->map);
	free(rb->reads);
	free(rb->total);
	free(rb->unscheduled);
	free(rb);
}

static const struct mt_backend_ops replay_ops = {
	.name = "replay",
	.open = replay_open,
	.enable = replay_enable,
	.disable = replay_disable,
	.read = replay_read,
	.destroy = replay_destroy,
};

static struct replay_backend *replay_alloc(void)
{
	struct replay_backend *rb = calloc(1, sizeof(*rb));

	if (rb)
		rb->base.ops = &replay_ops;
	return rb;
}

int mt_backend_replay_parse(struct mt_backend **out, FILE *f)
{
	struct replay_backend *rb = replay_alloc();
	int ret;

	if (!rb)
		return -ENOMEM;
	ret = load(rb, f);
	if (ret) {
		replay_destroy(&rb->base);
		return ret;
	}
	*out = &rb->base;
	return 0;
}

/*
 * A regular file of at most MT_REPLAY_FILE_MAX bytes: /dev/zero never
 * ended, a directory read as empty and a FIFO waited for a writer. The file
 * is checked before it is opened (stat): open itself could block on a
 * device or a FIFO; and again after (fstat), the same file still.
 */
int mt_backend_replay_create(struct mt_backend **out, const char *path)
{
	struct stat st;
	FILE *f;
	int fd, ret;

	if (stat(path, &st))
		return -errno;
	if (!S_ISREG(st.st_mode) || st.st_size > MT_REPLAY_FILE_MAX)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	/* the same file still: not swapped for a device between stat and open */
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > MT_REPLAY_FILE_MAX) {
		close(fd);
		return -EINVAL;
	}
	f = fdopen(fd, "r");
	if (!f) {
		ret = -errno;
		close(fd);
		return ret;
	}
	ret = mt_backend_replay_parse(out, f);
	fclose(f);
	return ret;
}
