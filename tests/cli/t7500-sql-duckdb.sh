# t7500: the query `pathstat analyze ... --sql duckdb` prints, run on
# DuckDB over an export of the sample tree, gives analyze's own table
# (--format csv): the same columns in the same order, the same rows in
# the same order, text equal and numbers to 1e-9.  percentiles, delta,
# ratio and trials; pooled and per trial; type7 and oha; --where, --by
# and --paths; connect probes' failures and ≥ timeout flags; runs of one
# trial number on several days in the order they ran; a mean of 0 (no
# deviation in percent); and oha runs
# that have only a JSON summary (tool-only trials, a path with nothing
# else, a pair and a ratio with one side missing).
# tests/cli/helper/sql-check.py does the comparing.
# tier: duckdb
. "$TOP/tests/cli/duckdb.sh"
duckdb_prereq

cp -r "$TOP/samples/tree" tree
# oha JSON alone: a fourth trial of G beside three with raw requests, and
# path Z with nothing else (one byte more, so not the same content)
src=tree/ecs-conn/2026-08-30/trial2/G_ka-off_c1_1k
d4=tree/ecs-conn/2026-08-31/trial4/G_ka-off_c1_1k
dz=tree/ecs-conn/2026-08-31/trial1/Z_ka-off_c1_1k
mkdir -p "$d4" "$dz"
{ cat "$src/G_ka-off_c1_1k.json"; echo; } > "$d4/G_ka-off_c1_1k.json"
{ cat "$src/G_ka-off_c1_1k.json"; echo; echo; } > "$dz/Z.json"
echo '{"path": "G", "trial": 4, "condition": "ka-off_c1_1k", "tool": "oha"}' \
    > "$d4/meta.json"
echo '{"path": "Z", "trial": 1, "condition": "ka-off_c1_1k", "tool": "oha"}' \
    > "$dz/meta.json"
"$PS" ingest -q --db s.db tree 2>/dev/null
"$PS" export -q --db s.db --out ex 2>/dev/null
"$PS" export --db s.db --ddl duckdb --out ex > views.sql
ok "\"$PS\" analyze percentiles --db s.db \
    --metric http_ms --where path=G --pool trials --format csv | grep -q type7+tool" \
    "the tree has a cell with a tool-only trial"

cat > cases <<'CASES'
percentiles --metric connect_ms
percentiles --metric connect_ms --stats p10,p50,p99.99,max,min,mean,n --by hour
percentiles --metric connect_ms --where study=tokyo-osaka --by day --pool trials
percentiles --metric connect_ms --where day=2026-08-28..2026-08-29 --where hour=0..2 --by week,month
percentiles --metric http_ms --where c=2..16 --where day=2026-08-30.. --by day --pool pooled
percentiles --metric http_ms --pool pooled
percentiles --metric http_ms --pool trials
percentiles --metric http_ms --quantile oha --pool pooled
percentiles --metric http_ms --quantile oha --pool trials --stats p50,p90,p99.9,min,max,mean,n
percentiles --metric http_ms --where c=16 --where ka=on,off --paths H,B,G --pool pooled
percentiles --metric http_ms --where path=G,Z --pool trials --stats p50,p99,p99.9,min,max,mean,n
percentiles --metric http_ms --where day= --where day=2026-08-31 --by day --pool pooled
percentiles --metric throughput_bps --by instance_type,day
percentiles --metric retransmits --stats p50,max,mean,n
delta --metric http_ms "G-G'" H-B --pool pooled
delta --metric http_ms "G-G'" --pool trials --quantile oha
delta --metric http_ms G-Z Z-G A-C --pool trials
delta --metric connect_ms L2-L1 A-B --by day
ratio --metric http_ms --across c 16/1 --pool pooled
ratio --metric http_ms --across c 16/1 --pool trials --quantile oha
ratio --metric http_ms --across ka off/on --pool trials --by instance_type
trials --metric http_ms --pool pooled
trials --metric http_ms --where path=G,Z --stats p50,p99.9,mean,max,n --pool pooled
trials --metric http_ms --stats p50,p99.9,max,n --quantile oha --pool trials
trials --metric connect_ms --by day
trials --metric connect_ms --by tool,az
trials --metric throughput_bps
trials --metric retransmits --stats p50,mean,max,min,n --pool trials --by day
percentiles --metric retransmits --pool trials --stats p50,mean,max,min,n
ratio --metric retransmits --across P 4/1 --stats p50,mean,n
delta --metric http_ms H-B --by trial --pool trials
CASES
"$PY" "$TOP/tests/cli/helper/sql-check.py" "$PS" s.db views.sql \
    "$DUCKDB_DIR/query.mjs" < cases > check.out 2>&1
while IFS= read -r line; do
	case "$line" in
	"ok - "*) _report 0 "--sql duckdb = analyze: ${line#ok - }" ;;
	"not ok - "*) _report 1 "--sql duckdb = analyze: ${line#not ok - }" ;;
	*) echo "$line" ;;
	esac
done < check.out
test_done
