#!/usr/bin/env python3
"""export-check.py - check a `pathstat export` folder against the database
it came from, reading the Parquet files with DuckDB only (the independent
reader; tests/duckdb/query.mjs) and the database with Python's sqlite3.

  export-check.py same DB DIR QUERY_MJS PATHSTAT [--where K=V]...
      every file in manifest.json is read by DuckDB with the row count the
      manifest gives, and no other .parquet file is there; samples, runs,
      summaries and findings equal the database row for row, every double
      bit for bit, every run's key columns equal its tags and condition
      keys; samples per run equal the database's
  export-check.py quantiles DB DIR QUERY_MJS PATHSTAT
      DuckDB's quantile_cont over the export equals `pathstat analyze
      percentiles` (type 7, pooled) to 1e-9 on every cell of every metric,
      with n and failures, by path and condition and by day/instance_type

Prints "ok - ..." / "not ok - ..." lines (with "#" details); exit 1 if any
check failed.  Standard library only.
"""
import json
import math
import os
import sqlite3
import struct
import subprocess
import sys

FAILS = 0


def report(ok, what, detail=()):
    global FAILS
    print(("ok - " if ok else "not ok - ") + what)
    if not ok:
        FAILS += 1
        for d in list(detail)[:8]:
            print("#   " + str(d))


def duck(query_mjs, sqls):
    """Run the SQL texts in one DuckDB; the rows of each, in order."""
    p = subprocess.run(["node", query_mjs] + list(sqls), capture_output=True,
                       text=True)
    if p.returncode != 0:
        raise RuntimeError("duckdb: " + p.stderr.strip()[-500:])
    return [json.loads(line) for line in p.stdout.splitlines()]


def bits(x):
    return None if x is None else struct.pack("<d", float(x)).hex()


