/*
 * loop.c - the ingest loop over the files a walk found: parser threads
 * (--jobs) read and parse up to INGEST_AHEAD files ahead (job.c) while
 * this thread decides and writes them (write.c) or describes them
 * (dry.c) in walk order, so the database and the output are those of
 * one file at a time; and the progress line on a terminal.
 */
#include "common/compat.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <unistd.h>

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
 * Files in memory at once: the one being stored and those read and
 * parsed ahead of it.  Ingest's peak memory is about this many files,
 * however many parser threads.  The oha files of the bench tree
 * alternate with small JSON summaries, so 4 held two large files: the
 * writer, done with one, often waited for the next one's parse while
 * the parsers waited for a slot (timed per file and replayed on two
 * cores, 0.40 s of loop for 0.59 s of CPU; 0.34 s with 8, about what
 * 16 gave).  bench/run.sh's tree of the 8 largest files is the worst
 * case of this bound.
 */
#define INGEST_AHEAD	8

/* ... and no more bytes (as the walk found them) than this among them,
 * unless there is only one: large files are read ahead fewer at a time,
 * and a file near INGEST_MAX_BYTES (job.c) alone. */
#define INGEST_AHEAD_BYTES	((int64_t)256 << 20)

/* Parser threads by default: one per online CPU, at most this many (the
 * main thread writes meanwhile; a third on two CPUs was no faster). */
#define INGEST_MAX_PARSERS	4

/*
 * The parser threads and what they share with the main thread.  A
 * parser takes the next file index k under the lock, reads it into slot
 * k % INGEST_AHEAD, keys it when its turn comes (keyed == k: in walk
 * order, so that a broken meta.json is reported by the same file as
 * with one parser, and mc and rst are used by one thread at a time),
 * parses it and marks the slot done; the main thread takes the slots in
 * walk order.
 */
struct ingest_pipe {
	pthread_mutex_t	lock;
	pthread_cond_t	ready;		/* a job was parsed */
	pthread_cond_t	room;		/* a job consumed, or stop */
	pthread_cond_t	turn;		/* keyed moved on */
	struct ingest_job	jobs[INGEST_AHEAD];
	struct strbuf	spare[INGEST_AHEAD];	/* a slot's read buffer between
						 * its jobs (job_keep_buffer()) */
	size_t		done[INGEST_AHEAD];	/* k + 1 once job k is parsed */
	size_t		next;		/* the next file to take */
	size_t		keyed;		/* files keyed so far */
	size_t		consumed;	/* jobs finished by main */
	int64_t		held;		/* the walk's bytes of the files
					 * consumed..next-1 */
	bool		stop;		/* the main thread gives up */
	/* read-only once the parsers start: */
	const struct walk_file	**todo;	/* files in walk order */
	size_t		ntodo;
	struct meta_cache	*mc;	/* under lock, in walk order */
	const struct ingest_opts	*o;
	struct store	*rst;		/* read-only, or NULL; under lock */
};

/* Read, key and parse job k (taken by this thread); lock not held. */
static void
pipe_do(struct ingest_pipe *p, size_t k)
{
	struct ingest_job *job = &p->jobs[k % INGEST_AHEAD];
	bool parse = false, read;

	job_init(job, p->todo[k]);
	job_lend_buffer(job, &p->spare[k % INGEST_AHEAD]);
	err_capture_begin(&job->msgs);
	read = job_read(job);
	/* every file taken gets its turn, even after stop: the one after
	 * it waits for it */
	pthread_mutex_lock(&p->lock);
	while (p->keyed != k)
		pthread_cond_wait(&p->turn, &p->lock);
	if (read)
		parse = job_classify(job, p->rst, p->mc, p->o);
	p->keyed = k + 1;
	pthread_cond_broadcast(&p->turn);
	pthread_mutex_unlock(&p->lock);
	/* the runs encoded here too, in parallel, so that the writer
	 * only binds finished blobs */
	if (parse) {
		job_parse(job);
		if (!p->o->dry_run)
			store_encode_runs(&job->res);
	}
	err_capture_end();
	pthread_mutex_lock(&p->lock);
	p->done[k % INGEST_AHEAD] = k + 1;
	pthread_cond_signal(&p->ready);
	pthread_mutex_unlock(&p->lock);
}

static int64_t
pipe_size(const struct ingest_pipe *p, size_t k)
{
	return p->todo[k]->size > 0 ? p->todo[k]->size : 0;
}

/* May file next be read now (lock held)?  Within INGEST_AHEAD files
 * and INGEST_AHEAD_BYTES of the one being stored, or the only one. */
