/*
 * check.c - `pathstat check`: the table of checks, running them over the
 * runs in scope (analyze_check), the findings' storage and their output
 * (a Markdown list for people; CSV and JSON rows through common/table.h
 * for programs), and the command line.
 */
#include "common/compat.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analyze/options.h"
#include "check/check.h"
#include "check/model.h"
#include "common/db.h"
#include "common/err.h"
#include "common/escape.h"
#include "common/exit.h"
#include "common/keycat.h"
#include "common/parseopt.h"
#include "common/strbuf.h"
#include "common/table.h"
#include "common/xalloc.h"

/* At most this many files are listed under one finding in Markdown. */
#define CHECK_MD_MAX_FILES	6

struct check_entry {
	struct check_info	info;
	void			(*fn)(struct check_model *m);
};

/* The order findings are reported in: what makes a number wrong first. */
static const struct check_entry checks[] = {
	{ { "burst-cliff", CHECK_WARNING,
	    "an iperf3 run steps down and stays down (credits ran out)" },
	    check_burst_cliff },
	{ { "run-order", CHECK_WARNING,
	    "throughput falls with run order on an instance, not path" },
	    check_run_order },
	{ { "instance-cap", CHECK_WARNING,
	    "3 or more paths on one throughput plateau: the instance's limit" },
	    check_instance_cap },
	{ { "udp-sender-limited", CHECK_WARNING,
	    "UDP identical on 3 or more paths: the sender's rate" },
	    check_udp_sender },
	{ { "udp-loss", CHECK_WARNING,
	    "a UDP run lost 1 % or more of its datagrams" },
	    check_udp_loss },
	{ { "outlier-trial", CHECK_WARNING,
	    "2x or more from the median trial, or past the campaign's spread" },
	    check_outlier_trial },
	{ { "hidden-failures", CHECK_WARNING,
	    "errors, timeouts or partial runs the percentiles leave out" },
	    check_hidden_failures },
	{ { "syn-retransmit", CHECK_WARNING,
	    "values 1 s / 3 s above the median: retransmitted SYNs" },
	    check_syn_retransmit },
	{ { "busy-client", CHECK_WARNING,
	    "connect times far above the kernel's handshake RTT: busy client" },
	    check_busy_client },
	{ { "few-samples", CHECK_WARNING,
	    "p99 from fewer than 299 samples, or one of the last 3 values" },
	    check_few_samples },
	{ { "mixed-estimators", CHECK_WARNING,
	    "raw samples and tool summaries (or two estimators) in one table" },
	    check_mixed_estimators },
	{ { "pooled-groups", CHECK_WARNING,
	    "a cell pools runs of tags (instance type, day) that differ" },
	    check_pooled_groups },
	{ { "missing-cells", CHECK_NOTICE,
	    "a path x condition matrix with holes" },
	    check_missing_cells },
	{ { "unbalanced-trials", CHECK_NOTICE,
	    "cells with other trials, or trials with far fewer samples" },
	    check_unbalanced_trials },
};

const struct check_info *
check_list(size_t *n)
{
	static struct check_info list[ARRAY_SIZE(checks)];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(checks); i++)
		list[i] = checks[i].info;
	*n = ARRAY_SIZE(checks);
	return list;
}

const char *
check_severity_name(enum check_severity s)
{
	return s == CHECK_WARNING ? "warning" : "notice";
}

static enum check_severity
severity_of(const char *id)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(checks); i++)
		if (!strcmp(checks[i].info.id, id))
			return checks[i].info.severity;
	return CHECK_NOTICE;
}

/* ---------------------------------------------------------------------
 * Findings
 */

struct check_finding *
check_add(struct check_model *m, const char *id, size_t scope, int metric,
    size_t path, size_t cond, long trial)
{
	struct check_findings *out = m->out;
	struct check_finding *f;

	ALLOC_GROW(out->items, out->n + 1, out->alloc);
	f = &out->items[out->n++];
	memset(f, 0, sizeof(*f));
	f->check = id;
	f->severity = severity_of(id);
	f->metric = xstrdup(check_metric_name(metric));
	f->path = xstrdup(m->paths[path]);
	f->condition = xstrdup(m->conds[cond]);
	f->trial = trial;
	f->scope = xstrdup(m->scopes[scope]);
	return f;
}

