# t4005: SIGINT ends a run early and still leaves a valid -o file with the
# rows done (written to a temporary file, renamed at the end).
. "$TOP/tests/cli/helper/probe-lib.sh"
trap stop_peers EXIT

start_peer accept 127.0.0.1 10 || skip_all "cannot start a loopback listener"
P=$PEER_PORT

"$PROBE" -n 1000 -i 0.05 -o probe.csv 127.0.0.1 "$P" 2>err.txt &
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
ok 'head -1 probe.csv | grep -q "^# pathprobe 1 target="' "SIGINT: header intact"
ok 'csv_rows probe.csv | awk -F, "{if(\$1!=NR-1||\$4!=\"ok\")e=1} END{exit e}"' \
    "SIGINT: rows complete and in order"
ok '[ -z "$(ls -A | grep "^\.probe\.csv\.")" ]' "SIGINT: no temporary file left"
ok 'grep -q "$n sent, $n ok" err.txt' "SIGINT: summary counts the rows written"

test_done
