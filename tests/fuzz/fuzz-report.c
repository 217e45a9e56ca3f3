// SPDX-License-Identifier: MIT
/* The report loader on arbitrary bytes: an error or a report, never a crash. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "model/report.h"
#include "report/compare.h"
#include "report/json.h"
#include "report/render.h"
#include "report/sweep.h"
#include "report/table.h"
#include "stats/compare.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	static int fd = -1;
	struct mt_report *rep = NULL;
	char path[64], msg[256];

	if (fd < 0)
		fd = memfd_create("fuzz-report", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, 0) || pwrite(fd, data, len, 0) != (ssize_t)len)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (!mt_report_load(path, &rep, msg, sizeof(msg))) {
		/* what loads must print: exercise the output paths too */
		FILE *null = fopen("/dev/null", "w");
		const struct mt_report *two[2] = { rep, rep };
		const char *names[2] = { "a.json", "b.json" };
		struct mt_comparison *cmp;

		mt_report_print_table(null, rep, true);
		mt_report_print_csv(null, rep);
		/* memtlb sweep --from: the sweep table and its knees */
		mt_report_print_sweep(null, rep, mt_report_default_phase(rep), NULL, false);
		mt_report_print_sweep_csv(null, rep, "read_0", NULL);
		/* compare and report (no HTML: that runs gnuplot) */
		if (!mt_compare_create(&cmp, two, names, 2)) {
			for (int f = MT_COMPARE_TEXT; f <= MT_COMPARE_JSON; f++)
				mt_compare_print(null, cmp, f);
			mt_compare_destroy(cmp);
		}
		mt_render(null, two, names, 2, MT_RENDER_TEXT);
		mt_render(null, two, names, 2, MT_RENDER_MARKDOWN);
		/*
		 * Many inputs side by side: tables wider than any fixed array
		 * (64 inputs made 65 columns). The count comes from the input's
		 * last byte, so the fuzzer reaches it without paying every run.
		 */
		if (data[len - 1] % 8 == 0) {	/* one input in 8: the rest stay fast */
			const struct mt_report *many[64];
			const char *many_names[64];
			unsigned int n = 3 + data[len - 1] / 8 % 62;

			for (unsigned int i = 0; i < n; i++) {
				many[i] = rep;
				many_names[i] = i & 1 ? "b\x1b[2J,\"q\".json" : "a DATAFILE b.json";
			}
			mt_render(null, many, many_names, n, MT_RENDER_TEXT);
			if (n < 8)
				mt_render(null, many, many_names, n, MT_RENDER_MARKDOWN);
		}
		fclose(null);
		mt_report_destroy(rep);
	}
	return 0;
}
