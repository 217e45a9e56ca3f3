// SPDX-License-Identifier: MIT
/* Options shared by the commands, and how their errors are said. */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cmd.h"
#include "cli/csvsep.h"
#include "cli/log.h"
#include "cli/sink.h"
#include "report/perfstat.h"
#include "counters/backend.h"
#include "counters/evnames.h"
#include "counters/evset.h"
#include "counters/resolve.h"
#include "model/config.h"
#include "model/size.h"
#include "model/suggest.h"
#include "report/json.h"
#include "report/table.h"
#include "sys/file.h"
#include "sys/journal.h"
#include "workload/check.h"

int mt_cli_size_opt(const char *opt, const char *arg, uint64_t *out)
{
	const char *what, *hint;

	if (!mt_size_parse(arg, out) && *out)
		return 0;
	mt_size_explain(arg, &what, &hint);
	mt_err("%s: %s: %s", opt, arg, what);
	if (hint[0])
		mt_hint("%s", hint);
	return MT_EXIT_USAGE;
}

int mt_cli_count_opt(const char *opt, const char *arg, unsigned long *out)
{
	if (mt_count_parse(arg, 1000000, out)) {
		mt_err("%s: %s: not a count from 1 to 1000000", opt, arg);
		return MT_EXIT_USAGE;
	}
	return 0;
}

int mt_cli_pct_parse(const char *s, double *out)
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

