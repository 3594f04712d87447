/*
 * nested.c - a comparison whose unit of replication is the day (or any
 * group the trials are nested in): a t test on the sides' day values
 * (Student's with as many days a side, else Welch's), or a paired t on
 * the days both sides share.  Trials of one day share
 * its day effect, so counting them as independent takes a day-to-day
 * difference for one between the things compared (docs/research/verdicts.md,
 * "compare across days").  Pure functions; the contract is in stats.h.
 */
#include "common/compat.h"

#include <math.h>
#include <stddef.h>

#include "stats/stats.h"

static void
moments(const double *x, size_t n, double *mean, double *var)
{
	double s = 0, ss = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += x[i];
	*mean = s / (double)n;
	for (i = 0; i < n; i++)
		ss += (x[i] - *mean) * (x[i] - *mean);
	*var = n > 1 ? ss / (double)(n - 1) : NAN;
}

int
stats_day_contrast(const double *la, size_t na, const double *lb,
    size_t nb, bool paired, double level, struct stats_day_cmp *out)
{
	double ma, va, mb, vb, d, se, tq;

	out->ratio = out->lo = out->hi = out->p = out->df = NAN;
	out->paired = paired;
	if (paired) {
		/* la[i] and lb[i] are the same day's: the day effect cancels
		 * in their difference */
		double dsum = 0, dss = 0;
		size_t i;

		if (na != nb || na < 2)
			return -1;
		for (i = 0; i < na; i++)
			dsum += la[i] - lb[i];
		d = dsum / (double)na;
		for (i = 0; i < na; i++)
			dss += (la[i] - lb[i] - d) * (la[i] - lb[i] - d);
		se = sqrt(dss / (double)(na - 1) / (double)na);
		out->df = (double)(na - 1);
	} else {
		double qa, qb;

		if (na < 2 || nb < 2)
			return -1;
		moments(la, na, &ma, &va);
		moments(lb, nb, &mb, &vb);
		d = ma - mb;
		qa = va / (double)na;
		qb = vb / (double)nb;
		se = sqrt(qa + qb);
		/* as many days a side: Student's t, whose standard error is
		 * Welch's there and which keeps its level with unequal
		 * variances at equal sizes; Welch-Satterthwaite's df (as low
		 * as n - 1) cost a third of the power at 3 days a side
		 * (docs/research/verdicts.md) */
		if (na == nb || !(se > 0))
			out->df = (double)(na + nb - 2);
		else
			out->df = (qa + qb) * (qa + qb) / (qa * qa /
			    (double)(na - 1) + qb * qb / (double)(nb - 1));
	}
	out->ratio = exp(d);
	if (!(se > 0)) {
		/* no spread between days: nothing to test against */
		return -1;
	}
	tq = stats_t_quantile(0.5 + level / 2.0, out->df);
	out->lo = exp(d - tq * se);
	out->hi = exp(d + tq * se);
	out->p = 2.0 * (1.0 - stats_t_cdf(fabs(d) / se, out->df));
	return 0;
}
