/*
 * load.c - read the runs `pathstat check` looks at, summarise each
 * one from its samples in a single pass (count, median, the
 * throughput series and its cliff, SYN-retransmit modes, a probe run's
 * connect minus handshake times) and from the tool's own summaries, and
 * group them into cells.  Samples are read run
 * by run and forgotten, so memory stays O(largest run).
 */
#include "common/compat.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check/model.h"
#include "stats/stats.h"
#include "common/db.h"
#include "common/err.h"
#include "common/hash.h"
#include "common/kv.h"
#include "common/runsel.h"
#include "common/strbuf.h"
#include "common/where.h"
#include "common/xalloc.h"

#define CHECK_NSTATUS	16	/* sample_status ids we name */

/* Statements and scratch buffers reused for every run. */
/* One metric's successful samples of a run in time order. */
struct timed {
	int64_t	*t;		/* t_us, ascending */
	double	*v;		/* the value at t[i] */
	size_t	n, alloc;
};

/* Where each string of one of the model's arrays is, by its hash: slot
 * i holds the string's index + 1, or 0 (open addressing, at most half
 * full), so a run's path, campaign and machine are found in O(1), not
 * by a search of every campaign seen so far. */
struct strix {
	size_t	*slot;		/* cap entries; owned */
	size_t	cap;		/* a power of 2, or 0 */
};

struct loader {
	sqlite3_stmt	*samples, *summaries, *errors, *by_time;
	struct strix	paths, conds, scopes, instances;
	double		*vals;	/* a run's successful samples, in order */
	double		*times;	/* their t_us */
	size_t		alloc;
	struct timed	conn, hs;	/* a probe run's two series */
};

/* Read metric's successful samples of run id, in t_us order, into s.
 * Returns 0, or -1 (the caller names the run). */
static int
read_timed(struct loader *ld, int64_t id, int metric, struct timed *s)
{
	int rc;

	s->n = 0;
	sqlite3_reset(ld->by_time);
	sqlite3_bind_int64(ld->by_time, 1, id);
	sqlite3_bind_int(ld->by_time, 2, metric);
	while ((rc = sqlite3_step(ld->by_time)) == SQLITE_ROW) {
		if (s->n == s->alloc) {
			s->alloc = s->alloc ? 2 * s->alloc : 1024;
			s->t = xreallocarray(s->t, s->alloc, sizeof(int64_t));
			s->v = xreallocarray(s->v, s->alloc, sizeof(double));
		}
		s->t[s->n] = sqlite3_column_int64(ld->by_time, 0);
		s->v[s->n++] = sqlite3_column_double(ld->by_time, 1);
	}
	return rc == SQLITE_DONE ? 0 : -1;
}

/*
 * A probe run's handshake_ms next to its connect_ms: the two rows of one
 * probe share t_us (pathprobe's unix_ns), which pairs them also in a
 * database written before every probe had a handshake_ms row.
 */
static int
load_gap(struct check_model *m, struct loader *ld, struct check_run *r)
{
	struct timed *c = &ld->conn, *h = &ld->hs;
	size_t i = 0, j = 0, n = 0;
	double *cv, *hv;

	if (r->metric != METRIC_CONNECT_MS)
		return 0;
	if (read_timed(ld, r->id, METRIC_HANDSHAKE_MS, h) ||
	    (h->n && read_timed(ld, r->id, METRIC_CONNECT_MS, c)))
		return error("read the probes of run %lld: %s",
		    (long long)r->id, sqlite3_errmsg(m->db));
	if (!h->n)
		return 0;
	cv = xmalloc(h->n * sizeof(double));
	hv = xmalloc(h->n * sizeof(double));
	while (i < c->n && j < h->n) {
		if (c->t[i] < h->t[j]) {
			i++;
		} else if (c->t[i] > h->t[j]) {
			j++;
		} else {
			cv[n] = c->v[i++];
			hv[n++] = h->v[j++];
		}
	}
	check_detect_gap(cv, hv, n, &r->gap);
	free(cv);
	free(hv);
	return 0;
}

