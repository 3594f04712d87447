#!/bin/sh
# bench/run.sh - `make bench`: pathstat's ingest and analyze against
# reference implementations run on the same data in the same run, and
# reported as ratios; export to Parquet against ingest,
# its bytes per sample, and DuckDB over the export against analyze: a
# hand-written query and the ones `analyze --sql duckdb` prints; and
# pathstat's cold path (ingest + analyze) against DuckDB on the raw
# files (bench/duckdb_raw.py), paired; analyze against DuckDB on its own
# tables and export's peak memory against DuckDB's COPY
# (bench/duckdb_table.py); ingest against parsing alone; the report of
# the tree; and the scaling table (bench/scale.sh).  See bench/README.md.
#
#   sh bench/run.sh
#   env: BENCH_SIZE_GB   size of the generated tree (default 1.0: >= 1 GB,
#                        >= 20 M oha per-request rows)
#        BENCH_README=0|1  write the results into docs/research/bench.md
#                        (default: 1 when BENCH_SIZE_GB >= 1)
#        BENCH_OUT       where the tree and the work files go (bench/out;
#                        give a quick run its own to keep the big tree)
#        BENCH_MONTH=0|1  the year of hourly monitoring (bench/month.sh,
#                        default 1; BENCH_DAYS days, default 365)
#        BENCH_SCALE=0|1  the scaling table (bench/scale.sh, default 1) at
#                        BENCH_SCALE_SIZES (default: 0.01 and 0.1 GB where
#                        below BENCH_SIZE_GB, and BENCH_SIZE_GB); Spark
#                        only with BENCH_SCALE_SPARK=1
#        BENCH_DUCKDB_VENV  PyPI's duckdb for bench/duckdb_raw.py
#                        (bench/duckdb_setup.sh; default bench/out/duckdb-venv)
#        BENCH_SQLWIN_MAX_ROWS  (c), the SQL window query on the samples
#                        view, only up to this many samples (2500000)
#        BENCH_SQLWIN_TIMEOUT  and stopped after this many s (300)
#        PYTHON (/usr/bin/python3, which has Debian's pandas), SQLITE3
#
# The tree is generated once into bench/out/tree and reused while the
# generator, its seed and the size are unchanged.  Everything else lives
# in bench/out/work and is rebuilt on every run.  Each measurement runs
# under /usr/bin/time -v for wall time and peak RSS; one that takes less
# than 30 s is run three times and its median wall time reported (with
# the largest peak RSS of the three).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
PS=$top/pathstat
PY=${PYTHON:-/usr/bin/python3}
SQLITE3=${SQLITE3:-sqlite3}
SIZE=${BENCH_SIZE_GB:-1.0}
SQLWIN_MAX_ROWS=${BENCH_SQLWIN_MAX_ROWS:-2500000}
SQLWIN_TIMEOUT=${BENCH_SQLWIN_TIMEOUT:-300}
OUT=${BENCH_OUT:-$here/out}
TREE=$OUT/tree
W=$OUT/work
GEN=$top/samples/gen_samples.py
TIME=/usr/bin/time

die() { echo "bench: $*" >&2; exit 1; }
say() { echo "bench: $*" >&2; }

[ -x "$PS" ] || die "no $PS (run make)"
[ -x "$TIME" ] || die "no $TIME (apt-get install time)"
command -v "$SQLITE3" >/dev/null 2>&1 || die "no sqlite3 CLI (apt-get install sqlite3)"
"$PY" -c 'import pandas' 2>/dev/null ||
    die "$PY has no pandas (apt-get install python3-pandas)"
if [ -z "${BENCH_README:-}" ]; then
	BENCH_README=$(awk -v s="$SIZE" 'BEGIN { print (s + 0 >= 1) ? 1 : 0 }')
fi
t_start=$(date +%s)

# ---- the tree ---------------------------------------------------------

