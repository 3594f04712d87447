/*
 * scope.c - the checks that compare one instance's paths with each
 * other: instance-cap (paths on one throughput plateau) and
 * udp-sender-limited (UDP identical across paths).  run-order, which
 * follows one instance through time, is order.c.
 */
#include "common/compat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check/model.h"
#include "stats/stats.h"
#include "common/strbuf.h"
#include "common/xalloc.h"

/* Pooled type-7 median of a throughput cell's interval series. */
static double
cell_pooled_p50(const struct check_model *m, const struct check_cell *c)
{
	size_t i, n = 0, at = 0;
	double *all, v;

	for (i = 0; i < c->nruns; i++)
		n += m->runs[c->runs[i]].nseries;
	if (!n)
		return NAN;
	all = xmalloc(n * sizeof(double));
	for (i = 0; i < c->nruns; i++) {
		const struct check_run *r = &m->runs[c->runs[i]];

		memcpy(all + at, r->series, r->nseries * sizeof(double));
		at += r->nseries;
	}
	stats_sort(all, n);
	v = stats_quantile_type7(all, n, 50.0);
	free(all);
	return v;
}

/* Bit rate of an oha cell with bodies of at least CHECK_CAP_MIN_BODY
 * bytes: the mean over runs of oha's sizePerSec x 8; NaN otherwise. */
static double
cell_http_bps(const struct check_model *m, const struct check_cell *c)
{
	char buf[32];
	const char *size = check_cond_get(m, c->cond, "size", buf, sizeof(buf));
	double sum = 0.0, bytes;
	size_t i, k = 0;

	if (!size)
		return NAN;
	bytes = check_size_bytes(size);
	if (!isfinite(bytes) || bytes < CHECK_CAP_MIN_BODY)
		return NAN;
	for (i = 0; i < c->nruns; i++) {
		double b = m->runs[c->runs[i]].bytes_per_s;

		if (isfinite(b) && b > 0) {
			sum += b * 8.0;
			k++;
		}
	}
	return k ? sum / (double)k : NAN;
}

static bool
cond_is(const struct check_model *m, size_t cond, const char *key,
    const char *value)
{
	char buf[32];
	const char *v = check_cond_get(m, cond, key, buf, sizeof(buf));

	return v && !strcmp(v, value);
}

/* The instance type named in a campaign text, into buf. */
static const char *
scope_instance_type(const struct check_model *m, size_t scope, char *buf,
    size_t len)
{
	const char *s = strstr(m->scopes[scope], "instance_type=");
	size_t n;

	if (!s)
		return NULL;
	s += strlen("instance_type=");
	n = strcspn(s, ",");
	snprintf(buf, len, "%.*s", (int)n, s);
	return buf;
}

/* Cells grouped by (scope, metric, condition): the columns of a table. */
struct col_group {
	size_t	*cells;
	size_t	n;
};

static int
cmp_col(const void *va, const void *vb, const struct check_model *m)
{
	const struct check_cell *a = &m->cells[*(const size_t *)va];
	const struct check_cell *b = &m->cells[*(const size_t *)vb];

	if (a->scope != b->scope)
		return a->scope < b->scope ? -1 : 1;
	if (a->metric != b->metric)
		return a->metric < b->metric ? -1 : 1;
	if (a->cond != b->cond)
		return a->cond < b->cond ? -1 : 1;
	if (a->path != b->path)
		return a->path < b->path ? -1 : 1;
	return 0;
}

/* Insertion-free merge sort of cell indices (qsort has no context). */
static void
sort_cols(size_t *idx, size_t n, const struct check_model *m, size_t *tmp)
{
	size_t mid = n / 2, i = 0, j = mid, k = 0;

	if (n < 2)
		return;
	sort_cols(idx, mid, m, tmp);
	sort_cols(idx + mid, n - mid, m, tmp);
	while (i < mid && j < n)
		tmp[k++] = cmp_col(&idx[j], &idx[i], m) < 0 ? idx[j++] :
		    idx[i++];
	while (i < mid)
		tmp[k++] = idx[i++];
	while (j < n)
		tmp[k++] = idx[j++];
	memcpy(idx, tmp, n * sizeof(size_t));
}

