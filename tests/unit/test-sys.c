// SPDX-License-Identifier: MIT
/* sys: the cleanup registry under every fatal signal, its journal and the machine lock. */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "sys/cleanup.h"
#include "sys/hugetlb.h"
#include "sys/journal.h"
#include "sys/mthp.h"

/* Each case forks: the registry and the lock are per process. */
static char root[64], tunable[128], journal[128];

static void put(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(s, f);
	fclose(f);
}

static bool holds(const char *path, const char *s)
{
	char buf[256] = "";
	FILE *f = fopen(path, "r");

	if (!f)
		return false;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	return !strcmp(buf, s);
}

static bool exists(const char *path)
{
	return access(path, F_OK) == 0;
}

/* The child's status: what a case checks in a child comes back as its exit code. */
static int reap(pid_t pid)
{
	int st;

	assert_int_equal(waitpid(pid, &st, 0), pid);
	return st;
}

static int setup(void **state)
{
	char dir[192];

	(void)state;
	snprintf(root, sizeof(root), "%s/memtlb-sys.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	assert_non_null(mkdtemp(root));
	snprintf(dir, sizeof(dir), "%s/sys", root);
	mkdir(dir, 0755);
	snprintf(tunable, sizeof(tunable), "%s/sys/tunable", root);
	snprintf(journal, sizeof(journal), "%s/run/memtlb/journal", root);
	setenv("MEMTLB_SYSROOT", root, 1);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd);
}

/*
 * Every signal whose default action ends the process, not only INT, TERM,
 * HUP, QUIT, PIPE, BUS and SEGV: the restore runs and memtlb dies of it.
 */
static void test_fatal_signals_restore(void **state)
{
	int sigs[] = { SIGHUP, SIGINT, SIGQUIT, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE,
		       SIGUSR1, SIGSEGV, SIGUSR2, SIGPIPE, SIGALRM, SIGTERM, SIGSTKFLT,
		       SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGPWR, SIGSYS, SIGIO,
		       SIGRTMIN + 2, SIGRTMAX };

	(void)state;
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		int sig = sigs[i], st;
		pid_t pid;

		put(tunable, "orig");
		pid = fork();
		assert_true(pid >= 0);
		if (!pid) {
			struct rlimit none = { 0, 0 };

			setrlimit(RLIMIT_CORE, &none);
			/* A sanitizer's own fault handlers are not what is tested. */
			signal(sig, SIG_DFL);
			if (mt_cleanup_add_restore(tunable, "orig") < 0)
				_exit(3);
			put(tunable, "changed");
			raise(sig);
			_exit(4);
		}
		st = reap(pid);
		if (!WIFSIGNALED(st) || WTERMSIG(st) != sig)
			fail_msg("signal %d (%s): status %#x, not killed by it", sig, strsignal(sig), st);
		if (!holds(tunable, "orig"))
			fail_msg("signal %d (%s): the value was not restored", sig, strsignal(sig));
		if (exists(journal))
			fail_msg("signal %d (%s): the journal was left", sig, strsignal(sig));
	}
}

/* A sweep grows the pool at every point: one restore, the first value, however many. */
static void test_same_path_once(void **state)
{
	pid_t pid;
	int st;

	(void)state;
	put(tunable, "orig");
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		int first = mt_cleanup_add_restore(tunable, "orig");

		for (int i = 1; i < 100; i++) {
			char v[16];

			snprintf(v, sizeof(v), "%d", i);
			put(tunable, v);
			if (mt_cleanup_add_restore(tunable, v) != first)
				_exit(10);
		}
		/* Other restores still have room. */
		for (int i = 0; i < 8; i++) {
			char p[160];

			snprintf(p, sizeof(p), "%s/sys/other%d", root, i);
			put(p, "x");
			if (mt_cleanup_add_restore(p, "x") < 0)
				_exit(11);
		}
		exit(0);	/* the restores run at exit */
	}
	st = reap(pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	assert_true(holds(tunable, "orig"));
	assert_false(exists(journal));
}

