// SPDX-License-Identifier: MIT
/* The events-file parser on arbitrary bytes: an error with file:line, or sets. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <memtlb/evset.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	static char dir[] = "/tmp/memtlb-fuzz-evset-XXXXXX", path[64];
	static int ready;
	struct mt_evsets *sets = NULL;
	char msg[512];
	FILE *f;

	if (!ready) {
		if (!mkdtemp(dir))
			abort();
		snprintf(path, sizeof(path), "%s/fuzz.events", dir);
		ready = 1;
	}
	f = fopen(path, "w");
	if (!f || fwrite(data, 1, len, f) != len || fclose(f))
		abort();
	msg[0] = '\0';
	if (mt_evsets_load(&sets, dir, msg, sizeof(msg))) {
		if (!msg[0])
			abort();	/* every refusal says where and why */
	} else {
		for (const char *n = "default"; n; n = NULL)
			mt_evsets_find(sets, n);
		mt_evsets_destroy(sets);
	}
	return 0;
}
