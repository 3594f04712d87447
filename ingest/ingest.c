/*
 * ingest.c - `pathstat ingest`: walk the trees given, read each file
 * (gzip transparently), work out its run keys from meta.json, --layout
 * and --tag, sniff and parse it, and store it in one transaction per
 * file.  Bad files are recorded with their reason and the rest goes on.
 */
#include "common/compat.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include <xxhash.h>
#include <zlib.h>

#include "common/db.h"
#include "common/err.h"
#include "common/exit.h"
#include "common/xalloc.h"
#include "ingest/ingest.h"
#include "ingest/internal.h"
#include "ingest/store.h"
#include "ingest/tree.h"

#define INGEST_USAGE \
	"usage: pathstat ingest [--db FILE] [--layout PATTERN] [--tag KEY=VALUE]...\n" \
	"                       [--force] [--quiet] PATH...\n"

/* Files are read whole; one larger than this is refused with a reason. */
#define INGEST_MAX_BYTES	((size_t)4 << 30)

struct ingest_opts {
	const char	*db_path;
	struct layout	*layout;
	const char	*layout_text;
	struct run_keys	tags;		/* from --tag: win over everything */
	bool		force;		/* re-ingest unchanged files too */
	bool		quiet;		/* no progress, no per-file notes */
};

struct ingest_stats {
	size_t	files, stored, partial, unchanged, skipped, rejected;
	size_t	sidecars;	/* collector sidecars passed over quietly */
	size_t	runs, samples;
	size_t	bytes;
};

static void
usage_full(FILE *fp)
{
	fputs(INGEST_USAGE, fp);
	fputs("\n"
	    "Load benchmark results into the database: iperf3 -J and --json-stream,\n"
	    "oha JSON, CSV and --db-url SQLite, pathprobe CSV (plain or .gz).\n"
	    "Folders are walked recursively; each file is sniffed by its content.\n"
	    "\n"
	    "  --db FILE          database (default $PATHSTAT_DB, else ./pathstat.db)\n"
	    "  --layout PATTERN   map a file's path to run keys, e.g.\n"
	    "                     '{tag:instance_type}/{path}/{cond}/trial{trial}/{*}'\n"
	    "                     or '{path}_{cond}.json'; placeholders {path} {trial}\n"
	    "                     {cond} {tool} {tag:NAME} {*} {**}\n"
	    "  --tag KEY=VALUE    set a run key for every file (path, trial, condition,\n"
	    "                     or any tag such as instance_type); repeatable\n"
	    "  --force            re-read files even when content and keys are unchanged\n"
	    "  -q, --quiet        no progress line and no per-file notes\n"
	    "  -h, --help         this help\n"
	    "\n"
	    "Keys come from meta.json files in the folders above a file (nearer wins),\n"
	    "then --layout, then --tag.  A file without a path ID is rejected.\n"
	    "Exit status: 0 all good, 1 some file rejected (the rest is stored),\n"
	    "2 usage error.\n", fp);
}

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
			strbuf_addf(why, "larger than %zu bytes", INGEST_MAX_BYTES);
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
		/* Concatenated gzip members are one file to gzip(1). */
		if (zrc == Z_STREAM_END && zs.avail_in > 0)
			zrc = inflateReset(&zs) == Z_OK ? Z_OK : Z_DATA_ERROR;
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

/* The folder part of path ("a/b/c.json" -> "a/b"; "c.json" -> "."). */
static char *
dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

/* Keys for one file: meta.json chain, then layout, then --tag. */
static int
resolve_keys(struct meta_cache *mc, const struct ingest_opts *o,
    const struct walk_file *wf, struct run_keys *keys, struct strbuf *why,
    bool *layout_missed)
{
	char *dir = dir_of(wf->path);
	struct strbuf mwhy = STRBUF_INIT;
	int ret = 0;

	*layout_missed = false;
	if (meta_keys_for(mc, dir, wf->root, keys, &mwhy)) {
		/* keys that cannot all be known are not stored (issue 9) */
		strbuf_addf(why, "a meta.json above it is broken (%s)",
		    mwhy.buf);
		ret = -1;
	}
	if (o->layout) {
		struct strbuf lwhy = STRBUF_INIT;
		int m = layout_match(o->layout, wf->under, keys, &lwhy);

		if (m < 0) {
			strbuf_addf(why, "%slayout: %s", why->len ? "; " : "",
			    lwhy.buf);
			ret = -1;
		} else if (m == 0) {
			*layout_missed = true;
		}
		strbuf_release(&lwhy);
	}
	run_keys_merge(keys, &o->tags);
	strbuf_release(&mwhy);
	free(dir);
	return ret;
}

