// SPDX-License-Identifier: MIT
/*
 * memtlb bisect-run: is the running kernel (or a saved measurement) good or
 * bad against a baseline report, for git bisect run. Parses, loads, calls
 * the sequential test (stats/bisect) on the measurement (measure/candidate)
 * and says the verdict in one line; every exit code is git's (cli/cmd.h).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd.h"
#include "cli/log.h"
#include "measure/candidate.h"
#include "model/report.h"
#include "stats/bisect.h"
#include "stats/ci.h"
#include "stats/compare.h"
#include "stats/stats.h"
#include "sys/emulation.h"

enum { OPT_BASELINE = MT_OPT_FIRST_FREE, OPT_THRESHOLD, OPT_METRIC, OPT_FROM, OPT_MAX_RUNS };

static const struct option cmdopts[] = {
	{ "baseline", required_argument, NULL, OPT_BASELINE },
	{ "threshold", required_argument, NULL, OPT_THRESHOLD },
	{ "metric", required_argument, NULL, OPT_METRIC },
	{ "from", required_argument, NULL, OPT_FROM },
	{ "max-runs", required_argument, NULL, OPT_MAX_RUNS },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void help(void)
{
	printf("Usage: memtlb bisect-run --baseline GOOD.json [options]\n"
	       "Measure this kernel as the baseline was measured; exit 0 good, 1 bad,\n"
	       "125 undecided (git bisect run's skip), 128 bad input (its abort).\n\n"
	       "  --baseline FILE          the good kernel's stat report (required)\n"
	       "  --threshold PCT          a change worse than PCT%% is bad (default %g)\n"
	       "  --metric PHASE:FIELD     what is judged (default: the report's phase,\n"
	       "                           ns_per_block; counts on an emulated CPU)\n"
	       "  --max-runs N             the most repetitions measured (default %d)\n"
	       "  --from FILE              judge a saved stat report, its first runs\n"
	       "  -h, --help               this text\n",
	       MT_COMPARE_NOISE_PCT, MT_BISECT_MAX_RUNS);
}

struct job {
	const char *baseline, *from, *metric;
	struct mt_bisect_rule rule;
	struct mt_report *base, *cand;
	bool emulated;
	char phase[MT_PHASE_NAME_MAX];
	char field[MT_EVENT_NAME_MAX];
	double *base_x;		/* the baseline's samples, what each look judges against */
	struct mt_bisect_array base_a;
};

/* A report bisect-run can judge: a stat report of one point. */
static int one_point(const char *path, const struct mt_report *rep)
{
	if (rep->n_results == 1)
		return 0;
	mt_err("%s: %zu points: bisect-run judges one", path, rep->n_results);
	mt_hint("give a memtlb stat report (-o FILE)");
	return MT_EXIT_USAGE;
}

/* The metric, asked or the default, and the baseline's samples of it, checked. */
static int metric_check(struct job *j)
{
	const struct mt_result *r = j->base->results[0];
	double *x = NULL, mean, half;
	struct mt_summary s;
	size_t n = 0;
	int ret;

	if (j->metric) {
		const char *colon = strchr(j->metric, ':');

		/* at the first colon: a phase has none, an event may (EVENT:UMASK) */
		if (!colon || colon == j->metric || !colon[1] ||
		    (size_t)(colon - j->metric) >= sizeof(j->phase)) {
			mt_err("--metric: %s: not PHASE:FIELD", j->metric);
			mt_hint("e.g. --metric read_4:ns_per_block or write_0:minor-faults");
			return MT_EXIT_USAGE;
		}
		snprintf(j->phase, sizeof(j->phase), "%.*s", (int)(colon - j->metric), j->metric);
		snprintf(j->field, sizeof(j->field), "%s", colon + 1);
	} else if (mt_bisect_default_metric(j->base, j->emulated, j->phase, sizeof(j->phase),
					    j->field, sizeof(j->field))) {
		mt_err("%s: no metric to judge%s", j->baseline,
		       j->emulated ? ": no count kept that is not 0" : ": no read pass");
		mt_hint("name one with --metric PHASE:FIELD");
		return MT_EXIT_USAGE;
	}
	if (j->emulated && mt_bisect_is_time(j->field)) {
		mt_err("--metric: %s:%s: a time, on an emulated CPU", j->phase, j->field);
		mt_hint("its times are qemu's, not the kernel's: judge a count, "
			"e.g. write_0:minor-faults");
		return MT_EXIT_USAGE;
	}
	ret = mt_bisect_samples(r, j->phase, j->field, &x, &n);
	if (ret == -ENOMEM)
		return mt_cli_fail("bisect-run", ret);
	if (!ret && n >= 2) {
		mt_stats_summarize(x, n, &s);
		ret = mt_ci_mean95(x, n, &mean, &half);
	}
	if (ret == -ENOENT) {
		mt_err("--metric: %s:%s: not in %s", j->phase, j->field, j->baseline);
		mt_hint("a phase of the report, and ns_per_block, time_us or an event");
	} else if (ret || n < 2) {
		mt_err("%s: %s:%s: %s", j->baseline, j->phase, j->field,
		       ret ? "no samples kept" : "fewer than 2 samples");
		mt_hint("a stat report of 2 or more iterations; ns_per_block, time_us "
			"or a counted event");
	} else if (fabs(half) >= fabs(mean) || s.median == 0.0) {
		/*
		 * 0 or a base whose own interval holds 0: no percentage means
		 * anything; the change is in percent of the median, which must
		 * not be 0 either
		 */
		mt_err("%s: %s:%s: %s %g, not clear of 0: no change in %% to judge",
		       j->baseline, j->phase, j->field, s.median == 0.0 ? "median" : "mean",
		       s.median == 0.0 ? 0.0 : mean);
		mt_hint("judge a metric the baseline measured above 0, with --metric");
	} else {
		j->base_x = x;
		j->base_a = (struct mt_bisect_array){ x, n };
		return 0;
	}
	free(x);
	return MT_EXIT_USAGE;
}

