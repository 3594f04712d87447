/*
 * order.c - the run-order check: throughput that falls with the order
 * of an instance's runs in time, not with the path (burst credits
 * running out, a cliff inside a run), told apart from an instance
 * whose slower paths are merely slower.
 */
#include "common/compat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check/model.h"
#include "stats/stats.h"
#include "common/strbuf.h"
#include "common/xalloc.h"

/* One throughput run of an instance, in time order. */
struct seq_run {
	size_t	run;		/* index in m->runs */
	double	ref;		/* best p50 of earlier runs of the condition */
	size_t	ref_run;	/* the run that set it */
	bool	down;		/* p50 <= CHECK_ORDER_DOWN x ref */
	int	why;		/* 0, or ORDER_* bits: why it is flagged */
	size_t	cliff_run;	/* for ORDER_CLIFF: the cliff run */
};

#define ORDER_SAME_PATH	1
#define ORDER_FLOOR	2
#define ORDER_CLIFF	4

static int
seq_cmp(const void *va, const void *vb)
{
	const int64_t *a = va, *b = vb;

	/* pairs (started_at, run index) */
	if (a[0] != b[0])
		return a[0] < b[0] ? -1 : 1;
	return a[1] < b[1] ? -1 : a[1] > b[1];
}

/*
 * Is a floor of down runs the instance's baseline, not paths that are
 * simply slower?  Burst credits run out once: from the first run on the
 * floor, no later run of the instance rises above it (CHECK_ORDER_DOWN
 * of the best before it); and the baseline is the instance's, so every
 * path on it sits at one level: their median levels within
 * CHECK_ORDER_FLOOR_PATHS of each other.  Paths rate-limited at 90, 95
 * and 100 Mbit/s, or measured in an order that puts a fast one after a
 * slow one, are no finding.
 */
static bool
floor_is_credits(const struct check_model *m, const struct seq_run *s,
    size_t n, double floor)
{
	double *lv = xmalloc((n ? n : 1) * sizeof(double));
	double lo = INFINITY, hi = 0.0;
	size_t i, j, first = n, k;
	bool ok = true;

	for (i = 0; i < n; i++) {
		if (s[i].down && fabs(m->runs[s[i].run].p50 / floor - 1.0) <=
		    CHECK_ORDER_FLOOR_TOL) {
			first = i;
			break;
		}
	}
	for (i = first; i < n && ok; i++) {
		const struct check_run *r = &m->runs[s[i].run];

		if (!s[i].down && r->p50 > floor * (1.0 + CHECK_ORDER_FLOOR_TOL))
			ok = false;
	}
	/* each floor path's median level */
	for (j = 0; ok && j < m->npaths; j++) {
		for (i = k = 0; i < n; i++) {
			const struct check_run *r = &m->runs[s[i].run];

			if (r->path == j && s[i].down && fabs(r->p50 / floor -
			    1.0) <= CHECK_ORDER_FLOOR_TOL)
				lv[k++] = r->p50;
		}
		if (!k)
			continue;
		lo = fmin(lo, stats_median(lv, k));
		hi = fmax(hi, stats_median(lv, k));
	}
	if (ok && hi > lo * (1.0 + CHECK_ORDER_FLOOR_PATHS))
		ok = false;
	free(lv);
	return ok;
}

