/*
 * export.c - `pathstat export`: the database as Parquet datasets
 * (samples/, runs/, summaries/, findings/ and manifest.json) that
 * Athena, Trino, Spark and DuckDB read, written incrementally; and
 * `--ddl ENGINE`, the statements that make them tables.
 */
#include "common/compat.h"


#include <fcntl.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/check.h"
#include "cmds.h"
#include "common/db.h"
#include "common/err.h"
#include "common/exit.h"
#include "common/keycat.h"
#include "common/outdir.h"
#include "common/parse.h"
#include "common/parseopt.h"
#include "common/strbuf.h"
#include "common/where.h"
#include "common/xalloc.h"
#include "export/internal.h"

struct export_cli {
	const char	*db_path;
	const char	*out;
	const char	*location;
	const char	*partition_by;	/* as given; NULL = the default */
	struct where	where;
	char		**where_text;	/* --where as typed, for the manifest */
	size_t		nwhere_text;
	struct export_opts opts;
	int		dirfd;		/* DIR, open while writing */
	bool		force, quiet;
	bool		provenance;	/* key columns for provenance tags */
	bool		ddl;
	enum export_engine engine;
};

/* Parse "256m", "64k", "1g", "1048576" into bytes; -1 if bad. */
static int
parse_size(const char *s, size_t *out)
{
	struct strbuf num = STRBUF_INIT;
	size_t len = strlen(s), mult = 1;
	long v;
	int ret = -1;

	if (!len)
		return -1;
	switch (s[len - 1]) {
	case 'k': case 'K':
		mult = 1024;
		break;
	case 'm': case 'M':
		mult = 1024 * 1024;
		break;
	case 'g': case 'G':
		mult = 1024 * 1024 * 1024;
		break;
	default:
		break;
	}
	strbuf_add(&num, s, mult > 1 ? len - 1 : len);
	if (!parse_long(num.buf, 1, LONG_MAX / 1024 / 1024 / 1024, &v) &&
	    (uint64_t)v * mult >= 4096) {
		*out = (size_t)v * mult;
		ret = 0;
	}
	strbuf_release(&num);
	return ret;
}

/* Split "a,b" into *keys. */
static void
split_keys(const char *list, char ***keys, size_t *n)
{
	char *copy = xstrdup(list), *p = copy, *k;

	*keys = NULL;
	*n = 0;
	while ((k = strsep(&p, ",")) != NULL) {
		if (!*k)
			continue;
		*keys = xreallocarray(*keys, *n + 1, sizeof(**keys));
		(*keys)[(*n)++] = xstrdup(k);
	}
	free(copy);
}

static void
free_keys(char **keys, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(keys[i]);
	free(keys);
}

/*
 * The partition keys: --partition-by, else the manifest's (for --ddl
 * with --out), else day when a selected run has one.  Returns 0, or -2
 * after a usage error.
 */
static int
choose_pkeys(sqlite3 *db, const struct export_cli *cli,
    const struct manifest *old, const struct export_model *m, char ***keys,
    size_t *n)
{
	struct strbuf why = STRBUF_INIT;
	size_t i;

	*keys = NULL;
	*n = 0;
	if (cli->partition_by) {
		if (!strcmp(cli->partition_by, "none"))
			return 0;
		split_keys(cli->partition_by, keys, n);
		for (i = 0; i < *n; i++) {
			if (!cli->provenance &&
			    keycat_is_provenance((*keys)[i])) {
				error("bad --partition-by: '%s' is a provenance "
				    "tag, a column only with --provenance",
				    (*keys)[i]);
				return -2;
			}
			if (!export_check_key(db, (*keys)[i], &why))
				continue;
			error("bad --partition-by: %s", why.buf);
			strbuf_release(&why);
			return -2;
		}
		for (i = 0; i + 1 < *n; i++) {
			size_t j;

			for (j = i + 1; j < *n; j++)
				if (!strcmp((*keys)[i], (*keys)[j])) {
					error("bad --partition-by: '%s' "
					    "twice", (*keys)[i]);
					return -2;
				}
		}
		return 0;
	}
	if (cli->ddl && old) {
		*keys = xcalloc(old->npkeys ? old->npkeys : 1, sizeof(**keys));
		for (i = 0; i < old->npkeys; i++)
			(*keys)[i] = xstrdup(old->pkeys[i]);
		*n = old->npkeys;
		return 0;
	}
	if (export_model_has_key(m, "day")) {
		*keys = xcalloc(1, sizeof(**keys));
		(*keys)[0] = xstrdup("day");
		*n = 1;
	}
	return 0;
}

