// SPDX-License-Identifier: MIT
/* memtlb run --vary: a command run under every column of a grid of tunables. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure/command.h"
#include "measure/rungrid.h"
#include "stats/stats.h"
#include "sys/cleanup.h"
#include "sys/sys.h"
#include "sys/sysinfo.h"
#include "sys/tunable.h"

struct mt_rungrid {
	const struct mt_grid *g;
	struct mt_tunable tun[MT_GRID_AXES_MAX];
	int cleanup[MT_GRID_AXES_MAX];	/* the registered restores, -1 none */
};

int mt_rungrid_create(struct mt_rungrid **out, const struct mt_grid *g, struct mt_msg *msg)
{
	struct mt_rungrid *rg = calloc(1, sizeof(*rg));
	char why[sizeof(msg->text)];

	if (!rg)
		return -ENOMEM;
	rg->g = g;
	for (size_t a = 0; a < MT_GRID_AXES_MAX; a++)
		rg->cleanup[a] = -1;
	for (size_t a = 0; a < g->n_axes; a++) {
		if (mt_tunable_init(&rg->tun[a], g->axes[a].key, msg)) {
			snprintf(why, sizeof(why), "%s", msg->text);
			mt_rungrid_destroy(rg);
			return mt_msg_set(msg, -EINVAL, "memtlb run --help lists the shorthands",
					  "--vary: %s", why);
		}
		for (size_t b = 0; b < a; b++) {
			if (!mt_tunable_same_file(&rg->tun[a], &rg->tun[b]))
				continue;
			mt_msg_set(msg, -EINVAL, "one --vary per tunable",
				   "--vary: %s and %s are the same file (%s)", g->axes[b].key,
				   g->axes[a].key, rg->tun[a].path);
			mt_rungrid_destroy(rg);
			return -EINVAL;
		}
	}
	*out = rg;
	return 0;
}

void mt_rungrid_destroy(struct mt_rungrid *rg)
{
	free(rg);
}

int mt_rungrid_check(struct mt_rungrid *rg, struct mt_msg *msg)
{
	for (size_t a = 0; a < rg->g->n_axes; a++) {
		const struct mt_grid_axis *ax = &rg->g->axes[a];
		int ret = mt_tunable_save(&rg->tun[a]);

		if (ret)
			return mt_tunable_save_error(&rg->tun[a], ret, msg);
		for (size_t v = 0; !ret && v < ax->n; v++)
			ret = mt_tunable_check_value(&rg->tun[a], ax->values[v], msg);
		if (ret)
			return ret;
	}
	return 0;
}

/* The saved value's index among the axis' values (no write needed), else SIZE_MAX. */
static size_t current_index(const struct mt_grid_axis *ax, const struct mt_tunable *t)
{
	size_t len = strcspn(t->saved, "\n");

	for (size_t v = 0; v < ax->n; v++)
		if (strlen(ax->values[v]) == len && !strncmp(ax->values[v], t->saved, len))
			return v;
	return SIZE_MAX;
}

/* Each tunable saved registered for its restore, before any is written. */
static int register_restores(struct mt_rungrid *rg, struct mt_msg *msg)
{
	int ret = mt_cleanup_init();

	if (ret)
		return mt_msg_set(msg, ret, NULL, "--vary: %s", strerror(-ret));
	for (size_t a = 0; a < rg->g->n_axes; a++) {
		ret = mt_cleanup_add_restore(rg->tun[a].path, rg->tun[a].saved);
		if (ret < 0)
			return mt_msg_set(msg, ret, NULL, "--vary: %s: %s", rg->g->axes[a].key,
					  strerror(-ret));
		rg->cleanup[a] = ret;
	}
	return 0;
}

/* The per-column runs being gathered: raw counts, as mt_measure_run takes them. */
struct column {
	struct mt_samples *s;	/* repeat iterations; the first ok of them filled */
	unsigned int ok;
};

