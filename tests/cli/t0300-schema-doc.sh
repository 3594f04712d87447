# t0300: docs/schema.md is what schema/gen-doc.py makes of schema/*.sql
# (so it lists every table and view with its columns, as they are), and
# the database pathstat makes has exactly the tables and views it lists.

"$PY" "$TOP/schema/gen-doc.py" "$TOP"/schema/[0-9][0-9][0-9]-*.sql > made.md
ok 'cmp -s made.md "$TOP/docs/schema.md"' \
    "docs/schema.md is current ('make schema-doc' writes it): $(diff "$TOP/docs/schema.md" made.md | head -5 | tr '\n' ' ')"

mkdir -p tree/A/trial1
echo '{"path": "A", "trial": 1, "instance_type": "c6i.large"}' > tree/A/trial1/meta.json
printf '%s\n' "# pathprobe 1 target=h:5201 addr=10.0.0.2 count=1 interval_s=0.2 timeout_s=0.4 start=2026-08-28T01:00:00Z" \
    "seq,unix_ns,connect_ms,result" "0,1787878800000000000,0.25,ok" > tree/A/trial1/probe.csv
run "$PS" ingest --db s.db tree
expect_code 0 "a database to compare with"
have=$(sql s.db "SELECT type || ' ' || name FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%'" | sort)
listed=$(awk '/^## Tables/ { t = "table" } /^## Views/ { t = "view" } /^### / { print t " " $2 }' "$TOP/docs/schema.md" | sort)
ok '[ "$have" = "$listed" ]' "the tables and views a database has are the ones listed ($(echo $have))"
for t in $(sql s.db "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"); do
	cols=$(sql s.db "SELECT group_concat(name, ' ') FROM pragma_table_xinfo('$t')")
	doc=$(awk -v t="$t" '/^### / { on = ($2 == t) } on && /^\| `/ { split($0, f, "`"); printf "%s%s", sep, f[2]; sep = " " }' "$TOP/docs/schema.md")
	ok '[ "$cols" = "$doc" ]' "table $t: the columns listed ($cols)"
done
test_done
