/*
 * encode.h - the Parquet value encodings pathstat writes (parquet-format
 * Encodings.md): PLAIN, the RLE/bit-packing hybrid (definition levels and
 * dictionary indices), DELTA_BINARY_PACKED and BYTE_STREAM_SPLIT.  Each
 * appends to out; multi-byte values are little-endian whatever the host.
 */
#ifndef PATHSTAT_EXPORT_ENCODE_H
#define PATHSTAT_EXPORT_ENCODE_H

#include "common/compat.h"

#include "common/strbuf.h"

/* Bits needed to write v (0 for 0). */
int enc_bit_width(uint64_t v);

void enc_put_le32(unsigned char *p, uint32_t v);
void enc_put_le64(unsigned char *p, uint64_t v);

void enc_plain_int64(struct strbuf *out, const int64_t *v, size_t n);
void enc_plain_double(struct strbuf *out, const double *v, size_t n);
/* One BYTE_ARRAY value: 4-byte length, then the bytes. */
void enc_plain_bytes(struct strbuf *out, const void *p, size_t len);

/*
 * The RLE/bit-packing hybrid of n values of bit_width (0..32) bits, with
 * no length prefix: runs of 8 or more equal values as RLE runs, the rest
 * bit-packed in groups of 8 (the last group padded with zeros; readers
 * stop at the value count they know).
 */
void enc_rle_hybrid(struct strbuf *out, const uint32_t *v, size_t n,
    int bit_width);

/* DELTA_BINARY_PACKED: blocks of 128 values in 4 miniblocks of 32. */
void enc_delta_int64(struct strbuf *out, const int64_t *v, size_t n);

/* BYTE_STREAM_SPLIT of n doubles: byte k of every value, k = 0..7. */
void enc_bss_double(struct strbuf *out, const double *v, size_t n);

#endif
