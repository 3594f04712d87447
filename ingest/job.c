/*
 * job.c - one file on its way through ingest, up to its parse: read
 * whole (gzip inflated, with a bound against decompression bombs),
 * hashed, keyed (filekeys.c), sniffed by content and handed to its
 * parser.  Runs on the parser threads (loop.c): it prints nothing and
 * writes nothing; the one database look-up is read-only.
 */
#include "common/compat.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xxhash.h>
#include <zlib.h>

#include "common/parse.h"
#include "common/strbuf.h"
#include "ingest/internal.h"
#include "ingest/job.h"
#include "ingest/store.h"
#include "ingest/tree.h"

/* Files are read whole; one larger than this is refused with a reason.
 * A file costs about twice its size while it is parsed (iperf3 JSON is
 * read piece by piece), and others are read ahead only while they all
 * fit in INGEST_AHEAD_BYTES (loop.c): 1 GiB keeps that well below a
 * laptop's memory (docs/ingest.md). */
#define INGEST_MAX_BYTES	((size_t)1 << 30)

/*
 * gzip content may be at most INGEST_GZIP_RATIO times the compressed
 * bytes it came from, once past INGEST_GZIP_FREE bytes: real results
 * compress 3 to 8 times (the fixtures and the sample tree), a
 * decompression bomb a thousand.  Checked while inflating, so a bomb
 * stops after INGEST_GZIP_FREE bytes instead of filling memory first.
 */
#define INGEST_GZIP_RATIO	100
#define INGEST_GZIP_FREE	((size_t)32 << 20)

/* Read the file the walk found into raw; if it is gzip, inflate into
 * content, else content aliases raw (*inflated=false).  The file is
 * opened once, without blocking, and must be the one the walk saw.
 * Returns 0; -1 when it cannot be read; -2 when it was read (raw holds
 * it) but its gzip data are broken or a bomb: the reason is in why. */
static int
read_file(const struct walk_file *wf, struct strbuf *raw,
    struct strbuf *content, bool *inflated, struct strbuf *why)
{
	z_stream zs;
	int zrc, fd;

