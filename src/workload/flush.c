// SPDX-License-Identifier: MIT
/* The flush workload: tasks of one mm, ops that invalidate K pages, timed alone. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "workload/flush.h"

struct task {
	struct mt_flush *f;
	pthread_t thread;
	bool started;		/* pthread_create succeeded */
	int cpu;		/* pinned to, or -1 */
	volatile const char *pages;
	uint64_t n_pages;
};

struct mt_flush {
	struct mt_flush_opts o;
	long psz;
	char *base;		/* target pages, then each task's spin pages */
	size_t len;
	atomic_bool stop;
	atomic_uint running;	/* tasks that read their pages once */
	cpu_set_t saved;	/* this thread's affinity before */
	bool pinned_self;
	unsigned int pinned;
	unsigned long n_tasks;	/* other tasks started */
	struct task tasks[MT_FLUSH_TASKS_MAX];
};

static void *spin(void *arg)
{
	struct task *t = arg;
	bool first = true;

	/* Reads keep the mm's translations live on this CPU; nothing here faults. */
	while (!atomic_load_explicit(&t->f->stop, memory_order_relaxed)) {
		for (uint64_t i = 0; i < t->n_pages; i++)
			(void)t->pages[i * (uint64_t)t->f->psz];
		if (first) {
			atomic_fetch_add(&t->f->running, 1);
			first = false;
		}
	}
	return NULL;
}

static int pin(pthread_t th, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return -pthread_setaffinity_np(th, sizeof(set), &set);
}

/* This thread on the first allowed CPU, task i on the i-th: one per CPU. */
static void place(struct mt_flush *f)
{
	int cpus[MT_FLUSH_TASKS_MAX], n_cpus = 0;
	cpu_set_t set;

	for (unsigned long i = 0; i < f->o.tasks; i++)
		f->tasks[i].cpu = -1;
	if (sched_getaffinity(0, sizeof(set), &set))
		return;
	for (int c = 0; c < CPU_SETSIZE && n_cpus < MT_FLUSH_TASKS_MAX; c++)
		if (CPU_ISSET(c, &set))
			cpus[n_cpus++] = c;
	f->saved = set;
	for (unsigned long i = 0; i < f->o.tasks; i++)
		f->tasks[i].cpu = (int)i < n_cpus ? cpus[i] : -1;
}

int mt_flush_create(struct mt_flush **out, const struct mt_flush_opts *o)
{
	struct timespec nap = { 0, 100000 };
	struct mt_flush *f;
	int ret = 0;

	if (o->op < 0 || o->op >= MT_FLUSH_OP_MAX || !o->tasks || o->tasks > MT_FLUSH_TASKS_MAX ||
	    !o->pages || !o->spin_pages)
		return -EINVAL;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->o = *o;
	f->psz = sysconf(_SC_PAGESIZE);
	f->len = (size_t)(o->pages + (o->tasks - 1) * o->spin_pages) * (size_t)f->psz;
	f->base = mmap(NULL, f->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (f->base == MAP_FAILED) {
		ret = -errno;
		free(f);
		return ret;
	}
	/* Base pages only: a huge page would take one fault for 512 and one flush entry. */
	madvise(f->base, f->len, MADV_NOHUGEPAGE);
	for (size_t off = 0; off < f->len; off += (size_t)f->psz)
		f->base[off] = 1;
	place(f);
	if (f->tasks[0].cpu >= 0 && !pin(pthread_self(), f->tasks[0].cpu)) {
		f->pinned_self = true;
		f->pinned++;
	}
	for (unsigned long i = 1; i < o->tasks; i++) {
		struct task *t = &f->tasks[i];

		t->f = f;
		t->pages = f->base + (o->pages + (i - 1) * o->spin_pages) * (uint64_t)f->psz;
		t->n_pages = o->spin_pages;
		ret = -pthread_create(&t->thread, NULL, spin, t);
		if (ret)
			break;
		t->started = true;
		f->n_tasks++;
		if (t->cpu >= 0 && !pin(t->thread, t->cpu))
			f->pinned++;
	}
	while (!ret && atomic_load(&f->running) < f->n_tasks)
		nanosleep(&nap, NULL);
	if (ret) {
		mt_flush_destroy(f);
		return ret;
	}
	*out = f;
	return 0;
}

void mt_flush_destroy(struct mt_flush *f)
{
	if (!f)
		return;
	atomic_store(&f->stop, true);
	for (unsigned long i = 1; i < f->o.tasks; i++)
		if (f->tasks[i].started)
			pthread_join(f->tasks[i].thread, NULL);
	if (f->pinned_self)
		pthread_setaffinity_np(pthread_self(), sizeof(f->saved), &f->saved);
	munmap(f->base, f->len);
	free(f);
}

unsigned int mt_flush_pinned(const struct mt_flush *f)
{
	return f->pinned;
}

static long minflt(void)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	return ru.ru_minflt;
}

static uint64_t ns(const struct timespec *a, const struct timespec *b)
{
	return (uint64_t)((b->tv_sec - a->tv_sec) * 1000000000LL + (b->tv_nsec - a->tv_nsec));
}

static int op(struct mt_flush *f, size_t len)
{
	switch (f->o.op) {
	case MT_FLUSH_MUNMAP:
		return munmap(f->base, len) ? -errno : 0;
	case MT_FLUSH_MADVISE:
		return madvise(f->base, len, MADV_DONTNEED) ? -errno : 0;
	default:
		if (mprotect(f->base, len, PROT_READ))
			return -errno;
		return mprotect(f->base, len, PROT_READ | PROT_WRITE) ? -errno : 0;
	}
}

/* Untimed: the pages back, mapped and written, so the next op has work to do. */
static int restore(struct mt_flush *f, size_t len, uint64_t *refaults)
{
	volatile char *p = f->base;
	long before;

	if (f->o.op == MT_FLUSH_MUNMAP) {
		/* The hole it left is ours: NOREPLACE never maps over anything else. */
		void *m = mmap(f->base, len, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

		if (m == MAP_FAILED)
			return -errno;
		if (m != f->base) {
			munmap(m, len);
			return -EEXIST;
		}
		madvise(f->base, len, MADV_NOHUGEPAGE);
	}
	before = minflt();
	for (size_t off = 0; off < len; off += (size_t)f->psz)
		p[off] = 1;
	*refaults += (uint64_t)(minflt() - before);
	return 0;
}

int mt_flush_ops(struct mt_flush *f, uint64_t k, unsigned long m, mt_flush_hook_fn hook,
		 void *arg, uint64_t *op_ns, struct mt_flush_run *run)
{
	size_t len = (size_t)k * (size_t)f->psz;
	struct timespec t0, t1;
	int ret = 0;

	memset(run, 0, sizeof(*run));
	if (!k || k > f->o.pages)
		return -EINVAL;
	for (unsigned long i = 0; i < m; i++) {
		if (hook && (ret = hook(arg, false)))
			return ret;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		ret = op(f, len);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (hook) {
			int hret = hook(arg, true);

			ret = ret ? ret : hret;
		}
		if (ret)
			return ret;
		run->ops++;
		run->time_ns += ns(&t0, &t1);
		if (op_ns)
			op_ns[i] = ns(&t0, &t1);
		ret = restore(f, len, &run->refaults);
		if (ret)
			return ret;
	}
	return 0;
}
