# t7520: a report section's table from a CSV an engine wrote ("from_csv"
# in the spec): the sample tree's bundle made from the database, then
# each table's `pathstat analyze ... --sql duckdb` query run on DuckDB
# over the export and written with COPY ... TO (helper/from-csv.py), and
# the same spec with "from_csv" on every table gives the same bundle:
# every CSV number to 1e-9, every Markdown table line for line (a value
# beyond the probes' timeout reads "≥ timeout" without the timeout the
# CSV does not carry), captions that add where the numbers came from.
# Then the errors: a missing column, a row of another metric, a listed
# path without rows, a bad number, a missing file, a chart.
# tier: duckdb
. "$TOP/tests/cli/duckdb.sh"
duckdb_prereq

cp -r "$TOP/samples/tree" tree
"$PS" ingest -q --db s.db tree 2>/dev/null
"$PS" export -q --db s.db --out ex 2>/dev/null
"$PS" export --db s.db --ddl duckdb --out ex > views.sql
cp "$TOP/tests/fixtures/report/from-csv.json" spec.json
run "$PS" report --db s.db --spec spec.json --out b1 --no-checks --no-render
expect_code 0 "the bundle from the database"
mkdir eng
"$PY" "$TOP/tests/cli/helper/from-csv.py" "$PS" b1 spec.json views.sql \
    "$DUCKDB_DIR/query.mjs" eng/spec.json
ok "[ -s eng/01.csv ] && head -1 eng/01.csv | grep -q '^path,condition,'" \
    "DuckDB wrote each table's CSV"
run "$PS" report --db s.db --spec eng/spec.json --out b2 --no-checks \
    --no-render
