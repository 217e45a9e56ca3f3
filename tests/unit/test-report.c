// SPDX-License-Identifier: MIT
/* The JSON report: a write/load round trip, atomic writes, bad files. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include <jansson.h>

#include "counters/resolve.h"
#include "model/report.h"
#include "model/sample.h"
#include "report/cells.h"
#include "report/json.h"
#include "report/render.h"
#include "report/table.h"
#include "stats/stats.h"
#include "sys/file.h"

static char dir[] = "/tmp/memtlb-test-report-XXXXXX";

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

static size_t entries(void)
{
	struct dirent *d;
	size_t n = 0;
	DIR *dp = opendir(dir);

	while ((d = readdir(dp)))
		n += d->d_name[0] != '.' || strncmp(d->d_name, ".memtlb-", 8) == 0;
	closedir(dp);
	return n;
}

static struct mt_report *make_report(void)
{
	struct mt_event ev[2];
	struct mt_samples *s;
	struct mt_report *rep;
	struct mt_result *r;

	memset(ev, 0, sizeof(ev));
	strcpy(ev[0].name, "minor-faults");
	ev[0].attr.type = PERF_TYPE_SOFTWARE;
	ev[0].attr.config = PERF_COUNT_SW_PAGE_FAULTS_MIN;
	strcpy(ev[1].name, "dTLB-load-misses");
	ev[1].err = -ENOENT;
	assert_int_equal(mt_samples_create(&s, 2, 3, 2), 0);
	strcpy(s->phase_names[0], "write_0");
	strcpy(s->phase_names[1], "read_0");
	for (unsigned int i = 0; i < 3; i++) {
		*mt_samples_time(s, 0, i) = 1000000 + 1000 * i;
		*mt_samples_time(s, 1, i) = 20000 + 10 * i;
		*mt_samples_counts(s, 0, 0, i) = (struct mt_counts){ 256, 2000, 1000 };
		*mt_samples_counts(s, 1, 0, i) = (struct mt_counts){ 0, 10, 10 };
	}
	assert_int_equal(mt_result_from_samples(&r, s, ev, 1 << 20, 4096, 256), 0);
	snprintf(r->events[1].reason, sizeof(r->events[1].reason), "no PMU driver in this kernel");
	mt_samples_destroy(s);
	assert_int_equal(mt_report_create(&rep, "stat"), 0);
	rep->config.region = 1 << 20;
	rep->config.block = 4096;
	rep->config.iterations = 3;
	rep->config.passes = 1;
	rep->config.backing = MT_BACKING_ANON;
	rep->config.events = "minor-faults,dTLB-load-misses";
	strcpy(rep->backend, "replay");
	strcpy(rep->system.kernel, "6.1.0-test");
	rep->system.hw_counters = 0;
	rep->system.page_size = 4096;
	/* The workload options and the kernel-side evidence of issue 3. */
	rep->config.backing = MT_BACKING_ANON;
	rep->config.pages = MT_PAGES_HUGETLB;
	rep->config.huge_size = 2 << 20;
	rep->config.access = MT_ACCESS_STRIDE;
	rep->config.stride = 16 << 20;
	rep->config.tasks = 2;
	rep->config.task_mode = MT_TASK_PROCESS;
	rep->config.task_region = MT_TASK_REGION_PRIVATE;
	rep->config.read_first = true;
	assert_int_equal(mt_result_set_extras(r, 2), 0);
	strcpy(r->extra_names[0], "rusage.minflt");
	strcpy(r->extra_names[1], "blocks_per_s");
	r->phases[0].extras[0] = (struct mt_summary){ .n = 3, .mean = 256.0 };
	r->phases[0].extras[1] = (struct mt_summary){ .n = 3, .mean = 1e6 };
	r->phases[0].has_extra = 3;
	r->phases[1].extras[0] = (struct mt_summary){ .n = 3, .mean = 0.0 };
	r->phases[1].has_extra = 1;
	r->map = (struct mt_mapinfo){ .valid = true, .addr = 0x7f0000200000, .align = 2 << 20,
				      .kernel_page = 2 << 20, .hugetlb = 1 << 20,
				      .huge_coverage = 1.0 };
	/* The scan with its folio sizes (issue 26): 64 KiB folios are not base pages. */
	r->map.scanned = true;
	r->map.scan = (struct mt_pagescan){ .len = 1 << 20, .large = 768 << 10,
					    .base = 128 << 10, .absent = 128 << 10,
					    .folio_source = MT_FOLIO_KPAGEFLAGS };
	mt_mapinfo_add_folio(&r->map.scan, 65536, 768 << 10);
	mt_mapinfo_add_folio(&r->map.scan, 4096, 128 << 10);
	r->tasks = 2;
	assert_int_equal(mt_report_add(rep, r), 0);
	return rep;
}

