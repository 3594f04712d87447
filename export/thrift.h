/*
 * thrift.h - a writer for the Thrift compact protocol, the encoding of
 * every Parquet footer and page header (parquet-format's parquet.thrift,
 * Thrift's doc/specs/thrift-compact-protocol.md).  Only what a writer
 * of structs, lists, integers, binaries and booleans needs.
 */
#ifndef PATHSTAT_EXPORT_THRIFT_H
#define PATHSTAT_EXPORT_THRIFT_H

#include "common/compat.h"

#include "common/strbuf.h"

/* Compact-protocol type ids of fields and list elements. */
enum thrift_type {
	THRIFT_TRUE = 1,	/* a bool field's value lives in its header */
	THRIFT_FALSE = 2,
	THRIFT_I8 = 3,
	THRIFT_I16 = 4,
	THRIFT_I32 = 5,
	THRIFT_I64 = 6,
	THRIFT_DOUBLE = 7,
	THRIFT_BINARY = 8,
	THRIFT_LIST = 9,
	THRIFT_STRUCT = 12
};

#define THRIFT_MAX_DEPTH 16

/*
 * Fields must be written in increasing id order within a struct (the
 * short header stores the id as a delta).  out is borrowed.
 */
struct thrift_writer {
	struct strbuf	*out;			/* where the bytes go */
	int		last[THRIFT_MAX_DEPTH];	/* last field id, by depth */
	int		depth;			/* open structs */
};

void thrift_writer_init(struct thrift_writer *tw, struct strbuf *out);

/* ULEB-128 and zigzag varints (also used by the Parquet encodings). */
void thrift_put_uleb(struct strbuf *out, uint64_t v);
void thrift_put_zigzag(struct strbuf *out, int64_t v);

/* Open the outermost struct (a footer, a page header). */
void thrift_struct_begin(struct thrift_writer *tw);
/* Write the stop byte and close the innermost struct. */
void thrift_struct_end(struct thrift_writer *tw);

void thrift_field_i32(struct thrift_writer *tw, int id, int32_t v);
void thrift_field_i64(struct thrift_writer *tw, int id, int64_t v);
void thrift_field_bool(struct thrift_writer *tw, int id, bool v);
void thrift_field_binary(struct thrift_writer *tw, int id, const void *p,
    size_t len);
void thrift_field_string(struct thrift_writer *tw, int id, const char *s);
/* A struct-valued field: its fields follow, then thrift_struct_end(). */
void thrift_field_struct(struct thrift_writer *tw, int id);
/* A list-valued field of n elements of type elem; the elements follow
 * (thrift_elem_*, or thrift_elem_struct ... thrift_struct_end). */
void thrift_field_list(struct thrift_writer *tw, int id, enum thrift_type elem,
    size_t n);

void thrift_elem_i32(struct thrift_writer *tw, int32_t v);
void thrift_elem_i64(struct thrift_writer *tw, int64_t v);
void thrift_elem_string(struct thrift_writer *tw, const char *s);
void thrift_elem_struct(struct thrift_writer *tw);

#endif