expect_code 0 "the bundle from DuckDB's CSVs"
ok "[ \"\$(ls b1/tables)\" = \"\$(ls b2/tables)\" ]" "the same table files"
for f in b1/tables/*.csv; do
	n=$(basename "$f")
	ok "\"$PY\" - \"$f\" \"b2/tables/$n\" <<'PY'
import csv, sys
a, b = (list(csv.reader(open(f))) for f in sys.argv[1:3])
# delta's growth is left to analyze (the query has no such column): the
# engine's table has it empty, and the rest must agree
g = [i for i, k in enumerate(a[0] if a else [])
     if k in ('growth', 'growth_ge_timeout')]
if g and any(r[i] for r in b[1:] for i in g if i < len(r)):
    sys.exit(1)
# trials' outliers: analyze names the one rule's (the selection's cells
# judged together), the query the cell's own rule on the row's
# statistic (helper/sql-check.py VALUES_DIFFER)
g += [i for i, k in enumerate(a[0] if a else [])
      if k in ('outliers', 'outlier_rule')]
a, b = ([[x for i, x in enumerate(r) if i not in g] for r in t]
        for t in (a, b))
# each side's loss (delta, ratio) is analyze's alone too: the engine's
# table has no such columns
loss = ('failures_', 'timeouts_', 'loss_pct_')
g = [i for i, k in enumerate(a[0] if a else []) if k.startswith(loss)
     and k not in (b[0] if b else [])]
a = [[x for i, x in enumerate(r) if i not in g] for r in a]
def same(x, y):
    try:
        x, y = float(x), float(y)
    except ValueError:
        return x == y
    return abs(x - y) <= 1e-9 * max(1.0, abs(x), abs(y))
sys.exit(not (len(a) == len(b) and all(len(r) == len(s) and
         all(same(x, y) for x, y in zip(r, s)) for r, s in zip(a, b))))
PY" "$n: the same rows, numbers to 1e-9"
	m=${n%.csv}.md
	sed -e 's/≥ timeout ([0-9]* ms)/≥ timeout/' -e '/^_Table /d' \
	    -e '/^_Target: each side/d' -e '/^_The sides lose differently/d' \
	    -e 's/, \(receiver\|sender\) ([a-z ]*), loss [0-9.e+-]* %//g' \
	    "b1/tables/$m" > want.md
	# a pivot's UDP side and loss: analyze's alone too (the query has
	# no such columns)
	# each side's loss % (delta, ratio): analyze's alone
	"$PY" - want.md <<'PY'
import sys
lines = open(sys.argv[1]).read().split('\n')
cut = None
out = []
for l in lines:
    if l.startswith('|'):
        cells = l.split(' | ')
        if cut is None:
            cut = [i for i, c in enumerate(cells)
                   if c.rstrip(' |').startswith('loss % (')]
        keep = [c for i, c in enumerate(cells) if i not in cut]
        l = ' | '.join(keep)
        if cut and not l.endswith('|'):
            l += ' |'
    out.append(l)
open(sys.argv[1], 'w').write('\n'.join(out))
PY
	sed '/^_Table /d' "b2/tables/$m" > got.md
	case $m in
	*delta*)
		# without growth: analyze's column dropped from want, and
		# the engine's table says why it has none
		ok "grep -q 'growth (Δp99 / Δp50) is left to analyze' \
		    b2/tables/$m" \
		    "$m: the engine's table says growth is left to analyze"
		"$PY" - want.md <<'PY'
import sys
lines = open(sys.argv[1]).read().split('\n')
cut = None
out = []
for l in lines:
    if l.startswith('|'):
        cells = l.split(' | ')
        if cut is None:
            cut = [i for i, c in enumerate(cells) if c.startswith('growth')]
        cells = [c for i, c in enumerate(cells) if i not in cut]
        l = ' | '.join(cells)
    out.append(l)
open(sys.argv[1], 'w').write('\n'.join(out))
PY
		;;
	esac
	ok "diff -u want.md got.md" "$m: the same Markdown"
	ok "grep -q \"numbers from [0-9]*.csv, an engine's result\" \
	    b2/tables/$m" "$m: the caption says where the numbers came from"
done
ok "grep -q '≥ timeout (400 ms)' b1/tables/01-connect-all.md && \
    grep -q '| ≥ timeout |' b2/tables/01-connect-all.md" \
    "a censored value: ≥ timeout, without the timeout the CSV lacks"

bad() { # DESC MESSAGE JSON-EDIT: the edited spec fails with MESSAGE
	desc=$1 msg=$2
	"$PY" -c "import json, sys
s = json.load(open('eng/spec.json'))
x = s['sections'][0]
$3
json.dump(s, open('eng/bad.json', 'w'))"
	rm -rf b3
	run "$PS" report --db s.db --spec eng/bad.json --out b3 --no-checks \
	    --no-render
	expect_code 1 "$desc: exit 1"
	expect_err_has "$msg" "$desc: says so"
}
cut -d, -f1-10,12- eng/01.csv > eng/nop50.csv
bad "a missing column" \
    "sections[0]: from_csv 'eng/nop50.csv': no column 'p50' (analyze percentiles --format csv has: path, condition," \
    "x['from_csv'] = 'nop50.csv'"
sed 's/,connect_ms,/,handshake_ms,/' eng/01.csv > eng/other.csv
bad "another metric" \
    "from_csv 'eng/other.csv': line 2: metric 'handshake_ms', not the section's connect_ms" \
    "x['from_csv'] = 'other.csv'"
bad "another estimator" \
    "from_csv 'eng/01.csv': line 2: estimator 'type7', not the section's oha" \
    "x['estimator'] = 'oha'"
bad "a path without rows" "from_csv 'eng/01.csv': path 'Q' has no rows" \
    "x['paths'] = ['A', 'Q']"
sed '2s/,900,/,9x0,/' eng/01.csv > eng/badnum.csv
bad "a bad number" \
    "from_csv 'eng/badnum.csv': line 2, column 'n': '9x0' is not an integer" \
    "x['from_csv'] = 'badnum.csv'"
bad "a missing file" "from_csv 'eng/nothere.csv': No such file" \
    "x['from_csv'] = 'nothere.csv'"
bad "a chart" "sections[0].from_csv: a table from a CSV has no samples to chart" \
    "x['chart'] = 'bars'"
test_done
