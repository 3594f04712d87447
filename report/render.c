/*
 * render.c - the charts' gnuplot runs, several at once: each chart
 * is queued once its script and data are written, its gnuplot starts
 * when one of b->max_jobs slots is free (the report goes on meanwhile),
 * and at the end every figure is numbered and put in its place in
 * index.md in the charts' order, so the bundle and the messages do not
 * depend on which gnuplot ended first (internal.h).
 */
#include "common/compat.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/err.h"
#include "common/escape.h"
#include "common/strbuf.h"
#include "common/xalloc.h"
#include "report/internal.h"

struct report_chart_job {
	struct report_job job;
	struct report_section *s;	/* borrowed from the spec */
	char		*stem;		/* "03-connect" (owned) */
	const char	*kind;		/* "bars" ... (static) */
	char		*title_md;	/* the title as Markdown (owned) */
	char		*body_md;	/* the caption after it (owned) */
	size_t		at;		/* its place in b->index */
	bool		run;		/* gnuplot to run on it */
};

/* The lines of text, each once (both outputs repeat gnuplot's
 * warnings), without the last newline. */
static void
unique_lines(const char *text, struct strbuf *out)
{
	const char *p = text;

	while (*p) {
		size_t len = strcspn(p, "\n");
		char *line = xstrndup(p, len);
		const char *seen = out->buf;
		bool dup = false;

		while (!dup && (seen = strstr(seen, line)) != NULL) {
			dup = (seen == out->buf || seen[-1] == '\n') &&
			    (seen[len] == '\n' || seen[len] == '\0');
			seen++;
		}
		if (len && !dup)
			strbuf_addf(out, "%s%s", out->len ? "\n" : "", line);
		free(line);
		p += len;
		if (*p)
			p++;
	}
}

/* Read what the running jobs wrote and reap those that ended (block:
 * wait for one to end), then start queued ones while slots are free. */
static void
pump(struct report_bundle *b, bool block)
{
	struct report_job **run = xcalloc(b->njobs + 1, sizeof(*run));
	size_t i, n = 0;
	char *argv[3];

	for (i = 0; i < b->next_job; i++)
		if (b->jobs[i].job.running)
			run[n++] = &b->jobs[i].job;
	if (n)
		report_jobs_wait(run, n, block);
	for (i = n = 0; i < b->next_job; i++)
		n += b->jobs[i].job.running;
	for (; n < b->max_jobs && b->next_job < b->njobs &&
	    !report_interrupted(); b->next_job++) {
		struct report_chart_job *j = &b->jobs[b->next_job];
		struct strbuf gp = STRBUF_INIT;

		if (!j->run)
			continue;
		strbuf_addf(&gp, "%s.gp", j->stem);
		argv[0] = (char *)report_gnuplot_program();
		argv[1] = gp.buf;
		argv[2] = NULL;
		/* in the bundle's private charts folder (bundle.c) */
		if (!report_job_start(b->stage_charts, argv, b->timeout_s,
		    &j->job))
			n++;
		strbuf_release(&gp);
	}
	free(run);
}

void
report_chart_queue(struct report_bundle *b, struct report_section *s,
    const char *stem, const char *kind, char *title_md, char *body_md)
{
	struct report_chart_job *j;

	ALLOC_GROW(b->jobs, b->njobs + 1, b->alloc_jobs);
	j = &b->jobs[b->njobs++];
	memset(j, 0, sizeof(*j));
	j->job.errfd = -1;
	strbuf_init(&j->job.res.err, 0);
	j->s = s;
	j->stem = xstrdup(stem);
	j->kind = kind;
	j->title_md = title_md;
	j->body_md = body_md;
	j->at = b->index.len;
	j->run = b->render;
	if (b->max_jobs < 1)
		b->max_jobs = 1;
	pump(b, false);
}

/* How gnuplot went on j, said on stderr as a serial run says it: 0 and
 * *rendered, or -1 when it failed (the section is missing). */
static int
settle(struct report_bundle *b, struct report_chart_job *j, bool *rendered)
{
	struct report_run_result *res = &j->job.res;
	struct strbuf rel = STRBUF_INIT;
	int ret = 0;

	*rendered = false;
	if (j->run && !b->render) {
		/* gnuplot went away before it: no images, as if not run */
		strbuf_addf(&rel, "%s.png", j->stem);
		unlinkat(b->stage_charts, rel.buf, 0);
		strbuf_reset(&rel);
		strbuf_addf(&rel, "%s.svg", j->stem);
		unlinkat(b->stage_charts, rel.buf, 0);
	} else if (!j->run) {
		;
	} else if (res->exec_errno) {
		/* gone since we looked: treat as not installed */
		b->render = false;
	} else if (res->timed_out || res->exit_code) {
		ret = error("gnuplot failed on charts/%s.gp%s%s", j->stem,
		    res->timed_out ? " (timed out)" : "",
		    res->err.len ? ":" : "");
		if (res->err.len)
			fprintf(stderr, "%s%s", res->err.buf,
			    res->err.buf[res->err.len - 1] == '\n' ? "" : "\n");
		b->nfailed++;
	} else {
		if (res->err.len) {
			struct strbuf msg = STRBUF_INIT;

			unique_lines(res->err.buf, &msg);
			warning("gnuplot on charts/%s.gp said: %s", j->stem,
			    msg.buf);
			strbuf_release(&msg);
		}
		strbuf_addf(&rel, "charts/%s.png", j->stem);
		report_bundle_add_file(b, rel.buf);
		strbuf_reset(&rel);
		strbuf_addf(&rel, "charts/%s.svg", j->stem);
		report_bundle_add_file(b, rel.buf);
		b->nrendered++;
		*rendered = true;
	}
	strbuf_release(&rel);
	return ret;
}

