#!/bin/sh
# bench/scale.sh - `make bench-scale`: how each step's time grows with
# the number of samples ("Scale, measured").  For each size of
# generated tree: pathstat ingest into a fresh database, export to
# Parquet (seconds, bytes of samples/ per sample), analyze percentiles
# of http_ms, connect_ms and throughput_bps, and the same three-metric
# table from DuckDB and from Spark over the export (the statements of
# `export --ddl ENGINE` and the queries `analyze --sql ENGINE` prints,
# checked equal to analyze's), and DuckDB on the raw files
# (bench/duckdb_raw.py) against pathstat's cold path (a fresh ingest
# and analyze, as one command), paired in three rounds as bench/run.sh
# pairs them, as a ratio of the medians.  Prints a Markdown table, the seconds per
# sample, and the slope of log time against log samples between sizes;
# writes a gnuplot script and a PNG of time against samples.  See
# docs/research/bench.md, "Scaling".
#
#   sh bench/scale.sh
#   env: SCALE_SIZES_GB  sizes of the trees (default "0.01 0.1 1": about
#                        0.2 M, 2 M and 20 M samples; "0.1 1 10" has 200 M, which
#                        needs ~12 GB for the tree, ~8 GB more for the
#                        database, and an hour or more on 2 cores)
#        BENCH_OUT       where trees and work files go (bench/out); a
#                        tree is kept in BENCH_OUT/tree-SIZE and reused
#                        while the generator and the size are unchanged
#                        (for 1 GB, make bench's BENCH_OUT/tree is used
#                        if it matches)
#        BENCH_README=0|1  write the table into docs/research/bench.md (0)
#        SCALE_SPARK=0|1  run Spark (1; needs tests/engines/setup.sh
#                        python and java), in bench/spark_scale.py's
#                        session for millions of rows (code generation
#                        and AQE on), not the engine tests' one
#        BENCH_DUCKDB_VENV  PyPI's duckdb for bench/duckdb_raw.py
#                        (bench/duckdb_setup.sh; default bench/out/duckdb-venv)
#        PYTHON (/usr/bin/python3), SQLITE3
#
# Each step runs once under /usr/bin/time -v (wall from date(1), CPU =
# user + sys, peak RSS), with the 1-minute load average at its start and
# end (/proc/loadavg) beside it.  Times include each tool's start-up: Node's and
# DuckDB's, Spark's JVM and session, which is why their slope is below 1
# on small trees.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
PS=$top/pathstat
PY=${PYTHON:-/usr/bin/python3}
SQLITE3=${SQLITE3:-sqlite3}
SIZES=${SCALE_SIZES_GB:-0.01 0.1 1}
OUT=${BENCH_OUT:-$here/out}
W=$OUT/scale
GEN=$top/samples/gen_samples.py
TIME=/usr/bin/time
ENGINES_DIR=${PATHSTAT_ENGINES_DIR:-$HOME/.cache/pathstat-engines}
METRICS="http_ms connect_ms throughput_bps"

die() { echo "scale: $*" >&2; exit 1; }
say() { echo "scale: $*" >&2; }

[ -x "$PS" ] || die "no $PS (run make)"
[ -x "$TIME" ] || die "no $TIME (apt-get install time)"
command -v "$SQLITE3" >/dev/null 2>&1 || die "no sqlite3 CLI (apt-get install sqlite3)"
t_start=$(date +%s)
rm -rf "$W"
mkdir -p "$W"

# ---- the trees --------------------------------------------------------

gen_hash() { { cat "$GEN"; echo "size_gb=$1"; } | sha256sum | cut -c1-16; }
tree_hash() {
	"$PY" -c 'import json, sys
try:
    print(json.load(open(sys.argv[1])).get("bench_generator_hash", ""))
except Exception:
    print("")' "$1/manifest.json"
}
# tree SIZE: print the folder of a tree of SIZE GB, generating it if no
# tree of that size is kept
tree() {
	t=$OUT/tree-$1
	h=$(gen_hash "$1")
	if [ "$(tree_hash "$t")" = "$h" ]; then
		say "reusing $t"
		echo "$t"
		return
	fi
	if [ "$(tree_hash "$OUT/tree")" = "$h" ]; then
		say "reusing $OUT/tree (make bench's tree of that size)"
		echo "$OUT/tree"
		return
	fi
	if awk -v s="$1" 'BEGIN { exit !(s + 0 == 1) }' &&
	    [ "$(tree_hash "$OUT/tree")" = "$(gen_hash 1.0)" ]; then
		say "reusing $OUT/tree (make bench's 1 GB tree)"
		echo "$OUT/tree"
		return
	fi
	say "generating a $1 GB tree into $t (cached for later runs)"
	rm -rf "$t"
	mkdir -p "$OUT"
	"$PY" "$GEN" --bench --out "$t" --size-gb "$1" >&2
	"$PY" -c 'import json, sys
p = sys.argv[1]
m = json.load(open(p))
m["bench_generator_hash"] = sys.argv[2]
with open(p, "w") as f:
    json.dump(m, f, indent=1)
    f.write("\n")' "$t/manifest.json" "$h"
	echo "$t"
}

