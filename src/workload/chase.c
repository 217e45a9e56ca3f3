// SPDX-License-Identifier: MIT
/*
 * The pointer chase of memtlb probe. Built with -O2 like touch.c: the loop
 * must be one dependent load per step and nothing else.
 */
#include <stddef.h>
#include <stdint.h>

#include "workload/chase.h"

#define LINE 64

/* xorshift64*: reproducible shuffles without libc's global state. */
static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1Dull;
}

/* splitmix64: a value from (seed, j), with no table to keep. */
static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/*
 * Slot j's line in its page: each run of as many slots as a page has lines
 * takes every line once, rotated at random. The L1 data cache is indexed by
 * the line's place in the page, so it is loaded evenly, as the packed
 * control's consecutive lines load it: a random line per page would fill
 * some sets early and show a data-cache step in base - packed.
 */
static char *slot(char *base, size_t j, size_t stride, uint64_t seed)
{
	size_t lines = stride / LINE;

	return base + j * stride + (lines > 1 ? (j + mix(seed ^ (j / lines))) % lines * LINE : 0);
}

static void shuffle(size_t n, uint64_t seed, size_t *order)
{
	uint64_t s = seed | 1;

	for (size_t i = 0; i < n; i++)
		order[i] = i;
	/* Fisher-Yates over all but the first: a random single cycle from slot 0. */
	for (size_t i = n - 1; i > 1; i--) {
		size_t k = 1 + (size_t)(next_rand(&s) % i);
		size_t t = order[i];

		order[i] = order[k];
		order[k] = t;
	}
}

static void **link_order(char *base, size_t n, size_t stride, uint64_t seed,
			 const size_t *order)
{
	for (size_t i = 0; i < n; i++)
		*(void **)slot(base, order[i], stride, seed) =
			slot(base, order[(i + 1) % n], stride, seed);
	return (void **)slot(base, order[0], stride, seed);
}

void **mt_chase_link(char *base, size_t n, size_t stride, uint64_t seed, size_t *order)
{
	shuffle(n, seed, order);
	return link_order(base, n, stride, seed, order);
}

void mt_chase_link_pair(char *a, char *b, size_t n, size_t stride, uint64_t seed,
			size_t *order, void ***pa, void ***pb)
{
	shuffle(n, seed, order);
	*pa = link_order(a, n, stride, seed, order);
	*pb = link_order(b, n, stride, seed, order);
}

void **mt_chase_run(void **p, uint64_t steps)
{
	/* Unrolled by 8 so the loop's own branch is noise; steps rounds up. */
	for (uint64_t i = 0; i < steps; i += 8) {
		p = *(void *volatile *)p;
		p = *(void *volatile *)p;
		p = *(void *volatile *)p;
		p = *(void *volatile *)p;
		p = *(void *volatile *)p;
		p = *(void *volatile *)p;
		p = *(void *volatile *)p;
		p = *(void *volatile *)p;
	}
	return p;
}
