#!/usr/bin/env python3
"""arrow-check.py - pyarrow (Apache Arrow's Parquet reader, independent
of pathstat and of DuckDB) reads a `pathstat export` folder and finds
what the manifest and the database say.

  arrow-check.py DB DIR [--where K=V]...

For every Parquet file the manifest lists: the row count; the schema
(column names and order, physical and logical types: STRING,
TIMESTAMP(UTC, MICROS), INT64, DOUBLE; required or optional as the
manifest's "nullable"); writer and key-value metadata
(pathstat.schema_version, .dataset, .partition, .key_columns,
.metric_units); each column chunk's codec, encodings (dictionary + RLE
or PLAIN for strings, DELTA_BINARY_PACKED for integers, PLAIN or
BYTE_STREAM_SPLIT for doubles; PLAIN only with --basic-encodings), its
dictionary page (there iff the chunk's pages use it, before the data
pages) and statistics (min, max and null count equal the chunk's own
values, NaN left out, -0.0/+0.0 as parquet.thrift says).  Then every
sample, run and summary value, read by pyarrow, equals the database (the
run identity and the database side come from export-check.py), and the
partition folders, decoded by pyarrow's Hive partitioning, name each
run's key.  Prints "ok - ..." / "not ok - ..."; exit 1 if any failed.
Runs under the engines' venv (tests/engines/setup.sh).
"""
import importlib.util
import json
import math
import os
import sqlite3
import struct
import subprocess
import sys
import urllib.parse

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "export_check", os.path.join(here, "export-check.py"))
xc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(xc)

FAILS = 0


def report(ok, what, detail=()):
    global FAILS
    print(("ok - " if ok else "not ok - ") + what)
    if not ok:
        FAILS += 1
        for d in list(detail)[:8]:
            print("#   " + str(d))


ARROW = {"string": pa.string(), "int64": pa.int64(),
         "double": pa.float64(), "timestamp_us": pa.timestamp("us", "UTC")}
PHYS = {"string": "BYTE_ARRAY", "int64": "INT64", "double": "DOUBLE",
        "timestamp_us": "INT64"}


def logical(col):
    lt = col.logical_type
    return lt.type if lt is not None else "NONE"


def bits(x):
    return None if x is None else struct.pack("<d", float(x)).hex()


