#!/usr/bin/env python3
"""sql-check.py - `pathstat analyze ... --sql duckdb` run on DuckDB over an
export equals `pathstat analyze ... --format csv` (trials: --format json,
its CSV being the long form) on the database it came from: the same columns in the same order, the same rows in the same order,
text cells equal, numbers equal to 1e-9 (relative to the larger
magnitude, absolute below 1); compare's query has analyze's columns
but those ANALYZE_ONLY names (delta's growth
is one: analyze withholds it where Δp50's trial-level interval holds 0;
delta's and ratio's loss per side are others), and the VALUES_DIFFER
columns are not compared (trials' outliers: the query has the cell's
own rule, analyze the one rule over the cells).

  sql-check.py PATHSTAT DB VIEWS.sql QUERY_MJS < CASES

CASES holds one analyze command line per line (after `pathstat analyze`,
without --db and --format; shell words, '#' comments).  Prints "ok - ..."
or "not ok - ..." per case with "#" details; exit 1 if any failed.
Standard library only.
"""
import csv
import io
import json
import re
import shlex
import subprocess
import sys

TOL = 1e-9

# compare's columns that analyze alone has (intervals, test, p_adj,
# verdict, confounds): its query has the others (export/sql_compare.c)
LOSS = ["%s_%s" % (k, side) for side in ("minuend", "subtrahend")
        for k in ("failures", "timeouts")] + \
    ["loss_pct_minuend", "loss_pct_subtrahend"]
# each side's loss (analyze/sideloss.c) is analyze's alone too
ANALYZE_ONLY = {"delta": ["growth", "growth_ge_timeout"] + LOSS,
                "ratio": [c.replace("minuend", "numerator")
                          .replace("subtrahend", "denominator")
                          for c in LOSS],
                # a UDP row's side and datagram loss (analyze/udp.c)
                "percentiles": ["side", "udp_loss_pct"],
                "compare": ["diff_lo", "diff_hi", "diff_ci_reason",
                            "ratio_lo", "ratio_hi", "ratio_ci_covers",
                            "ratio_ci_reason", "test", "p", "p_adj",
                            "verdict", "unit", "days_baseline",
                            "days_value"]}
# columns both have whose values analyze alone can make: trials'
# outliers are the one rule's (stats_outlier_cells(): the campaign's
# cells judged together on p50, p95 and p99), the query's the cell's
# own rule on the row's statistic (export/sql_cells.c)
VALUES_DIFFER = {"trials": ["outliers", "outlier_rule"]}


def sql_columns(verb, head, rows):
    """analyze's table without the columns the query leaves to analyze."""
    keep = [i for i, c in enumerate(head)
            if c not in ANALYZE_ONLY.get(verb, [])]
    return ([head[i] for i in keep],
            [[r[i] for i in keep] for r in rows])


def number(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return None


def diff_scale(head, row, col):
    """compare's diff is value_stat - baseline_stat: its rounding error
    is relative to them (two means of the same values summed in another
    order differ in the last bits, and their difference with them)."""
    if col != "diff" or "baseline_stat" not in head:
        return 0.0
    xs = [number(row[head.index(k)]) for k in ("baseline_stat",
                                               "value_stat")]
    return max([abs(x) for x in xs if x is not None] or [0.0])


def same(a, b, scale=0.0):
    """A CSV cell of analyze against DuckDB's JSON value (BIGINT comes as
    a string, DOUBLE as a number, NULL as None)."""
    if b is None:
        return a == ""
    if isinstance(b, bool):
        b = int(b)
    x, y = number(a), number(b)
    if isinstance(b, str) and (x is None or y is None):
        return a == b
    if x is None or y is None:
        return False
    return abs(x - y) <= TOL * max(1.0, abs(x), abs(y), scale)


def main():
    ps, db, views, query_mjs = sys.argv[1:5]
    fails = 0
    for line in sys.stdin:
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        words = shlex.split(line)
        # trials' CSV is the long form (one row per trial); the query
        # returns the wide table, which is trials' JSON
        wide = words[0] == "trials"
        p = subprocess.run([ps, "analyze"] + words + ["--db", db, "--format",
                           "json" if wide else "csv"], capture_output=True,
                           text=True)
        q = subprocess.run([ps, "analyze"] + words + ["--db", db, "--sql",
                           "duckdb"], capture_output=True, text=True)
        bad = []
        if p.returncode != 0 or q.returncode != 0:
            bad.append("exit %d / %d: %s%s" % (p.returncode, q.returncode,
                       p.stderr.strip(), q.stderr.strip()))
        else:
            d = subprocess.run(["node", query_mjs, "-f", views, q.stdout],
                               capture_output=True, text=True)
            if d.returncode != 0:
                bad.append(d.stderr.strip()[-600:])
            else:
                got = json.loads(d.stdout.splitlines()[-1])
                if wide:
                    # stats_default and stats_why say which statistics
                    # were the metric's defaults and why: words about
                    # the table, in JSON only (CSV and the query keep
                    # the data columns; the query says them in a comment)
                    js = [{k: v for k, v in r.items() if k not in
                           ("stats_default", "stats_why")} for r in
                          json.loads(p.stdout)]
                    head = list(js[0].keys()) if js else []
                    rows = [["" if v is None else v if isinstance(v, str)
                             else repr(v) for v in r.values()] for r in js]
                else:
                    rows = list(csv.reader(io.StringIO(p.stdout)))
                    head, rows = sql_columns(words[0], rows[0], rows[1:])
                # DuckDB names a second "n" column "n:1" in its objects
                got = [{re.sub(r":[0-9]+$", "", k): v for k, v in
                        g.items()} for g in got]
                cols = [re.sub(r":[0-9]+$", "", k) for k in
                        (json.loads(d.stdout.splitlines()[-1])[0]
                         if got else {})] if got else head
                if cols != head:
                    bad.append("columns: %s != %s" % (cols, head))
                if len(got) != len(rows):
                    bad.append("rows: %d from DuckDB, %d from analyze" %
                               (len(got), len(rows)))
                for i, (r, g) in enumerate(zip(rows, got)):
                    for c, a in zip(head, r):
                        if c in VALUES_DIFFER.get(words[0], []):
                            continue
                        if c in g and not same(a, g[c],
                                               diff_scale(head, r, c)):
                            bad.append("row %d %s: analyze %r, DuckDB %r"
                                       % (i + 1, c, a, g[c]))
        print(("not ok - " if bad else "ok - ") + line +
              ("" if bad else " (%d rows)" % len(got)))
        for b in bad[:6]:
            print("#   " + b)
        fails += bool(bad)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
