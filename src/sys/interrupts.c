// SPDX-License-Identifier: MIT
/* /proc/interrupts rows summed over the CPUs (the TLB and CAL IPIs). */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/interrupts.h"
#include "sys/sysinfo.h"

/* 256 KiB holds /proc/interrupts of a few hundred CPUs; static: read between phases. */
static char buf[256 * 1024];

int mt_interrupts_read(const char *const *rows, size_t n, uint64_t *out)
{
	char path[4096], *line, *save = NULL;
	unsigned int cpus = 0;
	ssize_t got, len = 0;
	int fd;

	for (size_t i = 0; i < n; i++)
		out[i] = MT_INTERRUPTS_ABSENT;
	fd = open(mt_sys_path(path, sizeof(path), "/proc/interrupts"), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while ((size_t)len < sizeof(buf) - 1 &&
	       (got = read(fd, buf + len, sizeof(buf) - 1 - (size_t)len)) != 0) {
		if (got < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		len += got;
	}
	close(fd);
	buf[len] = '\0';
	line = strtok_r(buf, "\n", &save);
	/* The header names the CPU columns: "CPU0 CPU1 ..." (offline ones absent). */
	for (char *s = line ? strstr(line, "CPU") : NULL; s; s = strstr(s + 3, "CPU"))
		cpus++;
	if (!cpus)
		return -EINVAL;
	for (line = strtok_r(NULL, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *key = line + strspn(line, " "), *colon = strchr(key, ':'), *s;
		uint64_t sum = 0;
		size_t i;

		if (!colon)
			continue;
		*colon = '\0';
		for (i = 0; i < n && strcmp(key, rows[i]); i++)
			;
		if (i == n)
			continue;
		s = colon + 1;
		/* The first cpus numbers; the description after them is text. */
		for (unsigned int c = 0; c < cpus; c++) {
			char *end;
			unsigned long long v;

			while (*s == ' ')
				s++;
			if (!isdigit((unsigned char)*s))
				break;
			v = strtoull(s, &end, 10);
			sum += v;
			s = end;
		}
		out[i] = sum;
	}
	return 0;
}
