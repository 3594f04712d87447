/*
 * writers.c - several machines exporting into one dataset (--writer):
 * each writer's manifest in DIR/manifests/NAME.json, the partitioning
 * they must share, and the runs another writer already exported, left
 * out so a run is in the dataset once.
 */
#include "common/compat.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/err.h"
#include "common/outdir.h"
#include "common/strbuf.h"
#include "common/xalloc.h"
#include "export/internal.h"

/* Whether name is a writer name: 1..EXPORT_WRITER_MAX bytes of
 * [A-Za-z0-9_.-], not starting with '.' or '-'. */
bool
export_writer_name_ok(const char *name, size_t len)
{
	size_t i;

	if (!len || len > EXPORT_WRITER_MAX || name[0] == '.' ||
	    name[0] == '-')
		return false;
	for (i = 0; i < len; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		    "0123456789_.-", name[i]))
			return false;
	return true;
}


void
export_writers_release(struct export_writers *w)
{
	size_t i;

	for (i = 0; i < w->n; i++) {
		manifest_release(&w->mf[i]);
		free(w->name[i]);
	}
	free(w->mf);
	free(w->name);
	memset(w, 0, sizeof(*w));
}

/*
 * Read every NAME.json in the folder mfd (DIR/manifests, shown as
 * shown) but self's into w, sorted by name.  Other entries are left
 * alone.  0, or -1 after an error (a manifest that is not one, or a
 * link or FIFO at NAME.json).
 */
int
export_read_writers(int mfd, const char *shown, const char *self,
    struct export_writers *w)
{
	struct strbuf name = STRBUF_INIT, path = STRBUF_INIT;
	struct dirent *de;
	DIR *d;
	char **names = NULL;
	size_t n = 0, i, len;
	int fd, ret = -1;

	memset(w, 0, sizeof(*w));
	fd = dup(mfd);
	d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return error_errno("cannot read '%s'", shown);
	}
	while ((de = readdir(d)) != NULL) {
		len = strlen(de->d_name);
		if (len < 6 || strcmp(de->d_name + len - 5, ".json") ||
		    !export_writer_name_ok(de->d_name, len - 5) ||
		    (self && len - 5 == strlen(self) &&
		    !strncmp(de->d_name, self, len - 5)))
			continue;
		names = xreallocarray(names, n + 1, sizeof(*names));
		names[n++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), export_cmp_strp);
	w->mf = xcalloc(n ? n : 1, sizeof(*w->mf));
	w->name = xcalloc(n ? n : 1, sizeof(*w->name));
	for (i = 0; i < n; i++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", shown, names[i]);
		if (manifest_read_at(mfd, names[i], path.buf, &w->mf[w->n]))
			goto cleanup;
		strbuf_reset(&name);
		strbuf_add(&name, names[i], strlen(names[i]) - 5);
		w->name[w->n++] = strbuf_detach(&name, NULL);
	}
	ret = 0;
cleanup:
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	strbuf_release(&name);
	strbuf_release(&path);
	return ret;
}

/* Every writer's manifest in DIR/manifests, for --ddl; none when DIR
 * has no manifests/.  0, or -1 after an error. */
int
export_read_all_writers(const char *dir, struct export_writers *w)
{
	struct strbuf shown = STRBUF_INIT;
	int dirfd, mfd = -1, ret = -1;

	memset(w, 0, sizeof(*w));
	strbuf_addf(&shown, "%s/manifests", dir);
	dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		ret = errno == ENOENT ? 0 : error_errno("cannot open '%s'",
		    dir);
		goto cleanup;
	}
	mfd = outdir_open_sub(dirfd, "manifests", shown.buf, 0);
	if (mfd == -2) {
		ret = 0;
		goto cleanup;
	}
	if (mfd >= 0)
		ret = export_read_writers(mfd, shown.buf, NULL, w);
cleanup:
	if (mfd >= 0)
		close(mfd);
	if (dirfd >= 0)
		close(dirfd);
	strbuf_release(&shown);
	return ret;
}

