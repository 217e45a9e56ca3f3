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

#include "cli/cli.h"
#include "model/config.h"
#include "sys/cleanup.h"
#include "sys/mapinfo.h"
#include "workload/workload.h"

/* The hook sees every phase open then close, in order, outside its timing. */
struct hook_log {
	unsigned int calls;
	unsigned int next;	/* the phase expected next */
	bool open;
	bool out_of_order;
	const struct mt_workload *w;
	const char *corrupt;	/* phase at whose start to spoil the region */
};

static int hook(void *arg, unsigned int phase, bool end)
{
	struct hook_log *h = arg;

	h->calls++;
	if (phase != h->next || end != h->open)
		h->out_of_order = true;
	h->open = !end;
	if (end)
		h->next++;
	if (!end && h->corrupt && !strcmp(mt_workload_phase_name(h->w, phase), h->corrupt))
		*(volatile uint64_t *)(uintptr_t)mt_workload_mapinfo(h->w)->addr = 42;
	return 0;
}

static struct mt_workload *small_workload(void)
{
	struct mt_workload *w;
	struct mt_config cfg;

	mt_config_init(&cfg);
	cfg.region = 4 << 20;
	cfg.passes = 2;
	cfg.backing = MT_BACKING_ANON;
	assert_int_equal(mt_workload_create(&w, &cfg), 0);
	return w;
}

static void test_iterate_phases(void **state)
{
	struct mt_workload *w = small_workload();
	struct hook_log h = { .w = w };
	struct mt_mismatch bad = { 0 };
	uint64_t t[16] = { 0 };
	unsigned int np = mt_workload_phases(w);

	(void)state;
	assert_int_equal(np, 6);	/* mmap, write_0, read_0, write_1, read_1, munmap */
	assert_string_equal(mt_workload_phase_name(w, 0), "mmap");
	assert_string_equal(mt_workload_phase_name(w, 4), "read_1");
	assert_int_equal(mt_workload_iterate(w, 0, t, hook, &h, &bad), 0);
	assert_false(h.out_of_order);
	assert_int_equal(h.calls, 2 * np);
	for (unsigned int p = 0; p < np; p++)
		assert_true(t[p] > 0);
	assert_int_equal(mt_workload_blocks(w), (4 << 20) / sysconf(_SC_PAGESIZE));
	mt_workload_destroy(w);
}

static void test_iterate_mismatch(void **state)
{
	struct mt_workload *w = small_workload();
	struct hook_log h = { .w = w, .corrupt = "read_0" };
	struct mt_mismatch bad = { 0 };
	uint64_t t[16] = { 0 };

	(void)state;
	/* The evidence iteration knows where the region is: spoil its first word. */
	mt_workload_set_evidence(w, true);
	assert_int_equal(mt_workload_iterate(w, 3, t, hook, &h, &bad), -EILSEQ);
	assert_string_equal(bad.phase, "read_0");
	assert_int_equal(bad.iter, 3);
	assert_int_equal((uintptr_t)bad.addr, mt_workload_mapinfo(w)->addr);
	assert_int_equal(bad.expected, mt_workload_pattern(0));
	assert_int_equal(bad.found, 42);
	mt_workload_destroy(w);
}

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
	assert_int_equal(mi.kernel_page, (uint64_t)sysconf(_SC_PAGESIZE));
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
		cmocka_unit_test(test_iterate_phases),
		cmocka_unit_test(test_iterate_mismatch),
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
