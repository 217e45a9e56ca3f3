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
#include "report/export.h"
#include "report/json.h"
#include "report/render.h"
#include "report/sweep.h"
#include "report/table.h"
#include "stats/compare.h"

/* KCIDB's required ids (memtlb report --origin --checkout) */
static const struct mt_export_ids fuzz_ids = { .origin = "fuzz", .checkout = "c1" };

/*
 * Where the renderers write: a stream that drops everything in user space.
 * /dev/null cost an open and a write(2) per buffer of every table.
 */
static ssize_t discard(void *cookie, const char *buf, size_t len)
{
	(void)cookie;
	(void)buf;
	return (ssize_t)len;
}

/*
 * Many inputs side by side: tables wider than any fixed array (64 inputs
 * made 65 columns). Any small report reaches that; a big one (70 events)
 * is wide already, and 64 copies of it cost a second under ASan.
 */
static void render_many(FILE *out, const struct mt_report *rep, unsigned int n)
{
	struct mt_render_input many[64];
	size_t cells = 0;

	for (size_t i = 0; i < rep->n_results; i++)
		cells += rep->results[i]->n_events + rep->results[i]->n_phases;
	if (cells > 32 && n > 4)
		n = 4;
	for (unsigned int i = 0; i < n; i++)
		many[i] = (struct mt_render_input){
			.file = i & 1 ? "b\x1b[2J,\"q\".json" : "a DATAFILE b.json", .rep = rep };
	mt_render(out, many, n, MT_FORMAT_TEXT);
	if (n < 8)
		mt_render(out, many, n, MT_FORMAT_MARKDOWN);
}

/*
 * Every report that loads is printed by one group of renderers, chosen by
 * a hash of the input: all of them on every input made a 60 KB seed cost
 * 30 ms under ASan (the loader a third, five renderers the rest), about 500
 * runs a second. Any mutation picks another group, so each group still
 * sees every shape the loader accepts. (The last byte chose before: a
 * valid report nearly always ends in '}' and got the same group.) The
 * wide render costs one render per copy: one input in 16, and its counts
 * are the edges that matter (markdown stops at 8; 64 is the most).
 */
static void render(FILE *out, const struct mt_report *rep, uint32_t sel)
{
	static const unsigned int counts[] = { 3, 4, 7, 8, 9, 16, 63, 64 };
	const struct mt_report *two[2] = { rep, rep };
	const char *names[2] = { "a.json", "b.json" };
	const struct mt_render_input both[2] = { { .file = "a.json", .rep = rep },
						 { .file = "b.json", .rep = rep } };
	struct mt_comparison *cmp;

	switch (sel % 16 / 3) {
	case 0:
		mt_report_print_table(out, rep, true);
		mt_report_print_csv(out, rep);
		break;
	case 1:
		/* memtlb sweep --from: the sweep table and its knees */
		mt_report_print_sweep(out, rep, mt_report_default_phase(rep), NULL, false);
		mt_report_print_sweep_csv(out, rep, "read_0", NULL);
		/* and its keys for lkp, LAVA and KCIDB (names from the input) */
		for (int f = MT_FORMAT_LKP; f <= MT_FORMAT_KCIDB; f++)
			mt_export_write(out, &rep, 1, (enum mt_format)f, &fuzz_ids);
		/* and written back whole (sweep --from --format json): every value converts */
		mt_report_print_json(out, rep);
		break;
	case 2:
		/* compare and report (no HTML: that runs gnuplot) */
		if (!mt_compare_create(&cmp, two, names, 2)) {
			for (int f = MT_FORMAT_TEXT; f <= MT_FORMAT_JSON; f++)
				mt_compare_print(out, cmp, f);
			mt_compare_destroy(cmp);
		}
		break;
	case 3:
		mt_render(out, both, 2, MT_FORMAT_TEXT);
		break;
	case 4:
		mt_render(out, both, 2, MT_FORMAT_MARKDOWN);
		break;
	default:	/* 15 */
		render_many(out, rep, counts[sel / 16 % 8]);
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	static cookie_io_functions_t io = { .write = discard };
	static FILE *out;
	static int fd = -1;
	struct mt_report *rep = NULL;
	char path[64];
	struct mt_msg msg;

	if (fd < 0)
		fd = memfd_create("fuzz-report", MFD_CLOEXEC);
	if (!out)
		out = fopencookie(NULL, "w", io);
	if (fd < 0 || !out || ftruncate(fd, 0) || pwrite(fd, data, len, 0) != (ssize_t)len)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (!mt_report_load(path, &rep, &msg)) {
		/* what loads must print: exercise the output paths too */
		uint32_t h = 2166136261u;	/* FNV-1a */

		for (size_t i = 0; i < len; i++)
			h = (h ^ data[i]) * 16777619u;
		render(out, rep, h);
		fflush(out);
		mt_report_destroy(rep);
	}
	return 0;
}
