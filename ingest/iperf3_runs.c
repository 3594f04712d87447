/*
 * iperf3_runs.c - the iperf3 parser's outcome: from what was read, the
 * runs (one per direction, with the test's keys, samples and summaries)
 * and each run's partial reasons, or the file's rejection (an iperf3
 * error, a test that never ran, nothing usable); then the notes about
 * the file as a whole.
 */
#include "common/compat.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/kv.h"
#include "common/strbuf.h"
#include "ingest/internal.h"
#include "ingest/iperf3.h"

/* Note something about the file as a whole (extra documents, junk
 * lines); iperf3_finish() adds it to the reason after the runs' own reasons. */
void
iperf3_file_note(struct iperf3_ctx *c, const char *fmt, ...)
{
	va_list ap;

	if (c->file_notes.len)
		strbuf_addstr(&c->file_notes, "; ");
	va_start(ap, fmt);
	strbuf_vaddf(&c->file_notes, fmt, ap);
	va_end(ap);
}

/* ---- building the runs ---------------------------------------------- */

/* Mark the run partial and say why in the file's reason too (once). */
static void
note_run(struct parse_result *res, size_t run_index, const char *msg)
{
	parsed_run_mark_partial(&res->runs[run_index], "%s", msg);
	if (!res->partial || !strstr(res->reason.buf, msg))
		parse_result_mark_partial(res, "%s", msg);
}

static void
note_runf(struct parse_result *res, size_t run_index, const char *fmt, ...)
    PATHSTAT_PRINTF(3, 4);

static void
note_runf(struct parse_result *res, size_t run_index, const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	note_run(res, run_index, msg.buf);
	strbuf_release(&msg);
}

static void
copy_samples(struct parsed_run *run, const struct iperf3_dir *d)
{
	size_t i;

	for (i = 0; i < d->nsamples; i++)
		parsed_run_add_sample(run, d->samples[i].metric,
		    d->samples[i].t_us, d->samples[i].value, SAMPLE_OK);
}

/*
 * A run's samples.  The client's intervals of a UDP test it sent are
 * the sender's rate (on a lossy path 353 Mbit/s where the receiver got
 * 110-334), so such a run's throughput is what arrived: the receiver's
 * intervals (--get-server-output of a server run with -J), else one
 * sample, the receiver's end-of-test rate.  The summary iperf3
 * rate_side says which (UDP_SIDE_*); without a receiver's count the
 * sender's intervals stay (rate_side 0).
 */
static void
udp_samples(struct iperf3_ctx *c, const struct iperf3_setup *s,
    enum iperf3_dir_id id, struct parsed_run *run)
{
	const struct iperf3_dir *d = &c->dir[id];
	struct iperf3_dir rx;
	double rate, side = UDP_SIDE_SENDER;
	int64_t t_us;
	size_t i;

	if (!s->udp || s->server || s->reverse || id != DIR_UP) {
		/* the local side received (-R, --bidir's other way, a
		 * server's document), unless a server sent (-R) */
		copy_samples(run, d);
		if (s->udp)
			parsed_run_add_summary(run, "iperf3", "rate_side",
			    s->server && s->reverse ? UDP_SIDE_SENDER :
			    UDP_SIDE_RX_INTERVALS, "tool");
		return;
	}
	memset(&rx, 0, sizeof(rx));
	rate = iperf3_received_rate(c, id, c->error != NULL, s->omit > 0,
	    &t_us);
	if (!s->bidir && iperf3_receiver_intervals(c, &rx)) {
		copy_samples(run, &rx);
		side = UDP_SIDE_RX_INTERVALS;
	} else if (isfinite(rate)) {
		parsed_run_add_sample(run, METRIC_THROUGHPUT_BPS, t_us, rate,
		    SAMPLE_OK);
		/* the sender's intervals carry no jitter or loss; keep any
		 * other metric they have */
		for (i = 0; i < d->nsamples; i++)
			if (d->samples[i].metric != METRIC_THROUGHPUT_BPS)
				parsed_run_add_sample(run, d->samples[i].metric,
				    d->samples[i].t_us, d->samples[i].value,
				    SAMPLE_OK);
		side = UDP_SIDE_RX_END;
	} else {
		/* analyze's side column and check udp-loss say so */
		copy_samples(run, d);
	}
	free(rx.samples);
	parsed_run_add_summary(run, "iperf3", "rate_side", side, "tool");
}

