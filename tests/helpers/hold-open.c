// SPDX-License-Identifier: MIT
/*
 * LD_PRELOAD for tests: every perf_event_open waits until the file named by
 * MEMTLB_TEST_HOLD exists, so a test can look at memtlb at a moment it
 * chooses (memtlb run: no child before its counters are open). libperf
 * opens through libc's syscall(), which this wraps.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

long syscall(long n, ...)
{
	static long (*real)(long, ...);
	const char *hold = getenv("MEMTLB_TEST_HOLD");
	long a[6];
	va_list ap;

	if (!real)
		real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	va_start(ap, n);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (n == SYS_perf_event_open && hold) {
		/* MEMTLB_TEST_HELD: made once memtlb waits, for a test to act then */
		const char *held = getenv("MEMTLB_TEST_HELD");

		if (held && access(held, F_OK))
			close(open(held, O_WRONLY | O_CREAT | O_CLOEXEC, 0600));
		while (access(hold, F_OK))
			usleep(10000);
	}
	return real(n, a[0], a[1], a[2], a[3], a[4], a[5]);
}
