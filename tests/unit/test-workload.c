// SPDX-License-Identifier: MIT
/* The random order, the smaps reader and the cleanup registry. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include <memtlb/cleanup.h>
#include <memtlb/mapinfo.h>
#include <memtlb/workload.h>

static void test_shuffle_is_a_permutation(void **state)
{
	const uint64_t n = 100003, step = 4096;
	uint64_t *off = malloc(n * sizeof(*off)), moved = 0;
	unsigned char *seen = calloc(n, 1);

	(void)state;
	assert_non_null(off);
	assert_non_null(seen);
	mt_workload_shuffle(off, n, step, 42);
	for (uint64_t i = 0; i < n; i++) {
		assert_int_equal(off[i] % step, 0);
		assert_true(off[i] / step < n);
		assert_int_equal(seen[off[i] / step], 0);
		seen[off[i] / step] = 1;
		moved += off[i] != i * step;
	}
	/* It is an order, not the identity. */
	assert_true(moved > n / 2);
	free(off);
	free(seen);
}

static void test_shuffle_seeded(void **state)
{
	uint64_t a[64], b[64], c[64];

	(void)state;
	mt_workload_shuffle(a, 64, 8, 1);
	mt_workload_shuffle(b, 64, 8, 1);
	mt_workload_shuffle(c, 64, 8, 2);
	assert_memory_equal(a, b, sizeof(a));
	assert_memory_not_equal(a, c, sizeof(a));
}

static void test_mapinfo_self(void **state)
{
	size_t len = 4 << 20;
	struct mt_mapinfo mi;
	char *p;

	(void)state;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(p != MAP_FAILED);
	madvise(p, len, MADV_NOHUGEPAGE);
	for (size_t i = 0; i < len; i += 4096)
		p[i] = 1;
	assert_int_equal(mt_mapinfo_read(0, p, len, &mi), 0);
	assert_true(mi.valid);
	assert_int_equal(mi.rss, len);
	assert_int_equal(mi.kernel_page, 4096);
	assert_int_equal(mi.anon_huge, 0);
	assert_true(mi.align >= 4096);
	assert_int_equal((uintptr_t)p % mi.align, 0);
	munmap(p, len);
	assert_int_equal(mt_mapinfo_read(0, p, len, &mi), -ENOENT);
}

static char dir[] = "/tmp/memtlb-unit-XXXXXX";

static void test_cleanup_unlink_and_restore(void **state)
{
	char file[64], tun[64], buf[16] = "";
	int h, fd;

	(void)state;
	snprintf(file, sizeof(file), "%s/f", dir);
	snprintf(tun, sizeof(tun), "%s/tunable", dir);
	fd = open(file, O_CREAT | O_WRONLY, 0600);
	close(fd);
	h = mt_cleanup_add_unlink(file);
	assert_true(h >= 0);
	assert_int_equal(mt_cleanup_run(h), 0);
	assert_int_equal(access(file, F_OK), -1);

	/* A tunable changed for the run: the old value goes back. */
	fd = open(tun, O_CREAT | O_WRONLY, 0600);
	assert_int_equal(write(fd, "7\n", 2), 2);
	close(fd);
	h = mt_cleanup_add_restore(tun, "3\n");
	assert_true(h >= 0);
	assert_int_equal(mt_cleanup_run(h), 0);
	fd = open(tun, O_RDONLY);
	assert_int_equal(read(fd, buf, sizeof(buf)), 2);
	close(fd);
	assert_string_equal(buf, "3\n");
	unlink(tun);
}

/* SIGTERM runs the actions and the process still dies of the signal. */
static void test_cleanup_on_signal(void **state)
{
	char file[64];
	int st;
	pid_t pid;

	(void)state;
	snprintf(file, sizeof(file), "%s/sig", dir);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		int fd = open(file, O_CREAT | O_WRONLY, 0600);

		close(fd);
		if (mt_cleanup_add_unlink(file) < 0)
			_exit(3);
		/* A forked task must not run its parent's actions. */
		if (!fork()) {
			raise(SIGTERM);
			_exit(4);
		}
		wait(NULL);
		if (access(file, F_OK))
			_exit(5);
		raise(SIGTERM);
		_exit(6);
	}
	waitpid(pid, &st, 0);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGTERM);
	assert_int_equal(access(file, F_OK), -1);
}

static volatile sig_atomic_t got;

static void own_handler(int sig)
{
	got = sig;
}

/*
 * A command's own handler (sweep: stop after this point) installed before
 * the registry stays in charge: the signal does not kill, the actions wait
 * for exit. An inherited SIG_IGN stays ignored.
 */
static void test_cleanup_keeps_a_command_handler(void **state)
{
	char file[64];
	int st;
	pid_t pid;

	(void)state;
	snprintf(file, sizeof(file), "%s/chain", dir);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		struct sigaction sa = { .sa_handler = own_handler };
		int fd = open(file, O_CREAT | O_WRONLY, 0600);

		close(fd);
		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, NULL);
		signal(SIGHUP, SIG_IGN);
		if (mt_cleanup_add_unlink(file) < 0)
			_exit(3);
		raise(SIGINT);
		if (got != SIGINT || access(file, F_OK))
			_exit(4);
		raise(SIGHUP);
		if (access(file, F_OK))
			_exit(5);
		exit(0);	/* atexit runs the action */
	}
	waitpid(pid, &st, 0);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	assert_int_equal(access(file, F_OK), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shuffle_is_a_permutation),
		cmocka_unit_test(test_shuffle_seeded),
		cmocka_unit_test(test_mapinfo_self),
		cmocka_unit_test(test_cleanup_unlink_and_restore),
		cmocka_unit_test(test_cleanup_on_signal),
		cmocka_unit_test(test_cleanup_keeps_a_command_handler),
	};
	int ret;

	if (!mkdtemp(dir))
		return 1;
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	rmdir(dir);
	return ret;
}
