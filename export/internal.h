/*
 * internal.h - what the parts of export/ share: the selected runs with
 * their stable ids, key columns and partitions (model.c), the datasets'
 * columns and writers (datasets.c), manifest.json (manifest.c), the
 * output folder (folder.c) and its several writers (writers.c), and the
 * engines' DDL (ddl.c).  Not for use outside export/.
 */
#ifndef PATHSTAT_EXPORT_INTERNAL_H
#define PATHSTAT_EXPORT_INTERNAL_H

#include "common/compat.h"

#include <sqlite3.h>

#include "common/strbuf.h"
#include "common/where.h"
#include "export/parquet.h"

/* Bumped whenever the files' columns or their meaning change; in every
 * file's key-value metadata, manifest.json and the DDL comments. */
#define EXPORT_SCHEMA_VERSION	1
/* Bumped whenever the writer's bytes change for the same data, so an
 * incremental export rewrites what an older writer made. */
#define EXPORT_WRITER_VERSION	1

/* --writer NAME: at most this many bytes of [A-Za-z0-9_.-], not
 * starting with '.' or '-'; a part file's name, hidden temporary form
 * included, fits EXPORT_PART_NAME_MAX. */
#define EXPORT_WRITER_MAX	64
#define EXPORT_PART_NAME_MAX	(EXPORT_WRITER_MAX + 48)

/* A part file grows to about this many bytes before the next begins. */
#define EXPORT_FILE_BYTES	(256 * 1024 * 1024)

enum export_dataset {
	DS_SAMPLES,
	DS_RUNS,
	DS_SUMMARIES,
	DS_FINDINGS,
	DS_COUNT
};

/*
 * A key column: one dimension `analyze --by` can group by (a condition
 * key, a tag, day, hour, instance) with its value per run computed by
 * dim_sql(), so export and analyze agree on what a key means.
 */
struct export_key {
	char	*key;		/* the dimension, as --by spells it; owned */
	char	*column;	/* its column name: lower case [a-z0-9_],
				 * unique among all columns; owned */
};

/* One run, as every dataset describes it. */
struct export_run {
	int64_t	db_id;		/* runs.id: only for the fingerprint */
	char	run_id[17];	/* stable id, 16 hex digits */
	char	*path, *condition, *tool, *metric;	/* owned */
	int64_t	trial;
	int64_t	started_at;	/* Unix seconds */
	bool	has_started;
	char	*status, *reason;	/* reason may be NULL; owned */
	int64_t	failures;
	int64_t	attempts;	/* -1 = unknown */
	int64_t	ok_samples;	/* successful samples of the run's metric */
	char	*tags;		/* canonical k=v;k=v; owned */
	/* the source file, and the summary file; each may be NULL */
	char	*file, *file_hash, *file_kind, *tool_version;
	char	*summary_file, *summary_file_hash;
	char	*fingerprint;	/* what else decides whether the run
				 * changed (ingest times, sample counts);
				 * owned */
	char	**keyval;	/* value per struct export_model key, NULL
				 * when the run lacks it; owned */
	size_t	part;		/* its partition */
	bool	selected;	/* matches --where */
};

/* A Hive-style partition: the runs [first, first + n) of the model. */
struct export_part {
	char	*dir;		/* "day=2026-08-28/instance_type=c6i.large",
				 * "" when unpartitioned; owned */
	char	**values;	/* per partition key (NULL = none); owned */
	size_t	first, n;
	bool	opaque;		/* another writer's folder, read back from
				 * its name: a value with '~' may be cut */
};

struct export_model {
	struct export_key *keys;	/* sorted by key */
	size_t		nkeys;
	char		**pkeys;	/* partition keys, in order; owned */
	size_t		npkeys;
	size_t		*pkey_index;	/* each partition key's index in keys[];
					 * (size_t)-1 for path, trial, tool */
	struct export_run **runs;	/* the selected ones of all[], by
					 * partition, then metric, path,
					 * condition, tool, trial, tags,
					 * run_id; borrowed */
	size_t		nruns;
	struct export_run *all;		/* every run, by db_id (for the
					 * findings' run lists) */
	size_t		nall;
	struct export_part *parts;	/* sorted by dir */
	size_t		nparts;
	struct export_key *extra;	/* key columns only other writers'
					 * runs have (--ddl over a writers'
					 * folder): the DDL declares them
					 * after the others; owned */
	size_t		nextra;
};