def check_file(out, man, ds, part, f, bad):
    path = os.path.join(out, f["path"])
    pf = pq.ParquetFile(path)
    md = pf.metadata
    allcols = man["datasets"][ds]["columns"]
    where = f["path"]
    # a file holds the manifest's columns in order, less the key columns
    # no run of its partition has (the union is the manifest's)
    present = set(pf.schema_arrow.names)
    cols = [c for c in allcols if c["name"] in present]
    gone = [c["name"] for c in allcols if c["name"] not in present and
            "key" not in c]
    if gone:
        bad["schema"].append("%s: lacks %s" % (where, gone))
    if md.num_rows != f["rows"]:
        bad["rows"].append("%s: %d rows, manifest %d" %
                           (where, md.num_rows, f["rows"]))
    # schema: names, order, types, nullability
    sch = pf.schema_arrow
    names = [c["name"] for c in cols]
    if sch.names != names:
        bad["schema"].append("%s: columns %s" % (where, sch.names))
    else:
        for i, c in enumerate(cols):
            pcol = pf.schema.column(i)
            if sch.field(i).type != ARROW[c["type"]]:
                bad["schema"].append("%s %s: arrow type %s" %
                                     (where, c["name"], sch.field(i).type))
            if pcol.physical_type != PHYS[c["type"]]:
                bad["schema"].append("%s %s: physical %s" %
                                     (where, c["name"], pcol.physical_type))
            if sch.field(i).nullable != c["nullable"] or \
                    pcol.max_definition_level != int(c["nullable"]):
                bad["schema"].append("%s %s: nullable %s" %
                                     (where, c["name"], sch.field(i).nullable))
            want_lt = {"string": "STRING", "timestamp_us": "TIMESTAMP"}.get(
                c["type"], "NONE")
            if logical(pcol) != want_lt:
                bad["logical"].append("%s %s: logical %s" %
                                      (where, c["name"], logical(pcol)))
            if c["type"] == "timestamp_us":
                lt = json.loads(pcol.logical_type.to_json())
                if lt.get("isAdjustedToUTC") is not True or \
                        lt.get("timeUnit") != "microseconds":
                    bad["logical"].append("%s %s: %s" %
                                          (where, c["name"], lt))
    if not md.created_by.startswith("pathstat version "):
        bad["kv"].append("%s: created_by %r" % (where, md.created_by))
    kv = {k.decode(): v.decode() for k, v in (md.metadata or {}).items()}
    want = {"pathstat.schema_version": str(man["schema_version"]),
            "pathstat.dataset": ds,
            "pathstat.partition": part["dir"] if part else ""}
    for k, v in list(want.items()):
        if kv.get(k) != v:
            bad["kv"].append("%s: %s = %r, want %r" % (where, k, kv.get(k), v))
    keys = {c["name"]: c["key"] for c in cols if "key" in c}
    try:
        got_keys = json.loads(kv.get("pathstat.key_columns", "null"))
    except ValueError:
        got_keys = None
    if got_keys != keys:
        bad["kv"].append("%s: key_columns %r, manifest %r" %
                         (where, got_keys, keys))
    table = pf.read()
    if ds in ("samples", "summaries"):
        try:
            units = json.loads(kv.get("pathstat.metric_units", "null"))
        except ValueError:
            units = None
        # samples: a unit for each metric; summaries also hold a tool's
        # own rows (metric "cpu", "http"...), which have none
        metrics = set(table.column("metric").to_pylist()) \
            if ds == "samples" else set()
        if not isinstance(units, dict) or not units or \
                not metrics <= set(units):
            bad["kv"].append("%s: metric_units %r lacks some of %s" %
                             (where, units, sorted(metrics)))
    elif "pathstat.metric_units" in kv:
        bad["kv"].append("%s: metric_units in %s" % (where, ds))

    # column chunks: codec, encodings, dictionary pages, statistics
    codec = {"zstd": "ZSTD", "gzip": "GZIP", "none": "UNCOMPRESSED"}[
        man["codec"]]
    basic = man["encodings"] != "default"
    start = 0
    for g in range(md.num_row_groups):
        rg = md.row_group(g)
        sl = table.slice(start, rg.num_rows)
        start += rg.num_rows
        for i in range(rg.num_columns):
            cc = rg.column(i)
            c = cols[i]
            name = "%s rg %d %s" % (where, g, c["name"])
            arr = sl.column(i)
            if cc.compression != codec:
                bad["codec"].append("%s: %s" % (name, cc.compression))
            enc = set(cc.encodings)
            data_enc = enc - {"RLE"} if not c["nullable"] else enc
            if c["type"] == "string":
                ok_enc = enc <= {"PLAIN", "RLE", "RLE_DICTIONARY"}
                dict_used = "RLE_DICTIONARY" in enc
                if c["name"] == "run_id" and ds == "runs":
                    pass
                if basic and dict_used:
                    pass  # a dictionary is a basic encoding
            elif c["type"] in ("int64", "timestamp_us"):
                ok_enc = data_enc - {"RLE"} <= (
                    {"PLAIN"} if basic else {"DELTA_BINARY_PACKED"})
                dict_used = False
            else:
                ok_enc = data_enc - {"RLE"} <= (
                    {"PLAIN"} if basic or man["codec"] == "none" else
                    {"PLAIN", "BYTE_STREAM_SPLIT"})
                dict_used = False
            if not ok_enc:
                bad["encodings"].append("%s: %s" % (name, sorted(enc)))
            if cc.has_dictionary_page != dict_used:
                bad["dictionary"].append("%s: dictionary page %s, "
                                         "encodings %s" %
                                         (name, cc.has_dictionary_page,
                                          sorted(enc)))
            elif dict_used and not (cc.dictionary_page_offset <
                                    cc.data_page_offset):
                bad["dictionary"].append("%s: dictionary page at %d, data "
                                         "at %d" % (name,
                                                    cc.dictionary_page_offset,
                                                    cc.data_page_offset))
            st = cc.statistics
            nulls = arr.null_count
            if st is None or not st.has_null_count or st.null_count != nulls:
                bad["stats"].append("%s: null_count %s, values have %d" %
                                    (name, st and st.null_count, nulls))
                continue
            vals = arr
            if c["type"] == "double":
                vals = pc.filter(arr, pc.invert(pc.is_nan(arr)))
            vals = vals.drop_null()
            if len(vals) == 0:
                if st.has_min_max:
                    bad["stats"].append("%s: min/max of no value" % name)
                continue
            mm = pc.min_max(vals).as_py()
            lo, hi = mm["min"], mm["max"]
            if c["type"] == "string" and (
                    len(lo.encode()) > 512 or len(hi.encode()) > 512):
                if st.has_min_max:
                    bad["stats"].append("%s: a long string's min/max "
                                        "kept" % name)
                continue
            if not st.has_min_max:
                bad["stats"].append("%s: no min/max" % name)
                continue
            smin, smax = st.min, st.max
            if c["type"] == "double":
                if lo == 0:
                    lo = -0.0
                if hi == 0:
                    hi = 0.0
                if bits(smin) != bits(lo) or bits(smax) != bits(hi):
                    bad["stats"].append("%s: min/max %r/%r, values %r/%r" %
                                        (name, smin, smax, lo, hi))
            elif c["type"] == "string":
                # byte order (UTF-8), as parquet.thrift's TYPE_ORDER
                blo = min(v.encode() for v in vals.to_pylist())
                bhi = max(v.encode() for v in vals.to_pylist())
                if (smin.encode() if isinstance(smin, str) else smin) != blo \
                        or (smax.encode() if isinstance(smax, str)
                            else smax) != bhi:
                    bad["stats"].append("%s: min/max %r/%r, values %r/%r" %
                                        (name, smin, smax, blo, bhi))
            else:
                if smin != lo or smax != hi:
                    bad["stats"].append("%s: min/max %r/%r, values %r/%r" %
                                        (name, smin, smax, lo, hi))
    return table


