/*
 * oha_csv.c - parser for oha's per-request CSV (--output-format csv,
 * v1.9+): one http_ms sample per successful request, in file order, plus
 * the status-code distribution.  The JSON and SQLite forms are in oha.c
 * and oha_sqlite.c.
 */
#include "common/compat.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/lines.h"
#include "common/strbuf.h"
#include "common/xalloc.h"
#include "ingest/csvrec.h"
#include "ingest/internal.h"
#include "ingest/oha_common.h"

static const char *const oha_csv_cols7[] = {
	"request-start", "DNS", "DNS+dialup", "Response-delay",
	"request-duration", "bytes", "status",
};
/* An unreleased v1.9 development state (e52d9a4) had no Response-delay. */
static const char *const oha_csv_cols6[] = {
	"request-start", "DNS", "DNS+dialup",
	"request-duration", "bytes", "status",
};

#define OHA_CSV_MAX_COLS	7

enum oha_csv_state {
	OHA_CSV_HEADER,		/* waiting for the header record */
	OHA_CSV_ROWS,		/* header seen, reading requests */
	OHA_CSV_NOT_OHA,	/* the first record was not our header */
};

struct oha_csv_ctx {
	struct parsed_run	*run;	/* the one run being filled */
	enum oha_csv_state	state;
	const char *const	*cols;	/* column names of the layout */
	size_t			ncols;	/* 7, or 6 for the old layout */
	bool			match7, match6;	/* header matches so far */
	double			num[OHA_CSV_MAX_COLS];	/* this row's fields */
	unsigned int		badmask;	/* bit i: field i invalid */
	size_t			rows;	/* valid request rows */
	size_t			bad;	/* skipped rows */
	char			first_bad[96];	/* where/why the first */
	size_t			cut_line;	/* bad last line, no '\n' */
	struct oha_status_tally	status;	/* responses per status code */
};

/*
 * One field as libcsv ends it: check the header names, or parse a row's
 * field in place (times: seconds, finite, >= 0; bytes and status:
 * integers), so nothing is copied on the hot path.
 */
static void
oha_csv_field(size_t i, const char *s, size_t len, void *data)
{
	struct oha_csv_ctx *ctx = data;
	size_t n = ctx->ncols;
	int64_t iv;
	double v;
	bool ok;

	if (ctx->state == OHA_CSV_HEADER) {
		if (i >= 7 || strcmp(s, oha_csv_cols7[i]))
			ctx->match7 = false;
		if (i >= 6 || strcmp(s, oha_csv_cols6[i]))
			ctx->match6 = false;
		return;
	}
	if (ctx->state != OHA_CSV_ROWS || i >= n)
		return;
	if (i >= 1 && i + 3 < n) {
		/* DNS, DNS+dialup, Response-delay: checked, not stored. */
		ok = !ingest_field_nonneg(s, len);
		v = 0;
	} else if (i + 2 < n) {
		ok = !ingest_field_double(s, len, &v) && v >= 0 &&
		    v < OHA_MAX_SECONDS;
	} else {
		ok = !ingest_field_int64(s, len, &iv) &&
		    (i + 2 == n ? iv >= 0 : oha_status_valid(iv));
		v = (double)iv;
	}
	if (ok)
		ctx->num[i] = v;
	else
		ctx->badmask |= 1u << i;
}

/* A bad row is skipped; a bad last line without a line break is a
 * write that was cut short and is reported as such. */
static void
oha_csv_bad(struct oha_csv_ctx *ctx, const struct csv_rec *rec)
{
	unsigned int i;

	if (!rec->terminated) {
		ctx->cut_line = rec->line;
		return;
	}
	if (ctx->bad++)
		return;
	if (rec->nfields != ctx->ncols) {
		snprintf(ctx->first_bad, sizeof(ctx->first_bad),
		    "line %zu: %zu fields, want %zu", rec->line, rec->nfields,
		    ctx->ncols);
	} else {
		for (i = 0; i + 1 < ctx->ncols; i++)
			if (ctx->badmask & (1u << i))
				break;
		snprintf(ctx->first_bad, sizeof(ctx->first_bad),
		    "line %zu: bad %s", rec->line, ctx->cols[i]);
	}
}