gen_hash=$( { cat "$GEN"; echo "size_gb=$SIZE"; } | sha256sum | cut -c1-16)
have_hash=$("$PY" -c 'import json, sys
try:
    print(json.load(open(sys.argv[1])).get("bench_generator_hash", ""))
except Exception:
    print("")' "$TREE/manifest.json")
if [ "$have_hash" = "$gen_hash" ]; then
	say "reusing $TREE (generator hash $gen_hash)"
else
	say "generating a $SIZE GB tree into $TREE (takes minutes; cached for later runs)"
	rm -rf "$TREE"
	mkdir -p "$OUT"
	"$PY" "$GEN" --bench --out "$TREE" --size-gb "$SIZE" >&2
	"$PY" -c 'import json, sys
p = sys.argv[1]
m = json.load(open(p))
m["bench_generator_hash"] = sys.argv[2]
with open(p, "w") as f:
    json.dump(m, f, indent=1)
    f.write("\n")' "$TREE/manifest.json" "$gen_hash"
fi
rm -rf "$W"
mkdir -p "$W"

# ---- measuring --------------------------------------------------------

# run_once NAME CMD...: run CMD once under time -v, stdout to $W/NAME.out,
# stderr to $W/NAME.err; appends "wall rss cpu load0 load1" to
# $W/NAME.runs (load = the 1-minute load average, /proc/loadavg, at the
# start and the end)
run_once() {
	name=$1
	shift
	rc=0
	l0=$(cut -d' ' -f1 /proc/loadavg)
	t0=$(date +%s.%N)
	"$TIME" -v -o "$W/$name.time" "$@" > "$W/$name.out" \
	    2> "$W/$name.err" || rc=$?
	t1=$(date +%s.%N)
	l1=$(cut -d' ' -f1 /proc/loadavg)
	[ "$rc" = 0 ] || say "$name: exit status $rc (see $W/$name.err)"
	# wall from date(1) (time -v rounds to 10 ms)
	awk -v t0="$t0" -v t1="$t1" -v l0="$l0" -v l1="$l1" '
	    /User time/ || /System time/ { c += $NF }
	    /Maximum resident set size/ { r = $NF }
	    END { printf "%.3f %d %.2f %s %s\n", t1 - t0, r, c, l0, l1 }' \
	    "$W/$name.time" >> "$W/$name.runs"
}
# summary NAME: from $W/NAME.runs, $W/NAME.wall (median wall s),
# NAME.cpu (median user + sys s), NAME.rss (largest peak RSS, KiB) and
# NAME.load (the load average at the first run's start → the last's end)
summary() {
	name=$1
	sort -n "$W/$name.runs" | awk '{ w[NR] = $1; if ($2 > r) r = $2 }
	    END { print w[int((NR + 1) / 2)] > "'"$W/$name.wall"'";
	          print r > "'"$W/$name.rss"'" }'
	sort -n -k3 "$W/$name.runs" | awk '{ c[NR] = $3 }
	    END { print c[int((NR + 1) / 2)] > "'"$W/$name.cpu"'" }'
	awk 'NR == 1 { a = $4 } { b = $5 } END { print a "→" b }' \
	    "$W/$name.runs" > "$W/$name.load"
	say "$name: $(cat "$W/$name.wall") s wall, $(cat "$W/$name.cpu") s CPU," \
	    "peak RSS $(cat "$W/$name.rss") KiB ($(wc -l < "$W/$name.runs")" \
	    "run(s)), load $(cat "$W/$name.load")"
}
# measure NAME SETUP CMD...: run CMD (after the shell command SETUP) with
# run_once; three times when the first takes < 30 s; then summary.
measure() {
	name=$1 setup=$2
	shift 2
	: > "$W/$name.runs"
	i=0
	while :; do
		i=$((i + 1))
		eval "$setup"
		run_once "$name" "$@"
		w=$(tail -1 "$W/$name.runs" | cut -d' ' -f1)
		if [ "$i" -ge 3 ] || awk -v w="$w" -v i="$i" \
		    'BEGIN { exit !(i == 1 && w >= 30) }'; then
			break
		fi
	done
	summary "$name"
}

wall() { cat "$W/$1.wall"; }
cpu() { cat "$W/$1.cpu"; }
rss() { cat "$W/$1.rss"; }
# calc EXPR -v NAME=VALUE...: awk arithmetic; "inf" when dividing by 0
# (a run too short for time -v's 10 ms CPU resolution)
calc() {
	expr=$1
	shift
	awk "$@" "function div(a, b) { return b ? a / b : \"inf\" }
	    BEGIN { v = $expr; printf (v == \"inf\" ? \"%s\" : \"%.6g\"), v }"
}

# Read the tree once so every contender starts from a warm page cache.
find "$TREE" -type f -exec cat {} + > /dev/null

# The pragmas pathstat's ingest sets (common/db.c), for sqlite3 too.
PRAGMAS="PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;
PRAGMA cache_size = -16384; PRAGMA temp_store = MEMORY;"

# ---- ingest -------------------------------------------------

measure ingest 'rm -f "$W"/ps.db "$W"/ps.db-wal "$W"/ps.db-shm' \
    "$PS" ingest -q --db "$W/ps.db" "$TREE"
rows=$("$SQLITE3" "$W/ps.db" "SELECT sum(rows) FROM series")
oha_rows=$("$SQLITE3" "$W/ps.db" "SELECT coalesce(sum(rows), 0) FROM series WHERE metric = 2")
nfiles=$("$SQLITE3" "$W/ps.db" "SELECT count(*) FROM files")
tree_bytes=$("$PY" -c 'import json, sys
print(json.load(open(sys.argv[1]))["total_bytes"])' "$TREE/manifest.json")
db_bytes=$(stat -c %s "$W/ps.db")
# Parse alone: `ingest --dry-run` reads and parses every file and writes
# nothing (into a database that does not exist, so no file is skipped as
# already stored); ingest ÷ parse is what storing adds to reading.
measure parse 'rm -f "$W"/dry.db*' \
    "$PS" ingest -q --dry-run --db "$W/dry.db" "$TREE"

# The same rows as one CSV, for sqlite3's .import into a table of one
# row per sample (the samples table of schema 1-8, now a view of series).
"$PY" "$here/series_csv.py" "$W/ps.db" > "$W/rows.csv"
csv_bytes=$(stat -c %s "$W/rows.csv")
SAMPLES_DDL="CREATE TABLE samples (run_id INTEGER NOT NULL, metric INTEGER
    NOT NULL, seq INTEGER NOT NULL, t_us INTEGER, value REAL, status INTEGER
    NOT NULL DEFAULT 0, PRIMARY KEY (run_id, metric, seq)) WITHOUT ROWID"
measure import 'rm -f "$W"/imp.db "$W"/imp.db-wal "$W"/imp.db-shm;
    "$SQLITE3" "$W/imp.db" "$PRAGMAS $SAMPLES_DDL;" > /dev/null' \
    "$SQLITE3" "$W/imp.db" -cmd "$PRAGMAS" ".import --csv $W/rows.csv samples"
imp_rows=$("$SQLITE3" "$W/imp.db" "SELECT count(*) FROM samples")
[ "$imp_rows" = "$rows" ] ||
    say "warning: .import stored $imp_rows rows, pathstat $rows"
rm -f "$W/imp.db" "$W/imp.db-wal" "$W/imp.db-shm"

# Peak memory: the largest file alone; a tree of the 8 largest files
# (with the meta.json files above them), which holds the worst run of
# files ingest can have in memory at once (the one being stored and
# INGEST_AHEAD read ahead); and the whole tree.  Bounded by the largest
# files, the whole tree needs no more than the small one.
largest=$(find "$TREE" -type f -printf '%s %p\n' | sort -n | tail -1)
largest_bytes=${largest%% *}
largest_path=${largest#* }
measure ingest_largest 'rm -f "$W"/one.db*' \
    "$PS" ingest -q --db "$W/one.db" --tag path=L --tag trial=1 "$largest_path"
big=$W/largest8
find "$TREE" -type f ! -name meta.json ! -name manifest.json -printf '%s %P\n' |
    sort -rn | head -8 | while read -r _ rel; do
	d=$(dirname "$rel")
	mkdir -p "$big/$d"
	ln "$TREE/$rel" "$big/$rel" 2>/dev/null || cp "$TREE/$rel" "$big/$rel"
	while :; do
		if [ -f "$TREE/$d/meta.json" ] && [ ! -f "$big/$d/meta.json" ]; then
			cp "$TREE/$d/meta.json" "$big/$d/meta.json"
		fi
		[ "$d" = . ] && break
		d=$(dirname "$d")
	done
done
big_bytes=$(du -sb "$big" | cut -f1)
measure ingest_largest8 'rm -f "$W"/big.db*' \
    "$PS" ingest -q --db "$W/big.db" "$big"
rm -f "$W"/one.db* "$W"/big.db*
# One 200 MB iperf3 JSON: cJSON costs ~41x the text it parses
# whole, so ingest reads a large document piece by piece; its peak RSS
# must stay within 4x the file.
"$PY" "$here/big_iperf3.py" "$W/big_iperf3.json" 200
bigj_bytes=$(stat -c %s "$W/big_iperf3.json")
measure ingest_iperf3_200mb 'rm -f "$W"/bigj.db*' \
    "$PS" ingest -q --db "$W/bigj.db" --tag path=J --tag trial=1 \
    "$W/big_iperf3.json"
rm -f "$W"/bigj.db* "$W/big_iperf3.json"

# ---- analyze ------------------------------------------------

# The peers compute p50, p95, p99 and max of every metric; analyze's
# defaults differ per metric (throughput: p50, p5, p1, min), so it is
# asked for the same four.
BENCH_STATS=p50,p95,p99,max
for m in http_ms connect_ms throughput_bps; do
	measure "analyze_$m" : "$PS" analyze percentiles --db "$W/ps.db" \
	    --metric "$m" --stats "$BENCH_STATS" --format json
	cp "$W/analyze_$m.out" "$W/pathstat_$m.json"
done
a_wall=$(calc 'a + b + c' -v a="$(wall analyze_http_ms)" \
    -v b="$(wall analyze_connect_ms)" -v c="$(wall analyze_throughput_bps)")
a_cpu=$(calc 'a + b + c' -v a="$(cpu analyze_http_ms)" \
    -v b="$(cpu analyze_connect_ms)" -v c="$(cpu analyze_throughput_bps)")
a_rss=$(sort -n "$W/analyze_http_ms.rss" "$W/analyze_connect_ms.rss" \
    "$W/analyze_throughput_bps.rss" | tail -1)
ncells=$(cat "$W"/pathstat_*.json | grep -c '"path"' || true)

measure pandas : "$PY" "$here/pandas_percentiles.py" "$TREE"
cp "$W/pandas.out" "$W/pandas.json"
# (c) reads the samples view, which decodes every sample in SQL (what
# a sqlite3 user does since schema 009): at 20 M samples it ran over
# 21 minutes, most of a full run.  It runs only up to SQLWIN_MAX_ROWS
# samples, under a timeout, and the table says why it did not.
sqlwin_why=
if [ "$rows" -gt "$SQLWIN_MAX_ROWS" ]; then
	sqlwin_why="not run at $rows samples: over BENCH_SQLWIN_MAX_ROWS=$SQLWIN_MAX_ROWS (the samples view decodes every sample in SQL; over 21 min at 20 M)"
else
	measure sqlwin 'rm -f "$W/sqlwin.stopped"' sh -c 'timeout "$1" "$2" \
	    -json -cmd "PRAGMA cache_size = -65536; PRAGMA temp_store = MEMORY;" \
	    "$3" ".read $4" || { rc=$?; [ "$rc" != 124 ] ||
	    : > "$5"; exit "$rc"; }' sh "$SQLWIN_TIMEOUT" "$SQLITE3" \
	    "$W/ps.db" "$here/window_percentiles.sql" "$W/sqlwin.stopped"
	if [ -e "$W/sqlwin.stopped" ]; then
		sqlwin_why="not run at $rows samples: stopped after BENCH_SQLWIN_TIMEOUT=$SQLWIN_TIMEOUT s"
	else
		cp "$W/sqlwin.out" "$W/sqlwin.json"
	fi
fi

cmp_pandas=$("$PY" "$here/compare.py" "$W/pandas.json" \
    "$W"/pathstat_*.json 2> "$W/compare_pandas.err") || true
say "pandas vs pathstat: $cmp_pandas"
if [ -z "$sqlwin_why" ]; then
	cmp_sql=$("$PY" "$here/compare.py" "$W/sqlwin.json" \
	    "$W"/pathstat_*.json 2> "$W/compare_sql.err") || true
	say "SQL vs pathstat:    $cmp_sql"
else
	say "SQL window query: $sqlwin_why"
fi

# ---- the cold path against DuckDB on the raw files ---------------------

# pathstat's cold path, raw tree -> the percentile table (ingest into a
# fresh database and (a)'s three analyze runs, as one command), and
# (f) bench/duckdb_raw.py, DuckDB reading the same raw files into the
# same cells: paired, one right after the other in each round, three
# rounds when the first pair takes < 60 s, so both see the same load.
duckraw_ok=0
if DPY=$(sh "$here/duckdb_setup.sh" 2> "$W/duckraw.why"); then
	: > "$W/cold.runs"
	: > "$W/duckraw.runs"
	: > "$W/pair.ratios"
	i=0
	while :; do
		i=$((i + 1))
		run_once cold sh -c 'set -e
		    rm -f "$2/cold.db" "$2/cold.db-wal" "$2/cold.db-shm"
		    "$1" ingest -q --db "$2/cold.db" "$3"
		    for m in http_ms connect_ms throughput_bps; do
			    "$1" analyze percentiles --db "$2/cold.db" \
				--metric "$m" --stats "$4" --format json \
				> "$2/cold_$m.json"
		    done' cold "$PS" "$W" "$TREE" "$BENCH_STATS"
		run_once duckraw "$DPY" "$here/duckdb_raw.py" "$TREE" \
		    --out "$W/duckraw.json"
		set -- $(tail -1 "$W/cold.runs") $(tail -1 "$W/duckraw.runs")
		echo "$(calc 'div(a, b)' -v a="$1" -v b="$6")" \
		    "$(calc 'div(a, b)' -v a="$3" -v b="$8")" >> "$W/pair.ratios"
		if [ "$i" -ge 3 ] || awk -v a="$1" -v b="$6" -v i="$i" \
		    'BEGIN { exit !(i == 1 && a + b >= 60) }'; then
			break
		fi
	done
	rm -f "$W/cold.db" "$W/cold.db-wal" "$W/cold.db-shm"
	summary cold
	summary duckraw
	cmp_raw=$("$PY" "$here/compare.py" "$W/duckraw.json" \
	    "$W"/pathstat_*.json 2> "$W/compare_raw.err") || true
	say "DuckDB on the raw files vs pathstat: $cmp_raw"
	duckraw_ok=1
else
	say "DuckDB on the raw files: $(cat "$W/duckraw.why") (its row is left out)"
fi

# ---- export ------------------------------------------------

measure export 'rm -rf "$W/export"' \
    "$PS" export -q --db "$W/ps.db" --out "$W/export"
measure export_again : "$PS" export -q --db "$W/ps.db" --out "$W/export"
set -- $("$PY" -c 'import json, sys
m = json.load(open(sys.argv[1]))
d = m["datasets"]
b = lambda ds: sum(f["bytes"] for p in d[ds]["partitions"] for f in p["files"])
print(m["totals"]["samples"], b("samples"), m["totals"]["bytes"],
      m["totals"]["files"])' "$W/export/manifest.json")
exp_rows=$1 exp_sbytes=$2 exp_bytes=$3 exp_files=$4
# DuckDB, installed by npm as the export tests install it
duck_ok=0
if DUCK=$(sh "$top/tests/duckdb/setup.sh" 2> "$W/duckdb.why"); then
	"$PS" export --db "$W/ps.db" --ddl duckdb --out "$W/export" \
	    > "$W/views.sql"
	measure duckdb : node "$DUCK/query.mjs" -f "$W/views.sql" \
	    -f "$here/duckdb_percentiles.sql"
	tail -1 "$W/duckdb.out" > "$W/duckdb.json"
	cmp_duck=$("$PY" "$here/compare.py" "$W/duckdb.json" \
	    "$W"/pathstat_*.json 2> "$W/compare_duck.err") || true
	say "DuckDB vs pathstat: $cmp_duck"
	# (e) the queries `analyze --sql duckdb` prints for the same tables
	for m in http_ms connect_ms throughput_bps; do
		"$PS" analyze percentiles --db "$W/ps.db" --metric "$m" \
		    --stats "$BENCH_STATS" --sql duckdb > "$W/sql_$m.sql"
	done
	measure duckdb_sql : node "$DUCK/query.mjs" -f "$W/views.sql" \
	    -f "$W/sql_http_ms.sql" -f "$W/sql_connect_ms.sql" \
	    -f "$W/sql_throughput_bps.sql"
	tail -3 "$W/duckdb_sql.out" | "$PY" -c 'import json, sys
print(json.dumps([r for line in sys.stdin for r in json.loads(line)]))' \
	    > "$W/duckdb_sql.json"
	cmp_dsql=$("$PY" "$here/compare.py" "$W/duckdb_sql.json" \
	    "$W"/pathstat_*.json 2> "$W/compare_dsql.err") || true
	say "--sql duckdb vs pathstat: $cmp_dsql"
	duck_ok=1
else
	say "DuckDB: $(cat "$W/duckdb.why") (its row is left out)"
fi

# ---- DuckDB on its own tables --------------------------------------------

# (g) the warm peer of (a): the export's views copied into DuckDB tables
# in a DuckDB file (the load timed apart), then bench/duckdb_percentiles.sql
# on them; and DuckDB's COPY of its samples table to Parquet (zstd, by
# day), the peer of export's write, for peak memory.
dtab_ok=0
if [ "$duckraw_ok" = 1 ]; then
	"$PS" export --db "$W/ps.db" --ddl duckdb --out "$W/export" \
	    > "$W/views_py.sql"
	measure duckload 'rm -f "$W"/duck.duckdb*' "$DPY" \
	    "$here/duckdb_table.py" load "$W/views_py.sql" "$W/duck.duckdb"
	measure duckdb_table : "$DPY" "$here/duckdb_table.py" query \
	    "$W/duck.duckdb" "$here/duckdb_percentiles.sql"
	cp "$W/duckdb_table.out" "$W/duckdb_table.json"
	cmp_dtab=$("$PY" "$here/compare.py" "$W/duckdb_table.json" \
	    "$W"/pathstat_*.json 2> "$W/compare_dtab.err") || true
	say "DuckDB on its tables vs pathstat: $cmp_dtab"
	measure duckcopy 'rm -rf "$W/duckcopy"' "$DPY" \
	    "$here/duckdb_table.py" copy "$W/duck.duckdb" "$W/duckcopy"
	dcopy_bytes=$(du -sb "$W/duckcopy" | cut -f1)
	rm -rf "$W/duckcopy" "$W"/duck.duckdb*
	dtab_ok=1
fi

# ---- the report of the tree ---------------------------------------------

# every table of the no-spec report of the bench tree (--no-render: the
# tables' time, not gnuplot's)
measure report 'rm -rf "$W/report"' \
    "$PS" report --db "$W/ps.db" --out "$W/report" --no-render

# ---- the table --------------------------------------------------------

ingest_rate=$(calc 'div(r, w)' -v r="$rows" -v w="$(wall ingest)")
import_rate=$(calc 'div(r, w)' -v r="$rows" -v w="$(wall import)")
r_import=$(calc 'div(a, b)' -v a="$ingest_rate" -v b="$import_rate")
c_import=$(calc 'div(b, a)' -v a="$(cpu ingest)" -v b="$(cpu import)")
r_pandas=$(calc 'div(b, a)' -v a="$a_wall" -v b="$(wall pandas)")
c_pandas=$(calc 'div(b, a)' -v a="$a_cpu" -v b="$(cpu pandas)")
if [ -z "$sqlwin_why" ]; then
	r_sql=$(calc 'div(b, a)' -v a="$a_wall" -v b="$(wall sqlwin)")
	c_sql=$(calc 'div(b, a)' -v a="$a_cpu" -v b="$(cpu sqlwin)")
fi
both_wall=$(calc 'i + a' -v a="$a_wall" -v i="$(wall ingest)")
both_cpu=$(calc 'i + a' -v a="$a_cpu" -v i="$(cpu ingest)")
r_both=$(calc 'div(b, a)' -v a="$both_wall" -v b="$(wall pandas)")
c_both=$(calc 'div(b, a)' -v a="$both_cpu" -v b="$(cpu pandas)")
r_mem=$(calc 'div(a, b)' -v a="$a_rss" -v b="$(rss pandas)")
r_parse=$(calc 'div(a, b)' -v a="$(wall ingest)" -v b="$(wall parse)")
c_parse=$(calc 'div(a, b)' -v a="$(cpu ingest)" -v b="$(cpu parse)")
if [ "$dtab_ok" = 1 ]; then
	r_dtab=$(calc 'div(d, a)' -v d="$(wall duckdb_table)" -v a="$a_wall")
	c_dtab=$(calc 'div(d, a)' -v d="$(cpu duckdb_table)" -v a="$a_cpu")
	r_copy=$(calc 'div(a, b)' -v a="$(rss export)" -v b="$(rss duckcopy)")
	r_copyw=$(calc 'div(a, b)' -v a="$(wall export)" -v b="$(wall duckcopy)")
	c_copy=$(calc 'div(a, b)' -v a="$(cpu export)" -v b="$(cpu duckcopy)")
fi
r_grow=$(calc 'div(a, b)' -v a="$(rss ingest)" -v b="$(rss ingest_largest8)")
r_bigj=$(calc 'div(a * 1024, b)' -v a="$(rss ingest_iperf3_200mb)" -v b="$bigj_bytes")
export_rate=$(calc 'div(r, w)' -v r="$exp_rows" -v w="$(wall export)")
r_export=$(calc 'div(a, b)' -v a="$export_rate" -v b="$ingest_rate")
c_export=$(calc 'div(b, a)' -v a="$(cpu export)" -v b="$(cpu ingest)")
bps=$(calc 'div(b, r)' -v b="$exp_sbytes" -v r="$exp_rows")
bps_all=$(calc 'div(b, r)' -v b="$exp_bytes" -v r="$exp_rows")
if [ "$duck_ok" = 1 ]; then
	r_duck=$(calc 'div(d, a)' -v d="$(wall duckdb)" -v a="$a_wall")
	c_duck=$(calc 'div(d, a)' -v d="$(cpu duckdb)" -v a="$a_cpu")
	r_dsql=$(calc 'div(d, a)' -v d="$(wall duckdb_sql)" -v a="$a_wall")
	c_dsql=$(calc 'div(d, a)' -v d="$(cpu duckdb_sql)" -v a="$a_cpu")
fi

# verdict VALUE OP TARGET
verdict() {
	if awk -v v="$1" -v t="$3" "BEGIN { exit !(v $2 t) }"; then
		echo "met"
	else
		echo "**missed**"
	fi
}
if [ "$duckraw_ok" = 1 ]; then
	# pathstat ÷ DuckDB: below 1, the cold path is ahead
	r_raw=$(calc 'div(a, b)' -v a="$(wall cold)" -v b="$(wall duckraw)")
	c_raw=$(calc 'div(a, b)' -v a="$(cpu cold)" -v b="$(cpu duckraw)")
	# the users' targets: <= 0.5 at 2 M samples, <= 1.0 at 20 M
	t_raw=$(awk -v r="$rows" 'BEGIN { print ((r >= 10000000) ? "1.0" : "0.5") }')
	if [ "$(verdict "$r_raw" '<=' "$t_raw")" = met ] &&
	    [ "$(verdict "$c_raw" '<=' "$t_raw")" = met ]; then
		v_raw=met
	else
		v_raw="**missed**"
	fi
	pair_rounds=$(awk '{ printf("%s%.2f/%.2f", (NR > 1 ? ", " : ""), $1, $2) }' \
	    "$W/pair.ratios")
fi
mb() { awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }'; }
same() {
	case $1 in
	*only_reference=0\ only_pathstat=0\ n_mismatch=0*) echo "same cells and n";;
	*) echo "**cells or n differ**";;
	esac
}
fmt() { awk -v v="$1" 'BEGIN { if (v == "inf") print "–"; else printf "%.2f", v }'; }
fmt1() { awk -v v="$1" 'BEGIN { if (v == "inf") print "–"; else
    printf (v >= 100 ? "%.0f" : "%.1f"), v }'; }
fmtx() { v=$(fmt "$1"); [ "$v" = "–" ] && echo "–" || echo "$v×"; }
fmt1x() { v=$(fmt1 "$1"); [ "$v" = "–" ] && echo "–" || echo "$v×"; }
fmtk() { awk -v v="$1" 'BEGIN { printf "%.0f k", v / 1000 }'; }
gb() { awk -v b="$1" 'BEGIN { printf "%.2f GB", b / 1e9 }'; }
mbytes() { awk -v b="$1" 'BEGIN { printf "%.1f MB", b / 1e6 }'; }
maxabs() { echo "$1" | sed -n 's/.*max_abs_diff=\([^ ]*\).*/\1/p'; }
maxrel() { echo "$1" | sed -n 's/.*max_rel_diff=\([^ ]*\).*/\1/p'; }
nproc_=$(nproc)
cpu_model=$(lscpu | sed -n 's/^Model name: *//p' | head -1)
load=$(cut -d' ' -f1-3 /proc/loadavg)
# ld NAME...: the 1-minute load average when the first of the steps
# started → when the last ended
ld() {
	a=$(sed 's/→.*//' "$W/$1.load")
	for n in "$@"; do b=$(sed 's/.*→//' "$W/$n.load"); done
	echo "$a→$b"
}

cat > "$W/results.md" <<EOF
Tree: $(gb "$tree_bytes") in $nfiles files (\`gen_samples.py --bench
--size-gb $SIZE\`), $rows samples of which $oha_rows are oha per-request
rows; $(echo "$ncells" | tr -d ' ') cells of connect_ms, http_ms and
throughput_bps.  Machine: $nproc_ CPUs ($cpu_model), shared with other
work (load average $load at the end of the run).

| measure | pathstat | reference | ratio (wall) | ratio (CPU) | target | | load: pathstat; reference |
| --- | --- | --- | --- | --- | --- | --- | --- |
| ingest rows/s vs \`sqlite3 .import\` of the same rows as CSV | $(fmtk "$ingest_rate")/s | $(fmtk "$import_rate")/s | $(fmtx "$r_import") | $(fmtx "$c_import") | ≥ 1× | $(verdict "$r_import" '>=' 1) | $(ld ingest); $(ld import) |
| (a) analyze percentiles, every cell of 3 metrics, vs (b) pandas script | $(fmt "$a_wall") s | $(fmt1 "$(wall pandas)") s | $(fmt1x "$r_pandas") | $(fmt1x "$c_pandas") | ≥ 20× | $(verdict "$r_pandas" '>=' 20) | $(ld analyze_http_ms analyze_connect_ms analyze_throughput_bps); $(ld pandas) |
$(if [ "$dtab_ok" = 1 ]; then echo "| (a) vs (g) DuckDB's quantile_cont on its own tables (the data loaded), every cell of 3 metrics | $(fmt "$a_wall") s | $(fmt "$(wall duckdb_table)") s | $(fmtx "$r_dtab") | $(fmtx "$c_dtab") | none (the warm path against an engine's) | $(same "$cmp_dtab") | $(ld analyze_http_ms analyze_connect_ms analyze_throughput_bps); $(ld duckdb_table) |"; else echo "| (a) vs (g) DuckDB on its own tables | not run: $(cat "$W/duckraw.why") | | | | | | |"; fi)
$(if [ -z "$sqlwin_why" ]; then echo "| (a) vs (c) SQL window functions in sqlite3 | $(fmt "$a_wall") s | $(fmt1 "$(wall sqlwin)") s | $(fmt1x "$r_sql") | $(fmt1x "$c_sql") | ≥ 100× | $(verdict "$r_sql" '>=' 100) | $(ld analyze_http_ms analyze_connect_ms analyze_throughput_bps); $(ld sqlwin) |"; else echo "| (a) vs (c) SQL window functions in sqlite3 | $(fmt "$a_wall") s | $sqlwin_why | | | ≥ 100× | | $(ld analyze_http_ms analyze_connect_ms analyze_throughput_bps) |"; fi)
| ingest + (a) vs (b) | $(fmt1 "$both_wall") s | $(fmt1 "$(wall pandas)") s | $(fmtx "$r_both") | $(fmtx "$c_both") | ≥ 1.5× | $(verdict "$r_both" '>=' 1.5) | $(ld ingest); $(ld analyze_http_ms analyze_connect_ms analyze_throughput_bps); $(ld pandas) |
| (a) peak RSS vs (b)'s | $(mb "$a_rss") MiB | $(mb "$(rss pandas)") MiB | $(fmt "$r_mem") | | ≤ 0.2 (our reading of "a small fraction") | $(verdict "$r_mem" '<=' 0.2) | $(ld analyze_http_ms analyze_connect_ms analyze_throughput_bps); $(ld pandas) |
| ingest vs parse alone (\`ingest --dry-run\`) of the tree | $(fmt1 "$(wall ingest)") s | $(fmt1 "$(wall parse)") s | $(fmtx "$r_parse") | $(fmtx "$c_parse") | none (what storing adds to parsing) | | $(ld ingest); $(ld parse) |
| ingest peak RSS, whole tree vs a tree of its 8 largest files ($(mbytes "$big_bytes")) | $(mb "$(rss ingest)") MiB | $(mb "$(rss ingest_largest8)") MiB | $(fmt "$r_grow") | | ≤ 1.1 (bounded by the largest files, not the tree) | $(verdict "$r_grow" '<=' 1.1) | $(ld ingest); $(ld ingest_largest8) |
| ingest peak RSS of one iperf3 JSON ($(mbytes "$bigj_bytes")) vs its size | $(mb "$(rss ingest_iperf3_200mb)") MiB | $(mbytes "$bigj_bytes") | $(fmt "$r_bigj") | | ≤ 4 (memory bounded by the input) | $(verdict "$r_bigj" '<=' 4) | $(ld ingest_iperf3_200mb) |
| export rows/s vs ingest rows/s | $(fmtk "$export_rate")/s | $(fmtk "$ingest_rate")/s | $(fmtx "$r_export") | $(fmtx "$c_export") | ≥ 1× | $(verdict "$r_export" '>=' 1) | $(ld export); $(ld ingest) |
$(if [ "$dtab_ok" = 1 ]; then echo "| export peak RSS vs DuckDB's COPY of its samples table to Parquet (zstd, by day) | $(mb "$(rss export)") MiB | $(mb "$(rss duckcopy)") MiB | $(fmt "$r_copy") | | none (pathstat ÷ DuckDB) | | $(ld export); $(ld duckcopy) |"; else echo "| export peak RSS vs DuckDB's COPY | not run: $(cat "$W/duckraw.why") | | | | | | |"; fi)
| report --no-render of the tree (every table of the no-spec report), wall and CPU | $(fmt "$(wall report)") s wall, $(fmt "$(cpu report)") s CPU | | | | none | | $(ld report) |
| export bytes per sample: samples/ (all four datasets) | $(fmt "$bps") ($(fmt "$bps_all")) | 8 (a double) | | | ≤ 9 | $(verdict "$bps_all" '<=' 9) | $(ld export) |
$(if [ "$duck_ok" = 1 ]; then echo "| (d) DuckDB's quantile_cont over the export, every cell of 3 metrics, vs (a) | $(fmt "$(wall duckdb)") s | $(fmt "$a_wall") s | $(fmtx "$r_duck") | $(fmtx "$c_duck") | none (how much longer DuckDB takes) | $(same "$cmp_duck") | $(ld analyze_http_ms analyze_connect_ms analyze_throughput_bps); $(ld duckdb) |"
echo "| (e) the queries analyze percentiles --sql duckdb prints, on DuckDB over the export, vs (a) | $(fmt "$(wall duckdb_sql)") s | $(fmt "$a_wall") s | $(fmtx "$r_dsql") | $(fmtx "$c_dsql") | none (what analyze's full table costs an engine) | $(same "$cmp_dsql") | $(ld analyze_http_ms analyze_connect_ms analyze_throughput_bps); $(ld duckdb_sql) |"; else echo "| (d) DuckDB over the export vs (a) | not run: $(cat "$W/duckdb.why") | | | | | | |"; fi)
$(if [ "$duckraw_ok" = 1 ]; then echo "| pathstat's cold path (ingest + (a)) vs (f) DuckDB on the raw files, paired | $(fmt "$(wall cold)") s | $(fmt "$(wall duckraw)") s | $(fmt "$r_raw") | $(fmt "$c_raw") | ≤ $t_raw (pathstat ÷ DuckDB, wall and CPU) | $v_raw; $(same "$cmp_raw") | $(ld cold); $(ld duckraw) |"; else echo "| pathstat's cold path vs (f) DuckDB on the raw files | not run: $(cat "$W/duckraw.why") | | | | | | |"; fi)

Ratios are reference ÷ pathstat time (for ingest, pathstat ÷ reference
rows/s; for export, export ÷ ingest rows/s; for (d) and (e), DuckDB ÷ (a) time;
for the cold path, pathstat ÷ DuckDB time, so below 1 pathstat is ahead;
for parse alone, ingest ÷ parse time; for DuckDB's COPY, export ÷ COPY
peak RSS);
wall times are the median of 3 runs where a run takes < 30 s, else of
one run; CPU is user + sys.  The SQL query, the pandas script and (d)
cover the same three metrics as (a).

Export: $exp_rows samples in $exp_files files, $(mbytes "$exp_bytes") in all ($(mbytes "$exp_sbytes") of
samples/), zstd; a second export with nothing changed took $(fmt "$(wall export_again)") s and
wrote nothing.  (d) runs \`bench/duckdb_percentiles.sql\` over the views of
\`pathstat export --ddl duckdb\` in DuckDB's Node package (Node start-up
included), on the same machine at the same time; (e) runs there the three
queries \`pathstat analyze percentiles --metric M --sql duckdb\` prints,
which also count trials, failures and loss and sort paths naturally.
Load: the 1-minute load average (/proc/loadavg) when the step started →
when it ended (of its first and last run; for (a), of its three metrics).
$(if [ "$duckraw_ok" = 1 ]; then
echo "(f) is \`bench/duckdb_raw.py\` in PyPI's duckdb $("$DPY" -c 'import duckdb; print(duckdb.__version__)')"
echo "(oha's SQLite through duckdb-ext-sqlite's sqlite_scan, CSV through"
echo "read_csv, iperf3 through read_json), timed against pathstat's cold"
echo "path (a fresh ingest of the tree and (a), as one command) in $(wc -l < "$W/pair.ratios")"
echo "paired round(s), pathstat then DuckDB; each round's ratio, wall/CPU:"
echo "$pair_rounds.  DuckDB uses both CPUs.  DuckDB on the raw files vs"
echo "pathstat: $(same "$cmp_raw"), max relative difference $(maxrel "$cmp_raw")."
else echo "(f) DuckDB on the raw files not run: $(cat "$W/duckraw.why")."; fi)

$(if [ "$dtab_ok" = 1 ]; then
echo "(g) loads the views of \`pathstat export --ddl duckdb\` into tables of a"
echo "DuckDB file (bench/duckdb_table.py; the load took $(fmt "$(wall duckload)") s wall, $(fmt "$(cpu duckload)") s CPU,"
echo "not counted) and runs bench/duckdb_percentiles.sql on them in PyPI's"
echo "duckdb; DuckDB on its tables vs pathstat: $(same "$cmp_dtab"), max"
echo "relative difference $(maxrel "$cmp_dtab").  DuckDB's COPY of its samples"
echo "table (the same $exp_rows samples) to Parquet, zstd, partitioned by day:"
echo "$(fmt "$(wall duckcopy)") s wall, $(fmt "$(cpu duckcopy)") s CPU, $(mbytes "$dcopy_bytes"), peak RSS $(mb "$(rss duckcopy)") MiB;"
echo "export (all four datasets) $(fmt "$(wall export)") s wall, $(fmt "$(cpu export)") s CPU, peak RSS $(mb "$(rss export)") MiB"
echo "(export ÷ COPY: $(fmt "$r_copyw") wall, $(fmt "$c_copy") CPU, $(fmt "$r_copy") peak RSS)."
fi)
Parse alone (\`ingest --dry-run\`): $(fmt "$(wall parse)") s wall, $(fmt "$(cpu parse)") s CPU,
peak RSS $(mb "$(rss parse)") MiB; ingest $(fmt "$(wall ingest)") s wall, $(fmt "$(cpu ingest)") s CPU.
The report (\`--no-render\`) of the tree: $(fmt "$(wall report)") s wall, $(fmt "$(cpu report)") s CPU,
peak RSS $(mb "$(rss report)") MiB, load $(ld report).

Ingest peak RSS: $(mb "$(rss ingest_largest)") MiB for the largest file alone ($(mbytes "$largest_bytes")),
$(mb "$(rss ingest_largest8)") MiB for the 8 largest ($(mbytes "$big_bytes")), $(mb "$(rss ingest)") MiB for the whole tree ($(gb "$tree_bytes")).
sqlite3 .import: $(mb "$(rss import)") MiB.  The database is $(mbytes "$db_bytes"), the CSV
$(mbytes "$csv_bytes").  (a) per metric: http_ms $(fmt "$(wall analyze_http_ms)") s,
connect_ms $(fmt "$(wall analyze_connect_ms)") s, throughput_bps $(fmt "$(wall analyze_throughput_bps)") s.

Same numbers: pandas vs pathstat: $(same "$cmp_pandas") for every cell,
max abs difference of p50/p95/p99/max $(maxabs "$cmp_pandas"); SQL vs pathstat:
$(if [ -z "$sqlwin_why" ]; then echo "$(same "$cmp_sql"), max abs difference $(maxabs "$cmp_sql")"; else echo "$sqlwin_why"; fi)$(if [ "$duck_ok" = 1 ]; then
echo "; DuckDB over the export vs pathstat: $(same "$cmp_duck"),"
echo "max abs difference $(maxabs "$cmp_duck"), max relative $(maxrel "$cmp_duck");"
echo "the --sql duckdb queries vs pathstat: $(same "$cmp_dsql"),"
echo "max relative difference $(maxrel "$cmp_dsql")"; fi).

The machine (\`nproc\`: $nproc_; \`lscpu | head\`), $(date -u +%Y-%m-%d), pathstat
$(git -C "$top" describe --always --dirty 2>/dev/null || echo "?"), $("$SQLITE3" --version | cut -d' ' -f1-2 | sed 's/^/sqlite3 /'), pandas $("$PY" -c 'import pandas; print(pandas.__version__)'):

\`\`\`
$(lscpu | head)
\`\`\`
EOF

# ---- warm ÷ floor -------------------------------------------------------

# (a)'s three analyze runs against their floor, the time of merely
# reading the sorted values they read (bench/warm_floor.c, built here:
# each run's sample_values blob of the metric, taken as SQLite hands it
# over, and nothing else): 5 paired rounds, floor then (a), each step
# repeated 5 times in its run (time -v counts CPU in 10 ms), so both see
# the same load; the median round's ratio becomes a row of the table.
if cc -std=c11 -O2 -o "$W/warm_floor" "$here/warm_floor.c" -lsqlite3 \
    2> "$W/warm_floor.why"; then
	: > "$W/floor.runs"
	: > "$W/warm.runs"
	: > "$W/warm.ratios"
	for i in 1 2 3 4 5; do
		run_once floor sh -c 'for r in 1 2 3 4 5; do
		    for m in http_ms connect_ms throughput_bps; do
			    "$1" "$2" "$m" || exit 1
		    done; done' floor "$W/warm_floor" "$W/ps.db"
		run_once warm sh -c 'for r in 1 2 3 4 5; do
		    for m in http_ms connect_ms throughput_bps; do
			    "$1" analyze percentiles --db "$2" --metric "$m" \
				--stats "$3" --format json > /dev/null || exit 1
		    done; done' warm "$PS" "$W/ps.db" "$BENCH_STATS"
		set -- $(tail -1 "$W/floor.runs") $(tail -1 "$W/warm.runs")
		echo "$(calc 'div(a, b)' -v a="$6" -v b="$1")" \
		    "$(calc 'div(a, b)' -v a="$8" -v b="$3")" >> "$W/warm.ratios"
	done
	summary floor
	summary warm
	r_warm=$(cut -d' ' -f1 "$W/warm.ratios" | sort -g | sed -n 3p)
	c_warm=$(cut -d' ' -f2 "$W/warm.ratios" | sort -g | sed -n 3p)
	if [ "$(verdict "$r_warm" '<=' 2)" = met ] &&
	    [ "$(verdict "$c_warm" '<=' 2)" = met ]; then
		v_warm=met
	else
		v_warm="**missed**"
	fi
	rounds=$(awk '{ printf("%s%.2f/%.2f", (NR > 1 ? ", " : ""), $1, $2) }' \
	    "$W/warm.ratios")
	row="| (a) warm ÷ floor: (a) vs reading the sorted values it reads (bench/warm_floor.c), 5 paired rounds (wall/CPU: $rounds) | $(calc 'a / 5' -v a="$(wall warm)") s | $(calc 'a / 5' -v a="$(wall floor)") s | $(fmtx "$r_warm") | $(fmtx "$c_warm") | ≤ 2× (pathstat ÷ floor, wall and CPU) | $v_warm | $(ld warm); $(ld floor) |"
	say "warm ÷ floor: $(fmt "$r_warm") wall, $(fmt "$c_warm") CPU" \
	    "(rounds $rounds), load $(ld floor warm)"
else
	row="| (a) warm ÷ floor | not run: $(head -1 "$W/warm_floor.why") | | | | | | |"
fi
# the row goes after the table's last
awk -v row="$row" 'intab && !/^\|/ { print row; intab = 0; done = 1 }
    /^\| measure/ && !done { intab = 1 } { print }
    END { if (intab) print row }' "$W/results.md" > "$W/results.tmp"
mv "$W/results.tmp" "$W/results.md"

echo
cat "$W/results.md"

# ---- pathprobe accuracy against Python and the wire ---------------------

echo
if [ -f "$here/probe-accuracy.sh" ]; then
	rc=0
	sh "$here/probe-accuracy.sh" "$top/pathprobe" > "$W/probe.md" || rc=$?
	cat "$W/probe.md"
	[ "$rc" = 0 ] || say "probe-accuracy.sh exited with status $rc"
	{
		echo
		echo "pathprobe against a Python prober (bench/probe-accuracy.sh," \
		    "exit status $rc):"
		echo
		cat "$W/probe.md"
	} >> "$W/results.md"
else
	echo "SKIP probe accuracy: bench/probe-accuracy.sh not here yet (branch collect)"
fi

# ---- the report of 10,000 paths ----------------------------------------

# the largest tree of the report's shape grid (tests/cli/t3849): 10,000
# paths of one tiny iperf3 run each; every chart draws at most 20 lines
# or 40 groups, so the time is the tables', not gnuplot's
echo
L='{tag:day}/{tag:instance_type}/{path}_{cond}_run{trial}'
rm -rf "$OUT/paths" "$W"/paths.db*
"$PY" "$top/tests/cli/helper/shape-tree.py" \
    "$OUT/paths" many-paths 10000 > /dev/null
"$PS" ingest -q --db "$W/paths.db" --layout "$L.json" "$OUT/paths"
measure report_10k_paths 'rm -rf "$W/paths-report"' \
    "$PS" report --db "$W/paths.db" --out "$W/paths-report" --html
{
	echo
	echo "The report (\`--html\`, rendered) of 10,000 paths, one tiny" \
	    "iperf3 run each (tests/cli/helper/shape-tree.py many-paths):" \
	    "$(wall report_10k_paths) s wall, $(cpu report_10k_paths) s CPU," \
	    "peak RSS $(mb "$(rss report_10k_paths)") MB, load" \
	    "$(ld report_10k_paths)."
} >> "$W/results.md"

# ---- a year of hourly monitoring ----------------------------

echo
if [ "${BENCH_MONTH:-1}" = 1 ]; then
	rc=0
	BENCH_DAYS=${BENCH_DAYS:-365} sh "$here/month.sh" "$OUT/month" \
	    > "$W/month.md" || rc=$?
	cat "$W/month.md"
	[ "$rc" = 0 ] || say "month.sh exited with status $rc"
	{
		echo
		echo "A year of hourly monitoring (bench/month.sh, exit status" \
		    "$rc; each step run once):"
		echo
		cat "$W/month.md"
	} >> "$W/results.md"
else
	echo "SKIP a year of monitoring: BENCH_MONTH=0"
fi

# ---- the scaling table ---------------------------------------------------

# bench/scale.sh at sizes below the bench's and at the bench's (its tree
# reused), Spark left out unless BENCH_SCALE_SPARK=1; its table goes
# into the results, not into docs/research/bench.md's "Scaling" block,
# which `make bench-scale` keeps (larger sizes, Spark).
echo
if [ "${BENCH_SCALE:-1}" = 1 ]; then
	sizes=${BENCH_SCALE_SIZES:-$(awk -v s="$SIZE" 'BEGIN {
	    if (0.01 < s + 0) printf "0.01 "; if (0.1 < s + 0) printf "0.1 "
	    print s }')}
	rc=0
	SCALE_SIZES_GB=$sizes SCALE_SPARK=${BENCH_SCALE_SPARK:-0} \
	    BENCH_OUT=$OUT BENCH_README=0 sh "$here/scale.sh" \
	    > "$W/scale.md" || rc=$?
	cat "$W/scale.md"
	[ "$rc" = 0 ] || say "scale.sh exited with status $rc"
	{
		echo
		echo "Scaling (bench/scale.sh, exit status $rc; each step run once):"
		cat "$W/scale.md"
	} >> "$W/results.md"
else
	echo "SKIP the scaling table: BENCH_SCALE=0"
fi

if [ "$BENCH_README" = 1 ]; then
	"$PY" - "$here/../docs/research/bench.md" "$W/results.md" <<'EOF'
import sys
readme, results = sys.argv[1], sys.argv[2]
text = open(readme).read()
begin, end = "<!-- results:begin -->\n", "<!-- results:end -->\n"
a, b = text.index(begin) + len(begin), text.index(end)
new = open(results).read()
open(readme, "w").write(text[:a] + new + text[b:])
EOF
	say "results written to docs/research/bench.md"
fi
say "done in $(( $(date +%s) - t_start )) s"