static void
add_file(struct check_finding *f, const char *file)
{
	size_t i;

	if (!file)
		return;
	for (i = 0; i < f->nfiles; i++)
		if (!strcmp(f->files[i], file))
			return;
	f->files = xreallocarray(f->files, f->nfiles + 1, sizeof(char *));
	f->files[f->nfiles++] = xstrdup(file);
}

void
check_add_run(struct check_finding *f, const struct check_run *r)
{
	size_t i, at;

	for (i = 0; i < f->nruns; i++)
		if (f->runs[i] == r->id)
			return;
	f->runs = xreallocarray(f->runs, f->nruns + 1, sizeof(int64_t));
	/* keep the ids ascending */
	for (at = f->nruns; at > 0 && f->runs[at - 1] > r->id; at--)
		f->runs[at] = f->runs[at - 1];
	f->runs[at] = r->id;
	f->nruns++;
	add_file(f, r->file);
	add_file(f, r->summary_file);
}

static int
cmp_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* A file name and when it was first offered. */
struct named {
	const char	*name;
	size_t		order;
};

static int
cmp_named(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return (x->order > y->order) - (x->order < y->order);
}

static int
cmp_order(const void *a, const void *b)
{
	const struct named *x = a, *y = b;

	return (x->order > y->order) - (x->order < y->order);
}

/* Whether id is among the n ascending ids. */
static bool
has_id(const int64_t *ids, size_t n, int64_t id)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && ids[lo] == id;
}

void
check_add_runs(struct check_finding *f, const struct check_run *const *runs,
    size_t n)
{
	struct named *names;
	char **files;
	size_t i, k, nn = 0, old = f->nruns;

	if (!n)
		return;
	/* the files in the order first offered, after f's own, each once;
	 * a run f holds already adds nothing (as check_add_run) */
	names = xcalloc(f->nfiles + 2 * n, sizeof(*names));
	for (i = 0; i < f->nfiles; i++) {
		names[nn].name = f->files[i];
		names[nn].order = nn;
		nn++;
	}
	for (i = 0; i < n; i++) {
		if (has_id(f->runs, old, runs[i]->id))
			continue;
		if (runs[i]->file) {
			names[nn].name = runs[i]->file;
			names[nn].order = nn;
			nn++;
		}
		if (runs[i]->summary_file) {
			names[nn].name = runs[i]->summary_file;
			names[nn].order = nn;
			nn++;
		}
	}
	/* the ids, ascending and distinct */
	f->runs = xreallocarray(f->runs, old + n, sizeof(int64_t));
	for (i = 0; i < n; i++)
		f->runs[old + i] = runs[i]->id;
	qsort(f->runs, old + n, sizeof(int64_t), cmp_id);
	for (i = k = 0; i < old + n; i++)
		if (!k || f->runs[k - 1] != f->runs[i])
			f->runs[k++] = f->runs[i];
	f->nruns = k;
	qsort(names, nn, sizeof(*names), cmp_named);
	for (i = k = 0; i < nn; i++)
		if (!k || strcmp(names[k - 1].name, names[i].name))
			names[k++] = names[i];
	qsort(names, k, sizeof(*names), cmp_order);
	/* f's own files keep their place (and their copies) */
	files = xcalloc(k + 1, sizeof(char *));
	for (i = 0; i < k; i++)
		files[i] = names[i].order < f->nfiles ?
		    f->files[names[i].order] : xstrdup(names[i].name);
	free(f->files);
	f->files = files;
	f->nfiles = k;
	free(names);
}

/* The model's runs by id, for finding a run in O(log n). */
struct check_run_ix {
	int64_t	id;
	size_t	at;		/* in m->runs */
};