/* The journal lists a restore before the change and is gone after it ran. */
static void test_journal_written_removed(void **state)
{
	pid_t pid;
	int st;

	(void)state;
	put(tunable, "orig");
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		char line[512];
		bool found = false;
		FILE *f;
		int h = mt_cleanup_add_restore(tunable, "orig");

		if (h < 0)
			_exit(20);
		f = fopen(journal, "r");
		if (!f)
			_exit(21);
		while (fgets(line, sizeof(line), f))
			found |= strstr(line, "restore ") == line && strstr(line, tunable) &&
				 strstr(line, " orig\n");
		fclose(f);
		if (!found)
			_exit(22);
		put(tunable, "changed");
		if (mt_cleanup_run(h) || exists(journal))
			_exit(23);
		_exit(holds(tunable, "orig") ? 0 : 24);
	}
	st = reap(pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

/* Whether the journal lists a restore of path. */
static bool journal_lists(const char *path)
{
	char line[512], want[256];
	bool found = false;
	FILE *f = fopen(journal, "r");

	if (!f)
		return false;
	snprintf(want, sizeof(want), "restore %s ", path);
	while (fgets(line, sizeof(line), f))
		found |= !strncmp(line, want, strlen(want));
	fclose(f);
	return found;
}

/*
 * A restore that fails stays in the journal when a later one succeeds (the
 * success rewrote the journal from the pending slots and dropped it), and
 * at exit: the next memtlb retries it.
 */
static void test_failed_restore_kept(void **state)
{
	char other[160];
	pid_t pid;
	int st;

	(void)state;
	snprintf(other, sizeof(other), "%s/sys/other", root);
	put(tunable, "orig");
	put(other, "orig2");
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		int h1 = mt_cleanup_add_restore(tunable, "orig");
		int h2 = mt_cleanup_add_restore(other, "orig2");

		if (h1 < 0 || h2 < 0)
			_exit(20);
		/* A directory where the file was: the write back fails (EISDIR). */
		if (unlink(tunable) || mkdir(tunable, 0755))
			_exit(21);
		if (mt_cleanup_run(h1) != -EISDIR)
			_exit(22);
		if (mt_cleanup_run(h2))
			_exit(23);
		if (!journal_lists(tunable))
			_exit(24);
		if (journal_lists(other))
			_exit(25);
		exit(0);	/* the atexit hook: the journal still stays */
	}
	st = reap(pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	assert_true(journal_lists(tunable));
	assert_false(journal_lists(other));
	rmdir(tunable);
}

/*
 * A write back cut short put part of the value in place: a failed restore,
 * kept in the journal, not a done one (the write's count was not checked).
 * A file size limit cuts it here, as a signal or a full page could.
 */
static void test_short_write_kept(void **state)
{
	pid_t pid;
	int st;

	(void)state;
	put(tunable, "orig");
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		struct rlimit four = { 4, RLIM_INFINITY };
		int h = mt_cleanup_add_restore(tunable, "original value");

		if (h < 0)
			_exit(20);
		put(tunable, "changed");
		signal(SIGXFSZ, SIG_IGN);
		if (setrlimit(RLIMIT_FSIZE, &four))
			_exit(21);
		if (mt_cleanup_run(h) != -EIO)
			_exit(22);
		if (!journal_lists(tunable))
			_exit(23);
		exit(0);
	}
	st = reap(pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	assert_true(journal_lists(tunable));
}

/*
 * Every byte a value can hold, a page of it less its NUL (a tunable's
 * longest), through the journal the registry writes and the reader the
 * replay uses: the same bytes back, the path too.
 */
static void test_journal_round_trip(void **state)
{
	char value[4096], path[160];
	pid_t pid;
	int st;

	(void)state;
	for (size_t i = 0; i < sizeof(value) - 1; i++)
		value[i] = (char)(i % 255 + 1);
	value[sizeof(value) - 1] = '\0';
	snprintf(path, sizeof(path), "%s/sys/a b%%c\n\xff", root);
	put(path, "orig");
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		if (mt_cleanup_add_restore(path, value) < 0)
			_exit(20);
		_exit(0);	/* no atexit hook: the journal stays, as after SIGKILL */
	}
	st = reap(pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	{
		size_t lines, bad;
		char *text, *l, *p, *v;
		long jpid;

		text = mt_journal_read(journal, &lines, &jpid, &bad);
		assert_non_null(text);
		assert_int_equal(lines, 3);
		assert_int_equal(jpid, pid);
		l = text + strlen(text) + 1;
		l += strlen(l) + 1;
		assert_int_equal(mt_journal_parse_restore(l, &p, &v), 0);
		assert_string_equal(p, path);
		assert_int_equal(strlen(v), strlen(value));
		assert_memory_equal(v, value, strlen(value));
		free(text);
	}
	unlink(path);
	unlink(journal);
}

/* A pool size that is not a count alone is refused: it would be saved, then written back. */
static void test_pool_count_strict(void **state)
{
	static const char *const bad[] = {
		"12abc\n", "-1\n", "99999999999999999999\n",
		"1111111111111111111111111111111111111111111111111111111111111111111\n", "\n",
	};
	char dir[192], file[256], cmd[256];
	struct mt_hugepool_state st;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/sys/kernel/mm/hugepages/hugepages-2048kB", root);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", dir);
	assert_int_equal(system(cmd), 0);
	snprintf(file, sizeof(file), "%s/free_hugepages", dir);
	put(file, "0\n");
	snprintf(file, sizeof(file), "%s/nr_hugepages", dir);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		put(file, bad[i]);
		if (mt_hugetlb_pool_read(2048, &st) != -EINVAL)
			fail_msg("nr_hugepages '%s' taken as a count", bad[i]);
	}
	put(file, "12\n");
	assert_int_equal(mt_hugetlb_pool_read(2048, &st), 0);
	assert_int_equal(st.total, 12);
}

