/*
 * manifest.c - DIR/manifest.json: what an export wrote, so the next one
 * rewrites only the partitions whose fingerprint changed and `aws s3
 * sync` uploads only new files.  Written by hand (exact integers, fixed
 * order, no times: a clean run and a killed-then-repeated one give the
 * same bytes); read with cJSON.
 */
#include "common/compat.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cJSON.h>

#include "common/err.h"
#include "common/escape.h"
#include "common/outdir.h"
#include "common/strbuf.h"
#include "common/xalloc.h"
#include "export/internal.h"

#define MANIFEST_MAX	(256 * 1024 * 1024)

static void
entry_release(struct manifest_entry *e)
{
	free(e->dir);
	export_files_release(&e->files);
}

static void
strv_free(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void
manifest_release(struct manifest *mf)
{
	size_t i;

	for (i = 0; i < mf->n; i++)
		entry_release(&mf->items[i]);
	free(mf->items);
	strv_free(mf->pkeys, mf->npkeys);
	strv_free(mf->where, mf->nwhere);
	strv_free(mf->run_ids, mf->nrun_ids);
	strv_free(mf->key_keys, mf->nkey_cols);
	strv_free(mf->key_cols, mf->nkey_cols);
	free(mf->writer_id);
	memset(mf, 0, sizeof(*mf));
}

void
manifest_add(struct manifest *mf, struct manifest_entry *e)
{
	ALLOC_GROW(mf->items, mf->n + 1, mf->alloc);
	mf->items[mf->n++] = *e;
	memset(e, 0, sizeof(*e));
}

const struct manifest_entry *
manifest_find(const struct manifest *mf, enum export_dataset ds,
    const char *dir)
{
	size_t i;

	for (i = 0; i < mf->n; i++)
		if (mf->items[i].ds == ds && !strcmp(mf->items[i].dir, dir))
			return &mf->items[i];
	return NULL;
}

/* A string array member into *v. */
static int
read_strv(const cJSON *arr, char ***v, size_t *n)
{
	const cJSON *it;

	*v = NULL;
	*n = 0;
	if (!arr)
		return 0;
	if (!cJSON_IsArray(arr))
		return -1;
	cJSON_ArrayForEach(it, arr) {
		if (!cJSON_IsString(it))
			return -1;
		*v = xreallocarray(*v, *n + 1, sizeof(**v));
		(*v)[(*n)++] = xstrdup(it->valuestring);
	}
	return 0;
}

static bool
get_u64(const cJSON *obj, const char *key, uint64_t *out)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (!cJSON_IsNumber(it) || it->valuedouble < 0 ||
	    it->valuedouble > 9007199254740992.0)
		return false;
	*out = (uint64_t)it->valuedouble;
	return true;
}

static const char *
get_str(const cJSON *obj, const char *key)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);

	return cJSON_IsString(it) ? it->valuestring : NULL;
}

/* A runs partition's "run_ids" (a writer's manifest) appended to
 * mf->run_ids; absent is none. */
static int
read_run_ids(struct manifest *mf, const cJSON *arr)
{
	const cJSON *it;

	if (!arr)
		return 0;
	if (!cJSON_IsArray(arr))
		return -1;
	cJSON_ArrayForEach(it, arr) {
		if (!cJSON_IsString(it) || strlen(it->valuestring) != 16 ||
		    strspn(it->valuestring, "0123456789abcdef") != 16)
			return -1;
		mf->run_ids = xreallocarray(mf->run_ids, mf->nrun_ids + 1,
		    sizeof(*mf->run_ids));
		mf->run_ids[mf->nrun_ids++] = xstrdup(it->valuestring);
	}
	return 0;
}

/* A dataset's key columns ("columns" entries with a "key") into
 * mf->key_keys and key_cols, once each. */
