/*
 * xalloc.h - allocation that never returns NULL: on failure it prints the
 * size asked for and exits 1 (tmux/git xmalloc).  Free with free().
 */
#ifndef PATHSTAT_COMMON_XALLOC_H
#define PATHSTAT_COMMON_XALLOC_H

#include "common/compat.h"

void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
/* Returns the new block; the old pointer is no longer valid. */
void *xrealloc(void *ptr, size_t size);
/* nmemb * size with an overflow check (dies on overflow). */
void *xreallocarray(void *ptr, size_t nmemb, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* Returns a malloc()ed formatted string the caller must free(). */
char *xasprintf(const char *fmt, ...) PATHSTAT_PRINTF(1, 2);

/* Grow *arr (of *alloc elements of elsize bytes) to hold at least need
 * elements, doubling; the git ALLOC_GROW idiom. */
#define ALLOC_GROW(arr, need, alloc) ALLOC_GROW_FROM(arr, need, alloc, 16)
/* The same, starting from first elements: for arrays that are usually
 * short and many (a cell's trials, a run's tool statistics), where 16
 * each would be most of the memory. */
#define ALLOC_GROW_FROM(arr, need, alloc, first) do { \
	if ((size_t)(need) > (alloc)) { \
		size_t ag_new_ = (alloc) ? (alloc) * 2 : (first); \
		if (ag_new_ < (size_t)(need)) \
			ag_new_ = (size_t)(need); \
		(arr) = xreallocarray((arr), ag_new_, sizeof(*(arr))); \
		(alloc) = ag_new_; \
	} \
} while (0)

#define FREE_AND_NULL(p) do { free(p); (p) = NULL; } while (0)

#endif
