// SPDX-License-Identifier: MIT
/* The flush workload's exact counts, its range of K, ceiling, and its report section. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "model/flush.h"
#include "model/range.h"
#include "model/report.h"
#include "report/json.h"
#include "sys/sysinfo.h"
#include "workload/flush.h"

struct hooks {
	unsigned int before, after;
	bool open;		/* before seen, after not yet: the op runs inside */
	bool nested;
};

static int count_hook(void *arg, bool end)
{
	struct hooks *h = arg;

	if (!end) {
		h->nested |= h->open;
		h->before++;
		h->open = true;
	} else {
		h->nested |= !h->open;
		h->after++;
		h->open = false;
	}
	return 0;
}

/* K pages re-faulted per op, exactly: the op invalidated them, nothing else did. */
static void run_op(int op, unsigned long tasks, uint64_t k, unsigned long m, bool refault)
{
	struct mt_flush_opts o = { .op = op, .tasks = tasks, .pages = 64, .spin_pages = 4 };
	struct hooks h = { 0 };
	struct mt_flush_run run;
	struct mt_flush *f = NULL;
	uint64_t *op_ns = calloc(m, sizeof(*op_ns));

	assert_non_null(op_ns);
	assert_int_equal(mt_flush_create(&f, &o), 0);
	assert_true(mt_flush_pinned(f) <= tasks);
	assert_int_equal(mt_flush_ops(f, k, m, count_hook, &h, op_ns, &run), 0);
	assert_int_equal(run.ops, m);
	assert_int_equal(h.before, m);
	assert_int_equal(h.after, m);
	assert_false(h.nested);
	if (refault)
		assert_int_equal(run.refaults, k * m);
	for (unsigned long i = 0; i < m; i++)
		assert_true(op_ns[i] > 0);
	/* Again on the same mapping: the restore left it as it was. */
	assert_int_equal(mt_flush_ops(f, k, m, NULL, NULL, NULL, &run), 0);
	assert_int_equal(run.ops, m);
	if (refault)
		assert_int_equal(run.refaults, k * m);
	mt_flush_destroy(f);
	free(op_ns);
}

static void test_madvise_counts(void **state)
{
	(void)state;
	run_op(MT_FLUSH_MADVISE, 2, 33, 20, true);
	run_op(MT_FLUSH_MADVISE, 1, 1, 20, true);
	run_op(MT_FLUSH_MADVISE, 3, 64, 10, true);
}

static void test_munmap_counts(void **state)
{
	(void)state;
	run_op(MT_FLUSH_MUNMAP, 2, 17, 20, true);
	run_op(MT_FLUSH_MUNMAP, 1, 64, 10, true);
}

static void test_mprotect_counts(void **state)
{
	(void)state;
	run_op(MT_FLUSH_MPROTECT, 2, 34, 20, false);
}

static void test_bad_args(void **state)
{
	struct mt_flush_opts o = { .op = MT_FLUSH_MADVISE, .tasks = 1, .pages = 8, .spin_pages = 1 };
	struct mt_flush_run run;
	struct mt_flush *f = NULL;

	(void)state;
	assert_int_equal(mt_flush_create(&f, &o), 0);
	assert_int_equal(mt_flush_ops(f, 0, 1, NULL, NULL, NULL, &run), -EINVAL);
	assert_int_equal(mt_flush_ops(f, 9, 1, NULL, NULL, NULL, &run), -EINVAL);
	assert_int_equal(run.ops, 0);
	mt_flush_destroy(f);
	mt_flush_destroy(NULL);
	o.tasks = 0;
	assert_int_equal(mt_flush_create(&f, &o), -EINVAL);
	o.tasks = MT_FLUSH_TASKS_MAX + 1;
	assert_int_equal(mt_flush_create(&f, &o), -EINVAL);
	o.tasks = 1;
	o.op = MT_FLUSH_OP_MAX;
	assert_int_equal(mt_flush_create(&f, &o), -EINVAL);
}

