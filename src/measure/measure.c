// SPDX-License-Identifier: MIT
/* One stat run: workload phases, counter reads at their boundaries. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "counters/backend.h"
#include "counters/counters.h"
#include "measure/measure.h"
#include "model/sample.h"
#include "stats/ci.h"
#include "stats/repeat.h"
#include "stats/stats.h"
#include "sys/env.h"
#include "sys/interrupts.h"
#include "sys/mapinfo.h"
#include "sys/mthp.h"
#include "workload/check.h"

/*
 * Kernel-side evidence: /proc/vmstat counters (system-wide: other tasks on
 * the machine add to them) and getrusage (this process and its threads;
 * forked tasks report their own). The fixed names are read when present,
 * plus any nr_tlb_* the kernel has (CONFIG_DEBUG_TLBFLUSH). Beside them the
 * TLB-shootdown and function-call IPIs of /proc/interrupts, summed over the
 * CPUs: system-wide too ("irq."), and absent where the kernel has no row.
 */
static const char *const vmstat_names[] = {
	"pgfault", "pgmajfault", "thp_fault_alloc", "thp_fault_fallback", "thp_split_pmd",
};

static const char *const irq_rows[] = { "TLB", "CAL" };

#define IRQ_ROWS (sizeof(irq_rows) / sizeof(irq_rows[0]))

enum { X_MINFLT, X_MAJFLT, X_VMSTAT };

#define VMSTAT_MAX 24

struct kstate {
	uint64_t v[VMSTAT_MAX];
	uint64_t irq[IRQ_ROWS];
	long minflt, majflt;
};

struct run {
	struct mt_counters *counters;
	const struct mt_event *ev;
	struct mt_samples *samples;
	struct mt_counts *before;
	struct mt_counts *after;
	unsigned int iter;
	bool timed;		/* a timed iteration: the counters run per phase */
	/*
	 * Kernel-side evidence (rusage, vmstat, interrupts, the page scan) is
	 * read in one iteration only: the last timed one where its phases are
	 * long enough (evidence_fits), else one extra, untimed iteration.
	 */
	bool evidence;
	const struct mt_phase_tasks *ts;	/* the workload's, per phase */
	unsigned int n_vm;
	char vm_names[VMSTAT_MAX][MT_EXTRA_NAME_MAX];
	unsigned int n_irq;
	const char *irq_names[IRQ_ROWS];	/* the rows this kernel has */
	struct kstate k0, k1;
	double *kx;		/* [phase][extra][iter]: iterations + 1, NaN = absent */
	unsigned int n_extras;
	unsigned int n_phases;
	/* progress at phase boundaries, at most twice a second */
	const struct mt_measure_opts *opts;
	const struct mt_config *cfg;
	const uint64_t *times;	/* the last iteration's phase times, for the ETA */
	struct timespec t0;
	double shown_s;
};

#define VMSTAT_MISSING UINT64_MAX

static char vmbuf[32768];	/* static: reading it takes no page faults */

