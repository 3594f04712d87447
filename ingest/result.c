/*
 * result.c - building and freeing struct parse_result, shared by every
 * format parser.
 */
#include "common/compat.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "ingest/ingest.h"
#include "ingest/internal.h"

void
parse_result_init(struct parse_result *res)
{
	memset(res, 0, sizeof(*res));
	strbuf_init(&res->reason, 0);
}

void
run_enc_free(struct run_enc *enc)
{
	size_t i;

	if (!enc)
		return;
	for (i = 0; i < enc->n; i++) {
		free(enc->s[i].vb);
		free(enc->s[i].tb);
		free(enc->s[i].sb);
		free(enc->s[i].failed);
		free(enc->s[i].any_t);
		free(enc->s[i].sorted);
	}
	free(enc->s);
	free(enc);
}

static void
parsed_run_release(struct parsed_run *run)
{
	size_t i;

	kvset_release(&run->cond);
	kvset_release(&run->tags);
	strbuf_release(&run->reason);
	for (i = 0; i < run->ncounts; i++)
		free(run->counts[i].label);
	free(run->samples);
	run_enc_free(run->enc);
	free(run->summaries);
	free(run->counts);
	if (run->mtu) {
		free(run->mtu->method);
		free(run->mtu->reason);
		free(run->mtu->target);
		free(run->mtu->addr);
		free(run->mtu);
	}
}

void
parse_result_release(struct parse_result *res)
{
	size_t i;

	for (i = 0; i < res->nruns; i++)
		parsed_run_release(&res->runs[i]);
	free(res->runs);
	strbuf_release(&res->reason);
	parse_result_init(res);
}

struct parsed_run *
parse_result_add_run(struct parse_result *res, const char *tool, int metric)
{
	struct parsed_run *run;

	ALLOC_GROW(res->runs, res->nruns + 1, res->alloc_runs);
	run = &res->runs[res->nruns++];
	memset(run, 0, sizeof(*run));
	run->tool = tool;
	run->metric = metric;
	kvset_init(&run->cond);
	kvset_init(&run->tags);
	strbuf_init(&run->reason, 0);
	run->started_at = STARTED_UNKNOWN;
	run->attempts = -1;
	return run;
}

void
parsed_run_add_sample(struct parsed_run *run, int metric, int64_t t_us,
    double value, int status)
{
	struct parsed_sample *s;

	ALLOC_GROW(run->samples, run->nsamples + 1, run->alloc_samples);
	s = &run->samples[run->nsamples++];
	s->t_us = t_us;
	s->value = status == SAMPLE_OK ? value : NAN;
	s->metric = (uint8_t)metric;
	s->status = (uint8_t)status;
	s->seq = metric > 0 && metric < METRIC_ID_LIMIT ?
	    run->next_seq[metric]++ : 0;
}

static void
copy_field(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);

	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

void
parsed_run_add_summary(struct parsed_run *run, const char *metric,
    const char *stat, double value, const char *estimator)
{
	struct parsed_summary *s;
	size_t i;

	/* A repeated (metric, stat) keeps the last value: the DB key is unique. */
	for (i = 0; i < run->nsummaries; i++) {
		s = &run->summaries[i];
		if (!strcmp(s->metric, metric) && !strcmp(s->stat, stat)) {
			s->value = value;
			copy_field(s->estimator, sizeof(s->estimator), estimator);
			return;
		}
	}
	ALLOC_GROW(run->summaries, run->nsummaries + 1, run->alloc_summaries);
	s = &run->summaries[run->nsummaries++];
	copy_field(s->metric, sizeof(s->metric), metric);
	copy_field(s->stat, sizeof(s->stat), stat);
	copy_field(s->estimator, sizeof(s->estimator), estimator);
	s->value = value;
}

void
parsed_run_add_count(struct parsed_run *run, const char *kind,
    const char *label, int64_t count)
{
	struct parsed_count *c;
	size_t i;

	for (i = 0; i < run->ncounts; i++) {
		c = &run->counts[i];
		if (!strcmp(c->kind, kind) && !strcmp(c->label, label)) {
			c->count += count;
			return;
		}
	}
	ALLOC_GROW(run->counts, run->ncounts + 1, run->alloc_counts);
	c = &run->counts[run->ncounts++];
	copy_field(c->kind, sizeof(c->kind), kind);
	c->label = xstrdup(label);
	c->count = count;
}

void
parsed_run_mark_partial(struct parsed_run *run, const char *fmt, ...)
{
	va_list ap;

	if (run->reason.len)
		strbuf_addstr(&run->reason, "; ");
	va_start(ap, fmt);
	strbuf_vaddf(&run->reason, fmt, ap);
	va_end(ap);
	run->partial = true;
}

void
parse_result_mark_partial(struct parse_result *res, const char *fmt, ...)
{
	va_list ap;

	if (res->reason.len)
		strbuf_addstr(&res->reason, "; ");
	va_start(ap, fmt);
	strbuf_vaddf(&res->reason, fmt, ap);
	va_end(ap);
	res->partial = true;
}

int
parse_reject(struct parse_result *res, const char *fmt, ...)
{
	va_list ap;
	size_t i;

	/* A rejected file stores nothing: drop any runs built so far here,
	 * so no parser has to remember to (the tool version stays). */
	for (i = 0; i < res->nruns; i++)
		parsed_run_release(&res->runs[i]);
	free(res->runs);
	res->runs = NULL;
	res->nruns = res->alloc_runs = 0;
	res->partial = false;
	strbuf_reset(&res->reason);
	va_start(ap, fmt);
	strbuf_vaddf(&res->reason, fmt, ap);
	va_end(ap);
	return -1;
}

/* The kinds are numbered from 1 without a gap (enum ingest_kind), and
 * ingest_kind_name names any other number "unknown". */
const char *
ingest_kind_at(size_t i)
{
	const char *name;

	if (i == 0 || i > 255)
		return NULL;
	name = ingest_kind_name((enum ingest_kind)i);
	return strcmp(name, "unknown") ? name : NULL;
}

const char *
ingest_kind_name(enum ingest_kind kind)
{
	switch (kind) {
	case KIND_IPERF3_JSON: return "iperf3-json";
	case KIND_IPERF3_STREAM: return "iperf3-stream";
	case KIND_OHA_JSON: return "oha-json";
	case KIND_OHA_CSV: return "oha-csv";
	case KIND_OHA_SQLITE: return "oha-sqlite";
	case KIND_PATHPROBE_CSV: return "pathprobe-csv";
	case KIND_PATHPROBE_MTU: return "pathprobe-mtu";
	case KIND_META: return "meta";
	case KIND_IPERF3_USAGE: return "iperf3-usage";
	case KIND_UNKNOWN: break;
	}
	return "unknown";
}
