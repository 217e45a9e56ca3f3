// SPDX-License-Identifier: MIT
/*
 * Event resolution through libpfm4. meson runs this with LIBPFM_FORCE_PMU
 * unset for the perf-style names (their encodings are architecture-generic)
 * and the PMU-name cases force a PMU, so the expected encodings hold on
 * any x86 machine, whatever its CPU.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "counters/counters.h"
#include <perfmon/pfmlib.h>
#include "stats/stats.h"

static void test_perf_names(void **state)
{
	struct mt_event *ev;
	char bad[128];
	size_t n;

	(void)state;
	assert_int_equal(mt_events_resolve("cycles,instructions,dTLB-loads,dTLB-load-misses,"
					   "minor-faults,major-faults,page-faults,task-clock",
					   &ev, &n, bad, sizeof(bad)), 0);
	assert_int_equal(n, 8);
	assert_int_equal(ev[0].attr.type, PERF_TYPE_HARDWARE);
	assert_int_equal(ev[0].attr.config, PERF_COUNT_HW_CPU_CYCLES);
	assert_int_equal(ev[1].attr.type, PERF_TYPE_HARDWARE);
	assert_int_equal(ev[1].attr.config, PERF_COUNT_HW_INSTRUCTIONS);
	assert_int_equal(ev[2].attr.type, PERF_TYPE_HW_CACHE);
	assert_int_equal(ev[2].attr.config, 0x3);
	assert_int_equal(ev[3].attr.type, PERF_TYPE_HW_CACHE);
	assert_int_equal(ev[3].attr.config, 0x10003);
	assert_int_equal(ev[4].attr.type, PERF_TYPE_SOFTWARE);
	assert_int_equal(ev[4].attr.config, PERF_COUNT_SW_PAGE_FAULTS_MIN);
	assert_int_equal(ev[5].attr.config, PERF_COUNT_SW_PAGE_FAULTS_MAJ);
	assert_int_equal(ev[6].attr.config, PERF_COUNT_SW_PAGE_FAULTS);
	assert_int_equal(ev[7].attr.config, PERF_COUNT_SW_TASK_CLOCK);
	/* what the backend relies on */
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(ev[i].attr.size, sizeof(struct perf_event_attr));
		assert_true(ev[i].attr.read_format & PERF_FORMAT_TOTAL_TIME_RUNNING);
		assert_false(ev[i].attr.read_format & PERF_FORMAT_GROUP);
		assert_string_not_equal(ev[i].fstr, "");
	}
	assert_int_equal(mt_event_role(&ev[2]), MT_ROLE_DTLB_LOADS);
	assert_int_equal(mt_event_role(&ev[3]), MT_ROLE_DTLB_MISSES);
	assert_int_equal(mt_event_role(&ev[4]), MT_ROLE_MINOR_FAULTS);
	free(ev);
}

/*
 * Privilege levels as perf stat sets them: without modifiers nothing is
 * excluded, hypervisor included; :u and :k exclude the other levels.
 */
static void test_privilege_levels(void **state)
{
	struct mt_event *ev;
	char bad[128];
	size_t n;

	(void)state;
	assert_int_equal(mt_events_resolve("minor-faults,task-clock,cycles,minor-faults:u,"
					   "task-clock:k", &ev, &n, bad, sizeof(bad)), 0);
	assert_int_equal(n, 5);
	for (size_t i = 0; i < 3; i++) {
		assert_false(ev[i].attr.exclude_user);
		assert_false(ev[i].attr.exclude_kernel);
		assert_false(ev[i].attr.exclude_hv);
	}
	assert_false(ev[3].attr.exclude_user);
	assert_true(ev[3].attr.exclude_kernel);
	assert_true(ev[3].attr.exclude_hv);
	assert_true(ev[4].attr.exclude_user);
	assert_false(ev[4].attr.exclude_kernel);
	assert_true(ev[4].attr.exclude_hv);
	free(ev);
}