static void test_round_trip(void **state)
{
	struct mt_report *rep = make_report(), *back;
	const struct mt_phase_stat *p;
	char path[256];
	struct mt_msg msg;
	struct stat st;
	mode_t mask;

	(void)state;
	snprintf(path, sizeof(path), "%s/r.json", dir);
	assert_int_equal(mt_report_write(rep, path), 0);
	assert_int_equal(stat(path, &st), 0);
	/* a new file: 0666 less the umask, as a shell redirection makes it */
	mask = umask(022);
	umask(mask);
	assert_int_equal(st.st_mode & 0777, 0666 & ~mask);
	assert_int_equal(entries(), 1);	/* no temp file left */
	assert_int_equal(mt_report_load(path, &back, &msg), 0);
	assert_string_equal(back->command, "stat");
	assert_string_equal(back->system.kernel, "6.1.0-test");
	assert_int_equal(back->system.hw_counters, 0);
	assert_string_equal(back->config.events, "minor-faults,dTLB-load-misses");
	assert_int_equal(back->config.backing, MT_BACKING_ANON);
	assert_int_equal(back->config.iterations, 3);
	assert_int_equal(back->n_results, 1);
	assert_int_equal(back->results[0]->blocks, 256);
	assert_int_equal(back->results[0]->n_events, 2);
	p = &back->results[0]->phases[0];
	assert_string_equal(p->name, "write_0");
	assert_float_equal(p->time_ns.mean, 1001000.0, 1e-6);
	assert_int_equal(p->time_ns.n, 3);
	assert_float_equal(p->time_samples[2], 1002000.0, 0);
	assert_int_equal(p->counters[0].state, MT_COUNTER_OK);
	assert_float_equal(p->counters[0].s.mean, 512.0, 1e-9);	/* scaled x2 */
	assert_float_equal(p->counters[0].running, 0.5, 1e-9);
	assert_int_equal(p->counters[1].state, MT_COUNTER_UNSUPPORTED);
	assert_string_equal(back->results[0]->events[1].reason, "no PMU driver in this kernel");
	assert_float_equal(p->derived[MT_DERIVED_FAULTS_PER_BLOCK], 2.0, 1e-9);
	assert_false(mt_phase_has(p, MT_DERIVED_DTLB_MISS_RATIO));

	{
		const struct mt_pagescan *ps = &back->results[0]->map.scan;

		assert_true(back->results[0]->map.scanned);
		assert_int_equal(ps->len, 1 << 20);
		assert_int_equal(ps->large, 768 << 10);
		assert_int_equal(ps->base, 128 << 10);
		assert_int_equal(ps->folio_source, MT_FOLIO_KPAGEFLAGS);
		assert_int_equal(ps->n_folios, 2);
		assert_int_equal(ps->folios[0].size, 4096);
		assert_int_equal(ps->folios[1].size, 65536);
		assert_int_equal(ps->folios[1].bytes, 768 << 10);
	}
	assert_int_equal(back->config.pages, MT_PAGES_HUGETLB);
	assert_int_equal(back->config.huge_size, 2 << 20);
	assert_int_equal(back->config.access, MT_ACCESS_STRIDE);
	assert_int_equal(back->config.stride, 16 << 20);
	assert_int_equal(back->config.tasks, 2);
	assert_int_equal(back->config.task_mode, MT_TASK_PROCESS);
	assert_int_equal(back->config.task_region, MT_TASK_REGION_PRIVATE);
	assert_true(back->config.read_first);
	assert_false(back->config.populate);
	assert_int_equal(back->results[0]->n_extras, 2);
	assert_string_equal(back->results[0]->extra_names[1], "blocks_per_s");
	assert_int_equal(p->has_extra, 3);
	assert_float_equal(p->extras[0].mean, 256.0, 0);
	assert_int_equal(back->results[0]->phases[1].has_extra, 1);
	assert_true(back->results[0]->map.valid);
	assert_int_equal(back->results[0]->map.align, 2 << 20);
	assert_int_equal(back->results[0]->map.hugetlb, 1 << 20);
	assert_float_equal(back->results[0]->map.huge_coverage, 1.0, 0);
	assert_int_equal(back->results[0]->tasks, 2);
	mt_report_destroy(back);
	mt_report_destroy(rep);
}

