// SPDX-License-Identifier: MIT
/* The workload options shared by stat and sweep. */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <memtlb/cli.h>
#include <memtlb/cmd.h>
#include <memtlb/counters.h>
#include <memtlb/evset.h>
#include <memtlb/log.h>
#include <memtlb/report.h>
#include <memtlb/size.h>
#include <memtlb/sysinfo.h>

void mt_cli_config_init(struct mt_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->region = 1ull << 30;
	cfg->block = (uint64_t)sysconf(_SC_PAGESIZE);
	cfg->iterations = 10;
	cfg->passes = 5;
	cfg->backing = MT_BACKING_SHARED;
	cfg->events = MT_DEFAULT_EVENTS;
	cfg->format = MT_FORMAT_TABLE;
}

int mt_cli_size_opt(const char *opt, const char *arg, uint64_t *out)
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

int mt_cli_count_opt(const char *opt, const char *arg, unsigned long *out)
{
	if (mt_count_parse(arg, 1000000, out)) {
		mt_err("%s: %s: not a count from 1 to 1000000", opt, arg);
		return MT_EXIT_USAGE;
	}
	return 0;
}

static int choose(const char *opt, const char *arg, const char *const *names, int n, int *out)
{
	for (int i = 0; i < n; i++) {
		if (!strcmp(arg, names[i])) {
			*out = i;
			return 0;
		}
	}
	mt_err("%s: %s: not one of the choices", opt, arg);
	if (n == 2)
		mt_hint("%s takes %s or %s", opt, names[0], names[1]);
	else if (n == 3)
		mt_hint("%s takes %s, %s or %s", opt, names[0], names[1], names[2]);
	return MT_EXIT_USAGE;
}

int mt_cli_workload_opt(int c, const char *arg, struct mt_config *cfg)
{
	static const char *const backings[] = { [MT_BACKING_SHARED] = "shared",
						[MT_BACKING_ANON] = "anon" };
	static const char *const formats[] = { [MT_FORMAT_TABLE] = "table",
					       [MT_FORMAT_CSV] = "csv",
					       [MT_FORMAT_JSON] = "json" };
	int v = 0, ret;

	switch (c) {
	case 'r':
		return mt_cli_size_opt("--region", arg, &cfg->region);
	case 'b':
		return mt_cli_size_opt("--block", arg, &cfg->block);
	case 'i':
		return mt_cli_count_opt("--iterations", arg, &cfg->iterations);
	case 'p':
		return mt_cli_count_opt("--passes", arg, &cfg->passes);
	case MT_OPT_BACKING:
		ret = choose("--backing", arg, backings, 2, &v);
		cfg->backing = v;
		return ret;
	case MT_OPT_FORMAT:
		ret = choose("--format", arg, formats, 3, &v);
		cfg->format = v;
		return ret;
	case MT_OPT_FORCE:
		cfg->force = true;
		return 0;
	case 'e':
		cfg->events = arg;
		cfg->events_given = true;
		return 0;
	case MT_OPT_EVENTS:
		cfg->event_set = arg;
		return 0;
	case MT_OPT_EVENTS_DIR:
		cfg->events_dir = arg;
		return 0;
	case 'o':
		cfg->output = arg;
		return 0;
	case 'v':
		cfg->verbose = true;
		return 0;
	}
	return -ENOENT;
}

/* -o is checked up front: a long run must not fail at its very end. */
int mt_cli_output_check(const char *path)
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

int mt_cli_config_check(const struct mt_config *cfg)
{
	if (cfg->block < sizeof(uint64_t)) {
		mt_err("--block: %llu: a block must hold a 64-bit word (8 bytes or more)",
		       (unsigned long long)cfg->block);
		return MT_EXIT_USAGE;
	}
	if (cfg->block > cfg->region) {
		char b[32], r[32];

		mt_size_format_short(cfg->block, b, sizeof(b));
		mt_size_format_short(cfg->region, r, sizeof(r));
		mt_err("--block: %s is larger than the region (%s)", b, r);
		return MT_EXIT_USAGE;
	}
	if (cfg->output && mt_cli_output_check(cfg->output))
		return MT_EXIT_USAGE;
	return check_memory(cfg);
}

int mt_cli_getopt_error(const char *cmd, int c, char *argv[])
{
	if (c == ':')
		mt_err("%s: option '%s' needs a value", cmd, argv[optind - 1]);
	else
		mt_err("%s: unknown option '%s'", cmd, argv[optind - 1]);
	mt_hint("memtlb %s --help lists the options", cmd);
	return MT_EXIT_USAGE;
}