static int
cmp_run_ix(const void *a, const void *b)
{
	const struct check_run_ix *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

struct check_run_ix *
check_run_index(const struct check_model *m)
{
	struct check_run_ix *ix = xcalloc(m->nruns + 1, sizeof(*ix));
	size_t r;

	for (r = 0; r < m->nruns; r++) {
		ix[r].id = m->runs[r].id;
		ix[r].at = r;
	}
	qsort(ix, m->nruns, sizeof(*ix), cmp_run_ix);
	return ix;
}

const struct check_run *
check_run_of(const struct check_model *m, const struct check_run_ix *ix,
    int64_t id)
{
	size_t lo = 0, hi = m->nruns, best = SIZE_MAX;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ix[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < m->nruns && ix[lo].id == id; lo++)
		if (ix[lo].at < best)
			best = ix[lo].at;
	return best == SIZE_MAX ? NULL : &m->runs[best];
}

/* Append "; " to each non-empty text, so the next reason can follow. */
void
check_next_reason(struct strbuf *ev, struct strbuf *cause, struct strbuf *act)
{
	if (ev->len)
		strbuf_addstr(ev, "; ");
	if (cause->len)
		strbuf_addstr(cause, "; ");
	if (act->len)
		strbuf_addstr(act, "; ");
}

void
check_set_text(struct check_finding *f, struct strbuf *evidence,
    struct strbuf *cause, struct strbuf *action)
{
	free(f->evidence);
	free(f->cause);
	free(f->action);
	f->evidence = strbuf_detach(evidence, NULL);
	f->cause = strbuf_detach(cause, NULL);
	f->action = strbuf_detach(action, NULL);
}

void
check_findings_release(struct check_findings *out)
{
	size_t i;

	for (i = 0; i < out->n; i++)
		check_finding_release(&out->items[i]);
	free(out->items);
	out->items = NULL;
	out->n = out->alloc = 0;
}

/* ---------------------------------------------------------------------
 * Number text
 */

void
check_fmt_value(struct strbuf *sb, int metric, double v)
{
	double a = fabs(v);

	if (!isfinite(v)) {
		strbuf_addstr(sb, "n/a");
		return;
	}
	switch (metric) {
	case METRIC_THROUGHPUT_BPS:
		/* per magnitude, so a 12 Mbit/s floor does not read
		 * "0.01 Gbit/s"; Gbit/s down to 0.1 */
		if (a >= 1e8)
			strbuf_addf(sb, "%.2f Gbit/s", v / 1e9);
		else if (a >= 1e5)
			strbuf_addf(sb, "%.3g Mbit/s", v / 1e6);
		else
			strbuf_addf(sb, "%.3g kbit/s", v / 1e3);
		return;
	case METRIC_CONNECT_MS:
	case METRIC_HTTP_MS:
	case METRIC_HANDSHAKE_MS:
		if (a < 10.0)
			strbuf_addf(sb, "%.3f ms", v);
		else if (a < 100.0)
			strbuf_addf(sb, "%.2f ms", v);
		else
			strbuf_addf(sb, "%.0f ms", v);
		return;
	default:
		strbuf_addf(sb, "%.4g", v);
		return;
	}
}

void
check_fmt_count(struct strbuf *sb, uint64_t n)
{
	char digits[32];
	size_t len, i;

	snprintf(digits, sizeof(digits), "%llu", (unsigned long long)n);
	len = strlen(digits);
	for (i = 0; i < len; i++) {
		if (i && (len - i) % 3 == 0)
			strbuf_addch(sb, ',');
		strbuf_addch(sb, digits[i]);
	}
}

void
check_fmt_time(struct strbuf *sb, int64_t t)
{
	struct tm tm;
	time_t tt = (time_t)t;

	if (t == INT64_MIN || !gmtime_r(&tt, &tm)) {
		strbuf_addch(sb, '?');
		return;
	}
	strbuf_addf(sb, "%02d:%02d UTC", tm.tm_hour, tm.tm_min);
}

/* ---------------------------------------------------------------------
 * Running the checks
 */

static bool
wanted(const struct check_opts *o, const char *id)
{
	size_t i;

	if (!o || !o->only)
		return true;
	for (i = 0; i < o->nonly; i++)
		if (!strcmp(o->only[i], id))
			return true;
	return false;
}

/* The checks whose findings depend on check_opts beyond `only` (and so
 * are never cached): few-samples judges opts->stats over the cells as
 * opts->pooled and merge_keys pool them. */
static bool
reads_opts(const char *id)
{
	return !strcmp(id, "few-samples");
}

/* One --where's model and the raw (unmerged) findings of each check that
 * reads no option, run on first need. */
struct check_cache_entry {
	char			*where;		/* where_sql() text; owned */
	struct check_model	model;
	struct check_findings	raw[ARRAY_SIZE(checks)];
	bool			ran[ARRAY_SIZE(checks)];
};

struct check_cache {
	struct check_cache_entry *items;
	size_t			n, alloc;
};

struct check_cache *
check_cache_new(void)
{
	return xcalloc(1, sizeof(struct check_cache));
}

void
check_cache_free(struct check_cache *c)
{
	size_t i, j;

	if (!c)
		return;
	for (i = 0; i < c->n; i++) {
		struct check_cache_entry *e = &c->items[i];

		free(e->where);
		check_model_release(&e->model);
		for (j = 0; j < ARRAY_SIZE(checks); j++)
			check_findings_release(&e->raw[j]);
	}
	free(c->items);
	free(c);
}

static char **
strv_dup(char *const *v, size_t n)
{
	char **d = xcalloc(n + 1, sizeof(char *));
	size_t i;

	for (i = 0; i < n; i++)
		d[i] = xstrdup(v[i]);
	return d;
}

/* Append a deep copy of every finding of from to out. */
static void
findings_append_copy(struct check_findings *out,
    const struct check_findings *from)
{
	size_t i;

	for (i = 0; i < from->n; i++) {
		const struct check_finding *a = &from->items[i];
		struct check_finding *f;

		ALLOC_GROW(out->items, out->n + 1, out->alloc);
		f = &out->items[out->n++];
		*f = *a;
		f->metric = xstrdup(a->metric);
		f->path = xstrdup(a->path);
		f->condition = xstrdup(a->condition);
		f->scope = a->scope ? xstrdup(a->scope) : NULL;
		f->runs = NULL;
		if (a->nruns) {
			f->runs = xcalloc(a->nruns, sizeof(int64_t));
			memcpy(f->runs, a->runs, a->nruns * sizeof(int64_t));
		}
		f->files = a->nfiles ? strv_dup(a->files, a->nfiles) : NULL;
		f->evidence = a->evidence ? xstrdup(a->evidence) : NULL;
		f->cause = a->cause ? xstrdup(a->cause) : NULL;
		f->action = a->action ? xstrdup(a->action) : NULL;
	}
}

/* The cache's entry for w, its model loaded (a new entry on first
 * use); NULL after printing an error. */
static struct check_cache_entry *
cache_entry(struct check_cache *c, sqlite3 *db, const struct where *w)
{
	struct strbuf key = STRBUF_INIT;
	struct check_cache_entry *e = NULL;
	size_t i;

	where_sql(w, "r", &key);
	for (i = 0; i < c->n; i++)
		if (!strcmp(c->items[i].where, key.buf)) {
			e = &c->items[i];
			goto cleanup;
		}
	ALLOC_GROW(c->items, c->n + 1, c->alloc);
	e = &c->items[c->n];
	memset(e, 0, sizeof(*e));
	e->model.db = db;
	e->model.where = w;
	if (check_model_load(&e->model, w)) {
		check_model_release(&e->model);
		e = NULL;
		goto cleanup;
	}
	e->where = strbuf_detach(&key, NULL);
	c->n++;
cleanup:
	strbuf_release(&key);
	return e;
}

int
analyze_check_cached(sqlite3 *db, const struct where *w,
    const struct check_opts *opts, struct check_cache *cache,
    struct check_findings *out)
{
	struct check_cache_entry *e;
	struct check_model *m;
	size_t i;

	if (!cache)
		return analyze_check_opts(db, w, opts, out);
	e = cache_entry(cache, db, w);
	if (!e)
		return -1;
	m = &e->model;
	m->db = db;
	m->where = w;
	m->opts = opts;
	for (i = 0; i < ARRAY_SIZE(checks); i++) {
		size_t first = out->n;

		if (!wanted(opts, checks[i].info.id))
			continue;
		if (reads_opts(checks[i].info.id)) {
			m->out = out;
			checks[i].fn(m);
		} else {
			if (!e->ran[i]) {
				m->out = &e->raw[i];
				checks[i].fn(m);
				e->ran[i] = true;
			}
			findings_append_copy(out, &e->raw[i]);
		}
		m->out = out;
		/* pooled-groups spans campaigns already: nothing to merge */
		if (strcmp(checks[i].info.id, "pooled-groups"))
			check_merge(m, first);
	}
	m->opts = NULL;
	m->out = NULL;
	return 0;
}

int
analyze_check_opts(sqlite3 *db, const struct where *w,
    const struct check_opts *opts, struct check_findings *out)
{
	struct check_model m;
	size_t i;
	int ret = -1;

	memset(&m, 0, sizeof(m));
	m.db = db;
	m.where = w;
	m.opts = opts;
	m.out = out;
	if (check_model_load(&m, w))
		goto cleanup;
	for (i = 0; i < ARRAY_SIZE(checks); i++) {
		size_t first = out->n;

		if (!wanted(opts, checks[i].info.id))
			continue;
		checks[i].fn(&m);
		/* pooled-groups spans campaigns already: nothing to merge */
		if (strcmp(checks[i].info.id, "pooled-groups"))
			check_merge(&m, first);
	}
	ret = 0;
cleanup:
	check_model_release(&m);
	return ret;
}

int
analyze_check(sqlite3 *db, const struct where *w, struct check_findings *out)
{
	return analyze_check_opts(db, w, NULL, out);
}

/* ---------------------------------------------------------------------
 * Output
 */

static void
join_runs(struct strbuf *sb, const struct check_finding *f)
{
	size_t i;

	for (i = 0; i < f->nruns; i++)
		strbuf_addf(sb, "%s%lld", i ? "," : "", (long long)f->runs[i]);
}

void
check_findings_table(const struct check_findings *f, struct table *t)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i, j, row;

	table_add_col(t, "check", "Check", -1);
	table_add_col(t, "severity", "Severity", -1);
	table_add_col(t, "metric", "Metric", -1);
	table_add_col(t, "path", "Path", -1);
	table_add_col(t, "condition", "Condition", -1);
	table_add_col(t, "trial", "Trial", -1);
	table_add_col(t, "scope", "Scope", -1);
	table_add_col(t, "runs", "Runs", -1);
	table_add_col(t, "files", "Files", -1);
	table_add_col(t, "evidence", "Evidence", -1);
	table_add_col(t, "cause", "Likely cause", -1);
	table_add_col(t, "action", "What to do", -1);
	for (i = 0; i < f->n; i++) {
		const struct check_finding *x = &f->items[i];

		row = table_add_row(t);
		table_set_str(t, row, 0, x->check);
		table_set_str(t, row, 1, check_severity_name(x->severity));
		table_set_str(t, row, 2, x->metric);
		table_set_str(t, row, 3, x->path);
		table_set_str(t, row, 4, x->condition);
		if (x->trial >= 0)
			table_set_int(t, row, 5, x->trial);
		table_set_str(t, row, 6, x->scope);
		strbuf_reset(&sb);
		join_runs(&sb, x);
		table_set_str(t, row, 7, sb.buf);
		strbuf_reset(&sb);
		for (j = 0; j < x->nfiles; j++)
			strbuf_addf(&sb, "%s%s", j ? ", " : "", x->files[j]);
		table_set_str(t, row, 8, sb.buf);
		table_set_str(t, row, 9, x->evidence ? x->evidence : "");
		table_set_str(t, row, 10, x->cause ? x->cause : "");
		table_set_str(t, row, 11, x->action ? x->action : "");
	}
	strbuf_release(&sb);
}

