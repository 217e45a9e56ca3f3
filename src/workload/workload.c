// SPDX-License-Identifier: MIT
/* test_with_mmap's iteration: mmap, passes x (write, read+verify), munmap. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

#include <memtlb/workload.h>

struct mt_workload {
	uint64_t region;
	uint64_t block;
	uint64_t blocks;
	unsigned int passes;
	int mmap_flags;
	unsigned int n_phases;
	char (*names)[MT_PHASE_NAME_MAX];
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

const char *mt_backing_name(enum mt_backing b)
{
	switch (b) {
	case MT_BACKING_SHARED: return "shared";
	case MT_BACKING_ANON: return "anon";
	}
	return "?";
}

int mt_workload_create(struct mt_workload **out, const struct mt_config *cfg)
{
	struct mt_workload *w;

	if (cfg->block < sizeof(uint64_t) || cfg->region < cfg->block || !cfg->passes)
		return -EINVAL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->region = cfg->region;
	w->block = cfg->block;
	w->blocks = cfg->region / cfg->block;
	w->passes = cfg->passes;
	w->mmap_flags = MAP_ANONYMOUS |
			(cfg->backing == MT_BACKING_SHARED ? MAP_SHARED : MAP_PRIVATE);
	w->n_phases = 2 + 2 * w->passes;
	w->names = calloc(w->n_phases, sizeof(*w->names));
	if (!w->names) {
		free(w);
		return -ENOMEM;
	}
	snprintf(w->names[0], MT_PHASE_NAME_MAX, "mmap");
	for (unsigned int p = 0; p < w->passes; p++) {
		snprintf(w->names[1 + 2 * p], MT_PHASE_NAME_MAX, "write_%u", p % 1000000);
		snprintf(w->names[2 + 2 * p], MT_PHASE_NAME_MAX, "read_%u", p % 1000000);
	}
	snprintf(w->names[w->n_phases - 1], MT_PHASE_NAME_MAX, "munmap");
	*out = w;
	return 0;
}

void mt_workload_destroy(struct mt_workload *w)
{
	if (!w)
		return;
	free(w->names);
	free(w);
}

unsigned int mt_workload_phases(const struct mt_workload *w)
{
	return w->n_phases;
}

const char *mt_workload_phase_name(const struct mt_workload *w, unsigned int phase)
{
	return phase < w->n_phases ? w->names[phase] : NULL;
}

uint64_t mt_workload_blocks(const struct mt_workload *w)
{
	return w->blocks;
}

uint64_t mt_workload_pattern(unsigned int pass)
{
	return 0x123456789abcdef0ull + pass;
}

int mt_workload_iterate(struct mt_workload *w, unsigned int iter, uint64_t *time_ns,
			mt_boundary_fn hook, void *arg, struct mt_mismatch *bad)
{
	unsigned int last = w->n_phases - 1;
	uint64_t t0, t1;
	char *p, *wrong;
	int err;

	err = hook(arg, 0, false);
	if (err)
		return err;
	t0 = now_ns();
	p = mmap(NULL, w->region, PROT_READ | PROT_WRITE, w->mmap_flags, -1, 0);
	t1 = now_ns();
	if (p == MAP_FAILED)
		return -errno;
	time_ns[0] = t1 - t0;
	err = hook(arg, 0, true);

	for (unsigned int pass = 0; !err && pass < w->passes; pass++) {
		unsigned int wp = 1 + 2 * pass, rp = wp + 1;
		uint64_t pattern = mt_workload_pattern(pass);

		err = hook(arg, wp, false);
		if (err)
			break;
		t0 = now_ns();
		mt_touch_write(p, w->blocks, w->block, pattern);
		t1 = now_ns();
		time_ns[wp] = t1 - t0;
		err = hook(arg, wp, true);
		if (err)
			break;

		err = hook(arg, rp, false);
		if (err)
			break;
		t0 = now_ns();
		wrong = mt_touch_verify(p, w->blocks, w->block, pattern);
		t1 = now_ns();
		time_ns[rp] = t1 - t0;
		if (wrong) {
			snprintf(bad->phase, sizeof(bad->phase), "%s", w->names[rp]);
			bad->iter = iter;
			bad->addr = wrong;
			bad->expected = pattern;
			bad->found = *(volatile uint64_t *)wrong;
			err = -EILSEQ;
			break;
		}
		err = hook(arg, rp, true);
	}
	if (err) {
		munmap(p, w->region);
		return err;
	}

	err = hook(arg, last, false);
	if (err) {
		munmap(p, w->region);
		return err;
	}
	t0 = now_ns();
	err = munmap(p, w->region);
	t1 = now_ns();
	if (err)
		return -errno;
	time_ns[last] = t1 - t0;
	return hook(arg, last, true);
}
