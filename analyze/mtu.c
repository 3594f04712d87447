/*
 * mtu.c - `pathstat analyze mtu`: the first article's "Path | MTU
 * (measured)" table from pathprobe --mtu results (metric path_mtu,
 * schema 006): per path (and --by dimension, e.g. day) the MTU its runs
 * measured, the route MTU it started from, the method, and for runs that
 * could not measure it, "could not measure" with their reason -- never a
 * 0 or a blank.
 */
#include "common/compat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/internal.h"
#include "common/db.h"
#include "common/err.h"
#include "common/metric.h"
#include "common/strbuf.h"
#include "common/xalloc.h"

/* A list of distinct texts, in first-seen order. */
struct words {
	char	**w;
	size_t	n, alloc;
};

static void
words_add(struct words *ws, const char *s)
{
	size_t i;

	for (i = 0; i < ws->n; i++)
		if (!strcmp(ws->w[i], s))
			return;
	ALLOC_GROW(ws->w, ws->n + 1, ws->alloc);
	ws->w[ws->n++] = xstrdup(s);
}

static void
words_join(const struct words *ws, const char *sep, struct strbuf *sb)
{
	size_t i;

	for (i = 0; i < ws->n; i++)
		strbuf_addf(sb, "%s%s", i ? sep : "", ws->w[i]);
}

static void
words_release(struct words *ws)
{
	size_t i;

	for (i = 0; i < ws->n; i++)
		free(ws->w[i]);
	free(ws->w);
	memset(ws, 0, sizeof(*ws));
}

/* What the runs of one cell said. */
struct mtu_cell {
	size_t		runs, measured, unknown;
	int64_t		lo, hi;		/* measured MTUs, when measured */
	int64_t		rlo, rhi;	/* route MTUs, -1 when none */
	struct words	methods, reasons;
};

static void
range_add(int64_t *lo, int64_t *hi, int64_t v)
{
	if (*lo < 0 || v < *lo)
		*lo = v;
	if (*hi < 0 || v > *hi)
		*hi = v;
}

/* Read the MTU results of cell c's runs into mc.  Returns 0, or -1
 * after an error. */
static int
mtu_collect(sqlite3 *db, sqlite3_stmt *st, const struct cell *c,
    struct mtu_cell *mc)
{
	size_t i;
	int rc;

	memset(mc, 0, sizeof(*mc));
	mc->lo = mc->hi = mc->rlo = mc->rhi = -1;
	for (i = 0; i < c->ntrials; i++) {
		const struct trial *t = &c->trials[i];

		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, t->run_id);
		rc = sqlite3_step(st);
		if (rc != SQLITE_ROW && rc != SQLITE_DONE)
			return error("read the MTU result of run %lld: %s",
			    (long long)t->run_id, sqlite3_errmsg(db));
		mc->runs++;
		/* The sample is the measurement; mtu_results says more. */
		if (t->n > 0) {
			mc->measured++;
			range_add(&mc->lo, &mc->hi, llround(t->values[0]));
		} else {
			mc->unknown++;
			words_add(&mc->reasons, rc == SQLITE_ROW &&
			    sqlite3_column_type(st, 2) != SQLITE_NULL ?
			    (const char *)sqlite3_column_text(st, 2) :
			    "no reason recorded");
		}
		if (rc != SQLITE_ROW)
			continue;
		if (sqlite3_column_type(st, 0) != SQLITE_NULL)
			range_add(&mc->rlo, &mc->rhi,
			    sqlite3_column_int64(st, 0));
		words_add(&mc->methods,
		    (const char *)sqlite3_column_text(st, 1));
	}
	return 0;
}

static const char *
mtu_status(const struct mtu_cell *mc)
{
	if (!mc->measured)
		return "unknown";
	if (mc->unknown)
		return "partial";
	return mc->lo == mc->hi ? "found" : "varies";
}

/* The Markdown text of the MTU cell: "8500", "8500–9001 (varies)",
 * "could not measure", "8500 (1 of 2 runs could not measure)". */
static void
mtu_text(const struct mtu_cell *mc, struct strbuf *sb)
{
	if (!mc->measured) {
		strbuf_addstr(sb, "could not measure");
		return;
	}
	strbuf_addf(sb, "%lld", (long long)mc->lo);
	if (mc->hi != mc->lo)
		strbuf_addf(sb, "–%lld", (long long)mc->hi);
	if (mc->hi != mc->lo && mc->unknown)
		strbuf_addf(sb, " (varies; %zu of %zu runs could not measure)",
		    mc->unknown, mc->runs);
	else if (mc->hi != mc->lo)
		strbuf_addstr(sb, " (varies)");
	else if (mc->unknown)
		strbuf_addf(sb, " (%zu of %zu runs could not measure)",
		    mc->unknown, mc->runs);
}