/* ---------------------------------------------------------------------
 * Export
 */

struct tally {
	size_t		written, kept;	/* partitions */
	uint64_t	rows, bytes;	/* of the written ones */
};

/* One dataset partition to export or keep. */
struct plan_item {
	enum export_dataset	ds;
	const struct export_part *part;		/* NULL for findings */
	char			fingerprint[33];
	const struct manifest_entry *prev;	/* kept: the old entry */
};

/* pathstat check on its own connection, beside the writing. */
struct check_job {
	const char		*db_path;
	const struct where	*where;
	struct check_findings	findings;
	struct err_capture	msgs;		/* printed after the join */
	int			rc;
};

static void *
check_thread(void *arg)
{
	struct check_job *job = arg;
	sqlite3 *db;

	err_capture_begin(&job->msgs);
	db = db_open_readonly(job->db_path);
	job->rc = db ? analyze_check(db, job->where, &job->findings) : -1;
	db_close(db);
	err_capture_end();
	return NULL;
}

/* Whether the old manifest's entry can stand for this partition. */
static const struct manifest_entry *
reusable(const struct export_cli *cli, const struct manifest *old,
    enum export_dataset ds, const char *dir, const char *fingerprint)
{
	const struct manifest_entry *prev = manifest_find(old, ds, dir);

	if (cli->force || !prev || strcmp(prev->fingerprint, fingerprint) ||
	    !export_files_intact(cli->dirfd, prev))
		return NULL;
	return prev;
}

static void
copy_entry(const struct manifest_entry *src, struct manifest_entry *dst)
{
	size_t i;

	memset(dst, 0, sizeof(*dst));
	dst->ds = src->ds;
	dst->dir = xstrdup(src->dir);
	memcpy(dst->fingerprint, src->fingerprint, 33);
	dst->runs = src->runs;
	for (i = 0; i < src->files.n; i++) {
		struct export_file *f;

		ALLOC_GROW(dst->files.items, dst->files.n + 1,
		    dst->files.alloc);
		f = &dst->files.items[dst->files.n++];
		*f = src->files.items[i];
		f->path = xstrdup(src->files.items[i].path);
	}
}

/* Write (or keep) one planned partition; adds its entry to mf. */
static int
export_item(sqlite3 *db, const struct export_model *m,
    const struct plan_item *it, const struct check_findings *findings,
    const struct export_cli *cli, struct manifest *mf, struct tally *t)
{
	struct manifest_entry e;
	size_t i;

	if (it->prev) {
		copy_entry(it->prev, &e);
		manifest_add(mf, &e);
		t->kept++;
		return 0;
	}
	memset(&e, 0, sizeof(e));
	e.ds = it->ds;
	e.dir = xstrdup(it->part ? it->part->dir : "");
	e.runs = it->part ? it->part->n : 0;
	memcpy(e.fingerprint, it->fingerprint, 33);
	if (!cli->quiet && isatty(STDERR_FILENO))
		fprintf(stderr, "\r\033[Kpathstat export: %s/%s",
		    export_dataset_name(it->ds), e.dir);
	if (export_write_part(db, m, it->ds, it->part, findings, cli->dirfd,
	    cli->out, &cli->opts, &e.files)) {
		free(e.dir);
		export_files_release(&e.files);
		return -1;
	}
	for (i = 0; i < e.files.n; i++) {
		t->rows += e.files.items[i].rows;
		t->bytes += e.files.items[i].bytes;
	}
	t->written++;
	manifest_add(mf, &e);
	return 0;
}

