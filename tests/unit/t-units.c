/*
 * t-units.c - unit tests for common/units.c and the text renderer of
 * common/table_text.c: the unit a table shows a bit rate in (the
 * largest step where the largest value is at least 1), forced units and
 * the ones a metric refuses, 3 significant digits, the stored unit for
 * machine text, and text tables without Markdown escapes.
 */
#include "common/compat.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/metric.h"
#include "common/strbuf.h"
#include "common/table.h"
#include "common/units.h"
#include "tests/unit/harness.h"

/* Stored value v of m, chosen from max, as the table shows it. */
static void
shown(const char *metric, const char *forced, double max, double v,
    const char *want_unit, const char *want_text, const char *what)
{
	struct strbuf sb = STRBUF_INIT;
	struct unit_choice u;

	units_choose(metric_by_name(metric), forced, max, false, &u);
	units_format(&sb, &u, v);
	CHECK_EQ_STR(u.name, want_unit, what);
	CHECK_EQ_STR(sb.buf, want_text, what);
	strbuf_release(&sb);
}

static void
test_choose(void)
{
	shown("throughput_bps", NULL, 51.4e6, 50.3e6, "Mbit/s", "50.3",
	    "50 Mbit/s: Mbit/s, 50.3");
	shown("throughput_bps", NULL, 102e6, 99.61e6, "Mbit/s", "99.6",
	    "100 Mbit/s: 99.6");
	shown("throughput_bps", NULL, 24.6e9, 50.33e6, "Gbit/s", "0.0503",
	    "beside 24 Gbit/s: 0.0503 Gbit/s");
	shown("throughput_bps", NULL, 24.6e9, 24.12e9, "Gbit/s", "24.1",
	    "24.1 Gbit/s");
	shown("throughput_bps", NULL, 999e3, 512e3, "kbit/s", "512",
	    "kbit/s below 1 Mbit/s");
	shown("throughput_bps", NULL, 900, 850, "bit/s", "850",
	    "bit/s below 1 kbit/s");
	shown("throughput_bps", NULL, 1e13, 1.2e13, "Gbit/s", "12000",
	    "Gbit/s is the largest step: integer digits kept");
	shown("throughput_bps", NULL, NAN, 1e9, "Gbit/s", "1.00",
	    "no data: the registry's display unit");
	shown("throughput_bps", "kbit/s", 51e6, 50.3316e6, "kbit/s", "50332",
	    "forced kbit/s");
	shown("throughput_bps", "Gbit/s", 51e6, 50.3e6, "Gbit/s", "0.0503",
	    "forced Gbit/s");
	shown("throughput_bps", "auto", 51e6, 50.3e6, "Mbit/s", "50.3",
	    "auto chooses");
	shown("connect_ms", NULL, 12.0, 0.2104, "ms", "0.210",
	    "fixed metrics keep their decimals");
	shown("throughput_bps", NULL, 51e6, -2.01e5, "Mbit/s", "-0.201",
	    "negative differences: 3 significant digits");
	shown("throughput_bps", NULL, 51e6, 0, "Mbit/s", "0", "zero");
}

static void
test_check(void)
{
	struct strbuf why = STRBUF_INIT;

	CHECK(units_check(NULL, "Mbit/s", &why) == 0, "Mbit/s is a unit");
	CHECK(units_check(NULL, NULL, &why) == 0, "no unit: auto");
	CHECK(units_check(NULL, "Mbps", &why) != 0 &&
	    strstr(why.buf, "bit/s, kbit/s, Mbit/s, Gbit/s"),
	    "Mbps is not, and the valid ones are named");
	strbuf_reset(&why);
	CHECK(units_check(metric_by_name("connect_ms"), "Gbit/s", &why) != 0 &&
	    strstr(why.buf, "connect_ms is shown in ms only"),
	    "connect_ms cannot be shown in Gbit/s");
	strbuf_reset(&why);
	CHECK(units_check(metric_by_name("throughput_bps"), "ms", &why) != 0,
	    "throughput cannot be shown in ms");
	CHECK(units_check(metric_by_name("connect_ms"), "ms", &why) == 0,
	    "connect_ms in ms");
	strbuf_release(&why);
}

static void
test_machine(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct unit_choice u;

	units_machine(metric_by_name("throughput_bps"), &u);
	units_format(&sb, &u, 50331925.5);
	CHECK_EQ_STR(sb.buf, "50331926", "machine text: whole bit/s");
	strbuf_reset(&sb);
	units_machine(metric_by_name("connect_ms"), &u);
	units_format(&sb, &u, 0.21049);
	CHECK_EQ_STR(sb.buf, "0.210", "machine text: ms with 3 decimals");
	strbuf_release(&sb);
}

static void
test_text_table(void)
{
	struct table t;
	struct strbuf sb = STRBUF_INIT;
	size_t r;

	table_init(&t);
	table_add_col(&t, "path", "Path", -1);
	table_add_col(&t, "metric", "Metric", -1);
	table_add_col(&t, "p50", "p50 (Mbit/s)", -1);
	r = table_add_row(&t);
	table_set_str(&t, r, 0, "S");
	table_set_str(&t, r, 1, "connect_ms");
	table_set_num(&t, r, 2, 50.3);
	table_set_display_raw(&t, r, 2, "50.3");
	r = table_add_row(&t);
	table_set_str(&t, r, 0, "T\x1b[31m");
	table_set_str(&t, r, 1, "");
	table_set_num(&t, r, 2, 102);
	table_add_note(&t, "p < 0.05 and connect_ms");
	table_render_sb(&t, TABLE_TEXT, &sb);
	CHECK_EQ_STR(sb.buf,
	    "Path    Metric      p50 (Mbit/s)\n"
	    "------  ----------  ------------\n"
	    "S       connect_ms          50.3\n"
	    "T [31m  –                  102.0\n"
	    "\n"
	    "p < 0.05 and connect_ms\n",
	    "aligned, numbers right, no escapes, control bytes made spaces");
	strbuf_reset(&sb);
	table_render_sb(&t, TABLE_MD, &sb);
	CHECK(strstr(sb.buf, "connect\\_ms") && strstr(sb.buf, "p \\< 0.05"),
	    "Markdown keeps its escapes");
	table_release(&t);
	strbuf_release(&sb);
}

int
main(void)
{
	test_choose();
	test_check();
	test_machine();
	test_text_table();
	return test_done();
}