/* The cells in (scope, metric, condition, path) order; the caller frees
 * the array.  Column groups are runs of equal (scope, metric, cond). */
static size_t *
cells_by_column(const struct check_model *m)
{
	size_t *idx = xmalloc((m->ncells ? m->ncells : 1) * sizeof(size_t));
	size_t *tmp = xmalloc((m->ncells ? m->ncells : 1) * sizeof(size_t));
	size_t i;

	for (i = 0; i < m->ncells; i++)
		idx[i] = i;
	sort_cols(idx, m->ncells, m, tmp);
	free(tmp);
	return idx;
}

static size_t
column_end(const struct check_model *m, const size_t *idx, size_t from)
{
	const struct check_cell *a = &m->cells[idx[from]];
	size_t to = from + 1;

	while (to < m->ncells) {
		const struct check_cell *b = &m->cells[idx[to]];

		if (a->scope != b->scope || a->metric != b->metric ||
		    a->cond != b->cond)
			break;
		to++;
	}
	return to;
}

/* One column of a table (a campaign, metric and condition) with each
 * path's level and its place on the plateau. */
struct column {
	const size_t	*cells;		/* model cell indices, by path */
	size_t		n;
	double		*lvl;		/* each cell's level, NaN if none */
	bool		*in;		/* on the plateau */
	size_t		nval;		/* cells with a level */
	size_t		nplat;		/* cells on the plateau */
	double		top, low;	/* plateau's ends */
};

/* Find the plateau within tol of the top; false unless it holds at least
 * CHECK_CAP_MIN_PATHS of at least as many paths with a level. */
static bool
column_plateau(struct column *col, double tol)
{
	size_t i;

	col->nval = 0;
	for (i = 0; i < col->n; i++)
		col->nval += isfinite(col->lvl[i]);
	if (col->nval < CHECK_CAP_MIN_PATHS)
		return false;
	col->nplat = check_plateau(col->lvl, col->n, tol, col->in);
	if (col->nplat < CHECK_CAP_MIN_PATHS)
		return false;
	col->top = 0.0;
	col->low = INFINITY;
	for (i = 0; i < col->n; i++) {
		if (!col->in[i])
			continue;
		col->top = col->lvl[i] > col->top ? col->lvl[i] : col->top;
		col->low = col->lvl[i] < col->low ? col->lvl[i] : col->low;
	}
	return true;
}

/* "A 4.98, B 4.98, C 4.98" for the plateau's paths (Gbit/s). */
static void
column_list(struct strbuf *sb, const struct check_model *m,
    const struct column *col)
{
	size_t i, listed = 0;

	for (i = 0; i < col->n; i++)
		if (col->in[i])
			strbuf_addf(sb, "%s%s %.2f", listed++ ? ", " : "",
			    m->paths[m->cells[col->cells[i]].path],
			    col->lvl[i] / 1e9);
}

/* One finding per cell of the plateau, all telling the same story;
 * ev, cause and act are reset for the next column. */
static void
column_findings(struct check_model *m, const char *id,
    const struct column *col, struct strbuf *ev, struct strbuf *cause,
    struct strbuf *act)
{
	size_t i, k;

	for (i = 0; i < col->n; i++) {
		const struct check_cell *c = &m->cells[col->cells[i]];
		struct strbuf e = STRBUF_INIT, ca = STRBUF_INIT;
		struct strbuf a = STRBUF_INIT;
		struct check_finding *f;

		if (!col->in[i])
			continue;
		f = check_add(m, id, c->scope, c->metric, c->path, c->cond, -1);
		for (k = 0; k < c->nruns; k++)
			check_add_run(f, &m->runs[c->runs[k]]);
		strbuf_addstr(&e, ev->buf);
		strbuf_addstr(&ca, cause->buf);
		strbuf_addstr(&a, act->buf);
		check_set_text(f, &e, &ca, &a);
	}
	strbuf_reset(ev);
	strbuf_reset(cause);
	strbuf_reset(act);
}