static void
mtu_row(struct table *t, size_t row, size_t col0, const struct mtu_cell *mc)
{
	struct strbuf sb = STRBUF_INIT;
	size_t col = col0;

	if (mc->measured && mc->lo == mc->hi)
		table_set_int(t, row, col, mc->lo);
	mtu_text(mc, &sb);
	table_set_display_raw(t, row, col++, sb.buf);
	if (mc->measured) {
		table_set_int(t, row, col, mc->lo);
		table_set_int(t, row, col + 1, mc->hi);
	}
	col += 2;
	table_set_str(t, row, col++, mtu_status(mc));
	if (mc->rlo >= 0 && mc->rlo == mc->rhi) {
		table_set_int(t, row, col, mc->rlo);
	} else if (mc->rlo >= 0) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%lld–%lld", (long long)mc->rlo,
		    (long long)mc->rhi);
		table_set_display_raw(t, row, col, sb.buf);
	} else {
		table_set_display_raw(t, row, col, "not recorded");
	}
	col++;
	table_set_int(t, row, col++, (int64_t)mc->runs);
	table_set_int(t, row, col++, (int64_t)mc->measured);
	table_set_int(t, row, col++, (int64_t)mc->unknown);
	strbuf_reset(&sb);
	words_join(&mc->methods, ", ", &sb);
	table_set_str(t, row, col++, sb.buf);
	if (mc->reasons.n) {
		strbuf_reset(&sb);
		words_join(&mc->reasons, "; ", &sb);
		table_set_str(t, row, col, sb.buf);
	} else {
		table_set_display_raw(t, row, col, "–");
	}
	strbuf_release(&sb);
}

int
analyze_mtu(sqlite3 *db, const struct analyze_opts *o, int nargs,
    char **args, struct table *t)
{
	struct cells_query q;
	struct cellset cs;
	sqlite3_stmt *st = NULL;
	size_t i, col0;
	int ret = -1;

	if (nargs > 0) {
		error("mtu takes no arguments (got '%s')", args[0]);
		return -2;
	}
	if (strcmp(o->metric, metric_name(METRIC_PATH_MTU))) {
		error("mtu tables the metric path_mtu, not '%s' (leave out "
		    "--metric)", o->metric);
		return -2;
	}
	analyze_query(o, true, &q);
	if (cells_load(db, &q, &cs))
		return -1;
	st = db_prepare(db, "read MTU results", "SELECT route_mtu, method, "
	    "reason FROM mtu_results WHERE run_id = ?1");
	if (!st)
		goto cleanup;
	table_add_col(t, "path", "Path", -1);
	table_add_col(t, "condition", "Condition", -1);
	for (i = 0; i < cs.ndims; i++)
		table_add_col(t, cs.dimkeys[i], cs.dimkeys[i], -1);
	table_add_hidden_col(t, "metric", "Metric", -1);
	col0 = t->ncols;
	table_add_col(t, "mtu", "MTU (measured)", 0);
	table_add_hidden_col(t, "mtu_min", "MTU min", 0);
	table_add_hidden_col(t, "mtu_max", "MTU max", 0);
	table_add_hidden_col(t, "status", "Status", -1);
	table_add_col(t, "route_mtu", "Route MTU", 0);
	table_add_col(t, "runs", "Runs", -1);
	table_add_hidden_col(t, "measured", "Measured", -1);
	table_add_hidden_col(t, "unknown", "Could not measure", -1);
	table_add_col(t, "method", "Method", -1);
	table_add_col(t, "reason", "Why not measured", -1);
	for (i = 0; i < cs.n; i++) {
		const struct cell *c = &cs.cells[i];
		struct mtu_cell mc;
		size_t row = table_add_row(t), j;
		int rc;

		rc = mtu_collect(db, st, c, &mc);
		if (!rc) {
			table_set_str(t, row, 0, c->path);
			table_set_str(t, row, 1, c->cond);
			for (j = 0; j < cs.ndims; j++)
				table_set_str(t, row, 2 + j, c->dims[j]);
			table_set_str(t, row, 2 + cs.ndims, cs.metric_name);
			mtu_row(t, row, col0, &mc);
		}
		words_release(&mc.methods);
		words_release(&mc.reasons);
		if (rc)
			goto cleanup;
	}
	table_add_note(t, "path_mtu: the largest IP packet that reached the "
	    "host with the DF bit set (pathprobe --mtu, best effort: it needs "
	    "UDP to reach the host and ICMP to come back), in bytes, per %s; "
	    "route MTU: the client's route MTU toward the host, where the "
	    "search starts; could not measure: no answer to go by (the "
	    "reason says why).", cs.ndims ? "path and dimension" : "path");
	if (cs.n == 0) {
		error("no path MTU results match (pathstat-collect --mtu "
		    "writes them as mtu/mtu.txt, which ingest reads)");
		goto cleanup;
	}
	ret = 0;
cleanup:
	sqlite3_finalize(st);
	cellset_release(&cs);
	return ret;
}