/*
 * Load the model: key columns from every run in the database (so column
 * names do not depend on the selection) and the runs matching w.  The
 * provenance tags (keycat_is_provenance()) get key columns only when
 * provenance is true (--provenance); the runs' tags column has them
 * always.  Returns 0; -1 after an error; -2 for a usage error (an
 * unknown --where key, named with the keys that exist).  Then
 * partition it, and release it with export_model_release().
 */
int export_model_load(sqlite3 *db, const struct where *w, bool provenance,
    struct export_model *m);
/* Sort the selected runs into partitions by pkeys (copied; none when
 * npkeys is 0).  Every key must be one export_check_key() accepts. */
void export_model_partition(struct export_model *m, char **pkeys,
    size_t npkeys);
void export_model_release(struct export_model *m);
/* For the DDL over several writers' union: add partition folder dir
 * (another writer's, as its manifest names it) with no runs, unless m
 * has it.  0, or -1 when dir does not have m's partition keys. */
int export_model_add_dir(struct export_model *m, const char *dir);
/* The same for another writer's key column (its manifest's "key" and
 * "name"): added to m->extra unless m has the key.  0, or -1 when the
 * key's column has another name here, or the name is another column's
 * (the writers' databases named their columns differently). */
int export_model_add_key(struct export_model *m, const char *key,
    const char *column);
/* Rebuild m->runs from the runs' selected flags (after export.c leaves
 * out the runs another writer exported); before partitioning. */
void export_model_reselect(struct export_model *m);
/* Whether any selected run has a value for dimension key. */
bool export_model_has_key(const struct export_model *m, const char *key);
/* The known --where/--by keys, ", "-joined, into sb. */
void export_model_known_keys(sqlite3 *db, struct strbuf *sb);
/* Check that key is a dimension analyze knows here: 0, or -1 with the
 * reason (naming what exists) in why. */
int export_check_key(sqlite3 *db, const char *key, struct strbuf *why);
/* Only the key columns of every run in the database (m zeroed
 * first), without the provenance tags': what `analyze --sql` needs.  0, or -1 after an error. */
int export_model_load_keys(sqlite3 *db, struct export_model *m);
/* The column of dimension key, or NULL when no run has it. */
const char *export_model_column(const struct export_model *m,
    const char *key);
/* The stable run_id of the run with runs.id db_id; NULL if unknown. */
const char *export_model_run_id(const struct export_model *m, int64_t db_id);
/* Whether the run with runs.id db_id is exported (matches --where and
 * no other writer has it). */
bool export_model_run_selected(const struct export_model *m, int64_t db_id);

/* Hive's escaping of a partition value (parquet folders): bytes that
 * paths, URLs or Hive mind become %XX.  Appends to sb. */
/* Hive's folder name for a NULL partition value. */
#define EXPORT_HIVE_NULL	"__HIVE_DEFAULT_PARTITION__"
/* Longest escaped value a partition folder name holds whole (longer
 * ones are cut and hashed: export_escape_value). */
#define EXPORT_VALUE_MAX	128
void export_escape_value(const char *v, struct strbuf *sb);
/* Whether the folder name does not hold v as it is (escaped, cut and
 * hashed, or the Hive null name). */
bool export_value_needs_escape(const char *v);

/* A column of a dataset file. */
struct export_col {
	const char	*name;		/* borrowed: static or a key's */
	enum pq_type	type;
	bool		optional;
	bool		unique;		/* strings that rarely repeat */
	int		field;		/* which fixed column (datasets.c) */
	long		key;		/* index into model keys, -1 = fixed */
};

struct export_cols {
	struct export_col *items;
	size_t		n, alloc;
};

const char *export_dataset_name(enum export_dataset ds);
/* The type's name in manifest.json: string, int64, double, timestamp_us. */
const char *export_type_name(enum pq_type t);

/*
 * The columns of dataset ds for the runs of partition part (or, with
 * part NULL, for every selected run: the union the DDL declares): the
 * fixed columns, then the key columns some run there has a value for,
 * less the partition keys.  cols must be initialised (zeroed).
 */
void export_dataset_cols(const struct export_model *m, enum export_dataset ds,
    const struct export_part *part, struct export_cols *cols);
void export_cols_release(struct export_cols *cols);

/* The options every file is written with. */
struct export_opts {
	enum pq_codec	codec;
	bool		basic;		/* --basic-encodings */
	size_t		file_bytes;	/* EXPORT_FILE_BYTES unless testing */
	const char	*writer;	/* --writer NAME, or NULL: one
					 * machine's layout (manifest.json,
					 * part-NNNNN.parquet) */
};

/* One file written (or kept): its manifest entry. */
struct export_file {
	char		*path;		/* relative to DIR; owned */
	uint64_t	rows, bytes;
	char		hash[33];	/* XXH3-128 of the bytes, hex */
};

