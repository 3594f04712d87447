# t7610: Spark (pyspark, local mode on both cores) runs the statements of
# `pathstat export --ddl spark` over the exported folder and the queries
# of `pathstat analyze percentiles|delta|ratio|trials --sql spark`: every
# cell equals `analyze --format csv` (1e-9, the same rows and columns in
# the same order), on the sample tree (days, instance types, a path named
# G', oha runs with only a JSON summary, and the end-of-test metrics
# rps, loss_pct, http_bps and jitter_ms from the summaries dataset;
# type 7's percentiles of a group from one percentile(value, array(...)),
# out of order among other statistics) and on a generated tree of
# three days on two instance types, exported with instance_type and path
# folders too (every verb there as well, and an end-of-test metric),
# and a tree partitioned by a tag with odd values (escaped folders).
# The DDL's MSCK REPAIR finds every partition: a day added
# by a later export is there after the DDL runs again.
# tests/cli/helper/engine-check.py runs one Spark for all of them.
. "$TOP/tests/cli/engines.sh"
engines_python_prereq pyspark
command -v java >/dev/null 2>&1 || skip_all "Spark needs java (Debian: openjdk-17-jre-headless)"

cp -r "$TOP/samples/tree" tree
"$PS" ingest -q --db s.db tree 2>/dev/null
"$PS" export -q --db s.db --out ex 2>/dev/null
"$PS" export --db s.db --ddl spark --out ex > s.sql

# three days on two instance types (tests/cli/helper/flat-tree.py); the
# third comes later, while Spark runs (day.sh)
cat > day.sh <<'EOT'
# day.sh DAY: one more day of the generated tree, ingested and exported
for it in c6i.large c7g.xlarge; do
	"$PY" "$TOP/tests/cli/helper/flat-tree.py" big "$1" "$it" A,B 2 \
	    > /dev/null || exit 1
done
L='{tag:day}/{tag:instance_type}/{path}_{cond}_run{trial}'
"$PS" ingest -q --db m.db --layout "$L.json" --layout "$L.csv" big 2>/dev/null
"$PS" export -q --db m.db --out mx --partition-by day,instance_type,path
EOT
sh day.sh 2026-09-01
sh day.sh 2026-09-02
"$PS" export --db m.db --ddl spark --out mx > m.sql
# odd partition values: escaped folders read back as analyze has them
. "$TOP/tests/cli/helper/odd-sites-tree.sh"
"$PS" export --db o.db --ddl spark --out ox > o.sql
ok "[ -d mx/samples/day=2026-09-02/instance_type=c7g.xlarge/path=B ]" \
    "the generated tree is exported in day/instance_type/path folders"

cat > cases <<CASES
@ s.db s.sql
! SELECT count(*) FROM pathstat.samples HAVING count(*) = 41862
percentiles --metric connect_ms --by day
percentiles --metric http_ms --quantile oha --pool trials --stats p50,p99,p99.9,min,max,mean,n
percentiles --metric http_ms --pool trials --stats p99,n,p50,mean --by instance_type
delta --metric http_ms "G-G'" H-B
ratio --metric http_ms --across c 16/1
trials --metric http_ms --where path=G,H --stats p50,p99.9,mean,max,n
percentiles --metric rps --pool trials --by day
percentiles --metric loss_pct --stats p50,mean,max,n
delta --metric http_bps "G-G'" H-B
trials --metric jitter_ms --stats p50,mean,n
@ m.db m.sql
percentiles --metric throughput_bps --by instance_type
# a later export adds a day: the same DDL, run again, finds it
$ sh day.sh 2026-09-03 && [ -d mx/samples/day=2026-09-03 ]
@+ m.db m.sql
! SELECT count(DISTINCT day) FROM pathstat.runs HAVING count(DISTINCT day) = 3
percentiles --metric connect_ms --by day,instance_type
delta --metric connect_ms B-A --by day
ratio --metric throughput_bps --across P 4/1 --by instance_type
trials --metric connect_ms --by day,instance_type
percentiles --metric jitter_ms --by day,instance_type
@ o.db o.sql
! SELECT count(*) FROM pathstat.runs HAVING count(*) = 11
percentiles --metric connect_ms --by site
trials --metric connect_ms --by site
CASES
TMPDIR=$TMP SPARK_LOCAL_IP=127.0.0.1 engines_py "$TOP/tests/cli/helper/engine-check.py" spark \
    "$PS" < cases \
    > check.out 2> spark.err
engines_report check.out "Spark: "
[ -s check.out ] || tail -5 spark.err
n=$(grep -c '^ok - percentiles\|^ok - delta\|^ok - ratio\|^ok - trials' check.out)
ok "[ $n -eq 18 ]" "Spark gave analyze's table for all 18 queries ($n)"
test_done
