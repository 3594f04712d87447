# t3836: docs/export.md's DuckDB example runs as written (it
# needed a `duckdb` program the README did not say how to get).  The
# commands of docs/export.md's "On a laptop, DuckDB reads the same folder"
# block are taken from the page itself and run on the sample tree's
# database; the SQL goes through the Node package the README names
# (tests/duckdb/setup.sh, query.mjs), and the delta it prints equals
# `analyze delta`'s to 1e-9.  Skips without Node.js/npm.

. "$TOP/tests/cli/duckdb.sh"
duckdb_prereq
run "$PS" ingest --quiet --db demo.db "$TOP/samples/tree"
expect_code 0 "sample tree ingested"
awk '/^On a laptop, DuckDB reads the same folder:$/ { f = 1; next }
     f && /^```$/ { n++; if (n == 2) exit; next }
     f && n == 1 { print }' "$TOP/docs/export.md" > block.txt
ok '[ "$(grep -c "^pathstat " block.txt)" = 3 ] && grep -q "duckdb -csv" block.txt' \
    "the page's block: 3 pathstat commands and duckdb ($(wc -l < block.txt) lines)"
ok 'grep -q "node \"\$DIR/query.mjs\" -f views.sql -f delta.sql" "$TOP/docs/export.md"' \
    "docs/export.md names the Node package's command"
grep "^pathstat " block.txt | sed "s|^pathstat |\"\$PS\" |; s|build/demo.db|demo.db|" > cmds.sh
run sh -c ". ./cmds.sh"
expect_code 0 "the page's pathstat commands run ($ERR)"
ok '[ -s views.sql ] && [ -s delta.sql ] && [ -d export/samples ]' "they write the export, its views and the delta query"
run duckq -f views.sql -f delta.sql
expect_code 0 "the Node package runs the two files ($ERR)"
printf '%s\n' "$OUT" | tail -1 > duck.json
"$PS" analyze delta --db demo.db --metric http_ms "G-G'" H-B --format json > want.json 2>/dev/null
cat > cmp.py <<'PY'
import json
got = json.load(open("duck.json"))
want = json.load(open("want.json"))
key = lambda r: (r["pair"], r["condition"])
g = {key(r): r for r in got}
bad = 0
for w in want:
    r = g.get(key(w))
    if r is None:
        bad += 1
        continue
    for s in ("p50", "p95", "p99"):
        if w.get(s) is not None and abs(float(r[s]) - float(w[s])) > 1e-9:
            bad += 1
print(len(want), len(got), bad)
PY
run "$REAL_PY" cmp.py
read -r nw ng nbad <<EOF2
$OUT
EOF2
ok '[ "${nw:-0}" -ge 2 ] && [ "$nw" = "$ng" ] && [ "$nbad" = 0 ]' \
    "DuckDB's delta equals analyze's ($OUT: rows wanted, rows got, differences)"
test_done
