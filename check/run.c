/*
 * run.c - the checks that judge one run at a time: burst-cliff (an
 * iperf3 series that steps down and stays down), hidden-failures (errors,
 * timeouts and partial runs that percentiles leave out),
 * syn-retransmit (values one or three seconds above the median) and
 * busy-client (connect times far above the kernel's handshake RTT).
 */
#include "common/compat.h"

#include <math.h>
#include <string.h>

#include "check/model.h"
#include "common/strbuf.h"
#include "common/xalloc.h"

/* Call fn for every run, cell by cell (so findings come out in path and
 * condition order); fn appends to ev, cause and act and returns whether
 * the run is a finding of check id. */
static void
each_run(struct check_model *m, const char *id,
    bool (*fn)(const struct check_run *r, struct strbuf *ev,
    struct strbuf *cause, struct strbuf *act))
{
	struct strbuf ev = STRBUF_INIT, cause = STRBUF_INIT, act = STRBUF_INIT;
	size_t c, i;

	for (c = 0; c < m->ncells; c++) {
		const struct check_cell *cell = &m->cells[c];

		for (i = 0; i < cell->nruns; i++) {
			const struct check_run *r = &m->runs[cell->runs[i]];
			struct check_finding *f;

			if (!fn(r, &ev, &cause, &act)) {
				strbuf_reset(&ev);
				strbuf_reset(&cause);
				strbuf_reset(&act);
				continue;
			}
			f = check_add(m, id, r->scope, r->metric, r->path,
			    r->cond, r->trial);
			check_add_run(f, r);
			check_set_text(f, &ev, &cause, &act);
		}
	}
	strbuf_release(&ev);
	strbuf_release(&cause);
	strbuf_release(&act);
}

/* ---------------------------------------------------------------------
 * burst-cliff
 */

static bool
cliff_of(const struct check_run *r, struct strbuf *ev, struct strbuf *cause,
    struct strbuf *act)
{
	if (r->metric != METRIC_THROUGHPUT_BPS || !r->cliff.found)
		return false;
	strbuf_addstr(ev, "throughput held ");
	check_fmt_value(ev, r->metric, r->cliff.before);
	strbuf_addf(ev, " on average for the first %.0f s, then fell to ",
	    r->cliff_t_s);
	check_fmt_value(ev, r->metric, r->cliff.after);
	strbuf_addf(ev, " (%.2f× the level before) at %.0f s and stayed "
	    "there to the end: the last %zu of %zu intervals are all at or "
	    "below half the earlier level; the run's p50 is ",
	    r->cliff.after / r->cliff.before, r->cliff_t_s,
	    r->nseries - r->cliff.at, r->nseries);
	check_fmt_value(ev, r->metric, r->p50);
	strbuf_addstr(cause, "the instance's network burst credits ran out: "
	    "a burstable instance type keeps its burst bandwidth only while "
	    "credits last, then falls to its baseline within a second; the "
	    "path did not change");
	strbuf_addstr(act, "leave this run out of the path comparison (or "
	    "show it apart); measure each path on a freshly started instance, "
	    "keep runs short with a cooldown, or use an instance type with "
	    "sustained bandwidth");
	return true;
}

void
check_burst_cliff(struct check_model *m)
{
	each_run(m, "burst-cliff", cliff_of);
}

/* ---------------------------------------------------------------------
 * hidden-failures
 */

/* A run's failed attempts and attempts, and what an attempt is. */
static const char *
failure_counts(const struct check_run *r, int64_t *failed, int64_t *total)
{
	bool oha = !strcmp(r->tool, "oha") || r->metric == METRIC_HTTP_MS;

	*failed = r->failures > r->nfail_rows ? r->failures : r->nfail_rows;
	*total = r->attempts >= 0 ? r->attempts : (int64_t)r->n + *failed;
	return oha ? "requests" : !strcmp(r->tool, "pathprobe") ? "probes" :
	    "attempts";
}

static void
failures_text(const struct check_run *r, struct strbuf *ev,
    struct strbuf *cause, struct strbuf *act)
{
	int64_t failed, total;
	const char *what = failure_counts(r, &failed, &total);
	bool oha = !strcmp(r->tool, "oha") || r->metric == METRIC_HTTP_MS;
	bool low_rate = isfinite(r->success_rate) && r->success_rate < 1.0;

