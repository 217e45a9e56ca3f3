// SPDX-License-Identifier: MIT
/* The one output sink of every command (sink.h). */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "cli/cmd.h"
#include "cli/log.h"
#include "cli/sink.h"
#include "sys/file.h"

static bool is_stdout(const char *output)
{
	return output && !strcmp(output, "-");
}

/* mt_file_write_atomic's fill, whose arg is not const */
static int fill(FILE *f, void *arg)
{
	const struct mt_sink_part *p = arg;

	return p->print(f, p->arg);
}

/* part on stream f, flushed: a short write is an error now, not at exit. */
static int print_on(FILE *f, const struct mt_sink_part *p)
{
	int ret = p->print(f, p->arg);

	errno = 0;
	if (!ret && (fflush(f) || ferror(f)))
		ret = errno ? -errno : -EIO;
	if (ret)
		mt_err("%s: %s", f == stderr ? "stderr" : "stdout", strerror(-ret));
	return ret ? MT_EXIT_FAILURE : MT_EXIT_OK;
}

int mt_sink_doc(const struct mt_sink *s)
{
	struct mt_sink_part doc = s->doc;
	int ret;

	if (!s->output || !doc.print)
		return MT_EXIT_OK;
	if (is_stdout(s->output))
		return print_on(stdout, &doc);
	ret = mt_file_write_atomic(s->output, s->mode, fill, &doc);
	if (ret) {
		mt_err("-o: %s: %s", s->output, strerror(-ret));
		return MT_EXIT_FAILURE;
	}
	return MT_EXIT_OK;
}

int mt_sink_view(const struct mt_sink *s)
{
	if (!s->view.print || (is_stdout(s->output) && s->stream == stdout))
		return MT_EXIT_OK;
	return print_on(s->stream, &s->view);
}

int mt_sink_emit(const struct mt_sink *s)
{
	int ret = mt_sink_doc(s);

	return ret ? ret : mt_sink_view(s);
}
