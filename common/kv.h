/*
 * kv.h - a small set of key=value pairs kept sorted by key: run tags and
 * conditions.  The condition grammar ({cond} in layouts, "condition" in
 * meta.json, --where/--across values) lives here because ingest and
 * analyze both speak it.
 */
#ifndef PATHSTAT_COMMON_KV_H
#define PATHSTAT_COMMON_KV_H

#include "common/compat.h"

struct strbuf;

struct kv {
	char	*key;	/* owned */
	char	*value;	/* owned */
};

struct kvset {
	struct kv	*items;	/* sorted by key, keys unique */
	size_t		n;	/* items used */
	size_t		alloc;	/* items allocated */
};

#define KVSET_INIT { NULL, 0, 0 }

void kvset_init(struct kvset *s);
void kvset_release(struct kvset *s);
/* Set key to value (copies both), replacing an existing value. */
void kvset_set(struct kvset *s, const char *key, const char *value);
/* Borrowed value of key, or NULL. */
const char *kvset_get(const struct kvset *s, const char *key);
bool kvset_remove(struct kvset *s, const char *key);
/* Copy every pair of src into dst; src wins on a shared key. */
void kvset_merge(struct kvset *dst, const struct kvset *src);
void kvset_copy(struct kvset *dst, const struct kvset *src);
/* Append "k=v<sep>k=v" (sorted) to sb. */
void kvset_join(const struct kvset *s, struct strbuf *sb, const char *sep);

/* A key or value that is safe in the canonical form: 1 to 256 bytes of
 * valid UTF-8, no ',', '=', ';', control characters (utf8_is_control():
 * C0, C1, bidirectional) or surrounding blanks. */
bool kv_valid_key(const char *key);
bool kv_valid_value(const char *value);

/*
 * The one grammar of path IDs, used wherever an ID enters: ingest
 * (meta.json, --layout, --tag), analyze --paths and delta pairs, report
 * specs.  Anything an ID may hold must come back through all of them,
 * so the commands in a bundle's provenance.json run as written.
 */
#define PATH_ID_MAX	256
#define PATH_ID_RULE	"1 to 256 bytes of UTF-8 text with no ',' (it " \
	"separates lists such as --paths A,B), no control characters (C0, " \
	"C1 or bidirectional: U+202E and the like make one ID look like " \
	"another) and no blank at either end"
bool path_id_valid(const char *id);

/*
 * Parse a condition in the {cond} grammar and add its keys to out:
 * tokens split on '_' and ','; each is k=v, ka-on/ka-off (any "name-value"
 * becomes name=value), cN -> c=N, PN -> P=N, bRATE -> b=RATE (iperf3's
 * -b target bitrate: 200M, 1G, 0; see cond_rate_canon()), a size (1k,
 * 1m, 1024b, 2g) -> size=..., tcp/udp -> proto, reverse/R ->
 * dir=reverse, bidir -> dir=bidir.  Returns 0, or -1 with a reason
 * written to why.
 */
int cond_parse(const char *text, struct kvset *out, struct strbuf *why);

/*
 * One token of that grammar (no '_' or ','): set its key in out and
 * return 0; return 1, setting nothing, when the grammar does not know
 * the token (ingest keeps such tokens as a tag); -1 with the reason in
 * why when it is known but its key or value is unsafe.
 */
int cond_token_parse(const char *tok, struct kvset *out, struct strbuf *why);

/*
 * The canonical text of an iperf3 -b rate (bit/s, decimal suffixes as
 * iperf3 reads them: k/K = 10^3, m/M = 10^6, g/G = 10^9, t/T = 10^12):
 * the largest suffix that keeps the number whole, upper case ("200M",
 * "1500M" for 1.5G, "0", "1048576").  Writes it to out (size bytes)
 * and returns 0; -1 when rate is not such a number.
 */
int cond_rate_canon(const char *rate, char *out, size_t size);

#endif
