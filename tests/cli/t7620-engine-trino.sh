# t7620: a single-node Trino (from Maven Central, on Java 25) with the
# Hive connector on a file metastore runs the statements of `pathstat
# export --ddl trino` over the exported folder and the queries of
# `analyze ... --sql trino`: every cell equals `analyze --format csv`
# (1e-9, the same rows and columns in the same order), the end-of-test
# metrics (rps, loss_pct, jitter_ms, http_bps from the summaries dataset)
# too, every verb on the generated tree of days and instance types, and
# a tree partitioned by a tag with odd values (escaped folders).
# Athena's engine is Trino: the queries of `--sql athena` are Trino's
# text but for the header comment (compared here; one that differs runs
# on the Trino tables); Athena's DDL (Hive DDL: CREATE EXTERNAL TABLE,
# STORED AS, TBLPROPERTIES for partition projection, MSCK REPAIR) is not
# Trino's SQL, and each statement's rejection is recorded here (docs/export.md,
# "On the engines themselves"); its partition projection, given to
# Trino's tables as Athena keeps it, runs on Trino's own projection over
# odd partition values.  One server for everything:
# it starts in about a minute on two busy cores (the Hive plugin
# alone).
. "$TOP/tests/cli/engines.sh"
trino_prereq

cp -r "$TOP/samples/tree" tree
"$PS" ingest -q --db s.db tree 2>/dev/null
"$PS" export -q --db s.db --out ex 2>/dev/null
# Trino's local file system: local:// URIs (docs/export.md)
"$PS" export --db s.db --ddl trino --location "local://$PWD/ex" > t.sql
"$PS" export --db s.db --ddl athena --location "s3://bucket/prefix" > a.sql
# the generated tree of t7610, two days on two instance types
for d in 2026-09-01 2026-09-02; do
	for it in c6i.large c7g.xlarge; do
		"$PY" "$TOP/tests/cli/helper/flat-tree.py" big "$d" "$it" A,B 2 \
		    > /dev/null
	done
done
L='{tag:day}/{tag:instance_type}/{path}_{cond}_run{trial}'
"$PS" ingest -q --db m.db --layout "$L.json" --layout "$L.csv" big 2>/dev/null
"$PS" export -q --db m.db --out mx --partition-by day,instance_type,path \
    2>/dev/null
"$PS" export --db m.db --ddl trino --location "local://$PWD/mx" \
    --partition-by day,instance_type,path > m.sql
# odd partition values: escaped folders read back as analyze has them
. "$TOP/tests/cli/helper/odd-sites-tree.sh"
"$PS" export --db o.db --ddl trino --location "local://$PWD/ox" --out ox \
    > o.sql

trap trino_stop EXIT
trino_start || skip_all "Trino $TRINO_VERSION did not start (see above)"
ok "true" "Trino $TRINO_VERSION is up on loopback (${TRINO_START_S}s)"

Q='percentiles --metric connect_ms --by day
percentiles --metric http_ms --quantile oha --pool trials --stats p50,p99,p99.9,min,max,mean,n
delta --metric http_ms "G-G'"'"'" H-B
trials --metric connect_ms --by day
percentiles --metric rps --pool trials --by day
percentiles --metric loss_pct --stats p50,mean,max,n
trials --metric jitter_ms --stats p50,mean,n
delta --metric http_bps "G-G'"'"'" H-B'
{
	echo "@ s.db t.sql"
	echo "! SELECT count(*) FROM pathstat.samples HAVING count(*) = 41862"
	echo "! SELECT count(DISTINCT day) FROM pathstat.runs HAVING count(DISTINCT day) = 4"
	printf '%s\n' "$Q"
	echo "@ m.db m.sql"
	echo "percentiles --metric connect_ms --by day,instance_type"
	echo "ratio --metric throughput_bps --across P 4/1 --by instance_type"
	echo "delta --metric connect_ms B-A --by day"
	echo "trials --metric connect_ms --by day,instance_type"
	echo "percentiles --metric loss_pct --by instance_type"
	echo "@ o.db o.sql"
	echo "! SELECT count(*) FROM pathstat.runs HAVING count(*) = 11"
	echo "percentiles --metric connect_ms --by site"
	echo "trials --metric connect_ms --by site"
} > cases
"$PY" "$TOP/tests/cli/helper/engine-check.py" trino "$TRINO_URL" "$PS" \
    < cases > check.out 2> trino.err
engines_report check.out "Trino: "
n=$(grep -c '^ok - percentiles\|^ok - delta\|^ok - ratio\|^ok - trials' check.out)
ok "[ $n -eq 15 ]" "Trino gave analyze's table for all 15 queries ($n)"