/* Text of a finding: Markdown-escaped, or for a terminal as it is with
 * control characters made spaces. */
static void
text_put(struct strbuf *out, bool plain, const char *s)
{
	if (!plain) {
		escape_md(out, s);
		return;
	}
	for (; *s; s++)
		strbuf_addch(out, (unsigned char)*s < 0x20 || *s == 0x7f ? ' ' :
		    *s);
}

/* List f's files after the ones already listed (at most
 * CHECK_MD_MAX_FILES in all); *listed counts every file seen. */
static void
md_files(struct strbuf *out, const struct check_finding *f, size_t *listed,
    bool plain)
{
	size_t m;

	for (m = 0; m < f->nfiles; m++, (*listed)++) {
		if (*listed == 0)
			strbuf_addstr(out, "\n   - Files: ");
		if (*listed >= CHECK_MD_MAX_FILES)
			continue;
		strbuf_addstr(out, *listed ? ", " : "");
		if (plain) {
			text_put(out, true, f->files[m]);
			continue;
		}
		strbuf_addch(out, '`');
		strbuf_addstr(out, f->files[m]);
		strbuf_addch(out, '`');
	}
}

static bool
same_story(const struct check_finding *a, const struct check_finding *b)
{
	return !strcmp(a->check, b->check) && !strcmp(a->metric, b->metric) &&
	    !strcmp(a->condition, b->condition) && a->trial == b->trial &&
	    !strcmp(a->scope, b->scope) && !strcmp(a->evidence, b->evidence) &&
	    !strcmp(a->cause, b->cause) && !strcmp(a->action, b->action);
}

