/*
 * keys.c - run keys (path, trial, condition, tool, tags) and meta.json
 * sidecars: parsing them, and merging every meta.json from the tree root
 * down to a file's folder, nearer files winning.
 */
#include "common/compat.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "common/err.h"
#include "common/parse.h"
#include "common/xalloc.h"
#include "ingest/tree.h"

#define META_MAX_BYTES	(1024 * 1024)	/* a sidecar is small; refuse more */

void
run_keys_init(struct run_keys *k)
{
	k->path = NULL;
	k->trial = -1;
	k->tool = NULL;
	kvset_init(&k->cond);
	kvset_init(&k->tags);
}

void
run_keys_release(struct run_keys *k)
{
	free(k->path);
	free(k->tool);
	kvset_release(&k->cond);
	kvset_release(&k->tags);
	run_keys_init(k);
}

void
run_keys_merge(struct run_keys *dst, const struct run_keys *src)
{
	if (src->path) {
		free(dst->path);
		dst->path = xstrdup(src->path);
	}
	if (src->trial >= 0)
		dst->trial = src->trial;
	if (src->tool) {
		free(dst->tool);
		dst->tool = xstrdup(src->tool);
	}
	kvset_merge(&dst->cond, &src->cond);
	kvset_merge(&dst->tags, &src->tags);
}

void
run_keys_canon(const struct run_keys *k, struct strbuf *out)
{
	strbuf_addf(out, "path=%s|trial=%ld|tool=%s|cond=", k->path ? k->path : "",
	    k->trial, k->tool ? k->tool : "");
	kvset_join(&k->cond, out, ",");
	strbuf_addstr(out, "|tags=");
	kvset_join(&k->tags, out, ";");
}

/* Tag values may hold spaces and punctuation (hostnames, versions), but
 * no control characters; keys follow the stricter key rule. */
static bool
tag_value_ok(const char *v)
{
	const unsigned char *p;
	size_t len = strlen(v);

	if (len == 0 || len > 1024)
		return false;
	for (p = (const unsigned char *)v; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return false;
	return true;
}

int
run_keys_set(struct run_keys *k, const char *key, const char *value,
    struct strbuf *why)
{
	if (!strcmp(key, "path")) {
		/* ',' separates lists (--paths A,B); anything else is data */
		if (!tag_value_ok(value) || strchr(value, ',') ||
		    value[0] == ' ' || value[strlen(value) - 1] == ' ') {
			strbuf_addf(why, "path ID '%s' is empty or has ',', "
			    "surrounding blanks or control characters", value);
			return -1;
		}
		free(k->path);
		k->path = xstrdup(value);
	} else if (!strcmp(key, "trial")) {
		long t;

		if (parse_long(value, 0, INT_MAX, &t)) {
			strbuf_addf(why, "trial '%s' is not a non-negative "
			    "integer", value);
			return -1;
		}
		k->trial = t;
	} else if (!strcmp(key, "condition") || !strcmp(key, "cond")) {
		if (cond_parse(value, &k->cond, why))
			return -1;
	} else if (!strcmp(key, "tool")) {
		if (!kv_valid_value(value)) {
			strbuf_addf(why, "tool '%s' is not a plain name", value);
			return -1;
		}
		free(k->tool);
		k->tool = xstrdup(value);
	} else {
		if (!kv_valid_key(key)) {
			strbuf_addf(why, "tag name '%s' is empty or has '=', "
			    "',', ';' or control characters", key);
			return -1;
		}
		if (!tag_value_ok(value)) {
			strbuf_addf(why, "tag '%s' has an empty, over-long or "
			    "control-character value", key);
			return -1;
		}
		kvset_set(&k->tags, key, value);
	}
	return 0;
}

int
meta_parse(const char *buf, size_t len, struct run_keys *out,
    struct strbuf *why)
{
	cJSON *root = NULL, *item;
	int ret = -1;

	if (len > META_MAX_BYTES) {
		strbuf_addf(why, "larger than %d bytes", META_MAX_BYTES);
		return -1;
	}
	root = cJSON_ParseWithLength(buf, len);
	if (!root) {
		const char *at = cJSON_GetErrorPtr();

		strbuf_addstr(why, "not valid JSON");
		if (at && at >= buf && at <= buf + len)
			strbuf_addf(why, " (near byte %zu)", (size_t)(at - buf));
		goto cleanup;
	}
	if (!cJSON_IsObject(root)) {
		strbuf_addstr(why, "not a JSON object");
		goto cleanup;
	}
	cJSON_ArrayForEach(item, root) {
		char num[64];
		const char *value;

		if (!item->string)
			continue;
		if (cJSON_IsString(item)) {
			value = item->valuestring;
		} else if (cJSON_IsNumber(item)) {
			double d = item->valuedouble;

			if (!isfinite(d)) {
				strbuf_addf(why, "key '%s': not a finite number",
				    item->string);
				goto cleanup;
			}
			if (d == floor(d) && fabs(d) < 9e15)
				snprintf(num, sizeof(num), "%.0f", d);
			else
				snprintf(num, sizeof(num), "%.17g", d);
			value = num;
		} else if (cJSON_IsBool(item)) {
			value = cJSON_IsTrue(item) ? "true" : "false";
		} else if (cJSON_IsNull(item)) {
			continue;
		} else {
			/* Nested values (a list of commands, say) describe
			 * the run but are not keys. */
			continue;
		}
		if (run_keys_set(out, item->string, value, why)) {
			struct strbuf tmp = STRBUF_INIT;

			strbuf_addf(&tmp, "key '%s': %s", item->string, why->buf);
			strbuf_reset(why);
			strbuf_addstr(why, tmp.buf);
			strbuf_release(&tmp);
			goto cleanup;
		}
	}
	ret = 0;
cleanup:
	cJSON_Delete(root);
	return ret;
}

/*
 * The cache maps a folder to the merged keys of every meta.json from
 * the stop folder down to it.  Open addressing on the folder string.
 */
struct meta_entry {
	char		*dir;		/* folder, owned; NULL = empty slot */
	char		*stop;		/* stop folder the merge started from, owned */
	struct run_keys	keys;		/* merged keys */
	int		broken;		/* a meta.json on the way was broken */
};

struct meta_cache {
	struct meta_entry	*slots;
	size_t			nslots, used;
};

struct meta_cache *
meta_cache_new(void)
{
	struct meta_cache *mc = xcalloc(1, sizeof(*mc));

	mc->nslots = 256;
	mc->slots = xcalloc(mc->nslots, sizeof(mc->slots[0]));
	return mc;
}

void
meta_cache_free(struct meta_cache *mc)
{
	size_t i;

	if (!mc)
		return;
	for (i = 0; i < mc->nslots; i++) {
		if (!mc->slots[i].dir)
			continue;
		free(mc->slots[i].dir);
		free(mc->slots[i].stop);
		run_keys_release(&mc->slots[i].keys);
	}
	free(mc->slots);
	free(mc);
}

static uint64_t
str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ULL;
	}
	return h;
}

