// SPDX-License-Identifier: MIT
/* memtlb run --vary's grid: axes, their product, the order of the runs. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/grid.h"

int mt_grid_create(struct mt_grid **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

void mt_grid_destroy(struct mt_grid *g)
{
	if (!g)
		return;
	for (size_t a = 0; a < g->n_axes; a++)
		free(g->axes[a].buf);
	free(g);
}

size_t mt_grid_columns(const struct mt_grid *g)
{
	size_t n = 1;

	for (size_t a = 0; a < g->n_axes; a++)
		n *= g->axes[a].n;
	return n;
}

/* The values of arg after '=' into ax: every one non-empty. */
static int split_values(struct mt_grid_axis *ax, const char *list, struct mt_msg *msg)
{
	char *v, *next;

	ax->buf = strdup(list);
	if (!ax->buf)
		return -ENOMEM;
	for (v = ax->buf; v; v = next) {
		next = strchr(v, ',');
		if (next)
			*next++ = '\0';
		if (!*v)
			return mt_msg_set(msg, -EINVAL, "values are separated by one comma: "
					  "thp=always,never", "--vary: %s: an empty value", ax->key);
		if (ax->n == MT_GRID_VALUES_MAX)
			return mt_msg_set(msg, -E2BIG, NULL, "--vary: %s: more than %d values",
					  ax->key, MT_GRID_VALUES_MAX);
		if (strlen(v) >= MT_GRID_VALUE_MAX)
			return mt_msg_set(msg, -EINVAL, NULL, "--vary: %s: %.20s...: a value is at "
					  "most %d bytes", ax->key, v, MT_GRID_VALUE_MAX - 1);
		for (size_t i = 0; i < ax->n; i++)
			if (!strcmp(ax->values[i], v))
				return mt_msg_set(msg, -EINVAL, NULL, "--vary: %s: %s given twice",
						  ax->key, v);
		ax->values[ax->n++] = v;
	}
	return 0;
}

int mt_grid_add(struct mt_grid *g, const char *arg, struct mt_msg *msg)
{
	const char *eq = strchr(arg, '=');
	struct mt_grid_axis *ax;
	size_t klen;
	int ret;

	mt_msg_clear(msg);
	if (g->n_axes == MT_GRID_AXES_MAX)
		return mt_msg_set(msg, -E2BIG, NULL, "--vary: at most %d tunables",
				  MT_GRID_AXES_MAX);
	if (!eq || eq == arg)
		return mt_msg_set(msg, -EINVAL, "--vary thp=always,never or --vary "
				  "sysctl:vm.swappiness=10,60", "--vary: %.200s: not KEY=V1,V2,...",
				  arg);
	klen = (size_t)(eq - arg);
	if (klen >= MT_GRID_KEY_MAX)
		return mt_msg_set(msg, -EINVAL, NULL, "--vary: %.40s...: key too long", arg);
	ax = &g->axes[g->n_axes];
	memset(ax, 0, sizeof(*ax));
	memcpy(ax->key, arg, klen);
	for (size_t a = 0; a < g->n_axes; a++)
		if (!strcmp(g->axes[a].key, ax->key))
			return mt_msg_set(msg, -EINVAL, "one --vary per tunable, its values in one list",
					  "--vary: %s: given twice", ax->key);
	if (!eq[1])
		return mt_msg_set(msg, -EINVAL, "--vary KEY=V1,V2,...", "--vary: %s: no values",
				  ax->key);
	ret = split_values(ax, eq + 1, msg);
	if (!ret && mt_grid_columns(g) * ax->n > MT_GRID_COLUMNS_MAX)
		ret = mt_msg_set(msg, -E2BIG, "fewer values, or one study per workload",
				 "--vary: %zu columns: at most %d", mt_grid_columns(g) * ax->n,
				 MT_GRID_COLUMNS_MAX);
	if (ret) {
		free(ax->buf);
		memset(ax, 0, sizeof(*ax));
		return ret;
	}
	g->n_axes++;
	return 0;
}

void mt_grid_column(const struct mt_grid *g, size_t col, size_t *vi)
{
	for (size_t a = g->n_axes; a-- > 0;) {
		vi[a] = col % g->axes[a].n;
		col /= g->axes[a].n;
	}
}

/* splitmix64: a seeded shuffle that is the same on every machine */
static uint64_t next_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void mt_grid_round_order(size_t *order, size_t n, enum mt_order how, uint64_t *state)
{
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	if (how != MT_ORDER_RANDOM)
		return;
	for (size_t i = n - 1; i > 0 && n > 1; i--) {
		size_t j = (size_t)(next_rand(state) % (i + 1));
		size_t t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
}

int mt_grid_schedule(size_t n_cols, unsigned int reps, enum mt_order how, uint64_t seed,
		     size_t *out)
{
	if (!n_cols || !reps || how >= MT_ORDER_MAX)
		return -EINVAL;
	if (how == MT_ORDER_SEQUENTIAL) {
		for (size_t c = 0; c < n_cols; c++)
			for (unsigned int r = 0; r < reps; r++)
				out[c * reps + r] = c;
		return 0;
	}
	for (unsigned int r = 0; r < reps; r++)
		mt_grid_round_order(out + (size_t)r * n_cols, n_cols, how, &seed);
	return 0;
}