/* ---------------------------------------------------------------------
 * instance-cap
 */

static void check_instance_cap_pairs(struct check_model *m);

static void
cap_text(const struct check_model *m, const struct column *col, bool http,
    struct strbuf *ev, struct strbuf *cause, struct strbuf *act)
{
	const struct check_cell *c0 = &m->cells[col->cells[0]];
	size_t others = col->nval - col->nplat;
	char itype[64];

	if (col->nplat == col->nval && col->nval >= CHECK_CAP_MIN_PATHS) {
		char lo[32], hi[32];

		snprintf(lo, sizeof(lo), "%.1f", col->low / 1e9);
		snprintf(hi, sizeof(hi), "%.1f", col->top / 1e9);
		strbuf_addf(ev, "all %zu paths at the instance's %s%s%s "
		    "Gbit/s: ", col->nval, lo, strcmp(lo, hi) ? "–" : "",
		    strcmp(lo, hi) ? hi : "");
		column_list(ev, m, col);
		strbuf_addf(ev, " (%s; within %.2g %% of each other, %.0f %% "
		    "allowed when every path is)", http ? "oha's sizePerSec × "
		    "8, mean over runs" : "pooled p50 of the intervals",
		    100.0 * (col->top - col->low) / col->top,
		    100.0 * CHECK_CAP_ALL_TOL);
		goto cause;
	}
	strbuf_addf(ev, "%zu of %zu paths sit on one plateau at %.2f Gbit/s: ",
	    col->nplat, col->nval, col->top / 1e9);
	column_list(ev, m, col);
	strbuf_addf(ev, " (%s; within %.2g %% of each other, %.1f %% allowed)",
	    http ? "oha's sizePerSec × 8, mean over runs" :
	    "pooled p50 of the intervals",
	    100.0 * (col->top - col->low) / col->top, 100.0 * CHECK_CAP_TOL);
	if (others)
		strbuf_addf(ev, "; %zu other path%s slower", others,
		    others == 1 ? " is" : "s are");
cause:
	strbuf_addstr(cause, "the client or server instance's network "
	    "bandwidth, not the paths, limits this condition");
	if (scope_instance_type(m, c0->scope, itype, sizeof(itype)))
		strbuf_addf(cause, " (instance_type %s: compare with its rated "
		    "bandwidth)", itype);
	strbuf_addf(act, "the path comparison is not measurable in this "
	    "condition: say 'capped by the instance at %.1f Gbit/s' instead "
	    "of ranking the paths; to compare them use a larger instance "
	    "type or fewer parallel flows so the path is the bottleneck",
	    col->top / 1e9);
}

