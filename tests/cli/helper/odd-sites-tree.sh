# odd-sites-tree.sh - sourced by the engine tests (t7610 Spark, t7620
# Trino): a tree "ot" of 11 probe runs, one per odd value of the tag
# site (a quote, '/', ',', '$', é, a leading blank, '%', '=', ':') and a
# plain one, and a run without site, ingested into o.db and exported
# to ox partitioned by site: the escaped folder names (o%27k, a%2Fb,
# pct%2541...) and __HIVE_DEFAULT_PARTITION__ (the run without site)
# must read back as analyze has the values.  A value that is literally
# __HIVE_DEFAULT_PARTITION__ is not among them: Spark and Trino read it
# as NULL (docs/export.md, "On the engines themselves").  Uses $PS, $PY.
_pv() { # FILE V
	{
		echo "# pathprobe 1 target=h:5201 addr=10.0.0.2 count=3 interval_s=0.2 timeout_s=0.4 start=2025-01-15T01:00:00Z"
		echo "seq,unix_ns,connect_ms,result"
		echo "0,1736902800000000000,0.$2,ok"
		echo "1,1736902800200000000,1.$2,ok"
		echo "2,1736902800400000000,2.$2,ok"
	} > "$1"
}
_i=0
for _s in plain "o'k" a/b a,b 'x$y' é ' lead' pct%41 eq=1 c:d -; do
	_i=$((_i + 1))
	mkdir -p "ot/P$_i"
	_pv "ot/P$_i/probe.csv" "$_i"
	"$PY" -c 'import json, sys
m = {"path": "P%d" % (int(sys.argv[1]) % 3), "trial": 1, "day": "2025-01-15"}
if sys.argv[2] != "-":
    m["site"] = sys.argv[2]
print(json.dumps(m))' "$_i" "$_s" > "ot/P$_i/meta.json"
done
"$PS" ingest -q --db o.db ot 2>/dev/null
"$PS" export -q --db o.db --out ox --partition-by site 2>/dev/null
