# t4004: a loopback listener whose accept queue is full and which never
# accepts: Linux drops the SYNs (even with syncookies, the accept queue
# check comes first), so every probe times out; a timeout is loss, not an
# RTT, exit 3.  With the timeout longer than the interval, probes overlap
# and the schedule does not drift.
. "$TOP/tests/cli/helper/probe-lib.sh"
trap stop_peers EXIT

start_peer full 127.0.0.1 15 || skip_all "cannot start a loopback listener"
P=$PEER_PORT

run "$PROBE" -n 12 -i 0.05 -t 0.12 -o probe.csv 127.0.0.1 "$P"
expect_code 3 "timeouts: exit 3"
ok '[ "$(csv_rows probe.csv | grep -c "^[0-9]*,[0-9]*,,,timeout$")" -eq 12 ]' \
    "twelve timeout rows, no connect_ms"
expect_err_has "12 sent, 0 ok, 100.0% loss (12 timeout)" "summary: loss"
ok 'csv_rows probe.csv | awk -F, "{if(\$1!=NR-1)e=1} END{exit e}"' "rows in seq order"
# A prober that waited for each timeout (0.12 s) before the next probe
# could never catch up a late start (helper/schedule.py); the schedule
# is checked exactly, from the rows, not against the clock.
schedule probe.csv 50000000
ok 'grep -q "^n=12 early=0 " probe.csv.sched' \
    "no probe starts before start + seq * 50 ms: $(cat probe.csv.sched)"
ok 'grep -q " catchups=[1-9][0-9]* " probe.csv.sched' \
    "timeouts (0.12 s) do not delay the 0.05 s schedule: late starts caught up"

test_done
