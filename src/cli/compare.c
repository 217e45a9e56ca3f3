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
#include "cli/sink.h"
#include "report/compare.h"
#include "report/json.h"
#include "stats/compare.h"

static const struct option cmdopts[] = {
	{ "explain", no_argument, NULL, 'E' },
	{ "fail-above", required_argument, NULL, 'F' },
	{ "format", required_argument, NULL, 'f' },
	{ "help", no_argument, NULL, 'h' },
	{ "noise", required_argument, NULL, 'N' },
	{ "output", required_argument, NULL, 'o' },
	{ "test", required_argument, NULL, 'T' },
	{ "wide", no_argument, NULL, 'w' },
	{ NULL, 0, NULL, 0 },
};

static void help(void)
{
	printf("Usage: memtlb compare [options] BASE.json NEW.json [MORE.json...]\n"
	       "Compare reports with the first: change per metric, significance, summary.\n\n"
	       "  --explain                each changed ns/block cut into its causes\n"
	       "  --fail-above PCT         exit 1 when a regression exceeds PCT%%\n"
	       "  --format FMT             text (default), markdown, html, csv or json\n"
	       "  -h, --help               this text\n"
	       "  --noise PCT              changes within PCT%% are noise (default 1)\n"
	       "  -o, --output FILE        the comparison as JSON to FILE (- stdout)\n"
	       "  --test TEST              welch (default) or mwu (Mann-Whitney U)\n"
	       "  --wide                   also the rows no input counted\n");
}

static int load_all(int n, char *files[], struct mt_report **reps)
{
	for (int i = 0; i < n; i++) {
		int ret = mt_cli_report_load(files[i], &reps[i]);

		if (ret)
			return ret;
	}
	return 0;
}

struct view {
	const struct mt_comparison *cmp;
	const struct mt_explanation *ex;	/* --explain, else NULL */
	enum mt_format fmt;
	bool wide;
};

static int print_json(FILE *f, const void *arg)
{
	const struct view *v = arg;

	return mt_compare_print_explained(f, v->cmp, v->ex, MT_FORMAT_JSON, false);
}

static int print_view(FILE *f, const void *arg)
{
	const struct view *v = arg;

	return mt_compare_print_explained(f, v->cmp, v->ex, v->fmt, v->wide);
}

/* -o must not replace an input: checked before anything is read. */
static int check_output(const char *output, int n, char *files[])
{
	int ret = mt_cli_output_check(output);

	return ret ? ret : mt_cli_output_not_input(output, (const char *const *)files,
						   (size_t)n);
}

/* Each metric over the gate, so that a failing CI job says which one. */
/*
 * Whether row r's regression on input i is past the gate: with --explain,
 * a phase's time (its ns per block, and the time it is made of) is the
 * explanation's verdict (a FAIL, which holds past Holm's correction over
 * the phases), so that the exit status says what the verdict lines say;
 * every other metric is compare's own.
 */
static bool gated(const struct mt_explanation *ex, const struct mt_cmp_row *r, unsigned int i,
		  double above)
{
	if (mt_compare_gated(r, i) <= above)
		return false;
	if (!ex || (r->family != MT_FAMILY_TIME &&
		    strcmp(r->metric, mt_derived_name(MT_DERIVED_NS_PER_BLOCK))))
		return true;
	for (size_t e = 0; e < ex->n; e++)
		if (ex->items[e].input == i && ex->items[e].point == r->point &&
		    !strcmp(ex->items[e].phase, r->phase))
			return ex->items[e].fail;
	return false;
}

/* The largest gated regression, each named on stderr when say. */
static double regressions(const struct mt_comparison *cmp, const struct mt_explanation *ex,
			  double above, bool say)
{
	char point[512], phase[64], metric[300], file[1024];
	double worst = 0.0;

	for (size_t k = 0; k < cmp->n_rows; k++) {
		const struct mt_cmp_row *r = &cmp->rows[k];

		for (unsigned int i = 1; i < cmp->n_inputs; i++) {
			double c = mt_compare_gated(r, i);

			if (!gated(ex, r, i, above))
				continue;
			worst = fmax(worst, c);
			if (!say)
				continue;
			mt_compare_escape(point, sizeof(point),
					  r->point[0] ? r->point : "(no parameters)");
			mt_compare_escape(phase, sizeof(phase), r->phase);
			mt_compare_escape(metric, sizeof(metric), r->metric);
			mt_compare_escape(file, sizeof(file), cmp->files[i]);
			mt_err("compare: %s: %s.%s: %+.1f%% in %s", point, phase, metric, c, file);
		}
	}
	return worst;
}

