// SPDX-License-Identifier: MIT
/* memtlb: command dispatch (kmod's table), global options, stdout check. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cmd.h"
#include "cli/log.h"
#include "model/suggest.h"

static const struct mt_cmd *const commands[] = {
	&mt_cmd_stat,
	&mt_cmd_sweep,
	&mt_cmd_probe,
	&mt_cmd_compare,
	&mt_cmd_report,
	&mt_cmd_run,
	&mt_cmd_list,
	&mt_cmd_sysinfo,
	&mt_cmd_flush,
	&mt_cmd_bisect_run,
	&mt_cmd_selftest,
};

#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static void help(void)
{
	printf("Usage: memtlb [--version] [--help] COMMAND [ARGS]\n"
	       "Measure how TLB reach, page walks and page faults shape the cost of\n"
	       "touching memory.\n\nCommands:\n");
	for (size_t i = 0; i < N_COMMANDS; i++)
		printf("  %-10s %s\n", commands[i]->name, commands[i]->help);
	printf("\n'memtlb COMMAND --help' shows a command's options; see memtlb(1).\n");
}

/* perf's check: a full disk or closed pipe must not pass as success. */
static int check_stdout(int ret)
{
	if (fflush(stdout) || ferror(stdout)) {
		if (errno == EPIPE)
			return ret;
		mt_err("write failure on standard output: %s", strerror(errno));
		return ret ? ret : MT_EXIT_FAILURE;
	}
	return ret;
}

/*
 * getopt leaves optind on an element it has not finished (-xV): the
 * failed option is optopt then, not argv[optind - 1].
 */
static int option_error(int argc, char *argv[], const struct option *opts)
{
	const char *names[8], *el = argv[optind - 1], *near = NULL;
	size_t n = 0;
	char name[64];

	/* every option here ends memtlb: a long one before the failed one cannot be */
	if (optind > argc || strncmp(el, "--", 2)) {
		snprintf(name, sizeof(name), "-%c", optopt ? optopt : '?');
	} else {
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(el, "="), el);
		for (const struct option *o = opts; o->name && n < 8; o++)
			names[n++] = o->name;
		if (!optopt)
			near = mt_suggest(name + 2, names, n);
	}
	if (optopt && el[0] == '-' && el[1] == '-')
		mt_err("option '%s' takes no value", name);
	else
		mt_err("unknown option '%s'", name);
	if (near)
		mt_hint("did you mean --%s? memtlb --help lists the commands", near);
	else
		mt_hint("memtlb --help lists the commands");
	return MT_EXIT_USAGE;
}

int main(int argc, char *argv[])
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "list-cmds", no_argument, NULL, 'L' },
		{ NULL, 0, NULL, 0 },
	};
	const char *names[N_COMMANDS], *near;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "+hV", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			help();
			return check_stdout(MT_EXIT_OK);
		case 'V':
			printf("memtlb %s\n", MEMTLB_VERSION);
			return check_stdout(MT_EXIT_OK);
		case 'L':
			for (size_t i = 0; i < N_COMMANDS; i++)
				printf("%s\n", commands[i]->name);
			return check_stdout(MT_EXIT_OK);
		default:
			return option_error(argc, argv, opts);
		}
	}
	if (optind >= argc) {
		help();
		return MT_EXIT_USAGE;
	}
	for (size_t i = 0; i < N_COMMANDS; i++) {
		if (!strcmp(argv[optind], commands[i]->name)) {
			int ret = commands[i]->fn(argc - optind, argv + optind);

			return check_stdout(ret);
		}
	}
	mt_err("%s: not a memtlb command", argv[optind]);
	for (size_t i = 0; i < N_COMMANDS; i++)
		names[i] = commands[i]->name;
	near = mt_suggest(argv[optind], names, N_COMMANDS);
	if (near)
		mt_hint("did you mean '%s'? memtlb --help lists the commands", near);
	else
		mt_hint("memtlb --help lists the commands");
	return MT_EXIT_USAGE;
}
