#!/usr/bin/python3
"""duckdb_raw_probes.py - DuckDB on the raw files of a many_probes.py
tree: per path, n and type-7 p50/p95/p99 and max of connect_ms over the
successful probes, read straight from the CSVs (the path is the folder
name, as meta.json says there).  Needs PyPI's duckdb.

  duckdb_raw_probes.py TREE
"""
import sys

import duckdb


def main():
    tree = sys.argv[1]
    con = duckdb.connect()
    rows = con.execute(f"""
SELECT split_part(filename, '/', -3) AS path, count(*) AS n,
       quantile_cont(connect_ms, 0.5), quantile_cont(connect_ms, 0.95),
       quantile_cont(connect_ms, 0.99), max(connect_ms)
FROM read_csv('{tree}/*/*/probe.csv', filename = true, skip = 2,
              delim = ',', header = false,
              columns = {{'seq': 'BIGINT', 'unix_ns': 'BIGINT',
                          'connect_ms': 'DOUBLE', 'result': 'VARCHAR'}})
WHERE result = 'ok' AND connect_ms IS NOT NULL
GROUP BY 1 ORDER BY 1""").fetchall()
    for r in rows:
        print(*r)


if __name__ == "__main__":
    main()