void
check_instance_cap(struct check_model *m)
{
	struct strbuf ev = STRBUF_INIT, cause = STRBUF_INIT, act = STRBUF_INIT;
	size_t *idx = cells_by_column(m), from, to, i;
	struct column col;

	memset(&col, 0, sizeof(col));
	col.lvl = xmalloc((m->ncells ? m->ncells : 1) * sizeof(double));
	col.in = xmalloc((m->ncells ? m->ncells : 1) * sizeof(bool));
	for (from = 0; from < m->ncells; from = to) {
		const struct check_cell *c0 = &m->cells[idx[from]];
		bool http = c0->metric == METRIC_HTTP_MS;

		to = column_end(m, idx, from);
		/* udp-sender-limited covers UDP */
		if (!http && (c0->metric != METRIC_THROUGHPUT_BPS ||
		    cond_is(m, c0->cond, "proto", "udp")))
			continue;
		col.cells = idx + from;
		col.n = to - from;
		for (i = 0; i < col.n; i++) {
			const struct check_cell *c = &m->cells[idx[from + i]];

			col.lvl[i] = http ? cell_http_bps(m, c) :
			    cell_pooled_p50(m, c);
		}
		/* every path within a few % of the fastest: all of them
		 * sit at the instance's rate, none ranks above another */
		if (!column_plateau(&col, CHECK_CAP_ALL_TOL) ||
		    col.nplat != col.nval) {
			if (!column_plateau(&col, CHECK_CAP_TOL))
				continue;
		}
		cap_text(m, &col, http, &ev, &cause, &act);
		column_findings(m, "instance-cap", &col, &ev, &cause, &act);
	}
	free(idx);
	free(col.lvl);
	free(col.in);
	strbuf_release(&ev);
	strbuf_release(&cause);
	strbuf_release(&act);
	check_instance_cap_pairs(m);
}

/* ---------------------------------------------------------------------
 * instance-cap, two paths: a plateau that two paths share at the top of
 * every TCP condition (article 1's A and B: 4.96 with one flow, 12.41
 * with four), flat in time.  One condition alone cannot tell a cap from
 * a tie; two at once, flat, can (docs/checks.md: the false-positive rate
 * on near-tie campaigns).
 */

/* Coefficient of variation of a run's intervals after the first (slow
 * start); NaN with fewer than 3. */
static double
run_cv(const struct check_run *r)
{
	double sum = 0.0, ss = 0.0, mean;
	size_t i, n = r->nseries > 0 ? r->nseries - 1 : 0;

	if (n < 2)
		return NAN;
	for (i = 1; i < r->nseries; i++)
		sum += r->series[i];
	mean = sum / (double)n;
	for (i = 1; i < r->nseries; i++)
		ss += (r->series[i] - mean) * (r->series[i] - mean);
	return mean > 0 ? sqrt(ss / (double)(n - 1)) / mean : NAN;
}

/* Largest run CV of a cell and the spread of its trials' p50s
 * (max / min - 1). */
static void
cell_flatness(const struct check_model *m, const struct check_cell *c,
    double *cv, double *trials)
{
	double lo = INFINITY, hi = 0.0;
	size_t i;

	*cv = 0.0;
	for (i = 0; i < c->nruns; i++) {
		const struct check_run *r = &m->runs[c->runs[i]];
		double v = run_cv(r);

		*cv = isnan(v) || v > *cv ? v : *cv;
		if (isnan(*cv))
			break;
		lo = r->p50 < lo ? r->p50 : lo;
		hi = r->p50 > hi ? r->p50 : hi;
	}
	*trials = lo > 0 && isfinite(lo) ? hi / lo - 1.0 : NAN;
}

/* One TCP column's two fastest paths. */
struct pair_col {
	size_t	from, to;	/* its cells in the sorted index */
	size_t	a, b;		/* cell indices of the fastest two */
	double	la, lb, third;	/* their levels, the next path's */
	size_t	nval;		/* paths with a level */
	bool	tied;		/* a and b within CHECK_CAP2_TOL, flat */
	double	cv, spread;	/* the worse of the two cells */
};

