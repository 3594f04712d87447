/*
 * where.h - `--where KEY=VALUE` filters shared by runs, analyze, check and
 * report.  KEY is path, trial or tool; or a condition key (c, ka, P,
 * proto...) or a tag (instance_type, region...), either of which
 * matches; day and hour fall back to the run's start time (UTC) when no
 * such tag exists.  VALUE may list alternatives: path=A,B.  An empty
 * value (target= or target=,nlb) stands for runs that lack the key.
 * VALUE may be a range FROM..TO, inclusive, either end open
 * (day=2026-11-01..2026-11-07, hour=9..17, week=2026-W45..): numeric
 * when both ends are numbers, else as text.  week (ISO 8601,
 * 2026-W45) and month (2026-11) are a tag of that name, else derived
 * from the run's day.  Several filters on one key are alternatives;
 * different keys must all match.
 */
#ifndef PATHSTAT_COMMON_WHERE_H
#define PATHSTAT_COMMON_WHERE_H

#include "common/compat.h"

#include "common/kv.h"

struct strbuf;

struct where {
	struct kv	*items;		/* key, value (one alternative each) */
	size_t		n, alloc;
};

#define WHERE_INIT { NULL, 0, 0 }

void where_release(struct where *w);
/* Add "KEY=VALUE[,VALUE...]"; -1 with the reason in why. */
int where_add(struct where *w, const char *text, struct strbuf *why);
/* Append " AND (...)" clauses on the runs table aliased `alias` (values
 * quoted with sqlite3's %Q, so nothing reaches SQL unescaped). */
void where_sql(const struct where *w, const char *alias, struct strbuf *sql);
/* Is value a range FROM..TO?  Then *lo and *hi (when not NULL) get its
 * ends, "" for an open one (the caller frees them). */
bool where_range(const char *value, char **lo, char **hi);
/* SQL expression giving dimension key's value for a run (alias.*):
 * path, trial, tool, day, hour, week, month, instance (tag instance, else instance_id,
 * else hostname), a condition key or a tag. */
void dim_sql(const char *key, const char *alias, struct strbuf *sql);

#endif
