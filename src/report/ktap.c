// SPDX-License-Identifier: MIT
/* KTAP output of memtlb selftest (report/ktap.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "report/ktap.h"

void mt_ktap_begin(struct mt_ktap *k, FILE *f, unsigned int plan)
{
	memset(k, 0, sizeof(*k));
	k->f = f;
	k->plan = plan;
	fprintf(f, "KTAP version 1\n1..%u\n", plan);
}

/*
 * One line of text as KTAP may carry it: a newline would start a line the
 * parser reads as a result or a plan, and a '#' in a name or a reason as a
 * directive (a reason "# SKIP" would turn a fail into a skip); both become
 * spaces, as do the other control characters.
 */
static void put_text(FILE *f, const char *s, bool hash)
{
	for (; *s; s++)
		fputc((unsigned char)*s < ' ' || *s == 0x7f || (hash && *s == '#') ? ' ' : *s, f);
}

void mt_ktap_diag(struct mt_ktap *k, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fputs("# ", k->f);
	put_text(k->f, buf, false);
	fputc('\n', k->f);
}

void mt_ktap_result(struct mt_ktap *k, const char *name, const struct mt_selftest_result *r)
{
	for (size_t i = 0; i < r->n_diag; i++)
		mt_ktap_diag(k, "%s: %s", name, r->diag[i]);
	k->n++;
	switch (r->verdict) {
	case MT_SELFTEST_PASS:
		k->pass++;
		fprintf(k->f, "ok %u ", k->n);
		put_text(k->f, name, true);
		break;
	case MT_SELFTEST_FAIL:
		k->fail++;
		fprintf(k->f, "not ok %u ", k->n);
		put_text(k->f, name, true);
		if (r->reason[0]) {
			fputs(" # ", k->f);
			put_text(k->f, r->reason, true);
		}
		break;
	case MT_SELFTEST_SKIP:
	default:
		k->skip++;
		fprintf(k->f, "ok %u ", k->n);
		put_text(k->f, name, true);
		fputs(" # SKIP ", k->f);
		put_text(k->f, r->reason, true);
		break;
	}
	fputc('\n', k->f);
}

int mt_ktap_end(struct mt_ktap *k)
{
	fprintf(k->f, "# Totals: pass:%u fail:%u xfail:0 xpass:0 skip:%u error:0\n", k->pass,
		k->fail, k->skip);
	if (fflush(k->f) || ferror(k->f))
		return -EIO;
	return k->n == k->plan ? 0 : -EPROTO;
}

int mt_ktap_exit_code(const struct mt_ktap *k)
{
	if (k->fail || k->n != k->plan)
		return MT_KSFT_FAIL;
	return k->pass ? MT_KSFT_PASS : MT_KSFT_SKIP;
}