static bool
pipe_room(const struct ingest_pipe *p)
{
	if (p->next - p->consumed >= INGEST_AHEAD)
		return false;
	return p->next == p->consumed ||
	    p->held + pipe_size(p, p->next) <= INGEST_AHEAD_BYTES;
}

static void *
pipe_parse(void *arg)
{
	struct ingest_pipe *p = arg;

	for (;;) {
		size_t k;

		pthread_mutex_lock(&p->lock);
		while (!p->stop && p->next < p->ntodo && !pipe_room(p))
			pthread_cond_wait(&p->room, &p->lock);
		if (p->stop || p->next >= p->ntodo) {
			pthread_mutex_unlock(&p->lock);
			break;
		}
		k = p->next++;
		p->held += pipe_size(p, k);
		pthread_mutex_unlock(&p->lock);
		pipe_do(p, k);
	}
	return NULL;
}

/* Parser threads: --jobs, else one per online CPU up to
 * INGEST_MAX_PARSERS; never more than there are files. */
static size_t
pipe_parsers(const struct ingest_opts *o, size_t ntodo)
{
	long n = o->jobs;

	if (n <= 0) {
		n = sysconf(_SC_NPROCESSORS_ONLN);
		if (n < 1)
			n = 1;
		if (n > INGEST_MAX_PARSERS)
			n = INGEST_MAX_PARSERS;
	}
	if ((size_t)n > ntodo)
		n = ntodo ? (long)ntodo : 1;
	return (size_t)n;
}

/*
 * Ingest the files: parser threads prepare and parse them while this
 * thread stores them in walk order (in this thread alone if no thread
 * can be made).  Returns -1 when a database error stopped the walk.
 */
int
ingest_files(struct ingest_ctx *c, struct store *rst, struct meta_cache *mc,
    const struct walk_file **todo, size_t ntodo, size_t total,
    bool show_progress, double t0)
{
	const struct ingest_opts *o = c->o;
	struct ingest_stats *stats = c->stats;
	struct ingest_pipe *p = xcalloc(1, sizeof(*p));
	size_t nthreads = pipe_parsers(o, ntodo), started = 0, k;
	pthread_t *threads = xcalloc(nthreads, sizeof(*threads));
	double last = 0;
	int ret = 0;

	for (k = 0; k < INGEST_AHEAD; k++)
		strbuf_init(&p->spare[k], 0);
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->ready, NULL);
	pthread_cond_init(&p->room, NULL);
	pthread_cond_init(&p->turn, NULL);
	p->todo = todo;
	p->ntodo = ntodo;
	p->mc = mc;
	p->o = o;
	p->rst = rst;
	while (started < nthreads &&
	    pthread_create(&threads[started], NULL, pipe_parse, p) == 0)
		started++;
	for (k = 0; k < ntodo; k++) {
		struct ingest_job *job = &p->jobs[k % INGEST_AHEAD];
		int rc;

		if (started) {
			pthread_mutex_lock(&p->lock);
			while (p->done[k % INGEST_AHEAD] != k + 1)
				pthread_cond_wait(&p->ready, &p->lock);
			pthread_mutex_unlock(&p->lock);
		} else {
			job_init(job, todo[k]);
			job_lend_buffer(job, &p->spare[k % INGEST_AHEAD]);
			err_capture_begin(&job->msgs);
			if (job_prepare(job, o->dry_run ? NULL : c->st, mc, o))
				job_parse(job);
			err_capture_end();
		}
		stats->files++;
		rc = o->dry_run ? job_dry(c, job) : job_finish(c, job);
		/* before consumed moves on: then the slot's next job takes
		 * the buffer */
		job_keep_buffer(job, &p->spare[k % INGEST_AHEAD]);
		job_release(job);
		pthread_mutex_lock(&p->lock);
		p->consumed = k + 1;
		if (started)
			p->held -= pipe_size(p, k);
		pthread_cond_broadcast(&p->room);
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
	if (started) {
		pthread_mutex_lock(&p->lock);
		p->stop = true;
		pthread_cond_broadcast(&p->room);
		pthread_mutex_unlock(&p->lock);
		for (k = 0; k < started; k++)
			pthread_join(threads[k], NULL);
		/* every file taken was parsed before its thread ended */
		for (; p->consumed < p->next; p->consumed++)
			job_release(&p->jobs[p->consumed % INGEST_AHEAD]);
	}
	for (k = 0; k < INGEST_AHEAD; k++)
		strbuf_release(&p->spare[k]);
	pthread_cond_destroy(&p->turn);
	pthread_cond_destroy(&p->room);
	pthread_cond_destroy(&p->ready);
	pthread_mutex_destroy(&p->lock);
	free(threads);
	free(p);
	return ret;
}
