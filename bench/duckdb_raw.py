#!/usr/bin/python3
"""duckdb_raw.py - DuckDB on the raw files of the bench tree, as the
peer of pathstat's cold path (ingest + analyze percentiles): the same
cells as pandas_percentiles.py, with every result file read and every
statistic computed by DuckDB.

Python only walks the tree: it sorts the result files by kind from
their first bytes (as pandas_percentiles.py and ingest do) and reads the
small meta.json files (the nearer one wins) for path and condition.
DuckDB reads the data: oha's --db-url SQLite with sqlite_scan (the
sqlite extension, from PyPI's duckdb-ext-sqlite: DuckDB cannot download
extensions here), oha and pathprobe CSV with read_csv, iperf3 -J with
read_json; one query pools the samples per (path, condition, metric)
and computes n, quantile_cont (type 7) p1/p5/p50/p95/p99, min and max
(analyze's defaults: p50/p95/p99/max, and p50/p5/p1/min for throughput).

  duckdb_raw.py TREE [--out FILE.json] [--threads N]

Writes one JSON array of {path, condition, metric, n, p1, p5, p50, p95,
p99, min, max} (the keys of `pathstat analyze percentiles --format json`) to
--out, or to stdout.  Needs PyPI's duckdb and, when the tree holds oha
SQLite files, duckdb-ext-sqlite of the same version (bench/duckdb_setup.sh
installs both).  oha JSON summaries carry no per-request rows and are
skipped, as are meta.json and manifest.json.
"""

import argparse
import glob
import json
import os
import sys

import duckdb

from benchtree import canon, cond_keys, kind_of, write_json  # noqa: E402


def walk(tree):
    """[(kind, path, run path, condition text)] of every result file."""
    files = []
    metas = {}
    for dirpath, dirnames, filenames in os.walk(tree):
        dirnames.sort()
        keys = dict(metas.get(os.path.dirname(dirpath), {}))
        if "meta.json" in filenames:
            with open(os.path.join(dirpath, "meta.json")) as f:
                keys.update(json.load(f))
        metas[dirpath] = keys
        for name in sorted(filenames):
            p = os.path.join(dirpath, name)
            kind = kind_of(p)
            if kind:
                files.append((kind, p, str(keys["path"]),
                              str(keys.get("condition", ""))))
    return files


def sqlite_extension():
    """The sqlite extension file duckdb-ext-sqlite installs for this
    DuckDB, or None."""
    try:
        import duckdb_ext
    except ImportError:
        return None
    for base in duckdb_ext.__path__:
        hits = glob.glob(os.path.join(base, "extensions", "v" +
                                      duckdb.__version__, "*",
                                      "sqlite_scanner.duckdb_extension"))
        if hits:
            return hits[0]
    return None


def q(s):
    return "'" + s.replace("'", "''") + "'"


