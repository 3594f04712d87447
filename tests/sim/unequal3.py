#!/usr/bin/python3
"""unequal3.py - why trials of 300, 300 and 40 covered above 98 % (delta
and ratio), and what the size-weighted rule of stats_tl_values does
(docs/research/coverage.md, docs/research/intervals.md), without the harness.  Dev-time
only (numpy, scipy):

    /usr/bin/python3 tests/sim/unequal3.py [REPS]

Lognormal sigma 0.3 samples, trial effect N(0, sigma_b) on the log
scale, paths A = 1.3 x B, type 7 percentiles, seed 14, REPS (default
4000) draws a design.  For each design, pool and percentile: coverage
of percentiles / delta / ratio under

- old: the trials' own percentiles with their plain spread (the rule
  before);
- new: pooled, the size- and drift-weighted standard error
  (DerSimonian-Laird tau^2, Hartung-Knapp scale, the estimate's
  weights n_t / N); --pool trials keeps the plain spread (its estimate
  weighs trials alike);
- tried (--pool trials only, not adopted): the same scale with the
  estimate's weights 1 / T.

The first line shows the diagnosis at sigma_b 0: how much more the
trial of 40's percentile varies than the others', its share of the
three's variance, and the plain standard error over the pooled
estimate's true standard deviation.
"""

import sys

import numpy as np
from scipy import stats

SIG = 0.3


def design(rng, ns, sb, R):
    out = []
    for scale in (1.3, 1.0):
        b = sb * rng.normal(size=(R, len(ns)))
        out.append([np.sort(scale * np.exp(b[:, t:t + 1] + SIG *
                                           rng.normal(size=(R, n))), axis=1)
                    for t, n in enumerate(ns)])
    return out


def truth(rng, ns, sb, p, pool):
    if pool == "pooled":
        return np.exp(stats.norm.ppf(p) * np.sqrt(SIG ** 2 + sb ** 2))
    s = 0
    for n in ns:
        x = np.sort(np.exp(SIG * rng.normal(size=(20000, n))), axis=1)
        s += np.quantile(x, p, axis=1).mean()
    return np.exp(sb ** 2 / 2) * s / len(ns)


def values(tr, p, pool, rule):
    """Estimate and squared standard error of each draw."""
    T = len(tr)
    n = np.array([x.shape[1] for x in tr], float)
    N = n.sum()
    u = np.stack([np.quantile(x, p, axis=1) for x in tr], 1)
    plain = u.var(1, ddof=1) / T
    allx = np.sort(np.concatenate(tr, 1), axis=1)
    if pool == "trials":
        est, wt = u.mean(1), np.full(T, 1 / T)
        if rule != "tried":
            return est, plain
    else:
        est, wt = np.quantile(allx, p, axis=1), n / N
        if rule == "old":
            return est, plain
    h = max(np.sqrt(p * (1 - p) / N), 1 / N)
    slope = (np.quantile(allx, p + h, axis=1) -
             np.quantile(allx, p - h, axis=1)) / (2 * h)
    c = slope ** 2 * p * (1 - p)
    w0 = n[None, :] / c[:, None]
    m0 = (w0 * u).sum(1) / w0.sum(1)
    Q = (w0 * (u - m0[:, None]) ** 2).sum(1)
    tau2 = np.maximum(0, (Q - (T - 1)) / (w0.sum(1) - (w0 ** 2).sum(1) /
                                          w0.sum(1)))
    v = tau2[:, None] + c[:, None] / n[None, :]
    w = 1 / v
    mw = (w * u).sum(1) / w.sum(1)
    s2 = (w * (u - mw[:, None]) ** 2).sum(1) / (T - 1)
    return est, s2 * (wt ** 2 * v).sum(1)


def cover(ea, va, eb, vb, T, ta, tb):
    h = stats.t.ppf(0.975, T - 1) * np.sqrt(va)
    c1 = np.mean((ea * np.exp(-h / ea) <= ta) & (ta <= ea * np.exp(h / ea)))
    out = [c1]
    for ratio in (False, True):
        a, b = (va / ea ** 2, vb / eb ** 2) if ratio else (va, vb)
        df = (a + b) ** 2 / (a ** 2 / (T - 1) + b ** 2 / (T - 1))
        half = stats.t.ppf(0.975, df) * np.sqrt(a + b)
        err = np.log(ea / eb) - np.log(ta / tb) if ratio else \
            ea - eb - (ta - tb)
        out.append(np.mean(np.abs(err) <= half))
    return out


def main():
    R = int(sys.argv[1]) if len(sys.argv) > 1 else 4000
    rng = np.random.default_rng(14)
    A, _ = design(rng, (300, 300, 40), 0.0, R)
    u = np.stack([np.quantile(x, 0.5, axis=1) for x in A], 1)
    var = u.var(0)
    allx = np.sort(np.concatenate(A, 1), axis=1)
    print("300/300/40, sigma_b 0, p50: the trial of 40's value varies "
          "%.1fx the others', %.0f %% of the three's variance; plain se / sd "
          "of the pooled estimate = %.2f" % (
              var[2] / var[:2].mean(), 100 * var[2] / var.sum(),
              np.sqrt(np.mean(u.var(1, ddof=1) / 3)) /
              np.quantile(allx, 0.5, axis=1).std()))
    for ns, sb in (((300, 300, 40), 0.0), ((300, 300, 40), 0.3),
                   ((300, 150, 75), 0.1), ((300, 300, 300), 0.1)):
        A, B = design(rng, ns, sb, R)
        for pool in ("pooled", "trials"):
            for p in (.25, .5, .75):
                ta = 1.3 * truth(rng, ns, sb, p, pool)
                row = []
                for rule in ("old", "new") + (("tried",) if
                                               pool == "trials" else ()):
                    ea, va = values(A, p, pool, rule)
                    eb, vb = values(B, p, pool, rule)
                    row.append("%s %.1f / %.1f / %.1f" % ((rule,) + tuple(
                        100 * np.array(cover(ea, va, eb, vb, len(ns), ta,
                                             ta / 1.3)))))
                print("%-16s σ_b %-4g %-7s p%g: %s" % (
                    "/".join(map(str, ns)), sb, pool, 100 * p,
                    "   ".join(row)))


if __name__ == "__main__":
    main()
