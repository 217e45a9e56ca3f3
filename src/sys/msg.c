// SPDX-License-Identifier: MIT
/* An error for the user from below the command line: what, and how to fix it. */
#include <stdarg.h>
#include <stdio.h>

#include "sys/msg.h"

int mt_msg_set(struct mt_msg *msg, int err, const char *hint, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg->text, sizeof(msg->text), fmt, ap);
	va_end(ap);
	snprintf(msg->hint, sizeof(msg->hint), "%s", hint ? hint : "");
	return err;
}

void mt_msg_clear(struct mt_msg *msg)
{
	msg->text[0] = '\0';
	msg->hint[0] = '\0';
}
