// SPDX-License-Identifier: MIT
/*
 * test_with_mmap's iteration: mmap, [read_first], passes x (write,
 * read+verify), munmap; with the backing, page size, access order and tasks
 * of the config. Never prints: results go into structs the caller reads.
 */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "workload/region.h"
#include "workload/touch.h"
#include "workload/workload.h"

enum op { OP_MMAP, OP_READ_FIRST, OP_WRITE, OP_READ, OP_MUNMAP, OP_EXIT };

struct phase {
	char name[MT_PHASE_NAME_MAX];
	enum op op;
	unsigned int pass;
};

/* One task's view of a phase; lives in a MAP_SHARED page for processes. */
struct task {
	char *base;		/* start of the mapping this task touches */
	uint64_t first;		/* its slice: units [first, first + count) */
	uint64_t count;
	uint64_t t0, t1;	/* its own start and end of the phase */
	long minflt, majflt;	/* getrusage deltas over the phase (processes) */
	char *wrong;		/* verification mismatch */
	uint64_t found;
	int err;		/* -errno of mmap/munmap */
	pid_t pid;
	pthread_t thread;
};

/*
 * A barrier in shared memory, on a futex: the tasks sleep in it; the
 * coordinator wakes every 100 ms to see whether a forked task died (a
 * pthread barrier would wait for it forever).
 */
struct barrier {
	_Atomic uint32_t arrived;
	_Atomic uint32_t gen;
	uint32_t n;
};

struct ctl {
	struct barrier bar;
	enum op op;
	bool evidence;		/* the untimed evidence iteration: rusage per task */
	unsigned int pass;
	uint64_t expected;
	struct task task[];
};

