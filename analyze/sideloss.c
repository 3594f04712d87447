/*
 * sideloss.c - each side's loss in delta and ratio tables.  Their
 * percentiles are of the completed attempts (successful probes or
 * requests): at a loss L a side's pX is its all-attempts p(X·(1 − L)),
 * so two sides that lose differently compare different percentiles of
 * what was attempted (A losing 2.2 %, B 1.0 %: Δp95 is A's p92.9 of
 * attempts minus B's p94.05).  The table carries each side's failures,
 * timeouts (connect probes) and loss %, and says where the shift is
 * larger than a tenth of the percentile's tail (100 − X).
 */
#include "common/compat.h"

#include <math.h>
#include <string.h>

#include "analyze/internal.h"
#include "analyze/verbs.h"
#include "common/strbuf.h"

/* A rank shift this share of the tail (100 − X) or more is said. */
#define SIDE_LOSS_TAIL_SHARE	0.1

static double
loss_pct(const struct cell *c)
{
	double tot;

	if (!c)
		return NAN;
	tot = (double)c->n + (double)c->failures;
	return tot > 0 ? 100.0 * (double)c->failures / tot : NAN;
}

void
side_loss_columns(struct table *t, const char *a, const char *b,
    bool connect)
{
	const char *side[2] = { a, b };
	struct strbuf k = STRBUF_INIT, h = STRBUF_INIT;
	size_t i;

	for (i = 0; i < 2; i++) {
		strbuf_reset(&k);
		strbuf_addf(&k, "failures_%s", side[i]);
		table_add_hidden_col(t, k.buf, k.buf, -1);
		if (connect) {
			strbuf_reset(&k);
			strbuf_addf(&k, "timeouts_%s", side[i]);
			table_add_hidden_col(t, k.buf, k.buf, -1);
		}
	}
	for (i = 0; i < 2; i++) {
		strbuf_reset(&k);
		strbuf_reset(&h);
		strbuf_addf(&k, "loss_pct_%s", side[i]);
		strbuf_addf(&h, "loss %% (%s)", side[i]);
		table_add_col(t, k.buf, h.buf, 1);
	}
	strbuf_release(&k);
	strbuf_release(&h);
}

/* Column what_side ("failures", "minuend": failures_minuend) of row. */
static void
set_col(struct table *t, size_t row, const char *what, const char *side,
    double v, bool is_int)
{
	struct strbuf k = STRBUF_INIT;
	long col;

	strbuf_addf(&k, "%s_%s", what, side);
	col = table_col(t, k.buf);
	if (col >= 0 && is_int)
		table_set_int(t, row, (size_t)col, (int64_t)v);
	else if (col >= 0)
		table_set_num(t, row, (size_t)col, v);
	strbuf_release(&k);
}

void
side_loss_fill(struct table *t, size_t row, const char *a, const char *b,
    const struct cell *ca, const struct cell *cb)
{
	const char *side[2] = { a, b };
	const struct cell *c[2] = { ca, cb };
	size_t i;

	for (i = 0; i < 2; i++) {
		if (!c[i])
			continue;
		set_col(t, row, "failures", side[i],
		    (double)c[i]->failures, true);
		set_col(t, row, "timeouts", side[i],
		    (double)c[i]->timeouts, true);
		set_col(t, row, "loss_pct", side[i], loss_pct(c[i]), false);
	}
}

void
side_loss_check(struct side_loss_warn *w, const struct analyze_opts *o,
    const char *label, const struct cell *a, const struct cell *b)
{
	double la = loss_pct(a), lb = loss_pct(b);
	size_t j;

	if ((isfinite(la) && la > 0) || (isfinite(lb) && lb > 0))
		w->any = true;
	if (!isfinite(la) || !isfinite(lb) || la == lb)
		return;
	for (j = 0; j < o->nstats; j++) {
		double x = o->stats[j].pct;

		if (o->stats[j].kind != STATS_NAME_PCT || x >= 100.0)
			continue;
		if (fabs(x * (la - lb) / 100.0) <
		    SIDE_LOSS_TAIL_SHARE * (100.0 - x))
			continue;
		if (w->n++ >= SIDE_LOSS_NAMED)
			continue;
		if (w->text.len)
			strbuf_addstr(&w->text, "; ");
		strbuf_addf(&w->text, "%s p%g: the %s's p%.4g of all attempts "
		    "against the %s's p%.4g (loss %.1f %% and %.1f %%)", label,
		    x, w->a, x * (1 - la / 100), w->b, x * (1 - lb / 100), la,
		    lb);
	}
}

void
side_loss_notes(struct table *t, const struct side_loss_warn *w)
{
	if (!w->any)
		return;
	table_add_note(t, "Target: each side's percentiles are of its "
	    "completed attempts (successes; failures, and for connect probes "
	    "timeouts, are left out and counted in failures_<side>, "
	    "timeouts_<side> and loss %% = failures / attempts); at a loss L "
	    "a side's pX is its all-attempts p(X·(1 − L)).");
	if (w->n)
		table_add_note(t, "The sides lose differently, so these compare "
		    "different percentiles of what was attempted (a shift of "
		    "%.0f %% of the tail or more): %s%s.",
		    SIDE_LOSS_TAIL_SHARE * 100, w->text.buf,
		    w->n > SIDE_LOSS_NAMED ? "; and more" : "");
}
