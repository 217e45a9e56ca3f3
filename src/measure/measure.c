// SPDX-License-Identifier: MIT
/* One stat run: workload phases, counter reads at their boundaries. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "counters/backend.h"
#include "counters/counters.h"
#include "measure/measure.h"
#include "model/sample.h"
#include "stats/stats.h"
#include "sys/env.h"
#include "sys/interrupts.h"

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
	struct mt_samples *samples;
	struct mt_counts *before;
	struct mt_counts *after;
	unsigned int iter;
	/*
	 * Kernel-side evidence (rusage, vmstat) comes from one extra iteration
	 * after the timed ones: reading it between timed phases measurably slowed
	 * the next phase (bench/vs-test-with-mmap.sh), so there only the counters
	 * are read.
	 */
	bool evidence;
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
 * Where a long run is, for the CLI: from the first second on, at most
 * twice a second, at a phase's start, before its counters are enabled and
 * its clock read (nothing is printed inside a timed phase: a phase that
 * lasts minutes shows its line when it ends). The ETA weighs the phases of
 * this iteration by their times in the last one: none before the first
 * iteration has ended.
 */
static void phase_progress(struct run *r, unsigned int phase)
{
	const struct mt_measure_opts *opts = r->opts;
	double el = coarse_since(&r->t0), part = 0, whole = 0, done;
	struct mt_progress p = {
		.kind = MT_PROGRESS_PHASE, .iter = r->iter + 1,
		.n_iter = (unsigned int)r->cfg->iterations, .region = r->cfg->region,
		.elapsed_s = el, .eta_s = -1,
	};

	if (el < 1.0 || el - r->shown_s < 0.5)
		return;
	r->shown_s = el;
	snprintf(p.phase, sizeof(p.phase), "%s", r->samples->phase_names[phase]);
	for (unsigned int q = 0; q < r->n_phases; q++) {
		whole += (double)r->times[q];
		if (q < phase)
			part += (double)r->times[q];
	}
	if (r->iter && whole > 0) {
		done = r->iter + part / whole;
		p.eta_s = el / done * ((double)r->cfg->iterations - done);
	}
	opts->progress(opts->progress_arg, &p);
}

/* Runs between the clock reads of two phases, never inside one. */
static int boundary(void *arg, unsigned int phase, bool end)
{
	struct run *r = arg;
	int ret = 0;

	if (!end && !r->evidence && r->opts->progress)
		phase_progress(r, phase);

	if (r->evidence) {
		/* Nested windows: rusage inside vmstat inside interrupts. */
		if (!end) {
			irq_read(r, &r->k0);
			vmstat_read(r, r->k0.v, false);
			kstate_read(&r->k0);
			return 0;
		}
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
		return 0;
	}
	if (!r->counters)
		return 0;
	/* The counters run for the phase alone: the reads are not in its counts. */
	if (!end) {
		ret = mt_counters_read(r->counters, r->before);
		return ret ? ret : mt_counters_enable(r->counters);
	}
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
	}
	return 0;
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

/*
 * An interrupted run's first r->iter iterations as a result: the samples
 * copied into ones of that length (the kernel evidence keeps its NaN, so
 * absent). Returns -EINTR with *out set, or -errno.
 */
static int finish_partial(struct run *r, const struct mt_workload *w,
			  const struct mt_config *cfg, const struct mt_event *ev, size_t n_ev,
			  const struct mt_measure_opts *opts, struct mt_result **out)
{
	struct mt_samples *s = r->samples, *done;
	unsigned int k = r->iter < s->n_iter ? r->iter : s->n_iter;
	int ret;

	ret = mt_samples_create(&done, s->n_phases, k, s->n_events);
	if (ret)
		return ret;
	for (unsigned int p = 0; p < s->n_phases; p++) {
		memcpy(done->phase_names[p], s->phase_names[p], sizeof(done->phase_names[p]));
		for (unsigned int i = 0; i < k; i++) {
			*mt_samples_time(done, p, i) = *mt_samples_time(s, p, i);
			for (unsigned int e = 0; e < s->n_events; e++)
				*mt_samples_counts(done, p, e, i) = *mt_samples_counts(s, p, e, i);
		}
	}
	ret = finish(r, done, w, cfg, ev, n_ev, opts, out);
	mt_samples_destroy(done);
	return ret ? ret : -EINTR;
}

static int run_once(const struct mt_config *cfg, struct mt_event *ev, size_t n_ev,
		    const struct mt_measure_opts *opts, struct mt_result **out,
		    struct mt_mismatch *bad)
{
	struct mt_workload *w = NULL;
	struct run r = { 0 };
	struct timespec t0;
	uint64_t *times = NULL;
	const struct mt_phase_tasks *ts;
	unsigned int np;
	int ret;

