/*
 * layout.c - layout patterns: '{tag:instance_type}/{path}/{cond}/trial{trial}/{*}'
 * or '{path}_{cond}.json' mapped onto a file's path under the tree root.
 * A pattern matches the END of the path on folder boundaries (as if it
 * began with {**}/), unless it starts with '/', which anchors it at the
 * root.  Placeholders match at least one character, shortest first, and
 * never cross a '/'; {trial} matches digits only.
 */
#include "common/compat.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "ingest/tree.h"

enum tok_kind {
	TOK_LIT,	/* literal text */
	TOK_PATH,	/* {path} */
	TOK_TRIAL,	/* {trial} */
	TOK_COND,	/* {cond} */
	TOK_TOOL,	/* {tool} */
	TOK_TAG,	/* {tag:NAME} */
	TOK_STAR,	/* {*}: the rest of one segment (may be empty) */
	TOK_DSTAR,	/* {**}: any number of whole folders (a segment of its own) */
};

struct layout_tok {
	enum tok_kind	kind;
	char		*text;	/* literal text, or the tag name; owned */
};

struct layout_seg {
	struct layout_tok	*toks;
	size_t			ntoks;
};

struct layout {
	struct layout_seg	*segs;
	size_t			nsegs;
	bool			anchored;	/* pattern began with '/' */
};

#define MAX_CAPTURES 32

struct capture {
	const struct layout_tok	*tok;
	const char		*at;	/* into the matched path */
	size_t			len;
};

struct match_state {
	const struct layout	*lay;
	char			**segs;		/* path segments */
	size_t			nsegs;
	struct capture		caps[MAX_CAPTURES];
	size_t			ncaps;
};

void
layout_free(struct layout *lay)
{
	size_t i, j;

	if (!lay)
		return;
	for (i = 0; i < lay->nsegs; i++) {
		for (j = 0; j < lay->segs[i].ntoks; j++)
			free(lay->segs[i].toks[j].text);
		free(lay->segs[i].toks);
	}
	free(lay->segs);
	free(lay);
}

static void
seg_add_tok(struct layout_seg *seg, enum tok_kind kind, const char *text,
    size_t len)
{
	seg->toks = xreallocarray(seg->toks, seg->ntoks + 1, sizeof(seg->toks[0]));
	seg->toks[seg->ntoks].kind = kind;
	seg->toks[seg->ntoks].text = text ? xstrndup(text, len) : NULL;
	seg->ntoks++;
}

static int
compile_segment(struct layout_seg *seg, const char *s, size_t len,
    struct strbuf *why)
{
	size_t i = 0;

	if (len == 0) {
		strbuf_addstr(why, "empty folder name ('//')");
		return -1;
	}
	while (i < len) {
		if (s[i] == '{') {
			const char *close = memchr(s + i, '}', len - i);
			size_t nlen;
			const char *name = s + i + 1;

			if (!close) {
				strbuf_addf(why, "'{' without '}' in '%.*s'",
				    (int)len, s);
				return -1;
			}
			nlen = (size_t)(close - name);
			if (nlen == 4 && !memcmp(name, "path", 4))
				seg_add_tok(seg, TOK_PATH, NULL, 0);
			else if (nlen == 5 && !memcmp(name, "trial", 5))
				seg_add_tok(seg, TOK_TRIAL, NULL, 0);
			else if (nlen == 4 && !memcmp(name, "cond", 4))
				seg_add_tok(seg, TOK_COND, NULL, 0);
			else if (nlen == 4 && !memcmp(name, "tool", 4))
				seg_add_tok(seg, TOK_TOOL, NULL, 0);
			else if (nlen == 1 && name[0] == '*')
				seg_add_tok(seg, TOK_STAR, NULL, 0);
			else if (nlen == 2 && !memcmp(name, "**", 2)) {
				if (len != 4) {
					strbuf_addstr(why, "{**} must be a whole "
					    "folder name");
					return -1;
				}
				seg_add_tok(seg, TOK_DSTAR, NULL, 0);
			} else if (nlen > 4 && !memcmp(name, "tag:", 4)) {
				char *tag = xstrndup(name + 4, nlen - 4);
				bool good = kv_valid_key(tag);

				free(tag);
				if (!good) {
					strbuf_addf(why, "bad tag name in "
					    "'{%.*s}'", (int)nlen, name);
					return -1;
				}
				seg_add_tok(seg, TOK_TAG, name + 4, nlen - 4);
			} else {
				strbuf_addf(why, "unknown placeholder '{%.*s}' "
				    "(known: {path} {trial} {cond} {tool} "
				    "{tag:NAME} {*} {**})", (int)nlen, name);
				return -1;
			}
			/* Two captures side by side cannot be split. */
			if (seg->ntoks >= 2 &&
			    seg->toks[seg->ntoks - 1].kind != TOK_LIT &&
			    seg->toks[seg->ntoks - 2].kind != TOK_LIT) {
				strbuf_addf(why, "two placeholders with nothing "
				    "between them in '%.*s'", (int)len, s);
				return -1;
			}
			i = (size_t)(close - s) + 1;
		} else if (s[i] == '}') {
			strbuf_addf(why, "'}' without '{' in '%.*s'", (int)len, s);
			return -1;
		} else {
			size_t start = i;

			while (i < len && s[i] != '{' && s[i] != '}')
				i++;
			seg_add_tok(seg, TOK_LIT, s + start, i - start);
		}
	}
	return 0;
}

