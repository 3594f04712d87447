/*
 * ingest.c - `pathstat ingest`: walk the trees given, read each file
 * (gzip transparently), work out its run keys from meta.json, --layout
 * and --tag, sniff and parse it, and store it in one transaction per
 * file.  Bad files are recorded with their reason and the rest goes on.
 * Nothing leaves the database without a word: a file that was read
 * before keeps its runs while it is unreadable, its keys change only
 * with --rekey, and the runs of a file gone from its tree go only with
 * --prune; every summary counts the runs added, replaced and removed.
 */
#include "common/compat.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <xxhash.h>
#include <zlib.h>

#include "common/db.h"
#include "common/err.h"
#include "common/exit.h"
#include "common/parseopt.h"
#include "common/strbuf.h"
#include "common/where.h"
#include "common/xalloc.h"
#include "ingest/ingest.h"
#include "ingest/internal.h"
#include "ingest/notes.h"
#include "ingest/roots.h"
#include "ingest/store.h"
#include "ingest/tree.h"

/* Files are read whole; one larger than this is refused with a reason.
 * A file costs about twice its size while it is parsed (iperf3 JSON is
 * read piece by piece, issue 22), and INGEST_AHEAD more are read ahead:
 * 1 GiB keeps that well below a laptop's memory (README, Ingest). */
#define INGEST_MAX_BYTES	((size_t)1 << 30)

/* Gone files named one by one when --prune is not given; the rest are
 * counted (--dry-run lists them all). */
#define INGEST_GONE_NAMED	10

struct ingest_opts {
	const char	*db_path;
	struct layout	**layouts;	/* --layout, in the order given */
	const char	**layout_texts;	/* their patterns, borrowed */
	size_t		nlayouts;
	struct run_keys	tags;		/* from --tag: win over everything */
	bool		force;		/* re-ingest unchanged files too */
	bool		quiet;		/* errors only */
	bool		dry_run;	/* say what would happen, write nothing */
	bool		prune;		/* remove the runs of files gone */
	bool		rekey;		/* let a stored file's keys change */
};

struct ingest_stats {
	size_t	files, stored, partial, unchanged, skipped, rejected;
	size_t	kept;		/* read before, left as stored: unreadable
				 * now, or its keys would change */
	size_t	sidecars;	/* collector sidecars passed over quietly */
	size_t	added, replaced, removed;	/* runs */
	size_t	samples;
	size_t	bytes;
	size_t	changed;	/* dry run: files whose content changed */
	size_t	rekeyed;	/* dry run: files whose keys would change */
	size_t	fresh;		/* dry run: files new to the database */
};

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

/*
 * The path a layout matches: the file's path below its tree's root; for
 * a file named alone, outside any tree ingested before, its real path
 * (the folders it is in, whatever the working folder), unless the
 * pattern is anchored at the root (its own folder).
 */
static const char *
layout_path(const struct layout *lay, const struct walk_file *wf)
{
	if (wf->lone && !layout_anchored(lay) && wf->path[0] == '/')
		return wf->path + 1;
	return wf->under;
}

/*
 * Keys for one file: the meta.json chain, then the first layout that
 * matches (*matched: its index, or -1), then --tag.  A problem (a broken
 * meta.json, a bad captured value) goes to why and returns -1.
 */
static int
resolve_keys(struct meta_cache *mc, const struct ingest_opts *o,
    const struct walk_file *wf, struct run_keys *keys, struct strbuf *why,
    int *matched)
{
	char *dir = dir_of(wf->path);
	struct strbuf mwhy = STRBUF_INIT;
	size_t i;
	int ret = 0;

	*matched = -1;
	if (meta_keys_for(mc, dir, wf->root, keys, &mwhy)) {
		/* keys that cannot all be known are not stored (issue 9) */
		strbuf_addf(why, "a meta.json above it is broken (%s)",
		    mwhy.buf);
		ret = -1;
	}
	for (i = 0; i < o->nlayouts; i++) {
		struct strbuf lwhy = STRBUF_INIT;
		struct run_keys lk;
		int m;

		run_keys_init(&lk);
		m = layout_match(o->layouts[i], layout_path(o->layouts[i], wf),
		    &lk, &lwhy);
		if (m != 0) {
			*matched = (int)i;
			if (m < 0) {
				strbuf_addf(why, "%slayout '%s': %s",
				    why->len ? "; " : "", o->layout_texts[i],
				    lwhy.buf);
				ret = -1;
			} else {
				run_keys_merge(keys, &lk);
			}
		}
		run_keys_release(&lk);
		strbuf_release(&lwhy);
		if (m != 0)
			break;
	}
	run_keys_merge(keys, &o->tags);
	strbuf_release(&mwhy);
	free(dir);
	return ret;
}

/* Why no path ID: what the layouts did. */
static void
no_path_reason(const struct ingest_opts *o, struct strbuf *out)
{
	size_t i;

	if (o->nlayouts == 1) {
		strbuf_addf(out, "no path ID: the layout '%s' does not match "
		    "this file, and no meta.json or --tag gives one",
		    o->layout_texts[0]);
	} else if (o->nlayouts > 1) {
		strbuf_addstr(out, "no path ID: none of the layouts (");
		for (i = 0; i < o->nlayouts; i++)
			strbuf_addf(out, "%s'%s'", i ? ", " : "",
			    o->layout_texts[i]);
		strbuf_addstr(out, ") matches this file, and no meta.json or "
		    "--tag gives one");
	} else {
		strbuf_addstr(out, "no path ID (give it in a meta.json "
		    "\"path\", a --layout with {path}, or --tag path=ID)");
	}
}

/* Does the value the keys give for key agree with the file's?  A
 * layout's dir=bidir is what iperf3 calls --bidir, which the file
 * splits into bidir-up and bidir-down. */
static bool
cond_agrees(const char *key, const char *given, const char *file)
{
	if (!strcmp(given, file))
		return true;
	return !strcmp(key, "dir") && !strcmp(given, "bidir") &&
	    (!strcmp(file, "bidir-up") || !strcmp(file, "bidir-down"));
}

/* One of key_notes()'s messages: said (or put on out) once per file
 * (said holds those said, '\n'-separated); text is then emptied. */
static void
key_note(struct notes *n, const char *relpath, struct strbuf *out,
    struct strbuf *said, enum notes_level level, struct strbuf *text,
    const char *tail)
{
	struct strbuf key = STRBUF_INIT;

	strbuf_addf(&key, "\n%s\n", text->buf);
	if (!strstr(said->buf, key.buf)) {
		strbuf_addstr(said, key.buf + 1);
		if (out)
			strbuf_addf(out, "; %s%s%s", text->buf, tail ? ": " : "",
			    tail ? tail : "");
		else
			notes_add(n, level, text->buf, tail, relpath);
	}
	strbuf_reset(text);
	strbuf_release(&key);
}

/*
 * What a file's keys say that the reader should know, each said once
 * for all the files it concerns (notes): an alias read as a tool, tokens
 * kept as a tag, keys the file's content contradicts (its own win).
 * With out set (a dry run), the same text is appended there for this
 * file instead.
 */
