// SPDX-License-Identifier: MIT
/*
 * The sweep engine: a grid of points (regions times --vary values), each a
 * stat run, kernel tunables saved, set per point and restored.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "measure/roofline.h"
#include "measure/sweep.h"
#include "model/grid.h"
#include "model/range.h"
#include "model/reach.h"
#include "model/size.h"
#include "stats/repeat.h"
#include "sys/cleanup.h"
#include "sys/env.h"
#include "sys/journal.h"
#include "sys/mthp.h"
#include "sys/tunable.h"
#include "workload/check.h"

#define MAX_AXES (MT_PARAM_MAX - 1)
#define MAX_VALUES 64

struct axis {
	char key[128];
	bool tunable;		/* a kernel tunable (sys/tunable), else a workload option */
	struct mt_tunable tun;
	int cleanup;		/* the registered restore of tun, -1 none */
	char *buf;		/* the value list, split in place */
	char *values[MAX_VALUES];
	size_t n;
};

struct mt_sweep {
	const struct mt_config *base;
	uint64_t *regions;
	size_t n_regions;
	struct axis axes[MAX_AXES];
	size_t n_axes;
};

/* Workload options that are not a parameter of a point. */
static const char *const not_sweepable[] = { "region", "event", "events", "events-dir",
					     "format", "output" };

int mt_sweep_create(struct mt_sweep **out, const struct mt_config *base)
{
	struct mt_sweep *sw = calloc(1, sizeof(*sw));

	if (!sw)
		return -ENOMEM;
	sw->base = base;
	*out = sw;
	return 0;
}

void mt_sweep_destroy(struct mt_sweep *sw)
{
	if (!sw)
		return;
	free(sw->regions);
	for (size_t a = 0; a < MAX_AXES; a++)
		free(sw->axes[a].buf);
	free(sw);
}