/* Warn when meta.json or the layout contradicts what the file says. */
static void
check_cond_agrees(const char *relpath, const struct run_keys *keys,
    const struct parse_result *res)
{
	size_t r, i;

	for (r = 0; r < res->nruns; r++) {
		const struct kvset *c = &res->runs[r].cond;

		for (i = 0; i < c->n; i++) {
			const char *given = kvset_get(&keys->cond, c->items[i].key);

			if (given && strcmp(given, c->items[i].value))
				warning("%s: the keys say %s=%s but the file says "
				    "%s=%s; using the file's", relpath,
				    c->items[i].key, given, c->items[i].key,
				    c->items[i].value);
		}
	}
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
	case KIND_IPERF3_USAGE:
		return parse_reject(res, "iperf3 printed its usage text (a "
		    "parameter error): no results in this file");
	case KIND_META:
	case KIND_UNKNOWN:
		break;
	}
	return parse_reject(res, "not a known result format");
}

/* Record a file that produced no runs (skipped or rejected), inside the
 * caller's transaction. */
static int
record_only(struct store *st, struct file_row *row)
{
	int64_t id;

	return store_put_file(st, row, &id);
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
		"mtu.txt", "stderr.txt", "stdout.txt", "time_wait_before",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

/* Record a rejected file and say why (prefix: key problems found first). */
static int
reject_file(struct store *st, struct file_row *row,
    const struct strbuf *prefix, const char *reason, struct ingest_stats *stats)
{
	struct strbuf full = STRBUF_INIT;
	int ret;

	strbuf_addf(&full, "%s%s", prefix->buf, reason);
	row->status = "rejected";
	row->reason = full.buf;
	error("%s: %s", row->relpath, full.buf);
	stats->rejected++;
	ret = record_only(st, row);
	strbuf_release(&full);
	return ret;
}

/* Store a parsed file and its runs (in the caller's transaction). */
static int
store_parsed(struct store *st, struct file_row *row,
    enum ingest_kind kind, const struct parse_result *res,
    const struct run_keys *keys, bool quiet, struct ingest_stats *stats)
{
	struct strbuf reason = STRBUF_INIT;
	bool partial = res->partial;
	size_t r, nruns = 0, nsamples = 0;
	int64_t file_id;
	int ret = 0;

	strbuf_addstr(&reason, res->reason.buf);
	for (r = 0; r < res->nruns; r++) {
		partial |= res->runs[r].partial;
		if (!res->runs[r].reason.len)
			continue;
		if (reason.len)
			strbuf_addstr(&reason, "; ");
		strbuf_addstr(&reason, res->runs[r].reason.buf);
	}
	row->status = partial ? "partial" : "ok";
	row->reason = reason.len ? reason.buf : NULL;
	if (store_put_file(st, row, &file_id) ||
	    store_put_runs(st, file_id, kind, res, keys, &nruns, &nsamples)) {
		error("%s: not stored (database error above)", row->relpath);
		ret = -1;
		goto cleanup;
	}
	stats->stored++;
	stats->runs += nruns;
	stats->samples += nsamples;
	if (partial) {
		stats->partial++;
		if (!quiet)
			note("%s: partial: %s", row->relpath, reason.buf);
	}
cleanup:
	strbuf_release(&reason);
	return ret;
}

/*
 * One file on its way through ingest.  A producer thread reads it, works
 * out its keys, sniffs it and runs the parser (pure: bytes in,
 * parse_result out) up to INGEST_AHEAD files ahead of the main thread,
 * which decides each file's fate and writes the database in job_finish(),
 * in walk order.  Every message is printed there too (the producer's, a
 * broken meta.json, are captured in msgs), so the database and the
 * output are the same as when one file was done at a time.
 */
struct ingest_job {
	const struct walk_file	*wf;
	struct strbuf	raw;		/* the file's bytes */
	struct strbuf	inflated_buf;	/* its content when gzip */
	struct strbuf	why;		/* read error, key problems */
	struct strbuf	keytext;	/* canonical run keys */
	struct run_keys	keys;
	struct parse_result	res;
	const char	*content;	/* raw or inflated, not owned */
	size_t		clen;
	char		hash[33];	/* XXH3-128 of raw, hex */
	enum ingest_kind	kind;
	bool		read_failed;	/* read_why says why */
	bool		gzip_bad;	/* read, but its gzip data are not:
					 * read_why says why */
	struct strbuf	read_why;
	bool		inflated, layout_missed, key_error;
	bool		parsed;		/* res and parse_rc set */
	int		parse_rc;	/* the parser's return */
	struct err_capture	msgs;	/* printed by job_finish() */
};

static void
job_init(struct ingest_job *job, const struct walk_file *wf)
{
	memset(job, 0, sizeof(*job));
	job->wf = wf;
	strbuf_init(&job->raw, 0);
	strbuf_init(&job->inflated_buf, 0);
	strbuf_init(&job->why, 0);
	strbuf_init(&job->read_why, 0);
	strbuf_init(&job->keytext, 0);
	strbuf_init(&job->msgs.text, 0);
	run_keys_init(&job->keys);
	parse_result_init(&job->res);
}

static void
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
static int
job_unchanged(struct store *st, const struct ingest_opts *o,
    const struct ingest_job *job, bool *unchanged)
{
	struct file_state fs;

	if (store_file_state(st, job->wf->relpath, &fs))
		return -1;
	*unchanged = !o->force && fs.id && !strcmp(fs.hash, job->hash) &&
	    !strcmp(fs.keys, job->keytext.buf) && strcmp(fs.status, "rejected");
	file_state_release(&fs);
	return 0;
}

/*
 * Read, hash, key and sniff the file; prints nothing.  Returns whether
 * it should be parsed: known kind, not empty, and not unchanged (a
 * look-up only, skipped when st is NULL: job_finish() decides, with the
 * database as it is then).
 */
static bool
job_prepare(struct ingest_job *job, struct store *st, struct meta_cache *mc,
    const struct ingest_opts *o)
{
	const struct walk_file *wf = job->wf;
	bool unchanged = false;
	int rc;

	rc = read_file(wf, &job->raw, &job->inflated_buf, &job->inflated,
	    &job->read_why);
	if (rc == -1) {
		job->read_failed = true;
		return false;
	}
	job->gzip_bad = rc == -2;
	job->content = job->inflated ? job->inflated_buf.buf : job->raw.buf;
	job->clen = job->inflated ? job->inflated_buf.len : job->raw.len;
	hash_hex(job->raw.buf, job->raw.len, job->hash);

	/* Problems with keys are kept in why and prefixed to a rejection. */
	job->key_error = resolve_keys(mc, o, wf, &job->keys, &job->why,
	    &job->layout_missed) < 0;
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

static void
job_parse(struct ingest_job *job)
{
	job->parse_rc = parse_content(job->kind, job->content, job->clen,
	    &job->res);
	job->parsed = true;
}

/*
 * Returns -1 only for database errors (the walk stops); a bad file is
 * recorded, counted and reported, and returns 0.  The decision (is the
 * file unchanged, is its content stored under another name) and the
 * writes are one transaction, so two ingests at once never both store
 * a file, and a killed ingest leaves no file half-stored.
 */
static int
job_finish(sqlite3 *db, struct store *st, const struct ingest_opts *o,
    struct ingest_job *job, struct ingest_stats *stats)
{
	const struct walk_file *wf = job->wf;
	struct strbuf note_text = STRBUF_INIT;
	struct parse_result *res = &job->res;
	struct file_row row;
	bool unchanged, in_txn = false;
	char *dup = NULL;
	int ret = 0;

	memset(&row, 0, sizeof(row));
	err_capture_flush(&job->msgs);
	if (job->read_failed) {
		error("%s: %s", wf->relpath, job->read_why.buf);
		stats->rejected++;
		goto cleanup;
	}
	stats->bytes += job->raw.len;
	if (db_begin(db))
		return -1;
	in_txn = true;
	if (job_unchanged(st, o, job, &unchanged)) {
		ret = -1;
		goto cleanup;
	}
	if (unchanged) {
		stats->unchanged++;
		goto cleanup;
	}

	row.relpath = wf->relpath;
	row.hash = job->hash;
	row.size = (int64_t)job->raw.len;
	row.keys = job->keytext.buf;
	row.kind = ingest_kind_name(job->kind);
	if (job->gzip_bad) {
		/* the bytes are the file's: recorded, so the next run says
		 * it again rather than finding nothing */
		ret = reject_file(st, &row, &job->why, job->read_why.buf,
		    stats);
		goto cleanup;
	}
	if (job->clen == 0) {
		/* A tool that wrote nothing failed: say so, do not skip. */
		ret = reject_file(st, &row, &job->why, job->inflated ?
		    "empty after gzip decompression" : "empty file (the tool "
		    "wrote nothing)", stats);
		goto cleanup;
	}
	if (job->kind == KIND_UNKNOWN) {
		row.status = "skipped";
		row.reason = "not a known result format";
		if (!o->quiet)
			note("%s: skipped: not a known result format", wf->relpath);
		stats->skipped++;
		ret = record_only(st, &row);
		goto cleanup;
	}
	dup = store_same_content(st, job->hash, wf->relpath);
	if (dup) {
		strbuf_addf(&note_text, "same content as '%s', already ingested",
		    dup);
		row.status = "skipped";
		row.reason = note_text.buf;
		if (!o->quiet)
			note("%s: skipped: %s", wf->relpath, note_text.buf);
		stats->skipped++;
		ret = record_only(st, &row);
		goto cleanup;
	}
	if (!job->parsed)
		job_parse(job);
	if (job->parse_rc) {
		row.tool_version = res->tool_version;
		ret = reject_file(st, &row, &job->why, res->reason.len ?
		    res->reason.buf : "rejected", stats);
		goto cleanup;
	}
	row.tool_version = res->tool_version;
	if (job->key_error) {
		/* a value the layout captured is not a valid key */
		strbuf_setlen(&job->why, job->why.len - 2);
		ret = reject_file(st, &row, &note_text, job->why.buf,
		    stats);
		goto cleanup;
	}
	if (!job->keys.path) {
		if (job->layout_missed)
			strbuf_addf(&note_text, "no path ID: the layout '%s' does "
			    "not match this file, and no meta.json or --tag "
			    "gives one", o->layout_text);
		else
			strbuf_addstr(&note_text, "no path ID (give it in a "
			    "meta.json \"path\", a --layout with {path}, or "
			    "--tag path=ID)");
		ret = reject_file(st, &row, &job->why, note_text.buf,
		    stats);
		goto cleanup;
	}
	if (res->nruns == 0) {
		ret = reject_file(st, &row, &job->why, res->reason.len ?
		    res->reason.buf : "no runs in this file", stats);
		goto cleanup;
	}
	check_cond_agrees(wf->relpath, &job->keys, res);
	ret = store_parsed(st, &row, job->kind, res, &job->keys, o->quiet,
	    stats);
cleanup:
	if (in_txn && (ret || db_commit(db))) {
		db_rollback(db);
		ret = -1;
	}
	free(dup);
	strbuf_release(&note_text);
	return ret;
}

static double
now_s(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

static void
progress(const struct ingest_stats *s, size_t done, size_t total, double t0,
    bool final)
{
	double dt = now_s() - t0;

	fprintf(stderr, "\r\033[Kpathstat ingest: %zu/%zu files, %.1f MB, %.1f MB/s",
	    done, total, (double)s->bytes / 1e6,
	    dt > 0 ? (double)s->bytes / 1e6 / dt : 0.0);
	if (final)
		fputs("\r\033[K", stderr);
	fflush(stderr);
}

/*
 * Files read and parsed ahead of the one being stored.  Ingest's peak
 * memory is about this many files: the oha files of the bench tree
 * alternate with small JSON summaries, and with fewer a large parse
 * often waited for a small store (bench/README.md).
 */
#define INGEST_AHEAD	4

/* The producer thread and what it shares with the main thread. */
struct ingest_pipe {
	pthread_mutex_t	lock;
	pthread_cond_t	ready;		/* a job was produced */
	pthread_cond_t	room;		/* a job consumed, or stop */
	/* job k lives in jobs[k % INGEST_AHEAD] */
	struct ingest_job	jobs[INGEST_AHEAD];
	size_t		produced;	/* jobs done by the producer */
	size_t		consumed;	/* jobs finished by main */
	bool		stop;		/* the main thread gives up */
	/* read by the producer only, once started: */
	const struct walk_file	**todo;	/* files in walk order */
	size_t		ntodo;
	struct meta_cache	*mc;	/* used by the producer only */
	const struct ingest_opts	*o;
	struct store	*rst;		/* read-only, or NULL */
};

static void *
pipe_produce(void *arg)
{
	struct ingest_pipe *p = arg;
	size_t k;

	for (k = 0; k < p->ntodo; k++) {
		struct ingest_job *job = &p->jobs[k % INGEST_AHEAD];

		pthread_mutex_lock(&p->lock);
		while (k - p->consumed >= INGEST_AHEAD && !p->stop)
			pthread_cond_wait(&p->room, &p->lock);
		if (p->stop) {
			pthread_mutex_unlock(&p->lock);
			break;
		}
		pthread_mutex_unlock(&p->lock);
		job_init(job, p->todo[k]);
		err_capture_begin(&job->msgs);
		if (job_prepare(job, p->rst, p->mc, p->o))
			job_parse(job);
		err_capture_end();
		pthread_mutex_lock(&p->lock);
		p->produced = k + 1;
		pthread_cond_signal(&p->ready);
		pthread_mutex_unlock(&p->lock);
	}
	return NULL;
}

/*
 * Ingest the files: a producer thread prepares and parses them while
 * this thread stores them (in this thread alone if no thread can be
 * made).  Returns -1 when a database error stopped the walk.
 */
static int
ingest_files(sqlite3 *db, struct store *st, struct store *rst,
    struct meta_cache *mc, const struct ingest_opts *o,
    const struct walk_file **todo, size_t ntodo, size_t total,
    struct ingest_stats *stats, bool show_progress, double t0)
{
	struct ingest_pipe *p = xcalloc(1, sizeof(*p));
	pthread_t thread;
	bool threaded;
	double last = 0;
	size_t k;
	int ret = 0;

	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->ready, NULL);
	pthread_cond_init(&p->room, NULL);
	p->todo = todo;
	p->ntodo = ntodo;
	p->mc = mc;
	p->o = o;
	p->rst = rst;
	threaded = pthread_create(&thread, NULL, pipe_produce, p) == 0;
	for (k = 0; k < ntodo; k++) {
		struct ingest_job *job = &p->jobs[k % INGEST_AHEAD];
		int rc;

		if (threaded) {
			pthread_mutex_lock(&p->lock);
			while (p->produced <= k)
				pthread_cond_wait(&p->ready, &p->lock);
			pthread_mutex_unlock(&p->lock);
		} else {
			job_init(job, todo[k]);
			err_capture_begin(&job->msgs);
			if (job_prepare(job, st, mc, o))
				job_parse(job);
			err_capture_end();
		}
		stats->files++;
		rc = job_finish(db, st, o, job, stats);
		job_release(job);
		pthread_mutex_lock(&p->lock);
		p->consumed = k + 1;
		pthread_cond_signal(&p->room);
		pthread_mutex_unlock(&p->lock);
		if (rc) {
			ret = -1;
			break;
		}
		if (show_progress && now_s() - last > 0.2) {
			last = now_s();
			progress(stats, k + 1, total, t0, false);
		}
	}
	if (threaded) {
		pthread_mutex_lock(&p->lock);
		p->stop = true;
		pthread_cond_signal(&p->room);
		pthread_mutex_unlock(&p->lock);
		pthread_join(thread, NULL);
		for (; p->consumed < p->produced; p->consumed++)
			job_release(&p->jobs[p->consumed % INGEST_AHEAD]);
	}
	pthread_cond_destroy(&p->room);
	pthread_cond_destroy(&p->ready);
	pthread_mutex_destroy(&p->lock);
	free(p);
	return ret;
}

/* Report (path, condition, trial, tool, tags) claimed by two runs. */
static void
report_conflicts(sqlite3 *db)
{
	sqlite3_stmt *st = db_prepare(db, "find conflicting runs",
	    "SELECT p.name, c.canon, r.trial, r.tool, count(*) "
	    "FROM runs r JOIN paths p ON p.id = r.path_id "
	    "JOIN conditions c ON c.id = r.cond_id "
	    "GROUP BY r.path_id, r.cond_id, r.trial, r.tool, r.tagkey, r.metric "
	    "HAVING count(*) > 1 LIMIT 20");

	if (!st)
		return;
	while (sqlite3_step(st) == SQLITE_ROW)
		warning("conflict: %d runs claim path=%s condition=%s trial=%d "
		    "tool=%s ('pathstat runs' lists their files)",
		    sqlite3_column_int(st, 4),
		    (const char *)sqlite3_column_text(st, 0),
		    (const char *)sqlite3_column_text(st, 1),
		    sqlite3_column_int(st, 2),
		    (const char *)sqlite3_column_text(st, 3));
	sqlite3_finalize(st);
}

/* Leave the database file (and its -wal/-shm) out of the walk. */
static bool
is_db_file(const char *path, const char *db_real)
{
	char *real;
	bool same = false;
	size_t l;

	if (!db_real)
		return false;
	real = realpath(path, NULL);
	if (!real)
		return false;
	l = strlen(db_real);
	if (!strncmp(real, db_real, l) && (!real[l] || !strcmp(real + l, "-wal") ||
	    !strcmp(real + l, "-shm") || !strcmp(real + l, "-journal")))
		same = true;
	free(real);
	return same;
}

enum { OPT_DB = 256, OPT_LAYOUT, OPT_TAG, OPT_FORCE };

int
cmd_ingest(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db",		required_argument,	NULL, OPT_DB },
		{ "force",	no_argument,		NULL, OPT_FORCE },
		{ "help",	no_argument,		NULL, 'h' },
		{ "layout",	required_argument,	NULL, OPT_LAYOUT },
		{ "quiet",	no_argument,		NULL, 'q' },
		{ "tag",	required_argument,	NULL, OPT_TAG },
		{ NULL, 0, NULL, 0 },
	};
	struct ingest_opts o;
	struct ingest_stats stats;
	struct walk_list files;
	struct meta_cache *mc = NULL;
	struct store *st = NULL;
	struct store *rst = NULL;
	struct err_capture quiet = ERR_CAPTURE_INIT;
	const struct walk_file **todo = NULL;
	size_t ntodo = 0;
	sqlite3 *db = NULL, *rdb = NULL;
	struct strbuf why = STRBUF_INIT;
	char *db_real = NULL;
	bool show_progress;
	double t0;
	size_t i;
	int ch, ret = PATHSTAT_EXIT_OK;

	err_set_prefix("pathstat ingest");
	memset(&o, 0, sizeof(o));
	memset(&stats, 0, sizeof(stats));
	memset(&files, 0, sizeof(files));
	run_keys_init(&o.tags);
	opterr = 0;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "+hq", longopts, NULL)) != -1) {
		switch (ch) {
		case OPT_DB:
			o.db_path = optarg;
			break;
		case OPT_FORCE:
			o.force = true;
			break;
		case 'h':
			usage_full(stdout);
			goto cleanup;
		case OPT_LAYOUT:
			layout_free(o.layout);
			strbuf_reset(&why);
			o.layout = layout_compile(optarg, &why);
			o.layout_text = optarg;
			if (!o.layout) {
				error("bad --layout '%s': %s", optarg, why.buf);
				ret = PATHSTAT_EXIT_USAGE;
				goto cleanup;
			}
			break;
		case 'q':
			o.quiet = true;
			break;
		case OPT_TAG: {
			char *eq = strchr(optarg, '=');
			char *key;

			if (!eq || eq == optarg) {
				error("bad --tag '%s': want KEY=VALUE", optarg);
				ret = PATHSTAT_EXIT_USAGE;
				goto cleanup;
			}
			key = xstrndup(optarg, (size_t)(eq - optarg));
			strbuf_reset(&why);
			if (run_keys_set(&o.tags, key, eq + 1, &why)) {
				error("bad --tag '%s': %s", optarg, why.buf);
				free(key);
				ret = PATHSTAT_EXIT_USAGE;
				goto cleanup;
			}
			free(key);
			break;
		}
		default:
			if (optopt && optopt < 256)
				error("unknown option '-%c'", optopt);
			else
				error("unknown option '%s'", argv[optind - 1]);
			fputs(INGEST_USAGE, stderr);
			ret = PATHSTAT_EXIT_USAGE;
			goto cleanup;
		}
	}
	if (optind >= argc) {
		error("no files or folders to ingest");
		fputs(INGEST_USAGE, stderr);
		ret = PATHSTAT_EXIT_USAGE;
		goto cleanup;
	}

	db = db_open(db_default_path(o.db_path), true);
	if (!db) {
		ret = PATHSTAT_EXIT_FAIL;
		goto cleanup;
	}
	db_real = realpath(db_default_path(o.db_path), NULL);
	st = store_open(db);
	if (!st) {
		ret = PATHSTAT_EXIT_FAIL;
		goto cleanup;
	}
	walk_paths(argv + optind, (size_t)(argc - optind), &files);
	if (files.errors)
		ret = PATHSTAT_EXIT_FAIL;
	{
		/* Test hooks (tests/cli/t1100, t1600): a file that vanishes,
		 * or is swapped for another (FROM:TO renames FROM over TO),
		 * between the walk and its read, which no test can time
		 * otherwise. */
		const char *gone = getenv("PATHSTAT_TEST_UNLINK_AFTER_WALK");
		const char *swap = getenv("PATHSTAT_TEST_RENAME_AFTER_WALK");

		if (gone && *gone)
			unlink(gone);
		if (swap && strchr(swap, ':')) {
			char *from = xstrndup(swap, strcspn(swap, ":"));

			if (rename(from, strchr(swap, ':') + 1) != 0)
				warning("test hook: cannot rename '%s': %s",
				    from, strerror(errno));
			free(from);
		}
	}
	mc = meta_cache_new();
	show_progress = !o.quiet && isatty(STDERR_FILENO);
	t0 = now_s();
	todo = xcalloc(files.n ? files.n : 1, sizeof(*todo));
	for (i = 0; i < files.n; i++) {
		if (is_db_file(files.files[i].path, db_real))
			continue;
		if (is_sidecar(base_of(files.files[i].path))) {
			stats.sidecars++;
			continue;
		}
		todo[ntodo++] = &files.files[i];
	}
	/* The producer's look-ups for unchanged files use a connection of
	 * their own (WAL: it reads while this one writes); without one it
	 * parses every file and job_finish() alone decides (quietly). */
	err_capture_begin(&quiet);
	rdb = db_open_readonly(db_default_path(o.db_path));
	rst = rdb ? store_open(rdb) : NULL;
	err_capture_end();
	strbuf_release(&quiet.text);
	if (ingest_files(db, st, rst, mc, &o, todo, ntodo, files.n, &stats,
	    show_progress, t0))
		ret = PATHSTAT_EXIT_FAIL;
	if (show_progress)
		progress(&stats, files.n, files.n, t0, true);
	if (stats.rejected || err_count())
		ret = PATHSTAT_EXIT_FAIL;
	report_conflicts(db);
	note("%zu files: %zu stored (%zu partial), %zu unchanged, %zu skipped, "
	    "%zu rejected; %zu new runs, %zu samples", stats.files, stats.stored,
	    stats.partial, stats.unchanged, stats.skipped, stats.rejected,
	    stats.runs, stats.samples);
	if (stats.sidecars && !o.quiet)
		note("%zu collector sidecar files (cmd.txt, stderr.txt, exit_status, "
		    "...) passed over", stats.sidecars);
cleanup:
	store_close(rst);
	db_close(rdb);
	free(todo);
	store_close(st);
	db_close(db);
	meta_cache_free(mc);
	walk_list_release(&files);
	layout_free(o.layout);
	run_keys_release(&o.tags);
	strbuf_release(&why);
	free(db_real);
	return ret;
}
