# t1908: the database remembers the --layout patterns each tree was
# ingested with (schema 008, root_layouts).  A flat tree of the second
# article's names ('{path}_{cond}.json' under trialN/) ingested with its
# layout, then again without it: the stored layout is used (said once),
# nothing is "no path ID"; --dry-run shows it; a new --layout replaces
# it, with a note; a tree without stored layouts is as before.

cat > mk.py <<'PY'
import json, os, sys
tpl = json.load(open(sys.argv[1]))
for t in (1, 2, 3):
    os.makedirs("flat/trial%d" % t)
    for k, p in enumerate(["A", "B", "G"]):
        doc = json.loads(json.dumps(tpl))
        doc["latencyPercentiles"]["p50"] *= 1 + t / 10 + k
        open("flat/trial%d/%s_ka-on_c1_1m.json" % (t, p), "w").write(json.dumps(doc))
PY
"$PY" mk.py "$FIX/reference/oha/synthetic-v1.15.0-normal.json"
lay='trial{trial}/{path}_{cond}.json'
run "$PS" ingest --db a.db --layout "$lay" flat
expect_code 0 "the flat tree ingested with its layout"
expect_sql a.db "SELECT group_concat(pattern, ' ') FROM root_layouts" "$lay" "the layout is stored with the tree"
expect_sql a.db "PRAGMA user_version" "$(schema_newest)" \
    "the newest schema ($(schema_newest)), root_layouts among it"

run "$PS" ingest --db a.db flat
expect_code 0 "a plain re-ingest without --layout exits 0"
expect_err_has "'flat' was ingested with --layout '$lay': using it" "it says it uses the stored layout"
expect_err_lacks "no path ID" "no file is without a path ID"
expect_err_has "9 unchanged" "every file is unchanged"

run "$PS" ingest --db a.db --dry-run flat
expect_code 0 "a dry run"
expect_err_has "using it" "the dry run shows the stored layout"
expect_out_has "layout 1: path=A trial=1" "and matches files with it"

run "$PS" ingest --db a.db --layout "$lay" --layout '{**}/{path}.json' flat
expect_err_has "its layouts are now --layout '$lay' --layout '{**}/{path}.json'" "a new --layout replaces the stored one, with a note"
expect_sql a.db "SELECT count(*) FROM root_layouts" 2 "both stored"

# a tree never given a layout: as before
mkdir -p other/A
printf '{"path": "A", "trial": 1}\n' > other/A/meta.json
cp "$FIX/reference/oha/synthetic-v1.15.0-normal.json" other/A/oha.json
run "$PS" ingest --db a.db other
expect_code 0 "a tree of meta.json folders needs no layout"
expect_err_lacks "was ingested with" "and gets no stored one"
test_done
