/*
 * fuzz-chart.c - libFuzzer target: the chart axis code (report/chart.h)
 * fed the values a probe CSV may hold and worse: the bytes as doubles
 * (extreme, subnormal, infinite, NaN, constant series), through the
 * log axis tics and floors and the ends the bar and line charts derive
 * from them, and the unit choice.  Every call must return (make fuzz
 * runs it under -timeout: one row of 1e308 or 5e-324 used to loop
 * forever), write a bounded number of tics and never an
 * "inf" or "nan" into a gnuplot script.  Seeds: tests/fuzz/corpus/chart/.
 */
#include "common/compat.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/metric.h"
#include "common/strbuf.h"
#include "common/units.h"
#include "report/chart.h"

/* At most this many tics on one axis (30 decades, or 1-2-5 steps over
 * 13 decades). */
#define MAX_TICS	64

static void
check_tics(double lo, double hi)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = 0;
	const char *p;

	chart_log_tics(&sb, "y", lo, hi);
	for (p = sb.buf; *p; p++)
		if (*p == '\'')
			n++;
	if (n / 2 > MAX_TICS || strstr(sb.buf, "inf") ||
	    strstr(sb.buf, "nan"))
		abort();
	strbuf_release(&sb);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	double v[64], lo = INFINITY, hi = -INFINITY, f;
	size_t n = size / sizeof(double), i;
	struct unit_choice u;

	if (n > 64)
		n = 64;
	if (!n)
		return 0;
	memcpy(v, data, n * sizeof(double));
	for (i = 0; i < n; i++)
		if (isfinite(v[i]) && v[i] > 0) {
			lo = fmin(lo, v[i]);
			hi = fmax(hi, v[i]);
		}
	/* the raw pairs, then what the bar and line charts make of them */
	for (i = 0; i + 1 < n; i++)
		check_tics(v[i], v[i + 1]);
	if (isfinite(lo)) {
		f = chart_log_floor(lo / sqrt(10.0));
		if (!(f > 0) || f > lo)
			abort();
		check_tics(f, chart_finite(hi * 2.0));
		check_tics(chart_log_floor(lo / 1.5), chart_finite(hi * 1.5));
		check_tics(lo, hi);
		if (!isfinite(chart_finite(hi * 1e300)))
			abort();
	}
	units_choose_values(metric_by_name("connect_ms"), NULL, v, n, true,
	    &u);
	units_choose_values(metric_by_name("throughput_bps"), NULL, v, n,
	    true, &u);
	return 0;
}