static void
pair_column(const struct check_model *m, const size_t *idx, struct pair_col *pc)
{
	size_t i;
	double cva, cvb, sa, sb;

	pc->la = pc->lb = pc->third = -1.0;
	pc->nval = 0;
	pc->tied = false;
	for (i = pc->from; i < pc->to; i++) {
		double v = cell_pooled_p50(m, &m->cells[idx[i]]);

		if (!isfinite(v))
			continue;
		pc->nval++;
		if (v > pc->la) {
			pc->third = pc->lb;
			pc->lb = pc->la;
			pc->b = pc->a;
			pc->la = v;
			pc->a = idx[i];
		} else if (v > pc->lb) {
			pc->third = pc->lb;
			pc->lb = v;
			pc->b = idx[i];
		} else if (v > pc->third) {
			pc->third = v;
		}
	}
	if (pc->nval < CHECK_CAP2_MIN_TABLE || pc->lb <= 0 ||
	    pc->la / pc->lb - 1.0 > CHECK_CAP2_TOL ||
	    pc->third >= (1.0 - CHECK_CAP_TOL) * pc->la)
		return;
	cell_flatness(m, &m->cells[pc->a], &cva, &sa);
	cell_flatness(m, &m->cells[pc->b], &cvb, &sb);
	pc->cv = cva > cvb ? cva : cvb;
	pc->spread = sa > sb ? sa : sb;
	pc->tied = pc->cv <= CHECK_CAP2_FLAT_CV &&
	    pc->spread <= CHECK_CAP2_FLAT_TRIALS;
}

static bool
same_pair(const struct check_model *m, const struct pair_col *x,
    const struct pair_col *y)
{
	size_t xa = m->cells[x->a].path, xb = m->cells[x->b].path;
	size_t ya = m->cells[y->a].path, yb = m->cells[y->b].path;

	return (xa == ya && xb == yb) || (xa == yb && xb == ya);
}

/* Does the column hold a cell of path p? */
static bool
column_has(const struct check_model *m, const size_t *idx,
    const struct pair_col *pc, size_t p)
{
	size_t i;

	for (i = pc->from; i < pc->to; i++)
		if (m->cells[idx[i]].path == p)
			return true;
	return false;
}

static void
pair_text(const struct check_model *m, const struct pair_col *pc, size_t n,
    struct strbuf *ev, struct strbuf *cause, struct strbuf *act)
{
	const struct check_cell *a = &m->cells[pc[0].a];
	const struct check_cell *b = &m->cells[pc[0].b];
	size_t i, pa = a->path < b->path ? a->path : b->path;
	size_t pb = a->path < b->path ? b->path : a->path;
	double cv = 0.0, spread = 0.0, slower = INFINITY;
	char itype[64];

	strbuf_addf(ev, "%s and %s, the two fastest of %zu paths, sit together "
	    "in every TCP condition measured on both:", m->paths[pa],
	    m->paths[pb], pc[0].nval);
	for (i = 0; i < n; i++) {
		strbuf_addf(ev, "%s %s %.2f and %.2f Gbit/s (%.2g %% apart)",
		    i ? "," : "", m->conds[m->cells[pc[i].a].cond],
		    pc[i].la / 1e9, pc[i].lb / 1e9,
		    100.0 * (pc[i].la / pc[i].lb - 1.0));
		cv = pc[i].cv > cv ? pc[i].cv : cv;
		spread = pc[i].spread > spread ? pc[i].spread : spread;
		if (pc[i].third > 0 && 1.0 - pc[i].third / pc[i].lb < slower)
			slower = 1.0 - pc[i].third / pc[i].lb;
	}
	strbuf_addf(ev, "; flat: intervals vary by at most %.2g %% (CV) and "
	    "the trials' p50s by %.2g %%", 100.0 * cv, 100.0 * spread);
	if (isfinite(slower))
		strbuf_addf(ev, "; the next path is at least %.0f %% slower",
		    100.0 * slower);
	strbuf_addf(ev, " (%.1f %% apart, %.1f %% CV and %.1f %% trial spread "
	    "allowed, %d conditions needed)", 100.0 * CHECK_CAP2_TOL,
	    100.0 * CHECK_CAP2_FLAT_CV, 100.0 * CHECK_CAP2_FLAT_TRIALS,
	    CHECK_CAP2_MIN_CONDS);
	strbuf_addstr(cause, "a limit the two paths share, not the paths: the "
	    "instance's bandwidth where several flows run, its per-flow limit "
	    "where one does (two different paths do not give the same rate, "
	    "flat, in every condition)");
	if (scope_instance_type(m, a->scope, itype, sizeof(itype)))
		strbuf_addf(cause, " (instance_type %s: compare with its rated "
		    "and per-flow bandwidth)", itype);
	strbuf_addf(act, "say 'capped by the instance' for %s and %s instead "
	    "of ranking them against each other (their true path capacity is "
	    "at least this); to compare them use a larger instance type or "
	    "a placement that lifts the per-flow limit", m->paths[pa],
	    m->paths[pb]);
}