static int cmd_compare(int argc, char *argv[])
{
	struct mt_compare_opts opts = { .noise_pct = MT_COMPARE_NOISE_PCT };
	enum mt_format fmt = MT_FORMAT_TEXT;
	struct mt_report *reps[MT_COMPARE_MAX_INPUTS] = { 0 };
	const char *tests[MT_COMPARE_TEST_MAX];
	struct mt_comparison *cmp = NULL;
	struct mt_explanation *ex = NULL;
	struct view view;
	double fail_above = -1.0, worst;
	const char *output = NULL;
	bool wide = false, explain = false;
	int c, n, ret, v;

	for (int i = 0; i < MT_COMPARE_TEST_MAX; i++)
		tests[i] = mt_compare_test_name(i);

	opterr = 0;
	/*
	 * 0, not 1: glibc reinitialises (main parsed with "+"), and without "+"
	 * here options may follow the files (memtlb compare a.json b.json --format csv).
	 */
	optind = 0;
	while ((c = getopt_long(argc, argv, ":ho:", cmdopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			help();
			return MT_EXIT_OK;
		case 'E':
			explain = true;
			break;
		case 'F':
			if (mt_cli_pct_parse(optarg, &fail_above)) {
				mt_err("--fail-above: %s: not a percentage", optarg);
				mt_hint("give it as 5 or 5%%");
				return MT_EXIT_USAGE;
			}
			break;
		case 'f':
			ret = mt_cli_format_opt(optarg, MT_FORMATS_COMPARE, &fmt);
			if (ret)
				return ret;
			break;
		case 'N':
			if (mt_cli_pct_parse(optarg, &opts.noise_pct)) {
				mt_err("--noise: %s: not a percentage", optarg);
				mt_hint("give it as 1 or 1%%; 0 calls every significant change");
				return MT_EXIT_USAGE;
			}
			break;
		case 'o':
			output = optarg;
			break;
		case 'T':
			ret = mt_cli_choose("--test", optarg, tests, MT_COMPARE_TEST_MAX, &v);
			if (ret)
				return ret;
			opts.test = (enum mt_compare_test)v;
			break;
		case 'w':
			wide = true;
			break;
		default:
			return mt_cli_getopt_error("compare", c, argv);
		}
	}
	n = argc - optind;
	if (n < 2 || n > MT_COMPARE_MAX_INPUTS) {
		mt_err("compare: %s", n < 2 ? "needs a base and at least one other report"
					    : "too many reports (at most 64)");
		mt_hint("memtlb compare BASE.json NEW.json [MORE.json...]");
		return MT_EXIT_USAGE;
	}
	if (explain && (fmt == MT_FORMAT_CSV || fmt == MT_FORMAT_HTML)) {
		mt_err("--explain: not with --format %s", mt_format_name(fmt));
		mt_hint("--explain prints with text, markdown or json");
		return MT_EXIT_USAGE;
	}
	if (output) {
		ret = check_output(output, n, argv + optind);
		if (ret)
			return ret;
	}
	ret = load_all(n, argv + optind, reps);
	if (ret)
		goto out;
	ret = mt_compare_create_opts(&cmp, (const struct mt_report *const *)reps,
				     (const char *const *)argv + optind, n, &opts);
	if (ret) {
		mt_err("compare: %s", strerror(-ret));
		ret = MT_EXIT_FAILURE;
		goto out;
	}
	/*
	 * Unlike inputs are said on stderr before the table, whatever the
	 * format; the documents (markdown, HTML, JSON) carry them as well.
	 */
	for (size_t k = 0; k < cmp->n_warnings; k++)
		mt_warn("%s", cmp->warnings[k]);
	fflush(stderr);
	if (explain && mt_explain_create(&ex, cmp, fail_above)) {
		mt_err("compare: --explain: %s", strerror(ENOMEM));
		ret = MT_EXIT_FAILURE;
		goto out;
	}
	view = (struct view){ cmp, ex, fmt, wide };
	ret = mt_sink_emit(&(struct mt_sink){
		.output = output, .mode = MT_FILE_MODE_AS_SHELL, .doc = { print_json, &view },
		.stream = stdout, .view = { print_view, &view },
	});
	if (ret)
		goto out;
	worst = fail_above >= 0 ? regressions(cmp, ex, fail_above, false) : 0.0;
	if (worst > fail_above && worst > 0.0) {
		regressions(cmp, ex, fail_above, true);
		mt_err("compare: regression of %+.1f%% beyond the noise, above %g%%", worst,
		       fail_above);
		ret = MT_EXIT_FAILURE;
	}
out:
	mt_explain_destroy(ex);
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