static struct meta_entry *
meta_slot(struct meta_cache *mc, const char *dir, const char *stop)
{
	size_t i = (size_t)(str_hash(dir) & (mc->nslots - 1));

	while (mc->slots[i].dir) {
		if (!strcmp(mc->slots[i].dir, dir) &&
		    !strcmp(mc->slots[i].stop, stop))
			return &mc->slots[i];
		i = (i + 1) & (mc->nslots - 1);
	}
	return &mc->slots[i];
}

static void
meta_grow(struct meta_cache *mc)
{
	struct meta_entry *old = mc->slots;
	size_t i, oldn = mc->nslots;

	mc->nslots *= 2;
	mc->slots = xcalloc(mc->nslots, sizeof(mc->slots[0]));
	for (i = 0; i < oldn; i++) {
		struct meta_entry *e;

		if (!old[i].dir)
			continue;
		e = meta_slot(mc, old[i].dir, old[i].stop);
		*e = old[i];
	}
	free(old);
}

/* Read and parse dir/meta.json into keys; 0 if absent or good, -1 broken. */
static int
meta_read_dir(const char *dir, struct run_keys *keys)
{
	struct strbuf path = STRBUF_INIT, buf = STRBUF_INIT, why = STRBUF_INIT;
	int ret = 0;

	strbuf_addf(&path, "%s/meta.json", dir);
	if (strbuf_read_file(&buf, path.buf, META_MAX_BYTES)) {
		if (errno != ENOENT && errno != ENOTDIR)
			ret = error_errno("%s: cannot read meta.json", path.buf);
		goto cleanup;
	}
	if (meta_parse(buf.buf, buf.len, keys, &why))
		ret = error("%s: bad meta.json: %s", path.buf, why.buf);
cleanup:
	strbuf_release(&path);
	strbuf_release(&buf);
	strbuf_release(&why);
	return ret;
}

/* Merged keys for dir; recursion stops at stop.  The returned entry is
 * valid until the next lookup (the table may grow). */
static const struct meta_entry *
meta_lookup(struct meta_cache *mc, const char *dir, const char *stop)
{
	struct meta_entry *e = meta_slot(mc, dir, stop);
	struct run_keys own;
	char *up = NULL;
	int broken = 0;

	if (e->dir)
		return e;
	if (strcmp(dir, stop) != 0) {
		const char *slash = strrchr(dir, '/');

		if (slash && slash != dir) {
			up = xstrndup(dir, (size_t)(slash - dir));
			meta_lookup(mc, up, stop);
		}
	}
	if ((mc->used + 1) * 2 >= mc->nslots)
		meta_grow(mc);
	run_keys_init(&own);
	if (meta_read_dir(dir, &own))
		broken = 1;
	e = meta_slot(mc, dir, stop);
	e->dir = xstrdup(dir);
	e->stop = xstrdup(stop);
	run_keys_init(&e->keys);
	e->broken = broken;
	if (up) {
		const struct meta_entry *parent = meta_slot(mc, up, stop);

		run_keys_merge(&e->keys, &parent->keys);
		e->broken |= parent->broken;
		free(up);
	}
	run_keys_merge(&e->keys, &own);
	run_keys_release(&own);
	mc->used++;
	return e;
}

int
meta_keys_for(struct meta_cache *mc, const char *dir, const char *stop_dir,
    struct run_keys *out)
{
	const struct meta_entry *e = meta_lookup(mc, dir, stop_dir);

	run_keys_merge(out, &e->keys);
	return e->broken ? -1 : 0;
}