static void
read_key_cols(struct manifest *mf, const cJSON *cols)
{
	const cJSON *c;
	const char *key, *name;
	size_t i;
	bool seen;

	cJSON_ArrayForEach(c, cols) {
		key = get_str(c, "key");
		name = get_str(c, "name");
		if (!key || !name)
			continue;
		seen = false;
		for (i = 0; i < mf->nkey_cols && !seen; i++)
			seen = !strcmp(mf->key_keys[i], key) &&
			    !strcmp(mf->key_cols[i], name);
		if (seen)
			continue;
		mf->key_keys = xreallocarray(mf->key_keys, mf->nkey_cols + 1,
		    sizeof(*mf->key_keys));
		mf->key_cols = xreallocarray(mf->key_cols, mf->nkey_cols + 1,
		    sizeof(*mf->key_cols));
		mf->key_keys[mf->nkey_cols] = xstrdup(key);
		mf->key_cols[mf->nkey_cols++] = xstrdup(name);
	}
}

/* One dataset's partitions; -1 with the reason in why. */
static int
read_dataset(struct manifest *mf, enum export_dataset ds, const cJSON *d,
    struct strbuf *why)
{
	const cJSON *parts = cJSON_GetObjectItemCaseSensitive(d, "partitions");
	const cJSON *p, *files, *f;
	struct manifest_entry e;
	const char *s;

	if (!cJSON_IsArray(parts)) {
		strbuf_addf(why, "%s has no partitions",
		    export_dataset_name(ds));
		return -1;
	}
	read_key_cols(mf, cJSON_GetObjectItemCaseSensitive(d, "columns"));
	cJSON_ArrayForEach(p, parts) {
		memset(&e, 0, sizeof(e));
		e.ds = ds;
		s = get_str(p, "dir");
		files = cJSON_GetObjectItemCaseSensitive(p, "files");
		if (!s || !get_str(p, "fingerprint") ||
		    strlen(get_str(p, "fingerprint")) != 32 ||
		    !get_u64(p, "runs", &e.runs) || !cJSON_IsArray(files)) {
			strbuf_addf(why, "a partition of %s is incomplete",
			    export_dataset_name(ds));
			return -1;
		}
		e.dir = xstrdup(s);
		memcpy(e.fingerprint, get_str(p, "fingerprint"), 33);
		if (ds == DS_RUNS && read_run_ids(mf,
		    cJSON_GetObjectItemCaseSensitive(p, "run_ids"))) {
			strbuf_addstr(why, "a partition's run_ids are not "
			    "16-hex-digit strings");
			entry_release(&e);
			return -1;
		}
		cJSON_ArrayForEach(f, files) {
			struct export_file *x;

			ALLOC_GROW(e.files.items, e.files.n + 1, e.files.alloc);
			x = &e.files.items[e.files.n];
			memset(x, 0, sizeof(*x));
			s = get_str(f, "path");
			if (!s || !get_u64(f, "rows", &x->rows) ||
			    !get_u64(f, "bytes", &x->bytes) ||
			    !get_str(f, "xxh3_128") ||
			    strlen(get_str(f, "xxh3_128")) != 32) {
				strbuf_addf(why, "a file of %s is incomplete",
				    export_dataset_name(ds));
				entry_release(&e);
				return -1;
			}
			x->path = xstrdup(s);
			memcpy(x->hash, get_str(f, "xxh3_128"), 33);
			e.files.n++;
		}
		manifest_add(mf, &e);
	}
	return 0;
}

int
manifest_read_at(int dirfd, const char *name, const char *shown,
    struct manifest *mf)
{
	struct strbuf text = STRBUF_INIT, why = STRBUF_INIT;
	cJSON *root = NULL;
	const cJSON *ds, *sets;
	const char *fmt, *wid;
	int ret = -1, i, rc;