/* Markdown (plain: the same list as text for a terminal, without
 * escapes or emphasis): one numbered item per finding; findings that tell the same
 * story on several paths (a plateau, a shared floor, the same sample
 * count) become one item, at the place of the first. */
static void
render_md(const struct check_findings *f, struct strbuf *out, bool plain)
{
	bool *done;
	size_t i, j, k, item = 0, listed, npaths;

	if (!f->n) {
		strbuf_addstr(out, "No findings: none of the pitfalls pathstat "
		    "checks for was seen in these runs.\n");
		return;
	}
	done = xcalloc(f->n, sizeof(bool));
	for (i = 0; i < f->n; i++) {
		const struct check_finding *x = &f->items[i];

		if (done[i])
			continue;
		for (j = i, npaths = 0; j < f->n; j++)
			if (!done[j] && same_story(x, &f->items[j]))
				npaths++;
		if (item++)
			strbuf_addch(out, '\n');
		strbuf_addf(out, plain ? "%zu. %s (%s): %s, " :
		    "%zu. **%s** (%s): %s, ", item, x->check,
		    check_severity_name(x->severity), x->metric);
		strbuf_addstr(out, npaths > 1 ? "paths " : "path ");
		for (j = i, k = 0; j < f->n; j++) {
			if (done[j] || !same_story(x, &f->items[j]))
				continue;
			if (k++)
				strbuf_addstr(out, ", ");
			text_put(out, plain, f->items[j].path);
		}
		strbuf_addstr(out, ", ");
		if (*x->condition)
			text_put(out, plain, x->condition);
		else
			strbuf_addstr(out, "no condition");
		if (x->trial >= 0)
			strbuf_addf(out, ", trial %ld", x->trial);
		if (*x->scope) {
			strbuf_addstr(out, " (");
			text_put(out, plain, x->scope);
			strbuf_addch(out, ')');
		}
		strbuf_addstr(out, "\n   - Evidence: ");
		text_put(out, plain, x->evidence);
		strbuf_addstr(out, "\n   - Likely cause: ");
		text_put(out, plain, x->cause);
		strbuf_addstr(out, "\n   - What to do: ");
		text_put(out, plain, x->action);
		listed = 0;
		for (j = i; j < f->n; j++) {
			if (done[j] || !same_story(x, &f->items[j]))
				continue;
			done[j] = true;
			md_files(out, &f->items[j], &listed, plain);
		}
		if (listed > CHECK_MD_MAX_FILES)
			strbuf_addf(out, " and %zu more (--format json lists "
			    "them all)", listed - CHECK_MD_MAX_FILES);
		strbuf_addch(out, '\n');
	}
	free(done);
}