/* The slot of s in ix: where it is, or the free slot it would take. */
static size_t
strix_slot(const struct strix *ix, char *const *arr, const char *s)
{
	size_t i = (size_t)(hash_name(s) & (ix->cap - 1));

	while (ix->slot[i] && strcmp(arr[ix->slot[i] - 1], s))
		i = (i + 1) & (ix->cap - 1);
	return i;
}

/* The index of s in (*arr)[0..*n), appending a copy when new; ix is the
 * array's hash index. */
static size_t
intern(struct strix *ix, char ***arr, size_t *n, size_t *alloc,
    const char *s)
{
	size_t i;

	if (2 * (*n + 1) > ix->cap) {
		size_t cap = ix->cap ? 2 * ix->cap : 64, k;

		free(ix->slot);
		ix->slot = xcalloc(cap, sizeof(size_t));
		ix->cap = cap;
		for (k = 0; k < *n; k++)
			ix->slot[strix_slot(ix, *arr, (*arr)[k])] = k + 1;
	}
	i = strix_slot(ix, *arr, s);
	if (ix->slot[i])
		return ix->slot[i] - 1;
	ALLOC_GROW(*arr, *n + 1, *alloc);
	(*arr)[*n] = xstrdup(s);
	ix->slot[i] = *n + 1;
	return (*n)++;
}

static const char *
col_str(sqlite3_stmt *st, int i)
{
	const unsigned char *v = sqlite3_column_text(st, i);

	return v ? (const char *)v : "";
}

const char *
check_metric_name(int metric)
{
	const struct metric *mm = metric_by_id(metric);

	return mm ? mm->name : "metric?";
}

const char *
check_cond_get(const struct check_model *m, size_t cond, const char *key,
    char *buf, size_t len)
{
	struct kvset s = KVSET_INIT;
	struct strbuf why = STRBUF_INIT;
	const char *v;
	const char *ret = NULL;

	cond_parse(m->conds[cond], &s, &why);
	v = kvset_get(&s, key);
	if (v && len) {
		snprintf(buf, len, "%s", v);
		ret = buf;
	}
	kvset_release(&s);
	strbuf_release(&why);
	return ret;
}

/* The condition's key names, sorted and ","-joined ("P,proto"); the
 * caller frees it. */
static char *
cond_keys_of(const char *cond)
{
	struct kvset s = KVSET_INIT;
	struct strbuf why = STRBUF_INIT, out = STRBUF_INIT;
	size_t i;

	cond_parse(cond, &s, &why);
	for (i = 0; i < s.n; i++) {
		if (i)
			strbuf_addch(&out, ',');
		strbuf_addstr(&out, s.items[i].key);
	}
	kvset_release(&s);
	strbuf_release(&why);
	return strbuf_detach(&out, NULL);
}

static size_t
cond_index(struct check_model *m, struct loader *ld, const char *cond)
{
	size_t n = m->nconds, i;

	i = intern(&ld->conds, &m->conds, &m->nconds, &m->alloc_conds, cond);
	if (m->nconds != n) {
		m->cond_keys = xreallocarray(m->cond_keys, m->alloc_conds,
		    sizeof(char *));
		m->cond_keys[i] = cond_keys_of(cond);
	}
	return i;
}

