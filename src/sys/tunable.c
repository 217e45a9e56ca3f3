// SPDX-License-Identifier: MIT
/* Kernel tunables swept by memtlb sweep: save, set, restore. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "sys/mthp.h"
#include "sys/sysinfo.h"
#include "sys/tunable.h"

#define DEBUGFS_DIR "/sys/kernel/debug"
#define DEBUGFS_MAGIC 0x64626720
#define MTHP_PREFIX "mthp:"

/*
 * The shorthands, the one table of them: a name for the tunables the
 * seeds' studies vary. "mthp:SIZE" stands for the SIZE's anon control, a
 * size the kernel offers.
 */
static const struct shorthand {
	const char *name;
	const char *spec;
} shorthands[] = {
	{ "thp", "sysfs:/sys/kernel/mm/transparent_hugepage/enabled" },
	{ MTHP_PREFIX "SIZE", "sysfs:/sys/kernel/mm/transparent_hugepage/hugepages-<kB>kB/enabled" },
	{ "fault_around_bytes", "debugfs:fault_around_bytes" },
	{ "pcp_high_fraction", "sysctl:vm.percpu_pagelist_high_fraction" },
};

const char *mt_tunable_shorthand(size_t i, const char **stands_for)
{
	if (i >= sizeof(shorthands) / sizeof(*shorthands))
		return NULL;
	if (stands_for)
		*stands_for = shorthands[i].spec;
	return shorthands[i].name;
}

/* "64k", "2m", "2048K": an mTHP size in bytes, 0 when not one. */
static uint64_t mthp_size(const char *s)
{
	unsigned long long v;
	char *end;

	if (*s < '1' || *s > '9')
		return 0;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || v > (1ull << 20))
		return 0;
	if ((*end == 'k' || *end == 'K') && !end[1])
		return v << 10;
	if ((*end == 'm' || *end == 'M') && !end[1])
		return v << 20;
	return 0;
}

/* A shorthand's spec into buf: 1, 0 when spec is none, or -EINVAL with msg. */
static int expand(const char *spec, char *buf, size_t len, struct mt_msg *msg)
{
	if (!strncmp(spec, MTHP_PREFIX, strlen(MTHP_PREFIX))) {
		uint64_t size = mthp_size(spec + strlen(MTHP_PREFIX));
		char offered[256];

		mt_mthp_list(false, offered, sizeof(offered));
		if (!size || !mt_mthp_offered(false, size))
			return mt_msg_set(msg, -EINVAL, *offered ? NULL : "multi-size THP is kernel "
					  "6.8's (a hugepages-<kB>kB directory per size)",
					  "%s: not an mTHP size this kernel offers%s%s", spec,
					  *offered ? ": " : " (none is offered)", offered);
		snprintf(buf, len, "sysfs:/sys/kernel/mm/transparent_hugepage/hugepages-%llukB/"
			 "enabled", (unsigned long long)(size >> 10));
		return 1;
	}
	for (size_t i = 0; i < sizeof(shorthands) / sizeof(*shorthands); i++) {
		if (!strcmp(spec, shorthands[i].name)) {
			snprintf(buf, len, "%s", shorthands[i].spec);
			return 1;
		}
	}
	return 0;
}

