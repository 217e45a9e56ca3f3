// SPDX-License-Identifier: MIT
/* memtlb stat: the mmap touch workload under a counter group. */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <memtlb/cmd.h>
#include <memtlb/log.h>
#include <memtlb/measure.h>
#include <memtlb/report.h>
#include <memtlb/size.h>
#include <memtlb/sysinfo.h>

#define DEFAULT_EVENTS "cycles,instructions,dTLB-loads,dTLB-load-misses,minor-faults,major-faults"

enum {
	OPT_BACKING = 0x100,
	OPT_FORMAT,
	OPT_FORCE,
};

static const char cmdopts_s[] = "+r:b:i:p:e:o:vh";
static const struct option cmdopts[] = {
	{ "region", required_argument, NULL, 'r' },
	{ "block", required_argument, NULL, 'b' },
	{ "iterations", required_argument, NULL, 'i' },
	{ "passes", required_argument, NULL, 'p' },
	{ "backing", required_argument, NULL, OPT_BACKING },
	{ "event", required_argument, NULL, 'e' },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "output", required_argument, NULL, 'o' },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void help(void)
{
	printf("Usage: memtlb stat [options]\n"
	       "Run the mmap touch workload (test_with_mmap) under a counter group.\n\n"
	       "Workload:\n"
	       "  -r, --region SIZE        region to map (default 1g; k/m/g/t, 0x hex)\n"
	       "  -b, --block SIZE         one word touched per block (default: page size)\n"
	       "  -i, --iterations N       mmap/touch/munmap cycles (default 10)\n"
	       "  -p, --passes N           write+read passes per iteration (default 5)\n"
	       "      --backing KIND       shared (MAP_SHARED|MAP_ANONYMOUS, default) or anon\n"
	       "      --force              run even if the region exceeds MemAvailable\n"
	       "Counting:\n"
	       "  -e, --event LIST         events, comma-separated (default:\n"
	       "                           " DEFAULT_EVENTS ")\n"
	       "Output:\n"
	       "      --format FMT         table (default), csv or json\n"
	       "  -o, --output FILE        also write the JSON report to FILE\n"
	       "  -v, --verbose            say why events are not supported\n"
	       "  -h, --help               this text\n");
}

static int usage_error(void)
{
	mt_hint("memtlb stat --help lists the options");
	return MT_EXIT_USAGE;
}

static int parse_size_opt(const char *opt, const char *arg, uint64_t *out)
{
	int ret = mt_size_parse(arg, out);

	if (ret == -ERANGE) {
		mt_err("%s: %s: too large", opt, arg);
		return MT_EXIT_USAGE;
	}
	if (ret || !*out) {
		mt_err("%s: %s: not a size", opt, arg);
		mt_hint("a size is a whole number with an optional k, m, g or t suffix, "
			"or 0x hex: 512m, 16g, 0x40000000");
		return MT_EXIT_USAGE;
	}
	return 0;
}

static int parse_count_opt(const char *opt, const char *arg, unsigned long *out)
{
	if (mt_count_parse(arg, 1000000, out)) {
		mt_err("%s: %s: not a count from 1 to 1000000", opt, arg);
		return MT_EXIT_USAGE;
	}
	return 0;
}

/* -o is checked before the run: a long run must not fail at its very end. */
static int check_output_dir(const char *path)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s", path);
	if (access(dirname(dir), W_OK | X_OK)) {
		mt_err("-o: %s: %s", path, strerror(errno));
		return MT_EXIT_USAGE;
	}
	return 0;
}

static int check_memory(const struct mt_config *cfg)
{
	int64_t avail = mt_sys_mem_available();
	char want[32], have[32];

	if (avail < 0 || cfg->region <= (uint64_t)avail || cfg->force)
		return 0;
	mt_size_format(cfg->region, want, sizeof(want));
	mt_size_format((uint64_t)avail, have, sizeof(have));
	mt_err("--region: %s is more than MemAvailable (%s)", want, have);
	mt_hint("a smaller region, or --force to run anyway");
	return MT_EXIT_USAGE;
}

static void warn_user_only(const struct mt_report *rep)
{
	if (!rep->user_only)
		return;
	mt_warn("counting user space only: kernel.perf_event_paranoid=%d forbids kernel "
		"counting for this user", rep->system.perf_event_paranoid);
	mt_hint("sysctl kernel.perf_event_paranoid=1 (or run as root) to count the kernel too");
}