def read_dataset(out, man, ds):
    """Every file of ds, with the partition columns from the folder names
    (pyarrow's Hive partitioning, values as strings)."""
    import pyarrow.dataset as pads
    pkeys = man["partition_by"] if ds != "findings" else []
    files = [os.path.join(out, f["path"]) for part in
             man["datasets"][ds]["partitions"] for f in part["files"]]
    part = None
    if pkeys:
        part = pads.partitioning(pa.schema([(k, pa.string())
                                            for k in pkeys]), flavor="hive")
    d = pads.dataset(files, format="parquet", partitioning=part,
                     partition_base_dir=os.path.join(out, ds))
    return d.to_table().to_pylist()


def main():
    db, out = sys.argv[1:3]
    where = []
    rest = sys.argv[3:]
    while rest[:1] == ["--where"] and len(rest) > 1:
        where.append(rest[1])
        rest = rest[2:]
    man = json.load(open(os.path.join(out, "manifest.json")))
    kinds = ("rows", "schema", "logical", "kv", "codec", "encodings",
             "dictionary", "stats")
    bad = {k: [] for k in kinds}
    nfiles = nchunks = ndict = 0
    encs = set()
    for ds, d in man["datasets"].items():
        for part in d["partitions"]:
            for f in part["files"]:
                check_file(out, man, ds, part if ds != "findings" and
                           man["partition_by"] else None, f, bad)
                nfiles += 1
                md = pq.ParquetFile(os.path.join(out, f["path"])).metadata
                for g in range(md.num_row_groups):
                    for i in range(md.num_columns):
                        cc = md.row_group(g).column(i)
                        nchunks += 1
                        ndict += cc.has_dictionary_page
                        encs |= set(cc.encodings)
    what = {"rows": "row counts equal the manifest's",
            "schema": "schema: names, order, physical types and "
                      "nullability as the manifest says",
            "logical": "logical types: STRING, TIMESTAMP(UTC, MICROS)",
            "kv": "key-value metadata and writer",
            "codec": "codec %s on every chunk" % man["codec"],
            "encodings": "encodings (%s)" % ", ".join(sorted(encs)),
            "dictionary": "dictionary pages: %d, each before its data "
                          "and only where the pages use it" % ndict,
            "stats": "row-group statistics (min, max, null count) equal "
                     "the values"}
    for k in kinds:
        report(not bad[k], "pyarrow: %s (%d files, %d chunks)" %
               (what[k], nfiles, nchunks), bad[k])

    # values: every row against the database
    con = sqlite3.connect(db)
    runs = xc.db_runs(con)
    if where:
        p = subprocess.run([os.environ["PS"], "runs", "--db",
                            db, "--format", "json"] +
                           sum([["--where", w] for w in where], []),
                           capture_output=True, text=True)
        keep = {(r["path"], r["condition"], int(r["trial"]), r["tool"],
                 r["file"]) for r in json.loads(p.stdout)}
        runs = {k: r for k, r in runs.items()
                if (r["path"], r["condition"], int(r["trial"]), r["tool"],
                    r["file"]) in keep}
    xruns = read_dataset(out, man, "runs")
    by_ident = {}
    for r in xruns:
        by_ident.setdefault(xc.identity(r), []).append(r)
    db_ids = {}
    errs = []
    for rid, r in runs.items():
        x = by_ident.get(xc.identity(r), [])
        if len(x) != 1:
            errs.append("run %d: %d rows" % (rid, len(x)))
            continue
        x = x[0]
        db_ids[x["run_id"]] = rid
        st = x["started_at"]
        us = None if st is None else (
            (st - st.replace(year=1970, month=1, day=1, hour=0, minute=0,
                             second=0, microsecond=0)).days * 86400000000 +
            (st.hour * 3600 + st.minute * 60 + st.second) * 1000000 +
            st.microsecond)
        want_us = None if r["started"] is None else r["started"] * 1000000
        if us != want_us and not (us is not None and want_us is not None and
                                  abs(us - want_us) < 1):
            errs.append("run %d started_at %r, want %r us" % (rid, st,
                                                               want_us))
        for f in ("status", "reason", "tags", "file", "file_hash",
                  "file_kind", "tool_version", "summary_file",
                  "summary_file_hash", "failures", "attempts"):
            if x[f] != r[f]:
                errs.append("run %d %s: %r != %r" % (rid, f, x[f], r[f]))
        # the partition folders: each run's own key values
        tags = dict(kv.split("=", 1) for kv in (r["tags"] or "").split(";")
                    if "=" in kv)
        tags.update(kv.split("=", 1) for kv in r["condition"].split(",")
                    if "=" in kv)
        tags["path"] = r["path"]
        for k in man["partition_by"]:
            want = tags.get(k)
            if x.get(k) != want and not (want is None and
                                         x.get(k) == "__HIVE_DEFAULT_"
                                         "PARTITION__"):
                errs.append("run %d partition %s = %r, key %r" %
                            (rid, k, x.get(k), want))
    report(not errs and len(xruns) == len(runs),
           "pyarrow: runs/ has the database's %d runs, every field and "
           "partition value" % len(runs), errs + ["%d rows" % len(xruns)])

    mine = {}
    for x in read_dataset(out, man, "samples"):
        mine[(db_ids.get(x["run_id"]), x["metric"], x["seq"])] = (
            x["t_us"], bits(x["value"]), x["status"])
    theirs = {}
    for rid, metric, seq, t_us, value, status in con.execute(
            """SELECT s.run_id, m.name, s.seq, s.t_us, s.value, st.name
            FROM samples s JOIN metrics m ON m.id = s.metric
            JOIN sample_status st ON st.id = s.status"""):
        if rid in runs:
            theirs[(rid, metric, seq)] = (t_us, bits(value), status)
    diff = [k for k in set(mine) | set(theirs) if mine.get(k) != theirs.get(k)]
    report(not diff, "pyarrow: samples/ has the database's %d samples, "
           "values bit for bit" % len(theirs),
           ["%r: export %r, db %r" % (k, mine.get(k), theirs.get(k))
            for k in sorted(diff, key=str)[:8]])

    mine = {(db_ids.get(x["run_id"]), x["metric"], x["stat"]):
            (bits(x["value"]), x["estimator"], x["file"])
            for x in read_dataset(out, man, "summaries")}
    theirs = {}
    for rid, metric, stat, value, est, file in con.execute(
            """SELECT s.run_id, s.metric, s.stat, s.value, s.estimator,
            f.relpath FROM summaries s LEFT JOIN files f
            ON f.id = s.file_id"""):
        if rid in runs:
            theirs[(rid, metric, stat)] = (bits(value), est, file)
    diff = [k for k in set(mine) | set(theirs) if mine.get(k) != theirs.get(k)]
    report(not diff, "pyarrow: summaries/ has the database's %d rows" %
           len(theirs), ["%r: %r / %r" % (k, mine.get(k), theirs.get(k))
                         for k in diff[:8]])
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
