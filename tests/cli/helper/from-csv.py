#!/usr/bin/env python3
"""from-csv.py - the CSVs an engine would write for a bundle, and the spec
that takes its tables from them.

  from-csv.py PATHSTAT BUNDLE SPEC VIEWS.sql QUERY_MJS OUTSPEC

For each table of BUNDLE/provenance.json, the analyze command it records
is run again with --sql duckdb instead of --format csv; DuckDB runs the
query over the views of `pathstat export --ddl duckdb` (VIEWS.sql) and
writes its result with COPY ... TO 'NN.csv' beside OUTSPEC.  OUTSPEC is
SPEC with "from_csv": "NN.csv" on each of those sections.  Standard
library only.
"""
import json
import os
import re
import subprocess
import sys


def section_at(spec, loc):
    node = spec
    for name, index in re.findall(r"(\w+)\[(\d+)\]", loc):
        node = node[name][int(index)]
    return node


def main():
    ps, bundle, spec_file, views, query_mjs, out_spec = sys.argv[1:7]
    prov = json.load(open(os.path.join(bundle, "provenance.json")))
    spec = json.load(open(spec_file))
    out_dir = os.path.dirname(os.path.abspath(out_spec))
    for t in prov["tables"]:
        argv = list(t["argv"])
        i = argv.index("--format")
        argv[i:i + 2] = ["--sql", "duckdb"]
        p = subprocess.run([ps] + argv[1:], capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit("--sql: " + p.stderr)
        name = "%02d.csv" % t["table"]
        query = p.stdout.strip().rstrip(";")
        copy = "COPY (%s\n) TO '%s' (HEADER)" % (
            query, os.path.join(out_dir, name))
        d = subprocess.run(["node", query_mjs, "-f", views, copy],
                           capture_output=True, text=True)
        if d.returncode != 0:
            sys.exit(d.stderr)
        section_at(spec, t["spec_location"])["from_csv"] = name
    with open(out_spec, "w") as f:
        json.dump(spec, f, indent=1, ensure_ascii=False)


if __name__ == "__main__":
    main()