static int cmd_stat(int argc, char *argv[])
{
	struct mt_config cfg = {
		.region = 1ull << 30,
		.block = (uint64_t)sysconf(_SC_PAGESIZE),
		.iterations = 10,
		.passes = 5,
		.backing = MT_BACKING_SHARED,
		.events = DEFAULT_EVENTS,
		.format = MT_FORMAT_TABLE,
	};
	struct mt_measure_opts mopts = { 0 };
	struct mt_report *rep = NULL;
	struct mt_result *res = NULL;
	struct mt_event *ev = NULL;
	struct mt_mismatch bad;
	char msg[256];
	size_t n_ev = 0;
	bool verbose = false;
	int c, ret;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, cmdopts_s, cmdopts, NULL)) != -1) {
		ret = 0;
		switch (c) {
		case 'r':
			ret = parse_size_opt("--region", optarg, &cfg.region);
			break;
		case 'b':
			ret = parse_size_opt("--block", optarg, &cfg.block);
			break;
		case 'i':
			ret = parse_count_opt("--iterations", optarg, &cfg.iterations);
			break;
		case 'p':
			ret = parse_count_opt("--passes", optarg, &cfg.passes);
			break;
		case OPT_BACKING:
			if (!strcmp(optarg, "shared")) {
				cfg.backing = MT_BACKING_SHARED;
			} else if (!strcmp(optarg, "anon")) {
				cfg.backing = MT_BACKING_ANON;
			} else {
				mt_err("--backing: %s: not a backing (shared or anon)", optarg);
				ret = MT_EXIT_USAGE;
			}
			break;
		case 'e':
			cfg.events = optarg;
			break;
		case OPT_FORMAT:
			if (!strcmp(optarg, "table")) {
				cfg.format = MT_FORMAT_TABLE;
			} else if (!strcmp(optarg, "csv")) {
				cfg.format = MT_FORMAT_CSV;
			} else if (!strcmp(optarg, "json")) {
				cfg.format = MT_FORMAT_JSON;
			} else {
				mt_err("--format: %s: not a format (table, csv or json)", optarg);
				ret = MT_EXIT_USAGE;
			}
			break;
		case 'o':
			cfg.output = optarg;
			break;
		case OPT_FORCE:
			cfg.force = true;
			break;
		case 'v':
			verbose = true;
			break;
		case 'h':
			help();
			return MT_EXIT_OK;
		case ':':
			mt_err("stat: option '%s' needs a value", argv[optind - 1]);
			return usage_error();
		default:
			mt_err("stat: unknown option '%s'", argv[optind - 1]);
			return usage_error();
		}
		if (ret)
			return ret;
	}
	if (optind < argc) {
		mt_err("stat: unexpected argument '%s'", argv[optind]);
		return usage_error();
	}
	if (cfg.block < sizeof(uint64_t)) {
		mt_err("--block: %llu: a block must hold a 64-bit word (8 bytes or more)",
		       (unsigned long long)cfg.block);
		return MT_EXIT_USAGE;
	}
	if (cfg.block > cfg.region) {
		char b[32], r[32];

		mt_size_format_short(cfg.block, b, sizeof(b));
		mt_size_format_short(cfg.region, r, sizeof(r));
		mt_err("--block: %s is larger than the region (%s)", b, r);
		return MT_EXIT_USAGE;
	}
	ret = mt_events_resolve(cfg.events, &ev, &n_ev, msg, sizeof(msg));
	if (ret == -EINVAL) {
		mt_err("-e: %s", msg);
		mt_hint("perf names (cycles, dTLB-load-misses, minor-faults) or libpfm4 names "
			"(DTLB_LOAD_MISSES:WALK_COMPLETED)");
		return MT_EXIT_USAGE;
	} else if (ret) {
		mt_err("-e: %s", ret == -ENODEV ? msg : strerror(-ret));
		return MT_EXIT_FAILURE;
	}
	ret = (cfg.output ? check_output_dir(cfg.output) : 0) ?: check_memory(&cfg);
	if (ret)
		goto out;

	ret = mt_report_create(&rep, "stat");
	if (ret)
		goto fail;
	mt_sysinfo_read(&rep->system);
	mt_pmu_core_name(rep->system.pmu, sizeof(rep->system.pmu));
	rep->config = cfg;
	mopts.hw_counters = rep->system.hw_counters;
	mopts.progress = isatty(STDERR_FILENO);
	ret = mt_measure_stat(&cfg, ev, n_ev, &mopts, &res, &bad);
	if (ret == -EILSEQ) {
		mt_err("verify: %s of iteration %u: at %p: expected 0x%016llx, found 0x%016llx",
		       bad.phase, bad.iter, bad.addr, (unsigned long long)bad.expected,
		       (unsigned long long)bad.found);
		ret = MT_EXIT_FAILURE;
		goto out;
	}
	if (ret == -EINVAL && getenv("MEMTLB_BACKEND")) {
		mt_err("MEMTLB_BACKEND=%s: not a backend, or not a valid replay file",
		       getenv("MEMTLB_BACKEND"));
		ret = MT_EXIT_USAGE;
		goto out;
	}
	if (ret)
		goto fail;
	snprintf(rep->backend, sizeof(rep->backend), "%s",
		 getenv("MEMTLB_BACKEND") && !strncmp(getenv("MEMTLB_BACKEND"), "replay:", 7)
			 ? "replay" : "perf");
	for (size_t e = 0; e < n_ev; e++)
		rep->user_only |= ev[e].user_only;
	ret = mt_report_add(rep, res);
	if (ret) {
		mt_result_destroy(res);
		goto fail;
	}
	warn_user_only(rep);

	switch (cfg.format) {
	case MT_FORMAT_TABLE:
		mt_report_print_table(stdout, rep, verbose);
		break;
	case MT_FORMAT_CSV:
		mt_report_print_csv(stdout, rep);
		break;
	case MT_FORMAT_JSON:
		ret = mt_report_write(rep, "-");
		break;
	}
	if (!ret && cfg.output) {
		ret = mt_report_write(rep, cfg.output);
		if (ret) {
			mt_err("-o: %s: %s", cfg.output, strerror(-ret));
			ret = MT_EXIT_FAILURE;
			goto out;
		}
	}
	if (ret)
		goto fail;
	ret = MT_EXIT_OK;
	goto out;
fail:
	mt_err("stat: %s", strerror(-ret));
	ret = MT_EXIT_FAILURE;
out:
	mt_report_destroy(rep);
	free(ev);
	return ret;
}

const struct mt_cmd mt_cmd_stat = {
	.name = "stat",
	.fn = cmd_stat,
	.help = "run the mmap touch workload under a counter group",
};