static void test_op_names(void **state)
{
	(void)state;
	for (int op = 0; op < MT_FLUSH_OP_MAX; op++)
		assert_int_equal(mt_flush_op_parse(mt_flush_op_name(op)), op);
	assert_int_equal(mt_flush_op_parse("munmap"), MT_FLUSH_MUNMAP);
	assert_int_equal(mt_flush_op_parse("flush"), -1);
	assert_int_equal(mt_flush_op_parse(NULL), -1);
	assert_null(mt_flush_op_name(MT_FLUSH_OP_MAX));
}

/* Counts are not sizes: x2 doubles from 1 page, not from 4 KiB. */
static void test_range_count(void **state)
{
	struct mt_msg msg;
	uint64_t *p;
	size_t n;

	(void)state;
	assert_int_equal(mt_range_parse_count("1..64:x2", &p, &n, &msg), 0);
	assert_int_equal(n, 7);
	assert_int_equal(p[0], 1);
	assert_int_equal(p[1], 2);
	assert_int_equal(p[6], 64);
	free(p);
	assert_int_equal(mt_range_parse_count("16..64:4", &p, &n, &msg), 0);
	assert_int_equal(n, 13);
	assert_int_equal(p[4], 32);
	assert_int_equal(p[5], 36);
	free(p);
	assert_int_equal(mt_range_parse_count("33", &p, &n, &msg), 0);
	assert_int_equal(n, 1);
	assert_int_equal(p[0], 33);
	free(p);
	assert_int_equal(mt_range_parse_count("0", &p, &n, &msg), -EINVAL);
	assert_int_equal(mt_range_parse_count("0..8", &p, &n, &msg), -EINVAL);
	/* The byte grammar is unchanged: rounded to 4 KiB. */
	assert_int_equal(mt_range_parse("4k..16k:x1.5", &p, &n, &msg), 0);
	assert_int_equal(p[1], 8192);	/* 6 KiB rounds to a kept 4 KiB: skipped */
	free(p);
}

static void mkdirs(const char *root, const char *rel)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s", root);
	for (const char *s = rel; *s; s++) {
		if (*s == '/' && s != rel) {
			snprintf(path, sizeof(path), "%s/%.*s", root, (int)(s - rel), rel);
			mkdir(path, 0700);
		}
	}
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	mkdir(path, 0700);
}

static void test_ceiling(void **state)
{
	char root[] = "/tmp/memtlb-test-flush.XXXXXX", path[4096];
	struct mt_sysinfo si;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(root));
	setenv("MEMTLB_SYSROOT", root, 1);
	/* The flush report takes the ceiling and the PV flush from sysinfo. */
	assert_int_equal(mt_sysinfo_read(&si), 0);
	assert_int_equal(si.tlb_flush_ceiling, -1);
	assert_int_equal(si.tlb_flush_ceiling_state, MT_SYSINFO_ABSENT);
	/* A fixture is another machine: this CPU's cpuid does not describe it. */
	assert_int_equal(si.pv_tlb_flush, -1);
	mkdirs(root, "sys/kernel/debug/x86");
	snprintf(path, sizeof(path), "%s/sys/kernel/debug/x86/tlb_single_page_flush_ceiling",
		 root);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("33\n", f);
	fclose(f);
	assert_int_equal(mt_sysinfo_read(&si), 0);
	assert_int_equal(si.tlb_flush_ceiling, 33);
	assert_int_equal(si.tlb_flush_ceiling_state, MT_SYSINFO_READ);
	f = fopen(path, "w");
	fputs("many\n", f);
	fclose(f);
	assert_int_equal(mt_sysinfo_read(&si), 0);
	assert_int_equal(si.tlb_flush_ceiling, -1);
	unlink(path);
	snprintf(path, sizeof(path), "%s/sys/kernel/debug/x86", root);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/sys/kernel/debug", root);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/sys/kernel", root);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/sys", root);
	rmdir(path);
	rmdir(root);
	unsetenv("MEMTLB_SYSROOT");
	assert_int_equal(mt_sysinfo_read(&si), 0);
	assert_true(si.pv_tlb_flush >= -1 && si.pv_tlb_flush <= 1);
}

