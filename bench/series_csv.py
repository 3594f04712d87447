#!/usr/bin/python3
"""series_csv.py DB - every stored sample of a pathstat database as CSV
rows run_id,metric,seq,t_us,value,status (the samples view's columns),
decoded from the series blobs (schema 009) with struct: the samples view
does the same in plain SQL, but at ~17 us a row, too slow to dump the
bench's 20 M samples for the `sqlite3 .import` peer."""
import sqlite3
import struct
import sys


def main():
    db = sqlite3.connect(sys.argv[1])
    out = sys.stdout
    last = None
    seq = 0
    for run_id, metric, rows, vb, tb, sb in db.execute(
            "SELECT run_id, metric, rows, value, t_us, status FROM series "
            "ORDER BY run_id, metric, chunk"):
        if (run_id, metric) != last:
            last, seq = (run_id, metric), 0
        vals = struct.unpack("<%dd" % rows, vb[:8 * rows])
        ts = struct.unpack("<%dq" % rows, tb[:8 * rows]) if tb else None
        lines = []
        for k, v in enumerate(vals):
            t = "" if ts is None or ts[k] == -2**63 else str(ts[k])
            val = "" if v != v else repr(v)
            st = sb[k] if sb else 0
            lines.append("%d,%d,%d,%s,%s,%d\n" % (run_id, metric, seq + k,
                                                  t, val, st))
        out.write("".join(lines))
        seq += rows


if __name__ == "__main__":
    main()
