// SPDX-License-Identifier: MIT
/* memtlb report: report files as a document for people (text, markdown, HTML). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd.h"
#include "cli/log.h"
#include "report/json.h"
#include "report/render.h"
#include "sys/file.h"

#define MAX_INPUTS 64

static const struct option cmdopts[] = {
	{ "format", required_argument, NULL, 'f' },
	{ "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void help(void)
{
	printf("Usage: memtlb report [options] FILE.json...\n"
	       "System, configuration, tables and plots of report files.\n\n"
	       "  --format FMT             text, markdown or html (default: from -o's\n"
	       "                           suffix .md or .html, else text)\n"
	       "  -o, --output FILE        write to FILE (atomically) instead of stdout\n"
	       "  -h, --help               this text\n");
}

static enum mt_render_format format_of(const char *path)
{
	const char *dot = path ? strrchr(path, '.') : NULL;

	if (dot && (!strcmp(dot, ".html") || !strcmp(dot, ".xhtml") || !strcmp(dot, ".htm")))
		return MT_RENDER_HTML;
	if (dot && !strcmp(dot, ".md"))
		return MT_RENDER_MARKDOWN;
	return MT_RENDER_TEXT;
}

struct doc {
	const char *buf;
	size_t len;
};

static int fill_doc(FILE *f, void *arg)
{
	const struct doc *d = arg;

	errno = 0;
	if (d->len && fwrite(d->buf, 1, d->len, f) != d->len)
		return errno ? -errno : -EIO;
	return 0;
}

static int cmd_report(int argc, char *argv[])
{
	static const char *const formats[] = {
		[MT_RENDER_TEXT] = "text", [MT_RENDER_MARKDOWN] = "markdown",
		[MT_RENDER_HTML] = "html",
	};
	struct mt_report *reps[MAX_INPUTS] = { 0 };
	enum mt_render_format fmt;
	const char *output = NULL, *format = NULL;
	char *buf = NULL, msg[256];
	int c, n, ret = MT_EXIT_OK;
	size_t len = 0;
	FILE *f;

	opterr = 0;
	/*
	 * 0, not 1: glibc reinitialises (main parsed with "+"), and without "+"
	 * here options may follow the files (memtlb report a.json -o out.html).
	 */
	optind = 0;
	while ((c = getopt_long(argc, argv, ":ho:", cmdopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			help();
			return MT_EXIT_OK;
		case 'f':
			format = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		default:
			return mt_cli_getopt_error("report", c, argv);
		}
	}
	fmt = format_of(output);
	if (format) {
		int v;

		ret = mt_cli_choose("--format", format, formats, 3, &v);
		if (ret)
			return ret;
		fmt = (enum mt_render_format)v;
	}
	n = argc - optind;
	if (n < 1 || n > MAX_INPUTS) {
		mt_err("report: %s", n < 1 ? "no report file given" : "too many report files");
		mt_hint("memtlb report FILE.json... [--format text|markdown|html] [-o OUT]");
		return MT_EXIT_USAGE;
	}
	/* Before anything is read: -o must not replace one of the inputs. */
	if (output) {
		ret = mt_cli_output_check(output);
		if (ret)
			return ret;
		for (int i = 0; i < n && strcmp(output, "-"); i++) {
			if (mt_file_same(output, argv[optind + i])) {
				mt_err("-o: %s: is the input %s", output, argv[optind + i]);
				mt_hint("write the document to another file");
				return MT_EXIT_USAGE;
			}
		}
	}
	for (int i = 0; i < n; i++) {
		int err = mt_report_load(argv[optind + i], &reps[i], msg, sizeof(msg));

		if (err) {
			mt_err("%s: %s", argv[optind + i], msg[0] ? msg : strerror(-err));
			ret = MT_EXIT_USAGE;
			goto out;
		}
	}
	f = open_memstream(&buf, &len);
	if (!f || mt_render(f, (const struct mt_report *const *)reps,
			    (const char *const *)argv + optind, n, fmt)) {
		if (f)
			fclose(f);
		mt_err("report: %s", strerror(ENOMEM));
		ret = MT_EXIT_FAILURE;
		goto out;
	}
	if (fclose(f)) {
		mt_err("report: %s", strerror(errno));
		ret = MT_EXIT_FAILURE;
		goto out;
	}
	if (!output || !strcmp(output, "-")) {
		errno = 0;
		if (len && (fwrite(buf, 1, len, stdout) != len || fflush(stdout))) {
			mt_err("stdout: %s", strerror(errno ? errno : EIO));
			ret = MT_EXIT_FAILURE;
		}
	} else {
		struct doc d = { buf, len };
		int err = mt_file_write_atomic(output, 0644, fill_doc, &d);

		if (err) {
			mt_err("-o: %s: %s", output, strerror(-err));
			ret = err == -ENOENT || err == -EACCES || err == -ENOTDIR ? MT_EXIT_USAGE
										 : MT_EXIT_FAILURE;
		}
	}
out:
	free(buf);
	for (int i = 0; i < n && i < MAX_INPUTS; i++)
		mt_report_destroy(reps[i]);
	return ret;
}

const struct mt_cmd mt_cmd_report = {
	.name = "report",
	.fn = cmd_report,
	.help = "tables and plots of report files, as text, markdown or HTML",
};