struct mt_workload {
	struct mt_config cfg;
	uint64_t units;		/* blocks touched per region */
	uint64_t step;		/* bytes between touched blocks */
	uint64_t *order;	/* random: offsets, per task slice */
	unsigned int n_tasks;	/* at least 1: the inline case is task 0 */
	bool spawned_tasks;	/* cfg.tasks > 0 */
	bool private_regions;
	unsigned int n_phases;
	struct phase *phases;
	struct mt_phase_tasks *tstats;
	char *map;		/* the shared region */
	struct ctl *ctl;
	size_t ctl_len;
	struct mt_region region;
	struct mt_mapinfo mapinfo;
	bool tasks_dead;
	char failure[128];	/* why a forked task ended early */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void mt_workload_set_evidence(struct mt_workload *w, bool on)
{
	w->ctl->evidence = on;
}

/* splitmix64: small, seedable, good enough to order pages. */
static uint64_t next_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

int mt_workload_shuffle(uint64_t *off, uint64_t n, uint64_t step, uint64_t seed)
{
	uint64_t s = seed;

	for (uint64_t i = 0; i < n; i++)
		off[i] = i * step;
	for (uint64_t i = n; i > 1; i--) {
		uint64_t j = next_rand(&s) % i, t = off[i - 1];

		off[i - 1] = off[j];
		off[j] = t;
	}
	return 0;
}

static int build_phases(struct mt_workload *w)
{
	unsigned int n = 0, passes = (unsigned int)w->cfg.passes;

	w->n_phases = 2 + 2 * passes + (w->cfg.read_first ? 1 : 0);
	w->phases = calloc(w->n_phases, sizeof(*w->phases));
	w->tstats = calloc(w->n_phases, sizeof(*w->tstats));
	if (!w->phases || !w->tstats)
		return -ENOMEM;
	w->phases[n++] = (struct phase){ "mmap", OP_MMAP, 0 };
	if (w->cfg.read_first)
		w->phases[n++] = (struct phase){ "read_first", OP_READ_FIRST, 0 };
	for (unsigned int p = 0; p < passes; p++) {
		w->phases[n] = (struct phase){ "", OP_WRITE, p };
		snprintf(w->phases[n++].name, MT_PHASE_NAME_MAX, "write_%u", p % 1000000);
		w->phases[n] = (struct phase){ "", OP_READ, p };
		snprintf(w->phases[n++].name, MT_PHASE_NAME_MAX, "read_%u", p % 1000000);
	}
	w->phases[n++] = (struct phase){ "munmap", OP_MUNMAP, 0 };
	return 0;
}

int mt_workload_create(struct mt_workload **out, const struct mt_config *cfg)
{
	struct mt_workload *w;
	int ret;

	if (cfg->block < sizeof(uint64_t) || cfg->region < cfg->block || !cfg->passes)
		return -EINVAL;
	if (cfg->access == MT_ACCESS_STRIDE &&
	    (cfg->stride < cfg->block || cfg->stride > cfg->region))
		return -EINVAL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->cfg = *cfg;
	w->step = cfg->access == MT_ACCESS_STRIDE ? cfg->stride : cfg->block;
	w->units = cfg->region / w->step;
	w->spawned_tasks = cfg->tasks > 0;
	w->n_tasks = cfg->tasks ? (unsigned int)cfg->tasks : 1;
	w->private_regions = w->spawned_tasks && cfg->task_region == MT_TASK_REGION_PRIVATE;
	mt_region_init(&w->region, &w->cfg, w->private_regions ? w->n_tasks : 1);
	if (!w->private_regions && w->units < w->n_tasks) {
		free(w);
		return -EINVAL;
	}
	ret = build_phases(w);
	if (ret)
		goto fail;

	/* Task control block: shared with forked tasks, so MAP_SHARED. */
	w->ctl_len = sizeof(struct ctl) + w->n_tasks * sizeof(struct task);
	w->ctl = mmap(NULL, w->ctl_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		      -1, 0);
	if (w->ctl == MAP_FAILED) {
		w->ctl = NULL;
		ret = -errno;
		goto fail;
	}
	w->ctl->bar.n = w->n_tasks + 1;
	for (unsigned int t = 0; t < w->n_tasks; t++) {
		struct task *tk = &w->ctl->task[t];

		if (w->private_regions) {
			tk->first = 0;
			tk->count = w->units;
		} else {
			tk->first = w->units * t / w->n_tasks;
			tk->count = w->units * (t + 1) / w->n_tasks - tk->first;
		}
	}

	/* The random order is fixed here, before any timed phase. */
	if (cfg->access == MT_ACCESS_RANDOM) {
		w->order = malloc(w->units * sizeof(*w->order));
		if (!w->order) {
			ret = -ENOMEM;
			goto fail;
		}
		for (unsigned int t = 0; t < (w->private_regions ? 1 : w->n_tasks); t++) {
			struct task *tk = &w->ctl->task[t];

			mt_workload_shuffle(w->order + tk->first, tk->count, w->step,
					    cfg->seed + t);
			for (uint64_t i = 0; i < tk->count; i++)
				w->order[tk->first + i] += tk->first * w->step;
		}
	}
	ret = mt_region_open(&w->region);
	if (ret)
		goto fail;
	*out = w;
	return 0;
fail:
	mt_workload_destroy(w);
	return ret;
}

void mt_workload_destroy(struct mt_workload *w)
{
	if (!w)
		return;
	mt_region_close(&w->region);
	if (w->ctl)
		munmap(w->ctl, w->ctl_len);
	free(w->order);
	free(w->phases);
	free(w->tstats);
	free(w);
}

unsigned int mt_workload_phases(const struct mt_workload *w)
{
	return w->n_phases;
}

const char *mt_workload_phase_name(const struct mt_workload *w, unsigned int phase)
{
	return phase < w->n_phases ? w->phases[phase].name : NULL;
}

uint64_t mt_workload_blocks(const struct mt_workload *w)
{
	return w->private_regions ? w->units * w->n_tasks : w->units;
}

const char *mt_workload_file(const struct mt_workload *w)
{
	return mt_region_file(&w->region);
}

const struct mt_phase_tasks *mt_workload_task_stats(const struct mt_workload *w)
{
	return w->tstats;
}

const char *mt_workload_failure(const struct mt_workload *w)
{
	return w->failure[0] ? w->failure : NULL;
}

const struct mt_mapinfo *mt_workload_mapinfo(const struct mt_workload *w)
{
	return &w->mapinfo;
}

uint64_t mt_workload_pattern(unsigned int pass)
{
	return 0x123456789abcdef0ull + pass;
}

/* One phase's work for one task; the clock and barriers are the caller's. */
static void run_op(struct mt_workload *w, struct task *t, enum op op, unsigned int pass,
		   uint64_t expected)
{
	uint64_t pattern = op == OP_READ_FIRST ? expected : mt_workload_pattern(pass);
	char *wrong = NULL;

	switch (op) {
	case OP_MMAP:
		t->err = mt_region_map(&w->region, (unsigned int)(t - w->ctl->task), &t->base);
		return;
	case OP_MUNMAP:
		if (t->base) {
			int ret = mt_region_unmap(&w->region, t->base);

			if (ret)
				t->err = ret;
		}
		t->base = NULL;
		return;
	case OP_WRITE:
		if (w->order)
			mt_touch_write_at(t->base, w->order + t->first, t->count, pattern);
		else
			mt_touch_write(t->base + t->first * w->step, t->count, w->step, pattern);
		return;
	case OP_READ:
	case OP_READ_FIRST:
		if (w->order)
			wrong = mt_touch_verify_at(t->base, w->order + t->first, t->count, pattern);
		else
			wrong = mt_touch_verify(t->base + t->first * w->step, t->count, w->step,
						pattern);
		if (wrong) {
			t->wrong = wrong;
			t->found = *(volatile uint64_t *)wrong;
		}
		return;
	case OP_EXIT:
		return;
	}
}

static long futex(_Atomic uint32_t *addr, int op, uint32_t val, const struct timespec *ts)
{
	return syscall(SYS_futex, addr, op, val, ts, NULL, 0);
}

/* Arrive; the last one releases the rest. Returns the generation waited on. */
static bool bar_arrive(struct barrier *b, uint32_t *gen)
{
	*gen = atomic_load(&b->gen);
	if (atomic_fetch_add(&b->arrived, 1) + 1 < b->n)
		return false;
	atomic_store(&b->arrived, 0);
	atomic_fetch_add(&b->gen, 1);
	futex(&b->gen, FUTEX_WAKE, INT_MAX, NULL);
	return true;
}

static void bar_wait(struct barrier *b)
{
	uint32_t g;

	if (bar_arrive(b, &g))
		return;
	while (atomic_load(&b->gen) == g)
		futex(&b->gen, FUTEX_WAIT, g, NULL);
}

/* A forked task that ended on its own: kill and reap the rest, say which. */
static int task_died(struct mt_workload *w)
{
	int st, dead = -1;

	for (unsigned int i = 0; i < w->n_tasks && dead < 0; i++) {
		if (waitpid(w->ctl->task[i].pid, &st, WNOHANG) > 0) {
			dead = (int)i;
			w->ctl->task[i].pid = 0;
		}
	}
	if (dead < 0)
		return 0;
	if (WIFSIGNALED(st))
		snprintf(w->failure, sizeof(w->failure), "task %d was killed by signal %d (%s)",
			 dead, WTERMSIG(st), strsignal(WTERMSIG(st)));
	else
		snprintf(w->failure, sizeof(w->failure), "task %d exited with status %d", dead,
			 WEXITSTATUS(st));
	for (unsigned int i = 0; i < w->n_tasks; i++) {
		if (w->ctl->task[i].pid > 0) {
			kill(w->ctl->task[i].pid, SIGKILL);
			waitpid(w->ctl->task[i].pid, NULL, 0);
			w->ctl->task[i].pid = 0;
		}
	}
	w->tasks_dead = true;
	return -ECHILD;
}

/* The coordinator's wait: checks on forked tasks while it sleeps. */
static int coord_wait(struct mt_workload *w)
{
	const struct timespec tick = { 0, 100 * 1000 * 1000 };
	bool procs = w->cfg.task_mode == MT_TASK_PROCESS;
	uint32_t g;

	if (bar_arrive(&w->ctl->bar, &g))
		return 0;
	while (atomic_load(&w->ctl->bar.gen) == g) {
		if (futex(&w->ctl->bar.gen, FUTEX_WAIT, g, procs ? &tick : NULL) &&
		    errno == ETIMEDOUT && procs && task_died(w))
			return -ECHILD;
	}
	return 0;
}

static void task_loop(struct mt_workload *w, struct task *t)
{
	bool proc = w->cfg.task_mode == MT_TASK_PROCESS;
	struct rusage r0, r1;

	bar_wait(&w->ctl->bar);	/* ready */
	for (;;) {
		enum op op;

		bar_wait(&w->ctl->bar);	/* release */
		op = w->ctl->op;
		if (op == OP_EXIT)
			break;
		if (proc && w->ctl->evidence)
			getrusage(RUSAGE_SELF, &r0);
		t->t0 = now_ns();
		run_op(w, t, op, w->ctl->pass, w->ctl->expected);
		t->t1 = now_ns();
		t->minflt = t->majflt = 0;
		if (proc && w->ctl->evidence) {
			getrusage(RUSAGE_SELF, &r1);
			t->minflt = r1.ru_minflt - r0.ru_minflt;
			t->majflt = r1.ru_majflt - r0.ru_majflt;
		}
		bar_wait(&w->ctl->bar);	/* done */
	}
	if (w->private_regions && t->base) {	/* an error ended the iteration early */
		mt_region_unmap(&w->region, t->base);
		t->base = NULL;
	}
}

static struct mt_workload *thread_w;	/* the one workload whose tasks run */

static void *thread_fn(void *arg)
{
	task_loop(thread_w, arg);
	return NULL;
}

/* A spawn that failed part way: let the tasks that started pass the ready
 * barrier, tell them to exit, and join or reap them. */
static void unspawn(struct mt_workload *w, unsigned int started)
{
	w->ctl->bar.n = started + 1;
	if (!coord_wait(w)) {		/* ready */
		w->ctl->op = OP_EXIT;
		coord_wait(w);		/* release: they see OP_EXIT */
	}
	for (unsigned int i = 0; i < started; i++) {
		struct task *t = &w->ctl->task[i];

		if (w->cfg.task_mode == MT_TASK_THREAD)
			pthread_join(t->thread, NULL);
		else
			waitpid(t->pid, NULL, 0);
	}
	w->ctl->bar.n = w->n_tasks + 1;
}

static int spawn(struct mt_workload *w)
{
	pid_t parent = getpid();

	thread_w = w;
	w->tasks_dead = false;
	w->ctl->bar.arrived = 0;
	for (unsigned int i = 0; i < w->n_tasks; i++) {
		struct task *t = &w->ctl->task[i];

		t->wrong = NULL;
		t->err = 0;
		if (w->cfg.task_mode == MT_TASK_THREAD) {
			int ret = pthread_create(&t->thread, NULL, thread_fn, t);

			if (ret) {
				unspawn(w, i);
				return -ret;
			}
			continue;
		}
		pid_t pid = fork();	/* t is shared: only the parent writes t->pid */

		if (pid < 0) {
			int ret = -errno;

			unspawn(w, i);
			return ret;
		}
		if (pid) {
			t->pid = pid;
		} else {
			/* A task must not outlive memtlb, nor run its cleanup. */
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() != parent)
				_exit(1);
			task_loop(w, t);
			_exit(0);
		}
	}
	return coord_wait(w);	/* ready: their start-up faults are done */
}