struct layout *
layout_compile(const char *pattern, struct strbuf *why)
{
	struct layout *lay = xcalloc(1, sizeof(*lay));
	const char *p = pattern;

	if (*p == '/') {
		lay->anchored = true;
		p++;
	}
	if (!*p) {
		strbuf_addstr(why, "empty layout pattern");
		goto fail;
	}
	while (*p) {
		const char *slash = strchr(p, '/');
		size_t len = slash ? (size_t)(slash - p) : strlen(p);
		struct layout_seg *seg;

		lay->segs = xreallocarray(lay->segs, lay->nsegs + 1,
		    sizeof(lay->segs[0]));
		seg = &lay->segs[lay->nsegs++];
		memset(seg, 0, sizeof(*seg));
		if (compile_segment(seg, p, len, why))
			goto fail;
		if (!slash)
			break;
		p = slash + 1;
		if (!*p) {
			strbuf_addstr(why, "pattern ends with '/'");
			goto fail;
		}
	}
	return lay;
fail:
	layout_free(lay);
	return NULL;
}

static bool match_segs(struct match_state *ms, size_t pi, size_t si);

/* Match tokens [ti..) of pattern segment seg against text s[0..len). */
static bool
match_toks(struct match_state *ms, const struct layout_seg *seg, size_t ti,
    const char *s, size_t len, size_t pi, size_t si)
{
	const struct layout_tok *t;
	size_t n, min, save = ms->ncaps;

	if (ti == seg->ntoks)
		return len == 0 && match_segs(ms, pi + 1, si + 1);
	t = &seg->toks[ti];
	if (t->kind == TOK_LIT) {
		size_t tl = strlen(t->text);

		if (tl > len || memcmp(s, t->text, tl))
			return false;
		return match_toks(ms, seg, ti + 1, s + tl, len - tl, pi, si);
	}
	min = t->kind == TOK_STAR ? 0 : 1;
	for (n = min; n <= len; n++) {
		if (t->kind == TOK_TRIAL && n > 0 && !isdigit((unsigned char)s[n - 1]))
			break;
		if (ms->ncaps >= MAX_CAPTURES)
			return false;
		ms->caps[ms->ncaps].tok = t;
		ms->caps[ms->ncaps].at = s;
		ms->caps[ms->ncaps].len = n;
		ms->ncaps++;
		if (match_toks(ms, seg, ti + 1, s + n, len - n, pi, si))
			return true;
		ms->ncaps = save;
	}
	return false;
}

/* Pattern segments [pi..) against path segments [si..), both to the end. */
static bool
match_segs(struct match_state *ms, size_t pi, size_t si)
{
	const struct layout_seg *seg;

	if (pi == ms->lay->nsegs)
		return si == ms->nsegs;
	seg = &ms->lay->segs[pi];
	if (seg->ntoks == 1 && seg->toks[0].kind == TOK_DSTAR) {
		size_t k;

		for (k = si; k <= ms->nsegs; k++)
			if (match_segs(ms, pi + 1, k))
				return true;
		return false;
	}
	if (si == ms->nsegs)
		return false;
	return match_toks(ms, seg, 0, ms->segs[si], strlen(ms->segs[si]), pi, si);
}

static int
apply_capture(const struct capture *c, struct run_keys *out, struct strbuf *why)
{
	char *v = xstrndup(c->at, c->len);
	int ret = 0;

	switch (c->tok->kind) {
	case TOK_PATH:
		ret = run_keys_set(out, "path", v, why);
		break;
	case TOK_TRIAL:
		ret = run_keys_set(out, "trial", v, why);
		break;
	case TOK_COND:
		ret = run_keys_set(out, "condition", v, why);
		break;
	case TOK_TOOL:
		ret = run_keys_set(out, "tool", v, why);
		break;
	case TOK_TAG:
		ret = run_keys_set(out, c->tok->text, v, why);
		break;
	case TOK_LIT: case TOK_STAR: case TOK_DSTAR:
		break;
	}
	free(v);
	return ret;
}

int
layout_match(const struct layout *lay, const char *path, struct run_keys *out,
    struct strbuf *why)
{
	struct match_state ms;
	char *copy = xstrdup(path), *p = copy, *seg;
	size_t i, start;
	bool matched = false;
	int ret = 0;

	memset(&ms, 0, sizeof(ms));
	ms.lay = lay;
	while ((seg = strsep(&p, "/")) != NULL) {
		if (!*seg)
			continue;
		ms.segs = xreallocarray(ms.segs, ms.nsegs + 1, sizeof(char *));
		ms.segs[ms.nsegs++] = seg;
	}
	/* Unanchored: the pattern may start at any folder, last tried first
	 * so the pattern covers the end of the path. */
	for (i = 0; i <= ms.nsegs && !matched; i++) {
		start = lay->anchored ? 0 : ms.nsegs - i;
		if (lay->anchored && i > 0)
			break;
		ms.ncaps = 0;
		matched = match_segs(&ms, 0, start);
	}
	if (matched) {
		ret = 1;
		for (i = 0; i < ms.ncaps; i++) {
			if (apply_capture(&ms.caps[i], out, why)) {
				ret = -1;
				break;
			}
		}
	}
	free(ms.segs);
	free(copy);
	return ret;
}
