/*
 * loop.c - the ingest loop over the files a walk found: a producer
 * thread reads and parses up to INGEST_AHEAD files ahead (job.c) while
 * this thread decides and writes them (write.c) or describes them
 * (dry.c) in walk order, so the database and the output are those of
 * one file at a time; and the progress line on a terminal.
 */
#include "common/compat.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>

#include "common/err.h"
#include "common/xalloc.h"
#include "ingest/job.h"
#include "ingest/store.h"

double
ingest_now(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

void
ingest_progress(const struct ingest_stats *s, size_t done, size_t total,
    double t0, bool final)
{
	double dt = ingest_now() - t0;

	fprintf(stderr, "\r\033[Kpathstat ingest: %zu/%zu files, %.1f MB, %.1f MB/s",
	    done, total, (double)s->bytes / 1e6,
	    dt > 0 ? (double)s->bytes / 1e6 / dt : 0.0);
	if (final)
		fputs("\r\033[K", stderr);
	fflush(stderr);
}

/*
 * Files read and parsed ahead of the one being stored.  Ingest's peak
 * memory is about this many files: the oha files of the bench tree
 * alternate with small JSON summaries, and with fewer a large parse
 * often waited for a small store (docs/research/bench.md).
 */
#define INGEST_AHEAD	4

/* The producer thread and what it shares with the main thread. */
struct ingest_pipe {
	pthread_mutex_t	lock;
	pthread_cond_t	ready;		/* a job was produced */
	pthread_cond_t	room;		/* a job consumed, or stop */
	/* job k lives in jobs[k % INGEST_AHEAD] */
	struct ingest_job	jobs[INGEST_AHEAD];
	size_t		produced;	/* jobs done by the producer */
	size_t		consumed;	/* jobs finished by main */
	bool		stop;		/* the main thread gives up */
	/* read by the producer only, once started: */
	const struct walk_file	**todo;	/* files in walk order */
	size_t		ntodo;
	struct meta_cache	*mc;	/* used by the producer only */
	const struct ingest_opts	*o;
	struct store	*rst;		/* read-only, or NULL */
};

static void *
pipe_produce(void *arg)
{
	struct ingest_pipe *p = arg;
	size_t k;

	for (k = 0; k < p->ntodo; k++) {
		struct ingest_job *job = &p->jobs[k % INGEST_AHEAD];

		pthread_mutex_lock(&p->lock);
		while (k - p->consumed >= INGEST_AHEAD && !p->stop)
			pthread_cond_wait(&p->room, &p->lock);
		if (p->stop) {
			pthread_mutex_unlock(&p->lock);
			break;
		}
		pthread_mutex_unlock(&p->lock);
		job_init(job, p->todo[k]);
		err_capture_begin(&job->msgs);
		if (job_prepare(job, p->rst, p->mc, p->o))
			job_parse(job);
		err_capture_end();
		pthread_mutex_lock(&p->lock);
		p->produced = k + 1;
		pthread_cond_signal(&p->ready);
		pthread_mutex_unlock(&p->lock);
	}
	return NULL;
}

/*
 * Ingest the files: a producer thread prepares and parses them while
 * this thread stores them (in this thread alone if no thread can be
 * made).  Returns -1 when a database error stopped the walk.
 */
int
ingest_files(struct ingest_ctx *c, struct store *rst, struct meta_cache *mc,
    const struct walk_file **todo, size_t ntodo, size_t total,
    bool show_progress, double t0)
{
	const struct ingest_opts *o = c->o;
	struct ingest_stats *stats = c->stats;
	struct ingest_pipe *p = xcalloc(1, sizeof(*p));
	pthread_t thread;
	bool threaded;
	double last = 0;
	size_t k;
	int ret = 0;

	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->ready, NULL);
	pthread_cond_init(&p->room, NULL);
	p->todo = todo;
	p->ntodo = ntodo;
	p->mc = mc;
	p->o = o;
	p->rst = rst;
	threaded = pthread_create(&thread, NULL, pipe_produce, p) == 0;
	for (k = 0; k < ntodo; k++) {
		struct ingest_job *job = &p->jobs[k % INGEST_AHEAD];
		int rc;

		if (threaded) {
			pthread_mutex_lock(&p->lock);
			while (p->produced <= k)
				pthread_cond_wait(&p->ready, &p->lock);
			pthread_mutex_unlock(&p->lock);
		} else {
			job_init(job, todo[k]);
			err_capture_begin(&job->msgs);
			if (job_prepare(job, o->dry_run ? NULL : c->st, mc, o))
				job_parse(job);
			err_capture_end();
		}
		stats->files++;
		rc = o->dry_run ? job_dry(c, job) : job_finish(c, job);
		job_release(job);
		pthread_mutex_lock(&p->lock);
		p->consumed = k + 1;
		pthread_cond_signal(&p->room);
		pthread_mutex_unlock(&p->lock);
		if (rc) {
			ret = -1;
			break;
		}
		if (show_progress && ingest_now() - last > 0.2) {
			last = ingest_now();
			ingest_progress(stats, k + 1, total, t0, false);
		}
	}
	/* the last batch (after an error: the files before it) */
	if (!o->dry_run && job_flush(c))
		ret = -1;
	if (threaded) {
		pthread_mutex_lock(&p->lock);
		p->stop = true;
		pthread_cond_signal(&p->room);
		pthread_mutex_unlock(&p->lock);
		pthread_join(thread, NULL);
		for (; p->consumed < p->produced; p->consumed++)
			job_release(&p->jobs[p->consumed % INGEST_AHEAD]);
	}
	pthread_cond_destroy(&p->room);
	pthread_cond_destroy(&p->ready);
	pthread_mutex_destroy(&p->lock);
	free(p);
	return ret;
}