/* ---------------------------------------------------------------------
 * The command
 */

/* "   id    summary", the summary wrapped at word boundaries so that no
 * line of --help is wider than 80 columns. */
static void
help_item(FILE *fp, const char *id, const char *summary)
{
	const char *p = summary, *sp;
	size_t col = 23, len;

	fprintf(fp, "   %-19s ", id);
	while (*p) {
		sp = strchr(p, ' ');
		len = sp ? (size_t)(sp - p) : strlen(p);
		if (col > 23 && col + 1 + len > 80) {
			fprintf(fp, "\n%23s", "");
			col = 23;
		} else if (col > 23) {
			fputc(' ', fp);
			col++;
		}
		fprintf(fp, "%.*s", (int)len, p);
		col += len;
		p += len;
		while (*p == ' ')
			p++;
	}
	fputc('\n', fp);
}

/* The checks, for --help. */
static void
help_checks(FILE *fp)
{
	const struct check_info *list;
	size_t i, n;

	fputs("checks:\n", fp);
	list = check_list(&n);
	for (i = 0; i < n; i++)
		help_item(fp, list[i].id, list[i].summary);
}

static int
set_only(struct check_opts *o, char ***only, const char *list,
    struct strbuf *why)
{
	const struct check_info *ids;
	size_t i, n;