/* The text of a stream: what a printer wrote, NUL-terminated; free it. */
static char *printed(int (*print)(FILE *, const void *), const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(print(f, arg), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static int print_stat(FILE *f, const void *rep)
{
	return mt_report_print_table(f, rep, false);
}

static int print_stat_wide(FILE *f, const void *rep)
{
	return mt_report_print_table(f, rep, true);
}

static int print_doc(FILE *f, const void *rep)
{
	const struct mt_render_input in = { .file = "r.json", .rep = rep };

	return mt_render(f, &in, 1, MT_FORMAT_TEXT);
}

/* Lines from the one starting "phase " and "mean (" to the blank line after. */
static char *phase_lines(const char *text)
{
	const char *a = strstr(text, "\nphase ");
	const char *b;

	assert_non_null(a);
	a++;
	assert_non_null(strstr(a, "mean ("));
	b = strstr(a, "\n\n");
	assert_non_null(b);
	return strndup(a, (size_t)(b - a + 1));
}

/*
 * The phase table's cells: counts with their running share, not supported,
 * derived metrics with the cross-group mark and the notes that explain them;
 * the same strings before and after a round trip through the file, and the
 * same lines in memtlb stat's table and memtlb report's text.
 */
static void test_phase_table(void **state)
{
	struct mt_report *rep = make_report(), *back;
	struct mt_table *t, *u;
	char path[256], cell[MT_CELL_MAX];
	struct mt_msg msg;
	char *stat_text, *doc_text, *a, *b;
	bool reason = false, mark_note = false;

	(void)state;
	mt_table_destroy(NULL);
	assert_int_equal(mt_phase_table(&t, rep, rep->results[0], true), 0);
	assert_int_equal(t->ncols, 3 + 1 + 2 + 1);	/* ns/block, two events, faults/block */
	assert_int_equal(mt_table_rows(t), 3);
	/* ns/block beside the phase; the time's unit, the median's, in its header */
	assert_string_equal(mt_table_cell(t, 0, 0), "phase");
	assert_string_equal(mt_table_cell(t, 0, 1), mt_derived_label(MT_DERIVED_NS_PER_BLOCK));
	assert_string_equal(mt_table_cell(t, 0, 2), "mean (us)");
	assert_string_equal(mt_table_cell(t, 0, 3), "cv (%)");
	assert_string_equal(mt_table_cell(t, 0, 4), "minor-faults");
	assert_string_equal(mt_table_cell(t, 0, 6), mt_derived_label(MT_DERIVED_FAULTS_PER_BLOCK));
	assert_string_equal(mt_table_cell(t, 1, 0), "write_0");
	assert_string_equal(mt_table_cell(t, 1, 1), "3910.2");
	assert_string_equal(mt_table_cell(t, 1, 2), "1001.0");
	assert_string_equal(mt_table_cell(t, 1, 3), "0.10");
	assert_string_equal(mt_table_cell(t, 1, 4), "512 (50.0%)");
	assert_string_equal(mt_table_cell(t, 1, 5), "not supported");
	assert_string_equal(mt_table_cell(t, 1, 6), "2.000");
	assert_null(mt_table_cell(t, 3, 0));
	assert_null(mt_table_cell(t, 0, 7));
	for (size_t i = 0; i < t->n_notes; i++)
		reason |= !strcmp(t->notes[i], "dTLB-load-misses: not supported: no PMU driver in "
					       "this kernel");
	assert_true(reason);

	/* The same cells from the file. */
	snprintf(path, sizeof(path), "%s/cells.json", dir);
	assert_int_equal(mt_report_write(rep, path), 0);
	assert_int_equal(mt_report_load(path, &back, &msg), 0);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mt_phase_table(&u, back, back->results[0], true), 0);
	assert_int_equal(u->n, t->n);
	for (size_t i = 0; i < t->n; i++)
		assert_string_equal(u->cells[i], t->cells[i]);
	assert_int_equal(u->n_notes, t->n_notes);
	mt_table_destroy(u);
	mt_table_destroy(t);

	/* memtlb stat's wide table and memtlb report's text: the same phase lines. */
	stat_text = printed(print_stat_wide, rep);
	doc_text = printed(print_doc, back);
	a = phase_lines(stat_text);
	b = phase_lines(doc_text);
	assert_string_equal(a, b);
	assert_non_null(strstr(doc_text, "\ndTLB-load-misses: not supported: no PMU driver"));
	free(a);
	free(b);
	free(stat_text);
	free(doc_text);

	/* Across groups: the mark, and the note that says what it means. */
	rep->results[0]->phases[0].cross_group = 1u << MT_DERIVED_FAULTS_PER_BLOCK;
	mt_cell_derived(cell, sizeof(cell), &rep->results[0]->phases[0],
			MT_DERIVED_FAULTS_PER_BLOCK);
	assert_string_equal(cell, "2.000*");
	mt_cell_derived(cell, sizeof(cell), &rep->results[0]->phases[0],
			MT_DERIVED_DTLB_MISS_RATIO);
	assert_string_equal(cell, "-");
	assert_int_equal(mt_phase_table(&t, rep, rep->results[0], false), 0);
	/* the default table: no column of not supported, one note naming it instead */
	assert_int_equal(t->ncols, 3 + 1 + 1 + 1);
	assert_string_equal(mt_table_cell(t, 0, 4), "minor-faults");
	assert_string_equal(mt_table_cell(t, 1, 5), "2.000*");
	for (size_t i = 0; i < t->n_notes; i++)
		mark_note |= !strncmp(t->notes[i], "* inputs counted in different groups", 36);
	assert_true(mark_note);
	assert_string_equal(t->notes[0], "not supported here: dTLB-load-misses (no PMU driver in "
					 "this kernel: ENOENT)");
	mt_table_destroy(t);

	mt_report_destroy(back);
	mt_report_destroy(rep);
}

/* Every line of text at most width columns; returns how many lines. */
static int lines_within(const char *text, int width)
{
	int n = 0;

	for (const char *p = text; *p; n++) {
		size_t len = strcspn(p, "\n");

		if ((int)len > width)
			fail_msg("%d columns, more than %d: '%.*s'", (int)len, width, (int)len, p);
		p += len + (p[len] == '\n');
	}
	return n;
}

/*
 * Text that fits: counts with thousands separators, times in the unit of
 * their column's median, CSV numbers that read back, stacked tables that
 * share the phase column and keep every cell, notes wrapped at the width.
 */
static void test_fit(void **state)
{
	const double ms[] = { 5e6, 2e6, 9e5 }, ns[] = { 500.0 }, s[] = { 2e9, 3e9 };
	const double us[] = { 1000.0 }, third = 1.0 / 3.0;
	struct mt_report *rep = make_report();
	char buf[64], *text, *line = NULL;
	struct mt_table *t;
	size_t len = 0;
	double scale;
	FILE *f;

	(void)state;
	mt_cell_count(buf, sizeof(buf), 262144.0);
	assert_string_equal(buf, "262,144");
	mt_cell_count(buf, sizeof(buf), 1234567.4);
	assert_string_equal(buf, "1,234,567");
	mt_cell_count(buf, sizeof(buf), -1234.0);
	assert_string_equal(buf, "-1,234");
	mt_cell_count(buf, sizeof(buf), 999.0);
	assert_string_equal(buf, "999");
	mt_cell_count(buf, sizeof(buf), 12.5);
	assert_string_equal(buf, "12.50");

	assert_string_equal(mt_time_unit(ms, 3, &scale), "ms");
	assert_true(scale == 1e6);
	assert_string_equal(mt_time_unit(ns, 1, &scale), "ns");
	assert_true(scale == 1.0);
	assert_string_equal(mt_time_unit(us, 1, &scale), "us");
	assert_string_equal(mt_time_unit(s, 2, &scale), "s");
	mt_cell_time(buf, sizeof(buf), 2.5e6, 1e6);
	assert_string_equal(buf, "2.50");

	/* CSV: no 1.47414e+08 for a count, and every value reads back */
	mt_cell_csv_number(buf, sizeof(buf), 147414000.0);
	assert_string_equal(buf, "147414000");
	mt_cell_csv_number(buf, sizeof(buf), 2507.5);
	assert_string_equal(buf, "2507.5");
	mt_cell_csv_number(buf, sizeof(buf), 0.1);
	assert_string_equal(buf, "0.1");
	mt_cell_csv_number(buf, sizeof(buf), third);
	assert_true(strtod(buf, NULL) == third);

	/* Six columns of 20 at 50: three stacked tables of phase and two columns. */
	assert_int_equal(mt_table_create(&t, 7), 0);
	mt_table_add(t, "%s", "phase");
	for (int c = 1; c < 7; c++)
		mt_table_add(t, "column-%d-%011d", c, 0);
	mt_table_add(t, "%s", "write_0");
	for (int c = 1; c < 7; c++)
		mt_table_add(t, "value-%d-%012d", c, c);
	f = open_memstream(&line, &len);
	assert_non_null(f);
	assert_int_equal(mt_table_print_fit(f, t, 50, 1), 0);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(lines_within(line, 50), 3 * 2 + 2);
	for (int c = 1; c < 7; c++) {
		snprintf(buf, sizeof(buf), "value-%d-%012d", c, c);
		assert_non_null(strstr(line, buf));
	}
	assert_int_equal(strncmp(line, "phase ", 6), 0);
	assert_non_null(strstr(line, "\n\nphase "));
	free(line);
	/* no limit: one row per phase (--wide) */
	line = NULL;
	f = open_memstream(&line, &len);
	assert_int_equal(mt_table_print_fit(f, t, 0, 1), 0);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(lines_within(line, 1000), 2);
	free(line);
	mt_table_destroy(t);

	/* memtlb stat's table at 80 columns: no column of not supported, one note. */
	setenv("COLUMNS", "80", 1);
	text = printed(print_stat, rep);
	lines_within(text, 80);
	assert_non_null(strstr(text, "\nnot supported here: dTLB-load-misses ("));
	assert_null(strstr(text, " not supported\n"));
	assert_non_null(strstr(text, "\nphase       ns/block"));
	free(text);
	text = printed(print_stat_wide, rep);
	assert_non_null(strstr(text, " not supported "));
	free(text);
	setenv("COLUMNS", "40", 1);
	text = printed(print_stat, rep);
	lines_within(text, 40);
	free(text);
	unsetenv("COLUMNS");
	mt_report_destroy(rep);
}

static void test_write_failure_leaves_nothing(void **state)
{
	struct mt_report *rep = make_report();
	char path[256];

	(void)state;
	snprintf(path, sizeof(path), "%s/missing/r.json", dir);
	assert_int_equal(mt_report_write(rep, path), -ENOENT);
	assert_int_equal(entries(), 1);
	mt_report_destroy(rep);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_bad_files(void **state)
{
	static const struct {
		const char *text;
		int err;
	} cases[] = {
		{ "", -EINVAL },
		{ "{\"memtlb\": {\"schema\": 1}, \"results\": [", -EINVAL },
		{ "[1, 2, 3]", -EINVAL },
		{ "{\"memtlb\": {\"schema\": 4}, \"results\": []}", -EPROTO },
		{ "{\"memtlb\": {\"schema\": 0}, \"results\": []}", -EPROTO },
		{ "{\"memtlb\": {\"schema\": \"1\"}, \"results\": []}", -EINVAL },
		{ "{\"memtlb\": {\"schema\": 1}, \"results\": {}}", -EINVAL },
		{ "{\"memtlb\": {\"schema\": 1}, \"config\": {\"region\": \"1g\"}, \"results\": []}",
		  -EINVAL },
		{ "{\"memtlb\": {\"schema\": 1}, \"config\": {\"region\": 1, \"block\": 1, "
		  "\"iterations\": 1, \"passes\": 1}, \"results\": [{\"params\": {}}]}", -EINVAL },
	};
	struct mt_report *rep = NULL;
	char path[256];
	struct mt_msg msg;

	(void)state;
	snprintf(path, sizeof(path), "%s/bad.json", dir);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		write_file(path, cases[i].text);
		assert_int_equal(mt_report_load(path, &rep, &msg), cases[i].err);
		assert_string_not_equal(msg.text, "");
	}
	unlink(path);
	assert_int_equal(mt_report_load(path, &rep, &msg), -ENOENT);
	assert_int_equal(mt_report_load(dir, &rep, &msg), -EISDIR);
}

/*
 * The config's keys are read through mt_config_set, as the options are: a
 * value the option refuses is refused in a report too (before, the loader
 * assigned fields with its own copies of the ranges, or none).
 */
static void test_config_through_setter(void **state)
{
	const struct mt_config_key *keys;
	struct mt_report *rep = NULL;
	char path[256], text[1024], bad[64];
	struct mt_msg msg;
	size_t n;

	(void)state;
	snprintf(path, sizeof(path), "%s/config.json", dir);
	keys = mt_config_keys(&n);
	for (size_t i = 0; i < n; i++) {
		const struct mt_config_key *k = &keys[i];
		struct mt_config cfg;
		struct mt_msg m;
		bool required = k->flags & MT_KEY_REQUIRED;

		if (!k->json || k->type == MT_KEY_STRING)
			continue;
		/* a value just out of the key's range, as JSON and as the option's text */
		switch (k->type) {
		case MT_KEY_FLAG:
			snprintf(bad, sizeof(bad), "\"yes\"");
			break;
		case MT_KEY_SIZE:
			snprintf(bad, sizeof(bad), "0");
			break;
		case MT_KEY_COUNT:
		case MT_KEY_REAL:
			snprintf(bad, sizeof(bad), "%.0f", k->max + 1);
			break;
		default:
			snprintf(bad, sizeof(bad), "\"no such choice\"");
			break;
		}
		snprintf(text, sizeof(text), "{\"memtlb\": {\"schema\": 3}, \"config\": {%s%s"
			 "\"%s\": %s}, \"results\": []}",
			 !strcmp(k->json, "region") ? "" : "\"region\": 4096, ",
			 required ? "" : "\"block\": 4096, \"iterations\": 1, \"passes\": 1, ",
			 k->json, bad);
		if (required && strcmp(k->json, "region"))	/* the other three, valid */
			snprintf(text, sizeof(text), "{\"memtlb\": {\"schema\": 3}, \"config\": "
				 "{\"region\": 4096, \"block\": %s, \"iterations\": %s, "
				 "\"passes\": %s}, \"results\": []}",
				 !strcmp(k->json, "block") ? bad : "4096",
				 !strcmp(k->json, "iterations") ? bad : "1",
				 !strcmp(k->json, "passes") ? bad : "1");
		else if (required)
			snprintf(text, sizeof(text), "{\"memtlb\": {\"schema\": 3}, \"config\": "
				 "{\"region\": %s, \"block\": 4096, \"iterations\": 1, "
				 "\"passes\": 1}, \"results\": []}", bad);
		write_file(path, text);
		assert_int_equal(mt_report_load(path, &rep, &msg), -EINVAL);
		assert_non_null(strstr(msg.text, k->json));
		/* and the option refuses the same text */
		mt_config_init(&cfg);
		if (k->type != MT_KEY_FLAG) {
			char *q = bad[0] == '"' ? bad + 1 : bad;

			q[strcspn(q, "\"")] = '\0';
			assert_int_equal(mt_config_set(&cfg, k->name, q, &m), -EINVAL);
		}
	}
	/* and one in range is taken: the config as the option would set it */
	write_file(path, "{\"memtlb\": {\"schema\": 3}, \"config\": {\"region\": 8192, "
		   "\"block\": 4096, \"iterations\": 2, \"passes\": 1, \"access\": \"stride\", "
		   "\"stride\": 8192, \"warmup\": 0, \"tasks\": 0, \"populate\": true}, "
		   "\"results\": []}");
	assert_int_equal(mt_report_load(path, &rep, &msg), 0);
	assert_int_equal(rep->config.access, MT_ACCESS_STRIDE);
	assert_int_equal(rep->config.stride, 8192);
	assert_true(rep->config.populate);
	assert_int_equal(rep->config.tasks, 0);
	mt_report_destroy(rep);
	unlink(path);
}

/* A phase's name is spelled once (model/result.c) and read back the same. */
static void test_phase_names(void **state)
{
	static const char *const none[] = { "read_", "read_07", "write_x", "mmapx", "read_first0",
					    "write_-1", "read_1234567", "" };
	char buf[MT_PHASE_NAME_MAX];
	unsigned int pass;

	(void)state;
	for (int k = MT_PHASE_MMAP; k < MT_PHASE_UNKNOWN; k++) {
		for (unsigned int p = 0; p < 12; p += 5) {
			bool passes = k == MT_PHASE_WRITE || k == MT_PHASE_READ;

			mt_phase_name(buf, sizeof(buf), (enum mt_phase_kind)k, p);
			assert_int_equal(mt_phase_kind(buf, &pass), k);
			assert_int_equal(pass, passes ? p : 0);
		}
	}
	assert_string_equal(mt_phase_name(buf, sizeof(buf), MT_PHASE_READ, 4), "read_4");
	for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++)
		assert_int_equal(mt_phase_kind(none[i], &pass), MT_PHASE_UNKNOWN);
	assert_true(mt_phase_steady("read_0") && mt_phase_steady("write_1"));
	assert_false(mt_phase_steady("write_0") || mt_phase_steady("read_first") ||
		     mt_phase_steady("mmap") || mt_phase_steady("munmap"));
}

