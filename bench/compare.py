#!/usr/bin/python3
"""compare.py - check that two sets of percentile rows agree.

  compare.py REFERENCE.json PATHSTAT.json...

REFERENCE is a JSON array of {path, condition, metric, n, p50, p95, p99,
max} (bench/pandas_percentiles.py, or the SQL query's rows); each
PATHSTAT file is the output of `pathstat analyze percentiles --format
json`.  Prints one line: cells compared, cells only on one side, n
mismatches, and the largest absolute and relative difference of p50,
p95, p99 and max.  Exit 1 if any cell or n differs or a relative
difference exceeds 1e-9.
"""

import json
import sys

STATS = ("p50", "p95", "p99", "max")


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
    for k in both:
        for s in STATS:
            a, b = float(ref[k][s]), float(ps[k][s])
            d = abs(a - b)
            rel = d / max(abs(a), abs(b)) if d else 0.0
            if d > max_abs:
                max_abs = d
            if rel > max_rel:
                max_rel, worst = rel, (k, s, a, b)
    print("cells=%d only_reference=%d only_pathstat=%d n_mismatch=%d "
          "max_abs_diff=%.3g max_rel_diff=%.3g" %
          (len(both), len(only_ref), len(only_ps), len(bad_n), max_abs,
           max_rel))
    for k in only_ref[:5]:
        print("  only in reference: %s" % (k,), file=sys.stderr)
    for k in only_ps[:5]:
        print("  only in pathstat: %s" % (k,), file=sys.stderr)
    for k in bad_n[:5]:
        print("  n differs for %s: %s vs %s" % (k, ref[k]["n"], ps[k]["n"]),
              file=sys.stderr)
    if worst and max_rel > 1e-9:
        print("  worst: %s %s reference %r pathstat %r" % worst,
              file=sys.stderr)
    if only_ref or only_ps or bad_n or max_rel > 1e-9:
        sys.exit(1)


if __name__ == "__main__":
    main()
