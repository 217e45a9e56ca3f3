/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_CLI_SINK_H
#define MEMTLB_CLI_SINK_H

#include <stdio.h>
#include <sys/types.h>

#include "sys/file.h"

/*
 * The one way a command's output leaves memtlb: a document for -o (the
 * JSON report, a comparison, a page) and a view (the table, CSV) on a
 * stream. Every command prints through it, so that -o means one thing:
 *   - -o FILE is written first, whole (mt_file_write_atomic: a regular
 *     file replaced atomically, a FIFO, a device or a descriptor written
 *     through); a reader that then closes the stream early (| head -1)
 *     ends memtlb with SIGPIPE, as it ends perf, with the file kept;
 *   - -o - puts the document on stdout, in the view's place when the view
 *     goes there (run's view stays on stderr);
 *   - a failure is said once ("-o: FILE: why", "stdout: why"), exit 1.
 */
struct mt_sink_part {
	int (*print)(FILE *f, const void *arg);	/* 0 or -errno */
	const void *arg;
};

struct mt_sink {
	const char *output;	/* -o: a path, "-", or NULL */
	/*
	 * A measurement 0600: it holds the machine's details (cmdline, host
	 * names), as perf.data does. A page made to be shared (report,
	 * compare) 0644.
	 */
	mode_t mode;
	struct mt_sink_part doc;	/* what -o gets */
	FILE *stream;			/* the view's: stdout, or stderr (run) */
	struct mt_sink_part view;	/* print NULL: no view (report -o FILE) */
};

/* The document to -o alone (sweep rewrites it after every point): MT_EXIT_*. */
int mt_sink_doc(const struct mt_sink *s);

/* The view alone, unless -o - took its place on stdout: MT_EXIT_*. */
int mt_sink_view(const struct mt_sink *s);

/* The document, then the view: MT_EXIT_*. */
int mt_sink_emit(const struct mt_sink *s);

#endif
