#!/usr/bin/python3
"""check_formats.py - check a generated results tree against the real
formats.  Shares no code with gen_samples.py.

  check_formats.py [TREE] [--expected FILE] [--refs DIR]

TREE defaults to samples/tree, --refs to tests/fixtures/reference.

  * every .json parses with Python's json module;
  * iperf3 files: the same key paths, in the same order, as the real
    iperf 3.17.1 outputs tcp_P1.json / tcp_P4.json / udp_b0.json; TAB
    indentation and cJSON number formatting (%1.15g, else %1.17g); internal
    arithmetic (bits_per_second, float32 seconds, interval sums);
  * oha JSON: the key paths and order of synthetic-v1.15.0-normal.json,
    map keys sorted as strings, serde_json number layout, two-space indent,
    no trailing newline; every statistic recomputed from the run's own
    per-request rows (SQLite --db-url or CSV) by oha's rules;
  * oha SQLite: oha's table, page size 4096; oha CSV: header, Rust Display
    numbers, rows in request-start order;
  * pathprobe CSV: docs/design.md header, absolute schedule, results;
  * meta.json: flat objects; every run folder resolves path and trial;
  * expected.json (if given): counts match the files.

The number-format and layout checks are first run on the real reference
files, so a checker bug shows up as a failure there.
Exit status 0 when everything passed, 1 otherwise.
"""

import argparse
import json
import math
import os
import re
import sqlite3
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)

failures = []
counts = {}


def fail(where, msg):
    failures.append("%s: %s" % (where, msg))


def count(kind):
    counts[kind] = counts.get(kind, 0) + 1


# ---------------------------------------------------------------------------
# Key paths.

MAPS = {"responseTimeHistogram", "latencyPercentiles", "firstByteHistogram",
        "firstBytePercentiles", "statusCodeDistribution",
        "errorDistribution", "percentiles"}


def schema(v, maps=()):
    if isinstance(v, dict):
        return ("{", tuple((k, "<map>" if k in maps else schema(x, maps))
                           for k, x in v.items()))
    if isinstance(v, list):
        subs = {json.dumps(schema(x, maps)) for x in v}
        if len(subs) > 1:
            return ("[", "<mixed>")
        return ("[", schema(v[0], maps) if v else None)
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, (int, float)):
        return "number"
    if v is None:
        return "number"         # oha and iperf3 print NaN/inf as null
    return "string"


def diff_schema(a, b, path="$"):
    """First difference between two schemas, or None."""
    if a == b:
        return None
    if not (isinstance(a, tuple) and isinstance(b, tuple)) or a[0] != b[0]:
        return "%s: %r vs %r" % (path, a if not isinstance(a, tuple) else
                                 a[0], b if not isinstance(b, tuple) else b[0])
    if a[0] == "[":
        if a[1] is None or b[1] is None:
            return None
        return diff_schema(a[1], b[1], path + "[]")
    ka = [k for k, _ in a[1]]
    kb = [k for k, _ in b[1]]
    if ka != kb:
        return "%s: keys %s vs reference %s" % (path, ka, kb)
    for (k, x), (_, y) in zip(a[1], b[1]):
        d = diff_schema(x, y, path + "." + k)
        if d:
            return d
    return None


# ---------------------------------------------------------------------------
# Number formatting rules (re-stated here, independently).

NUM_RE = re.compile(r'(?<=[\t :\[,])(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)'
                    r'(?=,?\n|\]|,)')


def cjson_ok(tok):
    if re.fullmatch(r"-?\d+", tok):
        return True
    d = float(tok)
    if d == int(d) and abs(d) < 9e18:
        return False            # whole doubles print as integers
    g15 = "%1.15g" % d
    t = float(g15)
    if abs(t - d) <= max(abs(t), abs(d)) * 2.220446049250313e-16:
        return tok == g15
    return tok == "%1.17g" % d


def shortest_digits(x):
    r = repr(abs(x))
    m, _, e = r.partition("e")
    ip, _, fp = m.partition(".")
    ds = (ip + fp).lstrip("0").rstrip("0")
    return ds


