// SPDX-License-Identifier: MIT
/* An oracle for memtlb flush's IPIs per op: the same ops, no counters. */
/*
 * flush-oracle OP TASKS K OPS ITERATIONS
 *
 * Written apart from memtlb on purpose (it shares no code with it): TASKS
 * threads of one mm share an anonymous region of base pages; the first
 * does OPS ops on the region's first K pages per iteration (munmap and a
 * map back, madvise(MADV_DONTNEED) or an mprotect round trip, each then
 * written again), the others spin reading pages of their own, pinned one
 * per CPU. Around each iteration the TLB and CAL rows of /proc/interrupts,
 * summed over the CPUs, are read. Prints "TLB X" and "CAL Y", the median
 * over the iterations of the IPIs per op, and one "iter TLB CAL" line per
 * iteration. Exits 77 when /proc/interrupts has no CAL row, 2 on bad
 * arguments, 1 when a system call fails.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define SPIN 16
#define TASKS_MAX 64

static char *base;
static long psz;
static atomic_bool stop;
static atomic_int running;

struct spinner {
	pthread_t th;
	volatile const char *p;
};

static void *spin(void *arg)
{
	struct spinner *s = arg;
	bool first = true;

	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		for (int i = 0; i < SPIN; i++)
			(void)s->p[(long)i * psz];
		if (first)
			atomic_fetch_add(&running, 1);
		first = false;
	}
	return NULL;
}

/* The sums of the TLB and CAL rows over the CPU columns; -1 when absent. */
static void irqs(long long *tlb, long long *cal)
{
	static char line[1 << 16];
	FILE *f = fopen("/proc/interrupts", "r");
	int cpus = 0;

	*tlb = *cal = -1;
	if (!f || !fgets(line, sizeof(line), f))
		exit(1);
	for (char *s = strstr(line, "CPU"); s; s = strstr(s + 3, "CPU"))
		cpus++;
	while (fgets(line, sizeof(line), f)) {
		char *s = line + strspn(line, " "), *end;
		long long sum = 0;

		if (strncmp(s, "TLB:", 4) && strncmp(s, "CAL:", 4))
			continue;
		end = s + 4;
		for (int c = 0; c < cpus; c++)
			sum += strtoll(end, &end, 10);
		*(s[0] == 'T' ? tlb : cal) = sum;
	}
	fclose(f);
}

static void pin(pthread_t th, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(th, sizeof(set), &set);
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void op(const char *name, size_t len)
{
	int err;

	if (!strcmp(name, "munmap")) {
		err = munmap(base, len) ||
		      mmap(base, len, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0) != base;
		madvise(base, len, MADV_NOHUGEPAGE);
	} else if (!strcmp(name, "madvise")) {
		err = madvise(base, len, MADV_DONTNEED);
	} else {
		err = mprotect(base, len, PROT_READ) ||
		      mprotect(base, len, PROT_READ | PROT_WRITE);
	}
	if (err) {
		perror(name);
		exit(1);
	}
	for (size_t off = 0; off < len; off += (size_t)psz)
		((volatile char *)base)[off] = 1;
}

int main(int argc, char **argv)
{
	struct spinner sp[TASKS_MAX];
	int tasks, iters, cpus[TASKS_MAX], n_cpus = 0;
	long k, ops;
	double *tlb, *cal;
	size_t len;
	cpu_set_t set;

	if (argc != 6 || (strcmp(argv[1], "munmap") && strcmp(argv[1], "madvise") &&
			  strcmp(argv[1], "mprotect"))) {
		fprintf(stderr, "usage: flush-oracle munmap|madvise|mprotect TASKS K OPS ITER\n");
		return 2;
	}
	tasks = atoi(argv[2]);
	k = atol(argv[3]);
	ops = atol(argv[4]);
	iters = atoi(argv[5]);
	if (tasks < 1 || tasks > TASKS_MAX || k < 1 || ops < 1 || iters < 1)
		return 2;
	psz = sysconf(_SC_PAGESIZE);
	len = (size_t)(k + (long)(tasks - 1) * SPIN) * (size_t)psz;
	base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	tlb = calloc((size_t)iters, sizeof(*tlb));
	cal = calloc((size_t)iters, sizeof(*cal));
	if (base == MAP_FAILED || !tlb || !cal)
		return 1;
	madvise(base, len, MADV_NOHUGEPAGE);
	memset(base, 1, len);
	{
		long long t, c;

		irqs(&t, &c);
		if (c < 0) {
			printf("no CAL row in /proc/interrupts\n");
			return 77;
		}
	}
	if (!sched_getaffinity(0, sizeof(set), &set))
		for (int c = 0; c < CPU_SETSIZE && n_cpus < TASKS_MAX; c++)
			if (CPU_ISSET(c, &set))
				cpus[n_cpus++] = c;
	if (n_cpus)
		pin(pthread_self(), cpus[0]);
	for (int i = 1; i < tasks; i++) {
		sp[i].p = base + (size_t)(k + (long)(i - 1) * SPIN) * (size_t)psz;
		if (pthread_create(&sp[i].th, NULL, spin, &sp[i]))
			return 1;
		if (i < n_cpus)
			pin(sp[i].th, cpus[i]);
	}
	while (atomic_load(&running) < tasks - 1)
		usleep(100);
	for (int it = 0; it < iters; it++) {
		long long t0, c0, t1, c1;

		irqs(&t0, &c0);
		for (long i = 0; i < ops; i++)
			op(argv[1], (size_t)k * (size_t)psz);
		irqs(&t1, &c1);
		tlb[it] = t0 < 0 || t1 < 0 ? 0 : (double)(t1 - t0) / (double)ops;
		cal[it] = (double)(c1 - c0) / (double)ops;
		printf("iter %d %.4f %.4f\n", it, tlb[it], cal[it]);
	}
	atomic_store(&stop, true);
	for (int i = 1; i < tasks; i++)
		pthread_join(sp[i].th, NULL);
	printf("TLB %.4f\nCAL %.4f\n", median(tlb, iters), median(cal, iters));
	return 0;
}