static void test_pmu_names(void **state)
{
	static const struct {
		const char *pmu, *event;
		uint64_t config;
	} cases[] = {
		/* skl: DTLB_LOAD_MISSES is event 0x08, WALK_COMPLETED umask 0x0e */
		{ "skl", "DTLB_LOAD_MISSES:WALK_COMPLETED", 0xe08 },
		{ "skl", "DTLB_LOAD_MISSES:WALK_ACTIVE", 0x1001008 },	/* cmask 1 */
		{ "icl", "DTLB_LOAD_MISSES:WALK_COMPLETED", 0xe08 },
		{ "icl", "DTLB_LOAD_MISSES:WALK_ACTIVE", 0x1001008 },
	};
	struct mt_event *ev;
	char bad[128];
	size_t n;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		/* libpfm4 reads LIBPFM_FORCE_PMU at pfm_initialize(): start afresh per PMU. */
		pid_t pid = fork();

		assert_true(pid >= 0);
		if (pid == 0) {
			pfm_terminate();
			setenv("LIBPFM_FORCE_PMU", cases[i].pmu, 1);
			if (mt_events_resolve(cases[i].event, &ev, &n, bad, sizeof(bad)))
				_exit(2);
			if (ev[0].attr.type != PERF_TYPE_RAW || ev[0].attr.config != cases[i].config) {
				fprintf(stderr, "type %u config %#llx\n", ev[0].attr.type,
					(unsigned long long)ev[0].attr.config);
				_exit(3);
			}
			_exit(0);
		}
		int status;

		assert_int_equal(waitpid(pid, &status, 0), pid);
		if (WEXITSTATUS(status))
			print_error("%s on %s: exit %d\n", cases[i].event, cases[i].pmu,
				    WEXITSTATUS(status));
		assert_int_equal(WEXITSTATUS(status), 0);
	}
}

static void test_unknown_and_duplicate(void **state)
{
	struct mt_event *ev = NULL;
	char bad[128];
	size_t n;

	(void)state;
	assert_int_equal(mt_events_resolve("cycles,NO_SUCH_EVENT", &ev, &n, bad, sizeof(bad)),
			 -EINVAL);
	assert_non_null(strstr(bad, "NO_SUCH_EVENT"));
	assert_int_equal(mt_events_resolve("cycles,cycles", &ev, &n, bad, sizeof(bad)), -EINVAL);
	assert_non_null(strstr(bad, "twice"));
	assert_int_equal(mt_events_resolve("", &ev, &n, bad, sizeof(bad)), -EINVAL);
	assert_int_equal(mt_events_resolve(",,", &ev, &n, bad, sizeof(bad)), -EINVAL);
}

/* libpfm4's own error for a name it refuses, never one "unknown event" for all. */
static void test_libpfm_errors(void **state)
{
	static const struct {
		const char *pmu, *event, *why;
	} cases[] = {
		{ NULL, "nosuchevent", "nosuchevent: event not found" },
		{ NULL, "minor-faults:bogus", "minor-faults:bogus: invalid event attribute" },
		{ "skl", "DTLB_LOAD_MISSES", "DTLB_LOAD_MISSES: invalid or missing unit mask" },
		{ "skl", "DTLB_LOAD_MISSES:BOGUS", "DTLB_LOAD_MISSES:BOGUS: invalid event attribute" },
		{ "skl", "DTLB_LOAD_MISSES:WALK_COMPLETED:c=999",
		  "DTLB_LOAD_MISSES:WALK_COMPLETED:c=999: invalid event attribute value" },
		{ "icl", "DTLB_LOAD_MISSES:WALK_DURATION",
		  "DTLB_LOAD_MISSES:WALK_DURATION: invalid event attribute" },
	};
	struct mt_event *ev;
	char bad[256];
	size_t n;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		pid_t pid = fork();
		int status;

		assert_true(pid >= 0);
		if (pid == 0) {
			if (cases[i].pmu) {
				pfm_terminate();
				setenv("LIBPFM_FORCE_PMU", cases[i].pmu, 1);
			}
			if (mt_events_resolve(cases[i].event, &ev, &n, bad, sizeof(bad)) != -EINVAL)
				_exit(2);
			if (strcmp(bad, cases[i].why)) {
				fprintf(stderr, "%s: \"%s\"\n", cases[i].event, bad);
				_exit(3);
			}
			_exit(0);
		}
		assert_int_equal(waitpid(pid, &status, 0), pid);
		if (WEXITSTATUS(status))
			print_error("%s: exit %d\n", cases[i].event, WEXITSTATUS(status));
		assert_int_equal(WEXITSTATUS(status), 0);
	}
}