static void add_run(struct column *col, const struct mt_counts *counts, uint64_t time_ns,
		    size_t n_ev)
{
	*mt_samples_time(col->s, 0, col->ok) = time_ns;
	for (size_t e = 0; e < n_ev; e++)
		*mt_samples_counts(col->s, 0, (unsigned int)e, col->ok) = counts[e];
	col->ok++;
}

/* A column's result: its ok runs summarised, its tunables' values its parameters. */
static int column_result(const struct mt_rungrid *rg, size_t c, const struct column *col,
			 const struct mt_event *used, size_t n_ev, int hw_counters,
			 struct mt_report *rep)
{
	struct mt_samples *s = NULL;
	struct mt_result *res = NULL;
	size_t vi[MT_GRID_AXES_MAX];
	int ret;

	ret = mt_samples_head(&s, col->s, col->ok);
	if (ret)
		return ret;
	ret = mt_result_from_samples(&res, s, used, 0, 0, 0);
	mt_samples_destroy(s);
	if (ret)
		return ret;
	for (size_t e = 0; e < n_ev; e++)
		snprintf(res->events[e].reason, sizeof(res->events[e].reason), "%s",
			 used[e].err ? mt_event_reason(&used[e], hw_counters) : "");
	mt_grid_column(rg->g, c, vi);
	for (size_t a = 0; !ret && a < rg->g->n_axes; a++)
		ret = mt_result_set_param(res, rg->g->axes[a].key,
					  rg->g->axes[a].values[vi[a]]);
	if (!ret)
		ret = mt_report_add(rep, res);
	if (ret)
		mt_result_destroy(res);
	return ret;
}

/* What the report says of the grid: its order, its tunables and what they were. */
static int grid_info(const struct mt_rungrid *rg, const struct mt_rungrid_opts *o,
		     struct mt_report *rep)
{
	struct mt_run_grid *gi = calloc(1, sizeof(*gi));

	if (!gi)
		return -ENOMEM;
	gi->order = o->order;
	gi->seed = o->seed;
	gi->repeat = o->repeat;
	gi->n_tunables = (unsigned int)rg->g->n_axes;
	gi->n_columns = (unsigned int)mt_grid_columns(rg->g);
	for (size_t a = 0; a < rg->g->n_axes; a++) {
		struct mt_run_tunable *t = &gi->tunables[a];

		snprintf(t->key, sizeof(t->key), "%s", rg->g->axes[a].key);
		snprintf(t->path, sizeof(t->path), "%s", rg->tun[a].path);
		snprintf(t->original, sizeof(t->original), "%.*s",
			 (int)strcspn(rg->tun[a].saved, "\n"), rg->tun[a].saved);
	}
	free(rep->grid);
	rep->grid = gi;
	return 0;
}

/* The column's values, those not set already, each written: 0 or -errno with msg. */
static int set_column(struct mt_rungrid *rg, size_t c, size_t *cur, struct mt_msg *msg)
{
	size_t vi[MT_GRID_AXES_MAX];

	mt_grid_column(rg->g, c, vi);
	for (size_t a = 0; a < rg->g->n_axes; a++) {
		const char *v = rg->g->axes[a].values[vi[a]];
		int ret;

		if (cur[a] == vi[a])
			continue;
		ret = mt_tunable_set(&rg->tun[a], v);
		if (ret)
			return mt_msg_set(msg, ret, NULL, "--vary: %s: the kernel refused '%s': %s",
					  rg->g->axes[a].key, v, strerror(-ret));
		cur[a] = vi[a];
	}
	return 0;
}

int mt_rungrid_run(struct mt_rungrid *rg, char *const argv[], const struct mt_event *ev,
		   size_t n_ev, const struct mt_rungrid_opts *o, struct mt_report *rep,
		   struct mt_rungrid_outcome *oc, struct mt_msg *msg)
{
	size_t n_cols = mt_grid_columns(rg->g), n_runs = n_cols * o->repeat, *sched;
	size_t cur[MT_GRID_AXES_MAX];
	struct mt_counts *last = NULL;
	struct mt_event *used = NULL;
	struct column *cols;
	uint64_t last_ns = 0;
	struct mt_run_opts ro = { 0 };
	int ret;

