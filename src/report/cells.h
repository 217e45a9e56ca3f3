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

/*
 * s as XHTML text: markup characters as entities, control bytes and bytes
 * that are not UTF-8 as \xHH. For strings from reports (report, compare).
 */
void mt_cell_html(FILE *f, const char *s);

/* Length of the valid UTF-8 sequence at s, or 0 (overlong, surrogate, > U+10FFFF). */
size_t mt_cell_utf8_len(const char *s);

/* Room for any cell below. */
#define MT_CELL_MAX 64

/* A value for humans: whole above 100, 3 decimals below, %g at the extremes. */
void mt_report_number(char *buf, size_t len, double v);

/* "not supported", "not counted"; NULL for a counter that counted. */
const char *mt_cell_state(enum mt_counter_state state);

/*
 * A counter's mean per iteration as mt_cell_count (262,144), a clock
 * event's (task-clock) in msec as mt_cell_time; " (x%)", the share of
 * time counted, when it was multiplexed;
 * "not supported", "not counted".
 */
void mt_cell_counter(char *buf, size_t len, const char *event,
		     const struct mt_counter_stat *cs);

/* A count for people: whole with thousands separators (262,144), 2 decimals below 100. */
void mt_cell_count(char *buf, size_t len, double v);

/* The same divided by div (counts per block), the value as mt_report_number. */
void mt_cell_counter_per(char *buf, size_t len, const struct mt_counter_stat *cs, double div);

/*
 * A derived metric: ratios and shares in %, the miss rate %.3g, the rest 1
 * decimal from 100 up, else 3; a trailing "*" when its inputs were counted
 * in different groups; "-" when the phase does not have it.
 */
void mt_cell_derived(char *buf, size_t len, const struct mt_phase_stat *ps, enum mt_derived d);

/*
 * The unit of a column of times given in ns: ns, us, ms or s, the one that
 * keeps the median of the n values in 1..999; *scale is its size in ns.
 * Returns the unit's name.
 */
const char *mt_time_unit(const double *ns, size_t n, double *scale);
/* A time given in ns in a column's unit (mt_time_unit's scale), 3 digits or more. */
void mt_cell_time(char *buf, size_t len, double ns, double scale);

/*
 * A number for CSV: an integer as an integer (no 1.47414e+08), anything else
 * in the fewest digits that read back as the same double.
 */
void mt_cell_csv_number(char *buf, size_t len, double v);

/* A summary's cv in %, 2 decimals; "-" with fewer than two samples (no spread). */
void mt_cell_cv(char *buf, size_t len, const struct mt_summary *s);

/* Column headings of the phase table (the derived ones are mt_derived_label). */
#define MT_HEAD_PHASE "phase"
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
/*
 * The same within width columns (0: no limit): when the columns do not fit,
 * stacked tables, each with the first keep columns (the phase) and as many
 * of the others as fit; a row is never wrapped. 0, -ENOMEM or -EIO.
 */
int mt_table_print_fit(FILE *f, const struct mt_table *t, int width, unsigned int keep);
/* The notes wrapped at width (0: not wrapped), a wrapped line indented. 0 or -EIO. */
int mt_table_print_notes_fit(FILE *f, const struct mt_table *t, int width);

/*
 * The width text output to f may take: COLUMNS when set, else the terminal's
 * (TIOCGWINSZ) when f is one, else 100.
 */
int mt_text_width(FILE *f);
/*
 * The width of rep's tables on f: mt_text_width, but 80 at most when nothing
 * a PMU counts was counted (the machine says it has no hardware counters and
 * no cycle, instruction or TLB event counted): such a table always fits 80.
 */
int mt_report_width(FILE *f, const struct mt_report *rep);
/* Prose (headers, notes) wraps at 80 even on a wider terminal: lines stay readable. */
#define MT_PROSE_WIDTH(width) ((width) > 0 && (width) < 80 ? (width) : 80)
/*
 * s on lines of at most width columns (0: one line), broken at spaces, a
 * word longer than a line left whole; lines after the first indented by
 * indent spaces. 0 or -EIO.
 */
int mt_text_wrap(FILE *f, const char *s, int width, int indent);

/* A printf-style line through mt_text_wrap, later lines indented 2. */
void mt_text_wrapf(FILE *f, int width, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Where rep was measured, under each command's title (stat, run, sweep):
 * "kernel K on CPU, counters: B", wrapped at width, and two more lines when
 * its CPU was or may have been emulated (sys/emulation).
 */
void mt_report_print_system(FILE *f, const struct mt_report *rep, int width);
/* An emulated (or perhaps emulated) CPU's two lines; nothing for hardware. */
void mt_report_print_emulation(FILE *f, const struct mt_emulation *em);

/*
 * Whether event e counted in no phase (not supported, or its group never
 * ran): the phase table names it in a note instead of a column of it.
 */
bool mt_event_hidden(const struct mt_result *r, unsigned int e);

/*
 * Append the notes of a result's tables: the events not supported, named
 * once per reason ("not supported here: a, b (why: ENOENT)"; a line per
 * event when verbose), those never counted, the counter groups when there
 * were several, what "*" means when a cell has it, and what the events
 * measure on this CPU when an event set said so. 0 or the table's error.
 */
int mt_table_notes(struct mt_table *t, const struct mt_report *rep, const struct mt_result *r,
		   bool verbose);

/*
 * The phase table of a result: phase, ns/block, mean (its unit), cv (%), a
 * column per event that counted (mean count per iteration; every event when
 * verbose, the --wide table), the other derived metrics present in any
 * phase; one row per phase; and mt_table_notes. 0 or -ENOMEM; *out is NULL
 * on failure.
 */
int mt_phase_table(struct mt_table **out, const struct mt_report *rep,
		   const struct mt_result *r, bool verbose);

#endif
