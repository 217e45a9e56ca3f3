// SPDX-License-Identifier: MIT
/* memtlb report: report files as a document for people (text, markdown, HTML). */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <memtlb/cmd.h>
#include <memtlb/log.h>
#include <memtlb/render.h>

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

static int parse_format(const char *s, enum mt_render_format *fmt)
{
	if (!strcmp(s, "text"))
		*fmt = MT_RENDER_TEXT;
	else if (!strcmp(s, "markdown"))
		*fmt = MT_RENDER_MARKDOWN;
	else if (!strcmp(s, "html"))
		*fmt = MT_RENDER_HTML;
	else
		return -EINVAL;
	return 0;
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

/* The whole document or nothing: temp file beside path, then rename. */
static int write_atomic(const char *path, const char *buf, size_t len)
{
	char tmp[PATH_MAX], dir[PATH_MAX];
	int fd, ret = 0;

	snprintf(dir, sizeof(dir), "%s", path);
	if (snprintf(tmp, sizeof(tmp), "%s/.memtlb-XXXXXX", dirname(dir)) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (len && !ret) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno != EINTR)
			ret = -errno;
		else if (n > 0) {
			buf += n;
			len -= (size_t)n;
		}
	}
	if (!ret && (fchmod(fd, 0644) || fsync(fd)))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}

static int cmd_report(int argc, char *argv[])
{
	struct mt_report *reps[MAX_INPUTS] = { 0 };
	enum mt_render_format fmt;
	const char *output = NULL, *format = NULL;
	char *buf = NULL, msg[256];
	int c, n, ret = MT_EXIT_OK;
	size_t len = 0;
	FILE *f;

	opterr = 0;
	optind = 0;	/* 0: glibc starts afresh (main parsed with "+") */
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
		case ':':
			mt_err("report: option '%s' needs a value", argv[optind - 1]);
			return MT_EXIT_USAGE;
		default:
			mt_err("report: unknown option '%s'", argv[optind - 1]);
			mt_hint("memtlb report --help lists the options");
			return MT_EXIT_USAGE;
		}
	}
	fmt = format_of(output);
	if (format && parse_format(format, &fmt)) {
		mt_err("--format: %s: not a format", format);
		mt_hint("use text, markdown or html");
		return MT_EXIT_USAGE;
	}
	n = argc - optind;
	if (n < 1 || n > MAX_INPUTS) {
		mt_err("report: %s", n < 1 ? "no report file given" : "too many report files");
		mt_hint("memtlb report FILE.json... [--format text|markdown|html] [-o OUT]");
		return MT_EXIT_USAGE;
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
		fwrite(buf, 1, len, stdout);
	} else {
		int err = write_atomic(output, buf, len);

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