static void
mbytes(struct strbuf *sb, uint64_t b)
{
	if (b >= 1000000)
		strbuf_addf(sb, "%.1f MB", (double)b / 1e6);
	else
		strbuf_addf(sb, "%.1f kB", (double)b / 1e3);
}

static void
report(const struct export_cli *cli, const struct tally *t, size_t removed,
    size_t nruns, bool wrote)
{
	struct strbuf sb = STRBUF_INIT;
	int ds;

	for (ds = 0; ds < DS_COUNT; ds++) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s: %zu partition%s written",
		    export_dataset_name((enum export_dataset)ds),
		    t[ds].written, t[ds].written == 1 ? "" : "s");
		if (t[ds].written) {
			strbuf_addf(&sb, " (%llu rows, ",
			    (unsigned long long)t[ds].rows);
			mbytes(&sb, t[ds].bytes);
			strbuf_addch(&sb, ')');
		}
		strbuf_addf(&sb, ", %zu unchanged", t[ds].kept);
		note("%s", sb.buf);
	}
	if (removed)
		note("removed %zu part file%s no longer exported", removed,
		    removed == 1 ? "" : "s");
	note("%zu runs in '%s'%s", nruns, cli->out, wrote ? "" :
	    "; nothing changed");
	strbuf_release(&sb);
}

/* One export, from the model to the new manifest (run_export's steps). */
struct export_job {
	struct export_model	m;
	struct manifest		old, mf;
	struct export_writers	others;
	struct check_job	check;
	struct strbuf		mname;		/* manifest.json or NAME.json */
	struct strbuf		mshown;		/* its folder, as shown */
	struct tally		t[DS_COUNT];
	struct plan_item	*plan;
	char			**pkeys;
	size_t			npkeys, nplan, removed, left;
	int			lockfd, mfd, mdirfd;
	pthread_t		tid;
	bool			started, had_old, wrote;
};

static void
job_init(struct export_job *j)
{
	memset(j, 0, sizeof(*j));
	j->check.findings = (struct check_findings)CHECK_FINDINGS_INIT;
	j->check.msgs = (struct err_capture)ERR_CAPTURE_INIT;
	strbuf_init(&j->mname, 0);
	strbuf_init(&j->mshown, 0);
	j->lockfd = j->mfd = j->mdirfd = -1;
}

/* Waits for the checks if they still run; prints what they said. */
static void
job_join_check(struct export_job *j)
{
	if (!j->started)
		return;
	pthread_join(j->tid, NULL);
	j->started = false;
	err_capture_flush(&j->check.msgs);
}

static void
job_release(struct export_job *j)
{
	job_join_check(j);
	if (j->lockfd >= 0)
		close(j->lockfd);
	if (j->mfd >= 0)
		close(j->mfd);
	export_writers_release(&j->others);
	strbuf_release(&j->mname);
	strbuf_release(&j->mshown);
	export_model_release(&j->m);
	manifest_release(&j->old);
	manifest_release(&j->mf);
	check_findings_release(&j->check.findings);
	strbuf_release(&j->check.msgs.text);
	free_keys(j->pkeys, j->npkeys);
	free(j->plan);
}

/*
 * The runs to export, their partition keys and DIR opened and locked
 * (new, empty, or an earlier export of ours); with other writers their
 * partitioning and their runs left out.  An exit code.
 */
