/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_MODEL_GRID_H
#define MEMTLB_MODEL_GRID_H

#include <stddef.h>
#include <stdint.h>

#include "model/config.h"
#include "sys/msg.h"

/*
 * memtlb run --vary: the values of each KEY (an axis), their cartesian
 * product one column each, the first axis outermost, the first column
 * (every axis at its first value) the baseline; and the order the runs of
 * the columns take. Keys are words here: what they name is measure's.
 */
#define MT_GRID_AXES_MAX 8	/* a result's parameters (MT_PARAM_MAX) */
#define MT_GRID_VALUES_MAX 64
#define MT_GRID_COLUMNS_MAX 64	/* compare's inputs: a column each */
#define MT_GRID_KEY_MAX 128
#define MT_GRID_VALUE_MAX 64	/* a result parameter's value, its NUL included */

struct mt_grid_axis {
	char key[MT_GRID_KEY_MAX];
	char *buf;		/* the value list, split in place */
	const char *values[MT_GRID_VALUES_MAX];
	size_t n;
};

struct mt_grid {
	struct mt_grid_axis axes[MT_GRID_AXES_MAX];
	size_t n_axes;
};

int mt_grid_create(struct mt_grid **out);
void mt_grid_destroy(struct mt_grid *g);	/* accepts NULL */

/*
 * Add "KEY=V1,V2,...": 0, or -EINVAL (not KEY=V1,..., an empty value, a key
 * given twice, a value too long) or -E2BIG (too many axes, values or
 * columns), with msg.
 */
int mt_grid_add(struct mt_grid *g, const char *arg, struct mt_msg *msg);

/* The columns: the product of the axes' value counts (1 with no axis). */
size_t mt_grid_columns(const struct mt_grid *g);

/* Column col's value of each axis: vi[a] indexes axes[a].values. */
void mt_grid_column(const struct mt_grid *g, size_t col, size_t *vi);

/*
 * One round's order, every one of n once: as numbered (sequential,
 * interleaved) or shuffled (random: Fisher-Yates on splitmix64 from
 * *state, the same on every machine).
 */
void mt_grid_round_order(size_t *order, size_t n, enum mt_order how, uint64_t *state);

/*
 * The column of each of the n_cols * reps runs, in out: interleaved, run 1
 * of every column then run 2 ...; random, each such round shuffled from
 * seed; sequential, every run of column 1 first. 0 or -EINVAL.
 */
int mt_grid_schedule(size_t n_cols, unsigned int reps, enum mt_order how, uint64_t seed,
		     size_t *out);

#endif
