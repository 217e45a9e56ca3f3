/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_CLI_LOG_H
#define MEMTLB_CLI_LOG_H

#include <stdbool.h>

#include "sys/msg.h"

/*
 * One line per message, bpftool-style and uniform: "memtlb: <what>: <why>".
 * mt_hint() adds the second line that says how to fix it.
 */
void mt_log_set_verbose(int level);
int mt_log_verbose(void);

void mt_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void mt_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void mt_hint(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * An error from below (sys/msg.h): "memtlb: <what>: <text>", what made
 * from fmt, then its hint when it has one.
 */
void mt_err_msg(const struct mt_msg *msg, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