def views(ps, db, out, query_mjs):
    p = subprocess.run([ps, "export", "--db", db, "--ddl", "duckdb",
                        "--out", out], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("--ddl duckdb: " + p.stderr)
    return p.stdout


FILES_SQL = ("SELECT filename, count(*) AS n FROM read_parquet("
             "'%s/**/*.parquet', filename = true, union_by_name = true, "
             "hive_partitioning = false) GROUP BY filename")


def check_files(out, rows):
    man = json.load(open(os.path.join(out, "manifest.json")))
    listed = {}
    for ds, d in man["datasets"].items():
        for part in d["partitions"]:
            for f in part["files"]:
                listed[f["path"]] = f["rows"]
    on_disk = set()
    for root, _, files in os.walk(out):
        for f in files:
            if f.endswith(".parquet"):
                on_disk.add(os.path.relpath(os.path.join(root, f), out))
    report(on_disk == set(listed), "the manifest lists every .parquet file "
           "(%d) and nothing else" % len(listed),
           sorted(on_disk ^ set(listed)))
    got = {os.path.relpath(r["filename"], out): int(r["n"]) for r in rows}
    # a file with no rows has no filename row: count it as 0
    bad = [(f, got.get(f, 0), n) for f, n in listed.items()
           if got.get(f, 0) != n]
    report(not bad, "DuckDB reads every file with the manifest's row count",
           bad)
    return man


def db_runs(con):
    q = """SELECT r.id, p.name, c.canon, r.trial, r.tool, m.name, r.started_at,
        r.status, r.reason, r.failures, r.attempts, r.tagkey, f.relpath,
        f.hash, coalesce(f.kind, sf.kind),
        coalesce(f.tool_version, sf.tool_version), sf.relpath, sf.hash
        FROM runs r JOIN paths p ON p.id = r.path_id
        JOIN conditions c ON c.id = r.cond_id JOIN metrics m ON m.id = r.metric
        LEFT JOIN files f ON f.id = r.file_id
        LEFT JOIN files sf ON sf.id = r.summary_file_id"""
    runs = {}
    for row in con.execute(q):
        (rid, path, cond, trial, tool, metric, started, status, reason, fails,
         attempts, tags, file, fhash, kind, version, sfile, sfhash) = row
        runs[rid] = dict(path=path, condition=cond, trial=trial, tool=tool,
                         metric=metric, started=started, status=status,
                         reason=reason, failures=fails, attempts=attempts,
                         tags=tags, file=file if file else sfile,
                         file_hash=fhash if file else sfhash, file_kind=kind,
                         tool_version=version,
                         summary_file=sfile if file else None,
                         summary_file_hash=sfhash if file else None)
    return runs


def identity(r):
    return (r["path"], r["condition"], int(r["trial"]), r["tool"],
            r["metric"], r["tags"], r["file"])


def check_same(db, out, query_mjs, ps, where):
    sql = views(ps, db, out, query_mjs)
    (files, xruns, ep, xs, per, xsum, got_findings) = duck(query_mjs, [
        FILES_SQL % out,
        sql + "SELECT * FROM runs",
        "SELECT run_id, epoch_us(started_at) AS us FROM runs",
        "SELECT s.run_id, s.metric, s.seq, s.t_us, s.value, s.status "
        "FROM samples s",
        "SELECT run_id, count(*) AS n FROM samples GROUP BY run_id",
        "SELECT run_id, metric, stat, value, estimator, file FROM summaries",
        "SELECT * FROM findings"])
    man = check_files(out, files)
    pkeys = man["partition_by"]
    con = sqlite3.connect(db)
    runs = db_runs(con)
    if where:
        p = subprocess.run([ps, "runs", "--db", db, "--format", "json"] +
                           sum([["--where", w] for w in where], []),
                           capture_output=True, text=True)
        keep = {(r["path"], r["condition"], int(r["trial"]), r["tool"],
                 r["file"]) for r in json.loads(p.stdout)}
        runs = {k: r for k, r in runs.items()
                if (r["path"], r["condition"], int(r["trial"]), r["tool"],
                    r["file"]) in keep}

    # runs/: one row each, every field
    by_ident = {}
    for r in xruns:
        by_ident.setdefault(identity(r), []).append(r)
    db_ids = {}
    bad = []
    for rid, r in runs.items():
        x = by_ident.get(identity(r), [])
        if len(x) != 1:
            bad.append("run %d: %d rows in runs/" % (rid, len(x)))
            continue
        x = x[0]
        db_ids[x["run_id"]] = rid
        started = None if r["started"] is None else \
            r["started"] * 1000000
        xst = x["started_at"]
        for f in ("status", "reason", "tags", "file", "file_hash",
                  "file_kind", "tool_version", "summary_file",
                  "summary_file_hash"):
            if x[f] != r[f]:
                bad.append("run %d %s: %r != %r" % (rid, f, x[f], r[f]))
        if int(x["failures"]) != r["failures"]:
            bad.append("run %d failures" % rid)
        if (x["attempts"] is None) != (r["attempts"] is None) or (
                x["attempts"] is not None and
                int(x["attempts"]) != r["attempts"]):
            bad.append("run %d attempts" % rid)
        if (xst is None) != (started is None):
            bad.append("run %d started_at: %r" % (rid, xst))
    report(not bad and len(xruns) == len(runs),
           "runs/: %d runs, every field as in the database" % len(runs),
           bad + ["%d rows in runs/" % len(xruns)])
    # started_at as epoch microseconds, exactly
    bad = [(e["run_id"], e["us"]) for e in ep
           if e["run_id"] in db_ids and (
               (e["us"] is None) != (runs[db_ids[e["run_id"]]]["started"] is
                                     None) or
               (e["us"] is not None and int(e["us"]) !=
                runs[db_ids[e["run_id"]]]["started"] * 1000000))]
    report(not bad, "runs/: started_at to the microsecond", bad)

    # key columns: each run's tags and condition keys, as analyze --by sees
    keycols = {c["name"]: c["key"] for c in
               man["datasets"]["runs"]["columns"] if "key" in c}
    for k in pkeys:
        keycols[k] = k
    bad = []
    for x in xruns:
        rid = db_ids.get(x["run_id"])
        if rid is None:
            continue
        want = {}
        for kv in runs[rid]["tags"].split(";"):
            if "=" in kv:
                k, v = kv.split("=", 1)
                want[k] = v
        for kv in runs[rid]["condition"].split(","):
            if "=" in kv:
                k, v = kv.split("=", 1)
                want[k] = v
        for col, key in keycols.items():
            if key in ("day", "hour", "week", "month", "instance") and key not in want:
                continue
            if key in ("path", "trial", "tool"):
                continue
            if x.get(col) != want.get(key):
                bad.append("run %s column %s: %r, want %r" %
                           (x["run_id"], col, x.get(col), want.get(key)))
    report(not bad, "runs/: key columns equal each run's tags and condition "
           "keys (%d columns)" % len(keycols), bad)

    # samples/: every row, every value bit for bit
    mine = {}
    for x in xs:
        rid = db_ids.get(x["run_id"])
        mine[(rid, x["metric"], int(x["seq"]))] = (
            None if x["t_us"] is None else int(x["t_us"]),
            bits(x["value"]), x["status"])
    theirs = {}
    counts = {}
    for rid, metric, seq, t_us, value, status in con.execute(
            """SELECT s.run_id, m.name, s.seq, s.t_us, s.value, st.name
            FROM samples s JOIN metrics m ON m.id = s.metric
            JOIN sample_status st ON st.id = s.status"""):
        if rid not in runs:
            continue
        theirs[(rid, metric, seq)] = (t_us, bits(value), status)
        counts[rid] = counts.get(rid, 0) + 1
    diff = [k for k in set(mine) | set(theirs) if mine.get(k) != theirs.get(k)]
    report(not diff and len(xs) == len(theirs),
           "samples/: %d rows equal the database's, values bit for bit" %
           len(theirs),
           ["%r: export %r, db %r" % (k, mine.get(k), theirs.get(k))
            for k in sorted(diff, key=str)[:8]] +
           ["%d rows read, %d in the db" % (len(xs), len(theirs))])
    got = {db_ids.get(p["run_id"]): int(p["n"]) for p in per}
    bad = [(rid, got.get(rid, 0), n) for rid, n in counts.items()
           if got.get(rid, 0) != n]
    report(not bad and len(got) == len(counts),
           "samples/: rows per run equal the database's (%d runs)" %
           len(counts), bad)
    # runs.samples: the successful samples of the run's metric
    okn = {}
    for rid, n in con.execute(
            """SELECT s.run_id, count(*) FROM samples s JOIN runs r
            ON r.id = s.run_id AND r.metric = s.metric WHERE s.status = 0
            AND s.value IS NOT NULL GROUP BY s.run_id"""):
        okn[rid] = n
    bad = [x["run_id"] for x in xruns if x["run_id"] in db_ids and
           int(x["samples"]) != okn.get(db_ids[x["run_id"]], 0)]
    report(not bad, "runs/: samples counts the successful ones", bad)

    # summaries/
    mine = {(db_ids.get(x["run_id"]), x["metric"], x["stat"]):
            (bits(x["value"]), x["estimator"], x["file"]) for x in xsum}
    theirs = {}
    for rid, metric, stat, value, est, file in con.execute(
            """SELECT s.run_id, s.metric, s.stat, s.value, s.estimator,
            f.relpath FROM summaries s LEFT JOIN files f
            ON f.id = s.file_id"""):
        if rid in runs:
            theirs[(rid, metric, stat)] = (bits(value), est, file)
    diff = [k for k in set(mine) | set(theirs) if mine.get(k) != theirs.get(k)]
    report(not diff and len(xsum) == len(theirs),
           "summaries/: %d rows equal the database's, with their estimator" %
           len(theirs), ["%r: %r / %r" % (k, mine.get(k), theirs.get(k))
                         for k in diff[:8]])

    # findings/: what pathstat check reports, with stable run ids
    p = subprocess.run([ps, "check", "--db", db, "--format", "json"] +
                       sum([["--where", w] for w in where], []),
                       capture_output=True, text=True)
    want = json.loads(p.stdout)
    got = got_findings
    to_db = lambda ids: ",".join(str(db_ids.get(i, "?")) for i in
                                 ids.split(",")) if ids else ""
    def norm(f, runs_key):
        return (f["check"], f["severity"], f["metric"], f["path"],
                f["condition"], None if f["trial"] is None else
                int(f["trial"]), f["scope"], runs_key, f["files"],
                f["evidence"], f["cause"], f["action"])
    a = sorted(map(str, (norm(f, f["runs"]) for f in want)))
    b = sorted(map(str, (norm(f, to_db(f["run_ids"])) for f in got)))
    report(a == b, "findings/: the %d findings of pathstat check, run ids "
           "mapped" % len(want), [x for x in a if x not in b][:3] +
           [x for x in b if x not in a][:3])


def check_quantiles(db, out, query_mjs, ps):
    sql = views(ps, db, out, query_mjs)
    metrics = [m for (m,) in sqlite3.connect(db).execute(
        "SELECT DISTINCT m.name FROM samples s JOIN metrics m "
        "ON m.id = s.metric ORDER BY 1")]
    stats = [("p50", 0.5), ("p95", 0.95), ("p99", 0.99), ("p90", 0.9),
             ("p10", 0.1), ("p99.9", 0.999)]
    jobs = []
    for by in ([], ["day", "instance_type"]):
        for metric in metrics:
            keys = ["path", "condition"] + by
            cols = ", ".join(keys)
            qs = ", ".join("quantile_cont(value, %r) AS \"%s\"" % (q, s)
                           for s, q in stats)
            # failures as analyze counts them: runs.failures for the
            # run's own metric (oha's errors have no sample rows), the
            # failed rows for any other
            q = """
                WITH per_run AS (
                  SELECT run_id, %(cols)s,
                    count(*) FILTER (WHERE NOT (status = 'ok' AND value IS
                      NOT NULL)) AS bad
                  FROM samples WHERE metric = '%(m)s'
                  GROUP BY run_id, %(cols)s),
                cell_fail AS (
                  SELECT %(pcols)s, sum(CASE WHEN r.metric = '%(m)s' THEN
                    r.failures ELSE p.bad END) AS failures
                  FROM per_run p JOIN runs r USING (run_id)
                  GROUP BY %(pcols)s),
                q AS (
                  SELECT %(cols)s, count(value) AS n, %(qs)s, max(value) AS max
                  FROM samples WHERE metric = '%(m)s' AND status = 'ok'
                    AND value IS NOT NULL
                  GROUP BY %(cols)s)
                SELECT * FROM q JOIN cell_fail USING (%(cols)s)""" % dict(
                cols=cols, m=metric, qs=qs,
                pcols=", ".join("p." + k for k in keys))
            jobs.append((by, metric, keys, q))
    results = duck(query_mjs, [sql + jobs[0][3]] + [j[3] for j in jobs[1:]])
    for (by, metric, keys, _), got in zip(jobs, results):
        args = [ps, "analyze", "percentiles", "--db", db, "--metric",
                metric, "--format", "json", "--quantile", "type7",
                "--pool", "pooled", "--stats",
                ",".join(s for s, _ in stats) + ",max"]
        if by:
            args += ["--by", ",".join(by)]
        p = subprocess.run(args, capture_output=True, text=True)
        if p.returncode != 0:
            report(False, "analyze %s: exit %d" % (metric, p.returncode),
                   [p.stderr])
            continue
        want = json.loads(p.stdout)
        index = {tuple(str(g[k] if g[k] is not None else "")
                       for k in keys): g for g in got}
        bad = []
        cells = 0
        for w in want:
            if not w.get("n"):
                continue
            key = tuple(str(w.get(k) if w.get(k) is not None else "")
                        for k in keys)
            g = index.get(key)
            if g is None:
                bad.append("cell %r missing in DuckDB" % (key,))
                continue
            cells += 1
            if int(g["n"]) != w["n"]:
                bad.append("%r n: %s != %s" % (key, g["n"], w["n"]))
            if int(g["failures"]) != w["failures"]:
                bad.append("%r failures: %s != %s" %
                           (key, g["failures"], w["failures"]))
            for s in [s for s, _ in stats] + ["max"]:
                a, b = g[s], w.get(s)
                if b is None or abs(a - b) > 1e-9 * max(1.0, abs(b)):
                    bad.append("%r %s: duckdb %r, analyze %r" %
                               (key, s, a, b))
        report(not bad and cells == len(got),
               "%s%s: DuckDB quantile_cont equals analyze (type 7) on "
               "all %d cells, n and failures too" %
               (metric, " by " + ",".join(by) if by else "", cells),
               bad + (["%d cells in DuckDB, %d compared" %
                       (len(got), cells)] if cells != len(got) else []))


def main():
    if len(sys.argv) < 6:
        sys.exit(__doc__)
    mode, db, out, query_mjs, ps = sys.argv[1:6]
    where = []
    rest = sys.argv[6:]
    while rest[:1] == ["--where"] and len(rest) > 1:
        where.append(rest[1])
        rest = rest[2:]
    try:
        if mode == "same":
            check_same(db, out, query_mjs, ps, where)
        elif mode == "quantiles":
            check_quantiles(db, out, query_mjs, ps)
        else:
            sys.exit(__doc__)
    except RuntimeError as e:
        report(False, "error: " + str(e))
    sys.exit(1 if FAILS else 0)


if __name__ == "__main__":
    main()
