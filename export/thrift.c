/*
 * thrift.c - the Thrift compact protocol, written: field headers with
 * id deltas, zigzag varints, length-prefixed binaries, list headers.
 */
#include "common/compat.h"

#include <string.h>

#include "common/err.h"
#include "export/thrift.h"

void
thrift_writer_init(struct thrift_writer *tw, struct strbuf *out)
{
	tw->out = out;
	tw->depth = 0;
	memset(tw->last, 0, sizeof(tw->last));
}

void
thrift_put_uleb(struct strbuf *out, uint64_t v)
{
	unsigned char b[10];
	size_t n = 0;

	do {
		b[n] = (unsigned char)(v & 0x7f);
		v >>= 7;
		if (v)
			b[n] |= 0x80;
		n++;
	} while (v);
	strbuf_add(out, b, n);
}

void
thrift_put_zigzag(struct strbuf *out, int64_t v)
{
	uint64_t u = (uint64_t)v;

	/* (v << 1) ^ (v >> 63), in unsigned arithmetic */
	thrift_put_uleb(out, (u << 1) ^ (0 - (u >> 63)));
}

static void
field_header(struct thrift_writer *tw, int id, enum thrift_type type)
{
	int *last, delta;

	if (tw->depth < 1)
		BUG("thrift: field %d outside a struct", id);
	last = &tw->last[tw->depth - 1];
	if (id <= *last || id > 32767)
		BUG("thrift: field %d after %d", id, *last);
	delta = id - *last;
	if (delta <= 15) {
		strbuf_addch(tw->out, (delta << 4) | (int)type);
	} else {
		strbuf_addch(tw->out, (int)type);
		thrift_put_zigzag(tw->out, id);
	}
	*last = id;
}

void
thrift_struct_begin(struct thrift_writer *tw)
{
	if (tw->depth >= THRIFT_MAX_DEPTH)
		BUG("thrift: structs nested deeper than %d", THRIFT_MAX_DEPTH);
	tw->last[tw->depth++] = 0;
}

void
thrift_struct_end(struct thrift_writer *tw)
{
	if (tw->depth < 1)
		BUG("thrift: struct end without a struct");
	strbuf_addch(tw->out, 0);
	tw->depth--;
}

void
thrift_field_i32(struct thrift_writer *tw, int id, int32_t v)
{
	field_header(tw, id, THRIFT_I32);
	thrift_put_zigzag(tw->out, v);
}

void
thrift_field_i64(struct thrift_writer *tw, int id, int64_t v)
{
	field_header(tw, id, THRIFT_I64);
	thrift_put_zigzag(tw->out, v);
}

void
thrift_field_bool(struct thrift_writer *tw, int id, bool v)
{
	field_header(tw, id, v ? THRIFT_TRUE : THRIFT_FALSE);
}

void
thrift_field_binary(struct thrift_writer *tw, int id, const void *p,
    size_t len)
{
	field_header(tw, id, THRIFT_BINARY);
	thrift_put_uleb(tw->out, len);
	strbuf_add(tw->out, p, len);
}

void
thrift_field_string(struct thrift_writer *tw, int id, const char *s)
{
	thrift_field_binary(tw, id, s, strlen(s));
}

void
thrift_field_struct(struct thrift_writer *tw, int id)
{
	field_header(tw, id, THRIFT_STRUCT);
	thrift_struct_begin(tw);
}

void
thrift_field_list(struct thrift_writer *tw, int id, enum thrift_type elem,
    size_t n)
{
	field_header(tw, id, THRIFT_LIST);
	if (n < 15) {
		strbuf_addch(tw->out, (int)(n << 4) | (int)elem);
	} else {
		strbuf_addch(tw->out, 0xf0 | (int)elem);
		thrift_put_uleb(tw->out, n);
	}
}

void
thrift_elem_i32(struct thrift_writer *tw, int32_t v)
{
	thrift_put_zigzag(tw->out, v);
}

void
thrift_elem_i64(struct thrift_writer *tw, int64_t v)
{
	thrift_put_zigzag(tw->out, v);
}

void
thrift_elem_string(struct thrift_writer *tw, const char *s)
{
	size_t len = strlen(s);

	thrift_put_uleb(tw->out, len);
	strbuf_add(tw->out, s, len);
}

void
thrift_elem_struct(struct thrift_writer *tw)
{
	thrift_struct_begin(tw);
}
