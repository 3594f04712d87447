# t7700: several machines, one dataset (export --writer).  The
# sample tree is split by day into two halves, each ingested into its
# own database and exported into one folder by its own writer: the part
# files and manifests sit side by side (part-NAME-NNNNN.parquet,
# manifests/NAME.json), and an engine over the union gives what analyze
# gives on one database holding everything.  Overlapping days (the same
# files in two databases) are exported once: a writer leaves out the
# runs another writer's manifest lists, and when two writers exported
# the same runs without seeing each other's manifest (folders merged
# afterwards, as `aws s3 sync` of both does), the writer whose name
# sorts later drops them at its next export.
# tests/cli/helper/writers-check.py reads the manifests and each file's
# row count from its Parquet footer (no engine needed); with DuckDB,
# tests/cli/helper/sql-check.py runs --ddl duckdb and --sql duckdb over
# the union against `analyze --format csv` on the whole database.
# tier: duckdb

S="$TOP/samples/tree"
half() { # DIR DAY... : the sample tree less the folders of those days
	dir=$1
	shift
	mkdir -p "$dir"
	cp -r "$S" "$dir/tree"
	for d in "$@"; do
		find "$dir/tree" -type d -name "$d" -prune -exec rm -rf {} +
	done
}
half h1 2026-08-29 2026-08-30		# days 28 and 31
half h2 2026-08-28 2026-08-31		# days 29 and 30
half h3 2026-08-31			# days 28, 29, 30
half h4 2026-08-28 2026-08-29		# days 30 and 31
"$PS" ingest -q --db all.db "$S" 2>/dev/null
for i in 1 2 3 4; do
	"$PS" ingest -q --db "h$i.db" "h$i/tree" 2>/dev/null
done
runs=$(sql all.db "SELECT count(*) FROM runs")
samples=$(sql all.db "SELECT count(*) FROM samples")
r1=$(sql h1.db "SELECT count(*) FROM runs")
r2=$(sql h2.db "SELECT count(*) FROM runs")
r3=$(sql h3.db "SELECT count(*) FROM runs")
r4=$(sql h4.db "SELECT count(*) FROM runs")
ok "[ $((r1 + r2)) = $runs ] && [ $r1 -gt 0 ] && [ $r2 -gt 0 ]" \
    "the two halves hold every run once ($r1 + $r2 = $runs)"
ok "[ $((r3 + r4)) -gt $runs ]" \
    "the overlapping halves share day 2026-08-30 ($r3 + $r4 > $runs)"
whole="runs=$runs samples=$samples dups=0 unlisted=0 missing=0 rows_bad=0 names_bad=0"
wcheck() { "$PY" "$TOP/tests/cli/helper/writers-check.py" "$1"; }

# --- two halves, one folder
run "$PS" export -q --db h1.db --writer tokyo-1 --out ex
expect_code 0 "writer tokyo-1 exports its half"
run "$PS" export -q --db h2.db --writer osaka-2 --out ex
expect_code 0 "writer osaka-2 exports its half into the same folder"
ok "[ -f ex/manifests/tokyo-1.json ] && [ -f ex/manifests/osaka-2.json ] &&
    [ ! -e ex/manifest.json ]" "one manifest per writer, no manifest.json"
ok "[ -f ex/samples/day=2026-08-28/part-tokyo-1-00000.parquet ] &&
    [ -f ex/samples/day=2026-08-30/part-osaka-2-00000.parquet ] &&
    [ -f ex/findings/part-tokyo-1-00000.parquet ] &&
    [ -f ex/findings/part-osaka-2-00000.parquet ]" \
    "part files are named by writer"
run wcheck ex
ok "[ \"\$OUT\" = \"$whole\" ]" \
    "the union holds every run and sample once, as the files' footers count them" \
    "$OUT"
run "$PS" export --db h1.db --writer tokyo-1 --out ex
expect_err_has "nothing changed" "a writer's second export changes nothing"
run "$PS" export -q --db h2.db --writer osaka-2 --out ex --force
run wcheck ex
ok "[ \"\$OUT\" = \"$whole\" ]" \
    "--force rewrites only the writer's own files; the other's stay" "$OUT"

