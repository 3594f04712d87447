/*
 * fuzz-from-csv.c - libFuzzer target: any bytes as the CSV an engine
 * wrote for a report section (report_table_from_csv()), read as the
 * table of a percentiles section of connect_ms per trial with p50, max
 * and n (the first byte odd), else of a delta section of http_ms.
 * Nothing may crash or leak; a refusal prints its reason on stderr (run
 * with -close_fd_mask=2 to hide them).  Seeds: tests/fuzz/corpus/from-csv/.
 */
#include "common/compat.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/analyze.h"
#include "common/strbuf.h"
#include "report/internal.h"

/* As fuzz-spec.c: one unlinked temporary file, read through /proc. */
static char csv_path[64];

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	struct report_spec spec;
	struct report_section s;
	struct analyze_opts o;
	struct strbuf why = STRBUF_INIT;
	struct table t;
	bool pct = size > 0 && (data[0] & 1);

	if (fd < 0) {
		const char *tmp = getenv("TMPDIR");
		char tmpl[4096];

		snprintf(tmpl, sizeof(tmpl), "%s/pathstat-fuzz-csv-XXXXXX",
		    tmp && *tmp ? tmp : "/tmp");
		fd = mkstemp(tmpl);
		if (fd < 0)
			abort();
		unlink(tmpl);
		snprintf(csv_path, sizeof(csv_path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	memset(&spec, 0, sizeof(spec));
	memset(&s, 0, sizeof(s));
	spec.file = (char *)"fuzz.json";
	s.type = REPORT_SEC_VERB;
	s.loc = (char *)"sections[0]";
	s.verb = (char *)(pct ? "percentiles" : "delta");
	s.metric = (char *)(pct ? "connect_ms" : "http_ms");
	s.from_csv = csv_path;
	analyze_opts_init(&o);
	analyze_option_set(analyze_option_find("metric"), &o, s.metric, &why);
	if (pct) {
		analyze_option_set(analyze_option_find("pool"), &o, "trials",
		    &why);
		analyze_option_set(analyze_option_find("stats"), &o,
		    "p50,max,n", &why);
	}
	table_init(&t);
	report_table_from_csv(&spec, &s, &o, &t);
	table_release(&t);
	analyze_opts_release(&o);
	strbuf_release(&why);
	return 0;
}
