#!/usr/bin/python3
"""welch3.py - the coverage of the trial-level contrast interval
(stats_tl_contrast: Welch's t on the trials' values) on 3 + 3 normal
trial values, without the harness's samples, for docs/research/coverage.md
("What is still outside the band").  Dev-time only (numpy, scipy):

    /usr/bin/python3 tests/sim/welch3.py

Two designs, 200,000 draws each, seed 14:
- equal: 3 + 3 values of equal variance (any balanced cell);
- unequal: each side's 3 values with standard deviations 1/sqrt(n_t),
  n_t = 300, 300, 40 (the cell unequal-300-300-40 without a trial
  effect, where a trial's value varies as 1/n_t).
For each: Welch's t quantile at the Welch-Satterthwaite df (what
pathstat prints), Student's at df 2T - 2 = 4 (what was tried), and the
share of draws whose Welch df is below 2.5.
"""

import numpy as np
from scipy import stats

R = 200000


def cover(sd, rng):
    a = rng.normal(size=(R, len(sd))) * sd
    b = rng.normal(size=(R, len(sd))) * sd
    t = len(sd)
    va = a.var(1, ddof=1) / t
    vb = b.var(1, ddof=1) / t
    se = np.sqrt(va + vb)
    df = (va + vb) ** 2 / (va ** 2 / (t - 1) + vb ** 2 / (t - 1))
    d = np.abs(a.mean(1) - b.mean(1))
    welch = np.mean(d <= stats.t.ppf(0.975, df) * se)
    student = np.mean(d <= stats.t.ppf(0.975, 2 * t - 2) * se)
    return welch, student, np.mean(df < 2.5)


def main():
    rng = np.random.default_rng(14)
    for name, sd in (("equal", np.ones(3)),
                     ("unequal", 1 / np.sqrt([300.0, 300.0, 40.0]))):
        w, s, low = cover(sd, rng)
        print("%-8s Welch %.1f %%  Student (df 4) %.1f %%  df < 2.5 in "
              "%.1f %%" % (name, 100 * w, 100 * s, 100 * low))


if __name__ == "__main__":
    main()