	if (failed <= 0 && !low_rate)
		return;
	if (failed > 0)
		strbuf_addf(ev, "%lld of %lld %s failed", (long long)failed,
		    (long long)total, what);
	if (failed > 0 && low_rate)
		strbuf_addf(ev, " (success rate %.3f)", r->success_rate);
	else if (low_rate)
		strbuf_addf(ev, "success rate %.4f", r->success_rate);
	if (r->errors)
		strbuf_addf(ev, ": %s", r->errors);
	else if (r->fail_detail)
		strbuf_addf(ev, ": %s", r->fail_detail);
	strbuf_addstr(ev, "; the percentiles of this run describe only the ");
	check_fmt_count(ev, r->n);
	strbuf_addf(ev, " successful %s", what);
	if (oha) {
		strbuf_addstr(ev, " (oha's own percentiles and its "
		    "per-request file leave the errors out too)");
		strbuf_addstr(cause, "requests failed (connection closed, "
		    "refused, timed out) and a latency percentile of the "
		    "successes cannot show them: the run looks as fast as "
		    "if they had not happened");
		strbuf_addstr(act, "report the failures beside the "
		    "percentiles (pathstat's failures column), find the "
		    "cause (server limits, connection reuse, TIME_WAIT) and "
		    "re-run before comparing paths");
	} else {
		strbuf_addstr(cause, "a timeout is a lost SYN or an "
		    "unreachable target, i.e. loss, not a slow connect; "
		    "percentiles of the successes look faster than what a "
		    "client saw");
		strbuf_addstr(act, "report the loss beside the percentiles "
		    "(pathstat shows a percentile as '≥ timeout' once the "
		    "estimator reads a timed-out probe); re-run if the loss "
		    "was not the path's");
	}
}

static void
partial_text(const struct check_run *r, struct strbuf *ev,
    struct strbuf *cause, struct strbuf *act)
{
	check_next_reason(ev, cause, act);
	strbuf_addf(ev, "the run was stored as partial (%s) with ",
	    r->reason ? r->reason : "no reason given");
	check_fmt_count(ev, r->n);
	strbuf_addstr(ev, r->metric == METRIC_THROUGHPUT_BPS ? " intervals" :
	    " samples");
	strbuf_addstr(cause, "the tool stopped early (interrupted, a server "
	    "error) or the file was cut short, so the run covers less than "
	    "its siblings");
	strbuf_addstr(act, "re-run it, or leave it out and say so: a short "
	    "run weighs less in a pooled percentile and its own percentile "
	    "is noisier");
}

static bool
failures_of(const struct check_run *r, struct strbuf *ev,
    struct strbuf *cause, struct strbuf *act)
{
	failures_text(r, ev, cause, act);
	if (r->partial)
		partial_text(r, ev, cause, act);
	return ev->len > 0;
}

void
check_hidden_failures(struct check_model *m)
{
	each_run(m, "hidden-failures", failures_of);
}

/* ---------------------------------------------------------------------
 * udp-loss
 */

static bool
udp_loss_of(const struct check_run *r, struct strbuf *ev,
    struct strbuf *cause, struct strbuf *act)
{
	double pct;

	if (r->metric != METRIC_THROUGHPUT_BPS || !isfinite(r->udp_lost) ||
	    !isfinite(r->udp_sent) || r->udp_sent <= 0 ||
	    r->udp_lost < CHECK_UDP_LOSS_MIN)
		return false;
	pct = 100.0 * r->udp_lost / r->udp_sent;
	if (pct < CHECK_UDP_LOSS_PCT)
		return false;
	strbuf_addf(ev, "the receiver lost %.1f %% of the datagrams (",
	    pct);
	check_fmt_count(ev, (uint64_t)r->udp_lost);
	strbuf_addstr(ev, " of ");
	check_fmt_count(ev, (uint64_t)r->udp_sent);
	strbuf_addf(ev, "; threshold %.0f %% and %d datagrams)",
	    CHECK_UDP_LOSS_PCT, CHECK_UDP_LOSS_MIN);
	if (isfinite(r->target_bps))
		strbuf_addf(ev, r->target_bps == 0 ? "; -b 0 (unlimited)" :
		    "; -b %.4g Mbit/s", r->target_bps / 1e6);
	strbuf_addstr(ev, r->udp_side == 1 || r->udp_side == 2 ?
	    "; the throughput shown is what arrived" : "; the throughput "
	    "stored is the sender's rate (no receiver's count in the file, "
	    "or ingested before pathstat read it: ingest --force)");
	strbuf_addstr(cause, "the sender offered more than the path or the "
	    "receiver took (-b above the capacity, -b 0, a small receive "
	    "buffer, a policer), or the path drops datagrams");
	strbuf_addstr(act, "publish the loss beside the rate (analyze's UDP "
	    "loss % column); to measure capacity rather than loss, lower -b "
	    "until the loss is under 1 %, or raise the receive buffer (-w)");
	return true;
}

