// SPDX-License-Identifier: MIT
/* /proc and /sys, read and written under MEMTLB_SYSROOT (sys.h). */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/sys.h"

/* The one place the test seam is read: a fixture tree standing for /. */
static const char *sysroot(void)
{
	const char *root = getenv("MEMTLB_SYSROOT");

	return root && *root ? root : NULL;
}

const char *mt_sys_path(char *buf, size_t len, const char *path)
{
	const char *root = sysroot();

	snprintf(buf, len, "%s%s", root ? root : "", path);
	return buf;
}

bool mt_sys_fixture(void)
{
	return sysroot();
}

int mt_sys_write(const char *path, const char *value)
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

int mt_sys_read_line(const char *path, char *buf, size_t len)
{
	char full[4096];
	FILE *f;

	f = fopen(mt_sys_path(full, sizeof(full), path), "re");
	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f)) {
		fclose(f);
		buf[0] = '\0';
		return -ENODATA;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

int mt_sys_list_count(const char *s)
{
	int n = 0;

	while (*s) {
		char *end;
		long a = strtol(s, &end, 10), b = a;

		if (end == s)
			return -1;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		if (b < a)
			return -1;
		n += (int)(b - a + 1);
		if (*end && *end != ',')
			return -1;
		s = *end ? end + 1 : end;
	}
	return n;
}
