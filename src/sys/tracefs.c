// SPDX-License-Identifier: MIT
/* Tracepoints in tracefs: the mount, an event's id, its format file. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/sysinfo.h"
#include "sys/tracefs.h"

/* A format file is a few KiB; the bound keeps a hostile one out of memory. */
#define FORMAT_MAX (64 * 1024)

int mt_tracefs_dir(char *buf, size_t len)
{
	static const char *const where[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	int ret = -ENOENT;

	for (size_t i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
		char events[4096];
		struct stat st;

		mt_sys_path(buf, len, where[i]);
		snprintf(events, sizeof(events), "%s/events", buf);
		/* Unmounted, the directory is there and empty: events/ says mounted. */
		if (!stat(events, &st) && S_ISDIR(st.st_mode))
			return 0;
		/* Mounted for root alone (0700), or debugfs under lockdown: say so. */
		if (errno == EACCES || errno == EPERM)
			ret = -errno;
	}
	buf[0] = '\0';
	return ret;
}

/* Sys and name come from the user: no '/', no "..", nothing but [a-z0-9_]. */
static bool plain(const char *s)
{
	if (!*s || strlen(s) >= MT_TRACEFS_NAME_MAX)
		return false;
	for (; *s; s++)
		if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

bool mt_tracefs_is_name(const char *s, size_t len)
{
	const char *colon = memchr(s, ':', len);
	char sys[MT_TRACEFS_NAME_MAX], name[MT_TRACEFS_NAME_MAX];
	size_t a, b;

	if (!colon)
		return false;
	a = (size_t)(colon - s);
	b = len - a - 1;
	if (!a || !b || a >= sizeof(sys) || b >= sizeof(name))
		return false;
	memcpy(sys, s, a);
	sys[a] = '\0';
	memcpy(name, colon + 1, b);
	name[b] = '\0';
	return plain(sys) && plain(name);
}

/* Reads a tracefs file whole: a regular file, at most FORMAT_MAX bytes. */
static int read_file(const char *dir, const char *sys, const char *name, const char *file,
		     char **out)
{
	char path[4096 + 3 * MT_TRACEFS_NAME_MAX];
	size_t len = 0;
	struct stat st;
	ssize_t n;
	char *buf;
	int fd;

	if (!plain(sys) || !plain(name))
		return -EINVAL;
	snprintf(path, sizeof(path), "%s/events/%s/%s/%s", dir, sys, name, file);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -errno;
	/* tracefs files are regular (size 0); a fixture's link to a FIFO is not. */
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	buf = malloc(FORMAT_MAX + 1);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	while (len < FORMAT_MAX && (n = read(fd, buf + len, FORMAT_MAX - len)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			n = -errno;
			close(fd);
			free(buf);
			return (int)n;
		}
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	*out = buf;
	return 0;
}

int mt_tracefs_id(const char *dir, const char *sys, const char *name, uint64_t *id)
{
	char *buf = NULL, *end;
	unsigned long long v;
	int ret;

	ret = read_file(dir, sys, name, "id", &buf);
	if (ret)
		return ret;
	errno = 0;
	v = strtoull(buf, &end, 10);
	ret = (end == buf || errno || (*end && *end != '\n')) ? -EINVAL : 0;
	free(buf);
	if (!ret)
		*id = v;
	return ret;
}

static struct mt_tracefs_field *field_of(struct mt_tracefs_format *fmt, const char *name)
{
	for (unsigned int i = 0; i < fmt->n_fields; i++)
		if (!strcmp(fmt->fields[i].name, name))
			return &fmt->fields[i];
	return NULL;
}

const struct mt_tracefs_field *mt_tracefs_field(const struct mt_tracefs_format *fmt,
						const char *name)
{
	return field_of((struct mt_tracefs_format *)fmt, name);
}

/* "\tfield:unsigned long pages;\toffset:16;..." */
static void parse_field(struct mt_tracefs_format *fmt, const char *line)
{
	const char *decl = strstr(line, "field:"), *semi, *p;
	struct mt_tracefs_field *f;
	size_t n;

	if (!decl || fmt->n_fields >= MT_TRACEFS_FIELDS_MAX)
		return;
	decl += 6;
	semi = strchr(decl, ';');
	if (!semi)
		return;
	p = semi;
	/* The name is the last identifier, before a trailing [N] ("char comm[16]"). */
	if (p > decl && p[-1] == ']')
		while (p > decl && *p != '[')
			p--;
	while (p > decl && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
		p--;
	n = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
	if (!n || n >= MT_TRACEFS_NAME_MAX)
		return;
	f = &fmt->fields[fmt->n_fields++];
	memset(f, 0, sizeof(*f));
	memcpy(f->name, p, n);
	/* Arrays, strings (__data_loc) and pointers: the filter does not compare numbers there. */
	f->numeric = !memchr(decl, '[', (size_t)(semi - decl)) &&
		     !memchr(decl, '*', (size_t)(semi - decl)) && strncmp(decl, "__data_loc", 10);
}

/*
 * __print_symbolic(REC->reason, { 0, "flush on task switch" }, ...): the
 * values the kernel names. Anything else in the list ends it, keeping
 * what was read.
 */
static void parse_symbolic(struct mt_tracefs_format *fmt, const char *s)
{
	const char *key = "__print_symbolic(REC->";

	while ((s = strstr(s, key))) {
		char name[MT_TRACEFS_NAME_MAX];
		struct mt_tracefs_field *f;
		size_t n;

		s += strlen(key);
		n = strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
		if (!n || n >= sizeof(name))
			continue;
		memcpy(name, s, n);
		name[n] = '\0';
		s += n;
		f = field_of(fmt, name);
		if (!f || f->n_syms)
			continue;
		for (;;) {
			struct mt_tracefs_sym *sym;
			const char *q;
			char *end;
			long long v;

			s += strspn(s, " \t,");
			if (*s != '{' || f->n_syms >= MT_TRACEFS_SYMS_MAX)
				break;
			s++;
			errno = 0;
			v = strtoll(s, &end, 0);
			if (end == s || errno)
				break;
			s = end + strspn(end, " \t");
			if (*s != ',')
				break;
			s++;
			s += strspn(s, " \t");
			if (*s != '"')
				break;
			q = strchr(++s, '"');
			if (!q || q - s >= MT_TRACEFS_NAME_MAX)
				break;
			sym = &f->syms[f->n_syms++];
			sym->value = v;
			memcpy(sym->label, s, (size_t)(q - s));
			sym->label[q - s] = '\0';
			s = q + 1;
			s += strspn(s, " \t");
			if (*s != '}')
				break;
			s++;
		}
	}
}

int mt_tracefs_format_parse(const char *text, struct mt_tracefs_format *fmt)
{
	const char *line = text, *print;

	memset(fmt, 0, sizeof(*fmt));
	if (strncmp(text, "name:", 5) || !strstr(text, "\nformat:"))
		return -EINVAL;
	while (line && *line) {
		const char *nl = strchr(line, '\n');
		char one[512];
		size_t n = nl ? (size_t)(nl - line) : strlen(line);

		if (n < sizeof(one)) {
			memcpy(one, line, n);
			one[n] = '\0';
			if (strstr(one, "field:"))
				parse_field(fmt, one);
		}
		line = nl ? nl + 1 : NULL;
	}
	print = strstr(text, "\nprint fmt:");
	if (print)
		parse_symbolic(fmt, print);
	return 0;
}

int mt_tracefs_format(const char *dir, const char *sys, const char *name,
		      struct mt_tracefs_format *fmt)
{
	char *buf = NULL;
	int ret;

	ret = read_file(dir, sys, name, "format", &buf);
	if (ret)
		return ret;
	ret = mt_tracefs_format_parse(buf, fmt);
	free(buf);
	return ret;
}

const char *mt_tracefs_spell(const char *label, char *buf, size_t len)
{
	size_t o = 0;
	bool gap = false;

	if (!len)
		return buf;
	for (const char *s = label; *s && o + 2 < len; s++) {
		if (!isalnum((unsigned char)*s)) {
			gap = o > 0;
			continue;
		}
		if (gap)
			buf[o++] = '_';
		gap = false;
		buf[o++] = (char)tolower((unsigned char)*s);
	}
	buf[o] = '\0';
	return buf;
}

const struct mt_tracefs_sym *mt_tracefs_sym_find(const struct mt_tracefs_field *f,
						 const char *spelling)
{
	for (unsigned int i = 0; i < f->n_syms; i++) {
		char s[MT_TRACEFS_NAME_MAX];

		mt_tracefs_spell(f->syms[i].label, s, sizeof(s));
		if (*s && !strcasecmp(s, spelling))
			return &f->syms[i];
	}
	return NULL;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

int mt_tracefs_list(const char *dir, const char *sys, char *buf, size_t len)
{
	char path[4096 + MT_TRACEFS_NAME_MAX];
	struct dirent **names = NULL;
	size_t off = 0;
	int n, ret = 0;

	buf[0] = '\0';
	if (!plain(sys))
		return -EINVAL;
	snprintf(path, sizeof(path), "%s/events/%s", dir, sys);
	n = scandir(path, &names, NULL, by_name);
	if (n < 0)
		return -errno;
	for (int i = 0; i < n; i++) {
		const char *d = names[i]->d_name;
		char id[sizeof(path) + 256 + 4];
		struct stat st;

		/* Each event is a directory with an id; enable and filter are files. */
		snprintf(id, sizeof(id), "%s/%s/id", path, d);
		if (!ret && plain(d) && !stat(id, &st)) {
			if (off + strlen(d) + 2 > len)
				ret = -ENOSPC;
			else
				off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? " " : "",
							d);
		}
		free(names[i]);
	}
	free(names);
	return ret;
}