void
check_udp_loss(struct check_model *m)
{
	each_run(m, "udp-loss", udp_loss_of);
}

/* ---------------------------------------------------------------------
 * syn-retransmit
 */

static bool
syn_of(const struct check_run *r, struct strbuf *ev, struct strbuf *cause,
    struct strbuf *act)
{
	static const char *const mode_name[] = { "1 s", "3 s", "7 s", "15 s" };
	size_t k, listed = 0;

	if (!r->syn.count)
		return false;
	check_fmt_count(ev, r->syn.count);
	strbuf_addstr(ev, " of ");
	check_fmt_count(ev, r->n);
	strbuf_addstr(ev, r->metric == METRIC_CONNECT_MS ? " connects took " :
	    " requests took ");
	check_fmt_value(ev, r->metric, r->syn.lo);
	if (r->syn.hi > r->syn.lo) {
		strbuf_addstr(ev, " to ");
		check_fmt_value(ev, r->metric, r->syn.hi);
	}
	strbuf_addstr(ev, ", in the ");
	for (k = 0; k < ARRAY_SIZE(mode_name); k++)
		if (r->syn.per_mode[k])
			strbuf_addf(ev, "%s%s (%zu)", listed++ ? ", " : "",
			    mode_name[k], r->syn.per_mode[k]);
	strbuf_addstr(ev, " mode above the median ");
	check_fmt_value(ev, r->metric, r->p50);
	strbuf_addf(ev, ", where the run's own tail (lognormal through its "
	    "p90, p99, p99.9) puts %.2g", r->syn.expected);
	if (isfinite(r->timeout_s))
		strbuf_addf(ev, "; the probe timeout was %g s, long enough for "
		    "a retransmitted SYN to complete", r->timeout_s);
	strbuf_addstr(cause, "the first SYN (or its SYN-ACK) was lost and the "
	    "client retransmitted it after Linux's 1 s initial RTO (then 3 s, "
	    "7 s): each such value is a loss event plus the RTT, not the "
	    "path's latency, and it sets the max and high percentiles");
	strbuf_addstr(act, "count these as loss (a timeout below 1 s, as "
	    "pathprobe -t 0.4 does) or report them apart from the "
	    "percentiles; look for what drops SYNs (listen backlog, SYN rate "
	    "limits, a busy load balancer)");
	return true;
}

void
check_syn_retransmit(struct check_model *m)
{
	each_run(m, "syn-retransmit", syn_of);
}

/* ---------------------------------------------------------------------
 * busy-client
 */

static bool
busy_of(const struct check_run *r, struct strbuf *ev, struct strbuf *cause,
    struct strbuf *act)
{
	const struct check_gap *g = &r->gap;

	/* --resolve-each times a DNS lookup on purpose: not the client's
	 * idle time (docs/checks.md). */
	if ((!g->large && !g->erratic) || r->resolve_each)
		return false;
	strbuf_addstr(ev, "connect_ms − handshake_ms (the time the client "
	    "itself added to a probe) over ");
	check_fmt_count(ev, g->n);
	strbuf_addstr(ev, " probes: median ");
	check_fmt_value(ev, METRIC_CONNECT_MS, g->p50);
	if (g->large)
		strbuf_addf(ev, " (threshold %.1f ms)", CHECK_BUSY_MEDIAN_MS);
	strbuf_addstr(ev, ", p90 ");
	check_fmt_value(ev, METRIC_CONNECT_MS, g->p90);
	strbuf_addstr(ev, ", max ");
	check_fmt_value(ev, METRIC_CONNECT_MS, g->max);
	strbuf_addstr(ev, "; ");
	check_fmt_count(ev, g->slow);
	strbuf_addf(ev, " probes (%.1f %%) added %.0f ms or more",
	    100.0 * (double)g->slow / (double)g->n, CHECK_BUSY_SLOW_MS);
	if (g->erratic)
		strbuf_addf(ev, " (threshold %.0f %%)",
		    100.0 * CHECK_BUSY_SLOW_SHARE);
	strbuf_addstr(ev, "; handshake_ms median ");
	check_fmt_value(ev, METRIC_HANDSHAKE_MS, g->hs_p50);
	strbuf_addstr(ev, ", connect_ms median ");
	check_fmt_value(ev, METRIC_CONNECT_MS, g->conn_p50);
	strbuf_addstr(cause, "pathprobe noticed the completed handshake late: "
	    "the client was busy or descheduled (other work on its CPU such "
	    "as an iperf3 or oha run at the same time, CPU steal on a "
	    "burstable or oversubscribed instance, interrupt load, deep idle "
	    "states); that time is the client's, not the path's, and the "
	    "connect_ms percentiles carry it");
	strbuf_addstr(act, "publish handshake_ms for what the path costs; "
	    "for connect_ms, re-run with the client otherwise idle (no other "
	    "tool at the same time), pathprobe pinned with taskset, on an "
	    "instance without CPU credits");
	return true;
}

