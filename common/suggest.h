/*
 * suggest.h - "did you mean" for names a user mistyped: subcommands,
 * verbs, metrics, --where/--by keys and values, paths.  One distance
 * (optimal string alignment: insertions, deletions, substitutions and
 * swaps of two neighbours, each costing 1, case-insensitive) and one
 * threshold, so every command suggests the same way.
 */
#ifndef PATHSTAT_COMMON_SUGGEST_H
#define PATHSTAT_COMMON_SUGGEST_H

#include "common/compat.h"

struct strbuf;

/* Optimal string alignment distance between a and b, ignoring ASCII
 * case; stops counting at limit + 1 (a bigger distance reads as
 * limit + 1). */
size_t suggest_distance(const char *a, const char *b, size_t limit);

/*
 * Is candidate a near miss for typed?  Yes when the distance is at most
 * a third of the longer name (at least 1, at most 3), when one is the
 * other with a separator ('_', '-', '.') added or dropped
 * ("instancetype" for "instance_type"), or when typed (3 letters or
 * more) is the candidate up to a separator ("throughput" for
 * "throughput_bps").  An exact match is not a near miss.
 */
bool suggest_near(const char *typed, const char *candidate);

/*
 * The best near miss for typed among names[0..n) (NULL entries are
 * skipped), or NULL: the smallest distance, the first listed on a tie.
 * Borrowed from names.
 */
const char *suggest_best(const char *typed, const char *const *names,
    size_t n);

/* Append "; did you mean 'X'?" when names hold a near miss for typed;
 * returns whether it did. */
bool suggest_append(struct strbuf *sb, const char *typed,
    const char *const *names, size_t n);

#endif
