// SPDX-License-Identifier: MIT
/*
 * Event sets: the file format's errors (file:line), and resolution of the
 * shipped sets under LIBPFM_FORCE_PMU, so the encodings are those of each
 * CPU whatever this machine is. libpfm4 reads the variable when it
 * initialises: each PMU is resolved in a forked child after pfm_terminate().
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include <perfmon/pfmlib.h>

#include "counters/counters.h"
#include "counters/evset.h"
#include "stats/stats.h"

static char tmpdir[] = "/tmp/memtlb-evset-XXXXXX";

static const char *shipped(void)
{
	static char dir[4096];

	snprintf(dir, sizeof(dir), "%s/events", getenv("MEMTLB_SOURCE_ROOT"));
	return dir;
}

static void write_file(const char *name, const char *text)
{
	char path[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void clear_dir(void)
{
	char cmd[4200];

	snprintf(cmd, sizeof(cmd), "rm -f %s/*.events", tmpdir);
	assert_int_equal(system(cmd), 0);
}

/* Loading one file with this text fails with a message ending in want. */
static void expect_error(const char *text, const char *want)
{
	struct mt_evsets *s = NULL;
	char prefix[4200];
	struct mt_msg msg;

	clear_dir();
	write_file("bad.events", text);
	assert_int_equal(mt_evsets_load(&s, tmpdir, &msg), -EINVAL);
	snprintf(prefix, sizeof(prefix), "%s/bad.events:", tmpdir);
	if (strncmp(msg.text, prefix, strlen(prefix)) || !strstr(msg.text, want))
		fail_msg("'%s' does not name the file and say '%s'", msg.text, want);
}

static void test_parse_errors(void **state)
{
	(void)state;
	expect_error("set a\npmu any\nevent minor-faults minor-faults x\nbogus\n",
		     ":4: unknown keyword 'bogus'");
	expect_error("set a\nevent minor-faults - x\n", ":2: event: before any pmu line");
	expect_error("set a\npmu any\nevent minor-faults nonsense x\n",
		     ":3: event minor-faults: unknown role 'nonsense'");
	expect_error("set a\npmu any\nevent minor-faults minor-faults\n",
		     ":3: event: NAME ROLE MEANING expected");
	expect_error("pmu any\n", ":1: pmu: outside a set");
	expect_error("set a\npmu any\n", "set a: pmu any: no event");
	expect_error("set a\n", "set a: no pmu section");
	expect_error("set a b\n", ":1: set: one name");
	expect_error("set a\npmu skl icl\nevent x - y\npmu icl\n", ":4: pmu icl: already has a section");
	expect_error("set a\npmu any\nevent x - y\nset a\n", ":4: set a: defined twice");
	expect_error("set a\npmu any\nevent =x - y\n", ":3: event =x: ALIAS=EVENT expected");
}

/* Control bytes reach the terminal through memtlb list: refused with a line. */
static void test_control_characters(void **state)
{
	(void)state;
	expect_error("set a\ndescription x\033]0;owned\007\npmu any\nevent x - y\n",
		     ":2: control character 0x1b");
	expect_error("set a\npmu any\nevent x - y\033[2J\n", ":3: control character 0x1b");
	expect_error("set a\rpmu any\revent x - y\n", ":1: control character 0x0d");
	/* CRLF is still a line end */
	clear_dir();
	write_file("crlf.events", "set a\r\npmu any\r\nevent x - y\r\n");
	{
		struct mt_evsets *s = NULL;
		struct mt_msg msg;

		assert_int_equal(mt_evsets_load(&s, tmpdir, &msg), 0);
		assert_non_null(mt_evsets_find(s, "a"));
		mt_evsets_destroy(s);
	}
}

/* expect_not_loaded NAME: the directory with NAME in it is refused at once */
static void expect_refused(const char *name, const char *want)
{
	struct mt_evsets *s = NULL;
	struct mt_msg msg;

	alarm(10);	/* a hang is the failure: it used to read forever */
	assert_int_not_equal(mt_evsets_load(&s, tmpdir, &msg), 0);
	alarm(0);
	if (!strstr(msg.text, name) || !strstr(msg.text, want))
		fail_msg("'%s' does not name %s and say '%s'", msg.text, name, want);
}

