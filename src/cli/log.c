// SPDX-License-Identifier: MIT
/* Messages to stderr, one line each: "memtlb: <what>: <why>". */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/log.h"
#include "stats/compare.h"

static int verbose;

void mt_log_set_verbose(int level)
{
	verbose = level;
}

int mt_log_verbose(void)
{
	return verbose;
}

/*
 * One line, whatever it quotes: a file name, a report's string or a
 * sysfs value may hold a line end or a terminal's escape, written \xNN.
 */
static void vlog(const char *prefix, const char *fmt, va_list ap)
{
	char *s = NULL, safe[4096];

	fputs(prefix, stderr);
	if (vasprintf(&s, fmt, ap) < 0) {
		fputs(fmt, stderr);
	} else {
		mt_compare_escape(safe, sizeof(safe), s);
		fputs(safe, stderr);
		free(s);
	}
	fputc('\n', stderr);
}

void mt_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog("memtlb: ", fmt, ap);
	va_end(ap);
}

void mt_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog("memtlb: warning: ", fmt, ap);
	va_end(ap);
}

void mt_hint(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog("hint: ", fmt, ap);
	va_end(ap);
}

void mt_err_msg(const struct mt_msg *msg, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	mt_err("%s: %s", what, msg->text);
	if (msg->hint[0])
		mt_hint("%s", msg->hint);
}