/* The shared atomic writer: used by mt_report_write and memtlb report -o. */
static char adir[300];

static size_t count_in(const char *d, bool temps_only)
{
	struct dirent *e;
	size_t n = 0;
	DIR *dp = opendir(d);

	assert_non_null(dp);
	while ((e = readdir(dp)))
		n += strncmp(e->d_name, ".memtlb-", 8) == 0 ||
		     (!temps_only && e->d_name[0] != '.');
	closedir(dp);
	return n;
}

static int fill_text(FILE *f, void *arg)
{
	return fputs(arg, f) == EOF ? -EIO : 0;
}

static int fill_fails(FILE *f, void *arg)
{
	(void)arg;
	fputs("half", f);
	return -ENOSPC;
}

static volatile sig_atomic_t seen_signal, seen_target, seen_temps;
static const char *target;

static void on_sigint(int sig)
{
	(void)sig;
	seen_signal = 1;
	seen_target = access(target, F_OK) == 0;
	seen_temps = (sig_atomic_t)count_in(adir, true);
}

/* A ^C while the file is written waits until the rename is done. */
static int fill_interrupted(FILE *f, void *arg)
{
	raise(SIGINT);
	return seen_signal ? -EINTR : fill_text(f, arg);
}

/* The one escaper and the one CSV quoter every printer uses. */
static void test_safe_and_csv(void **state)
{
	char buf[2 * MT_SAFE_MAX + 3];
	struct mt_table *t;

	(void)state;
	assert_string_equal(mt_cell_safe(buf, sizeof(buf), "6.1\x1b]0;x\x07"), "6.1\\x1b]0;x\\x07");
	assert_string_equal(mt_cell_safe(buf, sizeof(buf), "a\xc2\x9b" "1m\x7f"),
			    "a\\xc2\\x9b1m\\x7f");
	assert_string_equal(mt_cell_safe(buf, sizeof(buf), "caf\xc3\xa9"), "caf\xc3\xa9");
	assert_string_equal(mt_cell_csv(buf, sizeof(buf), "plain", false), "plain");
	assert_string_equal(mt_cell_csv(buf, sizeof(buf), "plain", true), "\"plain\"");
	assert_string_equal(mt_cell_csv(buf, sizeof(buf), "a,\"b\"", false), "\"a,\"\"b\"\"\"");
	assert_string_equal(mt_cell_csv(buf, sizeof(buf), "x\ny", false), "x\\x0ay");
	assert_string_equal(mt_cell_csv(buf, sizeof(buf), " lead", false), "\" lead\"");
	/* a cell with an escape is stored escaped: every format shows it so */
	assert_int_equal(mt_table_create(&t, 1), 0);
	assert_int_equal(mt_table_add(t, "%s", "ev\x1b[2J"), 0);
	assert_string_equal(mt_table_cell(t, 0, 0), "ev\\x1b[2J");
	mt_table_destroy(t);
}

