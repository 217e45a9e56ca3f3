/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_MODEL_SUGGEST_H
#define MEMTLB_MODEL_SUGGEST_H

#include <stddef.h>

/*
 * Did-you-mean: the optimal string alignment distance (Damerau-Levenshtein
 * without repeated edits of a substring: an insertion, deletion,
 * substitution or swap of two neighbours costs 1), case-insensitive so that
 * dtlb-load-misses finds dTLB-load-misses. Strings past 63 bytes are
 * compared as their first 63.
 */
unsigned int mt_suggest_distance(const char *a, const char *b);

/*
 * The nearest of NAMES[0..n) to word: within 1 edit for words of up to 4
 * bytes, 2 up to 8, else 3 (git's idea of close enough), and strictly
 * nearer than any other (a tie suggests nothing). Returns the name or NULL.
 */
const char *mt_suggest(const char *word, const char *const *names, size_t n);

/*
 * For a word too far from every name (dTLB-misses is 5 edits from
 * dTLB-load-misses): the names that hold each of its parts (split at '-',
 * '_' and ':', two parts at least) as whole parts, in order. Up to max of
 * them in out[]; returns how many matched (maybe more than max).
 */
size_t mt_suggest_parts(const char *word, const char *const *names, size_t n,
			const char **out, size_t max);

#endif
