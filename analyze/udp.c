/*
 * udp.c - which side a UDP throughput row is, and what it lost.  A UDP
 * client's own intervals are the rate it sent; ingest stores what
 * arrived instead (the receiver's intervals, or its end-of-test rate)
 * and says which in the summary iperf3 rate_side.  A percentiles table
 * of throughput with UDP rows names that side and puts the datagram
 * loss (lost / sent, the receiver's end-of-test counts) beside it.
 */
#include "common/compat.h"

#include <math.h>
#include <string.h>

#include "analyze/internal.h"
#include "analyze/verbs.h"
#include "common/err.h"
#include "common/metric.h"

/* the values of the summary iperf3 rate_side (ingest/iperf3.h) */
#define SIDE_SENDER	0
#define SIDE_RX_END	2

bool
udp_cellset(const struct cellset *cs)
{
	size_t i;

	if (cs->metric != METRIC_THROUGHPUT_BPS)
		return false;
	for (i = 0; i < cs->n; i++)
		if (cond_has(cs->cells[i].cond, "proto", "udp"))
			return true;
	return false;
}

/*
 * The side and loss of cell c into *u (u->side static text, NULL for a
 * row that is not UDP; u->loss_pct NaN where no run says).  0, or -1
 * after printing an error.
 */
int
udp_cell(sqlite3 *db, const struct cell *c, struct udp_row *u)
{
	static const char sql[] = "SELECT metric, stat, value FROM summaries "
	    "WHERE run_id = ?1 AND ((metric = 'iperf3' AND stat = "
	    "'rate_side') OR (metric IN ('lost_packets', 'packets') AND "
	    "stat = 'end'))";
	sqlite3_stmt *st = NULL;
	size_t t, nrx = 0, nend = 0, nsender = 0;
	double lost = 0, sent = 0;
	int rc;

	u->side = NULL;
	u->loss_pct = NAN;
	if (!cond_has(c->cond, "proto", "udp"))
		return 0;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return error("read UDP summaries: %s", sqlite3_errmsg(db));
	for (t = 0; t < c->ntrials; t++) {
		double l = NAN, p = NAN, side = SIDE_SENDER;

		sqlite3_bind_int64(st, 1, c->trials[t].run_id);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			const char *m = (const char *)sqlite3_column_text(st, 0);
			double v = sqlite3_column_double(st, 2);

			if (!m)
				continue;
			if (!strcmp(m, "iperf3"))
				side = v;
			else if (!strcmp(m, "lost_packets"))
				l = v;
			else
				p = v;
		}
		sqlite3_reset(st);
		if (rc != SQLITE_DONE) {
			sqlite3_finalize(st);
			return error("read UDP summaries: %s",
			    sqlite3_errmsg(db));
		}
		if (side == SIDE_SENDER)
			nsender++;
		else
			nrx++;
		nend += side == SIDE_RX_END;
		if (isfinite(l) && isfinite(p) && p > 0) {
			lost += l;
			sent += p;
		}
	}
	sqlite3_finalize(st);
	if (nrx && nsender)
		u->side = "mixed: receiver and sender";
	else if (nsender)
		u->side = "sender";
	else if (nend)
		u->side = nend == nrx ? "receiver (end of test)" :
		    "receiver";
	else
		u->side = "receiver";
	if (sent > 0)
		u->loss_pct = 100.0 * lost / sent;
	return 0;
}
