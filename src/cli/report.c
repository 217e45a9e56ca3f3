// SPDX-License-Identifier: MIT
/*
 * memtlb report: report files as a document for people (text, markdown,
 * HTML) or for the engines a fleet runs (lkp, lava, kcidb).
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd.h"
#include "cli/log.h"
#include "cli/sink.h"
#include "report/cells.h"
#include "report/export.h"
#include "report/json.h"
#include "report/plot.h"
#include "report/probe.h"
#include "report/render.h"

#define MAX_INPUTS 64

enum {
	OPT_ORIGIN = 256,
	OPT_CHECKOUT,
	OPT_BUILD,
	OPT_RUN,
};

static const struct option cmdopts[] = {
	{ "format", required_argument, NULL, 'f' },
	{ "output", required_argument, NULL, 'o' },
	{ "origin", required_argument, NULL, OPT_ORIGIN },
	{ "checkout", required_argument, NULL, OPT_CHECKOUT },
	{ "build", required_argument, NULL, OPT_BUILD },
	{ "run", required_argument, NULL, OPT_RUN },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void help(void)
{
	printf("Usage: memtlb report [options] FILE.json|DIR...\n"
	       "System, configuration, tables and plots of report files (a directory:\n"
	       "its *.json files), or their metrics for lkp-tests, LAVA or KCIDB.\n\n"
	       "  --format FMT             text, markdown, html, lkp, lava or kcidb\n"
	       "                           (default: from -o's suffix .md or .html, else text;\n"
	       "                           -o FILE.pdf: the plots as a PDF, through gnuplot)\n"
	       "  -o, --output FILE        write to FILE (atomically) instead of stdout\n"
	       "      --origin NAME        kcidb: the CI system (required)\n"
	       "      --checkout ID        kcidb: the kernel's checkout id (required)\n"
	       "      --build ID           kcidb: build id (default: checkout and machine)\n"
	       "      --run ID             kcidb: the run's part of test ids (default: run id)\n"
	       "  -h, --help               this text\n");
}

static bool is_pdf(const char *path)
{
	const char *dot = path ? strrchr(path, '.') : NULL;

	return dot && !strcmp(dot, ".pdf");
}

static enum mt_format format_of(const char *path)
{
	const char *dot = path ? strrchr(path, '.') : NULL;

	if (dot && (!strcmp(dot, ".html") || !strcmp(dot, ".xhtml") || !strcmp(dot, ".htm")))
		return MT_FORMAT_HTML;
	if (dot && !strcmp(dot, ".md"))
		return MT_FORMAT_MARKDOWN;
	return MT_FORMAT_TEXT;
}

struct doc {
	const char *buf;
	size_t len;
};

static int print_doc(FILE *f, const void *arg)
{
	const struct doc *d = arg;

	errno = 0;
	if (d->len && fwrite(d->buf, 1, d->len, f) != d->len)
		return errno ? -errno : -EIO;
	return 0;
}

struct inputs {
	int n;
	char *path[MAX_INPUTS];
};

static int json_name(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return d->d_name[0] != '.' && n > 5 && !strcmp(d->d_name + n - 5, ".json");
}

/* A file, or a directory's *.json in name order: a fleet's reports at once. */
static int add_input(struct inputs *in, const char *arg)
{
	struct dirent **names;
	DIR *d = opendir(arg);
	int n, ret = 0;

	if (!d) {
		if (in->n >= MAX_INPUTS)
			return -E2BIG;
		return (in->path[in->n++] = strdup(arg)) ? 0 : -ENOMEM;
	}
	closedir(d);
	n = scandir(arg, &names, json_name, alphasort);
	if (n < 0)
		return -errno;
	if (!n)
		ret = -ENOENT;
	for (int i = 0; i < n; i++) {
		if (!ret && in->n >= MAX_INPUTS)
			ret = -E2BIG;
		if (!ret && asprintf(&in->path[in->n], "%s/%s", arg, names[i]->d_name) < 0)
			ret = -ENOMEM;
		else if (!ret)
			in->n++;
		free(names[i]);
	}
	free(names);
	return ret;
}

/*
 * Each input read once (a pipe cannot be read again), its command named:
 * the kind of document it makes is known before any is loaded, and a file
 * whose command memtlb report does not render, or inputs of two kinds,
 * are refused here (document only: an export reads reports alone).
 * MT_EXIT_OK or the exit code, the error said.
 */
