// SPDX-License-Identifier: MIT
/*
 * The first-touch roofline's calibration: how fast this CPU clears memory
 * from user space, and what a fault costs that neither allocates nor
 * clears. analysis/roofline splits each matrix row's first touch with it.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "measure/roofline.h"
#include "workload/clear.h"
#include "workload/touch.h"

/* Repetitions of each figure: the median of 5 shrugs off one preemption. */
#define REPS 5
/*
 * The clear buffer: 4 x the LLC, so that every repetition clears memory
 * the cache does not hold, as the kernel clears a folio fresh from the
 * allocator; at least 64 MiB (an LLC not known), at most 512 MiB (the
 * time budget: 15 clears of it at a few GB/s stay within a second or two).
 */
#define BUFFER_MIN (64ull << 20)
#define BUFFER_MAX (512ull << 20)
/* The floor's faults per repetition: 16 MiB of address space, no memory. */
#define FLOOR_PAGES 4096u

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* method over buf[0..len) in chunks, REPS times: the median bytes per ns. */
static int clear_rate(int method, char *buf, uint64_t len, uint64_t chunk, double *gbps)
{
	uint64_t n = len / chunk;
	double r[REPS];

	for (unsigned int i = 0; i < REPS; i++) {
		double t0 = now_ns(), dt;

		for (uint64_t c = 0; c < n; c++) {
			int ret = mt_clear_run(method, buf + c * chunk, chunk);

			if (ret)
				return ret;
		}
		dt = now_ns() - t0;
		r[i] = dt > 0 ? (double)(n * chunk) / dt : NAN;
	}
	*gbps = median(r, REPS);
	return isfinite(*gbps) ? 0 : -EIO;
}