struct export_files {
	struct export_file *items;
	size_t		n, alloc;
};

void export_files_release(struct export_files *f);

/*
 * Write dataset ds for partition part (NULL for findings, whose rows
 * are given in findings) into DIR/<ds>/<part dir>/part-NNNNN.parquet
 * (part-WRITER-NNNNN.parquet with o->writer)
 * (DIR open as dirfd, named dir in messages; folders and files reached
 * by the rules of common/outdir.h), each file first under a hidden
 * temporary name and renamed when complete.  Appends the files to out.  Returns 0, or -1 after an error
 * (temporary files are removed).
 */
struct check_findings;
int export_write_part(sqlite3 *db, const struct export_model *m,
    enum export_dataset ds, const struct export_part *part,
    const struct check_findings *findings, int dirfd, const char *dir,
    const struct export_opts *o, struct export_files *out);

/*
 * The fingerprint of what dataset ds's partition would hold: a hash of
 * the schema, options and every run's stored facts (32 hex digits).
 * For findings (part NULL), extra holds the other partitions'
 * fingerprints and the filters: the same runs give the same findings.
 */
void export_fingerprint(const struct export_model *m, enum export_dataset ds,
    const struct export_part *part, const struct export_opts *o,
    const char *extra, char out[33]);

/* ---------------------------------------------------------------------
 * manifest.json (manifest.c)
 */

/* One dataset partition of an export: its fingerprint and files. */
struct manifest_entry {
	enum export_dataset ds;
	char		*dir;		/* partition folder, "" = none; owned */
	char		fingerprint[33];
	uint64_t	runs;		/* runs it holds */
	struct export_files files;
};

struct manifest {
	struct manifest_entry *items;
	size_t		n, alloc;
	char		**pkeys;	/* partition_by; owned */
	size_t		npkeys;
	char		**where;	/* the --where filters; owned */
	size_t		nwhere;
	char		*writer_id;	/* a writer's manifest: its name */
	char		**run_ids;	/* a writer's manifest: the runs it
					 * exported, all partitions; owned */
	size_t		nrun_ids;
	char		**key_keys;	/* the key columns of its datasets:
					 * each key, */
	char		**key_cols;	/* and its column name; owned */
	size_t		nkey_cols;
};

void manifest_release(struct manifest *mf);
/*
 * Read DIR/manifest.json into mf (zeroed first), only when it is a
 * regular file (common/outdir.h).  Returns 1 when there is none, 0 when
 * read, -1 after an error (not a pathstat export manifest, or a link,
 * FIFO or other planted entry).
 */
int manifest_read(const char *dir, struct manifest *mf);
/* The same for the file name inside the folder dirfd (shown in
 * messages): a writer's manifests/NAME.json. */
int manifest_read_at(int dirfd, const char *name, const char *shown,
    struct manifest *mf);
/* The entry of (ds, dir), or NULL. */
const struct manifest_entry *manifest_find(const struct manifest *mf,
    enum export_dataset ds, const char *dir);
/* Move e's contents into a new entry of mf (e is zeroed). */
void manifest_add(struct manifest *mf, struct manifest_entry *e);
/*
 * The manifest as JSON text, deterministic (no times): the options,
 * each dataset's columns (the union the DDL declares) and partitions
 * with their files and content hashes.
 */
void manifest_json(const struct manifest *mf, const struct export_model *m,
    const struct export_opts *o, struct strbuf *out);

/* ---------------------------------------------------------------------
 * DDL (ddl.c)
 */

enum export_engine {
	ENGINE_ATHENA,
	ENGINE_TRINO,
	ENGINE_SPARK,
	ENGINE_DUCKDB
};

int export_engine_parse(const char *s, enum export_engine *out);

/*
 * How an engine spells what differs (dialect.c, the one table): the
 * DDL's types and quotes, and the pieces of `analyze --sql`'s queries.
 * Templates take $1, $2, $3 (dialect_expand()).
 */
