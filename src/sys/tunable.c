// SPDX-License-Identifier: MIT
/* Kernel tunables swept by memtlb sweep: save, set, restore. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/sysinfo.h"
#include "sys/tunable.h"

int mt_tunable_init(struct mt_tunable *t, const char *spec, char *msg, size_t msg_len)
{
	char rel[PATH_MAX];

	memset(t, 0, sizeof(*t));
	if (strlen(spec) >= sizeof(t->spec)) {
		snprintf(msg, msg_len, "too long");
		return -EINVAL;
	}
	snprintf(t->spec, sizeof(t->spec), "%s", spec);
	if (!strncmp(spec, "sysfs:", 6)) {
		const char *p = spec + 6;

		/* Only sysfs: a sweep is no way to rewrite arbitrary files. */
		if (strncmp(p, "/sys/", 5) || strstr(p, "/../") || strstr(p, "/./")) {
			snprintf(msg, msg_len, "%s: a sysfs tunable is an absolute path under /sys/",
				 p);
			return -EINVAL;
		}
		snprintf(rel, sizeof(rel), "%s", p);
	} else if (!strncmp(spec, "sysctl:", 7)) {
		const char *p = spec + 7;
		size_t n;

		if (!*p || strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				  "0123456789_-./") != strlen(p) || strstr(p, "..") || *p == '.' ||
		    *p == '/') {
			snprintf(msg, msg_len, "%s: not a sysctl name (vm.swappiness)", p);
			return -EINVAL;
		}
		n = (size_t)snprintf(rel, sizeof(rel), "/proc/sys/%s", p);
		for (size_t i = 10; i < n; i++)
			if (rel[i] == '.')
				rel[i] = '/';
	} else {
		snprintf(msg, msg_len, "%s: not sysfs:PATH or sysctl:NAME", spec);
		return -EINVAL;
	}
	mt_sys_path(t->path, sizeof(t->path), rel);
	return 0;
}

static int read_value(const char *path, char *buf, size_t len)
{
	char line[256], *open, *close;
	FILE *f;

	f = fopen(path, "re");
	if (!f)
		return -errno;
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		return -ENODATA;
	}
	fclose(f);
	line[strcspn(line, "\n")] = '\0';
	/* "always [madvise] never": the bracketed word is the value. */
	open = strchr(line, '[');
	close = open ? strchr(open, ']') : NULL;
	if (open && close) {
		*close = '\0';
		memmove(line, open + 1, strlen(open + 1) + 1);
	}
	snprintf(buf, len, "%s", line);
	return 0;
}

int mt_tunable_read(const struct mt_tunable *t, char *buf, size_t len)
{
	return read_value(t->path, buf, len);
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

static int write_value(const char *path, const char *value)
{
	size_t len = strlen(value);
	ssize_t n;
	int fd, ret = 0;

	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	do {
		n = write(fd, value, len);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		ret = -errno;
	else if ((size_t)n != len)
		ret = -EIO;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

int mt_tunable_set(struct mt_tunable *t, const char *value)
{
	if (!t->have_saved)
		return -EINVAL;
	return write_value(t->path, value);
}
