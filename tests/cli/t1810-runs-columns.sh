# t1810: `pathstat runs` shows a compact table by default — path,
# condition, trial, tool, metric, the tags whose values differ between
# the runs listed, samples, failures, status (conflict only when a run
# has one) — and names what it leaves out; `--columns` picks columns in
# every format, `all` shows every one; an unknown column is a usage
# error naming the columns there are.  CSV and JSON without --columns
# keep every key (t0110 holds the contract).

probe() { # DIR PATH TRIAL META-EXTRA N
	mkdir -p "$1"
	echo "{\"path\": \"$2\", \"trial\": $3$4}" > "$1/meta.json"
	{
		echo "# pathprobe 1 target=10.0.0.2:5201 addr=10.0.0.2 count=2 interval_s=0.2 timeout_s=0.4 start=2026-08-28T01:00:00Z"
		echo "seq,unix_ns,connect_ms,result"
		echo "0,1787878800000000000,0.2$5,ok"
		echo "1,1787878800200000000,0.3$5,ok"
	} > "$1/probe.csv"
}
probe tree/a1 A 1 ', "region": "r1", "az": "az1"' 1
probe tree/a2 A 2 ', "region": "r1", "az": "az2"' 2
probe tree/b1 B 1 ', "region": "r1", "az": "az1"' 3
run "$PS" ingest --db r.db tree
expect_code 0 "tree ingested"

run "$PS" runs --db r.db
expect_code 0 "runs exits 0"
head=$(printf '%s\n' "$OUT" | head -1)
ok '[ "$head" = "| Path | Condition | Trial | Tool | Metric | az | Samples | Failures | Status |" ]' \
    "the compact columns, with the one tag that differs (got: $head)"
expect_out_has "Every run listed has region=r1." "the tag every run shares is named under the table"
expect_out_has "Not shown: reason, started\\_utc, file, summary\\_file, conflict" "and the columns left out"
run "$PS" runs --db r.db --where az=az1
expect_out_has "Every run listed has az=az1, region=r1." "--where narrows what differs"
ok '[ "$(printf "%s\n" "$OUT" | head -1)" = "| Path | Condition | Trial | Tool | Metric | Samples | Failures | Status |" ]' \
    "and so the columns"

run "$PS" runs --db r.db --columns all
head=$(printf '%s\n' "$OUT" | head -1)
ok '[ "$head" = "| Path | Condition | Trial | Tool | Metric | az | region | Samples | Failures | Status | Reason | Started (UTC) | File | Summary file | Conflict |" ]' \
    "--columns all shows every column (got: $head)"
run "$PS" runs --db r.db --columns trial,path,file
ok '[ "$(printf "%s\n" "$OUT" | head -3)" = "$(printf "| Trial | Path | File |\n| --- | --- | --- |\n| 1 | A | tree/a1/probe.csv |")" ]' \
    "--columns picks the columns in its order"
run "$PS" runs --db r.db --columns path,samples --format json
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c 'import json, sys; r = json.load(sys.stdin); assert [list(x) for x in r] == [[\"path\", \"samples\"]] * 3, r'" \
    "--columns narrows JSON to the keys named"
run "$PS" runs --db r.db --columns az,path --format csv
ok '[ "$OUT" = "$(printf "az,path\naz1,A\naz2,A\naz1,B")" ]' "and CSV"
run "$PS" runs --db r.db --format json
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c 'import json, sys; r = json.load(sys.stdin); assert all(list(x) == [\"path\", \"condition\", \"trial\", \"tool\", \"metric\", \"az\", \"region\", \"samples\", \"failures\", \"status\", \"reason\", \"started_utc\", \"file\", \"summary_file\", \"conflict\"] for x in r), r[0]'" \
    "without --columns, JSON keeps every key"
run "$PS" runs --db r.db --files --columns file,status
ok '[ "$(printf "%s\n" "$OUT" | head -1)" = "| File | Status |" ]' "--columns works with --files"

run "$PS" runs --db r.db --columns path,nope
expect_code 2 "an unknown column is a usage error"
expect_err_has "no column 'nope' (columns: path, condition, trial, tool, metric, az, region, samples, failures, status, reason, started_utc, file, summary_file, conflict, or all)" \
    "naming the columns there are"
run "$PS" runs --db r.db --columns 'path,,trial'
expect_code 2 "an empty column name is a usage error"
run "$PS" runs --db r.db --columns ''
expect_code 2 "an empty --columns is a usage error"
run "$PS" runs --help
expect_out_has "--columns LIST|all" "--help names --columns"

# a conflict shows its column
mkdir -p tree2/x tree2/y
probe tree2/x A 1 '' 5
probe tree2/y A 1 '' 6
run "$PS" ingest --db c.db tree2
run "$PS" runs --db c.db
case "$(printf '%s\n' "$OUT" | head -1)" in *"| Conflict |") r=0 ;; *) r=1 ;; esac
ok "[ $r = 0 ]" "the conflict column shows when a run has one"
expect_out_has "CONFLICT" "and marks it"
test_done
