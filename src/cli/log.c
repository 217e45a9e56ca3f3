// SPDX-License-Identifier: MIT
/* Messages to stderr, one line each: "memtlb: <what>: <why>". */
#include <stdarg.h>
#include <stdio.h>

#include "cli/log.h"

static int verbose;

void mt_log_set_verbose(int level)
{
	verbose = level;
}

int mt_log_verbose(void)
{
	return verbose;
}

static void vlog(const char *prefix, const char *fmt, va_list ap)
{
	fputs(prefix, stderr);
	vfprintf(stderr, fmt, ap);
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