/* A run id another writer exported, and which writer. */
struct owner {
	const char	*id;
	const char	*writer;
};

static int
cmp_owner(const void *a, const void *b)
{
	const struct owner *x = a, *y = b;
	int c = strcmp(x->id, y->id);

	return c ? c : strcmp(x->writer, y->writer);
}

/*
 * Leave out of m the runs another writer's manifest lists, so no run is
 * in the dataset twice: a run belongs to the first writer that exported
 * it.  A run this writer's own manifest (old) lists too was exported
 * by both without seeing the other (the manifests were not synced in
 * between): the writer whose name sorts first keeps it, the other
 * leaves it out at its next export.  Counts what it left out.
 */
size_t
export_leave_out_others(struct export_model *m, const struct export_writers *w,
    const struct manifest *old, const char *self)
{
	struct owner *own = NULL, key;
	const struct owner *hit;
	char **mine = old->run_ids;
	size_t n = 0, i, j, lo, hi, left = 0;

	for (i = 0; i < w->n; i++)
		for (j = 0; j < w->mf[i].nrun_ids; j++) {
			own = xreallocarray(own, n + 1, sizeof(*own));
			own[n].id = w->mf[i].run_ids[j];
			own[n++].writer = w->name[i];
		}
	if (!n)
		return 0;
	qsort(own, n, sizeof(*own), cmp_owner);
	if (old->nrun_ids)
		qsort(mine, old->nrun_ids, sizeof(*mine), export_cmp_strp);
	for (i = 0; i < m->nall; i++) {
		struct export_run *r = &m->all[i];
		const char *id = r->run_id;

		if (!r->selected)
			continue;
		key.id = r->run_id;
		key.writer = "";
		/* the first writer (by name) that lists it: the lower
		 * bound of (id, "") */
		lo = 0;
		hi = n;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (cmp_owner(&own[mid], &key) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == n || strcmp(own[lo].id, id))
			continue;
		hit = &own[lo];
		if (old->nrun_ids && bsearch(&id, mine, old->nrun_ids,
		    sizeof(*mine), export_cmp_strp) && strcmp(self, hit->writer) < 0)
			continue;
		r->selected = false;
		left++;
	}
	free(own);
	export_model_reselect(m);
	return left;
}

/* With other writers: their partition keys, which this export must
 * share (their folders and ours make one table).  0, or -2 when
 * --partition-by asks for others or two writers disagree. */
int
export_writers_pkeys(const char *partition_by, const struct export_writers *w,
    char ***keys, size_t *n)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	size_t i, k;
	int ret = 0;

	for (i = 0; i < w->n && !ret; i++) {
		strbuf_reset(&b);
		for (k = 0; k < w->mf[i].npkeys; k++)
			strbuf_addf(&b, "%s%s", k ? "," : "",
			    w->mf[i].pkeys[k]);
		if (!b.len)
			strbuf_addstr(&b, "none");
		if (i == 0) {
			strbuf_add(&a, b.buf, b.len);
			continue;
		}
		if (strcmp(a.buf, b.buf)) {
			error("writers '%s' and '%s' partition by %s and by "
			    "%s: one dataset has one partitioning",
			    w->name[0], w->name[i], a.buf, b.buf);
			ret = -2;
		}
	}
	if (!ret && w->n && partition_by) {
		strbuf_reset(&b);
		strbuf_addstr(&b, partition_by);
		if (strcmp(a.buf, b.buf)) {
			error("bad --partition-by '%s': writer '%s' "
			    "partitions by %s, and one dataset has one "
			    "partitioning", partition_by, w->name[0],
			    a.buf);
			ret = -2;
		}
	}
	if (!ret && w->n) {
		*keys = xcalloc(w->mf[0].npkeys ? w->mf[0].npkeys : 1,
		    sizeof(**keys));
		for (k = 0; k < w->mf[0].npkeys; k++)
			(*keys)[k] = xstrdup(w->mf[0].pkeys[k]);
		*n = w->mf[0].npkeys;
	}
	strbuf_release(&a);
	strbuf_release(&b);
	return ret;
}