/* Read the run's primary-metric samples and summarise them. */
static int
load_samples(struct check_model *m, struct loader *ld, struct check_run *r)
{
	int64_t fails[CHECK_NSTATUS + 1];
	struct strbuf detail = STRBUF_INIT;
	size_t n = 0, i;
	int rc;

	memset(fails, 0, sizeof(fails));
	sqlite3_reset(ld->samples);
	sqlite3_bind_int64(ld->samples, 1, r->id);
	sqlite3_bind_int(ld->samples, 2, r->metric);
	while ((rc = sqlite3_step(ld->samples)) == SQLITE_ROW) {
		int status = sqlite3_column_int(ld->samples, 1);

		if (status != SAMPLE_OK ||
		    sqlite3_column_type(ld->samples, 0) == SQLITE_NULL) {
			fails[status > 0 && status < CHECK_NSTATUS ? status :
			    CHECK_NSTATUS]++;
			r->nfail_rows++;
			continue;
		}
		if (n == ld->alloc) {
			ld->alloc = ld->alloc ? 2 * ld->alloc : 1024;
			ld->vals = xreallocarray(ld->vals, ld->alloc,
			    sizeof(double));
			ld->times = xreallocarray(ld->times, ld->alloc,
			    sizeof(double));
		}
		ld->vals[n] = sqlite3_column_double(ld->samples, 0);
		ld->times[n] = sqlite3_column_type(ld->samples, 2) ==
		    SQLITE_NULL ? NAN : sqlite3_column_double(ld->samples, 2);
		n++;
	}
	if (rc != SQLITE_DONE)
		return error("read samples of run %lld: %s", (long long)r->id,
		    sqlite3_errmsg(m->db));
	r->n = n;
	for (i = 0; i <= CHECK_NSTATUS; i++) {
		if (!fails[i])
			continue;
		if (detail.len)
			strbuf_addstr(&detail, ", ");
		strbuf_addf(&detail, "%lld %s", (long long)fails[i],
		    i < CHECK_NSTATUS && sample_status_name((int)i) ?
		    sample_status_name((int)i) : "other");
	}
	r->fail_detail = detail.len ? strbuf_detach(&detail, NULL) : NULL;
	strbuf_release(&detail);
	if (r->metric == METRIC_THROUGHPUT_BPS && n) {
		r->series = xmalloc(n * sizeof(double));
		memcpy(r->series, ld->vals, n * sizeof(double));
		r->nseries = n;
		check_detect_cliff(r->series, n, &r->cliff);
		if (r->cliff.found) {
			/* t_us is an interval's end: the low level starts
			 * where the interval before it ended */
			double t = r->cliff.at ? ld->times[r->cliff.at - 1] :
			    0.0;

			r->cliff_t_s = isfinite(t) ? t / 1e6 :
			    (double)r->cliff.at;
		}
	}
	if (n) {
		stats_sort(ld->vals, n);
		r->p50 = stats_quantile_type7(ld->vals, n, 50.0);
		/* what analyze judges its cells' trials on too */
		stats_outlier_trial_stats(ld->vals, n, r->stat);
		if (r->metric == METRIC_CONNECT_MS ||
		    r->metric == METRIC_HTTP_MS)
			check_detect_syn(ld->vals, n, r->p50, &r->syn);
	}
	return 0;
}

static int
load_summaries(struct check_model *m, struct loader *ld, struct check_run *r)
{
	const char *primary = check_metric_name(r->metric);
	struct strbuf errs = STRBUF_INIT;
	int rc;

	sqlite3_reset(ld->summaries);
	sqlite3_bind_int64(ld->summaries, 1, r->id);
	while ((rc = sqlite3_step(ld->summaries)) == SQLITE_ROW) {
		const char *metric = col_str(ld->summaries, 0);
		const char *stat = col_str(ld->summaries, 1);
		double v;

		if (sqlite3_column_type(ld->summaries, 2) == SQLITE_NULL)
			continue;
		v = sqlite3_column_double(ld->summaries, 2);
		if (!strcmp(metric, primary) && stat[0] == 'p' &&
		    stat[1] >= '0' && stat[1] <= '9') {
			r->tool_pct = true;
			if (!strcmp(stat, "p50"))
				r->tool_p50 = v;
			else if (!strcmp(stat, "p95"))
				r->tool_tail[0] = v;
			else if (!strcmp(stat, "p99"))
				r->tool_tail[1] = v;
			if (!r->tool_est)
				r->tool_est = xstrdup(col_str(ld->summaries,
				    3));
		} else if (!strcmp(metric, "http") &&
		    !strcmp(stat, "success_rate")) {
			r->success_rate = v;
		} else if (!strcmp(metric, "http") &&
		    !strcmp(stat, "size_per_sec_bytes")) {
			r->bytes_per_s = v;
		} else if (!strcmp(metric, metric_name(METRIC_CONNECT_MS)) &&
		    !strcmp(stat, "timeout_s")) {
			r->timeout_s = v;
		} else if (!strcmp(metric, "iperf3") &&
		    !strcmp(stat, "target_bitrate")) {
			r->target_bps = v;
		} else if (!strcmp(metric, "iperf3") &&
		    !strcmp(stat, "rate_side")) {
			r->udp_side = v;
		} else if (!strcmp(metric, "lost_packets") &&
		    !strcmp(stat, "end")) {
			r->udp_lost = v;
		} else if (!strcmp(metric, "packets") &&
		    !strcmp(stat, "end")) {
			r->udp_sent = v;
		} else if (!strcmp(metric, metric_name(METRIC_CONNECT_MS)) &&
		    !strcmp(stat, "resolve_each")) {
			r->resolve_each = v == 1.0;
		}
	}
	if (rc != SQLITE_DONE)
		return error("read summaries of run %lld: %s",
		    (long long)r->id, sqlite3_errmsg(m->db));
	sqlite3_reset(ld->errors);
	sqlite3_bind_int64(ld->errors, 1, r->id);
	while ((rc = sqlite3_step(ld->errors)) == SQLITE_ROW) {
		if (errs.len)
			strbuf_addstr(&errs, "; ");
		strbuf_addf(&errs, "%s ×%lld", col_str(ld->errors, 0),
		    (long long)sqlite3_column_int64(ld->errors, 1));
	}
	if (rc != SQLITE_DONE) {
		strbuf_release(&errs);
		return error("read error counts of run %lld: %s",
		    (long long)r->id, sqlite3_errmsg(m->db));
	}
	r->errors = errs.len ? strbuf_detach(&errs, NULL) : NULL;
	strbuf_release(&errs);
	r->summary_only = r->n == 0 && r->nfail_rows == 0 && r->tool_pct;
	if (r->summary_only) {
		int64_t ok = r->attempts >= 0 ? r->attempts - r->failures : -1;

		r->stat[0] = r->tool_p50;
		/* the tool's tail where its count puts enough above it */
		r->stat[1] = ok < 0 || (double)ok * 0.05 >=
		    CHECK_OUTLIER_TAIL_MIN ? r->tool_tail[0] : NAN;
		r->stat[2] = ok < 0 || (double)ok * 0.01 >=
		    CHECK_OUTLIER_TAIL_MIN ? r->tool_tail[1] : NAN;
	}
	return 0;
}