static void test_atomic_writer(void **state)
{
	struct sigaction sa = { .sa_handler = on_sigint }, old;
	char path[400], text[64];
	struct stat st;
	FILE *f;

	(void)state;
	snprintf(adir, sizeof(adir), "%s/atomic", dir);
	assert_int_equal(mkdir(adir, 0700), 0);
	snprintf(path, sizeof(path), "%s/doc.html", adir);

	assert_int_equal(mt_file_write_atomic(path, 0644, fill_text, "<p>one</p>\n"), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0644);
	assert_int_equal(count_in(adir, false), 1);

	/* A failed fill leaves the old file as it was and no temp file. */
	assert_int_equal(mt_file_write_atomic(path, 0644, fill_fails, NULL), -ENOSPC);
	assert_int_equal(count_in(adir, false), 1);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(text, sizeof(text), f));
	fclose(f);
	assert_string_equal(text, "<p>one</p>\n");

	/* SIGINT held from the temp file's creation to the rename. */
	target = path;
	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(SIGINT, &sa, &old), 0);
	assert_int_equal(mt_file_write_atomic(path, 0644, fill_interrupted, "<p>two</p>\n"), 0);
	sigaction(SIGINT, &old, NULL);
	assert_int_equal(seen_signal, 1);	/* delivered, after the rename */
	assert_int_equal(seen_target, 1);
	assert_int_equal(seen_temps, 0);
	assert_int_equal(count_in(adir, false), 1);

	/* No directory: nothing created. */
	snprintf(path, sizeof(path), "%s/missing/doc.html", adir);
	assert_int_equal(mt_file_write_atomic(path, 0644, fill_text, "x"), -ENOENT);
	assert_int_equal(count_in(adir, false), 1);
}