/* The figure of j, number b->ncharts, into md and provenance.json. */
static void
figure(struct report_bundle *b, const struct report_chart_job *j,
    bool rendered, struct strbuf *md)
{
	const char *st = j->stem;
	struct strbuf rel = STRBUF_INIT;
	cJSON *entry;

	if (rendered)
		strbuf_addf(md, "\n![Figure %zu: %s](charts/%s.png)\n",
		    b->ncharts, j->title_md, st);
	strbuf_addf(md, "\n_Figure %zu: %s%s", b->ncharts, j->title_md,
	    j->body_md);
	if (rendered)
		strbuf_addf(md, "._ [SVG](charts/%s.svg) · "
		    "[data](charts/%s.dat) · [gnuplot script](charts/%s.gp)\n",
		    st, st, st);
	else	/* no image to link: the script and data that make it */
		strbuf_addf(md, "._ [gnuplot script](charts/%s.gp) · "
		    "[data](charts/%s.dat)\n\n_Not rendered%s: to draw this "
		    "figure, install gnuplot (Debian: `sudo apt-get install "
		    "gnuplot-nox`) and run `gnuplot %s.gp` in the `charts` "
		    "folder; it writes %s.png and %s.svg._\n", st, st,
		    b->gnuplot_missing ? ": gnuplot was not available" :
		    " (--no-render)", st, st, st);

	entry = cJSON_CreateObject();
	cJSON_AddNumberToObject(entry, "figure", (double)b->ncharts);
	cJSON_AddStringToObject(entry, "kind", j->kind);
	cJSON_AddStringToObject(entry, "spec_location", j->s->chart->loc);
	strbuf_addf(&rel, "charts/%s.gp", st);
	cJSON_AddStringToObject(entry, "script", rel.buf);
	strbuf_reset(&rel);
	strbuf_addf(&rel, "charts/%s.dat", st);
	cJSON_AddStringToObject(entry, "data", rel.buf);
	cJSON_AddBoolToObject(entry, "rendered", rendered);
	/* from where report ran, like every other command recorded */
	strbuf_reset(&rel);
	strbuf_addstr(&rel, "cd ");
	escape_shell(&rel, b->dir);
	strbuf_addf(&rel, "/charts && gnuplot %s.gp", st);
	cJSON_AddStringToObject(entry, "command", rel.buf);
	cJSON_AddItemToArray(b->prov_charts, entry);
	strbuf_release(&rel);
}

size_t
report_charts_finish(struct report_bundle *b)
{
	struct strbuf out = STRBUF_INIT;
	size_t i, from = 0, bad = 0;
	bool busy = true;

	while (busy) {
		pump(b, true);
		busy = false;
		for (i = 0; i < b->njobs; i++)
			busy |= b->jobs[i].job.running;
		if (!report_interrupted())
			busy |= b->next_job < b->njobs;
	}
	for (i = 0; i < b->njobs; i++) {
		struct report_chart_job *j = &b->jobs[i];
		bool rendered;

		strbuf_add(&out, b->index.buf + from, j->at - from);
		from = j->at;
		if (i >= b->next_job)
			j->run = false;	/* interrupted before it ran */
		if (settle(b, j, &rendered)) {
			report_failed_marker(b, j->s, &out);
			bad++;
			continue;
		}
		b->ncharts++;
		figure(b, j, rendered, &out);
	}
	strbuf_add(&out, b->index.buf + from, b->index.len - from);
	strbuf_release(&b->index);
	b->index = out;		/* b->index takes out's buffer */
	report_charts_release(b);
	return bad;
}

void
report_charts_release(struct report_bundle *b)
{
	size_t i;

	for (i = 0; i < b->njobs; i++) {
		struct report_chart_job *j = &b->jobs[i];

		if (j->job.running) {	/* only after an error */
			kill(j->job.pid, SIGKILL);
			report_jobs_wait((struct report_job *[]){ &j->job }, 1,
			    true);
		}
		report_run_result_release(&j->job.res);
		free(j->stem);
		free(j->title_md);
		free(j->body_md);
	}
	free(b->jobs);
	b->jobs = NULL;
	b->njobs = b->alloc_jobs = b->next_job = 0;
}