def serde_ok(tok, is_int_field):
    if is_int_field:
        return re.fullmatch(r"-?\d+", tok) is not None
    if re.fullmatch(r"-?\d+", tok):
        return False            # f64 always has a '.' or an exponent
    x = float(tok)
    if x == 0:
        return tok in ("0.0", "-0.0")
    if float(tok) != x or shortest_digits(x) != \
            tok.lstrip("-").split("e")[0].replace(".", "").lstrip("0") \
            .rstrip("0"):
        return False
    ax = abs(x)
    if 1e-5 <= ax < 1e16:
        return "e" not in tok and "." in tok
    return re.fullmatch(r"-?\d(\.\d+)?e[-+]?\d+", tok) is not None and \
        ("e+" in tok or "e-" in tok)


def display_ok(tok):
    """Rust Display for f64 (oha CSV fields, histogram labels)."""
    if tok in ("NaN", "inf", "-inf"):
        return True
    if "e" in tok or "E" in tok or tok.endswith(".0"):
        return False
    x = float(tok)
    if x == 0:
        return tok in ("0", "-0")
    return shortest_digits(x) == tok.lstrip("-").replace(".", "") \
        .lstrip("0").rstrip("0")


def check_cjson_text(where, text):
    if not text.endswith("}\n"):
        fail(where, "cJSON output ends with '}\\n' (iperf adds the newline)")
    for i, line in enumerate(text.split("\n")[1:-2], 2):
        if not line.startswith("\t"):
            fail(where, "line %d not TAB-indented" % i)
            return
        if re.match(r"\t+ ", line):
            fail(where, "line %d: space after the TAB indent" % i)
            return
        m = re.match(r'\t+"[^"]*":(.)', line)
        if m and m.group(1) != "\t":
            fail(where, "line %d: key not followed by ':\\t'" % i)
            return
    for tok in NUM_RE.findall(text):
        if not cjson_ok(tok):
            fail(where, "number %s is not cJSON %%1.15g/%%1.17g" % tok)
            return


INT_KEYS = {"totalData", "sizePerRequest"}


def check_serde_text(where, text, doc):
    if text.endswith("\n"):
        fail(where, "oha JSON ends with a newline (serde writes none)")
    for i, line in enumerate(text.split("\n")[1:-1], 2):
        ind = len(line) - len(line.lstrip(" "))
        if ind % 2 or "\t" in line:
            fail(where, "line %d: not two-space indented" % i)
            return
    # numbers: walk the text line by line with the key that owns them.
    stack = []
    for line in text.split("\n"):
        s = line.strip()
        m = re.match(r'"((?:[^"\\]|\\.)*)": (.*?),?$', s)
        if not m:
            if s.startswith("}"):
                stack and stack.pop()
            continue
        key, val = m.group(1), m.group(2)
        if val == "{":
            stack.append(key)
            continue
        if val in ("null", "{}", "true", "false") or val.startswith('"'):
            continue
        parent = stack[-1] if stack else ""
        is_int = key in INT_KEYS or parent in (
            "responseTimeHistogram", "firstByteHistogram",
            "statusCodeDistribution", "errorDistribution")
        if not serde_ok(val, is_int):
            fail(where, "number %s (key %s) is not serde_json layout" %
                 (val, key))
            return
        if parent in ("responseTimeHistogram", "firstByteHistogram") and \
                key != "NaN" and not display_ok(key):
            fail(where, "histogram label %s is not Rust Display" % key)
            return


