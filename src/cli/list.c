// SPDX-License-Identifier: MIT
/* memtlb list: the event sets, what each event is here, and whether it counts. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd.h"
#include "cli/log.h"
#include "counters/evset.h"
#include "stats/stats.h"
#include "sys/sysinfo.h"
#include "sys/tracefs.h"

enum { OPT_PMU = MT_OPT_FIRST_FREE, OPT_NAMES };

static const struct option own_opts[] = {
	{ "pmu", required_argument, NULL, OPT_PMU },
	{ "names", no_argument, NULL, OPT_NAMES },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* The shared options list takes, model/config.c's. */
static const struct mt_cli_key keys[] = {
	{ .id = MT_CFG_EVENTS_DIR },
	{ .id = MT_CFG_VERBOSE, .help = "also list every PMU section of each set" },
	{ .id = MT_CLI_END },
};

static void help(void)
{
	printf("Usage: memtlb list [options] [SET]\n"
	       "Show the event sets, each event's encoding on this CPU and whether this\n"
	       "machine can count it.\n\n");
	mt_cli_help_of(keys, MT_GROUP_COUNTING);
	printf("      --pmu PMU            resolve for this libpfm4 PMU instead (skl, icl,\n"
	       "                           amd64_fam19h_zen3, ...): encodings only\n");
	mt_cli_help_of(keys, MT_GROUP_OUTPUT);
	printf("      --names              only the names -e takes, one a line, nothing\n"
	       "                           opened (for shell completion)\n"
	       "  -h, --help               this text\n");
}

static const char *type_name(__u32 type)
{
	switch (type) {
	case PERF_TYPE_HARDWARE: return "hardware";
	case PERF_TYPE_SOFTWARE: return "software";
	case PERF_TYPE_TRACEPOINT: return "tracepoint";
	case PERF_TYPE_HW_CACHE: return "hw_cache";
	case PERF_TYPE_RAW: return "raw";
	case PERF_TYPE_BREAKPOINT: return "breakpoint";
	}
	return "pmu";
}

/* One set's events on the PMU: resolved in two parts (see mt_evset_resolve_parts). */
struct shown {
	struct mt_event *ev;
	size_t n;
	const char *which;
	char err[512];
};

