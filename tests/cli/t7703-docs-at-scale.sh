# t7703: docs/export.md's "At scale: several machines, one dataset" runs as
# written.  Its code blocks are taken from that page itself
# and run by sh -e: the per-machine block on two machines (tokyo-1 as
# written, osaka-2 with its W), each holding some days of the sample
# tree in its own pathstat.db; then, on a third machine with one
# writer's database, step 1 and the union block (the Athena DDL, DuckDB
# over a copy of the union, the report from the engine's CSV).  `aws s3
# sync` is tests/cli/helper/local-s3.py over a local folder standing for
# the bucket (the CLI's filter and --delete rules), `duckdb -csv` the
# Node package's DuckDB (tests/duckdb).  The union's table and the
# report made from it equal the database holding everything (1e-9), and
# a writer's --delete removes its own files only.  Without DuckDB the
# blocks run up to it and the rest is skipped.

. "$TOP/tests/cli/duckdb.sh"
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
half m1 2026-08-29 2026-08-30		# tokyo-1: days 28 and 31
half m2 2026-08-28 2026-08-31		# osaka-2: days 29 and 30
"$PS" ingest -q --db m1/pathstat.db m1/tree 2>/dev/null
"$PS" ingest -q --db m2/pathstat.db m2/tree 2>/dev/null
"$PS" ingest -q --db all.db "$S" 2>/dev/null

# the programs the blocks call, on PATH
mkdir bin s3
export LOCAL_S3="$TMP/s3"
mkdir "$LOCAL_S3/my-bucket"
printf '#!/bin/sh\nexec "%s" "$@"\n' "$PS" > bin/pathstat
printf '#!/bin/sh\n[ "$1" = s3 ] || { echo "aws: not in this test: $*" >&2; exit 2; }\nexec "%s" "%s/tests/cli/helper/local-s3.py" "$@"\n' \
    "$PY" "$TOP" > bin/aws
duck=""
if DUCKDB_DIR=$(sh "$TOP/tests/duckdb/setup.sh" 2>"$TMP/.duckdb-why"); then
	duck=$DUCKDB_DIR
	# `duckdb -csv`: the SQL on stdin, the last statement's rows as CSV
	cat > bin/duckdb <<-EOT
	#!/bin/sh
	[ "\$1" = -csv ] || { echo "duckdb: this test knows -csv only" >&2; exit 2; }
	cat > "$TMP/duck-in.sql"
	node "$duck/query.mjs" -f "$TMP/duck-in.sql" > "$TMP/duck-out.json" || exit 1
	"$PY" - "$TMP/duck-out.json" <<'PY'
	import csv, json, sys
	rows = json.loads(open(sys.argv[1]).read().splitlines()[-1])
	w = csv.writer(sys.stdout, lineterminator="\n")
	if rows:
	    w.writerow(list(rows[0]))
	for r in rows:
	    w.writerow(["" if v is None else v for v in r.values()])
	PY
	EOT
