#!/usr/bin/env python3
"""engine-check.py - the statements `pathstat export --ddl ENGINE` prints
and the queries `pathstat analyze ... --sql ENGINE` prints, run on the
engine itself, give `pathstat analyze ... --format csv` (trials: --format
json, the wide table): the same columns in the same order, the same rows
in the same order, text cells equal, numbers to 1e-9 (relative to the
larger magnitude, absolute below 1; but the columns of ANALYZE_ONLY,
which the query leaves to analyze, and the values of VALUES_DIFFER, both
from sql-check.py).  One engine session serves every
case (Spark and Trino start slowly).

  engine-check.py spark PATHSTAT < CASES
  engine-check.py trino URL PATHSTAT [--dialect D] < CASES

spark runs in this process (pyspark, local mode on two cores, an
in-memory catalog; the engines' venv, tests/engines/setup.sh).  trino
talks to a running server at URL over its HTTP protocol (catalog hive).
--dialect names the --sql dialect of the queries (default: the engine).
CASES holds one analyze command line per line (after `pathstat analyze`,
without --db and --format; shell words, '#' comments), over the database
of the last line "@ DB DDL.sql" (which drops what the engine has of
schema pathstat and runs the statements of DDL.sql); a line "! SQL" is
run on the engine as it is and must succeed (a probe of the DDL) and
return a row; "@+ DB DDL.sql" runs the statements again without
dropping; "@- DB" names the database and runs no DDL (the engine's
tables stay as they are); "$ CMD" runs a shell command, which must
exit 0; "!x SQL" must be rejected (the error is printed); "!f FILE"
runs each statement of FILE and prints "# accepted" or "# rejected:
why" (a record).  Prints "ok - ..." or "not ok - ..." per case with
"#" details; exit 1 if any failed.
"""
import csv
import io
import json
import os
import shlex
import subprocess
import sys
import time
import urllib.request

TOL = 1e-9