static int
job_open(sqlite3 *db, struct export_cli *cli, struct export_job *j)
{
	int rc;

	rc = export_model_load(db, &cli->where, cli->provenance, &j->m);
	if (rc)
		return rc == -2 ? PATHSTAT_EXIT_USAGE : PATHSTAT_EXIT_FAIL;
	if (!j->m.nruns) {
		error(cli->where.n ? "no runs match the --where filters" :
		    "the database holds no runs");
		return PATHSTAT_EXIT_FAIL;
	}
	/* a bad --partition-by is a usage error before DIR is made */
	if (choose_pkeys(db, cli, NULL, &j->m, &j->pkeys, &j->npkeys))
		return PATHSTAT_EXIT_USAGE;
	rc = export_open_out(cli->out, cli->opts.writer, &cli->dirfd,
	    &j->mfd, &j->old, &j->had_old, &j->others);
	j->lockfd = cli->dirfd;
	if (rc)
		return rc == -2 ? PATHSTAT_EXIT_USAGE : PATHSTAT_EXIT_FAIL;
	if (cli->opts.writer) {
		j->mdirfd = j->mfd;
		strbuf_addf(&j->mname, "%s.json", cli->opts.writer);
		strbuf_addf(&j->mshown, "%s/manifests", cli->out);
	} else {
		j->mdirfd = j->lockfd;
		strbuf_addstr(&j->mname, "manifest.json");
		strbuf_addstr(&j->mshown, cli->out);
	}
	if (j->others.n) {
		/* the other writers' partitioning is the dataset's */
		free_keys(j->pkeys, j->npkeys);
		j->pkeys = NULL;
		j->npkeys = 0;
		if (export_writers_pkeys(cli->partition_by, &j->others,
		    &j->pkeys, &j->npkeys))
			return PATHSTAT_EXIT_USAGE;
		j->left = export_leave_out_others(&j->m, &j->others, &j->old,
		    cli->opts.writer);
	}
	export_model_partition(&j->m, j->pkeys, j->npkeys);
	return PATHSTAT_EXIT_OK;
}

/*
 * The new manifest's header (partition keys, --where as typed); a link
 * or FIFO planted at its temporary name cleared, and a first manifest
 * written into a DIR that has none, marking it ours before the first
 * file so a run killed half way can be repeated into it.  0 or -1.
 */
static int
job_start_manifest(const struct export_cli *cli, struct export_job *j)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	size_t i;
	int ret = -1;

	j->mf.pkeys = xcalloc(j->npkeys ? j->npkeys : 1, sizeof(*j->mf.pkeys));
	for (i = 0; i < j->npkeys; i++)
		j->mf.pkeys[i] = xstrdup(j->pkeys[i]);
	j->mf.npkeys = j->npkeys;
	j->mf.where = xcalloc(cli->nwhere_text ? cli->nwhere_text : 1,
	    sizeof(*j->mf.where));
	for (i = 0; i < cli->nwhere_text; i++)
		j->mf.where[i] = xstrdup(cli->where_text[i]);
	j->mf.nwhere = cli->nwhere_text;

	/* the planted name goes even when the manifest is not rewritten */
	strbuf_addf(&path, "%s/.%s.tmp", j->mshown.buf, j->mname.buf);
	strbuf_addf(&text, ".%s.tmp", j->mname.buf);
	if (outdir_clear_planted(j->mdirfd, text.buf, path.buf))
		goto cleanup;
	strbuf_reset(&text);
	if (!j->had_old) {
		manifest_json(&j->mf, &j->m, &cli->opts, &text);
		if (export_write_manifest(j->mdirfd, j->mshown.buf,
		    j->mname.buf, &text, &j->wrote))
			goto cleanup;
	}
	ret = 0;
cleanup:
	strbuf_release(&path);
	strbuf_release(&text);
	return ret;
}

/*
 * The plan: every partition's fingerprint, and what can stay.  The
 * findings come from the same runs (unchanged runs, same findings), so
 * the checks, the slow part, start on their own thread only when the
 * findings changed.  0 or -1.
 */
static int
job_plan(const struct export_cli *cli, struct export_job *j)
{
	struct strbuf text = STRBUF_INIT;
	struct plan_item *last;
	size_t i;
	int ds, ret = -1;

	j->plan = xcalloc(3 * j->m.nparts + 1, sizeof(*j->plan));
	for (ds = DS_SAMPLES; ds <= DS_SUMMARIES; ds++)
		for (i = 0; i < j->m.nparts; i++) {
			struct plan_item *it = &j->plan[j->nplan++];

			it->ds = (enum export_dataset)ds;
			it->part = &j->m.parts[i];
			export_fingerprint(&j->m, it->ds, it->part,
			    &cli->opts, NULL, it->fingerprint);
			it->prev = reusable(cli, &j->old, it->ds,
			    it->part->dir, it->fingerprint);
			strbuf_addstr(&text, it->fingerprint);
		}
	for (i = 0; i < cli->nwhere_text; i++)
		strbuf_addf(&text, "\n%s", cli->where_text[i]);
	last = &j->plan[j->nplan++];
	last->ds = DS_FINDINGS;
	export_fingerprint(&j->m, DS_FINDINGS, NULL, &cli->opts, text.buf,
	    last->fingerprint);
	last->prev = reusable(cli, &j->old, DS_FINDINGS, "",
	    last->fingerprint);
	if (!last->prev) {
		j->check.db_path = db_default_path(cli->db_path);
		j->check.where = &cli->where;
		if (pthread_create(&j->tid, NULL, check_thread, &j->check)) {
			error("cannot start a thread for the checks");
			goto cleanup;
		}
		j->started = true;
	}
	ret = 0;
cleanup:
	strbuf_release(&text);
	return ret;
}

