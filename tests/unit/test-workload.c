// SPDX-License-Identifier: MIT
/* The random order, the regions, the tasks' faults, the smaps reader and the
 * cleanup registry. */
#include <dirent.h>
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
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include <linux/perf_event.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "cli/cli.h"
#include "model/config.h"
#include "sys/cleanup.h"
#include "sys/mapinfo.h"
#include "workload/region.h"
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

#ifdef __SANITIZE_ADDRESS__
#define SANITIZED 1
#else
#define SANITIZED 0
#endif

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

static char dir[] = "/tmp/memtlb-unit-XXXXXX";

/* Every backing maps, holds what was written, and the file is gone after. */
static void test_region_backings(void **state)
{
	static const enum mt_backing backings[] = {
		MT_BACKING_ANON, MT_BACKING_SHARED, MT_BACKING_MEMFD, MT_BACKING_SHM, MT_BACKING_FILE,
	};
	char path[PATH_MAX];

	(void)state;
	for (size_t b = 0; b < sizeof(backings) / sizeof(backings[0]); b++) {
		struct mt_mapinfo mi = { 0 };
		struct mt_config cfg;
		struct mt_region r;
		char *p[2];
		struct stat st;

		mt_config_init(&cfg);
		cfg.region = 1 << 20;
		cfg.pages = MT_PAGES_BASE;
		cfg.backing = backings[b];
		cfg.file_path = dir;
		mt_region_init(&r, &cfg, 2);
		assert_int_equal(mt_region_open(&r), 0);
		assert_int_equal(mt_region_file(&r) != NULL, backings[b] == MT_BACKING_FILE);
		if (mt_region_file(&r)) {
			snprintf(path, sizeof(path), "%s", mt_region_file(&r));
			assert_int_equal(stat(path, &st), 0);
			assert_int_equal(st.st_size, 2 << 20);	/* a slice per mapping */
		}
		for (unsigned int i = 0; i < 2; i++) {
			assert_int_equal(mt_region_map(&r, i, &p[i]), 0);
			*(volatile uint64_t *)p[i] = 100 + i;
			*(volatile uint64_t *)(p[i] + cfg.region - 8) = 200 + i;
		}
		for (unsigned int i = 0; i < 2; i++) {
			assert_int_equal(*(volatile uint64_t *)p[i], 100 + i);
			assert_int_equal(*(volatile uint64_t *)(p[i] + cfg.region - 8), 200 + i);
			assert_int_equal(mt_region_unmap(&r, p[i]), 0);
		}
		mt_region_drop_cache(&r, &mi);
		assert_int_equal(mi.cache_checked, backings[b] == MT_BACKING_FILE);
		if (mi.cache_checked)
			assert_int_equal(mi.cache_pages, (2u << 20) / sysconf(_SC_PAGESIZE));
		mt_region_close(&r);
		if (backings[b] == MT_BACKING_FILE)
			assert_int_equal(stat(path, &st), -1);
	}
}

/* The file of an existing path is never taken over (O_EXCL). */
static void test_region_file_exists(void **state)
{
	struct mt_config cfg;
	struct mt_region r;
	char path[64];
	int fd;

	(void)state;
	snprintf(path, sizeof(path), "%s/mine", dir);
	fd = open(path, O_CREAT | O_WRONLY, 0600);
	assert_true(fd >= 0);
	close(fd);
	mt_config_init(&cfg);
	cfg.region = 1 << 20;
	cfg.backing = MT_BACKING_FILE;
	cfg.file_path = path;
	mt_region_init(&r, &cfg, 1);
	assert_int_equal(mt_region_open(&r), -EEXIST);
	assert_null(mt_region_file(&r));
	mt_region_close(&r);
	assert_int_equal(access(path, F_OK), 0);
	unlink(path);
}

/*
 * A full file system is -ENOSPC when the file is made, and no file is
 * left (it was SIGBUS at the first touch past the end of the room).
 */
static void test_region_file_full(void **state)
{
	struct mt_config cfg;
	struct mt_region r;
	struct dirent *de;
	char mnt[64];
	int left = 0, ret;
	bool named;
	DIR *dh;

	(void)state;
	snprintf(mnt, sizeof(mnt), "%s/full", dir);
	assert_int_equal(mkdir(mnt, 0700), 0);
	if (mount("memtlb-unit", mnt, "tmpfs", 0, "size=1m")) {
		rmdir(mnt);
		skip();
	}
	mt_config_init(&cfg);
	cfg.region = 4 << 20;
	cfg.pages = MT_PAGES_BASE;
	cfg.backing = MT_BACKING_FILE;
	cfg.file_path = mnt;
	mt_region_init(&r, &cfg, 1);
	ret = mt_region_open(&r);
	named = mt_region_file(&r) != NULL;
	mt_region_close(&r);
	dh = opendir(mnt);
	while (dh && (de = readdir(dh)))
		left += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	if (dh)
		closedir(dh);
	/* Unmounted before any assert: a failure leaves no mount behind. */
	assert_int_equal(umount(mnt), 0);
	assert_int_equal(ret, -ENOSPC);
	assert_false(named);
	assert_int_equal(left, 0);
	assert_int_equal(rmdir(mnt), 0);
}

