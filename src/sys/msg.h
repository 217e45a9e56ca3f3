/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_SYS_MSG_H
#define MEMTLB_SYS_MSG_H

/*
 * The one error carrier of the floors below cli: a function that fails
 * for a reason the user must read returns -errno and fills a struct
 * mt_msg, what is wrong and how to fix it, which cli prints as
 * "memtlb: what: text" and "hint: hint" (cli/log). Only cli prints.
 */
struct mt_msg {
	char text[256];
	char hint[256];		/* "" when there is nothing to add */
};

/* Fill msg (hint NULL: none) and return err: `return mt_msg_set(msg, -EINVAL, ...)`. */
int mt_msg_set(struct mt_msg *msg, int err, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* msg emptied: nothing said yet. */
void mt_msg_clear(struct mt_msg *msg);

#endif