/* Write or keep every planned partition, the findings last (after the
 * checks' thread).  0 or -1. */
static int
job_write(sqlite3 *db, const struct export_cli *cli, struct export_job *j)
{
	const struct plan_item *last = &j->plan[j->nplan - 1];
	size_t i;

	for (i = 0; i + 1 < j->nplan; i++)
		if (export_item(db, &j->m, &j->plan[i], NULL, cli, &j->mf,
		    &j->t[j->plan[i].ds]))
			return -1;
	if (j->started) {
		job_join_check(j);
		if (j->check.rc)
			return -1;
	}
	if (export_item(db, &j->m, last, &j->check.findings, cli, &j->mf,
	    &j->t[DS_FINDINGS]))
		return -1;
	if (!cli->quiet && isatty(STDERR_FILENO))
		fputs("\r\033[K", stderr);
	return 0;
}

/* What the new manifest lists stays, our other files go; then the new
 * manifest.  0 or -1. */
static int
job_finish(const struct export_cli *cli, struct export_job *j)
{
	struct export_keep keep = { NULL, 0 };
	struct strbuf text = STRBUF_INIT;
	size_t i, k;
	int ds, ret = -1;

	for (i = 0; i < j->mf.n; i++)
		for (k = 0; k < j->mf.items[i].files.n; k++) {
			keep.path = xreallocarray(keep.path, keep.n + 1,
			    sizeof(*keep.path));
			keep.path[keep.n++] = j->mf.items[i].files.items[k].path;
		}
	if (keep.n)	/* qsort(NULL, 0) is undefined */
		qsort(keep.path, keep.n, sizeof(*keep.path), export_cmp_strp);
	for (ds = 0; ds < DS_COUNT; ds++)
		if (export_remove_stale(j->lockfd, cli->out,
		    export_dataset_name((enum export_dataset)ds),
		    cli->opts.writer, &keep, &j->removed))
			goto cleanup;
	manifest_json(&j->mf, &j->m, &cli->opts, &text);
	if (export_write_manifest(j->mdirfd, j->mshown.buf, j->mname.buf,
	    &text, &j->wrote))
		goto cleanup;
	ret = 0;
cleanup:
	free(keep.path);
	strbuf_release(&text);
	return ret;
}

static int
run_export(sqlite3 *db, struct export_cli *cli)
{
	struct export_job j;
	int ret;

	job_init(&j);
	cli->dirfd = -1;
	ret = job_open(db, cli, &j);
	if (ret != PATHSTAT_EXIT_OK)
		goto cleanup;
	ret = PATHSTAT_EXIT_FAIL;
	if (job_start_manifest(cli, &j) || job_plan(cli, &j) ||
	    job_write(db, cli, &j) || job_finish(cli, &j))
		goto cleanup;
	if (j.left)
		note("left out %zu run%s that other writers exported "
		    "(manifests/*.json): each run is in the dataset once",
		    j.left, j.left == 1 ? "" : "s");
	if (!cli->quiet)
		report(cli, j.t, j.removed, j.m.nruns, j.wrote);
	ret = PATHSTAT_EXIT_OK;
cleanup:
	job_join_check(&j);
	if (ret != PATHSTAT_EXIT_OK && !cli->quiet && isatty(STDERR_FILENO))
		fputs("\r\033[K", stderr);
	job_release(&j);
	return ret;
}