	memset(mf, 0, sizeof(*mf));
	rc = outdir_read_regular(dirfd, name, MANIFEST_MAX, &text, &why);
	if (rc == -2) {
		ret = 1;
		goto cleanup;
	}
	if (rc) {
		error("refusing to use '%s': %s (export reads only the "
		    "regular file an earlier export wrote)", shown, why.buf);
		goto cleanup;
	}
	root = cJSON_ParseWithLength(text.buf, text.len);
	fmt = root ? get_str(root, "format") : NULL;
	if (!fmt || strcmp(fmt, "pathstat-export")) {
		strbuf_addstr(&why, "no \"format\": \"pathstat-export\"");
		goto bad;
	}
	if (read_strv(cJSON_GetObjectItemCaseSensitive(root, "partition_by"),
	    &mf->pkeys, &mf->npkeys) ||
	    read_strv(cJSON_GetObjectItemCaseSensitive(root, "where"),
	    &mf->where, &mf->nwhere)) {
		strbuf_addstr(&why, "partition_by or where is not a list of "
		    "strings");
		goto bad;
	}
	wid = get_str(root, "writer_id");
	if (wid)
		mf->writer_id = xstrdup(wid);
	sets = cJSON_GetObjectItemCaseSensitive(root, "datasets");
	for (i = 0; i < DS_COUNT; i++) {
		enum export_dataset e = (enum export_dataset)i;

		ds = cJSON_GetObjectItemCaseSensitive(sets,
		    export_dataset_name(e));
		if (ds && read_dataset(mf, e, ds, &why))
			goto bad;
	}
	ret = 0;
	goto cleanup;
bad:
	error("'%s' is not a pathstat export manifest: %s", shown, why.buf);
	manifest_release(mf);
cleanup:
	cJSON_Delete(root);
	strbuf_release(&text);
	strbuf_release(&why);
	return ret;
}

int
manifest_read(const char *dir, struct manifest *mf)
{
	struct strbuf path = STRBUF_INIT;
	int ret = -1, dirfd;

	memset(mf, 0, sizeof(*mf));
	strbuf_addf(&path, "%s/manifest.json", dir);
	/* DIR itself is the user's choice; what is inside it is not */
	dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		if (errno == ENOENT)
			ret = 1;
		else
			error_errno("cannot open '%s'", dir);
		goto cleanup;
	}
	ret = manifest_read_at(dirfd, "manifest.json", path.buf, mf);
	close(dirfd);
cleanup:
	strbuf_release(&path);
	return ret;
}

/* v[0..n) as a JSON array of strings. */
static void
json_strv(struct strbuf *sb, char **v, size_t n)
{
	size_t i;

	strbuf_addch(sb, '[');
	for (i = 0; i < n; i++) {
		if (i)
			strbuf_addstr(sb, ", ");
		escape_json(sb, v[i]);
	}
	strbuf_addch(sb, ']');
}

static void
json_columns(struct strbuf *sb, const struct export_model *m,
    enum export_dataset ds)
{
	struct export_cols cols = { NULL, 0, 0 };
	const struct export_col *c;
	size_t i;

	export_dataset_cols(m, ds, NULL, &cols);
	strbuf_addstr(sb, "\t\t\t\"columns\": [\n");
	for (i = 0; i < cols.n; i++) {
		c = &cols.items[i];
		strbuf_addstr(sb, "\t\t\t\t{\"name\": ");
		escape_json(sb, c->name);
		strbuf_addf(sb, ", \"type\": \"%s\", \"nullable\": %s",
		    export_type_name(c->type), c->optional ? "true" : "false");
		if (c->key >= 0) {
			strbuf_addstr(sb, ", \"key\": ");
			escape_json(sb, m->keys[c->key].key);
		}
		strbuf_addf(sb, "}%s\n", i + 1 < cols.n ? "," : "");
	}
	strbuf_addstr(sb, "\t\t\t],\n");
	export_cols_release(&cols);
}

/* A writer's runs partition lists its runs' ids, so the other writers
 * leave those runs out (export.c). */
static void
json_run_ids(struct strbuf *sb, const struct export_model *m,
    const char *dir)
{
	const struct export_part *p = NULL;
	size_t i;

	for (i = 0; i < m->nparts && !p; i++)
		if (!strcmp(m->parts[i].dir, dir))
			p = &m->parts[i];
	if (!p)
		BUG("manifest entry '%s' is no partition", dir);
	strbuf_addstr(sb, "\"run_ids\": [");
	for (i = 0; i < p->n; i++)
		strbuf_addf(sb, "%s\"%s\"", i ? ", " : "",
		    m->runs[p->first + i]->run_id);
	strbuf_addstr(sb, "], ");
}

