/*
 * autospec_runs.h - the runs a generated spec is made from
 * (autospec_runs.c): each metric's runs with their campaign keys and
 * tags, selections of them, their distinct values and cells, and the
 * campaign (day, instance type) the tables hold.  Private to the
 * report/autospec*.c files.
 */
#ifndef PATHSTAT_REPORT_AUTOSPEC_RUNS_H
#define PATHSTAT_REPORT_AUTOSPEC_RUNS_H

#include "common/compat.h"

#include <cJSON.h>
#include <sqlite3.h>

#include "common/metric.h"
#include "common/strbuf.h"

/* The campaign keys: a group per study; day and instance type are held
 * at one value in the tables and compared in sections of their own. */
enum { F_PATH, F_COND, F_STUDY, F_DAY, F_ITYPE, F_TAG0 };
/* Their tag keys: "study", "day", "instance_type" (F_STUDY + i). */
extern char *const autospec_camp_keys[3];

/* One run of a metric. */
struct arun {
	char	*path;		/* path ID (owned) */
	char	*cond;		/* canonical condition, "" none (owned) */
	char	*camp[3];	/* study, day, instance type; NULL when
				 * unset (owned) */
	char	**tags;		/* one per ctx.tagkeys, NULL unset (owned) */
	bool	samples;	/* holds successful samples of the metric
				 * (not only a tool's summary) */
};

/* The runs of one metric, in the iterator's natural order. */
struct mruns {
	const struct metric *m;
	struct arun	*r;
	size_t		n, alloc;
};

/* Runs picked from one mruns (borrowed pointers). */
struct sel {
	const struct arun **r;
	size_t		n, alloc;
};

/* Distinct values, in order of first appearance; NULL is a value (the
 * key unset).  The strings are borrowed from the runs. */
struct slist {
	const char	**v;
	size_t		*count;		/* runs with each value */
	size_t		n, alloc, alloc_count;
};

struct ctx {
	char		**tagkeys;	/* every tag key (owned) */
	size_t		ntagkeys;
	/* every run's tags (autospec_read_run_tags), row i: run tagrun[i]
	 * (ascending) has tag key tagkeys[tagkey[i]] = tagval[i]; all
	 * owned.  read_all unset: each metric's selection reads them. */
	int64_t		*tagrun;
	size_t		*tagkey;
	char		**tagval;
	size_t		ntagrows;
	bool		read_all;
	unsigned long	tags_one_by_one, tags_from_all;	/* runs */
	/* the (run, metric) pairs with a sample that has a value
	 * (autospec_read_samples), ascending; owned.  samples_read unset:
	 * each run's are asked for */
	int64_t		*srun;
	int		*smetric;
	size_t		nspairs;
	bool		samples_read;
	unsigned long	samples_one_by_one, samples_from_all;	/* runs */
	/* the campaign keys (autospec_read_camp_keys): each run's tags
	 * of them (row i: run crun[i], ascending, key autospec_camp_keys
	 * [ckey[i]] = cval[i]) and each condition's keys of them (row i:
	 * canonical condition ccond[i], ascending, key cckey[i] = ccval[i]);
	 * all owned.  camp_read unset: the run selection reads them. */
	int64_t		*crun;
	size_t		*ckey, ncrows;
	char		**cval;
	char		**ccond, **ccval;
	size_t		*cckey, nccrows;
	sqlite3_stmt	*day_of;	/* a start time's day (owned) */
	bool		camp_read;
	unsigned long	camp_from_sel, camp_from_all;	/* runs */
	struct mruns	per[METRIC_ID_LIMIT];	/* metrics with runs */
	size_t		nper;
	const char	*baseline;	/* path, or NULL */
};

/* The cells (path, condition) of some runs, in order, with their run
 * counts. */
struct cells {
	const char	**path, **cond;
	size_t		*runs;
	size_t		n, alloc_p, alloc_c, alloc_r;
};

/* Equal strings, NULL equal only to NULL. */
bool autospec_str_eq(const char *a, const char *b);
/* Field f (F_PATH ... F_TAG0 + i) of run r; NULL when unset. */
const char *autospec_field(const struct ctx *x, const struct arun *r,
    size_t f);
