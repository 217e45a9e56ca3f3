// SPDX-License-Identifier: MIT
/* memtlb flush: ops that invalidate K pages of a region tasks of one mm share. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cmd.h"
#include "cli/log.h"
#include "measure/flush.h"
#include "measure/measure.h"
#include "model/flush.h"
#include "model/range.h"
#include "model/report.h"
#include "model/size.h"

enum {
	OPT_OP = MT_OPT_FIRST_FREE,
	OPT_TASKS,
	OPT_PAGES,
	OPT_OPS,
	OPT_KNEE_RATIO,
	OPT_FROM,
};

static const struct option own_opts[] = {
	{ "op", required_argument, NULL, OPT_OP },
	{ "tasks", required_argument, NULL, OPT_TASKS },
	{ "pages", required_argument, NULL, OPT_PAGES },
	{ "ops", required_argument, NULL, OPT_OPS },
	{ "knee-ratio", required_argument, NULL, OPT_KNEE_RATIO },
	{ "from", required_argument, NULL, OPT_FROM },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/*
 * The shared options flush takes, model/config.c's, with what they mean
 * here: the region is the ops', the default events the flush set's, and
 * the report has no CSV.
 */
static const struct mt_cli_key keys[] = {
	{ .id = MT_CFG_REGION, .help = "the ops' region (default: the largest K's pages)" },
	{ .id = MT_CFG_ITERATIONS, .help = "iterations per point (default 10)" },
	{ .id = MT_CFG_EVENT, .help = "events, comma-separated, instead of the set" },
	{ .id = MT_CFG_EVENTS, .help = "a named event set for this CPU (memtlb list;\n"
			 "default " MT_FLUSH_DEFAULT_SET ": tlb:tlb_flush by reason)" },
	{ .id = MT_CFG_EVENTS_DIR },
	{ .id = MT_CFG_FORMAT, .help = "table (default) or json" },
	{ .id = MT_CFG_OUTPUT }, { .id = MT_CFG_VERBOSE },
	{ .id = MT_CLI_END },
};

/* ops x iterations op times are kept per point: 8 bytes each. */
#define OPS_TOTAL_MAX 10000000ul

static void help(void)
{
	printf("Usage: memtlb flush [options]\n"
	       "Time ops that invalidate K pages of a region the tasks of one mm share.\n\n"
	       "Workload:\n"
	       "      --op OP              %s (MADV_DONTNEED, default), %s or\n"
	       "                           %s (a round trip to PROT_READ)\n"
	       "      --tasks N            threads of the mm (default 2; 1: local flushes)\n"
	       "      --pages K            pages per op, or a range A..B[:STEP|xF]\n"
	       "                           (default " MT_FLUSH_PAGES_DEFAULT ")\n"
	       "      --ops M              timed ops per point and iteration (default 100)\n"
	       "      --knee-ratio R       a step R times off the trend is a knee (default 2)\n",
	       mt_flush_op_name(MT_FLUSH_MADVISE), mt_flush_op_name(MT_FLUSH_MUNMAP),
	       mt_flush_op_name(MT_FLUSH_MPROTECT));
	mt_cli_help_of(keys, MT_GROUP_WORKLOAD);
	printf("Counting:\n");
	mt_cli_help_of(keys, MT_GROUP_COUNTING);
	printf("Output:\n");
	mt_cli_help_of(keys, MT_GROUP_OUTPUT);
	printf("      --from FILE          print a saved flush report again, as its run\n"
	       "                           printed it (--format and -v apply)\n"
	       "  -h, --help               this text\n");
}

struct flush_cmd {
	struct mt_config cfg;
	struct mt_flush_params p;
	uint64_t *pages;
	const char *pages_arg;
};

static int own_opt(struct flush_cmd *fc, int c, const char *arg)
{
	const char *ops[MT_FLUSH_OP_MAX];
	unsigned long v;
	int op;

	switch (c) {
	case OPT_OP:
		/* model/flush.c's names, in the order of enum mt_flush_op */
		for (op = 0; op < MT_FLUSH_OP_MAX; op++)
			ops[op] = mt_flush_op_name(op);
		if (mt_cli_choose("--op", arg, ops, MT_FLUSH_OP_MAX, &op))
			return MT_EXIT_USAGE;
		fc->p.op = op;
		return 0;
	case OPT_TASKS:
		if (mt_count_parse(arg, MT_FLUSH_TASKS_MAX, &v)) {
			mt_err("--tasks: %s: not a count from 1 to %d", arg, MT_FLUSH_TASKS_MAX);
			return MT_EXIT_USAGE;
		}
		fc->p.tasks = v;
		return 0;
	case OPT_PAGES:
		fc->pages_arg = arg;
		return 0;
	case OPT_KNEE_RATIO:
		return mt_cli_knee_ratio_opt("--knee-ratio", arg, &fc->p.knee_ratio);
	default:	/* OPT_OPS */
		if (mt_cli_count_opt("--ops", arg, &fc->p.ops))
			return MT_EXIT_USAGE;
		return 0;
	}
}