int mt_sweep_set_regions(struct mt_sweep *sw, const char *range, struct mt_msg *msg)
{
	int ret;

	free(sw->regions);
	sw->regions = NULL;
	sw->n_regions = 0;
	ret = mt_range_parse(range, &sw->regions, &sw->n_regions, msg);
	if (ret) {
		char why[sizeof(msg->text)];

		snprintf(why, sizeof(why), "%s", msg->text);
		return mt_msg_set(msg, ret, "a range is A..B, A..B:STEP or A..B:xF, e.g. 256m..768m:64m "
			    "or 16m..16g:x2", "--region: %.64s: %.160s", range, why);
	}
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static uint64_t to_block(double v, uint64_t block)
{
	uint64_t n = (uint64_t)(v / (double)block + 0.5);

	return (n ? n : 1) * block;
}

int mt_sweep_set_regions_auto(struct mt_sweep *sw, const struct mt_reach *lv, size_t n,
			      uint64_t page, struct mt_msg *msg)
{
	uint64_t block = sw->base->block ? sw->base->block : 4096, top = 0, *r;
	size_t k = 0, max = 2 * n + 64;

	for (size_t i = 0; i < n; i++)
		if (lv[i].page_size == page && mt_reach_max(&lv[i]) > top)
			top = mt_reach_max(&lv[i]);
	if (!top)
		return mt_msg_set(msg, -ENOENT, "memtlb probe -o p.json; memtlb sweep --region auto "
				  "--tlb p.json", "--region auto: no TLB level of %llu KiB pages known: "
				  "cpuid has none",
				  (unsigned long long)page >> 10);
	r = calloc(max, sizeof(*r));
	if (!r)
		return -ENOMEM;
	/* the curve's shape from a region far inside the L1 dTLB to well past the last */
	for (uint64_t v = 256 << 10; v <= 4 * top && k < max; v *= 2)
		r[k++] = to_block((double)v, block);
	/* either side of each reach, where its step shows (reach.h: stack, page tables) */
	for (size_t i = 0; i < n && k + 2 <= max; i++) {
		if (lv[i].page_size != page)
			continue;
		r[k++] = to_block(0.75 * (double)mt_reach_min(&lv[i]), block);
		r[k++] = to_block(1.5 * (double)mt_reach_max(&lv[i]), block);
	}
	qsort(r, k, sizeof(*r), cmp_u64);
	n = 0;
	for (size_t i = 0; i < k; i++)
		if (!n || r[i] != r[n - 1])
			r[n++] = r[i];
	free(sw->regions);
	sw->regions = r;
	sw->n_regions = n;
	return 0;
}

size_t mt_sweep_bound_regions(struct mt_sweep *sw, uint64_t lo, uint64_t hi)
{
	size_t n = 0;

	for (size_t i = 0; i < sw->n_regions; i++)
		if (sw->regions[i] >= lo && sw->regions[i] <= hi)
			sw->regions[n++] = sw->regions[i];
	sw->n_regions = n;
	return n;
}

bool mt_sweep_has_regions(const struct mt_sweep *sw)
{
	return sw->n_regions;
}

bool mt_sweep_has_tunables(const struct mt_sweep *sw)
{
	for (size_t a = 0; a < sw->n_axes; a++)
		if (sw->axes[a].tunable)
			return true;
	return false;
}

size_t mt_sweep_axes(const struct mt_sweep *sw)
{
	return sw->n_axes;
}

static int check_key(const struct mt_sweep *sw, struct axis *ax, struct mt_msg *msg)
{
	for (size_t i = 0; i < sw->n_axes; i++)
		if (!strcmp(sw->axes[i].key, ax->key))
			return mt_msg_set(msg, -EINVAL, NULL, "--vary: %s: given twice", ax->key);
	if (mt_tunable_is_key(ax->key)) {
		ax->tunable = true;
		if (mt_tunable_init(&ax->tun, ax->key, msg)) {
			char why[sizeof(msg->text)];

			snprintf(why, sizeof(why), "%s", msg->text);
			return mt_msg_set(msg, -EINVAL, NULL, "--vary: %s", why);
		}
		/* sysctl:vm.swappiness and sysctl:vm/swappiness would both write it */
		for (size_t i = 0; i < sw->n_axes; i++)
			if (sw->axes[i].tunable && mt_tunable_same_file(&sw->axes[i].tun, &ax->tun))
				return mt_msg_set(msg, -EINVAL, "one --vary per tunable",
					    "--vary: %s and %s are the same file (%s)",
					    sw->axes[i].key, ax->key, ax->tun.path);
		return 0;
	}
	for (size_t i = 0; i < sizeof(not_sweepable) / sizeof(*not_sweepable); i++)
		if (!strcmp(ax->key, not_sweepable[i]))
			return mt_msg_set(msg, -EINVAL, "--region A..B sweeps the region; --vary takes "
				    "workload options such as block, backing, iterations",
				    "--vary: %s: not a parameter of a point", ax->key);
	if (!mt_config_has_value(ax->key))
		return mt_msg_set(msg, -EINVAL, "memtlb sweep --help lists the workload options",
			    "--vary: %s: not a workload option, sysfs:PATH, sysctl:NAME, "
			    "debugfs:PATH or a tunable's shorthand",
			    ax->key);
	return 0;
}

/*
 * --vary pages=all: base pages and every mTHP size the kernel offers for
 * the backing (the PMD size among them), smallest first: the matrix.
 */
static char *all_pages(const struct mt_config *base)
{
	uint64_t sizes[MT_MTHP_MAX];
	size_t n = mt_mthp_sizes(mt_workload_mthp_shmem(base), sizes, MT_MTHP_MAX), k;
	char *buf = malloc(16 + n * 24);

	if (!buf)
		return NULL;
	k = (size_t)sprintf(buf, "base");
	for (size_t i = 0; i < n; i++)
		k += (size_t)sprintf(buf + k, ",mthp:%lluk", (unsigned long long)(sizes[i] >> 10));
	return buf;
}

int mt_sweep_add_axis(struct mt_sweep *sw, const char *arg, struct mt_msg *msg)
{
	const char *eq = strchr(arg, '=');
	struct axis *ax;
	size_t klen;
	int ret;

	msg->text[0] = msg->hint[0] = '\0';
	if (sw->n_axes == MAX_AXES)
		return mt_msg_set(msg, -E2BIG, NULL, "--vary: at most %d parameters", MAX_AXES);
	if (!eq || eq == arg || !eq[1])
		return mt_msg_set(msg, -EINVAL, "--vary backing=shared,anon or --vary "
			    "sysfs:/sys/kernel/mm/transparent_hugepage/enabled=always,madvise",
			    "--vary: %.200s: not KEY=V1,V2,...", arg);
	ax = &sw->axes[sw->n_axes];
	free(ax->buf);
	memset(ax, 0, sizeof(*ax));
	ax->cleanup = -1;
	klen = (size_t)(eq - arg);
	if (klen >= sizeof(ax->key))
		return mt_msg_set(msg, -EINVAL, NULL, "--vary: %.40s...: key too long", arg);
	memcpy(ax->key, arg, klen);
	ret = check_key(sw, ax, msg);
	if (ret)
		return ret;
	ax->buf = !strcmp(ax->key, "pages") && !strcmp(eq + 1, "all") ? all_pages(sw->base)
								       : strdup(eq + 1);
	if (!ax->buf)
		return mt_msg_set(msg, -ENOMEM, NULL, "--vary: %s", strerror(ENOMEM));
	for (char *save = NULL, *v = strtok_r(ax->buf, ",", &save); v;
	     v = strtok_r(NULL, ",", &save)) {
		if (ax->n == MAX_VALUES)
			return mt_msg_set(msg, -E2BIG, NULL, "--vary: %s: more than %d values", ax->key,
				    MAX_VALUES);
		if (strlen(v) >= sizeof(((struct mt_param *)0)->value))
			return mt_msg_set(msg, -EINVAL, NULL, "--vary: %s: value too long", ax->key);
		ax->values[ax->n++] = v;
	}
	if (!ax->n)
		return mt_msg_set(msg, -EINVAL, NULL, "--vary: %s: no values", ax->key);
	/* Workload values are checked now, by the setter every point uses. */
	for (size_t i = 0; !ax->tunable && i < ax->n; i++) {
		struct mt_config scratch = *sw->base;
		char why[sizeof(msg->text)];

		if (mt_config_set(&scratch, ax->key, ax->values[i], msg)) {
			snprintf(why, sizeof(why), "%s", msg->text);
			return mt_msg_set(msg, -EINVAL, msg->hint[0] ? msg->hint : NULL, "--%s: %.200s",
				    ax->key, why);
		}
	}
	sw->n_axes++;
	return 0;
}

size_t mt_sweep_points(const struct mt_sweep *sw)
{
	size_t n = sw->n_regions ? sw->n_regions : 1;

	for (size_t a = 0; a < sw->n_axes; a++)
		n *= sw->axes[a].n;
	return n;
}

/* Point p: the first --vary outermost, the region innermost. */
static void point_values(const struct mt_sweep *sw, size_t p, size_t *region, size_t *vi)
{
	size_t nr = sw->n_regions ? sw->n_regions : 1;

	*region = p % nr;
	p /= nr;
	for (size_t a = sw->n_axes; a-- > 0;) {
		vi[a] = p % sw->axes[a].n;
		p /= sw->axes[a].n;
	}
}

void mt_sweep_point_config(const struct mt_sweep *sw, size_t p, struct mt_config *cfg)
{
	size_t ri, vi[MAX_AXES];
	struct mt_msg msg;

	point_values(sw, p, &ri, vi);
	*cfg = *sw->base;
	if (sw->n_regions)
		cfg->region = sw->regions[ri];
	/* Checked by mt_sweep_add_axis: cannot fail here. */
	for (size_t a = 0; a < sw->n_axes; a++)
		if (!sw->axes[a].tunable)
			mt_config_set(cfg, sw->axes[a].key, sw->axes[a].values[vi[a]], &msg);
}

uint64_t mt_sweep_largest(const struct mt_sweep *sw)
{
	uint64_t largest = 0;

	for (size_t p = 0; p < mt_sweep_points(sw); p++) {
		struct mt_config cfg;

		mt_sweep_point_config(sw, p, &cfg);
		if (cfg.region > largest)
			largest = cfg.region;
	}
	return largest;
}

bool mt_sweep_has_phase(const struct mt_sweep *sw, const char *phase)
{
	for (size_t p = 0; p < mt_sweep_points(sw); p++) {
		struct mt_workload *w;
		struct mt_config cfg;
		bool found = false;

		mt_sweep_point_config(sw, p, &cfg);
		if (mt_workload_create(&w, &cfg))
			continue;
		for (unsigned int i = 0; i < mt_workload_phases(w); i++)
			found |= !strcmp(mt_workload_phase_name(w, i), phase);
		mt_workload_destroy(w);
		if (found)
			return true;
	}
	return false;
}

int mt_sweep_save_tunables(struct mt_sweep *sw, struct mt_msg *msg)
{
	for (size_t a = 0; a < sw->n_axes; a++) {
		struct axis *ax = &sw->axes[a];
		int ret;

		if (!ax->tunable)
			continue;
		/*
		 * Serialised with every other memtlb that changes the machine
		 * (the cli has normally taken it, saying it waits): the value
		 * saved is then never another one's, nor one a dead one left.
		 */
		ret = mt_journal_lock(true, NULL, NULL, 0);
		if (ret && ret != -EACCES && ret != -EPERM && ret != -EROFS)
			return mt_msg_set(msg, ret, NULL, "--vary: %s: the lock in /run/memtlb: %s",
				    ax->key, strerror(-ret));
		ret = mt_tunable_save(&ax->tun);
		if (ret)
			return mt_tunable_save_error(&ax->tun, ret, msg);
		for (size_t v = 0; !ret && v < ax->n; v++)
			ret = mt_tunable_check_value(&ax->tun, ax->values[v], msg);
		if (ret)
			return ret;
		/*
		 * The registry restores it whatever ends memtlb: SIGHUP from a
		 * dropped ssh session as much as the end of the sweep.
		 */
		ret = mt_cleanup_init();
		if (!ret)
			ret = mt_cleanup_add_restore(ax->tun.path, ax->tun.saved);
		if (ret < 0)
			return mt_msg_set(msg, ret, NULL, "--vary: %s: %s", ax->key, strerror(-ret));
		ax->cleanup = ret;
	}
	return 0;
}

int mt_sweep_restore_tunables(struct mt_sweep *sw, struct mt_msg *msg)
{
	int failed = 0;

	for (size_t a = 0; a < sw->n_axes; a++) {
		struct axis *ax = &sw->axes[a];
		int ret;

		if (!ax->tunable || !ax->tun.have_saved || ax->cleanup < 0)
			continue;
		ret = mt_cleanup_run(ax->cleanup);
		ax->cleanup = -1;
		if (ret && !failed)
			failed = mt_msg_set(msg, ret, NULL, "%s: could not restore '%s': %s", ax->key,
				      ax->tun.saved, strerror(-ret));
	}
	return failed;
}

static int set_tunables(struct mt_sweep *sw, const size_t *vi, struct mt_msg *msg)
{
	for (size_t a = 0; a < sw->n_axes; a++) {
		struct axis *ax = &sw->axes[a];
		int ret;

		if (!ax->tunable)
			continue;
		ret = mt_tunable_set(&ax->tun, ax->values[vi[a]]);
		if (ret)
			return mt_msg_set(msg, ret, NULL, "%s: cannot write '%s': %s", ax->key,
				    ax->values[vi[a]], strerror(-ret));
	}
	return 0;
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

/* The work of a point, for the ETA: blocks touched over all its phases. */
static double work(const struct mt_config *cfg)
{
	return (double)(cfg->region / cfg->block) * (double)cfg->iterations *
	       (double)(cfg->passes + 1);
}

/* A finished point into the report, its swept parameters set. */
static int add_point(struct mt_sweep *sw, size_t p, struct mt_result *res, struct mt_report *rep)
{
	size_t ri, vi[MAX_AXES];
	int ret = 0;

	point_values(sw, p, &ri, vi);
	for (size_t a = 0; a < sw->n_axes && !ret; a++)
		ret = mt_result_set_param(res, sw->axes[a].key, sw->axes[a].values[vi[a]]);
	if (!ret)
		ret = mt_report_add(rep, res);
	if (ret)
		mt_result_destroy(res);
	return ret;
}

/*
 * --order interleaved or random: iteration 1 of every point, then
 * iteration 2 of every point, so that drift over the sweep is spread over
 * the points instead of being confounded with the variable. Every point's
 * run (workload, counters) is open at once, but the workload maps its
 * region per iteration and unmaps it before the next: one region is mapped
 * at a time, the largest within the guard as in a sequential sweep. The
 * iteration timestamps count from the sweep's start, so that the
 * alternation can be checked in the report.
 */
static int run_interleaved(struct mt_sweep *sw, struct mt_event *ev, size_t n_ev,
			   const struct mt_measure_opts *opts, struct mt_report *rep,
			   mt_sweep_point_fn point_done, void *arg, size_t *failed,
			   struct mt_mismatch *bad)
{
	size_t n = mt_sweep_points(sw), *order, rounds = 0;
	struct mt_measure_run **runs;
	struct mt_env_mark mark;
	uint64_t state = sw->base->seed;
	bool stopped = false;
	struct timespec t0;
	struct mt_msg msg;
	int ret = 0;

	runs = calloc(n, sizeof(*runs));
	order = calloc(n, sizeof(*order));
	if (!runs || !order) {
		ret = -ENOMEM;
		goto out;
	}
	if (opts->env_run)
		mt_env_mark(&mark);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (size_t p = 0; p < n; p++) {
		struct mt_config cfg;

		mt_sweep_point_config(sw, p, &cfg);
		/* With --ci-target each point stops on its own: rounds skip it. */
		if (cfg.warmup + mt_repeat_limit(&cfg) > rounds)
			rounds = cfg.warmup + mt_repeat_limit(&cfg);
		ret = mt_measure_run_create(&runs[p], &cfg, ev, n_ev, opts, &t0);
		if (ret) {
			*failed = p + 1;
			goto out;
		}
	}
	for (size_t k = 0; k < rounds && !stopped; k++) {
		mt_grid_round_order(order, n, sw->base->order, &state);
		for (size_t i = 0; i < n; i++) {
			size_t p = order[i], ri, vi[MAX_AXES];

			if (mt_measure_run_decide(runs[p]) != MT_STOP_NONE)
				continue;
			if (opts->stop && *opts->stop) {
				stopped = true;
				break;
			}
			point_values(sw, p, &ri, vi);
			ret = set_tunables(sw, vi, &msg);
			if (ret) {
				snprintf(bad->why, sizeof(bad->why), "%.127s", msg.text);
				*failed = p + 1;
				goto out;
			}
			if (opts->progress) {
				struct mt_progress pr = {
					.kind = MT_PROGRESS_POINT, .point = p + 1, .n_points = n,
					.region = sw->regions ? sw->regions[ri] : sw->base->region,
					.elapsed_s = seconds_since(&t0), .eta_s = -1,
				};

				opts->progress(opts->progress_arg, &pr);
			}
			ret = mt_measure_run_step(runs[p], bad);
			if (ret == -EINTR) {
				stopped = true;
				break;
			}
			if (ret) {
				*failed = p + 1;
				goto out;
			}
		}
	}
	/* Then each point's untimed evidence iteration and result, in point order. */
	for (size_t p = 0; p < n; p++) {
		struct mt_result *res = NULL;
		size_t ri, vi[MAX_AXES];

		point_values(sw, p, &ri, vi);
		ret = stopped ? 0 : set_tunables(sw, vi, &msg);
		if (ret) {
			snprintf(bad->why, sizeof(bad->why), "%.127s", msg.text);
			*failed = p + 1;
			goto out;
		}
		ret = mt_measure_run_finish(runs[p], stopped ? MT_STOP_INTERRUPTED :
					    mt_measure_run_decide(runs[p]), &res, bad);
		if (ret == -EINTR && !res) {
			ret = 0;
			continue;
		}
		if (ret && ret != -EINTR) {
			*failed = p + 1;
			goto out;
		}
		for (size_t e = 0; e < n_ev; e++)
			rep->user_only |= ev[e].user_only;
		ret = add_point(sw, p, res, rep);
		if (!ret && point_done)
			ret = point_done(arg, rep);
		if (ret)
			goto out;
	}
out:
	if (opts->env_run)
		mt_env_run_add(opts->env_run, &mark);
	for (size_t p = 0; runs && p < n; p++)
		mt_measure_run_destroy(runs[p]);
	free(runs);
	free(order);
	return ret;
}

/*
 * --vary pages over two values or more (the page-size matrix): the
 * first-touch roofline's calibration, once, before any point, on the
 * points' CPU, at the folio sizes the points ask for. Nothing of it runs
 * inside a point: its buffer is unmapped before the first one starts.
 */
static int calibrate(struct mt_sweep *sw, struct mt_report *rep)
{
	uint64_t folios[MAX_VALUES], llc = 0, page = (uint64_t)sysconf(_SC_PAGESIZE);
	const struct axis *ax = NULL;
	size_t n = 0;
	int ret;

	for (size_t a = 0; a < sw->n_axes; a++)
		if (!sw->axes[a].tunable && !strcmp(sw->axes[a].key, "pages"))
			ax = &sw->axes[a];
	if (!ax || ax->n < 2)
		return 0;
	for (size_t i = 0; i < ax->n; i++)
		folios[n++] = mt_config_folio(ax->values[i], page);
	/* the last level: the largest cache sysfs describes */
	for (unsigned int i = 0; i < rep->system.n_caches; i++)
		if (rep->system.caches[i].size > llc)
			llc = rep->system.caches[i].size;
	ret = mt_measure_pin(sw->base);
	return ret ? ret : mt_roofline_measure(&rep->roofline, folios, n, llc);
}

int mt_sweep_run(struct mt_sweep *sw, struct mt_event *ev, size_t n_ev,
		 const struct mt_measure_opts *opts, struct mt_report *rep,
		 mt_sweep_point_fn point_done, void *arg, size_t *failed,
		 struct mt_mismatch *bad)
{
	size_t n = mt_sweep_points(sw);
	struct mt_measure_opts o = *opts;
	double done = 0, total = 0;
	struct timespec t0;
	struct mt_msg msg;
	int ret = 0;

	*failed = 0;
	ret = calibrate(sw, rep);
	if (ret)
		return ret;
	if (sw->base->order != MT_ORDER_SEQUENTIAL)
		return run_interleaved(sw, ev, n_ev, opts, rep, point_done, arg, failed, bad);
	for (size_t p = 0; p < n; p++) {
		struct mt_config cfg;

		mt_sweep_point_config(sw, p, &cfg);
		total += work(&cfg);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	/* Every point's iteration timestamps from the sweep's start, as interleaved. */
	o.t0 = &t0;
	for (size_t p = 0; p < n && !(opts->stop && *opts->stop); p++) {
		size_t ri, vi[MAX_AXES];
		struct mt_result *res = NULL;
		struct mt_config cfg;

		point_values(sw, p, &ri, vi);
		mt_sweep_point_config(sw, p, &cfg);
		if (opts->progress) {
			double el = seconds_since(&t0);
			struct mt_progress pr = {
				.kind = MT_PROGRESS_POINT, .point = p + 1, .n_points = n,
				.region = cfg.region, .elapsed_s = el,
				.eta_s = done > 0 ? el * (total - done) / done : -1,
			};

			opts->progress(opts->progress_arg, &pr);
		}
		ret = set_tunables(sw, vi, &msg);
		if (ret) {
			snprintf(bad->why, sizeof(bad->why), "%.127s", msg.text);
			*failed = p + 1;
			return ret;
		}
		ret = mt_measure_stat(&cfg, ev, n_ev, &o, &res, bad);
		if (ret == -EINTR)
			return 0;
		if (ret) {
			*failed = p + 1;
			return ret;
		}
		for (size_t a = 0; a < sw->n_axes && !ret; a++)
			ret = mt_result_set_param(res, sw->axes[a].key, sw->axes[a].values[vi[a]]);
		if (!ret)
			ret = mt_report_add(rep, res);
		if (ret) {
			mt_result_destroy(res);
			return ret;
		}
		for (size_t e = 0; e < n_ev; e++)
			rep->user_only |= ev[e].user_only;
		done += work(&cfg);
		/* After every point: an interrupted sweep keeps what it finished. */
		if (point_done) {
			ret = point_done(arg, rep);
			if (ret)
				return ret;
		}
	}
	return 0;
}
