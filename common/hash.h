/*
 * hash.h - the one string hash of the name tables (interned paths,
 * conditions, statistic names, tag values): 64-bit FNV-1a, and the
 * linear-probing slot search of a table of string pointers.  Inline:
 * both sit in the loops that intern every cell's names.
 */
#ifndef PATHSTAT_COMMON_HASH_H
#define PATHSTAT_COMMON_HASH_H

#include "common/compat.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The 64-bit FNV-1a hash of s's bytes, its NUL not included. */
static inline uint64_t
hash_name(const char *s)
{
	uint64_t h = UINT64_C(14695981039346656037);

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= UINT64_C(1099511628211);
	}
	return h;
}

/*
 * The slot of s in tab, cap string pointers (cap a power of 2, at least
 * one of them NULL) placed by linear probing from hash_name(): the slot
 * of the string equal to s, or the empty one s would take.
 */
static inline size_t
hash_name_slot(char *const *tab, size_t cap, const char *s)
{
	size_t i = (size_t)(hash_name(s) & (cap - 1));

	while (tab[i] && strcmp(tab[i], s))
		i = (i + 1) & (cap - 1);
	return i;
}

#endif