/* A relative path with no "." or ".." part and no empty one. */
static bool plain_relative(const char *p)
{
	if (!*p || *p == '/')
		return false;
	for (const char *c = p; *c;) {
		size_t n = strcspn(c, "/");

		if (!n || (n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.'))
			return false;
		c += n;
		if (*c)
			c++;
	}
	return true;
}

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

bool mt_tunable_is_key(const char *key)
{
	static const char *const prefixes[] = { "sysfs:", "sysctl:", "debugfs:", MTHP_PREFIX };

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(*prefixes); i++)
		if (!strncmp(key, prefixes[i], strlen(prefixes[i])))
			return true;
	for (size_t i = 0; i < sizeof(shorthands) / sizeof(*shorthands); i++)
		if (!strcmp(key, shorthands[i].name))
			return true;
	return false;
}

bool mt_tunable_same_file(const struct mt_tunable *a, const struct mt_tunable *b)
{
	char pa[PATH_MAX], pb[PATH_MAX];

	if (!realpath(a->path, pa))
		snprintf(pa, sizeof(pa), "%s", a->path);
	if (!realpath(b->path, pb))
		snprintf(pb, sizeof(pb), "%s", b->path);
	return !strcmp(pa, pb);
}

int mt_tunable_init(struct mt_tunable *t, const char *spec, struct mt_msg *msg)
{
	char rel[PATH_MAX], full[sizeof(t->spec) + 64];
	int ret;

	memset(t, 0, sizeof(*t));
	if (strlen(spec) >= sizeof(t->spec)) {
		mt_msg_set(msg, 0, NULL, "too long");
		return -EINVAL;
	}
	snprintf(t->spec, sizeof(t->spec), "%s", spec);
	ret = expand(spec, full, sizeof(full), msg);
	if (ret < 0)
		return ret;
	if (ret)
		spec = full;
	if (!strncmp(spec, "debugfs:", 8)) {
		const char *p = spec + 8;

		if (!strncmp(p, DEBUGFS_DIR "/", strlen(DEBUGFS_DIR) + 1))
			p += strlen(DEBUGFS_DIR) + 1;
		if (!plain_relative(p))
			return mt_msg_set(msg, -EINVAL, NULL, "%s: a debugfs tunable is a path under "
					  DEBUGFS_DIR " (debugfs:fault_around_bytes)", p);
		snprintf(rel, sizeof(rel), DEBUGFS_DIR "/%s", p);
		t->debugfs = true;
	} else if (!strncmp(spec, "sysfs:", 6)) {
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
		mt_msg_set(msg, 0, NULL, "%s: not sysfs:PATH, sysctl:NAME, debugfs:PATH or a "
			   "shorthand (thp, mthp:SIZE, fault_around_bytes, pcp_high_fraction)",
			   spec);
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
static int read_value(const char *path, char *buf, size_t len, char *choices, size_t clen)
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
		size_t k = 0;

		/* the words, brackets dropped, for mt_tunable_accepts */
		for (size_t i = 0; i < got && k + 1 < clen; i++)
			if (buf[i] != '[' && buf[i] != ']' && buf[i] != '\n')
				choices[k++] = buf[i];
		if (clen)
			choices[k] = '\0';
		memmove(buf, word, wlen);
		buf[wlen] = '\0';
	}
	return 0;
}

int mt_tunable_save(struct mt_tunable *t)
{
	struct stat st;
	int ret;

	if (stat(t->path, &st)) {
		char dir[PATH_MAX];
		struct statfs fs;

		ret = -errno;
		/* debugfs is the admin's to mount: said, never mounted here */
		if (ret == -ENOENT && t->debugfs &&
		    (statfs(mt_sys_path(dir, sizeof(dir), DEBUGFS_DIR), &fs) ||
		     fs.f_type != DEBUGFS_MAGIC))
			return -ENOMEDIUM;
		return ret;
	}
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	t->choices[0] = '\0';
	ret = read_value(t->path, t->saved, sizeof(t->saved), t->choices, sizeof(t->choices));
	if (ret)
		return ret;
	/* root passes access(), but a file without write bits stays read-only. */
	if (access(t->path, W_OK) || !(st.st_mode & 0222))
		return -EACCES;
	t->have_saved = true;
	return 0;
}

int mt_tunable_save_error(const struct mt_tunable *t, int err, struct mt_msg *msg)
{
	char lockdown[128];

	switch (err) {
	case -ENOENT:
	case -ENOTDIR:
		return mt_msg_set(msg, err, NULL, "--vary: %s: no such tunable on this kernel (%s)",
				  t->spec, t->path);
	case -ENOMEDIUM:
		return mt_msg_set(msg, err, "mount -t debugfs none /sys/kernel/debug (memtlb "
				  "does not mount it)", "--vary: %s: debugfs is not mounted",
				  t->spec);
	case -EPERM:
		if (mt_sys_read_line("/sys/kernel/security/lockdown", lockdown, sizeof(lockdown)))
			lockdown[0] = '\0';
		if (mt_sysinfo_debugfs_state(err, lockdown) == MT_SYSINFO_LOCKDOWN)
			return mt_msg_set(msg, err, "memtlb-vm runs it in a guest, where it can be "
					  "written", "--vary: %s: kernel lockdown refuses %s",
					  t->spec, t->path);
		/* fallthrough */
	case -EACCES:
	case -EROFS:
		return mt_msg_set(msg, err, "kernel tunables are varied as root, on a writable "
				  "/sys, /proc/sys and debugfs", "--vary: %s: cannot write %s: %s",
				  t->spec, t->path, geteuid() ? "permission denied" : "read-only");
	default:
		return mt_msg_set(msg, err, NULL, "--vary: %s: %s: %s", t->spec, t->path,
				  strerror(-err));
	}
}

int mt_tunable_check_value(const struct mt_tunable *t, const char *value, struct mt_msg *msg)
{
	if (mt_tunable_accepts(t, value))
		return 0;
	return mt_msg_set(msg, -EINVAL, NULL, "--vary: %s: %s: not one of its choices (%s)",
			  t->spec, value, t->choices);
}

int mt_tunable_set(struct mt_tunable *t, const char *value)
{
	if (!t->have_saved)
		return -EINVAL;
	return mt_sys_write(t->path, value);
}

bool mt_tunable_accepts(const struct mt_tunable *t, const char *value)
{
	size_t len = strlen(value);

	if (!t->choices[0])
		return true;
	for (const char *w = t->choices; *w;) {
		size_t n;

		w += strspn(w, " ");
		n = strcspn(w, " ");
		if (n && n == len && !strncmp(w, value, n))
			return true;
		w += n;
	}
	return false;
}