# ---- measuring --------------------------------------------------------

# measure NAME CMD...: run CMD once under time -v, stdout to $D/NAME.out,
# stderr to $D/NAME.err; writes "wall cpu rss" to $D/NAME.m
measure() {
	name=$1
	shift
	rc=0
	l0=$(cut -d' ' -f1 /proc/loadavg)
	t0=$(date +%s.%N)
	"$TIME" -v -o "$D/$name.time" "$@" > "$D/$name.out" 2> "$D/$name.err" ||
	    rc=$?
	t1=$(date +%s.%N)
	echo "$l0 $(cut -d' ' -f1 /proc/loadavg)" > "$D/$name.load"
	[ "$rc" = 0 ] || say "$name: exit status $rc (see $D/$name.err)"
	awk -v t0="$t0" -v t1="$t1" '
	    /User time/ || /System time/ { c += $NF }
	    /Maximum resident set size/ { r = $NF }
	    END { printf "%.3f %.2f %d\n", t1 - t0, c, r }' \
	    "$D/$name.time" > "$D/$name.m"
	say "$name: $(cut -d' ' -f1 "$D/$name.m") s wall," \
	    "$(cut -d' ' -f2 "$D/$name.m") s CPU, peak RSS" \
	    "$(cut -d' ' -f3 "$D/$name.m") KiB, load $(sed 's/ / → /' \
	    "$D/$name.load")"
	return "$rc"
}
field() { cut -d' ' -f"$2" "$D/$1.m"; }
# load NAME...: "a→b", the 1-minute load average when the first of the
# steps NAME started and when the last ended (– if none ran)
load() {
	a= b=
	for n in "$@"; do
		[ -f "$D/$n.load" ] || continue
		[ -n "$a" ] || a=$(cut -d' ' -f1 "$D/$n.load")
		b=$(cut -d' ' -f2 "$D/$n.load")
	done
	if [ -n "$a" ]; then echo "$a→$b"; else echo "–"; fi
}

# The tools over the export, once for all sizes
duck_why= spark_why= raw_why=
if DPY=$(sh "$here/duckdb_setup.sh" 2> "$W/duckraw.why"); then
	:
else
	raw_why=$(cat "$W/duckraw.why")
fi
if DUCK=$(sh "$top/tests/duckdb/setup.sh" 2> "$W/duckdb.why"); then
	:
else
	duck_why=$(cat "$W/duckdb.why")
fi
EPY=$ENGINES_DIR/venv/bin/python
if [ "${SCALE_SPARK:-1}" != 1 ]; then
	spark_why="SCALE_SPARK=0"
elif ! [ -x "$EPY" ] || ! "$EPY" -c 'import pyspark' >/dev/null 2>&1; then
	spark_why="no pyspark in $ENGINES_DIR/venv (sh tests/engines/setup.sh python)"
elif ! command -v java >/dev/null 2>&1; then
	spark_why="Spark needs java (Debian: openjdk-17-jre-headless)"
fi
# As the engine tests run the JVM: no perf data left in /tmp.
JAVA_TOOL_OPTIONS="-XX:-UsePerfData${JAVA_TOOL_OPTIONS:+ $JAVA_TOOL_OPTIONS}"
export JAVA_TOOL_OPTIONS

