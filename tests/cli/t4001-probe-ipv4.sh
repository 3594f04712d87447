# t4001: pathprobe against a loopback listener on 127.0.0.1: every probe
# ok, the count and the absolute schedule respected, the header exactly
# as docs/design.md shows, -o written atomically, --rst leaves no TIME_WAIT.
. "$TOP/tests/cli/helper/probe-lib.sh"
trap stop_peers EXIT

start_peer accept 127.0.0.1 15 || skip_all "cannot start a loopback listener"
P=$PEER_PORT

run "$PROBE" -n 20 -i 0.05 -t 0.4 127.0.0.1 "$P"
expect_code 0 "all ok: exit 0"
printf '%s\n' "$OUT" > out.csv
ok '[ "$(csv_rows out.csv | wc -l)" -eq 20 ]' "20 rows for -n 20"
ok '[ "$(csv_rows out.csv | grep -c ",ok$")" -eq 20 ]' "every row ok"
ok 'head -1 out.csv | grep -Eq "^# pathprobe 2 target=127\.0\.0\.1:$P addr=127\.0\.0\.1 count=20 interval_s=0\.05 timeout_s=0\.4 start=[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z( |$)"' \
    "first line: docs/design.md keys in order"
ok '[ "$(sed -n 2p out.csv)" = "seq,unix_ns,connect_ms,rtt_us,result" ]' "CSV header"
ok 'csv_rows out.csv | awk -F, "BEGIN{e=0} \$1!=NR-1||length(\$2)!=19||\$2!~/^[0-9]+\$/||\$3!~/^[0-9]+\.[0-9][0-9][0-9]\$/{e=1} END{exit e}"' \
    "seq from 0, unix_ns in ns, connect_ms with 3 decimals"
# The schedule, from the rows alone and whatever the machine's load:
# probe i never starts before unix_ns[0] + i * 50 ms (exact: the stamps
# are on the schedule's own clock), and a late start is caught up, not
# carried forward (a sleep-after-probe prober never catches up).  How
# late probes started is printed, not asserted.
schedule out.csv 50000000
ok 'grep -q "^n=20 early=0 " out.csv.sched' \
    "no probe starts before start + seq * 50 ms: $(cat out.csv.sched)"
ok 'grep -q " catchups=[1-9][0-9]* " out.csv.sched' \
    "absolute schedule: late starts are caught up, no drift accumulates"
ok '[ $(($(sed -n 3p out.csv | cut -d, -f2) / 1000000000)) -ge $(date -ud "$(head -1 out.csv | sed "s/.* start=\([^ ]*\) .*/\1/")" +%s) ]' \
    "probe 0 starts at or after the header's start= second"
ok 'csv_rows out.csv | awk -F, "\$3>=400{e=1} END{exit e}"' "no ok row at or past the timeout"
expect_err_has "20 sent, 20 ok, 0.0% loss" "summary: counts"
expect_err_has "p50" "summary: p50"
expect_err_has "(type7, n=20)" "summary: estimator and n"
expect_err_has "; started late p50 " "summary: how late probes started"

run "$PROBE" -q -n 3 -i 0.01 127.0.0.1 "$P"
expect_code 0 "-q: exit 0"
ok '[ -z "$ERR" ]' "-q: nothing on stderr"

# -o: a complete file, no temporary left, mode from the umask.
run sh -c "umask 022 && exec \"$PROBE\" -n 5 -i 0.01 -o probe.csv 127.0.0.1 $P"
expect_code 0 "-o: exit 0"
ok '[ -z "$OUT" ]' "-o: nothing on stdout"
ok '[ "$(csv_rows probe.csv | grep -c ",ok$")" -eq 5 ]' "-o: five ok rows in the file"
ok '[ -z "$(ls -A | grep "^\.probe\.csv\.")" ]' "-o: no temporary file left"
ok '[ "$(stat -c %a probe.csv)" = 644 ]' "-o: mode 644 under umask 022"

# TIME_WAIT: pathprobe closes first, so each ok probe leaves one, unless
# --rst closes with RST.
tw() { ss -Htan state time-wait "( dport = :$P )" 2>/dev/null | wc -l; }
if command -v ss >/dev/null 2>&1; then
	sleep 0.2
	before=$(tw)
	run "$PROBE" --rst -n 10 -i 0.01 127.0.0.1 "$P"
	expect_code 0 "--rst: exit 0"
	ok 'head -1 .out | grep -q " rst=1 "' "--rst: recorded in the header"
	sleep 0.2
	ok '[ "$(tw)" -le "$before" ]' "--rst: no new TIME_WAIT sockets"
	run "$PROBE" -n 10 -i 0.01 127.0.0.1 "$P"
	sleep 0.2
	ok '[ "$(tw)" -ge $((before + 10)) ]' "without --rst: ten TIME_WAIT sockets"
fi

# -b binds the source address; recorded in the header.
run "$PROBE" -b 127.0.0.1 -n 2 -i 0.01 127.0.0.1 "$P"
expect_code 0 "-b 127.0.0.1: exit 0"
expect_out_has " bind=127.0.0.1 " "-b: recorded in the header"

# --resolve-each: a name, resolved before every probe inside the timing.
run "$PROBE" -4 --resolve-each -n 3 -i 0.02 localhost "$P"
expect_code 0 "--resolve-each localhost: exit 0"
expect_out_has "target=localhost:$P addr=127.0.0.1 " "--resolve-each: target and addr"
expect_out_has " resolve_each=1 " "--resolve-each: recorded in the header"

test_done