/* Campaign text from the tags check groups by ("" when none). */
static void
scope_text(struct strbuf *sb, const char *day, const char *itype,
    const char *study)
{
	if (*day)
		strbuf_addf(sb, "day=%s", day);
	if (*itype)
		strbuf_addf(sb, "%sinstance_type=%s", sb->len ? "," : "",
		    itype);
	if (*study)
		strbuf_addf(sb, "%sstudy=%s", sb->len ? "," : "", study);
}

struct cell_key {
	size_t	scope, path, cond, idx;
	int	metric;
	long	trial;
	int64_t	started;
};

static int
cell_key_cmp(const void *va, const void *vb)
{
	const struct cell_key *a = va, *b = vb;

#define CMP(x) if (a->x != b->x) return a->x < b->x ? -1 : 1
	CMP(scope);
	CMP(metric);
	CMP(path);
	CMP(cond);
	CMP(trial);
	CMP(started);
	CMP(idx);
#undef CMP
	return 0;
}

static void
group_cells(struct check_model *m)
{
	struct cell_key *k;
	struct check_cell *c = NULL;
	size_t i;

	if (!m->nruns)
		return;
	k = xmalloc(m->nruns * sizeof(*k));
	for (i = 0; i < m->nruns; i++) {
		const struct check_run *r = &m->runs[i];

		k[i].scope = r->scope;
		k[i].path = r->path;
		k[i].cond = r->cond;
		k[i].metric = r->metric;
		k[i].trial = r->trial;
		k[i].started = r->started_at;
		k[i].idx = i;
	}
	qsort(k, m->nruns, sizeof(*k), cell_key_cmp);
	for (i = 0; i < m->nruns; i++) {
		if (!c || c->scope != k[i].scope || c->metric != k[i].metric ||
		    c->path != k[i].path || c->cond != k[i].cond) {
			ALLOC_GROW(m->cells, m->ncells + 1, m->alloc_cells);
			c = &m->cells[m->ncells++];
			memset(c, 0, sizeof(*c));
			c->scope = k[i].scope;
			c->metric = k[i].metric;
			c->path = k[i].path;
			c->cond = k[i].cond;
		}
		ALLOC_GROW(c->runs, c->nruns + 1, c->alloc);
		c->runs[c->nruns++] = k[i].idx;
	}
	free(k);
}