# one line per size: size samples ingest export bytes/sample analyze
# duckdb spark duckdb-raw (seconds; NaN where not run), and the checks
: > "$W/scale.dat"
: > "$W/cold.txt"
: > "$W/checks.txt"
: > "$W/rss.txt"
: > "$W/load.txt"
: > "$W/spark-conf.txt"
spark_conf=
for size in $SIZES; do
	T=$(tree "$size")
	D=$W/$size
	mkdir -p "$D"
	find "$T" -type f -exec cat {} + > /dev/null
	measure ingest "$PS" ingest -q --db "$D/ps.db" "$T" ||
	    die "ingest of $T failed"
	n=$("$SQLITE3" "$D/ps.db" "SELECT sum(rows) FROM series")
	measure export "$PS" export -q --db "$D/ps.db" --out "$D/export" ||
	    die "export failed"
	sbytes=$("$PY" -c 'import json, sys
d = json.load(open(sys.argv[1]))["datasets"]["samples"]
print(sum(f["bytes"] for p in d["partitions"] for f in p["files"]))' \
	    "$D/export/manifest.json")
	bps=$(awk -v b="$sbytes" -v n="$n" 'BEGIN { printf "%.3f", b / n }')
	a_wall=0 a_cpu=0
	for m in $METRICS; do
		measure "analyze_$m" "$PS" analyze percentiles --db "$D/ps.db" \
		    --metric "$m" --format csv || die "analyze failed"
		a_wall=$(awk -v a="$a_wall" -v b="$(field "analyze_$m" 1)" \
		    'BEGIN { print a + b }')
		a_cpu=$(awk -v a="$a_cpu" -v b="$(field "analyze_$m" 2)" \
		    'BEGIN { print a + b }')
		# the same table as JSON, for compare.py (not timed)
		"$PS" analyze percentiles --db "$D/ps.db" --metric "$m" \
		    --format json > "$D/pathstat_$m.json"
	done
	# pathstat's cold path (a fresh ingest and the three analyze runs,
	# as one command) and DuckDB on the raw files, paired as
	# bench/run.sh pairs them: one right after the other, three rounds
	# when the first pair takes < 60 s (else one); the medians go into
	# the tables, each round's ratio beside them
	r_wall=NaN r_cpu=NaN
	if [ -z "$raw_why" ]; then
		: > "$D/pairs"
		i=0
		while :; do
			i=$((i + 1))
			measure "cold$i" sh -c 'set -e
			    rm -f "$2/cold.db" "$2/cold.db-wal" "$2/cold.db-shm"
			    "$1" ingest -q --db "$2/cold.db" "$3"
			    for m in http_ms connect_ms throughput_bps; do
				    "$1" analyze percentiles --db "$2/cold.db" \
					--metric "$m" --format json > /dev/null
			    done' cold "$PS" "$D" "$T" || die "the cold path failed"
			measure "duckraw$i" "$DPY" "$here/duckdb_raw.py" "$T" \
			    --out "$D/duckraw.json" || break
			echo "$(field "cold$i" 1) $(field "cold$i" 2)" \
			    "$(field "duckraw$i" 1) $(field "duckraw$i" 2)" \
			    >> "$D/pairs"
			if [ "$i" -ge 3 ] || awk -v a="$(field cold1 1)" \
			    -v b="$(field duckraw1 1)" -v i="$i" \
			    'BEGIN { exit !(i == 1 && a + b >= 60) }'; then
				break
			fi
		done
		rm -f "$D/cold.db" "$D/cold.db-wal" "$D/cold.db-shm"
		if [ -s "$D/pairs" ]; then
			# medians (of 1 or 3) of each column; each round's ratios
			for k in 1 2 3 4; do
				cut -d' ' -f"$k" "$D/pairs" | sort -g |
				    awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
			done | paste -sd' ' - > "$D/pairs.median"
			read -r cw cc r_wall r_cpu < "$D/pairs.median"
			rounds=$(awk '{ printf("%s%.2f/%.2f", (NR > 1 ? ", " : ""),
			    ($3 > 0) ? $1 / $3 : 0, ($4 > 0) ? $2 / $4 : 0) }' "$D/pairs")
			echo "$size $n $cw $cc $r_wall $r_cpu $(wc -l < "$D/pairs")" \
			    "$(load cold1 cold2 cold3) $(load duckraw1 duckraw2 duckraw3)" \
			    "$rounds" >> "$W/cold.txt"
		fi
		c=$("$PY" "$here/compare.py" "$D/duckraw.json" \
		    "$D"/pathstat_*.json 2>&1) || c="**differs**: $c"
		echo "$size GB, DuckDB on the raw files vs analyze: $c" \
		    >> "$W/checks.txt"
	fi
	d_wall=NaN d_cpu=NaN
	if [ -z "$duck_why" ]; then
		"$PS" export --db "$D/ps.db" --ddl duckdb --out "$D/export" \
		    > "$D/views.sql"
		for m in $METRICS; do
			"$PS" analyze percentiles --db "$D/ps.db" --metric "$m" \
			    --sql duckdb > "$D/duck_$m.sql"
		done
		if measure duckdb node "$DUCK/query.mjs" -f "$D/views.sql" \
		    -f "$D/duck_http_ms.sql" -f "$D/duck_connect_ms.sql" \
		    -f "$D/duck_throughput_bps.sql"; then
			d_wall=$(field duckdb 1) d_cpu=$(field duckdb 2)
		fi
		tail -3 "$D/duckdb.out" | "$PY" -c 'import json, sys