static int decide(struct job *j, mt_bisect_more_fn more, void *arg,
		  struct mt_bisect_decision *d)
{
	int ret = mt_bisect_decide(&j->rule, &j->base_a, more, arg, d);

	if (ret == -ENOMEM)
		return mt_cli_fail("bisect-run", ret);
	return ret;
}

/*
 * A saved report measured otherwise than the baseline (another region,
 * other pages, another machine) judges something else: compare's
 * warnings, one a difference, before the verdict.
 */
static int warn_unlike(struct job *j)
{
	const struct mt_report *reps[2] = { j->base, j->cand };
	const char *files[2] = { j->baseline, j->from };
	struct mt_comparison *cmp;
	int ret;

	/* how many it holds is what --from is for: not a difference */
	j->cand->config.iterations = j->base->config.iterations;
	ret = mt_compare_create(&cmp, reps, files, 2);
	if (ret)
		return mt_cli_fail("bisect-run", ret);
	for (size_t k = 0; k < cmp->n_warnings; k++)
		mt_warn("%s", cmp->warnings[k]);
	mt_compare_destroy(cmp);
	return 0;
}

/* --from: the saved report's first repetitions, as many as the test asks. */
static int judge_saved(struct job *j, struct mt_bisect_decision *d)
{
	struct mt_bisect_array a = { 0 };
	double *x = NULL;
	int ret;

	ret = mt_cli_report_load(j->from, &j->cand);
	if (!ret)
		ret = one_point(j->from, j->cand);
	if (ret)
		return ret;
	ret = warn_unlike(j);
	if (ret)
		return ret;
	if (mt_emulation_maybe(&j->cand->system.emulation) && !j->emulated) {
		j->emulated = true;
		if (mt_bisect_is_time(j->field)) {
			mt_err("%s: an emulated CPU: its times are qemu's", j->from);
			mt_hint("judge a count with --metric PHASE:EVENT");
			return MT_EXIT_USAGE;
		}
	}
	ret = mt_bisect_samples(j->cand->results[0], j->phase, j->field, &x, &a.n);
	if (ret == -ENOMEM)
		return mt_cli_fail("bisect-run", ret);
	if (ret || !a.n) {
		mt_err("%s: %s:%s: %s", j->from, j->phase, j->field,
		       ret == -ENOENT ? "not in the report" : "no samples kept");
		mt_hint("a stat report of the baseline's configuration");
		free(x);
		return MT_EXIT_USAGE;
	}
	a.x = x;
	ret = decide(j, mt_bisect_array_more, &a, d);
	free(x);
	return ret;
}

/* This kernel, as the baseline's config says: checked, resolved, measured. */
static int judge_live(struct job *j, struct mt_bisect_decision *d)
{
	struct mt_config cfg = j->base->config;
	struct mt_measure_opts mopts = { 0 };
	struct mt_mismatch bad = { 0 };
	struct mt_candidate *c = NULL;
	struct mt_emulation em;
	struct mt_event *ev = NULL;
	size_t n_ev = 0;
	int ret;

	mt_emulation_detect(&em);
	if (mt_emulation_maybe(&em) && mt_bisect_is_time(j->field)) {
		mt_err("bisect-run: %s:%s: a time, on an emulated CPU (%s)", j->phase, j->field,
		       em.evidence);
		mt_hint("its times are qemu's, not the kernel's: judge a count with --metric");
		return MT_EXIT_USAGE;
	}
	/* one process, nothing written: the verdict is the output */
	cfg.runs = 0;
	cfg.output = NULL;
	ret = mt_cli_config_check(&cfg);
	if (!ret)
		ret = mt_cli_resolve_events(&cfg, &ev, &n_ev);
	if (ret)
		return ret;
	ret = mt_candidate_create(&c, &cfg, ev, n_ev, &mopts, j->phase, j->field,
				  j->rule.max_runs, &bad);
	if (!ret) {
		ret = decide(j, mt_candidate_more, c, d);
		if (ret < 0) {
			/* this kernel could not be measured: no verdict on it */
			mt_cli_measure_error("bisect-run", ret, &bad);
			ret = MT_EXIT_BISECT_SKIP;
		}
	} else {
		ret = mt_cli_fail("bisect-run", ret);
	}
	mt_candidate_destroy(c);
	free(ev);
	return ret;
}