# --- overlapping days: the later writer leaves out what the other has
run "$PS" export -q --db h3.db --writer a --out ov
run "$PS" export --db h4.db --writer b --out ov
expect_code 0 "writer b exports days the folder has from writer a"
expect_err_has "left out $((r3 + r4 - runs)) runs that other writers exported" \
    "writer b says how many runs writer a already has"
run wcheck ov
ok "[ \"\$OUT\" = \"$whole\" ]" "overlapping days are not counted twice" \
    "$OUT"
run "$PS" export --db h3.db --writer a --out ov
expect_err_has "nothing changed" \
    "writer a, again: it keeps the runs it exported first"
run "$PS" export --db h4.db --writer b --out ov
expect_err_has "nothing changed" "writer b, again: nothing changed"

# --- the same runs exported by two writers that never saw each other
run "$PS" export -q --db h3.db --writer a --out oa
run "$PS" export -q --db h4.db --writer b --out ob
cp -r ob/. oa/
run wcheck oa
ok "case \$OUT in *\" dups=$((r3 + r4 - runs)) \"*) true;; *) false;; esac" \
    "merged blindly, both writers list the shared day's runs" "$OUT"
run "$PS" export --db h4.db --writer b --out oa
expect_err_has "removed 3 part files" \
    "writer b (sorting after a) drops its copy of the shared day"
run wcheck oa
ok "[ \"\$OUT\" = \"$whole\" ]" "after that, every run once" "$OUT"
ok "[ -f oa/samples/day=2026-08-30/part-a-00000.parquet ] &&
    [ ! -e oa/samples/day=2026-08-30/part-b-00000.parquet ]" \
    "writer a's files of the shared day stay, b's are gone"
run "$PS" export --db h3.db --writer a --out oa
expect_err_has "nothing changed" "writer a keeps them"

# --- what is refused
run "$PS" export -q --db h1.db --out single
run "$PS" export --db h2.db --writer x --out single
expect_code 2 "--writer into one machine's export (manifest.json) is refused"
expect_err_has "holds one machine's export" "and says why"
run "$PS" export --db h2.db --out ex
expect_code 2 "an export without --writer into the writers' folder is refused"
expect_err_has "with --writer" "and names --writer"
run "$PS" export --db h2.db --writer x --partition-by none --out ex
expect_code 2 "another partitioning than the other writers' is refused"
expect_err_has "one dataset has one partitioning" "and says why"
run "$PS" export --db h2.db --writer .x --out ex2
expect_code 2 "a writer name starting with '.' is refused"
run "$PS" export --db h2.db --writer a/b --out ex2
expect_code 2 "a writer name with '/' is refused"
ok "[ ! -e ex2 ]" "a refused name creates nothing"
run "$PS" export --db h2.db --writer x --ddl duckdb --out ex
expect_code 2 "--writer with --ddl is a usage error"
expect_err_has "reads every writer's manifest" "and says why"

# --- the DDL over the union: every writer's days
run "$PS" export --db h2.db --ddl athena --out ex --location s3://b/p
expect_out_has "'projection.day.range' = '2026-08-28,NOW'" \
    "Athena's projection starts at the first day of any writer, not of this database's"

# --- a key only one writer's runs have is a column of every table
mkdir hx
cp -r h2/tree hx/tree
echo '{"day": "2026-08-29", "rack": "r-7"}' \
    > hx/tree/tokyo-osaka/2026-08-29/meta.json
"$PS" ingest -q --db hx.db hx/tree 2>/dev/null
run "$PS" export -q --db h1.db --writer a --out exk
run "$PS" export -q --db hx.db --writer x --out exk
run "$PS" export --db h1.db --ddl trino --out exk --location s3://b/p
ok "[ \"\$(printf '%s\\n' \"\$OUT\" | grep -c '\"rack\" varchar')\" = 3 ]" \
    "the DDL made on a database without the key declares another writer's key column"