/* Bytes that are not UTF-8 are kept as \xHH, never the object dropped. */
static void test_not_utf8_kept(void **state)
{
	struct mt_report *rep = make_report(), *back;
	struct mt_result *r = rep->results[0];
	char path[256];
	struct mt_msg msg;

	(void)state;
	strcpy(rep->system.kernel, "6.1\xff");
	strcpy(rep->system.host, "h\xc3\xa9st");	/* valid: as is */
	strcpy(r->phases[0].name, "write_0\xe2\x82");	/* a cut sequence */
	r->n_vary = 1;
	snprintf(r->vary[0].key, sizeof(r->vary[0].key), "sysfs:k\xfe");
	snprintf(r->vary[0].value, sizeof(r->vary[0].value), "a\xff" "b\xed\xa0\x80");
	snprintf(path, sizeof(path), "%s/utf8.json", dir);
	assert_int_equal(mt_report_write(rep, path), 0);
	assert_int_equal(mt_report_load(path, &back, &msg), 0);
	assert_int_equal(back->n_results, 1);
	assert_string_equal(back->system.kernel, "6.1\\xFF");
	assert_string_equal(back->system.host, "h\xc3\xa9st");
	assert_int_equal(back->results[0]->n_phases, 2);
	assert_string_equal(back->results[0]->phases[0].name, "write_0\\xE2\\x82");
	assert_int_equal(back->results[0]->n_vary, 1);
	assert_string_equal(back->results[0]->vary[0].key, "sysfs:k\\xFE");
	assert_string_equal(back->results[0]->vary[0].value, "a\\xFFb\\xED\\xA0\\x80");
	mt_report_destroy(back);
	unlink(path);
	mt_report_destroy(rep);
}

