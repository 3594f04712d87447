/*
 * where.h - `--where KEY=VALUE` filters shared by runs, analyze, check and
 * report.  KEY is path, trial or tool; or a condition key (c, ka, P,
 * proto...) or a tag (instance_type, region...), either of which
 * matches; day and hour fall back to the run's start time (UTC) when no
 * such tag exists.  VALUE may list alternatives: path=A,B.  An empty
 * value (target= or target=,nlb) stands for runs that lack the key.  Several filters on
 * one key are alternatives; different keys must all match.
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
/* SQL expression giving dimension key's value for a run (alias.*):
 * path, trial, tool, day, hour, instance (tag instance, else instance_id,
 * else hostname), a condition key or a tag. */
void dim_sql(const char *key, const char *alias, struct strbuf *sql);

#endif
