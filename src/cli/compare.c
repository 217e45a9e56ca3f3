// SPDX-License-Identifier: MIT
/* memtlb compare: reports side by side, with significance, for people and CI. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd.h"
#include "cli/log.h"
#include "report/compare.h"
#include "report/json.h"
#include "stats/compare.h"

static const struct option cmdopts[] = {
	{ "fail-above", required_argument, NULL, 'F' },
	{ "format", required_argument, NULL, 'f' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void help(void)
{
	printf("Usage: memtlb compare [options] BASE.json NEW.json [MORE.json...]\n"
	       "Compare reports with the first: change per metric, significance, summary.\n\n"
	       "  --fail-above PCT         exit 1 when a significant regression exceeds PCT%%\n"
	       "  --format FMT             text (default), markdown, csv or json\n"
	       "  -h, --help               this text\n");
}

/* "5", "5%", "2.5": a percentage, finite and not negative. */
static int parse_pct(const char *s, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	if (end == s || errno || !isfinite(*out) || *out < 0)
		return -EINVAL;
	if (*end == '%')
		end++;
	return *end ? -EINVAL : 0;
}

static int load_all(int n, char *files[], struct mt_report **reps)
{
	char msg[256];

	for (int i = 0; i < n; i++) {
		int ret = mt_report_load(files[i], &reps[i], msg, sizeof(msg));

		if (ret == -EPROTO) {
			mt_err("%s: %s", files[i], msg);
			mt_hint("compare reports written by the same memtlb schema, or rerun "
				"the older measurement");
		} else if (ret == -EINVAL) {
			mt_err("%s: %s", files[i], msg);
		} else if (ret) {
			mt_err("%s: %s", files[i], strerror(-ret));
		}
		if (ret)
			return MT_EXIT_USAGE;
	}
	return 0;
}

/* Each metric over the gate, so that a failing CI job says which one. */
static void name_regressions(const struct mt_comparison *cmp, double above)
{
	char point[512], phase[64], metric[300], file[1024];

	for (size_t k = 0; k < cmp->n_rows; k++) {
		const struct mt_cmp_row *r = &cmp->rows[k];

		for (unsigned int i = 1; i < cmp->n_inputs; i++) {
			double c = mt_compare_gated(r, i);

			if (c <= above)
				continue;
			mt_compare_escape(point, sizeof(point),
					  r->point[0] ? r->point : "(no parameters)");
			mt_compare_escape(phase, sizeof(phase), r->phase);
			mt_compare_escape(metric, sizeof(metric), r->metric);
			mt_compare_escape(file, sizeof(file), cmp->files[i]);
			mt_err("compare: %s: %s.%s: %+.1f%% in %s", point, phase, metric, c, file);
		}
	}
}

static int cmd_compare(int argc, char *argv[])
{
	enum mt_compare_format fmt = MT_COMPARE_TEXT;
	struct mt_report *reps[MT_COMPARE_MAX_INPUTS] = { 0 };
	struct mt_comparison *cmp = NULL;
	double fail_above = -1.0, worst;
	static const char *const formats[] = {
		[MT_COMPARE_TEXT] = "text", [MT_COMPARE_MARKDOWN] = "markdown",
		[MT_COMPARE_CSV] = "csv", [MT_COMPARE_JSON] = "json",
	};
	int c, n, ret, v;

	opterr = 0;
	/*
	 * 0, not 1: glibc reinitialises (main parsed with "+"), and without "+"
	 * here options may follow the files (memtlb compare a.json b.json --format csv).
	 */
	optind = 0;
	while ((c = getopt_long(argc, argv, ":h", cmdopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			help();
			return MT_EXIT_OK;
		case 'F':
			if (parse_pct(optarg, &fail_above)) {
				mt_err("--fail-above: %s: not a percentage", optarg);
				mt_hint("give it as 5 or 5%%");
				return MT_EXIT_USAGE;
			}
			break;
		case 'f':
			ret = mt_cli_choose("--format", optarg, formats, 4, &v);
			if (ret)
				return ret;
			fmt = (enum mt_compare_format)v;
			break;
		default:
			return mt_cli_getopt_error("compare", c, argv);
		}
	}
	n = argc - optind;
	if (n < 2 || n > MT_COMPARE_MAX_INPUTS) {
		mt_err("compare: %s", n < 2 ? "needs a base and at least one other report"
					    : "too many reports (at most 16)");
		mt_hint("memtlb compare BASE.json NEW.json [MORE.json...]");
		return MT_EXIT_USAGE;
	}
	ret = load_all(n, argv + optind, reps);
	if (ret)
		goto out;
	ret = mt_compare_create(&cmp, (const struct mt_report *const *)reps,
				(const char *const *)argv + optind, n);
	if (ret) {
		mt_err("compare: %s", strerror(-ret));
		ret = MT_EXIT_FAILURE;
		goto out;
	}
	/* Warnings go with the table; machine formats carry them too, stderr says so. */
	if (fmt == MT_COMPARE_CSV)
		for (size_t k = 0; k < cmp->n_warnings; k++)
			mt_warn("%s", cmp->warnings[k]);
	ret = mt_compare_print(stdout, cmp, fmt);
	if (ret) {
		mt_err("stdout: %s", strerror(-ret));
		ret = MT_EXIT_FAILURE;
		goto out;
	}
	worst = mt_compare_worst(cmp);
	if (fail_above >= 0 && worst > fail_above) {
		name_regressions(cmp, fail_above);
		mt_err("compare: significant regression of %+.1f%%, above %g%%", worst, fail_above);
		ret = MT_EXIT_FAILURE;
	}
out:
	mt_compare_destroy(cmp);
	for (int i = 0; i < n && i < MT_COMPARE_MAX_INPUTS; i++)
		mt_report_destroy(reps[i]);
	return ret;
}

const struct mt_cmd mt_cmd_compare = {
	.name = "compare",
	.fn = cmd_compare,
	.help = "compare reports across kernels, with significance",
};