print(json.dumps([r for line in sys.stdin for r in json.loads(line)]))' \
		    > "$D/duckdb.json" 2>/dev/null || true
		c=$("$PY" "$here/compare.py" "$D/duckdb.json" \
		    "$D"/pathstat_*.json 2>&1) || c="**differs**: $c"
		echo "$size GB, DuckDB vs analyze: $c" >> "$W/checks.txt"
	fi
	s_wall=NaN
	if [ -z "$spark_why" ]; then
		"$PS" export --db "$D/ps.db" --ddl spark --out "$D/export" \
		    > "$D/spark.sql"
		{
			echo "@ $D/ps.db $D/spark.sql"
			for m in $METRICS; do
				echo "percentiles --metric $m"
			done
		} > "$D/spark.cases"
		mkdir -p "$D/spark-tmp"
		if (TMP=$D/spark-tmp TMPDIR=$D/spark-tmp SPARK_LOCAL_IP=127.0.0.1
		    export TMP TMPDIR SPARK_LOCAL_IP
		    measure spark "$EPY" "$here/spark_scale.py" "$D/export" \
		    spark "$PS" < "$D/spark.cases"); then
			s_wall=$(field spark 1)
			c="$(grep -c '^ok - percentiles' "$D/spark.out") of 3 tables equal"
		else
			c="**differs or failed**: $(grep -m2 '^not ok\|^#' \
			    "$D/spark.out" | tr '\n' ' ')"
		fi
		echo "$size GB, Spark vs analyze: $c; $(grep \
		    'is up\|statements of\|^ok - percentiles' "$D/spark.out" |
		    sed 's/^ok - //;
		    s|[^ ]*/ps.db: the statements of [^ ]*|the DDL|;
		    s/^percentiles --metric \([^ ]*\) ([0-9]* rows, \(.*\))$/\1 \2/' |
		    paste -sd ';' - | sed 's/;/; /g')" >> "$W/checks.txt"
		[ -n "$spark_conf" ] || spark_conf=$(sed -n \
		    's/^# spark settings: //p' "$D/spark.out" | head -1)
		[ -z "$spark_conf" ] || echo "$size GB: $(sed -n \
		    's/^# spark settings: //p' "$D/spark.out" | head -1)" \
		    >> "$W/spark-conf.txt"
		rm -rf "$D/spark-tmp"
	fi
	echo "$size $n $(field ingest 1) $(field export 1) $bps $a_wall" \
	    "$d_wall $s_wall $r_wall" >> "$W/scale.dat"
	echo "$size $n $(field ingest 2) $(field export 2) $a_cpu $d_cpu" \
	    "$(field ingest 3) $(field export 3)" \
	    "$(sort -n "$D"/analyze_*.m | cut -d' ' -f3 | sort -n | tail -1)" \
	    "$r_cpu" >> "$W/rss.txt"
	echo "$size $(load ingest export analyze_http_ms analyze_connect_ms \
	    analyze_throughput_bps cold1 duckraw1 cold2 duckraw2 cold3 duckraw3 \
	    duckdb spark) $(load ingest)" \
	    "$(load export)" \
	    "$(load analyze_http_ms analyze_connect_ms analyze_throughput_bps)" \
	    "$(load duckdb) $(load spark) $(load duckraw1 duckraw2 duckraw3)" \
	    >> "$W/load.txt"
	# the databases and exports of the large sizes are big: keep only
	# what the table needs
	rm -rf "$D/ps.db" "$D/ps.db-wal" "$D/ps.db-shm" "$D/export"
