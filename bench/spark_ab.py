#!/usr/bin/env python3
"""spark_ab.py - two pathstat binaries' `analyze percentiles --sql spark`
queries, alternating in one Spark session with bench/spark_scale.py's
settings: does a change to the printed query make Spark faster?

  spark_ab.py EXPORT DB DDL ROUNDS PS_A PS_B METRIC...

EXPORT is the export folder (it sizes the shuffle, as in
spark_scale.py), DB the database it was exported from, DDL the file of
`pathstat export --ddl spark` statements.  Each round runs every
METRIC's query of A, then of B (odd rounds; even rounds B first, so
neither always gets the warmer JIT), times each query, and checks every
cell against `PS_A analyze percentiles --format csv` with
tests/cli/helper/engine-check.py's rule (1e-9).  Prints one line a
query, one a table (the metrics summed, with the 1-minute load average
before and after) and each binary's table times; exits 1 if any table
differs.  Used for the single percentile(value, array(...)) call
(docs/research/bench.md, "Scaling"):

  PY=~/.cache/pathstat-engines/venv/bin/python
  TMP=/tmp/ab TMPDIR=/tmp/ab SPARK_LOCAL_IP=127.0.0.1 $PY \\
      bench/spark_ab.py export ps.db spark.sql 4 old/pathstat ./pathstat \\
      http_ms connect_ms throughput_bps

The session is spark_scale.py's own (its session() and settings()).
"""
import importlib.util
import os
import subprocess
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


ec = load("engine_check", os.path.join(here, "..", "tests", "cli", "helper",
                                       "engine-check.py"))
sc = load("spark_scale", os.path.join(here, "spark_scale.py"))


def session(export, tmp):
    """engine-check.py's Spark (its run() and close()) on
    spark_scale.py's session."""
    cores, parts, mem_gb = sc.settings(export)
    eng = ec.Spark.__new__(ec.Spark)
    eng.s = sc.session(export, tmp, "pathstat-spark-ab")
    print("# spark settings: local[%d], shuffle partitions %d, driver "
          "memory %d GB" % (cores, parts, mem_gb), flush=True)
    return eng


def loadavg():
    with open("/proc/loadavg") as f:
        return f.read().split()[0]


def main():
    if len(sys.argv) < 8:
        sys.stderr.write(__doc__)
        return 2
    export, db, ddl, rounds, ps_a, ps_b = sys.argv[1:7]
    metrics = sys.argv[7:]
    eng = session(export, os.environ.get("TMP", "/tmp"))
    eng.run(eng.DROP)
    with open(ddl) as f:
        eng.run(f.read())
    query, ref = {}, {}
    for m in metrics:
        words = ["percentiles", "--metric", m]
        ref[m] = ec.analyze_table(ps_a, db, words)
        for tag, ps in (("A", ps_a), ("B", ps_b)):
            query[tag, m] = subprocess.run(
                [ps, "analyze"] + words + ["--db", db, "--sql", "spark"],
                capture_output=True, text=True, check=True).stdout
    fails = 0
    table = {"A": [], "B": []}
    for r in range(int(rounds)):
        for tag in ("A", "B") if r % 2 == 0 else ("B", "A"):
            secs = []
            l0 = loadavg()
            for m in metrics:
                t0 = time.time()
                cols, got = eng.run(query[tag, m])
                secs.append(time.time() - t0)
                head, rows, err = ref[m]
                bad = err or cols != head or len(got) != len(rows) or any(
                    not ec.same(a, b) for want, have in zip(rows, got)
                    for a, b in zip(want, have))
                fails += bool(bad)
                print("%s - %s round %d %s (%d rows, %.1f s)" % (
                    "not ok" if bad else "ok", tag, r + 1, m, len(got),
                    secs[-1]), flush=True)
            table[tag].append(sum(secs))
            print("# %s round %d: the table %.1f s (%s), load %s -> %s" % (
                tag, r + 1, sum(secs), " + ".join("%.1f" % s for s in secs),
                l0, loadavg()), flush=True)
    for tag, ps in (("A", ps_a), ("B", ps_b)):
        print("# %s (%s): %s s" % (tag, ps, ", ".join(
            "%.1f" % s for s in table[tag])))
    eng.close()
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