/* MEMTLB_BACKEND is input too: refuse a bad one before anything runs. */
static int check_backend(void)
{
	const char *sel = getenv("MEMTLB_BACKEND");

	if (!sel || !*sel || !strcmp(sel, "perf"))
		return 0;
	if (strncmp(sel, "replay:", 7) || !sel[7]) {
		mt_err("MEMTLB_BACKEND=%s: not a backend", sel);
		mt_hint("MEMTLB_BACKEND is perf (the default) or replay:FILE");
		return MT_EXIT_USAGE;
	}
	if (access(sel + 7, R_OK)) {
		mt_err("MEMTLB_BACKEND: %s: %s", sel + 7, strerror(errno));
		return MT_EXIT_USAGE;
	}
	return 0;
}

static int resolve_set(const struct mt_config *cfg, struct mt_event **ev, size_t *n)
{
	char dir[4096], msg[512], pmu[64];
	const struct mt_evset *set;
	struct mt_evsets *sets;
	const char *which;
	int ret;

	if (cfg->events_given) {
		mt_err("--events: %s: give either -e or --events, not both", cfg->event_set);
		return MT_EXIT_USAGE;
	}
	mt_evsets_dir(cfg->events_dir, dir, sizeof(dir));
	ret = mt_evsets_load(&sets, dir, msg, sizeof(msg));
	if (ret) {
		mt_err("--events: %s", msg);
		return MT_EXIT_USAGE;
	}
	set = mt_evsets_find(sets, cfg->event_set);
	if (!set) {
		mt_err("--events: %s: no such event set in %s", cfg->event_set, dir);
		mt_hint("memtlb list shows the sets");
		mt_evsets_destroy(sets);
		return MT_EXIT_USAGE;
	}
	mt_pmu_core_name(pmu, sizeof(pmu));
	ret = mt_evset_resolve(set, pmu, ev, n, &which, msg, sizeof(msg));
	mt_evsets_destroy(sets);
	if (ret) {
		mt_err("--events: %s", msg);
		return ret == -EINVAL ? MT_EXIT_USAGE : MT_EXIT_FAILURE;
	}
	return 0;
}

int mt_cli_resolve_events(const struct mt_config *cfg, struct mt_event **ev, size_t *n)
{
	char msg[256];
	int ret;

	ret = check_backend();
	if (ret)
		return ret;
	if (cfg->event_set)
		return resolve_set(cfg, ev, n);
	ret = mt_events_resolve(cfg->events, ev, n, msg, sizeof(msg));
	if (ret == -EINVAL) {
		mt_err("-e: %s", msg);
		mt_hint("perf names (cycles, dTLB-load-misses, minor-faults) or libpfm4 names "
			"(DTLB_LOAD_MISSES:WALK_COMPLETED)");
		return MT_EXIT_USAGE;
	}
	if (ret) {
		mt_err("-e: %s", ret == -ENODEV ? msg : strerror(-ret));
		return MT_EXIT_FAILURE;
	}
	return 0;
}

const char *mt_cli_backend_name(void)
{
	const char *sel = getenv("MEMTLB_BACKEND");

	return sel && !strncmp(sel, "replay:", 7) ? "replay" : "perf";
}

void mt_cli_sysinfo_read(struct mt_sysinfo *si)
{
	mt_sysinfo_read(si);
	mt_pmu_core_name(si->pmu, sizeof(si->pmu));
	mt_pmu_present_list(si->pmus, sizeof(si->pmus));
}

int mt_cli_report_create(struct mt_report **out, const char *command,
			 const struct mt_config *cfg)
{
	struct mt_report *rep;
	int ret;

	ret = mt_report_create(&rep, command);
	if (ret)
		return ret;
	mt_cli_sysinfo_read(&rep->system);
	rep->config = *cfg;
	snprintf(rep->event_set, sizeof(rep->event_set), "%s", cfg->event_set ? cfg->event_set : "");
	snprintf(rep->backend, sizeof(rep->backend), "%s", mt_cli_backend_name());
	*out = rep;
	return 0;
}

int mt_cli_report_emit(const struct mt_report *rep, const struct mt_config *cfg)
{
	int ret = 0;

	if (rep->user_only) {
		mt_warn("counting user space only: kernel.perf_event_paranoid=%d forbids kernel "
			"counting for this user", rep->system.perf_event_paranoid);
		mt_hint("sysctl kernel.perf_event_paranoid=1 (or run as root) counts the "
			"kernel too");
	}
	switch (cfg->format) {
	case MT_FORMAT_TABLE:
		mt_report_print_table(stdout, rep, cfg->verbose);
		break;
	case MT_FORMAT_CSV:
		mt_report_print_csv(stdout, rep);
		break;
	case MT_FORMAT_JSON:
		ret = mt_report_write(rep, "-");
		break;
	}
	if (ret) {
		mt_err("stdout: %s", strerror(-ret));
		return MT_EXIT_FAILURE;
	}
	if (cfg->output) {
		ret = mt_report_write(rep, cfg->output);
		if (ret) {
			mt_err("-o: %s: %s", cfg->output, strerror(-ret));
			return MT_EXIT_FAILURE;
		}
	}
	return MT_EXIT_OK;
}
