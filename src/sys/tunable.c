// SPDX-License-Identifier: MIT
/* Kernel tunables swept by memtlb sweep: save, set, restore. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/sysinfo.h"
#include "sys/tunable.h"

/* "/sys/kernel//mm/x/" and "/sys/kernel/mm/x" are one file: one spelling. */
static void squeeze_slashes(char *p)
{
	char *w = p;

	for (const char *r = p; *r; r++)
		if (*r != '/' || w == p || w[-1] != '/')
			*w++ = *r;
	while (w > p + 1 && w[-1] == '/')
		w--;
	*w = '\0';
}

int mt_tunable_init(struct mt_tunable *t, const char *spec, struct mt_msg *msg)
{
	char rel[PATH_MAX];

	memset(t, 0, sizeof(*t));
	if (strlen(spec) >= sizeof(t->spec)) {
		mt_msg_set(msg, 0, NULL, "too long");
		return -EINVAL;
	}
	snprintf(t->spec, sizeof(t->spec), "%s", spec);
	if (!strncmp(spec, "sysfs:", 6)) {
		const char *p = spec + 6;

		/* Only sysfs: a sweep is no way to rewrite arbitrary files. */
		if (strncmp(p, "/sys/", 5) || strstr(p, "/../") || strstr(p, "/./")) {
			return mt_msg_set(msg, -EINVAL, NULL,
					  "%s: a sysfs tunable is an absolute path under /sys/", p);
		}
		snprintf(rel, sizeof(rel), "%s", p);
	} else if (!strncmp(spec, "sysctl:", 7)) {
		const char *p = spec + 7;
		size_t n;

		if (!*p || strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				  "0123456789_-./") != strlen(p) || strstr(p, "..") || *p == '.' ||
		    *p == '/') {
			mt_msg_set(msg, 0, NULL, "%s: not a sysctl name (vm.swappiness)", p);
			return -EINVAL;
		}
		n = (size_t)snprintf(rel, sizeof(rel), "/proc/sys/%s", p);
		/*
		 * sysctl(8): vm.swappiness and vm/swappiness name one file; when
		 * the first separator is a slash, dots are part of the names
		 * (net/ipv4/conf/eth0.100/rp_filter).
		 */
		if (p[strcspn(p, "./")] == '.')
			for (size_t i = 10; i < n; i++)
				if (rel[i] == '.')
					rel[i] = '/';
	} else {
		mt_msg_set(msg, 0, NULL, "%s: not sysfs:PATH or sysctl:NAME", spec);
		return -EINVAL;
	}
	squeeze_slashes(rel);
	mt_sys_path(t->path, sizeof(t->path), rel);
	return 0;
}

/*
 * THP-style choices, "always [madvise] never": the whole content is words,
 * exactly one of them in brackets, and that word is the value written back.
 * Anything else ("|/usr/lib/x [%p] %e" in core_pattern) is not a choice.
 */
static bool choice_word(const char *buf, size_t len, const char **word, size_t *wlen)
{
	size_t i = 0, n = 0;

	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		len--;
	while (i < len) {
		size_t s, e;

		if (buf[i] == ' ') {
			i++;
			continue;
		}
		for (s = i; i < len && buf[i] != ' '; i++)
			if (!isalnum((unsigned char)buf[i]) && !strchr("_-+[]", buf[i]))
				return false;
		e = i;
		if (buf[s] != '[') {
			if (memchr(buf + s, '[', e - s) || memchr(buf + s, ']', e - s))
				return false;
			continue;
		}
		if (e - s < 3 || buf[e - 1] != ']' || memchr(buf + s + 1, '[', e - s - 1) ||
		    memchr(buf + s + 1, ']', e - s - 2) || n++)
			return false;
		*word = buf + s + 1;
		*wlen = e - s - 2;
	}
	return n == 1;
}

/*
 * The file's bytes, all of them (a multi-line file stays one), at most
 * len - 1: a tunable of a page or more is not a value a sweep restores.
 */
static int read_value(const char *path, char *buf, size_t len)
{
	const char *word;
	size_t got = 0, wlen;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		n = read(fd, buf + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
		if (got == len)
			break;
	}
	if (n < 0) {
		int ret = -errno;

		close(fd);
		return ret;
	}
	close(fd);
	if (got == len)
		return -EFBIG;
	if (!got)
		return -ENODATA;
	buf[got] = '\0';
	if (strlen(buf) != got)
		return -EINVAL;	/* a NUL inside: not text a write can give back */
	if (choice_word(buf, got, &word, &wlen)) {
		memmove(buf, word, wlen);
		buf[wlen] = '\0';
	}
	return 0;
}

int mt_tunable_save(struct mt_tunable *t)
{
	struct stat st;
	int ret;

	if (stat(t->path, &st))
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	ret = read_value(t->path, t->saved, sizeof(t->saved));
	if (ret)
		return ret;
	/* root passes access(), but a file without write bits stays read-only. */
	if (access(t->path, W_OK) || !(st.st_mode & 0222))
		return -EACCES;
	t->have_saved = true;
	return 0;
}

int mt_tunable_set(struct mt_tunable *t, const char *value)
{
	if (!t->have_saved)
		return -EINVAL;
	return mt_sys_write(t->path, value);
}
