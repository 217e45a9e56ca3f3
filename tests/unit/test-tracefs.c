// SPDX-License-Identifier: MIT
/*
 * sys/tracefs and sys/interrupts on fixture trees (MEMTLB_SYSROOT):
 * tests/data/sysroot-tracefs holds tlb_flush's and the page-fault
 * exceptions' id and format, and /proc/interrupts, copied from a 6.18 KVM
 * guest; a temporary tree stands in for the odd cases.
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
#include <unistd.h>
#include <cmocka.h>

#include "sys/interrupts.h"
#include "sys/sysinfo.h"
#include "sys/tracefs.h"

static char fixture[4096];

static void use_fixture(void)
{
	const char *data = getenv("MEMTLB_TEST_DATA");

	assert_non_null(data);
	snprintf(fixture, sizeof(fixture), "%s/sysroot-tracefs", data);
	setenv("MEMTLB_SYSROOT", fixture, 1);
}

static void test_dir_and_id(void **state)
{
	char dir[4096], want[4096 + 32], names[256];
	uint64_t id = 0;

	(void)state;
	use_fixture();
	assert_int_equal(mt_tracefs_dir(dir, sizeof(dir)), 0);
	snprintf(want, sizeof(want), "%s/sys/kernel/tracing", fixture);
	assert_string_equal(dir, want);
	assert_int_equal(mt_tracefs_id(dir, "tlb", "tlb_flush", &id), 0);
	assert_int_equal(id, 188);
	assert_int_equal(mt_tracefs_id(dir, "tlb", "nope", &id), -ENOENT);
	/* Names from the command line never walk out of events/. */
	assert_int_equal(mt_tracefs_id(dir, "..", "tlb_flush", &id), -EINVAL);
	assert_int_equal(mt_tracefs_id(dir, "tlb", "../tlb", &id), -EINVAL);
	/* enable is a file, not an event */
	assert_int_equal(mt_tracefs_list(dir, "tlb", names, sizeof(names)), 0);
	assert_string_equal(names, "tlb_flush");
	assert_int_equal(mt_tracefs_list(dir, "exceptions", names, sizeof(names)), 0);
	assert_string_equal(names, "page_fault_kernel page_fault_user");
	assert_int_equal(mt_tracefs_list(dir, "exceptions", names, 10), -ENOSPC);
	assert_int_equal(mt_tracefs_list(dir, "nosys", names, sizeof(names)), -ENOENT);
	unsetenv("MEMTLB_SYSROOT");
}

static void test_not_mounted(void **state)
{
	char root[] = "/tmp/memtlb-tracefs-XXXXXX", path[256], dir[4096];

	(void)state;
	assert_non_null(mkdtemp(root));
	/* An unmounted tracefs is an empty directory: no events/ in it. */
	snprintf(path, sizeof(path), "%s/sys", root);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/sys/kernel", root);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/sys/kernel/tracing", root);
	assert_int_equal(mkdir(path, 0755), 0);
	setenv("MEMTLB_SYSROOT", root, 1);
	assert_int_equal(mt_tracefs_dir(dir, sizeof(dir)), -ENOENT);
	assert_string_equal(dir, "");
	/* debugfs's tracing is the fallback */
	snprintf(path, sizeof(path), "%s/sys/kernel/debug", root);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/sys/kernel/debug/tracing", root);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/sys/kernel/debug/tracing/events", root);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(mt_tracefs_dir(dir, sizeof(dir)), 0);
	assert_non_null(strstr(dir, "/sys/kernel/debug/tracing"));
	unsetenv("MEMTLB_SYSROOT");
	rmdir(path);
	snprintf(path, sizeof(path), "%s/sys/kernel/debug/tracing", root);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/sys/kernel/debug", root);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/sys/kernel/tracing", root);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/sys/kernel", root);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/sys", root);
	rmdir(path);
	assert_int_equal(rmdir(root), 0);
}

static void test_format(void **state)
{
	struct mt_tracefs_format *fmt = malloc(sizeof(*fmt));
	const struct mt_tracefs_field *f;
	char dir[4096], sp[64];

	(void)state;
	assert_non_null(fmt);
	use_fixture();
	assert_int_equal(mt_tracefs_dir(dir, sizeof(dir)), 0);
	assert_int_equal(mt_tracefs_format(dir, "tlb", "tlb_flush", fmt), 0);
	f = mt_tracefs_field(fmt, "reason");
	assert_non_null(f);
	assert_true(f->numeric);
	/* The kernel's __print_symbolic list, not a table of ours. */
	assert_int_equal(f->n_syms, 6);
	assert_int_equal(f->syms[1].value, 1);
	assert_string_equal(f->syms[1].label, "remote shootdown");
	assert_string_equal(f->syms[3].label, "local MM shootdown");
	assert_string_equal(mt_tracefs_spell(f->syms[3].label, sp, sizeof(sp)),
			    "local_mm_shootdown");
	assert_int_equal(mt_tracefs_sym_find(f, "remote_wrong_cpu")->value, 5);
	assert_int_equal(mt_tracefs_sym_find(f, "REMOTE_IPI_SEND")->value, 4);
	assert_null(mt_tracefs_sym_find(f, "remote"));
	assert_null(mt_tracefs_sym_find(f, "remote shootdown"));
	f = mt_tracefs_field(fmt, "pages");
	assert_non_null(f);
	assert_true(f->numeric);
	assert_int_equal(f->n_syms, 0);
	assert_non_null(mt_tracefs_field(fmt, "common_pid"));
	assert_null(mt_tracefs_field(fmt, "nope"));
	unsetenv("MEMTLB_SYSROOT");
	free(fmt);
}