/* The tags a run's campaign and machine come from (see add_run). */
enum { TAG_DAY, TAG_ITYPE, TAG_STUDY, TAG_INSTANCE, TAG_INSTANCE_ID,
	TAG_HOSTNAME, NTAGS };

static const char *
tag_or_empty(const struct runsel_row *row, size_t i)
{
	return row->tags[i] ? row->tags[i] : "";
}

/* Add the run of row to the model (summarise_runs() summarises it). */
static void
add_run(struct check_model *m, struct loader *ld, const struct runsel_row *row,
    struct strbuf *scope)
{
	struct check_run *r;
	const char *inst;

	ALLOC_GROW(m->runs, m->nruns + 1, m->alloc_runs);
	r = &m->runs[m->nruns++];
	memset(r, 0, sizeof(*r));
	r->p50 = r->tool_p50 = NAN;
	r->stat[0] = r->stat[1] = r->stat[2] = NAN;
	r->tool_tail[0] = r->tool_tail[1] = NAN;
	r->success_rate = r->bytes_per_s = r->timeout_s = NAN;
	r->target_bps = NAN;
	r->udp_lost = r->udp_sent = r->udp_side = NAN;
	r->id = row->id;
	r->path = intern(&ld->paths, &m->paths, &m->npaths, &m->alloc_paths,
	    row->path);
	r->cond = cond_index(m, ld, row->cond);
	r->trial = row->trial;
	r->tool = xstrdup(row->tool ? row->tool : "");
	r->metric = row->metric;
	r->started_at = row->started_at;
	r->partial = row->partial;
	r->reason = row->reason ? xstrdup(row->reason) : NULL;
	r->failures = row->failures;
	r->attempts = row->attempts;
	r->file = row->file ? xstrdup(row->file) : NULL;
	r->summary_file = row->summary_file ? xstrdup(row->summary_file) :
	    NULL;
	/* A day derived from the start time does not split a campaign that
	 * runs past midnight: only a day tag does. */
	strbuf_reset(scope);
	scope_text(scope, tag_or_empty(row, TAG_DAY), tag_or_empty(row,
	    TAG_ITYPE), tag_or_empty(row, TAG_STUDY));
	r->scope = intern(&ld->scopes, &m->scopes, &m->nscopes,
	    &m->alloc_scopes, scope->buf);
	/* one machine: the tag instance, else instance_id, else hostname */
	inst = row->tags[TAG_INSTANCE] ? row->tags[TAG_INSTANCE] :
	    row->tags[TAG_INSTANCE_ID] ? row->tags[TAG_INSTANCE_ID] :
	    tag_or_empty(row, TAG_HOSTNAME);
	if (*inst)
		strbuf_addf(scope, "%sinstance=%s", scope->len ? "," : "",
		    inst);
	r->instance = intern(&ld->instances, &m->instances, &m->ninstances,
	    &m->alloc_instances, scope->buf);
}

/* Summarise each run from its samples and the tool's summaries, in the
 * order of the runs' ids: the order the database stores them in.  In
 * the model's order (path, condition, trial, start) each run was a
 * jump across the file, and once a campaign's runs of one trial
 * outgrew the page cache each page was read again for every trial,
 * path and condition (60,890 page reads on the 84-day team campaign
 * against 1,765 on 21 days). */
/* A run's id and its index in the model. */
struct by_id {
	int64_t	id;
	size_t	at;
};

static int
by_id_cmp(const void *va, const void *vb)
{
	const struct by_id *a = va, *b = vb;

	if (a->id != b->id)
		return a->id < b->id ? -1 : 1;
	return (a->at > b->at) - (a->at < b->at);
}

static int
summarise_runs(struct check_model *m, struct loader *ld)
{
	struct by_id *order = xcalloc(m->nruns + 1, sizeof(*order));
	size_t i;
	int ret = 0;

	for (i = 0; i < m->nruns; i++) {
		order[i].id = m->runs[i].id;
		order[i].at = i;
	}
	qsort(order, m->nruns, sizeof(*order), by_id_cmp);
	for (i = 0; i < m->nruns; i++) {
		struct check_run *r = &m->runs[order[i].at];

		if (load_samples(m, ld, r) || load_summaries(m, ld, r) ||
		    load_gap(m, ld, r)) {
			ret = -1;
			break;
		}
	}
	free(order);
	return ret;
}

