// SPDX-License-Identifier: MIT
/* The workload options shared by stat and sweep. */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <memtlb/cleanup.h>
#include <memtlb/cli.h>
#include <memtlb/cmd.h>
#include <memtlb/counters.h>
#include <memtlb/evset.h>
#include <memtlb/hugetlb.h>
#include <memtlb/log.h>
#include <memtlb/workload.h>
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
	cfg->pages = MT_PAGES_DEFAULT;
	cfg->access = MT_ACCESS_SEQ;
	cfg->seed = 1;
	cfg->task_mode = MT_TASK_THREAD;
	cfg->task_region = MT_TASK_REGION_SHARED;
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

int mt_cli_choose(const char *opt, const char *arg, const char *const *names, int n, int *out)
{
	char list[256];
	size_t len = 0;

	for (int i = 0; i < n; i++) {
		if (!strcmp(arg, names[i])) {
			*out = i;
			return 0;
		}
	}
	mt_err("%s: %s: not one of the choices", opt, arg);
	/* "a, b or c" for any n */
	list[0] = 0;
	for (int i = 0; i < n && len < sizeof(list); i++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
					!i ? "" : i == n - 1 ? " or " : ", ", names[i]);
	if (n > 1)
		mt_hint("%s takes %s", opt, list);
	return MT_EXIT_USAGE;
}

int mt_cli_knee_ratio_opt(const char *opt, const char *arg, double *out)
{
	char *end;
	double r;

	errno = 0;
	r = strtod(arg, &end);
	if (errno || end == arg || *end || !(r > 1.0) || !(r <= 1000.0)) {
		mt_err("%s: %s: not a number above 1", opt, arg);
		return MT_EXIT_USAGE;
	}
	*out = r;
	return 0;
}

/* The PMD size THP uses, from the kernel; 2 MiB when it does not say. */
static uint64_t thp_size(void)
{
	char line[64];

	if (!mt_sys_read_line("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size", line,
			      sizeof(line)))
		return strtoull(line, NULL, 10);
	return 2ull << 20;
}

static int backing_opt(const char *arg, struct mt_config *cfg)
{
	static const char *const backings[] = { [MT_BACKING_SHARED] = "shared",
						[MT_BACKING_ANON] = "anon",
						[MT_BACKING_SHM] = "shm",
						[MT_BACKING_MEMFD] = "memfd",
						[MT_BACKING_FILE] = "file" };

	cfg->file_path = NULL;
	if (!strncmp(arg, "file:", 5)) {
		if (!arg[5]) {
			mt_err("--backing: %s: no path after file:", arg);
			return MT_EXIT_USAGE;
		}
		cfg->backing = MT_BACKING_FILE;
		cfg->file_path = arg + 5;
		return 0;
	}
	for (int i = 0; i < MT_BACKING_MAX; i++) {
		if (!strcmp(arg, backings[i])) {
			cfg->backing = i;
			return 0;
		}
	}
	mt_err("--backing: %s: not one of the choices", arg);
	mt_hint("--backing takes shared, anon, shm, memfd, file or file:PATH");
	return MT_EXIT_USAGE;
}

static int pages_opt(const char *arg, struct mt_config *cfg)
{
	static const char *const pages[] = { [MT_PAGES_DEFAULT] = "default",
					     [MT_PAGES_BASE] = "base",
					     [MT_PAGES_THP] = "thp",
					     [MT_PAGES_HUGETLB] = "hugetlb" };

	cfg->huge_size = 0;
	if (!strcmp(arg, "hugetlb:2m") || !strcmp(arg, "hugetlb:1g")) {
		cfg->pages = MT_PAGES_HUGETLB;
		cfg->huge_size = arg[8] == '2' ? 2ull << 20 : 1ull << 30;
		return 0;
	}
	for (int i = 0; i < MT_PAGES_MAX; i++) {
		if (!strcmp(arg, pages[i])) {
			cfg->pages = i;
			if (i == MT_PAGES_HUGETLB)
				cfg->huge_size = 2ull << 20;
			else if (i == MT_PAGES_THP)
				cfg->huge_size = thp_size();
			return 0;
		}
	}
	mt_err("--pages: %s: not one of the choices", arg);
	mt_hint("--pages takes default, base, thp, hugetlb, hugetlb:2m or hugetlb:1g");
	return MT_EXIT_USAGE;
}