/* More restores than memtlb ever lists: damaged, not read into memory without end. */
static void test_journal_lines_bounded(void **state)
{
	size_t lines, bad;
	long pid;
	FILE *f;

	(void)state;
	/* any file will do: the reader is given its path */
	for (int pass = 0; pass < 2; pass++) {
		size_t n = pass ? MT_JOURNAL_RESTORES_MAX + 1 : MT_JOURNAL_RESTORES_MAX;

		f = fopen(tunable, "w");
		assert_non_null(f);
		fputs("memtlb journal\npid 42\n", f);
		for (size_t i = 0; i < n; i++)
			fprintf(f, "restore /sys/t%zu %zu\n", i, i);
		fclose(f);
		free(mt_journal_read(tunable, &lines, &pid, &bad));
		if (pass)
			assert_int_equal(bad, MT_JOURNAL_RESTORES_MAX + 3);
		else
			assert_int_equal(bad, 0);
	}
}

/* Lines memtlb never writes are refused, each field strictly: never a guess. */
static void test_parse_strict(void **state)
{
	static const char *const bad[] = {
		"restore /a ma%00dvise", "restore /a %00x", "restore /a ", "restore  x",
		"restore /a b c", "restore /a %4", "restore /a %G1", "restore /a%2 x",
		"restore /a", "restor /a x", "restore /a %0a%00", "restore %00 %00",
	};
	static const char *const badf[] = {
		"file ", "file /a%00b", "file /a 1 2", "file /a 1 2 3", "file /a 1 2 3.1",
		"file /a x 2 3.000000000", "file /a 1 2 3.0000000001", "file /a 1 2 -3.000000000",
		"file /a  1 2 3.000000000", "file /a 1 2 3.000000000 ", "file /a 1 2 3.000000000 4",
		"file /a 1 2 3.1000000000", "file /a 99999999999999999999 2 3.000000000",
	};
	struct mt_journal_file f;
	char line[256], *p, *v;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(line, sizeof(line), "%s", bad[i]);
		if (!mt_journal_parse_restore(line, &p, &v))
			fail_msg("'%s' taken as a restore", bad[i]);
	}
	for (size_t i = 0; i < sizeof(badf) / sizeof(badf[0]); i++) {
		snprintf(line, sizeof(line), "%s", badf[i]);
		if (!mt_journal_parse_file(line, &f))
			fail_msg("'%s' taken as a file", badf[i]);
	}
	snprintf(line, sizeof(line), "restore /a%%20b %%00");
	assert_int_equal(mt_journal_parse_restore(line, &p, &v), 0);
	assert_string_equal(p, "/a b");
	assert_string_equal(v, "");
	snprintf(line, sizeof(line), "restore /a x%%0Ay%%25%%0a");
	assert_int_equal(mt_journal_parse_restore(line, &p, &v), 0);
	assert_string_equal(v, "x\ny%\n");
	snprintf(line, sizeof(line), "file /b%%20c 7 8 9.000000001");
	assert_int_equal(mt_journal_parse_file(line, &f), 0);
	assert_string_equal(f.path, "/b c");
	assert_true(f.created && f.dev == 7 && f.ino == 8 && f.born.tv_sec == 9 &&
		    f.born.tv_nsec == 1);
	snprintf(line, sizeof(line), "file /b");
	assert_int_equal(mt_journal_parse_file(line, &f), 0);
	assert_false(f.created);
}

