// SPDX-License-Identifier: MIT
/*
 * The JSON codec: tables of fields, each a key with its type and place,
 * walked one way to write a struct and the other way to load it, so that a
 * key is spelled once and the two directions cannot disagree.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/cells.h"
#include "report/codec.h"

/*
 * A byte string as JSON text: valid UTF-8 as is; else each byte that is not
 * part of a valid sequence becomes the four characters \xHH (memtlb-json(5)),
 * so a command argument or a file name in another encoding is kept, never
 * dropped (jansson refuses strings that are not UTF-8). Returns a string
 * for json_string, s itself or a copy to free in *copy; NULL: no memory.
 */
static const char *utf8_text(const char *s, char **copy)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = 0, len;
	char *out, *o;

	*copy = NULL;
	for (size_t i = 0; p[i]; i += len ? len : 1) {
		len = mt_cell_utf8_len((const char *)p + i);
		if (!len)
			n++;
	}
	if (!n)
		return s;
	out = malloc(strlen(s) + 3 * n + 1);
	if (!out)
		return NULL;
	o = out;
	for (size_t i = 0; p[i]; ) {
		len = mt_cell_utf8_len((const char *)p + i);
		if (!len) {
			o += sprintf(o, "\\x%02X", p[i]);
			i++;
			continue;
		}
		memcpy(o, p + i, len);
		o += len;
		i += len;
	}
	*o = '\0';
	*copy = out;
	return out;
}

json_t *mt_json_string(const char *s)
{
	json_t *v;
	char *copy;
	const char *t = utf8_text(s ? s : "", &copy);

	v = t ? json_string(t) : NULL;
	free(copy);
	return v;
}

int mt_json_set(json_t *o, const char *key, json_t *v)
{
	const char *k;
	char *copy;
	int ret = -ENOMEM;

	k = utf8_text(key, &copy);
	if (k && o && v)
		ret = json_object_set_new(o, k, v) ? -ENOMEM : 0;
	else
		json_decref(v);
	free(copy);
	return ret;
}

int mt_json_set_real(json_t *o, const char *key, double v)
{
	if (!isfinite(v))
		return 0;
	return json_object_set_new(o, key, json_real(v)) ? -ENOMEM : 0;
}