static int read_inputs(const struct inputs *in, json_t **roots, char (*cmds)[16],
		       bool document)
{
	struct mt_msg msg;
	int k0 = -1;

	for (int i = 0; i < in->n; i++) {
		int err = mt_report_load_json(in->path[i], &roots[i], &msg), k;

		if (!err)
			err = mt_report_command(roots[i], cmds[i], sizeof(cmds[i]), &msg);
		if (err) {
			mt_err("%s: %s", in->path[i], msg.text[0] ? msg.text : strerror(-err));
			return err == -ENOMEM ? MT_EXIT_FAILURE : MT_EXIT_USAGE;
		}
		if (!document)
			continue;
		k = mt_render_kind(cmds[i]);
		if (k < 0) {
			mt_err("report: %s: a report of \"%s\": memtlb report renders those of "
			       "stat, sweep, run, flush and probe", in->path[i], cmds[i]);
			mt_hint("memtlb report FILE.json, FILE a report of one of those commands");
			return MT_EXIT_USAGE;
		}
		if (k0 >= 0 && k != k0) {
			mt_err("report: %s: a %s report, %s: a %s report: one kind per document",
			       in->path[0], cmds[0], in->path[i], cmds[i]);
			mt_hint("stat and sweep reports go together; run, flush and probe reports "
				"each in a document of their own");
			return MT_EXIT_USAGE;
		}
		k0 = k;
	}
	return MT_EXIT_OK;
}

/* Each input loaded as its kind asks: a probe's by its own loader. */
static int load_inputs(const struct inputs *in, json_t **roots, char (*cmds)[16],
		       struct mt_report **reps, struct mt_probe_result **probes,
		       struct mt_sysinfo *sis, struct mt_render_input *ri)
{
	struct mt_msg msg;

	for (int i = 0; i < in->n; i++) {
		int err = mt_render_kind(cmds[i]) == MT_RENDER_PROBE
			? mt_report_probe_from_json(roots[i], &probes[i], &sis[i], &msg)
			: mt_report_from_json(roots[i], &reps[i], &msg);

		if (err) {
			mt_err("%s: %s", in->path[i], msg.text[0] ? msg.text : strerror(-err));
			return err == -ENOMEM ? MT_EXIT_FAILURE : MT_EXIT_USAGE;
		}
		ri[i] = (struct mt_render_input){ .file = in->path[i], .rep = reps[i],
						  .probe = probes[i],
						  .si = probes[i] ? &sis[i] : NULL };
	}
	return MT_EXIT_OK;
}

