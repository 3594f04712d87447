/*
 * layout.c - layout patterns: '{tag:instance_type}/{path}/{cond}/trial{trial}/{*}'
 * or '{path}_{cond}.json' mapped onto a file's path under the tree root.
 * A pattern matches the END of the path on folder boundaries (as if it
 * began with {**}/), unless it starts with '/', which anchors it at the
 * root.  Placeholders match at least one character, shortest first, and
 * never cross a '/'; {trial} matches digits only.
 *
 * Matching takes time linear in the path's length for each pair of
 * pattern segment and path segment (dynamic programming over token and
 * offset, memoised per segment pair): a name of many '_' cannot make it
 * backtrack exponentially, whatever the pattern.
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
	/* memo[pi * (nsegs + 1) + si]: do pattern segments [pi..) match
	 * path segments [si..)?  -1 not known yet, 0 no, 1 yes (owned) */
	signed char		*memo;
	/* one segment's table: ok[ti * (len + 1) + pos] says tokens [ti..)
	 * match the segment's text from pos to its end (owned) */
	unsigned char		*ok;
	size_t			ok_alloc;
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
	size_t ncaps = 0, i;

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
	for (i = 0; i < lay->nsegs; i++)
		for (size_t t = 0; t < lay->segs[i].ntoks; t++)
			ncaps += lay->segs[i].toks[t].kind != TOK_LIT &&
			    lay->segs[i].toks[t].kind != TOK_DSTAR;
	if (ncaps > MAX_CAPTURES) {
		strbuf_addf(why, "more than %d placeholders", MAX_CAPTURES);
		goto fail;
	}
	return lay;
fail:
	layout_free(lay);
	return NULL;
}

static bool match_segs(struct match_state *ms, size_t pi, size_t si);

/*
 * Fill ms->ok for pattern segment seg against text s[0..len), where
 * tail says whether the segments after both match.  Row ti is filled
 * from the end of the text back, from row ti + 1:
 *   literal:        ok[ti][pos] = s[pos..] starts with it && ok[ti+1][pos+tl]
 *   {*} (0+ chars): ok[ti][pos] = ok[ti+1][pos] || ok[ti][pos+1]
 *   others (1+):    ok[ti][pos] = ok[ti+1][pos+1] || ok[ti][pos+1]
 *   {trial}:        the same, and s[pos] must be a digit
 * so a segment costs O(tokens x length) however it could split.
 */
static void
seg_table(struct match_state *ms, const struct layout_seg *seg, const char *s,
    size_t len, bool tail)
{
	size_t w = len + 1, ti, pos;
	unsigned char *ok;

	if ((seg->ntoks + 1) * w > ms->ok_alloc) {
		ms->ok_alloc = (seg->ntoks + 1) * w;
		ms->ok = xrealloc(ms->ok, ms->ok_alloc);
	}
	ok = ms->ok;
	memset(ok + seg->ntoks * w, 0, w);
	ok[seg->ntoks * w + len] = tail;
	for (ti = seg->ntoks; ti-- > 0;) {
		const struct layout_tok *t = &seg->toks[ti];
		unsigned char *row = ok + ti * w, *next = row + w;

		if (t->kind == TOK_LIT) {
			size_t tl = strlen(t->text);

			for (pos = 0; pos <= len; pos++)
				row[pos] = tl <= len - pos &&
				    !memcmp(s + pos, t->text, tl) &&
				    next[pos + tl];
			continue;
		}
		row[len] = t->kind == TOK_STAR && next[len];
		for (pos = len; pos-- > 0;) {
			if (t->kind == TOK_STAR)
				row[pos] = next[pos] || row[pos + 1];
			else if (t->kind == TOK_TRIAL &&
			    !isdigit((unsigned char)s[pos]))
				row[pos] = 0;
			else
				row[pos] = next[pos + 1] || row[pos + 1];
		}
	}
}

/* Pattern segments [pi..) against path segments [si..), both to the end
 * (memoised; no captures). */
static bool
match_segs(struct match_state *ms, size_t pi, size_t si)
{
	const struct layout_seg *seg;
	signed char *m = &ms->memo[pi * (ms->nsegs + 1) + si];
	bool tail;

	if (pi == ms->lay->nsegs)
		return si == ms->nsegs;
	if (*m >= 0)
		return *m;
	seg = &ms->lay->segs[pi];
	*m = 0;
	if (seg->ntoks == 1 && seg->toks[0].kind == TOK_DSTAR) {
		size_t k;

		for (k = si; k <= ms->nsegs && !*m; k++)
			if (match_segs(ms, pi + 1, k))
				*m = 1;
		return *m;
	}
	if (si == ms->nsegs)
		return false;
	tail = match_segs(ms, pi + 1, si + 1);
	if (tail) {
		size_t len = strlen(ms->segs[si]);

		seg_table(ms, seg, ms->segs[si], len, tail);
		m = &ms->memo[pi * (ms->nsegs + 1) + si];
		*m = (signed char)ms->ok[0 * (len + 1) + 0];
	}
	return *m;
}

/*
 * Record the captures of the match of segments [pi..) from path segment
 * si, which match_segs() found: the first match the order "{**} as few
 * folders as it can, each placeholder as few characters as it can, left
 * to right" gives.
 */
static void
capture_segs(struct match_state *ms, size_t pi, size_t si)
{
	while (pi < ms->lay->nsegs) {
		const struct layout_seg *seg = &ms->lay->segs[pi];
		const char *s;
		size_t len, w, ti, pos = 0;

		if (seg->ntoks == 1 && seg->toks[0].kind == TOK_DSTAR) {
			size_t k = si;

			while (!match_segs(ms, pi + 1, k))
				k++;
			pi++;
			si = k;
			continue;
		}
		s = ms->segs[si];
		len = strlen(s);
		w = len + 1;
		seg_table(ms, seg, s, len, true);
		for (ti = 0; ti < seg->ntoks; ti++) {
			const struct layout_tok *t = &seg->toks[ti];
			const unsigned char *next = ms->ok + (ti + 1) * w;
			size_t n;

			if (t->kind == TOK_LIT) {
				pos += strlen(t->text);
				continue;
			}
			n = t->kind == TOK_STAR ? 0 : 1;
			while (!next[pos + n])
				n++;
			ms->caps[ms->ncaps].tok = t;
			ms->caps[ms->ncaps].at = s + pos;
			ms->caps[ms->ncaps].len = n;
			ms->ncaps++;
			pos += n;
		}
		pi++;
		si++;
	}
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
	ms.memo = xmalloc(lay->nsegs * (ms.nsegs + 1) + 1);
	memset(ms.memo, -1, lay->nsegs * (ms.nsegs + 1) + 1);
	/* Unanchored: the pattern may start at any folder, last tried first
	 * so the pattern covers the end of the path. */
	for (i = 0; i <= ms.nsegs && !matched; i++) {
		start = lay->anchored ? 0 : ms.nsegs - i;
		if (lay->anchored && i > 0)
			break;
		matched = match_segs(&ms, 0, start);
	}
	if (matched) {
		ms.ncaps = 0;
		capture_segs(&ms, 0, start);
		ret = 1;
		for (i = 0; i < ms.ncaps; i++) {
			if (apply_capture(&ms.caps[i], out, why)) {
				ret = -1;
				break;
			}
		}
	}
	free(ms.segs);
	free(ms.memo);
	free(ms.ok);
	free(copy);
	return ret;
}

bool
layout_anchored(const struct layout *lay)
{
	return lay->anchored;
}