int mt_cli_report_load(const char *path, struct mt_report **out)
{
	struct mt_msg msg;
	int ret = mt_report_load(path, out, &msg);

	if (ret == -EPROTO) {
		mt_err("%s: %s", path, msg.text);
		mt_hint("compare reports written by the same memtlb schema, or rerun "
			"the older measurement");
	} else if (ret == -EINVAL) {
		mt_err("%s: %s", path, msg.text);
	} else if (ret) {
		mt_err("%s: %s", path, strerror(-ret));
	}
	return ret ? MT_EXIT_USAGE : 0;
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

int mt_cli_format_opt(const char *arg, unsigned int allowed, enum mt_format *out)
{
	struct mt_msg msg;

	if (!mt_format_choose(arg, allowed, out, &msg))
		return 0;
	mt_err("--format: %s", msg.text);
	mt_hint("%s", msg.hint);
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

int mt_cli_output_not_input(const char *output, const char *const *inputs, size_t n)
{
	for (size_t i = 0; output && strcmp(output, "-") && i < n; i++) {
		if (inputs[i] && mt_file_same(output, inputs[i])) {
			mt_err("-o: %s: is the input %s", output, inputs[i]);
			mt_hint("write the report to another file: the input is read, never replaced");
			return MT_EXIT_USAGE;
		}
	}
	return 0;
}

int mt_cli_tlb_opt(const char *path, struct mt_reach *out, size_t *n)
{
	struct mt_msg msg;
	int ret = mt_report_load_tlb(path, out, n, &msg);

	if (ret) {
		mt_err("--tlb: %s: %s", path, msg.text[0] ? msg.text : strerror(-ret));
		mt_hint("--tlb takes what memtlb probe writes: memtlb probe -o p.json");
		return MT_EXIT_USAGE;
	}
	if (!*n)
		mt_warn("--tlb: %s: the probe found no TLB level: cpuid's only", path);
	return 0;
}

/* A config error from below: its line and its hint, exit 2. */
int mt_cli_usage(const struct mt_msg *msg)
{
	mt_err("%s", msg->text);
	if (msg->hint[0])
		mt_hint("%s", msg->hint);
	return MT_EXIT_USAGE;
}

/*
 * perf stat's spellings beside a key: --repeat N, -x SEP, -j. In the order
 * of their ids (MT_CLI_REPEAT...), after the key whose group lists them.
 */
static const struct alias {
	struct option opt;
	const char *arg, *help;
	enum mt_cfg_key after;
} aliases[MT_CLI_END - MT_CFG_MAX] = {
	[MT_CLI_REPEAT - MT_CFG_MAX] = { { "repeat", required_argument, NULL, 'r' }, "N",
		"the same, perf stat's -r", MT_CFG_ITERATIONS },
	[MT_CLI_FIELD_SEP - MT_CFG_MAX] = { { "field-separator", required_argument, NULL, 'x' },
		"SEP", "CSV with SEP between fields (perf stat -x)", MT_CFG_FORMAT },
	[MT_CLI_JSON - MT_CFG_MAX] = { { "json", no_argument, NULL, 'j' }, NULL,
		"JSON (--format json)", MT_CFG_FORMAT },
};

#define N_ALIASES (sizeof(aliases) / sizeof(aliases[0]))

static int key_code(const struct mt_config_key *k, enum mt_cfg_key id)
{
	return k->letter ? (int)k->letter : (int)MT_OPT_KEY(id);
}

/* The shared key getopt's c stands for, in the groups; NULL if none. */
static const struct mt_config_key *key_of(int c, unsigned int groups)
{
	const struct mt_config_key *keys;
	size_t n;

	keys = mt_config_keys(&n);
	for (size_t i = 0; i < n; i++)
		if (keys[i].group && (groups & 1u << keys[i].group) &&
		    key_code(&keys[i], (enum mt_cfg_key)i) == c)
			return &keys[i];
	return NULL;
}

/* A key or an alias of a list as getopt and --help see it. */
struct opt_def {
	struct option opt;
	const char *arg, *help;
	enum mt_key_group group;
};

static void opt_def(const struct mt_cli_key *e, struct opt_def *d)
{
	const struct mt_config_key *keys, *k;
	size_t n;

	keys = mt_config_keys(&n);
	if (e->id >= MT_CFG_MAX) {
		const struct alias *a = &aliases[e->id - MT_CFG_MAX];

		*d = (struct opt_def){ a->opt, a->arg, a->help, keys[a->after].group };
	} else {
		k = &keys[e->id];
		*d = (struct opt_def){ { k->name, k->type == MT_KEY_FLAG ? no_argument :
					 required_argument, NULL, key_code(k, e->id) },
				       k->arg, k->help, k->group };
	}
	if (e->help)
		d->help = e->help;
}

const struct option *mt_cli_longopts_of(const struct mt_cli_key *list,
					const struct option *own)
{
	static struct option opts[MT_CLI_END + 64];
	struct opt_def d;
	size_t o = 0;

	for (; list->id != MT_CLI_END && o < MT_CLI_END; list++) {
		opt_def(list, &d);
		opts[o++] = d.opt;
	}
	for (; own && own->name && o + 1 < sizeof(opts) / sizeof(opts[0]); own++)
		opts[o++] = *own;
	opts[o] = (struct option){ NULL, 0, NULL, 0 };
	return opts;
}

const char *mt_cli_shortopts_of(const struct mt_cli_key *list, const char *own)
{
	static char s[128];
	struct opt_def d;
	size_t len;

	len = (size_t)snprintf(s, sizeof(s), "+:");
	for (; list->id != MT_CLI_END && len < sizeof(s); list++) {
		opt_def(list, &d);
		if (d.opt.val < 0x100)
			len += (size_t)snprintf(s + len, sizeof(s) - len, "%c%s", d.opt.val,
						d.opt.has_arg ? ":" : "");
	}
	if (len < sizeof(s))
		snprintf(s + len, sizeof(s) - len, "%s", own ? own : "");
	return s;
}

/* The keys of groups, each followed by its aliases; region false: without -r. */
static const struct mt_cli_key *group_list(unsigned int groups, bool region)
{
	static struct mt_cli_key list[MT_CLI_END + 1];
	const struct mt_config_key *keys;
	size_t n, o = 0;

	keys = mt_config_keys(&n);
	for (size_t i = 0; i < n; i++) {
		if (!keys[i].group || !(groups & 1u << keys[i].group) ||
		    (!region && i == MT_CFG_REGION))
			continue;
		list[o++] = (struct mt_cli_key){ (int)i, NULL };
		for (size_t a = 0; a < N_ALIASES; a++)
			if (aliases[a].after == i)
				list[o++] = (struct mt_cli_key){ MT_CFG_MAX + (int)a, NULL };
	}
	list[o] = (struct mt_cli_key){ MT_CLI_END, NULL };
	return list;
}

const struct option *mt_cli_longopts(unsigned int groups, const struct option *own)
{
	return mt_cli_longopts_of(group_list(groups, true), own);
}

const char *mt_cli_shortopts(unsigned int groups, const char *own)
{
	return mt_cli_shortopts_of(group_list(groups, true), own);
}

/* "  -r, --region SIZE" to column 27, then help, its later lines under it. */
static void help_line(int letter, const char *name, const char *arg, const char *help)
{
	char left[64];
	int n;

	n = snprintf(left, sizeof(left), "  %c%c%c --%s%s%s", letter ? '-' : ' ',
		     letter ? letter : ' ', letter ? ',' : ' ', name, arg ? " " : "",
		     arg ? arg : "");
	printf("%s%*s", left, n < 25 ? 27 - n : 2, "");
	for (const char *l = help; *l;) {
		size_t len = strcspn(l, "\n");

		printf("%.*s\n", (int)len, l);
		l += len;
		if (*l)
			printf("%27s", "");
		l += *l == '\n';
	}
}

void mt_cli_help_of(const struct mt_cli_key *list, enum mt_key_group group)
{
	struct opt_def d;

	for (; list->id != MT_CLI_END; list++) {
		opt_def(list, &d);
		if (group == MT_GROUP_NONE || d.group == group)
			help_line(d.opt.val < 0x100 ? d.opt.val : 0, d.opt.name, d.arg, d.help);
	}
}

void mt_cli_help_keys(unsigned int groups, bool region)
{
	static const char *const heading[MT_GROUP_MAX] = {
		[MT_GROUP_WORKLOAD] = "Workload:", [MT_GROUP_COUNTING] = "Counting:",
		[MT_GROUP_OUTPUT] = "Output:", [MT_GROUP_REPETITION] = "Repetition:",
	};
	const struct mt_cli_key *list = group_list(groups, region);

	for (int g = MT_GROUP_WORKLOAD; g < MT_GROUP_MAX; g++) {
		if (!(groups & 1u << g))
			continue;
		printf("%s\n", heading[g]);
		mt_cli_help_of(list, (enum mt_key_group)g);
	}
}

static const char *workload_key(int c)
{
	const struct mt_config_key *k;

	for (size_t a = 0; a < N_ALIASES; a++)
		if (aliases[a].opt.val == c)
			return aliases[a].opt.name;
	k = key_of(c, MT_GROUPS_SHARED & ~(1u << MT_GROUP_REPETITION));
	return k ? k->name : NULL;
}

bool mt_cli_is_workload_opt(int c)
{
	return workload_key(c);
}

/* -e given again adds to the list (perf's way); one command line per process */
static int add_events(struct mt_config *cfg, const char *arg)
{
	static char list[4096];
	size_t len = strlen(cfg->events);

	if (cfg->events != list)
		snprintf(list, sizeof(list), "%s", cfg->events);
	if (len + 1 + strlen(arg) >= sizeof(list)) {
		mt_err("-e: %s: the event list is too long", arg);
		return MT_EXIT_USAGE;
	}
	snprintf(list + len, sizeof(list) - len, ",%s", arg);
	cfg->events = list;
	return MT_EXIT_OK;
}

/* perf stat's spellings: -x SEP, -j, --repeat N. */
static int alias_opt(int c, const char *arg, struct mt_config *cfg, const char **key)
{
	switch (c) {
	case 'x':
		if (mt_csvsep_check(arg, &cfg->csv_sep)) {
			mt_err("-x: '%s': not a field separator", arg);
			mt_hint("one character, not a letter, digit, quote, '.' or '-': "
				"-x, -x';' -x'\\t'");
			return MT_EXIT_USAGE;
		}
		cfg->format = MT_FORMAT_CSV;
		cfg->perf_lines = true;
		return MT_EXIT_OK;
	case 'j':
		cfg->format = MT_FORMAT_JSON;
		cfg->perf_lines = true;
		return MT_EXIT_OK;
	case 'r':
		/* perf's -r repeats; test_with_mmap's -r SIZE is --region's */
		if (arg[strspn(arg, "0123456789")]) {
			mt_err("-r: %s: not a count: -r repeats the run, as perf stat -r", arg);
			mt_hint("the region is --region %s (test_with_mmap's -r)", arg);
			return MT_EXIT_USAGE;
		}
		*key = "iterations";
		return -1;
	case 'e':
		if (cfg->events_given)
			return add_events(cfg, arg);
		return -1;
	default:
		return -1;
	}
}

int mt_cli_workload_opt(int c, const char *arg, struct mt_config *cfg)
{
	const char *key = workload_key(c);
	struct mt_msg msg;
	int ret;

	if (!key)
		return MT_EXIT_OK;
	ret = alias_opt(c, arg, cfg, &key);
	if (ret >= 0)
		return ret;
	if (!mt_config_set(cfg, key, arg, &msg))
		return MT_EXIT_OK;
	mt_err("--%s: %s", c == 'r' ? "repeat" : key, msg.text);
	if (msg.hint[0])
		mt_hint("%s", msg.hint);
	return MT_EXIT_USAGE;
}

static const char *repeat_key(int c)
{
	const struct mt_config_key *k = key_of(c, 1u << MT_GROUP_REPETITION);

	return k ? k->name : NULL;
}

bool mt_cli_is_repeat_opt(int c)
{
	return repeat_key(c);
}

int mt_cli_repeat_opt(int c, const char *arg, struct mt_config *cfg, bool *limits)
{
	const char *key = repeat_key(c);
	struct mt_msg msg;

	if (!key)
		return MT_EXIT_OK;
	/* the limits of --ci-target's count, which need it */
	*limits |= c != MT_OPT_KEY(MT_CFG_WARMUP) && c != MT_OPT_KEY(MT_CFG_CI_TARGET);
	if (!mt_config_set(cfg, key, arg, &msg))
		return MT_EXIT_OK;
	mt_err("--%s: %s", key, msg.text);
	if (msg.hint[0])
		mt_hint("%s", msg.hint);
	return MT_EXIT_USAGE;
}

int mt_cli_repeat_check(const char *cmd, const struct mt_config *cfg, bool limits,
			size_t points)
{
	struct mt_config room = *cfg;

	if (limits && cfg->ci_target <= 0) {
		mt_err("%s: --min-iterations, --max-iterations, --max-time%s need --ci-target",
		       cmd, strcmp(cmd, "stat") ? "" : " and --phase");
		mt_hint("--ci-target 5 --max-iterations 60, or -i N for a fixed count");
		return MT_EXIT_USAGE;
	}
	if (cfg->ci_target > 0 && cfg->min_iterations > cfg->max_iterations) {
		mt_err("%s: --min-iterations %lu is above --max-iterations %lu", cmd,
		       cfg->min_iterations, cfg->max_iterations);
		mt_hint("--max-iterations defaults to 100");
		return MT_EXIT_USAGE;
	}
	/* The report holds every iteration that may run: sized on the most. */
	room.iterations = cfg->warmup + (cfg->ci_target > 0 ? cfg->max_iterations :
					 cfg->iterations);
	return mt_cli_report_size_check(&room, points);
}

/*
 * -o is checked up front: a long run must not fail at its very end. The
 * name, the directory, what is there now: all that can be known before.
 */
int mt_cli_output_check(const char *path)
{
	struct mt_msg msg;

	if (mt_file_output_check(path, &msg)) {
		mt_err_msg(&msg, "-o: %s", path);
		return MT_EXIT_USAGE;
	}
	return 0;
}

/* A JSON report memtlb could not read back is refused before the run. */
int mt_cli_report_size_check(const struct mt_config *cfg, size_t points)
{
	struct mt_msg msg;

	if (!cfg->output && cfg->format != MT_FORMAT_JSON)
		return 0;
	if (mt_report_size_check(cfg, points, &msg)) {
		mt_err("%s: %s", cfg->output ? "-o" : "--format json", msg.text);
		mt_hint("fewer --iterations or --passes%s", points > 1 ? ", or fewer points" : "");
		return MT_EXIT_USAGE;
	}
	return 0;
}

/* A caveat said once, however many points of a sweep share it. */
static void warn_once(const struct mt_msg *msg)
{
	static char said[4][sizeof(msg->text)];

	for (size_t i = 0; i < sizeof(said) / sizeof(said[0]); i++) {
		if (!strcmp(said[i], msg->text))
			return;
		if (!said[i][0]) {
			snprintf(said[i], sizeof(said[i]), "%s", msg->text);
			break;
		}
	}
	mt_warn("%s", msg->text);
}

/* What a replay found, on standard error before anything is measured. */
static void say_recovered(const char *note)
{
	if (!note[0])
		return;
	mt_warn("%s", note);
	mt_hint("that memtlb was killed (SIGKILL, the OOM killer) before it could restore");
}

int mt_cli_machine_lock(void)
{
	char note[1024];
	pid_t holder;
	int ret;

	ret = mt_journal_lock(false, &holder, note, sizeof(note));
	if (ret == -EWOULDBLOCK) {
		if (holder > 0)
			fprintf(stderr, "memtlb: waiting for memtlb PID %ld (it changes kernel "
				"tunables or hugetlb pools)\n", (long)holder);
		else
			fprintf(stderr, "memtlb: waiting for another memtlb (it changes kernel "
				"tunables or hugetlb pools)\n");
		ret = mt_journal_lock(true, &holder, note, sizeof(note));
	}
	if (ret == -ETIMEDOUT) {
		if (holder > 0)
			mt_err("machine lock: memtlb PID %ld still holds it: gave up waiting",
			       (long)holder);
		else
			mt_err("machine lock: another memtlb still holds it: gave up waiting");
		mt_hint("wait for it to end, or set %s (seconds; default %d)",
			MT_JOURNAL_LOCK_TIMEOUT_ENV, MT_JOURNAL_LOCK_TIMEOUT_S);
		return MT_EXIT_FAILURE;
	}
	if (!ret)
		say_recovered(note);
	return 0;
}

void mt_cli_machine_recover(void)
{
	char note[1024];

	if (!mt_journal_recover(note, sizeof(note)))
		say_recovered(note);
}

int mt_cli_config_check(const struct mt_config *cfg)
{
	struct mt_msg msg;
	int ret;

	if (cfg->output && mt_cli_output_check(cfg->output))
		return MT_EXIT_USAGE;
	if (mt_cli_report_size_check(cfg, 1))
		return MT_EXIT_USAGE;
	if (mt_workload_check(cfg, &msg)) {
		ret = mt_cli_usage(&msg);
		return ret;
	}
	if (mt_workload_caveat(cfg, &msg))
		warn_once(&msg);
	if (cfg->reserve) {
		ret = mt_cli_machine_lock();
		if (ret)
			return ret;
	} else {
		mt_cli_machine_recover();
	}
	ret = mt_workload_pool(cfg, &msg);
	if (ret) {
		mt_err("%s", msg.text);
		if (msg.hint[0])
			mt_hint("%s", msg.hint);
		return MT_EXIT_FAILURE;
	}
	return 0;
}

/*
 * The element getopt was at when it failed. getopt leaves optind on an
 * element it has not finished ("-x," with x unknown) and moves past one it
 * has: argv[optind - 1] named the element before ("run", "64m") in the
 * first case. optopt is the short option (0 for an unknown long one).
 */
static const char *failed_element(int c, int argc, char *argv[])
{
	const char *cur = optind < argc ? argv[optind] : NULL;

	/* a missing value ends its element: getopt moved past it */
	if (c != ':' && optopt && cur && cur[0] == '-' && cur[1] != '-' && strchr(cur + 1, optopt))
		return cur;
	return optind > 0 ? argv[optind - 1] : "";
}

/*
 * perf's letters a command does not take, each with what a perf user
 * meant by it: said, never taken for something else (stat -p 31994 once
 * started a run of 31994 passes). One meaning per letter in every command.
 */
static const struct {
	char letter;
	const char *meant, *instead;
} reflexes[] = {
	{ 'p', "counts a running process (perf stat -p PID)",
	  "memtlb run -p PID counts one; the passes are --passes N" },
	{ 'r', "repeats the run (perf stat -r N)", "memtlb %s --help lists the options" },
	{ 'I', "prints counts at intervals (perf stat -I MS)", "memtlb run -I MS prints them" },
	{ 'a', "counts every CPU (perf stat -a)",
	  "memtlb counts its own workload, or a command: memtlb run" },
};

static bool reflex_hint(const char *cmd, int letter)
{
	for (size_t i = 0; i < sizeof(reflexes) / sizeof(reflexes[0]); i++) {
		if (reflexes[i].letter != letter)
			continue;
		mt_err("%s: -%c: not an option of memtlb %s; in perf it %s", cmd, letter, cmd,
		       reflexes[i].meant);
		mt_hint(reflexes[i].instead, cmd);
		return true;
	}
	return false;
}

int mt_cli_getopt_fail(const char *cmd, int c, int argc, char *argv[],
		       const struct option *opts)
{
	const char *el = failed_element(c, argc, argv), *near = NULL;
	char name[64];
	bool is_long = !strncmp(el, "--", 2);

	if (is_long)
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(el, "="), el);
	else
		snprintf(name, sizeof(name), "-%c", optopt ? optopt : '?');
	if (!is_long && optopt && reflex_hint(cmd, optopt))
		return MT_EXIT_USAGE;
	if (c == ':') {
		mt_err("%s: option '%s' needs a value", cmd, name);
	} else if (is_long && strchr(el, '=') && optopt) {
		mt_err("%s: option '%s' takes no value", cmd, name);
	} else {
		mt_err("%s: unknown option '%s'", cmd, name);
		if (is_long && opts) {
			const char *names[128];
			size_t n = 0;

			for (const struct option *o = opts; o->name && n < 128; o++)
				names[n++] = o->name;
			near = mt_suggest(name + 2, names, n);
		}
	}
	if (near)
		mt_hint("did you mean --%s? memtlb %s --help lists the options", near, cmd);
	else
		mt_hint("memtlb %s --help lists the options", cmd);
	return MT_EXIT_USAGE;
}

int mt_cli_getopt_error(const char *cmd, int c, char *argv[])
{
	int argc = 0;

	while (argv[argc])
		argc++;
	return mt_cli_getopt_fail(cmd, c, argc, argv, NULL);
}

static int resolve_set(const struct mt_config *cfg, struct mt_event **ev, size_t *n)
{
	char dir[4096], pmu[64];
	struct mt_msg msg;
	const struct mt_evset *set;
	struct mt_evsets *sets;
	const char *which;
	int ret;

	if (cfg->events_given) {
		mt_err("--events: %s: give either -e or --events, not both", cfg->event_set);
		return MT_EXIT_USAGE;
	}
	mt_evsets_dir(cfg->events_dir, dir, sizeof(dir));
	ret = mt_evsets_load(&sets, dir, &msg);
	/* The default set where it cannot be read: its generic events (-ENOENT). */
	if (mt_config_events_default(cfg) && (ret || !mt_evsets_find(sets, cfg->event_set))) {
		if (!ret)
			mt_evsets_destroy(sets);
		return -ENOENT;
	}
	if (ret) {
		mt_err("--events: %s", msg.text);
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
	ret = mt_evset_resolve(set, pmu, ev, n, &which, &msg);
	mt_evsets_destroy(sets);
	if (ret && mt_config_events_default(cfg))
		return -ENOENT;
	if (ret) {
		mt_err("--events: %s", msg.text);
		return ret == -EINVAL ? MT_EXIT_USAGE : MT_EXIT_FAILURE;
	}
	return 0;
}

/*
 * "NAME: event not found" (or a unit mask not found) from the resolver: the
 * nearest names as the hint.
 */
static bool event_suggest(const char *msg)
{
	static const char *const tails[] = { ": event not found", ": invalid event attribute" };
	size_t len = strlen(msg), tl = 0;
	char name[256], near[512];

	for (size_t i = 0; i < 2 && !tl; i++) {
		size_t l = strlen(tails[i]);

		if (len > l && !strcmp(msg + len - l, tails[i]))
			tl = l;
	}
	if (!tl || len - tl >= sizeof(name))
		return false;
	snprintf(name, sizeof(name), "%.*s", (int)(len - tl), msg);
	if (mt_evnames_suggest(name, near, sizeof(near)))
		return false;
	mt_hint("did you mean %s?", near);
	return true;
}

int mt_cli_resolve_events(const struct mt_config *cfg, struct mt_event **ev, size_t *n)
{
	struct mt_msg why;
	char msg[512];
	int ret;

	ret = mt_backend_check(&why);
	if (ret)
		return mt_cli_usage(&why);
	if (cfg->event_set) {
		ret = resolve_set(cfg, ev, n);
		if (ret != -ENOENT)
			return ret;
	}
	ret = mt_events_resolve(cfg->events, ev, n, msg, sizeof(msg));
	if (ret == -EINVAL) {
		/* The resolver's own hint follows a newline (a tracepoint's values). */
		char *hint = strchr(msg, '\n');

		if (hint)
			*hint++ = '\0';
		mt_err("-e: %s", msg);
		if (!hint && !event_suggest(msg))
			mt_hint("perf names (cycles, dTLB-load-misses, minor-faults) or libpfm4 "
				"names (DTLB_LOAD_MISSES:WALK_COMPLETED)");
		/* Each of its lines a hint: a list of names wraps to 80 columns. */
		for (char *next; hint; hint = next) {
			next = strchr(hint, '\n');
			if (next)
				*next++ = '\0';
			mt_hint("%s", hint);
		}
		return MT_EXIT_USAGE;
	}
	if (ret) {
		mt_err("-e: %s", ret == -ENODEV ? msg : strerror(-ret));
		return MT_EXIT_FAILURE;
	}
	return 0;
}

int mt_cli_print_csv(FILE *out, char sep, int (*print)(FILE *, const void *), const void *arg)
{
	FILE *f;
	int ret;

	if (!sep || sep == ',')
		return print(out, arg);
	f = mt_csvsep_open(out, sep);
	if (!f)
		return -errno;
	ret = print(f, arg);
	if (fclose(f) && !ret)
		ret = -EIO;
	return ret;
}

static int print_csv(FILE *f, const void *rep)
{
	return mt_report_print_csv(f, rep);
}

struct view {
	const struct mt_report *rep;
	const struct mt_config *cfg;
};

static int print_view(FILE *f, const void *arg)
{
	const struct view *v = arg;

	/* perf stat's -x and -j lines where perf has them: a command's counts */
	if (v->cfg->perf_lines && !strcmp(v->rep->command, "run") && !v->rep->grid &&
	    v->cfg->format != MT_FORMAT_TABLE)
		return mt_perfstat_print(f, v->rep, v->cfg->csv_sep,
					 v->cfg->format == MT_FORMAT_JSON);
	switch (v->cfg->format) {
	case MT_FORMAT_TABLE:
		return mt_report_print_table(f, v->rep, v->cfg->verbose || v->cfg->wide);
	case MT_FORMAT_CSV:
		return mt_cli_print_csv(f, v->cfg->csv_sep, print_csv, v->rep);
	case MT_FORMAT_JSON:
	default:
		return mt_report_print_json(f, v->rep);
	}
}

int mt_cli_report_json(FILE *f, const void *rep)
{
	return mt_report_print_json(f, rep);
}

int mt_cli_report_emit(const struct mt_report *rep, const struct mt_config *cfg, FILE *out)
{
	struct view v = { rep, cfg };
	struct mt_sink sink = {
		.output = cfg->output, .mode = MT_FILE_MODE_AS_SHELL, .doc = { mt_cli_report_json, rep },
		.stream = out, .view = { print_view, &v },
	};

	if (rep->user_only) {
		mt_warn("counting user space only: kernel.perf_event_paranoid=%d forbids kernel "
			"counting for this user", rep->system.perf_event_paranoid);
		mt_hint("sysctl kernel.perf_event_paranoid=1 (or run as root) counts the "
			"kernel too");
	}
	return mt_sink_emit(&sink);
}

int mt_cli_report_from(const char *cmd, const char *path, const struct mt_config *base,
		       const struct mt_config *cfg, bool other, FILE *out,
		       int (*after)(FILE *out, const struct mt_report *rep,
				    const struct mt_config *cfg))
{
	struct mt_report *rep;
	struct mt_config want;
	struct mt_msg msg;
	int ret;

	/* memcpy, padding and all: memcmp below compares every byte */
	memcpy(&want, base, sizeof(want));
	want.format = cfg->format;
	want.csv_sep = cfg->csv_sep;
	want.perf_lines = cfg->perf_lines;
	want.verbose = cfg->verbose;
	want.wide = cfg->wide;
	if (other || memcmp(&want, cfg, sizeof(want))) {
		mt_err("--from: prints a report again: only --format, -x, -j, -v and --wide "
		       "with it");
		mt_hint("memtlb %s --from FILE [--format csv]", cmd);
		return MT_EXIT_USAGE;
	}
	ret = mt_report_load(path, &rep, &msg);
	if (ret) {
		mt_err("--from: %s: %s", path, msg.text[0] ? msg.text : strerror(-ret));
		return MT_EXIT_USAGE;
	}
	if (strcmp(rep->command, cmd) || !rep->n_results) {
		mt_err("--from: %s: a report of memtlb %s%s, not of %s", path, rep->command,
		       rep->n_results ? "" : " with no results", cmd);
		mt_hint("memtlb report %s prints any report", path);
		mt_report_destroy(rep);
		return MT_EXIT_USAGE;
	}
	ret = mt_cli_report_emit(rep, cfg, out);
	if (!ret && after)
		ret = after(out, rep, cfg);
	mt_report_destroy(rep);
	return ret;
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
	if (err == -EILSEQ) {
		mt_err("verify: %s of iteration %u: at %p: expected 0x%016llx, found 0x%016llx",
		       bad->phase, bad->iter, bad->addr, (unsigned long long)bad->expected,
		       (unsigned long long)bad->found);
		return MT_EXIT_FAILURE;
	}
	/* A dead task, a tunable that could not be written: the engine said what. */
	if (bad->why[0]) {
		mt_err("%s: %s", cmd, bad->why);
		return MT_EXIT_FAILURE;
	}
	return mt_cli_fail(cmd, err);
}

void mt_cli_progress_init(struct mt_cli_progress *cp, const char *cmd)
{
	const char *term = getenv("TERM");

	memset(cp, 0, sizeof(*cp));
	cp->cmd = cmd;
	cp->tty = isatty(STDERR_FILENO);
	/* a dumb terminal (an editor's shell, a serial console) gets lines */
	cp->plain = !term || !*term || !strcmp(term, "dumb");
}

/* The line shown now goes: "\r\033[K" on a terminal that updates in place. */
static void progress_clear(struct mt_cli_progress *cp)
{
	if (cp->shown && !cp->plain)
		fputs("\r\033[K", stderr);
	cp->shown = false;
}

/* A progress line: in place on a terminal, a line of its own on a dumb one. */
static void progress_line(struct mt_cli_progress *cp, const char *line)
{
	if (cp->plain) {
		fprintf(stderr, "%s\n", line);
		return;
	}
	fprintf(stderr, "\r\033[K%s", line);
	fflush(stderr);
	cp->shown = true;
}

void mt_cli_progress(void *arg, const struct mt_progress *p)
{
	struct mt_cli_progress *cp = arg;
	char reg[32], line[160];
	size_t n;

	switch (p->kind) {
	case MT_PROGRESS_RECOUNT:
		if (cp->recount_said)
			return;
		progress_clear(cp);
		mt_warn("%s: a counter group was never scheduled (not enough free counters); "
			"counting again with its events in groups of their own", cp->cmd);
		cp->recount_said = true;
		return;
	case MT_PROGRESS_DONE:
		progress_clear(cp);
		return;
	case MT_PROGRESS_ITERATION:
		/* the phase lines say it, with the phase */
		return;
	case MT_PROGRESS_PHASE:
		if (!cp->tty)
			return;
		/* lines of their own pile up: one every 5 s */
		if (cp->plain && cp->plain_s > 0 && p->elapsed_s - cp->plain_s < 5.0)
			return;
		cp->plain_s = p->elapsed_s;
		n = (size_t)snprintf(line, sizeof(line), "memtlb: %s%siteration %u of %u, %s, "
				     "%.1f s", cp->point, cp->point[0] ? ": " : "", p->iter,
				     p->n_iter, p->phase, p->elapsed_s);
		if (p->eta_s >= 0 && n < sizeof(line))
			snprintf(line + n, sizeof(line) - n, ", ETA %.0f s", p->eta_s);
		progress_line(cp, line);
		return;
	case MT_PROGRESS_POINT:
		mt_size_format_short(p->region, reg, sizeof(reg));
		snprintf(cp->point, sizeof(cp->point), "point %zu of %zu (%s)", p->point,
			 p->n_points, reg);
		cp->plain_s = 0;
		if (!cp->tty)
			return;
		n = (size_t)snprintf(line, sizeof(line), "memtlb: point %zu of %zu (region %s), "
				     "%.1f s elapsed", p->point, p->n_points, reg, p->elapsed_s);
		if (p->eta_s >= 0 && n < sizeof(line))
			snprintf(line + n, sizeof(line) - n, ", ETA %.0f s", p->eta_s);
		progress_line(cp, line);
		return;
	}
}