fi
chmod +x bin/*
PATH="$TMP/bin:$PATH"
export PATH

# the page's blocks
awk '/^## At scale: several machines, one dataset$/ { f = 1; next }
     f && /^## / { exit }
     f && /^```/ { n++; next }
     f && n % 2 == 1 { print > ("block" (n + 1) / 2 ".sh") }' \
    "$TOP/docs/export.md"
ok "[ -s block2.sh ] && [ -s block3.sh ] && grep -q '^W=tokyo-1\$' block2.sh &&
    grep -q 'duckdb -csv' block3.sh && grep -q '^pathstat report' block3.sh" \
    "the page's per-machine and union blocks ($(cat block2.sh block3.sh 2>/dev/null | wc -l) lines)"
sed 's/^W=tokyo-1$/W=osaka-2/' block2.sh > block2-osaka.sh

run sh -c "cd m1 && sh -e ../block2.sh"
expect_code 0 "tokyo-1 runs the per-machine block as written"
run sh -c "cd m2 && sh -e ../block2-osaka.sh"
expect_code 0 "osaka-2 runs it with its own W"
B=s3/my-bucket/pathstat
ok "[ -f $B/manifests/tokyo-1.json ] && [ -f $B/manifests/osaka-2.json ] &&
    [ -f $B/samples/day=2026-08-28/part-tokyo-1-00000.parquet ] &&
    [ -f $B/samples/day=2026-08-29/part-osaka-2-00000.parquet ] &&
    [ ! -e $B/manifest.json ]" \
    "the bucket holds both writers' part files and manifests"
ok "[ ! -e m2/export/samples/day=2026-08-28 ] &&
    [ -f m2/export/manifests/tokyo-1.json ]" \
    "osaka-2 fetched tokyo-1's manifest, not its part files"
run sh -c "cd m1 && sh -e ../block2.sh"
expect_code 0 "tokyo-1 again, after osaka-2"
ok "[ -f $B/samples/day=2026-08-29/part-osaka-2-00000.parquet ] &&
    [ -f $B/samples/day=2026-08-30/part-osaka-2-00000.parquet ]" \
    "tokyo-1's --delete leaves osaka-2's files in the bucket"

# a third machine with osaka-2's database (it has seen the study):
# step 1, then the union block
mkdir m3
cp m2/pathstat.db m3/
grep '^aws s3 sync s3://my-bucket/pathstat/manifests/' block2.sh > step1.sh
ok "[ \$(wc -l < step1.sh) = 1 ]" "step 1 is one command"
if [ -n "$duck" ]; then
	cp block3.sh union.sh
else
	# up to DuckDB: the Athena DDL over every writer's manifest
	sed '/^# or DuckDB/,$d' block3.sh > union.sh
fi
run sh -c "cd m3 && sh -e ../step1.sh && sh -e ../union.sh"
expect_code 0 "the union block runs as written"
ok "grep -q \"'projection.day.range' = '2026-08-28,NOW'\" m3/athena.sql" \
    "Athena's projection starts at tokyo-1's first day (osaka-2's database starts at 29)"
[ -n "$duck" ] ||
    skip_all "DuckDB: $(head -1 "$TMP/.duckdb-why") (the union's query and report)"

"$PS" analyze percentiles --db all.db --metric connect_ms \
    --where study=tokyo-osaka --by day --format csv > whole.csv
"$PY" -c 'import json, sys
s = json.load(open(sys.argv[1]))
del s["sections"][0]["from_csv"]
json.dump(s, open("whole-spec.json", "w"))' m3/article/spec.json
run "$PS" report --db all.db --spec whole-spec.json --out whole --no-render \
    --no-checks
expect_code 0 "the same section from the database holding everything"
# pooled_over names the keys the SQL-writing database knows: osaka-2's
# never saw the tag via (the NLB runs of 2026-08-28), so the engine's
# rows cannot name it (README, "At scale"); every other cell must agree.
cat > cmp.py <<'PY'
import csv, sys
a, b = (list(csv.reader(open(f))) for f in sys.argv[1:3])
drop = a[0].index("pooled_over") if "pooled_over" in a[0] else None
a, b = ([[v for i, v in enumerate(r) if i != drop] for r in t] for t in (a, b))
def same(x, y):
    try:
        x, y = float(x), float(y)
    except ValueError:
        return x == y
    return abs(x - y) <= 1e-9 * max(1.0, abs(x), abs(y))
bad = sum(not same(x, y) for r, s in zip(a, b) for x, y in zip(r, s)) + \
    sum(len(r) != len(s) for r, s in zip(a, b))
print("%d rows, %d rows, %d cells differ" % (len(a), len(b), bad))
sys.exit(not (len(a) == len(b) > 2 and bad == 0))
PY
run "$PY" cmp.py m3/article/engine.csv whole.csv
ok "[ $RC = 0 ]" "DuckDB over the union = analyze over everything ($OUT)"
run "$PY" cmp.py m3/article/bundle/tables/01-connect.csv whole/tables/01-connect.csv
ok "[ $RC = 0 ]" "the report from the engine's CSV has that table ($OUT)"
ok "grep -q 'numbers from engine.csv' m3/article/bundle/index.md" \
    "and its caption says where the numbers came from"

# tokyo-1 drops day 31 (pruned from its database): its next run of the
# block removes its own files of that day from the bucket, no other
find m1/tree -type d -name 2026-08-31 -prune -exec rm -rf {} +
"$PS" ingest -q --prune --db m1/pathstat.db m1/tree 2>/dev/null
run sh -c "cd m1 && sh -e ../block2.sh"
expect_code 0 "tokyo-1 after pruning day 31"
ok "[ -z \"\$(find $B -path '*day=2026-08-31*' -name '*.parquet')\" ] &&
    [ -f $B/samples/day=2026-08-28/part-tokyo-1-00000.parquet ] &&
    [ \$(find $B -name 'part-osaka-2-*.parquet' | wc -l) = 7 ]" \
    "--delete removed tokyo-1's day-31 files and kept osaka-2's 7"
test_done
