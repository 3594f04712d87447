/*
 * keycat.h - the catalogue of keys and values the runs in a database
 * have, and the check every command makes with it before it selects
 * runs: a --where key or value, a --by key or a --paths path that no
 * run has is a usage error naming what exists, with "did you mean" for
 * a near miss (common/suggest.h).  KEY= (runs without the key) is
 * accepted for any key, with a warning for a near miss of one that
 * exists.  A filter that names things that
 * exist but matches nothing together is not caught here: that is a
 * query matching nothing, which each command reports itself.
 */
#ifndef PATHSTAT_COMMON_KEYCAT_H
#define PATHSTAT_COMMON_KEYCAT_H

#include "common/compat.h"

#include <stdbool.h>

#include <sqlite3.h>

#include "common/where.h"

struct strbuf;

struct keycat_query {
	const struct where *where;	/* NULL: none */
	char *const	*by;		/* --by keys */
	size_t		nby;
	char *const	*paths;		/* --paths */
	size_t		npaths;
};

/*
 * Check q against the runs of db.  Returns 0 when everything named
 * exists, 1 when something does not (why gets "bad --where: ..." and
 * the like, without a prefix or newline), -1 after printing a database
 * error.
 */
int keycat_check(sqlite3 *db, const struct keycat_query *q,
    struct strbuf *why);

/* Is key one of the keys runs in db can be selected by?  1 yes, 0 no
 * (why gets "no run has the key 'K'..." with the keys and a
 * suggestion), -1 after printing a database error. */
int keycat_has_key(sqlite3 *db, const char *key, struct strbuf *why);

/* Does some run have key=value?  1 yes, 0 no (why gets "OPTno run has
 * key=value" -- "the path 'V'" for the key path -- with the values and a
 * suggestion), -1 after printing a database error.  opt prefixes the
 * message ("bad --baseline: ", or ""). */
int keycat_has_value(sqlite3 *db, const char *opt, const char *key,
    const char *value, struct strbuf *why);

/* Is key a condition key of some run (c, ka, P, proto ...)?  1, 0, or
 * -1 after printing a database error. */
int keycat_is_condition_key(sqlite3 *db, const char *key);

/*
 * Is key a provenance tag: how a run was made, not what it measured
 * (the command lines, kernel, host, tool versions and session that
 * pathstat-collect records)?  Views that tell runs apart (keys, runs'
 * compact columns, pooling captions) name such keys last, or only on
 * request: every run differs in them, and none of them is a reason two
 * runs' numbers differ that a reader would split by first.
 */
bool keycat_is_provenance(const char *key);

/* The provenance keys, comma-separated, for help texts and notes (the
 * macro for texts built at compile time). */
#define KEYCAT_PROVENANCE_LIST "command, collector, collector_command, " \
	"hostname, kernel, session, pathprobe_version, iperf3_version, " \
	"oha_version"
extern const char keycat_provenance_list[];

/* Does some run match every filter of w together?  1, 0, or -1 after
 * printing a database error. */
int keycat_matches(sqlite3 *db, const struct where *w);

/*
 * While the memo is on for db (keycat_memo_begin until keycat_memo_end),
 * the keys and each key's values are read from db once and answered
 * from memory after: for a caller that validates many queries against
 * a database nothing writes meanwhile (a report's sections).  Another
 * database is read as without the memo.  begin ends a previous memo;
 * end frees it and may be called when none is on.
 */
void keycat_memo_begin(sqlite3 *db);
void keycat_memo_end(void);

/* How many catalogue queries (keys, values of a key) this process ran:
 * what PATHSTAT_DEBUG_KEYCAT=1 makes a report print. */
unsigned long keycat_queries(void);

#endif