void mt_json_printable(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

static long long get_signed(const void *p, size_t size)
{
	return size == sizeof(int) ? *(const int *)p : *(const long *)p;
}

static void set_signed(void *p, size_t size, long long v)
{
	if (size == sizeof(int))
		*(int *)p = (int)v;
	else
		*(long *)p = (long)v;
}

static unsigned long long get_unsigned(const void *p, size_t size)
{
	return size == sizeof(unsigned int) ? *(const unsigned int *)p : *(const uint64_t *)p;
}

static void set_unsigned(void *p, size_t size, unsigned long long v)
{
	if (size == sizeof(unsigned int))
		*(unsigned int *)p = (unsigned int)v;
	else
		*(uint64_t *)p = v;
}

/* An integer that fits the field: int or long, and >= 0 for UINT's. */
static bool integer_fits(json_t *v, size_t size, bool sign)
{
	json_int_t i;

	if (!json_is_integer(v))
		return false;
	i = json_integer_value(v);
	if (!sign)
		return i >= 0 && (size != sizeof(unsigned int) || i <= UINT32_MAX);
	return size != sizeof(int) || (i >= INT32_MIN && i <= INT32_MAX);
}

/* An array's count: an unsigned int, or a size_t (size). */
static size_t count_of(const struct mt_field *f, const char *base)
{
	return f->size == sizeof(size_t) ? *(const size_t *)(base + f->aux)
					 : *(const unsigned int *)(base + f->aux);
}

static void count_set(const struct mt_field *f, char *base, size_t n)
{
	if (f->size == sizeof(size_t))
		*(size_t *)(base + f->aux) = n;
	else
		*(unsigned int *)(base + f->aux) = (unsigned int)n;
}

static json_t *write_array(const struct mt_field *f, const char *base)
{
	size_t n = count_of(f, base);
	json_t *a = json_array();

	for (size_t i = 0; a && i < n && i < f->max; i++) {
		json_t *o = json_object();

		if (!o || json_array_append_new(a, o) ||
		    mt_codec_write(o, f->sub, base + f->off + i * f->elem)) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static void read_array(json_t *a, const struct mt_field *f, char *base)
{
	size_t n = 0;

	for (size_t i = 0; json_is_array(a) && i < json_array_size(a) && n < f->max; i++) {
		json_t *o = json_array_get(a, i);
		char *elem = base + f->off + n * f->elem;

		if (!json_is_object(o))
			continue;
		memset(elem, 0, f->elem);
		mt_codec_read(o, f->sub, elem);
		if (!f->keep || f->keep(elem))
			n++;
	}
	count_set(f, base, n);
}

/* One field's value; NULL without memory. */
static json_t *write_one(const struct mt_field *f, const char *base)
{
	const char *p = base + f->off;
	long long i;
	double d;
	json_t *o;

	switch (f->type) {
	case MT_FIELD_STR:
		return mt_json_string(p);
	case MT_FIELD_STR_NULL:
		return p[0] ? mt_json_string(p) : json_null();
	case MT_FIELD_STR_KNOWN:
		return *(const int *)(base + f->aux) ? mt_json_string(p) : json_null();
	case MT_FIELD_BOOL:
		return json_boolean(f->size == sizeof(int) ? *(const int *)p : *(const bool *)p);
	case MT_FIELD_TRI:
		i = *(const int *)p;
		return i < 0 ? json_null() : json_boolean(i > 0);
	case MT_FIELD_INT:
		return json_integer(get_signed(p, f->size));
	case MT_FIELD_INT_NULL:
		i = get_signed(p, f->size);
		return i < 0 ? json_null() : json_integer(i);
	case MT_FIELD_UINT:
		return json_integer((json_int_t)get_unsigned(p, f->size));
	case MT_FIELD_REAL_NULL:
		d = *(const double *)p;
		return d < 0 ? json_null() : json_real(d);
	case MT_FIELD_ENUM:
		return mt_json_string(f->name(*(const int *)p));
	case MT_FIELD_OBJECT:
		o = json_object();
		if (o && mt_codec_write(o, f->sub, base)) {
			json_decref(o);
			return NULL;
		}
		return o;
	case MT_FIELD_ARRAY:
		return write_array(f, base);
	case MT_FIELD_CUSTOM:
	case MT_FIELD_REAL:
		break;	/* mt_codec_write's */
	}
	return NULL;
}

int mt_codec_write(json_t *o, const struct mt_field *f, const void *base)
{
	for (; f->key; f++) {
		json_t *v;

		if (f->when && !f->when(base))
			continue;
		if ((f->flags & MT_FIELD_PRESENT) && !*(const bool *)((const char *)base + f->aux))
			continue;
		if (f->type == MT_FIELD_REAL) {
			const double *d = (const double *)((const char *)base + f->off);

			if (mt_json_set_real(o, f->key, *d))
				return -ENOMEM;
			continue;
		}
		if (f->type == MT_FIELD_CUSTOM) {
			v = NULL;
			if (f->write(base, &v))
				return -ENOMEM;
			if (v && json_object_set_new(o, f->key, v))
				return -ENOMEM;
			continue;
		}
		v = write_one(f, base);
		/* json_object_set_new steals v, and refuses a NULL one */
		if (!v || json_object_set_new(o, f->key, v))
			return -ENOMEM;
	}
	return 0;
}

static void read_one(json_t *v, const struct mt_field *f, char *base)
{
	char *p = base + f->off;

	switch (f->type) {
	case MT_FIELD_STR_KNOWN:
		*(int *)(base + f->aux) = json_is_string(v);
		/* fall through */
	case MT_FIELD_STR:
	case MT_FIELD_STR_NULL:
		snprintf(p, f->size, "%s", json_is_string(v) ? json_string_value(v) : "");
		if (f->flags & MT_FIELD_SHOWN)
			mt_json_printable(p);
		break;
	case MT_FIELD_BOOL:
		if (f->size == sizeof(int))
			*(int *)p = json_is_true(v);
		else
			*(bool *)p = json_is_true(v);
		break;
	case MT_FIELD_TRI:
		*(int *)p = json_is_boolean(v) ? json_is_true(v) : -1;
		break;
	case MT_FIELD_INT:
		set_signed(p, f->size, integer_fits(v, f->size, true) ? json_integer_value(v)
								      : f->dfl);
		break;
	case MT_FIELD_INT_NULL:
		set_signed(p, f->size, integer_fits(v, f->size, true) ? json_integer_value(v) : -1);
		break;
	case MT_FIELD_UINT:
		set_unsigned(p, f->size, integer_fits(v, f->size, false) ?
			     (unsigned long long)json_integer_value(v) : 0);
		break;
	case MT_FIELD_REAL:
		*(double *)p = json_is_number(v) ? json_number_value(v) : NAN;
		break;
	case MT_FIELD_REAL_NULL:
		*(double *)p = json_is_number(v) ? json_number_value(v) : -1;
		break;
	case MT_FIELD_ENUM:
		*(int *)p = f->parse(json_string_value(v));
		break;
	case MT_FIELD_OBJECT:
		if (f->flags & MT_FIELD_PRESENT)
			*(bool *)(base + f->aux) = json_is_object(v);
		mt_codec_read(json_is_object(v) ? v : NULL, f->sub, base);
		break;
	case MT_FIELD_ARRAY:
		read_array(v, f, base);
		break;
	case MT_FIELD_CUSTOM:
		if (f->read)
			f->read(v, base);
		break;
	}
}

void mt_codec_read(json_t *o, const struct mt_field *f, void *base)
{
	for (; f->key; f++)
		read_one(json_object_get(o, f->key), f, base);
}