static void test_not_regular(void **state)
{
	char path[4200];

	(void)state;
	clear_dir();
	snprintf(path, sizeof(path), "%s/x.events", tmpdir);
	assert_int_equal(mkfifo(path, 0600), 0);
	expect_refused("x.events", "not a regular file");
	clear_dir();
	assert_int_equal(symlink("/dev/zero", path), 0);
	expect_refused("x.events", "not a regular file");
	clear_dir();
	assert_int_equal(mkdir(path, 0700), 0);
	expect_refused("x.events", "not a regular file");
	assert_int_equal(rmdir(path), 0);
	/* over the cap: a regular file of 2 MiB of comments */
	{
		FILE *f = fopen(path, "w");

		assert_non_null(f);
		fputs("set a\npmu any\nevent x - y\n", f);
		for (int i = 0; i < 2 * 1024; i++)
			fprintf(f, "#%01022d\n", 0);
		fclose(f);
	}
	expect_refused("x.events", "larger than 1 MiB");
	clear_dir();
}

static void test_parse_ok(void **state)
{
	const struct mt_evset *set;
	struct mt_evsets *s = NULL;
	struct mt_msg msg;

	(void)state;
	clear_dir();
	write_file("one.events", "# comment\n\nset one\ndescription the first\n"
		   "pmu skl icl\n\tevent DTLB_LOAD_MISSES:WALK_COMPLETED dtlb-miss walks done\n"
		   "pmu generic\nevent dTLB-load-misses dtlb-miss generic misses\n"
		   "pmu any\nevent minor-faults minor-faults faults, no I/O\n");
	write_file("two.events", "set two\npmu any\nevent cpu=task-clock - cpu time\n");
	write_file("ignored.txt", "not an events file\n");
	assert_int_equal(mt_evsets_load(&s, tmpdir, &msg), 0);
	assert_int_equal(s->n, 2);
	set = mt_evsets_find(s, "one");
	assert_non_null(set);
	assert_string_equal(set->description, "the first");
	assert_int_equal(set->n_sections, 3);
	assert_true(mt_evset_section_has(&set->sections[0], "icl"));
	assert_false(mt_evset_section_has(&set->sections[0], "ic"));
	assert_int_equal(set->sections[0].entries[0].role, MT_ROLE_DTLB_MISSES);
	assert_string_equal(set->sections[2].entries[0].meaning, "faults, no I/O");
	assert_int_equal(set->sections[2].entries[0].line, 10);
	set = mt_evsets_find(s, "two");
	assert_non_null(set);
	assert_string_equal(set->sections[0].entries[0].alias, "cpu");
	assert_string_equal(set->sections[0].entries[0].event, "task-clock");
	assert_null(mt_evsets_find(s, "three"));
	mt_evsets_destroy(s);
}

/* Whether this libpfm4 build knows a PMU (ARM and POWER ones are not built on x86). */
static int pfm_knows(const char *name)
{
	pfm_pmu_info_t info;
	pfm_pmu_t p;

	pfm_for_all_pmus(p) {
		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (pfm_get_pmu_info(p, &info) == PFM_SUCCESS && !strcmp(info.name, name))
			return 1;
	}
	return 0;
}

