#!/usr/bin/env python3
"""view-check.py DB - the samples view (schema 009) against an
independent decoder: writes series rows of planted values (every kind of
binary64: zero, subnormals, the extremes, NaN for NULL, random exponents;
int64 times of both signs and the no-time mark; every status byte) with
Python's struct, reads them back through the view in plain SQL, and
prints one line per disagreement, then "checked N rows".  Exit 1 when
any row disagrees."""
import math
import random
import sqlite3
import struct
import sys


def planted(rng):
    vals = [0.0, 1.0, -2.5, 5e-324, -5e-324, 2.2250738585072014e-308,
            2.225073858507201e-308, 1.7976931348623157e308,
            -1.7976931348623157e308, 0.1, 1e-3, 123456.789, float("nan")]
    vals += [rng.uniform(-1e6, 1e6) for _ in range(3000)]
    vals += [math.ldexp(rng.random(), rng.randint(-1074, 1023))
             * rng.choice((1, -1)) for _ in range(3000)]
    ts = [rng.randint(-2**63 + 1, 2**63 - 1) for _ in vals]
    for i in range(0, len(ts), 7):
        ts[i] = None
    st = [rng.randint(0, 255) for _ in vals]
    return vals, ts, st


CHUNK = 56  # samples a series row holds (schema/009-series.sql)


def store(db, run_id, vals, ts, st):
    """Write one run's series as pathstat does, CHUNK samples a row."""
    for c in range(0, len(vals), CHUNK):
        v, t, s = vals[c:c + CHUNK], ts[c:c + CHUNK], st[c:c + CHUNK]
        vb = b"".join(struct.pack("<d", x) for x in v)
        tb = None if all(x is None for x in t) else b"".join(
            struct.pack("<q", -2**63 if x is None else x) for x in t)
        sb = bytes(s) if any(s) else None
        db.execute("INSERT INTO series (run_id, metric, chunk, rows, failed, "
                   "value, t_us, status) VALUES (?, 1, ?, ?, ?, ?, ?, ?)",
                   (run_id, c // CHUNK, len(v), sum(1 for x in s if x),
                    vb, tb, sb))


def main():
    rng = random.Random(9)
    db = sqlite3.connect(sys.argv[1])
    vals, ts, st = planted(rng)
    store(db, 900001, vals, ts, st)
    # no times and every status 0: both columns NULL
    store(db, 900002, [1.5, -0.25], [None, None], [0, 0])
    db.commit()
    bad = 0
    rows = db.execute("SELECT seq, t_us, value, status FROM samples WHERE "
                      "run_id = 900001 ORDER BY seq").fetchall()
    if len(rows) != len(vals):
        print("rows: %d, want %d" % (len(rows), len(vals)))
        bad += 1
    for (seq, t, v, s), ev, et, es in zip(rows, vals, ts, st):
        if math.isnan(ev):
            same = v is None
        else:
            same = (isinstance(v, float) and v == ev and
                    math.copysign(1, v) == math.copysign(1, ev))
        if not (same and t == et and s == es):
            bad += 1
            if bad <= 10:
                print("seq %d: view (%r, %r, %r), stored (%r, %r, %r)"
                      % (seq, t, v, s, et, ev, es))
    two = db.execute("SELECT seq, t_us, value, status FROM samples WHERE "
                     "run_id = 900002 ORDER BY seq").fetchall()
    if two != [(0, None, 1.5, 0), (1, None, -0.25, 0)]:
        print("NULL columns: %r" % (two,))
        bad += 1
    plan = " ".join(str(r[-1]) for r in db.execute(
        "EXPLAIN QUERY PLAN SELECT * FROM samples WHERE run_id = 900002"))
    if "SEARCH s USING" not in plan:
        print("a filter on run_id scans every series: %s" % plan)
        bad += 1
    print("checked %d rows" % (len(rows) + len(two)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