/* The pair rule for the TCP columns cols[0..n) of one campaign. */
static void
cap_pair(struct check_model *m, const size_t *idx, struct pair_col *cols,
    size_t n)
{
	struct strbuf ev = STRBUF_INIT, cause = STRBUF_INIT, act = STRBUF_INIT;
	struct pair_col *tied;
	size_t i, j, k, ntied = 0;

	if (n < CHECK_CAP2_MIN_CONDS || !cols[0].tied)
		return;
	tied = xcalloc(n, sizeof(*tied));
	for (i = 0; i < n; i++) {
		size_t pa = m->cells[cols[0].a].path;
		size_t pb = m->cells[cols[0].b].path;

		/* every condition measured on both must show it */
		if (!column_has(m, idx, &cols[i], pa) ||
		    !column_has(m, idx, &cols[i], pb))
			continue;
		if (!cols[i].tied || !same_pair(m, &cols[0], &cols[i]))
			goto cleanup;
		tied[ntied++] = cols[i];
	}
	if (ntied < CHECK_CAP2_MIN_CONDS)
		goto cleanup;
	pair_text(m, tied, ntied, &ev, &cause, &act);
	for (i = 0; i < ntied; i++) {
		/* in path order, as every other finding */
		bool swap = m->cells[tied[i].a].path >
		    m->cells[tied[i].b].path;

		for (j = 0; j < 2; j++) {
			const struct check_cell *c = &m->cells[(j != 0) !=
			    swap ? tied[i].b : tied[i].a];
			struct strbuf e = STRBUF_INIT, ca = STRBUF_INIT;
			struct strbuf a = STRBUF_INIT;
			struct check_finding *f;

			f = check_add(m, "instance-cap", c->scope, c->metric,
			    c->path, c->cond, -1);
			for (k = 0; k < c->nruns; k++)
				check_add_run(f, &m->runs[c->runs[k]]);
			strbuf_addstr(&e, ev.buf);
			strbuf_addstr(&ca, cause.buf);
			strbuf_addstr(&a, act.buf);
			check_set_text(f, &e, &ca, &a);
		}
	}
cleanup:
	free(tied);
	strbuf_release(&ev);
	strbuf_release(&cause);
	strbuf_release(&act);
}

static void
check_instance_cap_pairs(struct check_model *m)
{
	size_t *idx = cells_by_column(m), from, to;
	struct pair_col *cols = xcalloc(m->ncells ? m->ncells : 1,
	    sizeof(*cols));
	size_t n = 0, scope = SIZE_MAX;

	for (from = 0; from <= m->ncells; from = to) {
		const struct check_cell *c0 = from < m->ncells ?
		    &m->cells[idx[from]] : NULL;

		to = c0 ? column_end(m, idx, from) : from + 1;
		if (!c0 || c0->scope != scope) {
			cap_pair(m, idx, cols, n);
			n = 0;
			scope = c0 ? c0->scope : SIZE_MAX;
		}
		if (!c0 || c0->metric != METRIC_THROUGHPUT_BPS ||
		    !cond_is(m, c0->cond, "proto", "tcp"))
			continue;
		cols[n].from = from;
		cols[n].to = to;
		pair_column(m, idx, &cols[n]);
		n++;
	}
	free(cols);
	free(idx);
}

/* ---------------------------------------------------------------------
 * udp-sender-limited
 */

/* A condition text without its proto and b (iperf3's -b rate) keys:
 * what a UDP and a TCP run of the same settings share. */
