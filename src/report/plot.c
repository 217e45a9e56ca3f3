// SPDX-License-Identifier: MIT
/* gnuplot as a child process: no shell, script on stdin, SVG from stdout. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

static int read_all(int fd, char **out)
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

int mt_plot_svg(const char *script, const char *data, char **svg)
{
	const char *prog = getenv("MEMTLB_GNUPLOT");
	int in[2] = { -1, -1 }, out[2] = { -1, -1 }, status, ret = 0;
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	char *full;
	pid_t pid;

	*svg = NULL;
	if (!prog || !*prog)
		prog = "gnuplot";
	full = with_datablock(script, data);
	if (!full)
		return -EINVAL;
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
		int null = open("/dev/null", O_WRONLY);

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
	if (read_all(out[0], svg) && !ret)
		ret = -EIO;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		ret = -ENOENT;
	else if (!WIFEXITED(status) || WEXITSTATUS(status) || !*svg || !strstr(*svg, "<svg"))
		ret = ret ? ret : -EIO;
out:
	for (int i = 0; i < 2; i++) {
		if (in[i] >= 0)
			close(in[i]);
		if (out[i] >= 0)
			close(out[i]);
	}
	free(full);
	if (ret) {
		free(*svg);
		*svg = NULL;
	}
	return ret;
}
