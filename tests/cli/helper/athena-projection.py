#!/usr/bin/env python3
"""athena-projection.py - give the tables Trino made (`--ddl trino`, file
metastore) the partition projection of `--ddl athena`, as Athena keeps
it: the TBLPROPERTIES of each CREATE EXTERNAL TABLE, word for word, as
the table's metastore parameters (Glue holds them so; Trino's Hive
connector reads Athena's projection from them, hive.partition-projection-
enabled).  t7620 then queries without any partition registered: every
partition comes from the projection.

  athena-projection.py ATHENA.sql METASTORE_DIR S3_PREFIX LOCAL_PREFIX

S3_PREFIX in 'storage.location.template' becomes LOCAL_PREFIX (the
export is a local folder here).  Prints the tables patched; exit 1 if
a table has no projection or no metastore file.
"""
import json
import os
import re
import sys

PAIR = re.compile(r"^\s*'([^']*)' = '([^']*)',?$")


def main():
    ddl, meta, s3, local = sys.argv[1:5]
    text = "\n".join(line for line in open(ddl, encoding="utf-8").read()
                     .split("\n") if not line.lstrip().startswith("--"))
    done = []
    for st in text.split(";"):
        m = re.search(r"CREATE EXTERNAL TABLE IF NOT EXISTS pathstat\.(\w+)",
                      st)
        if not m or "PARTITIONED BY" not in st:
            continue
        name = m.group(1)
        tp = re.search(r"TBLPROPERTIES \((.*)\)\s*$", st, re.S)
        if not tp:
            print("%s: no projection in %s" % (name, ddl))
            return 1
        props = {}
        for line in tp.group(1).strip().split("\n"):
            pm = PAIR.match(line)
            if not pm:
                print("%s: line %r" % (name, line))
                return 1
            props[pm.group(1)] = pm.group(2)
        props["storage.location.template"] = \
            props["storage.location.template"].replace(s3, local, 1)
        path = os.path.join(meta, "pathstat", name, ".trinoSchema")
        if not os.path.exists(path):
            print("%s: no %s" % (name, path))
            return 1
        doc = json.load(open(path, encoding="utf-8"))
        doc.setdefault("parameters", {}).update(props)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(doc, f)
        done.append(name)
    print("projection of %s" % ", ".join(done))
    return 0 if done else 1


if __name__ == "__main__":
    sys.exit(main())
