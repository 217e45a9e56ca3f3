/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_REPORT_CODEC_H
#define MEMTLB_REPORT_CODEC_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

/*
 * The JSON codec: a struct's keys spelled once, in a table of fields, from
 * which the same struct is both written and loaded (report/json.c for the
 * report, sysinfo --json, the probe's system). Its rules are every JSON
 * file's memtlb writes (memtlb-json(5)):
 *
 * - a number memtlb does not have (not a number, infinite) is left out,
 *   never written as 0 or null (mt_json_set_real);
 * - null is a value memtlb tried to read from the machine and could not
 *   (the *_NULL types and MT_FIELD_TRI);
 * - a string is its bytes, those that are not UTF-8 as \xHH
 *   (mt_json_string).
 *
 * Loading is lenient where the file is old and strict where it is hostile:
 * an absent or mistyped key gets the type's "not known" (below), an
 * integer out of the field's range too, and a string longer than its field
 * is cut; a field flagged MT_FIELD_SHOWN has its control characters made
 * '?' (it is printed to a terminal).
 */
enum mt_field_type {
	MT_FIELD_STR,		/* char[size]; absent: "" */
	MT_FIELD_STR_NULL,	/* char[size], "" written as null */
	MT_FIELD_STR_KNOWN,	/* char[size], null unless the int at aux is set */
	MT_FIELD_BOOL,		/* bool, or an int 0/1 (size); absent: false */
	MT_FIELD_TRI,		/* int, < 0 null, else a boolean; absent: -1 */
	MT_FIELD_INT,		/* signed int or long, always written; absent: dfl */
	MT_FIELD_INT_NULL,	/* signed int or long, < 0 null; absent: -1 */
	MT_FIELD_UINT,		/* unsigned int or uint64_t; absent: 0 */
	MT_FIELD_REAL,		/* double, left out when not finite; absent: NAN */
	MT_FIELD_REAL_NULL,	/* double, < 0 null (not read); absent: -1 */
	MT_FIELD_ENUM,		/* int by name (name, parse); absent: parse(NULL) */
	MT_FIELD_OBJECT,	/* the fields of sub, in an object of their own; with
				 * MT_FIELD_PRESENT only when the bool at aux is
				 * set, and loaded: set when the object is there */
	MT_FIELD_ARRAY,		/* an array of structs of fields sub (below) */
	MT_FIELD_CUSTOM,	/* written by write, loaded by read */
};

#define MT_FIELD_SHOWN 0x1u	/* loaded for a terminal: control chars made '?' */
#define MT_FIELD_PRESENT 0x2u	/* OBJECT: there when the bool at aux says so */

struct mt_field {
	const char *key;	/* NULL ends a table */
	enum mt_field_type type;
	size_t off, size;	/* where in the struct, and how big */
	unsigned int flags;
	long dfl;		/* MT_FIELD_INT: the value when absent */
	size_t aux;		/* STR_KNOWN: the int that says it was read */
	const struct mt_field *sub;	/* OBJECT, ARRAY: the fields */
	/* ARRAY: elements of elem bytes at off, their count at aux (an unsigned
	 * int, or a size_t when size says so), at most max; an element keep()
	 * refuses is not counted */
	size_t elem, max;
	bool (*keep)(void *elem);
	/* ENUM */
	const char *(*name)(int v);
	int (*parse)(const char *s);
	/* written only when when(base) (NULL: always) */
	bool (*when)(const void *base);
	/* CUSTOM: the value in *out (NULL: no key), 0 or -ENOMEM; v NULL:
	 * absent; read NULL: written only (derived from other keys) */
	int (*write)(const void *base, json_t **out);
	void (*read)(json_t *v, void *base);
};

#define MT_FIELD_SIZE(st, m) sizeof(((st *)0)->m)

/*
 * The fields of table f from the struct at base into object o, in the
 * table's order. 0 or -ENOMEM (o then holds what was written).
 */
int mt_codec_write(json_t *o, const struct mt_field *f, const void *base);

/* The fields of table f from object o (NULL: every one absent) into base. */
void mt_codec_read(json_t *o, const struct mt_field *f, void *base);

/*
 * A byte string as a JSON string (memtlb-json(5), STRINGS): bytes that are
 * not UTF-8 as \xHH, never dropped. NULL: no memory.
 */
json_t *mt_json_string(const char *s);

/*
 * o[key] = v, key's bytes as mt_json_string's; v is stolen, even on
 * failure (jansson's rule), and NULL fails. 0 or -ENOMEM.
 */
int mt_json_set(json_t *o, const char *key, json_t *v);

/*
 * o[key] = v when v is a number JSON can hold: the one rule for a number
 * memtlb does not have, in every document. 0 or -ENOMEM.
 */
int mt_json_set_real(json_t *o, const char *key, double v);

/* A string loaded for a terminal: control characters made '?'. */
void mt_json_printable(char *s);

#endif
