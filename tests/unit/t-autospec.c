/*
 * t-autospec.c - unit tests for the spec pathstat makes from the
 * database: its JSON printer (report_autospec_print), whose text cJSON
 * must read back as the same document, indented as a person would.
 * What the made spec holds is checked on real databases by
 * tests/cli/t3800-report-auto.sh.
 */
#include "common/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "common/strbuf.h"
#include "report/autospec.h"
#include "tests/unit/harness.h"

/* report_autospec_print's text reads back as the same document. */
static void
test_print(void)
{
	static const char *const docs[] = {
		"{}",
		"{\"title\": \"t\", \"intro\": [], \"sections\": [{}]}",
		"{\"a\": \"quote \\\" back \\\\ nl \\n tab \\t ctl \\u0001 "
		    "日本語 G'\", \"n\": 1.5, \"b\": [true, false, null, 2]}",
		"{\"where\": {\"day\": \"2026-08-28\", \"study\": \"\"}, "
		    "\"x\": {\"y\": {\"z\": [[], [{}], \"a very long string "
		    "that does not fit on one line with the others around "
		    "it\"]}}}",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(docs); i++) {
		struct strbuf sb = STRBUF_INIT;
		cJSON *in = cJSON_Parse(docs[i]), *back;
		char what[64];

		report_autospec_print(in, &sb);
		back = cJSON_Parse(sb.buf);
		snprintf(what, sizeof(what), "printed document %zu reads back "
		    "the same", i);
		CHECK(back && cJSON_Compare(in, back, 1), what);
		if (!back || !cJSON_Compare(in, back, 1))
			printf("#   printed: %s\n", sb.buf);
		CHECK(sb.len && sb.buf[sb.len - 1] == '\n' && !strchr(sb.buf,
		    '\t'), "it ends in a newline and indents with spaces");
		cJSON_Delete(in);
		cJSON_Delete(back);
		strbuf_release(&sb);
	}
	{
		struct strbuf sb = STRBUF_INIT;
		cJSON *in = cJSON_Parse("{\"sections\": [{\"type\": \"text\", "
		    "\"where\": {\"a\": \"1\"}}]}");

		report_autospec_print(in, &sb);
		CHECK_EQ_STR(sb.buf, "{\n  \"sections\": [\n    {\n      "
		    "\"type\": \"text\",\n      \"where\": { \"a\": \"1\" }\n"
		    "    }\n  ]\n}\n", "two-space indents; short flat objects "
		    "on one line");
		cJSON_Delete(in);
		strbuf_release(&sb);
	}
}

int
main(void)
{
	test_print();
	return test_done();
}
