// SPDX-License-Identifier: MIT
/*
 * memtlb probe: TLB reach by timing alone (no PMU). The options, the probe
 * (measure/probe.c) and its output (report/probe.c).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cmd.h"
#include "cli/log.h"
#include "cli/sink.h"
#include "measure/measure.h"
#include "measure/probe.h"
#include "model/size.h"
#include "report/probe.h"
#include "sys/sysinfo.h"

enum {
	OPT_MAX = MT_OPT_FIRST_FREE + 0x20,
	OPT_PAGES,
	OPT_KNEE_RATIO,
	OPT_FROM,
	OPT_COALESCE,
};

static const struct option own_opts[] = {
	{ "max", required_argument, NULL, OPT_MAX },
	{ "pages", required_argument, NULL, OPT_PAGES },
	{ "knee-ratio", required_argument, NULL, OPT_KNEE_RATIO },
	{ "from", required_argument, NULL, OPT_FROM },
	{ "coalesce", no_argument, NULL, OPT_COALESCE },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* The shared options probe takes, model/config.c's: no counters, so -v is its own. */
static const struct mt_cli_key keys[] = {
	{ .id = MT_CFG_FORMAT }, { .id = MT_CFG_OUTPUT },
	{ .id = MT_CFG_VERBOSE, .help = "every measurement's repetitions on stderr" },
	{ .id = MT_CLI_END },
};

static void help(void)
{
	printf("Usage: memtlb probe [--max SIZE] [--pages base|thp|hugetlb] [--coalesce]\n"
	       "                    [options]\n"
	       "Measure the translation cost of an access (base pages against 2 MiB pages,\n"
	       "same chain) and find the TLB levels on it (no PMU needed).\n\n"
	       "      --max SIZE           largest size probed (default 64m)\n"
	       "      --pages KIND         the huge variant: base or thp (default: THP by\n"
	       "                           MADV_HUGEPAGE) or hugetlb (MAP_HUGETLB, 2 MiB)\n"
	       "      --knee-ratio R       rise over the plateau that makes a level\n"
	       "                           (default 1.5)\n"
	       "      --coalesce           also time physically contiguous base pages against\n"
	       "                           scattered ones at each TLB level (coalescing)\n");
	mt_cli_help_of(keys, MT_GROUP_NONE);
	printf("      --from FILE          print a saved probe report again, as its run\n"
	       "                           printed it (--format applies)\n");
	printf("  -h, --help               this text\n");
}

struct progress {
	bool tty;		/* a progress line on the terminal */
	bool verbose;		/* every measurement on a line of its own */
};

static void on_progress(void *arg, const struct mt_probe_progress *p)
{
	const struct progress *pg = arg;
	const struct mt_probe_point *pt = p->point;
	char s[32];

	switch (p->kind) {
	case MT_PROBE_MAPPED:
		if (p->res->collapsed && pg->verbose)
			fprintf(stderr, "memtlb: probe: THP faults fell short: MADV_COLLAPSE "
				"asked for the rest\n");
		break;
	case MT_PROBE_POINT:
		if (pg->verbose)
			fprintf(stderr, "memtlb: probe: %llu pages: base %.3f ns, huge %.3f ns, "
				"translation %+.3f +- %.3f ns (%u reps), packed %.3f ns\n",
				(unsigned long long)pt->pages, pt->base_ns, pt->huge_ns,
				pt->translation_ns, pt->ci95_ns, pt->reps, pt->packed_ns);
		if (pg->tty) {
			mt_size_format(pt->bytes, s, sizeof(s));
			fprintf(stderr, "\r\033[Kmemtlb: probe: %s, %+.3f ns/access", s,
				pt->translation_ns);
		}
		break;
	case MT_PROBE_CO_POINT:
		if (pg->verbose)
			fprintf(stderr, "memtlb: probe: coalescing at %s, %llu pages: scattered "
				"%+.3f, contiguous %+.3f ns, difference %+.3f +- %.3f ns\n",
				p->co_point->level, (unsigned long long)p->co_point->c.pages,
				p->co_point->c.scattered_ns, p->co_point->c.contiguous_ns,
				p->co_point->c.diff_ns, p->co_point->c.diff_ci95_ns);
		if (pg->tty) {
			mt_size_format(p->co_point->bytes, s, sizeof(s));
			fprintf(stderr, "\r\033[Kmemtlb: probe: coalescing, %s", s);
		}
		break;
	case MT_PROBE_DONE:
		if (pg->tty)
			fprintf(stderr, "\r\033[K");
		break;
	}
}

struct probe_out {
	const struct mt_probe_result *res;
	struct mt_sysinfo si;
	enum mt_format format;
};

static int print_json(FILE *f, const void *arg)
{
	const struct probe_out *p = arg;

	return mt_report_print_probe_json(f, p->res, &p->si);
}

static int print_view(FILE *f, const void *arg)
{
	const struct probe_out *p = arg;

	switch (p->format) {
	case MT_FORMAT_TABLE:
		return mt_report_print_probe(f, p->res, &p->si);
	case MT_FORMAT_CSV:
		return mt_report_print_probe_csv(f, p->res);
	case MT_FORMAT_JSON:
	default:
		return print_json(f, arg);
	}
}

