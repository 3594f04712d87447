/*
 * pooled.c - `check pooled-groups`: a cell (metric, path, condition)
 * whose runs differ in a tag (instance type, day, region, az, study,
 * anything tagged) pools groups; when the groups differ more than the
 * trials within them do, one number over the cell describes none of
 * them.  Each trial's p50 is the unit: a one-way F test (and Welch's test
 * where every group has 3 trials) on their
 * logarithms (check_detect_groups(), thresholds in model.h, false-
 * positive rate measured on noise in tests/unit/t-pooled.c and printed
 * in docs/checks.md).
 */
#include "common/compat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/cells.h"
#include "analyze/pooling.h"
#include "check/model.h"
#include "common/keycat.h"
#include "common/metric.h"
#include "common/xalloc.h"
#include "stats/stats.h"

/* A trial's p50 (the tool's for a summary-only run), NaN if none. */
static double
trial_p50_of(const struct trial *t)
{
	if (t->n)
		return stats_quantile_type7(t->values, t->n, 50.0);
	if (t->summary_only)
		return trial_tool_stat(t, "p50");
	return NAN;
}

static size_t
index_of(char *const *l, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(l[i], s))
			return i;
	return n;
}

/* The trials of one block of cells (one path and condition), each with
 * its cell (for the tag values) and log p50. */
struct pg_block {
	const struct cell	**cell;
	const struct trial	**trial;
	double			*v;
	size_t			n;
};

/* keys: the tags that split the runs this way ("day, study"); key:
 * the first of them, whose values name the groups. */
static void
finding(struct check_model *m, const struct check_run_ix *ids, int metric,
    const struct pg_block *b, const char *keys, const char *key, const size_t *grp, char **names,
    size_t ngroups, const struct check_groups *res)
{
	struct strbuf ev = STRBUF_INIT, cause = STRBUF_INIT, act = STRBUF_INIT;
	const struct cell *c0 = b->cell[0];
	size_t path = index_of(m->paths, m->npaths, c0->path);
	size_t cond = index_of(m->conds, m->nconds, c0->cond);
	struct check_finding *f;
	const struct check_run **found;
	size_t k, i;

	if (path == m->npaths || cond == m->nconds || !m->nscopes)
		return;
	f = check_add(m, "pooled-groups", 0, metric, path, cond, -1);
	found = xcalloc(b->n + 1, sizeof(*found));
	/* the finding spans the campaigns it pools */
	free(f->scope);
	f->scope = xstrdup("");
	for (i = k = 0; i < b->n; i++) {
		const struct check_run *run = check_run_of(m, ids,
		    b->trial[i]->run_id);

		if (run)
			found[k++] = run;
	}
	check_add_runs(f, found, k);
	free(found);
	strbuf_addf(&ev, "the runs differ in %s; trial p50s by %s: ", keys,
	    key);
	for (k = 0; k < ngroups; k++) {
		double s = 0;
		size_t cnt = 0;

		for (i = 0; i < b->n; i++)
			if (grp[i] == k) {
				s += b->v[i];
				cnt++;
			}
		if (!cnt)
			continue;
		strbuf_addf(&ev, "%s%s ", k ? ", " : "", names[k]);
		check_fmt_value(&ev, metric, exp(s / (double)cnt));
		strbuf_addf(&ev, " (%zu trial%s)", cnt, cnt == 1 ? "" : "s");
	}
	strbuf_addf(&ev, "; the groups are %.2f× apart while trials within "
	    "a group vary by about %.1f %% (F = %.3g, p = %.2g)", res->ratio,
	    100 * (exp(res->within_sd) - 1), res->f, res->p);
	strbuf_addf(&cause, "the cell pools groups of runs (%s) that differ "
	    "more than their trials do: a percentile over the cell is a "
	    "mixture that describes none of them, and a spread between its "
	    "trials is the groups' difference, not noise", keys);
	strbuf_addf(&act, "split the cell with --by %s (analyze, report "
	    "specs) or keep one group with --where %s=VALUE", key, key);
	check_set_text(f, &ev, &cause, &act);
}

/* Test each candidate key's grouping of one block's trials. */
/* Key j's grouping of the block's trials into grp (numbered in order of
 * first appearance, so two keys that split the runs alike give equal
 * arrays) and names; returns the number of groups. */
static size_t
group_by(const struct pg_block *b, size_t j, size_t *grp, char **names)
{
	size_t i, ng = 0;

	for (i = 0; i < b->n; i++) {
		const char *v = b->cell[i]->dims[j];
		size_t at = index_of(names, ng, *v ? v : "(none)");

		if (at == ng)
			names[ng++] = (char *)(*v ? v : "(none)");
		grp[i] = at;
	}
	return ng;
}