	*inflated = false;
	fd = walk_open(wf, why);
	if (fd < 0)
		return -1;
	if (wf->size > 0 && (uint64_t)wf->size <= INGEST_MAX_BYTES)
		strbuf_grow(raw, (size_t)wf->size + 1);
	if (strbuf_read_fd(raw, fd, INGEST_MAX_BYTES)) {
		if (errno == EFBIG)
			strbuf_addf(why, "too large: larger than %zu bytes (1 "
			    "GiB), the most a file may have", INGEST_MAX_BYTES);
		else
			strbuf_addf(why, "cannot read: %s", strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	if (raw->len < 2 || (unsigned char)raw->buf[0] != 0x1f ||
	    (unsigned char)raw->buf[1] != 0x8b)
		return 0;
	memset(&zs, 0, sizeof(zs));
	if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) {
		strbuf_addstr(why, "cannot start gzip decompression");
		return -1;
	}
	zs.next_in = (Bytef *)raw->buf;
	zs.avail_in = (uInt)(raw->len > UINT_MAX ? UINT_MAX : raw->len);
	do {
		size_t used;

		strbuf_grow(content, 1 << 20);
		zs.next_out = (Bytef *)content->buf + content->len;
		zs.avail_out = (uInt)(content->alloc - content->len - 1);
		zrc = inflate(&zs, Z_NO_FLUSH);
		content->len = content->alloc - 1 - zs.avail_out;
		content->buf[content->len] = '\0';
		used = (size_t)((const char *)zs.next_in - raw->buf);
		if (content->len > INGEST_MAX_BYTES) {
			strbuf_addf(why, "gzip content larger than %zu bytes",
			    INGEST_MAX_BYTES);
			inflateEnd(&zs);
			return -2;
		}
		if (content->len > INGEST_GZIP_FREE &&
		    content->len / INGEST_GZIP_RATIO > used) {
			strbuf_addf(why, "gzip data expands more than %d times "
			    "(%zu bytes from the first %zu): refused as a "
			    "likely decompression bomb", INGEST_GZIP_RATIO,
			    content->len, used);
			inflateEnd(&zs);
			return -2;
		}
		/* Concatenated gzip members are one file to gzip(1); zero
		 * padding after the last is nothing (gzip(1) ignores it).
		 * Other bytes after a member are not the tool's output:
		 * refused, saying so, not taken for a broken member. */
		if (zrc == Z_STREAM_END && zs.avail_in > 0) {
			const unsigned char *t = zs.next_in;
			size_t left = zs.avail_in, k;

			if (left >= 2 && t[0] == 0x1f && t[1] == 0x8b) {
				zrc = inflateReset(&zs) == Z_OK ? Z_OK :
				    Z_DATA_ERROR;
				continue;
			}
			for (k = 0; k < left && !t[k]; k++)
				;
			if (k < left) {
				strbuf_addf(why, "%zu bytes after the gzip data "
				    "(from byte %zu) that are not another gzip "
				    "member: the file is not as its tool wrote "
				    "it (gzip -d would drop them unseen)", left,
				    used);
				inflateEnd(&zs);
				return -2;
			}
		}
	} while (zrc == Z_OK);
	inflateEnd(&zs);
	if (zrc != Z_STREAM_END) {
		strbuf_addf(why, "broken gzip data%s%s", zs.msg ? ": " : "",
		    zs.msg ? zs.msg : "");
		return -2;
	}
	*inflated = true;
	return 0;
}

static void
hash_hex(const char *buf, size_t len, char out[33])
{
	XXH128_hash_t h = XXH3_128bits(buf, len);

	snprintf(out, 33, "%016llx%016llx", (unsigned long long)h.high64,
	    (unsigned long long)h.low64);
}

static int
parse_content(enum ingest_kind kind, const char *buf, size_t len,
    struct parse_result *res)
{
	switch (kind) {
	case KIND_IPERF3_JSON:
	case KIND_IPERF3_STREAM:
		return ingest_parse_iperf3(buf, len, res);
	case KIND_OHA_JSON:
		return ingest_parse_oha_json(buf, len, res);
	case KIND_OHA_CSV:
		return ingest_parse_oha_csv(buf, len, res);
	case KIND_OHA_SQLITE:
		return ingest_parse_oha_sqlite(buf, len, res);
	case KIND_PATHPROBE_CSV:
		return ingest_parse_pathprobe(buf, len, res);
	case KIND_PATHPROBE_MTU:
		return ingest_parse_pathprobe_mtu(buf, len, res);
	case KIND_IPERF3_USAGE:
		return parse_reject(res, "iperf3 printed its usage text (a "
		    "parameter error): no results in this file");
	case KIND_META:
	case KIND_UNKNOWN:
		break;
	}
	return parse_reject(res, "not a known result format");
}

static const char *
base_of(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/*
 * Files pathstat-collect (and similar scripts) keep beside a tool's
 * output: the command, its exit status and stderr.  They describe a run
 * but hold no results, and an empty stderr.txt is the normal case, so
 * they are passed over quietly rather than named as unknown or empty.
 */
static bool
is_sidecar(const char *name)
{
	static const char *const names[] = {
		"cmd.txt", "commands.log", "error.txt", "exit_status",
		"stderr.txt", "stdout.txt", "time_wait_before",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

bool
job_is_sidecar(const char *path)
{
	return is_sidecar(base_of(path));
}

/*
 * A name no result has: a log (*.log, *.err, *.out) or a tool's
 * stderr or stdout captured under any name (stderr.log, stdout-2.txt).
 * Empty, such a file is the tool having had nothing to say, not a
 * result it failed to write.
 */
bool
job_is_log_name(const char *path)
{
	static const char *const ends[] = { ".log", ".err", ".out" };
	const char *name = base_of(path);
	size_t len = strlen(name), i;

	if (!strncmp(name, "stderr", 6) || !strncmp(name, "stdout", 6))
		return true;
	for (i = 0; i < ARRAY_SIZE(ends); i++) {
		size_t el = strlen(ends[i]);

		if (len > el && !strcmp(name + len - el, ends[i]))
			return true;
	}
	return false;
}

void
job_init(struct ingest_job *job, const struct walk_file *wf)
{
	memset(job, 0, sizeof(*job));
	job->wf = wf;
	job->matched = -1;
	strbuf_init(&job->raw, 0);
	strbuf_init(&job->inflated_buf, 0);
	strbuf_init(&job->why, 0);
	strbuf_init(&job->read_why, 0);
	strbuf_init(&job->keytext, 0);
	strbuf_init(&job->msgs.text, 0);
	run_keys_init(&job->keys);
	parse_result_init(&job->res);
}

/* A read buffer larger than this is freed, not kept for the next file:
 * one huge file must not hold its memory for the rest of the walk. */
#define JOB_KEEP_MAX	((size_t)64 << 20)

void
job_lend_buffer(struct ingest_job *job, struct strbuf *spare)
{
	strbuf_release(&job->raw);
	job->raw = *spare;
	strbuf_reset(&job->raw);
	strbuf_init(spare, 0);
}

void
job_keep_buffer(struct ingest_job *job, struct strbuf *spare)
{
	strbuf_release(spare);
	if (job->raw.alloc <= JOB_KEEP_MAX) {
		*spare = job->raw;
		strbuf_init(&job->raw, 0);
	}
	job->content = NULL;
}

void
job_release(struct ingest_job *job)
{
	parse_result_release(&job->res);
	run_keys_release(&job->keys);
	strbuf_release(&job->raw);
	strbuf_release(&job->inflated_buf);
	strbuf_release(&job->why);
	strbuf_release(&job->read_why);
	strbuf_release(&job->keytext);
	strbuf_release(&job->msgs.text);
}

/* Is the file as the database has it (same content and keys)?  Then it
 * is not read again (unless --force). */
bool
job_is_unchanged(const struct ingest_opts *o, const struct ingest_job *job,
    const struct file_state *fs)
{
	return !o->force && fs->id && !strcmp(fs->hash, job->hash) &&
	    !strcmp(fs->keys, job->keytext.buf) && strcmp(fs->status,
	    "rejected");
}

static int
job_unchanged(struct store *st, const struct ingest_opts *o,
    const struct ingest_job *job, bool *unchanged)
{
	struct file_state fs;

	if (store_file_state(st, job->wf->relpath, &fs))
		return -1;
	*unchanged = job_is_unchanged(o, job, &fs);
	file_state_release(&fs);
	return 0;
}

/* Read and hash the file; prints nothing.  Returns false when it
 * cannot be read (job->read_failed, the reason in read_why). */
bool
job_read(struct ingest_job *job)
{
	int rc;

	rc = read_file(job->wf, &job->raw, &job->inflated_buf, &job->inflated,
	    &job->read_why);
	if (rc == -1) {
		job->read_failed = true;
		return false;
	}
	job->gzip_bad = rc == -2;
	job->content = job->inflated ? job->inflated_buf.buf : job->raw.buf;
	job->clen = job->inflated ? job->inflated_buf.len : job->raw.len;
	hash_hex(job->raw.buf, job->raw.len, job->hash);
	return true;
}

/*
 * Key and sniff a file job_read() read.  Returns whether it should be
 * parsed: known kind, not empty, and not unchanged (a look-up only,
 * skipped when st is NULL: job_finish() decides, with the database as
 * it is then).  A broken meta.json is reported (captured) by the first
 * file that needs it, so with several parser threads this runs in walk
 * order (loop.c).
 */
bool
job_classify(struct ingest_job *job, struct store *st, struct meta_cache *mc,
    const struct ingest_opts *o)
{
	const struct walk_file *wf = job->wf;
	bool unchanged = false;

	/* Problems with keys are kept in why and prefixed to a rejection. */
	job->key_error = filekeys_resolve(mc, o, wf, &job->keys, &job->why,
	    &job->matched) < 0;
	if (job->why.len)
		strbuf_addstr(&job->why, "; ");
	run_keys_canon(&job->keys, &job->keytext);
	if (job->gzip_bad)
		return false;
	job->kind = ingest_sniff(base_of(wf->path), job->content, job->clen);
	if (job->clen == 0 || job->kind == KIND_UNKNOWN)
		return false;
	if (st && (job_unchanged(st, o, job, &unchanged) || unchanged))
		return false;
	return true;
}

bool
job_prepare(struct ingest_job *job, struct store *st, struct meta_cache *mc,
    const struct ingest_opts *o)
{
	return job_read(job) && job_classify(job, st, mc, o);
}

void
job_parse(struct ingest_job *job)
{
	size_t i;

	job->parse_rc = parse_content(job->kind, job->content, job->clen,
	    &job->res);
	job->parsed = true;
	/* a start no clock could have given is refused, not stored: what
	 * reads the runs does time arithmetic on it */
	for (i = 0; !job->parse_rc && i < job->res.nruns; i++) {
		int64_t t = job->res.runs[i].started_at;

		if (t != STARTED_UNKNOWN && !start_plausible(t))
			job->parse_rc = parse_reject(&job->res, "run start %lld "
			    "(Unix seconds) is outside 2000-01-01..2100-01-01 "
			    "UTC: not a plausible time", (long long)t);
	}
}

