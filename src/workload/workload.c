// SPDX-License-Identifier: MIT
/*
 * test_with_mmap's iteration: mmap, [read_first], passes x (write,
 * read+verify), munmap; with the backing, page size, access order and tasks
 * of the config. Never prints: results go into structs the caller reads.
 */
#include <errno.h>
#include <fcntl.h>
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

#include "model/size.h"
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
	struct mt_workload *w;	/* for a thread's start */
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
	bool evidence;		/* the iteration that reads the kernel's evidence */
	bool task_faults;	/* forked tasks take getrusage around every phase */
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
	/* mTHP fault counters before the evidence iteration's first fault. */
	struct mt_mthp_stats mthp0;
	bool mthp_known;
	bool tasks_up;		/* spawned and waiting for the next phase */
	bool respawn;		/* processes sharing the region: forked after its mmap */
	bool tasks_dead;
	char failure[128];	/* why a forked task ended early */
};

static void reap(struct mt_workload *w);

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

void mt_workload_set_task_faults(struct mt_workload *w, bool on)
{
	w->ctl->task_faults = on;
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
	w->phases[n] = (struct phase){ "", OP_MMAP, 0 };
	mt_phase_name(w->phases[n++].name, MT_PHASE_NAME_MAX, MT_PHASE_MMAP, 0);
	if (w->cfg.read_first) {
		w->phases[n] = (struct phase){ "", OP_READ_FIRST, 0 };
		mt_phase_name(w->phases[n++].name, MT_PHASE_NAME_MAX, MT_PHASE_READ_FIRST, 0);
	}
	for (unsigned int p = 0; p < passes; p++) {
		w->phases[n] = (struct phase){ "", OP_WRITE, p };
		mt_phase_name(w->phases[n++].name, MT_PHASE_NAME_MAX, MT_PHASE_WRITE, p);
		w->phases[n] = (struct phase){ "", OP_READ, p };
		mt_phase_name(w->phases[n++].name, MT_PHASE_NAME_MAX, MT_PHASE_READ, p);
	}
	w->phases[n] = (struct phase){ "", OP_MUNMAP, 0 };
	mt_phase_name(w->phases[n++].name, MT_PHASE_NAME_MAX, MT_PHASE_MUNMAP, 0);
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
	w->respawn = w->spawned_tasks && !w->private_regions && cfg->task_mode == MT_TASK_PROCESS;
	mt_region_init(&w->region, &w->cfg, w->private_regions ? w->n_tasks : 1);
	if (!w->private_regions && w->units < w->n_tasks) {
		free(w);
		return -EINVAL;
	}
	/* the loops' own code is no phase's fault */
	mt_touch_prefault();
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
	if (w->tasks_up)
		reap(w);
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

/*
 * Pre-faulting. The counters count the tasks too (inherited), and a phase
 * must count the workload's faults only. fork() leaves every private page
 * of the coordinator write-protected in both processes, so the first write
 * to each on either side is a copy-on-write fault; and a forked task's page
 * tables start without the file-backed pages (code, read-only data), which
 * it faults in as it first runs each function. So once tasks are up, before
 * the first phase boundary, each side faults in now what it will touch in
 * the phases: a forked task maps the code and data of every loaded object
 * (read) and writes its stack, errno's page, the objects' writable data and
 * the control block; the coordinator writes every private page it has.
 * Outside every timed and counted window, and once per fork.
 */
#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

#define STACK_AHEAD (64u << 10)	/* stack below the caller the phases may use */
#define SPARSE_MAX (1ull << 32)	/* larger private mappings: reservations, left alone */

/* Write the stack below the caller: the phases' calls (a lazy binding saves
 * the whole register file) find it present and private. */
static __attribute__((noinline)) void touch_stack(void)
{
	volatile char buf[STACK_AHEAD];

	for (size_t i = sizeof(buf); i >= 1024; i -= 1024)
		buf[i - 1] = 0;
	buf[0] = 0;
}

/* Fault [p, p + len) in (for writing: private); on kernels before
 * MADV_POPULATE_* (5.14), by touching each page. */
static void populate(char *p, size_t len, bool write, size_t psz)
{
	if (!len || !madvise(p, len, write ? MADV_POPULATE_WRITE : MADV_POPULATE_READ) ||
	    errno != EINVAL)
		return;	/* done, or a range the kernel will not fill (best effort) */
	for (size_t i = 0; i < len; i += psz) {
		if (write)
			__atomic_fetch_or((unsigned char *)p + i, 0, __ATOMIC_RELAXED);
		else
			(void)*(volatile char *)(p + i);
	}
}

/* populate() the resident pages of [p, p + len): what is not there now is
 * no copy-on-write page, and faulting it in would only cost memory. */
static void populate_resident(char *p, size_t len, bool write, size_t psz)
{
	unsigned char vec[512];

	while (len) {
		size_t n = len / psz < sizeof(vec) ? len / psz : sizeof(vec), i = 0;

		if (!n || mincore(p, n * psz, vec))
			return;
		while (i < n) {
			size_t j = i;

			while (j < n && (vec[j] & 1))
				j++;
			populate(p + i * psz, (j - i) * psz, write, psz);
			i = j + 1;
		}
		p += n * psz;
		len -= n * psz;
	}
}

struct vma {
	uintptr_t lo, hi;
	char perm[5];
	bool file;		/* backed by a file (an inode) */
	bool object;		/* of a file that is also mapped executable */
	const char *path;	/* "" for anonymous memory */
};

/* /proc/self/maps, parsed: *n entries, in address order; free(*buf) after. */
static struct vma *read_maps(size_t *n, char **buf)
{
	size_t len = 0, cap = 16384, max = 0;
	struct vma *v = NULL;
	char *line, *save;
	ssize_t got;
	int fd;

	*n = 0;
	*buf = NULL;
	fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	for (;;) {
		char *b = realloc(*buf, cap + 1);

		if (!b)
			goto fail;
		*buf = b;
		got = read(fd, b + len, cap - len);
		if (got <= 0)
			break;
		len += (size_t)got;
		if (len == cap)
			cap *= 2;
	}
	close(fd);
	fd = -1;
	if (got < 0)
		goto fail;
	(*buf)[len] = '\0';
	for (line = strtok_r(*buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long lo, hi, ino;
		char perm[5];
		int at = 0;

		if (sscanf(line, "%lx-%lx %4s %*x %*x:%*x %lu %n", &lo, &hi, perm, &ino, &at) < 4 ||
		    !at)
			continue;
		if (*n == max) {
			struct vma *nv = realloc(v, (max = max ? 2 * max : 64) * sizeof(*v));

			if (!nv)
				goto fail;
			v = nv;
		}
		v[*n] = (struct vma){ .lo = lo, .hi = hi, .file = ino != 0, .path = line + at };
		memcpy(v[*n].perm, perm, sizeof(perm));
		(*n)++;
	}
	for (size_t i = 0; i < *n; i++) {
		if (v[i].perm[2] != 'x' || !v[i].file)
			continue;
		for (size_t j = 0; j < *n; j++)
			v[j].object |= v[j].file && !strcmp(v[j].path, v[i].path);
	}
	return v;
fail:
	if (fd >= 0)
		close(fd);
	free(v);
	free(*buf);
	*buf = NULL;
	*n = 0;
	return NULL;
}

/* populate_resident() [lo, hi) less the whole pages of the workload's own
 * big buffers (the random order and a coordinator's region), never written
 * in a phase by whoever pre-faults. */
static void populate_except(const struct mt_workload *w, uintptr_t lo, uintptr_t hi,
			    bool write, size_t psz)
{
	uintptr_t skip[2][2] = { { 0, 0 }, { 0, 0 } };

	if (w->order) {
		skip[0][0] = ((uintptr_t)w->order + psz - 1) & ~(uintptr_t)(psz - 1);
		skip[0][1] = ((uintptr_t)(w->order + w->units)) & ~(uintptr_t)(psz - 1);
	}
	if (w->map) {
		skip[1][0] = (uintptr_t)w->map;
		skip[1][1] = ((uintptr_t)w->map + w->cfg.region + psz - 1) & ~(uintptr_t)(psz - 1);
	}
	if (skip[0][0] > skip[1][0]) {
		uintptr_t a = skip[0][0], b = skip[0][1];

		skip[0][0] = skip[1][0], skip[0][1] = skip[1][1];
		skip[1][0] = a, skip[1][1] = b;
	}
	for (int k = 0; k < 2 && lo < hi; k++) {
		if (skip[k][1] <= skip[k][0] || skip[k][1] <= lo || skip[k][0] >= hi)
			continue;
		if (skip[k][0] > lo)
			populate_resident((char *)lo, skip[k][0] - lo, write, psz);
		lo = skip[k][1];
	}
	if (lo < hi)
		populate_resident((char *)lo, hi - lo, write, psz);
}

static void prefault_process(const struct mt_workload *w, bool coordinator)
{
	size_t psz = (size_t)sysconf(_SC_PAGESIZE), n;
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0), err = (uintptr_t)&errno;
	char *buf;
	struct vma *v;

	touch_stack();
	v = read_maps(&n, &buf);
	for (size_t i = 0; i < n; i++) {
		const struct vma *m = &v[i];
		bool priv = m->perm[0] == 'r' && m->perm[3] == 'p';
		bool wr = priv && m->perm[1] == 'w', mine;

		if (coordinator) {
			/*
			 * Its page tables survived the fork: only the writes fault.
			 * A mapping above SPARSE_MAX is a sparse reservation (a
			 * sanitizer's shadow), not what the phases write: walking
			 * it page by page would cost minutes.
			 */
			if (wr && m->hi - m->lo <= SPARSE_MAX)
				populate_except(w, m->lo, m->hi, true, psz);
			continue;
		}
		/* The stack, errno, an object's data and the .bss after it. */
		mine = (sp >= m->lo && sp < m->hi) || (err >= m->lo && err < m->hi) ||
		       m->object || (!m->file && i && v[i - 1].hi == m->lo && v[i - 1].object &&
				     v[i - 1].perm[1] == 'w' && strcmp(m->path, "[heap]"));
		if (wr && mine)
			populate_except(w, m->lo, m->hi, true, psz);
		else if (priv && (m->object || !strcmp(m->path, "[vdso]")))
			populate((char *)m->lo, m->hi - m->lo, false, psz);
	}
	free(v);
	free(buf);
	if (!coordinator) {
		errno = 0;
		populate((char *)w->ctl, w->ctl_len, true, psz);	/* shared: not inherited */
	}
}

static void task_loop(struct mt_workload *w, struct task *t)
{
	bool proc = w->cfg.task_mode == MT_TASK_PROCESS;
	struct rusage r0, r1;
	bool rusage;

	/* Before the ready barrier: what the phases will touch (see above),
	 * and the clock's code once. */
	if (proc)
		prefault_process(w, false);
	else
		touch_stack();
	(void)now_ns();
	bar_wait(&w->ctl->bar);	/* ready */
	for (;;) {
		enum op op;

		bar_wait(&w->ctl->bar);	/* release */
		op = w->ctl->op;
		if (op == OP_EXIT)
			break;
		/* A process's faults are its own: the coordinator's counts lack them. */
		rusage = proc && (w->ctl->evidence || w->ctl->task_faults);
		if (rusage)
			getrusage(RUSAGE_SELF, &r0);
		t->t0 = now_ns();
		run_op(w, t, op, w->ctl->pass, w->ctl->expected);
		t->t1 = now_ns();
		t->minflt = t->majflt = 0;
		if (rusage) {
			getrusage(RUSAGE_SELF, &r1);
			t->minflt = r1.ru_minflt - r0.ru_minflt;
			t->majflt = r1.ru_majflt - r0.ru_majflt;
		}
		bar_wait(&w->ctl->bar);	/* done */
	}
	if (w->private_regions && t->base) {	/* an error ended an iteration early */
		mt_region_unmap(&w->region, t->base);
		t->base = NULL;
	}
}

static void *thread_fn(void *arg)
{
	struct task *t = arg;

	task_loop(t->w, t);
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

/*
 * Start the tasks; they wait for the first phase. They stay up for every
 * iteration, except processes that share the coordinator's region: those
 * must be forked after its mmap, and are reaped before its munmap.
 */
static int spawn(struct mt_workload *w)
{
	pid_t parent = getpid();
	int ret;

	w->tasks_dead = false;
	w->ctl->bar.arrived = 0;
	for (unsigned int i = 0; i < w->n_tasks; i++) {
		struct task *t = &w->ctl->task[i];

		t->wrong = NULL;
		t->err = 0;
		t->w = w;
		if (w->cfg.task_mode == MT_TASK_THREAD) {
			ret = pthread_create(&t->thread, NULL, thread_fn, t);
			if (ret) {
				unspawn(w, i);
				return -ret;
			}
			continue;
		}
		pid_t pid = fork();	/* t is shared: only the parent writes t->pid */

		if (pid < 0) {
			ret = -errno;
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
	ret = coord_wait(w);	/* ready: their start-up faults are done */
	if (ret)
		return ret;	/* one died: task_died() reaped them all */
	w->tasks_up = true;
	if (w->cfg.task_mode == MT_TASK_PROCESS) {
		/* Its own copy-on-write faults, and a first look at the tasks
		 * (the code that looks again every 100 ms in a phase). */
		ret = task_died(w);
		if (ret) {
			w->tasks_up = false;
			return ret;
		}
		prefault_process(w, true);
	} else {
		touch_stack();
	}
	return 0;
}

static void reap(struct mt_workload *w)
{
	w->tasks_up = false;
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

/*
 * The folio sizes behind the region (issue 26: a 64 KiB mTHP folio is no
 * base page, whatever its PTEs). Per page from kpageflags where permitted
 * (root); else from the per-size fault counters since the iteration began,
 * which count the whole machine; on a kernel without mTHP the mapping's
 * huge pages and base pages are the whole story.
 */
static void folio_proof(struct mt_workload *w, int pid, const void *base)
{
	struct mt_mapinfo *m = &w->mapinfo;
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t huge = m->valid && m->kernel_page > page ? m->kernel_page : mt_mapinfo_pmd_size();
	struct mt_mthp_stats after;
	bool stats;

	if (!mt_mapinfo_read_folios(pid, base, w->cfg.region, &m->scan))
		return;
	/*
	 * MADV_NOHUGEPAGE (--pages base) forbids every mTHP size: another
	 * process's faults in the counters are not this region's.
	 */
	stats = w->cfg.pages != MT_PAGES_BASE && w->mthp_known &&
		!mt_mapinfo_mthp_stats(&after);
	mt_mapinfo_folios_guess(&m->scan, page, huge, stats ? &w->mthp0 : NULL,
				stats ? &after : NULL);
}

/*
 * Whether the region is mapped with the pages asked for (issue: a THP run
 * that got base pages measures something else). Page by page where the
 * region is this process's (PAGEMAP_SCAN); a process task's region from its
 * smaps, per VMA. Read in the evidence iteration, outside every phase.
 */
static void page_verdict(struct mt_workload *w, int pid, const void *base)
{
	struct mt_mapinfo *m = &w->mapinfo;
	bool want_huge = w->cfg.pages == MT_PAGES_THP || w->cfg.pages == MT_PAGES_HUGETLB;

	m->scanned = false;
	m->page_check = 0;
	m->verdict[0] = '\0';
	if (!pid) {
		m->scanned = !mt_mapinfo_scan(base, w->cfg.region, &m->scan);
	} else if (m->valid) {
		uint64_t huge = m->anon_huge + m->shmem_pmd + m->file_pmd + m->hugetlb;

		m->scan = (struct mt_pagescan){ .len = w->cfg.region, .smaps = true };
		m->scan.huge = huge < w->cfg.region ? huge : w->cfg.region;
		m->scan.base = m->rss > huge ? m->rss - huge : 0;
		if (m->scan.huge + m->scan.base > w->cfg.region)
			m->scan.base = w->cfg.region - m->scan.huge;
		m->scan.absent = w->cfg.region - m->scan.huge - m->scan.base;
		m->scanned = true;
	}
	if (m->scanned)
		folio_proof(w, pid, base);
	if (!m->scanned || w->cfg.pages == MT_PAGES_DEFAULT)
		return;
	if (w->cfg.pages == MT_PAGES_MTHP) {
		char asked[48], sz[32];

		mt_size_format_short(w->cfg.huge_size, sz, sizeof(sz));
		snprintf(asked, sizeof(asked), "mthp:%s", sz);
		m->page_check = mt_mapinfo_verdict_size(&m->scan, w->cfg.huge_size, mt_mapinfo_pmd_size(),
							asked, m->verdict,
							sizeof(m->verdict)) ? 1 : -1;
	} else {
		m->page_check = mt_mapinfo_verdict(&m->scan, want_huge,
						   mt_pages_name(w->cfg.pages), m->verdict,
						   sizeof(m->verdict)) ? 1 : -1;
	}
	if (m->page_check > 0)
		snprintf(m->verdict, sizeof(m->verdict), "as requested");
}

int mt_workload_iterate(struct mt_workload *w, unsigned int iter, uint64_t *time_ns,
			mt_boundary_fn hook, void *arg, struct mt_mismatch *bad)
{
	int err = 0;

	if (w->cfg.backing == MT_BACKING_FILE && w->cfg.file_cold)
		mt_region_drop_cache(&w->region, &w->mapinfo);
	/* Before the first phase, outside every window: the faults come after. */
	if (w->ctl->evidence)
		w->mthp_known = !mt_mapinfo_mthp_stats(&w->mthp0);
	for (unsigned int ph = 0; ph < w->n_phases; ph++) {
		const struct phase *phs = &w->phases[ph];

		/* Tasks start before their first phase, outside its window. */
		if (w->spawned_tasks && !w->tasks_up && task_phase(w, phs->op)) {
			err = spawn(w);
			if (err)
				break;
		}
		if (w->respawn && w->tasks_up && !task_phase(w, phs->op))
			reap(w);
		err = hook(arg, ph, false);
		if (err)
			break;
		err = run_phase(w, ph, iter, time_ns);
		/* The hook first: the verdict's work is in no phase's counts. */
		if (!err)
			err = hook(arg, ph, true);
		if (!err && (phs->op == OP_READ || phs->op == OP_READ_FIRST)) {
			uint64_t expected = phs->op == OP_READ ? mt_workload_pattern(phs->pass) : 0;

			if (phs->op == OP_READ_FIRST && w->cfg.backing == MT_BACKING_FILE && iter)
				expected = mt_workload_pattern((unsigned int)w->cfg.passes - 1);
			err = check_wrong(w, ph, iter, expected, bad);
		}
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
			page_verdict(w, pid, t0->base);
		}
	}
	/* After an error, tasks are reaped (a private region is unmapped by its
	 * task on exit); else they wait for the next iteration. */
	if (w->tasks_up && (err || w->respawn))
		reap(w);
	if (w->map) {
		mt_region_unmap(&w->region, w->map);
		w->map = NULL;
	}
	return err;
}