static void test_format_parse(void **state)
{
	struct mt_tracefs_format *fmt = malloc(sizeof(*fmt));
	const struct mt_tracefs_field *f;
	char sp[16];

	(void)state;
	assert_non_null(fmt);
	assert_int_equal(mt_tracefs_format_parse("garbage", fmt), -EINVAL);
	assert_int_equal(mt_tracefs_format_parse(
		"name: x\nID: 1\nformat:\n"
		"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
		"\tfield:__data_loc char[] name;\toffset:24;\tsize:4;\tsigned:0;\n"
		"\tfield:void * ptr;\toffset:32;\tsize:8;\tsigned:0;\n"
		"\tfield:int mode;\toffset:40;\tsize:4;\tsigned:1;\n\n"
		"print fmt: \"%s\", __print_symbolic(REC->mode, { 0x10, \"A-b  c\" }, "
		"{ -1, \"neg\" }, { BAD, \"x\" })\n", fmt), 0);
	assert_int_equal(fmt->n_fields, 4);
	assert_false(mt_tracefs_field(fmt, "comm")->numeric);
	assert_false(mt_tracefs_field(fmt, "name")->numeric);
	assert_false(mt_tracefs_field(fmt, "ptr")->numeric);
	f = mt_tracefs_field(fmt, "mode");
	assert_true(f->numeric);
	/* What does not parse ends the list; what came before stays. */
	assert_int_equal(f->n_syms, 2);
	assert_int_equal(f->syms[0].value, 16);
	assert_string_equal(mt_tracefs_spell(f->syms[0].label, sp, sizeof(sp)), "a_b_c");
	assert_int_equal(f->syms[1].value, -1);
	/* A spelling never overruns its buffer. */
	assert_string_equal(mt_tracefs_spell("abcdefgh", sp, 4), "ab");
	assert_true(mt_tracefs_is_name("tlb:tlb_flush", 13));
	assert_false(mt_tracefs_is_name("minor-faults:u", 14));
	assert_false(mt_tracefs_is_name("DTLB_LOAD_MISSES:WALK", 21));
	assert_false(mt_tracefs_is_name("perf::cycles", 12));
	assert_false(mt_tracefs_is_name("a:b:c", 5));
	free(fmt);
}

static void test_interrupts(void **state)
{
	static const char *const rows[] = { "TLB", "CAL", "NOPE" };
	uint64_t v[3];

	(void)state;
	use_fixture();
	assert_int_equal(mt_interrupts_read(rows, 3, v), 0);
	/* Summed over CPU0 and CPU1; a row the kernel lacks is absent, not 0. */
	assert_int_equal(v[0], 215186 + 205943);
	assert_int_equal(v[1], 2887031 + 2033648);
	assert_true(v[2] == MT_INTERRUPTS_ABSENT);
	setenv("MEMTLB_SYSROOT", "/nonexistent-memtlb", 1);
	assert_int_equal(mt_interrupts_read(rows, 3, v), -ENOENT);
	assert_true(v[0] == MT_INTERRUPTS_ABSENT);
	unsetenv("MEMTLB_SYSROOT");
}

static void test_debugfs_state(void **state)
{
	struct mt_sysinfo si;

	(void)state;
	assert_int_equal(mt_sysinfo_debugfs_state(0, NULL), MT_SYSINFO_READ);
	assert_int_equal(mt_sysinfo_debugfs_state(-ENOENT, "none [integrity]"), MT_SYSINFO_ABSENT);
	assert_int_equal(mt_sysinfo_debugfs_state(-EPERM, "none [integrity] confidentiality"),
			 MT_SYSINFO_LOCKDOWN);
	assert_int_equal(mt_sysinfo_debugfs_state(-EPERM, "[none] integrity confidentiality"),
			 MT_SYSINFO_UNREADABLE);
	assert_int_equal(mt_sysinfo_debugfs_state(-EPERM, NULL), MT_SYSINFO_UNREADABLE);
	assert_int_equal(mt_sysinfo_debugfs_state(-EACCES, "none [integrity]"),
			 MT_SYSINFO_UNREADABLE);
	assert_int_equal(mt_sysinfo_debugfs_state(-EIO, "none [integrity]"),
			 MT_SYSINFO_UNREADABLE);
	assert_string_equal(mt_sysinfo_state_name(MT_SYSINFO_LOCKDOWN), "unknown (lockdown)");
	assert_int_equal(mt_sysinfo_state_parse("unknown (lockdown)"), MT_SYSINFO_LOCKDOWN);
	assert_int_equal(mt_sysinfo_state_parse("absent"), MT_SYSINFO_ABSENT);
	assert_int_equal(mt_sysinfo_state_parse(NULL), MT_SYSINFO_UNREADABLE);
	/* The fixture's debugfs values are read, and its lockdown mode. */
	use_fixture();
	mt_sysinfo_read(&si);
	assert_string_equal(si.lockdown, "integrity");
	assert_int_equal(si.fault_around_state, MT_SYSINFO_READ);
	assert_int_equal(si.fault_around_bytes, 65536);
	assert_int_equal(si.tlb_flush_ceiling_state, MT_SYSINFO_READ);
	assert_int_equal(si.tlb_flush_ceiling, 33);
	setenv("MEMTLB_SYSROOT", "/nonexistent-memtlb", 1);
	mt_sysinfo_read(&si);
	assert_int_equal(si.fault_around_state, MT_SYSINFO_ABSENT);
	assert_int_equal(si.fault_around_bytes, -1);
	assert_string_equal(si.lockdown, "");
	unsetenv("MEMTLB_SYSROOT");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dir_and_id),
		cmocka_unit_test(test_not_mounted),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_format_parse),
		cmocka_unit_test(test_interrupts),
		cmocka_unit_test(test_debugfs_state),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
