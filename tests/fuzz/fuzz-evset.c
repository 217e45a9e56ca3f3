// SPDX-License-Identifier: MIT
/* The events-file parser on arbitrary bytes: an error with file:line, or sets. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters/evset.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct mt_evsets *sets = NULL;
	struct mt_msg msg;
	FILE *f;

	if (!len)
		return 0;
	f = fmemopen((void *)data, len, "r");
	if (!f)
		abort();
	if (mt_evsets_parse(&sets, f, "fuzz.events", &msg)) {
		if (!msg.text[0])
			abort();	/* every refusal says where and why */
	} else {
		mt_evsets_find(sets, "default");
		mt_evsets_destroy(sets);
	}
	fclose(f);
	return 0;
}