/* SIGKILL: nothing runs; the journal says what to restore, and the next memtlb does. */
static void test_journal_after_sigkill(void **state)
{
	int ready[2];
	pid_t pid;
	char c;
	int st;

	(void)state;
	put(tunable, "orig\n");
	assert_int_equal(pipe(ready), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		close(ready[0]);
		if (mt_cleanup_add_restore(tunable, "orig\n") < 0)
			_exit(30);
		put(tunable, "changed");
		if (write(ready[1], "r", 1) != 1)
			_exit(31);
		pause();
		_exit(32);
	}
	close(ready[1]);
	assert_int_equal(read(ready[0], &c, 1), 1);
	close(ready[0]);
	kill(pid, SIGKILL);
	st = reap(pid);
	assert_true(WIFSIGNALED(st));
	assert_true(holds(tunable, "changed"));
	assert_true(exists(journal));
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		char note[512];

		if (mt_journal_lock(false, NULL, note, sizeof(note)))
			_exit(33);
		if (!strstr(note, "restored") || !strstr(note, tunable))
			_exit(34);
		_exit(strcmp(note, mt_journal_note()) ? 35 : 0);
	}
	st = reap(pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	/* The exact bytes, newline included, and the journal removed. */
	assert_true(holds(tunable, "orig\n"));
	assert_false(exists(journal));
}

/* A second memtlb finds the lock held, and whose it is; free again once the first ends. */
static void test_lock_held(void **state)
{
	int ready[2], done[2];
	pid_t holder, pid, seen;
	char c;
	int st;

	(void)state;
	assert_int_equal(pipe(ready), 0);
	assert_int_equal(pipe(done), 0);
	holder = fork();
	assert_true(holder >= 0);
	if (!holder) {
		close(ready[0]);
		close(done[1]);
		if (mt_journal_lock(true, NULL, NULL, 0))
			_exit(40);
		if (write(ready[1], "r", 1) != 1)
			_exit(41);
		_exit(read(done[0], &c, 1) < 0 ? 42 : 0);
	}
	close(ready[1]);
	close(done[0]);
	assert_int_equal(read(ready[0], &c, 1), 1);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		if (mt_journal_lock(false, &seen, NULL, 0) != -EWOULDBLOCK)
			_exit(43);
		_exit(seen == holder ? 0 : 44);
	}
	st = reap(pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	close(done[1]);
	st = reap(holder);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid)
		_exit(mt_journal_lock(false, &seen, NULL, 0) ? 45 : 0);
	st = reap(pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	close(ready[0]);
}

/*
 * mTHP sizes under a fixture sysroot: those offered for anon and shmem,
 * one made the only one (madvise, advise; the others never) and each
 * control put back as it was; a killed memtlb leaves them in the journal.
 */
