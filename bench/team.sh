#!/bin/sh
# bench/team.sh - how each verb grows with the days of a team's campaign
# (8 instance types x 5 paths x 3 trials of iperf3 and probes a day,
# written by bench/team-tree.py).  For each of SHORT and LONG days
# (default 21 and 84): ingest, re-ingest with nothing changed, analyze
# percentiles, compare --by instance_type, trend --by day, check,
# export, the no-spec report (--no-render) and analyze --by trial; each
# once under /usr/bin/time (CPU = user + sys, peak RSS), with the
# 1-minute load average at its start.  Prints one Markdown table and
# the growth LONG/SHORT of CPU, and the report's CPU against the four
# commands a user would otherwise run (percentiles, compare, trend,
# check).
#
#   sh bench/team.sh [OUT]
#   env: TEAM_DAYS ("21 84"), TEAM_PROBES (60), TEAM_INTERVALS (10),
#        PYTHON (/usr/bin/python3)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
PS=$top/pathstat
PY=${PYTHON:-/usr/bin/python3}
OUT=${1:-${BENCH_OUT:-$here/out}/team}
DAYS=${TEAM_DAYS:-21 84}
L='{tag:day}/{tag:instance_type}/{path}_{cond}_run{trial}'

mkdir -p "$OUT"
res=$OUT/results.txt
: >"$res"

# step DAYS NAME CMD...: time CMD; append "DAYS NAME cpu rss load"
step() {
	d=$1 name=$2
	shift 2
	load=$(cut -d' ' -f1 /proc/loadavg)
	/usr/bin/time -f '%U %S %M' -o "$OUT/time" "$@" >/dev/null 2>"$OUT/err" || {
		echo "team.sh: $name failed:" >&2
		cat "$OUT/err" >&2
		exit 1
	}
	set -- $(tail -n 1 "$OUT/time")
	cpu=$(echo "$1 + $2" | bc)
	echo "$d $name $cpu $3 $load" >>"$res"
}

for d in $DAYS; do
	tree=$OUT/tree-$d
	[ -d "$tree" ] || "$PY" "$here/team-tree.py" "$tree" "$d" \
	    "${TEAM_PROBES:-60}" "${TEAM_INTERVALS:-10}" >/dev/null
	db=$OUT/team-$d.db
	rm -f "$db" "$db-wal" "$db-shm"
	rm -rf "$OUT/export-$d" "$OUT/report-$d"
	step "$d" ingest "$PS" ingest -q --db "$db" --layout "$L.json" \
	    --layout "$L.csv" "$tree"
	step "$d" re-ingest "$PS" ingest -q --db "$db" --layout "$L.json" \
	    --layout "$L.csv" "$tree"
	step "$d" percentiles "$PS" analyze percentiles --db "$db" \
	    --metric connect_ms --format csv
	step "$d" compare "$PS" analyze compare --db "$db" \
	    --metric connect_ms --by instance_type --format csv
	step "$d" trend "$PS" analyze trend --db "$db" --metric connect_ms \
	    --by day --format csv
	step "$d" check sh -c "'$PS' check --db '$db' >/dev/null; [ \$? -le 3 ]"
	step "$d" export "$PS" export -q --db "$db" --out "$OUT/export-$d"
	step "$d" report "$PS" report --db "$db" --out "$OUT/report-$d" \
	    --no-render
	step "$d" by-trial "$PS" analyze percentiles --db "$db" \
	    --metric connect_ms --by trial,instance_type,day --format csv
done

"$PY" - "$res" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1])]
days = sorted({int(r[0]) for r in rows})
cpu = {(int(r[0]), r[1]): float(r[2]) for r in rows}
rss = {(int(r[0]), r[1]): int(r[3]) for r in rows}
load = {(int(r[0]), r[1]): r[4] for r in rows}
names = list(dict.fromkeys(r[1] for r in rows))
a, b = days[0], days[-1]
print("| step | " + " | ".join("%d days CPU s (RSS MiB, load)" % d
                                for d in days) + " | growth |")
print("| --- | " + " | ".join("---" for _ in days) + " | --- |")
for n in names:
    cells = ["%.2f (%.0f, %s)" % (cpu[d, n], rss[d, n] / 1024, load[d, n])
             for d in days]
    g = cpu[b, n] / cpu[a, n] if cpu[a, n] > 0 else float("nan")
    print("| %s | %s | %.1fx |" % (n, " | ".join(cells), g))
for d in days:
    four = sum(cpu[d, n] for n in ("percentiles", "compare", "trend",
                                    "check"))
    print("\n%d days: report %.2f s CPU = %.1fx the four commands "
          "(%.2f s)" % (d, cpu[d, "report"], cpu[d, "report"] / four, four),
          end="")
print()
PY
