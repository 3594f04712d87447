#!/usr/bin/python3
"""pandas_percentiles.py - the script a user writes today, as the
reference for `pathstat analyze percentiles` (peer (b)).

Walk the raw synced tree, read every result file the way a pandas user
would (oha --db-url SQLite with sqlite3 + pandas.read_sql, oha and
pathprobe CSV with pandas.read_csv, iperf3 -J with json), take the run
keys from the meta.json files above each file (the nearer one wins),
and compute type-7 quantiles (pandas' default, linear interpolation)
per (path, condition, metric) with groupby().quantile().

  pandas_percentiles.py TREE [--out FILE.json]

Writes one JSON array of {path, condition, metric, n, p50, p95, p99,
max} (the keys of `pathstat analyze percentiles --format json`) to
--out, or to stdout.  Only what the benchmark tree holds is handled:
oha JSON summaries carry no per-request rows and are skipped, as are
meta.json and manifest.json.
"""

import argparse
import json
import os
import sqlite3
import sys

import pandas as pd

from benchtree import canon, cond_keys, kind_of, write_json  # noqa: E402


def read_meta(dirpath, parent):
    """Keys for a folder: the parent's, overridden by its own meta.json."""
    keys = dict(parent)
    p = os.path.join(dirpath, "meta.json")
    if os.path.isfile(p):
        with open(p) as f:
            keys.update(json.load(f))
    return keys


def oha_sqlite(path):
    con = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    try:
        df = pd.read_sql("SELECT start, duration, status FROM oha", con)
    finally:
        con.close()
    return {"http_ms": df["duration"] * 1000.0}, 0


def oha_csv(path):
    df = pd.read_csv(path)
    return {"http_ms": df["request-duration"] * 1000.0}, 0


def pathprobe_csv(path):
    df = pd.read_csv(path, comment="#")
    ok = df["result"] == "ok"
    return {"connect_ms": df.loc[ok, "connect_ms"].astype(float)}, \
        int((~ok).sum())


def iperf3_json(path, cond):
    with open(path) as f:
        doc = json.load(f)
    ts = doc.get("start", {}).get("test_start", {})
    if ts.get("protocol"):
        cond["proto"] = ts["protocol"].lower()
    if ts.get("num_streams"):
        cond["P"] = str(ts["num_streams"])
    if ts.get("reverse"):
        cond["dir"] = "reverse"
    ivs = doc.get("intervals", [])
    if ts.get("protocol", "").lower() == "udp" and not ts.get("reverse"):
        # a UDP client's intervals are what it sent; as ingest does,
        # take what arrived: the receiver's intervals (--get-server-output
        # of a -J server), else one sample, end.sum_received's rate or
        # sum's less its lost_percent (not after -O)
        rx = (doc.get("server_output_json") or {}).get("intervals") or []
        if rx:
            ivs = rx
        else:
            end = doc.get("end", {})
            rate = end.get("sum_received", {}).get("bits_per_second")
            s = end.get("sum", {})
            if rate is None and not ts.get("omit") and \
                    "lost_percent" in s and "bits_per_second" in s:
                rate = s["bits_per_second"] * (1 - s["lost_percent"] / 100)
            return {"throughput_bps": pd.Series(
                [] if rate is None else [rate], dtype=float)}, 0
    bps = [iv["sum"]["bits_per_second"] for iv in ivs
           if not iv["sum"].get("omitted")]
    return {"throughput_bps": pd.Series(bps, dtype=float)}, 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("tree")
    ap.add_argument("--out")
    args = ap.parse_args()

    frames = []
    failures = {}
    metas = {}
    nfiles = 0
    for dirpath, dirnames, filenames in os.walk(args.tree):
        dirnames.sort()
        parent = metas.get(os.path.dirname(dirpath), {})
        keys = metas[dirpath] = read_meta(dirpath, parent)
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            kind = kind_of(path)
            if kind is None:
                continue
            cond = cond_keys(str(keys.get("condition", "")))
            if kind == "oha-sqlite":
                vals, fails = oha_sqlite(path)
            elif kind == "oha-csv":
                vals, fails = oha_csv(path)
            elif kind == "pathprobe":
                vals, fails = pathprobe_csv(path)
            else:
                vals, fails = iperf3_json(path, cond)
            nfiles += 1
            c = canon(cond)
            for metric, v in vals.items():
                frames.append(pd.DataFrame({
                    "path": str(keys["path"]), "condition": c,
                    "metric": metric, "value": v.to_numpy()}))
                k = (str(keys["path"]), c, metric)
                failures[k] = failures.get(k, 0) + fails

    df = pd.concat(frames, ignore_index=True)
    del frames
    g = df.groupby(["path", "condition", "metric"])["value"]
    q = g.quantile([0.5, 0.95, 0.99]).unstack()
    q.columns = ["p50", "p95", "p99"]
    q["max"] = g.max()
    q["n"] = g.size()
    out = []
    for (path, cond, metric), row in q.iterrows():
        out.append({"path": path, "condition": cond, "metric": metric,
                    "n": int(row["n"]),
                    "failures": failures.get((path, cond, metric), 0),
                    "p50": row["p50"], "p95": row["p95"],
                    "p99": row["p99"], "max": row["max"]})
    write_json(out, args.out)
    print("pandas_percentiles: %d files, %d samples, %d cells" %
          (nfiles, len(df), len(out)), file=sys.stderr)


if __name__ == "__main__":
    main()