run "$PS" export --db h1.db --ddl trino --out ex --location s3://b/p
expect_out_lacks rack "and no such column where no writer has the key"

# --- an engine over the union equals analyze over everything (the
# checks above need no engine: without DuckDB they stand alone)
. "$TOP/tests/cli/duckdb.sh"
if ! DUCKDB_DIR=$(sh "$TOP/tests/duckdb/setup.sh" 2>"$TMP/.duckdb-why"); then
	echo "# DuckDB checks skipped: $(head -1 "$TMP/.duckdb-why")"
	test_done
fi
"$PS" export --db h1.db --ddl duckdb --out ex > views.sql
cat > cases <<'CASES'
percentiles --metric connect_ms
percentiles --metric connect_ms --where study=tokyo-osaka --by day --pool trials
percentiles --metric http_ms --pool trials
percentiles --metric http_ms --by day --pool pooled
percentiles --metric throughput_bps --by instance_type,day
delta --metric http_ms "G-G'" H-B --pool pooled
trials --metric http_ms --pool pooled
CASES
for dir in ex ov oa; do
	sed "s|$TMP/ex/|$TMP/$dir/|g" views.sql > "views-$dir.sql"
	"$PY" "$TOP/tests/cli/helper/sql-check.py" "$PS" all.db \
	    "views-$dir.sql" "$DUCKDB_DIR/query.mjs" < cases > "check-$dir.out" 2>&1
	while IFS= read -r line; do
		case "$line" in
		"ok - "*) _report 0 "$dir: DuckDB over the union = analyze on one database: ${line#ok - }" ;;
		"not ok - "*) _report 1 "$dir: DuckDB over the union = analyze on one database: ${line#not ok - }" ;;
		*) echo "$line" ;;
		esac
	done < "check-$dir.out"
done

# --- docs/export.md's "At scale": a query over the union, its CSV from the
# engine, and the report from that CSV on one writer's database (which
# holds only some of the days): the table of the database holding all
"$PS" analyze percentiles --db h2.db --metric connect_ms \
    --where study=tokyo-osaka --by day --sql duckdb > connect.sql
q=$(sed 's/;[[:space:]]*$//' connect.sql)
mkdir article
duckq -f views.sql "COPY ($q) TO '$TMP/article/engine.csv' (HEADER)" \
    > /dev/null
cat > article/spec.json <<'JSON'
{ "title": "TCP connect time per day",
  "sections": [
    { "type": "percentiles", "id": "connect", "title": "TCP connect time",
      "metric": "connect_ms", "where": { "study": "tokyo-osaka" },
      "by": "day", "from_csv": "engine.csv" } ] }
JSON
sed 's/, "from_csv": "engine.csv"//' article/spec.json > db-spec.json
run "$PS" report --db h2.db --spec article/spec.json --out article/bundle \
    --no-render --no-checks
expect_code 0 "report takes the engine's CSV on one writer's database"
run "$PS" report --db all.db --spec db-spec.json --out whole --no-render \
    --no-checks
expect_code 0 "the same report from the database holding everything"
# pooled_over names the keys the SQL-writing database knows: h2.db never
# saw the tag via (the NLB runs of 2026-08-28), so the engine's rows
# cannot name it (README, "At scale"); every other cell must agree.
ok "\"$PY\" - article/bundle/tables/01-connect.csv whole/tables/01-connect.csv <<'PY'
import csv, sys
a, b = (list(csv.reader(open(f))) for f in sys.argv[1:3])
drop = a[0].index('pooled_over') if 'pooled_over' in a[0] else None
a, b = ([[v for i, v in enumerate(r) if i != drop] for r in t] for t in (a, b))
def same(x, y):
    try:
        x, y = float(x), float(y)
    except ValueError:
        return x == y
    return abs(x - y) <= 1e-9 * max(1.0, abs(x), abs(y))
sys.exit(not (len(a) == len(b) > 1 and all(len(r) == len(s) and
    all(same(x, y) for x, y in zip(r, s)) for r, s in zip(a, b))))
PY" "the report from the union's CSV has the whole database's table (1e-9)"
test_done
