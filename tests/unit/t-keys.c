/*
 * t-keys.c - run keys as ingest reads them from names and meta.json
 * (ingest/keys.c): tool aliases, condition tokens kept as the tag label,
 * what overlaying keys does to them, and the description of a change
 * between stored keys and new ones.
 */
#include "common/compat.h"

#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"
#include "ingest/tree.h"
#include "tests/unit/harness.h"

/* Set key=value on fresh keys; return the canonical text, or
 * "ERROR: why".  The caller frees. */
static char *
set_one(const char *key, const char *value, struct run_keys *out)
{
	struct strbuf why = STRBUF_INIT, canon = STRBUF_INIT;

	if (run_keys_set(out, key, value, &why))
		strbuf_addf(&canon, "ERROR: %s", why.buf);
	else
		run_keys_canon(out, &canon);
	strbuf_release(&why);
	return strbuf_detach(&canon, NULL);
}

static void
test_tokens(void)
{
	struct run_keys k;
	char *got;

	run_keys_init(&k);
	got = set_one("condition", "probe", &k);
	CHECK_EQ_STR(got, "path=|trial=-1|tool=pathprobe|cond=|tags=",
	    "'probe' in a condition is the tool pathprobe");
	CHECK_EQ_STR(k.tool_given, "probe", "the alias is remembered");
	CHECK(!k.unknown, "no unknown token");
	free(got);
	run_keys_release(&k);

	run_keys_init(&k);
	got = set_one("condition", "oha_c16", &k);
	CHECK_EQ_STR(got, "path=|trial=-1|tool=oha|cond=c=16|tags=",
	    "'oha' sets the tool, the rest is the condition");
	CHECK(!k.tool_given, "oha is no alias");
	free(got);
	run_keys_release(&k);

	run_keys_init(&k);
	got = set_one("condition", "udp_b200M_warm_bbr", &k);
	CHECK_EQ_STR(got, "path=|trial=-1|tool=|cond=b=200M,proto=udp|"
	    "tags=label=warm_bbr", "unknown tokens become the tag label, in "
	    "their order");
	CHECK_EQ_STR(k.unknown, "warm_bbr", "and are remembered");
	free(got);
	run_keys_release(&k);

	run_keys_init(&k);
	got = set_one("condition", "tcp_=v", &k);
	CHECK(!strncmp(got, "ERROR: condition token '=v'", 27),
	    "an unsafe token is still refused");
	CHECK_EQ_INT(k.cond.n, 0, "all or nothing: tcp is not set either");
	free(got);
	run_keys_release(&k);

	run_keys_init(&k);
	got = set_one("tool", "iperf", &k);
	CHECK_EQ_STR(k.tool, "iperf3", "tool iperf is iperf3");
	free(got);
	got = set_one("tool", "ping", &k);
	CHECK_EQ_STR(k.tool, "ping", "a tool pathstat does not read is kept "
	    "as written");
	CHECK(!k.tool_given, "and is no alias");
	free(got);
	run_keys_release(&k);

	CHECK_EQ_STR(ingest_tool_canon("probe"), "pathprobe", "probe");
	CHECK_EQ_STR(ingest_tool_canon("iperf3"), "iperf3", "iperf3");
	CHECK(!ingest_tool_canon("Probe"), "names are case-sensitive");
}

static void
test_merge(void)
{
	struct run_keys meta, lay;
	char *got;

	run_keys_init(&meta);
	run_keys_init(&lay);
	free(set_one("condition", "warm", &meta));
	free(set_one("condition", "P4_tcp", &lay));
	run_keys_merge(&meta, &lay);
	CHECK_EQ_STR(meta.unknown, "warm", "a layout without unknown tokens "
	    "keeps meta.json's");
	free(set_one("condition", "cold", &lay));
	run_keys_merge(&meta, &lay);
	CHECK_EQ_STR(meta.unknown, "cold", "a later source's label wins");
	free(set_one("label", "mine", &lay));
	got = set_one("path", "A", &lay);
	free(got);
	run_keys_merge(&meta, &lay);
	CHECK(!meta.unknown, "a label set as a tag is no unknown token");
	CHECK_EQ_STR(kvset_get(&meta.tags, "label"), "mine", "the tag wins");
	run_keys_release(&meta);
	run_keys_release(&lay);
}

static void
check_diff(const char *old, const char *key, const char *value,
    const char *want, const char *what)
{
	struct run_keys k;
	struct strbuf diff = STRBUF_INIT;

	run_keys_init(&k);
	free(set_one("path", "A", &k));
	free(set_one("trial", "1", &k));
	free(set_one("condition", "P4_tcp", &k));
	free(set_one("day", "2026-09-01", &k));
	if (key)
		free(set_one(key, value, &k));
	run_keys_diff(old, &k, &diff);
	CHECK_EQ_STR(diff.buf, want, what);
	run_keys_release(&k);
	strbuf_release(&diff);
}

static void
test_diff(void)
{
	const char *old = "path=A|trial=1|tool=|cond=P=4,proto=tcp|"
	    "tags=day=2026-09-01";

	check_diff(old, NULL, NULL, "", "the same keys: no difference");
	check_diff(old, "trial", "3", "trial: 1 -> 3", "a trial");
	check_diff(old, "region", "r1", "tag region: (none) -> r1",
	    "a tag added");
	check_diff(old, "day", "2026-09-02", "tag day: 2026-09-01 -> "
	    "2026-09-02", "a tag changed");
	check_diff(old, "condition", "P8", "condition P: 4 -> 8",
	    "a condition key changed");
	check_diff("path=B|trial=-1|tool=iperf3|cond=proto=tcp|tags=", "tool",
	    "probe", "path: B -> A, trial: (none) -> 1, tool: iperf3 -> "
	    "pathprobe, condition P: (none) -> 4, tag day: (none) -> "
	    "2026-09-01", "several at once, in order");
	check_diff("garbage", NULL, NULL, "keys 'garbage' -> 'path=A|trial=1|"
	    "tool=|cond=P=4,proto=tcp|tags=day=2026-09-01'",
	    "stored keys it cannot read are shown whole");
}

static void
test_describe(void)
{
	struct run_keys k;
	struct strbuf out = STRBUF_INIT;

	run_keys_init(&k);
	run_keys_describe(&k, NULL, &out);
	CHECK_EQ_STR(out.buf, "(no keys)", "no keys");
	strbuf_reset(&out);
	free(set_one("condition", "probe_weird", &k));
	free(set_one("path", "G'", &k));
	free(set_one("instance_type", "c6i.large", &k));
	run_keys_describe(&k, NULL, &out);
	CHECK_EQ_STR(out.buf, "path=G' tool=pathprobe "
	    "instance_type=c6i.large label=weird", "keys as --tag would "
	    "give them");
	run_keys_release(&k);
	strbuf_release(&out);
}

static void
test_meta(void)
{
	struct run_keys k;
	struct strbuf why = STRBUF_INIT;
	static const char meta[] = "{\"path\": \"B\", \"condition\": "
	    "\"probe_nightly\"}";

	run_keys_init(&k);
	CHECK_EQ_INT(meta_parse(meta, sizeof(meta) - 1, &k, &why), 0,
	    "a meta.json condition with a tool and an unknown token");
	CHECK_EQ_STR(k.tool, "pathprobe", "its tool");
	CHECK_EQ_STR(kvset_get(&k.tags, "label"), "nightly", "its label");
	run_keys_release(&k);
	strbuf_release(&why);
}

int
main(void)
{
	test_tokens();
	test_merge();
	test_diff();
	test_describe();
	test_meta();
	return test_done();
}