/* ---------------------------------------------------------------------
 * --ddl
 */

static int
run_ddl(sqlite3 *db, struct export_cli *cli)
{
	struct export_model m;
	struct manifest old;
	struct export_writers all;
	struct strbuf path = STRBUF_INIT, loc = STRBUF_INIT;
	char **pkeys = NULL, *real = NULL;
	size_t npkeys = 0, i, j;
	bool have_old = false;
	int ret = PATHSTAT_EXIT_FAIL, rc;

	memset(&m, 0, sizeof(m));
	memset(&old, 0, sizeof(old));
	memset(&all, 0, sizeof(all));
	if (cli->out) {
		strbuf_addf(&path, "%s/manifest.json", cli->out);
		rc = manifest_read(cli->out, &old);
		if (rc < 0)
			goto cleanup;
		have_old = rc == 0;
		/* several writers' dataset: their manifests, for the
		 * partitioning and every writer's partitions */
		if (!have_old && export_read_all_writers(cli->out, &all))
			goto cleanup;
		if (have_old && !cli->where.n && old.nwhere) {
			/* the DDL describes what that export selected */
			struct strbuf why = STRBUF_INIT;

			for (i = 0; i < old.nwhere; i++) {
				if (!where_add(&cli->where, old.where[i], &why))
					continue;
				error("'%s': bad where '%s': %s", path.buf,
				    old.where[i], why.buf);
				strbuf_release(&why);
				goto cleanup;
			}
			strbuf_release(&why);
		}
	}
	if (cli->location) {
		strbuf_addstr(&loc, cli->location);
	} else if (cli->out) {
		real = realpath(cli->out, NULL);
		if (!real) {
			error_errno("cannot find '%s'", cli->out);
			goto cleanup;
		}
		strbuf_addstr(&loc, real);
	} else {
		error("--ddl needs --location URI or --out DIR; see "
		    "'pathstat export --help'");
		ret = PATHSTAT_EXIT_USAGE;
		goto cleanup;
	}
	/* the DDL declares what that export wrote: its manifest's
	 * provenance columns too */
	for (i = 0; have_old && i < old.nkey_cols; i++)
		if (keycat_is_provenance(old.key_keys[i]))
			cli->provenance = true;
	rc = export_model_load(db, &cli->where, cli->provenance, &m);
	if (rc) {
		ret = rc == -2 ? PATHSTAT_EXIT_USAGE : PATHSTAT_EXIT_FAIL;
		goto cleanup;
	}
	if (!m.nruns) {
		error(cli->where.n ? "no runs match the --where filters" :
		    "the database holds no runs");
		goto cleanup;
	}
	if (all.n ? export_writers_pkeys(cli->partition_by, &all, &pkeys, &npkeys) :
	    choose_pkeys(db, cli, have_old ? &old : NULL, &m, &pkeys,
	    &npkeys)) {
		ret = PATHSTAT_EXIT_USAGE;
		goto cleanup;
	}
	export_model_partition(&m, pkeys, npkeys);
	/* the tables declare every writer's key columns */
	for (i = 0; i < all.n; i++)
		for (j = 0; j < all.mf[i].nkey_cols; j++) {
			if (!export_model_add_key(&m, all.mf[i].key_keys[j],
			    all.mf[i].key_cols[j]))
				continue;
			error("'%s/manifests/%s.json': the key '%s' is column "
			    "'%s' there and not here, or the name is another "
			    "column's: make the DDL from a database that has "
			    "every key", cli->out, all.name[i],
			    all.mf[i].key_keys[j], all.mf[i].key_cols[j]);
			goto cleanup;
		}
	/* Athena's projection spans every writer's days and values */
	for (i = 0; i < all.n; i++)
		for (j = 0; j < all.mf[i].n; j++) {
			if (all.mf[i].items[j].ds == DS_FINDINGS ||
			    !export_model_add_dir(&m, all.mf[i].items[j].dir))
				continue;
			error("'%s/manifests/%s.json': partition '%s' does not "
			    "have the keys %s", cli->out, all.name[i],
			    all.mf[i].items[j].dir, all.mf[i].npkeys ?
			    all.mf[i].pkeys[0] : "none");
			goto cleanup;
		}
	rc = export_ddl(stdout, cli->engine, loc.buf, !cli->location, &m);
	if (rc) {
		ret = rc == -2 ? PATHSTAT_EXIT_USAGE : PATHSTAT_EXIT_FAIL;
		goto cleanup;
	}
	ret = PATHSTAT_EXIT_OK;
cleanup:
	export_model_release(&m);
	manifest_release(&old);
	export_writers_release(&all);
	free_keys(pkeys, npkeys);
	free(real);
	strbuf_release(&path);
	strbuf_release(&loc);
	return ret;
}