void
manifest_json(const struct manifest *mf, const struct export_model *m,
    const struct export_opts *o, struct strbuf *out)
{
	const struct manifest_entry *e;
	uint64_t runs = 0, rows = 0, bytes = 0, nfiles = 0, samples = 0;
	size_t i, j, n;
	int ds;

	strbuf_addstr(out, "{\n\t\"format\": \"pathstat-export\",\n");
	strbuf_addf(out, "\t\"schema_version\": %d,\n", EXPORT_SCHEMA_VERSION);
	strbuf_addstr(out, "\t\"writer\": \"pathstat version " PATHSTAT_VERSION
	    "\",\n");
	if (o->writer) {
		strbuf_addstr(out, "\t\"writer_id\": ");
		escape_json(out, o->writer);
		strbuf_addstr(out, ",\n");
	}
	strbuf_addf(out, "\t\"codec\": \"%s\",\n", pq_codec_name(o->codec));
	strbuf_addf(out, "\t\"encodings\": \"%s\",\n", o->basic ? "basic" :
	    "default");
	strbuf_addstr(out, "\t\"partition_by\": ");
	json_strv(out, mf->pkeys, mf->npkeys);
	strbuf_addstr(out, ",\n\t\"where\": ");
	json_strv(out, mf->where, mf->nwhere);
	strbuf_addstr(out, ",\n\t\"datasets\": {\n");
	for (ds = 0; ds < DS_COUNT; ds++) {
		strbuf_addf(out, "\t\t\"%s\": {\n",
		    export_dataset_name((enum export_dataset)ds));
		json_columns(out, m, (enum export_dataset)ds);
		strbuf_addstr(out, "\t\t\t\"partitions\": [");
		for (i = 0, n = 0; i < mf->n; i++) {
			e = &mf->items[i];
			if ((int)e->ds != ds)
				continue;
			strbuf_addstr(out, n++ ? ",\n" : "\n");
			strbuf_addstr(out, "\t\t\t\t{\"dir\": ");
			escape_json(out, e->dir);
			strbuf_addf(out, ", \"fingerprint\": \"%s\", "
			    "\"runs\": %llu, ", e->fingerprint,
			    (unsigned long long)e->runs);
			if (ds == DS_RUNS && o->writer)
				json_run_ids(out, m, e->dir);
			strbuf_addstr(out, "\"files\": [");
			if (ds == DS_RUNS)
				runs += e->runs;
			for (j = 0; j < e->files.n; j++) {
				const struct export_file *f =
				    &e->files.items[j];

				strbuf_addstr(out, j ? ",\n" : "\n");
				strbuf_addstr(out, "\t\t\t\t\t{\"path\": ");
				escape_json(out, f->path);
				strbuf_addf(out, ", \"rows\": %llu, "
				    "\"bytes\": %llu, \"xxh3_128\": \"%s\"}",
				    (unsigned long long)f->rows,
				    (unsigned long long)f->bytes, f->hash);
				rows += f->rows;
				bytes += f->bytes;
				nfiles++;
				if (ds == DS_SAMPLES)
					samples += f->rows;
			}
			strbuf_addstr(out, "\n\t\t\t\t]}");
		}
		strbuf_addf(out, "%s]\n\t\t}%s\n", n ? "\n\t\t\t" : "",
		    ds + 1 < DS_COUNT ? "," : "");
	}
	strbuf_addf(out, "\t},\n\t\"totals\": {\"runs\": %llu, "
	    "\"samples\": %llu, \"files\": %llu, \"bytes\": %llu}\n}\n",
	    (unsigned long long)runs, (unsigned long long)samples,
	    (unsigned long long)nfiles, (unsigned long long)bytes);
	(void)rows;
}