static void mthp_dir(const char *kb, const char *enabled, const char *shmem)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/sys/kernel", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/sys/kernel/mm", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/sys/kernel/mm/transparent_hugepage", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/sys/kernel/mm/transparent_hugepage/hugepages-%skB",
		 root, kb);
	mkdir(path, 0755);
	strcat(path, "/");
	if (enabled) {
		char f[300];

		snprintf(f, sizeof(f), "%senabled", path);
		put(f, enabled);
	}
	if (shmem) {
		char f[300];

		snprintf(f, sizeof(f), "%sshmem_enabled", path);
		put(f, shmem);
	}
}

static bool mthp_holds(const char *kb, const char *file, const char *s)
{
	char path[300];

	snprintf(path, sizeof(path), "%s/sys/kernel/mm/transparent_hugepage/hugepages-%skB/%s",
		 root, kb, file);
	return holds(path, s);
}

static void test_mthp_use_restore(void **state)
{
	uint64_t sizes[MT_MTHP_MAX];
	pid_t pid;
	int st;

	(void)state;
	mthp_dir("8", NULL, "always inherit within_size advise [never]\n");
	mthp_dir("64", "always inherit madvise [never]\n", "always [inherit] advise never\n");
	mthp_dir("16", "always [inherit] madvise never\n", "always inherit advise [never]\n");
	mthp_dir("2048", "always [inherit] madvise never\n", "never\n");
	assert_int_equal(mt_mthp_sizes(false, sizes, MT_MTHP_MAX), 3);
	assert_int_equal(sizes[0], 16 << 10);
	assert_int_equal(sizes[2], 2048 << 10);
	assert_int_equal(mt_mthp_sizes(true, sizes, MT_MTHP_MAX), 4);
	assert_int_equal(sizes[0], 8 << 10);
	assert_false(mt_mthp_offered(false, 8 << 10));
	assert_true(mt_mthp_offered(true, 8 << 10));
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		struct mt_mthp_run run;

		if (mt_mthp_use(64 << 10, false, &run) || run.n != 3)
			_exit(3);
		if (!mthp_holds("64", "enabled", "madvise") ||
		    !mthp_holds("16", "enabled", "never") ||
		    !mthp_holds("2048", "enabled", "never") || !exists(journal))
			_exit(4);
		/* shmem's controls are another set: untouched */
		if (!mthp_holds("64", "shmem_enabled", "always [inherit] advise never\n"))
			_exit(5);
		if (mt_mthp_restore(&run))
			_exit(6);
		if (!mthp_holds("64", "enabled", "never") ||
		    !mthp_holds("16", "enabled", "inherit") ||
		    !mthp_holds("2048", "enabled", "inherit") || exists(journal))
			_exit(7);
		/* killed while a size is set: the journal keeps every control */
		if (mt_mthp_use(16 << 10, true, &run) || run.n != 4)
			_exit(8);
		if (!mthp_holds("16", "shmem_enabled", "advise") ||
		    !mthp_holds("8", "shmem_enabled", "never"))
			_exit(9);
		raise(SIGKILL);
	}
	st = reap(pid);
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
	assert_true(exists(journal));
	assert_true(mthp_holds("16", "shmem_enabled", "advise"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_fatal_signals_restore, setup, teardown),
		cmocka_unit_test_setup_teardown(test_same_path_once, setup, teardown),
		cmocka_unit_test_setup_teardown(test_journal_written_removed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_journal_after_sigkill, setup, teardown),
		cmocka_unit_test_setup_teardown(test_failed_restore_kept, setup, teardown),
		cmocka_unit_test_setup_teardown(test_short_write_kept, setup, teardown),
		cmocka_unit_test(test_parse_strict),
		cmocka_unit_test_setup_teardown(test_journal_lines_bounded, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pool_count_strict, setup, teardown),
		cmocka_unit_test_setup_teardown(test_journal_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lock_held, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mthp_use_restore, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