static const char *const export_codecs[] = { "zstd", "gzip", "none", NULL };
static const char *const export_engines[] = { "athena", "trino", "spark",
	"duckdb", NULL };

static int
opt_codec(const struct parseopt *opt, const char *arg, struct strbuf *why)
{
	(void)why;
	return pq_codec_parse(arg, opt->value);
}

/* --ddl ENGINE: print the DDL instead (opt->value: the export_cli) */
static int
opt_ddl(const struct parseopt *opt, const char *arg, struct strbuf *why)
{
	struct export_cli *cli = opt->value;

	(void)why;
	if (export_engine_parse(arg, &cli->engine))
		return -1;
	cli->ddl = true;
	return 0;
}

static int
opt_file_size(const struct parseopt *opt, const char *arg,
    struct strbuf *why)
{
	if (parse_size(arg, opt->value)) {
		strbuf_addstr(why, "want bytes, at least 4k (k, m, g "
		    "suffixes)");
		return -1;
	}
	return 0;
}

/* --where, kept as typed too for the manifest (opt->value: the
 * export_cli) */
static int
opt_where(const struct parseopt *opt, const char *arg, struct strbuf *why)
{
	struct export_cli *cli = opt->value;

	if (where_add(&cli->where, arg, why))
		return -1;
	cli->where_text = xreallocarray(cli->where_text, cli->nwhere_text + 1,
	    sizeof(*cli->where_text));
	cli->where_text[cli->nwhere_text++] = (char *)arg;
	return 0;
}

/* --writer NAME (opt->value: the writer name's slot) */
static int
opt_writer(const struct parseopt *opt, const char *arg, struct strbuf *why)
{
	if (!export_writer_name_ok(arg, strlen(arg))) {
		strbuf_addf(why, "want 1 to %d of A-Z a-z 0-9 _ . -, not "
		    "starting with . or -", EXPORT_WRITER_MAX);
		return -1;
	}
	*(const char **)opt->value = arg;
	return 0;
}

