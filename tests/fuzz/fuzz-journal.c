// SPDX-License-Identifier: MIT
/*
 * The journal's reader on arbitrary files: no crash, and what it accepts
 * is what it promised (the header, a pid, restore lines within their
 * bound). It writes nothing back: replay's writes are not fuzzed.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sys/journal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	size_t lines, bad, off = 0;
	char path[64], *text;
	long pid;
	int fd = memfd_create("journal", MFD_CLOEXEC);

	if (fd < 0)
		return 0;
	if (write(fd, data, len) != (ssize_t)len) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	text = mt_journal_read(path, &lines, &pid, &bad);
	close(fd);
	if (!text)
		return 0;
	if (lines < 2 || pid <= 0 || strcmp(text, "memtlb journal"))
		abort();
	for (size_t i = 0; i < lines; i++) {
		size_t l = strlen(text + off);

		if (l + 1 > MT_JOURNAL_LINE_MAX || (i >= 2 && strncmp(text + off, "restore ", 8)))
			abort();
		off += l + 1;
	}
	free(text);
	return 0;
}
