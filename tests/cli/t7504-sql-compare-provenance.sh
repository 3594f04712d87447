# t7504: what `analyze compare|trials --sql duckdb` says it reproduces,
# run on DuckDB.  A campaign the collector made stamps every run with
# its hostname and session: analyze's compare filled also_differ with
# "hostname: ... vs ...; session: ..." on every row while the query
# (over an export, which leaves provenance out) left it empty, against
# docs/export.md's "same columns and rows".  Provenance is how a run was
# made, not what changed: neither names it now, and a tag that does
# differ (via) is named by both.  trials' query claimed the rows of
# `--format csv` (the long form, one row per trial) but gives those of
# `--format json` (one row per cell): its header now says so, and
# DuckDB's rows are the JSON's.
. "$TOP/tests/cli/duckdb.sh"
duckdb_prereq

# two instance types, each from its own collector session and host, and
# the second also through another route (via)
for it in c6i.large c7i.large; do
	via=direct k=1
	[ "$it" = c7i.large ] && via=nlb k=2
	for p in A B; do
		q=1
		[ "$p" = B ] && q=3
		for t in 1 2 3; do
			d=tree/$it/$p/trial$t
			mkdir -p "$d"
			{
				echo "# pathprobe 1 target=h:5201 addr=10.0.0.2 count=3 interval_s=0.2 timeout_s=0.4 start=2026-08-28T0$t:00:00Z"
				echo "seq,unix_ns,connect_ms,result"
				for i in 0 1 2; do
					echo "$i,178787880${t}00000000$i,0.$q$t$i$k,ok"
				done
			} > "$d/probe.csv"
			printf '{"path": "%s", "trial": %d, "day": "2026-08-28", "instance_type": "%s", "via": "%s", "hostname": "ip-%s", "session": "s-%s"}\n' \
			    "$p" "$t" "$it" "$via" "$it" "$it" > "$d/meta.json"
		done
	done
done
"$PS" ingest -q --db s.db tree 2>/dev/null
"$PS" export -q --db s.db --out ex 2>/dev/null
"$PS" export --db s.db --ddl duckdb --out ex > views.sql

run "$PS" analyze compare --db s.db --metric connect_ms --by instance_type \
    --format json
expect_code 0 "analyze compares the instance types"
ok "[ \"\$(printf '%s' \"\$OUT\" | \"\$PY\" -c 'import json, sys
r = json.load(sys.stdin)
r = r[\"rows\"] if isinstance(r, dict) else r
print(sorted(set(x[\"also_differ\"] for x in r)))')\" = \"['via: direct vs nlb']\" ]" \
    "also_differ names the tag that differs, not hostname or session"

cat > cases <<'CASES'
compare --metric connect_ms --by instance_type
compare --metric connect_ms --by instance_type --pool trials --stats p50,max
trials --metric connect_ms
trials --metric connect_ms --by instance_type
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
ok "[ \$(grep -c '^ok - ' check.out) -eq 4 ]" "all 4 queries ran and agreed"

# trials: the header names the output the query gives
run "$PS" analyze trials --db s.db --metric connect_ms --sql duckdb
expect_out_has "the same columns and rows as \`pathstat analyze ... --format json\`" \
    "trials' query says it gives the JSON's rows"
expect_out_lacks "--format csv\`." "and no longer claims the CSV's"
csv=$("$PS" analyze trials --db s.db --metric connect_ms --format csv | tail -n +2 | wc -l)
js=$("$PS" analyze trials --db s.db --metric connect_ms --format json |
    "$PY" -c 'import json, sys
r = json.load(sys.stdin)
print(len(r["rows"] if isinstance(r, dict) else r))')
ok "[ $csv -gt $js ]" "the CSV is the long form ($csv rows), the JSON one row per cell ($js)"

test_done