def _sql_check():
    """sql-check.py, DuckDB's checker beside this one: its lists of the
    columns the queries leave to analyze are the one home of them."""
    import importlib.util
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location(
        "sql_check", os.path.join(here, "sql-check.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# the columns a query leaves to analyze (compare's intervals and
# verdict, delta's growth, each side's loss, UDP's side) and those whose
# values only analyze makes (trials' outliers: the one rule)
ANALYZE_ONLY = _sql_check().ANALYZE_ONLY
VALUES_DIFFER = _sql_check().VALUES_DIFFER


def split_sql(text):
    """Statements of an SQL text, without their ';': quotes, backquotes
    and -- comments are skipped over; comment-only pieces dropped."""
    out, cur, i, n = [], [], 0, len(text)
    quote = None
    while i < n:
        ch = text[i]
        if quote:
            cur.append(ch)
            if ch == quote:
                quote = None
        elif ch in "'\"`":
            quote = ch
            cur.append(ch)
        elif text.startswith("--", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            i = j
            continue
        elif ch == ";":
            out.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
        i += 1
    out.append("".join(cur))
    return [s.strip() for s in out if s.strip()]


class Spark:
    DROP = "DROP DATABASE IF EXISTS pathstat CASCADE"

    def __init__(self, tmp):
        from pyspark.sql import SparkSession
        self.s = (SparkSession.builder.master("local[2]")
                  .appName("pathstat-engine-check")
                  .config("spark.ui.enabled", "false")
                  .config("spark.ui.showConsoleProgress", "false")
                  # loopback only: the driver and its executor threads
                  .config("spark.driver.host", "127.0.0.1")
                  .config("spark.driver.bindAddress", "127.0.0.1")
                  .config("spark.sql.shuffle.partitions", "2")
                  .config("spark.default.parallelism", "2")
                  # a few thousand rows: compiling Java code for each
                  # stage and expression (Janino) and re-planning each
                  # stage (AQE) cost more than they save: t7610 took
                  # 433 s with them, about half without (under load)
                  .config("spark.sql.codegen.wholeStage", "false")
                  .config("spark.sql.codegen.factoryMode", "NO_CODEGEN")
                  .config("spark.sql.adaptive.enabled", "false")
                  .config("spark.sql.session.timeZone", "UTC")
                  .config("spark.driver.memory", "2g")
                  .config("spark.sql.warehouse.dir",
                          os.path.join(tmp, "spark-warehouse"))
                  # scratch in the test's folder, none left in /tmp
                  .config("spark.local.dir", tmp)
                  .config("spark.driver.extraJavaOptions",
                          "-Dderby.system.home=%s -Djava.io.tmpdir=%s "
                          # a short run: the quick JIT alone, one GC
                          # thread (two busy cores)
                          "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC "
                          "-Xshare:auto" % (tmp, tmp))
                  .getOrCreate())
        self.s.sparkContext.setLogLevel("ERROR")

    def run(self, sql):
        """(columns, rows) of the last statement."""
        cols, rows = [], []
        for st in split_sql(sql):
            df = self.s.sql(st)
            cols = df.columns
            rows = [list(r) for r in df.collect()]
        return cols, rows

    def close(self):
        self.s.stop()


class Trino:
    DROP = "DROP SCHEMA IF EXISTS pathstat CASCADE"

    def __init__(self, url):
        self.url = url.rstrip("/")

    def one(self, sql):
        req = urllib.request.Request(
            self.url + "/v1/statement", data=sql.encode(), method="POST",
            headers={"X-Trino-User": "pathstat", "X-Trino-Catalog": "hive",
                     "X-Trino-Schema": "pathstat",
                     "X-Trino-Time-Zone": "UTC"})
        cols, rows = None, []
        deadline = time.time() + 900
        while True:
            with urllib.request.urlopen(req, timeout=120) as r:
                res = json.load(r)
            if "error" in res:
                e = res["error"]
                raise RuntimeError("%s: %s" % (e.get("errorName"),
                                               e.get("message")))
            if cols is None and "columns" in res:
                cols = [c["name"] for c in res["columns"]]
            rows += res.get("data", [])
            if "nextUri" not in res:
                break
            if time.time() > deadline:
                raise RuntimeError("query ran past 900 s")
            req = urllib.request.Request(res["nextUri"],
                                         headers={"X-Trino-User": "pathstat"})
        return cols or [], rows

    def one_ready(self, sql):
        # a server just up may not yet schedule on its own node
        # (NO_NODES_AVAILABLE): the same query again, for up to 60 s
        for _ in range(30):
            try:
                return self.one(sql)
            except RuntimeError as e:
                if not str(e).startswith("NO_NODES_AVAILABLE"):
                    raise
                time.sleep(2)
        return self.one(sql)

    def run(self, sql):
        cols, rows = [], []
        for st in split_sql(sql):
            cols, rows = self.one_ready(st)
        return cols, rows

    def close(self):
        pass


def number(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return None


def diff_scale(head, row, col):
    """compare's diff is value_stat - baseline_stat: its rounding error
    is relative to them (two means of the same values summed in another
    order differ in the last bits, and their difference with them)."""
    if col != "diff" or "baseline_stat" not in head:
        return 0.0
    xs = [number(row[head.index(k)]) for k in ("baseline_stat",
                                               "value_stat")]
    return max([abs(x) for x in xs if x is not None] or [0.0])


def same(a, b, scale=0.0):
    """A CSV cell of analyze against the engine's value."""
    if b is None:
        return a == ""
    if isinstance(b, bool):
        b = int(b)
    if isinstance(b, str):
        if b in ("NaN", "Infinity", "-Infinity"):
            return number(a) is not None and str(number(a)) == \
                str(number(b))
        return a == b
    x, y = number(a), float(b)
    if x is None:
        return False
    return abs(x - y) <= TOL * max(1.0, abs(x), abs(y), scale)


def same_text(a, b):
    """trials' per-trial values as text: the engines round with Java's
    formatting, which can differ from analyze's printf in the last
    decimal (docs/export.md: at an exact tie); equal to one unit there."""
    if not isinstance(b, str):
        return False
    xs, ys = a.split(","), b.split(",")
    if len(xs) != len(ys):
        return False
    for x, y in zip(xs, ys):
        x, y = x.strip(), y.strip()
        d = len(x.split(".")[1]) if "." in x else 0
        if number(x) is None or number(y) is None or \
                abs(number(x) - number(y)) > 1.000001 * 10 ** -d:
            return False
    return True


def analyze_table(ps, db, words):
    wide = words[0] == "trials"
    p = subprocess.run([ps, "analyze"] + words + ["--db", db, "--format",
                       "json" if wide else "csv"], capture_output=True,
                       text=True)
    if p.returncode:
        return None, None, p.stderr.strip()
    if wide:
        js = json.loads(p.stdout)
        head = list(js[0].keys()) if js else []
        rows = [["" if v is None else v if isinstance(v, str) else repr(v)
                 for v in r.values()] for r in js]
    else:
        rows = list(csv.reader(io.StringIO(p.stdout)))
        head, rows = rows[0], rows[1:]
    # compare's query leaves the intervals, test, adjusted p, verdict and
    # also_differ to analyze (export/sql_compare.c)
    keep = [i for i, c in enumerate(head)
            if c not in ANALYZE_ONLY.get(words[0], [])]
    return [head[i] for i in keep], [[r[i] for i in keep] for r in rows], \
        None


def load(eng, dialect, db, ddl, drop):
    """Run DDL on the engine, after dropping what an earlier one made
    (drop) or over it (the DDL again after a later export)."""
    t0 = time.time()
    try:
        if drop:
            eng.run(eng.DROP)
        eng.run(open(ddl).read())
        print("ok - %s: the statements of %s run (%.1f s)" %
              (db, ddl, time.time() - t0))
        return True
    except Exception as e:  # the engine's own error, as it said it
        print("not ok - %s: the statements of %s run" % (db, ddl))
        print("#   " + str(e).strip().splitlines()[0][:600])
        return False


def main():
    args = sys.argv[1:]
    engine_name = args.pop(0)
    if engine_name == "trino":
        url = args.pop(0)
    ps = args.pop(0)
    dialect = engine_name
    if args[:1] == ["--dialect"]:
        dialect = args[1]
    tmp = os.environ.get("TMP", "/tmp")
    t0 = time.time()
    eng = Spark(tmp) if engine_name == "spark" else Trino(url)
    print("ok - %s is up (%.1f s)" % (engine_name, time.time() - t0))
    fails = 0
    db = None
    for line in sys.stdin:
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        t1 = time.time()
        if line.startswith("$ "):
            p = subprocess.run(line[2:], shell=True, capture_output=True,
                               text=True)
            print(("not ok - " if p.returncode else "ok - ") + line[2:])
            if p.returncode:
                fails += 1
                print("#   exit %d: %s" % (p.returncode, p.stderr[-300:]))
            continue
        if line.startswith("@- "):
            db = line[3:].strip()
            continue
        if line.startswith("@ ") or line.startswith("@+ "):
            db, ddl = shlex.split(line.split(" ", 1)[1])
            if not load(eng, dialect, db, ddl, line.startswith("@ ")):
                fails += 1
                db = None
            continue
        if db is None:
            continue
        if line.startswith("!x "):
            try:
                eng.run(line[3:])
                fails += 1
                print("not ok - rejected: " + line[3:][:200])
                print("#   the engine accepted it")
            except Exception as e:
                print("ok - rejected: %s (%s)" % (
                    line[3:][:120].replace("\n", " "),
                    str(e).strip().splitlines()[0][:300]))
            continue
        if line.startswith("!f "):
            # every statement of a file, as far as the engine accepts it
            for st in split_sql(open(line[3:]).read()):
                head = " ".join(st.split())[:70]
                try:
                    eng.run(st)
                    print("# accepted: " + head)
                except Exception as e:
                    print("# rejected: %s: %s" % (
                        head, str(e).strip().splitlines()[0][:200]))
            continue
        if line.startswith("! "):
            try:
                cols, rows = eng.run(line[2:])
                if not rows:
                    raise RuntimeError("no row")
                print("ok - %s (%s)" % (line[2:], rows[:3]))
            except Exception as e:
                fails += 1
                print("not ok - " + line[2:])
                print("#   " + str(e).strip().splitlines()[0][:600])
            continue
        words = shlex.split(line)
        bad = []
        head, rows, err = analyze_table(ps, db, words)
        q = subprocess.run([ps, "analyze"] + words + ["--db", db, "--sql",
                           dialect], capture_output=True, text=True)
        got = []
        if err or q.returncode:
            bad.append("exit: %s %s" % (err or "", q.stderr.strip()))
        else:
            try:
                cols, got = eng.run(q.stdout)
            except Exception as e:
                bad.append(str(e).strip().splitlines()[0][:600])
                cols = None
            if cols is not None:
                if cols != head:
                    bad.append("columns: %s != %s" % (cols, head))
                if len(got) != len(rows):
                    bad.append("rows: %d from %s, %d from analyze" %
                               (len(got), engine_name, len(rows)))
                for i, (r, g) in enumerate(zip(rows, got)):
                    for c, a, b in zip(head, r, g):
                        if c in VALUES_DIFFER.get(words[0], []):
                            continue
                        if c == "values" and same_text(a, b):
                            continue
                        if not same(a, b, diff_scale(head, r, c)):
                            bad.append("row %d %s: analyze %r, %s %r" %
                                       (i + 1, c, a, engine_name, b))
        print(("not ok - " if bad else "ok - ") + line +
              ("" if bad else " (%d rows, %.1f s)" % (len(got),
                                                      time.time() - t1)))
        for b in bad[:6]:
            print("#   " + b)
        fails += bool(bad)
    eng.close()
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
