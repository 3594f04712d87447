# t7704: Athena's partition projection in `export --ddl athena` survives
# any value of a partition key.  For each odd value, a tree
# of two runs (that value and a plain one) is exported partitioned by
# its key and the DDL is read as Athena reads it: a table with
# 'projection.enabled' builds its partitions from the projection alone
# (an enum list split at ',' and trimmed; a date range of yyyy-MM-dd
# days from its first to NOW, one day apart) through
# 'storage.location.template', so every folder the export wrote must be
# among them; a table without projection must be followed by MSCK
# REPAIR TABLE.  Values an enum lists as they are keep their projection
# (it is not turned off for nothing); a day that is no calendar date
# (2026-02-30, 2026-13-01) made a date range Athena never builds it in;
# a '$' failed the query on Trino's projection (t7620).
# Athena itself is not reachable from a test, and Trino cannot run this
# DDL (t7620 records why): tests/cli/helper/projection.py is the reader.
probe() { # FILE V
	{
		echo "# pathprobe 1 target=h:5201 addr=10.0.0.2 count=2 interval_s=0.2 timeout_s=0.4 start=2025-01-15T01:00:00Z"
		echo "seq,unix_ns,connect_ms,result"
		echo "0,1736902800000000000,$2,ok"
		echo "1,1736902800200000000,$2,ok"
	} > "$1"
}
n=0
# case KEY PROJECTION VALUE...: runs P1.. with KEY=VALUE (day as it is,
# another key beside day 2025-01-15); PROJECTION: on or off
case_() {
	key=$1 want=$2
	shift 2
	n=$((n + 1))
	d=c$n
	i=0
	for v in "$@"; do
		i=$((i + 1))
		mkdir -p "$d/tree/P$i"
		probe "$d/tree/P$i/probe.csv" "0.$i"
		"$PY" -c 'import json, sys
m = {"path": sys.argv[1], "trial": 1, "day": "2025-01-15"}
m[sys.argv[2]] = sys.argv[3]
print(json.dumps(m))' "P$i" "$key" "$v" > "$d/tree/P$i/meta.json"
	done
	"$PS" ingest -q --db "$d/t.db" "$d/tree" 2>/dev/null
	"$PS" export -q --db "$d/t.db" --out "$d/ex" --partition-by "$key" \
	    2>/dev/null
	"$PS" export --db "$d/t.db" --ddl athena --out "$d/ex" \
	    --location s3://b/p > "$d/athena.sql" 2>/dev/null
	run "$PY" "$TOP/tests/cli/helper/projection.py" "$d/athena.sql" \
	    "$d/ex" s3://b/p
	shown=$(printf '%s' "$*" | tr -c '[:print:]' '?')
	ok "[ $RC = 0 ]" "$key = [$shown]: every folder reachable ($OUT)"
	case $want in
	on) ok "grep -q \"'projection.enabled' = 'true'\" $d/athena.sql" \
	    "$key = [$shown]: projected" ;;
	off) ok "! grep -q \"'projection.enabled'\" $d/athena.sql" \
	    "$key = [$shown]: no projection, MSCK REPAIR" ;;
	esac
}
case_ site on plain 'a b'
case_ site on plain 'é'
case_ site on plain 'br}ace'
case_ site off plain 'x$y'
case_ site off plain 'a,b'
case_ site off plain ' lead'
case_ site off plain 'trail '
case_ site off plain "o'k"
case_ site off plain 'x${y}'
case_ site off plain 'a/b'
case_ site off plain '__HIVE_DEFAULT_PARTITION__'
case_ day on 2024-02-29 2025-01-15
case_ day on 2026-02-30 2025-01-15
case_ day on 2026-13-01 2025-01-15
case_ day on 2025-1-15 2025-01-15
case_ day off '2025-01-15,x' 2025-01-15
ok "grep -q \"'projection.day.type' = 'date'\" c12/athena.sql &&
    grep -q \"'projection.day.range' = '2024-02-29,NOW'\" c12/athena.sql" \
    "a leap day is a date: the range starts there"
ok "grep -q \"'projection.day.type' = 'enum'\" c13/athena.sql" \
    "2026-02-30 is no date: the days are an enum"
test_done