/* In a child: resolve set on pmu forced; 0 when every event resolves. */
static int resolve_forced(const struct mt_evset *set, const char *pmu, const char *event,
			  uint32_t type, uint64_t config)
{
	pid_t pid = fork();
	int status;

	assert_true(pid >= 0);
	if (pid == 0) {
		struct mt_event *ev, *common;
		const char *which;
		char core[64];
		struct mt_msg msg;
		size_t n, n_common;

		/* perf's names before forcing: a forced libpfm4 knows only that PMU. */
		if (mt_evset_resolve_parts(set, pmu, MT_EVSET_COMMON_PART, &common, &n_common,
					   &which, &msg)) {
			fprintf(stderr, "%s on %s: %s\n", set->name, pmu, msg.text);
			_exit(2);
		}
		pfm_terminate();
		setenv("LIBPFM_FORCE_PMU", pmu, 1);
		if (mt_pmu_core_name(core, sizeof(core)) || strcmp(core, pmu)) {
			fprintf(stderr, "forced %s, core PMU is %s\n", pmu, core);
			_exit(4);
		}
		if (mt_evset_resolve_parts(set, core, MT_EVSET_PMU_PART, &ev, &n, &which, &msg)) {
			fprintf(stderr, "%s on %s: %s\n", set->name, pmu, msg.text);
			_exit(2);
		}
		if (strcmp(which, pmu)) {
			fprintf(stderr, "%s on %s: used section %s\n", set->name, pmu, which);
			_exit(5);
		}
		for (size_t k = 0; event && k < n + n_common; k++) {
			struct mt_event *e = k < n ? &ev[k] : &common[k - n];

			if (strcmp(e->name, event))
				continue;
			if (e->attr.type != type || e->attr.config != config) {
				fprintf(stderr, "%s on %s: type %u config %#llx\n", event, pmu,
					e->attr.type, (unsigned long long)e->attr.config);
				_exit(3);
			}
			_exit(0);
		}
		_exit(event ? 6 : 0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

static void test_shipped_sets_resolve(void **state)
{
	struct mt_evsets *s = NULL;
	unsigned int tried = 0, skipped = 0;
	struct mt_msg msg;

	(void)state;
	assert_int_equal(mt_evsets_load(&s, shipped(), &msg), 0);
	for (const char *want[] = { "default", "tlb", "walk", "faults", NULL }, **w = want; *w; w++)
		assert_non_null(mt_evsets_find(s, *w));
	assert_int_equal(pfm_initialize(), PFM_SUCCESS);
	for (size_t i = 0; i < s->n; i++) {
		const struct mt_evset *set = &s->sets[i];
		struct mt_event *ev;
		const char *which;
		size_t n;

		/* No PMU at all: generic plus any. */
		assert_int_equal(mt_evset_resolve(set, "", &ev, &n, &which, &msg), 0);
		assert_string_equal(which, "generic");
		for (size_t e = 0; e < n; e++)
			assert_true(ev[e].attr.type < PERF_TYPE_RAW);
		free(ev);
		for (size_t j = 0; j < set->n_sections; j++) {
			char pmus[MT_EVSET_PMUS_MAX], *tok, *save = NULL;

			snprintf(pmus, sizeof(pmus), "%s", set->sections[j].pmus);
			for (tok = strtok_r(pmus, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
				if (!strcmp(tok, "generic") || !strcmp(tok, "any"))
					continue;
				if (!pfm_knows(tok)) {
					skipped++;
					continue;
				}
				tried++;
				if (resolve_forced(set, tok, NULL, 0, 0))
					fail_msg("set %s does not resolve on %s", set->name, tok);
			}
		}
	}
	print_message("# resolved %u set/PMU pairs; %u skipped (PMU not in this libpfm4 build)\n",
		      tried, skipped);
	assert_true(tried >= 20);
	mt_evsets_destroy(s);
}

static void test_expected_encodings(void **state)
{
	static const struct {
		const char *set, *pmu, *event;
		uint32_t type;
		uint64_t config;
	} cases[] = {
		/* Intel: DTLB_LOAD_MISSES is 0x08 on skl/icl, 0x12 on spr; WALK_COMPLETED 0x0e */
		{ "default", "skl", "DTLB_LOAD_MISSES:WALK_COMPLETED", PERF_TYPE_RAW, 0xe08 },
		{ "default", "icl", "DTLB_LOAD_MISSES:WALK_COMPLETED", PERF_TYPE_RAW, 0xe08 },
		{ "default", "spr", "DTLB_LOAD_MISSES:WALK_COMPLETED", PERF_TYPE_RAW, 0xe12 },
		{ "walk", "skl", "DTLB_LOAD_MISSES:WALK_ACTIVE", PERF_TYPE_RAW, 0x1001008 },
		{ "walk", "icl", "DTLB_LOAD_MISSES:WALK_ACTIVE", PERF_TYPE_RAW, 0x1001008 },
		{ "default", "skl", "INST_RETIRED:ANY_P", PERF_TYPE_RAW, 0xc0 },
		/* AMD Zen: PMCx045 L1 dTLB misses, the four L2-miss umasks 0xf0 */
		{ "default", "amd64_fam19h_zen3", "L1_DTLB_MISS.L2_MISS", PERF_TYPE_RAW, 0xf045 },
		{ "tlb", "amd64_fam19h_zen3", "L1_DTLB_MISS.L2_HIT", PERF_TYPE_RAW, 0x0f45 },
		{ "default", "amd64_fam17h_zen2", "RETIRED_INSTRUCTIONS", PERF_TYPE_RAW, 0xc0 },
		{ "default", "amd64_fam19h_zen4", "LS_DISPATCH:LD_DISPATCH", PERF_TYPE_RAW, 0x129 },
		/* software events come from "any" whatever the PMU */
		{ "default", "icl", "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	};
	struct mt_evsets *s = NULL;
	struct mt_msg msg;

	(void)state;
	assert_int_equal(mt_evsets_load(&s, shipped(), &msg), 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int ret = resolve_forced(mt_evsets_find(s, cases[i].set), cases[i].pmu,
					 cases[i].event, cases[i].type, cases[i].config);

		if (ret)
			fail_msg("%s/%s on %s: child exit %d", cases[i].set, cases[i].event,
				 cases[i].pmu, ret);
	}
	mt_evsets_destroy(s);
}

static void test_roles_from_set(void **state)
{
	struct mt_evsets *s = NULL;
	struct mt_event *ev;
	const char *which;
	struct mt_msg msg;
	size_t n;

	(void)state;
	assert_int_equal(mt_evsets_load(&s, shipped(), &msg), 0);
	assert_int_equal(mt_evset_resolve(mt_evsets_find(s, "default"), "", &ev, &n, &which,
					  &msg), 0);
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(ev[i].name, "dTLB-load-misses"))
			assert_int_equal(mt_event_role(&ev[i]), MT_ROLE_DTLB_MISSES);
		if (!strcmp(ev[i].name, "cycles"))
			assert_int_equal(mt_event_role(&ev[i]), MT_ROLE_CYCLES);
		assert_string_not_equal(ev[i].meaning, "");
	}
	free(ev);
	mt_evsets_destroy(s);
}

/*
 * The flush set: aliases of filtered tracepoints (the filter's '=' is not
 * the alias's), resolved through the fixture tracefs; a reason the kernel
 * lacks is not supported, not a broken set; no tracefs: not supported.
 */
static void test_flush_set(void **state)
{
	const char *data = getenv("MEMTLB_TEST_DATA");
	struct mt_evsets *s = NULL;
	const struct mt_evset *set;
	struct mt_event *ev;
	const char *which;
	char root[4096];
	struct mt_msg msg;
	size_t n;

	(void)state;
	assert_non_null(data);
	assert_int_equal(mt_evsets_load(&s, shipped(), &msg), 0);
	set = mt_evsets_find(s, "flush");
	assert_non_null(set);
	snprintf(root, sizeof(root), "%s/sysroot-tracefs", data);
	setenv("MEMTLB_SYSROOT", root, 1);
	assert_int_equal(mt_evset_resolve(set, "", &ev, &n, &which, &msg), 0);
	assert_true(n >= 8);
	assert_string_equal(ev[0].name, "tlb_flush");
	assert_int_equal(ev[0].attr.type, PERF_TYPE_TRACEPOINT);
	assert_int_equal(ev[0].attr.config, 188);
	assert_string_equal(ev[2].name, "flush.remote");
	assert_string_equal(ev[2].filter, "reason == 1");
	assert_int_equal(ev[2].unavailable, 0);
	/* ipi:ipi_send_cpumask is not in the fixture: not supported here */
	for (size_t i = 0; i < n; i++) {
		if (strcmp(ev[i].name, "ipi_send_cpumask"))
			continue;
		assert_int_equal(ev[i].unavailable, -ENOENT);
		assert_non_null(strstr(ev[i].why, "no tracepoint"));
	}
	free(ev);
	setenv("MEMTLB_SYSROOT", "/nonexistent-memtlb", 1);
	assert_int_equal(mt_evset_resolve(set, "", &ev, &n, &which, &msg), 0);
	assert_int_equal(ev[2].unavailable, -ENOENT);
	assert_non_null(strstr(ev[2].why, "tracefs not mounted"));
	free(ev);
	unsetenv("MEMTLB_SYSROOT");
	mt_evsets_destroy(s);

	clear_dir();
	write_file("tp.events", "set tp\npmu any\n"
		   "event tlb:tlb_flush/reason=1/ - no alias: the '=' is the filter's\n"
		   "event r=tlb:tlb_flush/reason=2/ - aliased\n");
	assert_int_equal(mt_evsets_load(&s, tmpdir, &msg), 0);
	assert_string_equal(s->sets[0].sections[0].entries[0].alias, "");
	assert_string_equal(s->sets[0].sections[0].entries[0].event, "tlb:tlb_flush/reason=1/");
	assert_string_equal(s->sets[0].sections[0].entries[1].alias, "r");
	assert_string_equal(s->sets[0].sections[0].entries[1].event, "tlb:tlb_flush/reason=2/");
	mt_evsets_destroy(s);
}

static void test_dir_choice(void **state)
{
	char buf[4096];

	(void)state;
	assert_string_equal(mt_evsets_dir("/x", buf, sizeof(buf)), "/x");
	setenv("MEMTLB_EVENTS_PATH", "/y", 1);
	assert_string_equal(mt_evsets_dir(NULL, buf, sizeof(buf)), "/y");
	assert_string_equal(mt_evsets_dir("/x", buf, sizeof(buf)), "/x");
	unsetenv("MEMTLB_EVENTS_PATH");
	/* This test runs from the build tree: the source tree's events/. */
	assert_string_equal(mt_evsets_dir(NULL, buf, sizeof(buf)), shipped());
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	clear_dir();
	unlink(strcat(strcpy((char[4200]){ 0 }, tmpdir), "/ignored.txt"));
	return rmdir(tmpdir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_parse_ok),
		cmocka_unit_test(test_control_characters),
		cmocka_unit_test(test_not_regular),
		cmocka_unit_test(test_shipped_sets_resolve),
		cmocka_unit_test(test_expected_encodings),
		cmocka_unit_test(test_roles_from_set),
		cmocka_unit_test(test_dir_choice),
		cmocka_unit_test(test_flush_set),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