	if (analyze_opts_set_list(only, &o->nonly, list, why))
		return -1;
	ids = check_list(&n);
	for (i = 0; i < o->nonly; i++) {
		size_t k;

		for (k = 0; k < n && strcmp(ids[k].id, (*only)[i]); k++)
			;
		if (k == n) {
			strbuf_addf(why, "unknown check '%s' (checks:",
			    (*only)[i]);
			for (k = 0; k < n; k++)
				strbuf_addf(why, "%s %s", k ? "," : "",
				    ids[k].id);
			strbuf_addch(why, ')');
			return -1;
		}
	}
	if (!o->nonly) {
		strbuf_addstr(why, "no check named");
		return -1;
	}
	o->only = *only;
	return 0;
}

/* The summary line counts findings as the text lists them: one story
 * told on several paths (a plateau, the same mixed estimators in every
 * cell of a table) is one finding, as render_md() numbers it; when the
 * per-cell rows of CSV and JSON are more, it says how many. */
static void
summary_line(const struct check_findings *f)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i, j, warn = 0, n, items = 0;
	const struct check_info *ids = check_list(&n);
	bool *first;

	if (!f->n) {
		note("no findings");
		return;
	}
	/* first[i]: item i starts a story (no earlier one tells it) */
	first = xcalloc(f->n, sizeof(bool));
	for (i = 0; i < f->n; i++) {
		for (j = 0; j < i && !same_story(&f->items[j], &f->items[i]);
		    j++)
			;
		first[i] = j == i;
		items += first[i];
		warn += first[i] && f->items[i].severity == CHECK_WARNING;
	}
	strbuf_addf(&sb, "%zu finding%s (%zu warning%s, %zu notice%s):",
	    items, items == 1 ? "" : "s", warn, warn == 1 ? "" : "s",
	    items - warn, items - warn == 1 ? "" : "s");
	for (j = 0; j < n; j++) {
		size_t c = 0;

		for (i = 0; i < f->n; i++)
			c += first[i] && !strcmp(f->items[i].check, ids[j].id);
		if (c)
			strbuf_addf(&sb, " %s %zu,", ids[j].id, c);
	}
	strbuf_setlen(&sb, sb.len - 1);
	if (items < f->n)
		strbuf_addf(&sb, " (%zu rows in CSV and JSON: one per path "
		    "and cell)", f->n);
	note("%s", sb.buf);
	free(first);
	strbuf_release(&sb);
}

/* --stats: percentiles only, set into opts (borrowed from stat_opts). */
static int
set_stats(struct check_opts *opts, struct analyze_opts *stat_opts,
    const char *list, struct strbuf *why)
{
	size_t i;

	if (analyze_opts_set_stats(stat_opts, list, why))
		return -1;
	for (i = 0; i < stat_opts->nstats; i++) {
		if (stat_opts->stats[i].kind != STATS_NAME_PCT) {
			strbuf_addf(why, "'%s' is not a percentile",
			    stat_opts->stat_names[i]);
			return -1;
		}
	}
	opts->stats = stat_opts->stats;
	opts->nstats = stat_opts->nstats;
	return 0;
}

/* The findings on stdout in format, the summary on stderr; -1 when the
 * table could not be written. */
static int
print_findings(const struct check_findings *found, enum table_format format)
{
	struct strbuf md = STRBUF_INIT;
	struct table t;
	int ret = 0;

	table_init(&t);
	if (format == TABLE_MD || format == TABLE_TEXT) {
		render_md(found, &md, format == TABLE_TEXT);
		fputs(md.buf, stdout);
	} else {
		check_findings_table(found, &t);
		if (table_render(&t, format, stdout))
			ret = -1;
	}
	summary_line(found);
	table_release(&t);
	strbuf_release(&md);
	return ret;
}

/* What `pathstat check` was asked; the callbacks' opt->value. */
struct check_args {
	struct check_opts	opts;		/* --only, --stats,
						 * --per-campaign */
	struct analyze_opts	stat_opts;	/* owns --stats' list */
	struct where		where;		/* --where */
	enum table_format	format;		/* --format */
	const char		*db_path;	/* --db; borrowed */
	char			**only;		/* --only's names;
						 * owned */
};

static int
opt_only(const struct parseopt *opt, const char *arg, struct strbuf *why)
{
	struct check_args *a = opt->value;

	return set_only(&a->opts, &a->only, arg, why);
}