static int vmstat_read(struct run *r, uint64_t *v, bool discover)
{
	ssize_t n, len = 0;
	char *line, *save;
	int fd;

	/* A counter not found keeps this mark, and its delta stays absent. */
	for (unsigned int i = 0; v && i < r->n_vm; i++)
		v[i] = VMSTAT_MISSING;
	fd = open("/proc/vmstat", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while ((n = read(fd, vmbuf + len, sizeof(vmbuf) - 1 - (size_t)len)) > 0)
		len += n;
	close(fd);
	vmbuf[len] = '\0';
	for (line = strtok_r(vmbuf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *sp = strchr(line, ' ');
		bool want = false;

		if (!sp)
			continue;
		*sp = '\0';
		if (discover) {
			for (size_t i = 0; i < sizeof(vmstat_names) / sizeof(vmstat_names[0]); i++)
				want |= !strcmp(line, vmstat_names[i]);
			want |= !strncmp(line, "nr_tlb_", 7);
			if (want && r->n_vm < VMSTAT_MAX)
				snprintf(r->vm_names[r->n_vm++], MT_EXTRA_NAME_MAX, "%s", line);
			continue;
		}
		for (unsigned int i = 0; i < r->n_vm; i++) {
			if (!strcmp(line, r->vm_names[i])) {
				v[i] = strtoull(sp + 1, NULL, 10);
				break;
			}
		}
	}
	return 0;
}

/* The rows found at discovery, in k->irq; one missing later stays absent. */
static void irq_read(struct run *r, struct kstate *k)
{
	if (!r->n_irq || mt_interrupts_read(r->irq_names, r->n_irq, k->irq))
		for (unsigned int i = 0; i < IRQ_ROWS; i++)
			k->irq[i] = MT_INTERRUPTS_ABSENT;
}

static void irq_discover(struct run *r)
{
	uint64_t v[IRQ_ROWS];

	r->n_irq = 0;
	if (mt_interrupts_read(irq_rows, IRQ_ROWS, v))
		return;
	for (unsigned int i = 0; i < IRQ_ROWS; i++)
		if (v[i] != MT_INTERRUPTS_ABSENT)
			r->irq_names[r->n_irq++] = irq_rows[i];
}

static void kstate_read(struct kstate *k)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	k->minflt = ru.ru_minflt;
	k->majflt = ru.ru_majflt;
}

static double *kx(struct run *r, unsigned int phase, unsigned int x)
{
	return &r->kx[((size_t)phase * r->n_extras + x) * (r->samples->n_iter + 1) + r->iter];
}

static double coarse_since(const struct timespec *t0)
{
	struct timespec t;

	/* the coarse clock: a read of the vDSO's page, no TSC read */
	clock_gettime(CLOCK_MONOTONIC_COARSE, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

/*
 * A region this large (1 GiB) takes a second or more to first touch on any
 * machine (a fault per 4 KiB, 250k of them): its run says where it is from
 * the start, not a minute later when its first write pass ends.
 */
#define LONG_REGION (1ull << 30)

/*
 * Where a long run is, for the CLI: from the first second on, at most
 * twice a second, at a phase's start, before its counters are enabled and
 * its clock read (nothing is printed inside a timed phase: a phase that
 * lasts minutes shows its line when it ends); for a long region, from its
 * first phase on. The ETA weighs the phases of this iteration by their
 * times in the last one: none before the first iteration has ended.
 */
static void phase_progress(struct run *r, unsigned int phase)
{
	const struct mt_measure_opts *opts = r->opts;
	double el = coarse_since(&r->t0), part = 0, whole = 0, done;
	struct mt_progress p = {
		.kind = MT_PROGRESS_PHASE, .iter = r->iter + 1,
			.n_iter = (unsigned int)(r->cfg->warmup + mt_repeat_limit(r->cfg)),
		.region = r->cfg->region,
		.elapsed_s = el, .eta_s = -1,
	};

	bool early = !r->iter && r->shown_s == 0 && r->cfg->region >= LONG_REGION;

	if (!early && (el < 1.0 || el - r->shown_s < 0.5))
		return;
	el = el > 0 ? el : 1e-9;	/* shown_s 0: nothing shown yet */
	r->shown_s = el;
	snprintf(p.phase, sizeof(p.phase), "%s", r->samples->phase_names[phase]);
	for (unsigned int q = 0; q < r->n_phases; q++) {
		whole += (double)r->times[q];
		if (q < phase)
			part += (double)r->times[q];
	}
	if (r->iter && whole > 0) {
		done = r->iter + part / whole;
		p.eta_s = el / done * ((double)p.n_iter - done);
	}
	opts->progress(opts->progress_arg, &p);
}

/* Nested windows: rusage inside vmstat inside interrupts. */
static void evidence_start(struct run *r)
{
	irq_read(r, &r->k0);
	vmstat_read(r, r->k0.v, false);
	kstate_read(&r->k0);
}

static void evidence_end(struct run *r, unsigned int phase)
{
	kstate_read(&r->k1);
		vmstat_read(r, r->k1.v, false);
		irq_read(r, &r->k1);
		for (unsigned int i = 0; i < r->n_irq; i++)
			if (r->k0.irq[i] != MT_INTERRUPTS_ABSENT &&
			    r->k1.irq[i] != MT_INTERRUPTS_ABSENT)
				*kx(r, phase, X_VMSTAT + r->n_vm + i) =
					(double)(r->k1.irq[i] - r->k0.irq[i]);
		*kx(r, phase, X_MINFLT) = (double)(r->k1.minflt - r->k0.minflt);
		*kx(r, phase, X_MAJFLT) = (double)(r->k1.majflt - r->k0.majflt);
		for (unsigned int i = 0; i < r->n_vm; i++)
			if (r->k0.v[i] != VMSTAT_MISSING && r->k1.v[i] != VMSTAT_MISSING)
				*kx(r, phase, X_VMSTAT + i) = (double)(r->k1.v[i] - r->k0.v[i]);
}

/* getrusage in this process misses forked tasks' faults: theirs are added. */
static uint64_t task_faults(const struct mt_event *ev, const struct mt_phase_tasks *ts)
{
	switch (ev->attr.config) {
	case PERF_COUNT_SW_PAGE_FAULTS_MIN:
		return (uint64_t)ts->minflt;
	case PERF_COUNT_SW_PAGE_FAULTS_MAJ:
		return (uint64_t)ts->majflt;
	default:
		return (uint64_t)(ts->minflt + ts->majflt);
	}
}

/* The counters run for the phase alone: the reads are not in its counts. */
static int counters_end(struct run *r, unsigned int phase)
{
	const struct mt_event *ev = r->samples->n_events ? r->ev : NULL;
	int ret;

	ret = mt_counters_disable(r->counters);
	if (!ret)
		ret = mt_counters_read(r->counters, r->after);
	if (ret)
		return ret;
	for (unsigned int e = 0; e < r->samples->n_events; e++) {
		struct mt_counts *d = mt_samples_counts(r->samples, phase, e, r->iter);

		d->val = r->after[e].val - r->before[e].val;
		d->ena = r->after[e].ena - r->before[e].ena;
		d->run = r->after[e].run - r->before[e].run;
		if (ev[e].rusage && !ev[e].err)
			d->val += task_faults(&ev[e], &r->ts[phase]);
	}
	return 0;
}

/* Runs between the clock reads of two phases, never inside one. */
static int boundary(void *arg, unsigned int phase, bool end)
{
	struct run *r = arg;
	int ret = 0;

	if (!end) {
		if (r->timed && r->opts->progress)
			phase_progress(r, phase);
		if (r->evidence)
			evidence_start(r);
		if (r->timed && r->counters) {
			ret = mt_counters_read(r->counters, r->before);
			if (!ret)
				ret = mt_counters_enable(r->counters);
		}
		return ret;
	}
	if (r->timed && r->counters)
		ret = counters_end(r, phase);
	if (!ret && r->evidence)
		evidence_end(r, phase);
	return ret;
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

/* Summaries of the evidence into the result; NaN samples are absent ones. */
static int add_extras(struct mt_result *res, struct run *r, const struct mt_workload *w,
		      const struct mt_config *cfg)
{
	unsigned int n_iter = r->samples->n_iter + 1;
	double *buf;
	int ret;

	ret = mt_result_set_extras(res, r->n_extras);
	if (ret)
		return ret;
	snprintf(res->extra_names[X_MINFLT], MT_EXTRA_NAME_MAX, "rusage.minflt");
	snprintf(res->extra_names[X_MAJFLT], MT_EXTRA_NAME_MAX, "rusage.majflt");
	for (unsigned int i = 0; i < r->n_vm; i++)
		snprintf(res->extra_names[X_VMSTAT + i], MT_EXTRA_NAME_MAX, "vmstat.%s",
			 r->vm_names[i]);
	for (unsigned int i = 0; i < r->n_irq; i++)
		snprintf(res->extra_names[X_VMSTAT + r->n_vm + i], MT_EXTRA_NAME_MAX, "irq.%s",
			 r->irq_names[i]);
	snprintf(res->extra_names[r->n_extras - 2], MT_EXTRA_NAME_MAX, "blocks_per_s");
	snprintf(res->extra_names[r->n_extras - 1], MT_EXTRA_NAME_MAX, "blocks_per_s_per_task");
	res->map = *mt_workload_mapinfo(w);
	res->tasks = cfg->tasks;
	buf = malloc(n_iter * sizeof(*buf));
	if (!buf)
		return -ENOMEM;
	for (unsigned int p = 0; p < res->n_phases; p++) {
		for (unsigned int x = 0; x < r->n_extras; x++) {
			size_t n = 0;

			for (unsigned int i = 0; i < n_iter; i++) {
				double v = r->kx[((size_t)p * r->n_extras + x) * n_iter + i];

				if (!isnan(v))
					buf[n++] = v;
			}
			if (n && !mt_stats_summarize(buf, n, &res->phases[p].extras[x]))
				res->phases[p].has_extra |= 1ull << x;
		}
	}
	free(buf);
	return 0;
}

static int finish(struct run *r, struct mt_samples *samples, const struct mt_workload *w,
		  const struct mt_config *cfg, const struct mt_event *ev, size_t n_ev,
		  const struct mt_measure_opts *opts, struct mt_result **out)
{
	int ret;

	ret = mt_result_from_samples(out, samples, ev, cfg->region, cfg->block,
				     mt_workload_blocks(w));
	if (!ret)
		ret = add_extras(*out, r, w, cfg);
	if (ret) {
		mt_result_destroy(*out);
		*out = NULL;
		return ret;
	}
	for (size_t e = 0; e < n_ev; e++)
		snprintf((*out)->events[e].reason, sizeof((*out)->events[e].reason), "%s",
			 ev[e].err ? mt_event_reason(&ev[e], opts->hw_counters) : "");
	return 0;
}

/* Copy the timed iterations [first, first + k) of s into a samples of k. */
static int samples_slice(const struct mt_samples *s, unsigned int first, unsigned int k,
			 struct mt_samples **out)
{
	struct mt_samples *done;
	int ret;

	ret = mt_samples_create(&done, s->n_phases, k, s->n_events);
	if (ret)
		return ret;
	for (unsigned int p = 0; p < s->n_phases; p++) {
		memcpy(done->phase_names[p], s->phase_names[p], sizeof(done->phase_names[p]));
		for (unsigned int i = 0; i < k; i++) {
			*mt_samples_time(done, p, i) =
				*mt_samples_time((struct mt_samples *)s, p, first + i);
			for (unsigned int e = 0; e < s->n_events; e++)
				*mt_samples_counts(done, p, e, i) =
					*mt_samples_counts((struct mt_samples *)s, p, e,
							   first + i);
		}
	}
	*out = done;
	return 0;
}

struct mt_measure_run {
	struct run r;
	struct mt_config cfg;
	struct mt_event *ev;
	size_t n_ev;
	struct mt_workload *w;
	uint64_t *times;
	struct timespec base;	/* iteration timestamps are from here */
	struct timespec t0;	/* this run's start, for --max-time */
	unsigned int n_room;	/* warm-up + the most timed iterations */
	uint64_t *start_ns;	/* [iter], warm-up included */
	double *steal_ms;	/* [iter], warm-up included */
	double *buf;
	unsigned int evidence_iter;	/* as the result's: from 1; 0 none yet */
	uint64_t folio_alloc, folio_fallback;	/* --pages mthp: the iterations' sum */
	unsigned int folio_iters;
	bool folios_counted;		/* every iteration's were read */
};

void mt_measure_run_destroy(struct mt_measure_run *m)
{
	if (!m)
		return;
	mt_counters_destroy(m->r.counters);
	mt_samples_destroy(m->r.samples);
	mt_workload_destroy(m->w);
	free(m->times);
	free(m->r.kx);
	free(m->r.before);
	free(m->r.after);
	free(m->start_ns);
	free(m->steal_ms);
	free(m->buf);
	free(m);
}

int mt_measure_run_create(struct mt_measure_run **out, const struct mt_config *cfg,
			  struct mt_event *ev, size_t n_ev, const struct mt_measure_opts *opts,
			  const struct timespec *base)
{
	struct mt_measure_run *m;
	unsigned int np;
	size_t n_kx;
	int ret;

	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->cfg = *cfg;
	m->ev = ev;
	m->n_ev = n_ev;
	m->n_room = (unsigned int)(cfg->warmup + mt_repeat_limit(cfg));
	m->folios_counted = true;	/* until one iteration cannot read them */
	/* an interleaved sweep creates its runs here, not through mt_measure_stat */
	ret = mt_measure_pin(cfg);
	if (!ret)
		ret = mt_workload_create(&m->w, cfg);
	if (ret)
		goto fail;
	np = mt_workload_phases(m->w);
	ret = mt_samples_create(&m->r.samples, np, m->n_room, (unsigned int)n_ev);
	if (ret)
		goto fail;
	for (unsigned int p = 0; p < np; p++)
		snprintf(m->r.samples->phase_names[p], sizeof(m->r.samples->phase_names[p]),
			 "%s", mt_workload_phase_name(m->w, p));
	vmstat_read(&m->r, NULL, true);
	irq_discover(&m->r);
	/* rusage x2, vmstat, irq, blocks_per_s, blocks_per_s_per_task */
	m->r.n_extras = X_VMSTAT + m->r.n_vm + m->r.n_irq + 2;
	m->r.n_phases = np;
	n_kx = (size_t)np * m->r.n_extras * (m->n_room + 1);
	m->r.kx = malloc(n_kx * sizeof(*m->r.kx));
	m->times = calloc(np, sizeof(*m->times));
	m->r.before = calloc(n_ev + 1, sizeof(*m->r.before));
	m->r.after = calloc(n_ev + 1, sizeof(*m->r.after));
	m->start_ns = calloc(m->n_room, sizeof(*m->start_ns));
	m->steal_ms = calloc(m->n_room, sizeof(*m->steal_ms));
	m->buf = calloc(m->n_room, sizeof(*m->buf));
	if (!m->times || !m->r.before || !m->r.after || !m->r.kx || !m->start_ns ||
	    !m->steal_ms || !m->buf) {
		ret = -ENOMEM;
		goto fail;
	}
	for (size_t i = 0; i < n_kx; i++)
		m->r.kx[i] = NAN;
	/*
	 * perf's software fault events cost on every fault (3-4% of write_0
	 * where it was measured: bench/vs-test-with-mmap.sh); the kernel counts
	 * every fault per task anyway. So a set's fault events are read by
	 * getrusage; -e minor-faults asks for perf's own. A replay stands in for
	 * perf whole.
	 */
	if (!cfg->events_given && !strcmp(mt_backend_name(), "perf"))
		for (size_t e = 0; e < n_ev; e++)
			if (mt_counters_use_rusage(&ev[e]))
				mt_workload_set_task_faults(m->w, true);
	if (n_ev) {
		ret = mt_counters_create(&m->r.counters, ev, n_ev, 0);
		if (ret)
			goto fail;
	}
	m->r.ev = ev;
	m->r.ts = mt_workload_task_stats(m->w);
	clock_gettime(CLOCK_MONOTONIC, &m->t0);
	m->base = base ? *base : m->t0;
	m->r.opts = opts;
	m->r.cfg = &m->cfg;
	m->r.times = m->times;
	clock_gettime(CLOCK_MONOTONIC_COARSE, &m->r.t0);
	*out = m;
	return 0;
fail:
	mt_measure_run_destroy(m);
	return ret;
}

unsigned int mt_measure_run_done(const struct mt_measure_run *m)
{
	return m->r.iter > m->cfg.warmup ? m->r.iter - (unsigned int)m->cfg.warmup : 0;
}

/*
 * Whether this timed iteration can read the kernel's evidence too: the last
 * of a fixed count, whose phases that touch the region lasted 1 ms or more
 * in the iteration before (for the first, whose region has 2^20 blocks or
 * more: a millisecond at 1 ns a block). A read of /proc/vmstat and
 * /proc/interrupts between phases takes about 100 us, outside the clocks;
 * beside a millisecond phase its trace in the caches is noise, where one
 * more iteration of a 16 GiB region costs a minute.
 */
static bool evidence_fits(const struct mt_measure_run *m)
{
	const struct run *r = &m->r;

	if (m->cfg.ci_target > 0 || r->iter + 1 != m->n_room)
		return false;
	if (!r->iter)
		return mt_workload_blocks(m->w) >= (1u << 20);
	for (unsigned int p = 0; p < r->n_phases; p++)
		if (r->ts[p].blocks && m->times[p] < 1000000)
			return false;
	return true;
}

/* One iteration: timed, or the extra one for the evidence alone. */
static int iterate_once(struct mt_measure_run *m, bool timed, bool evidence,
			struct mt_mismatch *bad)
{
	const struct mt_measure_opts *opts = m->r.opts;
	struct run *r = &m->r;
	bool warm = timed && r->iter < m->cfg.warmup;
	const struct mt_phase_tasks *ts;
	struct mt_env_mark mark;
	struct timespec t;
	int ret;

	r->timed = timed;
	r->evidence = evidence;
	mt_workload_set_evidence(m->w, evidence);
	if (timed) {
		/* Between iterations, outside every timed phase: the clock and steal. */
		clock_gettime(CLOCK_MONOTONIC, &t);
		m->start_ns[r->iter] = (uint64_t)((t.tv_sec - m->base.tv_sec) * 1000000000ll +
						  (t.tv_nsec - m->base.tv_nsec));
		mt_env_mark(&mark);
	}
	ret = mt_workload_iterate(m->w, r->iter, m->times, boundary, r, bad);
	/*
	 * Ctrl-C reaches the whole process group: --task-mode process tasks
	 * die of it mid-iteration. That iteration is lost, the ones before
	 * are the interrupted run's.
	 */
	if (ret && ret != -EILSEQ && opts->stop && *opts->stop)
		return -EINTR;
	if (ret == -ECHILD && mt_workload_failure(m->w))
		snprintf(bad->why, sizeof(bad->why), "%s", mt_workload_failure(m->w));
	if (ret)
		return ret;
	if (timed)
		m->steal_ms[r->iter] = mt_env_steal_since(&mark);
	ts = mt_workload_task_stats(m->w);
	for (unsigned int p = 0; p < r->n_phases; p++) {
		if (evidence) {
			/* Forked tasks count their own faults; add them in. */
			*kx(r, p, X_MINFLT) += (double)ts[p].minflt;
			*kx(r, p, X_MAJFLT) += (double)ts[p].majflt;
		}
		if (!timed)
			continue;
		*mt_samples_time(r->samples, p, r->iter) = m->times[p];
		if (warm)
			continue;
		*kx(r, p, r->n_extras - 2) = ts[p].blocks && m->times[p] ?
			(double)ts[p].blocks * 1e9 / (double)m->times[p] : NAN;
		*kx(r, p, r->n_extras - 1) = ts[p].blocks && m->cfg.tasks ?
			ts[p].rate_per_task : NAN;
	}
	return 0;
}

/*
 * One iteration, under --pages mthp:SIZE with that size alone for it: set
 * before the mmap phase, restored after the munmap (the cleanup registry
 * restores it however memtlb ends). Per iteration, since an interleaved
 * sweep alternates points of other sizes; outside every phase.
 */
static int iterate(struct mt_measure_run *m, bool timed, bool evidence,
		   struct mt_mismatch *bad)
{
	struct mt_mthp_run mthp = { .n = 0 };
	struct mt_mthp_stats st0, st1;
	uint64_t alloc, fallback;
	int ret, put;

	if (m->cfg.pages != MT_PAGES_MTHP)
		return iterate_once(m, timed, evidence, bad);
	ret = mt_mthp_use(m->cfg.huge_size, mt_workload_mthp_shmem(&m->cfg), &mthp);
	if (ret)
		return ret;
	/*
	 * The size's own counts around the iteration, outside every phase:
	 * with the size madvise-only, the region's faults are nearly all.
	 */
	m->folios_counted &= !mt_mapinfo_mthp_stats(&st0);
	ret = iterate_once(m, timed, evidence, bad);
	m->folios_counted &= !mt_mapinfo_mthp_stats(&st1) &&
			     !mt_mapinfo_mthp_delta(&st0, &st1, m->cfg.huge_size, &alloc,
						    &fallback);
	if (m->folios_counted) {
		m->folio_alloc += alloc;
		m->folio_fallback += fallback;
		m->folio_iters++;
	}
	put = mt_mthp_restore(&mthp);
	return ret ? ret : put;
}

static bool warm_up(const struct mt_measure_run *m)
{
	return m->r.iter < m->cfg.warmup;
}

int mt_measure_run_step(struct mt_measure_run *m, struct mt_mismatch *bad)
{
	const struct mt_measure_opts *opts = m->r.opts;
	bool evidence;
	int ret;

	if (m->r.iter >= m->n_room)
		return -ENOSPC;
	if (opts->stop && *opts->stop)
		return -EINTR;
	evidence = !warm_up(m) && evidence_fits(m);
	ret = iterate(m, true, evidence, bad);
	if (ret)
		return ret;
	m->r.iter++;
	if (evidence)
		m->evidence_iter = mt_measure_run_done(m);
	if (opts->progress && m->r.iter > m->cfg.warmup) {
		struct mt_progress p = {
			.kind = MT_PROGRESS_ITERATION, .iter = mt_measure_run_done(m),
			.n_iter = (unsigned int)mt_repeat_limit(&m->cfg),
			.region = m->cfg.region, .elapsed_s = seconds_since(&m->t0),
			.eta_s = -1,
		};

		opts->progress(opts->progress_arg, &p);
	}
	return 0;
}

/* Whether every phase's (--phase's) time CI is within the target, between iterations. */
static bool target_met(struct mt_measure_run *m)
{
	unsigned int done = mt_measure_run_done(m), w = (unsigned int)m->cfg.warmup;

	for (unsigned int p = 0; p < m->r.n_phases; p++) {
		if (!mt_config_ci_phase(&m->cfg, m->r.samples->phase_names[p]))
			continue;
		for (unsigned int i = 0; i < done; i++)
			m->buf[i] = (double)*mt_samples_time(m->r.samples, p, w + i);
		if (!mt_repeat_ci_met(m->buf, done, m->cfg.ci_target))
			return false;
	}
	return true;
}

enum mt_stop mt_measure_run_decide(struct mt_measure_run *m)
{
	unsigned int done = mt_measure_run_done(m);

	if (m->r.iter < m->cfg.warmup)
		return MT_STOP_NONE;
	return mt_repeat_decide(&m->cfg, done, seconds_since(&m->t0),
				m->cfg.ci_target > 0 && done >= 2 && target_met(m));
}

/* The software events that explain an outlier when they jumped in it. */
static const char *const cause_events[] = {
	"context-switches", "cs", "cpu-migrations", "migrations",
};

static bool is_cause_event(const char *name)
{
	for (size_t i = 0; i < sizeof(cause_events) / sizeof(cause_events[0]); i++)
		if (!strcmp(name, cause_events[i]))
			return true;
	return false;
}

static void add_cause(char *cause, const char *what)
{
	size_t len = strlen(cause);

	snprintf(cause + len, MT_CAUSE_MAX - len, "%s%s", len ? "," : "", what);
}

/* Outliers of each phase's time, with what was seen in their iteration. */
static int find_outliers(struct mt_measure_run *m, const struct mt_samples *s,
			 struct mt_result *res)
{
	unsigned int n = s->n_iter, w = (unsigned int)m->cfg.warmup;
	double *steal = m->steal_ms + w, *x = m->buf, *c;
	bool *flag;

	flag = calloc(n ? n : 1, sizeof(*flag));
	c = calloc(n ? n : 1, sizeof(*c));
	if (!flag || !c) {
		free(flag);
		free(c);
		return -ENOMEM;
	}
	for (unsigned int p = 0; p < s->n_phases; p++) {
		for (unsigned int i = 0; i < n; i++)
			x[i] = (double)*mt_samples_time((struct mt_samples *)s, p, i);
		if (mt_repeat_outliers(x, n, flag) <= 0)
			continue;
		for (unsigned int i = 0; i < n && res->n_outliers < MT_OUTLIER_MAX; i++) {
			struct mt_outlier *o;

			if (!flag[i])
				continue;
			o = &res->outliers[res->n_outliers++];
			o->iter = i;
			o->phase = p;
			o->time_ns = x[i];
			o->cause[0] = '\0';
			if (mt_repeat_jumped(steal, flag, n, i))
				add_cause(o->cause, "steal");
			for (unsigned int e = 0; e < s->n_events; e++) {
				if (m->ev[e].err || !is_cause_event(res->events[e].name))
					continue;
				for (unsigned int j = 0; j < n; j++)
					c[j] = (double)mt_samples_counts((struct mt_samples *)s,
									 p, e, j)->val;
				if (mt_repeat_jumped(c, flag, n, i))
					add_cause(o->cause, res->events[e].name);
			}
		}
	}
	free(flag);
	free(c);
	return 0;
}

/* What the iterations were beside their summaries: warm-up, marks, outliers. */
static int add_iterations(struct mt_measure_run *m, const struct mt_samples *s,
			  struct mt_result *res, enum mt_stop why)
{
	unsigned int w = (unsigned int)m->cfg.warmup, n = s->n_iter;

	res->stop = why;
	res->warmup = w;
	res->map.folios_counted = m->cfg.pages == MT_PAGES_MTHP && m->folios_counted;
	res->map.folio_size = m->cfg.huge_size;
	res->map.folio_iters = m->folio_iters;
	res->map.folio_alloc = m->folio_alloc;
	res->map.folio_fallback = m->folio_fallback;
	res->evidence_iter = m->evidence_iter;
	res->n_iter_marks = n;
	res->iter_start_ns = malloc((n ? n : 1) * sizeof(*res->iter_start_ns));
	res->iter_steal_ms = malloc((n ? n : 1) * sizeof(*res->iter_steal_ms));
	if (!res->iter_start_ns || !res->iter_steal_ms)
		return -ENOMEM;
	memcpy(res->iter_start_ns, m->start_ns + w, n * sizeof(*res->iter_start_ns));
	memcpy(res->iter_steal_ms, m->steal_ms + w, n * sizeof(*res->iter_steal_ms));
	for (unsigned int p = 0; w && p < res->n_phases; p++) {
		res->phases[p].warmup_samples = malloc(w * sizeof(double));
		if (!res->phases[p].warmup_samples)
			return -ENOMEM;
		for (unsigned int i = 0; i < w; i++)
			res->phases[p].warmup_samples[i] =
				(double)*mt_samples_time(m->r.samples, p, i);
	}
	return find_outliers(m, s, res);
}

int mt_measure_run_finish(struct mt_measure_run *m, enum mt_stop why, struct mt_result **out,
			  struct mt_mismatch *bad)
{
	unsigned int done = mt_measure_run_done(m);
	struct mt_samples *s;
	int ret;

	*out = NULL;
	if (!done)
		return why == MT_STOP_INTERRUPTED ? -EINTR : -EINVAL;
	/* The extra evidence iteration, unless read or a signal asked to stop. */
	if (why != MT_STOP_INTERRUPTED && !m->evidence_iter) {
		ret = iterate(m, false, true, bad);
		if (ret)
			return ret;
	}
	ret = samples_slice(m->r.samples, (unsigned int)m->cfg.warmup, done, &s);
	if (ret)
		return ret;
	ret = finish(&m->r, s, m->w, &m->cfg, m->ev, m->n_ev, m->r.opts, out);
	if (!ret) {
		ret = add_iterations(m, s, *out, why);
		if (ret) {
			mt_result_destroy(*out);
			*out = NULL;
		}
	}
	mt_samples_destroy(s);
	if (!ret && why == MT_STOP_INTERRUPTED)
		ret = -EINTR;
	return ret;
}

static int run_once(const struct mt_config *cfg, struct mt_event *ev, size_t n_ev,
		    const struct mt_measure_opts *opts, struct mt_result **out,
		    struct mt_mismatch *bad)
{
	struct mt_measure_run *m;
	enum mt_stop why = MT_STOP_NONE;
	int ret;

	ret = mt_measure_run_create(&m, cfg, ev, n_ev, opts, opts->t0);
	if (ret)
		return ret;
	/* The decision is taken here, between iterations, never inside a phase. */
	while (why == MT_STOP_NONE) {
		ret = mt_measure_run_step(m, bad);
		if (ret == -EINTR) {
			why = MT_STOP_INTERRUPTED;
			break;
		}
		if (ret)
			goto out;
		why = mt_measure_run_decide(m);
	}
	ret = mt_measure_run_finish(m, why, out, bad);
	if (ret == -EINTR && !opts->keep_partial) {
		mt_result_destroy(*out);
		*out = NULL;
	}
out:
	mt_measure_run_destroy(m);
	return ret;
}

/*
 * Groups of several events that were never scheduled (every member not
 * counted in every phase): their events get ev->alone, so that counting
 * again puts each in a group of its own. Returns how many were marked
 * (with ev NULL: would be).
 */
static int never_scheduled(const struct mt_result *r, struct mt_event *ev, size_t n)
{
	int marked = 0, groups = mt_result_groups(r);

	for (int g = 0; g < groups; g++) {
		unsigned int members = 0, counted = 0;

		for (unsigned int e = 0; e < r->n_events && e < n; e++) {
			if (r->events[e].group != g)
				continue;
			members++;
			for (unsigned int p = 0; p < r->n_phases; p++)
				if (r->phases[p].counters[e].state == MT_COUNTER_OK)
					counted++;
		}
		if (members < 2 || counted)
			continue;
		for (unsigned int e = 0; e < r->n_events && e < n; e++) {
			if (r->events[e].group == g && (!ev || !ev[e].alone)) {
				if (ev)
					ev[e].alone = true;
				marked++;
			}
		}
	}
	return marked;
}

/*
 * --cpu N: the workload on that CPU alone, its tasks too (they inherit it),
 * before the region is mapped, so a NUMA machine places its pages there.
 */
int mt_measure_pin(const struct mt_config *cfg)
{
	cpu_set_t set;

	if (cfg->cpu < 0)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(cfg->cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}

int mt_measure_stat(const struct mt_config *cfg, struct mt_event *ev, size_t n_ev,
		    const struct mt_measure_opts *opts, struct mt_result **out,
		    struct mt_mismatch *bad)
{
	struct mt_env_mark mark;
	int ret;

	ret = mt_measure_pin(cfg);
	if (ret)
		return ret;

	/* Around the whole run, never inside a phase: reading /proc/stat costs. */
	if (opts->env_run)
		mt_env_mark(&mark);
	ret = run_once(cfg, ev, n_ev, opts, out, bad);
	if (!ret && never_scheduled(*out, ev, n_ev)) {
		/* The kernel took the group but never ran it: count again, split. */
		if (opts->progress) {
			struct mt_progress p = { .kind = MT_PROGRESS_RECOUNT, .eta_s = -1 };

			opts->progress(opts->progress_arg, &p);
		}
		mt_result_destroy(*out);
		*out = NULL;
		ret = run_once(cfg, ev, n_ev, opts, out, bad);
	}
	if (opts->env_run)
		mt_env_run_add(opts->env_run, &mark);
	if (opts->progress) {
		struct mt_progress p = { .kind = MT_PROGRESS_DONE, .eta_s = -1 };

		opts->progress(opts->progress_arg, &p);
	}
	return ret;
}

bool mt_measure_unscheduled(const struct mt_result *r)
{
	return never_scheduled(r, NULL, r->n_events) > 0;
}

void mt_measure_sysinfo(struct mt_sysinfo *si)
{
	mt_sysinfo_read(si);
	mt_pmu_core_name(si->pmu, sizeof(si->pmu));
	mt_pmu_present_list(si->pmus, sizeof(si->pmus));
}

void mt_measure_run_id(char *buf, size_t len)
{
	unsigned char r[16];
	size_t n = 0;

	buf[0] = '\0';
	/* getrandom's urandom pool: no id is better than a guessable one */
	if (len < 2 * sizeof(r) + 1 || getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
		return;
	for (size_t i = 0; i < sizeof(r); i++)
		n += (size_t)snprintf(buf + n, len - n, "%02x", r[i]);
}

int mt_measure_report_create(struct mt_report **out, const char *command,
			     const struct mt_config *cfg)
{
	struct mt_report *rep;
	int ret;

	ret = mt_report_create(&rep, command);
	if (ret)
		return ret;
	mt_measure_sysinfo(&rep->system);
	mt_measure_run_id(rep->run_id, sizeof(rep->run_id));
	rep->config = *cfg;
	snprintf(rep->event_set, sizeof(rep->event_set), "%s", cfg->event_set ? cfg->event_set : "");
	snprintf(rep->backend, sizeof(rep->backend), "%s", mt_backend_name());
	*out = rep;
	return 0;
}

/* Pool summaries of disjoint sample sets: n, mean, stddev, min, max exact. */
static void pool(struct mt_summary *s, const struct mt_summary *part, unsigned int n_parts)
{
	double sum = 0.0, ss = 0.0, med[64];
	unsigned int k, m = 0;
	size_t n = 0;

	for (k = 0; k < n_parts; k++) {
		n += part[k].n;
		sum += part[k].mean * (double)part[k].n;
	}
	*s = (struct mt_summary){ .n = n };
	if (!n)
		return;
	s->mean = sum / (double)n;
	s->min = INFINITY;
	s->max = -INFINITY;
	for (k = 0; k < n_parts; k++) {
		double d = part[k].mean - s->mean;

		if (!part[k].n)
			continue;
		ss += part[k].stddev * part[k].stddev * (double)(part[k].n - 1) +
		      d * d * (double)part[k].n;
		s->min = fmin(s->min, part[k].min);
		s->max = fmax(s->max, part[k].max);
		if (m < 64)
			med[m++] = part[k].median;
	}
	s->stddev = n > 1 ? sqrt(ss / (double)(n - 1)) : 0.0;
	s->cv = n > 1 && s->mean != 0.0 ? s->stddev / fabs(s->mean) : 0.0;
	/* The samples are not all here: the median of the runs' medians. */
	{
		struct mt_summary ms;

		s->median = mt_stats_summarize(med, m, &ms) ? s->mean : ms.median;
	}
}

/* Whether runs[k] has the shape of runs[0]: the same phases and events. */
static bool same_shape(const struct mt_result *a, const struct mt_result *b)
{
	if (a->n_phases != b->n_phases || a->n_events != b->n_events ||
	    a->n_extras != b->n_extras)
		return false;
	for (unsigned int p = 0; p < a->n_phases; p++)
		if (strcmp(a->phases[p].name, b->phases[p].name))
			return false;
	for (unsigned int e = 0; e < a->n_events; e++)
		if (strcmp(a->events[e].name, b->events[e].name))
			return false;
	return true;
}

static int merge_phase(struct mt_result *m, unsigned int p, struct mt_result *const *runs,
		       unsigned int n)
{
	struct mt_phase_stat *ps = &m->phases[p];
	struct mt_summary part[64];
	double means[64], *all;
	size_t total = 0, at = 0;
	unsigned int k;

	for (k = 0; k < n; k++)
		total += runs[k]->phases[p].time_ns.n;
	all = malloc((total ? total : 1) * sizeof(*all));
	if (!all)
		return -ENOMEM;
	for (k = 0; k < n; k++) {
		const struct mt_phase_stat *rp = &runs[k]->phases[p];

		if (rp->time_samples)
			memcpy(all + at, rp->time_samples, rp->time_ns.n * sizeof(*all));
		else
			for (size_t i = 0; i < rp->time_ns.n; i++)
				all[at + i] = rp->time_ns.mean;
		at += rp->time_ns.n;
		ps->runs[k].n = rp->time_ns.n;
		ps->runs[k].time_mean = rp->time_ns.mean;
		ps->runs[k].map_addr = runs[k]->map.valid ? runs[k]->map.addr : 0;
		means[k] = rp->time_ns.mean;
		for (unsigned int e = 0; e < m->n_events; e++)
			if (rp->counters[e].state == MT_COUNTER_OK)
				ps->runs[k].counter_means[e] = rp->counters[e].s.mean;
	}
	free(ps->time_samples);
	ps->time_samples = all;
	mt_stats_summarize(all, total, &ps->time_ns);
	mt_stats_summarize(means, n, &ps->between);
	if (mt_ci_mean95(means, n, &ps->between.mean, &ps->between_half))
		ps->between_half = 0.0;
	/*
	 * A counter over the runs that counted it: its n says how many
	 * iterations those were, its samples which were not (NAN), so a run
	 * left out is shown as such, never dropped without a word.
	 */
	for (unsigned int e = 0; e < m->n_events; e++) {
		struct mt_counter_stat *cs = &ps->counters[e];
		double running = 0.0, *samples = NULL;
		unsigned int counted = 0;
		bool kept = true;

		if (cs->state == MT_COUNTER_UNSUPPORTED)
			continue;
		/* a run's samples not known (an older report): none are said */
		for (k = 0; k < n; k++)
			kept &= runs[k]->phases[p].counters[e].samples != NULL ||
				runs[k]->phases[p].counters[e].state != MT_COUNTER_OK;
		if (kept)
			samples = malloc((total ? total : 1) * sizeof(*samples));
		if (kept && !samples)
			return -ENOMEM;
		at = 0;
		for (k = 0; k < n; k++) {
			const struct mt_counter_stat *c = &runs[k]->phases[p].counters[e];
			/* runs[0]'s time_ns is the merged one by now: each run's n as kept */
			size_t rn = ps->runs[k].n;

			for (size_t i = 0; samples && i < rn; i++)
				samples[at + i] = c->samples && c->state == MT_COUNTER_OK ?
						  c->samples[i] : NAN;
			at += rn;
			if (c->state != MT_COUNTER_OK)
				continue;
			part[counted++] = c->s;
			running += c->running;
		}
		free(cs->samples);
		cs->samples = samples;
		cs->state = counted ? MT_COUNTER_OK : MT_COUNTER_NOT_COUNTED;
		if (!counted)
			continue;
		pool(&cs->s, part, counted);
		cs->running = running / counted;
	}
	for (unsigned int x = 0; x < m->n_extras; x++) {
		bool ok = true;

		for (k = 0; k < n; k++) {
			ok &= !!(runs[k]->phases[p].has_extra & (1ull << x));
			part[k] = runs[k]->phases[p].extras[x];
		}
		if (ok)
			pool(&ps->extras[x], part, n);
		else
			ps->has_extra &= ~(1ull << x);
	}
	return 0;
}

int mt_measure_runs_merge(struct mt_result **runs, unsigned int n, struct mt_result **out)
{
	struct mt_result *m;
	int ret;

	if (!n || n > MT_RUNS_MAX)
		return -EINVAL;
	for (unsigned int k = 1; k < n; k++)
		if (!same_shape(runs[0], runs[k]))
			return -EPROTO;
	m = runs[0];
	ret = mt_result_set_runs(m, n);
	for (unsigned int p = 0; !ret && p < m->n_phases; p++)
		ret = merge_phase(m, p, runs, n);
	if (ret)
		return ret;	/* runs[] stay the caller's to destroy */
	for (unsigned int p = 0; p < m->n_phases; p++)
		m->phases[p].has_derived = m->phases[p].cross_group = 0;
	mt_result_derive(m);
	for (unsigned int k = 1; k < n; k++) {
		mt_result_destroy(runs[k]);
		runs[k] = NULL;
	}
	runs[0] = NULL;
	*out = m;
	return 0;
}
