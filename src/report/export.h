/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_REPORT_EXPORT_H
#define MEMTLB_REPORT_EXPORT_H

#include <stddef.h>
#include <stdio.h>

#include "model/report.h"
#include "sys/msg.h"

/*
 * A report in the form another engine reads (memtlb-report(1), EXPORTS):
 *  lkp    lkp-tests' stats lines, "key: number", what a programs/NAME/parse
 *         script prints (lkp prefixes the program name: memtlb.KEY);
 *  lava   "name pass|fail|skip [measurement [units]]", what test-definitions'
 *         send-to-lava.sh turns into LAVA test cases;
 *  kcidb  a KCIDB v5 report: a checkout, a build and one DONE test per
 *         headline metric.
 * Keys are the same in all three: POINT.PHASE.METRIC, components reduced to
 * [A-Za-z0-9_-], so a key is safe whatever a report file holds.
 */


/*
 * KCIDB object ids (memtlb-report(1)): origin and checkout are required
 * (KCIDB requires them, memtlb cannot know them); build and run NULL for
 * their defaults.
 */
struct mt_export_ids {
	const char *origin;	/* the CI system, [a-z0-9_]+ */
	const char *checkout;	/* the checkout the kernel was built from */
	const char *build;	/* default: the checkout and the machine */
	const char *run;	/* default: the report's run id, else its host */
};

/* 0 when the ids can make KCIDB ids, else -EINVAL with why in msg. */
int mt_export_ids_check(const struct mt_export_ids *ids, struct mt_msg *msg);

/*
 * Write n reports (lkp and lava: one) to f. Returns 0, -EINVAL for more
 * reports than the format takes or kcidb without its required ids,
 * -ENOMEM or -EIO.
 */
int mt_export_write(FILE *f, const struct mt_report *const *reps, size_t n,
		    enum mt_format fmt, const struct mt_export_ids *ids);

#endif