static void
cond_settings(const char *cond, struct strbuf *sb)
{
	const char *p = cond;

	strbuf_reset(sb);
	while (*p) {
		size_t len = strcspn(p, ",");

		if (strncmp(p, "proto=", 6) && strncmp(p, "b=", 2))
			strbuf_addf(sb, "%s%.*s", sb->len ? "," : "", (int)len,
			    p);
		p += len;
		if (*p)
			p++;
	}
}

/* TCP p50 of path in scope under the UDP condition's own settings
 * (stream count, direction, side: only proto and -b differ), NaN when
 * the path has no such cell: a bidir or reverse TCP run says nothing
 * about what this UDP run could have carried.  *cond_out gets its
 * condition. */
static double
tcp_level(const struct check_model *m, size_t scope, size_t path,
    size_t udp_cond, size_t *cond_out)
{
	struct strbuf want = STRBUF_INIT, have = STRBUF_INIT;
	double v = NAN;
	size_t i;

	cond_settings(m->conds[udp_cond], &want);
	for (i = 0; i < m->ncells; i++) {
		const struct check_cell *c = &m->cells[i];

		if (c->scope != scope || c->path != path ||
		    c->metric != METRIC_THROUGHPUT_BPS ||
		    !cond_is(m, c->cond, "proto", "tcp"))
			continue;
		cond_settings(m->conds[c->cond], &have);
		if (strcmp(have.buf, want.buf))
			continue;
		v = cell_pooled_p50(m, c);
		*cond_out = c->cond;
		break;
	}
	strbuf_release(&want);
	strbuf_release(&have);
	return v;
}

/* What the plateau's runs asked iperf3 for (-b), as their files record
 * it. */
enum udp_target {
	UDP_TARGET_UNLIMITED,	/* every run: -b 0 */
	UDP_TARGET_SET,		/* every run the same -b > 0 */
	UDP_TARGET_MIXED,	/* different -b values */
	UDP_TARGET_UNKNOWN	/* some file does not say (iperf3 < 3.7) */
};

static enum udp_target
udp_target(const struct check_model *m, const struct column *col,
    double *target)
{
	enum udp_target t = UDP_TARGET_UNLIMITED;
	bool first = true;
	size_t i, k;

	*target = NAN;
	for (i = 0; i < col->n; i++) {
		const struct check_cell *c = &m->cells[col->cells[i]];

		if (!col->in[i])
			continue;
		for (k = 0; k < c->nruns; k++) {
			double b = m->runs[c->runs[k]].target_bps;

			if (isnan(b))
				return UDP_TARGET_UNKNOWN;
			if (first) {
				*target = b;
				first = false;
			} else if (b != *target) {
				t = UDP_TARGET_MIXED;
			}
		}
	}
	if (t == UDP_TARGET_MIXED)
		return t;
	return *target > 0 ? UDP_TARGET_SET : UDP_TARGET_UNLIMITED;
}

static void
udp_text(const struct check_model *m, const struct column *col,
    enum udp_target tg, double target, struct strbuf *ev,
    struct strbuf *cause, struct strbuf *act)
{
	const struct check_cell *c0 = &m->cells[col->cells[0]];
	double tlo = INFINITY, thi = 0.0;
	size_t i, ntcp = 0, tcp_cond = 0;
	bool differ;

