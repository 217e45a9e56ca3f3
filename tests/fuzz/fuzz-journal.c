// SPDX-License-Identifier: MIT
/*
 * The journal's reader on arbitrary files: no crash, and what it accepts
 * is what it promised (the header, a pid, restore lines within their
 * bound). Then every line of the input through both line parsers, the
 * journal's restores and the files list's entries: what they accept holds
 * to the format. It writes nothing back: replay's writes are not fuzzed.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sys/journal.h"

/* Each line of data, up to its first NUL, through the line parsers. */
static void parse_lines(const uint8_t *data, size_t len)
{
	char *buf = malloc(len + 1), *line, *save = NULL;

	if (!buf)
		return;
	memcpy(buf, data, len);
	buf[len] = '\0';
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *copy = strdup(line), *p, *v;
		struct mt_journal_file f;

		if (!copy)
			break;
		if (!mt_journal_parse_restore(copy, &p, &v) &&
		    (!*p || strlen(p) >= PATH_MAX || strlen(v) > MT_JOURNAL_VALUE_MAX))
			abort();
		strcpy(copy, line);
		if (!mt_journal_parse_file(copy, &f) &&
		    (!f.path[0] || strlen(f.path) >= PATH_MAX || f.born.tv_nsec < 0 ||
		     f.born.tv_nsec > 999999999 || (!f.created && (f.dev || f.ino))))
			abort();
		free(copy);
	}
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	size_t lines, bad, off = 0;
	char path[64], *text;
	long pid;
	int fd;

	parse_lines(data, len);
	fd = memfd_create("journal", MFD_CLOEXEC);
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
