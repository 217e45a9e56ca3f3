// SPDX-License-Identifier: MIT
/*
 * An independent measure of one page size, for bench/mthp-matrix.sh: no
 * memtlb code, only what a reader can check by eye. For KB (0: base
 * pages) it makes that mTHP size the only one (every other size's
 * "enabled" never, its own madvise; all put back at exit), then per
 * iteration maps an anonymous region aligned to the size, times the first
 * write pass (one store per 4 KiB: every fault) and then passes of write
 * and read-verify as test_with_mmap does, the last read pass timed as the
 * steady access, and unmaps it. Prints the medians:
 *
 *   KB first_touch_ns_per_4k steady_ns_per_block
 *
 *   mthp-touch KB REGION_MIB ITERATIONS        (as root for KB > 0)
 */
#include <dirent.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define THP "/sys/kernel/mm/transparent_hugepage"
#define PASSES 5
#define BLOCK 4096

static char saved[32][64], paths[32][300];
static int n_saved;

static void restore(void)
{
	for (int i = 0; i < n_saved; i++) {
		FILE *f = fopen(paths[i], "w");

		if (f) {
			fputs(saved[i], f);
			fclose(f);
		}
	}
	n_saved = 0;
}

static void on_signal(int sig)
{
	restore();
	signal(sig, SIG_DFL);
	raise(sig);
}

static int write_file(const char *path, const char *v)
{
	FILE *f = fopen(path, "w");
	int bad;

	if (!f)
		return -1;
	bad = fputs(v, f) < 0;
	return fclose(f) || bad ? -1 : 0;
}

/* Every size's enabled: never, but kb's, madvise; each value kept first. */
static int only(unsigned long kb)
{
	struct dirent *d;
	DIR *dp = opendir(THP);

	if (!dp)
		return -1;
	while ((d = readdir(dp)) && n_saved < 32) {
		unsigned long k;
		char line[128], *open, *close;
		FILE *f;

		if (sscanf(d->d_name, "hugepages-%lukB", &k) != 1)
			continue;
		snprintf(paths[n_saved], sizeof(paths[0]), THP "/%s/enabled", d->d_name);
		f = fopen(paths[n_saved], "r");
		if (!f)
			continue;
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
		open = strchr(line, '[');
		close = open ? strchr(open, ']') : NULL;
		if (!close)
			continue;
		*close = '\0';
		snprintf(saved[n_saved], sizeof(saved[0]), "%s", open + 1);
		n_saved++;
		if (write_file(paths[n_saved - 1], k == kb ? "madvise" : "never"))
			return -1;
	}
	closedir(dp);
	return 0;
}

static uint64_t now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	unsigned long kb, mib, iters;
	double *touch, *steady;
	size_t len, align;

	if (argc != 4) {
		fprintf(stderr, "usage: mthp-touch KB REGION_MIB ITERATIONS\n");
		return 2;
	}
	kb = strtoul(argv[1], NULL, 0);
	mib = strtoul(argv[2], NULL, 0);
	iters = strtoul(argv[3], NULL, 0);
	len = (size_t)mib << 20;
	align = kb ? kb << 10 : BLOCK;
	touch = calloc(iters, sizeof(*touch));
	steady = calloc(iters, sizeof(*steady));
	if (!touch || !steady || !len || !iters)
		return 2;
	atexit(restore);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (kb && only(kb)) {
		perror("mthp-touch: " THP);
		return 1;
	}
	for (unsigned long it = 0; it < iters; it++) {
		char *res = mmap(NULL, len + align, PROT_NONE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		char *p;
		uint64_t t0;

		if (res == MAP_FAILED)
			return 1;
		p = (char *)(((uintptr_t)res + align - 1) & ~(uintptr_t)(align - 1));
		if (mmap(p, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
			 -1, 0) == MAP_FAILED ||
		    madvise(p, len, kb ? MADV_HUGEPAGE : MADV_NOHUGEPAGE))
			return 1;
		for (unsigned int pass = 0; pass < PASSES; pass++) {
			t0 = now();
			for (size_t off = 0; off < len; off += BLOCK)
				*(volatile uint64_t *)(p + off) = pass + off;
			if (!pass)
				touch[it] = (double)(now() - t0) / ((double)len / BLOCK);
			t0 = now();
			for (size_t off = 0; off < len; off += BLOCK)
				if (*(volatile uint64_t *)(p + off) != pass + off)
					return 3;
			if (pass == PASSES - 1)
				steady[it] = (double)(now() - t0) / ((double)len / BLOCK);
		}
		munmap(res, len + align);
	}
	restore();
	qsort(touch, iters, sizeof(*touch), cmp);
	qsort(steady, iters, sizeof(*steady), cmp);
	printf("%lu %.3f %.4f\n", kb, touch[iters / 2], steady[iters / 2]);
	return 0;
}