/* How the bounds stand to the threshold: the verdict's reason. */
static const char *const verdict_sign[MT_BISECT_VERDICT_MAX] = {
	[MT_BISECT_GOOD] = "<=",
	[MT_BISECT_BAD] = ">",
	[MT_BISECT_UNDECIDED] = "vs",
};

/*
 * One line, within 80 columns for the default metric: the verdict, the
 * change and its bounds against the threshold, the repetitions used. Each
 * bound holds with 95% over all the looks (stats/bisect.c), the pair
 * with 90%: "bounds", not a "95% CI", which would claim the pair's.
 */
static void say(const struct job *j, const struct mt_bisect_decision *d)
{
	char ci[64] = " (no 95% bounds yet)";

	if (d->have_ci)
		snprintf(ci, sizeof(ci), " (95%% bounds %+.1f..%+.1f) %s %g%%", d->ci_low,
			 d->ci_high, verdict_sign[d->verdict], j->rule.threshold_pct);
	fprintf(stderr, "memtlb: %s: %s:%s %+.1f%%%s, n=%zu\n",
		mt_bisect_verdict_name(d->verdict), j->phase, j->field, d->change, ci, d->n);
}

/* 0 with *d the decision, or an exit code: bad input, a failure, a skip. */
static int run(struct job *j, struct mt_bisect_decision *d)
{
	int ret;

	ret = mt_cli_report_load(j->baseline, &j->base);
	if (!ret)
		ret = one_point(j->baseline, j->base);
	if (ret)
		return ret;
	j->emulated = mt_emulation_maybe(&j->base->system.emulation);
	ret = metric_check(j);
	if (ret)
		return ret;
	return j->from ? judge_saved(j, d) : judge_live(j, d);
}

static int parse(struct job *j, int argc, char *argv[])
{
	unsigned long max;
	int c, ret;

	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, ":h", cmdopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			help();
			return -1;
		case OPT_BASELINE:
			j->baseline = optarg;
			break;
		case OPT_FROM:
			j->from = optarg;
			break;
		case OPT_METRIC:
			j->metric = optarg;
			break;
		case OPT_THRESHOLD:
			if (mt_cli_pct_parse(optarg, &j->rule.threshold_pct)) {
				mt_err("--threshold: %s: not a percentage", optarg);
				mt_hint("give it as 2.5 or 2.5%%: a change above it is bad");
				return MT_EXIT_USAGE;
			}
			break;
		case OPT_MAX_RUNS:
			ret = mt_cli_count_opt("--max-runs", optarg, &max);
			if (ret)
				return ret;
			if (max < MT_BISECT_FIRST_LOOK) {
				mt_err("--max-runs: %lu: fewer than the first look's %d", max,
				       MT_BISECT_FIRST_LOOK);
				return MT_EXIT_USAGE;
			}
			j->rule.max_runs = max;
			break;
		default:
			return mt_cli_getopt_fail("bisect-run", c, argc, argv, cmdopts);
		}
	}
	if (optind < argc) {
		mt_err("bisect-run: unexpected argument '%s'", argv[optind]);
		mt_hint("memtlb bisect-run --help lists the options");
		return MT_EXIT_USAGE;
	}
	if (!j->baseline) {
		mt_err("bisect-run: no --baseline");
		mt_hint("memtlb bisect-run --baseline GOOD.json (memtlb stat -o GOOD.json)");
		return MT_EXIT_USAGE;
	}
	return 0;
}

static int cmd_bisect_run(int argc, char *argv[])
{
	struct job j = {
		.rule = { .threshold_pct = MT_COMPARE_NOISE_PCT, .worse = 1,
			  .max_runs = MT_BISECT_MAX_RUNS },
	};
	struct mt_bisect_decision d;
	int ret = parse(&j, argc, argv);

	if (ret < 0)
		return MT_EXIT_OK;	/* --help */
	if (!ret)
		ret = run(&j, &d);
	if (!ret)
		say(&j, &d);
	mt_report_destroy(j.base);
	mt_report_destroy(j.cand);
	free(j.base_x);
	/*
	 * Whatever stopped memtlb before a verdict must stop the bisection, not
	 * mark the commit: bad input and failures to start are git's abort.
	 */
	if (ret == MT_EXIT_USAGE || ret == MT_EXIT_FAILURE)
		return MT_EXIT_BISECT_ABORT;
	if (ret)
		return ret;
	switch (d.verdict) {
	case MT_BISECT_GOOD:
		return MT_EXIT_OK;
	case MT_BISECT_BAD:
		return MT_EXIT_BISECT_BAD;
	default:
		return MT_EXIT_BISECT_SKIP;
	}
}

const struct mt_cmd mt_cmd_bisect_run = {
	.name = "bisect-run",
	.fn = cmd_bisect_run,
	.help = "exit 0, 1 or 125 for git bisect run, against a baseline",
};
