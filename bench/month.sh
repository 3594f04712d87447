#!/bin/sh
# bench/month.sh - a year of hourly monitoring: 5 paths x 24
# hours x DAYS days of 60-probe pathprobe runs (DAYS = 365: 43,800 files,
# 2.6 M samples), written by tests/cli/helper/month-tree.py, the tree of
# t2900.  Measures, each once under /usr/bin/time -v (wall and peak RSS):
#
#   gen        writing the tree (the generator, for scale)
#   ingest     pathstat ingest of DAYS - 1 days into a fresh database
#   ingest+1   ingest again after one new day arrives (incremental: every
#              file is looked at, one day's are stored)
#   month      pathstat report (no spec) of a 30-day database
#   year       pathstat report (no spec) of the DAYS-day database
#
# and prints one Markdown table on stdout (bench/run.sh puts it into
# docs/research/bench.md).  Run alone: sh bench/month.sh [OUT]; env BENCH_DAYS
# (default 365), BENCH_PROBES (60).  Charts are not rendered (--no-render):
# gnuplot's time is not pathstat's.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
PS=$top/pathstat
PY=${PYTHON:-/usr/bin/python3}
GEN=$top/tests/cli/helper/month-tree.py
OUT=${1:-${BENCH_OUT:-$here/out}/month}
DAYS=${BENCH_DAYS:-365}
PROBES=${BENCH_PROBES:-60}
TIME=/usr/bin/time
L='{tag:day}/{path}/{*}'

say() { echo "bench month: $*" >&2; }
[ -x "$PS" ] || { say "no $PS (run make)"; exit 1; }

rm -rf "$OUT"
mkdir -p "$OUT"
: > "$OUT/results"

# one NAME CMD...: run once under time -v; NAME wall s, peak RSS KiB
one() {
	name=$1
	shift
	t0=$(date +%s.%N)
	rc=0
	"$TIME" -v -o "$OUT/$name.time" "$@" > "$OUT/$name.out" \
	    2> "$OUT/$name.err" || rc=$?
	t1=$(date +%s.%N)
	[ "$rc" = 0 ] || [ "$rc" = 1 ] || say "$name: exit $rc (see $OUT/$name.err)"
	awk -v n="$name" -v t0="$t0" -v t1="$t1" '
	    /Maximum resident set size/ { r = $NF }
	    /User time/ || /System time/ { c += $NF }
	    END { printf "%s %.2f %.2f %d\n", n, t1 - t0, c, r }' \
	    "$OUT/$name.time" >> "$OUT/results"
	say "$(tail -1 "$OUT/results")"
}

# the year: DAYS - 1 days, then the last one
one gen "$PY" "$GEN" "$OUT/tree" $((DAYS - 1)) "$PROBES"
nfiles=$(cut -d' ' -f1 "$OUT/gen.out")
one ingest "$PS" ingest -q --db "$OUT/year.db" --layout "$L" "$OUT/tree"
"$PY" "$GEN" "$OUT/tree" "$DAYS" "$PROBES" 2026-11-01 --days-only "$DAYS" > /dev/null
one ingest+1 "$PS" ingest -q --db "$OUT/year.db" --layout "$L" "$OUT/tree"
samples=$(sqlite3 "$OUT/year.db" "SELECT count(*) FROM samples")
files=$(sqlite3 "$OUT/year.db" "SELECT count(*) FROM files")
# a month: its own 30-day tree and database
"$PY" "$GEN" "$OUT/mtree" 30 "$PROBES" > /dev/null
"$PS" ingest -q --db "$OUT/month.db" --layout "$L" "$OUT/mtree" 2>/dev/null || :
one month "$PS" report --db "$OUT/month.db" --out "$OUT/mb" --no-render
one year "$PS" report --db "$OUT/year.db" --out "$OUT/yb" --no-render

{
	echo "A year of hourly monitoring: $files files, $samples samples" \
	    "($DAYS days x 5 paths x 24 hours x $PROBES probes; the generator" \
	    "wrote $nfiles files for the first $((DAYS - 1)) days)."
	echo
	echo "| step | wall (s) | CPU (s) | peak RSS (MiB) |"
	echo "| --- | ---: | ---: | ---: |"
	awk '{ printf "| %s | %.1f | %.1f | %.0f |\n", $1, $2, $3, $4 / 1024 }' \
	    "$OUT/results"
}
