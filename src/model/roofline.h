/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_MODEL_ROOFLINE_H
#define MEMTLB_MODEL_ROOFLINE_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The first-touch roofline's calibration (sweep --vary pages): what this
 * CPU does without the kernel's help, measured once per sweep before its
 * points, so that each row of the page-size matrix can say where its
 * first-touch time per fault goes: clearing the folio (at the clear
 * bandwidth user space reaches), entering and leaving the kernel (a fault
 * that maps without allocating or clearing), and the rest.
 */

/* The ways to clear memory from user space that the calibration times. */
enum mt_clear_method {
	MT_CLEAR_REP_STOSB,	/* what the kernel's clear_page_erms does */
	MT_CLEAR_CLZERO,	/* AMD's line clear, where cpuid says CLZERO */
	MT_CLEAR_MOVNTI,	/* 8-byte non-temporal stores */
	MT_CLEAR_MOVNTDQ,	/* 16-byte non-temporal SSE2 stores */
	MT_CLEAR_METHODS,
};

const char *mt_roofline_method_name(int m);	/* "rep stosb"; NULL out of range */
int mt_roofline_method_parse(const char *s);	/* the method, or -1 */

/* Chunk sizes kept: one per folio size a sweep asks for (10 on x86-64). */
#define MT_ROOFLINE_CHUNKS 16

/* One clear figure: a method clearing the buffer chunk bytes per call. */
struct mt_roofline_clear {
	int method;
	uint64_t chunk;		/* bytes per call (the folio size it stands for) */
	double gbps;		/* median over the repetitions, bytes per ns */
};

struct mt_roofline {
	bool measured;		/* a calibration ran (or was loaded) */
	uint64_t buffer;	/* bytes cleared per repetition: past the LLC */
	unsigned int reps;	/* repetitions of each figure */
	/* every method this CPU has, at the largest chunk: the ceiling's choice */
	unsigned int n_methods;
	struct mt_roofline_clear methods[MT_CLEAR_METHODS];
	int ceiling;		/* the fastest method, -1: none measured */
	/* the ceiling's method per chunk size, smallest first */
	unsigned int n_chunks;
	struct mt_roofline_clear chunks[MT_ROOFLINE_CHUNKS];
	/* the kernel entry/exit floor: read faults that map the zero page */
	double floor_ns;	/* median ns per fault; NAN: not measured */
	uint64_t floor_touches;	/* pages read, every repetition together */
	uint64_t floor_faults;	/* minor faults they took (getrusage) */
	double seconds;		/* the calibration's wall time */
};

/* An empty calibration: nothing measured, every number NAN. */
void mt_roofline_init(struct mt_roofline *rf);

#endif