# ---------------------------------------------------------------------------
# iperf3.


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def check_iperf3(where, text, doc, refs):
    ts = doc["start"]["test_start"]
    ref = refs["udp"] if ts["protocol"] == "UDP" else \
        refs["P4"] if ts["num_streams"] > 1 else refs["P1"]
    d = diff_schema(schema(doc), schema(ref))
    if d:
        fail(where, "iperf3 key paths differ from 3.17.1: " + d)
    check_cjson_text(where, text)
    if doc["start"]["version"] != "iperf 3.17.1":
        fail(where, "version")
    rel = 1e-12
    for j, iv in enumerate(doc["intervals"]):
        tot = 0
        for st in iv["streams"]:
            if abs(st["seconds"] - f32(st["end"] - st["start"])) > 2e-6:
                fail(where, "interval %d seconds != float(end-start)" % j)
            if abs(st["bits_per_second"] - st["bytes"] * 8 /
                   st["seconds"]) > rel * st["bits_per_second"]:
                fail(where, "interval %d bits_per_second" % j)
            tot += st["bytes"]
        s = iv["sum"]
        if s["bytes"] != tot or s["seconds"] != iv["streams"][0]["seconds"]:
            fail(where, "interval %d sum" % j)
        if ts["protocol"] == "TCP" and s["retransmits"] != sum(
                x["retransmits"] for x in iv["streams"]):
            fail(where, "interval %d retransmits" % j)
        if ts["protocol"] == "UDP" and s["bytes"] != s["packets"] * \
                ts["blksize"]:
            fail(where, "interval %d UDP bytes != packets * blksize" % j)
    e = doc["end"]
    if ts["protocol"] == "TCP":
        if e["sum_sent"]["bytes"] != sum(x["bytes"] for x in
                                         doc["intervals"] for x in
                                         [x["sum"]]):
            fail(where, "end.sum_sent.bytes != sum of intervals")
        if e["sum_received"]["bytes"] > e["sum_sent"]["bytes"]:
            fail(where, "received more than sent")
    else:
        u = e["streams"][0]["udp"]
        if abs(u["lost_percent"] - 100.0 * u["lost_packets"] /
               u["packets"]) > 1e-9:
            fail(where, "lost_percent")
    count("iperf3")


# ---------------------------------------------------------------------------
# oha.


def secs_ok(a, b):
    return a is None and b is None or \
        (a is not None and b is not None and a == b)


def oha_stats_from_rows(durs_collection, ends, nerr):
    """What oha would print for these durations (collection order)."""
    n = len(durs_collection)
    s = sorted(durs_collection)
    pct = {}
    for p in (10.0, 25.0, 50.0, 75.0, 90.0, 95.0, 99.0, 99.9, 99.99):
        i = int(p / 100.0 * n)
        key = "p" + (("%g" % p) if p != int(p) else str(int(p)))
        pct[key] = s[i] if i < n else None
    avg = 0.0
    for k, v in enumerate(durs_collection, 1):
        avg += (v - avg) / k
    return {"fastest": s[0] if s else None, "slowest": s[-1] if s else None,
            "average": avg if n else None, "pct": pct,
            "count": n}


def read_oha_rows(path):
    """(durations in collection order, ends, fmt) of a --db-url file or an
    oha CSV."""
    if path.endswith(".db"):
        con = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
        rows = con.execute("SELECT start, end, duration, status, len_bytes, "
                           "run, url, start_latency_correction FROM oha "
                           "ORDER BY rowid").fetchall()
        con.close()
        return rows, "sqlite"
    with open(path) as f:
        lines = f.read().split("\n")
    return lines, "csv"


OHA_SQL = re.compile(r"CREATE TABLE (IF NOT EXISTS )?oha \(\s*url TEXT NOT "
                     r"NULL,\s*start REAL NOT NULL,\s*start_latency_correction"
                     r" REAL,\s*end REAL NOT NULL,\s*duration REAL NOT NULL,"
                     r"\s*status INTEGER NOT NULL,\s*len_bytes INTEGER NOT "
                     r"NULL,\s*run INTEGER NOT NULL\s*\)")
CSV_HEAD = "request-start,DNS,DNS+dialup,Response-delay,request-duration," \
           "bytes,status"


def check_oha_sqlite(where, path):
    con = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    sql = con.execute("SELECT sql FROM sqlite_master WHERE name='oha'") \
        .fetchone()
    if not sql or not OHA_SQL.fullmatch(sql[0]):
        fail(where, "not oha's CREATE TABLE: %r" % (sql,))
    if con.execute("PRAGMA page_size").fetchone()[0] != 4096:
        fail(where, "page size")
    if con.execute("PRAGMA freelist_count").fetchone()[0]:
        fail(where, "free pages left (not vacuumed)")
    bad = con.execute("SELECT count(*) FROM oha WHERE abs((end - start) - "
                      "duration) > 1e-9 OR start_latency_correction IS NOT "
                      "NULL OR typeof(run) != 'integer' OR url NOT LIKE "
                      "'/bytes/%'").fetchone()[0]
    if bad:
        fail(where, "%d rows inconsistent" % bad)
    runs = con.execute("SELECT DISTINCT run FROM oha").fetchall()
    if len(runs) != 1:
        fail(where, "run column is not one value")
    con.close()
    count("oha-sqlite")


