/*
 * encode.c - PLAIN, RLE/bit-packing hybrid, DELTA_BINARY_PACKED and
 * BYTE_STREAM_SPLIT, written from parquet-format's Encodings.md.
 */
#include "common/compat.h"

#include <string.h>

#include "export/encode.h"
#include "export/thrift.h"

#define DELTA_BLOCK	128	/* values per block */
#define DELTA_MINI	4	/* miniblocks per block */
#define DELTA_MINI_N	(DELTA_BLOCK / DELTA_MINI)

int
enc_bit_width(uint64_t v)
{
	int w = 0;

	while (v) {
		w++;
		v >>= 1;
	}
	return w;
}

void
enc_put_le32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

void
enc_put_le64(unsigned char *p, uint64_t v)
{
	enc_put_le32(p, (uint32_t)v);
	enc_put_le32(p + 4, (uint32_t)(v >> 32));
}

/* Room for n more bytes; returns where they go (then add n to len). */
static unsigned char *
reserve(struct strbuf *out, size_t n)
{
	strbuf_grow(out, n);
	return (unsigned char *)out->buf + out->len;
}

static void
commit(struct strbuf *out, size_t n)
{
	out->len += n;
	out->buf[out->len] = '\0';
}

void
enc_plain_int64(struct strbuf *out, const int64_t *v, size_t n)
{
	unsigned char *p = reserve(out, 8 * n);
	size_t i;

	for (i = 0; i < n; i++)
		enc_put_le64(p + 8 * i, (uint64_t)v[i]);
	commit(out, 8 * n);
}

void
enc_plain_double(struct strbuf *out, const double *v, size_t n)
{
	unsigned char *p = reserve(out, 8 * n);
	uint64_t u;
	size_t i;

	for (i = 0; i < n; i++) {
		memcpy(&u, &v[i], 8);
		enc_put_le64(p + 8 * i, u);
	}
	commit(out, 8 * n);
}

void
enc_plain_bytes(struct strbuf *out, const void *p, size_t len)
{
	unsigned char *q = reserve(out, 4 + len);

	enc_put_le32(q, (uint32_t)len);
	if (len)
		memcpy(q + 4, p, len);
	commit(out, 4 + len);
}

/*
 * Pack n values of w bits (0..64), least significant bit first, as the
 * hybrid and delta encodings both do.  n * w must be a multiple of 8
 * for the output to end on a byte (callers pad to groups of 8).
 */
static void
bitpack(struct strbuf *out, const uint64_t *v, size_t n, int w)
{
	unsigned char *p = reserve(out, (n * (size_t)w + 7) / 8);
	uint64_t acc = 0, x;
	size_t i, pos = 0;
	int nb = 0, left, take;

	if (!w)
		return;
	for (i = 0; i < n; i++) {
		x = v[i];
		left = w;
		while (left > 0) {
			/* nb < 8 here, so nb + take <= 63 */
			take = left < 56 ? left : 56;
			acc |= (x & ((UINT64_C(1) << take) - 1)) << nb;
			nb += take;
			x = take < 64 ? x >> take : 0;
			left -= take;
			while (nb >= 8) {
				p[pos++] = (unsigned char)acc;
				acc >>= 8;
				nb -= 8;
			}
		}
	}
	if (nb)
		p[pos++] = (unsigned char)acc;
	commit(out, pos);
}

static void
rle_run(struct strbuf *out, uint32_t value, size_t count, int bit_width)
{
	unsigned char b[4];
	int i, nbytes = (bit_width + 7) / 8;

	thrift_put_uleb(out, (uint64_t)count << 1);
	for (i = 0; i < nbytes; i++)
		b[i] = (unsigned char)(value >> (8 * i));
	strbuf_add(out, b, (size_t)nbytes);
}

/* Bit-pack lit[0..n) (padded to a multiple of 8 with zeros). */
static void
literal_run(struct strbuf *out, uint64_t *lit, size_t n, int bit_width)
{
	size_t groups = (n + 7) / 8;

	if (!n)
		return;
	while (n % 8)
		lit[n++] = 0;
	thrift_put_uleb(out, ((uint64_t)groups << 1) | 1);
	bitpack(out, lit, n, bit_width);
}

/* Literals wait here until a long run or the end; flushed in groups. */
#define RLE_LIT_MAX 1024

void
enc_rle_hybrid(struct strbuf *out, const uint32_t *v, size_t n,
    int bit_width)
{
	uint64_t lit[RLE_LIT_MAX + 8];
	size_t nlit = 0, i = 0, r, k;

	while (i < n) {
		r = 1;
		while (i + r < n && v[i + r] == v[i])
			r++;
		if (r >= 8) {
			/* complete the literals' last group from the run */
			k = (8 - nlit % 8) % 8;
			if (nlit && k) {
				while (k--) {
					lit[nlit++] = v[i++];
					r--;
				}
			}
			literal_run(out, lit, nlit, bit_width);
			nlit = 0;
			if (r >= 8) {
				rle_run(out, v[i], r, bit_width);
				i += r;
				continue;
			}
		}
		while (r--) {
			lit[nlit++] = v[i++];
			if (nlit == RLE_LIT_MAX) {
				literal_run(out, lit, nlit, bit_width);
				nlit = 0;
			}
		}
	}
	literal_run(out, lit, nlit, bit_width);
}

void
enc_delta_int64(struct strbuf *out, const int64_t *v, size_t n)
{
	uint64_t d[DELTA_BLOCK], prev, maxv;
	int64_t mind;
	unsigned char widths[DELTA_MINI];
	size_t i = 1, m, j, k, lo, hi;

	thrift_put_uleb(out, DELTA_BLOCK);
	thrift_put_uleb(out, DELTA_MINI);
	thrift_put_uleb(out, n);
	thrift_put_zigzag(out, n ? v[0] : 0);
	if (n < 2)
		return;
	prev = (uint64_t)v[0];
	while (i < n) {
		m = n - i < DELTA_BLOCK ? n - i : DELTA_BLOCK;
		mind = INT64_MAX;
		for (j = 0; j < m; j++) {
			d[j] = (uint64_t)v[i + j] - prev;	/* wraps */
			prev = (uint64_t)v[i + j];
			if ((int64_t)d[j] < mind)
				mind = (int64_t)d[j];
		}
		for (j = 0; j < m; j++)
			d[j] -= (uint64_t)mind;
		for (j = m; j < DELTA_BLOCK; j++)
			d[j] = 0;
		thrift_put_zigzag(out, mind);
		for (k = 0; k < DELTA_MINI; k++) {
			lo = k * DELTA_MINI_N;
			hi = lo + DELTA_MINI_N < m ? lo + DELTA_MINI_N : m;
			maxv = 0;
			for (j = lo; j < hi; j++)
				maxv |= d[j];
			widths[k] = (unsigned char)enc_bit_width(maxv);
		}
		strbuf_add(out, widths, DELTA_MINI);
		for (k = 0; k < DELTA_MINI && k * DELTA_MINI_N < m; k++)
			bitpack(out, d + k * DELTA_MINI_N, DELTA_MINI_N,
			    widths[k]);
		i += m;
	}
}

void
enc_bss_double(struct strbuf *out, const double *v, size_t n)
{
	unsigned char *p = reserve(out, 8 * n);
	uint64_t u;
	size_t i;
	int k;

	for (i = 0; i < n; i++) {
		memcpy(&u, &v[i], 8);
		for (k = 0; k < 8; k++)
			p[(size_t)k * n + i] = (unsigned char)(u >> (8 * k));
	}
	commit(out, 8 * n);
}