/* jansson's allocator failing after budget allocations: memory pressure. */
static long budget = -1;

static void *failing_malloc(size_t n)
{
	if (budget == 0)
		return NULL;
	if (budget > 0)
		budget--;
	return malloc(n);
}

/* Whichever allocation fails, the write fails with -ENOMEM and writes nothing. */
static void test_no_memory_writes_nothing(void **state)
{
	struct mt_report *rep = make_report(), *back;
	char path[256];
	struct mt_msg msg;
	size_t before = entries();
	long n;
	int ret;

	(void)state;
	snprintf(path, sizeof(path), "%s/oom.json", dir);
	json_set_alloc_funcs(failing_malloc, free);
	for (n = 0; n < 100000; n++) {
		budget = n;
		ret = mt_report_write(rep, path);
		if (!ret)
			break;
		assert_int_equal(ret, -ENOMEM);
		assert_int_equal(access(path, F_OK), -1);
		assert_int_equal(entries(), before);
	}
	budget = -1;
	json_set_alloc_funcs(malloc, free);
	assert_true(n > 10);	/* the build was made to fail at many points */
	assert_int_equal(ret, 0);
	assert_int_equal(mt_report_load(path, &back, &msg), 0);
	assert_int_equal(back->n_results, 1);
	mt_report_destroy(back);
	unlink(path);
	mt_report_destroy(rep);
}

