"""duckdb_table.py - DuckDB with the data in its own tables: the warm
peer of `pathstat analyze` (the data already loaded, as analyze's is in
its database) and the peer of `pathstat export`'s Parquet write.

  duckdb_table.py load VIEWS.sql DB    the views `pathstat export --ddl
                                       duckdb` prints, each copied into
                                       a table of that name in DB
  duckdb_table.py query DB SQL.sql     the rows of SQL.sql's last
                                       statement as a JSON array
  duckdb_table.py copy DB DIR          COPY samples TO DIR: Parquet,
                                       zstd, partitioned by day, as
                                       export writes samples/

Runs in PyPI's duckdb (bench/duckdb_setup.sh); bench/run.sh times query
against (a) and copy's peak RSS against export's.
"""
import json
import re
import sys

import duckdb


def connect(db):
    return duckdb.connect(db, config={
        "autoinstall_known_extensions": False,
        "autoload_known_extensions": False})


def load(views, db):
    con = connect(db)
    with open(views) as f:
        con.execute(f.read())
    names = re.findall(r"CREATE OR REPLACE VIEW (\w+)", open(views).read())
    for name in names:
        con.execute("CREATE TABLE t_%s AS FROM %s" % (name, name))
        con.execute("DROP VIEW %s" % name)
        con.execute("ALTER TABLE t_%s RENAME TO %s" % (name, name))
    n = con.execute("SELECT count(*) FROM samples").fetchone()[0]
    con.close()
    print("duckdb_table: %d tables, %d samples, DuckDB %s" %
          (len(names), n, duckdb.__version__), file=sys.stderr)


def query(db, sql):
    con = connect(db)
    with open(sql) as f:
        cur = con.execute(f.read())
    cols = [d[0] for d in cur.description]
    out = [dict(zip(cols, r)) for r in cur.fetchall()]
    con.close()
    sys.stdout.write(json.dumps(out, indent=1) + "\n")


def copy(db, out):
    con = connect(db)
    con.execute("COPY samples TO '%s' (FORMAT parquet, COMPRESSION zstd, "
                "PARTITION_BY (day))" % out.replace("'", "''"))
    con.close()


def main():
    a = sys.argv[1:]
    if len(a) == 3 and a[0] == "load":
        load(a[1], a[2])
    elif len(a) == 3 and a[0] == "query":
        query(a[1], a[2])
    elif len(a) == 3 and a[0] == "copy":
        copy(a[1], a[2])
    else:
        sys.exit(__doc__.split("\n\n")[1])


if __name__ == "__main__":
    main()