static int access_opt(const char *arg, struct mt_config *cfg)
{
	if (!strcmp(arg, "seq")) {
		cfg->access = MT_ACCESS_SEQ;
		return 0;
	}
	if (!strcmp(arg, "random")) {
		cfg->access = MT_ACCESS_RANDOM;
		return 0;
	}
	if (!strncmp(arg, "stride:", 7)) {
		cfg->access = MT_ACCESS_STRIDE;
		return mt_cli_size_opt("--access stride", arg + 7, &cfg->stride);
	}
	mt_err("--access: %s: not one of the choices", arg);
	mt_hint("--access takes seq, random or stride:SIZE (stride:16m)");
	return MT_EXIT_USAGE;
}

int mt_cli_workload_opt(int c, const char *arg, struct mt_config *cfg)
{
	static const char *const caches[] = { "warm", "cold" };
	static const char *const modes[] = { [MT_TASK_THREAD] = "thread",
					      [MT_TASK_PROCESS] = "process" };
	static const char *const regions[] = { [MT_TASK_REGION_SHARED] = "shared",
					       [MT_TASK_REGION_PRIVATE] = "private" };
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
		return backing_opt(arg, cfg);
	case MT_OPT_FILE_CACHE:
		ret = mt_cli_choose("--file-cache", arg, caches, 2, &v);
		cfg->file_cold = v == 1;
		return ret;
	case MT_OPT_PAGES:
		return pages_opt(arg, cfg);
	case MT_OPT_RESERVE:
		cfg->reserve = true;
		return 0;
	case MT_OPT_ACCESS:
		return access_opt(arg, cfg);
	case MT_OPT_SEED: {
		char *end;

		errno = 0;
		cfg->seed = strtoull(arg, &end, 0);
		if (errno || end == arg || *end || *arg == '-') {
			mt_err("--seed: %s: not a whole number", arg);
			return MT_EXIT_USAGE;
		}
		return 0;
	}
	case MT_OPT_POPULATE:
		cfg->populate = true;
		return 0;
	case MT_OPT_READ_FIRST:
		cfg->read_first = true;
		return 0;
	case MT_OPT_TASKS:
		if (mt_count_parse(arg, 4096, &cfg->tasks)) {
			mt_err("--tasks: %s: not a count from 1 to 4096", arg);
			return MT_EXIT_USAGE;
		}
		return 0;
	case MT_OPT_TASK_MODE:
		ret = mt_cli_choose("--task-mode", arg, modes, 2, &v);
		cfg->task_mode = v;
		return ret;
	case MT_OPT_TASK_REGION:
		ret = mt_cli_choose("--task-region", arg, regions, 2, &v);
		cfg->task_region = v;
		return ret;
	case MT_OPT_FORMAT:
		ret = mt_cli_choose("--format", arg, formats, 3, &v);
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

/* Regions the run maps at once: one, or one per task with private regions. */
static uint64_t regions_mapped(const struct mt_config *cfg)
{
	return cfg->tasks && cfg->task_region == MT_TASK_REGION_PRIVATE ? cfg->tasks : 1;
}

static int check_memory(const struct mt_config *cfg)
{
	int64_t avail = mt_sys_mem_available();
	uint64_t total = cfg->region * regions_mapped(cfg);
	char want[32], have[32];

	if (avail < 0 || total <= (uint64_t)avail || cfg->force ||
	    cfg->pages == MT_PAGES_HUGETLB)
		return 0;
	mt_size_format(total, want, sizeof(want));
	mt_size_format((uint64_t)avail, have, sizeof(have));
	mt_err("--region: %s is more than MemAvailable (%s)", want, have);
	mt_hint("a smaller region, or --force to run anyway");
	return MT_EXIT_USAGE;
}

/* Combinations that cannot work, refused before anything runs. */
static int check_workload(const struct mt_config *cfg)
{
	char a[32], b[32];

	if (cfg->pages == MT_PAGES_HUGETLB &&
	    (cfg->backing == MT_BACKING_SHM || cfg->backing == MT_BACKING_FILE)) {
		mt_err("--pages hugetlb: not with --backing %s", mt_backing_name(cfg->backing));
		mt_hint("hugetlb pages back anon, shared or memfd mappings");
		return MT_EXIT_USAGE;
	}
	if (cfg->pages == MT_PAGES_HUGETLB && cfg->region % cfg->huge_size) {
		mt_size_format_short(cfg->region, a, sizeof(a));
		mt_size_format_short(cfg->huge_size, b, sizeof(b));
		mt_err("--region: %s is not a multiple of the huge page size (%s)", a, b);
		return MT_EXIT_USAGE;
	}
	if (cfg->pages == MT_PAGES_THP && cfg->backing != MT_BACKING_ANON &&
	    cfg->backing != MT_BACKING_FILE) {
		char line[128];

		/* Not an error: the coverage will show it, but say why up front. */
		if (!mt_sys_read_line("/sys/kernel/mm/transparent_hugepage/shmem_enabled", line,
				      sizeof(line)) &&
		    (strstr(line, "[never]") || strstr(line, "[deny]")))
			mt_warn("--pages thp: shmem_enabled is %s: --backing %s gets no huge pages",
				strstr(line, "[never]") ? "never" : "deny",
				mt_backing_name(cfg->backing));
	}
	if (cfg->reserve && cfg->pages != MT_PAGES_HUGETLB) {
		mt_err("--reserve: only with --pages hugetlb");
		return MT_EXIT_USAGE;
	}
	if (cfg->file_cold && cfg->backing != MT_BACKING_FILE) {
		mt_err("--file-cache: only with --backing file");
		return MT_EXIT_USAGE;
	}
	if (cfg->access == MT_ACCESS_STRIDE &&
	    (cfg->stride < cfg->block || cfg->stride > cfg->region || cfg->stride % cfg->block)) {
		mt_size_format_short(cfg->stride, a, sizeof(a));
		mt_err("--access stride:%s: the stride must be a multiple of the block and at "
		       "most the region", a);
		return MT_EXIT_USAGE;
	}
	if (cfg->tasks && cfg->task_mode == MT_TASK_PROCESS &&
	    cfg->task_region == MT_TASK_REGION_SHARED && cfg->backing == MT_BACKING_ANON) {
		mt_err("--task-region shared: processes cannot share a private (anon) mapping");
		mt_hint("--backing shared, shm, memfd or file; or --task-region private");
		return MT_EXIT_USAGE;
	}
	if (cfg->tasks && cfg->task_region == MT_TASK_REGION_SHARED) {
		uint64_t units = cfg->region /
				 (cfg->access == MT_ACCESS_STRIDE ? cfg->stride : cfg->block);

		if (units < cfg->tasks) {
			mt_err("--tasks: %lu tasks cannot share %llu blocks", cfg->tasks,
			       (unsigned long long)units);
			return MT_EXIT_USAGE;
		}
	}
	return 0;
}

/*
 * hugetlb pages come from a pool: short of free pages the run would die of
 * SIGBUS in the middle, so say so first (exit 1), or grow it with --reserve.
 */
static int check_hugetlb_pool(const struct mt_config *cfg)
{
	uint64_t kb = cfg->huge_size >> 10;
	long need = (long)(cfg->region / cfg->huge_size * regions_mapped(cfg));
	struct mt_hugepool_state st;
	char file[4096];
	int ret, handle;

	ret = mt_hugetlb_pool_read(kb, &st);
	if (ret) {
		mt_err("--pages hugetlb: no pool of %llu kB pages: %s", (unsigned long long)kb,
		       strerror(-ret));
		return MT_EXIT_FAILURE;
	}
	if (st.free >= need)
		return 0;
	mt_hugetlb_pool_file(kb, file, sizeof(file));
	if (!cfg->reserve) {
		mt_err("--pages hugetlb: %ld pages of %llu kB needed, %ld free", need,
		       (unsigned long long)kb, st.free);
		mt_hint("as root: echo %ld > %s (or memtlb ... --reserve)", st.total + need - st.free,
			file);
		return MT_EXIT_FAILURE;
	}
	ret = mt_hugetlb_reserve(kb, need, &st, &handle);
	if (ret || st.free < need) {
		if (ret)
			mt_err("--reserve: %s: %s", file, strerror(-ret));
		else
			mt_err("--reserve: %ld pages of %llu kB needed, the kernel found only %ld",
			       need, (unsigned long long)kb, st.free);
		if (handle >= 0)
			mt_cleanup_run(handle);
		return MT_EXIT_FAILURE;
	}
	return 0;
}

/* More tasks than CPUs is allowed (will-it-scale goes past nr_cpus too), but said. */
static void warn_cpus(const struct mt_config *cfg)
{
	static bool warned;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	if (warned || cpus <= 0 || cfg->tasks <= (unsigned long)cpus)
		return;
	mt_warn("--tasks %lu: more tasks than the %ld online CPUs: tasks take turns, and "
		"phase times include the waiting", cfg->tasks, cpus);
	warned = true;
}

int mt_cli_config_check(const struct mt_config *cfg)
{
	uint64_t total;
	int ret;

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
	/* Every later size (file length, pool pages, the memory guard) is a multiple. */
	if (__builtin_mul_overflow(cfg->region, regions_mapped(cfg), &total) ||
	    total > INT64_MAX) {
		mt_err("--region: %llu bytes x %llu regions: too large",
		       (unsigned long long)cfg->region, (unsigned long long)regions_mapped(cfg));
		return MT_EXIT_USAGE;
	}
	ret = check_workload(cfg);
	if (!ret)
		ret = check_memory(cfg);
	if (!ret)
		warn_cpus(cfg);
	if (!ret && cfg->pages == MT_PAGES_HUGETLB)
		ret = check_hugetlb_pool(cfg);
	return ret;
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
	struct mt_backend *be;
	int ret;

	if (!sel || !*sel || !strcmp(sel, "perf"))
		return 0;
	if (strncmp(sel, "replay:", 7) || !sel[7]) {
		mt_err("MEMTLB_BACKEND=%s: not a backend", sel);
		mt_hint("MEMTLB_BACKEND is perf (the default) or replay:FILE");
		return MT_EXIT_USAGE;
	}
	/* Parse it now: a bad file is bad input, not a failure mid-run. */
	ret = mt_backend_replay_create(&be, sel + 7);
	if (ret == -EINVAL) {
		mt_err("MEMTLB_BACKEND: %s: not a valid replay file", sel + 7);
		mt_hint("memtlb-stat(1), ENVIRONMENT, describes the format");
		return MT_EXIT_USAGE;
	}
	if (ret) {
		mt_err("MEMTLB_BACKEND: %s: %s", sel + 7, strerror(-ret));
		return MT_EXIT_USAGE;
	}
	be->ops->destroy(be);
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

static void hint_limit(int resource, const char *name, const char *ulimit)
{
	struct rlimit rl;
	char cur[32];

	if (getrlimit(resource, &rl) || rl.rlim_cur == RLIM_INFINITY)
		return;
	if (resource == RLIMIT_AS)
		mt_size_format(rl.rlim_cur, cur, sizeof(cur));
	else
		snprintf(cur, sizeof(cur), "%llu", (unsigned long long)rl.rlim_cur);
	mt_hint("%s is %s: raise it (%s) or ask for less", name, cur, ulimit);
}

int mt_cli_fail(const char *cmd, int err)
{
	mt_err("%s: %s", cmd, strerror(-err));
	if (err == -ENOMEM)
		hint_limit(RLIMIT_AS, "RLIMIT_AS", "ulimit -v");
	else if (err == -EMFILE)
		hint_limit(RLIMIT_NOFILE, "RLIMIT_NOFILE", "ulimit -n");
	else if (err == -EAGAIN)	/* fork or pthread_create of a task */
		hint_limit(RLIMIT_NPROC, "RLIMIT_NPROC", "ulimit -u");
	return MT_EXIT_FAILURE;
}

int mt_cli_measure_error(const char *cmd, int err, const struct mt_mismatch *bad)
{
	switch (err) {
	case -EILSEQ:
		mt_err("verify: %s of iteration %u: at %p: expected 0x%016llx, found 0x%016llx",
		       bad->phase, bad->iter, bad->addr, (unsigned long long)bad->expected,
		       (unsigned long long)bad->found);
		return MT_EXIT_FAILURE;
	case -ECHILD:
		if (!bad->why[0])
			break;
		mt_err("%s: %s", cmd, bad->why);
		return MT_EXIT_FAILURE;
	}
	return mt_cli_fail(cmd, err);
}
