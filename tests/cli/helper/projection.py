#!/usr/bin/env python3
"""projection.py - reads `pathstat export --ddl athena` as Athena reads
its partition projection and checks that every partition folder of the
export is reachable (t7704).

  projection.py ATHENA.sql EXPORT_DIR LOCATION

For each CREATE EXTERNAL TABLE of a partitioned dataset: with
'projection.enabled' = 'true', Athena never lists S3; it builds the
partitions from the projection of each key and puts each combination
into 'storage.location.template'.  enum: the values list split at ','
and each trimmed (AWS's documentation says white space is part of a
value; trimming here fails a value with blanks at an end unless the DDL
leaves it out of projection, which is safe under either reading).
date: every day from the range's first to its last, NOW being today in
UTC, in the yyyy-MM-dd format, 1 DAYS apart (a first day that is no
date fails the query).  Every folder of EXPORT_DIR/DATASET/ holding a
Parquet file must be among them.  Without projection the
table's next statement must be MSCK REPAIR TABLE, which lists S3.  Each
TBLPROPERTIES line must be one 'key' = 'value' pair (a quote in a value
would end the string).  Prints "N tables, M folders" and each problem
on one line; exit 1 on a problem.
"""
import datetime
import itertools
import os
import re
import sys

PAIR = re.compile(r"^\s*'([^']*)' = '([^']*)',?$")


def statements(text):
    """Statements without comment lines, in order."""
    body = "\n".join(line for line in text.split("\n")
                     if not line.lstrip().startswith("--"))
    return [s.strip() for s in body.split(";") if s.strip()]


def days(first, last):
    """yyyy-MM-dd days from first to last (NOW: today, UTC)."""
    fmt = "%Y-%m-%d"
    a = datetime.datetime.strptime(first, fmt).date()
    b = datetime.datetime.now(datetime.timezone.utc).date() \
        if last == "NOW" else datetime.datetime.strptime(last, fmt).date()
    out = []
    while a <= b:
        out.append(a.strftime(fmt))
        a += datetime.timedelta(days=1)
    return out


def folders(top):
    """Partition folders (relative, '/'-joined) holding a Parquet file."""
    out = set()
    for d, _, names in os.walk(top):
        if any(n.endswith(".parquet") for n in names) and d != top:
            out.add(os.path.relpath(d, top).replace(os.sep, "/"))
    return out


def main():
    ddl, ex, loc = sys.argv[1:4]
    sts = statements(open(ddl, encoding="utf-8").read())
    bad, ntab, nfold = [], 0, 0
    for i, st in enumerate(sts):
        m = re.match(r"CREATE EXTERNAL TABLE IF NOT EXISTS pathstat\.(\w+)",
                     st)
        if not m:
            continue
        name = m.group(1)
        pm = re.search(r"PARTITIONED BY \(([^)]*)\)", st)
        if not pm:
            continue
        ntab += 1
        keys = [k.split()[0].strip("`") for k in pm.group(1).split(",")]
        have = folders(os.path.join(ex, name))
        nfold += len(have)
        tp = re.search(r"TBLPROPERTIES \((.*)\)\s*$", st, re.S)
        if not tp:
            nxt = sts[i + 1] if i + 1 < len(sts) else ""
            if nxt != "MSCK REPAIR TABLE pathstat.%s" % name:
                bad.append("%s: no projection and no MSCK REPAIR after it "
                           "(next: %r)" % (name, nxt[:60]))
            continue
        props = {}
        for line in tp.group(1).strip().split("\n"):
            pair = PAIR.match(line)
            if not pair:
                bad.append("%s: TBLPROPERTIES line %r is not one "
                           "'key' = 'value'" % (name, line))
                continue
            props[pair.group(1)] = pair.group(2)
        if props.get("projection.enabled") != "true":
            bad.append("%s: TBLPROPERTIES without projection.enabled" % name)
            continue
        values = []
        for k in keys:
            kind = props.get("projection.%s.type" % k)
            if kind == "enum":
                values.append([v.strip() for v in
                               props["projection.%s.values" % k].split(",")])
            elif kind == "date":
                if (props.get("projection.%s.format" % k) != "yyyy-MM-dd" or
                        props.get("projection.%s.interval" % k) != "1" or
                        props.get("projection.%s.interval.unit" % k) !=
                        "DAYS"):
                    bad.append("%s: %s: not a daily yyyy-MM-dd range" %
                               (name, k))
                    values.append([])
                    continue
                first, last = props["projection.%s.range" % k].split(",")
                try:
                    values.append(days(first, last))
                except ValueError as e:
                    bad.append("%s: %s: range %s,%s: %s (the query fails)" %
                               (name, k, first, last, e))
                    values.append([])
            else:
                bad.append("%s: key %s has no projection type" % (name, k))
                values.append([])
        tmpl = props.get("storage.location.template", "")
        built = set()
        for combo in itertools.product(*values):
            p = tmpl
            for k, v in zip(keys, combo):
                p = p.replace("${%s}" % k, v)
            built.add(p)
        for f in sorted(have):
            want = "%s/%s/%s/" % (loc, name, f)
            if want not in built:
                bad.append("%s: folder %r is never built by the projection" %
                           (name, f))
    print("; ".join(["%d tables, %d folders" % (ntab, nfold)] + bad[:8]))
    return 1 if bad or ntab == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
