/*
 * t-suggest.c - unit tests for common/suggest.c: the optimal string
 * alignment distance against hand-worked cases (a swap costs 1, case is
 * ignored, the limit cuts the count short), the near-miss rule on the
 * typos users made (instancetype, analyse, connect, c6i.lrge)
 * and on names that must not be suggested (one-letter paths, nonsense).
 */
#include "common/compat.h"

#include <stdio.h>
#include <string.h>

#include "common/strbuf.h"
#include "common/suggest.h"
#include "tests/unit/harness.h"

static void
test_distance(void)
{
	CHECK_EQ_INT(suggest_distance("", "", 3), 0, "empty strings");
	CHECK_EQ_INT(suggest_distance("abc", "", 3), 3, "deletions");
	CHECK_EQ_INT(suggest_distance("", "ab", 3), 2, "insertions");
	CHECK_EQ_INT(suggest_distance("kitten", "sitting", 5), 3,
	    "kitten/sitting is 3");
	CHECK_EQ_INT(suggest_distance("analyse", "analyze", 3), 1,
	    "one substitution");
	CHECK_EQ_INT(suggest_distance("trail", "trial", 3), 1,
	    "a swap of neighbours costs 1");
	/* OSA, not full Damerau: "ca" -> "abc" is 3 (no edit of a swap) */
	CHECK_EQ_INT(suggest_distance("ca", "abc", 5), 3,
	    "optimal string alignment: ca/abc is 3");
	CHECK_EQ_INT(suggest_distance("P", "p", 3), 0, "case is ignored");
	CHECK_EQ_INT(suggest_distance("percentiles", "x", 2), 3,
	    "beyond the limit reads as limit + 1");
	CHECK_EQ_INT(suggest_distance("abcdef", "ghijkl", 2), 3,
	    "cut short when every row is beyond the limit");
	CHECK_EQ_INT(suggest_distance("connect", "connect_ms", 3), 3,
	    "three insertions");
}

static void
test_near(void)
{
	CHECK(suggest_near("instancetype", "instance_type"),
	    "a dropped separator is near");
	CHECK(suggest_near("instance-type", "instance_type"),
	    "another separator is near");
	CHECK(suggest_near("analyse", "analyze"), "analyse is near analyze");
	CHECK(suggest_near("connect", "connect_ms"), "connect is near connect_ms");
	CHECK(suggest_near("c6i.lrge", "c6i.large"), "a dropped letter");
	CHECK(suggest_near("throughput", "throughput_bps"),
	    "the name up to a separator is near");
	CHECK(!suggest_near("th", "throughput_bps"),
	    "... but not two letters of it");
	CHECK(!suggest_near("through", "throughput_bps"),
	    "... nor a prefix that stops inside a word");
	CHECK(suggest_near("Throughput_bps", "throughput_bps"), "case");
	CHECK(!suggest_near("analyze", "analyze"), "an exact match is no miss");
	CHECK(!suggest_near("Q", "P"), "one-letter names are not near");
	CHECK(!suggest_near("nonsense", "instance"), "nonsense is near nothing");
	CHECK(!suggest_near("rps", "http_ms"), "short and far");
	CHECK(!suggest_near("", "a"), "the empty name is near nothing");
}

static void
test_best(void)
{
	const char *const cmds[] = { "analyze", "check", "export", "ingest",
	    "keys", "report", "runs" };
	const char *const metrics[] = { "connect_ms", "http_ms",
	    "throughput_bps", "jitter_ms", "loss_pct", "retransmits", "rps",
	    "handshake_ms", "path_mtu" };
	const char *const keys[] = { "path", "trial", "tool", "P", "c",
	    "instance_type", "region", NULL, "instance" };
	struct strbuf sb = STRBUF_INIT;

	CHECK_EQ_STR(suggest_best("analyse", cmds, ARRAY_SIZE(cmds)),
	    "analyze", "analyse -> analyze");
	CHECK_EQ_STR(suggest_best("run", cmds, ARRAY_SIZE(cmds)), "runs",
	    "run -> runs");
	CHECK(suggest_best("frobnicate", cmds, ARRAY_SIZE(cmds)) == NULL,
	    "no suggestion for a far name");
	CHECK_EQ_STR(suggest_best("connect", metrics, ARRAY_SIZE(metrics)),
	    "connect_ms", "connect -> connect_ms");
	CHECK_EQ_STR(suggest_best("throughput", metrics, ARRAY_SIZE(metrics)),
	    "throughput_bps", "throughput -> throughput_bps");
	CHECK_EQ_STR(suggest_best("jitter", metrics, ARRAY_SIZE(metrics)),
	    "jitter_ms", "jitter -> jitter_ms");
	CHECK_EQ_STR(suggest_best("instancetype", keys, ARRAY_SIZE(keys)),
	    "instance_type", "the separator match wins over instance");
	CHECK_EQ_STR(suggest_best("trail", keys, ARRAY_SIZE(keys)), "trial",
	    "trail -> trial (NULL entries skipped)");
	CHECK(suggest_append(&sb, "analyse", cmds, ARRAY_SIZE(cmds)),
	    "suggest_append says it appended");
	CHECK_EQ_STR(sb.buf, "; did you mean 'analyze'?", "the appended text");
	strbuf_reset(&sb);
	CHECK(!suggest_append(&sb, "zzz", cmds, ARRAY_SIZE(cmds)) && !sb.len,
	    "nothing appended without a near miss");
	strbuf_release(&sb);
}

int
main(void)
{
	test_distance();
	test_near();
	test_best();
	return test_done();
}