static void test_reasons(void **state)
{
	struct mt_event ev = { 0 };

	(void)state;
	ev.attr.type = PERF_TYPE_HARDWARE;
	ev.err = -ENOENT;
	assert_string_equal(mt_event_reason(&ev, 0), "no PMU driver in this kernel");
	assert_string_equal(mt_event_reason(&ev, 1), "this kernel's PMU has no such event");
	ev.err = -EACCES;
	assert_non_null(strstr(mt_event_reason(&ev, 1), "perf_event_paranoid"));
}

/* Names in a list separated by single spaces. */
static int words(const char *s)
{
	int n = 0;

	for (; *s; s++)
		if (s[1] == ' ' || s[1] == '\0')
			n++;
	return n;
}

/*
 * The core PMU count does not depend on the room for their names (it used to
 * stop at the first name that did not fit: only a hybrid CPU, two core PMUs,
 * shows the difference). Returns 0, or which check failed; *cores the count.
 */
static int short_buffer_checks(const char *forced, int *cores)
{
	char big[4096], small[2], one[64];
	size_t first;
	int n;

	n = mt_pmu_present_cores(big, sizeof(big), true);
	*cores = n;
	if (n < 0 || words(big) != n)
		return 1;
	if (forced && !strstr(big, forced))
		return 2;
	if (mt_pmu_present_cores(small, sizeof(small), true) != n || small[0])
		return 3;
	if (mt_pmu_present_list(small, sizeof(small)) != 0 || small[0])
		return 4;
	if (!n)
		return 0;
	/* Room for the first name only: the list stops after it, the count does not. */
	first = strcspn(big, " ");
	if (first + 2 > sizeof(one))
		return 5;
	if (mt_pmu_present_cores(one, first + 2, true) != n || strlen(one) != first ||
	    strncmp(one, big, first))
		return 6;
	return 0;
}

static void test_core_count_short_buffer(void **state)
{
	int cores, status;
	pid_t pid;

	(void)state;
	/* What libpfm4 detects here, which may be no core PMU at all. */
	assert_int_equal(short_buffer_checks(NULL, &cores), 0);
	/* A forced core PMU, so that there is one to count on any x86 machine. */
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		pfm_terminate();
		setenv("LIBPFM_FORCE_PMU", "skl", 1);
		status = short_buffer_checks("skl", &cores);
		_exit(status ? status : cores >= 1 ? 0 : 7);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (WEXITSTATUS(status))
		print_error("forced skl: check %d failed\n", WEXITSTATUS(status));
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}