/* Everything that can be known before the run: exit 2 with the reason. */
static int check(struct flush_cmd *fc)
{
	long psz = sysconf(_SC_PAGESIZE);
	struct mt_msg msg;
	size_t n;

	if (mt_range_parse_count(fc->pages_arg, &fc->pages, &n, &msg)) {
		mt_err("--pages: %s: %s", fc->pages_arg, msg.text);
		mt_hint("K is a count of pages from 1, or a range: 1..64:x2, 16..64:4");
		return MT_EXIT_USAGE;
	}
	fc->p.pages = fc->pages;
	fc->p.n_pages = n;
	fc->p.region_pages = fc->cfg.region ? fc->cfg.region / (uint64_t)psz : fc->pages[n - 1];
	if (fc->pages[n - 1] > fc->p.region_pages) {
		mt_err("--pages: %llu pages: larger than the region (%llu page%s)",
		       (unsigned long long)fc->pages[n - 1],
		       (unsigned long long)fc->p.region_pages, fc->p.region_pages == 1 ? "" : "s");
		mt_hint("a larger --region, or leave it out: it is then the largest K's pages");
		return MT_EXIT_USAGE;
	}
	if (fc->p.region_pages > (1ull << 20)) {
		mt_err("--region: %llu pages: more than %llu",
		       (unsigned long long)fc->p.region_pages, 1ull << 20);
		return MT_EXIT_USAGE;
	}
	if (fc->p.ops * fc->cfg.iterations > OPS_TOTAL_MAX) {
		mt_err("--ops: %lu ops x %lu iterations: more than %lu per point", fc->p.ops,
		       fc->cfg.iterations, OPS_TOTAL_MAX);
		return MT_EXIT_USAGE;
	}
	if (fc->cfg.format == MT_FORMAT_CSV) {
		mt_err("--format: csv: flush prints table or json");
		return MT_EXIT_USAGE;
	}
	if (fc->cfg.output && mt_cli_output_check(fc->cfg.output))
		return MT_EXIT_USAGE;
	fc->cfg.tasks = fc->p.tasks;
	fc->cfg.region = fc->p.region_pages * (uint64_t)psz;
	fc->cfg.block = (uint64_t)psz;
	fc->cfg.passes = 1;
	/* What the report's config says of the mapping: what the workload maps. */
	fc->cfg.backing = MT_BACKING_ANON;
	fc->cfg.pages = MT_PAGES_BASE;
	return mt_cli_report_size_check(&fc->cfg, n);
}

static const char default_set[] = MT_FLUSH_DEFAULT_SET;

static int cmd_flush(int argc, char *argv[])
{
	struct flush_cmd fc = {
		.p = { .op = MT_FLUSH_MADVISE, .tasks = MT_FLUSH_TASKS_DEFAULT,
		       .ops = MT_FLUSH_OPS_DEFAULT },
		.pages_arg = MT_FLUSH_PAGES_DEFAULT,
	};
	struct mt_cli_progress shown = { .cmd = "flush", .tty = isatty(STDERR_FILENO) };
	struct mt_measure_opts mopts = { .progress = mt_cli_progress, .progress_arg = &shown };
	struct mt_report *rep = NULL;
	struct mt_event *ev = NULL;
	const char *from = NULL;
	struct mt_config base;
	size_t n_ev = 0;
	const struct option *cmdopts;
	bool own = false;
	int c, ret;

	mt_config_init(&fc.cfg);
	fc.cfg.events = MT_FLUSH_DEFAULT_EVENTS;
	/* TLB work needs no PMU: the flush set's tracepoints unless -e or --events. */
	fc.cfg.event_set = default_set;
	fc.cfg.region = 0;	/* -r: none, the largest K's pages */
	memcpy(&base, &fc.cfg, sizeof(base));
	opterr = 0;
	optind = 1;
	cmdopts = mt_cli_longopts_of(keys, own_opts);
	while ((c = getopt_long(argc, argv, mt_cli_shortopts_of(keys, "h"), cmdopts,
				NULL)) != -1) {
		if (c == 'h') {
			help();
			return MT_EXIT_OK;
		}
		if (c == OPT_FROM) {
			from = optarg;
			continue;
		}
		if (c == OPT_OP || c == OPT_TASKS || c == OPT_PAGES || c == OPT_OPS ||
		    c == OPT_KNEE_RATIO) {
			ret = own_opt(&fc, c, optarg);
			own = true;
		} else if (c != '?' && c != ':' && mt_cli_is_workload_opt(c)) {
			ret = mt_cli_workload_opt(c, optarg, &fc.cfg);
		} else {
			return mt_cli_getopt_error("flush", c, argv);
		}
		if (ret)
			return ret;
	}
	if (from)
		return mt_cli_report_from("flush", from, &base, &fc.cfg, own || optind < argc,
					  stdout, NULL);
	if (fc.cfg.events_given && fc.cfg.event_set == default_set)
		fc.cfg.event_set = NULL;
	if (optind < argc) {
		mt_err("flush: unexpected argument '%s'", argv[optind]);
		mt_hint("memtlb flush --help lists the options");
		return MT_EXIT_USAGE;
	}
	ret = check(&fc);
	if (!ret)
		ret = mt_cli_resolve_events(&fc.cfg, &ev, &n_ev);
	if (ret)
		goto out;
	ret = mt_measure_report_create(&rep, "flush", &fc.cfg);
	if (!ret) {
		mopts.hw_counters = rep->system.hw_counters;
		ret = mt_flush_measure(&fc.cfg, &fc.p, ev, n_ev, &mopts, rep);
	}
	if (ret) {
		ret = mt_cli_fail("flush", ret);
		goto out;
	}
	for (size_t e = 0; e < n_ev; e++)
		rep->user_only |= ev[e].user_only;
	ret = mt_cli_report_emit(rep, &fc.cfg, stdout);
out:
	mt_report_destroy(rep);
	free(fc.pages);
	free(ev);
	return ret;
}

const struct mt_cmd mt_cmd_flush = {
	.name = "flush",
	.fn = cmd_flush,
	.help = "time ops that flush K pages from the TLBs of tasks of one mm",
};
