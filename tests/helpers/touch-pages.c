// SPDX-License-Identifier: MIT
/*
 * touch-pages N [STATUS]: map N anonymous private pages without THP, write
 * one byte in each (N minor faults), unmap, exit with STATUS (default 0).
 * memtlb run's tests count its faults against N.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char *argv[])
{
	long page = sysconf(_SC_PAGESIZE), n;
	char *p;

	if (argc < 2 || (n = strtol(argv[1], NULL, 10)) < 0) {
		fprintf(stderr, "usage: touch-pages N [STATUS]\n");
		return 2;
	}
	if (n) {
		p = mmap(NULL, (size_t)n * page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			perror("mmap");
			return 1;
		}
		/* One fault per page: no huge page may cover several. */
		if (madvise(p, (size_t)n * page, MADV_NOHUGEPAGE))
			perror("madvise");
		for (long i = 0; i < n; i++)
			((volatile char *)p)[i * page] = 1;
		munmap(p, (size_t)n * page);
	}
	return argc > 2 ? atoi(argv[2]) : 0;
}