int
cmd_export(int argc, char **argv)
{
	struct export_cli cli;
	/* the table parses and prints --help */
	const struct parseopt opts[] = {
		OPT_DB(&cli.db_path),
		OPT_STRING(0, "out", &cli.out, "DIR", "where the datasets go "
		    "(created; an existing DIR must be empty or hold an "
		    "earlier export); required unless --ddl"),
		OPT_CALLBACK(0, "where", &cli, "KEY=VALUE", opt_where,
		    PARSEOPT_WHY_ONLY | PARSEOPT_MANY, "export only the runs "
		    "that match (as in analyze)"),
		OPT_STRING(0, "partition-by", &cli.partition_by, "KEYS",
		    "partition folders, e.g. day or day,instance_type; 'none' "
		    "for one folder (default: day when runs have one, else "
		    "none)"),
		OPT_ENUM_CB(0, "codec", &cli.opts.codec, export_codecs,
		    opt_codec, "zstd (default), gzip or none"),
		OPT_FLAG(0, "basic-encodings", &cli.opts.basic, "only PLAIN and "
		    "dictionary encodings, for readers without "
		    "DELTA_BINARY_PACKED or BYTE_STREAM_SPLIT"),
		OPT_CALLBACK(0, "file-size", &cli.opts.file_bytes, "SIZE",
		    opt_file_size, 0, "start a new part file past SIZE bytes "
		    "(k, m, g; default 256m)"),
		OPT_FLAG(0, "provenance", &cli.provenance, "also a key column "
		    "for each provenance tag (how a run was made: "
		    KEYCAT_PROVENANCE_LIST "), which every run has its own "
		    "value of; without it they are only in the runs' tags "
		    "column"),
		OPT_FLAG(0, "force", &cli.force, "rewrite every partition"),
		OPT_FLAG('q', "quiet", &cli.quiet, "no progress notes"),
		OPT_CALLBACK(0, "writer", &cli.opts.writer, "NAME", opt_writer,
		    0, "one of several machines exporting into one dataset: "
		    "part-NAME-NNNNN.parquet and DIR/manifests/NAME.json; runs "
		    "another writer's manifest lists are left out"),
		OPT_ENUM_CB(0, "ddl", &cli, export_engines, opt_ddl, "print "
		    "CREATE statements for the engine instead of exporting"),
		OPT_STRING(0, "location", &cli.location, "URI", "with --ddl: "
		    "where the engine finds the datasets (s3://bucket/prefix); "
		    "DuckDB may use --out DIR"),
		OPT_END(),
	};
	/* --out is required, unless --ddl, which wants --location or
	 * --out (the earlier export it describes) */
	static const char *const forms[] = {
		"+out -ddl -location",
		"+ddl +location -codec -basic-encodings -file-size -force "
		    "-quiet -writer",
		"+ddl +out -location -codec -basic-encodings -file-size "
		    "-force -quiet -writer",
		NULL,
	};
	const struct parseopt_cmd cmd = {
		.name = "export",
		.forms = forms,
		.intro =
		    "Write the database as Parquet for Athena, Trino, Spark "
		    "and DuckDB: DIR/samples/ (one row per sample), runs/ "
		    "(one per run), summaries/ (the tools' own statistics) "
		    "and findings/ (what 'pathstat check' reports), in "
		    "Hive-style partition folders (day=2026-08-28/), and "
		    "DIR/manifest.json with each file's content hash.  Run "
		    "it again and only partitions whose runs changed are "
		    "written; files appear under their names only when "
		    "complete.  With --ddl ENGINE (and --out DIR or "
		    "--location URI) it prints the statements that make the "
		    "datasets tables instead.",
		.outro =
		    "With --writer NAME, machines that each ingest into their "
		    "own database export into one dataset; a run is in it "
		    "once (the first writer that exported it keeps it).",
		.opts = opts,
	};
	enum parseopt_result pr;
	sqlite3 *db = NULL;
	int nargs, ret = PATHSTAT_EXIT_OK;

	err_set_prefix("pathstat export");
	memset(&cli, 0, sizeof(cli));
	cli.opts.codec = PQ_CODEC_ZSTD;
	cli.opts.file_bytes = EXPORT_FILE_BYTES;
	pr = parseopt(&cmd, argc, argv, &nargs);
	if (pr != PARSEOPT_OK) {
		ret = parseopt_exit(pr);
		goto cleanup;
	}
	if (!cli.ddl && !cli.out) {
		ret = parseopt_usage_error(&cmd, "--out DIR is required (or "
		    "--ddl ENGINE)");
		goto cleanup;
	}
	if (!cli.ddl && cli.location) {
		error("--location goes with --ddl");
		ret = PATHSTAT_EXIT_USAGE;
		goto cleanup;
	}
	if (cli.ddl && cli.opts.writer) {
		error("--writer goes with an export, not --ddl (the DDL "
		    "reads every writer's manifest in --out DIR)");
		ret = PATHSTAT_EXIT_USAGE;
		goto cleanup;
	}
	if (cli.out && !*cli.out) {
		error("--out: an empty folder name");
		ret = PATHSTAT_EXIT_USAGE;
		goto cleanup;
	}
	db = db_open_readonly(db_default_path(cli.db_path));
	if (!db) {
		ret = PATHSTAT_EXIT_FAIL;
		goto cleanup;
	}
	ret = cli.ddl ? run_ddl(db, &cli) : run_export(db, &cli);
cleanup:
	db_close(db);
	where_release(&cli.where);
	free(cli.where_text);
	return ret;
}