def check_oha_csv(where, path):
    with open(path) as f:
        text = f.read()
    lines = text.split("\n")
    if lines[0] != CSV_HEAD or lines[-1] != "":
        fail(where, "CSV header or final newline")
    prev = -1.0
    for i, line in enumerate(lines[1:-1], 2):
        f = line.split(",")
        if len(f) != 7:
            fail(where, "line %d: %d fields" % (i, len(f)))
            return
        for tok in f[:5]:
            if not display_ok(tok):
                fail(where, "line %d: %s is not Rust Display" % (i, tok))
                return
        if float(f[0]) < prev:
            fail(where, "line %d: not sorted by request-start" % i)
            return
        prev = float(f[0])
        if not (f[5].isdigit() and f[6].isdigit()):
            fail(where, "line %d: bytes/status" % i)
    count("oha-csv")


def check_oha(where, text, doc, ref, perreq):
    d = diff_schema(schema(doc, MAPS), schema(ref, MAPS))
    if d:
        fail(where, "oha key paths differ from v1.15.0: " + d)
    check_serde_text(where, text, doc)
    for k in ("responseTimeHistogram", "firstByteHistogram",
              "latencyPercentiles", "firstBytePercentiles",
              "statusCodeDistribution", "errorDistribution"):
        ks = list(doc[k])
        if ks != sorted(ks):
            fail(where, "%s keys not BTreeMap-sorted" % k)
    if list(doc["latencyPercentiles"]) != list(ref["latencyPercentiles"]):
        fail(where, "percentile keys")
    if not perreq:
        fail(where, "no per-request file beside the JSON")
        count("oha-json")
        return
    rows, fmt = read_oha_rows(perreq)
    if fmt == "sqlite":
        durs = [r[2] for r in rows]
        nbytes = sum(r[4] for r in rows)
    else:
        body = [ln.split(",") for ln in rows[1:-1]]
        durs = [float(x[4]) for x in body]
        nbytes = sum(int(x[5]) for x in body)
    st = oha_stats_from_rows(durs, None, 0)
    s = doc["summary"]
    nerr = sum(doc["errorDistribution"].values())
    if sum(doc["statusCodeDistribution"].values()) != len(durs):
        fail(where, "statusCodeDistribution != %d rows" % len(durs))
    if s["totalData"] != nbytes:
        fail(where, "totalData != sum of len_bytes")
    if s["fastest"] != st["fastest"] or s["slowest"] != st["slowest"]:
        fail(where, "fastest/slowest differ from the rows")
    lp = doc["latencyPercentiles"]
    for k, v in st["pct"].items():
        if lp.get(k) != v:
            fail(where, "%s %r != rows %r (oha rule)" % (k, lp.get(k), v))
            break
    if fmt == "sqlite":
        # Collection order is kept in the db: the Welford mean matches.
        if s["average"] != st["average"]:
            fail(where, "average != Welford mean of the rows")
    elif abs(s["average"] - st["average"]) > 1e-12:
        fail(where, "average")
    if abs(s["requestsPerSec"] - (len(durs) + nerr) / s["total"]) > 1e-9 * \
            s["requestsPerSec"]:
        fail(where, "requestsPerSec != (successes+errors)/total")
    if sum(doc["responseTimeHistogram"].values()) != len(durs):
        fail(where, "histogram counts")
    m = doc["metrics"]["latency_ms"]
    for k, v in (("p50", lp["p50"]), ("p99", lp["p99"]),
                 ("max", s["slowest"])):
        want = math.floor(v * 1e6 + 0.5) / 1000.0
        if m[k] != want:
            fail(where, "metrics.latency_ms.%s %r != %r" % (k, m[k], want))
    count("oha-json")


# ---------------------------------------------------------------------------
# pathprobe.

PROBE_HEAD = re.compile(r"# pathprobe 1 target=(\S+):(\d+) addr=(\S+) "
                        r"count=(\d+) interval_s=([\d.]+) timeout_s=([\d.]+) "
                        r"start=(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)")


