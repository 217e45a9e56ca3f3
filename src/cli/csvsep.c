// SPDX-License-Identifier: MIT
/* -x SEP: CSV re-separated on its way out, quoting kept and completed. */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/csvsep.h"

struct csvsep {
	FILE *out;
	char sep;
	bool in_quotes;		/* inside a quoted field */
	bool quoted;		/* the field began with a quote */
	bool quote_seen;	/* a quote just closed: "" or the field's end follows */
	char *field;
	size_t len, cap;
	bool failed;
};

static int push(struct csvsep *cs, char c)
{
	if (cs->len + 1 >= cs->cap) {
		size_t cap = cs->cap ? cs->cap * 2 : 256;
		char *f = realloc(cs->field, cap);

		if (!f)
			return -ENOMEM;
		cs->field = f;
		cs->cap = cap;
	}
	cs->field[cs->len++] = c;
	return 0;
}

static void flush_field(struct csvsep *cs)
{
	bool quote = cs->quoted || memchr(cs->field, cs->sep, cs->len) ||
		     memchr(cs->field, '"', cs->len);

	if (quote)
		putc('"', cs->out);
	for (size_t i = 0; i < cs->len; i++) {
		if (cs->field[i] == '"')
			putc('"', cs->out);
		putc(cs->field[i], cs->out);
	}
	if (quote)
		putc('"', cs->out);
	cs->len = 0;
	cs->quoted = cs->in_quotes = cs->quote_seen = false;
}

static ssize_t csv_write(void *cookie, const char *buf, size_t size)
{
	struct csvsep *cs = cookie;

	for (size_t i = 0; i < size; i++) {
		char c = buf[i];

		if (cs->in_quotes) {
			if (c == '"') {
				cs->in_quotes = false;
				cs->quote_seen = true;
			} else if (push(cs, c)) {
				goto nomem;
			}
			continue;
		}
		if (c == '"' && cs->quote_seen) {
			/* "" inside a quoted field: one quote */
			cs->in_quotes = true;
			cs->quote_seen = false;
			if (push(cs, c))
				goto nomem;
		} else if (c == '"' && !cs->len && !cs->quoted) {
			cs->quoted = cs->in_quotes = true;
		} else if (c == ',') {
			flush_field(cs);
			putc(cs->sep, cs->out);
		} else if (c == '\n') {
			flush_field(cs);
			putc('\n', cs->out);
		} else if (push(cs, c)) {
			goto nomem;
		}
	}
	if (ferror(cs->out))
		cs->failed = true;
	return (ssize_t)size;
nomem:
	cs->failed = true;
	errno = ENOMEM;
	return -1;
}

static int csv_close(void *cookie)
{
	struct csvsep *cs = cookie;
	int ret;

	if (cs->len || cs->quoted)
		flush_field(cs);
	ret = cs->failed || fflush(cs->out) || ferror(cs->out) ? EOF : 0;
	free(cs->field);
	free(cs);
	return ret;
}

FILE *mt_csvsep_open(FILE *out, char sep)
{
	cookie_io_functions_t io = { .write = csv_write, .close = csv_close };
	struct csvsep *cs = calloc(1, sizeof(*cs));
	FILE *f;

	if (!cs)
		return NULL;
	cs->out = out;
	cs->sep = sep;
	f = fopencookie(cs, "w", io);
	if (!f)
		free(cs);
	return f;
}

int mt_csvsep_check(const char *arg, char *sep)
{
	/* "\t" as typed in a shell without $'\t' */
	if (!strcmp(arg, "\\t")) {
		*sep = '\t';
		return 0;
	}
	if (strlen(arg) != 1 || arg[0] == '"' || arg[0] == '\n' || arg[0] == '\r' ||
	    isalnum((unsigned char)arg[0]) || arg[0] == '.' || arg[0] == '-' ||
	    (!isprint((unsigned char)arg[0]) && arg[0] != '\t'))
		return -EINVAL;
	*sep = arg[0];
	return 0;
}