/* Tracepoints through the fixture tracefs (tests/data/sysroot-tracefs). */
static void test_tracepoints(void **state)
{
	const char *data = getenv("MEMTLB_TEST_DATA");
	char root[4096], bad[512];
	struct mt_event *ev;
	size_t n;

	(void)state;
	assert_non_null(data);
	snprintf(root, sizeof(root), "%s/sysroot-tracefs", data);
	setenv("MEMTLB_SYSROOT", root, 1);
	assert_int_equal(mt_events_resolve("tlb:tlb_flush,tlb:tlb_flush/reason=remote_shootdown/,"
					   "tlb:tlb_flush/reason=4/,exceptions:page_fault_user,"
					   "cycles:u,tlb:tlb_flush/reason=LOCAL_MM_SHOOTDOWN/",
					   &ev, &n, bad, sizeof(bad)), 0);
	assert_int_equal(n, 6);
	assert_int_equal(ev[0].attr.type, PERF_TYPE_TRACEPOINT);
	assert_int_equal(ev[0].attr.config, 188);
	assert_int_equal(ev[0].attr.size, sizeof(struct perf_event_attr));
	assert_int_equal(ev[0].attr.exclude_kernel, 0);
	assert_int_equal(ev[0].attr.inherit, 1);
	assert_string_equal(ev[0].filter, "");
	assert_int_equal(ev[0].unavailable, 0);
	/* The kernel's filter compares numbers: the name became its value. */
	assert_string_equal(ev[1].name, "tlb:tlb_flush/reason=remote_shootdown/");
	assert_string_equal(ev[1].filter, "reason == 1");
	assert_string_equal(ev[2].filter, "reason == 4");
	assert_int_equal(ev[3].attr.config, 190);
	/* cycles:u looks like a tracepoint; tracefs has no cycles/u: libpfm4's */
	assert_int_equal(ev[4].attr.type, PERF_TYPE_HARDWARE);
	assert_int_equal(ev[4].attr.exclude_kernel, 1);
	assert_string_equal(ev[5].filter, "reason == 3");
	free(ev);

	assert_int_equal(mt_events_resolve("tlb:tlb_flush/reason=remote/", &ev, &n, bad,
					   sizeof(bad)), -EINVAL);
	assert_non_null(strstr(bad, "no reason remote in its format file"));
	/* The hint, after the newline, has the format file's names. */
	assert_non_null(strchr(bad, '\n'));
	assert_non_null(strstr(strchr(bad, '\n'), "remote_shootdown"));
	assert_non_null(strstr(strchr(bad, '\n'), "remote_wrong_cpu"));
	assert_int_equal(mt_events_resolve("tlb:tlb_flush/nofield=1/", &ev, &n, bad, sizeof(bad)),
			 -EINVAL);
	assert_non_null(strstr(bad, "no field nofield"));
	assert_non_null(strstr(bad, " reason pages"));
	assert_int_equal(mt_events_resolve("tlb:tlb_flush/reason=1", &ev, &n, bad, sizeof(bad)),
			 -EINVAL);
	assert_int_equal(mt_events_resolve("tlb:tlb_flush/reason/", &ev, &n, bad, sizeof(bad)),
			 -EINVAL);
	assert_int_equal(mt_events_resolve("tlb:nope", &ev, &n, bad, sizeof(bad)), -EINVAL);
	assert_non_null(strstr(bad, "no tracepoint tlb:nope"));

	/* No tracefs: not supported, with the mount command; not bad input. */
	setenv("MEMTLB_SYSROOT", "/nonexistent-memtlb", 1);
	assert_int_equal(mt_events_resolve("tlb:tlb_flush/reason=remote_shootdown/,tlb:tlb_flush",
					   &ev, &n, bad, sizeof(bad)), 0);
	assert_int_equal(n, 2);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(ev[i].unavailable, -ENOENT);
		assert_non_null(strstr(ev[i].why, "mount -t tracefs nodev /sys/kernel/tracing"));
		assert_int_equal(mt_counters_try(&ev[i]), 0);
		assert_int_equal(ev[i].err, -ENOENT);
		assert_string_equal(mt_event_reason(&ev[i], 0), ev[i].why);
		/* a report keeps 63 characters of it */
		assert_true(strlen(ev[i].why) < 64);
	}
	free(ev);
	unsetenv("MEMTLB_SYSROOT");

	/* Refused by paranoia: a tracepoint is never counted user-only. */
	{
		struct mt_event one = { .err = -EACCES };

		one.attr.type = PERF_TYPE_TRACEPOINT;
		assert_non_null(strstr(mt_event_reason(&one, 0), "perf_event_paranoid"));
		assert_non_null(strstr(mt_event_reason(&one, 0), "kernel-only"));
		assert_true(strlen(mt_event_reason(&one, 0)) < 64);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_perf_names),
		cmocka_unit_test(test_privilege_levels),
		cmocka_unit_test(test_pmu_names),
		cmocka_unit_test(test_unknown_and_duplicate),
		cmocka_unit_test(test_libpfm_errors),
		cmocka_unit_test(test_reasons),
		cmocka_unit_test(test_core_count_short_buffer),
		cmocka_unit_test(test_tracepoints),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