/* A folio size the clear can stand for: a multiple of 64 within the buffer. */
static bool chunk_ok(uint64_t chunk, uint64_t buffer)
{
	return chunk && chunk % 64 == 0 && chunk <= buffer;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The clear figures: every method at the largest chunk, the fastest at each. */
static int clears(struct mt_roofline *rf, const uint64_t *folios, size_t n, uint64_t llc)
{
	uint64_t sizes[MT_ROOFLINE_CHUNKS], largest = 0;
	size_t k = 0;
	char *buf;
	int ret = 0;

	for (size_t i = 0; i < n && k < MT_ROOFLINE_CHUNKS; i++)
		if (folios[i] && folios[i] <= BUFFER_MAX)
			sizes[k++] = folios[i];
	qsort(sizes, k, sizeof(*sizes), cmp_u64);
	if (k)
		largest = sizes[k - 1];
	rf->buffer = llc * 4 < BUFFER_MIN ? BUFFER_MIN : llc * 4 > BUFFER_MAX ? BUFFER_MAX
										 : llc * 4;
	if (rf->buffer < largest)
		rf->buffer = largest;
	/* whole chunks of every size: the buffer a multiple of the largest */
	if (largest)
		rf->buffer = (rf->buffer + largest - 1) / largest * largest;
	buf = mmap(NULL, rf->buffer, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		return -errno;
	/*
	 * The kernel clears through its direct map, in large pages: huge pages
	 * here, where THP allows, keep TLB misses out of the clear (advice
	 * only; base pages add a miss per 4 KiB, small beside the clear).
	 */
	madvise(buf, rf->buffer, MADV_HUGEPAGE);
	/* faulted in, untimed: the figures are the clears, not the faults */
	ret = mt_clear_run(MT_CLEAR_REP_STOSB, buf, rf->buffer);
	if (ret == -EOPNOTSUPP)
		ret = 0;	/* no method here: the roofline has no zeroing part */
	if (!largest)
		largest = rf->buffer;
	for (int m = 0; !ret && m < MT_CLEAR_METHODS; m++) {
		struct mt_roofline_clear *c = &rf->methods[rf->n_methods];

		if (!mt_clear_supported(m))
			continue;
		c->method = m;
		c->chunk = largest;
		ret = clear_rate(m, buf, rf->buffer, largest, &c->gbps);
		if (!ret && (rf->ceiling < 0 || c->gbps > rf->methods[rf->ceiling].gbps))
			rf->ceiling = (int)rf->n_methods;
		if (!ret)
			rf->n_methods++;
	}
	for (size_t i = 0; !ret && rf->ceiling >= 0 && i < k; i++) {
		struct mt_roofline_clear *c = &rf->chunks[rf->n_chunks];

		if ((i && sizes[i] == sizes[i - 1]) || !chunk_ok(sizes[i], rf->buffer))
			continue;
		c->method = rf->methods[rf->ceiling].method;
		c->chunk = sizes[i];
		ret = clear_rate(c->method, buf, rf->buffer, sizes[i], &c->gbps);
		if (!ret)
			rf->n_chunks++;
	}
	/* the ceiling by method, as the report names it */
	if (rf->ceiling >= 0)
		rf->ceiling = rf->methods[rf->ceiling].method;
	munmap(buf, rf->buffer);
	return ret;
}

/*
 * One repetition of the floor: FLOOR_PAGES read faults, their time and the
 * minor faults getrusage counted over them (this thread's alone).
 *
 * Why a floor for the write fault of a first touch: a read fault on a
 * private anonymous page that was never written maps the shared zero page
 * (do_anonymous_page), so it takes the same way in and out as the write
 * fault (exception entry, with PTI's page-table switch here, the VMA
 * lookup under its lock, the page-table walk, one PTE set, the return to
 * user space) and the same page-table allocation once per 2 MiB, but
 * allocates no folio, charges no memcg, clears nothing and adds nothing to
 * the LRU or the rmap. A write fault cannot cost less than it. With
 * MADV_NOHUGEPAGE the range may not get the huge zero page (one fault per
 * 2 MiB), and no mTHP size applies to a read fault: one fault per page.
 */
static int floor_once(long page, double *ns, uint64_t *faults)
{
	size_t len = (size_t)FLOOR_PAGES * (size_t)page;
	struct rusage a, b;
	double t0, t1;
	char *p, *bad;

	p = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	/* advice: where it fails, the fault count below says what happened */
	madvise(p, len, MADV_NOHUGEPAGE);
	getrusage(RUSAGE_THREAD, &a);
	t0 = now_ns();
	bad = mt_touch_verify(p, FLOOR_PAGES, (uint64_t)page, 0);
	t1 = now_ns();
	getrusage(RUSAGE_THREAD, &b);
	munmap(p, len);
	if (bad)
		return -EIO;	/* not the zero page: no floor */
	*faults = (uint64_t)(b.ru_minflt - a.ru_minflt);
	*ns = t1 - t0;
	return 0;
}

static int entry_floor(struct mt_roofline *rf)
{
	long page = sysconf(_SC_PAGESIZE);
	double per[REPS];
	bool none = false;

	for (unsigned int i = 0; i < REPS; i++) {
		uint64_t faults = 0;
		double ns = 0;
		int ret = floor_once(page > 0 ? page : 4096, &ns, &faults);

		if (ret)
			return ret;
		rf->floor_touches += FLOOR_PAGES;
		rf->floor_faults += faults;
		per[i] = faults ? ns / (double)faults : 0;
		none |= !faults;
	}
	/* a repetition without faults has no figure: none of them is the floor */
	rf->floor_ns = none ? NAN : median(per, REPS);
	return 0;
}

int mt_roofline_measure(struct mt_roofline *rf, const uint64_t *folios, size_t n, uint64_t llc)
{
	double t0 = now_ns();
	int ret;

	if (!rf)
		return -EINVAL;
	mt_roofline_init(rf);
	rf->reps = REPS;
	ret = clears(rf, folios, n, llc);
	if (!ret)
		ret = entry_floor(rf);
	rf->seconds = (now_ns() - t0) / 1e9;
	rf->measured = !ret;
	return ret;
}
