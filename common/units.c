/*
 * units.c - choosing and formatting the unit a table or chart shows a
 * metric in (see units.h).  One place for the rule, so analyze's tables,
 * compare, trend, trials and report's tables and charts agree: a 50
 * Mbit/s path reads "50.0" under "Mbit/s", never "0.05" under "Gbit/s".
 */
#include "common/compat.h"

#include <math.h>
#include <string.h>

#include "common/metric.h"
#include "common/strbuf.h"
#include "common/table.h"
#include "common/units.h"

/* The BITRATE family, smallest first (SI steps of 1000). */
static const struct {
	const char	*name;
	double		scale;
} bitrate[] = {
	{ "bit/s", 1.0 },
	{ "kbit/s", 1e-3 },
	{ "Mbit/s", 1e-6 },
	{ "Gbit/s", 1e-9 },
};

const char *
units_all(void)
{
	return "auto, bit/s, kbit/s, Mbit/s, Gbit/s, ms, %, count, req/s, "
	    "bytes";
}

static bool
is_auto(const char *name)
{
	return !name || !*name || !strcmp(name, "auto");
}

/* Index of a BITRATE unit name, or -1. */
static int
bitrate_index(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bitrate); i++)
		if (!strcmp(bitrate[i].name, name))
			return (int)i;
	return -1;
}

static bool
is_fixed_unit(const char *name)
{
	size_t i, n;
	const struct metric *m = metric_list(&n);

	for (i = 0; i < n; i++)
		if (m[i].family == METRIC_FAMILY_FIXED &&
		    !strcmp(m[i].display_unit, name))
			return true;
	return false;
}

int
units_check(const struct metric *m, const char *name, struct strbuf *why)
{
	if (is_auto(name))
		return 0;
	if (!m) {
		if (bitrate_index(name) >= 0 || is_fixed_unit(name))
			return 0;
		strbuf_addf(why, "want %s", units_all());
		return -1;
	}
	if (m->family == METRIC_FAMILY_BITRATE) {
		if (bitrate_index(name) >= 0)
			return 0;
		strbuf_addf(why, "%s is shown in auto, bit/s, kbit/s, Mbit/s "
		    "or Gbit/s", m->name);
		return -1;
	}
	if (!strcmp(name, m->display_unit))
		return 0;
	strbuf_addf(why, "%s is shown in %s only (or auto)", m->name,
	    m->display_unit);
	return -1;
}

void
units_choose(const struct metric *m, const char *forced, double max_abs,
    bool chart, struct unit_choice *out)
{
	size_t i;
	int k;

	memset(out, 0, sizeof(*out));
	out->name = m->display_unit;
	out->scale = m->display_scale;
	out->decimals = chart ? m->display_decimals : m->decimals;
	if (m->family != METRIC_FAMILY_BITRATE) {
		out->forced = !is_auto(forced);
		return;
	}
	out->decimals = UNITS_SIG3;
	k = is_auto(forced) ? -1 : bitrate_index(forced);
	if (k >= 0) {
		out->name = bitrate[k].name;
		out->scale = bitrate[k].scale;
		out->forced = true;
		return;
	}
	/* the largest step in which the largest value is still >= 1: no
	 * value shows more than 3 integer digits, and none of a table's
	 * values needs a step of its own */
	out->name = bitrate[0].name;
	out->scale = bitrate[0].scale;
	if (!isfinite(max_abs) || max_abs <= 0) {
		/* nothing to show: the registry's display unit */
		out->name = m->display_unit;
		out->scale = m->display_scale;
		return;
	}
	for (i = 0; i < ARRAY_SIZE(bitrate); i++)
		if (max_abs * bitrate[i].scale >= 1.0 - 0.0005) {
			out->name = bitrate[i].name;
			out->scale = bitrate[i].scale;
		}
}

void
units_choose_values(const struct metric *m, const char *forced,
    const double *v, size_t n, bool chart, struct unit_choice *out)
{
	double mx = NAN;
	size_t i;

	for (i = 0; i < n; i++)
		if (isfinite(v[i]) && !(fabs(v[i]) <= mx))
			mx = fabs(v[i]);
	units_choose(m, forced, mx, chart, out);
}

void
units_machine(const struct metric *m, struct unit_choice *out)
{
	memset(out, 0, sizeof(*out));
	out->name = m->unit;
	out->scale = 1.0;
	out->decimals = m->family == METRIC_FAMILY_BITRATE ? 0 : m->decimals;
}

void
units_format(struct strbuf *sb, const struct unit_choice *u, double v)
{
	md_number(sb, v * u->scale, u->decimals);
}