	memset(oc, 0, sizeof(*oc));
	mt_msg_clear(msg);
	sched = calloc(n_runs, sizeof(*sched));
	cols = calloc(n_cols, sizeof(*cols));
	last = calloc(n_ev + 1, sizeof(*last));
	used = calloc(n_ev + 1, sizeof(*used));
	ret = sched && cols && last && used ? grid_info(rg, o, rep) : -ENOMEM;
	if (!ret)
		ret = mt_grid_schedule(n_cols, o->repeat, o->order, o->seed, sched);
	for (size_t c = 0; !ret && c < n_cols; c++) {
		ret = mt_samples_create(&cols[c].s, 1, o->repeat, (unsigned int)n_ev);
		if (!ret)
			snprintf(cols[c].s->phase_names[0], sizeof(cols[c].s->phase_names[0]),
				 "command");
	}
	if (!ret)
		ret = register_restores(rg, msg);
	if (ret)
		goto out;
	for (size_t a = 0; a < rg->g->n_axes; a++)
		cur[a] = current_index(&rg->g->axes[a], &rg->tun[a]);
	ro.last_counts = last;
	ro.last_time_ns = &last_ns;
	for (size_t k = 0; k < n_runs; k++) {
		size_t c = sched[k];
		struct mt_result *res = NULL;
		struct mt_run_outcome ro1;

		if (o->stop && *o->stop) {
			oc->signal = (int)*o->stop;
			break;
		}
		ret = set_column(rg, c, cur, msg);
		if (ret)
			goto out;
		ret = mt_measure_run(argv, 1, ev, n_ev, o->hw_counters, &ro, &res, &ro1, used);
		mt_result_destroy(res);
		if (ret == -ECHILD && ro1.signal) {
			/* signalled before the command started: nothing of this run */
			oc->signal = ro1.signal;
			ret = 0;
			break;
		}
		if (!ret && ro1.exec_errno) {
			oc->exec_errno = ro1.exec_errno;
			goto out;
		}
		if (ret)
			goto out;
		/*
		 * memtlb's own SIGTERM or SIGHUP (passed on), or ^C that ended
		 * the command: the study stops, the run cut short left out.
		 */
		if (ro1.signal || ro1.status == 128 + SIGINT || ro1.status == 128 + SIGQUIT) {
			oc->signal = ro1.signal ? ro1.signal : ro1.status - 128;
			break;
		}
		oc->runs++;
		for (size_t e = 0; e < n_ev; e++)
			rep->user_only |= used[e].user_only;
		if (!ro1.status) {
			add_run(&cols[c], last, last_ns, n_ev);
		} else {
			rep->grid->columns[c].failed++;
			rep->grid->columns[c].exit_status = ro1.status;
			rep->exit_status = ro1.status;
		}
	}
	rep->runs = oc->runs;
	rep->repeats = (unsigned int)n_runs;
	for (size_t c = 0; !ret && c < n_cols; c++)
		ret = column_result(rg, c, &cols[c], used, n_ev, o->hw_counters, rep);
out:
	for (size_t c = 0; cols && c < n_cols; c++)
		mt_samples_destroy(cols[c].s);
	free(cols);
	free(sched);
	free(last);
	free(used);
	return ret;
}

int mt_rungrid_restore(struct mt_rungrid *rg, struct mt_msg *msg)
{
	int failed = 0;

	for (size_t a = 0; a < rg->g->n_axes; a++) {
		int ret;

		if (rg->cleanup[a] < 0)
			continue;
		ret = mt_cleanup_run(rg->cleanup[a]);
		rg->cleanup[a] = -1;
		if (ret && !failed)
			failed = mt_msg_set(msg, ret, NULL, "--vary: %s: could not restore '%s': %s",
					    rg->g->axes[a].key, rg->tun[a].saved, strerror(-ret));
	}
	return failed;
}
