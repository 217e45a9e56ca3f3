/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_REPORT_KTAP_H
#define MEMTLB_REPORT_KTAP_H

#include <stdio.h>

#include "analysis/selftest.h"

/*
 * KTAP, as kselftest prints it (Documentation/dev-tools/ktap.rst): the
 * version line, the plan, one result line per test (its "# " diagnostic
 * lines before it), a skip as "ok N name # SKIP reason", and kselftest's
 * totals line. A skip is never counted as a pass.
 */
struct mt_ktap {
	FILE *f;
	unsigned int plan;
	unsigned int n;			/* results printed */
	unsigned int pass, fail, skip;
};

/* kselftest's exit codes (tools/testing/selftests/kselftest.h). */
enum {
	MT_KSFT_PASS = 0,
	MT_KSFT_FAIL = 1,
	MT_KSFT_SKIP = 4,
};

/* "KTAP version 1" and the plan "1..plan" on f. */
void mt_ktap_begin(struct mt_ktap *k, FILE *f, unsigned int plan);

/* A diagnostic line: "# " and the text; a newline or control character in it a space. */
void mt_ktap_diag(struct mt_ktap *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* r's diagnostic lines, then its result line as test name, numbered in order. */
void mt_ktap_result(struct mt_ktap *k, const char *name, const struct mt_selftest_result *r);

/* kselftest's totals line; 0, -EIO when f failed, -EPROTO when not plan results. */
int mt_ktap_end(struct mt_ktap *k);

/* The exit code: 1 on any fail (or a short plan), else 0 on any pass, else 4. */
int mt_ktap_exit_code(const struct mt_ktap *k);

#endif