static void
key_notes(struct notes *n, const char *relpath, const struct run_keys *keys,
    const struct parse_result *res, struct strbuf *out)
{
	struct strbuf text = STRBUF_INIT, said = STRBUF_INIT;
	size_t r, i;

	/* one file's runs (two for --bidir) say a thing once */
	strbuf_addch(&said, '\n');
	if (keys->tool_given) {
		strbuf_addf(&text, "tool '%s' read as %s", keys->tool_given,
		    keys->tool);
		key_note(n, relpath, out, &said, NOTES_NOTE, &text, NULL);
	}
	if (keys->unknown) {
		strbuf_addf(&text, "condition '%s' kept as the tag %s=%s",
		    keys->unknown, RUN_KEYS_LABEL, keys->unknown);
		key_note(n, relpath, out, &said, NOTES_NOTE, &text,
		    "not in the condition grammar");
	}
	for (r = 0; res && r < res->nruns; r++) {
		const struct kvset *c = &res->runs[r].cond;

		if (keys->tool && strcmp(keys->tool, res->runs[r].tool)) {
			strbuf_addf(&text, "the keys say tool=%s but the file is "
			    "%s output", keys->tool, res->runs[r].tool);
			key_note(n, relpath, out, &said, NOTES_WARNING, &text,
			    "using the file's");
		}
		for (i = 0; i < c->n; i++) {
			const char *given = kvset_get(&keys->cond,
			    c->items[i].key);

			if (!given || cond_agrees(c->items[i].key, given,
			    c->items[i].value))
				continue;
			strbuf_addf(&text, "the keys say %s=%s but the file "
			    "says %s=%s", c->items[i].key, given,
			    c->items[i].key, c->items[i].value);
			key_note(n, relpath, out, &said, NOTES_WARNING, &text,
			    "using the file's");
		}
	}
	strbuf_release(&text);
	strbuf_release(&said);
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

/*
 * One file on its way through ingest.  A producer thread reads it, works
 * out its keys, sniffs it and runs the parser (pure: bytes in,
 * parse_result out) up to INGEST_AHEAD files ahead of the main thread,
 * which decides each file's fate and writes the database in job_finish()
 * (or says what it would do, job_dry()), in walk order.  Every message
 * is printed there too (the producer's, a broken meta.json, are
 * captured in msgs), so the database and the output are the same as
 * when one file was done at a time.
 */
struct ingest_job {
	const struct walk_file	*wf;
	struct strbuf	raw;		/* the file's bytes */
	struct strbuf	inflated_buf;	/* its content when gzip */
	struct strbuf	why;		/* key problems, "; "-terminated */
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
	bool		inflated, key_error;
	int		matched;	/* index of the layout that matched,
					 * or -1 */
	bool		parsed;		/* res and parse_rc set */
	int		parse_rc;	/* the parser's return */
	struct err_capture	msgs;	/* printed by job_finish() */
};

static void
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

static bool
status_good(const char *status)
{
	return status && (!strcmp(status, "ok") || !strcmp(status, "partial"));
}

/* Is the file as the database has it (same content and keys)?  Then it
 * is not read again (unless --force). */
static bool
is_unchanged(const struct ingest_opts *o, const struct ingest_job *job,
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
	*unchanged = is_unchanged(o, job, &fs);
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

static void
job_parse(struct ingest_job *job)
{
	job->parse_rc = parse_content(job->kind, job->content, job->clen,
	    &job->res);
	job->parsed = true;
}

/* What ingest does with one file, and why. */
enum fate {
	FATE_UNREADABLE,	/* the file cannot be read */
	FATE_UNCHANGED,		/* content and keys as stored */
	FATE_KEYS_CHANGE,	/* its stored keys would change: not without
				 * --rekey */
	FATE_REJECT,		/* recorded as rejected */
	FATE_SKIP,		/* recorded as skipped */
	FATE_STORE,		/* stored: new, changed, or re-keyed */
};

struct decision {
	enum fate	fate;
	struct strbuf	reason;		/* why rejected or skipped, or the
					 * read error */
	struct strbuf	diff;		/* how the keys change, if they do */
	bool		stored_good;	/* the database has runs from it */
	int64_t		stored_runs;	/* how many */
	bool		keep;		/* stored_good, and the fate would lose
					 * them: left as stored instead */
};

/* Everything one ingest shares while it decides the files' fates. */
struct ingest_ctx {
	const struct ingest_opts	*o;
	struct ingest_stats	*stats;
	struct notes		*notes;
	const struct gone_list	*gone;
	const struct root_list	*roots;
	sqlite3			*db;	/* NULL: a dry run without a database */
	struct store		*st;
	const struct root_move	*moves;	/* a dry run: trees a new one would
					 * take over (roots_moves()) */
	size_t			nmoves;
	size_t			*layout_hits;	/* files per --layout */
};

/*
 * Decide the file's fate from the database as it is (fs: what it has
 * under this name).  Parses the file when needed.  0, or -1 on a
 * database error.
 */
static int
job_decide(struct ingest_ctx *c, struct ingest_job *job,
    const struct file_state *fs, struct decision *d)
{
	const struct ingest_opts *o = c->o;
	const struct walk_file *wf = job->wf;
	struct parse_result *res = &job->res;
	char *dup = NULL;

	d->stored_good = fs->id && status_good(fs->status);
	if (!job->read_failed && is_unchanged(o, job, fs)) {
		d->fate = FATE_UNCHANGED;
		return 0;
	}
	/* said when it is kept or replaced (not looked up for the many
	 * unchanged files of a re-ingest) */
	if (d->stored_good && c->st &&
	    store_file_runs(c->st, fs->id, &d->stored_runs))
		return -1;
	if (job->read_failed) {
		d->fate = FATE_UNREADABLE;
		strbuf_addstr(&d->reason, job->read_why.buf);
		goto done;
	}
	/* keys that give no path ID, or a bad value, reject the file (and
	 * so keep what it gave before): that is the news, not a diff */
	if (d->stored_good && job->keys.path && !job->key_error)
		run_keys_diff(fs->keys, &job->keys, &d->diff);
	if (d->diff.len && !o->rekey) {
		d->fate = FATE_KEYS_CHANGE;
		return 0;
	}
	d->fate = FATE_REJECT;
	if (job->gzip_bad) {
		/* the bytes are the file's: recorded, so the next run says
		 * it again rather than finding nothing */
		strbuf_addf(&d->reason, "%s%s", job->why.buf,
		    job->read_why.buf);
		goto done;
	}
	if (job->clen == 0) {
		/* A tool that wrote nothing failed: say so, do not skip. */
		strbuf_addf(&d->reason, "%s%s", job->why.buf, job->inflated ?
		    "empty after gzip decompression" : "empty file (the tool "
		    "wrote nothing)");
		goto done;
	}
	if (job->kind == KIND_UNKNOWN) {
		d->fate = FATE_SKIP;
		strbuf_addstr(&d->reason, "not a known result format");
		goto done;
	}
	/* the same content under another name is a copy, unless that
	 * file is gone: then this is it, renamed */
	dup = c->st ? store_same_content(c->st, job->hash, wf->relpath) : NULL;
	if (dup && (gone_list_has(c->gone, dup) ||
	    !roots_file_exists(c->roots, dup))) {
		free(dup);
		dup = NULL;
	}
	if (dup) {
		d->fate = FATE_SKIP;
		strbuf_addf(&d->reason, "same content as '%s', already "
		    "ingested", dup);
		free(dup);
		goto done;
	}
	if (!job->parsed)
		job_parse(job);
	if (job->parse_rc) {
		strbuf_addf(&d->reason, "%s%s", job->why.buf,
		    res->reason.len ? res->reason.buf : "rejected");
		goto done;
	}
	if (job->key_error) {
		/* a value the layout captured is not a valid key */
		strbuf_add(&d->reason, job->why.buf, job->why.len - 2);
		goto done;
	}
	if (!job->keys.path) {
		strbuf_addstr(&d->reason, job->why.buf);
		no_path_reason(o, &d->reason);
		goto done;
	}
	if (res->nruns == 0) {
		strbuf_addf(&d->reason, "%s%s", job->why.buf,
		    res->reason.len ? res->reason.buf : "no runs in this file");
		goto done;
	}
	d->fate = FATE_STORE;
	return 0;
done:
	/* a file read before keeps its runs until it is good again, or
	 * gone and pruned */
	d->keep = d->stored_good && d->fate != FATE_STORE;
	return 0;
}

static void
decision_init(struct decision *d)
{
	memset(d, 0, sizeof(*d));
	strbuf_init(&d->reason, 0);
	strbuf_init(&d->diff, 0);
}

static void
decision_release(struct decision *d)
{
	strbuf_release(&d->reason);
	strbuf_release(&d->diff);
}

static const char *
fate_word(enum fate f)
{
	switch (f) {
	case FATE_UNREADABLE: return "unreadable";
	case FATE_REJECT: return "rejected";
	case FATE_SKIP: return "skipped";
	case FATE_UNCHANGED: return "unchanged";
	case FATE_KEYS_CHANGE: return "keys change";
	case FATE_STORE: return "stored";
	}
	return "?";
}

/* "1 run" / "2 runs" */
static const char *
runs_word(int64_t n)
{
	return n == 1 ? "run" : "runs";
}

/* Record a file that gave no runs (skipped or rejected), in the
 * caller's transaction. */
static int
record_only(struct ingest_ctx *c, struct file_row *row)
{
	int64_t id;

	return store_put_file(c->st, row, &id, &c->stats->removed);
}

/* Add a stored file's runs to the counts: removed runs out, added in. */
static void
count_runs(struct ingest_stats *s, size_t removed, size_t added)
{
	size_t same = removed < added ? removed : added;

	s->replaced += same;
	s->added += added - same;
	s->removed += removed - same;
}

/* Is item one of the "; "-separated items of list? */
static bool
reason_has(const struct strbuf *list, const char *item)
{
	size_t il = strlen(item);
	const char *p = list->buf;

	while ((p = strstr(p, item)) != NULL) {
		if ((p == list->buf || (p >= list->buf + 2 &&
		    !memcmp(p - 2, "; ", 2))) &&
		    (p[il] == '\0' || !strncmp(p + il, "; ", 2)))
			return true;
		p++;
	}
	return false;
}

/* Store a parsed file and its runs (in the caller's transaction). */
static int
store_parsed(struct ingest_ctx *c, struct ingest_job *job,
    struct file_row *row, const struct decision *d, bool content_changed)
{
	const struct parse_result *res = &job->res;
	struct ingest_stats *stats = c->stats;
	struct strbuf reason = STRBUF_INIT;
	bool partial = res->partial;
	size_t r, nruns = 0, nsamples = 0, removed = 0;
	int64_t file_id;
	int ret = 0;

	/* each reason once: a --bidir file's two runs were cut at the
	 * same byte, and so was the file */
	strbuf_addstr(&reason, res->reason.buf);
	for (r = 0; r < res->nruns; r++) {
		partial |= res->runs[r].partial;
		if (!res->runs[r].reason.len)
			continue;
		if (reason_has(&reason, res->runs[r].reason.buf))
			continue;
		if (reason.len)
			strbuf_addstr(&reason, "; ");
		strbuf_addstr(&reason, res->runs[r].reason.buf);
	}
	row->status = partial ? "partial" : "ok";
	row->reason = reason.len ? reason.buf : NULL;
	if (store_put_file(c->st, row, &file_id, &removed) ||
	    store_put_runs(c->st, file_id, job->kind, res, &job->keys, &nruns,
	    &nsamples)) {
		error("%s: not stored (database error above)", row->relpath);
		ret = -1;
		goto cleanup;
	}
	stats->stored++;
	count_runs(stats, removed, nruns);
	stats->samples += nsamples;
	if (d->diff.len) {
		struct strbuf text = STRBUF_INIT;

		strbuf_addf(&text, "keys changed (%s)", d->diff.buf);
		notes_add(c->notes, NOTES_NOTE, text.buf, "runs re-keyed "
		    "(--rekey)", row->relpath);
		strbuf_release(&text);
	} else if (content_changed) {
		note("%s: content changed: its %zu %s replaced by %zu",
		    row->relpath, removed, runs_word((int64_t)removed), nruns);
	}
	if (partial) {
		stats->partial++;
		note("%s: partial: %s", row->relpath, reason.buf);
	}
	key_notes(c->notes, row->relpath, &job->keys, res, NULL);
cleanup:
	strbuf_release(&reason);
	return ret;
}

/*
 * Say that a file read before is left as stored, and why: once for all
 * the files left so for the same reason (a layout that no longer
 * matches leaves every file it named).
 */
static void
say_kept(struct ingest_ctx *c, const struct ingest_job *job,
    const struct decision *d)
{
	struct strbuf text = STRBUF_INIT;

	if (d->fate == FATE_UNREADABLE)
		strbuf_addstr(&text, d->reason.buf);
	else
		strbuf_addf(&text, "now %s: %s", fate_word(d->fate),
		    d->reason.buf);
	notes_add(c->notes, NOTES_ERROR, text.buf, !job->keys.path ?
	    "the runs it gave before are kept (give it a path ID again, or "
	    "remove it and run ingest --prune)" : "the runs it gave before "
	    "are kept (restore it, or remove it and run ingest --prune)",
	    job->wf->relpath);
	strbuf_release(&text);
}

/*
 * Returns -1 only for database errors (the walk stops); a bad file is
 * recorded, counted and reported, and returns 0.  The decision (is the
 * file unchanged, is its content stored under another name) and the
 * writes are one transaction, so two ingests at once never both store
 * a file, and a killed ingest leaves no file half-stored.
 */
static int
job_finish(struct ingest_ctx *c, struct ingest_job *job)
{
	const struct walk_file *wf = job->wf;
	struct ingest_stats *stats = c->stats;
	struct decision d;
	struct file_state fs;
	struct file_row row;
	int ret = 0;

	memset(&row, 0, sizeof(row));
	memset(&fs, 0, sizeof(fs));
	decision_init(&d);
	err_capture_flush(&job->msgs);
	if (!job->read_failed)
		stats->bytes += job->raw.len;
	if (db_begin(c->db)) {
		decision_release(&d);
		return -1;
	}
	if (store_file_state(c->st, wf->relpath, &fs) ||
	    job_decide(c, job, &fs, &d)) {
		ret = -1;
		goto cleanup;
	}
	if (job->matched >= 0 && !job->read_failed)
		c->layout_hits[job->matched]++;
	if (d.keep) {
		say_kept(c, job, &d);
		stats->kept++;
		goto cleanup;
	}
	row.relpath = wf->relpath;
	row.hash = job->hash;
	row.size = (int64_t)job->raw.len;
	row.keys = job->keytext.buf;
	row.kind = ingest_kind_name(job->kind);
	row.tool_version = job->parsed ? job->res.tool_version : NULL;
	switch (d.fate) {
	case FATE_UNREADABLE:
		error("%s: %s", wf->relpath, d.reason.buf);
		stats->rejected++;
		break;
	case FATE_UNCHANGED:
		stats->unchanged++;
		break;
	case FATE_KEYS_CHANGE: {
		struct strbuf text = STRBUF_INIT;

		strbuf_addf(&text, "keys would change (%s)", d.diff.buf);
		notes_add(c->notes, NOTES_ERROR, text.buf, "kept as stored; "
		    "--rekey applies the new keys", wf->relpath);
		strbuf_release(&text);
		stats->kept++;
		break;
	}
	case FATE_REJECT:
		row.status = "rejected";
		row.reason = d.reason.buf;
		/* said once for the files one reason rejects (a layout
		 * that fits none of them: hundreds) */
		notes_add(c->notes, NOTES_ERROR, d.reason.buf, NULL,
		    wf->relpath);
		stats->rejected++;
		ret = record_only(c, &row);
		break;
	case FATE_SKIP:
		row.status = "skipped";
		row.reason = d.reason.buf;
		note("%s: skipped: %s", wf->relpath, d.reason.buf);
		stats->skipped++;
		ret = record_only(c, &row);
		break;
	case FATE_STORE:
		ret = store_parsed(c, job, &row, &d, d.stored_good &&
		    strcmp(fs.hash, job->hash));
		break;
	}
cleanup:
	if (ret || db_commit(c->db)) {
		db_rollback(c->db);
		ret = -1;
	}
	file_state_release(&fs);
	decision_release(&d);
	return ret;
}

/* Append the keys a file's runs would get to out: with its content's
 * (with_content: the runs would be stored), or as given.  A file of
 * several runs (--bidir) gives each run's condition, '/'-separated. */
static void
describe_runs(const struct ingest_job *job, bool with_content,
    struct strbuf *out)
{
	const struct parse_result *res = &job->res;
	struct strbuf conds = STRBUF_INIT;
	struct run_keys k;
	size_t r;

	run_keys_init(&k);
	run_keys_merge(&k, &job->keys);
	if (!with_content || !job->parsed || job->parse_rc ||
	    res->nruns == 0) {
		run_keys_describe(&k, NULL, out);
		run_keys_release(&k);
		return;
	}
	if (k.trial < 0)
		k.trial = 1;	/* what store_put_runs() stores */
	free(k.tool);
	k.tool = xstrdup(res->runs[0].tool);
	kvset_merge(&k.tags, &res->runs[0].tags);
	for (r = 0; r < res->nruns; r++) {
		struct kvset cond = KVSET_INIT;

		kvset_copy(&cond, &job->keys.cond);
		kvset_merge(&cond, &res->runs[r].cond);
		if (r)
			strbuf_addstr(&conds, " / ");
		kvset_join(&cond, &conds, ",");
		kvset_release(&cond);
	}
	run_keys_describe(&k, conds.buf, out);
	strbuf_release(&conds);
	run_keys_release(&k);
}

/* What the database has for relpath, or for the name it has now in a
 * tree the ingest would take over. */
static int
dry_file_state(const struct ingest_ctx *c, const char *relpath,
    struct file_state *fs)
{
	size_t i, l;

	if (store_file_state(c->st, relpath, fs))
		return -1;
	for (i = 0; !fs->id && i < c->nmoves; i++) {
		char *now;
		int rc;

		l = strlen(c->moves[i].to);
		if (strncmp(relpath, c->moves[i].to, l) || relpath[l] != '/')
			continue;
		now = xasprintf("%s%s", c->moves[i].from, relpath + l);
		file_state_release(fs);
		rc = store_file_state(c->st, now, fs);
		free(now);
		if (rc)
			return -1;
	}
	return 0;
}

/*
 * A dry run: print on stdout what ingest would do with the file, as
 * "name: which layout: keys: fate[; notes]".  Writes nothing.
 */
static int
job_dry(struct ingest_ctx *c, struct ingest_job *job)
{
	const struct ingest_opts *o = c->o;
	const struct walk_file *wf = job->wf;
	struct ingest_stats *stats = c->stats;
	struct strbuf line = STRBUF_INIT;
	struct decision d;
	struct file_state fs;
	int ret = 0;

	memset(&fs, 0, sizeof(fs));
	decision_init(&d);
	err_capture_flush(&job->msgs);
	if (c->st && dry_file_state(c, wf->relpath, &fs)) {
		ret = -1;
		goto cleanup;
	}
	if (job_decide(c, job, &fs, &d)) {
		ret = -1;
		goto cleanup;
	}
	strbuf_addf(&line, "%s: ", wf->relpath);
	if (job->read_failed)
		strbuf_addstr(&line, "not read");
	else if (job->matched >= 0)
		strbuf_addf(&line, "layout %d", job->matched + 1);
	else if (o->nlayouts)
		strbuf_addf(&line, "no layout matches '%s'", wf->lone ?
		    wf->path : wf->under);
	else
		strbuf_addstr(&line, "no --layout");
	if (job->matched >= 0 && !job->read_failed)
		c->layout_hits[job->matched]++;
	strbuf_addstr(&line, ": ");
	if (!job->read_failed)
		describe_runs(job, !d.keep && (d.fate == FATE_STORE ||
		    d.fate == FATE_UNCHANGED || d.fate == FATE_KEYS_CHANGE),
		    &line);
	else
		strbuf_addstr(&line, "(no keys)");
	strbuf_addstr(&line, ": ");
	if (d.keep) {
		strbuf_addf(&line, "kept as stored: its %lld %s, read on %s "
		    "(now %s: %s)", (long long)d.stored_runs,
		    runs_word(d.stored_runs), fs.ingested_at, fate_word(d.fate),
		    d.reason.buf);
		stats->kept++;
	} else {
		switch (d.fate) {
		case FATE_UNREADABLE:
		case FATE_REJECT:
		case FATE_SKIP:
			strbuf_addf(&line, "%s: %s", fate_word(d.fate),
			    d.reason.buf);
			if (d.fate == FATE_SKIP)
				stats->skipped++;
			else
				stats->rejected++;
			break;
		case FATE_UNCHANGED:
			strbuf_addstr(&line, "unchanged");
			stats->unchanged++;
			break;
		case FATE_KEYS_CHANGE:
			strbuf_addf(&line, "keys would change (%s): kept as "
			    "stored without --rekey", d.diff.buf);
			stats->kept++;
			break;
		case FATE_STORE:
			if (d.diff.len) {
				strbuf_addf(&line, "re-keyed (%s)", d.diff.buf);
				stats->rekeyed++;
			} else if (fs.id && strcmp(fs.hash, job->hash)) {
				strbuf_addstr(&line, "content changed");
				if (d.stored_good)
					strbuf_addf(&line, ": its %lld %s "
					    "replaced", (long long)d.stored_runs,
					    runs_word(d.stored_runs));
				stats->changed++;
			} else if (fs.id) {
				strbuf_addstr(&line, "read again (--force)");
				stats->changed++;
			} else {
				strbuf_addstr(&line, "new");
				stats->fresh++;
			}
			stats->stored++;
			break;
		}
	}
	if (!job->read_failed)
		key_notes(NULL, wf->relpath, &job->keys, d.fate == FATE_STORE ?
		    &job->res : NULL, &line);
	printf("%s\n", line.buf);
cleanup:
	file_state_release(&fs);
	decision_release(&d);
	strbuf_release(&line);
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
ingest_files(struct ingest_ctx *c, struct store *rst, struct meta_cache *mc,
    const struct walk_file **todo, size_t ntodo, size_t total,
    bool show_progress, double t0)
{
	const struct ingest_opts *o = c->o;
	struct ingest_stats *stats = c->stats;
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
			if (job_prepare(job, o->dry_run ? NULL : c->st, mc, o))
				job_parse(job);
			err_capture_end();
		}
		stats->files++;
		rc = o->dry_run ? job_dry(c, job) : job_finish(c, job);
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

/* Paths whose key conflicts are named one by one; the rest are counted. */
#define INGEST_CONFLICT_PATHS	20

/*
 * Report runs that share (path, condition, trial, tool, tags, metric)
 * with another run: once per path, with how many runs in how many
 * groups, on which days, and what analysis does with them.  A layout
 * without {trial} over hourly monitoring makes every hour of a day one
 * such group, so one line per group would be hundreds of identical
 * lines; one per path says it once.
 */
static void
report_conflicts(sqlite3 *db)
{
	struct strbuf sql = STRBUF_INIT;
	sqlite3_stmt *st;
	long long total = 0;
	int paths = 0;

	strbuf_addstr(&sql, "WITH g AS (SELECT path_id, cond_id, trial, tool, "
	    "tagkey, metric, count(*) AS n FROM runs GROUP BY path_id, "
	    "cond_id, trial, tool, tagkey, metric HAVING count(*) > 1), "
	    "c AS (SELECT r.path_id AS path_id, r.trial AS trial, r.tool AS "
	    "tool, c.canon AS cond, g.n AS n, ");
	dim_sql("day", "r", &sql);
	strbuf_addstr(&sql, " AS day FROM runs r JOIN g ON g.path_id = "
	    "r.path_id AND g.cond_id = r.cond_id AND g.trial = r.trial AND "
	    "g.tool = r.tool AND g.tagkey = r.tagkey AND g.metric = r.metric "
	    "JOIN conditions c ON c.id = r.cond_id) "
	    "SELECT p.name, count(*), (SELECT count(*) FROM g WHERE "
	    "g.path_id = c.path_id), min(n), max(n), count(DISTINCT day), "
	    "min(day), max(day), group_concat(DISTINCT trial), "
	    "group_concat(DISTINCT tool), count(DISTINCT cond), min(cond) "
	    "FROM c JOIN paths p ON p.id = c.path_id GROUP BY c.path_id "
	    "ORDER BY p.name COLLATE pathsort");
	st = db_prepare(db, "find conflicting runs", sql.buf);
	strbuf_release(&sql);
	if (!st)
		return;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *path = (const char *)sqlite3_column_text(st, 0);
		long long runs = sqlite3_column_int64(st, 1);
		long long groups = sqlite3_column_int64(st, 2);
		int lo = sqlite3_column_int(st, 3), hi = sqlite3_column_int(st, 4);
		int ndays = sqlite3_column_int(st, 5);
		const char *d0 = (const char *)sqlite3_column_text(st, 6);
		const char *d1 = (const char *)sqlite3_column_text(st, 7);
		const char *cond = (const char *)sqlite3_column_text(st, 11);
		struct strbuf size = STRBUF_INIT, days = STRBUF_INIT;

		total += runs;
		if (paths++ >= INGEST_CONFLICT_PATHS)
			continue;
		if (groups == 1)
			strbuf_addstr(&size, "");
		else if (lo == hi)
			strbuf_addf(&size, " in %lld groups of %d", groups, lo);
		else
			strbuf_addf(&size, " in %lld groups of %d to %d", groups,
			    lo, hi);
		if (!ndays)
			strbuf_addstr(&days, "without a day");
		else if (ndays == 1)
			strbuf_addf(&days, "on 1 day, %s", d0);
		else
			strbuf_addf(&days, "on %d days, %s..%s", ndays, d0, d1);
		warning("conflict: path %s: %lld runs%s share their keys "
		    "(trial %s, tool %s, condition %s) %s: each group has the "
		    "same path, condition, trial, tool and tags (a layout "
		    "without {trial}?); analyze keeps every run, a trial of its "
		    "cell with its samples pooled (--by hour splits hourly "
		    "runs); 'pathstat runs --where path=%s --columns all' lists "
		    "them", path, runs, size.buf,
		    (const char *)sqlite3_column_text(st, 8),
		    (const char *)sqlite3_column_text(st, 9),
		    sqlite3_column_int(st, 10) > 1 ? "several" :
		    (cond && *cond) ? cond : "(none)", days.buf, path);
		strbuf_release(&size);
		strbuf_release(&days);
	}
	sqlite3_finalize(st);
	if (paths > INGEST_CONFLICT_PATHS)
		warning("conflict: and %d more paths", paths -
		    INGEST_CONFLICT_PATHS);
	if (paths > 1)
		warning("conflict: %lld runs on %d paths share their keys with "
		    "another run", total, paths);
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

/*
 * Files the database has under the folders walked that are gone: said
 * (the first INGEST_GONE_NAMED named), or with --prune removed, each
 * named, every one in its own transaction.  A dry run lists them all
 * on stdout.  0, or -1 on a database error.
 */
static int
report_gone(struct ingest_ctx *c, const struct gone_list *gone)
{
	const struct ingest_opts *o = c->o;
	size_t i;

	if (!gone->n)
		return 0;
	if (o->dry_run) {
		for (i = 0; i < gone->n; i++)
			printf("%s: gone: its %lld %s %s\n",
			    gone->items[i].relpath,
			    (long long)gone->items[i].runs,
			    runs_word(gone->items[i].runs), o->prune ?
			    "would be removed" : "kept until --prune");
		return 0;
	}
	if (!o->prune) {
		for (i = 0; i < gone->n && i < INGEST_GONE_NAMED; i++)
			warning("%s: gone from the tree: its %lld %s kept",
			    gone->items[i].relpath,
			    (long long)gone->items[i].runs,
			    runs_word(gone->items[i].runs));
		warning("%zu %s gone: %s %lld %s kept; --prune removes %s%s",
		    gone->n, gone->n == 1 ? "file" : "files", gone->n == 1 ?
		    "its" : "their", (long long)gone->runs,
		    runs_word(gone->runs), gone->n == 1 ? "it" : "them",
		    gone->n > INGEST_GONE_NAMED ? " (--dry-run lists every "
		    "one)" : "");
		return 0;
	}
	for (i = 0; i < gone->n; i++) {
		size_t removed = 0;

		if (db_begin(c->db))
			return -1;
		if (store_drop_file(c->st, gone->items[i].id, &removed) ||
		    db_commit(c->db)) {
			db_rollback(c->db);
			return -1;
		}
		c->stats->removed += removed;
		note("%s: gone: removed, with its %zu %s",
		    gone->items[i].relpath, removed,
		    runs_word((int64_t)removed));
	}
	return 0;
}

/* A --layout that no file matched was shadowed by an earlier one, or
 * fits none of the names. */
static void
report_unused_layouts(const struct ingest_ctx *c, size_t nfiles)
{
	size_t i;

	for (i = 0; nfiles && i < c->o->nlayouts; i++)
		if (!c->layout_hits[i])
			warning("--layout '%s' matched no file%s",
			    c->o->layout_texts[i], i ? " (or an earlier "
			    "layout matched each first)" : "");
}

static int64_t
count_runs_in_db(sqlite3 *db)
{
	sqlite3_stmt *st;
	int64_t n = -1;

	if (!db)
		return 0;
	st = db_prepare(db, "count runs", "SELECT count(*) FROM runs");
	if (st && sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

/* --tag KEY=VALUE into o->tags (opt->value: the struct ingest_opts);
 * -1 with the reason in why. */
static int
opt_tag(const struct parseopt *opt, const char *arg, struct strbuf *why)
{
	struct run_keys *tags = &((struct ingest_opts *)opt->value)->tags;
	const char *eq = strchr(arg, '=');
	char *key;
	int ret = 0;

	if (!eq || eq == arg) {
		strbuf_addstr(why, "want KEY=VALUE");
		return -1;
	}
	key = xstrndup(arg, (size_t)(eq - arg));
	if (run_keys_set(tags, key, eq + 1, why)) {
		ret = -1;
	} else if (tags->unknown) {
		/* a name may hold tokens of its own; a command line says
		 * what it means */
		strbuf_addf(why, "'%s' is not in the condition grammar (k=v, "
		    "name-value, cN, PN, bRATE, a size, tcp/udp, reverse, "
		    "bidir); for a tag say --tag %s=%s", tags->unknown,
		    RUN_KEYS_LABEL, tags->unknown);
		ret = -1;
	}
	free(key);
	return ret;
}

/* --layout PATTERN, compiled, after those given before it. */
static int
opt_layout(const struct parseopt *opt, const char *arg, struct strbuf *why)
{
	struct ingest_opts *o = opt->value;
	struct layout *lay = layout_compile(arg, why);

	if (!lay)
		return -1;
	o->layouts = xreallocarray(o->layouts, o->nlayouts + 1,
	    sizeof(*o->layouts));
	o->layout_texts = xreallocarray(o->layout_texts, o->nlayouts + 1,
	    sizeof(*o->layout_texts));
	o->layouts[o->nlayouts] = lay;
	o->layout_texts[o->nlayouts++] = arg;
	return 0;
}

/* The --layout patterns joined for a note: "'a', 'b'". */
static void
layouts_words(struct strbuf *sb, const char *const *pattern, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		strbuf_addf(sb, "%s--layout '%s'", i ? " " : "", pattern[i]);
}

/*
 * No --layout given: the layouts the trees given were ingested with
 * (schema 008) become o's, when the trees that have some agree (a
 * folder of a tree is that tree's); *stored owns their text.  Trees
 * with different layouts in one ingest take none, said.  0 or -1.
 */
static int
use_stored_layouts(sqlite3 *db, const struct root_list *roots,
    const struct walk_target *targets, size_t ntargets,
    struct ingest_opts *o, struct root_layouts *stored)
{
	struct root_layouts l = ROOT_LAYOUTS_INIT;
	struct strbuf sb = STRBUF_INIT, why = STRBUF_INIT;
	const char *from = NULL;
	size_t i, j;
	int ret = -1;

	for (i = 0; i < ntargets; i++) {
		const struct walk_target *t = &targets[i];

		if (t->skip || t->lone || !*t->root_name)
			continue;
		if (roots_layouts_load(db, roots, t->root_name, &l))
			goto cleanup;
		if (!l.n)
			continue;
		if (!from) {
			*stored = l;
			memset(&l, 0, sizeof(l));
			from = t->root_name;
			continue;
		}
		for (j = 0; j < l.n && l.n == stored->n; j++)
			if (strcmp(l.pattern[j], stored->pattern[j]))
				break;
		if (j < l.n || l.n != stored->n) {
			warning("the trees '%s' and '%s' were ingested with "
			    "different layouts: none is used (give --layout)",
			    from, t->root_name);
			roots_layouts_release(stored);
			ret = 0;
			goto cleanup;
		}
		roots_layouts_release(&l);
	}
	for (i = 0; i < stored->n; i++) {
		struct layout *lay = layout_compile(stored->pattern[i], &why);

		if (!lay) {
			warning("the layout '%s' stored for '%s' no longer "
			    "compiles (%s): give --layout", stored->pattern[i],
			    from, why.buf);
			continue;
		}
		o->layouts = xreallocarray(o->layouts, o->nlayouts + 1,
		    sizeof(*o->layouts));
		o->layout_texts = xreallocarray(o->layout_texts,
		    o->nlayouts + 1, sizeof(*o->layout_texts));
		o->layouts[o->nlayouts] = lay;
		o->layout_texts[o->nlayouts++] = stored->pattern[i];
	}
	if (o->nlayouts) {
		layouts_words(&sb, (const char *const *)stored->pattern,
		    stored->n);
		note("'%s' was ingested with %s: using %s (a new --layout "
		    "replaces %s)", from, sb.buf, stored->n == 1 ? "it" :
		    "them", stored->n == 1 ? "it" : "them");
	}
	ret = 0;
cleanup:
	roots_layouts_release(&l);
	strbuf_release(&sb);
	strbuf_release(&why);
	return ret;
}

/* --layout given: they become the layouts of each tree given, with a
 * note where they replace others.  0 or -1. */
static int
remember_layouts(sqlite3 *db, const struct root_list *roots,
    const struct walk_target *targets, size_t ntargets,
    const struct ingest_opts *o)
{
	struct root_layouts old = ROOT_LAYOUTS_INIT;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	size_t i, j;
	int ret = -1;

	for (i = 0; i < ntargets; i++) {
		const struct walk_target *t = &targets[i];

		if (t->skip || t->lone || !*t->root_name)
			continue;
		for (j = 0; j < i; j++)
			if (!targets[j].skip && !targets[j].lone &&
			    !strcmp(targets[j].root_name, t->root_name))
				break;
		if (j < i)
			continue;
		if (roots_layouts_load(db, roots, t->root_name, &old))
			goto cleanup;
		for (j = 0; j < old.n && old.n == o->nlayouts; j++)
			if (strcmp(old.pattern[j], o->layout_texts[j]))
				break;
		if (old.n && (old.n != o->nlayouts || j < old.n)) {
			strbuf_reset(&a);
			strbuf_reset(&b);
			layouts_words(&a, (const char *const *)old.pattern,
			    old.n);
			layouts_words(&b, o->layout_texts, o->nlayouts);
			note("'%s' was ingested with %s: its layouts are now "
			    "%s", t->root_name, a.buf, b.buf);
		}
		if (roots_layouts_store(db, roots, t->root_name,
		    o->layout_texts, o->nlayouts))
			goto cleanup;
	}
	ret = 0;
cleanup:
	roots_layouts_release(&old);
	strbuf_release(&a);
	strbuf_release(&b);
	return ret;
}

/* The options of `pathstat ingest`, parsed into o; the paths are left
 * in argv[0..*npaths). */
static enum parseopt_result
ingest_parse(struct ingest_opts *o, int argc, char **argv, int *npaths)
{
	const struct parseopt opts[] = {
		OPT_DB(&o->db_path),
		OPT_CALLBACK(0, "layout", o, "PATTERN", opt_layout,
		    PARSEOPT_MANY, "map a file's path to run keys, e.g.\n"
		    "'{tag:instance_type}/{path}/{cond}/trial{trial}/{*}'\n"
		    "or '{path}_{cond}_run{trial}.json'; placeholders {path} "
		    "{trial} {cond} {tool} {tag:NAME} {*} {**}; repeatable: "
		    "the first that matches a file applies"),
		OPT_CALLBACK(0, "tag", o, "KEY=VALUE", opt_tag,
		    PARSEOPT_MANY, "set a run key for every file (path, trial, "
		    "condition, or any tag such as instance_type); "
		    "repeatable"),
		OPT_FLAG('n', "dry-run", &o->dry_run, "print per file which "
		    "layout matched, the keys it would get and what would "
		    "happen; write nothing"),
		OPT_FLAG(0, "prune", &o->prune, "remove the runs of files gone "
		    "from the folders given"),
		OPT_FLAG(0, "rekey", &o->rekey, "let a file's keys change from "
		    "what is stored (another layout, a moved meta.json); "
		    "without it such files are kept as they are, with the "
		    "change named"),
		OPT_FLAG(0, "force", &o->force, "re-read files even when "
		    "content and keys are unchanged"),
		OPT_FLAG('q', "quiet", &o->quiet, "print errors only"),
		OPT_END(),
	};
	const struct parseopt_cmd cmd = {
		.name = "ingest",
		.args = "PATH...",
		.args_name = "paths",
		.intro = "Load benchmark results into the database: iperf3 -J "
		    "and --json-stream,\noha JSON, CSV and --db-url SQLite, "
		    "pathprobe CSV and --mtu results\n(plain or .gz).\n"
		    "Folders are walked recursively; each file is sniffed by "
		    "its content.",
		.outro = "Keys come from meta.json files in the folders above "
		    "a file, up to its tree's root (nearer wins), then the "
		    "first --layout that matches, then --tag.  A folder or "
		    "file inside a tree ingested before is read as part of "
		    "it.  In {cond}, a tool name (" INGEST_TOOL_ALIASES ") "
		    "sets the tool, and a token the grammar does not know is "
		    "kept as the tag " RUN_KEYS_LABEL ".  A file without a "
		    "path ID is rejected.\nExit status: 0 all good, 1 some "
		    "file rejected, unreadable or left as stored (the rest is "
		    "done), 2 usage error.",
		.opts = opts,
	};
	enum parseopt_result r;

	/* options may follow the paths (pathstat ingest TREE -q), as in
	 * analyze and git; '--' ends them for a path named -x */
	r = parseopt(&cmd, argc, argv, npaths);
	if (r == PARSEOPT_OK && *npaths == 0) {
		parseopt_usage_error(&cmd, "no files or folders to ingest");
		r = PARSEOPT_ERROR;
	}
	return r;
}

/* One ingest's state, from the database opened to the files done. */
struct ingest_run {
	struct ingest_opts	*o;
	struct ingest_stats	stats;
	struct ingest_ctx	ctx;
	struct walk_list	files;	/* every file the walk found */
	struct walk_target	*targets; /* the paths given, planned */
	size_t			ntargets;
	struct root_list	roots;	/* the trees the database knows */
	struct root_layouts	stored;	/* their remembered layouts */
	struct gone_list	gone;	/* files no longer there */
	struct meta_cache	*mc;
	struct root_move	*moves;	/* dry run: trees taken over */
	struct store		*st;	/* the writer */
	struct store		*rst;	/* the producer's reader */
	sqlite3			*db;	/* st's connection */
	sqlite3			*rdb;	/* rst's connection */
	const struct walk_file	**todo;	/* the files to read */
	size_t			ntodo;
	const char		*db_path; /* borrowed */
	char			*db_real; /* realpath of it; owned */
};

static void
ingest_run_init(struct ingest_run *r, struct ingest_opts *o)
{
	memset(r, 0, sizeof(*r));
	r->o = o;
	r->roots = (struct root_list)ROOT_LIST_INIT;
	r->stored = (struct root_layouts)ROOT_LAYOUTS_INIT;
}

static void
ingest_run_release(struct ingest_run *r)
{
	size_t i;

	roots_moves_free(r->moves, r->ctx.nmoves);
	notes_free(r->ctx.notes);
	free(r->ctx.layout_hits);
	store_close(r->rst);
	db_close(r->rdb);
	free(r->todo);
	store_close(r->st);
	db_close(r->db);
	meta_cache_free(r->mc);
	walk_list_release(&r->files);
	for (i = 0; i < r->ntargets; i++)
		walk_target_release(&r->targets[i]);
	free(r->targets);
	roots_release(&r->roots);
	gone_list_release(&r->gone);
	roots_layouts_release(&r->stored);
	free(r->db_real);
}

/* Open the database (as it is for a dry run, which migrates nothing
 * and may have none) and load its trees; 0 or -1. */
static int
ingest_open(struct ingest_run *r)
{
	struct stat sb;
	int version;

	r->db_path = db_default_path(r->o->db_path);
	if (!r->o->dry_run) {
		r->db = db_open(r->db_path, true);
		if (!r->db)
			return -1;
	} else if (stat(r->db_path, &sb) == 0) {
		r->db = db_open_as_is(r->db_path, &version);
		if (!r->db)
			return -1;
	}
	r->db_real = realpath(r->db_path, NULL);
	r->st = r->db ? store_open(r->db) : NULL;
	if ((r->db && !r->st) || roots_load(r->db, &r->roots))
		return -1;
	return 0;
}

/* Test hooks (tests/cli/t1100, t1600): a file that vanishes, or is
 * swapped for another (FROM:TO renames FROM over TO), between the walk
 * and its read, which no test can time otherwise. */
static void
test_hooks_after_walk(void)
{
	const char *vanish = getenv("PATHSTAT_TEST_UNLINK_AFTER_WALK");
	const char *swap = getenv("PATHSTAT_TEST_RENAME_AFTER_WALK");

	if (vanish && *vanish)
		unlink(vanish);
	if (swap && strchr(swap, ':')) {
		char *from = xstrndup(swap, strcspn(swap, ":"));

		if (rename(from, strchr(swap, ':') + 1) != 0)
			warning("test hook: cannot rename '%s': %s", from,
			    strerror(errno));
		free(from);
	}
}

/*
 * Plan the paths given against the trees known, settle the layouts,
 * walk them and find the files gone.  0; 1 when a path was skipped or
 * could not be walked (the rest goes on); -1 on a database error.
 */
static int
ingest_plan(struct ingest_run *r, char **paths, size_t npaths)
{
	struct ingest_opts *o = r->o;
	size_t i, absorbed = 0;
	int ret = 0;

	r->ntargets = npaths;
	r->targets = xcalloc(npaths, sizeof(*r->targets));
	roots_plan(&r->roots, paths, npaths, r->targets);
	if (!o->nlayouts && use_stored_layouts(r->db, &r->roots, r->targets,
	    npaths, o, &r->stored))
		return -1;
	if (!o->dry_run && roots_record(r->db, r->st, &r->roots, r->targets,
	    npaths, &absorbed))
		return -1;
	if (!o->dry_run && !r->stored.n && o->nlayouts &&
	    remember_layouts(r->db, &r->roots, r->targets, npaths, o))
		return -1;
	r->stats.removed += absorbed;
	for (i = 0; i < npaths; i++) {
		if (r->targets[i].skip)
			ret = 1;
		walk_target(&r->targets[i], &r->files);
	}
	if (r->files.errors)
		ret = 1;
	if (r->db && roots_find_gone(r->db, r->targets, npaths, &r->files,
	    &r->gone))
		return -1;
	test_hooks_after_walk();
	return ret;
}

/*
 * Read, parse and store (or, dry, describe) every file the walk found
 * but the database itself and the collector's sidecars; then the notes,
 * the unused layouts and the files gone.  0, or 1 when something went
 * wrong (said).
 */
static int
ingest_read(struct ingest_run *r)
{
	struct err_capture quiet = ERR_CAPTURE_INIT;
	struct ingest_ctx *ctx = &r->ctx;
	bool show_progress;
	double t0;
	size_t i;
	int ret = 0;

	r->mc = meta_cache_new();
	show_progress = !r->o->quiet && !r->o->dry_run &&
	    isatty(STDERR_FILENO);
	t0 = now_s();
	r->todo = xcalloc(r->files.n ? r->files.n : 1, sizeof(*r->todo));
	for (i = 0; i < r->files.n; i++) {
		if (is_db_file(r->files.files[i].path, r->db_real))
			continue;
		if (is_sidecar(base_of(r->files.files[i].path))) {
			r->stats.sidecars++;
			continue;
		}
		r->todo[r->ntodo++] = &r->files.files[i];
	}
	/* The producer's look-ups for unchanged files use a connection of
	 * their own (WAL: it reads while this one writes); without one it
	 * parses every file and job_finish() alone decides (quietly).  A
	 * dry run parses every file: it shows the keys the content adds. */
	if (!r->o->dry_run) {
		err_capture_begin(&quiet);
		r->rdb = db_open_readonly(r->db_path);
		r->rst = r->rdb ? store_open(r->rdb) : NULL;
		err_capture_end();
		strbuf_release(&quiet.text);
	}
	ctx->o = r->o;
	ctx->stats = &r->stats;
	ctx->notes = notes_new();
	ctx->gone = &r->gone;
	ctx->roots = &r->roots;
	ctx->db = r->db;
	ctx->st = r->st;
	ctx->layout_hits = xcalloc(r->o->nlayouts ? r->o->nlayouts : 1,
	    sizeof(*ctx->layout_hits));
	if (r->o->dry_run) {
		ctx->nmoves = roots_moves(&r->roots, r->targets, r->ntargets,
		    &r->moves);
		ctx->moves = r->moves;
		for (i = 0; i < ctx->nmoves; i++)
			note("the tree '%s' (%s) is inside a tree given: its "
			    "files would be named '%s/...'", r->moves[i].from,
			    r->moves[i].inner->path, r->moves[i].to);
	}
	if (ingest_files(ctx, r->rst, r->mc, r->todo, r->ntodo, r->files.n,
	    show_progress, t0))
		ret = 1;
	if (show_progress)
		progress(&r->stats, r->files.n, r->files.n, t0, true);
	notes_flush(ctx->notes);
	report_unused_layouts(ctx, r->ntodo);
	if (report_gone(ctx, &r->gone))
		ret = 1;
	if (r->stats.rejected || r->stats.kept || err_count())
		ret = 1;
	return ret;
}

/* The closing lines: what a dry run would have done, or what was done
 * (with the run view refreshed and the conflicts named); 0 or 1. */
static int
ingest_summary(struct ingest_run *r)
{
	const struct ingest_stats *s = &r->stats;
	int ret = 0;

	if (r->o->dry_run) {
		note("dry run, nothing written: %zu files: %zu new, %zu changed, "
		    "%zu re-keyed, %zu unchanged, %zu skipped, %zu rejected, "
		    "%zu kept as stored; %zu gone (%lld %s)", s->files,
		    s->fresh, s->changed, s->rekeyed, s->unchanged,
		    s->skipped, s->rejected, s->kept, r->gone.n,
		    (long long)r->gone.runs, runs_word(r->gone.runs));
		return 0;
	}
	if (store_refresh_run_view(r->db))
		ret = 1;
	report_conflicts(r->db);
	note("%zu files: %zu stored (%zu partial), %zu unchanged, %zu skipped, "
	    "%zu rejected, %zu kept as stored; runs: %zu added, %zu replaced, "
	    "%zu removed, %lld in the database; %zu samples", s->files,
	    s->stored, s->partial, s->unchanged, s->skipped, s->rejected,
	    s->kept, s->added, s->replaced, s->removed,
	    (long long)count_runs_in_db(r->db), s->samples);
	if (s->sidecars)
		note("%zu collector sidecar files (cmd.txt, stderr.txt, "
		    "exit_status, ...) passed over", s->sidecars);
	return ret;
}

int
cmd_ingest(int argc, char **argv)
{
	struct ingest_opts o;
	struct ingest_run r;
	enum parseopt_result pr;
	int npaths, rc, ret = PATHSTAT_EXIT_OK;
	size_t i;

	err_set_prefix("pathstat ingest");
	memset(&o, 0, sizeof(o));
	run_keys_init(&o.tags);
	ingest_run_init(&r, &o);
	pr = ingest_parse(&o, argc, argv, &npaths);
	if (pr != PARSEOPT_OK) {
		ret = parseopt_exit(pr);
		goto cleanup;
	}
	err_set_quiet(o.quiet);
	if (ingest_open(&r)) {
		ret = PATHSTAT_EXIT_FAIL;
		goto cleanup;
	}
	rc = ingest_plan(&r, argv, (size_t)npaths);
	if (rc < 0) {
		ret = PATHSTAT_EXIT_FAIL;
		goto cleanup;
	}
	/* a path skipped or a file refused fails the ingest, not the rest */
	if (ingest_read(&r))
		rc = 1;
	if (ingest_summary(&r) || rc)
		ret = PATHSTAT_EXIT_FAIL;
cleanup:
	ingest_run_release(&r);
	for (i = 0; i < o.nlayouts; i++)
		layout_free(o.layouts[i]);
	free(o.layouts);
	free(o.layout_texts);
	run_keys_release(&o.tags);
	err_set_quiet(false);
	return ret;
}