def qlist(paths):
    return "[" + ", ".join(q(p) for p in paths) + "]"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("tree")
    ap.add_argument("--out")
    ap.add_argument("--threads", type=int)
    args = ap.parse_args()

    files = walk(args.tree)
    con = duckdb.connect(config={"autoinstall_known_extensions": False,
                                 "autoload_known_extensions": False})
    if args.threads:
        con.execute("SET threads = %d" % args.threads)
    # each file's run keys, joined to the rows by file name
    con.execute("CREATE TEMP TABLE f (file VARCHAR, path VARCHAR, "
                "cond VARCHAR)")
    rows = [(p, path, canon(cond_keys(c)))
            for kind, p, path, c in files if kind != "iperf3"]
    if rows:
        con.executemany("INSERT INTO f VALUES (?, ?, ?)", rows)
    by = {}
    for kind, p, _, _ in files:
        by.setdefault(kind, []).append(p)
    parts = []
    if by.get("oha-sqlite"):
        ext = sqlite_extension()
        if ext is None:
            sys.exit("duckdb_raw: %d oha SQLite files but no sqlite "
                     "extension for DuckDB %s (pip install "
                     "duckdb-ext-sqlite==%s.*)" %
                     (len(by["oha-sqlite"]), duckdb.__version__,
                      duckdb.__version__))
        con.execute("LOAD " + q(ext))
        parts += ["SELECT %s AS file, 'http_ms' AS metric, "
                  "duration * 1000.0 AS v FROM sqlite_scan(%s, 'oha')" %
                  (q(p), q(p)) for p in by["oha-sqlite"]]
    if by.get("oha-csv"):
        parts.append("""SELECT filename AS file, 'http_ms' AS metric,
    "request-duration" * 1000.0 AS v
FROM read_csv(%s, filename = true, header = true, delim = ',',
              union_by_name = true)""" % qlist(by["oha-csv"]))
    if by.get("pathprobe"):
        parts.append("""SELECT filename AS file, 'connect_ms' AS metric,
    connect_ms AS v
FROM read_csv(%s, filename = true, skip = 1, header = true, delim = ',',
              columns = {'seq': 'BIGINT', 'unix_ns': 'BIGINT',
                         'connect_ms': 'DOUBLE', 'result': 'VARCHAR'})
WHERE result = 'ok'""" % qlist(by["pathprobe"]))
    if by.get("iperf3"):
        # the condition also takes protocol, streams and direction from
        # the document's start.test_start, as pandas_percentiles.py does
        # What a UDP test's client sent is not its throughput: as
        # ingest does, take what arrived, the receiver's intervals
        # (server_output_json, from --get-server-output with a -J
        # server) or else one sample, end.sum_received's rate (3.11+)
        # or sum's less its lost_percent (not after -O).  --bidir is not
        # in the bench tree and not handled here.
        con.execute("""CREATE TEMP TABLE iperf AS
SELECT filename AS file, start.test_start AS ts,
    lower(start.test_start.protocol) = 'udp'
        AND coalesce(start.test_start.reverse, 0) = 0 AS udp_rx,
    CASE WHEN coalesce(len(server_output_json.intervals), 0) > 0
        THEN server_output_json.intervals ELSE intervals END AS ivs,
    coalesce(len(server_output_json.intervals), 0) > 0 AS rx_ivs,
    coalesce("end".sum_received.bits_per_second,
        CASE WHEN coalesce(start.test_start.omit, 0) = 0
            THEN "end"."sum".bits_per_second
                * (1 - "end"."sum".lost_percent / 100) END) AS rx_rate
FROM read_json(%s, filename = true, format = 'auto',
               maximum_object_size = 1073741824,
               columns = {'start': 'STRUCT(test_start STRUCT(
                              protocol VARCHAR, num_streams BIGINT,
                              reverse BIGINT, omit BIGINT))',
                          'intervals': 'STRUCT("sum" STRUCT(
                              bits_per_second DOUBLE,
                              omitted BOOLEAN))[]',
                          'end': 'STRUCT(sum_received STRUCT(
                              bits_per_second DOUBLE), "sum" STRUCT(
                              bits_per_second DOUBLE,
                              lost_percent DOUBLE))',
                          'server_output_json': 'STRUCT(intervals
                              STRUCT("sum" STRUCT(bits_per_second DOUBLE,
                              omitted BOOLEAN))[])'})""" % qlist(by["iperf3"]))
        meta = {p: (path, c) for kind, p, path, c in files
                if kind == "iperf3"}
        rows = []
        for p, proto, streams, rev in con.execute(
                "SELECT file, ts.protocol, ts.num_streams, ts.reverse "
                "FROM iperf").fetchall():
            path, c = meta[p]
            keys = cond_keys(c)
            if proto:
                keys["proto"] = proto.lower()
            if streams:
                keys["P"] = str(streams)
            if rev:
                keys["dir"] = "reverse"
            rows.append((p, path, canon(keys)))
        if rows:
            con.executemany("INSERT INTO f VALUES (?, ?, ?)", rows)
        parts.append("""SELECT file, 'throughput_bps' AS metric,
    iv."sum".bits_per_second AS v
FROM (SELECT file, unnest(ivs) AS iv FROM iperf
      WHERE NOT udp_rx OR rx_ivs)
WHERE NOT coalesce(iv."sum".omitted, false)
UNION ALL
SELECT file, 'throughput_bps', rx_rate FROM iperf
WHERE udp_rx AND NOT rx_ivs AND rx_rate IS NOT NULL""")
    if not parts:
        sys.exit("duckdb_raw: no result files in %s" % args.tree)
    sql = """SELECT f.path, f.cond, s.metric, count(*) AS n,
    quantile_cont(s.v, [0.01, 0.05, 0.5, 0.95, 0.99]) AS q,
    min(s.v) AS mn, max(s.v) AS mx
FROM (%s) s JOIN f USING (file)
GROUP BY ALL ORDER BY ALL""" % "\nUNION ALL\n".join(parts)
    out = []
    for path, cond, metric, n, qs, mn, mx in con.execute(sql).fetchall():
        out.append({"path": path, "condition": cond, "metric": metric,
                    "n": n, "p1": qs[0], "p5": qs[1], "p50": qs[2],
                    "p95": qs[3], "p99": qs[4], "min": mn, "max": mx})
    write_json(out, args.out)
    print("duckdb_raw: %d files, %d samples, %d cells, DuckDB %s" %
          (len(files), sum(r["n"] for r in out), len(out),
           duckdb.__version__), file=sys.stderr)


if __name__ == "__main__":
    main()
