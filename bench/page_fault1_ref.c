// SPDX-License-Identifier: MIT
/*
 * A page_fault1-style reference loop for bench/page-fault1.sh (not part of
 * memtlb): N processes, each K times: mmap 128 MiB private anonymous, write
 * one word per page, munmap. Prints pages per second of the touch loops:
 * the sum over processes of pages / own touch time (will-it-scale's
 * per_process_ops, summed), and the same with mmap+munmap in the time.
 *
 *   page_fault1_ref TASKS ITERATIONS
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define REGION (128ul << 20)

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

struct out {
	uint64_t pages, touch_ns, all_ns;
};

int main(int argc, char **argv)
{
	int tasks = argc > 1 ? atoi(argv[1]) : 1, iters = argc > 2 ? atoi(argv[2]) : 10;
	long page = sysconf(_SC_PAGESIZE);
	struct out *o;
	double touch = 0, all = 0;

	o = mmap(NULL, sizeof(*o) * (size_t)tasks, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (o == MAP_FAILED)
		return 1;
	for (int t = 0; t < tasks; t++) {
		if (fork())
			continue;
		for (int i = 0; i < iters; i++) {
			uint64_t a = now_ns(), b, c;
			char *p = mmap(NULL, REGION, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			if (p == MAP_FAILED)
				_exit(1);
			b = now_ns();
			for (unsigned long off = 0; off < REGION; off += (unsigned long)page)
				*(volatile long *)(p + off) = 1;
			c = now_ns();
			munmap(p, REGION);
			o[t].pages += REGION / (unsigned long)page;
			o[t].touch_ns += c - b;
			o[t].all_ns += now_ns() - a;
		}
		_exit(0);
	}
	while (wait(NULL) > 0)
		;
	for (int t = 0; t < tasks; t++) {
		touch += (double)o[t].pages * 1e9 / (double)o[t].touch_ns;
		all += (double)o[t].pages * 1e9 / (double)o[t].all_ns;
	}
	printf("pages_per_s %.0f\npages_per_s_with_mmap_munmap %.0f\n", touch, all);
	return 0;
}