done

# ---- the table --------------------------------------------------------

nproc_=$(nproc)
cpu_model=$(lscpu | sed -n 's/^Model name: *//p' | head -1)
load=$(cut -d' ' -f1-3 /proc/loadavg)
{
	echo "| tree | samples | ingest s | export s | bytes/sample | analyze s | DuckDB s | Spark s | DuckDB raw s | load |"
	echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
	awk 'NR == FNR { l[$1] = $2; next }
	     { printf "| %s GB | %d |", $1, $2
	       for (i = 3; i <= 9; i++)
	           printf (i == 5 ? " %.2f |" : ($i == "NaN" ? " – |" : " %.2f |")), $i
	       printf " %s |\n", l[$1] }' "$W/load.txt" "$W/scale.dat"
	echo
	echo "Per sample (µs):"
	echo
	echo "| samples | ingest | export | analyze | DuckDB | Spark | DuckDB raw |"
	echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
	awk '{ printf "| %d |", $2
	       for (i = 3; i <= 9; i++) if (i != 5)
	           printf ($i == "NaN" ? " – |" : " %.3f |"), $i / $2 * 1e6
	       printf "\n" }' "$W/scale.dat"
	echo
	# slope of log time vs log samples between consecutive sizes: 1 is
	# linear, below 1 a fixed cost (start-up) still weighs, above 1 the
	# step slows per sample as the data grows
	awk 'BEGIN { split("ingest export - analyze DuckDB Spark", nm, " ")
	             nm[7] = "DuckDB on the raw files" }
	     { for (i = 3; i <= 9; i++) t[NR, i] = $i; n[NR] = $2; sz[NR] = $1 }
	     END {
	       if (NR < 2) { print "One size only: no slope."; exit }
	       for (i = 3; i <= 9; i++) {
	         if (i == 5) continue
	         line = ""; kinds = ""
	         for (r = 2; r <= NR; r++) {
	           a = t[r - 1, i]; b = t[r, i]
	           if (a == "NaN" || b == "NaN" || a <= 0 || b <= 0 || n[r] == n[r - 1]) {
	             line = line sprintf(" %s→%s GB: –;", sz[r - 1], sz[r]); continue }
	           s = log(b / a) / log(n[r] / n[r - 1])
	           k = s < 0.9 ? "sublinear: a fixed cost (start-up) still weighs" : \
	               s > 1.1 ? "superlinear: slower per sample as it grows" : "linear"
	           line = line sprintf(" %s→%s GB: slope %.2f, %s;", sz[r - 1], sz[r], s, k)
	         }
	         sub(/;$/, ".", line)
	         printf "- **%s**:%s\n", nm[i - 2], line
	       }
	     }' "$W/scale.dat"
	echo
	echo "Slope = Δ log(time) ÷ Δ log(samples) between consecutive sizes"
	echo "(1 = linear).  Each step run once, wall seconds, start-up included"
	echo "(Node and DuckDB; Spark's JVM, session and DDL); analyze is the"
	echo "three metrics summed; Spark's also holds the three analyze runs"
	echo "its check makes.  CPU s (ingest, export, analyze, DuckDB; Spark's"
	echo "JVM is not a child time(1) can count; DuckDB on the raw files)"
	echo "and peak RSS KiB (ingest, export, analyze):"
	echo
	awk '{ printf "- %s GB: CPU %s, %s, %s, %s, %s; RSS %s, %s, %s\n",
	       $1, $3, $4, $5, $6, $10, $7, $8, $9 }' "$W/rss.txt"
	echo
	echo "pathstat's cold path (a fresh ingest and analyze of the three"
	echo "metrics, as one command: raw tree → the percentile table) against"
	echo "DuckDB on the raw files (bench/duckdb_raw.py: the same cells from"
	echo "the same files), paired: one right after the other, three rounds"
	echo "when the first pair takes < 60 s (else one); medians, and"
	echo "pathstat ÷ DuckDB of the medians (below 1 pathstat is ahead; the"
	echo "users' targets: ≤ 0.5 at 2 M samples, ≤ 1.0 at 20 M, wall and CPU):"
	echo
	echo "| tree | samples | pathstat cold s | DuckDB raw s | ratio (wall) | cold CPU s | DuckDB raw CPU s | ratio (CPU) | rounds | each round's ratio, wall/CPU | load: pathstat; DuckDB |"
	echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |"
	awk '{ r = $10; for (i = 11; i <= NF; i++) r = r " " $i
	       printf "| %s GB | %d | %.2f | %.2f | %s | %.2f | %.2f | %s | %d | %s | %s; %s |\n",
	       $1, $2, $3, $5, ($5 > 0) ? sprintf("%.2f", $3 / $5) : "–",
	       $4, $6, ($6 > 0) ? sprintf("%.2f", $4 / $6) : "–", $7, r, $8, $9 }' \
	    "$W/cold.txt"
	[ -s "$W/cold.txt" ] || echo "| – | | | | | | | | | not run | |"
	echo
	echo "Load: the 1-minute load average (/proc/loadavg) when a step"
	echo "started → when it ended; the table's column spans the row (the"
	echo "machine has $nproc_ CPUs, so above $nproc_ the steps shared them):"
	echo
	echo "| tree | ingest | export | analyze | DuckDB | Spark | DuckDB raw |"
	echo "| --- | --- | --- | --- | --- | --- | --- |"
	awk '{ printf "| %s GB | %s | %s | %s | %s | %s | %s |\n",
	       $1, $3, $4, $5, $6, $7, $8 }' "$W/load.txt"
	if [ -s "$W/spark-conf.txt" ]; then
		echo
		echo "Spark's session (bench/spark_scale.py):"
		echo
		sed 's/^/- /' "$W/spark-conf.txt"
	fi
	echo
	echo "Same numbers:"
	echo
	[ -n "$duck_why" ] && echo "- DuckDB not run: $duck_why"
	[ -n "$spark_why" ] && echo "- Spark not run: $spark_why"
	[ -n "$raw_why" ] && echo "- DuckDB on the raw files not run: $raw_why"
	sed 's/^/- /' "$W/checks.txt"
	echo
	echo "Machine: $nproc_ CPUs ($cpu_model), load average $load at the end,"
	echo "$(date -u +%Y-%m-%d), pathstat" \
	    "$(git -C "$top" describe --always --dirty 2>/dev/null || echo "?")," \
	    "sizes \`SCALE_SIZES_GB=\"$SIZES\"\`."
} > "$W/results.md"
echo
cat "$W/results.md"

