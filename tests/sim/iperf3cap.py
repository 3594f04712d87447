#!/usr/bin/python3
"""iperf3cap.py - why the iperf3-3x30 cell's trial-level contrasts cover
above 98 % (docs/research/coverage.md, "What is still outside the band"), without
the harness.  Dev-time only (numpy, scipy):

    /usr/bin/python3 tests/sim/iperf3cap.py

The cell's design (tests/sim/coverage.c): 3 runs x 30 intervals, AR(1)
rho 0.8, lognormal sigma 0.1, sigma_b 0.05, capped at the 40th
percentile of the base (60 % of intervals at the cap), rounded to 0.001;
path A = 1.3 x B, caps included.  60,000 draws of each path, seed 14;
true values (mean of the trials' type 7 percentile) from 100,000 more.

For p25, p50, p75 under --pool trials: the share of draws where the
intervals are printed (no two trials of a cell on the same plateau:
stats_tl_withhold's rule), the Welch delta's and ratio's coverage among
them, and that coverage split by how many trials of A and of B have
their percentile on a plateau of ties (tied_at in stats/interval.c):
A1 B1 (one capped trial in each cell) is where the interval always
covers.
"""

import numpy as np
from scipy import stats

T, N, SB, SIG, RHO, CAPQ, GRAIN = 3, 30, 0.05, 0.1, 0.8, 0.4, 0.001


def draw(rng, scale, R):
    b = SB * rng.normal(size=(R, T, 1))
    z = np.empty((R, T, N))
    z[..., 0] = rng.normal(size=(R, T))
    c = np.sqrt(1 - RHO * RHO)
    for i in range(1, N):
        z[..., i] = RHO * z[..., i - 1] + c * rng.normal(size=(R, T))
    v = scale * np.exp(b) * np.exp(SIG * z)
    v = np.minimum(v, scale * np.exp(SIG * stats.norm.ppf(CAPQ)))
    return np.sort(np.floor(v / GRAIN + 0.5) * GRAIN, axis=2)


def tied(v, q, p):
    eq = (v == q[..., None]).sum(2)
    return (eq >= 2) & (eq >= 2 * np.sqrt(N * p * (1 - p)))


def shared(v, u, p):
    t = tied(v, u, p)
    s = np.zeros(len(u), bool)
    for i in range(T):
        for k in range(i):
            s |= t[:, i] & t[:, k] & (u[:, i] == u[:, k])
    return s, t.sum(1)


def main():
    rng = np.random.default_rng(14)
    R = 60000
    A, B = draw(rng, 1.3, R), draw(rng, 1.0, R)
    At, Bt = draw(rng, 1.3, 100000), draw(rng, 1.0, 100000)
    for p in (.25, .5, .75):
        ta = np.quantile(At, p, axis=2).mean()
        tb = np.quantile(Bt, p, axis=2).mean()
        ua, ub = np.quantile(A, p, axis=2), np.quantile(B, p, axis=2)
        sa, na = shared(A, ua, p)
        sb, nb = shared(B, ub, p)
        pr = ~sa & ~sb
        ea, eb = ua.mean(1), ub.mean(1)
        for ratio in (False, True):
            va, vb = ua.var(1, ddof=1) / T, ub.var(1, ddof=1) / T
            if ratio:
                va, vb = va / ea ** 2, vb / eb ** 2
            se = np.sqrt(va + vb)
            with np.errstate(all="ignore"):
                df = (va + vb) ** 2 / (va ** 2 / (T - 1) + vb ** 2 / (T - 1))
            tq = stats.t.ppf(0.975, np.where(np.isfinite(df), df, 4))
            if ratio:
                cov = np.abs(np.log(ea / eb) - np.log(ta / tb)) <= tq * se
            else:
                cov = np.abs(ea - eb - (ta - tb)) <= tq * se
            line = "p%g %-5s printed %4.1f %%  covers %5.1f %%" % (
                100 * p, "ratio" if ratio else "delta", 100 * pr.mean(),
                100 * cov[pr].mean())
            for k in range(2):
                for j in range(2):
                    m = pr & (na == k) & (nb == j)
                    if m.sum() >= 200:
                        line += "  [A%d B%d: %4.1f %% of draws, %5.1f %%]" % (
                            k, j, 100 * m.mean(), 100 * cov[m].mean())
            print(line)


if __name__ == "__main__":
    main()
