# t4004: a loopback listener whose accept queue is full and which never
# accepts: Linux drops the SYNs (even with syncookies, the accept queue
# check comes first), so every probe times out; a timeout is loss, not an
# RTT, exit 3.  With the timeout longer than the interval, probes overlap
# and the schedule does not drift.
. "$TOP/tests/cli/helper/probe-lib.sh"
trap stop_peers EXIT

start_peer full 127.0.0.1 15 || skip_all "cannot start a loopback listener"
P=$PEER_PORT

run "$PROBE" -n 8 -i 0.1 -t 0.25 -o probe.csv 127.0.0.1 "$P"
expect_code 3 "timeouts: exit 3"
ok '[ "$(csv_rows probe.csv | grep -c "^[0-9]*,[0-9]*,,,timeout$")" -eq 8 ]' \
    "eight timeout rows, no connect_ms"
expect_err_has "8 sent, 0 ok, 100.0% loss (8 timeout)" "summary: loss"
ok 'csv_rows probe.csv | awk -F, "NR==1{t0=\$2} {d=(\$2-t0)/1e6-(NR-1)*100; if(d<-1||d>5)e=1} END{exit e}"' \
    "timeouts (0.25 s) do not delay the 0.1 s schedule"
ok 'csv_rows probe.csv | awk -F, "{if(\$1!=NR-1)e=1} END{exit e}"' "rows in seq order"

test_done