/* Mark the down runs that look like the instance, not the path. */
static void
order_mark(const struct check_model *m, struct seq_run *s, size_t n,
    double *floor_out, size_t *floor_runs, size_t *floor_paths,
    size_t *floor_conds)
{
	double *v = xmalloc((n ? n : 1) * sizeof(double)), floor;
	size_t i, j, nd = 0, multi = 0;
	size_t *pc = xcalloc(m->npaths ? m->npaths : 1, sizeof(size_t));
	size_t *pfirst = xmalloc((m->npaths ? m->npaths : 1) * sizeof(size_t));
	bool *cseen = xcalloc(m->nconds ? m->nconds : 1, sizeof(bool));

	*floor_out = NAN;
	*floor_runs = *floor_paths = *floor_conds = 0;
	/* (a) the same path and condition measured earlier at >= 2x, and
	 * it never came back */
	for (i = 0; i < n; i++) {
		const struct check_run *r = &m->runs[s[i].run];
		double best = NAN;

		if (!s[i].down)
			continue;
		for (j = 0; j < i; j++) {
			const struct check_run *e = &m->runs[s[j].run];

			if (e->path == r->path && e->cond == r->cond &&
			    (isnan(best) || e->p50 > best))
				best = e->p50;
		}
		if (isnan(best) || r->p50 * (1.0 / CHECK_ORDER_DOWN) > best)
			continue;
		for (j = i + 1; j < n; j++) {
			const struct check_run *l = &m->runs[s[j].run];

			if (l->path == r->path && l->cond == r->cond &&
			    l->p50 > CHECK_ORDER_DOWN * best)
				break;
		}
		if (j == n)
			s[i].why |= ORDER_SAME_PATH;
	}
	/* (b) down runs on one floor whatever the path, stream count or
	 * protocol: 2 or more paths each with 2 or more conditions on it */
	for (i = 0; i < n; i++)
		if (s[i].down)
			v[nd++] = m->runs[s[i].run].p50;
	if (nd) {
		floor = stats_median(v, nd);
		for (i = 0; i < m->npaths; i++)
			pfirst[i] = SIZE_MAX;
		for (i = 0; i < n; i++) {
			const struct check_run *r = &m->runs[s[i].run];

			if (!s[i].down || fabs(r->p50 / floor - 1.0) >
			    CHECK_ORDER_FLOOR_TOL)
				continue;
			/* count distinct conditions per path on the floor */
			for (j = 0; j < i; j++) {
				const struct check_run *e = &m->runs[s[j].run];

				if (s[j].down && e->path == r->path &&
				    e->cond == r->cond && fabs(e->p50 / floor -
				    1.0) <= CHECK_ORDER_FLOOR_TOL)
					break;
			}
			if (j == i)
				pc[r->path]++;
		}
		for (i = 0; i < m->npaths; i++)
			multi += pc[i] >= 2;
		if (multi >= 2 && !floor_is_credits(m, s, n, floor))
			multi = 0;
		if (multi >= 2) {
			*floor_out = floor;
			for (i = 0; i < n; i++) {
				const struct check_run *r = &m->runs[s[i].run];

				if (!s[i].down || fabs(r->p50 / floor - 1.0) >
				    CHECK_ORDER_FLOOR_TOL)
					continue;
				s[i].why |= ORDER_FLOOR;
				(*floor_runs)++;
				if (pfirst[r->path] == SIZE_MAX) {
					pfirst[r->path] = i;
					(*floor_paths)++;
				}
				if (!cseen[r->cond]) {
					cseen[r->cond] = true;
					(*floor_conds)++;
				}
			}
		}
	}
	/* (c) after a burst cliff, other paths at the cliff's low level */
	for (i = 0; i < n; i++) {
		const struct check_run *c = &m->runs[s[i].run];

		if (!c->cliff.found)
			continue;
		for (j = i + 1; j < n; j++) {
			const struct check_run *r = &m->runs[s[j].run];

			if (s[j].down && r->path != c->path &&
			    fabs(r->p50 / c->cliff.after - 1.0) <=
			    CHECK_ORDER_FLOOR_TOL) {
				s[j].why |= ORDER_CLIFF;
				s[j].cliff_run = s[i].run;
			}
		}
	}
	free(v);
	free(pc);
	free(pfirst);
	free(cseen);
}

static void
order_text(const struct check_model *m, const struct seq_run *s, size_t n,
    size_t first, double floor, size_t floor_runs, size_t floor_paths,
    size_t floor_conds, struct strbuf *ev, struct strbuf *cause,
    struct strbuf *act)
{
	const struct check_run *r = &m->runs[s[first].run];
	const struct check_run *ref = &m->runs[s[first].ref_run];
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	size_t i, k = 0;
	int why = 0;
	double lo = INFINITY, hi = 0.0;

