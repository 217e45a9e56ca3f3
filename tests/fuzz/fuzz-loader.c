// SPDX-License-Identifier: MIT
/*
 * The report loader alone on arbitrary bytes: every count and index a
 * report file gives is bounded by the document (an error, never a loop,
 * an allocation or an overflow on its word). fuzz-report runs the same
 * loader and then every printer, about 500 inputs a second under ASan;
 * this one only reads, fast enough for runs of tens of millions.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "model/report.h"
#include "report/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	static int fd = -1;
	struct mt_report *rep = NULL;
	char path[64];
	struct mt_msg msg;

	if (fd < 0)
		fd = memfd_create("fuzz-loader", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, 0) || pwrite(fd, data, len, 0) != (ssize_t)len)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (!mt_report_load(path, &rep, &msg))
		mt_report_destroy(rep);
	return 0;
}
