# t7605: every data page `pathstat export` writes carries its statistics
# in its header (null count, min and max; a double's NaN left out and
# its zeros signed; strings over 512 bytes without min/max), as
# parquet-mr, Apache Parquet's Java reader (the jars of pyspark's venv),
# reads them, equal to the page's values as pyarrow reads them, and the
# chunk's statistics its pages' merged: on the sample tree plus a
# pathprobe run of 400000 probes (a day's samples chunk of many pages,
# one of them all nulls: no min/max), with the defaults and with PLAIN
# pages.  A file without page statistics fails.
# tests/cli/helper/page-stats.py and PageStats.java do the checking.
# Runs under make test-engines (tests/cli/engines.sh).
. "$TOP/tests/cli/engines.sh"
engines_python_prereq pyarrow pyspark
command -v java >/dev/null 2>&1 || skip_all "parquet-mr needs java (Debian: openjdk-17-jre-headless)"
JARS=$("$EPY" -c 'import os, pyspark; print(os.path.join(os.path.dirname(pyspark.__file__), "jars"))')
ls "$JARS"/parquet-hadoop-*.jar >/dev/null 2>&1 ||
    skip_all "no parquet-hadoop jar in $JARS"

cp -r "$TOP/samples/tree" tree
# one long run: 400000 probes, a zero every 997th, timeouts from 60000
# to 330000 (more than two pages of 131072 samples: one is all nulls)
big=tree/tokyo-osaka/2026-08-29/Z/trial1
mkdir -p "$big"
echo '{"path": "Z", "trial": 1, "tool": "pathprobe"}' > "$big/meta.json"
"$PY" - "$big/probe.csv" <<'EOT'
import sys
with open(sys.argv[1], "w") as f:
    f.write("# pathprobe 1 target=z.example:5201 addr=10.0.1.9 "
            "count=400000 interval_s=0.2 timeout_s=0.4 "
            "start=2026-08-29T03:00:00Z\nseq,unix_ns,connect_ms,result\n")
    t0 = 1787972400000000000
    for i in range(400000):
        t = t0 + i * 200000000
        if 60000 <= i < 330000:
            f.write("%d,%d,,timeout\n" % (i, t))
        else:
            v = 0 if i % 997 == 0 else 1 + (i * 7919 % 10007) / 1000
            f.write("%d,%d,%.3f,ok\n" % (i, t, v))
EOT
run "$PS" ingest -q --db s.db tree
expect_code 0 "ingest the tree and the long run"

check() { # DIR DESC [--multipage]
	dir=$1 desc=$2
	shift 2
	engines_py "$TOP/tests/cli/helper/page-stats.py" "$@" "$JARS" \
	    $(find "$dir" -name '*.parquet' | sort) > check.out 2>&1
	engines_report check.out "$desc: "
}
run "$PS" export --db s.db --out v1
expect_code 0 "export (defaults)"
check v1 defaults --multipage
run "$PS" export --db s.db --out v2 --codec none --basic-encodings \
    --partition-by none
expect_code 0 "export --codec none --basic-encodings --partition-by none"
check v2 "plain" --multipage

# the checker is not blind: pyarrow's file without page statistics
"$EPY" -c '
import pyarrow as pa, pyarrow.parquet as pq
pq.write_table(pa.table({"x": [1, 2, None]}), "nostats.parquet",
               write_statistics=False)' || echo "# pyarrow could not write"
ok "! engines_py \"\$TOP/tests/cli/helper/page-stats.py\" \"\$JARS\" \
    nostats.parquet > bad.out 2>&1 &&
    grep -q '^not ok - page statistics: nostats.parquet rg 0 x page 0' bad.out" \
    "a file without page statistics fails"
test_done
