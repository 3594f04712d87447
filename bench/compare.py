#!/usr/bin/python3
"""compare.py - check that two sets of percentile rows agree.

  compare.py REFERENCE.json PATHSTAT.json...

REFERENCE is a JSON array of {path, condition, metric, n, and the
statistics} (bench/pandas_percentiles.py, or the SQL query's rows); each
PATHSTAT file is the output of `pathstat analyze percentiles --format
json`.  The statistics compared are the ones the pathstat row carries
(pNN, min, max, mean: analyze picks them per metric, e.g. p50, p5, p1
and min for throughput); each must be in the reference row too.  Prints
one line: cells compared, cells only on one side, n mismatches,
statistics missing from the reference, and the largest absolute and
relative difference.  Exit 1 if any cell, n or statistic differs or is
missing, or a relative difference exceeds 1e-9.
"""

import json
import re
import sys

STAT = re.compile(r"^(p[0-9]+(\.[0-9]+)?|min|max|mean)$")


def key(r):
    return (r["path"], r["condition"], r["metric"])


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: compare.py REFERENCE.json PATHSTAT.json...")
    with open(sys.argv[1]) as f:
        ref = {key(r): r for r in json.load(f)}
    ps = {}
    for p in sys.argv[2:]:
        with open(p) as f:
            for r in json.load(f):
                if r.get("n"):
                    ps[key(r)] = r
    metrics = {k[2] for k in ps}
    ref = {k: r for k, r in ref.items() if k[2] in metrics}
    only_ref = sorted(set(ref) - set(ps))
    only_ps = sorted(set(ps) - set(ref))
    both = sorted(set(ref) & set(ps))
    bad_n = [k for k in both if int(ref[k]["n"]) != int(ps[k]["n"])]
    max_abs = max_rel = 0.0
    worst = None
    missing = []
    for k in both:
        stats = [s for s in ps[k] if STAT.match(s)]
        if not stats:
            missing.append((k, "no statistic"))
        for s in stats:
            if s not in ref[k]:
                missing.append((k, s))
                continue
            a, b = float(ref[k][s]), float(ps[k][s])
            d = abs(a - b)
            rel = d / max(abs(a), abs(b)) if d else 0.0
            if d > max_abs:
                max_abs = d
            if rel > max_rel:
                max_rel, worst = rel, (k, s, a, b)
    print("cells=%d only_reference=%d only_pathstat=%d n_mismatch=%d "
          "missing_stat=%d max_abs_diff=%.3g max_rel_diff=%.3g" %
          (len(both), len(only_ref), len(only_ps), len(bad_n), len(missing),
           max_abs, max_rel))
    for k in only_ref[:5]:
        print("  only in reference: %s" % (k,), file=sys.stderr)
    for k in only_ps[:5]:
        print("  only in pathstat: %s" % (k,), file=sys.stderr)
    for k in bad_n[:5]:
        print("  n differs for %s: %s vs %s" % (k, ref[k]["n"], ps[k]["n"]),
              file=sys.stderr)
    for k, st in missing[:5]:
        print("  %s missing from the reference for %s" % (st, k),
              file=sys.stderr)
    if worst and max_rel > 1e-9:
        print("  worst: %s %s reference %r pathstat %r" % worst,
              file=sys.stderr)
    if only_ref or only_ps or bad_n or missing or max_rel > 1e-9:
        sys.exit(1)


if __name__ == "__main__":
    main()