static void reap(struct mt_workload *w)
{
	if (w->tasks_dead)
		return;	/* task_died() reaped them */
	w->ctl->op = OP_EXIT;
	if (coord_wait(w))
		return;
	for (unsigned int i = 0; i < w->n_tasks; i++) {
		struct task *t = &w->ctl->task[i];

		if (w->cfg.task_mode == MT_TASK_THREAD)
			pthread_join(t->thread, NULL);
		else
			waitpid(t->pid, NULL, 0);
	}
}

/* Which phases the spawned tasks take part in: all with private regions. */
static bool task_phase(const struct mt_workload *w, enum op op)
{
	return w->private_regions || (op != OP_MMAP && op != OP_MUNMAP);
}

static int run_phase(struct mt_workload *w, unsigned int ph, unsigned int iter,
		     uint64_t *time_ns)
{
	const struct phase *phs = &w->phases[ph];
	struct mt_phase_tasks *ts = &w->tstats[ph];
	uint64_t expected = 0, t0, t1;
	double rates = 0.0;
	int err = 0;

	/* A file keeps the last pass's pattern from one iteration to the next. */
	if (w->cfg.backing == MT_BACKING_FILE && iter > 0)
		expected = mt_workload_pattern((unsigned int)w->cfg.passes - 1);
	if (!w->spawned_tasks || !task_phase(w, phs->op)) {
		struct task *t = &w->ctl->task[0];

		if (phs->op == OP_MMAP || phs->op == OP_MUNMAP) {
			t0 = now_ns();
			if (phs->op == OP_MMAP)
				err = mt_region_map(&w->region, 0, &w->map);
			else
				err = mt_region_unmap(&w->region, w->map);
			t1 = now_ns();
			if (phs->op == OP_MUNMAP)
				w->map = NULL;
			for (unsigned int i = 0; i < w->n_tasks; i++)
				w->ctl->task[i].base = w->map;
		} else {
			t->t0 = t0 = now_ns();
			run_op(w, t, phs->op, phs->pass, expected);
			t->t1 = t1 = now_ns();
		}
	} else {
		w->ctl->op = phs->op;
		w->ctl->pass = phs->pass;
		w->ctl->expected = expected;
		t0 = now_ns();
		err = coord_wait(w);	/* release */
		if (!err)
			err = coord_wait(w);	/* the last task is done */
		t1 = now_ns();
		if (err)
			return err;
	}
	time_ns[ph] = t1 - t0;

	memset(ts, 0, sizeof(*ts));
	for (unsigned int i = 0; i < w->n_tasks; i++) {
		struct task *t = &w->ctl->task[i];

		if (t->err && !err)
			err = t->err;
		/* mmap's faults count too (--populate), for tasks that mapped */
		if (task_phase(w, phs->op)) {
			ts->minflt += t->minflt;
			ts->majflt += t->majflt;
		}
		if (phs->op == OP_MMAP || phs->op == OP_MUNMAP)
			continue;
		ts->blocks += t->count;
		if (t->t1 > t->t0)
			rates += (double)t->count * 1e9 / (double)(t->t1 - t->t0);
	}
	ts->rate_per_task = rates / w->n_tasks;
	return err;
}