static void
oha_csv_record(const struct csv_rec *rec, void *data)
{
	struct oha_csv_ctx *ctx = data;
	size_t n = ctx->ncols;

	switch (ctx->state) {
	case OHA_CSV_HEADER:
		if (ctx->match7 && rec->nfields == 7) {
			ctx->ncols = 7;
			ctx->cols = oha_csv_cols7;
		} else if (ctx->match6 && rec->nfields == 6) {
			ctx->ncols = 6;
			ctx->cols = oha_csv_cols6;
		}
		ctx->state = ctx->ncols ? OHA_CSV_ROWS : OHA_CSV_NOT_OHA;
		return;
	case OHA_CSV_NOT_OHA:
		return;
	case OHA_CSV_ROWS:
		break;
	}
	if (rec->nfields != n || ctx->badmask) {
		oha_csv_bad(ctx, rec);
		ctx->badmask = 0;
		return;
	}
	/* oha counts any response as a success, whatever its status. */
	parsed_run_add_sample(ctx->run, METRIC_HTTP_MS,
	    llround(ctx->num[0] * 1e6), ctx->num[n - 3] * 1000.0, SAMPLE_OK);
	oha_status_tally_add(&ctx->status, (int64_t)ctx->num[n - 1]);
	ctx->rows++;
}

/*
 * The CSV lists successful requests only (failed ones are not in it),
 * so the run's failures stay 0 and attempts unknown (-1): pair the file
 * with oha's JSON for those.  Bad rows are skipped and reported; a file
 * without one valid row is rejected.
 */
int
ingest_parse_oha_csv(const char *buf, size_t len, struct parse_result *res)
{
	struct oha_csv_ctx ctx;
	struct strbuf why = STRBUF_INIT;
	struct parsed_run *run;
	size_t skip = 0, hint;
	int stopped, ret = -1;

	memset(&ctx, 0, sizeof(ctx));
	ctx.match7 = ctx.match6 = true;
	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		skip = 3;	/* a UTF-8 BOM added by an editor */
	run = parse_result_add_run(res, "oha", METRIC_HTTP_MS);
	ctx.run = run;
	/* One sample per line: size the array once instead of doubling. */
	hint = lines_count(buf + skip, len - skip) + 1;
	ALLOC_GROW(run->samples, hint, run->alloc_samples);

	stopped = ingest_csv_each(buf + skip, len - skip, 1, oha_csv_field,
	    oha_csv_record, &ctx, &why);
	if (ctx.state != OHA_CSV_ROWS) {
		parse_result_release(res);	/* rejected: no runs */
		parse_reject(res, "not an oha CSV: %s",
		    ctx.state == OHA_CSV_HEADER ? "no header line" :
		    "unexpected header");
		goto cleanup;
	}
	if (ctx.rows == 0) {
		parse_result_release(res);
		if (ctx.bad)
			parse_reject(res, "no valid request row: %zu bad "
			    "(first at %s)", ctx.bad, ctx.first_bad);
		else if (ctx.cut_line)
			parse_reject(res, "no valid request row: only a cut "
			    "line %zu", ctx.cut_line);
		else
			parse_reject(res, "no request rows after the header "
			    "(oha lists successful requests only)");
		goto cleanup;
	}
	if (ctx.bad)
		parsed_run_mark_partial(run, "skipped %zu bad row%s of %zu "
		    "(first at %s)", ctx.bad, ctx.bad == 1 ? "" : "s",
		    ctx.bad + ctx.rows, ctx.first_bad);
	if (ctx.cut_line)
		parsed_run_mark_partial(run, "last line %zu cut short",
		    ctx.cut_line);
	if (stopped)
		parsed_run_mark_partial(run, "rest of the file ignored: %s",
		    why.buf);
	oha_status_tally_flush(&ctx.status, run);
	run->failures = 0;
	run->attempts = -1;
	snprintf(res->tool_version, sizeof(res->tool_version), "%s",
	    ctx.ncols == 7 ? "oha >=1.9" : "oha 1.9-dev (6-column csv)");
	if (run->partial)
		parse_result_mark_partial(res, "%s", run->reason.buf);
	ret = 0;
cleanup:
	strbuf_release(&why);
	return ret;
}
