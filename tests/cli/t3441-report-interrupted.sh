# t3441: an interrupted report leaves nothing in its bundle folder.
# SIGINT or SIGTERM during report used to leave DIR/.pathstat-report-
# XXXXXX (its private folder, 300 KB) behind, and later runs neither
# removed nor mentioned it: `aws s3 sync` of the bundle published it.
# Now the signal removes the private folder (the walk and the gnuplot
# wait stop, the normal path cleans up, then the signal is re-raised),
# and a folder left by a report killed outright (SIGKILL) is removed
# and named by the next report into the same folder: only ours (the
# exact name, a real folder owned by us, not held by a running report).
# gnuplot is a stand-in that waits, so the signal arrives mid-report.
mkdir -p tree/A tree/B
for p in A B; do
	{
		echo "# pathprobe 1 target=h:5201 addr=10.0.0.2 count=3 interval_s=0.2 timeout_s=0.4 start=2026-08-28T01:00:00Z"
		echo "seq,unix_ns,connect_ms,result"
		echo "0,1787878800000000000,0.21,ok"
		echo "1,1787878800200000000,0.25,ok"
		echo "2,1787878800400000000,0.23,ok"
	} > tree/$p/probe.csv
	echo "{\"path\": \"$p\", \"trial\": 1}" > tree/$p/meta.json
done
run "$PS" ingest -q --db t.db tree
expect_code 0 "the tree is ingested"
cat > spec.json <<'EOF2'
{ "title": "T", "sections": [
  { "type": "percentiles", "id": "c", "metric": "connect_ms", "chart": "bars" } ] }
EOF2
# The stand-in gnuplot: answers --version, then says it started and waits.
cat > slowplot <<EOF2
#!/bin/sh
case \${1:-} in --version|-V) echo "gnuplot 5.4 patchlevel 2"; exit 0 ;; esac
echo \$\$ > "$TMP/plot-started"
exec sleep 30
EOF2
chmod +x slowplot
# The trampoline: a background job of sh ignores SIGINT, and a signal
# ignored on entry stays ignored; this puts SIGINT back to its default.
cat > tramp.py <<'EOF2'
import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])
EOF2
stage() { find "$1" -maxdepth 1 -name '.pathstat-report-*' | head -1; }
# interrupted DIR SIG: start a report into DIR, wait until gnuplot runs,
# send SIG; sets RC to the report's exit status.
interrupted() {
	rm -f plot-started
	PATHSTAT_GNUPLOT="$TMP/slowplot" "$REAL_PY" tramp.py "$PS" report \
	    --db t.db --spec spec.json --out "$1" --no-checks \
	    >"$1.out" 2>"$1.err" &
	pid=$!
	i=0
	while [ ! -e plot-started ] && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	ok "[ -e plot-started ] && [ -n \"\$(stage $1)\" ]" \
	    "$2: the report is running, its private folder in $1"
	kill -s "$2" $pid
	wait $pid
	RC=$?
}

for sig in INT TERM; do
	interrupted "o$sig" $sig
	case $sig in INT) want=130 ;; TERM) want=143 ;; esac
	ok "[ $RC = $want ]" "SIG$sig: the report dies of the signal (exit $RC)"
	ok "[ -z \"\$(stage o$sig)\" ]" "SIG$sig: no private folder is left"
	ok "[ ! -e o$sig/index.md ] && [ ! -e o$sig/provenance.json ]" \
	    "SIG$sig: nothing is written"
	ok "grep -q 'interrupted by SIG$sig' o$sig.err" "SIG$sig: and it says so"
done

# ---- a report killed outright leaves its folder: the next one removes it
interrupted oKILL KILL
kill "$(cat plot-started)" 2>/dev/null	# its gnuplot outlives it
leftover=$(stage oKILL)
ok "[ -n \"$leftover\" ] && [ -d \"$leftover\" ]" \
    "SIGKILL leaves the private folder (nothing can remove it then)"
run "$PS" report --db t.db --spec spec.json --out oKILL --no-checks \
    --no-render
expect_code 0 "the next report into the same folder succeeds (no --force)"
ok "[ ! -e \"$leftover\" ] && [ -z \"\$(stage oKILL)\" ]" "and removed it"
expect_err_has "removed '$leftover', the private folder an interrupted report left" \
    "and says what it removed"

# ---- only ours: the exact name, a real folder, owned by us, unlocked
mkdir victim && echo keep > victim/keep.txt
mkdir oKILL/.pathstat-report-abc12 oKILL/.pathstat-report-ABCDEF \
    oKILL/.pathstat-report-held01
ln -s ../victim oKILL/.pathstat-report-link01
echo mine > oKILL/.pathstat-report-file01
mkdir -p oKILL/.pathstat-report-old001/tables oKILL/.pathstat-report-old001/charts
echo x > oKILL/.pathstat-report-old001/tables/01.csv
echo x > oKILL/.pathstat-report-old001/index.md
"$REAL_PY" -c '
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY)
fcntl.flock(fd, fcntl.LOCK_EX)
open(sys.argv[2], "w").close()
time.sleep(30)' oKILL/.pathstat-report-held01 held >/dev/null 2>&1 &
holder=$!
i=0
while [ ! -e held ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
run "$PS" report --db t.db --spec spec.json --out oKILL --no-checks \
    --no-render --force
expect_code 0 "a report among look-alikes succeeds"
ok "[ ! -e oKILL/.pathstat-report-old001 ]" "a stale one of ours is removed"
ok "[ -d oKILL/.pathstat-report-abc12 ] && [ -d oKILL/.pathstat-report-ABCDEF ]" \
    "other names are left alone"
ok "[ -L oKILL/.pathstat-report-link01 ] && [ \"\$(cat victim/keep.txt)\" = keep ]" \
    "a link of our name is left, and what it points to"
ok "[ \"\$(cat oKILL/.pathstat-report-file01)\" = mine ]" "a file of our name is left"
ok "[ -d oKILL/.pathstat-report-held01 ]" "one a running report holds is left"
kill $holder 2>/dev/null
wait $holder 2>/dev/null

test_done