	for (i = 0; i < col->n; i++) {
		double t;

		if (!col->in[i])
			continue;
		t = tcp_level(m, c0->scope, m->cells[col->cells[i]].path,
		    c0->cond, &tcp_cond);
		if (!isfinite(t))
			continue;
		ntcp++;
		tlo = t < tlo ? t : tlo;
		thi = t > thi ? t : thi;
	}
	differ = ntcp >= 2 && thi >= 1.1 * tlo;
	strbuf_addf(ev, "UDP gives the same rate on %zu paths: ", col->nplat);
	column_list(ev, m, col);
	strbuf_addf(ev, " Gbit/s (pooled p50, within %.2g %% of each other, "
	    "%.1f %% allowed)", 100.0 * (col->top - col->low) / col->top,
	    100.0 * CHECK_UDP_TOL);
	switch (tg) {
	case UDP_TARGET_SET:
		strbuf_addf(ev, "; the files record -b %.4g Gbit/s "
		    "(target_bitrate), which no path reached", target / 1e9);
		break;
	case UDP_TARGET_UNLIMITED:
		strbuf_addstr(ev, "; the files record -b 0 (unlimited)");
		break;
	case UDP_TARGET_MIXED:
		strbuf_addstr(ev, "; the files record different -b values");
		break;
	case UDP_TARGET_UNKNOWN:
		strbuf_addstr(ev, "; no target rate (-b) is stored for these "
		    "runs (iperf3 before 3.7 does not write one; files "
		    "ingested by an older pathstat need ingest --force)");
		break;
	}
	if (ntcp >= 2)
		strbuf_addf(ev, ", while their TCP %s p50 spans %.2f-%.2f "
		    "Gbit/s", m->conds[tcp_cond], tlo / 1e9, thi / 1e9);
	strbuf_addstr(cause, "the sender (or the instance), not the path, set "
	    "the UDP rate: ");
	if (tg == UDP_TARGET_UNLIMITED)
		strbuf_addstr(cause, "with -b 0 (unlimited) an iperf3 UDP "
		    "client sends as fast as it can write packets");
	else if (tg == UDP_TARGET_SET)
		strbuf_addstr(cause, "the client could not send as fast as the "
		    "-b it was given, so every path carried what it could "
		    "write");
	else
		strbuf_addstr(cause, "an iperf3 UDP client sends at most as "
		    "fast as it can write packets");
	if (differ)
		strbuf_addstr(cause, ", and paths that differ in TCP "
		    "throughput all carried that rate");
	strbuf_addstr(act, "don't rank paths by this UDP number: set a target "
	    "rate (-b) below the paths' capacity and compare loss and jitter, "
	    "or raise the sender's packet rate (larger -l, more -P) until the "
	    "paths differ");
}

void
check_udp_sender(struct check_model *m)
{
	struct strbuf ev = STRBUF_INIT, cause = STRBUF_INIT, act = STRBUF_INIT;
	size_t *idx = cells_by_column(m), from, to, i;
	struct column col;
	enum udp_target tg;
	double target;

	memset(&col, 0, sizeof(col));
	col.lvl = xmalloc((m->ncells ? m->ncells : 1) * sizeof(double));
	col.in = xmalloc((m->ncells ? m->ncells : 1) * sizeof(bool));
	for (from = 0; from < m->ncells; from = to) {
		const struct check_cell *c0 = &m->cells[idx[from]];

		to = column_end(m, idx, from);
		if (c0->metric != METRIC_THROUGHPUT_BPS ||
		    !cond_is(m, c0->cond, "proto", "udp"))
			continue;
		col.cells = idx + from;
		col.n = to - from;
		for (i = 0; i < col.n; i++)
			col.lvl[i] = cell_pooled_p50(m,
			    &m->cells[idx[from + i]]);
		if (!column_plateau(&col, CHECK_UDP_TOL))
			continue;
		tg = udp_target(m, &col, &target);
		/* the rate the files say was asked for, reached on every
		 * path: deliberate, not the sender's limit */
		if (tg == UDP_TARGET_SET &&
		    col.low >= (1.0 - CHECK_UDP_TARGET_TOL) * target)
			continue;
		udp_text(m, &col, tg, target, &ev, &cause, &act);
		column_findings(m, "udp-sender-limited", &col, &ev, &cause,
		    &act);
	}
	free(idx);
	free(col.lvl);
	free(col.in);
	strbuf_release(&ev);
	strbuf_release(&cause);
	strbuf_release(&act);
}
