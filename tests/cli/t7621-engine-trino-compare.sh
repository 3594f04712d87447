# t7621: Trino (as t7620) runs the queries of `pathstat analyze compare
# --by KEY --sql trino` over `--ddl trino`'s tables: every column the
# query has equals `analyze compare --format csv` (1e-9, the same rows in
# the same order; the intervals, test, p, adjusted p and verdict
# are analyze's alone, export/sql_compare.c), on the sample
# tree and on a generated tree of two days on two instance types; and
# `--sql athena`'s compare query is Trino's text but for the header.
. "$TOP/tests/cli/engines.sh"
trino_prereq

cp -r "$TOP/samples/tree" tree
"$PS" ingest -q --db s.db tree 2>/dev/null
"$PS" export -q --db s.db --out ex 2>/dev/null
"$PS" export --db s.db --ddl trino --location "local://$PWD/ex" > t.sql
. "$TOP/tests/cli/helper/two-types-tree.sh"
"$PS" export --db m.db --ddl trino --location "local://$PWD/mx" \
    --partition-by day,instance_type,path > m.sql

Q='compare --metric http_ms --by instance_type --pool trials --stats p50,p90,mean,min,max,n
compare --metric connect_ms --by day --stats p50,p99,max,mean
compare --metric connect_ms --by region,day --baseline 2026-08-29 --pool trials
compare --metric rps --by day'
printf '%s\n' "$Q" > qs
while IFS= read -r q; do
	eval "set -- $q"
	"$PS" analyze "$@" --db s.db --sql trino | grep -v '^--' > q.trino
	"$PS" analyze "$@" --db s.db --sql athena | grep -v '^--' > q.athena
	ok "cmp -s q.trino q.athena && [ -s q.trino ]" \
	    "--sql athena: $q: Trino's query but for comments"
done < qs

trap trino_stop EXIT
trino_start || skip_all "Trino $TRINO_VERSION did not start (see above)"
ok "true" "Trino $TRINO_VERSION is up on loopback (${TRINO_START_S}s)"
{
	echo "@ s.db t.sql"
	printf '%s\n' "$Q"
	echo "@ m.db m.sql"
	echo "compare --metric throughput_bps --by instance_type"
	echo "compare --metric connect_ms --by instance_type,day --baseline 2026-09-02"
	echo "compare --metric connect_ms --by day --baseline 2026-09-03"
	echo "compare --metric http_ms --by day,instance_type --quantile oha --pool trials"
} > cases
"$PY" "$TOP/tests/cli/helper/engine-check.py" trino "$TRINO_URL" "$PS" \
    < cases > check.out 2> trino.err
engines_report check.out "Trino: "
n=$(grep -c '^ok - compare' check.out)
ok "[ $n -eq 8 ]" "Trino gave analyze's compare table for all 8 queries ($n)"
trino_stop
test_done