struct dialect {
	const char	*name;		/* for header comments */
	char		ddl_quote;	/* identifier quote in DDL */
	char		quote;		/* identifier quote in queries */
	const char	*t_string, *t_int64, *t_double, *t_timestamp;
	const char	*schema;	/* "pathstat." or "" (DuckDB views) */
	bool		backslash;	/* string literals: \' and \\ (Spark),
					 * else '' */
	const char	*t_text;	/* CAST(x AS t_text) */
	const char	*t_index;	/* an array index's type */
	const char	*sorted;	/* $1's values of a group sorted as
					 * an array, the non-NULL ones first */
	const char	*element;	/* element $2 (1-based) of array $1 */
	const char	*type7;		/* exact type-7 aggregate of $1 at
					 * fraction $2; NULL: interpolate in
					 * sorted */
	const char	*type7_list;	/* type7 of $1 at each of the
					 * fractions $2 ("a, b, ..."), an
					 * array in their order; NULL: none
					 * (one type7 per fraction) */
	const char	*contains;	/* does $1 hold the text $2 */
	const char	*format;	/* $1 as text by printf format $2 */
	const char	*join;		/* $1's non-NULL texts of a group in
					 * the order $2, $3 between */
	const char	*order3;	/* $2 of join for three keys $1..$3,
					 * NULLs of $2 first (as SQLite) */
	const char	*natural;	/* a key of $1 that sorts digit runs
					 * by value (pathsort) */
};

const struct dialect *export_dialect(enum export_engine engine);
/* Append tmpl with $1..$3 replaced by a1..a3 (NULL: nothing). */
void dialect_expand(struct strbuf *sb, const char *tmpl, const char *a1,
    const char *a2, const char *a3);
/* Append s as a string literal / a quoted identifier of d. */
void dialect_string(struct strbuf *sb, const struct dialect *d,
    const char *s);
void dialect_ident(struct strbuf *sb, const struct dialect *d,
    const char *s);

/*
 * Print the CREATE statements for engine over the datasets at location
 * (a URI such as s3://bucket/prefix, or an absolute local folder for
 * DuckDB), with m's columns and partitions.  Returns 0, or -1 after an
 * error (a location the engine cannot use).
 */
int export_ddl(FILE *fp, enum export_engine engine, const char *location,
    bool local, const struct export_model *m);

/* ---------------------------------------------------------------------
 * The output folder (folder.c) and its writers (writers.c)
 */

/* strcmp on char * elements, for qsort and bsearch */
int export_cmp_strp(const void *a, const void *b);

/* Files to keep (relative to DIR), sorted, for export_remove_stale(). */
struct export_keep {
	char	**path;
	size_t	n;
};

/*
 * Under DIR/<rel> (DIR open as dirfd, named dir): remove our temporary
 * and stale part files (writer's, with --writer) that keep does not
 * list, then folders left empty; counts removed part files in
 * *removed.  0, or -1 after an error.
 */
int export_remove_stale(int dirfd, const char *dir, const char *rel,
    const char *writer, const struct export_keep *keep, size_t *removed);
/* Whether e's files are all there with the sizes it records. */
bool export_files_intact(int dirfd, const struct manifest_entry *e);
/* Write text to the manifest name in the folder dirfd (named dir)
 * unless it holds exactly that already; sets *wrote.  0 or -1. */
int export_write_manifest(int dirfd, const char *dir, const char *name,
    const struct strbuf *text, bool *wrote);

/* The other writers' manifests in DIR/manifests, by name. */
struct export_writers {
	struct manifest	*mf;
	char		**name;		/* owned */
	size_t		n;
};

/* Whether name (len bytes) is a writer name: 1..EXPORT_WRITER_MAX of
 * [A-Za-z0-9_.-], not starting with '.' or '-'. */
bool export_writer_name_ok(const char *name, size_t len);
void export_writers_release(struct export_writers *w);
/* Every NAME.json in the folder mfd (DIR/manifests, shown as shown)
 * but self's into w, sorted by name.  0 or -1. */
int export_read_writers(int mfd, const char *shown, const char *self,
    struct export_writers *w);
/* Every writer's manifest in DIR/manifests (for --ddl).  0 or -1. */
int export_read_all_writers(const char *dir, struct export_writers *w);
/* Leave out of m the runs another writer exported first; returns how
 * many (writers.c says who keeps a run both exported). */
size_t export_leave_out_others(struct export_model *m,
    const struct export_writers *w, const struct manifest *old,
    const char *self);
/* The other writers' partition keys into *keys (owned); 0, or -2 when
 * --partition-by (partition_by, NULL: not given) or two writers
 * disagree. */
int export_writers_pkeys(const char *partition_by,
    const struct export_writers *w, char ***keys, size_t *n);

/*
 * Open DIR (out; created) for writing, locked against a second export,
 * as *dirfd; with a writer also DIR/manifests as *mfd (else -1).  Reads
 * this export's earlier manifest into old (*had_old) and the other
 * writers' into others.  0, -1, or -2 for a DIR that is neither empty
 * nor ours.
 */
int export_open_out(const char *out, const char *writer, int *dirfd,
    int *mfd, struct manifest *old, bool *had_old,
    struct export_writers *others);

#endif