void
check_busy_client(struct check_model *m)
{
	each_run(m, "busy-client", busy_of);
}

/* Per run counts listed after a merged total: at most this many. */
#define COUNTS_LISTED	8

bool
check_run_counts_merged(const struct check_model *m,
    const struct check_finding *f, struct strbuf *ev)
{
	bool busy = !strcmp(f->check, "busy-client");
	int64_t sum_a = 0, sum_b = 0, *a, *b;
	const char *what = "probes";
	size_t i, r, n = 0;
	bool same_b = true, same = true;

	if ((!busy && strcmp(f->check, "hidden-failures")) || f->nruns < 2)
		return false;
	a = xcalloc(f->nruns, sizeof(int64_t));
	b = xcalloc(f->nruns, sizeof(int64_t));
	for (i = 0; i < f->nruns; i++) {
		for (r = 0; r < m->nruns && m->runs[r].id != f->runs[i]; r++)
			;
		if (r == m->nruns)
			continue;
		if (busy) {
			a[n] = (int64_t)m->runs[r].gap.slow;
			b[n] = (int64_t)m->runs[r].gap.n;
		} else {
			what = failure_counts(&m->runs[r], &a[n], &b[n]);
		}
		sum_a += a[n];
		sum_b += b[n];
		same_b = same_b && b[n] == b[0];
		same = same && a[n] == a[0] && b[n] == b[0];
		n++;
	}
	if (n < 2) {
		free(a);
		free(b);
		return false;
	}
	check_fmt_count(ev, (uint64_t)sum_a);
	strbuf_addstr(ev, " of ");
	check_fmt_count(ev, (uint64_t)sum_b);
	if (busy)
		strbuf_addf(ev, " probes added %.0f ms or more to the handshake "
		    "(%.1f %%; the client's own time)", CHECK_BUSY_SLOW_MS,
		    sum_b ? 100.0 * (double)sum_a / (double)sum_b : 0.0);
	else
		strbuf_addf(ev, " %s failed", what);
	strbuf_addf(ev, " over the cell's %zu runs (", n);
	if (same) {
		check_fmt_count(ev, (uint64_t)a[0]);
		strbuf_addstr(ev, " of ");
		check_fmt_count(ev, (uint64_t)b[0]);
		strbuf_addstr(ev, " in each)");
	} else {
		strbuf_addstr(ev, "per run: ");
		for (i = 0; i < n && i < COUNTS_LISTED; i++) {
			strbuf_addstr(ev, i == 0 ? "" : i + 1 == n ? " and " :
			    ", ");
			check_fmt_count(ev, (uint64_t)a[i]);
			if (!same_b) {
				strbuf_addstr(ev, " of ");
				check_fmt_count(ev, (uint64_t)b[i]);
			}
		}
		if (n > COUNTS_LISTED)
			strbuf_addf(ev, ", … %zu more", n - COUNTS_LISTED);
		if (same_b) {
			strbuf_addstr(ev, " of ");
			check_fmt_count(ev, (uint64_t)b[0]);
		}
		strbuf_addch(ev, ')');
	}
	if (busy) {
		/* a median does not add up: each run's */
		strbuf_addstr(ev, "; each run's median added time: ");
		for (i = r = 0; i < f->nruns && r < COUNTS_LISTED; i++) {
			size_t k;

			for (k = 0; k < m->nruns && m->runs[k].id != f->runs[i];
			    k++)
				;
			if (k == m->nruns)
				continue;
			strbuf_addstr(ev, r == 0 ? "" : r + 1 == n ? " and " :
			    ", ");
			check_fmt_value(ev, METRIC_CONNECT_MS,
			    m->runs[k].gap.p50);
			r++;
		}
		if (n > COUNTS_LISTED)
			strbuf_addstr(ev, ", …");
	} else {
		strbuf_addstr(ev, "; the cell's percentiles describe only the ");
		check_fmt_count(ev, (uint64_t)(sum_b - sum_a));
		strbuf_addf(ev, " successful %s", what);
	}
	free(a);
	free(b);
	return true;
}