static void
build_run(struct iperf3_ctx *c, const struct iperf3_setup *s,
    enum iperf3_dir_id id)
{
	struct parse_result *res = c->res;
	const struct iperf3_dir *d = &c->dir[id];
	struct parsed_run *run;
	size_t ri, missing;

	run = parse_result_add_run(res, "iperf3", METRIC_THROUGHPUT_BPS);
	ri = res->nruns - 1;
	if (s->proto[0])
		kvset_set(&run->cond, "proto", s->proto);
	if (s->streams[0])
		kvset_set(&run->cond, "P", s->streams);
	if (s->bidir)
		kvset_set(&run->cond, "dir",
		    id == DIR_UP ? "bidir-up" : "bidir-down");
	else if (s->reverse)
		kvset_set(&run->cond, "dir", "reverse");
	if (s->server)
		kvset_set(&run->cond, "side", "server");
	run->started_at = s->started_at;
	udp_samples(c, s, id, run);
	iperf3_add_end_summaries(c, run, id, s->udp, c->error || s->server);
	/* the test's own parameters, so that check reads what was asked
	 * for instead of guessing it */
	if (s->target_bps >= 0)
		parsed_run_add_summary(run, "iperf3", "target_bitrate",
		    s->target_bps, "tool");
	if (s->blksize >= 0)
		parsed_run_add_summary(run, "iperf3", "blksize", s->blksize,
		    "tool");

	if (c->error)
		note_run(res, ri, c->error);
	if (c->salvaged)
		note_run(res, ri, c->salvage_note.buf);
	if (!s->test_start)
		note_run(res, ri, "no test_start: protocol, streams and "
		    "direction unknown");
	if (c->intervals_not_array)
		note_run(res, ri, "\"intervals\" is not an array");
	missing = c->nintervals - d->ntaken + d->nno_sum;
	if (missing && c->nintervals)
		note_runf(res, ri, "%zu of %zu intervals have no sum for this "
		    "direction", missing, c->nintervals);
	if (d->nrepeated)
		note_runf(res, ri, "%zu repeated interval%s dropped",
		    d->nrepeated, d->nrepeated == 1 ? "" : "s");
	if (d->nbad_rate)
		note_runf(res, ri, "%zu intervals without a usable "
		    "bits_per_second (NaN or null) skipped", d->nbad_rate);
	if (!d->nthroughput)
		note_run(res, ri, "no usable intervals");
	if (!iperf3_end_has_sums(c->end, id) && !(c->salvaged && !c->end))
		note_run(res, ri, "no end-of-test summary");
	if (c->intervals_capped)
		note_runf(res, ri, "more than %d intervals: the rest ignored",
		    IPERF3_MAX_INTERVALS);
}

/*
 * Decide the outcome from what was read: reject an error with nothing
 * usable and a test that never ran; otherwise build one run (two for
 * --bidir).  Returns 0 or -1 (parse_reject).
 */
static int
decide(struct iperf3_ctx *c)
{
	struct iperf3_setup s;
	size_t usable;
	bool sums;

	iperf3_read_setup(c, &s);
	usable = c->dir[DIR_UP].nthroughput +
	    (s.bidir ? c->dir[DIR_DOWN].nthroughput : 0);
	sums = iperf3_end_has_sums(c->end, DIR_UP) ||
	    (s.bidir && iperf3_end_has_sums(c->end, DIR_DOWN));
	if (c->error && !usable)
		return parse_reject(c->res, "iperf3 error: %s", c->error);
	if (!usable && !sums) {
		if (c->salvaged)
			return parse_reject(c->res, "%s; nothing usable",
			    c->salvage_note.buf);
		if (!s.test_start && !c->nintervals)
			return parse_reject(c->res, "iperf3 run never started: "
			    "no test_start, no intervals (iperf 3.9 writes no "
			    "error key; see its stderr)");
		return parse_reject(c->res, "no usable intervals and no "
		    "end-of-test summary");
	}
	build_run(c, &s, DIR_UP);
	if (s.bidir)
		build_run(c, &s, DIR_DOWN);
	return 0;
}

/* decide(), then the file-level notes: after the runs' reasons, or after
 * the rejection reason (without making a rejected file partial). */
int
iperf3_finish(struct iperf3_ctx *c)
{
	int ret = decide(c);

	if (!c->file_notes.len)
		return ret;
	if (ret)
		strbuf_addf(&c->res->reason, "; %s", c->file_notes.buf);
	else
		parse_result_mark_partial(c->res, "%s", c->file_notes.buf);
	return ret;
}