# Athena's queries: the text of Trino's but for the header comment
# (dialect.c gives Athena Trino's spellings), so Trino's tables above
# stand for them; a query whose text differs runs on Trino itself.
# Athena's DDL, statement by statement: what Trino rejects is recorded.
printf '%s\n' "$Q" > qs
: > athena-cases
while IFS= read -r q; do
	eval "set -- $q"
	"$PS" analyze "$@" --db s.db --sql trino | grep -v '^--' > q.trino
	"$PS" analyze "$@" --db s.db --sql athena | grep -v '^--' > q.athena
	if cmp -s q.trino q.athena && [ -s q.trino ]; then
		_report 0 "--sql athena: $q: Trino's query but for comments"
	else
		echo "$q" >> athena-cases
	fi
done < qs
{
	if [ -s athena-cases ]; then
		echo "@ s.db t.sql"
		cat athena-cases
	else
		echo "@- s.db"
	fi
	echo "!x CREATE DATABASE IF NOT EXISTS pathstat"
	echo "!x MSCK REPAIR TABLE pathstat.samples"
	echo "!f a.sql"
} > cases-athena
"$PY" "$TOP/tests/cli/helper/engine-check.py" trino "$TRINO_URL" "$PS" \
    --dialect athena < cases-athena > athena.out 2> athena.err
engines_report athena.out "Athena's SQL on Trino: "
n=$(grep -c '^ok - percentiles\|^ok - delta\|^ok - ratio\|^ok - trials' athena.out)
ok "[ $n -eq $(wc -l < athena-cases) ]" \
    "--sql athena on Trino: the queries whose text differs from Trino's gave analyze's table ($n)"
ok "! grep -q '^# accepted: CREATE EXTERNAL TABLE' athena.out" \
    "Trino rejects Athena's CREATE EXTERNAL TABLE (Hive DDL)"

# Athena's partition projection, run by Trino's (the Hive connector
# reads Athena's projection from a table's parameters, as Glue keeps
# them): --ddl trino's tables without sync_partition_metadata, so no
# partition is registered, given the TBLPROPERTIES of --ddl athena word
# for word (tests/cli/helper/athena-projection.py), over days (a leap
# day) and sites with odd values an enum lists (a blank, é, '}'): every
# sample is found and the table equals analyze's.  A '$' in a value made
# Trino fail with "Illegal group reference" (it goes into the location
# template as a regex replacement): --ddl athena leaves such a key out
# of projection (t7704).
pv() { # FILE V1 V2 V3
	{
		echo "# pathprobe 1 target=h:5201 addr=10.0.0.2 count=3 interval_s=0.2 timeout_s=0.4 start=2025-01-15T01:00:00Z"
		echo "seq,unix_ns,connect_ms,result"
		echo "0,1736902800000000000,$2,ok"
		echo "1,1736902800200000000,$3,ok"
		echo "2,1736902800400000000,$4,ok"
	} > "$1"
}
i=0
for day in 2024-02-29 2025-01-15; do
	for site in plain 'a b' 'é' 'br}ace' q; do
		i=$((i + 1))
		mkdir -p "pt/P$i"
		pv "pt/P$i/probe.csv" "0.$i" "1.$i" "2.$i"
		"$PY" -c 'import json, sys
print(json.dumps({"path": "P" + sys.argv[1], "trial": 1, "day": sys.argv[2],
                  "site": sys.argv[3]}))' $((i % 3)) "$day" "$site" \
		    > "pt/P$i/meta.json"
	done
done
"$PS" ingest -q --db p.db pt 2>/dev/null
"$PS" export -q --db p.db --out px --partition-by day,site 2>/dev/null
"$PS" export --db p.db --ddl athena --out px --location s3://b/p > pa.sql
"$PS" export --db p.db --ddl trino --out px --location "local://$PWD/px" |
    grep -v '^CALL system.sync_partition_metadata' > pt.sql
ok "grep -q \"'projection.day.type' = 'date'\" pa.sql &&
    grep -q \"'projection.site.values' = 'a b,br}ace,plain,q,é'\" pa.sql" \
    "Athena's DDL projects day as dates and the odd sites as an enum"
cat > cases-proj <<EOT
@ p.db pt.sql
! SELECT count(*) FROM pathstat.samples HAVING count(*) = 0
\$ "$PY" "$TOP/tests/cli/helper/athena-projection.py" pa.sql "$TMP/trino/metastore" s3://b/p "local://$PWD/px"
! SELECT count(*) FROM pathstat.samples HAVING count(*) = 30
! SELECT count(DISTINCT site) FROM pathstat.runs HAVING count(DISTINCT site) = 5
percentiles --metric connect_ms --by day,site
EOT
"$PY" "$TOP/tests/cli/helper/engine-check.py" trino "$TRINO_URL" "$PS" \
    < cases-proj > proj.out 2> proj.err
engines_report proj.out "Athena's projection on Trino: "
ok "grep -q '^ok - percentiles' proj.out" \
    "Athena's projection on Trino: analyze's table over the projected partitions"
trino_stop
test_done
