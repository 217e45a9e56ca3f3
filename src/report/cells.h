/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_REPORT_CELLS_H
#define MEMTLB_REPORT_CELLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "model/metrics.h"
#include "model/report.h"
#include "model/result.h"

/*
 * The cells of every human table, and the phase table itself: memtlb stat's
 * table and memtlb report's documents (text, markdown, HTML) are built from
 * the same strings, so the same result shows the same numbers, labels and
 * marks in both. Escaping for a format is the printer's job.
 */

/* Room for a string from a report (a kernel, an event, a phase), escaped. */
#define MT_SAFE_MAX 1024

/*
 * s for a terminal, markdown or XHTML: control bytes (C0, DEL, UTF-8's C1)
 * written as \xNN, so a shared report cannot send escape sequences or make
 * XML invalid; at most len - 1 bytes. Returns buf. Table cells and notes
 * get it in mt_table_add and mt_table_note; direct printers call it.
 */
const char *mt_cell_safe(char *buf, size_t len, const char *s);

/*
 * s as one CSV field (RFC 4180): mt_cell_safe, then in double quotes, each
 * quote doubled, when it has a quote, comma or a space at either end, or
 * always (columns that were always quoted stay so). Returns buf;
 * 2 * MT_SAFE_MAX + 3 bytes hold any field.
 */
const char *mt_cell_csv(char *buf, size_t len, const char *s, bool always);
/* mt_cell_csv written to f. */
void mt_csv_field(FILE *f, const char *s, bool always);

/* Room for any cell below. */
#define MT_CELL_MAX 64

/* A value for humans: whole above 100, 3 decimals below, %g at the extremes. */
void mt_report_number(char *buf, size_t len, double v);

/* "not supported", "not counted"; NULL for a counter that counted. */
const char *mt_cell_state(enum mt_counter_state state);

/*
 * A counter's mean per iteration: whole from 100 up or when whole, else 2
 * decimals; " (x%)", the share of time counted, when it was multiplexed;
 * "not supported", "not counted".
 */
void mt_cell_counter(char *buf, size_t len, const struct mt_counter_stat *cs);

/* The same divided by div (counts per block), the value as mt_report_number. */
void mt_cell_counter_per(char *buf, size_t len, const struct mt_counter_stat *cs, double div);

/*
 * A derived metric: ratios and shares in %, the miss rate %.3g, the rest 1
 * decimal from 100 up, else 3; a trailing "*" when its inputs were counted
 * in different groups; "-" when the phase does not have it.
 */
void mt_cell_derived(char *buf, size_t len, const struct mt_phase_stat *ps, enum mt_derived d);

/* A time given in ns, shown in us with 2 decimals. */
void mt_cell_time_us(char *buf, size_t len, double ns);

/* A summary's cv in %, 2 decimals; "-" with fewer than two samples (no spread). */
void mt_cell_cv(char *buf, size_t len, const struct mt_summary *s);

/* Column headings of the phase table (the derived ones are mt_derived_label). */
#define MT_HEAD_PHASE "phase"
#define MT_HEAD_MEAN_US "mean (us)"
#define MT_HEAD_CV "cv (%)"

/*
 * A table of strings: a header row, then rows of ncols cells, and notes,
 * the lines that explain it (a note starting with two spaces is an item of
 * the note before). For text: a least width per column, column 0 left
 * aligned and the others right, gap spaces between columns.
 */
struct mt_table {
	unsigned int ncols;
	size_t n;		/* cells so far, row after row; the first ncols are the header */
	char **cells;
	int *width;		/* per column: the least width in text */
	int gap;		/* spaces between columns in text (1) */
	size_t n_notes;
	char **notes;
	int err;		/* the first failure of an add: later adds do nothing */
};

/* An empty table of ncols columns (at least 1); 0 or -ENOMEM (-EINVAL for 0). */
int mt_table_create(struct mt_table **out, unsigned int ncols);
void mt_table_destroy(struct mt_table *t);	/* accepts NULL */

/* Append the next cell, header first, row after row; 0 or the table's error. */
int mt_table_add(struct mt_table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Append a note line; 0 or the table's error. */
int mt_table_note(struct mt_table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Rows, the header included (complete rows only), and a cell of them. */
size_t mt_table_rows(const struct mt_table *t);
const char *mt_table_cell(const struct mt_table *t, size_t row, unsigned int col);

/* The rows as aligned text, one line each; the notes are not printed. 0 or -EIO. */
int mt_table_print_text(FILE *f, const struct mt_table *t);
/* The notes, one line each. 0 or -EIO. */
int mt_table_print_notes(FILE *f, const struct mt_table *t);

/*
 * Append the notes of a result's tables: the events not supported (with
 * their reasons when verbose, else how many), the counter groups when there
 * were several, what "*" means when a cell has it, and what the events
 * measure on this CPU when an event set said so. 0 or the table's error.
 */
int mt_table_notes(struct mt_table *t, const struct mt_report *rep, const struct mt_result *r,
		   bool verbose);

/*
 * The phase table of a result: phase, mean (us), cv (%), ns/block, a column
 * per event (mean count per iteration), the other derived metrics present in
 * any phase; one row per phase; and mt_table_notes. 0 or -ENOMEM; *out is NULL
 * on failure.
 */
int mt_phase_table(struct mt_table **out, const struct mt_report *rep,
		   const struct mt_result *r, bool verbose);

#endif
