// SPDX-License-Identifier: MIT
/* gnuplot as a child process: no shell, script on stdin, SVG or PDF from stdout. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report/plot.h"
#include "report/render.h"

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -EIO;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static int read_all(int fd, char **out, size_t *out_len)
{
	size_t len = 0, cap = 0;
	char *buf = NULL;

	for (;;) {
		ssize_t n;

		if (cap - len < 4096) {
			char *grown = realloc(buf, cap + 65536);

			if (!grown) {
				free(buf);
				return -ENOMEM;
			}
			buf = grown;
			cap += 65536;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			free(buf);
			return -EIO;
		}
		if (!n)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	*out = buf;
	*out_len = len;
	return 0;
}

/*
 * The data as a datablock before the script: no temp file (none is left
 * behind by an interrupt, none is named through TMPDIR) and nothing of the
 * data is ever substituted into the script. A line "EOD" would end the
 * block early and run what follows as code: refused.
 */
static char *with_datablock(const char *script, const char *data)
{
	static const char head[] = "$data << EOD\n", tail[] = "EOD\n";
	size_t dlen = strlen(data);
	char *out;

	for (const char *l = data; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l))
		if (!strncmp(l, "EOD", 3) && (l[3] == '\n' || l[3] == '\r' || !l[3]))
			return NULL;
	out = malloc(sizeof(head) + dlen + 1 + sizeof(tail) + strlen(script));
	if (!out)
		return NULL;
	sprintf(out, "%s%s%s%s%s", head, data, dlen && data[dlen - 1] != '\n' ? "\n" : "", tail,
		script);
	return out;
}

/*
 * gnuplot's own words on a failure: the first two lines of what it wrote on
 * stderr, joined by "; " and kept whole (the printer escapes them: a plot's
 * title came from a report and gnuplot echoes the line it failed on).
 */
#define WHY_LINES 2

static void why_of(int fd, char *why, size_t len)
{
	char buf[1024];
	ssize_t n;
	size_t k = 0;
	int lines = 0;

	if (!why || !len)
		return;
	why[0] = '\0';
	if (fd < 0 || lseek(fd, 0, SEEK_SET) < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n <= 0)
		return;
	buf[n] = '\0';
	for (char *l = buf, *e; *l && lines < WHY_LINES; l = e ? e + 1 : l + strlen(l)) {
		size_t ll;

		e = strchr(l, '\n');
		ll = e ? (size_t)(e - l) : strlen(l);
		/* gnuplot frames the failing line with blank lines and a caret */
		while (ll && (*l == ' ' || *l == '\t')) {
			l++;
			ll--;
		}
		if (!ll || !strncmp(l, "^", 1))
			continue;
		k += (size_t)snprintf(why + k, len - k, "%s%.*s", lines ? "; " : "", (int)ll, l);
		lines++;
		if (k >= len)
			break;
	}
}

/*
 * gnuplot on full (its whole input); *res gets its standard output and
 * *res_len its length, why (len bytes, may be NULL) what it said on stderr
 * when it failed. 0, -ENOENT (no gnuplot), -EIO (it failed), -errno.
 */
