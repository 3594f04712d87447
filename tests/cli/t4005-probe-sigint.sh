# t4005: SIGINT ends a run early and still leaves a valid -o file with the
# rows done (written to a temporary file, renamed at the end).
. "$TOP/tests/cli/helper/probe-lib.sh"
trap stop_peers EXIT

start_peer accept 127.0.0.1 10 || skip_all "cannot start a loopback listener"
P=$PEER_PORT

# A background job of a non-interactive shell starts with SIGINT ignored
# (and pathprobe keeps ignored signals ignored), so reset it on the way.
"$PY" -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$PROBE" -n 1000 -i 0.05 -o probe.csv \
    127.0.0.1 "$P" 2>err.txt &
pid=$!
sleep 0.6
ok '[ ! -e probe.csv ] && ls -A | grep -q "^\.probe\.csv\."' \
    "while running: only the hidden temporary file exists"
kill -INT $pid
wait $pid
rc=$?
ok '[ $rc -eq 0 ]' "SIGINT: exit status follows the rows done (0), got $rc"
ok 'grep -q "interrupted after [0-9]* of 1000 probes" err.txt' "SIGINT: says interrupted"
n=$(csv_rows probe.csv | wc -l)
ok '[ "$n" -ge 5 ] && [ "$n" -lt 1000 ]' "SIGINT: some rows written ($n)"
ok 'head -1 probe.csv | grep -q "^# pathprobe 2 target="' "SIGINT: header intact"
ok 'csv_rows probe.csv | awk -F, "{if(\$1!=NR-1||\$5!=\"ok\")e=1} END{exit e}"' \
    "SIGINT: rows complete and in order"
ok '[ -z "$(ls -A | grep "^\.probe\.csv\.")" ]' "SIGINT: no temporary file left"
ok 'grep -q "$n sent, $n ok" err.txt' "SIGINT: summary counts the rows written"

# SIGTERM likewise; stdout output keeps the rows done too.
"$PROBE" -n 1000 -i 0.05 127.0.0.1 "$P" >term.csv 2>err2.txt &
pid=$!
sleep 0.4
kill -TERM $pid
wait $pid
rc=$?
ok '[ $rc -eq 0 ] && grep -q "interrupted after" err2.txt' "SIGTERM: ends early, exit 0"
ok '[ "$(csv_rows term.csv | wc -l)" -ge 3 ] && head -1 term.csv | grep -q "^# pathprobe 2 "' \
    "SIGTERM: stdout has the header and the rows done"

# nohup: a signal ignored on entry stays ignored (SSH hang-up).
"$PY" -c 'import os, signal, sys
signal.signal(signal.SIGHUP, signal.SIG_IGN)
os.execv(sys.argv[1], sys.argv[1:])' "$PROBE" -n 8 -i 0.05 127.0.0.1 "$P" \
    >hup.csv 2>err3.txt &
pid=$!
sleep 0.15
kill -HUP $pid
wait $pid
rc=$?
ok '[ $rc -eq 0 ] && [ "$(csv_rows hup.csv | wc -l)" -eq 8 ] && ! grep -q interrupted err3.txt' \
    "SIGHUP ignored on entry (nohup): the run completes"

test_done
