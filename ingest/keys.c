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
#include <unistd.h>

#include <cJSON.h>

#include "common/err.h"
#include "common/parse.h"
#include "common/utf8.h"
#include "common/xalloc.h"
#include "ingest/tree.h"

#define META_MAX_BYTES	(1024 * 1024)	/* a sidecar is small; refuse more */

void
run_keys_init(struct run_keys *k)
{
	k->path = NULL;
	k->trial = -1;
	k->tool = NULL;
	k->tool_given = NULL;
	k->unknown = NULL;
	kvset_init(&k->cond);
	kvset_init(&k->tags);
}

void
run_keys_release(struct run_keys *k)
{
	free(k->path);
	free(k->tool);
	free(k->tool_given);
	free(k->unknown);
	kvset_release(&k->cond);
	kvset_release(&k->tags);
	run_keys_init(k);
}

static void
replace_str(char **dst, const char *src)
{
	free(*dst);
	*dst = src ? xstrdup(src) : NULL;
}

void
run_keys_merge(struct run_keys *dst, const struct run_keys *src)
{
	if (src->path)
		replace_str(&dst->path, src->path);
	if (src->trial >= 0)
		dst->trial = src->trial;
	if (src->tool) {
		replace_str(&dst->tool, src->tool);
		replace_str(&dst->tool_given, src->tool_given);
	}
	/* the label tag is src's when src has unknown tokens: so are they */
	if (src->unknown)
		replace_str(&dst->unknown, src->unknown);
	else if (kvset_get(&src->tags, RUN_KEYS_LABEL))
		replace_str(&dst->unknown, NULL);
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

const char *
ingest_tool_canon(const char *name)
{
	static const struct {
		const char	*name, *tool;
	} aliases[] = {
		{ "iperf", "iperf3" }, { "iperf3", "iperf3" }, { "oha", "oha" },
		{ "pathprobe", "pathprobe" }, { "probe", "pathprobe" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(aliases); i++)
		if (!strcmp(name, aliases[i].name))
			return aliases[i].tool;
	return NULL;
}

static void
set_tool(struct run_keys *k, const char *given)
{
	const char *tool = ingest_tool_canon(given);

	replace_str(&k->tool, tool ? tool : given);
	replace_str(&k->tool_given, tool && strcmp(tool, given) ? given : NULL);
}

/*
 * A condition in the {cond} grammar, as ingest reads it from names and
 * meta.json: a token naming a tool sets the tool, and tokens the
 * grammar does not know become the tag RUN_KEYS_LABEL ('_'-joined, in
 * the order met) rather than a refusal.  All or nothing.
 */
static int
set_condition(struct run_keys *k, const char *text, struct strbuf *why)
{
	struct kvset cond = KVSET_INIT;
	struct strbuf unknown = STRBUF_INIT;
	char *copy = xstrdup(text), *p = copy, *tok, *tool = NULL;
	int ret = -1, rc;

	while ((tok = strsep(&p, "_,")) != NULL) {
		if (!*tok)
			continue;
		if (ingest_tool_canon(tok)) {
			free(tool);
			tool = xstrdup(tok);
			continue;
		}
		rc = cond_token_parse(tok, &cond, why);
		if (rc < 0)
			goto cleanup;
		if (rc == 0)
			continue;
		if (!kv_valid_value(tok)) {
			strbuf_addstr(why, "condition token '");
			utf8_add_escaped(why, tok);
			strbuf_addstr(why, "' is not a safe value");
			goto cleanup;
		}
		if (unknown.len)
			strbuf_addch(&unknown, '_');
		strbuf_addstr(&unknown, tok);
	}
	kvset_merge(&k->cond, &cond);
	if (tool)
		set_tool(k, tool);
	if (unknown.len) {
		kvset_set(&k->tags, RUN_KEYS_LABEL, unknown.buf);
		replace_str(&k->unknown, unknown.buf);
	}
	ret = 0;
cleanup:
	kvset_release(&cond);
	strbuf_release(&unknown);
	free(tool);
	free(copy);
	return ret;
}

/* Tag values may hold spaces and punctuation (hostnames, versions), but
 * no control characters (C0, C1, bidirectional: utf8_is_control()) and
 * nothing but UTF-8; keys follow the stricter key rule. */
static bool
tag_value_ok(const char *v)
{
	const unsigned char *p;
	size_t len = strlen(v);

	if (len == 0 || len > 1024 || !utf8_valid(v) || utf8_first_control(v))
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
		if (!path_id_valid(value)) {
			strbuf_addstr(why, "path ID '");
			utf8_add_escaped(why, value);
			strbuf_addf(why, "' is not %s", PATH_ID_RULE);
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
		if (set_condition(k, value, why))
			return -1;
	} else if (!strcmp(key, "tool")) {
		if (!kv_valid_value(value)) {
			strbuf_addstr(why, "tool '");
			utf8_add_escaped(why, value);
			strbuf_addstr(why, "' is not a plain name");
			return -1;
		}
		set_tool(k, value);
	} else {
		if (!kv_valid_key(key)) {
			strbuf_addstr(why, "tag name '");
			utf8_add_escaped(why, key);
			strbuf_addstr(why, "' is empty, over 256 bytes, not "
			    "UTF-8, or has '=', ',', ';' or control "
			    "characters (C0, C1 or bidirectional)");
			return -1;
		}
		if (!tag_value_ok(value)) {
			strbuf_addstr(why, "tag '");
			utf8_add_escaped(why, key);
			strbuf_addstr(why, "' has an empty, over-long (1024 "
			    "bytes), not UTF-8 or control-character (C0, C1 "
			    "or bidirectional) value");
			if (strlen(value) <= 1024) {
				strbuf_addstr(why, " '");
				utf8_add_escaped(why, value);
				strbuf_addch(why, '\'');
			}
			return -1;
		}
		if (k->tags.n >= RUN_TAGS_MAX && !kvset_get(&k->tags, key)) {
			strbuf_addstr(why, "tag '");
			utf8_add_escaped(why, key);
			strbuf_addf(why, "' is one too many: a run may have at "
			    "most %d tags", RUN_TAGS_MAX);
			return -1;
		}
		kvset_set(&k->tags, key, value);
		if (!strcmp(key, RUN_KEYS_LABEL))
			replace_str(&k->unknown, NULL);
	}
	return 0;
}

/* The fields of a run_keys_canon() text, read back for run_keys_diff().
 * Values may hold the separators, so this is a best effort: a text it
 * cannot split is shown whole. */
struct canon_fields {
	char		*path, *trial, *tool;	/* owned; "" when not given */
	struct kvset	cond, tags;
};

static char *
canon_field(const char **p, const char *name, const char *next)
{
	const char *end;
	size_t nl = strlen(name);

	if (strncmp(*p, name, nl))
		return NULL;
	*p += nl;
	end = next ? strstr(*p, next) : *p + strlen(*p);
	if (!end)
		return NULL;
	{
		char *v = xstrndup(*p, (size_t)(end - *p));

		*p = end + (next ? 1 : 0);
		return v;
	}
}

static void
canon_kvs(const char *text, const char *sep, struct kvset *out)
{
	char *copy = xstrdup(text), *p = copy, *item;

	while ((item = strsep(&p, sep)) != NULL) {
		char *eq = strchr(item, '=');

		if (!*item)
			continue;
		if (eq) {
			*eq = '\0';
			kvset_set(out, item, eq + 1);
		} else {
			kvset_set(out, item, "");
		}
	}
	free(copy);
}

static int
canon_read(const char *text, struct canon_fields *f)
{
	const char *p = text;
	char *cond = NULL, *tags = NULL;

	memset(f, 0, sizeof(*f));
	f->path = canon_field(&p, "path=", "|trial=");
	f->trial = f->path ? canon_field(&p, "trial=", "|tool=") : NULL;
	f->tool = f->trial ? canon_field(&p, "tool=", "|cond=") : NULL;
	cond = f->tool ? canon_field(&p, "cond=", "|tags=") : NULL;
	tags = cond ? canon_field(&p, "tags=", NULL) : NULL;
	if (tags) {
		canon_kvs(cond, ",", &f->cond);
		canon_kvs(tags, ";", &f->tags);
	}
	free(cond);
	free(tags);
	return tags ? 0 : -1;
}

static void
canon_release(struct canon_fields *f)
{
	free(f->path);
	free(f->trial);
	free(f->tool);
	kvset_release(&f->cond);
	kvset_release(&f->tags);
}

static void
diff_item(struct strbuf *out, const char *what, const char *key,
    const char *old, const char *new)
{
	if (!old || !*old)
		old = NULL;
	if (!new || !*new)
		new = NULL;
	if ((!old && !new) || (old && new && !strcmp(old, new)))
		return;
	if (out->len)
		strbuf_addstr(out, ", ");
	strbuf_addstr(out, what);
	if (key)
		strbuf_addf(out, " %s", key);
	strbuf_addf(out, ": %s -> %s", old ? old : "(none)",
	    new ? new : "(none)");
}

static void
diff_kvs(struct strbuf *out, const char *what, const struct kvset *old,
    const struct kvset *new)
{
	size_t i = 0, j = 0;

	while (i < old->n || j < new->n) {
		int c = i == old->n ? 1 : j == new->n ? -1 :
		    strcmp(old->items[i].key, new->items[j].key);

		if (c < 0) {
			diff_item(out, what, old->items[i].key,
			    old->items[i].value, NULL);
			i++;
		} else if (c > 0) {
			diff_item(out, what, new->items[j].key, NULL,
			    new->items[j].value);
			j++;
		} else {
			diff_item(out, what, old->items[i].key,
			    old->items[i].value, new->items[j].value);
			i++;
			j++;
		}
	}
}

void
run_keys_diff(const char *old, const struct run_keys *k, struct strbuf *out)
{
	struct canon_fields f;
	struct strbuf now = STRBUF_INIT, diff = STRBUF_INIT;
	char trial[32];

	run_keys_canon(k, &now);
	if (!strcmp(old, now.buf))
		goto cleanup;
	if (canon_read(old, &f)) {
		strbuf_addf(&diff, "keys '%s' -> '%s'", old, now.buf);
	} else {
		if (k->trial >= 0)
			snprintf(trial, sizeof(trial), "%ld", k->trial);
		else
			trial[0] = '\0';
		diff_item(&diff, "path", NULL, f.path, k->path);
		diff_item(&diff, "trial", NULL, strcmp(f.trial, "-1") ?
		    f.trial : NULL, trial);
		diff_item(&diff, "tool", NULL, f.tool, k->tool);
		diff_kvs(&diff, "condition", &f.cond, &k->cond);
		diff_kvs(&diff, "tag", &f.tags, &k->tags);
		if (!diff.len)	/* split differently, same meaning? say it */
			strbuf_addf(&diff, "keys '%s' -> '%s'", old, now.buf);
	}
	canon_release(&f);
	strbuf_addstr(out, diff.buf);
cleanup:
	strbuf_release(&now);
	strbuf_release(&diff);
}

void
run_keys_describe(const struct run_keys *k, const char *cond,
    struct strbuf *out)
{
	size_t start = out->len, i;

	if (k->path)
		strbuf_addf(out, "path=%s", k->path);
	if (k->trial >= 0)
		strbuf_addf(out, "%strial=%ld", out->len > start ? " " : "",
		    k->trial);
	if (k->tool)
		strbuf_addf(out, "%stool=%s", out->len > start ? " " : "",
		    k->tool);
	if (cond && *cond) {
		strbuf_addf(out, "%scondition=%s", out->len > start ? " " : "",
		    cond);
	} else if (!cond && k->cond.n) {
		strbuf_addf(out, "%scondition=", out->len > start ? " " : "");
		kvset_join(&k->cond, out, ",");
	}
	for (i = 0; i < k->tags.n; i++)
		strbuf_addf(out, "%s%s=%s", out->len > start ? " " : "",
		    k->tags.items[i].key, k->tags.items[i].value);
	if (out->len == start)
		strbuf_addstr(out, "(no keys)");
}

/* The meta.json key "cond" names what "condition" does. */
static const char *
meta_key_name(const char *key)
{
	return !strcmp(key, "cond") ? "condition" : key;
}

/* Does a key before item in root name what item does?  (At most
 * RUN_TAGS_MAX + 8 keys get here.) */
static bool
meta_key_repeated(const cJSON *root, const cJSON *item)
{
	const cJSON *o;

	for (o = root->child; o && o != item; o = o->next)
		if (o->string && !strcmp(meta_key_name(o->string),
		    meta_key_name(item->string)))
			return true;
	return false;
}

/*
 * Byte offset of the first "\u0000" escape inside a JSON string of
 * buf[0..len), or -1.  cJSON decodes it into a NUL that ends the C
 * string, so "N4\u0000evil" would silently become "N4".
 */
static long
json_nul_escape(const char *buf, size_t len)
{
	bool in_str = false;
	size_t i;

	for (i = 0; i < len; i++) {
		if (!in_str) {
			in_str = buf[i] == '"';
			continue;
		}
		if (buf[i] == '"') {
			in_str = false;
		} else if (buf[i] == '\\' && i + 1 < len) {
			if (buf[i + 1] == 'u' && i + 5 < len &&
			    !memcmp(buf + i + 2, "0000", 4))
				return (long)i;
			i++;	/* the escaped character */
		}
	}
	return -1;
}

int
meta_parse(const char *buf, size_t len, struct run_keys *out,
    struct strbuf *why)
{
	cJSON *root = NULL, *item;
	struct run_keys keys;
	const char *end = NULL, *nul;
	size_t bad;
	long at;
	int ret = -1;

	run_keys_init(&keys);
	if (len > META_MAX_BYTES) {
		strbuf_addf(why, "larger than %d bytes", META_MAX_BYTES);
		goto cleanup;
	}
	/* Text in the keys must be text: JSON is UTF-8 (RFC 8259), and a
	 * NUL, raw or escaped, would cut a key short without a word. */
	nul = memchr(buf, '\0', len);
	if (nul) {
		strbuf_addf(why, "a NUL byte at byte %zu", (size_t)(nul - buf));
		goto cleanup;
	}
	bad = utf8_invalid_at(buf, len);
	if (bad < len) {
		strbuf_addf(why, "not valid UTF-8 (at byte %zu)", bad);
		goto cleanup;
	}
	at = json_nul_escape(buf, len);
	if (at >= 0) {
		strbuf_addf(why, "a \\u0000 (NUL) in a string at byte %ld: no "
		    "key or value may hold one", at);
		goto cleanup;
	}
	root = cJSON_ParseWithLengthOpts(buf, len, &end, false);
	if (!root) {
		/* cJSON sets end to where it failed; cJSON_GetErrorPtr() is
		 * one global that the parser threads' JSON parses overwrite */
		strbuf_addstr(why, "not valid JSON");
		if (end && end >= buf && end <= buf + len)
			strbuf_addf(why, " (near byte %zu)",
			    (size_t)(end - buf));
		goto cleanup;
	}
	if (!cJSON_IsObject(root)) {
		strbuf_addstr(why, "not a JSON object");
		goto cleanup;
	}
	while (end && end < buf + len && (*end == ' ' || *end == '\t' ||
	    *end == '\n' || *end == '\r'))
		end++;
	if (end && end < buf + len) {
		strbuf_addf(why, "text after the JSON object (at byte %zu)",
		    (size_t)(end - buf));
		goto cleanup;
	}
	if (cJSON_GetArraySize(root) > RUN_TAGS_MAX + 8) {
		/* every key would become a column somewhere */
		strbuf_addf(why, "%d keys: a run may have at most %d tags",
		    cJSON_GetArraySize(root), RUN_TAGS_MAX);
		goto cleanup;
	}
	cJSON_ArrayForEach(item, root) {
		char num[64];
		const char *value;

		if (!item->string)
			continue;
		/* the last of two would win unseen: refuse, naming it */
		if (meta_key_repeated(root, item)) {
			strbuf_addstr(why, "key '");
			utf8_add_escaped(why, item->string);
			strbuf_addstr(why, "' is given twice (JSON keeps the "
			    "last, unseen): give it once");
			goto cleanup;
		}
		if (cJSON_IsString(item)) {
			value = item->valuestring;
		} else if (cJSON_IsNumber(item)) {
			double d = item->valuedouble;

			if (!isfinite(d)) {
				strbuf_addstr(why, "key '");
				utf8_add_escaped(why, item->string);
				strbuf_addstr(why, "': not a finite number");
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
		if (run_keys_set(&keys, item->string, value, why)) {
			struct strbuf tmp = STRBUF_INIT;

			strbuf_addstr(&tmp, "key '");
			utf8_add_escaped(&tmp, item->string);
			strbuf_addf(&tmp, "': %s", why->buf);
			strbuf_reset(why);
			strbuf_addstr(why, tmp.buf);
			strbuf_release(&tmp);
			goto cleanup;
		}
	}
	/* all or nothing: a file whose keys cannot all be read sets none */
	run_keys_merge(out, &keys);
	ret = 0;
cleanup:
	run_keys_release(&keys);
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
	char		*broken;	/* the first broken meta.json on the
					 * way and why, owned; NULL if none */
};

struct meta_cache {
	struct meta_entry	*slots;
	size_t			nslots, used;
	char			*stop;		/* last stop folder, owned */
	char			*stop_real;	/* its realpath, owned */
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
		free(mc->slots[i].broken);
		run_keys_release(&mc->slots[i].keys);
	}
	free(mc->slots);
	free(mc->stop);
	free(mc->stop_real);
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

/*
 * Read and parse dir/meta.json into keys, under the rules the walk
 * applies to data files (tree_open_inside(): a regular file, opened
 * without blocking, inside the tree root_real).  Returns 0 if absent or
 * good; -1 if refused or broken, after printing why, with "path: why"
 * in *broken (the caller frees).
 */
static int
meta_read_dir(const char *dir, const char *root_real, struct run_keys *keys,
    char **broken)
{
	struct strbuf path = STRBUF_INIT, buf = STRBUF_INIT, why = STRBUF_INIT;
	int fd, ret = 0;

	strbuf_addf(&path, "%s/meta.json", dir);
	fd = root_real ? tree_open_inside(path.buf, root_real, &why) : -1;
	if (fd == -2)
		goto cleanup;
	if (!root_real)
		strbuf_addstr(&why, "the tree's root cannot be resolved");
	if (fd < 0) {
		ret = error("%s: meta.json refused: %s", path.buf, why.buf);
		goto cleanup;
	}
	if (strbuf_read_fd(&buf, fd, META_MAX_BYTES)) {
		if (errno == EFBIG)
			strbuf_addf(&why, "larger than %d bytes",
			    META_MAX_BYTES);
		else
			strbuf_addf(&why, "cannot read: %s", strerror(errno));
		ret = error("%s: meta.json refused: %s", path.buf, why.buf);
		close(fd);
		goto cleanup;
	}
	close(fd);
	if (meta_parse(buf.buf, buf.len, keys, &why))
		ret = error("%s: bad meta.json: %s", path.buf, why.buf);
cleanup:
	if (ret)
		*broken = xasprintf("%s: %s", path.buf, why.buf);
	strbuf_release(&path);
	strbuf_release(&buf);
	strbuf_release(&why);
	return ret;
}

/* Merged keys for dir; recursion stops at stop (whose realpath is
 * stop_real, or NULL).  The returned entry is valid until the next
 * lookup (the table may grow). */
static const struct meta_entry *
meta_lookup(struct meta_cache *mc, const char *dir, const char *stop,
    const char *stop_real)
{
	struct meta_entry *e = meta_slot(mc, dir, stop);
	struct run_keys own;
	char *up = NULL, *broken = NULL;

	if (e->dir)
		return e;
	if (strcmp(dir, stop) != 0) {
		const char *slash = strrchr(dir, '/');

		if (slash && slash != dir) {
			up = xstrndup(dir, (size_t)(slash - dir));
			meta_lookup(mc, up, stop, stop_real);
		}
	}
	if ((mc->used + 1) * 2 >= mc->nslots)
		meta_grow(mc);
	run_keys_init(&own);
	meta_read_dir(dir, stop_real, &own, &broken);
	e = meta_slot(mc, dir, stop);
	e->dir = xstrdup(dir);
	e->stop = xstrdup(stop);
	run_keys_init(&e->keys);
	if (up) {
		const struct meta_entry *parent = meta_slot(mc, up, stop);

		run_keys_merge(&e->keys, &parent->keys);
		if (parent->broken)
			e->broken = xstrdup(parent->broken);
		free(up);
	}
	run_keys_merge(&e->keys, &own);
	run_keys_release(&own);
	if (!e->broken)
		e->broken = broken;
	else
		free(broken);
	mc->used++;
	return e;
}

int
meta_keys_for(struct meta_cache *mc, const char *dir, const char *stop_dir,
    struct run_keys *out, struct strbuf *why)
{
	const struct meta_entry *e;

	if (!mc->stop || strcmp(mc->stop, stop_dir)) {
		free(mc->stop);
		free(mc->stop_real);
		mc->stop = xstrdup(stop_dir);
		mc->stop_real = realpath(stop_dir, NULL);
	}
	e = meta_lookup(mc, dir, stop_dir, mc->stop_real);
	if (e->broken) {
		strbuf_addstr(why, e->broken);
		return -1;
	}
	run_keys_merge(out, &e->keys);
	return 0;
}