def check_probe(where, path):
    import calendar
    import time as _t
    with open(path) as f:
        lines = f.read().split("\n")
    m = PROBE_HEAD.fullmatch(lines[0])
    if not m or lines[1] != "seq,unix_ns,connect_ms,result" or lines[-1]:
        fail(where, "pathprobe header")
        return
    start = calendar.timegm(_t.strptime(m.group(7), "%Y-%m-%dT%H:%M:%SZ"))
    step = int(round(float(m.group(5)) * 1e9))
    tmo = float(m.group(6)) * 1000
    body = lines[2:-1]
    if len(body) != int(m.group(4)):
        fail(where, "count=%s but %d rows" % (m.group(4), len(body)))
    for i, line in enumerate(body):
        f = line.split(",")
        if int(f[0]) != i or int(f[1]) != start * 10**9 + i * step:
            fail(where, "seq %d not on the absolute schedule" % i)
            return
        if f[3] == "ok":
            if not re.fullmatch(r"\d+\.\d{3}", f[2]) or float(f[2]) >= tmo:
                fail(where, "seq %d connect_ms %s" % (i, f[2]))
                return
        elif f[3] in ("timeout", "refused", "unreachable") or \
                f[3].startswith("error:"):
            if f[2]:
                fail(where, "seq %d: a failed probe has a time" % i)
        else:
            fail(where, "seq %d result %s" % (i, f[3]))
    count("pathprobe")


# ---------------------------------------------------------------------------
# meta.json and the walk.

COND_TOK = re.compile(r"[A-Za-z_][\w.-]*=[^_,]+|ka-on|ka-off|c\d+|P\d+|"
                      r"\d+[km]|\d+b|tcp|udp")


def check_meta(where, obj):
    if not isinstance(obj, dict) or any(isinstance(v, (dict, list))
                                        for v in obj.values()):
        fail(where, "meta.json is not one flat object")
        return
    if "trial" in obj and not isinstance(obj["trial"], int):
        fail(where, "trial is not an integer")
    if "path" in obj and not isinstance(obj["path"], str):
        fail(where, "path is not a string")
    if "condition" in obj:
        for tok in re.split(r"[_,]", obj["condition"]):
            if not COND_TOK.fullmatch(tok):
                fail(where, "condition token %r outside the grammar" % tok)
    count("meta.json")


def load_refs(refdir):
    refs = {}
    base = os.path.join(refdir, "iperf3", "3.17.1")
    for k, f in (("P1", "tcp_P1.json"), ("P4", "tcp_P4.json"),
                 ("udp", "udp_b0.json")):
        with open(os.path.join(base, f)) as fh:
            text = fh.read()
        refs[k] = json.loads(text)
        check_cjson_text("reference " + f, text)
    with open(os.path.join(refdir, "oha",
                           "synthetic-v1.15.0-normal.json")) as fh:
        text = fh.read()
    refs["oha"] = json.loads(text)
    check_serde_text("reference synthetic-v1.15.0-normal.json", text,
                     refs["oha"])
    return refs


def guarded(where, fn, *args):
    """Run one check; a file so broken that the check trips over it is a
    failure of that file, not of the checker."""
    try:
        fn(*args)
    except (KeyError, IndexError, ValueError, TypeError, ZeroDivisionError,
            sqlite3.Error) as e:
        fail(where, "malformed (%s: %s)" % (type(e).__name__, e))