/*
 * Minor faults of this process and, inherited, of its tasks: what memtlb
 * counts. -1 where perf_event_open is refused (a container, a seccomp
 * filter); user-only where perf_event_paranoid asks for it.
 */
static int fault_counter(void)
{
	struct perf_event_attr a = {
		.size = sizeof(a), .type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_PAGE_FAULTS_MIN, .inherit = 1, .exclude_hv = 1,
	};
	int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);

	if (fd < 0 && (errno == EACCES || errno == EPERM)) {
		a.exclude_kernel = 1;
		fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	}
	return fd;
}

#define FAULT_ITERS 3
#define FAULT_PHASES 6

/* Per phase and iteration: the counter (-1: none) and this thread's own faults. */
struct fault_log {
	int fd;
	unsigned int iter;
	uint64_t v0;
	long ru0;
	int64_t counted[FAULT_ITERS][FAULT_PHASES];
	long own[FAULT_ITERS][FAULT_PHASES];
};

static uint64_t counter_value(int fd)
{
	uint64_t v = 0;

	if (fd >= 0 && read(fd, &v, sizeof(v)) != sizeof(v))
		v = 0;
	return v;
}

/* Nested like memtlb's: the counter inside the thread's rusage. */
static int fault_hook(void *arg, unsigned int phase, bool end)
{
	struct fault_log *f = arg;
	struct rusage ru;
	uint64_t v;

	if (!end) {
		getrusage(RUSAGE_THREAD, &ru);
		f->ru0 = ru.ru_minflt;
		f->v0 = counter_value(f->fd);
		return 0;
	}
	v = counter_value(f->fd);
	getrusage(RUSAGE_THREAD, &ru);
	f->counted[f->iter][phase] = f->fd >= 0 ? (int64_t)(v - f->v0) : -1;
	f->own[f->iter][phase] = ru.ru_minflt - f->ru0;
	return 0;
}

/*
 * Tasks, both kinds, private and shared regions: in every iteration (the
 * first one too, with the tasks just started) the counted faults of a
 * phase are the workload's own: one per block in write_0, none elsewhere;
 * and the coordinator itself takes none.
 */
static void test_tasks_count_only_the_workload(void **state)
{
	static const struct {
		enum mt_task_mode mode;
		enum mt_task_region region;
		enum mt_backing backing;
	} runs[] = {
		{ MT_TASK_PROCESS, MT_TASK_REGION_PRIVATE, MT_BACKING_ANON },
		{ MT_TASK_PROCESS, MT_TASK_REGION_SHARED, MT_BACKING_SHARED },
		{ MT_TASK_THREAD, MT_TASK_REGION_PRIVATE, MT_BACKING_ANON },
		{ MT_TASK_THREAD, MT_TASK_REGION_SHARED, MT_BACKING_ANON },
	};
	int fd = fault_counter();

	(void)state;
	if (fd < 0)
		print_message("# no perf_event_open (%s): the coordinator's own faults only\n",
			      strerror(errno));
	for (size_t r = 0; r < sizeof(runs) / sizeof(runs[0]); r++) {
		struct fault_log f = { .fd = fd };
		struct mt_mismatch bad = { 0 };
		uint64_t t[FAULT_PHASES];
		struct mt_workload *w;
		struct mt_config cfg;

		mt_config_init(&cfg);
		cfg.region = 4 << 20;
		cfg.passes = 2;
		cfg.pages = MT_PAGES_BASE;
		cfg.backing = runs[r].backing;
		cfg.tasks = 2;
		cfg.task_mode = runs[r].mode;
		cfg.task_region = runs[r].region;
		assert_int_equal(mt_workload_create(&w, &cfg), 0);
		assert_int_equal(mt_workload_phases(w), FAULT_PHASES);
		for (f.iter = 0; f.iter < FAULT_ITERS; f.iter++)
			assert_int_equal(mt_workload_iterate(w, f.iter, t, fault_hook, &f, &bad), 0);
		/*
		 * Under ASan the instrumented code writes its shadow memory in
		 * every phase, copy-on-write after a fork: exact counts are the
		 * release build's to check (tests/cli/tasks-faults.sh likewise).
		 */
		for (unsigned int i = 0; !SANITIZED && i < FAULT_ITERS; i++) {
			for (unsigned int p = 0; p < FAULT_PHASES; p++) {
				const char *name = mt_workload_phase_name(w, p);
				int64_t want = strcmp(name, "write_0") ? 0 : (int64_t)mt_workload_blocks(w);

				if (f.counted[i][p] != (fd < 0 ? -1 : want) || f.own[i][p] != 0)
					fail_msg("%s %s: iteration %u, %s: %lld faults counted (want "
						 "%lld), %ld of the coordinator's own",
						 mt_task_mode_name(cfg.task_mode),
						 mt_task_region_name(cfg.task_region), i, name,
						 (long long)f.counted[i][p], (long long)want, f.own[i][p]);
			}
		}
		mt_workload_destroy(w);
	}
	if (fd >= 0)
		close(fd);
}

