#!/usr/bin/env python3
"""spark_scale.py - tests/cli/helper/engine-check.py with a Spark session
sized for millions of rows (bench/scale.sh).

  spark_scale.py EXPORT PATHSTAT < CASES

The cases, the statements, the queries and the equality check are
engine-check.py's own (it is loaded, not copied); only the session
differs.  engine-check.py's session is tuned for the few thousand rows
of the engine tests: expressions interpreted (no whole-stage code
generation, no Janino), no adaptive query execution, 2 shuffle
partitions, a 2 GB heap, the quick JIT (C1) alone and one GC thread.
Over 2 M to 200 M samples every row goes through the interpreter under
those settings (20 M samples did not finish in 14 minutes), so here:

- whole-stage code generation on (Spark's default): the compile costs
  seconds once per stage and saves per row;
- adaptive query execution on (Spark's default), which coalesces the
  shuffle partitions that come out small;
- spark.sql.shuffle.partitions: one per 64 MB of the export's samples/
  Parquet, at least 4 per core, a multiple of the cores (AQE merges
  what is small, so too many costs little, too few leaves a core idle
  or one task holding a large percentile buffer);
- the driver (which is the executor in local mode) gets a third of the
  machine's RAM (/proc/meminfo MemTotal; at least 2 GB): the exact
  percentile() aggregate holds every distinct value of a cell with its
  count in the heap, and at 20 M samples a 2 GB heap filled and the
  run became garbage collection (docs/research/bench.md, "Scaling");
- the JVM's full JIT (C2) and the parallel GC with one thread per core.

EXPORT is the export folder (its manifest.json sizes the shuffle).
Prints "# spark settings: ..." first, then engine-check.py's lines.
"""
import importlib.util
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
CHECK = os.path.join(here, "..", "tests", "cli", "helper", "engine-check.py")


def samples_bytes(export):
    d = json.load(open(os.path.join(export, "manifest.json")))
    d = d["datasets"]["samples"]
    return sum(f["bytes"] for p in d["partitions"] for f in p["files"])


def mem_total_bytes():
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) * 1024
    return 6 << 30


def settings(export):
    cores = int(os.environ.get("SCALE_SPARK_CORES", os.cpu_count() or 2))
    b = samples_bytes(export)
    parts = max(4 * cores, -(-b // (64 << 20)))
    parts = -(-parts // cores) * cores
    mem_gb = int(os.environ.get("SCALE_SPARK_MEM_GB",
                                max(2, mem_total_bytes() // 3 >> 30)))
    return cores, parts, mem_gb


def session(export, tmp, app):
    """The SparkSession for millions of rows (docs/research/bench.md, "Spark's
    session"): settings() sizes it from the export; tmp holds Spark's
    scratch.  spark_ab.py builds its session here too."""
    from pyspark.sql import SparkSession
    cores, parts, mem_gb = settings(export)
    s = (SparkSession.builder.master("local[%d]" % cores)
         .appName(app)
         .config("spark.ui.enabled", "false")
         .config("spark.ui.showConsoleProgress", "false")
         .config("spark.driver.host", "127.0.0.1")
         .config("spark.driver.bindAddress", "127.0.0.1")
         .config("spark.sql.shuffle.partitions", str(parts))
         .config("spark.default.parallelism", str(cores))
         .config("spark.sql.codegen.wholeStage", "true")
         .config("spark.sql.adaptive.enabled", "true")
         .config("spark.sql.adaptive.coalescePartitions.enabled", "true")
         .config("spark.sql.session.timeZone", "UTC")
         .config("spark.driver.memory", "%dg" % mem_gb)
         .config("spark.sql.warehouse.dir",
                 os.path.join(tmp, "spark-warehouse"))
         .config("spark.local.dir", tmp)
         .config("spark.driver.extraJavaOptions",
                 "-Dderby.system.home=%s -Djava.io.tmpdir=%s "
                 "-XX:+UseParallelGC -XX:ParallelGCThreads=%d "
                 "-Xshare:auto" % (tmp, tmp, cores))
         .getOrCreate())
    s.sparkContext.setLogLevel("ERROR")
    return s


def main():
    export = sys.argv.pop(1)
    spec = importlib.util.spec_from_file_location("engine_check", CHECK)
    ec = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ec)
    cores, parts, mem_gb = settings(export)

    class ScaleSpark(ec.Spark):
        def __init__(self, tmp):
            self.s = session(export, tmp, "pathstat-bench-scale")

    ec.Spark = ScaleSpark
    print("# spark settings: local[%d], whole-stage codegen on, AQE on, "
          "shuffle partitions %d, driver memory %d GB, C2 JIT, parallel GC"
          % (cores, parts, mem_gb), flush=True)
    return ec.main()


if __name__ == "__main__":
    sys.exit(main())
