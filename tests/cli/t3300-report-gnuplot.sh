# t3300: gnuplot is a program pathstat runs, not a library: without it
# the bundle still has every .gp and .dat, index.md says how to render
# them, and the command exits 0 with a warning; a gnuplot that hangs is
# killed after $PATHSTAT_GNUPLOT_TIMEOUT, one that fails is an error
# showing its message (exit 1).  --no-render skips it on purpose.

probe() { # FILE V
	{
		echo "# pathprobe 1 target=h:5201 addr=10.0.0.2 count=3 interval_s=0.2 timeout_s=0.4 start=2026-08-28T01:00:00Z"
		echo "seq,unix_ns,connect_ms,result"
		echo "0,1787878800000000000,$2,ok"
		echo "1,1787878800200000000,$2,ok"
		echo "2,1787878800400000000,$2,ok"
	} > "$1"
}
mkdir -p tree/A tree/B
probe tree/A/probe.csv 0.21
probe tree/B/probe.csv 1.65
echo '{"path": "A", "trial": 1}' > tree/A/meta.json
echo '{"path": "B", "trial": 1}' > tree/B/meta.json
run "$PS" ingest --db t.db tree
cat > spec.json <<'EOF'
{ "title": "Tiny", "paths": {"A": "Same AZ", "B": "Cross-AZ"},
  "sections": [ { "type": "percentiles", "id": "connect", "metric": "connect_ms",
                  "stats": "p50,p99", "chart": "bars" } ] }
EOF

# no gnuplot at all: a PATH without it (pathstat needs no other program);
# env sets it for pathstat alone
run env PATH=/nonexistent "$PS" report --db t.db --spec spec.json --out b
expect_code 0 "without gnuplot: exit 0"
expect_err_has "warning: charts not rendered" "a warning says so"
expect_err_has "sudo apt-get install gnuplot-nox" "and names the package"
ok "[ -f b/charts/01-connect.gp ] && [ -f b/charts/01-connect.dat ]" "the script and the data are written"
ok "[ ! -e b/charts/01-connect.png ]" "no image"
ok "grep -q 'run \`gnuplot 01-connect.gp\` in the \`charts\` folder' b/index.md" "index.md says how to render"
ok "grep -q '\"gnuplot_version\":[[:space:]]*null' b/provenance.json" "provenance records no gnuplot"
ok "grep -q '\"rendered\":[[:space:]]*false' b/provenance.json" "and the chart as not rendered"
if have_prereq GNUPLOT; then
	(cd b/charts && gnuplot 01-connect.gp) 2>/dev/null
	ok "[ -s b/charts/01-connect.png ] && [ -s b/charts/01-connect.svg ]" "rendering by hand later works"
fi

run env PATHSTAT_GNUPLOT=/nonexistent/gnuplot "$PS" report --db t.db --spec spec.json --out b2
expect_code 0 "PATHSTAT_GNUPLOT naming nothing: exit 0"
expect_err_has "cannot be run" "the warning says why"

run "$PS" report --db t.db --spec spec.json --out b3 --no-render
expect_code 0 "--no-render"
expect_err_lacks "warning" "--no-render is quiet about gnuplot"
ok "[ -f b3/charts/01-connect.gp ] && [ ! -e b3/charts/01-connect.png ]" "scripts, no images"

# a gnuplot that hangs is killed; one that fails is an error with its words
cat > hang.sh <<'EOF'
#!/bin/sh
case "$1" in --version) echo "gnuplot 5.4 patchlevel 4"; exit 0 ;; esac
exec sleep 30
EOF
cat > fail.sh <<'EOF'
#!/bin/sh
case "$1" in --version) echo "gnuplot 5.4 patchlevel 4"; exit 0 ;; esac
echo "\"$1\" line 3: undefined variable: oops" >&2
exit 1
EOF
chmod +x hang.sh fail.sh
start=$(date +%s)
run env PATHSTAT_GNUPLOT="$TMP/hang.sh" PATHSTAT_GNUPLOT_TIMEOUT=1 "$PS" report --db t.db --spec spec.json --out b4
took=$(( $(date +%s) - start ))
expect_code 1 "a hanging gnuplot: exit 1"
expect_err_has "gnuplot failed on charts/01-connect.gp (timed out)" "says it timed out"
ok "[ $took -lt 15 ]" "killed after the timeout (took ${took}s)"
ok "[ -f b4/index.md ] && [ -f b4/tables/01-connect.csv ]" "the rest is still written"
run env PATHSTAT_GNUPLOT="$TMP/fail.sh" "$PS" report --db t.db --spec spec.json --out b5
expect_code 1 "a failing gnuplot: exit 1"
expect_err_has "undefined variable: oops" "its message is shown"

# gnuplot runs in the charts folder with the script as its argument
if have_prereq GNUPLOT; then
	run "$PS" report --db t.db --spec spec.json --out b6
	expect_code 0 "with gnuplot"
	expect_err_has "1 chart (1 rendered)" "rendered"
	ok "[ -s b6/charts/01-connect.png ] && [ -s b6/charts/01-connect.svg ]" "PNG and SVG beside the script"
fi
test_done