/* -o's checks before a run, and the same-file test of memtlb report. */
static void test_output_check(void **state)
{
	char path[PATH_MAX + 16], other[256];
	struct mt_msg msg;
	size_t n;

	(void)state;
	assert_int_equal(mt_file_output_check("", &msg), -EINVAL);
	assert_int_equal(mt_file_output_check("-", &msg), 0);
	assert_int_equal(mt_file_output_check(dir, &msg), -EISDIR);
	snprintf(path, sizeof(path), "%s/", dir);
	assert_int_equal(mt_file_output_check(path, &msg), -EISDIR);
	snprintf(path, sizeof(path), "%s/missing/r.json", dir);
	assert_int_equal(mt_file_output_check(path, &msg), -ENOENT);
	assert_non_null(strstr(msg.text, "missing"));
	n = (size_t)snprintf(path, sizeof(path), "%s/", dir);
	memset(path + n, 'a', NAME_MAX + 1);
	path[n + NAME_MAX + 1] = '\0';
	assert_int_equal(mt_file_output_check(path, &msg), -ENAMETOOLONG);
	path[n + NAME_MAX] = '\0';
	assert_int_equal(mt_file_output_check(path, &msg), 0);
	snprintf(path, sizeof(path), "%s/same.json", dir);
	write_file(path, "{}");
	snprintf(other, sizeof(other), "%s/same-link.json", dir);
	assert_int_equal(symlink("same.json", other), 0);
	assert_true(mt_file_same(path, other));
	assert_false(mt_file_same(path, dir));
	assert_false(mt_file_same(path, "/nonexistent"));
	/* A symlink stays a link; its target is replaced. */
	assert_int_equal(mt_file_write_atomic(other, 0600, fill_text, "new"), 0);
	assert_true(mt_file_same(path, other));
	unlink(other);
	unlink(path);
}

/* s through mt_text_wrap at width, compared with want. */
static void wraps_as(const char *s, int width, const char *want)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(mt_text_wrap(f, s, width, 2), 0);
	fclose(f);
	assert_string_equal(text, want);
	free(text);
}

/* Prose wraps at spaces, never between a number and its unit, nor at an " = ". */
static void test_wrap_keeps_units(void **state)
{
	(void)state;
	wraps_as("elapsed time was 2.5 ms in all", 20, "elapsed time was\n  2.5 ms in all\n");
	wraps_as("a reach of 7.5 MiB..30.0 MiB", 24, "a reach of\n  7.5 MiB..30.0 MiB\n");
	wraps_as("pressure: L1d; region = 42.7 x L1", 22, "pressure: L1d;\n  region = 42.7 x L1\n");
	wraps_as("the level of 128 x 4.0 KiB", 18, "the level of\n  128 x 4.0 KiB\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_phase_table),
		cmocka_unit_test(test_fit),
		cmocka_unit_test(test_safe_and_csv),
		cmocka_unit_test(test_wrap_keeps_units),
		cmocka_unit_test(test_write_failure_leaves_nothing),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_config_through_setter),
		cmocka_unit_test(test_phase_names),
		cmocka_unit_test(test_atomic_writer),
		cmocka_unit_test(test_not_utf8_kept),
		cmocka_unit_test(test_no_memory_writes_nothing),
		cmocka_unit_test(test_output_check),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