static int run(const char *full, char **res, size_t *res_len, char *why, size_t why_len)
{
	const char *prog = getenv("MEMTLB_GNUPLOT");
	int in[2] = { -1, -1 }, out[2] = { -1, -1 }, status, ret = 0;
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	/*
	 * stderr into memory, read once gnuplot is gone: a pipe would need a
	 * second reader beside stdout's, and a file would be named in TMPDIR.
	 */
	int err = memfd_create("memtlb-gnuplot-stderr", MFD_CLOEXEC);
	pid_t pid;

	*res = NULL;
	*res_len = 0;
	if (why && why_len)
		why[0] = '\0';
	if (!prog || !*prog)
		prog = "gnuplot";
	if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC)) {
		ret = -errno;
		goto out;
	}
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		goto out;
	}
	if (!pid) {
		int null = err >= 0 ? err : open("/dev/null", O_WRONLY);

		dup2(in[0], STDIN_FILENO);
		dup2(out[1], STDOUT_FILENO);
		if (null >= 0)
			dup2(null, STDERR_FILENO);
		execlp(prog, prog, (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	in[0] = out[1] = -1;
	/* A gnuplot that dies early must not take us down with SIGPIPE. */
	sigaction(SIGPIPE, &ign, &old);
	ret = write_all(in[1], full, strlen(full));
	sigaction(SIGPIPE, &old, NULL);
	close(in[1]);
	in[1] = -1;
	if (read_all(out[0], res, res_len) && !ret)
		ret = -EIO;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		ret = -ENOENT;
	else if (!WIFEXITED(status) || WEXITSTATUS(status) || !*res)
		ret = ret ? ret : -EIO;
	if (ret == -EIO)
		why_of(err, why, why_len);
out:
	for (int i = 0; i < 2; i++) {
		if (in[i] >= 0)
			close(in[i]);
		if (out[i] >= 0)
			close(out[i]);
	}
	if (err >= 0)
		close(err);
	if (ret) {
		free(*res);
		*res = NULL;
		*res_len = 0;
	}
	return ret;
}

/*
 * gnuplot's SVG escapes & and < in a text but not the "]]>" XML forbids in
 * content: a title from a file named "x]]>y.json" made the page not
 * well-formed. Its SVG has no CDATA section of its own (no mouse script),
 * so every "]]>" is a text's, written "]]&gt;". 0 or -ENOMEM.
 */
static int xml_text_safe(char **svg)
{
	size_t n = 0, len;
	char *out, *o;

	for (const char *p = *svg; (p = strstr(p, "]]>")); p += 3)
		n++;
	if (!n)
		return 0;
	len = strlen(*svg);
	out = malloc(len + 3 * n + 1);
	if (!out)
		return -ENOMEM;
	o = out;
	for (const char *p = *svg; *p; p++) {
		*o++ = *p;
		if (*p == '>' && p - *svg >= 2 && p[-1] == ']' && p[-2] == ']') {
			memcpy(o - 1, "&gt;", 4);
			o += 3;
		}
	}
	*o = '\0';
	free(*svg);
	*svg = out;
	return 0;
}

int mt_plot_svg(const char *script, const char *data, char **svg, char *why, size_t why_len)
{
	char *full = with_datablock(script, data);
	size_t len;
	int ret;

	*svg = NULL;
	if (!full)
		return -EINVAL;
	ret = run(full, svg, &len, why, why_len);
	free(full);
	if (!ret && !strstr(*svg, "<svg")) {
		free(*svg);
		*svg = NULL;
		ret = -EIO;
		if (why && why_len)
			snprintf(why, why_len, "its output has no <svg> element");
	}
	if (!ret)
		ret = xml_text_safe(svg);
	if (ret) {
		free(*svg);
		*svg = NULL;
	}
	return ret;
}

int mt_plot_pdf(const char *const *scripts, const char *const *datas, size_t n, char **pdf,
		size_t *len, char *why, size_t why_len)
{
	char *buf = NULL, *part;
	size_t blen = 0;
	FILE *f = open_memstream(&buf, &blen);
	int ret = 0;

	*pdf = NULL;
	*len = 0;
	if (!f)
		return -ENOMEM;
	/* One gnuplot, one output: each plot is a page; each redefines $data. */
	fputs("set terminal pdfcairo size 8in,4.5in font 'sans,10' noenhanced\n", f);
	for (size_t i = 0; i < n && !ret; i++) {
		part = with_datablock(scripts[i], datas[i]);
		if (!part)
			ret = -EINVAL;
		else
			fputs(part, f);
		free(part);
	}
	if (fclose(f))
		ret = ret ? ret : -ENOMEM;
	if (!ret)
		ret = run(buf, pdf, len, why, why_len);
	free(buf);
	if (!ret && (*len < 5 || memcmp(*pdf, "%PDF-", 5))) {
		free(*pdf);
		*pdf = NULL;
		*len = 0;
		ret = -EIO;
		if (why && why_len)
			snprintf(why, why_len, "its output is not a PDF");
	}
	return ret;
}

int mt_plot_has_pdf(void)
{
	char *out;
	size_t len;
	/* gnuplot reading a script exits non-zero on an unknown terminal. */
	int ret = run("set terminal pdfcairo\n", &out, &len, NULL, 0);

	if (ret == -EIO)
		return -ENOTSUP;
	if (!ret)
		free(out);
	return ret;
}