static int check_wrong(struct mt_workload *w, unsigned int ph, unsigned int iter,
		       uint64_t expected, struct mt_mismatch *bad)
{
	for (unsigned int i = 0; i < w->n_tasks; i++) {
		struct task *t = &w->ctl->task[i];

		if (!t->wrong)
			continue;
		snprintf(bad->phase, sizeof(bad->phase), "%s", w->phases[ph].name);
		bad->iter = iter;
		bad->addr = t->wrong;
		bad->expected = expected;
		bad->found = t->found;
		t->wrong = NULL;
		return -EILSEQ;
	}
	return 0;
}

int mt_workload_iterate(struct mt_workload *w, unsigned int iter, uint64_t *time_ns,
			mt_boundary_fn hook, void *arg, struct mt_mismatch *bad)
{
	bool tasks_up = false;
	int err = 0;

	if (w->cfg.backing == MT_BACKING_FILE && w->cfg.file_cold)
		mt_region_drop_cache(&w->region, &w->mapinfo);
	for (unsigned int ph = 0; ph < w->n_phases; ph++) {
		const struct phase *phs = &w->phases[ph];

		/* Tasks start before their first phase and end after their last. */
		if (w->spawned_tasks && !tasks_up && task_phase(w, phs->op)) {
			err = spawn(w);
			if (err)
				break;
			tasks_up = true;
		}
		if (tasks_up && !task_phase(w, phs->op)) {
			reap(w);
			tasks_up = false;
		}
		err = hook(arg, ph, false);
		if (err)
			break;
		err = run_phase(w, ph, iter, time_ns);
		if (!err && (phs->op == OP_READ || phs->op == OP_READ_FIRST)) {
			uint64_t expected = phs->op == OP_READ ? mt_workload_pattern(phs->pass) : 0;

			if (phs->op == OP_READ_FIRST && w->cfg.backing == MT_BACKING_FILE && iter)
				expected = mt_workload_pattern((unsigned int)w->cfg.passes - 1);
			err = check_wrong(w, ph, iter, expected, bad);
		}
		if (err)
			break;
		err = hook(arg, ph, true);
		if (err)
			break;
		/* Proof of mapping, in the evidence iteration: after the first write pass. */
		if (w->ctl->evidence && phs->op == OP_WRITE && phs->pass == 0) {
			struct task *t0 = &w->ctl->task[0];
			int pid = w->spawned_tasks && w->private_regions &&
				  w->cfg.task_mode == MT_TASK_PROCESS ? t0->pid : 0;
			bool checked = w->mapinfo.cache_checked;
			uint64_t pages = w->mapinfo.cache_pages, kept = w->mapinfo.cache_resident;

			mt_mapinfo_read(pid, t0->base, w->cfg.region, &w->mapinfo);
			w->mapinfo.cache_checked = checked;
			w->mapinfo.cache_pages = pages;
			w->mapinfo.cache_resident = kept;
		}
	}
	if (tasks_up)
		reap(w);	/* private regions are unmapped by their tasks on exit */
	if (w->map) {
		mt_region_unmap(&w->region, w->map);
		w->map = NULL;
	}
	return err;
}