int
check_model_load(struct check_model *m, const struct where *w)
{
	static char day[] = "day", itype[] = "instance_type",
	    study[] = "study", instance[] = "instance",
	    instance_id[] = "instance_id", hostname[] = "hostname";
	static char *const tags[NTAGS] = {
		[TAG_DAY] = day, [TAG_ITYPE] = itype, [TAG_STUDY] = study,
		[TAG_INSTANCE] = instance, [TAG_INSTANCE_ID] = instance_id,
		[TAG_HOSTNAME] = hostname,
	};
	struct strbuf scope = STRBUF_INIT;
	struct runsel_query q;
	struct runsel rs;
	struct loader ld;
	int rc, ret = -1;

	memset(&ld, 0, sizeof(ld));
	memset(&q, 0, sizeof(q));
	q.where = w;
	q.tags = tags;
	q.ntags = NTAGS;
	q.by_start = true;
	if (runsel_open(&rs, m->db, &q))
		goto cleanup;
	ld.samples = db_prepare(m->db, "read samples", "SELECT value, status, "
	    "t_us FROM series_rows(?1, ?2) ORDER BY seq");
	ld.summaries = db_prepare(m->db, "read summaries", "SELECT metric, "
	    "stat, value, estimator FROM summaries WHERE run_id = ?1");
	ld.errors = db_prepare(m->db, "read error counts", "SELECT label, "
	    "count FROM run_counts WHERE run_id = ?1 AND kind = 'error' "
	    "ORDER BY count DESC, label");
	ld.by_time = db_prepare(m->db, "read samples by time", "SELECT t_us, "
	    "value FROM series_rows(?1, ?2) WHERE status = 0 AND value IS "
	    "NOT NULL AND t_us IS NOT NULL ORDER BY t_us, seq");
	if (!ld.samples || !ld.summaries || !ld.errors || !ld.by_time)
		goto cleanup;
	while ((rc = runsel_next(&rs)) > 0) {
		/* A path MTU is one result per run, tabled as it is (analyze
		 * mtu): none of the rules is about it. */
		if (rs.row.metric == METRIC_PATH_MTU)
			continue;
		add_run(m, &ld, &rs.row, &scope);
	}
	if (rc < 0 || summarise_runs(m, &ld))
		goto cleanup;
	group_cells(m);
	ret = 0;
cleanup:
	runsel_close(&rs);
	sqlite3_finalize(ld.samples);
	sqlite3_finalize(ld.summaries);
	sqlite3_finalize(ld.errors);
	sqlite3_finalize(ld.by_time);
	free(ld.vals);
	free(ld.times);
	free(ld.conn.t);
	free(ld.conn.v);
	free(ld.hs.t);
	free(ld.hs.v);
	free(ld.paths.slot);
	free(ld.conds.slot);
	free(ld.scopes.slot);
	free(ld.instances.slot);
	strbuf_release(&scope);
	return ret;
}

static void
free_strings(char **arr, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(arr[i]);
	free(arr);
}

void
check_model_release(struct check_model *m)
{
	size_t i;

	for (i = 0; i < m->nruns; i++) {
		struct check_run *r = &m->runs[i];

		free(r->tool);
		free(r->reason);
		free(r->file);
		free(r->summary_file);
		free(r->fail_detail);
		free(r->series);
		free(r->tool_est);
		free(r->errors);
	}
	free(m->runs);
	for (i = 0; i < m->ncells; i++)
		free(m->cells[i].runs);
	free(m->cells);
	free_strings(m->paths, m->npaths);
	free_strings(m->conds, m->nconds);
	free_strings(m->cond_keys, m->nconds);
	free_strings(m->scopes, m->nscopes);
	free_strings(m->instances, m->ninstances);
	m->runs = NULL;
	m->cells = NULL;
	m->paths = m->conds = m->cond_keys = m->scopes = m->instances = NULL;
	m->nruns = m->ncells = m->npaths = m->nconds = 0;
	m->nscopes = m->ninstances = 0;
}