/* This thread's children, from /proc (0 if the kernel does not list them). */
static size_t children(pid_t *pid, size_t max)
{
	FILE *fp = fopen("/proc/thread-self/children", "r");
	size_t n = 0;
	int v;

	if (!fp)
		return 0;
	while (n < max && fscanf(fp, "%d", &v) == 1)
		pid[n++] = v;
	fclose(fp);
	return n;
}

static int count_hook(void *arg, unsigned int phase, bool end)
{
	(void)phase;
	(void)end;
	++*(unsigned int *)arg;
	return 0;
}

/*
 * Forked tasks with private regions are forked once and serve every
 * iteration (no fork, and no copy-on-write after it, per iteration); those
 * sharing the coordinator's region are forked after its mmap and gone
 * after each iteration. None is left after destroy.
 */
static void test_tasks_kept_for_the_run(void **state)
{
	struct mt_mismatch bad = { 0 };
	pid_t first[4], now[4];
	struct mt_workload *w;
	struct mt_config cfg;
	unsigned int calls = 0;
	uint64_t t[FAULT_PHASES];
	size_t n;

	(void)state;
	if (access("/proc/thread-self/children", R_OK))
		skip();
	mt_config_init(&cfg);
	cfg.region = 1 << 20;
	cfg.passes = 2;
	cfg.tasks = 2;
	cfg.task_mode = MT_TASK_PROCESS;
	cfg.task_region = MT_TASK_REGION_PRIVATE;
	assert_int_equal(mt_workload_create(&w, &cfg), 0);
	assert_int_equal(mt_workload_iterate(w, 0, t, count_hook, &calls, &bad), 0);
	n = children(first, 4);
	assert_int_equal(n, 2);
	for (unsigned int i = 1; i < 3; i++) {
		assert_int_equal(mt_workload_iterate(w, i, t, count_hook, &calls, &bad), 0);
		assert_int_equal(children(now, 4), 2);
		assert_memory_equal(now, first, 2 * sizeof(*now));
	}
	mt_workload_destroy(w);
	assert_int_equal(children(now, 4), 0);

	cfg.backing = MT_BACKING_SHARED;
	cfg.task_region = MT_TASK_REGION_SHARED;
	assert_int_equal(mt_workload_create(&w, &cfg), 0);
	assert_int_equal(mt_workload_iterate(w, 0, t, count_hook, &calls, &bad), 0);
	assert_int_equal(children(now, 4), 0);
	mt_workload_destroy(w);
	assert_int_equal(calls, 4 * 2 * FAULT_PHASES);
}

struct kill_hook {
	unsigned int iter;
	bool killed;
};

/* At the start of write_0 of iteration 1, kill one of the tasks. */
static int kill_hook(void *arg, unsigned int phase, bool end)
{
	struct kill_hook *k = arg;
	pid_t pid[4];

	if (k->iter == 1 && phase == 1 && !end && children(pid, 4) == 2) {
		kill(pid[1], SIGKILL);
		k->killed = true;
	}
	return 0;
}

/* A kept task that dies between iterations: -ECHILD, no task left; the
 * next iteration starts new ones. */
static void test_kept_task_dies(void **state)
{
	struct mt_mismatch bad = { 0 };
	struct kill_hook k = { 0 };
	struct mt_workload *w;
	struct mt_config cfg;
	uint64_t t[FAULT_PHASES];
	pid_t pid[4];

	(void)state;
	if (access("/proc/thread-self/children", R_OK))
		skip();
	mt_config_init(&cfg);
	cfg.region = 1 << 20;
	cfg.passes = 2;
	cfg.tasks = 2;
	cfg.task_mode = MT_TASK_PROCESS;
	cfg.task_region = MT_TASK_REGION_PRIVATE;
	assert_int_equal(mt_workload_create(&w, &cfg), 0);
	assert_int_equal(mt_workload_iterate(w, 0, t, kill_hook, &k, &bad), 0);
	k.iter = 1;
	assert_int_equal(mt_workload_iterate(w, 1, t, kill_hook, &k, &bad), -ECHILD);
	assert_true(k.killed);
	assert_non_null(mt_workload_failure(w));
	assert_non_null(strstr(mt_workload_failure(w), "was killed by signal 9"));
	assert_int_equal(children(pid, 4), 0);
	k.iter = 2;
	assert_int_equal(mt_workload_iterate(w, 2, t, kill_hook, &k, &bad), 0);
	assert_int_equal(children(pid, 4), 2);
	mt_workload_destroy(w);
	assert_int_equal(children(pid, 4), 0);
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
		cmocka_unit_test(test_region_backings),
		cmocka_unit_test(test_region_file_exists),
		cmocka_unit_test(test_region_file_full),
		cmocka_unit_test(test_tasks_count_only_the_workload),
		cmocka_unit_test(test_tasks_kept_for_the_run),
		cmocka_unit_test(test_kept_task_dies),
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