static int append(struct shown *sh, struct mt_event *ev, size_t n)
{
	struct mt_event *grown;

	if (!n)
		return 0;
	grown = realloc(sh->ev, (sh->n + n) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	memcpy(grown + sh->n, ev, n * sizeof(*ev));
	sh->ev = grown;
	sh->n += n;
	return 0;
}

/* The PMU's part after perf's names, as they are shown; the first error wins. */
static void merge(struct shown *sh, struct shown *part)
{
	sh->which = part->which;
	if (!sh->err[0] && part->err[0])
		snprintf(sh->err, sizeof(sh->err), "%s", part->err);
	else if (!sh->err[0] && append(sh, part->ev, part->n))
		snprintf(sh->err, sizeof(sh->err), "%s", strerror(ENOMEM));
	free(part->ev);
	part->ev = NULL;
	part->n = 0;
}

static void resolve_part(const struct mt_evset *set, const char *pmu, unsigned int part,
			 struct shown *sh)
{
	struct mt_event *ev = NULL;
	struct mt_msg msg;
	size_t n = 0;

	if (sh->err[0])
		return;
	if (mt_evset_resolve_parts(set, pmu, part, &ev, &n, &sh->which, &msg))
		snprintf(sh->err, sizeof(sh->err), "%s", msg.text);
	else if (append(sh, ev, n))
		snprintf(sh->err, sizeof(sh->err), "%s", strerror(ENOMEM));
	free(ev);
}

/*
 * Text from col on (the cursor is there), wrapped at 80 columns, each
 * further line indented to indent.
 */
static void wrap(const char *text, int indent, int col)
{
	const char *s = text;

	while (*s) {
		size_t n = strcspn(s, " ");

		if (col + 1 + (int)n > 80 && col > indent) {
			printf("\n%*s", indent - 1, "");
			col = indent - 1;
		}
		col += printf(" %.*s", (int)n, s);
		s += n;
		s += strspn(s, " ");
	}
	putchar('\n');
}

static void show_set(const struct mt_evset *set, struct shown *sh, const char *pmu,
		     bool try_open, int hw_counters, bool verbose)
{
	printf("%s:", set->name);
	wrap(set->description, 2, (int)strlen(set->name) + 1);
	if (verbose) {
		for (size_t i = 0; i < set->n_sections; i++)
			printf("  section: %s (%zu events)\n", set->sections[i].pmus,
			       set->sections[i].n);
	}
	if (sh->err[0] || !sh->n) {
		printf("  does not resolve here: %s\n\n", sh->err[0] ? sh->err : "no event");
		return;
	}
	printf("  for PMU %s: %s section\n", pmu[0] ? pmu : "(none)",
	       strcmp(sh->which, "generic") ? "its own" : "the generic (perf names)");
	for (size_t i = 0; i < sh->n; i++) {
		struct mt_event *ev = &sh->ev[i];
		/* Each event alone on this process: countable or why not. */
		bool opened = !try_open || !mt_counters_try(ev);
		const char *why;

		printf("  %-34s", ev->name);
		wrap(ev->meaning, 37, (int)(strlen(ev->name) > 34 ? strlen(ev->name) + 2 : 36));
		printf("      %s\n      type %u (%s) config %#llx  role %s\n      countable: ",
		       ev->fstr, ev->attr.type, type_name(ev->attr.type),
		       (unsigned long long)ev->attr.config, mt_role_name(mt_event_role(ev)));
		if (!try_open)
			printf("(not this machine's PMU)\n");
		else if (!opened)
			printf("unknown (the counters backend failed)\n");
		else if (!ev->err)
			printf("yes%s\n", ev->user_only ? " (user space only)" : "");
		else {
			why = mt_event_reason(ev, hw_counters);
			/* 80 columns: a long reason goes on a line of its own. */
			printf("not supported:%s%s\n", strlen(why) > 48 ? "\n        " : " ", why);
		}
	}
	putchar('\n');
}

/*
 * Beside tlb:*, what a TLB-flush study counts: the IPIs a flush sends, the
 * function-call vector they arrive on, and page faults. Shown where present.
 */
static const char *const study_tracepoints[] = {
	"ipi:ipi_send_cpu", "ipi:ipi_send_cpumask", "irq_vectors:call_function_entry",
	"irq_vectors:call_function_single_entry", "exceptions:page_fault_user",
	"exceptions:page_fault_kernel",
};

/* A field's symbolic values, wrapped to 80 columns: the filter's spellings. */
static void show_values(const char *dir, const char *name)
{
	char sys[MT_TRACEFS_NAME_MAX], sp[MT_TRACEFS_NAME_MAX];
	const char *colon = strchr(name, ':');
	struct mt_tracefs_format *fmt;

	fmt = malloc(sizeof(*fmt));
	if (!fmt || !colon || (size_t)(colon - name) >= sizeof(sys)) {
		free(fmt);
		return;
	}
	snprintf(sys, sizeof(sys), "%.*s", (int)(colon - name), name);
	if (mt_tracefs_format(dir, sys, colon + 1, fmt)) {
		free(fmt);
		return;
	}
	for (unsigned int i = 0; i < fmt->n_fields; i++) {
		const struct mt_tracefs_field *f = &fmt->fields[i];
		int col;

		if (!f->n_syms)
			continue;
		col = printf("      %s=", f->name);
		for (unsigned int j = 0; j < f->n_syms; j++) {
			mt_tracefs_spell(f->syms[j].label, sp, sizeof(sp));
			if (col + (int)strlen(sp) + 1 > 79)
				col = printf("\n       ") - 1;
			col += printf("%s%s", sp, j + 1 < f->n_syms ? "|" : "");
		}
		putchar('\n');
	}
	free(fmt);
}

static void show_tracepoint(const char *dir, const char *name, int hw_counters)
{
	struct mt_event *ev = NULL;
	char bad[512];
	size_t n;

	if (mt_events_resolve(name, &ev, &n, bad, sizeof(bad))) {
		printf("  %-40s not resolved: %.30s\n", name, strerror(EINVAL));
		return;
	}
	if (mt_counters_try(ev))
		printf("  %-40s countable: unknown (backend failed)\n", name);
	else if (!ev->err)
		printf("  %-40s countable: yes (id %llu)\n", name,
		       (unsigned long long)ev->attr.config);
	else
		printf("  %-40s countable: no\n      %s\n", name, mt_event_reason(ev, hw_counters));
	free(ev);
	show_values(dir, name);
}

/* The TLB tracepoints tracefs has here, and whether this machine counts them. */
static void show_tracepoints(int hw_counters)
{
	char dir[4096], names[4096], one[2 * MT_TRACEFS_NAME_MAX + 2];
	char *tok, *save = NULL;
	int ret;

	ret = mt_tracefs_dir(dir, sizeof(dir));
	printf("TLB tracepoints (-e SYSTEM:NAME[/FIELD=VALUE/], set flush):\n");
	if (ret == -ENOENT) {
		printf("  not supported: tracefs is not mounted\n"
		       "  (mount -t tracefs nodev /sys/kernel/tracing)\n\n");
		return;
	}
	if (ret) {
		printf("  not supported: tracefs cannot be read by this user (%s)\n\n",
		       strerror(-ret));
		return;
	}
	if (mt_tracefs_list(dir, "tlb", names, sizeof(names)))
		names[0] = '\0';
	for (tok = strtok_r(names, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		snprintf(one, sizeof(one), "tlb:%s", tok);
		show_tracepoint(dir, one, hw_counters);
	}
	for (size_t i = 0; i < sizeof(study_tracepoints) / sizeof(study_tracepoints[0]); i++) {
		const char *name = study_tracepoints[i], *colon = strchr(name, ':');
		char sys[MT_TRACEFS_NAME_MAX];
		uint64_t id;

		snprintf(sys, sizeof(sys), "%.*s", (int)(colon - name), name);
		if (!mt_tracefs_id(dir, sys, colon + 1, &id))
			show_tracepoint(dir, name, hw_counters);
	}
	putchar('\n');
}

/* What -e takes for a set's event: an ALIAS=EVENT entry's EVENT. */
static const char *spec_of(const struct mt_evset *set, const char *name)
{
	for (size_t i = 0; i < set->n_sections; i++)
		for (size_t k = 0; k < set->sections[i].n; k++)
			if (!strcmp(set->sections[i].entries[k].alias, name))
				return set->sections[i].entries[k].event;
	return name;
}

/* name, once: seen (its text in *buf) holds the names printed, each framed by "\n". */
static void print_once(FILE *seen, char **buf, const char *name)
{
	char key[MT_EVENT_NAME_MAX + 2];

	snprintf(key, sizeof(key), "\n%s\n", name);
	fflush(seen);
	if (*buf && strstr(*buf, key))
		return;
	fprintf(seen, "%s", key + 1);
	printf("%s\n", name);
}

/*
 * One name a line: the sets' events as resolved here (what -e takes: an
 * ALIAS=EVENT entry's EVENT), then the TLB tracepoints tracefs has.
 * Nothing is opened: completion runs this on a keystroke.
 */
static void print_names(const struct mt_evsets *sets, const struct shown *shown)
{
	char dir[4096], names[4096], one[2 * MT_TRACEFS_NAME_MAX + 2];
	char *tok, *save = NULL, *buf = NULL;
	size_t len = 0;
	FILE *seen = open_memstream(&buf, &len);

	if (!seen)
		return;
	fputc('\n', seen);
	for (size_t i = 0; i < sets->n; i++)
		for (size_t k = 0; k < shown[i].n; k++)
			print_once(seen, &buf, spec_of(&sets->sets[i], shown[i].ev[k].name));
	if (!mt_tracefs_dir(dir, sizeof(dir))) {
		if (!mt_tracefs_list(dir, "tlb", names, sizeof(names)))
			for (tok = strtok_r(names, " ", &save); tok;
			     tok = strtok_r(NULL, " ", &save)) {
				snprintf(one, sizeof(one), "tlb:%s", tok);
				print_once(seen, &buf, one);
			}
		for (size_t i = 0; i < sizeof(study_tracepoints) / sizeof(study_tracepoints[0]);
		     i++) {
			const char *name = study_tracepoints[i], *colon = strchr(name, ':');
			char sys[MT_TRACEFS_NAME_MAX];
			uint64_t id;

			snprintf(sys, sizeof(sys), "%.*s", (int)(colon - name), name);
			if (!mt_tracefs_id(dir, sys, colon + 1, &id))
				print_once(seen, &buf, name);
		}
	}
	fclose(seen);
	free(buf);
}

static int cmd_list(int argc, char *argv[])
{
	const char *force = NULL;
	const struct option *cmdopts;
	struct mt_config cfg;
	struct mt_evsets *sets = NULL;
	struct shown *shown, *pmu_part = NULL;
	struct mt_sysinfo si;
	char dir[4096], pmu[64];
	struct mt_msg msg;
	bool names = false;
	int c, ret;

	/* --events-dir and -v are read as every command reads them */
	mt_config_init(&cfg);
	opterr = 0;
	optind = 1;
	cmdopts = mt_cli_longopts_of(keys, own_opts);
	while ((c = getopt_long(argc, argv, mt_cli_shortopts_of(keys, "h"), cmdopts,
				NULL)) != -1) {
		switch (c) {
		case 'h':
			help();
			return MT_EXIT_OK;
		case OPT_PMU:
			force = optarg;
			break;
		case OPT_NAMES:
			names = true;
			break;
		default:
			if (c == '?' || c == ':' || !mt_cli_is_workload_opt(c))
				return mt_cli_getopt_error("list", c, argv);
			ret = mt_cli_workload_opt(c, optarg, &cfg);
			if (ret)
				return ret;
		}
	}
	if (argc - optind > 1) {
		mt_err("list: unexpected argument '%s'", argv[optind + 1]);
		return MT_EXIT_USAGE;
	}
	mt_evsets_dir(cfg.events_dir, dir, sizeof(dir));
	ret = mt_evsets_load(&sets, dir, &msg);
	if (ret) {
		mt_err("list: %s", msg.text);
		return ret == -EINVAL ? MT_EXIT_USAGE : MT_EXIT_FAILURE;
	}
	if (optind < argc && !mt_evsets_find(sets, argv[optind])) {
		mt_err("list: %s: no such event set in %s", argv[optind], dir);
		mt_evsets_destroy(sets);
		return MT_EXIT_USAGE;
	}
	shown = calloc(sets->n + 1, sizeof(*shown));
	if (!shown) {
		mt_evsets_destroy(sets);
		return MT_EXIT_FAILURE;
	}
	/*
	 * --pmu: the PMU's part first, while libpfm4 has seen no other PMU
	 * (mt_pmu_force says why), then perf's names with the machine's
	 * PMUs back: a forced libpfm4 knows nothing but the forced PMU.
	 */
	if (force) {
		if (mt_pmu_force(force) || mt_pmu_core_name(pmu, sizeof(pmu)) ||
		    strcmp(pmu, force)) {
			mt_err("list: --pmu %s: not a core PMU libpfm4 knows", force);
			ret = MT_EXIT_USAGE;
			goto out;
		}
		pmu_part = calloc(sets->n + 1, sizeof(*pmu_part));
		if (!pmu_part) {
			ret = MT_EXIT_FAILURE;
			goto out;
		}
		for (size_t i = 0; i < sets->n; i++)
			resolve_part(&sets->sets[i], pmu, MT_EVSET_PMU_PART, &pmu_part[i]);
		mt_pmu_unforce();
		for (size_t i = 0; i < sets->n; i++) {
			resolve_part(&sets->sets[i], pmu, MT_EVSET_COMMON_PART, &shown[i]);
			merge(&shown[i], &pmu_part[i]);
		}
	} else {
		mt_pmu_core_name(pmu, sizeof(pmu));
		for (size_t i = 0; i < sets->n; i++)
			resolve_part(&sets->sets[i], pmu, MT_EVSET_COMMON_PART, &shown[i]);
		for (size_t i = 0; i < sets->n; i++)
			resolve_part(&sets->sets[i], pmu, MT_EVSET_PMU_PART, &shown[i]);
	}
	if (names) {
		print_names(sets, shown);
		ret = MT_EXIT_OK;
		goto out;
	}
	mt_sysinfo_read(&si);
	printf("event sets from %s\n", dir);
	if (!force) {
		char cores[256];

		if (mt_pmu_present_cores(cores, sizeof(cores), true) > 1)
			printf("hybrid CPU: core PMUs %s; the sets resolve for %s, so their PMU "
			       "events count on %s cores only\n", cores, pmu, pmu);
	}
	putchar('\n');
	if (optind == argc && !force)
		show_tracepoints(si.hw_counters);
	for (size_t i = 0; i < sets->n; i++) {
		if (optind < argc && strcmp(sets->sets[i].name, argv[optind]))
			continue;
		show_set(&sets->sets[i], &shown[i], pmu, !force, si.hw_counters, cfg.verbose);
	}
	ret = MT_EXIT_OK;
out:
	for (size_t i = 0; i < sets->n; i++)
		free(shown[i].ev);
	free(shown);
	free(pmu_part);		/* merge took its events */
	mt_evsets_destroy(sets);
	return ret;
}

const struct mt_cmd mt_cmd_list = {
	.name = "list",
	.fn = cmd_list,
	.help = "show the event sets and what this machine can count",
};