# ---- the chart --------------------------------------------------------

cat > "$W/scale.gp" <<EOF
# gnuplot $W/scale.gp: time against samples, log-log (bench/scale.sh)
set terminal pngcairo size 1000,560
set output "$W/scale.png"
set logscale xy
set datafile missing "NaN"
set key outside right top
set grid
set xlabel "samples"
set ylabel "wall seconds"
set title "pathstat: time against samples ($nproc_ CPUs)"
plot "$W/scale.dat" using 2:3 with linespoints title "ingest", \\
     "" using 2:4 with linespoints title "export", \\
     "" using 2:6 with linespoints title "analyze (3 metrics)", \\
     "" using 2:7 with linespoints title "DuckDB over the export", \\
     "" using 2:8 with linespoints title "Spark over the export", \\
     "" using 2:(\$3 + \$6) with linespoints title "pathstat cold (ingest + analyze)", \\
     "" using 2:9 with linespoints title "DuckDB on the raw files"
EOF
if command -v gnuplot >/dev/null 2>&1; then
	gnuplot "$W/scale.gp" 2> "$W/gnuplot.err" ||
	    say "gnuplot failed: $(head -1 "$W/gnuplot.err")"
	[ -f "$W/scale.png" ] && say "chart: $W/scale.png"
else
	say "no gnuplot (apt-get install gnuplot-nox): script in $W/scale.gp"
fi

if [ "${BENCH_README:-0}" = 1 ]; then
	"$PY" - "$here/../docs/research/bench.md" "$W/results.md" <<'EOF'
import sys
readme, results = sys.argv[1], sys.argv[2]
text = open(readme).read()
begin, end = "<!-- scale:begin -->\n", "<!-- scale:end -->\n"
a, b = text.index(begin) + len(begin), text.index(end)
new = open(results).read()
open(readme, "w").write(text[:a] + new + text[b:])
EOF
	say "results written to docs/research/bench.md"
fi
say "done in $(( $(date +%s) - t_start )) s"
