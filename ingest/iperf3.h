/*
 * iperf3.h - what the three parts of the iperf3 parser share: the
 * per-file context and the test's settings.  iperf3.c walks the text
 * (finding the -J document or the --json-stream lines, reading a large
 * or broken document piece by piece); iperf3_data.c reads what the
 * parsed JSON says (intervals, end-of-test sums, test_start);
 * iperf3_runs.c turns that into the runs, their partial reasons or the
 * file's rejection.  Private to those three files.
 */
#ifndef PATHSTAT_INGEST_IPERF3_H
#define PATHSTAT_INGEST_IPERF3_H

#include "common/compat.h"

#include <cJSON.h>

#include "common/strbuf.h"
#include "ingest/internal.h"

#define IPERF3_MAX_INTERVALS	10000000	/* intervals read per file */

enum iperf3_dir_id {
	DIR_UP = 0,	/* client to server: "sum", the first "sum" */
	DIR_DOWN = 1,	/* server to client: sum_bidir_reverse, 2nd "sum" */
};

struct iperf3_sample {
	int64_t	t_us;	/* interval end in µs, or T_US_UNKNOWN */
	double	value;	/* in the metric's unit */
	int	metric;	/* enum metric_id */
};

/* What the intervals gave for one direction. */
struct iperf3_dir {
	struct iperf3_sample	*samples;	/* owned, in interval order */
	size_t			nsamples, alloc;
	size_t	ntaken;		/* intervals with this direction's sum key */
	size_t	nthroughput;	/* throughput samples taken */
	size_t	nomitted;	/* omitted intervals skipped */
	size_t	nbad_rate;	/* intervals without a usable bits_per_second */
	size_t	nno_sum;	/* intervals whose sum is absent or no object */
	size_t	nrepeated;	/* intervals dropped as repeats */
	bool	has_last;	/* last_* hold the previous kept interval */
	double	last_start;	/* previous kept sum: start (s) */
	double	last_end;	/* its end (s) */
	double	last_bytes;	/* its bytes */
};

/* The summary iperf3 rate_side of a UDP run: whose rate its throughput
 * samples are (the sender's only where the file has no receiver's). */
#define UDP_SIDE_SENDER		0	/* the client's sending intervals */
#define UDP_SIDE_RX_INTERVALS	1	/* the receiver's intervals */
#define UDP_SIDE_RX_END		2	/* one sample: the receiver's end sum */

/* One file being parsed; every tree here is freed by ctx_release(). */
struct iperf3_ctx {
	struct parse_result	*res;
	cJSON		*doc;		/* owned: the parsed -J document */
	cJSON		*start_tree;	/* owned: the tree holding start */
	cJSON		*end_tree;	/* owned: the tree holding end */
	const cJSON	*start;		/* borrowed from one of the trees */
	const cJSON	*end;		/* borrowed from one of the trees */
	char		*error;		/* owned: the first "error" text */
	struct iperf3_dir dir[2];	/* indexed by enum iperf3_dir_id */
	size_t	nintervals;		/* interval objects read */
	bool	intervals_capped;	/* more than IPERF3_MAX_INTERVALS */
	bool	intervals_not_array;	/* "intervals" was some other type */
	bool	bidir_seen;		/* a server->client interval sum */
	bool	sender_false;		/* a stream with sender:false */
	bool	salvaged;		/* the document did not parse */
	struct strbuf	salvage_note;	/* why, and what was kept */
	struct strbuf	file_notes;	/* "; "-joined: what else was left */
};

/* The test's settings, read from start.test_start. */
struct iperf3_setup {
	const cJSON	*test_start;	/* borrowed, or NULL */
	char		proto[8];	/* "tcp", "udp", "sctp" or "" */
	char		streams[24];	/* num_streams as text, or "" */
	bool		reverse;	/* -R */
	bool		bidir;		/* --bidir, from any evidence */
	bool		server;		/* a server-side document */
	bool		udp;		/* read end sums the UDP way */
	int64_t		started_at;	/* timesecs, or STARTED_UNKNOWN */
	double		target_bps;	/* -b in bit/s (0 = unlimited), or
					 * -1 when the file does not say */
	double		blksize;	/* -l in bytes, or -1 */
	double		omit;		/* -O in seconds, 0 if unsaid */
};

/* ---- iperf3_data.c: what the parsed JSON says -------------------------- */

/* One element of "intervals" (or an interval event's data) into c. */
void iperf3_feed_interval(struct iperf3_ctx *c, const cJSON *iv);
/* Keep the first "error" text (v a string, or something else). */
void iperf3_set_error(struct iperf3_ctx *c, const cJSON *v);
/* One --json-stream event, owned by the call (c keeps start and end
 * trees, the rest is freed); true for the end event. */
bool iperf3_take_event(struct iperf3_ctx *c, cJSON *ev, size_t *nnot_event);
/* Has end a sum block for direction id? */
bool iperf3_end_has_sums(const cJSON *end, enum iperf3_dir_id id);
/* Add iperf3's end-of-test sums for direction id to run as summaries. */
void iperf3_add_end_summaries(const struct iperf3_ctx *c,
    struct parsed_run *run, enum iperf3_dir_id id, bool udp,
    bool zero_unknown);
/* The receiver's intervals of a UDP test the client sent, from
 * server_output_json, into d; the throughput samples taken. */
size_t iperf3_receiver_intervals(const struct iperf3_ctx *c,
    struct iperf3_dir *d);
/* What arrived in a UDP test (bit/s) by end's sums, or NaN; *t_us the
 * block's end or T_US_UNKNOWN. */
double iperf3_received_rate(const struct iperf3_ctx *c,
    enum iperf3_dir_id id, bool zero_unknown, bool omitted, int64_t *t_us);
/* The test's settings into s (and the version into c->res). */
void iperf3_read_setup(struct iperf3_ctx *c, struct iperf3_setup *s);

/* ---- iperf3_runs.c: runs, partial reasons and rejections -------------- */

/* Note something about the file as a whole (extra documents, junk
 * lines); iperf3_finish() adds it after the runs' own reasons. */
void iperf3_file_note(struct iperf3_ctx *c, const char *fmt, ...)
    PATHSTAT_PRINTF(2, 3);
/*
 * Decide the outcome from what c holds: the runs (one per direction)
 * with their partial reasons, or the rejection; then the file-level
 * notes.  Returns 0, or -1 through parse_reject().
 */
int iperf3_finish(struct iperf3_ctx *c);

#endif