def walk(tree, refs):
    metas = {}
    for dp, dn, fn in os.walk(tree):
        dn.sort()
        if "meta.json" in fn:
            p = os.path.join(dp, "meta.json")
            try:
                with open(p) as f:
                    metas[dp] = json.load(f)
            except ValueError as e:
                fail(p, "meta.json does not parse: %s" % e)
                continue
            check_meta(os.path.relpath(p, tree), metas[dp])
    for dp, dn, fn in os.walk(tree):
        dn.sort()
        rel = os.path.relpath(dp, tree)
        if rel == "." and "manifest.json" in fn:
            fn = [f for f in fn if f != "manifest.json"]   # bench totals
        data = [f for f in fn if f != "meta.json"]
        if data:
            keys = {}
            d = dp
            chain = []
            while True:
                if d in metas:
                    chain.append(metas[d])
                if os.path.abspath(d) == os.path.abspath(tree):
                    break
                d = os.path.dirname(d)
            for m in reversed(chain):
                keys.update(m)
            if "path" not in keys or "trial" not in keys:
                fail(rel, "run folder without path/trial in meta.json")
        for f in sorted(fn):
            p = os.path.join(dp, f)
            w = os.path.join(rel, f)
            if f.endswith(".json") and f != "meta.json":
                with open(p) as fh:
                    text = fh.read()
                try:
                    doc = json.loads(text)
                except ValueError as e:
                    fail(w, "does not parse: %s" % e)
                    continue
                count("json-parsed")
                if "intervals" in doc:
                    guarded(w, check_iperf3, w, text, doc, refs)
                elif "summary" in doc:
                    base = p[:-5]
                    per = base + ".db" if os.path.exists(base + ".db") else \
                        base + ".csv" if os.path.exists(base + ".csv") \
                        else None
                    guarded(w, check_oha, w, text, doc, refs["oha"], per)
                else:
                    fail(w, "unknown JSON")
            elif f.endswith(".db"):
                guarded(w, check_oha_sqlite, w, p)
            elif f.endswith(".csv"):
                with open(p) as fh:
                    first = fh.readline()
                if first.startswith("# pathprobe"):
                    guarded(w, check_probe, w, p)
                else:
                    guarded(w, check_oha_csv, w, p)
            elif f != "meta.json":
                fail(w, "unexpected file")


def check_expected(tree, path):
    with open(path) as f:
        exp = json.load(f)
    for r in exp["runs"]:
        for rel in r["file"]:
            if not os.path.exists(os.path.join(tree, rel)):
                fail(path, "missing file %s" % rel)
        f0 = os.path.join(tree, r["file"][-1])
        if r["tool"] == "oha":
            if f0.endswith(".db"):
                con = sqlite3.connect("file:%s?mode=ro" % f0, uri=True)
                n = con.execute("SELECT count(*) FROM oha").fetchone()[0]
                con.close()
            else:
                with open(f0) as fh:
                    n = len(fh.read().split("\n")) - 2
            with open(os.path.join(tree, r["file"][0])) as fh:
                doc = json.load(fh)
            nerr = sum(doc["errorDistribution"].values())
            if n != r["samples"] or nerr != r["failures"]:
                fail(r["file"][0], "expected.json counts %d/%d, files %d/%d"
                     % (r["samples"], r["failures"], n, nerr))
        elif r["tool"] == "iperf3":
            with open(f0) as fh:
                doc = json.load(fh)
            ivs = [x for x in doc["intervals"]
                   if not x["sum"].get("omitted")]
            if len(ivs) != r["iperf3"]["intervals"]:
                fail(r["file"][0], "interval count")
            # samples are what arrived: a UDP client's own intervals
            # are the rate it sent, so without the server's -J document
            # (--get-server-output) a run is one value, the receiver's
            # end rate, as ingest stores it
            so = doc.get("server_output_json")
            udp = doc["start"]["test_start"]["protocol"] == "UDP" and \
                not doc["start"]["test_start"].get("reverse")
            want = len(ivs) if not udp else \
                len([x for x in so["intervals"]
                     if not x["sum"].get("omitted")]) if so else 1
            if want != r["samples"]:
                fail(r["file"][0], "samples %d, the file gives %d"
                     % (r["samples"], want))
        else:
            with open(f0) as fh:
                rows = fh.read().split("\n")[2:-1]
            ok = sum(1 for x in rows if x.endswith(",ok"))
            if ok != r["samples"] or len(rows) - ok != r["failures"]:
                fail(r["file"][0], "probe counts")
        count("expected-run")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("tree", nargs="?", default=os.path.join(HERE, "tree"))
    ap.add_argument("--expected", default=None)
    ap.add_argument("--refs", default=os.path.join(TOP, "tests", "fixtures",
                                                   "reference"))
    args = ap.parse_args()
    refs = load_refs(args.refs)
    walk(args.tree, refs)
    exp = args.expected
    if exp is None:
        cand = os.path.join(os.path.dirname(os.path.abspath(args.tree)),
                            "expected.json")
        exp = cand if os.path.exists(cand) else None
    if exp:
        check_expected(args.tree, exp)
    for k in sorted(counts):
        print("checked %-13s %d" % (k, counts[k]))
    for f in failures[:50]:
        print("FAIL " + f)
    if failures:
        print("%d failure(s)" % len(failures))
        return 1
    print("all format checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
