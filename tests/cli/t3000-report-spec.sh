# t3000: pathstat report's command line, spec errors (each naming the
# spec file and the JSON location, exit 1), the bundle folder policy
# (refuse a foreign non-empty folder, reuse a previous bundle, remove
# only files it wrote) and every exit code.

probe() { # FILE V1 V2 V3
	{
		echo "# pathprobe 1 target=h:5201 addr=10.0.0.2 count=3 interval_s=0.2 timeout_s=0.4 start=2026-08-28T01:00:00Z"
		echo "seq,unix_ns,connect_ms,result"
		echo "0,1787878800000000000,$2,ok"
		echo "1,1787878800200000000,$3,ok"
		echo "2,1787878800400000000,$4,ok"
	} > "$1"
}
mkdir -p tree/A tree/B
probe tree/A/probe.csv 0.21 0.22 0.23
probe tree/B/probe.csv 1.65 1.66 1.67
echo '{"path": "A", "trial": 1}' > tree/A/meta.json
echo '{"path": "B", "trial": 1}' > tree/B/meta.json
run "$PS" ingest --db t.db tree
expect_code 0 "tiny tree ingested"

cat > ok.json <<'EOF'
{ "title": "Tiny", "paths": {"A": "Same AZ", "B": "Cross-AZ"},
  "sections": [ { "type": "percentiles", "id": "connect", "metric": "connect_ms" } ] }
EOF

# command line: usage goes to stdout with -h, usage errors exit 2
run "$PS" report -h
expect_code 0 "report -h exits 0"
expect_out_has "usage: pathstat report" "report -h prints the usage on stdout"
run "$PS" help report
expect_code 0 "pathstat help report"
run "$PS" report --db t.db --spec s.json
expect_code 2 "no --out: usage error"
expect_err_has "pathstat report: --out DIR is required" "says what is missing"
run "$PS" report --db t.db --spec ok.json
expect_code 2 "no --out: usage error"
run "$PS" report --db t.db --spec ok.json --out b --bogus
expect_code 2 "unknown option: usage error"
run "$PS" report --db t.db --spec ok.json --out b extra
expect_code 2 "stray argument: usage error"
run "$PS"
expect_err_has "report" "the command list names report"

# spec errors: exit 1, "pathstat report: FILE: LOCATION: what"
run "$PS" report --db t.db --spec nosuch.json --out b
expect_code 1 "missing spec file: exit 1"
expect_err_has "cannot read spec 'nosuch.json'" "names the missing spec"
printf '{ "title": "x",\n  "sections": [ { "type": "percentiles", }\n] }\n' > bad.json
run "$PS" report --db t.db --spec bad.json --out b
expect_code 1 "bad JSON: exit 1"
expect_err_has "pathstat report: bad.json: line 2, column" "bad JSON names line and column"
printf '{ "title": "x", "sections": [' > cut.json
run "$PS" report --db t.db --spec cut.json --out b
expect_err_has "cut.json: line 1, column 30: bad JSON (unexpected end)" "a cut spec says where it ends"
echo '{ "title": "x", "sections": [ { "type": "histogram", "metric": "connect_ms" } ] }' > s1.json
run "$PS" report --db t.db --spec s1.json --out b
expect_code 1 "unknown section type: exit 1"
expect_err_has "s1.json: sections[0].type: unknown section type 'histogram'" "names the type's location"
echo '{ "title": "x", "sections": [ { "type": "group", "sections": [ { "type": "percentiles", "metric": "latency" } ] } ] }' > s2.json
run "$PS" report --db t.db --spec s2.json --out b
expect_err_has "s2.json: sections[0].sections[0].metric: unknown metric 'latency'" "unknown metric, nested location"
echo '{ "title": "x", "paths": {"A": "a", "Z": "ghost"}, "sections": [ { "type": "percentiles", "metric": "connect_ms" } ] }' > s3.json
run "$PS" report --db t.db --spec s3.json --out b3
expect_code 1 "a path without data: exit 1"
expect_err_has "s3.json: sections[0]: path 'Z' (inherited) has no connect_ms data" "names the path and the section"
echo '{ "title": "x", "sections": [ { "type": "percentiles", "metric": "connect_ms", "colour": "red" } ] }' > s4.json
run "$PS" report --db t.db --spec s4.json --out b
expect_err_has "s4.json: sections[0]: key 'colour' does not apply" "an unknown key is refused"
echo '{ "title": "x", "title": "y", "sections": [] }' > s5.json
run "$PS" report --db t.db --spec s5.json --out b
expect_err_has "key 'title' given twice" "a key given twice is refused"
echo '{ "title": "x", "sections": [ { "type": "percentiles", "metric": "connect_ms", "chart": "pie" } ] }' > s6.json
run "$PS" report --db t.db --spec s6.json --out b
expect_err_has "s6.json: sections[0].chart: unknown chart kind 'pie'" "unknown chart kind"
echo '{ "title": "x", "sections": [ { "type": "percentiles", "metric": "connect_ms", "stats": "p50,p999x" } ] }' > s7.json
run "$PS" report --db t.db --spec s7.json --out b
expect_err_has "s7.json: sections[0].stats:" "a bad statistic names its location"
echo '{ "title": "x", "sections": [ { "type": "delta", "metric": "connect_ms", "pairs": ["A-Q"] } ] }' > s8.json
run "$PS" report --db t.db --spec s8.json --out b8
expect_err_has "s8.json: sections[0].pairs[0]: pair 'A-Q': a path has no connect_ms data" "a pair naming an unknown path"
echo '{ "title": "x", "where": {"day": "1999-01-01"}, "sections": [ { "type": "percentiles", "metric": "connect_ms" } ] }' > s9.json
run "$PS" report --db t.db --spec s9.json --out b9
expect_err_has "s9.json: sections[0]: where: no run has day=1999-01-01 (values of day: 2026-08-28)" \
    "a where value no run has names the values there are"