static int cmd_report(int argc, char *argv[])
{
	struct mt_report *reps[MAX_INPUTS] = { 0 };
	struct mt_probe_result *probes[MAX_INPUTS] = { 0 };
	json_t *roots[MAX_INPUTS] = { 0 };
	char cmds[MAX_INPUTS][16];
	struct mt_render_input ri[MAX_INPUTS];
	struct mt_sysinfo *sis = NULL;
	char why[MT_PLOT_WHY_MAX], safe[MT_SAFE_MAX];
	struct mt_export_ids ids = { 0 };
	struct inputs in = { 0 };
	enum mt_format fmt, export = MT_FORMAT_MAX;	/* MAX: a document, no export */
	bool pdf = false;
	const char *output = NULL, *format = NULL;
	char *buf = NULL;
	struct mt_msg msg;
	struct doc d;
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
		case OPT_ORIGIN:
			ids.origin = optarg;
			break;
		case OPT_CHECKOUT:
			ids.checkout = optarg;
			break;
		case OPT_BUILD:
			ids.build = optarg;
			break;
		case OPT_RUN:
			ids.run = optarg;
			break;
		default:
			return mt_cli_getopt_error("report", c, argv);
		}
	}
	fmt = format_of(output);
	if (format) {
		enum mt_format v;

		ret = mt_cli_format_opt(format, MT_FORMATS_DOCUMENT | MT_FORMATS_EXPORT, &v);
		if (ret)
			return ret;
		if (MT_FORMAT_BIT(v) & MT_FORMATS_EXPORT)
			export = v;
		else
			fmt = v;
	}
	/* A PDF needs gnuplot's pdfcairo: said before any input is read. */
	if (!format && is_pdf(output)) {
		int err = mt_plot_has_pdf();

		if (err) {
			mt_err("-o: %s: cannot make a PDF: %s", output, err == -ENOENT ?
			       "gnuplot is not installed" : "gnuplot has no pdfcairo terminal");
			mt_hint("apt-get install gnuplot-nox, or write HTML: -o FILE.html");
			return MT_EXIT_USAGE;
		}
		pdf = true;
	}
	if ((ids.origin || ids.checkout || ids.build || ids.run) && export != MT_FORMAT_KCIDB) {
		mt_err("report: --origin, --checkout, --build and --run: only with --format kcidb");
		mt_hint("memtlb report FILE.json --format kcidb --origin NAME");
		return MT_EXIT_USAGE;
	}
	if (export == MT_FORMAT_KCIDB && mt_export_ids_check(&ids, &msg)) {
		mt_err_msg(&msg, "report");
		return MT_EXIT_USAGE;
	}
	if (argc - optind < 1) {
		mt_err("report: no report file given");
		mt_hint("memtlb report FILE.json|DIR... [--format text|markdown|html|lkp|lava|kcidb]");
		return MT_EXIT_USAGE;
	}
	for (int i = optind; i < argc; i++) {
		int err = add_input(&in, argv[i]);

		if (err) {
			mt_err("report: %s: %s", argv[i], err == -E2BIG ? "more than 64 report files" :
				err == -ENOENT ? "no *.json report in this directory" : strerror(-err));
			mt_hint("memtlb report FILE.json|DIR... (64 reports at most)");
			ret = err == -ENOMEM ? MT_EXIT_FAILURE : MT_EXIT_USAGE;
			goto out;
		}
	}
	n = in.n;
	if ((export == MT_FORMAT_LKP || export == MT_FORMAT_LAVA) && n != 1) {
		mt_err("report: --format %s: one report at a time (%d given)", mt_format_name(export),
		       n);
		mt_hint("an lkp or LAVA job parses the output of one run");
		ret = MT_EXIT_USAGE;
		goto out;
	}
	/* Before anything is read: -o must not replace one of the inputs. */
	if (output) {
		ret = mt_cli_output_check(output);
		if (ret)
			goto out;
		ret = mt_cli_output_not_input(output, (const char *const *)in.path, (size_t)n);
		if (ret)
			goto out;
	}
	/* A document is of one kind: known from each file's command, before one is loaded. */
	ret = read_inputs(&in, roots, cmds, export == MT_FORMAT_MAX);
	if (ret)
		goto out;
	sis = calloc((size_t)n, sizeof(*sis));
	if (!sis) {
		mt_err("report: %s", strerror(ENOMEM));
		ret = MT_EXIT_FAILURE;
		goto out;
	}
	ret = load_inputs(&in, roots, cmds, reps, probes, sis, ri);
	if (ret)
		goto out;
	if (pdf) {
		int err = mt_render_pdf(ri, n, &buf, &len, why, sizeof(why));

		if (err) {
			/* gnuplot's own words, escaped: it echoes a line of the script */
			mt_err("-o: %s: %s%s%s", output,
			       err == -ENODATA ? "the reports have nothing to plot" :
			       err == -ENOMEM ? strerror(ENOMEM) : "gnuplot failed on the plots",
			       err == -EIO && why[0] ? ": " : "",
			       err == -EIO ? mt_cell_safe(safe, sizeof(safe), why) : "");
			ret = err == -ENODATA ? MT_EXIT_USAGE : MT_EXIT_FAILURE;
			goto out;
		}
		goto write;
	}
	f = open_memstream(&buf, &len);
	if (!f || (export != MT_FORMAT_MAX ? mt_export_write(f, (const struct mt_report *const *)reps,
							     (size_t)n, export, &ids)
			       : mt_render(f, ri, (unsigned int)n, fmt))) {
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
write:
	/* the page is the document: on stdout unless -o names a file */
	d = (struct doc){ buf, len };
	ret = mt_sink_emit(&(struct mt_sink){
		.output = output, .mode = MT_FILE_MODE_AS_SHELL, .doc = { print_doc, &d },
		.stream = stdout, .view = { output ? NULL : print_doc, &d },
	});
out:
	free(buf);
	for (int i = 0; i < in.n; i++) {
		mt_report_destroy(reps[i]);
		mt_probe_result_destroy(probes[i]);
		json_decref(roots[i]);
		free(in.path[i]);
	}
	free(sis);
	return ret;
}

const struct mt_cmd mt_cmd_report = {
	.name = "report",
	.fn = cmd_report,
	.help = "tables and plots of report files, as text, markdown or HTML",
};
