// SPDX-License-Identifier: MIT
/*
 * A tracepoint's format file (tracefs text: untrusted where a sysroot or a
 * hostile mount supplies it) parsed, then every value spelled and found
 * again: bounded, terminated, and each spelling names its own symbol.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sys/tracefs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	static struct mt_tracefs_format fmt;
	char *text, sp[MT_TRACEFS_NAME_MAX];

	text = malloc(len + 1);
	if (!text)
		return 0;
	memcpy(text, data, len);
	text[len] = '\0';
	if (mt_tracefs_format_parse(text, &fmt)) {
		free(text);
		return 0;
	}
	if (fmt.n_fields > MT_TRACEFS_FIELDS_MAX)
		abort();
	for (unsigned int i = 0; i < fmt.n_fields; i++) {
		const struct mt_tracefs_field *f = &fmt.fields[i];

		if (f->n_syms > MT_TRACEFS_SYMS_MAX || !memchr(f->name, '\0', sizeof(f->name)) ||
		    mt_tracefs_field(&fmt, f->name) == NULL)
			abort();
		for (unsigned int j = 0; j < f->n_syms; j++) {
			const struct mt_tracefs_sym *sym;

			if (!memchr(f->syms[j].label, '\0', sizeof(f->syms[j].label)))
				abort();
			mt_tracefs_spell(f->syms[j].label, sp, sizeof(sp));
			if (strspn(sp, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(sp))
				abort();	/* a spelling is safe to print */
			sym = *sp ? mt_tracefs_sym_find(f, sp) : NULL;
			/* an earlier label may spell the same: it is found first */
			if (*sp && (!sym || sym > &f->syms[j]))
				abort();
		}
	}
	free(text);
	return 0;
}