echo '{ "title": "x", "sections": [ { "type": "ratio", "metric": "connect_ms", "across": "c", "ratio": "16" } ] }' > s10.json
run "$PS" report --db t.db --spec s10.json --out b
expect_err_has "s10.json: sections[0].ratio: want" "a ratio without NUM/DEN"
echo '[1, 2]' > s11.json
run "$PS" report --db t.db --spec s11.json --out b
expect_err_has "s11.json: (top level): want a JSON object" "a spec must be an object"
ok "[ ! -e b ]" "no bundle folder is made for a bad spec"

# the bundle folder
run "$PS" report --db nosuch.db --spec ok.json --out b
expect_code 1 "missing database: exit 1"
run "$PS" report --db t.db --spec ok.json --out b
expect_code 0 "a good spec: exit 0"
expect_err_has "wrote b/index.md: 1 table" "says where index.md is"
ok "[ -f b/index.md ] && [ -f b/provenance.json ] && [ -f b/tables/01-connect.csv ] && [ -f b/tables/01-connect.md ]" "index.md, provenance.json and the table files"
mkdir foreign && echo keep > foreign/notes.txt
run "$PS" report --db t.db --spec ok.json --out foreign
expect_code 1 "a foreign non-empty folder is refused"
expect_err_has "refusing to write into 'foreign'" "says why"
ok "[ ! -e foreign/index.md ]" "nothing written there"
run "$PS" report --db t.db --spec ok.json --out foreign --force
expect_code 0 "--force writes there"
ok "[ \"\$(cat foreign/notes.txt)\" = keep ]" "--force leaves other files alone"

# a previous bundle is rewritten; its own stale files go, others stay
echo mine > b/tables/mine.txt
cat > two.json <<'EOF'
{ "title": "Tiny", "sections": [
  { "type": "percentiles", "id": "connect", "metric": "connect_ms" },
  { "type": "percentiles", "id": "again", "metric": "connect_ms", "stats": "p50" } ] }
EOF
run "$PS" report --db t.db --spec two.json --out b
expect_code 0 "a previous bundle is reused"
ok "[ -f b/tables/02-again.csv ]" "the new table is there"
run "$PS" report --db t.db --spec ok.json --out b
expect_code 0 "back to one table"
ok "[ ! -e b/tables/02-again.csv ] && [ ! -e b/tables/02-again.md ]" "files the last bundle wrote and this one did not are removed"
ok "[ \"\$(cat b/tables/mine.txt)\" = mine ]" "files the bundle did not write stay"
ln -s "$TMP/victim" b/tables/01-connect.csv.tmp 2>/dev/null
rm -f b/tables/01-connect.csv && ln -s "$TMP/victim" b/tables/01-connect.csv
run "$PS" report --db t.db --spec ok.json --out b
expect_code 1 "a symlink planted in the bundle is not written through"
ok "[ ! -e victim ]" "the symlink's target was not created"
rm -f b/tables/01-connect.csv b/tables/01-connect.csv.tmp
printf 'not a bundle' > plain
run "$PS" report --db t.db --spec ok.json --out plain
expect_code 1 "--out naming a file is refused"

# --where target= in analyze: runs without the key (used by the sample spec)
run "$PS" analyze percentiles --db t.db --metric connect_ms --where target= --format csv
expect_code 0 "analyze --where KEY= (unset)"
ok "[ \"\$(printf '%s\n' \"\$OUT\" | wc -l)\" = 3 ]" "both paths lack the key"
test_done