/* Test each candidate key's grouping of one block's trials; keys that
 * split the runs alike (each campaign its own day, instance type and
 * study) are one finding naming them all. */
static void
test_block(struct check_model *m, const struct check_run_ix *ids, int metric,
    const struct pg_block *b, char *const *keys, size_t nkeys)
{
	size_t *grp = xcalloc(b->n + 1, sizeof(size_t));
	size_t *other = xcalloc(b->n + 1, sizeof(size_t));
	char **names = xcalloc(b->n + 1, sizeof(char *));
	char **onames = xcalloc(b->n + 1, sizeof(char *));
	bool *done = xcalloc(nkeys + 1, sizeof(bool));
	struct strbuf alike = STRBUF_INIT;
	size_t j, k, ng;

	for (j = 0; j < nkeys; j++) {
		struct check_groups res;

		if (done[j])
			continue;
		ng = group_by(b, j, grp, names);
		if (ng < 2)
			continue;
		check_detect_groups(b->v, grp, b->n, ng, &res);
		if (!res.differ)
			continue;
		strbuf_reset(&alike);
		strbuf_addstr(&alike, keys[j]);
		for (k = j + 1; k < nkeys; k++) {
			if (group_by(b, k, other, onames) != ng ||
			    memcmp(grp, other, b->n * sizeof(size_t)))
				continue;
			done[k] = true;
			strbuf_addf(&alike, ", %s", keys[k]);
		}
		finding(m, ids, metric, b, alike.buf, keys[j], grp, names, ng,
		    &res);
	}
	strbuf_release(&alike);
	free(grp);
	free(other);
	free(names);
	free(onames);
	free(done);
}

/* Drop the provenance keys (common/keycat.h: the session, hostname,
 * command lines and versions pathstat-collect stamps on every run) from
 * keys[0..n), freeing them: how runs were made is no grouping to split
 * by, and a key sorted first ("collector_command" before
 * "instance_type") would be the one the finding suggests.  Returns the
 * count left. */
static size_t
drop_provenance(char **keys, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		if (keycat_is_provenance(keys[i]))
			free(keys[i]);
		else
			keys[k++] = keys[i];
	}
	return k;
}

/* One metric's cells with every candidate key but provenance as a
 * dimension. */
static void
pooled_metric(struct check_model *m, int metric)
{
	struct cells_query q;
	struct cellset cs;
	struct pg_block b;
	struct check_run_ix *ids = NULL;
	char **keys = NULL;
	size_t i, j, a, cap = 0;
	int nk = pooling_candidates(m->db, NULL, 0, &keys);

	if (nk > 0)
		nk = (int)drop_provenance(keys, (size_t)nk);
	if (nk <= 0) {
		free(keys);
		return;
	}
	memset(&q, 0, sizeof(q));
	q.metric = metric_name(metric);
	q.where = m->where;
	q.by = keys;
	q.nby = (size_t)nk;
	q.load_values = true;
	memset(&b, 0, sizeof(b));
	if (cells_load(m->db, &q, &cs))
		goto done;
	for (i = 0; i < cs.n; i++)
		cap += cs.cells[i].ntrials;
	ids = check_run_index(m);
	b.cell = xcalloc(cap + 1, sizeof(*b.cell));
	b.trial = xcalloc(cap + 1, sizeof(*b.trial));
	b.v = xcalloc(cap + 1, sizeof(double));
	for (a = 0; a < cs.n; a = i) {
		b.n = 0;
		for (i = a; i < cs.n && !strcmp(cs.cells[i].path,
		    cs.cells[a].path) && !strcmp(cs.cells[i].cond,
		    cs.cells[a].cond); i++) {
			for (j = 0; j < cs.cells[i].ntrials; j++) {
				double v = trial_p50_of(&cs.cells[i].trials[j]);

				if (!isfinite(v) || v <= 0)
					continue;
				b.cell[b.n] = &cs.cells[i];
				b.trial[b.n] = &cs.cells[i].trials[j];
				b.v[b.n++] = log(v);
			}
		}
		if (i - a >= 2)
			test_block(m, ids, metric, &b, keys, (size_t)nk);
	}
	cellset_release(&cs);
done:
	free(ids);
	free(b.cell);
	free(b.trial);
	free(b.v);
	for (j = 0; j < (size_t)nk; j++)
		free(keys[j]);
	free(keys);
}

void
check_pooled_groups(struct check_model *m)
{
	bool seen[64] = { false };
	size_t i;

	for (i = 0; i < m->ncells; i++) {
		int metric = m->cells[i].metric;

		if (metric <= 0 || metric >= 64 || seen[metric])
			continue;
		seen[metric] = true;
		/* path MTU has one run per measurement and no check judges
		 * it (common/metric.c) */
		if (metric == METRIC_PATH_MTU)
			continue;
		pooled_metric(m, metric);
	}
}