static int
opt_stats(const struct parseopt *opt, const char *arg, struct strbuf *why)
{
	struct check_args *a = opt->value;

	return set_stats(&a->opts, &a->stat_opts, arg, why);
}

static int
opt_per_campaign(const struct parseopt *opt, const char *arg,
    struct strbuf *why)
{
	(void)arg;
	(void)why;
	((struct check_args *)opt->value)->opts.per_campaign = true;
	return 0;
}

/* The options of `pathstat check`, parsed into a. */
static enum parseopt_result
check_parse(struct check_args *a, int argc, char **argv)
{
	const struct parseopt opts[] = {
		OPT_WHERE(&a->where, "keep runs whose path, trial, tool, "
		    "condition key or tag matches (KEY=V1,V2 for "
		    "alternatives)"),
		OPT_CALLBACK(0, "only", a, "ID,...", opt_only, 0,
		    "run only these checks (comma-separated)"),
		OPT_CALLBACK(0, "stats", a, "LIST", opt_stats, 0,
		    "percentiles few-samples judges, every metric (default: "
		    "p99 for connect_ms, p99,p99.9 for http_ms)"),
		OPT_CALLBACK(0, "per-campaign", a, NULL, opt_per_campaign,
		    PARSEOPT_NOARG, "one finding per campaign (day, instance "
		    "type, study); by default a finding that tells the same "
		    "story on several days or instance types is one finding "
		    "naming them all"),
		OPT_FORMAT(&a->format),
		OPT_DB(&a->db_path),
		OPT_END(),
	};
	const struct parseopt_cmd cmd = {
		.name = "check",
		.intro =
		    "Look for measurement pitfalls before the numbers reach "
		    "an article.  Exit 0 when nothing is found, 3 when "
		    "something is, 1 on an error (a failed check is never "
		    "a clean bill), 2 on a usage error.",
		.extra = help_checks,
		.outro = "docs/checks.md gives each check's rule, threshold "
		    "and reasons.",
		.opts = opts,
	};
	int nargs;

	return parseopt(&cmd, argc, argv, &nargs);
}

int
cmd_check(int argc, char **argv)
{
	struct check_findings found = CHECK_FINDINGS_INIT;
	struct check_args a;
	struct where *w = &a.where;
	struct strbuf why = STRBUF_INIT;
	enum parseopt_result r;
	sqlite3 *db = NULL;
	size_t i;
	int ret = PATHSTAT_EXIT_OK;

	err_set_prefix("pathstat check");
	memset(&a, 0, sizeof(a));
	analyze_opts_init(&a.stat_opts);
	a.format = table_format_default();
	r = check_parse(&a, argc, argv);
	if (r != PARSEOPT_OK) {
		ret = parseopt_exit(r);
		goto cleanup;
	}
	db = db_open_readonly(db_default_path(a.db_path));
	if (!db) {
		ret = PATHSTAT_EXIT_FAIL;
		goto cleanup;
	}
	if (w->n) {
		struct keycat_query kq = { w, NULL, 0, NULL, 0 };
		int rc;

		strbuf_reset(&why);
		rc = keycat_check(db, &kq, &why);
		if (rc > 0)
			error("%s", why.buf);
		if (rc) {
			ret = rc > 0 ? PATHSTAT_EXIT_USAGE : PATHSTAT_EXIT_FAIL;
			goto cleanup;
		}
		/* every name exists: "no findings" over no runs would be a
		 * clean bill for nothing */
		rc = keycat_matches(db, w);
		if (rc <= 0) {
			if (rc == 0)
				error("no run matches all the --where filters "
				    "together: nothing to check");
			ret = PATHSTAT_EXIT_FAIL;
			goto cleanup;
		}
	}
	if (analyze_check_opts(db, w, &a.opts, &found)) {
		ret = PATHSTAT_EXIT_FAIL;
		goto cleanup;
	}
	/* a failure (1) is not a finding (3): a script tells them apart */
	if (print_findings(&found, a.format))
		ret = PATHSTAT_EXIT_FAIL;
	else if (found.n)
		ret = PATHSTAT_EXIT_FINDINGS;
cleanup:
	db_close(db);
	check_findings_release(&found);
	analyze_opts_release(&a.stat_opts);
	where_release(w);
	if (a.only) {
		for (i = 0; i < a.opts.nonly; i++)
			free(a.only[i]);
		free(a.only);
	}
	strbuf_release(&why);
	return ret;
}