	ret = mt_workload_create(&w, cfg);
	if (ret)
		return ret;
	np = mt_workload_phases(w);
	ret = mt_samples_create(&r.samples, np, (unsigned int)cfg->iterations, (unsigned int)n_ev);
	if (ret)
		goto out;
	for (unsigned int p = 0; p < np; p++)
		snprintf(r.samples->phase_names[p], sizeof(r.samples->phase_names[p]), "%s",
			 mt_workload_phase_name(w, p));
	vmstat_read(&r, NULL, true);
	irq_discover(&r);
	/* rusage x2, vmstat, irq, blocks_per_s, blocks_per_s_per_task */
	r.n_extras = X_VMSTAT + r.n_vm + r.n_irq + 2;
	r.n_phases = np;
	r.kx = malloc((size_t)np * r.n_extras * (cfg->iterations + 1) * sizeof(*r.kx));
	times = calloc(np, sizeof(*times));
	r.before = calloc(n_ev + 1, sizeof(*r.before));
	r.after = calloc(n_ev + 1, sizeof(*r.after));
	if (!times || !r.before || !r.after || !r.kx) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < (size_t)np * r.n_extras * (cfg->iterations + 1); i++)
		r.kx[i] = NAN;
	if (n_ev) {
		ret = mt_counters_create(&r.counters, ev, n_ev, 0);
		if (ret)
			goto out;
	}

	clock_gettime(CLOCK_MONOTONIC, &t0);
	r.opts = opts;
	r.cfg = cfg;
	r.times = times;
	clock_gettime(CLOCK_MONOTONIC_COARSE, &r.t0);
	/* The timed iterations, then the evidence one (r.iter == iterations). */
	for (r.iter = 0; r.iter <= cfg->iterations; r.iter++) {
		if (opts->stop && *opts->stop) {
			ret = -EINTR;
			goto out;
		}
		r.evidence = r.iter == cfg->iterations;
		mt_workload_set_evidence(w, r.evidence);
		ret = mt_workload_iterate(w, r.iter, times, boundary, &r, bad);
		/*
		 * Ctrl-C reaches the whole process group: --task-mode process
		 * tasks die of it mid-iteration. That iteration is lost, the ones
		 * before are the interrupted run's.
		 */
		if (ret && ret != -EILSEQ && opts->stop && *opts->stop) {
			ret = -EINTR;
			goto out;
		}
		if (ret == -ECHILD && mt_workload_failure(w))
			snprintf(bad->why, sizeof(bad->why), "%s", mt_workload_failure(w));
		if (ret)
			goto out;
		ts = mt_workload_task_stats(w);
		for (unsigned int p = 0; p < np; p++) {
			if (r.evidence) {
				/* Forked tasks count their own faults; add them in. */
				*kx(&r, p, X_MINFLT) += (double)ts[p].minflt;
				*kx(&r, p, X_MAJFLT) += (double)ts[p].majflt;
				continue;
			}
			*mt_samples_time(r.samples, p, r.iter) = times[p];
			*kx(&r, p, r.n_extras - 2) = ts[p].blocks && times[p] ?
				(double)ts[p].blocks * 1e9 / (double)times[p] : NAN;
			*kx(&r, p, r.n_extras - 1) = ts[p].blocks && cfg->tasks ?
				ts[p].rate_per_task : NAN;
		}
		if (opts->progress && !r.evidence) {
			struct mt_progress p = {
				.kind = MT_PROGRESS_ITERATION, .iter = r.iter + 1,
				.n_iter = (unsigned int)cfg->iterations, .region = cfg->region,
				.elapsed_s = seconds_since(&t0), .eta_s = -1,
			};

			opts->progress(opts->progress_arg, &p);
		}
	}
	ret = finish(&r, r.samples, w, cfg, ev, n_ev, opts, out);
out:
	if (ret == -EINTR && opts->keep_partial && r.iter && r.samples) {
		/* the iterations done; the untimed evidence one has not run */
		int err = finish_partial(&r, w, cfg, ev, n_ev, opts, out);

		if (err)
			ret = err;
	}
	mt_counters_destroy(r.counters);
	mt_samples_destroy(r.samples);
	mt_workload_destroy(w);
	free(times);
	free(r.kx);
	free(r.before);
	free(r.after);
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

int mt_measure_stat(const struct mt_config *cfg, struct mt_event *ev, size_t n_ev,
		    const struct mt_measure_opts *opts, struct mt_result **out,
		    struct mt_mismatch *bad)
{
	struct mt_env_mark mark;
	int ret;

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

int mt_measure_report_create(struct mt_report **out, const char *command,
			     const struct mt_config *cfg)
{
	struct mt_report *rep;
	int ret;

	ret = mt_report_create(&rep, command);
	if (ret)
		return ret;
	mt_measure_sysinfo(&rep->system);
	rep->config = *cfg;
	snprintf(rep->event_set, sizeof(rep->event_set), "%s", cfg->event_set ? cfg->event_set : "");
	snprintf(rep->backend, sizeof(rep->backend), "%s", mt_backend_name());
	*out = rep;
	return 0;
}