/* The index of s in l, or l->n. */
size_t autospec_slist_find(const struct slist *l, const char *s);
/* Count s in l (added at the end when new). */
void autospec_slist_add(struct slist *l, const char *s);
void autospec_slist_release(struct slist *l);
/* The distinct values of field f among the runs of s. */
void autospec_distinct(const struct ctx *x, const struct sel *s, size_t f,
    struct slist *out);
void autospec_sel_add(struct sel *s, const struct arun *r);
/* The runs of s whose field f is v (out->r: the caller frees it). */
void autospec_sel_where(const struct ctx *x, const struct sel *s, size_t f,
    const char *v, struct sel *out);
/* qsort order of strings (const char *), NULL last. */
int autospec_cmp_str(const void *a, const void *b);
/* Every tag key of the database into x.  Returns 0, or -1 after
 * printing. */
int autospec_read_tag_keys(sqlite3 *db, struct ctx *x);
/* Every run's tags of x's keys, in one query, into x (read_all set);
 * autospec_read_metric() then looks each run's up.  Returns 0, or -1
 * after printing. */
int autospec_read_run_tags(sqlite3 *db, struct ctx *x);
/* Which runs hold a sample with a value of which metric, in one read
 * of the series, into x (samples_read set).  Returns 0, or -1 after
 * printing. */
int autospec_read_samples(sqlite3 *db, struct ctx *x);
/* Every run's and condition's campaign keys, in one read each, into x
 * (camp_read set).  Returns 0, or -1 after printing. */
int autospec_read_camp_keys(sqlite3 *db, struct ctx *x);
/* Every run of metric m, into mr (left empty when there is none).
 * Returns 0, or -1 after printing. */
int autospec_read_metric(sqlite3 *db, struct ctx *x, const struct metric *m,
    struct mruns *mr);
/* The reads above that each metric's autospec_read_metric() then
 * looks up in, each unless its PATHSTAT_DEBUG_NO_SPEC_*_ONCE is set.
 * Returns 0, or -1 after printing. */
int autospec_read_once(sqlite3 *db, struct ctx *x);
/* The counts PATHSTAT_DEBUG_SPEC_TAGS, _KEYS and _SAMPLES ask for. */
void autospec_debug_counts(const struct ctx *x);
void autospec_ctx_release(struct ctx *x);
/*
 * Tag keys that set runs apart from the untagged runs of their cell
 * (same metric, path, condition, day and instance type; of study when
 * all), such as via=nlb beside direct runs: each gets "" (unset) in
 * where, so the tables hold the untagged runs and pool nothing else
 * in, and a sentence in text says which runs are left out and how to
 * show them; side[k] (ntagkeys of them) is set for each such key.
 * Provenance keys are never such a key.  Returns how many.
 */
size_t autospec_side_tags(const struct ctx *x, const char *study, bool all,
    cJSON *where, struct strbuf *text, bool *side);
/* Does run r have a tag that side (one per ctx.tagkeys) marks? */
bool autospec_on_side(const struct ctx *x, const struct arun *r,
    const bool *side);
/* The (day, instance type) pair with the most runs of s.  Ties go to
 * the earliest day, then instance type. */
void autospec_main_campaign(const struct ctx *x, const struct sel *s,
    const char **day, const char **itype);
/*
 * The one campaign (day, instance type) every table of a study holds,
 * chosen once for all its metrics: the pair on which the most of its
 * metrics were measured, then the one with the most runs of them, then
 * the earliest day and instance type.  s[i] are the study's runs of
 * metric i (ns metrics); the caller leaves out the metrics read over a
 * whole period (AUTOSPEC_MONTH_DAYS) and the path MTU.
 */
void autospec_study_campaign(const struct ctx *x, const struct sel *s,
    size_t ns, const char **day, const char **itype);
/* Does s hold a run of the campaign (day, itype)? */
bool autospec_sel_has_campaign(const struct ctx *x, const struct sel *s,
    const char *day, const char *itype);
/* The index of cell (path, cond) in c, or c->n. */
size_t autospec_cells_find(const struct cells *c, const char *path,
    const char *cond);
/* The cells of s, in order, with their run counts (release c). */
void autospec_cells_of(const struct sel *s, struct cells *c);
void autospec_cells_release(struct cells *c);
/* The tag keys (other than the campaign's) that take more than one
 * value inside one cell of s: what its tables pool across. */
void autospec_pooled_keys(const struct ctx *x, const struct sel *s,
    const struct cells *c, struct strbuf *sb);

#endif