/*
 * As every command's (cli/sink.h): -o first, then the view; -o - is the
 * JSON instead. si: the system of a saved report, NULL: this one's now.
 */
static int emit(const struct mt_probe_result *res, const struct mt_sysinfo *si,
		enum mt_format format, const char *output)
{
	struct probe_out p = { .res = res, .format = format };

	if (si)
		p.si = *si;
	else
		mt_measure_sysinfo(&p.si);
	return mt_sink_emit(&(struct mt_sink){
		.output = output, .mode = MT_FILE_MODE_AS_SHELL, .doc = { print_json, &p },
		.stream = stdout, .view = { print_view, &p },
	});
}

/* --from FILE: a saved probe printed again; its levels were validated by its run. */
static int probe_from(const char *path, enum mt_format format)
{
	struct mt_probe_result *res;
	struct mt_sysinfo *si = calloc(1, sizeof(*si));
	struct mt_msg msg;
	int ret;

	if (!si)
		return mt_cli_fail("probe", -ENOMEM);
	ret = mt_report_load_probe(path, &res, si, &msg);
	if (ret) {
		mt_err("--from: %s: %s", path, msg.text[0] ? msg.text : strerror(-ret));
		mt_hint("memtlb probe -o FILE saves a probe report");
		free(si);
		return MT_EXIT_USAGE;
	}
	ret = emit(res, si, format, NULL);
	mt_probe_result_destroy(res);
	free(si);
	return ret;
}

static int cmd_probe(int argc, char *argv[])
{
	const char *kinds[MT_PROBE_PAGES_MAX];
	struct progress pg = { 0 };
	struct mt_probe_opts po;
	struct mt_probe_result *res;
	const struct option *cmdopts;
	struct mt_config cfg;
	const char *from = NULL;
	struct mt_msg msg;
	bool own = false;
	uint64_t max;
	int c, ret, v;

	mt_probe_opts_init(&po);
	/* --format, -o and -v are read as every command reads them; only they are used */
	mt_config_init(&cfg);
	opterr = 0;
	optind = 1;
	cmdopts = mt_cli_longopts_of(keys, own_opts);
	while ((c = getopt_long(argc, argv, mt_cli_shortopts_of(keys, "h"), cmdopts,
				NULL)) != -1) {
		own |= c == OPT_MAX || c == OPT_PAGES || c == OPT_KNEE_RATIO || c == OPT_COALESCE;
		switch (c) {
		case 'h':
			help();
			return MT_EXIT_OK;
		case OPT_MAX:
			ret = mt_cli_size_opt("--max", optarg, &po.max);
			if (ret)
				return ret;
			break;
		case OPT_PAGES:
			/* measure/probe.c's names, in the order of enum mt_probe_pages */
			for (v = 0; v < MT_PROBE_PAGES_MAX; v++)
				kinds[v] = mt_probe_pages_name(v);
			ret = mt_cli_choose("--pages", optarg, kinds, MT_PROBE_PAGES_MAX, &v);
			if (ret)
				return ret;
			po.kind = v;
			break;
		case OPT_FROM:
			from = optarg;
			break;
		case OPT_COALESCE:
			po.coalesce = true;
			break;
		case OPT_KNEE_RATIO:
			ret = mt_cli_knee_ratio_opt("--knee-ratio", optarg, &po.ratio);
			if (ret)
				return ret;
			break;
		default:
			if (c == '?' || c == ':' || !mt_cli_is_workload_opt(c))
				return mt_cli_getopt_error("probe", c, argv);
			ret = mt_cli_workload_opt(c, optarg, &cfg);
			if (ret)
				return ret;
		}
	}
	if (from && (own || cfg.output || optind < argc)) {
		mt_err("--from: prints a probe report again: only --format with it");
		mt_hint("memtlb probe --from FILE [--format csv]");
		return MT_EXIT_USAGE;
	}
	if (from)
		return probe_from(from, cfg.format);
	if (cfg.verbose)
		mt_log_set_verbose(1);
	if (optind < argc) {
		mt_err("probe: unexpected argument '%s'", argv[optind]);
		mt_hint("memtlb probe --help lists the options");
		return MT_EXIT_USAGE;
	}
	if (mt_probe_check(&po, &max, &msg))
		return mt_cli_usage(&msg);
	if (cfg.output && mt_cli_output_check(cfg.output))
		return MT_EXIT_USAGE;
	mt_cli_machine_recover();

	pg.tty = isatty(STDERR_FILENO);
	pg.verbose = mt_log_verbose();
	po.progress = on_progress;
	po.progress_arg = &pg;
	ret = mt_probe_run(&po, &res, &msg);
	if (ret) {
		if (!msg.text[0])
			return mt_cli_fail("probe", ret);
		mt_err("probe: %s", msg.text);
		if (msg.hint[0])
			mt_hint("%s", msg.hint);
		return MT_EXIT_FAILURE;
	}
	if (res->refused)
		mt_warn("probe: %u sizes refused, %s", res->refused, res->refused_why);
	ret = emit(res, NULL, cfg.format, cfg.output);
	mt_probe_result_destroy(res);
	return ret;
}

const struct mt_cmd mt_cmd_probe = {
	.name = "probe",
	.fn = cmd_probe,
	.help = "find the TLB levels by timing a pointer chase (no PMU needed)",
};
