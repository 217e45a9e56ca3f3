// SPDX-License-Identifier: MIT
/*
 * touch-pages N [STATUS [MODE]]: map N anonymous private pages without THP,
 * write one byte in each (N minor faults), unmap, exit with STATUS
 * (default 0). MODE "process" touches them in a forked child, "thread" in
 * a second thread, so that a counter inherited by children and threads is
 * tested too. memtlb run's tests count its faults against N.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static long n;

static void *touch(void *arg)
{
	long page = sysconf(_SC_PAGESIZE);
	char *p;

	(void)arg;
	if (!n)
		return NULL;
	p = mmap(NULL, (size_t)n * page, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	/* One fault per page: no huge page (PMD or mTHP) may cover several. */
	if (madvise(p, (size_t)n * page, MADV_NOHUGEPAGE))
		perror("madvise");
	for (long i = 0; i < n; i++)
		((volatile char *)p)[i * page] = 1;
	munmap(p, (size_t)n * page);
	return NULL;
}

int main(int argc, char *argv[])
{
	const char *mode = argc > 3 ? argv[3] : "";
	pthread_t th;
	pid_t pid;
	int st;

	if (argc < 2 || (n = strtol(argv[1], NULL, 10)) < 0) {
		fprintf(stderr, "usage: touch-pages N [STATUS [process|thread]]\n");
		return 2;
	}
	if (!strcmp(mode, "process")) {
		pid = fork();
		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (!pid) {
			touch(NULL);
			_exit(0);
		}
		if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
			return 1;
	} else if (!strcmp(mode, "thread")) {
		if (pthread_create(&th, NULL, touch, NULL) || pthread_join(th, NULL))
			return 1;
	} else {
		touch(NULL);
	}
	return argc > 2 ? atoi(argv[2]) : 0;
}