/* The flush section survives a write and a load: what compare and report read. */
static void test_json_round_trip(void **state)
{
	char dir[] = "/tmp/memtlb-test-flush.XXXXXX", path[4096];
	struct mt_msg msg;
	struct mt_report *rep, *back = NULL;
	struct mt_flush_info *fi;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/r.json", dir);
	assert_int_equal(mt_report_create(&rep, "flush"), 0);
	rep->config.iterations = 2;
	rep->system.pv_tlb_flush = 1;
	assert_int_equal(mt_flush_info_create(&fi, 2), 0);
	rep->flush = fi;
	fi->op = MT_FLUSH_MUNMAP;
	fi->tasks = 2;
	fi->ops = 10;
	fi->pinned = 2;
	fi->spin_pages = 16;
	snprintf(fi->ceiling_note, sizeof(fi->ceiling_note), "unknown (lockdown)");
	fi->points[0] = (struct mt_flush_point){ 16, 20, 320, 1500.5, 1800.25, { 0, 2 } };
	/* A row not measured stays absent, not 0. */
	fi->points[1] = (struct mt_flush_point){ 64, 20, 1280, 2500, 2600, { NAN, NAN } };
	fi->n_knees = 1;
	fi->knees[0] = (struct mt_flush_knee){ .before = 16, .after = 64, .step = 2.5, .down = false };
	fi->largest_drop = (struct mt_flush_knee){ .before = 16, .after = 64, .step = 0.5, .down = true };
	fi->largest = fi->knees[0];
	assert_int_equal(mt_report_write(rep, path), 0);
	assert_int_equal(mt_report_load(path, &back, &msg), 0);
	assert_non_null(back->flush);
	assert_int_equal(back->system.pv_tlb_flush, 1);
	assert_int_equal(back->flush->op, MT_FLUSH_MUNMAP);
	assert_int_equal(back->flush->tasks, 2);
	assert_int_equal(back->flush->ops, 10);
	assert_int_equal(back->flush->pinned, 2);
	assert_int_equal(back->flush->ceiling, -1);
	assert_string_equal(back->flush->ceiling_note, "unknown (lockdown)");
	assert_int_equal(back->flush->n_points, 2);
	assert_int_equal(back->flush->points[1].pages, 64);
	assert_int_equal(back->flush->points[1].refaults, 1280);
	assert_true(back->flush->points[0].op_median_ns == 1500.5);
	assert_true(back->flush->points[0].op_mean_ns == 1800.25);
	assert_true(back->flush->points[0].own_irq[0] == 0);
	assert_true(back->flush->points[0].own_irq[1] == 2);
	assert_true(isnan(back->flush->points[1].own_irq[0]));
	assert_true(isnan(back->flush->points[1].own_irq[1]));
	assert_int_equal(back->flush->n_knees, 1);
	assert_int_equal(back->flush->knees[0].after, 64);
	assert_int_equal(back->flush->largest.before, 16);
	assert_true(back->flush->largest_drop.down);
	assert_true(back->flush->largest_drop.step == 0.5);
	assert_false(back->flush->knees[0].down);
	mt_report_destroy(back);
	mt_report_destroy(rep);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_madvise_counts),
		cmocka_unit_test(test_munmap_counts),
		cmocka_unit_test(test_mprotect_counts),
		cmocka_unit_test(test_bad_args),
		cmocka_unit_test(test_op_names),
		cmocka_unit_test(test_range_count),
		cmocka_unit_test(test_ceiling),
		cmocka_unit_test(test_json_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