	for (i = 0; i < n; i++) {
		const struct check_run *x = &m->runs[s[i].run];

		if (!s[i].why || x->path != r->path || x->cond != r->cond)
			continue;
		why |= s[i].why;
		k++;
		lo = x->p50 < lo ? x->p50 : lo;
		hi = x->p50 > hi ? x->p50 : hi;
	}
	strbuf_addf(ev, "on this instance %s's %zu run%s from ",
	    m->paths[r->path], k, k == 1 ? "" : "s");
	check_fmt_time(ev, r->started_at);
	strbuf_addstr(ev, " gave ");
	check_fmt_value(&a, r->metric, lo);
	check_fmt_value(&b, r->metric, hi);
	strbuf_addstr(ev, a.buf);
	if (strcmp(a.buf, b.buf))
		strbuf_addf(ev, " to %s", b.buf);
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_addstr(ev, " (p50), where ");
	check_fmt_value(ev, r->metric, s[first].ref);
	strbuf_addf(ev, " was measured in the same condition earlier (%s at ",
	    m->paths[ref->path]);
	check_fmt_time(ev, ref->started_at);
	strbuf_addch(ev, ')');
	if (why & ORDER_SAME_PATH)
		strbuf_addstr(ev, "; the same path gave at least twice as much "
		    "earlier and never came back");
	if (why & ORDER_FLOOR) {
		strbuf_addf(ev, "; %zu runs on %zu paths and %zu conditions "
		    "sit on one floor at ", floor_runs, floor_paths,
		    floor_conds);
		check_fmt_value(ev, r->metric, floor);
		strbuf_addf(ev, " (±%.0f %%) whatever the path, stream count "
		    "or protocol", 100.0 * CHECK_ORDER_FLOOR_TOL);
	}
	if (why & ORDER_CLIFF) {
		for (i = 0; i < n; i++) {
			const struct check_run *x = &m->runs[s[i].run];
			const struct check_run *c;

			if (!(s[i].why & ORDER_CLIFF) || x->path != r->path ||
			    x->cond != r->cond)
				continue;
			c = &m->runs[s[i].cliff_run];
			strbuf_addf(ev, "; it came after %s %s trial %ld fell "
			    "from ", m->paths[c->path], m->conds[c->cond],
			    c->trial);
			check_fmt_value(ev, c->metric, c->cliff.before);
			strbuf_addstr(ev, " to ");
			check_fmt_value(ev, c->metric, c->cliff.after);
			strbuf_addstr(ev, " (burst-cliff), and sits at that "
			    "level");
			break;
		}
	}
	strbuf_addstr(cause, "the instance's network burst credits ran out "
	    "part-way through the campaign: every later run measures the "
	    "instance's baseline bandwidth, so paths measured in sequence on "
	    "one instance differ by their place in the run order, not by "
	    "the path (or every later path is policed at the same rate)");
	strbuf_addstr(act, "re-measure these paths on a freshly started "
	    "instance (stop/start before each path, or one instance per "
	    "path) or on an instance type with sustained bandwidth; to "
	    "confirm, measure the first path again at the end");
}

/* The rule; with nflag non-NULL only count the flagged runs there (the
 * verdict harness, check_run_order_count()), else add findings. */
static void
run_order(struct check_model *m, size_t *nflag)
{
	struct strbuf ev = STRBUF_INIT, cause = STRBUF_INIT, act = STRBUF_INIT;
	int64_t *pairs = NULL;
	struct seq_run *s = NULL;
	double *best = xmalloc((m->nconds ? m->nconds : 1) * sizeof(double));
	size_t *best_run = xmalloc((m->nconds ? m->nconds : 1) *
	    sizeof(size_t));
	/* the runs by machine, each machine's in model order: a pass over
	 * every run for each machine was runs x days */
	size_t *start = xcalloc(m->ninstances + 1, sizeof(size_t));
	size_t *by_inst = xmalloc((m->nruns ? m->nruns : 1) * sizeof(size_t));
	size_t inst, i, j, n, at;

	if (m->nruns) {
		pairs = xmalloc(2 * m->nruns * sizeof(int64_t));
		s = xmalloc(m->nruns * sizeof(*s));
	}
	for (i = 0; i < m->nruns; i++)
		start[m->runs[i].instance + 1]++;
	for (inst = 0; inst < m->ninstances; inst++)
		start[inst + 1] += start[inst];
	for (i = 0; i < m->nruns; i++)
		by_inst[start[m->runs[i].instance]++] = i;
	/* start[inst] is now the end of inst's runs, the start of the next */
	for (inst = 0, at = 0; inst < m->ninstances; at = start[inst++]) {
		double floor;
		size_t floor_runs, floor_paths, floor_conds;

		for (n = 0; at < start[inst]; at++) {
			const struct check_run *r = &m->runs[by_inst[at]];

			i = by_inst[at];
			if (r->metric != METRIC_THROUGHPUT_BPS ||
			    r->started_at == INT64_MIN || !isfinite(r->p50) ||
			    r->p50 <= 0)
				continue;
			pairs[2 * n] = r->started_at;
			pairs[2 * n + 1] = (int64_t)i;
			n++;
		}
		if (n < 2)
			continue;
		qsort(pairs, n, 2 * sizeof(int64_t), seq_cmp);
		for (i = 0; i < m->nconds; i++)
			best[i] = NAN;
		for (i = 0; i < n; i++) {
			const struct check_run *r = &m->runs[pairs[2 * i + 1]];

			memset(&s[i], 0, sizeof(s[i]));
			s[i].run = (size_t)pairs[2 * i + 1];
			s[i].ref = best[r->cond];
			s[i].ref_run = best_run[r->cond];
			s[i].down = isfinite(s[i].ref) &&
			    r->p50 <= CHECK_ORDER_DOWN * s[i].ref;
			if (isnan(best[r->cond]) || r->p50 > best[r->cond]) {
				best[r->cond] = r->p50;
				best_run[r->cond] = s[i].run;
			}
		}
		order_mark(m, s, n, &floor, &floor_runs, &floor_paths,
		    &floor_conds);
		if (nflag) {
			for (i = 0; i < n; i++)
				*nflag += s[i].why != 0;
			continue;
		}
		/* one finding per cell, at its first flagged run */
		for (i = 0; i < n; i++) {
			const struct check_run *r = &m->runs[s[i].run];
			struct check_finding *f;
			size_t count = 0;

			if (!s[i].why)
				continue;
			for (j = 0; j < i; j++) {
				const struct check_run *e = &m->runs[s[j].run];

				if (s[j].why && e->path == r->path &&
				    e->cond == r->cond)
					break;
			}
			if (j < i)
				continue;
			for (j = i; j < n; j++) {
				const struct check_run *e = &m->runs[s[j].run];

				count += s[j].why && e->path == r->path &&
				    e->cond == r->cond;
			}
			f = check_add(m, "run-order", r->scope, r->metric,
			    r->path, r->cond, count == 1 ? r->trial : -1);
			for (j = i; j < n; j++) {
				const struct check_run *e = &m->runs[s[j].run];

				if (s[j].why && e->path == r->path &&
				    e->cond == r->cond)
					check_add_run(f, e);
			}
			order_text(m, s, n, i, floor, floor_runs, floor_paths,
			    floor_conds, &ev, &cause, &act);
			check_set_text(f, &ev, &cause, &act);
		}
	}
	free(pairs);
	free(s);
	free(start);
	free(by_inst);
	free(best);
	free(best_run);
	strbuf_release(&ev);
	strbuf_release(&cause);
	strbuf_release(&act);
}

void
check_run_order(struct check_model *m)
{
	run_order(m, NULL);
}

size_t
check_run_order_count(struct check_model *m)
{
	size_t n = 0;

	run_order(m, &n);
	return n;
}
